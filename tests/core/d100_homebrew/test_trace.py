"""d100 homebrew, the trace's wording on typed d100 faces and in the result: each line says what
the rules text says happened (Evasion, Parry, Leap [Отскок], Disengage [Вольт], the Size gate)
and cites the paragraph it comes from."""

from __future__ import annotations

import pytest

from rules_core import evaluate, find_preset, play_once
from rules_core.systems.d100_homebrew import SYSTEM, Attack, D100Scenario, Defender


def scenario(*attacks: Attack, sizes_larger: int = 0, **defender) -> D100Scenario:
    return D100Scenario(defender=Defender(**defender), attacks=attacks, sizes_larger=sizes_larger)


def lines(sc: D100Scenario, *faces: int) -> list[tuple[str, str, str]]:
    """The trace of the play on these faces, as (rule, detail, citation)."""
    return [(s.rule, s.detail, s.citation) for s in play_once(SYSTEM, sc, faces=list(faces)).trace]


def test_a_spent_leap_budget_leaves_an_attack_on_the_whole_base_unevaded():
    # Leap ¶2: Leaps in a Round together may not exceed SPD metres. SPD 3, two Blasts each needing
    # a 3 m Leap: after the first Leap nothing is left for the second.
    blast = Attack(hits=1, covers_whole_base=True, leap="out_of_reach", leap_distance=3)
    trace = lines(scenario(blast, blast, agility=45, spd=3, reactions=2), 10)
    assert ("No Evasion roll against attack 2",
            "the Round's Leap budget is spent (3 of 3 m), and only a Leap can dodge an attack covering the whole Base",
            "d100 homebrew, Evasion › Leap [Отскок], ¶2") in trace


def test_a_blocked_attack_gives_its_own_reason():
    # Parry ¶2: Parry works only against melee attacks, including shots fired in melee.
    shot = Attack(kind="shooting", hits=1, evasion="parry")
    trace = lines(scenario(shot, Attack(hits=1), agility=45, weapon_skill=50, reactions=2), 10)
    assert trace[0] == ("No Evasion roll against attack 1",
                        "Parry works only against melee attacks and shots fired in melee",
                        "d100 homebrew, Evasion › Parry [Парирование], ¶1–2")


def test_a_parry_roll_cites_the_parry_rule():
    trace = lines(scenario(Attack(kind="melee", hits=2, evasion="parry"), weapon_skill=50), 10)
    assert trace[0] == ("Parry against attack 1", "rolled 10 against 50: 5 Successes",
                        "d100 homebrew, Evasion › Parry [Парирование], ¶1–2")


def test_a_leap_into_cover_and_a_leap_out_of_reach_say_what_becomes_of_the_hits():
    # Leap ¶1: into Cover, the hits land with the Cover's AP; out of reach, they are negated.
    sc = scenario(Attack(hits=2, leap="cover"), Attack(hits=3, leap="out_of_reach"), agility=45, reactions=2,
                  unspent_ap=1)
    leaps = [detail for rule, detail, _ in lines(sc, 10, 20) if rule == "Leap [Отскок]"]
    assert leaps == ["a Leap of 2 m into Cover: 2 hits of attack 1 land against the Cover's AP",
                     "a Leap of 2 m out of the reach of attack 2: 3 hits negated"]


def test_a_leap_out_of_melee_while_the_free_attackers_evade_is_no_disengage():
    # Leap ¶1: a Leap out of melee counts as a Disengage [Вольт], unless every enemy able to make
    # Free Attacks is also trying to Evade this attack.
    sc = scenario(Attack(kind="shot_in_melee", hits=1, leap="cover", free_attackers_evade=True), agility=45,
                  engaged_in_melee=True)
    melee = [detail for _, detail, _ in lines(sc, 10) if "out of melee" in detail]
    assert melee == ["the Leap out of melee is no Disengage: every enemy able to make Free Attacks also "
                     "evades this attack"]


