"""Tables, charts and the trace: pure functions of a :class:`rules_core.Result`.

Every function takes the result and a language, and an optional ``system`` whose
``System.text`` translates the texts (looked up by ``result.system`` in the registry when not
given). Probabilities stay exact: tables carry them as ``"n/d"`` strings next to the percent
and the "1 in N" wording; charts plot ``float(Fraction)`` and carry the exact text in
``customdata`` for the hover.

A page's tables are :class:`workbook.page.table.Table` objects (:func:`outcome_grid`,
:func:`headline_grid`, :func:`compare_grid`): nothing here imports pandas, so a dashboard runs
where pandas has no wheel (the browser); :func:`outcome_table`, :func:`headline_table` and
:func:`compare_table` give them to a notebook as DataFrames (importing pandas then).

Charts are plain ``plotly.graph_objects.Figure`` objects built with their final data (a dashboard
shows them with :class:`workbook.page.chart.Chart`, a few kilobytes each, updated in place).
"""

from __future__ import annotations

import dis
import html
import importlib
import importlib.util
import pkgutil
import re
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

import plotly.graph_objects as go

from rules_core import Dist, Result, System, find_system
from rules_core.compare import Comparison
from rules_core.play import COMMON_HEADLINE_DEFINITIONS

from .layout import localised_figure
from .panel import PagePanel
from .table import Table, is_frame, table_html
from .text import headline_label, lang_of, localised_numbers, number_text, one_in_text, percent_text, points_text, translator

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["View", "SystemView", "view_css", "distribution_views", "exact_text", "percent_text", "is_probability",
           "outcome_grid", "headline_grid", "outcome_table", "headline_table", "compare_table", "outcome_chart",
           "at_least_chart", "distribution_chart", "compare_chart", "trace_html", "table_html", "view_html",
           "headline_html", "notice_html", "evaluate_cached", "system_views", "OUTCOME_COLUMNS", "HEADLINE_COLUMNS",
           "RuleKey", "rule_key"]

# A small template of our own: plotly's named templates cost ~13 ms per figure to copy.
_AXIS = dict(gridcolor="#e6e6e6", zerolinecolor="#bbbbbb", linecolor="#bbbbbb", automargin=True)
_LAYOUT = dict(template={"layout": {"plot_bgcolor": "white", "paper_bgcolor": "white",
                                    "font": {"size": 14}, "xaxis": _AXIS, "yaxis": _AXIS}},
               height=320, margin=dict(l=60, r=20, t=50, b=60), bargap=0.25)
#: Okabe–Ito colours (colour-blind safe, see :data:`workbook.page.layout.OKABE_ITO`): blue, orange,
#: bluish green.
_COLORS = ("#0072B2", "#E69F00", "#009E73")


#: What a view's ``render`` returns (see :class:`View`).
Rendered = Union[go.Figure, Table, "pd.DataFrame", str]

#: Results by (system id, scenario), newest last: see :func:`evaluate_cached`.
_RESULTS: OrderedDict[tuple[str, Hashable], tuple[System, Result]] = OrderedDict()
_RESULTS_KEPT = 256


def evaluate_cached(system: System, scenario: Any) -> Result:
    """``system.evaluate(scenario)``, computed once per scenario: the dashboard, its what-if
    panels and its comparisons all ask through here, so a change evaluates each scenario it
    shows once. The last 256 results are kept (a result is immutable; errors are not kept)."""
    try:
        key = (system.id, scenario)
        found = _RESULTS.get(key)
    except TypeError:  # an unhashable scenario: nothing to key on
        return system.evaluate(scenario)
    if found is not None and found[0] is system:
        _RESULTS.move_to_end(key)
        return found[1]
    result = system.evaluate(scenario)
    _RESULTS[key] = (system, result)
    while len(_RESULTS) > _RESULTS_KEPT:
        _RESULTS.popitem(last=False)
    return result


