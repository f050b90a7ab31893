"""Editing in code: what ``Part.replace``, ``set``, ``get``, ``add_item``, ``remove_item`` and
``paths`` do. Paths are dotted as in a share link (``"attackers.0.burst"``); every field not
named keeps its value; a dict merges into a block or a list item, a ``Part`` replaces it whole;
the edited data is validated once, by :func:`~.validation.parse`, and an edit that names no
field is a :class:`~.validation.ScenarioError` naming the path, the value and what is allowed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from enum import Enum
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from .specs import FieldSpec, fields_of, is_scenario, spec_at
from .validation import Problem, ScenarioError, parse, scenario_name

if TYPE_CHECKING:
    from .base import Part

__all__ = ["edited", "value_at", "added", "removed", "leaf_paths", "plain"]


def plain(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, Enum):
        return value.value
    return value


class _Refused(Exception):
    """An edit that names no field, or an index out of range (turned into a ScenarioError)."""

    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.problem = problem


def _specs(model: type[Part]) -> dict[str, FieldSpec]:
    return {s.name: s for s in fields_of(model)}


def _no_field(model: type[Part], done: tuple[str, ...], name: str, given: Any) -> _Refused:
    where = ".".join(done) or scenario_name(model)
    return _Refused(Problem(".".join((*done, name)), given,
                            f"no such field; {where} has: {', '.join(_specs(model))}"))


def _index(raw: str, length: int, done: tuple[str, ...], given: Any,
           most: int | None = None) -> int:
    """The list index ``raw`` names. With ``most`` (the list's largest size), one past the end
    is allowed too while there is room: it adds an item."""
    room = most is not None and length < most
    if raw.isdigit() and int(raw) < length + room:
        return int(raw)
    allowed = (f"an index from 0 to {length - 1} ({length} item{'s' * (length != 1)})" if length
               else "no index (the list is empty)")
    if room:
        allowed += f", or {length} to add an item"
    elif most is not None:
        allowed += f"; at most {most} items"
    raise _Refused(Problem(".".join((*done, raw)), given, allowed))


def _put(model: type[Part], data: dict[str, Any], steps: list[str], value: Any,
         done: tuple[str, ...]) -> None:
    """Set dotted ``steps`` of ``data`` (a ``model``'s plain data, changed in place) to ``value``."""
    if not isinstance(data, dict):  # an earlier change put something else there
        raise _Refused(Problem(".".join(done) or "(top level)", data, f"an object with the fields "
                                                                      f"of {model.__name__}"))
    name, rest = steps[0], steps[1:]
    spec = _specs(model).get(name)
    here = (*done, name)
    if spec is None:
        if name == "system" and not rest and "system" in model.model_fields:
            data[name] = value  # parse refuses any other system
            return
        raise _no_field(model, done, name, value)
    if spec.kind == "part":
        if rest:
            _put(spec.part_cls, data[name], rest, value, here)
        else:
            data[name] = _merged(spec.part_cls, data[name], value, here)
    elif spec.kind == "parts":
        items = data[name] if isinstance(data[name], list) else []  # parse refuses a non-list
        if not rest:
            if isinstance(value, (list, tuple)):
                data[name] = [_merged(spec.part_cls, items[i] if i < len(items) else
                                      spec.part_cls().to_data(), v, (*here, str(i)))
                              for i, v in enumerate(value)]
            else:
                data[name] = plain(value)  # parse says what a list allows
            return
        i = _index(rest[0], len(items), here, value, spec.max_items)
        if i == len(items):
            items.append(spec.part_cls().to_data())
        if rest[1:]:
            _put(spec.part_cls, items[i], rest[1:], value, (*here, rest[0]))
        else:
            items[i] = _merged(spec.part_cls, items[i], value, (*here, rest[0]))
    elif rest:
        raise _Refused(Problem(".".join((*here, *rest)), value,
                               f"'{'.'.join(here)}' is one value, with no fields inside it"))
    else:
        data[name] = plain(value)


def _merged(model: type[Part], current: dict[str, Any], value: Any, done: tuple[str, ...]) -> Any:
    """A block's data after ``value``: a dict changes the fields it names, a Part replaces all."""
    if isinstance(value, dict):
        out = json.loads(json.dumps(current))  # a deep copy of plain JSON data
        for key, v in value.items():
            _put(model, out, str(key).split("."), v, done)
        return out
    return plain(value)  # a Part's data, or something parse refuses with a clear message


def edited(part: Part, changes: dict[str, Any]) -> Any:
    model = type(part)
    data = part.to_data()
    try:
        for key, value in changes.items():
            _put(model, data, key.split("."), value, ())
    except _Refused as err:
        raise ScenarioError(scenario_name(model), [err.problem]) from None
    return parse(model, data)


def value_at(part: Part, path: str) -> Any:
    value: Any = part
    done: tuple[str, ...] = ()
    try:
        for step in path.split("."):
            if isinstance(value, tuple):  # a list of blocks
                value = value[_index(step, len(value), done, path)]
            elif isinstance(value, BaseModel) and (step in _specs(type(value)) or
                                                   (step == "system" and is_scenario(type(value)))):
                value = getattr(value, step)
            elif isinstance(value, BaseModel):
                raise _no_field(type(value), done, step, path)
            else:
                raise _Refused(Problem(path, path, f"'{'.'.join(done)}' is one value, with no "
                                                   "fields inside it"))
            done = (*done, step)
    except _Refused as err:
        raise ScenarioError(scenario_name(type(part)), [err.problem]) from None
    return value


def _list_spec(part: Part, path: str) -> FieldSpec:
    """The declaration of the list at ``path`` (refused unless it names a list of blocks)."""
    value_at(part, path)  # a clear error for a path that names nothing
    spec = spec_at(type(part), tuple(int(s) if s.isdigit() else s for s in path.split(".")))
    if spec is None or spec.kind != "parts" or path.split(".")[-1].isdigit():
        raise ScenarioError(scenario_name(type(part)), [Problem(path, path, "the path of a list of items, "
                                                                    "such as 'attackers'")])
    return spec


def added(part: Part, path: str, item: Any, at: int | None) -> Any:
    spec = _list_spec(part, path)
    items = list(value_at(part, path))
    if len(items) >= spec.max_items:
        raise ScenarioError(scenario_name(type(part)), [Problem(path, item, f"at most {spec.max_items} items; "
                                                                    f"it has {len(items)}")])
    position = len(items) if at is None else at
    if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position <= len(items):
        raise ScenarioError(scenario_name(type(part)), [Problem(f"{path} (at)", position,
                                                        f"a position from 0 to {len(items)}")])
    try:
        new = _merged(spec.part_cls, spec.part_cls().to_data(), {} if item is None else item,
                      (*path.split("."), str(position)))
    except _Refused as err:
        raise ScenarioError(scenario_name(type(part)), [err.problem]) from None
    data = [x.to_data() for x in items]
    data.insert(position, new)
    return edited(part, {path: data})


def removed(part: Part, path: str) -> Any:
    owner, _, index = path.rpartition(".")
    if not owner or not index.isdigit():
        raise ScenarioError(scenario_name(type(part)), [Problem(path, path, "the path of a list item, such "
                                                                    "as 'attackers.1'")])
    spec = _list_spec(part, owner)
    items = value_at(part, owner)
    value_at(part, path)  # an index out of range refused
    if len(items) <= spec.min_items:
        least = f"at least {spec.min_items} item{'s' * (spec.min_items != 1)} in {owner}"
        raise ScenarioError(scenario_name(type(part)), [Problem(path, path, least)])
    kept = tuple(x for i, x in enumerate(items) if i != int(index))
    return edited(part, {owner: kept})


def leaf_paths(part: Part, done: tuple[str, ...]) -> Iterator[str]:
    for spec in fields_of(type(part)):
        value = getattr(part, spec.name)
        if spec.kind == "part":
            yield from leaf_paths(value, (*done, spec.name))
        elif spec.kind == "parts":
            for i, item in enumerate(value):
                yield from leaf_paths(item, (*done, spec.name, str(i)))
        else:
            yield ".".join((*done, spec.name))
