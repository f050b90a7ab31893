"""Exhaustive enumeration of a rule written on concrete dice: the truth for small cases.

A system writes its rule once, as a function that plays one concrete roll and asks for each
roll it needs through a callback (``ask(request)``). :func:`enumerate_rule` replays that function
with every possible sequence of answers, asking a system-supplied ``branches(request)`` what a
request can yield, and so finds the exact distribution of any summary of the outcome. Rolls
the rule never asks for are never enumerated, so the walk follows the rule's own branching.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any

from .dist import Dist

__all__ = ["enumerate_rule"]


class _NeedMore(Exception):
    """The rule asked for a roll beyond the answers given so far."""

    def __init__(self, request: Any):
        super().__init__(request)
        self.request = request


_NONE = object()


def enumerate_rule(rule: Callable[[Callable[[Any], Any]], Any],
                   branches: Callable[[Any], Iterable[tuple[Any, int, int]]],
                   summary: Callable[[Any], Hashable], *, sides: int) -> Dist:
    """Distribution of ``summary(rule(ask))`` over every way the dice can fall.

    ``rule(ask)`` plays once, calling ``ask(request)`` for each roll it needs.
    ``branches(request)`` lists what that roll can be as ``(answer, ways, dice)``: the answer
    ``ask`` returns, how many of the ``sides ** dice`` ordered rolls of those ``dice`` dice give
    it. Outcomes that needed fewer dice are weighted up to the deepest sequence's denominator.

    >>> two_d6 = enumerate_rule(lambda ask: ask("a") + ask("b"),
    ...                         lambda _req: [(f, 1, 1) for f in range(1, 7)], lambda s: s, sides=6)
    >>> two_d6[7]
    Fraction(1, 6)
    >>> stop_on_six = enumerate_rule(lambda ask: 1 if ask(1) == 6 else 1 + ask(1),
    ...                              lambda _req: [(f, 1, 1) for f in range(1, 7)], lambda s: s, sides=6)
    >>> stop_on_six[1], stop_on_six[7]
    (Fraction(1, 6), Fraction(5, 36))
    """
    found: dict[Hashable, dict[int, int]] = {}  # summary -> {dice rolled: ordered rolls}
    pending: list[tuple[tuple[Any, ...], int, int]] = [((), 0, 1)]
    while pending:
        answers, dice, ways = pending.pop()
        supply = iter(answers)

        def ask(request: Any) -> Any:
            answer = next(supply, _NONE)
            if answer is _NONE:
                raise _NeedMore(request)
            return answer

        try:
            outcome = rule(ask)
        except _NeedMore as need:
            pending.extend((answers + (answer,), dice + n, ways * w)
                           for answer, w, n in branches(need.request))
            continue
        by_dice = found.setdefault(summary(outcome), {})
        by_dice[dice] = by_dice.get(dice, 0) + ways
    deepest = max(n for by_dice in found.values() for n in by_dice)
    return Dist((key, sum(w * sides ** (deepest - n) for n, w in by_dice.items()))
                for key, by_dice in found.items())