class RuleKey:
    """A system as part of a cache key: equal only to the same :class:`System` object. A rule
    registered again under its id (a designer's next try of ``play``, with the same scenario
    class) is then not served what was kept for the rule it replaced; the key holds the system,
    so the id it hashes by is not reused while the key is kept."""

    __slots__ = ("system",)

    def __init__(self, system: System | None):
        self.system = system

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RuleKey) and other.system is self.system

    def __hash__(self) -> int:
        return id(self.system)

    def __repr__(self) -> str:
        return f"RuleKey({getattr(self.system, 'id', None)!r})"


def rule_key(scenario: Any) -> RuleKey:
    """The system registered now for ``scenario``'s id (what ``rules_core`` evaluates it with),
    as a :class:`RuleKey`."""
    return RuleKey(find_system(getattr(scenario, "system", None)))


@dataclass(frozen=True)
class View:
    """An extra dashboard panel: ``render(result, lang)`` returning a plotly Figure, a
    :class:`workbook.page.table.Table` (shown as a table, :func:`view_html`; a pandas DataFrame
    is shown so too, but a page whose views return one needs pandas) or an HTML string. Its box
    has the class ``wb-view-<slug of title>``. (A panel with controls of its own is a
    :class:`workbook.page.panel.PagePanel` subclass, listed among a system's views as it is.)

    ``open=False`` shows the panel collapsed under a toggle (class ``wb-view-<slug>-toggle``):
    it is not rendered, and costs nothing per change, until the reader opens it."""

    title: str
    render: Callable[[Result, str], Rendered]
    open: bool = True

    @property
    def css(self) -> str:
        """``wb-view-<slug>``: ``View("Wounds per hit", ...)`` → ``wb-view-wounds-per-hit``."""
        return view_css(self.title)


def view_css(title: str) -> str:
    """The CSS class of a system's view (or panel) titled ``title``: ``wb-view-<slug>``."""
    return "wb-view-" + (re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "panel")


#: What a system lists among its own views: a :class:`View`, or a panel class with controls of
#: its own (built by the page as every panel is, :meth:`PagePanel.for_page`).
SystemView = Union[View, type[PagePanel]]


def distribution_views(*names: str, xtitles: Mapping[str, str] | None = None) -> tuple[View, ...]:
    """One :class:`View` per named entry of ``result.distributions``, each a
    :func:`distribution_chart` titled with the name (a result without it shows a short note)."""
    def render(name: str) -> Callable[[Result, str], Rendered]:
        def chart(result: Result, lang: str) -> Rendered:
            system = _system(result, None)
            if name not in result.distributions:
                return f"<p>{html.escape(translator(system, lang)('Not computed for this scenario.'))}</p>"
            return distribution_chart(result.distributions[name], name, lang,
                                      xtitle=(xtitles or {}).get(name, ""), system=system)
        return chart

    return tuple(View(name[:1].upper() + name[1:], render(name)) for name in names)


def exact_text(p: Fraction | int) -> str:
    """``"n/d"`` text of an exact number.

    >>> exact_text(Fraction(47, 500)), exact_text(1)
    ('47/500', '1/1')
    """
    p = Fraction(p)
    return f"{p.numerator}/{p.denominator}"


def is_probability(key: str) -> bool:
    """Headline quantities named ``p_*`` are probabilities; the rest (``expected_*``) are not."""
    return key.startswith("p_")


def _system(result: Result, system: System | None) -> System | None:
    return system if system is not None else find_system(result.system)


def _prob_row(p: Fraction, lang: str) -> dict[str, Any]:
    return {"exact": exact_text(p), "probability": float(p), "percent": float(p) * 100,
            "percent_text": percent_text(p, lang), "one_in": one_in_text(p, lang)}


