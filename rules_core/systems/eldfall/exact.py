"""Eldfall Chronicles: the fast exact path, :func:`evaluate`, proven equal to enumerating
:func:`~rules_core.systems.eldfall.play.play` over every roll.

It works per Attack: the Attack's dice and the defender's AG die give the Hits that land
(Critical and non-Critical) — a multinomial over Critical / plain success / failure faces, and
under the ``compared`` ruling conditioned on the AG face. Damage given the landing Hits is a pair
of binomials (thresholds PW and PW − ARM) and Burn a further binomial once a Wound fell.
Protective Barrier is carried from Attack to Attack as a two-state flag (still up, or gone), so
each quantity is folded over the Attacks in order. Nothing is multiplied across Attacks that
depends on a shared die: each Attack has its own AG roll. Weights are exact integers over powers
of 20.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import factorial
from typing import NamedTuple

from ...d20 import FACES, binomial
from ...dist import Dist
from ...result import Result, TraceStep, fraction_text, percent
from ...variants import house_rule_steps
from .dice import (COVER_MODS, attack_dice, attack_value, dodge_value, effects_apply, face_kinds,
                   modified_attribute, wound_faces)
from .outcomes import HIT_NO_WOUND, NO_HIT, move_label, no_sweep, outcome_order
from .scenario import (CITE_ATTACK, CITE_BURN, CITE_CONFRONTATION, CITE_COVER, CITE_DAMAGE,
                       CITE_DODGE, CITE_DODGE_LOS, CITE_HALVING, CITE_MOVE_RULEBOOK, CITE_MOVE_SEED,
                       CITE_ROLLS, CITE_BARRIER, CITE_STAGGER, CITE_SWEEP, CITE_WARD, Attacker, EldfallScenario)

__all__ = ["SYSTEM_ID", "evaluate", "Landing", "Effect", "SecondModelEffect", "AttackKernel"]

SYSTEM_ID = "eldfall"


class Landing(NamedTuple):
    """One Attack's roll against the reaction, before Protective Barrier."""

    dodged: bool | None         # the Dodge succeeded (None: no Dodge)
    crits: int                  # Critical Hits (they land whatever the reaction)
    plain: int                  # non-Critical Hits still landing after the reaction
    attack_succeeded: bool      # at least one attack die succeeded (what a Sweep needs)


class Effect(NamedTuple):
    """What one Attack did to the defender: one atom of its kernel."""

    barrier_used: bool
    hits: int
    wounds: int
    ap_lost: int
    knocked_down: bool


class SecondModelEffect(NamedTuple):
    """What one sweeping Attack did to the second model."""

    hits: int
    wounds: int


Atoms = tuple[tuple[Effect, int], ...]


@dataclass(frozen=True)
class AttackKernel:
    """One Attack's effect on the defender, with the Barrier still up or already gone: each a
    tuple of ``(Effect, weight)`` over a common denominator (20 to the number of dice the Attack
    can call for); the Dodge's success probability (None without a Dodge); and the second model's
    ``(SecondModelEffect, weight)`` atoms (empty without Sweep)."""

    barrier_up: Atoms
    barrier_gone: Atoms
    p_dodge: Fraction | None
    second: tuple[tuple[SecondModelEffect, int], ...]


def _multinomial(n: int, counts: Sequence[int]) -> int:
    out = factorial(n)
    for c in counts:
        out //= factorial(c)
    return out


