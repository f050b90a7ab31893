"""The rule on concrete dice: its planning worked by hand (the Dodge, what a drop carries to the
foe's later attacks), one roll stepped through on typed faces, the ``classify`` hints proven by
enumerating without them, and the roller's contract (every die asked for, the trace only when
explaining)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rules_core import DiceError, Dist, enumerate_play, evaluate, find_preset, load_scenario, play_once, sample
from rules_core.systems.gurps_4e import SYSTEM, Attack, Blast, Cover, Dodger, Friend, GurpsScenario, Target
from rules_core.systems.gurps_4e import sources as cite
from rules_core.systems.gurps_4e.play import attack_context, base_dodge, dodge_score
from strategies import scenario_strategy

from .small import fix


# -- planning: the Dodge (B17, B375, B377, B419, B551) ------------------------------------------------

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


def test_the_dodge_steps_cite_encumbrance_only_when_it_counts_and_name_what_is_low():
    plain = base_dodge(GurpsScenario())
    assert [(step.rule, step.citation) for step in plain.steps] == [("Dodge", cite.DODGE)]
    loaded = base_dodge(GurpsScenario(dodger=Dodger(encumbrance="light"), target=Target(hp=9, hp_left=2)))
    assert [(step.rule, step.citation) for step in loaded.steps] == [
        ("Dodge", cite.DODGE + "; " + cite.ENCUMBRANCE), ("Below 1/3 HP", cite.LOW_HP_FP)]
    both = base_dodge(GurpsScenario(target=Target(hp=9, hp_left=2, fp=9, fp_left=2)))
    assert [step.rule for step in both.steps] == ["Dodge", "Below 1/3 HP and FP"]
    assert base_dodge(GurpsScenario(target=Target(fp=9, fp_left=2))).steps[1].rule == "Below 1/3 FP"


@pytest.mark.parametrize("rof, rapid", [(1, False), (2, True), (3, True)])
def test_the_rapid_fire_step_from_rof_2_even_without_a_bonus(rof, rapid):
    # RoF 2 to 4 give no skill bonus (B373), but a burst still scores hits by the margin.
    skill = attack_context(GurpsScenario(attacks=(Attack(rof=rof),)), 0, dropped=False).skill
    assert skill.value == 12
    assert [step.rule for step in skill.steps] == ["Attack roll"] + (["Rapid fire"] if rapid else [])


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


# -- one roll on typed faces ----------------------------------------------------------------------------

def test_the_seed_sword_on_typed_faces():
    # B378: the two damage dice show 3 and 4: 7 + 1 = 8, − DR 3 = 5, × 1.5 = 7.
    seed = find_preset("gurps-4e/sword-2d1-cut-vs-dr3").scenario
    played = play_once(SYSTEM, seed, faces=[3, 4])
    assert (played.outcome, played.hits, played.evasions, played["injury"]) == ("Major wound", 1, (), 7)
    assert played["major_wound"] and not played["down"]          # 7 > 10/2, but 7 < 10 HP
    assert [str(r) for r in played.rolled] == ["damage to the dodger: 3+4 = 7"]
    details = [step.detail for step in played.trace]
    assert "dice 7, 2d+1 → 8" in details and "8 − DR 3 → 5 penetrating" in details


@pytest.mark.parametrize("crit_dodge, landed", [("margin", 4), ("all", 0)])
def test_a_critical_dodge_against_five_hits_on_typed_faces(crit_dodge, landed):
    # Five fixed hits against Dodge 2 (8 halved to 4, −2 kneeling): a 3 (1, 1, 1) is a critical
    # success made by −1, which avoids one hit by margin — or all five under the ruling "all".
    # Each landing hit rolls 2 on 1d cutting: 2 × 1.5 = 3.
    s = GurpsScenario(dodger=Dodger(basic_speed=5.0, posture="kneeling"), target=Target(hp=9, hp_left=2),
                      attacks=(Attack(hits_by="fixed", hits=5, damage="1d"),), crit_dodge=crit_dodge)
    assert dodge_score(s, "ranged", False).value == 2
    played = play_once(SYSTEM, s, faces=[1, 1, 1] + [2] * landed)
    assert (played.hits, played["hits_dodged"], played["injury"], played.evasions) == (landed, 5 - landed,
                                                                                       3 * landed, (True,))


def test_a_turn_with_a_drop_behind_cover_step_by_step():
    # Three rifle shots at skill 13; Dodge 9 + 3. Shot 1: attack 3+3+3 = 9 hits (margin 4); Dodge
    # 4+4+4 = 12 made: the drop. Shot 2, after the drop (ruling both): skill 13 − 2 (prone) = 11,
    # rolled 2+2+2 = 6, one hit; Dodge 9 (+3 carried, −3 prone), rolled 6+6+4 = 16, failed; the hit
    # goes through cover DR 8 and DR 2: 5d of 1s = 5, nothing through. Shot 3: 6+6+6 = 18 misses.
    s = find_preset("gurps-4e/drop-behind-cover").scenario
    played = play_once(SYSTEM, s, faces=[3, 3, 3, 4, 4, 4, 2, 2, 2, 6, 6, 4, 1, 1, 1, 1, 1, 6, 6, 6])
    assert played.evasions == (True, False)
    assert (played.outcome, played.hits, played["hits_dodged"], played["injury"], played["ends_prone"]) == \
           ("Hits land, no injury", 1, 1, 0, True)
    text = "\n".join(map(str, played.trace))
    assert "roll 6 vs 11: success" in text and "roll 16 vs 9: failure" in text
    assert "cover DR 8 stops 5; 0 reaches the target" in text
    assert [r.dice.purpose for r in played.rolled] == ["attack 1", "Dodge", "attack 2", "Dodge",
                                                        "damage to the dodger", "attack 3"]


def test_the_friend_spared_and_the_dive_that_was_not_caught_are_rolled_too():
    # Throwing oneself on a 4d grenade: the Dodge 1+1+1 is made; the contact explosion rolls 4d
    # (all 2s: 8 − DR 4 = 4); the friend's share is rolled all the same (all 6s: 24 ÷ 6 = 4), what
    # he was spared.
    grenade = find_preset("gurps-4e/throw-yourself-on-a-grenade").scenario
    played = play_once(SYSTEM, grenade, faces=[1, 1, 1] + [2] * 4 + [6] * 4)
    assert (played.outcome, played["injury"], played["friend_injury"], played["friend_injury_unprotected"],
            played["friend_hit"]) == ("Smothered: the dodger takes the blast in contact", 4, 0, 4, False)
    # Diving into a trench from 6d at 2 yards: made, so nothing reaches him; the same 6d (all 6s)
    # say what being caught would have done: 36 ÷ 6 = 6.
    trench = find_preset("gurps-4e/dive-into-a-trench").scenario
    played = play_once(SYSTEM, trench, faces=[1, 1, 1] + [6] * 6)
    assert (played.outcome, played.hits, played["injury"], played["injury_if_caught"]) == \
           ("Reached complete cover", 0, 0, 6)


def test_faces_that_do_not_fit_are_refused():
    seed = find_preset("gurps-4e/sword-2d1-cut-vs-dr3").scenario
    with pytest.raises(DiceError, match="left over"):
        play_once(SYSTEM, seed, faces=[3, 4, 5])
    with pytest.raises(DiceError, match="damage to the dodger"):
        play_once(SYSTEM, seed, faces=[3])
    with pytest.raises(DiceError, match="not on a d6"):
        play_once(SYSTEM, seed, faces=[3, 7])


# -- the roller's contract ----------------------------------------------------------------------------

def test_random_plays_are_reproducible_explained_and_possible():
    s = find_preset("gurps-4e/rapid-fire-dodge-and-drop").scenario
    result = evaluate(s)
    assert play_once(SYSTEM, s, seed=5) == play_once(SYSTEM, s, seed=5)
    for seed in range(40):
        played = play_once(SYSTEM, s, seed=seed)
        assert played.trace and all(step.citation for step in played.trace)
        assert all(r.dice.sides == 6 and r.dice.total for r in played.rolled)
        # whatever one roll comes to, the exact result gives it a chance
        assert result.outcomes[played.outcome] > 0 and result.hits[played.hits] > 0
        assert result.distributions["injury"][played["injury"]] > 0
    quiet = list(sample(SYSTEM, s, 20, seed=1))
    assert all(p.trace == () for p in quiet)


# -- the classify hints, proven --------------------------------------------------------------------------

HINTED = [
    GurpsScenario(dodger=Dodger(defense="retreat", acrobatic=True, acrobatics=11), target=Target(dr=2, hp=6, hp_left=6),
                  attacks=(Attack(kind="melee", hits_by="fixed", hits=2, damage="1d", damage_type="cut"),)),
    GurpsScenario(dodger=Dodger(basic_speed=4.0), target=Target(hp=4, hp_left=4), crit_dodge="all",
                  attacks=(Attack(skill=15, rof=2, recoil=1, damage="1d", damage_type="imp"),)),
    GurpsScenario(dodger=Dodger(defense="dodge_and_drop"), cover=Cover(kind="dr", dr=2), target=Target(hp=5, hp_left=5),
                  attacks=(Attack(skill=12, damage="1d-1", damage_type="pi+"),
                           Attack(hits_by="fixed", hits=1, damage="1d", damage_type="cr")), crit_hit="first"),
    GurpsScenario(situation="sacrificial", dodger=Dodger(defense="dodge_and_drop"), friend=Friend(defense=10),
                  attacks=(Attack(skill=14, rof=2, recoil=2, damage="1d", damage_type="pi"),)),
    GurpsScenario(situation="sacrificial", friend=Friend(defense=3, defends=True), crit_dodge="all",
                  attacks=(Attack(skill=14, rof=3, recoil=1, damage="1d", damage_type="pi"),)),
    GurpsScenario(situation="smother", blast=Blast(damage="1d+2", distance=1), friend=Friend(distance=2),
                  dodger=Dodger(acrobatic=True)),
    GurpsScenario(situation="dive", blast=Blast(damage="2d", distance=1), cover=Cover(kind="dr", dr=1)),
]


@pytest.mark.parametrize("scenario", HINTED, ids=lambda s: s.situation)
def test_classify_hints_are_true_of_the_rule(scenario):
    # Totals a request groups must act alike: walking every total gives the same distribution.
    assert enumerate_play(SYSTEM, scenario) == enumerate_play(SYSTEM, scenario, classify=False)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_faster_dodger_is_never_hit_more(data):
    raw = data.draw(scenario_strategy(SYSTEM.id, small=True))
    scenario = load_scenario(fix({**raw, "situation": "attacks"}))
    if scenario.dodger.basic_speed > 19:
        return
    faster = scenario.replace(dodger=scenario.dodger.replace(basic_speed=scenario.dodger.basic_speed + 1))
    slow, fast = evaluate(scenario).headline, evaluate(faster).headline
    assert fast["expected_hits"] <= slow["expected_hits"]
    if slow["p_dodge_succeeds"] is not None:
        assert fast["p_dodge_succeeds"] >= slow["p_dodge_succeeds"]
    assert fast["p_no_hit"] >= slow["p_no_hit"]


# -- sacrificial dodge and smothering on typed faces (B374 "Sacrificial Dodge", B415 explosions) -------

SACRIFICE = GurpsScenario(situation="sacrificial", friend=Friend(defense=3, defends=True),
                          attacks=(Attack(skill=14, rof=3, recoil=1, damage="1d", damage_type="pi"),))


def test_a_critical_hit_the_friend_takes_leaves_the_dodge_to_face_the_others():
    # Attack 3 vs 14: a critical success, 3 hits; under crit_hit "first" the first cannot be
    # defended: the friend takes it, and the sacrificial dodge (6 vs 9) faces the other 2.
    played = play_once(SYSTEM, SACRIFICE.replace(crit_hit="first"), faces=[1, 1, 1, 1, 2, 3, 4, 4, 4])
    said = [(s.rule, s.detail) for s in played.trace]
    assert ("Sacrificial dodge", "roll 6 vs 9: success, margin +3 → avoids 2 of 2") in said
    assert [r.dice.purpose for r in played.rolled] == ["attack 1", "Sacrificial dodge", "damage to the dodger",
                                                       "damage to the dodger", "damage to the friend"]


@pytest.mark.parametrize("ruling, avoided, outcome", [("all", 3, "Friend defends every hit"), ("margin", 1, "Friend is hit")])
def test_the_friends_critical_dodge_follows_the_critical_dodge_ruling(ruling, avoided, outcome):
    # The sacrificial dodge fails (18); the friend's Dodge 3 rolls 3: a critical success by 0,
    # which avoids every hit under "all", 1 + 0 under "margin" (B375).
    faces = [2, 2, 2, 6, 6, 6, 1, 1, 1] + ([4, 4] if avoided < 3 else [])
    played = play_once(SYSTEM, SACRIFICE.replace(crit_dodge=ruling), faces=faces)
    said = [(s.rule, s.detail) for s in played.trace]
    assert ("Friend's defense", f"roll 3 vs 3: critical success, margin +0 → avoids {avoided} of 3") in said
    assert played.outcome == outcome
    assert [r.dice.purpose for r in played.rolled][:3] == ["attack 1", "Sacrificial dodge", "friend's Dodge"]


SMOTHER = GurpsScenario(situation="smother", blast=Blast(damage="1d+2", distance=1), friend=Friend(distance=2))


@pytest.mark.parametrize("dodge, outcome", [([1, 1, 1], "Smothered: the dodger takes the blast in contact"),
                                            ([6, 6, 6], "Too slow: the blast goes off")])
def test_smothering_asks_for_the_blast_on_the_dodger_and_the_friend(dodge, outcome):
    played = play_once(SYSTEM, SMOTHER, faces=[*dodge, 3, 2])
    assert played.outcome == outcome and played.hits == 1
    assert [r.dice.purpose for r in played.rolled] == ["Sacrificial dodge and drop", "blast damage to the dodger",
                                                       "blast damage to the friend"]


def test_maximum_contact_damage_is_traced_step_by_step():
    maximum = SMOTHER.replace(smother_damage="maximum")
    played = play_once(SYSTEM, maximum, faces=[1, 1, 1, 2])
    said = [(s.rule, s.detail) for s in played.trace]
    assert ("Basic damage", "dice 6, 1d+2 → 8") in said  # 6 per die: the most the die can show
    assert ("Wounding modifier", "8 × 1 (cr, torso) → 8 (round down, at least 1)") in said


# -- the attack roll and the Acrobatics roll on typed faces (B344, B373, B375, B381) ------------------

def test_an_attack_below_effective_skill_3_is_not_rolled_and_scores_nothing():
    from rules_core.systems.gurps_4e.sources import MIN_SKILL
    # Skill 3, −2 against a lying target (B551): effective skill 1, so no roll (B344) and no hit.
    low = GurpsScenario(dodger=Dodger(posture="lying"), attacks=(Attack(skill=3, damage="1d"),))
    played = play_once(SYSTEM, low, faces=[])
    assert (played.outcome, played.hits, played.rolled) == ("No hit arrives", 0, ())
    assert [(s.rule, s.detail, s.citation) for s in played.trace] == [
        ("Attack 1", "effective skill 1: no attack roll", MIN_SKILL)]
    assert evaluate(low).hits[0] == 1


RAPID = GurpsScenario(dodger=Dodger(acrobatic=True, acrobatics=12),
                      attacks=(Attack(skill=14, rof=3, recoil=1, damage="1d", damage_type="pi"),))


def test_a_critical_hit_is_said_and_cited_as_one_and_allows_no_dodge():
    from rules_core.systems.gurps_4e.sources import CRIT_HIT, RAPID_FIRE
    critical = play_once(SYSTEM, RAPID, faces=[1, 1, 1, 3, 4, 5])
    assert (critical.trace[0].rule, critical.trace[0].detail, critical.trace[0].citation) == (
        "Attack 1", "roll 3 vs 14: critical success, margin +11 → 3 hit(s), a critical hit", CRIT_HIT)
    assert [r.dice.purpose for r in critical.rolled] == ["attack 1"] + ["damage to the dodger"] * 3
    plain = play_once(SYSTEM, RAPID, faces=[2, 2, 2, 2, 2, 2, 3, 3, 3])
    assert (plain.trace[0].detail, plain.trace[0].citation) == ("roll 6 vs 14: success, margin +8 → 3 hit(s)",
                                                                 RAPID_FIRE)
    # The acrobatic dodge: its own roll first, +2 on a success (B375), then the Dodge 11.
    assert [r.dice.purpose for r in plain.rolled] == ["attack 1", "Acrobatics", "Dodge"]
    assert plain.trace[1].detail == "Acrobatics roll 6 vs 12: success, margin +6 → Dodge 11"
    assert plain.outcome == "Every hit dodged" and plain.evasions == (True,)


def test_no_trace_under_a_house_rule_when_the_roller_does_not_explain():
    from rules_core import Roller
    from rules_core.systems.gurps_4e.scenario import GurpsVariant

    class Quiet(Roller):
        explain = False

        def faces(self, dice):
            return (2,) * dice.count

    house = RAPID.replace(variant=GurpsVariant(retreat_bonus=2))
    assert SYSTEM.play(house, Quiet()).trace == ()
    assert play_once(SYSTEM, house, faces=[2, 2, 2, 2, 2, 2, 2, 2, 2]).trace[0].rule.startswith("House rule")


@pytest.mark.parametrize("scenario, said", [
    (GurpsScenario(situation="dive", blast=Blast(damage="2d", distance=1), cover=Cover(kind="dr", dr=1)),
     "the dodger reaches the cover: its DR stands between"),
    (GurpsScenario(situation="dive", blast=Blast(damage="2d", distance=1, spread="area")),
     "no cover: a step does not leave an area effect")])
def test_a_dives_success_says_what_the_step_reached(scenario, said):
    result = evaluate(scenario)
    assert [s.detail for s in result.trace if s.rule == "Success"] == [said]
    assert result.system == "gurps-4e"


def test_a_hit_that_arrived_still_counts_after_a_later_attack_misses():
    # No defense, DR 20: attack 1 (6 vs 12) hits and is stopped by the DR; attack 2 rolls 18, a
    # critical miss. A hit arrived this turn, whatever the last attack did.
    s = GurpsScenario(dodger=Dodger(defense="none"), target=Target(dr=20),
                      attacks=(Attack(skill=12, damage="1d"), Attack(skill=12, damage="1d")))
    played = play_once(SYSTEM, s, faces=[2, 2, 2, 3, 6, 6, 6])
    assert (played.outcome, played.hits) == ("Hits land, no injury", 1)


def test_after_a_drop_behind_complete_cover_later_attacks_are_blocked_without_a_roll():
    from rules_core.systems.gurps_4e.sources import COVER
    s = GurpsScenario(dodger=Dodger(defense="dodge_and_drop"), cover=Cover(kind="full"),
                      attacks=(Attack(skill=12, damage="1d"), Attack(skill=12, damage="1d"), Attack(skill=12, damage="1d")))
    played = play_once(SYSTEM, s, faces=[2, 2, 2, 1, 2, 2])
    assert [r.dice.purpose for r in played.rolled] == ["attack 1", "Dodge"]
    assert [(t.rule, t.detail, t.citation) for t in played.trace][-2:] == [
        ("Attack 2", "blocked by complete cover", COVER), ("Attack 3", "blocked by complete cover", COVER)]


def test_a_friend_beyond_the_blasts_reach_takes_nothing_even_from_large_adds():
    # 1d+10 reaches 2 yards (B414: 2 per die). At 3 yards its 11-16 ÷ 9 would still be 1-1
    # injury; out of reach it is none (B414), smothered or not.
    s = GurpsScenario(situation="smother", blast=Blast(damage="1d+10", distance=1), friend=Friend(distance=3))
    result = evaluate(s)
    assert result.distributions["friend_injury_unprotected"] == Dist.certain(0)
    assert result.headline["expected_friend_injury"] == 0


def test_no_drop_no_prone_dodger():
    # A dodge and drop is made only against an attack that hits: a miss (18) leaves him standing.
    s = GurpsScenario(dodger=Dodger(defense="dodge_and_drop"), attacks=(Attack(skill=12, damage="1d"),))
    assert play_once(SYSTEM, s, faces=[6, 6, 6])["ends_prone"] is False
    assert play_once(SYSTEM, s, faces=[2, 2, 2, 6, 6, 6, 3])["ends_prone"] is True  # hit, dodge failed, dropped


def test_the_blast_situations_cite_their_own_rule_and_say_an_area_effect_is_even():
    from rules_core.systems.gurps_4e.sources import DIVE, SACRIFICIAL
    dive = evaluate(GurpsScenario(situation="dive", blast=Blast(damage="2d", distance=1, spread="area")))
    said = {t.rule: (t.detail, t.citation) for t in dive.trace}
    assert said["Situation"] == ("diving for cover 1 yard(s) from the blast, no cover", DIVE)
    assert said["Blast"][0] == "2d cr, the same throughout the area"
    smother = evaluate(GurpsScenario(situation="smother", blast=Blast(damage="1d+2", distance=1)))
    assert {t.rule: t.citation for t in smother.trace}["Situation"] == SACRIFICIAL
    assert smother.system == "gurps-4e"


def test_the_attack_roll_is_read_under_the_house_rule_on_criticals():
    from rules_core.systems.gurps_4e.scenario import GurpsVariant
    # Critical successes up to 6 (officially up to 4): 5 vs 14 is a critical hit.
    s = GurpsScenario(dodger=Dodger(defense="none"), attacks=(Attack(skill=14, damage="1d"),),
                      variant=GurpsVariant(critical_up_to=6))
    played = play_once(SYSTEM, s, faces=[1, 2, 2, 3])
    assert [(t.rule, t.detail) for t in played.trace][:2] == [
        ("House rule", "Always a critical success: 3d6 up to 6 (official 4)"),
        ("Attack 1", "roll 5 vs 14: critical success, margin +9 → 1 hit(s), a critical hit")]


def test_a_plain_sacrificial_dodge_with_an_undefended_friend_is_said_so():
    # No dodge and drop, a friend who does not defend (B375).
    plain = evaluate(GurpsScenario(situation="sacrificial", friend=Friend(defends=False),
                                   attacks=(Attack(skill=14, rof=3, recoil=1, damage="1d"),)))
    said = {t.rule: t.detail for t in plain.trace}
    assert said["Situation"] == "the attack is aimed at a friend a step away; the dodger tries a sacrificial dodge"
    assert said["Sacrificial dodge"] == "success: the dodger takes the hit(s)"
    assert said["If it fails"] == "the friend is hit (no defense)"
    assert plain.system == "gurps-4e"


@pytest.mark.parametrize("attack, said", [
    (Attack(skill=12, rof=2, recoil=1, damage="1d"), True),
    (Attack(kind="melee", hits_by="fixed", hits=2, damage="1d"), True),
    (Attack(skill=12, damage="1d"), False)])
def test_the_rule_on_dodging_rapid_fire_is_traced_where_more_than_one_hit_can_arrive(attack, said):
    result = evaluate(GurpsScenario(attacks=(attack,)))
    assert ("Dodging rapid fire" in {t.rule for t in result.trace}) is said
    assert result.system == "gurps-4e"


def test_the_sacrificial_trace_says_which_hits_of_a_critical_strike_the_friend():
    for ruling, which in (("all", "hits"), ("first", "first hit")):
        result = evaluate(SACRIFICE.replace(crit_hit=ruling))
        assert {t.rule: t.detail for t in result.trace}["Critical hit"] == (
            f"no defense at all, not even a sacrificial one, against its {which}: they strike the friend")


def test_a_dodged_hit_still_arrived_after_a_later_attack_misses():
    # Attack 1 (6 vs 12) hits, the Dodge (5 vs 9) avoids it; attack 2 rolls 18. Every hit that
    # arrived was dodged: not "no hit arrives".
    s = GurpsScenario(dodger=Dodger(defense="plain"), attacks=(Attack(skill=12, damage="1d"), Attack(skill=12, damage="1d")))
    assert play_once(SYSTEM, s, faces=[2, 2, 2, 1, 2, 2, 6, 6, 6]).outcome == "Every hit dodged"


def test_an_undefended_friend_takes_the_critical_hit_and_the_hits_the_dodge_missed():
    # A critical success (3): 3 hits, the first undefendable (crit_hit "first"); the sacrificial
    # dodge (18) fails, the friend does not defend: he takes all 3 (B375).
    s = SACRIFICE.replace(crit_hit="first", friend=Friend(defends=False))
    played = play_once(SYSTEM, s, faces=[1, 1, 1, 6, 6, 6, 1, 2, 3])
    assert played.outcome == "Friend is hit"
    assert [r.dice.purpose for r in played.rolled].count("damage to the friend") == 3
