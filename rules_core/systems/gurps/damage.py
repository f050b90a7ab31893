"""The damage pipeline for one hit (B378-379, B398-400, B414): basic damage → DR (after the
armor divisor) → penetrating damage → wounding modifier → injury; blunt trauma through flexible
armor; explosion damage falling with distance.

:func:`injury` is the rule on one concrete dice total (with a trace); :func:`hit_injury` is the
exact distribution of one hit's injury, the same rule applied to every total.

>>> from rules_core.systems.gurps.dice import parse_damage
>>> sword = Hit(parse_damage("2d+1"), "cut", dr=3)
>>> injury(sword, 7)[0]          # the seed: 2 dice total 7, +1 = 8 basic, DR 3, 5 × 1.5 = 7.5
7
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import floor

from ...dist import Dist
from ...result import TraceStep
from . import sources as cite
from .dice import DamageDice, dice_total

__all__ = ["DAMAGE_TYPES", "LOCATIONS", "DIVISORS", "Hit", "wounding_modifier", "effective_dr",
           "minimum_damage", "injury", "hit_injury", "IMPALING_OR_PIERCING"]

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


def injury(hit: Hit, roll: int, explain: bool = False) -> tuple[int, tuple[TraceStep, ...]]:
    """Injury (HP, or FP for fatigue damage) from one hit whose damage dice total ``roll``.

    Order (B378-379): basic damage = (roll + adds) × multiplier, at least 0 crushing or 1
    otherwise; an explosion's share at a distance is that divided by 3 × yards, rounded down;
    cover DR then the target's DR (each after the armor divisor) come off; the rest penetrates;
    injury = penetrating × wounding modifier, rounded down, at least 1 if anything penetrated
    (capped for an arm or leg at what cripples it). If nothing penetrates flexible armor,
    blunt trauma: 1 per full 5 crushing or 10 cutting/impaling/piercing points it stopped.

    >>> from rules_core.systems.gurps.dice import parse_damage
    >>> injury(Hit(parse_damage("1d-3"), "pi-", dr=0), 1)[0]        # minimum 1 basic; ×0.5 still 1
    1
    >>> injury(Hit(parse_damage("6d"), "cr", dr=40, flexible=True), 36)[0]   # 36 stopped: 7 blunt trauma
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
    return value, tuple(steps)


@cache
def hit_injury(hit: Hit, maximum: bool = False) -> Dist:
    """Exact distribution of one hit's injury: :func:`injury` on every dice total, each with
    its weight (over 6^dice); with ``maximum``, the dice always give their highest total."""
    if maximum:
        return Dist.certain(injury(hit, 6 * hit.damage.dice)[0])
    return dice_total(hit.damage.dice).map(lambda roll: injury(hit, roll)[0])
