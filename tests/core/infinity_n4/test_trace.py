"""Infinity N4 traces read line by line: on typed faces, the Saving Rolls and Null lines count
rolls and wounds in words a player reads ("1 roll", "2 wounds"); in the result, every preset and
Orders of every kind (templates, Partial Cover, AP and DA, harmless attacks, nobody attacking, the
MOD cap and SVs above 20, close combat), each step with a citation."""

from __future__ import annotations

import pytest

from rules_core import evaluate, get_system, play_once
from rules_core.systems.infinity_n4.scenario import Attacker, Dodger, Guts, InfinityScenario, Template

SYSTEM = get_system("infinity-n4")


def details(scenario: InfinityScenario, faces: list[int]) -> dict[str, str]:
    return {s.rule: s.detail for s in play_once(SYSTEM, scenario, faces=faces).trace}


def test_saving_rolls_and_null_count_in_words():
    # No Dodge; BS 12 DA, DAM 13 against ARM 1: a wound on 12 or less. The attack die 5 hits; DA
    # calls for 2 Saving Rolls per hit; both faces 1 wound; W 2: Null.
    da = InfinityScenario(dodger=Dodger(dodges=False, wounds=2), attackers=(Attacker(value=12, burst=1, ammo="DA"),))
    said = details(da, [5, 1, 1])
    assert said["Saving Rolls (Attacker 1)"] == "2 rolls, 2 at or under 12: 2 wounds"
    assert said["Null"] == "2 wounds against W 2"
    # Normal ammunition: one Saving Roll, which wounds once (then the Guts die, face 1).
    one = InfinityScenario(dodger=Dodger(dodges=False, wounds=2), attackers=(Attacker(value=12, burst=1),))
    assert details(one, [5, 1, 1])["Saving Rolls (Attacker 1)"] == "1 roll, 1 at or under 12: 1 wound"


# -- the result's trace, line by line ---------------------------------------------------------------
# Read against the N4 rules: SV = attribute + MODs, the MOD sum capped at ±12; above 20, SV − 20 is
# added to every face and a total of 20 or more is a Critical; a Saving Roll wounds at or under
# DAM − ARM/BTS (AP halves it rounding up, Partial Cover gives +3 to the roll), N 1, DA 2, EXP 3
# rolls per hit and one more per Critical; one −3 (or −3 each, stacking) for the PH circumstances.

ORDERS = {p.name: p.scenario for p in SYSTEM.presets} | {
    "burst 2 and a direct template, DA in cover": InfinityScenario(
        dodger=Dodger(ph=13, arm=3, wounds=2),
        attackers=(Attacker(value=13, mod=3, burst=2, ammo="DA", partial_cover=True),),
        template=Template(kind="direct", damage=14), guts=Guts(decision="fail", can_leave=False)),
    "three attackers, one harmless": InfinityScenario(
        dodger=Dodger(ph=12, wip=11),
        attackers=(Attacker(value=11, burst=1, damage=0), Attacker(value=14, burst=1, ammo="AP"),
                   Attacker(attribute="PH", value=10, burst=1, damage=0, inflicts_state=True))),
    "not attacked, ZoC": InfinityScenario(
        dodger=Dodger(ph=10, immobilized="IMM-A"), attackers=(Attacker(attacks=False, zoc_no_lof=True),)),
    "SVs above 20, MOD cap": InfinityScenario(
        dodger=Dodger(ph=22, mod=14, wounds=2),
        attackers=(Attacker(value=21, mod=-13, burst=2, ammo="DA", damage=20),)),
    "close combat, engaged, stays": InfinityScenario(
        dodger=Dodger(ph=11, wounds=2), after_dodge="stay", attackers=(Attacker(attribute="CC", value=14, burst=2),)),
}

