"""Infinity N4: the fast exact paths — one Face to Face Roll (:func:`face_to_face`,
:func:`f2f_headline`, :func:`dodge_headline`), the whole Order (:func:`evaluate`) and the
heatmap grid (:func:`dodge_grid`) — proven equal to enumerating :func:`.play.play` in the tests.

One dodge die faces every attack of the Order, each with its own SV for the dodger. Given that
die's face, the attacks are independent of each other (each depends only on its own dice and
saves), so :func:`evaluate` conditions on the face, combines the attacks for that face, and sums
over the faces; it never multiplies per-attack probabilities across faces.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import factorial
from typing import NamedTuple

from ...d20 import FACES, binomial
from ...dist import Dist
from ...poly import add_into, pack, power, unpack
from ...result import Result, TraceStep
from .dice import CRIT, roll_rank
from .outcomes import (
    DODGED, HIT_NO_EFFECT, HIT_NO_GUTS, HIT_PASSES, NO_HIT, NULL_STATE, UNHARMED_STAYS, hits_label,
    roll_label)
from .play import OrderPlan, OrderRoll, plan_order
from .scenario import CITE_DODGE, SYSTEM_ID, InfinityScenario

__all__ = ["rank_weights", "best_rank_weights", "F2F", "face_to_face", "F2FHeadline", "f2f_headline",
           "DodgeHeadline", "dodge_headline", "OrderNumbers", "order_numbers", "final_states",
           "GridCells", "dodge_grid", "DodgeGrid", "dodge_grid_weights", "evaluate"]

# -- one Face to Face Roll ---------------------------------------------------------------------

@cache
def rank_weights(sv: int) -> tuple[int, ...]:
    """How many of the 20 faces give each rank 0..20 against SV."""
    weights = [0] * (CRIT + 1)
    for face in range(1, FACES + 1):
        weights[roll_rank(face, sv)] += 1
    return tuple(weights)


@cache
def _at_most(sv: int) -> tuple[int, ...]:
    """Cumulative rank weights: faces giving a rank <= r, for r = 0..20."""
    out, running = [], 0
    for w in rank_weights(sv):
        running += w
        out.append(running)
    return tuple(out)


@cache
def best_rank_weights(sv: int, dice: int) -> tuple[int, ...]:
    """Weights (over 20**dice) of the best rank among ``dice`` dice being r, for r = 0..20."""
    cum = _at_most(sv)
    return tuple(cum[r] ** dice - (cum[r - 1] ** dice if r else 0) for r in range(CRIT + 1))


def _keeps(sv: int, dice: int, opp_sv: int, opp_dice: int) -> dict[tuple[int, int], int]:
    """Weights (over 20**(dice+opp_dice)) of this side keeping k successes, c of them Critical,
    for k >= 1: condition on the opponent's best rank b; each die independently beats b or not."""
    w = rank_weights(sv)
    cum = _at_most(sv)
    out: dict[tuple[int, int], int] = {}
    for b, pb in enumerate(best_rank_weights(opp_sv, opp_dice)):
        if not pb or b == CRIT:
            continue
        crit, plain, lose = w[CRIT], cum[CRIT - 1] - cum[b], cum[b]
        for k in range(1, dice + 1):
            for c in range(k + 1):
                ways = factorial(dice) // (factorial(c) * factorial(k - c) * factorial(dice - k))
                weight = ways * crit ** c * plain ** (k - c) * lose ** (dice - k)
                if weight:
                    out[(k, c)] = out.get((k, c), 0) + pb * weight
    return out


class F2F(NamedTuple):
    """One outcome of a Face to Face Roll: which side keeps successes (``"A"``, ``"B"`` or
    ``"none"``), how many, and how many of those are Critical."""

    side: str
    kept: int
    crits: int


@cache
def face_to_face(sv_a: int, dice_a: int, sv_b: int, dice_b: int) -> Dist:
    """Exact outcome of a Face to Face Roll, over :class:`F2F`: ``("A", k, c)`` side A keeps k
    successes of which c are Critical, ``("B", k, c)`` likewise for B, ``("none", 0, 0)``
    neither keeps any.

    >>> face_to_face(10, 1, 15, 3)[("A", 1, 0)] + face_to_face(10, 1, 15, 3)[("A", 1, 1)]
    Fraction(47, 500)
    """
    total = FACES ** (dice_a + dice_b)
    weights: dict[F2F, int] = {}
    for (k, c), wt in _keeps(sv_a, dice_a, sv_b, dice_b).items():
        weights[F2F("A", k, c)] = wt
    for (k, c), wt in _keeps(sv_b, dice_b, sv_a, dice_a).items():
        weights[F2F("B", k, c)] = wt
    weights[F2F("none", 0, 0)] = total - sum(weights.values())
    return Dist(weights)


