"""The d100 homebrew Evasion rules: one d100 test, then Successes spent on hits.

The rule is written once, as a step function on a concrete situation (:func:`decide`,
:func:`no_roll`, :func:`after_roll`). :func:`resolve` applies it to concrete d100 faces and
records what happened; :func:`analyse` applies it to every possible number of Successes of each
roll (weighted by how many of the 100 faces give it, :func:`success_counts`) and so gives the
exact distribution over all rolls. The tests prove the two agree by enumerating every face.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from .scenario import (CITE_LEAP, CITE_LEAP_BUDGET, CITE_LEFTOVERS, CITE_ONE_PER_ATTACK, CITE_PARRY,
                       CITE_SIZE, D100Scenario)
from .text import say

FACES = 100
#: The most Successes any scenario within the declared field ranges can score (target 220).
MAX_SUCCESSES = 23

# -- one test on one concrete face -------------------------------------------------------------


@dataclass(frozen=True)
class TestRules:
    """How a d100 test is read (the scenario's rulings)."""

    __test__ = False  # not a pytest test class

    tens_digits: bool = False
    auto_01: bool = True
    auto_100: bool = True

    @classmethod
    def of(cls, scenario: D100Scenario) -> "TestRules":
        return cls(tens_digits=scenario.successes == "tens_digits", auto_01=scenario.roll_01 == "passes",
                   auto_100=scenario.roll_100 == "fails")


def roll_successes(face: int, target: int, rules: TestRules = TestRules()) -> int:
    """Successes one d100 face scores against ``target``; 0 means the test fails.

    >>> [roll_successes(f, 45) for f in (1, 5, 6, 36, 45, 46, 100)]
    [5, 5, 4, 1, 1, 0, 0]
    >>> roll_successes(1, -10), roll_successes(1, -10, TestRules(auto_01=False))
    (1, 0)
    >>> roll_successes(29, 45, TestRules(tens_digits=True))
    3
    """
    if not 1 <= face <= FACES:
        raise ValueError(f"a d100 face is 1..100, got {face}")
    if face == 1 and rules.auto_01:
        passed = True
    elif face == FACES and rules.auto_100:
        passed = False
    else:
        passed = face <= target
    if not passed:
        return 0
    if rules.tens_digits:
        return max(1, 1 + target // 10 - face // 10)
    return max(1, 1 + (target - face) // 10)


@lru_cache(maxsize=1024)
def success_counts(target: int, rules: TestRules = TestRules()) -> tuple[tuple[int, int], ...]:
    """``(successes, faces)`` pairs: how many of the 100 faces score each number of Successes
    (0 = fail), by counting faces below each threshold rather than rolling them.

    Faces 1..hi pass on the target (hi = min(target, 100), less the 100 if it always fails);
    01 also passes when it always does. A passing face scores at least k Successes (k >= 2)
    exactly when it is at most ``target − 10(k−1)`` (tens digits: ``10(target//10 − k + 2) − 1``).

    >>> success_counts(45)
    ((0, 55), (1, 10), (2, 10), (3, 10), (4, 10), (5, 5))
    """
    hi = min(target, FACES)
    if rules.auto_100 and hi == FACES:
        hi = FACES - 1
    hi = max(hi, 0)
    passing = 1 if (hi == 0 and rules.auto_01) else hi

    def at_least(k: int) -> int:
        if k == 1:
            return passing
        bound = 10 * (target // 10 - k + 2) - 1 if rules.tens_digits else target - 10 * (k - 1)
        return max(0, min(hi, bound))

    out = [(0, FACES - passing)] if passing < FACES else []
    k = 1
    while (n := at_least(k)) > 0:
        out.append((k, n - at_least(k + 1)))
        k += 1
    return tuple((s, c) for s, c in out if c)


# -- the situation before each attack is resolved ----------------------------------------------


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
    blocked: tuple[str, str] | None  # why no roll can be made (English text, citation)
    leap: str                   # the usable Leap plan: "none" | "cover" | "out_of_reach"
    leap_note: str | None       # why a planned Leap cannot be made
    leap_distance: int
    stray: bool                 # dodged hits fly on toward a next target
    free_attackers_evade: bool
    costs: tuple[int | None, ...]   # Successes per hit of each attack, from this roll's leftovers
    spend_cheapest: tuple[tuple[int, int, bool], ...] = ()  # (attack, cost, strays) cheapest first
    spend_in_order: tuple[tuple[int, int, bool], ...] = ()  # the same in the order made


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
        return sum(a.hits for a in self.attacks)


def leftover_cost(first_modifier: int, modifier: int) -> int:
    """Successes per hit when leftovers from a roll against an attack with ``first_modifier``
    pay for a hit of an attack with ``modifier``: 2, +1 per full −10 of extra penalty.

    >>> leftover_cost(0, 0), leftover_cost(0, -20), leftover_cost(-10, -25), leftover_cost(-20, 0)
    (2, 4, 3, 2)
    """
    return 2 + max(0, first_modifier - modifier) // 10


def target_of(scenario: D100Scenario, roll: str, modifier: int) -> int:
    """The test's target: characteristic + advance + the defender's modifier + the attack's."""
    d = scenario.defender
    if roll == "dodge":
        return d.agility + d.dodge_advance + d.dodge_modifier + modifier
    return d.weapon_skill + d.parry_advance + d.parry_modifier + modifier


def parry_gate(scenario: D100Scenario) -> tuple[str, str] | None:
    """Why the Size difference forbids a Parry, or None when it allows one."""
    size, advance = scenario.sizes_larger, scenario.defender.parry_advance
    if size >= 4:
        return say("Parry impossible: the attacker is {size} Sizes larger (4 or more)", size=size), CITE_SIZE
    if advance < 10 * size:
        return say("Parry needs the skill advanced to +{need} against an attacker {size} "
                   "{size|Size|Sizes} larger, and it is +{has}", need=10 * size, size=size, has=advance), CITE_SIZE
    return None


@lru_cache(maxsize=64)
def make_plan(scenario: D100Scenario) -> Plan:
    """Everything about the scenario that does not depend on the dice (cached: scenarios are
    immutable)."""
    d = scenario.defender
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
            blocked = say("no Evasion roll is declared against it"), CITE_ONE_PER_ATTACK
        elif roll == "parry" and not parryable:
            blocked = say("Parry works only against melee attacks and shots fired in melee"), CITE_PARRY
        elif roll == "parry" and a.covers_whole_base:
            blocked = say("an attack covering the whole Base can be dodged only by a Leap"), CITE_LEAP
        elif roll == "parry" and gate:
            blocked = gate
        elif a.covers_whole_base and leap == "none":
            blocked = say("an attack covering the whole Base can be dodged only by a Leap, and no Leap "
                          "can be made against it"), CITE_LEAP
        costs = []
        for j, b in enumerate(attacks):
            reach = j > i and not b.covers_whole_base and (roll == "dodge" or b.kind != "shooting")
            costs.append(leftover_cost(a.evasion_modifier, b.evasion_modifier) if reach else None)
        plans.append(AttackPlan(
            number=i + 1, hits=a.hits, kind=a.kind, ranged=ranged, area=a.covers_whole_base,
            modifier=a.evasion_modifier, roll=None if blocked else roll,
            target=None if blocked else target_of(scenario, roll, a.evasion_modifier), blocked=blocked,
            leap=leap, leap_note=leap_note, leap_distance=a.leap_distance,
            stray=ranged and a.next_target, free_attackers_evade=a.free_attackers_evade,
            costs=tuple(costs)))
    for k, a in enumerate(plans):
        spend = tuple((j, c, a.roll == "dodge" and plans[j].stray) for j, c in enumerate(a.costs) if c is not None)
        plans[k] = replace(a, spend_in_order=spend, spend_cheapest=tuple(sorted(spend, key=lambda t: t[1])))
    budget = d.spd * (1 + d.unspent_ap + (1 if d.delayed_half_action else 0))
    return Plan(attacks=tuple(plans), reactions=d.reactions, spd=d.spd, budget=budget,
                engaged=d.engaged_in_melee, rules=TestRules.of(scenario),
                cheapest_first=scenario.spending == "cheapest_first",
                leap_when_short=scenario.leap_policy == "when_short")


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


def start(plan: Plan) -> State:
    """The state before the first attack."""
    return State(remaining=tuple(a.hits for a in plan.attacks), reactions=plan.reactions,
                 engaged=plan.engaged)


# Events: what one step did, as plain tuples (kind, attack index, numbers...). They drive both
# the per-attack tallies and the trace lines of a concrete resolution.
#   ("roll", i, successes)              an Evasion roll against attack i
#   ("evade", i, n)                     n hits of attack i evaded by that roll's Successes
#   ("leftover", i, j, n, cost)         n hits of attack j evaded by leftovers of the roll at i
#   ("unused", i, left)                 Successes of the roll at i left unspent
#   ("leap", i, plan, n, metres)        a Leap against attack i: n hits negated or in cover
#   ("land", i, n)                      n hits of attack i land
#   ("stray", j, n)                     n dodged shots of attack j fly on to the next target
#   ("disengage", i, counts)            a Leap out of melee; counts as a Disengage or not
#   ("no_roll", i, (reason, citation))  no Evasion roll against attack i, and why


def decide(plan: Plan, state: State, i: int) -> tuple | None:
    """Why no Evasion roll is made against attack ``i`` now, as a short code tuple (see
    :func:`why_not`), or None: a roll is made."""
    a = plan.attacks[i]
    if state.remaining[i] == 0:
        return ("leftovers",)
    if a.blocked:
        return ("blocked",)
    if state.reactions == 0:
        return ("no_reaction",)
    if a.area and state.leap_used + a.leap_distance > plan.budget:
        return ("budget", state.leap_used, plan.budget)
    return None


def why_not(plan: Plan, i: int, why: tuple) -> tuple[str, str]:
    """The text and citation of a :func:`decide` code."""
    if why[0] == "leftovers":
        return say("every hit already evaded by leftover Successes"), CITE_LEFTOVERS
    if why[0] == "blocked":
        return plan.attacks[i].blocked
    if why[0] == "no_reaction":
        return say("no Reaction left"), CITE_ONE_PER_ATTACK
    return say("the Round's Leap budget is spent ({used} of {budget} m), and only a Leap can dodge an "
               "attack covering the whole Base", used=why[1], budget=why[2]), CITE_LEAP_BUDGET


def no_roll(plan: Plan, state: State, i: int, why: tuple) -> tuple[State, list[tuple]]:
    """Attack ``i`` is not evaded by a roll (``why``: the :func:`decide` code): its remaining
    hits land."""
    n = state.remaining[i]
    events: list[tuple] = [("no_roll", i, why)]
    if n:
        events.append(("land", i, n))
    remaining = state.remaining[:i] + (0,) + state.remaining[i + 1:]
    return state._replace(remaining=remaining, landed=state.landed + n), events


def after_roll(plan: Plan, state: State, i: int, successes: int) -> tuple[State, list[tuple]]:
    """The Evasion roll against attack ``i`` scored ``successes`` (0: failed): spend them."""
    a = plan.attacks[i]
    remaining = list(state.remaining)
    n = remaining[i]
    remaining[i] = 0
    events: list[tuple] = [("roll", i, successes)]
    leap_used, engaged = state.leap_used, state.engaged
    landed, in_cover, stray, disengage = state.landed, state.in_cover, state.stray, state.disengage
    if successes == 0:
        events.append(("land", i, n))
        landed += n
    elif a.leap != "none" and leap_used + a.leap_distance <= plan.budget and (
            a.area or not plan.leap_when_short or successes < n):
        leap_used += a.leap_distance
        events.append(("leap", i, a.leap, n, a.leap_distance))
        if a.leap == "cover":
            in_cover += n
        elif a.stray:
            events.append(("stray", i, n))
            stray += n
        if engaged:
            engaged = False
            counts = not a.free_attackers_evade
            events.append(("disengage", i, counts))
            disengage = disengage or counts
    elif a.area:  # only a Leap dodges it (decide() lets no roll happen without one)
        events.append(("land", i, n))
        landed += n
    else:
        evaded = min(successes, n)
        left = successes - evaded
        if evaded:
            events.append(("evade", i, evaded))
            if a.stray and a.roll == "dodge":
                events.append(("stray", i, evaded))
                stray += evaded
        if n - evaded:
            events.append(("land", i, n - evaded))
            landed += n - evaded
        if left:
            for j, cost, strays in (a.spend_cheapest if plan.cheapest_first else a.spend_in_order):
                if remaining[j] and left >= cost:
                    paid = min(remaining[j], left // cost)
                    remaining[j] -= paid
                    left -= paid * cost
                    events.append(("leftover", i, j, paid, cost))
                    if strays:
                        events.append(("stray", j, paid))
                        stray += paid
            if left:
                events.append(("unused", i, left))
    return State(tuple(remaining), state.reactions - 1, leap_used, engaged, True,
                 state.all_passed and successes > 0, landed, in_cover, stray, disengage), events


# -- the rule on concrete faces ----------------------------------------------------------------


class MoreRollsNeeded(ValueError):
    """:func:`resolve` was given fewer faces than Evasion rolls made; ``given`` says how many."""

    def __init__(self, given: int):
        self.given = given
        super().__init__(f"the Evasion needs more than the {given} d100 roll(s) given")


@dataclass(frozen=True)
class Resolution:
    """What one concrete set of d100 faces does: the outcome and every event, in order."""

    faces: tuple[int, ...]          # the faces used, in the order the rolls were made
    successes: tuple[int, ...]      # Successes each of those rolls scored (0: failed)
    state: State                    # the final state
    events: tuple[tuple, ...]

    @property
    def landed(self) -> int:
        """Hits landing on the defender, those against Cover included."""
        return self.state.landed + self.state.in_cover


def resolve(scenario: D100Scenario, faces: Sequence[int]) -> Resolution:
    """Resolve every attack with these d100 faces, one per Evasion roll made, in order.

    Raises :class:`MoreRollsNeeded` when the faces run out; extra faces are not used.
    """
    plan = make_plan(scenario)
    state, events, used, scored = start(plan), [], [], []
    for i in range(len(plan.attacks)):
        why = decide(plan, state, i)
        if why is not None:
            state, ev = no_roll(plan, state, i, why)
        else:
            if len(used) == len(faces):
                raise MoreRollsNeeded(len(faces))
            face = faces[len(used)]
            used.append(face)
            s = roll_successes(face, plan.attacks[i].target, plan.rules)
            scored.append(s)
            state, ev = after_roll(plan, state, i, s)
        events += ev
    return Resolution(tuple(used), tuple(scored), state, tuple(events))


# -- all rolls at once -------------------------------------------------------------------------


@dataclass(frozen=True)
class Tally:
    """Exact expected hits of one attack by what became of them, and its roll's chances."""

    p_roll: Fraction = Fraction(0)
    evaded_by_roll: Fraction = Fraction(0)
    evaded_by_leftovers: Fraction = Fraction(0)
    negated_by_leap: Fraction = Fraction(0)
    landed_open: Fraction = Fraction(0)
    landed_in_cover: Fraction = Fraction(0)
    expected_successes: Fraction = Fraction(0)


@dataclass(frozen=True)
class Analysis:
    """The exact distribution of final states over every d100 roll, with per-attack tallies.

    ``final`` also holds, with weight 0, every final state some other target could give (each
    roll scoring any number of Successes up to :data:`MAX_SUCCESSES`), so that outcome tables
    keep their rows as the targets move.
    """

    plan: Plan
    final: dict[State, int]         # weight of each final state, over FACES ** len(attacks)
    denominator: int
    tallies: tuple[Tally, ...]


def spend_cap(plan: Plan, state: State, i: int) -> int:
    """Successes beyond which a roll against attack ``i`` changes nothing more: enough for all
    its remaining hits and every later hit its leftovers can reach."""
    a = plan.attacks[i]
    return state.remaining[i] + sum(state.remaining[j] * c for j, c, _ in a.spend_in_order)


def _branches(plan: Plan, state: State, i: int) -> list[tuple[int, int]]:
    """``(successes, faces)`` for a roll against attack ``i``: every number of Successes from 0
    to the most that still changes anything (at most :data:`MAX_SUCCESSES`), each with how many
    faces give it; faces scoring more than that count with the most."""
    cap = min(MAX_SUCCESSES, spend_cap(plan, state, i))
    weights = [0] * (cap + 1)
    for s, c in success_counts(plan.attacks[i].target, plan.rules):
        weights[min(s, cap)] += c
    return list(enumerate(weights))


def _mean_successes(target: int, rules: TestRules) -> Fraction:
    return Fraction(sum(s * c for s, c in success_counts(target, rules)), FACES)


@lru_cache(maxsize=32)
def analyse(scenario: D100Scenario) -> Analysis:
    """Exact distribution of the final state over every d100 roll of every Evasion roll made.

    The rule (:func:`decide`, :func:`no_roll`, :func:`after_roll`) is applied to every state
    before each attack; a roll branches on its number of Successes, weighted by how many of the
    100 faces give it (:func:`success_counts`). Cached: the dashboard asks for the same
    scenario more than once.
    """
    plan = make_plan(scenario)
    n = len(plan.attacks)
    layer: dict[State, int] = {start(plan): 1}
    # per attack, over FACES ** n: roll made, evaded by its roll, by leftovers, negated by a
    # Leap, landing in the open, landing against Cover
    sums = [[0] * 6 for _ in range(n)]
    for i in range(n):
        nxt: dict[State, int] = defaultdict(int)
        scale = FACES ** (n - i - 1)
        for state, w in layer.items():
            why = decide(plan, state, i)
            if why is not None:
                branches = [(no_roll(plan, state, i, why), FACES)]
            else:
                sums[i][0] += w * FACES * scale
                branches = [(after_roll(plan, state, i, s), c) for s, c in _branches(plan, state, i)]
            for (new, events), c in branches:
                nxt[new] += w * c
                ws = w * c * scale
                if not ws:
                    continue
                for ev in events:
                    kind = ev[0]
                    if kind == "evade":
                        sums[i][1] += ws * ev[2]
                    elif kind == "leftover":
                        sums[ev[2]][2] += ws * ev[3]
                    elif kind == "leap":
                        sums[i][3 if ev[2] == "out_of_reach" else 5] += ws * ev[3]
                    elif kind == "land":
                        sums[i][4] += ws * ev[2]
        layer = nxt
    den = FACES ** n
    tallies = []
    for a, row in zip(plan.attacks, sums):
        p_roll = Fraction(row[0], den)
        successes = p_roll * _mean_successes(a.target, plan.rules) if a.target is not None else Fraction(0)
        tallies.append(Tally(*(Fraction(x, den) for x in row), expected_successes=successes))
    return Analysis(plan=plan, final=dict(layer), denominator=den, tallies=tuple(tallies))
