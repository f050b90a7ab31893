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

import html
import weakref
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import ipywidgets as widgets

from rules_core import ScenarioError, System, get_system
from rules_core.scenario import COMBINATION, FieldSpec, Part, Scenario, fields_of, parse

from .text import translator
from .views import notice_html

__all__ = ["ScenarioForm", "Section", "close_tree", "css_class", "refusal"]

Path = tuple[Any, ...]


#: Layouts and styles shared by many widgets (:class:`Shared`): closed by their owner alone.
_SHARED: weakref.WeakSet[widgets.Widget] = weakref.WeakSet()


def close_tree(widget: widgets.Widget, keep: Iterable[widgets.Widget] = ()) -> None:
    """Close ``widget`` and every widget it holds (children, layout, style, …), in the kernel
    and in the page: what :meth:`Widget.close` alone leaves behind. A shared layout or style
    (:class:`Shared`) is left to its owner, and so are the widgets in ``keep`` (with all they
    hold)."""
    seen: set[int] = {id(w) for w in keep}
    stack = [widget]
    while stack:
        w = stack.pop()
        if id(w) in seen or not isinstance(w, widgets.Widget) or w in _SHARED:
            continue
        seen.add(id(w))
        for name in w.keys:
            value = getattr(w, name, None)
            stack.extend(value if isinstance(value, (list, tuple)) else [value])
        w.close()


class Shared:
    """One layout per look and one style per widget class, shared by every widget of a form
    that asks for them: the page builds one model where it would build one per widget. Nothing
    may change a shared layout or style for one widget; :meth:`close` closes them all."""

    def __init__(self) -> None:
        self._layouts: dict[str, widgets.Layout] = {}
        self._styles: dict[type, widgets.Widget] = {}

    def layout(self, look: str = "plain", **traits: Any) -> widgets.Layout:
        """The layout named ``look`` (built with ``traits`` the first time it is asked for)."""
        if look not in self._layouts:
            self._layouts[look] = widgets.Layout(**traits)
            _SHARED.add(self._layouts[look])
        return self._layouts[look]

    def style(self, cls: type[widgets.Widget], **traits: Any) -> widgets.Widget:
        """The style of widget class ``cls`` (its own style class, built with ``traits``)."""
        if cls not in self._styles:
            self._styles[cls] = cls.class_traits()["style"].klass(**traits)
            _SHARED.add(self._styles[cls])
        return self._styles[cls]

    def vbox(self, children: Any = ()) -> widgets.VBox:
        """A plain VBox on the shared plain layout."""
        return widgets.VBox(list(children), layout=self.layout())

    def close(self) -> None:
        for w in (*self._layouts.values(), *self._styles.values()):
            w.close()
        self._layouts.clear()
        self._styles.clear()


def css_class(path: Path | str, suffix: str = "") -> str:
    """The stable CSS class of the control at ``path``.

    >>> css_class(("attackers", 0, "burst")), css_class("dodger.ph"), css_class(("attackers",), "add")
    ('wb-attackers-0-burst', 'wb-dodger-ph', 'wb-attackers-add')
    """
    steps = path.split(".") if isinstance(path, str) else [str(p) for p in path]
    return "-".join(["wb", *steps, *([suffix] if suffix else [])])


def dotted(path: Path) -> str:
    """``("attackers", 0, "burst")`` → ``"attackers.0.burst"``."""
    return ".".join(str(p) for p in path)


def _decimals(step: float) -> int:
    """Decimal places a float slider's readout needs for ``step`` (0.25 → 2)."""
    text = f"{step:.10f}".rstrip("0")
    return max(1, len(text.split(".")[1]))


_DESCRIPTION = {"description_width": "13em"}
_WIDGETS = {"int": widgets.IntSlider, "float": widgets.FloatSlider, "flag": widgets.Checkbox,
            "text": widgets.Text}  # any other kind (choice, ruling): a Dropdown


