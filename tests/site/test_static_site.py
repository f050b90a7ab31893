"""The static site in Chromium with no network but 127.0.0.1 (issue 27, item 5): each dashboard
of the index runs in the page, shows the core's exact numbers and follows a control; every
panel opens there with the core's numbers; a shared link opens the same scenario; a link in
Russian opens the page in Russian, its panels too; the page of games and a lesson run there.

What each page should show is what its notebook builds when run here: the notebook's code is
run in this process (:func:`built`) and the page's numbers are checked against ``evaluate``."""

from __future__ import annotations

import json
import re
import time
import urllib.request
import zipfile
from fractions import Fraction

import pytest

from browser.conftest import _DASHBOARD_READY, _DRAWN_PLOT, _TRACE_TYPES, ROOT, DashboardPage
from rules_core import evaluate, play_once
from rules_core.compare import without_reaction
from rules_core.simulate import simulate
from rules_core.systems.d100_homebrew.text import translate
from site_build import build, patches as site_patches
from workbook.page.share import encode_query
from workbook.pages.four_games import FourGames

# Run after the headless widget tests (tests/conftest.py). These tests may land on both
# pytest-xdist workers (its xdist_group does not group under pytest 9, which no longer lets it
# rename a test): each worker serves the site, and the build's lock has the second wait for the
# first and then find the site up to date.
pytestmark = pytest.mark.browser

#: notebook: (a slider, the field it sets, the value it is set to); Infinity and the d100
#: homebrew have their own tests below (a shared link, the page in Russian)
GAMES = {
    "gurps-4e.ipynb": ("wb-dodger-basic_speed", "dodger.basic_speed", 8),
    "eldfall.ipynb": ("wb-defender-ag", "defender.ag", 8),
}
#: Every page's code, each lesson's too, has run in the site's own Pyodide before this (the
#: build stops on a page whose code raises there: tools/site/build.py, start_code); a lesson is
#: opened here to see one drawn in the browser.
LESSON = "lesson-bell-and-flat.ipynb"


def built(notebook: str):
    """The dashboard the notebook's code cells build, run here (its last expression's value, or
    the dashboard inside it: a page with explanations holds one)."""
    cells = [c for c in json.loads((ROOT / "notebooks" / notebook).read_text())["cells"]
             if c["cell_type"] == "code"]
    *body, last = "\n".join("".join(c["source"]) for c in cells).strip().rsplit("\n", 1)
    space: dict = {}
    exec("\n".join(body), space)  # the project's own notebooks
    value = eval(last, space)
    return getattr(value, "dashboard", value)


def offline(dash) -> None:
    """Nothing was asked of another host, and no Python error reached the page."""
    assert dash.hosts == {"127.0.0.1"}, dash.hosts
    assert dash.python_errors() == []


@pytest.mark.parametrize("notebook", GAMES)
def test_each_game_shows_and_follows_the_cores_numbers(open_static, notebook):
    dash = open_static(notebook)
    assert not fetched(dash)  # what a page runs as it opens came in the first download
    assert own_packages(dash) == [f"dodge_workbook_{notebook.removesuffix('.ipynb').replace('-', '_')}"]
    shows_and_follows_the_cores_numbers(dash, notebook)
    offline(dash)
    icons_drawn(dash)
    print(f"static site: {notebook} drawn in {dash.load_seconds:.1f} s")


def shows_and_follows_the_cores_numbers(dash, notebook: str) -> None:
    """The game's page shows its notebook's numbers, and the new ones when its slider (``GAMES``)
    is moved."""
    slider, field, value = GAMES[notebook]
    page = built(notebook)
    assert dash.headline() == dict(evaluate(page.scenario).headline)
    assert dash.table() == dict(evaluate(page.scenario).outcome_rows())
    dash.set_slider(slider, value)
    moved = evaluate(page.scenario.set(field, value))
    dash.wait_for_headline(dict(moved.headline))
    dash.wait_for_table(dict(moved.outcome_rows()))


def icons_drawn(dash) -> None:
    """The page's icons (the Present button's) drawn with the Font Awesome the site itself
    serves, now that the CDN's style sheets are gone."""
    glyph = dash.page.evaluate("() => getComputedStyle(document.querySelector('.wb-present-toggle i.fa'), "
                               "'::before').content")
    assert glyph not in ("", "none", "normal"), glyph
    assert dash.page.evaluate("() => Array.from(document.fonts).some(f => f.family.includes('Font Awesome') "
                              "&& f.status === 'loaded')")


def own_packages(dash) -> list[str]:
    """The pages' own packages of the workbook's modules that the page asked for (the build's
    split by page: ``build.page_packages``)."""
    return sorted({url.rsplit("/", 1)[-1].split("-")[0] for url in dash.requested
                   if "/pyodide/dodge_workbook_" in url and url.endswith(".tar")})


