"""The Guts Roll and the final states of the Order: each requirement that blocks the roll, the
owner's choice to fail it, the order of the fallbacks, and the movement after a dodge."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules_core import ScenarioError, evaluate, get_system, load_scenario, play_once
from rules_core.systems.infinity_n4.outcomes import (
    HIT_NO_EFFECT, HIT_NO_GUTS, HIT_PASSES, NULL_STATE, UNHARMED_STAYS, guts_failed_label)
from rules_core.systems.infinity_n4.play import plan_order
from rules_core.systems.infinity_n4.scenario import Attacker, Dodger, Guts, InfinityScenario, Template

SYSTEM = get_system("infinity-n4")

HALF, P_WOUND = Fraction(10, 20), Fraction(12, 20)  # PH 10 Normal Roll; DAM 13 − ARM 1


def template_order(**changes) -> InfinityScenario:
    """A Direct Template against a PH 10, ARM 1, W 1, WIP 11 trooper; nobody else attacks.
    By hand: the dodge die succeeds on 1..10 (1/2); a hit wounds on 1..12 (12/20) and a
    wound is Null; a Guts Roll passes on 1..11 (11/20)."""
    base = dict(dodger=Dodger(ph=10, arm=1, wounds=1, wip=11),
                attackers=(Attacker(attacks=False),), template=Template(kind="direct", damage=13))
    return InfinityScenario(**{**base, **changes})


def final(scenario: InfinityScenario):
    return evaluate(scenario).distributions["final state"]


def test_guts_by_hand():
    scenario = template_order()
    states = final(scenario)
    alive_hit = HALF * (1 - P_WOUND)                       # 1/2 · 8/20 = 1/5
    assert states[HIT_PASSES] == alive_hit * Fraction(11, 20) == Fraction(11, 100)
    assert states[guts_failed_label(scenario)] == alive_hit * Fraction(9, 20) == Fraction(9, 100)
    assert states[NULL_STATE] == HALF * P_WOUND == Fraction(3, 10)
    assert states['Unharmed, dodged everything: moves up to 2"'] == HALF
    result = evaluate(scenario)
    assert result.headline["p_guts_fails"] == Fraction(9, 100)
    assert result.headline["p_null"] == Fraction(3, 10)


def test_no_guts_roll_without_a_successful_attack():
    # An attacker of SV 0 never succeeds: the dodger is never hit, so never rolls Guts.
    scenario = InfinityScenario(dodger=Dodger(ph=10), attackers=(Attacker(value=0),))
    states = final(scenario)
    assert states[HIT_PASSES] == states[guts_failed_label(scenario)] == 0
    assert states['Unharmed, dodged everything: moves up to 2"'] + states[UNHARMED_STAYS] == 1


def test_no_guts_roll_after_an_attack_without_damage_or_state():
    # Smoke-like: DAM 0 and no State. Hit trooper stands; no wounds.
    scenario = template_order(template=Template(kind="direct", damage=0))
    states = final(scenario)
    assert states[HIT_NO_EFFECT] == HALF
    assert states[HIT_PASSES] == states[guts_failed_label(scenario)] == 0
    assert evaluate(scenario).headline["expected_wounds"] == 0


def test_a_state_without_damage_does_cause_a_guts_roll():
    scenario = template_order(template=Template(kind="direct", damage=0, inflicts_state=True))
    states = final(scenario)
    assert states[HIT_PASSES] == HALF * Fraction(11, 20)
    assert states[guts_failed_label(scenario)] == HALF * Fraction(9, 20)
    assert states[NULL_STATE] == 0


def test_no_guts_roll_when_engaged():
    scenario = template_order(dodger=Dodger(ph=10, arm=1, wip=11, engaged=True))
    states = final(scenario)
    assert states[HIT_NO_GUTS] == HALF * (1 - P_WOUND)
    assert evaluate(scenario).headline["p_guts_fails"] == 0


def test_a_close_combat_attacker_makes_the_dodger_engaged():
    scenario = InfinityScenario(dodger=Dodger(ph=10, arm=1, wip=11),
                                attackers=(Attacker(attribute="CC", value=14, burst=1),))
    assert plan_order(scenario).engaged
    result = evaluate(scenario)
    assert result.headline["p_guts_fails"] == 0
    assert result.distributions["final state"][HIT_NO_GUTS] > 0
    # A dodge that succeeds against it moves away: Engaged is cancelled.
    assert 'Unharmed, dodged everything: moves up to 2" (cancels Engaged)' in \
        result.distributions["final state"]


def test_no_guts_roll_when_immobilized_and_a_successful_dodge_cancels_imm_a():
    scenario = template_order(dodger=Dodger(ph=10, arm=1, wip=11, immobilized="IMM-A"))
    states = final(scenario)
    assert states[HIT_NO_GUTS] == HALF * (1 - P_WOUND)
    assert states['Unharmed, dodged everything: moves up to 2" (cancels IMM-A)'] == HALF


def test_imm_b_cannot_dodge_but_is_still_blocked_from_guts():
    with pytest.raises(ScenarioError, match=r"'dodger\.dodges' = True: a trooper in IMM-B cannot Dodge"):
        load_scenario({"system": "infinity-n4", "dodger": {"immobilized": "IMM-B"}})
    scenario = template_order(dodger=Dodger(arm=1, wip=11, immobilized="IMM-B", dodges=False))
    states = final(scenario)
    assert states[HIT_NO_GUTS] == 1 - P_WOUND and states[NULL_STATE] == P_WOUND


def test_no_guts_roll_when_null():
    # DAM 20 against ARM 0: every Saving Roll is a wound, every hit leaves W 1 Null.
    scenario = template_order(dodger=Dodger(ph=10, arm=0, wip=11),
                              template=Template(kind="direct", damage=20))
    states = final(scenario)
    assert states[NULL_STATE] == HALF
    assert states[HIT_PASSES] == states[guts_failed_label(scenario)] == 0


def test_the_owner_may_choose_to_fail():
    scenario = template_order(guts=Guts(decision="fail"))
    result = evaluate(scenario)
    assert result.headline["p_guts_fails"] == HALF * (1 - P_WOUND)
    assert result.distributions["final state"][HIT_PASSES] == 0


@pytest.mark.parametrize("can_leave, can_cover, words", [
    (True, True, "out of the attackers' LoF"), (True, False, "out of the attackers' LoF"),
    (False, True, "into cover"), (False, False, "goes Prone")])
def test_the_first_possible_fallback(can_leave, can_cover, words):
    scenario = template_order(guts=Guts(can_leave=can_leave, can_cover=can_cover))
    label = guts_failed_label(scenario)
    assert words in label
    assert final(scenario)[label] == Fraction(9, 100)
    # The same label on concrete faces: dodge 15 fails, save 18 passes, Guts die 17 fails.
    assert play_once(SYSTEM, scenario, faces=[15, 18, 17])["final state"] == label


def test_a_dodger_that_fails_against_anything_does_not_move():
    # Attacker of SV 0 (never hits) plus a mine at SV 4 (stacking): a die of 5..10 beats the
    # attacker but fails the mine: hit by the mine, no movement.
    scenario = InfinityScenario(dodger=Dodger(ph=10, arm=1, wounds=2), minus_three="stacking",
                                attackers=(Attacker(value=0, burst=1),),
                                template=Template(kind="deployable", lof=False))
    outcome = play_once(SYSTEM, scenario, faces=[7, 1, 20, 3])  # dodge 7, attacker 1 fails; save 20; Guts 3
    assert outcome.evasions == (True, False) and outcome.dodged is False
    assert outcome["final state"] == HIT_PASSES
    states = final(scenario)
    assert states['Unharmed, dodged everything: moves up to 2"'] == Fraction(4, 20)


@pytest.mark.parametrize("plan, engaged, label", [
    ("move", False, 'Unharmed, dodged everything: moves up to 2"'),
    ("engage", False, "Unharmed, dodged everything: moves into contact, Engaged"),
    ("stay", True, "Unharmed, dodged everything: stays"),
    ("engage", True, "Unharmed, dodged everything: moves into contact, Engaged"),
])
def test_movement_after_a_successful_dodge(plan, engaged, label):
    scenario = template_order(after_dodge=plan, dodger=Dodger(ph=10, arm=1, wip=11, engaged=engaged))
    assert final(scenario)[label] == HALF
