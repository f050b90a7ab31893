"""The controls in foldable sections on a phone, and the Roll, Simulate and "Compare, sweep,
export" panels opened as a player on a phone (390 × 844), a designer on a laptop (1366 × 768)
and a teacher at a projector (1920 × 1080, present mode) see them: nothing pushes the page
sideways, no chart text under 18 px in present mode, no chart toolbar over a chart's title.

``make docs-media`` writes the pictures of the opened panels into docs/img/ (``panels-<width>``
and ``classroom-<width>``, from one page load of the Infinity dashboard)."""

from __future__ import annotations

import pytest

from rules_core import evaluate, get_system
from workbook.page.present import split_page_keys
from workbook.page.share import decode_query

from .conftest import ROOT, output_path
from .test_layout_browser import LAPTOP, PHONE, PROJECTOR, _SPILL

pytestmark = pytest.mark.browser

INFINITY = get_system("infinity-n4")

_VISIBLE = """(css) => { const el = document.querySelector(css);
    return Boolean(el) && el.getBoundingClientRect().height > 0 && getComputedStyle(el).display !== 'none'; }"""

# The smallest type on the charts inside ``root`` as drawn (CSS pixels), and how many texts.
_CHART_TEXT = """(root) => { const sizes = Array.from(document.querySelectorAll(
        `${root} .js-plotly-plot .main-svg text`))
    .filter(t => t.textContent.trim() && t.getBoundingClientRect().width > 0)
    .map(t => { const m = t.getScreenCTM();  // plotly shrinks a bar's label by a transform
        return parseFloat(getComputedStyle(t).fontSize) * (m ? Math.hypot(m.a, m.b) : 1); });
    return {smallest: sizes.length ? Math.min(...sizes) : null, count: sizes.length}; }"""

# A chart's toolbar (shown while the pointer is over the chart) overlapping its title.
_TOOLBAR_OVER_TITLE = """(root) => Array.from(document.querySelectorAll(`${root} .js-plotly-plot`)).filter(plot => {
    const bar = plot.querySelector('.modebar'), title = plot.querySelector('.gtitle');
    if (!bar || !title || !title.textContent.trim()) return false;
    const a = bar.getBoundingClientRect(), b = title.getBoundingClientRect();
    return a.width > 0 && b.width > 0 && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}).length"""

# Labels cut at their right edge (a text wider than its box) inside ``root``.
_CUT_LABELS = """(root) => Array.from(document.querySelectorAll(
    `${root} .widget-label, ${root} button, ${root} .widget-dropdown select`)).filter(
    l => l.getBoundingClientRect().width > 0 && l.scrollWidth > l.clientWidth + 1).map(
    l => (l.textContent || l.value || '').trim().slice(0, 40))"""


# Words cut anywhere inside ``root``, also where the check above cannot see it: a label or a
# button wider than its box, a radio button's words wider or taller than theirs (a wrapped
# reading squeezed into one line's height), and a dropdown whose chosen words are wider than the
# room inside it (a <select> reports no overflow: its text is measured in its own font).
_CUT_WORDS = """(root) => { const cut = [], ruler = document.createElement('canvas').getContext('2d');
    const shown = l => l.getBoundingClientRect().width > 0 && (l.textContent || '').trim();
    for (const l of document.querySelectorAll(`${root} .widget-label, ${root} button`)) {
        if (shown(l) && l.scrollWidth > l.clientWidth + 1) cut.push(l.textContent.trim().slice(0, 40)); }
    for (const l of document.querySelectorAll(`${root} .widget-radio-box label`)) {
        if (shown(l) && (l.scrollWidth > l.clientWidth + 1 || l.scrollHeight > l.clientHeight + 1))
            cut.push(l.textContent.trim().slice(0, 40)); }
    for (const s of document.querySelectorAll(`${root} select`)) {
        if (s.getBoundingClientRect().width === 0 || s.selectedIndex < 0) continue;
        const css = getComputedStyle(s), words = s.options[s.selectedIndex].text;
        ruler.font = `${css.fontStyle} ${css.fontWeight} ${css.fontSize} ${css.fontFamily}`;
        const room = s.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight);
        if (ruler.measureText(words).width > room + 1) cut.push(words.trim().slice(0, 40)); }
    return cut; }"""

# The words of the rulings panel: the ruling chosen, the readings offered (radio buttons) and
# each side's words above the cards.
_RULINGS_WORDS = """() => { const plain = t => (t || '').replace(/\u00a0/g, ' ').trim(); return {
    ruling: (s => plain(s.options[s.selectedIndex].text))(document.querySelector('.wb-rulings-field select')),
    offered: [...document.querySelectorAll('.wb-rulings-value .widget-radio-box label')].map(l => plain(l.innerText)),
    words: plain((document.querySelector('.wb-rulings-help .wb-ab-words') || {}).innerText)}; }"""