def fetched(dash) -> list[str]:
    """The deferred modules' archives the page fetched (tools/site/deferred_imports.py)."""
    return [text for kind, text in dash.console if "[site] fetched deferred/" in text]


def test_the_seeds_number_and_a_shared_link(open_static):
    dash = open_static("infinity-n4-dodge.ipynb")
    page = built("infinity-n4-dodge.ipynb")
    assert dash.headline()["p_dodge_succeeds"] == Fraction(47, 500)  # the seed's Zhanshi
    assert dash.table() == dict(evaluate(page.scenario).outcome_rows())
    dash.set_slider("wb-attackers-0-burst", 2)
    changed = page.scenario.set("attackers.0.burst", 2)
    dash.wait_for_headline(dict(evaluate(changed).headline))
    dash.wait_for_table(dict(evaluate(changed).outcome_rows()))
    # the address bar follows the page, and the page's link is that address
    query = encode_query(page.system, changed)
    dash.page.wait_for_function("(q) => location.search === '?' + q", arg=query, timeout=20_000)
    link = dash.page.locator(".wb-share-link a").evaluate("a => a.href")
    assert link == dash.page.evaluate("location.href")
    again = open_static(link)
    again.wait_for_headline(dict(evaluate(changed).headline))  # once the browser reports its link
    assert again.page.evaluate("location.search") == "?" + query  # kept as the link gave it
    offline(dash), offline(again)


_CARD = """([panel, key]) => Object.fromEntries(Array.from(document.querySelectorAll(
    `.${panel} .wb-ab-card[data-key="${key}"] [data-side]`)).map(e => [e.dataset.side, e.dataset.exact]))"""


def _cards(dash, panel: str, key: str) -> dict[str, Fraction]:
    return {side: Fraction(v) for side, v in dash.page.evaluate(_CARD, [panel, key]).items()}


def _wait_text(dash, css: str, text: str) -> None:
    dash.page.wait_for_function("([css, text]) => (document.querySelector('.' + css) || {}).innerText?.includes(text)",
                                arg=[css, text], timeout=60_000, polling=200)


def test_every_panel_opens_with_the_cores_numbers(open_static):
    """A preset with its trace's citation, then each panel a toggle opens, in the reader's
    browser: Design (a house rule against the official one), "Compare, sweep, export" (A
    pinned, B moved, a sweep drawn), Roll and Simulate (the core's play and simulation of the
    same seed) and the rulings."""
    dash = open_static("infinity-n4-dodge.ipynb")
    page = built("infinity-n4-dodge.ipynb")
    system, scenario = page.system, page.scenario
    p = dash.page
    # a preset, and its trace's citation
    mine = system.presets[1]
    dash.select("wb-preset", mine.title.replace(" ", "\xa0"))
    dash.wait_for_headline(dict(evaluate(mine.scenario).headline))
    assert evaluate(mine.scenario).trace[0].citation in p.locator(".wb-trace").inner_text()
    dash.select("wb-preset", system.presets[0].title.replace(" ", "\xa0"))
    dash.wait_for_headline(dict(evaluate(scenario).headline))
    dash.click("wb-design-toggle")
    _wait_text(dash, "wb-design-status", "official")
    dash.set_slider("wb-variant-mod_cap", 2)
    official, house = (evaluate(s).headline["p_dodge_succeeds"] for s in (scenario, scenario.set("variant.mod_cap", 2)))
    assert (official, house) == (Fraction(47, 500), Fraction(17659, 160000))  # the seed's, and by hand
    p.wait_for_function(f"() => ({_CARD})(['wb-design', 'p_dodge_succeeds']).b === '17659/160000'", timeout=60_000)
    assert _cards(dash, "wb-design", "p_dodge_succeeds") == {"a": official, "b": house, "difference": house - official}
    dash.set_slider("wb-variant-mod_cap", 12)  # the official rule again
    dash.wait_for_headline(dict(evaluate(scenario).headline))

    dash.click("wb-analysis-toggle")
    dash.wait_drawn(".wb-modes-chart", 60_000)
    p.click(".wb-analysis .wb-ab-pin")
    dash.set_slider("wb-dodger-ph", 12)
    moved = scenario.set("dodger.ph", 12)
    want = {"a": evaluate(scenario).headline["p_dodge_succeeds"], "b": evaluate(moved).headline["p_dodge_succeeds"]}
    p.wait_for_function(f"(b) => ({_CARD})(['wb-analysis', 'p_dodge_succeeds']).b === b",
                        arg=f"{want['b'].numerator}/{want['b'].denominator}", timeout=60_000)
    assert _cards(dash, "wb-analysis", "p_dodge_succeeds") == {**want, "difference": want["b"] - want["a"]}
    p.click(".wb-analysis .wb-sweep-open")
    dash.wait_drawn(".wb-analysis .wb-sweep-chart", 60_000)

    dash.click("wb-roll-toggle")
    dash.click("wb-roll-button")
    _wait_text(dash, "wb-roll-steps", "seed 1")
    assert p.locator(".wb-roll-outcome").inner_text().strip() == play_once(system, moved, seed=1).outcome
    dash.click("wb-sim-toggle")
    n = p.locator(".wb-sim-n input")
    n.fill("2000")
    n.press("Enter")
    dash.click("wb-sim-run")
    _wait_text(dash, "wb-sim-status", "2,000 rolls")
    counts = simulate(system, moved, 2000, seed=1).outcomes()
    shown = p.evaluate("""() => Object.fromEntries(Array.from(document.querySelectorAll('.wb-sim-table tr[data-key]'))
        .map(r => [r.dataset.key, r.querySelector('td[data-col=count]').innerText.trim()]))""")
    assert shown == {label: f"{counts[label]:,}" for label, _ in evaluate(moved).outcome_rows()}

    dash.click("wb-rulings-toggle")
    dash.wait_drawn(".wb-rulings .wb-ab-chart", 60_000)
    offline(dash)


