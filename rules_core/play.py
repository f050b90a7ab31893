"""One concrete roll, played by the rule: :class:`Play`, and what is built on it.

Every system writes its rule once, as ``play(scenario, roller) -> Play`` (in its ``play.py``):
all the dice it needs come from the :class:`~rules_core.roller.Roller`, and the
:class:`Play` says what happened — the outcome label, the hits landing, each evasion roll
made, every system quantity, and the trace of steps with their citations. On that one function:

- :func:`enumerate_play` — the exact distribution of plays, walking every roll the rule asks
  for: the truth each system's fast ``evaluate`` is proven equal to;
- :func:`sample` — ``n`` seeded random plays (Monte Carlo);
- :func:`play_once` — one play, random or on typed faces, with its trace (the "Roll" panels).

Headline quantities are defined once, on a play (:class:`Headline`): a probability of an event
or the expectation of a value, optionally given an event. :func:`headlines_of` computes them
from a distribution of plays — which is how the tests check every headline of ``evaluate``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from fractions import Fraction
from itertools import product
from math import comb, factorial, lcm
from typing import TYPE_CHECKING, Any

from .dist import Dist
from .result import TraceStep
from .roller import Dice, FacesRoller, RandomRoller, Rolled, Roller

if TYPE_CHECKING:  # the registry imports this module
    from .registry import System
    from .scenario import Scenario

__all__ = ["Play", "Headline", "probability", "expectation", "COMMON_HEADLINE_DEFINITIONS",
           "headlines_of", "enumerate_play", "answer_count", "TooManyPlays", "sample", "play_once"]


@dataclass(frozen=True, init=False)
class Play:
    """What one concrete roll came to.

    - ``outcome``: one of the result's outcome labels;
    - ``hits``: hits landing on the defender;
    - ``evasions``: each evasion roll the defender made, in order: passed or not;
    - ``quantities``: every further quantity the system's headlines and distributions read
      (wounds, injury, final state …), by name — read them as ``play["wounds"]``;
    - ``trace`` and ``rolled``: the steps with citations and the dice that fell. They do not take
      part in equality, so plays that came to the same thing merge in a distribution.
    """

    outcome: str
    hits: int
    evasions: tuple[bool, ...] = ()
    quantities: Mapping[str, Hashable] | tuple[tuple[str, Hashable], ...] = ()
    trace: tuple[TraceStep, ...] = field(default=(), compare=False)
    rolled: tuple[Rolled, ...] = field(default=(), compare=False)

    # Written by hand, not by @dataclass: a designer's rule builds a Play on every way the dice
    # fall, and the generated frozen __init__ (a guarded setattr per field, then __post_init__)
    # took 2.4 µs of it; this one fills the instance's dict directly (0.9 µs).
    def __init__(self, outcome: str, hits: int, evasions: Iterable[bool] = (),
                 quantities: Mapping[str, Hashable] | Iterable[tuple[str, Hashable]] = (),
                 trace: Iterable[TraceStep] = (), rolled: Iterable[Rolled] = ()) -> None:
        fields = self.__dict__
        fields["outcome"], fields["hits"] = outcome, hits
        fields["evasions"] = evasions if type(evasions) is tuple else tuple(evasions)
        if type(quantities) is dict and len(quantities) < 2:
            fields["quantities"] = tuple(quantities.items())
        else:
            fields["quantities"] = tuple(sorted(quantities.items() if isinstance(quantities, Mapping) else quantities))
        fields["trace"] = trace if type(trace) is tuple else tuple(trace)
        fields["rolled"] = rolled if type(rolled) is tuple else tuple(rolled)

    def __getitem__(self, name: str) -> Hashable:
        for key, value in self.quantities:
            if key == name:
                return value
        raise KeyError(f"this play has no quantity {name!r}; it has "
                       f"{', '.join(k for k, _ in self.quantities) or 'none'}")

    @property
    def dodged(self) -> bool | None:
        """Every evasion roll made passed (``None`` when none was made)."""
        return all(self.evasions) if self.evasions else None

    def bare(self) -> Play:
        """The same play without its trace and dice (what distributions are keyed on)."""
        return Play(self.outcome, self.hits, self.evasions, self.quantities)


# -- headline definitions ------------------------------------------------------------------------

@dataclass(frozen=True)
class Headline:
    """A headline quantity defined on one play.

    ``kind`` is ``"probability"`` (``of`` is an event) or ``"expectation"`` (``of`` is a value).
    With ``given``, it is conditional on that event and null when the event cannot happen.
    ``applies(scenario)`` returns a reason when the quantity does not apply (then it is null).
    """

    text: str
    kind: str
    of: Callable[[Play], Any]
    given: Callable[[Play], bool] | None = None
    applies: Callable[[Any], str | None] | None = None

    def __str__(self) -> str:
        return self.text

    def value(self, scenario: Any, plays: Dist) -> Fraction | None:
        """This quantity over a distribution of plays (``None`` when it does not apply)."""
        if self.applies is not None and self.applies(scenario) is not None:
            return None
        if self.given is not None:
            if plays.probability(self.given) == 0:
                return None
            plays = plays.condition(self.given)
        if self.kind == "probability":
            return plays.probability(lambda p: bool(self.of(p)))
        return plays.mean(lambda p: Fraction(self.of(p)))


def probability(text: str, event: Callable[[Play], bool], *, given: Callable[[Play], bool] | None = None,
                applies: Callable[[Any], str | None] | None = None) -> Headline:
    """A headline that is the probability of ``event`` (given ``given``)."""
    return Headline(text, "probability", event, given, applies)


def expectation(text: str, value: Callable[[Play], Any], *, given: Callable[[Play], bool] | None = None,
                applies: Callable[[Any], str | None] | None = None) -> Headline:
    """A headline that is the expectation of ``value`` (given ``given``)."""
    return Headline(text, "expectation", value, given, applies)


#: The common headlines (docs/quantities.md), defined on a play, as every system reads them.
COMMON_HEADLINE_DEFINITIONS: Mapping[str, Headline] = {
    "p_dodge_succeeds": probability(
        "Every evasion roll made succeeds, given that at least one is made.",
        lambda p: all(p.evasions), given=lambda p: bool(p.evasions)),
    "p_no_hit": probability("No hit lands on the defender.", lambda p: p.hits == 0),
    "expected_hits": expectation("Expected number of hits landing on the defender.", lambda p: p.hits),
}


def headlines_of(system: System, scenario: Scenario, plays: Dist) -> dict[str, Fraction | None]:
    """Every headline (common and the system's own) computed from a distribution of plays."""
    definitions = {**COMMON_HEADLINE_DEFINITIONS, **system.headlines}
    return {name: h.value(scenario, plays) for name, h in definitions.items()}


# -- exhaustive enumeration ----------------------------------------------------------------------

def _branches(dice: Dice, limit: int | None, asked: Sequence[Dice]) -> list[tuple[Any, int]]:
    """:func:`_answers` of a request, refused with :class:`TooManyPlays` before the work when it
    has more answers than ``limit`` (after ``asked``, the requests before it)."""
    kinds = None if dice.face_kind is None else _face_kinds(dice)
    count = answer_count(dice, kinds)
    if limit is not None and count > limit:
        raise TooManyPlays((*asked, dice), count, limit)
    return _answers(dice, kinds)


def _answers(dice: Dice, kinds: Sequence[tuple[int, int]] | None = None) -> list[tuple[int | tuple[int, ...], int]]:
    """Every answer to a request with the number of ordered face combinations giving it (one
    answer of each kind of faces, then of each group of answers, where the request's hints say
    which act alike; ``kinds``: its :func:`_face_kinds`, when known)."""
    found = _all_answers(dice.sides, dice.count, dice.total, dice.ordered) if dice.face_kind is None \
        else _kind_answers(dice, kinds or _face_kinds(dice))
    if dice.classify is None:
        return list(found)
    grouped: dict[Hashable, list[Any]] = {}
    for answer, ways in found:
        entry = grouped.setdefault(dice.classify(answer), [answer, 0])
        entry[1] += ways
    return [(answer, ways) for answer, ways in grouped.values()]


@lru_cache(maxsize=64)
def _all_answers(sides: int, count: int, total: bool, ordered: bool) -> tuple[tuple[Any, int], ...]:
    """Every answer of ``count`` d``sides`` read as :class:`Dice` reads them, with its ways
    (kept: a rule asks for the same dice on every evaluation)."""
    faces = range(1, sides + 1)
    if count == 1:
        found: dict[Any, int] = {f if ordered or total else (f,): 1 for f in faces}
    elif total:
        sums = {0: 1}
        for _ in range(count):
            step: dict[int, int] = {}
            for s, w in sums.items():
                for f in faces:
                    step[s + f] = step.get(s + f, 0) + w
            sums = step
        found = sums
    elif ordered:
        found = {t: 1 for t in product(faces, repeat=count)}
    else:
        found = {}
        for t in _multisets(sides, count):
            ways = factorial(count)
            for f in set(t):
                ways //= factorial(t.count(f))
            found[t] = ways
    return tuple(found.items())


def _face_kinds(dice: Dice) -> tuple[tuple[int, int], ...]:
    """The kinds of a die's faces by its ``face_kind`` hint, in the order first met: each kind's
    lowest face (the one the rule is answered with) and how many faces are of that kind."""
    kinds: dict[Hashable, list[int]] = {}
    for face in range(1, dice.sides + 1):
        kind = kinds.setdefault(dice.face_kind(face), [face, 0])
        kind[1] += 1
    return tuple((lowest, size) for lowest, size in kinds.values())


def _kind_answers(dice: Dice, kinds: Sequence[tuple[int, int]]) -> list[tuple[Any, int]]:
    """Every answer to a request walked by kinds of faces: one roll of each kind's lowest face
    per sequence (ordered) or multiset (a pool) of kinds, weighted by the face combinations
    giving that sequence or multiset."""
    if dice.count == 1:
        return [(face if dice.ordered else (face,), size) for face, size in kinds]
    found = []
    if dice.ordered:
        for picked in product(kinds, repeat=dice.count):
            ways = 1
            for _, size in picked:
                ways *= size
            found.append((tuple(face for face, _ in picked), ways))
        return found
    for counts, arrangements in _kind_multisets(len(kinds), dice.count):
        ways, answer = arrangements, []
        for (face, size), many in zip(kinds, counts):
            if many:
                ways *= size ** many
                answer += [face] * many
        found.append((tuple(answer), ways))
    return found


@lru_cache(maxsize=64)
def _kind_multisets(kinds: int, count: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every multiset of ``count`` items of ``kinds`` kinds, as how many of each kind, with the
    number of orders it can fall in (the multinomial coefficient)."""
    found = []
    for multiset in _multisets(kinds, count):
        counts = tuple(multiset.count(k) for k in range(1, kinds + 1))
        orders = factorial(count)
        for many in counts:
            orders //= factorial(many)
        found.append((counts, orders))
    return tuple(found)


def _multisets(sides: int, count: int, low: int = 1) -> Iterator[tuple[int, ...]]:
    if count == 0:
        yield ()
        return
    for f in range(low, sides + 1):
        for rest in _multisets(sides, count - 1, f):
            yield (f, *rest)


def answer_count(dice: Dice, kinds: Sequence[tuple[int, int]] | None = None) -> int:
    """How many answers a request has before its ``classify`` hint (what the enumerator walks):
    of its faces, or of its kinds of faces where ``face_kind`` says which act alike (``kinds``:
    its :func:`_face_kinds`, when known)."""
    sides = dice.sides if dice.face_kind is None else len(kinds or _face_kinds(dice))
    if dice.count == 1:
        return sides
    if dice.total:
        return dice.count * (dice.sides - 1) + 1
    if dice.ordered:
        return sides ** dice.count
    return comb(sides + dice.count - 1, dice.count)


class TooManyPlays(ValueError):
    """A rule whose dice are too many to walk every way they fall: says which dice and the limit."""

    def __init__(self, asked: Sequence[Dice], ways: int, limit: int):
        self.asked, self.ways, self.limit = tuple(asked), ways, limit
        dice = ", ".join(map(str, asked))
        count = sum(d.count for d in asked)
        super().__init__(
            f"too many ways for the dice to fall to compute exactly: the rule asks for {count} "
            f"{'die' if count == 1 else 'dice'} ({dice}), at least {ways:,} plays to walk, and the "
            f"limit is {limit:,}. Say which faces act alike with Dice(..., face_kind=...) (a pool "
            f"is then walked by kinds of faces: 10d20 read as over, under or on a target is 66 "
            f"multisets), group answers that act alike with Dice(..., classify=...), or estimate "
            f"by sampling: rules_core.simulate(system, scenario, n)")


class _NeedMore(Exception):
    def __init__(self, dice: Dice):
        super().__init__(dice)
        self.dice = dice


class _Replay(Roller):
    """Answers the rule from a fixed list of answers; asks for more when they run out."""

    explain = False

    def __init__(self, answers: Sequence[Any]):
        super().__init__()
        self.answers, self.next = answers, 0

    def roll(self, dice: Dice) -> Any:
        if self.next == len(self.answers):
            raise _NeedMore(dice)
        self.next += 1
        return self.answers[self.next - 1]


def enumerate_play(system: System, scenario: Scenario, *, classify: bool = True,
                   key: Callable[[Play], Hashable] = Play.bare, limit: int | None = None) -> Dist:
    """The exact distribution of ``key(play)`` over every way the dice can fall.

    The rule is replayed with every sequence of answers it asks for (a roll it never asks for is
    never enumerated); each answer is weighted by the face combinations giving it. With
    ``classify=False`` the requests' hints (``classify``, ``face_kind``) are ignored and every
    answer is followed: the plain walk (slower; the tests use it to prove the hints true).
    Exhaustive: small scenarios only; with ``limit``, :class:`TooManyPlays` is raised as soon
    as more than ``limit`` plays would be walked (or one request has more answers than that),
    before the work is done.
    """
    found: dict[Hashable, list[tuple[int, int]]] = {}   # key -> [(ways, denominator)]
    pending: list[tuple[tuple[Any, ...], int, int, tuple[Dice, ...]]] = [((), 1, 1, ())]
    walked = 0
    while pending:
        answers, ways, denominator, asked = pending.pop()
        try:
            played = system.play(scenario, _Replay(answers))
        except _NeedMore as need:
            dice = need.dice
            if not classify and (dice.classify is not None or dice.face_kind is not None):
                dice = Dice(dice.purpose, dice.sides, dice.count, dice.total, dice.ordered)
            branches = _branches(dice, limit, asked)
            walked += len(branches)
            if limit is not None and walked > limit:
                raise TooManyPlays((*asked, dice), walked, limit) from None
            size = dice.sides ** dice.count
            pending.extend((answers + (answer,), ways * w, denominator * size, (*asked, dice))
                           for answer, w in branches)
            continue
        found.setdefault(key(played), []).append((ways, denominator))
    common = 1
    for entries in found.values():
        for _, d in entries:
            common = lcm(common, d)
    return Dist((k, sum(w * (common // d) for w, d in entries)) for k, entries in found.items())


# -- random and typed plays ----------------------------------------------------------------------

def play_once(system: System, scenario: Scenario, *, seed: int | str | None = None,
              faces: Sequence[int] | None = None) -> Play:
    """One play with its trace and dice: random from ``seed``, or on the ``faces`` given (every
    one of which must be used; :class:`~rules_core.roller.DiceError` says what is wrong)."""
    roller: Roller = RandomRoller(seed) if faces is None else FacesRoller(faces)
    played = system.play(scenario, roller)
    if isinstance(roller, FacesRoller):
        roller.finish()
    return Play(played.outcome, played.hits, played.evasions, played.quantities, played.trace,
                tuple(roller.rolled))


class _Quiet(RandomRoller):
    explain = False


def sample(system: System, scenario: Scenario, n: int, seed: int | str | None = None) -> Iterable[Play]:
    """``n`` random plays (without traces), reproducible from ``seed``; yielded one by one so a
    caller can show progress or stop early."""
    roller = _Quiet(seed)
    for _ in range(n):
        roller.rolled.clear()
        yield system.play(scenario, roller).bare()

