"""The exact result of a d100 Evasion, fast: :func:`evaluate` (and its headline alone,
:func:`headline`, for sweeps).

:func:`analyse` walks the rule of :mod:`.play` (:func:`~.play.decide`, :func:`~.play.no_roll`,
:func:`~.play.after_roll`) over every situation before each attack at once: a roll branches on
its number of Successes, weighted by how many of the 100 faces give it
(:func:`~.dice.success_counts`), and equal situations merge. The tests prove it equal to
enumerating :func:`~.play.play` over every face, and to a reference written from the rules text.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from ...dist import Dist
from ...result import Result, TraceStep, decimal, fraction_text
from ...scenario import fields_of
from .dice import FACES, TestRules, face_runs, max_successes, success_counts
from .outcomes import HEADLINES, outcome_key, outcome_label
from .play import (Evade, Land, Leap, Leftover, Plan, State, after_roll, decide, house_rule_trace, make_plan,
                   no_roll, start)
from .scenario import (CITE_DODGE, CITE_LEAP, CITE_LEAP_BUDGET, CITE_LEFTOVERS, CITE_ONE_PER_ATTACK,
                       CITE_PARRY, CITE_RULINGS, CITE_STRAY, CITE_TESTS, POINTS_PER_SUCCESS, SYSTEM_ID, Attack,
                       D100Scenario)
from .text import say

__all__ = ["evaluate", "headline", "analyse", "Analysis", "Tally", "trace_of", "number"]

KIND_LABELS = dict(next(s for s in fields_of(Attack) if s.name == "kind").choices)
LEAP_LABELS = dict(next(s for s in fields_of(Attack) if s.name == "leap").choices)


def signed(n: int) -> str:
    """+10, +0, −20 (with a true minus sign)."""
    return f"+{n}" if n >= 0 else f"−{-n}"


def number(x: Fraction | int) -> str:
    """An exact number for a trace line: ``3``, or ``39/20 ≈ 1.95``.

    >>> number(3), number(Fraction(39, 20)), number(Fraction(1, 250000))
    ('3', '39/20 ≈ 1.95', '1/250000 ≈ 0.000004')
    """
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    return f"{fraction_text(x)} ≈ {decimal(x)}"


# -- every roll at once --------------------------------------------------------------------------

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
    roll scoring any number of Successes up to :func:`~.dice.max_successes`), so that outcome
    tables keep their rows as the targets move.
    """

    plan: Plan
    final: dict[State, int]         # weight of each final state, over FACES ** len(attacks)
    denominator: int
    tallies: tuple[Tally, ...]


def spend_cap(plan: Plan, state: State, i: int) -> int:
    """Successes beyond which a roll against attack ``i`` changes nothing more: enough for all
    its remaining hits and every later hit its leftovers can reach."""
    a = plan.attacks[i]
    return state.remaining[i] + sum(state.remaining[s.attack] * s.cost for s in a.spend_in_order)


def _branches(plan: Plan, state: State, i: int) -> list[tuple[int, int]]:
    """``(successes, faces)`` for a roll against attack ``i``: every number of Successes from 0
    to the most that still changes anything (at most :func:`~.dice.max_successes`), each with
    how many faces give it; faces scoring more than that count with the most."""
    cap = min(max_successes(plan.rules.points), spend_cap(plan, state, i))
    weights = [0] * (cap + 1)
    for s, c in success_counts(plan.attacks[i].target, plan.rules):
        weights[min(s, cap)] += c
    return list(enumerate(weights))


def _mean_successes(target: int, rules: TestRules) -> Fraction:
    return Fraction(sum(s * c for s, c in success_counts(target, rules)), FACES)


