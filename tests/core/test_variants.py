"""Rule variants (``rules_core.variants``): house rules found, named, reset and marked.

On a small scenario class of its own, so the mechanism is checked apart from any system; each
system's own variants are checked against its rule in ``tests/core/<package>/``, and every
registered system's results are checked to mark a house rule below.
"""

from __future__ import annotations

from typing import Literal

import pytest

from rules_core import all_systems, play_once
from rules_core.scenario import Scenario, ScenarioError, choice, number, part, parse
from rules_core.variants import (VARIANT_FIELD, HouseRule, Variant, house_rule_steps, house_rules,
                                 is_official, official, variant_fields)


class ToyVariant(Variant):
    cap: int = number(12, ge=0, le=20, label="MOD cap (±)", help="The cap.", citation="Rules p.1")
    rounding: Literal["up", "down"] = choice("up", label="Halving rounds", help="Which way.",
                                             citation="Rules p.2")


class Toy(Scenario):
    system: Literal["toy"] = "toy"
    skill: int = number(10, ge=1, le=20, label="Skill", help="The skill.")
    variant: ToyVariant = part(ToyVariant, **VARIANT_FIELD)


def test_official_by_default_and_each_change_named_with_its_official_value():
    assert house_rules(Toy()) == () and is_official(Toy())
    toy = Toy().set("variant.cap", 9).set("variant.rounding", "down")
    assert house_rules(toy) == (HouseRule("variant.cap", "MOD cap (±)", 9, 12, "Rules p.1"),
                                HouseRule("variant.rounding", "Halving rounds", "down", "up", "Rules p.2"))
    assert not is_official(toy)
    assert [str(step) for step in house_rule_steps(toy)] == [
        "House rule: MOD cap (±) 9 (official 12) [Rules p.1]",
        "House rule: Halving rounds down (official up) [Rules p.2]"]


def test_official_resets_only_the_rule_and_keeps_the_situation():
    toy = Toy(skill=14).set("variant.cap", 3)
    back = official(toy)
    assert back == Toy(skill=14)
    assert official(back) is back


def test_a_value_set_back_to_official_is_no_house_rule():
    assert house_rules(Toy().set("variant.cap", 9).set("variant.cap", 12)) == ()


def test_variants_are_scenario_data_validated_like_any_field():
    assert parse(Toy, {"system": "toy", "variant": {"cap": 9}}).variant.cap == 9
    with pytest.raises(ScenarioError, match=r"variant\.cap.*a whole number from 0 to 20"):
        parse(Toy, {"system": "toy", "variant": {"cap": 21}})
    assert [spec.name for spec in variant_fields(Toy)] == ["cap", "rounding"]
    assert variant_fields(Scenario) == ()


SYSTEMS = list(all_systems().values())


def _house_rule(system):
    """The system's default scenario with its first rule constant moved off the official value."""
    spec = variant_fields(system.scenario_cls)[0]
    if spec.kind in ("choice", "ruling"):
        value = next(v for v, _ in spec.choices if v != spec.default)
    elif spec.kind == "flag":
        value = not spec.default
    else:
        value = spec.default + spec.step if spec.default + spec.step <= spec.maximum else spec.default - spec.step
    return system.default_scenario().set(f"variant.{spec.name}", value), spec


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.id)
def test_every_system_declares_its_rule_constants_and_marks_a_house_rule_first(system):
    assert variant_fields(system.scenario_cls), f"{system.id} declares no rule variants"
    scenario, spec = _house_rule(system)
    marks = [str(step) for step in house_rule_steps(scenario)]
    assert len(marks) == 1 and spec.label in marks[0]
    assert [str(step) for step in system.evaluate(scenario).trace[:1]] == marks
    assert [str(step) for step in play_once(system, scenario, seed=1).trace[:1]] == marks
    official_trace = [str(step) for step in system.evaluate(system.default_scenario()).trace]
    assert not any(line.startswith("House rule") for line in official_trace)


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.id)
def test_every_system_marks_a_house_rule_in_its_result_outside_the_trace(system):
    scenario, spec = _house_rule(system)
    result = system.evaluate(scenario)
    [rule] = result.to_data()["house_rules"]
    assert (rule["path"], rule["label"], rule["official"]) == (f"variant.{spec.name}", spec.label, spec.default)
    assert rule["value"] == scenario.variant.to_data()[spec.name] != spec.default
    assert f"[house rule: {spec.label} " in repr(result)
    page = result._repr_html_()
    assert "rc-house-rule" in page and page.index("rc-house-rule") < page.index("rc-cards")
    official = system.evaluate(system.default_scenario())
    assert official.to_data()["house_rules"] == [] and "house rule" not in repr(official)