TRACES = {
    "zhanshi-dodges-to-engage": [
        ('Dodge',
         'one PH die against every attack of the Order, each with its own SV for the dodger: a Face to '
         "Face Roll against each attacker's Burst, a Normal PH Roll against a template or when nobody "
         'attacks; the results are correlated through that one die'),
        ('Ruling minus-three',
         'single: One −3 at most per roll, however many of the circumstances apply (N4 Core Rules, '
         'Dodge: the rule text)'),
        ('Attacker 1',
         'Face to Face Roll: the dodge die against BS Burst 3'),
        ('Success Value (dodger against Attacker 1)',
         'PH 10, MODs +0 (none) → SV 10; MOD sum capped at ±12: not reached'),
        ('Success Value (Attacker 1)',
         'BS 12, MODs +3 (attacker +3) → SV 15; MOD sum capped at ±12: not reached'),
        ('Saving Rolls (Attacker 1)',
         'N: 1 per hit, +1 per Critical; a roll of 12 or less is a wound (DAM 13 − ARM 1, within '
         '0..20)'),
        ('Face to Face Roll',
         'higher successes cancel lower ones, equal values cancel each other, a Critical beats any '
         "value; at most one side keeps successes; the dodger's success must survive every roll of the "
         'Order'),
        ('After a successful dodge',
         'moves up to 2" into silhouette contact: Engaged; cancels IMM-A; a dodger that failed against '
         'any attack does not move'),
        ('Guts Roll',
         'a Normal WIP Roll at the end of the Order when a hit of an attack with Damage or a State '
         'landed and the trooper is not Engaged, Null or IMM; WIP 13; on a failure it moves up to 2" '
         "out of the attackers' LoF and areas"),
        ('Null',
         'Null once the wounds inflicted reach W 1'),
        ('Exact computation',
         "conditioned on the dodge die's face; given it, each attack is independent of the others (its "
         'own dice and saves), so the attacks combine per face and the faces are summed'),
    ],
    "zhanshi-mine-and-fusilier": [
        ('Dodge',
         'one PH die against every attack of the Order, each with its own SV for the dodger: a Face to '
         "Face Roll against each attacker's Burst, a Normal PH Roll against a template or when nobody "
         'attacks; the results are correlated through that one die'),
        ('Ruling minus-three',
         'stacking: Each circumstance gives its own −3, e.g. −6 for a mine without LoF (N4 Core Rules, '
         'Dodge, second example)'),
        ('Attacker 1',
         'Face to Face Roll: the dodge die against BS Burst 3'),
        ('Success Value (dodger against Attacker 1)',
         'PH 10, MODs +0 (none) → SV 10; MOD sum capped at ±12: not reached'),
        ('Success Value (Attacker 1)',
         'BS 12, MODs +3 (attacker +3) → SV 15; MOD sum capped at ±12: not reached'),
        ('Saving Rolls (Attacker 1)',
         'N: 1 per hit, +1 per Critical; a roll of 12 or less is a wound (DAM 13 − ARM 1, within '
         '0..20)'),
        ('Mine',
         'no attack roll: a Normal PH Roll of the same dodge die; its one hit lands unless that roll '
         'succeeds (all or nothing)'),
        ('−3 PH circumstances (Mine)',
         'Template Weapon without LoF to the attacker; Template of a Deployable Weapon: -6 (ruling '
         'minus-three = stacking)'),
        ('Success Value (dodger against Mine)',
         'PH 10, MODs -6 (circumstances -6) → SV 4; MOD sum capped at ±12: not reached'),
        ('Saving Rolls (Mine)',
         'AP: 1 per hit, +1 per Critical; a roll of 12 or less is a wound (DAM 13 − ARM 1 halved to 1 '
         '(AP), within 0..20)'),
        ('Face to Face Roll',
         'higher successes cancel lower ones, equal values cancel each other, a Critical beats any '
         "value; at most one side keeps successes; the dodger's success must survive every roll of the "
         'Order'),
        ('After a successful dodge',
         'moves up to 2" in the Effects step; cancels Engaged and IMM-A; a dodger that failed against '
         'any attack does not move'),
        ('Guts Roll',
         'a Normal WIP Roll at the end of the Order when a hit of an attack with Damage or a State '
         'landed and the trooper is not Engaged, Null or IMM; WIP 13; on a failure it moves up to 2" '
         "out of the attackers' LoF and areas"),
        ('Null',
         'Null once the wounds inflicted reach W 1'),
        ('Exact computation',
         "conditioned on the dodge die's face; given it, each attack is independent of the others (its "
         'own dice and saves), so the attacks combine per face and the faces are summed'),
    ],
    "zhanshi-vs-fusilier": [
        ('Dodge',
         'one PH die against every attack of the Order, each with its own SV for the dodger: a Face to '
         "Face Roll against each attacker's Burst, a Normal PH Roll against a template or when nobody "
         'attacks; the results are correlated through that one die'),
        ('Ruling minus-three',
         'single: One −3 at most per roll, however many of the circumstances apply (N4 Core Rules, '
         'Dodge: the rule text)'),
        ('Attacker 1',
         'Face to Face Roll: the dodge die against BS Burst 3'),
        ('Success Value (dodger against Attacker 1)',
         'PH 10, MODs +0 (none) → SV 10; MOD sum capped at ±12: not reached'),
        ('Success Value (Attacker 1)',
         'BS 12, MODs +3 (attacker +3) → SV 15; MOD sum capped at ±12: not reached'),
        ('Saving Rolls (Attacker 1)',
         'N: 1 per hit, +1 per Critical; a roll of 12 or less is a wound (DAM 13 − ARM 1, within '
         '0..20)'),
        ('Face to Face Roll',
         'higher successes cancel lower ones, equal values cancel each other, a Critical beats any '
         "value; at most one side keeps successes; the dodger's success must survive every roll of the "
         'Order'),
        ('After a successful dodge',
         'moves up to 2" in the Effects step; cancels Engaged and IMM-A; a dodger that failed against '
         'any attack does not move'),
        ('Guts Roll',
         'a Normal WIP Roll at the end of the Order when a hit of an attack with Damage or a State '
         'landed and the trooper is not Engaged, Null or IMM; WIP 13; on a failure it moves up to 2" '
         "out of the attackers' LoF and areas"),
        ('Null',
         'Null once the wounds inflicted reach W 1'),
        ('Exact computation',
         "conditioned on the dodge die's face; given it, each attack is independent of the others (its "
         'own dice and saves), so the attacks combine per face and the faces are summed'),
    ],
    "burst 2 and a direct template, DA in cover": [
        ('Dodge',
         'one PH die against every attack of the Order, each with its own SV for the dodger: a Face to '
         "Face Roll against each attacker's Burst, a Normal PH Roll against a template or when nobody "
         'attacks; the results are correlated through that one die'),
        ('Ruling minus-three',
         'single: One −3 at most per roll, however many of the circumstances apply (N4 Core Rules, '
         'Dodge: the rule text)'),
        ('Attacker 1',
         'Face to Face Roll: the dodge die against BS Burst 2'),
        ('Success Value (dodger against Attacker 1)',
         'PH 13, MODs +0 (none) → SV 13; MOD sum capped at ±12: not reached'),
        ('Success Value (Attacker 1)',
         'BS 13, MODs +3 (attacker +3) → SV 16; MOD sum capped at ±12: not reached'),
        ('Saving Rolls (Attacker 1)',
         'DA: 2 per hit, +1 per Critical; a roll of 7 or less is a wound (DAM 13 − ARM 3, −3 Partial '
         'Cover, within 0..20)'),
        ('Partial Cover (Attacker 1)',
         '+3 to the Saving Rolls'),
        ('Direct Template',
         'no attack roll: a Normal PH Roll of the same dodge die; its one hit lands unless that roll '
         'succeeds (all or nothing)'),
        ('Success Value (dodger against Direct Template)',
         'PH 13, MODs +0 (none) → SV 13; MOD sum capped at ±12: not reached'),
        ('Saving Rolls (Direct Template)',
         'N: 1 per hit, +1 per Critical; a roll of 11 or less is a wound (DAM 14 − ARM 3, within '
         '0..20)'),
        ('Face to Face Roll',
         'higher successes cancel lower ones, equal values cancel each other, a Critical beats any '
         "value; at most one side keeps successes; the dodger's success must survive every roll of the "
         'Order'),
        ('After a successful dodge',
         'moves up to 2" in the Effects step; cancels Engaged and IMM-A; a dodger that failed against '
         'any attack does not move'),
        ('Guts Roll',
         'a Normal WIP Roll at the end of the Order when a hit of an attack with Damage or a State '
         'landed and the trooper is not Engaged, Null or IMM; WIP 13; the owner chooses to fail it; on '
         'a failure it moves up to 2" into cover'),
        ('Null',
         'Null once the wounds inflicted reach W 2'),
        ('Exact computation',
         "conditioned on the dodge die's face; given it, each attack is independent of the others (its "
         'own dice and saves), so the attacks combine per face and the faces are summed'),
    ],
    "three attackers, one harmless": [
        ('Dodge',
         'one PH die against every attack of the Order, each with its own SV for the dodger: a Face to '
         "Face Roll against each attacker's Burst, a Normal PH Roll against a template or when nobody "
         'attacks; the results are correlated through that one die'),
        ('Ruling minus-three',
         'single: One −3 at most per roll, however many of the circumstances apply (N4 Core Rules, '
         'Dodge: the rule text)'),
        ('Attacker 1',
         'Face to Face Roll: the dodge die against BS Burst 1'),
        ('Success Value (dodger against Attacker 1)',
         'PH 12, MODs +0 (none) → SV 12; MOD sum capped at ±12: not reached'),
        ('Success Value (Attacker 1)',
         'BS 11, MODs +0 (none) → SV 11; MOD sum capped at ±12: not reached'),
        ('Saving Rolls (Attacker 1)',
         'no Damage and no State: no Saving Roll and no Guts Roll'),
        ('Attacker 2',
         'Face to Face Roll: the dodge die against BS Burst 1'),
        ('Success Value (dodger against Attacker 2)',
         'PH 12, MODs +0 (none) → SV 12; MOD sum capped at ±12: not reached'),
        ('Success Value (Attacker 2)',
         'BS 14, MODs +0 (none) → SV 14; MOD sum capped at ±12: not reached'),
        ('Saving Rolls (Attacker 2)',
         'AP: 1 per hit, +1 per Critical; a roll of 12 or less is a wound (DAM 13 − ARM 1 halved to 1 '
         '(AP), within 0..20)'),
        ('Attacker 3',
         'Face to Face Roll: the dodge die against PH Burst 1'),
        ('Success Value (dodger against Attacker 3)',
         'PH 12, MODs +0 (none) → SV 12; MOD sum capped at ±12: not reached'),
        ('Success Value (Attacker 3)',
         'PH 10, MODs +0 (none) → SV 10; MOD sum capped at ±12: not reached'),
        ('Saving Rolls (Attacker 3)',
         'inflicts a State: no Saving Roll, but a hit causes a Guts Roll'),
        ('Face to Face Roll',
         'higher successes cancel lower ones, equal values cancel each other, a Critical beats any '
         "value; at most one side keeps successes; the dodger's success must survive every roll of the "
         'Order'),
        ('After a successful dodge',
         'moves up to 2" in the Effects step; cancels Engaged and IMM-A; a dodger that failed against '
         'any attack does not move'),
        ('Guts Roll',
         'a Normal WIP Roll at the end of the Order when a hit of an attack with Damage or a State '
         'landed and the trooper is not Engaged, Null or IMM; WIP 11; on a failure it moves up to 2" '
         "out of the attackers' LoF and areas"),
        ('Null',
         'Null once the wounds inflicted reach W 1'),
        ('Exact computation',
         "conditioned on the dodge die's face; given it, each attack is independent of the others (its "
         'own dice and saves), so the attacks combine per face and the faces are summed'),
    ],
    "not attacked, ZoC": [
        ('Dodge',
         'one PH die against every attack of the Order, each with its own SV for the dodger: a Face to '
         "Face Roll against each attacker's Burst, a Normal PH Roll against a template or when nobody "
         'attacks; the results are correlated through that one die'),
        ('Ruling minus-three',
         'single: One −3 at most per roll, however many of the circumstances apply (N4 Core Rules, '
         'Dodge: the rule text)'),
        ('Attacker 1',
         'does not attack the dodger: no roll against it'),
        ('Not attacked',
         'nobody attacks the dodger: a Normal PH Roll'),
        ('−3 PH circumstances (Not attacked)',
         'Active trooper inside ZoC and outside LoF: -3 (ruling minus-three = single)'),
        ('Success Value (dodger against Not attacked)',
         'PH 10, MODs -3 (circumstances -3) → SV 7; MOD sum capped at ±12: not reached'),
        ('Face to Face Roll',
         'higher successes cancel lower ones, equal values cancel each other, a Critical beats any '
         "value; at most one side keeps successes; the dodger's success must survive every roll of the "
         'Order'),
        ('After a successful dodge',
         'moves up to 2" in the Effects step; cancels Engaged and IMM-A; a dodger that failed against '
         'any attack does not move'),
        ('Guts Roll',
         'a Normal WIP Roll at the end of the Order when a hit of an attack with Damage or a State '
         'landed and the trooper is not Engaged, Null or IMM; a hit trooper stays IMM-A, so no Guts '
         'Roll is made; on a failure it moves up to 2" out of the attackers\' LoF and areas'),
        ('Null',
         'Null once the wounds inflicted reach W 1'),
        ('Exact computation',
         "conditioned on the dodge die's face; given it, each attack is independent of the others (its "
         'own dice and saves), so the attacks combine per face and the faces are summed'),
    ],
    "SVs above 20, MOD cap": [
        ('Dodge',
         'one PH die against every attack of the Order, each with its own SV for the dodger: a Face to '
         "Face Roll against each attacker's Burst, a Normal PH Roll against a template or when nobody "
         'attacks; the results are correlated through that one die'),
        ('Ruling minus-three',
         'single: One −3 at most per roll, however many of the circumstances apply (N4 Core Rules, '
         'Dodge: the rule text)'),
        ('Attacker 1',
         'Face to Face Roll: the dodge die against BS Burst 2'),
        ('Success Value (dodger against Attacker 1)',
         'PH 22, MODs +14 (dodger +14) → SV 34; MOD sum capped at ±12: capped to +12'),
        ('SV above 20 (dodger against Attacker 1)',
         '+14 to every face; every face succeeds; a face of 6 or more is a Critical'),
        ('Success Value (Attacker 1)',
         'BS 21, MODs -13 (attacker -13) → SV 9; MOD sum capped at ±12: capped to -12'),
        ('Saving Rolls (Attacker 1)',
         'DA: 2 per hit, +1 per Critical; a roll of 19 or less is a wound (DAM 20 − ARM 1, within '
         '0..20)'),
        ('Face to Face Roll',
         'higher successes cancel lower ones, equal values cancel each other, a Critical beats any '
         "value; at most one side keeps successes; the dodger's success must survive every roll of the "
         'Order'),
        ('After a successful dodge',
         'moves up to 2" in the Effects step; cancels Engaged and IMM-A; a dodger that failed against '
         'any attack does not move'),
        ('Guts Roll',
         'a Normal WIP Roll at the end of the Order when a hit of an attack with Damage or a State '
         'landed and the trooper is not Engaged, Null or IMM; WIP 13; on a failure it moves up to 2" '
         "out of the attackers' LoF and areas"),
        ('Null',
         'Null once the wounds inflicted reach W 2'),
        ('Exact computation',
         "conditioned on the dodge die's face; given it, each attack is independent of the others (its "
         'own dice and saves), so the attacks combine per face and the faces are summed'),
    ],
    "close combat, engaged, stays": [
        ('Dodge',
         'one PH die against every attack of the Order, each with its own SV for the dodger: a Face to '
         "Face Roll against each attacker's Burst, a Normal PH Roll against a template or when nobody "
         'attacks; the results are correlated through that one die'),
        ('Ruling minus-three',
         'single: One −3 at most per roll, however many of the circumstances apply (N4 Core Rules, '
         'Dodge: the rule text)'),
        ('Attacker 1',
         'Face to Face Roll: the dodge die against CC Burst 2'),
        ('Success Value (dodger against Attacker 1)',
         'PH 11, MODs +0 (none) → SV 11; MOD sum capped at ±12: not reached'),
        ('Success Value (Attacker 1)',
         'CC 14, MODs +0 (none) → SV 14; MOD sum capped at ±12: not reached'),
        ('Saving Rolls (Attacker 1)',
         'N: 1 per hit, +1 per Critical; a roll of 12 or less is a wound (DAM 13 − ARM 1, within '
         '0..20)'),
        ('Face to Face Roll',
         'higher successes cancel lower ones, equal values cancel each other, a Critical beats any '
         "value; at most one side keeps successes; the dodger's success must survive every roll of the "
         'Order'),
        ('After a successful dodge',
         'does not move; cancels IMM-A; a dodger that failed against any attack does not move'),
        ('Guts Roll',
         'a Normal WIP Roll at the end of the Order when a hit of an attack with Damage or a State '
         'landed and the trooper is not Engaged, Null or IMM; a hit trooper stays Engaged, so no Guts '
         'Roll is made; on a failure it moves up to 2" out of the attackers\' LoF and areas'),
        ('Null',
         'Null once the wounds inflicted reach W 2'),
        ('Exact computation',
         "conditioned on the dodge die's face; given it, each attack is independent of the others (its "
         'own dice and saves), so the attacks combine per face and the faces are summed'),
    ],
}


