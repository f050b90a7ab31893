"""The static site's deferred modules: fetched the first time a page imports one.

A page's first visit downloads only the modules the pages import as they open (the build's
start run lists them, tools/site/bytecode.py); the other modules of each archive wait on the
site in ``pyodide/deferred/<archive>.zip``. This finder, first on ``sys.meta_path``, answers for
exactly those modules (``index.json``: module → archive, file, whether a package): the first
import of one fetches its archive (synchronously: the kernel runs in a web worker), unpacks it
into site-packages and imports the module from there. Any other name is left to the usual
finders, and so is a module of the index already installed (the workbook's modules that only
some pages import are in each such page's own package, and in the deferred zip for the
others). A module is never missing: at worst it costs one request.

Shipped in the site's standard library as the package ``_dodge_deferred`` with
``sitecustomize`` importing it, so it is in place before any package is loaded.
"""

import sys

SITE_PACKAGES = "/lib/python3.14/site-packages"


def _fetch(url: str) -> bytes:
    from js import XMLHttpRequest  # in a web worker a synchronous request is allowed

    request = XMLHttpRequest.new()
    request.open("GET", url, False)
    request.responseType = "arraybuffer"
    request.send(None)
    if request.status != 200:
        raise ImportError(f"{url}: HTTP {request.status}")
    return request.response.to_bytes()


def _base_url() -> str:
    import pyodide_js  # the runtime's folder: where the page's Pyodide came from

    return str(pyodide_js._api.config.indexURL)


class DeferredFinder:
    """Finds the modules this site deferred, fetching each archive once."""

    def __init__(self, index: dict[str, list], fetch=_fetch, base_url=_base_url,
                 target: str = SITE_PACKAGES) -> None:
        self.index, self.fetch, self.base_url, self.target = index, fetch, base_url, target
        self.fetched: set[str] = set()

    def find_spec(self, name, path=None, target=None):
        entry = self.index.get(name)
        if entry is None:
            return None
        archive, member, package = entry
        if archive not in self.fetched:
            if self._installed(member):  # by the page's own package: the usual finders have it
                return None
            self._unpack(archive, name)
        import importlib.util

        location = f"{self.target}/{member}"
        return importlib.util.spec_from_file_location(
            name, location, submodule_search_locations=[location.rsplit("/", 1)[0]] if package else None)

    def _installed(self, member: str) -> bool:
        import os

        location = f"{self.target}/{member}"
        return os.path.exists(location) or os.path.exists(location + "c")

    def _unpack(self, archive: str, name: str) -> None:
        import importlib
        import io
        import zipfile

        data = self.fetch(f"{self.base_url()}deferred/{archive}")
        with zipfile.ZipFile(io.BytesIO(data)) as unpacked:
            unpacked.extractall(self.target)
        self.fetched.add(archive)
        importlib.invalidate_caches()
        print(f"[site] fetched deferred/{archive} for {name}", file=sys.__stderr__)


def install() -> DeferredFinder | None:
    """The finder, first on ``sys.meta_path``, with this package's index (None: no index)."""
    import json

    try:
        data = __loader__.get_data(__file__.rsplit("/", 1)[0] + "/index.json")
    except OSError:
        return None
    finder = DeferredFinder(json.loads(data))
    sys.meta_path.insert(0, finder)
    return finder


if __name__ != "__main__" and __spec__ is not None and __spec__.name == "_dodge_deferred":
    install()