@cache
def _landing(value: int, dice: int, reaction: str, ag: int, resolution: str, critical: int
             ) -> tuple[tuple[Landing, int], ...]:
    """One Attack against the defender's reaction, before Protective Barrier: ``(Landing,
    weight)`` over 20**(dice + the AG die); a successful face up to ``critical`` is a Critical."""
    kinds = face_kinds(value, critical)
    wc, ws = kinds.count("critical"), kinds.count("success")
    wf = FACES - wc - ws
    out: dict[Landing, int] = {}

    def add(key: Landing, weight: int) -> None:
        if weight:
            out[key] = out.get(key, 0) + weight

    if reaction != "dodge" or resolution == "independent":
        ag_ok = sum(k != "failure" for k in face_kinds(ag, critical)) if reaction == "dodge" else 0
        for c in range(dice + 1):
            for p in range(dice - c + 1):
                w = _multinomial(dice, (c, p, dice - c - p)) * wc ** c * ws ** p * wf ** (dice - c - p)
                hit = c + p > 0
                if reaction == "dodge":
                    add(Landing(True, c, 0, hit), w * ag_ok)
                    add(Landing(False, c, p, hit), w * (FACES - ag_ok))
                else:
                    add(Landing(None, c, 0 if reaction == "ward" else p, hit), w)
        return tuple(out.items())
    # compared: condition on the AG face g; a non-Critical attack die beats the Dodge iff its
    # face is above g (a tie goes to the dodger, a Critical AG roll beats every attack die).
    success_faces = [f for f in range(1, FACES + 1) if kinds[f - 1] == "success"]
    for g, ag_kind in enumerate(face_kinds(ag, critical), 1):
        if ag_kind != "success":
            ok = ag_kind == "critical"
            for c in range(dice + 1):
                for p in range(dice - c + 1):
                    w = _multinomial(dice, (c, p, dice - c - p)) * wc ** c * ws ** p * wf ** (dice - c - p)
                    add(Landing(ok, c, 0 if ok else p, c + p > 0), w)
            continue
        low = sum(1 for f in success_faces if f <= g)
        high = ws - low
        for c in range(dice + 1):
            for lo in range(dice - c + 1):
                for hi in range(dice - c - lo + 1):
                    rest = dice - c - lo - hi
                    w = _multinomial(dice, (c, lo, hi, rest)) * wc ** c * low ** lo * high ** hi * wf ** rest
                    ok = hi == 0
                    add(Landing(ok, c, 0 if ok else lo + hi, c + lo + hi > 0), w)
    return tuple(out.items())


@cache
def _wounds(crits: int, plain: int, pw: int, arm: int, burn: int, pad: int) -> tuple[int, ...]:
    """Weights (over 20**(pad + burn)) of the Wounds ``crits`` Critical Hits and ``plain`` Hits
    cause, Burn included; ``pad`` >= crits + plain is the most damage rolls the Attack can need."""
    by_crit = binomial(crits, wound_faces(pw))
    by_plain = binomial(plain, wound_faces(pw - arm))
    base = [0] * (crits + plain + 1)
    for i, wi in enumerate(by_crit):
        for j, wj in enumerate(by_plain):
            base[i + j] += wi * wj
    scale = FACES ** (pad - crits - plain)
    out = [0] * (crits + plain + burn + 1)
    out[0] = base[0] * scale * FACES ** burn
    by_burn = binomial(burn, wound_faces(pw))
    for w in range(1, crits + plain + 1):
        for b, wb in enumerate(by_burn):
            out[w + b] += base[w] * scale * wb
    return tuple(out)


def _kernel(scenario: EldfallScenario, a: Attacker) -> AttackKernel:
    d = scenario.defender
    dice = attack_dice(a)
    dodging = d.reaction == "dodge"
    ag = dodge_value(d, a, scenario.variant.halving) if dodging else 0
    atoms = _landing(attack_value(a), dice, d.reaction, ag, scenario.dodge_resolution,
                     scenario.variant.critical_face)
    stagger = a.stagger and effects_apply(a.size, d.size)
    knock = a.knockdown and effects_apply(a.size, d.size)
    # Summed under plain tuple keys (the fields of Effect, in order; hot loop), named at the end.
    sides: dict[bool, dict[tuple[bool, int, int, int, bool], int]] = {True: {}, False: {}}
    dodged_weight = 0
    for landing, w in atoms:
        dodged_weight += w if landing.dodged else 0
        for barrier in ((True, False) if d.barrier else (False,)):
            crits, plain, used = landing.crits, landing.plain, False
            if barrier and crits + plain:
                used = True
                if crits:
                    crits -= 1
                else:
                    plain -= 1
            landed = crits + plain
            side = sides[barrier]
            for wounds, ww in enumerate(_wounds(crits, plain, a.pw, d.arm, a.burn, dice)):
                if ww:
                    key = (used, landed, wounds, landed if stagger else 0, bool(knock and landed))
                    side[key] = side.get(key, 0) + w * ww
    second: dict[tuple[int, int], int] = {}    # (hits, wounds) on the second model
    if a.sweep:
        for landing, w in atoms:
            if not landing.attack_succeeded:
                second[(0, 0)] = second.get((0, 0), 0) + w * FACES ** (1 + a.burn)
                continue
            critical = landing.crits > 0 and scenario.sweep_hit == "critical"
            for wounds, ww in enumerate(_wounds(int(critical), int(not critical), a.pw,
                                                scenario.second_model.arm, a.burn, 1)):
                if ww:
                    second[(1, wounds)] = second.get((1, wounds), 0) + w * ww
    p_dodge = Fraction(dodged_weight, FACES ** (1 + dice)) if dodging else None
    return AttackKernel(*(tuple((Effect(*key), w) for key, w in sides[up].items()) for up in (True, False)),
                        p_dodge, tuple((SecondModelEffect(*key), w) for key, w in second.items()))


