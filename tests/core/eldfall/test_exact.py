"""Eldfall Chronicles' fast exact path (``exact.py``): every preset against fractions worked by
hand, the `compared` ruling, the other rulings, notes, the trace; single Attacks against icepool
(which computes them its own way); and scenarios larger than the generic test draws against
enumerating the rule on concrete dice."""

from __future__ import annotations

from fractions import Fraction as F
from functools import reduce

import icepool
import pytest

from rules_core import Dist, enumerate_play, evaluate, get_system
from rules_core.play import headlines_of
from rules_core.systems.eldfall import (Attacker, Defender, EldfallScenario, SecondModel,
                                        without_reaction)

SYSTEM = get_system("eldfall")
A, D = Attacker, Defender


def preset(name: str) -> EldfallScenario:
    return SYSTEM.preset(name).scenario


def headline(name_or_scenario) -> dict:
    s = preset(name_or_scenario) if isinstance(name_or_scenario, str) else name_or_scenario
    return dict(evaluate(s).headline)


# -- presets, by hand -----------------------------------------------------------------------------

def test_preset_dodge_vs_critical():
    # OFF 10, STK 2, PW 12 vs AG 12, ARM 2. Per attack die: Critical Hit 1/20 (face 1), Hit 9/20
    # (faces 2..10), miss 10/20. The Dodge succeeds on 12/20 = 3/5.
    h = headline("dodge-vs-critical")
    assert h["p_dodge_succeeds"] == F(3, 5)
    # A die lands a Hit if Critical (1/20), or plain and the Dodge failed (9/20 * 2/5):
    # 2 * (1/20 + 18/100) = 2 * 23/100.
    assert h["expected_hits"] == F(23, 50)
    # No Hit: Dodge succeeds and no Critical (3/5 * (19/20)^2 = 1083/2000), or it fails and both
    # dice miss (2/5 * (1/2)^2 = 200/2000).
    assert h["p_no_hit"] == F(1283, 2000)
    # A Critical Hit wounds on PW 12 (ARM ignored): 12/20; a Hit on PW - ARM = 10: 10/20.
    # 2 * (1/20 * 3/5 + 9/20 * 2/5 * 1/2) = 2 * (3/100 + 9/100) = 24/100.
    assert h["expected_wounds"] == F(6, 25)
    # No Wound given success: (1 - 3/100)^2 = 9409/10000; given failure: (1 - 3/100 - 9/40)^2 =
    # (149/200)^2 = 22201/40000. 3/5 * 9409/10000 + 2/5 * 22201/40000 = 15731/20000.
    assert h["p_at_least_one_wound"] == F(4269, 20000)
    # Without the Dodge both dice land on 10/20: one Hit expected, the worth of the Dodge 27/50.
    assert evaluate(without_reaction(preset("dodge-vs-critical"))).headline["expected_hits"] == 1


def test_preset_sweep_one_dodges():
    # OFF 12, STK 2, PW 10, Sweep. Per die: Critical 1/20, Hit 11/20, miss 8/20. AG 10: 1/2.
    h = headline("sweep-one-dodges")
    assert h["p_dodge_succeeds"] == F(1, 2)
    assert h["expected_hits"] == 2 * (F(1, 20) + F(11, 20) * F(1, 2)) == F(13, 20)
    # No Hit: 1/2 * (19/20)^2 + 1/2 * (8/20)^2 = (361 + 64) / 800.
    assert h["p_no_hit"] == F(17, 32)
    # Wounds: Critical on PW 10 (1/2), Hit on 10 - 2 = 8 (2/5): 2 * (1/40 + 11/40 * 2/5) = 27/100.
    assert h["expected_wounds"] == F(27, 100)
    # No Wound: 1/2 * (39/40)^2 + 1/2 * (151/200)^2 = (38025 + 22801) / 80000 = 30413/40000.
    assert h["p_at_least_one_wound"] == F(9587, 40000)
    # The second model does not dodge: it suffers a Hit whenever the Attack roll succeeds,
    # 1 - (8/20)^2 = 21/25, and is wounded on 8/20: 21/25 * 2/5 = 42/125.
    r = evaluate(preset("sweep-one-dodges"))
    assert r.distributions["second_model_hits"][1] == F(21, 25)
    assert h["expected_second_model_wounds"] == F(42, 125)
    assert h["p_second_model_wounded"] == F(42, 125)


