"""Two results side by side, and what the defender's reaction is worth.

- :func:`compare` — loadout A against loadout B (any two scenarios of one system, or of two):
  every headline of both, and B − A exactly where both have a value;
- :func:`without_reaction` — the same scenario with the defender not reacting, as the system
  declares it (:class:`~rules_core.registry.Evasion`);
- :func:`worth` — a scenario with and without its reaction: P(no hit) gained, hits avoided and
  the damage headline avoided (a scenario whose defender makes no reaction —
  :func:`makes_no_reaction` — is refused, naming the field that turns it off);
- :func:`worth_curve` — the worth along the evasion attribute, against the defender's chance of
  passing one unopposed evasion roll (how each game turns skill into safety).

>>> from rules_core import find_preset
>>> w = worth(find_preset("infinity-n4/zhanshi-vs-fusilier").scenario)
>>> w.without.headline["p_no_hit"], w.gained["p_no_hit"], w.gained["hits_avoided"]
(Fraction(1, 64), Fraction(351, 3200), Fraction(9, 20))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from .registry import Evasion, System, evaluate, get_system, load_scenario
from .result import Result, fraction_text
from .scenario import Problem, Scenario, ScenarioError, spec_at
from .sweeps import allowed_values

__all__ = ["Difference", "Comparison", "compare", "evasion_of", "without_reaction", "makes_no_reaction",
           "no_reaction_error", "Worth", "worth", "WorthPoint", "worth_curve"]


def _text(value: Fraction | None) -> str | None:
    return None if value is None else fraction_text(value)


def _points(value: Fraction | None) -> float | None:
    """A probability difference in percentage points (a float, for display and JSON)."""
    return None if value is None else float(value * 100)


@dataclass(frozen=True)
class Difference:
    """One headline quantity under A and under B, and ``b - a`` (None when either is None)."""

    key: str
    a: Fraction | None
    b: Fraction | None

    @property
    def difference(self) -> Fraction | None:
        """``b - a`` exactly, or None."""
        return None if self.a is None or self.b is None else self.b - self.a

    @property
    def is_probability(self) -> bool:
        """Probabilities are named ``p_*``; their difference reads in percentage points."""
        return self.key.startswith("p_")

    def points(self) -> float | None:
        """The difference in percentage points (probabilities only, else None)."""
        return _points(self.difference) if self.is_probability else None


@dataclass(frozen=True)
class Comparison:
    """Result ``a`` against result ``b``."""

    a: Result
    b: Result

    def differences(self) -> tuple[Difference, ...]:
        """Every headline quantity of either result, A's order first."""
        keys = dict.fromkeys([*self.a.headline, *self.b.headline])
        return tuple(Difference(k, self.a.headline.get(k), self.b.headline.get(k)) for k in keys)

    def outcome_differences(self) -> tuple[Difference, ...]:
        """Every outcome label of either result, with its probability under A and under B
        (0 where one result cannot reach it; only comparable within one system)."""
        labels = dict.fromkeys([*self.a.outcome_order, *self.b.outcome_order])
        return tuple(Difference(label, self.a.outcomes[label], self.b.outcomes[label]) for label in labels)

    def trace_differences(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The trace lines only A has and those only B has (each in its own order)."""
        lines_a, lines_b = [str(t) for t in self.a.trace], [str(t) for t in self.b.trace]
        only_a = tuple(line for line in lines_a if line not in set(lines_b))
        only_b = tuple(line for line in lines_b if line not in set(lines_a))
        return only_a, only_b

    def to_data(self) -> dict[str, Any]:
        """JSON-ready: both scenarios and headlines (``"n/d"`` or null), the exact differences
        and, for probabilities, the differences in percentage points."""
        diffs = self.differences()
        return {
            "a": {"scenario": self.a.scenario.to_data(),
                  "headline": {d.key: _text(d.a) for d in diffs if d.key in self.a.headline}},
            "b": {"scenario": self.b.scenario.to_data(),
                  "headline": {d.key: _text(d.b) for d in diffs if d.key in self.b.headline}},
            "difference": {d.key: _text(d.difference) for d in diffs},
            "difference_points": {d.key: d.points() for d in diffs if d.is_probability},
        }


def compare(a: Scenario | Mapping[str, Any], b: Scenario | Mapping[str, Any]) -> Comparison:
    """Evaluate ``a`` and ``b`` and put them side by side.

    >>> from rules_core import find_preset
    >>> seed = find_preset("infinity-n4/zhanshi-vs-fusilier").scenario
    >>> c = compare(seed, seed.set("dodger.ph", 11))
    >>> d = c.differences()[0]
    >>> d.key, d.a, d.b, d.difference, round(d.points(), 4)
    ('p_dodge_succeeds', Fraction(47, 500), Fraction(2223, 20000), Fraction(343, 20000), 1.715)
    """
    return Comparison(evaluate(dict(a) if isinstance(a, Mapping) else a),
                      evaluate(dict(b) if isinstance(b, Mapping) else b))


def evasion_of(system: System | str) -> Evasion:
    """The system's :class:`Evasion` declaration; ``ScenarioError`` when it has none."""
    system = get_system(system) if isinstance(system, str) else system
    if system.evasion is None:
        raise ScenarioError(f"{system.id} scenario", [Problem(
            "system", system.id, "a system that declares its evasion (attribute and no reaction)")])
    return system.evasion


def without_reaction(scenario: Scenario) -> Scenario:
    """``scenario`` with the defender not reacting, as the system declares it (``*`` in a
    declared path stands for every item of that list).

    >>> from rules_core import find_preset
    >>> s = without_reaction(find_preset("d100-homebrew/two-attacks-leftovers").scenario)
    >>> [a.evasion for a in s.attacks]
    ['none', 'none']
    """
    changes: dict[str, Any] = {}
    for path, value in evasion_of(scenario.system).no_reaction.items():
        head, star, tail = path.partition(".*.")
        if not star:
            changes[path] = value
            continue
        for i in range(len(scenario.get(head))):
            changes[f"{head}.{i}.{tail}"] = value
    return scenario.replace(**changes)


@dataclass(frozen=True)
class Worth:
    """A scenario with its reaction (``with_``) and without (``without``), and what the
    reaction gains: ``gained`` maps ``p_no_hit`` (P(no hit) with − without), ``hits_avoided``
    (expected hits without − with) and, when the system has one, ``<damage>_avoided``;
    :attr:`note` says why a reaction the rules let make no roll gains nothing."""

    with_: Result
    without: Result
    damage: str = ""

    @property
    def gained(self) -> Mapping[str, Fraction | None]:
        """What the reaction is worth, exactly (see the class)."""
        w, wo = self.with_.headline, self.without.headline

        def less(key: str) -> Fraction | None:
            return None if w.get(key) is None or wo.get(key) is None else wo[key] - w[key]

        gained: dict[str, Fraction | None] = {
            "p_no_hit": None if less("p_no_hit") is None else -less("p_no_hit"),  # type: ignore[operator]
            "hits_avoided": less("expected_hits")}
        if self.damage:
            gained[f"{self.damage.removeprefix('expected_')}_avoided"] = less(self.damage)
        return MappingProxyType(gained)

    @property
    def note(self) -> str:
        """Why the reaction gains nothing, when it gains nothing because the rules let the
        defender make no evasion roll (a Parry refused against an attacker two Sizes larger):
        the result's own note, e.g. ``"the reaction gains nothing here: No Evasion roll can be
        made; ..."``; ``""`` otherwise (a reaction that is rolled, or that gains something)."""
        gained = [v for v in self.gained.values() if v is not None]
        reason = self.with_.notes.get("p_dodge_succeeds", "")
        if self.with_.headline["p_dodge_succeeds"] is None and reason and not any(gained):
            return f"the reaction gains nothing here: {reason}"
        return ""

    def to_data(self) -> dict[str, Any]:
        """``{"with": {headline}, "without": {headline}, "worth": {...}, "note": ...}``, exact
        values as ``"n/d"`` (null where a quantity does not apply); ``worth`` also carries
        ``p_no_hit_points``, the P(no hit) gained in percentage points; ``note`` is
        :attr:`note` (``""`` for most scenarios)."""
        worth: dict[str, Any] = {k: _text(v) for k, v in self.gained.items()}
        worth["p_no_hit_points"] = _points(self.gained["p_no_hit"])
        return {"system": self.with_.system,
                "note": self.note,
                "scenario": self.with_.scenario.to_data(),
                "with": {k: _text(v) for k, v in self.with_.headline.items()},
                "without": {k: _text(v) for k, v in self.without.headline.items()},
                "worth": worth}


def worth(scenario: Scenario | Mapping[str, Any]) -> Worth:
    """``scenario`` evaluated with and without the defender's reaction (:func:`without_reaction`;
    in GURPS, not diving, not throwing oneself on the explosive, not interposing for a friend —
    a sacrifice's worth to the dodger is negative).

    A scenario whose defender already makes no reaction has nothing to be worth: it is refused
    with a one-line ``ScenarioError`` naming the field that turns the reaction off, its value,
    what would turn it on and a preset of the system where the defender reacts (in the workbook,
    ``workbook.pages.catalog.default_preset(system)`` picks one). A scenario whose reaction the
    declared changes would not take away is refused the same way.

    >>> from rules_core import find_preset
    >>> worth(find_preset("gurps-4e/sword-2d1-cut-vs-dr3").scenario)
    Traceback (most recent call last):
    ...
    rules_core.scenario.validation.ScenarioError: invalid gurps-4e scenario for worth: field 'dodger.defense': got 'none'; \
allowed: a reaction to be worth something — with 'none' the defender makes no reaction, so with and without it \
are the same; one of 'plain', 'retreat', 'dodge_and_drop', or a preset where the defender reacts, e.g. \
'gurps-4e/rapid-fire-dodge-and-drop'
    """
    if isinstance(scenario, Mapping):
        scenario = load_scenario(dict(scenario))
    evasion = evasion_of(scenario.system)
    without_scenario = without_reaction(scenario)
    if without_scenario == scenario:
        raise no_reaction_error(scenario, "worth")
    with_, without = evaluate(scenario), evaluate(without_scenario)
    if without.headline["p_dodge_succeeds"] is not None:
        changes = ", ".join(f"{k} = {v!r}" for k, v in evasion.no_reaction.items())
        raise ScenarioError(f"{scenario.system} scenario", [Problem(
            "(the reaction)", changes, "a scenario where these changes leave no evasion roll to make "
            "(here the defender still rolls to evade)")])
    return Worth(with_, without, evasion.damage)


def makes_no_reaction(scenario: Scenario) -> bool:
    """True when the defender of ``scenario`` already makes no reaction: every change the system
    declares for "no reaction" (:class:`~rules_core.registry.Evasion`) is in force, so there is
    nothing for :func:`worth` to take away.

    >>> from rules_core import find_preset
    >>> makes_no_reaction(find_preset("gurps-4e/sword-2d1-cut-vs-dr3").scenario)
    True
    >>> makes_no_reaction(find_preset("gurps-4e/rapid-fire-dodge-and-drop").scenario)
    False
    """
    return without_reaction(scenario) == scenario


def _reacting_preset(system: System) -> str:
    """``SYSTEM/NAME`` of the first preset where the defender reacts, or ``""``."""
    for preset in system.presets:
        if not makes_no_reaction(preset.scenario):
            return f"{system.id}/{preset.name}"
    return ""


def no_reaction_error(scenario: Scenario, what: str = "worth") -> ScenarioError:
    """The ``ScenarioError`` for a scenario whose defender makes no reaction (see :func:`worth`):
    the field that turns the reaction off (the first the system declares; ``*`` where it is
    every list item's, as in d100's ``attacks.*.evasion``) with its value, what would turn it on
    and a preset of the system where the defender reacts."""
    system = get_system(scenario.system)
    switch, off = next(iter(evasion_of(system).no_reaction.items()))
    example = _reacting_preset(system)
    spec = spec_at(type(scenario), tuple(step for step in switch.split(".") if step != "*"))
    if spec is not None and spec.kind in ("choice", "ruling"):
        on = "one of " + ", ".join(repr(v) for v, _ in spec.choices if v != off)
    elif isinstance(off, bool):
        on = repr(not off)
    else:
        on = "another value"
    every = " in every item" if ".*." in switch else ""
    problems = [Problem(switch, off, (
        f"a reaction to be worth something — with {off!r}{every} the defender makes no reaction, so with "
        f"and without it are the same; {on}"
        + (f", or a preset where the defender reacts, e.g. {example!r}" if example else "")))]
    return ScenarioError(f"{system.id} scenario for {what}", problems)


@dataclass(frozen=True)
class WorthPoint:
    """One value of the evasion attribute: the chance of passing one unopposed evasion roll
    there (``unopposed``) and the reaction's :class:`Worth`."""

    value: Any
    unopposed: Fraction
    worth: Worth


def worth_curve(scenario: Scenario, values: Iterable[Any] | None = None) -> tuple[WorthPoint, ...]:
    """The reaction's worth with the evasion attribute at each of ``values`` (default: every
    value the field allows), the rest of ``scenario`` — the attack above all — held fixed.

    >>> from rules_core import find_preset
    >>> curve = worth_curve(find_preset("eldfall/dodge-vs-critical").scenario, [0, 10, 20])
    >>> [(p.value, str(p.unopposed), str(p.worth.gained["p_no_hit"])) for p in curve]
    [(0, '0', '0'), (10, '1/2', '261/800'), (20, '1', '261/400')]
    """
    evasion = evasion_of(scenario.system)
    chosen = allowed_values(scenario, evasion.attribute) if values is None else tuple(values)
    points = []
    for value in chosen:
        at = scenario.set(evasion.attribute, value)
        points.append(WorthPoint(at.get(evasion.attribute), evasion.unopposed(at), worth(at)))
    return tuple(points)