def _fold(kernels: Sequence[AttackKernel], barrier: bool, quantity: str, start: object,
          join: Callable[[object, object], object]) -> Dist:
    """Distribution of one quantity of :class:`Effect` joined (``join``, from ``start``) over
    every Attack in order, carrying the Protective Barrier from Attack to Attack."""
    states: dict[tuple[bool, object], int] = {(barrier, start): 1}
    for k in kernels:
        marginals: dict[bool, dict[tuple[bool, object], int]] = {}
        for up, atoms in ((True, k.barrier_up), (False, k.barrier_gone)):
            m: dict[tuple[bool, object], int] = {}
            for effect, w in atoms:
                mk = (effect.barrier_used, getattr(effect, quantity))
                m[mk] = m.get(mk, 0) + w
            marginals[up] = m
        new: dict[tuple[bool, object], int] = {}
        for (up, value), sw in states.items():
            for (used, dv), kw in marginals[up].items():
                nk = (up and not used, join(value, dv))
                new[nk] = new.get(nk, 0) + sw * kw
        states = new
    out: dict[object, int] = {}
    for (_up, value), w in states.items():
        out[value] = out.get(value, 0) + w
    return Dist(out)


def _second_model(kernels: Iterable[AttackKernel]) -> Dist:
    """The second model's (hits, wounds) summed over the sweeping Attacks (no Barrier there)."""
    states = {(0, 0): 1}                      # (hits, wounds) so far: plain keys in the hot loop
    for k in kernels:
        new: dict[tuple[int, int], int] = {}
        for (hits, wounds), sw in states.items():
            for more, kw in k.second:
                key = (hits + more.hits, wounds + more.wounds)
                new[key] = new.get(key, 0) + sw * kw
        states = new
    return Dist({SecondModelEffect(*key): w for key, w in states.items()})


def _pct(p: Fraction) -> str:
    return f"{fraction_text(p)} ({percent(p)})"


