"""Browser tests: the dashboards served by Voilà, driven in a real Chromium.

Fixtures (use them from any test module in this folder; every test here is marked ``browser``):

``voila_server`` (session)
    The workbook's server (``server/voila_app.py``, as ``make run`` starts it: Voilà with one
    preheated kernel per notebook but the lessons and the two notebooks for code, the Host allowlist
    and the kernel cap, but no per-address limit: every page here comes from one browser)
    serving ``notebooks/`` on a free 127.0.0.1 port; ``.url`` is its root, ``.log`` its log file. Started once per
    session with subprocess, ready when a static file answers, stopped by its PID at the end.
``browser`` (session)
    Playwright's Chromium API driving Debian's ``/usr/bin/chromium`` (never a downloaded build).
``returning_browser`` (session, tests/conftest.py)
    A browser context keeping its profile on disk, as a reader's browser does: the pages that
    ``open_dashboard`` opens share its cache (each test still closes its own pages).
``open_dashboard`` (function)
    ``open_dashboard("infinity-n4-dodge.ipynb", query="dodger.ph=12")`` opens a notebook in a
    new page of ``returning_browser`` (``width`` / ``height`` of the window, 1280 × 1000 unless
    given; with other keywords, e.g. ``permissions``, a fresh context of Playwright's
    ``new_context`` instead) (requests to anything but 127.0.0.1 fail), waits until the outcome chart
    and table are drawn (or until the JavaScript condition ``ready`` holds, for a page that is
    not a dashboard), and returns a :class:`DashboardPage`.
``timings`` (session)
    ``timings.record("infinity-n4", "first render", seconds)``: printed at the end of the run
    and merged into ``test-artifacts/browser-test-timings.md`` (``make bench-browser`` writes
    the measured timings in ``docs/browser-timings.md``). Report timings; do not assert them.

:class:`DashboardPage` finds everything by the workbook's CSS classes (``wb-<dotted path>`` for
a field, see ``workbook/pages/dashboard.py`` for the rest), waits with Playwright's ``wait_for_function``
(never sleep-and-read), and reads numbers back as exact fractions:

- ``set_slider(css, value)``, ``press_slider(css, key)``, ``select(css, label)``,
  ``set_checkbox(css, on)``, ``click(css)``;
- ``wait_for_table(expected)``, ``wait_for_headline(expected)``,
  ``wait_for_chart(expected_y, css)`` — each returns the seconds it waited;
- ``table()``, ``headline()``, ``chart_y(css)``, ``notices()``, ``share_link()``,
  ``slider_value(css)``; ``wait_drawn(selector)`` for a chart (charts far from the viewport
  are drawn only when they come near: these scroll to them);
- ``resize(width, height)``, ``python_errors()`` (tracebacks or stderr on the page), ``console_errors()`` (browser
  console errors, not counting the requests this harness aborts), ``screenshot(path)`` (into
  test-artifacts/, or to ``path`` itself with WORKBOOK_UPDATE_DOCS=1).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: No host but 127.0.0.1 resolves in the browser (the way the tests keep pages to this machine
#: without routing their requests).
OWN_HOST_ONLY = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
RENDER_TIMEOUT_MS = 120_000  # a cold kernel renders in ~10 s; leave room on a busy machine
UPDATE_TIMEOUT_MS = 20_000
#: Test runs save screenshots and timings under test-artifacts/ (not tracked). With
#: WORKBOOK_UPDATE_DOCS=1 (``make docs-media``) they go where the tests name them in docs/ instead,
#: so a plain ``make test`` never rewrites a tracked file.
ARTIFACTS = ROOT / "test-artifacts"
UPDATE_DOCS = os.environ.get("WORKBOOK_UPDATE_DOCS") == "1"


def output_path(path: Path | str) -> Path:
    """Where a picture or report meant for ``path`` (in docs/) is written by this run."""
    path = Path(path)
    return path if UPDATE_DOCS else ARTIFACTS / path.name


TIMINGS_DOC = ARTIFACTS / "browser-test-timings.md"  # docs/browser-timings.md: make bench-browser
SERVER = ROOT / "server" / "voila_app.py"


#: A notebook of one widget, for a server's tests where any page will do: the server counts and
#: releases every page alike, and this one's kernel starts and runs in about a second, where a
#: dashboard's takes several (the browser's part of an open is about the same).
LIGHT = "light.ipynb"
LIGHT_READY = "() => Boolean(document.querySelector('.widget-button'))"


def serving_folder(folder: Path, *notebooks: str) -> Path:
    """``folder`` made ready to serve: :data:`LIGHT` and copies of ``notebooks`` from
    ``notebooks/``, each with the texts it reads beside it (``d100-homebrew.en.md``, ...)."""
    folder.mkdir(parents=True, exist_ok=True)
    cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
            "source": "import ipywidgets\nipywidgets.Button(description='a page')"}
    (folder / LIGHT).write_text(json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    for name in notebooks:
        for path in NOTEBOOKS.glob(f"{Path(name).stem}.*"):
            shutil.copyfile(path, folder / path.name)
    return folder


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


# -- the server ---------------------------------------------------------------------------------

@dataclass
class VoilaServer:
    url: str
    process: subprocess.Popen
    log: Path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_until_serving(server: VoilaServer, timeout: float = 60.0) -> None:
    """Poll a static file (a page request would start a kernel) until it answers."""
    deadline = time.monotonic() + timeout
    static = server.url + "voila/templates/lab/static/voila.js"
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"Voilà exited:\n{server.log.read_text()}")
        try:
            with urllib.request.urlopen(static, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"Voilà did not answer within {timeout} s:\n{server.log.read_text()}")


@pytest.fixture(scope="session")
def voila_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    port = _free_port()
    log = tmp_path_factory.mktemp("voila") / "voila.log"
    # One browser plays every visitor here, from one address: no per-address limit (its own
    # test starts a server with one, test_hardening.py).
    # A kernel with no browser connected goes after 10 s (30 s by default): its test waits less.
    # No test here opens a lesson (the static site's tests do), and one test each opens the two
    # notebooks for code: their kernels are not preheated (the code notebook's runs ~6 s), which
    # saves two workers' servers some 45 s of CPU in kernels no test would use.
    cold = [*sorted(NOTEBOOKS.glob("lesson-*.ipynb")), NOTEBOOKS / "explore-in-code.ipynb",
            NOTEBOOKS / "design-a-rule.ipynb"]
    command = [sys.executable, str(SERVER), str(NOTEBOOKS), f"--port={port}", "--pool=1",
               f"--pools={','.join(f'{p.name}=0' for p in cold)}", "--show_tracebacks=True", "--max-per-address=0",
               "--disconnected-timeout=10"]
    with open(log, "wb") as sink:
        process = subprocess.Popen(command, cwd=NOTEBOOKS, stdout=sink, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
    server = VoilaServer(f"http://127.0.0.1:{port}/", process, log)
    try:
        _wait_until_serving(server)
        yield server
    finally:
        process.terminate()  # Voilà shuts its kernels down on SIGTERM
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # the group this fixture started
            process.wait(timeout=10)


# -- the browser ---------------------------------------------------------------------------------

# ``browser`` (one Chromium per test worker, shared with the static site's tests) is in tests/conftest.py.


# Rows are table rows or headline cards (``[data-key]``); a cell's exact value is its
# ``data-value`` when it has one (a card shortens a long fraction), else its text.
_CELL = """(row, col) => { const cell = row.querySelector(`[data-col="${col}"]`);
    return cell ? (cell.dataset.value !== undefined ? cell.dataset.value : cell.textContent) : null; }"""

_READ_TABLE = """([css, col]) => Object.fromEntries(Array.from(
    document.querySelectorAll(`.${css} [data-key]`)).map(
        row => [row.dataset.key, (""" + _CELL + """)(row, col) || ""]))"""

# Whether the share link's query holds every "name=value" of pairs.
_LINK_HAS = """(pairs) => {
    const a = document.querySelector('.wb-share-link a');
    if (!a) return false;
    const query = new URL(a.href, location.href).search.slice(1).split('&');
    return pairs.every((pair) => query.includes(pair));
}"""

# Exact comparison of "n/d" texts as numbers: n1 * d2 == n2 * d1 in BigInt.
_TABLE_EQUALS = """([css, col, expected]) => {
    const same = (a, b) => {
        if (!a || !b) return !a && !b;  // an empty cell is a null value (a headline with a note)
        const [n1, d1] = a.split('/'), [n2, d2] = b.split('/');
        return BigInt(n1) * BigInt(d2) === BigInt(n2) * BigInt(d1);
    };
    const rows = document.querySelectorAll(`.${css} [data-key]`);
    if (rows.length !== Object.keys(expected).length) return false;
    for (const row of rows) {
        const cell = (""" + _CELL + """)(row, col);
        if (!(row.dataset.key in expected) || cell === null) return false;
        if (!same(cell.trim(), expected[row.dataset.key])) return false;
    }
    return true;
}"""

#: Each trace on the page: [the type its figure asked for, the type plotly drew it as] (a type
#: missing from the plotly.js bundle that drew it is drawn as an empty scatter).
_TRACE_TYPES = """() => Array.from(document.querySelectorAll('.js-plotly-plot')).flatMap(
    p => (p.data || []).map((t, i) => [t.type || 'scatter', ((p._fullData || [])[i] || {}).type]))"""

# The drawn plot of the chart that matches ``selector`` (a chart or a box holding one), or null.
# A chart is drawn only near the viewport (``workbook/page/chart.py``): one whose latest figure is not
# drawn yet (pending) is scrolled to, and null is returned until it is drawn.
_DRAWN_PLOT = """(selector) => {
    const host = document.querySelector(selector);
    const el = host && (host.classList.contains('wb-chart') ? host : host.querySelector('.wb-chart'));
    if (!el) return null;
    if (el.classList.contains('wb-chart-pending')) { el.scrollIntoView({block: 'center'}); return null; }
    const plot = el.querySelector('.js-plotly-plot');
    return plot && plot.querySelector('.main-svg') ? plot : null;
}"""

_CHART_Y = """([css, trace]) => {
    const plot = (""" + _DRAWN_PLOT + """)(`.${css}`);
    return plot && plot.data && plot.data[trace] ? Array.from(plot.data[trace].y) : null;
}"""

_CHART_EQUALS = """([css, trace, expected]) => {
    const plot = (""" + _DRAWN_PLOT + """)(`.${css}`);
    if (!plot || !plot.data || !plot.data[trace]) return false;
    const y = plot.data[trace].y;
    return y.length === expected.length && expected.every((v, i) => Math.abs(y[i] - v) <= 1e-12);
}"""


# Every chart in the window or within half a window of it drawn with its latest figure, at its
# box's current width (plotly redraws responsive charts on resize); charts further away are
# not drawn until they come near (``workbook/page/chart.py``).
_CHARTS_FIT = """() => Array.from(document.querySelectorAll('.wb-dashboard .wb-chart')).every(el => {
    const box = el.getBoundingClientRect();
    if ((!box.width && !box.height) || box.bottom < -innerHeight / 2 || box.top > 1.5 * innerHeight) return true;
    if (el.classList.contains('wb-chart-pending')) return false;
    const plot = el.querySelector('.js-plotly-plot');
    return !plot || (plot._fullLayout && Math.abs(plot._fullLayout.width - plot.clientWidth) <= 2);
})"""


def _exact(value: Fraction | None) -> str | None:
    return None if value is None else f"{value.numerator}/{value.denominator}"


def _fraction(text: str) -> Fraction | None:
    return Fraction(text) if text.strip() else None


@dataclass
class DashboardPage:
    """One opened dashboard (see the module's docstring for what it offers)."""

    page: object
    url: str
    load_seconds: float = 0.0
    console: list[tuple[str, str]] = field(default_factory=list)
    aborted: list[str] = field(default_factory=list)
    hosts: set[str] = field(default_factory=set)  # every host a request of the page asked for
    requested: list[str] = field(default_factory=list)  # every address, in order (the static site's pages)

    # -- acting ----------------------------------------------------------------------------
    def keep_to(self, target, origin: str) -> None:
        """Let ``target`` (a page, or a context: its pages' workers too) ask only addresses starting
        with ``origin``: every request recorded here (its host, its address), any other refused."""

        def route(r):
            self.hosts.add(urlsplit(r.request.url).hostname or "")
            self.requested.append(r.request.url)
            if r.request.url.startswith(origin):
                r.continue_()
            else:
                self.aborted.append(r.request.url)
                r.abort()

        target.route("**/*", route)

    def watch(self, target) -> Callable[[object], None]:
        """Record every request of ``target`` (a page, or a context: its pages', their workers'
        and its service workers' too), its host and its address, without routing it: routing
        turns the browser's cache off. A request to another host is counted as refused: in the
        browser that watched pages open in, no host but 127.0.0.1 resolves (``OWN_HOST_ONLY``).
        Returns the listener (``target.remove_listener("request", it)`` stops recording)."""

        def asked(request):
            url = request.url
            if not url.startswith(("http:", "https:")):
                return  # data: and blob: addresses ask no host
            host = urlsplit(url).hostname or ""
            self.hosts.add(host)
            self.requested.append(url)
            if host != "127.0.0.1":
                self.aborted.append(url)

        target.on("request", asked)
        return asked

    def resize(self, width: int, height: int) -> None:
        """Make the window ``width`` × ``height`` and wait until every chart is drawn at its
        box's new width."""
        self.page.set_viewport_size({"width": width, "height": height})
        self.page.wait_for_function(_CHARTS_FIT, timeout=UPDATE_TIMEOUT_MS, polling=100)

    def set_slider(self, css: str, value: float) -> None:
        """Type ``value`` into the slider's editable readout and press Enter."""
        readout = self.page.locator(f".{css} .widget-readout")
        readout.click()
        self.page.keyboard.press("Control+A")
        self.page.keyboard.type(str(value))
        self.page.keyboard.press("Enter")

    def press_slider(self, css: str, key: str = "ArrowRight") -> None:
        """Focus the slider's handle and press an arrow key (moves it by one step)."""
        self.page.locator(f".{css} .noUi-handle").press(key)

    def slider_value(self, css: str) -> float:
        return float(self.page.locator(f".{css} .noUi-handle").get_attribute("aria-valuenow"))

    def select(self, css: str, label: str) -> None:
        self.page.locator(f".{css} select").select_option(label=label)

    def set_checkbox(self, css: str, on: bool) -> None:
        self.page.locator(f".{css} input[type=checkbox]").set_checked(on)

    def click(self, css: str) -> None:
        self.page.locator(f".{css}").click()

    # -- waiting ---------------------------------------------------------------------------
    def _wait(self, script: str, arg: object) -> float:
        start = time.perf_counter()
        self.page.wait_for_function(script, arg=arg, timeout=UPDATE_TIMEOUT_MS, polling="raf")
        return time.perf_counter() - start

    def wait_for_table(self, expected: Mapping[str, Fraction], css: str = "wb-table") -> float:
        """Wait until the table's rows (by ``data-key``) hold exactly ``expected``."""
        return self._wait(_TABLE_EQUALS, [css, "exact", {k: _exact(v) for k, v in expected.items()}])

    def wait_for_headline(self, expected: Mapping[str, Fraction | None]) -> float:
        """Wait until the headline rows hold exactly ``expected`` (None: an empty cell)."""
        return self._wait(_TABLE_EQUALS, ["wb-headline", "exact",
                                          {k: _exact(v) for k, v in expected.items()}])

    def wait_for_chart(self, expected_y: Sequence[float], css: str = "wb-outcome-chart",
                       trace: int = 0) -> float:
        """Wait until the chart's trace has the ``expected_y`` values."""
        return self._wait(_CHART_EQUALS, [css, trace, list(expected_y)])

    # -- reading ---------------------------------------------------------------------------
    def table(self, css: str = "wb-table") -> dict[str, Fraction | None]:
        return {k: _fraction(v) for k, v in self.page.evaluate(_READ_TABLE, [css, "exact"]).items()}

    def headline(self) -> dict[str, Fraction | None]:
        return self.table("wb-headline")

    def chart_y(self, css: str = "wb-outcome-chart", trace: int = 0) -> list[float] | None:
        """The chart's trace's y values (None: the chart has no such trace), once the chart is
        drawn (scrolled to if it was out of view)."""
        self.wait_drawn(f".{css}")
        return self.page.evaluate(_CHART_Y, [css, trace])

    def wait_drawn(self, selector: str, timeout: float = UPDATE_TIMEOUT_MS) -> None:
        """Wait until the chart matching ``selector`` (a chart or a box holding one) is drawn
        with its latest figure, scrolling to it if it is out of view (charts far from the
        viewport are not drawn, see ``workbook/page/chart.py``)."""
        self.page.wait_for_function(f"() => Boolean(({_DRAWN_PLOT})({selector!r}))",
                                    timeout=timeout, polling=100)

    def notices(self) -> list[str]:
        texts = self.page.locator(".wb-notice").all_inner_texts()
        return [t.strip() for t in texts if t.strip()]

    def share_link(self, *pairs: str) -> str:
        """The share link's address, once its query holds every ``name=value`` of ``pairs``
        (the link is its own widget: it may follow the numbers by a message)."""
        if pairs:
            self._wait(_LINK_HAS, list(pairs))
        return self.page.locator(".wb-share-link a").get_attribute("href")

    def python_errors(self) -> list[str]:
        """Tracebacks or stderr output shown on the page."""
        stderr = self.page.locator('[data-mime-type="application/vnd.jupyter.stderr"]').all_inner_texts()
        body = self.page.locator("body").inner_text()
        return stderr + (["Traceback in the page"] if "Traceback" in body else [])

    def console_errors(self) -> list[str]:
        """Browser console errors, except the failed loads of requests this harness aborted."""
        return [text for kind, text in self.console if kind == "error" and not (
            self.aborted and ("net::ERR_FAILED" in text or "net::ERR_NAME_NOT_RESOLVED" in text))]

    def screenshot(self, path: Path | str, height: int = 1400, width: int = 1280) -> Path:
        """What a reader sees at the top of the dashboard in a ``width`` × ``height`` window,
        once the charts have been laid out again for that size."""
        path = output_path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.page.set_viewport_size({"width": width, "height": height})
        self.page.evaluate("document.querySelector('.wb-dashboard').scrollIntoView()")
        self.page.wait_for_function(_CHARTS_FIT, timeout=UPDATE_TIMEOUT_MS, polling=100)
        self.page.screenshot(path=str(path))
        return path


#: A dashboard is ready when its outcome chart is drawn and its table filled.
_DASHBOARD_READY = """() => {
    const plot = document.querySelector('.wb-outcome-chart .js-plotly-plot');
    return Boolean(plot && plot.data && document.querySelector('.wb-table td[data-col=exact]'));
}"""


@pytest.fixture
def open_dashboard(browser, returning_browser, voila_server):
    contexts, pages = [], []

    def open_(notebook: str, query: str = "", ready: str = _DASHBOARD_READY, width: int = 1280,
              height: int = 1000, **options) -> DashboardPage:
        url = f"{voila_server.url}voila/render/{notebook}" + (f"?{query}" if query else "")
        if options:  # e.g. permissions: a context of the test's own
            context = browser.new_context(viewport={"width": width, "height": height}, **options)
            contexts.append(context)
            page = context.new_page()
            dash = DashboardPage(page, url)
            dash.keep_to(page, "http://127.0.0.1:")
        else:
            page = returning_browser.new_page()
            pages.append(page)
            page.set_viewport_size({"width": width, "height": height})
            dash = DashboardPage(page, url)
            dash.watch(page)
        page.on("console", lambda m: dash.console.append((m.type, m.text)))
        page.on("pageerror", lambda e: dash.console.append(("error", f"page error: {e}")))
        start = time.perf_counter()
        page.goto(url, timeout=RENDER_TIMEOUT_MS)
        page.wait_for_function(ready, timeout=RENDER_TIMEOUT_MS, polling=100)
        dash.load_seconds = time.perf_counter() - start
        return dash

    yield open_
    for page in pages:
        page.close()
    for context in contexts:
        context.close()


# -- timings -------------------------------------------------------------------------------------

class Timings:
    """Measured seconds per (dashboard, step); merged into TIMINGS_DOC."""

    HEADER = ("# Browser test timings\n\nMeasured by the browser tests (`tests/browser/`) on the "
              "machine that last ran them: the workbook's server (one preheated kernel per "
              "notebook) serving `notebooks/`, Debian Chromium driven by Playwright. Reported, not "
              "asserted; `make bench-browser` measures them properly (docs/browser-timings.md)."
              "\n\n| dashboard | step | time |\n| --- | --- | --- |\n")

    def __init__(self) -> None:
        self.rows: dict[tuple[str, str], float] = {}

    def record(self, dashboard: str, step: str, seconds: float) -> None:
        self.rows[(dashboard, step)] = seconds

    @staticmethod
    def text(seconds: float) -> str:
        return f"{seconds:.2f} s" if seconds >= 1 else f"{seconds * 1000:.0f} ms"

    def merged(self) -> dict[tuple[str, str], str]:
        rows: dict[tuple[str, str], str] = {}
        if TIMINGS_DOC.exists():
            for line in TIMINGS_DOC.read_text().splitlines():
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                if line.startswith("| ") and len(cells) == 3 and cells[0] not in ("dashboard", "---"):
                    rows[(cells[0], cells[1])] = cells[2]
        rows.update({key: self.text(s) for key, s in self.rows.items()})
        return rows

    def write(self) -> None:
        body = "".join(f"| {d} | {s} | {t} |\n" for (d, s), t in sorted(self.merged().items()))
        load = "Load average (1 min) when last written: {:.1f} on {} cores.\n".format(
            os.getloadavg()[0], os.cpu_count())
        TIMINGS_DOC.parent.mkdir(parents=True, exist_ok=True)
        TIMINGS_DOC.write_text(self.HEADER + body + "\n" + load)


_TIMINGS = Timings()


@pytest.fixture(scope="session")
def timings() -> Iterator[Timings]:
    yield _TIMINGS
    if _TIMINGS.rows:
        _TIMINGS.write()


def pytest_terminal_summary(terminalreporter) -> None:
    if _TIMINGS.rows:
        terminalreporter.section("browser timings (reported, not asserted)")
        for (dashboard, step), seconds in sorted(_TIMINGS.rows.items()):
            terminalreporter.write_line(f"{dashboard}: {step}: {Timings.text(seconds)}")