def _every_reading_in_full(dash, system, where) -> None:
    """Choose each ruling in the rulings panel: every other reading is offered in its own full
    words (the system's declared labels), and nothing in the panel is cut."""
    rulings = system.rulings()
    query, _page = split_page_keys(dash.page.evaluate("location.search").lstrip("?"))
    scenario = decode_query(system, query).scenario or system.default_scenario()
    for spec in rulings:
        dash.select("wb-rulings-field", spec.label)
        others = [label for value, label in spec.choices if value != getattr(scenario, spec.name)]
        dash.page.wait_for_function(
            f"([ruling, offered]) => {{ const shown = ({_RULINGS_WORDS})(); return shown.ruling === ruling && "
            "JSON.stringify(shown.offered) === JSON.stringify(offered) && shown.words.includes(offered[0]); }",
            arg=[spec.label, others], timeout=30_000)
        assert dash.page.evaluate(_CUT_WORDS, ".wb-rulings") == [], (where, spec.name)


def visible(dash, css: str) -> bool:
    return dash.page.evaluate(_VISIBLE, css)


def shown_scenario(dash):
    return decode_query(INFINITY, dash.page.evaluate("location.search")).scenario or INFINITY.default_scenario()


def test_on_a_phone_the_controls_fold_and_a_folded_away_change_still_reaches_the_numbers(open_dashboard):
    dash = open_dashboard("infinity-n4-dodge.ipynb", width=PHONE[0], height=PHONE[1])
    dash.resize(*PHONE)
    # Folded on a phone until opened: each section shows its "▸" header only.
    for section in (".wb-dodger", ".wb-attackers-0", ".wb-group-rulings"):
        assert visible(dash, f"{section} > .wb-section-unfold") and not visible(dash, f"{section} > .wb-section-body")
    cards = dash.page.evaluate("document.querySelector('.wb-headline .wb-cards').getBoundingClientRect().bottom")
    form = dash.page.evaluate("document.querySelector('.wb-form').getBoundingClientRect().top")
    assert form >= cards  # below the numbers, in the page's own flow
    dash.page.locator(".wb-dodger > .wb-section-unfold").click()
    dash.page.wait_for_function(_VISIBLE, arg=".wb-dodger > .wb-section-body", timeout=20_000)
    assert visible(dash, ".wb-dodger > .wb-section-fold") and not visible(dash, ".wb-dodger > .wb-section-unfold")
    spill = dash.page.evaluate(_SPILL)
    assert spill["scroll"] <= PHONE[0] and spill["count"] == 0, spill
    # A control inside the opened section moves the headline to the core's exact value.
    start = shown_scenario(dash)
    dash.set_slider("wb-dodger-ph", 12)
    dash.wait_for_headline(dict(evaluate(start.set("dodger.ph", 12)).headline))
    dash.page.locator(".wb-dodger > .wb-section-fold").click()
    dash.page.wait_for_function(f"() => !({_VISIBLE})('.wb-dodger > .wb-section-body')", timeout=20_000)
    # On a laptop the sections the reader did not touch are open; the folded one stays folded.
    dash.resize(*LAPTOP)
    assert visible(dash, ".wb-attackers-0 > .wb-section-body") and visible(dash, ".wb-group-rulings > .wb-section-body")
    assert not visible(dash, ".wb-dodger > .wb-section-body")
    assert dash.python_errors() == [] and dash.console_errors() == []


#: Each dashboard, and a field of its dodger that moves B away from a pinned A.
PAGES = {"infinity-n4-dodge.ipynb": "dodger.ph", "gurps-4e.ipynb": "dodger.modifier",
         "eldfall.ipynb": "defender.ag", "d100-homebrew.ipynb": "defender.agility"}
SYSTEMS = {"infinity-n4-dodge.ipynb": "infinity-n4", "gurps-4e.ipynb": "gurps-4e", "eldfall.ipynb": "eldfall",
           "d100-homebrew.ipynb": "d100-homebrew"}


def _open_every_panel(dash, field: str = "dodger.ph") -> None:
    """Open "Compare, sweep, export", pin A, move ``field`` one step for B, sweep; roll once,
    simulate 2,000 rolls; open the rulings panel."""
    p = dash.page
    dash.click("wb-analysis-toggle")
    dash.wait_drawn(".wb-modes-chart", 30_000)
    p.click(".wb-analysis .wb-ab-pin")
    section = "wb-" + field.split(".")[0]
    if visible(dash, f".{section} > .wb-section-unfold"):
        p.locator(f".{section} > .wb-section-unfold").click()
        p.wait_for_function(_VISIBLE, arg=f".{section} > .wb-section-body", timeout=20_000)
    dash.press_slider("wb-" + field.replace(".", "-"), "ArrowRight")
    p.wait_for_function(f"() => location.search.includes('{field}=')", timeout=30_000)
    dash.wait_drawn(".wb-ab-chart", 30_000)
    p.click(".wb-analysis .wb-sweep-open")
    dash.wait_drawn(".wb-analysis .wb-sweep-chart", 30_000)
    dash.click("wb-roll-toggle")
    dash.click("wb-roll-button")
    p.wait_for_function("() => document.querySelector('.wb-roll-outcome')", timeout=60_000)
    dash.click("wb-sim-toggle")
    n = p.locator(".wb-sim-n input")
    n.fill("2000")
    n.press("Enter")
    dash.click("wb-sim-run")
    p.wait_for_function("() => (document.querySelector('.wb-sim-status') || {}).innerText?.includes('2,000 rolls')",
                        timeout=60_000)
    dash.click("wb-rulings-toggle")
    dash.wait_drawn(".wb-rulings .wb-ab-chart", 30_000)


