"""One dodge, four games: each system's scenario with and without its reaction, side by side,
and the reaction's worth against the defender's chance of one unopposed evasion roll.

The games are every registered system that declares its evasion: the four built in, and a
designer's own rule once registered (``rules_core.register(rule(..., evasion=Evasion(...)))``),
beside them in the table, the chart, the link and the export; the page's name counts the games
it shows (:attr:`FourGames.title`: "One dodge, five games" with one rule of a designer's).

For each system that declares its evasion (:class:`rules_core.Evasion`) the page takes a
scenario — a preset (by default the first whose reaction can be taken away) or a pasted share
link — and shows P(no hit), expected hits and the system's damage headline with and without
the reaction, and what the reaction is worth (percentage points of P(no hit) gained, hits and
damage avoided), all exact. The chart sweeps each system's evasion attribute over its range,
the attack held fixed, and draws the worth against the chance of passing one unopposed
evasion roll: how a flat d20, a 3d6 bell and a d100 turn skill into safety.

The page behaves as the games' dashboards do: the address bar follows its choices and
**Copy link** copies it (:class:`workbook.page.urlbar.UrlBar`); the link reopens the same choices —
``infinity-n4=zhanshi-vs-fusilier`` for a preset other than the default, each key of a pasted
link's own query under the system's id for a pasted link
(``eldfall.preset=dodge-vs-critical&eldfall.defender.ag=15``), ``measure=hits_avoided`` for the
chart's other measure; **Present** (``present=1``, :mod:`workbook.page.present`) is the dashboards'
present mode (the ``wb-present`` class of :func:`workbook.page.layout.page_css`, charts with larger
type). A choice the page refuses (a preset or a link without a reaction to take away, a link
that cannot be read) leaves the scenario in use — and the dropdown and the link field showing
it — with a notice saying why. **Export** offers the side-by-side table as CSV (every number an
exact ``n/d`` beside its float, :func:`table_csv`) and the page as one offline HTML report
(:meth:`FourGames.make_report`, with :mod:`workbook.panels.export`'s report machinery).

CSS classes: ``wb-dashboard wb-four`` (``wb-toolbar`` with ``wb-urlbar``'s ``wb-copy-link`` and
``wb-present-toggle``; ``wb-four-source-<system id>``, ``wb-four-link-<system id>``,
``wb-four-table`` with rows ``tr[data-key]`` and cells ``td[data-system]`` carrying
``data-exact``, ``wb-four-measure``, ``wb-four-chart``, ``wb-four-notice``,
``wb-four-export`` (``wb-four-export-csv``, ``wb-four-export-report``,
``wb-four-export-report-link``), ``wb-four-assumptions``); in the report, ``wb-report-four-table``
and ``wb-report-four-chart``.
"""

from __future__ import annotations

import datetime
import html
from collections.abc import Sequence
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import ipywidgets as widgets
import plotly.graph_objects as go

from rules_core import System
from rules_core.compare import Worth, WorthPoint, evasion_of, worth_curve
from rules_core.scenario import Scenario, one_line
from rules_core.sweeps import allowed_values

from ..page.chart import chart
from ..page.layout import page_css
from ..page.notices import link_notice
from ..page.present import split_page_keys
from ..page.share import decode_query, encode_query, page_url, preheating, request_query
from ..page.urlbar import UrlBar
from ..panels.export import download_link, figure_div, report_document
from .catalog import dashboards, default_preset, games_title, scenario_worth, systems_with_evasion
from .worth_table import MEASURES, ROWS, Row, table_csv, table_html, table_rows, worth_figure, worth_rows

__all__ = ["systems_with_evasion", "default_preset", "worth_rows", "table_rows", "table_csv", "worth_figure", "ROWS",
           "FourGames", "MEASURES", "Row", "TITLE"]

#: The page's name with the four games built in (its tab reads "One dodge, four games — Dodge
#: Workbook"); a page showing another number of games says so (:attr:`FourGames.title`).
TITLE = games_title(4)

