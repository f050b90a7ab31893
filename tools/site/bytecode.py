"""Compile a site's Python archives to bytecode, run by Pyodide itself (``bytecode.mjs``).

Pyodide compiles every module it imports from source on every visit: the npm package's
standard library and PyPI's wheels hold ``.py`` files only. Here the modules a page imports as
it opens become the ``.pyc`` that Pyodide's own CPython would write for them, placed where the
source was (a "sourceless" module, which CPython imports without compiling), with an unchecked
hash header (PEP 552: no time stamp, so the same input gives the same bytes). A wheel's RECORD
lists the new files with their hashes.

Which modules: :func:`imported_at_start` installs the wheels here, runs what a page runs as it
opens (the kernel's imports, each notebook's code) and lists the modules it imported. The rest
stay as source (bytecode is about twice the size of source once compressed), or, with
``deferred``, leave the first download altogether: a module imported later (opening a panel)
is then fetched (``deferred_imports.py``) and compiled, once. A module the list misses only
costs that; nothing depends on the list being complete.

The bytecode is compiled without its column ranges (``PYTHONNODEBUGRANGES``, set by
``bytecode.mjs``): each instruction keeps its line, so a traceback through these modules still
names the file, line and code, without the ``^^^^`` under the part that failed. Measured on the
runtime's standard library compiled by its CPython 3.14: 4.45 → 3.50 MB as gzip -6 (a fifth of
the bytecode is its column table). Code compiled in the browser (a notebook's cells, a
designer's rule) keeps its columns.

A wheel can be written as a tar compressed by zstd (:class:`_Packed`, a target named ``.tar``):
compressed as one stream instead of file by file, the site's wheels are about a third smaller,
and Pyodide's package loader unpacks it with the standard library's ``tarfile``, which reads
the compression from the content (``build.py``, ``PACKED_SUFFIX``).

Run inside Pyodide (its CPython is the one that will read the bytecode).
"""

import base64
import hashlib
import importlib.util
import io
import re
import tarfile
import warnings
import zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

#: zstd's level for a packed archive (19 is the highest without its "ultra" memory; 22 gains 0.2%)
ZSTD_LEVEL = 19


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}\n"


def imported_at_start(wheels: list[str], site_packages: str, code: str, pack: bool = False,
                      split: list[str] = ()) -> tuple[set[str], dict[str, set[str]]]:
    """The files of the modules imported by ``code`` (the kernel's imports and the pages'
    notebooks) once ``wheels`` are installed in ``site_packages``, as the site ships them
    (``pack``: packed, see :class:`_Packed`), and by page the files of the modules of ``split``
    it imported.

    ``code`` calls ``__page__(name)`` after each page's code: the modules of the top-level
    packages ``split`` it imported are noted for that page and forgotten (taken out of
    ``sys.modules``), so that the next page imports its own afresh."""
    import importlib
    import sys

    split, by_page = set(split or ()), {}

    def page_done(page: str) -> None:
        names = [name for name in sys.modules if name.split(".")[0] in split]
        by_page[page] = {f for n in names if isinstance(f := getattr(sys.modules[n], "__file__", None), str)}
        for name in names:
            del sys.modules[name]

    from pyodide._package_loader import unpack_buffer
    from pyodide.ffi import to_js

    for wheel in wheels:  # as the runtime installs a page's packages (its imports count too)
        name = wheel.rsplit("/", 1)[-1]
        if pack:
            shipped = io.BytesIO()
            with zipfile.ZipFile(wheel) as source, _Packed(shipped, level=1) as packed:
                for info in source.infolist():
                    packed.add(info, source.read(info))
            data, name = shipped.getvalue(), name.removesuffix(".whl") + ".tar"
        else:
            with open(wheel, "rb") as f:
                data = f.read()
        unpack_buffer(to_js(data), filename=name, extract_dir=site_packages, calculate_dynlibs=True)
    importlib.invalidate_caches()
    exec(compile(code, "<the pages as they open>", "exec"), {"__name__": "__start__", "__page__": page_done})
    imported = {f for m in list(sys.modules.values()) if isinstance(f := getattr(m, "__file__", None), str)}
    return imported | set().union(*by_page.values()), by_page


