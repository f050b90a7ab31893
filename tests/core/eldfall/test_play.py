"""Eldfall Chronicles' rule on one concrete roll (``play.py``): worked examples on typed faces
(``play_once(..., faces=[...])``, in the order the rule asks for dice), which dice it asks for,
its trace, and the ``classify`` hints proven by enumerating without them."""

from __future__ import annotations

import pytest

from rules_core import DiceError, enumerate_play, get_system, play_once
from rules_core.play import Play
from rules_core.roller import RandomRoller
from rules_core.systems.eldfall import Attacker, Defender, EldfallScenario, SecondModel

SYSTEM = get_system("eldfall")


def preset(name: str) -> EldfallScenario:
    return SYSTEM.preset(name).scenario


def rolled(faces: list[int], scenario: EldfallScenario) -> Play:
    """The play on these faces (every face must be used)."""
    return play_once(SYSTEM, scenario, faces=faces)


def asked(p: Play) -> list[int]:
    """How many dice each request the rule made asked for, in order."""
    return [r.dice.count for r in p.rolled]


def test_dodge_ignores_plain_hits_but_not_criticals():
    s = EldfallScenario(attackers=(Attacker(value=10, stk=3, pw=12),), defender=Defender(ag=10, arm=2))
    # Attack dice 1 (Critical Hit), 4 and 9 (Hits); AG 10 succeeds; one damage roll, for the
    # Critical, of 12: a Wound, because a Critical Hit ignores ARM (12 <= PW 12).
    p = rolled([1, 4, 9, 10, 12], s)
    assert (p.evasions, p.hits, p["wounds"], p.outcome) == ((True,), 1, 1, "1 Wound")
    assert asked(p) == [3, 1, 1]
    # The same roll with a failed AG roll (11): three Hits land; damage 12 (Critical: Wound),
    # 10 and 11 against PW - ARM = 10: one more Wound.
    p = rolled([1, 4, 9, 11, 12, 10, 11], s)
    assert (p.evasions, p.hits, p["wounds"], p.outcome) == ((False,), 3, 2, "2 Wounds")
    assert asked(p) == [3, 1, 1, 2]


def test_burn_rides_on_the_hits_that_land():
    s = EldfallScenario(attackers=(Attacker(value=10, stk=2, pw=10, burn=2),),
                        defender=Defender(ag=10, arm=4))
    # Dodged plain Hits bring no Burn: attack 3 and 5, AG 2 succeeds: no damage dice at all.
    p = rolled([3, 5, 2], s)
    assert (p.hits, p["wounds"], p.outcome) == (0, 0, "No Hit lands") and asked(p) == [2, 1]
    # A Critical Hit through the Dodge wounds (face 9 <= PW 10) and sets off Burn (2): faces 10
    # and 11 at PW 10, ARM 0: one more Wound.
    p = rolled([1, 5, 2, 9, 10, 11], s)
    assert (p.hits, p["wounds"]) == (1, 2) and asked(p) == [2, 1, 1, 2]
    # No Wound, no Burn: the Critical's damage roll is 15.
    p = rolled([1, 5, 2, 15], s)
    assert (p["wounds"], p.outcome) == (0, "Hit(s) land, no Wound") and asked(p) == [2, 1, 1]


def test_ward_needs_no_roll_and_keeps_criticals():
    s = EldfallScenario(attackers=(Attacker(value=12, stk=2, pw=8, stagger=True),),
                        defender=Defender(arm=3, reaction="ward"))
    p = rolled([1, 7, 8], s)   # a Critical Hit and a Hit; one damage roll (Critical): 8 <= 8
    assert (p.evasions, p.hits, p["wounds"], p["ap_lost"]) == ((), 1, 1, 1)
    assert asked(p) == [2, 1]
    assert p["post_dodge_move"] == "No post-dodge move"


