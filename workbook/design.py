"""The Design panel: change the rule itself and see what the change does.

A system's rule constants are its scenario's ``variant`` block (:mod:`rules_core.variants`):
the MOD cap, the critical face, ... each at its official value unless changed. The panel holds
their controls (the form's own, taken out of the main controls: :meth:`ScenarioForm.take_group`)
and compares A = the official rule on the scenario shown with B = the scenario shown, house rules
and all, with the A/B panel (:class:`workbook.compare.ComparePanel`: both sets of cards, the
differences in percentage points and exactly, both distributions, the trace lines that differ).
The variants are scenario fields, so the share link carries them (``variant.mod_cap=9``).

Collapsed by default and computed only while open; a page opened on a house rule (a link) opens
it, and its toggle is orange while a house rule is in force. CSS classes: ``wb-design`` around
the toggle ``wb-design-toggle`` and the body ``wb-design-body``: the controls
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

from .compare import ComparePanel
from .controls import ScenarioForm

__all__ = ["DesignPanel"]

#: The two sides' names on the cards and the chart.
NAMES = ("Official rule", "House rule")
#: What the panel says while every constant is official.
OFFICIAL_NOTE = ("Every rule constant is at its official value: change one to compare the house "
                 "rule with the official rule.")


class DesignPanel:
    """The rule's constants and their house rules against the official rule (see the module).

    ``update(result)`` gives it the result the page shows; nothing is evaluated while closed
    (``open`` opens it from the start, as a page opened on a house rule does). Build it with
    :meth:`for_form`, which returns None for a system that declares no rule variants.
    """

    def __init__(self, system: System, form: ScenarioForm, controls: list[widgets.Widget],
                 text: Callable[[str], str] = str, lang: str = "en", *,
                 evaluate: Callable[[Scenario], Result] | None = None, open: bool = False):
        self.system, self.form, self.text, self.lang = system, form, text, lang
        self.evaluate = evaluate if evaluate is not None else system.evaluate
        self.result: Result | None = None
        self.official: Result | None = None
        self.compare = ComparePanel(system, text, lang)
        self.compare.pin_button.layout.display = self.compare.unpin_button.layout.display = "none"
        self.reset = widgets.Button(description=text("Back to the official rule"), icon="undo",
                                    layout=widgets.Layout(width="auto"))
        self.reset.add_class("wb-design-reset")
        self.reset.on_click(lambda _b: self.form.set_scenario(official(self.form.scenario)))
        self.status = widgets.HTML()
        self.status.add_class("wb-design-status")
        intro = widgets.HTML(f"<small>{html.escape(text(VARIANT_FIELD['help']))}</small>")
        self.body = widgets.VBox([intro, *controls, widgets.HBox([self.reset]), self.status,
                                  self.compare.widget], layout=widgets.Layout(display="none"))
        self.body.add_class("wb-design-body")
        self.body.layout.display = "flex" if open else "none"
        self.toggle = widgets.ToggleButton(value=open, description=text("Design"), icon="flask",
                                           tooltip=text(VARIANT_FIELD["label"]),
                                           layout=widgets.Layout(width="auto"))
        self.toggle.add_class("wb-design-toggle")
        self.toggle.observe(self._toggled, names="value")
        self.widget = widgets.VBox([self.toggle, self.body], layout=widgets.Layout(margin="8px 0"))
        self.widget.add_class("wb-design")

    @classmethod
    def for_form(cls, system: System, form: ScenarioForm, text: Callable[[str], str] = str,
                 lang: str = "en", **kw: Any) -> "DesignPanel | None":
        """The panel for ``form``'s system, its variant controls taken out of the form's main
        controls; None when the system declares no rule variants."""
        controls = form.take_group(VARIANT_FIELD["group"])
        return cls(system, form, controls, text, lang, **kw) if controls else None

    def _toggled(self, change: Any) -> None:
        self.body.layout.display = "flex" if change.new else "none"
        self._refresh()

    def update(self, result: Result) -> None:
        """The result the page shows (B); A is the same scenario under the official rule. The
        toggle is marked (orange) while a house rule is in force, even with the panel closed."""
        self.result = result
        self.toggle.button_style = "warning" if house_rules(result.scenario) else ""
        self._refresh()

    def _refresh(self) -> None:
        if not self.toggle.value or self.result is None:
            return
        text, scenario = self.text, self.result.scenario
        rules = house_rules(scenario)
        self.reset.disabled = not rules
        if not rules:
            self.official = None
            self.compare.widget.layout.display = "none"
            self.status.value = f"<small>{html.escape(text(OFFICIAL_NOTE))}</small>"
            return
        items = "".join(
            f"<li>{html.escape(text(rule.label))}: <b>{html.escape(_shown(rule.value, text))}</b> "
            f"({html.escape(text('official'))} {html.escape(_shown(rule.official, text))})"
            + (f" <span class='wb-cite'>[{html.escape(text(rule.citation))}]</span>" if rule.citation else "")
            + "</li>" for rule in rules)
        self.status.value = f"<b>{html.escape(text('House rules in force'))}</b><ul>{items}</ul>"
        try:
            self.official = self.evaluate(official(scenario))
        except ValueError as err:  # the official rule refused with these fields
            self.official = None
            self.compare.widget.layout.display = "none"
            self.status.value += f'<div class="wb-notice-text" style="color:#a00">{html.escape(str(err))}</div>'
            return
        self.compare.widget.layout.display = "flex"
        self.compare.show_pair(self.official, self.result, tuple(text(n) for n in NAMES))


def _shown(value: Any, text: Callable[[str], str]) -> str:
    return text(str(value).lower() if isinstance(value, bool) else str(value))
