"""Eldfall Chronicles: the outcome labels, the post-dodge movement labels, and the system's own
headline quantities, each defined once on one play (:class:`rules_core.play.Headline`).

>>> outcome_label(hits=0, wounds=0), outcome_label(hits=2, wounds=0), outcome_label(hits=3, wounds=2)
('No Hit lands', 'Hit(s) land, no Wound', '2 Wounds')
"""

from __future__ import annotations

from ...play import Headline, expectation, probability
from .dice import attack_dice, modified_attribute
from .scenario import EldfallScenario

__all__ = ["NO_HIT", "HIT_NO_WOUND", "NO_MOVE", "NO_SWEEP", "wound_label", "outcome_label",
           "outcome_order", "most_wounds", "move_label", "no_sweep", "HEADLINES"]

NO_HIT = "No Hit lands"
HIT_NO_WOUND = "Hit(s) land, no Wound"
NO_MOVE = "No post-dodge move"
NO_SWEEP = "No Attack has Sweep: the second model is not hit."


def wound_label(wounds: int) -> str:
    """Outcome label for ``wounds`` >= 1 Wounds on the defender."""
    return f"{wounds} Wound" + ("s" if wounds > 1 else "")


def outcome_label(hits: int, wounds: int) -> str:
    """The defender's outcome: no Hit, Hits without a Wound, or the number of Wounds."""
    if wounds:
        return wound_label(wounds)
    return HIT_NO_WOUND if hits else NO_HIT


def most_wounds(scenario: EldfallScenario) -> int:
    """The most Wounds the defender can suffer: one per Attack die plus Burn, per Attack."""
    return sum(attack_dice(a) + a.burn for a in scenario.attackers)


def outcome_order(scenario: EldfallScenario) -> tuple[str, ...]:
    """Every outcome label the scenario can come to, in table order."""
    return (NO_HIT, HIT_NO_WOUND) + tuple(wound_label(w) for w in range(1, most_wounds(scenario) + 1))


def move_label(scenario: EldfallScenario, any_dodge_succeeded: bool) -> str:
    """The post-dodge movement under the scenario's ruling: under ``rulebook`` half SPD rounded
    up (or as the scenario's ``variant.halving`` says), whatever the roll; under ``seed`` full
    SPD once any AG roll succeeded; nothing without a Dodge."""
    d = scenario.defender
    if d.reaction != "dodge":
        return NO_MOVE
    if scenario.post_dodge_move == "rulebook":
        half = modified_attribute(d.spd, halve=True, rounding=scenario.variant.halving)
        return f"May move up to {half}″ and enter or cancel Crouched"
    return f"May move up to {d.spd}″" if any_dodge_succeeded else NO_MOVE


def no_sweep(scenario: EldfallScenario) -> str | None:
    """Why the second model's quantities are null (no Attack has Sweep), or None."""
    return None if any(a.sweep for a in scenario.attackers) else NO_SWEEP


#: The system's own headlines (beyond the common ones), defined on one play.
HEADLINES: dict[str, Headline] = {
    "expected_wounds": expectation(
        "Expected number of Wounds the defender suffers, Burn included.",
        lambda p: p["wounds"]),
    "p_at_least_one_wound": probability(
        "Probability that the defender suffers at least one Wound.",
        lambda p: p["wounds"] > 0),
    "expected_stagger": expectation(
        "Expected AP the defender loses to Stagger (one per landing Stagger Hit).",
        lambda p: p["ap_lost"]),
    "p_knocked_down": probability(
        "Probability that at least one landing Knockdown Hit makes the defender Crouched.",
        lambda p: p["knocked_down"]),
    "expected_second_model_wounds": expectation(
        "Expected Wounds on the second model in a Sweep's reach (null without Sweep).",
        lambda p: p["second_model_wounds"], applies=no_sweep),
    "p_second_model_wounded": probability(
        "Probability that the second model in a Sweep's reach suffers at least one Wound "
        "(null without Sweep).",
        lambda p: p["second_model_wounds"] > 0, applies=no_sweep),
}
