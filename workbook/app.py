"""The dashboard: one assembly of controls, numbers, charts, table, rulings, trace and link.

A notebook shows a system's dashboard with two lines::

    from workbook.app import dashboard
    dashboard("infinity-n4")

A system adds its own panels with :class:`View` (see ``docs/workbook.md``)::

    Dashboard("gurps-4e", views=[View("Injury", lambda result, lang: distribution_chart(
        result.distributions["injury"], "Injury", lang))])

Every part of the page has a stable CSS class, so browser tests can find and read it:

======================== ===================================================================
class                    what
======================== ===================================================================
``wb-dashboard``         the whole page
``wb-lang``              language switch (only for systems with several languages)
``wb-preset``            presets dropdown
``wb-help-toggle``       shows every field's help and source under it
``wb-form``              the controls (each field ``wb-<dotted-path>``, see controls)
``wb-notice``            notices: a refused link, a refused combination of fields
``wb-headline``          headline numbers; rows ``tr[data-key]``, cells ``td[data-col]``
``wb-outcome-chart``     outcome probabilities (plotly, inside an Output)
``wb-at-least-chart``    P(at least k hits land)
``wb-table``             outcome table; rows ``tr[data-key=<outcome>]``, exact in
                         ``td[data-col=exact]`` as ``n/d``
``wb-view-<slug>``       each extra :class:`View`
``wb-rulings``           rulings panel, opened by the toggle ``wb-rulings-toggle``:
                         ``wb-rulings-field``, ``wb-rulings-value``,
                         ``wb-compare-chart``, ``wb-compare-table``
``wb-trace``             the rules applied, with citations
``wb-share-link``        the link to the current scenario (``a.wb-share-anchor`` href)
======================== ===================================================================
"""

from __future__ import annotations

import html
import importlib
import pkgutil
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pandas as pd
import plotly.graph_objects as go

from rules_core import Result, System, get_system
from rules_core.scenario import Scenario, parse

from .controls import ScenarioForm
from .share import decode_query, read_query, share_url
from .text import LANGUAGE_NAMES, translator
from .views import (HEADLINE_COLUMNS, OUTCOME_COLUMNS, Rendered, View, at_least_chart, compare_chart,
                    compare_table, figure_bundle, headline_table, notice_html, outcome_chart,
                    outcome_table, table_html, trace_html)

__all__ = ["View", "Dashboard", "NotebookDashboard", "dashboard", "system_views"]

#: Modules of this package that are the workbook itself, not a system's panels.
_FRAMEWORK = {"app", "catalog", "controls", "share", "text", "views"}


def _panel_modules() -> list[str]:
    """Names of this package's modules that may declare a system's panels."""
    names = [m.name for m in pkgutil.iter_modules([str(Path(__file__).parent)])]
    return sorted(n for n in names if n not in _FRAMEWORK and not n.startswith("_"))


@cache
def system_views(system_id: str) -> tuple[View, ...]:
    """The extra panels a system declares in a module of this package (``workbook/<name>.py``
    defining ``SYSTEM_ID = "<id>"`` and ``VIEWS = (View(...), ...)``), in module-name order."""
    found: list[View] = []
    for name in _panel_modules():
        module = importlib.import_module(f"{__package__}.{name}")
        if getattr(module, "SYSTEM_ID", None) == system_id:
            found.extend(getattr(module, "VIEWS", ()))
    return tuple(found)


def _output(css: str) -> widgets.Output:
    # Never shrunk by the box around it: a flex column would squash a chart to nothing.
    out = widgets.Output(layout=widgets.Layout(flex="0 0 auto"))
    out.add_class(css)
    return out


def _html(css: str, value: str = "") -> widgets.HTML:
    box = widgets.HTML(value)
    box.add_class(css)
    return box


def _section(title: str, *children: widgets.Widget) -> widgets.VBox:
    """A titled block of the page."""
    return widgets.VBox([widgets.HTML(f"<h4 style='margin:8px 0 2px'>{html.escape(title)}</h4>"),
                         *children])


