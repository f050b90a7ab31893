"""Validation with clear errors: :func:`parse` checks data against a scenario or part class
and raises a :class:`ScenarioError` naming every bad field (a :class:`Problem`: where, what was
given, what is allowed), or, for a combination the rules refuse, the fields together
(:class:`Combination`, raised by a model's check as a :class:`FieldConflict`).

Error messages are one line, quote at most :data:`SHOWN` characters of any value and escape
control characters (:func:`shown`, :func:`one_line`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field as dc_field
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from .specs import fields_of, spec_at

if TYPE_CHECKING:
    from .base import Part

__all__ = ["SHOWN", "shown", "one_line", "Combination", "Problem", "FieldConflict", "ScenarioError",
           "COMBINATION", "parse", "when", "scenario_name"]

SHOWN = 80
_ALLOWED_SHOWN = 400  # an "allowed" text is ours, but may quote a value (a notation's message)
_LISTED = 10  # problems spelled out in one message; the rest are counted
_NAMED_UNKNOWN = 5  # unknown keys named in one message; the rest are counted


def _escaped(text: str) -> str:
    """``text`` with every control or other unprintable character as its escape (``\\n``)."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def _render(value: Any, budget: int) -> str:
    """A Python-like spelling of ``value``, stopping soon after ``budget`` characters (so a deep
    or huge value costs only what is shown)."""
    if isinstance(value, str):
        spelled = repr(value[:budget + 1])
        return spelled[:-1] + "…" if len(value) > budget + 1 else spelled
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() > 200:  # its decimal spelling alone would cost time
            return f"<a whole number of about {int(value.bit_length() * math.log10(2)) + 1:,} digits>"
        return repr(value)
    if isinstance(value, (float, Decimal, Fraction)):
        return str(value)
    if isinstance(value, (dict, list, tuple)):
        items = value.items() if isinstance(value, dict) else value
        opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
        out, used = [opening], 1
        for i, item in enumerate(items):
            if used > budget:
                out.append("…")
                return "".join(out)
            text = (_render(item[0], budget - used) + ": " + _render(item[1], budget - used - 2)
                    if isinstance(value, dict) else _render(item, budget - used))
            text = (", " if i else "") + text
            out.append(text)
            used += len(text)
        return "".join(out) + closing
    try:
        return _cut(repr(value), budget)
    except Exception:  # a repr that fails says nothing useful
        return f"<{type(value).__name__}>"


def shown(value: Any, limit: int = SHOWN) -> str:
    """``value`` as a message quotes it: one line, at most ``limit`` characters then "…",
    control characters escaped.

    >>> print(shown("a\\nb"), shown(6.25), shown("x" * 100)[-3:], len(shown(list(range(1000)))))
    'a\\nb' 6.25 xx… 81
    """
    return _cut(_escaped(_render(value, limit)), limit)


def one_line(text: str, limit: int = SHOWN) -> str:
    """``text`` (a name or a message that may carry input) as one terminal-safe line: control
    characters escaped, at most ``limit`` characters then "…"."""
    return _cut(_escaped(text[:limit + 1]), limit)


class Combination(str):
    """The words of a combination of fields the rules refuse, as one sentence: the rule, its
    citation, what the scenario has, and the ways out ("a retreat helps only against melee
    attacks (B377): ... — choose ..."). It is the ``allowed`` of a :class:`Problem` (so it
    travels wherever that text goes); ``values`` are the ``(dotted path, value)`` pairs of the
    fields that make the combination, every one of which a form may mark."""

    values: tuple[tuple[str, Any], ...]

    def __new__(cls, text: str, values: Any = ()) -> "Combination":
        made = super().__new__(cls, text)
        made.values = tuple(values)
        return made

    def under(self, prefix: tuple[Any, ...]) -> "Combination":
        """The same words, with the paths of the fields below the dotted ``prefix``."""
        if not prefix:
            return self
        head = ".".join(str(p) for p in prefix)
        return Combination(str(self), ((f"{head}.{path}", value) for path, value in self.values))

    def fields(self) -> tuple[str, ...]:
        """The dotted paths of the fields in the combination."""
        return tuple(path for path, _ in self.values)

    def __reduce__(self) -> Any:
        return Combination, (str(self), self.values)


@dataclass(frozen=True)
class Problem:
    """One invalid field: where, what was given, what is allowed. When ``allowed`` is a
    :class:`Combination`, the field is one of several that the rules refuse together, and
    the message names them all with the rule."""

    field: str
    given: Any
    allowed: str

    def __str__(self) -> str:
        if isinstance(self.allowed, Combination) and self.allowed.values:
            named = " and ".join(f"'{one_line(path)}' = {shown(value)}" for path, value in self.allowed.values)
            return f"the combination {named}: {one_line(self.allowed, _ALLOWED_SHOWN)}"
        return (f"field '{one_line(self.field)}': got {shown(self.given)}; "
                f"allowed: {one_line(self.allowed, _ALLOWED_SHOWN)}")


