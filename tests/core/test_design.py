"""A designer's own rule (rules_core.design): exact from enumerating its play, checked against a
brute force written here from the rule's words and against icepool; registered beside the four
games for every entry point; and each of a designer's everyday mistakes said as a RuleError."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

import icepool
import pytest

from example_rule import SYSTEM as EXAMPLE, TwoD10
from reference_2d10 import by_the_rules_text as brute
from rules_core import (Dice, Evasion, Play, RuleError, Scenario, ScenarioError, TooManyPlays, evaluate,
                        expectation, get_system, load_scenario, number, play_once, probability, register,
                        rule, sweep, unregister)
from rules_core.compare import compare, worth
from rules_core.simulate import simulate


def test_the_worked_example_exactly(designed_rule):
    """Skill 11 against 3 hits: 55 of the 100 rolls are at or under 11; 37 cancel every hit (the
    36 totals of 9 or less, and the double 5s)."""
    result = evaluate({"system": "my-2d10"})
    assert result.headline["p_dodge_succeeds"] == Fraction(11, 20)
    assert result.headline["p_no_hit"] == Fraction(37, 100)
    assert result.headline["expected_hits"] == Fraction(163, 100)
    assert result.outcome_rows() == [("dodged", Fraction(37, 100)), ("some hit", Fraction(18, 100)),
                                     ("all hit", Fraction(45, 100))]


@pytest.mark.parametrize("skill", [2, 5, 11, 16, 20])
@pytest.mark.parametrize("hits", [1, 3, 6])
@pytest.mark.parametrize("doubles", [True, False])
def test_enumeration_equals_the_brute_force(skill, hits, doubles):
    s = TwoD10(skill=skill, hits=hits).set("variant.doubles_cancel_all", doubles)
    result = EXAMPLE.evaluate(s)
    assert {k: result.headline[k] for k in ("p_dodge_succeeds", "p_no_hit", "expected_hits")} == \
        brute(skill, hits, doubles)


@pytest.mark.parametrize("skill", [2, 7, 11, 19])
def test_the_dodge_chance_agrees_with_icepool(skill):
    """icepool's 2d10, written independently: P(total ≤ skill)."""
    expected = (icepool.d10 + icepool.d10 <= skill).probability(True)
    assert EXAMPLE.evaluate(TwoD10(skill=skill)).headline["p_dodge_succeeds"] == expected


def test_own_headlines_and_quantities_become_exact_results():
    result = EXAMPLE.evaluate(TwoD10())
    assert result.headline["p_all_cancelled"] == Fraction(37, 100)
    # cancelled: 3 on 37 rolls, 1 on the 9 totals of 10 that are no double, 2 on... (by the rule's words)
    expected = Fraction(sum(3 if (a == b or 11 - a - b >= 2) else min(3, 11 - a - b + 1)
                            for a in range(1, 11) for b in range(1, 11) if a + b <= 11), 100)
    assert result.headline["expected_cancelled"] == expected
    assert result.distributions["cancelled"].mean(lambda v: v or 0) == expected
    assert result.trace[-1].rule == "Exact" and result.trace[-1].citation == "My 2d10 rules, p.1"


def test_a_house_rule_is_marked_in_the_trace():
    result = EXAMPLE.evaluate(TwoD10().set("variant.doubles_cancel_all", False))
    assert result.trace[0].rule == "House rule" and "Doubles cancel every hit" in result.trace[0].detail


def test_no_reaction_gives_a_null_dodge_chance_with_its_note():
    result = EXAMPLE.evaluate(TwoD10(dodges=False))
    assert result.headline["p_dodge_succeeds"] is None
    assert result.notes["p_dodge_succeeds"] == "No evasion roll is made, whatever the dice."
    assert result.headline["expected_hits"] == 3


