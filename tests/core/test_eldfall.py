"""Eldfall Chronicles: the rule on single dice and on concrete rolls by hand, every preset against
fractions worked by hand, the `compared` ruling, the other rulings, notes, trace and errors."""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest

from rules_core import ScenarioError, evaluate, load_scenario
from rules_core.registry import get_system
from rules_core.systems.eldfall import (
    Attacker, Defender, EldfallScenario, SecondModel, attribute_roll, effects_apply,
    enumerate_rolls, fixed_dice, modified_attribute, outcome_label, resolve, roll_once,
    without_reaction, wounds_on)

SYSTEM = get_system("eldfall")


def preset(name: str) -> EldfallScenario:
    return SYSTEM.preset(name).scenario


def headline(name_or_scenario) -> dict:
    s = preset(name_or_scenario) if isinstance(name_or_scenario, str) else name_or_scenario
    return dict(evaluate(s).headline)


class Recorder:
    """Dice that give fixed faces and record which groups the rules asked for."""

    def __init__(self, faces):
        self.faces, self.asked = iter(faces), []

    def __call__(self, label, n):
        self.asked.append((label, n))
        return tuple(next(self.faces) for _ in range(n))


# -- single dice, from the rules text ----------------------------------------------------------------

@pytest.mark.parametrize("face, value, kind", [
    (1, 10, "critical"), (2, 10, "success"), (10, 10, "success"), (11, 10, "failure"),
    (20, 20, "success"), (20, 21, "critical"), (19, 21, "success"),   # above 20: a 20 is Critical
    (1, 1, "critical"), (2, 1, "failure"),
    (1, 0, "failure"), (1, -4, "failure"),                            # 0 or less: automatic failure
    (20, 30, "critical"), (1, 30, "critical"),
])
def test_attribute_roll_by_hand(face, value, kind):
    assert attribute_roll(face, value) == kind


def test_faces_out_of_range_are_refused():
    with pytest.raises(ValueError):
        attribute_roll(0, 10)
    with pytest.raises(ValueError):
        wounds_on(21, 10)


def test_halving_after_modifiers_rounds_up():
    assert modified_attribute(11, 0, halve=True) == 6     # 5.5 -> 6
    assert modified_attribute(12, -2, halve=True) == 5    # (12 - 2) / 2
    assert modified_attribute(9, 2, halve=True) == 6      # 11 / 2 = 5.5 -> 6, not 9/2 + 2 = 7
    assert modified_attribute(1, 0, halve=True) == 1
    assert modified_attribute(3, -6, halve=True) == -1    # still 0 or less: automatic failure
    assert modified_attribute(10, -3) == 7


def test_damage_rolls():
    assert wounds_on(8, 8) and not wounds_on(9, 8)
    assert not wounds_on(1, 0) and not wounds_on(1, -3)   # PW - ARM <= 0 never wounds
    assert wounds_on(20, 25)


def test_sizes_for_stagger_and_knockdown():
    assert effects_apply(2, 3)          # one Size larger: affected
    assert not effects_apply(2, 4)      # two Sizes larger: spared
    assert effects_apply(4, 1)


# -- concrete rolls, by hand --------------------------------------------------------------------------

def test_dodge_ignores_plain_hits_but_not_criticals():
    s = EldfallScenario(attackers=(Attacker(value=10, stk=3, pw=12),), defender=Defender(ag=10, arm=2))
    # Attack dice 1 (Critical Hit), 4 and 9 (Hits); AG 10 succeeds; one damage roll, for the
    # Critical, of 12: a Wound, because a Critical Hit ignores ARM (12 <= PW 12).
    dice = Recorder([1, 4, 9, 10, 12])
    r = resolve(s, dice)
    assert (r.dodges, r.hits, r.wounds) == ((True,), 1, 1)
    assert [n for _, n in dice.asked] == [3, 1, 1]
    # The same roll with a failed AG roll (11): three Hits land; damage 12 (Critical: Wound),
    # 10 and 11 against PW - ARM = 10: one more Wound.
    r = resolve(s, fixed_dice([1, 4, 9, 11, 12, 10, 11]))
    assert (r.dodges, r.hits, r.wounds) == ((False,), 3, 2)


