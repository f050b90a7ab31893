"""The static site's build script (tools/site/build.py) without building: its runtime patch,
its lock and the wheels it writes itself."""

from __future__ import annotations

import importlib.util
import json
import re
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("site_build", ROOT / "tools" / "site" / "build.py")
build = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build)


def test_the_patch_removes_exactly_the_classic_worker_check():
    text = 'let s={...e};if(r&&ge())throw new Error("Classic web workers are not supported");let o=1;'
    assert build.patch_pyodide_js(text) == "let s={...e};let o=1;"


@pytest.mark.parametrize("text", ["no check here", build.CLASSIC_WORKER_CHECK * 2])
def test_the_patch_fails_loudly_when_the_runtime_changed(text):
    with pytest.raises(SystemExit, match="classic-worker check"):
        build.patch_pyodide_js(text)


def test_the_patch_fits_the_locked_runtime_when_it_is_cached():
    (entry,) = [e for e in json.loads(build.LOCK.read_text())["npm"] if e["name"] == "pyodide"]
    tarball = build.CACHE / "npm" / entry["file"]
    if not tarball.exists():
        pytest.skip("the locked pyodide tarball is not in the cache (make site fetches it)")
    with tarfile.open(tarball) as tar:
        text = tar.extractfile("package/pyodide.js").read().decode()
    patched = build.patch_pyodide_js(text)
    assert "Classic web workers are not supported" not in patched
    assert len(text) - len(patched) == len(build.CLASSIC_WORKER_CHECK)


def test_the_lock_pins_every_file_with_its_sha256():
    lock = json.loads(build.LOCK.read_text())
    names = {kind: {e["name"] for e in lock[kind]} for kind in ("build", "browser", "npm")}
    for kind in ("build", "browser", "npm"):
        for entry in lock[kind]:
            assert re.fullmatch(r"[0-9a-f]{64}", entry["sha256"]), entry
            assert entry["version"] in entry["file"], entry
    for pin in build.BUILD_PINS:
        assert build.normalize(pin.split("==")[0]) in names["build"]
    for pin in build.BROWSER_PINS:
        assert build.normalize(pin.split("==")[0]) in names["browser"]
    assert {p.split("@")[0] for p in build.NPM_PINS} == names["npm"]
    assert not names["browser"] & {"pandas", "numpy"}  # no browser wheels: issue 27
    assert not names["browser"] & build.BROWSER_SKIP


def test_a_marker_wheel_holds_only_its_metadata(tmp_path):
    wheel = build.marker_wheel(tmp_path, "sqlite3", "0+marker", "why")
    with zipfile.ZipFile(wheel) as archive:
        assert sorted(archive.namelist()) == ["sqlite3-0+marker.dist-info/METADATA",
                                              "sqlite3-0+marker.dist-info/RECORD",
                                              "sqlite3-0+marker.dist-info/WHEEL"]
    assert build.wheel_name_version(wheel.name) == ("sqlite3", "0+marker")
    (tmp_path / "again").mkdir()
    again = build.marker_wheel(tmp_path / "again", "sqlite3", "0+marker", "why")
    assert again.read_bytes() == wheel.read_bytes()  # reproducible
