"""The Eldfall Chronicles dashboard in a real browser: it renders with the core's exact numbers,
its "with and without the Dodge" chart and second-model chart agree with the core, and it follows
its sliders, checkboxes, dropdowns, presets and rulings."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules_core import evaluate, get_system
from rules_core.systems.eldfall import EldfallScenario, without_reaction

from .conftest import ROOT

pytestmark = pytest.mark.browser

NOTEBOOK = "eldfall.ipynb"
SCREENSHOT = ROOT / "docs" / "img" / "eldfall.png"
ELDFALL = get_system("eldfall")
FIRST = ELDFALL.presets[0].scenario  # OFF 10, STK 2, PW 12 against AG 12, ARM 2
WORTH = "wb-view-what-the-dodge-is-worth"
SECOND = "wb-view-second-model-sweep"

_TEXT = """([css]) => { const el = document.querySelector(`.${css}`); return el ? el.innerText : null; }"""
# An A/B card inside the part of the page with class ``css``: {side: exact "n/d"}.
_CARD = """([css, key]) => Object.fromEntries(Array.from(document.querySelectorAll(
    `.${css} .wb-ab-card[data-key="${key}"] [data-side]`)).map(e => [e.dataset.side, e.dataset.exact]))"""


def expected(s: EldfallScenario):
    result = evaluate(s)
    table = dict(result.outcome_rows())
    return table, [float(p) for p in table.values()], dict(result.headline)


def worth_y(s: EldfallScenario) -> list[list[float]]:
    """The four bar series of the "with and without" chart (the A/B panel: A without the
    reaction, B as set): hits without, with; wounds without, with."""
    ours, other = evaluate(s), evaluate(without_reaction(s))
    most_h = max(max(ours.hits.outcomes()), max(other.hits.outcomes()))
    w, w0 = ours.distributions["wounds"], other.distributions["wounds"]
    most_w = max(max(w.outcomes()), max(w0.outcomes()))
    return [[float(other.hits[k]) for k in range(most_h + 1)], [float(ours.hits[k]) for k in range(most_h + 1)],
            [float(w0[k]) for k in range(most_w + 1)], [float(w[k]) for k in range(most_w + 1)]]



def option(label: str) -> str:
    """A dropdown option as the page shows it (ipywidgets writes spaces as no-break spaces)."""
    return label.replace(" ", "\xa0")


def wait_for_scenario(dash, s: EldfallScenario) -> None:
    table, heights, headline = expected(s)
    dash.wait_for_table(table)
    dash.wait_for_headline(headline)
    dash.wait_for_chart(heights)
    for trace, y in enumerate(worth_y(s)):
        dash.wait_for_chart(y, WORTH, trace)


def test_renders_with_the_exact_numbers(open_dashboard, timings):
    dash = open_dashboard(NOTEBOOK)
    timings.record("eldfall", "page request → chart and table rendered (cold kernel)", dash.load_seconds)
    wait_for_scenario(dash, FIRST)
    table, heights, headline = expected(FIRST)
    assert dash.table() == table and dash.headline() == headline and dash.chart_y() == heights
    # Hand check (tests/core/eldfall/test_exact.py): the Dodge succeeds on 3/5, 23/50 Hits land.
    assert dash.headline()["p_dodge_succeeds"] == Fraction(3, 5)
    assert dash.headline()["expected_hits"] == Fraction(23, 50)
    # Without the Dodge both dice land on 10/20: no Hit 1/4.
    assert dash.chart_y(WORTH, 0)[0] == 0.25
    # ... and the A/B cards say so exactly: P(no hit) 1/4 without, 1283/2000 with the Dodge.
    card = dash.page.evaluate(_CARD, [WORTH, "p_no_hit"])
    core, without = evaluate(FIRST).headline["p_no_hit"], evaluate(without_reaction(FIRST)).headline["p_no_hit"]
    assert {k: Fraction(v) for k, v in card.items()} == {"a": without, "b": core, "difference": core - without}
    assert "Critical Hit" in dash.page.evaluate(_TEXT, ["wb-trace"])
    assert "No Attack has Sweep" in dash.page.evaluate(_TEXT, [SECOND])
    assert dash.python_errors() == [] and dash.console_errors() == [] and dash.notices() == []
    # The whole dashboard, down to the "with and without" chart, the trace and the link.
    height = dash.page.evaluate("document.querySelector('.wb-dashboard').scrollHeight")
    dash.screenshot(SCREENSHOT, height=int(height) + 40)
    assert SCREENSHOT.stat().st_size > 20_000


def test_controls_presets_and_rulings(open_dashboard, timings):
    dash = open_dashboard(NOTEBOOK)
    wait_for_scenario(dash, FIRST)
    # AG typed: 12 → 8.
    s = FIRST.replace(defender=FIRST.defender.replace(ag=8))
    dash.set_slider("wb-defender-ag", 8)
    timings.record("eldfall", "AG typed + Enter → outcome chart updated", dash.wait_for_chart(expected(s)[1]))
    wait_for_scenario(dash, s)
    # No LoS to the attacker: AG 8 halved to 4.
    s = s.replace(attackers=[s.attackers[0].replace(los=False)])
    dash.set_checkbox("wb-attackers-0-los", False)
    wait_for_scenario(dash, s)
    assert dash.headline()["p_dodge_succeeds"] == Fraction(4, 20)
    # Ward: no roll, so P(dodge succeeds) is null.
    s = s.replace(defender=s.defender.replace(reaction="ward"))
    dash.select("wb-defender-reaction", option("Ward (spell)"))
    start = dash.page.evaluate("performance.now()")
    wait_for_scenario(dash, s)
    timings.record("eldfall", "reaction chosen → every panel updated",
                   (dash.page.evaluate("performance.now()") - start) / 1000)
    assert dash.headline()["p_dodge_succeeds"] is None
    # The Sweep preset: the second model beside the dodging target.
    sweep = ELDFALL.preset("sweep-one-dodges")
    dash.select("wb-preset", option(sweep.title))
    wait_for_scenario(dash, sweep.scenario)
    core = evaluate(sweep.scenario)
    second = core.distributions["second_model_hits"]
    dash.wait_for_chart([float(second[k]) for k in range(3)], SECOND, 1)
    assert dash.headline()["expected_second_model_wounds"] == Fraction(42, 125)
    # The seed's reading of the Dodge, chosen in the form.
    compared = sweep.scenario.replace(dodge_resolution="compared")
    label = dict(ELDFALL.rulings()[0].choices)["compared"]
    dash.select("wb-dodge_resolution", option(label))
    wait_for_scenario(dash, compared)
    assert dash.headline()["p_dodge_succeeds"] < Fraction(1, 2)
    assert "compared" in dash.page.evaluate(_TEXT, ["wb-trace"])
    # The rulings panel compares the form's reading with the other one.
    dash.click("wb-rulings-toggle")
    other = compared.replace(dodge_resolution="independent")
    want = {"a": evaluate(compared).headline["p_dodge_succeeds"], "b": evaluate(other).headline["p_dodge_succeeds"]}
    want["difference"] = want["b"] - want["a"]
    dash.page.wait_for_function("([css, key]) => (" + _CARD + ")([css, key]).b",
                                arg=["wb-rulings", "p_dodge_succeeds"], timeout=20_000)
    card = dash.page.evaluate(_CARD, ["wb-rulings", "p_dodge_succeeds"])
    assert {k: Fraction(v) for k, v in card.items()} == want
    assert dash.python_errors() == [] and dash.console_errors() == [] and dash.notices() == []