def test_burn_rides_on_the_hits_that_land():
    s = EldfallScenario(attackers=(Attacker(value=10, stk=2, pw=10, burn=2),),
                        defender=Defender(ag=10, arm=4))
    # Dodged plain Hits bring no Burn: attack 3 and 5, AG 2 succeeds: no damage dice at all.
    dice = Recorder([3, 5, 2])
    r = resolve(s, dice)
    assert (r.hits, r.wounds) == (0, 0) and len(dice.asked) == 2
    # A Critical Hit through the Dodge wounds (face 9 <= PW 10) and sets off Burn (2): faces 10
    # and 11 at PW 10, ARM 0: one more Wound.
    r = resolve(s, fixed_dice([1, 5, 2, 9, 10, 11]))
    assert (r.hits, r.wounds) == (1, 2)
    # No Wound, no Burn: the Critical's damage roll is 15.
    dice = Recorder([1, 5, 2, 15])
    assert resolve(s, dice).wounds == 0 and len(dice.asked) == 3


def test_ward_needs_no_roll_and_keeps_criticals():
    s = EldfallScenario(attackers=(Attacker(value=12, stk=2, pw=8, stagger=True),),
                        defender=Defender(arm=3, reaction="ward"))
    dice = Recorder([1, 7, 8])   # a Critical Hit and a Hit; one damage roll (Critical): 8 <= 8
    r = resolve(s, dice)
    assert (r.dodges, r.hits, r.wounds, r.ap_lost) == ((), 1, 1, 1)
    assert [n for _, n in dice.asked] == [2, 1]


def test_barrier_takes_a_critical_first_then_is_gone():
    s = EldfallScenario(attackers=(Attacker(value=12, stk=2, pw=10), Attacker(value=12, stk=1, pw=10)),
                        defender=Defender(arm=4, reaction="none", barrier=True))
    # Attack 1: 7 and 1 -> the Barrier negates the Critical; the plain Hit's damage roll 6 <= 10 - 4.
    # Attack 2: 1 -> a Critical Hit lands (Barrier gone); damage 10 <= PW 10.
    r = resolve(s, fixed_dice([7, 1, 6, 1, 10]))
    assert (r.hits, r.wounds) == (2, 2)
    # A dodged Hit does not use the Barrier up: with a Dodge, attack 1 rolls 7 and 9, AG 3 dodges;
    # attack 2 rolls 5, AG 19 fails: the Barrier negates that Hit. Nothing lands.
    dodging = s.replace(defender=s.defender.replace(reaction="dodge", ag=10))
    dice = Recorder([7, 9, 3, 5, 19])
    r = resolve(dodging, dice)
    assert (r.dodges, r.hits, r.wounds) == ((True, False), 0, 0)
    assert len(dice.asked) == 4


def test_reacting_attacker_rolls_one_die():
    s = EldfallScenario(attackers=(Attacker(value=12, stk=5, reacting=True),), defender=Defender(ag=10))
    dice = Recorder([15, 20])
    resolve(s, dice)
    assert [n for _, n in dice.asked] == [1, 1]


def test_knockdown_and_stagger_spare_models_two_sizes_larger():
    attack = Attacker(value=12, stk=2, pw=0, stagger=True, knockdown=True, size=1)
    for size, expect in ((2, (2, True)), (3, (0, False))):
        s = EldfallScenario(attackers=(attack,), defender=Defender(reaction="none", size=size))
        r = resolve(s, fixed_dice([3, 4, 20, 20]))  # two Hits; damage can never wound (PW 0)
        assert (r.ap_lost, r.knocked_down) == expect and r.hits == 2 and r.wounds == 0


def test_sweep_hits_the_second_model_even_when_the_target_dodges():
    s = preset("sweep-one-dodges")
    # Attack 4 and 15: one Hit; AG 2 dodges it. The second model suffers a Hit: damage 8 <= 10 - 2.
    r = resolve(s, fixed_dice([4, 15, 2, 8]))
    assert (r.dodges, r.hits, r.second_hits, r.second_wounds) == ((True,), 0, 1, 1)
    # A failed Attack roll sweeps nobody.
    dice = Recorder([13, 15, 2])
    r = resolve(s, dice)
    assert (r.second_hits, r.second_wounds) == (0, 0) and len(dice.asked) == 2
    # Without Sweep the second model is not part of the outcome.
    plain = s.replace(attackers=[s.attackers[0].replace(sweep=False)])
    assert resolve(plain, fixed_dice([4, 15, 2])).second_hits is None


