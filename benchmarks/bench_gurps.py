"""GURPS 4e: a rapid-fire attack of RoF 10 at 3d+2 pi+ against DR 6, dodged and dropped, whole
evaluate() exact, beside icepool; a turn of three shots with the drop behind cover; a sacrificial
dodge and drop."""

from __future__ import annotations

from fractions import Fraction

import icepool

from benchmarks.common import Case
from rules_core import evaluate, find_preset
from rules_core.systems.gurps_4e import damage, exact

BURST = find_preset("gurps-4e/rapid-fire-dodge-and-drop").scenario  # skill 12 (+2 RoF), Recoil 2, Dodge 9 + 3
COVER = find_preset("gurps-4e/drop-behind-cover").scenario
SACRIFICE = find_preset("gurps-4e/sacrificial-dodge-and-drop").scenario


def clear_caches() -> None:
    for fn in (damage.hit_injury, damage.dice_total, exact._rolled_hits, exact._evasion_rolls):
        fn.cache_clear()


def ours(scenario):
    def run():
        clear_caches()
        result = evaluate(scenario)
        return result.hits, result.distributions["injury"]
    return run


def icepool_burst():
    """Hits landing and total injury of the burst, with icepool: the attack roll and the Dodge
    roll as two 3d6, the hits each pair leaves (B373-375), then that many 3d+2 pi+ hits on DR 6."""
    skill, rof, recoil, dodge = 14, 10, 2, 12

    def landed(attack: int, defense: int) -> int:
        if not (attack <= 4 or (attack <= 16 and attack <= skill)):
            return 0
        hits = min(rof, 1 + max(0, skill - attack) // recoil)
        if attack <= 4:  # critical hit (5 and 6 are not at skill 14): no defense
            return hits
        if defense <= 4 or (defense <= 16 and defense <= dodge):
            return hits - min(hits, 1 + max(0, dodge - defense))
        return hits

    hits = icepool.map(landed, 3 @ icepool.d6, 3 @ icepool.d6)
    per_hit = (3 @ icepool.d6 + 2).map(lambda basic: max(1, (basic - 6) * 3 // 2) if basic > 6 else 0)
    return hits, hits @ per_hit


def same(ours_pair, ice_pair) -> bool:
    return all(dict(d.items()) == {o: Fraction(i.probability(o)) for o in i.outcomes() if i.probability(o)}
               for d, i in zip(ours_pair, ice_pair))


CASES = [
    Case(system="gurps-4e", name="RoF 10 at 3d+2 pi+ vs DR 6, dodge and drop: whole evaluate()",
         run=ours(BURST), target_ms=5.0, reference=icepool_burst,
         reference_name="icepool (hits and injury)", check=same),
    Case(system="gurps-4e", name="three shots, drop behind cover DR 8: whole evaluate()",
         run=ours(COVER), target_ms=20.0),
    Case(system="gurps-4e", name="sacrificial dodge and drop, 3-round burst: whole evaluate()",
         run=ours(SACRIFICE), target_ms=10.0),
]
