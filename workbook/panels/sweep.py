"""Sweeps on the page: any number field along its range (and a second one for a heatmap),
every headline along it, the exact value on hover and the scenario's own value marked.

The numbers are :func:`rules_core.sweep` / :func:`rules_core.sweep_grid` (exact); this module
chooses the window of values around the scenario's own and draws them:

- :func:`number_paths` — the dotted paths of a scenario's number fields;
- :func:`window` — at most ``size`` of a field's values, centred on the current one;
- :func:`sweep_figure` — lines for a one-field sweep, a heatmap for two fields;
- :class:`SweepPanel` — the controls and the chart (``.widget``, ``.update(result)``). It
  computes only while open (a sweep is tens of evaluations), and the chart is replaced once per
  change.

CSS classes: ``wb-sweep`` (``wb-sweep-open``, ``wb-sweep-field``, ``wb-sweep-second``,
``wb-sweep-quantity``, ``wb-sweep-chart``, ``wb-sweep-status``).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from decimal import Decimal
from functools import lru_cache
from fractions import Fraction
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

import rules_core
from rules_core import Result, Sweep, System
from rules_core.scenario import Scenario, spec_at
from rules_core.sweeps import allowed_values

from ..page.layout import localised_figure
from ..page.text import count_text, field_label, headline_label, lang_of, number_text
from ..page.chart import chart
from ..page.layout import OKABE_ITO
from ..page.panel import PagePanel
from ..page.views import _LAYOUT, RuleKey, exact_text, percent_text, rule_key

__all__ = ["number_paths", "window", "sweep_around", "clear_sweep_cache", "sweep_figure", "SweepPanel", "LINE_POINTS", "GRID_SIDE", "EVERY"]

#: Most values of a one-field sweep on the page, and of each side of a heatmap.
LINE_POINTS = 41
GRID_SIDE = 30
#: The quantity choice that draws every probability as a line.
EVERY = "(every probability)"
_NONE = ""
#: The lines' colours, in order: the workbook's palette (Okabe–Ito, :data:`workbook.page.layout.OKABE_ITO`).
_PALETTE = tuple(OKABE_ITO.values())

Text = Callable[[str], str]


def number_paths(scenario: Scenario) -> tuple[str, ...]:
    """The dotted paths of ``scenario``'s number fields (``dodger.ph``, ``attackers.0.burst``)."""
    found = []
    for path in scenario.paths():
        spec = spec_at(type(scenario), tuple(int(s) if s.isdigit() else s for s in path.split(".")))
        if spec is not None and spec.kind in ("int", "float"):
            found.append(path)
    return tuple(found)


