"""Eldfall Chronicles' own dashboard panels.

- *What the Dodge is worth*: the workbook's A/B panel (:class:`workbook.panels.compare.WorthPanel`)
  with A = the defender not reacting and B = the scenario as set: both sets of headline cards,
  B − A (the reaction's worth) exactly and in percentage points, Hits landing and Wounds of both
  on one chart, and the rule-trace lines that differ;
- *Second model (Sweep)*: the dodging target beside the second model in the Sweep's reach, which
  does not dodge;
- *After the Dodge*: the post-dodge movement under the selected ruling, Stagger and Knockdown;

One roll step by step is the dashboard's "Roll the dice" (:mod:`workbook.panels.classroom`), as for
every system.

Every other panel is a pure function of a result.
"""

from __future__ import annotations

import html
from fractions import Fraction

import plotly.graph_objects as go

from rules_core import Dist, Result, get_system

from ..page.panel import PageContext
from ..panels.compare import WorthPanel
from ..page.table import Table
from ..page.text import translator
from ..page.views import View, exact_bar, exact_text, percent_text

__all__ = ["SYSTEM_ID", "VIEWS", "reaction_name", "hits_and_wounds_chart", "worth_panel",
           "second_model_chart", "after_dodge_table"]

SYSTEM_ID = "eldfall"

_COLORS = ("#0072B2", "#E69F00")  # Okabe–Ito (colour-blind safe)
_AXIS = dict(gridcolor="#e6e6e6", zerolinecolor="#bbbbbb", linecolor="#bbbbbb", automargin=True)
_REACTIONS = {"dodge": "With the Dodge", "ward": "With Ward", "none": "No reaction"}


def _text(result: Result, lang: str):
    return translator(get_system(result.system), lang)


def reaction_name(result: Result) -> str:
    """How the chart names the defender's side: "With the Dodge", "With Ward" or "No reaction"."""
    return _REACTIONS[result.scenario.defender.reaction]


def _bars(dist: Dist, most: int, name: str, color: str, axis: str, show_legend: bool) -> go.Bar:
    ks = list(range(most + 1))
    return exact_bar(ks, [dist[k] for k in ks], name, color, xaxis=f"x{axis}", yaxis=f"y{axis}",
                     legendgroup=name, showlegend=show_legend)


def _two_panels(traces: list[go.Bar], title: str, left: str, right: str, text) -> go.Figure:
    """Two bar charts side by side in one figure (left x/y, right x2/y2), built in one go."""
    axis_y = dict(_AXIS, tickformat=".0%", rangemode="tozero")
    return go.Figure(data=traces, layout=dict(
        title=dict(text=title), barmode="group", height=360, bargap=0.25,
        template={"layout": {"plot_bgcolor": "white", "paper_bgcolor": "white", "font": {"size": 12}}},
        margin=dict(l=60, r=20, t=70, b=60),
        xaxis=dict(_AXIS, domain=[0, 0.47], dtick=1, title=dict(text=left)),
        yaxis=dict(axis_y, title=dict(text=text("Probability"))),
        xaxis2=dict(_AXIS, domain=[0.53, 1], dtick=1, title=dict(text=right)),
        yaxis2=dict(axis_y, anchor="x2"),
        legend=dict(orientation="h", y=1.12, x=0)))


def hits_and_wounds_chart(a: Result, b: Result, lang: str = "en",
                          names: tuple[str, str] = ("A", "B")) -> go.Figure:
    """Hits landing (left) and Wounds (right) on the defender under ``a`` and under ``b`` (the
    chart of :func:`worth_panel`: without the reaction, and as set)."""
    text = _text(b, lang)
    most_hits = max(max(a.hits.outcomes()), max(b.hits.outcomes()))
    wounds_a, wounds_b = a.distributions["wounds"], b.distributions["wounds"]
    most_wounds = max(max(wounds_a.outcomes()), max(wounds_b.outcomes()))
    traces = [_bars(a.hits, most_hits, names[0], _COLORS[1], "", True),
              _bars(b.hits, most_hits, names[1], _COLORS[0], "", True),
              _bars(wounds_a, most_wounds, names[0], _COLORS[1], "2", False),
              _bars(wounds_b, most_wounds, names[1], _COLORS[0], "2", False)]
    fig = _two_panels(traces, text("What the reaction is worth: Hits and Wounds with and without it"),
                      text("Hits landing on the defender"), text("Wounds on the defender"), text)
    if a.scenario == b.scenario:
        fig.add_annotation(text=text("The defender does not react: both sides are the same."),
                           showarrow=False, xref="paper", yref="paper", x=0.5, y=1.0)
    return fig


class ReactionWorthPanel(WorthPanel):
    """What the reaction is worth: the workbook's A/B panel with A = the defender not reacting
    (Protective Barrier kept) and B = the scenario as set, so B − A is the reaction's worth;
    Hits and Wounds of both on one chart (:func:`hits_and_wounds_chart`). Always shown."""

    name, title, collapsible = "worth", "What the Dodge is worth", False

    @classmethod
    def for_page(cls, page: PageContext) -> ReactionWorthPanel:
        panel = cls(page.system, page.text, page.state.lang, evaluate=page.evaluate, chart=hits_and_wounds_chart,
                    open=True, names=lambda s: ("Without it", _REACTIONS[s.defender.reaction]))
        panel.page = page
        return panel


def second_model_chart(result: Result, lang: str = "en") -> go.Figure | str:
    """With Sweep: Hits and Wounds on the dodging target beside those on the second model, which
    does not dodge. Without Sweep: a short note."""
    text = _text(result, lang)
    if "second_model_hits" not in result.distributions:
        return (f'<p class="wb-eldfall-no-sweep">{html.escape(text("No Attack has Sweep: only the target is hit. Tick Sweep on an attacker to see the second model."))}</p>')
    hits2, wounds2 = result.distributions["second_model_hits"], result.distributions["second_model_wounds"]
    wounds = result.distributions["wounds"]
    most_hits = max(max(result.hits.outcomes()), max(hits2.outcomes()))
    most_wounds = max(max(wounds.outcomes()), max(wounds2.outcomes()))
    target = text("Target") + f" ({text(reaction_name(result)).lower()})"
    second = text("Second model (does not dodge)")
    traces = [_bars(result.hits, most_hits, target, _COLORS[0], "", True),
              _bars(hits2, most_hits, second, _COLORS[1], "", True),
              _bars(wounds, most_wounds, target, _COLORS[0], "2", False),
              _bars(wounds2, most_wounds, second, _COLORS[1], "2", False)]
    return _two_panels(traces, text("Sweep: the Dodge protects only the dodging model"),
                       text("Hits landing"), text("Wounds"), text)


def after_dodge_table(result: Result, lang: str = "en") -> Table:
    """The post-dodge movement (under the selected ruling), AP lost to Stagger and Knockdown,
    each outcome with its exact probability."""
    text = _text(result, lang)
    rows = []

    def add(what: str, outcome: str, p: Fraction) -> None:
        rows.append({text("Effect"): text(what), text("Outcome"): text(outcome),
                     text("Exact"): exact_text(p), text("Percent"): percent_text(p)})

    for label, p in result.distributions["post_dodge_move"].items():
        add("Movement after the Dodge", label, p)
    for lost, p in result.distributions["ap_lost"].items():
        add("AP lost to Stagger", str(lost), p)
    add("Knockdown", "Crouched", result.distributions["knocked_down"][True])
    return Table.of(rows)


VIEWS = (ReactionWorthPanel,
         View("Second model (Sweep)", second_model_chart),
         View("After the Dodge", after_dodge_table))
