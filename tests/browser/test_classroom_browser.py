"""The Roll and Simulate panels on every dashboard, in a real browser: roll, roll again, play
typed faces, simulate — and each shown result is the core's own (the rule on the same dice, the
simulation of the same seed, the exact probabilities beside them)."""

from __future__ import annotations

import re

import pytest

from rules_core import evaluate, play_once
from rules_core.simulate import simulate
from workbook.pages.catalog import dashboards
from workbook.page.share import decode_query

pytestmark = pytest.mark.browser

PAGES = [(e.notebook, e.system) for e in dashboards() if e.system is not None]

_TEXT_HAS = """([css, text]) => {
    const el = document.querySelector('.' + css);
    return Boolean(el) && el.innerText.includes(text);
}"""


def cell(dash, table_css: str, key: str, col: str) -> str:
    row = dash.page.locator(f".{table_css} tr[data-key=\"{key}\"] td[data-col={col}]")
    return row.inner_text().strip()


def wait_text(dash, css: str, text: str) -> None:
    dash.page.wait_for_function(_TEXT_HAS, arg=[css, text], timeout=60_000, polling=100)


@pytest.mark.parametrize("notebook, system", PAGES, ids=[p[0] for p in PAGES])
def test_roll_again_type_faces_and_simulate(open_dashboard, notebook, system):
    dash = open_dashboard(notebook)
    scenario = decode_query(system, dash.page.evaluate("location.search")).scenario or system.default_scenario()
    result = evaluate(scenario)
    dash.click("wb-roll-toggle")
    # Roll with seed 1, then again with seed 2: the outcome of each is the core's play on that seed.
    for seed in (1, 2):
        dash.click("wb-roll-button")
        expected = play_once(system, scenario, seed=seed)
        wait_text(dash, "wb-roll-steps", f"seed {seed}")
        assert dash.page.locator(".wb-roll-outcome").inner_text().strip() == expected.outcome
    wait_text(dash, "wb-roll-tally", "2 rolls")
    first = play_once(system, scenario, seed=1)
    assert cell(dash, "wb-roll-tally", first.outcome, "exact") == \
        f"{result.outcomes[first.outcome].numerator}/{result.outcomes[first.outcome].denominator}"
    # The address follows the roll shown.
    dash.page.wait_for_function("() => location.search.includes('roll=2')", timeout=30_000)
    # Typed faces: the faces of seed 7's roll give seed 7's outcome.
    typed = play_once(system, scenario, seed=7)
    faces = " ".join(str(f) for r in typed.rolled for f in r.faces)
    dash.page.locator(".wb-roll-faces input").fill(faces)
    dash.click("wb-roll-play")
    wait_text(dash, "wb-roll-steps", "typed faces")
    assert dash.page.locator(".wb-roll-outcome").inner_text().strip() == typed.outcome
    # A face off the die is refused with the reason.
    dash.page.locator(".wb-roll-faces input").fill(" ".join(["999"] * 6))
    dash.click("wb-roll-play")
    wait_text(dash, "wb-roll-error", "face 999 is not on a d")
    # Simulate 2,000 rolls of seed 1: the counts are the core's.
    dash.click("wb-sim-toggle")
    n = dash.page.locator(".wb-sim-n input")
    n.fill("2000")
    n.press("Enter")
    dash.click("wb-sim-run")
    wait_text(dash, "wb-sim-status", "2,000 rolls")
    counts = simulate(system, scenario, 2000, seed=1).outcomes()
    for label, _ in result.outcome_rows():
        assert cell(dash, "wb-sim-table", label, "count") == f"{counts[label]:,}"
    assert dash.page.locator(".wb-sim-chart .js-plotly-plot").count() == 1
    assert not dash.python_errors()


def test_a_link_with_a_roll_opens_that_roll(open_dashboard):
    notebook, system = PAGES[0]
    dash = open_dashboard(notebook, query="roll=5")
    shown = decode_query(system, dash.page.evaluate("location.search")).scenario or system.default_scenario()
    expected = play_once(system, shown, seed=5)
    wait_text(dash, "wb-roll-steps", "seed 5")
    assert dash.page.locator(".wb-roll-outcome").inner_text().strip() == expected.outcome
    assert re.search(r"roll=5\b", dash.page.evaluate("location.search"))