@pytest.mark.parametrize("name", list(TRACES))
def test_the_result_trace_line_by_line(name):
    trace = evaluate(ORDERS[name]).trace
    assert [(s.rule, s.detail) for s in trace] == TRACES[name]
    assert all(s.citation for s in trace)


def test_without_a_dodge_the_saves_of_each_attack_and_the_template():
    no_dodge = InfinityScenario(
        dodger=Dodger(dodges=False, wounds=3, bts=3),
        attackers=(Attacker(value=12, burst=1), Attacker(value=9, burst=1, save_vs="BTS")),
        template=Template(kind="direct", ammo="EXP", damage=10, save_vs="BTS"))
    said = [(s.rule, s.detail) for s in evaluate(no_dodge).trace]
    assert ("No Dodge", "the trooper does not declare Dodge: each attacker's successes all land (Normal Rolls) "
                        "and a template hits") in said
    assert not any(rule.startswith("Success Value (dodger") for rule, _ in said)
    # DAM 13 − BTS 3 = 10; EXP: 3 Saving Rolls per hit, DAM 10 − BTS 3 = 7.
    assert ("Saving Rolls (Attacker 2)", "N: 1 per hit, +1 per Critical; a roll of 10 or less is a wound "
                                         "(DAM 13 − BTS 3, within 0..20)") in said
    assert ("Saving Rolls (Direct Template)", "EXP: 3 per hit, +1 per Critical; a roll of 7 or less is a wound "
                                              "(DAM 10 − BTS 3, within 0..20)") in said
    assert ("Null", "Null once the wounds inflicted reach W 3") in said


