"""What `make load` and `make bench-browser` share: a Voilà server of the workbook started on a free
loopback port, and dashboard pages opened in Debian's Chromium with every request counted.

Only 127.0.0.1 is ever contacted: the server binds it, and Chromium resolves no other host name
(``--host-resolver-rules``), so a request to another host fails in the browser itself; each page
records the hosts it asked for. Requests are watched, never intercepted: an intercepted request
waits for this process, which added about 0.6 s to each open of a page of ~100 requests.
"""

from __future__ import annotations

import base64
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
SERVER = ROOT / "server" / "voila_app.py"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  # no host but the server's is ever looked up: such a request fails at once
                  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
DASHBOARDS = ("infinity-n4-dodge.ipynb", "gurps-4e.ipynb", "eldfall.ipynb", "d100-homebrew.ipynb")

#: A dashboard is drawn when its outcome chart has data and its table an exact cell.
DASHBOARD_READY = """() => {
    const plot = document.querySelector('.wb-outcome-chart .js-plotly-plot');
    return Boolean(plot && plot.data && document.querySelector('.wb-table td[data-col=exact]'));
}"""

#: What a control change must change: the headline, the outcome table and the outcome chart.
PANELS_SNAPSHOT = """() => {
    const text = css => (document.querySelector(css) || {}).innerHTML || '';
    const plot = document.querySelector('.wb-outcome-chart .js-plotly-plot');
    return [text('.wb-headline'), text('.wb-table'), plot && plot.data ? JSON.stringify(plot.data.map(t => [t.x, t.y])) : ''];
}"""

PANELS_CHANGED = """(before) => {
    const text = css => (document.querySelector(css) || {}).innerHTML || '';
    const plot = document.querySelector('.wb-outcome-chart .js-plotly-plot');
    const now = [text('.wb-headline'), text('.wb-table'), plot && plot.data ? JSON.stringify(plot.data.map(t => [t.x, t.y])) : ''];
    return now[0] !== before[0] && now[1] !== before[1] && now[2] !== before[2];
}"""


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    """A running workbook server: ``url`` its root, ``log`` its log file, ``process`` its process."""

    url: str
    process: subprocess.Popen
    log: Path

    def stop(self) -> None:
        """Stop it (Voilà shuts its kernels down on SIGTERM), by its own process id."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)


def start_server(log: Path, *args: str, port: int | None = None, timeout: float = 90.0,
                 notebooks: Path = NOTEBOOKS) -> Server:
    """Start the workbook's server on 127.0.0.1 (extra ``args`` as for ``server/voila_app.py``),
    serving ``notebooks``, and wait until a static file answers (a page request would take a
    kernel)."""
    port = port or free_port()
    log.parent.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, str(SERVER), str(notebooks), f"--port={port}", *args]
    with open(log, "wb") as sink:
        process = subprocess.Popen(command, cwd=notebooks, stdout=sink, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
    server = Server(f"http://127.0.0.1:{port}/", process, log)
    deadline = time.monotonic() + timeout
    static = server.url + "voila/templates/lab/static/voila.js"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(static, timeout=2) as response:
                if response.status == 200:
                    return server
        except OSError:
            time.sleep(0.2)
    server.stop()
    raise RuntimeError(f"the server did not answer within {timeout} s:\n{log.read_text()}")


def _kernels_cpu(server_pid: int) -> float:
    """CPU seconds used so far by the server's child processes (its kernels)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[1]) == server_pid:
                total += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, ValueError, IndexError):
            continue
    return total


def wait_for_pools(server: Server, notebooks: int, timeout: float = 600.0) -> bool:
    """Wait until the log says every notebook's preheated pool is filled and then until the
    kernels are quiet (the log says "filled" when a kernel has started, before its notebook has
    run in it): less than 0.1 CPU second used by all of them over 3 s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.log.read_text(errors="replace").count("is filled with") >= notebooks:
            break
        time.sleep(0.5)
    else:
        return False
    return wait_quiet(server, deadline - time.monotonic())


def wait_quiet(server: Server, timeout: float = 300.0) -> bool:
    """Wait until the server's kernels use less than 0.1 CPU second over 3 s (all idle)."""
    deadline = time.monotonic() + timeout
    used = _kernels_cpu(server.process.pid)
    while time.monotonic() < deadline:
        time.sleep(3)
        now = _kernels_cpu(server.process.pid)
        if now - used < 0.1:
            return True
        used = now
    return False


@dataclass
class PageStats:
    """One page opened: seconds to drawn, bytes received, hosts asked for, console errors."""

    url: str
    seconds: float | None = None
    http_bytes: int = 0
    ws_bytes: int = 0
    ws_raw_bytes: int = 0
    ws_deflate: bool = False
    requests: int = 0
    hosts: set[str] = field(default_factory=set)
    refused: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    error: str = ""

    @property
    def total_bytes(self) -> int:
        return self.http_bytes + self.ws_bytes


def _deflate(data: bytes) -> bytes:
    compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)


