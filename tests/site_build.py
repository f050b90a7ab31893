"""``tools/site/build.py`` as a module, for the static site's tests (it is a script, not part
of a package), and its siblings ``tools/site/patches.py`` and ``tools/site/rules.py``, which it
imports."""

from __future__ import annotations

import importlib.util
import json
import sys
import tarfile
from pathlib import Path

_HERE = Path(__file__).resolve().parents[1] / "tools" / "site"
if str(_HERE) not in sys.path:
    sys.path.insert(0, str(_HERE))

import patches  # noqa: E402
import rules  # noqa: E402

_spec = importlib.util.spec_from_file_location("site_build", _HERE / "build.py")
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)

__all__ = ["build", "patches", "rules", "pyodide_tarball", "runtime_for_node"]


def pyodide_tarball() -> Path:
    (entry,) = [e for e in json.loads(build.LOCK.read_text())["npm"] if e["name"] == "pyodide"]
    return build.fetch("npm", entry, offline=False)


def runtime_for_node(folder: Path) -> Path:
    """The locked Pyodide as published (for Node), in ``folder/runtime``."""
    runtime = folder / "runtime"
    runtime.mkdir()
    with tarfile.open(pyodide_tarball()) as tar:
        for name in [*build.PYODIDE_FILES, "pyodide.mjs", "pyodide-lock.json"]:
            (runtime / name).write_bytes(tar.extractfile(f"package/{name}").read())
    return runtime
