"""Infinity N4's presets: the rulebook's two Dodge examples first, then the Face to Face Roll of
the first one alone."""

from __future__ import annotations

from ...registry import Preset
from .scenario import (
    CITE_DODGE, CITE_DODGE_EXAMPLE, CITE_MINES, Attacker, Dodger, InfinityScenario, Template)

__all__ = ["PRESETS"]

_ZHANSHI = dict(ph=10, arm=1, bts=0, wounds=1, wip=13)
_FUSILIER = Attacker(attribute="BS", value=12, mod=3, burst=3, damage=13, ammo="N")

PRESETS = (
    Preset("zhanshi-dodges-to-engage", "Zhanshi dodges to engage a Fusilier",
           "The rulebook's first Dodge example: a Zhanshi (PH 10) dodges in ARO a Fusilier shooting at BS 12 "
           "with +3 for range (SV 15), Burst 3, and on a success moves into contact (Engaged). "
           "Not in the example, assumed: a Combi Rifle (DAM 13, N) and the Zhanshi's ARM 1, BTS 0, "
           "W 1, WIP 13.",
           InfinityScenario(dodger=Dodger(**_ZHANSHI), attackers=(_FUSILIER,),
                            after_dodge="engage"),
           citation=CITE_DODGE + ", first example"),
    Preset("zhanshi-mine-and-fusilier", "Zhanshi dodges a mine and a Fusilier",
           "The rulebook's second Dodge example: the Zhanshi's Dodge ARO triggers a mine it has no LoF to "
           "while the Fusilier shoots (SV 15, Burst 3). Read as the example does (ruling "
           "'stacking'), the mine costs −6 PH: the same die avoids it only on 1..4, and the "
           "Zhanshi moves only if it succeeds against both. Assumed: AP Mine DAM 13 (N4 Weapon "
           "Chart), Combi Rifle DAM 13 N.",
           InfinityScenario(dodger=Dodger(**_ZHANSHI), attackers=(_FUSILIER,),
                            template=Template(kind="deployable", lof=False, damage=13, ammo="AP"),
                            minus_three="stacking"),
           citation=f"{CITE_DODGE_EXAMPLE}; {CITE_MINES}"),
    Preset("zhanshi-vs-fusilier", "Zhanshi dodges a Fusilier",
           "The rulebook's first Dodge example, the Face to Face Roll alone: a Zhanshi (PH 10) dodges a "
           "Fusilier shooting at BS 12 with +3 for range (SV 15), Burst 3.",
           InfinityScenario(dodger=Dodger(ph=10),
                            attackers=(Attacker(attribute="BS", value=12, mod=3, burst=3),)),
           citation=CITE_DODGE + ", Examples"),
)
