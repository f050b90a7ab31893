"""Bounds for drawing d100 homebrew scenarios small enough to enumerate every roll.

At most two Evasion rolls (two Reactions), up to three attacks of up to four hits, and Leap
distances and SPD on the same few metres so that Leaps both fit and do not. Half the draws (odd
Agility) keep the official rule, the others a house rule drawn over the variant fields, with at
least 3 points per Success (fewer would make a roll score up to 100 Successes, each a branch to
enumerate).
"""

from __future__ import annotations

from typing import Any

BOUNDS = {
    "attacks": (1, 3),
    "attacks.hits": (1, 4),
    "attacks.leap_distance": (1, 6),
    "defender.reactions": (0, 2),
    "defender.spd": (0, 6),
    "defender.unspent_ap": (0, 2),
    "variant.points_per_success": (3, 25),
    "variant.leftover_cost": (1, 6),
}


def fix(data: dict[str, Any]) -> dict[str, Any]:
    """Only a shot can cover the whole Base: a drawn melee attack never does. Odd Agility: the
    official rule."""
    for attack in data["attacks"]:
        if attack["kind"] == "melee":
            attack["covers_whole_base"] = False
    if data["defender"]["agility"] % 2:
        data["variant"] = {}
    return data


def scenarios(bounds: dict[str, tuple[int, int]] | None = None):
    """A Hypothesis strategy of valid d100 scenarios over the declared ranges (or ``bounds``)."""
    from rules_core import load_scenario
    from rules_core.systems.d100_homebrew import D100Scenario
    from strategies import data_strategy

    return data_strategy(D100Scenario, bounds).map(lambda raw: load_scenario(fix({"system": "d100-homebrew",
                                                                                     **raw})))
