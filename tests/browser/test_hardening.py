"""What a stranger can send the server (``server/voila_app.py``): hostile links, paths and
methods, and a flood of page requests. Every request gets a proper answer — never a 500, never a
traceback in the log, never markup of the stranger's on a page — and one address flooding the
server cannot keep a class out.

docs/deploy.md, "Hardening", lists what is defended; each item is checked here or in
tests/workbook/test_server_settings.py (the parts that need no running server)."""

from __future__ import annotations

import html
import http.client
import time
import urllib.parse
from fractions import Fraction

import pytest

import sys

from .conftest import LIGHT, RENDER_TIMEOUT_MS, ROOT, serving_folder
from rules_core import evaluate, get_system

sys.path.insert(0, str(ROOT / "tools"))
from browser_session import start_server  # noqa: E402

pytestmark = pytest.mark.browser

#: Markup and a script address a link might carry (a quote to leave an attribute, a tag, a scheme).
HOSTILE = ['"><script>window.__pwned=1</script>', "<img src=x onerror=window.__pwned=2>",
           "javascript:window.__pwned=3//", "' onmouseover='window.__pwned=4"]
PAGES = ["infinity-n4-dodge.ipynb", "gurps-4e.ipynb", "eldfall.ipynb", "d100-homebrew.ipynb",
         "compare-systems.ipynb", "index.ipynb"]


def _request(url: str, method: str = "GET", headers: dict | None = None, source: str | None = None,
             body: bytes | None = None, path: str | None = None) -> tuple[int, str, dict]:
    """One request (``path`` as sent, unencoded by this helper), from the loopback address
    ``source`` if given; (status, body text, headers)."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120,
                                            source_address=(source, 0) if source else None)
    try:
        target = path if path is not None else parts.path + (f"?{parts.query}" if parts.query else "")
        connection.putrequest(method, target, skip_accept_encoding=True)
        for name, value in (headers or {}).items():
            connection.putheader(name, value)
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        text = response.read().decode(errors="replace")
        return response.status, text, dict(response.getheaders())
    finally:
        connection.close()


def _log_since(server, offset: int) -> str:
    return server.log.read_bytes()[offset:].decode(errors="replace")


def _no_trouble_in(log: str) -> None:
    """No traceback, no uncaught exception and no 500 in the server's log."""
    bad = [line for line in log.splitlines()
           if "Traceback" in line or "Uncaught exception" in line or line.startswith("500 ")]
    assert not bad, "\n".join(bad[:10])


def _query(params: dict[str, str]) -> str:
    return urllib.parse.urlencode(params, quote_via=urllib.parse.quote)


@pytest.mark.parametrize("name", ["template", "theme"])
@pytest.mark.parametrize("value", ["nonexistent", "reveal", "dark", *HOSTILE])
def test_a_link_cannot_choose_the_page_template_or_theme(voila_server, name, value):
    """Refused at once (400, a page saying why, in the page's own words), with no kernel started,
    and the value written as text: the reflected script of the outside tester's report."""
    offset = voila_server.log.stat().st_size
    status, body, headers = _request(
        f"{voila_server.url}voila/render/eldfall.ipynb?{_query({'dodger.ag': '3', name: value})}")
    assert status == 400, body[:300]
    assert headers["Content-Type"].startswith("text/html")
    assert "This link cannot be opened" in body and f"remove “{name}=”" in body
    assert '<a class="wb-home" href="/">All dashboards</a>' in body
    assert html.escape(value) in body  # quoted as text
    assert "<script>window" not in body and "<img" not in body and "' onmouseover" not in body
    log = _log_since(voila_server, offset)
    # no kernel for this request; a pool's refill for an earlier test's page may start meanwhile
    assert "Starting a page kernel" not in log and "Using pre-heated kernel" not in log
    _no_trouble_in(log)


