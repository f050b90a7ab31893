"""Mutation testing's record and page: tools/mutation_results.json and docs/mutation.md.

`make mutate` runs mutmut over ``rules_core/dist.py`` and ``rules_core/systems/``. What every
run found is kept in the repository, function by function (tools/mutation_results.json: each
function's source hash as mutmut computes it, the date it was last checked, and the verdict of
each of its mutants, keyed by what the mutant *changes*, never by its number or line), so that a
run checks only what changed:

1. ``--restore`` writes the record back as mutmut's own files (``mutants/*.meta``), each verdict
   under the number mutmut gives that change today. mutmut then keeps the verdicts of every
   function whose source is unchanged and checks again the mutants of each function that
   changed, or of the modules named by ``make mutate MODULES=...``. ``make mutate ALL=1`` checks
   everything again.
2. ``--write docs/mutation.md`` saves what the run found into the record and writes the page:
   the score per module, every surviving mutant with its diff, and the mutants judged
   equivalent.

A mutant's key (:attr:`Mutant.key`) is a short digest of its change: the lines it removes and
adds, each stripped of its indentation (and, for the second and later mutant of a function that
makes the same change, which one it is). So a verdict stays with its mutant when mutmut numbers
the mutants differently (another mutmut version, another set of operators) or the function
moves in its file. Equivalent mutants are listed in tools/mutation_equivalent.toml by their
*function* and their *change* in the same way. ``[equivalent_patterns]`` gives shell-style
patterns of function names for a whole kind (such as every declaration that runs when its
module is imported).

A mutant counts as killed when a test failed or it timed out (an endless loop is caught). A
mutant a test kills is never counted equivalent. The score of a module is killed / (checked −
equivalent).
"""

from __future__ import annotations

import argparse
import ast
import datetime as dt
import fnmatch
import hashlib
import json
import os
import shutil
import sys
import tomllib
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from difflib import unified_diff
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
#: Hex digits of a mutant's key: its function's mutants never share one (checked).
KEY_DIGITS = 10

#: The record: {source path: {function (mutmut's mangled name): Function}}
Record = dict[str, dict[str, "Function"]]


@dataclass
class Function:
    """One function's mutants: mutmut's hash of its source, the verdict of each mutant by its
    key (mutmut's exit code; None: not checked) and the date the last of them was checked."""

    hash: str
    verdicts: dict[str, int | None]
    checked: str | None = None

    def as_json(self) -> dict:
        return {"hash": self.hash, "checked": self.checked, "verdicts": self.verdicts}


@dataclass(frozen=True)
class Mutant:
    """One mutant as mutmut makes it today: its ``name`` (``module.function__mutmut_N``), its
    ``function`` (``module.function``), its ``diff`` against the function, its ``change`` (the
    lines it removes and adds) and its stable ``key``."""

    name: str
    function: str
    diff: str
    change: str
    key: str


def module_of_path(path: str) -> str:
    module = path.removesuffix(".py").replace("/", ".")
    return module.removesuffix(".__init__")


def changed_lines(diff_text: str) -> str:
    """The lines a mutant removes and adds, each stripped of its indentation: the mutant's
    identity within its function, whatever its number."""
    return "\n".join(f"{line[0]} {line[1:].strip()}" for line in diff_text.splitlines()
                     if line[:1] in "+-" and not line.startswith(("+++", "---")))


def mutant_key(change: str, occurrence: int = 1) -> str:
    """The stable key of a function's mutant: a digest of its change, and of which of the
    function's mutants making that same change it is (the first is 1)."""
    said = change if occurrence == 1 else f"{change}\n#{occurrence}"
    return hashlib.sha256(said.encode("utf-8")).hexdigest()[:KEY_DIGITS]


def mutants_in(path: str, code: str) -> list[Mutant]:
    """The mutants of the source file ``path`` in ``code``, the module mutmut writes for it
    (every function's original and its mutants side by side), in mutmut's order."""
    from mutmut.utils.format_utils import orig_function_and_class_names_from_key

    lines = code.split("\n")
    texts = {}
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and "__mutmut_" in node.name:
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            texts[node.name] = "\n".join(lines[first - 1:node.end_lineno])
    module = module_of_path(path)
    found: list[Mutant] = []
    seen: dict[tuple[str, str], int] = defaultdict(int)
    numbered = sorted((name.rpartition("__mutmut_") for name in texts if not name.endswith("__mutmut_orig")),
                      key=lambda parts: (parts[0], int(parts[2])))
    for function, _, number in numbered:
        name = f"{function}__mutmut_{number}"
        # both named as the function itself, as `mutmut show` does: the diff is the mutation alone
        plain = orig_function_and_class_names_from_key(name)[0]
        original = texts[f"{function}__mutmut_orig"].replace(f"{function}__mutmut_orig", plain, 1).strip()
        mutated = texts[name].replace(name, plain, 1).strip()
        diff = "\n".join(unified_diff(original.split("\n"), mutated.split("\n"), lineterm=""))
        change = changed_lines(diff)
        seen[function, change] += 1
        found.append(Mutant(f"{module}.{name}", f"{module}.{function}", diff, change,
                            mutant_key(change, seen[function, change])))
    keys = [(m.function, m.key) for m in found]
    if len(set(keys)) != len(keys):
        raise SystemExit(f"{path}: two mutants of one function share a key; make KEY_DIGITS larger")
    return found


