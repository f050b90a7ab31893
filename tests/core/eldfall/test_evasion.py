"""Eldfall ``System.evasion.unopposed``: one d20 under AG with its modifiers (p.15), by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules_core import all_systems
from rules_core.systems.eldfall import EldfallScenario

UNOPPOSED = all_systems()["eldfall"].evasion.unopposed


@pytest.mark.parametrize("ag, ag_mod, expected", [
    (10, -3, Fraction(7, 20)),   # AG 7 after modifiers: faces 1-7 pass
    (10, +4, Fraction(14, 20)),  # AG 14
    (1, -1, Fraction(0)),        # AG 0 after modifiers fails automatically, even on a 1
])
def test_the_ag_modifiers_move_the_dodge(ag, ag_mod, expected):
    scenario = EldfallScenario().replace(**{"defender.ag": ag, "defender.ag_mod": ag_mod})
    assert UNOPPOSED(scenario) == expected
