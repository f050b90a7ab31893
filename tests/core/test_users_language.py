"""Issue 26, in code: a frozen field's assignment points to ``.set()`` (item 5), and every
field's help, range, step and citation can be read from the scenario (item 3)."""

from __future__ import annotations

import html
import pydoc
from decimal import Decimal

import pytest

from rules_core import find_preset, get_system
from rules_core.scenario import FieldHelp, FrozenFieldError, ScenarioError, fields_of

INFINITY = find_preset("infinity-n4/zhanshi-vs-fusilier").scenario
GURPS = get_system("gurps-4e").presets[0].scenario
D100 = get_system("d100-homebrew").presets[0].scenario


# -- item 5: assignment to a frozen field -----------------------------------------------------

@pytest.mark.parametrize("assign, shows", [
    (lambda: setattr(INFINITY.dodger, "ph", 12),
     ['scenario.set("dodger.ph", 12)', 'scenario.replace(**{"dodger.ph": 12})']),
    (lambda: setattr(INFINITY.attackers[0], "burst", 4),
     ['scenario.set("attackers.0.burst", 4) (0: the item\'s index)']),
    (lambda: setattr(INFINITY, "minus_three", "stacking"),
     ["scenario.set(\"minus_three\", 'stacking')", "scenario.replace(minus_three='stacking')"]),
    (lambda: setattr(GURPS.dodger, "basic_speed", 7),
     ['scenario.set("dodger.basic_speed", 7)']),
    (lambda: setattr(D100.attacks[0], "evasion_modifier", -5),
     ['scenario.set("attacks.0.evasion_modifier", -5)']),
    (lambda: delattr(INFINITY.dodger, "ph"), ["cannot be deleted", 'scenario.set("dodger.ph", ...)']),
    (lambda: setattr(INFINITY, "phh", 1), ["has no field 'phh'", "dodger, attackers"]),
])
def test_assigning_a_field_points_to_set(assign, shows):
    with pytest.raises(FrozenFieldError) as caught:
        assign()
    message = str(caught.value)
    assert "immutable" in message
    for words in shows:
        assert words in message
    assert "errors.pydantic.dev" not in message and "Instance is frozen" not in message
    assert isinstance(caught.value, AttributeError)  # what Python says of a read-only attribute


def test_the_edit_the_message_shows_works():
    with pytest.raises(FrozenFieldError) as caught:
        INFINITY.dodger.ph = 12
    shown = str(caught.value).split("instead: scenario = ")[1].split(", or")[0]
    assert eval(shown, {"scenario": INFINITY}).dodger.ph == 12  # noqa: S307 - our own message
    assert INFINITY.dodger.ph == 10  # the preset itself is unchanged


def test_a_block_in_no_scenario_speaks_of_itself():
    from rules_core.scenario import Part, number

    class Lone(Part):
        """A block no scenario holds."""

        x: int = number(1, ge=0, le=3, label="X", help="x.")

    with pytest.raises(FrozenFieldError, match=r'part = part\.set\("x", 2\)'):
        Lone().x = 2


# -- item 3: help in code ---------------------------------------------------------------------

def test_describe_says_why_partial_cover_leaves_the_dodge_alone():
    described = INFINITY.set("attackers.0.partial_cover", True).describe("attackers.0.partial_cover")
    assert isinstance(described, FieldHelp)
    assert described.value is True and described.default is False
    assert described.label == "Dodger in Partial Cover"
    assert described.allowed == "true or false"
    assert "belongs in the attacker's MODs" in described.help
    assert "Partial Cover" in described.citation and "Infinity N4" in described.citation
    text = str(described)
    assert text.splitlines()[0] == "attackers.0.partial_cover: Dodger in Partial Cover"
    assert "value: True (default False)" in text
    assert "help: +3 to the dodger's Saving Rolls" in text and "source: Infinity N4" in text
    assert repr(described) == text


