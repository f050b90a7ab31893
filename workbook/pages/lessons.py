"""Lessons for a probability class, each one idea, built from the dashboards' pieces.

Each function returns the lesson's interactive part; its notebook (``notebooks/lesson-*.ipynb``)
holds the explanation and calls it. Everything shown is computed by the core: exact values by
``evaluate``, rolls and simulations by the system's own rule on concrete dice.
"""

from __future__ import annotations

import html
from fractions import Fraction
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from rules_core import all_systems, evaluate, get_system
from rules_core.result import one_in

from ..panels.classroom import RollPanel, SimulatePanel
from ..page.text import translator
from ..page.chart import Chart, chart
from ..page.views import exact_text, percent_text, table_html

__all__ = ["sampling", "leftover_successes", "one_die_three_attackers", "bell_and_flat"]


def _chart(fig: go.Figure, css: str) -> Chart:
    return chart(css, fig)


def _html(css: str, value: str) -> widgets.HTML:
    box = widgets.HTML(value)
    box.add_class(css)
    return box


def _title(text: str) -> widgets.HTML:
    return widgets.HTML(f"<h3 style='margin:12px 0 4px'>{html.escape(text)}</h3>")


# -- Sampling converges on the exact value -----------------------------------------------------------

def sampling(system_id: str = "d100-homebrew", preset: str | None = None) -> widgets.VBox:
    """Pick any system and preset; simulate it and watch the estimate settle on the exact value."""
    systems = all_systems()
    choose_system = widgets.Dropdown(options=[(s.name, s.id) for s in systems.values()], value=system_id,
                                     description="Game")
    choose_system.add_class("wb-lesson-system")
    choose_preset = widgets.Dropdown(description="Scenario", layout=widgets.Layout(width="36em"))
    choose_preset.add_class("wb-lesson-preset")
    exact_box = _html("wb-lesson-exact", "")
    holder = widgets.VBox()
    state: dict[str, Any] = {"syncing": False}

    def show(_change: Any = None) -> None:
        if state["syncing"]:
            return
        system = systems[choose_system.value]
        if state.get("system") != system.id:
            state["system"] = system.id
            state["panel"] = SimulatePanel(system, translator(system, "en"))
            holder.children = [state["panel"].widget]
        result = evaluate(system.preset(choose_preset.value).scenario)
        p = result.headline["p_no_hit"]
        exact_box.value = (f"<p>Exact chance that no hit lands: <b>{exact_text(p)}</b> = {percent_text(p)} "
                           f"({one_in(p)}). Simulate, and watch the estimate settle on it.</p>")
        state["panel"].update(result)

    def system_chosen(_change: Any = None) -> None:
        system = systems[choose_system.value]
        names = [(p.title, p.name) for p in system.presets]
        state["syncing"] = True
        choose_preset.options = names
        choose_preset.value = preset if preset in [n for _, n in names] else names[0][1]
        state["syncing"] = False
        show()

    choose_system.observe(system_chosen, names="value")
    choose_preset.observe(show, names="value")
    system_chosen()
    box = widgets.VBox([widgets.HBox([choose_system, choose_preset], layout=widgets.Layout(flex_flow="row wrap")),
                        exact_box, holder])
    box.add_class("wb-lesson")
    return box


# -- Leftover Successes and the second attack (d100) --------------------------------------------------

_LEFTOVER_TEXT = {
    "en": {
        "exact": "Exactly, per attack: how many of its hits its own roll evades, how many the Successes left "
                 "over from the first roll evade, and how many land.",
        "roll": "Roll it: watch the first Dodge's spare Successes pay for the second attack's hits.",
    },
    "ru": {
        "exact": "Точно, для каждой атаки: сколько её попаданий избегает её собственный бросок, сколько — "
                 "Успехи, оставшиеся от первого броска, и сколько попадает.",
        "roll": "Бросьте: лишние Успехи первого Уклонения оплачивают попадания второй атаки.",
    },
}


def leftover_successes(lang: str | None = None) -> widgets.VBox:
    """The d100 preset of two attacks: the exact fate of each attack's hits, and the dice. The
    language is the page's (``?lang=ru``) unless given."""
    from urllib.parse import parse_qs

    from ..systems.d100 import attack_chart, attack_table
    from ..page.share import read_query

    system = get_system("d100-homebrew")
    if lang is None:
        asked = parse_qs(read_query()).get("lang", ["en"])[0]
        lang = asked if asked in system.languages else "en"
    text = translator(system, lang)
    words = _LEFTOVER_TEXT.get(lang, _LEFTOVER_TEXT["en"])
    result = evaluate(system.preset("two-attacks-leftovers").scenario)
    table = attack_table(result, lang)
    roll = RollPanel(system, text, seed=3)
    roll.update(result)
    box = widgets.VBox([_html("wb-lesson-text", f"<p>{html.escape(words['exact'])}</p>"),
                        _chart(attack_chart(result, lang), "wb-lesson-chart"),
                        _html("wb-lesson-table", table_html(table, {c: c for c in table.columns})),
                        _html("wb-lesson-text", f"<p>{html.escape(words['roll'])}</p>"), roll.widget])
    box.add_class("wb-lesson")
    return box


# -- One die against three attackers (Infinity) -------------------------------------------------------

