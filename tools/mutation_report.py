"""Write docs/mutation.md from the last `mutmut run`: the score per module, every surviving
mutant with its diff, and the mutants judged equivalent (tools/mutation_equivalent.toml, each
with a one-line reason; ``[equivalent]`` names single mutants, ``[equivalent_patterns]`` gives
shell-style patterns for a whole kind, such as every mutant of a declaration that runs when its
module is imported).

A mutant counts as killed when a test failed or it timed out (an endless loop is caught). The
score of a module is killed / (all − equivalent). Run by `make mutate`.

The whole run takes hours on two cores, so it can be made a few modules at a time
(`make mutate MODULES="rules_core.systems.eldfall.dice rules_core.systems.eldfall.play"`): a
module none of whose mutants this run checked keeps what an earlier run wrote on the page (its
row, dated, and its surviving mutants); a module partly checked is reported on what was checked
and says how many were not.
"""

from __future__ import annotations

import argparse
import datetime as dt
import fnmatch
import re
import subprocess
import sys
import tomllib
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from docs_page import write_keeping_notes  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT = ROOT / "tools" / "mutation_equivalent.toml"
TARGET = 0.90
KILLED = {"killed", "timeout"}
UNCHECKED = "not checked"
#: The heading from which docs/mutation.md is written by hand (kept by ``--write``).
NOTES = "## About these runs"
#: A row of the page's table: | `module` | mutants | killed | equivalent | survived | score |
ROW = re.compile(r"^\| `(?P<module>[\w.]+)` \|.*\|$")