def _shoot(dash, name: str, size: tuple[int, int], css: str) -> None:
    """The whole of ``css`` (however tall) at ``size``'s width, into docs/img/<name>-<width>.png
    (test-artifacts/ unless WORKBOOK_UPDATE_DOCS=1). Call it with a window taller than ``css``
    (:func:`_tall`): the page does not paint what is outside the window."""
    path = output_path(ROOT / "docs" / "img" / f"{name}-{size[0]}.png")
    path.parent.mkdir(parents=True, exist_ok=True)
    dash.page.mouse.move(0, 0)  # no hover label in the picture
    dash.page.locator(css).screenshot(path=str(path))
    assert path.stat().st_size > 10_000


# How much taller the window must be for nothing on the page to scroll (the page scrolls in a
# box of its own, not the window).
_HIDDEN_HEIGHT = """() => { let extra = document.scrollingElement.scrollHeight - window.innerHeight;
    for (let p = document.querySelector('.wb-dashboard').parentElement; p; p = p.parentElement) {
        if (/(auto|scroll)/.test(getComputedStyle(p).overflowY)) extra += p.scrollHeight - p.clientHeight; }
    return Math.max(0, extra); }"""


def _tall(dash, width: int) -> None:
    """The window ``width`` wide and as tall as the whole page, so that every part is painted
    and measured where it is."""
    for _ in range(3):  # a taller window may lay the page out again
        extra = dash.page.evaluate(_HIDDEN_HEIGHT)
        if extra <= 1:
            return
        height = dash.page.evaluate("window.innerHeight") + extra
        dash.resize(width, min(int(height) + 1, 16_000))


def test_the_panels_opened_on_a_phone_a_laptop_and_a_projector(open_dashboard):
    dash = open_dashboard("infinity-n4-dodge.ipynb", width=PHONE[0], height=PHONE[1])
    _open_every_panel(dash)
    for size, present in ((PHONE, False), (LAPTOP, False), (PROJECTOR, True)):
        if present:
            dash.click("wb-present-toggle")
            dash.page.wait_for_function("() => document.querySelector('.wb-dashboard.wb-present')", timeout=20_000)
        dash.resize(*size)
        spill = dash.page.evaluate(_SPILL)
        assert spill["scroll"] <= size[0] and spill["count"] == 0, (size, spill)
        _tall(dash, size[0])
        for root in (".wb-results", ".wb-analysis", ".wb-classroom", ".wb-rulings"):
            drawn = dash.page.evaluate(_CHART_TEXT, root)
            assert drawn["count"] > 0 and drawn["smallest"] >= (18 if present else 14), (size, root, drawn)
            assert dash.page.evaluate(_CUT_LABELS, root) == [], (size, root)
            for plot in dash.page.locator(f"{root} .js-plotly-plot").all():
                plot.hover()  # the toolbar shows while the pointer is over the chart
                assert dash.page.evaluate(_TOOLBAR_OVER_TITLE, root) == 0, (size, root)
        _every_reading_in_full(dash, INFINITY, size)
        _shoot(dash, "panels", size, ".wb-analysis")
        _shoot(dash, "classroom", size, ".wb-classroom")
    assert dash.python_errors() == [] and dash.console_errors() == []


@pytest.mark.parametrize("notebook", [n for n in PAGES if n != "infinity-n4-dodge.ipynb"])
def test_every_dashboard_with_its_panels_open_fits_a_phone(open_dashboard, notebook):
    dash = open_dashboard(notebook, width=PHONE[0], height=PHONE[1])
    _open_every_panel(dash, PAGES[notebook])
    dash.resize(*PHONE)
    spill = dash.page.evaluate(_SPILL)
    assert spill["scroll"] <= PHONE[0] and spill["count"] == 0, spill
    _tall(dash, PHONE[0])
    for root in (".wb-results", ".wb-analysis", ".wb-classroom", ".wb-rulings"):
        drawn = dash.page.evaluate(_CHART_TEXT, root)
        assert drawn["count"] > 0 and drawn["smallest"] >= 14, (root, drawn)
        assert dash.page.evaluate(_CUT_LABELS, root) == [], root
    _every_reading_in_full(dash, get_system(SYSTEMS[notebook]), PHONE)
    assert dash.python_errors() == [] and dash.console_errors() == []
