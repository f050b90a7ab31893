"""d100 homebrew, the exact result (:func:`rules_core.systems.d100_homebrew.exact.evaluate`): the
presets' exact fractions worked by hand, every ruling both ways, the gates and the Leap budget,
single rolls against icepool, the per-attack tallies and three rolls against enumerating the
rule, and invariants on scenarios over the whole declared ranges."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rules_core import Dist, ScenarioError, enumerate_play, evaluate, find_preset, load_scenario, play_once
from rules_core.play import headlines_of
from rules_core.systems.d100_homebrew import SYSTEM, Attack, D100Scenario, Defender
from rules_core.systems.d100_homebrew.exact import analyse

from .small import scenarios


def scenario(*attacks: Attack, rulings: dict | None = None, sizes_larger: int = 0, **defender) -> D100Scenario:
    return D100Scenario(defender=Defender(**defender), attacks=attacks or (Attack(),), sizes_larger=sizes_larger,
                        **(rulings or {}))


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


# -- modifiers in steps of 5 (the rulings document's −25 and −5 examples) -------------------------

def two_attacks(second_modifier: int, dodge_modifier: int = -5) -> D100Scenario:
    """A at 70 with a Dodge modifier of ``dodge_modifier``, one Reaction: one hit of a +0 shot
    (the roll is made against it), then one hit of a shot at ``second_modifier`` that only
    leftover Successes can evade."""
    return scenario(Attack(hits=1), Attack(hits=1, evasion_modifier=second_modifier, evasion="none"),
                    agility=70, dodge_modifier=dodge_modifier, reactions=1)


def test_a_minus_5_dodge_modifier_and_a_minus_25_attack():
    """Worked from the rule: target 70 − 5 = 65, so faces 01–65 pass (13/20) with
    1 + ⌊(65 − face)/10⌋ Successes. One evades attack 1's hit; the rest pay for attack 2's hit at
    2 + ⌊25/10⌋ = 4 (a −25 attack after a +0 one: "+1 per full −10", so 4, not 5): 5 Successes
    in all, 65 − face ≥ 40, faces 01–25: P(no hit) = 25/100. Hits: attack 1 lands on 66–100
    (35), attack 2 on 26–100 (75): 110/100. Successes: 10·(1+…+6) + 5·7 = 245 over 100."""
    r = evaluate(two_attacks(-25))
    assert r.headline["p_dodge_succeeds"] == Fraction(13, 20)
    assert r.headline["p_no_hit"] == Fraction(1, 4)
    assert r.headline["expected_hits"] == Fraction(11, 10)
    assert r.headline["expected_successes"] == Fraction(49, 20)
    # the full −10s only: −25 costs what −20 does, −30 one more (6 Successes: faces 01–15)
    assert evaluate(two_attacks(-20)).headline["p_no_hit"] == Fraction(1, 4)
    assert evaluate(two_attacks(-30)).headline["p_no_hit"] == Fraction(3, 20)
    text = [str(step) for step in r.trace]
    assert any("target 65 (A 70, advance +0, modifier −5, attack +0)" in t for t in text)
    assert any("from the roll against attack 1 to a hit of attack 2: 4 [" in t for t in text)


def test_a_minus_5_attack_costs_no_more_than_the_first():
    """A −5 attack after a +0 one: no full −10 more, 2 Successes per hit. 3 Successes in all
    (65 − face ≥ 20): faces 01–45, P(no hit) = 45/100; attack 2 lands on 46–100: hits 90/100.
    Without the −5 Dodge modifier the target is 70: faces 01–50, 1/2."""
    r = evaluate(two_attacks(-5))
    assert r.headline["p_no_hit"] == Fraction(9, 20) and r.headline["expected_hits"] == Fraction(9, 10)
    assert evaluate(two_attacks(-5, dodge_modifier=0)).headline["p_no_hit"] == Fraction(1, 2)
    assert evaluate(two_attacks(-5, dodge_modifier=0)).headline["p_dodge_succeeds"] == Fraction(7, 10)


def test_modifiers_move_in_fives_in_json_and_are_refused_between():
    data = {"system": "d100-homebrew", "defender": {"dodge_modifier": -5, "parry_modifier": -25},
            "attacks": [{"evasion_modifier": -25}]}
    sc = load_scenario(data)
    assert (sc.defender.dodge_modifier, sc.defender.parry_modifier, sc.attacks[0].evasion_modifier) == (-5, -25, -25)
    for field, value in (("dodge_modifier", -7), ("parry_modifier", 13), ("dodge_advance", 5)):
        with pytest.raises(ScenarioError, match=rf"field 'defender\.{field}': got {value}; allowed: a whole "
                                                rf"number from -?\d+ to \d+ in steps of {10 if 'advance' in field else 5}$"):
            load_scenario({"system": "d100-homebrew", "defender": {field: value}})
    with pytest.raises(ScenarioError, match=r"field 'attacks\.0\.evasion_modifier': got -23;"):
        load_scenario({"system": "d100-homebrew", "attacks": [{"evasion_modifier": -23}]})


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
    cheapest = play_once(SYSTEM, sc, faces=[3])["attacks"]   # 7 Successes: 3 on attack 1, 4 left
    assert (cheapest[1].evaded_by_leftovers, cheapest[2].evaded_by_leftovers) == (0, 2)
    in_order = play_once(SYSTEM, sc.replace(spending="in_order"), faces=[3])["attacks"]
    assert (in_order[1].evaded_by_leftovers, in_order[2].evaded_by_leftovers) == (1, 0)


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


# -- against enumerating the rule: what the generic test does not reach ------------------------------

def assert_tallies_equal_enumeration(sc: D100Scenario) -> None:
    """Each attack's expected hits by fate (the dashboard's chart) equal the mean of the play's
    per-attack fates over every roll."""
    plays = enumerate_play(SYSTEM, sc)
    for i, tally in enumerate(analyse(sc).tallies):
        fate = [plays.mean(lambda p, k=k: p["attacks"][i][k]) for k in range(6)]
        assert (tally.p_roll, tally.evaded_by_roll, tally.evaded_by_leftovers, tally.negated_by_leap,
                tally.landed_open, tally.landed_in_cover) == tuple(fate), f"attack {i + 1}"


@pytest.mark.parametrize("name", [p.name for p in SYSTEM.presets])
def test_preset_tallies_equal_enumeration(name):
    assert_tallies_equal_enumeration(SYSTEM.preset(name).scenario)


def test_three_rolls_equal_enumeration():
    """Three rolls, made with probability 51/80 (the generic test draws at most two)."""
    sc = scenario(Attack(hits=2), Attack(hits=2, evasion_modifier=-10), Attack(hits=1, next_target=True),
                  agility=45, dodge_advance=10, reactions=3)
    plays = enumerate_play(SYSTEM, sc)
    assert plays.map(lambda p: len(p.evasions)) == Dist({2: 29, 3: 51})
    result = evaluate(sc)
    assert result.outcomes == plays.map(lambda p: p.outcome) and result.hits == plays.map(lambda p: p.hits)
    assert dict(result.headline) == headlines_of(SYSTEM, sc, plays)
    assert result.distributions["stray_shots"] == plays.map(lambda p: p["stray_shots"])
    assert_tallies_equal_enumeration(sc)


# -- over the whole declared ranges ---------------------------------------------------------------------

@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sc=scenarios(), seed=st.integers(0, 2 ** 32 - 1))
def test_every_hit_is_accounted_for_once_and_a_roll_ends_in_a_listed_outcome(sc, seed):
    result = evaluate(sc)
    tallies = analyse(sc).tallies
    for attack, t in zip(sc.attacks, tallies):
        assert (t.evaded_by_roll + t.evaded_by_leftovers + t.negated_by_leap + t.landed_open
                + t.landed_in_cover) == attack.hits
    assert sum(t.landed_open + t.landed_in_cover for t in tallies) == result.headline["expected_hits"]
    assert sum(t.landed_in_cover for t in tallies) == result.headline["expected_hits_in_cover"]
    # one random roll, played by the rule, ends in an outcome the result lists as possible
    played = play_once(SYSTEM, sc, seed=seed)
    assert result.outcomes[played.outcome] > 0 and result.hits[played.hits] > 0
    assert int(played.outcome.split(" evaded")[0]) == sum(a.hits for a in sc.attacks) - played.hits


@settings(max_examples=30, deadline=None)
@given(hits=st.integers(1, 10), a=st.integers(0, 99), mod=st.integers(-12, 12).map(lambda k: 5 * k))
def test_a_higher_target_never_lands_more_hits_of_one_attack(hits, a, mod):
    lower = evaluate(D100Scenario(defender=Defender(agility=a, dodge_modifier=mod), attacks=(Attack(hits=hits),)))
    higher = evaluate(D100Scenario(defender=Defender(agility=a + 1, dodge_modifier=mod), attacks=(Attack(hits=hits),)))
    assert higher.headline["expected_hits"] <= lower.headline["expected_hits"]
    assert higher.headline["p_no_hit"] >= lower.headline["p_no_hit"]
    assert higher.headline["expected_successes"] >= lower.headline["expected_successes"]


def test_expected_successes_come_only_from_the_rolls_made():
    """Two attacks, one Reaction: only the first attack gets a roll, 125/100 Successes on
    average at 45 (10·1 + 10·2 + 10·3 + 10·4 + 5·5 over 100 faces)."""
    sc = D100Scenario(defender=Defender(agility=45, reactions=1), attacks=(Attack(hits=1), Attack(hits=1)))
    assert evaluate(sc).headline["expected_successes"] == Fraction(5, 4)


def test_the_trace_shows_the_rules_applied():
    r = evaluate(find_preset("d100-homebrew/two-attacks-leftovers").scenario)
    text = [str(step) for step in r.trace]
    assert any("Dodge(A) test: target 65 (A 45, advance +20, modifier +0, attack +0)" in t for t in text)
    assert any("Dodge(A) test: target 45 (A 45, advance +20, modifier +0, attack −20)" in t for t in text)
    assert any("from the roll against attack 1 to a hit of attack 2: 4" in t for t in text)
    assert any(t.startswith("Successes against target 65: 01–05: 7 Successes; 06–15: 6 Successes") for t in text)
    assert any(t.startswith("First roll (attack 1), 7 Successes: 01–05, 5 in 100: 3 hits of attack 1 evaded; "
                            "1 hit of attack 2 evaded at 4 Successes per hit") for t in text)
    assert any(t.startswith("Attack 2: what became of its 3 hits (expected): roll made: 1; "
                            "evaded by its own roll: ") for t in text)


def test_after_the_last_attack_no_hit_is_left_to_resolve():
    """Every hit of every attack is resolved by the end — evaded, landed, or landed for want of a
    roll (no Reaction left, a Parry against a shot, leftovers that took them all) — so every final
    state of the exact walk has no hit remaining."""
    sc = scenario(Attack(hits=2), Attack(kind="shooting", hits=1, evasion="parry"), Attack(hits=2),
                  agility=45, weapon_skill=50, reactions=1)
    final = analyse(sc).final
    assert final and all(state.remaining == (0, 0, 0) for state in final)
