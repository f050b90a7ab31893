"""``python -m workbook report`` run as a person runs it: bad input ends with one line on standard
error naming the problem (no traceback) and a non-zero status; a good run writes the report with
the core's exact headline in it. Each bad input is run through the command's ``main`` in this
process (as ``python -m workbook`` calls it, with its working folder and streams); one of them
also as its own process, which nothing else may print to."""

from __future__ import annotations

import html
import io
import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from rules_core import evaluate, find_preset

PRESET = "infinity-n4/zhanshi-vs-fusilier"


def report(*argv: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "workbook", *argv], cwd=cwd, input=stdin,
                          capture_output=True, text=True, timeout=300)


def report_here(*argv: str, cwd: Path, monkeypatch: pytest.MonkeyPatch) -> subprocess.CompletedProcess:
    """What :func:`report` gives, from the command's ``main`` run in this process."""
    from workbook.__main__ import main

    out, err = io.StringIO(), io.StringIO()
    monkeypatch.chdir(cwd)
    try:
        status = main(list(argv), stdin=io.StringIO(""), stdout=out, stderr=err)
    except SystemExit as exit_:  # as the interpreter would end the process
        status = exit_.code
    return subprocess.CompletedProcess(["python", "-m", "workbook", *argv], status, out.getvalue(), err.getvalue())


def _bad_field(tmp: Path) -> str:
    data = find_preset(PRESET).scenario.to_data()
    data["dodger"]["ph"] = 99
    (tmp / "bad-field.json").write_text(json.dumps(data), encoding="utf-8")
    return "bad-field.json"


def _invalid_json(tmp: Path) -> str:
    (tmp / "broken.json").write_text('{"system": "infinity-n4", ', encoding="utf-8")
    return "broken.json"


def _a_directory(tmp: Path) -> str:
    (tmp / "reports").mkdir()
    return "reports"


def _under_a_file(tmp: Path) -> str:
    (tmp / "plain.txt").write_text("not a folder", encoding="utf-8")
    return "plain.txt/report.html"


# (what is wrong, the arguments given tmp_path, the status, words the one line must hold)
BAD = [
    ("unknown system", lambda t: ["report", "--preset", "chess/opening"], 2, ["chess"]),
    ("unknown preset", lambda t: ["report", "--preset", "infinity-n4/no-such-preset"], 2,
     ["no-such-preset"]),
    ("missing file", lambda t: ["report", "nowhere.json"], 2, ["no such file", "nowhere.json"]),
    ("invalid JSON", lambda t: ["report", _invalid_json(t)], 2, ["broken.json", "not valid JSON"]),
    ("a bad field", lambda t: ["report", _bad_field(t)], 2,
     ["dodger.ph", "99", "a whole number from 0 to 30"]),
    ("-o a directory", lambda t: ["report", "--preset", PRESET, "-o", _a_directory(t)], 1,
     ["cannot write", "reports"]),
    ("-o under a file", lambda t: ["report", "--preset", PRESET, "-o", _under_a_file(t)], 1,
     ["cannot write", "plain.txt/report.html"]),
    ("-o in a missing folder", lambda t: ["report", "--preset", PRESET, "-o", "gone/report.html"], 1,
     ["cannot write", "gone/report.html"]),
    ("no arguments", lambda t: [], 2, ["command"]),
    ("report without a scenario", lambda t: ["report"], 2, ["FILE", "--preset"]),
    ("a language the system lacks", lambda t: ["report", "--preset", PRESET, "--lang", "xx"], 2,
     ["--lang", "xx"]),
    ("a javascript: link", lambda t: ["report", "--preset", PRESET, "--link", "javascript:alert(1)//"], 2,
     ["--link: got 'javascript:alert(1)//'; allowed: an http:// or https:// address"]),
    ("a data: link", lambda t: ["report", "--preset", PRESET, "--link", "data:text/html,<script>x</script>"], 2,
     ["--link: got 'data:text/html,<script>x</script>'; allowed: an http:// or https:// address"]),
    ("a link with no host", lambda t: ["report", "--preset", PRESET, "--link", "http:///x"], 2,
     ["--link: got 'http:///x'; allowed"]),
    ("a link that is a bare word", lambda t: ["report", "--preset", PRESET, "--link", "dashboard"], 2,
     ["--link: got 'dashboard'; allowed"]),
    ("a link with a space", lambda t: ["report", "--preset", PRESET, "--link", "https://example.org/a b"], 2,
     ["--link: got 'https://example.org/a b'; allowed"]),
]


