"""The panel protocol: every collapsed part of a dashboard is one kind of object.

A dashboard (:class:`workbook.pages.dashboard.Dashboard`) knows no panel by name. It asks each class of
:data:`workbook.panels.registry.PANELS` the same few questions, in the registry's order (which is
the order on the page), and calls the same few hooks on the panels it has built:

=========================== ========================================================================
class hook                  what the page asks
=========================== ========================================================================
``name``, ``title``, ``css`` ``page.<name>`` is the panel (built on access); ``title`` (English) is
                            its toggle's words in the page's language; ``css`` classes its toggle
                            (``<css>-toggle``) and, with ``boxed``, the box around it
``group``                   consecutive panels of one group share a box of that class
``link_keys``               the link's keys it reads (``pin``, ``roll``): see :meth:`from_link`
``prepare(page)``           once, before the form is shown: take controls out of the main form
                            (``page.taken[name]``), as Design takes the rule's constants
``applies(page)``           whether this page has the panel at all (rulings: only with rulings)
``opens(page, scenario)``   whether it is open from the start, or opens when a link shows
                            ``scenario`` (Design, on a house rule)
``needed(page, scenario)``  whether it must be built (not opened) at a change: its toggle says
                            something while closed (Design marks a house rule in force)
``for_page(page)``          build it: the first time it is opened or asked for
=========================== ========================================================================

=========================== ========================================================================
panel hook                  when the page calls it
=========================== ========================================================================
``feed(result)``            each new result (a panel computes only while open)
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

What a panel may touch of its page (``self.page``): ``system``, ``text``, ``lang``, ``present``,
``form``, ``result``, ``evaluate(scenario)`` (the page's one cache), ``taken``, ``toggles``,
``open(name)``, ``is_open(name)``, ``follow_address()`` and ``share_url()``. Nothing else.

A new panel is a subclass added to the registry (:func:`workbook.panels.registry.register`):
the dashboard needs no change.
"""

from __future__ import annotations

from typing import Any, ClassVar

import ipywidgets as widgets

from rules_core import Result
from rules_core.scenario import Scenario

__all__ = ["PagePanel"]


class PagePanel:
    """The hooks every panel of a dashboard has (see the module's docstring); the defaults do
    nothing, so a panel defines only what it uses. A panel class may also be used on its own,
    without a page (its own constructor); ``page`` is then None."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    css: ClassVar[str] = ""
    #: Class the box holding the toggle and the panel (``css``) when True.
    boxed: ClassVar[bool] = True
    group: ClassVar[str | None] = None
    link_keys: ClassVar[tuple[str, ...]] = ()

    page: Any = None
    widget: widgets.Widget
    present: bool = False

    # -- asked of the class -------------------------------------------------------------------
    @classmethod
    def prepare(cls, page: Any) -> None:
        """Once per page build, before the form is shown."""

    @classmethod
    def applies(cls, page: Any) -> bool:
        return True

    @classmethod
    def opens(cls, page: Any, scenario: Scenario) -> bool:
        return False

    @classmethod
    def needed(cls, page: Any, scenario: Scenario) -> bool:
        return False

    @classmethod
    def for_page(cls, page: Any) -> PagePanel:
        raise NotImplementedError(f"{cls.__name__}.for_page")

    # -- called on a built panel -----------------------------------------------------------
    def feed(self, result: Result) -> None:
        """A new result: by default, the panel's own ``update``."""
        self.update(result)

    def update(self, result: Result) -> None:
        """Show ``result`` (a panel with nothing to show defines neither this nor :meth:`feed`)."""

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
