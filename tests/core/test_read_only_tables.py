"""The roll tables the fast paths keep in their caches are shared by every caller that asks for
the same roll (the points of a sweep, the plays of a sample): they are read only, so that no
caller can change the numbers another is given."""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from fractions import Fraction

import pytest

from rules_core import evaluate, find_preset
from rules_core.systems.gurps_4e.exact import attack_outcomes
from rules_core.systems.gurps_4e.play import AttackHits, _injuries, attack_context
from rules_core.systems.infinity_n4.exact import _given


def test_the_gurps_attack_roll_table_cannot_be_changed():
    s = find_preset("gurps-4e/rapid-fire-dodge-and-drop").scenario
    table = attack_outcomes(attack_context(s, 0, False), s)
    with pytest.raises(TypeError):
        table[AttackHits(0, False)] = 0
    with pytest.raises(TypeError):
        del table[AttackHits(0, False)]
    with pytest.raises(AttributeError):
        table.clear()
    # skill 14 misses on 15-18: 20 ways of 216, as before anyone tried
    assert attack_outcomes(attack_context(s, 0, False), s)[AttackHits(0, False)] == 20


def test_the_gurps_injury_table_cannot_be_changed():
    # the seed's sword: 2d+1 cut against DR 3; a total of 12 is 13 basic, 10 through, 15 injury
    hit = find_preset("gurps-4e/sword-2d1-cut-vs-dr3").scenario.hit(0)
    table = _injuries(hit)
    with pytest.raises(TypeError):
        table[12] = 0
    with pytest.raises(AttributeError):
        table.update({12: 0})
    assert _injuries(hit)[12] == 15 and _injuries(hit)[2] == 0


def test_the_infinity_roll_table_given_the_dodge_rank_cannot_be_changed():
    # one Fusilier die at SV 15 against a dodge rank of 10: 5 faces (11-15) beat it, 1 is a Critical
    given = _given("f2f", 1, 15, 0, 1, 5, 10)
    with pytest.raises(TypeError):
        given.kept[(1, 0)] = 0
    with pytest.raises(AttributeError):
        given.hits.append(1)
    with pytest.raises(TypeError):
        given.wounds[0] = 0
    with pytest.raises(FrozenInstanceError):
        given.ok = 0
    assert dict(_given("f2f", 1, 15, 0, 1, 5, 10).kept) == {(0, 0): 15, (1, 0): 4, (1, 1): 1}
    # the seed's one Fusilier against the Zhanshi's dodge: 47/500, as the rulebook's example gives
    result = evaluate(find_preset("infinity-n4/zhanshi-vs-fusilier").scenario)
    assert result.headline["p_dodge_succeeds"] == Fraction(47, 500)