class FieldConflict(ValueError):
    """Raised by a model's cross-field check (a pydantic ``model_validator``) to name the field
    at fault (dotted, relative to that model), the value it has and what is allowed with the
    other fields as they are; :func:`parse` reports it like any other field problem. A
    combination the rules refuse is said with :meth:`combination`."""

    def __init__(self, field: str, given: Any, allowed: str):
        self.field, self.given, self.allowed = field, given, allowed
        super().__init__(str(Problem(field, given, allowed)))

    @classmethod
    def combination(cls, values: dict[str, Any], *, rule: str, citation: str, found: str,
                    fix: str, field: str | None = None) -> "FieldConflict":
        """A refused combination of the fields ``values`` (dotted paths relative to the model,
        with their values), said as one sentence: "``rule`` (``citation``): ``found`` —
        ``fix``". ``field`` (default: the last of ``values``) is the one a form marks first.

        >>> print(FieldConflict.combination({"defense": "retreat", "kind": "ranged"},
        ...     rule="a retreat helps only against melee attacks", citation="B377",
        ...     found="the attack is ranged", fix="choose Dodge, or make the attack melee"))
        the combination 'defense' = 'retreat' and 'kind' = 'ranged': a retreat helps only against melee attacks (B377): the attack is ranged — choose Dodge, or make the attack melee
        """
        field = field if field is not None else list(values)[-1]
        return cls(field, values[field], Combination(f"{rule} ({citation}): {found} — {fix}", values.items()))


class ScenarioError(ValueError):
    """A scenario that breaks its declared ranges or choices. ``problems`` lists each field;
    ``more`` says what else was refused without being listed (``"and 999,995 more unknown
    fields"``). The message is one line whatever the input."""

    def __init__(self, what: str, problems: list[Problem], more: str = ""):
        self.what = what
        self.problems = tuple(problems)
        self.more = more
        listed = [str(p) for p in self.problems[:_LISTED]]
        if len(self.problems) > _LISTED:
            listed.append(f"and {len(self.problems) - _LISTED} more problems")
        if more:
            listed.append(more)
        super().__init__(f"invalid {one_line(what)}: " + "; ".join(listed))


_MISSING = object()

#: What a :class:`Problem` says was given when a cross-field check refused the whole combination.
COMBINATION = "(this combination of fields)"


