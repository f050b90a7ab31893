"""The d100 homebrew's Evasion on one concrete roll: :func:`play`.

The scenario is read once into a :class:`Plan` (each attack's target, gates, Leap plan and what
a hit of each later attack costs in leftover Successes). Then the attacks are resolved in the
order made, as the rules text plays them, by three steps on a :class:`State`:

- :func:`decide`: is an Evasion roll made against this attack now (hits remain, the roll is
  legal, a Reaction is left, a needed Leap fits the Round's budget)? If not, :func:`no_roll`:
  its remaining hits land;
- otherwise the d100 is rolled (through the roller) and :func:`after_roll` spends its
  Successes: one hit each, or a Leap instead, then leftovers on later attacks' hits.

Each step reports what it did as named events (:class:`Roll`, :class:`Evade`,
:class:`Leftover`, …), which make the trace. :mod:`.exact` walks the same steps over every
number of Successes at once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import NamedTuple, Union

from ...play import Play
from ...result import TraceStep
from ...roller import Roller
from ...variants import HouseRule, house_rules
from .dice import TestRules, evasion_dice, roll_successes
from .outcomes import AttackFate, Ending, OutcomeShape, outcome_label
from .scenario import (CITE_DODGE, CITE_LEAP, CITE_LEAP_BUDGET, CITE_LEFTOVERS, CITE_ONE_PER_ATTACK, CITE_PARRY,
                       CITE_SIZE, CITE_STRAY, LEFTOVER_COST, PENALTY_STEP, D100Scenario)
from .text import say

__all__ = ["play", "Plan", "AttackPlan", "Spend", "Blocked", "State", "Why", "make_plan", "start", "decide",
           "no_roll", "after_roll", "leftover_cost", "target_of", "parry_gate", "fates_of", "Event", "Roll",
           "Evade", "Leftover", "Unused", "Leap", "Land", "Stray", "Disengage", "NoRoll", "ROLL_NAMES",
           "house_rule_trace"]

ROLL_NAMES = {"dodge": "Dodge", "parry": "Parry"}


# -- house rules ---------------------------------------------------------------------------------

def _house_rule_detail(rule: HouseRule) -> str:
    """``str(rule)`` ("Leftover Successes per hit 3 (official 2)"), said through a template with
    a Russian twin (one per rule constant, since the label is part of the text)."""
    name = rule.path.rsplit(".", 1)[-1]
    if name == "points_per_success":
        return say("Points per further Success {value} (official {official})", value=rule.value,
                   official=rule.official)
    if name == "leftover_cost":
        return say("Leftover Successes per hit {value} (official {official})", value=rule.value,
                   official=rule.official)
    return say("Extra penalty per +1 Success {value} (official {official})", value=rule.value,
               official=rule.official)


def house_rule_trace(scenario: D100Scenario) -> tuple[TraceStep, ...]:
    """:func:`rules_core.variants.house_rule_steps` of ``scenario`` (one step per house rule, to
    open a trace), in words the system can show in Russian too."""
    return tuple(TraceStep(say("House rule"), _house_rule_detail(rule), rule.citation)
                 for rule in house_rules(scenario))


# -- the scenario read once ----------------------------------------------------------------------

def leftover_cost(first_modifier: int, modifier: int, cost: int = LEFTOVER_COST, step: int = PENALTY_STEP) -> int:
    """Successes per hit when leftovers from a roll against an attack with ``first_modifier``
    pay for a hit of an attack with ``modifier``: 2, +1 per full −10 of extra penalty (``cost``
    and ``step``: a house rule's values for the 2 and the 10).

    >>> leftover_cost(0, 0), leftover_cost(0, -20), leftover_cost(-10, -25), leftover_cost(-20, 0)
    (2, 4, 3, 2)
    >>> leftover_cost(0, -20, cost=3, step=20)
    4
    """
    return cost + max(0, first_modifier - modifier) // step


def target_of(scenario: D100Scenario, roll: str, modifier: int) -> int:
    """The test's target: characteristic + advance + the defender's modifier + the attack's."""
    d = scenario.defender
    if roll == "dodge":
        return d.agility + d.dodge_advance + d.dodge_modifier + modifier
    return d.weapon_skill + d.parry_advance + d.parry_modifier + modifier


class Blocked(NamedTuple):
    """Why no Evasion roll can be made against an attack at all (English text, citation)."""

    reason: str
    citation: str


def parry_gate(scenario: D100Scenario) -> Blocked | None:
    """Why the Size difference forbids a Parry, or None when it allows one."""
    size, advance = scenario.sizes_larger, scenario.defender.parry_advance
    if size >= 4:
        return Blocked(say("Parry impossible: the attacker is {size} Sizes larger (4 or more)", size=size),
                       CITE_SIZE)
    if advance < 10 * size:
        return Blocked(say("Parry needs the skill advanced to +{need} against an attacker {size} "
                           "{size|Size|Sizes} larger, and it is +{has}", need=10 * size, size=size, has=advance),
                       CITE_SIZE)
    return None


class Spend(NamedTuple):
    """A later attack the leftovers of a roll can reach."""

    attack: int         # its index
    cost: int           # Successes per hit
    strays: bool        # its hits so evaded fly on (a Dodge's leftovers on a shot with a next target)


@dataclass(frozen=True)
class AttackPlan:
    """One attack as the rules see it, with everything that does not depend on the dice."""

    number: int                 # 1-based, as shown
    hits: int
    kind: str
    ranged: bool                # a shot (may stray, may be Leapt from)
    area: bool                  # covers the whole Base: only a Leap dodges it
    modifier: int
    roll: str | None            # "dodge" | "parry" | None: no Evasion roll can be made
    target: int | None
    blocked: Blocked | None     # why no roll can be made
    leap: str                   # the usable Leap plan: "none" | "cover" | "out_of_reach"
    leap_note: str | None       # why a planned Leap cannot be made
    leap_distance: int
    stray: bool                 # dodged hits fly on toward a next target
    free_attackers_evade: bool
    costs: tuple[int | None, ...]   # Successes per hit of each attack, from this roll's leftovers
    spend_cheapest: tuple[Spend, ...] = ()  # the attacks its leftovers reach, cheapest first
    spend_in_order: tuple[Spend, ...] = ()  # the same in the order made


@dataclass(frozen=True)
class Plan:
    """A scenario read once: targets, gates, costs and the Round's Leap budget."""

    attacks: tuple[AttackPlan, ...]
    reactions: int
    spd: int
    budget: int
    engaged: bool
    rules: TestRules
    cheapest_first: bool
    leap_when_short: bool

    @property
    def total_hits(self) -> int:
        """Every hit of every attack."""
        return sum(a.hits for a in self.attacks)

    @property
    def shape(self) -> OutcomeShape:
        """What this scenario's outcome labels mention."""
        return OutcomeShape(self.total_hits, any(a.leap == "cover" and a.roll == "dodge" for a in self.attacks),
                            any(a.stray for a in self.attacks))


@lru_cache(maxsize=64)
def make_plan(scenario: D100Scenario) -> Plan:
    """Everything about the scenario that does not depend on the dice (cached: scenarios are
    immutable)."""
    d, rule = scenario.defender, scenario.variant
    attacks = scenario.attacks
    gate = parry_gate(scenario)
    plans = []
    for i, a in enumerate(attacks):
        ranged = a.kind != "melee"
        parryable = a.kind != "shooting"
        roll: str | None = a.evasion if a.evasion != "none" else None
        blocked = leap_note = None
        leap = a.leap
        if leap != "none":
            if roll != "dodge":
                leap_note = say("no Leap: a Leap follows only a successful Dodge")
            elif not ranged:
                leap_note = say("no Leap: a Leap follows only a Dodge against a shooting attack")
            elif a.leap_distance > d.spd:
                leap_note = say("no Leap: {need} m needed, more than SPD {spd} m", need=a.leap_distance,
                                spd=d.spd)
            if leap_note:
                leap = "none"
        if roll is None:
            blocked = Blocked(say("no Evasion roll is declared against it"), CITE_ONE_PER_ATTACK)
        elif roll == "parry" and not parryable:
            blocked = Blocked(say("Parry works only against melee attacks and shots fired in melee"), CITE_PARRY)
        elif roll == "parry" and a.covers_whole_base:
            blocked = Blocked(say("an attack covering the whole Base can be dodged only by a Leap"), CITE_LEAP)
        elif roll == "parry" and gate:
            blocked = gate
        elif a.covers_whole_base and leap == "none":
            blocked = Blocked(say("an attack covering the whole Base can be dodged only by a Leap, and no Leap "
                                  "can be made against it"), CITE_LEAP)
        costs = []
        for j, b in enumerate(attacks):
            reach = j > i and not b.covers_whole_base and (roll == "dodge" or b.kind != "shooting")
            costs.append(leftover_cost(a.evasion_modifier, b.evasion_modifier, rule.leftover_cost, rule.penalty_step)
                         if reach else None)
        plans.append(AttackPlan(
            number=i + 1, hits=a.hits, kind=a.kind, ranged=ranged, area=a.covers_whole_base,
            modifier=a.evasion_modifier, roll=None if blocked else roll,
            target=None if blocked else target_of(scenario, roll, a.evasion_modifier), blocked=blocked,
            leap=leap, leap_note=leap_note, leap_distance=a.leap_distance,
            stray=ranged and a.next_target, free_attackers_evade=a.free_attackers_evade,
            costs=tuple(costs)))
    for k, a in enumerate(plans):
        spend = tuple(Spend(j, c, a.roll == "dodge" and plans[j].stray) for j, c in enumerate(a.costs)
                      if c is not None)
        plans[k] = replace(a, spend_in_order=spend, spend_cheapest=tuple(sorted(spend, key=lambda t: t.cost)))
    budget = d.spd * (1 + d.unspent_ap + (1 if d.delayed_half_action else 0))
    return Plan(attacks=tuple(plans), reactions=d.reactions, spd=d.spd, budget=budget,
                engaged=d.engaged_in_melee, rules=TestRules.of(scenario),
                cheapest_first=scenario.spending == "cheapest_first",
                leap_when_short=scenario.leap_policy == "when_short")


# -- where the resolution stands -----------------------------------------------------------------

class State(NamedTuple):
    """Where the resolution stands before an attack: hits still to resolve, Reactions and Leap
    metres left, and what has happened so far."""

    remaining: tuple[int, ...]
    reactions: int
    leap_used: int = 0
    engaged: bool = False
    rolled: bool = False
    all_passed: bool = True
    landed: int = 0
    in_cover: int = 0
    stray: int = 0
    disengage: bool = False

    @property
    def ending(self) -> Ending:
        """What the hits have come to so far (at the end: the outcome)."""
        return Ending(self.landed, self.in_cover, self.stray, self.disengage)


def start(plan: Plan) -> State:
    """The state before the first attack."""
    return State(remaining=tuple(a.hits for a in plan.attacks), reactions=plan.reactions,
                 engaged=plan.engaged)


class Why(NamedTuple):
    """Why no Evasion roll is made against an attack now."""

    code: str           # "leftovers" | "blocked" | "no_reaction" | "budget"
    used: int = 0       # "budget": Leap metres already used this Round
    budget: int = 0     # "budget": the Round's Leap budget

    def text(self, plan: Plan, i: int) -> Blocked:
        """The reason and its citation, for attack ``i``."""
        if self.code == "leftovers":
            return Blocked(say("every hit already evaded by leftover Successes"), CITE_LEFTOVERS)
        if self.code == "blocked":
            return plan.attacks[i].blocked
        if self.code == "no_reaction":
            return Blocked(say("no Reaction left"), CITE_ONE_PER_ATTACK)
        return Blocked(say("the Round's Leap budget is spent ({used} of {budget} m), and only a Leap can dodge "
                           "an attack covering the whole Base", used=self.used, budget=self.budget),
                       CITE_LEAP_BUDGET)


# -- what one step did: events, each its own trace line ------------------------------------------
# Events are never changed once made. They are not frozen dataclasses only because the exact path
# makes them in its inner loop, where a frozen instance costs three times as much to create.

@dataclass(slots=True)
class Roll:
    """An Evasion roll against attack ``attack``: the d100 ``face`` scored ``successes`` (0: failed)."""

    attack: int
    face: int
    successes: int

    def step(self, plan: Plan) -> TraceStep:
        """This event as a trace line."""
        a = plan.attacks[self.attack]
        s = self.successes
        if s:
            detail = say("rolled {face} against {target}: {s} {s|Success|Successes}", face=f"{self.face:02d}",
                         target=a.target, s=s)
        else:
            detail = say("rolled {face} against {target}: the test fails", face=f"{self.face:02d}",
                         target=a.target)
        return TraceStep(say("{roll} against attack {a}", roll=ROLL_NAMES[a.roll], a=a.number), detail,
                         CITE_DODGE if a.roll == "dodge" else CITE_PARRY)


@dataclass(slots=True)
class Evade:
    """``hits`` hits of attack ``attack`` evaded by its own roll's Successes."""

    attack: int
    hits: int

    def step(self, plan: Plan) -> TraceStep:
        """This event as a trace line."""
        return TraceStep(say("Evasion"), say("{n} {n|hit|hits} of attack {a} evaded", n=self.hits,
                                             a=plan.attacks[self.attack].number), CITE_ONE_PER_ATTACK)


@dataclass(slots=True)
class Leftover:
    """``hits`` hits of attack ``attack`` evaded by leftovers of an earlier roll, at ``cost``
    Successes per hit."""

    attack: int
    hits: int
    cost: int

    def step(self, plan: Plan) -> TraceStep:
        """This event as a trace line."""
        return TraceStep(say("Leftover Successes"),
                         say("{n} {n|hit|hits} of attack {b} evaded at {cost} Successes per hit",
                             n=self.hits, b=plan.attacks[self.attack].number, cost=self.cost), CITE_LEFTOVERS)


@dataclass(slots=True)
class Unused:
    """``successes`` Successes of a roll left unspent."""

    successes: int

    def step(self, plan: Plan) -> TraceStep:
        """This event as a trace line."""
        return TraceStep(say("Leftover Successes"),
                         say("{n} {n|Success|Successes} left unspent", n=self.successes), CITE_LEFTOVERS)


@dataclass(slots=True)
class Leap:
    """A Leap of ``metres`` against attack ``attack``: its ``hits`` hits land against Cover
    (``into`` "cover") or are negated (``into`` "out_of_reach")."""

    attack: int
    into: str
    hits: int
    metres: int

    def step(self, plan: Plan) -> TraceStep:
        """This event as a trace line."""
        a = plan.attacks[self.attack].number
        if self.into == "cover":
            detail = say("a Leap of {m} m into Cover: {n} {n|hit|hits} of attack {a} land against the "
                         "Cover's AP", m=self.metres, n=self.hits, a=a)
        else:
            detail = say("a Leap of {m} m out of the reach of attack {a}: {n} {n|hit|hits} negated",
                         m=self.metres, n=self.hits, a=a)
        return TraceStep(say("Leap [Отскок]"), detail, CITE_LEAP)


@dataclass(slots=True)
class Land:
    """``hits`` hits of attack ``attack`` land in the open."""

    attack: int
    hits: int

    def step(self, plan: Plan) -> TraceStep:
        """This event as a trace line."""
        return TraceStep(say("Hits land"), say("{n} {n|hit|hits} of attack {a} {n|lands|land}", n=self.hits,
                                               a=plan.attacks[self.attack].number), CITE_ONE_PER_ATTACK)


@dataclass(slots=True)
class Stray:
    """``shots`` dodged shots of attack ``attack`` fly on toward the next target."""

    attack: int
    shots: int

    def step(self, plan: Plan) -> TraceStep:
        """This event as a trace line."""
        return TraceStep(say("Stray shot"),
                         say("{n} dodged {n|shot|shots} of attack {a} {n|flies|fly} on toward the next "
                             "target (GM's call: 1 Success each, random location)", n=self.shots,
                             a=plan.attacks[self.attack].number), CITE_STRAY)


@dataclass(slots=True)
class Disengage:
    """A Leap took the defender out of melee; ``counts``: as a Disengage."""

    counts: bool

    def step(self, plan: Plan) -> TraceStep:
        """This event as a trace line."""
        detail = (say("the Leap out of melee counts as a Disengage [Вольт]") if self.counts else
                  say("the Leap out of melee is no Disengage: every enemy able to make Free Attacks "
                      "also evades this attack"))
        return TraceStep(say("Leap [Отскок]"), detail, CITE_LEAP)


@dataclass(slots=True)
class NoRoll:
    """No Evasion roll against attack ``attack``, and why."""

    attack: int
    why: Why

    def step(self, plan: Plan) -> TraceStep:
        """This event as a trace line."""
        reason, cite = self.why.text(plan, self.attack)
        return TraceStep(say("No Evasion roll against attack {a}", a=plan.attacks[self.attack].number), reason, cite)


Event = Union[Roll, Evade, Leftover, Unused, Leap, Land, Stray, Disengage, NoRoll]


# -- the three steps -----------------------------------------------------------------------------

def decide(plan: Plan, state: State, i: int) -> Why | None:
    """Why no Evasion roll is made against attack ``i`` now, or None: a roll is made."""
    a = plan.attacks[i]
    if state.remaining[i] == 0:
        return Why("leftovers")
    if a.blocked:
        return Why("blocked")
    if state.reactions == 0:
        return Why("no_reaction")
    if a.area and state.leap_used + a.leap_distance > plan.budget:
        return Why("budget", state.leap_used, plan.budget)
    return None


def no_roll(state: State, i: int, why: Why) -> tuple[State, list[Event]]:
    """Attack ``i`` is not evaded by a roll (``why``): its remaining hits land."""
    n = state.remaining[i]
    events: list[Event] = [NoRoll(i, why)]
    if n:
        events.append(Land(i, n))
    remaining = state.remaining[:i] + (0,) + state.remaining[i + 1:]
    return state._replace(remaining=remaining, landed=state.landed + n), events


def after_roll(plan: Plan, state: State, i: int, successes: int) -> tuple[State, list[Event]]:
    """The Evasion roll against attack ``i`` scored ``successes`` (0: failed): spend them.

    Only a Leap dodges an attack covering the whole Base, and no roll is made against one
    without a Leap that fits the Round's budget (:func:`make_plan` blocks it without a Leap,
    :func:`decide` once the budget is spent): a passed roll against it always Leaps."""
    a = plan.attacks[i]
    remaining = list(state.remaining)
    n = remaining[i]
    remaining[i] = 0
    events: list[Event] = []
    leap_used, engaged = state.leap_used, state.engaged
    landed, in_cover, stray, disengage = state.landed, state.in_cover, state.stray, state.disengage
    if successes == 0:
        events.append(Land(i, n))
        landed += n
    elif a.leap != "none" and leap_used + a.leap_distance <= plan.budget and (
            a.area or not plan.leap_when_short or successes < n):
        leap_used += a.leap_distance
        events.append(Leap(i, a.leap, n, a.leap_distance))
        if a.leap == "cover":
            in_cover += n
        elif a.stray:
            events.append(Stray(i, n))
            stray += n
        if engaged:
            engaged = False
            counts = not a.free_attackers_evade
            events.append(Disengage(counts))
            disengage = disengage or counts
    else:
        evaded = min(successes, n)
        left = successes - evaded
        if evaded:
            events.append(Evade(i, evaded))
            if a.stray and a.roll == "dodge":
                events.append(Stray(i, evaded))
                stray += evaded
        if n - evaded:
            events.append(Land(i, n - evaded))
            landed += n - evaded
        if left:
            for j, cost, strays in (a.spend_cheapest if plan.cheapest_first else a.spend_in_order):
                if remaining[j] and left >= cost:
                    paid = min(remaining[j], left // cost)
                    remaining[j] -= paid
                    left -= paid * cost
                    events.append(Leftover(j, paid, cost))
                    if strays:
                        events.append(Stray(j, paid))
                        stray += paid
            if left:
                events.append(Unused(left))
    return State(tuple(remaining), state.reactions - 1, leap_used, engaged, True,
                 state.all_passed and successes > 0, landed, in_cover, stray, disengage), events


def fates_of(plan: Plan, events: list[Event]) -> tuple[AttackFate, ...]:
    """What became of each attack's hits, from the events of a whole resolution."""
    rows = [[False, 0, 0, 0, 0, 0] for _ in plan.attacks]
    for ev in events:
        if isinstance(ev, Roll):
            rows[ev.attack][0] = True
        elif isinstance(ev, Evade):
            rows[ev.attack][1] += ev.hits
        elif isinstance(ev, Leftover):
            rows[ev.attack][2] += ev.hits
        elif isinstance(ev, Leap):
            rows[ev.attack][3 if ev.into == "out_of_reach" else 5] += ev.hits
        elif isinstance(ev, Land):
            rows[ev.attack][4] += ev.hits
    return tuple(AttackFate(*row) for row in rows)


# -- the rule on one concrete roll ---------------------------------------------------------------

def play(scenario: D100Scenario, roller: Roller) -> Play:
    """Resolve every attack in the order made, rolling a d100 (through ``roller``) for each
    Evasion roll made, and say what became of every hit.

    >>> from rules_core import FacesRoller, find_preset
    >>> p = play(find_preset("d100-homebrew/burst-3-vs-dodge-45").scenario, FacesRoller([30]))
    >>> p.outcome, p.hits, p.evasions, p["successes"]
    ('2 evaded, 1 lands', 1, (True,), 2)
    """
    plan = make_plan(scenario)
    state = start(plan)
    events: list[Event] = []
    for i, a in enumerate(plan.attacks):
        why = decide(plan, state, i)
        if why is not None:
            state, done = no_roll(state, i, why)
            events += done
            continue
        face = roller.roll(evasion_dice(say("{roll} against attack {a}", roll=ROLL_NAMES[a.roll], a=a.number),
                                        a.target, plan.rules))
        successes = roll_successes(face, a.target, plan.rules)
        state, done = after_roll(plan, state, i, successes)
        events.append(Roll(i, face, successes))
        events += done
    rolls = [ev for ev in events if isinstance(ev, Roll)]
    label = outcome_label(plan.shape, state.ending)
    trace: tuple[TraceStep, ...] = ()
    if roller.explain:
        trace = (*house_rule_trace(scenario), *(ev.step(plan) for ev in events),
                 TraceStep(say("Outcome"), label, CITE_ONE_PER_ATTACK))
    return Play(outcome=label, hits=state.ending.hits, evasions=tuple(r.successes > 0 for r in rolls),
                quantities={"successes": sum(r.successes for r in rolls), "hits_in_cover": state.in_cover,
                            "stray_shots": state.stray, "disengage": state.disengage,
                            "attacks": fates_of(plan, events)},
                trace=trace)
