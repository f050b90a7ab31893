"""The classroom panels, headless: a roll steps through the very rule the exact numbers come
from, typed faces replay a roll, the tally and the simulation agree with the core."""

from __future__ import annotations

import re

import pytest

from rules_core import all_systems, evaluate, play_once
from rules_core.simulate import simulate
from workbook.panels.classroom import RollPanel, SimulatePanel, parse_faces
from workbook.page.views import exact_text

SYSTEM_IDS = sorted(all_systems())


def first(system_id):
    system = all_systems()[system_id]
    return system, evaluate(system.presets[0].scenario)


def cell(html_text: str, key: str, col: str) -> str:
    row = re.search(rf"<tr data-key='{re.escape(key)}'>(.*?)</tr>", html_text, re.S).group(1)
    return re.search(rf"<td data-col='{col}'>(.*?)</td>", row, re.S).group(1)


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_roll_shows_the_rules_steps_and_tallies(system_id):
    system, result = first(system_id)
    panel = RollPanel(system, str, seed=5)
    panel.update(result)
    panel.roll()
    expected = play_once(system, result.scenario, seed=5)
    assert panel.last.outcome == expected.outcome
    assert [s.detail for s in panel.last.trace] == [s.detail for s in expected.trace]
    assert panel.seed.value == 6                      # the next roll differs, and can be replayed
    assert expected.trace[0].rule in panel.steps.value
    panel.roll()
    assert sum(panel.tally.values()) == 2
    assert cell(panel.tally_box.value, expected.outcome, "count") in ("1", "2")
    assert cell(panel.tally_box.value, expected.outcome, "exact") == exact_text(result.outcomes[expected.outcome])


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_typed_faces_replay_a_roll_and_bad_faces_are_explained(system_id):
    system, result = first(system_id)
    rolled = play_once(system, result.scenario, seed=9)
    faces = [f for r in rolled.rolled for f in r.faces]
    panel = RollPanel(system, str)
    panel.update(result)
    panel.faces.value = " ".join(map(str, faces))
    panel.play_typed()
    assert panel.last.outcome == rolled.outcome and panel.error.value == ""
    panel.faces.value = "7 x"
    panel.play_typed()
    assert "'x' is not a die face" in panel.error.value
    panel.faces.value = " ".join(map(str, faces + [1]))
    panel.play_typed()
    assert "left over" in panel.error.value


def test_a_new_scenario_starts_a_new_tally():
    system, result = first("d100-homebrew")
    panel = RollPanel(system, str)
    panel.update(result)
    panel.roll()
    panel.update(evaluate(system.presets[1].scenario))
    assert not panel.tally and panel.steps.value == ""


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_simulation_table_matches_the_core_simulation(system_id):
    system, result = first(system_id)
    panel = SimulatePanel(system, str)
    panel.update(result)
    panel.n.value, panel.seed.value = 3000, 4
    panel.start()                                    # no event loop: runs straight through
    counts = simulate(system, result.scenario, 3000, seed=4).outcomes()
    for label, _ in result.outcome_rows():
        assert cell(panel.table.value, label, "count") == f"{counts[label]:,}"
    exact_line = [t for t in panel.figure.data if t.name == "Exact"][0]
    assert exact_line.y[0] == pytest.approx(float(result.headline["p_no_hit"]))
    assert panel.rolls == 3000 and "3,000 rolls" in panel.status.value


def test_parse_faces():
    assert parse_faces("1,2 ,3") == [1, 2, 3]
    with pytest.raises(ValueError, match="type the faces"):
        parse_faces("  ")
    with pytest.raises(ValueError, match="'-3' is not a die face"):
        parse_faces("4 -3")
