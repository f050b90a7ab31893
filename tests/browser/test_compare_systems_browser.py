"""The four-games page in Voilà: the side-by-side worth equals the core's, the chart has a curve
per system and redraws on a change; nothing spills past a phone's width and the page fills a
projector in present mode (its pictures in docs/img/, ``make docs-media``); the address follows
the choices, "Copy link" copies it and the copied link reopens the same choices; the report is
offered; the README's picture of the page (its table and its chart)."""

from __future__ import annotations

from fractions import Fraction
from urllib.parse import urlsplit

from .conftest import _DRAWN_PLOT, ARTIFACTS, ROOT, output_path
from .test_layout_browser import LAPTOP, PHONE, PROJECTOR, _SPILL, box, shoot, smallest_chart_text
from rules_core import evaluate
from rules_core.compare import without_reaction
from workbook.pages.four_games import FourGames

READY = ("() => Boolean((" + _DRAWN_PLOT + ")('.wb-four-chart') && "
         "document.querySelector('.wb-four-table td[data-system]'))")
_CELLS = """(key) => Object.fromEntries(Array.from(document.querySelectorAll(
    `.wb-four-table tr[data-key="${key}"] td[data-system]`)).map(td => [td.dataset.system, td.dataset.exact]))"""
_SOURCES = r"""() => Object.fromEntries(Array.from(document.querySelectorAll('[class*="wb-four-source-"]')).map(
    el => [Array.from(el.classList).find(c => c.startsWith('wb-four-source-')).slice(15),
           el.querySelector('select').selectedOptions[0].textContent.replace(/\s+/g, ' ')]))"""

# Buttons and labels whose words are cut ("P(no hit) gained (percentage points)" whole).
_CUT = """() => Array.from(document.querySelectorAll('.wb-four button, .wb-four .widget-label'))
    .filter(b => b.getBoundingClientRect().width > 0 && b.scrollWidth > b.clientWidth + 1).map(b => b.textContent)"""


def test_four_games_page(open_dashboard):
    page = open_dashboard("compare-systems.ipynb", ready=READY, width=LAPTOP[0], height=LAPTOP[1])
    expected = FourGames(query="")  # the same defaults, computed here
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
    _readme_picture(page)
    # choosing another Infinity preset changes its column
    page.select("wb-four-source-infinity-n4", "Zhanshi dodges a Fusilier")
    page.page.wait_for_function(
        "() => (document.querySelector('.wb-four-table tr[data-key=\"p_no_hit_without\"] "
        "td[data-system=\"infinity-n4\"]') || {}).dataset?.exact === '1/64'", timeout=20_000)
    # the report is made on request and offered for download
    page.click("wb-four-export-report")
    page.page.wait_for_function("() => document.querySelector('.wb-four-export-report-file')", timeout=60_000)
    assert page.page.get_attribute(".wb-four-export-csv-file", "download") == "one-dodge-four-games.csv"
    assert page.python_errors() == [] and page.console_errors() == []


def _readme_picture(page) -> None:
    """docs/img/compare-systems.png: the side-by-side table and the chart under it, at a laptop's
    width (test-artifacts/ unless WORKBOOK_UPDATE_DOCS=1)."""
    path = output_path(ROOT / "docs" / "img" / "compare-systems.png")
    path.parent.mkdir(parents=True, exist_ok=True)
    page.resize(LAPTOP[0], 1400)  # tall enough for both in one screen
    page.page.locator(".wb-four-table").scroll_into_view_if_needed()
    page.page.evaluate("document.querySelector('.wb-four-table').scrollIntoView({block: 'start'})")
    top, bottom, right = page.page.evaluate("""() => {
        const t = document.querySelector('.wb-four-table').getBoundingClientRect();
        const c = document.querySelector('.wb-four-chart').getBoundingClientRect();
        return [t.top, c.bottom, Math.max(t.right, c.right)]; }""")
    page.page.screenshot(path=str(path), clip={"x": 0, "y": max(0, top - 8), "width": min(LAPTOP[0], right + 16),
                                               "height": bottom - top + 10})
    assert path.stat().st_size > 10_000
    page.resize(*LAPTOP)


