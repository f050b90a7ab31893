"""The panels of one page (:class:`PanelHost`): each put in its section, built the first time it
is opened or asked for (:meth:`workbook.page.panel.PagePanel.for_page`, the one way), given
each new result, present mode and the link's keys, and built again in another language."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import ipywidgets as widgets

from rules_core import Result
from rules_core.scenario import Scenario

from .boxes import Section, close_tree
from .panel import PageContext, PagePanel
from .views import view_css

__all__ = ["PanelHost"]

#: ``collapsible(title, css, body, opened=..., on_toggle=..., box_css=...)`` and ``titled(title,
#: body)`` of the page: a section in the page's language.
Collapsible = Callable[..., Section]
Titled = Callable[[str, widgets.Widget], widgets.Widget]


class PanelHost:
    """The panels ``kinds`` (classes, in page order) of ``page``: ``section(kind)`` puts each in
    the page, ``panel(name)`` builds it when first asked for. Panels a system lists among its own
    views (``viewed``) get the class ``wb-view-<slug of title>``."""

    def __init__(self, page: PageContext, kinds: Iterable[type[PagePanel]], *, collapsible: Collapsible,
                 titled: Titled, viewed: Iterable[type[PagePanel]] = ()):
        self.page = page
        self.kinds = {kind.name: kind for kind in kinds}
        self._viewed = {kind.name for kind in viewed}
        self._collapsible, self._titled = collapsible, titled
        self._bodies: dict[str, widgets.Box] = {}
        self._built: dict[str, PagePanel] = {}
        self._toggled: dict[str, Callable[[bool], None]] = {}

    def sections(self, kinds: Iterable[type[PagePanel]], scenario: Scenario) -> list[widgets.Widget]:
        """A section for each of ``kinds``, in order; consecutive panels of one ``group`` share a
        box of that class."""
        rows: list[widgets.Widget] = []
        group, group_box = None, None
        for kind in kinds:
            box = self.section(kind, scenario)
            if kind.group is None:
                rows.append(box)
                group = None
                continue
            if kind.group != group:
                group, group_box = kind.group, widgets.VBox(layout=widgets.Layout(margin="8px 0"))
                group_box.add_class(kind.group)
                rows.append(group_box)
            group_box.children = (*group_box.children, box)
        return rows

    def section(self, kind: type[PagePanel], scenario: Scenario) -> widgets.Widget:
        """The panel's section: under a toggle (opened when ``kind.opens`` the page at
        ``scenario``), or, for one not collapsible, under its title, built at once."""
        body = widgets.VBox()
        self._bodies[kind.name] = body

        def toggled(on: bool) -> None:
            if on or kind.name in self._built:
                self.panel(kind.name).set_open(on)

        self._toggled[kind.name] = toggled
        if not kind.collapsible:
            toggled(True)
            return self._titled(kind.title, body)
        opened = kind.opens(self.page, scenario)
        section = self._collapsible(kind.title, kind.css, body, opened=opened, on_toggle=toggled,
                                    box_css=kind.css if kind.boxed else None)
        if opened:
            toggled(True)
        return section.box

    def panel(self, name: str) -> PagePanel:
        """The panel ``name``, built (and shown the current result) if it is not yet; KeyError
        when the page has no such panel."""
        built = self._built.get(name)
        if built is None:
            built = self._built[name] = self.kinds[name].for_page(self.page)
            built.set_present(self.page.state.present)
            if name in self._viewed:
                built.widget.add_class(view_css(self.kinds[name].title))
            self._bodies[name].children = (built.widget,)
            if self.page.result is not None:
                built.update(self.page.result)
        return built

    @property
    def built(self) -> dict[str, PagePanel]:
        """The panels built so far, by name, in the order they were built (a copy)."""
        return dict(self._built)

    def toggle(self, name: str) -> widgets.ToggleButton | None:
        """The toggle of the panel ``name`` (None for one not collapsible)."""
        kind = self.kinds[name]
        return self.page.toggles[f"{kind.css}-toggle"] if kind.collapsible else None

    def is_open(self, name: str) -> bool:
        """Whether the panel ``name`` is open (one not collapsible always is)."""
        if name not in self.kinds:
            return False
        toggle = self.toggle(name)
        return toggle is None or toggle.value

    def open(self, name: str) -> None:
        """Open the panel ``name`` (its toggle on)."""
        toggle = self.toggle(name)
        if toggle is not None:
            toggle.value = True

    def restore(self, keys: dict[str, str]) -> str:
        """Give each panel the link's keys it reads; the first notice of a refusal, else ""."""
        notices = [self.panel(kind.name).from_link({k: keys[k] for k in kind.link_keys if k in keys})
                   for kind in self.kinds.values() if any(keys.get(k) for k in kind.link_keys)]
        return next((n for n in notices if n), "")

    def opening(self, scenario: Scenario) -> list[str]:
        """The panels a link to ``scenario`` opens (Design on a house rule)."""
        return [name for name, kind in self.kinds.items() if kind.opens(self.page, scenario)]

    def update(self, result: Result) -> None:
        """A new result: the panels whose toggle must say something built (Design's toggle marks
        a house rule, even closed), then every panel built so far given it."""
        for name, kind in self.kinds.items():
            if kind.needed(self.page, result.scenario):
                self.panel(name)
        for panel in list(self._built.values()):
            panel.update(result)

    def set_present(self, on: bool) -> None:
        """Present mode on or off in every panel built so far (one built later gets the page's)."""
        for panel in self._built.values():
            panel.set_present(on)

    def queries(self, which: Callable[[PagePanel], str]) -> list[str]:
        """What each built panel adds to a link (``which``: its ``link_query`` or ``share_query``)."""
        return [q for q in (which(panel) for panel in self._built.values()) if q]

    def drop_all(self) -> Callable[[], None]:
        """Close every panel built so far (each is built again when next needed; widgets it
        shows that are not its own, :meth:`PagePanel.kept`, stay), and return ``reopen()``:
        building again, in the page's (new) language, those open or carrying something
        (:meth:`PagePanel.carry`, given back with ``take``)."""
        dropped = []
        for name in list(self._built):
            old = self._built.pop(name)
            dropped.append((name, old.carry()))
            self._bodies[name].children = ()
            close_tree(old.widget, keep=old.kept())

        def reopen() -> None:
            for name, carried in dropped:
                if carried is not None:
                    self.panel(name).take(carried)
                if self.is_open(name):
                    self._toggled[name](True)
        return reopen
