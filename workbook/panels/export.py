"""Results that leave the page: CSV, the scenario as JSON (saved and loaded back), and a
self-contained HTML report that opens offline.

- CSV: :func:`outcomes_csv`, :func:`sweep_csv`, :func:`comparison_csv` — the rows of
  :mod:`rules_core.tables`, so every exported number is the core's exact value as ``n/d`` beside
  its float;
- JSON: :func:`scenario_json` writes the scenario; :func:`read_scenario_file` reads one back,
  strictly (a bad file raises :class:`LoadError` with one line and nothing changes);
- :func:`report_html`: the headline, interactive charts, tables, the system's own views, the
  trace with citations and the share link in one file, with plotly's script inside it — it
  requests nothing from the network and needs no server; :func:`dashboard_report`: the same for
  what a dashboard shows (its views as shown, the rulings comparison while that panel is open, a
  pinned A, a sweep); :func:`report_document` and :func:`figure_div` put any page's parts into
  such a file (the four-games page's report, :mod:`workbook.pages.four_games`);
- :class:`ExportPanel`: the dashboard's downloads and the scenario upload (``.widget``,
  ``.update(result, share_link)``).

CSS classes: ``wb-export`` (``wb-export-outcomes``, ``wb-export-scenario``, ``wb-export-report``,
``wb-export-report-link``, ``wb-export-upload``, ``wb-export-notice``); in the report,
``wb-report-headline`` (one ``div.wb-report-card[data-key]`` per headline quantity, its exact
value in ``[data-exact]``), ``wb-report-outcomes``, ``wb-report-view`` (one
``section[data-view=<title>]`` per system view, also classed with the view's ``wb-view-<slug>``),
``wb-report-rulings``, ``wb-report-trace``, ``wb-report-share``.
"""

from __future__ import annotations

import base64
import datetime
import html
import json
from urllib.parse import urlsplit
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from rules_core import Result, ScenarioError, System, get_system
from rules_core.jsonio import DuplicateKey, loads_strict
from rules_core.compare import Comparison
from rules_core.scenario import Scenario, one_line, parse, shown
from rules_core.result import number_shown
from rules_core.tables import comparison_rows, csv_text, outcome_rows, sweep_rows

from ..page.boxes import close_tree
from ..page.notices import problem_words
from ..page.panel import PageContext, PagePanel, ResultPage
from ..page.state import PageState
from ..page.text import headline_label, number_text, translator
from ..page.views import OUTCOME_COLUMNS, Rendered, SystemView, View, at_least_chart, compare_chart, outcome_chart, \
    outcome_grid, percent_text, system_views, table_html, trace_html, view_css
from .report import figure_div, panel_html, rendered_html, report_document

__all__ = ["outcomes_csv", "sweep_csv", "comparison_csv", "scenario_json", "LoadError",
           "read_scenario_file", "report_html", "dashboard_report", "report_document", "figure_div",
           "views_html", "download_link", "ExportPanel", "MAX_FILE_BYTES", "web_address", "share_link_allowed"]

#: Largest scenario file read (a real scenario is a few kilobytes).
MAX_FILE_BYTES = 200_000
_MAX_DEPTH = 20  # nesting a scenario file may have (a scenario is a few levels deep)


def outcomes_csv(result: Result) -> str:
    """The outcome table as CSV: ``outcome,exact,float``."""
    return csv_text(outcome_rows(result))


def sweep_csv(swept: Any) -> str:
    """A :class:`rules_core.Sweep` as tidy CSV (see :func:`rules_core.tables.sweep_rows`)."""
    return csv_text(sweep_rows(swept))


def comparison_csv(comparison: Comparison) -> str:
    """A comparison as CSV: A, B and B − A, exactly and as floats, and percentage points."""
    return csv_text(comparison_rows(comparison))


def scenario_json(scenario: Scenario) -> str:
    """The scenario as indented JSON text (what :func:`read_scenario_file` reads back)."""
    return json.dumps(scenario.to_data(), ensure_ascii=False, indent=2) + "\n"


class LoadError(ValueError):
    """A scenario file that cannot be used; its message is one line for the reader.

    ``template`` and ``values`` make the message (``str``, in English); :meth:`said` says it in
    a page's language. ``problems`` are the scenario's refused fields when the file is JSON of
    this system's scenario that the rules refuse."""

    def __init__(self, template: str, problems: Sequence[Any] = (), **values: Any):
        self.template, self.values, self.problems = template, values, tuple(problems)
        super().__init__(template.format(**values))

    def said(self, text: Callable[[str], str] = str) -> str:
        """The message in the page's language (``text`` translates its words, the system's name
        and a file with no name of its own; a file's name and what it holds stay as they are)."""
        values = {k: (text(v) if k == "system" or (k == "name" and v == "the file") else v)
                  for k, v in self.values.items()}
        return text(self.template).format(**values)


