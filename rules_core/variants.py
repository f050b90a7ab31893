"""Rule variants: the constants of a system's rule as declared fields, official by default.

A designer asks "what if the MOD cap were ±9?" or "what if a critical were 1–2?". Each system
that allows it declares its rule's own constants in a :class:`Variant` block — one declared field
per constant (:func:`~rules_core.scenario.number`, :func:`~rules_core.scenario.choice`, ...), its
default the official value, its citation where the rulebook says so — and puts that block in its
scenario as the field ``variant``::

    class InfinityVariant(Variant):
        mod_cap: int = number(12, ge=0, le=20, label="MOD cap (±)", help=..., citation=CITE_MODS)

    class InfinityScenario(Scenario):
        ...
        variant: InfinityVariant = part(InfinityVariant, **VARIANT_FIELD)

A changed value is a *house rule*. The variant is ordinary scenario data, so dotted paths edit
it (``scenario.set("variant.mod_cap", 9)``), share links carry it (``variant.mod_cap=9``) and
JSON holds it. The system's exact algorithm and its rule on concrete dice both read the values
from the scenario, and both start their trace with :func:`house_rule_steps`, so every result
made under a house rule says so.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .trace import TraceStep
from .scenario import FieldSpec, Part, Scenario, fields_of

__all__ = ["Variant", "HouseRule", "VARIANT", "VARIANT_FIELD", "variant_fields", "house_rules",
           "house_rule_steps", "official", "is_official"]

#: The name of the scenario field that holds a system's :class:`Variant` block.
VARIANT = "variant"

#: The keyword arguments of :func:`~rules_core.scenario.part` for the ``variant`` field, the same
#: in every system (its label, help and group).
VARIANT_FIELD: dict[str, Any] = dict(
    label="Rule variants",
    help="The rule's own constants, each at its official value unless changed; a changed value "
         "is a house rule, marked in every result.",
    group="Design")


class Variant(Part):
    """A system's rule constants, each field's default its official value (see the module)."""


class HouseRule(NamedTuple):
    """One rule constant changed from its official value."""

    path: str  # dotted path in the scenario, e.g. "variant.mod_cap"
    label: str
    value: Any
    official: Any
    citation: str

    def __str__(self) -> str:
        return f"{self.label} {_shown(self.value)} (official {_shown(self.official)})"


def _shown(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _variant_spec(scenario_cls: type[Part]) -> FieldSpec | None:
    for spec in fields_of(scenario_cls):
        if spec.name == VARIANT and spec.kind == "part" and issubclass(spec.part_cls, Variant):
            return spec
    return None


def variant_fields(scenario_cls: type[Part]) -> tuple[FieldSpec, ...]:
    """The rule constants a scenario class declares (none when it has no ``variant`` block)."""
    spec = _variant_spec(scenario_cls)
    return fields_of(spec.part_cls) if spec else ()


def house_rules(scenario: Scenario) -> tuple[HouseRule, ...]:
    """Every rule constant of ``scenario`` that differs from its official value, in declaration
    order (empty under the official rule or for a system without variants)."""
    block = getattr(scenario, VARIANT, None)
    changed = []
    for spec in variant_fields(type(scenario)):
        value = getattr(block, spec.name)
        if value != spec.default:
            changed.append(HouseRule(f"{VARIANT}.{spec.name}", spec.label, value, spec.default,
                                     spec.citation))
    return tuple(changed)


def is_official(scenario: Scenario) -> bool:
    """True when every rule constant of ``scenario`` has its official value."""
    return not house_rules(scenario)


def official(scenario: Scenario) -> Scenario:
    """The same scenario under the official rule (every rule constant at its official value)."""
    spec = _variant_spec(type(scenario))
    if spec is None or is_official(scenario):
        return scenario
    return scenario.replace(**{VARIANT: spec.part_cls()})


def house_rule_steps(scenario: Scenario) -> tuple[TraceStep, ...]:
    """One trace step per house rule, to open a result's or a play's trace: what was changed,
    its official value and where the official rule is written."""
    return tuple(TraceStep("House rule", str(rule), rule.citation) for rule in house_rules(scenario))
