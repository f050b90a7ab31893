"""GURPS's die rules: the 3d6 success roll (B343-348) with its criticals and margin, the hits a
rapid-fire attack roll scores and a Dodge avoids (B373-375), and the requests the rule makes to a
:class:`~rules_core.roller.Roller` for its dice.

Every roll of GURPS is a total of six-sided dice: three for a success roll, the attack's count
for damage. :func:`success_request` and :func:`damage_request` ask for them as
``Dice(purpose, sides=6, count=n, total=True)``.

>>> success_roll(9, 12)
SuccessRoll(roll=9, score=12, success=True, critical=False, margin=3)
>>> success_roll(17, 20).success, success_roll(4, -2).success
(False, True)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

from ...dist import Dist
from ...roller import Dice
from .scenario import OFFICIAL, GurpsVariant

__all__ = ["ROLL_3D6", "TOTALS", "WAYS", "SuccessRoll", "success_roll", "critical_success", "critical_failure",
           "success_weight", "describe_success_roll", "success_request", "damage_request", "RAPID_FIRE_BONUS",
           "rof_bonus", "hits_scored", "undefendable", "hits_avoided"]

#: The 3d6 total: 3..18 with integer weights over 216.
ROLL_3D6: Dist = Dist.die(6).repeat_sum(3)
TOTALS = tuple(range(3, 19))
#: Ways 3d6 can fall.
WAYS = 216


# -- success rolls --------------------------------------------------------------------------------

def critical_success(roll: int, score: int, rules: GurpsVariant = OFFICIAL) -> bool:
    """3 or 4 always; 5 at an effective score of 15+; 6 at 16+ (B348) — or the house rule's
    values (``rules``: the scenario's variant block)."""
    return (roll <= rules.critical_up_to or (roll == 5 and score >= rules.critical_5_at)
            or (roll == 6 and score >= rules.critical_6_at))


def critical_failure(roll: int, score: int, rules: GurpsVariant = OFFICIAL) -> bool:
    """18 always; 17 at an effective score of 15 or less; any roll 10+ over the score (B348).
    A roll that always succeeds (3 or 4) is never a critical failure."""
    if roll <= rules.critical_up_to:
        return False
    return roll == 18 or (roll == 17 and score <= 15) or roll >= score + 10


@dataclass(frozen=True)
class SuccessRoll:
    """One 3d6 roll against an effective score. ``critical`` is a critical success when
    ``success`` and a critical failure otherwise; ``margin`` is score − roll (negative on a
    failure, and on a 3 or 4 made against a score below it)."""

    roll: int
    score: int
    success: bool
    critical: bool
    margin: int

    def __str__(self) -> str:
        if self.success:
            word = "critical success" if self.critical else "success"
        else:
            word = "critical failure" if self.critical else "failure"
        return f"roll {self.roll} vs {self.score}: {word}, margin {self.margin:+d}"


def success_roll(roll: int, score: int, rules: GurpsVariant = OFFICIAL) -> SuccessRoll:
    """The rule on one total: 3-4 always succeed, 17-18 always fail, else success iff roll ≤ score
    (``rules``: the scenario's variant block, when a house rule moves those bounds)."""
    if not 3 <= roll <= 18:
        raise ValueError(f"a 3d6 total is 3..18, got {roll}")
    success = roll <= rules.critical_up_to or (roll < rules.always_fails_from and roll <= score)
    critical = critical_success(roll, score, rules) if success else critical_failure(roll, score, rules)
    return SuccessRoll(roll, score, success, critical, score - roll)


def success_weight(score: int, rules: GurpsVariant = OFFICIAL) -> int:
    """How many of the 216 ways 3d6 can fall succeed against ``score``.

    >>> success_weight(10), success_weight(-5), success_weight(30)
    (108, 4, 212)
    """
    return sum(ROLL_3D6.weight(t) for t in TOTALS if success_roll(t, score, rules).success)


def _rolls(lo: int, hi: int, verb: str) -> str:
    """One roll ("3 always succeeds") or a range of rolls ("3-4 always succeed")."""
    return f"{lo} always {verb}s" if lo == hi else f"{lo}-{hi} always {verb}"


def describe_success_roll(rules: GurpsVariant = OFFICIAL) -> str:
    """The success roll's automatic results and criticals, with the values in force.

    >>> describe_success_roll()
    '3-4 always succeed (critical), 5 at 15+, 6 at 16+; 17-18 always fail; 18 fails critically, 17 at 15 or less, and any roll 10+ over the score'
    """
    low, high = rules.critical_up_to, rules.always_fails_from
    parts = [f"{_rolls(3, low, 'succeed')} (critical)" if low >= 3 else "no roll always succeeds"]
    parts += [f"{roll} at {at}+" for roll, at in ((5, rules.critical_5_at), (6, rules.critical_6_at))
              if roll > low]
    fails = _rolls(high, 18, "fail") if high <= 18 else "no roll always fails"
    return (", ".join(parts) + f"; {fails}; 18 fails critically, 17 at 15 or less, and any roll 10+ over "
            "the score")


# -- asking the roller ------------------------------------------------------------------------------

def success_request(purpose: str, classify: Callable[[int], Hashable] | None = None) -> Dice:
    """A 3d6 success roll, read as its total. ``classify`` groups totals the rule treats alike.

    >>> success_request("dodge")
    Dice(purpose='dodge', sides=6, count=3, total=True, ordered=True, classify=None)
    """
    return Dice(purpose, sides=6, count=3, total=True, classify=classify)


def damage_request(purpose: str, dice: int, classify: Callable[[int], Hashable] | None = None) -> Dice:
    """``dice`` six-sided damage dice, read as their total."""
    return Dice(purpose, sides=6, count=dice, total=True, classify=classify)


# -- rapid fire and dodging it (B373-375) -------------------------------------------------------------

#: Rapid-fire bonus to skill (B373): RoF at least this → bonus.
RAPID_FIRE_BONUS = ((50, 6), (25, 5), (17, 4), (13, 3), (9, 2), (5, 1))


def rof_bonus(rof: int) -> int:
    """The skill bonus for rapid fire (B373).

    >>> rof_bonus(10), rof_bonus(4), rof_bonus(50)
    (2, 0, 6)
    """
    return next((bonus for least, bonus in RAPID_FIRE_BONUS if rof >= least), 0)


def hits_scored(attack_roll: SuccessRoll, rof: int, recoil: int) -> int:
    """Hits from an attack roll: none on a failure; one plus one per full Recoil of margin, at
    most RoF (B373). A 3 or 4 made against a lower skill scores one hit."""
    if not attack_roll.success:
        return 0
    return min(rof, 1 + max(0, attack_roll.margin) // recoil)


def undefendable(hits: int, critical_hit: bool, crit_hit_ruling: str) -> int:
    """How many of the hits allow no defense: a critical hit's (all, or the first only)."""
    if not critical_hit:
        return 0
    return hits if crit_hit_ruling == "all" else min(1, hits)


def hits_avoided(dodge_roll: SuccessRoll, defendable: int, crit_dodge_ruling: str) -> int:
    """Hits a Dodge roll avoids: none on a failure; one plus one per point of margin, at most
    the hits it faces (B375); every hit on a critical success under the ruling "all"."""
    if not dodge_roll.success:
        return 0
    if dodge_roll.critical and crit_dodge_ruling == "all":
        return defendable
    return min(defendable, 1 + max(0, dodge_roll.margin))
