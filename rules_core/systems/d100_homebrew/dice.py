"""The d100 test of the homebrew: what one face of the d100 scores against a target.

A face at or under the target passes; a pass scores 1 Success plus one per full 10 the face is
under the target (or, under the ``tens_digits`` ruling, 1 + the target's tens digit − the
face's); 01 always passes and 100 always fails unless the rulings say otherwise. A house rule may
change the 10 (``variant.points_per_success``; the "digit" is then that many points wide). Nothing here
knows about attacks or hits: :mod:`.play` spends the Successes.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from ...roller import Dice
from .scenario import POINTS_PER_SUCCESS, D100Scenario

__all__ = ["FACES", "MAX_TARGET", "MAX_SUCCESSES", "max_successes", "TestRules", "roll_successes", "success_counts",
           "evasion_dice",
           "faces_text", "face_runs", "unopposed_dodge"]

FACES = 100
#: The highest target the declared fields allow (characteristic 100, advance +30, modifier +60,
#: the attack's +30).
MAX_TARGET = 220


@dataclass(frozen=True)
class TestRules:
    """How a d100 test is read (the scenario's rulings)."""

    __test__ = False  # not a pytest test class

    tens_digits: bool = False
    auto_01: bool = True
    auto_100: bool = True
    points: int = POINTS_PER_SUCCESS  # points per further Success (a house rule may change it)

    @classmethod
    def of(cls, scenario: D100Scenario) -> "TestRules":
        """The rulings and house rules of ``scenario`` that bear on a single test."""
        return cls(tens_digits=scenario.successes == "tens_digits", auto_01=scenario.roll_01 == "passes",
                   auto_100=scenario.roll_100 == "fails", points=scenario.variant.points_per_success)


def max_successes(points: int = POINTS_PER_SUCCESS) -> int:
    """The most Successes any test within the declared field ranges can score, at ``points`` per
    further Success: 01 against target 220, counted by tens digits (never fewer than by margin).

    >>> max_successes(), max_successes(5), max_successes(1)
    (23, 45, 220)
    """
    return 1 + MAX_TARGET // points - 1 // points


#: The most Successes under the official rule.
MAX_SUCCESSES = max_successes()


def roll_successes(face: int, target: int, rules: TestRules = TestRules()) -> int:
    """Successes one d100 face scores against ``target``; 0 means the test fails.

    >>> [roll_successes(f, 45) for f in (1, 5, 6, 36, 45, 46, 100)]
    [5, 5, 4, 1, 1, 0, 0]
    >>> roll_successes(1, -10), roll_successes(1, -10, TestRules(auto_01=False))
    (1, 0)
    >>> roll_successes(29, 45, TestRules(tens_digits=True))
    3
    """
    if not 1 <= face <= FACES:
        raise ValueError(f"a d100 face is 1..100, got {face}")
    if face == 1 and rules.auto_01:
        passed = True
    elif face == FACES and rules.auto_100:
        passed = False
    else:
        passed = face <= target
    if not passed:
        return 0
    points = rules.points
    if rules.tens_digits:
        return max(1, 1 + target // points - face // points)
    return max(1, 1 + (target - face) // points)


@lru_cache(maxsize=1024)
def success_counts(target: int, rules: TestRules = TestRules()) -> tuple[tuple[int, int], ...]:
    """``(successes, faces)`` pairs: how many of the 100 faces score each number of Successes
    (0 = fail), by counting faces below each threshold rather than rolling them.

    Faces 1..hi pass on the target (hi = min(target, 100), less the 100 if it always fails);
    01 also passes when it always does. A passing face scores at least k Successes (k >= 2)
    exactly when it is at most ``target − 10(k−1)`` (tens digits: ``10(target//10 − k + 2) − 1``),
    with the house rule's points per Success for 10.

    >>> success_counts(45)
    ((0, 55), (1, 10), (2, 10), (3, 10), (4, 10), (5, 5))
    """
    hi = min(target, FACES)
    if rules.auto_100 and hi == FACES:
        hi = FACES - 1
    hi = max(hi, 0)
    passing = 1 if (hi == 0 and rules.auto_01) else hi

    def at_least(k: int) -> int:
        if k == 1:
            return passing
        points = rules.points
        bound = points * (target // points - k + 2) - 1 if rules.tens_digits else target - points * (k - 1)
        return max(0, min(hi, bound))

    out = [(0, FACES - passing)] if passing < FACES else []
    k = 1
    while (n := at_least(k)) > 0:
        out.append((k, n - at_least(k + 1)))
        k += 1
    return tuple((s, c) for s, c in out if c)


def evasion_dice(purpose: str, target: int, rules: TestRules) -> Dice:
    """The request for one Evasion test's d100: faces scoring the same Successes act alike (the
    enumerator follows one face per number of Successes)."""
    return Dice(purpose, sides=FACES, classify=lambda face: roll_successes(face, target, rules))


def faces_text(lo: int, hi: int) -> str:
    """A run of d100 faces as players write them: ``01–05``, ``100``."""
    return f"{lo:02d}" if lo == hi else f"{lo:02d}–{hi:02d}"


def face_runs(target: int, rules: TestRules) -> list[tuple[int, str]]:
    """``(successes, faces)`` for each run of faces scoring the same Successes, from 01 up:
    passing faces come first, each fewer Successes than the one before, then the failures.

    >>> face_runs(45, TestRules())[:2], face_runs(45, TestRules())[-1]
    ([(5, '01–05'), (4, '06–15')], (0, '46–100'))
    """
    runs, face = [], 1
    for s, count in sorted(success_counts(target, rules), key=lambda sc: (sc[0] == 0, -sc[0])):
        runs.append((s, faces_text(face, face + count - 1)))
        face += count
    return runs


def unopposed_dodge(scenario: D100Scenario) -> Fraction:
    """The defender's chance of passing a Dodge test with no modifier from the attack: d100
    against Agility + Dodge advance + Dodge modifier, read by the scenario's rulings on 01 and
    100 (any Success passes).

    >>> from .scenario import Defender
    >>> unopposed_dodge(D100Scenario(defender=Defender(agility=45))), unopposed_dodge(D100Scenario(defender=Defender(agility=0)))
    (Fraction(9, 20), Fraction(1, 100))
    """
    d = scenario.defender
    target = d.agility + d.dodge_advance + d.dodge_modifier
    failing = dict(success_counts(target, TestRules.of(scenario))).get(0, 0)
    return Fraction(FACES - failing, FACES)