def _scenario_trace(scenario: EldfallScenario, kernels: Sequence[AttackKernel]) -> list[TraceStep]:
    d = scenario.defender
    critical, rounding = scenario.variant.critical_face, scenario.variant.halving
    crit_text = "a 1 is a Critical" if critical == 1 else f"a successful 1 to {critical} is a Critical"
    trace = [*house_rule_steps(scenario),
             TraceStep("Attribute rolls", f"d20 roll-under the modified attribute; {crit_text}, "
                       "above 20 a 20 is too; at 0 or less an automatic failure; halving after the "
                       f"other modifiers, rounding {rounding}",
                       CITE_ROLLS if rounding == "up" else CITE_HALVING)]
    for i, (a, k) in enumerate(zip(scenario.attackers, kernels), 1):
        value = attack_value(a)
        kinds = face_kinds(value, critical)
        cover = f", cover {COVER_MODS[a.cover]:+d}" if a.cover != "none" else ""
        trace.append(TraceStep(
            f"Attack {i}", f"{attack_dice(a)} {'die' if attack_dice(a) == 1 else 'dice'}"
            f"{' (reacting: STK 1)' if a.reacting else ''} against {a.attribute} {a.value}, "
            f"modifiers {a.mod:+d}{cover} → {value}: per die a Critical Hit "
            f"{_pct(Fraction(kinds.count('critical'), FACES))}, a Hit "
            f"{_pct(Fraction(kinds.count('success'), FACES))}"
            + (" (automatic failure)" if value <= 0 else ""),
            CITE_COVER if a.cover != "none" else CITE_ATTACK))
        if d.reaction == "dodge":
            ag = dodge_value(d, a, rounding)
            if not a.los:
                how = ("not halved: Acute Senses" if d.acute_senses else
                       f"halved (rounding {rounding}) without LoS: "
                       f"{modified_attribute(d.ag, d.ag_mod)} → {ag}")
                trace.append(TraceStep(f"Dodge against Attack {i}: no LoS", how, CITE_DODGE_LOS))
            trace.append(TraceStep(
                f"Dodge against Attack {i}", f"one AG roll against {ag}; it succeeds with "
                f"probability {_pct(k.p_dodge)}"
                + (" (automatic failure)" if ag <= 0 else "")
                + "; a success ignores the Attack's non-Critical Hits and their effects, "
                  "Critical Hits resolve normally", CITE_DODGE))
        thr = a.pw - d.arm
        trace.append(TraceStep(
            f"Damage from Attack {i}", f"one d20 per Hit that lands: a Wound on {wound_faces(thr)} "
            f"face(s) (PW {a.pw} − ARM {d.arm}); a Critical Hit ignores ARM: "
            f"{wound_faces(a.pw)} face(s)" + (" — PW − ARM is 0 or less: a Hit never wounds"
                                              if thr <= 0 else ""), CITE_DAMAGE))
        if a.burn:
            trace.append(TraceStep(f"Burn ({a.burn}) on Attack {i}", "after at least one Wound from "
                                   f"this Attack's landing Hits, {a.burn} more damage roll(s) at PW "
                                   f"{a.pw}, ARM 0; Burn does not trigger itself again", CITE_BURN))
        for name, on in (("Stagger", a.stagger), ("Knockdown", a.knockdown)):
            if on:
                spared = not effects_apply(a.size, d.size)
                trace.append(TraceStep(f"{name} on Attack {i}", (
                    f"no effect: the defender (Size {d.size}) is two or more Sizes larger than the "
                    f"attacker (Size {a.size})") if spared else (
                    "−1 AP per landing Hit" if name == "Stagger" else
                    "a landing Hit makes the defender Crouched"), CITE_STAGGER))
        if a.sweep:
            trace.append(TraceStep(f"Sweep on Attack {i}", "on a successful Attack roll the second "
                                   "model suffers a Hit "
                                   + ("(a Critical Hit when the roll had a Critical)"
                                      if scenario.sweep_hit == "critical" else "(a plain Hit)")
                                   + f" and rolls its own damage (ARM {scenario.second_model.arm}); "
                                   "it does not dodge, and the defender's Dodge does not protect it",
                                   CITE_SWEEP))
    if d.reaction == "dodge":
        trace.append(TraceStep("Ruling: Dodge resolution", {
            "independent": "independent — a plain AG roll per enemy Attack",
            "compared": "compared — the AG roll must also be at least the attacker's best "
                        "non-Critical successful die; Critical attack dice take no part, a tie "
                        "goes to the dodger, a Critical AG roll beats every die"}[scenario.dodge_resolution],
            CITE_DODGE if scenario.dodge_resolution == "independent" else CITE_CONFRONTATION))
        if len(scenario.attackers) > 1:
            trace.append(TraceStep("Several attacking models", "one AG roll per enemy Attack, each "
                                   "with its own LoS", CITE_DODGE))
        move = (f"rulebook — may move up to half SPD rounded {rounding}, even after a failed "
                "roll, and enter or cancel Crouched" if scenario.post_dodge_move == "rulebook" else
                "seed — may move up to full SPD, optionally, after a successful Dodge (one move "
                "for the Resolution Step if any AG roll succeeded)")
        trace.append(TraceStep("Ruling: post-dodge movement", move,
                               CITE_MOVE_RULEBOOK if scenario.post_dodge_move == "rulebook" else CITE_MOVE_SEED))
    elif d.reaction == "ward":
        trace.append(TraceStep("Ward", "already cast, no roll: every Attack's non-Critical Hits and "
                               "their effects (Burn, Stagger, Knockdown) are ignored; Critical Hits "
                               "resolve normally", CITE_WARD))
    else:
        trace.append(TraceStep("No reaction", "every Hit resolves normally", CITE_ATTACK))
    if d.barrier:
        trace.append(TraceStep("Protective Barrier", "negates the first Hit still landing after the "
                               "reaction, in Attack order, a Critical Hit first within an Attack; a "
                               "dodged Hit does not use it up", CITE_BARRIER))
    return trace


