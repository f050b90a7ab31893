"""Sweeps: every headline quantity along one field's values, or over a grid of two fields.

>>> from rules_core import find_preset, sweep
>>> seed = find_preset("infinity-n4/zhanshi-vs-fusilier").scenario
>>> [str(point.headline["p_dodge_succeeds"]) for point in sweep(seed, "dodger.ph", [10, 11])]
['47/500', '2223/20000']

Fields are named by dotted path, as in a share link (``"attackers.0.burst"``). Values not
given are every value the field allows (numbers on their step, every choice, both flags). A
value the field does not allow is refused before anything is evaluated; a point whose
combination of fields the rules refuse is kept, with its reason in ``refused`` and no headline
(in :meth:`Sweep.records` and :meth:`Sweep.to_data`, every headline quantity null).
The workbook turns a sweep into a tidy pandas DataFrame (``workbook.explore``); here it stays
plain data: :meth:`Sweep.records` and :meth:`Sweep.to_data`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sized
import numbers
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from itertools import islice, product
from types import MappingProxyType
from typing import Any, NamedTuple

from .registry import get_system
from .result import COMMON_HEADLINES, fraction_text
from .scenario import SNAP, FieldSpec, Part, Problem, Scenario, ScenarioError, spec_at
from .scenario.editing import plain

__all__ = ["SweepPoint", "Sweep", "sweep", "sweep_grid", "field_values", "allowed_values"]

#: Most points one sweep evaluates (a 40×40 grid); more is refused with a clear message.
MAX_POINTS = 1600


@dataclass(frozen=True)
class SweepPoint:
    """One point: the swept fields' ``values`` (in the order of :attr:`Sweep.fields`), every
    headline quantity there (``Fraction`` or None), and ``refused``: why the rules refused this
    combination of fields ("" when evaluated; the headline is then empty)."""

    values: tuple[Any, ...]
    headline: Mapping[str, Fraction | None] = field(default_factory=dict)
    refused: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "headline", MappingProxyType(dict(self.headline)))

    @property
    def value(self) -> Any:
        """The first (in a one-field sweep, the only) swept field's value."""
        return self.values[0]


@dataclass(frozen=True)
class Sweep:
    """A sweep of ``base`` along ``fields`` (one or two dotted paths): its ``points`` in order
    (for a grid, the first field's values outer, the second's inner)."""

    base: Scenario
    fields: tuple[str, ...]
    points: tuple[SweepPoint, ...]

    def __iter__(self) -> Iterator[SweepPoint]:
        return iter(self.points)

    def __len__(self) -> int:
        return len(self.points)

    def headline_keys(self) -> tuple[str, ...]:
        """Every headline quantity met along the sweep, in the order first met, then any other
        the system declares (so a sweep the rules refuse at every point still names them all)."""
        declared = (*COMMON_HEADLINES, *get_system(self.base.system).headlines)
        return tuple(dict.fromkeys([*(k for p in self.points for k in p.headline), *declared]))

    def records(self) -> list[dict[str, Any]]:
        """One flat dict per point: each swept field's value by its path, each headline
        quantity (``Fraction`` or None) by its key, and ``refused``."""
        keys = self.headline_keys()
        return [{**dict(zip(self.fields, p.values)), **{k: p.headline.get(k) for k in keys},
                 "refused": p.refused} for p in self.points]

    def to_data(self) -> dict[str, Any]:
        """JSON-ready form, exact values as ``"n/d"`` (None stays null): for one field
        ``{"field": path, "points": [{"value": v, "headline": {...}}]}``, for a grid
        ``{"fields": [a, b], "points": [{"values": [va, vb], "headline": {...}}]}``; a refused
        point names every headline quantity of the sweep with null, and its reason under
        ``"refused"``."""
        keys = self.headline_keys()

        def point(p: SweepPoint) -> dict[str, Any]:
            where: dict[str, Any] = ({"value": _json(p.value)} if len(self.fields) == 1
                                     else {"values": [_json(v) for v in p.values]})
            if p.refused:
                return {**where, "headline": dict.fromkeys(keys), "refused": p.refused}
            return {**where, "headline": {k: None if v is None else fraction_text(v)
                                          for k, v in p.headline.items()}}

        head = {"field": self.fields[0]} if len(self.fields) == 1 else {"fields": list(self.fields)}
        return {**head, "points": [point(p) for p in self.points]}