@lru_cache(maxsize=32)
def analyse(scenario: D100Scenario) -> Analysis:
    """Exact distribution of the final state over every d100 roll of every Evasion roll made.

    The rule's steps are applied to every state before each attack; a roll branches on its
    number of Successes, weighted by how many of the 100 faces give it. Cached: the dashboard
    asks for the same scenario more than once.
    """
    plan = make_plan(scenario)
    n = len(plan.attacks)
    layer: dict[State, int] = {start(plan): 1}
    # per attack, over FACES ** n: roll made, evaded by its roll, by leftovers, negated by a
    # Leap, landing in the open, landing against Cover (the fields of Tally, in order)
    sums = [[0] * 6 for _ in range(n)]
    for i in range(n):
        nxt: dict[State, int] = defaultdict(int)
        scale = FACES ** (n - i - 1)
        for state, w in layer.items():
            why = decide(plan, state, i)
            if why is not None:
                branches = [(no_roll(state, i, why), FACES)]
            else:
                sums[i][0] += w * FACES * scale
                branches = [(after_roll(plan, state, i, s), c) for s, c in _branches(plan, state, i)]
            for (new, events), c in branches:
                nxt[new] += w * c
                ws = w * c * scale
                if not ws:
                    continue
                for ev in events:
                    if isinstance(ev, Evade):
                        sums[i][1] += ws * ev.hits
                    elif isinstance(ev, Leftover):
                        sums[ev.attack][2] += ws * ev.hits
                    elif isinstance(ev, Leap):
                        sums[i][3 if ev.into == "out_of_reach" else 5] += ws * ev.hits
                    elif isinstance(ev, Land):
                        sums[i][4] += ws * ev.hits
        layer = nxt
    den = FACES ** n
    tallies = []
    for a, row in zip(plan.attacks, sums):
        p_roll = Fraction(row[0], den)
        successes = p_roll * _mean_successes(a.target, plan.rules) if a.target is not None else Fraction(0)
        tallies.append(Tally(*(Fraction(x, den) for x in row), expected_successes=successes))
    return Analysis(plan=plan, final=dict(layer), denominator=den, tallies=tuple(tallies))


# -- the trace of a whole result ----------------------------------------------------------------

def _attack_steps(scenario: D100Scenario, plan: Plan) -> list[TraceStep]:
    d = scenario.defender
    steps = []
    for atk, a in zip(scenario.attacks, plan.attacks):
        parts = [say("{kind}, {hits} {hits|hit|hits}, modifier to Evasion {mod}", kind=KIND_LABELS[a.kind],
                     hits=a.hits, mod=signed(a.modifier))]
        cite = CITE_ONE_PER_ATTACK
        if a.blocked:
            parts.append(say("no Evasion roll: {reason}", reason=a.blocked.reason))
            cite = a.blocked.citation
        elif a.roll == "dodge":
            parts.append(say("Dodge(A) test: target {target} (A {value}, advance {adv}, modifier {mod}, "
                             "attack {amod})", target=a.target, value=d.agility, adv=signed(d.dodge_advance),
                             mod=signed(d.dodge_modifier), amod=signed(a.modifier)))
            cite = CITE_DODGE
        else:
            parts.append(say("Parry(WS) test: target {target} (WS {value}, advance {adv}, modifier {mod}, "
                             "attack {amod})", target=a.target, value=d.weapon_skill,
                             adv=signed(d.parry_advance), mod=signed(d.parry_modifier), amod=signed(a.modifier)))
            cite = CITE_PARRY
        if a.area:
            parts.append(say("it covers the whole Base: only a Leap can dodge it"))
        if a.leap != "none":
            parts.append(say("Leap plan: {plan}, {m} m needed", plan=LEAP_LABELS[a.leap], m=a.leap_distance))
        elif a.leap_note:
            parts.append(a.leap_note)
        if a.stray:
            parts.append(say("a next target stands on the line of fire"))
        if atk.evasion == "parry" and not a.blocked and scenario.sizes_larger:
            parts.append(say("Size gate passed: +{has} advance against an attacker {size} {size|Size|Sizes} "
                             "larger (+{need} needed)", has=d.parry_advance, size=scenario.sizes_larger,
                             need=10 * scenario.sizes_larger))
        steps.append(TraceStep(say("Attack {a}", a=a.number), "; ".join(parts), cite))
    return steps


def _target_steps(plan: Plan) -> list[TraceStep]:
    steps = []
    for target in sorted({a.target for a in plan.attacks if a.target is not None}, reverse=True):
        parts = [say("{faces}: {s} {s|Success|Successes}", faces=faces, s=s) if s else
                 say("{faces}: fail", faces=faces) for s, faces in face_runs(target, plan.rules)]
        steps.append(TraceStep(say("Successes against target {t}", t=target), "; ".join(parts), CITE_TESTS))
        if target < 1:
            detail = (say("a target below 1: only 01 passes, with 1 Success") if plan.rules.auto_01 else
                      say("a target below 1: no roll can pass"))
            steps.append(TraceStep(say("Target {t}", t=target), detail, CITE_RULINGS))
        elif target >= FACES:
            detail = (say("a target of 100 or more: every roll but 100 passes, and Successes count on past 100")
                      if plan.rules.auto_100 else
                      say("a target of 100 or more: every roll passes, and Successes count on past 100"))
            steps.append(TraceStep(say("Target {t}", t=target), detail, CITE_RULINGS))
    return steps


