"""Build the static site (``make site``): every dashboard runs in the reader's browser (Pyodide).

``site/`` is built from the package registries only (PyPI and npm), every file pinned with its
sha256 in ``tools/site/lock.json`` and kept in a download cache, so a rebuild needs no network:

1. **Build tools** in their own virtualenv (``.site-build/venv``): Voici (``voici-core``, the
   Voilà page template for JupyterLite) with ``jupyterlite-core`` and the Pyodide kernel
   ``jupyterlite-pyodide-kernel``, plus anywidget (its front end is copied into the site) and
   setuptools (to build the project's wheel). Installed with ``--no-index --require-hashes``
   from the cache.
2. **The Python runtime** for the browser: the npm package ``pyodide`` (the interpreter and its
   standard library, no packages). Its ``pyodide.js`` refuses to start in a classic web worker,
   which is where this kernel starts it; a patch removes that one check (see docs/deploy.md,
   *The static site*). Its standard library ships as one zstd stream, which the patched
   ``pyodide.js`` decodes with fzstd (npm): ``pack_stdlib``.
3. **The browser's packages**: pure-Python wheels and the WebAssembly wheel of pydantic-core
   (``pyemscripten_2026_0_wasm32``, Python 3.14) from PyPI, the kernel's own wheels, and the
   project's ``rules_core`` + ``workbook`` as a wheel built here; some of them patched
   (``WHEEL_PATCHES``: the kernel's comm, IPython's start, plotly's validators without
   narwhals, ipywidgets' deprecation check). They are listed in a
   ``pyodide-lock.json`` written here, so Pyodide loads them all at start, in parallel, each
   checked against its sha256, with no package resolver and no other host.
4. ``voici build`` renders the notebooks into ``site/``; the kernel's settings
   (``jupyter-lite.json``) point it at the runtime and the lock above.
5. The pages' start made shorter: each page starts Python with the page (the early start,
   patching the kernel's scripts), piplite is set up lazily, the packages are unpacked in one
   pass (``fast_unpack.py``), and JupyterLite's service worker answers only what it must.
   Every patch to a third-party file is in ``tools/site/patches.py``
   (docs/deploy.md).

Usage::

    python tools/site/build.py                 # build site/ (downloads only what the cache lacks)
    python tools/site/build.py --offline       # fail instead of downloading
    python tools/site/build.py --update-lock   # resolve the pins below again, rewrite lock.json
    python tools/site/build.py --if-stale      # keep site/ if built from the same inputs (make site)
    python tools/site/build.py --extra-wheel W # also ship wheel W (an experiment, never the real site)
    python tools/site/build.py --rule my_rule.py --rule house.py   # designers' rules, each a page (RULES=)
    python tools/site/build.py --out DIR       # build DIR instead of site/

The cache is ``$DODGE_SITE_CACHE`` or ``~/.cache/dodge-workbook-site``.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import patches  # tools/site/patches.py, beside this script
from bytecode import ZSTD_LEVEL, page_archive  # the wheels' level, for the standard library too
import rules  # tools/site/rules.py: designers' rules (RULES=)
from lab import LAB, LAB_INPUTS, add_lab, staged_build

from workbook.page.static_address import BASIC_FILE, BASIC_TRACES  # the server's names for it

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
LOCK = HERE / "lock.json"
WORK = ROOT / ".site-build"
VENV = WORK / "venv"
SITE = ROOT / "site"
CACHE = Path(os.environ.get("DODGE_SITE_CACHE", Path.home() / ".cache" / "dodge-workbook-site"))

#: The pages of the site: every page of the index that needs no kernel of its own (the four
#: games, the page of games, the lessons). The notebook where a reader designs a rule is in the
#: site's lab (tools/site/lab.py), linked from the site's front page.
NOTEBOOKS = ["infinity-n4-dodge.ipynb", "gurps-4e.ipynb", "eldfall.ipynb", "d100-homebrew.ipynb",
             "compare-systems.ipynb", "lesson-bell-and-flat.ipynb", "lesson-leftover-successes.ipynb",
             "lesson-one-die-three-attackers.ipynb", "lesson-sampling.ipynb"]
#: Where ``voici build`` puts a notebook's page, relative to the site's root.
PAGES = "voici/render/"

# -- pins (``--update-lock`` resolves them with their dependencies into lock.json) --------------

#: The build tools (on this machine's Python). voici-core 0.10 asks for jupyterlite-core 0.7;
#: the pyodide kernel 0.7.0 is the last one whose front end loads in Voici's page (0.7.1 and
#: later ask for JupyterLab 4.4's plugin manager, which Voici 0.10's page does not share).
BUILD_PINS = ["voici-core==0.10.0", "jupyterlite-core==0.7.6", "jupyterlite-pyodide-kernel==0.7.0",
              "anywidget==0.11.0", "setuptools==84.2.1", "wheel==0.48.0"]

#: The runtime: npm ``pyodide`` 314 (Python 3.14), the only one PyPI's pydantic-core wheels fit.
NPM_PINS = ["pyodide@314.0.8", "plotly.js-cartesian-dist-min@4.1.1", "plotly.js-basic-dist-min@4.1.1", "fzstd@0.1.1"]
#: The charts' plotly.js: plotly's cartesian bundle of the plotly.js that plotly 7.1.0 carries, as
#: ``make run`` serves it, where the charts ask for it on the static site (``plotly_path()``
#: relative to the pages: ``workbook.page.chart.plotly_url``): (npm package, its file, where on
#: the site).
PLOTLY_BUNDLE = ("plotly.js-cartesian-dist-min", "package/plotly-cartesian.min.js",
                 PAGES + "workbook/static/plotly.min.js")
#: plotly's basic bundle of the same plotly.js (bar, pie and scatter), which a page starts as it
#: opens (the early start), as ``make run``'s pages do: ``workbook.page.static_address``.
PLOTLY_BASIC_BUNDLE = ("plotly.js-basic-dist-min", "package/plotly-basic.min.js",
                       PAGES + "workbook/static/" + BASIC_FILE)

PYODIDE_PLATFORM = "pyemscripten_2026_0_wasm32"
PYODIDE_PYTHON = "3.14"

#: The browser's packages (what the dashboards and the kernel import), resolved for Pyodide.
BROWSER_PINS = ["pydantic==2.14.4", "ipywidgets==8.1.5", "plotly==7.1.0", "anywidget==0.11.0",
                "ipython==9.12.0", "comm==0.2.3", "traitlets==5.14.3", "micropip==0.11.1"]
#: Dependencies declared for a desktop that the browser never imports (front-end assets, a pty),
#: and jedi (with parso), IPython's tab completion: 3.8 MB compressed that a dashboard, where no
#: reader types code, never uses (IPython runs without it).
BROWSER_SKIP = {"widgetsnbextension", "jupyterlab-widgets", "pexpect", "ptyprocess", "jedi", "parso"}

#: Files of a browser wheel that no dashboard reads, left out of the wheel the site ships
#: (:func:`slim_wheel`). plotly: its own plotly.js and FigureWidget bundle (the charts draw with
#: the site's plotly.js bundle, ``PLOTLY_BUNDLE``), its JupyterLab extension, its sample datasets,
#: and the nested properties of every trace type but the three the workbook draws (a trace type's
#: class stays; only its sub-objects, such as ``scatter3d.marker``, go). 8.5 MB → about 2 MB.
PLOTLY_TRACES_DRAWN = ("bar", "scatter", "heatmap")
SLIM = {
    "plotly": lambda member: (
        member in ("plotly/package_data/plotly.min.js", "plotly/package_data/widgetbundle.js")
        or member.startswith(("plotly/package_data/datasets/", "plotly/labextension/", "plotly-7.1.0.data/"))
        or (member.startswith("plotly/graph_objs/") and member.count("/") > 2
            and member.split("/")[2] not in ("layout", *PLOTLY_TRACES_DRAWN))),
    # anywidget: its front end for JupyterLab and the classic notebook (1.3 MB), which the page
    # has from the site's extensions; the kernel's Python never reads it
    "anywidget": lambda member: (member.startswith(("anywidget/labextension/", "anywidget/nbextension/"))
                                 or member.split("/")[0].endswith(".data")),
}

#: The kernel's own wheels, shipped inside the jupyterlite-pyodide-kernel wheel (hashed above).
KERNEL_WHEELS = ("ipykernel-", "piplite-", "pyodide-kernel-", "pyodide_kernel-", "widgetsnbextension-4")

#: The runtime files the site serves (not the consoles, maps or type declarations).
PYODIDE_FILES = ["pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "package.json"]


def log(message: str) -> None:
    print(f"[site] {message}", flush=True)


def run(*command: str | Path, **kwargs) -> subprocess.CompletedProcess:
    log(" ".join(str(c) for c in command))
    return subprocess.run([str(c) for c in command], **{"check": True, **kwargs})


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def wheel_name_version(filename: str) -> tuple[str, str]:
    name, version = filename.split("-")[:2]
    return normalize(name), version


def plotly_path(lock: dict, bundle: tuple[str, str, str] = PLOTLY_BUNDLE) -> str:
    """The charts' plotly.js (``bundle``: :data:`PLOTLY_BUNDLE` or :data:`PLOTLY_BASIC_BUNDLE`) as
    the site's pages ask for it, relative to the pages: with the browser's plotly version
    (``workbook.page.static_address.plotly_path`` and ``plotly_basic_path`` in the browser)."""
    (plotly,) = [e for e in lock["browser"] if e["name"] == "plotly"]
    return bundle[2].removeprefix(PAGES) + f"?v={plotly['version']}"


def speed_up_the_kernels_start(site: Path, plotly: str, in_snapshot: list[str]) -> None:
    """The early start in the kernel's code and every rendered page of ``site``, and Python from a
    snapshot holding the packages ``in_snapshot`` in the kernel's worker; ``plotly`` is the basic
    bundle's address (its trace types: ``BASIC_TRACES``)."""
    static = site / patches.KERNEL_STATIC
    worker = patches.kernel_worker(site)
    (page_code,) = [p for p in static.glob("*.js") if patches.KERNEL_NEW_WORKER in p.read_text(encoding="utf-8")]
    page_code.write_text(patches.patch_kernel_worker_taken(page_code.read_text(encoding="utf-8")), encoding="utf-8")
    worker_code = patches.patch_kernel_worker_snapshot(patches.patch_kernel_worker_early(worker.read_text(encoding="utf-8")),
                                                       in_snapshot)
    worker.write_text(patches.patch_kernel_worker_piplite(worker_code), encoding="utf-8")
    # the worker's address as the kernel makes it: "352.<hash>.js?v=<hash>" (webpack's chunk name)
    chunk_hash = worker.name.split(".")[1]
    path = patches.KERNEL_STATIC.removeprefix("extensions/") + f"{worker.name}?v={chunk_hash}"
    for page in sorted((site / PAGES).glob("*.html")):
        page.write_text(patches.add_early_start(page.read_text(encoding="utf-8"), path, plotly, BASIC_TRACES),
                        encoding="utf-8")


