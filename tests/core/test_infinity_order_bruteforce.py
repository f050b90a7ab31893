"""The whole Infinity N4 Order: the fast path of ``evaluate`` (condition on the dodge die's face,
then combine the attacks) against exhaustive enumeration of the Order written once on concrete
faces (``_infinity_order.play``), on small cases of every kind."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rules_core import evaluate
from rules_core.systems._infinity_order import enumerate_order
from rules_core.systems.infinity import (
    Attacker, Dodger, Guts, InfinityScenario, Template, final_state_order, plan_order, roll_labels)


def assert_matches_enumeration(scenario: InfinityScenario, *, group: bool = True) -> None:
    truth = enumerate_order(scenario, group=group)
    result = evaluate(scenario)
    plan = plan_order(scenario)
    assert truth.map(lambda k: k[0]) == result.outcomes
    assert set(result.outcomes.outcomes()) <= set(result.outcome_order)
    assert truth.map(lambda k: k[1]) == result.hits
    assert truth.map(lambda k: k[2]) == result.distributions["criticals"]
    assert truth.map(lambda k: k[3]) == result.distributions["wounds"]
    assert truth.map(lambda k: k[4]) == result.distributions["final state"]
    assert set(result.distributions["final state"].outcomes()) <= set(final_state_order(plan))
    for j, roll in enumerate(plan.rolls):
        assert truth.map(lambda k: k[5][j][0]) == result.distributions[roll.name], roll.name
        assert set(result.distributions[roll.name].outcomes()) <= set(roll_labels(roll))
        assert truth.map(lambda k: k[5][j][1]) == result.distributions[f"{roll.name}: hits"]
        assert truth.map(lambda k: k[5][j][2]) == result.distributions[f"{roll.name}: wounds"]


CASES = {
    # Two AROs and a mine the dodger has no LoF to: three comparisons of one die.
    "two attackers and a mine, stacking": InfinityScenario(
        dodger=Dodger(ph=11, wounds=2),
        attackers=(Attacker(value=12, burst=1), Attacker(value=9, burst=1, zoc_no_lof=True)),
        template=Template(kind="deployable", lof=False), minus_three="stacking"),
    "two attackers and a mine, single": InfinityScenario(
        dodger=Dodger(ph=11, wounds=2),
        attackers=(Attacker(value=12, burst=1), Attacker(value=9, burst=1, zoc_no_lof=True)),
        template=Template(kind="deployable", lof=False), minus_three="single"),
    # Burst 2 beside a Direct Template; DA saves in Partial Cover; the owner fails Guts.
    "burst 2 and a direct template, DA in cover": InfinityScenario(
        dodger=Dodger(ph=13, arm=3, wounds=2),
        attackers=(Attacker(value=13, mod=3, burst=2, ammo="DA", partial_cover=True),),
        template=Template(kind="direct", damage=14), guts=Guts(decision="fail", can_leave=False)),
    # Three attackers of Burst 1, one of them without Damage or State (Smoke-like).
    "three attackers, one harmless": InfinityScenario(
        dodger=Dodger(ph=12, wip=11),
        attackers=(Attacker(value=11, burst=1, damage=0), Attacker(value=14, burst=1, ammo="AP"),
                   Attacker(attribute="PH", value=10, burst=1, damage=0, inflicts_state=True))),
    # Nobody attacks: a Normal PH Roll, with the ZoC −3.
    "not attacked, ZoC": InfinityScenario(
        dodger=Dodger(ph=10, immobilized="IMM-A"),
        attackers=(Attacker(attacks=False, zoc_no_lof=True),)),
    # No Dodge declared: unopposed shots and an automatic template hit.
    "no dodge": InfinityScenario(
        dodger=Dodger(dodges=False, wounds=3, bts=3),
        attackers=(Attacker(value=12, burst=1), Attacker(value=9, burst=1, save_vs="BTS")),
        template=Template(kind="direct", ammo="EXP", damage=10, save_vs="BTS")),
    # Success Values above 20 on both sides, and a dodge MOD that hits the ±12 cap.
    "SVs above 20": InfinityScenario(
        dodger=Dodger(ph=22, mod=2, wounds=2),
        attackers=(Attacker(value=21, burst=2, ammo="DA", damage=20),)),
    # A CC attacker: the dodger is Engaged, so a hit brings no Guts Roll.
    "close combat, engaged": InfinityScenario(
        dodger=Dodger(ph=11, wounds=2), after_dodge="move",
        attackers=(Attacker(attribute="CC", value=14, burst=2),)),
    # The dodger's SV is 0 or less against the mine (stacked −6 and a −12 capped MOD).
    "hopeless against the mine": InfinityScenario(
        dodger=Dodger(ph=5, mod=-3, wounds=2), minus_three="stacking",
        attackers=(Attacker(value=10, burst=1, dodge_mod=3),),
        template=Template(kind="deployable", lof=False, ammo="DA")),
}


@pytest.mark.parametrize("name", CASES)
def test_fast_path_equals_enumeration(name):
    assert_matches_enumeration(CASES[name])


@pytest.mark.parametrize("scenario", [
    InfinityScenario(attackers=(Attacker(attacks=False),), template=Template(kind="direct")),
    InfinityScenario(attackers=(Attacker(value=14, burst=1, damage=0, inflicts_state=True),)),
    InfinityScenario(dodger=Dodger(wounds=2), attackers=(Attacker(attacks=False, zoc_no_lof=True),)),
], ids=["template and saves", "attack die and Guts", "not attacked"])
def test_grouping_faces_by_their_one_die_rule_changes_nothing(scenario):
    # Every face of every die, no grouping: the same distribution as the grouped enumeration.
    assert enumerate_order(scenario, group=False) == enumerate_order(scenario)
    assert_matches_enumeration(scenario, group=False)


# -- random small Orders against the enumeration ----------------------------------------------

def small_attacker() -> st.SearchStrategy[Attacker]:
    return st.builds(
        Attacker, attribute=st.sampled_from(["BS", "CC", "PH"]), value=st.integers(0, 24),
        mod=st.sampled_from([-6, 0, 3]), burst=st.just(1), attacks=st.booleans(),
        dodge_mod=st.sampled_from([-3, 0]), zoc_no_lof=st.booleans(), template_no_lof=st.booleans(),
        damage=st.sampled_from([0, 10, 14]), ammo=st.sampled_from(["N", "AP"]),
        save_vs=st.sampled_from(["ARM", "BTS"]), partial_cover=st.booleans(),
        inflicts_state=st.booleans())


def small_scenario() -> st.SearchStrategy[InfinityScenario]:
    dodger = st.builds(Dodger, ph=st.integers(0, 23), mod=st.sampled_from([-3, 0, 2]),
                       dodges=st.booleans(), arm=st.integers(0, 6), bts=st.integers(0, 6),
                       wounds=st.integers(1, 2), wip=st.integers(0, 21), engaged=st.booleans(),
                       immobilized=st.sampled_from(["no", "IMM-A"]))
    template = st.builds(Template, kind=st.sampled_from(["none", "direct", "deployable"]),
                         lof=st.booleans(), dodge_mod=st.sampled_from([-3, 0]),
                         damage=st.sampled_from([0, 13]), ammo=st.sampled_from(["N", "DA"]),
                         inflicts_state=st.booleans())
    guts = st.builds(Guts, decision=st.sampled_from(["roll", "fail"]), can_leave=st.booleans(),
                     can_cover=st.booleans())
    return st.builds(InfinityScenario, dodger=dodger,
                     attackers=st.lists(small_attacker(), min_size=1, max_size=2).map(tuple),
                     template=template, after_dodge=st.sampled_from(["move", "engage", "stay"]),
                     guts=guts, minus_three=st.sampled_from(["single", "stacking"]))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_scenario())
def test_random_small_orders_equal_enumeration(scenario):
    assert_matches_enumeration(scenario)
