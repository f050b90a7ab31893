"""GURPS 4e's own dashboard panels.

- *Dodge roll (3d6)*: the bell of 3d6 with the success line at the effective Dodge (and the
  lines an acrobatic dodge moves it to), criticals marked;
- *Hits landing and dodged*: both distributions for a turn of attacks;
- *Injury*: the total injury with the line where the dodger goes down, P(down), P(major wound);
- *Sacrificial dodge*: who is hit when the dodger protects a friend from the first attack, and
  what throwing himself on the explosive does — with its numbers in a table;
- *Diving for cover*: injury diving against injury caught where he stands — and what cover a step
  away is worth (none, with DR, complete).

The sacrificial and diving panels always show numbers: for the situation chosen they show the
result itself; otherwise they evaluate the same dodger in that situation (the first attack aimed
at a friend; the blast set under "Blast"), and say so. Every panel is a pure function of a result.
"""

from __future__ import annotations

import html
from fractions import Fraction

import plotly.graph_objects as go

from rules_core import Result, ScenarioError, get_system
from rules_core.result import decimal
from rules_core.systems.gurps_4e.dice import ROLL_3D6, TOTALS, success_roll, success_weight
from rules_core.systems.gurps_4e.scenario import GurpsVariant
from rules_core.systems.gurps_4e.play import attack_context, defense_option, dodge_score, sacrificial_context
from rules_core.systems.gurps_4e.scenario import GurpsScenario

from ..page.table import Table
from ..page.text import headline_label, translator
from ..page.views import View, evaluate_cached, exact_bar, exact_text, percent_text, table_html

__all__ = ["SYSTEM_ID", "VIEWS", "dodge_scores", "dodge_bell", "hits_chart", "injury_chart", "as_situation",
           "sacrificial_chart", "sacrificial_numbers", "sacrificial_table", "dive_chart", "cover_numbers",
           "dive_table"]

SYSTEM_ID = "gurps-4e"

_AXIS = dict(gridcolor="#e6e6e6", zerolinecolor="#bbbbbb", linecolor="#bbbbbb", automargin=True)
_TEMPLATE = {"layout": {"plot_bgcolor": "white", "paper_bgcolor": "white", "font": {"size": 12}}}
_COLORS = ("#0072B2", "#E69F00", "#009E73", "#999999", "#D55E00", "#CC79A7")  # Okabe–Ito
_ROLL_KIND_COLORS = {"critical success": _COLORS[5], "success": _COLORS[0], "failure": _COLORS[3],
                     "critical failure": _COLORS[4]}


def _text(result: Result, lang: str):
    return translator(get_system(result.system), lang)


def _layout(title: str, xtitle: str, ytitle: str, **more) -> dict:
    return dict(title=dict(text=title), template=_TEMPLATE, height=340, margin=dict(l=60, r=20, t=60, b=60),
                bargap=0.2, xaxis=dict(_AXIS, title=dict(text=xtitle), **more.pop("xaxis", {})),
                yaxis=dict(_AXIS, title=dict(text=ytitle), tickformat=".0%", rangemode="tozero"), **more)


def _bar(x: list, probs: list[Fraction], name: str, color, **more) -> go.Bar:
    return exact_bar(x, probs, name, color, labels=False, **more)


def _note(text: str) -> str:
    return f'<p class="wb-gurps-note">{html.escape(text)}</p>'


# -- the Dodge roll --------------------------------------------------------------------------------

def dodge_scores(scenario: GurpsScenario) -> list[tuple[str, int]]:
    """(what it is against, effective Dodge before any Acrobatics roll) for each distinct Dodge
    the scenario can roll: the first attack, and the foe's later attacks after a dodge and drop."""
    if scenario.situation in ("smother", "dive"):
        return [("the blast", dodge_score(scenario, "blast", False).value)]
    if scenario.situation == "sacrificial":
        return [("the attack on the friend", sacrificial_context(scenario).dodge.value)]
    scores = [("attack 1", attack_context(scenario, 0, False).dodge.value)]
    if len(scenario.attacks) > 1 and defense_option(scenario) == "dodge_and_drop":
        later = attack_context(scenario, 1, True).dodge.value
        if later != scores[0][1]:
            scores.append(("later attacks, after the drop", later))
    return scores


def _kind(roll: int, score: int, rules: GurpsVariant) -> str:
    r = success_roll(roll, score, rules)
    return ("critical success" if r.critical else "success") if r.success else \
        ("critical failure" if r.critical else "failure")


