"""``tools/site/build.py`` as a module, for the static site's tests (it is a script, not part
of a package)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "site_build", Path(__file__).resolve().parents[1] / "tools" / "site" / "build.py")
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)
