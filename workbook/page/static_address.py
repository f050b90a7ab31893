"""Where the workbook's server serves plotly.js for the dashboards' charts, written once: the
charts (:func:`workbook.page.chart.plotly_url`) ask for it there and the server
(``server/voila_app.py``) serves it there and starts loading it in the page's head.

Two bundles of the same plotly.js: the page's head starts plotly's *basic* one (bar, pie and
scatter traces: every chart a dashboard shows as it opens; a browser evaluates it in half the
time of the cartesian one), and a chart whose figure has another trace type (a two-field
sweep's heatmap) loads the *cartesian* one when it is first drawn.

The standard library alone is imported here (plotly's version is read from its installed
metadata), so the server can import this without importing plotly, ipywidgets or the rest of
the workbook.
"""

from __future__ import annotations

from importlib import metadata

__all__ = ["STATIC_PREFIX", "PLOTLY_VERSION", "BASIC_FILE", "BASIC_TRACES", "plotly_path", "plotly_basic_path"]

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


#: The file name of plotly's basic bundle, served beside plotly.min.js.
BASIC_FILE = "plotly-basic.min.js"

#: The trace types plotly's basic bundle draws (its package's README: "scatter, bar and pie").
BASIC_TRACES = ("bar", "pie", "scatter")


def plotly_basic_path() -> str:
    """plotly's basic bundle's address relative to the server's base URL.

    >>> plotly_basic_path() == f"workbook/static/plotly-basic.min.js?v={PLOTLY_VERSION}"
    True
    """
    return f"{STATIC_PREFIX}{BASIC_FILE}?v={PLOTLY_VERSION}"
