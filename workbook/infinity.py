"""Infinity N4's own dashboard panels: the Order roll by roll, what happens to the dodger at the
end of the Order, the wounds, and the heatmap (one Order rolled on concrete faces is the
dashboard's "Roll the dice", :mod:`workbook.classroom`).

Every panel is a pure function of a result (the heatmap also reads the result's scenario): exact numbers come from :mod:`rules_core.systems.infinity_n4`, shown as
``n/d`` beside the percent. Tables carry ``data-key`` on each row (the untranslated roll or
state) and ``data-col`` on each cell, so tests can read them in any language.
"""

from __future__ import annotations

import html
from fractions import Fraction
from functools import lru_cache

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from rules_core import Result, get_system
from rules_core.result import fraction_text, one_in
from rules_core.systems.infinity_n4.dice import success_value
from rules_core.systems.infinity_n4.exact import dodge_grid_weights
from rules_core.systems.infinity_n4.outcomes import DODGED, final_state_order
from rules_core.systems.infinity_n4.play import plan_order
from rules_core.systems.infinity_n4.scenario import InfinityScenario

from .text import translator
from .views import View, distribution_chart, exact_text, percent_text

__all__ = ["SYSTEM_ID", "VIEWS", "attack_rows", "attack_html", "final_state_html", "wounds_chart",
           "heatmap", "HEAT_PH", "HEAT_SV"]

SYSTEM_ID = "infinity-n4"

#: The heatmap's axes: the dodger's PH (rows) and the first attacker's Success Value (columns).
HEAT_PH = range(1, 31)
HEAT_SV = range(1, 31)
BURSTS = range(1, 6)


def _text(result: Result, lang: str):
    return translator(get_system(result.system), lang)


def _prob(p: Fraction | None) -> tuple[str, str]:
    """(shown text, exact ``n/d`` or "")."""
    return ("—", "") if p is None else (f"{exact_text(p)} ({percent_text(p)})", exact_text(p))


def _number(x: Fraction) -> tuple[str, str]:
    return (exact_text(x) if x.denominator == 1 else f"{exact_text(x)} ≈ {float(x):.3f}",
            exact_text(x))


def attack_rows(result: Result) -> list[dict[str, object]]:
    """One row per roll of the Order (each attacker, the template, or the Normal Roll when
    nobody attacks), then the whole Order: the exact P(the dodge succeeds against it), P(no hit
    from it), P(at least one hit from it), expected hits and wounds from it."""
    scenario = result.scenario
    dodges = scenario.dodger.dodges
    rows = []
    for roll in plan_order(scenario).rolls:
        own, hits = result.distributions[roll.name], result.distributions[f"{roll.name}: hits"]
        if roll.kind == "f2f":
            against = f"Face to Face: dodge SV {roll.sv_dodge} against SV {roll.sv_attack}, Burst {roll.dice}"
        else:
            against = f"Normal PH Roll at SV {roll.sv_dodge}"
        rows.append({"key": roll.name, "against": against,
                     "dodge": own[DODGED] if dodges else None, "no_hit": hits[0],
                     "hit": 1 - hits[0], "hits": hits.mean(),
                     "wounds": result.distributions[f"{roll.name}: wounds"].mean()})
    h = result.headline
    rows.append({"key": "Whole Order", "against": "the same die against every roll",
                 "dodge": h["p_dodge_succeeds"], "no_hit": h["p_no_hit"], "hit": 1 - h["p_no_hit"],
                 "hits": h["expected_hits"], "wounds": h["expected_wounds"]})
    return rows


ATTACK_COLUMNS = {"key": "Roll", "against": "Against", "dodge": "Dodge succeeds",
                  "no_hit": "No hit from it", "hit": "Hit by it", "hits": "Expected hits",
                  "wounds": "Expected wounds"}


def _table(rows: list[dict[str, object]], columns: dict[str, str], css: str, text) -> str:
    """An HTML table: rows keyed by ``_key`` (``data-key``), cells by column (``data-col``); a
    cell given as ``(shown, exact)`` also carries ``data-exact``."""
    head = "".join(f'<th data-col="{c}" style="text-align:left;padding:2px 10px">'
                   f"{html.escape(text(h))}</th>" for c, h in columns.items())
    body = []
    for row in rows:
        cells = []
        for c in columns:
            shown, exact = row[c] if isinstance(row[c], tuple) else (row[c], None)
            mark = "" if exact is None else f' data-exact="{exact}"'
            cells.append(f'<td data-col="{c}"{mark} style="padding:2px 10px">{html.escape(str(shown))}</td>')
        body.append(f'<tr data-key="{html.escape(str(row["_key"]), quote=True)}">{"".join(cells)}</tr>')
    return (f'<table class="{css}" style="border-collapse:collapse"><thead><tr>{head}</tr>'
            f'</thead><tbody>{"".join(body)}</tbody></table>')


def attack_html(result: Result, lang: str = "en") -> str:
    """The Order roll by roll and as a whole; exact probabilities with their percent."""
    text = _text(result, lang)
    shown = []
    for row in attack_rows(result):
        shown.append({"_key": row["key"], "key": text(row["key"]), "against": text(row["against"]),
                      "dodge": _prob(row["dodge"]), "no_hit": _prob(row["no_hit"]),
                      "hit": _prob(row["hit"]), "hits": _number(row["hits"]),
                      "wounds": _number(row["wounds"])})
    note = text("One dodge die faces every roll: the whole Order's chances are not the products "
                "of the rows.")
    return _table(shown, ATTACK_COLUMNS, "wb-infinity-attacks", text) + f"<p><small>{html.escape(note)}</small></p>"


