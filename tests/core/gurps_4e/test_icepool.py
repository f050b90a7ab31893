"""GURPS 4e against icepool: one hit's injury for many dice/DR/type combinations, the total over a
fixed number of hits, and rapid fire against a Dodge (hits landing and the injury they do),
each written here again from the rules text (B373-379, B398-400, B414) with icepool's dice."""

from __future__ import annotations

from fractions import Fraction
from math import floor

import icepool
import pytest

from rules_core import evaluate
from rules_core.systems.gurps_4e import Attack, Dodger, GurpsScenario, Target
from rules_core.systems.gurps_4e.damage import Hit, hit_injury, parse_damage
from rules_core.systems.gurps_4e.dice import rof_bonus

WOUND = {"pi-": Fraction(1, 2), "pi": 1, "pi+": Fraction(3, 2), "pi++": 2, "cut": Fraction(3, 2), "imp": 2,
         "cr": 1, "burn": 1, "cor": 1, "tox": 1, "fat": 1}


def icepool_injury(dice: int, adds: int, mult: int, dtype: str, dr: int = 0, divisor: Fraction = Fraction(1),
                   flexible: bool = False, location: str = "torso", hp: int = 10, cover: int = 0,
                   spread: int = 1) -> icepool.Die:
    """One hit's injury, from the rules text, over icepool's dice."""
    def armor(value: int) -> int:
        return floor(value / divisor) if divisor >= 1 else int(max(value, 1) / divisor)

    def wound(basic: int) -> int:
        basic = max(basic, 0 if dtype == "cr" else 1) // spread
        reaching = max(0, basic - (floor(cover / divisor) if cover else 0))
        through = reaching - armor(dr)
        if through > 0:
            mult_here = WOUND[dtype]
            if location == "vitals":
                mult_here = 3
            elif location == "limb" and dtype in ("pi+", "pi++", "imp"):
                mult_here = 1
            hurt = max(1, floor(through * mult_here))
        elif flexible and dtype == "cr":
            hurt = reaching // 5
        elif flexible and dtype in ("cut", "imp", "pi-", "pi", "pi+", "pi++"):
            hurt = reaching // 10
        else:
            hurt = 0
        return min(hurt, hp // 2 + 1) if location == "limb" else hurt

    return ((dice @ icepool.d6 + adds) * mult).map(wound)


def as_dict(die: icepool.Die) -> dict:
    return {o: Fraction(die.probability(o)) for o in die.outcomes() if die.probability(o)}


CASES = [
    # damage, type, keyword arguments of Hit (and of the icepool version)
    ("2d+1", "cut", {"dr": 3}),
    ("3d+2", "pi+", {"dr": 6}),
    ("1d-1", "cr", {}),
    ("1d-1", "pi-", {"dr": 1}),
    ("6d", "cr", {"dr": 20, "flexible": True}),
    ("2d", "imp", {"dr": 10, "divisor": "2"}),
    ("3d", "burn", {"dr": 5, "divisor": "0.5"}),
    ("1d+2", "pi", {"dr": 0, "divisor": "0.2"}),
    ("4d×2", "pi++", {"dr": 8, "divisor": "3"}),
    ("2d", "pi", {"dr": 2, "location": "vitals"}),
    ("3d", "imp", {"location": "limb", "hp": 10}),
    ("5d", "cut", {"dr": 12, "flexible": True, "location": "limb", "hp": 14}),
    ("2d+2", "cor", {"dr": 4, "divisor": "10"}),
    ("1d", "tox", {"dr": 1}),
    ("3d", "fat", {"dr": 2}),
    ("6d", "cr", {"dr": 2, "spread": 9}),
    ("5d", "pi", {"dr": 3, "cover_dr": 6, "divisor": "2"}),
]


@pytest.mark.parametrize("damage, dtype, kw", CASES)
def test_one_hit_against_icepool(damage, dtype, kw):
    dice = parse_damage(damage)
    theirs = dict(kw, divisor=Fraction(kw.get("divisor", "1")))
    theirs["cover"] = theirs.pop("cover_dr", 0)
    ice = icepool_injury(dice.dice, dice.adds, dice.multiplier, dtype, **theirs)
    assert dict(hit_injury(Hit(dice, dtype, **kw)).items()) == as_dict(ice)


@pytest.mark.parametrize("damage, dtype, dr, hits", [("2d+1", "cut", 3, 3), ("1d", "pi-", 0, 5), ("3d-1", "cr", 4, 2)])
def test_fixed_hits_total_against_icepool(damage, dtype, dr, hits):
    dice = parse_damage(damage)
    s = GurpsScenario(dodger=Dodger(defense="none"), target=Target(dr=dr, hp=20, hp_left=20),
                      attacks=(Attack(hits_by="fixed", hits=hits, damage=damage, damage_type=dtype),))
    total = hits @ icepool_injury(dice.dice, dice.adds, dice.multiplier, dtype, dr=dr)
    result = evaluate(s)
    assert dict(result.distributions["injury"].items()) == as_dict(total)
    assert result.headline["p_down"] == Fraction((total >= 20).probability(True))


def icepool_landed(skill: int, rof: int, recoil: int, dodge: int) -> icepool.Die:
    """Hits landing from one rapid-fire attack against a plain Dodge (B373-375), with icepool."""
    def landed(attack: int, defense: int) -> int:
        hit = attack <= 4 or (attack <= 16 and attack <= skill)
        if not hit:
            return 0
        hits = min(rof, 1 + max(0, skill - attack) // recoil)
        critical = attack <= 4 or (attack == 5 and skill >= 15) or (attack == 6 and skill >= 16)
        if critical:
            return hits
        dodged = defense <= 4 or (defense <= 16 and defense <= dodge)
        return hits - min(hits, 1 + max(0, dodge - defense)) if dodged else hits

    return icepool.map(landed, 3 @ icepool.d6, 3 @ icepool.d6)


@pytest.mark.parametrize("skill, rof, recoil, speed, drop", [(13, 6, 2, 6.0, False), (12, 10, 2, 6.0, True),
                                                             (16, 4, 1, 5.0, False)])
def test_rapid_fire_against_a_dodge_against_icepool(skill, rof, recoil, speed, drop):
    s = GurpsScenario(dodger=Dodger(basic_speed=speed, defense="dodge_and_drop" if drop else "plain"),
                      target=Target(dr=6, hp=12, hp_left=12),
                      attacks=(Attack(skill=skill, rof=rof, recoil=recoil, damage="3d+2", damage_type="pi+"),))
    dodge = int(speed) + 3 + (3 if drop else 0)
    landed = icepool_landed(skill + rof_bonus(rof), rof, recoil, dodge)
    injury = landed @ icepool_injury(3, 2, 1, "pi+", dr=6)
    result = evaluate(s)
    assert dict(result.hits.items()) == as_dict(landed)
    assert dict(result.distributions["injury"].items()) == as_dict(injury)
    assert result.headline["p_down"] == Fraction((injury >= 12).probability(True))
