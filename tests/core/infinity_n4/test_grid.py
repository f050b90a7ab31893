"""The heatmap grid (P(dodge succeeds) and P(no hit) over dodger PH × attacker SV) against the
full evaluation, against the one-attacker formula, and its monotonicity."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules_core import evaluate, find_preset
from rules_core.systems.infinity_n4.exact import dodge_grid, dodge_grid_weights, dodge_headline
from rules_core.systems.infinity_n4.scenario import Attacker, Dodger, InfinityScenario, Template

PHS = range(0, 31, 3)
SVS = range(-2, 31, 4)


def cell_by_evaluate(scenario: InfinityScenario, ph: int, sv: int, attacker: int, burst: int | None):
    """The same cell the slow way: the scenario with that PH, the attacker at that SV."""
    attackers = tuple(a.replace(attacks=True, value=max(sv, 0), mod=min(sv, 0), burst=burst or a.burst)
                      if i == attacker else a for i, a in enumerate(scenario.attackers))
    changed = scenario.replace(dodger=scenario.dodger.replace(ph=ph), attackers=attackers)
    result = evaluate(changed)
    return result.headline["p_dodge_succeeds"], result.headline["p_no_hit"]


ORDERS = {
    "mine and Fusilier": (find_preset("infinity-n4/zhanshi-mine-and-fusilier").scenario, 0, None),
    "three attackers, the second varied, Burst 4": (InfinityScenario(
        dodger=Dodger(mod=-2), minus_three="stacking",
        attackers=(Attacker(value=11, burst=2, zoc_no_lof=True), Attacker(attacks=False, burst=1),
                   Attacker(value=14, burst=1, dodge_mod=-3)),
        template=Template(kind="direct", lof=False)), 1, 4),
    "no dodge": (InfinityScenario(dodger=Dodger(dodges=False),
                                  attackers=(Attacker(), Attacker(value=9, burst=2))), 0, 2),
}


@pytest.mark.parametrize("name", ORDERS)
def test_grid_equals_evaluate(name):
    scenario, attacker, burst = ORDERS[name]
    dodge, no_hit = dodge_grid(scenario, PHS, SVS, attacker=attacker, burst=burst)
    for i, ph in enumerate(PHS):
        for j, sv in enumerate(SVS):
            if (i + j) % 3:   # a third of the cells is plenty
                continue
            assert (dodge[i][j], no_hit[i][j]) == cell_by_evaluate(scenario, ph, sv, attacker, burst)


@pytest.mark.parametrize("burst", [1, 3, 5])
def test_one_attacker_grid_is_the_one_attacker_formula(burst):
    dodge, no_hit = dodge_grid(InfinityScenario(), range(31), range(-1, 31), burst=burst)
    for ph in range(31):
        for j, sv in enumerate(range(-1, 31)):
            p_dodge, p_no_hit, _ = dodge_headline(ph, sv, burst)
            assert (dodge[ph][j], no_hit[ph][j]) == (p_dodge, p_no_hit)


def test_grid_is_monotone_in_ph_and_sv():
    scenario = ORDERS["mine and Fusilier"][0]
    for burst in (1, 3, 5):
        dodge, no_hit = dodge_grid(scenario, range(31), range(31), burst=burst)
        for i in range(31):
            for j in range(31):
                if i:
                    assert dodge[i][j] >= dodge[i - 1][j] and no_hit[i][j] >= no_hit[i - 1][j]
                if j:
                    assert dodge[i][j] <= dodge[i][j - 1] and no_hit[i][j] <= no_hit[i][j - 1]


def test_more_dice_never_help_the_dodger():
    scenario = ORDERS["mine and Fusilier"][0]
    grids = [dodge_grid(scenario, range(0, 31, 5), range(0, 31, 5), burst=b) for b in range(1, 6)]
    for fewer, more in zip(grids, grids[1:]):
        for row_f, row_m in zip(fewer[0], more[0]):
            assert all(m <= f for f, m in zip(row_f, row_m))
        for row_f, row_m in zip(fewer[1], more[1]):
            assert all(m <= f for f, m in zip(row_f, row_m))


def test_no_dodge_means_no_dodge_probability():
    dodge, no_hit = dodge_grid(ORDERS["no dodge"][0], [10], [12])
    assert dodge == [[None]] and 0 < no_hit[0][0] < 1


def test_the_weights_vary_the_first_attacker_unless_told_otherwise():
    """The dashboard's heatmap asks for the weights without naming an attacker: the first one's
    SV (and Burst) are the columns; the second keeps its own."""
    scenario = InfinityScenario(attackers=(Attacker(value=12, burst=3), Attacker(value=9, burst=2)))
    grid = dodge_grid_weights(scenario, [10], [15], burst=1)
    assert (Fraction(grid.dodge[0][0], grid.den), Fraction(grid.no_hit[0][0], grid.den)) == \
        cell_by_evaluate(scenario, 10, 15, 0, 1)
