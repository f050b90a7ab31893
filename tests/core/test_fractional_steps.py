"""Fields with a fractional step (GURPS Basic Speed in quarters, and any other a system
declares) hold an exact value on their step: every step round-trips through JSON in its short
decimal form, floating-point noise within 1e-9 is snapped, and a value truly off the step is
refused naming the step. The share link's round trip is in tests/workbook/test_share.py."""

from __future__ import annotations

import json
import math
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from pydantic import ValidationError

from rules_core import ScenarioError, all_systems, evaluate, load_scenario
from rules_core.scenario import FieldSpec, Part, fields_of, number


def fractional_fields(cls: type[Part], prefix: tuple[Any, ...] = ()):
    """(path, FieldSpec) of every field with a fractional step, through parts (the first item
    of a list)."""
    for spec in fields_of(cls):
        if spec.kind in ("int", "float") and Fraction(spec.step) != int(Fraction(spec.step)):
            yield prefix + (spec.name,), spec
        elif spec.kind == "part":
            yield from fractional_fields(spec.part_cls, prefix + (spec.name,))
        elif spec.kind == "parts":
            yield from fractional_fields(spec.part_cls, prefix + (spec.name, 0))


FIELDS = [(system.id, path, spec) for system in all_systems().values()
          for path, spec in fractional_fields(system.scenario_cls)]


def points(spec: FieldSpec) -> list[Fraction]:
    """Every value of the field, from its least to its most, one step apart."""
    low, high, step = Fraction(spec.minimum), Fraction(spec.maximum), Fraction(spec.step)
    return [low + k * step for k in range(int((high - low) / step) + 1)]


def short(value: Fraction) -> str:
    """How JSON and links spell the value: ``6``, ``6.25`` (written here from the value, not
    from the code under test)."""
    return str(value.numerator) if value.denominator == 1 else repr(float(value))


def with_value(system_id: str, path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    data = all_systems()[system_id].default_scenario().to_data()
    node = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return data


def value_at(scenario: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        scenario = scenario[step] if isinstance(step, int) else getattr(scenario, step)
    return scenario


def test_gurps_basic_speed_is_a_fractional_field_in_quarters():
    found = {(system_id, path): spec for system_id, path, spec in FIELDS}
    spec = found[("gurps-4e", ("dodger", "basic_speed"))]
    assert (spec.minimum, spec.maximum, spec.step) == (1, 20, Fraction(1, 4))
    assert len(points(spec)) == 77


@pytest.mark.parametrize("system_id, path, spec", FIELDS, ids=[f"{s}:{'.'.join(map(str, p))}" for s, p, _ in FIELDS])
def test_every_step_round_trips_through_json(system_id, path, spec):
    name = path[-1]
    for point in points(spec):
        scenario = load_scenario(with_value(system_id, path, float(point)))  # as a slider sends it
        held = value_at(scenario, path)
        assert isinstance(held, Decimal) and Fraction(held) == point
        text = scenario.to_json()
        assert f'"{name}":{short(point)},' in text or f'"{name}":{short(point)}}}' in text
        assert load_scenario(json.loads(text)) == scenario
        # floating-point noise on either side, within 1e-9, is the same step
        for noisy in (math.nextafter(float(point), math.inf), math.nextafter(float(point), -math.inf),
                      float(point) + 4e-10, float(point) - 4e-10):
            assert load_scenario(with_value(system_id, path, noisy)) == scenario, noisy
        # exact values of any numeric type are the same step too
        assert load_scenario(with_value(system_id, path, point)) == scenario
        assert load_scenario(with_value(system_id, path, Decimal(short(point)))) == scenario


@pytest.mark.parametrize("system_id, path, spec", FIELDS, ids=[f"{s}:{'.'.join(map(str, p))}" for s, p, _ in FIELDS])
def test_a_value_off_the_step_is_refused_naming_the_step(system_id, path, spec):
    dotted = ".".join(map(str, path))
    step = Fraction(spec.step)
    for point in points(spec)[:-1]:
        for off in (point + step / 5, point + step / 2 - Fraction(1, 10**6), point + Fraction(2, 10**9)):
            with pytest.raises(ScenarioError) as err:
                load_scenario(with_value(system_id, path, float(off)))
            (problem,) = err.value.problems
            assert problem.field == dotted
            assert problem.allowed == (f"a number from {short(points(spec)[0])} to {short(points(spec)[-1])} "
                                       f"in steps of {short(step)}")
    for outside in (points(spec)[0] - step, points(spec)[-1] + step):
        with pytest.raises(ScenarioError, match=f"field '{dotted}'"):
            load_scenario(with_value(system_id, path, float(outside)))


def test_basic_speed_by_hand():
    base = {"system": "gurps-4e", "dodger": {"basic_speed": 6.25}}
    assert load_scenario(base).dodger.basic_speed == Decimal("6.25")
    assert str(load_scenario({**base, "dodger": {"basic_speed": 6.250000000000001}}).dodger.basic_speed) == "6.25"
    assert str(load_scenario({**base, "dodger": {"basic_speed": 5.9999999995}}).dodger.basic_speed) == "6"
    with pytest.raises(ScenarioError, match=r"field 'dodger\.basic_speed': got 6\.3; allowed: a number from 1 "
                                            r"to 20 in steps of 0\.25"):
        load_scenario({**base, "dodger": {"basic_speed": 6.3}})
    with pytest.raises(ScenarioError, match=r"got 5\.99999999; allowed"):  # 1e-8 off: a real difference
        load_scenario({**base, "dodger": {"basic_speed": 5.99999999}})
    # the rule itself reads the exact value: Dodge = 6.75 with fractions dropped + 3 = 9
    dodge = next(t for t in evaluate(load_scenario({**base, "dodger": {"basic_speed": 6.75}})).trace
                 if t.rule == "Dodge")
    assert "Basic Speed 6.75, fractions dropped: 6, + 3" in dodge.detail


# -- declaring fields -------------------------------------------------------------------------------

def test_a_fractional_field_must_be_declared_exactly():
    class Wrong(Part):
        speed: float = number(1, ge=0, le=2, step=Decimal("0.25"), label="Speed", help="")

    with pytest.raises(TypeError, match="annotated Decimal"):
        fields_of(Wrong)
    with pytest.raises(TypeError, match="must lie on the step"):
        number(1, ge=0, le=Decimal("2.1"), step=Decimal("0.25"), label="x", help="")
    with pytest.raises(TypeError, match="no finite decimal form"):
        number(1, ge=0, le=2, step=Fraction(1, 3), label="x", help="")


def test_a_step_may_be_declared_as_a_fraction_and_reads_back_as_a_decimal():
    class Tenths(Part):
        x: Decimal = number(Fraction(1, 2), ge=0, le=1, step=Fraction(1, 10), label="X", help="")

    (spec,) = fields_of(Tenths)
    assert (spec.kind, spec.step, spec.default) == ("float", Fraction(1, 10), Decimal("0.5"))
    assert Tenths(x=0.30000000000000004).x == Decimal("0.3")  # 0.1 + 0.2 in floating point
    assert Tenths(x=0.7).to_data() == {"x": 0.7}
    with pytest.raises(ValidationError):
        Tenths(x=0.35)
