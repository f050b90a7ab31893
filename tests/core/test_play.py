"""The shared rule-on-concrete-dice machinery: rollers, exhaustive enumeration, sampling.

Checked on toy rules whose distributions are known by hand, so that no system's code is involved.
"""

from fractions import Fraction
from itertools import product

import pytest

from rules_core import Dice, DiceError, FacesRoller, Play, RandomRoller, enumerate_play, play_once, sample
from rules_core.play import expectation, probability


class Toy:
    """The smallest stand-in for a registered system: a ``play`` and its ``headlines``."""

    headlines = {}

    def __init__(self, rule):
        self.play = rule


def two_d6(scenario, roller):
    a = roller.roll(Dice("first", sides=6))
    b = roller.roll(Dice("second", sides=6))
    return Play(outcome=str(a + b), hits=int(a + b >= 10), evasions=(a + b < 10,))


def stop_on_six(scenario, roller):
    """Roll a d6; on anything but a six roll a d20 too (mixed sides, uneven depth)."""
    first = roller.roll(Dice("d6", sides=6))
    if first == 6:
        return Play("six", 0)
    second = roller.roll(Dice("d20", sides=20, classify=lambda f: f >= 15))
    return Play("high" if second >= 15 else "low", int(second >= 15))


def highest_of_pool(scenario, roller):
    pool = roller.roll(Dice("pool", sides=6, count=3, ordered=False))
    assert list(pool) == sorted(pool)
    return Play(str(max(pool)), 0)


def sum_3d6(scenario, roller):
    total = roller.roll(Dice("3d6", sides=6, count=3, total=True))
    return Play("made" if total <= 10 else "missed", 0, quantities={"total": total})


def test_enumeration_matches_counting_by_hand():
    dist = enumerate_play(Toy(two_d6), None, key=lambda p: p.outcome)
    assert dist["7"] == Fraction(6, 36)
    assert dist["12"] == Fraction(1, 36)


def test_uneven_depth_and_mixed_sides_are_weighted_by_their_own_denominators():
    dist = enumerate_play(Toy(stop_on_six), None, key=lambda p: p.outcome)
    assert dist["six"] == Fraction(1, 6)
    assert dist["high"] == Fraction(5, 6) * Fraction(6, 20)
    assert dist["low"] == Fraction(5, 6) * Fraction(14, 20)


def test_classify_hint_changes_nothing_but_speed():
    fast = enumerate_play(Toy(stop_on_six), None, key=lambda p: p.outcome)
    slow = enumerate_play(Toy(stop_on_six), None, key=lambda p: p.outcome, classify=False)
    assert fast == slow


def test_unordered_pool_weights_are_multinomial():
    dist = enumerate_play(Toy(highest_of_pool), None, key=lambda p: p.outcome)
    by_hand = {k: sum(1 for t in product(range(1, 7), repeat=3) if max(t) == k) for k in range(1, 7)}
    assert {int(k): v for k, v in dist.items()} == {k: Fraction(w, 216) for k, w in by_hand.items()}


def test_totals_are_weighted_by_face_combinations():
    dist = enumerate_play(Toy(sum_3d6), None, key=lambda p: p["total"])
    assert dist[10] == Fraction(27, 216) and dist[3] == Fraction(1, 216)


def test_headline_definitions_on_plays():
    plays = enumerate_play(Toy(two_d6), None)
    safe = probability("no hit", lambda p: p.hits == 0)
    mean = expectation("hits", lambda p: p.hits)
    given = probability("dodged given a hit", lambda p: p.dodged, given=lambda p: p.hits > 0)
    assert safe.value(None, plays) == Fraction(30, 36)
    assert mean.value(None, plays) == Fraction(6, 36)
    assert given.value(None, plays) == 0
    never = probability("x", lambda p: True, given=lambda p: p.hits > 5)
    assert never.value(None, plays) is None
    assert probability("x", lambda p: True, applies=lambda s: "no").value(None, plays) is None