def test_describe_a_number_gives_range_step_and_value():
    speed = GURPS.set("dodger.basic_speed", 6.25).describe("dodger.basic_speed")
    assert speed.value == Decimal("6.25") and speed.step == Decimal("0.25")
    assert speed.allowed == "a number from 1 to 20 in steps of 0.25"
    assert "B17" in speed.citation
    modifier = D100.describe("attacks.0.evasion_modifier")
    assert modifier.step == 5 and "in steps of 5" in modifier.allowed and "in steps of 5" in str(modifier)


def test_describe_a_choice_names_its_labels():
    defense = GURPS.describe("dodger.defense")
    assert ("retreat", "Dodge with a retreat (+3)") in defense.choices
    assert "'retreat' = Dodge with a retreat (+3)" in str(defense)


def test_describe_refuses_a_path_that_names_nothing():
    with pytest.raises(ScenarioError, match="attackers.7"):
        INFINITY.describe("attackers.7.burst")
    with pytest.raises(ScenarioError, match="no such field"):
        INFINITY.describe("dodger.phh")


def _every_leaf_spec(cls, done=()):
    for spec in fields_of(cls):
        if spec.part_cls is not None:
            yield from _every_leaf_spec(spec.part_cls, (*done, spec.name))
        else:
            yield done, spec


@pytest.mark.parametrize("system_id", ["infinity-n4", "gurps-4e", "eldfall", "d100-homebrew"])
def test_describe_help_and_docstring_carry_every_fields_help_and_citation(system_id):
    system = get_system(system_id)
    scenario = system.presets[0].scenario
    page = scenario._repr_html_()
    assert "<th style='padding:1px 8px;text-align:left;vertical-align:top'>help</th>" in page
    doc = pydoc.render_doc(type(scenario), renderer=pydoc.plaintext)
    for path in scenario.paths():
        described = scenario.describe(path)
        assert described.help and described.help in str(described)
        if described.citation:
            assert described.citation in str(described)
        # the rich display's row and help()'s text for this field carry its help and source
        assert html.escape(described.help) in page, path
        assert html.escape(described.citation) in page, path
    flat = " ".join(doc.split())
    for done, spec in _every_leaf_spec(type(scenario)):
        assert " ".join(spec.help.split()) in flat, (done, spec.name)
        assert " ".join(spec.citation.split()) in flat, (done, spec.name)


def test_completion_offers_describe():
    assert "describe" in dir(INFINITY)


# -- item 1: edits judged on the final scenario; a refused combination named as one -------------

from rules_core import evaluate, load_scenario  # noqa: E402
from rules_core.scenario import Combination  # noqa: E402

DROP = find_preset("gurps-4e/rapid-fire-dodge-and-drop").scenario


def test_several_changes_are_judged_together_in_any_order():
    # a dodge and drop against a melee attack is refused, a retreat against it is not: the two
    # changes together are taken whichever is named first
    for changes in ({"dodger.defense": "retreat", "attacks.0.kind": "melee"},
                    {"attacks.0.kind": "melee", "dodger.defense": "retreat"}):
        changed = DROP.replace(**changes)
        assert (changed.dodger.defense, changed.attacks[0].kind) == ("retreat", "melee")
    with pytest.raises(ScenarioError) as refused:
        DROP.set("attacks.0.kind", "melee")
    problem, = refused.value.problems
    assert isinstance(problem.allowed, Combination)
    assert problem.allowed.fields() == ("dodger.defense", "attacks.0.kind")
    assert str(refused.value) == (
        "invalid gurps-4e scenario: the combination 'dodger.defense' = 'dodge_and_drop' and 'attacks.0.kind' = "
        "'melee': a dodge and drop works only against ranged attacks (B377): the attack is melee — choose Dodge "
        "or Dodge with a retreat, or make the attack ranged")


def _without_trace(result):
    return {k: v for k, v in result.headline.items()}


