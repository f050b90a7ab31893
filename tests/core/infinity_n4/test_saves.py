"""Saving Rolls, wounds and Null in the Infinity N4 Order: thresholds and counts by hand, and the
wounds of whole Orders against an independent icepool computation."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import icepool
import pytest

from rules_core import evaluate
from rules_core.systems.infinity_n4.outcomes import NULL_STATE
from rules_core.systems.infinity_n4.play import plan_order
from rules_core.systems.infinity_n4.scenario import Attacker, Dodger, InfinityScenario, Template


def test_saves_use_the_chosen_attribute():
    scenario = InfinityScenario(dodger=Dodger(arm=4, bts=9), attackers=(
        Attacker(damage=13, save_vs="ARM"), Attacker(damage=13, save_vs="BTS", ammo="AP")))
    arm, bts = plan_order(scenario).rolls
    assert (arm.threshold, bts.threshold) == (13 - 4, 13 - 5)


def template_only(ammo: str, *, dodges: bool = False, **more) -> InfinityScenario:
    return InfinityScenario(dodger=Dodger(ph=10, arm=1, dodges=dodges, **more),
                            attackers=(Attacker(attacks=False),),
                            template=Template(kind="direct", damage=13, ammo=ammo))


@pytest.mark.parametrize("ammo, rolls", [("N", 1), ("AP", 1), ("DA", 2), ("EXP", 3)])
def test_rolls_per_hit_by_hand(ammo, rolls):
    # No dodge: the template always lands its one hit; each roll wounds on 1..12 of the d20.
    wounds = evaluate(template_only(ammo)).distributions["wounds"]
    for k in range(rolls + 1):
        # binomial: C(rolls, k) 12^k 8^(rolls − k) / 20^rolls
        assert wounds[k] == Fraction(comb(rolls, k) * 12 ** k * 8 ** (rolls - k), 20 ** rolls)
    assert max(wounds.outcomes()) == rolls


def test_a_critical_adds_one_saving_roll():
    # No dodge; an attacker of SV 20 hits on every face and scores a Critical on a 20.
    # N ammo, DAM 13 − ARM 1 = 12: a plain hit makes 1 roll, a Critical 2.
    scenario = InfinityScenario(dodger=Dodger(dodges=False, arm=1),
                                attackers=(Attacker(value=20, burst=1),))
    wounds = evaluate(scenario).distributions["wounds"]
    p = Fraction(12, 20)
    assert wounds[2] == Fraction(1, 20) * p * p
    assert wounds[1] == Fraction(19, 20) * p + Fraction(1, 20) * 2 * p * (1 - p)
    assert wounds[0] == Fraction(19, 20) * (1 - p) + Fraction(1, 20) * (1 - p) ** 2
    assert evaluate(scenario).distributions["criticals"][1] == Fraction(1, 20)


def test_dodging_the_template_halves_the_wounds_here():
    # PH 10: a Normal PH Roll succeeds on 1..10. DA against ARM 1 (12 of 20 wound each).
    result = evaluate(template_only("DA", dodges=True, wounds=2))
    wounds = result.distributions["wounds"]
    assert wounds[2] == Fraction(10, 20) * Fraction(12, 20) ** 2
    assert wounds[0] == Fraction(10, 20) + Fraction(10, 20) * Fraction(8, 20) ** 2
    assert result.headline["expected_wounds"] == Fraction(10, 20) * 2 * Fraction(12, 20)
    assert result.headline["p_null"] == wounds[2] == result.distributions["final state"][NULL_STATE]


# -- whole Orders against icepool ---------------------------------------------------------------

def rank(face: int, sv: int) -> int:
    """One d20 against SV, as the rules text reads: 0 failure, the value, 20 a Critical."""
    if sv <= 0:
        return 0
    if sv > 20:
        return min(face + sv - 20, 20)
    return 20 if face == sv else (face if face < sv else 0)


def icepool_wounds(dodge_svs, attackers, template=None, dodges=True) -> icepool.Die:
    """Wounds of an Order. ``attackers``: (attacker SV, Burst, rolls per hit, threshold);
    ``template``: (rolls per hit, threshold) or None; ``dodge_svs``: the dodger's SV against each
    attacker, then the template. An attacker keeps its dice above the dodge die's rank."""
    def rolls(face, *pools):
        out = []
        for (sv_a, n, per_hit, _), pool, sv_d in zip(attackers, pools, dodge_svs):
            dodge = rank(face, sv_d) if dodges else 0
            kept = [r for r in pool if r > dodge]
            out.append(per_hit * len(kept) + kept.count(20))
        if template is not None:
            failed = not dodges or rank(face, dodge_svs[-1]) == 0
            out.append(template[0] if failed else 0)
        return tuple(out)

    pools = [icepool.d20.map(lambda f, sv=sv_a: rank(f, sv)).pool(n) for sv_a, n, _, _ in attackers]
    counts = icepool.map(rolls, icepool.d20, *pools)
    thresholds = [t for *_, t in attackers] + ([template[1]] if template else [])

    def wounds(numbers):
        total = icepool.Die([0])
        for k, t in zip(numbers, thresholds):
            total = total + (k @ icepool.d20.map(lambda f, t=t: 1 if f <= t else 0))
        return total

    return counts.map(wounds)


def as_fractions(die: icepool.Die) -> dict[int, Fraction]:
    return {int(o): Fraction(die.quantity(o), die.denominator()) for o in die.outcomes()
            if die.quantity(o)}


ICEPOOL_CASES = [
    # (scenario, dodger SVs by hand, attackers by hand, template by hand)
    (InfinityScenario(dodger=Dodger(ph=10, arm=1), attackers=(Attacker(value=12, mod=3, burst=3),)),
     [10], [(15, 3, 1, 12)], None),
    (InfinityScenario(dodger=Dodger(ph=12, arm=2, wounds=2),
                      attackers=(Attacker(value=15, burst=2, ammo="DA"),
                                 Attacker(value=12, burst=1, dodge_mod=-3, partial_cover=True))),
     [12, 9], [(15, 2, 2, 11), (12, 1, 1, 8)], None),
    (InfinityScenario(dodger=Dodger(ph=11, arm=3, wounds=3), minus_three="stacking",
                      attackers=(Attacker(value=13, mod=3, burst=2, ammo="EXP"),),
                      template=Template(kind="deployable", lof=False, ammo="DA", damage=15)),
     [11, 5], [(16, 2, 3, 10)], (2, 12)),
    (InfinityScenario(dodger=Dodger(ph=14, arm=1, dodges=False, wounds=2),
                      attackers=(Attacker(value=22, burst=2),),
                      template=Template(kind="direct", damage=13)),
     [14, 14], [(22, 2, 1, 12)], (1, 12)),
]


@pytest.mark.parametrize("scenario, dodge_svs, attackers, template", ICEPOOL_CASES)
def test_wounds_against_icepool(scenario, dodge_svs, attackers, template):
    plan = plan_order(scenario)
    assert [r.sv_dodge for r in plan.rolls] == dodge_svs
    expected = icepool_wounds(dodge_svs, attackers, template, dodges=scenario.dodger.dodges)
    result = evaluate(scenario)
    assert dict(result.distributions["wounds"].items()) == as_fractions(expected)
    assert result.headline["expected_wounds"] == Fraction(expected.mean())
    w = scenario.dodger.wounds
    assert result.headline["p_null"] == Fraction((expected >= w).probability(True))