def test_a_phone_a_laptop_and_a_projector(open_dashboard):
    page = open_dashboard("compare-systems.ipynb", ready=READY, width=PHONE[0], height=PHONE[1])
    page.resize(*PHONE)
    # Phone: nothing pushes the page sideways (the table scrolls in its own box), the chart fits.
    spill = page.page.evaluate(_SPILL)
    assert spill["scroll"] <= PHONE[0] and spill["count"] == 0, spill
    assert box(page, ".wb-four-chart .js-plotly-plot")["right"] <= PHONE[0]
    for system_id in ("infinity-n4", "gurps-4e", "eldfall", "d100-homebrew"):
        assert box(page, f".wb-four-source-{system_id}")["right"] <= PHONE[0], system_id
    assert page.page.evaluate(_CUT) == []
    shoot(page, "compare-systems", PHONE)
    ARTIFACTS.mkdir(exist_ok=True)  # the chart on a phone, for a reviewer's eye
    page.page.locator(".wb-four-measure").scroll_into_view_if_needed()
    page.page.screenshot(path=str(ARTIFACTS / "compare-systems-390-chart.png"))
    # Laptop: the pickers and the table side by side with nothing spilling.
    page.resize(*LAPTOP)
    assert page.page.evaluate(_SPILL)["scroll"] <= LAPTOP[0]
    assert box(page, ".wb-four-table table")["width"] <= LAPTOP[0]
    assert page.page.evaluate(_CUT) == []
    shoot(page, "compare-systems", LAPTOP)
    # Projector: present mode fills the width, no chart text under 18 px, present=1 in the link.
    page.resize(*PROJECTOR)
    page.click("wb-present-toggle")
    page.page.wait_for_function(
        "() => document.querySelector('.wb-four.wb-present') && "
        "document.querySelector('.wb-four-chart .js-plotly-plot')._fullLayout.font.size >= 18", timeout=20_000)
    page.resize(*PROJECTOR)
    assert box(page, ".wb-four")["width"] >= PROJECTOR[0] - 100
    assert box(page, ".wb-four-chart .js-plotly-plot")["width"] >= PROJECTOR[0] - 200
    assert smallest_chart_text(page) >= 18
    page.page.wait_for_function("() => location.search.includes('present=1')", timeout=20_000)
    shoot(page, "compare-systems", PROJECTOR)
    assert page.python_errors() == [] and page.console_errors() == []


def test_copy_link_copies_the_choices_and_the_link_reopens_them(open_dashboard):
    page = open_dashboard("compare-systems.ipynb", query="infinity-n4=zhanshi-vs-fusilier", ready=READY,
                          permissions=["clipboard-read", "clipboard-write"])
    page.page.evaluate("window.__sameDocument = true")  # gone if the page reloads
    assert page.page.evaluate(_SOURCES)["infinity-n4"] == "Zhanshi dodges a Fusilier"
    page.select("wb-four-source-eldfall", "Dodge without LoS")
    page.page.wait_for_function("() => location.search.includes('eldfall=no-los')", timeout=20_000)
    page.click("wb-present-toggle")
    page.page.wait_for_function("() => location.search.includes('present=1')", timeout=20_000)
    assert page.page.evaluate("window.__sameDocument") is True
    href = page.page.evaluate("location.href")
    assert "infinity-n4=zhanshi-vs-fusilier" in href and len(href) < 300, href
    assert page.page.title() == "One dodge, four games — Dodge Workbook"
    page.click("wb-copy-link")
    page.page.wait_for_function("() => document.querySelector('.wb-urlbar').dataset.copied", timeout=20_000)
    assert page.page.evaluate("navigator.clipboard.readText()") == href
    chosen, cells = page.page.evaluate(_SOURCES), page.page.evaluate(_CELLS, "p_no_hit_gained")
    again = open_dashboard("compare-systems.ipynb", query=urlsplit(href).query, ready=READY)
    assert again.page.evaluate(_SOURCES) == chosen
    assert again.page.evaluate(_CELLS, "p_no_hit_gained") == cells
    assert again.page.evaluate("Boolean(document.querySelector('.wb-four.wb-present'))")
    assert again.page.locator(".wb-four-notice").inner_text().strip() == ""
    assert again.python_errors() == [] and again.console_errors() == []
