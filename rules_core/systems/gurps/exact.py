"""The fast exact algorithm: the same rules as :mod:`.play`, computed over distributions.

An attack's 3d6 rolls (attack, Acrobatics, Dodge) are summed over their 16 totals each, giving
each attack's outcomes as integer weights over 216³. A turn of attacks is a chain whose only
memory is whether a dodge and drop has been made (which changes the Dodge, the foe's skill and
the cover of later attacks), so hits and evasion rolls follow by a forward pass over that state.

Injury is a sum over landing hits, each hit's injury an independent draw. Generating functions
do the convolutions: a distribution over injury 0..L with integer weights is packed into one
Python integer, one fixed-width slot per injury value (Kronecker substitution), so multiplying
two integers convolves the distributions exactly, and Σₖ P(k hits) · f^k is a Horner evaluation.
Every weight is a count of dice outcomes, so each slot is wide enough for the whole turn's
number of outcomes and nothing ever carries into the next slot.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from fractions import Fraction
from math import ceil, log2

from ...dist import Dist
from ...result import Result, TraceStep
from ...scenario import fields_of
from . import sources as cite
from .damage import hit_injury
from .dice import parse_damage
from .play import (ALL_DODGED, ATTACK_OUTCOMES, NO_INJURY, BOTH_HIT, CAUGHT, DIVE_OUTCOMES, DODGER_HIT, DR_COVER, FARTHER,
                   FRIEND_DEFENDS, FRIEND_HIT, FULL_COVER, NEITHER, NO_HIT, OUT_OF_REACH, SACRIFICIAL_OUTCOMES,
                   SMOTHERED, SMOTHER_OUTCOMES, STILL_IN_AREA, TOO_SLOW, down_label, ladder_label)
from .rolls import ROLL_3D6, TOTALS, SuccessRoll, success_roll
from .rules import (AttackContext, attack_context, base_dodge, blast_hit, blast_reaches, defense_option,
                    dodge_score, ends_prone, friend_hit, hits_avoided, hits_scored, major_wound, points_left,
                    sacrificial_context, undefendable)
from .scenario import GurpsScenario

__all__ = ["evaluate", "attack_outcomes", "evasion_rolls", "attack_steps", "sum_of_hits", "turn_size",
           "SIZE_LIMIT", "SYSTEM_ID"]

SYSTEM_ID = "gurps-4e"
ROLL = 216  # ways 3d6 can fall
#: The largest turn computed exactly (see :func:`turn_size`): about a second on a laptop.
SIZE_LIMIT = 1_500_000


def turn_size(scenario: GurpsScenario) -> int:
    """How big the exact computation of a turn of attacks is: bits per weight (enough for every
    way the turn's dice can fall) × injury values the total can take. Work grows a little faster
    than this; blasts are always small (0)."""
    if scenario.situation in ("smother", "dive"):
        return 0
    sacrificial = scenario.situation == "sacrificial"
    bits = slots = 0
    for i, attack in enumerate(scenario.attacks[:1] if sacrificial else scenario.attacks):
        hits = attack.rof if attack.hits_by == "roll" else attack.hits
        bits += 32 + ceil(hits * parse_damage(attack.damage).dice * log2(6))
        targets = ((sacrificial_context(scenario).hit, friend_hit(scenario)) if sacrificial
                   else (attack_context(scenario, i, False).hit,))
        slots += hits * max(max(hit_injury(hit).outcomes()) for hit in targets)
    return bits * (slots + 1)


# -- rolls as weights ------------------------------------------------------------------------

def attack_outcomes(ctx: AttackContext, scenario: GurpsScenario) -> dict[tuple[int, bool], int]:
    """(hits, critical hit) → weight over 216 for the attack in ``ctx``."""
    attack = scenario.attacks[ctx.index]
    if ctx.blocked:
        return {(0, False): ROLL}
    if attack.hits_by == "fixed":
        return {(attack.hits, False): ROLL}
    if ctx.skill.value < 3:
        return {(0, False): ROLL}
    out: Counter = Counter()
    for total in TOTALS:
        roll = success_roll(total, ctx.skill.value)
        out[(hits_scored(roll, attack.rof, attack.recoil), roll.success and roll.critical)] += ROLL_3D6.weight(total)
    return dict(out)


def evasion_rolls(score: int, scenario: GurpsScenario) -> list[tuple[SuccessRoll, int]]:
    """Every Dodge roll against ``score`` with its weight over 216² (an acrobatic dodge's
    Acrobatics roll first moves the score by ±2; otherwise the weight is scaled by 216)."""
    dodger = scenario.dodger
    if dodger.acrobatic:
        made = sum(ROLL_3D6.weight(t) for t in TOTALS if success_roll(t, dodger.acrobatics).success)
        branches = ((score + 2, made), (score - 2, ROLL - made))
    else:
        branches = ((score, ROLL),)
    return [(success_roll(total, value), weight * ROLL_3D6.weight(total))
            for value, weight in branches if weight for total in TOTALS]


def attack_steps(ctx: AttackContext, scenario: GurpsScenario) -> dict[tuple, int]:
    """One attack's outcomes as weights over 216³: keys (landed, dodged, roll, dropped after,
    arrived) where roll is None (no evasion roll), True or False (its success)."""
    option = defense_option(scenario)
    out: Counter = Counter()
    for (hits, critical), weight in attack_outcomes(ctx, scenario).items():
        free = undefendable(hits, critical, scenario.crit_hit)
        if hits == free or option == "none":
            out[(hits, 0, None, ctx.dropped, hits > 0)] += weight * ROLL * ROLL
            continue
        dropped = ctx.dropped or option == "dodge_and_drop"
        for roll, rw in evasion_rolls(ctx.dodge.value, scenario):
            avoided = hits_avoided(roll, hits - free, scenario.crit_dodge)
            out[(hits - avoided, avoided, roll.success, dropped, True)] += weight * rw
    return dict(out)


# -- generating functions packed into integers -------------------------------------------------

class _Packing:
    """Distributions over 0..L as integers: slot j (``width`` bytes) holds the weight of j."""

    def __init__(self, largest_weight: int):
        self.width = largest_weight.bit_length() // 8 + 1
        self.bits = 8 * self.width

    def pack(self, weights: dict[int, int]) -> int:
        return sum(w << (self.bits * v) for v, w in weights.items() if w)

    def unpack(self, poly: int) -> dict[int, int]:
        if not poly:
            return {}
        slots = -(-poly.bit_length() // self.bits)
        raw = poly.to_bytes(slots * self.width, "little")
        out = {}
        for j in range(slots):
            w = int.from_bytes(raw[j * self.width:(j + 1) * self.width], "little")
            if w:
                out[j] = w
        return out


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


def sum_of_hits(by_hits: dict[int, int], injury: Dist, hp: int, wounds: bool) -> tuple[Dist, Fraction]:
    """Total injury over a random number of independent hits (``by_hits``: k → weight) and the
    probability that at least one hit is a major wound (over HP/2); ``wounds`` False for FP."""
    most = max(by_hits)
    den = sum(by_hits.values())
    space = injury.denominator
    packing = _Packing(den * space ** most)
    f = packing.pack(_per_hit(injury, space))
    m = packing.pack(_per_hit(injury, space, lambda v: not (wounds and major_wound(v, hp))))
    none = by_hits.get(0, 0) * space ** most
    all_minor = _hits_sum(by_hits, m, space, most) + none
    every = _hits_sum(by_hits, f, space, most) + none
    total = den * space ** most
    return Dist(packing.unpack(every)), Fraction(total - sum(packing.unpack(all_minor).values()), total)


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


def _headlines(rolled: Fraction, all_ok: Fraction, no_roll_why: str) -> tuple[dict, dict]:
    if rolled:
        return {"p_dodge_succeeds": all_ok / rolled}, {}
    return {"p_dodge_succeeds": None}, {"p_dodge_succeeds": no_roll_why}


def _no_roll_why(scenario: GurpsScenario) -> str:
    if scenario.situation in ("attacks", "sacrificial") and scenario.dodger.defense == "none":
        return "The dodger makes no active defense, so no evasion roll is made."
    return "No hit ever arrives that the dodger may defend against (misses, critical hits or blocked attacks)."


def _injury_headlines(scenario: GurpsScenario, injury: Dist, p_major: Fraction | None) -> tuple[dict, dict]:
    pool, left = points_left(scenario)
    headline = {"expected_injury": injury.mean(), "p_down": injury.at_least(left), "p_major_wound": p_major}
    notes = {}
    if pool == "FP":
        headline["p_major_wound"] = None
        notes["p_major_wound"] = "Fatigue damage comes off FP and causes no wounds."
    return headline, notes


def _no_friend(situation: str) -> tuple[dict, dict]:
    why = f"No friend is involved in the situation '{situation}'."
    return ({"p_friend_hit": None, "expected_friend_injury": None},
            {"p_friend_hit": why, "expected_friend_injury": why})


def _evaluate_attacks(s: GurpsScenario) -> Result:
    n = len(s.attacks)
    drop = defense_option(s) == "dodge_and_drop"
    # Whether a dodge and drop was already made matters only from the second attack on.
    contexts = [{d: attack_context(s, i, d) for d in ((False, True) if i and drop else (False,))}
                for i in range(n)]
    steps = [{d: attack_steps(ctx, s) for d, ctx in by_state.items()} for by_state in contexts]
    total = (ROLL ** 3) ** n

    # Hits and evasion rolls: state (dropped, status, hits landed, any hit arrived), where status
    # is 0 no roll made yet, 1 every roll so far succeeded, 2 some roll failed.
    state: Counter = Counter({(False, 0, 0, False): 1})
    dodged_state: Counter = Counter({(False, 0): 1})
    for i in range(n):
        new: Counter = Counter()
        for (dropped, status, landed, arrived), w in state.items():
            for (k, _, roll, after, now_arrived), sw in steps[i][dropped].items():
                now = status if roll is None else (2 if status == 2 or not roll else 1)
                new[(after, now, landed + k, arrived or now_arrived)] += w * sw
        state = new
        new = Counter()
        for (dropped, dodged), w in dodged_state.items():
            for (_, avoided, _, after, _), sw in steps[i][dropped].items():
                new[(after, dodged + avoided)] += w * sw
        dodged_state = new
    hits = Dist((landed, w) for (_, _, landed, _), w in state.items())
    rolled = Fraction(sum(w for (_, st, _, _), w in state.items() if st), total)
    all_ok = Fraction(sum(w for (_, st, _, _), w in state.items() if st == 1), total)
    dropped_at_end = Fraction(sum(w for (d, *_), w in state.items() if d), total)
    never_arrived = sum(w for (*_, arrived), w in state.items() if not arrived)
    none_landed = sum(w for (_, _, landed, _), w in state.items() if not landed)

    # Injury: state (dropped, some hit was a major wound) → packed distribution of total injury.
    # Each attack moves it by Σ_k P(k hits land) · f^k, split into "every hit minor" (m^k) and
    # "some hit major" (f^k − m^k), with every weight scaled to 216³ · 6^(dice · most hits).
    most = [max(k for by in steps[i].values() for (k, *_) in by) for i in range(n)]
    spaces = [6 ** parse_damage(s.attacks[i].damage).dice for i in range(n)]
    packing = _Packing(total * _product(spaces[i] ** most[i] for i in range(n)))
    hp, wounds = s.target.hp, points_left(s)[0] == "HP"
    polys: dict[tuple[bool, bool], int] = {(False, False): 1}
    for i in range(n):
        c, K = spaces[i], most[i]
        moves: dict[bool, list[tuple[bool, int, int, int]]] = {}
        for dropped, ctx in contexts[i].items():
            by_after: dict[bool, Counter] = defaultdict(Counter)
            for (k, _, _, after, _), sw in steps[i][dropped].items():
                by_after[after][k] += sw
            per_hit = hit_injury(ctx.hit)
            f = packing.pack(_per_hit(per_hit, c))
            m = packing.pack(_per_hit(per_hit, c, lambda v: not (wounds and major_wound(v, hp))))
            moves[dropped] = []
            for after, weights in by_after.items():
                none = weights.get(0, 0) * c ** K
                minor, every = _hits_sum(weights, m, c, K), _hits_sum(weights, f, c, K)
                moves[dropped].append((after, none + minor, every - minor, none + every))
        new_polys: dict[tuple[bool, bool], int] = defaultdict(int)
        for (dropped, major), poly in polys.items():
            for after, stays_minor, turns_major, everything in moves[dropped]:
                if major:
                    new_polys[(after, True)] += poly * everything
                    continue
                if stays_minor:
                    new_polys[(after, False)] += poly * stays_minor
                if turns_major:
                    new_polys[(after, True)] += poly * turns_major
        polys = new_polys

    pool, left = points_left(s)
    injury: Counter = Counter()
    outcomes: Counter = Counter()
    for (_, major), poly in polys.items():
        for value, w in packing.unpack(poly).items():
            injury[value] += w
            if value:  # injury means a hit landed; 0 is split below by what happened
                outcomes[ladder_label(True, True, value, major and wounds, left, pool)] += w
    # Totals of injury 0 are split with the hit counts (scaled to the injury's denominator).
    scale = sum(injury.values()) // total
    outcomes[NO_HIT] += never_arrived * scale
    outcomes[ALL_DODGED] += (none_landed - never_arrived) * scale
    outcomes[NO_INJURY] += injury[0] - none_landed * scale
    p_major = Fraction(sum(sum(packing.unpack(p).values()) for (_, major), p in polys.items() if major),
                       sum(injury.values()))
    injury_dist = Dist(injury)

    headline, notes = _headlines(rolled, all_ok, _no_roll_why(s))
    headline |= {"p_no_hit": hits[0], "expected_hits": hits.mean()}
    more, more_notes = _injury_headlines(s, injury_dist, p_major)
    friend, friend_notes = _no_friend(s.situation)
    headline |= more | friend
    notes |= more_notes | friend_notes

    trace = [TraceStep("Situation", f"{n} attack(s) from one foe this turn, in order; defense: "
                       f"{defense_option(s)}", cite.DROP), *_rulings_trace(s), *base_dodge(s).steps]
    for i, by_state in enumerate(contexts):
        for dropped, ctx in by_state.items():
            trace += _attack_trace(s, ctx, f"Attack {i + 1}" + (" after the dodge and drop" if dropped else ""))
    if any((a.rof if a.hits_by == "roll" else a.hits) > 1 for a in s.attacks):
        trace.append(TraceStep("Dodging rapid fire", "a successful Dodge avoids one hit plus one per point of "
                               "margin, at most the hits that arrived", cite.RAPID_DODGE))
    trace.append(TraceStep("Critical success and failure", "3-4 always succeed (critical), 5 at 15+, 6 at 16+; "
                           "18 fails critically, 17 at 15 or less, and any roll 10+ over the score",
                           cite.CRITICAL))
    return Result(system=SYSTEM_ID, scenario=s, outcomes=Dist(outcomes), outcome_order=ATTACK_OUTCOMES + (
        down_label(pool),), hits=hits, headline=headline, notes=notes, trace=tuple(trace),
                  distributions={"injury": injury_dist,
                                 "hits_dodged": Dist((d, w) for (_, d), w in dodged_state.items()),
                                 "ends_prone": _bool_dist(dropped_at_end if ends_prone(s) else Fraction(0))})


def _product(values) -> int:
    out = 1
    for v in values:
        out *= v
    return out


def _evaluate_sacrificial(s: GurpsScenario) -> Result:
    ctx = sacrificial_context(s)
    friend = s.friend
    drop = defense_option(s) == "dodge_and_drop"
    out: Counter = Counter()  # (label, dodger hits, friend hits, roll) → weight over 216^4
    for (hits, critical), weight in attack_outcomes(ctx, s).items():
        if not hits:
            out[(NO_HIT, 0, 0, None)] += weight * ROLL ** 3
            continue
        free = undefendable(hits, critical, s.crit_hit)
        defendable = hits - free
        if not defendable:
            out[(FRIEND_HIT, 0, free, None)] += weight * ROLL ** 3
            continue
        for roll, rw in evasion_rolls(ctx.dodge.value, s):
            if roll.success:
                taken = 0 if drop and roll.margin >= 3 else defendable
                label = BOTH_HIT if taken and free else DODGER_HIT if taken else FRIEND_HIT if free else NEITHER
                out[(label, taken, free, True)] += weight * rw * ROLL
                continue
            friend_rolls = ([(success_roll(t, friend.defense), ROLL_3D6.weight(t)) for t in TOTALS]
                            if friend.defends else [(None, ROLL)])
            for froll, fw in friend_rolls:
                avoided = hits_avoided(froll, defendable, s.crit_dodge) if froll else 0
                struck = free + defendable - avoided
                out[(FRIEND_HIT if struck else FRIEND_DEFENDS, 0, struck, False)] += weight * rw * fw
    total = ROLL ** 4
    hits = Dist((k, w) for (_, k, _, _), w in out.items())
    friend_hits: Counter = Counter()
    for (_, _, k, _), w in out.items():
        friend_hits[k] += w
    rolled = Fraction(sum(w for key, w in out.items() if key[3] is not None), total)
    all_ok = Fraction(sum(w for key, w in out.items() if key[3]), total)
    pool, _ = points_left(s)
    wounds = pool == "HP"
    injury, p_major = sum_of_hits({k: hits.weight(k) for k in hits.outcomes()}, hit_injury(ctx.hit),
                                  s.target.hp, wounds)
    friend_injury, _ = sum_of_hits(dict(friend_hits), hit_injury(friend_hit(s)), friend.hp, wounds)
    headline, notes = _headlines(rolled, all_ok, _no_roll_why(s))
    headline |= {"p_no_hit": hits[0], "expected_hits": hits.mean(),
                 "p_friend_hit": Fraction(total - friend_hits[0], total),
                 "expected_friend_injury": friend_injury.mean()}
    more, more_notes = _injury_headlines(s, injury, p_major)
    headline |= more
    notes |= more_notes
    trace = [TraceStep("Situation", "the attack is aimed at a friend a step away; the dodger tries a "
                       + ("sacrificial dodge and drop" if drop else "sacrificial dodge"), cite.SACRIFICIAL),
             *_rulings_trace(s), *base_dodge(s).steps,
             *[TraceStep(f"Attack: {t.rule}", t.detail, t.citation) for t in ctx.skill.steps],
             *_dodge_trace(s, s.attacks[0].kind, False, "Sacrificial dodge"),
             TraceStep("Sacrificial dodge", "success: the dodger takes the hit(s)"
                       + ("; success by 3 or more: neither is hit; both end prone" if drop else ""),
                       cite.SACRIFICIAL),
             TraceStep("If it fails", f"the friend defends with Dodge {friend.defense}" if friend.defends
                       else "the friend is hit (no defense)", cite.SACRIFICIAL),
             TraceStep("Critical hit", "no defense at all, not even a sacrificial one, against its "
                       + ("hits" if s.crit_hit == "all" else "first hit") + ": they strike the friend", cite.CRIT_HIT),
             TraceStep("Injury per hit on the dodger", ctx.hit.describe(), cite.WOUNDING),
             TraceStep("Injury per hit on the friend", friend_hit(s).describe(), cite.WOUNDING)]
    prone = Fraction(rolled) if ends_prone(s) else Fraction(0)
    return Result(system=SYSTEM_ID, scenario=s, outcomes=Dist((label, w) for (label, *_), w in out.items()),
                  outcome_order=SACRIFICIAL_OUTCOMES, hits=hits, headline=headline, notes=notes,
                  trace=tuple(trace),
                  distributions={"injury": injury, "friend_injury": friend_injury,
                                 "ends_prone": _bool_dist(prone)})


def _bool_dist(p: Fraction) -> Dist:
    return Dist({True: p.numerator, False: p.denominator - p.numerator})


def _dodge_chance(s: GurpsScenario) -> tuple[int, int]:
    """Weights (over 216²) of the one Dodge roll against a blast succeeding and failing."""
    made = sum(w for roll, w in evasion_rolls(dodge_score(s, "blast", False).value, s) if roll.success)
    return made, ROLL * ROLL - made


def _blast_dist(s: GurpsScenario, distance: int, cover_dr: int = 0, *, friend: bool = False) -> Dist:
    return hit_injury(blast_hit(s, distance, cover_dr, friend=friend)) if blast_reaches(s, distance) \
        else Dist.certain(0)


def _blast_trace(s: GurpsScenario, what: str) -> list[TraceStep]:
    blast = s.blast
    return [TraceStep("Situation", what, cite.DIVE if s.situation == "dive" else cite.SACRIFICIAL),
            *_rulings_trace(s), *base_dodge(s).steps, *_dodge_trace(s, "blast", False, "The dive"),
            TraceStep("Blast", f"{blast.damage} {blast.damage_type}, " + (
                f"÷ (3 × yards) at a distance, nothing beyond {2 * parse_damage(blast.damage).dice} yards"
                if blast.spread == "explosion" else "the same throughout the area"), cite.EXPLOSION),
            TraceStep("Large-area injury", "a blast uses torso wounding and the DR given for the target",
                      cite.LARGE_AREA)]


def _evaluate_smother(s: GurpsScenario) -> Result:
    made, failed = _dodge_chance(s)
    contact = hit_injury(blast_hit(s, 0), maximum=s.smother_damage == "maximum")
    stays = _blast_dist(s, s.blast.distance)
    exposed = _blast_dist(s, s.friend.distance, friend=True)
    reach = blast_reaches(s, s.blast.distance)
    friend_reach = blast_reaches(s, s.friend.distance)
    total = made + failed
    injury = Dist.mixture([(contact, made), (stays, failed)])
    friend_injury = Dist.mixture([(Dist.certain(0), made), (exposed, failed)])
    hits = Dist({1: made + (failed if reach else 0), 0: 0 if reach else failed})
    wounds = points_left(s)[0] == "HP"
    p_major = (Fraction(made, total) * contact.probability(lambda v: wounds and major_wound(v, s.target.hp))
               + Fraction(failed, total) * stays.probability(lambda v: wounds and major_wound(v, s.target.hp)))
    headline = {"p_dodge_succeeds": Fraction(made, total), "p_no_hit": hits[0], "expected_hits": hits.mean(),
                "p_friend_hit": Fraction(failed, total) if friend_reach else Fraction(0),
                "expected_friend_injury": friend_injury.mean()}
    more, notes = _injury_headlines(s, injury, p_major)
    headline |= more
    trace = _blast_trace(s, "the dodger throws himself on an explosive a step away, to spare a friend "
                            f"{s.friend.distance} yard(s) from it")
    trace += [TraceStep("Success", "a contact explosion on the dodger: "
                        + ("the listed damage, rolled, not divided" if s.smother_damage == "contact"
                           else "the maximum possible damage") + "; the friend is spared", cite.CONTACT),
              TraceStep("Failure", f"the blast goes off with the dodger {s.blast.distance} and the friend "
                        f"{s.friend.distance} yard(s) away", cite.EXPLOSION),
              TraceStep("Injury on the dodger (contact)", blast_hit(s, 0).describe(), cite.WOUNDING)]
    return Result(system=SYSTEM_ID, scenario=s, outcomes=Dist({SMOTHERED: made, TOO_SLOW: failed}),
                  outcome_order=SMOTHER_OUTCOMES, hits=hits, headline=headline, notes=notes, trace=tuple(trace),
                  distributions={"injury": injury, "friend_injury": friend_injury,
                                 "friend_injury_unprotected": exposed,
                                 "ends_prone": Dist.certain(ends_prone(s))})


def _evaluate_dive(s: GurpsScenario) -> Result:
    made, failed = _dodge_chance(s)
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
    outcomes = Dist([(label if safe_reach or label == FULL_COVER else OUT_OF_REACH, made),
                     (CAUGHT if caught_reach else OUT_OF_REACH, failed)])
    hits = Dist({1: (made if safe_reach else 0) + (failed if caught_reach else 0),
                 0: (0 if safe_reach else made) + (0 if caught_reach else failed)})
    injury = Dist.mixture([(safe, made), (caught, failed)])
    wounds = points_left(s)[0] == "HP"
    total = made + failed
    p_major = (Fraction(made, total) * safe.probability(lambda v: wounds and major_wound(v, s.target.hp))
               + Fraction(failed, total) * caught.probability(lambda v: wounds and major_wound(v, s.target.hp)))
    headline = {"p_dodge_succeeds": Fraction(made, total), "p_no_hit": hits[0], "expected_hits": hits.mean()}
    more, notes = _injury_headlines(s, injury, p_major)
    friend, friend_notes = _no_friend(s.situation)
    headline |= more | friend
    notes |= friend_notes
    where = {"none": "no cover", "dr": f"cover with DR {cover.dr} a step away",
             "full": "complete cover a step away"}[cover.kind]
    trace = _blast_trace(s, f"diving for cover {blast.distance} yard(s) from the blast, {where}")
    trace += [TraceStep("Success", {FULL_COVER: "the dodger reaches complete cover before the blast",
                                    DR_COVER: "the dodger reaches the cover: its DR stands between",
                                    FARTHER: "no cover: the dodger ends a yard farther from the blast",
                                    STILL_IN_AREA: "no cover: a step does not leave an area effect"}[label],
                        cite.DIVE),
              TraceStep("Failure", "the dodger suffers the effect before making the step", cite.DIVE)]
    return Result(system=SYSTEM_ID, scenario=s, outcomes=outcomes, outcome_order=DIVE_OUTCOMES, hits=hits,
                  headline=headline, notes=notes, trace=tuple(trace),
                  distributions={"injury": injury, "injury_if_caught": caught,
                                 "ends_prone": Dist.certain(ends_prone(s))})


_EVALUATE = {"attacks": _evaluate_attacks, "sacrificial": _evaluate_sacrificial, "smother": _evaluate_smother,
             "dive": _evaluate_dive}


def evaluate(scenario: GurpsScenario) -> Result:
    """Exact result of a GURPS 4e scenario."""
    return _EVALUATE[scenario.situation](scenario)