def test_the_size_gate_is_said_passed_only_for_a_parry_it_lets_through():
    # Parry ¶3: an attacker 1 Size larger needs the Parry advanced to +10; 4 or more, impossible.
    def attack_lines(**args) -> list[str]:
        r = evaluate(scenario(Attack(kind="melee", hits=1, evasion="parry"), Attack(kind="melee", hits=1),
                              weapon_skill=40, agility=40, reactions=2, **args))
        return [s.detail for s in r.trace if s.rule in ("Attack 1", "Attack 2")]

    parry, dodge = attack_lines(sizes_larger=1, parry_advance=10)
    assert parry.endswith("; Size gate passed: +10 advance against an attacker 1 Size larger (+10 needed)")
    assert "Size" not in dodge  # Size gates a Parry only
    parry, dodge = attack_lines(sizes_larger=4, parry_advance=30)
    assert parry.endswith("; no Evasion roll: Parry impossible: the attacker is 4 Sizes larger (4 or more)")
    assert "Size gate" not in dodge


# -- the result's trace: the rules applied to the scenario -------------------------------------------

def result_lines(sc: D100Scenario) -> list[tuple[str, str]]:
    return [(s.rule, s.detail) for s in evaluate(sc).trace]


def rules_said(sc: D100Scenario) -> list[str]:
    return [rule for rule, _ in result_lines(sc)]


def with_rulings(sc: D100Scenario, **rulings) -> D100Scenario:
    return sc.replace(**rulings)


TWO_TARGETS = scenario(Attack(hits=2), Attack(hits=1, evasion_modifier=-20), agility=45, reactions=2)


def test_the_successes_of_each_target_by_runs_of_faces_highest_target_first():
    # Successes: 1 + one per full 10 the roll is under the target; 46-100 fail against 45.
    said = [(rule, detail) for rule, detail in result_lines(TWO_TARGETS) if rule.startswith("Successes against")]
    assert said == [
        ("Successes against target 45", "01–05: 5 Successes; 06–15: 4 Successes; 16–25: 3 Successes; "
                                        "26–35: 2 Successes; 36–45: 1 Success; 46–100: fail"),
        ("Successes against target 25", "01–05: 3 Successes; 06–15: 2 Successes; 16–25: 1 Success; 26–100: fail")]


def test_where_the_first_rolls_failure_goes():
    first = [(rule, detail) for rule, detail in result_lines(TWO_TARGETS) if rule.startswith("First roll")]
    assert first[0] == ("First roll (attack 1) fails: 46–100, 55 in 100", "2 hits of attack 1 land")
    assert first[1] == ("First roll (attack 1), 1 Success: 36–45, 10 in 100",
                        "1 hit of attack 1 evaded; 1 hit of attack 1 lands")


def test_targets_at_the_edges_are_read_by_the_rulings_on_01_and_100():
    # A target of exactly 1 is an ordinary test (01 is at or under it): no edge to explain.
    assert not any(rule.startswith("Target ") for rule in rules_said(scenario(Attack(hits=1), agility=1)))
    # Below 1: 01 passes with 1 Success (Dark Heresy 2nd ed.), or, read as rolled, nothing passes.
    hopeless = scenario(Attack(hits=1, evasion_modifier=-20), agility=5)
    assert ("Target -15", "a target below 1: only 01 passes, with 1 Success") in result_lines(hopeless)
    assert ("Target -15", "a target below 1: no roll can pass") in \
        result_lines(with_rulings(hopeless, roll_01="as_rolled"))
    # 100 or more: 100 still fails, or, read as rolled, every roll passes.
    sure = scenario(Attack(hits=1), agility=100, dodge_advance=10)
    assert ("Target 110", "a target of 100 or more: every roll but 100 passes, and Successes count on past 100") \
        in result_lines(sure)
    assert ("Target 110", "a target of 100 or more: every roll passes, and Successes count on past 100") in \
        result_lines(with_rulings(sure, roll_100="as_rolled"))