_LINK = "(a pasted share link)"
#: The page's own styles, beside the workbook's (workbook.page.layout.page_css): the games' pickers
#: side by side where there is room, the table's row names kept in view while it scrolls
#: sideways on a phone, its exact values readable at a projector.
_CSS = """<style>
.wb-four-pickers { display: grid !important; grid-template-columns: repeat(auto-fill, minmax(min(100%, 31em), 1fr));
  column-gap: 16px; }
.wb-four-grid th:first-child, .wb-four-grid td:first-child { position: sticky; left: 0; background: #fff; z-index: 1; }
@container wb-page (max-width: 760px) {
  .wb-four-grid td:first-child { min-width: 8em; max-width: 9em; padding-left: 2px !important; }
  .wb-four-pickers .widget-label { width: 8.5em !important; min-width: 8.5em; }
}
.wb-present .wb-four-grid { font-size: 22px !important; }
.wb-present .wb-four-grid td div, .wb-present .wb-four-grid small { font-size: 18px !important; }
</style>"""


def _query_of(link: str) -> str:
    """The query of a pasted link (a full URL, or ``?a=b``, or ``a=b``), without the keys that
    set a page rather than a scenario (``present=1``, ``pin=...``)."""
    link = link.strip()
    if "?" in link:
        link = urlsplit(link).query if "://" in link else link.split("?", 1)[1]
    return split_page_keys(link)[0]


def _dashboard_link(system: System, scenario: Scenario) -> str:
    """The link of ``scenario`` on its own system's dashboard, beside this page (``?query``
    alone when that dashboard is not found)."""
    query = encode_query(system, scenario)
    notebook = next((e.notebook for e in dashboards() if e.system is not None and e.system.id == system.id), "")
    here = page_url()
    base = here.rsplit("/", 1)[0] + "/" if here and notebook else ""
    return f"{base}{notebook}?{query}"


