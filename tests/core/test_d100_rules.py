"""d100 homebrew: the rule on concrete d100 faces, by hand from the seed; the exact analysis
against exhaustive enumeration of every face of every roll made; icepool cross-checks; the
presets' exact fractions worked by hand; every ruling both ways; the gates."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import icepool
import pytest

from rules_core import ScenarioError, evaluate, find_preset, load_scenario
from rules_core.systems.d100 import (Attack, D100Scenario, Defender, MoreRollsNeeded, analyse, resolve,
                                     roll_successes, success_counts)
from rules_core.systems.d100.report import resolution_trace
from rules_core.systems.d100.rules import FACES, TestRules, leftover_cost

ALL_RULES = [TestRules(tens, a01, a100) for tens in (False, True) for a01 in (True, False)
             for a100 in (True, False)]


def scenario(*attacks: Attack, rulings: dict | None = None, sizes_larger: int = 0, **defender) -> D100Scenario:
    return D100Scenario(defender=Defender(**defender), attacks=attacks or (Attack(),), sizes_larger=sizes_larger,
                        **(rulings or {}))


# -- brute force: every face of every roll made ------------------------------------------------

def brute_force(sc: D100Scenario) -> tuple[Counter, int, list[list[int]]]:
    """Apply the rule (:func:`resolve`) to every sequence of d100 faces, one per roll made.

    Returns the weights of the final states over ``FACES ** depth``, that denominator, and per
    attack the summed tallies (roll made, evaded by its roll, by leftovers, by a Leap, landing
    in the open, against Cover, Successes) on the same denominator.
    """
    depth = min(sc.defender.reactions, len(sc.attacks))
    den = FACES ** depth
    finals: Counter = Counter()
    sums = [[0] * 7 for _ in sc.attacks]
    stack = [()]
    while stack:
        faces = stack.pop()
        try:
            res = resolve(sc, faces)
        except MoreRollsNeeded:
            stack.extend(faces + (f,) for f in range(1, FACES + 1))
            continue
        w = FACES ** (depth - len(faces))
        finals[res.state] += w
        successes = iter(res.successes)
        for ev in res.events:
            kind, i = ev[0], ev[1]
            if kind == "roll":
                sums[i][0] += w
                sums[i][6] += w * next(successes)
            elif kind == "evade":
                sums[i][1] += w * ev[2]
            elif kind == "leftover":
                sums[ev[2]][2] += w * ev[3]
            elif kind == "leap":
                sums[i][3 if ev[2] == "out_of_reach" else 5] += w * ev[3]
            elif kind == "land":
                sums[i][4] += w * ev[2]
    assert sum(finals.values()) == den
    return finals, den, sums


def assert_matches_brute_force(sc: D100Scenario) -> None:
    finals, den, sums = brute_force(sc)
    analysis = analyse(sc)
    got = {s: Fraction(w, analysis.denominator) for s, w in analysis.final.items() if w}
    want = {s: Fraction(w, den) for s, w in finals.items()}
    assert got == want
    for tally, row in zip(analysis.tallies, sums):
        assert (tally.p_roll, tally.evaded_by_roll, tally.evaded_by_leftovers, tally.negated_by_leap,
                tally.landed_open, tally.landed_in_cover, tally.expected_successes) == tuple(
            Fraction(x, den) for x in row)


# -- one test on one face, by hand ----------------------------------------------------------------

@pytest.mark.parametrize("face, target, rules, successes", [
    (45, 45, TestRules(), 1), (36, 45, TestRules(), 1), (35, 45, TestRules(), 2),   # 1 + full tens under
    (6, 45, TestRules(), 4), (5, 45, TestRules(), 5), (1, 45, TestRules(), 5),
    (46, 45, TestRules(), 0), (100, 45, TestRules(), 0),
    (40, 45, TestRules(tens_digits=True), 1), (39, 45, TestRules(tens_digits=True), 2),  # DH2: 4 − 3 + 1
    (9, 45, TestRules(tens_digits=True), 5), (10, 45, TestRules(tens_digits=True), 4),
    (1, 0, TestRules(), 1), (1, -35, TestRules(), 1), (1, 0, TestRules(auto_01=False), 0),  # 01 below 1
    (2, 0, TestRules(), 0),
    (100, 100, TestRules(), 0), (100, 100, TestRules(auto_100=False), 1),  # 100 against 100+
    (100, 130, TestRules(auto_100=False), 4), (99, 130, TestRules(), 4), (1, 190, TestRules(), 19),
    (1, 190, TestRules(tens_digits=True), 20),                               # 1 + 19 − 0
    (100, 105, TestRules(tens_digits=True, auto_100=False), 1),               # 1 + 10 − 10
])
def test_roll_successes_by_hand(face, target, rules, successes):
    assert roll_successes(face, target, rules) == successes


def test_a_face_outside_the_die_is_refused():
    with pytest.raises(ValueError, match="1..100"):
        roll_successes(0, 45)


@pytest.mark.parametrize("rules", ALL_RULES)
def test_success_counts_equal_counting_every_face(rules):
    for target in range(-25, 226, 3):
        counted = Counter(roll_successes(face, target, rules) for face in range(1, FACES + 1))
        assert dict(success_counts(target, rules)) == dict(counted), (target, rules)


@pytest.mark.parametrize("target", [-5, 0, 1, 9, 10, 45, 64, 99, 100, 101, 137, 220])
def test_success_counts_against_icepool(target):
    """P(at least k Successes) from icepool's d100 (default rulings): the face is at most
    target − 10(k − 1), never 100; 01 passes with 1 whatever the target."""
    counts = dict(success_counts(target))
    d100 = icepool.d100
    for k in range(1, 25):
        ours = Fraction(sum(c for s, c in counts.items() if s >= k), FACES)
        bound = min(target - 10 * (k - 1), 99)
        theirs = d100.probability("<=", bound) if bound >= 1 else Fraction(0)
        if k == 1 and bound < 1:
            theirs = d100.probability("==", 1)
        assert ours == theirs, (target, k)


def test_tens_digits_against_icepool_two_d10():
    """The DH2 reading with the d100 rolled as two d10 (tens die 0..9, units 0..9, 00 = 100):
    Successes = 1 + tens(target) − tens die, on a pass."""
    tens, units = icepool.d10 - 1, icepool.d10 - 1

    def successes(t: int, u: int, target: int) -> int:
        face = 10 * t + u or 100
        if face == 1:
            return max(1, 1 + target // 10)
        if face == 100 or face > target:
            return 0
        return 1 + target // 10 - t

    for target in (7, 45, 73, 99, 100, 150):
        die = icepool.map(lambda t, u: successes(t, u, target), tens, units)
        ours = {s: Fraction(c, FACES) for s, c in success_counts(target, TestRules(tens_digits=True))}
        theirs = {s: die.probability(s) for s in die.outcomes()}
        assert ours == theirs, target


def test_leftover_cost_by_hand():
    # 2 per hit, +1 per FULL −10 of extra penalty over the first attack's
    assert [leftover_cost(0, m) for m in (0, -5, -10, -19, -20, -60, 30)] == [2, 2, 3, 3, 4, 8, 2]
    assert leftover_cost(-20, -20) == 2 and leftover_cost(-20, -45) == 4 and leftover_cost(30, 0) == 5


# -- the rule on concrete rolls, by hand from the seed -------------------------------------------

def test_each_success_evades_one_hit_and_only_one_evasion_per_attack():
    sc = scenario(Attack(hits=3), agility=45, reactions=3)
    res = resolve(sc, [30, 1, 1])  # 30 against 45: 2 Successes
    assert res.faces == (30,) and res.successes == (2,)   # one roll only, Reactions left or not
    assert res.landed == 1 and res.state.reactions == 2
    assert [e[0] for e in res.events] == ["roll", "evade", "land"]


def test_a_failed_roll_lands_every_hit():
    res = resolve(scenario(Attack(hits=4), agility=45), [46])
    assert res.successes == (0,) and res.landed == 4 and res.state.all_passed is False


def test_too_few_faces_are_refused():
    with pytest.raises(MoreRollsNeeded):
        resolve(scenario(Attack(), Attack(), agility=45, reactions=2), [50])


def test_leftovers_pay_later_hits_then_a_second_roll_takes_the_rest():
    """Dodge 75; attack 1 (1 hit), attack 2 (1 hit, +0: 2 per hit), attack 3 (3 hits, −20: 4
    per hit); 2 Reactions. Roll 01 scores 1 + (75 − 1) // 10 = 8: 1 evades attack 1, 7 left;
    cheapest first: 2 pay attack 2's hit, 4 pay one hit of attack 3, 1 is left unspent. Attack
    2 needs no roll; attack 3 has 2 hits left and gets the second roll: 60 against 55 fails."""
    sc = scenario(Attack(hits=1), Attack(hits=1), Attack(hits=3, evasion_modifier=-20), agility=45,
                  dodge_advance=30, reactions=2)
    res = resolve(sc, [1, 60])
    assert res.successes == (8, 0)
    assert ("leftover", 0, 1, 1, 2) in res.events and ("leftover", 0, 2, 1, 4) in res.events
    assert ("unused", 0, 1) in res.events
    assert ("no_roll", 1, ("leftovers",)) in res.events
    assert res.landed == 2 and res.state.reactions == 0
    text = [str(step) for step in resolution_trace(sc, res)]
    assert any("rolled 01 against 75: 8 Successes" in t for t in text)
    assert any("1 hit of attack 3 evaded at 4 Successes per hit" in t for t in text)
    assert text[-1].startswith("Outcome: 3 evaded, 2 land")


def test_parry_leftovers_reach_only_what_a_parry_could():
    """A Parry's leftovers pay melee hits and shots fired in melee, never a plain shot."""
    sc = scenario(Attack(kind="melee", hits=1, evasion="parry"), Attack(kind="shooting", hits=1),
                  Attack(kind="shot_in_melee", hits=1), weapon_skill=60, reactions=1)
    res = resolve(sc, [1])  # 6 Successes: 1 for attack 1, 2 for attack 3, the shot is out of reach
    assert ("leftover", 0, 2, 1, 2) in res.events
    assert not any(e[0] == "leftover" and e[2] == 1 for e in res.events)
    assert res.landed == 1