def test_barrier_takes_a_critical_first_then_is_gone():
    s = EldfallScenario(attackers=(Attacker(value=12, stk=2, pw=10), Attacker(value=12, stk=1, pw=10)),
                        defender=Defender(arm=4, reaction="none", barrier=True))
    # Attack 1: 7 and 1 -> the Barrier negates the Critical; the plain Hit's damage roll 6 <= 10 - 4.
    # Attack 2: 1 -> a Critical Hit lands (Barrier gone); damage 10 <= PW 10.
    p = rolled([7, 1, 6, 1, 10], s)
    assert (p.hits, p["wounds"]) == (2, 2)
    # A dodged Hit does not use the Barrier up: with a Dodge, attack 1 rolls 7 and 9, AG 3 dodges;
    # attack 2 rolls 5, AG 19 fails: the Barrier negates that Hit. Nothing lands.
    dodging = s.replace(defender=s.defender.replace(reaction="dodge", ag=10))
    p = rolled([7, 9, 3, 5, 19], dodging)
    assert (p.evasions, p.hits, p["wounds"]) == ((True, False), 0, 0)
    assert asked(p) == [2, 1, 1, 1]
    assert "negates one Hit" in "\n".join(map(str, p.trace))


def test_reacting_attacker_rolls_one_die():
    s = EldfallScenario(attackers=(Attacker(value=12, stk=5, reacting=True),), defender=Defender(ag=10))
    assert asked(rolled([15, 20], s)) == [1, 1]


def test_knockdown_and_stagger_spare_models_two_sizes_larger():
    attack = Attacker(value=12, stk=2, pw=0, stagger=True, knockdown=True, size=1)
    for size, expect in ((2, (2, True)), (3, (0, False))):
        s = EldfallScenario(attackers=(attack,), defender=Defender(reaction="none", size=size))
        p = rolled([3, 4, 20, 20], s)  # two Hits; damage can never wound (PW 0)
        assert (p["ap_lost"], p["knocked_down"], p.hits, p["wounds"]) == (*expect, 2, 0)


def test_sweep_hits_the_second_model_even_when_the_target_dodges():
    s = preset("sweep-one-dodges")
    # Attack 4 and 15: one Hit; AG 2 dodges it. The second model suffers a Hit: damage 8 <= 10 - 2.
    p = rolled([4, 15, 2, 8], s)
    assert (p.evasions, p.hits, p["second_model_hits"], p["second_model_wounds"]) == ((True,), 0, 1, 1)
    # A failed Attack roll sweeps nobody.
    p = rolled([13, 15, 2], s)
    assert (p["second_model_hits"], p["second_model_wounds"]) == (0, 0) and asked(p) == [2, 1]
    # Without Sweep the second model is not part of the play.
    plain = s.replace(attackers=[s.attackers[0].replace(sweep=False)])
    with pytest.raises(KeyError, match="second_model_hits"):
        rolled([4, 15, 2], plain)["second_model_hits"]


def test_sweep_hit_ruling():
    s = preset("sweep-one-dodges").replace(second_model=SecondModel(arm=9))
    # Attack 1 and 15: a Critical Hit on the target; AG 2 succeeds (the Critical still lands: its
    # damage roll 3 <= PW 10). The second model's damage roll is 5: plain (10 - 9 = 1): no Wound;
    # as a Critical Hit (ARM 0): a Wound.
    faces = [1, 15, 2, 3, 5]
    assert rolled(faces, s)["second_model_wounds"] == 0
    assert rolled(faces, s.replace(sweep_hit="critical"))["second_model_wounds"] == 1


