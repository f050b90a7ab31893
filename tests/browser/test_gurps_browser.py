"""The GURPS 4e dashboard in a real browser: it opens on the seed's sword example met with a
Dodge, with the core's exact numbers (and the seed's own numbers with no defense), follows Basic Speed, the defense option, the damage dice typed in, a preset, the
situation (diving for cover), shows the 3d6 bell with its success line and the injury chart as
the core computes them, and compares two rulings."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules_core import evaluate, get_system
from rules_core.systems.gurps_4e import GurpsScenario
from rules_core.systems.gurps_4e.dice import ROLL_3D6

from .conftest import ROOT

pytestmark = pytest.mark.browser

NOTEBOOK = "gurps-4e.ipynb"
SCREENSHOT = ROOT / "docs" / "img" / "gurps-4e.png"
GURPS = get_system("gurps-4e")
SEED = GURPS.presets[0].scenario
BURST = GURPS.preset("rapid-fire-dodge-and-drop")
BELL = "wb-view-dodge-roll-3d6"
INJURY = "wb-view-injury"

_TEXT = """([css]) => { const el = document.querySelector(`.${css}`); return el ? el.innerText : null; }"""
_LINES = """([css]) => { const plot = document.querySelector(`.${css} .js-plotly-plot`);
    return plot && plot.layout && plot.layout.shapes ? plot.layout.shapes.map(s => s.x0) : null; }"""


def option(label: str) -> str:
    """A dropdown option as the page shows it (ipywidgets writes spaces as no-break spaces)."""
    return label.replace(" ", "\xa0")


def injury_y(s: GurpsScenario) -> list[float]:
    injury = evaluate(s).distributions["injury"]
    return [float(injury[v]) for v in range(max(injury.outcomes()) + 1)]


def wait_for_scenario(dash, s: GurpsScenario) -> None:
    core = evaluate(s)
    dash.wait_for_table(dict(core.outcome_rows()))
    dash.wait_for_headline(dict(core.headline))
    dash.wait_for_chart([float(p) for _, p in core.outcome_rows()])
    dash.wait_for_chart(injury_y(s), INJURY)


def type_text(dash, css: str, value: str) -> None:
    box = dash.page.locator(f".{css} input")
    box.fill(value)
    box.press("Enter")


def test_opens_on_the_seed_with_exact_numbers(open_dashboard, timings):
    dash = open_dashboard(NOTEBOOK)
    timings.record("gurps-4e", "page request → chart and table rendered (cold kernel)", dash.load_seconds)
    dodged = SEED.replace(dodger=SEED.dodger.replace(defense="plain"))
    wait_for_scenario(dash, dodged)
    core = evaluate(dodged)
    assert dash.table() == dict(core.outcome_rows()) and dash.headline() == dict(core.headline)
    # By hand: Dodge = Basic Speed 6 + 3 = 9 succeeds on 3d6 ≤ 9, 81/216 = 3/8; the sword's 29/4
    # average injury and 10/36 chance of going down then count on the 5/8 of swings that land.
    assert dash.headline()["p_dodge_succeeds"] == Fraction(3, 8)
    assert dash.headline()["expected_injury"] == Fraction(29, 4) * Fraction(5, 8)
    assert dash.headline()["p_down"] == Fraction(10, 36) * Fraction(5, 8)
    # The seed itself, with no defense: 29/4 injury, down on 10/36.
    dash.select("wb-dodger-defense", option("No defense"))
    wait_for_scenario(dash, SEED)
    assert dash.headline()["expected_injury"] == Fraction(29, 4)
    assert dash.headline()["p_down"] == Fraction(10, 36)
    assert "No active defense" in dash.page.evaluate(_TEXT, [BELL])
    assert "(2d+1 cut − DR 3) × 1.5" in dash.page.evaluate(_TEXT, ["wb-trace"])
    assert dash.python_errors() == [] and dash.console_errors() == [] and dash.notices() == []
    # The burst preset for the picture: the bell, the hits and the injury below the numbers.
    dash.select("wb-preset", option(BURST.title))
    wait_for_scenario(dash, BURST.scenario)
    dash.screenshot(SCREENSHOT)
    assert SCREENSHOT.stat().st_size > 20_000


def test_controls_situation_and_rulings(open_dashboard, timings):
    dash = open_dashboard(NOTEBOOK, query="preset=rapid-fire-dodge-and-drop")
    s = BURST.scenario
    wait_for_scenario(dash, s)
    # The bell: every 3d6 total, the success line after Dodge 9 + 3 = 12.
    heights = [float(ROLL_3D6[t]) for t in range(3, 13)]  # successes, as one trace, 3..12
    dash.wait_for_chart([float(ROLL_3D6[t]) for t in (3, 4)], BELL, 0)  # critical successes first
    dash.wait_for_chart(heights[2:], BELL, 1)
    assert dash.page.evaluate(_LINES, [BELL]) == [12.5]
    # Basic Speed typed: 6 → 8 (Dodge 11 + 3 = 14).
    s = s.replace(dodger=s.dodger.replace(basic_speed=8.0))
    dash.set_slider("wb-dodger-basic_speed", 8)
    timings.record("gurps-4e", "Basic Speed typed + Enter → outcome chart updated",
                   dash.wait_for_chart([float(p) for _, p in evaluate(s).outcome_rows()]))
    wait_for_scenario(dash, s)
    dash.page.wait_for_function(f"() => ({_LINES})(['{BELL}'])?.[0] === 14.5", timeout=20_000)
    # Plain Dodge instead of the dodge and drop.
    s = s.replace(dodger=s.dodger.replace(defense="plain"))
    dash.select("wb-dodger-defense", option("Dodge"))
    wait_for_scenario(dash, s)
    # Damage dice typed in; a wrong notation is refused in place and the numbers stay.
    s = s.replace(attacks=(s.attacks[0].replace(damage="4d-1"),))
    type_text(dash, "wb-attacks-0-damage", "4d-1")
    start = dash.page.evaluate("performance.now()")
    wait_for_scenario(dash, s)
    timings.record("gurps-4e", "damage dice typed + Enter → every panel updated",
                   (dash.page.evaluate("performance.now()") - start) / 1000)
    type_text(dash, "wb-attacks-0-damage", "4d8")
    dash.page.wait_for_function("() => document.body.innerText.includes('six-sided')", timeout=20_000)
    wait_for_scenario(dash, s)
    type_text(dash, "wb-attacks-0-damage", "4d-1")
    # Diving for cover from the blast set under "Blast" (4d, a yard away, no cover).
    s = s.replace(situation="dive")
    dash.select("wb-situation", option("Dive for cover"))
    wait_for_scenario(dash, s)
    assert dash.headline()["p_dodge_succeeds"] == evaluate(s).headline["p_dodge_succeeds"]
    # The rulings panel: the carry ruling on the three-shot preset.
    cover = GURPS.preset("drop-behind-cover")
    dash.select("wb-preset", option(cover.title))
    wait_for_scenario(dash, cover.scenario)
    dash.click("wb-rulings-toggle")
    dash.page.wait_for_function(
        "() => document.querySelectorAll('.wb-rulings .wb-ab-table tr[data-key]').length > 0", timeout=20_000)
    other = evaluate(cover.scenario.replace(carry="bonus_only"))  # the first alternative offered
    shown = evaluate(cover.scenario)
    rows = dash.page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '.wb-rulings .wb-ab-table tr[data-key][data-kind=headline]')].map(r => [r.dataset.key,
        ['a', 'b', 'difference'].map(c => r.querySelector(`td[data-col=${c}]`).textContent.trim())]))""")
    for key in ("p_down", "expected_injury"):
        assert [Fraction(x) for x in rows[key]] == [shown.headline[key], other.headline[key],
                                                    other.headline[key] - shown.headline[key]]
    # each reading in the reader's words, in full
    words = dash.page.locator(".wb-rulings-help .wb-ab-words").inner_text()
    labels = dict(next(r for r in GURPS.rulings() if r.name == "carry").choices)
    assert labels["both"] in words.replace("\xa0", " ") and labels["bonus_only"] in words.replace("\xa0", " ")
    assert dash.python_errors() == [] and dash.console_errors() == [] and dash.notices() == []


