"""Inside JupyterLab the share link opens the notebook as a Voilà dashboard on the same Jupyter
server (its Voilà extension serves ``/voila/render/<path>``), never JupyterLab again; where that
address cannot be found there is no link rather than a wrong one. The Jupyter server is found as
Jupyter itself finds it: by its server file in the runtime folder (``jupyter_server``'s own
``list_running_servers`` reads the file written here)."""

from __future__ import annotations

import json
import os

import pytest

from workbook.pages.dashboard import Dashboard
from workbook.page.share import in_jupyter, jupyter_dashboard_url, page_url

URL = "http://127.0.0.1:18890/lab-base/"


@pytest.fixture
def lab(tmp_path, monkeypatch):
    """A kernel of a JupyterLab server rooted at ``tmp_path/root``; returns that root."""
    for name in ("SERVER_SOFTWARE", "VOILA_PREHEAT", "SERVER_NAME", "SCRIPT_NAME",
                 "VOILA_REQUEST_URL", "SERVER_PORT", "QUERY_STRING"):
        monkeypatch.delenv(name, raising=False)
    root = tmp_path / "root"
    (root / "notebooks").mkdir(parents=True)
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    # another server first, whose root does not hold the notebook, then the kernel's own one
    (runtime / "jpserver-1.json").write_text(json.dumps(
        {"pid": os.getppid(), "url": "http://127.0.0.1:9/", "root_dir": str(tmp_path / "elsewhere")}))
    (runtime / f"jpserver-{os.getpid()}.json").write_text(json.dumps(
        {"pid": os.getpid(), "url": URL, "root_dir": str(root)}))
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(runtime))
    monkeypatch.setenv("JPY_PARENT_PID", str(os.getpid()))
    monkeypatch.setenv("JPY_SESSION_NAME", str(root / "notebooks" / "infinity n4.ipynb"))
    jupyter_dashboard_url.cache_clear()
    yield root
    jupyter_dashboard_url.cache_clear()


def test_the_notebooks_dashboard_address_on_its_own_jupyter_server(lab):
    assert in_jupyter()
    assert page_url() == "http://127.0.0.1:18890/lab-base/voila/render/notebooks/infinity%20n4.ipynb"


def test_the_dashboard_in_jupyterlab_links_and_copies_the_voila_page_and_leaves_the_address_bar(lab):
    dash = Dashboard("infinity-n4", query="")
    dash.form.control("dodger.ph").value = 13
    voila = "http://127.0.0.1:18890/lab-base/voila/render/notebooks/infinity%20n4.ipynb?"
    assert dash.urlbar.follow is False
    assert dash.urlbar.link.startswith(voila) and "dodger.ph=13" in dash.urlbar.link
    assert f'href="{voila}' in dash._share.value and "dodger.ph=13" in dash._share.value


def test_no_link_when_the_notebook_lies_outside_every_server(lab, monkeypatch, tmp_path):
    monkeypatch.setenv("JPY_SESSION_NAME", str(tmp_path / "loose.ipynb"))
    jupyter_dashboard_url.cache_clear()
    assert page_url() == ""
    dash = Dashboard("infinity-n4", query="")
    assert dash._share.value == "" and dash.urlbar.link == ""


def test_a_dashboard_page_follows_its_address(monkeypatch):
    monkeypatch.setenv("SERVER_SOFTWARE", "voila/0.5")
    assert not in_jupyter()
    assert Dashboard("infinity-n4", query="").urlbar.follow is True
