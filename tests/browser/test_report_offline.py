"""The HTML report opens in Chromium from a file, with every network request refused, and shows
the headline (the core's exact values), drawn charts, the trace and the share link."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import pytest

from rules_core import evaluate, find_preset

from .conftest import ROOT


@pytest.mark.parametrize("ref", ["infinity-n4/zhanshi-vs-fusilier", "d100-homebrew/burst-3-vs-dodge-45"])
def test_report_opens_offline_and_shows_the_headline(browser, tmp_path, ref):
    out = tmp_path / "report.html"
    done = subprocess.run([sys.executable, "-m", "workbook", "report", "--preset", ref, "-o", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    # offline: a context that refuses every request but the file itself
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, offline=True)
    requests: list[str] = []
    context.route("**/*", lambda r: (requests.append(r.request.url),
                                     r.continue_() if r.request.url.startswith("file://") else r.abort()))
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
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
        assert [u for u in requests if not u.startswith("file://")] == []
        assert errors == []
    finally:
        context.close()
