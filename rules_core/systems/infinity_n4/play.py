"""Infinity N4: the rule on one concrete roll of a whole Dodge Order.

:func:`plan_order` reads the scenario as the rules do — what the one dodge die is compared
with, each comparison with its own Success Values (MODs, the −3 PH circumstances, the ±12 cap),
the Saving Rolls each hit calls for, and whether a hit brings a Guts Roll — with the trace of
the rules applied. :func:`play` then rolls the Order on the dice a
:class:`~rules_core.roller.Roller` hands out: the dodge die; then, roll by roll, the attacker's
dice and the Saving Rolls its hits call for; then the Guts die if one is rolled.

The same function serves exact enumeration (:func:`rules_core.play.enumerate_play`), Monte
Carlo (:func:`rules_core.play.sample`) and the step-through view
(:func:`rules_core.play.play_once`), so they cannot disagree. Each die request carries a
``classify`` hint saying which faces act alike: the dodge die by its rank against each roll's
SV, an attack die by how its rank compares with the dodge die's (beats it, ties it, Critical),
a Saving Roll by wound or not, the Guts die by success or not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, NamedTuple

from ...d20 import FACES, d20
from ...play import Play
from ...result import TraceStep
from ...roller import Roller
from ...variants import house_rule_steps
from .dice import (
    CRIT, SAVES_PER_HIT, capped_mods, normal_roll_succeeds, resolve_face_to_face, roll_rank,
    saving_roll_wounds, success_value, wound_threshold)
from .outcomes import (
    DODGED, FALLBACKS, HIT_NO_EFFECT, HIT_NO_GUTS, HIT_PASSES, NO_HIT, NULL_STATE, UNHARMED_STAYS,
    after_dodge_plan, dodged_label, engaged_at_start, guts_failed_label, guts_fallback, hits_label,
    roll_label)
from .scenario import (
    CITE_AMMO, CITE_COVER, CITE_DODGE, CITE_DODGE_MODS, CITE_DODGE_MOVE, CITE_F2F, CITE_GUTS,
    CITE_GUTS_FAQ, CITE_MODS, CITE_ROLLS, CITE_SAVES, CITE_SV_OVER_20, CITE_TEMPLATES, CITE_WOUNDS,
    RULING_MINUS_THREE, Attacker, Dodger, InfinityScenario, Template)

__all__ = ["OrderRoll", "OrderPlan", "plan_order", "RollResult", "play", "MINUS_THREE"]

#: The PH MOD of one −3 circumstance (ZoC outside LoF, Template without LoF, Deployable): the
#: official value; a scenario's ``variant.circumstance_mod`` holds the MOD in force.
MINUS_THREE = -3

# -- the Order, planned: what the one dodge die is compared with ------------------------------

@dataclass(frozen=True)
class OrderRoll:
    """One comparison of the dodge die: a Face to Face Roll against an attacker's Burst
    (``kind="f2f"``) or a Normal PH Roll (``kind="normal"``: a template, or nobody attacks)."""

    name: str
    kind: Literal["f2f", "normal"]
    sv_dodge: int
    sv_attack: int = 0
    dice: int = 0
    #: hits landing when a Normal Roll fails: 1 for a template, 0 when nobody attacks
    hits_on_fail: int = 0
    #: Saving Rolls per hit (0 for an attack without Damage); a Critical adds one
    saves: int = 0
    #: a Saving Roll is a wound iff its face is at most this
    threshold: int = 0
    #: a hit from it causes a Guts Roll (it has Damage or inflicts a State)
    guts: bool = False
    #: index in ``scenario.attackers`` (None for the template or the not-attacked roll)
    attacker: int | None = None


@dataclass(frozen=True)
class OrderPlan:
    """Everything about an Order that does not depend on the dice."""

    rolls: tuple[OrderRoll, ...]
    dodges: bool
    wounds: int
    engaged: bool
    immobilized: str
    after_dodge: str
    guts_sv: int
    guts_decision: str
    guts_fallback: Literal["leave", "cover", "prone"]
    #: the final-state labels after a successful dodge and after a failed Guts Roll
    dodged_label: str
    guts_failed_label: str
    trace: tuple[TraceStep, ...]

    def dodge_ranks(self, face: int) -> tuple[int, ...]:
        """The dodge die's rank against each roll's SV (what alone its face means here)."""
        return tuple(roll_rank(face, r.sv_dodge) for r in self.rolls)


def _signed(mod: int) -> str:
    """A MOD as the rulebook writes it: ``−3``, ``+3``, ``0``."""
    return f"−{-mod}" if mod < 0 else f"+{mod}" if mod else "0"


def _sv_trace(who: str, attribute: str, value: int, mods: Sequence[tuple[str, int]], cap: int
              ) -> tuple[int, list[TraceStep]]:
    total = sum(m for _, m in mods)
    sv, capped = success_value(value, [total], cap)
    parts_text = ", ".join(f"{name} {m:+d}" for name, m in mods if m) or "none"
    cap_text = f"capped to {capped_mods(total, cap):+d}" if capped else "not reached"
    steps = [TraceStep(f"Success Value ({who})",
                       f"{attribute} {value}, MODs {total:+d} ({parts_text}) → SV {sv}; "
                       f"MOD sum capped at ±{cap}: {cap_text}", CITE_MODS)]
    if sv <= 0:
        steps.append(TraceStep(f"SV ≤ 0 ({who})", "no roll is made: automatic failure", CITE_ROLLS))
    elif sv > FACES:
        steps.append(TraceStep(f"SV above 20 ({who})",
                               f"+{sv - FACES} to every face; every face succeeds; "
                               f"a face of {max(1, 2 * FACES - sv)} or more is a Critical",
                               CITE_SV_OVER_20))
    return sv, steps


def _circumstance_mod(circumstances: Sequence[str], reading: str, each: int = MINUS_THREE) -> int:
    """The PH MOD for these −3 circumstances under the minus-three ruling, ``each`` the MOD of
    one circumstance (officially −3)."""
    if not circumstances:
        return 0
    return each * len(circumstances) if reading == "stacking" else each


def _dodge_sv(s: InfinityScenario, name: str, own_mod: int, circumstances: list[str]
              ) -> tuple[int, list[TraceStep]]:
    d = s.dodger
    each = s.variant.circumstance_mod
    minus = _circumstance_mod(circumstances, s.minus_three, each)
    steps = []
    if circumstances:
        how = (f"one {_signed(each)} for {len(circumstances)} circumstances" if len(circumstances) > 1
               and s.minus_three == "single" else f"{minus:+d}")
        steps.append(TraceStep(f"{_signed(each)} PH circumstances ({name})",
                               f"{'; '.join(circumstances)}: {how} "
                               f"(ruling minus-three = {s.minus_three})", CITE_DODGE_MODS))
    sv, more = _sv_trace(f"dodger against {name}", "PH", d.ph,
                         [("dodger", d.mod), ("against this attack", own_mod), ("circumstances", minus)],
                         s.variant.mod_cap)
    return sv, steps + more


class _Damage(NamedTuple):
    """What a hit of one weapon calls for: Saving Rolls per hit, the wound threshold, whether it
    brings a Guts Roll, and the trace of those rules."""

    saves: int
    threshold: int
    guts: bool
    steps: list[TraceStep]


def _damage_plan(name: str, weapon: Attacker | Template, d: Dodger) -> _Damage:
    guts = weapon.damage > 0 or weapon.inflicts_state
    if weapon.damage == 0:
        what = "inflicts a State: no Saving Roll, but a hit causes a Guts Roll" if guts else \
            "no Damage and no State: no Saving Roll and no Guts Roll"
        return _Damage(0, 0, guts, [TraceStep(f"Saving Rolls ({name})", what, CITE_GUTS_FAQ)])
    resist = d.arm if weapon.save_vs == "ARM" else d.bts
    threshold = wound_threshold(weapon.damage, resist, ap=weapon.ammo == "AP",
                                partial_cover=weapon.partial_cover)
    saves = SAVES_PER_HIT[weapon.ammo]
    shown = f"{weapon.save_vs} {resist}" + (f" halved to {-(-resist // 2)} (AP)" if weapon.ammo == "AP" else "")
    detail = (f"{weapon.ammo}: {saves} per hit, +1 per Critical; a roll of {threshold} or less is a "
              f"wound (DAM {weapon.damage} − {shown}" + (", −3 Partial Cover" if weapon.partial_cover else "")
              + ", within 0..20)")
    steps = [TraceStep(f"Saving Rolls ({name})", detail, CITE_AMMO)]
    if weapon.partial_cover:
        steps.append(TraceStep(f"Partial Cover ({name})", "+3 to the Saving Rolls", CITE_COVER))
    return _Damage(saves, threshold, guts, steps)


@lru_cache(maxsize=256)
def plan_order(s: InfinityScenario) -> OrderPlan:
    """What the one dodge die is compared with (each roll with its own SVs), the saves, and the
    Guts and movement circumstances, with the trace of the rules applied."""
    d = s.dodger
    trace = [*house_rule_steps(s),
             TraceStep("Dodge", "one PH die against every attack of the Order, each with its own SV "
                       "for the dodger: a Face to Face Roll against each attacker's Burst, a Normal "
                       "PH Roll against a template or when nobody attacks; the results are "
                       "correlated through that one die", CITE_DODGE),
             TraceStep("Ruling minus-three", f"{s.minus_three}: {RULING_MINUS_THREE[s.minus_three]}",
                       CITE_DODGE_MODS)]
    if not d.dodges:
        trace.append(TraceStep("No Dodge", "the trooper does not declare Dodge: each attacker's "
                               "successes all land (Normal Rolls) and a template hits", CITE_DODGE))
    rolls: list[OrderRoll] = []
    for i, a in enumerate(s.attackers):
        name = f"Attacker {i + 1}"
        if not a.attacks:
            trace.append(TraceStep(name, "does not attack the dodger: no roll against it", CITE_DODGE))
            continue
        circumstances = ((["Active trooper inside ZoC and outside LoF"] if a.zoc_no_lof else []) +
                         (["Template Weapon without LoF to the attacker"] if a.template_no_lof else []))
        sv_d, steps = _dodge_sv(s, name, a.dodge_mod, circumstances)
        sv_a, attack_steps = _sv_trace(name, a.attribute, a.value, [("attacker", a.mod)],
                                       s.variant.mod_cap)
        saves, threshold, guts, save_steps = _damage_plan(name, a, d)
        trace += [TraceStep(name, f"Face to Face Roll: the dodge die against {a.attribute} Burst "
                            f"{a.burst}", CITE_F2F), *(steps if d.dodges else []), *attack_steps, *save_steps]
        rolls.append(OrderRoll(name, "f2f", sv_d, sv_a, a.burst, 0, saves, threshold, guts, i))
    t = s.template
    if t.kind != "none":
        name = "Mine" if t.kind == "deployable" else "Direct Template"
        circumstances = ((["Template Weapon without LoF to the attacker"] if not t.lof else []) +
                         (["Template of a Deployable Weapon"] if t.kind == "deployable" else []))
        sv_d, steps = _dodge_sv(s, name, t.dodge_mod, circumstances)
        saves, threshold, guts, save_steps = _damage_plan(name, t, d)
        trace += [TraceStep(name, "no attack roll: a Normal PH Roll of the same dodge die; its one "
                            "hit lands unless that roll succeeds (all or nothing)", CITE_TEMPLATES),
                  *(steps if d.dodges else []), *save_steps]
        rolls.append(OrderRoll(name, "normal", sv_d, hits_on_fail=1, saves=saves,
                               threshold=threshold, guts=guts))
    if not rolls:
        zoc = any(a.zoc_no_lof for a in s.attackers)
        name = "Not attacked"
        sv_d, steps = _dodge_sv(s, name, 0, ["Active trooper inside ZoC and outside LoF"] if zoc else [])
        trace += [TraceStep(name, "nobody attacks the dodger: a Normal PH Roll", CITE_DODGE),
                  *(steps if d.dodges else [])]
        rolls.append(OrderRoll(name, "normal", sv_d))
    trace.append(TraceStep("Face to Face Roll", "higher successes cancel lower ones, equal values "
                           "cancel each other, a Critical beats any value; at most one side keeps "
                           "successes; the dodger's success must survive every roll of the Order",
                           CITE_F2F))
    move, after = s.variant.dodge_move, after_dodge_plan(s)
    trace.append(TraceStep("After a successful dodge", {
        "move": f"moves up to {move}\" in the Effects step; cancels Engaged and IMM-A",
        "engage": f"moves up to {move}\" into silhouette contact: Engaged; cancels IMM-A",
        "stay": "does not move; cancels IMM-A"}[after] +
        (f" (a dodge move of 0\": it cannot {'move' if s.after_dodge == 'move' else 'reach contact'})"
         if after != s.after_dodge else "") +
        "; a dodger that failed against any attack does not move", CITE_DODGE_MOVE))
    engaged = engaged_at_start(s)
    fallback = guts_fallback(s)
    blocked = [w for w, on in (("Engaged", engaged), (d.immobilized, d.immobilized != "no")) if on]
    trace.append(TraceStep("Guts Roll", "a Normal WIP Roll at the end of the Order when a hit of an "
                           "attack with Damage or a State landed and the trooper is not Engaged, Null "
                           "or IMM; " + ("a hit trooper stays " + " and ".join(blocked) +
                                         ", so no Guts Roll is made" if blocked else
                                         f"WIP {d.wip}" + ("; the owner chooses to fail it"
                                                           if s.guts.decision == "fail" else ""))
                           + f"; on a failure it {FALLBACKS[fallback]}", CITE_GUTS))
    trace.append(TraceStep("Null", f"Null once the wounds inflicted reach W {d.wounds}", CITE_WOUNDS))
    return OrderPlan(tuple(rolls), d.dodges, d.wounds, engaged, d.immobilized, after,
                     d.wip, s.guts.decision, fallback, dodged_label(s), guts_failed_label(s),
                     tuple(trace))


# -- the Order on concrete dice ------------------------------------------------------------------

@dataclass(frozen=True)
class RollResult:
    """What one comparison of the dodge die came to on concrete dice."""

    name: str
    ok: bool
    hits: int
    crits: int
    wounds: int
    label: str


def _attack_die_class(dodge_rank: int, sv_attack: int):
    """An attack die's face, as the Face to Face Roll reads it against this dodge rank: whether
    its rank beats the dodge's (kept), reaches it (cancels the dodge) and is a Critical."""
    def classify(face: int) -> tuple[bool, bool, bool]:
        rank = roll_rank(face, sv_attack)
        return rank > dodge_rank, rank >= dodge_rank, rank == CRIT
    return classify