def outcome_grid(result: Result, lang: str = "en", *, system: System | None = None) -> Table:
    """One row per outcome in ``result.outcome_order``: outcome (translated), exact ``"n/d"``,
    probability (float), percent (float), percent_text and one_in; ``key`` is the untranslated label."""
    text = translator(_system(result, system), lang)
    rows = [{"key": label, "outcome": text(label), **_prob_row(p, lang)} for label, p in result.outcome_rows()]
    return Table.of(rows, ["key", "outcome", "exact", "probability", "percent", "percent_text", "one_in"],
                    floats=("probability", "percent"))


def outcome_table(result: Result, lang: str = "en", *, system: System | None = None) -> pd.DataFrame:
    """:func:`outcome_grid` as a pandas DataFrame (probability and percent ``float64``, the other
    columns ``object``), for a notebook."""
    return outcome_grid(result, lang, system=system).to_frame()


def _keys_said(words: str, keys: Mapping[str, Any], text: Callable[[str], str]) -> str:
    """``words`` with each headline key in them (a definition's "they count in expected_hits
    too") said by its label, as the cards name it."""
    if not keys:
        return words
    pattern = r"\b(" + "|".join(map(re.escape, sorted(keys, key=len, reverse=True))) + r")\b"
    return re.sub(pattern, lambda m: text(headline_label(m.group(1))), words)


def headline_grid(result: Result, lang: str = "en", *, system: System | None = None) -> Table:
    """One row per headline quantity: key, name (translated), exact ``"n/d"`` or None, value
    (float), percent, percent_text and one_in (probabilities only), shown (the percent, or the
    value of an expectation, as text), note (the core's note, e.g. why a value is None) and help
    (what the quantity measures, in the words of its definition — a designer's own
    ``Headline.text`` for the headlines of a rule of theirs — or None: a card's tooltip)."""
    known = _system(result, system)
    text = translator(known, lang)
    definitions = {**COMMON_HEADLINE_DEFINITIONS, **(getattr(known, "headlines", None) or {})}
    rows = []
    for key, value in result.headline.items():
        said = getattr(definitions.get(key), "text", "")
        row: dict[str, Any] = {"key": key, "name": text(headline_label(key)), "exact": None,
                               "value": None, "percent": None, "percent_text": None, "one_in": None,
                               "shown": "—", "note": text(result.notes.get(key, "")) or None,
                               "help": _keys_said(text(said), definitions, text) if said else None}
        if value is not None:
            row.update(exact=exact_text(value), value=float(value), shown=number_text(value, ".4g", lang))
            if is_probability(key):
                row.update(percent=float(value) * 100, percent_text=percent_text(value, lang),
                           one_in=one_in_text(value, lang), shown=percent_text(value, lang))
        rows.append(row)
    return Table.of(rows, ["key", "name", "exact", "value", "percent", "percent_text", "one_in",
                           "shown", "note", "help"], floats=("value", "percent"))


def headline_table(result: Result, lang: str = "en", *, system: System | None = None) -> pd.DataFrame:
    """:func:`headline_grid` as a pandas DataFrame (value and percent ``float64``, the other
    columns ``object``, None where there is no value), for a notebook."""
    return headline_grid(result, lang, system=system).to_frame()


def exact_bar(x: Sequence[Any], probs: Sequence[Fraction], name: str, color: Any, *,
              labels: bool = True, lang: str = "en", **more: Any) -> go.Bar:
    """Bars of exact probabilities: ``y`` the floats, ``customdata`` rows ``[n/d, percent,
    "1 in N"]`` shown on hover; ``labels`` prints the percent above each bar; numbers written as
    ``lang`` writes them; ``more`` goes to ``go.Bar`` (axes of a subplot, legend group, ...).
    System views build their bars with it."""
    percents = [percent_text(p, lang) for p in probs]
    shown = {"text": percents, "textposition": "outside"} if labels else {}
    return go.Bar(x=list(x), y=[float(p) for p in probs], name=name, marker_color=color,
                  customdata=[[exact_text(p), pc, one_in_text(p, lang)] for p, pc in zip(probs, percents)],
                  hovertemplate="%{x}: %{customdata[0]} = %{customdata[1]}<br>%{customdata[2]}<extra>"
                                + html.escape(name) + "</extra>", **shown, **more)