def keep_the_service_worker(site: Path) -> None:
    """Every copy of JupyterLite's service-worker manager in ``site`` (the pages', the lab's, the
    kernel extension's) recording its version as it registers the worker, so that a reader's
    next visit keeps it (``patches.patch_service_worker_version``); stops the build if the
    dashboards' pages have none."""
    holders = [p for p in sorted(site.rglob("*.js")) if patches.SW_MANAGER in p.read_text(encoding="utf-8")]
    if not any(p.relative_to(site).as_posix().startswith("voici/build/") for p in holders):
        raise SystemExit("voici/build/*.js: expected JupyterLite's service-worker manager, found none "
                         "(a new version? see SW_VERSION_CHECK in tools/site/patches.py)")
    for holder in holders:
        text = patches.patch_service_worker_version(holder.read_text(encoding="utf-8"), holder.relative_to(site).as_posix())
        holder.write_text(text, encoding="utf-8")


#: The files of a site that a page reads as markup, script or style (what :func:`other_hosts` reads).
LOADED_KINDS = {".html": "html", ".js": "js", ".mjs": "js", ".css": "css"}


def keep_to_own_host(site: Path) -> None:
    """``site`` asking no other host (``patches.drop_other_hosts`` on every page, each of
    ``patches.OTHER_HOST_DEFAULTS`` in the one file of the pages that has it and in the lab's copy
    of that file, if the lab has one); stops the build if anything still would (:func:`other_hosts`)."""
    for page in sorted(site.rglob("*.html")):
        page.write_text(patches.drop_other_hosts(page.read_text(encoding="utf-8")), encoding="utf-8")
    for where, (old, _) in patches.OTHER_HOST_DEFAULTS.items():
        holders = [p for p in sorted(site.glob(where)) if old in p.read_text(encoding="utf-8")]
        if len(holders) != 1:
            raise SystemExit(f"{where}: expected one file with {old[:60]!r}, found {len(holders)} "
                             "(a new version? see OTHER_HOST_DEFAULTS in tools/site/patches.py)")
        holders += [p for p in sorted((site / LAB).rglob(Path(where).name)) if old in p.read_text(encoding="utf-8")]
        for holder in holders:
            holder.write_text(patches.patch_other_host_default(holder.read_text(encoding="utf-8"), where),
                              encoding="utf-8")
    found = other_hosts(site)
    if found:
        raise SystemExit("the site would ask other hosts: " + "; ".join(
            f"{path}: {', '.join(sorted(set(urls)))}" for path, urls in found.items()))