def test_registered_every_entry_point_takes_it(designed_rule):
    s = load_scenario({"system": "my-2d10", "skill": 14})
    assert isinstance(s, TwoD10) and get_system("my-2d10") is designed_rule
    assert [p.value for p in sweep(s, "skill", [10, 12]).points] == [10, 12]
    assert compare(s, s.set("skill", 15)).differences()[0].difference == Fraction(6, 100)  # 6 ways to roll 15
    w = worth(s)
    assert w.without.headline["p_no_hit"] == 0 and w.gained["hits_avoided"] == 3 - w.with_.headline["expected_hits"]
    sim = simulate(designed_rule, s, 200, seed=1)
    assert sim.rolls == 200 and sum(sim.outcomes().values()) == 200 and set(sim.outcomes()) <= {"dodged", "some hit", "all hit"}
    played = play_once(designed_rule, s, faces=[3, 3])
    assert played.outcome == "dodged" and played.trace[0].detail == "3+3 against 14: doubles cancel every hit"


def test_registering_again_replaces_and_a_built_in_id_is_refused(designed_rule):
    again = rule("my-2d10", "My 2d10 dodge, second draft", TwoD10, EXAMPLE.play.play,
                 outcomes=("dodged", "some hit", "all hit"))
    try:
        assert register(again) is again and get_system("my-2d10").name == "My 2d10 dodge, second draft"
    finally:
        register(designed_rule)
    with pytest.raises(RuleError, match="'eldfall' is a built-in game's"):
        register(rule("eldfall", "Mine", _scenario("eldfall"), _play(), outcomes=("ok",)))


def test_an_unknown_id_says_how_a_rule_of_ones_own_is_known():
    unregister("my-2d10")
    with pytest.raises(ScenarioError, match=r"got 'my-2d10'.*rules_core.register\(rule\(...\)\)"):
        load_scenario({"system": "my-2d10"})


# -- a designer's mistakes --------------------------------------------------------------------

def _scenario(rule_id: str = "mistakes") -> type[Scenario]:
    class One(Scenario):
        system: Literal[rule_id] = rule_id  # type: ignore[valid-type]
        target: int = number(5, ge=1, le=10, label="Target", help="Roll at or under it.")
    return One


One = _scenario()


def _play(outcome: str = "ok", **more) -> callable:
    def play(s, roller):
        face = roller.roll(Dice("Dodge", sides=10))
        return Play(outcome if face <= s.target else "hit", 0 if face <= s.target else 1, evasions=(face <= s.target,),
                    **more)
    return play


