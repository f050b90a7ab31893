"""The HTML report opens in Chromium from a file, with every network request refused, and shows
the headline (the core's exact values), drawn charts, the system's own views (their charts
drawn), the trace and the share link; the four-games page's report likewise shows its table and
its chart."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import pytest

from rules_core import evaluate, find_preset

from .conftest import ROOT


def _offline(browser):
    """A page in a context that refuses every request but the file itself, with the requests it
    made and the errors it logged."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, offline=True)
    requests: list[str] = []
    context.route("**/*", lambda r: (requests.append(r.request.url),
                                     r.continue_() if r.request.url.startswith("file://") else r.abort()))
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page, requests, errors


#: Each report's system views that draw a chart, by preset.
VIEW_CHARTS = {"infinity-n4/zhanshi-vs-fusilier": ["Wounds"],
               "d100-homebrew/burst-3-vs-dodge-45": ["Where each attack's hits go"]}


@pytest.mark.parametrize("ref", ["infinity-n4/zhanshi-vs-fusilier", "d100-homebrew/burst-3-vs-dodge-45"])
def test_report_opens_offline_and_shows_the_headline(browser, tmp_path, ref):
    out = tmp_path / "report.html"
    done = subprocess.run([sys.executable, "-m", "workbook", "report", "--preset", ref, "-o", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    context, page, requests, errors = _offline(browser)
    try:
        page.goto(out.as_uri(), wait_until="load")
        page.wait_for_function("document.querySelectorAll('.wb-report-chart .main-svg').length >= 2",
                               timeout=30_000)
        cards = page.eval_on_selector_all(
            ".wb-report-card", "cs => Object.fromEntries(cs.map(c => [c.dataset.key, "
                               "c.querySelector('[data-exact]').dataset.exact]))")
        expected = evaluate(find_preset(ref).scenario).headline
        assert {k: Fraction(v) for k, v in cards.items() if v} == {k: v for k, v in expected.items() if v is not None}
        assert page.is_visible(".wb-report-headline")
        bars = page.evaluate("Array.from(document.querySelectorAll('.wb-report-chart .js-plotly-plot'))"
                             ".map(d => d.data[0].y.length)")
        assert bars[0] == len(evaluate(find_preset(ref).scenario).outcome_order)
        assert page.locator(".wb-report-trace li").count() >= 3
        assert "preset=" in page.get_attribute(".wb-report-share a", "href")
        # the system's own views, their charts drawn too
        for title in VIEW_CHARTS[ref]:
            view = page.locator(f'.wb-report-view[data-view="{title}"]')
            assert view.locator("h2").inner_text() == title
            view.locator(".main-svg").first.wait_for(state="visible", timeout=30_000)
        assert [u for u in requests if not u.startswith("file://")] == []
        assert errors == []
    finally:
        context.close()


def test_the_four_games_report_opens_offline_with_its_table_and_chart(browser, tmp_path):
    from rules_core.compare import without_reaction
    from workbook.pages.four_games import FourGames

    four = FourGames(query="infinity-n4=zhanshi-vs-fusilier")
    out = tmp_path / "four-games.html"
    out.write_text(four.report_html(), encoding="utf-8")
    context, page, requests, errors = _offline(browser)
    try:
        page.goto(out.as_uri(), wait_until="load")
        page.wait_for_function("document.querySelectorAll('.wb-report-four-chart .main-svg').length >= 1",
                               timeout=30_000)
        gained = page.eval_on_selector_all(
            '.wb-report-four-table tr[data-key="p_no_hit_gained"] td[data-system]',
            "tds => Object.fromEntries(tds.map(td => [td.dataset.system, td.dataset.exact]))")
        for system in four.systems:
            scenario = four.scenarios[system.id]
            assert Fraction(gained[system.id]) == (evaluate(scenario).headline["p_no_hit"]
                                                   - evaluate(without_reaction(scenario)).headline["p_no_hit"])
        assert Fraction(gained["infinity-n4"]) == Fraction(401, 3200) - Fraction(1, 64)  # the seed's Fusilier
        names = page.evaluate("document.querySelector('.wb-report-four-chart .js-plotly-plot').data"
                              ".filter(t => t.mode === 'lines+markers').map(t => t.name)")
        assert names == [s.name for s in four.systems]
        assert [u for u in requests if not u.startswith("file://")] == []
        assert errors == []
    finally:
        context.close()
