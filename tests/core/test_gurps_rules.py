"""GURPS 4e by hand: success rolls, the Dodge's arithmetic, rapid fire, the damage pipeline, the
seed example, each situation's numbers worked out on paper, rulings, traces and refusals."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules_core import ScenarioError, evaluate, find_preset, load_scenario
from rules_core.systems.gurps import (SYSTEM, Attack, Blast, Cover, Dodger, Friend, GurpsScenario, Target,
                                      dodge_score, play, roll_once)
from rules_core.systems.gurps.damage import Hit, effective_dr, injury
from rules_core.systems.gurps.dice import parse_damage
from rules_core.systems.gurps.exact import attack_outcomes
from rules_core.systems.gurps.play import ScriptedRoller
from rules_core.systems.gurps.rolls import ROLL_3D6, success_roll, success_weight
from rules_core.systems.gurps.rules import attack_context, rof_bonus


def at_most(total: int) -> int:
    """Ways (of 216) 3d6 rolls total or less, from the standard table."""
    return {3: 1, 4: 4, 5: 10, 6: 20, 7: 35, 8: 56, 9: 81, 10: 108, 11: 135, 12: 160, 13: 181,
            14: 196, 15: 206, 16: 212, 17: 215, 18: 216}[total]


# -- success rolls (B343-348) ---------------------------------------------------------------------

@pytest.mark.parametrize("roll, score, success, critical", [
    (3, -5, True, True), (4, 0, True, True),            # 3-4 always succeed, as criticals
    (5, 14, True, False), (5, 15, True, True),          # 5 is critical from 15
    (6, 15, True, False), (6, 16, True, True),          # 6 is critical from 16
    (16, 16, True, False), (17, 30, False, False),      # 17 fails even at 30 ...
    (17, 15, False, True), (17, 16, False, False),      # ... critically at 15 or less
    (18, 30, False, True),                              # 18 always fails critically
    (15, 5, False, True), (14, 5, False, False),        # 10 or more over the score
    (11, 11, True, False), (12, 11, False, False),
])
def test_success_roll_by_hand(roll, score, success, critical):
    result = success_roll(roll, score)
    assert (result.success, result.critical, result.margin) == (success, critical, score - roll)


def test_the_3d6_table():
    assert ROLL_3D6.denominator == 216
    assert [success_weight(s) for s in (3, 10, 12, 16, 30, -5)] == [4, 108, 160, 212, 212, 4]
    assert all(success_weight(s) == at_most(min(max(s, 4), 16)) for s in range(-3, 25))


# -- the Dodge (B17, B375, B377, B419, B551) ------------------------------------------------------

def test_dodge_arithmetic_by_hand():
    # Basic Speed 5.75 → 5; + 3 = 8; heavy encumbrance -3 → 5; HP 3 of 10 is below 1/3: halved,
    # rounding up → 3; dodge and drop +3 → 6; kneeling -2 → 4; shield DB 1 → 5; other -1 → 4.
    s = GurpsScenario(dodger=Dodger(basic_speed=5.75, encumbrance="heavy", defense="dodge_and_drop",
                                    posture="kneeling", shield_db=1, modifier=-1),
                      target=Target(hp=10, hp_left=3))
    score = dodge_score(s, "ranged", dropped=False)
    assert score.value == 4
    text = " ".join(step.detail for step in score.steps)
    assert "fractions dropped: 5, + 3, − 3 (heavy encumbrance) = 5" in text and "5 → 3" in text
    # FP below 1/3 halves just the same; exactly 1/3 does not.
    assert dodge_score(s.replace(target=Target(fp=9, fp_left=2)), "ranged", False).value == 4
    assert dodge_score(s.replace(target=Target(hp=9, hp_left=3)), "ranged", False).value == 6


@pytest.mark.parametrize("carry, dodge, skill", [("both", 9, 11), ("bonus_only", 12, 13), ("prone_only", 6, 11)])
def test_dodge_and_drop_against_the_foes_later_attacks(carry, dodge, skill):
    s = find_preset("gurps-4e/drop-behind-cover").scenario.replace(carry=carry)
    first, later = attack_context(s, 1, dropped=False), attack_context(s, 1, dropped=True)
    assert (first.dodge.value, first.skill.value, first.hit.cover_dr) == (12, 13, 0)  # 9 + 3; no cover yet
    assert (later.dodge.value, later.skill.value, later.hit.cover_dr) == (dodge, skill, 8)


def test_retreat_and_flyer():
    s = GurpsScenario(dodger=Dodger(defense="retreat"), attacks=(Attack(kind="melee"),))
    assert dodge_score(s, "melee", False).value == 12
    flyer = GurpsScenario(dodger=Dodger(defense="dodge_and_drop", flying=True, below_terrain=True),
                          cover=Cover(kind="dr", dr=4))
    later = attack_context(flyer, 0, dropped=True)
    assert (later.dodge.value, later.skill.value, later.hit.cover_dr) == (12, 12, 4)  # no prone


# -- rapid fire (B373-375) ------------------------------------------------------------------------

def test_rapid_fire_bonus_table():
    assert [rof_bonus(r) for r in (1, 4, 5, 8, 9, 12, 13, 16, 17, 24, 25, 49, 50)] == \
           [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6]


def test_rapid_fire_hits_by_hand():
    # Skill 12 + 2 for RoF 10 = 14. Hits = 1 + margin // 2: 5 or more needs margin 8 (roll ≤ 6).
    s = find_preset("gurps-4e/rapid-fire-dodge-and-drop").scenario
    outcomes = attack_outcomes(attack_context(s, 0, False), s)
    assert sum(outcomes.values()) == 216
    at_least_5 = sum(w for (hits, _), w in outcomes.items() if hits >= 5)
    assert at_least_5 == at_most(6) == 20
    assert outcomes[(0, False)] == 216 - at_most(14)               # misses: 15-18 → 20 ways
    assert outcomes[(6, True)] == 1 + 3          # 3 and 4: margins 11 and 10 → 6 hits, critical
    assert outcomes[(5, False)] == 6 + 10         # 5 and 6: margins 9 and 8 → 5 hits (critical only at 15+)


def test_dodging_rapid_fire_by_hand():
    # Three fixed hits, Dodge 10: a roll r ≤ 10 avoids 1 + (10 - r). All three avoided at r ≤ 8.
    s = GurpsScenario(dodger=Dodger(basic_speed=7.0), attacks=(Attack(hits_by="fixed", hits=3, damage="1d"),))
    hits = evaluate(s).hits
    assert hits[0] == Fraction(at_most(8), 216)
    assert hits[1] == Fraction(25, 216) and hits[2] == Fraction(27, 216)  # r = 9, r = 10
    assert hits[3] == Fraction(216 - at_most(10), 216)
    assert hits.mean() == Fraction(25 + 2 * 27 + 3 * 108, 216)


def test_critical_hits_allow_no_defense():
    # Skill 16: 3-6 are critical hits (20 ways). With defense the Dodge is rolled only otherwise.
    s = GurpsScenario(dodger=Dodger(basic_speed=20.0), attacks=(Attack(skill=16, damage="1d"),))
    r = evaluate(s)
    # Dodge 23 fails only on 17-18 (4 ways); the attack hits on 3-16 (212 ways), 20 of them critical.
    assert r.hits[1] == Fraction(20 * 216 + (212 - 20) * 4, 216 * 216)
    assert r.headline["p_dodge_succeeds"] == Fraction(212, 216)


@pytest.mark.parametrize("crit_dodge, landed", [("margin", 4), ("all", 0)])
def test_critical_dodge_ruling(crit_dodge, landed):
    # Five fixed hits against Dodge 2 (8 halved to 4, −2 kneeling): a 3 is a critical success
    # made by −1, which avoids one hit by margin — or all five under the ruling "all".
    s = GurpsScenario(dodger=Dodger(basic_speed=5.0, posture="kneeling"), target=Target(hp=9, hp_left=2),
                      attacks=(Attack(hits_by="fixed", hits=5, damage="1d"),), crit_dodge=crit_dodge)
    assert dodge_score(s, "ranged", False).value == 2
    assert play(s, ScriptedRoller([3] + [1] * 5)).hits == landed


# -- the damage pipeline (B378-379, B398-400, B414) --------------------------------------------------

def test_seed_example_roll_of_8():
    # B378: 2d+1 cutting rolls 8 (the dice total 7); DR 3 → 5 penetrating; × 1.5 = 7.5 → 7.
    seed = find_preset("gurps-4e/sword-2d1-cut-vs-dr3").scenario
    result = play(seed, ScriptedRoller([7]))
    assert result.injuries == (7,)
    details = [step.detail for step in result.trace]
    assert "dice 7, 2d+1 → 8" in details and "8 − DR 3 → 5 penetrating" in details
    assert any(d.startswith("5 × 1.5") and "→ 7" in d for d in details)


def test_seed_example_injury_distribution():
    # 2d totals 2..12 with ways 1,2,3,4,5,6,5,4,3,2,1; basic = total + 1; penetrating = total − 2;
    # injury = ⌊1.5 × penetrating⌋ (at least 1): 0,1,3,4,6,7,9,10,12,13,15.
    r = evaluate(find_preset("gurps-4e/sword-2d1-cut-vs-dr3").scenario)
    by_hand = {0: 1, 1: 2, 3: 3, 4: 4, 6: 5, 7: 6, 9: 5, 10: 4, 12: 3, 13: 2, 15: 1}
    assert dict(r.distributions["injury"].items()) == {v: Fraction(w, 36) for v, w in by_hand.items()}
    assert r.headline["expected_injury"] == Fraction(261, 36)          # 7.25
    assert r.headline["p_down"] == Fraction(4 + 3 + 2 + 1, 36)         # 10 HP: injury ≥ 10
    assert r.headline["p_major_wound"] == Fraction(26, 36)             # injury > 5
    assert r.headline["p_dodge_succeeds"] is None and "no active defense" in r.notes["p_dodge_succeeds"]
    assert r.headline["p_no_hit"] == 0 and r.headline["expected_hits"] == 1


@pytest.mark.parametrize("dr, divisor, effective", [
    (7, "2", 3), (7, "3", 2), (9, "5", 1), (25, "10", 2), (99, "100", 0), (7, "1", 7),
    (3, "0.5", 6), (3, "0.2", 15), (3, "0.1", 30), (0, "0.5", 2), (0, "0.2", 5), (0, "0.1", 10)])
def test_armor_divisors(dr, divisor, effective):
    assert effective_dr(dr, divisor) == effective


@pytest.mark.parametrize("dice, dtype, roll, kw, expected", [
    ("1d-3", "cr", 1, {}, 0),                                   # crushing may do 0
    ("1d-3", "cut", 1, {}, 1),                                  # any other type at least 1
    ("1d", "pi-", 1, {}, 1),                                    # 0.5 rounds down to 0: at least 1
    ("1d", "pi-", 5, {}, 2),
    ("2d", "imp", 9, {"dr": 10, "divisor": "2"}, 8),            # DR 5; 4 × 2
    ("2d", "cut", 12, {"dr": 15, "flexible": True}, 1),         # 12 stopped: 1 per full 10
    ("2d", "cut", 12, {"dr": 15}, 0),                           # rigid armor: no blunt trauma
    ("3d", "cr", 14, {"dr": 20, "flexible": True}, 2),          # 14 stopped: 1 per full 5
    ("3d", "burn", 14, {"dr": 20, "flexible": True}, 0),        # burning: no blunt trauma
    ("2d", "pi", 7, {"dr": 2, "location": "vitals"}, 15),       # 5 × 3
    ("3d", "imp", 18, {"location": "limb", "hp": 10}, 6),       # ×1, capped at 10 // 2 + 1
    ("3d", "cut", 10, {"location": "limb", "hp": 10}, 6),       # 15 → 6
    ("4d×2", "pi++", 13, {"dr": 8}, 36),                        # 26 − 8 = 18, × 2
    ("6d", "cr", 20, {"spread": 6}, 3),                         # blast at 2 yards: 20 ÷ 6
    ("6d", "cr", 20, {"spread": 6, "cover_dr": 2, "dr": 1}, 0),
    ("1d+1", "cr", 6, {"cover_dr": 3, "dr": 5, "flexible": True}, 0),  # 4 reach the armor: < 5
])
def test_pipeline_by_hand(dice, dtype, roll, kw, expected):
    assert injury(Hit(parse_damage(dice), dtype, **kw), roll)[0] == expected


def test_fatigue_damage_is_fp_and_no_wound():
    s = GurpsScenario(dodger=Dodger(defense="none"), target=Target(fp=10, fp_left=3),
                      attacks=(Attack(hits_by="fixed", hits=1, damage="1d", damage_type="fat"),))
    r = evaluate(s)
    assert r.headline["p_down"] == Fraction(4, 6)  # 3, 4, 5 or 6 FP lost
    assert r.headline["p_major_wound"] is None and "FP" in r.notes["p_major_wound"]
    assert "Down (FP ≤ 0)" in r.outcome_order


# -- the other situations by hand -----------------------------------------------------------------

def test_sacrificial_dodge_and_drop_by_hand():
    # One fixed hit at the friend; Dodge 9 + 3 = 12. Margin 3+ (roll ≤ 9): neither hit; rolls
    # 10-12: the dodger takes it; 13+: the friend is hit (no defense of his own).
    s = GurpsScenario(situation="sacrificial", dodger=Dodger(defense="dodge_and_drop"),
                      attacks=(Attack(hits_by="fixed", hits=1, damage="1d"),), friend=Friend(defends=False))
    r = evaluate(s)
    assert r.outcomes["Neither is hit (success by 3+)"] == Fraction(at_most(9), 216)
    assert r.outcomes["Dodger takes the hit"] == Fraction(at_most(12) - at_most(9), 216)
    assert r.headline["p_friend_hit"] == r.outcomes["Friend is hit"] == Fraction(216 - at_most(12), 216)
    assert r.headline["p_dodge_succeeds"] == Fraction(at_most(12), 216)
    assert r.distributions["ends_prone"][True] == 1  # dropped either way
    plain = evaluate(s.replace(dodger=Dodger(defense="plain")))
    assert plain.outcomes["Dodger takes the hit"] == Fraction(at_most(9), 216)  # no +3, no spoiling


def test_throwing_oneself_on_a_grenade_by_hand():
    preset = find_preset("gurps-4e/throw-yourself-on-a-grenade").scenario
    r = evaluate(preset)
    success = Fraction(at_most(12), 216)  # Dodge 9 + 3
    assert r.outcomes["Smothered: the dodger takes the blast in contact"] == success
    assert r.headline["p_friend_hit"] == 1 - success                      # the friend is 2 yards off
    maximum = evaluate(preset.replace(smother_damage="maximum"))
    assert maximum.distributions["injury"][20] == success                # 24 − DR 4
    # The friend, unprotected, takes ⌊4d ÷ 6⌋: 4..24 → 0..4; what he is spared on a success.
    spared = maximum.distributions["friend_injury_unprotected"]
    assert max(spared.outcomes()) == 4 and spared[4] == Fraction(1, 6 ** 4)
    assert r.headline["expected_friend_injury"] == (1 - success) * spared.mean()


def test_diving_for_cover_by_hand():
    success = Fraction(at_most(12), 216)
    trench = evaluate(find_preset("gurps-4e/dive-into-a-trench").scenario)
    assert trench.headline["p_no_hit"] == success and trench.outcomes["Reached complete cover"] == success
    open_ground = evaluate(find_preset("gurps-4e/dive-without-cover").scenario)
    # 6d at 2 yards is ÷ 6 (at most 6), a yard farther ÷ 9 (at most 4).
    injury = open_ground.distributions["injury"]
    assert open_ground.outcomes["A yard farther from the blast"] == success
    assert max(injury.outcomes()) == 6 and injury[6] == (1 - success) * Fraction(1, 6 ** 6)  # only if caught
    assert open_ground.headline["expected_hits"] == 1
    caught = open_ground.distributions["injury_if_caught"]  # ⌊6d ÷ 6⌋ at 2 yards
    # totals 6..11 give 1: C(t − 1, 5) ways each, 1 + 6 + 21 + 56 + 126 + 252 = 462 = C(11, 6)
    assert caught[6] == Fraction(1, 6 ** 6) and caught[1] == Fraction(462, 6 ** 6) and caught[0] == 0
    assert trench.distributions["injury_if_caught"] == caught


def test_out_of_reach_and_area_effects():
    far = GurpsScenario(situation="dive", blast=Blast(damage="2d", distance=4))  # reach: 4 yards
    r = evaluate(far)
    assert r.outcomes["Out of the blast's reach"] == Fraction(at_most(12), 216)
    area = evaluate(GurpsScenario(situation="dive", blast=Blast(damage="2d", spread="area", distance=4)))
    assert area.outcomes["Dove, but still in the area"] == Fraction(at_most(12), 216)
    assert area.headline["p_no_hit"] == 0


# -- rulings, traces, presets ------------------------------------------------------------------------

def test_every_ruling_is_declared_with_options_and_changes_something():
    names = {spec.name for spec in SYSTEM.rulings()}
    assert names == {"carry", "crit_dodge", "crit_hit", "smother_damage"}
    burst = GurpsScenario(dodger=Dodger(basic_speed=4.0), attacks=(Attack(skill=16, rof=8, recoil=1, damage="2d"),))
    where = {"carry": find_preset("gurps-4e/drop-behind-cover").scenario,
             "crit_dodge": burst.replace(attacks=(Attack(hits_by="fixed", hits=8, damage="2d"),)),
             "crit_hit": burst, "smother_damage": find_preset("gurps-4e/throw-yourself-on-a-grenade").scenario}
    for spec in SYSTEM.rulings():
        values = {evaluate(where[spec.name].replace(**{spec.name: v})).headline["expected_injury"]
                  for v, _ in spec.choices}
        assert len(values) == len(spec.choices), spec.name


def test_trace_shows_the_arithmetic_and_the_rulings():
    r = evaluate(find_preset("gurps-4e/drop-behind-cover").scenario)
    text = "\n".join(map(str, r.trace))
    assert "Ruling: Dodge and drop against the foe's later attacks: both" in text
    assert "Attack 2 after the dodge and drop: Cover: cover DR 8" in text
    assert "Attack 2 after the dodge and drop: Posture: -3 (prone after the dodge and drop) → 9" in text
    assert "(5d pi − cover DR 8 − DR 2) × 1 (pi, torso)" in text
    assert all(step.citation for step in r.trace)


def test_presets_are_consistent():
    assert SYSTEM.presets[0].name == "sword-2d1-cut-vs-dr3"
    for preset in SYSTEM.presets:
        r = evaluate(preset.scenario)
        assert sum(p for _, p in r.outcome_rows()) == 1
        assert r.hits[0] == r.headline["p_no_hit"] and r.hits.mean() == r.headline["expected_hits"]
        assert r.distributions["injury"].mean() == r.headline["expected_injury"]
        for key in SYSTEM.headlines:
            assert key in r.headline and (r.headline[key] is not None or key in r.notes)


def test_roll_once_is_reproducible_and_within_bounds():
    s = find_preset("gurps-4e/rapid-fire-dodge-and-drop").scenario
    first, again = roll_once(s, seed=5), roll_once(s, seed=5)
    assert first == again
    for seed in range(30):
        p = roll_once(s, seed)
        assert 0 <= p.hits <= p.arrived <= 10 and len(p.injuries) == p.hits
        assert p.outcome in evaluate(s).outcome_order


def test_faster_dodger_is_never_hit_more():
    previous = None
    for speed in (1.0, 3.0, 5.0, 7.0, 9.0, 12.0, 20.0):
        s = find_preset("gurps-4e/rapid-fire-dodge-and-drop").scenario.replace(dodger=Dodger(
            basic_speed=speed, defense="dodge_and_drop"))
        hits = evaluate(s).headline["expected_hits"]
        assert previous is None or hits <= previous
        previous = hits


# -- refusals name the field -----------------------------------------------------------------------

@pytest.mark.parametrize("data, field, words", [
    ({"dodger": {"defense": "retreat"}}, "attacks.0.kind", "only against melee"),
    ({"dodger": {"defense": "dodge_and_drop"}, "attacks": [{"kind": "melee"}]}, "attacks.0.kind",
     "only against ranged"),
    ({"dodger": {"defense": "dodge_and_drop", "posture": "lying"}}, "dodger.posture", "needs you up"),
    ({"dodger": {"defense": "dodge_and_drop", "flying": True}}, "dodger.below_terrain", "concealing terrain"),
    ({"target": {"hp": 8, "hp_left": 9}}, "target.hp_left", "at most the full HP (8)"),
    ({"target": {"location": "vitals"}}, "attacks.0.damage_type", "impaling or piercing"),
    ({"attacks": [{"damage_type": "fat"}, {"damage_type": "cr"}]}, "attacks.0.damage_type", "FP and HP"),
    ({"situation": "sacrificial", "attacks": [{}, {}]}, "attacks", "one attack"),
    ({"situation": "sacrificial", "dodger": {"defense": "none"}}, "dodger.defense", "sacrificial"),
    ({"situation": "smother", "blast": {"distance": 3}}, "blast.distance", "a step away"),
    ({"dodger": {"defense": "none", "acrobatic": True}}, "dodger.acrobatic", "no Dodge"),
    ({"attacks": [{"damage": "2d8"}]}, "attacks.0.damage", "six-sided"),
    ({"attacks": [{"damage": "two dice"}]}, "attacks.0.damage", "such as 2d+1"),
    ({"blast": {"damage": "0d"}}, "blast.damage", "has 0 dice; expected 1 to 30"),
    ({"attacks": [{"rof": 20, "skill": 30, "recoil": 1, "damage": "4d", "damage_type": "pi+"}] * 4},
     "attacks", "small enough to compute exactly"),
])
def test_refusals_name_the_field(data, field, words):
    with pytest.raises(ScenarioError) as err:
        load_scenario({"system": "gurps-4e", **data})
    problem, = err.value.problems
    assert problem.field == field and words in problem.allowed, str(err.value)