def test_dodge_leftovers_never_reach_an_attack_covering_the_whole_base():
    sc = scenario(Attack(hits=1), Attack(hits=1, covers_whole_base=True, leap="out_of_reach"), agility=60,
                  reactions=1)
    res = resolve(sc, [1])
    assert not any(e[0] == "leftover" for e in res.events)
    assert res.landed == 1  # no Reaction left for the Leap


def test_stray_shots_from_dodges_leftovers_and_leaps_but_not_parries_or_cover():
    dodge = scenario(Attack(hits=2), Attack(hits=2, next_target=True), agility=65, reactions=1)
    res = resolve(dodge, [1])  # 7 Successes: 2 on attack 1, 5 left pay 2 hits of attack 2
    assert res.state.stray == 2 and ("stray", 1, 2) in res.events
    parry = scenario(Attack(kind="shot_in_melee", hits=2, evasion="parry", next_target=True), weapon_skill=60)
    assert resolve(parry, [1]).state.stray == 0  # a parried shot goes into the surroundings
    out = scenario(Attack(hits=3, leap="out_of_reach", next_target=True), agility=45)
    assert resolve(out, [40]).state.stray == 3
    cover = scenario(Attack(hits=3, leap="cover", next_target=True), agility=45)
    assert resolve(cover, [40]).state.stray == 0 and resolve(cover, [40]).state.in_cover == 3


