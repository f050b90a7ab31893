"""Russian numbers in a real browser (issue 26, item 6): the d100 homebrew page opened with
``?lang=ru``, its Roll, Simulate and "Compare, sweep, export" panels open, is read as a reader
sees it — every text on the page, and every drawn chart's tick labels and bar labels — and no
number is written the English way (a dot between digits, or ``%`` without a no-break space before
it); the charts use plotly's ``separators`` ``", "``. The English page is unchanged."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from rules_core import evaluate, get_system

from .conftest import _DRAWN_PLOT

pytestmark = pytest.mark.browser

NOTEBOOK = "d100-homebrew.ipynb"
FIRST = get_system("d100-homebrew").presets[0].scenario  # a burst of 3 hits against Dodge 45
ENGLISH_DECIMAL = re.compile(r"\d\.\d")
BARE_PERCENT = re.compile(r"(?<!\u00a0)%")
#: Not numbers: a link the page shows (its query is data).
_LINKS = re.compile(r"https?://\S+|\?\S*=\S*|\S+=\S+")

CHARTS = (".wb-outcome-chart", ".wb-at-least-chart", ".wb-view-where-each-attack-s-hits-go",
          ".wb-sim-chart", ".wb-modes-chart")

# What a drawn chart writes: its separators, its tick labels (both axes) and its bars' labels.
_CHART_WORDS = """(selector) => {
    const plot = (""" + _DRAWN_PLOT + """)(selector);
    if (!plot) return null;
    const texts = (css) => Array.from(plot.querySelectorAll(css)).map(t => t.textContent);
    return {separators: plot._fullLayout.separators, ticks: texts('.xtick text, .ytick text'),
            bars: texts('text.bartext')};
}"""


def _open_panels(dash) -> None:
    dash.click("wb-roll-toggle")
    dash.click("wb-roll-button")
    dash.page.wait_for_function("() => document.querySelector('.wb-roll-outcome')", timeout=20_000)
    dash.click("wb-sim-toggle")
    n = dash.page.locator(".wb-sim-n input")
    n.fill("12000")
    n.press("Enter")
    dash.click("wb-sim-run")
    dash.page.wait_for_function("() => /\\d/.test((document.querySelector('.wb-sim-status') || {}).innerText || '')",
                                timeout=60_000)
    dash.click("wb-analysis-toggle")


def _charts(dash) -> dict[str, dict]:
    found = {}
    for selector in CHARTS:
        dash.wait_drawn(selector, timeout=60_000)
        found[selector] = dash.page.evaluate(_CHART_WORDS, selector)
    return found


def _english_numbers(text: str) -> list[str]:
    text = _LINKS.sub(" ", text)
    return [text[max(0, m.start() - 30):m.end() + 15]
            for pattern in (ENGLISH_DECIMAL, BARE_PERCENT) for m in pattern.finditer(text)]


def test_every_number_on_the_russian_page_is_written_the_russian_way(open_dashboard):
    dash = open_dashboard(NOTEBOOK, "lang=ru")
    table = dict(evaluate(FIRST).outcome_rows())
    dash.wait_for_table(table)
    _open_panels(dash)
    charts = _charts(dash)
    page_text = dash.page.locator(".wb-dashboard").inner_text()
    found = [f"page: {s!r}" for s in _english_numbers(page_text)]
    for selector, words in charts.items():
        assert words["separators"] == ",\u00a0", selector
        assert words["ticks"], f"{selector} shows no ticks"
        for said in words["ticks"] + words["bars"]:
            found += [f"{selector}: {s!r}" for s in _english_numbers(said)]
    assert found == [], "numbers written the English way on the Russian page:\n" + "\n".join(found)
    # the numbers are there, written the Russian way (not merely absent)
    assert "45,00\u00a0%" in page_text and "1 из 2,22" in page_text  # P(dodge succeeds) 9/20
    assert "1,95" in page_text                                        # 39/20 hits expected
    assert re.search(r"12\u00a0000 бросков", page_text)                # the simulation's rolls
    outcome_ticks = charts[".wb-outcome-chart"]["ticks"]
    assert any(t.endswith("\u00a0%") for t in outcome_ticks)
    # a percent tick read back is a multiple of its step, at or above zero
    values = [float(t[:-2].replace(",", ".")) for t in outcome_ticks if t.endswith("\u00a0%")]
    assert values == sorted(values) and values[0] == 0
    assert all(b.endswith("\u00a0%") for b in charts[".wb-outcome-chart"]["bars"])
    # the exact numbers are the same as in English
    assert dash.table() == table and dash.headline()["expected_hits"] == Fraction(39, 20)
    assert dash.python_errors() == [] and dash.console_errors() == []


def test_the_english_page_is_unchanged(open_dashboard):
    dash = open_dashboard(NOTEBOOK)
    dash.wait_for_table(dict(evaluate(FIRST).outcome_rows()))
    words = dash.page.evaluate(_CHART_WORDS, ".wb-outcome-chart")
    assert words["separators"] == ".,"  # plotly's own default
    assert any(re.fullmatch(r"\d+%", t) for t in words["ticks"])
    assert all(re.fullmatch(r"\d+\.\d+%|\d+%", b) for b in words["bars"])
    text = dash.page.locator(".wb-headline").inner_text()
    assert "45.00%" in text and "1 in 2.22" in text and "\u00a0%" not in text
    assert dash.python_errors() == [] and dash.console_errors() == []
