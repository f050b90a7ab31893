"""The walk a designer's rule is evaluated by: every way the dice can fall, through ``play``.

It gives exactly what the plain walk (:func:`~rules_core.play.enumerate_play`) gives, and the
tests prove it on every example rule and on drawn rules; it is faster because

- a request's hints are followed: ``face_kind`` walks a pool by kinds of faces (multisets of
  kinds with their multinomial weights), ``classify`` one answer of each group;
- the designer's ``play`` is called with one light roller that is also its guard (a request
  that is not :class:`~rules_core.roller.Dice`, the roller used after ``play`` returned), and a
  play is checked (its outcome declared, its hits a whole number) once for each different play,
  not once for each way the dice fall to it.

Every mistake is a :class:`~rules_core.registry.RuleError` naming the rule and the dice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from math import lcm
from numbers import Integral
from typing import Any

from .dist import Dist
from .play import Play, TooManyPlays, _branches, _NeedMore
from .registry import RuleError
from .roller import Dice, DiceError, Roller
from .scenario import shown

__all__ = ["walk", "hinted", "check_play", "dice_text"]


def dice_text(asked: Sequence[tuple[Dice, Any]]) -> str:
    """The requests made and their answers, as a mistake's message names them."""
    if not asked:
        return "before any die was rolled"
    return "on " + "; ".join(f"{dice} → {answer}" for dice, answer in asked)


class _Hint:
    """One of a request's hints, its mistakes said as the designer's: which hint of which
    request, and on which answer (``classify``) or face (``face_kind``)."""

    def __init__(self, rule_id: str, dice: Dice, name: str, on: str):
        self.rule_id, self.dice, self.name, self.on = rule_id, dice, name, on
        self.hint = getattr(dice, name)

    def __call__(self, given: Any) -> Any:
        try:
            return self.hint(given)
        except Exception as error:
            what = "grouping hint (classify)" if self.name == "classify" else "hint face_kind"
            raise RuleError(f"rule {self.rule_id!r}: the {what} of {self.dice} raised {type(error).__name__}: "
                            f"{shown(str(error))} on the {self.on} {shown(given)}") from error


def hinted(rule_id: str, dice: Any) -> Dice:
    """``dice`` checked to be a request, with its hints' mistakes said as the designer's."""
    if not isinstance(dice, Dice):
        raise RuleError(f"rule {rule_id!r}: play asked the roller for {shown(dice)}; ask with "
                        f"Dice(purpose, sides, count), e.g. roller.roll(Dice('dodge', sides=10, count=2))")
    if dice.classify is None and dice.face_kind is None:
        return dice
    return replace(dice, **{name: _Hint(rule_id, dice, name, on) for name, on in
                            (("classify", "answer"), ("face_kind", "face")) if getattr(dice, name) is not None})


def check_play(rule_id: str, outcomes: Sequence[str], played: Any, asked: Sequence[tuple[Dice, Any]]) -> None:
    """Refuse what the designer's ``play`` returned on these dice if it is not a :class:`Play`
    of a declared outcome with a whole number of hits."""
    if not isinstance(played, Play):
        raise RuleError(f"rule {rule_id!r}: play returned {shown(played)}; return a "
                        f"Play(outcome, hits, evasions=..., quantities=..., trace=...)")
    if played.outcome not in outcomes:
        raise RuleError(f"rule {rule_id!r}: play came to the outcome {shown(played.outcome)} "
                        f"{dice_text(asked)}, which is not one of the declared outcomes "
                        f"{', '.join(map(repr, outcomes))}")
    if type(played.hits) is not int and (not isinstance(played.hits, Integral) or isinstance(played.hits, bool)) \
            or played.hits < 0:
        raise RuleError(f"rule {rule_id!r}: play's hits must be a whole number of 0 or more, "
                        f"not {shown(played.hits)} {dice_text(asked)}")


class _Walker(Roller):
    """Answers ``play`` from one path's answers, asks the walk for the next request, and is
    ``play``'s guard (one object a call, kept light)."""

    explain = False

    def __init__(self, rule_id: str, answers: tuple[Any, ...]):
        self.rule_id, self.answers, self.next, self.open = rule_id, answers, 0, True
        self.rolled = []

    def roll(self, dice: Dice) -> Any:
        if not self.open:
            raise RuleError(f"rule {self.rule_id!r}: the roller was used after play returned (asked for "
                            f"{dice}); roll every die inside play, before it returns its Play")
        at = self.next
        if at < len(self.answers):
            self.next = at + 1
            return self.answers[at]
        raise _NeedMore(hinted(self.rule_id, dice))


def walk(rule_id: str, play: Callable[[Any, Roller], Any], outcomes: Sequence[str], scenario: Any,
         limit: int) -> Dist:
    """The exact distribution of the designer's plays (without their traces) over every way
    the dice can fall, following the requests' hints.

    :class:`TooManyPlays` before the work when the path walked first (each request's first
    answer) already leads to more than ``limit`` plays, or one request has more answers than
    that; and as soon as more than ``limit`` plays would be walked. A mistake is said on the
    first dice met in that order (the lowest faces first)."""
    found: dict[tuple, tuple[Play, dict[int, int]]] = {}    # play's key -> (play, {denominator: ways})
    # each path still to walk: its answers, their ways and denominator, the dice asked for, and
    # whether it is the path walked first
    pending: list[tuple[tuple[Any, ...], int, int, tuple[Dice, ...], bool]] = [((), 1, 1, (), True)]
    walked = first_path = 1
    while pending:
        answers, ways, denominator, asked, first = pending.pop()
        roller = _Walker(rule_id, answers)
        try:
            played = play(scenario, roller)
        except _NeedMore as need:
            dice = need.dice
            branches = _branches(dice, limit, asked)
            walked += len(branches) - 1
            first_path *= len(branches) if first else 1
            if max(walked, first_path) > limit:
                raise TooManyPlays((*asked, dice), max(walked, first_path), limit) from None
            size = dice.sides ** dice.count
            pending.extend((answers + (answer,), ways * w, denominator * size, (*asked, dice), first and i == 0)
                           for i, (answer, w) in reversed(list(enumerate(branches))))  # the first answer first
            continue
        except (RuleError, DiceError, TooManyPlays):
            raise
        except Exception as error:
            raise RuleError(f"rule {rule_id!r}: play raised {type(error).__name__}: {shown(str(error))} "
                            f"{dice_text(list(zip(asked, answers)))}") from error
        finally:
            roller.open = False
        if type(played) is not Play:
            check_play(rule_id, outcomes, played, list(zip(asked, answers)))
        # keyed by what a Play's equality compares, as a tuple: hashed and compared in C
        key = (played.outcome, played.hits, played.evasions, played.quantities)
        entry = found.get(key)
        if entry is None:
            check_play(rule_id, outcomes, played, list(zip(asked, answers)))
            entry = found[key] = (played.bare() if played.trace or played.rolled else played, {})
        ways_by_denominator = entry[1]
        ways_by_denominator[denominator] = ways_by_denominator.get(denominator, 0) + ways
    common = 1
    for _, entry in found.values():
        for d in entry:
            common = lcm(common, d)
    return Dist((bare, sum(w * (common // d) for d, w in entry.items())) for bare, entry in found.values())
