"""The dashboard's "compare, sweep, export" panels in one bundle, so that a page adds them with
a few lines: build an :class:`AnalysisPanels`, put its ``widget`` (or its ``sections``) on the page, call
``update(result, share_link)`` once per shown result, and append ``share_query()`` to the share
link (``restore(query)`` reopens a pinned A from a link).

- :class:`~workbook.panels.modes.ModePanel` — the hits chart: distribution, at least, at most;
- :class:`~workbook.panels.compare.ComparePanel` — "Pin as A", then B beside it;
- :class:`~workbook.panels.sweep.SweepPanel` — any number field (a heatmap with a second);
- :class:`~workbook.panels.export.ExportPanel` — CSV (outcomes, the sweep, the A/B comparison), the
  scenario as JSON (saved and loaded back) and the offline HTML report of what is on screen.

Each does its work only when it has something to show: the comparison once A is pinned, the
sweep while its panel is open, the report when asked for.
"""

from __future__ import annotations

from urllib.parse import quote
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from rules_core import Result, System
from rules_core.compare import Comparison
from rules_core.scenario import Scenario

from .compare import ComparePanel, read_pin
from .export import ExportPanel, comparison_csv, extras_html, sweep_csv
from .modes import ModePanel
from ..page.layout import titled
from ..page.panel import PageContext, PagePanel
from .sweep import SweepPanel

__all__ = ["AnalysisPanels"]


class AnalysisPanels(PagePanel):
    """The four panels of one dashboard, fed one result at a time.

    ``on_load(scenario)`` is called with a scenario file the reader loads (the page then shows
    it); ``evaluate`` evaluates a pinned scenario read from a link (default: the system's own).
    """

    def __init__(self, system: System, text: Callable[[str], str] = str, lang: str = "en", *,
                 on_load: Callable[[Scenario], None] | None = None,
                 evaluate: Callable[[Scenario], Result] | None = None):
        self.system, self.text, self.lang = system, text, lang
        self.evaluate = evaluate if evaluate is not None else system.evaluate
        self.result: Result | None = None
        self.modes = ModePanel(system, text, lang)
        self.compare = ComparePanel(system, text, lang)
        self.sweep = SweepPanel(system, text, lang)
        self.export = ExportPanel(system, text, lang, on_load=on_load, extra_csv=self._extra_csv,
                                  report_extra=self._report_extra)
        self._link = ""
        # pinning, unpinning or a new sweep changes what there is to download
        self.compare.pin_button.on_click(lambda _b: self._refresh_export())
        self.compare.unpin_button.on_click(lambda _b: self._refresh_export())
        self.sweep.on_compute = lambda _swept: self._refresh_export()
        self.sections: list[tuple[str, widgets.Widget]] = [
            (text("Hits landing"), self.modes.widget),
            (text("A against B"), self.compare.widget),
            (text("Sweep"), self.sweep.widget),
            (text("Export"), self.export.widget),
        ]
        #: the four panels under their titles, ready to display
        self.widget = widgets.VBox([titled(title, w) for title, w in self.sections])

    name, title, css = "analysis", "Compare, sweep, export", "wb-analysis"
    link_keys = ("pin",)

    @classmethod
    def for_page(cls, page: PageContext) -> AnalysisPanels:
        """On a page: a file loaded is shown by the form, the address follows a pin, and the
        report holds what the page shows (:func:`workbook.panels.export.dashboard_report`)."""
        analysis = cls(page.system, page.text, page.state.lang, on_load=page.form.set_scenario,
                       evaluate=page.evaluate)
        analysis.page = page
        analysis.compare.pin_button.on_click(lambda _b: page.follow_address())
        analysis.compare.unpin_button.on_click(lambda _b: page.follow_address())
        analysis.export.page = page
        return analysis

    def set_open(self, on: bool) -> None:
        if on and self.page is not None and self.page.result is not None:
            self.update(self.page.result)

    def from_link(self, values: dict[str, str]) -> str:
        """``pin=...``: that A pinned and the panel opened; a notice when it is refused."""
        notice = self.restore(f"pin={quote(values['pin'], safe='')}")
        if self.compare.pinned is not None:
            self.page.open(self.name)
        return notice

    def link_query(self) -> str:
        return self.share_query()

    def report(self) -> str:
        """A pinned A against the result, a sweep, the hits chart in its mode."""
        if self.result is None:
            return ""
        return "".join(extras_html(self.result, lang=self.lang, system=self.system, **self._report_extra()))

    def carry(self) -> Result | None:
        return self.compare.pinned

    def take(self, carried: Result | None) -> None:
        if carried is not None:
            self.compare.pin(carried)

    def set_present(self, on: bool) -> None:
        """Present mode on or off: every panel's chart redrawn with larger type."""
        for panel in (self.modes, self.compare, self.sweep):
            if panel.present != on:
                panel.present = on
                if panel.figure is not None:
                    panel.chart.show(panel.figure, on)

    def update(self, result: Result, share_link: str | None = None) -> None:
        """Show ``result`` in every panel; ``share_link`` is the page's link to it (the pinned A,
        if any, is added to it for the report). The same result and link again change nothing.
        On a page, shown only while open, with the page's link to ``result``."""
        if share_link is None and self.page is not None:
            if not self.page.is_open(self.name):
                return
            share_link = self.page.share_url(result.scenario)
        share_link = share_link or ""
        if result is self.result and share_link == self._link:
            return
        self.result, self._link = result, share_link
        self.modes.update(result)
        self.compare.update(result)
        self.sweep.update(result)
        self._refresh_export()

    def _refresh_export(self) -> None:
        if self.result is not None:
            self.export.update(self.result, self.link_with_pin(self._link))

    def share_query(self) -> str:
        """What to append to the page's share query (``pin=...`` while A is pinned, else "")."""
        return self.compare.pin_query()

    def link_with_pin(self, link: str) -> str:
        """``link`` with the pinned A added."""
        extra = self.share_query()
        if not extra or not link:
            return link
        return f"{link}{'&' if '?' in link else '?'}{extra}"

    def restore(self, query: str | None) -> str:
        """Pin the A a link carries (``pin=...``); returns a notice when that pin is refused."""
        scenario, notice = read_pin(self.system, query)
        if scenario is not None:
            try:
                self.compare.pin(self.evaluate(scenario))
            except ValueError as err:  # a combination the rules refuse
                return f"The pinned scenario A could not be evaluated: {err}"
        return notice

    def _extra_csv(self, result: Result) -> list[tuple[str, str, str]]:
        out = []
        stem = self.system.id
        if self.sweep.sweep is not None and self.sweep.sweep.base == result.scenario:
            out.append((f"{stem}-sweep.csv", sweep_csv(self.sweep.sweep), self.text("Sweep (CSV)")))
        if self.compare.pinned is not None:
            out.append((f"{stem}-a-against-b.csv", comparison_csv(Comparison(self.compare.pinned, result)),
                        self.text("A against B (CSV)")))
        return out

    def _report_extra(self) -> dict[str, Any]:
        extra: dict[str, Any] = {"figures": [f for f in (self.modes.figure,) if f is not None]}
        if self.compare.comparison is not None and self.compare.pinned is not None:
            extra.update(comparison=self.compare.comparison, comparison_names=self.compare.names)
        if self.sweep.sweep is not None and self.result is not None and self.sweep.sweep.base == self.result.scenario:
            extra["sweep"] = self.sweep.sweep
        return extra
