"""The dashboard: one assembly of controls, numbers, charts, table, rulings, trace and link.

A notebook shows a system's dashboard with two lines::

    from workbook.pages.dashboard import dashboard
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
``wb-notice``            notices: a refused link (at the top, ``wb-top-notice``), a refused
                         combination of fields (in the form; the field is marked ``wb-invalid``
                         with its reason beside it and ``wb-results`` gets ``wb-stale``)
``wb-headline``          headline cards ``[data-key]``, exact in ``[data-col=exact]``'s
                         ``data-value`` (see :mod:`workbook.page.layout`)
``wb-present-toggle``    present mode (``present=1`` in the link): larger type and charts
``wb-urlbar``            keeps the address bar on the scenario; its ``wb-copy-link`` button
``wb-outcome-chart``     outcome probabilities (a plotly chart updated in place, workbook.page.chart)
``wb-at-least-chart``    P(at least k hits land)
``wb-table``             outcome table; rows ``tr[data-key=<outcome>]``, exact in
                         ``td[data-col=exact]`` as ``n/d``
``wb-view-<slug>``       each extra :class:`View`; a collapsed one opens with the toggle
                         ``wb-view-<slug>-toggle`` and is rendered only while open (a view
                         with a panel, e.g. Infinity's heatmap, a preset ``wb-sweep``, holds
                         the panel's own widget)
``wb-analysis``          "Compare, sweep, export", opened by ``wb-analysis-toggle``: the
                         panels of :mod:`workbook.panels.analysis` (``wb-modes``, ``wb-ab``,
                         ``wb-sweep``, ``wb-export``); a pinned A travels as ``pin=``
``wb-rulings``           rulings panel, opened by the toggle ``wb-rulings-toggle``: the A/B
                         panel with B = A with another reading
                         (:class:`workbook.panels.compare.ReadingPanel`): ``wb-rulings-field``,
                         ``wb-rulings-value``, ``wb-rulings-help`` (each reading's words in
                         ``.wb-ab-words``) and ``wb-ab`` (cards, chart, table, trace)
``wb-roll``, ``wb-sim``  the classroom's Roll and Simulate panels, opened by ``wb-roll-toggle``
                         and ``wb-sim-toggle``
``wb-design``            the Design panel (:mod:`workbook.panels.design`), opened by
                         ``wb-design-toggle``: the rule's constants (``wb-variant-<name>``,
                         taken out of the form) and A = the official rule against B = the
                         house rules shown (``wb-ab``); open from the start on a house rule
``wb-trace``             the rules applied, with citations
``wb-share-link``        the link to the current scenario (``a.wb-share-anchor`` href)
======================== ===================================================================
"""

from __future__ import annotations

import asyncio
import html
import logging
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import ipywidgets as widgets
import plotly.graph_objects as go

from rules_core import Result, System, all_systems, get_system, register
from rules_core.scenario import Scenario, parse

from ..page.chart import Chart
from ..page.controls import ScenarioForm, close_tree
from ..page.layout import heading, headline_cards, house_rule_banner, page_css, titled
from ..page.notices import FieldMarks, link_notice
from ..page.panel import PagePanel
from ..panels.registry import page_keys, page_panels
from ..page.share import decode_query, encode_query, page_url, preheating, request_query, share_url
from ..page.present import asked_lang, split_page_keys
from ..page.table import Table
from ..page.text import LANGUAGE_NAMES, translator
from ..page.urlbar import UrlBar
from ..page.views import (OUTCOME_COLUMNS, Panel, Rendered, View, as_panel, at_least_chart,
                    evaluate_cached, headline_grid, notice_html, outcome_chart,
                    outcome_grid, system_views, table_html, trace_html, view_html)

__all__ = ["View", "Dashboard", "NotebookDashboard", "dashboard", "Section", "collapsible"]


def _handling_browser_message() -> bool:
    """True while the kernel handles a widget message from the browser (a control change)."""
    try:
        from IPython import get_ipython
        kernel = getattr(get_ipython(), "kernel", None)
        parent = kernel.get_parent("shell") if kernel is not None else None
    except Exception:  # no kernel, or one without parent messages
        return False
    return bool(parent) and parent.get("header", {}).get("msg_type") == "comm_msg"


