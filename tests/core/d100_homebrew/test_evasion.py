"""d100 ``System.evasion.unopposed``: one Dodge test, d100 at or under Agility + Dodge advance +
Dodge modifier, read by the rulings on 01 and 100 — worked by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules_core import all_systems, find_preset

UNOPPOSED = all_systems()["d100-homebrew"].evasion.unopposed
BURST = find_preset("d100-homebrew/burst-3-vs-dodge-45").scenario


@pytest.mark.parametrize("agility, roll_100, expected", [
    (100, "as_rolled", Fraction(1)),        # target 100, and 100 read as rolled: every face passes
    (100, "fails", Fraction(99, 100)),      # 100 always fails
    (99, "as_rolled", Fraction(99, 100)),   # target 99: the 100 fails as rolled
])
def test_a_dodge_that_cannot_fail(agility, roll_100, expected):
    scenario = BURST.replace(**{"defender.agility": agility, "defender.dodge_advance": 0,
                                "defender.dodge_modifier": 0, "roll_100": roll_100})
    assert UNOPPOSED(scenario) == expected