def mutants_made(path: str) -> list[Mutant]:
    """The mutants mutmut makes of the source file ``path`` as it is now, made here as mutmut
    makes them (none of a file no longer there)."""
    from mutmut.mutation.file_mutation import mutate_file_contents

    if not (ROOT / path).exists():
        return []
    return mutants_in(path, mutate_file_contents(path, (ROOT / path).read_text(encoding="utf-8")).code)


def mutants_now(path: str) -> list[Mutant]:
    """The mutants of the source file ``path`` as it is now: read from the module a run left in
    ``mutants/`` when that is newer than the source (as mutmut itself decides), else made."""
    made = MUTANTS / path
    if made.exists() and made.stat().st_mtime >= (ROOT / path).stat().st_mtime:
        return mutants_in(path, made.read_text(encoding="utf-8"))
    return mutants_made(path)


def _short(mutant_name: str) -> str:
    """mutmut's name of a mutant without its module (``x_f__mutmut_3``)."""
    return mutant_name.rpartition(".")[2]


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


def restore(record: Record, mutants: Path | None = None,
            describe: Callable[[str], list[Mutant]] = mutants_made) -> None:
    """Start a run from the record: a fresh ``mutants/`` holding only mutmut's verdict files,
    each verdict under the name mutmut gives its mutant today (``describe``: a source file's
    mutants as mutmut makes them)."""
    mutants = mutants or MUTANTS
    today = {source: describe(source) for source in record}  # before ``mutants/`` goes
    shutil.rmtree(mutants, ignore_errors=True)
    for source, functions in record.items():
        codes = {}
        for mutant in today[source]:
            recorded = functions.get(_short(mutant.function))
            codes[mutant.name] = None if recorded is None else recorded.verdicts.get(mutant.key)
        meta = mutants / (source + ".meta")
        meta.parent.mkdir(parents=True, exist_ok=True)
        meta.write_text(json.dumps({
            "exit_code_by_key": codes,
            "hash_by_function_name": {name: f.hash for name, f in functions.items()},
            "type_check_error_by_key": {}, "durations_by_key": {}, "estimated_durations_by_key": {},
        }), encoding="utf-8")


def collect(earlier: Record, today: str, mutants: Path | None = None,
            describe: Callable[[str], list[Mutant]] | None = None) -> Record:
    """The record after a run, from mutmut's verdict files and the mutants it wrote
    (``describe``: by default read from ``mutants/``). A function keeps its date when this run
    checked none of its mutants (mutmut times each mutant it runs) and its source is the one
    recorded."""
    mutants = mutants or MUTANTS
    describe = describe or (lambda source: mutants_in(source, (mutants / source).read_text(encoding="utf-8")))
    record: Record = {}
    for meta_path in sorted(mutants.rglob("*.py.meta")):
        source = meta_path.relative_to(mutants).as_posix().removesuffix(".meta")
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        if not meta["exit_code_by_key"]:
            continue
        keys = {m.name: m.key for m in describe(source)}
        verdicts: dict[str, dict[str, int | None]] = defaultdict(dict)
        ran: set[str] = set()
        for name, code in meta["exit_code_by_key"].items():
            function = _short(name).partition("__mutmut_")[0]
            if name not in keys:
                raise SystemExit(f"{source}: mutmut's verdict file names {name}, which its mutants do not hold")
            verdicts[function][keys[name]] = code
            if name in meta["durations_by_key"]:
                ran.add(function)
        functions = {}
        for function, by_key in verdicts.items():
            before = earlier.get(source, {}).get(function)
            h = meta["hash_by_function_name"][function]
            kept = before.checked if before and before.hash == h and function not in ran else None
            checked = today if function in ran else kept
            functions[function] = Function(h, by_key, checked if any(c is not None for c in by_key.values()) else None)
        record[source] = functions
    return record