@pytest.mark.parametrize("argv, status, words", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_input_gets_one_line_naming_the_problem(tmp_path, monkeypatch, argv, status, words):
    before = {p.name for p in tmp_path.iterdir()}
    given = argv(tmp_path)
    made = {p.name for p in tmp_path.iterdir()} - before  # what the case itself set up
    done = report_here(*given, cwd=tmp_path, monkeypatch=monkeypatch)
    _one_line_and_nothing_else(done, status, words, tmp_path, before, made)


@pytest.mark.parametrize("case", ["a bad field", "no arguments"])
def test_bad_input_run_as_its_own_process_prints_that_line_alone(tmp_path, case):
    """The same as a person's shell sees it: the process prints nothing else (no warning at
    import, no traceback) and ends with the status."""
    _, argv, status, words = next(b for b in BAD if b[0] == case)
    before = {p.name for p in tmp_path.iterdir()}
    given = argv(tmp_path)
    made = {p.name for p in tmp_path.iterdir()} - before
    _one_line_and_nothing_else(report(*given, cwd=tmp_path), status, words, tmp_path, before, made)


def _one_line_and_nothing_else(done: subprocess.CompletedProcess, status: int, words: list[str], tmp_path: Path,
                               before: set[str], made: set[str]) -> None:
    assert done.returncode == status, (done.returncode, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: ") and "Traceback" not in done.stderr
    for word in words:
        assert word in lines[0], (word, lines[0])
    assert done.stdout == ""  # no half report on standard output
    assert {p.name for p in tmp_path.iterdir()} - before == made  # and no file left behind


def test_a_good_run_writes_the_report_with_the_exact_headline(tmp_path):
    done = report("report", "--preset", PRESET, "-o", "report.html", cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == "" and done.stdout == "", done.stderr
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    expected = evaluate(find_preset(PRESET).scenario).headline
    shown = {key: html.unescape(exact) for key, exact in re.findall(
        r'class="wb-report-card[^"]*" data-key="([a-z_]+)".*?data-exact="([^"]*)"', page, re.S)}
    assert set(shown) == set(expected)
    assert {k: Fraction(v) for k, v in shown.items() if v} == {k: v for k, v in expected.items() if v is not None}
    fraction = expected["p_dodge_succeeds"]
    assert f"{fraction.numerator}/{fraction.denominator}" in page  # the rulebook example's 47/500


def test_a_scenario_from_standard_input_reports_to_standard_output(tmp_path):
    scenario = find_preset(PRESET).scenario.set("dodger.ph", 13)
    done = report("report", "-", cwd=tmp_path, stdin=scenario.to_json())
    assert done.returncode == 0 and done.stderr == "", done.stderr
    exact = evaluate(scenario).headline["p_dodge_succeeds"]
    assert f'data-exact="{exact.numerator}/{exact.denominator}"' in done.stdout


def _one_error_line(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr, done
    assert done.stderr.count("\n") == 1, done.stderr
    return done.stderr


def test_a_long_link_with_control_characters_is_quoted_clipped_and_escaped(tmp_path):
    link = "javascript:\x1b[2J" + "a" * 200
    line = _one_error_line(report("report", "--preset", PRESET, "--link", link, "-o", "r.html", cwd=tmp_path))
    assert line == ("error: --link: got 'javascript:\\x1b[2J" + "a" * 61 + "…; allowed: an http:// or https:// "
                    "address, such as http://127.0.0.1:8866/voila/render/gurps-4e.ipynb\n")
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize("link", [
    'https://example.org/x?"><script>alert(1)</script>',
    "https://example.org/'onmouseover='alert(1)",
    "http://example.org/javascript:alert(1)//<b>",
])
def test_what_a_link_holds_is_written_escaped(tmp_path, link):
    done = report("report", "--preset", PRESET, "--link", link, "-o", "r.html", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    share = re.search(r'<p class="wb-report-share">.*?</p>', page, re.S).group(0)
    escaped = html.escape(link, quote=True)
    assert f'<a href="{escaped}?preset=zhanshi-vs-fusilier">{escaped}?preset=zhanshi-vs-fusilier</a>' in share
    # nothing of the link is markup: no quote, angle bracket or script starts anywhere but where
    # the report writes them itself
    inner = share.split('href="', 1)[1].split('">', 1)[0]
    assert not set(inner) & set("\"'<>")
    assert "<script>alert" not in page and "'onmouseover='" not in page
    assert 'href="javascript:' not in page.lower()


def test_an_existing_file_is_kept_unless_force_is_given(tmp_path):
    (tmp_path / "report.html").write_text("my notes", encoding="utf-8")
    line = _one_error_line(report("report", "--preset", PRESET, "-o", "report.html", cwd=tmp_path))
    assert line == "error: report.html already exists; give --force to overwrite it\n"
    assert (tmp_path / "report.html").read_text(encoding="utf-8") == "my notes"
    done = report("report", "--preset", PRESET, "-o", "report.html", "--force", cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert (tmp_path / "report.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_force_is_documented_where_the_report_command_is():
    done = subprocess.run([sys.executable, "-m", "workbook", "report", "--help"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0
    assert "--force" in done.stdout and "overwrite" in done.stdout and "http:// or https://" in done.stdout
    import workbook.__main__ as command

    assert "--force" in command.__doc__ and "http:// or https://" in command.__doc__


def test_a_report_of_a_designers_rule_from_its_file(tmp_path):
    """``--system-module`` brings a rule of one's own, as the core's command line does; a file
    that is not a rule is one line on standard error."""
    rule_file = Path(__file__).resolve().parents[1] / "example_rule.py"
    (tmp_path / "mine.json").write_text(json.dumps({"system": "my-2d10"}), encoding="utf-8")
    done = report("report", "--system-module", str(rule_file), "mine.json", "-o", "mine.html", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "mine.html").read_text(encoding="utf-8")
    assert "37/100" in page and "163/100" in page  # P(no hit), expected hits: 37 and 163 in 100 rolls
    (tmp_path / "not_a_rule.py").write_text("x = 1\n", encoding="utf-8")
    refused = report("report", "--system-module", "not_a_rule.py", "mine.json", cwd=tmp_path)
    assert refused.returncode == 2 and "defines no rule" in refused.stderr and "Traceback" not in refused.stderr
