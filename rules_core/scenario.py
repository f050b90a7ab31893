"""Scenarios: plain, validated, immutable data with every field declared once.

A system's scenario is a pydantic model. Each field is declared with one of the helpers below
(:func:`number`, :func:`flag`, :func:`choice`, :func:`ruling`, :func:`part`, :func:`parts`),
which record its range or choices, step, label, help text and citation. :func:`fields_of`
reads those declarations back as :class:`FieldSpec` objects, from which the workbook derives
its widgets and from which validation errors say what is allowed.
"""

from __future__ import annotations

import json
import typing
from dataclasses import dataclass, field as dc_field
from enum import Enum
from typing import Any, Literal

import annotated_types
from pydantic import BaseModel, ConfigDict, Field, ValidationError

__all__ = [
    "Part",
    "Scenario",
    "FieldSpec",
    "ScenarioError",
    "FieldConflict",
    "Problem",
    "number",
    "flag",
    "choice",
    "ruling",
    "text",
    "part",
    "parts",
    "fields_of",
    "parse",
]


class Part(BaseModel):
    """A block of declared fields (a combatant, an attack); immutable, unknown keys refused."""

    model_config = ConfigDict(frozen=True, extra="forbid", validate_default=True)

    def to_data(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return self.model_dump(mode="json")

    def replace(self, **changes: Any) -> "Part":
        """A validated copy with some fields changed."""
        return parse(type(self), {**self.to_data(), **_plain(changes)})


class Scenario(Part):
    """Base of every system's scenario. Subclasses declare ``system: Literal["<id>"]``."""

    system: str

    def to_json(self) -> str:
        """Compact JSON text that :func:`rules_core.load_scenario` reads back."""
        return json.dumps(self.to_data(), ensure_ascii=False, separators=(",", ":"))


def _plain(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Enum):
        return value.value
    return value


# -- declaring fields -------------------------------------------------------------------------

def _extra(kind: str, label: str, help: str, citation: str, **more: Any) -> dict[str, Any]:
    data = {"kind": kind, "label": label, "citation": citation, **more}
    return {k: v for k, v in data.items() if v is not None}


def number(default: int | float, *, ge: int | float, le: int | float, label: str, help: str,
           citation: str = "", step: int | float = 1, unit: str | None = None,
           group: str | None = None) -> Any:
    """A bounded integer or float (the annotation decides which)."""
    return Field(default, ge=ge, le=le, description=help,
                 json_schema_extra=_extra("number", label, help, citation, step=step, unit=unit,
                                          group=group))


def flag(default: bool, *, label: str, help: str, citation: str = "", group: str | None = None) -> Any:
    """A yes/no circumstance."""
    return Field(default, description=help,
                 json_schema_extra=_extra("flag", label, help, citation, group=group))


def choice(default: str, *, label: str, help: str, citation: str = "",
           labels: dict[str, str] | None = None, group: str | None = None) -> Any:
    """One of the values of the field's ``Literal[...]`` annotation; ``labels`` names them."""
    return Field(default, description=help,
                 json_schema_extra=_extra("choice", label, help, citation, labels=labels, group=group))


def ruling(default: str, *, label: str, help: str, citation: str,
           options: dict[str, str]) -> Any:
    """A named reading of an ambiguous rule: ``options`` maps each value to what it means
    (with its source). Shown in the rulings panel and recorded in every trace."""
    return Field(default, description=help,
                 json_schema_extra=_extra("ruling", label, help, citation, labels=options,
                                          group="Rulings"))


def text(default: str, *, max_length: int, allowed: str, label: str, help: str,
         citation: str = "", group: str | None = None) -> Any:
    """A short string in a notation (e.g. dice such as ``2d+1``); ``allowed`` says in plain
    words what is accepted. A ``field_validator`` on the model checks the notation; the
    message of the ``ValueError`` it raises is what the error reports."""
    return Field(default, max_length=max_length, description=help,
                 json_schema_extra=_extra("text", label, help, citation, allowed=allowed,
                                          max_length=max_length, group=group))


def part(default_factory: Any, *, label: str, help: str, citation: str = "",
         group: str | None = None) -> Any:
    """A nested block of fields (a :class:`Part` subclass)."""
    return Field(default_factory=default_factory, description=help,
                 json_schema_extra=_extra("part", label, help, citation, group=group))


def parts(default_factory: Any, *, min_items: int, max_items: int, label: str, help: str,
          citation: str = "", group: str | None = None, item_label: str | None = None) -> Any:
    """A tuple of nested blocks, between ``min_items`` and ``max_items`` long; ``item_label``
    names one of them ("Attacker" for "Attackers"; the list's label when not given)."""
    return Field(default_factory=default_factory, min_length=min_items, max_length=max_items,
                 description=help,
                 json_schema_extra=_extra("parts", label, help, citation, group=group,
                                          item_label=item_label))


# -- reading declarations back ----------------------------------------------------------------

@dataclass(frozen=True)
class FieldSpec:
    """One declared field: what the widgets and the error messages are built from."""

    name: str
    kind: str  # "int" | "float" | "flag" | "choice" | "ruling" | "text" | "part" | "parts"
    label: str
    help: str
    citation: str
    default: Any
    minimum: int | float | None = None
    maximum: int | float | None = None
    step: int | float | None = None
    unit: str | None = None
    choices: tuple[tuple[str, str], ...] = ()  # (value, label)
    part_cls: type[Part] | None = None
    min_items: int | None = None
    max_items: int | None = None
    group: str | None = None
    extra: dict[str, Any] = dc_field(default_factory=dict, compare=False, repr=False)

    def allowed(self) -> str:
        """Plain-words description of the allowed values."""
        if self.kind == "int":
            return f"a whole number from {self.minimum} to {self.maximum}"
        if self.kind == "float":
            return f"a number from {self.minimum} to {self.maximum}"
        if self.kind == "flag":
            return "true or false"
        if self.kind in ("choice", "ruling"):
            return "one of " + ", ".join(repr(v) for v, _ in self.choices)
        if self.kind == "text":
            return f"{self.extra['allowed']}, at most {self.extra['max_length']} characters"
        if self.kind == "part":
            return f"an object with the fields of {self.label}"
        if self.kind == "parts":
            return f"a list of {self.min_items} to {self.max_items} entries"
        return "see the schema"


def _literal_values(annotation: Any) -> tuple[str, ...]:
    if typing.get_origin(annotation) is Literal:
        return tuple(typing.get_args(annotation))
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return tuple(m.value for m in annotation)
    return ()


def _bound(info: Any, kind: type, attribute: str) -> Any:
    """The value of the first ``kind`` constraint (Ge, Le, MinLen, MaxLen) on a field, or None."""
    return next((getattr(m, attribute) for m in info.metadata if isinstance(m, kind)), None)


def fields_of(model: type[Part]) -> tuple[FieldSpec, ...]:
    """The declared fields of a scenario or part class, in declaration order."""
    specs = []
    for name, info in model.model_fields.items():
        if name == "system":
            continue
        extra = dict(info.json_schema_extra or {})
        declared = extra.get("kind")
        if declared is None:
            raise TypeError(f"{model.__name__}.{name} is not declared with a rules_core.scenario helper")
        annotation = info.annotation
        common = dict(name=name, label=extra["label"], help=info.description or "",
                      citation=extra.get("citation", ""), group=extra.get("group"), extra=extra,
                      default=info.get_default(call_default_factory=True))
        if declared == "number":
            lo, hi = _bound(info, annotated_types.Ge, "ge"), _bound(info, annotated_types.Le, "le")
            kind = "int" if annotation is int else "float"
            specs.append(FieldSpec(kind=kind, minimum=lo, maximum=hi, step=extra.get("step"),
                                   unit=extra.get("unit"), **common))
        elif declared == "flag":
            specs.append(FieldSpec(kind="flag", **common))
        elif declared in ("choice", "ruling"):
            values = _literal_values(annotation)
            names = extra.get("labels") or {}
            specs.append(FieldSpec(kind=declared, choices=tuple((v, names.get(v, str(v))) for v in values),
                                   **common))
        elif declared == "text":
            specs.append(FieldSpec(kind="text", **common))
        elif declared == "part":
            specs.append(FieldSpec(kind="part", part_cls=annotation, **common))
        elif declared == "parts":
            (item,) = [a for a in typing.get_args(annotation) if a is not Ellipsis]
            lo = _bound(info, annotated_types.MinLen, "min_length")
            hi = _bound(info, annotated_types.MaxLen, "max_length")
            specs.append(FieldSpec(kind="parts", part_cls=item, min_items=lo, max_items=hi, **common))
        else:  # pragma: no cover - guarded by the helpers above
            raise TypeError(f"unknown field kind {declared!r}")
    return tuple(specs)


def spec_at(model: type[Part], path: tuple[Any, ...]) -> FieldSpec | None:
    """The :class:`FieldSpec` at a pydantic error location such as ``("attackers", 0, "burst")``."""
    spec = None
    current: type[Part] | None = model
    for step in path:
        if isinstance(step, int):
            continue
        if current is None:
            return None
        found = {s.name: s for s in fields_of(current)}.get(step)
        if found is None:
            return None
        spec, current = found, found.part_cls
    return spec


# -- validation with clear errors -------------------------------------------------------------

@dataclass(frozen=True)
class Problem:
    """One invalid field: where, what was given, what is allowed."""

    field: str
    given: Any
    allowed: str

    def __str__(self) -> str:
        return f"field '{self.field}': got {self.given!r}; allowed: {self.allowed}"


class FieldConflict(ValueError):
    """Raised by a model's cross-field check (a pydantic ``model_validator``) to name the field
    at fault (dotted, relative to that model), the value it has and what is allowed with the
    other fields as they are; :func:`parse` reports it like any other field problem."""

    def __init__(self, field: str, given: Any, allowed: str):
        self.field, self.given, self.allowed = field, given, allowed
        super().__init__(f"field '{field}': got {given!r}; allowed: {allowed}")


class ScenarioError(ValueError):
    """A scenario that breaks its declared ranges or choices. ``problems`` lists each field."""

    def __init__(self, what: str, problems: list[Problem]):
        self.what = what
        self.problems = tuple(problems)
        super().__init__(f"invalid {what}: " + "; ".join(map(str, problems)))


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


def parse(model: type[Part], data: Any) -> Any:
    """Validate ``data`` as ``model``; raise :class:`ScenarioError` naming every bad field."""
    if isinstance(data, model):
        return data
    what = getattr(model, "model_fields", {}).get("system")
    what = f"{what.default} scenario" if what is not None and what.default else model.__name__
    if not isinstance(data, dict):
        raise ScenarioError(what, [Problem("(top level)", data, "a JSON object")])
    try:
        return model.model_validate(data)
    except ValidationError as err:
        problems = []
        for e in err.errors():
            path = tuple(e["loc"])
            conflict = (e.get("ctx") or {}).get("error")
            if isinstance(conflict, FieldConflict):
                name = ".".join([*(str(p) for p in path), conflict.field])
                problems.append(Problem(name, conflict.given, conflict.allowed))
                continue
            name = ".".join(str(p) for p in path) or "(top level)"
            given = _given(data, path)
            if e["type"] == "value_error" and isinstance(given, dict):
                # a cross-field check that did not name its field: say what it said, not the data
                problems.append(Problem(name, COMBINATION, str(conflict)))
                continue
            if e["type"] == "extra_forbidden":
                known = ", ".join(s.name for s in fields_of(_owner(model, path[:-1]) or model))
                problems.append(Problem(name, given, f"no such field; known fields: {known}"))
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
        raise ScenarioError(what, problems) from None


def _owner(model: type[Part], path: tuple[Any, ...]) -> type[Part] | None:
    if not path:
        return model
    spec = spec_at(model, path)
    return spec.part_cls if spec is not None else None

