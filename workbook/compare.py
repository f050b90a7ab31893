"""Loadout A against B: "Pin as A" keeps the current scenario; every change after it is B.

:class:`ComparePanel` shows both sets of headline cards, each difference in percentage points
and exactly, both outcome distributions (and B − A) on one chart, and the lines of the rule's
trace that differ. The same panel compares a ruling: :meth:`ComparePanel.show_pair` takes any
two results (B = A with another reading), so there is one mechanism for both.

The share link carries A as ``pin=<A's own query>`` (:func:`pin_query`, :func:`read_pin`),
beside B's fields, so a link reopens both.

CSS classes: ``wb-ab`` (``wb-ab-pin``, ``wb-ab-unpin``, ``wb-ab-status``, ``wb-ab-cards``
with ``div.wb-ab-card[data-key]`` holding ``[data-side=a]``, ``[data-side=b]`` and
``[data-side=difference]`` (exact ``n/d`` in ``data-exact``), ``wb-ab-chart``, ``wb-ab-table``,
``wb-ab-trace``).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from fractions import Fraction
from typing import Any
from urllib.parse import parse_qsl, quote

import ipywidgets as widgets
import plotly.graph_objects as go

from rules_core import Result, System
from rules_core.compare import Comparison
from rules_core.scenario import Scenario

from .share import decode_query, encode_query
from .text import headline_label
from .chart import chart
from .views import compare_chart, exact_text, percent_text

__all__ = ["ComparePanel", "comparison_table_html", "cards_html", "pin_query", "read_pin", "PIN_KEY"]

Text = Callable[[str], str]

#: The share-link key that carries the pinned scenario A.
PIN_KEY = "pin"


def pin_query(system: System, a: Scenario, lang: str | None = None) -> str:
    """``pin=<A's query, quoted>``: appended to B's link, it reopens the comparison."""
    return f"{PIN_KEY}={quote(encode_query(system, a, lang), safe='')}"


def read_pin(system: System, query: str | None) -> tuple[Scenario | None, str]:
    """The pinned scenario A a link carries (None when it carries none) and a notice when the
    pin is refused ("" otherwise)."""
    if not query:
        return None, ""
    try:
        pairs = parse_qsl(query.lstrip("?"), keep_blank_values=True, max_num_fields=400)
    except ValueError:
        return None, "The link names too many fields; A is not pinned."
    pins = [v for k, v in pairs if k == PIN_KEY]
    if not pins:
        return None, ""
    if len(pins) > 1:
        return None, "The link pins A more than once; A is not pinned."
    shared = decode_query(system, pins[0])
    if shared.scenario is None:
        return None, f"The pinned scenario A was refused: {shared.notice or 'it names no scenario'}"
    return shared.scenario, ""


def _value_text(key: str, value: Fraction | None) -> str:
    if value is None:
        return "—"
    return percent_text(value) if key.startswith("p_") else f"{float(value):.4g}"


def _difference_text(key: str, diff: Fraction | None) -> str:
    if diff is None:
        return "—"
    if key.startswith("p_"):
        return f"{float(diff) * 100:+.2f} pp"
    return f"{float(diff):+.4g}"


def cards_html(comparison: Comparison, text: Text = str, names: tuple[str, str] = ("A", "B")) -> str:
    """Both sets of headline cards: per quantity A's value, B's value and B − A (in percentage
    points for probabilities, and exactly)."""
    cards = []
    for d in comparison.differences():
        diff = d.difference
        exact = "" if diff is None else exact_text(diff)
        cards.append(
            f'<div class="wb-ab-card" data-key="{html.escape(d.key, quote=True)}" '
            f'style="border:1px solid #ccd;border-radius:8px;padding:6px 10px;min-width:11em;flex:1 1 11em">'
            f'<div style="font-size:.85em;color:#555">{html.escape(text(headline_label(d.key)))}</div>'
            f'<div data-side="a" data-exact="{"" if d.a is None else exact_text(d.a)}">'
            f'<b>{html.escape(names[0])}</b> {html.escape(_value_text(d.key, d.a))}</div>'
            f'<div data-side="b" data-exact="{"" if d.b is None else exact_text(d.b)}">'
            f'<b>{html.escape(names[1])}</b> {html.escape(_value_text(d.key, d.b))}</div>'
            f'<div data-side="difference" data-exact="{exact}" style="font-weight:600">'
            f'{html.escape(_difference_text(d.key, diff))}'
            f'<div style="font-size:.75em;font-weight:400;color:#555;overflow-wrap:anywhere">{html.escape(exact)}</div>'
            f'</div></div>')
    return f'<div style="display:flex;flex-wrap:wrap;gap:8px">{"".join(cards)}</div>'


def comparison_table_html(comparison: Comparison, text: Text = str, names: tuple[str, str] = ("A", "B")) -> str:
    """Every headline and (within one system) every outcome under A and B, with B − A exactly
    and in percentage points; rows carry ``data-key`` and ``data-kind``."""
    def rows(kind: str, diffs: Any) -> list[str]:
        out = []
        for d in diffs:
            name = headline_label(d.key) if kind == "headline" else d.key
            cells = [text(name), "—" if d.a is None else exact_text(d.a), "—" if d.b is None else exact_text(d.b),
                     "—" if d.difference is None else exact_text(d.difference),
                     "—" if d.difference is None or (kind == "headline" and not d.is_probability)
                     else f"{float(d.difference) * 100:+.2f} pp"]
            tds = "".join(f'<td data-col="{c}" style="padding:2px 10px">{html.escape(v)}</td>'
                          for c, v in zip(("name", "a", "b", "difference", "points"), cells))
            out.append(f'<tr data-kind="{kind}" data-key="{html.escape(d.key, quote=True)}">{tds}</tr>')
        return out

    body = rows("headline", comparison.differences())
    if comparison.a.system == comparison.b.system:
        body += rows("outcome", comparison.outcome_differences())
    head = "".join(f'<th style="text-align:left;padding:2px 10px">{html.escape(h)}</th>'
                   for h in (text("Quantity"), names[0], names[1], f"{names[1]} − {names[0]}",
                             text("Percentage points")))
    return (f'<div style="overflow-x:auto"><table class="wb-ab-grid" style="border-collapse:collapse">'
            f'<thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>')


def trace_html_of(comparison: Comparison, text: Text = str, names: tuple[str, str] = ("A", "B")) -> str:
    """The trace lines only A has and those only B has."""
    only_a, only_b = comparison.trace_differences()
    if not only_a and not only_b:
        return f"<p>{html.escape(text('The rule applied the same steps to both.'))}</p>"

    def block(side: str, name: str, lines: tuple[str, ...]) -> str:
        items = "".join(f"<li>{html.escape(text(line))}</li>" for line in lines) or \
            f"<li><i>{html.escape(text('(none)'))}</i></li>"
        return f'<div data-side="{side}"><b>{html.escape(text("Only in"))} {html.escape(name)}</b><ul>{items}</ul></div>'

    return block("a", names[0], only_a) + block("b", names[1], only_b)


class ComparePanel:
    """Pin the current result as A; the current result is then B, shown beside it.

    ``update(result)`` gives the panel the dashboard's current result; ``pin()`` keeps it as A;
    ``unpin()`` forgets A; ``show_pair(a, b, names)`` shows any two results (a ruling's two
    readings). State for tests: ``pinned``, ``current``, ``comparison``, ``figure``.
    """

    def __init__(self, system: System, text: Text = str, lang: str = "en"):
        self.system, self.text, self.lang = system, text, lang
        self.pinned: Result | None = None
        self.current: Result | None = None
        self.comparison: Comparison | None = None
        self.figure: go.Figure | None = None
        self.names = ("A", "B")
        self.pin_button = widgets.Button(description=text("Pin as A"), icon="thumb-tack",
                                         layout=widgets.Layout(width="auto"))
        self.pin_button.add_class("wb-ab-pin")
        self.pin_button.on_click(lambda _b: self.pin())
        self.unpin_button = widgets.Button(description=text("Unpin A"), layout=widgets.Layout(width="auto"),
                                           disabled=True)
        self.unpin_button.add_class("wb-ab-unpin")
        self.unpin_button.on_click(lambda _b: self.unpin())
        self.status = widgets.HTML()
        self.status.add_class("wb-ab-status")
        self.cards = widgets.HTML()
        self.cards.add_class("wb-ab-cards")
        self.chart = chart("wb-ab-chart")
        self.table = widgets.HTML()
        self.table.add_class("wb-ab-table")
        self.trace = widgets.HTML()
        self.trace.add_class("wb-ab-trace")
        self.widget = widgets.VBox([widgets.HBox([self.pin_button, self.unpin_button, self.status],
                                                 layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
                                    self.cards, self.chart, self.table, self.trace])
        self.widget.add_class("wb-ab")
        self._say(text("Pin the scenario shown as A, then change anything: B is what the page shows."))

    def _say(self, message: str) -> None:
        self.status.value = f"<small>{html.escape(message)}</small>"

    def update(self, result: Result) -> None:
        """The dashboard's current result (B once A is pinned)."""
        self.current = result
        if self.pinned is not None:
            self.show_pair(self.pinned, result, ("A", "B"))

    def pin(self, result: Result | None = None) -> None:
        """Keep ``result`` (default: the current one) as A."""
        result = result if result is not None else self.current
        if result is None:
            return
        self.pinned = result
        self.unpin_button.disabled = False
        if self.current is not None:
            self.show_pair(self.pinned, self.current, ("A", "B"))

    def unpin(self) -> None:
        """Forget A and clear the comparison."""
        self.pinned = self.comparison = self.figure = None
        self.unpin_button.disabled = True
        self.cards.value = self.table.value = self.trace.value = ""
        self.chart.show(None)
        self._say(self.text("Pin the scenario shown as A, then change anything: B is what the page shows."))

    def pin_query(self) -> str:
        """``pin=...`` for the share link when A is pinned, else ""."""
        return "" if self.pinned is None else pin_query(self.system, self.pinned.scenario)

    def show_pair(self, a: Result, b: Result, names: tuple[str, str] = ("A", "B")) -> Comparison:
        """Show ``a`` against ``b`` (any two results of this system)."""
        text = self.text
        self.names = names
        self.comparison = comparison = Comparison(a, b)
        same = a.scenario == b.scenario
        self._say(text("A and B are the same scenario: change something to see B.") if same
                  else f"{names[0]} {text('against')} {names[1]}")
        self.cards.value = cards_html(comparison, text, names)
        fig = compare_chart(a, b, self.lang, names=names, system=self.system)
        fig.update_layout(title_text=f"{text('Outcomes')}: {names[0]} {text('against')} {names[1]}")
        self.figure = fig
        self.chart.show(fig)
        self.table.value = comparison_table_html(comparison, text, names)
        self.trace.value = trace_html_of(comparison, text, names)
        return comparison


