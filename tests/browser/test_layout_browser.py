"""Every dashboard at a glance, in a real browser, as three readers see it: a player on a phone
(390 × 844), a designer on a laptop (1366 × 768) and a teacher at a projector (1920 × 1080,
present mode). Also: the address bar follows the scenario, "Copy link" copies it, links are
short, a refused link is explained at the top in a player's words, a refused typed value is
marked at its field, the server root opens the index, and the d100 page is Russian throughout.

Each dashboard is opened once and resized, so the three pictures in docs/img/ come from one
page load (``make docs-media`` refreshes them)."""

from __future__ import annotations

from fractions import Fraction
from urllib.parse import urlsplit

import pytest

from rules_core import evaluate, get_system

from .conftest import _CHARTS_FIT, ROOT, UPDATE_TIMEOUT_MS, output_path

pytestmark = pytest.mark.browser

PHONE, LAPTOP, PROJECTOR = (390, 844), (1366, 768), (1920, 1080)
DASHBOARDS = {"infinity-n4-dodge.ipynb": "infinity-n4", "gurps-4e.ipynb": "gurps-4e",
              "eldfall.ipynb": "eldfall", "d100-homebrew.ipynb": "d100-homebrew"}

# Elements that stick out past the right edge of the page (inside a box that scrolls on its
# own, like a wide table, is fine: the page itself does not move sideways).
_SPILL = """() => {
    const width = document.documentElement.clientWidth;
    const scrolls = el => { for (let p = el.parentElement; p; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (p.scrollWidth > p.clientWidth + 1 && /(auto|scroll|hidden)/.test(s.overflowX)) return true; }
        return false; };
    const out = [];
    for (const el of document.querySelectorAll('.wb-dashboard *')) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.right > width + 1 && !scrolls(el)) out.push(el.tagName + '.' + (el.getAttribute('class') || '') + ' ' + Math.round(r.left) + '-' + Math.round(r.right) + ' ' + (el.textContent || '').slice(0, 30));
    }
    return {scroll: document.scrollingElement.scrollWidth, width, spill: out.slice(0, 10), count: out.length};
}"""

_BOX = """([css]) => { const el = document.querySelector(css);
    if (!el) return null; const r = el.getBoundingClientRect();
    return {top: r.top + window.scrollY, bottom: r.bottom + window.scrollY, left: r.left, right: r.right,
            width: r.width}; }"""

# The smallest type on the i-th chart of the page, in CSS pixels (None: no text drawn).
_CHART_TEXT = """(i) => { const texts = Array.from(document.querySelectorAll('.wb-dashboard .wb-chart')[i]
    .querySelectorAll('.js-plotly-plot .main-svg text'))
    .filter(t => t.textContent.trim() && t.getBoundingClientRect().width > 0)
    .map(t => parseFloat(getComputedStyle(t).fontSize));
    return texts.length ? Math.min(...texts) : null; }"""


def smallest_chart_text(dash) -> float:
    """The smallest type on any chart the page shows, in CSS pixels: each chart is scrolled to
    and drawn with its latest figure first (charts far from the window are drawn only when they
    come near, see ``workbook/page/chart.py``)."""
    sizes = []
    for i in range(dash.page.evaluate("document.querySelectorAll('.wb-dashboard .wb-chart').length")):
        shown = dash.page.evaluate("""(i) => { const el = document.querySelectorAll('.wb-dashboard .wb-chart')[i];
            const box = el.getBoundingClientRect();
            if (!box.width && !box.height) return false;
            el.scrollIntoView({block: 'center'}); return true; }""", i)
        if shown:
            dash.page.wait_for_function(_CHARTS_FIT, timeout=UPDATE_TIMEOUT_MS, polling=100)
            sizes.append(dash.page.evaluate(_CHART_TEXT, i))
    drawn = [size for size in sizes if size is not None]
    assert drawn, "no chart text drawn"
    return min(drawn)