def test_a_leap_out_of_melee_is_a_disengage_unless_the_free_attackers_evade_too():
    base = dict(agility=45, engaged_in_melee=True, reactions=2, unspent_ap=1)
    sc = scenario(Attack(kind="shot_in_melee", hits=1, leap="cover"), Attack(hits=1, leap="out_of_reach"), **base)
    res = resolve(sc, [10, 10])
    assert [e for e in res.events if e[0] == "disengage"] == [("disengage", 0, True)]  # only the first Leap
    assert res.state.disengage and not res.state.engaged
    sc = scenario(Attack(kind="shot_in_melee", hits=1, leap="cover", free_attackers_evade=True), **base)
    assert not resolve(sc, [10]).state.disengage
    assert not resolve(scenario(Attack(hits=1, leap="cover"), agility=45), [10]).state.disengage


# -- exact analysis = every face of every roll ---------------------------------------------------

BRUTE_FORCE_CASES = {
    "one burst": scenario(Attack(hits=3), agility=45),
    "two attacks, leftovers, second roll": scenario(Attack(hits=3), Attack(hits=3, evasion_modifier=-20),
                                                    agility=45, dodge_advance=20, reactions=2),
    "three attacks, in order, stray": scenario(Attack(hits=1), Attack(hits=2, evasion_modifier=-20, next_target=True),
                                               Attack(hits=2), agility=55, dodge_advance=30, reactions=2,
                                               rulings={"spending": "in_order"}),
    "mixed parry and dodge": scenario(Attack(kind="melee", hits=2, evasion="parry"),
                                      Attack(kind="shot_in_melee", hits=2, evasion="parry", evasion_modifier=-10),
                                      Attack(kind="shooting", hits=2), weapon_skill=50, parry_advance=10,
                                      agility=30, reactions=2, sizes_larger=1),
    "leaps with a small budget": scenario(Attack(hits=2, covers_whole_base=True, leap="out_of_reach", leap_distance=2),
                                          Attack(hits=3, leap="cover", leap_distance=2, next_target=True),
                                          Attack(hits=2, covers_whole_base=True, leap="cover", leap_distance=1),
                                          agility=50, spd=3, reactions=2, engaged_in_melee=True,
                                          rulings={"leap_policy": "when_short"}),
    "extreme targets, DH2 tens": scenario(Attack(hits=2, evasion_modifier=30), Attack(hits=4, evasion_modifier=-60),
                                          agility=100, dodge_advance=30, dodge_modifier=60, reactions=2,
                                          rulings={"successes": "tens_digits", "roll_100": "as_rolled"}),
    "hopeless target, 01 as rolled": scenario(Attack(hits=2, evasion_modifier=-60), Attack(hits=1), agility=5,
                                              reactions=2, rulings={"roll_01": "as_rolled"}),
    "bench shape": scenario(*(Attack(hits=5, evasion_modifier=m) for m in (0, -10, -20, -30)), agility=45,
                            dodge_advance=20, reactions=2),
}


