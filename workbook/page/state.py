"""What a page shows, without a widget: :class:`PageState`, and :func:`read_link`, the one
reading of a page's link (when the page is built and when a later link comes).

A dashboard holds one state and draws it; its panels read it (``page.state``). The state is
immutable: a change of scenario, language or present mode is a new state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from rules_core import System
from rules_core.scenario import Scenario

from .notices import link_notice
from .present import PAGE_KEYS, asked_lang, split_page_keys
from .share import decode_query
from .text import translator

__all__ = ["PageState", "read_link"]


@dataclass(frozen=True)
class PageState:
    """The scenario shown, the page's ``lang``, ``present`` mode, the link's own ``keys`` (those
    that are the page's and its panels', not the scenario's: a pinned A as ``pin``, a roll's seed
    as ``roll``), and the ``notice`` of a link that could not be used ("" when it could)."""

    scenario: Scenario
    lang: str
    present: bool = False
    keys: Mapping[str, str] = field(default_factory=dict)
    notice: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "keys", MappingProxyType(dict(self.keys)))


def read_link(system: System, query: str | None, *, scenario: Scenario, lang: str,
              forced_lang: str | None = None, keys: tuple[str, ...] = PAGE_KEYS) -> PageState:
    """The state a link's ``query`` asks ``system``'s page for. Where it names no scenario, or
    one that is refused, the state keeps ``scenario`` (and says why in ``notice``, in the
    reader's words and language); where it names no language of the system, ``lang``
    (``forced_lang`` wins over both). ``keys`` are the page's own keys (``present`` and the
    panels' ``link_keys``).

    >>> from rules_core import get_system
    >>> d100 = get_system("d100-homebrew")
    >>> state = read_link(d100, "lang=ru&present=1&roll=7", scenario=d100.default_scenario(), lang="en",
    ...                   keys=("present", "roll"))
    >>> state.lang, state.present, dict(state.keys), state.notice
    ('ru', True, {'present': '1', 'roll': '7'}, '')
    """
    query, own = split_page_keys(query, keys)
    shared = decode_query(system, query)
    asked = shared.lang or asked_lang(query)
    lang = forced_lang or (asked if asked in system.languages else lang)
    notice = shared.notice and link_notice(system, query, translator(system, lang),
                                           fallback=shared.notice, shared=shared)
    return PageState(shared.scenario or scenario, lang, own.get("present") == "1", own, notice)
