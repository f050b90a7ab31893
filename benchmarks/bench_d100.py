"""d100 homebrew: four attacks of 5 hits with two Reactions, exact; beside every face enumerated."""

from __future__ import annotations

from fractions import Fraction

import icepool

from benchmarks.common import Case
from rules_core import enumerate_play, evaluate, find_preset
from rules_core.systems.d100_homebrew import SYSTEM, Attack, D100Scenario, Defender
from rules_core.systems.d100_homebrew.dice import success_counts
from rules_core.systems.d100_homebrew.exact import analyse
from rules_core.systems.d100_homebrew.play import make_plan

# Dodge 65 (Agility 45, Dodge +20), 2 Reactions, four bursts of 5 hits at +0, −10, −20, −30.
FOUR_ATTACKS = D100Scenario(defender=Defender(agility=45, dodge_advance=20, reactions=2),
                            attacks=tuple(Attack(hits=5, evasion_modifier=m) for m in (0, -10, -20, -30)))
BURST = find_preset("d100-homebrew/burst-3-vs-dodge-45").scenario


def clear_caches() -> None:
    for fn in (analyse, make_plan, success_counts):
        fn.cache_clear()


def ours(scenario: D100Scenario):
    clear_caches()
    return evaluate(scenario)


def every_face(scenario: D100Scenario) -> dict[int, Fraction]:
    """Hits landing, by playing the rule on every face of every roll made (no grouping of faces)."""
    return dict(enumerate_play(SYSTEM, scenario, classify=False, key=lambda p: p.hits).items())


def icepool_burst() -> tuple[Fraction, Fraction]:
    """One roll at 45 against 3 hits: no hit iff 3+ Successes (face <= 25); hits landing
    3 − min(Successes, 3), with Successes 1 + (45 − face) // 10 on faces 01–45."""
    die = icepool.d100.map(lambda f: 3 - min(3, 1 + (45 - f) // 10) if f <= 45 else 3)
    return Fraction(die.probability(0)), Fraction(die.mean())


CASES = [
    Case(system="d100-homebrew", name="4 attacks × 5 hits, 2 Reactions: whole evaluate()",
         run=lambda: ours(FOUR_ATTACKS), target_ms=5.0,
         reference=lambda: every_face(FOUR_ATTACKS), reference_name="every face enumerated",
         check=lambda result, ref: dict(result.hits.items()) == ref),
    Case(system="d100-homebrew", name="Burst 3 vs Dodge 45 preset: whole evaluate()",
         run=lambda: ours(BURST), target_ms=2.0, reference=icepool_burst,
         check=lambda result, ref: (result.headline["p_no_hit"], result.headline["expected_hits"]) == ref),
]
