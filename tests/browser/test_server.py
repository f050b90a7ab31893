"""The server around the dashboards (``server/voila_app.py``, what ``make run`` starts): pages
that ask nothing of other hosts and stay light, a closed tab's kernel released, a lost kernel
announced with a way back, a full server that says so, and nothing exposed that should not be.

Sizes are checked (they do not depend on the machine's speed); timings are only reported."""

from __future__ import annotations

import http.client
import json
import sys
import time
import urllib.parse
import urllib.request
from fractions import Fraction

import pytest

from .conftest import _TRACE_TYPES, LIGHT, ROOT, RENDER_TIMEOUT_MS, UPDATE_TIMEOUT_MS, serving_folder
from rules_core import evaluate, get_system

sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "server"))
from browser_session import CountingProxy, start_server  # noqa: E402
from startup_script import is_chunk  # noqa: E402

pytestmark = pytest.mark.browser

DASHBOARDS = {"infinity-n4-dodge.ipynb": "infinity-n4", "gurps-4e.ipynb": "gurps-4e",
              "eldfall.ipynb": "eldfall", "d100-homebrew.ipynb": "d100-homebrew"}
MOST_BYTES = 3_000_000  # a dashboard opened with a cold browser cache

_KERNEL_ID = "() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"


def _exact_table(page) -> dict[str, Fraction]:
    rows = page.evaluate("""() => Object.fromEntries(Array.from(document.querySelectorAll(
        '.wb-table tr[data-key]')).map(r => [r.dataset.key, r.querySelector('td[data-col=exact]').textContent]))""")
    return {k: Fraction(v) for k, v in rows.items()}


