"""Browser timings of the dashboards (``make bench-browser``): open, update, transfer.

Starts the workbook's server on a free 127.0.0.1 port (``--pool`` preheated kernels per notebook),
waits until its pools are filled, then for each dashboard, in Debian's Chromium:

- opens it once through a relay that counts the bytes on the wire with an empty browser cache,
  then ``--opens`` times directly, each in a fresh browser context (empty cache) and each after
  the pool has been refilled (page request → outcome chart and table drawn: what a visitor waits
  for on a warm server);
- changes controls ``--changes`` times each: a slider key press, a number typed into a slider's
  readout (+ Enter), a preset chosen in a dropdown, and the dashboard's own heavier actions
  (Infinity: add an attacker; d100: switch the language), each timed by the page's own clock
  from the action's first event (the key press, the Enter, the click, the chosen option) to the
  headline, the outcome table and the outcome chart all showing the new scenario.

Prints a table and, with ``--write PATH``, writes it as Markdown with the machine's load average
at the start and the end of the measurement (keeping what the page says from its "Measured by
hand" heading on). Timings are reported, never asserted. Only
127.0.0.1 is contacted; the server is stopped at the end, by its own process id.
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from docs_page import write_keeping_notes  # noqa: E402
from browser_session import (DASHBOARD_READY, PANELS_CHANGED, PANELS_SNAPSHOT, CountingProxy,  # noqa: E402
                             launch, machine_load, open_page, percentile, start_server, wait_quiet)


@dataclass
class Step:
    """One kind of action on one dashboard and its measured seconds."""

    dashboard: str
    step: str
    seconds: list[float] = field(default_factory=list)
    failures: int = 0


#: The page's own clock for a change: the first key press, mouse press or changed value after
#: ``__wbArm()`` (caught before the page's controls see it) starts it.
CLOCK = """() => {
    if (!window.__wbArm) {
        const start = () => { if (window.__wbStart === null) window.__wbStart = performance.now(); };
        for (const kind of ['keydown', 'mousedown', 'input', 'change']) window.addEventListener(kind, start, true);
        window.__wbArm = () => { window.__wbStart = null; };
    }
    window.__wbArm();
}"""

#: Milliseconds from the clock's start to the headline, table and outcome chart all changed
#: (checked on every frame the page draws), or false while they have not.
CHANGED_AFTER = f"""(before) => ({PANELS_CHANGED})(before) && window.__wbStart !== null
    && performance.now() - window.__wbStart"""


def timed(page, action) -> float:
    """Seconds from the page's first event of ``action()`` (a key press, a click, a chosen
    option) to the headline, the table and the outcome chart all changed, by the page's own
    clock: what the reader waits for, without the time this process takes to drive the
    browser (25–75 ms a key press, measured)."""
    before = page.evaluate(PANELS_SNAPSHOT)
    page.evaluate(CLOCK)
    action()
    waited = page.wait_for_function(CHANGED_AFTER, arg=before, timeout=20_000, polling="raf")
    return waited.json_value() / 1000


_PRESSES: dict[str, int] = {}


def _slider_key(page, css: str):
    """An arrow key on the slider: right, left, right, ... (so the value stays in range)."""
    handle = page.locator(f".{css} .noUi-handle")
    _PRESSES[css] = _PRESSES.get(css, 0) + 1
    return lambda: handle.press("ArrowRight" if _PRESSES[css] % 2 else "ArrowLeft")


def _typed(page, css: str, values: tuple[float, float]):
    handle = page.locator(f".{css} .noUi-handle")
    now = float(handle.get_attribute("aria-valuenow"))
    value = values[0] if now != values[0] else values[1]

    def act():
        page.locator(f".{css} .widget-readout").click()
        page.keyboard.press("Control+A")
        page.keyboard.type(str(value))
        page.evaluate("window.__wbArm()")  # timed from the Enter
        page.keyboard.press("Enter")
    return act


def _preset(page):
    select = page.locator(".wb-preset select")
    options = [o for o in select.locator("option").all_inner_texts() if o.strip()]
    current = select.locator("option:checked").inner_text()
    choices = [o for o in options[1:] if o != current]
    return lambda: select.select_option(label=choices[0])


#: dashboard → (label, slider for key presses, slider typed into and two values, extra actions)
PLANS = {
    "infinity-n4-dodge.ipynb": ("infinity-n4", "wb-dodger-ph", ("wb-attackers-0-burst", (5, 2)),
                                [("add an attacker", lambda page: lambda: page.locator(".wb-attackers-add").click())]),
    "gurps-4e.ipynb": ("gurps-4e", "wb-target-dr", ("wb-target-dr", (6, 1)), []),
    "eldfall.ipynb": ("eldfall", "wb-defender-ag", ("wb-defender-ag", (8, 5)), []),
    "d100-homebrew.ipynb": ("d100-homebrew", "wb-defender-agility", ("wb-defender-agility", (65, 35)),
                            [("language switch", lambda page: (lambda sel=page.locator(".wb-lang select"): sel.select_option(
                                label=[o for o in sel.locator("option").all_inner_texts()
                                       if o != sel.locator("option:checked").inner_text()][0])))]),
}


def refilled(server, notebook: str, seen: int, timeout: float = 180.0) -> int:
    """Wait until the pool of ``notebook`` has been filled more than ``seen`` times and the
    kernels are quiet (the notebook has run in the new one); return the new count."""
    line = f"Kernel pool of {notebook} is filled"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        count = server.log.read_text(errors="replace").count(line)
        if count > seen:
            wait_quiet(server, max(5.0, deadline - time.monotonic()))
            return count
        time.sleep(0.3)
    return seen


def recorded(step: Step, stats, what: str, errors: list[str], timed: bool) -> None:
    """One open's outcome in ``step`` (its seconds if ``timed``, or a failure) and its problems
    in ``errors``."""
    if stats.error:
        step.failures += 1
        errors.append(f"{step.dashboard}: {what}: {stats.error}")
    elif timed:
        step.seconds.append(stats.seconds)
    errors += [f"{step.dashboard}: console: {e}" for e in stats.console_errors]
    errors += [f"{step.dashboard}: request to another host: {url}" for url in stats.refused]


def returning_opens(reader, server, notebook: str, label: str, args, seen: int, errors: list[str]) -> Step:
    """``--opens`` timed opens of ``notebook`` in ``reader`` (a browser whose cache is on disk,
    as a reader's is), after one untimed open that fills its cache; each after the pool was
    refilled."""
    step = Step(label, "page request → chart and table drawn, a returning reader's browser (its cache on disk)")
    for i in range(args.opens + 1):
        page, stats = open_page(reader, f"{server.url}voila/render/{notebook}", DASHBOARD_READY,
                                count_bytes=False)
        recorded(step, stats, f"returning open {i + 1}", errors, timed=i > 0)
        page.close()
        if i < args.opens and args.pool:
            seen = refilled(server, notebook, seen)
    return step


def run(args) -> tuple[list[Step], dict[str, int], list[str], str, str]:
    from playwright.sync_api import sync_playwright

    workdir = Path(tempfile.mkdtemp(prefix="bench-browser-"))
    load_start = machine_load()
    # one browser measures every page, from one address: no per-address limit
    server = start_server(workdir / "server.log", f"--pool={args.pool}", "--max-per-address=0")
    steps: list[Step] = []
    sizes: dict[str, int] = {}
    errors: list[str] = []
    try:
        relay = CountingProxy(int(server.url.rsplit(":", 1)[1].strip("/")))
        with sync_playwright() as playwright:
            browser = launch(playwright)
            # a returning reader's browser: one profile on disk, its cache kept from open to open
            reader = launch(playwright, profile=workdir / "reader-profile") if args.returning else None
            for notebook, (label, key_slider, (typed_slider, values), extras) in PLANS.items():
                if args.only and label not in args.only:
                    continue
                opened = Step(label, "page request → chart and table drawn (preheated kernel, warm server)")
                seen = refilled(server, notebook, 0) if args.pool else 0
                page = None
                # The first open, through the counting relay, counts the bytes; the timed opens
                # ask the server directly and count nothing (the relay and the counting, in
                # Python on the same cores, would add their own delay).
                for i in range(args.opens + 1):
                    context = browser.new_context(viewport={"width": 1280, "height": 1000})
                    relay.reset()
                    base = relay.url if i == 0 else server.url
                    page, stats = open_page(context, f"{base}voila/render/{notebook}", DASHBOARD_READY,
                                            count_bytes=i == 0)
                    recorded(opened, stats, f"open {i + 1}", errors, timed=i > 0)
                    if i == 0:
                        page.wait_for_load_state("networkidle")
                        sizes[label] = relay.reset()
                    if i < args.opens:
                        context.close()
                        if args.pool:
                            seen = refilled(server, notebook, seen)
                steps.append(opened)
                if page is None or opened.failures == args.opens + 1:
                    continue
                actions = [("slider key press", lambda: _slider_key(page, key_slider)),
                           ("number typed + Enter", lambda: _typed(page, typed_slider, values)),
                           ("preset chosen in a dropdown", lambda: _preset(page)),
                           *[(name, (lambda make=make: make(page))) for name, make in extras]]
                for name, make in actions:
                    step = Step(label, f"{name} → headline, table and chart updated")
                    times = 2 if name == "add an attacker" else args.changes  # at most 3 attackers
                    for _ in range(times):
                        try:
                            step.seconds.append(timed(page, make()))
                        except Exception as err:  # no change within the timeout
                            step.failures += 1
                            errors.append(f"{label}: {name}: {type(err).__name__}")
                        time.sleep(0.3)
                    steps.append(step)
                page.context.close()
                if reader is not None:
                    if args.pool:
                        seen = refilled(server, notebook, seen)
                    steps.insert(steps.index(opened) + 1,
                                 returning_opens(reader, server, notebook, label, args, seen, errors))
            if reader is not None:
                reader.close()
            browser.close()
        relay.close()
    finally:
        server.stop()
    # Up to the server's own shutdown: a kernel stopped in the middle of a message logs an error
    # that says nothing about the pages.
    log = server.log.read_text(errors="replace").split("Handle signal", 1)[0]
    log_errors = [line for line in log.splitlines() if "Traceback" in line or " ERROR" in line or "[E " in line]
    errors += [f"server log: {line}" for line in log_errors]
    return steps, sizes, errors, load_start, machine_load()


def _ms(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    return f"{seconds:.2f} s" if seconds >= 1 else f"{seconds * 1000:.0f} ms"


#: The heading from which docs/browser-timings.md is written by hand (kept by ``--write``).
NOTES = "## Measured by hand"


def markdown(steps: list[Step], sizes: dict[str, int], errors: list[str], load_start: str,
             load_end: str, args) -> str:
    """The results as the Markdown page docs/browser-timings.md."""
    rows = "".join(
        f"| {s.dashboard} | {s.step} | {_ms(statistics.median(s.seconds) if s.seconds else None)} | "
        f"{_ms(percentile(s.seconds, 95))} | {len(s.seconds)}{f' ({s.failures} failed)' if s.failures else ''} |\n"
        for s in steps)
    size_rows = "".join(f"| {d} | {b / 1e6:.2f} MB |\n" for d, b in sizes.items())
    problems = "".join(f"- {e}\n" for e in errors[:30]) or "none\n"
    return f"""# Browser timings

Written by `make bench-browser` (`tools/bench_browser.py`) on {dt.datetime.now().strftime('%Y-%m-%d %H:%M')}:
the workbook's server (`server/voila_app.py`, {args.pool} preheated kernel(s) per notebook) on
127.0.0.1 and Debian's Chromium (headless, Playwright), both on this machine.
Reported, never asserted (`make test` checks numbers, not times).

**Machine load** (load average) at the start: {load_start}; at the end: {load_end}.
The targets (issue 10) are for an idle machine: open ≤ 2 s median and ≤ 3 s p95; a slider key
press, a dropdown change or a typed number ≤ 100 ms p95; adding an attacker and switching the
language ≤ 300 ms. A loaded machine (several agents sharing 2 cores) slows every row.

A page is "drawn" when its outcome chart has data and its table an exact cell; a change is done
when the headline, the outcome table and the outcome chart all show the new scenario, timed by
the page's own clock from the change's first event (key press, Enter, click, chosen option) to
the frame that shows it. Each open uses a fresh browser context (empty cache) after the pool was
refilled, and asks the server directly (the bytes are counted on one more open, through a relay);
the browser's requests are watched, not intercepted. A returning reader's opens are timed the
same way in one browser that keeps its profile on disk, as a reader's browser does (after one
open that fills its cache): its cache spares it fetching and compiling the page's scripts again.

