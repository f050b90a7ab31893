"""The Infinity N4 Dodge Order, written once on concrete dice faces.

:func:`play` takes an :class:`~rules_core.systems.infinity.OrderPlan` and a *roller* that hands
out d20 faces one at a time (the dodge die; then, roll by roll, the attacker's dice and the
Saving Rolls its hits call for; then the Guts die if one is rolled) and returns the
:class:`OrderOutcome` with the trace of what happened. The same function serves three uses, so they cannot disagree:

- :func:`play_faces`: one Order on faces you give (the rulebook's worked examples);
- :func:`roll_once`: one random Order, to step through;
- :func:`enumerate_order`: every possible roll, exhaustively — the truth the fast path in
  :mod:`rules_core.systems.infinity` is tested against.

The enumerator walks the tree of dice actually rolled (a Saving Roll is only rolled for a hit
that landed). Every die enters the Order only through its one-die rule: the dodge die through its
ranks (:func:`~.infinity.roll_rank`) against each roll's SV, an attack die through its rank, a
Saving Roll through :func:`~.infinity.saving_roll_wounds`, the Guts die through
:func:`~.infinity.normal_roll_succeeds`. So by default the enumerator applies that rule to each of
the 20 faces and follows each different answer once, weighted by how many faces gave it;
``group=False`` follows every face of every die (the tests check that both agree).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from ..dist import Dist
from ..enumerate import enumerate_rule
from ..result import TraceStep
from .infinity import (
    CITE_DODGE_MOVE, CITE_F2F, CITE_GUTS, CITE_ROLLS, CITE_SAVES, CITE_WOUNDS, CRIT, DODGED, FACES,
    HIT_NO_EFFECT, HIT_NO_GUTS, HIT_PASSES, NO_HIT, NULL_STATE, UNHARMED_STAYS, InfinityScenario,
    OrderPlan, dodged_label, guts_failed_label, hits_label, normal_roll_succeeds, plan_order,
    resolve_face_to_face, roll_label, roll_rank, saving_roll_wounds)

__all__ = ["RollOutcome", "OrderOutcome", "play", "play_faces", "roll_once", "enumerate_order"]

#: ``roller(what, classify)`` returns one d20 face; ``what`` names the die; ``classify`` is the
#: one-die rule through which alone that face matters (faces it maps alike act alike).
Roller = Callable[[str, Callable[[int], Hashable]], int]


@dataclass(frozen=True)
class RollOutcome:
    """What one comparison of the dodge die came to."""

    name: str
    ok: bool
    hits: int
    crits: int
    wounds: int
    label: str


@dataclass(frozen=True)
class OrderOutcome:
    """One Order on concrete faces: the dodge, every roll's result, wounds, the final state."""

    dodge_face: int | None
    rolls: tuple[RollOutcome, ...]
    dodged: bool
    hits: int
    crits: int
    wounds: int
    outcome: str
    final: str
    trace: tuple[TraceStep, ...]

    def key(self) -> tuple:
        """Everything but the faces and the trace: what the exact results are compared on."""
        return (self.outcome, self.hits, self.crits, self.wounds, self.final,
                tuple((r.label, r.hits, r.wounds) for r in self.rolls))


