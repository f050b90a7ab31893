"""A class on one machine (``make load``): N dashboard sessions arriving over a few seconds.

Starts the workbook's server on a free 127.0.0.1 port (``--pool`` preheated kernels per notebook,
``--pools`` for given notebooks, ``--max-kernels`` cap), waits until its pools are filled and
then ``--settle`` seconds (a class arrives a while after its server started), then opens
``--sessions`` pages (default
30) in one headless Debian Chromium, one every ``--ramp``/N seconds, the four dashboards in
turn. Each session waits for its dashboard to be drawn (outcome chart and table), presses an
arrow key on a slider and waits for the headline, table and chart to change, stays open
``--hold`` seconds, then closes its tab (as a reader would: the page's unload handlers run).

Reports how many pages rendered, render time (median, p95), control-change latency under load,
peak kernels and memory (server and kernels, sampled every second), the kernels left
``--after`` seconds after the last page closed (beyond the preheated pools), the server's own
time per page from its log (kernel start and notebook run: what a class whose students each
have their own device would wait for), and every error in the server log or a browser console.

Each visitor is a device of its own: the server trusts a proxy's ``X-Real-IP`` here
(``--trust-xheaders``), and each browser context sends its own loopback address in it
(127.0.1.N), so the per-address limit (``--max-per-address``) applies per visitor as on a LAN.
``--flood N`` adds a stranger: N page requests from one other address (127.0.2.1) spread over
the ramp, none of which ever opens its websocket (a loop of ``curl``), to show what the class
gets while one address floods the server.

Bounded: every wait has a timeout, the run stops by itself, only 127.0.0.1 is contacted, and
the server is stopped at the end by its own process id. ``--write PATH`` writes the Markdown.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from docs_page import write_keeping_notes  # noqa: E402
from browser_session import (CHROMIUM, CHROMIUM_FLAGS, DASHBOARD_READY, DASHBOARDS,  # noqa: E402
                             PANELS_CHANGED, PANELS_SNAPSHOT, machine_load, percentile, start_server,
                             wait_for_pools)

RENDER_TIMEOUT_MS = 300_000
CHANGE_TIMEOUT_MS = 60_000
SLIDERS = {"infinity-n4-dodge.ipynb": "wb-dodger-ph", "gurps-4e.ipynb": "wb-target-dr",
           "eldfall.ipynb": "wb-defender-ag", "d100-homebrew.ipynb": "wb-defender-agility"}


@dataclass
class Session:
    """What happened to one visitor."""

    number: int
    notebook: str
    render: float | None = None
    change: float | None = None
    error: str = ""
    console: list[str] = field(default_factory=list)


class Sampler:
    """Every second: the server's kernels (its child processes) and their memory with its own."""

    def __init__(self, server_pid: int):
        self.pid = server_pid
        self.samples: list[tuple[float, int, int]] = []  # (time, kernels, RSS bytes of all)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    @staticmethod
    def _rss(pid: int) -> int:
        try:
            with open(f"/proc/{pid}/status") as f:
                return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1)) * 1024
        except (OSError, AttributeError):
            return 0

    def kernels(self) -> list[int]:
        """Process ids of the server's kernels."""
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
                if parent == self.pid:
                    with open(f"/proc/{entry}/cmdline", "rb") as f:
                        if b"ipykernel" in f.read():
                            found.append(int(entry))
            except (OSError, ValueError, IndexError):
                continue
        return found

    def _run(self) -> None:
        while not self._stop.is_set():
            kernels = self.kernels()
            rss = self._rss(self.pid) + sum(self._rss(k) for k in kernels)
            self.samples.append((time.monotonic(), len(kernels), rss))
            self._stop.wait(1.0)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


