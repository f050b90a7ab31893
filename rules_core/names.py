"""Names near a name that was not found: what every "no such preset / distribution" error
offers first, before the list of every known name."""

from __future__ import annotations

import difflib
from collections.abc import Mapping

__all__ = ["near_names"]


def near_names(name: str, known: Mapping[str, str], most: int = 3) -> str:
    """The names of ``known`` (name → the text to match, e.g. a full ``SYSTEM/NAME`` → ``NAME``)
    near ``name``, as ``"'a' or 'b'"`` (``""`` when none is near): those that start with
    ``name`` or contain it first, then difflib's close matches.

    >>> near_names("sword", {"sword-2d1-cut-vs-dr3": "sword-2d1-cut-vs-dr3", "drop": "drop"})
    "'sword-2d1-cut-vs-dr3'"
    """
    if not isinstance(name, str) or not name:
        return ""
    wanted = name.casefold()
    found = [k for k, text in known.items() if text.casefold().startswith(wanted)]
    found += [k for k, text in known.items() if wanted in text.casefold() and k not in found]
    by_text: dict[str, list[str]] = {}
    for k, text in known.items():
        by_text.setdefault(text, []).append(k)
    for text in difflib.get_close_matches(name, list(by_text), n=most, cutoff=0.6):
        found += [k for k in by_text[text] if k not in found]
    return " or ".join(repr(k) for k in found[:most])
