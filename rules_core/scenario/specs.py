"""Reading declarations back: :func:`fields_of` gives the fields of a scenario or part class
as :class:`FieldSpec` objects (from which the workbook derives its widgets and the errors say
what is allowed), and :func:`spec_at` the one at a path."""

from __future__ import annotations

import typing
from dataclasses import dataclass, field as dc_field
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

import annotated_types

from .fields import decimal_text, exact_decimal, to_decimal

if TYPE_CHECKING:
    from .base import Part

__all__ = ["FieldSpec", "fields_of", "spec_at", "is_scenario"]


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
        return int(point) if self.kind == "int" else to_decimal(point)

    def allowed(self) -> str:
        """Plain-words description of the allowed values."""
        if self.kind == "int":
            step = f" in steps of {self.step}" if self.step not in (None, 1) else ""
            return f"a whole number from {self.minimum} to {self.maximum}{step}"
        if self.kind == "float":
            low, high, step = (decimal_text(Fraction(v)) for v in (self.minimum, self.maximum, self.step))
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
                lo, hi, step = Fraction(lo), Fraction(hi), Fraction(exact_decimal(step, "step"))
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


def is_scenario(model: type) -> bool:
    """Whether ``model`` is a whole scenario (it names its system), not a block of one."""
    return "system" in getattr(model, "model_fields", {})
