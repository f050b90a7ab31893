"""Serve the dashboards for a class: Voilà with preheated kernels, a kernel cap and a Host allowlist.

``make run`` starts this instead of the plain ``voila`` command. It is Voilà 0.5 itself (the same
handlers, kernels and pages) with these changes, each a setting (``--help-all`` lists them)::

    python server/voila_app.py notebooks --port=8866 --pool=1 --max-kernels=40 \\
        --hosts=127.0.0.1,localhost --idle-timeout=1800

- **Preheated kernels**: ``--pool=N`` kernels per notebook run it before anyone asks, so a page
  request gets a kernel whose dashboard is already built (Voilà's own ``preheat_kernel``).
  ``--pool=0`` turns preheating off. ``--pools=name.ipynb=N,...`` sets the pool of given
  notebooks instead (a class's dashboard: one kernel per student expected in the first minute).
  A pool starts another kernel ``--refill-delay`` seconds (3) after one went to a page, once the
  page has started, rather than while it starts.
- **Kernel cap**: at most ``--max-kernels`` kernels in all: serving pages, preheated in the
  pools, and starting. Pools fill and refill only within it (a refill waits until a kernel is
  shut down); a page of a notebook without a preheated kernel, at the cap, takes the place of a
  preheated kernel of another notebook; beyond that a visitor gets a short "the server is full,
  try again in a minute" page (HTTP 503) with a retry button instead of a page that never
  renders.
- **Kernels released**: a page's kernel is shut down when the tab closes (the page's shutdown
  beacon, sent on ``beforeunload`` by Voilà and on ``pagehide`` by the workbook's page, carries
  the token it needs), and ``--disconnected-timeout`` seconds after its last
  browser connection went away in any case; a page no browser ever loads (a script reading it)
  releases its kernel ``--never-connected-timeout`` seconds (30) after it was sent, one a browser
  has begun to load (its first script says so) after ``--loading-timeout`` (300); an open but
  idle page's kernel is culled after ``--idle-timeout`` seconds and the page says so and offers
  to reconnect.
- **A fair share per address**: one client address has at most ``--max-per-address`` pages (10)
  counted at once — a page counts while it is sent, while its kernel waits for the browser's first
  connection and while a browser is connected, so a closed tab frees its place at once, beacon or
  not — and holds at most that many kernels; beyond it (after ``--place-wait`` seconds, 2, for a
  reload's own place), a short "Too many dashboards open" page (HTTP 429) saying what is counted.
  Behind a reverse proxy, ``--trust-xheaders=True`` counts each device by the ``X-Real-IP`` the
  proxy sets.
- **Oversized links**: a request target over 8,192 characters gets a 414 page and a query of over
  1,000 fields a 400 page, each saying what is allowed, with one line in the log (headers are
  read up to 1 MiB to answer so).
- **No template or theme from a link**: Voilà's overrides are off, and a link naming
  ``template=`` or ``theme=`` is refused (400, saying why) before any kernel starts; the page
  template escapes everything it writes.
- **Host allowlist**: a request whose ``Host`` is not in ``--hosts`` gets 400 (a DNS-rebinding
  page cannot reach the server, and no foreign host name reaches a share link).
- **Not exposed**: the file tree and ``/voila/api/contents`` (``/`` goes to the index
  dashboard), paths with ``..`` or a malformed template path (404, never 500), a path that is
  not UTF-8 (400); error pages render on a page of the server's own (``server/templates``).
- **Light pages**: responses gzip-compressed, websocket messages deflated, the template
  ``server/jupyter/voila/templates/workbook`` links nothing outside the server, and only the
  JupyterLab extensions a dashboard needs are loaded; the charts' plotly.js is served here
  (``workbook/static/plotly.min.js``: plotly's cartesian bundle when ``tools/fetch_plotly.py``
  installed it, compressed, cached by the browser, preloaded by the page's head) instead of
  plotly's JupyterLab renderer, which only notebooks that use plotly themselves load. The ~90
  chunks of Voilà's front end and its extensions that every page loads as it starts come in one
  script (``server/startup_script.py``; ``--startup-script=False``: one request each).
- **Quiet on a closed tab**: a message still being written to a tab that has just closed is
  dropped without a traceback in the log (:func:`quiet_closed_connections`); every other
  error is logged as before.
- **Patient, never silent**: a kernel may take ``--startup-timeout`` seconds to start, a cell 300 s
  to run and ``--iopub-timeout`` seconds to deliver its output on a busy machine; past that the
  page shows an error with a retry button instead of an empty dashboard. With preheating on, cells
  have no time limit (Voilà has one for every page): a preheated kernel's dashboard waits for its
  visitor, however long that takes.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import html
import json
import math
import os
import re
import sys
import tempfile
import time
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path
from urllib.parse import unquote, unquote_to_bytes

HERE = Path(__file__).resolve().parent
# Voilà finds templates under <jupyter path>/voila/templates: put this folder's first.
os.environ["JUPYTER_PATH"] = os.pathsep.join(
    [str(HERE / "jupyter"), *filter(None, os.environ.get("JUPYTER_PATH", "").split(os.pathsep))])

import jinja2  # noqa: E402
import tornado.httputil  # noqa: E402
import tornado.web  # noqa: E402
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager  # noqa: E402
from jupyter_server._tz import utcnow  # noqa: E402
from jupyter_server.utils import url_path_join  # noqa: E402
from traitlets import Bool, Float, Integer, TraitError, Unicode, default  # noqa: E402
from traitlets.config.application import catch_config_error  # noqa: E402
import voila.app  # noqa: E402
from voila.app import Voila  # noqa: E402
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler  # noqa: E402
from voila.static_file_handler import TemplateStaticFileHandler  # noqa: E402
from voila.tornado.contentshandler import VoilaContentsHandler  # noqa: E402
from voila.tornado.handler import TornadoVoilaHandler  # noqa: E402
from voila.tornado.treehandler import TornadoVoilaTreeHandler  # noqa: E402
from voila.voila_kernel_manager import voila_kernel_manager_factory as _voila_kernel_manager_factory  # noqa: E402
# Where plotly.js is served (STATIC_PREFIX) and its address with plotly's version, as the charts
# (workbook.page.chart) ask for it: one definition, in a module that imports neither plotly nor the
# rest of the workbook.
from workbook.page.static_address import (  # noqa: E402
    BASIC_FILE, BASIC_TRACES, STATIC_PREFIX, plotly_basic_path, plotly_path)

sys.path.insert(0, str(HERE))
import startup_script as startup_js  # noqa: E402

#: The JupyterLab extensions a dashboard uses (widgets, and anywidget: the charts and the address
#: bar); others are not loaded. plotly's own renderer only for a notebook that shows plotly
#: figures itself (see :func:`extensions_for`).
EXTENSIONS = ["@jupyter-widgets/jupyterlab-manager", "@voila-dashboards/widgets-manager8", "jupyterlab-plotly",
              "anywidget"]
PLOTLY_RENDERER = "jupyterlab-plotly"

#: plotly.js as plotly.py ships it (whole: 4.8 MB).
PLOTLY_PY_DIR = Path(find_spec("plotly").origin).parent / "package_data"


#: The version in a plotly.js bundle's header ("plotly.js v4.1.1", "plotly.js (cartesian - minified) v4.1.1").
PLOTLY_JS_VERSION = re.compile(rb"plotly\.js(?: \([\w -]+\))? v([0-9][\w.+-]*)")


def plotly_js_version(bundle: Path) -> str | None:
    """The plotly.js version of the bundle at ``bundle`` (from its header), or None."""
    with bundle.open("rb") as f:
        found = PLOTLY_JS_VERSION.search(f.read(400))
    return found.group(1).decode() if found else None


def plotly_bundle(kind: str, version: str, prefix: str = sys.prefix) -> Path:
    """Where ``tools/fetch_plotly.py`` installs plotly's ``kind`` bundle (``"cartesian"``: served
    as ``plotly.min.js``; ``"basic"``: as :data:`BASIC_FILE`) of plotly.js ``version``."""
    name = "plotly.min.js" if kind == "cartesian" else BASIC_FILE
    return Path(prefix, "share", "dodge-workbook", f"plotly-{kind}", version, name)


def installed_bundle(kind: str) -> Path | None:
    """The folder of plotly's ``kind`` bundle of the plotly.js version plotly.py carries, where
    ``tools/fetch_plotly.py`` installed it, or None. plotly is not imported into the server."""
    version = plotly_js_version(PLOTLY_PY_DIR / "plotly.min.js")
    path = version and plotly_bundle(kind, version)
    return path.parent if path and path.is_file() else None


#: The folder of the ``plotly.min.js`` served at ``<base url>workbook/static/plotly.min.js`` for
#: the dashboards' charts (workbook.page.chart): plotly's cartesian bundle (1.5 MB, evaluated by
#: the browser in about half the time of plotly.py's own, which is served without it).
PLOTLY_DIR = installed_bundle("cartesian") or PLOTLY_PY_DIR
#: The folder of plotly's basic bundle (:data:`BASIC_FILE`), served beside plotly.min.js and
#: started by a dashboard's head (bar, pie and scatter: every chart a page shows as it opens;
#: evaluated in half the time of the cartesian one), or None: a page starts plotly.min.js.
PLOTLY_BASIC_DIR = installed_bundle("basic")


class Seconds(Float):
    """A setting in seconds: a finite number (``nan`` or ``inf`` would make its wait never end)."""

    info_text = "a finite number of seconds"

    def validate(self, obj, value):
        value = super().validate(obj, value)
        if not math.isfinite(value):
            self.error(obj, value)
        return value


@dataclass
class PageClaim:
    """A place under the kernel cap promised to one page request until its kernel is started."""

    notebook: str
    spent: bool = False


#: The claim of the page request being handled (read where Voilà starts the page's kernel).
_PAGE_CLAIM: ContextVar[PageClaim | None] = ContextVar("workbook_page_claim", default=None)


@dataclass(eq=False)
class Visit:
    """One page request from one client address, from its admission until the page is sent;
    once its page has a kernel (started for it or preheated), that kernel is the address's
    until it is shut down."""

    address: str
    notebook: str
    kernel: str | None = None


#: The visit of the page request being handled (read where its kernel is started or handed over).
_VISIT: ContextVar[Visit | None] = ContextVar("workbook_visit", default=None)


class WorkbookKernelManager(AsyncMappingKernelManager):
    """Kernels under one cap, shut down soon after their last browser connection closed.

    The cap (``max_kernels``) bounds every kernel of the server: those serving pages, the
    preheated ones waiting in the pools, and those starting. A page request is admitted by
    :meth:`claim_page_kernel` (or takes a preheated kernel); pools are refilled only within
    the cap (see :class:`CappedPools`)."""

    max_kernels = Integer(0, config=True, help=(
        "Most kernels at once, preheated ones and those starting included; 0: no cap."))

    disconnected_timeout = Integer(30, config=True, help=(
        "Seconds after the last browser connection to a kernel closed before it is shut down "
        "(a reload reconnects well within it)."))
    never_connected_timeout = Integer(30, config=True, help=(
        "Seconds a page's kernel may wait, idle, for its browser to connect at all, when no "
        "browser has begun to load the page (a request read by a script that never runs the "
        "page holds a kernel no longer than this)."))
    loading_timeout = Integer(300, config=True, help=(
        "Seconds a page's kernel may wait, idle, for a browser that has begun to load the page "
        "(its first script says so) to connect: a browser on a busy machine may take minutes."))
    max_per_address = Integer(0, config=True, help=(
        "Most pages one client address may have counted at once (being sent, waiting for their "
        "browser, or with a browser connected); 0: no limit."))
    place_wait = Seconds(2.0, config=True, help=(
        "Seconds a page request of an address at its limit waits for a place before it is "
        "refused (a reload's request may arrive just before the old page's shutdown beacon)."))

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._left: dict[str, float] = {}   # kernel id -> monotonic time its last connection closed
        self._born: dict[str, float] = {}   # kernel id -> when it started, until it is connected
        self._claims = 0        # pages promised a kernel they have not started yet
        self._page_starts = 0   # page kernels starting (not listed until started)
        self._peak = 0
        self._seen: set[str] = set()        # kernels whose page a browser has begun to load
        self._visits: set[Visit] = set()    # page requests admitted that have no kernel yet
        self._sending: set[str] = set()     # kernels whose page is still being sent
        self._owners: dict[str, str] = {}   # kernel id -> the address whose page it serves
        self._stopping: set[str] = set()    # kernels being shut down

    def kernel_count(self) -> int:
        """Every kernel counted by the cap: running ones, preheated ones on their way (waiting
        to start or starting), page kernels starting, and pages promised one."""
        count = len(self._kernels) + pending_pool_starts(self) + self._page_starts + self._claims
        self._peak = max(self._peak, count)
        return count

    def counts(self, kernel_id: str) -> bool:
        """Whether the page of ``kernel_id`` counts against its address: it is being sent, it
        waits for its browser's first connection, or a browser is connected to it. A page whose
        browser went away (the tab closed, crashed or was swiped away, the connection dropped)
        does not, even while its kernel waits ``disconnected_timeout`` for it to come back."""
        return (kernel_id in self._sending or kernel_id in self._born
                or self._kernel_connections.get(kernel_id, 0) > 0)

    def open_pages(self, address: str | None = None) -> int:
        """Pages counted against ``address`` (or everyone's): admitted page requests that have
        no kernel yet, and page kernels whose page :meth:`counts`."""
        return (sum(1 for v in self._visits if address in (None, v.address))
                + sum(1 for k, a in self._owners.items() if address in (None, a) and self.counts(k)))

    def pages_held(self) -> int:
        """Kernels serving pages, connected or not, and admitted page requests that have none yet."""
        return len(self._visits) + len(self._owners)

    async def admit(self, address: str, notebook: str, wait: float | None = None) -> Visit | None:
        """A page request from ``address`` admitted under the per-address limit, or None (that
        address's share is taken). At the limit the request waits up to ``wait`` seconds
        (``place_wait``) for a place: a reload's page request may arrive just before the old
        page's shutdown beacon. The address's kernels whose page went away make room first, the
        longest gone first, so one address never holds more than its share of kernels."""
        if self.max_per_address:
            deadline = time.monotonic() + (self.place_wait if wait is None else wait)
            while self.open_pages(address) >= self.max_per_address:
                if time.monotonic() >= deadline:
                    return None
                await asyncio.sleep(0.1)
            await self._make_room(address)
        visit = Visit(address, notebook)
        self._visits.add(visit)
        return visit

    async def _make_room(self, address: str) -> None:
        """Shut down the kernels of ``address`` whose browser went away, the longest gone first,
        until the address holds fewer kernels than its share (so a new one fits)."""
        held = [k for k, a in self._owners.items() if a == address]
        gone = sorted((k for k in held if not self.counts(k)), key=lambda k: self._left.get(k, 0.0))
        for kernel_id in gone[:max(len(held) - self.max_per_address + 1, 0)]:
            self.log.info("Releasing kernel %s: its browser went away and %s opens another page.",
                          kernel_id, address)
            try:
                await self.shutdown_kernel(kernel_id)
            except Exception as err:  # (gone meanwhile) the new page is served all the same
                self.log.warning("Kernel %s could not be shut down: %s", kernel_id, err)

    def assign(self, kernel_id: str) -> None:
        """The kernel ``kernel_id`` now serves the page request being handled (if any)."""
        visit = _VISIT.get()
        if visit is not None and visit.kernel is None:
            visit.kernel = kernel_id
            self._visits.discard(visit)
            self._sending.add(kernel_id)
            self._owners[kernel_id] = visit.address

    def leave(self, visit: Visit | None) -> None:
        """The page request of ``visit`` is over (its kernel, if it got one, stays counted): its
        kernel's wait for a browser starts now (a page's cells may run long on a busy machine)."""
        if visit is not None:
            self._visits.discard(visit)
            if visit.kernel is not None:
                self._sending.discard(visit.kernel)
                if visit.kernel in self._born:
                    self._born[visit.kernel] = time.monotonic()

    def has_room(self, more: int = 1) -> bool:
        """Whether ``more`` kernels fit under the cap."""
        return not self.max_kernels or self.kernel_count() + more <= self.max_kernels

    async def claim_page_kernel(self, notebook: str) -> PageClaim | None:
        """A place for a new page kernel of ``notebook`` under the cap, or None (the server is
        full). At the cap, a preheated kernel waiting for another notebook (the one with the
        most of them) is shut down to make the place; a page is never refused while an idle
        preheated kernel holds a place."""
        if self.has_room():
            return self._claim(notebook)
        victim = take_idle_pooled_kernel(self, but=notebook)
        if victim is None:
            return None
        claim = self._claim(notebook)  # one over the cap until the victim is gone
        self.log.info("Kernel cap %d reached: preheated kernel %s of %s shut down for a page of %s",
                      self.max_kernels, victim[1], victim[0], notebook)
        await self.shutdown_kernel(victim[1])
        return claim

    def _claim(self, notebook: str) -> PageClaim:
        self._claims += 1
        return PageClaim(notebook)

    def release(self, claim: PageClaim | None) -> None:
        """Give back ``claim``'s place if its page did not start a kernel (it failed, or took a
        preheated one after all)."""
        if claim is not None and not claim.spent:
            claim.spent = True
            self._claims -= 1

    async def start_kernel(self, *args, **kwargs) -> str:
        preheated = (kwargs.get("env") or {}).get("VOILA_PREHEAT") == "True"
        if not preheated:  # a page's own kernel: its claim becomes the kernel starting
            claim = _PAGE_CLAIM.get()
            self.release(claim)
            self._page_starts += 1
        self.log.info("Starting a %s kernel (%d of at most %s)", "preheated" if preheated else "page",
                      self.kernel_count(), self.max_kernels or "no cap")
        try:
            kernel_id = await super().start_kernel(*args, **kwargs)
        finally:
            if not preheated:
                self._page_starts -= 1
        self._born.setdefault(kernel_id, time.monotonic())
        if not preheated:
            self.assign(kernel_id)
        return kernel_id

    def seen(self, kernel_id: str) -> bool:
        """A browser has begun to load the page of ``kernel_id`` (its first script said so): the
        kernel waits for it to connect up to ``loading_timeout``. False for a kernel that is not
        waiting for its first connection."""
        if kernel_id not in self._born:
            return False
        self._seen.add(kernel_id)
        return True

    def notify_connect(self, kernel_id: str) -> None:
        super().notify_connect(kernel_id)
        self._left.pop(kernel_id, None)
        self._born.pop(kernel_id, None)
        self._seen.discard(kernel_id)

    def notify_disconnect(self, kernel_id: str) -> None:
        super().notify_disconnect(kernel_id)
        if self._kernel_connections.get(kernel_id, 0) <= 0 and not self.gone(kernel_id):
            self._left[kernel_id] = time.monotonic()
            self.log.info("Kernel %s has no browser connected; released in %d s unless one connects",
                          kernel_id, self.disconnected_timeout)
            asyncio.get_event_loop().call_later(self.disconnected_timeout + 1, lambda: asyncio.ensure_future(
                self._release_if_abandoned(kernel_id)))

    async def _release_if_abandoned(self, kernel_id: str) -> bool:
        """Shut ``kernel_id`` down if no browser has been connected to it for long enough."""
        now = time.monotonic()
        if kernel_id not in self or self._kernel_connections.get(kernel_id, 0) > 0 or kernel_id in self._sending:
            return False  # (a page still being sent: its cells are running)
        left, born = self._left.get(kernel_id), self._born.get(kernel_id)
        if left is not None and now - left >= self.disconnected_timeout:
            why = f"no browser connected for {now - left:.0f} s"
        elif left is None and born is not None and min(now - born, self._idle(kernel_id)) >= (
                self.loading_timeout if kernel_id in self._seen else self.never_connected_timeout):
            # (a preheated kernel handed to a page runs its last cells then: it is not idle)
            why = f"no browser connected in {now - born:.0f} s" + (
                " (one began to load the page)" if kernel_id in self._seen else " (none loaded the page)")
        else:
            return False
        self.log.info("Releasing kernel %s: %s.", kernel_id, why)
        await self.shutdown_kernel(kernel_id)
        return True

    def _idle(self, kernel_id: str) -> float:
        """Seconds since the kernel's last activity (0 when unknown)."""
        last = _last_activity(self._kernels.get(kernel_id))
        return (utcnow() - last).total_seconds() if last is not None else 0.0

    def gone(self, kernel_id: str) -> bool:
        """Whether ``kernel_id`` is shut down or on its way out."""
        return kernel_id not in self or kernel_id in self._stopping

    async def shutdown_kernel(self, kernel_id: str, *args, **kwargs):
        if kernel_id in self._stopping:  # (a page's two beacons, or its beacon and a release)
            return None
        self._stopping.add(kernel_id)
        try:
            return await self._shutdown(kernel_id, *args, **kwargs)
        finally:
            self._stopping.discard(kernel_id)

    async def _shutdown(self, kernel_id: str, *args, **kwargs):
        self._left.pop(kernel_id, None)
        self._born.pop(kernel_id, None)
        self._seen.discard(kernel_id)
        self._sending.discard(kernel_id)
        self._owners.pop(kernel_id, None)
        return await super().shutdown_kernel(kernel_id, *args, **kwargs)

    async def cull_kernel_if_idle(self, kernel_id: str):
        # The culler goes round a list of the kernels made before it awaits each: one may have
        # been shut down meanwhile (its tab closed), or still be starting, with no activity yet.
        if kernel_id not in self._kernels or await self._release_if_abandoned(kernel_id):
            return None
        if _last_activity(self._kernels.get(kernel_id)) is None:
            return None
        return await super().cull_kernel_if_idle(kernel_id)


