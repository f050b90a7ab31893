"""Success rolls on 3d6 (B343-348): success, criticals and margin, on one concrete total.

>>> success_roll(9, 12)
SuccessRoll(roll=9, score=12, success=True, critical=False, margin=3)
>>> success_roll(17, 20).success, success_roll(4, -2).success
(False, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from ...dist import Dist

__all__ = ["ROLL_3D6", "TOTALS", "SuccessRoll", "success_roll", "critical_success",
           "critical_failure", "success_weight"]

#: The 3d6 total: 3..18 with integer weights over 216.
ROLL_3D6: Dist = Dist.die(6).repeat_sum(3)
TOTALS = tuple(range(3, 19))


def critical_success(roll: int, score: int) -> bool:
    """3 or 4 always; 5 at an effective score of 15+; 6 at 16+ (B348)."""
    return roll <= 4 or (roll == 5 and score >= 15) or (roll == 6 and score >= 16)


def critical_failure(roll: int, score: int) -> bool:
    """18 always; 17 at an effective score of 15 or less; any roll 10+ over the score (B348).
    A 3 or 4 is always a success, never a critical failure."""
    if roll <= 4:
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


def success_roll(roll: int, score: int) -> SuccessRoll:
    """The rule on one total: 3-4 always succeed, 17-18 always fail, else success iff roll ≤ score."""
    if not 3 <= roll <= 18:
        raise ValueError(f"a 3d6 total is 3..18, got {roll}")
    success = roll <= 4 or (roll <= 16 and roll <= score)
    critical = critical_success(roll, score) if success else critical_failure(roll, score)
    return SuccessRoll(roll, score, success, critical, score - roll)


def success_weight(score: int) -> int:
    """How many of the 216 ways 3d6 can fall succeed against ``score``.

    >>> success_weight(10), success_weight(-5), success_weight(30)
    (108, 4, 212)
    """
    return sum(ROLL_3D6.weight(t) for t in TOTALS if success_roll(t, score).success)
