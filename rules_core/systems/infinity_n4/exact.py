"""Infinity N4: the fast exact paths — one Face to Face Roll (:func:`face_to_face`,
:func:`f2f_headline`, :func:`dodge_headline`), the whole Order (:func:`evaluate`), its headline
alone (:func:`headline`, what a sweep needs at each point) and the heatmap grid
(:func:`dodge_grid`) — proven equal to enumerating :func:`.play.play` in the tests.

One dodge die faces every attack of the Order, each with its own SV for the dodger. Given that
die's face, the attacks are independent of each other (each depends only on its own dice and
saves), so :func:`evaluate` conditions on the face, combines the attacks for that face, and sums
over the faces; it never multiplies per-attack probabilities across faces.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from math import factorial
from types import MappingProxyType
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
           "GridCells", "dodge_grid", "DodgeGrid", "dodge_grid_weights", "headline", "evaluate"]

# -- one Face to Face Roll ---------------------------------------------------------------------

@cache
def rank_weights(sv: int) -> tuple[int, ...]:
    """How many of the 20 faces give each rank 0..20 against SV."""
    weights = [0] * (CRIT + 1)
    for face in range(1, FACES + 1):
        weights[roll_rank(face, sv)] += 1
    return tuple(weights)


@cache
def _rank_table(sv: int) -> tuple[int, ...]:
    """The rank of each face 1..20 against SV."""
    return tuple(roll_rank(face, sv) for face in range(1, FACES + 1))


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
    ``ok``, ``kept`` {(k, c): w} and ``hits`` over ``den``; ``wounds`` over ``wden``. Read only
    throughout (a read-only mapping and tuples): :func:`_given` shares it between callers."""

    ok: int
    kept: Mapping[tuple[int, int], int]
    hits: tuple[int, ...]
    crits: tuple[int, ...]
    wounds: tuple[int, ...]


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


@lru_cache(maxsize=4096)
def _given(kind: str, n: int, sv_attack: int, hits_on_fail: int, s: int, t: int, r: int) -> _GivenRank:
    """One roll's weights given the dodge die's rank ``r`` against it, from only the fields of
    the roll they depend on (its kind, ``n`` dice at ``sv_attack``, ``hits_on_fail``, ``s``
    Saving Rolls per hit wounding at ``t`` or less), so that the Orders of a sweep, most of
    their rolls unchanged from point to point, share them. Read only."""
    if kind == "normal":
        hit = 0 if r > 0 else hits_on_fail
        wounds = tuple(binomial(s, t)) if hit and s else (FACES ** s,)
        return _GivenRank(1 if r > 0 else 0, MappingProxyType({(hit, 0): 1}), (1,) if not hit else (0, 1), (1,),
                          wounds)
    w, cum = rank_weights(sv_attack), _at_most(sv_attack)
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
    return _GivenRank(ok, MappingProxyType(kept), tuple(hits), tuple(crits), tuple(wounds))


class _Packed(NamedTuple):
    """A roll's weights given one dodge rank, with its hits, Criticals and wounds packed."""

    given: _GivenRank
    hits: int
    crits: int
    wounds: int


@lru_cache(maxsize=4096)
def _packed(kind: str, n: int, sv_attack: int, hits_on_fail: int, s: int, t: int, r: int,
            h_bits: int, w_bits: int) -> _Packed:
    """:func:`_given` with its hits and Criticals packed in slots of ``h_bits``, its wounds in
    slots of ``w_bits`` (shared by the points of a sweep, as :func:`_given` is)."""
    g = _given(kind, n, sv_attack, hits_on_fail, s, t, r)
    return _Packed(g, pack(g.hits, h_bits), pack(g.crits, h_bits), pack(g.wounds, w_bits))


@dataclass(frozen=True)
class OrderNumbers:
    """Exact integer weights of an Order, summed over the dodge die's faces.

    ``hits``, ``crits``, ``ok`` and ``no_guts_hit`` are over ``den``; ``wounds`` are weights
    over a common denominator of their own (read as a distribution); per roll ``j``,
    ``roll_kept[j]``/``roll_ok[j]`` are over the dodge die's faces times the roll's own
    denominator of hits, ``roll_wounds[j]`` likewise of wounds."""

    den: int
    ok: int
    hits: list[int]
    crits: list[int]
    no_guts_hit: int
    wounds: list[int]
    roll_ok: list[int]
    roll_kept: list[dict[tuple[int, int], int]]
    roll_wounds: list[list[int]]


