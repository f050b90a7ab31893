"""Sweeps (issue: compare, sweep, export): a 20-point sweep of any preset along its system's
evasion attribute in ≤ 50 ms, and a 30×30 heatmap (the evasion attribute against the first
attack's number field) in ≤ 1 s. Every preset of every system is swept; one heatmap per system.
Each point is a validated scenario and its exact headline (:func:`rules_core.sweep`: the system's
headline alone where it has one, ``System.headline``, else the headline of a whole evaluation);
the heatmaps are computed as the dashboard's sweep panel does
(:func:`workbook.panels.sweep.sweep_around`). Every timed call starts with the system's result
caches cleared (:data:`CLEAR`)."""

from __future__ import annotations

from benchmarks import bench_d100, bench_eldfall, bench_gurps, bench_infinity
from benchmarks.common import Case
from rules_core import sweep
from rules_core.registry import built_in_systems
from rules_core.sweeps import allowed_values
from workbook.panels.sweep import GRID_SIDE, clear_sweep_cache, sweep_around

#: Each system's result caches, cleared inside every timed call: each sweep is computed cold.
CLEAR = {"d100-homebrew": bench_d100.clear_caches, "eldfall": bench_eldfall.clear_caches,
         "gurps-4e": bench_gurps.clear_caches, "infinity-n4": bench_infinity.clear_caches}

#: For each system, the second field of its heatmap: a number of the first attack or attacker.
SECOND = {"infinity-n4": "attackers.0.value", "eldfall": "attackers.0.value",
          "gurps-4e": "attacks.0.skill", "d100-homebrew": "attacks.0.evasion_modifier"}


def _around(scenario, path, count):
    """``count`` allowed values of ``path`` starting near the scenario's own (fewer when the field has fewer)."""
    values = allowed_values(scenario, path)
    at = values.index(scenario.get(path))
    start = max(0, min(at - count // 2, len(values) - count))
    return values[start:start + count]


def line(scenario, path):
    values = _around(scenario, path, 20)

    def run():
        CLEAR[scenario.system]()
        return len(sweep(scenario, path, values))
    return run


def grid(scenario, path, other):
    """The heatmap as the page's sweep panel computes it (30 values a side around the scenario's
    own), its cache of earlier sweeps cleared."""
    def run():
        CLEAR[scenario.system]()
        clear_sweep_cache()
        return len(sweep_around(scenario, path, other))
    return run


CASES = []
for system in built_in_systems().values():  # the four games (a designer's rule: bench_design)
    if system.evasion is None:
        continue
    path = system.evasion.attribute
    for preset in system.presets:
        CASES.append(Case(system.id, f"sweep 20 values of {path}: {preset.name}", line(preset.scenario, path),
                          target_ms=50))
    scenario = system.presets[0].scenario
    other = SECOND[system.id]
    size = len(_around(scenario, path, GRID_SIDE)) * len(_around(scenario, other, GRID_SIDE))
    CASES.append(Case(system.id, f"heatmap {path} × {other} ({size} points): {system.presets[0].name}",
                      grid(scenario, path, other), target_ms=1000))
