"""Design your own rule: a scenario and a rule on concrete dice are a whole system.

A designer writes what the four games' packages write — the scenario's declared fields and
``play(scenario, roller)`` on one concrete roll — and :func:`rule` makes the
:class:`~rules_core.registry.System`, with an exact ``evaluate`` that walks every way the dice
can fall (:func:`~rules_core.walk.walk`, following the requests' hints, equal to the plain walk
:func:`~rules_core.play.enumerate_play`). No exact algorithm need be written; one the designer
gives (``exact=``) is checked against the walk before it is used.
:func:`~rules_core.registry.register` then puts it beside the four games: ``evaluate``,
``load_scenario``, ``sweep``, ``compare``, ``worth``, ``simulate``, the command line
(``--system-module``) and every dashboard panel accept it.

>>> from typing import Literal
>>> from rules_core import Dice, Play, Scenario, number, register, unregister, rule, evaluate
>>> class Coin(Scenario):
...     system: Literal["doc-coin"] = "doc-coin"
...     hits: int = number(2, ge=1, le=4, label="Hits", help="Hits coming in.")
>>> def play(s, roller):
...     dodged = roller.roll(Dice("dodge", sides=2)) == 2
...     return Play("dodged" if dodged else "hit", 0 if dodged else s.hits, evasions=(dodged,))
>>> COIN = register(rule("doc-coin", "Coin dodge", Coin, play, outcomes=("dodged", "hit")))
>>> evaluate({"system": "doc-coin", "hits": 3}).headline["expected_hits"]
Fraction(3, 2)
>>> unregister("doc-coin")  # (a notebook keeps it; this example leaves no trace)

Mistakes in a rule are said as a designer's error (:class:`RuleError`): the exception ``play``
raised and the dice that caused it, an outcome not declared, a headline that is not a
probability, the roller used after ``play`` returned, a field without a default, an id taken.
A rule whose dice are too many to walk is refused before the work starts
(:class:`~rules_core.play.TooManyPlays`: the dice, the limit, and a pointer to sampling).
"""

# (no "from __future__ import annotations": the example above defines a scenario class in
# this module's doctest, whose annotations pydantic must be able to read at once)

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from math import lcm
from numbers import Integral
from random import Random
from typing import Any

from .dist import Dist
from .play import COMMON_HEADLINE_DEFINITIONS, Headline, Play, TooManyPlays, _NeedMore
from .registry import Evasion, Preset, RuleError, Source, System
from .result import Result
from .roller import Dice, DiceError, Roller
from .scenario import Scenario, ScenarioError, fields_of, parse, shown
from .trace import TraceStep
from .variants import house_rule_steps
from .walk import check_play, dice_text, hinted, walk

__all__ = ["rule", "RuleError", "LIMIT", "TooManyPlays"]

#: The most plays exact enumeration walks for a designer's rule (each is one call of ``play``;
#: a pool with a ``face_kind`` hint counts its multisets of kinds, not of faces: 6d20 unordered
#: without a hint is 177,100 plays and fits, 7d20 is 657,800 and is refused, 30d20 read by three
#: kinds of faces is 496).
LIMIT = 200_000
_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")


class _Guard(Roller):
    """Hands the designer's ``play`` its dice through the real roller, checks each request, and
    refuses any use once ``play`` has returned (for a roll, sampling and the plain walk; the
    exact evaluation's own walk is :func:`~rules_core.walk.walk`)."""

    def __init__(self, inner: Roller, rule_id: str):
        super().__init__()
        self.inner, self.rule_id, self.open = inner, rule_id, True
        self.explain = inner.explain
        self.rolled = inner.rolled
        self.asked: list[tuple[Dice, Any]] = []

    def roll(self, dice: Dice) -> Any:
        if not self.open:
            raise RuleError(f"rule {self.rule_id!r}: the roller was used after play returned (asked for "
                            f"{dice}); roll every die inside play, before it returns its Play")
        dice = hinted(self.rule_id, dice)
        answer = self.inner.roll(dice)
        self.asked.append((dice, answer))
        return answer


