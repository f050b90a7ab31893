"""GURPS ``System.evasion.unopposed``: the chance of a plain Dodge roll, worked by hand from the
rules text (Dodge = Basic Speed, fractions dropped, + 3, B374; 3d6 at or under it, B348)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules_core import all_systems
from rules_core.systems.gurps_4e import Dodger, GurpsScenario

UNOPPOSED = all_systems()["gurps-4e"].evasion.unopposed


@pytest.mark.parametrize("modifier, expected", [
    # Basic Speed 6: Dodge 9. Other modifiers move the score they are named for:
    (-2, Fraction(35, 216)),   # Dodge 7: 3d6 <= 7 falls 1 + 3 + 6 + 10 + 15 = 35 ways of 216
    (+1, Fraction(108, 216)),  # Dodge 10: 108 ways
])
def test_other_modifiers_add_to_the_dodge_roll(modifier, expected):
    assert UNOPPOSED(GurpsScenario(dodger=Dodger(basic_speed=6, modifier=modifier))) == expected
