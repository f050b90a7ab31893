"""Mutation testing's record and page (tools/mutation_report.py): per-module scores, verdicts and
equivalents keyed by each mutant's function and change (so they survive renumbering) or by
pattern, the record handed to mutmut before a run and read back after it, and the target
checked in every module."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

_SPEC = importlib.util.spec_from_file_location(
    "mutation_report", Path(__file__).resolve().parents[2] / "tools" / "mutation_report.py")
tool = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = tool  # its dataclass looks its module up
_SPEC.loader.exec_module(tool)
Function, Equivalents, Mutant = tool.Function, tool.Equivalents, tool.Mutant

KILLED, SURVIVED, TIMEOUT = 1, 0, 24


def mutant(source: str, function: str, number: int, change: str, occurrence: int = 1) -> Mutant:
    """A mutant as mutmut would make it: ``change`` is "- old / + new"."""
    module = tool.module_of_path(source)
    removed, added = change.split(" / ")
    diff = f"--- a\n+++ b\n@@ -1,2 +1,2 @@\n def {function[2:]}(a):\n-    {removed[2:]}\n+    {added[2:]}"
    return Mutant(f"{module}.{function}__mutmut_{number}", f"{module}.{function}", diff,
                  f"{removed}\n{added}", tool.mutant_key(f"{removed}\n{added}", occurrence))


#: pkg/rules.py: x_f has ten mutants (one timed out), x_g one; pkg/decl.py: two field
#: declarations and a check
MADE = {
    "pkg/rules.py": [*(mutant("pkg/rules.py", "x_f", n, f"- if a > {n}: / + if a >= {n}:") for n in range(1, 11)),
                     mutant("pkg/rules.py", "x_g", 1, "- return a / + return b")],
    "pkg/decl.py": [mutant("pkg/decl.py", "x__field", 1, "- x = 1 / + x = 2"),
                    mutant("pkg/decl.py", "x__field", 2, "- x = 1 / + x = None"),
                    mutant("pkg/decl.py", "x_check", 1, "- if a: / + if not a:")],
}


def verdicts(source: str, function: str, *codes: int | None) -> dict[str, int | None]:
    keys = [m.key for m in MADE[source] if m.function.endswith("." + function)]
    assert len(keys) == len(codes)
    return dict(zip(keys, codes))


RECORD = {
    "pkg/rules.py": {"x_f": Function("f1", verdicts("pkg/rules.py", "x_f", *[KILLED] * 9, TIMEOUT), "2026-11-30"),
                     "x_g": Function("g1", verdicts("pkg/rules.py", "x_g", SURVIVED), "2026-12-01")},
    "pkg/decl.py": {"x__field": Function("d1", verdicts("pkg/decl.py", "x__field", SURVIVED, SURVIVED), "2026-11-30"),
                    "x_check": Function("c1", verdicts("pkg/decl.py", "x_check", KILLED), "2026-11-30")},
}
FIELDS = {"pkg.decl.x__field": "runs at import"}


def test_scores_per_module_with_equivalents_by_change_and_by_pattern():
    same = Equivalents({("pkg.rules.x_g", "- return a\n+ return b"): "same value"}, FIELDS)
    text, ok = tool.report(RECORD, same, MADE.get)
    assert "| `pkg.rules` | 11 | 10 | 1 | 0 | 100.0% | 2026-11-30 – 2026-12-01 |" in text
    assert "| `pkg.decl` | 3 | 1 | 2 | 0 | 100.0% | 2026-11-30 |" in text
    assert "- `pkg.rules.x_g`: `- return a / + return b` — same value" in text
    assert "- `pkg.decl.x__field` — runs at import" in text
    assert text.split("## Surviving mutants")[1].strip() == "None."
    assert "__mutmut_" not in text.split("## Surviving mutants")[0]  # no number names a verdict
    assert ok


def test_a_verdict_and_an_equivalence_follow_the_mutants_change_whatever_its_number(tmp_path):
    """Renumbered (another mutmut, or a function moved): x_g's survivor is now mutmut's third
    mutant. The page is the same, and the record goes back to mutmut under the new numbers."""
    today = {**MADE, "pkg/rules.py": [*MADE["pkg/rules.py"][:10],
                                      mutant("pkg/rules.py", "x_g", 3, "- return a / + return b")]}
    entries = Equivalents({("pkg.rules.x_g", "- return a\n+ return b"): "same value",
                           ("pkg.rules.x_g", "- return c\n+ return d"): "gone"}, FIELDS)
    before, _ = tool.report(RECORD, entries, MADE.get)
    after, ok = tool.report(RECORD, entries, today.get)
    assert after == before and ok
    unmatched = after.split("## Equivalences that match no surviving mutant")[1]
    assert "`pkg.rules.x_g`: `- return c / + return d`" in unmatched and "return a" not in unmatched
    tool.restore(RECORD, tmp_path / "mutants", today.get)
    codes = json.loads((tmp_path / "mutants/pkg/rules.py.meta").read_text())["exit_code_by_key"]
    assert codes["pkg.rules.x_g__mutmut_3"] == SURVIVED and "pkg.rules.x_g__mutmut_1" not in codes
    assert codes["pkg.rules.x_f__mutmut_10"] == TIMEOUT


def test_a_survivor_is_shown_with_its_diff_and_fails_the_target():
    text, ok = tool.report(RECORD, Equivalents({}, FIELDS), MADE.get)
    assert "| `pkg.rules` | 11 | 10 | 0 | 1 | 90.9% |" in text and ok  # 10 of 11: still ≥ 90%
    assert "- `pkg.rules.x_g` (survived; mutmut's `x_g__mutmut_1` in this run)" in text
    assert "  +    return b" in text
    text, ok = tool.report(RECORD, Equivalents({}, {}), MADE.get)
    assert "| `pkg.decl` | 3 | 1 | 0 | 2 | 33.3% |" in text and not ok


def test_a_mutant_a_test_kills_is_never_equivalent():
    listed = Equivalents({("pkg.decl.x_check", "- if a:\n+ if not a:"): "was a grouping hint"}, FIELDS)
    text, ok = tool.report(RECORD, listed, MADE.get)
    assert "| `pkg.decl` | 3 | 1 | 2 | 0 | 100.0% |" in text and ok
    assert "was a grouping hint" not in text.split("## Equivalences that match no")[0]
    assert "`pkg.decl.x_check`: `- if a: / + if not a:`" in text.split("## Equivalences that match no")[1]


def test_a_module_partly_checked_says_how_many_are_not_and_its_entries_wait():
    record = {"pkg/rules.py": {"x_f": Function("f2", {f"k{n}": None for n in range(4)}, None),
                               "x_g": Function("g1", verdicts("pkg/rules.py", "x_g", KILLED), "2026-12-01")},
              "pkg/new.py": {"x_h": Function("h1", {"k1": None, "k2": None}, None)}}
    waiting = Equivalents({("pkg.rules.x_f", "- if a:\n+ if not a:"): "a grouping hint"}, {})
    text, ok = tool.report(record, waiting, MADE.get)
    assert "| `pkg.rules` | 5 (4 not checked) | 1 | 0 | 0 | 100.0% | 2026-12-01 |" in text and ok
    assert "| `pkg.new` | 2 | — | — | — | not run yet | — |" in text
    assert "match no surviving mutant" not in text  # x_f's entry waits for x_f to be checked


def test_a_mutant_its_changed_function_no_longer_makes_says_so():
    text, _ = tool.report(RECORD, Equivalents({}, FIELDS), {**MADE, "pkg/rules.py": MADE["pkg/rules.py"][:10]}.get)
    assert "(no longer made: its function changed since; run make mutate)" in text


def test_the_record_goes_to_mutmut_before_a_run_and_comes_back_after_it(tmp_path):
    """mutmut keeps the verdicts of a function whose hash it finds unchanged and checks the
    rest; the record then dates only the functions this run checked."""
    mutants = tmp_path / "mutants"
    tool.restore(RECORD, mutants, MADE.get)
    meta = json.loads((mutants / "pkg/rules.py.meta").read_text())
    assert meta["exit_code_by_key"]["pkg.rules.x_f__mutmut_10"] == TIMEOUT
    assert meta["hash_by_function_name"] == {"x_f": "f1", "x_g": "g1"}
    # the run: x_g changed (a new hash, two mutants) and was checked; x_f kept; x_k is new, unchecked
    changed_g = [mutant("pkg/rules.py", "x_g", 1, "- return a / + return c"),
                 mutant("pkg/rules.py", "x_g", 2, "- return a / + return None")]
    new_k = [mutant("pkg/rules.py", "x_k", 1, "- k = 1 / + k = 2")]
    today = {**MADE, "pkg/rules.py": [*MADE["pkg/rules.py"][:10], *changed_g, *new_k]}
    meta["hash_by_function_name"].update(x_g="g2", x_k="k1")
    del meta["exit_code_by_key"]["pkg.rules.x_g__mutmut_1"]
    meta["exit_code_by_key"].update({"pkg.rules.x_g__mutmut_1": KILLED, "pkg.rules.x_g__mutmut_2": SURVIVED,
                                     "pkg.rules.x_k__mutmut_1": None})
    meta["durations_by_key"] = {"pkg.rules.x_g__mutmut_1": 0.5, "pkg.rules.x_g__mutmut_2": 2.0}
    (mutants / "pkg/rules.py.meta").write_text(json.dumps(meta))
    after = tool.collect(RECORD, "2026-12-04", mutants, today.get)
    assert after["pkg/rules.py"]["x_f"] == RECORD["pkg/rules.py"]["x_f"]
    assert after["pkg/rules.py"]["x_g"] == Function("g2", {changed_g[0].key: KILLED, changed_g[1].key: SURVIVED},
                                                    "2026-12-04")
    assert after["pkg/rules.py"]["x_k"] == Function("k1", {new_k[0].key: None}, None)
    assert after["pkg/decl.py"] == RECORD["pkg/decl.py"]
    # saved one function per line, and read back the same
    tool.save_record(after, tmp_path / "record.json")
    saved = (tmp_path / "record.json").read_text(encoding="utf-8")
    assert (f'    "x_g": {{"hash": "g2", "checked": "2026-12-04", "verdicts": '
            f'{{"{changed_g[0].key}": 1, "{changed_g[1].key}": 0}}}},') in saved.splitlines()
    assert tool.load_record(tmp_path / "record.json") == after


def test_mutants_are_read_from_the_module_mutmut_writes_and_keyed_by_their_change():
    from mutmut.mutation.file_mutation import mutate_file_contents

    source = "def twice(a):\n    a = a + 1\n    a = a + 1\n    return a\n"
    made = tool.mutants_in("pkg/twice.py", mutate_file_contents("pkg/twice.py", source).code)
    assert [m.name for m in made] == [f"pkg.twice.x_twice__mutmut_{n}" for n in range(1, len(made) + 1)]
    assert {m.function for m in made} == {"pkg.twice.x_twice"}
    # the two lines are alike, so two mutants make the same change: the second is keyed as such
    minus = [m for m in made if m.change == "- a = a + 1\n+ a = a - 1"]
    assert len(minus) == 2 and minus[0].key == tool.mutant_key(minus[0].change) != minus[1].key
    assert len({m.key for m in made}) == len(made)
    assert all(re.fullmatch(f"[0-9a-f]{{{tool.KEY_DIGITS}}}", m.key) for m in made)
    assert "-    a = a + 1" in minus[0].diff and "def twice(a):" in minus[0].diff  # named as the function


def test_the_pages_own_notes_stay_under_a_new_report(monkeypatch, tmp_path):
    page = tmp_path / "mutation.md"
    page.write_text("# Mutation testing\n\nold table\n\n" + tool.NOTES + "\n\nWritten by hand.\n")
    tool.save_record({"pkg/decl.py": {"x_check": RECORD["pkg/decl.py"]["x_check"]}}, tmp_path / "record.json")
    monkeypatch.setattr(tool, "RECORD", tmp_path / "record.json")
    monkeypatch.setattr(tool, "MUTANTS", tmp_path / "no-run")
    monkeypatch.setattr(tool, "EQUIVALENT", tmp_path / "none.toml")
    monkeypatch.setattr("sys.argv", ["mutation_report.py", "--write", str(page)])
    assert tool.main() == 0
    text = page.read_text()
    assert "| `pkg.decl` | 1 | 1 | 0 | 0 | 100.0% | 2026-11-30 |" in text and "old table" not in text
    assert text.endswith(tool.NOTES + "\n\nWritten by hand.\n")


def test_the_repositorys_equivalents_each_name_one_change_and_its_record_keys_by_change():
    """Every entry of tools/mutation_equivalent.toml has a function, a change of removed and
    added lines, and a reason; its patterns name functions; the record keys every verdict by a
    mutant's change, never by its number."""
    listed = Equivalents.load()
    assert len(listed.changes) > 100
    for (function, change), why in listed.changes.items():
        assert function.startswith("rules_core.") and "__mutmut_" not in function
        assert any(line.startswith("- ") for line in change.splitlines()), (function, change)
        assert why.strip()
    assert listed.patterns and not any("__mutmut_" in pattern for pattern in listed.patterns)
    record = tool.load_record()
    assert sum(len(f.verdicts) for functions in record.values() for f in functions.values()) > 9000
    for functions in record.values():
        for f in functions.values():
            assert all(re.fullmatch(f"[0-9a-f]{{{tool.KEY_DIGITS}}}", key) for key in f.verdicts)