_CARDS_DRAWN = "() => document.querySelectorAll('.wb-headline .wb-card').length > 0"


def box(dash, css: str) -> dict:
    return dash.page.evaluate(_BOX, [css])


def shoot(dash, name: str, size: tuple[int, int]) -> None:
    """The first screen a reader sees at ``size`` (from the top of the page), into
    docs/img/<name>-<width>.png (test-artifacts/ unless WORKBOOK_UPDATE_DOCS=1)."""
    path = output_path(ROOT / "docs" / "img" / f"{name}-{size[0]}.png")
    path.parent.mkdir(parents=True, exist_ok=True)
    # Voilà scrolls an inner box, not the window: bring every scrolled box back to its top.
    dash.page.evaluate("() => { window.scrollTo(0, 0); "
                       "for (const el of document.querySelectorAll('*')) if (el.scrollTop) el.scrollTop = 0; }")
    dash.resize(*size)
    dash.page.screenshot(path=str(path))
    assert path.stat().st_size > 10_000


@pytest.mark.parametrize("notebook", DASHBOARDS)
def test_a_phone_a_laptop_and_a_projector(open_dashboard, notebook, timings):
    system_id = DASHBOARDS[notebook]
    name = notebook.removesuffix(".ipynb")
    dash = open_dashboard(notebook, width=PHONE[0], height=PHONE[1])
    dash.page.wait_for_function(_CARDS_DRAWN, timeout=20_000)
    dash.resize(*PHONE)
    # Phone: nothing pushes the page sideways, the headline cards come first.
    spill = dash.page.evaluate(_SPILL)
    assert spill["scroll"] <= PHONE[0] and spill["count"] == 0, spill
    cards = box(dash, ".wb-headline .wb-cards")
    assert cards["bottom"] <= PHONE[1], cards
    assert box(dash, ".wb-controls")["top"] >= cards["bottom"]  # controls below, in the page's flow
    # Every card has a value, the one the core computes.
    core = evaluate(get_system(system_id).default_scenario()
                    if system_id != "gurps-4e" else dash_scenario_gurps())
    shown = dash.headline()
    assert {k: v for k, v in shown.items() if v is not None} == {
        k: v for k, v in core.headline.items() if v is not None}
    assert shown["p_dodge_succeeds"] is not None
    shoot(dash, name, PHONE)
    # Laptop: the cards and the whole outcome chart without scrolling.
    dash.resize(*LAPTOP)
    chart = box(dash, ".wb-outcome-chart .js-plotly-plot")
    assert box(dash, ".wb-headline .wb-cards")["top"] < chart["top"] and chart["bottom"] <= LAPTOP[1], chart
    assert dash.page.evaluate(_SPILL)["scroll"] <= LAPTOP[0]
    shoot(dash, name, LAPTOP)
    # Projector: present mode fills 1920 px and no chart text is under 18 px.
    dash.resize(*PROJECTOR)
    dash.click("wb-present-toggle")
    dash.page.wait_for_function(
        "() => document.querySelector('.wb-dashboard.wb-present') && "
        "document.querySelector('.wb-outcome-chart .js-plotly-plot')._fullLayout.font.size >= 18",
        timeout=20_000)
    dash.resize(*PROJECTOR)
    assert box(dash, ".wb-dashboard")["width"] >= PROJECTOR[0] - 100
    assert box(dash, ".wb-outcome-chart .js-plotly-plot")["width"] >= PROJECTOR[0] - 200
    smallest = smallest_chart_text(dash)
    assert smallest >= 18, smallest
    dash.page.wait_for_function("() => location.search.includes('present=1')", timeout=20_000)
    shoot(dash, name, PROJECTOR)
    assert dash.python_errors() == [] and dash.console_errors() == []


