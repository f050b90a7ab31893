"""Plain answers to a designer's everyday mistakes (issue 26, items 2 and 5):

- ``worth`` of a scenario whose defender makes no reaction is refused, naming the field that
  turns the reaction off, its value, what turns it on and a preset where the defender reacts —
  never answered with zeros; a reaction the rules let make no roll says why it gains nothing;
- an unknown preset is a ``ScenarioError`` (still a ``KeyError``) naming the near names;
- ``System.text`` translates a whole trace step, as a ``TraceStep`` or as its line.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from rules_core import ScenarioError, all_systems, evaluate, find_preset, get_system, play_once
from rules_core.compare import makes_no_reaction, no_reaction_error, worth, worth_curve
from rules_core.registry import PresetError, near_names
from rules_core.trace import TraceStep, localised_numbers

GURPS_REACTS = "gurps-4e/rapid-fire-dodge-and-drop"


# -- worth: nothing to be worth -----------------------------------------------------------------

def test_worth_of_a_gurps_scenario_with_no_defense_names_the_field_and_a_preset_that_reacts():
    sword = find_preset("gurps-4e/sword-2d1-cut-vs-dr3").scenario  # "lands with no defense"
    assert sword.dodger.defense == "none"
    with pytest.raises(ScenarioError) as caught:
        worth(sword)
    err = caught.value
    assert [(p.field, p.given) for p in err.problems] == [("dodger.defense", "none")]
    assert str(err) == (
        "invalid gurps-4e scenario for worth: field 'dodger.defense': got 'none'; allowed: a reaction "
        "to be worth something — with 'none' the defender makes no reaction, so with and without it "
        "are the same; one of 'plain', 'retreat', 'dodge_and_drop', or a preset where the defender "
        "reacts, e.g. 'gurps-4e/rapid-fire-dodge-and-drop'")
    assert "\n" not in str(err)
    # the preset it points to does have a reaction worth something
    pointed = worth(find_preset(GURPS_REACTS).scenario)
    assert pointed.gained["p_no_hit"] == Fraction(347, 729)


@pytest.mark.parametrize(("ref", "changes", "field", "given", "turns_on", "example"), [
    ("infinity-n4/zhanshi-vs-fusilier", {"dodger.dodges": False}, "dodger.dodges", False, "True",
     "infinity-n4/zhanshi-dodges-to-engage"),
    ("eldfall/protective-barrier", {}, "defender.reaction", "none", "one of 'dodge', 'ward'",
     "eldfall/dodge-vs-critical"),
    ("d100-homebrew/two-attacks-leftovers", {"attacks.0.evasion": "none", "attacks.1.evasion": "none"},
     "attacks.*.evasion", "none", "one of 'dodge', 'parry'", "d100-homebrew/burst-3-vs-dodge-45"),
])
def test_every_game_refuses_worth_without_a_reaction(ref, changes, field, given, turns_on, example):
    scenario = find_preset(ref).scenario.replace(**changes) if changes else find_preset(ref).scenario
    assert makes_no_reaction(scenario)
    with pytest.raises(ScenarioError) as caught:
        worth(scenario)
    (problem,) = caught.value.problems
    assert (problem.field, problem.given) == (field, given)
    assert f"; {turns_on}, or a preset where the defender reacts, e.g. {example!r}" in problem.allowed
    assert not makes_no_reaction(find_preset(example).scenario)
    # plain data is refused the same way
    with pytest.raises(ScenarioError, match="makes no reaction"):
        worth(scenario.to_data())
    # and a curve along the evasion attribute of such a scenario is refused, not a line of zeros
    with pytest.raises(ScenarioError, match="makes no reaction"):
        worth_curve(scenario)


def test_d100_every_attacks_evasion_must_be_off_for_no_reaction():
    seed = find_preset("d100-homebrew/two-attacks-leftovers").scenario
    one_off = seed.set("attacks.0.evasion", "none")
    assert not makes_no_reaction(one_off)
    w = worth(one_off)  # the second attack's Evasion is still worth something
    assert w.gained["hits_avoided"] > 0


def test_which_presets_make_no_reaction_is_pinned():
    """Read from the presets' own descriptions: a GURPS attack that "lands with no defense" and
    Eldfall's Protective Barrier (no reaction, the barrier's AV only)."""
    off = sorted(f"{sid}/{p.name}" for sid, s in all_systems().items() if s.evasion
                 for p in s.presets if makes_no_reaction(p.scenario))
    assert off == ["eldfall/protective-barrier", "gurps-4e/sword-2d1-cut-vs-dr3"]


def test_no_reaction_error_names_the_job_it_refuses():
    sword = find_preset("gurps-4e/sword-2d1-cut-vs-dr3").scenario
    assert str(no_reaction_error(sword, "the reaction curve")).startswith(
        "invalid gurps-4e scenario for the reaction curve: field 'dodger.defense'")


def test_a_reaction_the_rules_forbid_gains_nothing_and_says_why():
    """d100: a Parry against an attacker two Sizes larger needs the skill advanced to +20; at
    +10 no Evasion roll is made, so the reaction chosen gains nothing — and the worth says so."""
    blocked = find_preset("d100-homebrew/parry-2-sizes-larger-blocked").scenario
    assert not makes_no_reaction(blocked)
    w = worth(blocked)
    assert dict(w.gained) == {"p_no_hit": Fraction(0), "hits_avoided": Fraction(0)}
    assert w.note == ("the reaction gains nothing here: No Evasion roll can be made; attack 1: Parry "
                      "needs the skill advanced to +20 against an attacker 2 Sizes larger, and it is +10")
    assert json.loads(json.dumps(w.to_data()))["note"] == w.note
    # allowed, the same Parry is rolled and gains: no note
    allowed = worth(find_preset("d100-homebrew/parry-2-sizes-larger-allowed").scenario)
    assert allowed.gained["p_no_hit"] == Fraction(3, 5) and allowed.note == ""
    # Eldfall's Ward needs no roll but still gains: no note either
    ward = worth(find_preset("eldfall/ward-vs-burn").scenario)
    assert ward.with_.headline["p_dodge_succeeds"] is None and ward.note == ""
    assert ward.gained["p_no_hit"] == Fraction(297, 400)


def test_every_shipped_preset_either_is_worth_something_or_is_refused_in_one_line():
    for sid, system in all_systems().items():
        if system.evasion is None:
            continue
        for preset in system.presets:
            if makes_no_reaction(preset.scenario):
                with pytest.raises(ScenarioError) as caught:
                    worth(preset.scenario)
                assert "\n" not in str(caught.value)
                continue
            w = worth(preset.scenario)
            silent = not any(w.gained.values()) and w.with_.headline["p_dodge_succeeds"] is None
            assert not silent or w.note, f"{sid}/{preset.name}: zeros without a note"


# -- find_preset: a ScenarioError with the near names --------------------------------------------

def test_an_unknown_preset_is_a_scenario_error_with_the_near_names_first():
    with pytest.raises(ScenarioError) as caught:
        find_preset("gurps-4e/sword")
    assert str(caught.value) == (
        "gurps-4e has no preset 'sword'; did you mean 'sword-2d1-cut-vs-dr3'? presets: "
        "sword-2d1-cut-vs-dr3, rapid-fire-dodge-and-drop, drop-behind-cover, acrobatic-retreat, "
        "sacrificial-dodge-and-drop, throw-yourself-on-a-grenade, dive-into-a-trench, dive-without-cover")
    (problem,) = caught.value.problems
    assert (problem.field, problem.given) == ("preset", "sword")


def test_a_misspelt_preset_gets_its_close_matches():
    with pytest.raises(ScenarioError, match=r"^infinity-n4 has no preset 'zhanshi-vs-fusiler'; did you mean "
                                            r"'zhanshi-vs-fusilier' or 'zhanshi-mine-and-fusilier'\? presets: "):
        find_preset("infinity-n4/zhanshi-vs-fusiler")


def test_nothing_near_says_only_the_known_names():
    with pytest.raises(ScenarioError) as caught:
        find_preset("gurps-4e/nope")
    assert str(caught.value).startswith("gurps-4e has no preset 'nope'; presets: sword-2d1-cut-vs-dr3, ")
    assert "did you mean" not in str(caught.value)


def test_an_unknown_system_and_a_missing_slash_name_their_near_names():
    with pytest.raises(ScenarioError) as caught:
        find_preset("gurps/sword-2d1-cut-vs-dr3")
    assert str(caught.value) == ("no system 'gurps'; did you mean 'gurps-4e'? systems: d100-homebrew, "
                                 "eldfall, gurps-4e, infinity-n4")
    assert caught.value.problems[0].field == "system"
    with pytest.raises(ScenarioError) as caught:
        find_preset("sword-2d1-cut-vs-dr3")
    assert str(caught.value) == ("preset 'sword-2d1-cut-vs-dr3' should be SYSTEM/NAME, e.g. "
                                 "infinity-n4/zhanshi-vs-fusilier; did you mean 'gurps-4e/sword-2d1-cut-vs-dr3'?")


def test_code_that_caught_the_old_key_error_still_catches_it_and_reads_plain_text():
    try:
        find_preset("eldfall/nothing")
    except KeyError as err:  # as before: a KeyError, but its text is not quoted like a key
        assert isinstance(err, PresetError) and isinstance(err, ValueError)
        assert str(err) == err.args[0]
        assert str(err).startswith("eldfall has no preset 'nothing'; presets: dodge-vs-critical, ")
    else:
        pytest.fail("no error")
    with pytest.raises(ScenarioError, match="has no preset 'nope'"):
        get_system("infinity-n4").preset("nope")


def test_a_huge_or_odd_reference_is_refused_in_one_short_line():
    with pytest.raises(ScenarioError) as caught:
        find_preset("gurps-4e/" + "P" * 100_000)
    assert len(str(caught.value)) < 600 and "\n" not in str(caught.value)
    with pytest.raises(ScenarioError, match="should be a text SYSTEM/NAME"):
        find_preset(42)  # type: ignore[arg-type]


def test_near_names_prefers_a_prefix_then_close_spellings():
    known = {"alpha-one": "alpha-one", "alpha-two": "alpha-two", "beta": "beta", "betta-x": "betta-x"}
    assert near_names("alpha", known) == "'alpha-one' or 'alpha-two'"
    assert near_names("bet", known) == "'beta' or 'betta-x'"
    assert near_names("btea", known) == "'beta'"
    assert near_names("zzz", known) == ""
    assert near_names("ALPHA-T", known) == "'alpha-two'"


# -- System.text: a whole trace step ------------------------------------------------------------

D100 = get_system("d100-homebrew")


def test_a_whole_step_translates_as_a_step_and_as_its_line():
    step = evaluate(find_preset("d100-homebrew/burst-3-vs-dodge-45").scenario).trace[2]
    assert str(step).startswith("Attack 1: Shooting (ranged), 3 hits, modifier to Evasion +0; ")
    expected = ("Атака 1: Стрелковая (дистанционная), 3 попадания, модификатор к Избеганию +0; бросок "
                "Dodge(A): порог 45 (A 45, продвижение +0, модификатор +0, атака +0) [Домашние правила "
                "d100, «Избегание» › «Уклонение», абз. 1]")
    assert D100.text(step, "ru") == expected
    assert D100.text(str(step), "ru") == expected


def test_a_step_whose_rule_has_a_colon_is_cut_where_the_rule_ends():
    step = TraceStep("Attack 1: what became of its 3 hits (expected)",
                     "roll made: 1; evaded by its own roll: 0; by leftover Successes: 0; negated by a "
                     "Leap: 0; landing: 3; against Cover: 0",
                     "d100 homebrew, Evading multiple hits and attacks, ¶2")
    expected = ("Атака 1: что стало с её 3 попаданиями (в среднем): бросок сделан: 1; избегнуто своим "
                "броском: 0; оставшимися Успехами: 0; нивелировано Отскоком: 0; прошло: 3; с АР Укрытия: "
                "0 [Домашние правила d100, «Избегание множественных попаданий и атак», абз. 2]")
    assert D100.text(step, "ru") == expected
    assert D100.text(str(step), "ru") == expected


def test_every_step_of_every_d100_preset_and_roll_reads_the_same_either_way():
    """The same words either way; the step itself also has its numbers written the Russian way
    (a line is translated word for word: a page that writes numbers itself hands over parts)."""
    steps = set()
    for preset in D100.presets:
        steps.update(evaluate(preset.scenario).trace)
        for seed in (1, 2, 3):
            steps.update(play_once(D100, preset.scenario, seed=seed).trace)
    assert len(steps) > 50
    decimals = 0
    for step in steps:
        russian = D100.text(step, "ru")
        line = D100.text(str(step), "ru")
        assert localised_numbers(line, "ru") == russian, str(step)
        assert russian != str(step)
        decimals += line != russian
    assert decimals > 0  # some steps have numbers with decimals, and those differ


def test_in_the_first_language_or_without_a_translator_a_step_is_its_line():
    step = TraceStep("Rule", "detail: more", "Source, p. 1")
    assert D100.text(step, "en") == "Rule: detail: more [Source, p. 1]"
    infinity = get_system("infinity-n4")
    assert infinity.text(step, "ru") == "Rule: detail: more [Source, p. 1]"
    assert D100.text(TraceStep("Unknown rule", "unknown detail"), "ru") == "Unknown rule: unknown detail"
    # a text that is not a step still translates as itself
    assert D100.text("P(dodge succeeds)", "ru") == "P(каждый бросок Избегания успешен)"


def test_a_designers_rule_is_refused_the_same_way(designed_rule):
    from tests.example_rule import TwoD10

    with pytest.raises(ScenarioError) as caught:
        worth(TwoD10(dodges=False))
    assert str(caught.value) == (
        "invalid my-2d10 scenario for worth: field 'dodges': got False; allowed: a reaction to be worth "
        "something — with False the defender makes no reaction, so with and without it are the same; "
        "True, or a preset where the defender reacts, e.g. 'my-2d10/skilled'")