def mutmut(*args: str) -> str:
    exe = Path(sys.executable).with_name("mutmut")
    return subprocess.run([str(exe), *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout


def results() -> dict[str, str]:
    """Every mutant's status, by name."""
    found = {}
    for line in mutmut("results", "--all", "true").splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep:
            found[name] = status
    return found


def diff(name: str) -> str:
    return "\n".join(line for line in mutmut("show", name).splitlines() if line[:2] in ("- ", "+ "))


def module_of(name: str) -> str:
    return name.rsplit(".", 1)[0]


def matched(status: dict[str, str], equivalent: dict[str, str], patterns: dict[str, str]) -> dict[str, str]:
    """Every mutant judged equivalent, by name, with its reason: those named, then those a
    pattern matches (the first matching pattern's reason)."""
    found = dict(equivalent)
    for name in status:
        if name not in found:
            reason = next((why for pattern, why in patterns.items() if fnmatch.fnmatchcase(name, pattern)), None)
            if reason is not None:
                found[name] = reason
    return found


def earlier_rows(page: str) -> dict[str, str]:
    """The table rows of an earlier page, by module (each row as written, its date included)."""
    return {m.group("module"): line for line in page.splitlines() if (m := ROW.match(line))}


def earlier_survivors(page: str) -> dict[str, list[str]]:
    """The surviving mutants an earlier page lists, by module: each entry's lines (name, diff)."""
    section = page.split("## Surviving mutants", 1)[1] if "## Surviving mutants" in page else ""
    section = section.split("\n## ", 1)[0]
    found: dict[str, list[str]] = defaultdict(list)
    entry: list[str] = []
    for line in [*section.strip("\n").splitlines(), "- `end`"]:
        if line.startswith("- `"):
            if entry:
                found[module_of(entry[0].split("`")[1])] += entry
            entry = [line]
        elif entry:
            entry.append(line)  # line for line, blank lines included
    return dict(found)


def report(status: dict[str, str], equivalent: dict[str, str],
           patterns: dict[str, str] | None = None, earlier: str = "",
           today: str | None = None) -> tuple[str, bool]:
    """The page, and whether every module checked meets the target. Mutants this run did not
    check are left out; a module with none checked keeps its row and its survivors from
    ``earlier`` (the last page), if any. ``today`` dates the rows of this run."""
    today = today or dt.date.today().isoformat()
    unchecked = defaultdict(int)
    every = set(status)
    for name, state in status.items():
        if state == UNCHECKED:
            unchecked[module_of(name)] += 1
    status = {n: state for n, state in status.items() if state != UNCHECKED}
    named = equivalent
    equivalent = matched(status, equivalent, patterns or {})
    by_module: dict[str, list[str]] = defaultdict(list)
    for name in status:
        by_module[module_of(name)].append(name)
    lines = ["# Mutation testing", "",
             "`make mutate` runs [mutmut](https://pypi.org/project/mutmut/) over `rules_core/dist.py` and "
             "`rules_core/systems/`, each mutant against the fast core tests, and writes this page. A mutant is "
             "killed when a test fails or it times out. Equivalent mutants (they change nothing a caller can "
             "observe) are listed with the reason, from `tools/mutation_equivalent.toml`, and left out of the "
             f"score. Target: at least {TARGET:.0%} of the rest killed in every module.", "",
             "| module | mutants | killed | equivalent | survived | score | run |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    ok = True
    survivors: list[str] = []
    misjudged: list[str] = []
    # an earlier row stays for a module that still has mutants, none checked by this run
    kept = {m: row for m, row in earlier_rows(earlier).items() if m in unchecked and m not in by_module}
    for module in sorted({*by_module, *kept, *unchecked}):
        if module not in by_module:
            lines.append(kept.get(module) or f"| `{module}` | {unchecked[module]} | — | — | — | not run yet | — |")
            continue
        names = by_module[module]
        # a mutant a test kills is no equivalent, whatever the list says (its name may have come
        # to mean another mutant since the list was written, as the code above it changed)
        eq = [n for n in names if n in equivalent and status[n] != "killed"]
        killed = [n for n in names if status[n] in KILLED and n not in eq]
        alive = [n for n in names if status[n] not in KILLED and n not in eq]
        misjudged += [n for n in names if n in equivalent and n not in eq]
        counted = len(names) - len(eq)
        score = len(killed) / counted if counted else 1.0
        ok &= score >= TARGET
        survivors += alive
        partial = f" ({unchecked[module]} not checked)" if unchecked[module] else ""
        lines.append(f"| `{module}` | {len(names)}{partial} | {len(killed)} | {len(eq)} | {len(alive)} | "
                     f"{score:.1%} | {today} |")
    lines += ["", "## Equivalent mutants", ""]
    used = [n for n in sorted(named) if (n in status or module_of(n) in kept) and n not in misjudged]
    lines += [f"- `{n}` — {named[n]}" for n in used] or ["None."]
    # Counted in each module's row: a run of a few modules sees only its own of a pattern's mutants.
    lines += [f"- `{pattern}` — {why}" for pattern, why in (patterns or {}).items()]
    lines += ["", "## Surviving mutants", ""]
    for n in survivors:
        lines += [f"- `{n}` ({status[n]})", "", "  ```diff", *("  " + d for d in diff(n).splitlines()),
                  "  ```", ""]
    before = earlier_survivors(earlier)
    for module in sorted(kept):
        lines += before.get(module, [])
    while lines[-1] == "":
        lines.pop()
    if lines[-1] == "## Surviving mutants":
        lines += ["", "None."]
    if misjudged:
        lines += ["", "## Listed as equivalent, but a test kills them", "",
                  "Counted as killed. Each entry in `tools/mutation_equivalent.toml` names a mutant by its "
                  "number, which changes when the function above it changes: check what it means now.", "",
                  *(f"- `{n}` — {named[n]}" for n in misjudged)]
    stale = sorted(n for n in set(named) - every if module_of(n) not in kept)
    if stale:
        lines += ["", "## Equivalences that no longer match a mutant", "",
                  *(f"- `{n}`" for n in stale)]
    return "\n".join(lines) + "\n", ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", type=Path, help="write the report here (default: print it)")
    args = parser.parse_args()
    judged = tomllib.loads(EQUIVALENT.read_text(encoding="utf-8"))
    earlier = args.write.read_text(encoding="utf-8") if args.write and args.write.exists() else ""
    text, ok = report(results(), judged.get("equivalent", {}), judged.get("equivalent_patterns", {}), earlier)
    if args.write:
        write_keeping_notes(args.write, text, NOTES)  # what the page says by hand stays under the report
    else:
        sys.stdout.write(text)
    print("mutation score target met in every module" if ok else "below the target in some module", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
