"""Monte Carlo through each system's rule on concrete dice (``System.play``): the classroom's
"Simulate" button. Target: 100,000 rolls of any preset in ≤ 10 s, so 10,000 rolls (what each
case times, for a short benchmark run) in ≤ 1 s. Every system's heaviest-rolling preset is
timed, as well as its first."""

from __future__ import annotations

from benchmarks.common import Case
from rules_core import all_systems
from rules_core.simulate import simulate

ROLLS = 10_000


def run(system, scenario):
    return lambda: simulate(system, scenario, ROLLS, seed=1).rolls


def _dice_per_roll(system, scenario) -> int:
    from rules_core import play_once
    return sum(len(r.faces) for r in play_once(system, scenario, seed=1).rolled)


CASES = []
for system in all_systems().values():
    first = system.presets[0]
    heaviest = max(system.presets, key=lambda p: _dice_per_roll(system, p.scenario))
    for preset in dict.fromkeys([first, heaviest]):
        CASES.append(Case(system.id, f"simulate {ROLLS:,} rolls of {preset.name}",
                          run(system, preset.scenario), target_ms=1000))