def _last_activity(kernel: object):
    """A kernel's last activity (a datetime), None when it has none yet (still starting) or is gone."""
    try:
        return getattr(kernel, "last_activity", None)
    except TraitError:  # jupyter_server's trait, read before it was ever set
        return None


class CappedPools:
    """Voilà's preheated pools within the kernel cap (mixed into Voilà's pooled kernel manager,
    see :func:`capped_kernel_manager_factory`): a pool is filled, or refilled after one of its
    kernels went to a page, only as far as the cap leaves room; the rest waits until a kernel
    is shut down, and then the pools furthest below their size are topped up first."""

    def pool_target(self, notebook: str | None) -> int:
        """The pool size configured for ``notebook``."""
        config = self.kernel_pools_config
        return int(config.get(notebook, config.get("default", {})).get("pool_size", 0))

    def fill_if_needed(self, delay=None, notebook_name=None, **kwargs) -> None:
        pool = self._pools.setdefault(notebook_name, [])
        wanted = self.pool_target(notebook_name) - len(pool)
        room = wanted if not self.max_kernels else min(wanted, self.max_kernels - self.kernel_count())
        if room <= 0:
            if wanted > 0:
                self.log.info("Pool of %s waits for room under the kernel cap (%d of %d kernels)",
                              notebook_name, self.kernel_count(), self.max_kernels)
            return
        saved = self.kernel_pools_config
        config = dict(saved)
        own = dict(config.get(notebook_name, config.get("default", {})))
        own["pool_size"] = len(pool) + room
        config[notebook_name] = own
        self.kernel_pools_config = config  # Voilà reads the size from here
        try:
            super().fill_if_needed(delay=delay, notebook_name=notebook_name, **kwargs)
        finally:
            self.kernel_pools_config = saved

    async def get_rendered_notebook(self, notebook_name: str, *args, **kwargs):
        """Voilà's: a preheated kernel for a page request; it now serves that request's address."""
        render_task, rendered, kernel_id = await super().get_rendered_notebook(notebook_name, *args, **kwargs)
        self.assign(kernel_id)
        return render_task, rendered, kernel_id

    def top_up(self) -> None:
        """Refill the pools within the cap, the one furthest below its size first."""
        if getattr(self, "_closing", False):
            return
        while self.has_room():
            short = [(len(pool) - self.pool_target(name), name) for name, pool in self._pools.items()
                     if len(pool) < self.pool_target(name)]
            if not short:
                return
            _, name = min(short)
            before = len(self._pools[name])
            self._fill_one(name)
            if len(self._pools[name]) == before:
                return

    def _fill_one(self, name: str) -> None:
        saved = self.kernel_pools_config
        config = dict(saved)
        own = dict(config.get(name, config.get("default", {})))
        target = own.get("pool_size", 0)
        own["pool_size"] = min(target, len(self._pools[name]) + 1)
        config[name] = own
        self.kernel_pools_config = config
        try:
            self.log.info("Refilling the pool of %s (%d of %d kernels)", name, len(self._pools[name]) + 1, target)
            self.fill_if_needed(notebook_name=name)
        finally:
            self.kernel_pools_config = saved

    async def shutdown_kernel(self, kernel_id: str, *args, **kwargs):
        result = await super().shutdown_kernel(kernel_id, *args, **kwargs)
        self.top_up()
        return result

    async def shutdown_all(self, *args, **kwargs):
        self._closing = True
        return await super().shutdown_all(*args, **kwargs)


