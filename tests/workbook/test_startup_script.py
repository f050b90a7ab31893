"""The server's startup script (``server/startup_script.py``): which chunks go in, how it is written.

Whether a page then fetches no chunk one by one is checked in Chromium
(``tests/browser/test_server.py``, a cold open of each dashboard).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

SERVER = Path(__file__).resolve().parents[2] / "server"


@pytest.fixture(scope="module")
def startup():
    spec = importlib.util.spec_from_file_location("startup_script_under_test", SERVER / "startup_script.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop(spec.name, None)


@pytest.fixture
def served(tmp_path):
    """A static folder and a labextensions folder with two extensions, as a server has them."""
    static = tmp_path / "static"
    static.mkdir()
    (static / "1.voila.js").write_text('(self.webpackChunk_a=self.webpackChunk_a||[]).push([[1],{}])')
    (static / "voila.js").write_text("main()")
    for name in ("@jupyter-widgets/manager", "other"):
        folder = tmp_path / "labextensions" / name / "static"
        folder.mkdir(parents=True)
        (folder / "7.abc.js").write_text(f"// {name}'s chunk")
        (folder / "remoteEntry.abc.js").write_text("entry()")
    return static, tmp_path / "labextensions"


@pytest.mark.parametrize("address, chunk", [
    ("voila/static/1.voila.js", True),
    ("voila/labextensions/anywidget/static/2.3dbf81c0.js", True),
    ("voila/static/voila.js", False),  # the entry point: the page asks for it itself
    ("voila/labextensions/anywidget/static/remoteEntry.698dcaf7.js", False),
    ("voila/static/index.css", False),
    ("voila/static/../../secret.js", False),
    ("workbook/static/plotly.min.js", False),
])
def test_what_is_a_chunk(startup, address, chunk):
    assert startup.is_chunk(address) is chunk


def test_a_chunk_is_found_where_the_server_finds_it_and_only_there(startup, served):
    static, labextensions = served
    extensions = ["@jupyter-widgets/manager"]

    def found(address):
        return startup.chunk_file(address, [str(static)], [str(labextensions)], extensions)

    assert found("voila/static/1.voila.js") == static / "1.voila.js"
    assert found("voila/labextensions/@jupyter-widgets/manager/static/7.abc.js") == (
        labextensions / "@jupyter-widgets/manager/static/7.abc.js")
    assert found("voila/labextensions/other/static/7.abc.js") is None  # an extension not loaded
    assert found("voila/static/2.voila.js") is None  # not there
    assert found("voila/static/voila.js") is None
    assert found("voila/labextensions/@jupyter-widgets/manager/static/remoteEntry.abc.js") is None


def test_the_script_is_named_by_its_content_and_written_once(startup, served, tmp_path):
    static, labextensions = served
    files = [static / "1.voila.js", labextensions / "other/static/7.abc.js"]
    first = startup.write(files, tmp_path / "out")
    assert first.name.startswith("startup.") and first.suffix == ".js"
    assert startup.write(files, tmp_path / "out") == first
    stamp = first.stat().st_mtime_ns
    assert startup.write(files, tmp_path / "out").stat().st_mtime_ns == stamp  # not written again
    assert startup.write(files[:1], tmp_path / "out") != first
    assert startup.address(first) == f"workbook/startup/{first.name}?v={first.name.split('.')[1]}"
    assert list((tmp_path / "out").glob("*.part")) == []


def test_each_chunk_stays_its_own_statement_and_is_taken_by_its_build(startup, tmp_path):
    """Chunks joined as they are would merge (a chunk without its last ``;`` followed by one
    starting with ``(`` is a call); each runs as its own statement, and a webpack build started
    afterwards takes the chunks registered before it."""
    a, b = tmp_path / "a.js", tmp_path / "b.js"
    a.write_text("(self.webpackChunk_x=self.webpackChunk_x||[]).push([[1],{m1:1}])")  # no ';'
    b.write_text("(self.webpackChunk_x=self.webpackChunk_x||[]).push([[2],{m2:2}])\n")
    script = startup.write([a, b], tmp_path / "out")
    build = """
        const installed = {};
        const registered = self.webpackChunk_x = self.webpackChunk_x || [];
        registered.forEach(([ids]) => ids.forEach(id => { installed[id] = 0; }));
        console.log(JSON.stringify(installed));
    """
    run = subprocess.run(["node", "-e", f"globalThis.self = globalThis;\n{script.read_text()}\n{build}"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == '{"1":0,"2":0}'


def test_the_listed_chunks_that_this_server_lacks_are_named(startup, served, tmp_path):
    static, labextensions = served
    listing = tmp_path / "chunks.txt"
    listing.write_text("# a comment\nvoila/static/1.voila.js\n\nvoila/static/9.voila.js\n")
    files, missing = startup.chunk_files([str(static)], [str(labextensions)], [], listing)
    assert startup.write(files, tmp_path / "out").read_text().startswith("(self.webpackChunk_a")
    assert missing == ["voila/static/9.voila.js"]
    listing.write_text("voila/static/9.voila.js\n")
    assert startup.chunk_files([str(static)], [str(labextensions)], [], listing) == ([], ["voila/static/9.voila.js"])


def test_the_shipped_list_holds_only_chunks(startup):
    listed = startup.listed()
    assert len(listed) > 20 and len(set(listed)) == len(listed)
    assert all(startup.is_chunk(address) for address in listed)
