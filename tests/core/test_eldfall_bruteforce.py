"""Eldfall Chronicles: the fast exact path (`evaluate`) equals the rule applied to every possible
roll (`enumerate_rolls`) on small cases, a grid and random scenarios; single Attacks agree with
icepool, which computes them its own way."""

from __future__ import annotations

from functools import reduce

import icepool
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from rules_core import Dist, evaluate
from rules_core.systems.eldfall import (
    Attacker, Defender, EldfallScenario, SecondModel, attack_dice, enumerate_rolls, outcome_label)

A, D = Attacker, Defender


def assert_fast_equals_enumeration(s: EldfallScenario) -> None:
    truth = enumerate_rolls(s)  # over (dodges, hits, wounds, ap_lost, knocked_down, 2nd hits, 2nd wounds)
    r = evaluate(s)
    assert r.hits == truth.map(lambda o: o[1])
    assert r.distributions["wounds"] == truth.map(lambda o: o[2])
    assert r.distributions["ap_lost"] == truth.map(lambda o: o[3])
    assert r.distributions["knocked_down"] == truth.map(lambda o: o[4])
    assert r.outcomes == truth.map(lambda o: outcome_label(o[1], o[2]))
    if any(a.sweep for a in s.attackers):
        assert r.distributions["second_model_hits"] == truth.map(lambda o: o[5])
        assert r.distributions["second_model_wounds"] == truth.map(lambda o: o[6])
    else:
        assert truth.map(lambda o: o[5]) == Dist.certain(None)
    if s.defender.reaction == "dodge":
        assert all(len(o[0]) == len(s.attackers) for o in truth)  # one AG roll per Attack
        assert r.headline["p_dodge_succeeds"] == truth.probability(lambda o: all(o[0]))
        seed = evaluate(s.replace(post_dodge_move="seed")).distributions["post_dodge_move"]
        moves = f"May move up to {s.defender.spd}″"
        assert seed[moves] == truth.probability(lambda o: any(o[0]))
    else:
        assert r.headline["p_dodge_succeeds"] is None
        assert all(o[0] == () for o in truth)


# -- one Attack, one die: a grid over the edges of every threshold ------------------------------------

EDGE_VALUES = [0, 1, 10, 20, 21]


@pytest.mark.parametrize("value", EDGE_VALUES)
@pytest.mark.parametrize("ag", [0, 1, 11, 25])
@pytest.mark.parametrize("resolution", ["independent", "compared"])
def test_single_die_grid(value, ag, resolution):
    s = EldfallScenario(attackers=(A(value=value, stk=1, pw=12, los=ag % 2 == 0),),
                        defender=D(ag=ag, arm=4), dodge_resolution=resolution)
    assert_fast_equals_enumeration(s)


@pytest.mark.parametrize("pw, arm", [(0, 0), (4, 4), (3, 5), (12, 0), (25, 3), (20, 20)])
def test_damage_thresholds(pw, arm):
    s = EldfallScenario(attackers=(A(value=15, stk=1, pw=pw, burn=1),), defender=D(arm=arm, reaction="none"))
    assert_fast_equals_enumeration(s)


# -- small whole scenarios: each feature and their interplay ------------------------------------------

