"""Eldfall Chronicles: three attackers of STK 4 with Burn (2) against a dodging defender, whole
evaluate(), beside icepool; the same under the `compared` ruling and with Protective Barrier; the
dashboard's pair of results (with and without the Dodge)."""

from __future__ import annotations

from fractions import Fraction
from functools import reduce

import icepool

from benchmarks.common import Case
from rules_core import evaluate, find_preset
from rules_core import poly
from rules_core.systems.eldfall import dice, exact, without_reaction

THREE = find_preset("eldfall/three-attackers-burn").scenario      # ACC 12, STK 4, PW 12, Burn 2 ×3 vs AG 11, ARM 3
COMPARED = THREE.replace(dodge_resolution="compared")
BARRIER = THREE.replace(defender=THREE.defender.replace(barrier=True), post_dodge_move="seed")
DASHBOARD = find_preset("eldfall/dodge-vs-critical").scenario


def clear_caches() -> None:
    for fn in (dice.face_kinds, exact._landing, exact._wounds, poly.binomial):
        fn.cache_clear()


def ours(scenario):
    def run():
        clear_caches()
        result = evaluate(scenario)
        return result.hits, result.distributions["wounds"]
    return run


def icepool_three_attacks():
    """Hits and Wounds of the three Attacks, built with icepool: one Attack's (Hits, Wounds) as a
    joint die, summed three times (each Attack has its own AG roll, and no Barrier links them)."""
    value, stk, ag, pw, arm, burn = 12, 4, 11, 12, 3, 2
    attack = icepool.d20.map(lambda f: icepool.Vector((1, 0)) if f == 1 else
                             icepool.Vector((0, 1)) if f <= value else icepool.Vector((0, 0)))
    pool = reduce(lambda x, y: x + y, [attack] * stk)
    dodge = icepool.d20.map(lambda g: g <= ag)
    landing = icepool.map(lambda v, ok: (v[0], 0 if ok else v[1]), pool, dodge)
    wound = lambda threshold: icepool.d20.map(lambda f: int(f <= threshold))
    burned = reduce(lambda x, y: x + y, [wound(pw)] * burn)

    def one(c, p):
        base = reduce(lambda x, y: x + y, [wound(pw)] * c + [wound(pw - arm)] * p, icepool.Die([0]))
        return base.map(lambda w: icepool.Vector((c + p, w)) + burned.map(lambda b: icepool.Vector((0, b)))
                        if w else icepool.Vector((c + p, 0)))

    single = landing.map(one)
    total = single + single + single
    return total.marginals[0], total.marginals[1]


def same(ours_value, ref) -> bool:
    hits, wounds = ours_value
    ref_hits, ref_wounds = ref
    return (all(hits[k] == Fraction(ref_hits.probability(k)) for k in range(13))
            and all(wounds[w] == Fraction(ref_wounds.probability(w)) for w in range(19)))


def dashboard_pair():
    clear_caches()
    return evaluate(DASHBOARD), evaluate(without_reaction(DASHBOARD))


CASES = [
    Case(system="eldfall", name="3 attackers STK 4, Burn 2 vs a Dodge: whole evaluate()",
         run=ours(THREE), target_ms=5.0, reference=icepool_three_attacks,
         reference_name="icepool (hits and wounds)", check=same),
    Case(system="eldfall", name="the same, `compared` ruling (AG face against the attack dice)",
         run=ours(COMPARED), target_ms=5.0),
    Case(system="eldfall", name="the same, with Protective Barrier linking the Attacks",
         run=ours(BARRIER), target_ms=5.0),
    Case(system="eldfall", name="dashboard: a preset with and without the Dodge (2 evaluate())",
         run=dashboard_pair, target_ms=5.0),
]
