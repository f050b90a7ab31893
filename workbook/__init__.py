"""workbook: interactive dashboards over the exact rules in :mod:`rules_core`.

The one place that knows about ipywidgets, plotly and pandas. Data flows one way:

    widgets (:mod:`workbook.controls`) → scenario → ``System.evaluate`` → exact ``Result``
    → tables, charts and trace (:mod:`workbook.views`) → the page (:mod:`workbook.app`).

:mod:`workbook.share` turns a scenario into a URL query and back; :mod:`workbook.catalog`
lists the dashboards for the index notebook. ``docs/workbook.md`` shows how a game system gets
its dashboard.
"""
