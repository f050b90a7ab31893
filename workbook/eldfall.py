"""Eldfall Chronicles' own dashboard panels.

- *What the Dodge is worth*: Hits landing and Wounds on the defender with its reaction (Dodge or
  Ward) and without it, side by side, and the same as exact numbers with their differences;
- *Second model (Sweep)*: the dodging target beside the second model in the Sweep's reach, which
  does not dodge;
- *After the Dodge*: the post-dodge movement under the selected ruling, Stagger and Knockdown;

One roll step by step is the dashboard's "Roll the dice" (:mod:`workbook.classroom`), as for
every system.

Every panel is a pure function of a result (the comparison evaluates the same scenario once more
with the reaction switched off).
"""

from __future__ import annotations

import html
from fractions import Fraction

import pandas as pd
import plotly.graph_objects as go

from rules_core import Dist, Result, get_system
from rules_core.systems.eldfall import without_reaction

from .text import headline_label, translator
from .views import View, evaluate_cached, exact_bar, exact_text, percent_text

__all__ = ["SYSTEM_ID", "VIEWS", "reaction_name", "without", "worth_chart", "worth_table",
           "second_model_chart", "after_dodge_table"]

SYSTEM_ID = "eldfall"

_COLORS = ("#0072B2", "#E69F00")  # Okabe–Ito (colour-blind safe)
_AXIS = dict(gridcolor="#e6e6e6", zerolinecolor="#bbbbbb", linecolor="#bbbbbb", automargin=True)
_REACTIONS = {"dodge": "With the Dodge", "ward": "With Ward", "none": "No reaction"}
_WORTH_KEYS = ("p_no_hit", "expected_hits", "expected_wounds", "p_at_least_one_wound")


def _text(result: Result, lang: str):
    return translator(get_system(result.system), lang)


def reaction_name(result: Result) -> str:
    """How the chart names the defender's side: "With the Dodge", "With Ward" or "No reaction"."""
    return _REACTIONS[result.scenario.defender.reaction]


def without(result: Result) -> Result:
    """The same scenario evaluated with the defender not reacting (Protective Barrier kept)."""
    return evaluate_cached(get_system(result.system), without_reaction(result.scenario))


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


def worth_chart(result: Result, lang: str = "en") -> go.Figure:
    """Hits landing (left) and Wounds (right) with the defender's reaction and without it."""
    text = _text(result, lang)
    other = without(result)
    most_hits = max(max(result.hits.outcomes()), max(other.hits.outcomes()))
    wounds, other_wounds = result.distributions["wounds"], other.distributions["wounds"]
    most_wounds = max(max(wounds.outcomes()), max(other_wounds.outcomes()))
    ours, theirs = text(reaction_name(result)), text("Without it")
    traces = [_bars(result.hits, most_hits, ours, _COLORS[0], "", True),
              _bars(other.hits, most_hits, theirs, _COLORS[1], "", True),
              _bars(wounds, most_wounds, ours, _COLORS[0], "2", False),
              _bars(other_wounds, most_wounds, theirs, _COLORS[1], "2", False)]
    fig = _two_panels(traces, text("What the reaction is worth: Hits and Wounds with and without it"),
                      text("Hits landing on the defender"), text("Wounds on the defender"), text)
    if result.scenario.defender.reaction == "none":
        fig.add_annotation(text=text("The defender does not react: both sides are the same."),
                           showarrow=False, xref="paper", yref="paper", x=0.5, y=1.0)
    return fig


def worth_table(result: Result, lang: str = "en") -> pd.DataFrame:
    """The headline numbers the reaction changes: with it, without it, and the difference,
    exactly (``n/d``) with the decimal beside."""
    text = _text(result, lang)
    other = without(result)
    rows = []
    for key in _WORTH_KEYS:
        a, b = result.headline[key], other.headline[key]
        rows.append({text("Quantity"): text(headline_label(key)),
                     text(reaction_name(result)): _shown(key, a),
                     text("Without it"): _shown(key, b),
                     text("What it is worth"): _shown(key, a - b, signed=True)})
    return pd.DataFrame(rows)


def _shown(key: str, value: Fraction, signed: bool = False) -> str:
    if key.startswith("p_"):
        number = f"{float(value) * 100:+.2f} pp" if signed else percent_text(value)
    else:
        number = f"{float(value):+.4g}" if signed else f"{float(value):.4g}"
    return f"{exact_text(value)} ({number})"


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


def after_dodge_table(result: Result, lang: str = "en") -> pd.DataFrame:
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
    return pd.DataFrame(rows)


VIEWS = (View("What the Dodge is worth", worth_chart),
         View("What the Dodge is worth, exactly", worth_table),
         View("Second model (Sweep)", second_model_chart),
         View("After the Dodge", after_dodge_table))