@pytest.fixture(scope="module")
def compressed(browser, voila_server):
    """Wait until the server has made the Brotli form of every script and stylesheet a dashboard
    loads (it makes them once, in the background, after it starts; gzip is sent until then)."""
    page = browser.new_page()
    urls: set[str] = set()
    page.on("response", lambda r: r.url.split("?")[0].endswith((".js", ".css")) and urls.add(r.url))
    page.goto(f"{voila_server.url}voila/render/d100-homebrew.ipynb", timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector(".wb-table td[data-col=exact]", timeout=RENDER_TIMEOUT_MS)
    page.close()
    deadline = time.monotonic() + 300
    while urls and time.monotonic() < deadline:
        for url in sorted(urls):
            request = urllib.request.Request(url, headers={"Accept-Encoding": "br"})
            with urllib.request.urlopen(request) as response:
                body = response.read()
                if response.headers.get("Content-Encoding") == "br" or len(body) <= 20_000:
                    urls.discard(url)  # ready, or too small to be worth it (sent gzip)
        time.sleep(1)
    assert not urls, f"not compressed after 300 s: {sorted(urls)[:3]}"


@pytest.mark.parametrize("notebook", list(DASHBOARDS))
def test_a_cold_open_asks_only_this_server_and_stays_light(browser, voila_server, compressed, notebook):
    """Every request of the page goes to the server itself (recorded, not just blocked), the
    bytes on the wire (HTTP and websocket, as a counting relay sees them) stay under 3 MB with an
    empty browser cache, every chunk of the front end comes in the one startup script (none is
    asked for on its own), no widget version warning or error is logged, and the numbers are the
    core's."""
    relay = CountingProxy(int(voila_server.url.rsplit(":", 1)[1].strip("/")))
    context = browser.new_context(viewport={"width": 1280, "height": 1000})  # a cold cache
    try:
        page = context.new_page()
        hosts, console, paths = set(), [], []
        page.on("request", lambda r: r.url.startswith(("http", "ws")) and hosts.add(urllib.parse.urlsplit(r.url).hostname))
        page.on("request", lambda r: paths.append(urllib.parse.urlsplit(r.url).path.lstrip("/")))
        page.on("console", lambda m: console.append((m.type, m.text)))
        page.on("pageerror", lambda e: console.append(("error", str(e))))
        page.goto(f"{relay.url}voila/render/{notebook}", timeout=RENDER_TIMEOUT_MS)
        page.wait_for_function("""() => {
            const plot = document.querySelector('.wb-outcome-chart .js-plotly-plot');
            return Boolean(plot && plot.data && document.querySelector('.wb-table td[data-col=exact]'));
        }""", timeout=RENDER_TIMEOUT_MS, polling=100)
        page.wait_for_load_state("networkidle", timeout=UPDATE_TIMEOUT_MS)
        sent = relay.reset()
        assert hosts == {"127.0.0.1"}, hosts
        assert sent <= MOST_BYTES, f"{sent / 1e6:.2f} MB"
        assert [p for p in paths if p.startswith("workbook/startup/")] != []
        alone = [p for p in paths if is_chunk(p)]
        assert alone == [], f"chunks asked for on their own (run tools/startup_chunks.py): {alone}"
        assert [text for kind, text in console if kind == "error"] == []
        assert not [text for _, text in console if "Unsatisfied version" in text]
        system = get_system(DASHBOARDS[notebook])
        from workbook.page.share import decode_query

        shown = decode_query(system, page.evaluate("location.search")).scenario or system.default_scenario()
        expected = dict(evaluate(shown).outcome_rows())
        assert _exact_table(page) == expected
    finally:
        context.close()
        relay.close()


def test_a_closed_tab_releases_its_kernel(browser, voila_server):
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{voila_server.url}voila/render/d100-homebrew.ipynb", timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector(".wb-table td[data-col=exact]", timeout=RENDER_TIMEOUT_MS)
    kernel = page.evaluate(_KERNEL_ID)
    page.close(run_before_unload=True)  # as a tab closing: the page's shutdown beacon is sent
    context.close()
    deadline = time.monotonic() + 60
    while f"Kernel shutdown: {kernel}" not in voila_server.log.read_text(errors="replace"):
        assert time.monotonic() < deadline, "the closed tab's kernel is still running after 60 s"
        time.sleep(0.5)


def test_a_lost_kernel_is_announced_and_reconnect_brings_the_scenario_back(open_dashboard):
    dash = open_dashboard("infinity-n4-dodge.ipynb")
    dash.press_slider("wb-dodger-ph", "ArrowRight")  # PH 10 -> 11: not the default any more
    dash.page.wait_for_function("() => document.querySelector('a.wb-share-anchor')"
                                " && document.querySelector('a.wb-share-anchor').href.includes('ph=11')",
                                timeout=UPDATE_TIMEOUT_MS)
    table = dash.table()
    assert dash.page.locator("#wb-banner").count() == 0
    # The kernel goes away as when the server culls it (the page's own shutdown request).
    status = dash.page.evaluate("""async (id) => {
        const xsrf = (document.cookie.match('\\\\b_xsrf=([^;]*)\\\\b') || [])[1] || '';
        const body = new FormData(); body.append('_xsrf', xsrf);
        return (await fetch(`/voila/api/shutdown/${id}`, {method: 'POST', body})).status; }""",
                                dash.page.evaluate(_KERNEL_ID))
    assert status == 204
    banner = dash.page.locator("#wb-banner.wb-banner-lost")
    banner.wait_for(state="visible", timeout=UPDATE_TIMEOUT_MS * 3)
    assert "disconnected" in banner.inner_text()
    dash.page.locator("#wb-banner .wb-reconnect").click()
    dash.page.wait_for_function("() => document.querySelector('.wb-table td[data-col=exact]')",
                                timeout=RENDER_TIMEOUT_MS, polling=100)
    assert dash.slider_value("wb-dodger-ph") == 11
    assert dash.table() == table
    assert dash.page.locator("#wb-banner").count() == 0


def _get(url: str, host: str | None = None) -> tuple[int, str, dict]:
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    headers = {"Host": host, "Origin": f"http://{host}"} if host else {}
    connection.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""), headers=headers)
    response = connection.getresponse()
    body = response.read().decode(errors="replace")
    connection.close()
    return response.status, body, dict(response.getheaders())


def test_only_the_allowed_host_names_are_answered(voila_server):
    port = voila_server.url.rsplit(":", 1)[1].strip("/")
    static = voila_server.url + "voila/templates/lab/static/voila.js"
    assert _get(static)[0] == 200
    assert _get(static, host=f"localhost:{port}")[0] == 200
    status, body, _ = _get(static, host=f"evil.example:{port}")
    assert status == 400 and "evil.example" in body
    # a page request from a foreign Host never reaches a kernel (nor a share link)
    assert _get(voila_server.url + "voila/render/infinity-n4-dodge.ipynb", host=f"evil.example:{port}")[0] == 400


@pytest.mark.parametrize("path", [
    "voila/api/contents", "voila/api/contents/index.ipynb", "voila/templates/lab",
    "voila/templates/x/y", "voila/templates/lab/static/..%2f..%2f..%2fetc%2fpasswd",
    "voila/static/..%2f..%2fetc/passwd", "voila/static/%2e%2e/%2e%2e/etc/passwd",
    "voila/files/..%2fpyproject.toml", "voila/labextensions/..%2f..%2f..%2fetc/passwd",
    "voila/render/..%2fpyproject.toml"])
