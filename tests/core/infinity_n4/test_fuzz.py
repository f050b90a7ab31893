"""Random Infinity N4 Orders over the whole declared ranges: valid ones round-trip through JSON,
use only the labels they declare, and keep the invariants that relate the whole Order to its
parts (each roll against the one-roll formula, linearity of hits, Fréchet bounds); invalid ones
are refused with an error naming the field."""

from __future__ import annotations

import json
from fractions import Fraction

from hypothesis import HealthCheck, given, settings, strategies as st

from rules_core import ScenarioError, evaluate, load_scenario
from rules_core.systems.infinity_n4.exact import f2f_headline
from rules_core.systems.infinity_n4.outcomes import DODGED, final_state_order, roll_labels
from rules_core.systems.infinity_n4.play import plan_order
from rules_core.systems.infinity_n4.scenario import InfinityScenario

ATTACKER = st.fixed_dictionaries({
    "attribute": st.sampled_from(["BS", "CC", "PH", "WIP"]), "value": st.integers(0, 30),
    "mod": st.integers(-24, 24), "burst": st.integers(1, 5), "attacks": st.booleans(),
    "dodge_mod": st.integers(-12, 12), "zoc_no_lof": st.booleans(), "template_no_lof": st.booleans(),
    "damage": st.integers(0, 25), "ammo": st.sampled_from(["N", "AP", "DA", "EXP"]),
    "save_vs": st.sampled_from(["ARM", "BTS"]), "partial_cover": st.booleans(),
    "inflicts_state": st.booleans()})
TEMPLATE = st.fixed_dictionaries({
    "kind": st.sampled_from(["none", "direct", "deployable"]), "lof": st.booleans(),
    "dodge_mod": st.integers(-12, 12), "damage": st.integers(0, 25),
    "ammo": st.sampled_from(["N", "AP", "DA", "EXP"]), "save_vs": st.sampled_from(["ARM", "BTS"]),
    "partial_cover": st.booleans(), "inflicts_state": st.booleans()})
DODGER = st.fixed_dictionaries({
    "ph": st.integers(0, 30), "mod": st.integers(-24, 24), "dodges": st.booleans(),
    "arm": st.integers(0, 20), "bts": st.integers(0, 20), "wounds": st.integers(1, 10),
    "wip": st.integers(0, 30), "engaged": st.booleans(),
    "immobilized": st.sampled_from(["no", "IMM-A", "IMM-B"])}).map(
        lambda d: {**d, "dodges": False} if d["immobilized"] == "IMM-B" else d)
SCENARIO = st.fixed_dictionaries({
    "system": st.just("infinity-n4"), "dodger": DODGER,
    "attackers": st.lists(ATTACKER, min_size=1, max_size=3), "template": TEMPLATE,
    "after_dodge": st.sampled_from(["move", "engage", "stay"]),
    "guts": st.fixed_dictionaries({"decision": st.sampled_from(["roll", "fail"]),
                                   "can_leave": st.booleans(), "can_cover": st.booleans()}),
    "minus_three": st.sampled_from(["single", "stacking"])})


def normal_success(sv: int) -> Fraction:
    """A Normal Roll at SV succeeds on faces 1..SV (none at 0 or less, all above 20)."""
    return Fraction(max(0, min(20, sv)), 20)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SCENARIO)
