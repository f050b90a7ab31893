"""Editing scenarios in code: dotted paths, partial nested changes, list items by index, the
repr, the docstring's field list, completion and the notebook display."""

from __future__ import annotations

import copy
import inspect
import json
from decimal import Decimal

import jedi
import pytest

from rules_core import evaluate, find_preset, get_system, load_scenario
from rules_core.scenario import ScenarioError

SEED = find_preset("infinity-n4/zhanshi-vs-fusilier").scenario
GURPS = get_system("gurps-4e").default_scenario()


def by_hand(scenario, edit):
    """The scenario rebuilt from its plain data after ``edit(data)``: a reference that shares
    nothing with the editing code but the validation."""
    data = copy.deepcopy(scenario.to_data())
    edit(data)
    return load_scenario(data)


def test_the_preset_has_what_the_tests_rely_on():
    # A reset to the defaults would show: the seed's attacker has MOD +3, the default is 0.
    assert SEED.attackers[0].mod == 3 and get_system("infinity-n4").scenario_cls().attackers[0].mod == 0


def test_set_by_dotted_path_changes_that_field_only():
    def edit(d):
        d["dodger"]["ph"] = 13
    assert SEED.set("dodger.ph", 13) == by_hand(SEED, edit)
    assert SEED.set("dodger.ph", 13).get("dodger.ph") == 13


def test_replace_takes_several_dotted_paths():
    def edit(d):
        d["dodger"]["ph"] = 13
        d["attackers"][0]["burst"] = 4
    assert SEED.replace(**{"dodger.ph": 13, "attackers.0.burst": 4}) == by_hand(SEED, edit)


def test_a_dict_for_a_block_changes_only_the_fields_it_names():
    changed = SEED.replace(dodger={"ph": 13})
    assert changed.dodger.ph == 13
    assert changed.dodger.arm == SEED.dodger.arm and changed.dodger.wip == SEED.dodger.wip
    assert changed.attackers == SEED.attackers


def test_a_dict_for_a_list_item_merges_into_that_item():
    # The example: the preset attacker keeps its MOD +3 when only its burst is named.
    changed = SEED.replace(attackers=[{"burst": 4}])
    assert changed.attackers[0].burst == 4 and changed.attackers[0].mod == 3
    assert changed.attackers[0].value == SEED.attackers[0].value


def test_a_list_becomes_as_long_as_given_and_new_items_start_from_the_defaults():
    two = SEED.replace(attackers=[{}, {"burst": 2}])
    default = get_system("infinity-n4").scenario_cls().attackers[0]
    assert two.attackers[0] == SEED.attackers[0]
    assert two.attackers[1] == default.replace(burst=2) and two.attackers[1].mod == 0
    assert two.replace(attackers=[{}]).attackers == SEED.attackers


def test_a_part_replaces_the_block_whole():
    fresh = type(SEED.dodger)()
    assert SEED.replace(dodger=fresh).dodger == fresh
    assert SEED.set("attackers.0", type(SEED.attackers[0])()).attackers[0].mod == 0


def test_a_dict_at_a_dotted_item_path_merges_into_that_item():
    def edit(d):
        d["attackers"][0].update(burst=4, dodge_mod=-3)
    assert SEED.replace(**{"attackers.0": {"burst": 4, "dodge_mod": -3}}) == by_hand(SEED, edit)
    assert SEED.get("system") == "infinity-n4"


def test_a_dotted_index_one_past_the_end_adds_an_item():
    added = SEED.set("attackers.1.burst", 2)
    assert len(added.attackers) == 2 and added.attackers[1].burst == 2
    assert added.attackers[0] == SEED.attackers[0]


def test_add_and_remove_items_by_index():
    added = SEED.add_item("attackers", {"burst": 1, "mod": -3}, at=0)
    assert [a.burst for a in added.attackers] == [1, SEED.attackers[0].burst]
    assert added.attackers[0].mod == -3 and added.attackers[1] == SEED.attackers[0]
    assert added.remove_item("attackers.0") == SEED
    three = added.add_item("attackers")
    assert len(three.attackers) == 3 and three.attackers[2] == type(SEED.attackers[0])()