def _show_in(out: widgets.Output, thing: Rendered, text: Callable[[str], str]) -> None:
    """Replace what ``out`` shows by a Figure, a DataFrame or an HTML string, in one update."""
    if isinstance(thing, go.Figure):
        data = figure_bundle(thing)
    elif isinstance(thing, pd.DataFrame):
        data = {"text/html": table_html(thing, {c: str(c) for c in thing.columns}, text=text)}
    else:
        data = {"text/html": str(thing)}
    out.outputs = ({"output_type": "display_data", "data": data, "metadata": {}},)


class Dashboard:
    """The interactive page for one system.

    ``system`` is an id or a :class:`rules_core.System`. The first scenario is, in order: the
    one the URL ``query`` names (read from the page when ``query`` is None; a refused query
    shows a notice), else ``scenario``, else the system's default. ``views`` are the extra
    panels (by default the ones the system declares, see :func:`system_views`);
    ``lang`` forces the language (else the query's ``lang``, else the system's first).

    State for tests and extensions, replaced on every change: ``scenario``, ``result``,
    ``figures`` (``"outcome"``, ``"at_least"``, ``"compare"``), ``tables`` (``"outcomes"``,
    ``"headline"``, ``"compare"``), ``rendered`` (each view's output by title), ``notices``.
    Widgets: ``widget`` (the page), ``form`` (:class:`ScenarioForm`), ``preset``, ``language``
    (or None), ``compare_on`` / ``ruling_field`` / ``ruling_value`` (or None without rulings).
    """

    def __init__(self, system: System | str, *, scenario: Scenario | dict[str, Any] | None = None,
                 query: str | None = None, views: Sequence[View] | None = None,
                 lang: str | None = None):
        self.system = system if isinstance(system, System) else get_system(system)
        if lang is not None and lang not in self.system.languages:
            raise ValueError(f"lang {lang!r} is not one of {self.system.id}'s languages "
                             f"{self.system.languages}")
        start = (parse(self.system.scenario_cls, scenario) if scenario is not None
                 else self.system.default_scenario())
        shared = decode_query(self.system, read_query() if query is None else query, start)
        self.lang = lang or shared.lang or self.system.languages[0]
        self.views = system_views(self.system.id) if views is None else tuple(views)
        self._link_notice = shared.notice
        self.result: Result | None = None
        self.figures: dict[str, go.Figure] = {}
        self.tables: dict[str, pd.DataFrame] = {}
        self.rendered: dict[str, Rendered] = {}
        self.notices: list[str] = []
        self.widget = widgets.VBox(layout=widgets.Layout(max_width="1400px"))
        self.widget.add_class("wb-dashboard")
        self._build(shared.scenario or start)

    # -- building the page ----------------------------------------------------------------
    def _build(self, scenario: Scenario) -> None:
        """(Re)build every widget in the current language, showing ``scenario``."""
        old = list(self.widget.children)
        system, text = self.system, translator(self.system, self.lang)
        self.text = text
        self._syncing = self._syncing_ruling = False

        header = widgets.HTML(f"<h2 style='margin:4px 0'>{html.escape(text(system.name))}</h2>"
                              f"<p>{html.escape(text(system.summary))}</p>")
        top = []
        self.language = None
        if len(system.languages) > 1:
            self.language = widgets.Dropdown(
                options=[(LANGUAGE_NAMES.get(code, code), code) for code in system.languages],
                value=self.lang, description=text("Language"))
            self.language.add_class("wb-lang")
            self.language.observe(lambda ch: self.set_lang(ch.new), names="value")
            top.append(self.language)
        self.preset = widgets.Dropdown(
            options=[(text("(custom scenario)"), "")] + [(text(p.title), p.name) for p in system.presets],
            value="", description=text("Preset"), layout=widgets.Layout(width="34em"))
        self.preset.add_class("wb-preset")
        self.preset.observe(self._preset_chosen, names="value")
        top.append(self.preset)
        self._preset_info = _html("wb-preset-info")

        self.form = ScenarioForm(system, scenario, self.lang)
        self.form.on_change(self._show)
        self._notice = _html("wb-notice")
        self._headline = _html("wb-headline")
        self._outcome_chart = _output("wb-outcome-chart")
        self._at_least_chart = _output("wb-at-least-chart")
        self._table = _html("wb-table")
        self._view_boxes = {v.title: _output(v.css) for v in self.views}
        self._trace = _html("wb-trace")
        self._share = _html("wb-share-link")

        self.help_toggle = widgets.Checkbox(value=False, description=text("Show help and sources"),
                                            indent=False, layout=widgets.Layout(width="auto"))
        self.help_toggle.add_class("wb-help-toggle")
        self.help_toggle.observe(lambda ch: self.form.show_help(ch.new), names="value")
        top.append(self.help_toggle)
        # Controls on the left, scrolling in their own box, so that the numbers and charts on
        # the right stay in view while a long form is worked through; one column when narrow.
        self.form.widget.layout.flex = "0 0 auto"  # its own height; the box scrolls
        controls = widgets.Box([self.form.widget],
                               layout=widgets.Layout(flex="1 1 400px", max_width="38em",
                                                     max_height="88vh", overflow="auto",
                                                     flex_flow="column"))
        controls.add_class("wb-controls")
        results = widgets.VBox([_section(text("Headline numbers"), self._headline), self._notice,
                                self._outcome_chart, self._at_least_chart],
                               layout=widgets.Layout(flex="1 1 520px", padding="0 0 0 16px",
                                                     overflow="visible"))
        results.add_class("wb-results")
        row = widgets.Box([controls, results],
                          layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"))
        rows = [header, widgets.HBox(top, layout=widgets.Layout(flex_flow="row wrap",
                                                                align_items="center")),
                self._preset_info, row, _section(text("Outcome table"), self._table)]
        rows += [_section(text(v.title), self._view_boxes[v.title]) for v in self.views]
        rows.append(self._build_rulings())
        rows += [_section(text("Trace of the rules applied"), self._trace), self._share]
        self.widget.children = [r for r in rows if r is not None]
        for w in old:
            w.close()
        self._show(self.form.scenario)

    def _build_rulings(self) -> widgets.Widget | None:
        text = self.text
        rulings = self.system.rulings()
        self.ruling_field = self.ruling_value = self.compare_on = None
        if not rulings:
            return None
        self.ruling_field = widgets.Dropdown(options=[(text(r.label), r.name) for r in rulings],
                                             description=text("Ruling"))
        self.ruling_field.add_class("wb-rulings-field")
        self.ruling_value = widgets.Dropdown(description=text("Alternative"),
                                             layout=widgets.Layout(width="40em"))
        self.ruling_value.add_class("wb-rulings-value")
        self._ruling_help = _html("wb-rulings-help")
        self._compare_chart = _output("wb-compare-chart")
        self._compare_table = _html("wb-compare-table")
        body = widgets.VBox([widgets.HBox([self.ruling_field, self.ruling_value],
                                          layout=widgets.Layout(flex_flow="row wrap")),
                             self._ruling_help, self._compare_chart, self._compare_table],
                            layout=widgets.Layout(display="none"))
        # Closed by default: a comparison costs a second evaluation and a third chart per change.
        self.compare_on = widgets.ToggleButton(value=False, description=text("Compare a ruling"),
                                               icon="balance-scale", layout=widgets.Layout(width="auto"))
        self.compare_on.add_class("wb-rulings-toggle")

        def toggled(change: Any) -> None:
            body.layout.display = "flex" if change.new else "none"
            self._show_comparison()

        self.compare_on.observe(toggled, names="value")
        self._set_ruling_options(rulings[0].name)
        self.ruling_field.observe(lambda ch: self._set_ruling_options(ch.new), names="value")
        self.ruling_value.observe(lambda _ch: self._show_comparison(), names="value")
        box = widgets.VBox([self.compare_on, body], layout=widgets.Layout(margin="8px 0"))
        box.add_class("wb-rulings")
        return box

    def _set_ruling_options(self, name: str) -> None:
        spec = next(r for r in self.system.rulings() if r.name == name)
        current = getattr(self.form.scenario, name)
        others = [v for v, _ in spec.choices if v != current]
        self._syncing_ruling = True
        self.ruling_value.options = [(self.text(label), v) for v, label in spec.choices]
        self.ruling_value.value = others[0] if others else current
        self._syncing_ruling = False
        self._show_comparison()

    # -- reacting ---------------------------------------------------------------------------
    @property
    def scenario(self) -> Scenario:
        """The scenario shown."""
        return self.form.scenario

    def set_lang(self, lang: str) -> None:
        """Show the page in ``lang`` (one of the system's languages), keeping the scenario."""
        if lang not in self.system.languages:
            raise ValueError(f"lang {lang!r} is not one of {self.system.languages}")
        if lang != self.lang:
            self.lang = lang
            self._build(self.form.scenario)

    def _preset_chosen(self, change: Any) -> None:
        if self._syncing or not change.new:
            return
        self.form.set_scenario(self.system.preset(change.new).scenario)

    def _set_notices(self, *extra: str) -> None:
        self.notices = [n for n in (self._link_notice, *extra) if n]
        self._notice.value = notice_html(*self.notices)

    def _show(self, scenario: Scenario) -> None:
        """Evaluate ``scenario`` and refresh every panel (the form's change callback)."""
        text, lang, system = self.text, self.lang, self.system
        try:
            result = system.evaluate(scenario)
        except ValueError as err:  # a ScenarioError, or a combination the rules refuse
            self._set_notices(f"{text('This scenario could not be evaluated')}: {err}")
            return
        self._set_notices()
        self.result = result
        self.figures["outcome"] = outcome_chart(result, lang, system=system)
        self.figures["at_least"] = at_least_chart(result, lang, system=system)
        self.tables["outcomes"] = outcome_table(result, lang, system=system)
        self.tables["headline"] = headline_table(result, lang, system=system)
        _show_in(self._outcome_chart, self.figures["outcome"], text)
        _show_in(self._at_least_chart, self.figures["at_least"], text)
        self._headline.value = table_html(self.tables["headline"], HEADLINE_COLUMNS,
                                          "wb-headline-grid", text)
        self._table.value = table_html(self.tables["outcomes"], OUTCOME_COLUMNS, "wb-outcome-grid", text)
        for view in self.views:
            self.rendered[view.title] = view.render(result, lang)
            _show_in(self._view_boxes[view.title], self.rendered[view.title], text)
        self._trace.value = trace_html(result, lang, system=system)
        url = html.escape(share_url(system, scenario, lang), quote=True)
        self._share.value = (f"<b>{html.escape(text('Share this scenario'))}:</b> "
                             f'<a class="wb-share-anchor" href="{url}">{url}</a>')
        self._sync_preset(scenario)
        self._show_comparison()

    def _sync_preset(self, scenario: Scenario) -> None:
        match = next((p for p in self.system.presets if p.scenario == scenario), None)
        self._syncing = True
        self.preset.value = match.name if match else ""
        self._syncing = False
        self._preset_info.value = "" if match is None else (
            f"<small>{html.escape(self.text(match.description))}"
            + (f" <span class='wb-cite'>[{html.escape(self.text(match.citation))}]</span>"
               if match.citation else "") + "</small>")

    def _show_comparison(self) -> None:
        """Refresh the rulings panel: the current result against the chosen alternative."""
        if (self.ruling_field is None or self.result is None or self._syncing_ruling
                or not self.compare_on.value):
            return
        name, alt = self.ruling_field.value, self.ruling_value.value
        current = getattr(self.scenario, name)
        if alt == current and len(self.ruling_value.options) > 1:
            self._set_ruling_options(name)  # the form took the alternative: compare with another
            return
        text = self.text
        try:
            other = self.system.evaluate(self.scenario.replace(**{name: alt}))
        except ValueError as err:  # the alternative reading refused with these fields
            self._ruling_help.value = notice_html(str(err))
            self._compare_chart.outputs = ()
            self._compare_table.value = ""
            self.figures.pop("compare", None)
            self.tables.pop("compare", None)
            return
        names = (f"{current} ({text('current')})", str(alt))
        self.figures["compare"] = compare_chart(self.result, other, self.lang, names=names,
                                                system=self.system)
        self.tables["compare"] = compare_table(self.result, other, self.lang, names=names,
                                               system=self.system)
        spec = next(r for r in self.system.rulings() if r.name == name)
        self._ruling_help.value = (f"<small>{html.escape(text(spec.help))} "
                                   f"<span class='wb-cite'>[{html.escape(text(spec.citation))}]</span></small>")
        _show_in(self._compare_chart, self.figures["compare"], text)
        self._compare_table.value = table_html(self.tables["compare"], {
            "name": text("Quantity"), "a": names[0], "b": names[1],
            "difference": text("Difference")}, "wb-compare-grid")  # headers already in lang


class NotebookDashboard(Dashboard):
    """The dashboard as an object to work with in a notebook (what :func:`dashboard` returns).

    It displays as the page (as the last expression of a cell, or with ``display``), and code
    and sliders share one state:

    - ``scenario``: the scenario shown; assign a scenario built in code to show it
      (``d.scenario = d.scenario.set("dodger.ph", 13)``);
    - ``result``: its exact :class:`rules_core.Result`;
    - ``on_change(callback)``: ``callback(result)`` after every new evaluated scenario, from the
      controls or from code (``result.scenario`` is the scenario); ``remove=True`` unregisters.

    Everything else is as for :class:`Dashboard` (``figures``, ``tables``, ``form``, ...).
    """

    def __init__(self, system: System | str, **kw: Any):
        self._observers: list[Callable[[Result], None]] = []
        super().__init__(system, **kw)

    @property
    def scenario(self) -> Scenario:
        """The scenario shown; assigning one shows it (validated: a bad one is refused with a
        :class:`rules_core.ScenarioError` and nothing changes)."""
        return self.form.scenario

    @scenario.setter
    def scenario(self, scenario: Scenario | dict[str, Any]) -> None:
        self.form.set_scenario(parse(self.system.scenario_cls, scenario))

    def on_change(self, callback: Callable[[Result], None], remove: bool = False) -> None:
        """Call ``callback(result)`` after each new scenario is evaluated and shown."""
        if remove:
            self._observers.remove(callback)
        else:
            self._observers.append(callback)

    def _show(self, scenario: Scenario) -> None:
        super()._show(scenario)
        if self.result is not None and self.result.scenario == scenario:  # evaluated, not refused
            for callback in list(self._observers):
                callback(self.result)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return {**self.widget._repr_mimebundle_(**kwargs), "text/plain": repr(self)}

    def __repr__(self) -> str:
        return f"<dashboard of {self.system.id}: {self.result!r}>"


def dashboard(system: str | System | Scenario, *, scenario: Scenario | dict[str, Any] | None = None,
              **kw: Any) -> NotebookDashboard:
    """The dashboard of a system (an id, a :class:`rules_core.System`, or a scenario built in
    code, whose system it is and which it then shows), ready to be a notebook's last
    expression; ``scenario`` and the other keywords as for :class:`Dashboard`. Returns a
    :class:`NotebookDashboard`: ``d.scenario``, ``d.result``, ``d.on_change(callback)``."""
    if isinstance(system, Scenario):
        if scenario is not None:
            raise TypeError("give the scenario once: dashboard(scenario) or dashboard(id, scenario=...)")
        system, scenario = system.system, system
    return NotebookDashboard(system, scenario=scenario, **kw)
