"""The boxes a page is made of: a box that shows a chart, a table or HTML (:func:`show_in`), an
HTML box, a part of the page opened by a toggle (:func:`collapsible`), the layouts and styles
many widgets share (:class:`Shared`), and :func:`close_tree`, which closes a widget with all it
holds."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

import ipywidgets as widgets
import plotly.graph_objects as go

from .chart import Chart
from .views import Rendered, view_html

__all__ = ["Output", "output", "html_box", "Section", "collapsible", "show_in", "Shared", "close_tree"]


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


class Output(widgets.Box):
    """A box that shows a chart, a table or HTML (see :func:`show_in`); ``made`` holds the
    widgets it made, by kind, shown or not, all closed with it."""

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.made: dict[type, widgets.Widget] = {}

    def close(self) -> None:
        for made in self.made.values():
            close_tree(made)
        self.made.clear()
        super().close()


def output(css: str) -> Output:
    """An :class:`Output` box with the CSS class ``css``."""
    # Never shrunk by the box around it: a flex column would squash a chart to nothing.
    out = Output(layout=widgets.Layout(flex="0 0 auto", flex_flow="column", width="100%"))
    out.add_class(css)
    return out


def html_box(css: str, value: str = "") -> widgets.HTML:
    """An HTML widget holding ``value``, with the CSS class ``css``."""
    box = widgets.HTML(value)
    box.add_class(css)
    return box


class Section(NamedTuple):
    """A part of the page opened by a toggle: the ``toggle`` button and the ``box`` holding it
    and the body."""

    toggle: widgets.ToggleButton
    box: widgets.VBox


def collapsible(title: str, css: str, body: widgets.Widget, *, opened: bool = False,
                on_toggle: Callable[[bool], None] | None = None, box_css: str | None = None) -> Section:
    """A toggle button titled ``title`` (class ``<css>-toggle``) above ``body``, which is shown
    only while the toggle is on; ``on_toggle(on)`` runs after each change (a panel computes only
    while open). ``box_css`` classes the box holding both. Every toggle-opened part of the
    dashboard is built here: views, rulings, the classroom's panels, "Compare, sweep, export"."""
    toggle = widgets.ToggleButton(value=opened, description=title, layout=widgets.Layout(width="auto"))
    toggle.add_class(f"{css}-toggle")
    body.layout.display = None if opened else "none"

    def toggled(change: Any) -> None:
        body.layout.display = None if change.new else "none"
        if on_toggle is not None:
            on_toggle(change.new)

    toggle.observe(toggled, names="value")
    box = widgets.VBox([toggle, body], layout=widgets.Layout(margin="8px 0"))
    if box_css:
        box.add_class(box_css)
    return Section(toggle, box)


def show_in(out: Output, thing: Rendered | None, text: Callable[[str], str],
            present: bool = False) -> None:
    """Show in ``out`` a Figure (in the workbook's style, larger when ``present``), a table
    (:func:`workbook.page.views.view_html`) or an HTML string (None: nothing). A figure is drawn
    by the box's :class:`Chart`, updated in place; what did not change is not sent again. The box
    makes at most one chart and one HTML widget, kept while the other is shown (a view that is a
    chart for some scenarios and a note for others builds nothing new, and leaves nothing behind,
    as the reader goes back and forth)."""
    if thing is None:
        out.children = ()
        return
    if isinstance(thing, go.Figure):
        kind, value = Chart, thing
    else:
        kind, value = widgets.HTML, view_html(thing, text)
    shown = out.made.get(kind)
    if shown is None:
        shown = out.made[kind] = kind()
    if out.children != (shown,):
        out.children = (shown,)
    if kind is Chart:
        shown.show(value, present)
    else:
        shown.value = value
