"""Showing a scenario: ``describe`` (a :class:`FieldHelp`), ``repr`` (fields that read back),
the completion list of ``dir``, the notebook's HTML table, and the list of fields appended to
every scenario and part class's docstring (for ``help()``), all from the declarations."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from ..markup import escape, table
from .editing import leaf_paths, value_at
from .fields import decimal_text
from .specs import FieldSpec, fields_of, is_scenario, spec_at

if TYPE_CHECKING:
    from .base import Part

__all__ = ["FieldHelp", "described", "pretty", "completions", "document_fields", "part_html"]

#: The methods completion offers beside the fields (pydantic's own are left out of ``dir``).
_METHODS = ("replace", "set", "get", "describe", "add_item", "remove_item", "paths", "to_data", "to_json")
_REPR_WIDTH = 100


@dataclass(frozen=True)
class FieldHelp:
    """What one field of a scenario is (:meth:`Part.describe`): its dotted ``path``, ``label``,
    current ``value`` and ``default``, what is ``allowed`` in words, its ``step`` and ``unit``
    (number fields), its ``choices`` (value, label), the ``help`` text and the ``citation``.
    ``str()`` and ``repr()`` are the readable text."""

    path: str
    label: str
    value: Any
    default: Any
    allowed: str
    help: str
    citation: str
    step: int | Fraction | None = None
    unit: str | None = None
    choices: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        lines = [f"{self.path}: {self.label}",
                 f"  value: {_shown_any(self.value)}" + ("" if self.default is None or self.value == self.default else
                                                          f" (default {_shown_any(self.default)})"),
                 f"  allowed: {self.allowed}" + (f" ({self.unit})" if self.unit else "")]
        if self.choices and any(v != label for v, label in self.choices):
            lines.append("  choices: " + "; ".join(f"{v!r} = {label}" for v, label in self.choices))
        if self.help:
            lines.append(f"  help: {self.help}")
        if self.citation:
            lines.append(f"  source: {self.citation}")
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        return "<pre class='rc-field-help'>" + escape(str(self)) + "</pre>"


def _shown_any(value: Any) -> str:
    if isinstance(value, BaseModel):
        return type(value).__name__ + "(...)"
    if isinstance(value, tuple) and all(isinstance(v, BaseModel) for v in value):
        return f"{len(value)} item{'s' * (len(value) != 1)}"
    if isinstance(value, Decimal):
        return str(value)
    return repr(value)


def described(part: Part, path: str) -> FieldHelp:
    value = value_at(part, path)  # a clear ScenarioError for a path that names nothing
    spec = spec_at(type(part), tuple(int(s) if s.isdigit() else s for s in path.split(".")))
    if spec is None:  # "system"
        return FieldHelp(path, "System", value, value, repr(value), "The game system's id.", "")
    if path.split(".")[-1].isdigit():  # one item of a list
        item = spec.part_cls
        return FieldHelp(path, spec.extra.get("item_label") or spec.label, value, None,
                         f"an object with the fields of {item.__name__}", spec.help, spec.citation)
    return FieldHelp(path, spec.label, value, spec.default, spec.allowed(), spec.help, spec.citation,
                     step=spec.step, unit=spec.unit, choices=spec.choices)


def pretty(value: Any, indent: int) -> str:
    """``Class(field=value, ...)`` on one line when it fits, else filled line by line."""
    if isinstance(value, BaseModel):
        opening, closing = f"{type(value).__name__}(", ")"
        items = [f"{name}={pretty(getattr(value, name), indent + 4)}"
                 for name in type(value).model_fields if name != "system"]
    elif isinstance(value, tuple) and value and all(isinstance(v, BaseModel) for v in value):
        opening, closing = "(", ",)" if len(value) == 1 else ")"
        items = [pretty(v, indent + 4) for v in value]
    else:
        return repr(value)
    one = opening + ", ".join(items) + closing
    if "\n" not in one and indent + len(one) <= _REPR_WIDTH:
        return one
    pad = " " * (indent + 4)
    lines: list[str] = []
    line: list[str] = []
    for item in items:
        if line and ("\n" in item or len(pad) + len(", ".join([*line, item])) + 1 > _REPR_WIDTH):
            lines.append(pad + ", ".join(line) + ",")
            line = []
        if "\n" in item:
            lines.append(pad + item + ",")
        else:
            line.append(item)
    if line:
        lines.append(pad + ", ".join(line) + ",")
    return opening + "\n" + "\n".join(lines) + "\n" + " " * indent + closing.lstrip(",")


def completions(part: Part) -> list[str]:
    names = [name for name in type(part).model_fields]
    methods = [m for m in _METHODS if hasattr(part, m)]
    return sorted(set(names)) + [m for m in methods if m not in names]


def _shown_value(spec: FieldSpec, value: Any) -> str:
    if spec.kind == "float":
        return decimal_text(Fraction(value)) or str(value)
    return repr(value) if isinstance(value, (bool, str)) else str(value)


def _field_rows(model: type[Part], done: tuple[str, ...]) -> Iterator[tuple[str, FieldSpec]]:
    """``(dotted path, spec)`` of every single-valued field of ``model``, list items as ``<i>``."""
    for spec in fields_of(model):
        here = (*done, spec.name)
        if spec.kind == "part":
            yield from _field_rows(spec.part_cls, here)
        elif spec.kind == "parts":
            yield from _field_rows(spec.part_cls, (*here, "<i>"))
        else:
            yield ".".join(here), spec


def document_fields(cls: type[Part]) -> None:
    """Append the list of ``cls``'s fields to its docstring (for ``help()`` and ``cls?``)."""
    if not cls.__pydantic_complete__:
        return
    try:
        rows = list(_field_rows(cls, ()))
        lists = [s for s in fields_of(cls) if s.kind == "parts"]
    except TypeError:  # a field declared without the helpers: fields_of says so when asked
        return
    lines = ["", "", "Fields, by dotted path (``<i>`` is a list index), each with its help and source; "
             "``scenario.describe(path)`` says the same of one field:", ""]
    for path, spec in rows:
        default = "" if spec.kind in ("part", "parts") else f"; default {_shown_value(spec, spec.default)}"
        lines.append(f"- ``{path}``: {spec.label}. {spec.allowed()}{default}.")
        said = " ".join(x for x in (spec.help.strip(), f"({spec.citation})" if spec.citation else "") if x)
        if said:
            lines.append(f"  {said}")
    for spec in lists:
        lines.append(f"- ``{spec.name}``: {spec.min_items} to {spec.max_items} items.")
    written = (cls.__doc__ or cls.__name__).rstrip()
    extra = cls.model_config.get("json_schema_extra")
    if extra is None or (isinstance(extra, dict) and set(extra) == {"description"}):
        # the JSON Schema keeps the class's own words: its fields are described one by one there
        cls.model_config["json_schema_extra"] = {"description": inspect.cleandoc(written)}
    cls.__doc__ = written + "\n".join(lines)


def part_html(part: Part) -> str:
    """The fields of ``part`` as a compact HTML table: path, value (bold when not the default),
    label, what is allowed, help text and source."""
    rows = []
    for path in leaf_paths(part, ()):
        spec = spec_at(type(part), tuple(int(s) if s.isdigit() else s for s in path.split(".")))
        assert spec is not None
        value = part.get(path)
        shown_value = escape(_shown_value(spec, value))
        if value != spec.default:
            shown_value = f"<b>{shown_value}</b>"
        rows.append([f"<code>{escape(path)}</code>", shown_value, escape(spec.label),
                     escape(spec.allowed()), escape(spec.help),
                     f"<small>{escape(spec.citation)}</small>"])
    title = f"{type(part).__name__}" + (f" ({part.system})" if is_scenario(type(part)) else "")
    return (f"<div class='rc-scenario'><b>{escape(title)}</b> "
            f"<small>(bold: not the default)</small>"
            + table(["field", "value", "label", "allowed", "help", "source"], rows) + "</div>")
