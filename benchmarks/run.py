"""Run every benchmark module (benchmarks/bench_*.py) and print or write the results table.

    python benchmarks/run.py [--write docs/benchmarks.md] [--only SYSTEM]

Each case is timed warm: one call first, then repeated calls (at least 5, or 0.5 s) and the
median per call is reported. Icepool references are timed the same way, fewer times. A case
with a relative target (``target_times``) meets it when its time is at most that many times
the reference's, measured in the same run.

With ``--only SYSTEM`` and ``--write FILE`` of an existing table, only that system's rows are
replaced (or added at the end), with a line saying when and under what load they were measured;
every other row is kept as it was. Sections of the file under their own ``## `` heading (the
static site's Pyodide figures, written from ``make bench-site``) are kept by every run.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import os
import platform
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks.common import Case  # noqa: E402


def load_cases(only: str | None) -> list[Case]:
    cases: list[Case] = []
    for path in sorted(HERE.glob("bench_*.py")):
        spec = importlib.util.spec_from_file_location(f"benchmarks.{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        # known by its name while it runs, as an import would make it (pydantic resolves a
        # scenario class's annotations in its module; a module imported again is this one)
        module = sys.modules.setdefault(spec.name, module)
        if not hasattr(module, "CASES"):
            spec.loader.exec_module(module)
        cases += [c for c in module.CASES if only in (None, c.system)]
    return cases


def median_ms(fn, min_calls: int, budget_s: float) -> tuple[float, object]:
    value = fn()  # warm-up (imports, per-SV tables); its result is what is checked
    times: list[float] = []
    start = time.perf_counter()
    while len(times) < min_calls or (time.perf_counter() - start < budget_s and len(times) < 1000):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000, value


def _load() -> float | None:
    """The machine's load average over the last minute (None where the system does not say)."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


def _machine() -> str:
    return (f"{platform.python_implementation()} {platform.python_version()} on {platform.machine()}, "
            f"{os.cpu_count()} cores; run {datetime.date.today().isoformat()}")


def _under_load(before: float | None) -> str:
    return f", load average {before:.1f} at the start and {_load():.1f} at the end." if before is not None else "."


def _ms(value: float) -> str:
    """A reference time as the table writes it (three decimals below 1 ms)."""
    return f"{value:,.1f}" if value >= 1 else f"{value:.3f}"


def _ratio(value: float) -> str:
    """How many times faster ours is (two significant digits below 10: 0.0035, 5.2)."""
    return f"{value:,.0f}" if value >= 10 else f"{value:.2g}"


def _target(case: Case) -> str:
    """A case's target as the table writes it: ``5`` (ms), or ``5, ≤ 6× reference``."""
    return f"{case.target_ms:g}" + (f", ≤ {case.target_times:g}× reference" if case.target_times else "")


def kept_sections(existing: str) -> str:
    """The sections of ``existing`` under their own ``## `` heading (figures measured elsewhere:
    the static site's Pyodide, ``make bench-site``), which a run keeps as they were."""
    lines = existing.splitlines()
    at = next((i for i, line in enumerate(lines) if line.startswith("## ")), None)
    return "" if at is None else "\n" + "\n".join(lines[at:]) + "\n"


def merge_rows(existing: str, system: str, rows: list[str], note: str) -> str:
    """``existing`` (a table this script wrote) with the rows of ``system`` replaced by ``rows``
    (where the first of them was, or after the last row) and ``note`` after the Machine line
    (replacing an earlier note about ``system``)."""
    lines = existing.splitlines()
    first = f"| {system} |"
    at = next((i for i, line in enumerate(lines) if line.startswith(first)), None)
    lines = [line for line in lines if not line.startswith(first)]
    if at is None:
        at = max(i for i, line in enumerate(lines) if line.startswith("| ")) + 1
    lines[at:at] = rows
    marker = f"Rows of `{system}`:"
    old = next((i for i, line in enumerate(lines) if line.startswith(marker)), None)
    if old is not None:
        lines[old] = note
    else:
        machine = next(i for i, line in enumerate(lines) if line.startswith("Machine:"))
        lines[machine + 1:machine + 1] = ["", note]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", metavar="FILE", help="also write the Markdown table to FILE")
    parser.add_argument("--only", metavar="SYSTEM", help="only this system's cases")
    args = parser.parse_args()

    rows = []
    failed = False
    load_before = _load()
    for case in load_cases(args.only):
        ours_ms, ours = median_ms(case.run, 5, 0.5)
        ref_ms = ratio = agree = None
        if case.reference is not None:
            ref_ms, ref = median_ms(case.reference, 5 if case.target_times else 1, 0.0)
            ref_ms *= case.reference_scale
            ratio = ref_ms / ours_ms
            if case.check is not None:
                agree = bool(case.check(ours, ref))
                failed |= not agree
        ok = ours_ms <= case.target_ms and (case.target_times is None or ours_ms <= case.target_times * ref_ms)
        rows.append((case, ours_ms, ok, ref_ms, ratio, agree))
        print(f"{case.system:14} {case.name:58} {ours_ms:9.3f} ms  target {_target(case)} "
              f"{'ok' if ok else 'OVER'}" + (f"  {case.reference_name} {_ms(ref_ms)} ms (x{_ratio(ratio)})"
                                            if ref_ms is not None else ""), flush=True)

    lines = [
        "# Benchmarks",
        "",
        "Made by `make bench` (benchmarks/run.py). Each computation is exact and timed warm: the",
        "median of repeated calls after one warm-up call. Result caches are cleared inside each",
        "timed call, so a warm call recomputes everything but the per-Success-Value lookup tables",
        "where the case says so. Reference times marked ≈ were measured on a sample of the cells",
        "and scaled to the whole grid.",
        "",
        f"Machine: {_machine()}{_under_load(load_before)}",
        "",
        "| system | computation | ours (ms) | target (ms) | met | reference | reference (ms) | ratio | same numbers |",
        "| --- | --- | ---: | ---: | :---: | --- | ---: | ---: | :---: |",
    ]
    table_rows = []
    for case, ours_ms, ok, ref_ms, ratio, agree in rows:
        approx = "≈" if case.reference_scale != 1 else ""
        table_rows.append(
            f"| {case.system} | {case.name} | {ours_ms:.3f} | {_target(case)} | {'yes' if ok else 'no'} | "
            + (f"{case.reference_name} | {approx}{_ms(ref_ms)} | {approx}{_ratio(ratio)}× | "
               f"{'' if agree is None else ('yes' if agree else 'NO')} |" if ref_ms is not None
               else "— | — | — | |"))
    lines += table_rows
    timings = HERE.parent / "docs" / "browser-timings.md"
    if timings.exists():
        lines += ["", "Dashboard timings in a real browser: see [browser-timings.md](browser-timings.md)."]
    table = "\n".join(lines) + "\n"
    if args.write and not args.only and Path(args.write).exists():
        table += kept_sections(Path(args.write).read_text(encoding="utf-8"))
    if args.write and args.only and Path(args.write).exists():
        note = (f"Rows of `{args.only}`: measured alone (`benchmarks/run.py --only {args.only}`), "
                f"{_machine()}{_under_load(load_before)}")
        table = merge_rows(Path(args.write).read_text(encoding="utf-8"), args.only, table_rows, note)
    if args.write:
        Path(args.write).write_text(table, encoding="utf-8")
        print(f"wrote {args.write}")
    if failed:
        print("error: a reference disagreed with our numbers", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
