"""What the dodger who does not react meets, worked by hand (docs/mutation.md, 2026-12-04): no
dive, nobody on the explosive, no sacrificial dodge — on typed faces (which dice are asked for,
what the trace says, who takes how many hits) and in the exact result (its trace line by line,
the friend's own critical Dodge). Also the dive's one damage roll that serves two distances,
enumerated, and what :func:`attack_outcomes` says of an attack that cannot hit."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules_core import Dist, enumerate_play, evaluate, play_once
from rules_core.systems.gurps_4e import SYSTEM, Attack, Blast, Cover, Dodger, Friend, GurpsScenario
from rules_core.systems.gurps_4e import sources as cite
from rules_core.systems.gurps_4e.exact import attack_outcomes
from rules_core.systems.gurps_4e.play import AttackHits, attack_context

from .test_exact import at_most

NONE = Dodger(defense="none")


def said(played) -> list[tuple[str, str, str]]:
    return [(t.rule, t.detail, t.citation) for t in played.trace]


def purposes(played) -> list[str]:
    return [r.dice.purpose for r in played.rolled]


# -- the rule on typed faces: no reaction (B375, B377, B414) --------------------------------------------

def test_no_dive_on_typed_faces_rolls_only_the_blast_where_he_stands():
    # No Dodge roll. 2d at 1 yard, both dice 6: 12 ÷ 3 = 4; the cover a step away is never reached.
    s = GurpsScenario(situation="dive", dodger=NONE, blast=Blast(damage="2d", distance=1), cover=Cover(kind="dr", dr=1))
    played = play_once(SYSTEM, s, faces=[6, 6])
    assert purposes(played) == ["blast damage to the dodger"]
    assert (played.outcome, played.hits, played.evasions, played["injury"], played["injury_if_caught"]) == (
        "No dive: caught where he stood", 1, (), 4, 4)
    assert said(played)[0] == ("No dive", "the dodger does not dive: the effect finds him where he stands", cite.DIVE)
    assert [t.rule for t in played.trace][1:] == ["Basic damage", "Explosion at a distance", "DR",
                                                   "Wounding modifier"]


def test_nobody_on_the_explosive_on_typed_faces():
    # 1d+2, the die 4 for each: the dodger at 1 yard 6 ÷ 3 = 2; the friend at 2 yards 6 ÷ 6 = 1,
    # inside its reach (2 yards per die, B414), so he takes it.
    s = GurpsScenario(situation="smother", dodger=NONE, blast=Blast(damage="1d+2", distance=1), friend=Friend(distance=2))
    played = play_once(SYSTEM, s, faces=[4, 4])
    assert purposes(played) == ["blast damage to the dodger", "blast damage to the friend"]
    assert (played.outcome, played.evasions, played["injury"], played["friend_injury"], played["friend_hit"]) == (
        "Nobody on it: the blast goes off", (), 2, 1, True)
    assert said(played)[0] == ("Nobody on the explosive", "the dodger does not throw himself on it: the blast "
                               "goes off with everyone where they stood", cite.EXPLOSION)


SACRIFICE = GurpsScenario(situation="sacrificial", dodger=NONE, friend=Friend(defense=3, defends=True),
                          attacks=(Attack(skill=14, rof=3, recoil=1, damage="1d", damage_type="pi"),))


def test_no_sacrificial_dodge_leaves_the_friend_to_defend_alone():
    # Attack 6 vs 14: margin 8, 3 hits (RoF 3). The dodger does not interpose; the friend's Dodge 3
    # rolls 18 and avoids none: the friend takes all three.
    played = play_once(SYSTEM, SACRIFICE, faces=[2, 2, 2, 6, 6, 6, 1, 2, 3])
    assert said(played)[:3] == [
        ("Attack 1", "roll 6 vs 14: success, margin +8 → 3 hit(s)", cite.RAPID_FIRE),
        ("No sacrificial dodge", "the dodger does not interpose; the attack goes at the friend", cite.SACRIFICIAL),
        ("Friend's defense", "roll 18 vs 3: critical failure, margin -15 → avoids 0 of 3", cite.RAPID_DODGE)]
    assert purposes(played) == ["attack 1", "friend's Dodge"] + ["damage to the friend"] * 3
    assert (played.outcome, played.hits, played.evasions, played["friend_hit"]) == ("Friend is hit", 0, (), True)


def test_without_a_sacrificial_dodge_the_friend_faces_what_the_critical_hit_leaves():
    # Attack 3: a critical hit, 3 hits; under crit_hit "first" the first strikes the friend
    # undefended, and his own Dodge faces the other 2: 4 vs 3 is a critical success by −1, which
    # avoids 1 (by margin). He takes 1 + 2 − 1 = 2 hits.
    played = play_once(SYSTEM, SACRIFICE.replace(crit_hit="first"), faces=[1, 1, 1, 1, 1, 2, 5, 6])
    assert ("Friend's defense", "roll 4 vs 3: critical success, margin -1 → avoids 1 of 2",
            cite.RAPID_DODGE) in said(played)
    assert purposes(played) == ["attack 1", "friend's Dodge", "damage to the friend", "damage to the friend"]
    assert played["friend_injury"] == 5 + 6


def test_an_undefended_friend_takes_every_hit_when_nobody_interposes():
    # The same critical hit, a friend who does not defend: the first hit and the two the dodger
    # could have interposed for, all three his.
    s = SACRIFICE.replace(crit_hit="first", friend=Friend(defends=False))
    played = play_once(SYSTEM, s, faces=[1, 1, 1, 1, 2, 3])
    assert purposes(played) == ["attack 1"] + ["damage to the friend"] * 3
    assert played["friend_injury"] == 1 + 2 + 3


def test_no_defense_is_asked_for_when_every_hit_is_a_critical_ones():
    # Under crit_hit "all" a critical hit allows no defense to anyone (B381): the friend's Dodge is
    # not rolled, nor is the dodger's choice not to interpose worth a line.
    played = play_once(SYSTEM, SACRIFICE, faces=[1, 1, 1, 1, 2, 3])
    assert purposes(played) == ["attack 1"] + ["damage to the friend"] * 3
    assert "No sacrificial dodge" not in {t.rule for t in played.trace}


def test_a_dives_one_damage_roll_serves_both_distances_when_enumerated():
    # 2d at 2 yards, no cover: Dodge 6 + 3 + 3 (dodge and drop) = 12 is made on 160 of 216.
    # Made: a yard farther, ⌊2d ÷ 9⌋ is 1 on totals 9-12 (10 of 36 ways). Failed: ⌊2d ÷ 6⌋ is 1
    # on totals 6-11 (25 ways), 2 on 12 (1 way). The totals 6-8 and 9-11 hurt alike at 2 yards but
    # not at 3, so the roll cannot be grouped by the first distance alone.
    s = GurpsScenario(situation="dive", blast=Blast(damage="2d", distance=2))
    made, failed = Fraction(at_most(12), 216), 1 - Fraction(at_most(12), 216)
    by_hand = {0: made * Fraction(26, 36) + failed * Fraction(10, 36),
               1: made * Fraction(10, 36) + failed * Fraction(25, 36),
               2: failed * Fraction(1, 36)}
    enumerated = enumerate_play(SYSTEM, s, key=lambda p: p["injury"])
    assert dict(enumerated.items()) == by_hand
    assert dict(evaluate(s).distributions["injury"].items()) == by_hand


# -- the exact result: no reaction, line by line ---------------------------------------------------------

BLAST_STEPS = ("Large-area injury", "a blast uses torso wounding and the DR given for the target", cite.LARGE_AREA)


def lines(result) -> list[tuple[str, str, str]]:
    return [(t.rule, t.detail, t.citation) for t in result.trace]


def test_the_result_of_no_dive_says_so_and_traces_no_dodge():
    s = GurpsScenario(situation="dive", dodger=NONE, blast=Blast(damage="2d", distance=1), cover=Cover(kind="dr", dr=1))
    r = evaluate(s)
    assert (r.system, r.scenario) == ("gurps-4e", s)
    assert lines(r) == [
        ("Situation", "1 yard(s) from the blast, cover with DR 1 a step away; the dodger does not dive", cite.DIVE),
        ("Blast", "2d cr, ÷ (3 × yards) at a distance, nothing beyond 4 yards", cite.EXPLOSION),
        BLAST_STEPS,
        ("No dive", "the dodger suffers the effect where he stands", cite.DIVE)]
    # 2d ÷ 3 where he stands, DR 0: 0 on 2, then 1 on 3-5 (9 of 36 ways) … 4 on 12.
    assert r.outcomes == Dist.certain("No dive: caught where he stood")
    assert r.distributions["injury"][1] == Fraction(2 + 3 + 4, 36)


def test_the_result_of_nobody_on_the_explosive_says_so_and_traces_no_dodge():
    s = GurpsScenario(situation="smother", dodger=NONE, blast=Blast(damage="1d+2", distance=1), friend=Friend(distance=2))
    r = evaluate(s)
    assert (r.system, r.scenario) == ("gurps-4e", s)
    assert lines(r) == [
        ("Situation", "an explosive a step from the dodger and 2 yard(s) from a friend; nobody throws himself "
                      "on it", cite.SACRIFICIAL),
        ("Ruling: Throwing yourself on an explosive", "contact — Contact explosion: the listed damage, rolled, not "
                                                      "divided (B377 says 'treat the blast as a contact explosion')",
         cite.RULINGS),
        ("Blast", "1d+2 cr, ÷ (3 × yards) at a distance, nothing beyond 2 yards", cite.EXPLOSION),
        BLAST_STEPS,
        ("Nobody on the explosive", "the blast goes off with the dodger 1 and the friend 2 yard(s) away",
         cite.EXPLOSION)]
    assert r.outcomes == Dist.certain("Nobody on it: the blast goes off")
    assert r.headline["p_friend_hit"] == 1


def test_the_result_of_no_sacrificial_dodge_says_so_line_by_line():
    r = evaluate(SACRIFICE)
    assert (r.system, r.scenario) == ("gurps-4e", SACRIFICE)
    assert lines(r)[:6] == [
        ("Situation", "the attack is aimed at a friend a step away; the dodger makes no sacrificial dodge",
         cite.SACRIFICIAL),
        ("Ruling: Critical success on a Dodge against rapid fire",
         "margin — By margin: like any success, one hit plus one per point of margin (B375 as written)", cite.RULINGS),
        ("Ruling: Critical hit with rapid fire", "all — All its hits: no defense against any of them", cite.RULINGS),
        ("Attack: Attack roll", "ranged, effective skill 14", cite.SUCCESS),
        ("Attack: Rapid fire", "hits = 1 + ⌊margin / Recoil 1⌋, at most RoF 3", cite.RAPID_FIRE),
        ("No sacrificial dodge", "the friend defends with Dodge 3", cite.SACRIFICIAL)]
    assert "Dodge" not in {t.rule for t in r.trace}


@pytest.mark.parametrize("ruling, defends", [("all", Fraction(4, 216)), ("margin", 0)])
def test_the_friends_critical_dodge_alone_follows_the_ruling(ruling, defends):
    # Three fixed hits at the friend, nobody interposing; his Dodge 3 succeeds only on 3-4 (4 of
    # 216), each a critical success by 0 or −1: every hit avoided under "all", one under "margin".
    s = GurpsScenario(situation="sacrificial", dodger=NONE, friend=Friend(defense=3), crit_dodge=ruling,
                      attacks=(Attack(hits_by="fixed", hits=3, damage="1d"),))
    r = evaluate(s)
    assert r.outcomes["Friend defends every hit"] == defends
    assert r.headline["p_friend_hit"] == 1 - defends
    assert r.headline["p_dodge_succeeds"] is None


# -- attack_outcomes of an attack that cannot hit (public: exact.__all__) ----------------------------------

def test_an_attack_that_cannot_hit_is_no_hit_and_no_critical_hit():
    behind = GurpsScenario(dodger=Dodger(defense="dodge_and_drop"), cover=Cover(kind="full"),
                           attacks=(Attack(damage="1d"), Attack(damage="1d")))
    assert dict(attack_outcomes(attack_context(behind, 1, dropped=True), behind)) == {AttackHits(0, False): 216}
    # Skill 3 − 2 against a lying target: effective skill 1, no roll (B344).
    low = GurpsScenario(dodger=Dodger(posture="lying"), attacks=(Attack(skill=3, damage="1d"),))
    assert dict(attack_outcomes(attack_context(low, 0, dropped=False), low)) == {AttackHits(0, False): 216}
    fixed = GurpsScenario(attacks=(Attack(hits_by="fixed", hits=2, damage="1d"),))
    assert dict(attack_outcomes(attack_context(fixed, 0, dropped=False), fixed)) == {AttackHits(2, False): 216}


@pytest.mark.parametrize("ruling, defends", [("all", Fraction(212 * 4, 216 * 216)), ("margin", 0)])
def test_the_friends_critical_dodge_after_a_failed_sacrificial_dodge_follows_the_ruling(ruling, defends):
    # The dodger's Dodge is 1 + 3 = 4 (Basic Speed 1): it fails on 5-18 (212 of 216). Then the
    # friend's Dodge 3 faces the three fixed hits: only 3-4 succeed (4 of 216), critical successes
    # by 0 and −1 that avoid every hit under "all" and one under "margin" (B375).
    s = GurpsScenario(situation="sacrificial", dodger=Dodger(basic_speed=1, defense="plain"), crit_dodge=ruling,
                      friend=Friend(defense=3), attacks=(Attack(hits_by="fixed", hits=3, damage="1d"),))
    r = evaluate(s)
    assert r.headline["p_dodge_succeeds"] == Fraction(4, 216)
    assert r.outcomes["Friend defends every hit"] == defends