def test_every_ruling_is_named_with_the_reading_in_force():
    said = result_lines(with_rulings(TWO_TARGETS, roll_01="as_rolled"))
    rulings = [rule for rule, _ in said if rule.startswith("Ruling: ")]
    assert rulings == ["Ruling: Successes on a pass", "Ruling: A roll of 01", "Ruling: A roll of 100",
                       "Ruling: Spending leftover Successes", "Ruling: When to Leap"]
    assert ("Ruling: A roll of 01", "01 passes only if the target is 1 or more") in said


def test_leftover_costs_are_listed_from_every_roll_even_after_a_blocked_attack():
    # Attack 1 is a shot the defender tries to Parry: no roll. Attacks 2 and 3 are dodged; leftovers
    # of the roll against 2 pay for hits of 3 at 2 per hit (no extra penalty).
    sc = scenario(Attack(kind="shooting", hits=1, evasion="parry"), Attack(hits=1), Attack(hits=2), agility=45,
                  reactions=2)
    assert ("Leftover Successes", "Successes left after all hits of one attack evade hits of the opponent's later "
            "attacks this Turn: 2 per hit, +1 per full −10 by which that attack's penalty exceeds the first one's; "
            "from the roll against attack 2 to a hit of attack 3: 2") in result_lines(sc)


def test_the_leap_budget_is_explained_only_where_a_leap_or_a_whole_base_attack_is_in_play():
    assert not any(rule.startswith("Leap") for rule in rules_said(scenario(Attack(hits=3), agility=45)))
    into_cover = rules_said(scenario(Attack(hits=1, leap="cover"), agility=45))
    assert into_cover.count("Leap budget") == 1 and into_cover.count("Leap [Отскок]") == 1  # no leftovers
    # An attack on the whole Base with no Leap planned: the budget matters, but no Leap is made.
    whole_base = scenario(Attack(hits=1, covers_whole_base=True), Attack(hits=1), agility=45, reactions=2)
    assert "Leap budget" in rules_said(whole_base) and "Leap [Отскок]" not in rules_said(whole_base)