| dashboard | step | median | p95 | n |
| --- | --- | --- | --- | --- |
{rows}
## Bytes on the wire for one open, empty browser cache

Everything the browser received from the server (HTTP bodies and headers, compressed, and the
websocket), counted by a relay in front of the server. Target: ≤ 3 MB.

| dashboard | bytes |
| --- | --- |
{size_rows}
## Errors seen during the measurement

{problems}"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pool", type=int, default=1, help="preheated kernels per notebook")
    parser.add_argument("--opens", type=int, default=5, help="opens per dashboard")
    parser.add_argument("--changes", type=int, default=20, help="repetitions of each control change")
    parser.add_argument("--only", nargs="*", help="labels of the dashboards to measure (default: all)")
    parser.add_argument("--no-returning", dest="returning", action="store_false",
                        help="leave out the opens in a returning reader's browser (its cache on disk)")
    parser.add_argument("--write", type=Path, help="write the Markdown table to this path")
    args = parser.parse_args(argv)
    steps, sizes, errors, load_start, load_end = run(args)
    text = markdown(steps, sizes, errors, load_start, load_end, args)
    print(text)
    if args.write:
        write_keeping_notes(args.write, text, NOTES)  # the page's own analysis stays under the tables
    return 0


if __name__ == "__main__":
    sys.exit(main())
