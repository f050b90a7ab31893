"""Scenarios: plain, validated, immutable data with every field declared once.

A system's scenario is a pydantic model. Each field is declared with one of the helpers below
(:func:`number`, :func:`flag`, :func:`choice`, :func:`ruling`, :func:`part`, :func:`parts`),
which record its range or choices, step, label, help text and citation. :func:`fields_of`
reads those declarations back as :class:`FieldSpec` objects, from which the workbook derives
its widgets and from which validation errors say what is allowed.

Input is strict, as JSON means it: a number field takes a number (a whole number where the
field is whole), a flag takes ``true`` or ``false``; ``"2"``, ``"yes"``, ``1`` for a flag and
``true`` for a number are refused. A field with a fractional step (Basic Speed in quarters)
holds an exact :class:`~decimal.Decimal` on its step; a number within :data:`SNAP` of a step
(floating point from a slider, a link or JSON) is taken as that step. Error messages are one
line, quote at most :data:`SHOWN` characters of any value and escape control characters.
"""

from __future__ import annotations

import inspect
import json
import math
import numbers
import typing
from dataclasses import dataclass, field as dc_field
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from functools import cache
from collections.abc import Iterator
from typing import Any, Literal

import annotated_types
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer, ValidationError, \
    WithJsonSchema
from pydantic_core import PydanticCustomError

__all__ = [
    "Part",
    "Scenario",
    "FieldSpec",
    "ScenarioError",
    "FieldConflict",
    "Combination",
    "FrozenFieldError",
    "FieldHelp",
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
    "when",
    "shown",
    "one_line",
    "SNAP",
    "SHOWN",
]


class Part(BaseModel):
    """A block of declared fields (a combatant, an attack); immutable, unknown keys refused."""

    model_config = ConfigDict(frozen=True, extra="forbid", validate_default=True)

    def to_data(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return self.model_dump(mode="json")

    # Working in code: the methods below are defined in the "editing in code" section at the
    # end of this module; the class docstring of every subclass lists its fields.

    def replace(self, **changes: Any) -> "Part":
        """A validated copy with some fields changed, every other value kept.

        Keys are field names or dotted paths, as in a share link: ``dodger=...``,
        ``**{"dodger.ph": 13, "attackers.0.burst": 4}``. A block given as a dict changes only
        the fields it names (``dodger={"ph": 13}``); given as a ``Part`` it replaces the block
        whole. A list given as a list becomes exactly that long, and each dict in it changes
        only the fields it names of the item at that index (a new index starts from the
        defaults): ``attackers=[{"burst": 4}]`` keeps the first attacker's other values and
        drops the rest. A dotted index one past the end adds an item (``"attackers.3.burst"``).
        Raises :class:`ScenarioError` naming the path, the value and what is allowed.

        >>> from rules_core import find_preset
        >>> seed = find_preset("infinity-n4/zhanshi-vs-fusilier").scenario
        >>> changed = seed.replace(attackers=[{"burst": 4}])
        >>> changed.attackers[0].burst, changed.attackers[0].mod  # the preset's MOD +3 is kept
        (4, 3)
        """
        return _edited(self, changes)

    def set(self, path: str, value: Any) -> "Part":
        """A validated copy with the field at dotted ``path`` set to ``value``
        (``scenario.set("dodger.ph", 13)``); see :meth:`replace`."""
        return _edited(self, {path: value})

    def get(self, path: str) -> Any:
        """The value at dotted ``path`` (``scenario.get("attackers.0.burst")``)."""
        return _value_at(self, path)

    def add_item(self, path: str, item: Any = None, *, at: int | None = None) -> "Part":
        """A copy with one more item in the list at dotted ``path``: the defaults changed by the
        dict ``item`` (or the ``Part`` itself), inserted at index ``at`` (default: the end)."""
        return _added(self, path, item, at)

    def remove_item(self, path: str) -> "Part":
        """A copy without the list item at dotted ``path`` (``"attackers.1"``)."""
        return _removed(self, path)

    def paths(self) -> tuple[str, ...]:
        """The dotted path of every single-valued field here (``"attackers.0.burst"``, ...)."""
        return tuple(_leaf_paths(self, ()))

    def describe(self, path: str) -> "FieldHelp":
        """What the field at dotted ``path`` is: its label, value, what is allowed, step, help
        and citation (a :class:`FieldHelp`; ``print`` it for readable text).

        >>> from rules_core import find_preset
        >>> seed = find_preset("infinity-n4/zhanshi-vs-fusilier").scenario
        >>> seed.describe("attackers.0.burst").allowed
        'a whole number from 1 to 5'
        """
        return _described(self, path)

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenFieldError(self, name, value)

    def __delattr__(self, name: str) -> None:
        raise FrozenFieldError(self, name, None, deleting=True)

    def __repr__(self) -> str:
        return _pretty(self, 0)

    def __dir__(self) -> list[str]:
        return _completions(self)

    def _repr_html_(self) -> str:
        return _part_html(self)

    @classmethod
    def schema_rules(cls) -> list[dict[str, Any]]:
        """What the model's cross-field checks refuse, said in JSON Schema (``if``/``then``,
        ``not``, ``anyOf``; see :func:`when`): added to the class's schema under ``allOf``, so
        that every scenario the schema allows is one the checks accept. None by default."""
        return []

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: Any, handler: Any) -> Any:
        schema = handler(core_schema)
        rules = cls.schema_rules()
        if rules or issubclass(cls, Scenario):
            target = handler.resolve_ref_schema(schema)
            if rules:
                target["allOf"] = [*target.get("allOf", []), *rules]
            if issubclass(cls, Scenario):  # load_scenario finds the system by it
                target["required"] = sorted({*target.get("required", []), "system"})
        return schema

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        if cls.__module__ != __name__:  # not the Scenario base below
            _document_fields(cls)


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


