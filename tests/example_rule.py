"""A designer's rule for the tests: a 2d10 roll-under dodge where each point of success
cancels one hit and doubles cancel every hit (the issue's example, written on the public pieces
only). ``SYSTEM`` is the rule as a system, id ``my-2d10``; the fixture ``designed_rule``
(tests/conftest.py) registers it for one test and takes it away after."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from rules_core import (Dice, Evasion, Play, Scenario, TraceStep, Variant, expectation, flag, number, part,
                        probability, rule)

CITE = "My 2d10 rules, p.1"


class House(Variant):
    doubles_cancel_all: bool = flag(True, label="Doubles cancel every hit", help="The official rule.",
                                    citation=CITE)


class TwoD10(Scenario):
    system: Literal["my-2d10"] = "my-2d10"
    skill: int = number(11, ge=2, le=20, label="Dodge skill", help="Roll 2d10 at or under it.", citation=CITE)
    hits: int = number(3, ge=1, le=6, label="Hits", help="Hits coming in.", citation=CITE)
    dodges: bool = flag(True, label="Dodges", help="Whether the defender dodges at all.", citation=CITE)
    variant: House = part(House, label="Rule variants", help="The rule's own constants.", group="Design")


def play(s: TwoD10, roller) -> Play:
    if not s.dodges:
        return Play("all hit", s.hits, trace=[TraceStep("No dodge", f"all {s.hits} hits land", CITE)])
    a, b = roller.roll(Dice("Dodge", sides=10, count=2))
    margin = s.skill - (a + b)
    if margin < 0:
        return Play("all hit", s.hits, evasions=(False,), quantities={"cancelled": 0},
                    trace=[TraceStep("Dodge", f"{a}+{b} is over {s.skill}: all {s.hits} hits land", CITE)])
    doubles = a == b and s.variant.doubles_cancel_all
    cancelled = s.hits if doubles else min(s.hits, margin + 1)
    left = s.hits - cancelled
    return Play("dodged" if left == 0 else "some hit", left, evasions=(True,), quantities={"cancelled": cancelled},
                trace=[TraceStep("Dodge", f"{a}+{b} against {s.skill}: "
                                 + ("doubles cancel every hit" if doubles else f"margin {margin} cancels {cancelled}"),
                                 CITE)])


def unopposed(s: TwoD10) -> Fraction:
    """One dodge roll passing: 2d10 at or under the skill."""
    return Fraction(sum(1 for a in range(1, 11) for b in range(1, 11) if a + b <= s.skill), 100)


SYSTEM = rule(
    "my-2d10", "My 2d10 dodge", TwoD10, play, outcomes=("dodged", "some hit", "all hit"), sources=[CITE],
    headlines={"p_all_cancelled": probability("Every hit cancelled by the dodge.",
                                              lambda p: p.outcome == "dodged" and bool(p.evasions)),
               "expected_cancelled": expectation("Expected hits cancelled.",
                                                 lambda p: p["cancelled"] if p.evasions else 0)},
    evasion=Evasion("skill", {"dodges": False}, unopposed, "one Dodge roll: 2d10 at or under the skill"),
    presets={"skilled": TwoD10(skill=14), "clumsy": TwoD10(skill=7)},
    summary="2d10 roll-under; each point of margin cancels a hit, doubles cancel all.")