@pytest.mark.parametrize("name", list(BRUTE_FORCE_CASES))
def test_analysis_equals_every_face_of_every_roll(name):
    assert_matches_brute_force(BRUTE_FORCE_CASES[name])


@pytest.mark.slow
def test_analysis_equals_every_face_with_three_rolls():
    """Three rolls made: a million face sequences."""
    sc = scenario(Attack(hits=2), Attack(hits=2, evasion_modifier=-10), Attack(hits=1, next_target=True),
                  agility=45, dodge_advance=10, reactions=3)
    assert_matches_brute_force(sc)


def test_single_attack_headline_against_icepool():
    """One attack of h hits, one roll: no hit lands iff the roll scores at least h Successes,
    i.e. the face is at most target − 10(h − 1) and not 100 (01 passes with 1)."""
    for target in (12, 45, 64, 88):
        for hits in (1, 2, 3, 5):
            r = evaluate(scenario(Attack(hits=hits), agility=target))
            bound = min(target - 10 * (hits - 1), 99)
            assert r.headline["p_no_hit"] == (icepool.d100.probability("<=", bound) if bound >= 1 else
                                              (Fraction(1, 100) if hits == 1 else 0))
            assert r.headline["p_dodge_succeeds"] == icepool.d100.probability("<=", min(target, 99))


# -- presets: exact fractions worked by hand --------------------------------------------------------

def test_preset_burst_3_vs_dodge_45():
    r = evaluate(find_preset("d100-homebrew/burst-3-vs-dodge-45").scenario)
    # Target 45: faces 36–45 score 1 Success, 26–35 2, 16–25 3, 06–15 4, 01–05 5; 46–100 fail.
    # Pass: 45/100. No hit needs 3+ Successes: faces 01–25, 25/100.
    # Hits landing: 1 on 10 faces, 2 on 10 faces, 3 on 55: (10 + 20 + 165)/100 = 195/100.
    # Successes: (10·1 + 10·2 + 10·3 + 10·4 + 5·5)/100 = 125/100.
    assert r.headline["p_dodge_succeeds"] == Fraction(9, 20)
    assert r.headline["p_no_hit"] == Fraction(1, 4)
    assert r.headline["expected_hits"] == Fraction(39, 20)
    assert r.headline["expected_successes"] == Fraction(5, 4)
    assert r.outcome_rows() == [("3 evaded, 0 land", Fraction(1, 4)), ("2 evaded, 1 lands", Fraction(1, 10)),
                                ("1 evaded, 2 land", Fraction(1, 10)), ("0 evaded, 3 land", Fraction(11, 20))]


