"""d100 homebrew, fuzzed: random small scenarios equal exhaustive enumeration of every face;
random scenarios over the whole declared ranges give exact, consistent results; a concrete
resolution always ends in an outcome the result lists."""

from __future__ import annotations

from fractions import Fraction
from random import Random

from hypothesis import HealthCheck, given, settings, strategies as st

from rules_core import evaluate
from rules_core.systems.d100 import Attack, D100Scenario, Defender, analyse, resolve
from rules_core.systems.d100.report import outcome_label
from rules_core.systems.d100.rules import make_plan
from test_d100_rules import assert_matches_brute_force

RULINGS = st.fixed_dictionaries({"successes": st.sampled_from(["margin", "tens_digits"]),
                                 "roll_01": st.sampled_from(["passes", "as_rolled"]),
                                 "roll_100": st.sampled_from(["fails", "as_rolled"]),
                                 "spending": st.sampled_from(["cheapest_first", "in_order"]),
                                 "leap_policy": st.sampled_from(["as_planned", "when_short"])})


def attacks(max_hits: int) -> st.SearchStrategy[Attack]:
    return st.builds(
        lambda kind, hits, mod, evasion, area, leap, dist, free, nxt: Attack(
            kind=kind, hits=hits, evasion_modifier=mod, evasion=evasion, covers_whole_base=area and kind != "melee",
            leap=leap, leap_distance=dist, free_attackers_evade=free, next_target=nxt),
        st.sampled_from(["shooting", "melee", "shot_in_melee"]), st.integers(1, max_hits), st.integers(-60, 30),
        st.sampled_from(["dodge", "parry", "none"]), st.booleans(), st.sampled_from(["none", "cover", "out_of_reach"]),
        st.integers(1, 6), st.booleans(), st.booleans())


def scenario_strategy(max_attacks: int, max_hits: int, max_reactions: int) -> st.SearchStrategy[D100Scenario]:
    return st.builds(
        lambda atks, a, wsk, adv, padv, dmod, reactions, spd, ap, dh, engaged, size, rulings: D100Scenario(
            defender=Defender(agility=a, weapon_skill=wsk, dodge_advance=adv, parry_advance=padv, dodge_modifier=dmod,
                              reactions=reactions, spd=spd, unspent_ap=ap, delayed_half_action=dh,
                              engaged_in_melee=engaged),
            attacks=tuple(atks), sizes_larger=size, **rulings),
        st.lists(attacks(max_hits), min_size=1, max_size=max_attacks), st.integers(0, 100), st.integers(0, 100),
        st.sampled_from([0, 10, 20, 30]), st.sampled_from([0, 10, 20, 30]), st.integers(-60, 60),
        st.integers(0, max_reactions), st.integers(0, 6), st.integers(0, 2), st.booleans(), st.booleans(),
        st.integers(0, 5), RULINGS)


#: Scenarios over (nearly) the whole declared ranges, for invariants and translations.
scenarios = scenario_strategy(max_attacks=4, max_hits=10, max_reactions=4)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sc=scenario_strategy(max_attacks=3, max_hits=3, max_reactions=2))
def test_random_small_scenarios_equal_every_face_of_every_roll(sc):
    assert_matches_brute_force(sc)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sc=scenarios, seed=st.integers(0, 2 ** 32 - 1))
def test_random_scenarios_are_exact_and_consistent(sc, seed):
    r = evaluate(sc)
    total = sum(a.hits for a in sc.attacks)
    assert sum(p for _, p in r.outcome_rows()) == 1
    assert 0 <= r.headline["expected_hits"] <= total
    assert r.hits[0] == r.headline["p_no_hit"] and r.hits.mean() == r.headline["expected_hits"]
    assert r.headline["expected_hits_in_cover"] <= r.headline["expected_hits"]
    for key in ("p_dodge_succeeds", "p_stray_shot", "p_disengage"):
        assert (r.headline[key] is None) == (key in r.notes)
    tallies = analyse(sc).tallies
    for attack, t in zip(sc.attacks, tallies):
        # every hit of every attack is evaded, negated or lands, exactly once
        assert (t.evaded_by_roll + t.evaded_by_leftovers + t.negated_by_leap + t.landed_open
                + t.landed_in_cover) == attack.hits
        assert 0 <= t.p_roll <= 1
    assert sum(t.landed_open + t.landed_in_cover for t in tallies) == r.headline["expected_hits"]
    assert sum(t.landed_in_cover for t in tallies) == r.headline["expected_hits_in_cover"]
    # one concrete set of faces ends in an outcome the result lists, with a positive probability
    rng = Random(seed)
    res = resolve(sc, [rng.randint(1, 100) for _ in sc.attacks])
    label = outcome_label(make_plan(sc), res.state)
    assert label in r.outcome_order and r.outcomes[label] > 0
    assert int(label.split(" evaded")[0]) == total - res.landed


@settings(max_examples=30, deadline=None)
@given(hits=st.integers(1, 10), a=st.integers(0, 99), mod=st.integers(-60, 60))
def test_a_higher_target_never_lands_more_hits_of_one_attack(hits, a, mod):
    lower = evaluate(D100Scenario(defender=Defender(agility=a, dodge_modifier=mod), attacks=(Attack(hits=hits),)))
    higher = evaluate(D100Scenario(defender=Defender(agility=a + 1, dodge_modifier=mod), attacks=(Attack(hits=hits),)))
    assert higher.headline["expected_hits"] <= lower.headline["expected_hits"]
    assert higher.headline["p_no_hit"] >= lower.headline["p_no_hit"]
    assert higher.headline["expected_successes"] >= lower.headline["expected_successes"]


def test_expected_successes_is_the_mean_of_each_roll_made():
    """Two attacks, one Reaction each way: Successes come only from the rolls made."""
    sc = D100Scenario(defender=Defender(agility=45, reactions=1), attacks=(Attack(hits=1), Attack(hits=1)))
    # Only the first attack gets a roll (one Reaction): 125/100 Successes on average at 45.
    assert evaluate(sc).headline["expected_successes"] == Fraction(5, 4)
