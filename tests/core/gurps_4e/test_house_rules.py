"""GURPS house rules (the scenario's ``variant`` block) worked by hand, each beside the official
number it moves; the success roll's bounds at their edges; and the trace saying which values are
in force. The fast path under drawn house rules is checked against enumeration by the generic
test and against the rules text in test_reference.py."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules_core import ScenarioError, evaluate, find_preset, load_scenario, play_once
from rules_core.systems.gurps_4e import SYSTEM, Attack, Dodger, GurpsScenario
from rules_core.systems.gurps_4e.dice import critical_failure, describe_success_roll, success_roll, success_weight
from rules_core.systems.gurps_4e.play import unopposed_dodge
from rules_core.systems.gurps_4e.scenario import GurpsVariant

#: One shot at skill 12 (RoF 1) against Basic Speed 6: Dodge 9, no modifier either way.
SHOT = GurpsScenario(dodger=Dodger(basic_speed=6), attacks=(Attack(skill=12, damage="1d"),))


def test_criticals_on_3_to_6_by_hand():
    # Official: the shot hits on 3-12 (160 of 216 ways); 3-4 (4 ways) is a critical hit, which
    # allows no defense; the other 156 hits meet Dodge 9, which fails on 135 of 216 ways.
    #   P(hit lands) = (4·216 + 156·135) / 216² = 21924/46656 = 203/432.
    # House rule "critical on 3-6": 20 ways are critical hits, 140 meet the Dodge (still 81 ways
    # of 216 to succeed: 3-6 lie under 9 anyway).
    #   P(hit lands) = (20·216 + 140·135) / 216² = 23220/46656 = 215/432.
    assert evaluate(SHOT).headline["expected_hits"] == Fraction(203, 432)
    house = SHOT.set("variant.critical_up_to", 6)
    assert evaluate(house).headline["expected_hits"] == Fraction(215, 432)
    assert evaluate(house).headline["p_no_hit"] == Fraction(217, 432)


def test_dodge_base_and_retreat_by_hand():
    # Basic Speed 6 with a retreat against a melee blow: officially 6 + 3 + 3 = 12, success on
    # 160 of 216; with Dodge = Basic Speed + 2 and a retreat worth +1: 9, success on 81 of 216.
    melee = SHOT.replace(dodger={"defense": "retreat"}, attacks=[{"kind": "melee"}])
    assert evaluate(melee).headline["p_dodge_succeeds"] == Fraction(160, 216)
    house = melee.replace(variant={"dodge_base": 2, "retreat_bonus": 1})
    assert evaluate(house).headline["p_dodge_succeeds"] == Fraction(81, 216)


def test_no_automatic_success_by_hand():
    # Basic Speed 1, heavy encumbrance: Dodge 1 + 3 − 3 = 1. Officially a 3 or 4 still succeeds
    # (4 of 216 = 1/54); if only a 3 always succeeds, 1 of 216.
    low = GurpsScenario(dodger=Dodger(basic_speed=1, encumbrance="heavy"))
    assert unopposed_dodge(low) == Fraction(1, 54)
    assert unopposed_dodge(low.set("variant.critical_up_to", 3)) == Fraction(1, 216)
    assert unopposed_dodge(low.set("variant.critical_up_to", 2)) == 0


@pytest.mark.parametrize("roll, score, rules, success, critical", [
    (5, 3, GurpsVariant(critical_up_to=5), True, True),          # a 5 now always succeeds
    (4, 3, GurpsVariant(critical_up_to=3), False, False),        # a 4 no longer does
    (16, 20, GurpsVariant(always_fails_from=16), False, False),  # 16 always fails
    (17, 20, GurpsVariant(always_fails_from=19), True, False),   # 17 and 18 may succeed ...
    (18, 18, GurpsVariant(always_fails_from=19), True, False),
    (5, 12, GurpsVariant(critical_5_at=12), True, True),         # ... criticals come earlier
    (6, 12, GurpsVariant(critical_5_at=12), True, False),
    (6, 14, GurpsVariant(critical_6_at=14), True, True),
])
def test_success_roll_under_house_rules(roll, score, rules, success, critical):
    result = success_roll(roll, score, rules)
    assert (result.success, result.critical) == (success, critical)


def test_success_weight_under_house_rules():
    # Ways of 216 at or under a total: 3:1, 4:4, 5:10, 6:20, 15:206, 16:212, 18:216.
    assert success_weight(30, GurpsVariant(always_fails_from=19)) == 216
    assert success_weight(30, GurpsVariant(always_fails_from=16)) == 206
    assert success_weight(-5, GurpsVariant(critical_up_to=6)) == 20


def test_the_trace_names_the_house_rule_first_and_shows_the_values_in_force():
    house = SHOT.replace(variant={"critical_up_to": 6, "always_fails_from": 16, "dodge_base": 4})
    trace = [str(step) for step in evaluate(house).trace]
    assert trace[:3] == [
        "House rule: Always a critical success: 3d6 up to 6 (official 4) "
        "[GURPS Basic Set 4e p. B348 (Critical Success and Failure)]",
        "House rule: Always a failure: 3d6 from 16 (official 17) "
        "[GURPS Basic Set 4e pp. B343-344 (Success Rolls: 3-4 always succeed, 17-18 always fail)]",
        "House rule: Dodge = Basic Speed + 4 (official 3) "
        "[GURPS Basic Set 4e p. B17 (Dodge = Basic Speed + 3, dropping fractions)]"]
    assert any("fractions dropped: 6, + 4 = 10" in line for line in trace)
    assert any("3-6 always succeed (critical); 16-18 always fail;" in line for line in trace)
    assert describe_success_roll(GurpsVariant(critical_up_to=2, always_fails_from=19)).startswith(
        "no roll always succeeds, 5 at 15+, 6 at 16+; no roll always fails;")
    # The edges: a single face is named alone, and it still always succeeds or fails.
    assert describe_success_roll(GurpsVariant(critical_up_to=3, always_fails_from=18)).startswith(
        "3 always succeeds (critical), 5 at 15+, 6 at 16+; 18 always fails;")
    played = play_once(SYSTEM, house, seed=3).trace
    assert [step.rule for step in played[:3]] == ["House rule"] * 3 and played[3].rule != "House rule"


def test_official_numbers_and_trace_unchanged():
    sword = find_preset("gurps-4e/sword-2d1-cut-vs-dr3").scenario
    assert evaluate(sword).headline["expected_injury"] == Fraction(29, 4)
    assert not any(step.rule == "House rule" for step in evaluate(sword).trace)
    assert describe_success_roll() == ("3-4 always succeed (critical), 5 at 15+, 6 at 16+; 17-18 always fail; "
                                       "18 fails critically, 17 at 15 or less, and any roll 10+ over the score")


def test_a_house_rule_outside_its_range_is_refused_by_name():
    with pytest.raises(ScenarioError, match=r"variant\.always_fails_from.*a whole number from 10 to 19"):
        load_scenario({"system": "gurps-4e", "variant": {"always_fails_from": 9}})
    assert load_scenario({"system": "gurps-4e", "variant": {"retreat_bonus": 2}}).variant.retreat_bonus == 2


def test_a_roll_that_always_succeeds_is_never_a_critical_failure():
    # 4 against −6 is 10 over the score, but 3-4 always succeed (B348): no critical failure.
    assert not critical_failure(4, -6) and critical_failure(5, -5)
    # A house rule with no automatic success: the 3 then fails against −7, critically (10 over).
    lowered = GurpsVariant(critical_up_to=2)
    lowered_roll, official_roll = success_roll(3, -7, lowered), success_roll(3, -7)
    assert (lowered_roll.success, lowered_roll.critical) == (False, True)
    assert (official_roll.success, official_roll.critical) == (True, True)


@pytest.mark.parametrize("total", [2, 19])
def test_a_3d6_total_outside_3_to_18_is_refused(total):
    with pytest.raises(ValueError, match=f"a 3d6 total is 3..18, got {total}"):
        success_roll(total, 10)