def _bar(x: Sequence[Any], probs: Sequence[Fraction], name: str, color: str,
         signed: bool = False, text: Callable[[str], str] = str) -> go.Bar:
    """:func:`exact_bar`, or for ``signed`` differences bars labelled in percentage points;
    numbers in the language of ``text``."""
    lang = lang_of(text)
    if not signed:
        return exact_bar(x, probs, name, color, lang=lang)
    return go.Bar(x=list(x), y=[float(p) for p in probs], name=name, marker_color=color,
                  text=[points_text(p, lang, text) for p in probs], textposition="outside",
                  customdata=[[exact_text(p)] for p in probs],
                  hovertemplate="%{x}<br>%{customdata[0]} = %{text}<extra></extra>")


def _figure(traces: Sequence[go.BaseTraceType], title: str, xtitle: str, ytitle: str, *,
            xaxis: dict[str, Any] | None = None, yaxis: dict[str, Any] | None = None,
            lang: str = "en", **layout: Any) -> go.Figure:
    """A figure built with its final data and layout in one go (no later updates), its numbers
    as ``lang`` writes them (:func:`workbook.page.layout.localised_figure`)."""
    return localised_figure(go.Figure(data=list(traces), layout=dict(
        title=dict(text=title), xaxis=dict(title=dict(text=xtitle), **(xaxis or {})),
        yaxis=dict(title=dict(text=ytitle), **(yaxis or {})), **_LAYOUT, **layout)), lang)


def outcome_chart(result: Result, lang: str = "en", *, system: System | None = None) -> go.Figure:
    """Bar chart of every outcome's probability, in ``result.outcome_order``."""
    text = translator(_system(result, system), lang)
    labels, probs = zip(*result.outcome_rows())
    return _figure([_bar([text(lab) for lab in labels], probs, text("Probability"), _COLORS[0], text=text)],
                   text("Outcomes"), "", text("Probability"),
                   yaxis=dict(tickformat=".0%", rangemode="tozero"), showlegend=False, lang=lang)


def at_least_chart(result: Result, lang: str = "en", *, system: System | None = None) -> go.Figure:
    """Bar chart of P(at least k hits land) for k = 1 .. the most hits possible."""
    text = translator(_system(result, system), lang)
    rows = result.p_at_least_hits()
    ks, probs = (list(zip(*rows)) or [[], []])
    fig = _figure([_bar(ks, probs, text("Probability"), _COLORS[1], text=text)],
                  text("P(at least k hits land)"), text("Hits landing (k)"), text("Probability"),
                  xaxis=dict(dtick=1), yaxis=dict(tickformat=".0%", rangemode="tozero"),
                  showlegend=False, lang=lang)
    if not rows:
        fig.add_annotation(text=text("No hit can land in this scenario."), showarrow=False,
                           xref="paper", yref="paper", x=0.5, y=0.5)
    return fig


def distribution_chart(dist: Dist, title: str, lang: str = "en", *, xtitle: str = "",
                       system: System | None = None) -> go.Figure:
    """Bar chart of any exact distribution (e.g. an entry of ``result.distributions``)."""
    text = translator(system, lang)
    outcomes, probs = zip(*dist.items())
    x = [o if isinstance(o, (int, float)) else text(str(o)) for o in outcomes]
    return _figure([_bar(x, probs, text("Probability"), _COLORS[2], text=text)], text(title), text(xtitle),
                   text("Probability"), yaxis=dict(tickformat=".0%", rangemode="tozero"),
                   showlegend=False, lang=lang)