_PLOTLY_ASKED = ("() => performance.getEntriesByType('resource').map(e => new URL(e.name).pathname)"
                 ".filter(p => p.includes('/voici/render/workbook/static/plotly')).map(p => p.split('/').pop())")


def test_a_page_starts_plotlys_basic_bundle_and_its_heatmap_loads_the_cartesian_one(open_static):
    """A page opens with plotly's basic bundle (bar, pie, scatter: what it shows then) and asks for
    the cartesian one only when a chart has another trace type: the Infinity heatmap is drawn as
    a heatmap (its image in plotly's heatmap layer) and every trace keeps its type."""
    dash = open_static("infinity-n4-dodge.ipynb")
    p = dash.page
    assert p.evaluate("self.__workbookPlotlyEarlyTraces") == ["bar", "pie", "scatter"]
    p.wait_for_timeout(500)
    assert p.evaluate(_PLOTLY_ASKED) == ["plotly-basic.min.js"]
    dash.click("wb-view-heatmap-toggle")
    p.wait_for_function("() => document.querySelector('.wb-view-heatmap .heatmaplayer image')",
                        timeout=120_000, polling=200)
    assert p.evaluate(_PLOTLY_ASKED) == ["plotly-basic.min.js", "plotly.min.js"]
    drawn = p.evaluate(_TRACE_TYPES)
    assert {want for want, _ in drawn} >= {"bar", "heatmap"} and all(want == got for want, got in drawn), drawn
    offline(dash)


def test_a_link_in_russian_opens_the_page_in_russian(open_static):
    page = built("d100-homebrew.ipynb")
    scenario = page.scenario.set("defender.agility", 65)
    dash = open_static("d100-homebrew.ipynb", encode_query(page.system, scenario, "ru"))
    dash.wait_for_headline(dict(evaluate(scenario).headline))
    assert dash.page.locator(".wb-lang select").input_value() == "Русский"
    assert "Язык" in dash.page.locator(".wb-lang").inner_text()
    dash.set_slider("wb-defender-agility", 50)  # a control moved on the Russian page
    moved = scenario.set("defender.agility", 50)
    dash.wait_for_headline(dict(evaluate(moved).headline))
    dash.wait_for_table(dict(evaluate(moved).outcome_rows()))
    dash.page.wait_for_function("(q) => location.search === '?' + q", arg=encode_query(page.system, moved, "ru"),
                                timeout=20_000)
    dash.click("wb-roll-toggle")  # a panel in Russian: one roll, step by step
    dash.click("wb-roll-button")
    _wait_text(dash, "wb-roll-steps", "Исход: ")
    assert dash.page.locator(".wb-roll-outcome").inner_text().strip() == translate(
        play_once(page.system, moved, seed=1).outcome, "ru")
    dash.select("wb-lang", "English")  # and back, keeping the scenario
    dash.page.wait_for_function("() => !location.search.includes('lang=ru')", timeout=20_000)
    assert "Language" in dash.page.locator(".wb-lang").inner_text()
    assert dash.headline() == dict(evaluate(moved).headline)
    offline(dash)


