"""Infinity N4 Face to Face Rolls and the Dodge (``exact.py``): fast exact paths against the rule
on concrete faces (exhaustive), against icepool, against the seed, and invariants."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from math import factorial

import icepool
import pytest

from rules_core import Dist, evaluate, find_preset
from rules_core.systems.infinity_n4.dice import resolve_face_to_face
from rules_core.systems.infinity_n4.exact import dodge_headline, f2f_headline, face_to_face
from rules_core.systems.infinity_n4.scenario import Attacker, Dodger, InfinityScenario

GRID_SVS = (0, 1, 19, 20, 21, 25, 30)


def multisets(dice: int):
    """Every multiset of ``dice`` d20 faces with the number of ordered rolls it stands for."""
    for faces in itertools.combinations_with_replacement(range(1, 21), dice):
        ways = factorial(dice)
        for count in Counter(faces).values():
            ways //= factorial(count)
        yield faces, ways


def brute_force(sv_a: int, dice_a: int, sv_b: int, dice_b: int) -> Dist:
    """Apply the rule to every concrete roll of both sides."""
    side_a, side_b = list(multisets(dice_a)), list(multisets(dice_b))
    weights: Counter = Counter()
    for faces_a, wa in side_a:
        for faces_b, wb in side_b:
            kept_a, kept_b = resolve_face_to_face(faces_a, sv_a, faces_b, sv_b)
            assert not (kept_a and kept_b), "at most one side keeps successes"
            if kept_a:
                key = ("A", len(kept_a), kept_a.count(20))
            elif kept_b:
                key = ("B", len(kept_b), kept_b.count(20))
            else:
                key = ("none", 0, 0)
            weights[key] += wa * wb
    assert sum(weights.values()) == 20 ** (dice_a + dice_b)
    return Dist(weights)


# -- fast path == exhaustive enumeration --------------------------------------------------------

SMALL = [(a, b) for a in GRID_SVS for b in GRID_SVS]


@pytest.mark.parametrize("sv_a, sv_b", SMALL)
@pytest.mark.parametrize("dice_a, dice_b", [(1, 1), (1, 2), (2, 2)])
def test_face_to_face_equals_brute_force_grid(sv_a, sv_b, dice_a, dice_b):
    assert face_to_face(sv_a, dice_a, sv_b, dice_b) == brute_force(sv_a, dice_a, sv_b, dice_b)


@pytest.mark.slow
@pytest.mark.parametrize("sv_a, sv_b", [(10, 15), (1, 30), (21, 19), (20, 25), (0, 12)])
def test_face_to_face_equals_brute_force_burst_5_vs_1(sv_a, sv_b):
    assert face_to_face(sv_b, 5, sv_a, 1) == brute_force(sv_b, 5, sv_a, 1)


@pytest.mark.slow
@pytest.mark.parametrize("sv_a, sv_b", [(13, 15), (25, 21)])
def test_face_to_face_equals_brute_force_burst_3_vs_3(sv_a, sv_b):
    assert face_to_face(sv_a, 3, sv_b, 3) == brute_force(sv_a, 3, sv_b, 3)


@pytest.mark.parametrize("burst", [1, 2, 3, 4, 5])
def test_dodge_headline_equals_full_distribution(burst):
    for sv_d in range(-2, 33, 3):
        for sv_a in range(-1, 33, 2):
            f2f = face_to_face(sv_d, 1, sv_a, burst)
            hits = f2f.map(lambda o: o[1] if o[0] == "B" else 0)
            assert dodge_headline(sv_d, sv_a, burst) == (
                f2f.probability(lambda o: o[0] == "A"), hits.probability(0), hits.mean())


# -- the seed example ---------------------------------------------------------------------------

def test_seed_zhanshi_vs_fusilier():
    # Infinity N4 wiki, Dodge, Examples: Zhanshi PH 10 vs Fusilier BS 12 + 3 range = SV 15, B3.
    # By hand: the Zhanshi keeps a success only with a face d <= 10 that beats all three dice.
    # d < 10: each Fusilier die must fail (16..20: 5 faces) or roll below d (d-1 faces), so
    #   sum_{d=1..9} (d + 4)^3 = 5^3 + ... + 13^3 = (1^3 + ... + 13^3) - (1^3 + ... + 4^3)
    #   = 91^2 - 10^2 = 8181 rolls;
    # d = 10 (critical): no Fusilier die may be critical (19 faces of 20): 19^3 = 6859 rolls.
    # (8181 + 6859) / 20^4 = 15040 / 160000 = 47/500.
    by_hand = Fraction(sum((d - 1 + 5) ** 3 for d in range(1, 10)) + 19 ** 3, 20 ** 4)
    assert by_hand == Fraction(47, 500)
    result = evaluate(find_preset("infinity-n4/zhanshi-vs-fusilier").scenario)
    assert result.headline["p_dodge_succeeds"] == Fraction(47, 500)
    assert result.outcomes["Dodge succeeds"] == Fraction(47, 500)


# -- independent cross-check with icepool -----------------------------------------------------

def _icepool_rank_die(sv: int) -> icepool.Die:
    """One d20 as icepool sees it: 0 fail, its value on a success, 20 on a critical."""
    def rank(face):
        if sv <= 0:
            return 0
        if sv > 20:
            total = face + sv - 20
            return 20 if total >= 20 else total
        return 20 if face == sv else (face if face < sv else 0)
    return icepool.d20.map(rank)


@pytest.mark.parametrize("sv_d, sv_a, burst", [(10, 15, 3), (14, 12, 2), (22, 11, 3), (7, 24, 2), (1, 20, 1)])
def test_dodge_against_icepool(sv_d, sv_a, burst):
    dodge, attack = _icepool_rank_die(sv_d), _icepool_rank_die(sv_a)
    best = icepool.map(lambda pool: max(pool), attack.pool(burst))
    p_dodge = (dodge > best).probability(True)
    hits = icepool.map(lambda d, pool: sum(1 for o in pool if o > d), dodge, attack.pool(burst))
    ours = dodge_headline(sv_d, sv_a, burst)
    assert ours == (Fraction(p_dodge), Fraction(hits.probability(0)), Fraction(hits.mean()))


@pytest.mark.parametrize("sv_a, sv_b", [(12, 13), (21, 9)])
def test_two_vs_two_against_icepool(sv_a, sv_b):
    a, b = _icepool_rank_die(sv_a), _icepool_rank_die(sv_b)

    def outcome(pa, pb):
        best_a, best_b = max(pa), max(pb)
        kept_a = [r for r in pa if r > best_b and r > 0]
        kept_b = [r for r in pb if r > best_a and r > 0]
        if kept_a:
            return ("A", len(kept_a), kept_a.count(20))
        if kept_b:
            return ("B", len(kept_b), kept_b.count(20))
        return ("none", 0, 0)

    die = icepool.map(outcome, a.pool(2), b.pool(2))
    ours = face_to_face(sv_a, 2, sv_b, 2)
    assert {o: Fraction(die.probability(o)) for o in die.outcomes()} == dict(ours.items())


# -- invariants ---------------------------------------------------------------------------------

def test_mirror_symmetry():
    swap = {"A": "B", "B": "A", "none": "none"}
    for sv_a, sv_b, na, nb in [(10, 15, 1, 3), (21, 13, 2, 4), (0, 8, 3, 1)]:
        mirrored = face_to_face(sv_b, nb, sv_a, na).map(lambda o: (swap[o[0]], o[1], o[2]))
        assert mirrored == face_to_face(sv_a, na, sv_b, nb)


@pytest.mark.parametrize("burst", [1, 3, 5])
def test_dodging_never_gets_worse_as_ph_rises(burst):
    for sv_a in (5, 12, 15, 20, 23):
        previous = None
        for ph in range(0, 31):
            now = dodge_headline(ph, sv_a, burst)
            if previous is not None:
                assert now[0] >= previous[0] and now[1] >= previous[1] and now[2] <= previous[2]
            previous = now


def test_one_attacker_order_is_the_one_face_to_face_roll():
    # The whole-Order path of evaluate() against the one-roll formula, which is computed another
    # way (conditioning on the attacker's best die, not on the dodge die's face).
    for ph in (0, 10, 22):
        for burst in (1, 4):
            scenario = InfinityScenario(dodger=Dodger(ph=ph), attackers=(Attacker(value=13, burst=burst),))
            result = evaluate(scenario)
            h = result.headline
            assert (h["p_dodge_succeeds"], h["p_no_hit"], h["expected_hits"]) == dodge_headline(ph, 13, burst)
            assert max(result.hits.outcomes()) == burst


def test_mod_cap_shows_in_trace():
    result = evaluate(InfinityScenario(dodger=Dodger(ph=10, mod=-15), attackers=(Attacker(),)))
    text = "\n".join(map(str, result.trace))
    assert "SV -2" in text and "capped to -12" in text and "automatic failure" in text
    assert result.headline["p_dodge_succeeds"] == 0
    assert "p_dodge_succeeds" in result.notes


@pytest.mark.parametrize("dice_a, dice_b", [(1, 1), (2, 3), (5, 3), (4, 4)])
def test_f2f_headline_equals_full_distribution(dice_a, dice_b):
    for sv_a in (-1, 1, 8, 15, 20, 21, 26):
        for sv_b in (0, 3, 12, 19, 20, 24, 31):
            f2f = face_to_face(sv_a, dice_a, sv_b, dice_b)
            assert f2f_headline(sv_a, dice_a, sv_b, dice_b) == (
                f2f.probability(lambda o: o[0] == "A"), f2f.probability(lambda o: o[0] == "B"),
                f2f.mean(lambda o: o[1] if o[0] == "A" else 0),
                f2f.mean(lambda o: o[1] if o[0] == "B" else 0))


def icepool_f2f_headline(sv_a, dice_a, sv_b, dice_b):
    """P(each side keeps a success) and their expected kept successes, the icepool way:
    a side keeps exactly its dice above the other side's best die."""
    pool_a, pool_b = _icepool_rank_die(sv_a).pool(dice_a), _icepool_rank_die(sv_b).pool(dice_b)
    best_a, best_b = pool_a.highest(1).sum(), pool_b.highest(1).sum()
    kept_a = icepool.map(lambda m: pool_a.keep_outcomes(lambda o: o > m and o > 0).size(), best_b)
    kept_b = icepool.map(lambda m: pool_b.keep_outcomes(lambda o: o > m and o > 0).size(), best_a)
    return (Fraction((kept_a > 0).probability(True)), Fraction((kept_b > 0).probability(True)),
            Fraction(kept_a.mean()), Fraction(kept_b.mean()))


@pytest.mark.parametrize("case", [(13, 5, 15, 3), (25, 2, 1, 4), (0, 3, 20, 2), (21, 5, 22, 3)])
def test_f2f_headline_against_icepool(case):
    assert f2f_headline(*case) == icepool_f2f_headline(*case)
