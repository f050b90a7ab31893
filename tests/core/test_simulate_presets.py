"""Sampling converges on the exact value: every preset of every system, 20,000 seeded rolls
through ``System.play``, every headline within 4 standard errors of ``evaluate``'s exact value.

A rule whose sampling disagreed with its exact path (a modifier applied in one and not the
other, a wrong weight in the fast path) would be off by far more than 4 standard errors here.
"""

from __future__ import annotations

import pytest

from rules_core import all_systems, evaluate
from rules_core.simulate import simulate

PRESETS = [(s.id, p.name) for s in all_systems().values() for p in s.presets]


@pytest.mark.slow
@pytest.mark.parametrize("system_id, preset", PRESETS)
def test_twenty_thousand_rolls_settle_on_the_exact_headlines(system_id, preset):
    system = all_systems()[system_id]
    scenario = system.preset(preset).scenario
    result = evaluate(scenario)
    estimates = simulate(system, scenario, 20_000, seed=f"{system_id}/{preset}").estimates(system, result)
    assert set(estimates) == set(result.headline)
    off = {name: (e.simulated, float(e.exact)) for name, e in estimates.items()
           if e.exact is not None and not e.within(4)}
    assert not off, off
    for name, e in estimates.items():
        if result.headline[name] is None:
            assert e.simulated is None, f"{name} is null exactly but was simulated"
