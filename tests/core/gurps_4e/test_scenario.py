"""The GURPS scenario: refusals name the field, drawn data is valid by construction, the size
limit, and the package's files importing only those above them (no cycle)."""

from __future__ import annotations

import ast
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rules_core import ScenarioError, load_scenario
from rules_core.scenario import fields_of
from rules_core.systems import gurps_4e
from rules_core.systems.gurps_4e.scenario import SIZE_LIMIT, GurpsScenario, turn_size
from strategies import scenario_strategy

from .small import fix

#: The package's files, each importing only those before it.
ORDER = ("sources", "damage", "scenario", "dice", "outcomes", "play", "exact", "presets", "__init__")


def test_each_file_imports_only_those_above_it():
    folder = Path(gurps_4e.__file__).parent
    assert {p.stem for p in folder.glob("*.py")} == set(ORDER)
    for name in ORDER:
        tree = ast.parse((folder / f"{name}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):  # every import, at the top or inside a function
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                used = [node.module] if node.module else [alias.name for alias in node.names]
                for module in used:
                    assert ORDER.index(module) < ORDER.index(name), f"{name}.py imports .{module}"


@pytest.mark.parametrize("data, field, words", [
    ({"dodger": {"defense": "dodge_and_drop"}, "attacks": [{"kind": "melee"}]}, "attacks.0.kind",
     "only against ranged"),
    ({"dodger": {"defense": "dodge_and_drop", "posture": "lying"}}, "dodger.posture", "cannot be down already"),
    ({"dodger": {"defense": "dodge_and_drop", "flying": True}}, "dodger.below_terrain", "concealing terrain"),
    ({"target": {"hp": 8, "hp_left": 9}}, "target.hp_left", "at most the full HP (8)"),
    ({"target": {"location": "vitals"}}, "attacks.0.damage_type", "only impaling and piercing"),
    ({"attacks": [{"damage_type": "fat"}, {"damage_type": "cr"}]}, "attacks.0.damage_type", "comes off FP"),
    ({"situation": "sacrificial", "attacks": [{}, {}]}, "attacks", "the one attack aimed at the friend"),
    ({"situation": "sacrificial", "dodger": {"defense": "retreat"}}, "dodger.defense", "sacrificial"),
    ({"situation": "dive", "dodger": {"defense": "none", "acrobatic": True}}, "dodger.acrobatic", "no Dodge to make acrobatic"),
    ({"situation": "smother", "blast": {"distance": 3}}, "blast.distance", "a step away"),
    ({"dodger": {"defense": "none", "acrobatic": True}}, "dodger.acrobatic", "no Dodge to make acrobatic"),
    ({"attacks": [{"damage": "2d8"}]}, "attacks.0.damage", "six-sided"),
    ({"attacks": [{"damage": "two dice"}]}, "attacks.0.damage", "such as 2d+1"),
    ({"blast": {"damage": "0d"}}, "blast.damage", "has 0 dice; expected 1 to 30"),
    ({"attacks": [{"rof": 20, "skill": 30, "recoil": 1, "damage": "4d", "damage_type": "pi+"}] * 4},
     "attacks", "small enough to compute exactly"),
])
def test_refusals_name_the_field(data, field, words):
    with pytest.raises(ScenarioError) as err:
        load_scenario({"system": "gurps-4e", **data})
    problem, = err.value.problems
    assert problem.field == field and words in problem.allowed, str(err.value)


def test_the_size_limit_is_the_scenarios_own():
    # A burst of RoF 50 at 3d is well inside the limit; four bursts of RoF 20 at 4d just over it.
    burst = {"system": "gurps-4e", "attacks": [{"rof": 50, "skill": 30, "recoil": 1, "damage": "3d"}]}
    assert turn_size(load_scenario(burst)) < SIZE_LIMIT / 2
    with pytest.raises(ScenarioError, match=r"this one is 1\.\d times the limit"):
        load_scenario({"system": "gurps-4e", "attacks": [{"rof": 20, "damage": "4d", "damage_type": "pi+"}] * 4})
    assert turn_size(load_scenario({"system": "gurps-4e", "situation": "dive"})) == 0


# -- drawn data ------------------------------------------------------------------------------------

def test_drawn_data_is_valid_by_construction():
    # The generic test draws through small.py; at least 90% of its scenarios must evaluate.
    counts = {"valid": 0, "refused": 0}

    @settings(max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.data())
    def draw(data):
        try:
            load_scenario(data.draw(scenario_strategy("gurps-4e", small=True)))
        except ScenarioError:
            counts["refused"] += 1
        else:
            counts["valid"] += 1

    draw()
    assert counts["valid"] >= 0.9 * (counts["valid"] + counts["refused"]), counts


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_in_range_data_is_valid_or_refused_naming_fields(data):
    # Every field within its own range, combined at random (a retreat against a ranged attack, a
    # dodge and drop while lying down ...): either it is a scenario or each problem names a field.
    raw = data.draw(scenario_strategy("gurps-4e", small=False))
    raw["attacks"] = raw["attacks"][:2]
    try:
        load_scenario(raw)
    except ScenarioError as err:
        assert err.problems
        for problem in err.problems:
            assert problem.field.split(".")[0] in raw and problem.allowed, str(err)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fix_leaves_what_it_fixed_alone(data):
    # fix() settles every conflict at once: fixing again changes nothing.
    raw = data.draw(scenario_strategy("gurps-4e", small=True))
    fixed = fix(raw)
    assert fix(fixed) == fixed


def numeric_paths(cls, prefix=()):
    """(path, FieldSpec) of every number field, through parts (first item of a list)."""
    for spec in fields_of(cls):
        if spec.kind in ("int", "float"):
            yield prefix + (spec.name,), spec
        elif spec.kind == "part":
            yield from numeric_paths(spec.part_cls, prefix + (spec.name,))
        elif spec.kind == "parts":
            yield from numeric_paths(spec.part_cls, prefix + (spec.name, 0))


NUMBERS = list(numeric_paths(GurpsScenario))


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(NUMBERS), st.sampled_from(["below", "above", "text", "bool"]))
def test_one_field_out_of_range_is_named(path_spec, how):
    path, spec = path_spec
    data = GurpsScenario().to_data()
    value = {"below": spec.minimum - 1, "above": spec.maximum + 1, "text": "seven", "bool": [True]}[how]
    node = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    try:
        load_scenario(data)
    except ScenarioError as err:
        assert ".".join(map(str, path)) in [p.field for p in err.problems], str(err)
    else:
        raise AssertionError(f"{path} = {value!r} was accepted")


def test_the_attack_skill_says_what_it_includes_and_what_the_workbook_adds():
    """The field is the attacker's skill *before* the two modifiers the rule adds itself; its label
    says so, and its help states them with the values the rule really applies."""
    import re

    from rules_core import evaluate
    from rules_core.systems.gurps_4e.dice import rof_bonus

    spec = {s.name: s for s in fields_of(gurps_4e.Attack)}["skill"]
    assert spec.label == "Attacker's effective skill, before RoF bonus and target's posture"
    bands = re.findall(r"\+(\d) at (?:RoF )?(\d+)(?:–(\d+)| or more)", spec.help)
    assert len(bands) == 6
    for bonus, low, high in bands:  # each band as the rule applies it, at both of its ends
        assert rof_bonus(int(low)) == int(bonus) and rof_bonus(int(high or 99)) == int(bonus)
    assert rof_bonus(4) == 0
    assert "−2 when the dodger is not standing" in spec.help
    base = {"system": "gurps-4e", "attacks": [{"kind": "ranged", "skill": 12}]}
    for posture in ("crouching", "kneeling", "sitting", "crawling", "lying"):
        assert posture in spec.help
        trace = evaluate(load_scenario({**base, "dodger": {"posture": posture}})).trace
        assert any(t.rule.endswith("Target's posture") and t.detail.startswith(f"-2 ({posture}) → 10") for t in trace)
    standing = evaluate(load_scenario(base)).trace
    assert not any(t.rule.endswith("Target's posture") for t in standing)


def test_a_turn_too_large_to_compute_is_refused_with_its_attacks_and_hits(monkeypatch):
    import sys

    from rules_core.systems.gurps_4e.scenario import turn_size
    big = {"system": "gurps-4e", "attacks": [{"rof": 20, "damage": "20d"},
                                             {"hits_by": "fixed", "hits": 2, "damage": "1d"}]}
    with pytest.raises(ScenarioError) as refused:
        load_scenario(big)
    assert "got '2 attack(s), up to 22 hits in all'" in str(refused.value)
    assert str(refused.value).endswith("allowed: a turn small enough to compute exactly (this one is 2.7 times the "
                                       "limit): fewer attacks, a lower RoF or fewer hits, or smaller damage")
    # A turn of exactly the limit is computed; one past it is refused.
    small = load_scenario(dict(big, attacks=big["attacks"][1:]))
    module = sys.modules["rules_core.systems.gurps_4e.scenario"]
    monkeypatch.setattr(module, "SIZE_LIMIT", turn_size(small))
    assert load_scenario(dict(big, attacks=big["attacks"][1:])) == small
    monkeypatch.setattr(module, "SIZE_LIMIT", turn_size(small) - 1)
    with pytest.raises(ScenarioError):
        load_scenario(dict(big, attacks=big["attacks"][1:]))


@pytest.mark.parametrize("data, message", [
    ({"situation": "sacrificial", "attacks": [{}, {}]},
     "the combination 'situation' = 'sacrificial' and 'attacks' = 2: a sacrificial dodge is against the one "
     "attack aimed at the friend (B375): this turn has 2 attacks — keep one attack, or choose the situation "
     "Attacks on the dodger"),
    ({"situation": "sacrificial", "dodger": {"defense": "retreat"}},
     "the combination 'situation' = 'sacrificial' and 'dodger.defense' = 'retreat': a sacrificial dodge is made "
     "without a retreat (B375): the defense is a retreat — choose Dodge (sacrificial dodge), Dodge and drop "
     "(sacrificial dodge and drop), or No defense (the friend defends alone)"),
    ({"dodger": {"defense": "dodge_and_drop"}, "attacks": [{"kind": "melee"}]},
     "the combination 'dodger.defense' = 'dodge_and_drop' and 'attacks.0.kind' = 'melee': a dodge and drop works "
     "only against ranged attacks (B377): the attack is melee — choose Dodge or Dodge with a retreat, or make "
     "the attack ranged"),
    ({"target": {"location": "vitals"}, "attacks": [{"damage_type": "cr"}]},
     "the combination 'target.location' = 'vitals' and 'attacks.0.damage_type' = 'cr': only impaling and "
     "piercing attacks can target the vitals (B398-399): the attack does cr — choose imp, pi-, pi, pi+ or pi++, "
     "or another hit location")])
def test_each_combination_the_rules_refuse_says_its_field_value_and_why(data, message):
    with pytest.raises(ScenarioError) as refused:
        load_scenario({"system": "gurps-4e", **data})
    assert str(refused.value) == f"invalid gurps-4e scenario: {message}"


def test_a_blast_situation_does_not_check_the_attacks_it_does_not_use():
    dive = load_scenario({"system": "gurps-4e", "situation": "dive", "dodger": {"defense": "dodge_and_drop"},
                          "attacks": [{}, {"kind": "melee"}]})
    assert dive.situation == "dive" and len(dive.attacks) == 2


def test_the_turns_size_by_hand():
    from rules_core.systems.gurps_4e.scenario import turn_size

    def size(**data):
        return turn_size(load_scenario({"system": "gurps-4e", **data}))
    two = [{"hits_by": "fixed", "hits": 2, "damage": "1d", "damage_type": "cr"}]
    # Bits: 32 + ⌈2 hits × 1 die × log2 6⌉ = 38; injury values: 0 to 2 × 6 (1d cr, DR 0) = 13.
    assert size(attacks=two) == 38 * 13
    # A sacrificial dodge counts the larger of the dodger's and the friend's injury: behind DR 3
    # the dodger takes at most 3 a hit, the friend (DR 0) 6.
    assert size(situation="sacrificial", attacks=two, target={"dr": 3}) == 38 * 13
    assert size(attacks=two, target={"dr": 3}) == 38 * 7
    # A blast is always small, whatever attacks the scenario still carries.
    assert size(situation="smother", attacks=two) == size(situation="dive", attacks=two) == 0


def test_fatigue_and_hp_damage_in_one_turn_are_refused_at_the_fatigue_attack():
    with pytest.raises(ScenarioError) as refused:
        load_scenario({"system": "gurps-4e", "attacks": [{"damage_type": "cut"}, {"damage_type": "fat"}]})
    assert refused.value.problems[0].field == "attacks.1.damage_type"
    assert str(refused.value) == (
        "invalid gurps-4e scenario: the combination 'attacks.0.damage_type' = 'cut' and 'attacks.1.damage_type' = "
        "'fat': fatigue damage comes off FP and other damage off HP, and a turn is counted in one of them (B426): "
        "attack 2 is fat and attack 1 is not — make every attack this turn fat, or none")


@pytest.mark.parametrize("data, found", [
    # in a turn of several attacks the words name the attack, counted from 1
    ({"dodger": {"defense": "dodge_and_drop"}, "attacks": [{}, {"kind": "melee"}]}, "attack 2 is melee"),
    ({"target": {"location": "vitals"}, "attacks": [{"damage_type": "imp"}, {"damage_type": "cr"}]},
     "attack 2 does cr"),
    ({"attacks": [{"damage_type": "fat"}, {"damage_type": "cut"}]}, "attack 1 is fat and attack 2 is not"),
    # a sacrificial dodge's one attack is "the attack", though the scenario may carry others
    ({"situation": "sacrificial", "dodger": {"defense": "dodge_and_drop"}, "attacks": [{"kind": "melee"}]},
     "the attack is melee")])
def test_a_refused_attack_is_named_by_its_place_in_the_turn(data, found):
    with pytest.raises(ScenarioError) as refused:
        load_scenario({"system": "gurps-4e", **data})
    assert f"): {found} — " in str(refused.value)


def test_no_active_defense_means_no_evasion_roll_in_every_situation():
    from rules_core import evaluate
    no_roll = "The dodger makes no active defense, so no evasion roll is made."
    for situation in ("attacks", "sacrificial", "smother", "dive"):
        still = evaluate(load_scenario({"system": "gurps-4e", "situation": situation, "dodger": {"defense": "none"}}))
        assert still.headline["p_dodge_succeeds"] is None, situation
        assert still.notes["p_dodge_succeeds"] == no_roll
        assert still.distributions["ends_prone"][True] == 0
    # Diving for cover is a dodge and drop of its own (B377) whatever other defense the form names:
    # Dodge 9 + 3, 3d6 ≤ 12 on 160 of 216.
    for defense in ("plain", "retreat", "dodge_and_drop"):
        dive = evaluate(load_scenario({"system": "gurps-4e", "situation": "dive", "dodger": {"defense": defense}}))
        assert dive.headline["p_dodge_succeeds"] == Fraction(20, 27) and "p_dodge_succeeds" not in dive.notes


def test_the_attack_steps_of_the_trace_at_their_edges():
    from rules_core import evaluate

    def said(**data):
        result = evaluate(load_scenario({"system": "gurps-4e", **data}))
        return result, [(t.rule, t.detail) for t in result.trace]
    # Effective skill 3 is rolled (B344: no roll below 3): only 3 or 4 succeed, critical hits
    # (4 of 216 ways), which no Dodge can meet. 3 − 2 against a lying target is not rolled.
    standing, lines = said(attacks=[{"skill": 3}])
    assert standing.headline["p_no_hit"] == Fraction(53, 54)
    assert not any(rule.endswith("No attack roll") for rule, _ in lines)
    lying, lines = said(dodger={"posture": "lying"}, attacks=[{"skill": 3}])
    step, = [t for t in lying.trace if t.rule == "Attack 1: No attack roll"]
    assert (step.detail, step.citation) == ("effective skill 1 is below 3: the attack cannot be made",
                                            "GURPS Basic Set 4e p. B344 (no roll below effective skill 3, "
                                            "except defense rolls)")
    assert lying.notes["p_dodge_succeeds"] == ("No hit ever arrives that the dodger may defend against (misses, "
                                               "critical hits or blocked attacks).")
    assert ("Attack 1: Effective Dodge", "6 against this ranged attack") in lines
    # After a dodge and drop: behind complete cover the foe cannot attack; with no cover, no
    # cover step at all.
    _, full = said(dodger={"defense": "dodge_and_drop"}, cover={"kind": "full"}, attacks=[{}, {}])
    assert ("Attack 2 after the dodge and drop: Cover", "complete cover: the foe cannot attack the dodger") in full
    _, none = said(dodger={"defense": "dodge_and_drop"}, attacks=[{}, {}])
    assert not any(rule.endswith("Cover") for rule, _ in none)
    assert ("Attack 2 after the dodge and drop: Effective Dodge", "9 against this ranged attack") in none


def test_a_blast_situation_does_not_mix_fatigue_with_the_attacks_it_does_not_use():
    dive = load_scenario({"system": "gurps-4e", "situation": "dive",
                          "attacks": [{"damage_type": "cut"}, {"damage_type": "fat"}]})
    assert dive.situation == "dive"