async def visit(browser, base: str, number: int, notebook: str, delay: float, hold: float) -> Session:
    """One visitor: open, wait for the dashboard, change a control, stay, close the tab."""
    await asyncio.sleep(delay)
    session = Session(number, notebook)
    context = await browser.new_context(viewport={"width": 1280, "height": 900},
                                        extra_http_headers={"X-Real-IP": f"127.0.1.{number}"})
    page = await context.new_page()

    def asked(request):  # watched, not intercepted (see browser_session); the browser resolves no other host
        if not request.url.removeprefix("blob:").startswith(("http://127.0.0.1:", "data:")):
            session.console.append(f"request to another host refused: {request.url}")

    page.on("request", asked)
    page.on("console", lambda m: m.type == "error" and session.console.append(m.text[:300]))
    page.on("pageerror", lambda e: session.console.append(f"page error: {str(e)[:300]}"))
    start = time.perf_counter()
    try:
        await page.goto(f"{base}voila/render/{notebook}", timeout=RENDER_TIMEOUT_MS)
        await page.wait_for_function(DASHBOARD_READY, timeout=RENDER_TIMEOUT_MS, polling=100)
        session.render = time.perf_counter() - start
        handle = page.locator(f".{SLIDERS[notebook]} .noUi-handle")
        before = await page.evaluate(PANELS_SNAPSHOT)
        start = time.perf_counter()
        await handle.press("ArrowRight")
        await page.wait_for_function(PANELS_CHANGED, arg=before, timeout=CHANGE_TIMEOUT_MS, polling="raf")
        session.change = time.perf_counter() - start
        if await page.locator("#wb-banner").count():
            session.error = "banner: " + (await page.locator("#wb-banner").inner_text())[:200]
        await asyncio.sleep(hold)
    except Exception as err:  # a page that never renders is a result: was the reader told?
        said = ""
        if not page.is_closed():
            if await page.locator("body.wb-server-full").count():
                said = "the 'server is full' page"
            elif await page.locator("#wb-banner").count():
                said = "a notice: " + (await page.locator("#wb-banner").inner_text())[:120]
        session.error = (f"{type(err).__name__}: {str(err).splitlines()[0][:120]}; "
                         f"the page showed {said or 'no notice (silent)'}")
    finally:
        try:
            await page.close(run_before_unload=True)
            await asyncio.sleep(0.5)
        finally:
            await context.close()
    return session


def flood(base: str, requests: int, ramp: float, counts: dict[int, int]) -> None:
    """``requests`` page requests from one address, spread over ``ramp`` seconds, each read to
    its end and never connected (what a loop of ``curl`` does); ``counts``: status -> how many."""
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(base)
    for i in range(requests):
        notebook = DASHBOARDS[i % len(DASHBOARDS)]
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)
        try:
            connection.request("GET", f"/voila/render/{notebook}", headers={"X-Real-IP": "127.0.2.1"})
            response = connection.getresponse()
            response.read()
            counts[response.status] = counts.get(response.status, 0) + 1
        except OSError:
            counts[0] = counts.get(0, 0) + 1
        finally:
            connection.close()
        time.sleep(ramp / max(requests, 1))


async def class_of(base: str, sessions: int, ramp: float, hold: float) -> list[Session]:
    """Every visitor of the class, arriving evenly over ``ramp`` seconds."""
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        notebooks = list(DASHBOARDS)
        tasks = [visit(browser, base, i + 1, notebooks[i % len(notebooks)], i * ramp / max(sessions, 1), hold)
                 for i in range(sessions)]
        done = await asyncio.gather(*tasks)
        await browser.close()
    return list(done)


def _served(log_text: str) -> list[float]:
    return [float(s) for s in re.findall(r"Page /voila/render/[^ ]+ served in ([\d.]+) s", log_text)]


def _stats(values: list[float]) -> str:
    if not values:
        return "—"
    return f"{statistics.median(values):.2f} s median, {percentile(values, 95):.2f} s p95, max {max(values):.2f} s"


