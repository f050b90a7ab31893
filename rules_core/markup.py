"""Plain HTML strings for a notebook's rich display of scenarios and results.

No UI library: these build text that Jupyter shows through ``_repr_html_``
(:meth:`rules_core.Result._repr_html_`, :meth:`rules_core.scenario.Part._repr_html_`). Every
value is escaped here; the callers pass plain text, or HTML made by these functions.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

__all__ = ["escape", "table", "cards", "details"]

_CELL = "padding:1px 8px;text-align:left;vertical-align:top"


def escape(text: object) -> str:
    """``text`` as HTML text (``<`` → ``&lt;``, quotes escaped).

    >>> escape("P(a<b) & 'c'")
    'P(a&lt;b) &amp; &#x27;c&#x27;'
    """
    return html.escape(str(text), quote=True)


def table(header: Sequence[str], rows: Iterable[Sequence[str]], css: str = "rc-table") -> str:
    """A compact table: ``header`` is plain text (escaped here), each cell of ``rows`` is HTML
    already (escape plain text with :func:`escape`)."""
    head = "".join(f"<th style='{_CELL}'>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td style='{_CELL}'>{cell}</td>" for cell in row) + "</tr>"
                   for row in rows)
    return (f"<table class='{escape(css)}' style='border-collapse:collapse;font-size:90%'>"
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")


def cards(items: Iterable[Sequence[str]]) -> str:
    """Headline cards side by side: each ``(title, big, small)`` or ``(title, big, small, hint)``
    in plain text (escaped here); ``hint`` shows when the pointer rests on the card."""
    shown = []
    for title, big, small, *more in items:
        hint = f" title='{escape(more[0])}'" if more and more[0] else ""
        shown.append(
            f"<div class='rc-card'{hint} style='border:1px solid #ccc;border-radius:6px;padding:4px 10px;"
            "margin:0 6px 6px 0;min-width:9em'>"
            f"<div class='rc-card-name' style='font-size:85%;color:#555'>{escape(title)}</div>"
            f"<div style='font-size:140%;font-weight:bold'>{escape(big)}</div>"
            f"<div style='font-size:85%;color:#555'>{escape(small)}</div></div>")
    return f"<div class='rc-cards' style='display:flex;flex-wrap:wrap'>{''.join(shown)}</div>"


def details(summary: str, body: str, css: str = "rc-details") -> str:
    """A folded block: ``summary`` in plain text (escaped here), ``body`` HTML."""
    return (f"<details class='{escape(css)}'><summary>{escape(summary)}</summary>"
            f"{body}</details>")
