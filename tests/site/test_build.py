"""The static site's build script (tools/site/build.py) without building: its lock, the wheels it
writes itself, its bytecode, deferral and cache (its patches: test_patches.py)."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from site_build import build, patches, pyodide_tarball, runtime_for_node

ROOT = Path(__file__).resolve().parents[2]


def test_the_kernel_finds_every_package_it_looks_for_by_its_own_name():
    """The kernel's worker installs with piplite each package it does not find by name among the
    settings' packages; it spells its own ``pyodide_kernel``, the lock ``pyodide-kernel``."""
    locked = ["comm", "ipykernel", "ipython", "jedi", "pyodide-kernel", "sqlite3", "traitlets"]
    packages = build.kernel_settings(locked)["loadPyodideOptions"]["packages"]
    assert set(json.loads(patches.KERNEL_PACKAGES)) <= set(packages) and set(locked) <= set(packages)
    with pytest.raises(SystemExit, match="lacks.*'comm'"):
        build.kernel_settings([p for p in locked if p != "comm"])



def test_the_lock_pins_every_file_with_its_sha256():
    lock = json.loads(build.LOCK.read_text())
    names = {kind: {e["name"] for e in lock[kind]} for kind in ("build", "browser", "npm")}
    for kind in ("build", "browser", "npm"):
        for entry in lock[kind]:
            assert re.fullmatch(r"[0-9a-f]{64}", entry["sha256"]), entry
            assert entry["version"] in entry["file"], entry
    for pin in build.BUILD_PINS:
        assert build.normalize(pin.split("==")[0]) in names["build"]
    for pin in build.BROWSER_PINS:
        assert build.normalize(pin.split("==")[0]) in names["browser"]
    assert {p.split("@")[0] for p in build.NPM_PINS} == names["npm"]
    assert not names["browser"] & {"pandas", "numpy"}  # no browser wheels: issue 27
    assert not names["browser"] & build.BROWSER_SKIP


def test_a_marker_wheel_holds_only_its_metadata(tmp_path):
    wheel = build.plain_wheel(tmp_path, "sqlite3", "0+marker", "why")
    with zipfile.ZipFile(wheel) as archive:
        assert sorted(archive.namelist()) == ["sqlite3-0+marker.dist-info/METADATA",
                                              "sqlite3-0+marker.dist-info/RECORD",
                                              "sqlite3-0+marker.dist-info/WHEEL"]
    assert build.wheel_name_version(wheel.name) == ("sqlite3", "0+marker")
    (tmp_path / "again").mkdir()
    again = build.plain_wheel(tmp_path / "again", "sqlite3", "0+marker", "why")
    assert again.read_bytes() == wheel.read_bytes()  # reproducible


def _wheel(path: Path, members: dict[str, str]) -> Path:
    record = "".join(f"{name},sha256=x,1\n" for name in members) + "demo-1.dist-info/RECORD,,\n"
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in {**members, "demo-1.dist-info/RECORD": record}.items():
            archive.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), text)
    return path


def test_a_slimmed_wheel_lacks_what_the_rule_drops_and_its_record_lines(tmp_path):
    source = _wheel(tmp_path / "demo-1-py3-none-any.whl",
                    {"demo/__init__.py": "x = 1\n", "demo/big.js": "y" * 1000, "demo/keep.json": "{}"})
    drop = lambda member: member.endswith(".js")  # noqa: E731
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    first = build.slim_wheel(source, tmp_path / "a" / source.name, drop)
    again = build.slim_wheel(source, tmp_path / "b" / source.name, drop)
    assert first.read_bytes() == again.read_bytes()  # reproducible
    with zipfile.ZipFile(first) as archive:
        assert archive.namelist() == ["demo/__init__.py", "demo/keep.json", "demo-1.dist-info/RECORD"]
        assert archive.read("demo/__init__.py") == b"x = 1\n"
        assert archive.read("demo-1.dist-info/RECORD").decode() == (
            "demo/__init__.py,sha256=x,1\ndemo/keep.json,sha256=x,1\ndemo-1.dist-info/RECORD,,\n")
    with pytest.raises(SystemExit, match="nothing to leave out"):
        build.slim_wheel(source, tmp_path / "c.whl", lambda member: False)


