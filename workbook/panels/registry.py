"""The one list of a dashboard's panels, in their order on the page (below the system's own
views, above the trace). A new panel is registered here, or from outside with :func:`register`;
the dashboard asks each the questions of :mod:`workbook.page.panel`."""

from __future__ import annotations

from ..page.panel import PagePanel

__all__ = ["PANELS", "register", "page_panels", "page_keys"]

#: Panel classes added with :func:`register`, after the built-in ones (or before one named).
PANELS: list[type[PagePanel]] = []


def _built_in() -> list[type[PagePanel]]:
    from .analysis import AnalysisPanels
    from .classroom import RollPanel, SimulatePanel
    from .compare import ReadingPanel
    from .design import DesignPanel

    return [AnalysisPanels, ReadingPanel, DesignPanel, RollPanel, SimulatePanel]


def page_panels() -> list[type[PagePanel]]:
    """Every panel class, in page order."""
    panels = _built_in()
    for panel in PANELS:
        where = getattr(panel, "_before", None)
        names = [p.name for p in panels]
        panels.insert(names.index(where) if where in names else len(panels), panel)
    return panels


def register(panel: type[PagePanel], *, before: str | None = None) -> type[PagePanel]:
    """Add ``panel`` to every dashboard built after this (before the panel named ``before``, else
    last); one of the same name replaces it. Returns it (usable as a class decorator)."""
    if not (isinstance(panel, type) and issubclass(panel, PagePanel)) or not panel.name:
        raise TypeError(f"{panel!r} is not a PagePanel subclass with a name")
    PANELS[:] = [p for p in PANELS if p.name != panel.name]
    panel._before = before
    PANELS.append(panel)
    return panel


def page_keys() -> tuple[str, ...]:
    """The keys of a link that are the page's, not the scenario's: present mode's and every
    panel's ``link_keys``."""
    return ("present", *(key for panel in page_panels() for key in panel.link_keys))
