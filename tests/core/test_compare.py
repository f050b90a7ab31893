"""A against B, the reaction's worth, the evasion each system declares, and the command line's
evaluate --format csv, sweep, compare and worth: every number printed is the core's exact value."""

from __future__ import annotations

import io
import json
from fractions import Fraction

import pytest

from rules_core import ScenarioError, all_systems, evaluate, find_preset
from rules_core.cli import main
from rules_core.compare import Worth, compare, makes_no_reaction, without_reaction, worth, worth_curve
from rules_core.sweeps import allowed_values

#: Systems whose evasion is declared (every converted system).
DECLARING = ("infinity-n4", "eldfall", "d100-homebrew", "gurps-4e")


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def preset_refs(system_id: str) -> list[str]:
    return [f"{system_id}/{p.name}" for p in all_systems()[system_id].presets]


EVERY_PRESET = [ref for sid in DECLARING for ref in preset_refs(sid)]


# -- what each system declares ---------------------------------------------------------------

def test_the_converted_systems_declare_their_evasion():
    declared = {sid for sid, s in all_systems().items() if s.evasion is not None}
    assert set(DECLARING) <= declared


@pytest.mark.parametrize("ref", EVERY_PRESET)
def test_without_reaction_no_evasion_roll_is_made(ref):
    """Saying "no reaction" as the system declares it leaves no evasion roll to make, and the
    defender is never better off for it — except where the reaction is a sacrifice (a GURPS
    sacrificial dodge, throwing oneself on an explosive): then the friend is never better off
    without it."""
    scenario = find_preset(ref).scenario
    if makes_no_reaction(scenario):  # nothing for worth to take away: refused, never zeros
        with pytest.raises(ScenarioError, match="makes no reaction"):
            worth(scenario)
        w = Worth(evaluate(scenario), evaluate(without_reaction(scenario)))
    else:
        w = worth(scenario)
    assert w.without.headline["p_dodge_succeeds"] is None
    assert "p_dodge_succeeds" in w.without.notes
    if scenario.system == "gurps-4e" and scenario.situation in ("sacrificial", "smother"):
        assert w.without.headline["p_friend_hit"] >= w.with_.headline["p_friend_hit"]
        assert w.without.headline["expected_injury"] <= w.with_.headline["expected_injury"]
    else:
        assert w.without.headline["p_no_hit"] <= w.with_.headline["p_no_hit"]
    assert w.without == evaluate(without_reaction(scenario))


@pytest.mark.parametrize("system_id", DECLARING)
def test_some_preset_of_every_system_has_a_reaction_to_take_away(system_id):
    worths = []
    for ref in preset_refs(system_id):
        try:
            worths.append(worth(find_preset(ref).scenario))
        except ScenarioError:
            continue
    assert any(w.gained["p_no_hit"] > 0 or w.gained["hits_avoided"] > 0 for w in worths)


@pytest.mark.parametrize("system_id", DECLARING)
def test_evasion_attribute_is_a_number_field_the_unopposed_chance_climbs(system_id):
    system = all_systems()[system_id]
    scenario = system.default_scenario()
    values = allowed_values(scenario, system.evasion.attribute)
    assert len(values) > 10
    chances = [system.evasion.unopposed(scenario.set(system.evasion.attribute, v)) for v in values]
    assert chances == sorted(chances) and chances[0] < chances[-1]
    assert all(0 <= c <= 1 for c in chances)
    if system.evasion.damage:
        assert system.evasion.damage in evaluate(scenario).headline


