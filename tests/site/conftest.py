"""The static site (``make site``) in a real Chromium: built (or reused), served from 127.0.0.1,
every other host aborted.

They run in ``make test`` beside the other browser tests; on each pytest-xdist worker that
runs some of them, one server (the build's lock keeps two workers from building at once). ``DODGE_SITE_DIR=path`` serves an already built folder instead of building
``site/`` (e.g. one built with ``tools/site/build.py --extra-wheel`` for an experiment).

Fixtures (the Chromium is the browser tests' one, ``browser`` in tests/conftest.py, where
``returning_browser``, a reader's browser keeping its profile on disk, is too):

``site_folder``
    The folder the site is served from.
``static_site``
    The site's URL on a free 127.0.0.1 port (``python -m http.server``), under a sub-path
    (``/dodge/``) as on a host that serves it beside other things, built first with
    ``tools/site/build.py --if-stale`` (a few seconds when nothing changed; the first build on a
    machine downloads ~60 MB from PyPI and npm into ``~/.cache/dodge-workbook-site``).
``rule_site``, ``open_rule_site``
    The same for a site with the tests' own rule published (``make site
    RULES=tests/example_rule.py``), built in ``.site-build/site-with-rule``.
``open_static``
    ``open_static("infinity-n4-dodge.ipynb")`` opens a dashboard of the site in a fresh context
    and waits until its chart and table are drawn; returns the browser tests'
    :class:`~browser.conftest.DashboardPage`.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from browser.conftest import _DASHBOARD_READY, DashboardPage, ROOT

BUILD = ROOT / "tools" / "site" / "build.py"
#: The site of tests/site/test_rule_site.py: the tests' own rule published as a designer's would be
#: (``make site RULES=tests/example_rule.py``), built beside ``site/``.
RULE_SITE = ROOT / ".site-build" / "site-with-rule"
RULE_SITE_OPTIONS = ["--rule", str(ROOT / "tests" / "example_rule.py"), "--out", str(RULE_SITE)]
BUILD_TIMEOUT_S = 1200  # a first build downloads ~60 MB; a cached one takes ~20 s
RENDER_TIMEOUT_MS = 240_000  # the Python runtime starts in the page: ~10-25 s, more on a busy machine


def pytest_collection_finish(session: pytest.Session) -> None:
    """When the site's browser tests are to run, start building the site at once, in the
    background: a first build (downloads, its own virtualenv) takes minutes, which then pass
    while the rest of the suite runs, at a lower priority than the tests (``nice``), which need
    the machine's cores more. The fixture's own build waits for it (the build's lock) and finds
    the site up to date; its log is ``.site-build/background.log``."""
    if os.environ.get("DODGE_SITE_DIR") or session.config.option.collectonly:
        return
    names = {Path(str(item.fspath)).name for item in session.items}
    builds = [[]] if "test_static_site.py" in names else []
    builds += [RULE_SITE_OPTIONS] if "test_rule_site.py" in names else []
    if builds:
        (ROOT / ".site-build").mkdir(exist_ok=True)
        with open(ROOT / ".site-build" / "background.log", "a") as log:
            nice = ["nice", "-n", "10"] if shutil.which("nice") else []
            command = " && ".join(" ".join(map(shlex.quote, [*nice, sys.executable, str(BUILD), "--if-stale", *more]))
                                  for more in builds)  # one after the other (the build's lock)
            subprocess.Popen(["sh", "-c", command], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, start_new_session=True)


def _wait_until_serving(url: str, process: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the static server exited")
        try:
            with urllib.request.urlopen(url + "jupyter-lite.json", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the static server did not answer within {timeout} s")


@pytest.fixture(scope="module")
def site_folder() -> Path:
    """The folder served: ``DODGE_SITE_DIR``, or ``site/`` built first (``--if-stale``)."""
    folder = os.environ.get("DODGE_SITE_DIR")
    if folder:
        return Path(folder).resolve()
    subprocess.run([sys.executable, str(BUILD), "--if-stale"], check=True, cwd=ROOT, timeout=BUILD_TIMEOUT_S)
    return (ROOT / "site").resolve()


@pytest.fixture(scope="module")
def static_site(tmp_path_factory: pytest.TempPathFactory, site_folder: Path) -> Iterator[str]:
    yield from _serve(site_folder, tmp_path_factory)


@pytest.fixture(scope="module")
def rule_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a site with the tests' own rule published (``RULE_SITE``), built first."""
    subprocess.run([sys.executable, str(BUILD), "--if-stale", *RULE_SITE_OPTIONS], check=True, cwd=ROOT,
                   timeout=BUILD_TIMEOUT_S)
    yield from _serve(RULE_SITE, tmp_path_factory)


def _serve(folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``folder`` served by ``python -m http.server`` on 127.0.0.1 under ``/dodge/``."""
    host = tmp_path_factory.mktemp("host")
    (host / "dodge").symlink_to(folder, target_is_directory=True)
    # Port 0: the server binds a port the system gives it and says which (a port probed free
    # first could be taken by a starting kernel in between).
    process = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "--bind", "127.0.0.1",
                                "--directory", str(host), "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                               text=True)
    said = process.stdout.readline()  # "Serving HTTP on 127.0.0.1 port 41234 (http://...) ..."
    port = int(said.split(" port ")[1].split()[0])
    url = f"http://127.0.0.1:{port}/dodge/"
    try:
        _wait_until_serving(url, process)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture
def open_static(browser, static_site):
    yield from _opener(browser, static_site)


@pytest.fixture
def open_rule_site(browser, rule_site):
    """``open_static`` on the site with the tests' own rule."""
    yield from _opener(browser, rule_site)


def _opener(browser, static_site: str):
    contexts = []

    def open_(notebook: str, query: str = "", ready: str = _DASHBOARD_READY, width: int = 1280,
              height: int = 1000, again: DashboardPage | None = None) -> DashboardPage:
        """Open ``notebook`` in a browser of its own, or in the one that opened ``again``."""
        if again is None:
            context = browser.new_context(viewport={"width": width, "height": height})
            contexts.append(context)
        else:
            context = again.page.context
        page = context.new_page()
        url = notebook if notebook.startswith(static_site) else (
            f"{static_site}voici/render/{notebook.removesuffix('.ipynb')}.html" + (f"?{query}" if query else ""))
        dash = DashboardPage(page, url)
        dash.keep_to(context, static_site)  # the page's workers too (the Python runtime loads in one)
        page.on("console", lambda m: dash.console.append((m.type, m.text)))
        page.on("pageerror", lambda e: dash.console.append(("error", f"page error: {e}")))
        start = time.perf_counter()
        page.goto(url, timeout=RENDER_TIMEOUT_MS)
        page.wait_for_function(ready, timeout=RENDER_TIMEOUT_MS, polling=200)
        dash.load_seconds = time.perf_counter() - start
        return dash

    yield open_
    for context in contexts:
        context.close()
