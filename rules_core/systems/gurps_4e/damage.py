"""One hit's damage (B378-379, B398-400, B414): the dice notation (``2d+1``, ``1d-1``, ``3d``,
``4d×2``) and the pipeline from a dice total to injury — basic damage → DR (after the armor
divisor) → penetrating damage → wounding modifier → injury; blunt trauma through flexible armor;
explosion damage falling with distance; a major wound.

:func:`parse_damage` reads the notation and refuses anything else with a message saying what was
wrong and what is accepted. :func:`injury` is the rule on one concrete dice total (with a trace);
:func:`hit_injury` is the exact distribution of one hit's injury, the same rule on every total.

>>> parse_damage("2d+1")
DamageDice(dice=2, adds=1, multiplier=1)
>>> str(parse_damage(" 4D6 x2 "))
'4d×2'
>>> sword = Hit(parse_damage("2d+1"), "cut", dr=3)
>>> injury(sword, 7).value        # the seed: 2 dice total 7, +1 = 8 basic, DR 3, 5 × 1.5 = 7.5
7
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import floor
from typing import NamedTuple

from ...dist import Dist
from ...result import TraceStep
from . import sources as cite

__all__ = ["DamageDice", "NotationError", "parse_damage", "dice_total", "MAX_DICE", "MAX_ADDS",
           "MAX_MULTIPLIER", "MAX_LENGTH", "NOTATION", "DAMAGE_TYPES", "LOCATIONS", "DIVISORS", "Hit",
           "wounding_modifier", "effective_dr", "minimum_damage", "Injury", "injury", "hit_injury",
           "IMPALING_OR_PIERCING", "major_wound"]

# -- the notation ----------------------------------------------------------------------------------

MAX_DICE = 30
MAX_ADDS = 50
MAX_MULTIPLIER = 10
MAX_LENGTH = 24
NOTATION = ("GURPS damage dice: a number of six-sided dice, an optional add and an optional "
            "multiplier, such as 2d+1, 1d-1, 3d or 4d×2")

# Digits are spelled [0-9]: Python's \d also matches other scripts' digits.
_PATTERN = re.compile(
    r"(?P<dice>[0-9]{1,3})\s*[dD](?P<sides>[0-9]{1,3})?"
    r"\s*(?:(?P<sign>[+\-−])\s*(?P<adds>[0-9]{1,3}))?"
    r"\s*(?:[x×*]\s*(?P<mult>[0-9]{1,3}))?")


class NotationError(ValueError):
    """Text that is not GURPS damage dice notation; the message says why and what is accepted."""


@dataclass(frozen=True)
class DamageDice:
    """``dice`` six-sided dice, plus ``adds``, times ``multiplier``: ``(roll + adds) × multiplier``."""

    dice: int
    adds: int = 0
    multiplier: int = 1

    def __str__(self) -> str:
        text = f"{self.dice}d"
        if self.adds:
            text += f"{self.adds:+d}"
        if self.multiplier != 1:
            text += f"×{self.multiplier}"
        return text

    def basic(self, roll: int) -> int:
        """Basic damage from the total of the dice, before the minimum-damage rule.

        >>> DamageDice(2, 1).basic(7), DamageDice(4, 0, 2).basic(13), DamageDice(1, -1).basic(1)
        (8, 26, 0)
        """
        return (roll + self.adds) * self.multiplier

    @property
    def maximum(self) -> int:
        """The largest basic damage the dice can give."""
        return self.basic(6 * self.dice)


@cache
def dice_total(dice: int) -> Dist:
    """Exact distribution of the total of ``dice`` six-sided dice.

    >>> dice_total(3)[10], dice_total(3).denominator
    (Fraction(1, 8), 216)
    """
    return Dist.die(6).repeat_sum(dice)


def parse_damage(text: object) -> DamageDice:
    """Read damage dice notation; :class:`NotationError` names what is wrong otherwise.

    Accepts ``NdK``-style text with optional spaces: ``N`` dice (1 to 30; ``d6`` may be written
    out), an add of ``+K`` or ``-K`` (up to 50), and a multiplier ``×M``, ``xM`` or ``*M``
    (1 to 10).

    >>> parse_damage("1d-1"), parse_damage("3d")
    (DamageDice(dice=1, adds=-1, multiplier=1), DamageDice(dice=3, adds=0, multiplier=1))
    >>> parse_damage("2d8")
    Traceback (most recent call last):
    ...
    rules_core.systems.gurps_4e.damage.NotationError: '2d8' uses d8: GURPS damage dice are six-sided ('2d' means 2d6)
    """
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not text; expected {NOTATION}")
    if len(text) > MAX_LENGTH:
        raise NotationError(f"damage dice text is {len(text)} characters long; expected at most "
                        f"{MAX_LENGTH}: {NOTATION}")
    match = _PATTERN.fullmatch(text.strip())
    if match is None:
        raise NotationError(f"{text!r} is not damage dice notation; expected {NOTATION}")
    if match["sides"] is not None and match["sides"] != "6":
        raise NotationError(f"{text!r} uses d{match['sides']}: GURPS damage dice are six-sided "
                        f"('2d' means 2d6)")
    dice = int(match["dice"])
    if not 1 <= dice <= MAX_DICE:
        raise NotationError(f"{text!r} has {dice} dice; expected 1 to {MAX_DICE}")
    adds = int(match["adds"] or 0) * (-1 if match["sign"] in ("-", "−") else 1)
    if abs(adds) > MAX_ADDS:
        raise NotationError(f"{text!r} adds {adds:+d}; expected an add from -{MAX_ADDS} to +{MAX_ADDS}")
    multiplier = int(match["mult"] or 1)
    if not 1 <= multiplier <= MAX_MULTIPLIER:
        raise NotationError(f"{text!r} multiplies by {multiplier}; expected a multiplier from 1 to "
                        f"{MAX_MULTIPLIER}")
    return DamageDice(dice, adds, multiplier)


# -- the pipeline ----------------------------------------------------------------------------------

DAMAGE_TYPES = {
    "pi-": "pi- (small piercing)", "pi": "pi (piercing)", "pi+": "pi+ (large piercing)",
    "pi++": "pi++ (huge piercing)", "cut": "cut (cutting)", "imp": "imp (impaling)",
    "cr": "cr (crushing)", "burn": "burn (burning)", "cor": "cor (corrosion)",
    "tox": "tox (toxic)", "fat": "fat (fatigue: comes off FP)",
}
#: Wounding modifiers to the torso (B379).
TORSO = {"pi-": Fraction(1, 2), "pi": Fraction(1), "pi+": Fraction(3, 2), "pi++": Fraction(2),
         "cut": Fraction(3, 2), "imp": Fraction(2), "cr": Fraction(1), "burn": Fraction(1),
         "cor": Fraction(1), "tox": Fraction(1), "fat": Fraction(1)}
IMPALING_OR_PIERCING = frozenset({"pi-", "pi", "pi+", "pi++", "imp"})
#: Blunt trauma: 1 HP per full this-many points that flexible armor stops (B379).
BLUNT_TRAUMA_PER = {"cr": 5, "cut": 10, "imp": 10, "pi-": 10, "pi": 10, "pi+": 10, "pi++": 10}

LOCATIONS = {"torso": "Torso", "vitals": "Vitals (impaling or piercing only)", "limb": "Arm or leg"}

DIVISORS = {"1": "none", "2": "(2)", "3": "(3)", "5": "(5)", "10": "(10)", "100": "(100)",
            "0.5": "(0.5)", "0.2": "(0.2)", "0.1": "(0.1)"}
_DIVISOR_VALUES = {text: Fraction(text) for text in DIVISORS}


def wounding_modifier(damage_type: str, location: str) -> Fraction:
    """The wounding modifier for a damage type at a hit location (B379, B398-400).

    >>> wounding_modifier("cut", "torso"), wounding_modifier("pi", "vitals"), wounding_modifier("imp", "limb")
    (Fraction(3, 2), Fraction(3, 1), Fraction(1, 1))
    """
    if damage_type == "fat":
        return Fraction(1)
    if location == "vitals":
        if damage_type not in IMPALING_OR_PIERCING:
            raise ValueError(f"only impaling or piercing attacks can target the vitals, not {damage_type}")
        return Fraction(3)
    if location == "limb" and damage_type in ("pi+", "pi++", "imp"):
        return Fraction(1)
    return TORSO[damage_type]


def effective_dr(dr: int, divisor: str) -> int:
    """DR after an armor divisor (B378): divided and rounded down for (2) and up; multiplied for
    the fractional divisors, against which DR 0 counts as DR 1.

    >>> effective_dr(7, "2"), effective_dr(7, "1"), effective_dr(3, "0.5"), effective_dr(0, "0.2")
    (3, 7, 6, 5)
    """
    value = _DIVISOR_VALUES[divisor]
    if value >= 1:
        return dr // value
    return max(dr, 1) * value.denominator


def minimum_damage(damage_type: str) -> int:
    """The least basic damage a hit can do: 0 crushing, 1 any other type (B378)."""
    return 0 if damage_type == "cr" else 1


@dataclass(frozen=True)
class Hit:
    """Everything the pipeline needs for one hit on one target.

    ``hp`` is the target's basic HP (a hit to an arm or leg cannot do more injury than it takes
    to cripple it); ``cover_dr`` is the DR of cover the hit goes through before the armor;
    ``spread`` divides basic damage for an explosion (3 × yards from the blast, 1 otherwise).
    """

    damage: DamageDice
    damage_type: str
    divisor: str = "1"
    dr: int = 0
    flexible: bool = False
    location: str = "torso"
    hp: int = 10
    cover_dr: int = 0
    spread: int = 1

    def describe(self) -> str:
        """One line: the pipeline's arithmetic for this hit."""
        mult = wounding_modifier(self.damage_type, self.location)
        parts = [f"({self.damage} {self.damage_type}"]
        if self.spread > 1:
            parts.append(f"÷ {self.spread} (blast distance), round down")
        if self.cover_dr:
            parts.append(f"− cover DR {effective_dr(self.cover_dr, self.divisor)}")
        parts.append(f"− DR {effective_dr(self.dr, self.divisor)}"
                     + (f" [DR {self.dr}, armor divisor {DIVISORS[self.divisor]}]" if self.divisor != "1" else "")
                     + ")")
        parts.append(f"× {_number(mult)} ({self.damage_type}, {LOCATIONS[self.location].split(' (')[0].lower()})")
        text = " ".join(parts) + ", round down, at least 1 if anything penetrates"
        if self.location == "limb" and self.damage_type != "fat":
            text += f"; at most {self.hp // 2 + 1} (crippling an arm or leg, excess lost)"
        if self.flexible and self.damage_type in BLUNT_TRAUMA_PER:
            text += f"; blunt trauma 1 per full {BLUNT_TRAUMA_PER[self.damage_type]} stopped when nothing penetrates"
        return text


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