@pytest.mark.parametrize("notebook", PAGES)
def test_hostile_values_in_every_parameter_of_a_link_reach_the_raw_page_escaped(voila_server, notebook):
    """Every parameter a dashboard link takes (a preset, the language, present mode, field paths,
    a house rule, an unknown one, a hostile name), each with markup in it: the page is served
    (the dashboard's notice says what was refused) and none of it is in the page as markup."""
    params = {"preset": HOSTILE[0], "lang": HOSTILE[1], "present": HOSTILE[3], "dodger.ph": HOSTILE[0],
              "attackers.0.burst": HOSTILE[1], "variant.mod_cap": HOSTILE[2], "token": HOSTILE[0],
              HOSTILE[1]: HOSTILE[3]}
    offset = voila_server.log.stat().st_size
    status, body, _ = _request(f"{voila_server.url}voila/render/{notebook}?{_query(params)}")
    assert status == 200
    for value in HOSTILE:
        assert value not in body
    assert "<script>window.__pwned" not in body and "<img src=x" not in body
    _no_trouble_in(_log_since(voila_server, offset))


#: (method, path as sent, extra headers, allowed statuses): the outside tester's list and more.
STRANGE_REQUESTS = [
    ("GET", "/logout", {}, {200}),
    ("GET", "/login", {}, {404}),
    ("GET", "/voila/labextensions/", {}, {404}),
    ("GET", "/api/kernels/00000000-0000-0000-0000-000000000000/channels", {}, {404}),
    ("GET", "/api/kernels/00000000-0000-0000-0000-000000000000/channels",
     {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
      "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}, {403, 404}),
    ("GET", "/voila/static/%FF", {}, {400}),
    ("GET", "/voila/render/%FF.ipynb", {}, {400}),
    ("GET", "/voila/render/%C0%AF.ipynb", {}, {400}),
    ("GET", "/%22%3E%3Cscript%3Ewindow.__pwned=1%3C/script%3E", {}, {404}),
    ("GET", "/voila/render/%3Cscript%3Ewindow.__pwned=1%3C%2Fscript%3E.ipynb", {}, {404}),
    ("GET", "/voila/render/nope.ipynb", {}, {404}),
    ("GET", "/voila/render/eldfall.ipynb/%3Cimg%20src=x%3E", {}, {302, 404}),
    ("GET", "/voila/templates/lab/static/%3Cscript%3E.js", {}, {404}),
    ("GET", "/voila/templates/lab/nothing/x.js", {}, {404}),
    ("GET", "/workbook/static/%3Cscript%3E", {}, {404}),
    ("GET", "/workbook/static/plotly.min.js", {"Range": "bytes=999999999-"}, {416}),
    ("GET", "/workbook/static/plotly.min.js", {"Range": "bytes=5-1"}, {200, 416}),
    ("GET", "/workbook/static/plotly.min.js", {"Range": "nonsense"}, {200, 416}),
    ("GET", "/voila/api/shutdown/%3Cscript%3E", {}, {405}),
    ("POST", "/voila/api/shutdown/00000000-0000-0000-0000-000000000000", {}, {403}),
    ("POST", "/voila/render/eldfall.ipynb", {}, {403, 405}),
    ("PUT", "/voila/render/eldfall.ipynb", {}, {403, 405}),
    ("DELETE", "/api/kernels/00000000-0000-0000-0000-000000000000", {}, {403, 404, 405}),
    ("OPTIONS", "/voila/render/eldfall.ipynb", {}, {403, 405}),
    ("HEAD", "/voila/render/eldfall.ipynb", {}, {405}),
    ("GET", "/api/kernels", {}, {404}),
    ("GET", "/api/contents", {}, {404}),
    ("GET", "/api/sessions", {}, {404}),
    ("GET", "/voila/api/contents/../../etc/passwd", {}, {404}),
    ("GET", "/voila/files/index.ipynb", {}, {403, 404}),
    ("GET", "/voila/render/eldfall.ipynb?dodger.ag=%FF", {}, {200, 400}),
    ("GET", "/voila/render/eldfall.ipynb?template=%FF", {}, {400}),
    ("GET", "/" + "a" * 20_000, {}, {414}),
]


def test_strange_requests_get_a_proper_answer_and_leave_no_traceback(voila_server):
    """Each request gets an answer from its list (never a 500, never an empty error body), its
    answer carries none of its markup unescaped, and nothing it does writes a traceback."""
    offset = voila_server.log.stat().st_size
    for method, path, headers, allowed in STRANGE_REQUESTS:
        status, body, _ = _request(voila_server.url, method, headers, path=path,
                                   body=b"" if method in ("POST", "PUT") else None)
        assert status in allowed, (method, path[:80], status, body[:200])
        assert status < 400 or status == 416 or method == "HEAD" or body.strip(), (method, path[:80])
        assert "<script>window" not in body and "<img src=x" not in body, (method, path[:80])
    time.sleep(1)  # a handler may log after it answered
    _no_trouble_in(_log_since(voila_server, offset))


@pytest.mark.parametrize("query, status, said", [
    ("dodger.ag=3&q=" + "x" * 100_000, 414, "100,042 characters long; this server reads addresses of at most 8,192"),
    ("&".join(f"k{i}=v{i}" for i in range(5000)), 400, "5,000 fields (name=value pairs); this server reads at most 1,000"),
])
def test_an_oversized_link_gets_a_page_saying_what_is_allowed(voila_server, query, status, said):
    """The outside tester's oversized queries on a dashboard's address: a 100 kB query got an
    empty reply (the connection closed, no status), a 5,000-key one (49 kB) a bare 400 with no
    body and nothing in the log. Each gets its status, a short page saying what was too long and
    what is allowed, and one line in the log; no kernel starts."""
    offset = voila_server.log.stat().st_size
    got, body, headers = _request(f"{voila_server.url}voila/render/eldfall.ipynb?{query}")
    assert got == status, body[:300]
    assert headers["Content-Type"].startswith("text/html") and said in body, body[:600]
    assert '<a class="wb-home" href="/">All dashboards</a>' in body
    time.sleep(0.5)
    log = _log_since(voila_server, offset)
    assert len([line for line in log.splitlines() if "Refused a request from 127.0.0.1" in line]) == 1, log
    assert "Starting a page kernel" not in log and "Using pre-heated kernel" not in log  # (pools may refill)
    _no_trouble_in(log)


def test_no_script_from_a_link_runs_on_a_dashboard(open_dashboard):
    """In a real browser: a link whose every parameter carries markup opens the default scenario
    with a notice quoting it as text; no dialog opens, no script or handler of the link's runs,
    and the share link is this server's address."""
    params = {"preset": HOSTILE[0], "lang": HOSTILE[1], "dodger.ph": HOSTILE[1], "present": HOSTILE[3],
              "variant.mod_cap": HOSTILE[2]}
    dialogs: list[str] = []
    dash = open_dashboard("infinity-n4-dodge.ipynb", query=_query(params))
    dash.page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    notices = " ".join(dash.notices())
    assert "<script>window.__pwned=1" in notices or "<img src=x" in notices, notices  # shown as text
    dash.page.mouse.move(200, 200)
    dash.page.wait_for_timeout(500)
    assert dash.page.evaluate("() => window.__pwned") is None
    assert dash.page.evaluate("""() => document.querySelectorAll('img[src=x], [onmouseover]').length
        + Array.from(document.querySelectorAll('script')).filter(s => s.textContent.includes('__pwned')).length""") == 0
    assert dialogs == []
    assert dash.share_link().startswith("http://127.0.0.1:")
    table = dash.table()
    assert table == {k: Fraction(v) for k, v in evaluate(get_system("infinity-n4").default_scenario()).outcome_rows()}


def _kernel_of(body: str) -> str:
    return body.split('"kernelId": "', 1)[1].split('"', 1)[0]


def _shutdown(server, kernel_id: str, cookie: str) -> int:
    """A page's own shutdown request for its kernel (what its tab sends as it closes)."""
    xsrf = cookie.split("_xsrf=", 1)[1].split(";", 1)[0]
    status, _, _ = _request(server.url, "POST", {"Cookie": f"_xsrf={xsrf}",
                                                  "Content-Type": "application/x-www-form-urlencoded"},
                            body=f"_xsrf={xsrf}".encode(), path=f"/voila/api/shutdown/{kernel_id}")
    return status


def test_one_address_flooding_the_server_cannot_keep_a_class_out(browser, tmp_path):
    """A cap of 3 kernels, at most 2 per address. A flood of page requests from one address
    (127.0.0.3; requests that never open their websocket) gets its 2 pages and then a 429 saying
    why (at once here: ``--place-wait=0``); a student at another address (127.0.0.4) still gets
    the third place; the next visitor (a browser, 127.0.0.1) finds the server full, counted
    right, with a retry button;
    once a place frees (the student's tab closes), the browser's retry opens a dashboard showing
    the core's numbers, having said it was loading the page. (Releases are held off here, so
    the counts cannot race them: the next test releases. The flood and the student ask for a
    page of one widget: the server counts every page alike, and its kernel starts in a second.)"""
    folder = serving_folder(tmp_path / "served", "eldfall.ipynb")
    server = start_server(tmp_path / "flood.log", "--pool=0", "--max-kernels=3", "--max-per-address=2",
                          "--never-connected-timeout=600", "--place-wait=0", notebooks=folder)
    try:
        flood = [_request(f"{server.url}voila/render/{LIGHT}", source="127.0.0.3") for _ in range(6)]
        assert [status for status, _, _ in flood] == [200, 200, 429, 429, 429, 429]
        status, body, headers = flood[2]
        assert "Too many dashboards open" in body and "2 dashboards are counted" in body
        assert headers.get("Retry-After") == "30"

        status, body, headers = _request(f"{server.url}voila/render/{LIGHT}", source="127.0.0.4")
        assert status == 200  # the class is served beside the flood
        student = _kernel_of(body)

        page = browser.new_page()
        asked: list[str] = []
        page.on("request", lambda r: "/workbook/seen/" in r.url and asked.append(r.url))
        try:
            response = page.goto(server.url + "voila/render/eldfall.ipynb", timeout=RENDER_TIMEOUT_MS)
            assert response.status == 503 and response.headers.get("retry-after") == "60"
            assert "3 dashboards are open" in page.locator("body").inner_text()
            assert _shutdown(server, student, headers["Set-Cookie"]) == 204
            _wait_for(server, f"Kernel shutdown: {student}")
            page.locator("button.wb-retry").click()
            page.wait_for_selector(".wb-table td[data-col=exact]", timeout=RENDER_TIMEOUT_MS)
            shown = page.evaluate("""() => Object.fromEntries(Array.from(document.querySelectorAll(
                '.wb-table tr[data-key]')).map(r => [r.dataset.key, r.querySelector('td[data-col=exact]').textContent]))""")
            expected = dict(evaluate(get_system("eldfall").default_scenario()).outcome_rows())
            assert {k: Fraction(v) for k, v in shown.items()} == expected
            # the browser said it was loading the page (its kernel then waits for a busy browser)
            kernel = page.evaluate("() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")
            assert asked == [f"{server.url}workbook/seen/{kernel}"]
        finally:
            page.close()
        _no_trouble_in(server.log.read_text())
    finally:
        server.stop()


def test_a_page_no_browser_loads_releases_its_kernel(tmp_path):
    """A page request read by a script that never runs the page: its kernel is released once
    the never-connected timeout (5 s here; 30 s by default) has passed since the page was sent,
    at the culler's next round (every 2 s here, 10 s by default), and the log says why. (A page
    of one widget: any page's kernel is released alike.)"""
    server = start_server(tmp_path / "never.log", "--pool=0", "--never-connected-timeout=5",
                          "--MappingKernelManager.cull_interval=2", notebooks=serving_folder(tmp_path / "served"))
    try:
        status, body, _ = _request(f"{server.url}voila/render/{LIGHT}", source="127.0.0.3")
        assert status == 200
        kernel = _kernel_of(body)
        _wait_for(server, f"Releasing kernel {kernel}: no browser connected in")
        log = _wait_for(server, f"Kernel shutdown: {kernel}")
        assert f"Releasing kernel {kernel}: no browser connected in" in log and "(none loaded the page)" in log
        _no_trouble_in(log)
    finally:
        server.stop()


def _wait_for(server, text: str, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    while text not in (log := server.log.read_text()):
        assert time.monotonic() < deadline, f"{text!r} not in the server's log after {timeout} s"
        time.sleep(0.3)
    return log
