"""GURPS, the trace of a dive for cover (B377) on typed faces: the dodge and drop roll, reaching
complete cover, a step that leaves the blast's reach (B414: out to 2 yards per die), the injury
steps exactly when the dodger is struck, and what being caught would have done — said only when
he was not caught."""

from __future__ import annotations

from rules_core import find_preset, play_once
from rules_core.systems.gurps_4e import SYSTEM, Blast, Cover, GurpsScenario
from rules_core.systems.gurps_4e import sources as cite

DODGE_CRIT = [1, 1, 1]   # 3 on 3d6: a critical success
DODGE_FAILS = [6, 6, 6]  # 18: a critical failure


def lines(scenario: GurpsScenario, faces: list[int]) -> list[tuple[str, str, str]]:
    return [(s.rule, s.detail, s.citation) for s in play_once(SYSTEM, scenario, faces=faces).trace]


def test_a_dive_into_a_trench_step_by_step():
    # Dodge 12 (Basic Speed 6 + 3, dodge and drop + 3); the 6d blast, all 6s, would have done
    # 36 ÷ (3 × 2 yards) = 6 where he stood.
    trench = find_preset("gurps-4e/dive-into-a-trench").scenario
    played = play_once(SYSTEM, trench, faces=DODGE_CRIT + [6] * 6)
    assert [r.dice.purpose for r in played.rolled] == ["Diving for cover", "blast damage to the dodger"]
    assert [(s.rule, s.detail, s.citation) for s in played.trace] == [
        ("Diving for cover", "roll 3 vs 12: critical success, margin +9 → avoids 1 of 1", cite.RAPID_DODGE),
        ("Diving for cover", "the dodger reaches complete cover in time", cite.DIVE),
        ("Had he been caught", "where he stood, the same dice would have done 6", cite.DIVE)]


def test_a_step_out_of_the_blasts_reach_takes_no_injury_steps():
    # 2d reaches 4 yards; the dodger at 4 yards steps to 5, beyond it. Where he stood, 12 ÷ 12 = 1.
    far = GurpsScenario(situation="dive", blast=Blast(damage="2d", distance=4))
    assert lines(far, DODGE_CRIT + [6, 6]) == [
        ("Diving for cover", "roll 3 vs 12: critical success, margin +9 → avoids 1 of 1", cite.RAPID_DODGE),
        ("Blast", "5 yards is beyond its reach", cite.EXPLOSION),
        ("Had he been caught", "where he stood, the same dice would have done 1", cite.DIVE)]


def test_reaching_cover_with_dr_shows_the_injury_it_lets_through():
    # 2d at 1 yard, all 6s: 12 ÷ 3 = 4, cover DR 1 stops 1, 3 crushing to the torso: injury 3.
    behind = GurpsScenario(situation="dive", blast=Blast(damage="2d", distance=1), cover=Cover(kind="dr", dr=1))
    played = play_once(SYSTEM, behind, faces=DODGE_CRIT + [6, 6])
    assert played["injury"] == 3 and played["injury_if_caught"] == 4
    assert [s.rule for s in played.trace] == ["Diving for cover", "Basic damage", "Explosion at a distance",
                                              "Cover", "DR", "Wounding modifier", "Had he been caught"]
    assert played.trace[3].detail == "cover DR 1 stops 1; 3 reaches the target"


def test_caught_before_the_step_says_nothing_of_being_caught():
    caught = GurpsScenario(situation="dive", blast=Blast(damage="2d", distance=1))
    rules = [rule for rule, _, _ in lines(caught, DODGE_FAILS + [6, 6])]
    assert rules == ["Diving for cover", "Basic damage", "Explosion at a distance", "DR", "Wounding modifier"]
