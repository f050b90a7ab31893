"""Reading a headless dashboard back as exact numbers, and checking it against the core.

For any system's headless dashboard test: ``from dashboard_checks import check_against_core``.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import ipywidgets as widgets

from workbook.app import Dashboard
from workbook.chart import Chart


def shown_table(dash: Dashboard) -> dict[str, Fraction]:
    """The outcome table as exact fractions, by the untranslated label, in display order."""
    return {row.key: Fraction(row.exact) for row in dash.tables["outcomes"].itertuples()}


def shown_headline(dash: Dashboard) -> dict[str, Fraction | None]:
    """The headline numbers as exact fractions (None where the core has none)."""
    return {row.key: None if row.exact is None else Fraction(row.exact)
            for row in dash.tables["headline"].itertuples()}


def shown_in(box: widgets.Widget) -> Any:
    """What the browser receives for a panel: the figure (plotly's JSON, as a dict) of the
    box's chart, or the HTML of its HTML widget."""
    (shown,) = box.children if not isinstance(box, Chart) else (box,)
    return json.loads(shown.figure) if isinstance(shown, Chart) else shown.value


def chart_y(dash: Dashboard, name: str) -> list[float]:
    """What the browser receives for a chart (``"outcome"`` or ``"at_least"``): the y values
    of the figure its chart holds."""
    box = {"outcome": dash._outcome_chart, "at_least": dash._at_least_chart}[name]
    return shown_in(box)["data"][0]["y"]


def check_against_core(dash: Dashboard) -> None:
    """Every panel shows the numbers the core computes for the scenario on the page: the
    table (rows and order), the headline (also in the page's HTML), and both charts."""
    core = dash.system.evaluate(dash.scenario)
    assert list(shown_table(dash).items()) == list(core.outcome_rows())
    assert shown_headline(dash) == dict(core.headline)
    for key, value in core.headline.items():
        if value is not None:
            assert f'data-key="{key}"' in dash._headline.value
            assert f">{value.numerator}/{value.denominator}<" in dash._headline.value
    first = core.outcome_rows()[0][1]
    assert f">{first.numerator}/{first.denominator}<" in dash._table.value
    assert chart_y(dash, "outcome") == [float(p) for _, p in core.outcome_rows()]
    assert chart_y(dash, "at_least") == [float(p) for _, p in core.p_at_least_hits()]
