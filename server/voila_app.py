"""Serve the dashboards for a class: Voilà with preheated kernels, a kernel cap and a Host allowlist.

``make run`` starts this instead of the plain ``voila`` command. It is Voilà 0.5 itself (the same
handlers, kernels and pages) with these changes, each a setting (``--help-all`` lists them)::

    python server/voila_app.py notebooks --port=8866 --pool=1 --max-kernels=40 \\
        --hosts=127.0.0.1,localhost --idle-timeout=1800

- **Preheated kernels**: ``--pool=N`` kernels per notebook run it before anyone asks, so a page
  request gets a kernel whose dashboard is already built (Voilà's own ``preheat_kernel``).
  ``--pool=0`` turns preheating off.
- **Kernel cap**: at most ``--max-kernels`` kernels serve pages at once (pooled kernels not
  counted); a visitor beyond it gets a short "the server is full, try again in a minute" page
  (HTTP 503) with a retry button instead of a page that never renders.
- **Kernels released**: a page's kernel is shut down when the tab closes (the page's shutdown
  beacon now carries the token it needs), and ``--disconnected-timeout`` seconds after its last
  browser connection went away in any case; an open but idle page's kernel is culled after
  ``--idle-timeout`` seconds and the page says so and offers to reconnect.
- **Host allowlist**: a request whose ``Host`` is not in ``--hosts`` gets 400 (a DNS-rebinding
  page cannot reach the server, and no foreign host name reaches a share link).
- **Not exposed**: the file tree and ``/voila/api/contents`` (``/`` goes to the index
  dashboard), paths with ``..`` or a malformed template path (404, never 500).
- **Light pages**: responses gzip-compressed, websocket messages deflated, the template
  ``server/jupyter/voila/templates/workbook`` links nothing outside the server, and only the
  JupyterLab extensions a dashboard needs are loaded.
- **Patient, never silent**: a kernel may take ``--startup-timeout`` seconds to start and a cell
  ``--iopub-timeout`` seconds to deliver its output on a busy machine; past that the page shows
  an error with a retry button instead of an empty dashboard.
"""

from __future__ import annotations

import asyncio
import html
import os
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import unquote

HERE = Path(__file__).resolve().parent
# Voilà finds templates under <jupyter path>/voila/templates: put this folder's first.
os.environ["JUPYTER_PATH"] = os.pathsep.join(
    [str(HERE / "jupyter"), *filter(None, os.environ.get("JUPYTER_PATH", "").split(os.pathsep))])

import tornado.web  # noqa: E402
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager  # noqa: E402
from jupyter_server.utils import url_path_join  # noqa: E402
from traitlets import Bool, Integer, Unicode, default  # noqa: E402
from voila.app import Voila  # noqa: E402
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler  # noqa: E402
from voila.static_file_handler import TemplateStaticFileHandler  # noqa: E402
from voila.tornado.contentshandler import VoilaContentsHandler  # noqa: E402
from voila.tornado.handler import TornadoVoilaHandler  # noqa: E402
from voila.tornado.treehandler import TornadoVoilaTreeHandler  # noqa: E402

#: The JupyterLab extensions a dashboard uses (widgets, plotly charts); others are not loaded.
EXTENSIONS = ["@jupyter-widgets/jupyterlab-manager", "@voila-dashboards/widgets-manager8", "jupyterlab-plotly"]