def _movement(scenario: EldfallScenario, p_any_dodge: Fraction) -> Dist:
    """The post-dodge movement label, given the chance that any AG roll succeeds."""
    moved, stayed = move_label(scenario, True), move_label(scenario, False)
    if moved == stayed:
        return Dist.certain(moved)
    return Dist.from_fractions({moved: p_any_dodge, stayed: 1 - p_any_dodge})  # a chance of 0 drops its label


def evaluate(scenario: EldfallScenario) -> Result:
    """Exact result of every Attack against the defender's reaction (and the second model)."""
    d = scenario.defender
    kernels = [_kernel(scenario, a) for a in scenario.attackers]
    hits = _fold(kernels, d.barrier, "hits", 0, operator.add)
    wounds = _fold(kernels, d.barrier, "wounds", 0, operator.add)
    ap_lost = _fold(kernels, d.barrier, "ap_lost", 0, operator.add)
    knocked = _fold(kernels, d.barrier, "knocked_down", False, operator.or_)
    order = outcome_order(scenario)
    rows = {NO_HIT: hits[0], HIT_NO_WOUND: wounds[0] - hits[0]}
    rows.update((label, wounds[w]) for w, label in enumerate(order[2:], 1))
    outcomes = Dist.from_fractions({k: v for k, v in rows.items() if v})

    notes: dict[str, str] = {}
    p_dodge: Fraction | None = None
    p_any_dodge = Fraction(0)
    if d.reaction == "dodge":
        p_dodge = Fraction(1)
        p_no_dodge = Fraction(1)
        for k in kernels:
            p_dodge *= k.p_dodge
            p_no_dodge *= 1 - k.p_dodge
        p_any_dodge = 1 - p_no_dodge
        if any(dodge_value(d, a, scenario.variant.halving) <= 0 for a in scenario.attackers):
            notes["p_dodge_succeeds"] = ("The defender's AG for at least one Dodge is 0 or less: "
                                         "that roll fails automatically.")
    else:
        notes["p_dodge_succeeds"] = ("No evasion roll is made: " +
                                     ("Ward is already cast and needs no roll." if d.reaction == "ward"
                                      else "the defender does not react."))
    headline: dict[str, Fraction | None] = {
        "p_dodge_succeeds": p_dodge,
        "p_no_hit": hits[0],
        "expected_hits": hits.mean(),
        "expected_wounds": wounds.mean(),
        "p_at_least_one_wound": 1 - wounds[0],
        "expected_stagger": ap_lost.mean(),
        "p_knocked_down": knocked[True],
    }
    distributions = {"wounds": wounds, "ap_lost": ap_lost, "knocked_down": knocked,
                     "post_dodge_move": _movement(scenario, p_any_dodge)}
    why_not = no_sweep(scenario)
    if why_not is None:
        second = _second_model(k for k, a in zip(kernels, scenario.attackers) if a.sweep)
        second_wounds = second.map(lambda e: e.wounds)
        distributions["second_model_hits"] = second.map(lambda e: e.hits)
        distributions["second_model_wounds"] = second_wounds
        headline["expected_second_model_wounds"] = second_wounds.mean()
        headline["p_second_model_wounded"] = 1 - second_wounds[0]
    else:
        for key in ("expected_second_model_wounds", "p_second_model_wounded"):
            headline[key] = None
            notes[key] = why_not
    return Result(system=SYSTEM_ID, scenario=scenario, outcomes=outcomes, outcome_order=order,
                  hits=hits, headline=headline, notes=notes, trace=tuple(_scenario_trace(scenario, kernels)),
                  distributions=distributions)
