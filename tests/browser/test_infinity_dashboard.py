"""The Infinity N4 dodge dashboard in a real browser: it renders, follows its controls to the
core's exact numbers, opens shared links, and refuses hostile ones with a notice."""

from __future__ import annotations

from fractions import Fraction
from urllib.parse import urlsplit

import pytest

from rules_core import evaluate, get_system
from rules_core.systems.infinity_n4.exact import dodge_headline
from rules_core.systems.infinity_n4.scenario import InfinityScenario

from .conftest import ROOT

pytestmark = pytest.mark.browser

NOTEBOOK = "infinity-n4-dodge.ipynb"
SCREENSHOT = ROOT / "docs" / "img" / "infinity-n4-dodge.png"


SEED = get_system("infinity-n4").presets[0].scenario  # the seed's Zhanshi against the Fusilier


def scenario(ph: int = 10, burst: int = 3, **attacker) -> InfinityScenario:
    """The seed example with the dodger's PH, the Burst and other attacker fields changed."""
    first = SEED.attackers[0].replace(burst=burst, **attacker)
    return SEED.replace(dodger=SEED.dodger.replace(ph=ph), attackers=[first, *SEED.attackers[1:]])


def expected(s: InfinityScenario):
    """The core's exact numbers: outcome table, chart heights, headline; the common headline
    numbers are checked once more against the fast path of one die against one Burst."""
    result = evaluate(s)
    table = dict(result.outcome_rows())
    headline = dict(result.headline)
    a = s.attackers[0]
    fast = dodge_headline(s.dodger.ph + s.dodger.mod, a.value + a.mod, a.burst)
    assert (headline["p_dodge_succeeds"], headline["p_no_hit"], headline["expected_hits"]) == fast
    return table, [float(p) for p in table.values()], headline


def test_renders_the_seed_example_without_errors(open_dashboard, timings):
    dash = open_dashboard(NOTEBOOK)
    timings.record("infinity-n4", "page request → chart and table rendered (cold kernel)",
                   dash.load_seconds)
    table, heights, headline = expected(scenario())
    dash.wait_for_table(table)
    assert dash.table() == table
    assert dash.headline() == headline
    assert dash.headline()["p_dodge_succeeds"] == Fraction(47, 500)  # the seed's number
    assert dash.chart_y() == heights
    at_least = [float(p) for _, p in evaluate(scenario()).p_at_least_hits()]
    assert dash.chart_y("wb-at-least-chart") == at_least
    assert dash.python_errors() == []
    assert dash.console_errors() == []
    assert dash.notices() == []
    assert dash.page.locator(".wb-preset select").input_value() != ""
    assert "Zhanshi" in dash.page.locator(".wb-preset select option:checked").inner_text()
    dash.screenshot(SCREENSHOT)
    assert SCREENSHOT.stat().st_size > 20_000


def test_moving_ph_and_burst_updates_chart_and_table(open_dashboard, timings):
    dash = open_dashboard(NOTEBOOK)
    # One arrow-key press on the PH handle: 10 → 11.
    table, heights, headline = expected(scenario(ph=11))
    dash.press_slider("wb-dodger-ph", "ArrowRight")
    timings.record("infinity-n4", "PH slider key press → outcome chart updated",
                   dash.wait_for_chart(heights))
    dash.wait_for_table(table)
    assert dash.table() == table and dash.headline() == headline
    assert dash.slider_value("wb-dodger-ph") == 11
    # The Burst typed into its readout: 3 → 5.
    table, heights, headline = expected(scenario(ph=11, burst=5))
    dash.set_slider("wb-attackers-0-burst", 5)
    timings.record("infinity-n4", "Burst typed + Enter → outcome chart updated",
                   dash.wait_for_chart(heights))
    dash.wait_for_table(table)
    dash.wait_for_headline(headline)
    assert dash.table() == table and dash.headline() == headline
    # The "at least" chart is sent after the outcome chart (workbook/pages/dashboard.py, _show):
    # waited for, not read at once, or a busy machine shows its figure of the step before.
    at_least = [float(p) for _, p in evaluate(scenario(ph=11, burst=5)).p_at_least_hits()]
    dash.wait_for_chart(at_least, "wb-at-least-chart")
    assert dash.chart_y("wb-at-least-chart") == at_least
    # The share link follows, and names this scenario.
    link = urlsplit(dash.share_link("dodger.ph=11", "attackers.0.burst=5"))
    assert link.path == f"/voila/render/{NOTEBOOK}"
    assert "dodger.ph=11" in link.query and "attackers.0.burst=5" in link.query
    assert dash.python_errors() == [] and dash.console_errors() == []


def test_a_shared_link_opens_its_scenario(open_dashboard):
    dash = open_dashboard(NOTEBOOK, "dodger.ph=13&attackers.0.burst=2&attackers.0.attribute=CC")
    table, heights, headline = expected(scenario(ph=13, burst=2, attribute="CC"))
    dash.wait_for_table(table)
    assert dash.table() == table and dash.headline() == headline and dash.chart_y() == heights
    assert dash.slider_value("wb-dodger-ph") == 13 and dash.slider_value("wb-attackers-0-burst") == 2
    chosen = dash.page.locator(".wb-attackers-0-attribute select option:checked").inner_text()
    assert chosen.replace("\xa0", " ") == "CC (close combat)"
    assert dash.notices() == []


def test_a_hostile_link_shows_the_default_with_a_notice(open_dashboard):
    dialogs = []
    dash = open_dashboard(NOTEBOOK, "dodger.ph=99999999999999&%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E=1"
                                    "&attackers.0.burst=%ff%fe")
    dash.page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    default = get_system("infinity-n4").default_scenario()
    table, heights, headline = expected(default)
    dash.wait_for_table(table)
    notices = dash.notices()
    assert notices and "Showing the default scenario." in notices[0]  # in a player's words
    assert "<img" in notices[0]  # shown as text, not as markup
    assert dash.page.locator(".wb-notice img").count() == 0 and dialogs == []
    assert dash.python_errors() == []