# The whole result trace of three presets, read line by line: a Leap out of a Blast (P(pass at 45)
# = 9/20 of its hit negated), a burst past the dodger (Successes evade min(S, 3) hits: (10 + 20 +
# 30 + 30 + 15)/100 = 21/20 expected), a Leap into Cover out of melee (2 × 9/20 = 9/10 hits against
# the Cover's AP).
PRESET_TRACES = {
    "leap-out-of-blast": [
        ('Evasion [Избегание]',
         'a Reaction after being hit, before the damage roll: each Success evades one hit of that '
         'attack, and at most one Evasion roll is made per attack, even with Reactions left'),
        ('Reactions',
         '1 Reaction this Turn, attacks resolved in the order made'),
        ('Attack 1',
         'Shooting (ranged), 1 hit, modifier to Evasion +0; Dodge(A) test: target 45 (A 45, '
         'advance +0, modifier +0, attack +0); it covers the whole Base: only a Leap can dodge it; '
         'Leap plan: Leap out of reach, 2 m needed'),
        ('Successes against target 45',
         '01–05: 5 Successes; 06–15: 4 Successes; 16–25: 3 Successes; 26–35: 2 Successes; 36–45: 1 '
         'Success; 46–100: fail'),
        ('Ruling: Successes on a pass',
         '1 + one per full 10 the roll is under the target: 1 + floor((target − roll)/10) (Only '
         'War / Black Crusade degrees of success)'),
        ('Ruling: A roll of 01',
         '01 always passes, with at least 1 Success (Dark Heresy 2nd ed.)'),
        ('Ruling: A roll of 100',
         '100 always fails (Dark Heresy 2nd ed.)'),
        ('Ruling: Spending leftover Successes',
         "Spent at once on the later attacks' hits, cheapest hits first: the most hits evaded "
         '(workbook default)'),
        ('Ruling: When to Leap',
         'Whenever the Dodge passes and the distance fits (workbook default)'),
        ('Leap budget',
         '3 m this Round = SPD 3 m × (1 + 0 unspent AP + 0 Delayed half-action), at most SPD 3 m '
         'against one attack'),
        ('Leap [Отскок]',
         'a Leap yields no leftover Successes'),
        ('First roll (attack 1) fails: 46–100, 55 in 100',
         '1 hit of attack 1 lands'),
        ('First roll (attack 1), 1 Success: 36–45, 10 in 100',
         'a Leap of 2 m out of the reach of attack 1: 1 hit negated'),
        ('First roll (attack 1), 2 Successes: 26–35, 10 in 100',
         'a Leap of 2 m out of the reach of attack 1: 1 hit negated'),
        ('First roll (attack 1), 3 Successes: 16–25, 10 in 100',
         'a Leap of 2 m out of the reach of attack 1: 1 hit negated'),
        ('First roll (attack 1), 4 Successes: 06–15, 10 in 100',
         'a Leap of 2 m out of the reach of attack 1: 1 hit negated'),
        ('First roll (attack 1), 5 Successes: 01–05, 5 in 100',
         'a Leap of 2 m out of the reach of attack 1: 1 hit negated'),
        ('Attack 1: what became of its 1 hit (expected)',
         'roll made: 1; evaded by its own roll: 0; by leftover Successes: 0; negated by a Leap: '
         '9/20 ≈ 0.45; landing: 11/20 ≈ 0.55; against Cover: 0'),
    ],
    "stray-shot-past-the-dodger": [
        ('Evasion [Избегание]',
         'a Reaction after being hit, before the damage roll: each Success evades one hit of that '
         'attack, and at most one Evasion roll is made per attack, even with Reactions left'),
        ('Reactions',
         '1 Reaction this Turn, attacks resolved in the order made'),
        ('Attack 1',
         'Shooting (ranged), 3 hits, modifier to Evasion +0; Dodge(A) test: target 45 (A 45, '
         'advance +0, modifier +0, attack +0); a next target stands on the line of fire'),
        ('Successes against target 45',
         '01–05: 5 Successes; 06–15: 4 Successes; 16–25: 3 Successes; 26–35: 2 Successes; 36–45: 1 '
         'Success; 46–100: fail'),
        ('Ruling: Successes on a pass',
         '1 + one per full 10 the roll is under the target: 1 + floor((target − roll)/10) (Only '
         'War / Black Crusade degrees of success)'),
        ('Ruling: A roll of 01',
         '01 always passes, with at least 1 Success (Dark Heresy 2nd ed.)'),
        ('Ruling: A roll of 100',
         '100 always fails (Dark Heresy 2nd ed.)'),
        ('Ruling: Spending leftover Successes',
         "Spent at once on the later attacks' hits, cheapest hits first: the most hits evaded "
         '(workbook default)'),
        ('Ruling: When to Leap',
         'Whenever the Dodge passes and the distance fits (workbook default)'),
        ('Stray shot',
         'each dodged hit of a shot flies on toward the next target on the line of fire, and if '
         'the GM rules it hits, it counts 1 Success and strikes a random location, even if the '
         'attack was Selective'),
        ('First roll (attack 1) fails: 46–100, 55 in 100',
         '3 hits of attack 1 land'),
        ('First roll (attack 1), 1 Success: 36–45, 10 in 100',
         '1 hit of attack 1 evaded; 1 dodged shot of attack 1 flies on toward the next target '
         "(GM's call: 1 Success each, random location); 2 hits of attack 1 land"),
        ('First roll (attack 1), 2 Successes: 26–35, 10 in 100',
         '2 hits of attack 1 evaded; 2 dodged shots of attack 1 fly on toward the next target '
         "(GM's call: 1 Success each, random location); 1 hit of attack 1 lands"),
        ('First roll (attack 1), 3 Successes: 16–25, 10 in 100',
         '3 hits of attack 1 evaded; 3 dodged shots of attack 1 fly on toward the next target '
         "(GM's call: 1 Success each, random location)"),
        ('First roll (attack 1), 4 Successes: 06–15, 10 in 100',
         '3 hits of attack 1 evaded; 3 dodged shots of attack 1 fly on toward the next target '
         "(GM's call: 1 Success each, random location); 1 Success left unspent"),
        ('First roll (attack 1), 5 Successes: 01–05, 5 in 100',
         '3 hits of attack 1 evaded; 3 dodged shots of attack 1 fly on toward the next target '
         "(GM's call: 1 Success each, random location); 2 Successes left unspent"),
        ('Attack 1: what became of its 3 hits (expected)',
         'roll made: 1; evaded by its own roll: 21/20 ≈ 1.05; by leftover Successes: 0; negated by '
         'a Leap: 0; landing: 39/20 ≈ 1.95; against Cover: 0'),
    ],
    "leap-out-of-melee-into-cover": [
        ('Evasion [Избегание]',
         'a Reaction after being hit, before the damage roll: each Success evades one hit of that '
         'attack, and at most one Evasion roll is made per attack, even with Reactions left'),
        ('Reactions',
         '1 Reaction this Turn, attacks resolved in the order made'),
        ('Attack 1',
         'Shot fired in melee, 2 hits, modifier to Evasion +0; Dodge(A) test: target 45 (A 45, '
         'advance +0, modifier +0, attack +0); Leap plan: Leap into Cover, 2 m needed'),
        ('Successes against target 45',
         '01–05: 5 Successes; 06–15: 4 Successes; 16–25: 3 Successes; 26–35: 2 Successes; 36–45: 1 '
         'Success; 46–100: fail'),
        ('Ruling: Successes on a pass',
         '1 + one per full 10 the roll is under the target: 1 + floor((target − roll)/10) (Only '
         'War / Black Crusade degrees of success)'),
        ('Ruling: A roll of 01',
         '01 always passes, with at least 1 Success (Dark Heresy 2nd ed.)'),
        ('Ruling: A roll of 100',
         '100 always fails (Dark Heresy 2nd ed.)'),
        ('Ruling: Spending leftover Successes',
         "Spent at once on the later attacks' hits, cheapest hits first: the most hits evaded "
         '(workbook default)'),
        ('Ruling: When to Leap',
         'Whenever the Dodge passes and the distance fits (workbook default)'),
        ('Leap budget',
         '3 m this Round = SPD 3 m × (1 + 0 unspent AP + 0 Delayed half-action), at most SPD 3 m '
         'against one attack'),
        ('Leap [Отскок]',
         'a Leap yields no leftover Successes'),
        ('Leap [Отскок]',
         'the defender is engaged in melee: his first Leap takes him out of it and counts as a '
         'Disengage [Вольт] unless every enemy able to make Free Attacks also evades that attack'),
        ('First roll (attack 1) fails: 46–100, 55 in 100',
         '2 hits of attack 1 land'),
        ('First roll (attack 1), 1 Success: 36–45, 10 in 100',
         "a Leap of 2 m into Cover: 2 hits of attack 1 land against the Cover's AP; the Leap out "
         'of melee counts as a Disengage [Вольт]'),
        ('First roll (attack 1), 2 Successes: 26–35, 10 in 100',
         "a Leap of 2 m into Cover: 2 hits of attack 1 land against the Cover's AP; the Leap out "
         'of melee counts as a Disengage [Вольт]'),
        ('First roll (attack 1), 3 Successes: 16–25, 10 in 100',
         "a Leap of 2 m into Cover: 2 hits of attack 1 land against the Cover's AP; the Leap out "
         'of melee counts as a Disengage [Вольт]'),
        ('First roll (attack 1), 4 Successes: 06–15, 10 in 100',
         "a Leap of 2 m into Cover: 2 hits of attack 1 land against the Cover's AP; the Leap out "
         'of melee counts as a Disengage [Вольт]'),
        ('First roll (attack 1), 5 Successes: 01–05, 5 in 100',
         "a Leap of 2 m into Cover: 2 hits of attack 1 land against the Cover's AP; the Leap out "
         'of melee counts as a Disengage [Вольт]'),
        ('Attack 1: what became of its 2 hits (expected)',
         'roll made: 1; evaded by its own roll: 0; by leftover Successes: 0; negated by a Leap: 0; '
         'landing: 2; against Cover: 9/10 ≈ 0.9'),
    ],
}


