"""Settings of the server (``server/voila_app.py``) that need no running server: its event-loop
error handler (a tab that closes while a message is written to it leaves no traceback in the
log; any other unawaited error still does) and its cell time limits."""

from __future__ import annotations

import asyncio
import importlib.util
import os
import sys
from pathlib import Path

import html
import json
import subprocess

import pytest
from tornado.iostream import StreamClosedError
from tornado.websocket import WebSocketClosedError

SERVER = Path(__file__).resolve().parents[2] / "server" / "voila_app.py"


@pytest.fixture(scope="module")
def server_module():
    saved = os.environ.get("JUPYTER_PATH")  # the module puts its template folder first
    spec = importlib.util.spec_from_file_location("workbook_server_under_test", SERVER)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop(spec.name, None)
        if saved is None:
            os.environ.pop("JUPYTER_PATH", None)
        else:
            os.environ["JUPYTER_PATH"] = saved


@pytest.mark.parametrize("error", [WebSocketClosedError(), StreamClosedError()])
def test_a_write_to_a_closed_tab_is_not_logged(server_module, error):
    loop = asyncio.new_event_loop()
    logged = []
    loop.default_exception_handler = logged.append  # what the handler would log
    try:
        server_module.quiet_closed_connections(loop, {"message": "Task exception was never retrieved",
                                                      "exception": error})
        assert logged == []
        other = {"message": "Task exception was never retrieved", "exception": ValueError("boom")}
        server_module.quiet_closed_connections(loop, other)
        assert logged == [other]  # any other error reaches the log
        server_module.quiet_closed_connections(loop, {"message": "no exception at all"})
        assert len(logged) == 2
    finally:
        loop.close()


@pytest.mark.parametrize("pool, limit", [(1, None), (0, 300)])
def test_a_preheated_kernel_waits_for_its_visitor_without_a_cell_time_limit(server_module, pool, limit):
    """A preheated kernel's dashboard cell waits for the page request (maybe hours, in a class's
    pool): a cell time limit would turn every pooled page into an error page after it."""
    app = server_module.WorkbookVoila()
    try:
        app.initialize([str(SERVER.parents[1] / "notebooks"), f"--pool={pool}", "--port=0"])
        assert app.voila_configuration.preheat_kernel is (pool > 0)
        assert app.config.VoilaExecutor.timeout == limit
    finally:
        server_module.WorkbookVoila.clear_instance()


def test_a_class_dashboard_gets_its_own_pool_size(server_module):
    """``--pools`` sizes the pools of given notebooks over ``--pool``; with ``--pool=0`` it alone
    turns preheating on (and the cell time limit off), for those notebooks only."""
    app = server_module.WorkbookVoila()
    try:
        app.initialize([str(SERVER.parents[1] / "notebooks"), "--pool=0", "--port=0",
                        "--pools=infinity-n4-dodge.ipynb=25, d100-homebrew.ipynb=2"])
        assert app.voila_configuration.preheat_kernel is True and app.config.VoilaExecutor.timeout is None
        assert app.config.VoilaKernelManager.kernel_pools_config == {
            "default": {"pool_size": 0}, "infinity-n4-dodge.ipynb": {"pool_size": 25},
            "d100-homebrew.ipynb": {"pool_size": 2}}
    finally:
        server_module.WorkbookVoila.clear_instance()


@pytest.mark.parametrize("given, delay", [((), 3.0), (("--refill-delay=0.5",), 0.5), (("--refill-delay=-2",), 0.0),
                                           (("--VoilaKernelManager.fill_delay=1",), 1.0)])
def test_a_pool_refills_a_moment_after_its_kernel_went_to_a_page(server_module, given, delay):
    """A pool starts another kernel ``--refill-delay`` seconds (3) after one of its kernels went to
    a page, not one second after as Voilà would (the new kernel's start then shared the machine
    with the page's own start); Voilà's own ``fill_delay``, if given, wins."""
    app = server_module.WorkbookVoila()
    try:
        app.initialize([str(SERVER.parents[1] / "notebooks"), "--pool=0", "--port=0", *given])
        # the server's pooled kernel manager (pools of 0 here: nothing starts), as Voilà makes it
        manager_class = server_module.capped_kernel_manager_factory(
            app.voila_configuration.multi_kernel_manager_class, True, 0)
        manager = manager_class(parent=app)
        assert manager.fill_delay == delay and not any(manager._pools.values())
    finally:
        server_module.WorkbookVoila.clear_instance()


