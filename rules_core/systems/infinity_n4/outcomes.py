"""Infinity N4's outcome labels — of the whole Order, of each roll of the dodge die, and of the
dodger's state at the end of the Order — and its own headline quantities, defined on one play.

The labels that depend on the Order (the movement after a dodge, the fallback after a failed
Guts Roll) are read from the scenario alone.
"""

from __future__ import annotations

from ...play import Headline, expectation, probability
from .scenario import InfinityScenario

__all__ = ["DODGED", "NO_HIT", "NEITHER", "TEMPLATE_HITS", "ROLL_FAILS", "UNHARMED_STAYS",
           "HIT_NO_EFFECT", "HIT_NO_GUTS", "HIT_PASSES", "NULL_STATE", "GUTS_FAILED", "FALLBACKS",
           "hits_label", "hit_label", "roll_label", "roll_labels", "engaged_at_start", "after_dodge_plan",
           "guts_fallback", "dodged_label", "guts_failed_label", "final_state_order", "HEADLINES"]

# Outcome labels of the whole Order (``Result.outcomes``).
DODGED = "Dodge succeeds"
NO_HIT = "No hit lands, no successful dodge"
# Per-roll outcome labels (``Result.distributions[roll name]``).
NEITHER = "Neither keeps a success"
TEMPLATE_HITS = "Template hits"
ROLL_FAILS = "Dodge roll fails"

# Final states at the end of the Order (``Result.distributions["final state"]``).
UNHARMED_STAYS = "Unharmed, does not move (no successful dodge)"
HIT_NO_EFFECT = "Hit, stands: no Guts Roll (no Damage, no State)"
HIT_NO_GUTS = "Hit, stands: no Guts Roll (Engaged or Immobilized)"
HIT_PASSES = "Hit, passes the Guts Roll: stands its ground"
NULL_STATE = "Null: lost its last Wound"
#: Every final state after a failed (or forgone) Guts Roll starts so; the fallback follows.
GUTS_FAILED = "Hit, fails the Guts Roll: "
FALLBACKS = {"leave": "moves up to 2\" out of the attackers' LoF and areas",
             "cover": "moves up to 2\" into cover", "prone": "goes Prone"}


def hits_label(k: int) -> str:
    """Outcome label of the whole Order: ``k`` hits land in total (k >= 1)."""
    return "1 hit lands" if k == 1 else f"{k} hits land"


def hit_label(k: int, c: int) -> str:
    """Per-attacker outcome label: the attacker keeps k successes, c of them Critical."""
    return f"Attacker keeps {k} ({c} crit)"


def roll_label(kind: str, ok: bool, hits: int, crits: int) -> str:
    """What one comparison of the dodge die came to (``kind``: ``"f2f"`` or ``"normal"``)."""
    if ok:
        return DODGED
    if kind == "f2f":
        return hit_label(hits, crits) if hits else NEITHER
    return TEMPLATE_HITS if hits else ROLL_FAILS


def roll_labels(kind: str, dice: int, hits_on_fail: int) -> tuple[str, ...]:
    """Every per-roll outcome label of a roll, in display order."""
    if kind == "f2f":
        return (DODGED, NEITHER) + tuple(hit_label(k, c) for k in range(1, dice + 1)
                                         for c in range(k + 1))
    return (DODGED, TEMPLATE_HITS if hits_on_fail else ROLL_FAILS)


def engaged_at_start(s: InfinityScenario) -> bool:
    """Engaged when the Order starts: the flag, or any attacker attacking in close combat."""
    return s.dodger.engaged or any(a.attacks and a.attribute == "CC" for a in s.attackers)


def guts_fallback(s: InfinityScenario) -> str:
    """The first possible option after a failed Guts Roll: ``leave``, ``cover`` or ``prone``."""
    return "leave" if s.guts.can_leave else "cover" if s.guts.can_cover else "prone"


def after_dodge_plan(s: InfinityScenario) -> str:
    """What a dodger that succeeded against everything does: the chosen ``after_dodge``, or
    ``stay`` when the dodge move in force (``variant.dodge_move``, officially 2") is 0."""
    return "stay" if s.variant.dodge_move == 0 else s.after_dodge


def dodged_label(s: InfinityScenario) -> str:
    """Final state after the dodge die succeeded against everything: the movement (the chosen
    plan, up to the dodge move in force) and the States it cancels (Engaged when moving away,
    IMM-A always)."""
    plan = after_dodge_plan(s)
    text = {"move": f"Unharmed, dodged everything: moves up to {s.variant.dodge_move}\"",
            "engage": "Unharmed, dodged everything: moves into contact, Engaged",
            "stay": "Unharmed, dodged everything: stays"}[plan]
    cancels = (["Engaged"] if engaged_at_start(s) and plan == "move" else []) + \
              (["IMM-A"] if s.dodger.immobilized == "IMM-A" else [])
    return text + (f" (cancels {' and '.join(cancels)})" if cancels else "")


def guts_failed_label(s: InfinityScenario) -> str:
    """Final state after a failed (or forgone) Guts Roll: the first possible option."""
    return GUTS_FAILED + FALLBACKS[guts_fallback(s)]


def final_state_order(s: InfinityScenario) -> tuple[str, ...]:
    """Every final-state label, in display order."""
    return (dodged_label(s), UNHARMED_STAYS, HIT_NO_EFFECT, HIT_NO_GUTS, HIT_PASSES,
            guts_failed_label(s), NULL_STATE)


#: The system's own headlines (beyond the common ones), each defined on one play.
HEADLINES: dict[str, Headline] = {
    "expected_wounds": expectation(
        "Expected number of wounds inflicted in the Order: failed Saving Rolls over every hit "
        "that lands, counted in full even past the trooper's last Wound.",
        lambda p: p["wounds"]),
    "p_null": probability(
        "Probability that the trooper ends the Order Null: the wounds inflicted reach its "
        "Wounds (W/STR).",
        lambda p: p["final state"] == NULL_STATE),
    "p_guts_fails": probability(
        "Probability that the Order ends with a failed Guts Roll (rolled and failed, or failed by "
        "the owner's choice), so that the trooper must leave the attackers' LoF, take cover or go "
        "Prone.",
        lambda p: p["final state"].startswith(GUTS_FAILED)),
}
