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

Run inside Pyodide (its CPython is the one that will read the bytecode).
"""

import base64
import hashlib
import importlib.util
import warnings
import zipfile
from importlib._bootstrap_external import _code_to_hash_pyc


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}\n"


def imported_at_start(wheels: list[str], site_packages: str, code: str) -> set[str]:
    """The files of the modules imported by ``code`` (the kernel's imports and the pages'
    notebooks) once ``wheels`` are installed in ``site_packages``."""
    import importlib
    import sys

    from pyodide._package_loader import unpack_buffer
    from pyodide.ffi import to_js

    for wheel in wheels:  # as the runtime installs a page's packages (its imports count too)
        with open(wheel, "rb") as f:
            unpack_buffer(to_js(f.read()), filename=wheel.rsplit("/", 1)[-1], extract_dir=site_packages,
                          calculate_dynlibs=True)
    importlib.invalidate_caches()
    exec(compile(code, "<the pages as they open>", "exec"), {"__name__": "__start__"})
    return {f for m in list(sys.modules.values()) if isinstance(f := getattr(m, "__file__", None), str)}


def compile_archive(source: str, target: str, installed_at: str, only: set[str],
                    deferred: str | None = None) -> tuple[int, int]:
    """``source`` written at ``target`` with the modules in ``only`` (their installed paths) as
    bytecode; ``installed_at`` is where the archive's members live once installed (named in
    tracebacks too). With ``deferred``, the other modules' source goes there instead (a zip of
    the same member names), fetched only if one is imported (``deferred_imports.py``). Returns
    (compiled, kept as source or deferred)."""
    compiled = kept = 0
    written: list[tuple[str, bytes]] = []
    record = None
    rest = zipfile.ZipFile(deferred, "w", zipfile.ZIP_DEFLATED) if deferred else None
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            name, data = info.filename, old.read(info)
            if name.endswith(".dist-info/RECORD"):
                record = info
                continue
            if name.endswith(".py") and f"{installed_at}/{name}" not in only:
                kept += 1
                if rest is not None:
                    rest.writestr(zipfile.ZipInfo(name, info.date_time), data, compress_type=zipfile.ZIP_DEFLATED)
                    continue
            elif name.endswith(".py"):
                try:
                    with warnings.catch_warnings():  # what the source says of itself is not ours to fix
                        warnings.simplefilter("ignore", SyntaxWarning)
                        code = compile(data, f"{installed_at}/{name}", "exec", dont_inherit=True)
                except SyntaxError:
                    kept += 1
                else:
                    data = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
                    name += "c"
                    compiled += 1
            out = zipfile.ZipInfo(name, info.date_time)
            out.external_attr = info.external_attr
            new.writestr(out, data, compress_type=zipfile.ZIP_DEFLATED)
            written.append((name, data))
        if record is not None:
            lines = "".join(_record_line(n, d) for n, d in written if not n.endswith("/"))
            new.writestr(zipfile.ZipInfo(record.filename, record.date_time),
                         lines + f"{record.filename},,\n", compress_type=zipfile.ZIP_DEFLATED)
    if rest is not None:
        rest.close()
    return compiled, kept