#: How far a number may be from a step of its field and still be taken as on it: the floating
#: point of a slider, a link or JSON (6.250000000000001 is 6.25), never a real difference.
SNAP = Fraction(1, 10**9)


def _exact(value: Any, what: str) -> Decimal:
    """A declared bound, default or step as the shortest exact decimal (a float read by its
    shortest spelling: 0.1 is one tenth)."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, Decimal, str)):
        raise TypeError(f"{what} must be a number, not {value!r}")
    exact = Fraction(repr(value) if isinstance(value, float) else value)
    text = _decimal_text(exact)
    if text is None:
        raise TypeError(f"{what} {value} has no finite decimal form")
    return Decimal(text)


def _decimal_text(value: Fraction) -> str | None:
    """The short decimal spelling of ``value`` (``Fraction(25, 4)`` → ``"6.25"``), or None
    when it has none (thirds)."""
    den, twos, fives = value.denominator, 0, 0
    while den % 2 == 0:
        den, twos = den // 2, twos + 1
    while den % 5 == 0:
        den, fives = den // 5, fives + 1
    if den != 1:
        return None
    places = max(twos, fives)
    if places == 0:
        return str(value.numerator)
    scaled = value.numerator * 10 ** places // value.denominator
    sign, digits = ("-" if scaled < 0 else ""), str(abs(scaled)).rjust(places + 1, "0")
    return f"{sign}{digits[:-places]}.{digits[-places:]}".rstrip("0").rstrip(".")


def _to_decimal(value: Fraction) -> Decimal:
    """``value`` (a point of a decimal step) as the shortest exact Decimal (6, 6.25, 20)."""
    text = _decimal_text(value)
    assert text is not None  # the steps are decimal fractions (checked in ``number``)
    return Decimal(text)


def _refuse() -> PydanticCustomError:
    # parse() reports a number field's problem with the field's own ``allowed()`` text
    return PydanticCustomError("number_refused", "not allowed here")


def _is_number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, (numbers.Real, Decimal))


def _finite(value: Any) -> bool:
    return value.is_finite() if isinstance(value, Decimal) else math.isfinite(value)


def _whole_checker(lo: Decimal, hi: Decimal, step: int = 1) -> Any:
    def check(value: Any) -> int:
        """A JSON number that is whole (``3`` or ``3.0``) and on the field's step counted from
        its lower bound (a d100 modifier in fives: −25, not −23); bounds are checked before any
        conversion, so a huge number costs nothing."""
        if not _is_number(value):
            raise _refuse()
        if isinstance(value, numbers.Integral):
            whole = int(value)  # the range check follows (cheap for any size)
        elif not _finite(value) or not lo <= value <= hi or value != int(value):
            raise _refuse()
        else:
            whole = int(value)
        if step != 1 and lo <= whole <= hi and (whole - int(lo)) % step:
            raise _refuse()
        return whole
    return check


def _step_checker(lo: Decimal, hi: Decimal, step: Decimal) -> Any:
    low, exact_step = Fraction(lo), Fraction(step)
    slack = Decimal(SNAP.numerator) / Decimal(SNAP.denominator)

    def check(value: Any) -> Decimal:
        """A JSON number on the step, as an exact Decimal; within ``SNAP`` of a step is that
        step (bounds first, so that a huge number costs nothing)."""
        if not _is_number(value) or not _finite(value):
            raise _refuse()
        if not lo - slack <= value <= hi + slack:
            raise _refuse()
        exact = Fraction(value)
        nearest = low + round((exact - low) / exact_step) * exact_step
        if abs(exact - nearest) > SNAP:
            raise _refuse()
        return _to_decimal(nearest)
    return check


def _json_number(value: Decimal) -> int | float:
    """The JSON form of an exact decimal: an int when whole, else the float whose shortest
    spelling is the decimal's (6.25 → ``6.25``)."""
    return int(value) if value == value.to_integral_value() else float(value)


