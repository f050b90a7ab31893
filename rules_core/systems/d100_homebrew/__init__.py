"""The d100 homebrew (Russian house rules, Warhammer-40k-RPG-like): Evasion by Dodge and Parry.

d100 roll-under tests score Successes; each Success evades one hit of the attack it was rolled
against, leftover Successes evade hits of the same opponent's later attacks at 2 or more per hit,
a Dodge against a shot may become a Leap into Cover or out of reach, and dodged shots fly on.

Files (the shape every system has):

- :mod:`.scenario` — the declared fields, their citations;
- :mod:`.dice` — one d100 test: what a face scores against a target (the rulings on 01, 100,
  and how Successes count);
- :mod:`.play` — the rule on one concrete roll, ``play(scenario, roller)``: which roll is made,
  where its Successes go, with the trace;
- :mod:`.exact` — the fast exact ``evaluate(scenario)``, proven equal to enumerating ``play``;
- :mod:`.outcomes` — outcome labels and the system's headline quantities;
- :mod:`.presets` — the named scenarios;
- :mod:`.text` — the English and Russian texts.

House rules — points per further Success, leftover Successes per hit and the penalty step — are
the scenario's ``variant`` block (:class:`.scenario.D100Variant`), official by default
(docs/rulings/d100-homebrew.md, "Rule variants").

>>> from rules_core import evaluate, find_preset
>>> evaluate(find_preset("d100-homebrew/burst-3-vs-dodge-45").scenario).headline["p_no_hit"]
Fraction(1, 4)
"""

from __future__ import annotations

from ...registry import Evasion, Source, System
from .dice import unopposed_dodge
from .exact import evaluate, headline
from .outcomes import HEADLINES
from .play import play
from .presets import PRESETS
from .scenario import SYSTEM_ID, Attack, D100Scenario, Defender
from .text import translate

__all__ = ["SYSTEM", "Attack", "D100Scenario", "Defender"]

SYSTEM = System(
    id=SYSTEM_ID,
    name="d100 homebrew",
    summary="d100 roll-under; Dodge and Parry are Reactions whose Successes evade hits one for one, leftovers "
            "evade later attacks' hits at 2 or more, and a Dodge against a shot can become a Leap.",
    scenario_cls=D100Scenario,
    evaluate=evaluate,
    headline=headline,
    play=play,
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
    evasion=Evasion(
        attribute="defender.agility",
        no_reaction={"attacks.*.evasion": "none"},
        unopposed=unopposed_dodge,
        unopposed_text="one Dodge test: d100 at or under Agility + Dodge advance + Dodge modifier, "
                       "no modifier from the attack (01 and 100 as the rulings read them)",
    ),
)
