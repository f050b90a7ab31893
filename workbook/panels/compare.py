"""Two results side by side, one mechanism for every comparison on the page.

:class:`ComparePanel` shows both sets of headline cards, each difference in percentage points
and exactly, both distributions on one chart (and B − A), every quantity in a table and the
lines of the rule's trace that differ. It is used three ways:

- "Pin as A" keeps the current scenario; every change after it is B (the dashboard's
  "Compare, sweep, export");
- :class:`DerivedPanel`: both sides derived from the scenario shown, through a
  :class:`Pair` — :class:`ReadingPanel` (the rulings panel: B = A with another reading),
  :class:`WorthPanel` (A = the scenario without the reaction, B = as set), and any other
  "B from the current scenario" (an official rule against a house rule);
- :meth:`ComparePanel.show_pair` with any two results.

The share link carries a pinned A as ``pin=<A's own query>`` (:func:`pin_query`,
:func:`read_pin`), beside B's fields, so a link reopens both. A derived pair needs nothing in
the link: it follows from the scenario the link opens.

CSS classes: ``wb-ab`` (``wb-ab-pin``, ``wb-ab-unpin``, ``wb-ab-status``, ``wb-ab-cards``
with ``div.wb-ab-card[data-key]`` holding ``[data-side=a]``, ``[data-side=b]`` and
``[data-side=difference]`` (exact ``n/d`` in ``data-exact``), ``wb-ab-chart``, ``wb-ab-table``
(rows ``tr[data-kind][data-key]``, cells ``td[data-col=a|b|difference|points]``),
``wb-ab-trace``); a derived panel adds ``<prefix>-panel``, ``<prefix>-controls`` and
``<prefix>-help`` (``wb-rulings-*``, ``wb-worth-*``).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any
from urllib.parse import parse_qsl, quote

import ipywidgets as widgets
import plotly.graph_objects as go

from rules_core import Result, System
from rules_core.compare import Comparison
from rules_core.scenario import Scenario

from ..page.share import decode_query, encode_query
from ..page.text import headline_label, lang_of, localised_numbers, number_text, points_text
from ..page.chart import chart as chart_widget
from .report import panel_section
from ..page.panel import PageContext, PagePanel
from ..page.views import compare_chart, exact_text, percent_text

__all__ = ["ComparePanel", "DerivedPanel", "Pair", "ReadingPanel", "WorthPanel", "comparison_table_html",
           "cards_html", "pin_query", "read_pin", "PIN_KEY", "PairChart"]

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


def _value_text(key: str, value: Fraction | None, lang: str = "en") -> str:
    if value is None:
        return "—"
    return percent_text(value, lang) if key.startswith("p_") else number_text(value, ".4g", lang)


def _difference_text(key: str, diff: Fraction | None, text: Text = str) -> str:
    if diff is None:
        return "—"
    if key.startswith("p_"):
        return points_text(diff, lang_of(text), text)
    return number_text(diff, "+.4g", lang_of(text))


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
            f'<b>{html.escape(names[0])}</b> {html.escape(_value_text(d.key, d.a, lang_of(text)))}</div>'
            f'<div data-side="b" data-exact="{"" if d.b is None else exact_text(d.b)}">'
            f'<b>{html.escape(names[1])}</b> {html.escape(_value_text(d.key, d.b, lang_of(text)))}</div>'
            f'<div data-side="difference" data-exact="{exact}" style="font-weight:600">'
            f'{html.escape(_difference_text(d.key, diff, text))}'
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
                     else points_text(d.difference, lang_of(text), text)]
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
    """The trace lines only A has and those only B has, each as the page's trace shows it (rule
    and detail in the page's language, the citation in brackets)."""
    only_a, only_b = comparison.trace_differences()
    if not only_a and not only_b:
        return f"<p>{html.escape(text('The rule applied the same steps to both.'))}</p>"

    def line(step: Any) -> str:
        cite = f" [{text(step.citation)}]" if getattr(step, "citation", "") else ""
        return f"{text(step.rule)}: {localised_numbers(text(step.detail), lang_of(text))}{cite}"

    def block(side: str, name: str, trace: Any, lines: tuple[str, ...]) -> str:
        wanted = set(lines)
        items = "".join(f"<li>{html.escape(line(step))}</li>" for step in trace if str(step) in wanted) or \
            f"<li><i>{html.escape(text('(none)'))}</i></li>"
        return f'<div data-side="{side}"><b>{html.escape(text("Only in"))} {html.escape(name)}</b><ul>{items}</ul></div>'

    return (block("a", names[0], comparison.a.trace, only_a)
            + block("b", names[1], comparison.b.trace, only_b))