CASES = {
    "two dice, compared": EldfallScenario(
        attackers=(A(value=9, stk=2, pw=9),), defender=D(ag=13, arm=4), dodge_resolution="compared"),
    "two dice, attribute above 20 (Critical on 20), Ward, Burn": EldfallScenario(
        attackers=(A(value=23, mod=-1, stk=2, pw=11, burn=1),), defender=D(arm=2, reaction="ward")),
    "three dice, Ward, Burn": EldfallScenario(
        attackers=(A(value=12, stk=3, pw=9, burn=1),), defender=D(arm=4, reaction="ward")),
    "two Attacks, Dodge, Barrier, Stagger, Knockdown, LoS": EldfallScenario(
        attackers=(A(value=7, stk=1, pw=12, stagger=True), A(value=9, stk=1, pw=7, knockdown=True, los=False)),
        defender=D(ag=11, arm=2, barrier=True)),
    "two Attacks, no reaction, Barrier, Burn, cover": EldfallScenario(
        attackers=(A(value=12, stk=1, pw=12, burn=1, cover="light"), A(value=21, stk=1, pw=10, burn=1)),
        defender=D(arm=3, reaction="none", barrier=True)),
    "two Attacks, Ward, Barrier, Sweep": EldfallScenario(
        attackers=(A(value=12, stk=2, pw=12, sweep=True), A(value=6, stk=1, pw=6, cover="heavy")),
        defender=D(arm=1, reaction="ward", barrier=True), second_model=SecondModel(arm=4),
        sweep_hit="critical"),
    "Sweep against a dodging target": EldfallScenario(
        attackers=(A(value=12, stk=1, pw=12, sweep=True),), defender=D(ag=10, arm=2),
        second_model=SecondModel(arm=5)),
    "Sweep, critical ruling, sizes": EldfallScenario(
        attackers=(A(value=12, stk=1, pw=10, sweep=True, stagger=True, knockdown=True, size=1),),
        defender=D(ag=10, arm=2, size=3), second_model=SecondModel(arm=6, size=1), sweep_hit="critical"),
    "two dice, no reaction, Barrier takes a Critical first": EldfallScenario(
        attackers=(A(value=12, stk=2, pw=10, knockdown=True),), defender=D(arm=4, reaction="none", barrier=True)),
    "two dice, failed Dodge, Barrier, Burn": EldfallScenario(
        attackers=(A(value=11, stk=2, pw=9, burn=1),), defender=D(ag=3, arm=5, barrier=True)),
    "reacting attacker, compared, Barrier": EldfallScenario(
        attackers=(A(value=12, stk=4, reacting=True, pw=12, burn=1),), defender=D(ag=9, arm=3, barrier=True),
        dodge_resolution="compared"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_small_scenarios(name):
    assert_fast_equals_enumeration(CASES[name])


def test_the_dodge_vs_critical_preset_whole():
    from rules_core.registry import get_system
    assert_fast_equals_enumeration(get_system("eldfall").preset("dodge-vs-critical").scenario)


# -- random small scenarios --------------------------------------------------------------------------

def dice_called_for(s: EldfallScenario) -> int:
    """The most dice the rules can call for in one roll of ``s``."""
    ag = 1 if s.defender.reaction == "dodge" else 0
    return sum(2 * attack_dice(a) + ag + a.burn + (1 + a.burn if a.sweep else 0) for a in s.attackers)


attackers = st.builds(
    A, value=st.integers(0, 24), mod=st.integers(-4, 2), cover=st.sampled_from(["none", "light", "heavy"]),
    stk=st.integers(1, 2), reacting=st.booleans(), pw=st.integers(0, 22), burn=st.integers(0, 1),
    stagger=st.booleans(), knockdown=st.booleans(), sweep=st.booleans(), size=st.integers(1, 4),
    los=st.booleans())
scenarios = st.builds(
    EldfallScenario, attackers=st.lists(attackers, min_size=1, max_size=2).map(tuple),
    defender=st.builds(D, ag=st.integers(0, 24), ag_mod=st.integers(-3, 3), arm=st.integers(0, 12),
                       size=st.integers(1, 4), acute_senses=st.booleans(),
                       reaction=st.sampled_from(["dodge", "ward", "none"]), barrier=st.booleans()),
    second_model=st.builds(SecondModel, arm=st.integers(0, 12), size=st.integers(1, 4)),
    dodge_resolution=st.sampled_from(["independent", "compared"]),
    sweep_hit=st.sampled_from(["plain", "critical"]))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(scenarios)
def test_random_small_scenarios_equal_enumeration(s):
    assume(dice_called_for(s) <= 4)
    assert_fast_equals_enumeration(s)


# -- icepool, its own way ----------------------------------------------------------------------------

def icepool_single_attack(value: int, stk: int, ag: int | None, pw: int, arm: int, burn: int):
    """Hits and Wounds of one Attack against an independent Dodge (or none), built with icepool."""
    def die(face):
        if value <= 0 or face > value and not (face == 20 and value > 20):
            return icepool.Vector((0, 0))
        return icepool.Vector((1, 0)) if face == 1 or face == 20 else icepool.Vector((0, 1))

    attack = icepool.d20.map(die)
    pool = reduce(lambda x, y: x + y, [attack] * stk)
    dodge = icepool.d20.map(lambda g: ag is not None and ag > 0 and g <= ag)
    landing = icepool.map(lambda v, ok: (v[0], 0 if ok else v[1]), pool, dodge)
    wound = lambda threshold: icepool.d20.map(lambda f: int(f <= threshold))

    def damage(c, p):
        rolls = [wound(pw)] * c + [wound(pw - arm)] * p
        base = reduce(lambda x, y: x + y, rolls, icepool.Die([0]))
        burned = reduce(lambda x, y: x + y, [wound(pw)] * burn, icepool.Die([0]))
        return base.map(lambda w: w + burned if w else icepool.Die([0]))

    return landing.map(lambda c, p: c + p), landing.map(damage)


@pytest.mark.parametrize("value, stk, ag, pw, arm, burn", [
    (10, 2, 12, 12, 2, 0), (12, 4, 11, 12, 3, 2), (21, 3, None, 9, 9, 1), (5, 3, 1, 14, 0, 0),
    (0, 2, 10, 12, 2, 1), (15, 1, 30, 25, 4, 3),
])
def test_single_attack_agrees_with_icepool(value, stk, ag, pw, arm, burn):
    s = EldfallScenario(attackers=(A(value=value, stk=stk, pw=pw, burn=burn),),
                        defender=D(ag=ag or 0, arm=arm, reaction="dodge" if ag is not None else "none"))
    r = evaluate(s)
    hits, wounds = icepool_single_attack(value, stk, ag, pw, arm, burn)
    for k in range(stk + 1):
        assert r.hits[k] == hits.probability(k)
    for w in range(stk + burn + 1):
        assert r.distributions["wounds"][w] == wounds.probability(w)
    assert r.headline["expected_wounds"] == wounds.mean()