def play(plan: OrderPlan, roller: Roller, *, explain: bool = True) -> OrderOutcome:
    """The whole Order on the faces ``roller`` hands out (see the module docstring). With
    ``explain=False`` no trace is written (the enumerator's fast lane)."""
    trace: list[TraceStep] = []
    face = roller("dodge die", lambda f: tuple(roll_rank(f, r.sv_dodge) for r in plan.rolls)) \
        if plan.dodges else None
    if explain and face is not None:
        trace.append(TraceStep("Dodge die", f"{face}", CITE_ROLLS))
    results = []
    for roll in plan.rolls:
        if roll.kind == "f2f":
            sv_attack = roll.sv_attack
            faces = [roller(roll.name, lambda f: roll_rank(f, sv_attack)) for _ in range(roll.dice)]
            kept_d, kept_a = resolve_face_to_face([] if face is None else [face], roll.sv_dodge,
                                                  faces, roll.sv_attack)
            ok, hits, crits = bool(kept_d), len(kept_a), kept_a.count(CRIT)
            if explain:
                trace.append(TraceStep(roll.name, f"dodge SV {roll.sv_dodge} against SV "
                                       f"{roll.sv_attack}, faces {', '.join(map(str, faces))}: the "
                                       f"dodger keeps {len(kept_d)}, the attacker keeps {hits} "
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
            for _ in range(hits * roll.saves + crits):
                save = roller("Saving Roll", lambda f: saving_roll_wounds(f, threshold))
                wounds += saving_roll_wounds(save, threshold)
            if explain and hits:
                trace.append(TraceStep(f"Saving Rolls ({roll.name})", f"{hits * roll.saves + crits} "
                                       f"rolls, {wounds} at or under {threshold}: {wounds} wounds",
                                       CITE_SAVES))
        results.append(RollOutcome(roll.name, ok, hits, crits, wounds, roll_label(roll, ok, hits, crits)))

    dodged = plan.dodges and all(r.ok for r in results)
    hits = sum(r.hits for r in results)
    crits = sum(r.crits for r in results)
    wounds = sum(r.wounds for r in results)
    outcome = DODGED if dodged else NO_HIT if hits == 0 else hits_label(hits)
    # States at the end of the Order: only a dodger that succeeded against everything moves.
    if dodged:
        engaged = plan.after_dodge == "engage" or (plan.after_dodge == "stay" and plan.engaged)
        immobilized = "no"  # a successful dodge cancels IMM-A (IMM-B cannot dodge)
        if explain:
            trace.append(TraceStep("Movement", dodged_label(plan), CITE_DODGE_MOVE))
    else:
        engaged, immobilized = plan.engaged, plan.immobilized
    guts_hit = any(r.hits and roll.guts for r, roll in zip(results, plan.rolls))
    guts_face = None
    if wounds >= plan.wounds:
        final = NULL_STATE
    elif hits == 0:
        final = dodged_label(plan) if dodged else UNHARMED_STAYS
    elif not guts_hit:
        final = HIT_NO_EFFECT
    elif engaged or immobilized != "no":
        final = HIT_NO_GUTS
    elif plan.guts_decision == "fail":
        final = guts_failed_label(plan)
    else:
        guts_face = roller("Guts die", lambda f: normal_roll_succeeds(f, plan.guts_sv))
        final = HIT_PASSES if normal_roll_succeeds(guts_face, plan.guts_sv) else guts_failed_label(plan)
    if explain:
        if final == NULL_STATE:
            trace.append(TraceStep("Null", f"{wounds} wounds against W {plan.wounds}", CITE_WOUNDS))
        elif guts_face is not None:
            trace.append(TraceStep("Guts Roll", f"WIP {plan.guts_sv}, face {guts_face}: "
                                   f"{'passed' if final == HIT_PASSES else 'failed'}", CITE_GUTS))
        trace.append(TraceStep("Final state", final, CITE_GUTS if hits else CITE_DODGE_MOVE))
    return OrderOutcome(face, tuple(results), dodged, hits, crits, wounds, outcome, final, tuple(trace))


def _plan(scenario: InfinityScenario | OrderPlan) -> OrderPlan:
    return scenario if isinstance(scenario, OrderPlan) else plan_order(scenario)


def play_faces(scenario: InfinityScenario | OrderPlan, faces: Sequence[int]) -> OrderOutcome:
    """The Order on the given faces, in the order :func:`play` asks for them; too few faces is
    an error, and so are faces left over."""
    pending = list(faces)

    def roller(what: str, _classify) -> int:
        if not pending:
            raise ValueError(f"no face left for the {what}")
        face = pending.pop(0)
        if not 1 <= face <= FACES:
            raise ValueError(f"the {what} shows {face}; a d20 face is 1..20")
        return face

    outcome = play(_plan(scenario), roller)
    if pending:
        raise ValueError(f"{len(pending)} faces left over: {pending}")
    return outcome


def roll_once(scenario: InfinityScenario | OrderPlan, rng: random.Random) -> OrderOutcome:
    """One random Order (the caller owns and seeds ``rng``)."""
    return play(_plan(scenario), lambda _what, _classify: rng.randint(1, FACES))


def enumerate_order(scenario: InfinityScenario | OrderPlan, *, group: bool = True,
                    summary: Callable[[OrderOutcome], Hashable] = OrderOutcome.key) -> Dist:
    """Exact distribution of ``summary(outcome)`` over every possible roll of the Order. With
    ``group``, the faces a die's own rule treats alike (``classify``) are walked once, weighted."""
    plan = _plan(scenario)

    def branches(classify) -> list[tuple[int, int, int]]:
        if not group:
            return [(face, 1, 1) for face in range(1, FACES + 1)]
        classes: dict[Hashable, list[int]] = {}
        for face in range(1, FACES + 1):
            classes.setdefault(classify(face), []).append(face)
        return [(faces[0], len(faces), 1) for faces in classes.values()]

    return enumerate_rule(lambda ask: play(plan, lambda _what, classify: ask(classify), explain=False),
                          branches, summary, sides=FACES)