def test_compared_ruling_on_concrete_rolls():
    s = EldfallScenario(attackers=(Attacker(value=12, stk=2, pw=0),), defender=Defender(ag=12),
                        dodge_resolution="compared")
    # Best non-Critical attack die 7: AG 7 ties (the dodger wins), AG 6 loses, AG 1 is a Critical
    # and beats every die. The Critical attack die (1) takes no part in the comparison.
    assert rolled([7, 3, 7], s).evasions == (True,)
    assert rolled([7, 3, 6, 20, 20], s).evasions == (False,)
    assert rolled([7, 1, 1, 20], s).evasions == (True,)
    assert rolled([1, 15, 2, 20], s).evasions == (True,)   # nothing to beat
    assert rolled([7, 3, 13, 20, 20], s).evasions == (False,)  # AG roll fails
    assert "compared with the best non-Critical attack die 7" in str(rolled([7, 3, 6, 20, 20], s).trace[1])
    # The default reading ignores the attack dice: AG 6 succeeds.
    assert rolled([7, 3, 6], s.replace(dodge_resolution="independent")).evasions == (True,)


def test_post_dodge_move_on_one_roll():
    s = preset("no-los")    # SPD 5
    assert rolled([13, 14, 3], s)["post_dodge_move"] == "May move up to 3″ and enter or cancel Crouched"
    seed = s.replace(post_dodge_move="seed")
    assert rolled([13, 14, 3], seed)["post_dodge_move"] == "May move up to 5″"
    assert rolled([13, 14, 7], seed)["post_dodge_move"] == "No post-dodge move"   # AG 11 halved to 6


def test_wrong_faces_are_a_clear_error():
    with pytest.raises(DiceError, match="only 1 face is left"):
        rolled([3], preset("dodge-vs-critical"))
    with pytest.raises(DiceError, match="face 21 is not on a d20"):
        rolled([21, 3, 3], preset("dodge-vs-critical"))
    with pytest.raises(DiceError, match="1 face left over"):
        rolled([13, 14, 3, 5], preset("dodge-vs-critical"))


def test_a_random_play_is_a_possible_play_with_a_cited_trace():
    s = EldfallScenario(attackers=(Attacker(value=12, stk=1, pw=12, sweep=True),),
                        defender=Defender(ag=9, arm=3, barrier=True))
    support = enumerate_play(SYSTEM, s)
    for seed in range(40):
        p = play_once(SYSTEM, s, seed=seed)
        assert p.bare() in support
        assert p.trace and all(step.citation for step in p.trace)
        assert len(p.rolled) >= 2 and p.rolled[0].dice.purpose == "Attack 1: attack dice"


def test_no_trace_when_the_roller_does_not_explain():
    class Quiet(RandomRoller):
        explain = False

    p = SYSTEM.play(preset("three-attackers-burn"), Quiet(3))
    assert p.trace == () and p.evasions and len(p.evasions) == 3
    house = preset("three-attackers-burn").set("variant.critical_face", 2)  # a house rule's own step too
    assert SYSTEM.play(house, RandomRoller(3)).trace[0].citation
    assert SYSTEM.play(house, Quiet(3)).trace == ()


def test_every_request_says_what_its_dice_are_for_and_the_damage_step_cites_its_rule():
    from rules_core.systems.eldfall.scenario import CITE_BURN, CITE_DAMAGE

    s = EldfallScenario(attackers=(Attacker(value=10, stk=3, pw=12),), defender=Defender(ag=10, arm=2))
    p = rolled([1, 4, 9, 11, 12, 10, 11], s)  # the Dodge fails: a Critical Hit and two Hits land
    assert [r.dice.purpose for r in p.rolled] == [
        "Attack 1: attack dice", "Attack 1: defender's AG roll",
        "Attack 1: damage rolls for Critical Hits", "Attack 1: damage rolls for Hits"]
    assert next(t for t in p.trace if t.rule == "Attack 1: damage").citation == CITE_DAMAGE
    # a pool's order does not matter: faces typed in any order are the same pool, shown sorted
    shuffled = rolled([9, 1, 4, 11, 12, 11, 10], s)
    assert next(t for t in shuffled.trace if t.rule == "Attack 1: Attack roll").detail.startswith("[1, 4, 9]")
    assert shuffled.outcome == p.outcome and shuffled.rolled[3].faces == (11, 10)
    assert shuffled.rolled[0].dice.answer(shuffled.rolled[0].faces) == (1, 4, 9)
    burning = EldfallScenario(attackers=(Attacker(value=10, stk=2, pw=10, burn=2),), defender=Defender(ag=10, arm=4))
    p = rolled([1, 5, 2, 9, 10, 11], burning)  # the Critical wounds and sets off Burn
    assert [r.dice.purpose for r in p.rolled][2:] == ["Attack 1: damage rolls for Critical Hits",
                                                      "Attack 1: Burn rolls"]
    assert next(t for t in p.trace if t.rule == "Attack 1: damage").citation == CITE_BURN