def number(default: Any, *, ge: Any, le: Any, label: str, help: str, citation: str = "",
           step: Any = 1, unit: str | None = None, group: str | None = None) -> Any:
    """A bounded number on a step.

    A whole ``step`` (the default 1) makes a whole-number field: annotate it ``int``; a whole
    step above 1 (d100 modifiers in fives) refuses the numbers between its points. A
    fractional decimal ``step`` (``Decimal("0.25")``, ``Fraction(1, 4)`` or ``"0.25"``) makes an
    exact field: annotate it ``Decimal``; it holds the exact point of its step (``Decimal("6.25")``),
    a number within :data:`SNAP` of a step is snapped to it, one truly off the step (6.3) is
    refused, and JSON and links carry the short decimal form (``6.25``). The bounds must lie
    on the step. Only numbers are accepted: never a string or ``true``/``false``.
    """
    step_d, lo, hi = _exact(step, "step"), _exact(ge, "ge"), _exact(le, "le")
    if step_d <= 0:
        raise TypeError(f"step must be positive, not {step}")
    if step_d == step_d.to_integral_value():
        bounds = (int(lo), int(hi), int(step_d))
        if (lo, hi) != (bounds[0], bounds[1]):
            raise TypeError(f"a whole-number field needs whole bounds, not {ge} and {le}")
        if (bounds[1] - bounds[0]) % bounds[2] or (default - bounds[0]) % bounds[2]:
            raise TypeError(f"the bounds {ge} and {le} and the default {default} must lie on the step {step}")
        # JSON Schema's multipleOf counts from 0; a step counted from a bound off its multiples
        # is said by listing the values
        on_step = ({} if bounds[2] == 1 else {"multipleOf": bounds[2]} if bounds[0] % bounds[2] == 0
                   else {"enum": list(range(bounds[0], bounds[1] + 1, bounds[2]))})
        field = Field(default, ge=bounds[0], le=bounds[1], description=help,
                      json_schema_extra=_extra("number", label, help, citation, step=bounds[2],
                                               unit=unit, group=group, **on_step))
        field.metadata.append(BeforeValidator(_whole_checker(lo, hi, bounds[2])))
        return field
    if (hi - lo) % step_d or lo % step_d:
        raise TypeError(f"the bounds {ge} and {le} must lie on the step {step}")
    start = _exact(default, "default")
    if start % step_d or not lo <= start <= hi:
        raise TypeError(f"the default {default} must lie on the step {step} within the bounds")
    field = Field(start, ge=lo, le=hi, description=help,
                  json_schema_extra=_extra("number", label, help, citation, default=_json_number(start),
                                           step=_json_number(step_d), unit=unit, group=group))
    schema = {"type": "number", "minimum": _json_number(lo), "maximum": _json_number(hi),
              "multipleOf": _json_number(step_d)}
    field.metadata += [BeforeValidator(_step_checker(lo, hi, step_d)),
                       PlainSerializer(_json_number, when_used="json"), WithJsonSchema(schema)]
    return field


