"""GURPS's die rules by hand: the 3d6 success roll and its criticals (B343-348), the rapid-fire
table and hits (B373), the hits a Dodge avoids (B375), critical hits (B381), and the requests the
rule makes for its dice."""

from __future__ import annotations

import pytest

from rules_core.systems.gurps_4e.dice import (ROLL_3D6, damage_request, hits_avoided, hits_scored, rof_bonus,
                                              success_request, success_roll, success_weight, undefendable)


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


# -- rapid fire (B373-375) ------------------------------------------------------------------------

def test_rapid_fire_bonus_table():
    assert [rof_bonus(r) for r in (1, 4, 5, 8, 9, 12, 13, 16, 17, 24, 25, 49, 50)] == \
           [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6]


@pytest.mark.parametrize("roll, skill, rof, recoil, hits", [
    (15, 14, 10, 2, 0),       # a miss
    (14, 14, 10, 2, 1),       # margin 0: one hit
    (12, 14, 10, 2, 2),       # margin 2: one per full Recoil 2
    (11, 14, 10, 2, 2),       # margin 3: still 2
    (3, 14, 10, 2, 6),        # margin 11: 1 + 5
    (3, 14, 4, 1, 4),         # capped at RoF
    (4, 2, 10, 1, 1),         # a 4 made against skill 2: margin −2 counts as 0
])
def test_hits_scored_by_hand(roll, skill, rof, recoil, hits):
    assert hits_scored(success_roll(roll, skill), rof, recoil) == hits


@pytest.mark.parametrize("roll, score, facing, ruling, avoided", [
    (11, 10, 3, "margin", 0),     # a failed Dodge avoids nothing
    (10, 10, 3, "margin", 1),     # margin 0: one hit
    (8, 10, 5, "margin", 3),      # one plus one per point of margin
    (5, 10, 3, "margin", 3),      # at most the hits it faces
    (3, 1, 5, "margin", 1),       # a 3 is a critical success even at Dodge 1: by margin, one hit
    (3, 1, 5, "all", 5),          # ... or every hit under crit_dodge = all
    (6, 10, 5, "all", 5),         # 6 at 10 is not critical: by margin, 5 hits anyway
    (7, 10, 5, "all", 4),
])
def test_hits_avoided_by_hand(roll, score, facing, ruling, avoided):
    assert hits_avoided(success_roll(roll, score), facing, ruling) == avoided


@pytest.mark.parametrize("hits, critical, ruling, free", [
    (4, False, "all", 0), (4, True, "all", 4), (4, True, "first", 1), (0, True, "first", 0)])
def test_undefendable_hits_of_a_critical_hit(hits, critical, ruling, free):
    assert undefendable(hits, critical, ruling) == free


def test_every_roll_is_asked_as_a_total_of_six_sided_dice():
    three = success_request("dodge")
    assert (three.sides, three.count, three.total) == (6, 3, True)
    five = damage_request("damage", 5)
    assert (five.sides, five.count, five.total) == (6, 5, True)
    assert three.answer((6, 5, 1)) == 12
