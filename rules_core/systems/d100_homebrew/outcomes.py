"""What a d100 Evasion comes to: outcome labels and the system's headline quantities.

An outcome is named by what became of every hit of every attack (*"2 evaded, 1 lands"*, with
*"; 1 against Cover"*, *"; 2 stray shots"* and *"; Disengage [Вольт]"* where the scenario can
give them). The headlines are defined once, on one :class:`~rules_core.play.Play`: the common
ones read ``hits`` and ``evasions``; this system's read the play's quantities

- ``successes``: Successes scored by all Evasion rolls made (a failed roll scores 0);
- ``hits_in_cover``: hits landing against Cover after a Leap into Cover;
- ``stray_shots``: dodged hits of shots flying on toward a next target;
- ``disengage``: a Leap out of melee counted as a Disengage;
- ``attacks``: per attack, an :class:`AttackFate` — what became of its hits.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from ...play import Headline, expectation, probability
from .scenario import D100Scenario
from .text import say

__all__ = ["Ending", "OutcomeShape", "AttackFate", "outcome_label", "outcome_key", "stray_reason",
           "disengage_reason", "HEADLINES"]


class Ending(NamedTuple):
    """What all the hits came to at the end of the Turn."""

    landed: int         # hits landing in the open
    in_cover: int       # hits landing against Cover (after a Leap into Cover)
    stray: int          # dodged shots flying on toward a next target
    disengage: bool     # a Leap out of melee counted as a Disengage

    @property
    def hits(self) -> int:
        """Hits landing on the defender, those against Cover included."""
        return self.landed + self.in_cover


class OutcomeShape(NamedTuple):
    """What a scenario's outcome labels mention: its total hits, hits against Cover (a Leap into
    Cover can be made) and stray shots (a shot has a next target)."""

    total_hits: int
    cover: bool
    stray: bool


class AttackFate(NamedTuple):
    """What became of one attack's hits in one play (every hit is counted once)."""

    rolled: bool = False            # an Evasion roll was made against it
    evaded_by_roll: int = 0
    evaded_by_leftovers: int = 0    # by leftover Successes of a roll against an earlier attack
    negated_by_leap: int = 0        # a Leap out of reach
    landed_open: int = 0
    landed_in_cover: int = 0        # a Leap into Cover


def outcome_label(shape: OutcomeShape, ending: Ending) -> str:
    """The readable name of an ending, e.g. ``2 evaded, 1 lands; 1 stray shot``.

    >>> outcome_label(OutcomeShape(3, cover=False, stray=True), Ending(1, 0, 2, False))
    '2 evaded, 1 lands; 2 stray shots'
    """
    landed = ending.hits
    parts = [say("{evaded} evaded, {landed} {landed|lands|land}", evaded=shape.total_hits - landed,
                 landed=landed)]
    if shape.cover:
        parts.append(say("{n} against Cover", n=ending.in_cover))
    if shape.stray:
        parts.append(say("{n} stray {n|shot|shots}", n=ending.stray))
    if ending.disengage:
        parts.append(say("Disengage [Вольт]"))
    return "; ".join(parts)


def outcome_key(ending: Ending) -> tuple:
    """Display order of outcomes: fewest hits landing first."""
    return (ending.hits, ending.in_cover, ending.stray, ending.disengage)


def stray_reason(scenario: D100Scenario) -> str | None:
    """Why ``p_stray_shot`` does not apply (no shot has a next target), or None."""
    if any(a.kind != "melee" and a.next_target for a in scenario.attacks):
        return None
    return say("No shot has a next target on its line of fire")


def disengage_reason(scenario: D100Scenario) -> str | None:
    """Why ``p_disengage`` does not apply (the defender is not in melee), or None."""
    if scenario.defender.engaged_in_melee:
        return None
    return say("The defender is not engaged in melee, so no Leap is a Disengage")


#: System-specific headline quantities (also in docs/rulings/d100-homebrew.md), on one play.
HEADLINES: Mapping[str, Headline] = {
    "expected_successes": expectation(
        "Expected total Successes scored by all Evasion rolls made (a failed or unmade roll scores 0).",
        lambda p: p["successes"]),
    "expected_hits_in_cover": expectation(
        "Expected number of hits landing against Cover after a Leap into Cover (they count in "
        "expected_hits too).", lambda p: p["hits_in_cover"]),
    "p_stray_shot": probability(
        "Probability that at least one dodged shot flies on toward a next target on the line of fire; "
        "null when no shot has a next target.", lambda p: p["stray_shots"] > 0, applies=stray_reason),
    "p_disengage": probability(
        "Probability that a Leap out of melee counts as a Disengage; null when the defender is not "
        "engaged in melee.", lambda p: p["disengage"], applies=disengage_reason),
}