def notebook_pools(text: str, notebooks: list[str]) -> dict[str, int]:
    """The ``--pools`` setting read: ``name.ipynb=N,...`` → {name: N}, each name one of
    ``notebooks`` (paths under the served folder) and N a whole number from 0 to 200; anything
    else stops the server with a one-line message.

    >>> notebook_pools("a.ipynb=8, b.ipynb=0", ["a.ipynb", "b.ipynb"])
    {'a.ipynb': 8, 'b.ipynb': 0}
    """
    pools: dict[str, int] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, equals, size = item.rpartition("=")
        name = name.strip()
        if not equals or not size.strip().isdigit() or not 0 <= int(size) <= 200:
            raise SystemExit(f"--pools: {item[:80]!r} is not name.ipynb=N with N a whole number from 0 to 200")
        if name not in notebooks:
            raise SystemExit(f"--pools: no notebook {name[:80]!r} is served; the notebooks: {', '.join(notebooks)}")
        pools[name] = int(size)
    return pools


def capped_kernel_manager_factory(base_class, preheat_kernel, default_pool_size, page_config_hook=None):
    """Voilà's kernel manager factory, its pooled manager with :class:`CappedPools` mixed in."""
    made = _voila_kernel_manager_factory(base_class, preheat_kernel, default_pool_size,
                                         page_config_hook=page_config_hook)
    return type(f"Capped{made.__name__}", (CappedPools, made), {}) if preheat_kernel else made


