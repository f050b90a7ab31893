"""Hypothesis strategies for any registered system's scenarios, derived from its declared
fields (ranges, steps, choices, list lengths), so every system is fuzzed the same way."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from rules_core import all_systems
from rules_core.scenario import FieldSpec, fields_of

__all__ = ["value_strategy", "data_strategy", "scenario_strategy"]


def value_strategy(spec: FieldSpec) -> st.SearchStrategy[Any]:
    if spec.kind == "int":
        step = int(spec.step or 1)
        return st.integers(0, (spec.maximum - spec.minimum) // step).map(lambda k: spec.minimum + k * step)
    if spec.kind == "float":
        step = spec.step or 1
        count = int(round((spec.maximum - spec.minimum) / step))
        return st.integers(0, count).map(lambda k: min(spec.maximum, round(spec.minimum + k * step, 10)))
    if spec.kind == "flag":
        return st.booleans()
    if spec.kind in ("choice", "ruling"):
        return st.sampled_from([v for v, _ in spec.choices])
    if spec.kind == "part":
        return data_strategy(spec.part_cls)
    if spec.kind == "parts":
        return st.lists(data_strategy(spec.part_cls), min_size=spec.min_items, max_size=spec.max_items)
    return st.just(spec.default)  # a notation field: its default is valid


def data_strategy(cls) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({spec.name: value_strategy(spec) for spec in fields_of(cls)})


def scenario_strategy(system_id: str) -> st.SearchStrategy[dict[str, Any]]:
    return data_strategy(all_systems()[system_id].scenario_cls).map(lambda d: {"system": system_id, **d})
