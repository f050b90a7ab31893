"""GURPS 4th edition: Dodge, Dodge and Drop, Retreat, Acrobatic Dodge, rapid fire, the damage
pipeline, sacrificial dodge, throwing oneself on an explosive, and diving for cover.

The files, each importing only those above it:

- :mod:`.sources` — where each rule is written (B pages); every module cites from it.
- :mod:`.damage` — one hit's damage: the dice notation (``2d+1``) and the pipeline from a dice
  total to injury. Kept beside the shape because it has that one job and must sit below
  :mod:`.scenario`, which reads damage fields with it and bounds a turn's size by a hit's
  largest injury.
- :mod:`.scenario` — the declared fields, their checks and the size limit.
- :mod:`.dice` — the die rules: 3d6 success rolls and criticals, rapid-fire hits and the hits a
  Dodge avoids, and the requests for dice.
- :mod:`.outcomes` — outcome labels and the headline quantities, defined on one play.
- :mod:`.play` — the rule on one concrete roll, ``play(scenario, roller)``, with the planning
  it shares with the fast path (which roll gets which modifier).
- :mod:`.exact` — ``evaluate(scenario)``, the same rule summed over distributions, fast.
- :mod:`.presets` — the seed's worked example first.

Readings and rulings: docs/rulings/gurps-4e.md. House rules — the success roll's automatic and
critical bounds, Dodge's, a retreat's and a dodge and drop's +3 — are the scenario's ``variant``
block (:class:`.scenario.GurpsVariant`), official by default (the same file, "Rule variants").

>>> from rules_core import evaluate, find_preset
>>> result = evaluate(find_preset("gurps-4e/sword-2d1-cut-vs-dr3").scenario)
>>> result.headline["expected_injury"], result.distributions["injury"][7]
(Fraction(29, 4), Fraction(1, 6))
"""

from __future__ import annotations

from ...registry import Evasion, System
from . import play, sources as cite
from .exact import evaluate, headline
from .outcomes import HEADLINES
from .presets import PRESETS
from .scenario import SYSTEM_ID, Attack, Blast, Cover, Dodger, Friend, GurpsScenario, Target

__all__ = ["SYSTEM", "GurpsScenario", "Dodger", "Target", "Attack", "Cover", "Blast", "Friend"]

SYSTEM = System(
    id=SYSTEM_ID,
    name="GURPS 4th edition",
    summary="3d6 roll-under. Dodge = Basic Speed + 3; dodge and drop +3 against ranged attacks (ends "
            "prone); a Dodge against rapid fire avoids one hit plus one per point of margin; every "
            "landing hit goes through DR and wounding modifiers to injury.",
    scenario_cls=GurpsScenario,
    evaluate=evaluate,
    headline=headline,
    play=play.play,  # the module keeps its name; the rule is its play()
    sources=cite.SOURCES,
    presets=PRESETS,
    headlines=HEADLINES,
    evasion=Evasion(
        attribute="dodger.basic_speed",
        no_reaction={"dodger.defense": "none", "dodger.acrobatic": False},
        unopposed=play.unopposed_dodge,
        unopposed_text="a plain Dodge roll: 3d6 at or under Dodge (Basic Speed, fractions dropped, + 3, "
                       "with encumbrance, shield and other modifiers; 3-4 always succeed, 17-18 always fail)",
        damage="expected_injury",
    ),
)
