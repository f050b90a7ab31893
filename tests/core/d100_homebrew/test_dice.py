"""d100 homebrew, one d100 test (:mod:`rules_core.systems.d100_homebrew.dice`): what a face scores
against a target, by hand and against icepool, under every reading of the rulings."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import icepool
import pytest

from rules_core.systems.d100_homebrew.dice import (FACES, MAX_SUCCESSES, TestRules, evasion_dice, face_runs,
                                                   roll_successes, success_counts)

ALL_RULES = [TestRules(tens, a01, a100) for tens in (False, True) for a01 in (True, False)
             for a100 in (True, False)]


@pytest.mark.parametrize("face, target, rules, successes", [
    (45, 45, TestRules(), 1), (36, 45, TestRules(), 1), (35, 45, TestRules(), 2),   # 1 + full tens under
    (6, 45, TestRules(), 4), (5, 45, TestRules(), 5), (1, 45, TestRules(), 5),
    (46, 45, TestRules(), 0), (100, 45, TestRules(), 0),
    (40, 45, TestRules(tens_digits=True), 1), (39, 45, TestRules(tens_digits=True), 2),  # DH2: 4 − 3 + 1
    (9, 45, TestRules(tens_digits=True), 5), (10, 45, TestRules(tens_digits=True), 4),
    (1, 0, TestRules(), 1), (1, -35, TestRules(), 1), (1, 0, TestRules(auto_01=False), 0),  # 01 below 1
    (2, 0, TestRules(), 0),
    (100, 100, TestRules(), 0), (100, 100, TestRules(auto_100=False), 1),  # 100 against 100+
    (100, 130, TestRules(auto_100=False), 4), (99, 130, TestRules(), 4), (1, 190, TestRules(), 19),
    (1, 190, TestRules(tens_digits=True), 20),                               # 1 + 19 − 0
    (100, 105, TestRules(tens_digits=True, auto_100=False), 1),               # 1 + 10 − 10
])
def test_roll_successes_by_hand(face, target, rules, successes):
    assert roll_successes(face, target, rules) == successes


@pytest.mark.parametrize("face", [0, 101, -3])
def test_a_face_outside_the_die_is_refused(face):
    with pytest.raises(ValueError, match=rf"a d100 face is 1\.\.100, got {face}"):
        roll_successes(face, 45)


@pytest.mark.parametrize("rules", ALL_RULES)
def test_success_counts_equal_counting_every_face(rules):
    for target in range(-25, 226, 3):
        counted = Counter(roll_successes(face, target, rules) for face in range(1, FACES + 1))
        assert dict(success_counts(target, rules)) == dict(counted), (target, rules)


def test_the_most_successes_any_declared_target_scores():
    """Target 220 (A 100 + advance 30 + modifier 60 + the attack's +30) scores 23 on 01 with
    tens digits (1 + 22 − 0); the exact path's cap must reach it."""
    assert max(roll_successes(1, 220, rules) for rules in ALL_RULES) == MAX_SUCCESSES == 23


@pytest.mark.parametrize("target", [-5, 0, 1, 9, 10, 45, 64, 99, 100, 101, 137, 220])
def test_success_counts_against_icepool(target):
    """P(at least k Successes) from icepool's d100 (default rulings): the face is at most
    target − 10(k − 1), never 100; 01 passes with 1 whatever the target."""
    counts = dict(success_counts(target))
    d100 = icepool.d100
    for k in range(1, 25):
        ours = Fraction(sum(c for s, c in counts.items() if s >= k), FACES)
        bound = min(target - 10 * (k - 1), 99)
        theirs = d100.probability("<=", bound) if bound >= 1 else Fraction(0)
        if k == 1 and bound < 1:
            theirs = d100.probability("==", 1)
        assert ours == theirs, (target, k)


def test_tens_digits_against_icepool_two_d10():
    """The DH2 reading with the d100 rolled as two d10 (tens die 0..9, units 0..9, 00 = 100):
    Successes = 1 + tens(target) − tens die, on a pass."""
    tens, units = icepool.d10 - 1, icepool.d10 - 1

    def successes(t: int, u: int, target: int) -> int:
        face = 10 * t + u or 100
        if face == 1:
            return max(1, 1 + target // 10)
        if face == 100 or face > target:
            return 0
        return 1 + target // 10 - t

    for target in (7, 45, 73, 99, 100, 150):
        die = icepool.map(lambda t, u: successes(t, u, target), tens, units)
        ours = {s: Fraction(c, FACES) for s, c in success_counts(target, TestRules(tens_digits=True))}
        theirs = {s: die.probability(s) for s in die.outcomes()}
        assert ours == theirs, target


def test_the_dice_request_groups_faces_by_successes():
    dice = evasion_dice("Dodge against attack 1", target=45, rules=TestRules())
    assert (dice.sides, dice.count) == (100, 1)
    assert [dice.classify(f) for f in (1, 5, 6, 15, 16, 45, 46, 100)] == [5, 5, 4, 4, 3, 1, 0, 0]
    tens = evasion_dice("Parry against attack 2", target=45, rules=TestRules(tens_digits=True))
    assert tens.classify(39) == 2 and tens.classify(40) == 1


def test_face_runs_as_players_write_them():
    assert face_runs(45, TestRules()) == [(5, "01–05"), (4, "06–15"), (3, "16–25"), (2, "26–35"), (1, "36–45"),
                                          (0, "46–100")]
    assert face_runs(-10, TestRules()) == [(1, "01"), (0, "02–100")]
    assert face_runs(100, TestRules())[-1] == (0, "100")


@pytest.mark.parametrize("rules", [TestRules(), TestRules(tens_digits=True), TestRules(points=5),
                                   TestRules(auto_01=False, auto_100=False)], ids=repr)
@pytest.mark.parametrize("target", [-10, 1, 45, 99, 130])
def test_face_runs_are_the_faces_grouped_by_their_successes_under_the_rules_given(rules, target):
    """What the face table shows, face by face from roll_successes (the rule on one face), under
    the house rules too."""
    from itertools import groupby

    from rules_core.systems.d100_homebrew.dice import faces_text, face_runs

    faces = sorted(range(1, 101), key=lambda f: (roll_successes(f, target, rules) == 0,
                                                 -roll_successes(f, target, rules), f))
    expected = []
    for s, run in groupby(faces, key=lambda f: roll_successes(f, target, rules)):
        run = list(run)
        expected.append((s, faces_text(run[0], run[-1])))
    assert face_runs(target, rules) == expected
