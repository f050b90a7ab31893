"""Bounds for enumerating every roll of a drawn Infinity N4 Order well under a second.

At most two attackers of Burst 1 to 3; every other field over its whole declared range (the
template and every ruling value included). ``fix`` makes drawn data valid and small by
construction:

- a trooper in IMM-B cannot declare a Dodge (the scenario refuses it), so it does not;
- every Saving Roll is one more die to walk, so the most Saving Rolls the Order can call for is
  kept to :data:`MOST_SAVES`: going through the attacks in order, one that would call for more
  than is left gets N ammunition instead, then Burst 1, then no Damage.
"""

from __future__ import annotations

BOUNDS = {"attackers": (1, 2), "attackers.burst": (1, 3)}

#: The most Saving Rolls a drawn Order may call for (a Critical adds one to its hit's).
MOST_SAVES = 8
_PER_HIT = {"N": 1, "AP": 1, "DA": 2, "EXP": 3}


def _most_saves(weapon: dict) -> int:
    """The most Saving Rolls a weapon's hits can call for: every attack die a Critical (one
    more each), or a template's one hit."""
    if not weapon["damage"]:
        return 0
    if "burst" in weapon:
        return weapon["burst"] * (_PER_HIT[weapon["ammo"]] + 1)
    return _PER_HIT[weapon["ammo"]]


def _fit(weapon: dict, left: int) -> tuple[dict, int]:
    """``weapon`` changed as little as needed to call for at most ``left`` Saving Rolls, and
    what is left after it."""
    weapon = dict(weapon)
    for change in ({"ammo": "N"}, {"burst": 1} if "burst" in weapon else {}, {"damage": 0}):
        if _most_saves(weapon) <= left:
            break
        weapon.update(change)
    return weapon, left - _most_saves(weapon)


def fix(data: dict) -> dict:
    """Valid, and small enough to enumerate (see the module docstring)."""
    data = dict(data)
    dodger = dict(data["dodger"])
    if dodger["immobilized"] == "IMM-B":
        dodger["dodges"] = False
    data["dodger"] = dodger
    left, attackers = MOST_SAVES, []
    for attacker in data["attackers"]:
        if attacker["attacks"]:
            attacker, left = _fit(attacker, left)
        attackers.append(attacker)
    data["attackers"] = attackers
    if data["template"]["kind"] != "none":
        data["template"], left = _fit(data["template"], left)
    return data