def other_hosts(site: Path) -> dict[str, list[str]]:
    """Each page, script and style sheet of ``site`` (its path from the site's root) that would
    load something from another host, with those addresses (``patches.other_host_urls``)."""
    found = {}
    for path in sorted(site.rglob("*")):
        kind = LOADED_KINDS.get(path.suffix)
        if kind and path.is_file():
            urls = patches.other_host_urls(path.read_text(encoding="utf-8", errors="replace"), kind)
            if urls:
                found[path.relative_to(site).as_posix()] = urls
    return found


def patch_wheel(wheel: Path) -> Path:
    """``wheel`` with its files patched (``WHEEL_PATCHES``), in its place."""
    found = patches.WHEEL_PATCHES.get(wheel_name_version(wheel.name)[0], {})
    if found:
        with zipfile.ZipFile(wheel) as archive:
            files = {name: patch(archive.read(name).decode()).encode() for name, patch in found.items()}
        with tempfile.TemporaryDirectory() as tmp:
            add_to_wheel(shutil.move(wheel, Path(tmp) / wheel.name), wheel, files)
    return wheel


# -- the lock and the cache ----------------------------------------------------------------------

def pip_download(args: list[str], dest: Path, python: str = sys.executable) -> None:
    run(python, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
        "--dest", dest, *args)


def browser_platform_args() -> list[str]:
    return ["--only-binary=:all:", "--platform", PYODIDE_PLATFORM, "--platform", "any",
            "--python-version", PYODIDE_PYTHON, "--implementation", "cp",
            "--abi", "cp" + PYODIDE_PYTHON.replace(".", ""), "--abi", "none"]


def update_lock() -> None:
    """Resolve the pins with their dependencies and write lock.json (names, files, sha256)."""
    lock: dict = {"comment": "Written by tools/site/build.py --update-lock: every file the static "
                             "site is built from, with its sha256. Do not edit by hand.",
                  "build": [], "browser": [], "npm": []}
    with tempfile.TemporaryDirectory() as tmp:
        build, browser, npm = Path(tmp, "build"), Path(tmp, "browser"), Path(tmp, "npm")
        for d in (build, browser, npm):
            d.mkdir()
        pip_download(["--only-binary=:all:", *BUILD_PINS], build)
        pip_download([*browser_platform_args(), *BROWSER_PINS], browser)
        for pin in NPM_PINS:
            run("npm", "pack", "--silent", "--pack-destination", npm, pin, stdout=subprocess.DEVNULL)
        for kind, folder in (("build", build), ("browser", browser), ("npm", npm)):
            for path in sorted(folder.iterdir()):
                if kind == "npm":
                    name, version = path.name.rsplit("-", 1)[0], path.name.rsplit("-", 1)[1][:-4]
                else:
                    name, version = wheel_name_version(path.name)
                if kind == "browser" and name in BROWSER_SKIP:
                    continue
                lock[kind].append({"name": name, "version": version, "file": path.name,
                                   "sha256": sha256(path)})
                cached = CACHE / kind / path.name
                cached.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, cached)
    LOCK.write_text(json.dumps(lock, indent=1) + "\n")
    log(f"wrote {LOCK.relative_to(ROOT)}: " + ", ".join(f"{len(lock[k])} {k}" for k in ("build", "browser", "npm")))


def prefetch(kind: str, entries: list[dict], offline: bool) -> None:
    """Download into the cache, in one run of pip (or npm), the files of ``entries`` it lacks: a
    first build fetched its 119 wheels with one pip run each, some 3 minutes of a fresh
    machine's CPU spent starting pip. :func:`fetch` then checks each file, and downloads alone
    any that this did not bring."""
    folder = CACHE / kind
    missing = [e for e in entries if not (folder / e["file"]).exists()]
    if offline or len(missing) < 2:
        return
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        if kind == "npm":
            run("npm", "pack", "--silent", "--pack-destination", tmp,
                *[f"{e['name']}@{e['version']}" for e in missing], stdout=subprocess.DEVNULL)
        else:
            platform = browser_platform_args() if kind == "browser" else ["--only-binary=:all:"]
            pip_download(["--no-deps", *platform, *[f"{e['name']}=={e['version']}" for e in missing]], Path(tmp))
        for entry in missing:
            got = Path(tmp, entry["file"])
            if got.exists():
                got.replace(folder / entry["file"])


def fetch(kind: str, entry: dict, offline: bool) -> Path:
    """The cached file of a lock entry, downloaded if missing; its sha256 checked either way."""
    path = CACHE / kind / entry["file"]
    if not path.exists():
        if offline:
            raise SystemExit(f"not in the cache (and --offline): {path}")
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=path.parent) as tmp:
            if kind == "npm":
                run("npm", "pack", "--silent", "--pack-destination", tmp,
                    f"{entry['name']}@{entry['version']}", stdout=subprocess.DEVNULL)
            else:
                platform = browser_platform_args() if kind == "browser" else ["--only-binary=:all:"]
                pip_download(["--no-deps", *platform, f"{entry['name']}=={entry['version']}"], Path(tmp))
            got = Path(tmp, entry["file"])
            if not got.exists():
                raise SystemExit(f"{entry['name']} {entry['version']}: the registry gave "
                                 f"{[p.name for p in Path(tmp).iterdir()]}, not {entry['file']}")
            got.replace(path)
    digest = sha256(path)
    if digest != entry["sha256"]:
        path.unlink()
        raise SystemExit(f"sha256 mismatch for {entry['file']}: {digest}, lock.json says {entry['sha256']}")
    return path


# -- the steps -----------------------------------------------------------------------------------

def ensure_build_venv(lock: dict, offline: bool) -> None:
    """The build tools' virtualenv, installed from the cache with every hash required."""
    prefetch("build", lock["build"], offline)
    files = [fetch("build", e, offline) for e in lock["build"]]
    stamp = VENV / ".lock-sha256"
    want = hashlib.sha256(json.dumps(lock["build"], sort_keys=True).encode()).hexdigest()
    if stamp.exists() and stamp.read_text() == want:
        return
    if VENV.exists():
        shutil.rmtree(VENV)
    run(sys.executable, "-m", "venv", VENV)
    requirements = WORK / "build-requirements.txt"
    requirements.write_text("".join(f"{e['name']}=={e['version']} --hash=sha256:{e['sha256']}\n"
                                    for e in lock["build"]))
    run(VENV / "bin" / "python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
        "--no-index", "--find-links", files[0].parent, "--require-hashes", "-r", requirements)
    stamp.write_text(want)