class _Checked:
    """The designer's ``play``, checked on every call: what it raised and on which dice, an
    outcome it did not declare, a play that is not a :class:`Play`."""

    def __init__(self, rule_id: str, play: Callable[[Any, Roller], Play], outcomes: tuple[str, ...]):
        self.rule_id, self.play, self.outcomes = rule_id, play, outcomes
        self.__doc__ = play.__doc__
        self.__name__ = getattr(play, "__name__", "play")

    def __call__(self, scenario: Any, roller: Roller) -> Play:
        guard = _Guard(roller, self.rule_id)
        try:
            played = self.play(scenario, guard)
        except (RuleError, DiceError, TooManyPlays, _NeedMore):
            raise  # the typed faces' mistake, the size limit, or the enumerator asking for a die
        except Exception as error:
            raise RuleError(f"rule {self.rule_id!r}: play raised {type(error).__name__}: "
                            f"{shown(str(error))} {dice_text(guard.asked)}") from error
        finally:
            guard.open = False
        check_play(self.rule_id, self.outcomes, played, guard.asked)
        return played


def _check_scenario(rule_id: str, scenario: type[Scenario]) -> None:
    if not (isinstance(scenario, type) and issubclass(scenario, Scenario)):
        raise RuleError(f"rule {rule_id!r}: the scenario must be a Scenario subclass, not {shown(scenario)}")
    field = scenario.model_fields.get("system")
    if field is None or field.default != rule_id:
        raise RuleError(f"rule {rule_id!r}: the scenario must declare system: Literal[{rule_id!r}] = "
                        f"{rule_id!r} (its id, which links and JSON carry)")
    required = [name for name, f in scenario.model_fields.items() if f.is_required()]
    if required:
        raise RuleError(f"rule {rule_id!r}: every field needs a default (the dashboard starts from "
                        f"them); {', '.join(required)} {'has' if len(required) == 1 else 'have'} none")
    try:
        scenario()
    except Exception as error:
        raise RuleError(f"rule {rule_id!r}: the scenario's defaults are refused: {error}") from error


def _check_headlines(rule_id: str, headlines: Mapping[str, Headline]) -> dict[str, Headline]:
    checked = {}
    for name, h in headlines.items():
        if name in COMMON_HEADLINE_DEFINITIONS:
            raise RuleError(f"rule {rule_id!r}: headline {name!r} is one every rule has already "
                            f"(P(dodge succeeds), P(no hit), expected hits); name yours otherwise")
        if not isinstance(h, Headline):
            raise RuleError(f"rule {rule_id!r}: headline {name!r} is {shown(h)}; define it with "
                            f"probability(text, event) or expectation(text, value)")
        if name.startswith("p_") != (h.kind == "probability"):
            raise RuleError(f"rule {rule_id!r}: headline {name!r} is "
                            + (f"not a probability (it is an expectation); a name starting p_ is "
                               f"shown as a percentage: define it with probability(text, event)"
                               if name.startswith("p_") else
                               "a probability: name it p_... so that it is shown as one"))
        checked[name] = h
    return checked


def _value_checked(rule_id: str, name: str, h: Headline) -> Headline:
    """``h`` with its event or value checked on each play: a probability's event gives true or
    false, an expectation's value an exact number."""
    def read(part: str, fn: Callable[[Play], Any], play: Play) -> Any:
        try:
            return fn(play)
        except RuleError:
            raise
        except Exception as error:
            said = error.args[0] if isinstance(error, KeyError) and error.args else str(error)
            raise RuleError(f"rule {rule_id!r}: headline {name!r} could not be read on the play "
                            f"{_play_text(play)}: its {part} raised {type(error).__name__}: {shown(str(said))}; "
                            f"read a quantity only on the plays that have it (p['cancelled'] if p.evasions "
                            f"else 0), or give it on every play") from error

    def given(play: Play) -> Any:
        return read("condition (given)", h.given, play)

    def of(play: Play) -> Any:
        value = read("event" if h.kind == "probability" else "value", h.of, play)
        if h.kind == "probability" and not isinstance(value, bool):
            raise RuleError(f"rule {rule_id!r}: headline {name!r} is not a probability: its event gave "
                            f"{shown(value)} for the play {_play_text(play)}; it must give True or False")
        if h.kind == "expectation" and type(value) is not int and type(value) is not Fraction \
                and (isinstance(value, bool) or not isinstance(value, (Integral, Fraction))):
            raise RuleError(f"rule {rule_id!r}: headline {name!r} gave {shown(value)} for the play "
                            f"{_play_text(play)}; give a whole number or a Fraction, so the result stays exact")
        return value
    return Headline(h.text, h.kind, of, None if h.given is None else given, h.applies)