def test_the_slimmed_plotly_draws_every_page_of_the_site(tmp_path):
    """The plotly the site ships (without its own plotly.js, its extension and the trace types
    the workbook never draws) builds every dashboard, lesson and the games page, as Pyodide
    installs it (unpacked, first on the path)."""
    (entry,) = [e for e in json.loads(build.LOCK.read_text())["browser"] if e["name"] == "plotly"]
    slim = build.browser_wheel(entry, offline=False, out=tmp_path)
    assert slim.stat().st_size < 2.5e6
    with zipfile.ZipFile(slim) as archive:
        archive.extractall(tmp_path / "site-packages")
    script = f"""
import sys
sys.path.insert(0, {str(tmp_path / "site-packages")!r})
import plotly
assert plotly.__file__.startswith(sys.path[0]), plotly.__file__
from workbook import dashboard
from workbook.pages import lessons
from workbook.pages.catalog import index
from workbook.pages.four_games import FourGames
from workbook.page.chart import figure_json
for system in ("infinity-n4", "gurps-4e", "eldfall", "d100-homebrew"):
    page = dashboard(system)
    assert figure_json(page.figures["outcome"]) and figure_json(page.figures["at_least"]), system
FourGames()
index()
for lesson in ("bell_and_flat", "leftover_successes", "one_die_three_attackers", "sampling"):
    getattr(lessons, lesson)()
"""
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]


def test_every_trace_type_the_workbook_names_is_kept_in_the_slimmed_plotly():
    named = {m.lower() for path in (ROOT / "workbook").rglob("*.py")
             for m in re.findall(r"\bgo\.([A-Z][A-Za-z]+)\(", path.read_text())} - {"figure"}
    assert named and named <= set(build.PLOTLY_TRACES_DRAWN), named - set(build.PLOTLY_TRACES_DRAWN)


def test_files_added_to_a_wheel_are_in_it_and_in_its_record(tmp_path):
    source = _wheel(tmp_path / "demo-1-py3-none-any.whl", {"demo/__init__.py": ""})
    (tmp_path / "out").mkdir()
    text = "Заголовок\n".encode()
    added = build.add_to_wheel(source, tmp_path / "out" / source.name, {"notebooks/demo.ru.md": text})
    with zipfile.ZipFile(added) as archive:
        assert archive.read("notebooks/demo.ru.md") == text
        digest = base64.urlsafe_b64encode(hashlib.sha256(text).digest()).rstrip(b"=").decode()
        assert archive.read("demo-1.dist-info/RECORD").decode().endswith(
            f"notebooks/demo.ru.md,sha256={digest},{len(text)}\n")


def test_a_file_put_in_a_wheel_takes_the_place_of_its_namesake_and_its_record_line(tmp_path):
    source = _wheel(tmp_path / "demo-1-py3-none-any.whl", {"demo/__init__.py": "x = 1\n", "demo/b.py": ""})
    (tmp_path / "out").mkdir()
    changed = build.add_to_wheel(source, tmp_path / "out" / source.name, {"demo/__init__.py": b"x = 2\n"})
    with zipfile.ZipFile(changed) as archive:
        assert sorted(archive.namelist()) == ["demo-1.dist-info/RECORD", "demo/__init__.py", "demo/b.py"]
        assert archive.read("demo/__init__.py") == b"x = 2\n"
        record = archive.read("demo-1.dist-info/RECORD").decode().splitlines()
    assert [line.split(",")[0] for line in record] == ["demo/b.py", "demo-1.dist-info/RECORD", "demo/__init__.py"]
    assert record[-1].endswith(",6") and "sha256=x" not in record[-1]