# -- the classify hints are true of the rule ----------------------------------------------------

HINTED = {
    "compared, two dice, Barrier, Stagger": EldfallScenario(
        attackers=(Attacker(value=12, stk=2, pw=12, stagger=True),), defender=Defender(ag=11, arm=2, barrier=True),
        dodge_resolution="compared", post_dodge_move="seed"),
    "two dice above 20 against Ward, Burn": EldfallScenario(
        attackers=(Attacker(value=21, stk=2, pw=9, burn=1),), defender=Defender(arm=2, reaction="ward")),
    "Sweep, critical ruling, no reaction": EldfallScenario(
        attackers=(Attacker(value=12, stk=1, pw=10, sweep=True, knockdown=True),),
        defender=Defender(arm=2, reaction="none"), second_model=SecondModel(arm=4), sweep_hit="critical"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(HINTED))
def test_classify_hints_change_nothing(name):
    s = HINTED[name]
    assert enumerate_play(SYSTEM, s) == enumerate_play(SYSTEM, s, classify=False)


def test_a_house_critical_range_counts_for_the_dodge_too():
    """With Criticals on 1 and 2 (a house rule), an AG roll of 2 is a Critical: under the compared
    reading it beats the best plain attack die (7) that a plain 2 would lose to."""
    s = EldfallScenario(attackers=(Attacker(value=12, stk=2, pw=0),), defender=Defender(ag=12),
                        dodge_resolution="compared")
    assert rolled([7, 3, 2, 20, 20], s).evasions == (False,)  # official: a plain 2 loses to 7
    assert rolled([7, 3, 2], s.set("variant.critical_face", 2)).evasions == (True,)


def test_ward_and_sweep_steps_cite_their_rules_and_say_what_the_second_model_suffers():
    from rules_core.systems.eldfall.scenario import CITE_SWEEP, CITE_WARD

    warded = rolled([1, 7, 8], EldfallScenario(attackers=(Attacker(value=12, stk=2, pw=8),),
                                               defender=Defender(arm=3, reaction="ward")))
    assert [t.citation for t in warded.trace if t.rule == "Attack 1: Ward"] == [CITE_WARD]
    s = preset("sweep-one-dodges").replace(second_model=SecondModel(arm=9))
    plain, critical = rolled([1, 15, 2, 3, 5], s), rolled([1, 15, 2, 3, 5], s.replace(sweep_hit="critical"))
    sweep = lambda p: next(t for t in p.trace if t.rule == "Attack 1: Sweep")  # noqa: E731
    assert sweep(plain).detail.endswith("the second model suffers a Hit") and sweep(plain).citation == CITE_SWEEP
    assert sweep(critical).detail.endswith("the second model suffers a Critical Hit")


def test_stagger_adds_up_over_the_attacks():
    attack = Attacker(value=12, stk=2, pw=0, stagger=True)
    s = EldfallScenario(attackers=(attack, attack), defender=Defender(reaction="none"))
    # Attack 1: two Hits (3, 4), damage 20 and 20 (PW 0: no Wound); attack 2: one Hit (5) and a miss.
    p = rolled([3, 4, 20, 20, 5, 15, 20], s)
    assert (p.hits, p["ap_lost"]) == (3, 3)
