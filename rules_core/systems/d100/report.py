"""From the exact analysis to a :class:`rules_core.result.Result`: outcomes, headline
quantities, notes and the trace, every text built by :func:`~.text.say` so it can be shown in
Russian too."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from ...dist import Dist
from ...result import Result, TraceStep
from ...scenario import fields_of
from .rules import (FACES, Analysis, TestRules, Plan, Resolution, State, after_roll, analyse, decide, make_plan,
                    no_roll, why_not, start, success_counts)
from .scenario import (CITE_DODGE, CITE_LEAP, CITE_LEAP_BUDGET, CITE_LEFTOVERS, CITE_ONE_PER_ATTACK,
                       CITE_PARRY, CITE_RULINGS, CITE_STRAY, CITE_TESTS, SYSTEM_ID,
                       Attack, D100Scenario)
from .text import say

KIND_LABELS = dict(next(s for s in fields_of(Attack) if s.name == "kind").choices)
ROLL_NAMES = {"dodge": "Dodge", "parry": "Parry"}
LEAP_LABELS = dict(next(s for s in fields_of(Attack) if s.name == "leap").choices)


def signed(n: int) -> str:
    """+10, +0, −20 (with a true minus sign)."""
    return f"+{n}" if n >= 0 else f"−{-n}"


def number(x: Fraction) -> str:
    """An exact number for a trace line: ``3``, or ``39/20 ≈ 1.95``."""
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    return f"{x.numerator}/{x.denominator} ≈ {float(x):.4g}"


def faces_text(lo: int, hi: int) -> str:
    """A run of d100 faces as players write them: ``01–05``, ``100``."""
    return f"{lo:02d}" if lo == hi else f"{lo:02d}–{hi:02d}"


def face_runs(target: int, rules) -> list[tuple[int, str]]:
    """``(successes, faces)`` for each run of faces scoring the same Successes, from 01 up:
    passing faces come first, each fewer Successes than the one before, then the failures.

    >>> face_runs(45, TestRules())[:2], face_runs(45, TestRules())[-1]
    ([(5, '01–05'), (4, '06–15')], (0, '46–100'))
    """
    runs, face = [], 1
    for s, count in sorted(success_counts(target, rules), key=lambda sc: (sc[0] == 0, -sc[0])):
        runs.append((s, faces_text(face, face + count - 1)))
        face += count
    return runs


# -- outcomes -----------------------------------------------------------------------------------

def features(plan: Plan) -> tuple[bool, bool]:
    """Whether outcomes mention hits against Cover and stray shots."""
    return (any(a.leap == "cover" and a.roll == "dodge" for a in plan.attacks),
            any(a.stray for a in plan.attacks))


def outcome_label(plan: Plan, state: State) -> str:
    """The readable name of a final state, e.g. ``2 evaded, 1 lands; 1 stray shot``."""
    cover, stray = features(plan)
    landed = state.landed + state.in_cover
    parts = [say("{evaded} evaded, {landed} {landed|lands|land}", evaded=plan.total_hits - landed,
                 landed=landed)]
    if cover:
        parts.append(say("{n} against Cover", n=state.in_cover))
    if stray:
        parts.append(say("{n} stray {n|shot|shots}", n=state.stray))
    if state.disengage:
        parts.append(say("Disengage [Вольт]"))
    return "; ".join(parts)


def _order_key(state: State) -> tuple:
    return (state.landed + state.in_cover, state.in_cover, state.stray, state.disengage)


# -- trace lines for events ---------------------------------------------------------------------

def event_step(plan: Plan, event: tuple, face: int | None = None) -> TraceStep:
    """One event of a resolution as a trace line (``face``: the d100 face of a roll event)."""
    kind, i = event[0], event[1]
    a = plan.attacks[i]
    if kind == "roll":
        s = event[2]
        roll = ROLL_NAMES[a.roll]
        if s:
            detail = say("rolled {face} against {target}: {s} {s|Success|Successes}", face=f"{face:02d}",
                         target=a.target, s=s)
        else:
            detail = say("rolled {face} against {target}: the test fails", face=f"{face:02d}", target=a.target)
        return TraceStep(say("{roll} against attack {a}", roll=roll, a=a.number), detail,
                         CITE_DODGE if a.roll == "dodge" else CITE_PARRY)
    if kind == "evade":
        return TraceStep(say("Evasion"), say("{n} {n|hit|hits} of attack {a} evaded", n=event[2], a=a.number),
                         CITE_ONE_PER_ATTACK)
    if kind == "leftover":
        b = plan.attacks[event[2]]
        return TraceStep(say("Leftover Successes"),
                         say("{n} {n|hit|hits} of attack {b} evaded at {cost} Successes per hit",
                             n=event[3], b=b.number, cost=event[4]), CITE_LEFTOVERS)
    if kind == "unused":
        return TraceStep(say("Leftover Successes"),
                         say("{n} {n|Success|Successes} left unspent", n=event[2]), CITE_LEFTOVERS)
    if kind == "leap":
        if event[2] == "cover":
            detail = say("a Leap of {m} m into Cover: {n} {n|hit|hits} of attack {a} land against the "
                         "Cover's AP", m=event[4], n=event[3], a=a.number)
        else:
            detail = say("a Leap of {m} m out of the reach of attack {a}: {n} {n|hit|hits} negated",
                         m=event[4], n=event[3], a=a.number)
        return TraceStep(say("Leap [Отскок]"), detail, CITE_LEAP)
    if kind == "land":
        return TraceStep(say("Hits land"), say("{n} {n|hit|hits} of attack {a} {n|lands|land}", n=event[2],
                                               a=a.number), CITE_ONE_PER_ATTACK)
    if kind == "stray":
        return TraceStep(say("Stray shot"),
                         say("{n} dodged {n|shot|shots} of attack {a} {n|flies|fly} on toward the next "
                             "target (GM's call: 1 Success each, random location)", n=event[2], a=a.number),
                         CITE_STRAY)
    if kind == "disengage":
        detail = (say("the Leap out of melee counts as a Disengage [Вольт]") if event[2] else
                  say("the Leap out of melee is no Disengage: every enemy able to make Free Attacks "
                      "also evades this attack"))
        return TraceStep(say("Leap [Отскок]"), detail, CITE_LEAP)
    if kind == "no_roll":
        reason, cite = why_not(plan, i, event[2])
        return TraceStep(say("No Evasion roll against attack {a}", a=a.number), reason, cite)
    raise ValueError(f"unknown event {event!r}")


def resolution_trace(scenario: D100Scenario, resolution: Resolution) -> tuple[TraceStep, ...]:
    """Which Successes went where, for one concrete set of faces (the "roll once" view)."""
    plan = make_plan(scenario)
    faces = iter(resolution.faces)
    steps = [event_step(plan, ev, next(faces) if ev[0] == "roll" else None) for ev in resolution.events]
    steps.append(TraceStep(say("Outcome"), outcome_label(plan, resolution.state), CITE_ONE_PER_ATTACK))
    return tuple(steps)


# -- the trace of a whole result ----------------------------------------------------------------

def _attack_steps(scenario: D100Scenario, plan: Plan) -> list[TraceStep]:
    d = scenario.defender
    steps = []
    for atk, a in zip(scenario.attacks, plan.attacks):
        parts = [say("{kind}, {hits} {hits|hit|hits}, modifier to Evasion {mod}", kind=KIND_LABELS[a.kind],
                     hits=a.hits, mod=signed(a.modifier))]
        cite = CITE_ONE_PER_ATTACK
        if a.blocked:
            parts.append(say("no Evasion roll: {reason}", reason=a.blocked[0]))
            cite = a.blocked[1]
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
    for spec in fields_of(type(scenario)):
        if spec.kind == "ruling":
            chosen = dict(spec.choices)[getattr(scenario, spec.name)]
            steps.append(TraceStep(say("Ruling: {name}", name=spec.label), chosen, spec.citation))
    return steps


def _leftover_step(plan: Plan) -> list[TraceStep]:
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
    parts.insert(0, say("Successes left after all hits of one attack evade hits of the opponent's later "
                        "attacks this Turn: 2 per hit, +1 per full −10 by which that attack's penalty "
                        "exceeds the first one's"))
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
        state, _ = no_roll(plan, state, i, why)
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
        detail = "; ".join(event_step(plan, ev).detail for ev in events[1:])
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
    steps = [TraceStep(say("Evasion [Избегание]"),
                       say("a Reaction after being hit, before the damage roll: each Success evades one hit "
                           "of that attack, and at most one Evasion roll is made per attack, even with Reactions left"),
                       CITE_ONE_PER_ATTACK),
             TraceStep(say("Reactions"), say("{n} {n|Reaction|Reactions} this Turn, attacks resolved in the "
                                             "order made", n=plan.reactions), CITE_RULINGS)]
    steps += _attack_steps(scenario, plan)
    steps += _target_steps(plan)
    steps += _ruling_steps(scenario)
    steps += _leftover_step(plan)
    steps += _leap_steps(scenario, plan)
    if features(plan)[1]:
        steps.append(TraceStep(say("Stray shot"),
                               say("each dodged hit of a shot flies on toward the next target on the line of "
                                   "fire, and if the GM rules it hits, it counts 1 Success and strikes a random "
                                   "location, even if the attack was Selective"), CITE_STRAY))
    steps += _first_roll_steps(plan)
    steps += _tally_steps(analysis)
    return tuple(steps)


# -- the result ---------------------------------------------------------------------------------

def _no_roll_note(plan: Plan) -> str:
    reasons = [say("attack {a}: {reason}", a=a.number, reason=a.blocked[0]) for a in plan.attacks if a.blocked]
    if plan.reactions == 0:
        reasons.append(say("the defender has no Reaction left"))
    return say("No Evasion roll can be made") + "; " + "; ".join(reasons)


def evaluate(scenario: D100Scenario) -> Result:
    """The exact result over every d100 roll of every Evasion roll made."""
    analysis = analyse(scenario)
    plan, final = analysis.plan, analysis.final
    names: dict[tuple, str] = {}
    labels = {}
    for state in final:
        key = _order_key(state)
        if key not in names:
            names[key] = outcome_label(plan, state)
        labels[state] = names[key]
    outcome_order = tuple(names[key] for key in sorted(names))
    outcomes = Dist((labels[s], w) for s, w in final.items())
    hits = Dist((s.landed + s.in_cover, w) for s, w in final.items())
    den = analysis.denominator
    rolled = sum(w for s, w in final.items() if s.rolled)
    passed = sum(w for s, w in final.items() if s.rolled and s.all_passed)
    cover, stray = features(plan)
    notes = {}
    headline: dict[str, Fraction | None] = {
        "p_dodge_succeeds": Fraction(passed, rolled) if rolled else None,
        "p_no_hit": hits[0],
        "expected_hits": hits.mean(),
        "expected_successes": sum((t.expected_successes for t in analysis.tallies), Fraction(0)),
        "expected_hits_in_cover": Fraction(sum(w * s.in_cover for s, w in final.items()), den),
        "p_stray_shot": Fraction(sum(w for s, w in final.items() if s.stray), den) if stray else None,
        "p_disengage": Fraction(sum(w for s, w in final.items() if s.disengage), den) if plan.engaged else None,
    }
    if not rolled:
        notes["p_dodge_succeeds"] = _no_roll_note(plan)
    if not stray:
        notes["p_stray_shot"] = say("No shot has a next target on its line of fire")
    if not plan.engaged:
        notes["p_disengage"] = say("The defender is not engaged in melee, so no Leap is a Disengage")
    distributions = {"hits_in_cover": Dist((s.in_cover, w) for s, w in final.items())}
    if stray:
        distributions["stray_shots"] = Dist((s.stray, w) for s, w in final.items())
    return Result(system=SYSTEM_ID, scenario=scenario, outcomes=outcomes, outcome_order=outcome_order,
                  hits=hits, headline=headline, notes=notes, trace=trace_of(scenario, analysis),
                  distributions=distributions)
