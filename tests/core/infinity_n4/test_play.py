"""Infinity N4's rule on concrete dice (``play.py``): what the generic test
(``tests/core/test_every_system.py``) does not cover — hand-picked Orders of every kind
enumerated against ``evaluate``, the ``classify`` hints proven true by enumerating every face,
typed faces and the roller's record, and traces only when asked for."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings

from core.test_every_system import check_against_enumeration
from rules_core import DiceError, RandomRoller, enumerate_play, get_system, load_scenario, play_once, sample
from rules_core.systems.infinity_n4.outcomes import DODGED, HIT_PASSES
from rules_core.systems.infinity_n4.scenario import Attacker, Dodger, Guts, InfinityScenario, Template
from strategies import scenario_strategy

SYSTEM = get_system("infinity-n4")

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
def test_hand_picked_orders_equal_enumeration(name):
    check_against_enumeration("infinity-n4", CASES[name].to_data())


# -- the classify hints are true of the rule ------------------------------------------------------

HINTED = {
    # the dodge die's ranks, one Saving Roll, the Guts die
    "template and saves": InfinityScenario(attackers=(Attacker(attacks=False),),
                                           template=Template(kind="direct")),
    # an attack die against the dodge die, and the Guts die
    "attack die and Guts": InfinityScenario(
        attackers=(Attacker(value=14, burst=1, damage=0, inflicts_state=True),)),
    # two attack dice: ties, Criticals on both sides (SV 12 against SV 12)
    "two attack dice": InfinityScenario(dodger=Dodger(ph=12),
                                        attackers=(Attacker(value=12, burst=2, damage=0),)),
    # no dodge: a Critical adds a Saving Roll (SV 20 scores a Critical on a 20)
    "a Critical's extra save": InfinityScenario(
        dodger=Dodger(dodges=False, wounds=2), guts=Guts(decision="fail"),
        attackers=(Attacker(value=20, burst=1),)),
    # SV above 20 on both sides
    "SVs above 20": InfinityScenario(dodger=Dodger(ph=23),
                                     attackers=(Attacker(value=22, burst=2, damage=0),)),
    "not attacked": InfinityScenario(dodger=Dodger(wounds=2),
                                     attackers=(Attacker(attacks=False, zoc_no_lof=True),)),
}


@pytest.mark.parametrize("name", HINTED)
def test_classify_hints_change_nothing(name):
    # Every face of every die, no grouping: the same distribution as the grouped enumeration.
    scenario = HINTED[name]
    assert enumerate_play(SYSTEM, scenario, classify=False) == enumerate_play(SYSTEM, scenario)


# -- typed faces and the roller's record ----------------------------------------------------------

def test_every_die_comes_from_the_roller_in_the_rules_order():
    # Two attackers of Burst 2 (DA) and a mine; the dodger fails everything: every hit's saves.
    scenario = InfinityScenario(
        dodger=Dodger(ph=5, wounds=10, wip=12), minus_three="stacking",
        attackers=(Attacker(value=14, burst=2, ammo="DA"), Attacker(value=9, burst=2)),
        template=Template(kind="deployable", lof=False))
    faces = [20,            # dodge die: fails against everything
             14, 3,         # Attacker 1: a Critical (14 = SV) and a 3: two hits, 2 + 2 + 1 saves
             1, 2, 3, 19, 20,
             8, 12,         # Attacker 2: 8 hits, 12 fails: 1 save
             4,
             20,            # the mine's one hit: 1 save
             5]             # the Guts die
    played = play_once(SYSTEM, scenario, faces=faces)
    purposes = Counter(r.dice.purpose for r in played.rolled)
    assert purposes == {"dodge die": 1, "Attacker 1": 2, "Saving Roll (Attacker 1)": 5,
                        "Attacker 2": 2, "Saving Roll (Attacker 2)": 1, "Saving Roll (Mine)": 1,
                        "Guts die": 1}
    assert [f for r in played.rolled for f in r.faces] == faces
    assert played.evasions == (False, False, False) and played.hits == 4
    assert played["criticals"] == 1
    # DA against ARM 1: a wound on 12 or less: 1, 2, 3 of Attacker 1's five, 4, not the mine's 20.
    assert (played["Attacker 1: wounds"], played["Attacker 2: wounds"], played["Mine: wounds"]) == (3, 1, 0)
    assert played["wounds"] == 4 and played["final state"] == HIT_PASSES


def test_typed_faces_too_few_or_too_many_are_refused():
    scenario = InfinityScenario(dodger=Dodger(ph=10), attackers=(Attacker(value=15, burst=3),))
    with pytest.raises(DiceError, match="no faces are left"):
        play_once(SYSTEM, scenario, faces=[3, 16, 17])
    with pytest.raises(DiceError, match="1 face left over"):
        play_once(SYSTEM, scenario, faces=[3, 16, 17, 18, 2])
    with pytest.raises(DiceError, match="face 21 is not on a d20"):
        play_once(SYSTEM, scenario, faces=[21, 1, 1, 1])
    assert play_once(SYSTEM, scenario, faces=[3, 16, 17, 18]).outcome == DODGED


def test_a_trace_only_when_asked_for():
    scenario = InfinityScenario(dodger=Dodger(ph=10), attackers=(Attacker(value=15, burst=3),))

    class Quiet(RandomRoller):
        explain = False

    assert SYSTEM.play(scenario, Quiet(7)).trace == ()
    loud = SYSTEM.play(scenario, RandomRoller(7))
    assert [s.rule for s in loud.trace][:2] == ["Dodge die", "Attacker 1"]
    assert loud.trace[-1].rule == "Final state"
    assert SYSTEM.play(scenario, Quiet(7)) == loud   # the same dice, the same play
    house = scenario.set("variant.mod_cap", 2)  # its trace would open with the house rule
    assert SYSTEM.play(house, Quiet(7)).trace == ()
    assert SYSTEM.play(house, RandomRoller(7)).trace[0].rule != "Dodge die"


def test_sampling_is_reproducible_and_near_the_exact_value():
    scenario = InfinityScenario(dodger=Dodger(ph=10), attackers=(Attacker(value=15, burst=3),))
    plays = list(sample(SYSTEM, scenario, 4000, seed=1))
    assert plays == list(sample(SYSTEM, scenario, 4000, seed=1))
    share = sum(p.outcome == DODGED for p in plays) / len(plays)
    assert abs(share - 47 / 500) < 0.02   # 47/500 = 0.094; four standard errors is 0.018


# -- the generic test's drawn scenarios are valid by construction -----------------------------------

@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario_strategy("infinity-n4", small=True))
def test_drawn_small_scenarios_are_all_valid(raw):
    load_scenario(raw)


def test_every_step_of_one_roll_cites_its_rule():
    from rules_core.systems.infinity_n4.scenario import CITE_ROLLS

    scenario = InfinityScenario(dodger=Dodger(ph=10), attackers=(Attacker(value=15, burst=2),),
                                template=Template(kind="direct"))
    played = SYSTEM.play(scenario, RandomRoller(3))
    assert played.trace and all(step.citation for step in played.trace)
    against_template = [s for s in played.trace if "Normal PH Roll" in s.detail]
    assert len(against_template) == 1 and against_template[0].citation == CITE_ROLLS


def test_the_movement_the_final_state_and_the_guts_roll_cite_their_rules():
    from rules_core.systems.infinity_n4.scenario import CITE_DODGE_MOVE, CITE_GUTS

    scenario = InfinityScenario(dodger=Dodger(ph=10), attackers=(Attacker(value=15, burst=2),))
    dodged = play_once(SYSTEM, scenario, faces=[9, 16, 17])  # the dodge's 9 against two failures
    cited = {step.rule: step.citation for step in dodged.trace}
    assert dodged.outcome == DODGED
    assert cited["Movement"] == CITE_DODGE_MOVE and cited["Final state"] == CITE_DODGE_MOVE
    guts = next(p for p in (SYSTEM.play(scenario, RandomRoller(seed)) for seed in range(1, 500))
                if any(step.rule == "Guts Roll" for step in p.trace))
    cited = {step.rule: step.citation for step in guts.trace}
    assert guts.hits > 0 and cited["Guts Roll"] == CITE_GUTS and cited["Final state"] == CITE_GUTS