def run(args) -> str:
    workdir = Path(tempfile.mkdtemp(prefix="load-"))
    server = start_server(workdir / "server.log", f"--pool={args.pool}", f"--pools={args.pools}",
                          f"--max-kernels={args.max_kernels}", f"--max-per-address={args.per_address}",
                          "--trust-xheaders=True")
    sampler = Sampler(server.process.pid)
    try:
        names = [p.name for p in (Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb")]
        sizes = {name: args.pool for name in names} | {
            name: int(size) for name, _, size in (item.strip().rpartition("=") for item in args.pools.split(",") if item.strip())}
        preheated = [name for name, size in sizes.items() if size > 0]
        pools_ready = wait_for_pools(server, len(preheated)) if preheated else True
        time.sleep(args.settle)  # a class arrives a while after the server started, not at once
        load_start = machine_load()
        sampler.start()
        kernels_before = len(sampler.kernels())
        started = time.monotonic()
        flooded: dict[int, int] = {}
        stranger = threading.Thread(target=flood, args=(server.url, args.flood, args.ramp, flooded), daemon=True)
        stranger.start()
        sessions = asyncio.run(class_of(server.url, args.sessions, args.ramp, args.hold))
        stranger.join(timeout=300)
        closed_at = time.monotonic()
        load_peak_end = machine_load()
        time.sleep(args.after)
        left = len(sampler.kernels())
        sampler.stop()
        log_text = server.log.read_text(errors="replace")
    finally:
        sampler.stop()
        server.stop()
    pooled = sum(sizes.values())
    rendered = [s for s in sessions if s.render is not None]
    changes = [s.change for s in sessions if s.change is not None]
    peak_kernels = max((k for _, k, _ in sampler.samples), default=0)
    peak_rss = max((r for _, _, r in sampler.samples), default=0)
    problems = [line for line in log_text.splitlines()
                if re.search(r"Traceback|\bERROR\b|\[E |Timeout waiting|Server full|Exception", line)]
    console = [f"session {s.number} ({s.notebook}): {c}" for s in sessions for c in s.console]
    failures = [f"session {s.number} ({s.notebook}): {s.error}" for s in sessions if s.error]
    served = _served(log_text)
    rows = [
        ("sessions opened", f"{args.sessions} over {args.ramp:.0f} s, the four dashboards in turn; "
                            f"each held {args.hold:.0f} s after its change, then closed"),
        ("server settings", f"{args.pool} preheated kernel(s) per notebook"
                            + (f", {args.pools.replace(',', ', ')}" if args.pools else "")
                            + f" ({pooled} in all), at most {args.max_kernels} kernels in all, "
                            + f"{args.per_address or 'no limit of'} per address"),
        ("a stranger flooding from one address", "none" if not args.flood else
         f"{args.flood} page requests never connected, over the ramp: "
         + ", ".join(f"{n} answered {status or 'no answer'}" for status, n in sorted(flooded.items()))),
        ("pools filled before the first visitor", ("yes" if pools_ready else "no (timed out)")
         + f", then {args.settle:.0f} s before the class arrived"),
        ("rendered", f"{len(rendered)}/{args.sessions}"),
        ("time to render in the browser (page request → chart and table drawn)",
         _stats([s.render for s in rendered])),
        ("control change under load (key press → headline, table and chart updated)", _stats(changes)),
        ("server's own time per page (its log: request → page sent, kernel start and notebook run included)",
         _stats(served)),
        ("peak kernels", f"{peak_kernels} (before the class: {kernels_before})"),
        ("peak memory, server and kernels (RSS)", f"{peak_rss / 2**30:.2f} GiB"),
        (f"kernels left {args.after:.0f} s after the last page closed", f"{left} ({left - pooled} beyond the pools)"),
        ("errors in the server log", str(len(problems))),
        ("errors in browser consoles", str(len(console))),
        ("whole run", f"{closed_at - started:.0f} s from the first visitor to the last tab closed"),
    ]
    table = "".join(f"| {k} | {v} |\n" for k, v in rows)
    details = "".join(f"- {line[:300]}\n" for line in (failures + problems + console)[:40]) or "none\n"
    return f"""# A class on one machine

Written by `make load` (`tools/load.py`) on {dt.datetime.now().strftime('%Y-%m-%d %H:%M')}. The server
(`server/voila_app.py`) and every browser page (one headless Debian Chromium, a context per
visitor) ran on this machine ({os.cpu_count()} cores), over 127.0.0.1 only.

**Machine load** (load average) when the class arrived: {load_start}; when the last tab closed:
{load_peak_end}. The 30 browser pages share the server's cores here, so the render times in the
browser are far longer than a real class would see; the server's own time per page is what
students on their own devices would wait for (target ≤ 5 s p95).

Each session waits for its dashboard (outcome chart and table drawn), presses an arrow key on a
slider and waits for the headline, table and chart to change, stays open, then closes its tab.
`make load` rewrites this run's part of the page (`SESSIONS=`, `RAMP=`, `POOL=`, `POOLS=`,
`MAX_KERNELS=`, `PER_ADDRESS=`, `FLOOD=` change it) and keeps the runs written up by hand below it.

| measure | result |
| --- | --- |
{table}
## Failures, server log errors and console errors

{details}"""


#: The heading from which docs/load.md is written by hand (kept by ``--write``).
NOTES = "## Runs written up by hand"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--ramp", type=float, default=30.0, help="seconds over which visitors arrive")
    parser.add_argument("--hold", type=float, default=10.0, help="seconds a page stays open after its change")
    parser.add_argument("--after", type=float, default=90.0, help="seconds to wait after the last close")
    parser.add_argument("--pool", type=int, default=1)
    parser.add_argument("--pools", default="", help="the server's --pools: name.ipynb=N,... (a class's dashboards)")
    parser.add_argument("--settle", type=float, default=60.0,
                        help="seconds between the pools being ready and the first visitor")
    parser.add_argument("--max-kernels", type=int, default=40)
    parser.add_argument("--per-address", type=int, default=10, help="the server's --max-per-address")
    parser.add_argument("--flood", type=int, default=0,
                        help="page requests of a stranger from one address during the ramp (0: none)")
    parser.add_argument("--write", type=Path)
    args = parser.parse_args(argv)
    if args.sessions < 1 or args.sessions > 200:
        parser.error(f"--sessions {args.sessions}: allowed 1 to 200")
    if args.flood < 0 or args.flood > 500:
        parser.error(f"--flood {args.flood}: allowed 0 to 500")
    text = run(args)
    print(text)
    if args.write:
        write_keeping_notes(args.write, text, NOTES)  # the earlier runs, written by hand, stay
    return 0


if __name__ == "__main__":
    sys.exit(main())
