"""docs/mutation.md's arithmetic (tools/mutation_report.py): per-module scores, equivalents by
name and by pattern left out of the score, and the target checked in every module."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_SPEC = importlib.util.spec_from_file_location(
    "mutation_report", Path(__file__).resolve().parents[2] / "tools" / "mutation_report.py")
report_tool = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(report_tool)

STATUS = {
    **{f"pkg.rules.x_f__mutmut_{i}": "killed" for i in range(1, 10)},
    "pkg.rules.x_f__mutmut_10": "timeout",
    "pkg.rules.x_g__mutmut_1": "survived",
    "pkg.decl.x__field__mutmut_1": "survived",
    "pkg.decl.x__field__mutmut_2": "survived",
    "pkg.decl.x_check__mutmut_1": "killed",
}


def test_scores_per_module_with_equivalents_by_name_and_by_pattern(monkeypatch):
    monkeypatch.setattr(report_tool, "diff", lambda name: "- a\n+ b")
    text, ok = report_tool.report(STATUS, {"pkg.rules.x_g__mutmut_1": "same value"},
                                  {"pkg.decl.x__field__*": "runs at import"})
    assert "| `pkg.rules` | 11 | 10 | 1 | 0 | 100.0% |" in text
    assert "| `pkg.decl` | 3 | 1 | 2 | 0 | 100.0% |" in text
    assert "- `pkg.decl.x__field__*` — runs at import" in text
    assert ok


def test_a_survivor_is_shown_with_its_diff_and_fails_the_target(monkeypatch):
    monkeypatch.setattr(report_tool, "diff", lambda name: "- a\n+ b")
    text, ok = report_tool.report(STATUS, {}, {"pkg.decl.x__field__*": "runs at import"})
    assert "| `pkg.rules` | 11 | 10 | 0 | 1 | 90.9% |" in text and ok  # 10 of 11: still ≥ 90%
    assert "- `pkg.rules.x_g__mutmut_1` (survived)" in text and "  + b" in text
    text, ok = report_tool.report(STATUS, {}, {})
    assert "| `pkg.decl` | 3 | 1 | 0 | 2 | 33.3% |" in text and not ok


def test_a_run_of_some_modules_keeps_what_an_earlier_run_wrote_of_the_others(monkeypatch):
    """The whole run takes hours: a run of a few modules keeps the other modules' rows and
    survivors from the page it rewrites, and reports a partly checked module on what it checked."""
    monkeypatch.setattr(report_tool, "diff", lambda name: "- a\n+ b")
    first, _ok = report_tool.report(STATUS, {}, {}, today="2026-11-30")
    assert "| `pkg.rules` | 11 | 10 | 0 | 1 | 90.9% | 2026-11-30 |" in first
    assert "- `pkg.rules.x_g__mutmut_1` (survived)" in first
    later = {**{n: "not checked" for n in STATUS if n.startswith("pkg.rules.")},  # not run this time
             "pkg.decl.x__field__mutmut_1": "killed", "pkg.decl.x__field__mutmut_2": "not checked",
             "pkg.decl.x_check__mutmut_1": "killed", "pkg.new.x_h__mutmut_1": "not checked"}
    text, ok = report_tool.report(later, {}, {}, earlier=first, today="2026-12-01")
    assert "| `pkg.rules` | 11 | 10 | 0 | 1 | 90.9% | 2026-11-30 |" in text  # kept as it was
    assert "- `pkg.rules.x_g__mutmut_1` (survived)" in text and "  + b" in text  # its survivor too
    assert "| `pkg.decl` | 2 (1 not checked) | 2 | 0 | 0 | 100.0% | 2026-12-01 |" in text
    assert "| `pkg.new` | 1 | — | — | — | not run yet | — |" in text
    assert ok  # the target is judged on the modules this run checked
    assert "- `pkg.decl" not in text.split("## Surviving mutants")[1]
    kept = first.split("- `pkg.rules.x_g__mutmut_1`")[1].split("\n- `")[0].split("\n## ")[0].rstrip()
    assert "- `pkg.rules.x_g__mutmut_1`" + kept in text  # the survivor's entry copied line for line
    gone = {"pkg.decl.x_check__mutmut_1": "killed"}  # pkg.rules has no mutants any more
    text, _ok = report_tool.report(gone, {}, {}, earlier=first)
    assert "`pkg.rules`" not in text


def test_an_equivalence_of_a_module_not_checked_yet_is_not_called_stale(monkeypatch):
    monkeypatch.setattr(report_tool, "diff", lambda name: "- a\n+ b")
    status = {"pkg.decl.x_check__mutmut_1": "killed", "pkg.new.x_h__mutmut_1": "not checked"}
    text, _ok = report_tool.report(status, {"pkg.new.x_h__mutmut_1": "same value", "pkg.old.x_k__mutmut_1": "gone"}, {})
    stale = text.split("## Equivalences that no longer match a mutant")[1]
    assert "`pkg.old.x_k__mutmut_1`" in stale and "pkg.new" not in stale


def test_the_pages_own_notes_stay_under_a_new_report(monkeypatch, tmp_path):
    page = tmp_path / "mutation.md"
    page.write_text("# Mutation testing\n\nold table\n\n" + report_tool.NOTES + "\n\nWritten by hand.\n")
    monkeypatch.setattr(report_tool, "results", lambda: {"pkg.decl.x_check__mutmut_1": "killed"})
    monkeypatch.setattr(report_tool, "EQUIVALENT", tmp_path / "none.toml")
    (tmp_path / "none.toml").write_text("")
    monkeypatch.setattr("sys.argv", ["mutation_report.py", "--write", str(page)])
    assert report_tool.main() == 0
    text = page.read_text()
    assert "| `pkg.decl` | 1 | 1 | 0 | 0 | 100.0% |" in text and "old table" not in text
    assert text.endswith(report_tool.NOTES + "\n\nWritten by hand.\n")


def test_an_equivalence_a_test_kills_is_counted_killed_and_named(monkeypatch):
    """A mutant's number changes when its function changes above it: a listed "equivalent" that
    a test now kills is another mutant, counted killed and named for a second look."""
    monkeypatch.setattr(report_tool, "diff", lambda name: "- a\n+ b")
    text, ok = report_tool.report(STATUS, {"pkg.rules.x_f__mutmut_3": "was a grouping hint",
                                           "pkg.rules.x_f__mutmut_10": "slow but the same"},
                                  {"pkg.decl.x__field__*": "runs at import"})
    # the timed-out one stays equivalent; the killed one counts killed
    assert "| `pkg.rules` | 11 | 9 | 1 | 1 | 90.0% |" in text and ok
    misjudged = text.split("## Listed as equivalent, but a test kills them")[1]
    assert "- `pkg.rules.x_f__mutmut_3` — was a grouping hint" in misjudged
    assert "x_f__mutmut_3" not in text.split("## Equivalent mutants")[1].split("## Surviving")[0]
