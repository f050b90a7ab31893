"""Eldfall Chronicles: ``evaluate`` equals the independent reference (``reference.py``, written
from the rules text and sharing no code with ``rules_core``) on drawn scenarios well beyond what
enumeration reaches, and on the edges of every threshold. This is what catches a wrong planning
rule that the rule on concrete dice and the fast path would share (which number a roll is made
against, which Hits a reaction cancels, what the Barrier takes)."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings

from rules_core import evaluate, find_preset, get_system
from strategies import data_strategy

from .reference import reference

ELDFALL = get_system("eldfall")

#: Larger than the generic test's scenarios: up to three Attacks of four dice with Burn (2).
BOUNDS = {"attackers": (1, 3), "attackers.stk": (1, 4), "attackers.burn": (0, 2)}


def marginal(table, of) -> dict:
    out: dict = {}
    for outcome, p in table.items():
        key = of(outcome)
        out[key] = out.get(key, 0) + p
    return {k: p for k, p in out.items() if p}


def mean(table, of) -> Fraction:
    return sum((p * of(o) for o, p in table.items()), Fraction(0))


def as_dict(dist) -> dict:
    return dict(dist.items())


def moves(dist) -> dict:
    """The post-dodge move distribution keyed by inches (None: no move)."""
    out: dict = {}
    for label, p in dist.items():
        found = re.search(r"up to (\d+)″", label)
        key = int(found.group(1)) if found else None
        out[key] = out.get(key, 0) + p
    return out


def check_against_reference(scenario) -> None:
    data = scenario.to_data()
    ref = reference(data)
    r = evaluate(scenario)
    d = ref.defender
    assert as_dict(r.hits) == marginal(d, lambda o: o.hits)
    assert as_dict(r.distributions["wounds"]) == marginal(d, lambda o: o.wounds)
    assert as_dict(r.distributions["ap_lost"]) == marginal(d, lambda o: o.ap_lost)
    assert as_dict(r.distributions["knocked_down"]) == marginal(d, lambda o: o.knocked_down)
    assert moves(r.distributions["post_dodge_move"]) == ref.move
    outcomes = marginal(d, lambda o: "No Hit lands" if not o.hits else "Hit(s) land, no Wound"
                        if not o.wounds else f"{o.wounds} Wound" + ("s" if o.wounds > 1 else ""))
    assert as_dict(r.outcomes) == outcomes
    h = r.headline
    dodging = data["defender"]["reaction"] == "dodge"
    assert h["p_dodge_succeeds"] == (marginal(d, lambda o: o.every_dodge).get(True, 0) if dodging else None)
    assert h["p_no_hit"] == marginal(d, lambda o: o.hits == 0).get(True, 0)
    assert h["expected_hits"] == mean(d, lambda o: o.hits)
    assert h["expected_wounds"] == mean(d, lambda o: o.wounds)
    assert h["p_at_least_one_wound"] == marginal(d, lambda o: o.wounds > 0).get(True, 0)
    assert h["expected_stagger"] == mean(d, lambda o: o.ap_lost)
    assert h["p_knocked_down"] == marginal(d, lambda o: o.knocked_down).get(True, 0)
    if ref.second_model is None:
        assert "second_model_hits" not in r.distributions
        assert h["expected_second_model_wounds"] is None and h["p_second_model_wounded"] is None
    else:
        second = ref.second_model
        assert as_dict(r.distributions["second_model_hits"]) == marginal(second, lambda o: o[0])
        assert as_dict(r.distributions["second_model_wounds"]) == marginal(second, lambda o: o[1])
        assert h["expected_second_model_wounds"] == mean(second, lambda o: o[1])
        assert h["p_second_model_wounded"] == marginal(second, lambda o: o[1] > 0).get(True, 0)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data_strategy(ELDFALL.scenario_cls, BOUNDS))
def test_evaluate_equals_the_reference_on_drawn_scenarios(data):
    check_against_reference(ELDFALL.scenario_cls(**data))


@pytest.mark.parametrize("name", [p.name for p in ELDFALL.presets])
def test_every_preset_equals_the_reference(name):
    check_against_reference(find_preset(f"eldfall/{name}").scenario)


# The edges of every threshold the planning rules set: attribute 0 / 1 / 20 / 21, an odd and an
# even AG halved without LoS (with and without Acute Senses), modifiers taking a value to 0,
# cover, PW − ARM at 0 and 20, SPD odd and even.
EDGES = [
    dict(value=v, mod=m, cover=c, ag=ag, ag_mod=agm, los=los, acute=acute, pw=pw, arm=arm, spd=spd)
    for v, m, c in ((0, 0, "none"), (1, 0, "none"), (20, 0, "none"), (21, 0, "none"), (12, -10, "heavy"),
                    (3, 0, "light"), (23, -2, "none"))
    for ag, agm, los, acute in ((11, 0, False, False), (12, -1, False, False), (1, 0, False, False),
                                (2, -2, False, False), (25, 0, False, False), (11, 0, False, True),
                                (11, 0, True, False))
    for pw, arm, spd in ((8, 8, 5),)
] + [dict(value=12, mod=0, cover="none", ag=9, ag_mod=0, los=False, acute=False, pw=pw, arm=arm, spd=spd)
     for pw, arm, spd in ((0, 0, 0), (20, 0, 1), (25, 5, 12), (3, 5, 7))]


@pytest.mark.parametrize("resolution", ["independent", "compared"])
@pytest.mark.parametrize("edge", EDGES, ids=lambda e: "-".join(str(v) for v in e.values()))
def test_edges_equal_the_reference(edge, resolution):
    attackers = [{"value": edge["value"], "mod": edge["mod"], "cover": edge["cover"], "stk": 2, "pw": edge["pw"],
                  "los": edge["los"], "burn": 1, "sweep": True}]
    scenario = ELDFALL.scenario_cls(**{
        "attackers": attackers,
        "defender": {"ag": edge["ag"], "ag_mod": edge["ag_mod"], "acute_senses": edge["acute"],
                     "arm": edge["arm"], "spd": edge["spd"], "barrier": True},
        "dodge_resolution": resolution, "post_dodge_move": "rulebook"})
    check_against_reference(scenario)
    check_against_reference(scenario.replace(post_dodge_move="seed", sweep_hit="critical"))


@pytest.mark.parametrize("critical", [1, 2, 5])
@pytest.mark.parametrize("halving", ["up", "down"])
@pytest.mark.parametrize("edge", EDGES[::3], ids=lambda e: "-".join(str(v) for v in e.values()))
def test_edges_equal_the_reference_under_house_rules(edge, critical, halving):
    # The rule constants moved off their official values on the same edges: low attributes
    # (a critical face above the attribute fails), an odd AG halved both ways, SPD odd and even.
    attackers = [{"value": edge["value"], "mod": edge["mod"], "cover": edge["cover"], "stk": 2,
                  "pw": edge["pw"], "los": edge["los"], "burn": 1, "sweep": True}]
    scenario = ELDFALL.scenario_cls(**{
        "attackers": attackers,
        "defender": {"ag": edge["ag"], "ag_mod": edge["ag_mod"], "acute_senses": edge["acute"],
                     "arm": edge["arm"], "spd": edge["spd"], "barrier": True},
        "dodge_resolution": "compared", "sweep_hit": "critical",
        "variant": {"critical_face": critical, "halving": halving}})
    check_against_reference(scenario)
    check_against_reference(scenario.replace(dodge_resolution="independent", post_dodge_move="rulebook"))
