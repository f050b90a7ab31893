"""Eldfall Chronicles' die rules (``dice.py``), one face at a time, from the rules text."""

from __future__ import annotations

import pytest

from rules_core.systems.eldfall.dice import (attack_dice, attack_value, attribute_roll, dodge_value,
                                             effects_apply, modified_attribute, wounds_on)
from rules_core.systems.eldfall.play import dodge_roll
from rules_core.systems.eldfall.scenario import Attacker, Defender


@pytest.mark.parametrize("face, value, kind", [
    (1, 10, "critical"), (2, 10, "success"), (10, 10, "success"), (11, 10, "failure"),
    (20, 20, "success"), (20, 21, "critical"), (19, 21, "success"),   # above 20: a 20 is Critical
    (1, 1, "critical"), (2, 1, "failure"),
    (1, 0, "failure"), (1, -4, "failure"),                            # 0 or less: automatic failure
    (20, 30, "critical"), (1, 30, "critical"),
])
def test_attribute_roll_by_hand(face, value, kind):
    assert attribute_roll(face, value) == kind


@pytest.mark.parametrize("face", [0, 21, -1])
def test_faces_off_the_die_are_refused(face):
    with pytest.raises(ValueError, match="a d20 face is 1..20"):
        attribute_roll(face, 10)
    with pytest.raises(ValueError, match="a d20 face is 1..20"):
        wounds_on(face, 10)


def test_halving_after_modifiers_rounds_up():
    assert modified_attribute(11, 0, halve=True) == 6     # 5.5 -> 6
    assert modified_attribute(12, -2, halve=True) == 5    # (12 - 2) / 2
    assert modified_attribute(9, 2, halve=True) == 6      # 11 / 2 = 5.5 -> 6, not 9/2 + 2 = 7
    assert modified_attribute(1, 0, halve=True) == 1
    assert modified_attribute(3, -6, halve=True) == -1    # -1.5 -> -1: still an automatic failure
    assert modified_attribute(10, -3) == 7


def test_which_number_each_roll_is_made_against():
    assert attack_value(Attacker(value=12, mod=1, cover="heavy")) == 9
    assert attack_value(Attacker(value=12, mod=-1, cover="light")) == 9
    assert attack_dice(Attacker(stk=5)) == 5 and attack_dice(Attacker(stk=5, reacting=True)) == 1
    seen, unseen = Attacker(los=True), Attacker(los=False)
    assert dodge_value(Defender(ag=11, ag_mod=2), seen) == 13
    assert dodge_value(Defender(ag=11, ag_mod=2), unseen) == 7           # 13 / 2 -> 7
    assert dodge_value(Defender(ag=11, ag_mod=2, acute_senses=True), unseen) == 13


def test_damage_rolls():
    assert wounds_on(8, 8) and not wounds_on(9, 8)
    assert not wounds_on(1, 0) and not wounds_on(1, -3)   # PW - ARM <= 0 never wounds
    assert wounds_on(20, 25)


def test_sizes_for_stagger_and_knockdown():
    assert effects_apply(2, 3)          # one Size larger: affected
    assert not effects_apply(2, 4)      # two Sizes larger: spared
    assert effects_apply(4, 1)


@pytest.mark.parametrize("face, ag, best, resolution, kind, succeeds", [
    (6, 12, 7, "independent", "success", True),
    (6, 12, 7, "compared", "success", False),     # below the best plain attack die
    (7, 12, 7, "compared", "success", True),      # a tie goes to the dodger
    (1, 12, 15, "compared", "critical", True),    # a Critical beats every die
    (13, 12, 0, "compared", "failure", False),    # nothing to beat, but the roll fails
    (5, 12, 0, "compared", "success", True),      # nothing to beat
    (1, 0, 0, "independent", "failure", False),   # AG 0: automatic failure, even on a 1
])
def test_dodge_roll(face, ag, best, resolution, kind, succeeds):
    assert dodge_roll(face, ag, best, resolution) == (kind, succeeds)