def _json(value: Any) -> Any:
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    return float(value) if Fraction(value).denominator != 1 else int(value)


def _spec(scenario: Scenario, path: str) -> FieldSpec:
    """The declaration of the single-valued field at ``path`` (refused otherwise)."""
    value = scenario.get(path)  # a clear error for a path that names nothing
    spec = spec_at(type(scenario), tuple(int(s) if s.isdigit() else s for s in path.split(".")))
    if spec is None or spec.kind in ("part", "parts") or path.split(".")[-1].isdigit():
        raise ScenarioError(f"sweep of {scenario.system}", [Problem(
            path, type(value).__name__, "one field with a single value, such as a number, a choice "
            "or a flag (one of: " + ", ".join(scenario.paths()[:6]) + ", ...)")])
    return spec


def field_values(spec: FieldSpec) -> tuple[Any, ...]:
    """Every value a single-valued field allows: numbers from minimum to maximum on their step
    (exact), each choice, ``False`` and ``True``; a text field has no list of values."""
    if spec.kind in ("int", "float"):
        low, high, step = Fraction(spec.minimum), Fraction(spec.maximum), Fraction(spec.step or 1)
        count = int((high - low) / step) + 1
        return tuple(spec.nearest(low + k * step) for k in range(count))
    if spec.kind in ("choice", "ruling"):
        return tuple(value for value, _ in spec.choices)
    if spec.kind == "flag":
        return (False, True)
    raise ValueError(f"field {spec.name!r} is free text; give the values to sweep")


def allowed_values(scenario: Scenario, path: str) -> tuple[Any, ...]:
    """Every value the field at dotted ``path`` of ``scenario`` allows, in order (what a sweep
    of it without values runs through; pick a range from it for a shorter one).

    >>> from rules_core import find_preset
    >>> allowed_values(find_preset("infinity-n4/zhanshi-vs-fusilier").scenario, "attackers.0.burst")
    (1, 2, 3, 4, 5)
    """
    return field_values(_spec(scenario, path))


def _allowed(spec: FieldSpec, value: Any) -> bool:
    """Whether the field allows ``value`` (a number within ``SNAP`` of its step counts as on it)."""
    if spec.kind in ("int", "float"):
        if isinstance(value, bool) or not isinstance(value, (numbers.Real, Decimal)):
            return False
        return abs(Fraction(spec.nearest(value)) - Fraction(value)) <= SNAP
    if spec.kind in ("choice", "ruling"):
        return any(value == v for v, _ in spec.choices)
    if spec.kind == "flag":
        return isinstance(value, bool)
    return isinstance(value, str)


class _Axis(NamedTuple):
    """One swept field: its declaration, the values given (at most :data:`MAX_POINTS` + 1 of
    them taken) and how many there are (``None``: more than were taken, from an iterator)."""

    spec: FieldSpec
    values: tuple[Any, ...]
    count: int | None


def _taken(scenario: Scenario, path: str, values: Iterable[Any] | None) -> _Axis:
    """The values to sweep ``path`` over, not yet checked: a generator is read no further than
    one value past :data:`MAX_POINTS`, so a sweep too large is refused before anything else."""
    spec = _spec(scenario, path)
    if values is None:
        chosen = field_values(spec)
        return _Axis(spec, chosen, len(chosen))
    chosen = tuple(islice(values, MAX_POINTS + 1))
    if isinstance(values, Sized):
        return _Axis(spec, chosen, len(values))
    return _Axis(spec, chosen, len(chosen) if len(chosen) <= MAX_POINTS else None)


_NONE = object()  # no value refused


def _checked(scenario: Scenario, path: str, axis: _Axis) -> tuple[Any, ...]:
    """The axis's values, each one the field allows (refused, naming the first that is not)."""
    spec, chosen = axis.spec, axis.values
    if not chosen:
        raise ScenarioError(f"sweep of {scenario.system}", [Problem(path, [], "at least one value")])
    bad = next((v for v in chosen if not _allowed(spec, v)), _NONE)
    if bad is not _NONE:
        raise ScenarioError(f"sweep of {scenario.system}", [Problem(path, bad, spec.allowed())])
    if spec.kind in ("int", "float"):  # the value the scenario holds: 6.250000000000001 is 6.25
        return tuple(spec.nearest(v) for v in chosen)
    return chosen