def project_wheel(out: Path) -> Path:
    """``rules_core`` + ``workbook`` as a wheel (built from the work tree, no dependencies), with
    the texts the pages read from ``notebooks/`` (a page's explanations in each language,
    ``workbook.pages.explain``) in a ``notebooks/`` folder beside the packages, where the
    workbook finds them in the source tree too (``workbook.pages.catalog.notebooks_folder``)."""
    env = dict(os.environ, SOURCE_DATE_EPOCH=source_date_epoch())
    with tempfile.TemporaryDirectory() as tmp:
        # from a copy of the sources: setuptools reuses the work tree's build/ folder, where a
        # module since made a package (rules_core/scenario.py) would stay and shadow it
        source = Path(tmp, "source")
        for package in ("rules_core", "workbook"):
            shutil.copytree(ROOT / package, source / package, ignore=shutil.ignore_patterns("__pycache__"))
        for name in ("pyproject.toml", "README.md"):
            shutil.copy2(ROOT / name, source / name)
        run(VENV / "bin" / "python", "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check",
            "--no-deps", "--no-build-isolation", "--no-index", "--wheel-dir", tmp, source, env=env)
        (wheel,) = Path(tmp).glob("*.whl")
        texts = {f"notebooks/{p.name}": p.read_bytes() for p in sorted((ROOT / "notebooks").glob("*.md"))}
        return add_to_wheel(wheel, out / wheel.name, texts)


def add_to_wheel(source: Path, target: Path, files: dict[str, bytes]) -> Path:
    """``source`` written at ``target`` with ``files`` (name in the wheel → content) added, or in
    the place of the wheel's file of that name, each listed in RECORD with its sha256, as an
    installer expects."""
    import base64

    def record_line(name: str, data: bytes) -> str:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        return f"{name},sha256={digest},{len(data)}\n"

    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            if info.filename in files:
                continue
            data = old.read(info)
            if info.filename.endswith(".dist-info/RECORD"):
                kept = [line for line in data.decode().splitlines(keepends=True)
                        if line.rsplit(",", 2)[0] not in files]
                data = "".join(kept + [record_line(n, d) for n, d in files.items()]).encode()
            new.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)
        for name, data in files.items():
            new.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data, compress_type=zipfile.ZIP_DEFLATED)
    return target


def source_date_epoch() -> str:
    try:
        return subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%ct"], check=True,
                              capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "315532800"


def kernel_wheels(lock: dict, offline: bool, out: Path) -> list[Path]:
    """The kernel's own wheels (piplite, pyodide_kernel, its ipykernel stand-in), from its wheel."""
    (entry,) = [e for e in lock["build"] if e["name"] == "jupyterlite-pyodide-kernel"]
    found = []
    with zipfile.ZipFile(fetch("build", entry, offline)) as archive:
        for member in archive.namelist():
            name = member.rsplit("/", 1)[-1]
            if "/static/pypi/" in member and name.endswith(".whl") and name.startswith(KERNEL_WHEELS):
                (out / name).write_bytes(archive.read(member))
                found.append(out / name)
    if len(found) != 4:
        raise SystemExit(f"expected 4 wheels in the kernel's wheel, found {[p.name for p in found]}")
    return found


#: What the kernel 0.7.0 installs at start that the site leaves out, with why: ``sqlite3`` is in
#: Pyodide 314's standard library (the kernel was written for Pyodide 0.27, where it was a
#: package); jedi is left out (see BROWSER_SKIP). The kernel skips its start-up install of a
#: package Pyodide loads, so each gets an empty marker wheel (its metadata only, no module).
KERNEL_START_MARKERS = {
    "sqlite3": "sqlite3 is in Pyodide's standard library; this marks it as present",
    "jedi": "no jedi in this site (tab completion); this only stops the kernel installing it",
}


def slim_wheel(source: Path, target: Path, drop) -> Path:
    """``source`` rewritten at ``target`` without the members ``drop`` picks (and their lines in
    RECORD), byte for byte the same for the same input; fails if ``drop`` picks nothing, which
    would mean the wheel's layout changed under the rule."""
    kept = dropped = 0
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            if drop(info.filename):
                dropped += 1
                continue
            data = old.read(info)
            if info.filename.endswith(".dist-info/RECORD"):
                data = "".join(line for line in data.decode().splitlines(keepends=True)
                               if not drop(line.rsplit(",", 2)[0])).encode()
            new.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)
            kept += 1
    if not dropped:
        raise SystemExit(f"{source.name}: nothing to leave out (see SLIM in tools/site/build.py)")
    log(f"{target.name}: {kept} files kept, {dropped} left out, "
        f"{source.stat().st_size / 1e6:.1f} → {target.stat().st_size / 1e6:.1f} MB")
    return target


def browser_wheel(entry: dict, offline: bool, out: Path) -> Path:
    """A browser wheel from the lock, in ``out``: as downloaded, or slimmed (``SLIM``)."""
    source = fetch("browser", entry, offline)
    if entry["name"] in SLIM:
        return slim_wheel(source, out / entry["file"], SLIM[entry["name"]])
    return Path(shutil.copy2(source, out / entry["file"]))


def plain_wheel(out: Path, name: str, version: str, summary: str, files: dict[str, bytes] | None = None) -> Path:
    """A wheel named ``name`` of ``files`` (name in the wheel → content; none: an empty wheel,
    its metadata only), reproducible byte for byte."""
    info = f"{name}-{version}.dist-info"
    members = {**(files or {}),
               f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\nSummary: {summary}\n",
               f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: tools/site/build.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    members[f"{info}/RECORD"] = "".join(f"{n},,\n" for n in members) + f"{info}/RECORD,,\n"
    path = out / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for member, data in members.items():
            archive.writestr(zipfile.ZipInfo(member, (1980, 1, 1, 0, 0, 0)), data)
    return path


#: Where the archives' modules live in Pyodide (named in tracebacks of the compiled modules).
INSTALLED_AT = {"python_stdlib.zip": "/lib/python314.zip"}
SITE_PACKAGES = f"/lib/python{PYODIDE_PYTHON}/site-packages"


#: What a page runs as it opens, for ``to_bytecode``: piplite's settings and the kernel's imports
#: (the kernel itself cannot start outside a browser), then each notebook's code.
KERNEL_IMPORTS = ("pyodide_kernel", "ipykernel", "IPython", "comm", "ipywidgets", "anywidget")


def start_code(notebooks: list[Path], imports: tuple[str, ...] = KERNEL_IMPORTS) -> str:
    """The code the site's pages run as they open (``KERNEL_IMPORTS``, then each notebook's code
    cells, followed by ``__page__(its name)``: ``bytecode.imported_at_start``), each part on its
    own. A part that raises stops the build, named: its page would fail in a reader's browser the
    same way (``PageFails``)."""
    kernel = "pyodide_kernel" in imports
    parts = [("piplite's settings", patches.piplite_settings("True", "[]"), "")] if kernel else []  # as the kernel gives them
    parts += [(f"import {name}", f"import {name}", "") for name in imports]
    if kernel:  # the page's side of the widgets' comms, which Node has not
        parts.append(("the page's comms", PAGE_COMMS, ""))
    for notebook in notebooks:
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        parts.append((notebook.name, "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code"),
                      f"__page__({notebook.name!r})\n"))
    return "import sys\n" + "\n".join(
        f"try:\n    exec({code!r}, {{}})\nexcept Exception as err:\n"
        f"    print({PAGE_FAILS!r} + {label!r} + ': ' + repr(err), file=sys.__stderr__, flush=True)\n    raise\n{then}"
        for label, code, then in parts)


