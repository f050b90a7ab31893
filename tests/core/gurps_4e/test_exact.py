"""The fast exact path by hand: rapid fire, criticals, the seed's injury distribution, fatigue,
each situation's numbers worked out on paper, the rulings, the trace, and what the presets give.
(That it equals enumerating the rule on every roll is the generic test's job,
tests/core/test_every_system.py; that its planning follows the rules text is test_reference.py's.)"""

from __future__ import annotations

from fractions import Fraction

from rules_core import evaluate, find_preset
from rules_core.systems.gurps_4e import SYSTEM, Attack, Blast, Dodger, Friend, GurpsScenario, Target
from rules_core.systems.gurps_4e.exact import attack_outcomes
from rules_core.systems.gurps_4e.play import AttackHits, attack_context


def at_most(total: int) -> int:
    """Ways (of 216) 3d6 rolls total or less, from the standard table."""
    return {3: 1, 4: 4, 5: 10, 6: 20, 7: 35, 8: 56, 9: 81, 10: 108, 11: 135, 12: 160, 13: 181,
            14: 196, 15: 206, 16: 212, 17: 215, 18: 216}[total]


# -- rapid fire and criticals (B373-375, B381) ---------------------------------------------------------

def test_rapid_fire_hits_by_hand():
    # Skill 12 + 2 for RoF 10 = 14. Hits = 1 + margin // 2: 5 or more needs margin 8 (roll ≤ 6).
    s = find_preset("gurps-4e/rapid-fire-dodge-and-drop").scenario
    outcomes = attack_outcomes(attack_context(s, 0, False), s)
    assert sum(outcomes.values()) == 216
    at_least_5 = sum(w for (hits, _), w in outcomes.items() if hits >= 5)
    assert at_least_5 == at_most(6) == 20
    assert outcomes[AttackHits(0, False)] == 216 - at_most(14)               # misses: 15-18 → 20 ways
    assert outcomes[AttackHits(6, True)] == 1 + 3          # 3 and 4: margins 11 and 10 → 6 hits, critical
    assert outcomes[AttackHits(5, False)] == 6 + 10         # 5 and 6: margins 9 and 8 → 5 hits (critical only at 15+)


def test_dodging_rapid_fire_by_hand():
    # Three fixed hits, Dodge 10: a roll r ≤ 10 avoids 1 + (10 - r). All three avoided at r ≤ 8.
    s = GurpsScenario(dodger=Dodger(basic_speed=7.0), attacks=(Attack(hits_by="fixed", hits=3, damage="1d"),))
    hits = evaluate(s).hits
    assert hits[0] == Fraction(at_most(8), 216)
    assert hits[1] == Fraction(25, 216) and hits[2] == Fraction(27, 216)  # r = 9, r = 10
    assert hits[3] == Fraction(216 - at_most(10), 216)
    assert hits.mean() == Fraction(25 + 2 * 27 + 3 * 108, 216)


def test_critical_hits_allow_no_defense():
    # Skill 16: 3-6 are critical hits (20 ways). With defense the Dodge is rolled only otherwise.
    s = GurpsScenario(dodger=Dodger(basic_speed=20.0), attacks=(Attack(skill=16, damage="1d"),))
    r = evaluate(s)
    # Dodge 23 fails only on 17-18 (4 ways); the attack hits on 3-16 (212 ways), 20 of them critical.
    assert r.hits[1] == Fraction(20 * 216 + (212 - 20) * 4, 216 * 216)
    assert r.headline["p_dodge_succeeds"] == Fraction(212, 216)


def test_seed_example_injury_distribution():
    # 2d totals 2..12 with ways 1,2,3,4,5,6,5,4,3,2,1; basic = total + 1; penetrating = total − 2;
    # injury = ⌊1.5 × penetrating⌋ (at least 1): 0,1,3,4,6,7,9,10,12,13,15.
    r = evaluate(find_preset("gurps-4e/sword-2d1-cut-vs-dr3").scenario)
    by_hand = {0: 1, 1: 2, 3: 3, 4: 4, 6: 5, 7: 6, 9: 5, 10: 4, 12: 3, 13: 2, 15: 1}
    assert dict(r.distributions["injury"].items()) == {v: Fraction(w, 36) for v, w in by_hand.items()}
    assert r.headline["expected_injury"] == Fraction(261, 36)          # 7.25
    assert r.headline["p_down"] == Fraction(4 + 3 + 2 + 1, 36)         # 10 HP: injury ≥ 10
    assert r.headline["p_major_wound"] == Fraction(26, 36)             # injury > 5
    assert r.headline["p_dodge_succeeds"] is None and "no active defense" in r.notes["p_dodge_succeeds"]
    assert r.headline["p_no_hit"] == 0 and r.headline["expected_hits"] == 1


