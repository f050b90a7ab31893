"""Mutation testing's record and page: tools/mutation_results.json and docs/mutation.md.

`make mutate` runs mutmut over ``rules_core/dist.py`` and ``rules_core/systems/``. What every
run found is kept in the repository, function by function (tools/mutation_results.json: each
function's source hash as mutmut computes it, the exit code of each of its mutants in order, and
the date they were checked), so that a run checks only what changed:

1. ``--restore`` writes the record back as mutmut's own files (``mutants/*.meta``). mutmut then
   keeps the verdicts of every function whose source is unchanged and checks again the mutants
   of each function that changed (its mutants are renumbered), or of the modules named by
   ``make mutate MODULES=...``. ``make mutate ALL=1`` checks everything again.
2. ``--write docs/mutation.md`` saves what the run found into the record and writes the page:
   the score per module, every surviving mutant with its diff, and the mutants judged
   equivalent.

Equivalent mutants are listed in tools/mutation_equivalent.toml by their *function* and their
*change* (the lines the mutant removes and adds, each stripped of its indentation), not by
number, so an equivalence survives the renumbering a change above it in the function causes.
``[equivalent_patterns]`` gives shell-style patterns of mutant names for a whole kind (such as
every mutant of a declaration that runs when its module is imported).

A mutant counts as killed when a test failed or it timed out (an endless loop is caught). A
mutant a test kills is never counted equivalent. The score of a module is killed / (checked −
equivalent).
"""

from __future__ import annotations

import argparse
import datetime as dt
import fnmatch
import json
import os
import shutil
import subprocess
import sys
import tomllib
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from docs_page import write_keeping_notes  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT = ROOT / "tools" / "mutation_equivalent.toml"
RECORD = ROOT / "tools" / "mutation_results.json"
MUTANTS = ROOT / "mutants"
TARGET = 0.90
#: mutmut's exit codes that count as a kill: a test failed (1; 3 is pytest's internal error) or
#: the mutant ran out of time (mutmut's timeout codes).
KILLED_CODES = {1, 3, 24, -24, 36, 152, 255}
#: The heading from which docs/mutation.md is written by hand (kept by ``--write``).
NOTES = "## About these runs"

#: The record: {source path: {function (mutmut's mangled name): Function}}
Record = dict[str, dict[str, "Function"]]


@dataclass
class Function:
    """One function's mutants: mutmut's hash of its source, each mutant's exit code (mutant
    ``n`` at index ``n - 1``; None: not checked) and the date the last of them was checked."""

    hash: str
    codes: list[int | None]
    checked: str | None = None

    def as_json(self) -> dict:
        return {"hash": self.hash, "checked": self.checked, "codes": self.codes}


def module_of_path(path: str) -> str:
    module = path.removesuffix(".py").replace("/", ".")
    return module.removesuffix(".__init__")


def mutant_name(path: str, function: str, number: int) -> str:
    return f"{module_of_path(path)}.{function}__mutmut_{number}"


def changed_lines(diff_text: str) -> str:
    """The lines a mutant removes and adds, each stripped of its indentation: the mutant's
    identity within its function, whatever its number."""
    return "\n".join(f"{line[0]} {line[1:].strip()}" for line in diff_text.splitlines()
                     if line[:1] in "+-" and not line.startswith(("+++", "---")))


# --- the record ---------------------------------------------------------------------------------

def load_record(path: Path | None = None) -> Record:
    path = path or RECORD
    if not path.exists():
        return {}
    raw = json.loads(path.read_text(encoding="utf-8"))
    return {source: {name: Function(**f) for name, f in functions.items()} for source, functions in raw.items()}