def test_a_success_value_of_zero_or_less_makes_no_roll():
    # PH 5, own MOD −3, a mine without LoF under the stacking ruling (−6): SV −4.
    hopeless = InfinityScenario(dodger=Dodger(ph=5, mod=-3), minus_three="stacking",
                                attackers=(Attacker(value=10, burst=1),),
                                template=Template(kind="deployable", lof=False))
    said = [(s.rule, s.detail) for s in evaluate(hopeless).trace]
    assert ("Success Value (dodger against Mine)", "PH 5, MODs -9 (dodger -3, circumstances -6) → SV -4; MOD sum "
                                                   "capped at ±12: not reached") in said
    assert ("SV ≤ 0 (dodger against Mine)", "no roll is made: automatic failure") in said


def test_the_edges_of_the_success_value_zero_and_twenty():
    # PH 6 against a mine without LoF, stacking: 6 − 6 = SV 0, no roll. PH 20: an ordinary roll.
    zero = InfinityScenario(dodger=Dodger(ph=6), minus_three="stacking", attackers=(Attacker(attacks=False),),
                            template=Template(kind="deployable", lof=False))
    assert "SV ≤ 0 (dodger against Mine)" in [s.rule for s in evaluate(zero).trace]
    twenty = [s.rule for s in evaluate(InfinityScenario(dodger=Dodger(ph=20))).trace]
    assert "Success Value (dodger against Attacker 1)" in twenty
    assert not any(rule.startswith(("SV above 20", "SV ≤ 0")) for rule in twenty)


