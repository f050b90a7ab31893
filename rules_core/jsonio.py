"""Strict JSON, as every reader of a scenario in the project reads it (the command line, a
report, the dashboard's file upload): :func:`loads_strict` refuses what JSON does not allow
or a reader would silently change (NaN and Infinity, a key given twice in one object) and
keeps an integer longer than any field allows unconverted (a :class:`LongNumber`)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, NoReturn

from .scenario import shown

__all__ = ["loads_strict", "json_integer", "LongNumber", "NotJson", "DuplicateKey", "place", "MAX_DIGITS"]

#: Digits a JSON integer may have; a longer one is never a valid field value, and is refused
#: before Python spends time converting it (any field's bounds have a few digits).
MAX_DIGITS = 30


class NotJson(ValueError):
    """A JSON extension Python's reader accepts but JSON does not (NaN, Infinity)."""


class DuplicateKey(ValueError):
    """A JSON object that names one key twice (a reader would silently keep the last value):
    ``key`` and ``where``, the dotted path of that object (``""`` at the top level)."""

    def __init__(self, key: str, where: str):
        self.key, self.where = key, where
        super().__init__(f"the key {shown(key)} appears twice {place(where)}")


def place(where: str) -> str:
    """Where in a JSON text an object is, as a message says it: "at the top level", "in 'dodger'"."""
    return f"in {shown(where)}" if where else "at the top level"


class LongNumber:
    """A JSON integer with more than :data:`MAX_DIGITS` digits, kept as its length only: every
    field refuses it, and the message says how long it was."""

    def __init__(self, digits: str):
        self.digits = len(digits.lstrip("+-"))

    def __repr__(self) -> str:
        return f"<a whole number of {self.digits:,} digits>"


_LONG_DIGITS = re.compile(f"[0-9]{{{MAX_DIGITS + 1}}}")


def json_integer(digits: str) -> Any:
    """A JSON integer read (``json.loads``'s ``parse_int``): an ``int``, or a :class:`LongNumber`
    for one longer than any field allows (never converted: Python refuses, or takes long, to
    convert thousands of digits)."""
    return int(digits) if len(digits) <= MAX_DIGITS else LongNumber(digits)


def _constant(name: str) -> NoReturn:
    raise NotJson(f"{name} is not a JSON number")


class _Twice(dict):
    """A JSON object read that named the key ``twice`` more than once."""

    twice = ""


def _marked(pairs: list[tuple[str, Any]], found: dict[str, Any]) -> _Twice:
    """The object read from ``pairs``, marked with the first key it names twice."""
    seen: set[str] = set()
    marked = _Twice(found)
    for key, _ in pairs:
        if key in seen:
            marked.twice = key
            break
        seen.add(key)
    return marked


def _first_twice(data: Any) -> DuplicateKey | None:
    """The first object (in reading order) that named a key twice, with its dotted path."""
    stack: list[tuple[tuple[str, ...], Any]] = [((), data)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, _Twice):
            return DuplicateKey(node.twice, ".".join(path))
        if isinstance(node, dict):
            stack.extend(reversed([((*path, str(k)), v) for k, v in node.items()]))
        elif isinstance(node, list):
            stack.extend(reversed([((*path, str(i)), v) for i, v in enumerate(node)]))
    return None


def loads_strict(text: str, parse_constant: Callable[[str], Any] = _constant) -> Any:
    """JSON ``text`` read strictly, as every reader of a scenario in the project reads it:
    integers longer than any field allows kept as a :class:`LongNumber`, NaN and Infinity handed
    to ``parse_constant`` (by default refused with :class:`NotJson`), and an object that names a
    key twice refused with :class:`DuplicateKey`. Raises ``json.JSONDecodeError`` for text that
    is not JSON and ``RecursionError`` for nesting deeper than Python's reader allows.

    >>> loads_strict('{"dodger": {"ph": 10, "ph": 12}}')
    Traceback (most recent call last):
    ...
    rules_core.jsonio.DuplicateKey: the key 'ph' appears twice in 'dodger'
    """
    # Only a text with a run of digits longer than any field allows needs the slower reading
    # that keeps such integers unconverted.
    long_digits = _LONG_DIGITS.search(text) is not None
    twice = False

    def json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal twice
        found = dict(pairs)
        if len(found) == len(pairs):
            return found
        twice = True
        return _marked(pairs, found)

    data = json.loads(text, parse_int=json_integer if long_digits else None, parse_constant=parse_constant,
                      object_pairs_hook=json_object)
    if twice:  # found again from the top, so the message can say where
        raise _first_twice(data) or DuplicateKey("?", "")
    return data