def trace_html(result: Result, lang: str = "en", *, system: System | None = None) -> str:
    """The rules applied, in order, each with its citation, as an HTML ordered list."""
    text = translator(_system(result, system), lang)
    items = []
    for step in result.trace:
        cite = (f' <span class="wb-cite" style="color:#666"><small>[{html.escape(text(step.citation))}]'
                f'</small></span>' if step.citation else "")
        items.append(f'<li class="wb-trace-step"><b>{html.escape(text(step.rule))}</b>: '
                     f'{html.escape(localised_numbers(text(step.detail), lang))}{cite}</li>')
    return f'<ol class="wb-trace-list">{"".join(items)}</ol>'


def _union(*orders: Sequence[Hashable]) -> list[Hashable]:
    seen: dict[Hashable, None] = {}
    for order in orders:
        seen.update(dict.fromkeys(order))
    return list(seen)


def compare_grid(a: Result, b: Result, lang: str = "en", *, system: System | None = None) -> Table:
    """Two results side by side, without pandas: every headline quantity, then every outcome.

    Columns: kind ("headline" / "outcome"), key, name (translated), ``a`` and ``b`` (exact
    ``"n/d"`` or None), difference (exact ``b - a`` or None), difference_pp (that difference in
    percentage points, as text, for probabilities), and a_value / b_value / difference_value as
    floats (None where there is no value).
    """
    text = translator(_system(a, system), lang)
    comparison = Comparison(a, b)
    rows = []
    for kind, diffs in (("headline", comparison.differences()), ("outcome", comparison.outcome_differences())):
        for d in diffs:
            pa, pb, diff = d.a, d.b, d.difference
            rows.append({"kind": kind, "key": d.key,
                         "name": text(headline_label(d.key) if kind == "headline" else d.key),
                         "a": None if pa is None else exact_text(pa),
                         "b": None if pb is None else exact_text(pb),
                         "difference": None if diff is None else exact_text(diff),
                         "difference_pp": (None if diff is None or not (kind == "outcome" or d.is_probability)
                                           else points_text(diff, lang, text)),
                         "a_value": None if pa is None else float(pa),
                         "b_value": None if pb is None else float(pb),
                         "difference_value": None if diff is None else float(diff)})
    return Table.of(rows, floats=("a_value", "b_value", "difference_value"))


def compare_table(a: Result, b: Result, lang: str = "en", *, names: tuple[str, str] = ("A", "B"),
                  system: System | None = None) -> pd.DataFrame:
    """:func:`compare_grid` as a pandas DataFrame (the ``*_value`` columns ``float64``, the others
    ``object``); ``names`` label the columns when shown (``frame.attrs["names"]``)."""
    frame = compare_grid(a, b, lang, system=system).to_frame()
    frame.attrs["names"] = names
    return frame


def compare_chart(a: Result, b: Result, lang: str = "en", *, names: tuple[str, str] = ("A", "B"),
                  system: System | None = None) -> go.Figure:
    """Grouped bars of every outcome's probability under ``a`` and ``b``, and their difference
    ``b - a`` (which may be negative)."""
    text = translator(_system(a, system), lang)
    labels = _union(a.outcome_order, b.outcome_order)
    x = [text(lab) for lab in labels]
    pa = [a.outcomes[lab] for lab in labels]
    pb = [b.outcomes[lab] for lab in labels]
    diff = [q - p for p, q in zip(pa, pb)]
    traces = [_bar(x, pa, names[0], _COLORS[0], text=text), _bar(x, pb, names[1], _COLORS[1], text=text),
              _bar(x, diff, f"{text('Difference')} ({names[1]} − {names[0]})", _COLORS[2],
                   signed=True, text=text)]
    return _figure(traces, f"{text('Outcomes')}: {names[0]} {text('against')} {names[1]}", "",
                   text("Probability"), barmode="group",
                   yaxis=dict(tickformat=".0%"), legend=dict(orientation="h", y=-0.25), lang=lang)


# -- HTML for the page ------------------------------------------------------------------------

