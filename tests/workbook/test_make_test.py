"""``make test``'s order on a fresh machine (the Makefile's ``test`` target), read from ``make -n``
with a virtualenv that does not exist yet: what starts in the background starts only once what it
imports is installed, and Chromium's install starts before the virtualenv's."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: The steps looked for in the commands: the project's install, the site's build.
INSTALL = "pip install --quiet --no-compile -e '.[test]'"
SITE_BUILD = "tools/site/build.py --if-stale"


@pytest.fixture(scope="module")
def steps(tmp_path_factory) -> list[str]:
    """The commands ``make test`` runs on a machine without the virtualenv, in order."""
    venv = tmp_path_factory.mktemp("fresh") / "venv"
    done = subprocess.run(["make", "-n", "--no-print-directory", "test", f"VENV={venv}"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=True)
    assert not venv.exists()  # a dry run
    return done.stdout.splitlines()


def _first(steps: list[str], text: str) -> int:
    found = [i for i, step in enumerate(steps) if text in step]
    assert found, (text, steps)
    return found[0]


def test_the_sites_build_and_the_brotli_forms_start_once_the_project_is_installed(steps):
    """The site's build imports the workbook and the rules (``tools/site/build.py``), and the
    Brotli forms are made by the workbook's server: started before the project's install on a
    fresh machine, each would stop at once with a traceback in its log."""
    installed = _first(steps, INSTALL)
    assert _first(steps, SITE_BUILD) > installed
    assert _first(steps, "--precompress=True") > installed
    assert _first(steps, "-m pytest") > _first(steps, SITE_BUILD)


def test_chromiums_install_begins_before_the_virtualenvs_and_is_waited_for_before_the_tests(steps):
    begin = _first(steps, "ensure_chromium.py --begin")
    assert begin < _first(steps, INSTALL)
    assert begin < _first(steps, "ensure_chromium.py --wait") < _first(steps, "-m pytest")
