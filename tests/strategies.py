"""Hypothesis strategies for any registered system's scenarios, derived from its declared
fields (ranges, steps, choices, list lengths), so every system is fuzzed the same way.

``scenario_strategy(id, small=True)`` narrows the draw to scenarios small enough to enumerate
every roll: a system may put a module ``tests/core/<package>/small.py`` beside its tests with

- ``BOUNDS``: ``{"attackers.burst": (1, 2), "attackers": (1, 2)}`` — a dotted field path (list
  indices left out) to the least and most value, or the least and most items of a list;
- ``fix(data) -> data`` (optional): turns any drawn data into a valid scenario, so that
  generated scenarios are valid by construction rather than refused by cross-field checks.

A system without that module is drawn over its whole declared ranges.
"""

from __future__ import annotations

import importlib
from typing import Any

from hypothesis import strategies as st

from rules_core import all_systems
from rules_core.scenario import FieldSpec, fields_of

__all__ = ["value_strategy", "data_strategy", "scenario_strategy", "small_module"]

Bounds = dict[str, tuple[Any, Any]]


def value_strategy(spec: FieldSpec, bounds: Bounds | None = None, path: str = "") -> st.SearchStrategy[Any]:
    bounds = bounds or {}
    path = path or spec.name
    lo, hi = bounds.get(path, (None, None))
    if spec.kind == "int":
        step = int(spec.step or 1)
        low = spec.minimum if lo is None else max(spec.minimum, lo)
        high = spec.maximum if hi is None else min(spec.maximum, hi)
        return st.integers(0, (high - low) // step).map(lambda k: low + k * step)
    if spec.kind == "float":
        step = spec.step or 1
        low = spec.minimum if lo is None else max(spec.minimum, lo)
        high = spec.maximum if hi is None else min(spec.maximum, hi)
        count = int(round((high - low) / step))
        return st.integers(0, count).map(lambda k: min(high, round(low + k * step, 10)))
    if spec.kind == "flag":
        return st.booleans()
    if spec.kind in ("choice", "ruling"):
        return st.sampled_from([v for v, _ in spec.choices])
    if spec.kind == "part":
        return data_strategy(spec.part_cls, bounds, path + ".")
    if spec.kind == "parts":
        least = spec.min_items if lo is None else max(spec.min_items, lo)
        most = spec.max_items if hi is None else min(spec.max_items, hi)
        return st.lists(data_strategy(spec.part_cls, bounds, path + "."), min_size=least, max_size=most)
    return st.just(spec.default)  # a notation field: its default is valid


def data_strategy(cls, bounds: Bounds | None = None, prefix: str = "") -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({spec.name: value_strategy(spec, bounds, prefix + spec.name)
                                  for spec in fields_of(cls)})


def small_module(system_id: str) -> Any:
    """The system's ``small.py`` test module (see above), or ``None``. A system's package, like
    its tests' folder, is its id with ``_`` for ``-``."""
    try:
        return importlib.import_module(f"core.{system_id.replace('-', '_')}.small")
    except ModuleNotFoundError:
        return None


def scenario_strategy(system_id: str, small: bool = False) -> st.SearchStrategy[dict[str, Any]]:
    module = small_module(system_id) if small else None
    bounds = getattr(module, "BOUNDS", None)
    fix = getattr(module, "fix", lambda data: data)
    return data_strategy(all_systems()[system_id].scenario_cls, bounds).map(
        lambda d: fix({"system": system_id, **d}))