@pytest.mark.parametrize("edit, field, words", [
    (lambda s: s.set("dodger.phh", 1), "dodger.phh", "no such field; dodger has: ph, mod"),
    (lambda s: s.set("dodger.ph", 99), "dodger.ph", "a whole number from 0 to 30"),
    (lambda s: s.set("nonsense", 1), "nonsense", "no such field"),
    (lambda s: s.set("attackers.5.burst", 2), "attackers.5", "an index from 0 to 0 (1 item), or 1 to add"),
    (lambda s: s.set("attackers.x.burst", 2), "attackers.x", "an index from 0 to 0"),
    (lambda s: s.set("dodger.ph.x", 2), "dodger.ph.x", "'dodger.ph' is one value"),
    (lambda s: s.replace(attackers=[{"burts": 4}]), "attackers.0.burts", "no such field"),
    (lambda s: s.replace(dodger={"ph": -1}), "dodger.ph", "a whole number from 0 to 30"),
    (lambda s: s.get("attackers.3"), "attackers.3", "an index from 0 to 0"),
    (lambda s: s.remove_item("attackers.0"), "attackers.0", "at least 1 item"),
    (lambda s: s.add_item("attackers", {"burst": 9}), "attackers.1.burst", "a whole number from 1 to 5"),
    (lambda s: s.add_item("dodger"), "dodger", "the path of a list"),
    (lambda s: s.add_item("attackers", at=5), "attackers (at)", "a position from 0 to 1"),
    (lambda s: s.replace(attackers=["x"]), "attackers.0", "Input should be"),
    (lambda s: s.replace(**{"attackers": ["x"], "attackers.0.burst": 4}), "attackers.0",
     "an object with the fields of Attacker"),
    (lambda s: s.replace(dodger=7), "dodger", "an object with the fields of Dodger"),
])
def test_errors_name_the_path_the_value_and_what_is_allowed(edit, field, words):
    with pytest.raises(ScenarioError) as caught:
        edit(SEED)
    assert [p.field for p in caught.value.problems] == [field]
    assert words in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_full_list_refuses_one_more():
    full = SEED.add_item("attackers").add_item("attackers")
    with pytest.raises(ScenarioError, match="at most 3 items"):
        full.add_item("attackers")
    with pytest.raises(ScenarioError, match="at most 3 items"):
        full.set("attackers.3.burst", 1)


def test_exact_fractional_fields_edit_like_any_other():
    assert GURPS.set("dodger.basic_speed", 6.25).dodger.basic_speed == Decimal("6.25")
    with pytest.raises(ScenarioError, match="in steps of 0.25"):
        GURPS.set("dodger.basic_speed", 6.3)


def test_the_edited_scenario_evaluates_as_the_one_built_by_hand():
    def edit(d):
        d["attackers"][0]["burst"] = 1
    assert evaluate(SEED.set("attackers.0.burst", 1)) == evaluate(by_hand(SEED, edit))


def test_paths_list_every_single_valued_field():
    paths = SEED.paths()
    assert "dodger.ph" in paths and "attackers.0.burst" in paths and "minus_three" in paths
    assert "dodger" not in paths and "attackers" not in paths
    assert all(SEED.set(p, SEED.get(p)) == SEED for p in paths)  # each one a real field


def test_repr_lists_every_field_and_reads_back():
    text = repr(SEED)
    for name in ("ph=10", "mod=3", "burst=3", "minus_three="):
        assert name in text
    cls = type(SEED)
    namespace = {cls.__name__: cls, **{type(v).__name__: type(v) for v in
                                      (SEED.dodger, SEED.attackers[0], SEED.template, SEED.guts,
                                       SEED.variant)}}
    assert eval(text, namespace) == SEED  # noqa: S307 - our own repr
    assert max(len(line) for line in text.splitlines()) <= 100


def test_docstring_lists_the_fields_with_what_is_allowed():
    doc = type(SEED).__doc__
    assert "``dodger.ph``: PH. a whole number from 0 to 30; default 10." in doc
    assert "``attackers.<i>.burst``" in doc and "``attackers``: 1 to 3 items" in doc
    assert "``dodger.basic_speed``" in type(GURPS).__doc__


def test_the_json_schema_keeps_the_classes_own_description():
    schema = type(SEED).model_json_schema()
    assert schema["description"] == inspect.cleandoc(type(SEED).__doc__.split("\n\nFields, by dotted path")[0])
    assert "Fields, by dotted path" not in json.dumps(schema)
    assert schema["$defs"]["Dodger"]["description"]


def test_completion_shows_fields_and_editing_methods_not_pydantic_internals():
    names = dir(SEED)
    assert {"dodger", "attackers", "minus_three", "replace", "set", "get", "add_item"} <= set(names)
    assert not [n for n in names if n.startswith("model_") or n.startswith("_")]
    completed = [c.name for c in jedi.Interpreter("s.", [{"s": SEED}]).complete()]
    assert "dodger" in completed and "model_dump" not in completed
    assert SEED.model_dump()  # still there, only not offered


def test_html_display_shows_every_field_and_marks_the_changed_ones():
    page = SEED._repr_html_()
    assert page.count("<tr>") == len(SEED.paths()) + 1
    assert "<code>attackers.0.mod</code></td><td style='padding:1px 8px;text-align:left;" \
           "vertical-align:top'><b>3</b>" in page
    assert "<code>dodger.ph</code></td><td style='padding:1px 8px;text-align:left;" \
           "vertical-align:top'>10</td>" in page
