"""workbook: interactive dashboards over the exact rules in :mod:`rules_core`.

The one place that knows about ipywidgets, plotly and pandas. Data flows one way:

    widgets (:mod:`workbook.page.controls`) → scenario → ``System.evaluate`` → exact ``Result``
    → tables, charts and trace (:mod:`workbook.page.views`) → the page (:mod:`workbook.pages.dashboard`).

Its folders are its parts, and import one way only (``docs/workbook.md``): ``page/`` (what every
dashboard is made of) ← ``panels/`` (one module per panel, and their list) ← ``systems/`` (each
game's own views) ← ``pages/`` (what the notebooks show).

The pages never import pandas or numpy (they run in the browser, where neither has a wheel): their
tables are :class:`workbook.page.table.Table`. pandas is for a notebook: :mod:`workbook.explore`,
and the DataFrames of ``outcome_table``, ``headline_table``, ``compare_table`` and
``Table.to_frame()``, which import it when called. Where pandas has no wheel (the static site's
lab), a notebook shows a ``Table`` as it is: ``compare_grid`` is ``compare_table`` without pandas.

In a notebook, the names designers use are here (imported when first used, so that
``import workbook`` stays light)::

    from workbook import dashboard, explore, compare_table, outcome_chart
"""

from importlib import import_module
from typing import Any

#: Each public name and the module that defines it.
_PUBLIC = {"dashboard": "pages.notebook", "Dashboard": "pages.dashboard",
           "NotebookDashboard": "pages.notebook", "View": "page.views",
           "compare_table": "page.views", "compare_grid": "page.views", "Table": "page.table",
           "compare_chart": "page.views", "outcome_chart": "page.views",
           "at_least_chart": "page.views", "distribution_chart": "page.views",
           "distribution_views": "page.views", "PagePanel": "page.panel", "register_panel": "panels.registry"}
__all__ = sorted([*_PUBLIC, "explore"])


def __getattr__(name: str) -> Any:
    if name in _PUBLIC:
        module = import_module(f"{__name__}.{_PUBLIC[name]}")
        return getattr(module, "register" if name == "register_panel" else name)
    if name == "explore":
        return import_module(f"{__name__}.explore")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