def test_a_module_compiled_to_bytecode_by_the_sites_pyodide_runs_there(tmp_path):
    """The bytecode step (build.to_bytecode): a module the pages import as they open becomes a
    sourceless .pyc listed in RECORD, the same bytes every time, which the site's Pyodide
    imports; a module they do not import stays as source."""
    build.WORK.mkdir(exist_ok=True)
    notebook = tmp_path / "page.ipynb"
    notebook.write_text(json.dumps({"cells": [{"cell_type": "code", "source": ["import demo\n", "demo.ANSWER"]}]}))
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        _wheel(tmp_path / folder / "demo-1-py3-none-any.whl",
               {"demo/__init__.py": "ANSWER = 6 * 7\n", "demo/later.py": "LATER = True\n", "demo/data.json": "{}"})
        build.to_bytecode(pyodide_tarball(), tmp_path / folder, [tmp_path / folder / "demo-1-py3-none-any.whl"],
                          [notebook], imports=())
    wheel = tmp_path / "a" / "demo-1-py3-none-any.whl"
    assert wheel.read_bytes() == (tmp_path / "b" / wheel.name).read_bytes()
    with zipfile.ZipFile(wheel) as archive:
        assert sorted(archive.namelist()) == ["demo-1.dist-info/RECORD", "demo/__init__.pyc", "demo/data.json",
                                              "demo/later.py"]
        pyc = archive.read("demo/__init__.pyc")
        assert int.from_bytes(pyc[4:8], "little") == 0b01  # PEP 552: hash-based, unchecked
        record = archive.read("demo-1.dist-info/RECORD").decode()
        assert record.startswith("demo/__init__.pyc,sha256=") and "__init__.py," not in record
        assert "demo/later.py,sha256=" in record
    runtime = runtime_for_node(tmp_path)
    script = f"""
const {{ loadPyodide }} = await import({json.dumps(str(runtime / "pyodide.mjs"))});
const py = await loadPyodide({{ indexURL: {json.dumps(str(runtime) + "/")} }});
const {{ readFileSync }} = await import("node:fs");
py.unpackArchive(new Uint8Array(readFileSync({json.dumps(str(wheel))})), "wheel");
console.log(py.runPython("import demo; print(demo.__file__); demo.ANSWER"));
"""
    done = subprocess.run(["node", "--input-type=module", "-e", script],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    where, answer = done.stdout.split()
    assert where.endswith("/demo/__init__.pyc") and answer == "42"  # imported from the bytecode


def test_a_packed_wheel_is_smaller_the_same_each_time_and_installed_by_pyodides_loader(tmp_path):
    """``pack`` (build.packed): a wheel shipped as a tar compressed by zstd as one stream, named
    ``.tar``, the same bytes every time, smaller than the wheel; Pyodide's own package loader
    installs it as the runtime does (listing its shared libraries too) and its module imports."""
    build.WORK.mkdir(exist_ok=True)
    notebook = tmp_path / "page.ipynb"
    notebook.write_text(json.dumps({"cells": [{"cell_type": "code", "source": ["import demo\n", "demo.ANSWER"]}]}))
    members = {f"demo/part{i}.py": f"TEXT = {'the same words ' * 40!r}\n" for i in range(30)}
    members |= {"demo/__init__.py": "ANSWER = 6 * 7\n", "demo-1.dist-info/METADATA": "Name: demo\nVersion: 1\n"}
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        wheel = _wheel(tmp_path / folder / "demo-1-py3-none-any.whl", members)
        build.to_bytecode(pyodide_tarball(), tmp_path / folder, [wheel], [notebook], imports=(), pack=True)
        assert not wheel.exists()
    packed = tmp_path / "a" / "demo-1-py3-none-any.tar"
    assert build.packed(wheel).name == packed.name
    assert packed.read_bytes() == (tmp_path / "b" / packed.name).read_bytes()
    with zipfile.ZipFile(tmp_path / "deflated.whl", "w", zipfile.ZIP_DEFLATED) as deflated:  # as wheels are
        for name, text in members.items():
            deflated.writestr(name, text)
    assert packed.stat().st_size < (tmp_path / "deflated.whl").stat().st_size / 2  # one stream, not file by file
    runtime = runtime_for_node(tmp_path)
    python = f"""
import json, tarfile
from pyodide._package_loader import unpack_buffer
from pyodide.ffi import to_js
data = open({str(packed)!r}, "rb").read()
assert data[:4] == bytes.fromhex("28b52ffd")  # zstd's magic number
unpack_buffer(to_js(data), filename={packed.name!r}, extract_dir="/lib/python3.14/site-packages", calculate_dynlibs=True)
import demo
with tarfile.open({str(packed)!r}) as tar:
    names = sorted(tar.getnames())
json.dumps([demo.__file__, demo.ANSWER, names])
"""
    script = f"""
const {{ loadPyodide }} = await import({json.dumps(str(runtime / "pyodide.mjs"))});
const py = await loadPyodide({{ indexURL: {json.dumps(str(runtime) + "/")} }});
py.FS.mkdirTree({json.dumps(str(tmp_path))});
py.FS.mount(py.FS.filesystems.NODEFS, {{ root: {json.dumps(str(tmp_path))} }}, {json.dumps(str(tmp_path))});
console.log(py.runPython({json.dumps(python)}));
"""
    done = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    where, answer, names = json.loads(done.stdout.strip().splitlines()[-1])
    assert where.endswith("/demo/__init__.pyc") and answer == 42
    assert names == sorted(["demo-1.dist-info/METADATA", "demo-1.dist-info/RECORD", "demo/__init__.pyc",
                            *(m for m in members if m.startswith("demo/part"))])


def test_a_page_whose_code_fails_in_the_sites_pyodide_stops_the_build(tmp_path):
    """The pages' start run (build.start_code) is the check that each notebook's code runs in the
    site's own Pyodide: one that raises stops the build, named, with the Python error."""
    build.WORK.mkdir(exist_ok=True)
    good = tmp_path / "good.ipynb"
    good.write_text(json.dumps({"cells": [{"cell_type": "code", "source": ["import demo"]}]}))
    bad = tmp_path / "bad.ipynb"
    bad.write_text(json.dumps({"cells": [{"cell_type": "markdown", "source": ["# A lesson"]},
                                         {"cell_type": "code", "source": ["import demo\n", "demo.MISSING"]}]}))
    _wheel(tmp_path / "demo-1-py3-none-any.whl", {"demo/__init__.py": "ANSWER = 42\n"})
    before = (tmp_path / "demo-1-py3-none-any.whl").read_bytes()
    with pytest.raises(build.PageFails) as failed:
        build.to_bytecode(pyodide_tarball(), tmp_path, [tmp_path / "demo-1-py3-none-any.whl"], [good, bad],
                          imports=("json",))
    assert str(failed.value) == ("fails in the site's Pyodide: bad.ipynb: "
                                 "AttributeError(\"module 'demo' has no attribute 'MISSING'\")")
    assert (tmp_path / "demo-1-py3-none-any.whl").read_bytes() == before  # left as it was


def test_a_fresh_clone_takes_the_site_built_before_from_the_same_inputs(tmp_path, monkeypatch):
    """--if-stale: a site built once is kept in the cache by its inputs' digest; a later clone of
    the same inputs (no site/ yet) restores it instead of building; other inputs build again;
    only the most recently used few are kept."""
    site = tmp_path / "site"
    monkeypatch.setattr(build, "SITE", site)
    monkeypatch.setattr(build, "STAMP", site / ".inputs-sha256")
    monkeypatch.setattr(build, "BUILT", tmp_path / "cache" / "built")
    monkeypatch.setattr(build, "BUILT_KEPT", 2)
    digest = {"now": "a" * 64}
    builds = []

    def fake_build(offline, extra_wheels, published):
        builds.append(digest["now"])
        (site / "voici" / "render").mkdir(parents=True)
        (site / "voici" / "render" / "page.html").write_text(f"built from {digest['now']}")
        build.STAMP.write_text(digest["now"])

    monkeypatch.setattr(build, "build", fake_build)
    monkeypatch.setattr(build, "inputs_digest", lambda extra=(), rule_files=(): digest["now"])

    def run():
        build._main(build.argparse.Namespace(update_lock=False, if_stale=True, extra_wheel=[], rule=[], offline=True), [])

    run()
    assert builds == ["a" * 64]
    shutil.rmtree(site)  # a fresh clone
    run()
    assert builds == ["a" * 64]  # restored, not built
    assert (site / "voici" / "render" / "page.html").read_text() == "built from " + "a" * 64
    assert build.STAMP.read_text() == "a" * 64
    run()  # up to date: nothing to do
    assert builds == ["a" * 64]
    for other in ("b" * 64, "c" * 64):
        digest["now"] = other
        shutil.rmtree(site)
        run()
    assert builds == ["a" * 64, "b" * 64, "c" * 64]
    assert sorted(p.name for p in build.BUILT.iterdir()) == ["b" * 64 + ".tar", "c" * 64 + ".tar"]


def test_the_standard_library_ships_as_one_zstd_stream_of_its_stored_members(tmp_path):
    """build.pack_stdlib: the zip's members stored, the whole compressed by zstd as one stream by
    the runtime's own Python, the zip itself gone; decoded by the decoder the site ships (fzstd,
    run by Node here), it is a zip of the same members, stored, with the same bytes."""
    build.WORK.mkdir(exist_ok=True)
    members = {"a.py": b"A = 1\n" * 300, "pkg/__init__.pyc": bytes(range(256)) * 8}
    stdlib = tmp_path / "python_stdlib.zip"
    with zipfile.ZipFile(stdlib, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    packed = build.pack_stdlib(pyodide_tarball(), stdlib)
    assert packed == tmp_path / build.STDLIB_PACKED and not stdlib.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [build.STDLIB_PACKED]
    assert packed.read_bytes()[:4] == bytes.fromhex("28b52ffd")  # zstd's magic number
    (decoder,) = [e for e in json.loads(build.LOCK.read_text())["npm"] if e["name"] == build.ZSTD_DECODER[0]]
    with tarfile.open(build.fetch("npm", decoder, offline=False)) as tar:
        (tmp_path / "fzstd.mjs").write_bytes(tar.extractfile(build.ZSTD_DECODER[1]).read())
    script = (f"import {{ decompress }} from {json.dumps(str(tmp_path / 'fzstd.mjs'))};\n"
              "import { readFileSync, writeFileSync } from 'node:fs';\n"
              f"writeFileSync({json.dumps(str(tmp_path / 'decoded.zip'))}, "
              f"decompress(new Uint8Array(readFileSync({json.dumps(str(packed))}))));")
    subprocess.run(["node", "--input-type=module", "-e", script], check=True)
    with zipfile.ZipFile(tmp_path / "decoded.zip") as decoded:
        assert {i.filename: (i.compress_type, decoded.read(i)) for i in decoded.infolist()} == {
            name: (zipfile.ZIP_STORED, data) for name, data in members.items()}


def test_a_module_no_page_imports_waits_on_the_site_and_is_fetched_when_imported(tmp_path):
    """Deferral (build.to_bytecode with defer, build.add_start_modules): the modules the pages
    do not import as they open leave their wheel for deferred/<name>.zip, indexed; in the site's
    Pyodide, started with that standard library, ``sitecustomize`` has put the finder first, and
    importing a deferred module (a plain one, a package, a package's module) fetches the zip once
    and imports it; a name that is nowhere stays missing. A folder ``tests`` sends its data with
    its modules; type stubs are left out; METADATA keeps its headers, not its description."""
    build.WORK.mkdir(exist_ok=True)
    notebook = tmp_path / "page.ipynb"
    notebook.write_text(json.dumps({"cells": [{"cell_type": "code", "source": ["import demo"]}]}))
    wheel = _wheel(tmp_path / "demo-1-py3-none-any.whl",
                   {"demo/__init__.py": "ANSWER = 42\n", "demo/later.py": "LATER = 'later'\n",
                    "demo/sub/__init__.py": "from . import deep\n", "demo/sub/deep.py": "DEEP = 'deep'\n",
                    "demo/data.json": "{}", "demo/__init__.pyi": "ANSWER: int\n",
                    "demo/tests/__init__.py": "", "demo/tests/data/logo.png": "a picture",
                    "demo-1.dist-info/METADATA": "Name: demo\nVersion: 1\n\n# Demo\nA long description.\n"})
    runtime = runtime_for_node(tmp_path)
    index = build.to_bytecode(pyodide_tarball(), tmp_path, [wheel], [notebook], imports=(), defer=True)
    assert index == {"demo.later": ["demo.zip", "demo/later.py", False],
                     "demo.sub": ["demo.zip", "demo/sub/__init__.py", True],
                     "demo.sub.deep": ["demo.zip", "demo/sub/deep.py", False],
                     "demo.tests": ["demo.zip", "demo/tests/__init__.py", True]}
    with zipfile.ZipFile(wheel) as archive:
        assert sorted(archive.namelist()) == ["demo-1.dist-info/METADATA", "demo-1.dist-info/RECORD",
                                              "demo/__init__.pyc", "demo/data.json"]
        assert archive.read("demo-1.dist-info/METADATA") == b"Name: demo\nVersion: 1\n"
    with zipfile.ZipFile(tmp_path / "deferred" / "demo.zip") as archive:
        assert sorted(archive.namelist()) == ["demo/later.py", "demo/sub/__init__.py", "demo/sub/deep.py",
                                              "demo/tests/__init__.py", "demo/tests/data/logo.png"]
    build.add_start_modules(runtime / "python_stdlib.zip", index)
    with pytest.raises(SystemExit, match="already has"):
        build.add_start_modules(runtime / "python_stdlib.zip", index)

    said = _with_the_finder(runtime, tmp_path, [wheel], """
import demo
from demo.later import LATER
from demo.sub import deep
import demo.tests, os
logo = open(os.path.join(os.path.dirname(demo.tests.__file__), "data", "logo.png")).read()
try:
    import demo.nowhere
except ModuleNotFoundError:
    missing = True
json.dumps([type(finder).__name__, demo.ANSWER, LATER, deep.DEEP, logo, asked, missing])""")
    assert said == ["DeferredFinder", 42, "later", "deep", "a picture", ["/work/deferred/demo.zip"], True]


#: What ``_with_the_finder`` runs first: the finder fetching from /work, each address noted.
_FINDER_FROM_WORK = """import sys, json
finder = sys.meta_path[0]
asked = []
finder.base_url = lambda: "/work/"
finder.fetch = lambda url: asked.append(url) or open(url, "rb").read()
"""


def _with_the_finder(runtime: Path, work: Path, archives: list[Path], python: str) -> list:
    """``python``'s last line (JSON) as the site's Pyodide runs it, started with ``runtime``'s
    standard library (the finder first: ``add_start_modules``), ``archives`` installed as the
    runtime installs a page's packages, ``work`` mounted at /work, where the finder fetches
    (``_FINDER_FROM_WORK``: ``python`` has it as ``finder``, and what it fetched as ``asked``)."""
    unpack = "\n".join(f"py.unpackArchive(new Uint8Array(readFileSync({json.dumps(str(a))})), 'wheel', into);"
                       for a in archives)
    script = f"""
const {{ loadPyodide }} = await import({json.dumps(str(runtime / "pyodide.mjs"))});
const py = await loadPyodide({{ indexURL: {json.dumps(str(runtime) + "/")},
                                stdLibURL: {json.dumps(str(runtime / "python_stdlib.zip"))} }});
py.FS.mkdirTree("/work");
py.FS.mount(py.FS.filesystems.NODEFS, {{ root: {json.dumps(str(work))} }}, "/work");
const {{ readFileSync }} = await import("node:fs");
const into = {{ extractDir: "/lib/python3.14/site-packages" }};
{unpack}
console.log(py.runPython({json.dumps(_FINDER_FROM_WORK + python)}));
"""
    done = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_module_only_some_pages_import_comes_in_their_own_package_and_waits_for_the_others(tmp_path):
    """The split by page (build.to_bytecode with by_page, build.page_packages): the archive keeps
    the modules every page imports; a module only one page imports is that page's own package,
    as bytecode, and waits in the deferred zip (as source) with the modules no page imports. In
    the site's Pyodide with page A's packages, A's module comes from A's package with no
    request, and B's module is fetched once, from the deferred zip."""
    build.WORK.mkdir(exist_ok=True)
    pages = []
    for page, module in (("a", "demo.only_a"), ("b", "demo.only_b")):
        pages.append(tmp_path / f"{page}.ipynb")
        pages[-1].write_text(json.dumps({"cells": [{"cell_type": "code", "source": [f"import demo, {module}"]}]}))
    wheel = _wheel(tmp_path / "demo-1-py3-none-any.whl",
                   {"demo/__init__.py": "ANSWER = 42\n", "demo/only_a.py": "WHO = 'a'\n",
                    "demo/only_b.py": "WHO = 'b'\n", "demo/never.py": "WHO = 'nobody'\n"})
    runtime = runtime_for_node(tmp_path)
    index = build.to_bytecode(pyodide_tarball(), tmp_path, [wheel], pages, imports=(), defer=True, by_page=wheel)
    assert sorted(index) == ["demo.never", "demo.only_a", "demo.only_b"]
    own = build.page_packages(wheel, pages)
    assert {page: path.name for page, path in own.items()} == {"a.ipynb": "demo_a-1-py3-none-any.whl",
                                                              "b.ipynb": "demo_b-1-py3-none-any.whl"}
    with zipfile.ZipFile(wheel) as archive:
        assert sorted(archive.namelist()) == ["demo-1.dist-info/RECORD", "demo/__init__.pyc"]
    with zipfile.ZipFile(own["a.ipynb"]) as archive:
        assert sorted(archive.namelist()) == ["demo/only_a.pyc", "demo_a-1.dist-info/METADATA",
                                              "demo_a-1.dist-info/RECORD"]
        assert archive.read("demo_a-1.dist-info/RECORD").decode().startswith("demo/only_a.pyc,sha256=")
    with zipfile.ZipFile(tmp_path / "deferred" / "demo.zip") as archive:
        assert sorted(archive.namelist()) == ["demo/never.py", "demo/only_a.py", "demo/only_b.py"]
    build.add_start_modules(runtime / "python_stdlib.zip", index)
    said = _with_the_finder(runtime, tmp_path, [wheel, own["a.ipynb"]], """
import demo.only_a
before = list(asked)
import demo.only_b
json.dumps([demo.only_a.WHO, demo.only_a.__file__.endswith(".pyc"), before, demo.only_b.WHO, asked])""")
    assert said == ["a", True, [], "b", ["/work/deferred/demo.zip"]]


def test_a_first_build_downloads_each_kind_of_file_in_one_run(monkeypatch, tmp_path):
    """The files missing from the cache are asked for in one pip run per kind (one run per file
    cost a fresh machine minutes of starting pip); those already cached are not asked for again,
    a file the run did not bring is left to ``fetch`` (which checks every file's sha256), and an
    offline build asks for nothing."""
    entries = [{"name": f"pkg{i}", "version": "1.0", "file": f"pkg{i}-1.0-py3-none-any.whl"} for i in range(4)]
    monkeypatch.setattr(build, "CACHE", tmp_path)
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / entries[0]["file"]).write_bytes(b"cached")
    runs = []

    def download(args, dest, python=None):
        runs.append(args)
        for entry in entries[1:3]:  # the registry brings two of the three asked for
            (dest / entry["file"]).write_bytes(entry["name"].encode())

    monkeypatch.setattr(build, "pip_download", download)
    build.prefetch("build", entries, offline=False)
    assert len(runs) == 1
    assert [a for a in runs[0] if a.startswith("pkg")] == ["pkg1==1.0", "pkg2==1.0", "pkg3==1.0"]
    assert "--no-deps" in runs[0] and "--only-binary=:all:" in runs[0]
    assert sorted(p.name for p in (tmp_path / "build").iterdir()) == sorted(e["file"] for e in entries[:3])
    assert (tmp_path / "build" / entries[0]["file"]).read_bytes() == b"cached"
    build.prefetch("build", entries, offline=True)
    assert len(runs) == 1


def test_a_site_keeps_to_its_own_host_or_the_build_says_which_file_asks_which(tmp_path, monkeypatch):
    """``keep_to_own_host``: every page loses the known links to other hosts and each fallback
    is pointed home; anything left that would load from another host stops the build, naming
    the file and the address."""
    monkeypatch.setattr(build.patches, "OTHER_HOST_DEFAULTS",
                        {"lib/*.js": ('u||"https://cdn.example.net/a.js"', 'u||"a.js"')})
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "one.js").write_text('f(u||"https://cdn.example.net/a.js")')
    (tmp_path / "lib" / "two.js").write_text('g("own.js")')
    (tmp_path / "lab" / "lib").mkdir(parents=True)  # the lab's own copy of the same script
    (tmp_path / "lab" / "lib" / "one.js").write_text('f(u||"https://cdn.example.net/a.js")')
    (tmp_path / "page.html").write_text('<head>\n  <link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/'
                                        'font-awesome@4.5.0/css/font-awesome.min.css" type="text/css" />\n</head>')
    build.keep_to_own_host(tmp_path)
    assert (tmp_path / "lib" / "one.js").read_text() == 'f(u||"a.js")'
    assert (tmp_path / "lab" / "lib" / "one.js").read_text() == 'f(u||"a.js")'
    assert (tmp_path / "page.html").read_text() == "<head>\n</head>"
    assert build.other_hosts(tmp_path) == {}
    (tmp_path / "lib" / "one.js").write_text('f(u||"https://cdn.example.net/a.js")')
    (tmp_path / "style.css").write_text("a { background: url(https://example.org/i.png) }")
    with pytest.raises(SystemExit, match=r"^the site would ask other hosts: style\.css: https://example\.org/i\.png$"):
        build.keep_to_own_host(tmp_path)