@pytest.mark.parametrize("name", list(PRESET_TRACES))
def test_the_result_trace_of_a_preset_line_by_line(name):
    trace = evaluate(find_preset(f"d100-homebrew/{name}").scenario).trace
    assert [(s.rule, s.detail) for s in trace] == PRESET_TRACES[name]
    assert all(s.citation for s in trace)


def test_a_turn_of_three_attacks_step_by_step():
    # 03 against 45: 5 Successes. Two evade attack 1's hits, which fly on toward the next target;
    # 3 are left: a hit of attack 3 costs 2, of attack 2 (−20 beyond the first) 4 — cheapest first,
    # one hit of attack 3, and 1 Success unspent. 80 against 25 fails: attack 2's 3 hits land.
    sc = scenario(Attack(hits=2, next_target=True), Attack(hits=3, evasion_modifier=-20), Attack(hits=1),
                  agility=45, reactions=2)
    assert [(rule, detail) for rule, detail, _ in lines(sc, 3, 80)] == [
        ("Dodge against attack 1", "rolled 03 against 45: 5 Successes"),
        ("Evasion", "2 hits of attack 1 evaded"),
        ("Stray shot", "2 dodged shots of attack 1 fly on toward the next target (GM's call: 1 Success each, "
                       "random location)"),
        ("Leftover Successes", "1 hit of attack 3 evaded at 2 Successes per hit"),
        ("Leftover Successes", "1 Success left unspent"),
        ("Dodge against attack 2", "rolled 80 against 25: the test fails"),
        ("Hits land", "3 hits of attack 2 land"),
        ("No Evasion roll against attack 3", "every hit already evaded by leftover Successes"),
        ("Outcome", "3 evaded, 3 land; 2 stray shots")]
    # 13 against 45: 4 Successes; 2 left pay exactly for attack 3's hit, nothing unspent.
    four = [(rule, detail) for rule, detail, _ in lines(sc, 13, 80)]
    assert four[3:5] == [("Leftover Successes", "1 hit of attack 3 evaded at 2 Successes per hit"),
                         ("Dodge against attack 2", "rolled 80 against 25: the test fails")]


