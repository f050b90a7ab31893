"""One hit's damage: the dice notation (what it accepts, the canonical spelling, clear refusals of
hostile text, directly and through a scenario field) and the pipeline from a dice total to
injury, worked by hand (B378-379, B398-400, B414)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core import ScenarioError, load_scenario
from rules_core.systems.gurps_4e.damage import (MAX_ADDS, MAX_DICE, MAX_LENGTH, MAX_MULTIPLIER, DamageDice, Hit,
                                                NotationError, dice_total, effective_dr, injury, major_wound,
                                                parse_damage, wounding_modifier)


@pytest.mark.parametrize("text, dice, adds, mult, canonical", [
    ("2d+1", 2, 1, 1, "2d+1"),
    ("1d-1", 1, -1, 1, "1d-1"),
    ("3d", 3, 0, 1, "3d"),
    ("4d×2", 4, 0, 2, "4d×2"),
    ("4dx2", 4, 0, 2, "4d×2"),
    ("4d*2", 4, 0, 2, "4d×2"),
    (" 2D6 + 1 ", 2, 1, 1, "2d+1"),
    ("1d−1", 1, -1, 1, "1d-1"),           # the typographic minus sign
    ("6d+2×3", 6, 2, 3, "6d+2×3"),
    ("2d+0", 2, 0, 1, "2d"),
    ("30d+50×10", 30, 50, 10, "30d+50×10"),
    ("1d×1", 1, 0, 1, "1d"),
])
def test_accepted_notation(text, dice, adds, mult, canonical):
    parsed = parse_damage(text)
    assert parsed == DamageDice(dice, adds, mult)
    assert str(parsed) == canonical and parse_damage(canonical) == parsed


@pytest.mark.parametrize("text, words", [
    ("", "not damage dice notation"),
    ("   ", "not damage dice notation"),
    ("d6", "not damage dice notation"),
    ("2", "not damage dice notation"),
    ("2d+", "not damage dice notation"),
    ("2d+1+1", "not damage dice notation"),
    ("-2d", "not damage dice notation"),
    ("2.5d", "not damage dice notation"),
    ("2d+1.5", "not damage dice notation"),
    ("1e3d", "not damage dice notation"),
    ("２d+1", "not damage dice notation"),            # full-width digit
    ("2d+1; import os", "not damage dice notation"),
    ("<script>alert(1)</script>", "characters long"),
    ("2d8", "GURPS damage dice are six-sided"),
    ("2d20+1", "GURPS damage dice are six-sided"),
    ("0d", "has 0 dice; expected 1 to 30"),
    ("31d", "has 31 dice; expected 1 to 30"),
    ("999d", "has 999 dice"),
    ("9999d", "not damage dice notation"),
    ("2d+51", "adds +51; expected an add from -50 to +50"),
    ("2d-99", "adds -99"),
    ("2d×0", "multiplies by 0; expected a multiplier from 1 to 10"),
    ("2d×11", "multiplies by 11"),
    ("2d" + " " * 40, "characters long"),
    ("1d\x00", "not damage dice notation"),
])
def test_refused_notation(text, words):
    with pytest.raises(NotationError) as err:
        parse_damage(text)
    assert words in str(err.value)


@pytest.mark.parametrize("value", [None, 3, 2.5, ["2d"], {"dice": 2}, b"2d"])
def test_non_text_is_refused(value):
    with pytest.raises(NotationError, match="is not text"):
        parse_damage(value)


@pytest.mark.parametrize("value", [3, None, ["2d"], "2d8", "x" * 500])
def test_scenario_field_refuses_with_the_field_named(value):
    with pytest.raises(ScenarioError) as err:
        load_scenario({"system": "gurps-4e", "attacks": [{"damage": value}]})
    assert [p.field for p in err.value.problems] == ["attacks.0.damage"]


def test_scenario_stores_the_canonical_spelling():
    s = load_scenario({"system": "gurps-4e", "attacks": [{"damage": " 4D6 x 2 "}]})
    assert s.attacks[0].damage == "4d×2"


def test_dice_totals_and_basic_damage():
    assert dice_total(2)[7] * 36 == 6 and dice_total(1).denominator == 6
    assert DamageDice(2, 1).basic(7) == 8 and DamageDice(4, -1, 2).maximum == 46


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_any_text_parses_or_gives_a_dice_error(text):
    try:
        parsed = parse_damage(text)
    except NotationError as err:
        assert str(err)
    else:
        assert 1 <= parsed.dice <= MAX_DICE and abs(parsed.adds) <= MAX_ADDS
        assert parse_damage(str(parsed)) == parsed


@settings(max_examples=200, deadline=None)
@given(st.integers(1, MAX_DICE), st.integers(-MAX_ADDS, MAX_ADDS), st.integers(1, MAX_MULTIPLIER),
       st.sampled_from(["d", "D", "d6"]), st.sampled_from(["×", "x", "*"]), st.sampled_from(["", " "]))
def test_every_valid_spelling_parses(dice, adds, mult, d, times, space):
    text = f"{dice}{d}{space}"
    if adds:
        text += f"{'+' if adds > 0 else '-'}{space}{abs(adds)}"
    if mult != 1:
        text += f"{space}{times}{space}{mult}"
    assert parse_damage(text) == DamageDice(dice, adds, mult)


# -- the pipeline ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dr, divisor, effective", [
    (7, "2", 3), (7, "3", 2), (9, "5", 1), (25, "10", 2), (99, "100", 0), (7, "1", 7),
    (3, "0.5", 6), (3, "0.2", 15), (3, "0.1", 30), (0, "0.5", 2), (0, "0.2", 5), (0, "0.1", 10)])
def test_armor_divisors(dr, divisor, effective):
    assert effective_dr(dr, divisor) == effective


@pytest.mark.parametrize("dice, dtype, roll, kw, expected", [
    ("1d-3", "cr", 1, {}, 0),                                   # crushing may do 0
    ("1d-3", "cut", 1, {}, 1),                                  # any other type at least 1
    ("1d", "pi-", 1, {}, 1),                                    # 0.5 rounds down to 0: at least 1
    ("1d", "pi-", 5, {}, 2),
    ("2d", "imp", 9, {"dr": 10, "divisor": "2"}, 8),            # DR 5; 4 × 2
    ("2d", "cut", 12, {"dr": 15, "flexible": True}, 1),         # 12 stopped: 1 per full 10
    ("2d", "cut", 12, {"dr": 15}, 0),                           # rigid armor: no blunt trauma
    ("3d", "cr", 14, {"dr": 20, "flexible": True}, 2),          # 14 stopped: 1 per full 5
    ("3d", "burn", 14, {"dr": 20, "flexible": True}, 0),        # burning: no blunt trauma
    ("2d", "pi", 7, {"dr": 2, "location": "vitals"}, 15),       # 5 × 3
    ("3d", "imp", 18, {"location": "limb", "hp": 10}, 6),       # ×1, capped at 10 // 2 + 1
    ("3d", "cut", 10, {"location": "limb", "hp": 10}, 6),       # 15 → 6
    ("4d×2", "pi++", 13, {"dr": 8}, 36),                        # 26 − 8 = 18, × 2
    ("6d", "cr", 20, {"spread": 6}, 3),                         # blast at 2 yards: 20 ÷ 6
    ("6d", "cr", 20, {"spread": 6, "cover_dr": 2, "dr": 1}, 0),
    ("1d+1", "cr", 6, {"cover_dr": 3, "dr": 5, "flexible": True}, 0),  # 4 reach the armor: < 5
])
def test_pipeline_by_hand(dice, dtype, roll, kw, expected):
    assert injury(Hit(parse_damage(dice), dtype, **kw), roll).value == expected


def test_the_seed_roll_of_8_step_by_step():
    # B378: 2d+1 cutting rolls 8 (the dice total 7); DR 3 → 5 penetrating; × 1.5 = 7.5 → 7.
    value, steps = injury(Hit(parse_damage("2d+1"), "cut", dr=3), 7, explain=True)
    details = [step.detail for step in steps]
    assert value == 7
    assert details[:2] == ["dice 7, 2d+1 → 8", "8 − DR 3 → 5 penetrating"]
    assert details[2].startswith("5 × 1.5") and details[2].endswith("→ 7 (round down, at least 1)")
    assert injury(Hit(parse_damage("2d+1"), "cut", dr=3), 7).steps == ()  # no trace unless asked


@pytest.mark.parametrize("injury_, hp, major", [(5, 10, False), (6, 10, True), (3, 5, True), (2, 5, False)])
def test_major_wound_is_more_than_half_hp(injury_, hp, major):
    assert major_wound(injury_, hp) is major


def test_the_length_limit_is_inclusive():
    # MAX_LENGTH characters are read (spaces around the notation are allowed); one more is refused.
    assert parse_damage(" " * (MAX_LENGTH - 4) + "2d+1") == DamageDice(2, 1)
    with pytest.raises(NotationError, match=f"{MAX_LENGTH + 1} characters long"):
        parse_damage(" " * (MAX_LENGTH - 3) + "2d+1")


def test_wounding_modifiers_at_a_limb_and_the_vitals():
    # B398-400: pi+, pi++ and imp count ×1 to an arm or leg; fatigue ignores the location; only
    # impaling or piercing attacks may target the vitals.
    assert [wounding_modifier(t, "limb") for t in ("pi+", "pi++", "imp", "cut")] == [1, 1, 1, Fraction(3, 2)]
    assert wounding_modifier("fat", "vitals") == 1
    with pytest.raises(ValueError, match="only impaling or piercing attacks can target the vitals, not cut"):
        wounding_modifier("cut", "vitals")