def test_preset_two_attacks_leftovers():
    r = evaluate(find_preset("d100-homebrew/two-attacks-leftovers").scenario)
    # Roll 1 at 65: fail 66–100 (35), 1 Success ×10 (56–65), 2 ×10, 3 ×10, 4 ×10, 5 ×10, 6 ×10
    # (06–15), 7 ×5 (01–05). Leftovers pay 2 + 20/10 = 4 per hit of attack 2: only 7 Successes
    # (4 left after 3 hits) pay one. Roll 2 at 45 (the preset above) against 3 hits, or 2 after 01–05.
    # No hit: roll 1 scores 3–6 (40/100) and roll 2 scores 3+ (25/100), or roll 1 scores 7
    # (5/100) and roll 2 scores 2+ (35/100): (40·25 + 5·35)/10000 = 1175/10000 = 47/400.
    # Hits: attack 1 (35·3 + 10·2 + 10·1)/100 = 135/100; attack 2 95/100 · 195/100 +
    # 5/100 · (10·1 + 55·2)/100 = 19125/10000; total 32625/10000 = 261/80.
    # Both rolls are always made and both pass: 65/100 · 45/100 = 117/400.
    # Successes: 245/100 + 125/100 = 37/10.
    assert r.headline["p_no_hit"] == Fraction(47, 400)
    assert r.headline["expected_hits"] == Fraction(261, 80)
    assert r.headline["p_dodge_succeeds"] == Fraction(117, 400)
    assert r.headline["expected_successes"] == Fraction(37, 10)
    tally = analyse(r.scenario).tallies[1]
    assert tally.evaded_by_leftovers == Fraction(5, 100)  # one hit on faces 01–05


def test_preset_parry_two_sizes_larger_blocked_and_allowed():
    blocked = evaluate(find_preset("d100-homebrew/parry-2-sizes-larger-blocked").scenario)
    # Parry +10 against 2 Sizes larger needs +20: no roll, the one hit lands.
    assert blocked.headline["p_dodge_succeeds"] is None
    assert "+20" in blocked.notes["p_dodge_succeeds"] and "+10" in blocked.notes["p_dodge_succeeds"]
    assert blocked.headline["p_no_hit"] == 0 and blocked.headline["expected_hits"] == 1
    assert blocked.headline["expected_successes"] == 0
    allowed = evaluate(find_preset("d100-homebrew/parry-2-sizes-larger-allowed").scenario)
    # Target WS 40 + 20 = 60: the one hit is parried on 01–60.
    # Successes: 51–60 1, 41–50 2, ..., 01–10 6: (10+20+30+40+50+60)/100 = 21/10.
    assert allowed.headline["p_dodge_succeeds"] == Fraction(3, 5)
    assert allowed.headline["p_no_hit"] == Fraction(3, 5) and allowed.headline["expected_hits"] == Fraction(2, 5)
    assert allowed.headline["expected_successes"] == Fraction(21, 10)


def test_preset_leap_out_of_blast():
    r = evaluate(find_preset("d100-homebrew/leap-out-of-blast").scenario)
    # Only a Leap dodges it: any pass at 45 (45/100) Leaps 2 m (<= SPD 3) out of the template.
    assert r.headline["p_no_hit"] == Fraction(9, 20) and r.headline["expected_hits"] == Fraction(11, 20)
    assert r.headline["p_dodge_succeeds"] == Fraction(9, 20)
    assert analyse(r.scenario).tallies[0].negated_by_leap == Fraction(9, 20)


def test_preset_stray_shot_and_leap_into_cover():
    stray = evaluate(find_preset("d100-homebrew/stray-shot-past-the-dodger").scenario)
    # Every dodged hit flies on: 3 on 01–25, 2 on 26–35, 1 on 36–45, none on a failure.
    assert stray.distributions["stray_shots"] == stray.hits.map(lambda landed: 3 - landed)
    assert stray.headline["p_stray_shot"] == Fraction(9, 20)
    assert stray.outcomes["3 evaded, 0 land; 3 stray shots"] == Fraction(1, 4)
    cover = evaluate(find_preset("d100-homebrew/leap-out-of-melee-into-cover").scenario)
    # Any pass (45/100) Leaps into Cover: both hits land against its AP; the Leap is a Disengage.
    assert cover.headline["p_no_hit"] == 0 and cover.headline["expected_hits"] == 2
    assert cover.headline["expected_hits_in_cover"] == Fraction(9, 10)
    assert cover.headline["p_disengage"] == Fraction(9, 20)


# -- each ruling both ways ------------------------------------------------------------------------

