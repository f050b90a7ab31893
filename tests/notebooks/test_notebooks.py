"""Every notebook in notebooks/ runs from top to bottom in a fresh kernel started in that
folder (as Voilà starts it), and is stored without outputs, widget state and definitions (except the
notebook whose subject is writing a rule: there the designer's scenario and rule are the point)."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

FOLDER = Path(__file__).resolve().parents[2] / "notebooks"
NOTEBOOKS = sorted(FOLDER.glob("*.ipynb"))
#: Notebooks that define a rule of their own (a scenario class and its play function).
DESIGNING = {"design-a-rule.ipynb"}


def test_there_are_notebooks():
    assert {p.name for p in NOTEBOOKS} >= {"index.ipynb", "infinity-n4-dodge.ipynb"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_stored_thin(path):
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert not cell.outputs and cell.execution_count is None, "stored with outputs"
            if path.name not in DESIGNING:
                assert not any(line.lstrip().startswith(("def ", "class "))
                               for line in cell.source.splitlines())
    assert any(c.cell_type == "markdown" for c in nb.cells)
    # no dashboard's widget state saved with it (JupyterLab's "Save Widget State Automatically",
    # off for this project: tests/notebooks/test_widget_state.py)
    assert "widgets" not in nb.metadata, "stored with widget state"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path):
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(FOLDER)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert not [o for o in outputs if o.output_type == "stream" and o.name == "stderr"]
    # The last code cell shows a widget (a dashboard or the index).
    last = [c for c in nb.cells if c.cell_type == "code"][-1]
    assert "application/vnd.jupyter.widget-view+json" in last.outputs[-1].get("data", {})
