"""Mutation testing's record and page (tools/mutation_report.py): per-module scores, equivalents
named by function and change (so they survive renumbering) or by pattern, the record handed to
mutmut before a run and read back after it, and the target checked in every module."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

_SPEC = importlib.util.spec_from_file_location(
    "mutation_report", Path(__file__).resolve().parents[2] / "tools" / "mutation_report.py")
tool = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = tool  # its dataclass looks its module up
_SPEC.loader.exec_module(tool)
Function, Equivalents = tool.Function, tool.Equivalents

KILLED, SURVIVED, TIMEOUT = 1, 0, 24
#: pkg/rules.py: x_f has ten mutants (one timed out), x_g one survivor; pkg/decl.py: two field
#: declarations (survivors) and a check (killed)
RECORD = {
    "pkg/rules.py": {"x_f": Function("f1", [KILLED] * 9 + [TIMEOUT], "2026-11-30"),
                     "x_g": Function("g1", [SURVIVED], "2026-12-01")},
    "pkg/decl.py": {"x__field": Function("d1", [SURVIVED, SURVIVED], "2026-11-30"),
                    "x_check": Function("c1", [KILLED], "2026-11-30")},
}
#: what each mutant changes (the lines of its diff)
CHANGES = {"pkg.rules.x_g__mutmut_1": "-    return a\n+    return b",
           "pkg.decl.x__field__mutmut_1": "-    x = 1\n+    x = 2",
           "pkg.decl.x__field__mutmut_2": "-    x = 1\n+    x = None",
           "pkg.rules.x_f__mutmut_3": "-    if a:\n+    if not a:"}
FIELDS = {"pkg.decl.x__field__*": "runs at import"}


def show(name: str, changes: dict[str, str] = CHANGES) -> str:
    return f"--- pkg\n+++ pkg\n@@ -1,2 +1,2 @@\n{changes[name]}"


def test_scores_per_module_with_equivalents_by_change_and_by_pattern():
    same = Equivalents({("pkg.rules.x_g", "- return a\n+ return b"): "same value"}, FIELDS)
    text, ok = tool.report(RECORD, same, show)
    assert "| `pkg.rules` | 11 | 10 | 1 | 0 | 100.0% | 2026-11-30 – 2026-12-01 |" in text
    assert "| `pkg.decl` | 3 | 1 | 2 | 0 | 100.0% | 2026-11-30 |" in text
    assert "- `pkg.rules.x_g__mutmut_1` — same value" in text
    assert "- `pkg.decl.x__field__*` — runs at import" in text
    assert text.split("## Surviving mutants")[1].strip() == "None."
    assert ok


def test_an_equivalence_names_its_mutant_by_its_change_whatever_its_number():
    """A change above it in its function renumbers a mutant; its entry still finds it, and an
    entry whose change no mutant makes any more is named for removal."""
    renumbered = {"pkg/rules.py": {"x_g": Function("g2", [KILLED, KILLED, SURVIVED], "2026-12-04")}}
    deeper = {"pkg.rules.x_g__mutmut_3": "-        return a\n+        return b"}  # indented deeper now
    entries = Equivalents({("pkg.rules.x_g", "- return a\n+ return b"): "same value",
                           ("pkg.rules.x_g", "- return c\n+ return d"): "gone"}, {})
    text, ok = tool.report(renumbered, entries, lambda name: show(name, deeper))
    assert "| `pkg.rules` | 3 | 2 | 1 | 0 | 100.0% | 2026-12-04 |" in text and ok
    assert "- `pkg.rules.x_g__mutmut_3` — same value" in text
    unmatched = text.split("## Equivalences that match no surviving mutant")[1]
    assert "`pkg.rules.x_g`: `- return c / + return d`" in unmatched and "return a" not in unmatched


def test_a_survivor_is_shown_with_its_diff_and_fails_the_target():
    text, ok = tool.report(RECORD, Equivalents({}, FIELDS), show)
    assert "| `pkg.rules` | 11 | 10 | 0 | 1 | 90.9% |" in text and ok  # 10 of 11: still ≥ 90%
    assert "- `pkg.rules.x_g__mutmut_1` (survived)" in text and "  +    return b" in text
    text, ok = tool.report(RECORD, Equivalents({}, {}), show)
    assert "| `pkg.decl` | 3 | 1 | 0 | 2 | 33.3% |" in text and not ok


def test_a_mutant_a_test_kills_is_never_equivalent():
    listed = Equivalents({("pkg.rules.x_f", "- if a:\n+ if not a:"): "was a grouping hint"}, FIELDS)
    text, ok = tool.report(RECORD, listed, show)
    assert "| `pkg.rules` | 11 | 10 | 0 | 1 | 90.9% |" in text and ok
    assert "x_f__mutmut_3" not in text
    assert "`pkg.rules.x_f`: `- if a: / + if not a:`" in text.split("## Equivalences that match no")[1]


def test_a_module_partly_checked_says_how_many_are_not_and_its_entries_wait():
    record = {"pkg/rules.py": {"x_f": Function("f2", [None] * 4, None), "x_g": Function("g1", [KILLED], "2026-12-01")},
              "pkg/new.py": {"x_h": Function("h1", [None, None], None)}}
    waiting = Equivalents({("pkg.rules.x_f", "- if a:\n+ if not a:"): "a grouping hint"}, {})
    text, ok = tool.report(record, waiting, show)
    assert "| `pkg.rules` | 5 (4 not checked) | 1 | 0 | 0 | 100.0% | 2026-12-01 |" in text and ok
    assert "| `pkg.new` | 2 | — | — | — | not run yet | — |" in text
    assert "match no surviving mutant" not in text  # x_f's entry waits for x_f to be checked


def test_the_record_goes_to_mutmut_before_a_run_and_comes_back_after_it(tmp_path):
    """mutmut keeps the verdicts of a function whose hash it finds unchanged and checks the
    rest; the record then dates only the functions this run checked."""
    mutants = tmp_path / "mutants"
    tool.restore(RECORD, mutants)
    meta = json.loads((mutants / "pkg/rules.py.meta").read_text())
    assert meta["exit_code_by_key"]["pkg.rules.x_f__mutmut_10"] == TIMEOUT
    assert meta["hash_by_function_name"] == {"x_f": "f1", "x_g": "g1"}
    # the run: x_g changed (a new hash, two mutants) and was checked; x_f kept; x_k is new, unchecked
    meta["hash_by_function_name"].update(x_g="g2", x_k="k1")
    meta["exit_code_by_key"].update({"pkg.rules.x_g__mutmut_1": KILLED, "pkg.rules.x_g__mutmut_2": SURVIVED,
                                     "pkg.rules.x_k__mutmut_1": None})
    meta["durations_by_key"] = {"pkg.rules.x_g__mutmut_1": 0.5, "pkg.rules.x_g__mutmut_2": 2.0}
    (mutants / "pkg/rules.py.meta").write_text(json.dumps(meta))
    after = tool.collect(RECORD, "2026-12-04", mutants)
    assert after["pkg/rules.py"]["x_f"] == RECORD["pkg/rules.py"]["x_f"]
    assert after["pkg/rules.py"]["x_g"] == Function("g2", [KILLED, SURVIVED], "2026-12-04")
    assert after["pkg/rules.py"]["x_k"] == Function("k1", [None], None)
    assert after["pkg/decl.py"] == RECORD["pkg/decl.py"]
    # saved one function per line, and read back the same
    tool.save_record(after, tmp_path / "record.json")
    saved = (tmp_path / "record.json").read_text(encoding="utf-8")
    assert '    "x_g": {"hash": "g2", "checked": "2026-12-04", "codes": [1, 0]},' in saved.splitlines()
    assert tool.load_record(tmp_path / "record.json") == after


def test_the_pages_own_notes_stay_under_a_new_report(monkeypatch, tmp_path):
    page = tmp_path / "mutation.md"
    page.write_text("# Mutation testing\n\nold table\n\n" + tool.NOTES + "\n\nWritten by hand.\n")
    tool.save_record({"pkg/decl.py": {"x_check": Function("c1", [KILLED], "2026-11-30")}}, tmp_path / "record.json")
    monkeypatch.setattr(tool, "RECORD", tmp_path / "record.json")
    monkeypatch.setattr(tool, "MUTANTS", tmp_path / "no-run")
    monkeypatch.setattr(tool, "EQUIVALENT", tmp_path / "none.toml")
    monkeypatch.setattr("sys.argv", ["mutation_report.py", "--write", str(page)])
    assert tool.main() == 0
    text = page.read_text()
    assert "| `pkg.decl` | 1 | 1 | 0 | 0 | 100.0% | 2026-11-30 |" in text and "old table" not in text
    assert text.endswith(tool.NOTES + "\n\nWritten by hand.\n")


def test_the_repositorys_equivalents_each_name_one_change():
    """Every entry of tools/mutation_equivalent.toml has a function, a change of removed and
    added lines, and a reason."""
    listed = Equivalents.load()
    assert len(listed.changes) > 100
    for (function, change), why in listed.changes.items():
        assert function.startswith("rules_core.") and "__mutmut_" not in function
        assert any(line.startswith("- ") for line in change.splitlines()), (function, change)
        assert why.strip()