def test_ruling_successes_margin_or_tens_digits():
    sc = find_preset("d100-homebrew/burst-3-vs-dodge-45").scenario
    # DH2: 3+ Successes when the tens digit is at most 4 − 2 = 2: faces 01–29, 29/100.
    # Hits: 1 on 30–39 (10), 2 on 40–45 (6), 3 on 46–100 (55): (10 + 12 + 165)/100.
    dh2 = evaluate(sc.replace(successes="tens_digits"))
    assert dh2.headline["p_no_hit"] == Fraction(29, 100)
    assert dh2.headline["expected_hits"] == Fraction(187, 100)
    assert evaluate(sc).headline["p_no_hit"] == Fraction(25, 100)


def test_ruling_roll_01():
    sc = scenario(Attack(hits=1), agility=10, dodge_modifier=-20)  # target −10
    assert evaluate(sc).headline["p_dodge_succeeds"] == Fraction(1, 100)  # only 01
    assert evaluate(sc.replace(roll_01="as_rolled")).headline["p_dodge_succeeds"] == 0
    assert any("only 01 passes" in step.detail for step in evaluate(sc).trace)


def test_ruling_roll_100():
    sc = scenario(Attack(hits=1), agility=100)  # target 100
    assert evaluate(sc).headline["p_dodge_succeeds"] == Fraction(99, 100)
    assert evaluate(sc.replace(roll_100="as_rolled")).headline["p_dodge_succeeds"] == 1
    assert any("every roll but 100 passes" in step.detail for step in evaluate(sc).trace)


def test_ruling_spending_cheapest_first_or_in_order():
    """Dodge 65, one Reaction: attack 1 (3 hits), attack 2 (2 hits at −20: 4 per hit), attack 3
    (2 hits at +0: 2 per hit). Only 7 Successes (01–05) leave 4: cheapest first they evade both
    hits of attack 3, in order one hit of attack 2. 5 or 6 Successes evade one hit of attack 3
    either way. Attack 1 lands (35·3 + 10·2 + 10·1)/100 = 135/100.
    Cheapest first: 135/100 + 2 + (2 − 30/100) = 101/20.
    In order: 135/100 + (2 − 5/100) + (2 − 20/100) = 51/10."""
    sc = scenario(Attack(hits=3), Attack(hits=2, evasion_modifier=-20), Attack(hits=2), agility=45,
                  dodge_advance=20)
    assert evaluate(sc).headline["expected_hits"] == Fraction(101, 20)
    assert evaluate(sc.replace(spending="in_order")).headline["expected_hits"] == Fraction(51, 10)
    assert ("leftover", 0, 2, 2, 2) in resolve(sc, [3]).events
    assert ("leftover", 0, 1, 1, 4) in resolve(sc.replace(spending="in_order"), [3]).events


def test_ruling_leap_as_planned_or_when_short():
    """Dodge 45 against 2 hits with a Leap into Cover planned. As planned: every pass Leaps, both
    hits land against Cover. When short: only a single Success (36–45) Leaps; 2+ evade both."""
    sc = scenario(Attack(hits=2, leap="cover"), agility=45)
    planned = evaluate(sc)
    assert planned.headline["p_no_hit"] == 0 and planned.headline["expected_hits_in_cover"] == Fraction(9, 10)
    short = evaluate(sc.replace(leap_policy="when_short"))
    assert short.headline["p_no_hit"] == Fraction(7, 20)
    assert short.headline["expected_hits"] == Fraction(13, 10)
    assert short.headline["expected_hits_in_cover"] == Fraction(1, 5)


# -- gates ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("sizes, advance, allowed", [
    (0, 0, True), (1, 0, False), (1, 10, True), (2, 10, False), (2, 20, True), (3, 20, False),
    (3, 30, True), (4, 30, False), (6, 30, False)])
def test_parry_size_gate(sizes, advance, allowed):
    r = evaluate(scenario(Attack(kind="melee", hits=1, evasion="parry"), weapon_skill=40, parry_advance=advance,
                          sizes_larger=sizes))
    assert (r.headline["p_dodge_succeeds"] is not None) == allowed
    if not allowed:
        note = r.notes["p_dodge_succeeds"]
        assert ("impossible" in note) if sizes >= 4 else (f"+{10 * sizes}" in note)


def test_size_does_not_gate_a_dodge():
    r = evaluate(scenario(Attack(kind="melee", hits=1), agility=40, sizes_larger=5))
    assert r.headline["p_dodge_succeeds"] == Fraction(2, 5)


