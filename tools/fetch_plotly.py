"""Install plotly.js's basic and cartesian bundles beside the workbook's server (run by `make run` and `make test`).

The dashboards draw only bar, scatter and heatmap traces. plotly.py ships plotly.js whole
(4.8 MB: maps, 3D and WebGL included), and a browser spends most of a dashboard's opening time
evaluating it. plotly publishes smaller distributions of the same plotly.js: the *cartesian* one
(1.5 MB: bar, box, contour, heatmap, histogram, image, pie, scatter, violin and the 2D axes) is
evaluated in about half the time, and the *basic* one (1.2 MB: bar, pie and scatter) in half
that again. A page starts the basic bundle as it opens (every chart it shows then is bars and
lines), and a chart with a heatmap loads the cartesian one when it is first drawn
(``workbook/page/chart.py``). This script fetches both, for exactly the plotly.js version
plotly.py carries, from the npm registry (plotly's own packages ``plotly.js-basic-dist-min`` and
``plotly.js-cartesian-dist-min``), checks their integrity (pinned here for the versions known,
else as the registry states it) and installs them under
``<venv>/share/dodge-workbook/plotly-<kind>/<version>/``, where ``server/voila_app.py`` finds
them. Without them (no network) the server serves plotly.py's full bundle: slower to open, the
same charts.
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

REGISTRY = "https://registry.npmjs.org"
#: Each bundle: its npm package, the bundle's file in the package, and the integrity of the
#: tarballs known here (npm's ``dist.integrity``) by plotly.js version.
BUNDLES = {
    "cartesian": ("plotly.js-cartesian-dist-min", "package/plotly-cartesian.min.js",
                  {"4.1.1": "sha512-o8GrFeusncwBIxbBynRJpY4pkgVB6caM+JLpwrLYbbsO7dZ8FJ+SVN2Fr+L7kiG/Z6w4P5O0Jus/Qr5EefHVeg=="}),
    "basic": ("plotly.js-basic-dist-min", "package/plotly-basic.min.js",
              {"4.1.1": "sha512-1oNF8PeQx2hv/y7tqEVWKD3JGwn/MGEMQ8mL9HUwsaqG9FGy/OU5FHUHvzqbqxN4mnwZGI9abTiE775C4kkjMQ=="}),
}


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


def fetch(kind: str, version: str, server) -> bytes:
    """The ``kind`` bundle (a key of :data:`BUNDLES`) of plotly.js ``version``, its tarball's
    integrity checked."""
    package, member, pinned = BUNDLES[kind]
    meta = json.loads(_get(f"{REGISTRY}/{package}/{version}"))
    integrity = pinned.get(version, meta["dist"]["integrity"])
    algorithm, _, digest = integrity.partition("-")
    tarball = _get(meta["dist"]["tarball"])
    if base64.b64encode(hashlib.new(algorithm, tarball).digest()).decode() != digest:
        raise SystemExit(f"fetch_plotly: {package}@{version} does not match its integrity {integrity}")
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as archive:
        body = archive.extractfile(member).read()
    found = server.PLOTLY_JS_VERSION.search(body[:400])
    if found is None or found.group(1).decode() != version:
        raise SystemExit(f"fetch_plotly: {package}@{version} holds another plotly.js version")
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
    for kind, (package, _, _) in BUNDLES.items():
        path = server.plotly_bundle(kind, version, args.prefix)
        if path.exists():
            continue
        try:
            body = fetch(kind, version, server)
        except (OSError, KeyError, ValueError, tarfile.TarError) as err:
            print(f"fetch_plotly: could not fetch {package}@{version} ({err}); the dashboards use "
                  "plotly.py's full plotly.js (slower to open, the same charts)", file=sys.stderr)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".part")
        partial.write_bytes(body)
        partial.replace(path)
        print(f"fetch_plotly: installed {package}@{version} ({len(body) / 1e6:.1f} MB) at {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