def _play_text(play: Play) -> str:
    quantities = ", ".join(f"{k}={v!r}" for k, v in play.quantities)
    return f"({play.outcome!r}, hits {play.hits}{', ' + quantities if quantities else ''})"


def _note(name: str, h: Headline, scenario: Any) -> str:
    if h.applies is not None and (why := h.applies(scenario)) is not None:
        return why
    if name == "p_dodge_succeeds":
        return "No evasion roll is made, whatever the dice."
    return "What it is measured on never happens here."


def rule(id: str, name: str, scenario: type[Scenario], play: Callable[[Any, Roller], Play], *,
         outcomes: Sequence[str], sources: Iterable[Source | str] = (),
         headlines: Mapping[str, Headline] | None = None, evasion: Evasion | None = None,
         presets: Iterable[Preset] | Mapping[str, Scenario] = (), summary: str = "",
         trace: Callable[[Any], Iterable[TraceStep]] | None = None, limit: int = LIMIT,
         exact: Callable[[Any], Mapping[Play, Any] | Dist] | None = None) -> System:
    """A designer's rule as a whole system, exact from enumerating ``play``.

    - ``id``: lower-case letters, digits and ``-`` (what links and JSON carry); ``scenario``
      declares ``system: Literal[id] = id`` and gives every field a default;
    - ``play(scenario, roller) -> Play``: the rule on one concrete roll, every die from
      ``roller.roll(Dice(...))`` (a ``face_kind`` hint says which faces act alike, a
      ``classify`` hint which answers);
    - ``outcomes``: every outcome label ``play`` can come to, in display order;
    - ``sources``: where the rule is written (:class:`~rules_core.registry.Source` or text);
    - ``headlines``: the rule's own headline quantities, defined on one play
      (:func:`~rules_core.play.probability` for ``p_...`` names, else
      :func:`~rules_core.play.expectation`), beside the common three every rule has;
    - ``evasion``: what the reaction is (:class:`~rules_core.registry.Evasion`: the attribute, the
      change that turns the reaction off): the rule then joins ``worth`` and the page of games;
    - ``presets``: named scenarios (``Preset`` objects, or ``{name: scenario}``); with none, the
      default scenario is the one preset, ``default`` (every page offers a rule's presets);
    - ``trace(scenario)``: the steps every result states whatever the dice (modifiers, targets);
      the trace of each roll is ``play``'s own;
    - ``limit``: the most plays the exact enumeration walks before refusing;
    - ``exact(scenario)``: an optional fast path (in closed form, or by convolutions as icepool
      computes): the distribution of plays without their traces, as ``{Play(...): weight}``
      (whole numbers or Fractions) or a :class:`~rules_core.dist.Dist` of plays. It is checked
      against the walk of ``play`` on the defaults, every preset and drawn scenarios
      (:data:`EXACT_CHECKS`) before ``rule`` returns, and used only then; a disagreement is a
      :class:`RuleError` naming the scenario and both answers.
    """
    if not isinstance(id, str) or not _ID.match(id):
        raise RuleError(f"rule id {shown(id)}: use 1 to 40 lower-case letters, digits and '-', starting "
                        f"with a letter or digit (e.g. 'my-2d10')")
    _check_scenario(id, scenario)
    outcomes = tuple(outcomes)
    if not outcomes or not all(isinstance(o, str) and o for o in outcomes) or len(set(outcomes)) != len(outcomes):
        raise RuleError(f"rule {id!r}: outcomes must be distinct, non-empty labels, in display order; "
                        f"got {shown(outcomes)}")
    if not callable(play):
        raise RuleError(f"rule {id!r}: play must be a function play(scenario, roller) -> Play")
    own = _check_headlines(id, headlines or {})
    checked_headlines = {k: _value_checked(id, k, h) for k, h in own.items()}
    if isinstance(presets, Mapping):
        presets = [Preset(key, key.replace("-", " ").capitalize(), "", value) for key, value in presets.items()]
    presets = tuple(presets) or (Preset("default", "Default", "The rule's default scenario.", scenario()),)
    for p in presets:
        if not isinstance(p, Preset) or not isinstance(p.scenario, scenario):
            raise RuleError(f"rule {id!r}: a preset must be a Preset of a {scenario.__name__}; got {shown(p)}")
    cited = tuple(s if isinstance(s, Source) else Source(str(s)) for s in sources)
    checked_play = _Checked(id, play, outcomes)
    every = {**COMMON_HEADLINE_DEFINITIONS, **checked_headlines}
    citation = str(cited[0]) if cited else ""

    def walked(s: Any, most: int = limit) -> Dist:
        return walk(id, play, outcomes, s, most)

    def plays_of(given: Any) -> tuple[Any, Dist]:
        s = given if isinstance(given, scenario) else parse(scenario, given)
        return s, (walked(s) if exact is None else _exact_plays(id, exact, outcomes, s))

    def headline_of(s: Any, plays: Dist) -> dict[str, Fraction | None]:
        return {key: h.value(s, plays) for key, h in every.items()}

    def evaluate(given: Any) -> Result:
        s, plays = plays_of(given)
        headline = headline_of(s, plays)
        notes = {key: _note(key, every[key], s) for key, value in headline.items() if value is None}
        names = dict.fromkeys(k for p in plays.outcomes() for k, _ in p.quantities)
        distributions = {k: plays.map(lambda p, k=k: dict(p.quantities).get(k)) for k in names}
        how = ("the rule's own exact form (checked against walking every way the dice can fall)"
               if exact is not None else "every way the dice can fall, walked by the rule itself")
        steps = [*house_rule_steps(s), *(trace(s) if trace is not None else ()),
                 TraceStep("Exact", f"{how}: {len(plays.outcomes())} different plays", citation)]
        return Result(id, s, plays.map(lambda p: p.outcome), outcomes, plays.map(lambda p: p.hits),
                      headline, tuple(steps), notes, distributions)

    system = System(id=id, name=name, scenario_cls=scenario, evaluate=evaluate, sources=cited,
                    play=checked_play, presets=presets, headlines=own, summary=summary, evasion=evasion,
                    headline=lambda given: headline_of(*plays_of(given)))
    if exact is not None:
        if not callable(exact):
            raise RuleError(f"rule {id!r}: exact must be a function exact(scenario) -> {{Play: weight}}, "
                            f"not {shown(exact)}")
        _check_exact(id, exact, outcomes, scenario, presets, walked, limit)
    return system