class WorkbookKernelManager(AsyncMappingKernelManager):
    """Kernels that are shut down soon after their last browser connection closed."""

    disconnected_timeout = Integer(30, config=True, help=(
        "Seconds after the last browser connection to a kernel closed before it is shut down "
        "(a reload reconnects well within it)."))
    never_connected_timeout = Integer(300, config=True, help=(
        "Seconds a kernel started for a page may wait for its browser to connect at all."))

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._left: dict[str, float] = {}   # kernel id -> monotonic time its last connection closed
        self._born: dict[str, float] = {}   # kernel id -> when it started, until it is connected

    async def start_kernel(self, *args, **kwargs) -> str:
        kernel_id = await super().start_kernel(*args, **kwargs)
        self._born.setdefault(kernel_id, time.monotonic())
        return kernel_id

    def notify_connect(self, kernel_id: str) -> None:
        super().notify_connect(kernel_id)
        self._left.pop(kernel_id, None)
        self._born.pop(kernel_id, None)

    def notify_disconnect(self, kernel_id: str) -> None:
        super().notify_disconnect(kernel_id)
        if self._kernel_connections.get(kernel_id, 0) <= 0 and kernel_id in self:
            self._left[kernel_id] = time.monotonic()
            asyncio.get_event_loop().call_later(self.disconnected_timeout + 1, lambda: asyncio.ensure_future(
                self._release_if_abandoned(kernel_id)))

    async def _release_if_abandoned(self, kernel_id: str) -> bool:
        """Shut ``kernel_id`` down if no browser has been connected to it for long enough."""
        now = time.monotonic()
        if kernel_id not in self or self._kernel_connections.get(kernel_id, 0) > 0:
            return False
        left, born = self._left.get(kernel_id), self._born.get(kernel_id)
        if left is not None and now - left >= self.disconnected_timeout:
            why = f"no browser connected for {now - left:.0f} s"
        elif left is None and born is not None and now - born >= self.never_connected_timeout:
            why = f"no browser ever connected in {now - born:.0f} s"
        else:
            return False
        self.log.info("Releasing kernel %s: %s.", kernel_id, why)
        await self.shutdown_kernel(kernel_id)
        return True

    async def shutdown_kernel(self, kernel_id: str, *args, **kwargs):
        self._left.pop(kernel_id, None)
        self._born.pop(kernel_id, None)
        return await super().shutdown_kernel(kernel_id, *args, **kwargs)

    async def cull_kernel_if_idle(self, kernel_id: str):
        if await self._release_if_abandoned(kernel_id):
            return None
        return await super().cull_kernel_if_idle(kernel_id)


def pooled_kernel_ids(kernel_manager) -> set[str]:
    """Ids of the preheated kernels still waiting in Voilà's pools (not serving a page)."""
    ids = set()
    for pool in getattr(kernel_manager, "_pools", {}).values():
        for task in pool:
            if task.done() and not task.cancelled() and task.exception() is None:
                ids.add(task.result()["kernel_id"])
    return ids


def pending_pool_starts(kernel_manager) -> int:
    """Preheated kernels still starting (counted as pool, not as serving a page)."""
    return sum(1 for pool in getattr(kernel_manager, "_pools", {}).values() for t in pool if not t.done())


def kernels_serving(kernel_manager) -> int:
    """How many kernels serve pages now: all kernels minus those waiting in the pools."""
    ids = set(kernel_manager.list_kernel_ids())
    return max(0, len(ids - pooled_kernel_ids(kernel_manager)) - pending_pool_starts(kernel_manager))


