"""Infinity N4's own dashboard panels: the Order roll by roll, what happens to the dodger at the
end of the Order, the wounds, and the heatmap (one Order rolled on concrete faces is the
dashboard's "Roll the dice", :mod:`workbook.panels.classroom`).

Every panel but the heatmap is a pure function of a result; the heatmap is the workbook's sweep panel with its two fields preset
(:func:`heatmap_panel`). Exact numbers come from :mod:`rules_core.systems.infinity_n4`, shown as
``n/d`` beside the percent. Tables carry ``data-key`` on each row (the untranslated roll or
state) and ``data-col`` on each cell, so tests can read them in any language.
"""

from __future__ import annotations

import html
from fractions import Fraction

import plotly.graph_objects as go

from rules_core import Result, get_system
from rules_core.result import one_in
from rules_core.systems.infinity_n4.outcomes import DODGED, final_state_order
from rules_core.systems.infinity_n4.play import plan_order

from ..page.panel import PageContext
from ..panels.sweep import SweepPanel
from ..page.text import translator
from ..page.views import View, distribution_chart, exact_text, percent_text

__all__ = ["SYSTEM_ID", "VIEWS", "attack_rows", "attack_html", "final_state_html", "wounds_chart",
           "heatmap_panel"]

SYSTEM_ID = "infinity-n4"


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


class HeatmapPanel(SweepPanel):
    """The heatmap: the generic :class:`~workbook.panels.sweep.SweepPanel` preset to P(dodge
    succeeds) over the dodger's PH × the first attacker's attribute (its SV is that plus its
    MODs), the rest of the Order as set. The first attacker's Burst is the one in the form;
    any other field or quantity can be chosen in the panel. Collapsed, and built when first
    opened: it is 900 evaluations."""

    name, title, css, boxed = "heatmap", "Heatmap", "wb-view-heatmap", False

    @classmethod
    def for_page(cls, page: PageContext) -> HeatmapPanel:
        panel = cls(page.system, page.text, page.state.lang, field="dodger.ph", second="attackers.0.value",
                    quantity="p_dodge_succeeds", toggle=False,
                    note="The first attacker's Burst and MODs are those set above.")
        panel.page = page
        return panel


VIEWS = (
    View("The Order, roll by roll", attack_html),
    View("What happens to the dodger", final_state_html),
    View("Wounds", wounds_chart),
    HeatmapPanel,
)
