"""The registry of game systems: ids, names, sources, rulings and presets, as data."""

from __future__ import annotations

import importlib
import re
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from types import MappingProxyType
from typing import Any

from .play import Headline, Play
from .result import Result, name_own_headlines
from .roller import Roller
from .names import near_names
from .trace import TraceStep, localised_numbers
from .scenario import FieldSpec, Scenario, ScenarioError, Problem, fields_of, parse, shown

__all__ = ["Source", "Preset", "Evasion", "System", "RuleError", "all_systems", "built_in_systems", "register", "unregister",
           "get_system", "load_scenario", "evaluate", "find_preset", "PresetError", "near_names"]


@dataclass(frozen=True)
class Source:
    """A public source the system's model follows (book and page, or page name)."""

    title: str
    where: str = ""

    def __str__(self) -> str:
        return f"{self.title}, {self.where}" if self.where else self.title


@dataclass(frozen=True)
class Preset:
    """A named scenario (the seeds' worked examples first)."""

    name: str
    title: str
    description: str
    scenario: Scenario
    citation: str = ""


@dataclass(frozen=True)
class Evasion:
    """How a system's defender evades, as data (what comparisons across systems read).

    - ``attribute``: dotted path of the evasion attribute (``"dodger.ph"``), the field a sweep
      of "how good a dodger" runs along;
    - ``no_reaction``: the changes, by dotted path, that say "the defender does not react"
      (``{"dodger.dodges": False}``); ``*`` in a path stands for every item of a list;
    - ``unopposed``: the chance, in a scenario, that the defender passes one evasion roll with
      nothing against it (the attribute with the defender's own modifiers, on the game's dice);
    - ``unopposed_text``: what that roll is in the game's words;
    - ``damage``: the headline key of the system's damage quantity (``"expected_wounds"``), or
      ``""`` when the system counts hits only.
    """

    attribute: str
    no_reaction: Mapping[str, Any]
    unopposed: Callable[[Any], Fraction]
    unopposed_text: str
    damage: str = ""


@dataclass(frozen=True)
class System:
    """One game system's evasion rules.

    - ``evaluate(scenario) -> Result``: the fast exact path;
    - ``play(scenario, roller) -> Play``: the rule on one concrete roll, with every die drawn
      from ``roller`` (:mod:`rules_core.play` enumerates, samples and steps through it);
    - ``headlines``: each system-specific headline quantity the results carry (beyond the
      common ones), as ``name -> Headline``: its definition in words and on one play.
    """

    id: str
    name: str
    scenario_cls: type[Scenario]
    evaluate: Callable[[Any], Result]
    sources: tuple[Source, ...]
    play: Callable[[Any, Roller], Play] | None = None
    presets: tuple[Preset, ...] = ()
    headlines: Mapping[str, Headline] = field(default_factory=dict)
    summary: str = ""
    #: Languages the system's texts exist in, the first the default.
    languages: tuple[str, ...] = ("en",)
    #: ``translate(text, lang)``: any text the system shows (labels, help, choices, outcome
    #: labels, trace lines, headline names) in ``lang``; identity when absent.
    translate: Callable[[str, str], str] | None = None
    #: How the defender evades (attribute, "no reaction", an unopposed roll), or None.
    evasion: Evasion | None = None
    #: ``headline(scenario)``: exactly ``evaluate(scenario).headline``, without the rest of the
    #: result (what a sweep needs at each point); None: sweeps take it from ``evaluate``.
    headline: Callable[[Any], Mapping[str, Fraction | None]] | None = None

    def text(self, text: str | TraceStep, lang: str) -> str:
        """``text`` in ``lang`` (unchanged for the first language or without a translator).

        A whole trace step is translated too, part by part (rule, detail, citation), given as
        the :class:`~rules_core.trace.TraceStep` itself or as its line ``str(step)``
        (``"rule: detail [citation]"``); a step in the first language is ``str(step)``. Given
        the step itself, the numbers of its detail are written as ``lang`` writes them too
        (:func:`~rules_core.trace.localised_numbers`: Russian ``≈ 1,05``); a text is translated
        word for word, its numbers left as they are for the caller who writes them itself.

        >>> from rules_core import evaluate, find_preset, get_system
        >>> d100 = get_system("d100-homebrew")
        >>> step = evaluate(find_preset("d100-homebrew/burst-3-vs-dodge-45").scenario).trace[1]
        >>> str(step)
        'Reactions: 1 Reaction this Turn, attacks resolved in the order made [Dodge Workbook rulings \
for the d100 homebrew (docs/rulings/d100-homebrew.md)]'
        >>> d100.text(step, "ru") == d100.text(str(step), "ru")
        True
        >>> d100.text(step, "ru")
        'Реакции: 1 Реакция в этом Ходу, атаки разбираются в порядке совершения [Трактовки «Тетради \
уклонений» для домашних правил d100 (docs/rulings/d100-homebrew.md)]'
        """
        if isinstance(text, TraceStep):
            if self.translate is None or lang == self.languages[0]:
                return str(text)
            rule, detail, citation = (self.translate(part, lang) if part else part
                                      for part in (text.rule, text.detail, text.citation))
            return _step_line(rule, localised_numbers(detail, lang), citation)
        if self.translate is None or lang == self.languages[0]:
            return text
        whole = self.translate(text, lang)
        return self._line_text(text, lang, whole) if ": " in text else whole

    def _line_text(self, line: str, lang: str, whole: str) -> str:
        """A trace step's line ``"rule: detail [citation]"`` in ``lang``. Of ``whole`` (the
        line translated as one text) and every way to cut the line into a rule, a detail and
        (its bracketed tail) a citation, each part translated, the one that leaves the fewest
        of the line's words as they were (the first of equals)."""
        def tr(part: str) -> str:
            return self.translate(part, lang) if part else part  # type: ignore[misc]

        source = set(_WORD.findall(line))

        def kept(text: str) -> int:
            return sum(word in source for word in _WORD.findall(text))

        best, best_kept = whole, kept(whole)
        for head, citation in _citation_cuts(line):
            start = 0
            while (cut := head.find(": ", start)) >= 0:
                candidate = _step_line(tr(head[:cut]), tr(head[cut + 2:]), tr(citation))
                if (n := kept(candidate)) < best_kept:
                    best, best_kept = candidate, n
                start = cut + 1
        return best

    def fields(self) -> tuple[FieldSpec, ...]:
        """The scenario's declared fields."""
        return fields_of(self.scenario_cls)

    def rulings(self) -> tuple[FieldSpec, ...]:
        """The scenario's rulings (named readings with defaults and citations)."""
        return tuple(f for f in self.fields() if f.kind == "ruling")

    def preset(self, name: str) -> Preset:
        """The preset called ``name``; :class:`PresetError` (a ``ScenarioError`` that is also a
        ``KeyError``) naming the near names and the known ones otherwise."""
        for p in self.presets:
            if p.name == name:
                return p
        raise PresetError.unknown(self, name)

    def default_scenario(self) -> Scenario:
        """The first preset's scenario, or the scenario with every field at its default."""
        return self.presets[0].scenario if self.presets else self.scenario_cls()


