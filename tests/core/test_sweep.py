"""Sweeps in the core: every point equals evaluating the scenario built by hand at that value,
the default values are the field's whole range, bad input is refused before any evaluation."""

from __future__ import annotations

import copy
import io
import json
from decimal import Decimal
from fractions import Fraction

import pytest

from rules_core import ScenarioError, evaluate, find_preset, get_system, load_scenario, sweep, sweep_grid
from rules_core.cli import main
from rules_core.scenario import fields_of
from rules_core.sweeps import field_values

SEED = find_preset("infinity-n4/zhanshi-vs-fusilier").scenario
GURPS = get_system("gurps-4e").default_scenario()


def at(scenario, *changes):
    """``scenario`` with ``(block, field, value)`` changes made on its plain data by hand."""
    data = copy.deepcopy(scenario.to_data())
    for block, name, value in changes:
        if block is None:
            target = data
        else:
            target = data[block] if isinstance(block, str) else data[block[0]][block[1]]
        target[name] = value
    return load_scenario(data)


def test_each_point_is_the_scenario_evaluated_at_that_value():
    swept = sweep(SEED, "dodger.ph", [8, 10, 13])
    assert [p.value for p in swept] == [8, 10, 13]
    for point in swept:
        assert point.headline == evaluate(at(SEED, ("dodger", "ph", point.value))).headline
        assert point.refused == ""


def test_the_point_at_the_scenarios_own_value_equals_evaluate():
    own = SEED.dodger.ph
    point = next(p for p in sweep(SEED, "dodger.ph") if p.value == own)
    assert point.headline == evaluate(SEED).headline
    assert point.headline["p_dodge_succeeds"] == Fraction(47, 500)  # the seed's worked example


def test_the_headline_moves_along_the_sweep():
    # More PH never makes the dodge less likely (face to face on a d20 with the same attacker).
    values = [p.headline["p_dodge_succeeds"] for p in sweep(SEED, "dodger.ph", range(5, 16))]
    assert values == sorted(values) and values[0] < values[-1]


def test_default_values_are_the_whole_declared_range_on_its_step():
    assert [p.value for p in sweep(SEED, "dodger.ph")] == list(range(0, 31))
    speeds = field_values(next(s for s in fields_of(type(GURPS.dodger)) if s.name == "basic_speed"))
    assert len(speeds) == 77 and speeds[0] == 1 and speeds[-1] == 20
    assert speeds[21] == Decimal("6.25") and all(isinstance(v, Decimal) for v in speeds)
    assert [p.value for p in sweep(SEED, "minus_three")] == ["single", "stacking"]
    assert [p.value for p in sweep(SEED, "dodger.dodges")] == [False, True]


def test_a_value_off_its_step_by_floating_point_is_the_step():
    point = sweep(GURPS, "dodger.basic_speed", [6.250000000000001]).points[0]
    assert point.value == Decimal("6.25")
    assert point.headline == evaluate(at(GURPS, ("dodger", "basic_speed", 6.25))).headline


def test_a_grid_has_every_pair_first_field_outer():
    grid = sweep_grid(SEED, "dodger.ph", [9, 12], "attackers.0.burst", [1, 2, 3])
    assert [p.values for p in grid] == [(9, 1), (9, 2), (9, 3), (12, 1), (12, 2), (12, 3)]
    for point in grid:
        expected = at(SEED, ("dodger", "ph", point.values[0]), (("attackers", 0), "burst", point.values[1]))
        assert point.headline == evaluate(expected).headline


def test_a_combination_the_rules_refuse_is_kept_with_its_reason():
    swept = sweep(GURPS, "target.hp_left", [5, 10, 11])  # full HP is 10
    assert [p.refused == "" for p in swept] == [True, True, False]
    refused = swept.points[2]
    assert "target.hp_left" in refused.refused and "at most the full HP (10)" in refused.refused
    assert dict(refused.headline) == {}


