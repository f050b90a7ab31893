"""Input that cannot hurt: every hostile input fed to ``python -m rules_core`` as a separate
process ends with its exit status and one readable line (or, for a reader that went away,
quietly), never a traceback, and in bounded time.

Times are the child process's CPU seconds (user + system, from ``os.wait4``), so a busy
machine does not make them flaky; the wall clock is bounded only loosely.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SEED = "infinity-n4/zhanshi-vs-fusilier"


@dataclass(frozen=True)
class Run:
    """One finished command: exit status and its two outputs."""

    code: int
    out: bytes
    err: str


def cli(*argv: str, stdin: bytes | None = b"", stdout_path: str | None = None) -> Run:
    """Run ``python -m rules_core *argv`` with ``stdin`` as its input (``None``: started with
    standard input closed, as the shell's ``<&-``), its output to ``stdout_path`` if given."""
    out_file = open(stdout_path, "wb") if stdout_path else subprocess.PIPE
    try:
        proc = subprocess.run([sys.executable, "-m", "rules_core", *argv], cwd=ROOT,
                              input=stdin, stdin=subprocess.DEVNULL if stdin is None else None,
                              stdout=out_file, stderr=subprocess.PIPE, timeout=120,
                              preexec_fn=(lambda: os.close(0)) if stdin is None else None)
    finally:
        if stdout_path:
            out_file.close()
    return Run(proc.returncode, proc.stdout or b"", proc.stderr.decode("utf-8", "replace"))


def timed_cli(*argv: str, stdin_file: Path) -> tuple[Run, float, float]:
    """``cli`` reading ``stdin_file``, with the child's CPU seconds (user + system) and the
    wall-clock seconds."""
    with open(stdin_file, "rb") as source:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "rules_core", *argv], cwd=ROOT, stdin=source,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out, err = proc.stdout.read(), proc.stderr.read()  # small: at most a line on stderr
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        proc.stdout.close()
        proc.stderr.close()
    return Run(proc.returncode, out, err.decode("utf-8", "replace")), usage.ru_utime + usage.ru_stime, wall


def assert_one_line_error(run: Run, code: int = 2) -> str:
    """The run refused its input: ``code``, nothing on stdout, one ``error:`` line, no traceback."""
    assert run.code == code, run
    assert run.out == b""
    assert run.err.startswith("error: ") and run.err.endswith("\n") and run.err.count("\n") == 1, run.err[:500]
    assert "Traceback" not in run.err
    assert all(c.isprintable() for c in run.err[:-1]), "a control character reached the terminal"
    return run.err


def scenario_text(**changes) -> bytes:
    data = {"system": "infinity-n4", "dodger": {"ph": 10},
            "attackers": [{"attribute": "BS", "value": 12, "mod": 3, "burst": 3}]}
    data.update(changes)
    return json.dumps(data).encode()


# -- input too large ----------------------------------------------------------------------------

LIMIT_LINE = "is larger than 1 MB, the most a scenario file may be\n"


def padded(size: int) -> bytes:
    """A valid scenario followed by spaces, ``size`` bytes in all."""
    text = scenario_text()
    return text + b" " * (size - len(text))