#: Draws two results on one chart: ``chart(a, b, lang, names) -> Figure`` (by default every
#: outcome under A and under B, and B − A: :func:`workbook.page.views.compare_chart`).
PairChart = Callable[[Result, Result, str, tuple[str, str]], go.Figure]


class ComparePanel:
    """Two results of one system side by side: both sets of headline cards, each difference in
    percentage points and exactly, both distributions on one chart, every quantity in a table,
    and the lines of the rule's trace that differ.

    Pinning (the "Pin as A" buttons, ``pinning=True``): ``update(result)`` gives the panel the
    dashboard's current result; ``pin()`` keeps it as A and every later result is B; ``unpin()``
    forgets A. Any other pair: ``show_pair(a, b, names)`` (what :class:`DerivedPanel` does).
    ``chart`` draws the pair (default: the outcomes, :func:`workbook.page.views.compare_chart`).
    State for tests: ``pinned``, ``current``, ``comparison``, ``figure``, ``names``.
    """

    def __init__(self, system: System, text: Text = str, lang: str = "en", *,
                 chart: PairChart | None = None, pinning: bool = True):
        self.system, self.text, self.lang = system, text, lang
        self.chart_of: PairChart = chart if chart is not None else (
            lambda a, b, lang, names: compare_chart(a, b, lang, names=names, system=system))
        self.pinned: Result | None = None
        self.current: Result | None = None
        self.comparison: Comparison | None = None
        self.figure: go.Figure | None = None
        self.names = ("A", "B")
        #: Present mode: the chart's type as large as the page's (see workbook.page.layout.style_figure).
        self.present = False
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
        self.chart = chart_widget("wb-ab-chart")
        self.table = widgets.HTML()
        self.table.add_class("wb-ab-table")
        self.trace = widgets.HTML()
        self.trace.add_class("wb-ab-trace")
        if not pinning:  # a derived pair has none
            self.pin_button.layout.display = self.unpin_button.layout.display = "none"
        self.widget = widgets.VBox([widgets.HBox([self.pin_button, self.unpin_button, self.status],
                                                 layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
                                    self.cards, self.chart, self.table, self.trace])
        self.widget.add_class("wb-ab")
        if pinning:
            self._say(text("Pin the scenario shown as A, then change anything: B is what the page shows."))

    def _say(self, message: str) -> None:
        self.status.value = f"<small>{html.escape(message)}</small>" if message else ""

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
        self.pinned = None
        self.unpin_button.disabled = True
        self.clear(self.text("Pin the scenario shown as A, then change anything: B is what the page shows."))

    def clear(self, message: str = "") -> None:
        """Show no comparison (and ``message`` in the status line)."""
        self.comparison = self.figure = None
        self.cards.value = self.table.value = self.trace.value = ""
        self.chart.show(None)
        self._say(message)

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
        self.figure = fig = self.chart_of(a, b, self.lang, names)
        self.chart.show(fig, self.present)
        self.table.value = comparison_table_html(comparison, text, names)
        self.trace.value = trace_html_of(comparison, text, names)
        return comparison


@dataclass(frozen=True)
class Pair:
    """What a :class:`DerivedPanel` compares: scenario ``a`` against scenario ``b``, the
    ``names`` of the two sides (on the cards, the chart and the table), the reader's ``words``
    for each side (shown in full above the cards; "" for none), and a ``note`` with its
    ``citation`` (what the comparison means, and where the rule says so)."""

    a: Scenario
    b: Scenario
    names: tuple[str, str] = ("A", "B")
    words: tuple[str, str] = ("", "")
    note: str = ""
    citation: str = ""


class DerivedPanel(PagePanel):
    """The A/B panel (:class:`ComparePanel`, without its pin buttons) with both sides derived
    from the scenario the page shows: B = A with another reading of a ruling
    (:class:`ReadingPanel`), A = the same scenario without the reaction (:class:`WorthPanel`),
    A = the official rule and B = a house rule, ...

    To make one, subclass and override :meth:`derive` (and :meth:`update`, to offer choices
    that depend on the scenario, put in ``controls``, before the comparison is made), or pass
    ``derive(scenario) -> Pair``.
    ``derive`` may raise ``ValueError`` (shown as a notice; the comparison is cleared).

    The page calls ``update(result)`` with each result it shows and ``set_open(on)`` from its
    toggle: nothing is evaluated while closed. A side equal to the scenario shown reuses the
    page's result; the other is evaluated with ``evaluate`` (the page passes its cache).
    CSS classes (``css`` prefix): ``<css>-panel`` around ``<css>-controls``, ``<css>-help``
    (the words for each side in ``.wb-ab-words``, the note, a refusal in ``.wb-notice-text``)
    and the A/B panel ``wb-ab``. State for tests: ``result``, ``pair``, ``compare``.
    """

    css = "wb-derived"

    def __init__(self, system: System, text: Text = str, lang: str = "en", *,
                 evaluate: Callable[[Scenario], Result] | None = None,
                 derive: Callable[[Scenario], Pair] | None = None, controls: tuple[widgets.Widget, ...] = (),
                 chart: PairChart | None = None, open: bool = False, css: str | None = None):
        self.system, self.text, self.lang = system, text, lang
        self.css = css or self.css
        self.evaluate = evaluate if evaluate is not None else system.evaluate
        self._derive = derive
        self.is_open = open
        self.result: Result | None = None
        self.pair: Pair | None = None
        self.compare = ComparePanel(system, text, lang, chart=chart, pinning=False)
        self.controls = widgets.VBox(list(controls))
        self.controls.add_class(f"{self.css}-controls")
        self.help = widgets.HTML()
        self.help.add_class(f"{self.css}-help")
        self.widget = widgets.VBox([self.controls, self.help, self.compare.widget])
        self.widget.add_class(f"{self.css}-panel")

    def derive(self, scenario: Scenario) -> Pair:
        """The two scenarios to compare for the scenario shown."""
        if self._derive is None:
            raise NotImplementedError("give derive= or override DerivedPanel.derive")
        return self._derive(scenario)

    @property
    def present(self) -> bool:
        """Present mode for the chart (the page's own, set before ``update``)."""
        return self.compare.present

    @present.setter
    def present(self, on: bool) -> None:
        self.compare.present = on

    def set_open(self, on: bool) -> None:
        """Open (compute and show) or close (compute nothing) the panel."""
        self.is_open = on
        self._compare()

    def update(self, result: Result) -> None:
        """The result the page shows; the pair is derived from its scenario."""
        self.result = result
        self._compare()

    def _result_of(self, scenario: Scenario) -> Result:
        shown = self.result
        return shown if shown is not None and shown.scenario == scenario else self.evaluate(scenario)

    def _compare(self) -> None:
        """Derive the pair from the scenario shown, evaluate it and show it (only while open)."""
        if not self.is_open or self.result is None:
            return
        try:
            pair = self.derive(self.result.scenario)
            a, b = self._result_of(pair.a), self._result_of(pair.b)
        except ValueError as err:  # a reading or a change the rules refuse with these fields
            self.pair = None
            self.compare.clear()
            self.help.value = f'<div class="wb-notice-text" style="color:#a00">{html.escape(str(err))}</div>'
            return
        self.pair = pair
        self.help.value = self._help_html(pair)
        self.compare.show_pair(a, b, pair.names)

    def _help_html(self, pair: Pair) -> str:
        words = "".join(f'<div data-side="{side}"><b>{html.escape(name)}:</b> {html.escape(said)}</div>'
                        for side, name, said in zip("ab", pair.names, pair.words) if said)
        note = html.escape(pair.note) + (f" <span class='wb-cite'>[{html.escape(pair.citation)}]</span>"
                                         if pair.citation else "")
        return ((f"<div class='wb-ab-words' style='overflow-wrap:anywhere'>{words}</div>" if words else "")
                + (f"<small>{note}</small>" if note else ""))


class ReadingPanel(DerivedPanel):
    """A ruling's two readings compared: A = the scenario shown (its reading is the form's),
    B = the same scenario with another reading of the ruling chosen in ``field`` (``value``
    offers every other reading). The sides are named "Current reading" and "Alternative
    reading", and each reading's label is shown in full: the readings are radio buttons whose
    words wrap (a reading runs to a sentence; a dropdown would cut it), and both sides' words
    are above the cards (``.wb-ab-words``).

    CSS classes: ``wb-rulings-panel`` with ``wb-rulings-field``, ``wb-rulings-value``,
    ``wb-rulings-help`` and the A/B panel ``wb-ab``.
    """

    name, title, css = "rulings", "Compare a ruling", "wb-rulings"

    @classmethod
    def applies(cls, page: PageContext) -> bool:
        return bool(page.system.rulings())

    @classmethod
    def for_page(cls, page: PageContext) -> ReadingPanel:
        rulings = cls(page.system, page.text, page.state.lang, evaluate=page.evaluate)
        rulings.page = page
        return rulings

    def __init__(self, system: System, text: Text = str, lang: str = "en", **kw: Any):
        self.rulings = system.rulings()
        self.field = widgets.Dropdown(options=[(text(r.label), r.name) for r in self.rulings],
                                      description=text("Ruling"),
                                      layout=widgets.Layout(width="100%", max_width="60em"))
        self.field.add_class("wb-rulings-field")
        self.value = widgets.RadioButtons(description=text("Alternative"),
                                          layout=widgets.Layout(width="100%", max_width="60em"))
        self.value.add_class("wb-rulings-value")
        super().__init__(system, text, lang, controls=(self.field, self.value), **kw)
        self._syncing = False
        self.field.observe(lambda _ch: self._field_chosen(), names="value")
        self.value.observe(lambda _ch: None if self._syncing else self._compare(), names="value")

    def _spec(self) -> Any:
        return next(r for r in self.rulings if r.name == self.field.value)

    def report(self) -> str:
        """The ruling, both readings in their words, the comparison (as shown)."""
        spec = next((r for r in self.rulings if r.name == self.field.value), None)
        lead = f"<p><b>{html.escape(self.text('Ruling'))}:</b> {html.escape(self.text(spec.label))}</p>" if spec else ""
        return panel_section(self, "Compare a ruling", "wb-report-rulings", self.text, lead)

    def update(self, result: Result) -> None:
        """Offer every reading other than the one the scenario shown uses, then compare."""
        self._offer(result)
        super().update(result)

    def _offer(self, result: Result) -> None:
        if not self.rulings:
            return
        spec = self._spec()
        current = getattr(result.scenario, spec.name)
        others = [(self.text(label), value) for value, label in spec.choices if value != current]
        keep = self.value.value if self.value.value in [v for _, v in others] else others[0][1]
        self._syncing = True
        try:
            self.value.options = others
            self.value.value = keep
        finally:
            self._syncing = False

    def _field_chosen(self) -> None:
        if self.result is not None:
            self.update(self.result)

    def derive(self, scenario: Scenario) -> Pair:
        """A = ``scenario``; B = it with the reading chosen in ``value``."""
        spec = self._spec()
        labels = dict(spec.choices)
        current, other = getattr(scenario, spec.name), self.value.value
        text = self.text
        return Pair(scenario, scenario.replace(**{spec.name: other}),
                    (text("Current reading"), text("Alternative reading")),
                    (text(labels[current]), text(labels[other])), text(spec.help), text(spec.citation))


class WorthPanel(DerivedPanel):
    """What the defender's reaction is worth: A = the scenario shown without the reaction (as
    the system declares it, :func:`rules_core.compare.without_reaction`), B = the scenario
    shown; B − A is the reaction's worth. ``names(scenario)`` names the two sides (default
    "No reaction" and "As set"). CSS prefix ``wb-worth``."""

    css = "wb-worth"

    def __init__(self, system: System, text: Text = str, lang: str = "en", *,
                 names: Callable[[Scenario], tuple[str, str]] | None = None, **kw: Any):
        self._names = names or (lambda _s: ("No reaction", "As set"))
        super().__init__(system, text, lang, **kw)

    def derive(self, scenario: Scenario) -> Pair:
        """A = ``scenario`` without the reaction; B = ``scenario``."""
        from rules_core.compare import without_reaction

        names = tuple(self.text(n) for n in self._names(scenario))
        return Pair(without_reaction(scenario), scenario, (names[0], names[1]),
                    note=self.text("The same scenario without the reaction, against it as set: "
                                   "the difference is what the reaction is worth."))
