"""The site's packages unpacked in one pass of their tar headers.

Pyodide installs each package a page loads by writing its archive to a file and unpacking it
with ``shutil.unpack_archive``. The site's packages are tars compressed by zstd (``build.py``,
``PACKED_SUFFIX``), so that is ``tarfile``'s ``extractall``, which reads each member into an
object, checks it against its filter and sets its mode and time: 150–160 ms for a dashboard's
26 packages in Chromium, on every visit. These archives hold regular files only, which this
reads from the tar's own headers and writes: 25–30 ms for the same packages. Any archive that
holds anything else (a folder, a link, a long name in a pax or GNU header, a name that leaves
the folder, a header that fails its checksum or holds a size or name it cannot read) is
unpacked by ``tarfile`` as before, untouched until then.

Pyodide then lists each archive's members again to find its compiled libraries
(``pyodide._package_loader.get_dynlibs``), with ``tarfile``: the archive decompressed and every
header read a second time, for every package a page loads. For an archive read here, the names
read as it was unpacked answer that instead (:func:`dynlibs`); any other goes to Pyodide's own.

Shipped in the site's standard library as ``_dodge_unpack``, which ``sitecustomize`` imports
as Python starts: it becomes ``shutil``'s unpacker for ``.tar``, and, from the first archive it
unpacks (Pyodide's package loader imported by then), the loader's lister of libraries.
"""

import os
import shutil

BLOCK = 512
#: The archives left to ``tarfile`` so far (their file names).
LEFT_TO_TARFILE: list[str] = []
#: The member names of each archive read here and not yet listed for its libraries, by file name.
UNPACKED: dict[str, list[str]] = {}
#: zstd's magic number: the archive is one zstd stream.
ZSTD = b"\x28\xb5\x2f\xfd"


def _octal(field: bytes) -> int:
    return int(field.rstrip(b"\0 ").decode("ascii") or "0", 8)


def members(data: bytes) -> list[tuple[str, int, int]] | None:
    """Each member of the uncompressed tar ``data`` as (name, offset, size), or None unless every
    member is a regular file with a plain relative name and a sound header."""
    try:
        return _members(data)
    except ValueError:  # a number not in octal, a name not in UTF-8
        return None


def _members(data: bytes) -> list[tuple[str, int, int]] | None:
    found, offset = [], 0
    while offset + BLOCK <= len(data):
        header = data[offset:offset + BLOCK]
        if header == bytes(BLOCK):
            return found
        stored = _octal(header[148:156])
        if stored != sum(header[:148]) + 8 * 32 + sum(header[156:]) or header[156:157] not in (b"0", b"\0"):
            return None
        name = header[:100].split(b"\0", 1)[0]
        if header[257:263] == b"ustar\0":  # POSIX's ustar (GNU's puts times where its prefix is)
            prefix = header[345:500].split(b"\0", 1)[0]
            name = prefix + b"/" + name if prefix else name
        parts = name.decode("utf-8").split("/")
        if not name or name.startswith(b"/") or any(p in ("", ".", "..") or "\\" in p for p in parts):
            return None
        size = _octal(header[124:136])
        offset += BLOCK
        if offset + size > len(data):
            return None
        found.append(("/".join(parts), offset, size))
        offset += -(-size // BLOCK) * BLOCK
    return None  # no end-of-archive block


def unpack(filename: str, extract_dir: str, **kwargs) -> None:
    """``shutil``'s unpacker for ``.tar``: the archive ``filename`` into ``extract_dir``, read
    here when it holds regular files only (:func:`members`), else by ``tarfile``."""
    with open(filename, "rb") as f:
        data = f.read()
    if data[:4] == ZSTD:
        from compression import zstd

        data = zstd.decompress(data)
    found = None if kwargs else members(data)
    if found is None:
        LEFT_TO_TARFILE.append(filename)
        shutil._unpack_tarfile(filename, extract_dir, **kwargs)
        return
    view, made = memoryview(data), set()
    for name, offset, size in found:
        path = os.path.join(extract_dir, name)
        folder = os.path.dirname(path)
        if folder not in made:
            os.makedirs(folder, exist_ok=True)
            made.add(folder)
        with open(path, "wb") as f:
            f.write(view[offset:offset + size])
    if _list_libraries_here():
        UNPACKED[filename] = [name for name, _, _ in found]


def dynlibs(archive, suffix, target_dir, *, listed_by=None):
    """Pyodide's ``get_dynlibs(archive, suffix, target_dir)`` (``listed_by``: Pyodide's own): for
    an archive this module unpacked, its libraries found among the names it read."""
    names = UNPACKED.pop(getattr(archive, "name", None), None)
    if names is None:
        return listed_by(archive, suffix, target_dir)
    from pyodide._package_loader import should_load_dynlib

    return [str((target_dir / name).resolve()) for name in names if should_load_dynlib(name)]


def _list_libraries_here() -> bool:
    """Whether Pyodide's package loader lists an archive's libraries with :func:`dynlibs`, put
    in place here the first time (False where the loader is not imported, as outside Pyodide:
    nothing would take the names kept for it)."""
    import functools
    import sys

    loader = sys.modules.get("pyodide._package_loader")
    own = getattr(loader, "get_dynlibs", None)
    if own is None:
        return False
    if getattr(own, "func", None) is not dynlibs:
        loader.get_dynlibs = functools.partial(dynlibs, listed_by=own)
    return True


shutil.unregister_unpack_format("tar")
shutil.register_unpack_format("tar", [".tar"], unpack, description="tar, read in one pass (the Dodge Workbook's site)")