def test_parry_only_against_melee_and_shots_in_melee():
    shot = evaluate(scenario(Attack(kind="shooting", hits=1, evasion="parry"), weapon_skill=50))
    assert shot.headline["p_dodge_succeeds"] is None and "only against melee" in shot.notes["p_dodge_succeeds"]
    in_melee = evaluate(scenario(Attack(kind="shot_in_melee", hits=1, evasion="parry"), weapon_skill=50))
    assert in_melee.headline["p_dodge_succeeds"] == Fraction(1, 2)


def test_whole_base_attacks_need_a_leap_that_fits():
    no_plan = evaluate(scenario(Attack(hits=1, covers_whole_base=True), agility=60))
    assert no_plan.headline["p_dodge_succeeds"] is None and no_plan.headline["expected_hits"] == 1
    too_far = evaluate(scenario(Attack(hits=1, covers_whole_base=True, leap="out_of_reach", leap_distance=4),
                                agility=60, spd=3, unspent_ap=2))  # never more than SPD against one attack
    assert too_far.headline["p_dodge_succeeds"] is None
    parried = evaluate(scenario(Attack(kind="shot_in_melee", hits=1, covers_whole_base=True, evasion="parry",
                                       leap="out_of_reach"), weapon_skill=60))
    assert parried.headline["p_dodge_succeeds"] is None


def test_a_leap_too_far_falls_back_to_negating_hits():
    r = evaluate(scenario(Attack(hits=3, leap="out_of_reach", leap_distance=5), agility=45, spd=3))
    assert r.headline["p_no_hit"] == Fraction(1, 4)  # as the plain burst: Successes negate hits
    assert any("5 m needed, more than SPD 3 m" in step.detail for step in r.trace)


@pytest.mark.parametrize("unspent_ap, delayed, p_no_hit, expected_hits", [
    # Two Blasts of 1 hit, each needing a 3 m Leap, SPD 3, Dodge 45, 2 Reactions.
    # Budget 3 m: after a Leap from the first, the second cannot be dodged (no roll, no
    # Reaction spent); it can only when the first roll failed: P(no hit) = 0;
    # hits 55/100 + (1 − 55/100 · 45/100) = 55/100 + 7525/10000 = 13025/10000.
    (0, False, Fraction(0), Fraction(521, 400)),
    # Budget 6 m (an unspent AP, or a Delayed half-action): two independent Leaps.
    (1, False, Fraction(81, 400), Fraction(11, 10)),
    (0, True, Fraction(81, 400), Fraction(11, 10)),
])
def test_the_rounds_leap_budget(unspent_ap, delayed, p_no_hit, expected_hits):
    blast = Attack(hits=1, covers_whole_base=True, leap="out_of_reach", leap_distance=3)
    r = evaluate(scenario(blast, blast, agility=45, spd=3, reactions=2, unspent_ap=unspent_ap,
                          delayed_half_action=delayed))
    assert r.headline["p_no_hit"] == p_no_hit and r.headline["expected_hits"] == expected_hits


def test_no_reaction_means_no_roll():
    r = evaluate(scenario(Attack(hits=2), agility=45, reactions=0))
    assert r.headline["p_dodge_succeeds"] is None and "no Reaction" in r.notes["p_dodge_succeeds"]
    assert r.headline["expected_hits"] == 2


def test_optional_headlines_are_null_with_reasons_when_they_cannot_apply():
    r = evaluate(scenario(Attack(hits=2), agility=45))
    assert r.headline["p_stray_shot"] is None and r.notes["p_stray_shot"]
    assert r.headline["p_disengage"] is None and r.notes["p_disengage"]


def test_bad_input_names_the_field():
    with pytest.raises(ScenarioError, match=r"attacks\.0\.covers_whole_base"):
        load_scenario({"system": "d100-homebrew", "attacks": [{"kind": "melee", "covers_whole_base": True}]})
    with pytest.raises(ScenarioError, match=r"attacks\.0\.leap_distance': got 0"):
        load_scenario({"system": "d100-homebrew", "attacks": [{"leap_distance": 0}]})
    with pytest.raises(ScenarioError, match=r"field 'attacks': got \[.*\]; allowed: a list of 1 to 6"):
        load_scenario({"system": "d100-homebrew", "attacks": [{}] * 7})
    with pytest.raises(ScenarioError, match=r"defender\.reactions': got 7"):
        load_scenario({"system": "d100-homebrew", "defender": {"reactions": 7}})