def _given(data: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        try:
            data = data[step]
        except (KeyError, IndexError, TypeError):
            return _MISSING
    return data


@dataclass
class _Unknown:
    """What is refused before validation, where pydantic would spend time on every item:
    undeclared keys (the first few named, all counted) and lists longer than allowed."""

    problems: list[Problem] = dc_field(default_factory=list)
    count: int = 0
    too_long: list[Problem] = dc_field(default_factory=list)


def _known_only(model: type[Part], data: dict[Any, Any], path: tuple[Any, ...],
                unknown: _Unknown) -> dict[Any, Any]:
    """``data`` without the keys ``model`` does not declare, at every level of its parts, and
    with any list of parts longer than allowed cut to its first items; those keys and lists go
    to ``unknown``. Linear in the size of the data, however many keys or items there are."""
    declared = model.model_fields
    present = [name for name in declared if name in data]
    kept = {name: data[name] for name in present}
    if len(present) < len(data):  # a few lookups find the first unknown keys, however many
        unknown.count += len(data) - len(present)
        first = True
        for key, value in data.items():
            if len(unknown.problems) >= _NAMED_UNKNOWN:
                break
            if key in declared:
                continue
            known = ", ".join(s.name for s in fields_of(model))
            unknown.problems.append(Problem(".".join(str(p) for p in (*path, key)), value,
                                            f"no such field; known fields: {known}" if first
                                            else "no such field"))
            first = False
    for spec in fields_of(model):
        value = kept.get(spec.name)
        if spec.kind == "part" and isinstance(value, dict):
            kept = {**kept, spec.name: _known_only(spec.part_cls, value, (*path, spec.name), unknown)}
        elif spec.kind == "parts" and isinstance(value, (list, tuple)):
            if len(value) > spec.max_items:
                given = value if len(value) <= 20 else _Items(len(value))
                unknown.too_long.append(Problem(".".join(str(p) for p in (*path, spec.name)), given,
                                                spec.allowed()))
                value = value[:spec.max_items]
            items = [_known_only(spec.part_cls, item, (*path, spec.name, i), unknown)
                     if isinstance(item, dict) else item for i, item in enumerate(value)]
            kept = {**kept, spec.name: items}
    return kept


@dataclass(frozen=True)
class _Items:
    """How a message shows a list too long to quote: its length."""

    count: int

    def __repr__(self) -> str:
        return f"a list of {self.count:,} entries"


def scenario_name(model: type[Part]) -> str:
    """How a message names what ``model``'s data is: "gurps-4e scenario", or the block's class."""
    system = getattr(model, "model_fields", {}).get("system")
    return f"{system.default} scenario" if system is not None and system.default else model.__name__


def parse(model: type[Part], data: Any) -> Any:
    """Validate ``data`` as ``model``; raise :class:`ScenarioError` naming every bad field.

    Keys the model does not declare are refused in time linear in their number, the message
    naming the first five; any number field given a string or a flag given a number is refused
    (see the module's docstring)."""
    if isinstance(data, model):
        return data
    what = scenario_name(model)
    if not isinstance(data, dict):
        raise ScenarioError(what, [Problem("(top level)", data, "a JSON object")])
    unknown = _Unknown()
    known = _known_only(model, data, (), unknown)
    more = ""
    if unknown.count > len(unknown.problems):
        more = f"and {unknown.count - len(unknown.problems):,} more unknown fields"
    early = unknown.too_long + unknown.problems
    try:
        result = model.model_validate(known)
    except ValidationError as err:
        raise ScenarioError(what, early + _problems(model, known, err), more) from None
    if early:
        raise ScenarioError(what, early, more)
    return result


def when(model: type[Part], path: str, values: Any) -> dict[str, Any]:
    """A JSON Schema that holds when the field of ``model`` at dotted ``path`` (no list indices)
    has one of ``values`` (a list, or one value), a missing field counting as its declared
    default: for the ``if``, ``not`` and ``anyOf`` of a model's :meth:`Part.schema_rules`.

    >>> from rules_core.systems.gurps_4e.scenario import GurpsScenario
    >>> when(GurpsScenario, "dodger.defense", "retreat")
    {'required': ['dodger'], 'properties': {'dodger': {'required': ['defense'], 'properties': {'defense': {'enum': ['retreat']}}}}}
    >>> when(GurpsScenario, "dodger.defense", ["plain", "retreat"])  # "plain" is the default
    {'properties': {'dodger': {'properties': {'defense': {'enum': ['plain', 'retreat']}}}}}
    """
    values = list(values) if isinstance(values, (list, tuple, set, frozenset)) else [values]
    missing_fits = _default_at(model, path) in values
    schema: dict[str, Any] = {"enum": values}
    for step in reversed(path.split(".")):
        schema = {**({} if missing_fits else {"required": [step]}), "properties": {step: schema}}
    return schema


def _default_at(model: type[Part], path: str) -> Any:
    """The declared default of the field at dotted ``path`` in ``model``, through its blocks (a
    block missing from the data is its own defaults)."""
    *blocks, name = path.split(".")
    for block in blocks:
        model = model.model_fields[block].annotation
    return model.model_fields[name].get_default(call_default_factory=True)


def _problems(model: type[Part], data: dict[str, Any], err: ValidationError) -> list[Problem]:
    """Each of pydantic's errors as a :class:`Problem` naming the field, the value given (from
    ``data``) and what the field's declaration allows."""
    problems = []
    for e in err.errors(include_url=False, include_context=True, include_input=False):
        path = tuple(e["loc"])
        conflict = (e.get("ctx") or {}).get("error")
        if isinstance(conflict, FieldConflict):
            name = ".".join([*(str(p) for p in path), conflict.field])
            allowed = conflict.allowed
            if isinstance(allowed, Combination):
                allowed = allowed.under(path)
            problems.append(Problem(name, conflict.given, allowed))
            continue
        name = ".".join(str(p) for p in path) or "(top level)"
        given = _given(data, path)
        if e["type"] == "value_error" and isinstance(given, dict):
            # a cross-field check that did not name its field: say what it said, not the data
            problems.append(Problem(name, COMBINATION, str(conflict)))
            continue
        if e["type"] == "extra_forbidden":  # pragma: no cover - _known_only removed them
            problems.append(Problem(name, given, "no such field"))
            continue
        if e["type"] == "missing":
            problems.append(Problem(name, "(missing)", "a value is required"))
            continue
        if e["type"] == "too_short" and isinstance(given, (list, tuple)) and \
                len(given) >= e["ctx"]["min_length"]:
            continue  # pydantic's echo of an invalid item, reported on its own above
        spec = spec_at(model, path)
        allowed = spec.allowed() if spec is not None else e["msg"]
        if spec is not None and spec.kind == "parts" and e["type"] not in ("too_short", "too_long"):
            allowed = e["msg"]
        if spec is not None and spec.kind == "text" and e["type"] == "value_error":
            allowed = str(e["ctx"]["error"])  # the notation's own message
        problems.append(Problem(name, None if given is _MISSING else given, allowed))
    return problems
