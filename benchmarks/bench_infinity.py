"""Infinity N4: one Face to Face Roll and a 40×40 grid of Success Values, beside icepool."""

from __future__ import annotations

from fractions import Fraction

import icepool

from benchmarks.common import Case
from rules_core import evaluate, find_preset
from rules_core.systems import infinity
from rules_core.systems.infinity import f2f_headline

GRID = range(-9, 31)  # 40 Success Values a side


def clear_caches() -> None:
    for fn in (infinity.rank_weights, infinity._at_most, infinity.best_rank_weights, infinity.face_to_face):
        fn.cache_clear()


def rank_die(sv: int) -> icepool.Die:
    def rank(face: int) -> int:
        if sv <= 0:
            return 0
        if sv > 20:
            return min(face + sv - 20, 20)
        return 20 if face == sv else (face if face < sv else 0)
    return icepool.d20.map(rank)


def icepool_headline(sv_a: int, dice_a: int, sv_b: int, dice_b: int):
    pool_a, pool_b = rank_die(sv_a).pool(dice_a), rank_die(sv_b).pool(dice_b)
    best_a, best_b = pool_a.highest(1).sum(), pool_b.highest(1).sum()
    kept_a = icepool.map(lambda m: pool_a.keep_outcomes(lambda o: o > m and o > 0).size(), best_b)
    kept_b = icepool.map(lambda m: pool_b.keep_outcomes(lambda o: o > m and o > 0).size(), best_a)
    return (Fraction((kept_a > 0).probability(True)), Fraction((kept_b > 0).probability(True)),
            Fraction(kept_a.mean()), Fraction(kept_b.mean()))


def headline_of(dist) -> tuple:
    return (dist.probability(lambda o: o[0] == "A"), dist.probability(lambda o: o[0] == "B"),
            dist.mean(lambda o: o[1] if o[0] == "A" else 0), dist.mean(lambda o: o[1] if o[0] == "B" else 0))


def ours_single():
    clear_caches()
    return infinity.face_to_face(13, 5, 15, 3)


def ours_grid():
    clear_caches()
    return [[f2f_headline(a, 5, b, 3) for b in GRID] for a in GRID]


SAMPLE = [(a, b) for a in (-9, 5, 13, 21, 30) for b in (0, 15)]


def icepool_grid_sample():
    icepool.clear_cache() if hasattr(icepool, "clear_cache") else None
    return [icepool_headline(a, 5, b, 3) for a, b in SAMPLE]


SEED = find_preset("infinity-n4/zhanshi-vs-fusilier").scenario

CASES = [
    Case(system="infinity-n4", name="Dodge: seed preset, whole evaluate() (1 vs 3)",
         run=lambda: (clear_caches(), evaluate(SEED))[1], target_ms=2.0),
    Case(system="infinity-n4", name="F2F Burst 5 vs 3: full outcome distribution",
         run=ours_single, target_ms=2.0,
         reference=lambda: icepool_headline(13, 5, 15, 3),
         reference_name="icepool (4 headline numbers)",
         check=lambda ours, ref: headline_of(ours) == ref),
    Case(system="infinity-n4", name="40×40 grid of SVs, F2F Burst 5 vs 3 (4 numbers a cell)",
         run=ours_grid, target_ms=100.0,
         reference=icepool_grid_sample, reference_name="icepool, 10-cell sample",
         reference_scale=len(GRID) ** 2 / len(SAMPLE),
         check=lambda ours, ref: all(ours[a + 9][b + 9] == r for (a, b), r in zip(SAMPLE, ref))),
]
