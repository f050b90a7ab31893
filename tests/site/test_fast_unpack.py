"""The site's unpacker (tools/site/fast_unpack.py): what it reads itself it writes exactly as
``tarfile`` would, and every archive it cannot read so is left to ``tarfile``."""

from __future__ import annotations

import importlib.util
import io
import shutil
import tarfile
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[2] / "tools" / "site" / "fast_unpack.py"


@pytest.fixture
def fast_unpack():
    """The module, imported as the site's ``sitecustomize`` imports it; ``shutil``'s own
    unpacker for ``.tar`` put back afterwards."""
    own = shutil._UNPACK_FORMATS["tar"]
    spec = importlib.util.spec_from_file_location("_dodge_unpack", _PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert shutil._UNPACK_FORMATS["tar"][1] is module.unpack
    yield module
    shutil._UNPACK_FORMATS["tar"] = own


def _tar(path: Path, members: dict[str, bytes | None], form=tarfile.PAX_FORMAT, links: dict[str, str] = ()) -> Path:
    """A tar of ``members`` (None: a folder) and symbolic ``links``, written as the site's
    build writes its archives."""
    with tarfile.open(path, "w", format=form) as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            if data is None:
                info.type = tarfile.DIRTYPE
                tar.addfile(info)
            else:
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
        for name, target in dict(links).items():
            info = tarfile.TarInfo(name)
            info.type, info.linkname = tarfile.SYMTYPE, target
            tar.addfile(info)
    return path


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


FILES = {"pkg/__init__.py": b"", "pkg/sub/mod.pyc": bytes(range(256)) * 3, "pkg-1.dist-info/RECORD": b"x\n",
         "top.py": b"A = 1\n", "empty/file": b"", "big.py": b"F = 2\n" * 1000}
#: Longer than a tar's name field (100): in ustar's form the prefix field holds the start.
LONG = {"plotly/" + "validators/" * 10 + "_font.py": b"F = 2\n" * 100, "a.py": b"1"}


@pytest.mark.parametrize("files, form", [(FILES, tarfile.PAX_FORMAT), (LONG, tarfile.USTAR_FORMAT)])
def test_an_archive_of_regular_files_is_read_here_as_tarfile_reads_it(tmp_path, fast_unpack, files, form):
    archive = _tar(tmp_path / "pkg.tar", files, form)
    found = fast_unpack.members(archive.read_bytes())
    assert found is not None and [name for name, _, _ in found] == list(files)
    shutil.unpack_archive(archive, tmp_path / "here")  # through shutil, as Pyodide unpacks
    with tarfile.open(archive) as tar:
        tar.extractall(tmp_path / "tarfile")
    assert _tree(tmp_path / "here") == _tree(tmp_path / "tarfile") == files


@pytest.mark.parametrize("case", ["folder", "link", "leaves", "absolute", "long pax name", "gnu long name",
                                  "checksum", "truncated", "size not octal", "name not utf-8"])
def test_any_other_archive_is_left_to_tarfile(tmp_path, fast_unpack, case, monkeypatch):
    """Each of these is not read here (``members`` is None) and goes to ``shutil``'s own
    unpacker with the same arguments."""
    long_name = "a/" * 140 + "deep.py"
    archive = {"folder": lambda: _tar(tmp_path / "x.tar", {"pkg": None, "pkg/a.py": b"1"}),
               "link": lambda: _tar(tmp_path / "x.tar", {"a.py": b"1"}, links={"b.py": "a.py"}),
               "leaves": lambda: _tar(tmp_path / "x.tar", {"../evil.py": b"1"}),
               "absolute": lambda: _tar(tmp_path / "x.tar", {"/evil.py": b"1"}, form=tarfile.GNU_FORMAT),
               "long pax name": lambda: _tar(tmp_path / "x.tar", {long_name: b"1"}),
               "gnu long name": lambda: _tar(tmp_path / "x.tar", {long_name: b"1"}, form=tarfile.GNU_FORMAT),
               "checksum": lambda: _tar(tmp_path / "x.tar", {"a.py": b"1"}),
               "truncated": lambda: _tar(tmp_path / "x.tar", {"a.py": b"1" * 2000}),
               "size not octal": lambda: _tar(tmp_path / "x.tar", {"a.py": b"1"}),
               "name not utf-8": lambda: _tar(tmp_path / "x.tar", {"a.py": b"1"})}[case]()
    data = archive.read_bytes()
    if case == "checksum":
        data = data[:10] + b"Z" + data[11:]  # a letter of the name changed, its checksum kept
    if case == "truncated":
        data = data[:BLOCK_AND_A_BIT]
    if case in ("size not octal", "name not utf-8"):  # each with a checksum that holds
        at, new = {"size not octal": (124, b"9"), "name not utf-8": (1, b"\xff")}[case]
        header = bytearray(data[:512])
        header[at:at + 1] = new
        header[148:156] = b"%06o\0 " % (sum(header[:148]) + 8 * 32 + sum(header[156:]))
        data = bytes(header) + data[512:]
    archive.write_bytes(data)
    assert fast_unpack.members(data) is None
    asked = []
    monkeypatch.setattr(shutil, "_unpack_tarfile", lambda *args, **kwargs: asked.append((args, kwargs)))
    fast_unpack.unpack(str(archive), str(tmp_path / "out"))
    assert asked == [((str(archive), str(tmp_path / "out")), {})] and fast_unpack.LEFT_TO_TARFILE == [str(archive)]
    assert not (tmp_path / "out").exists()  # nothing written here first


BLOCK_AND_A_BIT = 512 + 700


def test_the_loader_lists_an_archives_libraries_from_the_names_read_as_it_was_unpacked(tmp_path, fast_unpack, monkeypatch):
    """Pyodide's package loader (a stand-in here; in Chromium, tests/site/test_static_site.py)
    lists an archive's compiled libraries after unpacking it: from the first archive unpacked
    here, it takes them from the names this module read, and lists any other archive itself."""
    import sys
    import types

    shutil.unpack_archive(_tar(tmp_path / "before.tar", {"a.py": b"1"}), tmp_path / "before")
    assert fast_unpack.UNPACKED == {}  # no loader yet: no names kept for it
    listed = []
    loader = types.ModuleType("pyodide._package_loader")
    loader.should_load_dynlib = lambda name: name.endswith(".so")
    loader.get_dynlibs = lambda archive, suffix, target: listed.append(archive.name) or ["theirs"]
    monkeypatch.setitem(sys.modules, "pyodide._package_loader", loader)
    archive = _tar(tmp_path / "pkg.tar", {"pkg/__init__.py": b"", "pkg/_core.cpython-314-wasm32-emscripten.so": b"\0asm",
                                          "pkg/data.txt": b"so"})
    shutil.unpack_archive(archive, tmp_path / "site")
    with open(archive, "rb") as f:
        assert loader.get_dynlibs(f, ".tar", tmp_path / "site") == [
            str((tmp_path / "site" / "pkg/_core.cpython-314-wasm32-emscripten.so").resolve())]
        assert fast_unpack.UNPACKED == {} and listed == []
        assert loader.get_dynlibs(f, ".tar", tmp_path / "site") == ["theirs"]  # not unpacked here since
    assert listed == [str(archive)]
    shutil.unpack_archive(archive, tmp_path / "again")
    assert loader.get_dynlibs.func is fast_unpack.dynlibs  # put in place once, not wrapped again
