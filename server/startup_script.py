"""One script of the JavaScript chunks every dashboard loads as it starts.

A dashboard's page runs Voilà's front end (``voila/static/voila.js``) and three JupyterLab
extensions (the widgets' manager, Voilà's widget manager, anywidget). Each is a webpack build
split into small chunks, which a page asks for one after another as each part of the front end
starts: about 90 requests in waves, through the browser's six connections to a host, each
answered by the server's Python. On this machine that took about 0.4 s of an open of 1.6 s.

Here those chunks are written once into one script (named by its content), which the page's head
preloads and runs just before ``voila.js``. Each chunk only registers its modules with its own
build (``self.webpackChunk_<build>.push(...)``), and each build, as it starts, takes the chunks
registered before it: so a chunk in the script is never asked for again, and one that is not in
it (another Voilà, a notebook using another extension) is fetched as before.

``startup_chunks.txt`` lists the chunks (their addresses under the server's base URL). It is
written by ``tools/startup_chunks.py``, which opens each dashboard in Chromium and records what the
page fetched; ``tests/browser/test_server.py`` fails when a dashboard fetches a chunk the list
lacks (after an upgrade of Voilà or of an extension).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: The chunks' addresses, one per line, relative to the server's base URL.
CHUNK_LIST = HERE / "startup_chunks.txt"
#: Where a chunk's address starts: Voilà's own static files, or a JupyterLab extension's.
VOILA_STATIC = "voila/static/"
LABEXTENSIONS = "voila/labextensions/"
#: The address of the script, under the server's base URL ({name}: ``startup.<digest>.js``).
ADDRESS = "workbook/startup/{name}"


def address(script: Path) -> str:
    """The address of ``script`` (a file :func:`write` wrote) under the server's base URL, with its
    version: a browser keeps it as long as it keeps its other versioned files."""
    return f"{ADDRESS.format(name=script.name)}?v={script.name.split('.')[1]}"


def listed(path: Path = CHUNK_LIST) -> list[str]:
    """The chunk addresses in ``path`` (blank lines and ``#`` comments skipped)."""
    lines = (line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def is_chunk(path: str) -> bool:
    """Whether the address ``path`` (under the server's base URL) is a chunk of Voilà's front end or
    of an extension, and not an entry file (``voila.js``, an extension's ``remoteEntry``)."""
    name = path.rsplit("/", 1)[-1]
    return (path.startswith((VOILA_STATIC, LABEXTENSIONS)) and ".." not in path.split("/")
            and name.endswith(".js") and name != "voila.js" and not name.startswith("remoteEntry."))


def chunk_file(address: str, static_paths: Sequence[str], labextension_paths: Sequence[str],
               extensions: Iterable[str]) -> Path | None:
    """The file the server sends for the chunk at ``address``, found as Voilà's handlers find it
    (Voilà's static folders; the extensions' folders, for the extensions a dashboard loads), or
    None: not served, or not a plain chunk file name."""
    if not is_chunk(address):
        return None
    if address.startswith(VOILA_STATIC):
        folders = [Path(p) for p in static_paths]
        rest = address[len(VOILA_STATIC):]
    else:
        rest = address[len(LABEXTENSIONS):]
        extension = next((e for e in extensions if rest.startswith(e + "/")), None)
        if extension is None:
            return None
        folders = [Path(base, extension) for base in labextension_paths]
        rest = rest[len(extension) + 1:]
    for folder in folders:
        candidate = folder / rest
        if candidate.is_file():
            return candidate
    return None


def write(files: Sequence[Path], folder: Path) -> Path:
    """The script of ``files`` (each chunk in the order given, each its own statement), written to
    ``folder`` as ``startup.<digest>.js`` unless it is there already; its path."""
    body = b"".join(f.read_bytes().rstrip() + b"\n;\n" for f in files)
    target = folder / f"startup.{hashlib.sha256(body).hexdigest()[:20]}.js"
    if not target.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f"{target.name}.{os.getpid()}.part")
        partial.write_bytes(body)
        os.replace(partial, target)
    return target


def chunk_files(static_paths: Sequence[str], labextension_paths: Sequence[str], extensions: Iterable[str],
                chunk_list: Path = CHUNK_LIST) -> tuple[list[Path], list[str]]:
    """The files of the listed chunks this server has, in the list's order (what the startup
    script carries); and the listed addresses it does not serve."""
    extensions = list(extensions)
    files, missing = [], []
    for address in listed(chunk_list):
        found = chunk_file(address, static_paths, labextension_paths, extensions)
        if found is None:
            missing.append(address)
        else:
            files.append(found)
    return files, missing