class _Field:
    """One leaf field: a slider, checkbox or dropdown (in a box that also takes the field's
    help line, built when help is first shown, and a refused value's reason)."""

    def __init__(self, form: ScenarioForm, spec: FieldSpec, path: Path, value: Any):
        self.form, self.spec, self.path = form, spec, path
        cls = _WIDGETS.get(spec.kind, widgets.Dropdown)
        common = dict(**self._labels(), style=form.shared.style(cls, **_DESCRIPTION),
                      layout=form.shared.layout("field", width="100%", max_width="34em"))
        if spec.kind == "int":
            self.input = cls(value=value, min=spec.minimum, max=spec.maximum,
                             step=spec.step or 1, continuous_update=False, **common)
        elif spec.kind == "float":
            common["readout_format"] = f".{_decimals(float(spec.step))}f"
            self.input = cls(value=float(value), min=float(spec.minimum), max=float(spec.maximum),
                             step=float(spec.step), continuous_update=False, **common)
        elif spec.kind == "flag":
            self.input = cls(value=bool(value), indent=False, **common)
        elif spec.kind == "text":
            self.input = cls(value=value, continuous_update=False, **common)
        else:  # choice, ruling
            self.input = cls(value=value, **common)
        self.input.add_class(css_class(path))
        self.input.observe(lambda _change: form._changed(), names="value")
        self.help: widgets.HTML | None = None
        self.widget = form.shared.vbox([self.input])
        self.show_help(form.help_shown)

    def _labels(self) -> dict[str, Any]:
        """The input's words in the form's language: label, tooltip, and its options or
        placeholder (a dropdown's or a text field's)."""
        text, spec = self.form.text, self.spec
        words: dict[str, Any] = dict(
            description=text(spec.label) + (f" ({spec.unit})" if spec.unit else ""),
            tooltip=text(spec.help) + (f" — {text(spec.citation)}" if spec.citation else ""))
        if spec.kind == "text":
            words["placeholder"] = text(spec.extra.get("allowed", ""))
        elif spec.kind not in _WIDGETS:  # choice, ruling
            words["options"] = tuple((text(name), v) for v, name in spec.choices)
        return words

    def _help_html(self) -> str:
        text, spec = self.form.text, self.spec
        help_html = html.escape(text(spec.help))
        if spec.citation:
            help_html += f' <span class="wb-cite">[{html.escape(text(spec.citation))}]</span>'
        return f'<small class="wb-help" style="line-height:1.2">{help_html}</small>'

    def show_help(self, on: bool) -> None:
        """Show the help line and citation under the field (built the first time), or hide it."""
        if self.help is None:
            if not on:
                return
            self.help = widgets.HTML(self._help_html(),
                                     layout=widgets.Layout(margin="-4px 0 6px 13.5em", width="auto"))
            self.widget.children = (*self.widget.children, self.help)
        self.help.layout.display = "" if on else "none"

    def relabel(self) -> None:
        """Put the field's words in the form's (new) language; its value stays."""
        value = self.input.value
        with self.input.hold_sync():
            for name, words in self._labels().items():
                if getattr(self.input, name) != words:
                    setattr(self.input, name, words)
            self.input.value = value  # new options may have moved a dropdown's selection
        if self.help is not None:
            self.help.value = self._help_html()

    def value(self) -> Any:
        if self.spec.kind == "float":  # the slider's float, snapped to the field's step
            return self.spec.nearest(self.input.value)
        return self.input.value

    def set(self, value: Any) -> None:
        self.input.value = float(value) if self.spec.kind == "float" else value

    def snap(self, value: Any) -> None:
        """Show the scenario's exact value (a float slider's 6.250000000000001 becomes 6.25)."""
        if self.spec.kind == "float" and self.input.value != float(value):
            self.input.value = float(value)

    def nodes(self):
        yield self

    def close(self) -> None:
        close_tree(self.widget)