def _ruling_steps(scenario: D100Scenario) -> list[TraceStep]:
    steps = []
    points = scenario.variant.points_per_success
    for spec in fields_of(type(scenario)):
        if spec.kind == "ruling":
            chosen = dict(spec.choices)[getattr(scenario, spec.name)]
            if spec.name == "successes" and points != POINTS_PER_SUCCESS:  # the official text says 10
                chosen = (say("1 + floor(target/{n}) − floor(roll/{n}): digits {n} points wide (house rule)",
                              n=points) if scenario.successes == "tens_digits" else
                          say("1 + one per full {n} points the roll is under the target: 1 + floor((target − "
                              "roll)/{n}) (house rule)", n=points))
            steps.append(TraceStep(say("Ruling: {name}", name=spec.label), chosen, spec.citation))
    return steps


def _leftover_step(scenario: D100Scenario, plan: Plan) -> list[TraceStep]:
    parts = []
    for a in plan.attacks:
        if a.roll is None:
            continue
        for b, cost in zip(plan.attacks, a.costs):
            if cost is not None:
                parts.append(say("from the roll against attack {a} to a hit of attack {b}: {cost}",
                                 a=a.number, b=b.number, cost=cost))
    if not parts:
        return []
    rule = scenario.variant
    parts.insert(0, say("Successes left after all hits of one attack evade hits of the opponent's later "
                        "attacks this Turn: {cost} per hit, +1 per full −{step} by which that attack's penalty "
                        "exceeds the first one's", cost=rule.leftover_cost, step=rule.penalty_step))
    return [TraceStep(say("Leftover Successes"), "; ".join(parts), CITE_LEFTOVERS)]


def _leap_steps(scenario: D100Scenario, plan: Plan) -> list[TraceStep]:
    d = scenario.defender
    if not any(atk.leap != "none" or atk.covers_whole_base for atk in scenario.attacks):
        return []
    steps = [TraceStep(say("Leap budget"),
                       say("{budget} m this Round = SPD {spd} m × (1 + {ap} unspent AP + {dh} Delayed "
                           "half-action), at most SPD {spd} m against one attack", budget=plan.budget,
                           spd=d.spd, ap=d.unspent_ap, dh=int(d.delayed_half_action)), CITE_LEAP_BUDGET)]
    if any(a.leap != "none" for a in plan.attacks):
        steps.append(TraceStep(say("Leap [Отскок]"), say("a Leap yields no leftover Successes"), CITE_RULINGS))
        if d.engaged_in_melee:
            steps.append(TraceStep(say("Leap [Отскок]"),
                                   say("the defender is engaged in melee: his first Leap takes him out of it "
                                       "and counts as a Disengage [Вольт] unless every enemy able to make Free "
                                       "Attacks also evades that attack"), CITE_LEAP))
    return steps


def _first_roll_steps(plan: Plan) -> list[TraceStep]:
    """Where each possible number of Successes of the first roll goes."""
    state = start(plan)
    for i in range(len(plan.attacks)):
        why = decide(plan, state, i)
        if why is None:
            break
        state, _ = no_roll(state, i, why)
    else:
        return []
    a = plan.attacks[i]
    runs = defaultdict(list)
    for s, faces in face_runs(a.target, plan.rules):
        runs[s].append(faces)
    steps = []
    for s, count in success_counts(a.target, plan.rules):
        _, events = after_roll(plan, state, i, s)
        title = (say("First roll (attack {a}), {s} {s|Success|Successes}: {faces}, {c} in 100", a=a.number, s=s,
                     faces=", ".join(runs[s]), c=count) if s else
                 say("First roll (attack {a}) fails: {faces}, {c} in 100", a=a.number, faces=", ".join(runs[s]),
                     c=count))
        detail = "; ".join(ev.step(plan).detail for ev in events)
        steps.append(TraceStep(title, detail, CITE_LEFTOVERS if len(plan.attacks) > 1 else CITE_ONE_PER_ATTACK))
    return steps


def _tally_steps(analysis: Analysis) -> list[TraceStep]:
    steps = []
    for a, t in zip(analysis.plan.attacks, analysis.tallies):
        parts = [say("roll made: {p}", p=number(t.p_roll)),
                 say("evaded by its own roll: {x}", x=number(t.evaded_by_roll)),
                 say("by leftover Successes: {x}", x=number(t.evaded_by_leftovers)),
                 say("negated by a Leap: {x}", x=number(t.negated_by_leap)),
                 say("landing: {x}", x=number(t.landed_open + t.landed_in_cover)),
                 say("against Cover: {x}", x=number(t.landed_in_cover))]
        steps.append(TraceStep(say("Attack {a}: what became of its {h} {h|hit|hits} (expected)", a=a.number,
                                   h=a.hits),
                               "; ".join(parts), CITE_LEFTOVERS))
    return steps


