"""GURPS 4e scenarios small enough to enumerate every roll, and valid by construction.

``BOUNDS`` keeps a turn to at most two attacks of at most three hits each, and HP, DR and
distances where the numbers move. The damage dice are a notation field, which the generic
strategy leaves at its default; :func:`fix` picks them from short lists (indexed by other drawn
values), and resolves every cross-field conflict the scenario would refuse, the way a player
would: the defense decides the attacks' kind, a dodge and drop starts from a posture that can
drop, a flyer drops only below concealing terrain, and so on. Half the draws (odd full HP) keep
the official rule, the others a house rule drawn over the variant fields.
"""

from __future__ import annotations

import copy
from typing import Any

BOUNDS = {
    "attacks": (1, 2),
    "attacks.rof": (1, 3),
    "attacks.recoil": (1, 3),
    "attacks.hits": (1, 3),
    "attacks.skill": (3, 20),
    "target.dr": (0, 8),
    "target.hp": (1, 16),
    "target.hp_left": (1, 16),
    "target.fp": (1, 16),
    "target.fp_left": (1, 16),
    "cover.dr": (0, 8),
    "blast.distance": (0, 9),
    "friend.dr": (0, 6),
    "friend.hp": (1, 16),
    "friend.distance": (1, 9),
    # House rules: scores here reach about 30, so a critical 5 or 6 from 20 on is never seen.
    "variant.critical_5_at": (5, 20),
    "variant.critical_6_at": (6, 20),
}

#: Damage dice for attacks, by the most hits the turn can land (each landing hit rolls its own
#: damage, so the walk grows as the number of injury values to the power of the hits).
ATTACK_DAMAGE = {2: ("1d", "1d-2", "1d+1", "2d-4", "1d×2", "1d-1", "2d+1", "3d"),
                 4: ("1d", "1d-2", "1d+1", "1d×2", "1d-1"),
                 6: ("1d-3", "1d-4", "1d-2")}
BLAST_DAMAGE = ("4d", "2d", "1d+2", "3d-1", "2d×2", "1d")
IMPALING_OR_PIERCING = ("pi-", "pi", "pi+", "pi++", "imp")
DOWN = ("crawling", "lying")


def fix(data: dict[str, Any]) -> dict[str, Any]:
    """Any drawn data, made into a scenario the system accepts (see the module docstring)."""
    data = copy.deepcopy(data)
    situation, dodger, target = data["situation"], data["dodger"], data["target"]
    attacks, blast, cover = data["attacks"], data["blast"], data["cover"]
    target["hp_left"] = min(target["hp_left"], target["hp"])
    target["fp_left"] = min(target["fp_left"], target["fp"])
    if situation == "sacrificial":
        del attacks[1:]
        dodger["defense"] = {"retreat": "dodge_and_drop"}.get(dodger["defense"], dodger["defense"])
    defense = dodger["defense"]
    most = sum(a["rof"] if a["hits_by"] == "roll" else a["hits"] for a in attacks)
    damage = next((choices for hits, choices in ATTACK_DAMAGE.items() if most <= hits), ATTACK_DAMAGE[6])
    for attack in attacks:
        # a retreat is made against a ranged attack too (no bonus, B377); a dodge and drop is not
        attack["kind"] = {"dodge_and_drop": "ranged"}.get(defense, attack["kind"])
        attack["damage"] = damage[(attack["skill"] + attack["recoil"] + attack["hits"]) % len(damage)]
        if target["location"] == "vitals" and attack["damage_type"] not in IMPALING_OR_PIERCING:
            attack["damage_type"] = "pi"
    fatigue = attacks[0]["damage_type"] == "fat"
    for attack in attacks[1:]:
        if fatigue:
            attack["damage_type"] = "fat"
        elif attack["damage_type"] == "fat":
            attack["damage_type"] = "cr"
    if dodger["acrobatic"] and defense == "none":
        dodger["acrobatic"] = False
    dropping = (situation in ("smother", "dive") and defense != "none") or defense == "dodge_and_drop"
    if dropping and dodger["posture"] in DOWN and not dodger["flying"]:
        dodger["posture"] = "standing"
    if dropping and dodger["flying"] and not (situation == "dive" and cover["kind"] == "none"):
        dodger["below_terrain"] = True
    if situation == "smother":
        blast["spread"] = "explosion"
        blast["distance"] %= 2
    blast["damage"] = BLAST_DAMAGE[(blast["distance"] + data["friend"]["hp"]) % len(BLAST_DAMAGE)]
    if target["hp"] % 2:
        data["variant"] = {}
    return data
