"""Declaring fields: :func:`number`, :func:`flag`, :func:`choice`, :func:`ruling`, :func:`text`,
:func:`part` and :func:`parts` record each field's range or choices, step, label, help text and
citation once, in the scenario class; :mod:`.specs` reads them back.

Input is strict, as JSON means it: a number field takes a number (a whole number where the
field is whole), a flag takes ``true`` or ``false``; ``"2"``, ``"yes"``, ``1`` for a flag and
``true`` for a number are refused. A field with a fractional step (Basic Speed in quarters)
holds an exact :class:`~decimal.Decimal` on its step; a number within :data:`SNAP` of a step
(floating point from a slider, a link or JSON) is taken as that step.
"""

from __future__ import annotations

import math
import numbers
from decimal import Decimal
from fractions import Fraction
from typing import Any

from pydantic import BeforeValidator, Field, PlainSerializer, WithJsonSchema
from pydantic_core import PydanticCustomError

__all__ = ["number", "flag", "choice", "ruling", "text", "part", "parts", "SNAP", "exact_decimal",
           "decimal_text", "to_decimal"]


def _extra(kind: str, label: str, help: str, citation: str, **more: Any) -> dict[str, Any]:
    data = {"kind": kind, "label": label, "citation": citation, **more}
    return {k: v for k, v in data.items() if v is not None}


#: How far a number may be from a step of its field and still be taken as on it: the floating
#: point of a slider, a link or JSON (6.250000000000001 is 6.25), never a real difference.
SNAP = Fraction(1, 10**9)


def exact_decimal(value: Any, what: str) -> Decimal:
    """A declared bound, default or step as the shortest exact decimal (a float read by its
    shortest spelling: 0.1 is one tenth)."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, Decimal, str)):
        raise TypeError(f"{what} must be a number, not {value!r}")
    exact = Fraction(repr(value) if isinstance(value, float) else value)
    text = decimal_text(exact)
    if text is None:
        raise TypeError(f"{what} {value} has no finite decimal form")
    return Decimal(text)


def decimal_text(value: Fraction) -> str | None:
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


def to_decimal(value: Fraction) -> Decimal:
    """``value`` (a point of a decimal step) as the shortest exact Decimal (6, 6.25, 20)."""
    text = decimal_text(value)
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
        return to_decimal(nearest)
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
    step_d, lo, hi = exact_decimal(step, "step"), exact_decimal(ge, "ge"), exact_decimal(le, "le")
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
    start = exact_decimal(default, "default")
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