def flag(default: bool, *, label: str, help: str, citation: str = "", group: str | None = None) -> Any:
    """A yes/no circumstance: ``true`` or ``false`` only (never ``1``, ``"yes"`` or ``"on"``)."""
    return Field(default, strict=True, description=help,
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
         citation: str = "", group: str | None = None, pattern: str | None = None) -> Any:
    """A short string in a notation (e.g. dice such as ``2d+1``); ``allowed`` says in plain
    words what is accepted. A ``field_validator`` on the model checks the notation; the
    message of the ``ValueError`` it raises is what the error reports. ``pattern`` (a JSON
    Schema regular expression) is what the schema says of it: every text it matches must be
    accepted (it may be stricter than the validator, e.g. the canonical spelling only)."""
    return Field(default, max_length=max_length, description=help,
                 json_schema_extra=_extra("text", label, help, citation, allowed=allowed,
                                          max_length=max_length, group=group, pattern=pattern))


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
    #: "int" (whole numbers) | "float" (an exact Decimal on a fractional step; its minimum,
    #: maximum and step are Fractions) | "flag" | "choice" | "ruling" | "text" | "part" | "parts"
    kind: str
    label: str
    help: str
    citation: str
    default: Any
    minimum: int | Fraction | None = None
    maximum: int | Fraction | None = None
    step: int | Fraction | None = None
    unit: str | None = None
    choices: tuple[tuple[str, str], ...] = ()  # (value, label)
    part_cls: type[Part] | None = None
    min_items: int | None = None
    max_items: int | None = None
    group: str | None = None
    extra: dict[str, Any] = dc_field(default_factory=dict, compare=False, repr=False)

    def nearest(self, value: Any) -> Any:
        """The allowed value of a number field nearest to the number ``value`` (a control
        snapping to its step: 6.3 → ``Decimal("6.25")`` in quarters; clamped to the bounds).

        >>> FieldSpec("x", "float", "X", "", "", 6, Fraction(1), Fraction(20), Fraction(1, 4)).nearest(6.3)
        Decimal('6.25')
        """
        low, high, step = Fraction(self.minimum), Fraction(self.maximum), Fraction(self.step or 1)
        exact = min(max(Fraction(value), low), high)
        point = min(low + round((exact - low) / step) * step, high)
        return int(point) if self.kind == "int" else _to_decimal(point)

    def allowed(self) -> str:
        """Plain-words description of the allowed values."""
        if self.kind == "int":
            step = f" in steps of {self.step}" if self.step not in (None, 1) else ""
            return f"a whole number from {self.minimum} to {self.maximum}{step}"
        if self.kind == "float":
            low, high, step = (_decimal_text(Fraction(v)) for v in (self.minimum, self.maximum, self.step))
            return f"a number from {low} to {high} in steps of {step}"
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


@cache
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
            step = extra["step"]
            whole = isinstance(step, int)
            if annotation is not (int if whole else Decimal):
                raise TypeError(f"{model.__name__}.{name}: a number field with step {step} is annotated "
                                f"{'int' if whole else 'Decimal'}")
            if not whole:  # exact Fractions, which mix with ints and floats in arithmetic
                lo, hi, step = Fraction(lo), Fraction(hi), Fraction(_exact(step, "step"))
            specs.append(FieldSpec(kind="int" if whole else "float", minimum=lo, maximum=hi,
                                   step=step, unit=extra.get("unit"), **common))
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

#: Characters of any value a message quotes (then "…").
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


class FrozenFieldError(AttributeError):
    """An assignment to a field of a scenario or of one of its parts (``seed.dodger.ph = 12``):
    scenarios are immutable, and the message shows the edit that makes a changed, validated
    copy instead (``seed = seed.set("dodger.ph", 12)``)."""

    def __init__(self, part: "Part", name: str, value: Any, deleting: bool = False):
        self.name, self.value = name, value
        cls = type(part)
        fields = [s.name for s in fields_of(cls)]
        prefixes = [""] if isinstance(part, Scenario) else _prefixes_of(cls)
        holder = "scenario" if prefixes else "part"
        prefix = prefixes[0] if prefixes else ""
        if name in fields or name == "system":
            what = f"{cls.__name__} is immutable: '{one_line(name)}' cannot be {'deleted' if deleting else 'assigned'}"
            path, given = prefix + name, ("..." if deleting else shown(value, 40))
        else:
            what = (f"{cls.__name__} has no field '{one_line(name)}' (its fields: {', '.join(fields)}), "
                    "and it is immutable")
            path, given = prefix + (fields[0] if fields else name), "..."
        keyword = f"{path}={given}" if "." not in path else f'**{{"{path}": {given}}}'
        index = " (0: the item's index)" if ".0." in path else ""
        super().__init__(f'{what}. Make a changed, validated copy instead: {holder} = {holder}.set("{path}", '
                         f"{given}){index}, or {holder}.replace({keyword})")


