"""d100 homebrew: the fast exact path against an independent reference written from the rules
text (:mod:`.reference`): which roll is made with which target, what a Success evades, what
leftovers cost and buy, the Leap and its Round budget — on drawn scenarios and on a grid of the
rules' corners. The generic test proves ``evaluate`` equal to enumerating ``play``; both share
the planning code, so this is the test that catches a wrong rule."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, given, settings, strategies as st

import pytest

from rules_core import evaluate, load_scenario
from rules_core.systems.d100_homebrew import Attack, D100Scenario, Defender
from rules_core.systems.d100_homebrew.exact import analyse
from strategies import scenario_strategy

from . import reference
from .small import fix


def assert_matches_reference(sc: D100Scenario) -> None:
    result = evaluate(sc)
    assert dict(result.headline) == reference.headlines(sc)
    outcomes = reference.turn_outcomes(sc)
    hits: dict[int, Fraction] = {}
    cover: dict[int, Fraction] = {}
    for turn, p in outcomes.items():
        hits[turn.hits] = hits.get(turn.hits, 0) + p
        cover[turn.in_cover] = cover.get(turn.in_cover, 0) + p
    assert dict(result.hits.items()) == hits
    assert dict(result.distributions["hits_in_cover"].items()) == cover
    # where each attack's hits went (the dashboard's chart), attack by attack
    for i, tally in enumerate(analyse(sc).tallies):
        fates = [reference.expectation(outcomes, lambda t, k=k: t.fates[i][k]) for k in range(6)]
        assert (tally.p_roll, tally.evaded_by_roll, tally.evaded_by_leftovers, tally.negated_by_leap,
                tally.landed_open, tally.landed_in_cover) == tuple(fates), f"attack {i + 1}"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_drawn_small_scenarios_equal_the_reference(data):
    assert_matches_reference(load_scenario(data.draw(scenario_strategy("d100-homebrew", small=True))))


#: Up to three Evasion rolls among four attacks, every field over most of its range.
WIDER = {"attacks": (1, 4), "attacks.leap_distance": (1, 8), "defender.reactions": (0, 3),
         "defender.spd": (0, 8), "defender.unspent_ap": (0, 2)}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_drawn_wider_scenarios_equal_the_reference(data):
    from strategies import data_strategy

    raw = data.draw(data_strategy(D100Scenario, WIDER))
    assert_matches_reference(load_scenario(fix({"system": "d100-homebrew", **raw})))


# -- a grid over the rules' corners -----------------------------------------------------------------

def burst(hits: int = 3, mod: int = 0, **kw) -> Attack:
    return Attack(hits=hits, evasion_modifier=mod, **kw)


GRID = [
    # leftovers: the extra penalty in full tens, both spending rulings, a Parry's reach
    *(D100Scenario(defender=Defender(agility=a, dodge_advance=30, reactions=r),
                   attacks=(burst(1, m1), burst(3, m2), burst(2, m3)), spending=spending)
      for a in (35, 70) for r in (1, 2) for m1, m2, m3 in ((0, -10, -20), (-10, -25, 0), (10, -15, -40))
      for spending in ("cheapest_first", "in_order")),
    *(D100Scenario(defender=Defender(weapon_skill=70, parry_advance=adv), sizes_larger=size,
                   attacks=(Attack(kind="melee", hits=1, evasion="parry"), Attack(kind="shooting", hits=2),
                            Attack(kind="shot_in_melee", hits=2, evasion="parry", evasion_modifier=-20)))
      for adv in (0, 10, 30) for size in (0, 1, 3, 4)),
    # Leaps: the Round's budget, one attack's limit, melee, stray shots, the policy
    *(D100Scenario(defender=Defender(agility=55, spd=spd, reactions=3, unspent_ap=ap, delayed_half_action=dh,
                                     engaged_in_melee=True),
                   attacks=(Attack(kind="shot_in_melee", hits=2, leap="out_of_reach", leap_distance=2,
                                   next_target=True),
                            Attack(hits=1, covers_whole_base=True, leap="cover", leap_distance=3),
                            Attack(hits=3, leap="cover", leap_distance=2, free_attackers_evade=True)),
                   leap_policy=policy)
      for spd in (2, 3, 4) for ap in (0, 1) for dh in (False, True) for policy in ("as_planned", "when_short")),
    # the test's corners: targets below 1 and above 100, both readings of Successes, 01 and 100
    *(D100Scenario(defender=Defender(agility=a, dodge_modifier=m, reactions=2),
                   attacks=(burst(4, 30), burst(2, -60, next_target=True)),
                   successes=succ, roll_01=r01, roll_100=r100)
      for a, m in ((0, -60), (5, 0), (100, 60), (95, 10)) for succ in ("margin", "tens_digits")
      for r01 in ("passes", "as_rolled") for r100 in ("fails", "as_rolled")),
]


@pytest.mark.parametrize("index", range(len(GRID)))
def test_the_grid_equals_the_reference(index):
    assert_matches_reference(GRID[index])


# -- house rules (the scenario's variant block) -----------------------------------------------------

HOUSE_RULES = [
    {"points_per_success": 5},                       # a further Success per 5 points
    {"points_per_success": 20, "leftover_cost": 1},
    {"leftover_cost": 3},                            # leftovers dearer
    {"penalty_step": 20},                            # +1 per full −20 of extra penalty
    {"penalty_step": 5, "leftover_cost": 1, "points_per_success": 7},
]

HOUSE_RULE_SCENARIOS = [
    D100Scenario(defender=Defender(agility=45, dodge_advance=20, reactions=2),
                 attacks=(burst(3), burst(3, -20), burst(2, -40))),
    D100Scenario(defender=Defender(agility=60, reactions=1), attacks=(burst(1), burst(4, -10), burst(2, -30)),
                 spending="in_order"),
    D100Scenario(defender=Defender(agility=70, dodge_advance=10, reactions=2), successes="tens_digits",
                 attacks=(burst(2, 10), burst(3, -25, next_target=True), burst(2, 0))),
    D100Scenario(defender=Defender(weapon_skill=65, parry_advance=10, reactions=1), sizes_larger=1,
                 attacks=(Attack(kind="melee", hits=1, evasion="parry"), Attack(kind="melee", hits=3, evasion_modifier=-20),
                          Attack(kind="shot_in_melee", hits=2, evasion="parry"))),
]


@pytest.mark.parametrize("rule", HOUSE_RULES, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()))
@pytest.mark.parametrize("index", range(len(HOUSE_RULE_SCENARIOS)))
def test_house_rules_equal_the_reference(rule, index):
    scenario = HOUSE_RULE_SCENARIOS[index].replace(variant=rule)
    assert scenario.variant.model_dump(exclude_defaults=True) == rule
    assert_matches_reference(scenario)


@pytest.mark.parametrize("rule", HOUSE_RULES, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()))
def test_each_house_rule_moves_some_number_above(rule):
    # Else the comparison above would prove nothing about that house rule.
    assert any(evaluate(s.replace(variant=rule)).hits != evaluate(s).hits for s in HOUSE_RULE_SCENARIOS)