def test_play_that_raises_is_named_with_its_exception_and_its_dice():
    def play(s, roller):
        a, b = roller.roll(Dice("Dodge", sides=6, count=2))
        return Play("ok", 6 // (a - b))
    broken = rule("mistakes", "Broken", One, play, outcomes=("ok",))
    with pytest.raises(RuleError) as caught:
        broken.evaluate(One())
    assert str(caught.value) == ("rule 'mistakes': play raised ZeroDivisionError: 'integer division or modulo by "
                                 "zero' on Dodge (2d6) → (1, 1)")


def test_an_outcome_not_declared_is_named_with_the_dice():
    mine = rule("mistakes", "Mine", One, _play(), outcomes=("ok", "missed"))
    with pytest.raises(RuleError, match=r"the outcome 'hit' on Dodge \(d10\) → 6, which is not one of the "
                                        r"declared outcomes 'ok', 'missed'"):
        mine.evaluate(One())


def test_a_headline_that_is_not_a_probability():
    with pytest.raises(RuleError, match="'p_margin' is not a probability .* define it with probability"):
        rule("mistakes", "Mine", One, _play(), outcomes=("ok", "hit"),
             headlines={"p_margin": expectation("Margin", lambda p: p.hits)})
    counted = rule("mistakes", "Mine", One, _play(), outcomes=("ok", "hit"),
                   headlines={"p_hit": probability("Hit", lambda p: p.hits)})
    with pytest.raises(RuleError, match=r"'p_hit' is not a probability: its event gave 0 .*True or False"):
        counted.evaluate(One())
    inexact = rule("mistakes", "Mine", One, _play(), outcomes=("ok", "hit"),
                   headlines={"half": expectation("Half", lambda p: p.hits / 2)})
    with pytest.raises(RuleError, match=r"'half' gave 0.0 .*a whole number or a Fraction"):
        inexact.evaluate(One())
    with pytest.raises(RuleError, match="'p_no_hit' is one every rule has already"):
        rule("mistakes", "Mine", One, _play(), outcomes=("ok", "hit"),
             headlines={"p_no_hit": probability("No hit", lambda p: p.hits == 0)})


def test_the_roller_used_after_play_returned():
    kept = []

    def play(s, roller):
        kept.append(roller)
        return Play("ok", 0)
    mine = rule("mistakes", "Mine", One, play, outcomes=("ok",))
    mine.evaluate(One())
    with pytest.raises(RuleError, match=r"the roller was used after play returned \(asked for Later \(d6\)\)"):
        kept[0].roll(Dice("Later", sides=6))


def test_a_field_without_a_default_and_a_wrong_system_field():
    class NoDefault(Scenario):
        system: Literal["mistakes"] = "mistakes"
        target: int = number(5, ge=1, le=10, label="Target", help="h")
        hits: int
    with pytest.raises(RuleError, match="every field needs a default .*; hits has none"):
        rule("mistakes", "Mine", NoDefault, _play(), outcomes=("ok", "hit"))
    with pytest.raises(RuleError, match=r"must declare system: Literal\['other'\] = 'other'"):
        rule("other", "Mine", One, _play(), outcomes=("ok", "hit"))
    with pytest.raises(RuleError, match="rule id 'My Rule': use 1 to 40 lower-case letters"):
        rule("My Rule", "Mine", One, _play(), outcomes=("ok", "hit"))


def test_dice_too_many_to_walk_are_refused_before_the_work():
    def play(s, roller):
        faces = roller.roll(Dice("Pool", sides=20, count=10))
        return Play("ok", 0, evasions=(max(faces) > 10,))
    huge = rule("mistakes", "Huge", One, play, outcomes=("ok",))
    with pytest.raises(TooManyPlays) as caught:
        huge.evaluate(One())
    message = str(caught.value)
    assert "asks for 10 dice (Pool (10d20))" in message and "the limit is 200,000" in message
    assert "simulate" in message

    def deep(s, roller):  # each die small, but six of them in a row: 20**6 plays
        faces = [roller.roll(Dice(f"Die {i}", sides=20)) for i in range(6)]
        return Play("ok", 0, evasions=(faces[0] > 1,))
    with pytest.raises(TooManyPlays, match=r"asks for 5 dice .* at least 3,200,000 plays"):  # refused at the 5th
        rule("mistakes", "Deep", One, deep, outcomes=("ok",)).evaluate(One())


def test_a_grouping_hint_keeps_a_large_pool_exact_and_equal_to_walking_every_face():
    """4d20 as a pool, read only as "how many at or under the target": grouped by that count."""
    def play(s, roller):
        faces = roller.roll(Dice("Pool", sides=20, count=4, ordered=False,
                                 classify=lambda t: sum(f <= s.target for f in t)))
        passed = sum(f <= s.target for f in faces)
        return Play("ok" if passed else "hit", max(0, 2 - passed), evasions=(passed > 0,))
    pool = rule("mistakes", "Pool", One, play, outcomes=("ok", "hit"))
    result = pool.evaluate(One(target=5))
    assert result.headline["p_dodge_succeeds"] == 1 - Fraction(15, 20) ** 4
    # the enumerator without the hint walks all 8,855 pools, to the same distribution
    from rules_core import enumerate_play
    assert enumerate_play(pool, One(target=5), classify=False).map(lambda p: p.hits) == result.hits


def test_a_rule_that_declares_no_evasion_is_told_why_worth_refuses_it():
    register(rule("mistakes", "Plain", One, _play(), outcomes=("ok", "hit")))
    try:
        with pytest.raises(ScenarioError, match="a system that declares its evasion"):
            worth(One())
    finally:
        unregister("mistakes")
    # one that declares a "no reaction" that still rolls is refused by worth's own check
    register(rule("mistakes", "Declared", One, _play(), outcomes=("ok", "hit"),
                  evasion=Evasion("target", {"target": 1}, lambda s: Fraction(s.target, 10), "d10 at or under")))
    try:
        with pytest.raises(ScenarioError, match="leave no evasion roll to make"):
            worth(One(target=7))
    finally:
        unregister("mistakes")


def test_a_grouping_hint_that_raises_is_named_with_its_request_and_answer():
    def play(s, roller):
        pool = roller.roll(Dice("Pool", sides=6, count=2, ordered=False, classify=lambda t: t[2]))
        return Play("ok", 0, evasions=(max(pool) > 3,))
    with pytest.raises(RuleError, match=r"the grouping hint \(classify\) of Pool \(2d6\) raised IndexError: "
                                        r"'tuple index out of range' on the answer \[1, 1\]"):
        rule("mistakes", "Hint", One, play, outcomes=("ok",)).evaluate(One())


def test_a_pool_of_one_die_is_still_a_tuple():
    """An unordered pool answers the tuple of its faces whatever its size, so a rule reading a
    pool needs no special case for one die."""
    seen = []

    def play(s, roller):
        pool = roller.roll(Dice("Pool", sides=6, count=s.target, ordered=False, classify=lambda t: sum(f > 3 for f in t)))
        seen.append(pool)
        return Play("ok", 0, evasions=(sum(f > 3 for f in pool) > 0,))
    assert rule("mistakes", "Pool", One, play, outcomes=("ok",)).evaluate(One(target=1)).headline[
        "p_dodge_succeeds"] == Fraction(1, 2)
    assert all(isinstance(p, tuple) and len(p) == 1 for p in seen)


def test_a_headline_reading_a_quantity_some_play_lacks_is_a_rule_error_in_evaluate():
    """Without a dodge, the example rule's plays carry no "cancelled": a headline reading it
    on every play is refused in evaluate itself (not only under worth), naming it and the play."""
    careless = rule("my-2d10", "Careless", TwoD10, EXAMPLE.play.play, outcomes=("dodged", "some hit", "all hit"),
                    headlines={"expected_cancelled": expectation("Expected hits cancelled.", lambda p: p["cancelled"]),
                               "p_cancelled_all": probability("All cancelled.", lambda p: True,
                                                              given=lambda p: p["cancelled"] == 3)})
    assert careless.evaluate(TwoD10()).headline["expected_cancelled"] == Fraction(137, 100)
    with pytest.raises(RuleError) as caught:
        careless.evaluate(TwoD10(dodges=False))
    assert str(caught.value) == (
        "rule 'my-2d10': headline 'expected_cancelled' could not be read on the play ('all hit', hits 3): its "
        "value raised KeyError: \"this play has no quantity 'cancelled'; it has none\"; read a quantity only on "
        "the plays that have it (p['cancelled'] if p.evasions else 0), or give it on every play")
    only_given = rule("my-2d10", "Careless", TwoD10, EXAMPLE.play.play, outcomes=("dodged", "some hit", "all hit"),
                      headlines={"p_cancelled_all": probability("All cancelled.", lambda p: True,
                                                                given=lambda p: p["cancelled"] == 3)})
    with pytest.raises(RuleError, match=r"headline 'p_cancelled_all' could not be read on the play \('all hit', "
                                        r"hits 3\): its condition \(given\) raised KeyError"):
        only_given.evaluate(TwoD10(dodges=False))


def test_a_designers_headline_is_named_by_its_own_description(designed_rule):
    from rules_core.result import headline_label
    assert headline_label("expected_cancelled") == "Expected hits cancelled"
    assert headline_label("p_all_cancelled") == "Every hit cancelled by the dodge"
    assert evaluate(TwoD10()).label("p_all_cancelled") == "Every hit cancelled by the dodge"
    assert headline_label("p_no_hit") == "P(no hit lands)"  # the common three keep their names
    unregister("my-2d10")
    assert headline_label("expected_cancelled") == "Expected cancelled"  # a rule not registered names nothing
