"""``tools/fetch_plotly.py`` (run by ``make run`` and ``make test``): plotly's basic and cartesian
bundles are each installed only when its tarball matches its integrity and holds the plotly.js
version asked for; without network the dashboards keep plotly.py's whole plotly.js."""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import io
import json
import os
import sys
import tarfile
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "fetch_plotly.py"


@pytest.fixture(scope="module")
def tool():
    spec = importlib.util.spec_from_file_location("fetch_plotly_under_test", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def server(tool):
    saved = os.environ.get("JUPYTER_PATH")  # the server module puts its template folder first
    try:
        yield tool._server()
    finally:
        sys.modules.pop("workbook_server", None)
        if saved is None:
            os.environ.pop("JUPYTER_PATH", None)
        else:
            os.environ["JUPYTER_PATH"] = saved


KINDS = ["basic", "cartesian"]


def _tarball(kind: str, version: str) -> bytes:
    body = f"/**\n* plotly.js ({kind} - minified) v{version}\n*/\nwindow.Plotly = {{}};\n".encode()
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as archive:
        info = tarfile.TarInfo(f"package/plotly-{kind}.min.js")
        info.size = len(body)
        archive.addfile(info, io.BytesIO(body))
    return out.getvalue()


def _registry(monkeypatch, tool, kind: str, version: str, tarball: bytes, integrity_of: bytes | None = None):
    digest = base64.b64encode(hashlib.sha512(integrity_of or tarball).digest()).decode()
    meta = {"dist": {"tarball": "https://registry.example/x.tgz", "integrity": f"sha512-{digest}"}}
    served = {f"{tool.REGISTRY}/{tool.BUNDLES[kind][0]}/{version}": json.dumps(meta).encode(),
              "https://registry.example/x.tgz": tarball}
    monkeypatch.setattr(tool, "_get", lambda url, tries=3: served[url])


@pytest.mark.parametrize("kind", KINDS)
def test_a_bundle_that_matches_its_integrity_and_version_is_taken(monkeypatch, tool, server, kind):
    _registry(monkeypatch, tool, kind, "9.9.9", _tarball(kind, "9.9.9"))
    assert f"plotly.js ({kind} - minified) v9.9.9".encode() in tool.fetch(kind, "9.9.9", server)


@pytest.mark.parametrize("kind", KINDS)
def test_a_tampered_tarball_is_refused(monkeypatch, tool, server, kind):
    _registry(monkeypatch, tool, kind, "9.9.9", _tarball(kind, "9.9.9"), integrity_of=b"what the registry signed")
    with pytest.raises(SystemExit, match="does not match its integrity"):
        tool.fetch(kind, "9.9.9", server)


@pytest.mark.parametrize("kind", KINDS)
def test_a_bundle_of_another_plotly_js_version_is_refused(monkeypatch, tool, server, kind):
    _registry(monkeypatch, tool, kind, "9.9.9", _tarball(kind, "9.9.8"))
    with pytest.raises(SystemExit, match="another plotly.js version"):
        tool.fetch(kind, "9.9.9", server)


@pytest.mark.parametrize("kind", KINDS)
def test_the_pinned_integrity_wins_over_the_registrys(monkeypatch, tool, server, kind):
    version = next(iter(tool.BUNDLES[kind][2]))
    _registry(monkeypatch, tool, kind, version, _tarball(kind, version))  # the registry "vouches" for a fake
    with pytest.raises(SystemExit, match="does not match its integrity"):
        tool.fetch(kind, version, server)


def test_without_network_nothing_is_installed_and_the_install_goes_on(monkeypatch, tool, server, tmp_path, capsys):
    def offline(url, tries=3):
        raise OSError("no route to host")

    monkeypatch.setattr(tool, "_get", offline)
    assert tool.main(["--prefix", str(tmp_path)]) == 0
    assert "could not fetch" in capsys.readouterr().err
    assert not any(tmp_path.rglob("*.js"))
