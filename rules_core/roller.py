"""Dice for a rule written on concrete rolls: one :class:`Roller` type for every system.

A system's rule (``play(scenario, roller)``) never draws a die itself: it asks the roller with a
:class:`Dice` request saying what is rolled and why, and reads back the faces. Three rollers
answer, so the uses of one rule can never disagree:

- :class:`RandomRoller` — random dice from a seeded generator (Monte Carlo, "Roll");
- :class:`FacesRoller` — faces a person typed, in the order the rule asks for them;
- the enumerator in :func:`rules_core.play.enumerate_play`, which walks every answer.

Every roller keeps what it handed out (:attr:`Roller.rolled`), so a step-through view can show
each die with its purpose.

>>> r = FacesRoller([3, 5, 6, 20])
>>> r.roll(Dice("attack", sides=6, count=3, total=True))
14
>>> r.roll(Dice("dodge die", sides=20))
20
>>> [str(x) for x in r.rolled]
['attack: 3+5+6 = 14', 'dodge die: 20']
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field

__all__ = ["Dice", "Rolled", "Roller", "RandomRoller", "FacesRoller", "DiceError"]


class DiceError(ValueError):
    """Faces that cannot answer a request (too few, or off the die). The message says which."""


def _clipped(face: object) -> str:
    """A face as a message quotes it: at most 80 characters (a typed face may be any length)."""
    spelled = repr(face)
    return spelled if len(spelled) <= 80 else spelled[:80] + "…"


@dataclass(frozen=True, init=False)
class Dice:
    """A request for dice: ``count`` dice of ``sides`` sides, rolled for ``purpose``.

    - ``total``: the rule reads only their sum (GURPS's 3d6); the answer is an ``int``.
    - otherwise one die answers an ``int``, several answer a ``tuple`` of faces; a pool whose
      order does not matter (``ordered`` false, so the enumerator walks multisets) always
      answers the ``tuple`` of its faces, sorted, even a pool of one die.
    - ``classify``: a hint for the enumerator only — answers that ``classify`` maps alike act
      alike in the rule, so one of them is followed, weighted by how many there are. It must
      be true of the rule; the tests prove it by enumerating without it.
    - ``face_kind``: a hint for the enumerator only, for dice read face by face (not a
      ``total``) — faces that ``face_kind`` maps alike act alike in the rule: exchanging a die's
      face for another of its kind changes nothing the rule does. The enumerator then walks
      kinds instead of faces (a pool of 4d20 read as "over, under or on the skill" walks 15
      multisets of kinds, each weighted by the rolls giving it, not 8,855 pools); the rule is
      answered with the lowest face of each kind. Like ``classify``, it must be true of the rule.
    """

    purpose: str
    sides: int
    count: int = 1
    total: bool = False
    ordered: bool = True
    classify: Callable[[int | tuple[int, ...]], Hashable] | None = None
    face_kind: Callable[[int], Hashable] | None = field(default=None, repr=False)

    # Written by hand, not by @dataclass: a designer's rule asks for its dice on every way they
    # fall, and the generated frozen __init__ (a guarded setattr per field) took 1.4 µs of it.
    def __init__(self, purpose: str, sides: int, count: int = 1, total: bool = False, ordered: bool = True,
                 classify: Callable[[int | tuple[int, ...]], Hashable] | None = None,
                 face_kind: Callable[[int], Hashable] | None = None) -> None:
        if sides < 2 or count < 1:
            raise ValueError(f"{purpose}: {count}d{sides} is not a roll")
        if face_kind is not None and total:
            raise ValueError(f"{purpose}: face_kind says which faces act alike, but the rule reads "
                             f"only the total of these dice; group totals with classify instead")
        fields = self.__dict__
        fields["purpose"], fields["sides"], fields["count"], fields["total"] = purpose, sides, count, total
        fields["ordered"], fields["classify"], fields["face_kind"] = ordered, classify, face_kind

    def __str__(self) -> str:
        return f"{self.purpose} ({self.count}d{self.sides})" if self.count > 1 else \
            f"{self.purpose} (d{self.sides})"

    def answer(self, faces: Sequence[int]) -> int | tuple[int, ...]:
        """What the rule reads from these faces (a sum, one face, or the tuple of faces)."""
        if self.total:
            return sum(faces)
        if not self.ordered:
            return tuple(sorted(faces))
        return faces[0] if self.count == 1 else tuple(faces)


@dataclass(frozen=True)
class Rolled:
    """One request answered: the dice asked for and the faces that fell."""

    dice: Dice
    faces: tuple[int, ...]

    @property
    def answer(self) -> int | tuple[int, ...]:
        return self.dice.answer(self.faces)

    def __str__(self) -> str:
        shown = ", ".join(map(str, self.faces))
        if self.dice.total and len(self.faces) > 1:
            return f"{self.dice.purpose}: {'+'.join(map(str, self.faces))} = {sum(self.faces)}"
        return f"{self.dice.purpose}: {shown}"


class Roller:
    """Hands out dice to a rule. Subclasses define :meth:`faces`.

    ``explain`` tells the rule whether to write its trace (the enumerator turns it off to go
    fast); ``rolled`` lists every request answered so far.
    """

    explain: bool = True

    def __init__(self) -> None:
        self.rolled: list[Rolled] = []

    def faces(self, dice: Dice) -> tuple[int, ...]:  # pragma: no cover - abstract
        raise NotImplementedError

    def roll(self, dice: Dice) -> int | tuple[int, ...]:
        """Answer one request (see :class:`Dice`) and record it."""
        faces = tuple(self.faces(dice))
        self.rolled.append(Rolled(dice, faces))
        return dice.answer(faces)


class RandomRoller(Roller):
    """Random dice from its own seeded generator (never the global one)."""

    def __init__(self, seed: int | str | None = None):
        super().__init__()
        self.seed = seed
        self.rng = random.Random(seed)

    def faces(self, dice: Dice) -> tuple[int, ...]:
        return tuple(self.rng.randint(1, dice.sides) for _ in range(dice.count))


class FacesRoller(Roller):
    """Faces given in advance (typed from the table), one die at a time in the order the rule
    asks for them; a total of several dice takes as many faces as there are dice.

    ``strict``: every face given must be used (checked by :meth:`finish`).
    """

    def __init__(self, faces: Sequence[int]):
        super().__init__()
        self.given = tuple(faces)
        self.used = 0

    def faces(self, dice: Dice) -> tuple[int, ...]:
        left = self.given[self.used:]
        if len(left) < dice.count:
            raise DiceError(f"the rule asks for {dice} but {'only ' + str(len(left)) if left else 'no'} "
                            f"face{'s' if len(left) != 1 else ''} {'are' if len(left) != 1 else 'is'} "
                            f"left of the {len(self.given)} given")
        taken = left[:dice.count]
        for face in taken:
            if not (isinstance(face, int) and not isinstance(face, bool) and 1 <= face <= dice.sides):
                raise DiceError(f"{dice.purpose}: face {_clipped(face)} is not on a d{dice.sides} "
                                f"(1 to {dice.sides})")
        self.used += dice.count
        return taken

    def finish(self) -> None:
        """Refuse faces left over (the rule asked for fewer dice than were typed)."""
        if self.used < len(self.given):
            extra = len(self.given) - self.used
            raise DiceError(f"{extra} face{'s' if extra != 1 else ''} left over: the rule asked "
                            f"for {self.used} of the {len(self.given)} given")
