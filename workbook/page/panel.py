"""The panel protocol: every panel of a dashboard is one kind of object, built one way.

A dashboard (:class:`workbook.pages.dashboard.Dashboard`) knows no panel by name. It asks each
panel class the same few questions and calls the same few hooks on the panels it has built. Its
panels are those of :data:`workbook.panels.registry.PANELS` (the built-in ones and any added
with :func:`workbook.panels.registry.register`), in that order (which is the order on the page),
after the panels a system lists among its own views (``VIEWS`` in ``workbook/systems/<name>.py``).

=========================== ========================================================================
class hook                  what the page asks
=========================== ========================================================================
``name``, ``title``, ``css`` ``page.panel(name)`` is the panel (built on access); ``title`` (English)
                            is its toggle's words in the page's language; ``css`` classes its
                            toggle (``<css>-toggle``) and, with ``boxed``, the box around it
``collapsible``             False: always shown under its title, built with the page (no toggle)
``group``                   consecutive panels of one group share a box of that class
``link_keys``               the link's keys it reads (``pin``, ``roll``): see :meth:`from_link`
``prepare(page)``           once, before the form is shown: take controls out of the main form
                            (``page.taken[name]``), as Design takes the rule's constants
``applies(page)``           whether this page has the panel at all (rulings: only with rulings)
``opens(page, scenario)``   whether it is open from the start, or opens when a link shows
                            ``scenario`` (Design, on a house rule)
``needed(page, scenario)``  whether it must be built (not opened) at a change: its toggle says
                            something while closed (Design marks a house rule in force)
``for_page(page)``          build it: the first time it is opened or asked for; the one way a
                            panel is built on a page
=========================== ========================================================================

=========================== ========================================================================
panel hook                  when the page calls it
=========================== ========================================================================
``update(result)``          a new result arrived (a panel computes only while open): the one verb
``set_open(on)``            its toggle changed
``set_present(on)``         present mode on or off (larger chart type)
``from_link(values)``       a link carries its ``link_keys``: restore what they say, return a
                            notice ("" when understood); it may open itself (``page.open``)
``link_query()``            what it adds to the address bar (``pin=...``, ``roll=7``)
``share_query()``           what it adds to the share link and the report's link
``carry()``, ``take(x)``    state kept when the page is said again in another language: the
                            panel is closed, built again in the new language, and given it back
``report()``                its section of the page's HTML report while open ("" for none)
``kept()``                  widgets it shows that are not its own (the form's), kept at closing
=========================== ========================================================================

What a panel may touch of its page (``self.page``) is :class:`PageContext`, and nothing else
(``tests/workbook/test_panel_protocol.py`` reads every panel's code): the page's
:class:`workbook.page.state.PageState` (scenario, language, present mode, the link's keys) as
``state``, and ``system``, ``text``, ``form``, ``result``, ``evaluate(scenario)`` (the page's one
cache), ``taken``, ``toggles``, ``open(name)``, ``is_open(name)``, ``follow_address()``,
``share_url()`` and ``report(share_link)``.

A new panel is a subclass added to the registry (:func:`workbook.panels.registry.register`; one
of the same name replaces it): the dashboard needs no change.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import ipywidgets as widgets

from rules_core import Result, System
from rules_core.scenario import Scenario

from .state import PageState

if TYPE_CHECKING:
    from .controls import ScenarioForm

__all__ = ["PagePanel", "PageContext", "PAGE_CONTEXT", "ResultPage"]


class PageContext(Protocol):
    """Exactly what a panel may touch of its page (a dashboard is one)."""

    system: System
    state: PageState
    text: Callable[[str], str]
    form: ScenarioForm
    result: Result | None
    taken: dict[str, list[widgets.Widget]]
    toggles: dict[str, widgets.ToggleButton]

    def evaluate(self, scenario: Scenario) -> Result:
        """The page's evaluation of ``scenario``, from its one cache."""

    def open(self, name: str) -> None:
        """Open the panel ``name``."""

    def is_open(self, name: str) -> bool:
        """Whether the panel ``name`` is open."""

    def follow_address(self) -> None:
        """Put the page's link, with what its panels add, in the address bar."""

    def share_url(self, scenario: Scenario | None = None) -> str:
        """The link to ``scenario`` (default: the one shown) in the page's language."""

    def report(self, share_link: str = "") -> str:
        """The page's self-contained HTML report, as it shows, with ``share_link``."""


#: The names of :class:`PageContext`: all a panel may touch of its page.
PAGE_CONTEXT = frozenset(name for name in (*PageContext.__annotations__, *vars(PageContext))
                         if not name.startswith("_"))


class PagePanel:
    """The hooks every panel of a dashboard has (see the module's docstring); the defaults do
    nothing, so a panel defines only what it uses. A panel class may also be used on its own,
    without a page (its own constructor); ``page`` is then None."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    css: ClassVar[str] = ""
    #: Class the box holding the toggle and the panel (``css``) when True.
    boxed: ClassVar[bool] = True
    #: False: always shown under its title, built with the page.
    collapsible: ClassVar[bool] = True
    group: ClassVar[str | None] = None
    link_keys: ClassVar[tuple[str, ...]] = ()

    page: PageContext | None = None
    widget: widgets.Widget
    present: bool = False

    # -- asked of the class -------------------------------------------------------------------
    @classmethod
    def prepare(cls, page: PageContext) -> None:
        """Once per page build, before the form is shown."""

    @classmethod
    def applies(cls, page: PageContext) -> bool:
        return True

    @classmethod
    def opens(cls, page: PageContext, scenario: Scenario) -> bool:
        return False

    @classmethod
    def needed(cls, page: PageContext, scenario: Scenario) -> bool:
        return False

    @classmethod
    def for_page(cls, page: PageContext) -> PagePanel:
        raise NotImplementedError(f"{cls.__name__}.for_page")

    # -- called on a built panel -----------------------------------------------------------
    def update(self, result: Result) -> None:
        """A new result arrived: show it (computing only while open)."""

    def set_open(self, on: bool) -> None:
        """Its toggle changed."""

    def set_present(self, on: bool) -> None:
        self.present = on

    def from_link(self, values: dict[str, str]) -> str:
        return ""

    def link_query(self) -> str:
        return ""

    def share_query(self) -> str:
        return ""

    def carry(self) -> Any:
        return None

    def take(self, carried: Any) -> None:
        """Given back what :meth:`carry` returned, after the panel was built again."""

    def report(self) -> str:
        return ""

    def kept(self) -> list[widgets.Widget]:
        return []


@dataclass
class ResultPage:
    """A :class:`PageContext` showing one ``result`` and nothing else: no controls, no toggles,
    no address. A panel is built on it to be read without a dashboard (a report of a result)."""

    system: System
    state: PageState
    text: Callable[[str], str]
    result: Result | None = None
    form: Any = None
    taken: dict[str, list[widgets.Widget]] = field(default_factory=dict)
    toggles: dict[str, widgets.ToggleButton] = field(default_factory=dict)

    def evaluate(self, scenario: Scenario) -> Result:
        return self.system.evaluate(scenario)

    def open(self, name: str) -> None:
        """Nothing to open: every panel on it is read open."""

    def is_open(self, name: str) -> bool:
        return True

    def follow_address(self) -> None:
        """No address to follow."""

    def share_url(self, scenario: Scenario | None = None) -> str:
        return ""

    def report(self, share_link: str = "") -> str:
        """None of its own: it is read into a report (``workbook.panels.export``)."""
        return ""
