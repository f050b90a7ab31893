"""The lab's build (``tools/site/lab.py``) without a browser: its kernel finds the site's own
runtime and lock from the lab's page, its notebooks ask for its one kernel, and the extensions
it leaves out are gone from its files and its settings. The lab in Chromium: test_lab.py."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from urllib.parse import urljoin

import pytest

from site_build import build, patches  # puts tools/site on the path, as when the build runs as a script
from lab import (LAB, LAB_KERNELSPEC, LAB_LEFT_OUT, LAB_NOTEBOOKS, lab_kernel_settings, lab_notebook, leave_out_extensions,
                 staged_build)

ROOT = Path(__file__).resolve().parents[2]
HOST = "https://example.org/any/path/"  # the site works under any path of any host


def test_the_labs_kernel_loads_the_runtime_and_lock_the_dashboards_load():
    dashboards = build.kernel_settings(["dodge-workbook", "pydantic", *json.loads(patches.KERNEL_PACKAGES)])
    lab = lab_kernel_settings(dashboards)
    # a dashboard's page reads them against its baseUrl, the site's root; the lab's kernel the
    # runtime against its page, the lock against the lab's root (the kernel's own rules)
    page = urljoin(HOST, f"{LAB}/lab/index.html")
    assert urljoin(page, lab["pyodideUrl"]) == urljoin(HOST, dashboards["pyodideUrl"]) == HOST + "pyodide/pyodide.js"
    assert (urljoin(HOST + LAB + "/", lab["loadPyodideOptions"]["lockFileURL"])
            == urljoin(HOST, dashboards["loadPyodideOptions"]["lockFileURL"]) == HOST + "pyodide/pyodide-lock.json")
    assert lab["loadPyodideOptions"]["packages"] == dashboards["loadPyodideOptions"]["packages"]
    assert lab["disablePyPIFallback"] is True
    assert dashboards["pyodideUrl"] == "./pyodide/pyodide.js"  # unchanged by the lab's


def test_the_labs_notebooks_ask_for_its_kernel_and_keep_their_cells():
    for name in LAB_NOTEBOOKS:
        text = (ROOT / "notebooks" / name).read_text(encoding="utf-8")
        stored, staged = json.loads(text), json.loads(lab_notebook(text))
        assert stored["metadata"]["kernelspec"]["name"] == "python3"
        assert staged["metadata"]["kernelspec"] == LAB_KERNELSPEC == {
            "name": "python", "display_name": "Python (Pyodide)", "language": "python"}
        assert staged["cells"] == stored["cells"]


def test_the_extensions_left_out_are_gone_and_a_missing_one_stops_the_build(tmp_path):
    kept = {"name": "anywidget", "extension": "./extension", "load": "static/remoteEntry.js"}
    extensions = [kept, *({"name": name, "extension": "./extension", "load": "static/r.js"} for name in LAB_LEFT_OUT)]
    (tmp_path / "jupyter-lite.json").write_text(json.dumps({"jupyter-config-data": {"federated_extensions": extensions}}))
    for entry in extensions:
        (tmp_path / "extensions" / entry["name"] / "static").mkdir(parents=True)
    leave_out_extensions(tmp_path)
    config = json.loads((tmp_path / "jupyter-lite.json").read_text())
    assert config["jupyter-config-data"]["federated_extensions"] == [kept]
    assert sorted(p.name for p in (tmp_path / "extensions").iterdir()) == ["anywidget"]  # no empty @scope left
    with pytest.raises(SystemExit, match=LAB_LEFT_OUT[0]):
        leave_out_extensions(tmp_path)


def test_the_lab_is_one_of_the_sites_inputs(tmp_path, monkeypatch):
    """A change to the lab's module, its rule file or one of its notebooks builds the site again
    (``--if-stale`` compares this digest)."""
    from lab import LAB_INPUTS, LAB_RULE

    assert {Path(build.__file__).parent / "lab.py", LAB_RULE, *(ROOT / "notebooks" / n for n in LAB_NOTEBOOKS)} \
        <= set(LAB_INPUTS)
    notebook = tmp_path / "design-a-rule.ipynb"
    notebook.write_text("{}")
    monkeypatch.setattr(build, "LAB_INPUTS", [notebook])
    before = build.inputs_digest()
    notebook.write_text('{"cells": []}')
    assert build.inputs_digest() != before


#: A stand-in for ``voici build`` / ``jupyter lite build`` given ``--source-date-epoch``: it builds
#: its output folder, then sets back the time of everything under that folder's *parent*, as
#: JupyterLite does; or fails as a build that cannot go on does.
_LITE_BUILD = """
import os, pathlib, sys
if "--fail" in sys.argv:
    print("TaskError - taskid:init:static:unpack")
    sys.exit(2)
out = pathlib.Path(sys.argv[sys.argv.index("--output-dir") + 1])
out.mkdir(parents=True)
(out / "index.html").write_text("built")
for path in [out.parent, *out.parent.rglob("*")]:
    os.utime(path, (315532800, 315532800))
"""


def test_a_lite_build_changes_nothing_beside_its_output_and_a_failed_one_says_so_in_a_line(tmp_path, capsys):
    """A designer's folder with their own file beside the site they build (``--out
    ~/my-site``): the build puts the site there and leaves the time of their file as it was; a
    build that fails stops with the tool's words and one line naming it."""
    home = tmp_path / "home"
    (home / "work").mkdir(parents=True)
    mine = home / "my_rule.py"
    mine.write_text("SYSTEM = ...\n")
    edited = mine.stat().st_mtime_ns
    tool = tmp_path / "lite_build.py"
    tool.write_text(_LITE_BUILD)
    staged_build([sys.executable, tool, "build"], home / "my-site", home / "work", dict(os.environ))
    assert (home / "my-site" / "index.html").read_text() == "built"
    assert mine.stat().st_mtime_ns == edited
    assert sorted(p.name for p in home.iterdir()) == ["my-site", "my_rule.py", "work"]  # no stage left
    with pytest.raises(SystemExit, match=r"lite_build\.py build failed \(exit 2\)"):
        staged_build([sys.executable, tool, "build", "--fail"], home / "other-site", home / "work", dict(os.environ))
    assert "TaskError" in capsys.readouterr().err
    assert not (home / "other-site").exists()
