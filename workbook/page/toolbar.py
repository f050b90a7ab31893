"""What sits above a dashboard's numbers and form: the toolbar (the address bar's "Copy link",
"Present", the language switch) and, above the form, the presets and "Show help and sources"."""

from __future__ import annotations

import html
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import ipywidgets as widgets

from rules_core import System
from rules_core.scenario import Scenario

from .boxes import html_box
from .text import LANGUAGE_NAMES
from .urlbar import UrlBar

__all__ = ["Toolbar"]


class Toolbar:
    """The page's own controls for ``system``, in ``lang``: ``urlbar``, ``present_toggle``,
    ``language`` (None for a system of one language), ``preset``, ``preset_info`` and
    ``help_toggle``; ``bar`` holds the first three and ``top`` the presets and the help toggle.
    Each tells the page what the reader did: ``on_query(query)`` (a link the browser opened),
    ``on_present(on)``, ``on_lang(lang)``, ``on_preset(scenario)``, ``on_help(on)``."""

    def __init__(self, system: System, lang: str, present: bool, *, on_query: Callable[[str], None],
                 on_present: Callable[[bool], None], on_lang: Callable[[str], None],
                 on_preset: Callable[[Scenario], None], on_help: Callable[[bool], None]):
        self.system = system
        self._syncing = False
        self.urlbar = UrlBar.for_page(on_query)
        self.present_toggle = widgets.ToggleButton(value=present, icon="television", layout=widgets.Layout(width="auto"))
        self.present_toggle.add_class("wb-present-toggle")
        self.present_toggle.observe(lambda ch: on_present(ch.new), names="value")
        self.language = None
        if len(system.languages) > 1:
            self.language = widgets.Dropdown(
                options=[(LANGUAGE_NAMES.get(code, code), code) for code in system.languages],
                value=lang, style={"description_width": "initial"})
            self.language.add_class("wb-lang")
            self.language.observe(lambda ch: on_lang(ch.new), names="value")
        self.preset = widgets.Dropdown(options=[], layout=widgets.Layout(width="100%", max_width="34em"))
        self.preset.add_class("wb-preset")
        self.preset.observe(lambda ch: None if self._syncing or not ch.new else
                            on_preset(system.preset(ch.new).scenario), names="value")
        self.preset_info = html_box("wb-preset-info")
        self.preset_info.layout.flex = "0 0 auto"
        self.help_toggle = widgets.Checkbox(value=False, indent=False, layout=widgets.Layout(width="auto"))
        self.help_toggle.add_class("wb-help-toggle")
        self.help_toggle.observe(lambda ch: on_help(ch.new), names="value")
        self.bar = widgets.HBox([w for w in (self.urlbar, self.present_toggle, self.language) if w is not None],
                                layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        self.bar.add_class("wb-toolbar")
        self.top = widgets.VBox([self.preset, self.help_toggle], layout=widgets.Layout(flex="0 0 auto"))

    @contextmanager
    def _quiet(self) -> Iterator[None]:
        """The preset dropdown changed by the page, not by the reader: no preset is loaded."""
        self._syncing = True
        try:
            yield
        finally:
            self._syncing = False

    def say(self, lang: str, text: Callable[[str], str]) -> None:
        """Every word of the toolbar and the presets in ``lang`` (``text`` its translator)."""
        system = self.system
        with self.urlbar.hold_sync():
            self.urlbar.label, self.urlbar.copied = text("Copy link"), text("Copied")
            self.urlbar.title = f"{text(system.name)} — {text('Dodge Workbook')}"
        self.present_toggle.description = text("Present")
        self.present_toggle.tooltip = text("Larger type and charts, for a projector")
        if self.language is not None:
            self.language.description = text("Language")
            if self.language.value != lang:
                self.language.value = lang
        with self._quiet():  # the page selects the preset again when it next shows a scenario
            self.preset.options = [(text("(custom scenario)"), "")] + [(text(p.title), p.name) for p in system.presets]
        self.preset.description = text("Preset")
        self.help_toggle.description = text("Show help and sources")

    def show_preset(self, scenario: Scenario, text: Callable[[str], str]) -> None:
        """Select the preset ``scenario`` is (none when it is none) and say what it is."""
        match = next((p for p in self.system.presets if p.scenario == scenario), None)
        with self._quiet():
            self.preset.value = match.name if match else ""
        self.preset_info.value = "" if match is None else (
            f"<small>{html.escape(text(match.description))}"
            + (f" <span class='wb-cite'>[{html.escape(text(match.citation))}]</span>"
               if match.citation else "") + "</small>")
