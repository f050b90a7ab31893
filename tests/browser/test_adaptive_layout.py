"""The dashboard follows the width it is given, not the window's: in JupyterLab the notebook
area is narrower than the window (the file browser open), so the numbers sit beside the
controls only where the dashboard itself has room, and above them where it has not."""

from __future__ import annotations

import pytest

from .test_layout_browser import LAPTOP, _CARDS_DRAWN, box

pytestmark = pytest.mark.browser


def _beside(dash) -> bool:
    results, controls = box(dash, ".wb-results"), box(dash, ".wb-controls")
    if abs(results["top"] - controls["top"]) < 40 and results["left"] != controls["left"]:
        return True
    assert results["bottom"] <= controls["top"] + 1, (results, controls)  # the numbers first
    return False


def test_numbers_beside_the_controls_only_where_the_dashboard_has_room(open_dashboard):
    dash = open_dashboard("gurps-4e.ipynb", width=LAPTOP[0], height=LAPTOP[1])
    dash.page.wait_for_function(_CARDS_DRAWN, timeout=20_000)
    assert _beside(dash)
    # The same window, the dashboard squeezed into 640 px as a notebook area would hold it.
    dash.page.evaluate("document.querySelector('.wb-dashboard').style.width = '640px'")
    dash.page.wait_for_function(
        "() => document.querySelector('.wb-results').getBoundingClientRect().bottom"
        " <= document.querySelector('.wb-controls').getBoundingClientRect().top + 1", timeout=10_000)
    assert not _beside(dash)
    assert box(dash, ".wb-dashboard")["width"] <= 640
    dash.page.evaluate("document.querySelector('.wb-dashboard').style.width = ''")
    dash.page.wait_for_function(
        "() => Math.abs(document.querySelector('.wb-results').getBoundingClientRect().top"
        " - document.querySelector('.wb-controls').getBoundingClientRect().top) < 40", timeout=10_000)
    assert _beside(dash)
