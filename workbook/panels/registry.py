"""The one list of a dashboard's panels, in their order on the page (below the system's own
views, above the trace): the built-in ones, and any added from outside with :func:`register`.
The dashboard asks each the questions of :mod:`workbook.page.panel`."""

from __future__ import annotations

from ..page.panel import PagePanel
from .analysis import AnalysisPanels
from .classroom import RollPanel, SimulatePanel
from .compare import ReadingPanel
from .design import DesignPanel

__all__ = ["PANELS", "BUILT_IN", "register", "page_panels", "page_keys"]

#: The built-in panels, in page order.
BUILT_IN: tuple[type[PagePanel], ...] = (AnalysisPanels, ReadingPanel, DesignPanel, RollPanel, SimulatePanel)

#: Every panel class of a dashboard, in page order: the built-in ones, then those added with
#: :func:`register`.
PANELS: list[type[PagePanel]] = list(BUILT_IN)


def page_panels() -> list[type[PagePanel]]:
    """Every panel class, in page order (a copy of :data:`PANELS`)."""
    return list(PANELS)


def register(panel: type[PagePanel], *, before: str | None = None) -> type[PagePanel]:
    """Add ``panel`` to every dashboard built after this: in the place of the panel of the same
    name (a built-in one too), else before the panel named ``before``, else last. Returns it
    (usable as a class decorator)."""
    if not (isinstance(panel, type) and issubclass(panel, PagePanel)) or not panel.name:
        raise TypeError(f"{panel!r} is not a PagePanel subclass with a name")
    names = [p.name for p in PANELS]
    if panel.name in names:
        PANELS[names.index(panel.name)] = panel
    else:
        PANELS.insert(names.index(before) if before in names else len(PANELS), panel)
    return panel


def page_keys() -> tuple[str, ...]:
    """The keys of a link that are the page's, not the scenario's: present mode's and every
    panel's ``link_keys``."""
    return ("present", *(key for panel in PANELS for key in panel.link_keys))