#: Files of an archive that nothing reads as a program runs: type stubs, for type checkers.
UNREAD = (".pyi",)


def without_description(metadata: bytes) -> bytes:
    """A wheel's METADATA without its description (the body after the headers: the project's
    README as PyPI shows it), which nothing reads as a program runs; every header is kept.

    >>> without_description(b"Name: demo\\nVersion: 1\\n\\n# Demo\\nA long text.\\n")
    b'Name: demo\\nVersion: 1\\n'
    """
    headers, blank, _ = metadata.partition(b"\n\n")
    return headers + b"\n" if blank else metadata


def compile_archive(source: str, target: str, installed_at: str, only: set[str],
                    deferred: str | None = None, by_page: dict[str, set[str]] | None = None) -> tuple[int, int]:
    """``source`` written at ``target`` with the modules in ``only`` (their installed paths) as
    bytecode; ``installed_at`` is where the archive's members live once installed (named in
    tracebacks too). With ``deferred``, the other modules' source goes there instead (a zip of
    the same member names), fetched only if one is imported (``deferred_imports.py``), and with
    it the data files of folders named ``tests``, which only those tests read. Type stubs
    (``UNREAD``) are left out, and METADATA loses its description (:func:`without_description`).

    With ``by_page`` (page → its modules' files: ``imported_at_start``) and ``deferred``, the
    archive is split by page:
    ``target`` keeps the modules every page imports; those only some pages import go, as
    bytecode, to each such page's own archive (:func:`page_archive`) and, as source, to
    ``deferred``, where any other page finds them. Returns (compiled, kept as source or
    deferred)."""
    compiled = kept = 0
    written: list[tuple[str, bytes]] = []
    record = None
    rest = zipfile.ZipFile(deferred, "w", zipfile.ZIP_DEFLATED) if deferred else None
    packed = target.endswith(".tar")
    pages = {page: {f for f in files if f in only} for page, files in by_page.items()} if by_page and rest else {}
    common = set.intersection(*pages.values()) if pages else only
    own: dict[str, list[tuple[zipfile.ZipInfo, bytes]]] = {page: [] for page in pages}
    with zipfile.ZipFile(source) as old, (_Packed(target) if packed else _Zipped(target)) as new:
        for info in old.infolist():
            name, data = info.filename, old.read(info)
            installed = f"{installed_at}/{name}"
            if name.endswith(".py") and installed in only and installed not in common:
                rest.writestr(zipfile.ZipInfo(name, info.date_time), data, compress_type=zipfile.ZIP_DEFLATED)
                pyc = _bytecode(data, installed)
                compiled, kept = (compiled + 1, kept) if pyc else (compiled, kept + 1)
                out = zipfile.ZipInfo(name + "c" if pyc else name, info.date_time)
                out.external_attr = info.external_attr
                for page, files in pages.items():
                    if installed in files:
                        own[page].append((out, pyc or data))
                continue
            if name.endswith(".dist-info/RECORD"):
                record = info
                continue
            if name.endswith(UNREAD):
                continue
            if name.endswith(".dist-info/METADATA"):
                data = without_description(data)
            elif rest is not None and not name.endswith(".py") and "/tests/" in f"/{name}":
                rest.writestr(zipfile.ZipInfo(name, info.date_time), data, compress_type=zipfile.ZIP_DEFLATED)
                continue
            if name.endswith(".py") and installed not in only:
                kept += 1
                if rest is not None:
                    rest.writestr(zipfile.ZipInfo(name, info.date_time), data, compress_type=zipfile.ZIP_DEFLATED)
                    continue
            elif name.endswith(".py"):
                pyc = _bytecode(data, installed)
                if pyc is None:
                    kept += 1
                else:
                    data, name = pyc, name + "c"
                    compiled += 1
            out = zipfile.ZipInfo(name, info.date_time)
            out.external_attr = info.external_attr
            new.add(out, data)
            written.append((name, data))
        if record is not None:
            lines = "".join(_record_line(n, d) for n, d in written if not n.endswith("/"))
            new.add(zipfile.ZipInfo(record.filename, record.date_time), (lines + f"{record.filename},,\n").encode())
    if rest is not None:
        rest.close()
    for page, members in own.items():
        if members:
            _page_archive(target, page, members)
    return compiled, kept