@pytest.mark.parametrize("ref, path, value, expected", [
    # Infinity: d20 at or under SV = PH + own MODs, the MOD sum capped at +-12 (N4 Modifiers).
    ("infinity-n4/zhanshi-vs-fusilier", "dodger.ph", 10, Fraction(10, 20)),
    ("infinity-n4/zhanshi-vs-fusilier", "dodger.ph", 0, Fraction(0)),
    ("infinity-n4/zhanshi-vs-fusilier", "dodger.ph", 25, Fraction(1)),  # SV above 20: all pass
    # Eldfall: a 1 always passes (Critical) unless AG is 0 or less (p.15).
    ("eldfall/dodge-vs-critical", "defender.ag", 0, Fraction(0)),
    ("eldfall/dodge-vs-critical", "defender.ag", 7, Fraction(7, 20)),
    ("eldfall/dodge-vs-critical", "defender.ag", 30, Fraction(1)),
    # d100: faces 01..target pass, 01 always, 100 never (the default rulings).
    ("d100-homebrew/burst-3-vs-dodge-45", "defender.agility", 45, Fraction(45, 100)),
    ("d100-homebrew/burst-3-vs-dodge-45", "defender.agility", 0, Fraction(1, 100)),
    ("d100-homebrew/burst-3-vs-dodge-45", "defender.agility", 100, Fraction(99, 100)),
    # GURPS: 3d6 at or under Dodge = Basic Speed, fractions dropped, + 3 (B374); 3-4 always
    # succeed, 17-18 always fail (B348). 3d6 <= 9 falls 81 ways of 216, <= 10 108, <= 4 four.
    ("gurps-4e/rapid-fire-dodge-and-drop", "dodger.basic_speed", 6, Fraction(81, 216)),
    ("gurps-4e/rapid-fire-dodge-and-drop", "dodger.basic_speed", 7.75, Fraction(108, 216)),
    ("gurps-4e/rapid-fire-dodge-and-drop", "dodger.basic_speed", 1, Fraction(4, 216)),
    ("gurps-4e/rapid-fire-dodge-and-drop", "dodger.basic_speed", 20, Fraction(212, 216)),  # 17, 18 fail
])
def test_unopposed_chance_by_hand(ref, path, value, expected):
    scenario = find_preset(ref).scenario.set(path, value)
    assert all_systems()[scenario.system].evasion.unopposed(scenario) == expected


def test_unopposed_chance_reads_the_modifiers_and_rulings():
    infinity = find_preset("infinity-n4/zhanshi-vs-fusilier").scenario
    unopposed = all_systems()["infinity-n4"].evasion.unopposed
    assert unopposed(infinity.replace(**{"dodger.ph": 10, "dodger.mod": -3})) == Fraction(7, 20)
    assert unopposed(infinity.replace(**{"dodger.ph": 5, "dodger.mod": 20})) == Fraction(17, 20)  # cap +12
    d100 = find_preset("d100-homebrew/burst-3-vs-dodge-45").scenario
    unopposed = all_systems()["d100-homebrew"].evasion.unopposed
    assert unopposed(d100.replace(**{"defender.agility": 30, "defender.dodge_advance": 10,
                                     "defender.dodge_modifier": -20})) == Fraction(20, 100)
    assert unopposed(d100.replace(**{"defender.agility": 0, "roll_01": "as_rolled"})) == 0
    gurps = find_preset("gurps-4e/rapid-fire-dodge-and-drop").scenario
    unopposed = all_systems()["gurps-4e"].evasion.unopposed
    # Basic Speed 6, heavy encumbrance (-3): Dodge 6; 3d6 <= 6 falls 20 ways of 216
    assert unopposed(gurps.replace(**{"dodger.basic_speed": 6, "dodger.encumbrance": "heavy"})) == Fraction(20, 216)
    assert unopposed(gurps.replace(**{"dodger.basic_speed": 6, "dodger.shield_db": 1})) == Fraction(108, 216)


# -- worth and compare ------------------------------------------------------------------------

def test_worth_of_the_seed_infinity_dodge_by_hand():
    """Fusilier BS 12 +3 (SV 15), Burst 3, against a Zhanshi who does not dodge: no hit only when
    all three dice miss, (5/20)^3 = 1/64; expected hits 3 * 15/20 = 9/4."""
    w = worth(find_preset("infinity-n4/zhanshi-vs-fusilier").scenario)
    assert w.without.headline["p_no_hit"] == Fraction(1, 64)
    assert w.without.headline["expected_hits"] == Fraction(9, 4)
    assert w.with_.headline["p_no_hit"] == Fraction(401, 3200)
    assert w.gained["p_no_hit"] == Fraction(401, 3200) - Fraction(1, 64)
    assert w.gained["hits_avoided"] == Fraction(9, 4) - Fraction(9, 5)
    assert w.gained["wounds_avoided"] == (w.without.headline["expected_wounds"]
                                          - w.with_.headline["expected_wounds"])