def test_a_chart_out_of_view_is_drawn_when_it_comes_near(open_dashboard):
    """Charts far below the window are not drawn (workbook/page/chart.py): the injury chart waits,
    keeps its height, and shows the scenario of the moment, exactly, once scrolled to."""
    dash = open_dashboard(NOTEBOOK, width=1280, height=800)
    pending = ".wb-view-injury .wb-chart-pending"
    top = dash.page.evaluate(f"() => document.querySelector('{pending}')?.getBoundingClientRect().top")
    assert top is not None and top > 1.5 * 800, top  # far below the window: not drawn
    assert dash.page.evaluate(f"() => document.querySelector('{pending} .main-svg')") is None
    assert dash.page.evaluate(f"() => getComputedStyle(document.querySelector('{pending} > div')).minHeight") == "320px"
    # A change while it is out of view: the outcome chart is drawn, the injury chart still waits.
    dash.select("wb-preset", option(BURST.title))
    core = evaluate(BURST.scenario)
    dash.page.wait_for_function(
        "(y) => { const p = document.querySelector('.wb-outcome-chart .js-plotly-plot');"
        " return p && p.data && JSON.stringify(Array.from(p.data[0].y)) === JSON.stringify(y); }",
        arg=[float(p) for _, p in core.outcome_rows()], timeout=20_000)
    assert dash.page.evaluate(f"() => Boolean(document.querySelector('{pending}'))")
    # Scrolled to, it is drawn with the burst's injury distribution.
    dash.wait_for_chart(injury_y(BURST.scenario), INJURY)
    assert dash.page.evaluate(f"() => document.querySelector('{pending}')") is None
    assert dash.python_errors() == [] and dash.console_errors() == []