@pytest.mark.parametrize("pools, said", [
    ("nope.ipynb=3", "no notebook 'nope.ipynb' is served"),
    ("infinity-n4-dodge.ipynb=many", "is not name.ipynb=N"),
    ("infinity-n4-dodge.ipynb", "is not name.ipynb=N"),
    ("infinity-n4-dodge.ipynb=201", "from 0 to 200"),
    ("infinity-n4-dodge.ipynb=-1", "is not name.ipynb=N"),
])
def test_a_wrong_pools_setting_stops_the_server_with_one_line(server_module, pools, said):
    notebooks = ["infinity-n4-dodge.ipynb", "gurps-4e.ipynb"]
    with pytest.raises(SystemExit) as stopped:
        server_module.notebook_pools(pools, notebooks)
    message = str(stopped.value)
    assert said in message and "\n" not in message and message.startswith("--pools: ")


def test_the_culler_passes_over_a_kernel_gone_or_still_starting(server_module):
    """The culler goes round a list made before it awaits each kernel: one shut down meanwhile
    (its tab closed) or still starting (no activity yet) is passed over, not logged as an error."""
    from jupyter_server.services.kernels.kernelmanager import ServerKernelManager

    manager = server_module.WorkbookKernelManager()
    assert asyncio.run(manager.cull_kernel_if_idle("gone")) is None
    starting = ServerKernelManager()
    with pytest.raises(Exception):
        starting.last_activity  # jupyter_server's trait, never set yet: reading it raises
    manager._kernels["starting"] = starting
    try:
        assert asyncio.run(manager.cull_kernel_if_idle("starting")) is None
        assert manager._idle("starting") == 0.0
    finally:
        manager._kernels.pop("starting")


# -- hardening ------------------------------------------------------------------------------------

HOSTILE = ['"><script>alert(9)</script>', "javascript:alert(1)//", "' onmouseover='alert(2)"]


