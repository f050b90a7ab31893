"""GURPS damage dice notation: ``2d+1``, ``1d-1``, ``3d``, ``4d×2``.

GURPS writes damage as a number of six-sided dice, an optional add and an optional multiplier
(B378; "2d+1" means roll two six-sided dice and add 1). :func:`parse_damage` reads that notation
and refuses anything else with a message saying what was wrong and what is accepted.

>>> parse_damage("2d+1")
DamageDice(dice=2, adds=1, multiplier=1)
>>> str(parse_damage(" 4D6 x2 "))
'4d×2'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ...dist import Dist

__all__ = ["DamageDice", "DiceError", "parse_damage", "dice_total", "MAX_DICE", "MAX_ADDS",
           "MAX_MULTIPLIER", "MAX_LENGTH", "NOTATION"]

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


class DiceError(ValueError):
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
    """Read damage dice notation; :class:`DiceError` names what is wrong otherwise.

    Accepts ``NdK``-style text with optional spaces: ``N`` dice (1 to 30; ``d6`` may be written
    out), an add of ``+K`` or ``-K`` (up to 50), and a multiplier ``×M``, ``xM`` or ``*M``
    (1 to 10).

    >>> parse_damage("1d-1"), parse_damage("3d")
    (DamageDice(dice=1, adds=-1, multiplier=1), DamageDice(dice=3, adds=0, multiplier=1))
    >>> parse_damage("2d8")
    Traceback (most recent call last):
    ...
    rules_core.systems.gurps.dice.DiceError: '2d8' uses d8: GURPS damage dice are six-sided ('2d' means 2d6)
    """
    if not isinstance(text, str):
        raise DiceError(f"{text!r} is not text; expected {NOTATION}")
    if len(text) > MAX_LENGTH:
        raise DiceError(f"damage dice text is {len(text)} characters long; expected at most "
                        f"{MAX_LENGTH}: {NOTATION}")
    match = _PATTERN.fullmatch(text.strip())
    if match is None:
        raise DiceError(f"{text!r} is not damage dice notation; expected {NOTATION}")
    if match["sides"] is not None and match["sides"] != "6":
        raise DiceError(f"{text!r} uses d{match['sides']}: GURPS damage dice are six-sided "
                        f"('2d' means 2d6)")
    dice = int(match["dice"])
    if not 1 <= dice <= MAX_DICE:
        raise DiceError(f"{text!r} has {dice} dice; expected 1 to {MAX_DICE}")
    adds = int(match["adds"] or 0) * (-1 if match["sign"] in ("-", "−") else 1)
    if abs(adds) > MAX_ADDS:
        raise DiceError(f"{text!r} adds {adds:+d}; expected an add from -{MAX_ADDS} to +{MAX_ADDS}")
    multiplier = int(match["mult"] or 1)
    if not 1 <= multiplier <= MAX_MULTIPLIER:
        raise DiceError(f"{text!r} multiplies by {multiplier}; expected a multiplier from 1 to "
                        f"{MAX_MULTIPLIER}")
    return DamageDice(dice, adds, multiplier)
