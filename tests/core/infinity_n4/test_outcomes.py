"""Infinity N4 outcome labels: the per-roll labels a roll declares are exactly those that can
happen — the dodge succeeds, neither side keeps a success, or the attacker keeps 1..Burst
successes of which 0..all are Critical (F2F); the dodge succeeds or the template hits / the roll
fails (Normal Roll)."""

from __future__ import annotations

from rules_core import evaluate
from rules_core.systems.infinity_n4.outcomes import roll_labels
from rules_core.systems.infinity_n4.scenario import Attacker, Dodger, InfinityScenario, Template


def test_a_burst_2_face_to_face_roll_declares_the_seven_outcomes_that_happen():
    declared = roll_labels("f2f", 2, 0)
    assert declared == ("Dodge succeeds", "Neither keeps a success",
                        "Attacker keeps 1 (0 crit)", "Attacker keeps 1 (1 crit)",
                        "Attacker keeps 2 (0 crit)", "Attacker keeps 2 (1 crit)", "Attacker keeps 2 (2 crit)")
    # PH 10 against BS 10, Burst 2: each of them has a chance.
    roll = evaluate(InfinityScenario(dodger=Dodger(ph=10), attackers=(Attacker(value=10, burst=2),))
                    ).distributions["Attacker 1"]
    assert {o for o in roll.outcomes() if roll[o] > 0} == set(declared)


def test_a_normal_roll_declares_success_and_its_failure():
    template = InfinityScenario(attackers=(Attacker(attacks=False),), template=Template(kind="direct"))
    roll = evaluate(template).distributions["Direct Template"]
    assert roll_labels("normal", 0, 1) == tuple(o for o in roll.outcomes() if roll[o] > 0)
    assert roll_labels("normal", 0, 1) != roll_labels("normal", 0, 0)


def test_a_dodge_that_cancels_two_states_names_both():
    from rules_core.systems.infinity_n4.outcomes import dodged_label
    from rules_core.systems.infinity_n4.scenario import InfinityScenario

    s = InfinityScenario().set("dodger.immobilized", "IMM-A").set("dodger.engaged", True)
    assert dodged_label(s) == 'Unharmed, dodged everything: moves up to 2" (cancels Engaged and IMM-A)'
