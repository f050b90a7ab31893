"""Monte Carlo through the very rule the exact numbers are proven against.

:func:`simulate` plays a scenario ``n`` times with seeded random dice (``System.play`` through
:func:`rules_core.play.sample`) and estimates every headline quantity from the plays, by the
same :class:`~rules_core.play.Headline` definitions that define the exact values — so a
simulated value and its exact counterpart always mean the same thing. Each estimate carries its
standard error; a classroom watches the estimate settle within a few of them.

:func:`simulate_steps` yields the running state every ``chunk`` plays, so a dashboard can draw
progress and stop early.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from math import sqrt
from typing import TYPE_CHECKING, Any

from .dist import Dist
from .play import COMMON_HEADLINE_DEFINITIONS, Headline, Play, sample
from .result import fraction_text

if TYPE_CHECKING:
    from .registry import System
    from .result import Result
    from .scenario import Scenario

__all__ = ["Estimate", "Simulation", "simulate", "simulate_steps", "MAX_ROLLS"]

#: The most rolls one simulation may ask for.
MAX_ROLLS = 100_000


@dataclass(frozen=True)
class Estimate:
    """A simulated value with its standard error, beside the exact value (``None`` where the
    quantity does not apply, or no simulated roll met its condition)."""

    name: str
    simulated: float | None
    standard_error: float | None
    exact: Fraction | None
    rolls: int

    kind: str = "probability"

    def within(self, errors: float) -> bool:
        """The simulated value lies within ``errors`` standard errors of the exact one. For a
        probability the standard error is the exact one, ``sqrt(p(1 − p)/n)`` (so a rare event
        not yet seen is judged fairly); for an expectation it is the sample's."""
        if self.exact is None or self.simulated is None:
            return self.exact is None or self.rolls == 0
        if self.kind == "probability":
            p = float(self.exact)
            error = sqrt(p * (1 - p) / self.rolls)
        else:
            error = self.standard_error or 0.0
        return abs(self.simulated - float(self.exact)) <= errors * error + 1e-12


def _estimate(name: str, headline: Headline, scenario: Any, plays: Counter[Play],
              exact: Fraction | None) -> Estimate:
    if headline.applies is not None and headline.applies(scenario) is not None:
        return Estimate(name, None, None, exact, 0, headline.kind)
    kept = {p: c for p, c in plays.items() if headline.given is None or headline.given(p)}
    m = sum(kept.values())
    if m == 0:
        return Estimate(name, None, None, exact, 0, headline.kind)
    if headline.kind == "probability":
        p = sum(c for play, c in kept.items() if headline.of(play)) / m
        return Estimate(name, p, sqrt(p * (1 - p) / m), exact, m, headline.kind)
    values = [(float(headline.of(play)), c) for play, c in kept.items()]
    mean = sum(v * c for v, c in values) / m
    variance = sum(c * (v - mean) ** 2 for v, c in values) / max(1, m - 1)
    return Estimate(name, mean, sqrt(variance / m), exact, m, headline.kind)


@dataclass(frozen=True)
class Simulation:
    """``rolls`` plays of a scenario: how often each play happened and the estimates."""

    system: str
    rolls: int
    seed: int | str | None
    counts: Counter[Play]

    def outcomes(self) -> Counter[str]:
        """How many rolls ended in each outcome label."""
        found: Counter[str] = Counter()
        for play, c in self.counts.items():
            found[play.outcome] += c
        return found

    def distribution(self) -> Dist:
        """The simulated plays as an (empirical) distribution."""
        return Dist(self.counts)

    def estimates(self, system: System, result: Result) -> dict[str, Estimate]:
        """Every headline quantity: simulated, its standard error, and exact from ``result``."""
        definitions = {**COMMON_HEADLINE_DEFINITIONS, **system.headlines}
        return {name: _estimate(name, h, result.scenario, self.counts, result.headline.get(name))
                for name, h in definitions.items()}

    def to_data(self, system: System, result: Result) -> dict[str, Any]:
        """JSON-ready: for each headline the simulated value, its standard error and the exact value."""
        out = {}
        for name, e in self.estimates(system, result).items():
            out[name] = {"simulated": e.simulated, "standard_error": e.standard_error,
                         "exact": None if e.exact is None else fraction_text(e.exact),
                         "exact_float": None if e.exact is None else float(e.exact), "rolls": e.rolls}
        return {"system": self.system, "rolls": self.rolls, "seed": self.seed, "headline": out,
                "outcomes": dict(sorted(self.outcomes().items()))}


def _check_rolls(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_ROLLS:
        raise ValueError(f"rolls: got {n!r}; allowed: a whole number from 1 to {MAX_ROLLS:,}")
    return n


def simulate_steps(system: System, scenario: Scenario, n: int, seed: int | str | None = None,
                   chunk: int = 2000) -> Iterator[Simulation]:
    """The simulation's running state after every ``chunk`` rolls, the last after all ``n``."""
    n = _check_rolls(n)
    counts: Counter[Play] = Counter()
    done = 0
    for play in sample(system, scenario, n, seed):
        counts[play] += 1
        done += 1
        if done % chunk == 0 or done == n:
            yield Simulation(system.id, done, seed, Counter(counts))


def simulate(system: System, scenario: Scenario, n: int, seed: int | str | None = None) -> Simulation:
    """``n`` seeded rolls of ``scenario`` through ``system.play``."""
    last = None
    for last in simulate_steps(system, scenario, n, seed, chunk=_check_rolls(n)):
        pass
    assert last is not None
    return last