# -- one Order step by step, on typed faces ---------------------------------------------------------

def steps_on(preset: str, faces: list[int]) -> list[tuple[str, str]]:
    scenario = next(p.scenario for p in SYSTEM.presets if p.name == preset)
    return [(s.rule, s.detail) for s in play_once(SYSTEM, scenario, faces=faces).trace]


def test_a_failed_dodge_against_a_burst_and_a_mine_ends_null():
    # Dodge die 12 against SV 10 fails. BS 15: faces 5 and 9 succeed, 16 fails: 2 hits, 2 Saving
    # Rolls of 4 wound (12 or less). The mine's Normal PH Roll against SV 4 (PH 10, −6 stacking)
    # fails with the same die 12: 1 hit, its save 1 wounds. 3 wounds against W 1: Null.
    assert steps_on("zhanshi-mine-and-fusilier", [12, 5, 9, 16, 4, 4, 1]) == [
        ("Dodge die", "12"),
        ("Attacker 1", "dodge SV 10 against SV 15, faces 5, 9, 16: the dodger keeps 0, the attacker keeps 2 "
                       "(0 Critical)"),
        ("Saving Rolls (Attacker 1)", "2 rolls, 2 at or under 12: 2 wounds"),
        ("Mine", "Normal PH Roll against SV 4: failure; 1 hit"),
        ("Saving Rolls (Mine)", "1 roll, 1 at or under 12: 1 wound"),
        ("Null", "3 wounds against W 1"),
        ("Final state", "Null: lost its last Wound")]