#: Columns shown for each table, ``{column: English header}`` (headers are translated).
OUTCOME_COLUMNS = {"outcome": "Outcome", "exact": "Exact", "percent_text": "Percent",
                   "one_in": "1 in N"}
HEADLINE_COLUMNS = {"name": "Quantity", "exact": "Exact", "shown": "Value", "one_in": "1 in N",
                    "note": "Note"}


def view_html(thing: Table | pd.DataFrame | str, text: Callable[[str], str] = str) -> str:
    """What a view rendered, other than a figure, as HTML: a table with every column, headed by
    its name (passed through ``text``), a pandas DataFrame as such a table, anything else as its
    text."""
    if is_frame(thing):
        thing = Table.from_frame(thing)
    if isinstance(thing, Table):
        return table_html(thing, {c: str(c) for c in thing.columns}, text=text)
    return str(thing)


def headline_html(result: Result, lang: str = "en", *, system: System | None = None) -> str:
    """The headline quantities as an HTML table (exact, percent or value, 1 in N, note)."""
    text = translator(_system(result, system), lang)
    return table_html(headline_grid(result, lang, system=system), HEADLINE_COLUMNS,
                      "wb-headline-grid", text)


def notice_html(*messages: str) -> str:
    """Messages for the reader (a refused link or combination), escaped, one block each."""
    return "".join(f'<div class="wb-notice-text" style="color:#a00;margin:4px 0">{html.escape(m)}</div>'
                   for m in messages if m)


# -- the panels each system declares ---------------------------------------------------------

#: The folder of the systems' own views (``workbook/systems/<name>.py``), found by name at run
#: time: the page imports nothing of it.
SYSTEMS_DIR = Path(__file__).resolve().parents[1] / "systems"
SYSTEMS_PACKAGE = __package__.rsplit(".", 1)[0] + ".systems"


def _panel_modules() -> list[str]:
    """Names of the modules that may declare a system's panels (those of ``workbook/systems/``)."""
    return sorted(m.name for m in pkgutil.iter_modules([str(SYSTEMS_DIR)]) if not m.name.startswith("_"))


def _declared_system_id(name: str) -> str | None:
    """The ``SYSTEM_ID = "<id>"`` a module of ``workbook/systems/`` declares, read from its code
    without running it (a dashboard then imports only its own system's panels); from its source,
    or from its bytecode alone where it ships without source (the static site)."""
    return _declared_constant(f"{SYSTEMS_PACKAGE}.{name}", "SYSTEM_ID")


def _declared_constant(module: str, constant: str) -> str | None:
    """The string ``module`` assigns to ``constant`` at its top level (``NAME = "text"``), read
    from its compiled code without running it; None if it assigns none or cannot be found."""
    try:
        spec = importlib.util.find_spec(module)
        code = spec.loader.get_code(module) if spec is not None and spec.loader is not None else None
    except (ImportError, ValueError, SyntaxError, OSError, AttributeError):
        return None
    if code is None:
        return None
    loaded = None
    for instruction in dis.get_instructions(code):
        if (instruction.opname == "STORE_NAME" and instruction.argval == constant and loaded is not None
                and loaded.opname == "LOAD_CONST" and isinstance(loaded.argval, str)):
            return loaded.argval
        loaded = instruction
    return None


@cache
def system_views(system_id: str) -> tuple[SystemView, ...]:
    """The extra panels a system declares in a module of ``workbook/systems/`` (``<name>.py``
    defining ``SYSTEM_ID = "<id>"`` and ``VIEWS = (View(...), SomePanel, ...)``), in module-name
    order. Only the modules declaring ``system_id`` are imported."""
    found: list[SystemView] = []
    for name in _panel_modules():
        declared = _declared_system_id(name)
        if declared is not None and declared != system_id:
            continue
        module = importlib.import_module(f"{SYSTEMS_PACKAGE}.{name}")
        if getattr(module, "SYSTEM_ID", None) == system_id:
            found.extend(getattr(module, "VIEWS", ()))
    return tuple(found)
