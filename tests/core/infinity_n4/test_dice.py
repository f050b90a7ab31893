"""Infinity N4's die rules (``dice.py``) by hand from the rules text: a face against a Success
Value, the ±12 cap, one Face to Face Roll on concrete faces, the Saving Roll's threshold."""

from __future__ import annotations

import pytest

from rules_core.systems.infinity_n4.dice import (
    resolve_face_to_face, roll_rank, saving_roll_wounds, success_value, wound_threshold)


# -- the rule on single dice, by hand from the rules text ----------------------------------------

@pytest.mark.parametrize("face, sv, rank", [
    (1, 10, 1), (9, 10, 9), (10, 10, 20), (11, 10, 0), (20, 10, 0),   # plain roll-under, crit on SV
    (20, 20, 20), (19, 20, 19),                                        # SV 20: only a 20 is critical
    (1, 1, 20), (2, 1, 0),                                             # SV 1: a 1 is a critical
    (5, 0, 0), (1, -3, 0),                                             # SV <= 0: automatic failure
    (1, 21, 2), (19, 21, 20), (18, 21, 19), (20, 21, 20),              # SV 21: +1, crit on 19+
    (15, 25, 20), (14, 25, 19), (1, 30, 11), (10, 30, 20),             # SV 25 and 30
])
def test_roll_rank_by_hand(face, sv, rank):
    assert roll_rank(face, sv) == rank


def test_mod_cap():
    assert success_value(10, [5, 4, 6]) == (22, True)    # +15 capped to +12
    assert success_value(10, [-3, -3, -3]) == (1, False)
    assert success_value(10, [-13]) == (-2, True)


def test_resolve_by_hand():
    # Ties cancel both dice; a cancelled die still cancels lower enemy successes.
    assert resolve_face_to_face([8], 10, [8, 5], 15) == ((), ())
    # A critical beats every value; criticals on both sides all cancel.
    assert resolve_face_to_face([10], 10, [14, 3], 15) == ((20,), ())
    assert resolve_face_to_face([10], 10, [15, 14], 15) == ((), ())
    # The higher success wins and keeps only dice above the loser's best.
    assert resolve_face_to_face([6], 10, [7, 5, 3], 15) == ((), (7,))
    # Several kept, best first: a Burst's successes are its hits, highest value first.
    assert resolve_face_to_face([2], 10, [3, 9, 7], 15) == ((), (9, 7, 3))
    # A side that rolls no dice cancels nothing: every success of the other side stays, a 1 too.
    assert resolve_face_to_face([1, 12, 4], 10, [], 15) == ((4, 1), ())
    assert resolve_face_to_face([], 10, [1], 15) == ((), (1,))


@pytest.mark.parametrize("damage, resist, ap, cover, threshold", [
    (13, 1, False, False, 12),   # DAM − ARM
    (13, 1, False, True, 9),     # −3 more in Partial Cover
    (13, 5, True, False, 10),    # AP: 5 halved rounding up is 3
    (13, 1, True, False, 12),    # AP: 1 halved rounding up stays 1
    (13, 0, True, False, 13),    # AP: 0 stays 0
    (14, 8, True, True, 7),      # 14 − 4 − 3
    (10, 12, False, False, 0),   # clamped at 0: no roll can wound
    (25, 0, False, False, 20),   # clamped at 20: every roll wounds
])
def test_wound_threshold_by_hand(damage, resist, ap, cover, threshold):
    assert wound_threshold(damage, resist, ap=ap, partial_cover=cover) == threshold


def test_a_saving_roll_wounds_at_or_under_the_threshold():
    assert [saving_roll_wounds(f, 12) for f in (1, 12, 13, 20)] == [True, True, False, False]
    assert not any(saving_roll_wounds(f, 0) for f in range(1, 21))
    with pytest.raises(ValueError, match="a d20 face is 1..20, got 21"):
        saving_roll_wounds(21, 12)


def test_a_face_off_the_die_is_refused():
    with pytest.raises(ValueError, match="a d20 face is 1..20, got 0"):
        roll_rank(0, 10)


def test_the_unopposed_dodge_holds_the_dodgers_mods_within_the_cap_in_force():
    from fractions import Fraction

    from rules_core.systems.infinity_n4.dice import unopposed_dodge
    from rules_core.systems.infinity_n4.scenario import InfinityScenario

    s = InfinityScenario().set("dodger.ph", 10).set("dodger.mod", 9)
    assert unopposed_dodge(s) == Fraction(19, 20)  # PH 10 + 9, within the official ±12
    assert unopposed_dodge(s.set("variant.mod_cap", 6)) == Fraction(16, 20)  # a house cap of ±6