def dash_scenario_gurps():
    """The GURPS page opens on the Basic Set's sword example, met with a Dodge."""
    sword = get_system("gurps-4e").preset("sword-2d1-cut-vs-dr3").scenario
    return sword.replace(dodger=sword.dodger.replace(defense="plain"))


def test_the_address_bar_follows_and_copy_link_copies_a_short_link(open_dashboard):
    inf = get_system("infinity-n4")
    base = inf.preset("zhanshi-vs-fusilier").scenario
    changed = base.replace(dodger=base.dodger.replace(ph=12), attackers=(
        base.attackers[0].replace(burst=base.attackers[0].burst - 1), *base.attackers[1:]))
    dash = open_dashboard("infinity-n4-dodge.ipynb", query="preset=zhanshi-vs-fusilier",
                          permissions=["clipboard-read", "clipboard-write"])
    dash.page.evaluate("window.__sameDocument = true")  # gone if the page reloads
    dash.page.wait_for_function("() => location.search === '?preset=zhanshi-vs-fusilier'",
                                timeout=20_000)
    # A few changes: the address follows each, without a reload.
    dash.set_slider("wb-dodger-ph", 12)
    dash.page.wait_for_function("() => location.search.includes('dodger.ph=12')", timeout=20_000)
    dash.press_slider("wb-attackers-0-burst", "ArrowLeft")
    dash.page.wait_for_function("() => location.search.includes('attackers.0.burst=')", timeout=20_000)
    dash.wait_for_table(dict(evaluate(changed).outcome_rows()))
    assert dash.page.evaluate("window.__sameDocument") is True
    href = dash.page.evaluate("location.href")
    assert len(href) < 300, href
    # Copy link copies exactly the address.
    dash.click("wb-copy-link")
    dash.page.wait_for_function("() => document.querySelector('.wb-urlbar').dataset.copied",
                                timeout=20_000)
    assert dash.page.evaluate("navigator.clipboard.readText()") == href
    # The copied link opens the same scenario.
    again = open_dashboard("infinity-n4-dodge.ipynb", query=urlsplit(href).query)
    again.wait_for_table(dict(evaluate(changed).outcome_rows()))
    again.wait_for_headline(dict(evaluate(changed).headline))
    assert again.notices() == [] and again.python_errors() == []


def test_a_refused_link_is_explained_at_the_top_in_a_players_words(open_dashboard):
    dash = open_dashboard("infinity-n4-dodge.ipynb", query="dodger.ph=99999")
    words = "The link asked for PH (Dodger) 99999; PH goes from 0 to 30. Showing the default scenario."
    dash.page.wait_for_function(f"() => document.body.innerText.includes({words!r})", timeout=20_000)
    notice = box(dash, ".wb-top-notice .wb-notice-text")
    assert notice["top"] < box(dash, ".wb-headline")["top"] < 1000
    dash.wait_for_table(dict(evaluate(get_system("infinity-n4").default_scenario()).outcome_rows()))


def test_a_refused_typed_value_is_marked_at_its_field(open_dashboard):
    dash = open_dashboard("gurps-4e.ipynb")
    before = dash.headline()
    field = dash.page.locator(".wb-attacks-0-damage input")
    field.fill("4d8")
    field.press("Enter")
    dash.page.wait_for_function("() => document.querySelector('.wb-attacks-0-damage.wb-invalid') "
                                "&& document.querySelector('.wb-results.wb-stale')", timeout=20_000)
    dash.page.locator(".wb-field-reason").wait_for(state="visible", timeout=20_000)
    reason = box(dash, ".wb-field-reason")
    where = box(dash, ".wb-attacks-0-damage")
    assert 0 <= reason["top"] - where["bottom"] < 60  # right under the field
    assert "six-sided" in dash.page.locator(".wb-field-reason").inner_text()
    assert "Not updated" in dash.page.locator(".wb-stale-banner").inner_text()
    opacity = dash.page.evaluate("getComputedStyle(document.querySelector('.wb-results .wb-cards')).opacity")
    assert float(opacity) < 0.5 and dash.headline() == before
    field.fill("4d-1")
    field.press("Enter")
    dash.page.wait_for_function("() => !document.querySelector('.wb-results.wb-stale') && "
                                "!document.querySelector('.wb-invalid')", timeout=20_000)


