"""Every registered system, fuzzed from its own declared fields.

Valid scenarios are drawn from the declared ranges and choices: each either evaluates to a
result that is a proper exact distribution consistent with its headline quantities, or (where a
cross-field check refuses the combination) raises a ScenarioError naming a field. Invalid data —
one field pushed outside what its declaration allows — always raises a ScenarioError naming that
field, never another exception.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rules_core import ScenarioError, evaluate, load_scenario, all_systems
from rules_core.scenario import FieldSpec, fields_of
from strategies import scenario_strategy

SYSTEM_IDS = sorted(all_systems())


def number_paths(cls, data: dict[str, Any], prefix: str = "") -> list[tuple[str, FieldSpec]]:
    """Dotted paths of every number, choice and flag field present in ``data``."""
    found = []
    for spec in fields_of(cls):
        path = f"{prefix}{spec.name}"
        if spec.kind in ("int", "float", "choice", "ruling", "flag"):
            found.append((path, spec))
        elif spec.kind == "part":
            found += number_paths(spec.part_cls, data[spec.name], path + ".")
        elif spec.kind == "parts":
            for i, item in enumerate(data[spec.name]):
                found += number_paths(spec.part_cls, item, f"{path}.{i}.")
    return found


def set_path(data: dict[str, Any], path: str, value: Any) -> None:
    *head, last = path.split(".")
    for step in head:
        data = data[int(step)] if step.isdigit() else data[step]
    data[last] = value


def check_result(result) -> None:
    for key, value in result.headline.items():
        if key.startswith("p_") and value is not None:
            assert 0 <= value <= 1, key
        if key.startswith("expected_") and value is not None:
            assert value >= 0, key
    assert result.trace and all(step.citation for step in result.trace)


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_valid_scenarios_evaluate_exactly(system_id, data):
    raw = data.draw(scenario_strategy(system_id))
    try:
        scenario = load_scenario(raw)
    except ScenarioError as err:  # a cross-field check refused the combination
        assert err.problems and all(p.field and p.allowed for p in err.problems)
        return
    check_result(evaluate(scenario))


def bad_value(spec: FieldSpec, pick: int) -> Any:
    if spec.kind in ("int", "float"):
        return (spec.maximum + (spec.step or 1), spec.minimum - (spec.step or 1), "seven", None)[pick % 4]
    if spec.kind in ("choice", "ruling"):
        return ("no-such-choice", 3, None, ["x"])[pick % 4]
    return ("maybe", 2, None, {"x": 1})[pick % 4]


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_invalid_fields_are_named(system_id, data):
    raw = data.draw(scenario_strategy(system_id))
    cls = all_systems()[system_id].scenario_cls
    path, spec = data.draw(st.sampled_from(number_paths(cls, raw)))
    value = bad_value(spec, data.draw(st.integers(0, 3)))
    set_path(raw, path, value)
    with pytest.raises(ScenarioError) as err:
        load_scenario(raw)
    assert path in [p.field for p in err.value.problems], str(err.value)


@pytest.mark.parametrize("junk", [None, 3, "x", [], {"system": None}, {"system": "infinity-n4", "dodger": 5},
                                  {"system": "infinity-n4", "attackers": "many"}])
def test_junk_is_a_scenario_error(junk):
    with pytest.raises(ScenarioError):
        load_scenario(junk)