def _event_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop (inside a kernel's message handler), else None."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class _Output(widgets.Box):
    """A box that shows a chart, a table or HTML (see :func:`_show_in`); ``made`` holds the
    widgets it made, by kind, shown or not, all closed with it."""

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.made: dict[type, widgets.Widget] = {}

    def close(self) -> None:
        for made in self.made.values():
            close_tree(made)
        self.made.clear()
        super().close()


def _output(css: str) -> _Output:
    """An :class:`_Output` box with the CSS class ``css``."""
    # Never shrunk by the box around it: a flex column would squash a chart to nothing.
    out = _Output(layout=widgets.Layout(flex="0 0 auto", flex_flow="column", width="100%"))
    out.add_class(css)
    return out


def _html(css: str, value: str = "") -> widgets.HTML:
    box = widgets.HTML(value)
    box.add_class(css)
    return box


class Section(NamedTuple):
    """A part of the page opened by a toggle: the ``toggle`` button and the ``box`` holding it
    and the body."""

    toggle: widgets.ToggleButton
    box: widgets.VBox


def collapsible(title: str, css: str, body: widgets.Widget, *, opened: bool = False,
                on_toggle: Callable[[bool], None] | None = None, box_css: str | None = None) -> Section:
    """A toggle button titled ``title`` (class ``<css>-toggle``) above ``body``, which is shown
    only while the toggle is on; ``on_toggle(on)`` runs after each change (a panel computes only
    while open). ``box_css`` classes the box holding both. Every toggle-opened part of the
    dashboard is built here: views, rulings, the classroom's panels, "Compare, sweep, export"."""
    toggle = widgets.ToggleButton(value=opened, description=title, layout=widgets.Layout(width="auto"))
    toggle.add_class(f"{css}-toggle")
    body.layout.display = None if opened else "none"

    def toggled(change: Any) -> None:
        body.layout.display = None if change.new else "none"
        if on_toggle is not None:
            on_toggle(change.new)

    toggle.observe(toggled, names="value")
    box = widgets.VBox([toggle, body], layout=widgets.Layout(margin="8px 0"))
    if box_css:
        box.add_class(box_css)
    return Section(toggle, box)


def _replace_child(root: widgets.Widget, old: widgets.Widget, new: widgets.Widget) -> None:
    """Put ``new`` in the place of ``old`` in the box of ``root``'s tree that holds it."""
    stack = [root]
    while stack:
        box = stack.pop()
        children = getattr(box, "children", None) or ()
        if any(c is old for c in children):
            box.children = tuple(new if c is old else c for c in children)
            return
        stack.extend(children)
    raise ValueError(f"{old!r} is not in the page")


def _show_in(out: _Output, thing: Rendered | None, text: Callable[[str], str],
             present: bool = False) -> None:
    """Show in ``out`` a Figure (in the workbook's style, larger when ``present``), a table
    (:func:`workbook.page.views.view_html`) or an HTML string (None: nothing). A figure is drawn
    by the box's :class:`Chart`, updated in place; what did not change is not sent again. The box
    makes at most one chart and one HTML widget, kept while the other is shown (a view that is a
    chart for some scenarios and a note for others builds nothing new, and leaves nothing behind,
    as the reader goes back and forth)."""
    if thing is None:
        out.children = ()
        return
    if isinstance(thing, go.Figure):
        kind, value = Chart, thing
    else:
        kind, value = widgets.HTML, view_html(thing, text)
    shown = out.made.get(kind)
    if shown is None:
        shown = out.made[kind] = kind()
    if out.children != (shown,):
        out.children = (shown,)
    if kind is Chart:
        shown.show(value, present)
    else:
        shown.value = value


class Dashboard:
    """The interactive page for one system.

    ``system`` is an id or a :class:`rules_core.System`. The first scenario is, in order: the
    one the URL ``query`` names (read from the page when ``query`` is None; a refused query
    shows a notice), else ``scenario``, else the system's default. ``views`` are the extra
    panels (by default the ones the system declares, see :func:`workbook.page.views.system_views`);
    ``lang`` forces the language (else the query's ``lang``, else the system's first).
    A query's fields change the system's default scenario (or the preset it names), like the
    links the page writes; ``present=1`` opens the page in present mode.

    State for tests and extensions, replaced on every change: ``scenario``, ``result``,
    ``figures`` (``"outcome"``, ``"at_least"``), ``tables`` (``"outcomes"``, ``"headline"``: each a
    :class:`workbook.page.table.Table`, ``.to_frame()`` for pandas),
    ``rendered`` (each rendering view's output by title), ``notices``.
    Panels: ``panels`` (each panel view's panel by title); each panel of
    :mod:`workbook.panels.registry` by its name, built on access (``analysis``, ``rulings``,
    ``design``, ``roll``, ``simulation``: None where the page has not that panel) and its
    toggle as ``<name>_on``. Widgets: ``widget`` (the page), ``form`` (:class:`ScenarioForm`),
    ``preset``, ``language`` (or None), ``toggles`` (every toggle-opened part by its toggle's
    class, e.g. ``"wb-rulings-toggle"``), ``view_toggles`` (the toggle of each collapsed
    :class:`View`, by title).

    The page knows no panel by name: it asks each panel class of the registry the questions of
    the panel protocol (:mod:`workbook.page.panel`) and gives the panels it built each result,
    its language, present mode and the link's keys they read.

    Speed: each scenario is evaluated once (:func:`workbook.page.views.evaluate_cached`); a panel
    whose output did not change is not sent again; collapsed panels are not rendered; and the
    browser's control changes that arrive while one is being shown are coalesced into one update
    of the latest scenario (``coalesce=False`` turns that off). In a kernel Voilà preheats, the
    page is built before anyone asks for it and the URL query is applied when the page is
    requested (:meth:`apply_query`).
    """

    #: Coalesce control changes from the browser (see the class docstring).
    coalesce = True

    def __init__(self, system: System | str, *, scenario: Scenario | dict[str, Any] | None = None,
                 query: str | None = None, views: Sequence[View] | None = None,
                 lang: str | None = None):
        self.system = system if isinstance(system, System) else get_system(system)
        if lang is not None and lang not in self.system.languages:
            raise ValueError(f"lang {lang!r} is not one of {self.system.id}'s languages "
                             f"{self.system.languages}")
        start = (parse(self.system.scenario_cls, scenario) if scenario is not None
                 else self.system.default_scenario())
        self._start, self._forced_lang = start, lang
        # Preheated by Voilà: build now, read the query once the page is requested (below).
        later = query is None and preheating()
        query, page = split_page_keys("" if later else request_query() if query is None else query, page_keys())
        shared = decode_query(self.system, query)
        asked = shared.lang or asked_lang(query)
        self.lang = lang or (asked if asked in self.system.languages else self.system.languages[0])
        self.present = page.get("present") == "1"
        self._link_keys = page  # the page's own keys of the link (pin=, roll=), for the panels
        self.views = system_views(self.system.id) if views is None else tuple(views)
        self._link_notice = shared.notice and link_notice(
            self.system, query, translator(self.system, self.lang), fallback=shared.notice, shared=shared)
        self.result: Result | None = None
        self.figures: dict[str, go.Figure] = {}
        self.tables: dict[str, Table] = {}
        self.rendered: dict[str, Rendered] = {}
        self.notices: list[str] = []
        self.view_toggles: dict[str, widgets.ToggleButton] = {}
        self.toggles: dict[str, widgets.ToggleButton] = {}
        self.panels: dict[str, Panel] = {}
        self._opened = {v.title for v in self.views if v.open}
        self._pending: Scenario | None = None
        self.widget = widgets.VBox(layout=widgets.Layout(max_width="1400px"))
        self.widget.add_class("wb-dashboard")
        if self.present:
            self.widget.add_class("wb-present")
        self._build(shared.scenario or start)
        if later:
            self.apply_query(request_query())  # waits until the page is requested

    def apply_query(self, query: str) -> None:
        """Show what a page URL's ``query`` asks for (scenario and language), as the page would
        have been built with it; a refused query keeps the scenario and shows its notice."""
        query, page = split_page_keys(query, page_keys())
        shared = decode_query(self.system, query)
        asked = shared.lang or asked_lang(query)
        lang = self._forced_lang or (asked if asked in self.system.languages else self.lang)
        self._link_notice = shared.notice and link_notice(
            self.system, query, translator(self.system, lang), fallback=shared.notice, shared=shared)
        if page.get("present") == "1" and not self.present:
            self.set_present(True)
        restored = self._restore_from_link(page)
        self._link_notice = self._link_notice or restored
        scenario = shared.scenario or self.form.scenario
        for kind in self._kinds.values():  # e.g. a link to a house rule opens the Design panel
            if kind.opens(self, scenario):
                self.open(kind.name)
        reopen = self._relabel(lang) if lang != self.lang else None
        if scenario != self.form.scenario:
            self.form.set_scenario(scenario)
        else:  # same scenario: refresh what depends on the request (notices, link, language)
            self._show(scenario)
        if reopen is not None:
            reopen()

    # -- building the page ----------------------------------------------------------------
    def _build(self, scenario: Scenario) -> None:
        """Build every widget in the current language, showing ``scenario``."""
        system, text = self.system, translator(self.system, self.lang)
        self.text = text
        self._syncing = False
        self.toggles = {}
        self._built: dict[str, PagePanel] = {}  # the collapsed panels built so far, by name
        self._bodies: dict[str, widgets.Box] = {}
        self._toggled: dict[str, Callable[[bool], None]] = {}
        #: form controls a panel took out of the main form, by the panel's name (panel.prepare)
        self.taken: dict[str, list[widgets.Widget]] = {}
        #: what says the page's own words again in another language (see _relabel)
        self._relabels: list[Callable[[], None]] = []

        # The page's style; the notebook above the dashboard gives its title and lead.
        header = widgets.HTML(page_css())
        header.add_class("wb-title")
        self.urlbar = UrlBar.for_page(self.apply_query)
        self.present_toggle = widgets.ToggleButton(value=self.present, icon="television",
                                                   layout=widgets.Layout(width="auto"))
        self.present_toggle.add_class("wb-present-toggle")
        self.present_toggle.observe(lambda ch: self.set_present(ch.new), names="value")
        toolbar = [self.urlbar, self.present_toggle]
        top = []
        self.language = None
        if len(system.languages) > 1:
            self.language = widgets.Dropdown(
                options=[(LANGUAGE_NAMES.get(code, code), code) for code in system.languages],
                value=self.lang, style={"description_width": "initial"})
            self.language.add_class("wb-lang")
            self.language.observe(lambda ch: self.set_lang(ch.new), names="value")
            toolbar.append(self.language)
        self.preset = widgets.Dropdown(options=self._preset_options(), value="",
                                       layout=widgets.Layout(width="100%", max_width="34em"))
        self.preset.add_class("wb-preset")
        self.preset.observe(self._preset_chosen, names="value")
        top.append(self.preset)
        self._preset_info = _html("wb-preset-info")

        self.form = ScenarioForm(system, scenario, self.lang)
        self.form.on_change(self._form_changed)
        kinds = page_panels()
        for kind in kinds:  # e.g. the rule's constants leave the main controls for Design
            kind.prepare(self)
        #: the panel classes this page has, by name, in page order
        self._kinds = {kind.name: kind for kind in kinds if kind.applies(self)}
        self._notice = _html("wb-notice")
        self._notice.add_class("wb-top-notice")
        self._stale = _html("wb-stale-banner")
        self._headline = _html("wb-headline")
        self._outcome_chart = _output("wb-outcome-chart")
        self._at_least_chart = _output("wb-at-least-chart")
        self._table = _html("wb-table")
        self.panels = {v.title: self._make_view_panel(v) for v in self.views if v.panel}
        self._view_boxes = {v.title: (self.panels[v.title].widget if v.panel else _output(v.css))
                            for v in self.views}
        self._trace = _html("wb-trace")
        self._share = _html("wb-share-link")

        self.help_toggle = widgets.Checkbox(value=False, indent=False, layout=widgets.Layout(width="auto"))
        self.help_toggle.add_class("wb-help-toggle")
        self.help_toggle.observe(lambda ch: self.form.show_help(ch.new), names="value")
        top.append(self.help_toggle)
        # The numbers first: the headline cards and the outcome chart at the top left, the
        # controls beside them (scrolling in their own box on a wide screen, so that the numbers
        # stay in view), below them in the page's own flow on a phone (see workbook.page.layout).
        self.form.widget.layout.flex = "0 0 auto"  # its own height; the box scrolls
        self._preset_info.layout.flex = "0 0 auto"
        controls = widgets.Box([widgets.VBox(top, layout=widgets.Layout(flex="0 0 auto")),
                                self._preset_info, self.form.widget],
                               layout=widgets.Layout(flex="1 1 380px", max_width="36em",
                                                     max_height="88vh", overflow="auto",
                                                     flex_flow="column"))
        controls.add_class("wb-controls")
        results = widgets.VBox([self._stale, self._headline, self._outcome_chart,
                                self._at_least_chart],
                               layout=widgets.Layout(flex="1 1 560px", padding="0 16px 0 0",
                                                     overflow="visible"))
        results.add_class("wb-results")
        self._results = results
        self._marks = FieldMarks(self.form, results, self._stale)
        row = widgets.Box([results, controls],
                          layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"))
        row.add_class("wb-main")
        bar = widgets.HBox(toolbar, layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        bar.add_class("wb-toolbar")
        rows = [header, bar, self._notice, row, self._section("Outcome table", self._table)]
        rows += [self._view_section(v) for v in self.views]
        rows += self._panel_sections(scenario)
        rows += [self._section("Trace of the rules applied", self._trace), self._share]
        self.widget.children = rows
        self._label_toolbar()
        restored = self._restore_from_link(self._link_keys)
        self._link_notice = self._link_notice or restored
        self._present_panels()
        self._show(self.form.scenario)

    def _preset_options(self) -> list[tuple[str, str]]:
        text = self.text
        return [(text("(custom scenario)"), "")] + [(text(p.title), p.name) for p in self.system.presets]

    def _label_toolbar(self) -> None:
        """The words of the toolbar and of the controls above the form, in the page's language."""
        text, system = self.text, self.system
        with self.urlbar.hold_sync():
            self.urlbar.label, self.urlbar.copied = text("Copy link"), text("Copied")
            self.urlbar.title = f"{text(system.name)} — {text('Dodge Workbook')}"
        self.present_toggle.description = text("Present")
        self.present_toggle.tooltip = text("Larger type and charts, for a projector")
        if self.language is not None:
            self.language.description = text("Language")
        self.preset.description = text("Preset")
        self.help_toggle.description = text("Show help and sources")

    def _relabel(self, lang: str) -> Callable[[], None]:
        """Say the whole page in ``lang``, in place: each widget built keeps its state and gets
        its words in the new language (what the browser draws again is only what changed);
        panels of the system's own views are rebuilt in it. The next :meth:`_show` says the
        numbers' parts (cards, table, charts, trace) in it. The collapsed panels built so far
        are closed; the returned ``reopen()``, called after that show (the numbers first),
        builds again those that were open or held a pinned A."""
        self.lang, self.text = lang, translator(self.system, lang)
        self._syncing = True
        self.preset.options = self._preset_options()  # _show selects the preset again
        self._syncing = False
        if self.language is not None and self.language.value != lang:
            self.language.value = lang
        self._label_toolbar()
        self.form.set_lang(lang)
        for relabel in self._relabels:
            relabel()
        for view in self.views:
            if view.panel:
                self._rebuild_view_panel(view)
        dropped = [(name, self._drop(name)) for name in list(self._built)]

        def reopen() -> None:
            for name, carried in dropped:
                if carried is not None:
                    self.panel(name).take(carried)
                if self.is_open(name):
                    self._toggled[name](True)
        return reopen

    def _make_view_panel(self, view: View) -> Panel:
        """A view's panel, in the page's language, on the page's one cache of results."""
        panel = as_panel(view.panel(self.system, self.text, self.lang, lambda s: evaluate_cached(self.system, s)))
        panel.widget.add_class(view.css)
        panel.set_open(view.title in self._opened)
        panel.set_present(self.present)
        return panel

    def _rebuild_view_panel(self, view: View) -> None:
        """A view's panel built again in the page's language, in the old one's place."""
        old = self.panels[view.title]
        panel = self.panels[view.title] = self._make_view_panel(view)
        _replace_child(self.widget, old.widget, panel.widget)
        self._view_boxes[view.title] = panel.widget
        close_tree(old.widget)

    def _drop(self, name: str) -> Any:
        """Close a collapsed panel built so far (it is built again when next needed) and return
        what it carries over (:meth:`PagePanel.carry`). Widgets it shows that are not its own
        (:meth:`PagePanel.kept`: the form's, in Design) stay."""
        old = self._built.pop(name)
        carried = old.carry()
        self._bodies[name].children = ()
        close_tree(old.widget, keep=old.kept())
        return carried

    def _collapsible(self, title: str, css: str, body: widgets.Widget, *, opened: bool = False,
                     on_toggle: Callable[[bool], None] | None = None, box_css: str | None = None) -> Section:
        """:func:`collapsible` in the page's language, its toggle kept in ``toggles``."""
        section = collapsible(self.text(title), css, body, opened=opened, on_toggle=on_toggle, box_css=box_css)
        self.toggles[f"{css}-toggle"] = section.toggle
        self._relabels.append(lambda: setattr(section.toggle, "description", self.text(title)))
        return section

    def _section(self, title: str, *children: widgets.Widget) -> widgets.VBox:
        """:func:`workbook.page.layout.titled` in the page's language."""
        box = titled(self.text(title), *children)
        self._relabels.append(lambda: setattr(box.children[0], "value", heading(self.text(title))))
        return box

    def _view_section(self, view: View) -> widgets.VBox:
        """A view's titled box; a collapsed view gets a toggle and is rendered once opened."""
        box = self._view_boxes[view.title]
        if view.open:
            return self._section(view.title, box)

        def toggled(on: bool) -> None:
            (self._opened.add if on else self._opened.discard)(view.title)
            if view.panel:
                self.panels[view.title].set_open(on)
            if on and self.result is not None:
                self._render_view(view, self.result)

        section = self._collapsible(view.title, view.css, box, opened=view.title in self._opened,
                                    on_toggle=toggled)
        self.view_toggles[view.title] = section.toggle
        return section.box

    def _render_view(self, view: View, result: Result) -> None:
        if view.panel:
            self.panels[view.title].feed(result)
            return
        self.rendered[view.title] = view.render(result, self.lang)
        _show_in(self._view_boxes[view.title], self.rendered[view.title], self.text, self.present)

    # -- the panels of the registry, each built when first opened or asked for ----------------
    def _panel_sections(self, scenario: Scenario) -> list[widgets.Widget]:
        """A collapsed section for each panel this page has, in the registry's order; panels of
        one ``group`` share a box of that class. A page the reader never opens them on sends the
        browser none of their widgets."""
        rows: list[widgets.Widget] = []
        group: widgets.VBox | None = None
        for kind in self._kinds.values():
            box = self._panel_section(kind, opened=kind.opens(self, scenario)).box
            if kind.group is None:
                rows.append(box)
                group = None
                continue
            if group is None or kind.group not in group._dom_classes:
                group = widgets.VBox(layout=widgets.Layout(margin="8px 0"))
                group.add_class(kind.group)
                rows.append(group)
            group.children = (*group.children, box)
        return rows

    def _panel_section(self, kind: type[PagePanel], *, opened: bool) -> Section:
        body = widgets.VBox()
        self._bodies[kind.name] = body

        def toggled(on: bool) -> None:
            if on or kind.name in self._built:
                self.panel(kind.name).set_open(on)

        section = self._collapsible(kind.title, kind.css, body, opened=opened, on_toggle=toggled,
                                    box_css=kind.css if kind.boxed else None)
        self._toggled[kind.name] = toggled
        if opened:
            toggled(True)
        return section

    def panel(self, name: str) -> PagePanel:
        """The panel ``name`` of the registry, built (and shown the current result) if it is not
        yet; KeyError when this page has no such panel."""
        built = self._built.get(name)
        if built is None:
            built = self._built[name] = self._kinds[name].for_page(self)
            self._bodies[name].children = (built.widget,)
            if self.result is not None:
                built.feed(self.result)
        return built

    @property
    def built(self) -> dict[str, PagePanel]:
        """The panels built so far, by name, in the order they were built (a copy)."""
        return dict(self._built)

    def _restore_from_link(self, keys: dict[str, str]) -> str:
        """Give each panel the link's keys it reads; the first notice of a refusal, else ""."""
        notices = [self.panel(kind.name).from_link({k: keys[k] for k in kind.link_keys if k in keys})
                   for kind in self._kinds.values() if any(keys.get(k) for k in kind.link_keys)]
        return next((n for n in notices if n), "")

    def __getattr__(self, name: str) -> Any:
        """A panel of the registry by its name (``page.analysis``), its toggle as ``<name>_on``;
        None for a panel this page has not."""
        kinds = self.__dict__.get("_kinds")
        if kinds is None or name.startswith("__"):
            raise AttributeError(name)
        base = name.removesuffix("_on")
        if base in kinds:
            return self.toggles[f"{kinds[base].css}-toggle"] if name.endswith("_on") else self.panel(base)
        if base in {kind.name for kind in page_panels()}:
            return None
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # -- what a panel may use of its page (workbook.page.panel) -----------------------------
    def evaluate(self, scenario: Scenario) -> Result:
        """The page's evaluation of ``scenario``, from its one cache."""
        return evaluate_cached(self.system, scenario)

    def open(self, name: str) -> None:
        """Open the panel ``name`` (its toggle on)."""
        self.toggles[f"{self._kinds[name].css}-toggle"].value = True

    def is_open(self, name: str) -> bool:
        """Whether the panel ``name`` is open."""
        return name in self._kinds and self.toggles[f"{self._kinds[name].css}-toggle"].value

    def share_url(self, scenario: Scenario | None = None) -> str:
        """The link to ``scenario`` (default: the one shown) in the page's language."""
        return share_url(self.system, self.form.scenario if scenario is None else scenario, self.lang)

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
            reopen = self._relabel(lang)
            self._show(self.form.scenario)
            reopen()

    def set_present(self, on: bool) -> None:
        """Present mode on or off: larger type and charts across the whole width."""
        if on == self.present:
            return
        self.present = on
        self.present_toggle.value = on
        (self.widget.add_class if on else self.widget.remove_class)("wb-present")
        self._present_panels()
        if self.result is not None:
            self._show(self.form.scenario)
        self.follow_address()

    def _present_panels(self) -> None:
        """Every panel that draws its own chart follows present mode."""
        for panel in (*self.panels.values(), *self._built.values()):
            panel.set_present(self.present)

    def follow_address(self) -> None:
        """The address bar: this scenario's link, with what the panels add (a pin, a roll's seed)
        and ``present=1`` in present mode."""
        query = encode_query(self.system, self.form.scenario, self.lang)
        panels = [panel.link_query() for panel in self._built.values()]
        self.urlbar.query = "&".join(q for q in (query, *panels, "present=1" if self.present else "") if q)
        if not self.urlbar.follow:  # in a notebook: the button copies the dashboard's address
            page = page_url()
            self.urlbar.link = f"{page}?{self.urlbar.query}" if page else ""

    def _preset_chosen(self, change: Any) -> None:
        if self._syncing or not change.new:
            return
        self.form.set_scenario(self.system.preset(change.new).scenario)

    def _set_notices(self, *extra: str) -> None:
        self.notices = [n for n in (self._link_notice, *extra) if n]
        self._notice.value = notice_html(*self.notices)

    def _form_changed(self, scenario: Scenario) -> None:
        """The form's change callback: show ``scenario`` now, or, for a change the browser sent
        while the kernel has more to read, once those are read (only the latest is shown)."""
        loop = _event_loop() if self.coalesce and _handling_browser_message() else None
        if loop is None:
            self._show(scenario)
            return
        first = self._pending is None
        self._pending = scenario
        if first:
            loop.call_soon(self._show_pending)

    def _show_pending(self) -> None:
        scenario, self._pending = self._pending, None
        if scenario is None or scenario != self.form.scenario:
            scenario = self.form.scenario  # the form moved on (or was rebuilt): show where it is
        try:
            self._show(scenario)
        except Exception:  # a callback's error would otherwise vanish in the event loop
            logging.getLogger(__name__).exception("could not show %r", scenario)
            raise

    def _show(self, scenario: Scenario) -> None:
        """Evaluate ``scenario`` and refresh every panel."""
        text, lang, system = self.text, self.lang, self.system
        try:
            result = evaluate_cached(system, scenario)
        except ValueError as err:  # a ScenarioError, or a combination the rules refuse
            self._set_notices(f"{text('This scenario could not be evaluated')}: {err}")
            return
        self._set_notices()
        self.result = result
        # Cheapest first: the browser handles updates in the order they are sent, and redrawing
        # a chart takes it tens of milliseconds; the numbers should not wait behind the charts.
        self.tables["headline"] = headline_grid(result, lang, system=system)
        self.tables["outcomes"] = outcome_grid(result, lang, system=system)
        self._headline.value = house_rule_banner(scenario, text) + headline_cards(self.tables["headline"], text)
        self._table.value = table_html(self.tables["outcomes"], OUTCOME_COLUMNS, "wb-outcome-grid", text)
        self.figures["outcome"] = outcome_chart(result, lang, system=system)
        _show_in(self._outcome_chart, self.figures["outcome"], text, self.present)
        self.figures["at_least"] = at_least_chart(result, lang, system=system)
        _show_in(self._at_least_chart, self.figures["at_least"], text, self.present)
        self._trace.value = trace_html(result, lang, system=system)
        # "" in JupyterLab when the notebook's dashboard address is unknown: no link then
        url = share_url(system, scenario, lang)
        extra = "&".join(q for q in (panel.share_query() for panel in self._built.values()) if q)
        url = html.escape(f"{url}{'&' if '?' in url else '?'}{extra}" if url and extra else url, quote=True)
        self._share.value = url and (f"<b>{html.escape(text('Share this scenario'))}:</b> "
                                     f'<a class="wb-share-anchor" href="{url}">{url}</a>')
        self._sync_preset(scenario)
        self.follow_address()
        for view in self.views:  # the system's own panels, heavier, after the common ones
            if view.title in self._opened:
                self._render_view(view, result)
            else:
                self.rendered.pop(view.title, None)
        for kind in self._kinds.values():  # e.g. Design's toggle marks a house rule, even closed
            if kind.needed(self, scenario):
                self.panel(kind.name)
        for panel in list(self._built.values()):  # the collapsed panels built so far
            panel.feed(result)

    def _sync_preset(self, scenario: Scenario) -> None:
        match = next((p for p in self.system.presets if p.scenario == scenario), None)
        self._syncing = True
        self.preset.value = match.name if match else ""
        self._syncing = False
        self._preset_info.value = "" if match is None else (
            f"<small>{html.escape(self.text(match.description))}"
            + (f" <span class='wb-cite'>[{html.escape(self.text(match.citation))}]</span>"
               if match.citation else "") + "</small>")


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
    :class:`NotebookDashboard`: ``d.scenario``, ``d.result``, ``d.on_change(callback)``.

    A designer's rule (``rules_core.rule(...)``) not registered yet is registered here: every
    panel looks systems up by id (a sweep, the page of games), as the rest of the workbook does."""
    if isinstance(system, Scenario):
        if scenario is not None:
            raise TypeError("give the scenario once: dashboard(scenario) or dashboard(id, scenario=...)")
        system, scenario = system.system, system
    if isinstance(system, System) and all_systems().get(system.id) is not system:
        register(system)  # a built-in game's id is refused with the designer's RuleError
    return NotebookDashboard(system, scenario=scenario, **kw)
