"""The fast exact algorithm: the same rule as :mod:`.play` (planned with its functions: which
roll gets which modifier), computed over distributions instead of concrete dice.

An attack's 3d6 rolls (attack, Acrobatics, Dodge) are summed over their 16 totals each, giving
each attack's outcomes as integer weights over 216³. A turn of attacks is a chain whose only
memory is whether a dodge and drop has been made (which changes the Dodge, the foe's skill and
the cover of later attacks), so hits and evasion rolls follow by a forward pass over that state.

Injury is a sum over landing hits, each hit's injury an independent draw. Generating functions
do the convolutions: a distribution over injury 0..L with integer weights is packed into one
Python integer, one fixed-width slot per injury value (Kronecker substitution, with
:mod:`rules_core.poly`), so multiplying two integers convolves the distributions exactly, and
Σₖ P(k hits) · f^k is a Horner evaluation.
Every weight is a count of dice outcomes, so each slot is wide enough for the whole turn's
number of outcomes and nothing ever carries into the next slot.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache
from math import prod
from types import MappingProxyType
from typing import NamedTuple

from ...dist import Dist
from ...poly import pack, unpack
from ...result import Result, TraceStep
from ...scenario import fields_of
from ...variants import house_rule_steps
from . import sources as cite
from .damage import hit_injury, major_wound, parse_damage
from .dice import (ROLL_3D6, TOTALS, WAYS, SuccessRoll, describe_success_roll, hits_avoided, hits_scored,
                   success_roll, undefendable)
from .outcomes import (ALL_DODGED, BOTH_HIT, CAUGHT, DODGER_HIT, DR_COVER, FARTHER, FRIEND_DEFENDS, FRIEND_HIT,
                       FULL_COVER, HEADLINES, NEITHER, NO_HIT, NO_INJURY, OUT_OF_REACH, SMOTHERED, STILL_IN_AREA,
                       LEFT_ALONE, STAYED, TOO_SLOW, ladder_label, outcome_order)
from .play import (AttackContext, AttackHits, attack_context, base_dodge, blast_hit, blast_reaches, defense_option,
                   dodge_score, ends_prone, sacrificial_context)
from .scenario import SYSTEM_ID, GurpsScenario, GurpsVariant

__all__ = ["evaluate", "headline", "attack_outcomes", "evasion_rolls", "attack_steps", "sum_of_hits", "Step",
           "EvasionRoll"]

ROLL = WAYS  # ways 3d6 can fall


# -- rolls as weights ------------------------------------------------------------------------

def attack_outcomes(ctx: AttackContext, scenario: GurpsScenario) -> Mapping[AttackHits, int]:
    """Hits and critical hit → weight over 216 for the attack in ``ctx`` (read only: a table
    shared between callers cannot be changed)."""
    attack = scenario.attacks[ctx.index]
    if ctx.blocked or (attack.hits_by == "roll" and ctx.skill.value < 3):
        return MappingProxyType({AttackHits(0, False): ROLL})
    if attack.hits_by == "fixed":
        return MappingProxyType({AttackHits(attack.hits, False): ROLL})
    return _rolled_hits(ctx.skill.value, attack.rof, attack.recoil, scenario.variant)


@lru_cache(maxsize=1024)
def _rolled_hits(skill: int, rof: int, recoil: int, rules: GurpsVariant) -> Mapping[AttackHits, int]:
    """:func:`attack_outcomes` of an attack roll against ``skill`` (shared by the scenarios of a
    sweep, most of which roll the same attack, hence read only)."""
    out: Counter = Counter()
    for total in TOTALS:
        roll = success_roll(total, skill, rules)
        out[AttackHits(hits_scored(roll, rof, recoil), roll.success and roll.critical)] += ROLL_3D6.weight(total)
    return MappingProxyType(dict(out))


class EvasionRoll(NamedTuple):
    """A Dodge roll and its weight over 216² (Acrobatics roll included)."""

    roll: SuccessRoll
    weight: int


def evasion_rolls(score: int, scenario: GurpsScenario) -> tuple[EvasionRoll, ...]:
    """Every Dodge roll against ``score`` with its weight over 216² (an acrobatic dodge's
    Acrobatics roll first moves the score by ±2; otherwise the weight is scaled by 216)."""
    dodger = scenario.dodger
    return _evasion_rolls(score, dodger.acrobatics if dodger.acrobatic else None, scenario.variant)


@lru_cache(maxsize=1024)
def _evasion_rolls(score: int, acrobatics: int | None, rules: GurpsVariant) -> tuple[EvasionRoll, ...]:
    """:func:`evasion_rolls` (``acrobatics``: the skill of an acrobatic dodge, else None)."""
    if acrobatics is not None:
        made = sum(ROLL_3D6.weight(t) for t in TOTALS if success_roll(t, acrobatics, rules).success)
        branches = ((score + 2, made), (score - 2, ROLL - made))
    else:
        branches = ((score, ROLL),)
    return tuple(EvasionRoll(success_roll(total, value, rules), weight * ROLL_3D6.weight(total))
                 for value, weight in branches if weight for total in TOTALS)


class Step(NamedTuple):
    """What one attack came to: hits ``landed`` and ``dodged``, the evasion roll (``None`` when
    none was made, else its success), whether a dodge and drop has been made after it, and
    whether any hit ``arrived``."""

    landed: int
    dodged: int
    rolled: bool | None
    dropped: bool
    arrived: bool


def attack_steps(ctx: AttackContext, scenario: GurpsScenario) -> dict[Step, int]:
    """One attack's outcomes as weights over 216³."""
    option = defense_option(scenario)
    out: Counter = Counter()
    for (hits, critical), weight in attack_outcomes(ctx, scenario).items():
        free = undefendable(hits, critical, scenario.crit_hit)
        if hits == free or option == "none":
            out[Step(hits, 0, None, ctx.dropped, hits > 0)] += weight * ROLL * ROLL
            continue
        dropped = ctx.dropped or option == "dodge_and_drop"
        for roll, rw in evasion_rolls(ctx.dodge.value, scenario):
            avoided = hits_avoided(roll, hits - free, scenario.crit_dodge)
            out[Step(hits - avoided, avoided, roll.success, dropped, True)] += weight * rw
    return dict(out)


