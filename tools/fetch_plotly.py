"""Install plotly.js's cartesian bundle beside the workbook's server (run by `make run` and `make test`).

The dashboards draw only bar, scatter and heatmap traces. plotly.py ships plotly.js whole
(4.8 MB: maps, 3D and WebGL included), and a browser spends most of a dashboard's opening time
evaluating it; plotly's own *cartesian* distribution of the same plotly.js version (1.5 MB:
bar, box, contour, heatmap, histogram, image, pie, scatter, violin and the 2D axes) is evaluated
in about half the time. This script fetches that bundle, for exactly the plotly.js version
plotly.py carries, from the npm registry (plotly's own package `plotly.js-cartesian-dist-min`),
checks its integrity (pinned here for the versions known, else as the registry states it) and
installs it under ``<venv>/share/dodge-workbook/plotly-cartesian/<version>/plotly.min.js``,
where ``server/voila_app.py`` finds it. Without it (no network) the server serves plotly.py's
full bundle: slower to open, the same charts.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import importlib.util
import io
import json
import sys
import tarfile
import time
import urllib.request
from pathlib import Path

PACKAGE = "plotly.js-cartesian-dist-min"
REGISTRY = "https://registry.npmjs.org"
#: Integrity of the tarballs known here (npm's ``dist.integrity``), by plotly.js version.
PINNED = {"4.1.1": "sha512-o8GrFeusncwBIxbBynRJpY4pkgVB6caM+JLpwrLYbbsO7dZ8FJ+SVN2Fr+L7kiG/Z6w4P5O0Jus/Qr5EefHVeg=="}


def _server():
    """The server module, which says which plotly.js it serves and where it looks for the bundle."""
    path = Path(__file__).resolve().parents[1] / "server" / "voila_app.py"
    spec = importlib.util.spec_from_file_location("workbook_server", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _get(url: str, tries: int = 3) -> bytes:
    """``url``'s body, asked up to ``tries`` times (a registry may drop one request)."""
    for attempt in range(1, tries):
        try:
            with urllib.request.urlopen(url, timeout=60) as response:
                return response.read()
        except OSError:
            time.sleep(2 * attempt)
    with urllib.request.urlopen(url, timeout=60) as response:  # the last try: its error is raised
        return response.read()


def fetch(version: str, server) -> bytes:
    """The cartesian bundle of plotly.js ``version``, its tarball's integrity checked."""
    meta = json.loads(_get(f"{REGISTRY}/{PACKAGE}/{version}"))
    integrity = PINNED.get(version, meta["dist"]["integrity"])
    algorithm, _, digest = integrity.partition("-")
    tarball = _get(meta["dist"]["tarball"])
    if base64.b64encode(hashlib.new(algorithm, tarball).digest()).decode() != digest:
        raise SystemExit(f"fetch_plotly: {PACKAGE}@{version} does not match its integrity {integrity}")
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as archive:
        body = archive.extractfile("package/plotly-cartesian.min.js").read()
    found = server.PLOTLY_JS_VERSION.search(body[:400])
    if found is None or found.group(1).decode() != version:
        raise SystemExit(f"fetch_plotly: {PACKAGE}@{version} holds another plotly.js version")
    return body


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prefix", default=sys.prefix, help="the environment to install into")
    args = parser.parse_args(argv)
    server = _server()
    shipped = server.PLOTLY_PY_DIR / "plotly.min.js"
    version = server.plotly_js_version(shipped)
    if version is None:
        raise SystemExit(f"fetch_plotly: no plotly.js version in the header of {shipped}")
    path = server.cartesian_bundle(version, args.prefix)
    if path.exists():
        return 0
    try:
        body = fetch(version, server)
    except (OSError, KeyError, ValueError, tarfile.TarError) as err:
        print(f"fetch_plotly: could not fetch {PACKAGE}@{version} ({err}); the dashboards use "
              "plotly.py's full plotly.js (slower to open, the same charts)", file=sys.stderr)
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".part")
    partial.write_bytes(body)
    partial.replace(path)
    print(f"fetch_plotly: installed {PACKAGE}@{version} ({len(body) / 1e6:.1f} MB) at {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