def test_one_hit_no_wound_then_the_guts_roll_passed_or_failed():
    # Dodge die 8 against the Fusilier's 10, 16, 4 at SV 15: 10 beats 8, which beats 4; 16 fails.
    # The attacker keeps 1; its save 15 does not wound; the Guts Roll at WIP 13.
    common = [("Dodge die", "8"),
              ("Attacker 1", "dodge SV 10 against SV 15, faces 10, 16, 4: the dodger keeps 0, the attacker keeps 1 "
                             "(0 Critical)"),
              ("Saving Rolls (Attacker 1)", "1 roll, 0 at or under 12: 0 wounds")]
    assert steps_on("zhanshi-vs-fusilier", [8, 10, 16, 4, 15, 5]) == common + [
        ("Guts Roll", "WIP 13, face 5: passed"), ("Final state", "Hit, passes the Guts Roll: stands its ground")]
    assert steps_on("zhanshi-vs-fusilier", [8, 10, 16, 4, 15, 18]) == common + [
        ("Guts Roll", "WIP 13, face 18: failed"),
        ("Final state", "Hit, fails the Guts Roll: moves up to 2\" out of the attackers' LoF and areas")]


def test_a_dodge_that_survives_every_roll_moves():
    assert steps_on("zhanshi-dodges-to-engage", [9, 2, 3, 4]) == [
        ("Dodge die", "9"),
        ("Attacker 1", "dodge SV 10 against SV 15, faces 2, 3, 4: the dodger keeps 1, the attacker keeps 0 "
                       "(0 Critical)"),
        ("Movement", "Unharmed, dodged everything: moves into contact, Engaged"),
        ("Final state", "Unharmed, dodged everything: moves into contact, Engaged")]
    mine = steps_on("zhanshi-mine-and-fusilier", [4, 17, 18, 19])
    assert mine[-2:] == [("Movement", "Unharmed, dodged everything: moves up to 2\""),
                         ("Final state", "Unharmed, dodged everything: moves up to 2\"")]
    assert mine[2][1].startswith("Normal PH Roll against SV 4: success")


