"""The page of games' numbers, as pure functions of each game's worth
(:class:`rules_core.compare.Worth`): the side-by-side table (:func:`table_rows`, as CSV
:func:`table_csv`), the worth chart (:func:`worth_figure`), and the links to each game's
dashboard. The page itself is :class:`workbook.pages.four_games.FourGames`."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import plotly.graph_objects as go

from rules_core import System, all_systems
from rules_core.compare import Worth, WorthPoint
from rules_core.result import decimal, fraction_text
from rules_core.tables import csv_text

from ..page.text import headline_label
from ..page.views import _LAYOUT, exact_text, percent_text
from .catalog import CURVE_COLOURS

__all__ = ["worth_rows", "table_rows", "table_csv", "table_html", "worth_figure", "MEASURES", "Row", "ROWS"]


#: What the chart's curves can show: key → English name.
MEASURES = {"p_no_hit": "P(no hit) gained (percentage points)", "hits_avoided": "Expected hits avoided"}
#: The chart's axis titles where the measure's name is too long for a phone's chart.
_AXIS_TITLES = {"p_no_hit": "P(no hit) gained (pp)"}
#: Okabe–Ito colours, safe for colour-blind readers, one per system (the index card's too).
_COLOURS = CURVE_COLOURS
@dataclass(frozen=True)
class Row:
    """One line of the side-by-side table: its key, its English name, and how to read it from
    a :class:`~rules_core.compare.Worth` (``kind``: "with", "without" or "worth"; ``of``: the
    headline or worth key, or "damage" for the system's damage headline)."""

    key: str
    name: str
    kind: str
    of: str


ROWS = (
    Row("p_no_hit_with", "P(no hit), with the reaction", "with", "p_no_hit"),
    Row("p_no_hit_without", "P(no hit), without it", "without", "p_no_hit"),
    Row("p_no_hit_gained", "Worth: P(no hit) gained", "worth", "p_no_hit"),
    Row("hits_with", "Expected hits, with the reaction", "with", "expected_hits"),
    Row("hits_without", "Expected hits, without it", "without", "expected_hits"),
    Row("hits_avoided", "Worth: hits avoided", "worth", "hits_avoided"),
    Row("damage_with", "Damage headline, with the reaction", "with", "damage"),
    Row("damage_without", "Damage headline, without it", "without", "damage"),
    Row("damage_avoided", "Worth: damage avoided", "worth", "damage"),
    Row("p_dodge_succeeds", "P(every evasion roll succeeds)", "with", "p_dodge_succeeds"),
)


def _value(row: Row, w: Worth) -> tuple[Fraction | None, str]:
    """The exact value of ``row`` for ``w`` and the headline key it comes from."""
    if row.kind == "worth":
        key = row.of if row.of != "damage" else (f"{w.damage.removeprefix('expected_')}_avoided" if w.damage else "")
        return (w.gained.get(key) if key else None), key
    key = w.damage if row.of == "damage" else row.of
    if not key:
        return None, ""
    source = w.with_ if row.kind == "with" else w.without
    return source.headline.get(key), key


def _shown(row: Row, key: str, value: Fraction | None) -> str:
    if value is None:
        return "—"
    if row.kind == "worth" and row.of == "p_no_hit":
        return f"{float(value) * 100:+.2f} pp"
    if key.startswith("p_"):
        return percent_text(value)
    return decimal(value)


def worth_rows(worths: Mapping[str, Worth]) -> list[dict[str, Any]]:
    """The table as data: per row its key and name, and per system id the exact value (or
    None), its text and the headline key it reads."""
    out = []
    for row in ROWS:
        line: dict[str, Any] = {"key": row.key, "name": row.name}
        for system_id, w in worths.items():
            value, key = _value(row, w)
            line[system_id] = {"exact": value, "shown": _shown(row, key, value), "of": key}
        out.append(line)
    return out


def table_rows(worths: Mapping[str, Worth], systems: Sequence[System] | None = None) -> list[dict[str, Any]]:
    """The side-by-side table as CSV rows, one per line of the table and system: ``row`` (its
    key), ``name``, ``system`` (id), ``headline`` (the headline or worth key it reads, "" where
    the system has none), ``exact`` (``n/d``) and ``float`` (both "" where it does not apply)."""
    ids = [s.id for s in systems] if systems is not None else list(worths)
    out = []
    for line in worth_rows(worths):
        for system_id in ids:
            cell = line[system_id]
            value = cell["exact"]
            out.append({"row": line["key"], "name": line["name"], "system": system_id, "headline": cell["of"],
                        "exact": "" if value is None else fraction_text(value),
                        "float": "" if value is None else float(value)})
    return out


def table_csv(worths: Mapping[str, Worth], systems: Sequence[System] | None = None) -> str:
    """:func:`table_rows` as CSV text (:func:`rules_core.tables.csv_text`)."""
    return csv_text(table_rows(worths, systems))


def table_html(worths: Mapping[str, Worth], systems: Sequence[System]) -> str:
    head = "".join(f'<th style="text-align:left;padding:4px 10px">{html.escape(s.name)}</th>' for s in systems)
    body = []
    for line in worth_rows(worths):
        cells = []
        for s in systems:
            cell = line[s.id]
            exact = "" if cell["exact"] is None else exact_text(cell["exact"])
            note = (f'<div style="font-size:.75em;color:#555;overflow-wrap:anywhere">{html.escape(exact)}</div>'
                    if exact else (f'<div style="font-size:.75em;color:#555">{html.escape("no damage model: hits only")}</div>'
                                   if line["key"].startswith("damage") and not cell["of"] else ""))
            label = (f" <small>({html.escape(headline_label(cell['of']).lower())})</small>"
                     if line["key"] == "damage_with" and cell["of"] else "")
            cells.append(f'<td data-system="{s.id}" data-exact="{exact}" style="padding:4px 10px;vertical-align:top">'
                         f'{html.escape(cell["shown"])}{label}{note}</td>')
        weight = "font-weight:600;" if line["key"].endswith(("gained", "avoided")) else ""
        body.append(f'<tr data-key="{line["key"]}" style="{weight}border-bottom:1px solid #eee">'
                    f'<td style="padding:4px 10px">{html.escape(line["name"])}</td>{"".join(cells)}</tr>')
    return (f'<div style="overflow-x:auto"><table class="wb-four-grid" style="border-collapse:collapse">'
            f'<thead><tr><th></th>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>')


def worth_figure(curves: Mapping[str, Sequence[WorthPoint]], measure: str = "p_no_hit",
                 marks: Mapping[str, WorthPoint] | None = None) -> go.Figure:
    """One curve per system: the reaction's worth (``measure``, a key of :data:`MEASURES`)
    against the chance of passing one unopposed evasion roll; each system's own scenario is
    marked; hover shows the attribute value and the exact numbers."""
    traces = []
    for i, (system_id, points) in enumerate(curves.items()):
        system = all_systems()[system_id]
        path = system.evasion.attribute
        colour = _COLOURS[i % len(_COLOURS)]
        ys = [p.worth.gained[measure] for p in points]
        scale = 100 if measure == "p_no_hit" else 1
        traces.append(go.Scatter(
            x=[float(p.unopposed) for p in points], y=[float(y) * scale for y in ys], mode="lines+markers",
            name=system.name, line=dict(color=colour, width=3), marker=dict(size=5),
            customdata=[[str(p.value), exact_text(p.unopposed), exact_text(y)] for p, y in zip(points, ys)],
            hovertemplate=f"{html.escape(path)} = %{{customdata[0]}}<br>unopposed: %{{customdata[1]}}"
                          f"<br>worth: %{{customdata[2]}}<extra>{html.escape(system.name)}</extra>"))
        mark = (marks or {}).get(system_id)
        if mark is not None:
            traces.append(go.Scatter(
                x=[float(mark.unopposed)], y=[float(mark.worth.gained[measure]) * scale], mode="markers",
                name=f"{system.name}: this scenario", showlegend=False, hoverinfo="skip",
                marker=dict(size=14, symbol="diamond", color=colour, line=dict(width=2, color="black"))))
    ytitle = _AXIS_TITLES.get(measure, MEASURES[measure])
    return go.Figure(traces, layout=dict(
        title=dict(text="What the reaction is worth in each game"),
        xaxis=dict(title=dict(text="Chance of passing one unopposed evasion roll"), tickformat=".0%",
                   range=[-0.02, 1.02]),
        yaxis=dict(title=dict(text=ytitle), rangemode="tozero"),
        legend=dict(orientation="h", y=-0.22), **{**_LAYOUT, "height": 460}))
