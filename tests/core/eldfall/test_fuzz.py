"""Eldfall Chronicles, fuzzed over the whole declared ranges (scenarios too large to enumerate):
exact relations between readings of the same situation that the rules imply."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from rules_core import evaluate, get_system
from rules_core.systems.eldfall import without_reaction
from strategies import data_strategy

ELDFALL = get_system("eldfall")
scenarios = data_strategy(ELDFALL.scenario_cls, {"attackers": (1, 3)}).map(
    lambda data: ELDFALL.scenario_cls(**data))

FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(scenarios)
def test_what_lands_bounds_what_follows(s):
    r = evaluate(s)
    wounds = r.distributions["wounds"]
    assert wounds[0] >= r.hits[0]                     # no Hit, no Wound
    assert r.headline["expected_stagger"] <= r.headline["expected_hits"]
    assert r.headline["p_knocked_down"] <= 1 - r.hits[0]
    assert max(r.hits.outcomes()) <= sum(1 if a.reacting else a.stk for a in s.attackers)
    assert max(wounds.outcomes()) <= sum((1 if a.reacting else a.stk) + a.burn for a in s.attackers)


@FUZZ
@given(scenarios)
def test_a_reaction_never_adds_hits_or_wounds(s):
    ours, bare = evaluate(s), evaluate(without_reaction(s))
    assert ours.headline["expected_hits"] <= bare.headline["expected_hits"]
    assert ours.headline["expected_wounds"] <= bare.headline["expected_wounds"]
    assert ours.headline["p_no_hit"] >= bare.headline["p_no_hit"]
    # The reaction protects only the defender: the second model is hit alike.
    if any(a.sweep for a in s.attackers):
        assert ours.distributions["second_model_wounds"] == bare.distributions["second_model_wounds"]
    else:
        assert "second_model_wounds" not in ours.distributions


@FUZZ
@given(scenarios)
def test_protective_barrier_negates_exactly_one_hit_when_any_lands(s):
    # The Barrier takes one Hit whenever at least one would land, so
    # E[Hits with it] = E[Hits without it] - P(a Hit would land without it).
    bare = evaluate(s.replace(defender=s.defender.replace(barrier=False)))
    shielded = evaluate(s.replace(defender=s.defender.replace(barrier=True)))
    assert shielded.headline["expected_hits"] == bare.headline["expected_hits"] - (1 - bare.hits[0])
    assert shielded.hits[0] == bare.hits[0] + bare.hits[1]


@FUZZ
@given(scenarios)
def test_a_dodge_that_cannot_fail_is_ward(s):
    # AG 20 or more with LoS (or Acute Senses): every face succeeds, so under the default reading a
    # Dodge ignores every non-Critical Hit, exactly like Ward.
    sure = s.replace(defender=s.defender.replace(reaction="dodge", ag=20, ag_mod=0, acute_senses=True),
                     dodge_resolution="independent")
    ward = s.replace(defender=s.defender.replace(reaction="ward"))
    a, b = evaluate(sure), evaluate(ward)
    assert a.headline["p_dodge_succeeds"] == 1
    assert a.hits == b.hits and a.distributions["wounds"] == b.distributions["wounds"]


@FUZZ
@given(scenarios)
def test_the_compared_reading_is_never_kinder(s):
    s = s.replace(defender=s.defender.replace(reaction="dodge"))
    ind, cmp = evaluate(s.replace(dodge_resolution="independent")), evaluate(s.replace(dodge_resolution="compared"))
    assert cmp.headline["p_dodge_succeeds"] <= ind.headline["p_dodge_succeeds"]
    assert cmp.headline["expected_hits"] >= ind.headline["expected_hits"]


@FUZZ
@given(scenarios)
def test_one_ag_roll_per_attack(s):
    # Each Attack has its own AG roll: against the same Attack twice the Dodge succeeds twice
    # with the square of the chance.
    s = s.replace(attackers=s.attackers[:1], defender=s.defender.replace(reaction="dodge"))
    once = evaluate(s).headline["p_dodge_succeeds"]
    assert evaluate(s.replace(attackers=s.attackers * 2)).headline["p_dodge_succeeds"] == once ** 2
