"""Infinity N4: one Face to Face Roll and a 40×40 grid of Success Values, beside icepool; the
whole Order (three attackers of Burst 3 and a mine, DA saves) and its 30×30 heatmap as the page
computes it (the sweep panel preset to PH × the first attacker's value)."""

from __future__ import annotations

from fractions import Fraction

import icepool

from benchmarks.common import Case
from rules_core import evaluate, find_preset
from rules_core.poly import binomial
from rules_core.systems.infinity_n4 import exact
from rules_core.systems.infinity_n4.play import plan_order
from rules_core.systems.infinity_n4.exact import f2f_headline
from rules_core.systems.infinity_n4.scenario import Attacker, Dodger, InfinityScenario, Template
from workbook.panels.sweep import clear_sweep_cache, sweep_around, sweep_figure

GRID = range(-9, 31)  # 40 Success Values a side


def clear_caches() -> None:
    for fn in (exact.rank_weights, exact._at_most, exact.best_rank_weights, exact.face_to_face,
               exact._multinomials, exact._rank_table, exact._f2f_by_rank, exact._given,
               exact._packed, exact._scalars, exact._rank_groups, binomial, plan_order):
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
    return exact.face_to_face(13, 5, 15, 3)


def ours_grid():
    clear_caches()
    return [[f2f_headline(a, 5, b, 3) for b in GRID] for a in GRID]


SAMPLE = [(a, b) for a in (-9, 5, 13, 21, 30) for b in (0, 15)]


def icepool_grid_sample():
    icepool.clear_cache() if hasattr(icepool, "clear_cache") else None
    return [icepool_headline(a, 5, b, 3) for a, b in SAMPLE]


SEED = find_preset("infinity-n4/zhanshi-vs-fusilier").scenario

# The whole Order: three AROs of Burst 3 with DA ammunition and a mine without LoF (DA too),
# against a W 2 trooper; every headline, the wounds, the final states and the per-roll tables.
FULL_ORDER = InfinityScenario(
    dodger=Dodger(ph=12, arm=2, wounds=2, wip=13),
    attackers=tuple(Attacker(value=value, mod=3, burst=3, ammo="DA") for value in (11, 12, 13)),
    template=Template(kind="deployable", lof=False, ammo="DA"), minus_three="stacking")

#: The page's heatmap (workbook.systems.infinity.HeatmapPanel): the sweep panel over the dodger's PH ×
#: the first attacker's value, 30 values a side around the scenario's own.
HEAT_FIELDS = ("dodger.ph", "attackers.0.value")
HEAT_SAMPLE = [(0, 0), (0, 26), (9, 4), (9, 12), (9, 26), (17, 4), (17, 12), (17, 26), (29, 12), (29, 29)]


def ours_full_order():
    clear_caches()
    return evaluate(FULL_ORDER)


def ours_heatmap():
    """The sweep and its figure, as the page's heatmap panel makes them (P(dodge succeeds))."""
    clear_caches()
    clear_sweep_cache()
    swept = sweep_around(FULL_ORDER, *HEAT_FIELDS)
    sweep_figure(swept, quantity="p_dodge_succeeds")
    return swept


def heatmap_cells_by_evaluate():
    """The same cells the slow way: a whole evaluate() per cell, the caches cleared first."""
    clear_caches()
    cells = []
    for ph, value in HEAT_SAMPLE:
        result = evaluate(FULL_ORDER.set(HEAT_FIELDS[0], ph).set(HEAT_FIELDS[1], value))
        cells.append((result.headline["p_dodge_succeeds"], result.headline["p_no_hit"]))
    return cells


def heatmap_agrees(ours, ref) -> bool:
    shown = {p.values: (p.headline["p_dodge_succeeds"], p.headline["p_no_hit"]) for p in ours.points}
    return len(shown) == 900 and all(shown[cell] == want for cell, want in zip(HEAT_SAMPLE, ref))

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
    Case(system="infinity-n4", name="Full Order: 3 attackers B3 + a mine, DA saves, whole evaluate()",
         run=ours_full_order, target_ms=5.0),
    Case(system="infinity-n4", name="The page's heatmap of that Order: sweep panel (sweep and figure), PH × first attacker's value, 30×30",
         run=ours_heatmap, target_ms=1000.0,
         reference=heatmap_cells_by_evaluate, reference_name="evaluate() per cell, 10-cell sample",
         reference_scale=900 / len(HEAT_SAMPLE), check=heatmap_agrees),
]