def one_die_three_attackers() -> widgets.VBox:
    """The rulebook's Fusilier, one to three of them, against one dodge die: the exact chance of
    beating them all beside the naive "three separate dodges" product, and the dice."""
    system = get_system("infinity-n4")
    base = system.preset("zhanshi-vs-fusilier").scenario
    data = base.to_data()
    fusilier = data["attackers"][0]
    rows, exact, naive = [], [], []
    single = evaluate(base).headline["p_dodge_succeeds"]
    for k in (1, 2, 3):
        result = evaluate({**data, "attackers": [dict(fusilier) for _ in range(k)]})
        p = result.headline["p_dodge_succeeds"]
        exact.append(p)
        naive.append(single ** k)
        rows.append(f"<tr data-key='{k}'><td>{k}</td><td data-col='exact'>{exact_text(p)}</td>"
                    f"<td>{percent_text(p)}</td><td data-col='naive'>{exact_text(single ** k)}</td>"
                    f"<td>{percent_text(single ** k)}</td></tr>")
    table = ("<table class='wb-grid'><thead><tr><th>Fusiliers</th><th>one die against all (exact)</th><th></th>"
             "<th>as if separate dodges (p<sup>k</sup>)</th><th></th></tr></thead><tbody>"
             + "".join(rows) + "</tbody></table>")
    fig = go.Figure([go.Bar(x=[1, 2, 3], y=[float(p) for p in exact], name="one die against all",
                            marker_color="#0072B2", customdata=[exact_text(p) for p in exact],
                            hovertemplate="%{customdata}<extra></extra>"),
                     go.Bar(x=[1, 2, 3], y=[float(p) for p in naive], name="separate dodges (p^k)",
                            marker_color="#E69F00", customdata=[exact_text(p) for p in naive],
                            hovertemplate="%{customdata}<extra></extra>")])
    fig.update_layout(title="P(the dodge beats every Fusilier)", barmode="group", height=320,
                      xaxis=dict(title="Fusiliers shooting", dtick=1), yaxis=dict(title="Probability"),
                      plot_bgcolor="white", legend=dict(orientation="h", y=-0.3))
    three = evaluate({**data, "attackers": [dict(fusilier) for _ in range(3)]})
    roll = RollPanel(system, translator(system, "en"), seed=7)
    roll.update(three)
    box = widgets.VBox([_html("wb-lesson-table", table), _chart(fig, "wb-lesson-chart"),
                        _title("Roll one die against three Fusiliers"), roll.widget])
    box.add_class("wb-lesson")
    return box


# -- A bell against a flat line (GURPS 3d6 against Eldfall's d20) -------------------------------------

def _three_d6_at_most(score: int) -> Fraction:
    """P(a GURPS success roll of 3d6 succeeds against ``score``), from the system's own rule."""
    from rules_core.systems.gurps_4e.dice import success_roll

    ways = sum(1 for a in range(1, 7) for b in range(1, 7) for c in range(1, 7) if success_roll(a + b + c, score).success)
    return Fraction(ways, 216)


def _d20_at_most(value: int) -> Fraction:
    """P(an Eldfall attribute roll of a d20 succeeds against ``value``), from the system's own rule."""
    from rules_core.systems.eldfall.dice import attribute_roll

    return Fraction(sum(1 for face in range(1, 21) if attribute_roll(face, value) != "failure"), 20)


def bell_and_flat() -> widgets.VBox:
    """The chance of an unopposed success against the score, for 3d6 (GURPS) and a d20 (Eldfall):
    each +1 is worth the same on a d20 (5 points) but most in the middle of the bell."""
    scores = list(range(3, 21))
    bell = [_three_d6_at_most(s) for s in scores]
    flat = [_d20_at_most(s) for s in scores]
    fig = go.Figure([
        go.Scatter(x=scores, y=[float(p) for p in bell], mode="lines+markers", name="GURPS: 3d6 under the score",
                   line=dict(color="#0072B2"), customdata=[exact_text(p) for p in bell],
                   hovertemplate="score %{x}: %{customdata}<extra></extra>"),
        go.Scatter(x=scores, y=[float(p) for p in flat], mode="lines+markers", name="Eldfall: d20 under the attribute",
                   line=dict(color="#D55E00", dash="dash"), customdata=[exact_text(p) for p in flat],
                   hovertemplate="value %{x}: %{customdata}<extra></extra>")])
    fig.update_layout(title="Chance of an unopposed success", height=360, plot_bgcolor="white",
                      xaxis=dict(title="Score (GURPS Dodge, Eldfall attribute)", dtick=1),
                      yaxis=dict(title="Probability", range=[0, 1.02]), legend=dict(orientation="h", y=-0.3))
    rows = "".join(f"<tr data-key='{s}'><td>{s}</td><td data-col='gurps'>{exact_text(b)}</td><td>{percent_text(b)}</td>"
                   f"<td data-col='eldfall'>{exact_text(f)}</td><td>{percent_text(f)}</td></tr>"
                   for s, b, f in zip(scores, bell, flat))
    table = ("<table class='wb-grid'><thead><tr><th>score</th><th>GURPS 3d6</th><th></th><th>Eldfall d20</th>"
             "<th></th></tr></thead><tbody>" + rows + "</tbody></table>")
    box = widgets.VBox([_chart(fig, "wb-lesson-chart"), _html("wb-lesson-table", table)])
    box.add_class("wb-lesson")
    return box