def final_state_html(result: Result, lang: str = "en") -> str:
    """Every way the Order can end for the dodger (movement, Guts Roll, Null), in order."""
    text = _text(result, lang)
    states = result.distributions["final state"]
    rows = [{"_key": label, "state": text(label), "exact": exact_text(states[label]),
             "percent": percent_text(states[label]), "one_in": one_in(states[label])}
            for label in final_state_order(result.scenario)]
    return _table(rows, {"state": "At the end of the Order", "exact": "Exact", "percent": "Percent",
                         "one_in": "1 in N"}, "wb-infinity-final", text)


def wounds_chart(result: Result, lang: str = "en") -> go.Figure:
    """The wounds inflicted in the Order (failed Saving Rolls), with the trooper's Wounds."""
    text = _text(result, lang)
    fig = distribution_chart(result.distributions["wounds"], text("Wounds inflicted"), lang,
                             xtitle=text("Wounds (failed Saving Rolls)"), system=get_system(result.system))
    wounds = result.scenario.dodger.wounds
    fig.add_vline(x=wounds - 0.5, line_dash="dot", line_color="#D55E00",
                  annotation_text=text("Null from here") + f" (W {wounds})",
                  annotation_position="top right", annotation_yshift=12)
    return fig


def _cells(grid: list[list[int]] | None, den: int) -> tuple[np.ndarray, np.ndarray]:
    """Floats for the colours and exact ``n/d`` texts (reduced) for the hover."""
    if grid is None:  # no dodge declared: nothing to show
        return np.full((len(HEAT_PH), len(HEAT_SV)), np.nan), \
            np.full((len(HEAT_PH), len(HEAT_SV)), "no dodge", dtype=object)
    z = np.array([[w / den for w in row] for row in grid])
    exact = np.array([[fraction_text(Fraction(w, den)) for w in row] for row in grid], dtype=object)
    return z, exact


@lru_cache(maxsize=16)
def _heat_cells(scenario: InfinityScenario) -> tuple[tuple[tuple[np.ndarray, np.ndarray], ...], ...]:
    """For each Burst: the (colours, exact texts) of both maps. The cells depend on neither
    axis, so :func:`heatmap` asks with the dodger's PH and the first attacker's value and MODs
    fixed; moving those sliders then only moves the cross."""
    cells = []
    for burst in BURSTS:
        grid = dodge_grid_weights(scenario, HEAT_PH, HEAT_SV, burst=burst)
        cells.append((_cells(grid.dodge, grid.den), _cells(grid.no_hit, grid.den)))
    return tuple(cells)


def _axis_free(scenario: InfinityScenario) -> InfinityScenario:
    """``scenario`` with the heatmap's two axes set to fixed values (a cache key)."""
    first, *rest = scenario.attackers
    return scenario.model_copy(update={
        "dodger": scenario.dodger.model_copy(update={"ph": 0}),
        "attackers": (first.model_copy(update={"value": 0, "mod": 0}), *rest)})


def heatmap(result: Result, lang: str = "en") -> go.Figure:
    """P(dodge succeeds) and P(no hit) over the dodger's PH × the first attacker's Success Value,
    the rest of the Order as it is; the slider sets that attacker's Burst. Exact values in the
    hover; the cross marks the scenario shown."""
    text = _text(result, lang)
    scenario: InfinityScenario = result.scenario
    first = scenario.attackers[0]
    current_sv = success_value(first.value, [first.mod]).sv
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.12,
                        subplot_titles=(text("P(dodge succeeds)"), text("P(no hit)")))
    for burst, maps in zip(BURSTS, _heat_cells(_axis_free(scenario))):
        for col, (z, exact) in zip((1, 2), maps):
            fig.add_trace(go.Heatmap(
                x=list(HEAT_SV), y=list(HEAT_PH), visible=burst == first.burst, z=z,
                customdata=exact, zmin=0, zmax=1, colorscale="Viridis", showscale=col == 2,
                colorbar=dict(tickformat=".0%", len=0.9),
                hovertemplate=(f"PH %{{y}}, SV %{{x}}, B{burst}<br>%{{customdata}} = %{{z:.2%}}"
                               "<extra></extra>")), row=1, col=col)
    for col in (1, 2):
        fig.add_trace(go.Scatter(x=[current_sv], y=[scenario.dodger.ph], mode="markers",
                                 marker=dict(symbol="x", size=12, color="white",
                                             line=dict(width=1, color="black")),
                                 hoverinfo="skip", showlegend=False), row=1, col=col)
    marks = 2  # the two crosses, always visible
    steps = []
    for i, burst in enumerate(BURSTS):
        visible = [j // 2 == i for j in range(2 * len(BURSTS))] + [True] * marks
        steps.append(dict(method="restyle", label=f"B{burst}", args=[{"visible": visible}]))
    fig.update_layout(
        height=430, margin=dict(l=60, r=20, t=70, b=60),
        title=dict(text=text("Dodger PH × first attacker's SV, the rest of the Order as set")),
        sliders=[dict(active=first.burst - 1, steps=steps, y=-0.12, len=0.5,
                      currentvalue=dict(prefix=text("Burst of the first attacker") + ": "))])
    for col in (1, 2):
        fig.update_xaxes(title_text=text("First attacker's SV"), row=1, col=col)
        fig.update_yaxes(title_text=text("Dodger's PH"), row=1, col=col)
    return fig


VIEWS = (
    View("The Order, roll by roll", attack_html),
    View("What happens to the dodger", final_state_html),
    View("Wounds", wounds_chart),
    View("Heatmap", heatmap),
)