def test_a_retreat_against_a_ranged_attack_is_computed_with_no_bonus():
    # B377: a retreat helps only against melee; against the preset's burst it is a plain Dodge
    retreat = DROP.set("dodger.defense", "retreat")  # the example, refused before
    plain = DROP.set("dodger.defense", "plain")
    assert _without_trace(evaluate(retreat)) == _without_trace(evaluate(plain))
    said = [str(step) for step in evaluate(retreat).trace]
    assert any("Retreat: +0: a retreat helps only against melee attacks; against this ranged attack it gives "
               "no bonus" in line for line in said), said
    step = next(step for step in evaluate(retreat).trace if step.rule.endswith("Retreat"))
    assert step.citation == "GURPS Basic Set 4e p. B377 (Retreating: +3 to Dodge)"
    # against a melee blow the same retreat is +3: a different chance
    blow = retreat.set("attacks.0.kind", "melee")
    assert evaluate(blow).headline["p_dodge_succeeds"] > evaluate(blow.set("dodger.defense", "plain")).headline[
        "p_dodge_succeeds"]


def test_a_retreat_in_a_mixed_turn_helps_against_the_blow_only():
    # Dodge 9 (Basic Speed 6) against a melee blow then a shot, fixed hits: +3 against the blow
    # only. P(both dodges succeed) = P(3d6 <= 12) x P(3d6 <= 9) = 160/216 x 81/216.
    from fractions import Fraction

    turn = load_scenario({"system": "gurps-4e", "dodger": {"defense": "retreat"},
                          "attacks": [{"kind": "melee", "hits_by": "fixed", "hits": 1},
                                      {"kind": "ranged", "hits_by": "fixed", "hits": 1}]})
    assert evaluate(turn).headline["p_dodge_succeeds"] == Fraction(160, 216) * Fraction(81, 216)


COMBINATIONS = [
    # (system, data, the fields named, words of the rule, citation)
    ("gurps-4e", {"dodger": {"defense": "dodge_and_drop"}, "attacks": [{"kind": "melee"}]},
     ("dodger.defense", "attacks.0.kind"), "a dodge and drop works only against ranged attacks", "(B377)"),
    ("gurps-4e", {"situation": "sacrificial", "dodger": {"defense": "retreat"}},
     ("situation", "dodger.defense"), "a sacrificial dodge is made without a retreat", "(B375)"),
    ("gurps-4e", {"situation": "sacrificial", "attacks": [{}, {}]},
     ("situation", "attacks"), "against the one attack aimed at the friend", "(B375)"),
    ("gurps-4e", {"dodger": {"defense": "none", "acrobatic": True}},
     ("dodger.defense", "dodger.acrobatic"), "an acrobatic dodge is a way of making a Dodge roll", "(B375)"),
    ("gurps-4e", {"dodger": {"defense": "dodge_and_drop", "posture": "lying"}},
     ("dodger.defense", "dodger.posture"), "throws you to the ground", "(B377)"),
    ("gurps-4e", {"situation": "dive", "dodger": {"defense": "plain", "posture": "crawling"}},
     ("situation", "dodger.posture"), "diving for cover is a dodge and drop", "(B377)"),
    ("gurps-4e", {"dodger": {"defense": "dodge_and_drop", "flying": True}},
     ("dodger.defense", "dodger.flying", "dodger.below_terrain"), "below concealing terrain", "(B377)"),
    ("gurps-4e", {"target": {"location": "vitals"}, "attacks": [{"damage_type": "cr"}]},
     ("target.location", "attacks.0.damage_type"), "only impaling and piercing attacks", "(B398-399)"),
    ("gurps-4e", {"attacks": [{"damage_type": "cut"}, {"damage_type": "fat"}]},
     ("attacks.0.damage_type", "attacks.1.damage_type"), "fatigue damage comes off FP", "(B426)"),
    ("gurps-4e", {"situation": "smother", "blast": {"spread": "area"}},
     ("situation", "blast.spread"), "only on an explosive", "(B377)"),
    ("gurps-4e", {"situation": "smother", "blast": {"distance": 3}},
     ("situation", "blast.distance"), "no more than a step away", "(B377)"),
    ("gurps-4e", {"target": {"hp": 8, "hp_left": 9}},
     ("target.hp", "target.hp_left"), "HP left cannot exceed the full HP", "(B16)"),
    ("gurps-4e", {"target": {"fp": 8, "fp_left": 9}},
     ("target.fp", "target.fp_left"), "FP left cannot exceed the full FP", "(B16)"),
    ("infinity-n4", {"dodger": {"immobilized": "IMM-B"}},
     ("dodger.immobilized", "dodger.dodges"), "a trooper in IMM-B cannot Dodge", "(N4 Core Rules, Immobilized-B"),
    ("d100-homebrew", {"attacks": [{"kind": "melee", "covers_whole_base": True}]},
     ("attacks.0.kind", "attacks.0.covers_whole_base"), "only a shooting attack", "(d100 homebrew, Evasion › Leap"),
]