def _prefixes_of(cls: type) -> list[str]:
    """The dotted prefixes (``"dodger."``, ``"attackers.0."``) under which a block of class
    ``cls`` sits in some scenario class; a list item's index is written 0."""
    found: list[str] = []
    todo = list(Scenario.__subclasses__())
    seen: set[type] = set()
    while todo:
        model = todo.pop()
        if model in seen:
            continue
        seen.add(model)
        todo += model.__subclasses__()
        try:
            stack = [(model, "")]
            while stack:
                current, done = stack.pop()
                for spec in fields_of(current):
                    if spec.part_cls is None:
                        continue
                    here = done + spec.name + (".0." if spec.kind == "parts" else ".")
                    if spec.part_cls is cls and here not in found:
                        found.append(here)
                    stack.append((spec.part_cls, here))
        except TypeError:  # a class declared without the helpers
            continue
    return found


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


def parse(model: type[Part], data: Any) -> Any:
    """Validate ``data`` as ``model``; raise :class:`ScenarioError` naming every bad field.

    Keys the model does not declare are refused in time linear in their number, the message
    naming the first five; any number field given a string or a flag given a number is refused
    (see the module's docstring)."""
    if isinstance(data, model):
        return data
    what = getattr(model, "model_fields", {}).get("system")
    what = f"{what.default} scenario" if what is not None and what.default else model.__name__
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


def _owner(model: type[Part], path: tuple[Any, ...]) -> type[Part] | None:
    if not path:
        return model
    spec = spec_at(model, path)
    return spec.part_cls if spec is not None else None



# -- editing in code --------------------------------------------------------------------------
# What ``Part.replace`` / ``set`` / ``get`` / ``add_item`` / ``remove_item`` / ``paths``, the
# ``repr``, the completion list, the notebook display and the field list of every scenario
# class's docstring are built from. Paths are dotted as in a share link: ``"attackers.0.burst"``.

#: The methods completion offers beside the fields (pydantic's own are left out of ``dir``).
_METHODS = ("replace", "set", "get", "describe", "add_item", "remove_item", "paths", "to_data", "to_json")
_REPR_WIDTH = 100


def _what(model: type[Part]) -> str:
    system = model.model_fields.get("system")
    return f"{system.default} scenario" if system is not None and system.default else model.__name__


class _Refused(Exception):
    """An edit that names no field, or an index out of range (turned into a ScenarioError)."""

    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.problem = problem


def _specs(model: type[Part]) -> dict[str, FieldSpec]:
    return {s.name: s for s in fields_of(model)}


def _no_field(model: type[Part], done: tuple[str, ...], name: str, given: Any) -> _Refused:
    where = ".".join(done) or _what(model)
    return _Refused(Problem(".".join((*done, name)), given,
                            f"no such field; {where} has: {', '.join(_specs(model))}"))


def _index(raw: str, length: int, done: tuple[str, ...], given: Any,
           most: int | None = None) -> int:
    """The list index ``raw`` names. With ``most`` (the list's largest size), one past the end
    is allowed too while there is room: it adds an item."""
    room = most is not None and length < most
    if raw.isdigit() and int(raw) < length + room:
        return int(raw)
    allowed = (f"an index from 0 to {length - 1} ({length} item{'s' * (length != 1)})" if length
               else "no index (the list is empty)")
    if room:
        allowed += f", or {length} to add an item"
    elif most is not None:
        allowed += f"; at most {most} items"
    raise _Refused(Problem(".".join((*done, raw)), given, allowed))


