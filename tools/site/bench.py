"""Measure the static site in Chromium (``make bench-site``): first headline and first
interactive, cold and warm, a control change, and what the first dashboard transfers, each
against the project's targets (``TARGETS``).

The site (``site/``, or ``--site DIR``) is served by ``python -m http.server`` on 127.0.0.1;
no other host name resolves (Chromium's ``--host-resolver-rules``). *First interactive*: page
request → the dashboard's chart and table drawn; *first headline*: page request → the headline's
exact value shown. The browser has a profile on disk, as a
reader's browser has: *cold* is the first visit (empty caches), *warm* the same page opened
again (``--warm`` times, the median reported), then a further dashboard; for those, the bytes
that came over the network. Playwright's own contexts would not do: requests routed through
Playwright bypass the HTTP cache, and a fresh context (like a private window) kept the files but
not the code the browser compiled from them (a second visit there took as long as the first).
*Transfer*: every
file the page asked for, as sent uncompressed and as a host that compresses would send it: gzip
-6, what most static hosts (GitHub Pages among them) send, and brotli (quality 11), which only
some send; wheels and other archives barely compress. Then a designer's rule
evaluated and swept in the site's Pyodide beside icepool (tools/site/bench_design.py; not with
``--no-design``). Prints a Markdown report.

Run with the project's virtualenv (Playwright, brotli): ``.venv/bin/python tools/site/bench.py``.
"""

from __future__ import annotations

import argparse
import gzip
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from browser.conftest import _DASHBOARD_READY, CHROMIUM, CHROMIUM_FLAGS, OWN_HOST_ONLY, _free_port  # noqa: E402

TIMEOUT_MS = 300_000
#: What a dashboard's first open may cost (docs/deploy.md, "Measured"): seconds to the first
#: headline, cold and warm, and megabytes fetched as gzip -6.
TARGETS = {"cold": 5.0, "warm": 2.5, "gzip": 10.0}
_ERROR = '[data-mime-type="application/vnd.jupyter.stderr"]'
_HEADLINE = """() => { const c = document.querySelector('.wb-headline [data-key=p_dodge_succeeds] [data-col=exact]');
    return c ? (c.dataset.value ?? c.textContent) : null; }"""


def compressed(path: Path) -> tuple[int, int]:
    """The file's size as gzip -6 and as brotli (quality 11; gzip's again without brotli)."""
    data = path.read_bytes()
    gzipped = len(gzip.compress(data, 6))
    try:
        import brotli
    except ImportError:
        return gzipped, gzipped
    return gzipped, len(brotli.compress(data, quality=11))


def serve(folder: Path) -> tuple[str, subprocess.Popen]:
    port = _free_port()
    process = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1",
                                "--directory", str(folder), str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    for _ in range(100):
        try:
            urllib.request.urlopen(url + "jupyter-lite.json", timeout=2).close()
            return url, process
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("static server did not start")


