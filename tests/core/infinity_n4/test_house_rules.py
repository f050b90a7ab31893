"""Infinity N4 under house rules (``variant``): numbers worked by hand from the rulebook's two
Dodge examples, the trace naming every constant in force, and the official numbers unchanged."""

from __future__ import annotations

from fractions import Fraction

from rules_core import evaluate, find_preset, play_once
from rules_core.systems.infinity_n4 import SYSTEM

ENGAGE = find_preset("infinity-n4/zhanshi-dodges-to-engage").scenario
MINE = find_preset("infinity-n4/zhanshi-mine-and-fusilier").scenario


def test_official_values_unchanged():
    assert evaluate(ENGAGE).headline["p_dodge_succeeds"] == Fraction(47, 500)
    assert evaluate(MINE).headline["p_dodge_succeeds"] == Fraction(299, 40000)


def test_a_mod_cap_of_two_on_the_first_example():
    # By hand: the Fusilier's +3 is capped to +2, so its SV is 14; the Zhanshi's SV stays 10.
    # A dodge face f of 1..9 survives iff none of the 3 attack dice is a Critical (14) or a
    # success of value f..13: each die is safe on f − 1 lower successes and the 6 failures
    # 15..20, so on f + 5 faces. A dodge Critical (10) survives iff no attack die is a
    # Critical: 19 faces each. P = (6³ + ... + 14³ + 19³) / 20⁴ = (10800 + 6859) / 160000.
    result = evaluate(ENGAGE.set("variant.mod_cap", 2))
    assert result.headline["p_dodge_succeeds"] == Fraction(17659, 160000)
    assert "MOD sum capped at ±2: capped to +2" in "\n".join(map(str, result.trace))


def test_a_mod_cap_of_two_on_the_mine_example():
    # By hand: the mine's −6 (stacking) is capped to −2, so the die avoids it on 1..8; the
    # Fusilier's SV is 14 as above. P = (6³ + ... + 13³) / 20⁴ = 8056 / 160000.
    assert evaluate(MINE.set("variant.mod_cap", 2)).headline["p_dodge_succeeds"] == Fraction(1007, 20000)


def test_a_circumstance_of_minus_two_on_the_mine_example():
    # By hand: each circumstance gives −2, two stack to −4 (SV 6 against the mine); the Fusilier
    # has SV 15, so a face f of 1..6 is safe from each attack die on f − 1 lower successes and
    # the 5 failures 16..20, f + 4 faces. P = (5³ + ... + 10³) / 20⁴ = 2925 / 160000.
    scenario = MINE.set("variant.circumstance_mod", -2)
    result = evaluate(scenario)
    assert result.headline["p_dodge_succeeds"] == Fraction(117, 6400)
    lines = [str(step) for step in result.trace]
    assert lines[0].startswith("House rule: PH MOD of a −3 circumstance -2 (official -3)")
    assert any(line.startswith("−2 PH circumstances (Mine)") and ": -4 (ruling" in line for line in lines)
    # Under the rule text's reading the two circumstances give −2 once: SV 8 against the mine,
    # so faces 1..8: (5³ + ... + 12³) / 20⁴ = 5984 / 160000.
    single = evaluate(scenario.set("minus_three", "single"))
    assert single.headline["p_dodge_succeeds"] == Fraction(5984, 160000)
    assert any("one −2 for 2 circumstances" in str(step) for step in single.trace)


def test_no_mod_for_a_circumstance_is_said_as_0():
    lines = [str(step) for step in evaluate(MINE.set("variant.circumstance_mod", 0)).trace]
    assert any(line.startswith("0 PH circumstances (Mine)") for line in lines), lines


def test_the_dodge_move_names_the_distance_and_zero_means_staying():
    far = ENGAGE.set("after_dodge", "move").set("variant.dodge_move", 5)
    final = evaluate(far).distributions["final state"]
    assert final['Unharmed, dodged everything: moves up to 5"'] == Fraction(47, 500)
    assert any('moves up to 5" in the Effects step' in str(step) for step in evaluate(far).trace)
    still = evaluate(ENGAGE.set("variant.dodge_move", 0))
    assert still.distributions["final state"]["Unharmed, dodged everything: stays"] == Fraction(47, 500)
    assert any("a dodge move of 0\": it cannot reach contact" in str(step) for step in still.trace)
    # only the movement changes: every number is the official one
    assert still.headline == evaluate(ENGAGE).headline


def test_a_play_under_a_house_rule_opens_with_it_and_uses_it():
    # A dodge face of 5 against the mine: the official −6 (SV 4) fails, so the mine hits and
    # calls for a Saving Roll (20: no wound) and a Guts Roll (1: passed); the house rule's −4 (SV 6) avoids it. The
    # Fusilier's three dice all fail (20).
    official = play_once(SYSTEM, MINE, faces=[5, 20, 20, 20, 20, 1])
    house = play_once(SYSTEM, MINE.set("variant.circumstance_mod", -2), faces=[5, 20, 20, 20])
    assert official.evasions == (True, False) and house.evasions == (True, True)
    assert (official.outcome, house.outcome) == ("1 hit lands", "Dodge succeeds")
    assert str(house.trace[0]).startswith("House rule: PH MOD of a −3 circumstance -2")
    assert not str(official.trace[0]).startswith("House rule")
