"""Eldfall Chronicles, fuzzed on scenarios too large to enumerate: exact identities between
readings of the same situation that the rules imply, and clear errors for invalid data."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, given, settings, strategies as st

from rules_core import ScenarioError, evaluate, load_scenario
from rules_core.systems.eldfall import Attacker, Defender, EldfallScenario, SecondModel, without_reaction

attackers = st.builds(
    Attacker, value=st.integers(0, 30), mod=st.integers(-10, 10),
    cover=st.sampled_from(["none", "light", "heavy"]), stk=st.integers(1, 5), reacting=st.booleans(),
    pw=st.integers(0, 30), burn=st.integers(0, 3), stagger=st.booleans(), knockdown=st.booleans(),
    sweep=st.booleans(), size=st.integers(1, 5), los=st.booleans())
scenarios = st.builds(
    EldfallScenario, attackers=st.lists(attackers, min_size=1, max_size=3).map(tuple),
    defender=st.builds(Defender, ag=st.integers(0, 30), ag_mod=st.integers(-10, 10), arm=st.integers(0, 20),
                       size=st.integers(1, 5), spd=st.integers(0, 12), acute_senses=st.booleans(),
                       reaction=st.sampled_from(["dodge", "ward", "none"]), barrier=st.booleans()),
    second_model=st.builds(SecondModel, arm=st.integers(0, 20), size=st.integers(1, 5)),
    dodge_resolution=st.sampled_from(["independent", "compared"]),
    post_dodge_move=st.sampled_from(["rulebook", "seed"]), sweep_hit=st.sampled_from(["plain", "critical"]))

FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(scenarios)
def test_results_are_exact_and_consistent(s):
    r = evaluate(s)
    assert sum(p for _, p in r.outcome_rows()) == 1
    wounds = r.distributions["wounds"]
    assert r.headline["p_at_least_one_wound"] == 1 - wounds[0]
    assert r.headline["expected_wounds"] == wounds.mean()
    assert wounds[0] >= r.hits[0]                     # no Hit, no Wound
    assert r.headline["expected_stagger"] <= r.headline["expected_hits"]
    assert r.headline["p_knocked_down"] <= 1 - r.hits[0]
    assert max(r.hits.outcomes()) <= sum(1 if a.reacting else a.stk for a in s.attackers)
    if s.defender.reaction == "dodge":
        assert 0 <= r.headline["p_dodge_succeeds"] <= 1
    if any(a.sweep for a in s.attackers):
        assert r.headline["expected_second_model_wounds"] == r.distributions["second_model_wounds"].mean()


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
@given(scenarios, st.sampled_from([
    ("attackers", 0, "stk", 0), ("attackers", 0, "value", 31), ("attackers", 0, "burn", 5),
    ("attackers", 0, "cover", "total"), ("attackers", 0, "sweep", "maybe"), ("defender", "arm", -1),
    ("defender", "reaction", "parry"), ("second_model", "arm", 21), ("post_dodge_move", "anywhere"),
    ("defender", "spd", 2.5)]))
def test_invalid_values_name_their_field(s, bad):
    data = s.to_data()
    *path, value = bad
    node = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    name = ".".join(str(p) for p in path)
    try:
        load_scenario(data)
    except ScenarioError as err:
        assert name in [p.field for p in err.problems], str(err)
    else:
        raise AssertionError(f"{name}={value!r} was accepted")


def test_fractions_stay_fractions():
    r = evaluate(EldfallScenario())
    assert all(v is None or isinstance(v, Fraction) for v in r.headline.values())
