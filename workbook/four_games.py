"""One dodge, four games: each system's scenario with and without its reaction, side by side,
and the reaction's worth against the defender's chance of one unopposed evasion roll.

For each system that declares its evasion (:class:`rules_core.Evasion`) the page takes a
scenario — a preset (by default the first whose reaction can be taken away) or a pasted share
link — and shows P(no hit), expected hits and the system's damage headline with and without
the reaction, and what the reaction is worth (percentage points of P(no hit) gained, hits and
damage avoided), all exact. The chart sweeps each system's evasion attribute over its range,
the attack held fixed, and draws the worth against the chance of passing one unopposed
evasion roll: how a flat d20, a 3d6 bell and a d100 turn skill into safety.

CSS classes: ``wb-four`` (``wb-four-source-<system id>``, ``wb-four-link-<system id>``,
``wb-four-table`` with rows ``tr[data-key]`` and cells ``td[data-system]`` carrying
``data-exact``, ``wb-four-measure``, ``wb-four-chart``, ``wb-four-notice``, ``wb-four-assumptions``).
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any
from urllib.parse import urlsplit

import ipywidgets as widgets
import plotly.graph_objects as go

from rules_core import ScenarioError, System, all_systems
from rules_core.compare import Worth, WorthPoint, worth, worth_curve
from rules_core.scenario import Scenario

from .share import decode_query
from .layout import page_css
from .chart import chart
from .views import _LAYOUT, exact_text, percent_text

__all__ = ["systems_with_evasion", "default_preset", "worth_rows", "worth_figure", "FourGames", "MEASURES",
           "Row"]

#: What the chart's curves can show: key → English name.
MEASURES = {"p_no_hit": "P(no hit) gained (percentage points)", "hits_avoided": "Expected hits avoided"}
#: Okabe–Ito colours, safe for colour-blind readers, one per system.
_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9")
_LINK = "(a pasted share link)"


def systems_with_evasion() -> tuple[System, ...]:
    """Every registered system that declares its evasion, in registry order."""
    return tuple(s for s in all_systems().values() if s.evasion is not None)


def default_preset(system: System) -> str:
    """The first preset where the defender reacts and the reaction can be taken away."""
    for preset in system.presets:
        try:
            made = worth(preset.scenario).with_.headline["p_dodge_succeeds"] is not None
        except ScenarioError:
            continue
        if made:
            return preset.name
    return system.presets[0].name


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
    return f"{float(value):.4g}"


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


def _table_html(worths: Mapping[str, Worth], systems: Sequence[System]) -> str:
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
            label = f" <small>({html.escape(cell['of'])})</small>" if line["key"] == "damage_with" and cell["of"] else ""
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
    ytitle = MEASURES[measure]
    return go.Figure(traces, layout=dict(
        title=dict(text="What the reaction is worth, by the chance of one unopposed evasion roll"),
        xaxis=dict(title=dict(text="Chance of passing one unopposed evasion roll"), tickformat=".0%",
                   range=[-0.02, 1.02]),
        yaxis=dict(title=dict(text=ytitle), rangemode="tozero"),
        legend=dict(orientation="h", y=-0.22), **{**_LAYOUT, "height": 460}))


def _query_of(link: str) -> str:
    """The query of a pasted link (a full URL, or ``?a=b``, or ``a=b``)."""
    link = link.strip()
    if "?" in link:
        return urlsplit(link).query if "://" in link else link.split("?", 1)[1]
    return link


class FourGames:
    """The four-games page: per system a scenario source, the side-by-side table and the chart.

    ``scenarios`` maps each system id to the scenario shown, ``worths`` to its
    :class:`~rules_core.compare.Worth`, ``curves`` to its worth curve; ``figure`` is the chart.
    """

    def __init__(self, systems: Sequence[System] | None = None, measure: str = "p_no_hit"):
        self.systems = tuple(systems) if systems is not None else systems_with_evasion()
        self.scenarios: dict[str, Scenario] = {}
        self.worths: dict[str, Worth] = {}
        self.curves: dict[str, tuple[WorthPoint, ...]] = {}
        self.figure: go.Figure | None = None
        self.notices: dict[str, str] = {}
        self.sources: dict[str, widgets.Dropdown] = {}
        self.links: dict[str, widgets.Text] = {}
        pickers = []
        for system in self.systems:
            source = widgets.Dropdown(options=[(p.title, p.name) for p in system.presets] + [(_LINK, "")],
                                      value=default_preset(system), description=system.name,
                                      style={"description_width": "10em"}, layout=widgets.Layout(width="34em"))
            source.add_class(f"wb-four-source-{system.id}")
            link = widgets.Text(placeholder="paste a share link of this game's dashboard, then Enter",
                                continuous_update=False, layout=widgets.Layout(width="34em", display="none"))
            link.add_class(f"wb-four-link-{system.id}")
            source.observe(lambda ch, s=system: self._source_changed(s), names="value")
            link.observe(lambda ch, s=system: self._source_changed(s), names="value")
            self.sources[system.id], self.links[system.id] = source, link
            pickers.append(widgets.VBox([source, link]))
            self.scenarios[system.id] = system.preset(source.value).scenario
        self.measure = widgets.ToggleButtons(options=[(v, k) for k, v in MEASURES.items()], value=measure)
        self.measure.add_class("wb-four-measure")
        self.measure.observe(lambda _ch: self._draw(), names="value")
        self.notice = widgets.HTML()
        self.notice.add_class("wb-four-notice")
        self.table = widgets.HTML()
        self.table.add_class("wb-four-table")
        self.chart = chart("wb-four-chart")
        self.assumptions = widgets.HTML(self._assumptions_html())
        self.assumptions.add_class("wb-four-assumptions")
        style = widgets.HTML(page_css())  # the workbook's style sheet: the chart keeps its height
        self.widget = widgets.VBox([style, widgets.VBox(pickers), self.notice, self.table, self.measure,
                                    self.chart, self.assumptions], layout=widgets.Layout(max_width="1200px"))
        self.widget.add_class("wb-four")
        for system in self.systems:
            self._evaluate(system)
        self._show()

    def _assumptions_html(self) -> str:
        items = "".join(f"<li><b>{html.escape(s.name)}</b>: the evasion attribute is "
                        f"<code>{html.escape(s.evasion.attribute)}</code>; no reaction means "
                        f"{html.escape(', '.join(f'{k} = {v!r}' for k, v in s.evasion.no_reaction.items()))}; "
                        f"an unopposed evasion roll is {html.escape(s.evasion.unopposed_text)}.</li>"
                        for s in self.systems)
        return ("<h4>Assumptions</h4><ul>"
                "<li>Each game keeps its own scenario: the attack, the attackers and everything else are held "
                "fixed while the curve sweeps the evasion attribute over every value it allows.</li>"
                "<li>“With” and “without” differ only in the reaction: without it the defender makes no evasion "
                "roll at all.</li>"
                "<li>The worth is P(no hit) with the reaction minus P(no hit) without it (in percentage points), "
                "and the expected hits (and damage) without it minus with it.</li>"
                f"{items}"
                "<li>Where the attribute climbs past the die (a d20 attribute above 20), the unopposed chance "
                "stays at 100% while the worth can still grow against an opposed roll: those points stack up "
                "at the right edge.</li></ul>")

    def _source_changed(self, system: System) -> None:
        source, link = self.sources[system.id], self.links[system.id]
        link.layout.display = "flex" if source.value == "" else "none"
        if source.value:
            scenario: Scenario | None = system.preset(source.value).scenario
            self.notices.pop(system.id, None)
        else:
            if not link.value.strip():
                return
            shared = decode_query(system, _query_of(link.value))
            scenario = shared.scenario
            if scenario is None:
                self.notices[system.id] = f"{system.name}: the link was not used — {shared.notice or 'it names no scenario'}"
        if scenario is not None:
            previous = self.scenarios[system.id]
            self.scenarios[system.id] = scenario
            if not self._evaluate(system):
                self.scenarios[system.id] = previous
                self._evaluate(system)
        self._show()

    def _evaluate(self, system: System) -> bool:
        """The worth and the curve of the system's scenario; False (with a notice) when refused."""
        scenario = self.scenarios[system.id]
        try:
            self.worths[system.id] = worth(scenario)
            self.curves[system.id] = worth_curve(scenario)
        except ScenarioError as err:
            self.notices[system.id] = f"{system.name}: this scenario has no reaction to take away — {err}"
            return False
        return True

    def _show(self) -> None:
        self.notice.value = "".join(f'<div class="wb-notice-text" style="color:#a00">{html.escape(n)}</div>'
                                    for n in self.notices.values())
        self.table.value = _table_html(self.worths, self.systems)
        self._draw()

    def _draw(self) -> None:
        marks = {}
        for system in self.systems:
            own = self.scenarios[system.id].get(system.evasion.attribute)
            marks[system.id] = next((p for p in self.curves[system.id] if p.value == own), None)
        self.figure = worth_figure(self.curves, self.measure.value, marks)
        self.chart.show(self.figure)
