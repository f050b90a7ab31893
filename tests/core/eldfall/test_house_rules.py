"""Eldfall under house rules (``variant``): numbers worked by hand, the trace naming the
constants in force, and the official numbers unchanged."""

from __future__ import annotations

from fractions import Fraction

from rules_core import evaluate, play_once
from rules_core.systems.eldfall import SYSTEM, Attacker, Defender, EldfallScenario

# Two attack dice under OFF 10 (PW 12), the defender (ARM 2, SPD 5) dodging on AG 12.
BASE = EldfallScenario(attackers=(Attacker(value=10, stk=2, pw=12),), defender=Defender(ag=12))


def test_official_values_unchanged():
    h = evaluate(BASE).headline
    assert (h["p_dodge_succeeds"], h["p_no_hit"], h["expected_hits"]) == (
        Fraction(3, 5), Fraction(1283, 2000), Fraction(23, 50))


def test_criticals_on_one_and_two():
    # By hand: each attack die is a Critical Hit on 1–2 (2 faces), a Hit on 3–10 (8 faces).
    # The Dodge (12 faces of 20) ignores the Hits, never the Critical Hits. No Hit lands iff no
    # die is a Critical and either the Dodge succeeds or no die hits at all:
    # 3/5 · (18/20)² + 2/5 · (10/20)² = 243/500 + 1/10 = 293/500.
    # Expected Hits: 2 · 2/20 + 2 · 8/20 · 8/20 = 1/5 + 8/25 = 13/25.
    result = evaluate(BASE.set("variant.critical_face", 2))
    h = result.headline
    assert (h["p_dodge_succeeds"], h["p_no_hit"], h["expected_hits"]) == (
        Fraction(3, 5), Fraction(293, 500), Fraction(13, 25))
    lines = [str(step) for step in result.trace]
    assert lines[0].startswith("House rule: Critical on faces up to 2 (official 1)")
    assert "a successful 1 to 2 is a Critical" in lines[1]


def test_a_critical_face_must_still_succeed():
    # An attribute of 1 with Criticals on 1–3: a 1 is a Critical, a 2 or 3 fails (roll-under).
    one = BASE.set("attackers.0.value", 1).set("variant.critical_face", 3)
    assert evaluate(one).headline["expected_hits"] == 2 * Fraction(1, 20)


def test_halving_rounds_down():
    # By hand: AG 11 without LoS halves to 5 (down) instead of 6 (up): the Dodge succeeds on 5
    # faces, 1/4. No Hit lands: 1/4 · (19/20)² + 3/4 · (10/20)² = 361/1600 + 300/1600 = 661/1600.
    # The rulebook's move after a Dodge, half SPD 5, is 2″ instead of 3″.
    unseen = BASE.set("defender.ag", 11).set("attackers.0.los", False)
    up, down = evaluate(unseen), evaluate(unseen.set("variant.halving", "down"))
    assert up.headline["p_dodge_succeeds"] == Fraction(3, 10)
    assert down.headline["p_dodge_succeeds"] == Fraction(1, 4)
    assert down.headline["p_no_hit"] == Fraction(661, 1600)
    assert dict(down.distributions["post_dodge_move"].items()) == {
        "May move up to 2″ and enter or cancel Crouched": 1}
    lines = [str(step) for step in down.trace]
    assert lines[0].startswith("House rule: Halving rounds down (official up)")
    assert any("halved (rounding down) without LoS: 11 → 5" in line for line in lines)


def test_a_play_under_a_house_rule_opens_with_it_and_uses_it():
    # Attack faces 2 and 15, AG roll 20 (failed), damage roll 20 (no Wound): the 2 is a plain
    # Hit officially and a Critical Hit under the house rule — one Hit lands either way.
    official = play_once(SYSTEM, BASE, faces=[2, 15, 20, 20])
    house = play_once(SYSTEM, BASE.set("variant.critical_face", 2), faces=[2, 15, 20, 20])
    assert "0 Critical Hit(s), 1 Hit(s)" in str(official.trace[0])
    assert str(house.trace[0]).startswith("House rule: Critical on faces up to 2")
    assert "1 Critical Hit(s), 0 Hit(s)" in str(house.trace[1])
    # with a successful AG roll (5), only the house rule's Critical Hit still lands
    assert play_once(SYSTEM, BASE, faces=[2, 15, 5]).hits == 0
    assert play_once(SYSTEM, BASE.set("variant.critical_face", 2), faces=[2, 15, 5, 20]).hits == 1
