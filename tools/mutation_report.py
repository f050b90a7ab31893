"""Write docs/mutation.md from the last `mutmut run`: the score per module, every surviving
mutant with its diff, and the mutants judged equivalent (tools/mutation_equivalent.toml, each
with a one-line reason).

A mutant counts as killed when a test failed or it timed out (an endless loop is caught). The
score of a module is killed / (all − equivalent). Run by `make mutate`.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tomllib
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT = ROOT / "tools" / "mutation_equivalent.toml"
TARGET = 0.90
KILLED = {"killed", "timeout"}


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


def report(status: dict[str, str], equivalent: dict[str, str]) -> tuple[str, bool]:
    by_module: dict[str, list[str]] = defaultdict(list)
    for name in status:
        by_module[module_of(name)].append(name)
    lines = ["# Mutation testing", "",
             "`make mutate` runs [mutmut](https://pypi.org/project/mutmut/) over `rules_core/dist.py` and "
             "`rules_core/systems/`, each mutant against the fast core tests, and writes this page. A mutant is "
             "killed when a test fails or it times out. Equivalent mutants (they change nothing a caller can "
             "observe) are listed with the reason, from `tools/mutation_equivalent.toml`, and left out of the "
             f"score. Target: at least {TARGET:.0%} of the rest killed in every module.", "",
             "| module | mutants | killed | equivalent | survived | score |", "| --- | --- | --- | --- | --- | --- |"]
    ok = True
    survivors = []
    for module in sorted(by_module):
        names = by_module[module]
        eq = [n for n in names if n in equivalent]
        killed = [n for n in names if status[n] in KILLED and n not in equivalent]
        alive = [n for n in names if status[n] not in KILLED and n not in equivalent]
        counted = len(names) - len(eq)
        score = len(killed) / counted if counted else 1.0
        ok &= score >= TARGET
        survivors += alive
        lines.append(f"| `{module}` | {len(names)} | {len(killed)} | {len(eq)} | {len(alive)} | {score:.1%} |")
    lines += ["", "## Equivalent mutants", ""]
    used = [n for n in sorted(equivalent) if n in status]
    lines += [f"- `{n}` — {equivalent[n]}" for n in used] or ["None."]
    lines += ["", "## Surviving mutants", ""]
    if survivors:
        for n in survivors:
            lines += [f"- `{n}` ({status[n]})", "", "  ```diff", *("  " + d for d in diff(n).splitlines()),
                      "  ```"]
    else:
        lines.append("None.")
    stale = sorted(set(equivalent) - set(status))
    if stale:
        lines += ["", "## Equivalences that no longer match a mutant", "",
                  *(f"- `{n}`" for n in stale)]
    return "\n".join(lines) + "\n", ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", type=Path, help="write the report here (default: print it)")
    args = parser.parse_args()
    equivalent = tomllib.loads(EQUIVALENT.read_text(encoding="utf-8")).get("equivalent", {})
    text, ok = report(results(), equivalent)
    if args.write:
        args.write.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    print("mutation score target met in every module" if ok else "below the target in some module", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