#: A word of a text (letters only): what :meth:`System.text` counts as left untranslated.
_WORD = re.compile(r"[^\W\d_]+")


def _step_line(rule: str, detail: str, citation: str) -> str:
    """A trace step's one-line form, as :class:`~rules_core.trace.TraceStep` writes it."""
    return f"{rule}: {detail}" + (f" [{citation}]" if citation else "")


def _citation_cuts(line: str) -> list[tuple[str, str]]:
    """``(rule and detail, citation)`` for a line with its bracketed tail taken as the citation
    (brackets inside it balanced, as in ``[d100 homebrew, Evasion [Избегание], ¶1]``), then
    ``(line, "")``."""
    cuts = []
    if line.endswith("]"):
        depth = 0
        for i in range(len(line) - 1, -1, -1):
            depth += {"]": 1, "[": -1}.get(line[i], 0)
            if depth == 0:
                if i > 0 and line[i - 1] == " ":
                    cuts.append((line[:i - 1], line[i + 1:-1]))
                break
    return [*cuts, (line, "")]


class RuleError(ValueError):
    """A mistake in a designer's rule (:mod:`rules_core.design`), said in the designer's words
    (which rule, what is wrong, on which dice)."""


#: The systems registered with :func:`register` (designers' own rules), by id.
_REGISTERED: dict[str, System] = {}


def all_systems() -> Mapping[str, System]:
    """Every system by id: the built-in ones (each package in ``rules_core.systems`` defines
    ``SYSTEM``), then those registered with :func:`register`."""
    return MappingProxyType({**built_in_systems(), **_REGISTERED})


def register(system: System) -> System:
    """Put a designer's rule (a :class:`System`, e.g. from :func:`rules_core.design.rule`) beside
    the built-in ones, for everything that looks systems up by id. Registering an id again
    replaces the earlier one (a notebook cell run twice); a built-in id is refused. Returns it."""
    if not isinstance(system, System):
        raise RuleError(f"register takes a System (made by rules_core.rule(...)), not {shown(system)}")
    if system.id in built_in_systems():
        raise RuleError(f"the id {system.id!r} is a built-in game's; give your rule another id")
    _REGISTERED[system.id] = system
    name_own_headlines(system.id, {key: h.text for key, h in system.headlines.items()})
    return system


def unregister(system_id: str) -> None:
    """Take a registered rule away again (nothing happens for an id not registered)."""
    _REGISTERED.pop(system_id, None)
    name_own_headlines(system_id, None)


@cache
def built_in_systems() -> Mapping[str, System]:
    """The systems of ``rules_core.systems``, by id (each package there defines ``SYSTEM``)."""
    package = importlib.import_module(f"{__package__}.systems")

    found: dict[str, System] = {}
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        system = getattr(module, "SYSTEM", None)
        if isinstance(system, System):
            found[system.id] = system
    return MappingProxyType(found)


