"""Exact, immutable probability distributions.

A :class:`Dist` holds integer weights over a common denominator (their sum), in the manner
of icepool's ``Die``. Probabilities come out as :class:`fractions.Fraction`; floats appear
only at the display edge. Every operation returns a new object.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from math import gcd, lcm
from typing import Any

__all__ = ["Dist"]


class Dist:
    """An exact finite distribution: outcome -> integer weight.

    >>> d6 = Dist.uniform(range(1, 7))
    >>> d6.probability(lambda face: face >= 5)
    Fraction(1, 3)
    >>> (d6 + d6).mean()
    Fraction(7, 1)
    """

    __slots__ = ("_weights", "_total")

    def __init__(self, weights: Mapping[Hashable, int] | Iterable[tuple[Hashable, int]]):
        items = weights.items() if isinstance(weights, Mapping) else weights
        merged: dict[Hashable, int] = {}
        for outcome, weight in items:
            if not isinstance(weight, int) or weight < 0:
                raise ValueError(f"weights must be non-negative integers, got {weight!r}")
            if weight:
                merged[outcome] = merged.get(outcome, 0) + weight
        if not merged:
            raise ValueError("a distribution needs at least one outcome of positive weight")
        divisor = 0
        for weight in merged.values():
            divisor = gcd(divisor, weight)
        if divisor > 1:
            merged = {o: w // divisor for o, w in merged.items()}
        self._weights = merged
        self._total = sum(merged.values())

    # -- construction -------------------------------------------------------------------
    @classmethod
    def uniform(cls, outcomes: Iterable[Hashable]) -> Dist:
        """Each listed outcome once (repeats add weight)."""
        return cls((o, 1) for o in outcomes)

    @classmethod
    def die(cls, sides: int) -> Dist:
        """A fair die numbered 1..sides."""
        return cls.uniform(range(1, sides + 1))

    @classmethod
    def certain(cls, outcome: Hashable) -> Dist:
        """The distribution that always gives ``outcome``."""
        return cls({outcome: 1})

    @classmethod
    def from_fractions(cls, probs: Mapping[Hashable, Fraction]) -> Dist:
        """Build from exact probabilities that sum to 1."""
        if sum(probs.values(), Fraction(0)) != 1:
            raise ValueError("probabilities must sum to exactly 1")
        den = 1
        for p in probs.values():
            den = lcm(den, Fraction(p).denominator)
        return cls((o, int(Fraction(p) * den)) for o, p in probs.items())

    @classmethod
    def mixture(cls, parts: Iterable[tuple[Dist, int]]) -> Dist:
        """Weighted mixture of distributions: ``parts`` are ``(dist, weight)`` pairs."""
        parts = [(d, w) for d, w in parts if w]
        den = 1
        for d, _ in parts:
            den = lcm(den, d._total)
        out: dict[Hashable, int] = {}
        for d, w in parts:
            scale = w * (den // d._total)
            for o, dw in d._weights.items():
                out[o] = out.get(o, 0) + dw * scale
        return cls(out)

    # -- access -------------------------------------------------------------------------
    @property
    def denominator(self) -> int:
        """The common denominator of the weights (their sum, reduced)."""
        return self._total

    def outcomes(self) -> tuple[Hashable, ...]:
        """Outcomes in sorted order where they sort, else in insertion order."""
        try:
            return tuple(sorted(self._weights))
        except TypeError:
            return tuple(self._weights)

    def weight(self, outcome: Hashable) -> int:
        """Integer weight of ``outcome`` (0 if impossible)."""
        return self._weights.get(outcome, 0)

    def __getitem__(self, outcome: Hashable) -> Fraction:
        return Fraction(self._weights.get(outcome, 0), self._total)

    def items(self) -> Iterator[tuple[Hashable, Fraction]]:
        """``(outcome, probability)`` pairs in :meth:`outcomes` order."""
        for o in self.outcomes():
            yield o, Fraction(self._weights[o], self._total)

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self.outcomes())

    def __len__(self) -> int:
        return len(self._weights)

    def __contains__(self, outcome: object) -> bool:
        return outcome in self._weights

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dist):
            return NotImplemented
        return self._total == other._total and self._weights == other._weights

    def __hash__(self) -> int:
        return hash((self._total, frozenset(self._weights.items())))

    def __repr__(self) -> str:
        body = ", ".join(f"{o!r}: {w}" for o, w in zip(self.outcomes(), map(self.weight, self.outcomes())))
        return f"Dist({{{body}}} / {self._total})"

    # -- queries ------------------------------------------------------------------------
    def probability(self, predicate: Callable[[Any], bool] | Hashable) -> Fraction:
        """P(predicate(outcome)), or P(outcome == value) when given a non-callable."""
        if callable(predicate):
            num = sum(w for o, w in self._weights.items() if predicate(o))
        else:
            num = self._weights.get(predicate, 0)
        return Fraction(num, self._total)

    def at_least(self, k: Any) -> Fraction:
        """P(outcome >= k)."""
        return self.probability(lambda o: o >= k)

    def at_most(self, k: Any) -> Fraction:
        """P(outcome <= k)."""
        return self.probability(lambda o: o <= k)

    def mean(self, value: Callable[[Any], Any] | None = None) -> Fraction:
        """Exact expectation of ``value(outcome)`` (the outcome itself by default)."""
        f = value or (lambda o: o)
        return Fraction(sum(w * f(o) for o, w in self._weights.items()), self._total)

    # -- transformations ----------------------------------------------------------------
    def map(self, f: Callable[[Any], Hashable]) -> Dist:
        """Distribution of ``f(outcome)``."""
        return Dist((f(o), w) for o, w in self._weights.items())

    def bind(self, f: Callable[[Any], Dist]) -> Dist:
        """Distribution of the outcome of ``f(outcome)``, itself a distribution."""
        return Dist.mixture((f(o), w) for o, w in self._weights.items())

    def combine(self, other: Dist, f: Callable[[Any, Any], Hashable]) -> Dist:
        """Distribution of ``f(a, b)`` for independent ``a ~ self``, ``b ~ other``."""
        out: dict[Hashable, int] = {}
        for a, wa in self._weights.items():
            for b, wb in other._weights.items():
                key = f(a, b)
                out[key] = out.get(key, 0) + wa * wb
        return Dist(out)

    def __add__(self, other: Dist | int) -> Dist:
        if isinstance(other, Dist):
            return self.combine(other, lambda a, b: a + b)
        return self.map(lambda a: a + other)

    def repeat_sum(self, n: int) -> Dist:
        """Sum of ``n`` independent copies (``n >= 0``)."""
        result = Dist.certain(0)
        base, k = self, n
        while k:
            if k & 1:
                result = result + base
            k >>= 1
            if k:
                base = base + base
        return result

    def condition(self, predicate: Callable[[Any], bool]) -> Dist:
        """The distribution given that ``predicate`` holds."""
        kept = {o: w for o, w in self._weights.items() if predicate(o)}
        if not kept:
            raise ValueError("cannot condition on an impossible event")
        return Dist(kept)
