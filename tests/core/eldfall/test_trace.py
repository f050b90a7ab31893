"""Eldfall, the result's trace read line by line: each rule applied to the scenario in the
rulebook's words, with its citation — the attack roll (STK, reacting, cover), the Dodge (halved
without LoS, the compared ruling), damage (PW − ARM, a Critical ignores ARM), Stagger and
Knockdown against a larger model, Sweep, Burn, Ward, Protective Barrier and the rulings. Every
number is worked by hand in the comments."""

from __future__ import annotations

from rules_core import evaluate, find_preset, get_system, play_once
from rules_core.systems.eldfall import EldfallScenario
from rules_core.systems.eldfall.scenario import (CITE_ATTACK, CITE_BARRIER, CITE_BURN, CITE_CONFRONTATION,
                                                 CITE_COVER, CITE_DAMAGE, CITE_DODGE, CITE_DODGE_LOS,
                                                 CITE_MOVE_RULEBOOK, CITE_MOVE_SEED, CITE_ROLLS, CITE_STAGGER,
                                                 CITE_SWEEP, CITE_WARD, Attacker, Defender, SecondModel)

ATTRIBUTE_ROLLS = ("Attribute rolls", "d20 roll-under the modified attribute; a 1 is a Critical, above 20 a 20 "
                   "is too; at 0 or less an automatic failure; halving after the other modifiers, rounding up",
                   CITE_ROLLS)
DODGE_EFFECT = ("; a success ignores the Attack's non-Critical Hits and their effects, Critical Hits resolve "
                "normally")
RULEBOOK_MOVE = ("Ruling: post-dodge movement", "rulebook — may move up to half SPD rounded up, even after a "
                 "failed roll, and enter or cancel Crouched", CITE_MOVE_RULEBOOK)
INDEPENDENT = ("Ruling: Dodge resolution", "independent — a plain AG roll per enemy Attack", CITE_DODGE)


def lines(scenario: EldfallScenario) -> list[tuple[str, str, str]]:
    return [(s.rule, s.detail, s.citation) for s in evaluate(scenario).trace]


def test_two_attacks_against_a_larger_dodger_behind_a_barrier():
    scenario = EldfallScenario(
        attackers=(Attacker(attribute="OFF", value=13, mod=-1, cover="light", reacting=True, pw=3, stagger=True,
                            knockdown=True, size=1, sweep=True),
                   Attacker(attribute="ACC", value=3, mod=-3, los=False, stk=3, pw=9, knockdown=True, size=2)),
        defender=Defender(ag=9, ag_mod=-2, arm=4, size=3, barrier=True),
        second_model=SecondModel(arm=5), dodge_resolution="compared", post_dodge_move="seed", sweep_hit="critical")
    said = lines(scenario)
    # Attack 2's roll at 0 or less is an automatic failure (p.15).
    attack_2 = said.pop(7)
    assert attack_2[0] == "Attack 2" and attack_2[1].startswith("3 dice against ACC 3, modifiers -3 → 0: ")
    assert attack_2[1].endswith(" (automatic failure)") and attack_2[2] == CITE_ATTACK
    assert said == [
        ATTRIBUTE_ROLLS,
        # Reacting: STK 1. OFF 13 − 1, light cover − 2 → 10: a 1 is a Critical, 2-10 a Hit.
        ("Attack 1", "1 die (reacting: STK 1) against OFF 13, modifiers -1, cover -2 → 10: per die a Critical Hit "
                     "1/20 (5.0%), a Hit 9/20 (45.0%)", CITE_COVER),
        # Compared: AG 7; a 1 always passes (20/400); an AG roll r of 2-7 must also be at least the
        # attack die when that is a non-Critical Hit (r+1..10 beat it): (10 + r)/20 each, 87/400 in
        # all; 107/400.
        ("Dodge against Attack 1", "one AG roll against 7; it succeeds with probability 107/400 (26.8%)"
         + DODGE_EFFECT, CITE_DODGE),
        ("Damage from Attack 1", "one d20 per Hit that lands: a Wound on 0 face(s) (PW 3 − ARM 4); a Critical Hit "
                                 "ignores ARM: 3 face(s) — PW − ARM is 0 or less: a Hit never wounds", CITE_DAMAGE),
        # Size 3 against Size 1: two Sizes larger, untouched by Stagger and Knockdown.
        ("Stagger on Attack 1", "no effect: the defender (Size 3) is two or more Sizes larger than the attacker "
                                "(Size 1)", CITE_STAGGER),
        ("Knockdown on Attack 1", "no effect: the defender (Size 3) is two or more Sizes larger than the attacker "
                                  "(Size 1)", CITE_STAGGER),
        ("Sweep on Attack 1", "on a successful Attack roll the second model suffers a Hit (a Critical Hit when the "
                              "roll had a Critical) and rolls its own damage (ARM 5); it does not dodge, and the "
                              "defender's Dodge does not protect it", CITE_SWEEP),
        # No LoS: AG 9 − 2 = 7 halved, rounding up, to 4; the attack never succeeds, so 4 of 20 pass.
        ("Dodge against Attack 2: no LoS", "halved (rounding up) without LoS: 7 → 4", CITE_DODGE_LOS),
        ("Dodge against Attack 2", "one AG roll against 4; it succeeds with probability 1/5 (20.0%)" + DODGE_EFFECT,
         CITE_DODGE),
        ("Damage from Attack 2", "one d20 per Hit that lands: a Wound on 5 face(s) (PW 9 − ARM 4); a Critical Hit "
                                 "ignores ARM: 9 face(s)", CITE_DAMAGE),
        # Size 3 against Size 2: one Size larger, knocked down.
        ("Knockdown on Attack 2", "a landing Hit makes the defender Crouched", CITE_STAGGER),
        ("Ruling: Dodge resolution", "compared — the AG roll must also be at least the attacker's best non-Critical "
                                     "successful die; Critical attack dice take no part, a tie goes to the dodger, a "
                                     "Critical AG roll beats every die", CITE_CONFRONTATION),
        ("Several attacking models", "one AG roll per enemy Attack, each with its own LoS", CITE_DODGE),
        ("Ruling: post-dodge movement", "seed — may move up to full SPD, optionally, after a successful Dodge (one "
                                        "move for the Resolution Step if any AG roll succeeded)", CITE_MOVE_SEED),
        ("Protective Barrier", "negates the first Hit still landing after the reaction, in Attack order, a Critical "
                               "Hit first within an Attack; a dodged Hit does not use it up", CITE_BARRIER),
    ]