class _Group:
    """The fields of a :class:`Part` (or of the whole scenario), grouped by their ``group``;
    ``title`` (and ``help``), in English, makes it a section, numbered when ``number`` is given
    (a list's item: "Attack 2")."""

    def __init__(self, form: ScenarioForm, cls: type[Part], path: Path, data: dict[str, Any],
                 title: str | None = None, help: str = "", number: int | None = None):
        self.form, self.cls, self.path, self.title = form, cls, path, title
        specs = fields_of(cls)
        self.children = {spec.name: _build(form, spec, (*path, spec.name), data[spec.name])
                         for spec in specs}
        ungrouped, groups = [], {}
        for spec in specs:
            box = self.children[spec.name].widget
            if spec.group:
                groups.setdefault(spec.group, []).append(box)
            else:
                ungrouped.append(box)
        rows = list(ungrouped)
        #: each group's titled box and its fields' boxes, by group name
        self.groups: dict[str, tuple[widgets.VBox, list[widgets.Widget]]] = {}
        for name, boxes in groups.items():
            if path:  # a group inside a part: a plain box in the part's section
                box = _titled(form, name, "", boxes, "wb-group")
            else:  # a group of the scenario's own fields ("Rulings"): a section of its own
                members = tuple(spec.name for spec in specs if spec.group == name)
                section = Section(form, f"group:{name}", name, "", boxes, members)
                section.widget.add_class("wb-group")
                section.widget.add_class(f"wb-group-{_slug(name)}")
                box = section.widget
            self.groups[name] = (box, boxes)
            rows.append(box)
        if title is None:
            self.widget = form.shared.vbox(rows)
        else:
            key = dotted(path)
            self.section = Section(form, key, title, help, rows, (key,), number=number)
            self.widget = self.section.widget
            self.widget.add_class("wb-part")
        if path:
            self.widget.add_class(css_class(path))

    def relabel(self) -> None:
        for child in self.children.values():
            child.relabel()
        for name, (box, _boxes) in self.groups.items():
            if self.path:
                _retitle(self.form, box, name, "")
            else:
                self.form._sections[f"group:{name}"].relabel()
        if self.title is not None:
            self.section.relabel()

    def value(self) -> dict[str, Any]:
        return {name: child.value() for name, child in self.children.items()}

    def set(self, data: dict[str, Any]) -> None:
        for name, child in self.children.items():
            child.set(data[name])

    def nodes(self):
        yield self
        for child in self.children.values():
            yield from child.nodes()

    def close(self) -> None:
        for child in self.children.values():
            child.close()
        if getattr(self, "section", None) is not None:
            self.section.close()
        close_tree(self.widget)


class _List:
    """A ``parts`` field: labelled items with Remove buttons and an Add button.

    An item removed from the end is hidden and kept (with its Remove button) for the next item
    added at that place, which then only gets its values: switching between scenarios of
    different lengths (presets, Add and Remove) makes the page build no widgets after the
    first time. Removing another item moves the values after it up, as the items' paths and
    titles stay by place."""

    def __init__(self, form: ScenarioForm, spec: FieldSpec, path: Path, data: list[dict[str, Any]]):
        self.form, self.spec, self.path = form, spec, path
        self.items: list[_Group] = []
        self.buttons: dict[str, widgets.Button] = {}
        #: hidden items after the last shown one, the next one to show last
        self._spare: list[tuple[_Group, widgets.Button]] = []
        self.body = form.shared.vbox()
        self.item_label = spec.extra.get("item_label") or spec.label
        self.add = widgets.Button(description=_add_label(form, self.item_label), icon="plus",
                                  layout=form.shared.layout("auto", width="auto"),
                                  style=form.shared.style(widgets.Button))
        self.add.add_class(css_class(path, "add"))
        self.add.on_click(lambda _b: self._resize(self.value() + [spec.part_cls().to_data()]))
        fixed = spec.min_items == spec.max_items  # nothing to add or remove: no buttons
        self.widget = _titled(form, spec.label, spec.help,
                              [self.body] if fixed else [self.body, self.add], "wb-parts")
        self.widget.add_class(css_class(path))
        self.set(data)

    def _append(self, item_data: dict[str, Any]) -> None:
        """One more item (the list's last) with its Remove button: a hidden one shown again
        with ``item_data``, else a new one."""
        form, spec, i = self.form, self.spec, len(self.items)
        path = (*self.path, i)
        if self._spare:
            item, remove = self._spare.pop()
            item.set(item_data)
            item.relabel()  # the language may have changed while it was hidden
            for node in item.nodes():
                if isinstance(node, _Field):
                    node.show_help(form.help_shown)
            item.section.show()
            item.widget.remove_class("wb-spare")
        else:
            item = _Group(form, spec.part_cls, path, item_data, title=self.item_label, number=i + 1)
            remove = widgets.Button(description=form.text("Remove"), icon="minus",
                                    layout=form.shared.layout("auto", width="auto"),
                                    style=form.shared.style(widgets.Button))
            remove.add_class(css_class(path, "remove"))
            remove.on_click(lambda _b, i=i: self._resize([d for j, d in enumerate(self.value()) if j != i]))
            if spec.min_items != spec.max_items:  # its Remove button folds away with it
                item.section.body.children = (*item.section.body.children, remove)
        self.items.append(item)
        self.buttons[dotted((*path, "remove"))] = remove

    def _drop_last(self) -> None:
        """Hide the list's last item and its Remove button, kept for the next one added."""
        item = self.items.pop()
        remove = self.buttons.pop(dotted((*item.path, "remove")))
        item.widget.add_class("wb-spare")
        item.section.hide()
        self._spare.append((item, remove))

    def _finish(self) -> None:
        count, spec = len(self.items), self.spec
        for button in self.buttons.values():
            button.disabled = count <= spec.min_items
        self.add.disabled = count >= spec.max_items
        self.body.children = tuple(item.widget for item in self.items) + tuple(
            item.widget for item, _ in reversed(self._spare))

    def _resize(self, data: list[dict[str, Any]]) -> None:
        if not self.spec.min_items <= len(data) <= self.spec.max_items:
            return  # the buttons are disabled at the limits; a stray click changes nothing
        with self.form._quiet():
            self.set(data)
        self.form._changed()

    def relabel(self) -> None:
        form = self.form
        _retitle(form, self.widget, self.spec.label, self.spec.help)
        self.add.description = _add_label(form, self.item_label)
        for item in self.items:
            item.relabel()
        for button in self.buttons.values():
            button.description = form.text("Remove")

    def value(self) -> list[dict[str, Any]]:
        return [item.value() for item in self.items]

    def set(self, data: list[dict[str, Any]]) -> None:
        """Show ``data``: the items kept are set, only those added or removed are shown or hidden."""
        while len(self.items) > len(data):
            self._drop_last()
        for item, item_data in zip(self.items, data):
            item.set(item_data)
        for item_data in data[len(self.items):]:
            self._append(item_data)
        self._finish()

    def nodes(self):
        yield self
        for item in self.items:
            yield from item.nodes()

    def close(self) -> None:
        for item in (*self.items, *(item for item, _ in self._spare)):
            item.close()
        for w in (*self.buttons.values(), *(remove for _, remove in self._spare), self.add, self.body, self.widget):
            close_tree(w)