def _points(scenario: Scenario, fields: tuple[str, ...],
            combos: Iterable[tuple[Any, ...]]) -> tuple[SweepPoint, ...]:
    system = get_system(scenario.system)
    headline_of = system.headline or (lambda s: system.evaluate(s).headline)
    build = _builder(scenario, fields)
    points = []
    for values in combos:
        try:
            headline = headline_of(build(values))
        except ValueError as err:  # a ScenarioError, or a combination the rules refuse
            points.append(SweepPoint(values, refused=str(err)))
            continue
        points.append(SweepPoint(values, headline))
    return tuple(points)


def _builder(scenario: Scenario, fields: tuple[str, ...]) -> Callable[[tuple[Any, ...]], Scenario]:
    """``values -> scenario.replace(**dict(zip(fields, values)))``, for many points: only the
    blocks holding a swept field are validated again (from plain data, as ``replace`` does); the
    others are the scenario's own, already valid, and the scenario's checks across blocks run
    at every point. A point the rules refuse raises what ``replace`` raises."""
    model = type(scenario)
    paths = [[int(s) if s.isdigit() else s for s in path.split(".")] for path in fields]
    base: dict[str, Any] = dict(scenario)  # each field's value, the blocks as they are
    for path in paths:
        base = _opened(base, path)

    def build(values: tuple[Any, ...]) -> Scenario:
        changed = base
        for path, value in zip(paths, values):
            changed = _with(changed, path, plain(value))
        try:
            return model.model_validate(changed)
        except ValueError:
            return scenario.replace(**dict(zip(fields, values)))  # raises, naming the field
    return build


def _copy(node: Any) -> Any:
    """A shallow copy of a dict or a list (a tuple becomes a list, a block its plain data)."""
    if isinstance(node, Part):
        return node.to_data()
    return list(node) if isinstance(node, (list, tuple)) else dict(node)


def _opened(node: Any, path: list[Any]) -> Any:
    """``node`` with every block along ``path`` (down to the field's own) as plain data."""
    node = _copy(node)
    if len(path) > 1:
        node[path[0]] = _opened(node[path[0]], path[1:])
    return node


def _with(node: Any, path: list[Any], value: Any) -> Any:
    """A copy of ``node`` with the item at ``path`` set to ``value``; only the dicts and lists
    along the path are copied, the rest is shared."""
    node = _copy(node)
    head, rest = path[0], path[1:]
    node[head] = _with(node[head], rest, value) if rest else value
    return node


def _check_size(scenario: Scenario, fields: tuple[str, ...], *axes: _Axis) -> None:
    """Refuse a sweep of more than :data:`MAX_POINTS` points, before any value is checked."""
    counts = [axis.count for axis in axes]
    if None in counts:
        given = f"more than {MAX_POINTS:,} values"
    else:
        total = 1
        for count in counts:
            total *= count
        if total <= MAX_POINTS:
            return
        given = f"{total:,} points"
    raise ScenarioError(f"sweep of {scenario.system}", [Problem(
        " × ".join(fields), given, f"at most {MAX_POINTS:,} points; give fewer values")])


def sweep(scenario: Scenario, path: str, values: Iterable[Any] | None = None) -> Sweep:
    """Every headline of ``scenario`` with the field at dotted ``path`` set to each of
    ``values`` in turn (default: every value the field allows). More than :data:`MAX_POINTS`
    values are refused before any is checked (an iterator is read only that far)."""
    axis = _taken(scenario, path, values)
    _check_size(scenario, (path,), axis)
    chosen = _checked(scenario, path, axis)
    return Sweep(scenario, (path,), _points(scenario, (path,), ((v,) for v in chosen)))


def sweep_grid(scenario: Scenario, path: str, values: Iterable[Any] | None,
               other: str, other_values: Iterable[Any] | None = None) -> Sweep:
    """Every headline of ``scenario`` over the grid of two fields: each of ``values`` of
    ``path`` with each of ``other_values`` of ``other`` (None: every value allowed). A grid of
    more than :data:`MAX_POINTS` points is refused before any value is checked."""
    if other == path:
        raise ScenarioError(f"sweep of {scenario.system}", [Problem(other, other, "a second, "
                                                                    "different field")])
    first, second = _taken(scenario, path, values), _taken(scenario, other, other_values)
    _check_size(scenario, (path, other), first, second)
    first_values, second_values = _checked(scenario, path, first), _checked(scenario, other, second)
    return Sweep(scenario, (path, other), _points(scenario, (path, other), product(first_values, second_values)))
