"""The dashboard: one assembly of controls, numbers, charts, table, the system's own views, the
panels, the trace and the link (every part's CSS class: ``docs/workbook.md``).

A notebook shows a system's dashboard with two lines (:mod:`workbook.pages.notebook`)::

    from workbook import dashboard
    dashboard("infinity-n4")

The page holds one :class:`workbook.page.state.PageState` (scenario, language, present mode,
the link's own keys), read from a link by :func:`workbook.page.state.read_link`, and draws it;
its panels (:mod:`workbook.page.panel`) read it, through :class:`workbook.page.panel.PageContext`.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from rules_core import Result, System, get_system
from rules_core.scenario import Scenario, parse

from ..page.batch import Coalesced
from ..page.boxes import Section, collapsible, html_box, output, show_in
from ..page.controls import ScenarioForm
from ..page.host import PanelHost
from ..page.layout import heading, headline_cards, house_rule_banner, numbers_first, page_css, titled
from ..page.notices import FieldMarks
from ..page.panel import PagePanel
from ..page.share import encode_query, page_url, preheating, request_query, share_url
from ..page.state import PageState, read_link
from ..page.table import Table
from ..page.text import translator
from ..page.toolbar import Toolbar
from ..page.views import (OUTCOME_COLUMNS, Rendered, SystemView, View, at_least_chart, evaluate_cached,
                          headline_grid, notice_html, outcome_chart, outcome_grid, system_views, table_html,
                          trace_html)
from ..panels.export import dashboard_report
from ..panels.registry import page_keys, page_panels

__all__ = ["View", "Dashboard", "Section", "collapsible"]


class Dashboard:
    """The interactive page for one system.

    ``system`` is an id or a :class:`rules_core.System`. The first scenario is, in order: the
    one the URL ``query`` names (read from the page when ``query`` is None; a refused query
    shows a notice), else ``scenario``, else the system's default. ``views`` are the system's
    own views (by default those it declares, :func:`workbook.page.views.system_views`): each a
    :class:`View` or a panel class; ``lang`` forces the language (else the query's ``lang``,
    else the system's first). A query's fields change the system's default scenario (or the
    preset it names), like the links the page writes; ``present=1`` opens it in present mode.

    ``state`` (:class:`workbook.page.state.PageState`) is what the page shows; ``lang`` and
    ``present`` read it (``scenario`` is the form's, which ``state`` follows). Replaced on every change: ``result``, ``figures``
    (``"outcome"``, ``"at_least"``), ``tables`` (``"outcomes"``, ``"headline"``: each a
    :class:`workbook.page.table.Table`, ``.to_frame()`` for pandas), ``rendered`` (each view's
    output by title), ``notices``. Panels: ``panel(name)`` builds one on first asking (KeyError
    where the page has not that panel), ``toggle(name)`` is its toggle, ``built`` those built.
    Widgets: ``widget`` (the page), ``form`` (:class:`ScenarioForm`), ``preset``, ``language``
    (or None), ``toggles`` (every toggle-opened part by its toggle's class, e.g.
    ``"wb-rulings-toggle"``), ``view_toggles`` (each collapsed :class:`View`'s, by title).

    The page knows no panel by name: it asks each panel class (the system's, then those of
    :data:`workbook.panels.registry.PANELS`) the questions of :mod:`workbook.page.panel`.

    Speed: each scenario is evaluated once (:func:`workbook.page.views.evaluate_cached`); an
    output that did not change is not sent again; collapsed parts are not rendered; the
    browser's control changes that arrive while one is being shown are shown once, the latest
    (:class:`workbook.page.batch.Coalesced`; ``coalesce=False`` turns that off). In a kernel
    Voilà preheats, the page is built before anyone asks for it and the URL query is applied
    when the page is requested (:meth:`apply_query`).
    """

    #: Coalesce control changes from the browser (see the class docstring).
    coalesce = True

    def __init__(self, system: System | str, *, scenario: Scenario | dict[str, Any] | None = None,
                 query: str | None = None, views: Sequence[SystemView] | None = None,
                 lang: str | None = None):
        self.system = system if isinstance(system, System) else get_system(system)
        if lang is not None and lang not in self.system.languages:
            raise ValueError(f"lang {lang!r} is not one of {self.system.id}'s languages "
                             f"{self.system.languages}")
        start = (parse(self.system.scenario_cls, scenario) if scenario is not None
                 else self.system.default_scenario())
        self._forced_lang, self._keys = lang, page_keys()
        # Preheated by Voilà: build now, read the query once the page is requested (below).
        later = query is None and preheating()
        self.state: PageState = read_link(
            self.system, "" if later else request_query() if query is None else query, scenario=start,
            lang=self.system.languages[0], forced_lang=lang, keys=self._keys)
        self.views = system_views(self.system.id) if views is None else tuple(views)
        self.result: Result | None = None
        self.figures: dict[str, go.Figure] = {}
        self.tables: dict[str, Table] = {}
        self.rendered: dict[str, Rendered] = {}
        self.notices: list[str] = []
        self.view_toggles: dict[str, widgets.ToggleButton] = {}
        self._opened = {v.title for v in self._views() if v.open}
        self._changed = Coalesced(lambda s: self._show(s), lambda: self.form.scenario, lambda: self.coalesce)
        self.widget = widgets.VBox(layout=widgets.Layout(max_width="1400px"))
        self.widget.add_class("wb-dashboard")
        if self.present:
            self.widget.add_class("wb-present")
        self._build(self.state.scenario)
        if later:
            self.apply_query(request_query())  # waits until the page is requested

    @property
    def lang(self) -> str:
        """The page's language."""
        return self.state.lang

    @property
    def present(self) -> bool:
        """Whether the page is in present mode."""
        return self.state.present

    @property
    def scenario(self) -> Scenario:
        """The scenario shown."""
        return self.form.scenario

    def _views(self) -> list[View]:
        return [v for v in self.views if isinstance(v, View)]

    def apply_query(self, query: str) -> None:
        """Show what a page URL's ``query`` asks for (scenario and language), as the page would
        have been built with it; a refused query keeps the scenario and shows its notice."""
        asked = read_link(self.system, query, scenario=self.form.scenario, lang=self.lang,
                          forced_lang=self._forced_lang, keys=self._keys)
        self.state = replace(self.state, keys=asked.keys, notice=asked.notice)
        if asked.present:
            self.set_present(True)
        self._restore(asked.keys)
        for name in self.host.opening(asked.scenario):  # e.g. a link to a house rule opens Design
            self.open(name)
        reopen = self._relabel(asked.lang) if asked.lang != self.lang else None
        if asked.scenario != self.form.scenario:
            self.form.set_scenario(asked.scenario)
        elif reopen is None and not asked.keys and self.result is not None:
            # the page as built (a preheated one asked for with a plain link, the usual case):
            # only the notices and the link depend on the request, not the numbers
            self._set_notices()
            self._show_link(asked.scenario)
        else:  # same scenario: refresh what depends on the request (notices, link, language)
            self._show(asked.scenario)
        if reopen is not None:
            reopen()

    def _restore(self, keys: Mapping[str, str]) -> None:
        """Give the panels the link's own ``keys``; a refusal is said, unless the link's is."""
        self.state = replace(self.state, notice=self.state.notice or self.host.restore(dict(keys)))

    # -- building the page ----------------------------------------------------------------
    def _build(self, scenario: Scenario) -> None:
        """Build every widget in the page's language, showing ``scenario``."""
        system = self.system
        self.text = translator(system, self.lang)
        self.toggles: dict[str, widgets.ToggleButton] = {}
        #: form controls a panel took out of the main form, by the panel's name (panel.prepare)
        self.taken: dict[str, list[widgets.Widget]] = {}
        #: what says the page's own words again in another language (see _relabel)
        self._relabels: list[Callable[[], None]] = []

        header = html_box("wb-title", page_css())  # the notebook above gives the title and lead
        self.toolbar = bar = Toolbar(system, self.lang, self.present, on_query=self.apply_query,
                                     on_present=self.set_present, on_lang=self.set_lang,
                                     on_preset=lambda s: self.form.set_scenario(s),
                                     on_help=lambda on: self.form.show_help(on))
        self.urlbar, self.present_toggle, self.language = bar.urlbar, bar.present_toggle, bar.language
        self.preset, self.help_toggle = bar.preset, bar.help_toggle
        self.form = ScenarioForm(system, scenario, self.lang)
        self.form.on_change(self._changed)
        own = [v for v in self.views if not isinstance(v, View)]
        kinds = [*own, *page_panels()]
        for kind in kinds:  # e.g. the rule's constants leave the main controls for Design
            kind.prepare(self)
        self.host = PanelHost(self, [kind for kind in kinds if kind.applies(self)], viewed=own,
                              collapsible=self._collapsible, titled=self._section)
        self._notice = html_box("wb-notice")
        self._notice.add_class("wb-top-notice")
        self._stale = html_box("wb-stale-banner")
        self._headline = html_box("wb-headline")
        self._outcome_chart = output("wb-outcome-chart")
        self._at_least_chart = output("wb-at-least-chart")
        self._table = html_box("wb-table")
        self._view_boxes = {v.title: output(v.css) for v in self._views()}
        self._trace = html_box("wb-trace")
        self._share = html_box("wb-share-link")

        self.form.widget.layout.flex = "0 0 auto"  # its own height; the box scrolls
        row, self._results = numbers_first([self._stale, self._headline, self._outcome_chart, self._at_least_chart],
                                           [bar.top, bar.preset_info, self.form.widget])
        self._marks = FieldMarks(self.form, self._results, self._stale)
        rows = [header, bar.bar, self._notice, row, self._section("Outcome table", self._table)]
        rows += [self._view_section(v, scenario) for v in self.views]
        rows += self.host.sections([k for k in self.host.kinds.values() if k not in own], scenario)
        rows += [self._section("Trace of the rules applied", self._trace), self._share]
        self.widget.children = rows
        bar.say(self.lang, self.text)
        self._restore(self.state.keys)
        self._show(self.form.scenario)

    def _relabel(self, lang: str) -> Callable[[], None]:
        """Say the whole page in ``lang``, in place: each widget built keeps its state and gets
        its words in the new language. The next :meth:`_show` says the numbers' parts (cards,
        table, charts, trace) in it. The panels built so far are closed; the returned
        ``reopen()``, called after that show (the numbers first), builds again those that were
        open or carry something (a pinned A)."""
        self.state = replace(self.state, lang=lang)
        self.text = translator(self.system, lang)
        self.toolbar.say(lang, self.text)
        self.form.set_lang(lang)
        for relabel in self._relabels:
            relabel()
        return self.host.drop_all()

    def _collapsible(self, title: str, css: str, body: widgets.Widget, **kw: Any) -> Section:
        """:func:`collapsible` in the page's language, its toggle kept in ``toggles``."""
        section = collapsible(self.text(title), css, body, **kw)
        self.toggles[f"{css}-toggle"] = section.toggle
        self._relabels.append(lambda: setattr(section.toggle, "description", self.text(title)))
        return section

    def _section(self, title: str, *children: widgets.Widget) -> widgets.VBox:
        """:func:`workbook.page.layout.titled` in the page's language."""
        box = titled(self.text(title), *children)
        self._relabels.append(lambda: setattr(box.children[0], "value", heading(self.text(title))))
        return box

    def _view_section(self, view: SystemView, scenario: Scenario) -> widgets.Widget:
        """A view's titled box (a collapsed view gets a toggle and is rendered once opened), or
        the section of a panel the system lists among its views."""
        if not isinstance(view, View):
            return self.host.section(view, scenario)
        box = self._view_boxes[view.title]
        if view.open:
            return self._section(view.title, box)

        def toggled(on: bool) -> None:
            (self._opened.add if on else self._opened.discard)(view.title)
            if on and self.result is not None:
                self._render_view(view, self.result)

        section = self._collapsible(view.title, view.css, box, opened=view.title in self._opened,
                                    on_toggle=toggled)
        self.view_toggles[view.title] = section.toggle
        return section.box

    def _render_view(self, view: View, result: Result) -> None:
        self.rendered[view.title] = view.render(result, self.lang)
        show_in(self._view_boxes[view.title], self.rendered[view.title], self.text, self.present)

    # -- the panels, and what a panel may use of its page (workbook.page.panel.PageContext) -----
    def panel(self, name: str) -> PagePanel:
        """The panel ``name``, built (and shown the current result) if it is not yet; KeyError
        when this page has no such panel."""
        return self.host.panel(name)

    def toggle(self, name: str) -> widgets.ToggleButton | None:
        """The toggle of the panel ``name`` (None for one always shown; KeyError when this page
        has no such panel)."""
        return self.host.toggle(name)

    @property
    def built(self) -> dict[str, PagePanel]:
        """The panels built so far, by name, in the order they were built (a copy)."""
        return self.host.built

    def evaluate(self, scenario: Scenario) -> Result:
        """The page's evaluation of ``scenario``, from its one cache."""
        return evaluate_cached(self.system, scenario)

    def open(self, name: str) -> None:
        """Open the panel ``name`` (its toggle on)."""
        self.host.open(name)

    def is_open(self, name: str) -> bool:
        """Whether the panel ``name`` is open."""
        return self.host.is_open(name)

    def share_url(self, scenario: Scenario | None = None) -> str:
        """The link to ``scenario`` (default: the one shown) in the page's language."""
        return share_url(self.system, self.form.scenario if scenario is None else scenario, self.lang)

    def report(self, share_link: str = "") -> str:
        """The page's HTML report, as it shows (:func:`workbook.panels.export.dashboard_report`)."""
        return dashboard_report(self, share_link)

    def follow_address(self) -> None:
        """The address bar: this scenario's link, with what the panels add (a pin, a roll's seed)
        and ``present=1`` in present mode."""
        query = encode_query(self.system, self.form.scenario, self.lang)
        panels = self.host.queries(lambda panel: panel.link_query())
        self.urlbar.query = "&".join(q for q in (query, *panels, "present=1" if self.present else "") if q)
        if not self.urlbar.follow:  # in a notebook: the button copies the dashboard's address
            page = page_url()
            self.urlbar.link = f"{page}?{self.urlbar.query}" if page else ""

    # -- reacting ---------------------------------------------------------------------------
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
        self.state = replace(self.state, present=on)
        self.present_toggle.value = on
        (self.widget.add_class if on else self.widget.remove_class)("wb-present")
        self.host.set_present(on)
        if self.result is not None:
            self._show(self.form.scenario)
        self.follow_address()

    def _show_link(self, scenario: Scenario) -> None:
        """The share link, the preset shown and the address bar of ``scenario`` (what depends on
        the page's own address as well as on the scenario)."""
        # "" in JupyterLab when the notebook's dashboard address is unknown: no link then
        url = share_url(self.system, scenario, self.lang)
        extra = "&".join(self.host.queries(lambda panel: panel.share_query()))
        url = html.escape(f"{url}{'&' if '?' in url else '?'}{extra}" if url and extra else url, quote=True)
        self._share.value = url and (f"<b>{html.escape(self.text('Share this scenario'))}:</b> "
                                     f'<a class="wb-share-anchor" href="{url}">{url}</a>')
        self.toolbar.show_preset(scenario, self.text)
        self.follow_address()

    def _set_notices(self, *extra: str) -> None:
        self.notices = [n for n in (self.state.notice, *extra) if n]
        self._notice.value = notice_html(*self.notices)

    def _show(self, scenario: Scenario) -> None:
        """Evaluate ``scenario`` and draw the page's state and result in every part."""
        text, lang, system = self.text, self.lang, self.system
        try:
            result = evaluate_cached(system, scenario)
        except ValueError as err:  # a ScenarioError, or a combination the rules refuse
            self._set_notices(f"{text('This scenario could not be evaluated')}: {err}")
            return
        self.state = replace(self.state, scenario=scenario)
        self._set_notices()
        self.result = result
        # Cheapest first: the browser handles updates in the order they are sent, and redrawing
        # a chart takes it tens of milliseconds; the numbers should not wait behind the charts.
        self.tables["headline"] = headline_grid(result, lang, system=system)
        self.tables["outcomes"] = outcome_grid(result, lang, system=system)
        self._headline.value = house_rule_banner(scenario, text) + headline_cards(self.tables["headline"], text)
        self._table.value = table_html(self.tables["outcomes"], OUTCOME_COLUMNS, "wb-outcome-grid", text)
        self.figures["outcome"] = outcome_chart(result, lang, system=system)
        show_in(self._outcome_chart, self.figures["outcome"], text, self.present)
        self.figures["at_least"] = at_least_chart(result, lang, system=system)
        show_in(self._at_least_chart, self.figures["at_least"], text, self.present)
        self._trace.value = trace_html(result, lang, system=system)
        self._show_link(scenario)
        for view in self._views():  # the system's own views, heavier, after the common parts
            if view.title in self._opened:
                self._render_view(view, result)
            else:
                self.rendered.pop(view.title, None)
        self.host.update(result)
