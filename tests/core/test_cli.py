"""The command line: JSON out, one readable line and exit status 2 on bad input."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from rules_core.cli import main


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_evaluate_preset_prints_exact_fractions():
    code, out, err = run("evaluate", "--preset", "infinity-n4/zhanshi-vs-fusilier")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["headline"]["p_dodge_succeeds"] == {"exact": "47/500", "float": 0.094}
    assert data["trace"] and all({"rule", "detail", "citation"} <= set(t) for t in data["trace"])
    total = sum(__import__("fractions").Fraction(row["exact"]) for row in data["outcomes"])
    assert total == 1


def test_evaluate_file_and_stdin(tmp_path):
    scenario = {"system": "infinity-n4", "dodger": {"ph": 10},
                "attackers": [{"attribute": "BS", "value": 12, "mod": 3, "burst": 3}]}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scenario))
    code, out, _ = run("evaluate", str(path))
    assert code == 0 and json.loads(out)["headline"]["p_dodge_succeeds"]["exact"] == "47/500"
    code, out2, _ = run("evaluate", "-", stdin=json.dumps(scenario))
    assert code == 0 and out2 == out


def test_schema_and_presets():
    code, out, _ = run("schema", "infinity-n4")
    schema = json.loads(out)
    assert code == 0 and schema["properties"]["system"]["const"] == "infinity-n4"
    code, out, _ = run("presets")
    assert code == 0 and "infinity-n4/zhanshi-vs-fusilier" in [p["preset"] for p in json.loads(out)]


@pytest.mark.parametrize("argv, stdin, message", [
    (("evaluate", "-"), "{not json", "standard input is not valid JSON"),
    (("evaluate", "-"), '{"system": "infinity-n4", "dodger": {"ph": 99}}', "field 'dodger.ph': got 99"),
    (("evaluate", "-"), '"just a string"', "a JSON object"),
    (("evaluate", "/no/such/file.json"), "", "no such file"),
    (("evaluate", "--preset", "nope"), "", "should be SYSTEM/NAME"),
    (("evaluate", "--preset", "infinity-n4/nope"), "", "has no preset 'nope'"),
    (("evaluate", "--preset", "chess/x"), "", "no system 'chess'"),
    (("evaluate",), "", "either a FILE"),
    (("schema", "chess"), "", "field 'system': got 'chess'"),
])
def test_bad_input_is_one_readable_line(argv, stdin, message):
    code, out, err = run(*argv, stdin=stdin)
    assert code == 2 and out == ""
    assert message in err and err.startswith("error: ") and err.count("\n") == 1
    assert "Traceback" not in err


def test_module_entry_point_never_shows_a_traceback(tmp_path):
    (tmp_path / "bad.bin").write_bytes(b"\xff\xfe\x00garbage")
    for argv in (["evaluate", str(tmp_path / "bad.bin")], ["evaluate", str(tmp_path)], ["frobnicate"]):
        proc = subprocess.run([sys.executable, "-m", "rules_core", *argv], capture_output=True, text=True)
        assert proc.returncode == 2, argv
        assert "Traceback" not in proc.stderr and proc.stderr.strip()


# -- roll and simulate ------------------------------------------------------------------------------

def run_cli(*argv: str) -> tuple[int, str, str]:
    import io

    from rules_core.cli import main
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), stdout=out, stderr=err), out.getvalue(), err.getvalue()


def test_roll_on_a_seed_is_replayed_by_the_same_seed():
    code, first, _ = run_cli("roll", "--preset", "d100-homebrew/two-attacks-leftovers", "--seed", "12")
    again = run_cli("roll", "--preset", "d100-homebrew/two-attacks-leftovers", "--seed", "12")[1]
    assert code == 0 and first == again and "(seed 12)" in first and "Outcome: " in first


@pytest.mark.parametrize("argv, message", [
    (["roll", "--preset", "d100-homebrew/burst-3-vs-dodge-45", "--faces", "23", "50"], "1 face left over"),
    (["roll", "--preset", "d100-homebrew/two-attacks-leftovers", "--faces", "23"], "no faces are left"),
    (["roll", "--preset", "d100-homebrew/burst-3-vs-dodge-45", "--faces", "101"], "face 101 is not on a d100"),
    (["roll", "--preset", "d100-homebrew/burst-3-vs-dodge-45", "--faces", "5", "--seed", "1"], "not both"),
    (["simulate", "--preset", "d100-homebrew/burst-3-vs-dodge-45", "--n", "100001"], "from 1 to 100,000"),
    (["simulate", "--n", "10"], "either a FILE"),
])
def test_roll_and_simulate_refuse_bad_input_in_one_line(argv, message):
    code, out, err = run_cli(*argv)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


def test_simulate_prints_each_headline_beside_its_exact_value():
    import json as json_

    code, out, _ = run_cli("simulate", "--preset", "d100-homebrew/burst-3-vs-dodge-45", "--n", "4000", "--seed", "2")
    data = json_.loads(out)
    assert code == 0 and data["rolls"] == 4000 and sum(data["outcomes"].values()) == 4000
    p = data["headline"]["p_dodge_succeeds"]
    assert p["exact"] == "9/20" and abs(p["simulated"] - 0.45) < 4 * p["standard_error"] + 1e-9