def test_sweep_hit_ruling():
    s = preset("sweep-one-dodges").replace(second_model=SecondModel(arm=9))
    # Attack 1 and 15: a Critical Hit on the target; AG 2 succeeds (the Critical still lands: its
    # damage roll 3 <= PW 10). The second model's damage roll is 5: plain (10 - 9 = 1): no Wound;
    # as a Critical Hit (ARM 0): a Wound.
    faces = [1, 15, 2, 3, 5]
    assert resolve(s, fixed_dice(faces)).second_wounds == 0
    assert resolve(s.replace(sweep_hit="critical"), fixed_dice(faces)).second_wounds == 1


def test_compared_ruling_on_concrete_rolls():
    s = EldfallScenario(attackers=(Attacker(value=12, stk=2, pw=0),), defender=Defender(ag=12),
                        dodge_resolution="compared")
    # Best non-Critical attack die 7: AG 7 ties (the dodger wins), AG 6 loses, AG 1 is a Critical
    # and beats every die. The Critical attack die (1) takes no part in the comparison.
    assert resolve(s, fixed_dice([7, 3, 7, 20, 20])).dodges == (True,)
    assert resolve(s, fixed_dice([7, 3, 6, 20, 20])).dodges == (False,)
    assert resolve(s, fixed_dice([7, 1, 1, 20])).dodges == (True,)
    assert resolve(s, fixed_dice([1, 15, 2, 20])).dodges == (True,)   # nothing to beat
    assert resolve(s, fixed_dice([7, 3, 13, 20, 20])).dodges == (False,)  # AG roll fails
    # The default reading ignores the attack dice: AG 6 succeeds.
    assert resolve(s.replace(dodge_resolution="independent"), fixed_dice([7, 3, 6, 20])).dodges == (True,)


def test_too_few_faces_is_a_clear_error():
    with pytest.raises(ValueError, match="not enough faces"):
        resolve(preset("dodge-vs-critical"), fixed_dice([3]))


def test_roll_once_gives_possible_outcomes_with_a_trace():
    s = EldfallScenario(attackers=(Attacker(value=12, stk=1, pw=12, sweep=True),),
                        defender=Defender(ag=9, arm=3, barrier=True))
    support = enumerate_rolls(s)
    rng = random.Random(5)
    for _ in range(40):
        r = roll_once(s, rng)
        assert r.summary() in support
        assert r.trace and all(step.citation for step in r.trace)


# -- presets, by hand -----------------------------------------------------------------------------

def test_preset_dodge_vs_critical():
    # OFF 10, STK 2, PW 12 vs AG 12, ARM 2. Per attack die: Critical Hit 1/20 (face 1), Hit 9/20
    # (faces 2..10), miss 10/20. The Dodge succeeds on 12/20 = 3/5.
    h = headline("dodge-vs-critical")
    assert h["p_dodge_succeeds"] == F(3, 5)
    # A die lands a Hit if Critical (1/20), or plain and the Dodge failed (9/20 * 2/5):
    # 2 * (1/20 + 18/100) = 2 * 23/100.
    assert h["expected_hits"] == F(23, 50)
    # No Hit: Dodge succeeds and no Critical (3/5 * (19/20)^2 = 1083/2000), or it fails and both
    # dice miss (2/5 * (1/2)^2 = 200/2000).
    assert h["p_no_hit"] == F(1283, 2000)
    # A Critical Hit wounds on PW 12 (ARM ignored): 12/20; a Hit on PW - ARM = 10: 10/20.
    # 2 * (1/20 * 3/5 + 9/20 * 2/5 * 1/2) = 2 * (3/100 + 9/100) = 24/100.
    assert h["expected_wounds"] == F(6, 25)
    # No Wound given success: (1 - 3/100)^2 = 9409/10000; given failure: (1 - 3/100 - 9/40)^2 =
    # (149/200)^2 = 22201/40000. 3/5 * 9409/10000 + 2/5 * 22201/40000 = 15731/20000.
    assert h["p_at_least_one_wound"] == F(4269, 20000)
    # Without the Dodge both dice land on 10/20: one Hit expected, the worth of the Dodge 27/50.
    assert evaluate(without_reaction(preset("dodge-vs-critical"))).headline["expected_hits"] == 1


