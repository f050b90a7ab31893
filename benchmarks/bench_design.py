"""A designer's rule (issue: design your own rule): exact from enumerating ``play`` alone.

- the 2d10 rule of tests/example_rule.py (id ``my-2d10``), one whole ``evaluate``, walked and with
  an ``exact=`` form of its own (:data:`TWO_D10_EXACT`, checked against the walk), beside icepool
  (``icepool.map`` of the rule over two d10s) and beside every face pair walked by the rule's
  text in a plain loop (no library: the fastest a Python rule can be walked);
- a rule rolling a pool of d20s, unordered (written here), read through a grouping hint: by
  kinds of faces (:data:`POOL_BY_KIND`, ``face_kind``: over, under or on the skill) and by its
  successes and criticals (:data:`POOL`, ``classify``);
  4d20's ``evaluate``, a sweep of its 20 skill values, 6d20, each beside icepool;
- the page's 20 × 20 heatmap of the 4d20 rule (the sweep panel: skill × hits, sweep and figure);
- a sweep of 19 points of my-2d10.

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


# -- a pool of d20s, by either hint -----------------------------------------------------------------

POOL_CITE = "Benchmark pool rule (benchmarks/bench_design.py)"


class PoolScenario(Scenario):
    system: Literal["bench-4d20-pool"] = "bench-4d20-pool"
    dice: int = number(4, ge=1, le=30, label="Dice", help="d20s in the dodge pool.", citation=POOL_CITE)
    skill: int = number(12, ge=1, le=20, label="Dodge skill", help="Each d20 at or under it succeeds.",
                        citation=POOL_CITE)
    hits: int = number(4, ge=1, le=20, label="Hits", help="Hits coming in.", citation=POOL_CITE)


def _kinds(pool: tuple[int, ...], skill: int) -> tuple[int, int]:
    """(successes, criticals) of a pool: a die at or under the skill succeeds; one showing the
    skill exactly is a critical."""
    return sum(f <= skill for f in pool), sum(f == skill for f in pool)


def pool_rule(hint: str) -> System:
    """The pool rule, its pool read through the grouping hint ``hint``: ``"face_kind"`` (each
    face over, under or on the skill) or ``"classify"`` (each pool by its successes and
    criticals)."""
    def pool_play(s: PoolScenario, roller) -> Play:
        """The pool at or under the skill: each success cancels one hit; a critical cancels every hit."""
        grouping = {"face_kind": lambda face: (face <= s.skill, face == s.skill)} if hint == "face_kind" \
            else {"classify": lambda faces: _kinds(faces, s.skill)}
        pool = roller.roll(Dice("Dodge pool", sides=20, count=s.dice, ordered=False, **grouping))
        successes, criticals = _kinds(pool, s.skill)
        cancelled = s.hits if criticals else min(s.hits, successes)
        left = s.hits - cancelled
        trace = [TraceStep("Dodge", f"{', '.join(map(str, pool))} against {s.skill}: {successes} successes"
                           + (", a critical cancels every hit" if criticals else f", {cancelled} hits cancelled"),
                           POOL_CITE)] if roller.explain else []
        return Play("dodged" if left == 0 else "some hit" if cancelled else "all hit", left,
                    evasions=(successes > 0,), quantities={"cancelled": cancelled}, trace=trace)

    return rule("bench-4d20-pool", "d20 dodge pool", PoolScenario, pool_play,
                outcomes=("dodged", "some hit", "all hit"), sources=[POOL_CITE],
                presets={"three-dice": PoolScenario(dice=3, skill=15), "one-die": PoolScenario(dice=1, hits=1)})


POOL = pool_rule("classify")
POOL_BY_KIND = pool_rule("face_kind")


def icepool_pool(s: PoolScenario) -> tuple[Fraction, Fraction]:
    """(P(no hit), expected hits) of the pool rule: each die is 0 (over the skill), 1 (under it)
    or 100 (a critical); the sum of the pool says successes and criticals."""
    die = icepool.d20.map(lambda f: 100 if f == s.skill else 1 if f < s.skill else 0)
    left = (s.dice @ die).map(lambda total: 0 if total >= 100 else max(0, s.hits - total))
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


def icepool_two_d10(skill: int, hits: int) -> tuple[Fraction, Fraction, Fraction]:
    """The same three numbers in icepool, as an icepool user writes a rule reading two dice:
    ``icepool.map`` of a function of both faces over two d10s (a die of (passed, hits left))."""
    def roll(a: int, b: int) -> tuple[bool, int]:
        left = hits if a + b > skill else 0 if a == b else max(0, hits - (skill - a - b + 1))
        return a + b <= skill, left

    passed, left = icepool.map(roll, icepool.d10, icepool.d10).marginals
    return Fraction(passed.probability(True)), Fraction(left.probability(0)), Fraction(left.mean())


def two_d10_exact(s: Any) -> dict[Play, int]:
    """my-2d10's plays in closed form (its ``exact=``): a total t of 2d10 falls min(t − 1, 21 − t)
    ways, one of them a double when t is even; at or under the skill it cancels margin + 1 hits,
    a double every hit (the official rule)."""
    if not s.dodges:
        return {Play("all hit", s.hits): 1}
    over = 0                            # ways of a total over the skill
    cancelling: dict[int, int] = {}     # hits cancelled -> ways, at or under the skill
    for total in range(2, 21):
        ways = min(total - 1, 21 - total)
        if total > s.skill:
            over += ways
            continue
        if total % 2 == 0 and s.variant.doubles_cancel_all:
            cancelling[s.hits] = cancelling.get(s.hits, 0) + 1
            ways -= 1
        cancelled = min(s.hits, s.skill - total + 1)
        cancelling[cancelled] = cancelling.get(cancelled, 0) + ways
    plays = {Play("dodged" if cancelled == s.hits else "some hit", s.hits - cancelled, evasions=(True,),
                  quantities={"cancelled": cancelled}): ways for cancelled, ways in cancelling.items()}
    if over:
        plays[Play("all hit", s.hits, evasions=(False,), quantities={"cancelled": 0})] = over
    return plays


TWO_D10_EXACT = rule(TWO_D10.id, TWO_D10.name, TWO_D10.scenario_cls, TWO_D10.play.play,
                     outcomes=TWO_D10.play.outcomes, sources=TWO_D10.sources, headlines=TWO_D10.headlines,
                     evasion=TWO_D10.evasion, presets=TWO_D10.presets, summary=TWO_D10.summary,
                     exact=two_d10_exact)


def _headline(result: Any, *keys: str) -> tuple[Fraction, ...]:
    return tuple(result.headline[k] for k in keys)


def pool_heatmap() -> Any:
    """The page's heatmap of the 4d20 rule: the sweep panel over skill × hits (20 values a side,
    every value each allows), sweep and figure, as the panel makes them (P(no hit)). (The
    workbook is imported here: the site's Pyodide runs the other questions without it.)"""
    from workbook.panels.sweep import clear_sweep_cache, sweep_around, sweep_figure

    clear_sweep_cache()
    swept = sweep_around(POOL_SCENARIO, "skill", "hits")
    sweep_figure(swept, quantity="p_no_hit")
    return swept


def heatmap_agrees(swept: Any, ref: list[tuple[Fraction, Fraction]]) -> bool:
    shown = {p.values: _headline(p, "p_no_hit", "expected_hits") for p in swept.points}
    return len(shown) == 400 and [shown[cell] for cell in HEAT_SAMPLE] == ref


TWO_D10_SCENARIO = TWO_D10.scenario_cls()            # skill 11, 3 hits
POOL_SCENARIO = PoolScenario()                      # 4d20, skill 12, 4 hits
SIX_D20 = PoolScenario(dice=6)
SKILLS = list(range(1, 21))                         # the pool rule's every skill: 20 points
HEAT_SAMPLE = [(1, 1), (1, 20), (6, 3), (12, 4), (12, 17), (17, 9), (20, 1), (20, 20)]
_2D10_NAME = "my-2d10 (tests/example_rule.py), skill 11, 3 hits: whole evaluate()"
_4D20_NAME = "4d20 unordered pool, skill 12, 4 hits: whole evaluate()"
_SWEEP_NAME = "sweep 20 values of skill (1 to 20): the 4d20 pool rule"


def _pool_agrees(result: Any, ref: tuple[Fraction, Fraction]) -> bool:
    return _headline(result, "p_no_hit", "expected_hits") == ref


def _2d10_agrees(result: Any, ref: tuple[Fraction, Fraction, Fraction]) -> bool:
    return _headline(result, "p_dodge_succeeds", "p_no_hit", "expected_hits") == ref


CASES = [
    Case(system="design", name=f"{_2D10_NAME}, walked, beside icepool", target_ms=5.0, target_times=10,
         run=lambda: registered(TWO_D10, lambda: evaluate(TWO_D10_SCENARIO)),
         reference=lambda: icepool_two_d10(11, 3), check=_2d10_agrees),
    Case(system="design", name=f"{_2D10_NAME}, walked", target_ms=5.0,
         run=lambda: registered(TWO_D10, lambda: evaluate(TWO_D10_SCENARIO)),
         reference=lambda: every_face_pair(11, 3), reference_name="every face pair, by the rule's text",
         check=_2d10_agrees),
    Case(system="design", name=f"{_2D10_NAME}, its exact= form", target_ms=5.0, target_times=10,
         run=lambda: registered(TWO_D10_EXACT, lambda: evaluate(TWO_D10_SCENARIO)),
         reference=lambda: every_face_pair(11, 3), reference_name="every face pair, by the rule's text",
         check=_2d10_agrees),
    Case(system="design", name=f"{_4D20_NAME}, face_kind hint", target_ms=100.0, target_times=6,
         run=lambda: registered(POOL_BY_KIND, lambda: evaluate(POOL_SCENARIO)),
         reference=lambda: icepool_pool(POOL_SCENARIO), check=_pool_agrees),
    Case(system="design", name=f"{_4D20_NAME}, classify hint", target_ms=100.0,
         run=lambda: registered(POOL, lambda: evaluate(POOL_SCENARIO)),
         reference=lambda: icepool_pool(POOL_SCENARIO), check=_pool_agrees),
    Case(system="design", name=f"{_SWEEP_NAME}, face_kind hint", target_ms=1000.0, target_times=6,
         run=lambda: registered(POOL_BY_KIND, lambda: sweep(POOL_SCENARIO, "skill", SKILLS)),
         reference=lambda: [icepool_pool(PoolScenario(skill=k)) for k in SKILLS],
         check=lambda swept, ref: [_headline(p, "p_no_hit", "expected_hits") for p in swept] == ref),
    Case(system="design", name=f"{_SWEEP_NAME}, classify hint", target_ms=1000.0,
         run=lambda: registered(POOL, lambda: sweep(POOL_SCENARIO, "skill", SKILLS)),
         reference=lambda: [icepool_pool(PoolScenario(skill=k)) for k in SKILLS],
         check=lambda swept, ref: [_headline(p, "p_no_hit", "expected_hits") for p in swept] == ref),
    Case(system="design", name="the page's heatmap of the 4d20 rule: sweep panel (sweep and figure), skill × hits, "
                               "20×20, face_kind hint", target_ms=1000.0,
         run=lambda: registered(POOL_BY_KIND, pool_heatmap),
         reference=lambda: [icepool_pool(PoolScenario(skill=k, hits=h)) for k, h in HEAT_SAMPLE],
         reference_name=f"icepool, {len(HEAT_SAMPLE)}-cell sample", reference_scale=400 / len(HEAT_SAMPLE),
         check=heatmap_agrees),
    Case(system="design", name="6d20 unordered pool, skill 12, 4 hits: whole evaluate(), face_kind hint",
         target_ms=100.0, run=lambda: registered(POOL_BY_KIND, lambda: evaluate(SIX_D20)),
         reference=lambda: icepool_pool(SIX_D20), check=_pool_agrees),
    Case(system="design", name="6d20 unordered pool, skill 12, 4 hits: whole evaluate(), classify hint "
                               "(177,100 pools)", target_ms=5000.0,
         run=lambda: registered(POOL, lambda: evaluate(SIX_D20)),
         reference=lambda: icepool_pool(SIX_D20), check=_pool_agrees),
    Case(system="design", name="sweep 19 values of skill (2 to 20): my-2d10",
         run=lambda: registered(TWO_D10, lambda: sweep(TWO_D10_SCENARIO, "skill", list(range(2, 21)))),
         target_ms=1000.0),
]
