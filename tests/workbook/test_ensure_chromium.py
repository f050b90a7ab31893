"""``tools/ensure_chromium.py`` (run by ``make test``): ``--begin`` starts Chromium's install in
the background, ``--wait`` waits for that install to end, then installs in the foreground if
none was begun and fails, saying how to get Chromium, when there is still none."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import time
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "ensure_chromium.py"


@pytest.fixture
def tool(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("ensure_chromium_under_test", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "PID", tmp_path / "install.pid")
    monkeypatch.setattr(module, "LOG", tmp_path / "install.log")
    return module


def test_wait_waits_for_the_install_begun_and_then_finds_chromium(tool, monkeypatch):
    """An install begun in the background (here a process that runs 1 s) is waited for; once it
    is over, the Chromium it installed is found."""
    monkeypatch.setattr(tool, "INSTALL", f"{sys.executable} -c 'import time; time.sleep(1)'")
    monkeypatch.setattr(tool, "can_install", lambda: True)
    began = []
    monkeypatch.setattr(tool, "find", lambda: "/usr/bin/chromium" if began and tool._running() is None else None)
    assert tool.begin() == 0
    began.append(True)
    assert tool._running() is not None
    assert tool.begin() == 0  # one install at a time
    started = time.monotonic()
    assert tool.wait() == 0
    assert time.monotonic() - started >= 0.5  # it waited for the install
    assert tool._running() is None and not tool.PID.exists()

def test_without_chromium_or_a_way_to_install_it_wait_says_how_to_get_one(tool, monkeypatch, capsys):
    monkeypatch.setattr(tool, "find", lambda: None)
    monkeypatch.setattr(tool, "can_install", lambda: False)
    assert tool.begin() == 0 and not tool.PID.exists()  # nothing to begin
    assert tool.wait() == 1
    assert "CHROMIUM_PATH" in capsys.readouterr().err


def test_an_install_that_ended_is_not_running(tool):
    done = subprocess.Popen([sys.executable, "-c", "pass"])
    done.wait()
    tool.PID.write_text(str(done.pid))
    assert tool._running() is None
    tool.PID.write_text("not a number")
    assert tool._running() is None