def test_stagger_on_a_model_not_two_sizes_larger_a_dodge_at_zero_and_pw_equal_to_arm():
    scenario = EldfallScenario(attackers=(Attacker(cover="heavy", stagger=True, size=2, pw=2),),
                               defender=Defender(ag=1, ag_mod=-1, size=3))
    said = lines(scenario)
    # OFF 12, heavy cover − 4 → 8: a 1 is a Critical, 2-8 a Hit; two dice (STK 2).
    assert said[1] == ("Attack 1", "2 dice against OFF 12, modifiers +0, cover -4 → 8: per die a Critical Hit 1/20 "
                                   "(5.0%), a Hit 7/20 (35.0%)", CITE_COVER)
    # AG 1 − 1 = 0: an automatic failure, even on a 1.
    assert said[2][1].startswith("one AG roll against 0; ") and " (automatic failure); " in said[2][1]
    # PW 2 against ARM 2: 0 or less, no Wound but from a Critical Hit (PW 2: faces 1-2).
    assert said[3] == ("Damage from Attack 1", "one d20 per Hit that lands: a Wound on 0 face(s) (PW 2 − ARM 2); "
                       "a Critical Hit ignores ARM: 2 face(s) — PW − ARM is 0 or less: a Hit never wounds", CITE_DAMAGE)
    assert ("Stagger on Attack 1", "−1 AP per landing Hit", CITE_STAGGER) in said
    assert said[-2:] == [INDEPENDENT, RULEBOOK_MOVE]


def test_burn_ward_acute_senses_and_no_reaction_in_the_presets():
    ward = lines(find_preset("eldfall/ward-vs-burn").scenario)
    assert ward == [
        ATTRIBUTE_ROLLS,
        ("Attack 1", "2 dice against ACC 12, modifiers +0 → 12: per die a Critical Hit 1/20 (5.0%), a Hit 11/20 "
                     "(55.0%)", CITE_ATTACK),
        ("Damage from Attack 1", "one d20 per Hit that lands: a Wound on 10 face(s) (PW 12 − ARM 2); a Critical Hit "
                                 "ignores ARM: 12 face(s)", CITE_DAMAGE),
        ("Burn (1) on Attack 1", "after at least one Wound from this Attack's landing Hits, 1 more damage roll(s) at "
                                 "PW 12, ARM 0; Burn does not trigger itself again", CITE_BURN),
        ("Ward", "already cast, no roll: every Attack's non-Critical Hits and their effects (Burn, Stagger, "
                 "Knockdown) are ignored; Critical Hits resolve normally", CITE_WARD)]
    acute = lines(find_preset("eldfall/no-los-acute-senses").scenario)
    assert ("Dodge against Attack 1: no LoS", "not halved: Acute Senses", CITE_DODGE_LOS) in acute
    assert acute[-2:] == [INDEPENDENT, RULEBOOK_MOVE]
    barrier = lines(find_preset("eldfall/protective-barrier").scenario)
    assert ("No reaction", "every Hit resolves normally", CITE_ATTACK) in barrier


