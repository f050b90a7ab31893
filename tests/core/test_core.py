"""The shared core: Dist, declared scenario fields and their errors, Result, registry."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

import rules_core
from rules_core import COMMON_HEADLINES, ScenarioError, all_systems, evaluate, find_system, get_system, load_scenario
from rules_core.result import one_in
from rules_core.scenario import fields_of
from rules_core.systems.infinity_n4.scenario import InfinityScenario

STABLE_IDS = {"infinity-n4", "gurps-4e", "eldfall", "d100-homebrew"}


def test_one_in_wording():
    assert one_in(Fraction(47, 500)) == "1 in 10.6"
    assert one_in(Fraction(1)) == "always" and one_in(Fraction(0)) == "never"
    assert one_in(Fraction(1, 8000)) == "1 in 8,000"


# -- scenarios ------------------------------------------------------------------------------------

def test_every_field_is_declared_with_range_label_help_and_citation():
    for system in all_systems().values():
        pending = [system.scenario_cls]
        while pending:
            cls = pending.pop()
            for spec in fields_of(cls):
                assert spec.label and spec.help, f"{system.id}: {cls.__name__}.{spec.name}"
                if spec.kind in ("int", "float"):
                    assert spec.minimum is not None and spec.maximum is not None
                if spec.kind in ("choice", "ruling"):
                    assert spec.choices
                if spec.kind == "ruling":
                    assert spec.citation, f"ruling {spec.name} needs a citation"
                if spec.part_cls is not None:
                    pending.append(spec.part_cls)


def test_scenario_json_round_trip_for_every_preset():
    for system in all_systems().values():
        for preset in system.presets:
            data = json.loads(preset.scenario.to_json())
            assert data["system"] == system.id
            assert load_scenario(data) == preset.scenario


def test_errors_name_field_value_and_allowed_values():
    with pytest.raises(ScenarioError) as err:
        load_scenario({"system": "infinity-n4", "dodger": {"ph": 31}, "attackers": [{"burst": 0}]})
    text = str(err.value)
    assert "field 'dodger.ph': got 31; allowed: a whole number from 0 to 30" in text
    assert "field 'attackers.0.burst': got 0; allowed: a whole number from 1 to 5" in text
    assert len(err.value.problems) == 2

    with pytest.raises(ScenarioError, match=r"field 'attackers\.0\.attribute': got 'XX'; allowed: one of 'BS', 'CC', 'PH', 'WIP'"):
        load_scenario({"system": "infinity-n4", "attackers": [{"attribute": "XX"}]})
    with pytest.raises(ScenarioError, match=r"field 'dodger\.luck': got 3; allowed: no such field; known fields: ph, mod"):
        load_scenario({"system": "infinity-n4", "dodger": {"luck": 3}})
    with pytest.raises(ScenarioError, match=r"field 'system': got 'chess'"):
        load_scenario({"system": "chess"})
    with pytest.raises(ScenarioError, match=r"field 'system': got '\(missing\)'"):
        load_scenario({"dodger": {}})
    with pytest.raises(ScenarioError, match=r"field 'attackers': got \[\]; allowed: a list of 1 to"):
        load_scenario({"system": "infinity-n4", "attackers": []})
    with pytest.raises(ScenarioError, match="a JSON object"):
        load_scenario(["infinity-n4"])


def test_scenarios_are_immutable_and_replace_validates():
    s = InfinityScenario()
    with pytest.raises(Exception):
        s.dodger = None
    assert s.dodger.replace(ph=12).ph == 12
    with pytest.raises(ScenarioError, match="dodger|ph"):
        s.dodger.replace(ph=-1)


def test_booleans_and_strings_are_not_coerced_into_numbers_silently():
    with pytest.raises(ScenarioError, match="dodger.ph"):
        load_scenario({"system": "infinity-n4", "dodger": {"ph": "ten"}})
    with pytest.raises(ScenarioError, match="dodger.ph"):
        load_scenario({"system": "infinity-n4", "dodger": {"ph": 10.5}})


# -- results and registry -------------------------------------------------------------------------

def test_registry_ids_are_the_stable_ones():
    assert set(all_systems()) <= STABLE_IDS
    assert "infinity-n4" in all_systems()
    for system in all_systems().values():
        assert system.sources and system.presets, system.id
        assert system.default_scenario().system == system.id


def test_a_system_is_found_by_its_id_and_nothing_else():
    for system_id, system in all_systems().items():
        assert find_system(system_id) is system and get_system(system_id) is system
    # a package's name is not its id, and what no package or rule has is nothing
    for wrong in ("infinity_n4", "Infinity-N4", "systems", "_private", "no-such-game", "", "..", None, 3):
        assert find_system(wrong) is None, wrong
    with pytest.raises(ScenarioError) as raised:
        get_system("infinity_n4")
    assert all(repr(known) in str(raised.value) for known in all_systems())


@pytest.mark.parametrize("system_id", sorted(STABLE_IDS))
def test_a_page_of_one_game_imports_that_game_only(system_id):
    code = ("import sys, rules_core\n"
            f"system = rules_core.get_system({system_id!r})\n"
            "rules_core.evaluate(system.default_scenario())\n"
            "print(sorted({m.split('.')[2] for m in sys.modules if m.startswith('rules_core.systems.')}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == repr([system_id.replace("-", "_")])


def test_a_game_package_that_cannot_import_says_why_instead_of_being_unknown(monkeypatch, tmp_path):
    broken = tmp_path / "broken_game"
    broken.mkdir()
    (broken / "__init__.py").write_text("import a_library_that_is_not_installed\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(rules_core.systems, "__path__", [*rules_core.systems.__path__, str(tmp_path)])
    with pytest.raises(ModuleNotFoundError, match="a_library_that_is_not_installed"):
        find_system("broken-game")


def test_every_preset_evaluates_with_common_headlines_and_a_cited_trace():
    for system in all_systems().values():
        for preset in system.presets:
            result = evaluate(preset.scenario)
            for key in COMMON_HEADLINES:
                value = result.headline[key]
                assert value is None or isinstance(value, Fraction)
                assert value is not None or result.notes.get(key)
            for key in system.headlines:
                assert key in result.headline, f"{system.id}: {key} declared but not given"
            assert result.trace and all(step.citation for step in result.trace), preset.name
            json.dumps(result.to_data())  # JSON-ready


def test_importing_the_core_pulls_in_no_ui_library():
    code = ("import sys, rules_core\n"
            "for s in rules_core.all_systems().values():\n"
            "    [rules_core.evaluate(p.scenario) for p in s.presets]\n"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
            "('ipywidgets', 'plotly', 'pandas', 'IPython', 'ipykernel', 'jupyter_client', "
            "'jupyterlab', 'voila', 'workbook', 'traitlets'))\n"
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"rules_core imported {out.stdout.strip()}"


def test_public_api_is_whole_and_documented():
    for name in rules_core.__all__:
        thing = getattr(rules_core, name)
        assert thing.__doc__ and thing.__doc__.strip(), f"rules_core.{name} has no docstring"
    assert {"evaluate", "enumerate_play", "sample", "play_once", "Play", "Roller", "Dice",
            "all_systems"} <= set(rules_core.__all__)
    assert not hasattr(rules_core, "systems") or hasattr(rules_core.systems, "__path__")


def test_cross_field_checks_say_what_is_wrong_without_dumping_the_data():
    from typing import Literal

    from pydantic import model_validator

    from rules_core.scenario import FieldConflict, Scenario, number, parse

    class Pair(Scenario):
        system: Literal["pair"] = "pair"
        low: int = number(1, ge=0, le=5, label="Low", help="the lower bound")
        high: int = number(2, ge=0, le=5, label="High", help="the upper bound")

        @model_validator(mode="after")
        def ordered(self):
            if self.low > self.high + 1:
                raise FieldConflict("low", self.low, f"at most High + 1 = {self.high + 1}")
            if self.low > self.high:
                raise ValueError("Low may not exceed High")
            return self

    with pytest.raises(ScenarioError) as err:
        parse(Pair, {"system": "pair", "low": 3, "high": 2})
    assert str(err.value) == ("invalid pair scenario: field '(top level)': got '(this combination "
                              "of fields)'; allowed: Low may not exceed High")
    with pytest.raises(ScenarioError, match=r"field 'low': got 5; allowed: at most High \+ 1 = 3"):
        parse(Pair, {"system": "pair", "low": 5, "high": 2})


def test_every_ruling_and_headline_is_written_down():
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs"
    common = (docs / "quantities.md").read_text(encoding="utf-8")
    assert all(f"`{key}`" in common for key in COMMON_HEADLINES)
    for system in all_systems().values():
        doc = (docs / "rulings" / f"{system.id}.md").read_text(encoding="utf-8")
        for spec in system.rulings():
            assert spec.name in doc, f"{system.id}: ruling {spec.name} not in its rulings document"
            for value, _ in spec.choices:
                assert value in doc, f"{system.id}: {spec.name} = {value} not in its rulings document"
        for key in system.headlines:
            assert key in doc, f"{system.id}: headline {key} not defined in its rulings document"
