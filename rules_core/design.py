"""Design your own rule: a scenario and a rule on concrete dice are a whole system.

A designer writes what the four games' packages write — the scenario's declared fields and
``play(scenario, roller)`` on one concrete roll — and :func:`rule` makes the
:class:`~rules_core.registry.System`, with an exact ``evaluate`` that walks every way the dice
can fall (:func:`~rules_core.play.enumerate_play`, following the requests' grouping hints). No
exact algorithm is written. :func:`~rules_core.registry.register` then puts it beside the four
games: ``evaluate``, ``load_scenario``, ``sweep``, ``compare``, ``worth``, ``simulate``, the
command line (``--system-module``) and every dashboard panel accept it.

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
from dataclasses import replace
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from numbers import Integral
from typing import Any

from .play import (COMMON_HEADLINE_DEFINITIONS, Headline, Play, TooManyPlays, _answers, _NeedMore, answer_count,
                   enumerate_play)
from .registry import Evasion, Preset, RuleError, Source, System
from .result import Result
from .roller import Dice, DiceError, Roller
from .scenario import Scenario, parse, shown
from .trace import TraceStep
from .variants import house_rule_steps

__all__ = ["rule", "RuleError", "LIMIT", "TooManyPlays"]

#: The most plays exact enumeration walks for a designer's rule (each is one call of ``play``).
LIMIT = 200_000
_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")


def _dice_text(asked: Sequence[tuple[Dice, Any]]) -> str:
    if not asked:
        return "before any die was rolled"
    return "on " + "; ".join(f"{dice} → {answer}" for dice, answer in asked)


class _Guard(Roller):
    """Hands the designer's ``play`` its dice through the real roller, checks each request, and
    refuses any use once ``play`` has returned."""

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
        if not isinstance(dice, Dice):
            raise RuleError(f"rule {self.rule_id!r}: play asked the roller for {shown(dice)}; ask with "
                            f"Dice(purpose, sides, count), e.g. roller.roll(Dice('dodge', sides=10, count=2))")
        if dice.classify is not None:
            dice = replace(dice, classify=_Hint(self.rule_id, dice))
        answer = self.inner.roll(dice)
        self.asked.append((dice, answer))
        return answer


class _Hint:
    """A request's grouping hint, its mistakes said as the designer's: which request, which answer."""

    def __init__(self, rule_id: str, dice: Dice):
        self.rule_id, self.dice, self.classify = rule_id, dice, dice.classify

    def __call__(self, answer: Any) -> Any:
        try:
            return self.classify(answer)
        except Exception as error:
            raise RuleError(f"rule {self.rule_id!r}: the grouping hint (classify) of {self.dice} raised "
                            f"{type(error).__name__}: {shown(str(error))} on the answer {shown(answer)}") from error


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
                            f"{shown(str(error))} {_dice_text(guard.asked)}") from error
        finally:
            guard.open = False
        if not isinstance(played, Play):
            raise RuleError(f"rule {self.rule_id!r}: play returned {shown(played)}; return a "
                            f"Play(outcome, hits, evasions=..., quantities=..., trace=...)")
        if played.outcome not in self.outcomes:
            raise RuleError(f"rule {self.rule_id!r}: play came to the outcome {shown(played.outcome)} "
                            f"{_dice_text(guard.asked)}, which is not one of the declared outcomes "
                            f"{', '.join(map(repr, self.outcomes))}")
        if not isinstance(played.hits, Integral) or isinstance(played.hits, bool) or played.hits < 0:
            raise RuleError(f"rule {self.rule_id!r}: play's hits must be a whole number of 0 or more, "
                            f"not {shown(played.hits)} {_dice_text(guard.asked)}")
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
    def of(play: Play) -> Any:
        value = h.of(play)
        if h.kind == "probability" and not isinstance(value, bool):
            raise RuleError(f"rule {rule_id!r}: headline {name!r} is not a probability: its event gave "
                            f"{shown(value)} for the play {_play_text(play)}; it must give True or False")
        if h.kind == "expectation" and (isinstance(value, bool) or not isinstance(value, (Integral, Fraction))):
            raise RuleError(f"rule {rule_id!r}: headline {name!r} gave {shown(value)} for the play "
                            f"{_play_text(play)}; give a whole number or a Fraction, so the result stays exact")
        return value
    return Headline(h.text, h.kind, of, h.given, h.applies)


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
         trace: Callable[[Any], Iterable[TraceStep]] | None = None, limit: int = LIMIT) -> System:
    """A designer's rule as a whole system, exact from enumerating ``play``.

    - ``id``: lower-case letters, digits and ``-`` (what links and JSON carry); ``scenario``
      declares ``system: Literal[id] = id`` and gives every field a default;
    - ``play(scenario, roller) -> Play``: the rule on one concrete roll, every die from
      ``roller.roll(Dice(...))`` (a ``classify`` hint groups faces that act alike);
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
    - ``limit``: the most plays the exact enumeration walks before refusing.
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

    def evaluate(given: Any) -> Result:
        s = given if isinstance(given, scenario) else parse(scenario, given)
        first_path_size(system, s, limit)  # a rule plainly too large is refused before any work
        plays = enumerate_play(system, s, limit=limit)
        headline = {key: h.value(s, plays) for key, h in every.items()}
        notes = {key: _note(key, every[key], s) for key, value in headline.items() if value is None}
        names = dict.fromkeys(k for p in plays.outcomes() for k, _ in p.quantities)
        distributions = {k: plays.map(lambda p, k=k: dict(p.quantities).get(k)) for k in names}
        steps = [*house_rule_steps(s), *(trace(s) if trace is not None else ()),
                 TraceStep("Exact", f"every way the dice can fall, walked by the rule itself: "
                                    f"{len(plays.outcomes())} different plays", citation)]
        return Result(id, s, plays.map(lambda p: p.outcome), outcomes, plays.map(lambda p: p.hits),
                      headline, tuple(steps), notes, distributions)

    system = System(id=id, name=name, scenario_cls=scenario, evaluate=evaluate, sources=cited,
                    play=checked_play, presets=presets, headlines=own, summary=summary, evasion=evasion)
    return system


def first_path_size(system: System, scenario: Any, limit: int = LIMIT) -> int:
    """The number of plays on the path of each request's first answer (a lower bound of the
    enumeration's work), refusing a request with more answers than ``limit`` at once."""
    asked: list[Dice] = []
    ways = 1

    class _First(Roller):
        explain = False

        def roll(self, dice: Dice) -> Any:
            nonlocal ways
            if answer_count(dice) > limit:
                raise TooManyPlays([*asked, dice], answer_count(dice), limit)
            asked.append(dice)
            answers = _answers(dice)
            ways *= len(answers)
            return answers[0][0]

    system.play(scenario, _First())
    if ways > limit:
        raise TooManyPlays(asked, ways, limit)
    return ways
