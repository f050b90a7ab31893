"""A reader who closes pages is never refused (``server/voila_app.py``, the per-address count).

One client address may have at most ``--max-per-address`` pages (10) counted at once: a page
counts while it is being sent, while its kernel waits for the browser's first connection, and
while a browser is connected to it. Closing a tab frees its place at once, whether the browser
sends the shutdown beacon (``beforeunload``, or ``pagehide`` as phones do) or not at all (a
crashed tab, a phone's browser swiped away, a dropped connection: the websocket closes). Here
one reader's browser (``returning_browser``: its profile, cache included, kept on disk) at
127.0.0.1 meets one server with the default limit of 10, serving the index, two dashboards and
a page of one widget: the outside tester's case flips between the index, the dashboards and
that page; the others use that page alone (the server counts every page alike, and that page
opens quickly). docs/deploy.md, "What a page counts", says what is counted."""

from __future__ import annotations

import sys
import time
from fractions import Fraction

import pytest

from .conftest import LIGHT, LIGHT_READY, RENDER_TIMEOUT_MS, ROOT, serving_folder
from rules_core import evaluate, get_system

sys.path.insert(0, str(ROOT / "tools"))
from browser_session import DASHBOARD_READY, start_server  # noqa: E402

pytestmark = pytest.mark.browser

#: What a reader flips between: the index of dashboards, two dashboards and the light page, in
#: turn (each with a pool, so most opens are quick).
PAGES = ("index.ipynb", LIGHT, "eldfall.ipynb", LIGHT, "d100-homebrew.ipynb", LIGHT)
SYSTEMS = {"eldfall.ipynb": "eldfall", "d100-homebrew.ipynb": "d100-homebrew"}
INDEX_READY = "() => Boolean(document.querySelector('.wb-index a'))"
#: A browser that sends no beacon at all (its tab crashed, or a phone's browser fired neither
#: beforeunload nor pagehide): only the websocket's close tells the server.
NO_BEACON = "navigator.sendBeacon = () => true;"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The server with its default per-address limit (10) and release times, serving a folder
    with the index, the two dashboards and :data:`~.conftest.LIGHT`."""
    folder = serving_folder(tmp_path_factory.mktemp("places"), "index.ipynb", *SYSTEMS)
    started = start_server(folder / "places.log", "--pool=0",
                           f"--pools={LIGHT}=3,index.ipynb=1,eldfall.ipynb=1,d100-homebrew.ipynb=1",
                           "--max-kernels=30", "--max-per-address=10", notebooks=folder)
    yield started
    started.stop()


def _open(browser, server, notebook: str, beacon: bool = True):
    """A new tab of the reader's ``browser`` opening ``notebook``: (page, response); drawn, a
    dashboard with the core's numbers, when the status is 200. Without ``beacon``, the tab never
    sends the shutdown beacon (:data:`NO_BEACON`)."""
    page = browser.new_page()
    try:
        if not beacon:
            page.add_init_script(NO_BEACON)
        response = page.goto(f"{server.url}voila/render/{notebook}", timeout=RENDER_TIMEOUT_MS)
        if response.status == 200:
            _drawn(page, notebook)
    except BaseException:
        page.close()  # the reader's browser lives on: no tab of a failed open is left counting
        raise
    return page, response


def _drawn(page, notebook: str) -> None:
    """Wait until ``notebook``'s page is drawn; a dashboard's table must be the core's."""
    if notebook in (LIGHT, "index.ipynb"):
        page.wait_for_function(LIGHT_READY if notebook == LIGHT else INDEX_READY,
                               timeout=RENDER_TIMEOUT_MS, polling=100)
        return
    page.wait_for_function(DASHBOARD_READY, timeout=RENDER_TIMEOUT_MS, polling=100)
    assert _table(page) == _core_table(notebook), notebook


def _kernel(page) -> str:
    return page.evaluate("() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")


def _table(page) -> dict[str, Fraction]:
    shown = page.evaluate("""() => Object.fromEntries(Array.from(document.querySelectorAll(
        '.wb-table tr[data-key]')).map(r => [r.dataset.key, r.querySelector('td[data-col=exact]').textContent]))""")
    return {key: Fraction(value) for key, value in shown.items()}


def _core_table(notebook: str) -> dict[str, Fraction]:
    return dict(evaluate(get_system(SYSTEMS[notebook]).default_scenario()).outcome_rows())


