"""d100 homebrew, the rule on one concrete roll (:func:`rules_core.systems.d100_homebrew.play.play`):
worked examples on typed d100 faces from the rules text, the dice it asks for, its trace, and the
grouping of faces by Successes proven true by enumerating every face."""

from __future__ import annotations

import pytest

from rules_core import DiceError, Roller, enumerate_play, play_once
from rules_core.systems.d100_homebrew import SYSTEM, Attack, D100Scenario, Defender
from rules_core.systems.d100_homebrew.outcomes import AttackFate
from rules_core.systems.d100_homebrew.play import leftover_cost


def scenario(*attacks: Attack, rulings: dict | None = None, sizes_larger: int = 0, **defender) -> D100Scenario:
    return D100Scenario(defender=Defender(**defender), attacks=attacks or (Attack(),), sizes_larger=sizes_larger,
                        **(rulings or {}))


def on(sc: D100Scenario, *faces: int):
    """The play on these typed faces (every one must be used)."""
    return play_once(SYSTEM, sc, faces=list(faces))


def details(played) -> list[str]:
    return [step.detail for step in played.trace]


def test_leftover_cost_by_hand():
    # 2 per hit, +1 per FULL −10 of extra penalty over the first attack's
    assert [leftover_cost(0, m) for m in (0, -5, -10, -19, -20, -60, 30)] == [2, 2, 3, 3, 4, 8, 2]
    assert leftover_cost(-20, -20) == 2 and leftover_cost(-20, -45) == 4 and leftover_cost(30, 0) == 5


# -- worked examples on typed faces ---------------------------------------------------------------

def test_each_success_evades_one_hit_and_only_one_evasion_per_attack():
    sc = scenario(Attack(hits=3), agility=45, reactions=3)
    played = on(sc, 30)  # 30 against 45: 2 Successes; one roll only, Reactions left or not
    assert (played.hits, played.evasions, played["successes"]) == (1, (True,), 2)
    assert [str(r) for r in played.rolled] == ["Dodge against attack 1: 30"]
    assert [step.rule for step in played.trace] == ["Dodge against attack 1", "Evasion", "Hits land", "Outcome"]
    assert played.outcome == "2 evaded, 1 lands"
    with pytest.raises(DiceError, match="1 face left over"):
        on(sc, 30, 1)


def test_a_failed_roll_lands_every_hit():
    played = on(scenario(Attack(hits=4), agility=45), 46)
    assert (played.hits, played.evasions, played["successes"]) == (4, (False,), 0)
    assert "rolled 46 against 45: the test fails" in details(played)


def test_too_few_faces_are_refused():
    with pytest.raises(DiceError, match="no faces are left of the 1 given"):
        on(scenario(Attack(), Attack(), agility=45, reactions=2), 50)


def test_leftovers_pay_later_hits_then_a_second_roll_takes_the_rest():
    """Dodge 75; attack 1 (1 hit), attack 2 (1 hit, +0: 2 per hit), attack 3 (3 hits, −20: 4
    per hit); 2 Reactions. Roll 01 scores 1 + (75 − 1) // 10 = 8: 1 evades attack 1, 7 left;
    cheapest first: 2 pay attack 2's hit, 4 pay one hit of attack 3, 1 is left unspent. Attack
    2 needs no roll; attack 3 has 2 hits left and gets the second roll: 60 against 55 fails."""
    sc = scenario(Attack(hits=1), Attack(hits=1), Attack(hits=3, evasion_modifier=-20), agility=45,
                  dodge_advance=30, reactions=2)
    played = on(sc, 1, 60)
    assert played.evasions == (True, False) and played["successes"] == 8 and played.hits == 2
    assert played["attacks"] == (AttackFate(rolled=True, evaded_by_roll=1),
                                 AttackFate(evaded_by_leftovers=1),
                                 AttackFate(rolled=True, evaded_by_leftovers=1, landed_open=2))
    text = [str(step) for step in played.trace]
    assert any("rolled 01 against 75: 8 Successes" in t for t in text)
    assert any("1 hit of attack 2 evaded at 2 Successes per hit" in t for t in text)
    assert any("1 hit of attack 3 evaded at 4 Successes per hit" in t for t in text)
    assert any("1 Success left unspent" in t for t in text)
    assert any(t.startswith("No Evasion roll against attack 2: every hit already evaded by leftover") for t in text)
    assert text[-1].startswith("Outcome: 3 evaded, 2 land")