@pytest.fixture
def short_tmp():
    """A folder whose path is short enough to be quoted whole (a message clips a value at 80
    characters; pytest's own temporary folders can be longer, under xdist)."""
    folder = Path(tempfile.mkdtemp(prefix="wb-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_an_input_of_exactly_a_megabyte_is_read_and_one_byte_more_is_refused(short_tmp):
    at_limit, over = short_tmp / "at-limit.json", short_tmp / "over.json"
    at_limit.write_bytes(padded(1_000_000))
    over.write_bytes(padded(1_000_001))
    run = cli("evaluate", str(at_limit))
    assert run.code == 0 and json.loads(run.out)["headline"]["p_dodge_succeeds"]["exact"] == "47/500"
    assert assert_one_line_error(cli("evaluate", str(over))) == f"error: {over} {LIMIT_LINE}"
    assert assert_one_line_error(cli("evaluate", "-", stdin=padded(1_000_001))) == \
        f"error: standard input {LIMIT_LINE}"
    assert cli("evaluate", "-", stdin=padded(1_000_000)).code == 0


def test_dev_zero_is_refused_by_its_size_without_reading_it_all():
    if not os.path.exists("/dev/zero"):
        pytest.skip("needs /dev/zero")
    proc = subprocess.Popen([sys.executable, "-m", "rules_core", "evaluate", "/dev/zero"], cwd=ROOT,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    run = Run(proc.returncode, out, err.decode())
    assert assert_one_line_error(run) == f"error: /dev/zero {LIMIT_LINE}"


def test_an_endless_standard_input_is_read_only_one_byte_past_the_limit():
    """The command stops reading at 1 MB + 1 byte: what it took from an endless pipe is that,
    plus at most what the pipe holds."""
    proc = subprocess.Popen([sys.executable, "-m", "rules_core", "evaluate", "-"], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    written, chunk = 0, b" " * 65_536
    try:
        while written < 20_000_000:  # 20 times the limit: a reader that reads it all is caught
            proc.stdin.write(chunk)
            proc.stdin.flush()
            written += len(chunk)
    except BrokenPipeError:
        pass
    finally:
        try:
            proc.stdin.close()
        except BrokenPipeError:
            pass
    out, err = proc.stdout.read(), proc.stderr.read()  # small: at most a line on stderr
    proc.wait(timeout=120)
    proc.stdout.close()
    proc.stderr.close()
    assert assert_one_line_error(Run(proc.returncode, out, err.decode())) == f"error: standard input {LIMIT_LINE}"
    assert written <= 1_000_001 + 4 * 65_536, f"{written:,} bytes taken"


# -- many unknown keys --------------------------------------------------------------------------

def test_many_unknown_keys_are_refused_quickly_naming_five(tmp_path):
    path = tmp_path / "many.json"
    with open(path, "w") as fh:  # just under 1 MB, the most a file may be
        fh.write('{"system": "infinity-n4"')
        for i in range(70_000):
            fh.write(f', "k{i}": 1')
        fh.write("}")
    run, cpu, wall = timed_cli("evaluate", "-", stdin_file=path)
    line = assert_one_line_error(run)
    assert cpu < 3.0, f"{cpu:.2f} s of CPU"
    assert wall < 30.0, f"{wall:.2f} s"
    named = [f"'k{i}'" for i in range(5)]
    assert all(n in line for n in named) and "'k5'" not in line
    assert "69,995 more unknown fields" in line
    assert "known fields: dodger, attackers" in line
    assert len(line) < 1000


def test_a_million_unknown_keys_given_in_code_are_refused_naming_five():
    """What a file can no longer bring (it would be 14 MB), code can: the scenario's own check."""
    from rules_core import ScenarioError, load_scenario

    data = {"system": "infinity-n4", **{f"k{i}": 1 for i in range(1_000_000)}}
    start = time.process_time()
    with pytest.raises(ScenarioError) as err:
        load_scenario(data)
    assert time.process_time() - start < 3.0
    line = str(err.value)
    assert all(f"'k{i}'" in line for i in range(5)) and "'k5'" not in line
    assert "999,995 more unknown fields" in line and len(line) < 1000


def test_a_long_list_is_refused_by_its_length_quickly(tmp_path):
    path = tmp_path / "items.json"
    path.write_text('{"system": "infinity-n4", "attackers": [' + ", ".join(['{"rof": 1}'] * 80_000) + "]}")
    run, cpu, _ = timed_cli("evaluate", "-", stdin_file=path)
    line = assert_one_line_error(run)
    assert "field 'attackers': got a list of 80,000 entries; allowed: a list of 1 to" in line
    # the items within the limit are still checked; the rest are not read
    assert "field 'attackers.2.rof'" in line and "attackers.3" not in line and len(line) < 1500
    assert cpu < 3.0, f"{cpu:.2f} s of CPU"


def test_unknown_keys_in_a_nested_part_and_in_list_items_are_named():
    run = cli("evaluate", "-", stdin=scenario_text(dodger={"ph": 10, "luck": 3},
                                                   attackers=[{"burst": 3, "rof": 2}]))
    line = assert_one_line_error(run)
    assert "field 'dodger.luck': got 3; allowed: no such field; known fields: ph, mod" in line
    assert "field 'attackers.0.rof': got 2" in line


# -- wrong-typed system ---------------------------------------------------------------------------

@pytest.mark.parametrize("system, shown", [([], "[]"), ({}, "{}"), (3, "3"), (None, "None"),
                                           (True, "True")])
def test_a_wrong_typed_system_is_one_line(system, shown):
    line = assert_one_line_error(cli("evaluate", "-", stdin=json.dumps({"system": system}).encode()))
    assert f"field 'system': got {shown}; allowed: one of " in line and "'infinity-n4'" in line


def test_a_scenario_with_no_system_at_all():
    line = assert_one_line_error(cli("evaluate", "-", stdin=b"{}"))
    assert "field 'system': got '(missing)'" in line


# -- huge numbers and deep nesting ----------------------------------------------------------------

@pytest.mark.parametrize("digits", [5_000, 999_900])
def test_a_huge_integer_is_refused_by_range_without_converting_it(digits, tmp_path):
    path = tmp_path / "huge.json"
    path.write_text('{"system": "infinity-n4", "dodger": {"ph": -' + "9" * digits + "}}")
    run, cpu, _ = timed_cli("evaluate", "-", stdin_file=path)
    line = assert_one_line_error(run)
    assert f"field 'dodger.ph': got <a whole number of {digits:,} digits>; allowed: a whole number " \
           "from 0 to 30" in line
    assert cpu < 3.0


def test_huge_floats_and_non_json_numbers():
    line = assert_one_line_error(cli("evaluate", "-", stdin=scenario_text(dodger={"ph": 1e308})))
    assert "field 'dodger.ph': got 1e+308; allowed: a whole number from 0 to 30" in line
    line = assert_one_line_error(cli("evaluate", "-", stdin=b'{"system": "infinity-n4", "dodger": {"ph": 1e999}}'))
    assert "field 'dodger.ph': got inf" in line
    for constant in (b"NaN", b"Infinity", b"-Infinity"):
        line = assert_one_line_error(cli("evaluate", "-", stdin=b'{"system": "infinity-n4", "dodger": {"ph": '
                                         + constant + b"}}"))
        assert "is not valid JSON" in line and "is not a JSON number" in line


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_deep_nesting_is_one_line(depth):
    text = b'{"system": "infinity-n4", "dodger": ' + b"[" * depth + b"]" * depth + b"}"
    line = assert_one_line_error(cli("evaluate", "-", stdin=text))
    assert "nested too deeply" in line


def test_nesting_a_reader_accepts_is_refused_as_a_value_quoted_briefly():
    text = b'{"system": "infinity-n4", "dodger": {"ph": ' + b"[" * 500 + b"]" * 500 + b"}}"
    line = assert_one_line_error(cli("evaluate", "-", stdin=text))
    assert "field 'dodger.ph': got [[[[" in line and "…" in line and len(line) < 300


# -- long values and control characters ----------------------------------------------------------

def test_a_value_of_nearly_a_megabyte_is_quoted_in_eighty_characters(tmp_path):
    path = tmp_path / "long.json"
    path.write_text(json.dumps({"system": "infinity-n4", "dodger": {"ph": "x" * 999_900}}))
    run, cpu, _ = timed_cli("evaluate", "-", stdin_file=path)
    line = assert_one_line_error(run)
    quoted = line.split("got ", 1)[1].split("; allowed", 1)[0]
    assert quoted == "'" + "x" * 79 + "…"
    assert len(line) < 300


def test_a_fifty_megabyte_file_is_refused_by_its_size(tmp_path):
    path = tmp_path / "long.json"
    path.write_text(json.dumps({"system": "infinity-n4", "dodger": {"ph": "x" * 50_000_000}}))
    run, cpu, _ = timed_cli("evaluate", "-", stdin_file=path)
    assert assert_one_line_error(run) == f"error: standard input {LIMIT_LINE}"
    assert cpu < 3.0, f"{cpu:.2f} s of CPU"


def test_control_characters_in_keys_and_values_are_escaped():
    evil = "evil\n\x1b[31mred\r\x00"
    run = cli("evaluate", "-", stdin=json.dumps({"system": "infinity-n4", evil: evil,
                                                 "dodger": {"ph": evil * 20}}).encode())
    line = assert_one_line_error(run)
    assert "field 'evil\\n\\x1b[31mred\\r\\x00': got 'evil\\n\\x1b[31mred\\r\\x00'" in line
    assert "\x1b" not in line and "\r" not in line and "\x00" not in line
    quoted = line.split("field 'dodger.ph': got ", 1)[1].split("; allowed", 1)[0]
    assert len(quoted) == 81 and quoted.endswith("…")


def test_a_long_or_unprintable_system_name_is_bounded():
    line = assert_one_line_error(cli("evaluate", "-", stdin=json.dumps({"system": "\u202e" + "s" * 10_000}).encode()))
    assert "\\u202e" in line and len(line) < 400


def test_a_usage_error_is_one_line_too():
    line = assert_one_line_error(cli("frobnicate\n\x1b[2J" + "x" * 10_000))
    assert "invalid choice" in line and "\\x1b[2J" in line and len(line) < 600


# -- strict JSON ------------------------------------------------------------------------------------

@pytest.mark.parametrize("field, value, allowed", [
    ("ph", "2", "a whole number from 0 to 30"),
    ("ph", " 3 ", "a whole number from 0 to 30"),
    ("ph", "1_0", "a whole number from 0 to 30"),
    ("ph", True, "a whole number from 0 to 30"),
    ("ph", 10.5, "a whole number from 0 to 30"),
    ("ph", None, "a whole number from 0 to 30"),
])
def test_a_number_field_takes_only_a_json_number(field, value, allowed):
    line = assert_one_line_error(cli("evaluate", "-", stdin=scenario_text(dodger={field: value})))
    assert f"field 'dodger.{field}': got {value!r}; allowed: {allowed}" in line


@pytest.mark.parametrize("value", ["yes", "on", "true", 1, 0, None])
def test_a_flag_takes_only_true_or_false(value):
    data = {"system": "gurps-4e", "dodger": {"flying": value}}
    line = assert_one_line_error(cli("evaluate", "-", stdin=json.dumps(data).encode()))
    assert f"field 'dodger.flying': got {value!r}; allowed: true or false" in line


def test_a_whole_number_written_with_a_point_is_still_whole():
    run = cli("evaluate", "-", stdin=scenario_text(dodger={"ph": 10.0}))
    assert run.code == 0 and json.loads(run.out)["headline"]["p_dodge_succeeds"]["exact"] == "47/500"


def test_basic_speed_off_its_step_is_refused_naming_the_step_and_float_noise_is_snapped():
    data = {"system": "gurps-4e", "dodger": {"basic_speed": 6.3}}
    line = assert_one_line_error(cli("evaluate", "-", stdin=json.dumps(data).encode()))
    assert "field 'dodger.basic_speed': got 6.3; allowed: a number from 1 to 20 in steps of 0.25" in line
    noisy = cli("evaluate", "-", stdin=b'{"system": "gurps-4e", "dodger": {"basic_speed": 6.250000000000001}}')
    exact = cli("evaluate", "-", stdin=b'{"system": "gurps-4e", "dodger": {"basic_speed": 6.25}}')
    assert noisy.code == exact.code == 0 and noisy.out == exact.out


# -- standard input and output ----------------------------------------------------------------------

def test_closed_standard_input_is_one_line():
    line = assert_one_line_error(cli("evaluate", "-", stdin=None))
    assert "standard input is closed" in line


def test_standard_input_that_is_not_utf8_is_one_line():
    line = assert_one_line_error(cli("evaluate", "-", stdin=b'{"system": "\xff\xfe"}'))
    assert "standard input is not UTF-8 text" in line


def test_a_reader_that_went_away_ends_it_quietly():
    read_end, write_end = os.pipe()
    os.close(read_end)  # closed before the command writes: its first write meets a broken pipe
    try:
        proc = subprocess.run([sys.executable, "-m", "rules_core", "schema", "gurps-4e"], cwd=ROOT,
                              stdin=subprocess.DEVNULL, stdout=write_end, stderr=subprocess.PIPE,
                              timeout=120)
    finally:
        os.close(write_end)
    assert proc.returncode == 1 and proc.stderr == b""


def test_piped_into_head_shows_nothing_but_the_first_byte():
    proc = subprocess.run(f"'{sys.executable}' -m rules_core schema gurps-4e | head -c1", shell=True,
                          cwd=ROOT, capture_output=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout == b"{" and proc.stderr == b""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_one_line_and_a_failure():
    run = cli("evaluate", "--preset", SEED, stdout_path="/dev/full")
    line = assert_one_line_error(run, code=1)
    assert "cannot write the result: No space left on device" in line


def test_closed_standard_output_is_one_line():
    # started with descriptor 1 closed, as the shell's ``>&-``
    proc = subprocess.run([sys.executable, "-m", "rules_core", "presets"], cwd=ROOT,
                          stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120,
                          preexec_fn=lambda: os.close(1))
    err = proc.stderr.decode()
    assert proc.returncode == 1 and err.count("\n") == 1 and "standard output is closed" in err


def test_the_good_path_still_prints_exact_json():
    run = cli("evaluate", "--preset", SEED)
    assert run.code == 0 and run.err == ""
    assert json.loads(run.out)["headline"]["p_dodge_succeeds"]["exact"] == "47/500"


# -- keys given twice, JSON's own messages, long values in every message -----------------------------

@pytest.mark.parametrize("text, said", [
    (b'{"system": "infinity-n4", "dodger": {"ph": 10, "ph": 12}}',
     "error: standard input: the key 'ph' appears twice in 'dodger'; give each key once\n"),
    (b'{"system": "infinity-n4", "system": "eldfall"}',
     "error: standard input: the key 'system' appears twice at the top level; give each key once\n"),
    (b'{"system": "infinity-n4", "attackers": [{"burst": 1}, {"burst": 2, "value": 9, "burst": 3}]}',
     "error: standard input: the key 'burst' appears twice in 'attackers.1'; give each key once\n"),
    (b'{"system": "infinity-n4", "dodger": {"ph": 10}, "dodger": {"ph": 10}}',  # even the same value
     "error: standard input: the key 'dodger' appears twice at the top level; give each key once\n"),
])
def test_a_key_given_twice_is_refused_naming_it_and_where(text, said):
    assert assert_one_line_error(cli("evaluate", "-", stdin=text)) == said


def test_a_key_given_twice_in_a_file_names_the_file(short_tmp):
    path = short_tmp / "twice.json"
    path.write_bytes(b'{"system": "gurps-4e", "dodger": {"defense": "none", "defense": "plain"}}')
    assert assert_one_line_error(cli("worth", str(path))) == \
        f"error: {path}: the key 'defense' appears twice in 'dodger'; give each key once\n"


@pytest.mark.parametrize("text, said", [
    (b'{"system": "infinity-n4", "x": "abc',
     "error: standard input is not valid JSON: Unterminated string starting at line 1 column 32\n"),
    (b'{"system": "infinity-n4", "x": "a\tb"}',
     "error: standard input is not valid JSON: Invalid control character at line 1 column 34\n"),
    (b'{"system": ', "error: standard input is not valid JSON: Expecting value at line 1 column 12\n"),
])
def test_json_faults_say_where_once(text, said):
    assert assert_one_line_error(cli("evaluate", "-", stdin=text)) == said


@pytest.mark.parametrize("argv", [
    ("evaluate", "--preset", "P" * 100_000),
    ("evaluate", "--preset", "infinity-n4/" + "P" * 100_000),
    ("evaluate", "--preset", "P" * 100_000 + "/x"),
    ("worth", "--preset", "gurps-4e/" + "P" * 100_000),
    ("P" * 100_000,),
    ("evaluate", "--format", "P" * 100_000, "--preset", "infinity-n4/zhanshi-vs-fusilier"),
    ("schema", "P" * 100_000),
    ("evaluate", "P" * 100_000),
    ("sweep", "--preset", "infinity-n4/zhanshi-vs-fusilier", "--field", "P" * 100_000),
    ("simulate", "--preset", "infinity-n4/zhanshi-vs-fusilier", "--n", "9" * 4000),
    ("roll", "--preset", "infinity-n4/zhanshi-vs-fusilier", "--faces", "9" * 4000),
])
def test_a_hundred_thousand_character_value_is_quoted_in_eighty(argv):
    line = assert_one_line_error(cli(*argv))
    runs = [run for run in line.replace("…", "…\n").split() if set(run.strip("'…:")) <= {"P", "9"} and len(run) > 10]
    assert runs, line  # the value is quoted ...
    assert all(len(run.strip("'…:")) <= 80 and run.rstrip(":").endswith("…") for run in runs), line
    assert len(line) < 600, len(line)  # ... and briefly
