"""Monte Carlo through a rule on concrete dice, checked on a toy rule known by hand."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

import pytest

from rules_core import Dice, Play
from rules_core.play import expectation, probability
from rules_core.simulate import MAX_ROLLS, simulate, simulate_steps


def d6_dodge(scenario, roller):
    """Dodge on 1–2 of a d6; if it fails, a d6 of damage: the hit lands on 4+."""
    dodge = roller.roll(Dice("dodge", sides=6))
    if dodge <= 2:
        return Play("dodged", 0, (True,), {"damage": 0})
    damage = roller.roll(Dice("damage", sides=6))
    return Play("hit" if damage >= 4 else "graze", int(damage >= 4), (False,), {"damage": damage})


TOY = SimpleNamespace(id="toy", play=d6_dodge, headlines={
    "mean_damage": expectation("Expected damage", lambda p: p["damage"]),
    "never": probability("Not for this scenario", lambda p: True, applies=lambda s: "never applies"),
})
EXACT = SimpleNamespace(scenario=None, headline={
    "p_dodge_succeeds": Fraction(1, 3), "p_no_hit": Fraction(1, 3) + Fraction(2, 3) * Fraction(1, 2),
    "expected_hits": Fraction(2, 3) * Fraction(1, 2), "mean_damage": Fraction(2, 3) * Fraction(7, 2),
    "never": None})


def test_every_headline_settles_within_four_standard_errors():
    sim = simulate(TOY, None, 20000, seed=11)
    estimates = sim.estimates(TOY, EXACT)
    assert sim.rolls == 20000 and sum(sim.outcomes().values()) == 20000
    assert set(sim.outcomes()) == {"dodged", "hit", "graze"}
    for name in ("p_dodge_succeeds", "p_no_hit", "expected_hits", "mean_damage"):
        e = estimates[name]
        assert e.within(4), (name, e)
        assert 0 < e.standard_error < 0.05
    assert estimates["never"].simulated is None and estimates["never"].within(4)


def test_a_wrong_exact_value_is_caught():
    sim = simulate(TOY, None, 20000, seed=11)
    wrong = SimpleNamespace(scenario=None, headline={**EXACT.headline, "p_no_hit": Fraction(1, 2)})
    assert not sim.estimates(TOY, wrong)["p_no_hit"].within(4)


def test_steps_report_progress_and_end_at_n():
    steps = list(simulate_steps(TOY, None, 5000, seed=3, chunk=2000))
    assert [s.rolls for s in steps] == [2000, 4000, 5000]
    assert steps[-1].counts == simulate(TOY, None, 5000, seed=3).counts


def test_json_form_has_simulated_error_and_exact():
    data = simulate(TOY, None, 100, seed=1).to_data(TOY, EXACT)
    assert data["headline"]["p_no_hit"]["exact"] == "2/3"
    assert set(data["headline"]["p_no_hit"]) == {"simulated", "standard_error", "exact", "exact_float", "rolls"}
    assert data["rolls"] == 100 and sum(data["outcomes"].values()) == 100


@pytest.mark.parametrize("n", [0, -1, MAX_ROLLS + 1, 2.5, True, "10"])
def test_roll_counts_out_of_range_are_refused(n):
    with pytest.raises(ValueError, match="rolls: got"):
        simulate(TOY, None, n)