# --- equivalents --------------------------------------------------------------------------------

class Equivalents:
    """The mutants judged equivalent: by function and change, and by function name pattern."""

    def __init__(self, changes: Mapping[tuple[str, str], str], patterns: Mapping[str, str]):
        self.changes = dict(changes)    # (module.function, changed lines) -> why
        self.patterns = dict(patterns)  # module.function pattern -> why

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

    def match(self, mutant: Mutant) -> tuple[object, str] | None:
        """The entry (a pattern, or a function and change) judging ``mutant`` equivalent, and
        its reason."""
        for pattern, why in self.patterns.items():
            if fnmatch.fnmatchcase(mutant.function, pattern):
                return pattern, why
        key = (mutant.function, mutant.change)
        return (key, self.changes[key]) if key in self.changes else None


# --- the page -----------------------------------------------------------------------------------

def report(record: Record, equivalents: Equivalents,
           describe: Callable[[str], list[Mutant]] = mutants_now) -> tuple[str, bool]:
    """The page, and whether every module checked meets the target. ``describe`` gives a source
    file's mutants (asked only of the files with a mutant no test killed)."""
    lines = ["# Mutation testing", "",
             "`make mutate` runs [mutmut](https://pypi.org/project/mutmut/) over `rules_core/dist.py` and "
             "`rules_core/systems/`, each mutant against the fast core tests, and writes this page. A mutant is "
             "killed when a test fails or it times out. Equivalent mutants (they change nothing a caller can "
             "observe) are listed with the reason, from `tools/mutation_equivalent.toml`, and left out of the "
             f"score. Target: at least {TARGET:.0%} of the rest killed in every module. Each function's "
             "verdicts are kept in `tools/mutation_results.json`, each mutant's by what it changes (not by "
             "its number or line); a run checks again only the functions that changed since (the *run* "
             "column gives the dates of a module's verdicts).", "",
             "| module | mutants | killed | equivalent | survived | score | run |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    ok = True
    survivors: list[tuple[Mutant, str]] = []
    equivalent: list[tuple[Mutant, str]] = []
    used: set[object] = set()
    waiting: set[str] = set()  # functions with mutants not checked yet: their entries wait too

    for source in sorted(record, key=module_of_path):
        module = module_of_path(source)
        total = killed = eq = alive = unchecked = 0
        dates = set()
        made: dict[tuple[str, str], Mutant] | None = None
        for function, f in sorted(record[source].items()):
            if f.checked:
                dates.add(f.checked)
            for key, code in f.verdicts.items():
                total += 1
                if code is None:
                    unchecked += 1
                    waiting.add(f"{module}.{function}")
                    continue
                if code in KILLED_CODES:
                    killed += 1
                    continue
                if made is None:
                    made = {(_short(m.function), m.key): m for m in describe(source)}
                mutant = made.get((function, key))
                if mutant is None:  # the function changed since it was checked: run again
                    mutant = Mutant(f"{module}.{function}", f"{module}.{function}",
                                    "(no longer made: its function changed since; run make mutate)", "", key)
                if (found := equivalents.match(mutant)) is not None:
                    eq += 1
                    used.add(found[0])
                    if found[0] not in equivalents.patterns:
                        equivalent.append((mutant, found[1]))
                else:
                    alive += 1
                    survivors.append((mutant, _status(code)))
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
    lines += [f"- `{m.function}`: `{_one_line(m.change)}` — {why}"
              for m, why in sorted(equivalent, key=lambda item: (item[0].function, item[0].change))]
    lines += [f"- `{pattern}` — {why}" for pattern, why in equivalents.patterns.items()]
    if lines[-1] == "":
        lines.append("None.")
    lines += ["", "## Surviving mutants", ""]
    for m, status in survivors:
        lines += [f"- `{m.function}` ({status}; mutmut's `{_short(m.name)}` in this run)", "", "  ```diff",
                  *("  " + d for d in m.diff.splitlines()), "  ```", ""]
    if not survivors:
        lines += ["None.", ""]
    unmatched = [key for key in equivalents.changes if key not in used and key[0] not in waiting]
    if unmatched:
        lines += ["## Equivalences that match no surviving mutant", "",
                  "A test kills the mutant now, or its function no longer makes it: remove the entry.", "",
                  *(f"- `{function}`: `{_one_line(change)}`" for function, change in unmatched), ""]
    return "\n".join(lines).rstrip("\n") + "\n", ok


def _one_line(change: str) -> str:
    return change.replace("\n", " / ")


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
