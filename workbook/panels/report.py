"""The parts of a self-contained HTML report: an interactive figure (:func:`figure_div`), the
document around the parts (:func:`report_document`), and an open panel of the page as a section
(:func:`panel_section`). The report itself is :mod:`workbook.panels.export`'s."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import plotly.graph_objects as go
import plotly.io as pio
from plotly.offline import get_plotlyjs

from ..page.views import Rendered, view_html

__all__ = ["figure_div", "report_document", "rendered_html", "panel_html", "panel_section"]

_REPORT_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:1100px;
padding:16px;color:#222;line-height:1.4}
h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.2em;margin:1.2em 0 .4em;border-bottom:1px solid #ddd}
.wb-report-headline{display:flex;flex-wrap:wrap;gap:10px}
.wb-report-card{border:1px solid #ccd;border-radius:8px;padding:8px 12px;min-width:150px;flex:1 1 150px}
.wb-report-card .name{font-size:.85em;color:#555}.wb-report-card .value{font-size:1.6em;font-weight:600}
.wb-report-card .exact{font-size:.8em;color:#555;overflow-wrap:anywhere}
table{border-collapse:collapse;max-width:100%;display:block;overflow-x:auto}
td,th{padding:2px 10px;text-align:left;border-bottom:1px solid #eee}
.wb-cite{color:#666}pre{background:#f6f6f6;padding:8px;overflow-x:auto}
.wb-report-share a{overflow-wrap:anywhere}
"""


def figure_div(fig: go.Figure, css: str) -> str:
    """``fig`` as an interactive plotly ``<div>`` (classed ``css``) for a report: drawn by the
    plotly script :func:`report_document` puts in the file."""
    div = pio.to_html(fig, full_html=False, include_plotlyjs=False, include_mathjax=False,
                      config={"displaylogo": False, "responsive": True})
    return f'<div class="{css}">{div}</div>'


def report_document(heading: str, parts: Sequence[str], lang: str = "en") -> str:
    """One self-contained HTML file titled ``heading`` holding ``parts`` (HTML), the report's
    style sheet and plotly's script: it opens offline and requests nothing from the network."""
    return ("<!DOCTYPE html>\n<html lang=\"" + html.escape(lang) + "\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{html.escape(heading)}</title><style>{_REPORT_CSS}</style>"
            f"<script type=\"text/javascript\">{get_plotlyjs()}</script></head><body>"
            + "\n".join(parts) + "</body></html>\n")


def rendered_html(thing: Rendered | None, text: Callable[[str], str], css: str) -> str:
    """A view's output as report HTML: a figure drawn, a table laid out, HTML as it is."""
    if thing is None:
        return ""
    if isinstance(thing, go.Figure):
        return figure_div(thing, css)
    return view_html(thing, text)


def panel_html(panel: Any, text: Callable[[str], str]) -> str:
    """What an open panel of the page shows: an A/B pair (its words, both sets of cards, the
    chart, the table, the trace lines that differ) or a chart (a sweep); "" when it shows
    nothing yet."""
    compare = getattr(panel, "compare", None)
    if compare is not None and getattr(compare, "comparison", None) is not None:
        chart = figure_div(compare.figure, "wb-report-pair-chart") if compare.figure is not None else ""
        return "".join([f'<div class="wb-report-pair-words">{panel.help.value}</div>', compare.cards.value,
                        chart, compare.table.value, f'<div class="wb-report-pair-trace">{compare.trace.value}</div>'])
    figure = getattr(panel, "figure", None)
    return figure_div(figure, "wb-report-view-chart") if isinstance(figure, go.Figure) else ""


def panel_section(panel: Any, title: str, css: str, text: Callable[[str], str], lead: str = "") -> str:
    """An open A/B panel of the page (the rulings, Design) as a report section: ``title``, the
    ``lead`` (HTML), and what the panel shows (:func:`panel_html`); "" when it shows nothing."""
    body = panel_html(panel, text)
    return (f'<section class="{css}"><h2>{html.escape(text(title))}</h2>{lead}{body}</section>'
            if body else "")
