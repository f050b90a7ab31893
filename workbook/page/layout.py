"""The page's look: headline cards, the style sheet that makes one page fit a phone, a laptop
and a projector, and the chart style (type sizes, colour-blind-safe palette, present mode).

Nothing here computes a number: :func:`headline_cards` lays out the rows of
:func:`workbook.page.views.headline_grid`, :func:`styled_figure` restyles a finished figure.

Headline cards (class ``wb-headline``): one card per headline quantity that has a value,
``div.wb-card[data-key=<key>]``; in it the percentage big (``.wb-card-big``), "1 in N" beside
it (``.wb-card-one-in``), and the exact fraction small (``[data-col=exact]``, its full text in
``data-value`` and in the tooltip; a long one is shortened on the card and shown whole on a
click). Quantities without a value in this scenario are one small line under the cards, each
``span[data-key]`` with an empty ``[data-col=exact]`` and the core's note.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable
from functools import cache
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from rules_core.result import decimal
from rules_core.scenario import Scenario
from rules_core.variants import house_rules

from .table import Table
from .text import lang_of, localised, plotly_separators

__all__ = ["heading", "titled", "headline_cards", "localised_figure", "percent_ticks", "house_rule_banner", "short_fraction", "style_figure", "styled_figure", "wrap_title",
           "page_css", "OKABE_ITO", "FONT_SIZE", "PRESENT_FONT_SIZE"]

#: Okabe & Ito's palette for colour-blind readers (Okabe and Ito, "Color Universal Design", 2008):
#: every chart of the workbook draws its series in these colours, in this order.
OKABE_ITO = {"blue": "#0072B2", "orange": "#E69F00", "bluish green": "#009E73",
             "vermillion": "#D55E00", "reddish purple": "#CC79A7", "sky blue": "#56B4E9",
             "yellow": "#F0E442", "black": "#000000", "grey": "#999999"}

#: Chart type size on a screen, and in present mode (a classroom projector: at least 18 px).
FONT_SIZE = 14
PRESENT_FONT_SIZE = 20
_HEIGHT, _PRESENT_HEIGHT = 320, 560
_LONG = 13  # characters of an exact fraction shown whole on a card
_TITLE_WIDTH = 34  # characters of a chart title's line (a phone's chart is ~360 px wide)
_TICK_WIDTH = 14  # characters of a line of a category name under a bar


def short_fraction(exact: str, room: int = _LONG) -> str:
    """``exact`` as it fits on a card: whole when short, else both numbers cut to their leading
    digits (the whole fraction is one click, or a hover, away).

    >>> short_fraction("47/500"), short_fraction("900024327/1250000000")
    ('47/500', '90002…/12500…')
    """
    if len(exact) <= room:
        return exact
    return "/".join(p if len(p) <= 6 else f"{p[:5]}…" for p in exact.split("/"))


def _number_text(value: float, lang: str = "en") -> str:
    return localised(decimal(value, 3) if abs(value) < 1000 else f"{value:,.0f}", lang)


def headline_cards(table: Table, text: Callable[[str], str] = str) -> str:
    """HTML of the headline cards for the rows of :func:`workbook.page.views.headline_grid`."""
    cards, absent = [], []
    for row in table.records():
        key, name = html.escape(str(row["key"]), quote=True), html.escape(str(row["name"]))
        if row["exact"] is None:
            # one sentence of clauses: each note's own full stop gives way to the "; " between them
            note = html.escape((row["note"] or text("not in this scenario")).rstrip(". "))
            absent.append(f'<span class="wb-card-absent" data-key="{key}">'
                          f'<span data-col="exact" data-value=""></span><b>{name}</b>: {note}</span>')
            continue
        exact = str(row["exact"])
        if row["percent_text"] is not None:
            big, beside = row["percent_text"], row["one_in"] or ""
        else:
            big, beside = _number_text(row["value"], lang_of(text)), text("on average")
        short = short_fraction(exact)
        exact_html = (f'<span class="wb-card-exact" data-col="exact" data-value="{exact}" '
                      f'title="{exact}">{exact}</span>' if short == exact else
                      f'<details class="wb-card-exact" data-col="exact" data-value="{exact}" '
                      f'title="{exact}"><summary>{html.escape(short)}</summary>'
                      f'<span class="wb-card-full">{exact}</span></details>')
        said = row.get("help")
        tip = f' title="{html.escape(str(said), quote=True)}"' if said else ""
        cards.append(f'<div class="wb-card" data-key="{key}"><div class="wb-card-name"{tip}>{name}</div>'
                     f'<div class="wb-card-value"><span class="wb-card-big">{html.escape(big)}</span>'
                     f' <span class="wb-card-one-in">{html.escape(beside)}</span></div>'
                     f'{exact_html}</div>')
    more = (f'<div class="wb-card-absents"><small>{text("Not in this scenario")}: '
            + "; ".join(absent) + ".</small></div>") if absent else ""
    return f'<div class="wb-cards">{"".join(cards)}</div>{more}'


def percent_ticks(low: float, high: float, lang: str = "en", count: int = 5) -> tuple[list[float], list[str]]:
    """Ticks for a probability axis from ``low`` to ``high`` (and a step beyond, for the
    headroom plotly leaves above a bar's label): about ``count`` steps of 1, 2 or 5 times a
    power of ten, each labelled as a percent the way ``lang`` writes one (the decimals the
    step needs, a minus sign for a negative difference).

    >>> vals, words = percent_ticks(0, 0.45, "ru")
    >>> vals[:3], [w.replace("\u00a0", "_") for w in words[:3]]
    ([0.0, 0.1, 0.2], ['0_%', '10_%', '20_%'])
    """
    span = (high - low) or max(abs(high), 1.0)
    raw = span / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw * (1 - 1e-9))
    decimals = max(0, -math.floor(math.log10(step * 100) + 1e-9))
    first, last = math.floor(low / step + 1e-9), math.ceil(high / step - 1e-9) + 1
    values = [round(i * step, 12) for i in range(first, last + 1)]
    words = [localised(f"{v * 100:.{decimals}f}%".replace("-", "\u2212"), lang) for v in values]
    words = [w.replace("\u22120", "0") if w.strip("\u22120,.%\u00a0") == "" else w for w in words]
    return values, words


def _axis_values(fig: go.Figure, axis: str) -> list[float]:
    """The numbers the traces of ``fig`` put on the layout axis ``axis`` (``yaxis``, ``yaxis2``,
    ``xaxis``): each trace's ``y`` (or ``x``) whose ``yaxis`` (or ``xaxis``) names it."""
    letter, number = axis[0], axis[len("xaxis"):]
    ref = letter + number
    values = []
    for trace in fig.data:
        if (getattr(trace, f"{letter}axis", None) or letter) != ref:
            continue
        for v in getattr(trace, letter, None) or ():
            if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
                values.append(float(v))
    return values


def localised_figure(fig: go.Figure, lang: str = "en") -> go.Figure:
    """``fig`` with its numbers written as ``lang`` writes them, changed in place and returned;
    an English figure is left as it is.

    plotly's layout ``separators`` give ticks and hover their decimal mark and thousands
    separator (Russian: a comma and a no-break space). plotly.js cannot put a space before the
    ``%`` of a ``tickformat`` (its number format takes a locale's decimal and thousands, not its
    percent sign), so an axis of percentages gets its ticks written here, from the figure's own
    data (:func:`percent_ticks`): the figure then reads the same in a dashboard, a notebook, the
    HTML report and a static image."""
    separators = plotly_separators(lang)
    if separators == plotly_separators("en"):
        return fig
    fig.layout.separators = separators
    for name in [n for n in fig.layout.to_plotly_json() if n.startswith(("xaxis", "yaxis"))]:
        axis = fig.layout[name]
        if not axis.tickformat or "%" not in axis.tickformat:
            continue
        values = _axis_values(fig, name)
        if axis.rangemode == "tozero" or not values:
            values.append(0.0)
        ticks, words = percent_ticks(min(values), max(values), lang)
        axis.update(tickmode="array", tickvals=ticks, ticktext=words, tickformat=None)
    return fig


def wrap_title(text: str, width: int = _TITLE_WIDTH) -> str:
    """A chart title broken into lines of at most about ``width`` characters (``<br>``), so
    that it fits a phone's narrow chart.

    >>> wrap_title("Dodger PH × first attacker's SV: P(dodge succeeds)", 30)
    "Dodger PH × first attacker's<br>SV: P(dodge succeeds)"
    """
    if len(text) <= width or "<br>" in text:
        return text
    lines, line = [], ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "<br>".join([*lines, line])


def _merge(into: dict[str, Any], update: dict[str, Any]) -> None:
    """``update`` merged into ``into`` as plotly's ``update_layout`` merges it: nested dicts key
    by key, every other value replaced."""
    for key, value in update.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value


@cache
def _has_textfont(kind: str) -> bool:
    """Whether plotly's traces of type ``kind`` have a ``textfont``."""
    return "textfont" in go.Figure({"data": [{"type": kind}]}).data[0]


def styled_figure(fig: go.Figure, present: bool = False) -> dict[str, Any]:
    """``fig`` as plotly's JSON-ready dict (``data``, ``layout``) in the workbook's type sizes and
    palette, larger for present mode (every text at least 18 px, taller), legends under the plot,
    title on the left so the plot's toolbar (top right) never covers it. ``fig`` is unchanged.

    Built on the plain dict, not on plotly's validated objects: a dashboard restyles every chart
    on every change, and the objects' validation took most of a change's time in the kernel."""
    size = PRESENT_FONT_SIZE if present else FONT_SIZE
    styled = fig.to_plotly_json()  # a copy
    data, layout = styled["data"], styled["layout"]
    old_title = (layout.get("title") or {}).get("text") or ""
    title = wrap_title(old_title, _TITLE_WIDTH * (2 if present else 1))
    lines = title.count("<br>") + 1 if title else 0
    update: dict[str, Any] = dict(
        font=dict(size=size), colorway=list(OKABE_ITO.values()),
        title=dict(text=title, x=0.01, xanchor="left", font=dict(size=round(size * 1.25))),
        hoverlabel=dict(font=dict(size=size)),
        # a label that does not fit its bar at the chart's size is left out rather than shrunk
        # to a few pixels (a phone's narrow bars); its value is on hover
        uniformtext=dict(minsize=size, mode="hide"))
    height = layout.get("height")
    if height is None or height <= _HEIGHT + 40:
        update["height"] = _PRESENT_HEIGHT if present else _HEIGHT
    elif present:
        update["height"] = round(height * 1.5)
    annotations = layout.get("annotations") or ()
    over = any(a.get("yref") == "paper" and (a.get("y") or 0) >= 1
               for a in annotations)  # subplot titles above the plots
    top = round(size * (1.6 + 1.6 * (lines + over)))
    old_top = (layout.get("margin") or {}).get("t")
    if old_top is not None:
        top = max(old_top, top)
    update["margin"] = dict(t=top)
    legend = layout.get("legend") or {}
    if legend.get("orientation") == "h" and legend.get("y") is not None and not 0 <= legend["y"] <= 1:
        # A legend outside the plot at the foot of the chart, below the x axis's title whatever
        # the chart's height (at a fraction of the plot's height it fell on the axis title on a
        # phone, or above the plot on a title wrapped onto two lines).
        update["legend"] = dict(yref="container", y=0, yanchor="bottom", x=0, xanchor="left")
    _merge(layout, update)
    # Long category names (outcomes) on two or three short lines rather than slanted.
    for trace in data:
        x = trace.get("x")
        if trace.get("type") == "bar" and x is not None and all(isinstance(v, str) for v in x):
            trace["x"] = [wrap_title(v, _TICK_WIDTH) for v in x]
    # A legend across the chart's foot: a long name on two lines, never wider than a phone's
    # chart ("Difference (Alternative reading − Current reading)" would run off its edge).
    if layout.get("legend", {}).get("orientation") == "h":
        for trace in data:
            if trace.get("name"):
                trace["name"] = wrap_title(trace["name"], _TITLE_WIDTH * (2 if present else 1))
    # Axis titles too may be long on a phone's chart: wrapped like the title; side by side
    # subplots share one title per text (the others would overlap it on a narrow screen).
    axes = sorted({"xaxis", "yaxis"} | {name for name in layout if name.startswith(("xaxis", "yaxis"))})
    side_by_side = sum(name.startswith("xaxis") for name in axes) > 1
    seen: set[str] = set()
    for name in axes:
        axis_title = (layout.get(name) or {}).get("title") or {}
        if not axis_title.get("text"):
            continue
        key = name[0] + axis_title["text"]
        if side_by_side and key in seen:
            axis_title["text"] = ""
            continue
        seen.add(key)
        # an x axis of side by side subplots has half the chart's width for its title
        width = (_TITLE_WIDTH - 4) // (2 if side_by_side and name.startswith("xaxis") else 1)
        axis_title["text"] = wrap_title(axis_title["text"], width)
    # Text set on a trace or an annotation (bar labels, line labels) at least the chart's size.
    for trace in data:
        if _has_textfont(trace.get("type", "scatter")):
            _merge(trace, {"textfont": {"size": size}})
    for note in annotations:
        font = note.get("font") or {}
        if font.get("size") is None or font["size"] < size:
            _merge(note, {"font": {"size": size}})
    return styled


def style_figure(fig: go.Figure, present: bool = False) -> go.Figure:
    """:func:`styled_figure` as a new plotly figure."""
    return go.Figure(styled_figure(fig, present))


_CSS = """
.wb-dashboard { box-sizing: border-box; max-width: 100%; }
.wb-dashboard * { box-sizing: border-box; }
.wb-dashboard .wb-title h2 { margin: 4px 0 0; font-size: 1.5rem; }
.wb-dashboard .wb-title p { margin: 2px 0 4px; color: #333; }
.wb-cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(128px, 1fr)); line-height: 1.25;
  gap: 8px; margin: 4px 0 6px; }
.wb-card { border: 1px solid #c8d3e0; border-radius: 8px; padding: 4px 8px; background: #f7faff;
  min-width: 0; }
.wb-card-name { font-size: 0.85rem; color: #333; line-height: 1.2; }
.wb-card-big { font-size: 1.6rem; font-weight: 700; color: #003f6b; line-height: 1.15; }
.wb-card-one-in { font-size: 0.95rem; color: #333; white-space: nowrap; }
.wb-card-exact { font-size: 0.75rem; color: #555; font-family: monospace; display: block;
  overflow-wrap: anywhere; }
.wb-card-exact summary { cursor: pointer; list-style: none; }
.wb-card-exact summary::-webkit-details-marker { display: none; }
.wb-card-absents { color: #555; margin: 0 0 6px; }
.wb-dashboard .widget-html > .widget-html-content { line-height: 1.4; }
.wb-dashboard .wb-notice-text { color: #8a1c00 !important; background: #fff3e6;
  border-left: 4px solid #D55E00; padding: 6px 10px; }
.wb-top-notice:empty { display: none; }
.wb-results.wb-stale .wb-cards, .wb-results.wb-stale .jp-OutputArea, .wb-results.wb-stale .wb-chart { opacity: 0.35; }
.wb-stale-banner { display: none; }
.wb-results.wb-stale .wb-stale-banner { display: block; font-weight: 600; color: #8a1c00;
  background: #fff3e6; padding: 4px 8px; border-left: 4px solid #D55E00; }
.wb-invalid input { border: 2px solid #D55E00 !important; background: #fff3e6 !important; }
.wb-field-reason { color: #8a1c00; font-size: 0.85rem; margin: -2px 0 6px; }
.wb-dashboard table { display: block; max-width: 100%; overflow-x: auto; }
.wb-dashboard td, .wb-dashboard th { overflow-wrap: normal; }
/* The rulings panel: each control's name above it, so that the choice has the panel's whole
   width, and the readings as radio buttons whose words wrap onto further lines: a reading runs
   to a sentence (38–145 characters) and none is cut. */
.wb-dashboard .wb-rulings .wb-rulings-field, .wb-dashboard .wb-rulings .wb-rulings-value { display: flex;
  flex-direction: column; align-items: stretch; height: auto !important; }
.wb-dashboard .wb-rulings .wb-rulings-field > .widget-label,
.wb-dashboard .wb-rulings .wb-rulings-value > .widget-label { width: auto !important; max-width: none !important;
  flex: 0 0 auto !important; justify-content: flex-start !important; text-align: left !important; }
.wb-dashboard .wb-rulings .wb-rulings-field select { width: 100%; max-width: 100%; }
.wb-rulings .wb-rulings-value .widget-radio-box label { height: auto; line-height: 1.3; display: flex;
  align-items: flex-start; gap: 6px; padding: 3px 0; white-space: normal; overflow-wrap: anywhere; }
.wb-rulings .wb-rulings-value .widget-radio-box input { order: -1; flex: 0 0 auto; height: auto; margin: 2px 0 0 1px; }
.wb-ruling-labels { margin: 4px 0; }
.wb-toolbar { gap: 6px; }
.wb-dashboard .widget-inline-hbox:has(> .widget-label:not(:empty)) { height: auto;
  min-height: var(--jp-widgets-inline-height, 28px); }
.wb-roll .jupyter-button, .wb-simulate .jupyter-button, .wb-analysis .jupyter-button {
  width: auto; min-width: 8em; max-width: 100%; padding: 0 12px; }
/* A chart redrawn at a new window width keeps its own height: plotly's resize measures the
   chart's box, which its first layer now fills (its layers are all laid over the box). */
.wb-dashboard .js-plotly-plot .svg-container, .wb-four .js-plotly-plot .svg-container { height: auto !important; }
.wb-dashboard .js-plotly-plot .svg-container > .main-svg:first-child,
.wb-four .js-plotly-plot .svg-container > .main-svg:first-child { position: relative !important; display: block; }
.wb-dashboard .jupyter-widgets.widget-html-content, .wb-dashboard .widget-html-content { max-width: 100%; }
/* A label wraps onto a second line rather than being cut ("Продвижение Навыка Dodge", "Heatmap
   with"), and a button is as wide as its words ("Play these faces"). */
.wb-dashboard .widget-inline-hbox > .widget-label { white-space: normal; height: auto; min-height: var(--jp-widgets-inline-height, 28px);
  line-height: 1.15; overflow: visible; text-overflow: clip; display: flex; align-items: center;
  justify-content: flex-end; text-align: right; }
/* A list's item removed from the end, kept hidden for the next one added (workbook.page.controls._List). */
.wb-part.wb-spare { display: none !important; }
/* The form's sections (workbook.page.controls.Section): a header button folds or unfolds each; until
   the reader chooses, open on a wide screen and folded on a phone. */
.wb-section > .wb-section-fold, .wb-section > .wb-section-unfold { background: transparent; box-shadow: none;
  border: none; font-weight: 600; text-align: left; padding: 0 2px; margin: 2px 0; color: #1a1a1a;
  height: auto; min-height: var(--jp-widgets-inline-height, 28px); white-space: normal; }
.wb-section > .wb-section-fold:hover, .wb-section > .wb-section-unfold:hover { background: #eef3f9; }
.wb-section.wb-section-open > .wb-section-unfold, .wb-section.wb-section-closed > .wb-section-fold,
.wb-section.wb-section-closed > .wb-section-body { display: none !important; }
@media (min-width: 761px) {
  .wb-section:not(.wb-section-open):not(.wb-section-closed) > .wb-section-unfold { display: none !important; }
}
@media (max-width: 760px) {
  .wb-section:not(.wb-section-open):not(.wb-section-closed) > .wb-section-fold,
  .wb-section:not(.wb-section-open):not(.wb-section-closed) > .wb-section-body { display: none !important; }
}

/* A phone, a narrow window, or a narrow notebook area in JupyterLab (the file browser open):
   what counts is the width the dashboard has, so the dashboard is a size container and its
   layout follows a container query; only the page around it follows the window. */
.wb-dashboard { container: wb-page / inline-size; }
@media (max-width: 760px) {
  .wb-dashboard { padding: 0 4px; }
  .jp-RenderedMarkdown h1 { font-size: 1.45rem; margin-top: 0.3em; }
  .jp-RenderedMarkdown p { margin-bottom: 0.4em; }
}
/* Too narrow for the numbers beside the controls: one column, the numbers first. */
@container wb-page (max-width: 760px) {
  .wb-main { flex-direction: column !important; }
  .wb-results { padding: 0 !important; width: 100% !important; flex: 0 0 auto !important; }
  .wb-controls { max-height: none !important; overflow: visible !important; max-width: 100% !important;
    width: 100% !important; flex: 0 0 auto !important; }
  .wb-controls .widget-inline-hbox, .wb-rulings .widget-inline-hbox { height: auto !important;
    min-height: var(--jp-widgets-inline-height, 28px); }
  .wb-controls .widget-inline-hbox .widget-label, .wb-rulings .widget-inline-hbox .widget-label {
    min-width: 0; width: 40% !important; max-width: 40% !important; flex: 0 0 40%; }
  .wb-controls .widget-slider, .wb-controls .widget-dropdown, .wb-controls .widget-text,
  .wb-controls .widget-checkbox, .wb-rulings .widget-dropdown {
    width: 100% !important; max-width: 100% !important; }
  .wb-controls .widget-dropdown select, .wb-rulings .widget-dropdown select { min-width: 0;
    width: 100%; max-width: 100%; flex: 1 1 auto; }
  .wb-toolbar .widget-dropdown { width: auto !important; }
  .wb-dashboard .widget-hslider .slider-container { min-width: 0; }
  .wb-dashboard .wb-help { margin-left: 0 !important; }
  .wb-dashboard .widget-html[style*="margin"] { margin-left: 0 !important; }
  .wb-dashboard .modebar-container { display: none; }
  .wb-cards { grid-template-columns: 1fr 1fr; gap: 6px; }
  .wb-card { padding: 4px 8px; }
  .wb-card-big { font-size: 1.35rem; }
  .wb-card-one-in { font-size: 0.85rem; }
  .wb-dashboard .widget-box, .wb-dashboard .widget-vbox, .wb-dashboard .widget-hbox { max-width: 100%; min-width: 0; }
}

/* Present mode: a projector at 1920 px, everything larger and the full width. */
.wb-present { max-width: none !important; font-size: 20px; }
.wb-present .wb-title h2 { font-size: 2.4rem; }
.wb-present .wb-cards { grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); }
.wb-present .wb-card-name { font-size: 1.2rem; }
.wb-present .wb-card-big { font-size: 3rem; }
.wb-present .wb-card-one-in { font-size: 1.4rem; }
.wb-present .wb-card-exact { font-size: 1rem; }
.wb-present .wb-main { flex-direction: column !important; }
.wb-present .wb-results { padding: 0 !important; flex: 0 0 auto !important; width: 100%; }
.wb-present .wb-controls { max-height: none !important; max-width: none !important; }
body:has(.wb-present) .jp-RenderedMarkdown { font-size: 22px; }
body:has(.wb-present) .jp-RenderedMarkdown h1 { font-size: 2.2rem; }
.wb-present .wb-card-absents small, .wb-present .wb-preset-info small, .wb-present .wb-ruling-labels,
.wb-present .wb-notice-text { font-size: 18px; }
.wb-present .widget-html-content { font-size: 20px; }
.wb-present .widget-label, .wb-present .widget-readout, .wb-present select,
.wb-present input, .wb-present button, .wb-present table { font-size: 18px !important; }
"""


def heading(title: str) -> str:
    """A part's title on the page (HTML, escaped)."""
    return f"<h4 style='margin:8px 0 2px'>{html.escape(title)}</h4>"


def titled(title: str, *children: widgets.Widget) -> widgets.VBox:
    """A titled block of the page: ``title`` (plain text) above ``children``. Every titled part
    of a dashboard is made here (the outcome table, the trace, the views, the parts of
    "Compare, sweep, export")."""
    return widgets.VBox([widgets.HTML(heading(title)), *children])


def numbers_first(results: list[widgets.Widget], controls: list[widgets.Widget]) -> tuple[widgets.Box, widgets.VBox]:
    """A dashboard's main row and its ``results`` box: the numbers first (the headline cards and
    the outcome chart at the top left), the ``controls`` beside them, scrolling in their own box
    on a wide screen so that the numbers stay in view, and below them in the page's own flow on a
    phone (the style sheet's ``wb-main``, ``wb-results``, ``wb-controls``)."""
    box = widgets.Box(controls, layout=widgets.Layout(flex="1 1 380px", max_width="36em", max_height="88vh",
                                                      overflow="auto", flex_flow="column"))
    box.add_class("wb-controls")
    shown = widgets.VBox(results, layout=widgets.Layout(flex="1 1 560px", padding="0 16px 0 0", overflow="visible"))
    shown.add_class("wb-results")
    row = widgets.Box([shown, box], layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"))
    row.add_class("wb-main")
    return row, shown


def page_css() -> str:
    """The ``<style>`` element of the workbook's pages (dashboards and the index)."""
    return f"<style>{_CSS}</style>"


def house_rule_banner(scenario: Scenario, text: Callable[[str], str] = str) -> str:
    """HTML of one line per house rule of ``scenario`` (:func:`rules_core.variants.house_rules`),
    to stand above the headline cards: ``div.wb-house-rule``, each rule a ``div[data-path]``
    ("House rule: MOD cap (±) **9** (official 12)", its source in the tooltip), in the page's
    language (``text``); ``""`` under the official rule."""
    def shown(value: Any) -> str:
        return html.escape(text(str(value).lower() if isinstance(value, bool) else str(value)))

    lines = "".join(
        f'<div data-path="{html.escape(rule.path, quote=True)}" '
        f'title="{html.escape(text(rule.citation), quote=True)}">'
        f"<b>{html.escape(text('House rule'))}</b>: {html.escape(text(rule.label))} "
        f"<b>{shown(rule.value)}</b> ({html.escape(text('official'))} {shown(rule.official)})</div>"
        for rule in house_rules(scenario))
    return lines and ('<div class="wb-house-rule" role="note" style="border-left: 4px solid #E69F00; '
                      f'background: #fff6e0; color: #222; padding: 2px 8px; margin: 0 0 6px">{lines}</div>')
