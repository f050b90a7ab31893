"""Eldfall Chronicles: the presets, the sources' worked examples first (hand-worked numbers for
each are in the tests)."""

from __future__ import annotations

from ...registry import Preset
from .scenario import (CITE_BARRIER, CITE_BURN, CITE_DODGE, CITE_DODGE_LOS, CITE_SWEEP, CITE_WARD,
                       Attacker, Defender, EldfallScenario, SecondModel)

__all__ = ["PRESETS"]


def _preset(name: str, title: str, description: str, citation: str, **data) -> Preset:
    return Preset(name, title, description, EldfallScenario(**data), citation)


PRESETS = (
    _preset("dodge-vs-critical", "A Dodge against a Critical Hit",
            "OFF 10, STK 2, PW 12 against AG 12, ARM 2. A successful Dodge ignores the plain Hits; a "
            "face of 1 on an attack die is a Critical Hit, which lands anyway and ignores ARM.",
            CITE_DODGE + ", Key Rules: a Critical Hit cannot be negated by Dodge",
            attackers=(Attacker(attribute="OFF", value=10, stk=2, pw=12),),
            defender=Defender(ag=12, arm=2)),
    _preset("sweep-one-dodges", "Sweep: one model dodges, one does not",
            "OFF 12, STK 2, PW 10 with Sweep. The target (AG 10, ARM 2) dodges; the second model "
            "beside it (ARM 2) does not. The Dodge protects only the dodging model: the second model "
            "suffers a Hit whenever the Attack roll succeeds.",
            CITE_DODGE + ", Interactions; " + CITE_SWEEP,
            attackers=(Attacker(attribute="OFF", value=12, stk=2, pw=10, sweep=True),),
            defender=Defender(ag=10, arm=2), second_model=SecondModel(arm=2)),
    _preset("no-los", "Dodge without LoS",
            "ACC 12, STK 2, PW 12 against AG 11, ARM 3, out of the defender's LoS: AG is halved, "
            "rounding up, to 6.",
            CITE_DODGE_LOS,
            attackers=(Attacker(attribute="ACC", value=12, stk=2, pw=12, los=False),),
            defender=Defender(ag=11, arm=3)),
    _preset("no-los-acute-senses", "Dodge without LoS, with Acute Senses",
            "The same Attack against the same model with Acute Senses: AG stays 11.",
            CITE_DODGE_LOS,
            attackers=(Attacker(attribute="ACC", value=12, stk=2, pw=12, los=False),),
            defender=Defender(ag=11, arm=3, acute_senses=True)),
    _preset("ward-vs-burn", "Ward against a burning Attack",
            "ACC 12, STK 2, PW 12, Burn (1) against a model under Ward (ARM 2): only Critical Hits "
            "land, and their Wounds still set off Burn.",
            CITE_WARD + "; " + CITE_BURN,
            attackers=(Attacker(attribute="ACC", value=12, stk=2, pw=12, burn=1),),
            defender=Defender(ag=10, arm=2, reaction="ward")),
    _preset("protective-barrier", "Protective Barrier takes the Critical Hit",
            "OFF 12, STK 2, PW 10 against ARM 4 with Protective Barrier and no reaction: the Barrier "
            "negates one Hit, a Critical Hit first.",
            CITE_BARRIER,
            attackers=(Attacker(attribute="OFF", value=12, stk=2, pw=10),),
            defender=Defender(ag=10, arm=4, reaction="none", barrier=True)),
    _preset("three-attackers-burn", "Three attackers with Burn against a Dodge",
            "Three models attack with ACC 12, STK 4, PW 12, Burn (2); the defender (AG 11, ARM 3) "
            "makes one AG roll per Attack.",
            CITE_DODGE + ", several attacking models; " + CITE_BURN,
            attackers=tuple(Attacker(attribute="ACC", value=12, stk=4, pw=12, burn=2) for _ in range(3)),
            defender=Defender(ag=11, arm=3)),
)