def _depth(value: Any, limit: int) -> int:
    depth, level = 0, [value]
    while level:
        depth += 1
        if depth > limit:
            return depth
        nxt: list[Any] = []
        for v in level:
            if isinstance(v, dict):
                nxt.extend(v.values())
            elif isinstance(v, list):
                nxt.extend(v)
        level = nxt
    return depth


def _refuse_constant(constant: str) -> Any:
    raise LoadError("the file is not valid JSON: {constant} is not a JSON number", constant=constant)


def read_scenario_file(system: System | str, content: bytes | str, name: str = "the file") -> Scenario:
    """The ``system`` scenario in a JSON file's ``content``; :class:`LoadError` (one line:
    what is wrong, in which field) for anything else — too large, not UTF-8, not JSON, another
    system's scenario, or a field out of its range."""
    system = get_system(system) if isinstance(system, str) else system
    label = one_line(name, 60)
    if len(content) > MAX_FILE_BYTES:
        raise LoadError("{name} is {size:,} bytes; a scenario file is at most {limit:,}",
                        name=label, size=len(content), limit=MAX_FILE_BYTES)
    try:
        text = content.decode("utf-8") if isinstance(content, bytes) else content
    except UnicodeDecodeError:
        raise LoadError("{name} is not UTF-8 text", name=label) from None
    try:
        data = loads_strict(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as err:  # "Unterminated string starting at" would say "at at line"
        raise LoadError("{name} is not valid JSON ({why}) at line {line} column {column}",
                        name=label, why=err.msg.removesuffix(" at"), line=err.lineno, column=err.colno) from None
    except DuplicateKey as err:
        if err.where:
            raise LoadError("{name}: the key {key} appears twice in {where}; give each key once",
                            name=label, key=shown(err.key, 40), where=shown(err.where, 60)) from None
        raise LoadError("{name}: the key {key} appears twice at the top level; give each key once",
                        name=label, key=shown(err.key, 40)) from None
    except RecursionError:
        raise LoadError("{name} is nested too deeply to be a scenario", name=label) from None
    if _depth(data, _MAX_DEPTH) > _MAX_DEPTH:
        raise LoadError("{name} is nested too deeply to be a scenario", name=label)
    if not isinstance(data, dict):
        raise LoadError("{name} holds no scenario: a scenario is a JSON object", name=label)
    other = data.get("system", system.id)
    if other != system.id:
        raise LoadError("{name} is a scenario of {other}; this page shows {system}",
                        name=label, other=one_line(repr(other), 40), system=system.name)
    try:
        return parse(system.scenario_cls, {**data, "system": system.id})
    except ScenarioError as err:
        raise LoadError("{why}", problems=err.problems, why=one_line(str(err), 600)) from None


def download_link(filename: str, content: str, mime: str, label: str, css: str) -> str:
    """An ``<a download>`` holding ``content`` as a data URL (no server round trip)."""
    payload = base64.b64encode(content.encode("utf-8")).decode("ascii")
    return (f'<a class="{css}" download="{html.escape(filename, quote=True)}" '
            f'href="data:{mime};charset=utf-8;base64,{payload}">{html.escape(label)}</a>')


# -- the report -------------------------------------------------------------------------------

def web_address(link: str) -> bool:
    """Whether ``link`` is an http or https address with a host, and nothing an address never
    holds (spaces, control characters).

    >>> web_address("https://example.org/voila/render/gurps.ipynb"), web_address("javascript:alert(1)//")
    (True, False)
    """
    if not link.isprintable() or any(c.isspace() for c in link):
        return False
    try:
        parts = urlsplit(link)
        host = parts.hostname
    except ValueError:  # an unbalanced [ in the host, a port that is not a number
        return False
    return parts.scheme in ("http", "https") and bool(host)


def share_link_allowed(link: str) -> bool:
    """Whether a report may write ``link`` as its share link: an http or https address, or the
    page's own query (``?system=…``, what a page whose address is unknown links to)."""
    return web_address(link) or (link.startswith("?") and link.isprintable() and not any(c.isspace() for c in link))



def _cards(result: Result, text: Callable[[str], str], lang: str) -> str:
    cards = []
    for key, value in result.headline.items():
        if value is None:
            shown, exact = "—", text(result.notes.get(key, ""))
        else:
            shown = percent_text(value, lang) if key.startswith("p_") else number_text(value, ".4g", lang)
            exact = f"{value.numerator}/{value.denominator}"
        cards.append(f'<div class="wb-report-card" data-key="{html.escape(key, quote=True)}">'
                     f'<div class="name">{html.escape(text(headline_label(key)))}</div>'
                     f'<div class="value">{html.escape(shown)}</div>'
                     f'<div class="exact" data-exact="{html.escape(exact if value is not None else "", quote=True)}">'
                     f'{html.escape(exact if value is None else number_shown(value))}</div></div>')
    return f'<div class="wb-report-headline">{"".join(cards)}</div>'


def _built_panel(kind: type[PagePanel], system: System, text: Callable[[str], str], lang: str,
                 result: Result) -> str:
    """A system's panel as report HTML without a dashboard: built on a page of ``result`` alone
    (:class:`workbook.page.panel.ResultPage`), opened on it, read and closed again."""
    panel = kind.for_page(ResultPage(system, PageState(result.scenario, lang), text, result))
    try:
        panel.set_open(True)
        panel.update(result)
        return panel_html(panel, text)
    finally:
        close_tree(panel.widget)


def views_html(result: Result, *, lang: str = "en", system: System | None = None,
               views: Sequence[SystemView] | None = None, rendered: Mapping[str, Rendered] | None = None,
               panels: Mapping[str, PagePanel] | None = None, opened: Collection[str] | None = None) -> list[str]:
    """The system's own views of ``result`` as report sections (``views``: by default those the
    system declares, :func:`workbook.page.views.system_views`). A page passes what it shows: its
    ``rendered`` outputs (used as they are), its built ``panels`` by title (read as they are) and
    the titles of its collapsed views and panels that are ``opened``. A collapsed one is left out
    unless opened (the Infinity heatmap is 900 evaluations); any other is rendered from
    ``result`` when the page has not (a panel is built for it, opened and read)."""
    system = system if system is not None else get_system(result.system)
    text = translator(system, lang)
    if views is None:
        views = system_views(system.id)
    rendered, panels, opened = rendered or {}, panels or {}, set(opened or ())
    parts = []
    for view in views:
        if isinstance(view, View):
            if not view.open and view.title not in opened:
                continue
            shown = rendered.get(view.title)
            body = rendered_html(shown if shown is not None else view.render(result, lang), text,
                                 "wb-report-view-chart")
        elif view.collapsible and view.title not in opened:
            continue
        else:
            body = panel_html(panels[view.title], text) if view.title in panels else \
                _built_panel(view, system, text, lang, result)
        if body:
            parts.append(f'<section class="wb-report-view {view_css(view.title)}" '
                         f'data-view="{html.escape(view.title, quote=True)}">'
                         f"<h2>{html.escape(text(view.title))}</h2>{body}</section>")
    return parts


def extras_html(result: Result, *, lang: str = "en", system: System | None = None,
                comparison: Comparison | None = None, comparison_names: tuple[str, str] = ("A", "B"),
                sweep: Any = None, figures: Sequence[go.Figure] = ()) -> list[str]:
    """What "Compare, sweep, export" adds to a report: an A/B comparison, a sweep, further
    figures (the hits chart in its mode)."""
    system = system if system is not None else get_system(result.system)
    text = translator(system, lang)
    parts = []
    if comparison is not None:
        from .compare import comparison_table_html  # the panel module lays a comparison out once
        parts += [f"<h2>{html.escape(text('A against B'))}</h2>",
                  figure_div(compare_chart(comparison.a, comparison.b, lang, names=comparison_names,
                                           system=system), "wb-report-compare-chart"),
                  comparison_table_html(comparison, text, comparison_names)]
    if sweep is not None:
        from .sweep import sweep_figure
        parts += [f"<h2>{html.escape(text('Sweep'))}</h2>", figure_div(sweep_figure(sweep, text), "wb-report-sweep")]
    return parts + [figure_div(f, "wb-report-figure") for f in figures]


def report_html(result: Result, *, lang: str = "en", system: System | None = None, share_link: str = "",
                comparison: Comparison | None = None, comparison_names: tuple[str, str] = ("A", "B"),
                sweep: Any = None, figures: Sequence[go.Figure] = (), title: str | None = None,
                views: Sequence[SystemView] | None = None, rendered: Mapping[str, Rendered] | None = None,
                panels: Mapping[str, PagePanel] | None = None, opened: Collection[str] | None = None,
                sections: Sequence[str] = ()) -> str:
    """One HTML file with what the page shows: headline cards, the outcome and hits charts
    (interactive), the outcome table, the system's own views (see :func:`views_html`; ``views=()``
    leaves them out), an A/B comparison or a sweep when given, any further ``figures``
    (:func:`extras_html`), further HTML ``sections`` (the page's open panels'), the trace with
    citations, the share link and the scenario as JSON. plotly's script is inside
    the file: it opens offline and requests nothing from the network. ``share_link`` must be an
    http or https address or a ``?query`` (:func:`share_link_allowed`); anything else
    (``javascript:``) raises ``ValueError`` rather than being written into a link."""
    if share_link and not share_link_allowed(share_link):
        raise ValueError(f"share_link: got {shown(share_link)}; allowed: an http:// or https:// address, "
                         "or a query starting with ?")
    system = system if system is not None else get_system(result.system)
    text = translator(system, lang)
    heading = title or f"{text(system.name)}: {text('report')}"
    charts = [outcome_chart(result, lang, system=system), at_least_chart(result, lang, system=system)]
    parts = [f"<h1>{html.escape(heading)}</h1>",
             f"<p>{html.escape(text(system.summary))}</p>",
             f"<h2>{html.escape(text('Headline numbers'))}</h2>", _cards(result, text, lang),
             f"<h2>{html.escape(text('Charts'))}</h2>",
             *(figure_div(f, "wb-report-chart") for f in charts),
             f"<h2>{html.escape(text('Outcome table'))}</h2>",
             f'<div class="wb-report-outcomes">'
             f'{table_html(outcome_grid(result, lang, system=system), OUTCOME_COLUMNS, "wb-outcome-grid", text)}</div>']
    parts += views_html(result, lang=lang, system=system, views=views, rendered=rendered, panels=panels,
                        opened=opened)
    parts += extras_html(result, lang=lang, system=system, comparison=comparison,
                         comparison_names=comparison_names, sweep=sweep, figures=figures)
    parts += [s for s in sections if s]
    parts += [f"<h2>{html.escape(text('Trace of the rules applied'))}</h2>",
              f'<div class="wb-report-trace">{trace_html(result, lang, system=system)}</div>']
    if share_link:
        link = html.escape(share_link, quote=True)
        parts.append(f'<p class="wb-report-share"><b>{html.escape(text("Share this scenario"))}:</b> '
                     f'<a href="{link}">{link}</a></p>')
    parts += [f"<h2>{html.escape(text('Scenario'))}</h2>",
              f'<pre class="wb-report-scenario">{html.escape(scenario_json(result.scenario))}</pre>',
              f"<p><small>{html.escape(text('Exact values computed by the Dodge Workbook'))}, "
              f"{datetime.date.today().isoformat()}.</small></p>"]
    return report_document(heading, parts, lang)


def dashboard_report(dash: Any, share_link: str = "") -> str:
    """The report of what a :class:`workbook.pages.dashboard.Dashboard` shows: :func:`report_html` of its
    result with its views as shown (and its opened collapsed views) and the section of each of
    its open panels (:meth:`workbook.page.panel.PagePanel.report`: the "Compare, sweep,
    export" extras, the rulings comparison, Design's house rules against the official rule),
    with ``share_link``. Read through the dashboard's public state (``result``, ``views``,
    ``rendered``, ``view_toggles``, ``built``, ``is_open``)."""
    if dash.result is None:
        raise ValueError("the dashboard shows no result yet")
    open_panels = {name: panel for name, panel in dash.built.items() if dash.is_open(name)}
    opened = {title for title, toggle in dash.view_toggles.items() if toggle.value}
    opened |= {type(panel).title for panel in open_panels.values()}
    sections = [panel.report() for panel in open_panels.values()]
    return report_html(dash.result, lang=dash.lang, system=dash.system, share_link=share_link,
                       views=dash.views, rendered=dash.rendered,
                       panels={type(panel).title: panel for panel in dash.built.values()}, opened=opened,
                       sections=sections)


# -- the panel --------------------------------------------------------------------------------

def _classed(widget: widgets.Widget, css: str) -> widgets.Widget:
    widget.add_class(css)
    return widget


class ExportPanel:
    """Downloads of the outcome table (CSV) and the scenario (JSON), an HTML report made on
    request, and a scenario file loaded back (``on_load(scenario)`` is called with it; a bad
    file shows a notice and changes nothing).

    ``extra_csv`` may return further ``(filename, csv_text, label)`` downloads (a sweep, an
    A/B comparison) for the current result; ``report_extra`` further keywords for
    :func:`report_html` (``comparison=...``, ``sweep=...``). The report holds the system's own
    views of the result; with ``page`` set to the page that shows this panel, it is that page's
    own report (a dashboard's is :func:`dashboard_report`: its views as shown, the rulings
    comparison while that panel is open).
    """

    #: The page this panel is on (set by the page), or None.
    page: PageContext | None = None

    def __init__(self, system: System, text: Callable[[str], str] = str, lang: str = "en", *,
                 on_load: Callable[[Scenario], None] | None = None,
                 extra_csv: Callable[[Result], Sequence[tuple[str, str, str]]] | None = None,
                 report_extra: Callable[[], dict[str, Any]] | None = None):
        self.system, self.text, self.lang = system, text, lang
        self.on_load, self.extra_csv, self.report_extra = on_load, extra_csv, report_extra
        self.result: Result | None = None
        self.share_link = ""
        self.report: str | None = None
        self.links = _classed(widgets.HTML(), "wb-export-links")
        self.report_button = _classed(widgets.Button(description=text("Make an HTML report"),
                                                     layout=widgets.Layout(width="auto")), "wb-export-report")
        self.report_button.on_click(lambda _b: self.make_report())
        self.report_link = _classed(widgets.HTML(), "wb-export-report-link")
        self.upload = _classed(widgets.FileUpload(accept=".json,application/json", multiple=False,
                                                  description=text("Load a scenario (JSON)"),
                                                  layout=widgets.Layout(width="auto")), "wb-export-upload")
        self.upload.observe(self._uploaded, names="value")
        self.notice = _classed(widgets.HTML(), "wb-export-notice")
        self.widget = widgets.VBox([self.links, widgets.HBox([self.report_button, self.report_link]),
                                    self.upload, self.notice])
        self.widget.add_class("wb-export")

    def update(self, result: Result, share_link: str = "") -> None:
        """Offer the downloads of ``result`` (a report already made is dropped: it showed the
        previous scenario)."""
        self.result, self.share_link, self.report = result, share_link, None
        self.report_link.value = ""
        stem = self.system.id
        links = [download_link(f"{stem}-outcomes.csv", outcomes_csv(result), "text/csv",
                               self.text("Outcome table (CSV)"), "wb-export-outcomes"),
                 download_link(f"{stem}-scenario.json", scenario_json(result.scenario), "application/json",
                               self.text("Scenario (JSON)"), "wb-export-scenario")]
        for filename, content, label in (self.extra_csv(result) if self.extra_csv else ()):
            links.append(download_link(filename, content, "text/csv", label, "wb-export-extra"))
        self.links.value = " · ".join(links)

    def make_report(self) -> str | None:
        """Build the HTML report of the current result and offer it for download."""
        if self.result is None:
            return None
        if self.page is not None and self.page.result is self.result:
            self.report = self.page.report(self.share_link)
        else:
            self.report = report_html(self.result, lang=self.lang, system=self.system, share_link=self.share_link,
                                      **(self.report_extra() if self.report_extra else {}))
        self.report_link.value = download_link(f"{self.system.id}-report.html", self.report, "text/html",
                                               f"{self.text('Download the report')} "
                                               f"({number_text(len(self.report) / 1e6, '.1f', self.lang)} {self.text('MB')})", "wb-export-report-file")
        return self.report

    def load(self, content: bytes | str, name: str = "the file") -> Scenario | None:
        """Read a scenario file: on success pass it to ``on_load`` and return it; otherwise show
        why in the notice, change nothing and return None."""
        try:
            scenario = read_scenario_file(self.system, content, name)
        except LoadError as err:
            # the scenario's refused fields as the page names them, else the file's fault said
            words = [problem_words(self.system, problem, self.text) for problem in err.problems[:3]]
            why = "; ".join(words) + ("; …" if len(err.problems) > 3 else "") if words else err.said(self.text)
            self.notice.value = (f'<div class="wb-notice-text" style="color:#a00">'
                                 f'{html.escape(self.text("Not loaded"))}: {html.escape(why)}</div>')
            return None
        self.notice.value = f"<small>{html.escape(self.text('Loaded'))} {html.escape(one_line(name, 60))}</small>"
        if self.on_load is not None:
            self.on_load(scenario)
        return scenario

    def _uploaded(self, change: Any) -> None:
        files = change.new
        if not files:
            return
        item = files[0]
        content = item["content"]
        self.upload.value = ()  # the same file may be chosen again
        self.load(bytes(content) if not isinstance(content, bytes) else content, item.get("name", "the file"))