def test_worth_of_a_d100_burst_by_hand():
    """Agility 45 against 3 hits: the Dodge fails on 46..100 (55/100) and every hit lands;
    without it 3 hits land always. So hits avoided = 3 - expected hits with the Dodge."""
    w = worth(find_preset("d100-homebrew/burst-3-vs-dodge-45").scenario)
    assert w.without.headline["p_no_hit"] == 0 and w.without.headline["expected_hits"] == 3
    assert w.gained["p_no_hit"] == Fraction(1, 4)
    assert w.gained["hits_avoided"] == 3 - Fraction(39, 20)
    assert set(w.gained) == {"p_no_hit", "hits_avoided"}  # hits only: no damage headline


def test_worth_curve_at_the_scenario_value_is_its_worth_and_zero_at_no_skill():
    scenario = find_preset("eldfall/dodge-vs-critical").scenario
    own = scenario.defender.ag
    curve = worth_curve(scenario)
    at_own = next(p for p in curve if p.value == own)
    assert at_own.worth.gained == worth(scenario).gained
    assert curve[0].unopposed == 0 and curve[0].worth.gained["p_no_hit"] == 0


def test_compare_differences_are_b_minus_a():
    a = find_preset("infinity-n4/zhanshi-vs-fusilier").scenario
    b = a.set("dodger.ph", 13)
    c = compare(a, b)
    ra, rb = evaluate(a), evaluate(b)
    for d in c.differences():
        assert (d.a, d.b) == (ra.headline[d.key], rb.headline[d.key])
        assert d.difference == rb.headline[d.key] - ra.headline[d.key]
    only_a, only_b = c.trace_differences()
    assert any("PH" in line and "10" in line for line in only_a)
    assert any("PH" in line and "13" in line for line in only_b)


# -- the command line -------------------------------------------------------------------------

@pytest.mark.parametrize("ref", [preset_refs(s)[0] for s in all_systems()])
def test_evaluate_csv_is_the_exact_outcome_table(ref):
    code, out, err = run("evaluate", "--preset", ref, "--format", "csv")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "outcome,exact,float"
    import csv
    rows = list(csv.DictReader(lines))
    result = evaluate(find_preset(ref).scenario)
    assert [r["outcome"] for r in rows] == list(result.outcome_order)
    for row in rows:
        assert Fraction(row["exact"]) == result.outcomes[row["outcome"]]
        assert float(row["float"]) == float(result.outcomes[row["outcome"]])


@pytest.mark.parametrize("system_id", DECLARING)
def test_sweep_point_at_the_scenarios_own_value_equals_evaluate(system_id):
    system = all_systems()[system_id]
    ref = preset_refs(system_id)[0]
    scenario = find_preset(ref).scenario
    path = system.evasion.attribute
    own = scenario.get(path)
    values = allowed_values(scenario, path)
    at = values.index(own)
    low, high = values[max(0, at - 2)], values[min(len(values) - 1, at + 2)]
    code, out, err = run("sweep", "--preset", ref, "--field", path, "--from", str(low), "--to", str(high))
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["field"] == path
    assert [Fraction(str(p["value"])) for p in data["points"]] == [Fraction(v) for v in values if low <= v <= high]
    point = next(p for p in data["points"] if Fraction(str(p["value"])) == own)
    expected = evaluate(scenario).headline
    assert point["headline"] == {k: None if v is None else f"{v.numerator}/{v.denominator}"
                                 for k, v in expected.items()}
    # and CSV carries the same numbers
    code, out, _ = run("sweep", "--preset", ref, "--field", path, "--from", str(own), "--to", str(own),
                       "--format", "csv")
    import csv
    rows = list(csv.DictReader(out.splitlines()))
    assert {r["headline"]: (Fraction(r["exact"]) if r["exact"] else None) for r in rows} == dict(expected)


