"""GURPS 4e: the fast exact algorithm equals exhaustive enumeration of the rule on concrete dice.

`enumerate_plays` runs `play` (the rule written once, on dice totals) over every way every roll
can fall — attack, Acrobatics, Dodge, the friend's Dodge, every damage roll of every landing hit —
weighting each way by the face combinations that give it. Everything the result reports must
equal what those plays add up to."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from math import lcm

import pytest

from rules_core import Dist, evaluate
from rules_core.systems.gurps import (Attack, Blast, Cover, Dodger, Friend, GurpsScenario, Target,
                                      enumerate_plays)
from rules_core.systems.gurps.rules import major_wound, points_left

DROP = Dodger(defense="dodge_and_drop")


def oracle(scenario: GurpsScenario) -> dict:
    """What the plays add up to, as distributions and exact probabilities."""
    plays = list(enumerate_plays(scenario))
    den = lcm(*(p.denominator for _, p in plays))
    weighted = [(pl, p.numerator * (den // p.denominator)) for pl, p in plays]
    assert sum(w for _, w in weighted) == den

    def dist(key) -> Dist:
        counts: Counter = Counter()
        for pl, w in weighted:
            counts[key(pl)] += w
        return Dist(counts)

    def prob(event) -> Fraction:
        return Fraction(sum(w for pl, w in weighted if event(pl)), den)

    rolled = prob(lambda pl: pl.dodge_rolls)
    pool, left = points_left(scenario)
    return {
        "outcomes": dist(lambda pl: pl.outcome),
        "hits": dist(lambda pl: pl.hits),
        "injury": dist(lambda pl: pl.injury),
        "dodged": dist(lambda pl: pl.dodged),
        "prone": dist(lambda pl: pl.ends_prone),
        "friend_injury": dist(lambda pl: sum(pl.friend_injuries)),
        "p_dodge_succeeds": prob(lambda pl: pl.dodge_rolls and all(pl.dodge_rolls)) / rolled if rolled else None,
        "p_major_wound": prob(lambda pl: any(major_wound(v, scenario.target.hp) for v in pl.injuries)),
        "p_down": prob(lambda pl: pl.injury >= left),
        "p_friend_hit": prob(lambda pl: pl.friend_hits > 0),
        "pool": pool,
    }


def assert_equal_to_enumeration(scenario: GurpsScenario) -> None:
    truth, result = oracle(scenario), evaluate(scenario)
    assert result.outcomes == truth["outcomes"]
    assert result.hits == truth["hits"]
    assert result.distributions["injury"] == truth["injury"]
    assert result.distributions["ends_prone"] == truth["prone"]
    head = result.headline
    assert head["p_dodge_succeeds"] == truth["p_dodge_succeeds"]
    assert head["p_down"] == truth["p_down"]
    assert head["expected_injury"] == truth["injury"].mean()
    assert head["p_no_hit"] == truth["hits"][0] and head["expected_hits"] == truth["hits"].mean()
    if truth["pool"] == "HP":
        assert head["p_major_wound"] == truth["p_major_wound"]
    else:
        assert head["p_major_wound"] is None
    if "hits_dodged" in result.distributions:
        assert result.distributions["hits_dodged"] == truth["dodged"]
    if scenario.situation in ("sacrificial", "smother"):
        assert result.distributions["friend_injury"] == truth["friend_injury"]
        assert head["p_friend_hit"] == truth["p_friend_hit"]
        assert head["expected_friend_injury"] == truth["friend_injury"].mean()


# -- one attack ---------------------------------------------------------------------------------

@pytest.mark.parametrize("skill, speed, defense, kind", [
    (3, 5.0, "plain", "ranged"),          # only 3-4 hit (always, as criticals)
    (10, 6.5, "plain", "melee"),
    (14, 4.0, "retreat", "melee"),
    (16, 7.25, "dodge_and_drop", "ranged"),  # criticals on 3-6
    (30, 20.0, "dodge_and_drop", "ranged"),  # 17-18 still miss; Dodge 26 still fails on 17-18
    (12, 6.0, "none", "ranged"),
])
def test_single_attack_grid(skill, speed, defense, kind):
    assert_equal_to_enumeration(GurpsScenario(
        dodger=Dodger(basic_speed=speed, defense=defense), target=Target(dr=1, hp=5, hp_left=4),
        attacks=(Attack(kind=kind, skill=skill, damage="1d+1", damage_type="cut"),)))


@pytest.mark.parametrize("crit_dodge, crit_hit", [("margin", "all"), ("all", "first")])
def test_rapid_fire_and_critical_rulings(crit_dodge, crit_hit):
    assert_equal_to_enumeration(GurpsScenario(
        dodger=Dodger(basic_speed=8.0, defense="dodge_and_drop"), target=Target(hp=4, hp_left=4),
        attacks=(Attack(skill=16, rof=3, recoil=1, damage="1d-2", damage_type="pi-"),),
        crit_dodge=crit_dodge, crit_hit=crit_hit))


def test_acrobatic_dodge_sub_roll_with_blunt_trauma_and_low_hp():
    # Acrobatics roll before the Dodge; HP 2 of 7 left halves the Dodge; flexible DR 5 vs 1d+2 cr.
    assert_equal_to_enumeration(GurpsScenario(
        dodger=Dodger(basic_speed=6.0, defense="retreat", acrobatic=True, acrobatics=11),
        target=Target(dr=5, flexible=True, hp=7, hp_left=2),
        attacks=(Attack(kind="melee", skill=13, damage="1d+2", damage_type="cr"),)))


def test_limb_cap_and_armor_divisor():
    assert_equal_to_enumeration(GurpsScenario(
        dodger=Dodger(posture="kneeling", shield_db=2), target=Target(dr=4, location="limb", hp=6, hp_left=6),
        attacks=(Attack(skill=13, rof=2, recoil=2, damage="1d+3", damage_type="imp", divisor="2"),)))


def test_fatigue_damage_comes_off_fp():
    assert_equal_to_enumeration(GurpsScenario(
        target=Target(fp=5, fp_left=3), attacks=(Attack(hits_by="fixed", hits=2, damage="1d", damage_type="fat"),)))


# -- a sequence of attacks from one foe -----------------------------------------------------

@pytest.mark.parametrize("carry", ["both", "bonus_only", "prone_only"])
def test_dodge_and_drop_then_later_attack_behind_cover(carry):
    # The first attack prompts the drop (cover does not count); the second meets the cover DR,
    # and the carry ruling decides the +3 and the prone -3.
    assert_equal_to_enumeration(GurpsScenario(
        dodger=DROP, target=Target(dr=1, hp=6, hp_left=6), cover=Cover(kind="dr", dr=2), carry=carry,
        attacks=(Attack(hits_by="fixed", hits=1, damage="1d+1", damage_type="cr"),
                 Attack(hits_by="fixed", hits=2, damage="1d+1", damage_type="cr"))))


def test_missed_first_attack_means_the_drop_comes_later():
    # Skill 5 (with the target's posture it can go under 3): the drop happens only when a Dodge
    # is rolled; a prone target is -2 to the foe's next ranged attack.
    assert_equal_to_enumeration(GurpsScenario(
        dodger=DROP.replace(posture="crouching"), cover=Cover(kind="full"),
        attacks=(Attack(skill=7, damage="1d"), Attack(skill=12, damage="1d"))))


def test_flyer_does_not_end_prone():
    assert_equal_to_enumeration(GurpsScenario(
        dodger=DROP.replace(flying=True, below_terrain=True), cover=Cover(kind="dr", dr=3),
        attacks=(Attack(hits_by="fixed", hits=1, damage="1d"), Attack(hits_by="fixed", hits=1, damage="1d"))))


# -- sacrificial dodge, smothering, diving for cover ------------------------------------------------

@pytest.mark.parametrize("defense, defends, crit_hit", [
    ("dodge_and_drop", True, "all"), ("plain", False, "first"), ("dodge_and_drop", False, "first")])
def test_sacrificial_dodge(defense, defends, crit_hit):
    assert_equal_to_enumeration(GurpsScenario(
        situation="sacrificial", dodger=Dodger(defense=defense), target=Target(dr=2, hp=6, hp_left=6),
        friend=Friend(defends=defends, defense=10, dr=1), crit_hit=crit_hit,
        attacks=(Attack(skill=15, rof=2, recoil=1, damage="1d", damage_type="pi"),)))


@pytest.mark.parametrize("smother_damage", ["contact", "maximum"])
@pytest.mark.parametrize("distance, friend_distance", [(0, 1), (1, 3), (1, 9)])
def test_throwing_oneself_on_an_explosive(smother_damage, distance, friend_distance):
    assert_equal_to_enumeration(GurpsScenario(
        situation="smother", target=Target(dr=1, hp=8, hp_left=8),
        blast=Blast(damage="2d+1", distance=distance), friend=Friend(distance=friend_distance, dr=0),
        smother_damage=smother_damage))


@pytest.mark.parametrize("cover, spread, distance, acrobatic", [
    ("none", "explosion", 1, False), ("none", "explosion", 4, True), ("none", "explosion", 9, False),
    ("none", "area", 3, False), ("dr", "explosion", 1, True), ("full", "explosion", 2, False),
    ("dr", "area", 0, False)])
def test_diving_for_cover(cover, spread, distance, acrobatic):
    assert_equal_to_enumeration(GurpsScenario(
        situation="dive", dodger=Dodger(acrobatic=acrobatic), target=Target(dr=1, flexible=True, hp=6, hp_left=6),
        blast=Blast(damage="2d", distance=distance, spread=spread), cover=Cover(kind=cover, dr=2)))
