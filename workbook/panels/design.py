"""The Design panel: change the rule itself and see what the change does.

A system's rule constants are its scenario's ``variant`` block (:mod:`rules_core.variants`):
the MOD cap, the critical face, ... each at its official value unless changed. The panel holds
their controls (the form's own, taken out of the main controls: :meth:`ScenarioForm.take_group`)
and compares A = the official rule on the scenario shown with B = the scenario shown, house rules
and all: it is the page's A/B panel with both sides derived from the scenario shown
(:class:`workbook.panels.compare.DerivedPanel`, like the rulings panel): both sets of cards, the
differences in percentage points and exactly, both distributions, the trace lines that differ.
The variants are scenario fields, so the share link carries them (``variant.mod_cap=9``).

Collapsed by default and computed only while open (the page's toggle, :func:`workbook.pages.dashboard.collapsible`);
a page opened on a house rule (a link) opens it, and its toggle is orange while a house rule is
in force. CSS classes: ``wb-design`` around the toggle ``wb-design-toggle`` and the body
``wb-design-body`` (also ``wb-design-panel``): the controls
(``wb-variant-<name>``), ``wb-design-reset`` (back to the official rule), ``wb-design-status``
(the house rules in force) and the A/B panel ``wb-ab``.
State for tests: ``result``, ``official`` (A's result), ``compare``.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from rules_core import Result, System
from rules_core.scenario import Scenario
from rules_core.variants import VARIANT_FIELD, house_rules, official

from .compare import DerivedPanel, Pair
from ..page.controls import ScenarioForm
from ..page.panel import PageContext
from .report import panel_section

__all__ = ["DesignPanel"]

#: The two sides' names on the cards and the chart.
NAMES = ("Official rule", "House rule")
#: What the panel says while every constant is official.
OFFICIAL_NOTE = ("Every rule constant is at its official value: change one to compare the house "
                 "rule with the official rule.")


class DesignPanel(DerivedPanel):
    """The rule's constants and their house rules against the official rule (see the module).

    Build it with :meth:`for_form`, which returns None for a system that declares no rule
    variants. The page sets ``toggle`` (the section's toggle, marked while a house rule is in
    force) and calls ``update(result)`` and ``set_open(on)`` as for any derived panel.
    """

    name, title, css = "design", "Design", "wb-design"

    def __init__(self, system: System, form: ScenarioForm, controls: list[widgets.Widget],
                 text: Callable[[str], str] = str, lang: str = "en", **kw: Any):
        self.form = form
        self.controls_shown = list(controls)
        self.official: Result | None = None  # A's result, while open on a house rule
        self.toggle: widgets.ToggleButton | None = None
        self.reset = widgets.Button(description=text("Back to the official rule"), icon="undo",
                                    layout=widgets.Layout(width="auto"))
        self.reset.add_class("wb-design-reset")
        self.reset.on_click(lambda _b: self.form.set_scenario(official(self.form.scenario)))
        self.status = widgets.HTML()
        self.status.add_class("wb-design-status")
        intro = widgets.HTML(f"<small>{html.escape(text(VARIANT_FIELD['help']))}</small>")
        super().__init__(system, text, lang,
                         controls=(intro, *controls, widgets.HBox([self.reset]), self.status), **kw)
        self.body = self.widget
        self.body.add_class("wb-design-body")

    @classmethod
    def for_form(cls, system: System, form: ScenarioForm, text: Callable[[str], str] = str,
                 lang: str = "en", **kw: Any) -> "DesignPanel | None":
        """The panel for ``form``'s system, its variant controls taken out of the form's main
        controls; None when the system declares no rule variants."""
        controls = form.take_group(VARIANT_FIELD["group"])
        return cls(system, form, controls, text, lang, **kw) if controls else None

    # -- on a page: the rule's constants leave the main controls for this panel ------------------
    @classmethod
    def prepare(cls, page: PageContext) -> None:
        page.taken[cls.name] = page.form.take_group(VARIANT_FIELD["group"])

    @classmethod
    def applies(cls, page: PageContext) -> bool:
        return bool(page.taken.get(cls.name))

    @classmethod
    def opens(cls, page: PageContext, scenario: Scenario) -> bool:
        """Open from the start, and when a link opens the page, on a house rule."""
        return bool(house_rules(scenario))

    @classmethod
    def needed(cls, page: PageContext, scenario: Scenario) -> bool:
        """Built on a house rule even while closed: its toggle marks a house rule in force."""
        return bool(house_rules(scenario))

    @classmethod
    def for_page(cls, page: PageContext) -> DesignPanel:
        design = cls(page.system, page.form, page.taken[cls.name], page.text, page.state.lang,
                     evaluate=page.evaluate)
        design.page = page
        design.toggle = page.toggles[f"{cls.css}-toggle"]
        return design

    def report(self) -> str:
        """On a house rule: the house rules in force and B = them against A = the official rule."""
        return panel_section(self, "Design", "wb-report-design", self.text, self.status.value)

    def kept(self) -> list[widgets.Widget]:
        """The form's controls it shows stay the form's when it is closed."""
        return self.controls_shown

    def update(self, result: Result) -> None:
        """The house rules in force, listed, and the toggle marked while there is one; then the
        comparison with the official rule."""
        self._list_house_rules(result)
        super().update(result)

    def _list_house_rules(self, result: Result) -> None:
        text, rules = self.text, house_rules(result.scenario)
        if self.toggle is not None:
            self.toggle.button_style = "warning" if rules else ""
        self.reset.disabled = not rules
        if not rules:
            self.status.value = f"<small>{html.escape(text(OFFICIAL_NOTE))}</small>"
            return
        items = "".join(
            f"<li>{html.escape(text(rule.label))}: <b>{html.escape(_shown(rule.value, text))}</b> "
            f"({html.escape(text('official'))} {html.escape(_shown(rule.official, text))})"
            + (f" <span class='wb-cite'>[{html.escape(text(rule.citation))}]</span>" if rule.citation else "")
            + "</li>" for rule in rules)
        self.status.value = f"<b>{html.escape(text('House rules in force'))}</b><ul>{items}</ul>"

    def derive(self, scenario: Scenario) -> Pair:
        """A = ``scenario`` under the official rule; B = ``scenario``."""
        return Pair(official(scenario), scenario, (self.text(NAMES[0]), self.text(NAMES[1])))

    def _compare(self) -> None:
        """As for any derived panel, but nothing to compare under the official rule."""
        on_house_rule = self.result is not None and bool(house_rules(self.result.scenario))
        self.compare.widget.layout.display = None if on_house_rule else "none"
        if not on_house_rule:
            self.official = self.pair = None
            self.compare.clear()
            return
        super()._compare()
        self.official = self.compare.comparison.a if self.is_open and self.pair is not None else None


def _shown(value: Any, text: Callable[[str], str]) -> str:
    return text(str(value).lower() if isinstance(value, bool) else str(value))