#: In a browser the page sends the kernel's comm messages (widgets); in the start run they go
#: nowhere, once the widgets have been serialized as for a page.
PAGE_COMMS = "from IPython.core.getipython import get_ipython\nget_ipython().send_comm = lambda *message: None"

#: How the start run names a part that failed (``start_code``, ``to_bytecode``).
PAGE_FAILS = "fails in the site's Pyodide: "


class PageFails(SystemExit):
    """A page's code (or the kernel's imports) raised in the site's own Pyodide."""


@contextlib.contextmanager
def node_runtime(pyodide_tarball: Path) -> Iterator[str]:
    """A folder with the runtime as published (``pyodide_tarball``, the npm package), for Node."""
    with tempfile.TemporaryDirectory(dir=WORK) as tool:
        with tarfile.open(pyodide_tarball) as tar:
            for name in [*PYODIDE_FILES, "pyodide.mjs", "pyodide-lock.json"]:
                Path(tool, name).write_bytes(tar.extractfile(f"package/{name}").read())
        yield tool


def to_bytecode(pyodide_tarball: Path, folder: Path, archives: list[Path], notebooks: list[Path],
                imports: tuple[str, ...] = KERNEL_IMPORTS, defer: bool = False,
                pack: bool = False, by_page: Path | None = None) -> dict[str, list]:
    """The modules of ``archives`` (in ``folder``) that the pages import as they open replaced by
    their bytecode, compiled by the site's own Pyodide run in Node (``bytecode.mjs``,
    ``bytecode.py``): a reader's browser then imports them without compiling. Measured in Node on
    this machine: the runtime's start 2.6 → 0.8 s, importing IPython 3.1 → 0.5 s and the
    workbook 1.7 → 0.4 s; in Chromium, a dashboard's first interactive 14.8 → 7.6 s.

    With ``defer``, the modules that run did not import leave their archives for
    ``folder/deferred/<archive>.zip``; returns their index (module → archive, file, package),
    for ``add_start_modules``. With ``pack``, each wheel is written as ``packed(wheel)`` in
    its place (the wheel is removed).

    With ``by_page`` (one of ``archives``, and ``defer``), that archive keeps only the modules
    every page imports as it opens; each page's other modules become its own package beside it
    (``page_packages``), and wait in the deferred zip for any other page (``bytecode.py``,
    ``compile_archive``)."""
    with node_runtime(pyodide_tarball) as tool:
        compiled = folder / "bytecode"
        compiled.mkdir()
        if defer:
            (folder / "deferred").mkdir()
        jobs = folder / "bytecode" / "jobs.json"
        jobs.write_text(json.dumps({
            "site_packages": SITE_PACKAGES, "start": start_code(notebooks, imports), "pack": pack,
            "split": [*wheel_imports(by_page), rules.PACKAGE] if by_page else [],
            "archives": [[a.name, f"bytecode/{(packed(a) if pack else a).name}", INSTALLED_AT.get(a.name, SITE_PACKAGES),
                          f"deferred/{deferred_name(a)}" if defer else None, a == by_page] for a in archives]}))
        done = run("node", HERE / "bytecode.mjs", tool, folder, "bytecode/jobs.json",
                   check=False, stderr=subprocess.PIPE, text=True)
        if done.returncode:
            failed = [line for line in done.stderr.splitlines() if PAGE_FAILS in line]
            raise PageFails(failed[0] if failed else done.stderr[-3000:])
        jobs.unlink()
        for archive in archives:
            shipped = packed(archive) if pack else archive
            (compiled / shipped.name).replace(shipped)
            if shipped != archive:
                archive.unlink()
        for own in compiled.iterdir():  # the pages' own packages (by_page)
            own.replace(folder / own.name)
        compiled.rmdir()
    return deferred_index(folder / "deferred") if defer else {}


#: What a wheel becomes on the site: a tar compressed by zstd as one stream (``bytecode.py``,
#: ``_Packed``), about a third smaller than the wheel (measured on the site's wheels: 7.2 → 5.0
#: MB; Pyodide's loader installing them all, in Node: 0.30–0.40 → 0.45–0.50 s). It is named
#: ``.tar``: Pyodide's package loader picks the kind of archive by the name's last suffix and
#: knows no ``.zst`` (it stops on one), while Python's ``tarfile``, which unpacks it, reads the
#: compression from the content.
PACKED_SUFFIX = ".tar"


def page_packages(project: Path, pages: list[Path]) -> dict[str, Path]:
    """Each page's own package of ``project``'s modules (``to_bytecode`` with ``by_page``), by
    the page's notebook name: a page whose modules are all in ``project`` has none."""
    own = {page.name: Path(page_archive(str(project), page.name)) for page in pages}
    return {page: path for page, path in own.items() if path.exists()}


def packed(wheel: Path) -> Path:
    """Where ``wheel`` is shipped once packed (``plotly-7.1.0-py3-none-any.tar``); any
    other archive (the standard library's zip, which Pyodide itself opens) stays as it is."""
    return wheel.with_name(wheel.name.removesuffix(".whl") + PACKED_SUFFIX) if wheel.suffix == ".whl" else wheel


def deferred_name(archive: Path) -> str:
    """The name of the zip holding ``archive``'s deferred modules."""
    return archive.name.split("-")[0].removesuffix(".zip").removesuffix(".whl") + ".zip"