def _add_label(form: ScenarioForm, item: str) -> str:
    """"Add attacker": the whole phrase translated where the system has it (a language may
    inflect the noun), else "Add" and the item's name."""
    phrase = f"Add {item.lower()}"
    translated = form.text(phrase)
    if translated != phrase or form.lang == "en":
        return translated
    return form.text("Add") + " " + form.text(item).lower()


def _build(form: ScenarioForm, spec: FieldSpec, path: Path, value: Any):
    if spec.kind == "part":
        return _Group(form, spec.part_cls, path, value, title=spec.label, help=spec.help)
    if spec.kind == "parts":
        return _List(form, spec, path, value)
    return _Field(form, spec, path, value)


def _titled(form: ScenarioForm, title: str, help: str, children: list[widgets.Widget],
            css: str) -> widgets.VBox:
    """A box under a heading: ``title`` and ``help`` (English), said in the form's language."""
    box = widgets.VBox([_head(form, _title_html(form, title, help)), *children],
                       layout=form.shared.layout("titled", border="1px solid #ddd", padding="4px 8px",
                                                 margin="4px 0"))
    box.add_class(css)
    return box


def _title_html(form: ScenarioForm, title: str, help: str) -> str:
    head = f"<b>{html.escape(form.text(title))}</b>"
    if help:
        head += f' <small class="wb-help">{html.escape(form.text(help))}</small>'
    return head


def _retitle(form: ScenarioForm, box: widgets.VBox, title: str, help: str) -> None:
    """Say a :func:`_titled` box's heading in the form's (new) language."""
    box.children[0].value = _title_html(form, title, help)


def _head(form: ScenarioForm, value: str) -> widgets.HTML:
    """A heading line of the form (HTML on the shared layout and style)."""
    return widgets.HTML(value, layout=form.shared.layout(), style=form.shared.style(widgets.HTML))


def _slug(name: str) -> str:
    """A group's name as a CSS class fragment ("Saving Rolls and Wounds" → "saving-rolls-and-wounds")."""
    return "-".join("".join(c if c.isalnum() else " " for c in name.lower()).split())


