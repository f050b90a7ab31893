"""Saved notebooks do not carry the dashboards' widget state unless asked (issue 26, item 8).

A notebook saved in JupyterLab with one dashboard carried ~295 KB of widget state in its metadata
(``metadata.widgets``, ``application/vnd.jupyter.widget-state+json``) when "Save Widget State
Automatically" (the setting ``saveState`` of ``@jupyter-widgets/jupyterlab-manager:plugin``) was on.
The project ships its default off in ``server/jupyter/lab/overrides.d/dodge-workbook.json``, which
the Makefile installs where JupyterLab reads a package's defaults
(``<sys.prefix>/share/jupyter/lab/settings/overrides.d/``, jupyterlab_server's ``_get_overrides``);
a user who asks for widget state turns the setting on (Settings menu), which wins over a default.
These tests read the file with JupyterLab's own settings code."""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "server" / "jupyter" / "lab" / "overrides.d" / "dodge-workbook.json"
PLUGIN = "@jupyter-widgets/jupyterlab-manager:plugin"

settings_utils = pytest.importorskip("jupyterlab_server.settings_utils")


def _schemas_dir() -> Path:
    """Where the installed ipywidgets JupyterLab extension keeps its settings schema."""
    found = list(Path(sys.prefix, "share", "jupyter", "labextensions").glob(
        "@jupyter-widgets/jupyterlab-manager/schemas"))
    assert found, "ipywidgets' JupyterLab extension is not installed"
    return found[0]


def _composite(app_settings: Path, schemas: Path, user_settings: Path) -> tuple[bool, bool]:
    """(the setting in force, its default) as JupyterLab computes them from these folders: the
    user's own setting where there is one, else the schema's default with the overrides applied."""
    overrides, error = settings_utils._get_overrides(str(app_settings))
    assert not error, error
    found, _warnings = settings_utils.get_settings(str(app_settings), str(schemas), str(user_settings),
                                                   PLUGIN, overrides=overrides, labextensions_path=[])
    default = found["schema"]["properties"]["saveState"]["default"]
    return found["settings"].get("saveState", default), default


def test_the_shipped_default_is_off():
    assert json.loads(SHIPPED.read_text(encoding="utf-8")) == {PLUGIN: {"saveState": False}}
    schema = json.loads((_schemas_dir() / "@jupyter-widgets" / "jupyterlab-manager" / "plugin.json").read_text())
    assert "saveState" in schema["properties"]  # the setting exists under that name


def test_jupyterlab_reads_it_and_a_user_can_still_ask(tmp_path):
    # the extension's schema with saveState on by default (as some ipywidgets releases ship it,
    # and as the issue found it): the project's default must turn it off
    schemas = tmp_path / "schemas"
    shutil.copytree(_schemas_dir(), schemas)
    plugin = schemas / "@jupyter-widgets" / "jupyterlab-manager" / "plugin.json"
    schema = json.loads(plugin.read_text())
    schema["properties"]["saveState"]["default"] = True
    plugin.write_text(json.dumps(schema))
    app, user = tmp_path / "settings", tmp_path / "user-settings"
    app.mkdir()
    user.mkdir()
    assert _composite(app, schemas, user) == (True, True)  # without the project's file: saved
    (app / "overrides.d").mkdir()
    shutil.copy(SHIPPED, app / "overrides.d" / SHIPPED.name)
    assert _composite(app, schemas, user) == (False, False)  # with it: not saved
    # asking for it: the Settings menu's "Save Widget State Automatically" writes the user setting
    mine = user / "@jupyter-widgets" / "jupyterlab-manager"
    mine.mkdir(parents=True)
    (mine / "plugin.jupyterlab-settings").write_text('{"saveState": true}')
    assert _composite(app, schemas, user) == (True, False)


def test_the_makefile_installs_it_where_jupyterlab_reads_it():
    """The Makefile copies the file to <venv>/share/jupyter/lab/settings/overrides.d/, JupyterLab's
    app settings folder for that prefix, before `make lab`, `make install` and `make test`."""
    from jupyterlab.labapp import LabApp

    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    target = re.search(r"^LAB_OVERRIDES\s*:=\s*(\S+)", makefile, flags=re.M).group(1)
    assert target == "$(VENV)/share/jupyter/lab/settings/overrides.d/dodge-workbook.json"
    assert re.search(r"^\$\(LAB_OVERRIDES\):\s*server/jupyter/lab/overrides\.d/dodge-workbook\.json", makefile, flags=re.M)
    for goal in ("lab", "install", "test"):
        assert re.search(rf"^{goal}:[^\n]*\$\(LAB_OVERRIDES\)", makefile, flags=re.M), goal
    assert Path(LabApp().app_settings_dir).resolve() == Path(sys.prefix, "share", "jupyter", "lab", "settings").resolve()
    installed = Path(sys.prefix, "share", "jupyter", "lab", "settings", "overrides.d", SHIPPED.name)
    if installed.exists():  # this environment was set up by the Makefile
        assert installed.read_text(encoding="utf-8") == SHIPPED.read_text(encoding="utf-8")