@pytest.mark.parametrize("call, field, words", [
    (lambda: sweep(SEED, "dodger.ph", [10, 31]), "dodger.ph", "a whole number from 0 to 30"),
    (lambda: sweep(SEED, "dodger.ph", [True]), "dodger.ph", "a whole number"),
    (lambda: sweep(SEED, "dodger.pj"), "dodger.pj", "no such field"),
    (lambda: sweep(SEED, "dodger"), "dodger", "one field with a single value"),
    (lambda: sweep(SEED, "attackers.0"), "attackers.0", "one field with a single value"),
    (lambda: sweep(SEED, "minus_three", ["both"]), "minus_three", "one of 'single', 'stacking'"),
    (lambda: sweep(GURPS, "dodger.basic_speed", [6.3]), "dodger.basic_speed", "in steps of 0.25"),
    (lambda: sweep(SEED, "dodger.ph", []), "dodger.ph", "at least one value"),
    (lambda: sweep_grid(SEED, "dodger.ph", None, "dodger.ph"), "dodger.ph", "a second, different field"),
    (lambda: sweep_grid(SEED, "dodger.ph", None, "dodger.wip", range(0, 40)), "dodger.wip", "a whole number"),
    (lambda: sweep_grid(GURPS, "target.dr", None, "target.hp"), "target.dr × target.hp",
     "at most 1,600 points"),  # 101 × 100, refused before any evaluation
])
def test_bad_sweeps_are_refused_naming_the_field(call, field, words):
    with pytest.raises(ScenarioError) as caught:
        call()
    assert caught.value.problems[0].field == field
    assert words in str(caught.value)


def test_records_and_json_carry_every_headline():
    swept = sweep(SEED, "dodger.ph", [10, 11])
    records = swept.records()
    assert records[0]["dodger.ph"] == 10 and records[0]["p_dodge_succeeds"] == Fraction(47, 500)
    assert set(records[0]) == {"dodger.ph", "refused", *evaluate(SEED).headline}
    data = swept.to_data()
    assert data["field"] == "dodger.ph" and data["points"][0]["value"] == 10
    assert data["points"][0]["headline"]["p_dodge_succeeds"] == "47/500"
    grid = sweep_grid(GURPS, "dodger.basic_speed", [6.25], "target.dr", [0]).to_data()
    assert grid["fields"] == ["dodger.basic_speed", "target.dr"]
    assert grid["points"][0]["values"] == [6.25, 0]
    assert grid["points"][0]["headline"]["p_dodge_succeeds"] is None  # no Dodge in this preset


def test_the_function_does_not_shadow_its_module():
    import rules_core
    import rules_core.sweeps as module

    assert rules_core.sweep is module.sweep and callable(module.field_values)


# -- a point the rules refuse still names every headline (null), in the JSON and the records ----

def test_a_refused_point_names_every_headline_with_null_and_keeps_its_reason():
    names = list(evaluate(GURPS).headline)  # what an evaluated point of this system carries
    data = sweep(GURPS, "target.hp_left", [10, 11]).to_data()  # full HP is 10
    made, refused = data["points"]
    assert "refused" not in made and list(made["headline"]) == names
    assert refused["value"] == 11 and "at most the full HP (10)" in refused["refused"]
    assert refused["headline"] == {name: None for name in names}
    assert list(refused["headline"]) == names


def test_a_sweep_refused_at_every_point_still_names_every_headline():
    names = list(evaluate(GURPS).headline)
    swept = sweep(GURPS, "target.hp_left", [11, 12])
    assert all(p.refused for p in swept)
    assert [list(p["headline"]) for p in swept.to_data()["points"]] == [names, names]
    assert all(record[name] is None for record in swept.records() for name in names)
    grid = sweep_grid(GURPS, "target.hp_left", [11], "target.dr", [0, 1]).to_data()
    assert [p["headline"] for p in grid["points"]] == [dict.fromkeys(names)] * 2