def deferred_index(folder: Path) -> dict[str, list]:
    """Each deferred module (``folder``'s zips) → [its zip, its file, whether a package]; an
    archive with nothing deferred leaves no zip."""
    index: dict[str, list] = {}
    for rest in sorted(folder.glob("*.zip")):
        with zipfile.ZipFile(rest) as archive:
            members = [n for n in archive.namelist() if n.endswith(".py")]
        if not members:
            rest.unlink()
            continue
        for member in members:
            parts = member.removesuffix(".py").split("/")
            package = parts[-1] == "__init__"
            name = parts[:-1] if package else parts
            if name and all(p.isidentifier() for p in name):
                index[".".join(name)] = [rest.name, member, package]
    return index


#: The standard library's zip is on the path before any package: the finder goes there, and
#: the packages' unpacker (``tools/site/fast_unpack.py``).
DEFERRED_FINDER = "_dodge_deferred"
UNPACKER = "_dodge_unpack"


def add_start_modules(stdlib: Path, index: dict[str, list]) -> None:
    """The finder of ``tools/site/deferred_imports.py`` with ``index``, and the unpacker of
    ``tools/site/fast_unpack.py``, added to the standard library's zip, with a
    ``sitecustomize`` that imports both as Python starts (before any package is loaded)."""
    files = {f"{DEFERRED_FINDER}/__init__.py": (HERE / "deferred_imports.py").read_bytes(),
             f"{DEFERRED_FINDER}/index.json": json.dumps(index, sort_keys=True, separators=(",", ":")).encode(),
             f"{UNPACKER}.py": (HERE / "fast_unpack.py").read_bytes(),
             "sitecustomize.py": f"import {DEFERRED_FINDER}\nimport {UNPACKER}\n".encode()}
    with zipfile.ZipFile(stdlib, "a", zipfile.ZIP_DEFLATED) as archive:
        if set(files) & set(archive.namelist()):
            raise SystemExit(f"{stdlib.name} already has {sorted(set(files) & set(archive.namelist()))}")
        for name, data in files.items():
            archive.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data, compress_type=zipfile.ZIP_DEFLATED)


#: **The standard library as one zstd stream.** Pyodide fetches its standard library as one zip
#: (the modules a page imports, as bytecode) and reads it where it is put, with ``zipimport``.
#: Compressed member by member, as a zip is, it was 1.77 MB of a first open; its members stored
#: and the whole compressed by zstd as one stream, 1.28 MB. The site ships that
#: (``python_stdlib.zip.zst``), and its ``pyodide.js`` decodes it with fzstd (a zstd decoder in
#: JavaScript, 24 kB; no browser decodes zstd in ``DecompressionStream``) before writing the zip
#: where Pyodide reads it: ``patches.patch_pyodide_stdlib``. Decoding took 30–50 ms in Node.
STDLIB_PACKED = "python_stdlib.zip.zst"
#: fzstd's decoder (npm package, its file), beside the runtime's files as
#: ``patches.ZSTD_DECODER_FILE``, where the patched ``pyodide.js`` imports it.
ZSTD_DECODER = ("fzstd", "package/esm/index.mjs")


def pack_stdlib(pyodide_tarball: Path, stdlib: Path) -> Path:
    """``stdlib`` (the standard library's zip) replaced by ``STDLIB_PACKED`` beside it: the same
    members, stored, compressed by zstd as one stream by the runtime's own Python (the build's
    may have no ``compression.zstd``: ``zstd.mjs``)."""
    stored = stdlib.with_name(stdlib.name + ".stored")
    with zipfile.ZipFile(stdlib) as source, zipfile.ZipFile(stored, "w", zipfile.ZIP_STORED) as target:
        for info in source.infolist():
            member = zipfile.ZipInfo(info.filename, info.date_time)
            member.external_attr = info.external_attr
            target.writestr(member, source.read(info))
    packed_stdlib = stdlib.with_name(STDLIB_PACKED)
    with node_runtime(pyodide_tarball) as tool:
        run("node", HERE / "zstd.mjs", tool, stored, packed_stdlib, str(ZSTD_LEVEL))
    stored.unlink()
    stdlib.unlink()
    return packed_stdlib


def wheel_imports(path: Path) -> list[str]:
    with zipfile.ZipFile(path) as archive:
        tops = {n.split("/")[0] for n in archive.namelist()}
    return sorted(t.removesuffix(".py") for t in tops
                  if not t.endswith((".dist-info", ".data")) and (t.isidentifier() or t.endswith(".py")))


def pyodide_lock(runtime_lock: dict, shipped: dict[Path, list[str]]) -> dict:
    """Pyodide's lock file listing exactly the packages the site ships (none from Pyodide's
    CDN): each file with the top-level modules it provides."""
    packages = {}
    for path, imports in shipped.items():
        name, version = wheel_name_version(path.name)
        packages[name] = {"name": name, "version": version, "file_name": path.name,
                          "install_dir": "site", "sha256": sha256(path), "package_type": "package",
                          "imports": imports, "depends": [], "unvendored_tests": False}
    return {"info": runtime_lock["info"], "packages": dict(sorted(packages.items()))}


def stage_notebooks(stage: Path, published: list[rules.Published] = ()) -> list[Path]:
    """The notebooks, as they are (stored without outputs), in the folder Voici reads, and a page
    of each designer's rule (``rules.notebooks``; the page of games then loads the rules)."""
    stage.mkdir(parents=True)
    for name in NOTEBOOKS:
        shutil.copy2(ROOT / "notebooks" / name, stage / name)
    if published:
        for name, text in rules.notebooks(published).items():
            (stage / name).write_text(text, encoding="utf-8")
        games = stage / "compare-systems.ipynb"
        with rules.with_rules_loaded(published):
            from workbook.pages.catalog import games_title, systems_with_evasion

            title = games_title(len(systems_with_evasion()))
        games.write_text(rules.with_games_loaded(games.read_text(encoding="utf-8"), title), encoding="utf-8")
    return [stage / name for name in [*NOTEBOOKS, *rules.notebooks(published)]]


def rules_wheel(out: Path, published: list[rules.Published]) -> Path:
    """The designers' rule files as the package ``dodge_site_rules`` (``rules.package_files``)."""
    return plain_wheel(out, rules.PACKAGE, "1", "the designers' rules of this site", rules.package_files(published))



def kernel_settings(packages: list[str]) -> dict:
    """The Pyodide kernel's settings: the site's runtime and lock, every package loaded at start
    (and each one the kernel looks for, by the name it looks for)."""
    canonical = {normalize(name) for name in packages}
    missing = [name for name in json.loads(patches.KERNEL_PACKAGES) if normalize(name) not in canonical]
    if missing:
        raise SystemExit(f"the kernel looks for packages the site lacks: {missing}")
    packages = sorted({*packages, *json.loads(patches.KERNEL_PACKAGES)})
    return {"pyodideUrl": "./pyodide/pyodide.js",
            "disablePyPIFallback": True,
            "loadPyodideOptions": {"lockFileURL": "pyodide/pyodide-lock.json", "packages": packages}}