def test_no_file_listing_and_no_traversal(voila_server, path):
    status, body, _ = _get(voila_server.url + path)
    assert status == 404, (status, body[:200])


def test_the_root_and_the_tree_lead_to_the_index(voila_server):
    for path in ("", "voila/tree", "voila/tree/"):
        status, _, headers = _get(voila_server.url + path)
        assert status == 302 and headers["Location"].endswith("/voila/render/index.ipynb")


def test_static_files_are_sent_compressed(voila_server):
    request = urllib.request.Request(voila_server.url + "voila/templates/lab/static/voila.js",
                                     headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request) as response:
        assert response.headers["Content-Encoding"] == "gzip"
        import gzip
        assert b"voila" in gzip.decompress(response.read())


def test_a_full_server_says_so_instead_of_a_silent_page(browser, tmp_path):
    """With a cap of one kernel and no preheating, a second visitor gets the "server is full"
    page (HTTP 503, a retry button) while the first page (one of one widget: any page's kernel
    counts alike) keeps its kernel."""
    server = start_server(tmp_path / "full.log", "--pool=0", "--max-kernels=1",
                          notebooks=serving_folder(tmp_path / "served", "eldfall.ipynb", "gurps-4e.ipynb"))
    try:
        status, body, _ = _get(server.url + f"voila/render/{LIGHT}")
        assert status == 200 and "wb-server-full" not in body
        status, body, headers = _get(server.url + "voila/render/eldfall.ipynb")
        assert status == 503 and headers.get("Retry-After") == "60"
        assert "The server is full" in body and "try again in a minute" in body.lower()
        page = browser.new_page()
        try:
            response = page.goto(server.url + "voila/render/gurps-4e.ipynb")
            assert response.status == 503
            assert page.locator("button.wb-retry").is_visible()
        finally:
            page.close()
        assert "Server full" in server.log.read_text()
    finally:
        server.stop()


def test_a_tab_gone_without_a_word_releases_its_kernel_too(browser, voila_server):
    """A browser that never sends the shutdown beacon (it crashed, the laptop slept; here its
    beacons go nowhere, as the page's pagehide would send one on close): the kernel goes once no
    browser has been connected to it for the disconnected timeout (10 s on the tests' server,
    30 s by default), at the culler's next round."""
    context = browser.new_context()
    context.add_init_script("navigator.sendBeacon = () => true;")
    page = context.new_page()
    page.goto(f"{voila_server.url}voila/render/eldfall.ipynb", timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector(".wb-table td[data-col=exact]", timeout=RENDER_TIMEOUT_MS)
    kernel = page.evaluate(_KERNEL_ID)
    context.close()  # no beacon arrives
    deadline = time.monotonic() + 60
    log = voila_server.log
    # The reason is logged before the shutdown starts, "Kernel shutdown" once it is done.
    while f"Kernel shutdown: {kernel}" not in log.read_text(errors="replace"):
        assert time.monotonic() < deadline, "the abandoned kernel is still running after 60 s"
        time.sleep(0.5)
    assert f"Releasing kernel {kernel}: no browser connected" in log.read_text(errors="replace")


def test_a_page_that_could_not_be_built_says_so_with_a_retry(browser, tmp_path):
    """A cell that does not finish in time (here: one that sleeps past a 1 s cell limit, as a
    cell would on a machine far too busy) stops Voilà's page short; the page then says so with a
    Retry button, never a page with only its text."""
    folder = tmp_path / "notebooks"
    folder.mkdir()
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": source}
             for source in ("import time\ntime.sleep(10)", "'never shown'")]
    (folder / "slow.ipynb").write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    server = start_server(tmp_path / "slow.log", "--pool=0", "--VoilaExecutor.timeout=1", notebooks=folder)
    try:
        page = browser.new_page()
        try:
            page.goto(server.url + "voila/render/slow.ipynb", timeout=RENDER_TIMEOUT_MS)
            banner = page.locator("#wb-banner.wb-banner-error")
            banner.wait_for(state="visible", timeout=UPDATE_TIMEOUT_MS)
            assert "could not be built" in banner.inner_text()
            assert page.locator("#wb-banner button.wb-reconnect").inner_text() == "Retry"
            assert page.locator(".wb-dashboard").count() == 0
        finally:
            page.close()
        assert "A cell timed out while it was being executed, after 1 seconds" in server.log.read_text()
    finally:
        server.stop()