# -- one roll, step by step, on typed faces ---------------------------------------------------------

def played(scenario: EldfallScenario, faces: list[int]):
    return play_once(get_system("eldfall"), scenario, faces=faces)


def steps(p) -> list[tuple[str, str]]:
    return [(s.rule, s.detail) for s in p.trace]


def test_a_compared_dodge_lost_to_a_higher_die_then_the_barrier_burn_and_a_critical_sweep():
    scenario = EldfallScenario(attackers=(Attacker(burn=1, sweep=True),), defender=Defender(barrier=True),
                               dodge_resolution="compared", sweep_hit="critical")
    # OFF 12: 1 is a Critical, 7 a Hit. AG 10 rolls 5: a success, but under the best non-Critical
    # die 7, so the Dodge fails. The Barrier takes the Critical first. The Hit's damage roll 3 wounds
    # (PW 12 − ARM 2 = 10); Burn rolls 15 (no Wound at PW 12). Sweep: a Critical on the second model
    # (ignores ARM: 11 ≤ 12 wounds), then its Burn 2 wounds again.
    p = played(scenario, [1, 7, 5, 3, 15, 11, 2])
    assert steps(p) == [
        ("Attack 1: Attack roll", "[1, 7] against OFF 12 → 1 Critical Hit(s), 1 Hit(s)"),
        ("Attack 1: Dodge", "AG roll 5 against 10: success; compared with the best non-Critical attack die 7 → the "
                            "Dodge fails"),
        ("Attack 1: Protective Barrier", "negates one Critical Hit and is removed"),
        ("Attack 1: damage", "rolled [3] for Hits (Wound on 10 or less); [15] for Burn (Wound on 12 or less) → "
                             "1 Wound(s)"),
        ("Attack 1: Sweep", "the Attack roll succeeded: the second model suffers a Critical Hit"),
        ("Attack 1: Sweep on the second model: damage", "rolled [11] for Critical Hits (Wound on 12 or less); [2] "
                                                        "for Burn (Wound on 12 or less) → 2 Wound(s), 1 of them from "
                                                        "Burn")]
    assert [s.citation for s in p.trace] == [CITE_ATTACK, CITE_DODGE, CITE_BARRIER, CITE_BURN, CITE_SWEEP, CITE_BURN]
    assert (p.hits, p["wounds"], p["second_model_hits"], p["second_model_wounds"]) == (1, 1, 1, 2)


def test_a_tie_goes_to_the_dodger_and_a_failed_dodge_lets_stagger_and_knockdown_through():
    scenario = EldfallScenario(attackers=(Attacker(), Attacker(stagger=True, knockdown=True)),
                               dodge_resolution="compared")
    # Attack 1: 8 is a Hit, 20 a miss; AG roll 8 ties the best die 8: the dodger wins the tie.
    # Attack 2: two Hits; AG 15 fails; damage 1 wounds, 11 does not (PW 12 − ARM 2 = 10).
    p = played(scenario, [8, 20, 8, 4, 6, 15, 1, 11])
    assert steps(p) == [
        ("Attack 1: Attack roll", "[8, 20] against OFF 12 → 0 Critical Hit(s), 1 Hit(s)"),
        ("Attack 1: Dodge", "AG roll 8 against 10: success; compared with the best non-Critical attack die 8 → the "
                            "Dodge succeeds: non-Critical Hits and their effects are ignored"),
        ("Attack 2: Attack roll", "[4, 6] against OFF 12 → 0 Critical Hit(s), 2 Hit(s)"),
        ("Attack 2: Dodge", "AG roll 15 against 10: failure → the Dodge fails"),
        ("Attack 2: damage", "rolled [1, 11] for Hits (Wound on 10 or less) → 1 Wound(s)")]
    assert p["wounds"] == 1 and p["ap_lost"] == 2 and p["knocked_down"] is True