class Injury(NamedTuple):
    """One hit's injury (HP, or FP for fatigue damage) and, when asked for, the steps to it."""

    value: int
    steps: tuple[TraceStep, ...]


def injury(hit: Hit, roll: int, explain: bool = False) -> Injury:
    """Injury (HP, or FP for fatigue damage) from one hit whose damage dice total ``roll``.

    Order (B378-379): basic damage = (roll + adds) × multiplier, at least 0 crushing or 1
    otherwise; an explosion's share at a distance is that divided by 3 × yards, rounded down;
    cover DR then the target's DR (each after the armor divisor) come off; the rest penetrates;
    injury = penetrating × wounding modifier, rounded down, at least 1 if anything penetrated
    (capped for an arm or leg at what cripples it). If nothing penetrates flexible armor,
    blunt trauma: 1 per full 5 crushing or 10 cutting/impaling/piercing points it stopped.

    >>> injury(Hit(parse_damage("1d-3"), "pi-", dr=0), 1).value     # minimum 1 basic; ×0.5 still 1
    1
    >>> injury(Hit(parse_damage("6d"), "cr", dr=40, flexible=True), 36).value   # 36 stopped: 7 blunt trauma
    7
    """
    steps: list[TraceStep] = []
    raw = hit.damage.basic(roll)
    floor_damage = minimum_damage(hit.damage_type)
    basic = max(raw, floor_damage)
    if explain:
        steps.append(TraceStep("Basic damage", f"dice {roll}, {hit.damage} → {raw}"
                               + (f", raised to the minimum {floor_damage}" if basic != raw else ""),
                               cite.DAMAGE))
    if hit.spread > 1:
        shared = basic // hit.spread
        if explain:
            steps.append(TraceStep("Explosion at a distance", f"{basic} ÷ {hit.spread} → {shared}",
                                   cite.EXPLOSION))
        basic = shared
    cover = effective_dr(hit.cover_dr, hit.divisor) if hit.cover_dr else 0
    reaching = max(0, basic - cover)
    if cover and explain:
        steps.append(TraceStep("Cover", f"cover DR {cover} stops {basic - reaching}; {reaching} reaches the target",
                               cite.COVER))
    dr = effective_dr(hit.dr, hit.divisor)
    penetrating = max(0, reaching - dr)
    if explain:
        divisor = f" (DR {hit.dr}, armor divisor {DIVISORS[hit.divisor]})" if hit.divisor != "1" else ""
        steps.append(TraceStep("DR", f"{reaching} − DR {dr}{divisor} → {penetrating} penetrating",
                               cite.DIVISOR if hit.divisor != "1" else cite.DAMAGE))
    if penetrating > 0:
        mult = wounding_modifier(hit.damage_type, hit.location)
        value = max(1, floor(penetrating * mult))
        if explain:
            steps.append(TraceStep("Wounding modifier",
                                   f"{penetrating} × {_number(mult)} ({hit.damage_type}, "
                                   f"{hit.location}) → {value} (round down, at least 1)", cite.WOUNDING))
    elif hit.flexible and reaching > 0 and hit.damage_type in BLUNT_TRAUMA_PER:
        per = BLUNT_TRAUMA_PER[hit.damage_type]
        value = reaching // per
        if explain:
            steps.append(TraceStep("Blunt trauma", f"flexible armor stopped {reaching}: 1 per full {per} → {value}",
                                   cite.BLUNT))
    else:
        value = 0
    if hit.location == "limb" and hit.damage_type != "fat" and value > hit.hp // 2 + 1:
        if explain:
            steps.append(TraceStep("Crippled limb", f"{value} → {hit.hp // 2 + 1}: injury beyond "
                                   f"crippling an arm or leg (over HP/2 = {hit.hp}/2) is lost", cite.LOCATION))
        value = hit.hp // 2 + 1
    return Injury(value, tuple(steps))


@cache
def hit_injury(hit: Hit, maximum: bool = False) -> Dist:
    """Exact distribution of one hit's injury: :func:`injury` on every dice total, each with
    its weight (over 6^dice); with ``maximum``, the dice always give their highest total."""
    if maximum:
        return Dist.certain(injury(hit, 6 * hit.damage.dice).value)
    return dice_total(hit.damage.dice).map(lambda roll: injury(hit, roll).value)


def major_wound(injury: int, hp: int) -> bool:
    """One blow's injury over HP/2 (B420).

    >>> major_wound(5, 10), major_wound(6, 10), major_wound(3, 5)
    (False, True, True)
    """
    return 2 * injury > hp
