"""Where the workbook's server serves plotly.js for the dashboards' charts, written once: the
charts (:func:`workbook.page.chart.plotly_url`) ask for it there and the server
(``server/voila_app.py``) serves it there and starts loading it in the page's head.

The standard library alone is imported here (plotly's version is read from its installed
metadata), so the server can import this without importing plotly, ipywidgets or the rest of
the workbook.
"""

from __future__ import annotations

from importlib import metadata

__all__ = ["STATIC_PREFIX", "PLOTLY_VERSION", "plotly_path"]

#: The folder, under the server's base URL, where the server serves plotly.js.
STATIC_PREFIX = "workbook/static/"

#: plotly.py's version: the address carries it, so that browsers keep plotly.js cached until
#: plotly changes.
PLOTLY_VERSION = metadata.version("plotly")


def plotly_path() -> str:
    """plotly.js's address relative to the server's base URL.

    >>> plotly_path() == f"workbook/static/plotly.min.js?v={PLOTLY_VERSION}"
    True
    """
    return f"{STATIC_PREFIX}plotly.min.js?v={PLOTLY_VERSION}"
