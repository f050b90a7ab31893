"""Eldfall Chronicles: Attacks, Dodge, Ward, Protective Barrier, damage, Burn and Sweep.

The package, one file per job (dependencies point down the list; readings: docs/rulings/eldfall.md):

- ``scenario.py`` — the declared fields (attackers, defender, second model, rulings) and the
  citations; imports nothing below it;
- ``dice.py`` — the die rules: a d20 under a modified attribute (a 1 is a Critical, above 20 a
  20 too, at 0 or less an automatic failure; halving after modifiers, rounding up), the damage
  roll, and which attribute each roll is made against;
- ``outcomes.py`` — outcome and movement labels, and the system's headlines defined on a play;
- ``play.py`` — the rule on one concrete roll, ``play(scenario, roller) -> Play``;
- ``exact.py`` — the fast exact ``evaluate(scenario) -> Result``, proven equal to enumerating
  ``play``;
- ``presets.py`` — the worked examples.

>>> from rules_core import evaluate, find_preset
>>> evaluate(find_preset("eldfall/dodge-vs-critical").scenario).headline["expected_hits"]
Fraction(23, 50)
"""

from __future__ import annotations

from ...registry import Evasion, Source, System
from .dice import unopposed_dodge
from .exact import SYSTEM_ID, evaluate
from .outcomes import HEADLINES
from .play import play
from .presets import PRESETS
from .scenario import Attacker, Defender, EldfallScenario, SecondModel, without_reaction

__all__ = ["SYSTEM", "EldfallScenario", "Attacker", "Defender", "SecondModel", "without_reaction",
           "evaluate", "play"]

SYSTEM = System(
    id=SYSTEM_ID,
    name="Eldfall Chronicles",
    summary="d20 roll-under, a 1 is a Critical; Dodge is one AG roll per enemy Attack that ignores "
            "its non-Critical Hits; Critical Hits land anyway and ignore ARM.",
    scenario_cls=EldfallScenario,
    evaluate=evaluate,
    play=play,
    sources=(
        Source("Eldfall Chronicles Rulebook v1.6", "p.15 Dice Rolls; p.54 Attack; p.57 Dodge; "
                                                   "p.70 Burn (X); p.73 Sweep I/II"),
        Source("Eldfall Chronicles wiki", "pages Dodge, Ward, Protective Barrier, Knockdown, Stagger, "
                                          "with the Discord answers quoted there"),
    ),
    presets=PRESETS,
    headlines=HEADLINES,
    evasion=Evasion(
        attribute="defender.ag",
        no_reaction={"defender.reaction": "none"},
        unopposed=unopposed_dodge,
        unopposed_text="one Dodge roll: d20 at or under AG with its modifiers (a 1 a Critical; "
                       "the Attack's own roll does not oppose it)",
        damage="expected_wounds",
    ),
)