def test_the_page_of_games_shows_the_cores_worth(open_static):
    ready = ("() => Boolean((" + _DRAWN_PLOT + ")('.wb-four-chart') && "
             "document.querySelector('.wb-four-table td[data-system]'))")
    dash = open_static("compare-systems.ipynb", ready=ready)
    page = FourGames(query="")  # what its notebook builds, with no link
    cells = dash.page.evaluate("""() => Object.fromEntries(Array.from(document.querySelectorAll(
        '.wb-four-table tr[data-key="p_no_hit_gained"] td[data-system]')).map(td => [td.dataset.system, td.dataset.exact]))""")
    assert set(cells) == {s.id for s in page.systems}
    for system in page.systems:
        scenario = page.scenarios[system.id]
        gained = evaluate(scenario).headline["p_no_hit"] - evaluate(without_reaction(scenario)).headline["p_no_hit"]
        assert Fraction(cells[system.id]) == gained
    offline(dash)


def test_no_page_of_the_site_asks_another_host(returning_browser, static_site, site_folder):
    """Every HTML page of the site, found in the folder served (the lab's too, when the site has
    one), opened in a reader's browser where no host but 127.0.0.1 resolves (``OWN_HOST_ONLY``):
    none asks another host. Every request is recorded as it is made (the pages', their workers'
    and the service worker's, ``DashboardPage.watch`` on the browser), none routed: a routed request skips the browser's cache, and the
    pages here are opened one after another in one profile kept on disk, as a reader goes from
    page to page, its cache sparing each page compiling the runtime again. A request to another
    host is recorded before it fails, so the cache hides none. A rendered notebook is watched
    until its first output is drawn (its kernel started and ran), any other page until its
    network is idle (a page that only redirects may never be)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    pages = sorted(p.relative_to(site_folder).as_posix() for p in site_folder.rglob("*.html"))
    assert "index.html" in pages and "voici/render/eldfall.html" in pages, pages
    for opened in pages:
        page = returning_browser.new_page()
        seen = DashboardPage(page, static_site + opened)
        listener = seen.watch(returning_browser)  # the context: the service worker's requests too
        try:
            page.goto(seen.url, wait_until="commit", timeout=60_000)
            if opened.startswith(build.PAGES):
                page.wait_for_function("() => Boolean(document.querySelector('.jp-OutputArea-output'))",
                                       timeout=240_000, polling=200)
            try:
                page.wait_for_load_state("networkidle", timeout=20_000)
            except PlaywrightTimeout:
                pass  # still busy (a redirect, a kernel): what it asked so far is what is checked
        finally:
            page.close()
            returning_browser.remove_listener("request", listener)
        assert seen.hosts == {"127.0.0.1"}, (opened, seen.hosts)


@pytest.mark.parametrize("address, lab", [("doc/tree/index.html", "lab/lab/index.html"),
                                          ("lab/doc/tree/", "lab/lab/index.html"),
                                          ("lab/doc/tree/?path=design-a-rule.ipynb",
                                           "lab/lab/index.html?path=design-a-rule.ipynb")])
def test_the_doc_tree_address_opens_the_lab_instead_of_reloading_itself(browser, static_site, address, lab):
    """JupyterLite's ``doc/tree`` page with no query set its own address again, for ever
    (``patches.patch_doc_tree_redirect``); now it opens the lab, keeping a query it was given."""
    context = browser.new_context()
    try:
        page = context.new_page()
        opened = DashboardPage(page, static_site + address)
        opened.keep_to(context, static_site)
        page.goto(opened.url, wait_until="commit")
        page.wait_for_url(static_site + lab, timeout=60_000)
        assert opened.aborted == []
    finally:
        context.close()


def test_no_file_of_the_built_site_names_another_host_to_load(site_folder):
    """The static scan: no page, script or style sheet of the site as served names an address
    of another host that it would load (``patches.other_host_urls``)."""
    assert build.other_hosts(site_folder) == {}


def test_a_lesson_is_drawn(open_static):
    dash = open_static(LESSON, ready="() => Boolean(document.querySelector('.js-plotly-plot'))")
    offline(dash)


def _in_a_worker(returning_browser, static_site: str, python: str, packages: bool = False) -> tuple[str, list[str]]:
    """What ``python`` evaluates to in the site's Pyodide, started in a web worker from the
    site as the kernel starts it (with every package of the site's lock if ``packages``), and
    every address the worker asked for (those its browser's cache answered too). It runs in a
    page of the reader's browser, where no host but 127.0.0.1 resolves."""
    page = returning_browser.new_page()
    try:
        asked: list[str] = []
        page.on("request", lambda r: asked.append(r.url))
        page.goto(static_site)
        options = {"indexURL": static_site + "pyodide/"}
        start = (f"fetch({json.dumps(static_site + 'pyodide/pyodide-lock.json')}).then((r) => r.json()).then((lock) => "
                 f"loadPyodide({{ ...{json.dumps(options)}, packages: Object.keys(lock.packages) }}))"
                 if packages else f"loadPyodide({json.dumps(options)})")
        worker = f"""
importScripts({json.dumps(static_site + "pyodide/pyodide.js")});
{start}.then((py) => {{
  try {{ postMessage(py.runPython({json.dumps(python)})); }} catch (err) {{ postMessage("error: " + err.message); }}
}}, (err) => postMessage("error: " + err.message));"""
        said = page.evaluate("""(code) => new Promise((resolve) => {
            const worker = new Worker(URL.createObjectURL(new Blob([code], {type: 'text/javascript'})));
            worker.onmessage = (event) => resolve(event.data);
            worker.onerror = (event) => resolve('error: ' + event.message);
        })""", worker)
    finally:
        page.close()
    return said, asked


def test_ipython_starts_without_its_terminal_and_embed_is_still_there(returning_browser, static_site):
    """IPython's start without its terminal shell (tools/site/build.py, ``patch_ipython_init``):
    importing IPython, as the kernel does, leaves prompt_toolkit out; ``IPython.embed`` is still
    there, its modules fetched from the site when first asked for."""
    said, asked = _in_a_worker(returning_browser, static_site, """import sys, json, IPython
started = "prompt_toolkit" in sys.modules
embed = IPython.embed
json.dumps([started, embed.__module__, "prompt_toolkit" in sys.modules])""", packages=True)
    assert json.loads(said) == [False, "IPython.terminal.embed", True], said
    assert asked.count(static_site + "pyodide/deferred/prompt_toolkit.zip") == 1


def test_widget_classes_are_set_up_without_deprecation_warnings_and_a_reader_still_gets_one(returning_browser,
                                                                                           static_site):
    """traitlets ships as bytecode (its module's file ends in ``.pyc``, its code's in ``.py``), and
    ipywidgets tells traitlets setting up a widget class from a reader by that file
    (``patches.patch_ipywidgets_traitlets_file``): defining and making widgets warns of nothing,
    while a reader's own ``Widget.widgets`` is still warned of."""
    said, _ = _in_a_worker(returning_browser, static_site, """import json, warnings
with warnings.catch_warnings(record=True) as setting_up:
    warnings.simplefilter("always")
    import ipywidgets
    class Mine(ipywidgets.VBox):
        pass
    Mine(children=[ipywidgets.IntSlider(), ipywidgets.HTML("a")])
with warnings.catch_warnings(record=True) as reading:
    warnings.simplefilter("always")
    ipywidgets.Widget.widgets
json.dumps([[str(w.message) for w in setting_up], [str(w.message) for w in reading]])""", packages=True)
    assert json.loads(said) == [[], ["Widget.widgets is deprecated."]], said


def test_the_shipped_bytecode_keeps_its_lines_and_not_its_columns(returning_browser, static_site):
    """A module a page imports is shipped as bytecode without its column ranges
    (tools/site/bytecode.py): its code keeps every line and has no column; a traceback through it
    names its file and line. Code compiled in the reader's browser keeps its columns."""
    said, _ = _in_a_worker(returning_browser, static_site, """import json, json.decoder, traceback
shipped = list(json.decoder.JSONDecoder.raw_decode.__code__.co_positions())
here = list(compile("x = 1 + len([])", "<cell>", "exec").co_positions())
try:
    json.loads("{")
except ValueError as err:
    where = traceback.extract_tb(err.__traceback__)[-1]
json.dumps([json.decoder.__file__.endswith(".pyc"), any(line for line, *_ in shipped),
            [c for _, _, c, e in shipped if c is not None or e is not None], any(c is not None for _, _, c, _ in here),
            where.filename.endswith("json/decoder.py"), where.lineno])""")
    pyc, lines, columns, columns_here, named, line = json.loads(said)
    assert (pyc, lines, columns, columns_here, named) == (True, True, [], True, True), said
    assert line > 300, said  # raw_decode's raise, in the standard library's json/decoder.py


def test_the_kernel_starts_without_its_debugger_profiler_and_help_and_each_still_works(returning_browser, static_site):
    """The imports moved to where they are used (``patches.IMPORTS_MOVED``, ``READ_WHEN_USED``):
    the kernel's shell, started as a page starts it, has not imported IPython's debugger, pdb,
    pydoc, the profiler, urllib.request, stack_data or pygments' lexers and HTML formatter, and
    anywidget has not imported psygnal; then a debugger made as ``%debug`` makes it, and a
    traceback's value shown with pydoc, ``%prun``, a traceback formatted with its source lines,
    code highlighted as HTML and a file's ``changed`` signal all work, their modules fetched
    from the site once."""
    said, asked = _in_a_worker(returning_browser, static_site, site_patches.piplite_settings("True", "[]") + """
import json, sys
import pyodide_kernel  # the kernel's shell, as a page's kernel starts
from IPython import get_ipython
from IPython.core.tbtools import text_repr
from IPython.core.ultratb import FormattedTB
from IPython.core.oinspect import pylight
import anywidget
from anywidget._file_contents import VirtualFileContents
LATER = ("IPython.core.debugger", "pdb", "pydoc", "cProfile", "pstats", "urllib.request", "stack_data",
         "pygments.lexers", "pygments.formatters.html", "psygnal")
shell = get_ipython()
started = [name for name in LATER if name in sys.modules]
made = [type(shell.debugger_cls()).__name__, type(FormattedTB().debugger_cls()).__name__]
stats = shell.run_line_magic("prun", "-q -r sum(range(10))")
source = "def broken():\\n    return 1 / 0\\n\\nbroken()\\n"
with open("/tmp/broken.py", "w") as file:
    file.write(source)
try:
    exec(compile(source, "/tmp/broken.py", "exec"), {})
except ZeroDivisionError:
    formatted = FormattedTB(mode="Context", theme_name="nocolor").text(*sys.exc_info())
json.dumps([started, made, text_repr([1, 2]), type(stats).__name__, "broken()" in formatted and "1 / 0" in formatted,
            "<span" in pylight("x = 1"), type(VirtualFileContents("a").changed).__name__,
            [name for name in LATER if name in sys.modules]])""",
                              packages=True)
    assert json.loads(said) == [[], ["InterruptiblePdb", "Pdb"], "[1, 2]", "Stats", True, True, "SignalInstance",
                                ["IPython.core.debugger", "pdb", "pydoc", "cProfile", "pstats", "stack_data",
                                 "pygments.lexers", "pygments.formatters.html", "psygnal"]], said
    assert asked.count(static_site + "pyodide/deferred/python_stdlib.zip") == 1
    assert asked.count(static_site + "pyodide/deferred/ipython.zip") == 1
    assert asked.count(static_site + "pyodide/deferred/stack_data.zip") == 1
    assert asked.count(static_site + "pyodide/deferred/pygments.zip") == 1
    assert asked.count(static_site + "pyodide/deferred/psygnal.zip") == 1


def test_a_deferred_module_is_fetched_in_the_readers_browser(returning_browser, static_site):
    """The finder's own request, in Chromium: the site's Pyodide, started in a web worker as the
    kernel starts it, imports a module of the standard library that the first download left
    out; the finder fetches its archive from the site once and the module comes from there.
    The standard library it started with came as one zstd stream, decoded in the worker
    (``patches.patch_pyodide_stdlib``): a zip of stored members, holding the finder's index."""
    said, asked = _in_a_worker(returning_browser, static_site, """import importlib, json, sys, zipfile
with zipfile.ZipFile("/lib/python314.zip") as stdlib:
    index = json.loads(stdlib.read("_dodge_deferred/index.json"))
    kinds = sorted({info.compress_type for info in stdlib.infolist()})
module = "calendar" if index.get("calendar", [""])[0] == "python_stdlib.zip" else next(
    name for name, (archive, _, package) in sorted(index.items()) if archive == "python_stdlib.zip" and not package)
json.dumps([kinds, type(sys.meta_path[0]).__name__, importlib.import_module(module).__file__, index[module][1]])""")
    kinds, finder, file, member = json.loads(said)
    assert (kinds, finder, file) == ([zipfile.ZIP_STORED], "DeferredFinder", f"/lib/python3.14/site-packages/{member}"), said
    assert asked.count(static_site + "pyodide/deferred/python_stdlib.zip") == 1
    assert [a for a in asked if "python_stdlib" in a and "/deferred/" not in a] == [static_site + "pyodide/python_stdlib.zip.zst"]
    assert asked.count(static_site + "pyodide/fzstd.mjs") == 1


def test_the_packages_are_unpacked_by_the_sites_unpacker_file_for_file(returning_browser, static_site):
    """The site's unpacker (tools/site/fast_unpack.py), put in place by ``sitecustomize``,
    unpacked the packages a page loads: every file each package's RECORD lists is there, with
    its size, and nothing was left to ``tarfile``. Pyodide's loader listed each archive's
    compiled libraries from the names the unpacker read, never with ``tarfile`` (not even
    imported), and found pydantic's core."""
    said, _ = _in_a_worker(returning_browser, static_site, """import json, shutil, sys
from pathlib import Path
import _dodge_unpack
listing = sys.modules["pyodide._package_loader"].get_dynlibs
ours = [getattr(listing, "func", None) is _dodge_unpack.dynlibs, _dodge_unpack.UNPACKED, "tarfile" in sys.modules]
import pydantic_core
site = Path("/lib/python3.14/site-packages")
records, wrong = 0, []
for record in site.glob("*.dist-info/RECORD"):
    records += 1
    for line in record.read_text().splitlines():
        path, _, size = line.rsplit(",", 2)
        if size and (not (site / path).is_file() or (site / path).stat().st_size != int(size)):
            wrong.append(path)
json.dumps([shutil._UNPACK_FORMATS["tar"][1] is _dodge_unpack.unpack, _dodge_unpack.LEFT_TO_TARFILE, records, wrong[:5], ours])""",
                           packages=True)
    ours, left, records, wrong, listing = json.loads(said)
    assert (ours, left) == (True, []), said
    assert listing == [True, {}, False], said
    assert records >= 25 and wrong == [], said


def test_a_dashboard_there_imports_its_own_game_only(returning_browser, static_site):
    """The workbook ships there as bytecode, without its sources: a dashboard still finds its
    own game and that game's panels without importing the other games (``find_system``, and
    ``workbook.page.views`` reading each panel module's ``SYSTEM_ID`` from its code)."""
    said, _ = _in_a_worker(returning_browser, static_site, """import sys, json
from workbook import dashboard
dashboard("eldfall")
json.dumps(sorted(m for m in sys.modules if m.count(".") == 2 and m.startswith(("rules_core.systems.", "workbook.systems."))))""",
                           packages=True)
    assert json.loads(said) == ["rules_core.systems.eldfall", "workbook.systems.eldfall"], said


def test_python_starts_with_the_page_and_once(open_static, static_site):
    """The early start (tools/site/build.py): the page starts the kernel's worker, and Python in
    it, before the kernel's own code has even loaded, and the kernel takes that worker with the
    runtime it started: the interpreter is asked for once."""
    dash = open_static("eldfall.ipynb")
    runtime = [i for i, url in enumerate(dash.requested) if url.endswith("pyodide/pyodide.asm.wasm")]

    def takes_the_worker(url: str) -> bool:  # the kernel's page code, patched to take the page's worker
        with urllib.request.urlopen(url) as served:
            return b"self.dodgeKernelWorker=null" in served.read()

    kernel_code = next(i for i, url in enumerate(dash.requested)
                       if site_patches.KERNEL_STATIC in url and url.split("?")[0].endswith(".js") and takes_the_worker(url))
    assert len(runtime) == 1 and runtime[0] < kernel_code, dash.requested
    assert not [text for kind, text in dash.console if "[site]" in text], dash.console  # no fallback
    offline(dash)


_SNAPSHOTS_KEPT = "(store) => caches.open(store).then((c) => c.keys()).then((keys) => keys.length)"
_FROM_SNAPSHOT = "[site] Python started from its snapshot"


def _snapshots_kept(page, wait: float = 0.0) -> int:
    """How many snapshots of Python the page's browser keeps, once it keeps one or ``wait``
    seconds have passed (a snapshot is stored after the visit that made it has gone on)."""
    end = time.monotonic() + wait
    while (kept := page.evaluate(_SNAPSHOTS_KEPT, site_patches.SNAPSHOT_STORE)) == 0 and time.monotonic() < end:
        time.sleep(0.2)
    return kept


def test_a_second_visit_starts_python_from_the_snapshot_the_first_kept(open_static):
    """Python from a snapshot (``patches.WORKER_SNAPSHOT``): a reader's first visit keeps, in the
    browser's Cache Storage, a snapshot of Python with the kernel and the page's libraries
    imported; the next visit, to another game, starts from it, loads what a snapshot cannot hold
    (pydantic's compiled core, the page's own package) and shows and follows the core's numbers.
    It also keeps the service worker the first visit registered (JupyterLite's manager
    unregistered it and registered it again: ``patches.patch_service_worker_version``)."""
    first = open_static("eldfall.ipynb")
    assert _snapshots_kept(first.page, wait=60) == 1
    assert not [text for _, text in first.console if _FROM_SNAPSHOT in text]
    again = open_static("gurps-4e.ipynb", again=first)
    assert [text for _, text in again.console if text.startswith("[site]")] == [_FROM_SNAPSHOT], again.console
    workers = [text for _, text in again.console if "ServiceWorker" in text or "service workers" in text]
    assert workers == ["JupyterLite ServiceWorker was already registered"], workers
    shows_and_follows_the_cores_numbers(again, "gurps-4e.ipynb")
    assert _snapshots_kept(again.page) == 1  # the same one, shared
    offline(again)


def test_python_from_one_snapshot_draws_new_random_numbers_each_time(returning_browser, static_site, site_folder):
    """Two starts from the same snapshot (``patches.snapshot_script`` with the site's packages, in
    a worker, as the kernel's worker starts Python for a page) each seed ``random`` afresh:
    without it, both would draw the numbers the snapshot's Python would have drawn next. Each
    start from it says so; the first, which kept it, does not."""
    in_snapshot = json.loads(re.search(r"IN_SNAPSHOT = (\[.*?\]);", site_patches.kernel_worker(site_folder).read_text()).group(1))
    settings = json.loads(site_patches.PAGE_SETTINGS.search((site_folder / "voici/render/eldfall.html").read_text()).group(1))
    packages = settings["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]["loadPyodideOptions"]["packages"]
    page = returning_browser.new_page()
    said: list[str] = []
    page.on("console", lambda m: said.append(m.text) if m.text.startswith("[site]") else None)
    try:
        page.goto(static_site)
        page.evaluate("(store) => caches.delete(store)", site_patches.SNAPSHOT_STORE)
        options = {"indexURL": static_site + "pyodide/", "lockFileURL": static_site + "pyodide/pyodide-lock.json",
                   "packages": packages}
        worker = f"""
importScripts({json.dumps(static_site + "pyodide/pyodide.js")});
{site_patches.snapshot_script(in_snapshot).lstrip(";")};
self.dodgeStartPython(loadPyodide, {json.dumps(options)}).then((py) => {{
  try {{ postMessage(py.runPython("import random, pydantic_core; str(random.random())")); }}
  catch (err) {{ postMessage("error: " + err.message); }}
}}, (err) => postMessage("error: " + err.message));"""
        drawn = []
        for _ in range(3):
            # the worker before is ended only now: a snapshot is stored as its visit goes on
            drawn.append(page.evaluate("""(code) => new Promise((resolve) => {
                if (self.lastWorker) self.lastWorker.terminate();
                const worker = self.lastWorker = new Worker(URL.createObjectURL(new Blob([code], {type: 'text/javascript'})));
                worker.onmessage = (event) => resolve(event.data);
                worker.onerror = (event) => resolve('error: ' + event.message);
            })""", worker))
            assert _snapshots_kept(page, wait=60) == 1
    finally:
        page.close()
    assert not [d for d in drawn if d.startswith("error")], drawn
    assert drawn[1] != drawn[2], drawn
    assert said == [_FROM_SNAPSHOT] * 2, said


def test_piplite_has_its_settings_without_being_imported(returning_browser, static_site):
    """piplite, set up lazily as the kernel's worker now does (``piplite_settings``): nothing of
    it or of micropip is imported until a notebook uses it; then it has the kernel's settings."""
    said, asked = _in_a_worker(returning_browser, static_site, site_patches.piplite_settings("True", '["here/all.json"]') + """
import json
started = sorted(m for m in sys.modules if m.split(".")[0] in ("micropip", "unittest"))
import piplite.cli  # as %pip does
from piplite import install
json.dumps([started, piplite.piplite._PIPLITE_URLS, piplite.piplite._PIPLITE_DISABLE_PYPI,
            "micropip" in sys.modules, install.__module__])""", packages=True)
    assert json.loads(said) == [[], ["here/all.json"], True, True, "piplite.piplite"], said
    assert asked.count(static_site + "pyodide/deferred/micropip.zip") == 1  # fetched when used


def test_a_second_visit_gets_the_runtime_from_the_browser_not_through_the_service_worker(browser, static_site):
    """JupyterLite's service worker, which controls a page from its second visit, answers only
    the drive's and stdin's requests (tools/site/build.py, ``patch_service_worker``): the
    runtime's files and the packages come as they would with no service worker. The dashboard
    still opens: the kernel reaches its files through the drive, which the worker answers."""
    context = browser.new_context()
    try:
        context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(static_site) else r.abort())
        url = f"{static_site}voici/render/eldfall.html"
        for _ in range(2):  # the service worker controls the page from its second visit
            page = context.new_page()
            through_worker: dict[str, bool] = {}
            page.on("response", lambda r: through_worker.__setitem__(r.url, r.from_service_worker))
            page.goto(url, timeout=240_000)
            page.wait_for_function(f"() => ({_DASHBOARD_READY})()", timeout=240_000, polling=200)
            controlled = page.evaluate("Boolean(navigator.serviceWorker.controller)")
            page.close()
        assert controlled
        runtime = [u for u in through_worker if "/pyodide/" in u]
        assert static_site + "pyodide/pyodide.asm.wasm" in runtime and len(runtime) > 20
        assert not [u for u in runtime if through_worker[u]], runtime
        assert {u for u, answered in through_worker.items() if answered} == {static_site + "api/drive"}
    finally:
        context.close()