def save_record(record: Record, path: Path | None = None) -> None:
    path = path or RECORD
    data = {source: {name: record[source][name].as_json() for name in sorted(record[source])}
            for source in sorted(record)}
    # one function per line: a run's change to the record reads as a change to those functions
    lines = ["{"]
    for i, source in enumerate(data):
        lines.append(f"  {json.dumps(source)}: {{")
        names = list(data[source])
        for j, name in enumerate(names):
            comma = "," if j < len(names) - 1 else ""
            lines.append(f"    {json.dumps(name, ensure_ascii=False)}: "
                         f"{json.dumps(data[source][name], separators=(', ', ': '))}{comma}")
        lines.append("  }" + ("," if i < len(data) - 1 else ""))
    lines.append("}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def restore(record: Record, mutants: Path | None = None) -> None:
    """Start a run from the record: a fresh ``mutants/`` holding only mutmut's verdict files."""
    mutants = mutants or MUTANTS
    shutil.rmtree(mutants, ignore_errors=True)
    for source, functions in record.items():
        meta = mutants / (source + ".meta")
        meta.parent.mkdir(parents=True, exist_ok=True)
        meta.write_text(json.dumps({
            "exit_code_by_key": {mutant_name(source, name, n): code
                                 for name, f in functions.items() for n, code in enumerate(f.codes, 1)},
            "hash_by_function_name": {name: f.hash for name, f in functions.items()},
            "type_check_error_by_key": {}, "durations_by_key": {}, "estimated_durations_by_key": {},
        }), encoding="utf-8")


def collect(earlier: Record, today: str, mutants: Path | None = None) -> Record:
    """The record after a run, from mutmut's verdict files. A function keeps its date when this
    run checked none of its mutants (mutmut times each mutant it runs) and its source is the
    one recorded."""
    mutants = mutants or MUTANTS
    record: Record = {}
    for meta_path in sorted(mutants.rglob("*.py.meta")):
        source = meta_path.relative_to(mutants).as_posix().removesuffix(".meta")
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        codes: dict[str, dict[int, int | None]] = defaultdict(dict)
        ran: set[str] = set()
        for key, code in meta["exit_code_by_key"].items():
            function, _, number = key.rpartition(".")[2].partition("__mutmut_")
            codes[function][int(number)] = code
            if key in meta["durations_by_key"]:
                ran.add(function)
        functions = {}
        for function, by_number in codes.items():
            if sorted(by_number) != list(range(1, len(by_number) + 1)):
                raise SystemExit(f"{source}: the mutants of {function} are not numbered 1 to {len(by_number)}")
            before = earlier.get(source, {}).get(function)
            h = meta["hash_by_function_name"][function]
            kept = before.checked if before and before.hash == h and function not in ran else None
            values = [by_number[n] for n in sorted(by_number)]
            checked = today if function in ran else kept
            functions[function] = Function(h, values, checked if any(c is not None for c in values) else None)
        if functions:
            record[source] = functions
    return record


# --- equivalents --------------------------------------------------------------------------------

class Equivalents:
    """The mutants judged equivalent: by function and change, and by name pattern."""

    def __init__(self, changes: Mapping[tuple[str, str], str], patterns: Mapping[str, str]):
        self.changes = dict(changes)    # (module.function, changed lines) -> why
        self.patterns = dict(patterns)  # mutant name pattern -> why
        self._functions = {function for function, _ in self.changes}

    @classmethod
    def load(cls, path: Path | None = None) -> Equivalents:
        path = path or EQUIVALENT
        judged = tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        changes = {}
        for entry in judged.get("equivalent", []):
            key = (entry["function"], changed_lines(entry["change"]))
            if key in changes:
                raise SystemExit(f"{path.name}: {entry['function']} lists one change twice")
            changes[key] = entry["why"]
        return cls(changes, judged.get("equivalent_patterns", {}))

    def match(self, name: str, change: Callable[[str], str]) -> tuple[object, str] | None:
        """The entry (a pattern, or a function and change) judging mutant ``name`` equivalent,
        and its reason; ``change`` gives the mutant's diff, asked only when needed."""
        for pattern, why in self.patterns.items():
            if fnmatch.fnmatchcase(name, pattern):
                return pattern, why
        function = name.partition("__mutmut_")[0]
        if function not in self._functions:
            return None
        key = (function, changed_lines(change(name)))
        return (key, self.changes[key]) if key in self.changes else None


def diff(name: str) -> str:
    """The mutant's diff, from the mutants mutmut wrote (``make mutate`` leaves them)."""
    exe = Path(sys.executable).with_name("mutmut")
    shown = subprocess.run([str(exe), "show", name], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return "\n".join(shown.splitlines()[1:])  # after the "# name: status" line


# --- the page -----------------------------------------------------------------------------------

def report(record: Record, equivalents: Equivalents, show: Callable[[str], str] = diff) -> tuple[str, bool]:
    """The page, and whether every module checked meets the target. ``show`` gives a mutant's
    diff (asked only of the mutants no test killed)."""
    lines = ["# Mutation testing", "",
             "`make mutate` runs [mutmut](https://pypi.org/project/mutmut/) over `rules_core/dist.py` and "
             "`rules_core/systems/`, each mutant against the fast core tests, and writes this page. A mutant is "
             "killed when a test fails or it times out. Equivalent mutants (they change nothing a caller can "
             "observe) are listed with the reason, from `tools/mutation_equivalent.toml`, and left out of the "
             f"score. Target: at least {TARGET:.0%} of the rest killed in every module. Each function's "
             "verdicts are kept in `tools/mutation_results.json`; a run checks again only the functions "
             "that changed since (the *run* column gives the dates of a module's verdicts).", "",
             "| module | mutants | killed | equivalent | survived | score | run |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    ok = True
    survivors: list[tuple[str, str]] = []
    equivalent: dict[str, str] = {}
    used: set[object] = set()
    waiting: set[str] = set()  # functions with mutants not checked yet: their entries wait too
    diffs: dict[str, str] = {}

    def shown(name: str) -> str:
        if name not in diffs:
            diffs[name] = show(name)
        return diffs[name]

    for source in sorted(record, key=module_of_path):
        module = module_of_path(source)
        total = killed = eq = alive = unchecked = 0
        dates = set()
        for function, f in sorted(record[source].items()):
            if f.checked:
                dates.add(f.checked)
            for n, code in enumerate(f.codes, 1):
                total += 1
                name = mutant_name(source, function, n)
                if code is None:
                    unchecked += 1
                    waiting.add(name.partition("__mutmut_")[0])
                elif code in KILLED_CODES:
                    killed += 1
                elif (found := equivalents.match(name, shown)) is not None:
                    eq += 1
                    used.add(found[0])
                    if found[0] not in equivalents.patterns:
                        equivalent[name] = found[1]
                else:
                    alive += 1
                    survivors.append((name, _status(code)))
        if unchecked == total:
            lines.append(f"| `{module}` | {total} | — | — | — | not run yet | — |")
            continue
        counted = total - unchecked - eq
        score = killed / counted if counted else 1.0
        ok &= score >= TARGET
        partial = f" ({unchecked} not checked)" if unchecked else ""
        run = (min(dates) if len(dates) == 1 else f"{min(dates)} – {max(dates)}") if dates else "—"
        lines.append(f"| `{module}` | {total}{partial} | {killed} | {eq} | {alive} | {score:.1%} | {run} |")

    lines += ["", "## Equivalent mutants", ""]
    lines += [f"- `{name}` — {why}" for name, why in sorted(equivalent.items())]
    lines += [f"- `{pattern}` — {why}" for pattern, why in equivalents.patterns.items()]
    if lines[-1] == "":
        lines.append("None.")
    lines += ["", "## Surviving mutants", ""]
    for name, status in survivors:
        lines += [f"- `{name}` ({status})", "", "  ```diff", *("  " + d for d in shown(name).splitlines()),
                  "  ```", ""]
    if not survivors:
        lines += ["None.", ""]
    unmatched = [key for key in equivalents.changes if key not in used and key[0] not in waiting]
    if unmatched:
        lines += ["## Equivalences that match no surviving mutant", "",
                  "A test kills the mutant now, or its function no longer makes it: remove the entry.", "",
                  *(f"- `{function}`: `{change.replace(chr(10), ' / ')}`" for function, change in unmatched), ""]
    return "\n".join(lines).rstrip("\n") + "\n", ok


def _status(code: int | None) -> str:
    from mutmut.stats import status_by_exit_code
    return status_by_exit_code[code]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--restore", action="store_true",
                        help="write the record back as mutmut's verdict files, before a run")
    parser.add_argument("--write", type=Path, help="save the run's verdicts and write the page here")
    args = parser.parse_args()
    os.chdir(ROOT)  # mutmut reads its configuration and its files from here
    record = load_record()
    if args.restore:
        restore(record)
        return 0
    if args.write and MUTANTS.exists():
        record = collect(record, dt.date.today().isoformat())
        save_record(record)
    text, ok = report(record, Equivalents.load())
    if args.write:
        write_keeping_notes(args.write, text, NOTES)  # what the page says by hand stays under the report
    else:
        sys.stdout.write(text)
    print("mutation score target met in every module" if ok else "below the target in some module", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
