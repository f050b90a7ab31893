"""The index page served by `voila notebooks/` links to every dashboard notebook."""

from __future__ import annotations

import pytest

from .conftest import NOTEBOOKS
from workbook.pages.catalog import dashboards

pytestmark = pytest.mark.browser


def test_index_links_to_every_dashboard(open_dashboard, voila_server):
    page = open_dashboard("index.ipynb", ready="() => Boolean(document.querySelector('.wb-index a'))")
    links = page.page.eval_on_selector_all(".wb-index a", "links => links.map(a => a.href)")
    expected = [f"{voila_server.url}voila/render/{e.notebook}" for e in dashboards(NOTEBOOKS)]
    assert links == expected
    assert f"{voila_server.url}voila/render/infinity-n4-dodge.ipynb" in links
    assert page.python_errors() == [] and page.console_errors() == []
