"""d100 house rules (the scenario's ``variant`` block) worked by hand, each beside the official
number it moves, and the trace saying which values are in force, in English and Russian. The
fast path under drawn house rules is checked against enumeration by the generic test and against
the rules text in test_reference.py."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules_core import ScenarioError, evaluate, find_preset, load_scenario, play_once
from rules_core.scenario import fields_of
from rules_core.systems.d100_homebrew import SYSTEM, Attack, D100Scenario, Defender
from rules_core.systems.d100_homebrew.dice import TestRules, max_successes, roll_successes, success_counts
from rules_core.systems.d100_homebrew.scenario import D100Variant
from rules_core.variants import house_rule_steps

from .test_text import assert_russian

BURST = find_preset("d100-homebrew/burst-3-vs-dodge-45").scenario
#: One Reaction against a single hit, then two more hits of the same opponent's next attack:
#: the second attack's hits can be evaded only by the first roll's leftover Successes.
LEFTOVERS = D100Scenario(defender=Defender(agility=45, reactions=1),
                         attacks=(Attack(hits=1), Attack(hits=2)))


def test_five_points_per_success_by_hand():
    # Dodge 45 against a burst of 3. Officially a further Success per full 10 under 45: 3 or more
    # Successes on 01–25, so P(no hit) = 25/100 = 1/4; expected hits
    #   3·55/100 + 2·10/100 + 1·10/100 = 195/100 = 39/20.
    # Per full 5: 3 or more on 01–35 (45 − 2·5), 2 on 36–40, 1 on 41–45:
    #   P(no hit) = 35/100 = 7/20, expected hits 3·55/100 + 2·5/100 + 1·5/100 = 180/100 = 9/5.
    assert (evaluate(BURST).headline["p_no_hit"], evaluate(BURST).headline["expected_hits"]) == \
        (Fraction(1, 4), Fraction(39, 20))
    house = evaluate(BURST.set("variant.points_per_success", 5)).headline
    assert (house["p_no_hit"], house["expected_hits"]) == (Fraction(7, 20), Fraction(9, 5))


def test_leftover_cost_by_hand():
    # Successes s against 45: 0 on 46–100 (55), 1..4 on ten faces each, 5 on 01–05 (5). One
    # evades attack 1's hit; s − 1 are left for attack 2's two hits at 2 each: one hit for
    # s = 3, 4, both for s = 5. Expected hits landing = 55/100 (attack 1) + 2 − (10 + 10 + 2·5)/100
    # = 225/100 = 9/4; no hit at all only for s = 5: 1/20.
    # At 1 per hit: one hit for s = 2, both for s ≥ 3: 55/100 + 2 − (10 + 2·25)/100 = 195/100 = 39/20,
    # and no hit for s ≥ 3: 25/100 = 1/4.
    official = evaluate(LEFTOVERS).headline
    assert (official["expected_hits"], official["p_no_hit"]) == (Fraction(9, 4), Fraction(1, 20))
    house = evaluate(LEFTOVERS.set("variant.leftover_cost", 1)).headline
    assert (house["expected_hits"], house["p_no_hit"]) == (Fraction(39, 20), Fraction(1, 4))


def test_penalty_step_by_hand():
    # Attack 2 at −20: officially 2 + 2 = 4 Successes a hit, so only s = 5 pays one:
    # 55/100 + 2 − 5/100 = 5/2. At +1 per full −20: 3 a hit, paid by s = 4 and 5: 55/100 + 2 − 15/100 = 12/5.
    penalised = LEFTOVERS.set("attacks.1.evasion_modifier", -20)
    assert evaluate(penalised).headline["expected_hits"] == Fraction(5, 2)
    assert evaluate(penalised.set("variant.penalty_step", 20)).headline["expected_hits"] == Fraction(12, 5)


@pytest.mark.parametrize("face, target, rules, successes", [
    (36, 45, TestRules(points=5), 2), (35, 45, TestRules(points=5), 3),     # 1 + ⌊9/5⌋, 1 + ⌊10/5⌋
    (1, 45, TestRules(points=20), 3), (6, 45, TestRules(points=1), 40),
    (24, 45, TestRules(tens_digits=True, points=20), 2),                     # 1 + ⌊45/20⌋ − ⌊24/20⌋
    (19, 45, TestRules(tens_digits=True, points=20), 3),
])
def test_roll_successes_under_house_rules(face, target, rules, successes):
    assert roll_successes(face, target, rules) == successes
    assert dict(success_counts(target, rules))[successes] > 0


def test_the_most_successes_follow_the_points():
    for points in (1, 2, 3, 7, 10, 50):
        rules = [TestRules(tens, a01, a100, points) for tens in (False, True) for a01 in (True, False)
                 for a100 in (True, False)]
        assert max(roll_successes(face, 220, r) for r in rules for face in range(1, 101)) == max_successes(points)


def test_every_house_rule_is_marked_first_in_both_languages():
    for spec in fields_of(D100Variant):
        scenario = BURST.set(f"variant.{spec.name}", spec.default + 1)
        marks = [str(step) for step in house_rule_steps(scenario)]
        assert [str(step) for step in evaluate(scenario).trace[:1]] == marks
        assert [str(step) for step in play_once(SYSTEM, scenario, faces=[30]).trace[:1]] == marks
        step = evaluate(scenario).trace[0]
        for text in (step.rule, step.detail):
            assert_russian(text)
        assert SYSTEM.text(step.detail, "ru").endswith(f"{spec.default + 1} (по правилам {spec.default})")


def test_the_trace_shows_the_values_in_force():
    house = LEFTOVERS.replace(variant={"leftover_cost": 3, "penalty_step": 20, "points_per_success": 5})
    lines = [step.detail for step in evaluate(house).trace]
    assert any(line.startswith("1 + one per full 5 points the roll is under the target") for line in lines)
    assert any("this Turn: 3 per hit, +1 per full −20 by which" in line for line in lines)
    official = [step.detail for step in evaluate(LEFTOVERS).trace]
    assert any("this Turn: 2 per hit, +1 per full −10 by which" in line for line in official)
    assert not any(step.rule == "House rule" for step in evaluate(LEFTOVERS).trace)


def test_a_house_rule_outside_its_range_is_refused_by_name():
    with pytest.raises(ScenarioError, match=r"variant\.leftover_cost.*a whole number from 1 to 10"):
        load_scenario({"system": "d100-homebrew", "variant": {"leftover_cost": 0}})