def _face_groups(plan: OrderPlan) -> tuple[tuple[tuple[tuple[int, ...], int], ...], int]:
    """The dodge die's faces gathered by what they mean here, the die's rank against each roll
    (``(ranks, faces giving them)`` pairs), and the number of faces (1 without a dodge die)."""
    if not plan.dodges:  # no dodge die: as if every comparison failed
        return ((tuple(0 for _ in plan.rolls), 1),), 1
    return _rank_groups(tuple(r.sv_dodge for r in plan.rolls)), FACES


@lru_cache(maxsize=1024)
def _rank_groups(svs: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The faces 1..20 gathered by their ranks against each of ``svs``."""
    tables = [_rank_table(sv) for sv in svs]
    groups: dict[tuple[int, ...], int] = {}
    for face in range(FACES):
        ranks = tuple(table[face] for table in tables)
        groups[ranks] = groups.get(ranks, 0) + 1
    return tuple(groups.items())


def _common_denominators(plan: OrderPlan):
    """Each roll's denominators, the dodge die's faces gathered by rank (groups, faces), and the
    Order's common denominators of hits and of wounds: the faces times every roll's own."""
    dens = [_denominators(r) for r in plan.rolls]
    groups, faces = _face_groups(plan)
    den = wden = faces
    for d in dens:
        den, wden = den * d.hits, wden * d.wounds
    return dens, groups, faces, den, wden


def order_numbers(plan: OrderPlan) -> OrderNumbers:
    """Sum over the dodge die's faces of the Order given that face: given the face, each roll
    depends only on its own dice and saves, so the rolls combine by products and convolutions."""
    rolls = plan.rolls
    dens, groups, faces, den, wden = _common_denominators(plan)
    # Kronecker substitution: a polynomial with non-negative integer coefficients is packed
    # into one integer, a slot of ``bits`` per coefficient, so that one big-integer product is
    # the convolution. Every coefficient met here, summed over the faces too, is at most the
    # final denominator, so slots of its bit length never overflow into each other.
    h_bits, w_bits = den.bit_length() + 1, wden.bit_length() + 1
    given: dict[tuple[int, int], _Packed] = {}
    faces_at: dict[tuple[int, int], int] = {}  # (roll, dodge rank) -> faces giving it
    ok_sum, no_guts_sum = 0, 0
    hits_sum = crits_sum = wounds_sum = 0   # packed
    for ranks, count in groups:
        ok, no_guts, hits, crits, wounds = 1, 1, 1, 1, 1
        for j, (roll, r) in enumerate(zip(rolls, ranks)):
            entry = given.get((j, r))
            if entry is None:
                entry = given[(j, r)] = _packed(roll.kind, roll.dice, roll.sv_attack, roll.hits_on_fail,
                                                roll.saves, roll.threshold, r, h_bits, w_bits)
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
    return OrderNumbers(den, ok_sum, hits_sum, crits_sum, no_guts_sum, wounds_sum,
                        roll_ok, roll_kept, roll_wounds)


def _dist(weights: Sequence[int]) -> Dist:
    return Dist(enumerate(weights))


def final_states(plan: OrderPlan, numbers: OrderNumbers, wounds: Dist) -> Dist:
    """Final states at the end of the Order. Being hit means the dodge failed against something,
    so the trooper did not move and keeps its starting States (Engaged, IMM); a Guts Roll follows
    only a hit of an attack with Damage or a State; Null needs a wound, so it implies such a hit."""
    den = numbers.den
    return Dist.from_fractions(_final_probabilities(
        plan, Fraction(numbers.ok, den), Fraction(numbers.hits[0], den),
        Fraction(numbers.no_guts_hit, den), wounds.at_least(plan.wounds)))


def _final_probabilities(plan: OrderPlan, p_dodged: Fraction, p_no_hit: Fraction,
                         p_no_guts_hit: Fraction, p_null: Fraction) -> dict[str, Fraction]:
    """The probability of each final state (see :func:`final_states`) from P(dodged), P(no hit),
    P(no hit bringing a Guts Roll) and P(Null)."""
    p_guts_case = 1 - p_no_guts_hit - p_null
    if plan.engaged or plan.immobilized != "no":
        blocked, passes, fails = p_guts_case, Fraction(0), Fraction(0)
    else:
        p_pass = Fraction(0) if plan.guts_decision == "fail" else \
            Fraction(sum(rank_weights(plan.guts_sv)[1:]), FACES)
        blocked, passes, fails = Fraction(0), p_guts_case * p_pass, p_guts_case * (1 - p_pass)
    return {
        plan.dodged_label: p_dodged, UNHARMED_STAYS: p_no_hit - p_dodged,
        HIT_NO_EFFECT: p_no_guts_hit - p_no_hit, HIT_NO_GUTS: blocked, HIT_PASSES: passes,
        plan.guts_failed_label: fails, NULL_STATE: p_null}


# -- a grid of headline numbers, for heatmaps ----------------------------------------------------

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


# -- the headline alone, for sweeps ----------------------------------------------------------

class _Scalars(NamedTuple):
    """What the headline needs of one roll given the dodge die's rank against it: the weights of
    the dodge surviving and of no hit, the sums of hits and of wounds times their weights, and
    the wound weights of 0 up to ``keep`` − 1 wounds packed (slots of ``w_bits``)."""

    ok: int
    no_hit: int
    hits: int
    wounds: int
    low: int


@lru_cache(maxsize=1024)
def _scalars(kind: str, n: int, sv_attack: int, hits_on_fail: int, s: int, t: int,
             keep: int, w_bits: int) -> tuple[_Scalars, ...]:
    """:class:`_Scalars` of one roll (its fields as for :func:`_given`) for each dodge rank 0..20."""
    out = []
    for r in range(CRIT + 1):
        g = _given(kind, n, sv_attack, hits_on_fail, s, t, r)
        out.append(_Scalars(g.ok, g.hits[0], sum(k * w for k, w in enumerate(g.hits)),
                            sum(k * w for k, w in enumerate(g.wounds)), pack(g.wounds[:keep], w_bits)))
    return tuple(out)


def headline(scenario: InfinityScenario) -> dict[str, Fraction | None]:
    """``evaluate(scenario).headline`` without the rest of the result (the distributions, the
    per-roll tables, the trace): what a sweep needs at each of its points.

    Per dodge face, as :func:`order_numbers`: P(dodged) and P(no hit) are products over the
    rolls; the expected hits and wounds are sums over the rolls (each roll's own mean, weighted
    by the others' denominators); P(Null) needs only the chance of fewer wounds than W, so only
    the first W coefficients of the wounds' convolution are kept.

    >>> headline(InfinityScenario()) == evaluate(InfinityScenario()).headline
    True
    """
    plan = plan_order(scenario)
    rolls = plan.rolls
    dens, groups, faces, den, wden = _common_denominators(plan)
    keep = max(plan.wounds, 0)
    w_bits = wden.bit_length() + 1  # every coefficient, summed over the faces, is at most wden
    mask = (1 << keep * w_bits) - 1
    tables = [_scalars(r.kind, r.dice, r.sv_attack, r.hits_on_fail, r.saves, r.threshold, keep, w_bits)
              for r in rolls]
    ok_sum = no_hit_sum = no_guts_sum = low_sum = 0
    hits_sum, wounds_sum = [0] * len(rolls), [0] * len(rolls)
    for ranks, count in groups:
        ok = no_hit = no_guts = 1
        low = mask & 1  # the polynomial 1, kept to its first ``keep`` coefficients
        for j, r in enumerate(ranks):
            e = tables[j][r]
            ok *= e.ok
            no_hit *= e.no_hit
            no_guts *= e.no_hit if rolls[j].guts else dens[j].hits
            low = (low * e.low) & mask
            hits_sum[j] += count * e.hits
            wounds_sum[j] += count * e.wounds
        ok_sum += count * ok
        no_hit_sum += count * no_hit
        no_guts_sum += count * no_guts
        low_sum += count * low
    expected_hits = sum(den // (faces * d.hits) * h for d, h in zip(dens, hits_sum))
    expected_wounds = sum(wden // (faces * d.wounds) * w for d, w in zip(dens, wounds_sum))
    p_dodged = Fraction(ok_sum, den) if plan.dodges else Fraction(0)
    p_null = Fraction(wden - sum(unpack(low_sum, w_bits, keep)), wden)
    p_no_hit = Fraction(no_hit_sum, den)
    final = _final_probabilities(plan, p_dodged, p_no_hit, Fraction(no_guts_sum, den), p_null)
    return {
        "p_dodge_succeeds": p_dodged if plan.dodges else None,
        "p_no_hit": p_no_hit,
        "expected_hits": Fraction(expected_hits, den),
        "expected_wounds": Fraction(expected_wounds, wden),
        "p_null": final[NULL_STATE],
        "p_guts_fails": final[plan.guts_failed_label],
    }


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
