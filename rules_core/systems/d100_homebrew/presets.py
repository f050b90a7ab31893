"""Named scenarios of the d100 homebrew (the issue's examples first)."""

from __future__ import annotations

from ...registry import Preset
from .scenario import (CITE_DODGE, CITE_LEAP, CITE_LEFTOVERS, CITE_SIZE, CITE_STRAY, Attack, D100Scenario,
                       Defender)

PRESETS = (
    Preset("burst-3-vs-dodge-45", "A burst of 3 hits against Dodge 45",
           "One shooting attack scores 3 hits; the defender tests Dodge(A)+0 with Agility 45 (target 45), "
           "default rulings.",
           D100Scenario(defender=Defender(agility=45), attacks=(Attack(kind="shooting", hits=3),)),
           citation=CITE_DODGE),
    Preset("two-attacks-leftovers", "Two attacks of 3 hits, the second at −20",
           "Dodge 65 (Agility 45, Dodge +20) with 2 Reactions against two bursts of 3 hits, the second at −20 "
           "to Evasion: leftover Successes of the first roll pay 4 per hit of the second; a second Dodge "
           "follows for the hits they leave.",
           D100Scenario(defender=Defender(agility=45, dodge_advance=20, reactions=2),
                        attacks=(Attack(kind="shooting", hits=3),
                                 Attack(kind="shooting", hits=3, evasion_modifier=-20))),
           citation=CITE_LEFTOVERS),
    Preset("parry-2-sizes-larger-blocked", "Parry +10 against a creature 2 Sizes larger: blocked",
           "WS 40 with Parry advanced to +10 against a melee blow of a creature 2 Sizes larger: the Parry "
           "needs +20, so no roll is made and the hit lands.",
           D100Scenario(defender=Defender(weapon_skill=40, parry_advance=10), sizes_larger=2,
                        attacks=(Attack(kind="melee", hits=1, evasion="parry"),)),
           citation=CITE_SIZE),
    Preset("parry-2-sizes-larger-allowed", "Parry +20 against a creature 2 Sizes larger: allowed",
           "WS 40 with Parry advanced to +20 (target 60) against a melee blow of a creature 2 Sizes larger.",
           D100Scenario(defender=Defender(weapon_skill=40, parry_advance=20), sizes_larger=2,
                        attacks=(Attack(kind="melee", hits=1, evasion="parry"),)),
           citation=CITE_SIZE),
    Preset("leap-out-of-blast", "A Leap out of a Blast template",
           "A Blast template covers the defender's whole Base: only a Leap can dodge it. Dodge 45, SPD 3 m, "
           "2 m to leave the template.",
           D100Scenario(defender=Defender(agility=45, spd=3),
                        attacks=(Attack(kind="shooting", hits=1, covers_whole_base=True, leap="out_of_reach",
                                        leap_distance=2),)),
           citation=CITE_LEAP),
    Preset("stray-shot-past-the-dodger", "A burst of 3 with someone behind the dodger",
           "The first preset with a next target on the line of fire: every dodged hit flies on toward him.",
           D100Scenario(defender=Defender(agility=45), attacks=(Attack(kind="shooting", hits=3, next_target=True),)),
           citation=CITE_STRAY),
    Preset("leap-out-of-melee-into-cover", "A Leap out of melee into Cover",
           "Engaged in melee, the defender Dodges a pistol shot fired in melee (2 hits) and Leaps 2 m into "
           "Cover: both hits land against the Cover's AP, and the Leap counts as a Disengage.",
           D100Scenario(defender=Defender(agility=45, engaged_in_melee=True),
                        attacks=(Attack(kind="shot_in_melee", hits=2, leap="cover", leap_distance=2),)),
           citation=CITE_LEAP),
)