def _put(model: type[Part], data: dict[str, Any], steps: list[str], value: Any,
         done: tuple[str, ...]) -> None:
    """Set dotted ``steps`` of ``data`` (a ``model``'s plain data, changed in place) to ``value``."""
    if not isinstance(data, dict):  # an earlier change put something else there
        raise _Refused(Problem(".".join(done) or "(top level)", data, f"an object with the fields "
                                                                      f"of {model.__name__}"))
    name, rest = steps[0], steps[1:]
    spec = _specs(model).get(name)
    here = (*done, name)
    if spec is None:
        if name == "system" and not rest and "system" in model.model_fields:
            data[name] = value  # parse refuses any other system
            return
        raise _no_field(model, done, name, value)
    if spec.kind == "part":
        if rest:
            _put(spec.part_cls, data[name], rest, value, here)
        else:
            data[name] = _merged(spec.part_cls, data[name], value, here)
    elif spec.kind == "parts":
        items = data[name] if isinstance(data[name], list) else []  # parse refuses a non-list
        if not rest:
            if isinstance(value, (list, tuple)):
                data[name] = [_merged(spec.part_cls, items[i] if i < len(items) else
                                      spec.part_cls().to_data(), v, (*here, str(i)))
                              for i, v in enumerate(value)]
            else:
                data[name] = _plain(value)  # parse says what a list allows
            return
        i = _index(rest[0], len(items), here, value, spec.max_items)
        if i == len(items):
            items.append(spec.part_cls().to_data())
        if rest[1:]:
            _put(spec.part_cls, items[i], rest[1:], value, (*here, rest[0]))
        else:
            items[i] = _merged(spec.part_cls, items[i], value, (*here, rest[0]))
    elif rest:
        raise _Refused(Problem(".".join((*here, *rest)), value,
                               f"'{'.'.join(here)}' is one value, with no fields inside it"))
    else:
        data[name] = _plain(value)


def _merged(model: type[Part], current: dict[str, Any], value: Any, done: tuple[str, ...]) -> Any:
    """A block's data after ``value``: a dict changes the fields it names, a Part replaces all."""
    if isinstance(value, dict):
        out = json.loads(json.dumps(current))  # a deep copy of plain JSON data
        for key, v in value.items():
            _put(model, out, str(key).split("."), v, done)
        return out
    return _plain(value)  # a Part's data, or something parse refuses with a clear message


def _edited(part: Part, changes: dict[str, Any]) -> Any:
    model = type(part)
    data = part.to_data()
    try:
        for key, value in changes.items():
            _put(model, data, key.split("."), value, ())
    except _Refused as err:
        raise ScenarioError(_what(model), [err.problem]) from None
    return parse(model, data)


def _value_at(part: Part, path: str) -> Any:
    value: Any = part
    done: tuple[str, ...] = ()
    try:
        for step in path.split("."):
            if isinstance(value, tuple):  # a list of blocks
                value = value[_index(step, len(value), done, path)]
            elif isinstance(value, Part) and (step in _specs(type(value)) or
                                              (step == "system" and isinstance(value, Scenario))):
                value = getattr(value, step)
            elif isinstance(value, Part):
                raise _no_field(type(value), done, step, path)
            else:
                raise _Refused(Problem(path, path, f"'{'.'.join(done)}' is one value, with no "
                                                   "fields inside it"))
            done = (*done, step)
    except _Refused as err:
        raise ScenarioError(_what(type(part)), [err.problem]) from None
    return value


def _list_spec(part: Part, path: str) -> FieldSpec:
    """The declaration of the list at ``path`` (refused unless it names a list of blocks)."""
    _value_at(part, path)  # a clear error for a path that names nothing
    spec = spec_at(type(part), tuple(int(s) if s.isdigit() else s for s in path.split(".")))
    if spec is None or spec.kind != "parts" or path.split(".")[-1].isdigit():
        raise ScenarioError(_what(type(part)), [Problem(path, path, "the path of a list of items, "
                                                                    "such as 'attackers'")])
    return spec


def _added(part: Part, path: str, item: Any, at: int | None) -> Any:
    spec = _list_spec(part, path)
    items = list(_value_at(part, path))
    if len(items) >= spec.max_items:
        raise ScenarioError(_what(type(part)), [Problem(path, item, f"at most {spec.max_items} items; "
                                                                    f"it has {len(items)}")])
    position = len(items) if at is None else at
    if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position <= len(items):
        raise ScenarioError(_what(type(part)), [Problem(f"{path} (at)", position,
                                                        f"a position from 0 to {len(items)}")])
    try:
        new = _merged(spec.part_cls, spec.part_cls().to_data(), {} if item is None else item,
                      (*path.split("."), str(position)))
    except _Refused as err:
        raise ScenarioError(_what(type(part)), [err.problem]) from None
    data = [x.to_data() for x in items]
    data.insert(position, new)
    return _edited(part, {path: data})


