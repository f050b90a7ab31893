"""The docs pages the measuring tools write (docs/load.md, docs/browser-timings.md): a new run
replaces the tool's part and keeps what people wrote under the page's notes heading."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[2] / "tools"


def _tool(name: str):
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # a dataclass looks its module up while it is made
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def _tools_path(monkeypatch):
    monkeypatch.syspath_prepend(str(TOOLS))
    yield
    for name in ("docs_page", "browser_session", "load", "bench_browser"):
        sys.modules.pop(name, None)


def test_write_keeping_notes(tmp_path):
    docs_page = _tool("docs_page")
    page = tmp_path / "page.md"
    docs_page.write_keeping_notes(page, "# New\n", "## Notes")  # no page yet: the text alone
    assert page.read_text() == "# New\n"
    page.write_text("# Old\n\nold table\n\n## Notes\n\nBy hand, ## Notes said twice.\n")
    docs_page.write_keeping_notes(page, "# New\n", "## Notes")
    assert page.read_text() == "# New\n\n## Notes\n\nBy hand, ## Notes said twice.\n"
    page.write_text("# Old, no notes\n")
    docs_page.write_keeping_notes(page, "# New\n", "## Notes")
    assert page.read_text() == "# New\n"


def test_a_load_run_keeps_the_runs_written_up_by_hand(monkeypatch, tmp_path):
    load = _tool("load")
    page = tmp_path / "load.md"
    page.write_text("# A class on one machine\n\nlast run\n\n" + load.NOTES + "\n\n### Run 1\n\nBy hand.\n")
    monkeypatch.setattr(load, "run", lambda args: f"# A class on one machine\n\n{args.sessions} sessions\n")
    assert load.main(["--sessions", "3", "--write", str(page)]) == 0
    assert page.read_text() == ("# A class on one machine\n\n3 sessions\n\n"
                                + load.NOTES + "\n\n### Run 1\n\nBy hand.\n")


def test_the_browser_timings_keep_the_page_measured_by_hand(monkeypatch, tmp_path):
    bench = _tool("bench_browser")
    page = tmp_path / "timings.md"
    page.write_text("# Browser timings\n\nold\n\n" + bench.NOTES + "\n\nBy hand.\n")
    monkeypatch.setattr(bench, "run", lambda args: ([], {}, [], "0.1", "0.2"))
    monkeypatch.setattr(bench, "markdown", lambda *a: "# Browser timings\n\nnew\n")
    assert bench.main(["--write", str(page)]) == 0
    assert page.read_text() == "# Browser timings\n\nnew\n\n" + bench.NOTES + "\n\nBy hand.\n"
