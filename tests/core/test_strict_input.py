"""Strict input through the API, for every field of every registered system: a number field
takes a number (a whole one where the field is whole), a flag takes true or false; text that
looks like a number and numbers that look like flags are refused naming the field."""

from __future__ import annotations

from typing import Any

import pytest

from rules_core import ScenarioError, all_systems, load_scenario
from rules_core.scenario import Part, Problem, ScenarioError as Error, fields_of, shown


def leaf_fields(cls: type[Part], prefix: tuple[Any, ...] = ()):
    """(path, FieldSpec) of every number and flag field, through parts (first item of a list)."""
    for spec in fields_of(cls):
        if spec.kind in ("int", "float", "flag"):
            yield prefix + (spec.name,), spec
        elif spec.kind == "part":
            yield from leaf_fields(spec.part_cls, prefix + (spec.name,))
        elif spec.kind == "parts":
            yield from leaf_fields(spec.part_cls, prefix + (spec.name, 0))


CASES = [(system.id, path, spec) for system in all_systems().values()
         for path, spec in leaf_fields(system.scenario_cls)]

NOT_NUMBERS = ["2", " 3 ", "1_0", "", True, False, None, [1], {"n": 1}]
NOT_FLAGS = [1, 0, 1.0, "yes", "on", "true", "false", "1", None, [True]]


def test_every_system_has_number_and_flag_fields_here():
    kinds = {(system_id, spec.kind) for system_id, _, spec in CASES}
    assert {system_id for system_id, _ in kinds} == set(all_systems())
    assert ("gurps-4e", "float") in kinds and ("gurps-4e", "flag") in kinds


@pytest.mark.parametrize("system_id, path, spec", CASES,
                         ids=[f"{s}:{'.'.join(map(str, p))}" for s, p, _ in CASES])
def test_wrong_json_types_are_refused_naming_the_field(system_id, path, spec):
    dotted = ".".join(map(str, path))
    for value in NOT_FLAGS if spec.kind == "flag" else NOT_NUMBERS:
        data = all_systems()[system_id].default_scenario().to_data()
        node = data
        for step in path[:-1]:
            node = node[step]
        node[path[-1]] = value
        with pytest.raises(ScenarioError) as err:
            load_scenario(data)
        assert f"field '{dotted}': got {shown(value)}; allowed: {spec.allowed()}" in str(err.value), value


def test_a_whole_field_takes_a_whole_number_written_with_a_point_but_not_a_fraction():
    data = {"system": "infinity-n4", "dodger": {"ph": 12.0}}
    assert load_scenario(data).dodger.ph == 12 and type(load_scenario(data).dodger.ph) is int
    with pytest.raises(ScenarioError, match=r"field 'dodger\.ph': got 12\.5; allowed: a whole number from 0 to 30"):
        load_scenario({"system": "infinity-n4", "dodger": {"ph": 12.5}})


def test_a_message_lists_ten_problems_and_counts_the_rest():
    err = Error("x scenario", [Problem(f"f{i}", i, "no") for i in range(25)], "and 7 more unknown fields")
    text = str(err)
    assert "field 'f9'" in text and "field 'f10'" not in text
    assert text.endswith("; and 15 more problems; and 7 more unknown fields") and "\n" not in text