def _count(n: int, noun: str) -> str:
    """``1 wound``, ``2 wounds``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def play(scenario: InfinityScenario, roller: Roller) -> Play:
    """The whole Order on the dice ``roller`` hands out (see the module docstring): the outcome,
    the hits landing, the dodge die's result against each roll (``evasions``, none without a
    Dodge), and as quantities the final state, wounds, Criticals and each roll's label, hits
    and wounds. With ``roller.explain`` false no trace is written."""
    plan = plan_order(scenario)
    explain = roller.explain
    trace: list[TraceStep] = list(house_rule_steps(scenario)) if explain else []
    face = roller.roll(d20("dodge die", classify=plan.dodge_ranks)) if plan.dodges else None
    if explain and face is not None:
        trace.append(TraceStep("Dodge die", f"{face}", CITE_ROLLS))
    results: list[RollResult] = []
    for roll in plan.rolls:
        if roll.kind == "f2f":
            dodge_rank = 0 if face is None else roll_rank(face, roll.sv_dodge)
            classify = _attack_die_class(dodge_rank, roll.sv_attack)
            faces = [roller.roll(d20(roll.name, classify=classify)) for _ in range(roll.dice)]
            kept = resolve_face_to_face([] if face is None else [face], roll.sv_dodge,
                                        faces, roll.sv_attack)
            ok, hits, crits = bool(kept.a), len(kept.b), kept.b.count(CRIT)
            if explain:
                trace.append(TraceStep(roll.name, f"dodge SV {roll.sv_dodge} against SV "
                                       f"{roll.sv_attack}, faces {', '.join(map(str, faces))}: the "
                                       f"dodger keeps {len(kept.a)}, the attacker keeps {hits} "
                                       f"({crits} Critical)", CITE_F2F))
        else:
            ok = face is not None and normal_roll_succeeds(face, roll.sv_dodge)
            hits, crits = (0 if ok else roll.hits_on_fail), 0
            if explain:
                trace.append(TraceStep(roll.name, f"Normal PH Roll against SV {roll.sv_dodge}: "
                                       f"{'success' if ok else 'failure'}; {hits} hit", CITE_ROLLS))
        wounds = 0
        if roll.saves:
            threshold = roll.threshold
            count = hits * roll.saves + crits
            for _ in range(count):
                save = roller.roll(d20(f"Saving Roll ({roll.name})",
                                       classify=lambda f, t=threshold: f <= t))
                wounds += saving_roll_wounds(save, threshold)
            if explain and hits:
                trace.append(TraceStep(f"Saving Rolls ({roll.name})", f"{_count(count, 'roll')}, {wounds} at "
                                       f"or under {threshold}: {_count(wounds, 'wound')}", CITE_SAVES))
        results.append(RollResult(roll.name, ok, hits, crits, wounds,
                                  roll_label(roll.kind, ok, hits, crits)))

    dodged = plan.dodges and all(r.ok for r in results)
    hits = sum(r.hits for r in results)
    crits = sum(r.crits for r in results)
    wounds = sum(r.wounds for r in results)
    outcome = DODGED if dodged else NO_HIT if hits == 0 else hits_label(hits)
    # States at the end of the Order: only a dodger that succeeded against everything moves (and
    # is then unharmed: his states after the move are in plan.dodged_label); a hit dodger keeps
    # his Engaged and IMM states, which decide the Guts Roll below.
    if dodged and explain:
        trace.append(TraceStep("Movement", plan.dodged_label, CITE_DODGE_MOVE))
    guts_hit = any(r.hits and roll.guts for r, roll in zip(results, plan.rolls))
    guts_face = None
    if wounds >= plan.wounds:
        final = NULL_STATE
    elif hits == 0:
        final = plan.dodged_label if dodged else UNHARMED_STAYS
    elif not guts_hit:
        final = HIT_NO_EFFECT
    elif plan.engaged or plan.immobilized != "no":
        final = HIT_NO_GUTS
    elif plan.guts_decision == "fail":
        final = plan.guts_failed_label
    else:
        guts_face = roller.roll(d20("Guts die", classify=lambda f: normal_roll_succeeds(f, plan.guts_sv)))
        final = HIT_PASSES if normal_roll_succeeds(guts_face, plan.guts_sv) else plan.guts_failed_label
    if explain:
        if final == NULL_STATE:
            trace.append(TraceStep("Null", f"{_count(wounds, 'wound')} against W {plan.wounds}", CITE_WOUNDS))
        elif guts_face is not None:
            trace.append(TraceStep("Guts Roll", f"WIP {plan.guts_sv}, face {guts_face}: "
                                   f"{'passed' if final == HIT_PASSES else 'failed'}", CITE_GUTS))
        trace.append(TraceStep("Final state", final, CITE_GUTS if hits else CITE_DODGE_MOVE))
    quantities: dict[str, object] = {"final state": final, "wounds": wounds, "criticals": crits}
    for r in results:
        quantities[r.name] = r.label
        quantities[f"{r.name}: hits"] = r.hits
        quantities[f"{r.name}: wounds"] = r.wounds
    return Play(outcome, hits, tuple(r.ok for r in results) if plan.dodges else (), quantities,
                tuple(trace))