def test_preset_sweep_one_dodges():
    # OFF 12, STK 2, PW 10, Sweep. Per die: Critical 1/20, Hit 11/20, miss 8/20. AG 10: 1/2.
    h = headline("sweep-one-dodges")
    assert h["p_dodge_succeeds"] == F(1, 2)
    assert h["expected_hits"] == 2 * (F(1, 20) + F(11, 20) * F(1, 2)) == F(13, 20)
    # No Hit: 1/2 * (19/20)^2 + 1/2 * (8/20)^2 = (361 + 64) / 800.
    assert h["p_no_hit"] == F(17, 32)
    # Wounds: Critical on PW 10 (1/2), Hit on 10 - 2 = 8 (2/5): 2 * (1/40 + 11/40 * 2/5) = 27/100.
    assert h["expected_wounds"] == F(27, 100)
    # No Wound: 1/2 * (39/40)^2 + 1/2 * (151/200)^2 = (38025 + 22801) / 80000 = 30413/40000.
    assert h["p_at_least_one_wound"] == F(9587, 40000)
    # The second model does not dodge: it suffers a Hit whenever the Attack roll succeeds,
    # 1 - (8/20)^2 = 21/25, and is wounded on 8/20: 21/25 * 2/5 = 42/125.
    r = evaluate(preset("sweep-one-dodges"))
    assert r.distributions["second_model_hits"][1] == F(21, 25)
    assert h["expected_second_model_wounds"] == F(42, 125)
    assert h["p_second_model_wounded"] == F(42, 125)


def test_presets_dodge_without_los():
    # ACC 12, STK 2, PW 12 vs ARM 3: per die Critical 1/20, Hit 11/20; Wound on 12/20 (Critical)
    # or 9/20 (Hit).
    # Without LoS AG 11 is halved, rounding up, to 6: the Dodge succeeds on 6/20.
    h = headline("no-los")
    assert h["p_dodge_succeeds"] == F(3, 10)
    assert h["expected_hits"] == 2 * (F(1, 20) + F(11, 20) * F(7, 10)) == F(87, 100)
    assert h["p_no_hit"] == (3 * F(361, 400) + 7 * F(64, 400)) / 10 == F(1531, 4000)
    assert h["expected_wounds"] == 2 * (F(3, 100) + F(11, 20) * F(7, 10) * F(9, 20)) == F(813, 2000)
    # With Acute Senses AG stays 11.
    h = headline("no-los-acute-senses")
    assert h["p_dodge_succeeds"] == F(11, 20)
    assert h["expected_hits"] == 2 * (F(1, 20) + F(11, 20) * F(9, 20)) == F(119, 200)
    assert h["expected_wounds"] == 2 * (F(3, 100) + F(11, 20) * F(9, 20) * F(9, 20)) == F(1131, 4000)


def test_preset_ward_vs_burn():
    # Only Critical Hits land (1/20 per die); one wounds on PW 12 (3/5); Burn (1) at PW 12, ARM 0.
    h = headline("ward-vs-burn")
    assert h["p_dodge_succeeds"] is None
    assert h["p_no_hit"] == F(361, 400) and h["expected_hits"] == F(1, 10)
    # P(a die wounds) = 1/20 * 3/5 = 3/100; P(at least one Wound) = 1 - (97/100)^2 = 591/10000.
    assert h["p_at_least_one_wound"] == F(591, 10000)
    # E = 2 * 3/100 + 591/10000 * 3/5 = 600/10000 + 1773/50000 = 4773/50000.
    assert h["expected_wounds"] == F(4773, 50000)


def test_preset_protective_barrier():
    # OFF 12, STK 2: per die success 12/20 (1/20 Critical). The Barrier negates one Hit.
    h = headline("protective-barrier")
    # E[Hits] = E[successes] - P(at least one) = 6/5 - (1 - (2/5)^2) = 30/25 - 21/25.
    assert h["expected_hits"] == F(9, 25)
    # No Hit: at most one success: (2/5)^2 + 2 * 3/5 * 2/5 = 16/25.
    assert h["p_no_hit"] == F(16, 25)
    # Two successes leave one Hit: Critical+Critical (1/400) leaves a Critical (Wound on PW 10,
    # 1/2); Critical+Hit (22/400) and Hit+Hit (121/400) leave a Hit (Wound on 10 - 4 = 6: 3/10).
    # (1/2 + 143 * 3/10) / 400 = 434/4000.
    assert h["expected_wounds"] == F(217, 2000) == h["p_at_least_one_wound"]