def launch(playwright, profile: Path | None = None):
    """Debian's Chromium, headless (never a downloaded browser); with ``profile``, a browser
    context keeping its profile (its cache among it) in that folder, as a reader's browser does."""
    if profile is None:
        return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
    return playwright.chromium.launch_persistent_context(str(profile), executable_path=CHROMIUM, args=CHROMIUM_FLAGS,
                                                         viewport={"width": 1280, "height": 1000})


def _count_bytes(context, page, stats: PageStats) -> None:
    """Count in ``stats`` the bytes ``page`` receives (see :func:`open_page`)."""
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")

    def finished(event):
        stats.http_bytes += int(event.get("encodedDataLength", 0))
        stats.requests += 1

    cdp.on("Network.loadingFinished", finished)
    def frame(event):
        response = event["response"]
        payload = response.get("payloadData", "")
        raw = base64.b64decode(payload) if response.get("opcode") == 2 else payload.encode()
        stats.ws_raw_bytes += len(raw)
        # Chromium reports frames decompressed: with permessage-deflate negotiated, count each
        # message deflated on its own (an upper bound: the real stream also reuses its window).
        stats.ws_bytes += len(_deflate(raw)) if stats.ws_deflate else len(raw)

    def handshake(event):
        headers = {k.lower(): v for k, v in event["response"].get("headers", {}).items()}
        stats.ws_deflate = stats.ws_deflate or "permessage-deflate" in headers.get("sec-websocket-extensions", "")

    cdp.on("Network.webSocketFrameReceived", frame)
    cdp.on("Network.webSocketHandshakeResponseReceived", handshake)


def open_page(context, url: str, ready: str = DASHBOARD_READY, timeout_ms: int = 120_000,
              count_bytes: bool = True):
    """Open ``url`` in a new page of ``context`` and wait until ``ready`` holds.

    Returns (page, PageStats). Bytes are what crossed the wire: HTTP bodies as encoded (compressed)
    plus the websocket messages received (their payload, decompressed: an upper bound). Counting
    them costs the machine time of its own (every websocket frame is copied to this process and
    compressed here): ``count_bytes=False`` for an open that is timed."""
    page = context.new_page()
    stats = PageStats(url)
    if count_bytes:
        _count_bytes(context, page, stats)

    def asked(request):
        url = request.url.removeprefix("blob:")  # a blob's address holds the page's origin
        if url.startswith("data:"):
            return
        host = urlsplit(url).hostname or ""
        stats.hosts.add(host)
        if host != "127.0.0.1":
            stats.refused.append(request.url)  # not resolved by the browser (CHROMIUM_FLAGS)

    page.on("request", asked)
    page.on("console", lambda m: m.type == "error" and stats.console_errors.append(m.text))
    page.on("pageerror", lambda e: stats.console_errors.append(f"page error: {e}"))
    start = time.perf_counter()
    try:
        page.goto(url, timeout=timeout_ms)
        page.wait_for_function(ready, timeout=timeout_ms, polling=50)
        stats.seconds = time.perf_counter() - start
    except Exception as err:  # a page that never renders is a result, not a crash
        stats.error = f"{type(err).__name__}: {str(err).splitlines()[0]}"
    return page, stats


def first_slider_change(page, timeout_ms: int = 60_000) -> float:
    """Press an arrow key on the form's first slider (right, or left at its maximum) and return the
    seconds until the headline, the outcome table and the outcome chart have all changed."""
    handle = page.locator(".wb-form .noUi-handle").first
    now, top = handle.get_attribute("aria-valuenow"), handle.get_attribute("aria-valuemax")
    key = "ArrowLeft" if now is not None and top is not None and float(now) >= float(top) else "ArrowRight"
    before = page.evaluate(PANELS_SNAPSHOT)
    start = time.perf_counter()
    handle.press(key)
    page.wait_for_function(PANELS_CHANGED, arg=before, timeout=timeout_ms, polling="raf")
    return time.perf_counter() - start


def percentile(values: list[float], q: float) -> float | None:
    """The q-th percentile (0-100) by linear interpolation, None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    k = (len(ordered) - 1) * q / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def machine_load() -> str:
    """The 1, 5 and 15 minute load averages and the core count, as text."""
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} / {five:.2f} / {fifteen:.2f} (1 / 5 / 15 min) on {os.cpu_count()} cores"


class CountingProxy:
    """A loopback TCP relay to the server that counts the bytes it passes to the browser: what a
    page really costs on the wire, compressed HTTP and websocket frames alike. ``url`` is the
    server's root as seen through the relay; ``received`` the bytes sent to browsers so far."""

    def __init__(self, target_port: int):
        import threading

        self.target_port = target_port
        self.received = 0
        self._lock = threading.Lock()
        self._listener = socket.socket()
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(64)
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}/"
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        import threading

        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
            threading.Thread(target=self._pipe, args=(client, upstream, False), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client, True), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket, count: bool) -> None:
        try:
            while data := source.recv(65536):
                if count:
                    with self._lock:
                        self.received += len(data)
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def reset(self) -> int:
        """The bytes counted so far, and start counting from zero."""
        with self._lock:
            seen, self.received = self.received, 0
        return seen

    def close(self) -> None:
        """Stop accepting connections."""
        self._closed = True
        self._listener.close()