def take_idle_pooled_kernel(kernel_manager, but: str) -> tuple[str, str] | None:
    """Take out of its pool a preheated kernel waiting for a notebook other than ``but`` (from
    the pool with the most of them, one whose notebook has finished running if any) and return
    (notebook, kernel id); None if there is none."""
    best = None
    for name, pool in getattr(kernel_manager, "_pools", {}).items():
        if name == but:
            continue
        ready = [t for t in pool if t.done() and not t.cancelled() and t.exception() is None]
        if not ready:
            continue
        built = [t for t in ready if t.result()["task"].done()]
        choice = (built or ready)[-1]
        key = (bool(built), len(ready))
        if best is None or key > best[0]:
            best = (key, name, choice)
    if best is None:
        return None
    _, name, task = best
    kernel_manager._pools[name].remove(task)
    return name, task.result()["kernel_id"]


def pending_pool_starts(kernel_manager) -> int:
    """Preheated kernels still starting (counted as pool, not as serving a page)."""
    return sum(1 for pool in getattr(kernel_manager, "_pools", {}).values() for t in pool if not t.done())



@lru_cache(maxsize=64)
def _shows_plotly_itself(path: str, _mtime: float) -> bool:
    import json

    try:
        cells = json.loads(Path(path).read_text(encoding="utf-8")).get("cells", [])
    except (OSError, ValueError):
        return True  # unknown: keep the renderer
    return any(c.get("cell_type") == "code" and "plotly" in "".join(c.get("source", [])) for c in cells)


def extensions_for(page_config: dict, root_dir: str, notebook_path: str | None) -> dict:
    """``page_config`` without plotly's JupyterLab renderer (its ~1 MB of JavaScript) for a
    notebook whose code does not use plotly itself: the dashboards draw their charts with
    workbook.page.chart and plotly.js from this server, which the page's head then starts loading
    (``workbookPlotlyJs``, read by the workbook template) while the page connects to its kernel,
    instead of when the first chart is drawn: plotly's basic bundle where it is installed, with
    the trace types it draws (``workbookPlotlyTraces``; a chart with another loads plotly.min.js
    when it is first drawn)."""
    if not notebook_path:
        return page_config
    path = Path(root_dir, notebook_path)
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return page_config
    if _shows_plotly_itself(str(path), mtime):
        return page_config
    page_config["federated_extensions"] = [e for e in page_config.get("federated_extensions", [])
                                           if e.get("name") != PLOTLY_RENDERER]
    if PLOTLY_BASIC_DIR is None:
        page_config["workbookPlotlyJs"] = plotly_path()
    else:
        page_config["workbookPlotlyJs"] = plotly_basic_path()
        page_config["workbookPlotlyTraces"] = list(BASIC_TRACES)
    return page_config


