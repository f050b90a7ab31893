"""Pin as A, sweep, chart modes and export on a real dashboard (Eldfall), each number checked
against the core's exact value."""

from __future__ import annotations

from fractions import Fraction

from rules_core import evaluate, find_preset
from workbook.panels.export import outcomes_csv
from workbook.panels.modes import hits_rows

_CARD = """(key) => Object.fromEntries(Array.from(document.querySelectorAll(
    `.wb-analysis .wb-ab-card[data-key="${key}"] [data-side]`)).map(e => [e.dataset.side, e.dataset.exact]))"""


def test_pin_sweep_modes_and_export(open_dashboard):
    page = open_dashboard("eldfall.ipynb")
    p = page.page
    a = find_preset("eldfall/dodge-vs-critical").scenario
    assert page.headline()["p_no_hit"] == evaluate(a).headline["p_no_hit"]
    p.click(".wb-analysis-toggle")
    page.wait_drawn(".wb-modes-chart")
    # pin as A, then one step up on AG: B beside A
    p.click(".wb-analysis .wb-ab-pin")
    page.press_slider("wb-defender-ag", "ArrowRight")
    b = a.set("defender.ag", a.defender.ag + 1)
    ra, rb = evaluate(a), evaluate(b)
    expected = {"a": str(ra.headline["p_no_hit"]), "b": str(rb.headline["p_no_hit"]),
                "difference": str(rb.headline["p_no_hit"] - ra.headline["p_no_hit"])}
    p.wait_for_function(f"() => ({_CARD})('p_no_hit').b === {expected['b']!r}", timeout=20_000)
    assert p.evaluate(_CARD, "p_no_hit") == expected
    p.wait_for_function("() => (document.querySelector('.wb-share-anchor') || {}).href?.includes('pin=')",
                        timeout=20_000)
    p.wait_for_function("() => window.location.search.includes('pin=')", timeout=20_000)
    # chart modes: at most k hits
    p.locator(".wb-modes-switch button", has_text="At most").click()
    want = [float(q) for _, q in hits_rows(rb, "at_most")]
    p.wait_for_function("(want) => { const d = document.querySelector('.wb-modes-chart .js-plotly-plot');"
                        " return d && JSON.stringify(Array.from(d.data[0].y)) === JSON.stringify(want); }",
                        arg=want, timeout=20_000)
    # sweep: the point at the scenario's own AG equals evaluate
    p.click(".wb-sweep-open")
    page.wait_drawn(".wb-sweep-chart")
    point = p.evaluate("(ag) => { const t = document.querySelector('.wb-sweep-chart .js-plotly-plot').data"
                       ".find(t => t.name === 'P(no hit lands)'); const i = t.x.indexOf(ag); return t.customdata[i][0]; }",
                       b.defender.ag)
    assert Fraction(point) == rb.headline["p_no_hit"]
    # export: the outcome CSV is the core's table
    with p.expect_download() as download:
        p.click(".wb-export-outcomes")
    assert open(download.value.path(), encoding="utf-8").read() == outcomes_csv(rb)
    p.click(".wb-export-report")
    p.wait_for_function("() => document.querySelector('.wb-export-report-file')", timeout=60_000)
    assert page.python_errors() == [] and page.console_errors() == []