def test_faces_roller_takes_faces_in_order_and_sums_totals():
    played = play_once(Toy(sum_3d6), None, faces=[1, 2, 3])
    assert played["total"] == 6 and played.outcome == "made"
    assert [str(r) for r in played.rolled] == ["3d6: 1+2+3 = 6"]


@pytest.mark.parametrize("faces, message", [
    ([1, 2], "asks for 3d6 (3d6) but only 2 faces are left"),
    ([1, 2, 7], "face 7 is not on a d6"),
    ([1, 2, 3, 4], "1 face left over"),
    ([1, True, 3], "face True is not on a d6"),
])
def test_faces_roller_says_what_is_wrong(faces, message):
    with pytest.raises(DiceError, match=message.replace("(", r"\(").replace(")", r"\)")):
        play_once(Toy(sum_3d6), None, faces=faces)


def test_sampling_is_seeded_and_converges():
    first = [p.outcome for p in sample(Toy(two_d6), None, 200, seed=7)]
    again = [p.outcome for p in sample(Toy(two_d6), None, 200, seed=7)]
    other = [p.outcome for p in sample(Toy(two_d6), None, 200, seed=8)]
    assert first == again and first != other
    n = 20000
    sevens = sum(p.outcome == "7" for p in sample(Toy(two_d6), None, n, seed=1))
    # 1/6 with a standard error of about 0.0026: 4 standard errors either side
    assert abs(sevens / n - 1 / 6) < 4 * (1 / 6 * 5 / 6 / n) ** 0.5


def test_random_roller_records_what_fell():
    roller = RandomRoller(3)
    roller.roll(Dice("a", sides=20))
    roller.roll(Dice("b", sides=6, count=2))
    assert [len(r.faces) for r in roller.rolled] == [1, 2]
    assert all(1 <= f <= 20 for f in roller.rolled[0].faces)
    assert FacesRoller([4]).roll(Dice("c", sides=4)) == 4


def test_a_play_is_the_same_however_its_parts_are_given():
    """Play's constructor is written by hand for speed: what it keeps is what the dataclass kept —
    quantities sorted into pairs from a mapping, pairs or a generator; lists made tuples; trace
    and dice left out of equality; frozen; and ``dataclasses.replace`` still builds one."""
    from dataclasses import FrozenInstanceError, replace

    from rules_core import TraceStep

    given = [Play("some hit", 1, [True], {"b": 2, "a": 1}, [TraceStep("Dodge", "5 against 7", "p.1")]),
             Play("some hit", 1, (True,), [("a", 1), ("b", 2)]),
             Play("some hit", 1, iter([True]), ((k, v) for k, v in (("b", 2), ("a", 1)))),
             Play(outcome="some hit", hits=1, evasions=(True,), quantities={"a": 1, "b": 2}, rolled=[])]
    for play in given:
        assert (play.evasions, play.quantities, play.rolled) == ((True,), (("a", 1), ("b", 2)), ())
        assert play == given[0] and hash(play) == hash(given[0])
    assert given[0].trace == (TraceStep("Dodge", "5 against 7", "p.1"),) and given[0]["b"] == 2
    assert Play("dodged", 0, quantities={"a": 1}) != Play("dodged", 0, quantities={"a": 2})
    assert replace(given[0], hits=2) == Play("some hit", 2, (True,), {"a": 1, "b": 2})
    with pytest.raises(FrozenInstanceError):
        given[0].hits = 3


@pytest.mark.parametrize("kwargs, message", [
    ({"sides": 1}, "Dodge: 1d1 is not a roll"),
    ({"sides": 6, "count": 0}, "Dodge: 0d6 is not a roll"),
    ({"sides": 6, "total": True, "face_kind": abs}, "face_kind says which faces act alike"),
])
def test_a_request_that_is_not_a_roll_is_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Dice("Dodge", **kwargs)
    assert Dice("Dodge", 6, 2) == Dice(purpose="Dodge", sides=6, count=2, total=False, ordered=True)
