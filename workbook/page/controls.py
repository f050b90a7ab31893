"""Controls generated from a scenario's declared fields.

:class:`ScenarioForm` reads :func:`rules_core.scenario.fields_of` and builds one widget per field:

========== =====================================================================
field      widget
========== =====================================================================
int        ``IntSlider`` (the field's bounds and step)
float      ``FloatSlider`` (bounds and step; the field holds an exact Decimal on its step:
           the slider's value is snapped to the nearest step, and shown there)
flag       ``Checkbox``
text       ``Text`` (a notation such as ``2d+1``; checked when the field is left)
choice     ``Dropdown`` of the labelled values
ruling     ``Dropdown`` of the readings (each reading's meaning as its label)
part       a labelled box holding the part's own fields
parts      a list of labelled boxes with Remove buttons and an Add button,
           kept between the field's ``min_items`` and ``max_items``
========== =====================================================================

The form is in sections a reader folds and unfolds (:class:`Section`): each part (the dodger),
each item of a list (each attacker) and each group of the scenario's own fields (the rulings);
open on a wide screen, folded on a phone until the reader opens one.

Every field widget carries the CSS class ``wb-<dotted path>`` with dots and indices as dashes
(``wb-dodger-ph``, ``wb-attackers-0-burst``); a list's buttons are ``wb-<path>-add`` and
``wb-<path>-<i>-remove``. Each field's help text and citation are its tooltip, and are shown
in small type under it while ``show_help`` is on (the dashboard's "Show help and sources").

Each widget the browser must build costs the page time to open, so the form builds few: the
fields share their layouts and styles (:class:`Shared`, one of each kind per form, never changed
for a single field), and a field's help line is built only when help is first shown.

Sliders, checkboxes and dropdowns cannot leave their declared range; a text field can hold a
wrong notation. A wrong notation, or a combination refused by a cross-field
validator, does not raise: the form shows the message in its notice (class ``wb-notice``) and
keeps its last valid scenario.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import ipywidgets as widgets

from rules_core import ScenarioError, System, get_system
from rules_core.scenario import COMBINATION, Scenario, fields_of, parse

from .boxes import Shared, close_tree
from .fields import Section, _Field, _Group, _List, css_class, dotted
from .text import translator
from .views import notice_html

__all__ = ["ScenarioForm", "Section", "close_tree", "css_class", "refusal"]

class ScenarioForm:
    """Widgets for every declared field of ``system``'s scenario.

    - ``widget``: the form, ready to display.
    - ``scenario``: the current valid scenario (the last valid one while a combination is refused).
    - ``error``: the refusal message shown in the notice, or ``None``.
    - ``set_scenario(s)``: show another scenario (a Scenario or its plain data).
    - ``on_change(callback)``: ``callback(scenario)`` after every change to a new valid scenario.
    - ``control("dodger.ph")`` / ``button("attackers.add")``: the widgets, for tests and wiring.
    - ``show_help(on)``: each field's help and citation under it (always in its tooltip).
    - ``set_lang(lang)``: every word of the form in another of the system's languages, in place.
    - ``sections`` (by key, see :class:`Section`) and ``reveal(path)``: opens the sections that
      hold a field.

    >>> form = ScenarioForm("infinity-n4")
    >>> form.control("dodger.ph").value = 12
    >>> form.scenario.dodger.ph
    12
    """

    def __init__(self, system: System | str, scenario: Scenario | dict[str, Any] | None = None,
                 lang: str = "en", *, show_help: bool = False):
        self.system = system if isinstance(system, System) else get_system(system)
        self.lang = lang
        self.help_shown = show_help
        self.text = translator(self.system, lang)
        self._scenario = self._validate(scenario)
        self._callbacks: list[Callable[[Scenario], None]] = []
        self._quiet_depth = 0
        self._folds: dict[str, bool] = {}  # the reader's open/fold choice of each section, by key
        self._sections: dict[str, Section] = {}
        self.shared = Shared()
        self.error: str | None = None
        self.notice = widgets.HTML("")
        self.notice.add_class("wb-notice")
        self.notice.add_class("wb-form-notice")
        self._root = _Group(self, self.system.scenario_cls, (), self._scenario.to_data())
        self.widget = widgets.VBox([self._root.widget, self.notice])
        self.widget.add_class("wb-form")

    def _validate(self, scenario: Scenario | dict[str, Any] | None) -> Scenario:
        if scenario is None:
            return self.system.default_scenario()
        return parse(self.system.scenario_cls, scenario)

    @contextmanager
    def _quiet(self) -> Iterator[None]:
        """Widget changes inside make no change notifications (one follows at the end)."""
        self._quiet_depth += 1
        try:
            yield
        finally:
            self._quiet_depth -= 1

    @property
    def scenario(self) -> Scenario:
        """The current valid scenario."""
        return self._scenario

    def on_change(self, callback: Callable[[Scenario], None]) -> None:
        """Call ``callback(scenario)`` whenever the controls produce a new valid scenario."""
        self._callbacks.append(callback)

    def set_scenario(self, scenario: Scenario | dict[str, Any]) -> None:
        """Show ``scenario`` in the controls (one change notification, not one per field)."""
        scenario = self._validate(scenario)
        with self._quiet():
            data = scenario.to_data()
            self._root.set(data)
        self._changed()

    def set_lang(self, lang: str) -> None:
        """Say every label, tooltip, option, heading and help line in ``lang`` (one of the
        system's languages), in place: the widgets, their values and the folds stay."""
        if lang not in self.system.languages:
            raise ValueError(f"lang {lang!r} is not one of {self.system.id}'s languages "
                             f"{self.system.languages}")
        self.lang, self.text = lang, translator(self.system, lang)
        with self._quiet():
            self._root.relabel()

    def show_help(self, on: bool = True) -> None:
        """Show (or hide) each field's help text and citation under it; they are always in the
        field's tooltip."""
        self.help_shown = on
        for field in self._fields():
            field.show_help(on)

    @property
    def sections(self) -> dict[str, Section]:
        """The foldable sections by key: a part's or list item's dotted path (``"dodger"``,
        ``"attackers.0"``) or ``"group:<name>"`` for a group of the scenario's own fields."""
        return dict(self._sections)

    def reveal(self, path: str) -> None:
        """Open every section holding the field at dotted ``path`` (a refused value's field)."""
        for section in list(self._sections.values()):
            if section.holds(path):
                section.set_open(True)

    def _fields(self) -> list[_Field]:
        return [node for node in self._root.nodes() if isinstance(node, _Field)]

    def take_group(self, name: str) -> list[widgets.Widget]:
        """The boxes of the scenario's own fields in group ``name`` (e.g. ``"Design"``, the rule
        variants), taken out of :attr:`widget` to be shown elsewhere; they stay controls of this
        form (same values, same notices). Empty when the scenario has no such group."""
        if name not in self._root.groups:
            return []
        box, holder = self._root.groups.pop(name)
        self._sections.pop(f"group:{name}", None)
        self._root.widget.children = tuple(w for w in self._root.widget.children if w is not box)
        boxes = []
        for spec in fields_of(self._root.cls):
            if spec.group != name:
                continue
            member = self._root.children[spec.name]
            rows = member.rows()
            holder.children = tuple(c for c in holder.children if not any(c is r for r in rows))
            boxes.append(self.shared.vbox(rows))  # each field in a box of its own, to be shown elsewhere
            if isinstance(member, _Field):
                member.place(boxes[-1])
        close_tree(box)  # the group's own section, its fields out of it
        return boxes

    def control(self, path: str) -> widgets.Widget:
        """The input widget of the field at dotted ``path`` (e.g. ``"attackers.0.burst"``)."""
        for field in self._fields():
            if dotted(field.path) == path:
                return field.input
        raise KeyError(f"no control {path!r}; controls: {', '.join(self.paths())}")

    def paths(self) -> list[str]:
        """Dotted paths of every field control, in display order."""
        return [dotted(field.path) for field in self._fields()]

    def button(self, path: str) -> widgets.Button:
        """A list's button: ``"<list path>.add"`` or ``"<list path>.<i>.remove"``."""
        for node in self._root.nodes():
            if isinstance(node, _List):
                if path == dotted((*node.path, "add")):
                    return node.add
                if path in node.buttons:
                    return node.buttons[path]
        raise KeyError(f"no button {path!r}")

    def _changed(self) -> None:
        if self._quiet_depth:
            return
        data = {"system": self.system.id, **self._root.value()}
        try:
            scenario = parse(self.system.scenario_cls, data)
        except ScenarioError as err:
            self.error = refusal(err)
            self.notice.value = notice_html(self.error)
            return
        self.error = None
        self.notice.value = ""
        self._snap(scenario)
        if scenario == self._scenario:
            return
        self._scenario = scenario
        for callback in self._callbacks:
            callback(scenario)

    def _snap(self, scenario: Scenario) -> None:
        """Put every fractional-step slider exactly on the value the scenario holds."""
        data = scenario.to_data()
        with self._quiet():
            for field in self._fields():
                if field.spec.kind == "float":
                    value = data
                    for step in field.path:
                        value = value[step]
                    field.snap(value)

    def close(self) -> None:
        """Close every widget of the form."""
        self._root.close()
        close_tree(self.notice)
        close_tree(self.widget)
        self.shared.close()


def refusal(err: ScenarioError) -> str:
    """Readable text of a refused scenario: a cross-field validator's own message, or the
    field, value and what is allowed."""
    parts = []
    for problem in err.problems:
        if problem.given == COMBINATION:  # a cross-field validator's own message
            parts.append(problem.allowed)
        else:
            parts.append(str(problem))
    return "; ".join(parts)
