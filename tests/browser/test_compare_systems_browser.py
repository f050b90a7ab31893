"""The four-games page in Voilà: the side-by-side worth equals the core's, the chart has a curve
per system and redraws on a change; its picture for the README."""

from __future__ import annotations

from fractions import Fraction

from .conftest import ROOT
from rules_core import evaluate
from rules_core.compare import without_reaction
from workbook.four_games import FourGames

READY = ("() => Boolean(document.querySelector('.wb-four-chart .main-svg') && "
         "document.querySelector('.wb-four-table td[data-system]'))")
_CELLS = """(key) => Object.fromEntries(Array.from(document.querySelectorAll(
    `.wb-four-table tr[data-key="${key}"] td[data-system]`)).map(td => [td.dataset.system, td.dataset.exact]))"""


def test_four_games_page(open_dashboard):
    page = open_dashboard("compare-systems.ipynb", ready=READY)
    expected = FourGames()  # the same defaults, computed here
    gained = page.page.evaluate(_CELLS, "p_no_hit_gained")
    assert set(gained) == {s.id for s in expected.systems}
    for system in expected.systems:
        scenario = expected.scenarios[system.id]
        with_, without = evaluate(scenario), evaluate(without_reaction(scenario))
        assert Fraction(gained[system.id]) == with_.headline["p_no_hit"] - without.headline["p_no_hit"]
    curves = page.page.evaluate("document.querySelector('.wb-four-chart .js-plotly-plot').data"
                                ".filter(t => t.mode === 'lines+markers').map(t => t.name)")
    assert curves == [s.name for s in expected.systems]
    assert page.page.evaluate("document.querySelector('.wb-four-chart').getBoundingClientRect().height") > 300
    page.page.locator(".wb-four-chart").scroll_into_view_if_needed()
    page.page.locator(".wb-four-chart").screenshot(path=str(_picture()))
    # choosing another Infinity preset changes its column
    page.select("wb-four-source-infinity-n4", "Zhanshi dodges a Fusilier")
    page.page.wait_for_function(
        "() => (document.querySelector('.wb-four-table tr[data-key=\"p_no_hit_without\"] "
        "td[data-system=\"infinity-n4\"]') || {}).dataset?.exact === '1/64'", timeout=20_000)
    assert page.python_errors() == [] and page.console_errors() == []


def _picture():
    from .conftest import output_path

    path = output_path(ROOT / "docs" / "img" / "compare-systems.png")
    path.parent.mkdir(parents=True, exist_ok=True)
    return path