class F2FHeadline(NamedTuple):
    """The four headline numbers of a Face to Face Roll."""

    a_keeps: Fraction
    b_keeps: Fraction
    a_mean: Fraction
    b_mean: Fraction


def f2f_headline(sv_a: int, dice_a: int, sv_b: int, dice_b: int) -> F2FHeadline:
    """``(P(A keeps a success), P(B keeps a success), E[successes A keeps], E[successes B keeps])``
    of a Face to Face Roll, without building the distribution (used for grids and heatmaps).

    Side A keeps exactly its dice that beat B's best rank b, so conditioning on b gives
    P(A keeps) = sum_b P(best_B = b) (1 - P(a die <= b)^dice_a) and
    E[A keeps] = sum_b P(best_B = b) dice_a P(a die > b).

    >>> f2f_headline(10, 1, 15, 3)[0]
    Fraction(47, 500)
    """
    den_a, den_b = FACES ** dice_a, FACES ** dice_b
    cum_a, cum_b = _at_most(sv_a), _at_most(sv_b)
    best_a, best_b = best_rank_weights(sv_a, dice_a), best_rank_weights(sv_b, dice_b)
    keeps_a = keeps_b = mean_a = mean_b = 0
    for r in range(CRIT):  # an opposing best rank of 20 (a Critical) lets nothing through
        pb, pa = best_b[r], best_a[r]
        if pb:
            keeps_a += pb * (den_a - cum_a[r] ** dice_a)
            mean_a += pb * (FACES - cum_a[r])
        if pa:
            keeps_b += pa * (den_b - cum_b[r] ** dice_b)
            mean_b += pa * (FACES - cum_b[r])
    both = den_a * den_b
    return F2FHeadline(Fraction(keeps_a, both), Fraction(keeps_b, both),
                       Fraction(mean_a * dice_a, den_b * FACES), Fraction(mean_b * dice_b, den_a * FACES))


class DodgeHeadline(NamedTuple):
    """The common headlines of one dodge die against one Burst."""

    p_dodge_succeeds: Fraction
    p_no_hit: Fraction
    expected_hits: Fraction


def dodge_headline(sv_dodger: int, sv_attacker: int, burst: int) -> DodgeHeadline:
    """``(p_dodge_succeeds, p_no_hit, expected_hits)`` of one dodge die against one Burst.

    >>> tuple(dodge_headline(10, 15, 3))
    (Fraction(47, 500), Fraction(401, 3200), Fraction(9, 5))
    """
    f2f = f2f_headline(sv_dodger, 1, sv_attacker, burst)
    return DodgeHeadline(f2f.a_keeps, 1 - f2f.b_keeps, f2f.b_mean)


# -- fast exact path: condition on the dodge die's face ------------------------------------------

class _Most(NamedTuple):
    hits: int
    crits: int
    wounds: int


def _most(roll: OrderRoll) -> _Most:
    """The most hits, Criticals and wounds ``roll`` can bring."""
    if roll.kind == "f2f":
        return _Most(roll.dice, roll.dice, roll.dice * (roll.saves + 1 if roll.saves else 0))
    return _Most(roll.hits_on_fail, 0, roll.hits_on_fail * roll.saves)