def test_sweep_whole_range_and_a_choice():
    code, out, _ = run("sweep", "--preset", "infinity-n4/zhanshi-vs-fusilier", "--field", "attackers.0.burst")
    assert code == 0 and [p["value"] for p in json.loads(out)["points"]] == [1, 2, 3, 4, 5]
    code, out, _ = run("sweep", "--preset", "infinity-n4/zhanshi-vs-fusilier", "--field", "minus_three")
    points = json.loads(out)["points"]
    assert [p["value"] for p in points] == ["single", "stacking"]
    stacking = find_preset("infinity-n4/zhanshi-mine-and-fusilier").scenario.set("minus_three", "stacking")
    assert evaluate(stacking).headline["p_dodge_succeeds"] == Fraction(299, 40000)


def test_compare_two_presets():
    a, b = "infinity-n4/zhanshi-vs-fusilier", "infinity-n4/zhanshi-mine-and-fusilier"
    code, out, err = run("compare", "--preset", a, "--preset", b)
    assert code == 0 and err == ""
    data = json.loads(out)
    ra, rb = evaluate(find_preset(a).scenario), evaluate(find_preset(b).scenario)
    assert data["a"]["headline"]["p_dodge_succeeds"] == "47/500"
    for key, text in data["difference"].items():
        assert Fraction(text) == rb.headline[key] - ra.headline[key]
        if key.startswith("p_"):
            assert data["difference_points"][key] == pytest.approx(float(rb.headline[key] - ra.headline[key]) * 100)


def test_compare_a_file_and_a_preset(tmp_path):
    scenario = find_preset("eldfall/dodge-vs-critical").scenario.set("defender.ag", 14)
    path = tmp_path / "a.json"
    path.write_text(scenario.to_json())
    code, out, _ = run("compare", str(path), "--preset", "eldfall/dodge-vs-critical")
    assert code == 0
    data = json.loads(out)
    assert data["a"]["scenario"]["defender"]["ag"] == 14
    assert Fraction(data["a"]["headline"]["p_no_hit"]) == evaluate(scenario).headline["p_no_hit"]


def test_worth_command():
    code, out, err = run("worth", "--preset", "infinity-n4/zhanshi-vs-fusilier")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["without"]["p_no_hit"] == "1/64" and data["with"]["p_no_hit"] == "401/3200"
    assert Fraction(data["worth"]["p_no_hit"]) == Fraction(401, 3200) - Fraction(1, 64)
    assert data["worth"]["p_no_hit_points"] == pytest.approx(float(Fraction(351, 3200)) * 100)
    assert data["without"]["p_dodge_succeeds"] is None


@pytest.mark.parametrize("argv, message", [
    (["evaluate", "--preset", "infinity-n4/zhanshi-vs-fusilier", "--format", "xml"], "invalid choice"),
    (["sweep", "--preset", "infinity-n4/zhanshi-vs-fusilier"], "--field"),
    (["sweep", "--preset", "infinity-n4/zhanshi-vs-fusilier", "--field", "dodger.nope"], "dodger.nope"),
    (["sweep", "--preset", "infinity-n4/zhanshi-vs-fusilier", "--field", "dodger"], "one field with a single value"),
    (["sweep", "--preset", "infinity-n4/zhanshi-vs-fusilier", "--field", "dodger.ph", "--from", "99"], "from 0 to 30"),
    (["sweep", "--preset", "infinity-n4/zhanshi-vs-fusilier", "--field", "dodger.ph", "--from", "nan"], "a number"),
    (["sweep", "--preset", "infinity-n4/zhanshi-vs-fusilier", "--field", "dodger.ph", "--from", "12", "--to", "3"],
     "give the lower value first"),
    (["sweep", "--preset", "infinity-n4/zhanshi-vs-fusilier", "--field", "minus_three", "--from", "1"],
     "not a number field"),
    (["sweep", "--preset", "nope/nothing", "--field", "dodger.ph"], "no system 'nope'"),
    (["compare", "--preset", "infinity-n4/zhanshi-vs-fusilier"], "two scenarios in all"),
    (["compare", "-", "-"], "standard input (-) once"),
    (["compare", "no-such-file.json", "--preset", "eldfall/no-los"], "no such file"),
    (["worth"], "either a FILE"),
    (["worth", "--preset", "eldfall/nothing"], "no preset 'nothing'"),
    (["worth", "-"], "not valid JSON"),
])
def test_bad_input_is_one_line(argv, message):
    code, out, err = run(*argv, stdin="{oops")
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and message in err