@pytest.mark.parametrize("system_id, data, fields, rule, citation", COMBINATIONS)
def test_each_refused_combination_is_named_with_its_rule_and_citation(system_id, data, fields, rule, citation):
    from workbook.page.notices import link_notice, problem_words
    from workbook.page.share import decode_query, encode_query
    from workbook.page.text import translator

    with pytest.raises(ScenarioError) as refused:
        load_scenario({"system": system_id, **data})
    problem, = refused.value.problems
    sentence = problem.allowed
    assert isinstance(sentence, Combination) and sentence.fields() == fields
    assert problem.field in fields
    assert sentence.startswith(rule) or f" {rule}" in sentence
    assert citation in sentence and " — " in sentence  # the rule, its source, then the ways out
    message = str(refused.value)
    assert message.startswith(f"invalid {system_id} scenario: the combination ")
    assert all(f"'{f}' = " in message for f in fields) and message.endswith(sentence)
    # the same words in a refused file ...
    system = get_system(system_id)
    assert problem_words(system, problem).endswith(f": {sentence}")
    # ... and in a refused link: the fields by their labels, then the very sentence
    query = "&".join(f"{path}={_link_value(value)}" for path, value in _flat(data))
    shared = decode_query(system, query)
    assert shared.scenario is None, query
    notice = link_notice(system, query, translator(system, "en"), fallback=shared.notice)
    assert f": {sentence}. Showing the default scenario." in notice, notice


def _flat(data, done=""):
    for key, value in data.items():
        if isinstance(value, dict):
            yield from _flat(value, f"{done}{key}.")
        elif isinstance(value, list):
            for i, item in enumerate(value):
                yield from _flat(item, f"{done}{key}.{i}.") if item else [(f"{done}{key}.{i}.hits", 1)]
        else:
            yield f"{done}{key}", value


def _link_value(value):
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value if not isinstance(value, int) else str(value)


def test_the_form_marks_every_field_of_a_refused_combination_with_the_same_words():
    from workbook.pages.dashboard import Dashboard

    dash = Dashboard("gurps-4e", query="preset=rapid-fire-dodge-and-drop")
    assert not dash.form.error
    dash.form.control("dodger.posture").value = "lying"
    sentence = ("a dodge and drop: it throws you to the ground, so you cannot be down already (B377): the dodger "
                "is lying down — choose standing, crouching, kneeling or sitting, or choose another defense")
    assert sentence in dash.form.error  # the form's own notice
    for path in ("dodger.defense", "dodger.posture"):
        assert "wb-invalid" in dash.form.control(path)._dom_classes, path
    page = " ".join(w.value for w in _html_widgets(dash.widget))
    assert page.count(sentence) >= 2  # beside each marked field
    dash.form.control("dodger.posture").value = "standing"
    assert not dash.form.error


def _html_widgets(widget):
    import ipywidgets as widgets

    if isinstance(widget, widgets.HTML):
        yield widget
    for child in getattr(widget, "children", ()):
        yield from _html_widgets(child)