def test_parry_leftovers_reach_only_what_a_parry_could():
    """A Parry's leftovers pay melee hits and shots fired in melee, never a plain shot."""
    sc = scenario(Attack(kind="melee", hits=1, evasion="parry"), Attack(kind="shooting", hits=1),
                  Attack(kind="shot_in_melee", hits=1), weapon_skill=60, reactions=1)
    played = on(sc, 1)  # 6 Successes: 1 for attack 1, 2 for attack 3, the shot is out of reach
    assert played["attacks"][1] == AttackFate(landed_open=1)
    assert played["attacks"][2] == AttackFate(evaded_by_leftovers=1)
    assert played.hits == 1


def test_dodge_leftovers_never_reach_an_attack_covering_the_whole_base():
    sc = scenario(Attack(hits=1), Attack(hits=1, covers_whole_base=True, leap="out_of_reach"), agility=60,
                  reactions=1)
    played = on(sc, 1)
    assert played["attacks"][1] == AttackFate(landed_open=1)  # no Reaction left for the Leap
    assert "no Reaction left" in details(played)


def test_leftovers_of_a_dodge_fly_on_past_the_dodger():
    dodge = scenario(Attack(hits=2), Attack(hits=2, next_target=True), agility=65, reactions=1)
    played = on(dodge, 1)  # 7 Successes: 2 on attack 1, 5 left pay 2 hits of attack 2
    assert played["stray_shots"] == 2 and played["attacks"][1].evaded_by_leftovers == 2


def test_stray_shots_from_dodges_and_leaps_but_not_parries_or_cover():
    parry = scenario(Attack(kind="shot_in_melee", hits=2, evasion="parry", next_target=True), weapon_skill=60)
    assert on(parry, 1)["stray_shots"] == 0  # a parried shot goes into the surroundings
    out = scenario(Attack(hits=3, leap="out_of_reach", next_target=True), agility=45)
    assert on(out, 40)["stray_shots"] == 3 and on(out, 40).hits == 0
    cover = scenario(Attack(hits=3, leap="cover", next_target=True), agility=45)
    played = on(cover, 40)
    assert played["stray_shots"] == 0 and played["hits_in_cover"] == 3 and played.hits == 3


def test_a_leap_out_of_melee_is_a_disengage_unless_the_free_attackers_evade_too():
    base = dict(agility=45, engaged_in_melee=True, reactions=2, unspent_ap=1)
    sc = scenario(Attack(kind="shot_in_melee", hits=1, leap="cover"), Attack(hits=1, leap="out_of_reach"), **base)
    played = on(sc, 10, 10)
    assert played["disengage"] is True
    melee_lines = [d for d in details(played) if "out of melee" in d]
    assert melee_lines == ["the Leap out of melee counts as a Disengage [Вольт]"]  # only the first Leap
    sc = scenario(Attack(kind="shot_in_melee", hits=1, leap="cover", free_attackers_evade=True), **base)
    assert on(sc, 10)["disengage"] is False
    assert on(scenario(Attack(hits=1, leap="cover"), agility=45), 10)["disengage"] is False


def test_leftover_cost_under_a_penalty_step_of_one():
    # a step of 1 point: +1 per point of extra penalty, and nothing for a smaller penalty
    assert [leftover_cost(0, m, step=1) for m in (0, 5, -1, -3)] == [2, 2, 3, 5]


def test_stray_shots_add_up_over_the_turns_attacks():
    """Dodge 45 against shots with a next target behind the dodger: each stray adds to the ones
    before, whether it comes from a dodge, a Leap or leftover Successes."""
    stray = dict(next_target=True)
    # 40 scores 1 Success: 1 of attack 1's 2 shots dodged (a stray). Then 10 scores 4: a Leap
    # out of reach from attack 2's 2 shots (both fly on), or a dodge of both.
    leap = scenario(Attack(hits=2, **stray), Attack(hits=2, leap="out_of_reach", **stray), agility=45, reactions=2)
    assert on(leap, 40, 10)["stray_shots"] == 1 + 2
    dodge = scenario(Attack(hits=2, **stray), Attack(hits=2, **stray), agility=45, reactions=2)
    assert on(dodge, 40, 10)["stray_shots"] == 1 + 2
    # 01 against 65 scores 7: attack 1's 2 shots dodged (2 strays), 4 of the 5 left pay attack
    # 2's 2 shots (2 more).
    leftovers = scenario(Attack(hits=2, **stray), Attack(hits=2, **stray), agility=65, reactions=1)
    assert on(leftovers, 1)["stray_shots"] == 2 + 2


