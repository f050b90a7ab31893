"""GURPS damage dice notation: what it accepts, the canonical spelling, and clear refusals of
hostile text (directly and through a scenario field)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core import ScenarioError, load_scenario
from rules_core.systems.gurps.dice import (MAX_ADDS, MAX_DICE, MAX_MULTIPLIER, DamageDice, DiceError,
                                           dice_total, parse_damage)


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
    with pytest.raises(DiceError) as err:
        parse_damage(text)
    assert words in str(err.value)


@pytest.mark.parametrize("value", [None, 3, 2.5, ["2d"], {"dice": 2}, b"2d"])
def test_non_text_is_refused(value):
    with pytest.raises(DiceError, match="is not text"):
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
    except DiceError as err:
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