# -- generating functions packed into integers (rules_core.poly) --------------------------------------

def _bits(largest_weight: int) -> int:
    """Bits per slot so that no weight up to ``largest_weight`` carries into the next slot."""
    return largest_weight.bit_length() + 1


def _pack(weights: dict[int, int], bits: int) -> int:
    """Weights over injury values 0..L as one integer (slot j holds the weight of j)."""
    if not weights:
        return 0
    return pack([weights.get(v, 0) for v in range(max(weights) + 1)], bits)


def _unpack(packed: int, bits: int) -> dict[int, int]:
    """The nonzero slots of a packed distribution."""
    if not packed:
        return {}
    slots = unpack(packed, bits, -(-packed.bit_length() // bits))
    return {v: w for v, w in enumerate(slots) if w}


def _per_hit(dist: Dist, space: int, keep: Callable[[int], bool] = lambda v: True) -> dict[int, int]:
    """A hit's injury weights over ``space`` (a multiple of the distribution's denominator)."""
    scale = space // dist.denominator
    return {v: dist.weight(v) * scale for v in dist.outcomes() if keep(v)}


def _hits_sum(by_hits: dict[int, int], per_hit: int, space: int, most: int) -> int:
    """Σ_{k ≥ 1} w_k · f^k · space^(most − k), by Horner's rule (f packed in ``per_hit``)."""
    acc = 0
    for k in range(most, 0, -1):
        acc = acc * per_hit + by_hits.get(k, 0) * space ** (most - k)
    return acc * per_hit


class InjurySum(NamedTuple):
    """Total injury over several hits, and the probability that some hit was a major wound."""

    injury: Dist
    p_major: Fraction


def sum_of_hits(by_hits: dict[int, int], injury: Dist, hp: int, wounds: bool) -> InjurySum:
    """Total injury over a random number of independent hits (``by_hits``: k → weight) and the
    probability that at least one hit is a major wound (over HP/2); ``wounds`` False for FP."""
    most = max(by_hits)
    den = sum(by_hits.values())
    space = injury.denominator
    bits = _bits(den * space ** most)
    f = _pack(_per_hit(injury, space), bits)
    m = _pack(_per_hit(injury, space, lambda v: not (wounds and major_wound(v, hp))), bits)
    none = by_hits.get(0, 0) * space ** most
    all_minor = _hits_sum(by_hits, m, space, most) + none
    every = _hits_sum(by_hits, f, space, most) + none
    total = den * space ** most
    return InjurySum(Dist(_unpack(every, bits)), Fraction(total - sum(_unpack(all_minor, bits).values()), total))


# -- the situations -------------------------------------------------------------------------------

def _rulings_trace(scenario: GurpsScenario) -> list[TraceStep]:
    """Every ruling, with the reading chosen (only those the situation can touch)."""
    relevant = {"attacks": ("carry", "crit_dodge", "crit_hit"), "sacrificial": ("crit_dodge", "crit_hit"),
                "smother": ("smother_damage",), "dive": ()}[scenario.situation]
    return [TraceStep(f"Ruling: {spec.label}", f"{getattr(scenario, spec.name)} — "
                      f"{dict(spec.choices)[getattr(scenario, spec.name)]}", cite.RULINGS)
            for spec in fields_of(GurpsScenario) if spec.name in relevant]


def _dodge_trace(scenario: GurpsScenario, kind: str, dropped: bool, where: str = "") -> list[TraceStep]:
    """The Dodge's modifiers against one attack (the base Dodge is traced once, apart)."""
    base = set(base_dodge(scenario).steps)
    steps = [step for step in dodge_score(scenario, kind, dropped).steps if step not in base]
    if scenario.dodger.acrobatic:
        steps.append(TraceStep("Acrobatic dodge", f"Acrobatics {scenario.dodger.acrobatics} rolled first: +2 "
                               "to this Dodge on a success, −2 on a failure", cite.ACROBATIC))
    return [TraceStep(f"{where}: {t.rule}" if where else t.rule, t.detail, t.citation) for t in steps]


def _attack_trace(s: GurpsScenario, ctx: AttackContext, where: str) -> list[TraceStep]:
    attack = s.attacks[ctx.index]
    if attack.hits_by == "fixed":
        steps = [TraceStep("Hits", f"{attack.hits} hit(s) reach the dodger (no attack roll)", cite.RAPID_FIRE)]
    else:
        steps = list(ctx.skill.steps)
    if ctx.blocked:
        steps = list(ctx.steps)
    elif defense_option(s) == "none":
        steps += [TraceStep("No defense", "the dodger makes no active defense", cite.DODGE), *ctx.steps]
    else:
        steps += [*_dodge_trace(s, attack.kind, ctx.dropped), *ctx.steps]
    steps.append(TraceStep("Injury per hit", ctx.hit.describe(), cite.WOUNDING))
    return [TraceStep(f"{where}: {t.rule}", t.detail, t.citation) for t in steps]


def _evasion_headline(rolled: Fraction, all_ok: Fraction, scenario: GurpsScenario) -> tuple[dict, dict]:
    """p_dodge_succeeds: every evasion roll made succeeds, given one is made (null if none can be)."""
    if rolled:
        return {"p_dodge_succeeds": all_ok / rolled}, {}
    if defense_option(scenario) == "none":
        why = "The dodger makes no active defense, so no evasion roll is made."
    else:
        why = "No hit ever arrives that the dodger may defend against (misses, critical hits or blocked attacks)."
    return {"p_dodge_succeeds": None}, {"p_dodge_succeeds": why}


def _headlines(scenario: GurpsScenario, *, rolled: Fraction, all_ok: Fraction, hits: Dist, injury: Dist,
               p_major: Fraction, p_friend_hit: Fraction = Fraction(0),
               friend_injury: Dist | None = None) -> tuple[dict, dict]:
    """Every headline quantity and the notes on those that are null; a GURPS headline that does
    not apply to the scenario (its definition's ``applies``) is null with that reason."""
    headline, notes = _evasion_headline(rolled, all_ok, scenario)
    headline |= {"p_no_hit": hits[0], "expected_hits": hits.mean(), "expected_injury": injury.mean(),
                 "p_down": injury.at_least(scenario.pool().left), "p_major_wound": p_major,
                 "p_friend_hit": p_friend_hit,
                 "expected_friend_injury": friend_injury.mean() if friend_injury is not None else None}
    for name, definition in HEADLINES.items():
        why = definition.applies(scenario) if definition.applies else None
        if why:
            headline[name] = None
            notes[name] = why
    return headline, notes


def _bool_dist(p: Fraction) -> Dist:
    return Dist({True: p.numerator, False: p.denominator - p.numerator})


class TurnState(NamedTuple):
    """Where a turn of attacks stands after some attacks: a dodge and drop made, the evasion rolls
    so far (0 none made, 1 all made, 2 some failed), hits landed, and whether any hit arrived."""

    dropped: bool
    status: int
    landed: int
    arrived: bool


class Dodged(NamedTuple):
    """A dodge and drop made, and the hits dodged so far."""

    dropped: bool
    dodged: int


class InjuryState(NamedTuple):
    """A dodge and drop made, and whether some hit so far was a major wound."""

    dropped: bool
    major: bool


class Move(NamedTuple):
    """An attack's effect on the packed injury: after it a drop has been made or not; the
    polynomial of staying minor, of turning major, and of everything."""

    dropped: bool
    stays_minor: int
    turns_major: int
    everything: int


class AttackTurn(NamedTuple):
    """What a turn of attacks comes to, before its trace: the attacks' contexts (by attack, then
    by whether a dodge and drop was made before it), the hits and injury, the headline and its
    notes, and the chance of ending the turn dropped; ``outcomes`` and ``hits_dodged`` are None
    when only the headline was asked for."""

    contexts: list[dict[bool, AttackContext]]
    hits: Dist
    injury: Dist
    headline: dict[str, Fraction | None]
    notes: dict[str, str]
    dropped_at_end: Fraction
    outcomes: Dist | None
    hits_dodged: Dist | None


def _attack_turn(s: GurpsScenario, detailed: bool) -> AttackTurn:
    """A turn of attacks; without ``detailed``, the outcome labels and the hits dodged are left
    out (what a sweep's headline needs at each point does not need them)."""
    n = len(s.attacks)
    drop = defense_option(s) == "dodge_and_drop"
    # Whether a dodge and drop was already made matters only from the second attack on.
    contexts = [{d: attack_context(s, i, d) for d in ((False, True) if i and drop else (False,))}
                for i in range(n)]
    steps = [{d: attack_steps(ctx, s) for d, ctx in by_state.items()} for by_state in contexts]
    total = (ROLL ** 3) ** n

    # Hits and evasion rolls.
    state: Counter = Counter({TurnState(False, 0, 0, False): 1})
    dodged_state: Counter = Counter({Dodged(False, 0): 1})
    for i in range(n):
        new: Counter = Counter()
        for at, w in state.items():
            for step, sw in steps[i][at.dropped].items():
                now = at.status if step.rolled is None else (2 if at.status == 2 or not step.rolled else 1)
                new[TurnState(step.dropped, now, at.landed + step.landed, at.arrived or step.arrived)] += w * sw
        state = new
        if not detailed:
            continue
        new = Counter()
        for at, w in dodged_state.items():
            for step, sw in steps[i][at.dropped].items():
                new[Dodged(step.dropped, at.dodged + step.dodged)] += w * sw
        dodged_state = new
    hits = Dist((at.landed, w) for at, w in state.items())
    rolled = Fraction(sum(w for at, w in state.items() if at.status), total)
    all_ok = Fraction(sum(w for at, w in state.items() if at.status == 1), total)
    dropped_at_end = Fraction(sum(w for at, w in state.items() if at.dropped), total)
    never_arrived = sum(w for at, w in state.items() if not at.arrived)
    none_landed = sum(w for at, w in state.items() if not at.landed)

    # Injury: by InjuryState, a packed distribution of total injury. Each attack moves it by
    # Σ_k P(k hits land) · f^k, split into "every hit minor" (m^k) and "some hit major"
    # (f^k − m^k), with every weight scaled to 216³ · 6^(dice · most hits).
    most = [max(step.landed for by in steps[i].values() for step in by) for i in range(n)]
    spaces = [6 ** parse_damage(s.attacks[i].damage).dice for i in range(n)]
    bits = _bits(total * prod(spaces[i] ** most[i] for i in range(n)))
    pool = s.pool()
    hp, wounds = s.target.hp, pool.name == "HP"
    polys: dict[InjuryState, int] = {InjuryState(False, False): 1}
    for i in range(n):
        c, K = spaces[i], most[i]
        moves: dict[bool, list[Move]] = {}
        for dropped, ctx in contexts[i].items():
            by_after: dict[bool, Counter] = defaultdict(Counter)
            for step, sw in steps[i][dropped].items():
                by_after[step.dropped][step.landed] += sw
            per_hit = hit_injury(ctx.hit)
            f = _pack(_per_hit(per_hit, c), bits)
            m = _pack(_per_hit(per_hit, c, lambda v: not (wounds and major_wound(v, hp))), bits)
            moves[dropped] = []
            for after, weights in by_after.items():
                none = weights.get(0, 0) * c ** K
                minor, every = _hits_sum(weights, m, c, K), _hits_sum(weights, f, c, K)
                moves[dropped].append(Move(after, none + minor, every - minor, none + every))
        new_polys: dict[InjuryState, int] = defaultdict(int)
        for (dropped, major), poly in polys.items():
            for move in moves[dropped]:
                if major:
                    new_polys[InjuryState(move.dropped, True)] += poly * move.everything
                    continue
                if move.stays_minor:
                    new_polys[InjuryState(move.dropped, False)] += poly * move.stays_minor
                if move.turns_major:
                    new_polys[InjuryState(move.dropped, True)] += poly * move.turns_major
        polys = new_polys

    injury: Counter = Counter()
    outcomes: Counter = Counter()
    major_weight = 0
    for (_, major), poly in polys.items():
        for value, w in _unpack(poly, bits).items():
            injury[value] += w
            major_weight += w if major else 0
            if value and detailed:  # injury means a hit landed; 0 is split below by what happened
                outcomes[ladder_label(True, True, value, major and wounds, pool.left, pool.name)] += w
    # Totals of injury 0 are split with the hit counts (scaled to the injury's denominator).
    scale = sum(injury.values()) // total
    outcomes[NO_HIT] += never_arrived * scale
    outcomes[ALL_DODGED] += (none_landed - never_arrived) * scale
    outcomes[NO_INJURY] += injury[0] - none_landed * scale
    injury_dist = Dist(injury)
    headline, notes = _headlines(s, rolled=rolled, all_ok=all_ok, hits=hits, injury=injury_dist,
                                 p_major=Fraction(major_weight, sum(injury.values())))
    return AttackTurn(contexts, hits, injury_dist, headline, notes, dropped_at_end,
                      Dist(outcomes) if detailed else None,
                      Dist((at.dodged, w) for at, w in dodged_state.items()) if detailed else None)


def _evaluate_attacks(s: GurpsScenario) -> Result:
    """A turn of attacks: its result, with the trace."""
    turn = _attack_turn(s, detailed=True)
    n = len(s.attacks)
    trace = [*house_rule_steps(s),
             TraceStep("Situation", f"{n} attack(s) from one foe this turn, in order; defense: "
                       f"{defense_option(s)}", cite.DROP), *_rulings_trace(s), *base_dodge(s).steps]
    for i, by_state in enumerate(turn.contexts):
        for dropped, ctx in by_state.items():
            trace += _attack_trace(s, ctx, f"Attack {i + 1}" + (" after the dodge and drop" if dropped else ""))
    if any((a.rof if a.hits_by == "roll" else a.hits) > 1 for a in s.attacks):
        trace.append(TraceStep("Dodging rapid fire", "a successful Dodge avoids one hit plus one per point of "
                               "margin, at most the hits that arrived", cite.RAPID_DODGE))
    trace.append(TraceStep("Critical success and failure", describe_success_roll(s.variant), cite.CRITICAL))
    return Result(system=SYSTEM_ID, scenario=s, outcomes=turn.outcomes, outcome_order=outcome_order(s),
                  hits=turn.hits, headline=turn.headline, notes=turn.notes, trace=tuple(trace),
                  distributions={"injury": turn.injury, "hits_dodged": turn.hits_dodged,
                                 "ends_prone": _bool_dist(turn.dropped_at_end if ends_prone(s) else Fraction(0))})


def _attacks_headline(s: GurpsScenario) -> dict[str, Fraction | None]:
    """A turn of attacks' headline alone, without the outcome labels, the hits dodged and the
    trace (what a sweep needs at each point)."""
    return _attack_turn(s, detailed=False).headline


class Sacrifice(NamedTuple):
    """One way a sacrificial dodge ends: its outcome label, hits on the dodger and on the friend,
    and the dodger's evasion roll (``None`` when none was made, else its success)."""

    label: str
    dodger_hits: int
    friend_hits: int
    rolled: bool | None


def _evaluate_sacrificial(s: GurpsScenario) -> Result:
    ctx = sacrificial_context(s)
    friend = s.friend
    drop = defense_option(s) == "dodge_and_drop"
    out: Counter = Counter()  # Sacrifice → weight over 216^4
    friend_rolls = ([(success_roll(t, friend.defense, s.variant), ROLL_3D6.weight(t)) for t in TOTALS]
                    if friend.defends else [(None, ROLL)])
    for (hits, critical), weight in attack_outcomes(ctx, s).items():
        if not hits:
            out[Sacrifice(NO_HIT, 0, 0, None)] += weight * ROLL ** 3
            continue
        free = undefendable(hits, critical, s.crit_hit)
        defendable = hits - free
        if not defendable:
            out[Sacrifice(FRIEND_HIT, 0, free, None)] += weight * ROLL ** 3
            continue
        if defense_option(s) == "none":  # no sacrificial dodge: the friend alone defends
            for froll, fw in friend_rolls:
                avoided = hits_avoided(froll, defendable, s.crit_dodge) if froll else 0
                struck = free + defendable - avoided
                out[Sacrifice(FRIEND_HIT if struck else FRIEND_DEFENDS, 0, struck, None)] += weight * ROLL ** 2 * fw
            continue
        for roll, rw in evasion_rolls(ctx.dodge.value, s):
            if roll.success:
                taken = 0 if drop and roll.margin >= 3 else defendable
                label = BOTH_HIT if taken and free else DODGER_HIT if taken else FRIEND_HIT if free else NEITHER
                out[Sacrifice(label, taken, free, True)] += weight * rw * ROLL
                continue
            for froll, fw in friend_rolls:
                avoided = hits_avoided(froll, defendable, s.crit_dodge) if froll else 0
                struck = free + defendable - avoided
                out[Sacrifice(FRIEND_HIT if struck else FRIEND_DEFENDS, 0, struck, False)] += weight * rw * fw
    total = ROLL ** 4
    hits = Dist((way.dodger_hits, w) for way, w in out.items())
    friend_hits: Counter = Counter()
    for way, w in out.items():
        friend_hits[way.friend_hits] += w
    rolled = Fraction(sum(w for way, w in out.items() if way.rolled is not None), total)
    all_ok = Fraction(sum(w for way, w in out.items() if way.rolled), total)
    wounds = s.pool().name == "HP"
    injury, p_major = sum_of_hits({k: hits.weight(k) for k in hits.outcomes()}, hit_injury(ctx.hit),
                                  s.target.hp, wounds)
    friend_injury = sum_of_hits(dict(friend_hits), hit_injury(s.friend_hit()), friend.hp, wounds).injury
    headline, notes = _headlines(s, rolled=rolled, all_ok=all_ok, hits=hits, injury=injury, p_major=p_major,
                                 p_friend_hit=Fraction(total - friend_hits[0], total), friend_injury=friend_injury)
    friend_defense = (f"the friend defends with Dodge {friend.defense}" if friend.defends
                      else "the friend is hit (no defense)")
    if defense_option(s) == "none":
        dodge_steps = [TraceStep("Situation", "the attack is aimed at a friend a step away; the dodger makes "
                                 "no sacrificial dodge", cite.SACRIFICIAL),
                       *_rulings_trace(s),
                       *[TraceStep(f"Attack: {t.rule}", t.detail, t.citation) for t in ctx.skill.steps],
                       TraceStep("No sacrificial dodge", friend_defense, cite.SACRIFICIAL)]
    else:
        dodge_steps = [TraceStep("Situation", "the attack is aimed at a friend a step away; the dodger tries a "
                                 + ("sacrificial dodge and drop" if drop else "sacrificial dodge"), cite.SACRIFICIAL),
                       *_rulings_trace(s), *base_dodge(s).steps,
                       *[TraceStep(f"Attack: {t.rule}", t.detail, t.citation) for t in ctx.skill.steps],
                       *_dodge_trace(s, s.attacks[0].kind, False, "Sacrificial dodge"),
                       TraceStep("Sacrificial dodge", "success: the dodger takes the hit(s)"
                                 + ("; success by 3 or more: neither is hit; both end prone" if drop else ""),
                                 cite.SACRIFICIAL),
                       TraceStep("If it fails", friend_defense, cite.SACRIFICIAL)]
    trace = [*house_rule_steps(s), *dodge_steps,
             TraceStep("Critical hit", "no defense at all, not even a sacrificial one, against its "
                       + ("hits" if s.crit_hit == "all" else "first hit") + ": they strike the friend", cite.CRIT_HIT),
             TraceStep("Injury per hit on the dodger", ctx.hit.describe(), cite.WOUNDING),
             TraceStep("Injury per hit on the friend", s.friend_hit().describe(), cite.WOUNDING)]
    prone = Fraction(rolled) if ends_prone(s) else Fraction(0)
    return Result(system=SYSTEM_ID, scenario=s, outcomes=Dist((way.label, w) for way, w in out.items()),
                  outcome_order=outcome_order(s), hits=hits, headline=headline, notes=notes,
                  trace=tuple(trace),
                  distributions={"injury": injury, "friend_injury": friend_injury,
                                 "ends_prone": _bool_dist(prone)})


class Chance(NamedTuple):
    """Weights (over 216²) of the one Dodge roll against a blast succeeding and failing."""

    made: int
    failed: int


def _dodge_chance(s: GurpsScenario) -> Chance:
    """The dive's or the smother's one Dodge roll (none made when the dodger does not react)."""
    if defense_option(s) == "none":
        return Chance(0, ROLL * ROLL)
    made = sum(w for roll, w in evasion_rolls(dodge_score(s, "blast", False).value, s) if roll.success)
    return Chance(made, ROLL * ROLL - made)


def _rolled(s: GurpsScenario) -> Fraction:
    """The chance that the one Dodge roll against a blast is made: always, unless the dodger does
    not react."""
    return Fraction(0) if defense_option(s) == "none" else Fraction(1)


def _blast_dist(s: GurpsScenario, distance: int, cover_dr: int = 0, *, friend: bool = False) -> Dist:
    return hit_injury(blast_hit(s, distance, cover_dr, friend=friend)) if blast_reaches(s, distance) \
        else Dist.certain(0)


def _blast_trace(s: GurpsScenario, what: str) -> list[TraceStep]:
    blast = s.blast
    dodge = [] if defense_option(s) == "none" else [*base_dodge(s).steps, *_dodge_trace(s, "blast", False, "The dive")]
    return [*house_rule_steps(s),
            TraceStep("Situation", what, cite.DIVE if s.situation == "dive" else cite.SACRIFICIAL),
            *_rulings_trace(s), *dodge,
            TraceStep("Blast", f"{blast.damage} {blast.damage_type}, " + (
                f"÷ (3 × yards) at a distance, nothing beyond {2 * parse_damage(blast.damage).dice} yards"
                if blast.spread == "explosion" else "the same throughout the area"), cite.EXPLOSION),
            TraceStep("Large-area injury", "a blast uses torso wounding and the DR given for the target",
                      cite.LARGE_AREA)]


def _p_major(s: GurpsScenario, chance: Chance, if_made: Dist, if_failed: Dist) -> Fraction:
    """P(the one blast's injury is a major wound), made or failed."""
    def major(v: int) -> bool:
        return major_wound(v, s.target.hp)
    total = chance.made + chance.failed
    return (Fraction(chance.made, total) * if_made.probability(major)
            + Fraction(chance.failed, total) * if_failed.probability(major))


def _evaluate_smother(s: GurpsScenario) -> Result:
    chance = _dodge_chance(s)
    made, failed = chance
    contact = hit_injury(blast_hit(s, 0), maximum=s.smother_damage == "maximum")
    stays = _blast_dist(s, s.blast.distance)
    exposed = _blast_dist(s, s.friend.distance, friend=True)
    friend_reach = blast_reaches(s, s.friend.distance)
    total = made + failed
    injury = Dist.mixture([(contact, made), (stays, failed)])
    friend_injury = Dist.mixture([(Dist.certain(0), made), (exposed, failed)])
    hits = Dist.certain(1)  # a step from the explosive is inside its reach: smothered or not, it hits him
    headline, notes = _headlines(s, rolled=_rolled(s), all_ok=Fraction(made, total), hits=hits, injury=injury,
                                 p_major=_p_major(s, chance, contact, stays),
                                 p_friend_hit=Fraction(failed, total) if friend_reach else Fraction(0),
                                 friend_injury=friend_injury)
    if defense_option(s) == "none":
        trace = _blast_trace(s, "an explosive a step from the dodger and "
                                f"{s.friend.distance} yard(s) from a friend; nobody throws himself on it")
        trace.append(TraceStep("Nobody on the explosive", f"the blast goes off with the dodger {s.blast.distance} "
                               f"and the friend {s.friend.distance} yard(s) away", cite.EXPLOSION))
        return Result(system=SYSTEM_ID, scenario=s, outcomes=Dist({LEFT_ALONE: 1}), outcome_order=outcome_order(s),
                      hits=hits, headline=headline, notes=notes, trace=tuple(trace),
                      distributions={"injury": injury, "friend_injury": friend_injury,
                                     "friend_injury_unprotected": exposed, "ends_prone": Dist.certain(False)})
    trace = _blast_trace(s, "the dodger throws himself on an explosive a step away, to spare a friend "
                            f"{s.friend.distance} yard(s) from it")
    trace += [TraceStep("Success", "a contact explosion on the dodger: "
                        + ("the listed damage, rolled, not divided" if s.smother_damage == "contact"
                           else "the maximum possible damage") + "; the friend is spared", cite.CONTACT),
              TraceStep("Failure", f"the blast goes off with the dodger {s.blast.distance} and the friend "
                        f"{s.friend.distance} yard(s) away", cite.EXPLOSION),
              TraceStep("Injury on the dodger (contact)", blast_hit(s, 0).describe(), cite.WOUNDING)]
    return Result(system=SYSTEM_ID, scenario=s, outcomes=Dist({SMOTHERED: made, TOO_SLOW: failed}),
                  outcome_order=outcome_order(s), hits=hits, headline=headline, notes=notes, trace=tuple(trace),
                  distributions={"injury": injury, "friend_injury": friend_injury,
                                 "friend_injury_unprotected": exposed,
                                 "ends_prone": Dist.certain(ends_prone(s))})


def _evaluate_dive(s: GurpsScenario) -> Result:
    chance = _dodge_chance(s)
    made, failed = chance
    blast, cover = s.blast, s.cover
    caught = _blast_dist(s, blast.distance)
    if cover.kind == "full":
        label, safe = FULL_COVER, Dist.certain(0)
    elif cover.kind == "dr":
        label, safe = DR_COVER, _blast_dist(s, blast.distance, cover.dr)
    elif blast.spread == "explosion":
        label, safe = FARTHER, _blast_dist(s, blast.distance + 1)
    else:
        label, safe = STILL_IN_AREA, caught
    safe_distance = blast.distance + (1 if label == FARTHER else 0)
    safe_reach = label != FULL_COVER and blast_reaches(s, safe_distance)
    caught_reach = blast_reaches(s, blast.distance)
    missed = CAUGHT if defense_option(s) != "none" else STAYED  # the dive failed, or was not made
    outcomes = Dist([(label if safe_reach or label == FULL_COVER else OUT_OF_REACH, made),
                     (missed if caught_reach else OUT_OF_REACH, failed)])
    hits = Dist({1: (made if safe_reach else 0) + (failed if caught_reach else 0),
                 0: (0 if safe_reach else made) + (0 if caught_reach else failed)})
    injury = Dist.mixture([(safe, made), (caught, failed)])
    headline, notes = _headlines(s, rolled=_rolled(s), all_ok=Fraction(made, made + failed), hits=hits,
                                 injury=injury, p_major=_p_major(s, chance, safe, caught))
    where = {"none": "no cover", "dr": f"cover with DR {cover.dr} a step away",
             "full": "complete cover a step away"}[cover.kind]
    if defense_option(s) == "none":
        trace = _blast_trace(s, f"{blast.distance} yard(s) from the blast, {where}; the dodger does not dive")
        trace.append(TraceStep("No dive", "the dodger suffers the effect where he stands", cite.DIVE))
        return Result(system=SYSTEM_ID, scenario=s, outcomes=outcomes, outcome_order=outcome_order(s), hits=hits,
                      headline=headline, notes=notes, trace=tuple(trace),
                      distributions={"injury": injury, "injury_if_caught": caught,
                                     "ends_prone": Dist.certain(False)})
    trace = _blast_trace(s, f"diving for cover {blast.distance} yard(s) from the blast, {where}")
    trace += [TraceStep("Success", {FULL_COVER: "the dodger reaches complete cover before the blast",
                                    DR_COVER: "the dodger reaches the cover: its DR stands between",
                                    FARTHER: "no cover: the dodger ends a yard farther from the blast",
                                    STILL_IN_AREA: "no cover: a step does not leave an area effect"}[label],
                        cite.DIVE),
              TraceStep("Failure", "the dodger suffers the effect before making the step", cite.DIVE)]
    return Result(system=SYSTEM_ID, scenario=s, outcomes=outcomes, outcome_order=outcome_order(s), hits=hits,
                  headline=headline, notes=notes, trace=tuple(trace),
                  distributions={"injury": injury, "injury_if_caught": caught,
                                 "ends_prone": Dist.certain(ends_prone(s))})


_EVALUATE = {"attacks": _evaluate_attacks, "sacrificial": _evaluate_sacrificial, "smother": _evaluate_smother,
             "dive": _evaluate_dive}


def evaluate(scenario: GurpsScenario) -> Result:
    """Exact result of a GURPS 4e scenario."""
    return _EVALUATE[scenario.situation](scenario)


def headline(scenario: GurpsScenario) -> dict[str, Fraction | None]:
    """``evaluate(scenario).headline``; for a turn of attacks, computed without the rest of the
    result (what a sweep needs at each point)."""
    if scenario.situation == "attacks":
        return _attacks_headline(scenario)
    return evaluate(scenario).headline
