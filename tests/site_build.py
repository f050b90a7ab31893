"""``tools/site/build.py`` as a module, for the static site's tests (it is a script, not part
of a package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parents[1] / "tools" / "site"
if str(_HERE) not in sys.path:  # its modules beside it (lab.py), as when it runs as a script
    sys.path.append(str(_HERE))
_spec = importlib.util.spec_from_file_location("site_build", _HERE / "build.py")
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)