def test_the_server_root_opens_the_index_of_cards(open_dashboard, voila_server):
    dash = open_dashboard("index.ipynb", ready="() => Boolean(document.querySelector('.wb-index a'))")
    dash.page.goto(voila_server.url)
    dash.page.wait_for_function("() => Boolean(document.querySelector('.wb-index a'))", timeout=120_000)
    assert dash.page.url == f"{voila_server.url}voila/render/index.ipynb"
    assert dash.page.title() == "Dodge Workbook — dashboards"
    from workbook.pages.catalog import dashboards

    entries = dashboards()
    cards = dash.page.locator(".wb-index-card")
    assert cards.count() == len(entries)
    for i, entry in enumerate(entries):
        card = cards.nth(i)
        # every card has its picture (a dashboard's outcome chart, each lesson's own), drawn
        picture = card.locator("svg.wb-index-picture")
        assert picture.count() == 1, entry.notebook
        assert card.locator("svg.wb-index-picture rect, svg.wb-index-picture polyline").count() > 2, entry.notebook
        assert picture.bounding_box()["width"] >= 100, entry.notebook
        assert card.locator(".wb-index-summary").inner_text().strip()
    decoration = dash.page.evaluate(
        "getComputedStyle(document.querySelector('.wb-index-name')).textDecorationLine")
    assert "underline" in decoration
    dash.page.locator(".wb-index-card[href=\"infinity-n4-dodge.ipynb\"]").click()
    dash.page.wait_for_function("() => document.querySelector('.wb-headline .wb-card')", timeout=120_000)
    assert dash.page.title() == "Infinity N4 — Dodge Workbook"


def test_d100_in_russian_throughout_and_switchable_keeping_the_scenario(open_dashboard):
    dash = open_dashboard("d100-homebrew.ipynb", query="lang=ru&preset=two-attacks-leftovers")
    dash.page.wait_for_function("() => document.querySelector('.wb-explain-body') && "
                                "document.querySelector('.wb-explain-body').innerText.includes('Как работает Избегание')",
                                timeout=20_000)
    intro = dash.page.locator(".wb-explain-intro").inner_text()
    assert intro.startswith("Домашние правила d100")
    assert "How Evasion works" not in dash.page.locator("body").inner_text()
    assert dash.page.locator(".wb-copy-link").inner_text() == "Копировать ссылку"
    trace = dash.page.locator(".wb-trace").inner_text()
    assert "1 попадание атаки 2 избегнуто по 4 Успеха за попадание" in trace
    cut = dash.page.evaluate("""() => Array.from(document.querySelectorAll(
        '.wb-form .widget-label, .wb-rulings .widget-label')).filter(
        l => l.getBoundingClientRect().width > 0 && l.scrollWidth > l.clientWidth + 1).map(l => l.textContent)""")
    assert cut == []  # every label whole ("Продвижение Навыка Dodge" too)
    d100 = get_system("d100-homebrew")
    s = d100.preset("two-attacks-leftovers").scenario
    dash.wait_for_table(dict(evaluate(s).outcome_rows()))
    dash.select("wb-lang", "English")
    dash.page.wait_for_function("() => document.querySelector('.wb-explain-body') && "
                                "document.querySelector('.wb-explain-body').innerText.includes('How Evasion works')",
                                timeout=20_000)
    dash.wait_for_table(dict(evaluate(s).outcome_rows()))
    assert Fraction(dash.headline()["p_no_hit"]) == evaluate(s).headline["p_no_hit"]
    assert dash.python_errors() == [] and dash.console_errors() == []