class Section:
    """A block of the form a reader folds and unfolds: a part (the dodger), a list's item (each
    attacker) or a group of the scenario's own fields (the rulings).

    The box (class ``wb-section``) holds two header buttons, ``wb-section-fold`` ("▾ title")
    and ``wb-section-unfold`` ("▸ title"), and the body (``wb-section-body``); the page's style
    sheet shows one button and the body or not. Until the reader chooses, a section is open on a
    wide screen and folded on a phone (``open`` is None and the style sheet decides by the
    width); a click makes it ``wb-section-open`` or ``wb-section-closed`` whatever the width. The
    form remembers the choice by ``key`` (a dotted path, or ``group:<name>``), so a list's items
    keep theirs when another item is added or removed. ``members`` are the dotted paths whose
    fields the section holds (for :meth:`ScenarioForm.reveal`). ``title`` and ``help`` are
    English, said in the form's language; a list's item has its ``number`` after the title.
    """

    def __init__(self, form: ScenarioForm, key: str, title: str, help: str,
                 children: list[widgets.Widget], members: tuple[str, ...], number: int | None = None):
        self.form, self.key, self.members = form, key, members
        self.title, self.help, self.number = title, help, number
        shared = form.shared
        look = dict(layout=shared.layout("wide", width="100%"), style=shared.style(widgets.Button))
        self.fold = widgets.Button(**look)
        self.unfold = widgets.Button(**look)
        self.fold.add_class("wb-section-fold")
        self.unfold.add_class("wb-section-unfold")
        self.fold.on_click(lambda _b: self.set_open(False))
        self.unfold.on_click(lambda _b: self.set_open(True))
        self.head = _head(form, "") if help else None
        self.relabel()
        self.body = shared.vbox([*([self.head] if help else []), *children])
        self.body.add_class("wb-section-body")
        self.widget = widgets.VBox([self.fold, self.unfold, self.body],
                                   layout=shared.layout("section", border="1px solid #ddd",
                                                        padding="0 8px 4px", margin="4px 0"))
        self.widget.add_class("wb-section")
        self.open: bool | None = None
        self.set_open(form._folds.get(key))
        form._sections[key] = self

    def relabel(self) -> None:
        """Say the section's title (numbered: "Attack 2") and help in the form's language."""
        text = self.form.text
        title = text(self.title) + ("" if self.number is None else f" {self.number}")
        help = text(self.help) if self.help else ""
        tip = help or title
        for button, mark in ((self.fold, "▾"), (self.unfold, "▸")):
            button.description, button.tooltip = f"{mark} {title}", tip
        if self.head is not None:
            self.head.value = f'<small class="wb-help">{html.escape(help)}</small>'

    def set_open(self, on: bool | None) -> None:
        """Open (True) or fold (False) the section, on every width; None: as the width decides."""
        self.open = on
        if on is None:
            self.form._folds.pop(self.key, None)
        else:
            self.form._folds[self.key] = on
        for css, wanted in (("wb-section-open", on is True), ("wb-section-closed", on is False)):
            (self.widget.add_class if wanted else self.widget.remove_class)(css)

    def hide(self) -> None:
        """Forget the section while its item is hidden (:class:`_List`); its fold stays remembered."""
        if self.form._sections.get(self.key) is self:
            del self.form._sections[self.key]

    def show(self) -> None:
        """The section of an item shown again: known to the form, folded as it was."""
        self.form._sections[self.key] = self
        self.set_open(self.form._folds.get(self.key))

    def holds(self, path: str) -> bool:
        """Whether the field at dotted ``path`` sits in this section."""
        return any(path == m or path.startswith(m + ".") for m in self.members)

    def close(self) -> None:
        """Close the section's own widgets (its fields are their group's) and forget it."""
        if self.form._sections.get(self.key) is self:
            del self.form._sections[self.key]
        for w in (self.fold, self.unfold, self.body, self.widget):
            close_tree(w)


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
        box, boxes = self._root.groups.pop(name)
        self._sections.pop(f"group:{name}", None)
        self._root.widget.children = tuple(w for w in self._root.widget.children if w is not box)
        taken, stack = {id(b) for b in boxes}, [box]
        while stack:  # the boxes out of the group's own section, which is then closed
            holder = stack.pop()
            if isinstance(holder, widgets.Box):
                holder.children = tuple(c for c in holder.children if id(c) not in taken)
                stack.extend(holder.children)
        close_tree(box)
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