class FourGames:
    """The four-games page: per system a scenario source, the side-by-side table, the chart,
    the export, the address bar and present mode.

    ``query`` is the page's address query (read from the page when None, as a dashboard reads
    it: see the module for its keys); a refused part of it shows a notice and keeps the default.
    ``scenarios`` maps each system id to the scenario shown, ``choices`` to how it was chosen
    (a preset's name, or "" for a pasted link), ``worths`` to its
    :class:`~rules_core.compare.Worth`, ``curves`` to its worth curve; ``figure`` is the chart,
    ``notices`` the notices shown (by system id; "" for the page's own link), ``report`` the
    last report made; ``title`` the page's name, counting the games shown ("One dodge, five
    games" beside a designer's rule).
    """

    def __init__(self, systems: Sequence[System] | None = None, measure: str = "p_no_hit", *,
                 query: str | None = None):
        self.systems = tuple(systems) if systems is not None else systems_with_evasion()
        self.title = games_title(len(self.systems))
        self._stem = self.title.lower().replace(",", "").replace(" ", "-")  # one-dodge-four-games
        self.defaults = {s.id: default_preset(s) for s in self.systems}
        self.scenarios: dict[str, Scenario] = {}
        self.choices: dict[str, str] = {}
        self.worths: dict[str, Worth] = {}
        self.curves: dict[str, tuple[WorthPoint, ...]] = {}
        self.figure: go.Figure | None = None
        self.notices: dict[str, str] = {}
        self.report: str | None = None
        self.present = False
        self.sources: dict[str, widgets.Dropdown] = {}
        self.links: dict[str, widgets.Text] = {}
        self._syncing = False
        self._building = True
        pickers = []
        for system in self.systems:
            source = widgets.Dropdown(options=[(p.title, p.name) for p in system.presets] + [(_LINK, "")],
                                      value=self.defaults[system.id], description=system.name,
                                      style={"description_width": "10em"},
                                      layout=widgets.Layout(width="100%", max_width="34em"))
            source.add_class(f"wb-four-source-{system.id}")
            link = widgets.Text(placeholder="paste a share link of this game's dashboard, then Enter",
                                continuous_update=False,
                                layout=widgets.Layout(width="100%", max_width="34em", display="none"))
            link.add_class(f"wb-four-link-{system.id}")
            source.observe(lambda _ch, s=system: self._source_changed(s), names="value")
            link.observe(lambda _ch, s=system: self._link_changed(s), names="value")
            self.sources[system.id], self.links[system.id] = source, link
            pickers.append(widgets.VBox([source, link], layout=widgets.Layout(max_width="100%", min_width="0")))
            self.choices[system.id] = source.value
            self.scenarios[system.id] = system.preset(source.value).scenario
        self.urlbar = UrlBar.for_page(self.apply_query, label="Copy link", copied="Copied",
                                      title=f"{self.title} — Dodge Workbook")
        self.present_toggle = widgets.ToggleButton(value=False, description="Present", icon="television",
                                                   tooltip="Larger type and charts, for a projector",
                                                   layout=widgets.Layout(width="auto"))
        self.present_toggle.add_class("wb-present-toggle")
        self.present_toggle.observe(lambda ch: self.set_present(ch.new), names="value")
        toolbar = widgets.HBox([self.urlbar, self.present_toggle],
                               layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        toolbar.add_class("wb-toolbar")
        self.measure = widgets.ToggleButtons(options=[(v, k) for k, v in MEASURES.items()], value=measure,
                                             style={"button_width": "auto"})
        self.measure.add_class("wb-four-measure")
        self.measure.observe(lambda _ch: self._measure_changed(), names="value")
        self.notice = widgets.HTML()
        self.notice.add_class("wb-four-notice")
        self.table = widgets.HTML()
        self.table.add_class("wb-four-table")
        self.chart = chart("wb-four-chart")
        self.csv_link = widgets.HTML()
        self.csv_link.add_class("wb-four-export-csv")
        self.report_button = widgets.Button(description="Make an HTML report", layout=widgets.Layout(width="auto"))
        self.report_button.add_class("wb-four-export-report")
        self.report_button.on_click(lambda _b: self.make_report())
        self.report_link = widgets.HTML()
        self.report_link.add_class("wb-four-export-report-link")
        export = widgets.HBox([widgets.HTML("<b>Export:</b>"), self.csv_link, self.report_button, self.report_link],
                              layout=widgets.Layout(flex_flow="row wrap", align_items="center", margin="6px 0"))
        export.add_class("wb-four-export")
        self.assumptions = widgets.HTML(self._assumptions_html())
        self.assumptions.add_class("wb-four-assumptions")
        style = widgets.HTML(page_css() + _CSS)  # the workbook's style sheet: the chart keeps its height
        choose = widgets.VBox(pickers)
        choose.add_class("wb-four-pickers")
        self.widget = widgets.VBox([style, toolbar, choose, self.notice, self.table, self.measure,
                                    self.chart, export, self.assumptions],
                                   layout=widgets.Layout(max_width="1200px"))
        self.widget.add_class("wb-dashboard")  # the dashboards' page styles: phone, laptop, projector
        self.widget.add_class("wb-four")
        for system in self.systems:
            self.worths[system.id], self.curves[system.id] = self._compute(self.scenarios[system.id])
        self._building = False
        later = query is None and preheating()  # built ahead of the request: read it once asked
        self.apply_query("" if later else (request_query() if query is None else query))
        if later:
            self.apply_query(request_query())

    # -- the address ------------------------------------------------------------------------
    def apply_query(self, query: str) -> None:
        """Show what the page address's ``query`` asks for (see the module); a part that cannot
        be used keeps what is shown and says why in a notice."""
        query, page = split_page_keys(query)
        if page.get("present") == "1":
            self.set_present(True, follow=False)
        self.notices.pop("", None)
        problems, presets, links = [], {}, {}
        try:
            pairs = parse_qsl(query, keep_blank_values=True, max_num_fields=300)
        except ValueError:
            pairs, problems = [], ["it names more than 300 things"]
        known = {s.id: s for s in self.systems}
        for key, value in pairs:
            head, dot, rest = key.partition(".")
            if key == "measure":
                if value in MEASURES:
                    self._set(self.measure, value)
                else:
                    problems.append(f"measure={one_line(repr(value), 40)} is not one of {', '.join(MEASURES)}")
            elif head not in known:
                problems.append(f"{one_line(repr(key), 40)} is not a game of this page "
                                f"(its games: {', '.join(known)})")
            elif dot:
                links.setdefault(head, []).append((rest, value))
            else:
                presets[head] = value
        for system in self.systems:
            if system.id in links:
                self._set(self.sources[system.id], "")
                self._set(self.links[system.id], "?" + urlencode(links[system.id], safe="."))
                self._link_changed(system, show=False)
            elif system.id in presets:
                name = presets[system.id]
                if name in [p.name for p in system.presets]:
                    self._use(system, system.preset(name).scenario, name)
                else:
                    problems.append(f"{system.name} has no preset {one_line(repr(name), 40)}")
        if problems:
            self.notices[""] = "The page's link was not used in full: " + "; ".join(problems)
        self._show()

    def share_query(self) -> str:
        """The page's query: each game's choice that is not its default, the chart's measure when
        not the first, ``present=1`` in present mode."""
        parts = []
        for system in self.systems:
            choice = self.choices[system.id]
            if choice and choice != self.defaults[system.id]:
                parts.append(urlencode([(system.id, choice)], safe="."))
            elif not choice:
                pairs = parse_qsl(encode_query(system, self.scenarios[system.id]), keep_blank_values=True)
                parts.append(urlencode([(f"{system.id}.{k}", v) for k, v in pairs], safe="."))
        if self.measure.value != next(iter(MEASURES)):
            parts.append(f"measure={self.measure.value}")
        if self.present:
            parts.append("present=1")
        return "&".join(parts)

    def share_link(self) -> str:
        """The page's address with :meth:`share_query` (``?query`` alone when the page's own
        address is unknown)."""
        query = self.share_query()
        return f"{page_url()}?{query}" if query else page_url()

    def _follow_address(self) -> None:
        self.urlbar.query = self.share_query()
        if not self.urlbar.follow:  # in a notebook: the button copies the page's Voilà address
            page = page_url()
            self.urlbar.link = f"{page}?{self.urlbar.query}" if page and self.urlbar.query else page

    def set_present(self, on: bool, follow: bool = True) -> None:
        """Present mode on or off: larger type and the chart across the whole width."""
        if on == self.present:
            return
        self.present = on
        self._set(self.present_toggle, on)
        (self.widget.add_class if on else self.widget.remove_class)("wb-present")
        if self.figure is not None:
            self.chart.show(self.figure, on)
        if follow:
            self._follow_address()

    # -- choices ----------------------------------------------------------------------------
    def _set(self, widget: widgets.Widget, value: Any) -> None:
        """Set a control without it counting as the reader's choice."""
        self._syncing = True
        try:
            widget.value = value
        finally:
            self._syncing = False

    def _reflect(self, system: System) -> None:
        """The system's dropdown and link field show the choice in use."""
        choice = self.choices[system.id]
        self._set(self.sources[system.id], choice)
        if not choice:
            self._set(self.links[system.id], "?" + encode_query(system, self.scenarios[system.id]))
        self.links[system.id].layout.display = "flex" if not choice else "none"

    def _source_changed(self, system: System) -> None:
        if self._syncing:
            return
        chosen = self.sources[system.id].value
        if chosen:
            self._use(system, system.preset(chosen).scenario, chosen)
            self._show()
            return
        self.links[system.id].layout.display = "flex"  # a link to paste; nothing changes until then
        if self.links[system.id].value.strip():
            self._link_changed(system)

    def _link_changed(self, system: System, show: bool = True) -> None:
        if self._syncing or self.sources[system.id].value != "":
            return
        text = self.links[system.id].value
        if not text.strip():
            return
        shared = decode_query(system, _query_of(text))
        if shared.scenario is None:
            said = link_notice(system, _query_of(text), fallback=shared.notice or "it names no scenario",
                               end="Keeping the scenario in use.", shared=shared)
            self.notices[system.id] = f"{system.name}: the link was not used — {said}"
            self._reflect(system)
        else:
            self._use(system, shared.scenario, "")
        if show:
            self._show()

    def _use(self, system: System, scenario: Scenario, choice: str) -> bool:
        """Show ``scenario`` (chosen as ``choice``) for ``system``; when its reaction cannot be
        taken away, keep the scenario in use with a notice. The controls show what is used."""
        try:
            self.worths[system.id], self.curves[system.id] = self._compute(scenario)
        except ValueError as err:  # a ScenarioError: nothing to take away, or refused
            self.notices[system.id] = f"{system.name}: this scenario has no reaction to take away — {err}"
            self._reflect(system)
            return False
        self.scenarios[system.id], self.choices[system.id] = scenario, choice
        self.notices.pop(system.id, None)
        self._reflect(system)
        return True

    @staticmethod
    def _compute(scenario: Scenario) -> tuple[Worth, tuple[WorthPoint, ...]]:
        """The scenario's worth and its worth curve, the scenario's own worth computed once (kept
        by :func:`workbook.pages.catalog.scenario_worth`, which choosing the default preset filled) and
        put in the curve at the attribute's own value."""
        shown = scenario_worth(scenario)
        evasion = evasion_of(scenario.system)
        own = scenario.get(evasion.attribute)
        values = allowed_values(scenario, evasion.attribute)
        others = iter(worth_curve(scenario, [v for v in values if v != own]))
        curve = tuple(WorthPoint(own, evasion.unopposed(scenario), shown) if v == own else next(others)
                      for v in values)
        return shown, curve

    def _measure_changed(self) -> None:
        if self._building:
            return
        self._draw()
        if not self._syncing:
            self._follow_address()

    # -- showing ----------------------------------------------------------------------------
    def _assumptions_html(self) -> str:
        items = "".join(f"<li><b>{html.escape(s.name)}</b>: the evasion attribute is "
                        f"<code>{html.escape(s.evasion.attribute)}</code>; no reaction means "
                        f"{html.escape(', '.join(f'{k} = {v!r}' for k, v in s.evasion.no_reaction.items()))}; "
                        f"an unopposed evasion roll is {html.escape(s.evasion.unopposed_text)}.</li>"
                        for s in self.systems)
        return ("<h4>Assumptions</h4><ul>"
                "<li>Each game keeps its own scenario: the attack, the attackers and everything else are held "
                "fixed while the curve sweeps the evasion attribute over every value it allows.</li>"
                "<li>“With” and “without” differ only in the reaction: without it the defender makes no evasion "
                "roll at all.</li>"
                "<li>The worth is P(no hit) with the reaction minus P(no hit) without it (in percentage points), "
                "and the expected hits (and damage) without it minus with it.</li>"
                f"{items}"
                "<li>Where the attribute climbs past the die (a d20 attribute above 20), the unopposed chance "
                "stays at 100% while the worth can still grow against an opposed roll: those points stack up "
                "at the right edge.</li></ul>")

    def _show(self) -> None:
        self.notice.value = "".join(f'<div class="wb-notice-text" style="color:#a00">{html.escape(n)}</div>'
                                    for n in self.notices.values())
        self.table.value = table_html(self.worths, self.systems)
        self._draw()
        self.report = None  # a report made before showed the previous choices
        self.report_link.value = ""
        self.csv_link.value = download_link(f"{self._stem}.csv", table_csv(self.worths, self.systems),
                                            "text/csv", "Side-by-side table (CSV)", "wb-four-export-csv-file")
        self._follow_address()

    def _draw(self) -> None:
        marks = {}
        for system in self.systems:
            own = self.scenarios[system.id].get(system.evasion.attribute)
            marks[system.id] = next((p for p in self.curves[system.id] if p.value == own), None)
        self.figure = worth_figure(self.curves, self.measure.value, marks)
        self.chart.show(self.figure, self.present)

    # -- export -----------------------------------------------------------------------------
    def report_html(self) -> str:
        """The page as one HTML file that opens offline: each game's scenario (with the link
        that opens it on its dashboard), the side-by-side table (exact values in ``data-exact``),
        the chart, the assumptions and the page's link."""
        chosen = []
        for system in self.systems:
            choice = self.choices[system.id]
            how = system.preset(choice).title if choice else "a pasted share link"
            link = html.escape(_dashboard_link(system, self.scenarios[system.id]), quote=True)
            chosen.append(f'<li data-system="{system.id}"><b>{html.escape(system.name)}</b>: {html.escape(how)} '
                          f'(<a href="{link}">{link}</a>)</li>')
        share = self.share_link()
        parts = [f"<h1>{html.escape(self.title)}</h1>",
                 "<p>Each game's scenario evaluated exactly with and without its reaction, side by side, and "
                 "what the reaction is worth.</p>",
                 f"<h2>The scenarios</h2><ul>{''.join(chosen)}</ul>",
                 "<h2>Side by side</h2>",
                 f'<div class="wb-report-four-table">{table_html(self.worths, self.systems)}</div>',
                 f"<h2>{html.escape(MEASURES[self.measure.value])}</h2>",
                 figure_div(self.figure, "wb-report-four-chart"),
                 self._assumptions_html()]
        if share:
            link = html.escape(share, quote=True)
            parts.append(f'<p class="wb-report-share"><b>Share this page:</b> <a href="{link}">{link}</a></p>')
        parts.append(f"<p><small>Exact values computed by the Dodge Workbook, "
                     f"{datetime.date.today().isoformat()}.</small></p>")
        return report_document(self.title, parts)

    def make_report(self) -> str:
        """Build the HTML report of what the page shows and offer it for download."""
        self.report = self.report_html()
        self.report_link.value = download_link(f"{self._stem}.html", self.report, "text/html",
                                               f"Download the report ({len(self.report) / 1e6:.1f} MB)",
                                               "wb-four-export-report-file")
        return self.report
