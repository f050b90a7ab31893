"""The base classes: :class:`Part` (a block of declared fields: a combatant, an attack) and
:class:`Scenario` (a whole scenario of one system), immutable, with the methods of working in
code; assigning to a field is a :class:`FrozenFieldError` showing the edit that makes a copy."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict

from .display import FieldHelp, completions, described, document_fields, part_html, pretty
from .editing import added, edited, leaf_paths, removed, value_at
from .specs import fields_of
from .validation import one_line, shown

__all__ = ["Part", "Scenario", "FrozenFieldError"]


class Part(BaseModel):
    """A block of declared fields (a combatant, an attack); immutable, unknown keys refused."""

    model_config = ConfigDict(frozen=True, extra="forbid", validate_default=True)

    def to_data(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return self.model_dump(mode="json")

    # Working in code (.editing, .display); the class docstring of every subclass lists its fields.

    def replace(self, **changes: Any) -> "Part":
        """A validated copy with some fields changed, every other value kept.

        Keys are field names or dotted paths, as in a share link: ``dodger=...``,
        ``**{"dodger.ph": 13, "attackers.0.burst": 4}``. A block given as a dict changes only
        the fields it names (``dodger={"ph": 13}``); given as a ``Part`` it replaces the block
        whole. A list given as a list becomes exactly that long, and each dict in it changes
        only the fields it names of the item at that index (a new index starts from the
        defaults): ``attackers=[{"burst": 4}]`` keeps the first attacker's other values and
        drops the rest. A dotted index one past the end adds an item (``"attackers.3.burst"``).
        Raises :class:`ScenarioError` naming the path, the value and what is allowed.

        >>> from rules_core import find_preset
        >>> seed = find_preset("infinity-n4/zhanshi-vs-fusilier").scenario
        >>> changed = seed.replace(attackers=[{"burst": 4}])
        >>> changed.attackers[0].burst, changed.attackers[0].mod  # the preset's MOD +3 is kept
        (4, 3)
        """
        return edited(self, changes)

    def set(self, path: str, value: Any) -> "Part":
        """A validated copy with the field at dotted ``path`` set to ``value``
        (``scenario.set("dodger.ph", 13)``); see :meth:`replace`."""
        return edited(self, {path: value})

    def get(self, path: str) -> Any:
        """The value at dotted ``path`` (``scenario.get("attackers.0.burst")``)."""
        return value_at(self, path)

    def add_item(self, path: str, item: Any = None, *, at: int | None = None) -> "Part":
        """A copy with one more item in the list at dotted ``path``: the defaults changed by the
        dict ``item`` (or the ``Part`` itself), inserted at index ``at`` (default: the end)."""
        return added(self, path, item, at)

    def remove_item(self, path: str) -> "Part":
        """A copy without the list item at dotted ``path`` (``"attackers.1"``)."""
        return removed(self, path)

    def paths(self) -> tuple[str, ...]:
        """The dotted path of every single-valued field here (``"attackers.0.burst"``, ...)."""
        return tuple(leaf_paths(self, ()))

    def describe(self, path: str) -> "FieldHelp":
        """What the field at dotted ``path`` is: its label, value, what is allowed, step, help
        and citation (a :class:`FieldHelp`; ``print`` it for readable text).

        >>> from rules_core import find_preset
        >>> seed = find_preset("infinity-n4/zhanshi-vs-fusilier").scenario
        >>> seed.describe("attackers.0.burst").allowed
        'a whole number from 1 to 5'
        """
        return described(self, path)

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenFieldError(self, name, value)

    def __delattr__(self, name: str) -> None:
        raise FrozenFieldError(self, name, None, deleting=True)

    def __repr__(self) -> str:
        return pretty(self, 0)

    def __dir__(self) -> list[str]:
        return completions(self)

    def _repr_html_(self) -> str:
        return part_html(self)

    @classmethod
    def schema_rules(cls) -> list[dict[str, Any]]:
        """What the model's cross-field checks refuse, said in JSON Schema (``if``/``then``,
        ``not``, ``anyOf``; see :func:`when`): added to the class's schema under ``allOf``, so
        that every scenario the schema allows is one the checks accept. None by default."""
        return []

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: Any, handler: Any) -> Any:
        schema = handler(core_schema)
        rules = cls.schema_rules()
        if rules or issubclass(cls, Scenario):
            target = handler.resolve_ref_schema(schema)
            if rules:
                target["allOf"] = [*target.get("allOf", []), *rules]
            if issubclass(cls, Scenario):  # load_scenario finds the system by it
                target["required"] = sorted({*target.get("required", []), "system"})
        return schema

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        if cls.__module__ != __name__:  # not the Scenario base below
            document_fields(cls)


class Scenario(Part):
    """Base of every system's scenario. Subclasses declare ``system: Literal["<id>"]``."""

    system: str

    def to_json(self) -> str:
        """Compact JSON text that :func:`rules_core.load_scenario` reads back."""
        return json.dumps(self.to_data(), ensure_ascii=False, separators=(",", ":"))


class FrozenFieldError(AttributeError):
    """An assignment to a field of a scenario or of one of its parts (``seed.dodger.ph = 12``):
    scenarios are immutable, and the message shows the edit that makes a changed, validated
    copy instead (``seed = seed.set("dodger.ph", 12)``)."""

    def __init__(self, part: "Part", name: str, value: Any, deleting: bool = False):
        self.name, self.value = name, value
        cls = type(part)
        fields = [s.name for s in fields_of(cls)]
        prefixes = [""] if isinstance(part, Scenario) else _prefixes_of(cls)
        holder = "scenario" if prefixes else "part"
        prefix = prefixes[0] if prefixes else ""
        if name in fields or name == "system":
            what = f"{cls.__name__} is immutable: '{one_line(name)}' cannot be {'deleted' if deleting else 'assigned'}"
            path, given = prefix + name, ("..." if deleting else shown(value, 40))
        else:
            what = (f"{cls.__name__} has no field '{one_line(name)}' (its fields: {', '.join(fields)}), "
                    "and it is immutable")
            path, given = prefix + (fields[0] if fields else name), "..."
        keyword = f"{path}={given}" if "." not in path else f'**{{"{path}": {given}}}'
        index = " (0: the item's index)" if ".0." in path else ""
        super().__init__(f'{what}. Make a changed, validated copy instead: {holder} = {holder}.set("{path}", '
                         f"{given}){index}, or {holder}.replace({keyword})")


def _prefixes_of(cls: type) -> list[str]:
    """The dotted prefixes (``"dodger."``, ``"attackers.0."``) under which a block of class
    ``cls`` sits in some scenario class; a list item's index is written 0."""
    found: list[str] = []
    todo = list(Scenario.__subclasses__())
    seen: set[type] = set()
    while todo:
        model = todo.pop()
        if model in seen:
            continue
        seen.add(model)
        todo += model.__subclasses__()
        try:
            stack = [(model, "")]
            while stack:
                current, done = stack.pop()
                for spec in fields_of(current):
                    if spec.part_cls is None:
                        continue
                    here = done + spec.name + (".0." if spec.kind == "parts" else ".")
                    if spec.part_cls is cls and here not in found:
                        found.append(here)
                    stack.append((spec.part_cls, here))
        except TypeError:  # a class declared without the helpers
            continue
    return found