def _shutdown(server, kernel_id: str, cookie: str) -> int:
    """The page's own shutdown request for its kernel (as its beacon sends it)."""
    xsrf = cookie.split("_xsrf=", 1)[1].split(";", 1)[0]
    parts = urllib.parse.urlsplit(server.url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    connection.request("POST", f"/voila/api/shutdown/{kernel_id}", body=f"_xsrf={xsrf}",
                       headers={"Cookie": f"_xsrf={xsrf}", "Content-Type": "application/x-www-form-urlencoded"})
    status = connection.getresponse().status
    connection.close()
    return status


def _wait_in_log(server, text: str, count: int = 1, timeout: float = 180) -> str:
    deadline = time.monotonic() + timeout
    while (log := server.log.read_text(errors="replace")).count(text) < count:
        assert time.monotonic() < deadline, f"{text!r} not in the server log after {timeout} s"
        time.sleep(0.3)
    return log


def test_the_kernel_cap_counts_preheated_kernels_and_pools_refill_within_it(tmp_path):
    """A cap of 2 kernels with one preheated kernel for each of two dashboards: a page of a
    third takes the place of a preheated kernel (shut down for it), a page of a preheated one
    takes its kernel (the pool then waits for room), a fourth page finds the server full, and
    when a page's kernel goes the pool is refilled — never more than 2 kernels."""
    pools = '{"default": {"pool_size": 0}, "d100-homebrew.ipynb": {"pool_size": 1}, "eldfall.ipynb": {"pool_size": 1}}'
    server = start_server(tmp_path / "cap.log", "--pool=1", "--max-kernels=2",
                          f"--VoilaKernelManager.kernel_pools_config={pools}")
    try:
        _wait_in_log(server, "is filled with", count=2)
        status, body, headers = _get(server.url + "voila/render/gurps-4e.ipynb")  # no pool: a place is made
        assert status == 200 and "wb-server-full" not in body
        log = server.log.read_text()
        assert "shut down for a page of gurps-4e.ipynb" in log
        evicted = "d100-homebrew.ipynb" if "of d100-homebrew.ipynb shut down" in log else "eldfall.ipynb"
        kept = {"d100-homebrew.ipynb", "eldfall.ipynb"} - {evicted}
        (kept,) = kept
        gurps_kernel = body.split('"kernelId": "', 1)[1].split('"', 1)[0]
        status, _, _ = _get(server.url + f"voila/render/{kept}")  # its preheated kernel
        assert status == 200
        _wait_in_log(server, f"Pool of {kept} waits for room under the kernel cap")
        status, body, _ = _get(server.url + f"voila/render/{evicted}")  # two pages, no idle kernel: full
        assert status == 503 and "The server is full" in body
        assert _shutdown(server, gurps_kernel, headers["Set-Cookie"]) == 204
        _wait_in_log(server, "Refilling the pool of")
        log = _wait_in_log(server, "Starting a preheated kernel", count=3)  # two at first, the refill
        starts = [int(line.split("(")[1].split(" of")[0]) for line in log.splitlines() if "Starting a " in line]
        assert len(starts) == 4 and max(starts) <= 2, starts  # with the page kernel of gurps-4e
    finally:
        server.stop()


def test_a_notebook_that_draws_plotly_figures_itself_still_gets_plotlys_renderer(browser, voila_server):
    """The dashboards draw with the workbook's chart widget and do not load plotly's JupyterLab
    renderer; the code notebook shows plotly express figures itself, and they are drawn."""
    page = browser.new_page()
    scripts: list[str] = []
    page.on("request", lambda r: scripts.append(r.url))
    try:
        page.goto(f"{voila_server.url}voila/render/explore-in-code.ipynb", timeout=RENDER_TIMEOUT_MS)
        page.wait_for_function("() => { const p = document.querySelector('.js-plotly-plot');"
                               " return Boolean(p && p.data && p.data.length); }",
                               timeout=RENDER_TIMEOUT_MS, polling=200)
        assert any("labextensions/jupyterlab-plotly/" in url for url in scripts)
        scripts.clear()
        page.goto(f"{voila_server.url}voila/render/d100-homebrew.ipynb", timeout=RENDER_TIMEOUT_MS)
        page.wait_for_selector(".wb-outcome-chart .js-plotly-plot", timeout=RENDER_TIMEOUT_MS)
        assert not any("labextensions/jupyterlab-plotly/" in url for url in scripts)
        assert any("/workbook/static/plotly-basic.min.js" in url for url in scripts)
    finally:
        page.close()


def test_the_dashboards_start_plotlys_basic_bundle_and_load_the_cartesian_one_for_a_heatmap(browser, voila_server):
    """The charts' plotly.js is two of plotly's bundles of exactly the plotly.js version plotly.py
    ships (``tools/fetch_plotly.py``, run by ``make test``). The page's head asks for the basic
    one (bar, pie, scatter) once, as a preload, while the page connects to its kernel; the
    cartesian one is asked for once, when the first heatmap is drawn, and not before. Every trace
    drawn keeps its type (a trace type missing from the bundle that draws it would be drawn as an
    empty scatter), and the heatmap is drawn as one (its image in plotly's heatmap layer)."""
    import re

    import plotly

    shipped = (plotly.__path__[0] + "/package_data/plotly.min.js")
    with open(shipped, "rb") as f:
        version = re.search(rb"plotly\.js v([0-9][\w.+-]*)", f.read(400)).group(1).decode()
    for name, kind, most in (("plotly.min.js", "cartesian", 2_000_000), ("plotly-basic.min.js", "basic", 1_300_000)):
        with urllib.request.urlopen(f"{voila_server.url}workbook/static/{name}?v={plotly.__version__}") as response:
            served = response.read()
        assert served[:200].decode().find(f"plotly.js ({kind} - minified) v{version}") > 0, served[:200]
        assert len(served) < most

    page = browser.new_page()
    asked: list[str] = []
    page.on("request", lambda r: "/workbook/static/plotly" in r.url and asked.append(r.url))
    try:
        page.goto(f"{voila_server.url}voila/render/infinity-n4-dodge.ipynb", timeout=RENDER_TIMEOUT_MS)
        preload = page.evaluate("() => Array.from(document.querySelectorAll('head link[rel=preload][as=script]'))"
                                ".map(l => l.href).find(h => h.includes('/workbook/static/plotly'))")
        assert preload and "/workbook/static/plotly-basic.min.js?v=" in preload
        page.wait_for_selector(".wb-outcome-chart .js-plotly-plot", timeout=RENDER_TIMEOUT_MS)
        page.wait_for_timeout(500)
        assert asked == [preload], asked  # the cartesian bundle: not before a heatmap
        page.locator(".wb-view-heatmap-toggle").click()
        page.wait_for_function("() => Array.from(document.querySelectorAll('.js-plotly-plot'))"
                               ".some(p => p.querySelector('.heatmaplayer image'))",
                               timeout=RENDER_TIMEOUT_MS, polling=200)
        drawn = page.evaluate(_TRACE_TYPES)
        assert {asked_type for asked_type, _ in drawn} >= {"bar", "heatmap"}, drawn
        assert all(want == got for want, got in drawn), drawn
        assert len(asked) == 2 and asked[0] == preload, asked
        assert f"/workbook/static/plotly.min.js?v={plotly.__version__}" in asked[1], asked
    finally:
        page.close()


def test_a_chart_the_browser_could_not_set_up_is_announced_with_a_retry(browser, voila_server):
    """anywidget gives each widget 2 s to load its module; a browser far too busy misses that
    (seen under make load) and the chart would stay blank. Here every widget module's load never
    ends (its blob address is replaced by a module that waits for ever), so anywidget's own
    timeout fires: the page says a part could not be drawn, with a Retry button."""
    context = browser.new_context()
    context.add_init_script("""(() => {
        const make = URL.createObjectURL;
        URL.createObjectURL = function (blob) {
            if (blob && blob.type && blob.type.includes("javascript")) {
                return "data:text/javascript," + encodeURIComponent("await new Promise(() => {});");
            }
            return make.call(URL, blob);
        };
    })();""")
    page = context.new_page()
    try:
        page.goto(f"{voila_server.url}voila/render/d100-homebrew.ipynb", timeout=RENDER_TIMEOUT_MS)
        banner = page.locator("#wb-banner.wb-banner-error")
        banner.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
        assert "could not be drawn" in banner.inner_text()
        assert page.locator("#wb-banner button.wb-reconnect").inner_text() == "Retry"
        assert page.locator(".wb-outcome-chart .js-plotly-plot").count() == 0  # indeed not drawn
    finally:
        context.close()