# -- worth of every shipped preset, and of the GURPS situations where the reaction is the scenario --

ALL_PRESETS = [f"{s.id}/{p.name}" for s in all_systems().values() for p in s.presets]
ALREADY_OFF = "this scenario's defender already makes no reaction ("


@pytest.mark.parametrize("ref", ALL_PRESETS)
def test_worth_of_every_preset_is_a_result_or_says_the_reaction_is_already_off(ref):
    code, out, err = run("worth", "--preset", ref)
    if code == 0:
        data = json.loads(out)
        assert err == "" and set(data["worth"]) >= {"p_no_hit", "hits_avoided", "p_no_hit_points"}
        assert data["without"]["p_dodge_succeeds"] is None
        return
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"error: worth: {ALREADY_OFF}") and err.endswith(
        "so with and without it are the same; give a scenario where the defender reacts\n"), err


def test_a_scenario_with_its_reaction_already_off_is_said_in_one_line():
    code, out, err = run("worth", "--preset", "gurps-4e/sword-2d1-cut-vs-dr3")  # "lands with no defense"
    assert (code, out) == (2, "")
    assert err == (f'error: worth: {ALREADY_OFF}dodger.defense = "none", dodger.acrobatic = false), so with '
                   "and without it are the same; give a scenario where the defender reacts\n")
    code, _, err = run("worth", "-", stdin='{"system": "infinity-n4", "dodger": {"ph": 10, "dodges": false}}')
    assert code == 2 and 'already makes no reaction (dodger.dodges = false)' in err


def sums(dice: int) -> dict[int, Fraction]:
    """Each total of ``dice`` six-sided dice, face by face."""
    from itertools import product

    ways: dict[int, int] = {}
    for faces in product(range(1, 7), repeat=dice):
        ways[sum(faces)] = ways.get(sum(faces), 0) + 1
    return {total: Fraction(n, 6 ** dice) for total, n in ways.items()}


def mean(dice: int, injury) -> Fraction:
    return sum(p * injury(total) for total, p in sums(dice).items())


