"""Infinity N4's die rules: what one d20 face does against a Success Value (SV), the cap on
MODs, one Face to Face Roll on concrete faces, and one Saving Roll.

A die's *rank* summarises what one d20 did against its SV: ``0`` a failure, ``1..19`` a
non-critical success of that value, ``20`` a Critical. Between two opposed dice, the higher rank
wins and equal ranks cancel each other: that one ordering is the whole of the Face to Face
comparison (a Critical beats any value; two Criticals cancel).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

from ...d20 import FACES, check_face

if TYPE_CHECKING:
    from .scenario import InfinityScenario

__all__ = ["FACES", "CRIT", "MOD_CAP", "SAVES_PER_HIT", "SuccessValue", "Kept", "capped_mods",
           "success_value", "roll_rank", "resolve_face_to_face", "wound_threshold", "saving_roll_wounds",
           "normal_roll_succeeds", "unopposed_dodge"]

#: The rank of a Critical: above every success value.
CRIT = 20
#: The sum of MODs on one roll is capped to ±12 (the official value; a scenario's
#: ``variant.mod_cap`` holds the cap in force).
MOD_CAP = 12
#: Saving Rolls per hit by ammunition; a Critical adds one more.
SAVES_PER_HIT = {"N": 1, "AP": 1, "DA": 2, "EXP": 3}


class SuccessValue(NamedTuple):
    """An SV and whether the cap on the sum of MODs (±12 officially) changed it."""

    sv: int
    capped: bool


class Kept(NamedTuple):
    """The ranks of the successes each side of a Face to Face Roll keeps (best first)."""

    a: tuple[int, ...]
    b: tuple[int, ...]


def capped_mods(total: int, cap: int = MOD_CAP) -> int:
    """The sum of MODs held within ±``cap`` (officially ±12).

    >>> capped_mods(15), capped_mods(-15), capped_mods(-15, cap=9)
    (12, -12, -9)
    """
    return max(-cap, min(cap, total))


def success_value(attribute: int, mods: Sequence[int], cap: int = MOD_CAP) -> SuccessValue:
    """SV = attribute + sum of MODs, the sum capped to ±``cap`` (officially ±12).

    >>> success_value(12, [3])
    SuccessValue(sv=15, capped=False)
    >>> success_value(10, [-9, -6])
    SuccessValue(sv=-2, capped=True)
    >>> success_value(10, [-9, -6], cap=9)
    SuccessValue(sv=1, capped=True)
    """
    total = sum(mods)
    capped = capped_mods(total, cap)
    return SuccessValue(attribute + capped, capped != total)


def roll_rank(face: int, sv: int) -> int:
    """What one d20 face does against SV: 0 failure, 1..19 success of that value, 20 Critical.

    SV <= 0 fails without a roll; SV > 20 adds SV - 20 to the face, every face succeeds and a
    total of 20 or more is a Critical.

    >>> [roll_rank(f, 15) for f in (1, 14, 15, 16)]
    [1, 14, 20, 0]
    >>> [roll_rank(f, 25) for f in (1, 14, 15, 20)]
    [6, 19, 20, 20]
    """
    check_face(face)
    if sv <= 0:
        return 0
    if sv > FACES:
        return min(face + sv - FACES, CRIT)
    if face == sv:
        return CRIT
    return face if face < sv else 0


def resolve_face_to_face(faces_a: Sequence[int], sv_a: int, faces_b: Sequence[int], sv_b: int) -> Kept:
    """One Face to Face Roll on concrete faces: the ranks of the successes each side keeps.

    A non-critical success of value v survives iff the opponent has no Critical and no success
    of value >= v (equal values cancel both); a Critical survives iff the opponent has no
    Critical. At most one side keeps successes.

    >>> resolve_face_to_face([8], 10, [12, 8, 16], 15)
    Kept(a=(), b=(12,))
    >>> resolve_face_to_face([9], 10, [3, 8, 16], 15)
    Kept(a=(9,), b=())
    """
    ranks_a = [roll_rank(f, sv_a) for f in faces_a]
    ranks_b = [roll_rank(f, sv_b) for f in faces_b]
    best_a, best_b = max(ranks_a, default=0), max(ranks_b, default=0)
    kept_a = tuple(sorted((r for r in ranks_a if r > best_b), reverse=True))
    kept_b = tuple(sorted((r for r in ranks_b if r > best_a), reverse=True))
    return Kept(kept_a, kept_b)


def wound_threshold(damage: int, resist: int, *, ap: bool = False, partial_cover: bool = False) -> int:
    """The face at or under which a Saving Roll is failed (a wound): DAM − ARM (or BTS), with
    ARM/BTS halved rounding up against AP, −3 more in Partial Cover, clamped to 0..20.

    >>> wound_threshold(13, 1), wound_threshold(13, 5, ap=True), wound_threshold(13, 1, partial_cover=True)
    (12, 10, 9)
    >>> wound_threshold(5, 8), wound_threshold(25, 0)
    (0, 20)
    """
    if ap:
        resist = -(-resist // 2)
    return max(0, min(FACES, damage - resist - (3 if partial_cover else 0)))


def saving_roll_wounds(face: int, threshold: int) -> bool:
    """One Saving Roll on a concrete d20 face: a wound iff ``face <= threshold``.

    >>> [saving_roll_wounds(f, 12) for f in (1, 12, 13, 20)]
    [True, True, False, False]
    """
    return check_face(face) <= threshold


def normal_roll_succeeds(face: int, sv: int) -> bool:
    """A Normal Roll on a concrete face: any success, Critical included (rank above 0)."""
    return roll_rank(face, sv) > 0


def unopposed_dodge(scenario: "InfinityScenario") -> Fraction:
    """The dodger's chance of passing a Dodge as a Normal Roll with nothing against it: one d20
    against SV = PH plus the dodger's own MODs (capped at the cap in force), Criticals included.

    >>> from .scenario import InfinityScenario
    >>> unopposed_dodge(InfinityScenario()), unopposed_dodge(InfinityScenario().set("dodger.ph", 25))
    (Fraction(1, 2), Fraction(1, 1))
    """
    sv = success_value(scenario.dodger.ph, [scenario.dodger.mod], scenario.variant.mod_cap).sv
    return Fraction(sum(normal_roll_succeeds(face, sv) for face in range(1, FACES + 1)), FACES)