def open_page(context, url: str, base: str, requested: list[str], received: list[int] | None = None):
    """Open ``url``; ``requested`` gets every URL asked for, ``received`` the bytes of each
    response body that came over the network (0 for a 304 or one the browser's cache served).
    Returns the seconds to the first headline and to the first interactive, and the page."""
    page = context.new_page()
    page.on("request", lambda r: requested.append(r.url))
    if received is not None:
        page.on("requestfinished", lambda r: received.append(max(0, r.sizes()["responseBodySize"])))
    start = time.perf_counter()
    page.goto(url, timeout=TIMEOUT_MS)
    page.wait_for_function(f"() => ({_HEADLINE})() !== null || Boolean(document.querySelector({_ERROR!r}))",
                           timeout=TIMEOUT_MS, polling=20)
    headline = time.perf_counter() - start
    page.wait_for_function(f"() => ({_DASHBOARD_READY})() || Boolean(document.querySelector({_ERROR!r}))",
                           timeout=TIMEOUT_MS, polling=50)
    seconds = time.perf_counter() - start
    error = page.locator(_ERROR)
    if error.count():
        raise SystemExit(f"the dashboard failed in the browser:\n{error.first.inner_text()[-1500:]}")
    return headline, seconds, page


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    parser.add_argument("--notebook", default="infinity-n4-dodge")
    parser.add_argument("--changes", type=int, default=10, help="slider moves timed")
    parser.add_argument("--further", default="eldfall", help="a second dashboard opened after the first")
    parser.add_argument("--warm", type=int, default=3, help="warm visits timed")
    parser.add_argument("--no-design", action="store_true",
                        help="leave out a designer's rule in the site's Pyodide (tools/site/bench_design.py)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    base, server = serve(args.site)
    profile = tempfile.mkdtemp(prefix="bench-site-profile-")
    url = f"{base}voici/render/{args.notebook}.html"
    try:
        with sync_playwright() as playwright:
            context = playwright.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, viewport={"width": 1280, "height": 1000},
                args=[*CHROMIUM_FLAGS, OWN_HOST_ONLY])
            cold_requests: list[str] = []
            cold_headline, cold, page = open_page(context, url, base, cold_requests)
            changes = []
            for i in range(args.changes):
                before = page.evaluate(_HEADLINE)
                start = time.perf_counter()
                page.locator(".wb-dodger-ph .noUi-handle").press("ArrowLeft" if i % 2 else "ArrowRight")
                page.wait_for_function(f"() => ({_HEADLINE})() !== {before!r}", timeout=60_000, polling=10)
                changes.append(time.perf_counter() - start)
            page.close()
            warms, warm_headlines = [], []
            for _ in range(args.warm):
                warm_requests: list[str] = []
                warm_bytes: list[int] = []
                headline, seconds, page = open_page(context, url, base, warm_requests, warm_bytes)
                warms.append(seconds)
                warm_headlines.append(headline)
                page.close()
            warm, warm_headline = statistics.median(warms), statistics.median(warm_headlines)
            further_bytes: list[int] = []
            _, further, page = open_page(context, f"{base}voici/render/{args.further}.html", base, [], further_bytes)
            context.close()
    finally:
        server.terminate()
        shutil.rmtree(profile, ignore_errors=True)

    files = {}
    for request in cold_requests:
        if request.startswith(base):
            path = args.site / unquote(urlsplit(request).path.lstrip("/"))
            if path.is_dir():
                path = path / "index.html"
            if path.is_file():
                files[path] = compressed(path)
    raw = sum(p.stat().st_size for p in files)
    gz = sum(g for g, _ in files.values())
    br = sum(b for _, b in files.values())
    load = os.getloadavg()[0]
    p95 = sorted(changes)[max(0, int(round(0.95 * len(changes))) - 1)]
    print(f"## {args.notebook} (load average {load:.1f} on {os.cpu_count()} cores)\n")
    print("| measure | measured | target | met |\n| --- | --- | --- | --- |")
    for name, value, target, unit in (("first headline, cold cache", cold_headline, TARGETS["cold"], "s"),
                                      (f"first headline, warm cache, median of {len(warms)}", warm_headline,
                                       TARGETS["warm"], "s"),
                                      ("first open's files as gzip -6", gz / 1e6, TARGETS["gzip"], "MB")):
        print(f"| {name} | {value:.1f} {unit} | ≤ {target:g} {unit} | {'yes' if value <= target else 'no'} |")
    print(f"\nWarm first headlines: {', '.join(f'{s:.1f}' for s in warm_headlines)} s.\n")
    print("| measure | value |\n| --- | --- |")
    print(f"| first interactive, cold cache | {cold:.1f} s |")
    print(f"| first interactive, warm cache, median of {len(warms)} | {warm:.1f} s "
          f"({', '.join(f'{s:.1f}' for s in warms)}) |")
    print(f"| PH slider key press → headline changed, median / p95 of {len(changes)} | "
          f"{statistics.median(changes) * 1000:.0f} ms / {p95 * 1000:.0f} ms |")
    print(f"| files requested (cold) | {len(files)} |")
    print(f"| transfer uncompressed / gzip / brotli | {raw / 1e6:.1f} / {gz / 1e6:.1f} / {br / 1e6:.1f} MB |")
    print(f"| the same page again: requests / bytes received | {len(warm_requests)} / "
          f"{sum(warm_bytes) / 1e6:.2f} MB |")
    print(f"| a further dashboard ({args.further}) in the same browser: first interactive / bytes "
          f"received | {further:.1f} s / {sum(further_bytes) / 1e6:.2f} MB |\n")
    print("Largest files (brotli):\n\n| file | uncompressed | brotli |\n| --- | --- | --- |")
    for path, (_, b) in sorted(files.items(), key=lambda kv: -kv[1][1])[:12]:
        print(f"| {path.relative_to(args.site)} | {path.stat().st_size / 1e6:.2f} MB | {b / 1e6:.2f} MB |")
    if not args.no_design:
        from bench_design import report
        print(f"\n{report(args.site)}")


if __name__ == "__main__":
    main()
