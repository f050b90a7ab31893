"""The d20 roll-under machinery Infinity N4 and Eldfall share.

Both games roll a d20 under a modified attribute: a face at or under the value succeeds. What a
Critical is differs (Infinity: the face equal to the SV; Eldfall: a 1), so each system's
``dice.py`` says that; the counting of faces and of several dice lives here once.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from .poly import binomial as _binomial
from .roller import Dice

__all__ = ["FACES", "check_face", "faces_at_most", "binomial", "d20"]

#: Faces of the die.
FACES = 20


def check_face(face: int) -> int:
    """``face`` itself, or ``ValueError`` when it is not on a d20.

    >>> check_face(20)
    20
    """
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= FACES:
        raise ValueError(f"a d20 face is 1..20, got {face!r}")
    return face


def faces_at_most(value: int) -> int:
    """How many of the 20 faces are at or under ``value`` (0 below 1, 20 above 20).

    >>> faces_at_most(-3), faces_at_most(12), faces_at_most(25)
    (0, 12, 20)
    """
    return max(0, min(FACES, value))


def binomial(n: int, success: int) -> tuple[int, ...]:
    """Weights over ``20**n`` of k of n d20 landing on ``success`` of the 20 faces.

    >>> binomial(1, 12)
    (8, 12)
    """
    return _binomial(n, success, FACES)


def d20(purpose: str, classify: Callable[[int], Hashable] | None = None, count: int = 1,
        ordered: bool = True) -> Dice:
    """A request for ``count`` d20 (see :class:`rules_core.roller.Dice`)."""
    return Dice(purpose, sides=FACES, count=count, ordered=ordered, classify=classify)
