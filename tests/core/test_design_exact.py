"""A designer's own fast path, ``rule(..., exact=fn)``: used only once it has given what the
walk of ``play`` gives on the defaults, every preset and drawn scenarios; any disagreement, and
any slip in what it returns, is a RuleError naming the scenario and both answers."""

from __future__ import annotations

from fractions import Fraction

import pytest
from benchmarks.bench_design import two_d10_exact

from example_rule import SYSTEM as EXAMPLE, TwoD10
from reference_2d10 import by_the_rules_text
from rules_core import Play, RuleError, rule


def with_exact(exact, **more):
    """tests/example_rule.py's rule, given ``exact``."""
    return rule(EXAMPLE.id, EXAMPLE.name, TwoD10, more.pop("play", EXAMPLE.play.play),
                outcomes=EXAMPLE.play.outcomes, headlines=EXAMPLE.headlines, presets=EXAMPLE.presets,
                exact=exact, **more)


def test_a_right_exact_form_is_used_and_says_so():
    calls = []

    def counted(s, roller):
        calls.append(s)
        return EXAMPLE.play.play(s, roller)
    system = with_exact(two_d10_exact, play=counted)
    assert calls  # checked against the walk of play before rule returned
    calls.clear()
    for skill, hits in [(2, 1), (11, 3), (17, 6), (20, 4)]:
        result = system.evaluate(TwoD10(skill=skill, hits=hits))
        assert {k: result.headline[k] for k in ("p_dodge_succeeds", "p_no_hit", "expected_hits")} == \
            by_the_rules_text(skill, hits)
        assert "the rule's own exact form" in result.trace[-1].detail
    assert calls == []  # and then used: play is not walked again


def _wrong_when(wrong):
    """two_d10_exact, but with one hit more landing on the scenarios ``wrong`` picks."""
    def exact(s):
        plays = two_d10_exact(s)
        if not wrong(s):
            return plays
        return {Play(p.outcome, p.hits + 1 if p.outcome == "all hit" else p.hits, p.evasions, p.quantities): w
                for p, w in plays.items()}
    return exact


def test_a_disagreement_on_the_defaults_names_them_and_both_answers():
    with pytest.raises(RuleError) as caught:
        with_exact(_wrong_when(lambda s: True))
    said = str(caught.value)
    assert said.startswith("rule 'my-2d10': exact disagrees with walking every way the dice can fall, on the defaults: ")
    # 45 of the 100 rolls are over 11: the walk's 3 hits, exact's 4
    assert "('all hit', hits 4, cancelled=0): exact 9/20, the walk 0 (never)" in said
    assert "('all hit', hits 3, cancelled=0): exact 0 (never), the walk 9/20" in said


def test_a_disagreement_on_a_preset_names_the_preset():
    with pytest.raises(RuleError, match=r"on the preset 'clumsy': .*\('all hit', hits 4, cancelled=0\): exact 79/100"):
        with_exact(_wrong_when(lambda s: s.skill == 7))


def test_a_disagreement_only_on_a_drawn_scenario_is_found_and_named():
    with pytest.raises(RuleError, match=r"on the scenario skill=\d+, hits=6[,: ].*\('all hit', hits 7"):
        with_exact(_wrong_when(lambda s: s.hits == 6 and s.skill not in (7, 14)))


def test_what_exact_returns_is_checked():
    with pytest.raises(RuleError, match=r"exact raised ZeroDivisionError: 'division by zero' on the scenario the defaults"):
        with_exact(lambda s: 1 / 0)
    with pytest.raises(RuleError, match=r"exact gave the play \('all hit', hits 3\) the weight 0.5; give a whole "
                                        r"number or a Fraction"):
        with_exact(lambda s: {Play("all hit", s.hits): 0.5})
    with pytest.raises(RuleError, match=r"play came to the outcome 'missed' before any die was rolled, which is not "
                                        r"one of the declared outcomes"):
        with_exact(lambda s: {Play("missed", 0): 1})
    with pytest.raises(RuleError, match=r"exact returned \[\] on the scenario the defaults; return \{Play"):
        with_exact(lambda s: [])
    with pytest.raises(RuleError, match="exact must be a function exact"):
        with_exact("closed form")


def test_fractions_and_a_dist_are_taken_as_weights():
    def by_fractions(s):
        return {p: Fraction(w, 100) for p, w in two_d10_exact(s).items()}
    assert with_exact(by_fractions).evaluate(TwoD10(skill=14)).headline == EXAMPLE.evaluate(TwoD10(skill=14)).headline
