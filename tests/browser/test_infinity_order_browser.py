"""The Infinity N4 dashboard as a whole Order, in a real browser: the seed's mine example, an
attacker added, the minus-three ruling switched in the form and compared in the rulings panel,
the Order's own panels and the heatmap, every number checked against the core."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules_core import evaluate, find_preset
from rules_core.systems.infinity_n4.exact import dodge_grid
from rules_core.systems.infinity_n4.outcomes import final_state_order
from rules_core.systems.infinity_n4.scenario import Attacker

from .conftest import _DRAWN_PLOT

pytestmark = pytest.mark.browser

NOTEBOOK = "infinity-n4-dodge.ipynb"
MINE = find_preset("infinity-n4/zhanshi-mine-and-fusilier").scenario

# Cells of one of the Infinity panels' tables: {row key: exact "n/d" of a column}.
_READ_CELLS = """([css, col]) => Object.fromEntries(Array.from(
    document.querySelectorAll(`.${css} tr[data-key]`)).map(row => {
        const cell = row.querySelector(`td[data-col="${col}"]`);
        return [row.dataset.key, cell ? (cell.dataset.exact || cell.textContent.trim()) : null];
    }))"""

# The heatmap panel's heatmap (the sweep panel): its axes and one cell's exact text.
_HEATMAP = """([row, col]) => {
    const plot = (""" + _DRAWN_PLOT + """)('.wb-view-heatmap .wb-sweep-chart');
    if (!plot || !plot.data) return null;
    const heat = plot.data.find(t => t.type === 'heatmap');
    return heat ? [Array.from(heat.y), Array.from(heat.x), heat.customdata[row][col][0]] : null;
}"""


def read_cells(dash, css: str, col: str) -> dict[str, Fraction | None]:
    return {k: (Fraction(v) if v and "/" in v else None)
            for k, v in dash.page.evaluate(_READ_CELLS, [css, col]).items()}


def wait_for_cell(dash, css: str, key: str, col: str, value: Fraction) -> float:
    script = """([css, key, col, n, d]) => {
        for (const row of document.querySelectorAll(`.${css} tr[data-key]`)) {
            if (row.dataset.key !== key) continue;
            const cell = row.querySelector(`td[data-col="${col}"]`);
            const text = cell && (cell.dataset.exact || cell.textContent.trim());
            if (!text || !text.includes('/')) return false;
            const [a, b] = text.split('/');
            return BigInt(a) * BigInt(d) === BigInt(n) * BigInt(b);
        }
        return false;
    }"""
    return dash._wait(script, [css, key, col, str(value.numerator), str(value.denominator)])


def test_the_whole_order_add_an_attacker_and_switch_the_ruling(open_dashboard, timings):
    dash = open_dashboard(NOTEBOOK, "preset=zhanshi-mine-and-fusilier")
    core = evaluate(MINE)
    dash.wait_for_headline(dict(core.headline))
    assert dash.headline()["p_dodge_succeeds"] == Fraction(299, 40000)   # faces 1..4 only
    assert dash.table() == dict(core.outcome_rows())
    # Each roll on its own, and the whole Order: the same die, not the product of the rows.
    wait_for_cell(dash, "wb-infinity-attacks", "Whole Order", "dodge", Fraction(299, 40000))
    rolls = read_cells(dash, "wb-infinity-attacks", "dodge")
    assert rolls == {"Attacker 1": Fraction(47, 500), "Mine": Fraction(4, 20),
                     "Whole Order": Fraction(299, 40000)}
    final = dash.table("wb-infinity-final")
    assert list(final) == list(final_state_order(MINE))
    assert final == dict(core.distributions["final state"].items()) | {
        k: 0 for k in final if k not in core.distributions["final state"]}
    assert dash.python_errors() == [] and dash.console_errors() == []

    # Add an attacker: a second Fusilier-like ARO with the default profile.
    added = MINE.replace(attackers=(*MINE.attackers, Attacker()))
    core = evaluate(added)
    dash.click("wb-attackers-add")
    timings.record("infinity-n4", "add an attacker → headline updated",
                   dash.wait_for_headline(dict(core.headline)))
    dash.wait_for_table(dict(core.outcome_rows()))  # its rows may come a moment after the headline's
    wait_for_cell(dash, "wb-infinity-attacks", "Whole Order", "dodge", core.headline["p_dodge_succeeds"])
    assert set(read_cells(dash, "wb-infinity-attacks", "dodge")) == {
        "Attacker 1", "Attacker 2", "Mine", "Whole Order"}

    # Switch the ruling in the form: one −3 for the mine instead of −6.
    single = evaluate(added.replace(minus_three="single"))
    dash.page.locator(".wb-minus_three select").select_option(index=0)
    timings.record("infinity-n4", "ruling switched → headline updated",
                   dash.wait_for_headline(dict(single.headline)))
    assert single.headline["p_dodge_succeeds"] > core.headline["p_dodge_succeeds"]
    wait_for_cell(dash, "wb-infinity-attacks", "Mine", "dodge", Fraction(7, 20))

    # The rulings panel: the current reading beside the other one, and their difference.
    dash.click("wb-rulings-toggle")
    stacked = core
    for key, col, value in [
            ("p_dodge_succeeds", "a", single.headline["p_dodge_succeeds"]),
            ("p_dodge_succeeds", "b", stacked.headline["p_dodge_succeeds"]),
            ("p_dodge_succeeds", "difference",
             stacked.headline["p_dodge_succeeds"] - single.headline["p_dodge_succeeds"]),
            ("p_no_hit", "difference", stacked.headline["p_no_hit"] - single.headline["p_no_hit"])]:
        wait_for_cell(dash, "wb-rulings .wb-ab-table", key, col, value)
    assert "Each circumstance gives its own −3" in dash.page.locator(".wb-rulings-help").inner_text()
    assert dash.python_errors() == [] and dash.console_errors() == []


def test_the_heatmap_matches_the_core(open_dashboard):
    """The heatmap is the sweep panel preset to the dodger's PH × the first attacker's value
    (SV = value + MOD 3), P(dodge succeeds); every cell checked is the core's own grid."""
    dash = open_dashboard(NOTEBOOK, "preset=zhanshi-mine-and-fusilier")
    dash.wait_for_headline(dict(evaluate(MINE).headline))
    dash.click("wb-view-heatmap-toggle")
    dash.page.wait_for_function(_HEATMAP, arg=[0, 0], timeout=60_000)
    phs, values, _ = dash.page.evaluate(_HEATMAP, [0, 0])
    assert phs == list(range(30)) and values == list(range(30))
    dodge, _ = dodge_grid(MINE, phs, [v + 3 for v in values], burst=3)
    for ph, value in [(10, 12), (1, 1), (29, 29), (17, 6), (0, 0)]:
        assert Fraction(dash.page.evaluate(_HEATMAP, [ph, value])[2]) == dodge[ph][value]
    assert dash.page.evaluate(_HEATMAP, [10, 12])[2] == "299/40000"   # the seed's mine example
    # The Burst is the form's: Burst 1 for the first attacker redraws the map.
    dash.set_slider("wb-attackers-0-burst", 1)
    dodge, _ = dodge_grid(MINE, phs, [v + 3 for v in values], burst=1)
    want = f"{dodge[10][12].numerator}/{dodge[10][12].denominator}"
    dash.page.wait_for_function(f"() => {{ const r = ({_HEATMAP})([10, 12]); return r && r[2] === {want!r}; }}",
                                timeout=60_000)
    assert Fraction(dash.page.evaluate(_HEATMAP, [20, 5])[2]) == dodge[20][5]
    assert dash.python_errors() == [] and dash.console_errors() == []
