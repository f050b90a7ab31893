"""The d100 homebrew's own dashboard panels: where each attack's hits go.

The panels are pure functions of a result: the exact expected number of each attack's hits
evaded by its own roll, by leftover Successes, negated by a Leap, landing in the open and
landing against Cover (:func:`rules_core.systems.d100_homebrew.exact.analyse`), as a stacked bar
chart and as a table of exact numbers. One roll step by step is the dashboard's "Roll the dice"
(:mod:`workbook.panels.classroom`), as for every system. Every text goes through the system's
translator, so the panels follow the dashboard's language switch.
"""

from __future__ import annotations

from fractions import Fraction

import plotly.graph_objects as go

from rules_core import Result, get_system
from rules_core.systems.d100_homebrew.exact import analyse
from rules_core.systems.d100_homebrew.text import say

from ..page.layout import localised_figure
from ..page.table import Table
from ..page.text import number_text, translator
from ..page.views import View, exact_text

__all__ = ["SYSTEM_ID", "VIEWS", "FATES", "attack_rows", "attack_table", "attack_chart", "exact_number"]

SYSTEM_ID = "d100-homebrew"

#: What can become of a hit, in the order the chart stacks them, with its English name.
FATES = {
    "evaded_by_roll": "Evaded by its own roll",
    "evaded_by_leftovers": "Evaded by leftover Successes",
    "negated_by_leap": "Negated by a Leap",
    "landed_open": "Landing",
    "landed_in_cover": "Landing against Cover",
}
_COLORS = ("#0072B2", "#56B4E9", "#009E73", "#D55E00", "#E69F00")  # Okabe–Ito (colour-blind safe)


def attack_rows(result: Result) -> list[dict[str, Fraction | int | str]]:
    """One row per attack: its name (English), hits, P(a roll is made against it) and the
    exact expected number of its hits by fate."""
    analysis = analyse(result.scenario)
    rows = []
    for attack, tally in zip(analysis.plan.attacks, analysis.tallies):
        rows.append({"attack": say("Attack {a}", a=attack.number), "hits": attack.hits,
                     "p_roll": tally.p_roll, **{fate: getattr(tally, fate) for fate in FATES}})
    return rows


def attack_table(result: Result, lang: str = "en") -> Table:
    """The rows of :func:`attack_rows` with translated headers and exact numbers as text
    (``33/20 ≈ 1.65``; in Russian ``33/20 ≈ 1,65``)."""
    text = translator(get_system(result.system), lang)
    headers = {"attack": "Attack", "hits": "Hits", "p_roll": "Roll made", **FATES}
    return Table.of({text(headers[k]): (text(v) if k == "attack" else v if k == "hits" else exact_number(v, lang))
                     for k, v in row.items()} for row in attack_rows(result))


def exact_number(x: Fraction | int, lang: str = "en") -> str:
    """An exact number as the table shows it: ``3``, or ``39/20 ≈ 1.95`` (the float as ``lang``
    writes it: ``39/20 ≈ 1,95``).

    >>> exact_number(Fraction(39, 20)), exact_number(Fraction(39, 20), "ru"), exact_number(3)
    ('39/20 ≈ 1.95', '39/20 ≈ 1,95', '3')
    """
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    return f"{exact_text(x)} ≈ {number_text(x, '.4g', lang)}"


def attack_chart(result: Result, lang: str = "en") -> go.Figure:
    """Stacked bars: for each attack, its hits by what became of them (expected numbers)."""
    text = translator(get_system(result.system), lang)
    rows = attack_rows(result)
    x = [text(row["attack"]) for row in rows]
    bars = []
    for (fate, name), color in zip(FATES.items(), _COLORS):
        values = [row[fate] for row in rows]
        bars.append(go.Bar(x=x, y=[float(v) for v in values], name=text(name), marker_color=color,
                           customdata=[exact_text(v) for v in values],
                           hovertemplate="%{x}: %{customdata} ≈ %{y:.3f}<extra>" + text(name) + "</extra>"))
    return localised_figure(go.Figure(data=bars, layout=dict(
        barmode="stack", height=340, margin=dict(l=60, r=20, t=50, b=60),
        title=dict(text=text("Where each attack's hits go")),
        yaxis=dict(title=dict(text=text("Expected hits")), rangemode="tozero", gridcolor="#e6e6e6"),
        plot_bgcolor="white", paper_bgcolor="white", legend=dict(orientation="h", y=-0.2))), lang)


VIEWS = (View("Where each attack's hits go", attack_chart),
         View("Hits of each attack", attack_table))