def test_ward_leaves_the_critical_and_the_barrier_takes_a_plain_hit():
    # Ward: the plain Hit (5) is ignored, the Critical (1) resolves: 12 ≤ PW 12 wounds; Burn 20 does not.
    p = played(find_preset("eldfall/ward-vs-burn").scenario, [1, 5, 12, 20])
    assert steps(p) == [
        ("Attack 1: Attack roll", "[1, 5] against ACC 12 → 1 Critical Hit(s), 1 Hit(s)"),
        ("Attack 1: Ward", "1 non-Critical Hit(s) ignored"),
        ("Attack 1: damage", "rolled [12] for Critical Hits (Wound on 12 or less); [20] for Burn (Wound on 12 or "
                             "less) → 1 Wound(s)")]
    # Only a Critical: Ward has nothing to ignore and says nothing.
    p = played(find_preset("eldfall/ward-vs-burn").scenario, [1, 20, 12, 20])
    assert [rule for rule, _ in steps(p)] == ["Attack 1: Attack roll", "Attack 1: damage"]
    # No reaction, two Hits: the Barrier negates one; the other's 2 wounds (PW 10 − ARM 4 = 6).
    p = played(find_preset("eldfall/protective-barrier").scenario, [3, 4, 2])
    assert steps(p) == [
        ("Attack 1: Attack roll", "[3, 4] against OFF 12 → 0 Critical Hit(s), 2 Hit(s)"),
        ("Attack 1: Protective Barrier", "negates one Hit and is removed"),
        ("Attack 1: damage", "rolled [2] for Hits (Wound on 6 or less) → 1 Wound(s)")]


def test_a_value_of_exactly_1_is_no_automatic_failure():
    # OFF 1 (a 1 is still a Critical), AG 1, PW one above ARM: each can still succeed.
    scenario = EldfallScenario(attackers=(Attacker(value=1, pw=3),), defender=Defender(ag=1, arm=2))
    said = dict((rule, detail) for rule, detail, _ in lines(scenario))
    assert said["Attack 1"].endswith("→ 1: per die a Critical Hit 1/20 (5.0%), a Hit 0/1 (0.0%)")
    assert said["Dodge against Attack 1"] == ("one AG roll against 1; it succeeds with probability 1/20 (5.0%)"
                                              + DODGE_EFFECT)
    assert said["Damage from Attack 1"] == ("one d20 per Hit that lands: a Wound on 1 face(s) (PW 3 − ARM 2); "
                                            "a Critical Hit ignores ARM: 3 face(s)")
    assert "p_dodge_succeeds" not in evaluate(scenario).notes


def test_house_rules_on_criticals_and_halving_are_read_in_the_trace():
    from rules_core.systems.eldfall.scenario import CITE_HALVING, EldfallVariant
    # A successful 1 or 2 is a Critical: OFF 12 gives 2 Critical faces and 10 Hits.
    scenario = EldfallScenario(attackers=(Attacker(),), variant=EldfallVariant(critical_face=2, halving="down"))
    said = {rule: (detail, cite) for rule, detail, cite in lines(scenario)}
    assert said["Attribute rolls"] == ("d20 roll-under the modified attribute; a successful 1 to 2 is a Critical, "
                                       "above 20 a 20 is too; at 0 or less an automatic failure; halving after the "
                                       "other modifiers, rounding down", CITE_HALVING)
    assert said["Attack 1"][0].endswith("→ 12: per die a Critical Hit 1/10 (10.0%), a Hit 1/2 (50.0%)")


def test_a_sweeps_plain_hit_is_said_plain():
    scenario = EldfallScenario(attackers=(Attacker(sweep=True),), sweep_hit="plain")
    sweep = next(detail for rule, detail, _ in lines(scenario) if rule == "Sweep on Attack 1")
    assert sweep.startswith("on a successful Attack roll the second model suffers a Hit (a plain Hit) and rolls")


def test_the_notes_on_a_dodge_that_cannot_succeed_and_on_no_roll_at_all():
    from rules_core.systems.eldfall.scenario import EldfallVariant
    hopeless = EldfallScenario(attackers=(Attacker(),), defender=Defender(ag=1, ag_mod=-1))
    assert evaluate(hopeless).notes["p_dodge_succeeds"] == (
        "The defender's AG for at least one Dodge is 0 or less: that roll fails automatically.")
    # AG 1 halved without LoS: 1 rounding up (the official rule), 0 rounding down.
    blind = EldfallScenario(attackers=(Attacker(los=False),), defender=Defender(ag=1))
    assert "p_dodge_succeeds" not in evaluate(blind).notes
    assert "p_dodge_succeeds" in evaluate(blind.replace(variant=EldfallVariant(halving="down"))).notes
    ward = EldfallScenario(attackers=(Attacker(),), defender=Defender(reaction="ward"))
    assert evaluate(ward).notes["p_dodge_succeeds"] == "No evasion roll is made: Ward is already cast and needs no roll."
    none = EldfallScenario(attackers=(Attacker(),), defender=Defender(reaction="none"))
    assert evaluate(none).notes["p_dodge_succeeds"] == "No evasion roll is made: the defender does not react."


def test_the_fast_result_names_its_system():
    from rules_core.systems.eldfall.exact import evaluate as fast
    assert fast(EldfallScenario(attackers=(Attacker(),))).system == "eldfall"
