"""Eldfall Chronicles: the rule on ONE concrete roll, :func:`play` — every Attack, the defender's
reaction (Dodge or Ward), Protective Barrier, damage, Burn, Stagger, Knockdown and Sweep.

Every die is drawn from the :class:`~rules_core.roller.Roller`, in this order for each Attack:
the Attack dice, the defender's AG die (when it dodges), the damage rolls for Critical Hits,
for the other Hits, the Burn rolls, then the second model's damage and Burn rolls (Sweep). Within
a group the order of the faces does not matter (the requests are unordered pools), and each
request carries a ``classify`` hint grouping faces that act alike (the tests prove the hints by
enumerating without them).

>>> from rules_core.play import play_once
>>> from rules_core.systems.eldfall import SYSTEM, EldfallScenario, Attacker
>>> s = EldfallScenario(attackers=(Attacker(value=10, stk=2, pw=12),))
>>> # A Critical Hit (1) and a Hit (5); AG roll 7 dodges the Hit; the Critical's damage roll 3
>>> p = play_once(SYSTEM, s, faces=[1, 5, 7, 3])
>>> p.evasions, p.hits, p["wounds"], p.outcome
((True,), 1, 1, '1 Wound')
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import NamedTuple

from ...d20 import d20
from ...play import Play
from ...result import TraceStep
from ...roller import Roller
from ...variants import house_rule_steps
from .dice import (CRITICAL_FACE, Kind, attack_dice, attack_value, attribute_roll, dodge_value,
                   effects_apply, face_kinds, wounds_on)
from .outcomes import move_label, outcome_label
from .scenario import (CITE_ATTACK, CITE_BARRIER, CITE_BURN, CITE_DAMAGE, CITE_DODGE, CITE_SWEEP,
                       CITE_WARD, Attacker, EldfallScenario)

__all__ = ["play", "DodgeRoll", "dodge_roll"]


class DodgeRoll(NamedTuple):
    """One AG roll against one Attack: what the face is, and whether the Dodge succeeds."""

    kind: Kind
    succeeds: bool


def dodge_roll(face: int, ag: int, best: int, resolution: str, critical: int = CRITICAL_FACE) -> DodgeRoll:
    """The AG roll ``face`` against ``ag`` (a successful face up to ``critical`` a Critical).
    Under ``independent`` any success dodges; under ``compared`` a plain success must also be at
    least ``best``, the attacker's best non-Critical successful die (0 when there is none; a tie
    goes to the dodger), and a Critical beats every die.

    >>> dodge_roll(6, 12, 7, "independent").succeeds, dodge_roll(6, 12, 7, "compared").succeeds
    (True, False)
    """
    kind = attribute_roll(face, ag, critical)
    if kind == "failure":
        return DodgeRoll(kind, False)
    return DodgeRoll(kind, resolution == "independent" or kind == "critical" or face >= best)


def _faces(answer: int | tuple[int, ...]) -> tuple[int, ...]:
    return answer if isinstance(answer, tuple) else (answer,)


def _pool(roller: Roller, purpose: str, count: int,
          classify: Callable[[int | tuple[int, ...]], Hashable]) -> tuple[int, ...]:
    """``count`` d20 as an unordered pool (no request at all for none)."""
    if not count:
        return ()
    return _faces(roller.roll(d20(purpose, classify, count=count, ordered=False)))


def _wounding(threshold: int) -> Callable[[int | tuple[int, ...]], int]:
    """Damage faces act alike when they wound alike: the hint is the number of Wounds."""
    return lambda answer: sum(wounds_on(f, threshold) for f in _faces(answer))


def _attack_class(value: int, compared_with: int | None, critical: int
                  ) -> Callable[[int | tuple[int, ...]], Hashable]:
    """Attack faces act alike with the same Critical Hits and Hits; when the Dodge is compared
    with them (``compared_with`` is the AG), also the same best non-Critical success — up to the
    highest AG face that can succeed, since every best above it beats every plain AG success."""
    kinds = face_kinds(value, critical)
    if compared_with is not None:
        top = max((g for g, k in enumerate(face_kinds(compared_with, critical), 1) if k == "success"),
                  default=1)

    def classify(answer: int | tuple[int, ...]) -> Hashable:
        faces = _faces(answer)
        plain = [f for f in faces if kinds[f - 1] == "success"]
        return (sum(kinds[f - 1] == "critical" for f in faces), len(plain),
                min(max(plain, default=0), top + 1) if compared_with is not None else 0)
    return classify


def _damage(roller: Roller, label: str, crits: int, plain: int, attacker: Attacker, arm: int,
            trace: list[TraceStep]) -> int:
    """Damage rolls for landing Hits (Criticals first), then Burn; the Wounds they cause."""
    crit_faces = _pool(roller, f"{label}: damage rolls for Critical Hits", crits, _wounding(attacker.pw))
    plain_faces = _pool(roller, f"{label}: damage rolls for Hits", plain, _wounding(attacker.pw - arm))
    wounds = sum(wounds_on(f, attacker.pw) for f in crit_faces)
    wounds += sum(wounds_on(f, attacker.pw - arm) for f in plain_faces)
    burn_faces: tuple[int, ...] = ()
    if wounds and attacker.burn:
        burn_faces = _pool(roller, f"{label}: Burn rolls", attacker.burn, _wounding(attacker.pw))
    burned = sum(wounds_on(f, attacker.pw) for f in burn_faces)
    if roller.explain and (crits or plain):
        shown: list[str] = []
        if crit_faces:
            shown.append(f"{list(crit_faces)} for Critical Hits (Wound on {attacker.pw} or less)")
        if plain_faces:
            shown.append(f"{list(plain_faces)} for Hits (Wound on {attacker.pw - arm} or less)")
        if burn_faces:
            shown.append(f"{list(burn_faces)} for Burn (Wound on {attacker.pw} or less)")
        trace.append(TraceStep(f"{label}: damage", "rolled " + "; ".join(shown) +
                               f" → {wounds + burned} Wound(s)" +
                               (f", {burned} of them from Burn" if burned else ""),
                               CITE_BURN if burn_faces else CITE_DAMAGE))
    return wounds + burned


def play(scenario: EldfallScenario, roller: Roller) -> Play:
    """Apply the rules to one concrete roll, every die drawn from ``roller``.

    The play's ``evasions`` are the AG rolls (one per Attack when the defender dodges),
    ``hits`` the Hits landing on the defender; its quantities are ``wounds``, ``ap_lost``
    (Stagger), ``knocked_down``, ``post_dodge_move`` and, when an Attack has Sweep,
    ``second_model_hits`` and ``second_model_wounds``.
    """
    d = scenario.defender
    crit_face, rounding = scenario.variant.critical_face, scenario.variant.halving
    explain = roller.explain
    trace: list[TraceStep] = list(house_rule_steps(scenario)) if explain else []
    evasions: list[bool] = []
    hits = wounds = ap_lost = second_hits = second_wounds = 0
    knocked_down = False
    barrier_up = d.barrier
    compared = d.reaction == "dodge" and scenario.dodge_resolution == "compared"
    for i, a in enumerate(scenario.attackers, 1):
        label = f"Attack {i}"
        value = attack_value(a)
        ag = dodge_value(d, a, rounding) if d.reaction == "dodge" else 0
        faces = _pool(roller, f"{label}: attack dice", attack_dice(a),
                      _attack_class(value, ag if compared else None, crit_face))
        kinds = [attribute_roll(f, value, crit_face) for f in faces]
        crits, plain = kinds.count("critical"), kinds.count("success")
        if explain:
            trace.append(TraceStep(f"{label}: Attack roll", f"{list(faces)} against {a.attribute} "
                                   f"{value} → {crits} Critical Hit(s), {plain} Hit(s)", CITE_ATTACK))
        landing_plain = plain
        if d.reaction == "dodge":
            best = max((f for f, k in zip(faces, kinds) if k == "success"), default=0)
            face = roller.roll(d20(f"{label}: defender's AG roll", lambda g, ag=ag, best=best:
                                   dodge_roll(g, ag, best, scenario.dodge_resolution, crit_face)))
            kind, ok = dodge_roll(face, ag, best, scenario.dodge_resolution, crit_face)
            evasions.append(ok)
            if ok:
                landing_plain = 0
            if explain:
                why = f"AG roll {face} against {ag}: {kind}"
                if compared and kind == "success" and best:
                    why += f"; compared with the best non-Critical attack die {best}"
                trace.append(TraceStep(f"{label}: Dodge", why + (
                    " → the Dodge succeeds: non-Critical Hits and their effects are ignored"
                    if ok else " → the Dodge fails"), CITE_DODGE))
        elif d.reaction == "ward":
            landing_plain = 0
            if explain and plain:
                trace.append(TraceStep(f"{label}: Ward", f"{plain} non-Critical Hit(s) ignored", CITE_WARD))
        landing_crits = crits
        if barrier_up and landing_crits + landing_plain:
            barrier_up = False
            critical = landing_crits > 0
            if critical:
                landing_crits -= 1
            else:
                landing_plain -= 1
            if explain:
                trace.append(TraceStep(f"{label}: Protective Barrier", "negates one "
                                       f"{'Critical ' if critical else ''}Hit and is removed",
                                       CITE_BARRIER))
        landed = landing_crits + landing_plain
        hits += landed
        wounds += _damage(roller, label, landing_crits, landing_plain, a, d.arm, trace)
        if landed and effects_apply(a.size, d.size):
            if a.stagger:
                ap_lost += landed
            if a.knockdown:
                knocked_down = True
        if a.sweep and crits + plain:
            critical = scenario.sweep_hit == "critical" and crits > 0
            second_hits += 1
            if explain:
                trace.append(TraceStep(f"{label}: Sweep", "the Attack roll succeeded: the second "
                                       f"model suffers a {'Critical ' if critical else ''}Hit",
                                       CITE_SWEEP))
            second_wounds += _damage(roller, f"{label}: Sweep on the second model", int(critical),
                                     int(not critical), a, scenario.second_model.arm, trace)
    quantities: dict[str, Hashable] = {
        "wounds": wounds, "ap_lost": ap_lost, "knocked_down": knocked_down,
        "post_dodge_move": move_label(scenario, any(evasions))}
    if any(a.sweep for a in scenario.attackers):
        quantities["second_model_hits"] = second_hits
        quantities["second_model_wounds"] = second_wounds
    return Play(outcome_label(hits, wounds), hits, tuple(evasions), quantities, tuple(trace))