def _removed(part: Part, path: str) -> Any:
    owner, _, index = path.rpartition(".")
    if not owner or not index.isdigit():
        raise ScenarioError(_what(type(part)), [Problem(path, path, "the path of a list item, such "
                                                                    "as 'attackers.1'")])
    spec = _list_spec(part, owner)
    items = _value_at(part, owner)
    _value_at(part, path)  # an index out of range refused
    if len(items) <= spec.min_items:
        least = f"at least {spec.min_items} item{'s' * (spec.min_items != 1)} in {owner}"
        raise ScenarioError(_what(type(part)), [Problem(path, path, least)])
    kept = tuple(x for i, x in enumerate(items) if i != int(index))
    return _edited(part, {owner: kept})


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
        from .markup import escape

        return "<pre class='rc-field-help'>" + escape(str(self)) + "</pre>"


def _shown_any(value: Any) -> str:
    if isinstance(value, Part):
        return type(value).__name__ + "(...)"
    if isinstance(value, tuple) and all(isinstance(v, Part) for v in value):
        return f"{len(value)} item{'s' * (len(value) != 1)}"
    if isinstance(value, Decimal):
        return str(value)
    return repr(value)


def _described(part: Part, path: str) -> FieldHelp:
    value = _value_at(part, path)  # a clear ScenarioError for a path that names nothing
    spec = spec_at(type(part), tuple(int(s) if s.isdigit() else s for s in path.split(".")))
    if spec is None:  # "system"
        return FieldHelp(path, "System", value, value, repr(value), "The game system's id.", "")
    if path.split(".")[-1].isdigit():  # one item of a list
        item = spec.part_cls
        return FieldHelp(path, spec.extra.get("item_label") or spec.label, value, None,
                         f"an object with the fields of {item.__name__}", spec.help, spec.citation)
    return FieldHelp(path, spec.label, value, spec.default, spec.allowed(), spec.help, spec.citation,
                     step=spec.step, unit=spec.unit, choices=spec.choices)


def _leaf_paths(part: Part, done: tuple[str, ...]) -> Iterator[str]:
    for spec in fields_of(type(part)):
        value = getattr(part, spec.name)
        if spec.kind == "part":
            yield from _leaf_paths(value, (*done, spec.name))
        elif spec.kind == "parts":
            for i, item in enumerate(value):
                yield from _leaf_paths(item, (*done, spec.name, str(i)))
        else:
            yield ".".join((*done, spec.name))


def _pretty(value: Any, indent: int) -> str:
    """``Class(field=value, ...)`` on one line when it fits, else filled line by line."""
    if isinstance(value, Part):
        opening, closing = f"{type(value).__name__}(", ")"
        items = [f"{name}={_pretty(getattr(value, name), indent + 4)}"
                 for name in type(value).model_fields if name != "system"]
    elif isinstance(value, tuple) and value and all(isinstance(v, Part) for v in value):
        opening, closing = "(", ",)" if len(value) == 1 else ")"
        items = [_pretty(v, indent + 4) for v in value]
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


def _completions(part: Part) -> list[str]:
    names = [name for name in type(part).model_fields]
    methods = [m for m in _METHODS if hasattr(part, m)]
    return sorted(set(names)) + [m for m in methods if m not in names]


def _shown_value(spec: FieldSpec, value: Any) -> str:
    if spec.kind == "float":
        return _decimal_text(Fraction(value)) or str(value)
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


def _document_fields(cls: type[Part]) -> None:
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


def _part_html(part: Part) -> str:
    """The fields of ``part`` as a compact HTML table: path, value (bold when not the default),
    label, what is allowed, help text and source."""
    from .markup import escape, table

    rows = []
    for path in _leaf_paths(part, ()):
        spec = spec_at(type(part), tuple(int(s) if s.isdigit() else s for s in path.split(".")))
        assert spec is not None
        value = part.get(path)
        shown_value = escape(_shown_value(spec, value))
        if value != spec.default:
            shown_value = f"<b>{shown_value}</b>"
        rows.append([f"<code>{escape(path)}</code>", shown_value, escape(spec.label),
                     escape(spec.allowed()), escape(spec.help),
                     f"<small>{escape(spec.citation)}</small>"])
    title = f"{type(part).__name__}" + (f" ({part.system})" if isinstance(part, Scenario) else "")
    return (f"<div class='rc-scenario'><b>{escape(title)}</b> "
            f"<small>(bold: not the default)</small>"
            + table(["field", "value", "label", "allowed", "help", "source"], rows) + "</div>")