#: How many drawn scenarios (beside the defaults and every preset) ``rule(..., exact=fn)`` is
#: checked on, and the most plays each drawn one may take to walk (larger draws are skipped).
EXACT_CHECKS, EXACT_CHECK_LIMIT = 24, 20_000


def _exact_plays(rule_id: str, exact: Callable[[Any], Any], outcomes: Sequence[str], s: Any) -> Dist:
    """The designer's ``exact(s)`` as a distribution of plays, each play and weight checked."""
    try:
        given = exact(s)
    except (RuleError, TooManyPlays):
        raise
    except Exception as error:
        raise RuleError(f"rule {rule_id!r}: exact raised {type(error).__name__}: {shown(str(error))} "
                        f"on the scenario {_scenario_text(s)}") from error
    if isinstance(given, Dist):
        given = dict(given.items())
    if not isinstance(given, Mapping) or not given:
        raise RuleError(f"rule {rule_id!r}: exact returned {shown(given)} on the scenario {_scenario_text(s)}; "
                        f"return {{Play(outcome, hits, ...): weight}} (weights whole numbers or Fractions)")
    common = 1
    for played, weight in given.items():
        check_play(rule_id, outcomes, played, ())
        if type(weight) is not int and (isinstance(weight, bool) or not isinstance(weight, (Integral, Fraction))) \
                or weight < 0:
            raise RuleError(f"rule {rule_id!r}: exact gave the play {_play_text(played)} the weight "
                            f"{shown(weight)}; give a whole number or a Fraction of 0 or more, so the result "
                            f"stays exact")
        if isinstance(weight, Fraction):
            common = lcm(common, weight.denominator)
    return Dist((played.bare() if played.trace or played.rolled else played, int(weight * common))
                for played, weight in given.items())