def test_a_friend_is_in_danger_only_when_the_dodger_puts_him_there():
    r = evaluate(SYSTEM.default_scenario())
    assert r.headline["p_friend_hit"] is None
    assert r.notes["p_friend_hit"] == ("Only a sacrificial dodge for a friend or throwing yourself on an "
                                       "explosive puts a friend in danger.")


def test_fatigue_damage_is_fp_and_no_wound():
    s = GurpsScenario(dodger=Dodger(defense="none"), target=Target(fp=10, fp_left=3),
                      attacks=(Attack(hits_by="fixed", hits=1, damage="1d", damage_type="fat"),))
    r = evaluate(s)
    assert r.headline["p_down"] == Fraction(4, 6)  # 3, 4, 5 or 6 FP lost
    assert r.headline["p_major_wound"] is None
    assert r.notes["p_major_wound"] == "Fatigue damage comes off FP and causes no wounds."  # B426
    assert "Down (FP ≤ 0)" in r.outcome_order


# -- the other situations by hand -----------------------------------------------------------------

def test_sacrificial_dodge_and_drop_by_hand():
    # One fixed hit at the friend; Dodge 9 + 3 = 12. Margin 3+ (roll ≤ 9): neither hit; rolls
    # 10-12: the dodger takes it; 13+: the friend is hit (no defense of his own).
    s = GurpsScenario(situation="sacrificial", dodger=Dodger(defense="dodge_and_drop"),
                      attacks=(Attack(hits_by="fixed", hits=1, damage="1d"),), friend=Friend(defends=False))
    r = evaluate(s)
    assert r.outcomes["Neither is hit (success by 3+)"] == Fraction(at_most(9), 216)
    assert r.outcomes["Dodger takes the hit"] == Fraction(at_most(12) - at_most(9), 216)
    assert r.headline["p_friend_hit"] == r.outcomes["Friend is hit"] == Fraction(216 - at_most(12), 216)
    assert r.headline["p_dodge_succeeds"] == Fraction(at_most(12), 216)
    assert r.distributions["ends_prone"][True] == 1  # dropped either way
    plain = evaluate(s.replace(dodger=Dodger(defense="plain")))
    assert plain.outcomes["Dodger takes the hit"] == Fraction(at_most(9), 216)  # no +3, no spoiling


def test_throwing_oneself_on_a_grenade_by_hand():
    preset = find_preset("gurps-4e/throw-yourself-on-a-grenade").scenario
    r = evaluate(preset)
    success = Fraction(at_most(12), 216)  # Dodge 9 + 3
    assert r.outcomes["Smothered: the dodger takes the blast in contact"] == success
    assert r.headline["p_friend_hit"] == 1 - success                      # the friend is 2 yards off
    maximum = evaluate(preset.replace(smother_damage="maximum"))
    assert maximum.distributions["injury"][20] == success                # 24 − DR 4
    # The friend, unprotected, takes ⌊4d ÷ 6⌋: 4..24 → 0..4; what he is spared on a success.
    spared = maximum.distributions["friend_injury_unprotected"]
    assert max(spared.outcomes()) == 4 and spared[4] == Fraction(1, 6 ** 4)
    assert r.headline["expected_friend_injury"] == (1 - success) * spared.mean()


def test_diving_for_cover_by_hand():
    success = Fraction(at_most(12), 216)
    trench = evaluate(find_preset("gurps-4e/dive-into-a-trench").scenario)
    assert trench.headline["p_no_hit"] == success and trench.outcomes["Reached complete cover"] == success
    open_ground = evaluate(find_preset("gurps-4e/dive-without-cover").scenario)
    # 6d at 2 yards is ÷ 6 (at most 6), a yard farther ÷ 9 (at most 4).
    injury = open_ground.distributions["injury"]
    assert open_ground.outcomes["A yard farther from the blast"] == success
    assert max(injury.outcomes()) == 6 and injury[6] == (1 - success) * Fraction(1, 6 ** 6)  # only if caught
    assert open_ground.headline["expected_hits"] == 1
    caught = open_ground.distributions["injury_if_caught"]  # ⌊6d ÷ 6⌋ at 2 yards
    # totals 6..11 give 1: C(t − 1, 5) ways each, 1 + 6 + 21 + 56 + 126 + 252 = 462 = C(11, 6)
    assert caught[6] == Fraction(1, 6 ** 6) and caught[1] == Fraction(462, 6 ** 6) and caught[0] == 0
    assert trench.distributions["injury_if_caught"] == caught