def short_label(label: str, limit: int = 36) -> str:
    """A reading's label short enough for a card: up to its first colon, else its first
    ``limit`` characters (then "…").

    >>> short_label("Both: the +3 applies to every defense"), short_label("One −3 at most per roll, however many apply")
    ('Both', 'One −3 at most per roll, however…')
    """
    head, colon, _ = label.partition(":")
    if colon and len(head) <= limit:
        return head.strip()
    if len(label) <= limit:
        return label
    cut = label[:limit].rsplit(" ", 1)[0]
    return cut.rstrip(" ,;") + "…"


class ReadingPanel:
    """A ruling's two readings compared: the A/B panel with A = the scenario shown and B = the
    same scenario with another reading of one ruling (one mechanism for both).

    ``update(result)`` re-evaluates the alternative reading (only while ``open`` is on).
    CSS classes: ``wb-rulings`` (``wb-rulings-toggle``, ``wb-rulings-field``,
    ``wb-rulings-value``, ``wb-rulings-help``) around a :class:`ComparePanel` (``wb-ab``).
    """

    def __init__(self, system: System, text: Text = str, lang: str = "en", *,
                 evaluate: Callable[[Scenario], Result] | None = None):
        self.system, self.text, self.lang = system, text, lang
        self.evaluate = evaluate if evaluate is not None else system.evaluate
        self.result: Result | None = None
        self.rulings = system.rulings()
        self.compare = ComparePanel(system, text, lang)
        self.compare.pin_button.layout.display = self.compare.unpin_button.layout.display = "none"
        self.open = widgets.ToggleButton(value=False, description=text("Compare a ruling"),
                                         layout=widgets.Layout(width="auto"))
        self.open.add_class("wb-rulings-toggle")
        self.field = widgets.Dropdown(options=[(text(r.label), r.name) for r in self.rulings],
                                      description=text("Ruling"), layout=widgets.Layout(width="auto"))
        self.field.add_class("wb-rulings-field")
        self.value = widgets.Dropdown(description=text("Against"), layout=widgets.Layout(width="auto", max_width="100%"))
        self.value.add_class("wb-rulings-value")
        self.help = widgets.HTML()
        self.help.add_class("wb-rulings-help")
        self.body = widgets.VBox([widgets.VBox([self.field, self.value]), self.help, self.compare.widget],
                                 layout=widgets.Layout(display="none"))
        self._syncing = False
        self.field.observe(lambda _ch: self._options(), names="value")
        self.value.observe(lambda _ch: self._refresh(), names="value")
        self.open.observe(self._toggled, names="value")
        self.widget = widgets.VBox([self.open, self.body], layout=widgets.Layout(margin="8px 0"))
        self.widget.add_class("wb-rulings")

    def _toggled(self, change: Any) -> None:
        self.body.layout.display = "flex" if change.new else "none"
        self._refresh()

    def _spec(self) -> Any:
        return next(r for r in self.rulings if r.name == self.field.value)

    def _options(self) -> None:
        """Offer every other reading of the chosen ruling (the one shown is A)."""
        if self.result is None or not self.rulings:
            return
        spec = self._spec()
        current = getattr(self.result.scenario, spec.name)
        others = [(self.text(label), value) for value, label in spec.choices if value != current]
        keep = self.value.value if self.value.value in [v for _, v in others] else others[0][1]
        self._syncing = True
        try:
            self.value.options = others
            self.value.value = keep
        finally:
            self._syncing = False
        self._refresh()

    def update(self, result: Result) -> None:
        """The scenario shown is A; B is it with the other reading."""
        self.result = result
        self._options()

    def _refresh(self) -> None:
        if self._syncing or self.result is None or not self.open.value or not self.rulings:
            return
        spec = self._spec()
        labels = dict(spec.choices)
        current = getattr(self.result.scenario, spec.name)
        self.help.value = (f"<small>{html.escape(self.text(spec.help))} <span class='wb-cite'>"
                           f"[{html.escape(self.text(spec.citation))}]</span></small>")
        try:
            other = self.evaluate(self.result.scenario.replace(**{spec.name: self.value.value}))
        except ValueError as err:  # the other reading refused with these fields
            self.help.value += f'<div class="wb-notice-text" style="color:#a00">{html.escape(str(err))}</div>'
            return
        names = (short_label(self.text(labels[current])), short_label(self.text(labels[self.value.value])))
        self.compare.show_pair(self.result, other, names)
