"""The widgets of a :class:`workbook.page.controls.ScenarioForm`: one per declared field
(:class:`_Field`), a part's box of fields (:class:`_Group`), a list of parts with its Add and
Remove buttons (:class:`_List`), and the foldable sections they sit in (:class:`Section`)."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from rules_core.scenario import FieldSpec, Part, fields_of

from .boxes import close_tree

if TYPE_CHECKING:
    from .controls import ScenarioForm

__all__ = ["Section", "css_class", "dotted"]

Path = tuple[Any, ...]


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
    """One leaf field: a slider, checkbox or dropdown, and under it, in the box that holds it
    (its ``holder``, given by its group: :meth:`place`), what the field shows there: a refused
    value's reason (:meth:`show_reason`) and its help line, built when help is first shown. No
    box of its own: a page of ~40 fields makes ~40 widget models fewer as it opens."""

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
        #: the box the input sits in, and what the field shows under the input there
        self.holder: widgets.Box | None = None
        self.below: list[widgets.Widget] = []
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
            self._show_below([*self.below, self.help])
        self.help.layout.display = "" if on else "none"

    def show_reason(self, reason: widgets.Widget) -> None:
        """Show ``reason`` (why the field's value was refused) right under the input."""
        self._show_below([reason, *self.below])

    def drop_reason(self, reason: widgets.Widget) -> None:
        self._show_below([w for w in self.below if w is not reason])

    def rows(self) -> list[widgets.Widget]:
        """The field's rows in the box that holds it: its input, then what it shows under it."""
        return [self.input, *self.below]

    def place(self, holder: widgets.Box) -> None:
        """The field's rows (:meth:`rows`) are among ``holder``'s children."""
        self.holder = holder

    def _show_below(self, below: list[widgets.Widget]) -> None:
        """Show ``below`` under the input, in place of what the field showed there."""
        if self.holder is not None:
            kept = [w for w in self.holder.children if not any(w is old for old in self.below)]
            at = next(i for i, w in enumerate(kept) if w is self.input) + 1
            self.holder.children = (*kept[:at], *below, *kept[at:])
        self.below = below

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
        for w in (self.input, *self.below):
            close_tree(w)


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
            child = self.children[spec.name]
            (groups.setdefault(spec.group, []) if spec.group else ungrouped).extend(child.rows())
        rows = list(ungrouped)
        #: each group's titled box (a section's whole box) and the box holding its fields, by group name
        self.groups: dict[str, tuple[widgets.VBox, widgets.Box]] = {}
        for name, boxes in groups.items():
            if path:  # a group inside a part: a plain box in the part's section
                box = holder = _titled(form, name, "", boxes, "wb-group")
            else:  # a group of the scenario's own fields ("Rulings"): a section of its own
                members = tuple(spec.name for spec in specs if spec.group == name)
                section = Section(form, f"group:{name}", name, "", boxes, members)
                section.widget.add_class("wb-group")
                section.widget.add_class(f"wb-group-{_slug(name)}")
                box, holder = section.widget, section.body
            self.groups[name] = (box, holder)
            rows.append(box)
        if title is None:
            self.widget = holder = form.shared.vbox(rows)
        else:
            key = dotted(path)
            self.section = Section(form, key, title, help, rows, (key,), number=number)
            self.widget, holder = self.section.widget, self.section.body
            self.widget.add_class("wb-part")
        if path:
            self.widget.add_class(css_class(path))
        for spec in specs:
            if isinstance(child := self.children[spec.name], _Field):
                child.place(self.groups[spec.group][1] if spec.group else holder)

    def rows(self) -> list[widgets.Widget]:
        """The part's rows in the box that holds it: its own box."""
        return [self.widget]

    def relabel(self) -> None:
        for child in self.children.values():
            child.relabel()
        for name, (box, _holder) in self.groups.items():
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

    def rows(self) -> list[widgets.Widget]:
        """The list's rows in the box that holds it: its own box."""
        return [self.widget]

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
