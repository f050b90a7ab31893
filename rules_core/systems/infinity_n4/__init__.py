"""Infinity N4: one PH die dodges every attack of an Order — Face to Face against each
attacker's Burst, a Normal Roll against a template — then Saving Rolls, Null and the Guts Roll.

The files, each depending only on those above it:

- ``scenario.py`` — the declared fields (dodger, attackers, template, Guts Roll, the
  minus-three ruling) and the sources' citations;
- ``dice.py`` — the die rules: Success Values and the ±12 cap, what a d20 face does against an
  SV (its rank, Criticals, SV above 20), one Face to Face Roll, one Saving Roll;
- ``outcomes.py`` — the outcome and final-state labels, and the system's headlines defined on
  one play;
- ``play.py`` — the rule on one concrete roll: :func:`~.play.plan_order` (which roll gets which
  MODs, saves and Guts) and :func:`~.play.play` (the whole Order on the dice a roller hands out);
- ``exact.py`` — the fast exact paths: :func:`~.exact.evaluate`, one Face to Face Roll, the
  heatmap grid;
- ``presets.py`` — the rulebook's worked examples.
"""

from __future__ import annotations

from ...registry import Evasion, Source, System
from . import dice, exact, outcomes, play, presets, scenario

__all__ = ["SYSTEM"]

SYSTEM = System(
    id=scenario.SYSTEM_ID,
    name="Infinity N4",
    summary="d20 roll-under; one PH die dodges every attack of the Order: Face to Face against "
            "each attacker's Burst, a Normal Roll against templates; saves, Null and the Guts Roll.",
    scenario_cls=scenario.InfinityScenario,
    evaluate=exact.evaluate,
    headline=exact.headline,
    play=play.play,
    sources=(
        Source("Infinity N4 Core Rules", "Dodge; Face to Face Rolls; Modifiers; Critical Rolls; "
               "Saving Roll; Ammunition; Cover; Guts Roll; Template Weapons (official wiki)"),
        Source("Infinity N4 FAQ", "1.0, January 2021: State MODs stack; Guts Rolls without Damage"),
        Source("Infinity N3 Core Rules", "p.21, Success Values above 20"),
    ),
    headlines=outcomes.HEADLINES,
    presets=presets.PRESETS,
    evasion=Evasion(
        attribute="dodger.ph",
        no_reaction={"dodger.dodges": False},
        unopposed=dice.unopposed_dodge,
        unopposed_text="a Dodge as a Normal Roll: d20 at or under PH plus the dodger's own MODs "
                       "(no attacker's dice against it)",
        damage="expected_wounds",
    ),
)