def _wait_for(server, text: str, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while text not in server.log.read_text():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True


def _open_and_close_fifteen(browser, server, pages: tuple[str, ...], beacon: bool) -> None:
    """Open fifteen pages one after another in the reader's browser, each closed once drawn:
    with the beacon of a desktop browser's close (beforeunload), or with none at all."""
    offset = server.log.stat().st_size
    for i in range(15):
        page, response = _open(browser, server, pages[i % len(pages)], beacon)
        try:
            assert response.status == 200, (i + 1, page.locator("body").inner_text()[:300])
            kernel = _kernel(page)
        finally:
            page.close(run_before_unload=beacon)
        if beacon:
            page.wait_for_event("close")
            # (the beacon shut the kernel down: nothing waits for a timeout)
            assert _wait_for(server, f"Kernel shutdown: {kernel}", 20), kernel
    log = server.log.read_bytes()[offset:].decode(errors="replace")
    assert "Refused" not in log and " 429 " not in log


def test_fifteen_dashboards_closed_without_a_beacon_all_render(returning_browser, server):
    """The outside tester's case: fifteen pages (the index, two dashboards and the light page in
    turn) opened one after another from one address, each closed once drawn with no beacon at
    all (a crashed tab, a phone's browser swiped away: only the websocket's close tells the
    server). Every one renders, each dashboard with the core's numbers: the 11th was refused
    with 429 when closed pages kept counting."""
    _open_and_close_fifteen(returning_browser, server, PAGES, beacon=False)


def test_fifteen_pages_closed_with_beforeunload_all_render(returning_browser, server):
    """The same fifteen opens and closes, each tab closed the way a desktop browser does
    (beforeunload: Voilà's beacon shuts the kernel down at once); light pages here."""
    _open_and_close_fifteen(returning_browser, server, (LIGHT,), beacon=True)


def test_eleven_pages_held_open_are_refused_at_the_eleventh_and_a_reload_counts_once(returning_browser, server):
    """Ten tabs open and connected take the address's share: the 11th page gets 429, its words
    saying what is counted and that closing a tab frees a place. A reload of an open tab still
    opens (it is the same page, not an 11th), and the address still counts ten; once a tab
    closes (here with no beacon: its websocket's close is enough), the 11th opens."""
    url = f"{server.url}voila/render/{LIGHT}"
    pages = []
    try:
        for i in range(10):
            page, response = _open(returning_browser, server, LIGHT, beacon=False)
            pages.append(page)
            assert response.status == 200, (i + 1, page.locator("body").inner_text()[:300])
        eleventh, response = _open(returning_browser, server, LIGHT, beacon=False)
        pages.append(eleventh)
        assert response.status == 429 and response.headers.get("retry-after") == "30"
        said = eleventh.locator("body").inner_text()
        assert "10 dashboards are counted from your computer" in said, said
        assert "while its tab is open and connected" in said and "its place frees at once" in said

        reloaded = pages[3]
        response = reloaded.reload(timeout=RENDER_TIMEOUT_MS)
        assert response.status == 200, reloaded.locator("body").inner_text()[:300]
        _drawn(reloaded, LIGHT)
        response = eleventh.goto(url, timeout=RENDER_TIMEOUT_MS)
        assert response.status == 429 and "10 dashboards are counted" in eleventh.locator("body").inner_text()

        pages.pop(0).close()
        response = eleventh.goto(url, timeout=RENDER_TIMEOUT_MS)
        assert response.status == 200
        _drawn(eleventh, LIGHT)
    finally:
        for page in pages:
            page.close()


def test_a_page_hidden_without_beforeunload_releases_its_kernel_at_once(returning_browser, server):
    """A phone's browser fires pagehide, not beforeunload, when a tab is swiped away: the page
    then sends the shutdown beacon itself, and the kernel goes at once instead of after the
    server's disconnected timeout (30 s) and the culler's round."""
    page, response = _open(returning_browser, server, "d100-homebrew.ipynb")
    try:
        assert response.status == 200
        kernel = _kernel(page)
    finally:
        closed = time.monotonic()
        page.close()  # Playwright runs no beforeunload handler here; pagehide fires
    assert _wait_for(server, f"Kernel shutdown: {kernel}", 20), kernel
    assert time.monotonic() - closed < 20