def _check_exact(rule_id: str, exact: Callable[[Any], Any], outcomes: Sequence[str], scenario: type[Scenario],
                 presets: Sequence[Preset], walked: Callable[[Any, int], Dist], limit: int) -> None:
    """Refuse ``exact`` unless it gives what the walk of ``play`` gives on the defaults, every
    preset and :data:`EXACT_CHECKS` drawn scenarios (a drawn one too large to walk is skipped)."""
    rng = Random(rule_id)  # the same draws every time the rule is made
    named = [("the defaults", scenario(), limit), *((f"the preset {p.name!r}", p.scenario, limit) for p in presets)]
    drawn = (("the scenario " + _scenario_text(s), s, EXACT_CHECK_LIMIT) for s in _drawn(scenario, rng, EXACT_CHECKS))
    for what, s, most in [*named, *drawn]:
        try:
            truth = walked(s, most)
        except TooManyPlays:
            if most < limit:
                continue
            raise
        fast = _exact_plays(rule_id, exact, outcomes, s)
        if fast != truth:
            raise RuleError(f"rule {rule_id!r}: exact disagrees with walking every way the dice can fall, on "
                            f"{what}: {_difference(fast, truth)}")


def _difference(fast: Dist, truth: Dist) -> str:
    """The plays whose chances ``exact`` and the walk give differently (at most four)."""
    differ = [p for p in dict.fromkeys([*truth.outcomes(), *fast.outcomes()]) if fast[p] != truth[p]]
    said = "; ".join(f"{_play_text(p)}: exact {_chance(fast[p])}, the walk {_chance(truth[p])}" for p in differ[:4])
    return said + (f"; and {len(differ) - 4} more plays" if len(differ) > 4 else "")


def _chance(p: Fraction) -> str:
    return "0 (never)" if p == 0 else "1 (always)" if p == 1 else f"{p.numerator}/{p.denominator}"


def _scenario_text(s: Scenario) -> str:
    """A scenario by the fields that differ from its defaults, as a link names them
    (``skill=14, variant.doubles_cancel_all=False``), or "the defaults"."""
    def flat(data: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
        found: dict[str, Any] = {}
        for key, value in data.items():
            found.update(flat(value, f"{prefix}{key}.") if isinstance(value, Mapping) else {prefix + key: value})
        return found
    default, data = flat(type(s)().to_data()), flat(s.to_data())
    changed = [f"{k}={shown(v)}" for k, v in data.items() if default.get(k) != v]
    return ", ".join(changed) or "the defaults"


def _drawn(scenario: type[Scenario], rng: Random, count: int) -> Iterator[Scenario]:
    """Up to ``count`` scenarios drawn over the declared fields' ranges (a draw the scenario
    refuses is left out)."""
    for _ in range(count):
        try:
            yield parse(scenario, {"system": scenario().system, **_drawn_data(scenario, rng)})
        except ScenarioError:
            continue


def _drawn_data(model: type, rng: Random) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for spec in fields_of(model):
        if spec.kind in ("int", "float") and spec.minimum is not None and spec.maximum is not None:
            step = Fraction(str(spec.step or 1))
            top = int((Fraction(str(spec.maximum)) - Fraction(str(spec.minimum))) / step)
            value = Fraction(str(spec.minimum)) + rng.randint(0, top) * step
            data[spec.name] = int(value) if spec.kind == "int" else float(value)
        elif spec.kind == "flag":
            data[spec.name] = rng.random() < 0.5
        elif spec.kind in ("choice", "ruling") and spec.choices:
            data[spec.name] = rng.choice([v for v, _ in spec.choices])
        elif spec.kind == "part":
            data[spec.name] = _drawn_data(spec.part_cls, rng)
    return data
