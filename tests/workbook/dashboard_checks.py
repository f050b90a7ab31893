"""Reading a headless dashboard back as exact numbers, and checking it against the core.

For any system's headless dashboard test: ``from dashboard_checks import check_against_core``.
"""

from __future__ import annotations

import html
import json
import re
from fractions import Fraction
from typing import Any

import ipywidgets as widgets

from workbook.pages.dashboard import Dashboard
from workbook.page.chart import Chart


def shown_table(dash: Dashboard) -> dict[str, Fraction]:
    """The outcome table as exact fractions, by the untranslated label, in display order."""
    return {row["key"]: Fraction(row["exact"]) for row in dash.tables["outcomes"].records()}


def shown_headline(dash: Dashboard) -> dict[str, Fraction | None]:
    """The headline numbers as exact fractions (None where the core has none)."""
    return {row["key"]: None if row["exact"] is None else Fraction(row["exact"])
            for row in dash.tables["headline"].records()}


def by_key(table: Any) -> dict[str, dict[str, Any]]:
    """The rows of a :class:`workbook.page.table.Table` with a ``key`` column, by their key."""
    return {row["key"]: row for row in table.records()}


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


def ab_cards(panel) -> dict[str, dict[str, Fraction | None]]:
    """An A/B panel's headline cards as shown (``panel`` is a ``ComparePanel``, or a derived
    panel holding one): ``{key: {"a": ..., "b": ..., "difference": ...}}``, read from each
    card's ``data-exact`` (None where the card shows none)."""
    compare = getattr(panel, "compare", panel)
    cards = {}
    for key, body in re.findall(r'<div class="wb-ab-card" data-key="([^"]+)"(.*?)</div></div>',
                                compare.cards.value):
        cards[key] = {side: Fraction(exact) if exact else None for side, exact in
                      re.findall(r'data-side="(a|b|difference)" data-exact="([^"]*)"', body)}
    return cards


def ab_table(panel) -> dict[tuple[str, str], dict[str, str]]:
    """An A/B panel's table as shown: ``{(kind, key): {column: text}}`` with the kinds
    ``headline`` and ``outcome`` and the columns ``name``, ``a``, ``b``, ``difference``,
    ``points``."""
    compare = getattr(panel, "compare", panel)
    rows = {}
    for kind, key, cells in re.findall(r'<tr data-kind="([a-z]+)" data-key="([^"]+)">(.*?)</tr>',
                                       compare.table.value):
        rows[(kind, html.unescape(key))] = {col: html.unescape(text) for col, text in
                                            re.findall(r'<td data-col="([a-z]+)"[^>]*>(.*?)</td>', cells)}
    return rows


def check_ab_against_core(panel, a, b) -> None:
    """The A/B panel shows scenario ``a`` against ``b`` exactly as the core evaluates them: every
    headline card and table row (A, B, B − A, and the percentage points of a probability), and
    every outcome's row; the chart's first two series are A's and B's outcome probabilities."""
    system = getattr(panel, "compare", panel).system
    ra, rb = system.evaluate(a), system.evaluate(b)
    cards, table = ab_cards(panel), ab_table(panel)
    assert set(cards) == set(ra.headline) | set(rb.headline)
    for key in cards:
        va, vb = ra.headline.get(key), rb.headline.get(key)
        diff = None if va is None or vb is None else vb - va
        assert cards[key] == {"a": va, "b": vb, "difference": diff}, key
        row = table[("headline", key)]
        assert [None if row[c] == "—" else Fraction(row[c]) for c in ("a", "b", "difference")] == [va, vb, diff]
        if key.startswith("p_") and diff is not None:
            # percentage points: "pp" in English, "п. п." with a decimal comma in Russian
            points = f"{float(diff) * 100:+.2f}"
            assert row["points"] in (f"{points} pp", f"{points.replace('.', ',')} п. п.")
    for label in dict.fromkeys([*ra.outcome_order, *rb.outcome_order]):
        row = table[("outcome", label)]
        assert Fraction(row["a"]) == ra.outcomes[label] and Fraction(row["b"]) == rb.outcomes[label]
        assert Fraction(row["difference"]) == rb.outcomes[label] - ra.outcomes[label]
