"""The command line with a designer's rule (``--system-module my_rule.py``): the rule of
tests/example_rule.py (id ``my-2d10``) evaluated, swept and weighed by its file alone, and every
way a rule file can be wrong said in one line with exit status 2.

The expected numbers are restated from the rule's text (2d10 at or under the skill; each point
of margin, and the roll itself, cancels a hit; doubles cancel every hit), not taken from the
core."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Literal

import pytest
from reference_2d10 import by_the_rules_text as reference

import rules_core
from rules_core import Dice, Play, Scenario, TooManyPlays, all_systems, number, rule
from rules_core.cli import main

EXAMPLE = str(Path(__file__).resolve().parents[1] / "example_rule.py")
ROOT = Path(__file__).resolve().parents[2]


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def by_the_rules_text(skill: int, hits: int) -> tuple[Fraction, Fraction, Fraction]:
    """(P(dodge succeeds), P(no hit), expected hits) of the rule restated from its words."""
    found = reference(skill, hits)
    return found["p_dodge_succeeds"], found["p_no_hit"], found["expected_hits"]


@pytest.fixture
def scenario_file(tmp_path):
    path = tmp_path / "mine.json"
    path.write_text('{"system": "my-2d10"}')
    return str(path)


@pytest.fixture(autouse=True)
def registry_left_as_it_was():
    """Every command of these tests leaves the registry as it found it (no fifth system)."""
    before = dict(all_systems())
    yield
    assert dict(all_systems()) == before


# -- a rule file used by every command ----------------------------------------------------------------

def test_evaluate_a_designed_rule_by_its_file(scenario_file):
    code, out, err = run("evaluate", "--system-module", EXAMPLE, scenario_file)
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["system"] == "my-2d10" and data["scenario"]["skill"] == 11 and data["scenario"]["hits"] == 3
    headline = {k: v["exact"] for k, v in data["headline"].items()}
    assert (headline["p_dodge_succeeds"], headline["p_no_hit"], headline["expected_hits"]) == \
        ("11/20", "37/100", "163/100")
    assert by_the_rules_text(11, 3) == (Fraction(11, 20), Fraction(37, 100), Fraction(163, 100))
    assert {row["label"]: row["exact"] for row in data["outcomes"]}["dodged"] == "37/100"


def test_evaluate_reads_the_scenario_from_standard_input_and_as_csv():
    code, out, err = run("evaluate", "--system-module", EXAMPLE, "-", "--format", "csv",
                         stdin='{"system": "my-2d10", "skill": 7}')
    assert code == 0 and err == ""
    _, no_hit, _ = by_the_rules_text(7, 3)
    assert out.splitlines()[:2] == ["outcome,exact,float",
                                    f"dodged,{no_hit.numerator}/{no_hit.denominator},{float(no_hit)}"]


def test_worth_of_a_designed_rule(scenario_file):
    code, out, err = run("worth", "--system-module", EXAMPLE, scenario_file)
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["with"]["expected_hits"] == "163/100" and data["without"]["expected_hits"] == "3/1"
    assert data["without"]["p_no_hit"] == "0/1"
    assert data["worth"]["p_no_hit"] == "37/100" and data["worth"]["hits_avoided"] == "137/100"


def test_sweep_of_a_designed_rule_along_its_skill(scenario_file):
    code, out, err = run("sweep", "--system-module", EXAMPLE, scenario_file, "--field", "skill",
                         "--from", "4", "--to", "16")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["field"] == "skill" and [p["value"] for p in data["points"]] == list(range(4, 17))
    for point in data["points"]:
        passed, no_hit, hits = by_the_rules_text(point["value"], 3)
        got = {k: Fraction(v) for k, v in point["headline"].items()
               if k in ("p_dodge_succeeds", "p_no_hit", "expected_hits")}
        assert got == {"p_dodge_succeeds": passed, "p_no_hit": no_hit, "expected_hits": hits}, point["value"]


def test_presets_schema_roll_compare_and_simulate_take_the_rule_file():
    code, out, _ = run("presets", "--system-module", EXAMPLE)
    assert code == 0 and {"my-2d10/skilled", "my-2d10/clumsy"} <= {p["preset"] for p in json.loads(out)}
    code, out, _ = run("schema", "my-2d10", "--system-module", EXAMPLE)
    assert code == 0 and json.loads(out)["properties"]["skill"]["maximum"] == 20
    code, out, _ = run("roll", "--system-module", EXAMPLE, "--preset", "my-2d10/skilled", "--faces", "3", "3")
    assert code == 0 and "doubles cancel every hit" in out and "Hits landing: 0" in out
    code, out, _ = run("compare", "--system-module", EXAMPLE, "--preset", "my-2d10/skilled",
                       "--preset", "my-2d10/clumsy")
    assert code == 0 and json.loads(out)["a"]["scenario"]["skill"] == 14
    code, out, _ = run("simulate", "--system-module", EXAMPLE, "--preset", "my-2d10/clumsy", "--n", "500")
    # skill 7: 21 of the 100 face pairs pass
    assert code == 0 and json.loads(out)["headline"]["p_dodge_succeeds"]["exact"] == "21/100"


def test_a_module_that_registers_its_rule_itself(tmp_path):
    (tmp_path / "coin.py").write_text(COIN.replace("SYSTEM = rule(", "register(rule(") + "))\n")
    code, out, err = run("evaluate", "--system-module", str(tmp_path / "coin.py"), "-",
                         stdin='{"system": "cli-coin", "hits": 2}')
    assert code == 0 and err == "", err
    assert json.loads(out)["headline"]["expected_hits"]["exact"] == "1/1"


def test_the_rule_already_registered_stays_registered(designed_rule, scenario_file):
    code, _, _ = run("evaluate", "--system-module", EXAMPLE, scenario_file)
    assert code == 0 and all_systems()["my-2d10"] is designed_rule


def test_without_the_rule_file_the_id_is_unknown(scenario_file):
    code, out, err = run("evaluate", scenario_file)
    assert code == 2 and out == "" and "field 'system': got 'my-2d10'" in err


# -- every way a rule file can be wrong ---------------------------------------------------------------

COIN = '''from typing import Literal
from rules_core import Dice, Play, Scenario, number, register, rule

class Coin(Scenario):
    system: Literal["cli-coin"] = "cli-coin"
    hits: int = number(1, ge=1, le=4, label="Hits", help="Hits coming in.")

def play(s, roller):
    dodged = roller.roll(Dice("dodge", sides=2)) == 2
    return Play("dodged" if dodged else "hit", 0 if dodged else s.hits, evasions=(dodged,))

SYSTEM = rule("cli-coin", "Coin", Coin, play, outcomes=("dodged", "hit")'''

BAD_MODULES = {
    "missing.py": (None, "--system-module: no such file: "),
    "rule.txt": ("x = 1\n", "is not a Python file (.py)"),
    "raises.py": ("import rules_core\n\nraise ValueError('my table is not ready')\n",
                  "raises.py: importing it raised ValueError: my table is not ready (line 3)"),
    "syntax.py": ("def play(:\n", "syntax.py: importing it raised SyntaxError: invalid syntax (line 1)"),
    "empty.py": ("x = 1\n", "empty.py defines no rule: give it SYSTEM = rules_core.rule(...)"),
    "not_a_rule.py": ("SYSTEM = 'my-2d10'\n", "not_a_rule.py: SYSTEM is 'my-2d10', not a rule"),
    "clash.py": (COIN.replace("cli-coin", "infinity-n4") + ")\n",
                 "clash.py: the id 'infinity-n4' is a built-in game's; give your rule another id"),
    "bad_rule.py": (COIN.replace('outcomes=("dodged", "hit")', "outcomes=()") + ")\n",
                    "bad_rule.py: importing it raised RuleError: rule 'cli-coin': outcomes must be distinct"),
}


def _write(tmp_path: Path, name: str) -> str:
    text, _ = BAD_MODULES[name]
    if text is not None:
        (tmp_path / name).write_text(text)
    return str(tmp_path / name)


@pytest.mark.parametrize("name", BAD_MODULES)
def test_a_bad_rule_file_is_one_line_and_status_2(tmp_path, name):
    code, out, err = run("evaluate", "--system-module", _write(tmp_path, name), "-", stdin='{"system": "x"}')
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err
    assert BAD_MODULES[name][1] in err, err


def test_a_folder_is_not_a_rule_file(tmp_path):
    code, _, err = run("presets", "--system-module", str(tmp_path))
    assert code == 2 and "is a folder; give the Python file that defines your rule" in err


TEN_D20 = '''from typing import Literal
from rules_core import Dice, Play, Scenario, number, rule

class Ten(Scenario):
    system: Literal["ten-d20"] = "ten-d20"
    hits: int = number(1, ge=1, le=3, label="Hits", help="Hits coming in.")

def play(s, roller):
    best = max(roller.roll(Dice("Dodge", sides=20, count=10)))
    return Play("dodged" if best > 15 else "hit", 0 if best > 15 else s.hits, evasions=(best > 15,))

SYSTEM = rule("ten-d20", "Ten d20", Ten, play, outcomes=("dodged", "hit"))
'''


def test_a_rule_with_too_many_dice_is_refused_and_can_still_be_simulated(tmp_path):
    (tmp_path / "ten.py").write_text(TEN_D20)
    module = str(tmp_path / "ten.py")
    code, out, err = run("evaluate", "--system-module", module, "-", stdin='{"system": "ten-d20"}')
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "asks for 10 dice (Dodge (10d20))" in err and "the limit is 200,000" in err
    assert "python -m rules_core simulate" in err
    code, out, err = run("simulate", "--system-module", module, "--n", "200", "-", stdin='{"system": "ten-d20"}')
    data = json.loads(out)
    assert code == 0 and data["rolls"] == 200 and data["headline"]["p_dodge_succeeds"]["exact"] is None
    assert "200,000" in data["exact"]


def test_an_exception_in_the_rules_own_code_names_its_line(tmp_path):
    (tmp_path / "buggy.py").write_text(COIN + ", trace=lambda s: [s.hits / 0])\n")
    code, out, err = run("evaluate", "--system-module", str(tmp_path / "buggy.py"), "-", stdin='{"system": "cli-coin"}')
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert "your rule raised ZeroDivisionError" in err and "buggy.py, line 12)" in err


def test_a_headline_reading_a_quantity_a_play_lacks_is_said_in_one_line(tmp_path):
    (tmp_path / "buggy.py").write_text(COIN.replace("register, rule", "register, rule, probability")
                                       + ', headlines={"p_x": probability("x", lambda p: p["nothing"] > 0)})\n')
    code, out, err = run("evaluate", "--system-module", str(tmp_path / "buggy.py"), "-", stdin='{"system": "cli-coin"}')
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert "headline 'p_x' could not be read on the play ('hit', hits 1): its event raised KeyError" in err
    assert "this play has no quantity 'nothing'" in err


def test_an_exception_raised_in_the_rules_play_names_the_line_of_its_file(tmp_path):
    """The core says it as the designer's error (which rule, which dice); the command line adds
    where in the file it was raised, as docs/design.md promises."""
    roll = '    dodged = roller.roll(Dice("dodge", sides=2)) == 2\n'
    assert COIN.splitlines().index(roll.rstrip("\n")) == 8  # line 9 of the file; the new line is 10
    (tmp_path / "play_raises.py").write_text(COIN.replace(roll, roll + "    margin = {1: 0}[s.hits + 1]\n") + ")\n")
    code, out, err = run("evaluate", "--system-module", str(tmp_path / "play_raises.py"), "-",
                         stdin='{"system": "cli-coin"}')
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert "rule 'cli-coin': play raised KeyError: '2' on dodge (d2) → 1 (" in err
    assert err.endswith("/play_raises.py, line 10)\n")


def test_the_module_entry_point_says_a_bad_rule_file_without_a_traceback(tmp_path):
    _write(tmp_path, "raises.py")
    proc = subprocess.run([sys.executable, "-m", "rules_core", "presets", "--system-module",
                           str(tmp_path / "raises.py")], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "ValueError: my table is not ready (line 3)" in proc.stderr


# -- the core's size limit ----------------------------------------------------------------------------

class Pool(Scenario):
    system: Literal["ten-ordered-d20"] = "ten-ordered-d20"
    hits: int = number(1, ge=1, le=3, label="Hits", help="Hits coming in.")


def _ten_ordered(s, roller):
    faces = roller.roll(Dice("Dodge", sides=20, count=10))
    return Play("dodged" if max(faces) == 20 else "hit", 0 if max(faces) == 20 else s.hits)


def test_ten_ordered_d20_are_refused_before_any_work():
    system = rules_core.register(rule("ten-ordered-d20", "Ten ordered d20", Pool, _ten_ordered,
                                      outcomes=("dodged", "hit")))
    try:
        with pytest.raises(TooManyPlays) as refused:
            rules_core.evaluate({"system": "ten-ordered-d20"})
    finally:
        rules_core.unregister(system.id)
    message = str(refused.value)
    assert "10 dice" in message and "limit is 200,000" in message
    assert refused.value.limit == 200_000 and refused.value.ways == 20 ** 10


def test_a_play_that_raises_is_said_by_the_rule_and_the_dice(tmp_path):
    (tmp_path / "breaks.py").write_text(COIN.replace("dodged = roller.roll", "dodged = 1 / 0 or roller.roll") + ")\n")
    code, out, err = run("evaluate", "--system-module", str(tmp_path / "breaks.py"), "-", stdin='{"system": "cli-coin"}')
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "rule 'cli-coin': play raised ZeroDivisionError: 'division by zero' before any die was rolled" in err


def test_two_rule_files_in_one_command(tmp_path, scenario_file):
    (tmp_path / "coin.py").write_text(COIN + ")\n")
    coin = tmp_path / "coin.json"
    coin.write_text('{"system": "cli-coin", "hits": 4}')
    code, out, err = run("compare", "--system-module", EXAMPLE, "--system-module", str(tmp_path / "coin.py"),
                         scenario_file, str(coin))
    assert code == 0 and err == "", err
    data = json.loads(out)
    assert (data["a"]["scenario"]["system"], data["b"]["scenario"]["system"]) == ("my-2d10", "cli-coin")