FULL_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>The server is full</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{{font-family:sans-serif;max-width:36em;margin:15vh auto;padding:0 1em;color:#222}}
button{{font-size:1em;padding:.4em 1.2em}}</style></head>
<body class="wb-server-full"><h1>The server is full</h1>
<p>{active} dashboards are open, the most this server runs at once. Try again in a minute:
a place frees up as soon as someone closes a dashboard.</p>
<p><button class="wb-retry" onclick="location.reload()">Try again</button>
<small id="wb-auto">(this page tries again by itself in <span id="wb-left">60</span> s)</small></p>
<script>let left = 60; setInterval(() => {{ left -= 1;
  document.getElementById('wb-left').textContent = left; if (left <= 0) location.reload(); }}, 1000);</script>
</body></html>"""


class DashboardHandler(TornadoVoilaHandler):
    """Voilà's page handler, refusing politely beyond the kernel cap."""

    async def get(self, path=None):
        cap = self.settings.get("workbook_max_kernels", 0)
        if cap and path and path.endswith(".ipynb"):
            serving = kernels_serving(self.kernel_manager)
            if serving >= cap:
                self.log.warning("Server full: %d kernels serve pages (cap %d); refused %s",
                                 serving, cap, self.request.path)
                self.set_status(503)
                self.set_header("Retry-After", "60")
                self.set_header("Content-Type", "text/html; charset=utf-8")
                self.set_header("Cache-Control", "no-store")
                self.finish(FULL_PAGE.format(active=serving))
                return
        started = time.monotonic()
        _ = self.xsrf_token  # sets the _xsrf cookie the page's shutdown beacon sends back
        await super().get(path)
        self.log.info("Page %s served in %.2f s", self.request.path, time.monotonic() - started)


class ShutdownHandler(VoilaShutdownKernelHandler):
    """The page's shutdown beacon, accepted only from this server's own pages."""

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


class NotFound(tornado.web.RequestHandler):
    """A plain 404 (what is not served to dashboard visitors)."""

    def prepare(self):
        raise tornado.web.HTTPError(404)


class Refused(tornado.web.RequestHandler):
    """400 for a request whose Host is not one this server answers to."""

    def initialize(self, hosts):
        self.hosts = hosts

    def prepare(self):
        self.set_status(400)
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"Host {self.request.host!r} is not served here (allowed: {', '.join(self.hosts)}).\n")


class GuardedApplication(tornado.web.Application):
    """A tornado application that answers only to its allowed host names and never follows ``..``."""

    def find_handler(self, request, **kwargs):
        hosts = self.settings["workbook_hosts"]
        if request.host_name.lower() not in hosts:
            self.settings["voila_log"].warning("Refused Host %r from %s", request.host, request.remote_ip)
            return self.get_handler_delegate(request, Refused, {"hosts": hosts})
        path = unquote(unquote(request.path))
        if ".." in path.split("/") or "\\" in path or "\x00" in path:
            return self.get_handler_delegate(request, NotFound)
        return super().find_handler(request, **kwargs)


class WorkbookVoila(Voila):
    """Voilà serving the workbook's dashboards (see the module's docstring)."""

    name = "workbook-voila"
    description = "Serve the Dodge Workbook dashboards (Voilà with preheated kernels and limits)."

    hosts = Unicode("127.0.0.1,localhost", config=True, help=(
        "Comma-separated host names (as in the browser's address bar) this server answers to."))
    max_kernels = Integer(40, config=True, help=(
        "Most kernels serving pages at once (preheated ones not counted); 0: no cap."))
    idle_timeout = Integer(1800, config=True, help=(
        "Seconds without activity after which an open page's kernel is culled."))
    compress = Bool(True, config=True, help="gzip HTTP responses and deflate websocket messages.")

    aliases = {**Voila.aliases, "hosts": "WorkbookVoila.hosts", "max-kernels": "WorkbookVoila.max_kernels",
               "pool": "VoilaConfiguration.default_pool_size",
               "idle-timeout": "WorkbookVoila.idle_timeout",
               "disconnected-timeout": "WorkbookKernelManager.disconnected_timeout",
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
        conf = self.voila_configuration
        pool = conf.default_pool_size
        conf.preheat_kernel = pool > 0
        conf.multi_kernel_manager_class = WorkbookKernelManager
        if conf.template == "lab":  # the default: use ours, which extends it
            conf.template = "workbook"
            self.setup_template_dirs()
        if not conf.extension_allowlist:
            conf.extension_allowlist = list(EXTENSIONS)
        # Culling: check every 10 s; an idle page's kernel goes after idle_timeout even if open.
        kernel_config = self.config.MappingKernelManager
        kernel_config.setdefault("cull_interval", 10)
        kernel_config.setdefault("cull_idle_timeout", self.idle_timeout)
        kernel_config.setdefault("cull_connected", True)
        executor = self.config.VoilaExecutor
        executor.setdefault("startup_timeout", 180)
        executor.setdefault("iopub_timeout", 60)
        executor.setdefault("raise_on_iopub_timeout", True)
        executor.setdefault("timeout", 300)
        conf.http_keep_alive_timeout = min(conf.http_keep_alive_timeout, 10)

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
            handlers.append((pattern, replaced.get(handler, handler), *rest))
        index = url_path_join(self.base_url, "voila/render/index.ipynb")
        root = self.server_url.rstrip("/")
        return [(root + "/?", tornado.web.RedirectHandler, {"url": index, "permanent": False}),
                (root + "/voila/tree(/.*)?", tornado.web.RedirectHandler, {"url": index, "permanent": False}),
                (root + "/voila/api/contents(/.*)?", NotFound), *handlers]

    def start(self):
        self.connection_dir = tempfile.mkdtemp(prefix="voila_", dir=self.connection_dir_root)
        settings = self.init_settings()
        settings.update(self.tornado_settings)
        settings.update(allow_remote_access=False, local_hostnames=self.allowed_hosts,
                        workbook_hosts=self.allowed_hosts, workbook_max_kernels=self.max_kernels,
                        voila_log=self.log)
        if self.compress:
            settings.update(compress_response=True, websocket_compression_options={})
        self.app = GuardedApplication(**settings)
        self.app.add_handlers(".*$", self.init_handlers())
        self.log.info("Workbook server: pool %d per notebook, at most %d kernels serving pages, "
                      "hosts %s, idle pages culled after %d s",
                      self.voila_configuration.default_pool_size if self.voila_configuration.preheat_kernel
                      else 0, self.max_kernels, ", ".join(self.allowed_hosts), self.idle_timeout)
        self.listen()


def main(argv: list[str] | None = None) -> None:
    """Run the server (arguments as for ``voila``, plus the settings above)."""
    WorkbookVoila.launch_instance(argv)


if __name__ == "__main__":
    main(sys.argv[1:])