def test_a_house_rule_on_points_per_success_is_said_in_the_successes_ruling_alone():
    from rules_core.systems.d100_homebrew.scenario import D100Variant
    official = dict(result_lines(TWO_TARGETS))
    for successes, said in (
            ("margin", "1 + one per full 5 points the roll is under the target: 1 + floor((target − roll)/5) "
                       "(house rule)"),
            ("tens_digits", "1 + floor(target/5) − floor(roll/5): digits 5 points wide (house rule)")):
        house = TWO_TARGETS.replace(successes=successes, variant=D100Variant(points_per_success=5))
        lines_ = dict(result_lines(house))
        assert lines_["Ruling: Successes on a pass"] == said
        # the other rulings keep their own words
        for ruling in ("Ruling: A roll of 01", "Ruling: A roll of 100", "Ruling: Spending leftover Successes"):
            assert lines_[ruling] == official[ruling]


def test_the_first_rolls_steps_cite_the_leftovers_rule_only_when_there_are_later_attacks():
    from rules_core.systems.d100_homebrew.scenario import CITE_LEFTOVERS, CITE_ONE_PER_ATTACK

    def first_roll_citations(sc):
        return {s.citation for s in evaluate(sc).trace if s.rule.startswith("First roll")}
    assert first_roll_citations(scenario(Attack(hits=2), agility=45)) == {CITE_ONE_PER_ATTACK}
    assert first_roll_citations(TWO_TARGETS) == {CITE_LEFTOVERS}


def test_the_result_names_its_system():
    from rules_core.systems.d100_homebrew.exact import evaluate as fast
    assert fast(TWO_TARGETS).system == "d100-homebrew"