def test_a_success_value_of_exactly_1_still_rolls_and_0_is_noted():
    from rules_core.systems.infinity_n4.scenario import CITE_ROLLS
    mine = dict(minus_three="stacking", attackers=(Attacker(attacks=False),),
                template=Template(kind="deployable", lof=False))
    one = evaluate(InfinityScenario(dodger=Dodger(ph=7), **mine))  # 7 − 6 = SV 1: a 1 succeeds
    assert not any(s.rule.startswith("SV ≤ 0") for s in one.trace) and "p_dodge_succeeds" not in one.notes
    zero = evaluate(InfinityScenario(dodger=Dodger(ph=6), **mine))
    step, = [s for s in zero.trace if s.rule.startswith("SV ≤ 0")]
    assert (step.rule, step.detail, step.citation) == ("SV ≤ 0 (dodger against Mine)",
                                                       "no roll is made: automatic failure", CITE_ROLLS)
    assert zero.notes["p_dodge_succeeds"] == "The dodger's SV is 0 or less against Mine: that roll fails automatically."
    # two rolls at 0 or less are named together
    two = evaluate(InfinityScenario(dodger=Dodger(ph=6), minus_three="stacking",
                                    attackers=(Attacker(attacks=True, dodge_mod=-6),),
                                    template=Template(kind="deployable", lof=False)))
    assert two.notes["p_dodge_succeeds"] == ("The dodger's SV is 0 or less against Attacker 1, Mine: that roll "
                                             "fails automatically.")
    none = evaluate(InfinityScenario(dodger=Dodger(dodges=False)))
    assert none.notes["p_dodge_succeeds"] == "The trooper does not declare Dodge: no evasion roll is made."