def dodge_bell(result: Result, lang: str = "en") -> go.Figure | str:
    """3d6 totals, coloured by what each does against the (first) Dodge, with the success line."""
    text = _text(result, lang)
    s = result.scenario
    if defense_option(s) == "none":
        return _note(text("No active defense: no Dodge is rolled."))
    scores = dodge_scores(s)
    against, score = scores[0]
    probs = [ROLL_3D6[t] for t in TOTALS]
    rules = s.variant  # the success roll's bounds, official or a house rule's
    kinds = [_kind(t, score, rules) for t in TOTALS]
    traces = [_bar([t for t, k in zip(TOTALS, kinds) if k == kind], [p for p, k in zip(probs, kinds) if k == kind],
                   text(kind.capitalize()), color) for kind, color in _ROLL_KIND_COLORS.items() if kind in kinds]
    chance = Fraction(success_weight(score, rules), 216)
    lines = [(score, f"{text('Dodge')} {score}: {percent_text(chance)}", _COLORS[0])]
    if s.dodger.acrobatic:
        made = Fraction(success_weight(s.dodger.acrobatics, rules), 216)
        for shift, word in ((2, "Acrobatics made"), (-2, "Acrobatics missed")):
            p = Fraction(success_weight(score + shift, rules), 216)
            lines.append((score + shift, f"{text(word)} ({percent_text(made if shift > 0 else 1 - made)}): "
                                         f"{score + shift}, {percent_text(p)}", _COLORS[1]))
        chance = (made * Fraction(success_weight(score + 2, rules), 216)
                  + (1 - made) * Fraction(success_weight(score - 2, rules), 216))
    for later_what, later in scores[1:]:
        lines.append((later, f"{text(later_what.capitalize())}: {later}", _COLORS[2]))
    return go.Figure(data=traces, layout=_layout(
        f"{text('3d6 against Dodge')} {score} ({text(against)}): {text('succeeds')} {percent_text(chance)} "
        f"= {exact_text(chance)}", text("3d6 total"), text("Probability"),
        xaxis=dict(dtick=1, range=[2.4, 18.6]), barmode="stack", legend=dict(orientation="h", y=-0.25),
        **_marks([(min(max(value, 2), 18) + 0.5, label, color) for value, label, color in lines])))


def _marks(lines: list[tuple[float, str, str]]) -> dict:
    """Dashed vertical lines at x, each labelled at the top (one below the other)."""
    return dict(shapes=[dict(type="line", x0=x, x1=x, y0=0, y1=1, yref="paper", line=dict(color=color, dash="dash"))
                        for x, _, color in lines],
                annotations=[dict(x=x, y=1 - 0.09 * i, xref="x", yref="paper", text=label, showarrow=False,
                                  xanchor="left", font=dict(color=color), bgcolor="rgba(255,255,255,0.8)")
                             for i, (x, label, color) in enumerate(lines)])


# -- hits and injury -------------------------------------------------------------------------------

def hits_chart(result: Result, lang: str = "en") -> go.Figure | str:
    """Hits landing and hits dodged over the turn, side by side."""
    text = _text(result, lang)
    if "hits_dodged" not in result.distributions:
        return _note(text("Hits dodged are counted for a turn of attacks on the dodger."))
    dodged = result.distributions["hits_dodged"]
    most = max(max(result.hits.outcomes()), max(dodged.outcomes()))
    ks = list(range(most + 1))
    traces = [_bar(ks, [result.hits[k] for k in ks], text("Hits landing"), _COLORS[4]),
              _bar(ks, [dodged[k] for k in ks], text("Hits dodged"), _COLORS[0])]
    return go.Figure(data=traces, layout=_layout(
        f"{text('Hits landing')}: {text('expected')} {float(result.hits.mean()):.3g}; {text('hits dodged')}: "
        f"{text('expected')} {float(dodged.mean()):.3g}", text("Hits"), text("Probability"),
        xaxis=dict(dtick=1), barmode="group", legend=dict(orientation="h", y=-0.25)))


def injury_chart(result: Result, lang: str = "en") -> go.Figure:
    """The dodger's total injury, with the line at the HP (or FP) left: at or past it, down."""
    text = _text(result, lang)
    pool, left = result.scenario.pool()
    injury = result.distributions["injury"]
    values = list(range(max(injury.outcomes()) + 1))
    down = result.headline["p_down"]
    title = f"{text('Total injury')} ({pool}): {text('expected')} {float(result.headline['expected_injury']):.3g}; " \
            f"P({text('down')}) {percent_text(down)}"
    major = result.headline["p_major_wound"]
    if major is not None:
        title += f"; P({text('major wound')}) {percent_text(major)}"
    colors = [_COLORS[4] if v >= left else _COLORS[2] for v in values]
    return go.Figure(data=[_bar(values, [injury[v] for v in values], text("Injury"), colors)],
                     layout=_layout(title, f"{text('Injury')} ({pool})", text("Probability"), showlegend=False,
                                    **_marks([(left - 0.5, f"{pool} {text('left')} {left}: {text('down')}",
                                               _COLORS[4])])))


