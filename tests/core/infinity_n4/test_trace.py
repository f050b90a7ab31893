"""Infinity N4, the trace's wording on typed faces: the Saving Rolls and Null lines count rolls
and wounds in words a player reads ("1 roll", "2 wounds")."""

from __future__ import annotations

from rules_core import get_system, play_once
from rules_core.systems.infinity_n4.scenario import Attacker, Dodger, InfinityScenario

SYSTEM = get_system("infinity-n4")


def details(scenario: InfinityScenario, faces: list[int]) -> dict[str, str]:
    return {s.rule: s.detail for s in play_once(SYSTEM, scenario, faces=faces).trace}


def test_saving_rolls_and_null_count_in_words():
    # No Dodge; BS 12 DA, DAM 13 against ARM 1: a wound on 12 or less. The attack die 5 hits; DA
    # calls for 2 Saving Rolls per hit; both faces 1 wound; W 2: Null.
    da = InfinityScenario(dodger=Dodger(dodges=False, wounds=2), attackers=(Attacker(value=12, burst=1, ammo="DA"),))
    said = details(da, [5, 1, 1])
    assert said["Saving Rolls (Attacker 1)"] == "2 rolls, 2 at or under 12: 2 wounds"
    assert said["Null"] == "2 wounds against W 2"
    # Normal ammunition: one Saving Roll, which wounds once (then the Guts die, face 1).
    one = InfinityScenario(dodger=Dodger(dodges=False, wounds=2), attackers=(Attacker(value=12, burst=1),))
    assert details(one, [5, 1, 1])["Saving Rolls (Attacker 1)"] == "1 roll, 1 at or under 12: 1 wound"