def refusal_page(kind: str, title: str, *paragraphs: str, retry_after: int | None = None,
                 home: str | None = None) -> str:
    """A short page refusing a request: ``title`` and ``paragraphs`` are plain text (escaped
    here); ``kind`` is its body's CSS class; with ``retry_after`` a *Try again* button, and the
    page tries again by itself after that many seconds; with ``home``, a link to it (the index
    of the dashboards)."""
    text = "\n".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)
    if home is not None:
        text += f'\n<p><a class="wb-home" href="{html.escape(home, quote=True)}">All dashboards</a></p>'
    retry = "" if retry_after is None else f"""
<p><button class="wb-retry" onclick="location.reload()">Try again</button>
<small id="wb-auto">(this page tries again by itself in <span id="wb-left">{retry_after}</span> s)</small></p>
<script>let left = {retry_after}; setInterval(() => {{ left -= 1;
  document.getElementById('wb-left').textContent = left; if (left <= 0) location.reload(); }}, 1000);</script>"""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{{font-family:sans-serif;max-width:36em;margin:15vh auto;padding:0 1em;color:#222}}
button{{font-size:1em;padding:.4em 1.2em}}</style></head>
<body class="{kind}"><h1>{html.escape(title)}</h1>
{text}{retry}
</body></html>"""


def clipped(text: str, most: int = 80) -> str:
    """``text`` on one line, control characters escaped, at most ``most`` characters (then "…").

    >>> clipped("dark\\n" + "x" * 100)[:12], len(clipped("x" * 100))
    ('dark\\\\nxxxxxx', 81)
    """
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= most else text[:most] + "…"


def dashboards(count: int, state: str) -> str:
    """``"1 dashboard is open"``, ``"10 dashboards are counted"``."""
    return f"{count} dashboard is {state}" if count == 1 else f"{count} dashboards are {state}"


#: Voilà's query parameters that would choose the page's template or theme: not taken from a link.
OVERRIDES = ("template", "theme")


class DashboardHandler(TornadoVoilaHandler):
    """Voilà's page handler: the page's template and theme are the server's, never a link's; a
    client address holds at most its share of the kernels; beyond the kernel cap a visitor is
    refused politely."""

    async def get(self, path=None):
        asked = [name for name in OVERRIDES if name in self.request.query_arguments]
        if asked:
            name = asked[0]
            given = clipped(self.get_query_argument(name, ""))
            self.log.warning("Refused a link choosing the %s (%s) from %s", name, given, self.request.remote_ip)
            return self._refuse(400, refusal_page(
                "wb-refused", "This link cannot be opened",
                f"The link asks for the {name} “{given}”. This server shows its dashboards in its own "
                f"{' and '.join(OVERRIDES)}: remove “{name}=” from the link and open it again.",
                home=self.base_url))
        manager = self.kernel_manager
        if not (path and path.endswith(".ipynb")):
            return await super().get(path)
        address = self.request.remote_ip
        visit = await manager.admit(address, path)
        if visit is None:
            counted = manager.open_pages(address)
            self.log.warning("Refused %s: %s has %d pages counted (at most %d per address)",
                             self.request.path, address, counted, manager.max_per_address)
            return self._refuse(429, refusal_page(
                "wb-too-many", "Too many dashboards open",
                f"{dashboards(counted, 'counted')} from your computer, the most one computer may "
                f"have at once ({manager.max_per_address}). A dashboard counts while it is being "
                "sent to you and while its tab is open and connected.",
                "Close the tab of a dashboard you no longer need: its place frees at once.",
                retry_after=30), retry_after=30)
        claim = None
        if not self._preheated_kernel_for(path):
            claim = await manager.claim_page_kernel(path)
            if claim is None:
                manager.leave(visit)
                serving = manager.pages_held()
                self.log.warning("Server full: %d kernels (cap %d, %d serving pages); refused %s",
                                 manager.kernel_count(), manager.max_kernels, serving, self.request.path)
                return self._refuse(503, refusal_page(
                    "wb-server-full", "The server is full",
                    f"{dashboards(serving, 'open')}, the most this server runs at once. Try again in a "
                    "minute: a place frees up as soon as someone closes a dashboard.", retry_after=60),
                    retry_after=60)
        started = time.monotonic()
        _ = self.xsrf_token  # sets the _xsrf cookie the page's shutdown beacon sends back
        tokens = _PAGE_CLAIM.set(claim), _VISIT.set(visit)
        try:
            await super().get(path)
        finally:
            _PAGE_CLAIM.reset(tokens[0])
            _VISIT.reset(tokens[1])
            manager.release(claim)
            manager.leave(visit)
        self.log.info("Page %s served in %.2f s", self.request.path, time.monotonic() - started)

    def _refuse(self, status: int, page: str, retry_after: int | None = None) -> None:
        self.set_status(status)
        if retry_after is not None:
            self.set_header("Retry-After", str(retry_after))
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(page)

    def _preheated_kernel_for(self, path: str) -> bool:
        """Whether Voilà will give this request a preheated kernel (its own test; a request
        naming a template or theme never gets here)."""
        manager = self.kernel_manager
        return manager.get_pool_size(path) > 0 and bool(manager.notebook_data.get(path))


class ShutdownHandler(VoilaShutdownKernelHandler):
    """The page's shutdown beacon, accepted only from this server's own pages. A page sends it on
    ``beforeunload`` (Voilà's) and on ``pagehide`` (the workbook's): a kernel already gone or on
    its way out is answered as done."""

    @tornado.web.authenticated
    async def post(self, kernel_id):
        if self.kernel_manager.gone(kernel_id):
            self.set_status(204)
            return self.finish()
        return await super().post(kernel_id)

    def check_xsrf_cookie(self):
        origin = self.request.headers.get("Origin")
        if origin and origin.split("://", 1)[-1] != self.request.host:
            raise tornado.web.HTTPError(403, "cross-origin shutdown refused")
        return super().check_xsrf_cookie()


class TemplateStatic(TemplateStaticFileHandler):
    """Template static files; a malformed path is a 404, not a 500."""

    def parse_url_path(self, path):
        parts = path.split("/", 2)
        if len(parts) != 3 or parts[1] != "static" or not parts[0] or not parts[2]:
            raise tornado.web.HTTPError(404)
        return super().parse_url_path(path)


def _brotli_file(source: str, target: str) -> str:
    """Compress ``source`` into ``target`` with Brotli at its best quality (run in a worker process)."""
    import brotli

    partial = f"{target}.{os.getpid()}.part"
    with open(partial, "wb") as f:  # there from the start: another server sees it is being made
        with open(source, "rb") as s:
            body = brotli.compress(s.read(), quality=11)
        f.write(body)
    os.replace(partial, target)
    return target


class Precompressed:
    """For a static file handler: serve each JavaScript/CSS/JSON file compressed once, not again on
    every page open — Brotli (quality 11, made in a worker process and kept on disk under
    ``~/.cache/dodge-workbook/``) when the browser accepts it and it is ready, else gzip (level 9,
    kept in memory)."""

    _gzip: dict[tuple[str, float, int], bytes] = {}
    _brotli: dict[tuple[str, float, int], bytes] = {}
    _pending: dict[tuple[str, float, int], object] = {}
    _digests: dict[tuple[str, float, int], str] = {}
    _workers = None
    cache_dir = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "dodge-workbook" / "static"

    @classmethod
    def _key(cls, path: str) -> tuple[str, float, int]:
        stat = os.stat(path)
        return (path, stat.st_mtime, stat.st_size)

    @classmethod
    def _brotli_path(cls, key) -> Path:
        """Named by the file's content: the same file in another environment (a fresh clone's
        virtualenv, a second server) finds the Brotli form made before."""
        if key not in cls._digests:
            with open(key[0], "rb") as f:
                cls._digests[key] = hashlib.sha256(f.read()).hexdigest()[:32]
        return cls.cache_dir / f"{cls._digests[key]}.br"

    @staticmethod
    def _being_made(target: Path) -> bool:
        """Whether another process is making ``target`` (its partial file is recent: one left by
        a process that died is made again after 5 minutes)."""
        for partial in target.parent.glob(f"{target.name}.*.part"):
            try:
                if time.time() - partial.stat().st_mtime < 300:
                    return True
            except FileNotFoundError:  # just finished
                return True
        return False

    @classmethod
    def warm(cls, path: str) -> None:
        """Have the Brotli form of ``path`` made in the background (if not on disk already)."""
        if brotli_available() is False:
            return
        key = cls._key(path)
        if key in cls._brotli or key in cls._pending:
            return
        target = cls._brotli_path(key)
        if target.exists() or (target.parent.is_dir() and cls._being_made(target)):
            return
        if cls._workers is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            cls.cache_dir.mkdir(parents=True, exist_ok=True)
            cls._workers = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        cls._pending[key] = cls._workers.submit(_brotli_file, path, str(target))
        cls._pending[key].add_done_callback(lambda _f: cls._pending.pop(key, None))

    @classmethod
    def wait(cls) -> int:
        """Wait until every Brotli form asked for is made; how many there were."""
        pending = list(cls._pending.values())
        for future in pending:
            future.result()
        return len(pending)

    def _encoded(self) -> tuple[str, bytes] | None:
        """(encoding, body) for this request, decided once (size and body must agree)."""
        if not hasattr(self, "_wb_encoded"):
            self._wb_encoded = self._encode()
        return self._wb_encoded

    def _encode(self) -> tuple[str, bytes] | None:
        if (getattr(self, "_wb_range", False) or not self.absolute_path
                or not os.path.isfile(self.absolute_path)):
            return None
        mime = self.get_content_type() or ""
        if not (mime.startswith("text/") or mime.endswith(("javascript", "json", "css", "svg+xml"))):
            return None
        accepted = {e.split(";")[0].strip() for e in self.request.headers.get("Accept-Encoding", "").split(",")}
        key = self._key(self.absolute_path)
        if "br" in accepted and brotli_available():
            if key not in self._brotli and self._brotli_path(key).exists():
                self._brotli[key] = self._brotli_path(key).read_bytes()
            if key in self._brotli:
                return "br", self._brotli[key]
            self.warm(self.absolute_path)
        if "gzip" in accepted:
            if key not in self._gzip:
                with open(self.absolute_path, "rb") as source:
                    self._gzip[key] = gzip.compress(source.read(), compresslevel=9, mtime=0)
            return "gzip", self._gzip[key]
        return None

    async def get(self, path, include_body=True):
        self._wb_range = "Range" in self.request.headers
        return await super().get(path, include_body)

    def get_content_size(self) -> int:
        encoded = self._encoded()
        if encoded is None:
            return super().get_content_size()
        self.set_header("Content-Encoding", encoded[0])  # the response transform then leaves it alone
        return len(encoded[1])

    @classmethod
    def get_content_version(cls, abspath: str) -> str:
        """The file's version (its hash) for ETags, from the file itself (``get_content`` here
        is the encoded body of one response)."""
        with open(abspath, "rb") as f:
            return hashlib.sha512(f.read()).hexdigest()

    def get_content(self, abspath, start=None, end=None):
        encoded = self._encoded()
        if encoded is None:
            return super().get_content(abspath, start, end)
        return encoded[1][start:end]


#: Where the startup script is written (:mod:`startup_script`; named by its content).
STARTUP_DIR = Precompressed.cache_dir.parent / "startup"


def brotli_available() -> bool:
    """Whether the optional ``brotli`` package is installed."""
    try:
        import brotli  # noqa: F401
    except ImportError:
        return False
    return True


def precompressed(handler: type) -> type:
    """``handler`` (a tornado StaticFileHandler) serving gzip from a cache: see :class:`Precompressed`."""
    return type(f"Precompressed{handler.__name__}", (Precompressed, handler), {})


class NotFound(tornado.web.RequestHandler):
    """A plain 404 (what is not served to dashboard visitors)."""

    def prepare(self):
        raise tornado.web.HTTPError(404)


class Seen(tornado.web.RequestHandler):
    """``GET <base>workbook/seen/<kernel id>``: the page's first script, run by a browser that
    has begun to load it (a script reading the page never runs it); always 204."""

    def get(self, kernel_id: str) -> None:
        self.settings["kernel_manager"].seen(kernel_id)
        self.set_header("Cache-Control", "no-store")
        self.set_status(204)
        self.finish()


class BadRequest(tornado.web.RequestHandler):
    """A plain 400 (a path that is not UTF-8 once decoded)."""

    def prepare(self):
        raise tornado.web.HTTPError(400)


class Refused(tornado.web.RequestHandler):
    """400 for a request whose Host is not one this server answers to."""

    def initialize(self, hosts):
        self.hosts = hosts

    def prepare(self):
        self.set_status(400)
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"Host {self.request.host!r} is not served here (allowed: {', '.join(self.hosts)}).\n")


#: The longest request target (path and query) read, in characters: a dashboard's share link
#: needs a few hundred, and a dashboard reads a query of at most 4,000 (workbook.page.share).
MAX_TARGET = 8192
#: The most fields (``name=value`` pairs) a query may have: tornado's own limit, past which it
#: would answer a bare 400 with no page and no log line.
MAX_FIELDS = 1000
#: The most bytes of request line and headers read (tornado's default is 64 KiB, past which it
#: closes the connection unanswered): up to here a too-long request gets its 414 page.
MAX_HEADER_BYTES = 1 << 20


def oversized(target: str) -> tuple[int, str, str] | None:
    """(status, title, text) refusing a request target that is too long (414) or whose query
    has too many fields (400), else None.

    >>> oversized("/voila/render/eldfall.ipynb?dodger.ag=3") is None
    True
    >>> oversized("/?" + "a=1&" * 1500)[:2]
    (400, 'This link has too many fields')
    """
    query = target.partition("?")[2]
    fields = query.count("&") + 1  # as tornado counts them
    if query and fields > MAX_FIELDS:
        return 400, "This link has too many fields", (
            f"The link's query has {fields:,} fields (name=value pairs); this server reads at most "
            f"{MAX_FIELDS:,} (a dashboard's share link has a few).")
    if len(target) > MAX_TARGET:
        return 414, "This link is too long", (
            f"The address asked for is {len(target):,} characters long; this server reads addresses "
            f"of at most {MAX_TARGET:,} characters (a dashboard's share link needs a few hundred).")
    return None


class _Oversized(tornado.httputil.HTTPMessageDelegate):
    """Answers a request :func:`oversized` refuses with its page, before tornado parses its query;
    any other request goes on to ``inner`` (the application's own routing)."""

    def __init__(self, app: "GuardedApplication", inner, connection):
        self.app, self.inner, self.connection = app, inner, connection
        self.refused = False

    def headers_received(self, start_line, headers):
        refusal = oversized(start_line.path)
        if refusal is None:
            return self.inner.headers_received(start_line, headers)
        self.refused = True
        status, title, text = refusal
        address = getattr(self.connection.context, "remote_ip", "?")  # (a proxy's, if trusted)
        self.app.settings["voila_log"].warning("Refused a request from %s (%d): %s", address, status,
                                               text.split(";")[0])
        body = refusal_page("wb-refused", title, text, home=self.app.settings.get("base_url", "/")).encode()
        self.connection.write_headers(
            tornado.httputil.ResponseStartLine("HTTP/1.1", status, tornado.httputil.responses[status]),
            tornado.httputil.HTTPHeaders({"Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store",
                                          "Content-Length": str(len(body)), "Connection": "close"}), body)
        self.connection.finish()
        return None

    def data_received(self, chunk):
        return None if self.refused else self.inner.data_received(chunk)

    def finish(self):
        if not self.refused:
            self.inner.finish()

    def on_connection_close(self):
        if not self.refused:
            self.inner.on_connection_close()


class GuardedApplication(tornado.web.Application):
    """A tornado application that answers only to its allowed host names, never follows ``..``,
    and answers a too-long link with a page of its own."""

    def start_request(self, server_conn, request_conn):
        return _Oversized(self, super().start_request(server_conn, request_conn), request_conn)

    def find_handler(self, request, **kwargs):
        hosts = self.settings["workbook_hosts"]
        if request.host_name.lower() not in hosts:
            self.settings["voila_log"].warning("Refused Host %r from %s", request.host, request.remote_ip)
            return self.get_handler_delegate(request, Refused, {"hosts": hosts})
        try:
            unquote_to_bytes(request.path).decode("utf-8")
        except UnicodeDecodeError:  # (tornado's handlers then fail to render their error page)
            return self.get_handler_delegate(request, BadRequest)
        path = unquote(unquote(request.path))
        if ".." in path.split("/") or "\\" in path or "\x00" in path:
            return self.get_handler_delegate(request, NotFound)
        return super().find_handler(request, **kwargs)

    def listen(self, port: int, address: str = "", **kwargs):
        """Listen, reading the client's address from a proxy's headers if told to trust them."""
        return super().listen(port, address, xheaders=self.settings.get("workbook_xheaders", False),
                              max_header_size=MAX_HEADER_BYTES, **kwargs)


class WorkbookVoila(Voila):
    """Voilà serving the workbook's dashboards (see the module's docstring)."""

    name = "workbook-voila"
    description = "Serve the Dodge Workbook dashboards (Voilà with preheated kernels and limits)."

    hosts = Unicode("127.0.0.1,localhost", config=True, help=(
        "Comma-separated host names (as in the browser's address bar) this server answers to."))
    max_kernels = Integer(40, config=True, help=(
        "Most kernels at once: serving pages, preheated in the pools, and starting; 0: no cap."))
    idle_timeout = Integer(1800, config=True, help=(
        "Seconds without activity after which an open page's kernel is culled."))
    compress = Bool(True, config=True, help="gzip HTTP responses and deflate websocket messages.")
    pools = Unicode("", config=True, help=(
        "Preheated kernels of given notebooks, instead of --pool for them: comma-separated "
        "name=N (e.g. infinity-n4-dodge.ipynb=25 for a class on that dashboard)."))
    max_per_address = Integer(10, config=True, help=(
        "Most dashboards (page kernels) one client address may have open at once; beyond it the "
        "page says so (HTTP 429). 0: no limit. Behind one NAT address a class shares it: raise it."))
    precompress = Bool(False, config=True, help=(
        "Make the Brotli forms of the pages' static files (kept on disk, see Precompressed) and "
        "exit, serving nothing: what a first server would do in the background, done beforehand "
        "(make test runs it while the rest is being installed)."))
    refill_delay = Seconds(3.0, config=True, help=(
        "Seconds after a preheated kernel goes to a page before its pool starts another: the "
        "page's first seconds are not shared with a kernel starting (Voila's own default is 1)."))
    startup_script = Bool(True, config=True, help=(
        "Send the JavaScript chunks every page loads as it starts in one script (see "
        "server/startup_script.py) instead of one request each."))
    trust_xheaders = Bool(False, config=True, help=(
        "Take the client's address from X-Real-Ip / X-Forwarded-For (only behind a reverse proxy "
        "that sets them: anyone else could claim any address)."))

    classes = [*Voila.classes, WorkbookKernelManager]

    aliases = {**Voila.aliases, "hosts": "WorkbookVoila.hosts", "max-kernels": "WorkbookVoila.max_kernels",
               "pool": "VoilaConfiguration.default_pool_size", "pools": "WorkbookVoila.pools",
               "idle-timeout": "WorkbookVoila.idle_timeout",
               "max-per-address": "WorkbookVoila.max_per_address",
               "trust-xheaders": "WorkbookVoila.trust_xheaders",
               "disconnected-timeout": "WorkbookKernelManager.disconnected_timeout",
               "never-connected-timeout": "WorkbookKernelManager.never_connected_timeout",
               "loading-timeout": "WorkbookKernelManager.loading_timeout",
               "place-wait": "WorkbookKernelManager.place_wait",
               "refill-delay": "WorkbookVoila.refill_delay",
               "precompress": "WorkbookVoila.precompress",
               "startup-script": "WorkbookVoila.startup_script",
               "startup-timeout": "VoilaExecutor.startup_timeout",
               "iopub-timeout": "VoilaExecutor.iopub_timeout"}

    @default("ip")
    def _default_ip(self):
        return "127.0.0.1"

    @default("open_browser")
    def _default_open_browser(self):
        return False

    def initialize(self, argv=None):
        super().initialize(argv)
        self.root_dir = os.path.abspath(self.root_dir)  # Voilà 0.5.8 keeps a relative one
        conf = self.voila_configuration
        notebooks = sorted(p.relative_to(self.root_dir).as_posix() for p in Path(self.root_dir).rglob("*.ipynb")
                           if ".ipynb_checkpoints" not in p.parts)
        # --pool, then Voilà's own kernel_pools_config if given, then --pools, each over the last
        given = self.config.VoilaKernelManager.get("kernel_pools_config") or {}
        if isinstance(given, str):  # given on the command line: JSON text
            try:
                given = json.loads(given)
            except ValueError as err:
                raise SystemExit(f"--VoilaKernelManager.kernel_pools_config: not JSON ({err})") from None
        pools_config = {"default": {"pool_size": max(conf.default_pool_size, 0)}, **given,
                        **{name: {"pool_size": size} for name, size in notebook_pools(self.pools, notebooks).items()}}
        self.config.VoilaKernelManager.kernel_pools_config = pools_config
        # A pool refills a moment after its kernel went to a page, not while the page starts
        # (docs/deploy.md, "Preheating"); Voilà's own setting, if given, wins.
        self.config.VoilaKernelManager.setdefault("fill_delay", max(self.refill_delay, 0.0))
        # the preheated kernels of every notebook (> 0: preheating is on)
        pool = sum(int(pools_config.get(name, pools_config["default"]).get("pool_size", 0)) for name in notebooks)
        conf.preheat_kernel = pool > 0
        conf.multi_kernel_manager_class = WorkbookKernelManager
        # One cap for every kernel, preheated ones included: the pools fill within it.
        voila.app.voila_kernel_manager_factory = capped_kernel_manager_factory
        self.config.WorkbookKernelManager.max_kernels = self.max_kernels
        self.config.WorkbookKernelManager.max_per_address = max(self.max_per_address, 0)
        # A page's template and theme are the server's: a link naming either is refused
        # (DashboardHandler) and Voilà itself never reads them from the query.
        conf.allow_template_override = conf.allow_theme_override = "NO"
        if self.max_kernels and pool > self.max_kernels:
            self.log.warning("%d preheated kernels for %d notebooks is more than the cap of %d "
                             "kernels: the pools fill as far as the cap allows (and pages then take "
                             "preheated kernels from each other's pools)", pool, len(notebooks),
                             self.max_kernels)
        if conf.template == "lab":  # the default: use ours, which extends it
            conf.template = "workbook"
            self.setup_template_dirs()
        if not conf.extension_allowlist:
            conf.extension_allowlist = list(EXTENSIONS)
        self.startup_chunks: list[Path] = []  # the files the startup script carries (_startup_script)
        self.startup_file = self._startup_script() if self.startup_script else None
        if conf.page_config_hook is None:
            root = self.root_dir
            startup = self.startup_file and startup_js.address(self.startup_file)

            def hook(page_config, *args, notebook_path=None, **kwargs):
                if startup:
                    page_config["workbookStartupJs"] = startup
                return extensions_for(page_config, root, notebook_path)

            conf.page_config_hook = hook
        # Culling: check every 10 s; an idle page's kernel goes after idle_timeout even if open.
        # Kernels talk to the server over Unix sockets where there are any: a TCP port chosen
        # free for a kernel can be taken by another connection before the kernel binds it.
        if os.name == "posix":
            self.config.KernelManager.setdefault("transport", "ipc")
        kernel_config = self.config.MappingKernelManager
        kernel_config.setdefault("cull_interval", 10)
        kernel_config.setdefault("cull_idle_timeout", self.idle_timeout)
        kernel_config.setdefault("cull_connected", True)
        executor = self.config.VoilaExecutor
        executor.setdefault("startup_timeout", 180)
        executor.setdefault("iopub_timeout", 60)
        executor.setdefault("raise_on_iopub_timeout", True)
        # A cell may run 300 s; but in a preheated kernel the dashboard's cell waits for its page
        # to be requested, which may take hours in a class's pool: with preheating on, Voilà's one
        # cell time limit (for every page) is lifted.
        executor.setdefault("timeout", None if pool > 0 else 300)
        conf.http_keep_alive_timeout = min(conf.http_keep_alive_timeout, 10)
        # A preheated kernel asks this server for its page request: on the address it listens on.
        os.environ.setdefault("VOILA_APP_IP", self.ip if self.ip not in ("", "0.0.0.0", "::") else "127.0.0.1")

    def _startup_script(self) -> Path | None:
        """The script of the chunks every page loads as it starts (:mod:`startup_script`), written
        now if it is not on disk; None if this server has none of them."""
        files, missing = startup_js.chunk_files(self.static_paths, self.labextensions_path,
                                                self.voila_configuration.extension_allowlist)
        try:
            made = startup_js.write(files, STARTUP_DIR) if files else None
        except OSError as err:
            self.log.warning("No startup script (pages fetch its chunks one by one): %s", err)
            return None
        if missing:
            self.log.warning("The startup script lacks %d of its %d listed chunks, which pages fetch "
                             "one by one instead (after an upgrade of Voilà or an extension, run "
                             "tools/startup_chunks.py): %s", len(missing),
                             len(startup_js.listed()), ", ".join(missing[:3]))
        self.startup_chunks = files if made else []
        return made

    def _warm_static(self) -> None:
        """Have the Brotli forms of the big static files made (once; kept on disk): plotly.js, the
        startup script and the files a page fetches itself, but not the chunks the startup script
        carries (no page asks for them on its own; with them, this took twice as long)."""
        folders = [*self.static_paths]
        for base in self.labextensions_path:
            folders += [os.path.join(base, name) for name in self.voila_configuration.extension_allowlist]
        made = [str(PLOTLY_DIR / "plotly.min.js"), *([str(PLOTLY_BASIC_DIR / BASIC_FILE)] if PLOTLY_BASIC_DIR else []),
                *([str(self.startup_file)] if self.startup_file else [])]
        files = _static_files(f for f in folders if os.path.isdir(f))
        carried = {str(f) for f in self.startup_chunks}
        files = [f for f in files if f not in carried]
        for path in [*files, *made]:
            Precompressed.warm(path)

    @property
    def allowed_hosts(self) -> list[str]:
        return [h.strip().lower() for h in self.hosts.split(",") if h.strip()]

    def init_handlers(self):
        replaced = {TornadoVoilaHandler: DashboardHandler, VoilaShutdownKernelHandler: ShutdownHandler,
                    TemplateStaticFileHandler: TemplateStatic}
        handlers = []
        for spec in super().init_handlers():
            pattern, handler, *rest = spec
            if handler in (TornadoVoilaTreeHandler, VoilaContentsHandler):
                continue  # no file tree, no contents API for visitors
            handler = replaced.get(handler, handler)
            if self.compress and issubclass(handler, tornado.web.StaticFileHandler):
                handler = precompressed(handler)
            handlers.append((pattern, handler, *rest))
        index = url_path_join(self.base_url, "voila/render/index.ipynb")
        root = self.server_url.rstrip("/")
        static = precompressed(tornado.web.StaticFileHandler) if self.compress else tornado.web.StaticFileHandler
        basic = [(f"{root}/{STATIC_PREFIX}({re.escape(BASIC_FILE)})", static, {"path": str(PLOTLY_BASIC_DIR)})
                 ] if PLOTLY_BASIC_DIR else []
        return [(f"{root}/{STATIC_PREFIX}(plotly\\.min\\.js)", static, {"path": str(PLOTLY_DIR)}), *basic,
                (f"{root}/" + startup_js.ADDRESS.format(name=r"(startup\.[0-9a-f]+\.js)"), static,
                 {"path": str(STARTUP_DIR)}),
                (f"{root}/workbook/seen/([0-9a-f-]{{36}})", Seen),
                (root + "/?", tornado.web.RedirectHandler, {"url": index, "permanent": False}),
                (root + "/voila/tree(/.*)?", tornado.web.RedirectHandler, {"url": index, "permanent": False}),
                (root + "/voila/api/contents(/.*)?", NotFound), *handlers]

    @catch_config_error
    def init_settings(self) -> dict:
        """Voilà's settings, with its kernel manager made from the config: a bad value of one of
        the kernel manager's settings (``--place-wait=abc``) stops the server with one line, as a
        bad value of the server's own does, instead of a traceback."""
        return super().init_settings()

    def start(self):
        if self.precompress:
            self._warm_static()
            made = Precompressed.wait()
            self.log.info("Brotli forms made: %d (kept in %s)", made, Precompressed.cache_dir)
            return
        self.connection_dir = tempfile.mkdtemp(prefix="voila_", dir=self.connection_dir_root)
        settings = self.init_settings()
        settings.update(self.tornado_settings)
        # jupyter_server's error and logout pages, on a page of our own (see server/templates/page.html)
        server_env = settings["jinja2_env"]
        server_env.loader = jinja2.ChoiceLoader([jinja2.FileSystemLoader(str(HERE / "templates")), server_env.loader])
        settings.update(allow_remote_access=False, local_hostnames=self.allowed_hosts,
                        workbook_hosts=self.allowed_hosts, workbook_max_kernels=self.max_kernels,
                        workbook_xheaders=self.trust_xheaders, voila_log=self.log)
        if self.compress:
            settings.update(compress_response=True, websocket_compression_options={})
        self.log.info("Kernel manager: %s", " < ".join(c.__name__ for c in type(self.kernel_manager).__mro__[:3]))
        self.app = GuardedApplication(**settings)
        if self.compress:
            self._warm_static()
        self.app.add_handlers(".*$", self.init_handlers())
        asyncio.get_event_loop().set_exception_handler(quiet_closed_connections)
        self.log.info("Workbook server: pool %d per notebook%s, at most %d kernels in all, "
                      "hosts %s, idle pages culled after %d s",
                      max(self.voila_configuration.default_pool_size, 0),
                      f" ({self.pools})" if self.pools else "", self.max_kernels,
                      ", ".join(self.allowed_hosts), self.idle_timeout)
        self.listen()


def quiet_closed_connections(loop: asyncio.AbstractEventLoop, context: dict) -> None:
    """The event loop's handler of errors nobody awaited: a message still being written to a tab
    that has just closed (a websocket or stream closed under it) is what closing a tab does, not
    an error; anything else goes to the loop's default handler (the log)."""
    from tornado.iostream import StreamClosedError
    from tornado.websocket import WebSocketClosedError

    if isinstance(context.get("exception"), (WebSocketClosedError, StreamClosedError)):
        return
    loop.default_exception_handler(context)


def _static_files(folders) -> list[str]:
    return [str(p) for folder in folders for p in Path(folder).rglob("*")
            if p.suffix in (".js", ".css") and p.is_file() and p.stat().st_size > 20_000]


def main(argv: list[str] | None = None) -> None:
    """Run the server (arguments as for ``voila``, plus the settings above)."""
    WorkbookVoila.launch_instance(argv)


if __name__ == "__main__":
    main(sys.argv[1:])