# -- sacrificial dodge and diving for cover ------------------------------------------------------

def as_situation(scenario: GurpsScenario, situation: str) -> tuple[GurpsScenario | None, str]:
    """The scenario in another situation, with the same dodger, for the what-if panels: the
    first attack aimed at the friend (a sacrificial dodge and drop against a ranged attack, a
    plain sacrificial dodge against a melee one), the explosive within a step, or the dive — the
    dodger reacting (a dodger with no defense throws himself on it, or dives, in the what-if).
    Returns (scenario, "") or (None, why it cannot be)."""
    if scenario.situation == situation:
        return scenario, ""
    changes: dict = {"situation": situation}
    if situation == "sacrificial":
        first = scenario.attacks[0]
        changes["attacks"] = (first,)
        changes["dodger"] = scenario.dodger.replace(
            defense="dodge_and_drop" if first.kind == "ranged" else "plain")
    elif situation == "smother":
        changes["blast"] = scenario.blast.replace(spread="explosion", distance=min(scenario.blast.distance, 1))
    if situation in ("smother", "dive") and scenario.dodger.defense == "none":
        changes["dodger"] = scenario.dodger.replace(defense="plain")  # "none" there is not reacting
    try:
        return scenario.replace(**changes), ""
    except ScenarioError as err:
        return None, "; ".join(f"{p.field}: {p.allowed}" for p in err.problems)


def _evaluate(scenario: GurpsScenario) -> Result:
    """The result of a what-if scenario, computed once per scenario (the dashboard's own result
    included: see :func:`workbook.page.views.evaluate_cached`)."""
    return evaluate_cached(get_system(scenario.system), scenario)


def _in(result: Result, situation: str) -> tuple[Result | None, str]:
    if result.scenario.situation == situation:
        return result, ""
    scenario, why = as_situation(result.scenario, situation)
    if scenario is None:
        return None, why
    return _evaluate(scenario), "what-if"


_SACRIFICIAL_KEYS = ("p_dodge_succeeds", "p_no_hit", "expected_injury", "p_down", "p_major_wound",
                     "p_friend_hit", "expected_friend_injury")


def sacrificial_chart(result: Result, lang: str = "en") -> go.Figure | str:
    """Who is hit when protecting a friend from the first attack (left), and what throwing
    oneself on the explosive leaves (right): the dodger's and the friend's injury."""
    text = _text(result, lang)
    protect, why = _in(result, "sacrificial")
    smother, why_smother = _in(result, "smother")
    if protect is None and smother is None:
        return _note(text("Not possible with these settings") + f": {why}; {why_smother}")
    traces, names = [], []
    if protect is not None:
        labels, probs = zip(*protect.outcome_rows())
        traces.append(_bar([text(lab) for lab in labels], list(probs), text("Protecting a friend"), _COLORS[0]))
        names.append(text("Protecting a friend from the first attack") + (f" ({text('what-if')})" if why else ""))
    if smother is not None:
        for dist, name, color in ((smother.distributions["injury"], "Dodger's injury", _COLORS[4]),
                                  (smother.distributions["friend_injury"], "Friend's injury", _COLORS[2]),
                                  (smother.distributions["friend_injury_unprotected"],
                                   "Friend's injury with nobody on it", _COLORS[3])):
            values = list(range(max(dist.outcomes()) + 1))
            traces.append(_bar(values, [dist[v] for v in values], text(name), color, xaxis="x2", yaxis="y2"))
        names.append(text("On the explosive: injury") + (f" ({text('what-if')})" if why_smother else ""))
    both = protect is not None and smother is not None
    axis_y = dict(_AXIS, tickformat=".0%", rangemode="tozero")
    layout = dict(title=dict(text=text("Sacrificial dodge")), template=_TEMPLATE, height=420, barmode="group",
                  margin=dict(l=60, r=20, t=100, b=90), legend=dict(orientation="h", y=1.18, x=0),
                  xaxis=dict(_AXIS, domain=[0, 0.47] if both else [0, 1], title=dict(text=names[0]),
                             tickangle=-20),
                  yaxis=dict(axis_y, title=dict(text=text("Probability"))))
    if smother is not None:
        layout |= dict(xaxis2=dict(_AXIS, domain=[0.53, 1] if both else [0, 1], title=dict(text=names[-1])),
                       yaxis2=dict(axis_y, anchor="x2"))
    return go.Figure(data=traces, layout=layout)