def test_out_of_reach_and_area_effects():
    far = GurpsScenario(situation="dive", blast=Blast(damage="2d", distance=4))  # reach: 4 yards
    r = evaluate(far)
    assert r.outcomes["Out of the blast's reach"] == Fraction(at_most(12), 216)
    area = evaluate(GurpsScenario(situation="dive", blast=Blast(damage="2d", spread="area", distance=4)))
    assert area.outcomes["Dove, but still in the area"] == Fraction(at_most(12), 216)
    assert area.headline["p_no_hit"] == 0


def test_every_ruling_is_declared_with_options_and_changes_something():
    names = {spec.name for spec in SYSTEM.rulings()}
    assert names == {"carry", "crit_dodge", "crit_hit", "smother_damage"}
    burst = GurpsScenario(dodger=Dodger(basic_speed=4.0), attacks=(Attack(skill=16, rof=8, recoil=1, damage="2d"),))
    where = {"carry": find_preset("gurps-4e/drop-behind-cover").scenario,
             "crit_dodge": burst.replace(attacks=(Attack(hits_by="fixed", hits=8, damage="2d"),)),
             "crit_hit": burst, "smother_damage": find_preset("gurps-4e/throw-yourself-on-a-grenade").scenario}
    for spec in SYSTEM.rulings():
        values = {evaluate(where[spec.name].replace(**{spec.name: v})).headline["expected_injury"]
                  for v, _ in spec.choices}
        assert len(values) == len(spec.choices), spec.name


def test_trace_shows_the_arithmetic_and_the_rulings():
    r = evaluate(find_preset("gurps-4e/drop-behind-cover").scenario)
    text = "\n".join(map(str, r.trace))
    assert "Ruling: Dodge and drop against the foe's later attacks: both" in text
    assert "Attack 2 after the dodge and drop: Cover: cover DR 8" in text
    assert "Attack 2 after the dodge and drop: Posture: -3 (prone after the dodge and drop) → 9" in text
    assert "(5d pi − cover DR 8 − DR 2) × 1 (pi, torso)" in text
    assert all(step.citation for step in r.trace)


def test_every_preset_gives_each_headline_or_says_why_not():
    assert SYSTEM.presets[0].name == "sword-2d1-cut-vs-dr3"
    for preset in SYSTEM.presets:
        r = evaluate(preset.scenario)
        for key in SYSTEM.headlines:
            assert (r.headline[key] is None) == (key in r.notes), (preset.name, key)
        assert set(r.outcomes.outcomes()) <= set(r.outcome_order), preset.name
    expected = {p.name: float(evaluate(p.scenario).headline["expected_injury"]) for p in SYSTEM.presets}
    assert expected["sword-2d1-cut-vs-dr3"] == 7.25


def test_a_fraction_is_never_a_float():
    for preset in SYSTEM.presets:
        r = evaluate(preset.scenario)
        assert all(isinstance(v, Fraction) for v in r.headline.values() if v is not None)


def test_a_sweeps_headline_alone_gives_the_numbers_worked_by_hand():
    # The headline a sweep asks for (no outcome labels, no hits dodged, no trace) against the
    # numbers worked on paper above: three fixed hits against Dodge 10, and the seed's sword.
    from rules_core.systems.gurps_4e.exact import headline

    s = GurpsScenario(dodger=Dodger(basic_speed=7.0), attacks=(Attack(hits_by="fixed", hits=3, damage="1d"),))
    alone = headline(s)
    assert alone["p_no_hit"] == Fraction(56, 216) and alone["expected_hits"] == Fraction(403, 216)
    assert alone["p_dodge_succeeds"] == Fraction(108, 216)
    sword = headline(find_preset("gurps-4e/sword-2d1-cut-vs-dr3").scenario)
    assert (sword["expected_injury"], sword["p_down"], sword["p_major_wound"]) == (
        Fraction(261, 36), Fraction(10, 36), Fraction(26, 36))
    # the full result carries what the headline leaves out: 3 − hits landing are dodged
    dodged = evaluate(s).distributions["hits_dodged"]
    assert dict(dodged.items()) == {3: Fraction(56, 216), 2: Fraction(25, 216), 1: Fraction(27, 216),
                                    0: Fraction(108, 216)}
