"""The 2d10 rule of tests/example_rule.py restated from its words alone, sharing nothing with its
code but the die faces: the independent reference the tests of a designer's rule compare with."""

from __future__ import annotations

from fractions import Fraction


def by_the_rules_text(skill: int, hits: int, doubles_cancel_all: bool = True) -> dict[str, Fraction]:
    """P(dodge succeeds), P(no hit) and expected hits of one 2d10 dodge, every face pair walked:
    2d10 at or under the skill dodges; each point of margin (skill − total) cancels one hit
    beyond the first, doubles cancel every hit."""
    passed = no_hit = landed = 0
    for a in range(1, 11):
        for b in range(1, 11):
            if a + b > skill:
                landed += hits
                continue
            passed += 1
            cancelled = hits if (a == b and doubles_cancel_all) else min(hits, skill - a - b + 1)
            landed += hits - cancelled
            no_hit += cancelled == hits
    return {"p_dodge_succeeds": Fraction(passed, 100), "p_no_hit": Fraction(no_hit, 100),
            "expected_hits": Fraction(landed, 100)}