def trace_of(scenario: D100Scenario, analysis: Analysis) -> tuple[TraceStep, ...]:
    """Every rule, gate, cost and ruling applied, with citations, and where the Successes went."""
    plan = analysis.plan
    steps = [*house_rule_trace(scenario),
             TraceStep(say("Evasion [Избегание]"),
                       say("a Reaction after being hit, before the damage roll: each Success evades one hit "
                           "of that attack, and at most one Evasion roll is made per attack, even with Reactions left"),
                       CITE_ONE_PER_ATTACK),
             TraceStep(say("Reactions"), say("{n} {n|Reaction|Reactions} this Turn, attacks resolved in the "
                                             "order made", n=plan.reactions), CITE_RULINGS)]
    steps += _attack_steps(scenario, plan)
    steps += _target_steps(plan)
    steps += _ruling_steps(scenario)
    steps += _leftover_step(scenario, plan)
    steps += _leap_steps(scenario, plan)
    if plan.shape.stray:
        steps.append(TraceStep(say("Stray shot"),
                               say("each dodged hit of a shot flies on toward the next target on the line of "
                                   "fire, and if the GM rules it hits, it counts 1 Success and strikes a random "
                                   "location, even if the attack was Selective"), CITE_STRAY))
    steps += _first_roll_steps(plan)
    steps += _tally_steps(analysis)
    return tuple(steps)


# -- the result ---------------------------------------------------------------------------------

def _no_roll_note(plan: Plan) -> str:
    reasons = [say("attack {a}: {reason}", a=a.number, reason=a.blocked.reason) for a in plan.attacks if a.blocked]
    if plan.reactions == 0:
        reasons.append(say("the defender has no Reaction left"))
    return say("No Evasion roll can be made") + "; " + "; ".join(reasons)


def _headline(scenario: D100Scenario, analysis: Analysis, hits: Dist
              ) -> tuple[dict[str, Fraction | None], dict[str, str]]:
    """Every headline quantity (``hits``: the distribution of hits landing), and the notes on
    those that are null."""
    final, den = analysis.final, analysis.denominator
    rolled = sum(w for s, w in final.items() if s.rolled)
    passed = sum(w for s, w in final.items() if s.rolled and s.all_passed)
    notes = {}
    headline: dict[str, Fraction | None] = {
        "p_dodge_succeeds": Fraction(passed, rolled) if rolled else None,
        "p_no_hit": hits[0],
        "expected_hits": hits.mean(),
        "expected_successes": sum((t.expected_successes for t in analysis.tallies), Fraction(0)),
        "expected_hits_in_cover": Fraction(sum(w * s.in_cover for s, w in final.items()), den),
        "p_stray_shot": Fraction(sum(w for s, w in final.items() if s.stray), den),
        "p_disengage": Fraction(sum(w for s, w in final.items() if s.disengage), den),
    }
    if not rolled:
        notes["p_dodge_succeeds"] = _no_roll_note(analysis.plan)
    for name, definition in HEADLINES.items():
        reason = definition.applies(scenario) if definition.applies else None
        if reason is not None:
            headline[name] = None
            notes[name] = reason
    return headline, notes


def headline(scenario: D100Scenario) -> dict[str, Fraction | None]:
    """``evaluate(scenario).headline`` without the outcomes' labels, the distributions and the
    trace: what a sweep needs at each of its points."""
    analysis = analyse(scenario)
    return _headline(scenario, analysis, Dist((s.ending.hits, w) for s, w in analysis.final.items()))[0]


def evaluate(scenario: D100Scenario) -> Result:
    """The exact result over every d100 roll of every Evasion roll made."""
    analysis = analyse(scenario)
    plan, final = analysis.plan, analysis.final
    shape = plan.shape
    names: dict[tuple, str] = {}
    labels = {}
    for state in final:
        ending = state.ending
        key = outcome_key(ending)
        if key not in names:
            names[key] = outcome_label(shape, ending)
        labels[state] = names[key]
    outcome_order = tuple(names[key] for key in sorted(names))
    outcomes = Dist((labels[s], w) for s, w in final.items())
    hits = Dist((s.ending.hits, w) for s, w in final.items())
    headline, notes = _headline(scenario, analysis, hits)
    distributions = {"hits_in_cover": Dist((s.in_cover, w) for s, w in final.items())}
    if shape.stray:
        distributions["stray_shots"] = Dist((s.stray, w) for s, w in final.items())
    return Result(system=SYSTEM_ID, scenario=scenario, outcomes=outcomes, outcome_order=outcome_order,
                  hits=hits, headline=headline, notes=notes, trace=trace_of(scenario, analysis),
                  distributions=distributions)