def test_hits_of_one_attack_paid_by_the_leftovers_of_two_rolls_add_up():
    """Dodge 45, 2 Reactions; attack 1 (1 hit, +0), attack 2 (1 hit, −20), attack 3 (3 hits, +0).
    01 against 45 scores 5: 1 evades attack 1, and the 4 left buy the cheapest hits: 2 of attack
    3's at 2 each (attack 2's cost 4). 01 against attack 2's 25 scores 3: 1 evades its hit, and
    2 buy attack 3's last hit (2 each, no extra penalty from −20 to +0). Attack 3 needs no roll."""
    sc = scenario(Attack(hits=1), Attack(hits=1, evasion_modifier=-20), Attack(hits=3), agility=45, reactions=2)
    played = on(sc, 1, 1)
    assert played["attacks"] == (AttackFate(rolled=True, evaded_by_roll=1),
                                 AttackFate(rolled=True, evaded_by_roll=1),
                                 AttackFate(evaded_by_leftovers=3))
    assert played.hits == 0


def test_an_attack_left_without_hits_by_leftovers_says_so_and_cites_the_leftovers_rule():
    from rules_core.systems.d100_homebrew.scenario import CITE_LEFTOVERS
    sc = scenario(Attack(hits=1), Attack(hits=1), agility=45, reactions=2)
    step, = [s for s in on(sc, 1).trace if s.rule == "No Evasion roll against attack 2"]
    assert (step.detail, step.citation) == ("every hit already evaded by leftover Successes", CITE_LEFTOVERS)


def test_no_trace_when_the_roller_does_not_explain():
    class Quiet(Roller):
        explain = False

        def faces(self, dice):
            return (30,)

    sc = scenario(Attack(hits=3), agility=45)
    quiet = SYSTEM.play(sc, Quiet())
    assert quiet.trace == () and quiet == on(sc, 30) and on(sc, 30).trace


# -- the grouping of faces is true of the rule --------------------------------------------------------

CLASSIFY_CASES = {
    "one burst": scenario(Attack(hits=3), agility=45),
    "two attacks, leftovers, second roll": scenario(Attack(hits=3), Attack(hits=3, evasion_modifier=-20),
                                                    agility=45, dodge_advance=20, reactions=2),
    "parry then dodge, in order, stray": scenario(
        Attack(kind="melee", hits=1, evasion="parry"), Attack(kind="shot_in_melee", hits=2, next_target=True),
        weapon_skill=70, agility=55, reactions=2, rulings={"spending": "in_order"}),
    "leaps with a small budget": scenario(Attack(hits=2, covers_whole_base=True, leap="out_of_reach", leap_distance=2),
                                          Attack(hits=3, leap="cover", leap_distance=2, next_target=True),
                                          agility=50, spd=3, reactions=2, engaged_in_melee=True,
                                          rulings={"leap_policy": "when_short"}),
    "extreme targets, DH2 tens": scenario(Attack(hits=2, evasion_modifier=30), Attack(hits=4, evasion_modifier=-60),
                                          agility=100, dodge_advance=30, dodge_modifier=60, reactions=2,
                                          rulings={"successes": "tens_digits", "roll_100": "as_rolled"}),
    "hopeless target, 01 as rolled": scenario(Attack(hits=2, evasion_modifier=-60), Attack(hits=1), agility=5,
                                              reactions=2, rulings={"roll_01": "as_rolled"}),
}


@pytest.mark.parametrize("name", list(CLASSIFY_CASES))
def test_grouping_faces_by_successes_equals_every_face(name):
    """Every face of every roll made (up to 10,000 sequences) gives the very distribution of
    plays that following one face per number of Successes gives."""
    sc = CLASSIFY_CASES[name]
    assert enumerate_play(SYSTEM, sc) == enumerate_play(SYSTEM, sc, classify=False)
