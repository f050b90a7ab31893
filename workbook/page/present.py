"""Keys of a link that set the page rather than the scenario (``present=1``, ``roll=7``)."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

__all__ = ["split_page_keys", "asked_lang", "PAGE_KEYS"]

#: ``present=1``: the page opens in present mode (larger type and charts, for a projector);
#: ``roll=7``: the Roll panel opens showing the roll of seed 7 (a roll shared by its link);
#: ``pin=<query>``: the A of an A/B comparison (workbook.panels.compare).
PAGE_KEYS = ("present", "roll", "pin")


def split_page_keys(query: str | None, keys: tuple[str, ...] = PAGE_KEYS) -> tuple[str, dict[str, str]]:
    """``query`` without the page's own ``keys`` (present mode's and its panels'), and those
    keys' values.

    >>> split_page_keys("?preset=a&present=1&dodger.ph=12")
    ('preset=a&dodger.ph=12', {'present': '1'})
    >>> split_page_keys("dodger.ph=12")
    ('dodger.ph=12', {})
    """
    query = (query or "").lstrip("?")
    if not any(f"{key}=" in query for key in keys):
        return query, {}
    try:
        pairs = parse_qsl(query, keep_blank_values=True, max_num_fields=300)
    except ValueError:
        return query, {}  # the scenario's own reading refuses it with a notice
    page = {k: v for k, v in pairs if k in keys}
    return urlencode([(k, v) for k, v in pairs if k not in keys], safe="."), page


def asked_lang(query: str | None) -> str | None:
    """The ``lang`` a query names, read on its own (so that a refused link's notice can still
    speak the reader's language).

    >>> asked_lang("lang=ru&dodger.ph=99999"), asked_lang("dodger.ph=1")
    ('ru', None)
    """
    try:
        return dict(parse_qsl((query or "").lstrip("?"), max_num_fields=300)).get("lang")
    except ValueError:
        return None