def find_system(system_id: object) -> System | None:
    """The system with this id (a built-in game's or a registered rule's), or None. A built-in
    game is found by importing its own package only (``infinity-n4``:
    ``rules_core.systems.infinity_n4``), so a page of one game does not import the other three;
    an id that names no package is looked for among them all."""
    if not isinstance(system_id, str):
        return None
    if system_id in _REGISTERED:
        return _REGISTERED[system_id]
    system = _package_system(system_id)
    return system if system is not None else built_in_systems().get(system_id)


def _package_system(system_id: str) -> System | None:
    """The ``SYSTEM`` of the package of ``rules_core.systems`` named after ``system_id`` (its
    dashes as underscores), if that package exists and its system has this id."""
    name = system_id.replace("-", "_")
    if not name.isidentifier() or name.startswith("_"):
        return None
    module_name = f"{__package__}.systems.{name}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:  # the package is there but needs what is missing
            raise
        return None
    system = getattr(module, "SYSTEM", None)
    return system if isinstance(system, System) and system.id == system_id else None


def get_system(system_id: str) -> System:
    """The system with this id; ``ScenarioError`` naming the known ids otherwise."""
    system = find_system(system_id)
    if system is None:
        raise ScenarioError("scenario", [Problem("system", system_id, _known_ids())])
    return system


def _known_ids() -> str:
    """What a ``system`` field allows, with the hint a designer needs for a rule of their own."""
    return ("one of " + ", ".join(repr(k) for k in all_systems())
            + " (a rule of your own is known once registered: rules_core.register(rule(...)))")


def load_scenario(data: Any) -> Scenario:
    """Validate plain data (with its ``"system"`` id) as that system's scenario."""
    if isinstance(data, Scenario):
        return data
    if not isinstance(data, dict):
        raise ScenarioError("scenario", [Problem("(top level)", data, "a JSON object")])
    known = _known_ids()
    if "system" not in data:
        raise ScenarioError("scenario", [Problem("system", "(missing)", known)])
    if not isinstance(data["system"], str):  # a list or an object would not even look up
        raise ScenarioError("scenario", [Problem("system", data["system"], known)])
    return parse(get_system(data["system"]).scenario_cls, data)


def evaluate(scenario: Scenario | dict[str, Any]) -> Result:
    """Evaluate a scenario (or its plain data) exactly."""
    scenario = load_scenario(scenario)
    return get_system(scenario.system).evaluate(scenario)


def find_preset(ref: str) -> Preset:
    """A preset by ``SYSTEM/NAME``; :class:`PresetError` (a ``ScenarioError``, and a ``KeyError``
    for code written when it was one) naming the near names and the known ones otherwise.

    >>> find_preset("infinity-n4/zhanshi-vs-fusiler")
    Traceback (most recent call last):
    ...
    rules_core.registry.PresetError: infinity-n4 has no preset 'zhanshi-vs-fusiler'; did you mean \
'zhanshi-vs-fusilier' or 'zhanshi-mine-and-fusilier'? presets: zhanshi-dodges-to-engage, \
zhanshi-mine-and-fusilier, zhanshi-vs-fusilier
    """
    if not isinstance(ref, str):
        raise PresetError(f"preset {shown(ref)} should be a text SYSTEM/NAME, e.g. infinity-n4/zhanshi-vs-fusilier",
                          [Problem("preset", ref, "a text SYSTEM/NAME, e.g. infinity-n4/zhanshi-vs-fusilier")])
    system_id, sep, name = ref.partition("/")
    if not sep:
        refs = {f"{s}/{p.name}": p.name for s, system in all_systems().items() for p in system.presets}
        near = near_names(ref, refs)
        said = f"; did you mean {near}?" if near else ""
        raise PresetError(f"preset {shown(ref)} should be SYSTEM/NAME, e.g. infinity-n4/zhanshi-vs-fusilier{said}",
                          [Problem("preset", ref, f"SYSTEM/NAME, e.g. infinity-n4/zhanshi-vs-fusilier{said}")])
    if system_id not in all_systems():
        near = near_names(system_id, {s: s for s in all_systems()})
        said = f"did you mean {near}? " if near else ""
        raise PresetError(f"no system {shown(system_id)}; {said}systems: {', '.join(all_systems())}",
                          [Problem("system", system_id, _known_ids())])
    return all_systems()[system_id].preset(name)


class PresetError(ScenarioError, KeyError):
    """A preset that does not exist: a ``ScenarioError`` (like every other refused input, with
    ``problems``) whose message names the near names, then every known one. It is a
    ``KeyError`` too, so code that caught the ``KeyError`` ``find_preset`` raised before still
    catches it; unlike a plain ``KeyError`` its text is not quoted."""

    def __init__(self, message: str, problems: list[Problem]):
        super().__init__("preset", problems)
        self.args = (message,)

    def __str__(self) -> str:
        return str(self.args[0])

    @classmethod
    def unknown(cls, system: "System", name: str) -> "PresetError":
        """The error for ``system`` having no preset ``name``."""
        names = [p.name for p in system.presets]
        near = near_names(name, {n: n for n in names})
        said = f"did you mean {near}? " if near else ""
        known = ", ".join(names) or "none"
        return cls(f"{system.id} has no preset {shown(name)}; {said}presets: {known}",
                   [Problem("preset", name, f"{said}one of {known}")])