def test_presets_dodge_without_los():
    # ACC 12, STK 2, PW 12 vs ARM 3: per die Critical 1/20, Hit 11/20; Wound on 12/20 (Critical)
    # or 9/20 (Hit).
    # Without LoS AG 11 is halved, rounding up, to 6: the Dodge succeeds on 6/20.
    h = headline("no-los")
    assert h["p_dodge_succeeds"] == F(3, 10)
    assert h["expected_hits"] == 2 * (F(1, 20) + F(11, 20) * F(7, 10)) == F(87, 100)
    assert h["p_no_hit"] == (3 * F(361, 400) + 7 * F(64, 400)) / 10 == F(1531, 4000)
    assert h["expected_wounds"] == 2 * (F(3, 100) + F(11, 20) * F(7, 10) * F(9, 20)) == F(813, 2000)
    # With Acute Senses AG stays 11.
    h = headline("no-los-acute-senses")
    assert h["p_dodge_succeeds"] == F(11, 20)
    assert h["expected_hits"] == 2 * (F(1, 20) + F(11, 20) * F(9, 20)) == F(119, 200)
    assert h["expected_wounds"] == 2 * (F(3, 100) + F(11, 20) * F(9, 20) * F(9, 20)) == F(1131, 4000)


def test_preset_ward_vs_burn():
    # Only Critical Hits land (1/20 per die); one wounds on PW 12 (3/5); Burn (1) at PW 12, ARM 0.
    h = headline("ward-vs-burn")
    assert h["p_dodge_succeeds"] is None
    assert h["p_no_hit"] == F(361, 400) and h["expected_hits"] == F(1, 10)
    # P(a die wounds) = 1/20 * 3/5 = 3/100; P(at least one Wound) = 1 - (97/100)^2 = 591/10000.
    assert h["p_at_least_one_wound"] == F(591, 10000)
    # E = 2 * 3/100 + 591/10000 * 3/5 = 600/10000 + 1773/50000 = 4773/50000.
    assert h["expected_wounds"] == F(4773, 50000)


def test_preset_protective_barrier():
    # OFF 12, STK 2: per die success 12/20 (1/20 Critical). The Barrier negates one Hit.
    h = headline("protective-barrier")
    # E[Hits] = E[successes] - P(at least one) = 6/5 - (1 - (2/5)^2) = 30/25 - 21/25.
    assert h["expected_hits"] == F(9, 25)
    # No Hit: at most one success: (2/5)^2 + 2 * 3/5 * 2/5 = 16/25.
    assert h["p_no_hit"] == F(16, 25)
    # Two successes leave one Hit: Critical+Critical (1/400) leaves a Critical (Wound on PW 10,
    # 1/2); Critical+Hit (22/400) and Hit+Hit (121/400) leave a Hit (Wound on 10 - 4 = 6: 3/10).
    # (1/2 + 143 * 3/10) / 400 = 434/4000.
    assert h["expected_wounds"] == F(217, 2000) == h["p_at_least_one_wound"]


def test_preset_three_attackers_with_burn():
    # Three Attacks of ACC 12, STK 4, PW 12, Burn (2) vs AG 11, ARM 3: one AG roll each, 11/20.
    h = headline("three-attackers-burn")
    assert h["p_dodge_succeeds"] == F(11, 20) ** 3
    # Each die lands on 1/20 + 11/20 * 9/20 = 119/400.
    assert h["expected_hits"] == 12 * F(119, 400)
    # Per Attack: base Wounds 4 * (1/20 * 3/5 + 11/20 * 9/20 * 9/20); the four dice share the
    # AG roll, so P(no base Wound) = 11/20 * (97/100)^4 + 9/20 * (1 - 3/100 - 99/400)^4; Burn adds
    # 2 * 3/5 whenever a base Wound fell.
    base = 4 * (F(3, 100) + F(11, 20) * F(9, 20) * F(9, 20))
    none = F(11, 20) * F(97, 100) ** 4 + F(9, 20) * F(289, 400) ** 4
    assert h["expected_wounds"] == 3 * (base + (1 - none) * 2 * F(3, 5))
    # No Wound at all needs no base Wound in any Attack.
    assert h["p_at_least_one_wound"] == 1 - none ** 3


# -- the compared ruling -------------------------------------------------------------------------