def _bytecode(source: bytes, installed: str) -> bytes | None:
    """``source``'s bytecode as a sourceless module installed at ``installed`` (None: it does not
    compile here, and stays as source)."""
    try:
        with warnings.catch_warnings():  # what the source says of itself is not ours to fix
            warnings.simplefilter("ignore", SyntaxWarning)
            code = compile(source, installed, "exec", dont_inherit=True)
    except SyntaxError:
        return None
    return _code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False)


def page_archive(target: str, page: str) -> str:
    """Where ``target``'s modules of the page ``page`` (a notebook's name) are written: beside
    it, as its own package, ``dodge_workbook-0.1.0-py3-none-any.tar`` →
    ``dodge_workbook_infinity_n4_dodge-0.1.0-py3-none-any.tar``.

    >>> page_archive("out/demo-1-py3-none-any.tar", "lesson-1.ipynb")
    'out/demo_lesson_1-1-py3-none-any.tar'
    """
    folder, _, name = target.rpartition("/")
    package, rest = name.split("-", 1)
    own = re.sub(r"\W", "_", page.removesuffix(".ipynb"))
    return f"{folder}/{package}_{own}-{rest}" if folder else f"{package}_{own}-{rest}"


def _page_archive(target: str, page: str, members: list[tuple[zipfile.ZipInfo, bytes]]) -> None:
    """The page's own archive (:func:`page_archive`): ``members``, and a dist-info naming it."""
    path = page_archive(target, page)
    package, version = path.rpartition("/")[2].split("-")[:2]
    info = f"{package}-{version}.dist-info"
    date = members[0][0].date_time
    metadata = f"Metadata-Version: 2.1\nName: {package}\nVersion: {version}\n".encode()
    members = [*members, (zipfile.ZipInfo(f"{info}/METADATA", date), metadata)]
    record = "".join(_record_line(i.filename, d) for i, d in members) + f"{info}/RECORD,,\n"
    with (_Packed(path) if path.endswith(".tar") else _Zipped(path)) as archive:
        for member, data in [*members, (zipfile.ZipInfo(f"{info}/RECORD", date), record.encode())]:
            archive.add(member, data)


class _Zipped:
    """A zip archive written member by member (as a wheel is)."""

    def __init__(self, path: str):
        self._zip = zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED)

    def add(self, info: zipfile.ZipInfo, data: bytes) -> None:
        self._zip.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self._zip.close()


class _Packed(_Zipped):
    """The same members as a tar compressed by zstd as one stream: files only (unpacking makes
    their folders), owned by root, read-only for others, time stamps from the wheel, so the
    same input gives the same bytes."""

    def __init__(self, target, level: int = ZSTD_LEVEL):
        self._target, self._level, self._tar_bytes = target, level, io.BytesIO()
        self._tar = tarfile.open(fileobj=self._tar_bytes, mode="w", format=tarfile.PAX_FORMAT)

    def add(self, info: zipfile.ZipInfo, data: bytes) -> None:
        if info.is_dir():
            return
        member = tarfile.TarInfo(info.filename)
        member.size, member.mode = len(data), 0o755 if (info.external_attr >> 16) & 0o111 else 0o644
        member.mtime = int(_epoch(info.date_time))
        self._tar.addfile(member, io.BytesIO(data))

    def __exit__(self, *exc) -> None:
        from compression import zstd

        self._tar.close()
        data = zstd.compress(self._tar_bytes.getvalue(), self._level)
        if isinstance(self._target, str):
            with open(self._target, "wb") as out:
                out.write(data)
        else:
            self._target.write(data)


def _epoch(date_time: tuple) -> float:
    import calendar

    return calendar.timegm((*date_time, 0, 0, 0))
