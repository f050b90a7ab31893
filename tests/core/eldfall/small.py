"""Eldfall Chronicles scenarios small enough to enumerate every roll (read by
``tests/strategies.py``): one or two Attacks of one or two dice, Burn (1) at most, and
:func:`fix` trims a drawn scenario whose roll tree would be large (two Attacks under the
``compared`` ruling, each with Sweep and Burn) by dropping Sweep, then Burn, then dice from the
last Attacks, until the estimated number of plays is under :data:`MOST_PLAYS` (or every Attack
is down to one die without Sweep or Burn: two such Attacks under ``compared`` take about 0.3 s)."""

from __future__ import annotations

from typing import Any

BOUNDS = {"attackers": (1, 2), "attackers.stk": (1, 2), "attackers.burn": (0, 1)}

#: The most plays (leaves of the roll tree) a drawn scenario may have, roughly: at about 0.1 ms
#: a play, well under a second to enumerate.
MOST_PLAYS = 3000


def plays_estimate(data: dict[str, Any]) -> int:
    """A rough estimate of the distinct plays the enumeration follows for this data, as if the
    Dodge were ``compared`` (the costlier ruling: the generic test also sets each ruling value
    on drawn data after :func:`fix`)."""
    dodging = data["defender"]["reaction"] == "dodge"
    total = 1
    for a in data["attackers"]:
        dice = 1 if a["reacting"] else a["stk"]
        kinds = (dice + 1) * (dice + 2) // 2             # Critical Hits, Hits, misses
        attack = kinds + (kinds - dice - 1) * 10 if dodging else kinds   # and the best plain die
        damage = (dice + 1) * (2 if a["burn"] else 1)
        sweep = 2 * (2 if a["burn"] else 1) if a["sweep"] else 1
        total *= attack * (2 if dodging else 1) * damage * sweep
    return total


def fix(data: dict[str, Any]) -> dict[str, Any]:
    """The drawn data, trimmed from the last Attack back until :func:`plays_estimate` is under
    :data:`MOST_PLAYS` (first Sweep, then Burn, then the second die)."""
    attackers = [dict(a) for a in data["attackers"]]
    data = {**data, "attackers": attackers}
    for field, small in (("sweep", False), ("burn", 0), ("stk", 1)):
        for a in reversed(attackers):
            if plays_estimate(data) <= MOST_PLAYS:
                return data
            a[field] = small
    return data