@pytest.mark.parametrize("given, trait, said", [
    ("--refill-delay=nan", "refill_delay", "expected a finite number of seconds, not the float nan"),
    ("--place-wait=inf", "place_wait", "expected a finite number of seconds, not the float inf"),
    ("--never-connected-timeout=abc", "never_connected_timeout", "expected an int, not the str 'abc'"),
])
def test_a_bad_value_of_a_setting_stops_the_server_with_one_line(given, trait, said):
    """The server's own settings and its kernel manager's alike: one line naming the setting and
    what it expects, no traceback (the kernel manager's, made after the server's settings were
    read, once raised one), and no wait left never ending (``nan`` or ``inf`` seconds)."""
    done = subprocess.run([sys.executable, str(SERVER), str(SERVER.parents[1] / "notebooks"), "--port=0", "--pool=0", given],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    said_lines = [line for line in done.stderr.splitlines() if "Bad config" in line]
    assert len(said_lines) == 1 and f"'{trait}' trait" in said_lines[0] and said in said_lines[0], done.stderr


def test_help_and_help_all_list_the_servers_own_settings():
    """``--help`` once died of a KeyError (an alias naming a class the app did not list)."""
    for flag in ("--help", "--help-all"):
        done = subprocess.run([sys.executable, str(SERVER), flag], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        assert "Traceback" not in done.stderr
        for option in ("--max-kernels", "--max-per-address", "--never-connected-timeout", "--trust-xheaders",
                       "--refill-delay"):
            assert option in done.stdout, (flag, option)


def test_links_cannot_choose_the_template_or_the_theme(server_module):
    app = server_module.WorkbookVoila()
    try:
        app.initialize([str(SERVER.parents[1] / "notebooks"), "--port=0"])
        conf = app.voila_configuration
        assert (conf.allow_template_override, conf.allow_theme_override) == ("NO", "NO")
        assert app.config.WorkbookKernelManager.max_per_address == 10
    finally:
        server_module.WorkbookVoila.clear_instance()


@pytest.mark.parametrize("block", ["body_header", "html_head_js"])
@pytest.mark.parametrize("hostile", [h for h in HOSTILE if h != html.escape(h)])
def test_the_page_template_escapes_what_it_writes(server_module, block, hostile):
    """Every block of the workbook's page template escapes a value it is given (nbconvert's
    templates do not autoescape): a theme, a base URL or a page setting holding markup comes
    out as text. The blocks are rendered by themselves with that value in every variable."""
    import jinja2
    from voila.paths import collect_template_paths

    paths = collect_template_paths(["voila", "nbconvert"], "workbook")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(paths), extensions=["jinja2.ext.do"])
    template = env.get_template("index.html.j2")
    assert "autoescape" in (Path(paths[0]) / "index.html.j2").read_text()
    macro = lambda *a, **k: jinja2.utils.markupsafe.Markup("<i>trusted</i>")  # noqa: E731
    context = template.new_context({
        "resources": {"theme": hostile, "base_url": hostile, "include_js": macro},
        "page_config": {"workbookPlotlyJs": hostile, "workbookStartupJs": hostile, "fullStaticUrl": hostile},
        "main_js": hostile,
        "spinner": type("M", (), {"html": macro, "css": macro}), "log": type("M", (), {"js": macro}),
        "voila_setup_helper_functions": macro, "voila_setup_labextensions": macro,
        "kernel_start": lambda nb: hostile, "cell_generator": lambda nb, kid: [], "nb": {"cells": []},
        "frontend": "voila"})
    written = "".join(template.blocks[block](context))
    assert hostile not in written
    assert jinja2.utils.markupsafe.escape(hostile) in written
    assert "<i>trusted</i>" in written  # the template's own helpers' markup is kept


def _page_kernel(manager, server_module, visit, kernel_id: str) -> None:
    """``kernel_id`` started for the page request of ``visit``, as start_kernel records it."""
    import time as clock

    manager._kernels[kernel_id] = object()
    manager._kernel_connections[kernel_id] = 0
    manager._born.setdefault(kernel_id, clock.monotonic())
    token = server_module._VISIT.set(visit)
    try:
        manager.assign(kernel_id)
    finally:
        server_module._VISIT.reset(token)


def test_a_page_counts_against_its_address_while_sent_waiting_or_connected(server_module):
    """Admission per address: a page counts while it is being sent, while its kernel waits for
    the browser's first connection and while a browser is connected; once its browser went away
    (its websocket closed, for any reason) it no longer counts, though its kernel is still held;
    a page that failed before its kernel frees its place at once; another address is untouched."""

    async def run():
        manager = server_module.WorkbookKernelManager(max_per_address=2)
        first = await manager.admit("10.0.0.5", "a.ipynb")
        second = await manager.admit("10.0.0.5", "b.ipynb")
        assert first is not None and second is not None
        assert await manager.admit("10.0.0.5", "c.ipynb", wait=0) is None   # its share is taken
        assert await manager.admit("10.0.0.6", "a.ipynb") is not None       # another address
        _page_kernel(manager, server_module, first, "kernel-1")
        token = server_module._VISIT.set(first)
        try:
            manager.assign("kernel-2")                   # (a visit is given one kernel only)
        finally:
            server_module._VISIT.reset(token)
        assert "kernel-2" not in manager._owners
        manager.leave(first)                             # sent: it waits for its browser
        assert manager.open_pages("10.0.0.5") == 2 and manager.open_pages() == 3
        manager.notify_connect("kernel-1")               # its browser connected
        assert manager.open_pages("10.0.0.5") == 2
        manager.leave(second)                            # a page that failed before its kernel
        assert manager.open_pages("10.0.0.5") == 1
        manager.notify_disconnect("kernel-1")            # its tab closed, no beacon
        assert manager.open_pages("10.0.0.5") == 0
        assert manager.pages_held() == 2                 # its kernel, and 10.0.0.6's request
        manager.notify_connect("kernel-1")               # it came back (a dropped connection)
        assert manager.open_pages("10.0.0.5") == 1
        manager._kernels.clear()
        assert await server_module.WorkbookKernelManager().admit("x", "a.ipynb", wait=0) is not None  # 0: no limit

    asyncio.run(run())


def test_an_address_at_its_share_waits_a_moment_for_a_place(server_module):
    """A reload's page request may come just before the old page's shutdown beacon: at the
    limit a request waits up to ``place_wait`` for a place, and is refused only after it."""

    async def run():
        manager = server_module.WorkbookKernelManager(max_per_address=1)
        assert manager.place_wait == 2.0
        held = await manager.admit("10.0.0.5", "a.ipynb")
        asyncio.get_running_loop().call_later(0.3, manager.leave, held)
        started = asyncio.get_running_loop().time()
        assert await manager.admit("10.0.0.5", "a.ipynb", wait=5) is not None
        assert asyncio.get_running_loop().time() - started < 2
        started = asyncio.get_running_loop().time()
        assert await manager.admit("10.0.0.5", "b.ipynb", wait=0.5) is None
        assert asyncio.get_running_loop().time() - started >= 0.5

    asyncio.run(run())


def test_an_address_never_holds_more_kernels_than_its_share(server_module, monkeypatch):
    """Pages whose browser went away no longer count, but their kernels wait a while for them to
    come back: a new page of the same address takes the place of the one gone longest, so one
    address holds at most its share of kernels however fast it opens and closes pages."""

    async def run():
        manager = server_module.WorkbookKernelManager(max_per_address=2)
        released = []

        async def shutdown(kernel_id, *args, **kwargs):
            released.append(kernel_id)
            manager._owners.pop(kernel_id, None)

        monkeypatch.setattr(manager, "_shutdown", shutdown)
        for kernel in ("gone-first", "gone-second"):
            visit = await manager.admit("10.0.0.5", "a.ipynb")
            _page_kernel(manager, server_module, visit, kernel)
            manager.leave(visit)
            manager.notify_connect(kernel)
            manager.notify_disconnect(kernel)
        assert manager.open_pages("10.0.0.5") == 0 and len(manager._owners) == 2
        assert await manager.admit("10.0.0.5", "a.ipynb", wait=0) is not None
        assert released == ["gone-first"]
        manager._kernels.clear()

    asyncio.run(run())


def test_a_kernel_is_shut_down_once_when_two_beacons_ask(server_module, monkeypatch):
    """A page sends its shutdown beacon on beforeunload (Voilà's) and on pagehide (the
    workbook's): the second finds the kernel on its way out and shuts nothing down again."""

    async def run():
        manager = server_module.WorkbookKernelManager()
        manager._kernels["k"] = object()
        calls = []

        async def shutdown(kernel_id, *args, **kwargs):
            calls.append(kernel_id)
            await asyncio.sleep(0.1)
            manager._kernels.pop(kernel_id, None)

        monkeypatch.setattr(manager, "_shutdown", shutdown)
        assert not manager.gone("k")
        first = asyncio.ensure_future(manager.shutdown_kernel("k"))
        await asyncio.sleep(0)
        assert manager.gone("k")
        await manager.shutdown_kernel("k")
        await first
        assert calls == ["k"] and manager.gone("k")

    asyncio.run(run())


@pytest.mark.parametrize("target, status", [
    ("/voila/render/eldfall.ipynb?dodger.ag=3", None),
    ("/voila/render/eldfall.ipynb?" + "a=1&" * 999 + "a=1", None),       # 1,000 fields
    ("/voila/render/eldfall.ipynb?" + "a=1&" * 1000 + "a=1", 400),       # 1,001 fields
    ("/voila/render/eldfall.ipynb?" + "&".join(f"k{i}=1" for i in range(5000)), 400),
    ("/" + "a" * 8191, None),
    ("/" + "a" * 8192, 414),
    ("/voila/render/eldfall.ipynb?q=" + "x" * 100_000, 414),
])
def test_an_oversized_link_is_refused_with_its_status(server_module, target, status):
    refusal = server_module.oversized(target)
    assert (refusal and refusal[0]) == status
    if status == 414:
        assert f"{len(target):,} characters long" in refusal[2] and "at most 8,192" in refusal[2]
    elif status == 400:
        assert "fields" in refusal[2] and "at most 1,000" in refusal[2]


def test_a_kernel_whose_page_never_connects_is_released_after_30_s_by_default(server_module):
    manager = server_module.WorkbookKernelManager()
    assert manager.never_connected_timeout == 30


@pytest.mark.parametrize("count, state, said", [(0, "open", "0 dashboards are open"),
                                                (1, "open", "1 dashboard is open"),
                                                (2, "open", "2 dashboards are open"),
                                                (1, "counted", "1 dashboard is counted"),
                                                (10, "counted", "10 dashboards are counted")])
def test_the_refusal_pages_count_in_words(server_module, count, state, said):
    assert server_module.dashboards(count, state) == said


def test_a_refusal_page_escapes_its_text(server_module):
    page = server_module.refusal_page("wb-refused", "<b>title</b>", HOSTILE[0], retry_after=5)
    assert "<script>alert" not in page and "<b>title" not in page
    assert "&lt;script&gt;alert(9)" in page and "&lt;b&gt;title" in page
    assert 'class="wb-retry"' in page and ">5</span>" in page


def test_the_server_and_the_charts_give_plotly_js_one_address(server_module, monkeypatch, tmp_path):
    """The page's head starts loading plotly's basic bundle, with the trace types it draws, and the
    charts ask for the whole one at the address the server serves it (one definition,
    workbook.page.static_address); with plotly's version, so browsers keep it cached. Without the
    basic bundle (no network at install), the head starts the whole one."""
    from importlib import metadata

    from workbook.page.chart import plotly_url

    notebook = tmp_path / "page.ipynb"
    notebook.write_text(json.dumps({"cells": [{"cell_type": "code", "source": ["from workbook import app"]}]}))
    assert server_module.PLOTLY_BASIC_DIR is not None  # make test fetches it (tools/fetch_plotly.py)
    config = server_module.extensions_for({"federated_extensions": []}, str(tmp_path), "page.ipynb")
    version = metadata.version("plotly")
    assert config["workbookPlotlyJs"] == f"workbook/static/plotly-basic.min.js?v={version}"
    assert config["workbookPlotlyTraces"] == ["bar", "pie", "scatter"]
    monkeypatch.setattr(server_module, "PLOTLY_BASIC_DIR", None)
    config = server_module.extensions_for({"federated_extensions": []}, str(tmp_path), "page.ipynb")
    assert config["workbookPlotlyJs"] == f"workbook/static/plotly.min.js?v={version}"
    assert "workbookPlotlyTraces" not in config
    monkeypatch.delenv("VOILA_BASE_URL", raising=False)
    assert plotly_url() == f"/workbook/static/plotly.min.js?v={version}"
    monkeypatch.setenv("VOILA_BASE_URL", "/class/")
    assert plotly_url() == f"/class/workbook/static/plotly.min.js?v={version}"


def test_the_address_of_plotly_js_is_read_without_plotly_or_widgets():
    """What the server imports for the address pulls in neither plotly nor ipywidgets."""
    code = ("import sys, workbook.page.static_address; "
            "print(sorted(m for m in ('plotly', 'ipywidgets', 'anywidget', 'rules_core') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.fixture
def releasing(server_module, monkeypatch):
    """A kernel manager whose shutdowns are only recorded (the kernel ids, in order)."""
    manager = server_module.WorkbookKernelManager()
    released = []

    async def shutdown(kernel_id, *args, **kwargs):
        released.append(kernel_id)

    monkeypatch.setattr(manager, "shutdown_kernel", shutdown)
    yield manager, released
    manager._kernels.clear()


def test_a_page_a_browser_began_to_load_waits_longer_for_its_connection(server_module, releasing, monkeypatch):
    """Two page kernels, idle and never connected for 60 s: the one whose page no browser began
    to load (a script reading pages) is released after the never-connected timeout (30 s); the
    one a browser said it is loading (its first script: ``seen``) waits up to the loading
    timeout (300 s), as a browser on a busy machine may take that long."""
    import time as clock

    manager, released = releasing
    monkeypatch.setattr(manager, "_idle", lambda kernel_id: 60.0)
    for kernel in ("read-by-a-script", "loaded-by-a-browser"):
        manager._kernels[kernel] = object()
        manager._born[kernel] = clock.monotonic() - 60
    assert manager.seen("loaded-by-a-browser") is True
    assert manager.seen("not-a-page-kernel") is False
    try:
        assert asyncio.run(manager._release_if_abandoned("read-by-a-script")) is True
        assert asyncio.run(manager._release_if_abandoned("loaded-by-a-browser")) is False
        manager._born["loaded-by-a-browser"] -= 300
        monkeypatch.setattr(manager, "_idle", lambda kernel_id: 360.0)
        assert asyncio.run(manager._release_if_abandoned("loaded-by-a-browser")) is True
        assert released == ["read-by-a-script", "loaded-by-a-browser"]
    finally:
        manager._kernels.clear()


def test_a_page_still_being_sent_keeps_its_kernel_and_its_wait_starts_when_it_is_sent(server_module, releasing, monkeypatch):
    """On a busy machine a page's cells may run for minutes without a word: its kernel is not
    released while its page is being sent (that cut pages of make load off mid-cell, with a
    traceback), and its wait for a browser starts when the page has been sent."""
    import time as clock

    manager, released = releasing
    monkeypatch.setattr(manager, "_idle", lambda kernel_id: 600.0)
    manager._kernels["k"] = object()
    manager._born["k"] = clock.monotonic() - 600  # a preheated kernel, started long ago
    visit = asyncio.run(manager.admit("10.0.0.7", "a.ipynb"))
    token = server_module._VISIT.set(visit)
    try:
        manager.assign("k")
        assert asyncio.run(manager._release_if_abandoned("k")) is False  # its page is being sent
        manager.leave(visit)
        assert asyncio.run(manager._release_if_abandoned("k")) is False  # sent just now
        manager._born["k"] -= 31
        assert asyncio.run(manager._release_if_abandoned("k")) is True
        assert released == ["k"]
    finally:
        server_module._VISIT.reset(token)
        manager._kernels.clear()


def test_the_brotli_cache_is_named_by_content_and_made_once_on_a_machine(server_module, tmp_path, monkeypatch):
    """Precompressed: the same static file in two places (a fresh clone's virtualenv) has one
    Brotli form on disk; a server does not make one that another process is making (its
    partial file is recent), but does make one whose maker died long ago."""
    cache = server_module.Precompressed
    monkeypatch.setattr(cache, "cache_dir", tmp_path / "cache")
    monkeypatch.setattr(cache, "_pending", {})
    monkeypatch.setattr(cache, "_digests", {})
    (tmp_path / "cache").mkdir()
    first, second, other = tmp_path / "a.js", tmp_path / "b.js", tmp_path / "c.js"
    first.write_text("var x = 1;" * 100)
    second.write_text("var x = 1;" * 100)
    other.write_text("var y = 2;" * 100)
    paths = [cache._brotli_path(cache._key(str(p))) for p in (first, second, other)]
    assert paths[0] == paths[1] != paths[2]
    partial = Path(f"{paths[0]}.4242.part")
    partial.write_bytes(b"")
    assert cache._being_made(paths[0]) and not cache._being_made(paths[2])
    submitted = []

    class Workers:
        def submit(self, *args):
            submitted.append(args)
            return type("Done", (), {"add_done_callback": lambda self, f: None})()

    monkeypatch.setattr(cache, "_workers", Workers())
    cache.warm(str(second))
    assert submitted == []  # being made by another process
    os.utime(partial, (0, 0))  # that process died long ago
    cache.warm(str(second))
    assert [a[1:] for a in submitted] == [(str(second), str(paths[1]))]
    server_module._brotli_file(str(other), str(paths[2]))
    assert paths[2].exists() and not Path(f"{paths[2]}.{os.getpid()}.part").exists()
    cache.warm(str(other))
    assert len(submitted) == 1  # already on disk


@pytest.mark.parametrize("startup_script", [True, False])
def test_the_forms_made_ahead_leave_out_what_the_startup_script_carries(server_module, monkeypatch, startup_script):
    """Brotli forms made ahead (``--precompress``, at a server's start): plotly.js, the startup
    script and the files a page fetches itself (voila-style.js among them), but not the chunks
    the startup script carries, which no page asks for on its own. Without a startup script a
    page fetches those chunks one by one, and they are made ahead too."""
    warmed: list[str] = []
    monkeypatch.setattr(server_module.Precompressed, "warm", classmethod(lambda cls, path: warmed.append(path)))
    app = server_module.WorkbookVoila()
    try:
        app.initialize([str(SERVER.parents[1] / "notebooks"), "--port=0", f"--startup-script={startup_script}"])
        app._warm_static()
        carried, _ = server_module.startup_js.chunk_files(app.static_paths, app.labextensions_path,
                                                          app.voila_configuration.extension_allowlist)
    finally:
        server_module.WorkbookVoila.clear_instance()
    names = [Path(p).name for p in warmed]
    assert {"plotly.min.js", "voila-style.js", "index.css"} <= set(names), names
    assert any(n.startswith("startup.") for n in names) is startup_script
    big_carried = {str(f) for f in carried if f.stat().st_size > 20_000}
    assert len(big_carried) > 10
    assert big_carried.isdisjoint(warmed) is startup_script
