"""Dist, the exact distribution every result is made of: each operation against numbers worked
by hand, and each refusal by its message."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules_core import Dist


def test_a_die_and_sums_of_dice_counted_by_hand():
    d6 = Dist.die(6)
    two = d6 + d6
    assert two[7] == Fraction(6, 36) and two[2] == Fraction(1, 36) and two[13] == 0
    assert two.denominator == 36
    assert d6.repeat_sum(2) == two
    assert d6.repeat_sum(3) == two + d6
    assert d6.repeat_sum(3)[10] == Fraction(27, 216)
    assert d6.repeat_sum(5) == two + two + d6
    assert d6.repeat_sum(0) == Dist.certain(0)
    assert (d6 + 1).outcomes() == (2, 3, 4, 5, 6, 7)
    assert (d6 + 1)[7] == Fraction(1, 6)


def test_queries():
    two = Dist.die(6) + Dist.die(6)
    assert two.at_least(11) == Fraction(3, 36) and two.at_most(3) == Fraction(3, 36)
    assert two.probability(7) == Fraction(1, 6)
    assert two.probability(lambda s: s % 2 == 0) == Fraction(1, 2)
    assert two.mean() == 7 and two.mean(lambda s: s * s) == Fraction(329, 6)
    assert 12 in two and 13 not in two and len(two) == 11
    assert list(two) == list(range(2, 13))


def test_weights_are_integers_over_the_smallest_denominator():
    d = Dist({"x": 2, "y": 4})
    assert d.denominator == 3 and d.weight("y") == 2 and d.weight("x") == 1
    assert d.weight("absent") == 0
    assert Dist.uniform("aab").weight("a") == 2 and Dist.uniform("aab").denominator == 3
    assert Dist.certain("z").denominator == 1 and Dist.certain("z")["z"] == 1
    assert Dist([("a", 1), ("a", 2), ("b", 0)]) == Dist({"a": 1})
    with pytest.raises(AttributeError):
        d.foo = 1  # __slots__: no new attributes


def test_outcomes_sort_where_they_can():
    assert Dist({3: 1, 1: 1, 2: 1}).outcomes() == (1, 2, 3)
    mixed = Dist({"b": 1, 1: 1})          # not comparable: insertion order
    assert mixed.outcomes() == ("b", 1)
    assert [o for o, _ in Dist({2: 1, 1: 3}).items()] == [1, 2]
    assert list(Dist({2: 1, 1: 3}).items()) == [(1, Fraction(3, 4)), (2, Fraction(1, 4))]


def test_equality_and_hashing_follow_the_probabilities():
    assert Dist({1: 1, 2: 1}) == Dist({1: 5, 2: 5})
    assert Dist({1: 1, 2: 2}) != Dist({1: 2, 2: 1})           # same denominator, other weights
    assert Dist({1: 1}) != Dist({1: 1, 2: 1})
    assert (Dist({1: 1}) == "x") is False
    assert hash(Dist({1: 1, 2: 1})) == hash(Dist({2: 3, 1: 3}))
    assert len({Dist({1: 1, 2: 1}), Dist({1: 2, 2: 2}), Dist({1: 1})}) == 2
    assert repr(Dist({2: 1, 1: 3})) == "Dist({1: 3, 2: 1} / 4)"


def test_from_fractions_and_mixture():
    d = Dist.from_fractions({0: Fraction(1, 3), 1: Fraction(2, 3)})
    assert d.weight(1) == 2 and d.denominator == 3
    assert Dist.from_fractions({"a": Fraction(1, 2), "b": Fraction(1, 2)}).denominator == 2
    m = Dist.mixture([(Dist.certain("a"), 1), (Dist.uniform("ab"), 1)])
    assert m["a"] == Fraction(3, 4) and m.denominator == 4
    assert Dist.mixture([(Dist.certain(1), 0), (Dist.certain(2), 3)]) == Dist.certain(2)
    assert Dist.mixture([(Dist.die(3), 1), (Dist.die(2), 2)])[1] == Fraction(1, 3) * Fraction(1, 3) + \
        Fraction(2, 3) * Fraction(1, 2)


def test_transformations():
    d6 = Dist.die(6)
    assert d6.condition(lambda x: x > 4) == Dist.uniform([5, 6])
    assert d6.map(lambda x: x % 2).probability(0) == Fraction(1, 2)
    assert d6.bind(lambda x: Dist.certain(x > 3))[True] == Fraction(1, 2)
    assert d6.bind(lambda x: Dist.die(x))[6] == Fraction(1, 36)
    coin = Dist.uniform([0, 1])
    assert coin.combine(d6, lambda a, b: (a, b))[(1, 6)] == Fraction(1, 12)


@pytest.mark.parametrize("build, message", [
    (lambda: Dist({1: -1}), "weights must be non-negative integers, got -1"),
    (lambda: Dist({1: 0.5}), "weights must be non-negative integers, got 0.5"),
    (lambda: Dist({}), "a distribution needs at least one outcome of positive weight"),
    (lambda: Dist({1: 0}), "a distribution needs at least one outcome of positive weight"),
    (lambda: Dist.die(6).condition(lambda x: x > 6), "cannot condition on an impossible event"),
    (lambda: Dist.from_fractions({0: Fraction(1, 3)}), "probabilities must sum to exactly 1"),
])
def test_refusals_say_why(build, message):
    with pytest.raises(ValueError) as err:
        build()
    assert str(err.value) == message