def test_a_success_value_of_39_makes_every_face_a_critical():
    # PH 30, MOD +9: SV 39, +19 to every face; 20 or more is a Critical from the face 1 up.
    said = {s.rule: s.detail for s in evaluate(InfinityScenario(dodger=Dodger(ph=30, mod=9))).trace}
    assert said["SV above 20 (dodger against Attacker 1)"] == (
        "+19 to every face; every face succeeds; a face of 1 or more is a Critical")


def test_the_mods_of_the_dodge_name_the_one_against_this_attack():
    said = {s.rule: s.detail for s in evaluate(InfinityScenario(attackers=(Attacker(dodge_mod=-3),))).trace}
    assert said["Success Value (dodger against Attacker 1)"] == (
        "PH 10, MODs -3 (against this attack -3) → SV 7; MOD sum capped at ±12: not reached")


def test_ap_halves_an_odd_armour_rounding_up_and_damage_1_still_brings_a_guts_roll():
    ap = evaluate(InfinityScenario(dodger=Dodger(arm=3), attackers=(Attacker(ammo="AP"),)))
    said = {s.rule: s.detail for s in ap.trace}
    assert said["Saving Rolls (Attacker 1)"] == ("AP: 1 per hit, +1 per Critical; a roll of 11 or less is a wound "
                                                 "(DAM 13 − ARM 3 halved to 2 (AP), within 0..20)")
    weak = evaluate(InfinityScenario(attackers=(Attacker(damage=1),)))
    assert "Guts Roll" in {s.rule for s in weak.trace}
    assert weak.headline["p_guts_fails"] > 0


def test_the_outcomes_are_ordered_dodged_no_hit_then_each_number_of_hits():
    assert evaluate(InfinityScenario()).outcome_order == (
        "Dodge succeeds", "No hit lands, no successful dodge", "1 hit lands", "2 hits land", "3 hits land")


def test_an_attack_with_no_damage_rolls_no_saving_roll_on_typed_faces():
    # No Dodge; BS 12 with a State and DAM 0: the attack die 5 hits, no Saving Roll is rolled,
    # then the Guts die 1 passes (WIP 13). Two faces, no more.
    state = InfinityScenario(dodger=Dodger(dodges=False),
                             attackers=(Attacker(value=12, burst=1, damage=0, inflicts_state=True),))
    played = play_once(SYSTEM, state, faces=[5, 1])
    assert [r.dice.purpose for r in played.rolled] == ["Attacker 1", "Guts die"]
    assert {s.rule: s.detail for s in evaluate(state).trace}["Saving Rolls (Attacker 1)"] == (
        "inflicts a State: no Saving Roll, but a hit causes a Guts Roll")
