"""Settings of the server (``server/voila_app.py``) that need no running server: its event-loop
error handler (a tab that closes while a message is written to it leaves no traceback in the
log; any other unawaited error still does) and its cell time limits."""

from __future__ import annotations

import asyncio
import importlib.util
import os
import sys
from pathlib import Path

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