def test_compared_ruling_exact():
    s = EldfallScenario(attackers=(A(value=10, stk=1, pw=12),), defender=D(ag=10, arm=2),
                        dodge_resolution="compared")
    h = headline(s)
    # AG face g: 1 is a Critical (always dodges: 1/20). g in 2..10 dodges unless the attack die is
    # a Hit above g: P = (10 + g)/20; sum over g = 2..10 of (10 + g) = 144. 20/400 + 144/400.
    assert h["p_dodge_succeeds"] == F(164, 400) == F(41, 100)
    # The Critical lands (1/20); a Hit on face f in 2..10 lands if the AG roll fails (10/20) or is a
    # non-Critical success below f ((f - 2)/20): sum over f of (8 + f) = 126.
    assert h["expected_hits"] == F(20, 400) + F(126, 400) == F(73, 200)
    # Independent reading of the same scenario: 1/2, and 1/20 + 9/20 * 1/2 = 11/40 Hits.
    h = headline(s.replace(dodge_resolution="independent"))
    assert h["p_dodge_succeeds"] == F(1, 2) and h["expected_hits"] == F(11, 40)


def compared_and_independent(value: int, ag: int) -> tuple[dict, dict]:
    s = EldfallScenario(attackers=(A(value=value, stk=3, pw=11),), defender=D(ag=ag, arm=2))
    return headline(s.replace(dodge_resolution="compared")), headline(s)


@pytest.mark.parametrize("value", (8, 14, 21, 26))
@pytest.mark.parametrize("ag", (3, 10, 19, 22))
def test_compared_is_strictly_harder_when_there_is_a_die_to_beat(value, ag):
    cmp, ind = compared_and_independent(value, ag)
    assert cmp["p_dodge_succeeds"] < ind["p_dodge_succeeds"]
    assert cmp["expected_hits"] > ind["expected_hits"]


@pytest.mark.parametrize("value, ag", [(1, 3), (1, 10), (1, 22), (8, 0), (21, 0), (26, 0)])
def test_compared_changes_nothing_without_a_die_to_beat(value, ag):
    # Value 1: only a 1 succeeds, and it is a Critical, which takes no part in the comparison;
    # AG 0: the AG roll fails whatever the attack dice show.
    cmp, ind = compared_and_independent(value, ag)
    assert cmp == ind


# -- other rulings, notes and the trace ----------------------------------------------------------

def test_post_dodge_movement_ruling():
    s = preset("no-los")  # SPD 5
    r = evaluate(s)
    assert r.distributions["post_dodge_move"] == Dist.certain(
        "May move up to 3″ and enter or cancel Crouched")            # half of 5, rounded up
    seed = evaluate(s.replace(post_dodge_move="seed"))
    assert seed.distributions["post_dodge_move"]["May move up to 5″"] == F(3, 10)  # = P(dodge)
    two = s.replace(post_dodge_move="seed", attackers=[s.attackers[0]] * 2)
    # One move for the Resolution Step when any of the two AG rolls succeeds: 1 - (7/10)^2.
    assert evaluate(two).distributions["post_dodge_move"]["May move up to 5″"] == F(51, 100)
    ward = evaluate(preset("ward-vs-burn"))
    assert ward.distributions["post_dodge_move"] == Dist.certain("No post-dodge move")


def test_nulls_carry_notes():
    r = evaluate(preset("ward-vs-burn"))
    assert r.headline["p_dodge_succeeds"] is None and "Ward" in r.notes["p_dodge_succeeds"]
    assert r.headline["expected_second_model_wounds"] is None and "Sweep" in r.notes["expected_second_model_wounds"]
    r = evaluate(preset("protective-barrier"))
    assert "does not react" in r.notes["p_dodge_succeeds"]
    zero = preset("dodge-vs-critical").replace(defender=Defender(ag=1, ag_mod=-1))
    r = evaluate(zero)
    assert r.headline["p_dodge_succeeds"] == 0 and "automatically" in r.notes["p_dodge_succeeds"]


def test_outcome_table_rows():
    r = evaluate(preset("dodge-vs-critical"))
    assert r.outcome_order == ("No Hit lands", "Hit(s) land, no Wound", "1 Wound", "2 Wounds")
    rows = dict(r.outcome_rows())
    assert rows["No Hit lands"] == F(1283, 2000)
    assert rows["Hit(s) land, no Wound"] == F(15731, 20000) - F(1283, 2000)
    assert rows["1 Wound"] + rows["2 Wounds"] == F(4269, 20000)