def _cell(key: str, value: Fraction | None) -> str | None:
    if value is None:
        return None
    shown = percent_text(value) if key.startswith("p_") else decimal(value)
    return f"{exact_text(value)} ({shown})"


def _table(table: Table | str, lang: str, result: Result) -> str:
    """A table in HTML whose rows carry ``data-key`` (the key column is not shown)."""
    if isinstance(table, str):
        return table
    return table_html(table, {c: c for c in table.columns if c != "key"}, "wb-gurps-grid", _text(result, lang))


def sacrificial_numbers(result: Result, lang: str = "en") -> Table:
    """The sacrificial numbers, exactly: protecting a friend and throwing oneself on the explosive
    (one row per headline quantity, ``key`` its name)."""
    text = _text(result, lang)
    columns = {}
    for situation, name in (("sacrificial", "Protecting a friend"), ("smother", "On the explosive")):
        found, why = _in(result, situation)
        columns[text(name) + (f" ({text('what-if')})" if why == "what-if" else "")] = found
    rows = [{"key": key, text("Quantity"): text(headline_label(key)),
             **{name: (_cell(key, r.headline[key]) if r is not None else text("not possible"))
                for name, r in columns.items()}} for key in _SACRIFICIAL_KEYS]
    return Table.of(rows)


def dive_chart(result: Result, lang: str = "en") -> go.Figure | str:
    """The dodger's injury diving for cover against staying where he is, caught by the blast."""
    text = _text(result, lang)
    dive, why = _in(result, "dive")
    if dive is None:
        return _note(text("Not possible with these settings") + f": {why}")
    injury, caught = dive.distributions["injury"], dive.distributions["injury_if_caught"]
    values = list(range(max(max(injury.outcomes()), max(caught.outcomes())) + 1))
    traces = [_bar(values, [injury[v] for v in values], text("Diving for cover"), _COLORS[0]),
              _bar(values, [caught[v] for v in values], text("Caught where he stands"), _COLORS[3])]
    title = (f"{text('Diving for cover')}{' (' + text('what-if') + ')' if why else ''}: "
             f"{text('expected injury')} {float(injury.mean()):.3g} {text('against')} {float(caught.mean()):.3g}")
    return go.Figure(data=traces, layout=_layout(title, text("Injury"), text("Probability"), barmode="group",
                                                 legend=dict(orientation="h", y=-0.25)))


def sacrificial_table(result: Result, lang: str = "en") -> str:
    """:func:`sacrificial_numbers` as the page shows it."""
    return _table(sacrificial_numbers(result, lang), lang, result)


def cover_numbers(result: Result, lang: str = "en") -> Table | str:
    """What cover a step away is worth: the dive's numbers with no cover, with the cover's DR,
    and with complete cover (the blast and the dodger as set); a note when no dive is possible."""
    text = _text(result, lang)
    dive, why = _in(result, "dive")
    if dive is None:
        return _note(text("Not possible with these settings") + f": {why}")
    s = dive.scenario
    columns = {}
    for kind, name in (("none", "No cover"), ("dr", f"Cover DR {s.cover.dr}"), ("full", "Complete cover")):
        try:
            columns[text(name)] = _evaluate(s.replace(cover=s.cover.replace(kind=kind)))
        except ScenarioError:  # e.g. a flyer who cannot get below concealing terrain
            columns[text(name)] = None
    rows = [{"key": key, text("Quantity"): text(headline_label(key)),
             **{name: (_cell(key, r.headline[key]) if r is not None else text("not possible"))
                for name, r in columns.items()}}
            for key in ("p_dodge_succeeds", "p_no_hit", "expected_injury", "p_down", "p_major_wound")]
    return Table.of(rows)


def dive_table(result: Result, lang: str = "en") -> str:
    """:func:`cover_numbers` as the page shows it."""
    return _table(cover_numbers(result, lang), lang, result)


VIEWS = (
    View("Dodge roll (3d6)", dodge_bell),
    View("Hits landing and dodged", hits_chart),
    View("Injury", injury_chart),
    View("Sacrificial dodge", sacrificial_chart),
    View("Sacrificial dodge: numbers", sacrificial_table),
    View("Diving for cover", dive_chart),
    View("Diving for cover: what cover is worth", dive_table),
)