def write_lite_config(lite_dir: Path, packages: list[str]) -> None:
    """The lite folder's jupyter-lite.json, which ``voici build`` writes into every page it renders."""
    settings = {"@jupyterlite/pyodide-kernel-extension:kernel": kernel_settings(packages)}
    (lite_dir / "jupyter-lite.json").write_text(json.dumps(
        {"jupyter-lite-schema-version": 0, "jupyter-config-data": {"litePluginSettings": settings}}, indent=2))


INDEX_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dodge Workbook</title>
<style>body {{ font-family: system-ui, sans-serif; margin: 0 auto; padding: 16px; max-width: 1400px;
  color: #1a1a1a; }} h1 {{ margin: 0 0 4px; }} p {{ line-height: 1.4; }}</style>
</head><body>
<h1>Dodge Workbook</h1>
<p>What a dodge is really worth, in four games and a few lessons. Every page runs in your browser:
nothing is sent anywhere, and a link copied from a page opens the same scenario for whoever you
send it to. The first page takes a few seconds to start its Python.</p>
{cards}{rules}
<p>To write a rule of your own, open <a href="lab/">the lab</a>: JupyterLab in your browser, with
the workbook installed and the notebook <i>Design your own rule</i> (a larger download, once).</p>
</body></html>
"""


def index_page(published: list[rules.Published] = ()) -> str:
    """The site's front page: the index notebook's cards of the site's pages, a designer's rule
    beside the four games, written here (a static page: no Python starts until a reader opens
    a dashboard); then each rule's own file."""
    with tempfile.TemporaryDirectory() as tmp, rules.with_rules_loaded(published):
        from workbook.pages.catalog import index

        folder = Path(tmp)
        for path in (ROOT / "notebooks").iterdir():
            shutil.copy2(path, folder / path.name)
        pages = [*NOTEBOOKS, *rules.notebooks(published)]
        for name, text in rules.notebooks(published).items():
            (folder / name).write_text(text, encoding="utf-8")
        cards = index(folder, link=lambda name: PAGES + name.removesuffix(".ipynb") + ".html" if name in pages else None)
    files = "".join(f'<li><a class="wb-rule-file" href="{html.escape(rules.FOLDER + "/" + p.path.name, quote=True)}" '
                    f'download>{html.escape(p.path.name)}</a>: {html.escape(", ".join(name for _, name in p.rules))}</li>'
                    for p in published)
    said = (f"<p>The house rules on this site, each a Python file (open it in the workbook with "
            f"<code>--system-module</code>):</p><ul>{files}</ul>") if published else ""
    return INDEX_PAGE.format(cards=cards.value, rules=said)


STAMP = SITE / ".inputs-sha256"


def inputs_digest(extra_wheels: list[Path] = (), rule_files: list[Path] = ()) -> str:
    """A digest of everything the site is built from: this script, the lock, the project's
    packages and notebooks as they are in the work tree, any extra wheel and each designer's
    rule file."""
    digest = hashlib.sha256()
    files = [Path(__file__).resolve(), *(HERE / name for name in ("patches.py", "rules.py", "bytecode.py",
                                                                  "bytecode.mjs", "zstd.mjs", "deferred_imports.py",
                                                                  "fast_unpack.py")),
             LOCK, ROOT / "pyproject.toml", *LAB_INPUTS, *map(Path, extra_wheels), *map(Path, rule_files)]
    files += sorted(p for d in ("rules_core", "workbook") for p in (ROOT / d).rglob("*")
                    if p.is_file() and "__pycache__" not in p.parts)
    files += [ROOT / "notebooks" / n for n in NOTEBOOKS]
    for path in files:
        digest.update(str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name).encode())
        digest.update(sha256(path).encode())
    return digest.hexdigest()


def build(offline: bool, extra_wheels: list[Path] = (), published: list[rules.Published] = ()) -> None:
    started = time.monotonic()
    lock = json.loads(LOCK.read_text())
    want = inputs_digest(extra_wheels, [p.path for p in published])
    ensure_build_venv(lock, offline)
    prefetch("browser", lock["browser"], offline)
    prefetch("npm", lock["npm"], offline)
    if SITE.exists():
        shutil.rmtree(SITE)
    with tempfile.TemporaryDirectory(dir=WORK) as tmp:
        tmp = Path(tmp)
        runtime = tmp / "pyodide"
        runtime.mkdir()
        (npm,) = [e for e in lock["npm"] if e["name"] == "pyodide"]
        with tarfile.open(fetch("npm", npm, offline)) as tar:
            for name in PYODIDE_FILES + ["pyodide-lock.json"]:
                data = tar.extractfile(f"package/{name}").read()
                if name == "pyodide.js":
                    data = patches.patch_pyodide_snapshot_memory(
                        patches.patch_pyodide_stdlib(patches.patch_pyodide_js(data.decode()))).encode()
                if name == "pyodide-lock.json":
                    runtime_lock = json.loads(data)
                    continue
                (runtime / name).write_bytes(data)
        wheels = [browser_wheel(e, offline, runtime) for e in lock["browser"]]
        project = project_wheel(runtime)
        wheels += kernel_wheels(lock, offline, runtime) + [project]
        wheels += [plain_wheel(runtime, name, "0+marker", why) for name, why in KERNEL_START_MARKERS.items()]
        wheels += [Path(shutil.copy2(w, runtime / Path(w).name)) for w in extra_wheels]
        wheels += [rules_wheel(runtime, published)] if published else []
        wheels = [patch_wheel(w) for w in wheels]
        imports = {wheel: wheel_imports(wheel) for wheel in wheels}
        lite = tmp / "lite"
        pages = stage_notebooks(lite / "notebooks", published)
        deferred = to_bytecode(fetch("npm", npm, offline), runtime, [*wheels, runtime / "python_stdlib.zip"],
                               pages, defer=True, pack=True, by_page=project)
        own = page_packages(packed(project), pages)
        add_start_modules(runtime / "python_stdlib.zip", deferred)
        pack_stdlib(fetch("npm", npm, offline), runtime / "python_stdlib.zip")
        (decoder,) = [e for e in lock["npm"] if e["name"] == ZSTD_DECODER[0]]
        with tarfile.open(fetch("npm", decoder, offline)) as tar:
            decoder_file = runtime / patches.ZSTD_DECODER_FILE
            decoder_file.write_bytes(tar.extractfile(ZSTD_DECODER[1]).read())
            decoder_file.with_suffix(".LICENSE").write_bytes(tar.extractfile("package/LICENSE").read())
        index = pyodide_lock(runtime_lock, {**{packed(wheel): tops for wheel, tops in imports.items()},
                                            **{path: [] for path in own.values()}})
        (runtime / "pyodide-lock.json").write_text(json.dumps(index, indent=1) + "\n")
        every_page = sorted(set(index["packages"]) - {wheel_name_version(p.name)[0] for p in own.values()})

        write_lite_config(lite, every_page)
        env = dict(os.environ, SOURCE_DATE_EPOCH=source_date_epoch())
        staged_build([VENV / "bin" / "voici", "build", "--contents", lite / "notebooks", "--no-sourcemaps",
                      "--source-date-epoch", env["SOURCE_DATE_EPOCH"]], SITE, lite, env)
        common = wheel_name_version(project.name)[0]
        for page, package in own.items():
            html_page = SITE / PAGES / f"{Path(page).stem}.html"
            text = patches.add_page_package(html_page.read_text(encoding="utf-8"), common, wheel_name_version(package.name)[0])
            html_page.write_text(text, encoding="utf-8")
        speed_up_the_kernels_start(SITE, plotly_path(lock, PLOTLY_BASIC_BUNDLE), patches.snapshot_packages(index, every_page))
        service_worker = SITE / patches.SERVICE_WORKER
        service_worker.write_text(patches.patch_service_worker(service_worker.read_text(encoding="utf-8")),
                                  encoding="utf-8")
        shutil.copytree(runtime, SITE / "pyodide")
        (SITE / "index.html").write_text(index_page(published), encoding="utf-8")
        for p in published:  # each rule's file as its designer wrote it, to read and download
            (SITE / rules.FOLDER).mkdir(exist_ok=True)
            shutil.copyfile(p.path, SITE / rules.FOLDER / p.path.name)
        for name, member, target in (PLOTLY_BUNDLE, PLOTLY_BASIC_BUNDLE):
            (entry,) = [e for e in lock["npm"] if e["name"] == name]
            with tarfile.open(fetch("npm", entry, offline)) as tar:
                (SITE / target).parent.mkdir(parents=True, exist_ok=True)
                (SITE / target).write_bytes(tar.extractfile(member).read())
        cartesian = PLOTLY_BUNDLE[2]  # the lab's charts load it (a lab page starts no plotly.js)
        add_lab(SITE, VENV / "bin" / "jupyter-lite", kernel_settings(every_page), SITE / cartesian,
                cartesian.removeprefix(PAGES), tmp / "lab", env)
    for page in sorted(SITE.glob(patches.DOC_TREE_PAGES)):  # the site's and the lab's
        page.write_text(patches.patch_doc_tree_redirect(page.read_text(encoding="utf-8"), str(page)), encoding="utf-8")
    keep_the_service_worker(SITE)
    keep_to_own_host(SITE)
    STAMP.write_text(want)
    size = sum(p.stat().st_size for p in SITE.rglob("*") if p.is_file())
    log(f"built {SITE.name}/ ({size / 1e6:.1f} MB) in {time.monotonic() - started:.0f} s;"
        f" serve it with: python -m http.server -d {SITE.name}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--offline", action="store_true", help="never download: the cache must hold every file")
    parser.add_argument("--update-lock", action="store_true", help="resolve the pins again and rewrite lock.json")
    parser.add_argument("--if-stale", action="store_true",
                        help="keep site/ if it was built from the same inputs (tools/site/, the project's sources)")
    parser.add_argument("--extra-wheel", action="append", default=[], type=Path, metavar="WHEEL",
                        help="also ship this wheel (an experiment; the site is then not the locked one)")
    parser.add_argument("--rule", action="append", default=[], type=Path, metavar="RULE_FILE",
                        help="a designer's rule file (as --system-module takes it), published as its own page")
    parser.add_argument("--out", type=Path, help="build this folder instead of site/")
    args = parser.parse_args(argv)
    if args.out:
        global SITE, STAMP
        SITE = args.out.resolve()
        STAMP = SITE / ".inputs-sha256"
    # a rule that fails is said at once, not after another build holding the lock
    published = rules.check(args.rule, {Path(n).stem for n in NOTEBOOKS} | {"index"}) if args.rule else []
    WORK.mkdir(exist_ok=True)
    with open(WORK / "lock", "w") as held:  # one build at a time (a test run and `make site`)
        fcntl.flock(held, fcntl.LOCK_EX)
        _main(args, published)


#: Sites built before, by their inputs' digest (``--if-stale``: a fresh clone of the same sources
#: takes its site from here instead of building it again; builds are byte-identical).
BUILT = CACHE / "built"
BUILT_KEPT = 3


def from_cache(digest: str) -> bool:
    """``site/`` restored from the site built before from the same inputs, if there is one."""
    archive = BUILT / f"{digest}.tar"
    if not archive.exists():
        return False
    if SITE.exists():
        shutil.rmtree(SITE)
    with tarfile.open(archive) as tar:
        tar.extractall(SITE, filter="data")
    STAMP.write_text(digest)
    os.utime(archive)  # the most recently used are kept
    return True


def to_cache(digest: str) -> None:
    """``site/`` kept for a later clone of the same inputs; only the ``BUILT_KEPT`` most recently
    used are kept."""
    BUILT.mkdir(parents=True, exist_ok=True)
    partial = BUILT / f"{digest}.tar.{os.getpid()}.part"
    with tarfile.open(partial, "w") as tar:
        for path in sorted(SITE.rglob("*")):
            if path.is_file() and path != STAMP:
                tar.add(path, path.relative_to(SITE).as_posix())
    partial.replace(BUILT / f"{digest}.tar")
    for old in sorted(BUILT.glob("*.tar"), key=lambda p: p.stat().st_mtime, reverse=True)[BUILT_KEPT:]:
        old.unlink()


def _main(args: argparse.Namespace, published: list[rules.Published]) -> None:
    if args.update_lock:
        update_lock()
    digest = inputs_digest(args.extra_wheel, args.rule)
    if args.if_stale and STAMP.exists() and STAMP.read_text() == digest:
        log(f"{SITE.name}/ is up to date")
        return
    if args.if_stale and not args.extra_wheel and from_cache(digest):
        log(f"{SITE.name}/ taken from the site built before from the same inputs ({BUILT})")
        return
    build(args.offline, args.extra_wheel, published)
    if not args.extra_wheel:
        to_cache(digest)


if __name__ == "__main__":
    main()