def test_stagger_and_knockdown_quantities():
    s = EldfallScenario(attackers=(Attacker(value=10, stk=2, pw=12, stagger=True, knockdown=True),),
                        defender=Defender(ag=12, arm=2))
    h = headline(s)
    # AP lost = landing Hits: as expected_hits of the dodge-vs-critical preset, 23/50.
    assert h["expected_stagger"] == h["expected_hits"] == F(23, 50)
    assert h["p_knocked_down"] == 1 - h["p_no_hit"] == 1 - F(1283, 2000)
    big = headline(s.replace(defender=s.defender.replace(size=4)))
    assert big["expected_stagger"] == 0 and big["p_knocked_down"] == 0


def test_trace_records_rulings_and_cites_every_step():
    r = evaluate(preset("no-los").replace(dodge_resolution="compared"))
    text = "\n".join(map(str, r.trace))
    assert "compared" in text and "halved" in text and "11 → 6" in text
    assert all(step.citation for step in r.trace)
    text = "\n".join(map(str, evaluate(preset("no-los-acute-senses")).trace))
    assert "Acute Senses" in text
    text = "\n".join(map(str, evaluate(preset("sweep-one-dodges")).trace))
    assert "second model" in text and "post-dodge movement" in text
    text = "\n".join(map(str, evaluate(preset("protective-barrier")).trace))
    assert "Protective Barrier" in text and "No reaction" in text


def test_system_declares_its_headlines_and_rulings():
    assert {f.name for f in SYSTEM.rulings()} == {"dodge_resolution", "post_dodge_move", "sweep_hit"}
    assert SYSTEM.presets[0].name == "dodge-vs-critical"
    assert set(SYSTEM.headlines) == {"expected_wounds", "p_at_least_one_wound", "expected_stagger",
                                     "p_knocked_down", "expected_second_model_wounds",
                                     "p_second_model_wounded"}
    r = evaluate(SYSTEM.default_scenario())
    assert set(r.headline) == set(SYSTEM.headlines) | {"p_dodge_succeeds", "p_no_hit", "expected_hits"}


# -- larger than the generic test draws: against enumerating the rule ---------------------------

LARGER = {
    "three dice, Ward, Burn (2)": EldfallScenario(
        attackers=(A(value=12, stk=3, pw=9, burn=2),), defender=D(arm=4, reaction="ward")),
    "three dice, compared, Barrier": EldfallScenario(
        attackers=(A(value=9, stk=3, pw=9, stagger=True),), defender=D(ag=13, arm=4, barrier=True),
        dodge_resolution="compared"),
    "three Attacks of one die, Dodge, Barrier, LoS, cover": EldfallScenario(
        attackers=(A(value=7, stk=1, pw=12, stagger=True), A(value=9, stk=1, pw=7, knockdown=True, los=False),
                   A(value=21, stk=1, pw=10, cover="light")),
        defender=D(ag=11, arm=2, barrier=True), post_dodge_move="seed"),
    "four dice, no reaction, Barrier, Sweep": EldfallScenario(
        attackers=(A(value=12, stk=4, pw=12, sweep=True),), defender=D(arm=3, reaction="none", barrier=True),
        second_model=SecondModel(arm=4), sweep_hit="critical"),
}


def check_against_enumeration(s: EldfallScenario) -> None:
    r, plays = evaluate(s), enumerate_play(SYSTEM, s)
    assert r.outcomes == plays.map(lambda p: p.outcome)
    assert r.hits == plays.map(lambda p: p.hits)
    assert dict(r.headline) == headlines_of(SYSTEM, s, plays)
    for key, dist in r.distributions.items():
        assert dist == plays.map(lambda p, key=key: p[key]), key


@pytest.mark.parametrize("ag", [19, 20, 21])
@pytest.mark.parametrize("value", [12, 20, 21])
def test_a_compared_dodge_at_the_top_of_the_d20_equals_enumeration(ag, value):
    """The compared Dodge at AG 19 to 21 (every face but the Critical's succeeds from 20 on),
    against attack values up to and above 20: where the enumerator's grouping of attack faces
    must keep every best non-Critical success the AG roll can be compared with."""
    check_against_enumeration(EldfallScenario(attackers=(A(value=value, stk=2, pw=12),),
                                              defender=D(ag=ag, arm=2), dodge_resolution="compared"))


@pytest.mark.parametrize("name", list(LARGER))
def test_larger_scenarios_equal_enumeration(name):
    check_against_enumeration(LARGER[name])


@pytest.mark.parametrize("name", [p.name for p in SYSTEM.presets if p.name != "three-attackers-burn"])
def test_presets_equal_enumeration(name):
    check_against_enumeration(preset(name))


# -- icepool, its own way ------------------------------------------------------------------------

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
