"""The one test every registered system gets by being registered.

Its fast ``evaluate`` must equal, exactly, the exhaustive enumeration of its rule on concrete
dice (``System.play``): the outcome distribution, the hits landing, every headline quantity (each
defined on a play) and every further named distribution (a play quantity of the same name).
Scenarios are drawn from the system's declared fields, narrowed to what can be enumerated
(``tests/core/<package>/small.py``), every ruling value included.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from rules_core import ScenarioError, all_systems, enumerate_play, evaluate, load_scenario
from rules_core.play import headlines_of
from strategies import scenario_strategy

SYSTEM_IDS = sorted(all_systems())
RULINGS = [(s.id, f.name, value) for s in all_systems().values() for f in s.rulings() for value, _ in f.choices]


def check_against_enumeration(system_id: str, raw: dict) -> None:
    system = all_systems()[system_id]
    try:
        scenario = load_scenario(raw)
    except ScenarioError:
        assume(False)
        return
    result = evaluate(scenario)
    plays = enumerate_play(system, scenario)
    assert result.outcomes == plays.map(lambda p: p.outcome)
    assert result.hits == plays.map(lambda p: p.hits)
    assert dict(result.headline) == headlines_of(system, scenario, plays)
    for name, dist in result.distributions.items():
        assert dist == plays.map(lambda p, name=name: p[name]), name


def test_every_system_plays_concrete_dice():
    assert all(s.play is not None for s in all_systems().values())


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.filter_too_much])
@given(data=st.data())
def test_evaluate_equals_enumerating_play(system_id, data):
    check_against_enumeration(system_id, data.draw(scenario_strategy(system_id, small=True)))


@pytest.mark.parametrize("system_id, ruling, value", RULINGS)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.filter_too_much])
@given(data=st.data())
def test_every_ruling_value_is_enumerated(system_id, ruling, value, data):
    raw = data.draw(scenario_strategy(system_id, small=True))
    raw[ruling] = value
    check_against_enumeration(system_id, raw)