def test_preset_three_attackers_with_burn():
    # Three Attacks of ACC 12, STK 4, PW 12, Burn (2) vs AG 11, ARM 3: one AG roll each, 11/20.
    h = headline("three-attackers-burn")
    assert h["p_dodge_succeeds"] == F(11, 20) ** 3
    # Each die lands on 1/20 + 11/20 * 9/20 = 119/400.
    assert h["expected_hits"] == 12 * F(119, 400)
    # Per Attack: base Wounds 4 * (1/20 * 3/5 + 11/20 * 9/20 * 9/20); the four dice share the
    # AG roll, so P(no base Wound) = 11/20 * (97/100)^4 + 9/20 * (1 - 3/100 - 99/400)^4; Burn adds
    # 2 * 3/5 whenever a base Wound fell.
    base = 4 * (F(3, 100) + F(11, 20) * F(9, 20) * F(9, 20))
    none = F(11, 20) * F(97, 100) ** 4 + F(9, 20) * F(289, 400) ** 4
    assert h["expected_wounds"] == 3 * (base + (1 - none) * 2 * F(3, 5))
    # No Wound at all needs no base Wound in any Attack.
    assert h["p_at_least_one_wound"] == 1 - none ** 3


# -- the compared ruling, separately ---------------------------------------------------------------

def test_compared_ruling_exact():
    s = EldfallScenario(attackers=(Attacker(value=10, stk=1, pw=12),), defender=Defender(ag=10, arm=2),
                        dodge_resolution="compared")
    h = headline(s)
    # AG face g: 1 is a Critical (always dodges: 1/20). g in 2..10 dodges unless the attack die is
    # a Hit above g: P = (10 + g)/20; sum over g = 2..10 of (10 + g) = 144. 20/400 + 144/400.
    assert h["p_dodge_succeeds"] == F(164, 400) == F(41, 100)
    # The Critical lands (1/20); a Hit on face f in 2..10 lands if the AG roll fails (10/20) or is a
    # non-Critical success below f ((f - 2)/20): sum over f of (8 + f) = 126.
    assert h["expected_hits"] == F(20, 400) + F(126, 400) == F(73, 200)
    # Independent reading of the same scenario: 1/2, and 1/20 + 9/20 * 1/2 = 11/40 Hits.
    h = headline(s.replace(dodge_resolution="independent"))
    assert h["p_dodge_succeeds"] == F(1, 2) and h["expected_hits"] == F(11, 40)


def test_compared_never_helps_the_dodger():
    for value in (1, 8, 14, 21, 26):
        for ag in (0, 3, 10, 19, 22):
            s = EldfallScenario(attackers=(Attacker(value=value, stk=3, pw=11),),
                                defender=Defender(ag=ag, arm=2))
            ind = evaluate(s).headline
            cmp = evaluate(s.replace(dodge_resolution="compared")).headline
            assert cmp["p_dodge_succeeds"] <= ind["p_dodge_succeeds"]
            assert cmp["expected_hits"] >= ind["expected_hits"]
            # Equal exactly when the attack can have no non-Critical success to beat
            # (value 1: only a 1 succeeds, and it is a Critical), or the AG roll cannot succeed.
            if value == 1 or ag == 0:
                assert cmp == ind


# -- other rulings, notes and the trace ----------------------------------------------------------------

def test_post_dodge_movement_ruling():
    s = preset("no-los")  # SPD 5
    r = evaluate(s)
    assert r.distributions["post_dodge_move"] == load_dist_certain(
        "May move up to 3″ and enter or cancel Crouched")            # half of 5, rounded up
    seed = evaluate(s.replace(post_dodge_move="seed"))
    assert seed.distributions["post_dodge_move"]["May move up to 5″"] == F(3, 10)  # = P(dodge)
    two = s.replace(post_dodge_move="seed", attackers=[s.attackers[0]] * 2)
    # One move for the Resolution Step when any of the two AG rolls succeeds: 1 - (7/10)^2.
    assert evaluate(two).distributions["post_dodge_move"]["May move up to 5″"] == F(51, 100)
    ward = evaluate(preset("ward-vs-burn"))
    assert ward.distributions["post_dodge_move"] == load_dist_certain("No post-dodge move")


def load_dist_certain(label):
    from rules_core import Dist
    return Dist.certain(label)