def window(values: Sequence[Any], current: Any, size: int) -> tuple[Any, ...]:
    """At most ``size`` consecutive ``values``, centred on ``current`` as far as the ends allow.

    >>> window(range(0, 31), 10, 5), window(range(0, 31), 1, 5), window([1, 2, 3], 2, 5)
    ((8, 9, 10, 11, 12), (0, 1, 2, 3, 4), (1, 2, 3))
    """
    values = tuple(values)
    if len(values) <= size:
        return values
    at = min(range(len(values)), key=lambda i: abs(Fraction(values[i]) - Fraction(current)))
    start = max(0, min(at - size // 2, len(values) - size))
    return values[start:start + size]


def _x(value: Any) -> Any:
    return float(value) if isinstance(value, Decimal) else value


def _shown(key: str, value: Fraction | None, lang: str = "en") -> str:
    if value is None:
        return "—"
    return percent_text(value, lang) if key.startswith("p_") else number_text(value, ".4g", lang)


def sweep_figure(swept: Sweep, text: Text = str, quantity: str = EVERY, mark: Sequence[Any] | None = None,
                 labels: Sequence[str] | None = None) -> go.Figure:
    """The chart of a sweep: for one field, a line per headline (every probability, or the one
    ``quantity``) against the field; for two, a heatmap of ``quantity`` (P(no hit) for
    :data:`EVERY`). Hover shows the exact ``n/d``; ``mark`` (the scenario's own values) is
    drawn as a dotted line or a cross. ``labels`` name the fields (default: their paths)."""
    labels = list(labels or swept.fields)
    lang = lang_of(text)
    mark = list(mark) if mark is not None else [swept.base.get(p) for p in swept.fields]
    points = [p for p in swept.points if not p.refused]
    if len(swept.fields) == 1:
        keys = [k for k in swept.headline_keys() if k.startswith("p_")] if quantity == EVERY else [quantity]
        traces = []
        for i, key in enumerate(keys):
            shown = [p for p in points if p.headline.get(key) is not None]
            traces.append(go.Scatter(
                x=[_x(p.value) for p in shown], y=[float(p.headline[key]) for p in shown],
                mode="lines+markers", name=text(headline_label(key)),
                line=dict(color=_PALETTE[i % len(_PALETTE)]),
                customdata=[[exact_text(p.headline[key]), _shown(key, p.headline[key], lang)] for p in shown],
                hovertemplate=f"{html.escape(labels[0])} = %{{x}}<br>%{{customdata[0]}} = %{{customdata[1]}}"
                              f"<extra>{html.escape(text(headline_label(key)))}</extra>"))
        probability = all(k.startswith("p_") for k in keys)
        fig = go.Figure(traces, layout=dict(
            title=dict(text=f"{text('Headline along')} {labels[0]}"),
            xaxis=dict(title=dict(text=labels[0])),
            yaxis=dict(title=dict(text=text("Probability") if probability else text(headline_label(keys[0]))),
                       **({"tickformat": ".0%"} if probability else {})),
            legend=dict(orientation="h", y=-0.25), **_LAYOUT))
        fig.add_vline(x=_x(mark[0]), line_dash="dot", line_color=OKABE_ITO["black"],
                      annotation_text=text("this scenario"), annotation_position="top")
        return localised_figure(fig, lang)
    key = "p_no_hit" if quantity == EVERY else quantity
    xs = list(dict.fromkeys(p.values[1] for p in swept.points))
    ys = list(dict.fromkeys(p.values[0] for p in swept.points))
    z: list[list[float | None]] = [[None] * len(xs) for _ in ys]
    custom: list[list[list[str]]] = [[["—", "—"] for _ in xs] for _ in ys]
    for p in points:
        i, j = ys.index(p.values[0]), xs.index(p.values[1])
        value = p.headline.get(key)
        if value is not None:
            z[i][j] = float(value)
            custom[i][j] = [exact_text(value), _shown(key, value, lang)]
    heat = go.Heatmap(x=[_x(v) for v in xs], y=[_x(v) for v in ys], z=z, customdata=custom,
                      colorscale="Viridis", colorbar=dict(title=dict(text="")),
                      hovertemplate=f"{html.escape(labels[1])} = %{{x}}, {html.escape(labels[0])} = %{{y}}<br>"
                                    "%{customdata[0]} = %{customdata[1]}<extra></extra>")
    here = go.Scatter(x=[_x(mark[1])], y=[_x(mark[0])], mode="markers", name=text("this scenario"),
                      # vermillion with a white edge: seen on every colour of Viridis
                      marker=dict(symbol="x", size=14, color=OKABE_ITO["vermillion"],
                                  line=dict(width=2, color="white")),
                      hoverinfo="skip")
    return localised_figure(go.Figure([heat, here], layout=dict(
        title=dict(text=f"{text(headline_label(key))}: {labels[0]} × {labels[1]}"),
        xaxis=dict(title=dict(text=labels[1])), yaxis=dict(title=dict(text=labels[0])),
        showlegend=False, **{**_LAYOUT, "height": 420})), lang)


def sweep_around(scenario: Scenario, path: str, other: str | None = None) -> Sweep:
    """What the panel computes: ``scenario`` swept along ``path`` (:data:`LINE_POINTS` values
    around its own), or over ``path`` × ``other`` (:data:`GRID_SIDE` values a side) for a
    heatmap. The points depend only on the fields not swept, so a change of a swept field that
    keeps the window (a slider moved on the page) reuses them and only the mark moves."""
    if other == path:
        other = None
    if other:
        first = window(allowed_values(scenario, path), scenario.get(path), GRID_SIDE)
        second = window(allowed_values(scenario, other), scenario.get(other), GRID_SIDE)
        axes: tuple[tuple[str, tuple[Any, ...]], ...] = ((path, first), (other, second))
    else:
        axes = ((path, window(allowed_values(scenario, path), scenario.get(path), LINE_POINTS)),)
    # the scenario with the swept fields at their first values: the same for every scenario
    # that differs only in them
    try:
        anchor = scenario.replace(**{p: values[0] for p, values in axes})
    except ValueError:  # the rules refuse that combination: sweep from the scenario itself
        anchor = scenario
    points = _points_of(anchor, axes, rule_key(anchor))
    return Sweep(scenario, tuple(p for p, _ in axes), points)


def clear_sweep_cache() -> None:
    """Forget the sweeps :func:`sweep_around` keeps (for timing a cold sweep)."""
    _points_of.cache_clear()


@lru_cache(maxsize=8)
def _points_of(anchor: Scenario, axes: tuple[tuple[str, tuple[Any, ...]], ...], rule: RuleKey) -> tuple[Any, ...]:
    """The sweep's points, kept per anchor, axes and the system registered for them (``rule``)."""
    if len(axes) == 2:
        (path, first), (other, second) = axes
        return rules_core.sweep_grid(anchor, path, first, other, second).points
    (path, values), = axes
    return rules_core.sweep(anchor, path, values).points


class SweepPanel(PagePanel):
    """Choose a number field (and a second for a heatmap) and a quantity; see it along the
    field's range around the scenario's own value. Computes only while ``open`` is on.

    ``field``, ``second`` and ``quantity`` preset the choices (a heatmap of the dodger's PH ×
    the first attacker's value: ``field="dodger.ph", second="attackers.0.value"``); the reader
    may still change them. ``toggle=False`` hides the panel's own "Sweep a field" button, for a
    page that opens it with its own toggle (:meth:`set_open`)."""

    #: Present mode (a projector): larger chart type; set by the page.
    present = False

    def __init__(self, system: System, text: Text = str, lang: str = "en", *, field: str | None = None,
                 second: str | None = None, quantity: str | None = None, open: bool = False,
                 toggle: bool = True, note: str = ""):
        self.system, self.text, self.lang = system, text, lang
        self.result: Result | None = None
        self.sweep: Sweep | None = None
        self.figure: go.Figure | None = None
        self._paths: tuple[str, ...] = ()
        self._syncing = False
        self._wanted = (field, second, quantity)
        #: Called with each new sweep once it is drawn (e.g. to offer it for download).
        self.on_compute: Callable[[Sweep], None] | None = None
        self.open = widgets.ToggleButton(value=open, description=text("Sweep a field"),
                                         layout=widgets.Layout(width="auto", display=None if toggle else "none"))
        self.open.add_class("wb-sweep-open")
        self.field = widgets.Dropdown(description=text("Field"), layout=widgets.Layout(width="22em"))
        self.field.add_class("wb-sweep-field")
        self.second = widgets.Dropdown(description=text("Heatmap with"), layout=widgets.Layout(width="22em"))
        self.second.add_class("wb-sweep-second")
        self.quantity = widgets.Dropdown(description=text("Quantity"), layout=widgets.Layout(width="22em"))
        self.quantity.add_class("wb-sweep-quantity")
        self.chart = chart("wb-sweep-chart")
        self.status = widgets.HTML()
        self.status.add_class("wb-sweep-status")
        self.note = note
        #: Present mode: the chart's type as large as the page's (see workbook.page.layout.style_figure).
        self.present = False
        self.body = widgets.VBox([widgets.HBox([self.field, self.second, self.quantity],
                                               layout=widgets.Layout(flex_flow="row wrap")),
                                  self.status, self.chart],
                                 layout=widgets.Layout(display="flex" if open else "none"))
        for w in (self.field, self.second, self.quantity):
            w.observe(lambda _ch: self._refresh(), names="value")
        self.open.observe(self._toggled, names="value")
        self.widget = widgets.VBox([self.open, self.body])
        self.widget.add_class("wb-sweep")

    def set_open(self, on: bool) -> None:
        """Open (compute and show) or close the panel, as its own toggle does."""
        self.open.value = on

    def _toggled(self, change: Any) -> None:
        self.body.layout.display = "flex" if change.new else "none"
        self._refresh()

    def update(self, result: Result) -> None:
        """The dashboard's current result: the sweep runs around its scenario."""
        self.result = result
        self._options(result)
        self._refresh()

    def _label(self, path: str) -> str:
        """The field's label as the form shows it, with the title of the part holding it as
        the form titles it ("Hits (Attack 1)", "Agility (A) (Defender)")."""
        return field_label(self.system.scenario_cls, path, self.text)

    def _options(self, result: Result) -> None:
        paths = number_paths(result.scenario)
        keys = tuple(result.headline)
        quantities = [(self.text(EVERY), EVERY)] + [(self.text(headline_label(k)), k) for k in keys]
        if paths == self._paths and [v for _, v in self.quantity.options] == [v for _, v in quantities]:
            return
        self._syncing = True
        try:
            evasion = self.system.evasion
            field, other, quantity = self._wanted
            first = (self.field.value if self.field.value in paths else field if field in paths
                     else evasion.attribute if evasion is not None and evasion.attribute in paths else paths[0])
            second = (self.second.value if self.second.value in paths
                      else other if other in paths and not self._paths else _NONE)
            chosen = (self.quantity.value if self.quantity.value in (EVERY, *keys)
                      else quantity if quantity in keys else EVERY)
            self.field.options = [(self._label(p), p) for p in paths]
            self.second.options = [(self.text("(none: lines)"), _NONE)] + [(self._label(p), p) for p in paths]
            self.quantity.options = quantities
            self.field.value, self.second.value, self.quantity.value = first, second, chosen
            self._paths = paths
        finally:
            self._syncing = False

    def compute(self) -> Sweep | None:
        """Sweep the current scenario along the chosen field(s) and redraw."""
        if self.result is None or not self.field.value:
            return None
        scenario, path, other = self.result.scenario, self.field.value, self.second.value
        swept = sweep_around(scenario, path, other or None)
        labels = [self._label(p) for p in swept.fields]
        self.sweep = swept
        self.figure = sweep_figure(swept, self.text, self.quantity.value, labels=labels)
        refused = sum(1 for p in swept.points if p.refused)
        text = self.text
        self.status.value = (f"<small>{html.escape(count_text(len(swept.points), '{n} points', text))}"
                             + (f"; {html.escape(count_text(refused, '{n} refused by the rules (left blank)', text))}"
                                if refused else "")
                             + f". {html.escape(text('Hover for the exact value.'))}"
                             + (f" {self.text(self.note)}" if self.note else "") + "</small>")
        self.chart.show(self.figure, self.present)
        if self.on_compute is not None:
            self.on_compute(swept)
        return swept

    def _refresh(self) -> None:
        if self._syncing or not self.open.value:
            return
        self.compute()