#: The one Dodge of every GURPS preset below: Basic Speed 6, + 3 (B17), + 3 for the dodge and
#: drop (B377) = 12; 3d6 ≤ 12 falls 160 ways of 216 (20/27), fails 56 (7/27).
MADE, FAILED = Fraction(20, 27), Fraction(7, 27)
#: An explosion's damage at 2 yards (B414): 6d ÷ 6, down; at 3 yards ÷ 9. DR 0, crushing × 1.
AT_2_YARDS = mean(6, lambda s: s // 6)
AT_3_YARDS = mean(6, lambda s: s // 9)


def _gurps(**data):
    return {"system": "gurps-4e", **data}


@pytest.mark.parametrize("ref, without, gained", [
    # A trench a step away: the dive made reaches complete cover (no hit); without it, the blast
    # where he stands (always a hit at 2 yards, out to 12).
    ("gurps-4e/dive-into-a-trench",
     _gurps(situation="dive", dodger={"defense": "none"}, blast={"damage": "6d", "distance": 2},
            cover={"kind": "full"}),
     {"p_no_hit": MADE, "hits_avoided": MADE, "injury_avoided": MADE * AT_2_YARDS}),
    # No cover: the dive made ends a yard farther (÷ 9 for ÷ 6); a hit either way.
    ("gurps-4e/dive-without-cover",
     _gurps(situation="dive", dodger={"defense": "none"}, blast={"damage": "6d", "distance": 2}),
     {"p_no_hit": Fraction(0), "hits_avoided": Fraction(0), "injury_avoided": MADE * (AT_2_YARDS - AT_3_YARDS)}),
    # On the grenade: made, the dodger takes 4d in contact through DR 4; without it (or failed)
    # the blast at 1 yard, 4d ÷ 3 through DR 4. The dodger pays for sparing his friend.
    ("gurps-4e/throw-yourself-on-a-grenade",
     _gurps(situation="smother", dodger={"defense": "none"}, target={"dr": 4}, blast={"damage": "4d", "distance": 1},
            friend={"distance": 2}),
     {"p_no_hit": Fraction(0), "hits_avoided": Fraction(0),
      "injury_avoided": MADE * (mean(4, lambda s: max(0, s // 3 - 4)) - mean(4, lambda s: max(0, s - 4)))}),
    # The burst at the friend: without the sacrificial dodge and drop the dodger is never hit. With
    # it he takes the hits when the attack (skill 13: 5-13 hit, 3-4 critical and undefendable) hits
    # and his Dodge 12 succeeds by less than 3 (10, 11 or 12: 79 ways of 216). Hits: 1 + margin ÷ 2,
    # at most 3 — 1 on 12-13 (46 ways), 2 on 10-11 (54), 3 on 5-9 (77). Each hit 2d+2 pi through
    # DR 4: 2d − 2, on average 5.
    ("gurps-4e/sacrificial-dodge-and-drop",
     _gurps(situation="sacrificial", dodger={"defense": "none"}, target={"dr": 4, "flexible": True},
            attacks=[{"skill": 13, "rof": 3, "recoil": 2, "damage": "2d+2", "damage_type": "pi"}],
            friend={"defense": 8}),
     {"p_no_hit": -Fraction(177, 216) * Fraction(79, 216),
      "hits_avoided": -Fraction(46 * 1 + 54 * 2 + 77 * 3, 216) * Fraction(79, 216),
      "injury_avoided": -5 * Fraction(46 * 1 + 54 * 2 + 77 * 3, 216) * Fraction(79, 216)}),
])
def test_worth_of_the_gurps_situations_where_the_reaction_is_the_scenario(ref, without, gained):
    """Without the reaction the dodger does not dive, does not throw himself on the explosive, or
    does not interpose (the friend defends alone): defense "none" in that situation."""
    w = worth(find_preset(ref).scenario)
    assert w.without == evaluate(without)
    assert dict(w.gained) == gained
    code, out, _ = run("worth", "--preset", ref)
    assert code == 0 and json.loads(out)["worth"]["p_no_hit"] == (
        f"{gained['p_no_hit'].numerator}/{gained['p_no_hit'].denominator}")


def test_the_friend_spared_by_the_grenade_and_by_the_sacrificial_dodge():
    grenade = worth(find_preset("gurps-4e/throw-yourself-on-a-grenade").scenario)
    # The friend, 2 yards from 4d (÷ 6, DR 0), is caught unless the dodger lands on it.
    assert (grenade.with_.headline["p_friend_hit"], grenade.without.headline["p_friend_hit"]) == (FAILED, 1)
    assert grenade.without.headline["expected_friend_injury"] == mean(4, lambda s: s // 6)
    assert grenade.with_.headline["expected_friend_injury"] == FAILED * mean(4, lambda s: s // 6)
    sacrifice = worth(find_preset("gurps-4e/sacrificial-dodge-and-drop").scenario)
    assert sacrifice.with_.headline["p_friend_hit"] < sacrifice.without.headline["p_friend_hit"]
    assert sacrifice.without.headline["p_no_hit"] == 1 and sacrifice.without.headline["expected_injury"] == 0
