"""GURPS 4e's outcome labels, one set per situation, and its own headline quantities, each
defined on one play (:class:`~rules_core.play.Headline`): the rule on concrete dice records
the quantities they read (``injury``, ``down``, ``major_wound``, ``friend_hit``,
``friend_injury``), and the fast path's numbers must equal them over every roll.

>>> ladder_label(arrived=True, landed=True, total=4, major=False, left=10, pool="HP")
'Injured'
>>> ladder_label(arrived=True, landed=True, total=10, major=True, left=10, pool="HP")
'Down (HP ≤ 0)'
"""

from __future__ import annotations

from ...play import Headline, expectation, probability
from .scenario import GurpsScenario

__all__ = ["NO_HIT", "ALL_DODGED", "NO_INJURY", "INJURED", "MAJOR", "ATTACK_OUTCOMES", "NEITHER",
           "DODGER_HIT", "FRIEND_DEFENDS", "FRIEND_HIT", "BOTH_HIT", "SACRIFICIAL_OUTCOMES", "SMOTHERED",
           "TOO_SLOW", "SMOTHER_OUTCOMES", "LEFT_ALONE", "STAYED", "FULL_COVER", "DR_COVER", "FARTHER", "STILL_IN_AREA",
           "OUT_OF_REACH", "CAUGHT", "DIVE_OUTCOMES", "down_label", "ladder_label", "outcome_order",
           "HEADLINES"]

NO_HIT, ALL_DODGED, NO_INJURY, INJURED, MAJOR = (
    "No hit arrives", "Every hit dodged", "Hits land, no injury", "Injured", "Major wound")
#: A turn of attacks, from best to worst for the dodger (then the "Down" label of its pool).
ATTACK_OUTCOMES = (NO_HIT, ALL_DODGED, NO_INJURY, INJURED, MAJOR)

NEITHER, DODGER_HIT, FRIEND_DEFENDS, FRIEND_HIT, BOTH_HIT = (
    "Neither is hit (success by 3+)", "Dodger takes the hit", "Friend defends every hit", "Friend is hit",
    "Both are hit")
SACRIFICIAL_OUTCOMES = (NO_HIT, NEITHER, DODGER_HIT, FRIEND_DEFENDS, FRIEND_HIT, BOTH_HIT)

SMOTHERED, TOO_SLOW = "Smothered: the dodger takes the blast in contact", "Too slow: the blast goes off"
SMOTHER_OUTCOMES = (SMOTHERED, TOO_SLOW)
#: Throwing oneself on an explosive not tried (defense "none"): it goes off with everyone where they stood.
LEFT_ALONE = "Nobody on it: the blast goes off"

FULL_COVER, DR_COVER, FARTHER, STILL_IN_AREA, OUT_OF_REACH, CAUGHT = (
    "Reached complete cover", "Reached cover (its DR protects)", "A yard farther from the blast",
    "Dove, but still in the area", "Out of the blast's reach", "Caught before the step")
DIVE_OUTCOMES = (FULL_COVER, DR_COVER, FARTHER, STILL_IN_AREA, OUT_OF_REACH, CAUGHT)
#: Diving for cover not tried (defense "none"): the effect where the dodger stands.
STAYED = "No dive: caught where he stood"


def down_label(pool: str) -> str:
    """The outcome label for ending at 0 or fewer HP (or FP)."""
    return f"Down ({pool} ≤ 0)"


def ladder_label(arrived: bool, landed: bool, total: int, major: bool, left: int, pool: str) -> str:
    """The worst thing that happened to the dodger in a turn of attacks."""
    if not arrived:
        return NO_HIT
    if not landed:
        return ALL_DODGED
    if total >= left:
        return down_label(pool)
    if major:
        return MAJOR
    return INJURED if total else NO_INJURY


def outcome_order(scenario: GurpsScenario) -> tuple[str, ...]:
    """Every outcome label the scenario's situation can come to, in the order shown."""
    if scenario.dodger.defense == "none" and scenario.situation in ("smother", "dive"):
        return (LEFT_ALONE,) if scenario.situation == "smother" else (OUT_OF_REACH, STAYED)
    return {"attacks": ATTACK_OUTCOMES + (down_label(scenario.pool().name),),
            "sacrificial": SACRIFICIAL_OUTCOMES, "smother": SMOTHER_OUTCOMES,
            "dive": DIVE_OUTCOMES}[scenario.situation]


def _wounds_apply(scenario: GurpsScenario) -> str | None:
    return "Fatigue damage comes off FP and causes no wounds." if scenario.fatigue else None


def _friend_applies(scenario: GurpsScenario) -> str | None:
    if scenario.situation in ("sacrificial", "smother"):
        return None
    return ("Only a sacrificial dodge for a friend or throwing yourself on an explosive puts a friend "
            "in danger.")


#: GURPS's own headline quantities (docs/rulings/gurps-4e.md), each defined on one play.
HEADLINES: dict[str, Headline] = {
    "expected_injury": expectation(
        "Expected total injury to the dodger over every landing hit (HP; FP against fatigue damage), "
        "after DR, wounding modifiers and blunt trauma.", lambda p: p["injury"]),
    "p_down": probability(
        "Probability that the dodger ends at 0 or fewer HP (FP against fatigue damage): total injury at "
        "least the HP left before the turn. At 0 HP or less a character must roll HT each turn to stay "
        "conscious (B419).", lambda p: p["down"]),
    "p_major_wound": probability(
        "Probability that at least one hit's injury to the dodger exceeds half his full HP (a major "
        "wound, B420; crippling an arm or leg is one). Null against fatigue damage.",
        lambda p: p["major_wound"], applies=_wounds_apply),
    "p_friend_hit": probability(
        "Sacrificial dodge and throwing oneself on an explosive: probability that the friend is struck "
        "(after the friend's own defense) or caught by the blast. Null otherwise.",
        lambda p: p["friend_hit"], applies=_friend_applies),
    "expected_friend_injury": expectation(
        "Sacrificial situations: the friend's expected injury. Null otherwise.",
        lambda p: p["friend_injury"], applies=_friend_applies),
}