def test_nulls_carry_notes():
    r = evaluate(preset("ward-vs-burn"))
    assert r.headline["p_dodge_succeeds"] is None and "Ward" in r.notes["p_dodge_succeeds"]
    assert r.headline["expected_second_model_wounds"] is None and "Sweep" in r.notes["expected_second_model_wounds"]
    r = evaluate(preset("protective-barrier"))
    assert "does not react" in r.notes["p_dodge_succeeds"]
    zero = preset("dodge-vs-critical").replace(defender=Defender(ag=1, ag_mod=-1))
    r = evaluate(zero)
    assert r.headline["p_dodge_succeeds"] == 0 and "automatically" in r.notes["p_dodge_succeeds"]


def test_outcome_table_rows():
    r = evaluate(preset("dodge-vs-critical"))
    assert r.outcome_order == ("No Hit lands", "Hit(s) land, no Wound", "1 Wound", "2 Wounds")
    rows = dict(r.outcome_rows())
    assert rows["No Hit lands"] == F(1283, 2000)
    assert rows["Hit(s) land, no Wound"] == F(15731, 20000) - F(1283, 2000)
    assert sum(rows.values()) == 1
    assert outcome_label(0, 0) == "No Hit lands" and outcome_label(3, 1) == "1 Wound"


def test_stagger_and_knockdown_quantities():
    s = EldfallScenario(attackers=(Attacker(value=10, stk=2, pw=12, stagger=True, knockdown=True),),
                        defender=Defender(ag=12, arm=2))
    h = headline(s)
    # AP lost = landing Hits: as expected_hits of the dodge-vs-critical preset, 23/50.
    assert h["expected_stagger"] == h["expected_hits"] == F(23, 50)
    assert h["p_knocked_down"] == 1 - h["p_no_hit"] == 1 - F(1283, 2000)
    big = headline(s.replace(defender=s.defender.replace(size=4)))
    assert big["expected_stagger"] == 0 and big["p_knocked_down"] == 0


def test_trace_records_rulings_and_cites_every_step():
    r = evaluate(preset("no-los").replace(dodge_resolution="compared"))
    text = "\n".join(map(str, r.trace))
    assert "compared" in text and "halved" in text and "11 → 6" in text
    assert all(step.citation for step in r.trace)
    text = "\n".join(map(str, evaluate(preset("no-los-acute-senses")).trace))
    assert "Acute Senses" in text
    text = "\n".join(map(str, evaluate(preset("sweep-one-dodges")).trace))
    assert "second model" in text and "post-dodge movement" in text
    text = "\n".join(map(str, evaluate(preset("protective-barrier")).trace))
    assert "Protective Barrier" in text and "No reaction" in text


def test_system_declares_its_headlines_and_rulings():
    assert {f.name for f in SYSTEM.rulings()} == {"dodge_resolution", "post_dodge_move", "sweep_hit"}
    assert SYSTEM.presets[0].name == "dodge-vs-critical"
    r = evaluate(SYSTEM.default_scenario())
    for key in ("expected_wounds", "p_at_least_one_wound", *SYSTEM.headlines):
        assert key in r.headline


# -- errors ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("data, message", [
    ({"attackers": [{"stk": 7}]}, "field 'attackers.0.stk': got 7; allowed: a whole number from 1 to 6"),
    ({"attackers": [{"cover": "partial"}]}, "field 'attackers.0.cover': got 'partial'; allowed: one of 'none', 'light', 'heavy'"),
    ({"defender": {"reaction": "parry"}}, "field 'defender.reaction': got 'parry'; allowed: one of 'dodge', 'ward', 'none'"),
    ({"defender": {"ag": -1}}, "field 'defender.ag': got -1; allowed: a whole number from 0 to 30"),
    ({"attackers": []}, "field 'attackers': got []; allowed: a list of 1 to 4"),
    ({"attackers": [{}] * 5}, "field 'attackers'"),
    ({"dodge_resolution": "opposed"}, "field 'dodge_resolution': got 'opposed'; allowed: one of 'independent', 'compared'"),
    ({"second_model": {"ag": 3}}, "field 'second_model.ag': got 3; allowed: no such field; known fields: arm, size"),
    ({"attackers": [{"burn": "two"}]}, "field 'attackers.0.burn'"),
    ({"attackers": [{"los": "maybe"}]}, "field 'attackers.0.los'"),
])
def test_bad_input_names_the_field(data, message):
    with pytest.raises(ScenarioError) as err:
        load_scenario({"system": "eldfall", **data})
    assert message in str(err.value)