def test_random_valid_orders(data):
    scenario = load_scenario(data)
    assert load_scenario(json.loads(scenario.to_json())) == scenario
    result = evaluate(scenario)
    json.dumps(result.to_data())
    h = result.headline
    plan = plan_order(scenario)
    final = result.distributions["final state"]
    # Only the labels the system declares.
    assert set(result.outcomes.outcomes()) <= set(result.outcome_order)
    assert set(final.outcomes()) <= set(final_state_order(scenario))
    for roll in plan.rolls:
        assert set(result.distributions[roll.name].outcomes()) <= set(
            roll_labels(roll.kind, roll.dice, roll.hits_on_fail)), roll.name
    # Null needs a hit; the most hits is every attack die and the template.
    assert h["p_null"] <= 1 - h["p_no_hit"]
    assert max(result.hits.outcomes()) <= sum(r.dice or r.hits_on_fail for r in plan.rolls)
    # The whole Order against its parts: each roll's marginal is the single-roll answer; the
    # joint success is bounded by the marginals (Fréchet) and never more than any one of them.
    marginals = []
    expected_hits = expected_wounds = Fraction(0)
    for roll in plan.rolls:
        own = result.distributions[roll.name]
        if roll.kind == "f2f":
            dodged, _, _, hits = f2f_headline(roll.sv_dodge, 1 if scenario.dodger.dodges else 0,
                                              roll.sv_attack, roll.dice)
        else:
            dodged = normal_success(roll.sv_dodge) if scenario.dodger.dodges else Fraction(0)
            hits = (1 - dodged) * roll.hits_on_fail
        assert own[DODGED] == dodged
        marginals.append(dodged)
        expected_hits += hits
        expected_wounds += result.distributions[f"{roll.name}: wounds"].mean()
    assert h["expected_hits"] == expected_hits
    assert h["expected_wounds"] == expected_wounds
    if scenario.dodger.dodges:
        p = h["p_dodge_succeeds"]
        assert p == result.outcomes[DODGED] <= h["p_no_hit"]
        assert max(Fraction(0), sum(marginals) - (len(marginals) - 1)) <= p <= min(marginals)
    else:
        assert h["p_dodge_succeeds"] is None and result.notes["p_dodge_succeeds"]


BAD_VALUES = [
    ("dodger", "ph", 31, "dodger.ph"), ("dodger", "wounds", 0, "dodger.wounds"),
    ("dodger", "immobilized", "IMM-C", "dodger.immobilized"), ("dodger", "arm", -1, "dodger.arm"),
    ("template", "kind", "grenade", "template.kind"), ("template", "damage", 26, "template.damage"),
    ("guts", "decision", "pass", "guts.decision"), ("guts", "can_cover", "maybe", "guts.can_cover"),
]


@settings(max_examples=300, deadline=None)
@given(SCENARIO, st.sampled_from(BAD_VALUES))
def test_random_invalid_orders_name_the_field(data, bad):
    where, key, value, name = bad
    data = json.loads(json.dumps(data))
    data[where][key] = value
    try:
        load_scenario(data)
    except ScenarioError as err:
        assert f"field '{name}'" in str(err)
        assert any(p.field == name for p in err.problems)
    else:
        raise AssertionError(f"{name} = {value!r} was accepted")


@settings(max_examples=200, deadline=None)
@given(SCENARIO, st.integers(0, 2), st.sampled_from([
    ("burst", 6), ("burst", 0), ("ammo", "T2"), ("attribute", "ARM"), ("dodge_mod", 13),
    ("damage", -1), ("attacks", "maybe")]))
def test_random_invalid_attackers_name_the_field(data, index, bad):
    key, value = bad
    data = json.loads(json.dumps(data))
    index = min(index, len(data["attackers"]) - 1)
    data["attackers"][index][key] = value
    try:
        load_scenario(data)
    except ScenarioError as err:
        assert f"field 'attackers.{index}.{key}'" in str(err)
    else:
        raise AssertionError(f"attackers.{index}.{key} = {value!r} was accepted")


@settings(max_examples=100, deadline=None)
@given(SCENARIO)
def test_imm_b_with_a_dodge_is_refused_naming_the_field(data):
    data = json.loads(json.dumps(data))
    data["dodger"].update(immobilized="IMM-B", dodges=True)
    try:
        load_scenario(data)
    except ScenarioError as err:
        assert "the combination 'dodger.immobilized' = 'IMM-B' and 'dodger.dodges' = True" in str(err)
        assert err.problems[0].field == "dodger.dodges"
    else:
        raise AssertionError("IMM-B with a Dodge was accepted")


def test_too_many_attackers_and_unknown_fields():
    good = InfinityScenario().to_data()
    for change, name in [({"attackers": [{}] * 4}, "attackers"), ({"minus_three": "double"}, "minus_three"),
                         ({"after_dodge": "fly"}, "after_dodge"), ({"mines": 2}, "mines")]:
        try:
            load_scenario({**good, **change})
        except ScenarioError as err:
            assert f"field '{name}'" in str(err)
        else:
            raise AssertionError(change)
