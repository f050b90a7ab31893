"""A designer's rule (issue: design your own rule): exact from enumerating ``play`` alone.

- the 2d10 rule of tests/example_rule.py (id ``my-2d10``), one whole ``evaluate`` ≤ 5 ms, beside
  every face pair walked by the rule's text;
- a rule rolling 4d20 as an unordered pool with a grouping hint (:data:`POOL`, written here), one
  whole ``evaluate`` ≤ 100 ms, beside icepool;
- a sweep of 20 points of a designer's rule (:func:`rules_core.sweep`) ≤ 1 s.

A designer's rule keeps no result cache: every timed call walks the dice again. Each rule is
registered only while its call runs (:func:`registered`), so no other benchmark module sees it.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal, TypeVar

import icepool

from benchmarks.common import Case
from rules_core import (Dice, Play, Scenario, System, TraceStep, evaluate, number, register, rule, sweep,
                        unregister)

T = TypeVar("T")


def _example_rule() -> System:
    """``SYSTEM`` of tests/example_rule.py, loaded from its file (as ``--system-module`` loads it)."""
    path = Path(__file__).resolve().parent.parent / "tests" / "example_rule.py"
    spec = importlib.util.spec_from_file_location("benchmarks._example_rule", path)
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.SYSTEM


TWO_D10 = _example_rule()


def registered(system: System, fn: Callable[[], T]) -> T:
    """``fn()`` with ``system`` registered (what looks a system up by id sees it), then taken away."""
    register(system)
    try:
        return fn()
    finally:
        unregister(system.id)


# -- a 4d20 pool with a grouping hint ------------------------------------------------------------------

POOL_CITE = "Benchmark pool rule (benchmarks/bench_design.py)"


class PoolScenario(Scenario):
    system: Literal["bench-4d20-pool"] = "bench-4d20-pool"
    skill: int = number(12, ge=1, le=20, label="Dodge skill", help="Each d20 at or under it succeeds.",
                        citation=POOL_CITE)
    hits: int = number(4, ge=1, le=6, label="Hits", help="Hits coming in.", citation=POOL_CITE)


def _kinds(pool: tuple[int, ...], skill: int) -> tuple[int, int]:
    """(successes, criticals) of a pool: a die at or under the skill succeeds; one showing the
    skill exactly is a critical."""
    return sum(f <= skill for f in pool), sum(f == skill for f in pool)


def pool_play(s: PoolScenario, roller) -> Play:
    """4d20 at or under the skill: each success cancels one hit; a critical cancels every hit."""
    pool = roller.roll(Dice("Dodge pool", sides=20, count=4, ordered=False,
                            classify=lambda faces: _kinds(faces, s.skill)))
    successes, criticals = _kinds(pool, s.skill)
    cancelled = s.hits if criticals else min(s.hits, successes)
    left = s.hits - cancelled
    trace = [TraceStep("Dodge", f"{', '.join(map(str, pool))} against {s.skill}: {successes} successes"
                       + (", a critical cancels every hit" if criticals else f", {cancelled} hits cancelled"),
                       POOL_CITE)] if roller.explain else []
    return Play("dodged" if left == 0 else "some hit" if cancelled else "all hit", left,
                evasions=(successes > 0,), quantities={"cancelled": cancelled}, trace=trace)


POOL = rule("bench-4d20-pool", "4d20 dodge pool", PoolScenario, pool_play,
            outcomes=("dodged", "some hit", "all hit"), sources=[POOL_CITE])


def icepool_pool(s: PoolScenario) -> tuple[Fraction, Fraction]:
    """(P(no hit), expected hits) of the pool rule: each die is 0 (over the skill), 1 (under it)
    or 100 (a critical); the sum of four says successes and criticals."""
    die = icepool.d20.map(lambda f: 100 if f == s.skill else 1 if f < s.skill else 0)
    left = (4 @ die).map(lambda total: 0 if total >= 100 else max(0, s.hits - total))
    return Fraction(left.probability(0)), Fraction(left.mean())


# -- the 2d10 rule's reference: every face pair, by the rule's text -----------------------------------

def every_face_pair(skill: int, hits: int) -> tuple[Fraction, Fraction, Fraction]:
    """(P(dodge succeeds), P(no hit), expected hits) of tests/example_rule.py's rule: 2d10 at or
    under the skill; the margin and the roll cancel margin + 1 hits; doubles cancel every hit."""
    passed = no_hit = landed = 0
    for a in range(1, 11):
        for b in range(1, 11):
            left = hits if a + b > skill else 0 if a == b else max(0, hits - (skill - a - b + 1))
            passed += a + b <= skill
            no_hit += left == 0
            landed += left
    return Fraction(passed, 100), Fraction(no_hit, 100), Fraction(landed, 100)


def _headline(result: Any, *keys: str) -> tuple[Fraction, ...]:
    return tuple(result.headline[k] for k in keys)


TWO_D10_SCENARIO = TWO_D10.scenario_cls()            # skill 11, 3 hits
POOL_SCENARIO = PoolScenario()                      # skill 12, 4 hits
SKILLS = list(range(1, 21))                         # the pool rule's every skill: 20 points

CASES = [
    Case(system="design", name="my-2d10 (tests/example_rule.py), skill 11, 3 hits: whole evaluate()",
         run=lambda: registered(TWO_D10, lambda: evaluate(TWO_D10_SCENARIO)), target_ms=5.0,
         reference=lambda: every_face_pair(11, 3), reference_name="every face pair, by the rule's text",
         check=lambda result, ref: _headline(result, "p_dodge_succeeds", "p_no_hit", "expected_hits") == ref),
    Case(system="design", name="4d20 unordered pool with a grouping hint, skill 12, 4 hits: whole evaluate()",
         run=lambda: registered(POOL, lambda: evaluate(POOL_SCENARIO)), target_ms=100.0,
         reference=lambda: icepool_pool(POOL_SCENARIO),
         check=lambda result, ref: _headline(result, "p_no_hit", "expected_hits") == ref),
    Case(system="design", name="sweep 20 values of skill (1 to 20): the 4d20 pool rule",
         run=lambda: registered(POOL, lambda: sweep(POOL_SCENARIO, "skill", SKILLS)), target_ms=1000.0,
         reference=lambda: [icepool_pool(PoolScenario(skill=k)) for k in SKILLS],
         check=lambda swept, ref: [_headline(p, "p_no_hit", "expected_hits") for p in swept] == ref),
    Case(system="design", name="sweep 19 values of skill (2 to 20): my-2d10",
         run=lambda: registered(TWO_D10, lambda: sweep(TWO_D10_SCENARIO, "skill", list(range(2, 21)))),
         target_ms=1000.0),
]