@cache
def _multinomials(n: int) -> tuple[tuple[int, int, int], ...]:
    """``(k, c, ways)``: the ways n dice split into c Criticals, k − c plain kept, n − k lost."""
    return tuple((k, c, factorial(n) // (factorial(c) * factorial(k - c) * factorial(n - k)))
                 for k in range(n + 1) for c in range(k + 1))


@dataclass(frozen=True)
class _GivenRank:
    """One roll's outcome given the dodge die's rank against it, as integer weights:
    ``ok``, ``kept`` {(k, c): w} and ``hits`` over ``den``; ``wounds`` over ``wden``."""

    ok: int
    kept: dict[tuple[int, int], int]
    hits: list[int]
    crits: list[int]
    wounds: list[int]


class _Denominators(NamedTuple):
    """The weights of a roll's hits are over ``hits``, those of its wounds over ``wounds``."""

    hits: int
    wounds: int


def _denominators(roll: OrderRoll) -> _Denominators:
    """The denominators of one roll's weights, given the dodge die's face."""
    if roll.kind == "f2f":
        per_die = FACES * (FACES ** (roll.saves + 1) if roll.saves else 1)
        return _Denominators(FACES ** roll.dice, per_die ** roll.dice)
    return _Denominators(1, FACES ** roll.saves)


def _given_rank(roll: OrderRoll, r: int) -> _GivenRank:
    t, s = roll.threshold, roll.saves
    if roll.kind == "normal":
        hit = 0 if r > 0 else roll.hits_on_fail
        wounds = list(binomial(s, t)) if hit and s else [FACES ** s]
        return _GivenRank(1 if r > 0 else 0, {(hit, 0): 1}, [1] if not hit else [0, 1], [1], wounds)
    n, w, cum = roll.dice, rank_weights(roll.sv_attack), _at_most(roll.sv_attack)
    if r == CRIT:  # the dodger's Critical: nothing of the attacker's survives; its Criticals cancel it
        lose, plain, crit = FACES, 0, 0
        ok = (FACES - w[CRIT]) ** n
    else:          # attacker dice above the dodge rank are kept, the others lose
        crit, lose = w[CRIT], cum[r]
        plain = FACES - lose - crit
        ok = cum[r - 1] ** n if r > 0 else 0
    kept: dict[tuple[int, int], int] = {}
    hits, crits = [0] * (n + 1), [0] * (n + 1)
    for k, c, ways in _multinomials(n):
        weight = ways * crit ** c * plain ** (k - c) * lose ** (n - k)
        if weight:
            kept[(k, c)] = weight
            hits[k] += weight
            crits[c] += weight
    if s:  # one die: lost, or kept (s Saving Rolls) or kept Critical (s + 1); padded to s + 1 save dice
        die = add_into([lose * FACES ** (s + 1)], [plain * FACES * x for x in binomial(s, t)])
        die = add_into(die, [crit * x for x in binomial(s + 1, t)])
        wounds = power(die, n)
    else:
        wounds = [FACES ** n]
    return _GivenRank(ok, kept, hits, crits, wounds)


class _Packed(NamedTuple):
    """A roll's weights given one dodge rank, with its hits, Criticals and wounds packed."""

    given: _GivenRank
    hits: int
    crits: int
    wounds: int


@dataclass(frozen=True)
class OrderNumbers:
    """Exact integer weights of an Order, summed over the dodge die's faces.

    ``hits``, ``crits``, ``ok`` and ``no_guts_hit`` are over ``den``; ``wounds`` over ``wden``;
    per-roll ``roll_kept[j]``/``roll_ok[j]`` over ``faces * den_j`` and ``roll_wounds[j]`` over
    ``faces * wden_j``."""

    faces: int
    den: int
    wden: int
    ok: int
    hits: list[int]
    crits: list[int]
    no_guts_hit: int
    wounds: list[int]
    roll_ok: list[int]
    roll_kept: list[dict[tuple[int, int], int]]
    roll_wounds: list[list[int]]


def order_numbers(plan: OrderPlan) -> OrderNumbers:
    """Sum over the dodge die's faces of the Order given that face: given the face, each roll
    depends only on its own dice and saves, so the rolls combine by products and convolutions."""
    rolls = plan.rolls
    dens = [_denominators(r) for r in rolls]
    if plan.dodges:
        groups: dict[tuple[int, ...], int] = {}
        for face in range(1, FACES + 1):
            ranks = tuple(roll_rank(face, r.sv_dodge) for r in rolls)
            groups[ranks] = groups.get(ranks, 0) + 1
        faces = FACES
    else:  # no dodge die: as if every comparison failed
        groups, faces = {tuple(0 for _ in rolls): 1}, 1
    den = wden = faces
    for d in dens:
        den, wden = den * d.hits, wden * d.wounds
    # Kronecker substitution: a polynomial with non-negative integer coefficients is packed
    # into one integer, a slot of ``bits`` per coefficient, so that one big-integer product is
    # the convolution. Every coefficient met here, summed over the faces too, is at most the
    # final denominator, so slots of its bit length never overflow into each other.
    h_bits, w_bits = den.bit_length() + 1, wden.bit_length() + 1
    given: dict[tuple[int, int], _Packed] = {}
    faces_at: dict[tuple[int, int], int] = {}  # (roll, dodge rank) -> faces giving it
    ok_sum, no_guts_sum = 0, 0
    hits_sum = crits_sum = wounds_sum = 0   # packed
    for ranks, count in groups.items():
        ok, no_guts, hits, crits, wounds = 1, 1, 1, 1, 1
        for j, (roll, r) in enumerate(zip(rolls, ranks)):
            entry = given.get((j, r))
            if entry is None:
                g = _given_rank(roll, r)
                entry = given[(j, r)] = _Packed(g, pack(g.hits, h_bits), pack(g.crits, h_bits),
                                                pack(g.wounds, w_bits))
            faces_at[(j, r)] = faces_at.get((j, r), 0) + count
            ok *= entry.given.ok
            no_guts *= entry.given.hits[0] if roll.guts else dens[j].hits
            hits, crits, wounds = hits * entry.hits, crits * entry.crits, wounds * entry.wounds
        ok_sum += count * (ok if plan.dodges else 0)
        no_guts_sum += count * no_guts
        hits_sum += count * hits
        crits_sum += count * crits
        wounds_sum += count * wounds
    most = [_most(roll) for roll in rolls]
    hits_sum = unpack(hits_sum, h_bits, 1 + sum(m.hits for m in most))
    crits_sum = unpack(crits_sum, h_bits, 1 + sum(m.crits for m in most))
    wounds_sum = unpack(wounds_sum, w_bits, 1 + sum(m.wounds for m in most))
    # Each roll on its own: the same per-rank results, weighted by the faces giving that rank.
    roll_ok = [0] * len(rolls)
    roll_kept: list[dict[tuple[int, int], int]] = [{} for _ in rolls]
    roll_wounds: list[list[int]] = [[0] for _ in rolls]
    for (j, r), count in faces_at.items():
        g = given[(j, r)].given
        roll_ok[j] += count * g.ok
        for key, wt in g.kept.items():
            roll_kept[j][key] = roll_kept[j].get(key, 0) + count * wt
        roll_wounds[j] = add_into(roll_wounds[j], g.wounds, count)
    return OrderNumbers(faces, den, wden, ok_sum, hits_sum, crits_sum, no_guts_sum, wounds_sum,
                        roll_ok, roll_kept, roll_wounds)


def _dist(weights: Sequence[int]) -> Dist:
    return Dist(enumerate(weights))


def final_states(plan: OrderPlan, numbers: OrderNumbers, wounds: Dist) -> Dist:
    """Final states at the end of the Order. Being hit means the dodge failed against something,
    so the trooper did not move and keeps its starting States (Engaged, IMM); a Guts Roll follows
    only a hit of an attack with Damage or a State; Null needs a wound, so it implies such a hit."""
    den = numbers.den
    p_dodged = Fraction(numbers.ok, den)
    p_no_hit = Fraction(numbers.hits[0], den)
    p_no_guts_hit = Fraction(numbers.no_guts_hit, den)
    p_null = wounds.at_least(plan.wounds)
    p_guts_case = 1 - p_no_guts_hit - p_null
    if plan.engaged or plan.immobilized != "no":
        blocked, passes, fails = p_guts_case, Fraction(0), Fraction(0)
    else:
        p_pass = Fraction(0) if plan.guts_decision == "fail" else \
            Fraction(sum(rank_weights(plan.guts_sv)[1:]), FACES)
        blocked, passes, fails = Fraction(0), p_guts_case * p_pass, p_guts_case * (1 - p_pass)
    return Dist.from_fractions({
        plan.dodged_label: p_dodged, UNHARMED_STAYS: p_no_hit - p_dodged,
        HIT_NO_EFFECT: p_no_guts_hit - p_no_hit, HIT_NO_GUTS: blocked, HIT_PASSES: passes,
        plan.guts_failed_label: fails, NULL_STATE: p_null})


# -- a grid of headline numbers, for heatmaps ----------------------------------------------------

@cache
def _rank_table(sv: int) -> tuple[int, ...]:
    return tuple(roll_rank(face, sv) for face in range(1, FACES + 1))


class _ByRank(NamedTuple):
    """For each dodge rank r = 0..20: weights of the dodge surviving, and of no hit."""

    ok: tuple[int, ...]
    no_hit: tuple[int, ...]


class _Fixed(NamedTuple):
    """A roll the grid does not vary: the dodger's SV against it minus PH, and its weights."""

    offset: int
    by_rank: _ByRank


class DodgeGrid(NamedTuple):
    """The grid's cells as integer weights over ``den``; ``dodge`` None without a Dodge."""

    den: int
    dodge: list[list[int]] | None
    no_hit: list[list[int]]


@cache
def _f2f_by_rank(sv_attack: int, dice: int) -> _ByRank:
    """For each dodge rank r: weights (over 20**dice) of the dodge surviving, and of no hit."""
    w, cum = rank_weights(sv_attack), _at_most(sv_attack)
    ok = tuple(0 if r == 0 else (FACES - w[CRIT]) ** dice if r == CRIT else cum[r - 1] ** dice
               for r in range(CRIT + 1))
    no_hit = tuple(FACES ** dice if r == CRIT else cum[r] ** dice for r in range(CRIT + 1))
    return _ByRank(ok, no_hit)


class GridCells(NamedTuple):
    """The heatmap's two grids of exact probabilities (rows: PH, columns: SV)."""

    p_dodge_succeeds: list[list[Fraction | None]]
    p_no_hit: list[list[Fraction]]


def dodge_grid(scenario: InfinityScenario, phs: Sequence[int], svs: Sequence[int], *,
               attacker: int = 0, burst: int | None = None) -> GridCells:
    """``(p_dodge_succeeds, p_no_hit)`` for every dodger PH in ``phs`` (rows) and every SV of
    attacker number ``attacker`` (0-based; it is made to attack, with Burst ``burst`` if given)
    in ``svs`` (columns), the rest of the Order as in ``scenario``; ``p_dodge_succeeds`` is None
    everywhere when the trooper does not Dodge. See :func:`dodge_grid_weights`.

    >>> s = InfinityScenario()
    >>> dodge_grid(s, [10], [15])[0][0][0] == dodge_headline(10, 15, 3)[0]
    True
    """
    grid = dodge_grid_weights(scenario, phs, svs, attacker=attacker, burst=burst)
    p_no_hit = [[Fraction(w, grid.den) for w in row] for row in grid.no_hit]
    if grid.dodge is None:
        return GridCells([[None for _ in row] for row in grid.no_hit], p_no_hit)
    return GridCells([[Fraction(w, grid.den) for w in row] for row in grid.dodge], p_no_hit)


def dodge_grid_weights(scenario: InfinityScenario, phs: Sequence[int], svs: Sequence[int], *,
                       attacker: int = 0, burst: int | None = None
                       ) -> DodgeGrid:
    """The numbers of :func:`dodge_grid` as integer weights over one denominator:
    ``(den, dodge, no_hit)`` (``dodge`` None when the trooper does not Dodge), for callers that
    need many cells fast. Exact, without building distributions: given the dodge face,
    P(dodge survives) and P(no hit) are products over the rolls; the rolls that do not vary are
    multiplied once per face and PH, then summed by the dodge's rank against the varied attacker.
    """
    dice = burst or scenario.attackers[attacker].burst
    varied = scenario.replace(attackers=tuple(
        x.replace(attacks=True, burst=dice) if i == attacker else x
        for i, x in enumerate(scenario.attackers)))
    plan = plan_order(varied)
    ph0 = scenario.dodger.ph
    fixed: list[_Fixed] = []
    den_fixed, offset_varied = (FACES if plan.dodges else 1) * FACES ** dice, 0
    for roll in plan.rolls:
        if roll.attacker == attacker:
            offset_varied = roll.sv_dodge - ph0
            continue
        if roll.kind == "f2f":
            by_rank = _f2f_by_rank(roll.sv_attack, roll.dice)
            den_fixed *= FACES ** roll.dice
        else:
            by_rank = _ByRank(tuple(int(r > 0) for r in range(CRIT + 1)),
                              tuple(int(r > 0 or not roll.hits_on_fail) for r in range(CRIT + 1)))
        fixed.append(_Fixed(roll.sv_dodge - ph0, by_rank))
    p_dodge: list[list[int]] = []
    p_no_hit: list[list[int]] = []
    for ph in phs:
        # Per face: the product over the fixed rolls, gathered by the rank against the varied one.
        ok_by_rank: dict[int, int] = {}
        no_hit_by_rank: dict[int, int] = {}
        for f in range(FACES if plan.dodges else 1):
            ok = no_hit = 1
            for roll in fixed:
                r = _rank_table(ph + roll.offset)[f] if plan.dodges else 0
                ok *= roll.by_rank.ok[r]
                no_hit *= roll.by_rank.no_hit[r]
            r = _rank_table(ph + offset_varied)[f] if plan.dodges else 0
            ok_by_rank[r] = ok_by_rank.get(r, 0) + ok
            no_hit_by_rank[r] = no_hit_by_rank.get(r, 0) + no_hit
        row_dodge, row_no_hit = [], []
        for sv in svs:
            by_rank = _f2f_by_rank(sv, dice)
            row_dodge.append(sum(w * by_rank.ok[r] for r, w in ok_by_rank.items()))
            row_no_hit.append(sum(w * by_rank.no_hit[r] for r, w in no_hit_by_rank.items()))
        p_dodge.append(row_dodge)
        p_no_hit.append(row_no_hit)
    return DodgeGrid(den_fixed, p_dodge if plan.dodges else None, p_no_hit)


# -- evaluation -----------------------------------------------------------------------------

def evaluate(scenario: InfinityScenario) -> Result:
    """Exact result of the whole Order: the dodge die against every attack, hits, Saving Rolls,
    wounds, Null, movement and the Guts Roll."""
    plan = plan_order(scenario)
    numbers = order_numbers(plan)
    den = numbers.den
    most = len(numbers.hits) - 1
    outcome_weights = {DODGED: numbers.ok, NO_HIT: numbers.hits[0] - numbers.ok}
    outcome_weights.update({hits_label(k): numbers.hits[k] for k in range(1, most + 1)})
    outcomes = Dist(outcome_weights)
    hits = _dist(numbers.hits)
    wounds = _dist(numbers.wounds)
    final = final_states(plan, numbers, wounds)
    distributions = {"final state": final, "wounds": wounds, "criticals": _dist(numbers.crits)}
    for j, roll in enumerate(plan.rolls):
        ok = numbers.roll_ok[j]
        weights = {DODGED: ok}
        for (k, c), wt in numbers.roll_kept[j].items():
            # a surviving dodge is among the weights of "nothing kept": take it out of them
            label = roll_label(roll.kind, False, k, c)
            weights[label] = weights.get(label, 0) + wt - (ok if (k, c) == (0, 0) else 0)
        distributions[roll.name] = Dist(weights)
        hits_weights: dict[int, int] = {}
        for (k, _), wt in numbers.roll_kept[j].items():
            hits_weights[k] = hits_weights.get(k, 0) + wt
        distributions[f"{roll.name}: hits"] = Dist(hits_weights)
        distributions[f"{roll.name}: wounds"] = _dist(numbers.roll_wounds[j])
    notes = {}
    if plan.dodges:
        p_dodge: Fraction | None = Fraction(numbers.ok, den)
        failing = [r.name for r in plan.rolls if r.sv_dodge <= 0]
        if failing:
            notes["p_dodge_succeeds"] = ("The dodger's SV is 0 or less against " + ", ".join(failing)
                                         + ": that roll fails automatically.")
    else:
        p_dodge = None
        notes["p_dodge_succeeds"] = "The trooper does not declare Dodge: no evasion roll is made."
    headline = {
        "p_dodge_succeeds": p_dodge,
        "p_no_hit": hits[0],
        "expected_hits": hits.mean(),
        "expected_wounds": wounds.mean(),
        "p_null": final[NULL_STATE],
        "p_guts_fails": final[plan.guts_failed_label],
    }
    trace = plan.trace + (TraceStep("Exact computation", "conditioned on the dodge die's face; given "
                                    "it, each attack is independent of the others (its own dice and "
                                    "saves), so the attacks combine per face and the faces are "
                                    "summed", CITE_DODGE),)
    order = (DODGED, NO_HIT) + tuple(hits_label(k) for k in range(1, most + 1))
    return Result(system=SYSTEM_ID, scenario=scenario, outcomes=outcomes, outcome_order=order,
                  hits=hits, headline=headline, notes=notes, trace=trace,
                  distributions=distributions)
