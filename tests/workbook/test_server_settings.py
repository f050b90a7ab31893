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
