"""The d100 homebrew (Russian house rules, Warhammer-40k-RPG-like): Evasion by Dodge and Parry.

d100 roll-under tests score Successes; each Success evades one hit of the attack it was rolled
against, leftover Successes evade hits of the same opponent's later attacks at 2 or more per hit,
a Dodge against a shot may become a Leap into Cover or out of reach, and dodged shots fly on.

- :mod:`.scenario` declares the fields; :mod:`.rules` is the rule on concrete faces and the exact
  analysis over every roll; :mod:`.report` builds the result and its trace; :mod:`.text` holds
  the English and Russian texts.

>>> from rules_core import evaluate, find_preset
>>> evaluate(find_preset("d100-homebrew/burst-3-vs-dodge-45").scenario).headline["p_no_hit"]
Fraction(1, 4)
"""

from __future__ import annotations

from ...registry import Source, System
from .presets import PRESETS
from .report import evaluate, resolution_trace
from .rules import MoreRollsNeeded, Resolution, analyse, resolve, roll_successes, success_counts
from .scenario import SYSTEM_ID, Attack, D100Scenario, Defender
from .text import translate

__all__ = ["SYSTEM", "evaluate", "resolve", "resolution_trace", "analyse", "roll_successes",
           "success_counts", "Attack", "D100Scenario", "Defender", "MoreRollsNeeded", "Resolution",
           "HEADLINES"]

#: System-specific headline quantities (defined once here and in docs/rulings/d100-homebrew.md).
HEADLINES = {
    "expected_successes": "Expected total Successes scored by all Evasion rolls made (a failed or unmade "
                          "roll scores 0).",
    "expected_hits_in_cover": "Expected number of hits landing against Cover after a Leap into Cover (they "
                              "count in expected_hits too).",
    "p_stray_shot": "Probability that at least one dodged shot flies on toward a next target on the line of "
                    "fire; null when no shot has a next target.",
    "p_disengage": "Probability that a Leap out of melee counts as a Disengage; null when the defender is not "
                   "engaged in melee.",
}

SYSTEM = System(
    id=SYSTEM_ID,
    name="d100 homebrew",
    summary="d100 roll-under; Dodge and Parry are Reactions whose Successes evade hits one for one, leftovers "
            "evade later attacks' hits at 2 or more, and a Dodge against a shot can become a Leap.",
    scenario_cls=D100Scenario,
    evaluate=evaluate,
    sources=(
        Source("d100 homebrew rules, Evasion [Избегание]",
               "Dodge [Уклонение], Parry [Парирование], Evading multiple hits and attacks, Leap [Отскок] "
               "(Russian original; English working translation)"),
        Source("Dark Heresy 2nd ed. Core Rulebook", "ch. I Playing the Game: Tests, Degrees of Success"),
        Source("Only War Core Rulebook", "ch. I Playing the Game: Degrees of Success"),
    ),
    presets=PRESETS,
    headlines=HEADLINES,
    languages=("en", "ru"),
    translate=translate,
)