def test_the_command_line_sweep_json_gives_a_refused_point_every_headline_as_null():
    out, err = io.StringIO(), io.StringIO()
    code = main(["sweep", "-", "--field", "target.hp_left", "--from", "9", "--to", "11"],
                stdin=io.StringIO(GURPS.to_json()), stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    points = json.loads(out.getvalue())["points"]
    assert [p["value"] for p in points] == [9, 10, 11]
    names = list(evaluate(GURPS).headline)
    assert [sorted(p["headline"]) for p in points] == [sorted(names)] * 3
    assert all(v is None for v in points[2]["headline"].values()) and points[2]["refused"]
    assert points[1]["headline"]["p_no_hit"] is not None and "refused" not in points[1]


# -- a system's headline alone (what a sweep evaluates at each point) is evaluate's headline -----

def _edges(scenario):
    """``scenario`` with each single-valued field in turn at its lowest, highest and a middle
    value (made on its plain data by hand), where the rules allow it."""
    for path in scenario.paths():
        steps = [int(s) if s.isdigit() else s for s in path.split(".")]
        try:
            values = field_values(next(s for s in fields_of(type(_block(scenario, steps[:-1])))
                                       if s.name == steps[-1]))
        except (StopIteration, ValueError, TypeError):  # a block, a list or free text
            continue
        for value in {values[0], values[len(values) // 3], values[-1]}:
            data = copy.deepcopy(scenario.to_data())
            target = data
            for step in steps[:-1]:
                target = target[step]
            target[steps[-1]] = float(value) if isinstance(value, Decimal) else value
            try:
                yield load_scenario(data)
            except ScenarioError:
                continue


def _block(scenario, steps):
    block = scenario
    for step in steps:
        block = block[step] if isinstance(step, int) else getattr(block, step)
    return block


@pytest.mark.parametrize("system_id", [s for s in ("d100-homebrew", "eldfall", "gurps-4e", "infinity-n4")
                                       if get_system(s).headline is not None])
def test_a_systems_headline_alone_is_evaluates_headline(system_id):
    system = get_system(system_id)
    checked = 0
    for preset in system.presets:
        for scenario in (preset.scenario, *_edges(preset.scenario)):
            want = evaluate(scenario).headline
            got = system.headline(scenario)
            assert list(got) == list(want) and got == want, (preset.name, scenario.to_data())
            assert all(type(got[k]) is type(want[k]) for k in want)
            checked += 1
    assert checked > 100 * len(system.presets) // 10


def test_the_whole_infinity_order_headline_alone_is_evaluates_headline():
    # three attackers of Burst 3 and a mine, DA saves (2 Saving Rolls a hit, 3 on a Critical),
    # W 1 to 3: the wounds' convolution cut to its first W coefficients for P(Null)
    base = load_scenario({"system": "infinity-n4", "dodger": {"ph": 12, "arm": 2, "wounds": 2, "wip": 13},
                          "attackers": [{"value": v, "mod": 3, "burst": 3, "ammo": "DA"} for v in (11, 12, 13)],
                          "template": {"kind": "deployable", "lof": False, "ammo": "DA"},
                          "minus_three": "stacking"})
    headline = get_system("infinity-n4").headline
    for ph in (0, 5, 12, 19, 20, 25):
        for wounds in (1, 2, 3):
            data = copy.deepcopy(base.to_data())
            data["dodger"].update(ph=ph, wounds=wounds)
            scenario = load_scenario(data)
            assert headline(scenario) == evaluate(scenario).headline
    assert 0 < evaluate(base).headline["p_null"] < 1


class Counted:
    """An iterable that counts the values taken from it and checks none (a value that is not
    allowed would only be found by reading it)."""

    def __init__(self, value, count=None):
        self.value, self.count, self.taken = value, count, 0

    def __iter__(self):
        while self.count is None or self.taken < self.count:
            self.taken += 1
            yield self.value


@pytest.mark.parametrize("call, field, given", [
    (lambda: sweep(SEED, "dodger.ph", [10] * 1_000_000), "dodger.ph", "'1,000,000 points'"),
    # the count is refused before the values: "x" is never a PH, but a million of them are too many
    (lambda: sweep(SEED, "dodger.ph", ["x"] * 1_000_000), "dodger.ph", "'1,000,000 points'"),
    (lambda: sweep(SEED, "dodger.ph", [10] * 1_601), "dodger.ph", "'1,601 points'"),
    (lambda: sweep_grid(SEED, "dodger.ph", [10] * 1_000, "attackers.0.burst", ["x"] * 1_000),
     "dodger.ph × attackers.0.burst", "'1,000,000 points'"),
    (lambda: sweep_grid(SEED, "dodger.ph", [10] * 1_000_000, "attackers.0.burst"),
     "dodger.ph × attackers.0.burst", "'5,000,000 points'"),
])
def test_too_many_values_are_refused_by_their_count_first(call, field, given):
    with pytest.raises(ScenarioError) as caught:
        call()
    assert str(caught.value) == (f"invalid sweep of infinity-n4: field '{field}': got {given}; "
                                 "allowed: at most 1,600 points; give fewer values")


def test_an_endless_iterator_is_read_one_value_past_the_limit():
    endless = Counted(10)
    with pytest.raises(ScenarioError) as caught:
        sweep(SEED, "dodger.ph", iter(endless))
    assert endless.taken == 1_601
    assert "got 'more than 1,600 values'; allowed: at most 1,600 points" in str(caught.value)
    grid_first, grid_second = Counted(10), Counted(1, 3)
    with pytest.raises(ScenarioError):
        sweep_grid(SEED, "dodger.ph", iter(grid_first), "attackers.0.burst", iter(grid_second))
    assert grid_first.taken == 1_601


def test_an_iterator_within_the_limit_is_swept_whole():
    values = Counted(11, 1_600)
    assert [p.value for p in sweep(SEED, "dodger.ph", iter(values))] == [11] * 1_600
    assert values.taken == 1_600
    assert [p.values for p in sweep_grid(SEED, "dodger.ph", iter([10, 11]), "attackers.0.burst",
                                         (b for b in (1, 2)))] == [(10, 1), (10, 2), (11, 1), (11, 2)]
