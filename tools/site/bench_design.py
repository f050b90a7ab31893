"""The design questions of ``make bench`` in the static site's Pyodide (part of ``make bench-site``):
a designer's rule evaluated and swept in the reader's browser, beside icepool there.

The site's own Pyodide and packages (``site/pyodide/``, or ``--site DIR``) run in headless
Chromium, with this tree's ``rules_core``, the benchmark definitions (benchmarks/bench_design.py)
and icepool unpacked beside them, so what is measured is the code of this tree, whichever
tree built the site. Each question is timed warm, as ``benchmarks/run.py`` times it (the
median of repeated timings, each of a batch of calls, the browser's clock being coarse), and
checked against icepool's numbers. Prints a Markdown table.

    .venv/bin/python tools/site/bench_design.py [--site DIR]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from browser.conftest import CHROMIUM, CHROMIUM_FLAGS, _free_port  # noqa: E402

TIMEOUT_MS = 600_000

#: The questions timed, by the start of their names in benchmarks/bench_design.py.
QUESTIONS = ("my-2d10 (tests/example_rule.py), skill 11, 3 hits: whole evaluate(), walked",
             "my-2d10 (tests/example_rule.py), skill 11, 3 hits: whole evaluate(), its exact= form",
             "4d20 unordered pool, skill 12, 4 hits: whole evaluate(), face_kind hint",
             "sweep 20 values of skill (1 to 20): the 4d20 pool rule, face_kind hint")

#: Run in Pyodide: each question timed and checked, as JSON rows. A browser's clock is coarse
#: (0.1 ms in Chromium), so each timing is of a batch of calls lasting at least 20 ms.
_MEASURE = f"""
import json, statistics, sys, time
sys.path.insert(0, "/home/pyodide/bench")
from benchmarks import bench_design

def median_ms(fn, samples=7):
    value = fn()
    batch, took = 1, 0.0
    while took < 0.02:
        start = time.perf_counter()
        for _ in range(batch):
            fn()
        took = time.perf_counter() - start
        batch *= 2
    batch //= 2
    times = []
    for _ in range(samples):
        start = time.perf_counter()
        for _ in range(batch):
            fn()
        times.append((time.perf_counter() - start) / batch)
    return statistics.median(times) * 1000, value

rows = []
for case in bench_design.CASES:
    if not case.name.startswith({QUESTIONS!r}):
        continue
    ours_ms, ours = median_ms(case.run)
    ref_ms, ref = median_ms(case.reference)
    rows.append({{"name": case.name, "ours": ours_ms, "reference": ref_ms, "reference_name": case.reference_name,
                 "times": case.target_times, "agree": bool(case.check(ours, ref))}})
json.dumps(rows)
"""


#: Pyodide in a worker, as the site's pages run it (its standard library loads parts of itself
#: on first import, which a page's main thread may not do).
_WORKER = """
importScripts("pyodide/pyodide.js");
onmessage = async (event) => {
  try {
    const py = await loadPyodide({indexURL: new URL("pyodide/", location.href).href});
    await py.loadPackage(["pydantic", "pydantic-core", "typing-extensions", "annotated-types", "typing-inspection"]);
    const zip = await (await fetch("code.zip")).arrayBuffer();
    py.unpackArchive(zip, "zip", {extractDir: "/home/pyodide/bench"});
    postMessage([py.runPython(event.data), py.runPython("import sys; sys.version.split()[0]")]);
  } catch (error) {
    postMessage({error: String(error)});
  }
};
"""


def code_zip() -> bytes:
    """This tree's rules_core, the benchmark definitions it needs, the example rule, and icepool."""
    import icepool

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for folder, under in ((ROOT / "rules_core", "rules_core"), (Path(icepool.__file__).parent, "icepool")):
            for path in folder.rglob("*.py"):
                z.write(path, f"{under}/{path.relative_to(folder)}")
        for name in ("__init__.py", "common.py", "run.py", "bench_design.py"):
            z.write(ROOT / "benchmarks" / name, f"benchmarks/{name}")
        z.write(ROOT / "tests" / "example_rule.py", "tests/example_rule.py")
    return buffer.getvalue()


def measure(site: Path) -> tuple[list[dict], str]:
    """The questions' rows measured in the site's Pyodide, and Pyodide's Python version."""
    from playwright.sync_api import sync_playwright

    folder = Path(tempfile.mkdtemp(prefix="bench-design-"))
    server = None
    try:
        shutil.copytree(site / "pyodide", folder / "pyodide")
        (folder / "code.zip").write_bytes(code_zip())
        (folder / "index.html").write_text("<!doctype html><title>design benchmarks</title>")
        (folder / "worker.js").write_text(_WORKER)
        port = _free_port()
        server = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory",
                                   str(folder), str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}/"
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "index.html", timeout=2).close()
                break
            except OSError:
                time.sleep(0.2)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=[
                *CHROMIUM_FLAGS, "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"])
            page = browser.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(base + "index.html")
            found = page.evaluate("""(measure) => new Promise((resolve, reject) => {
                const worker = new Worker("worker.js");
                worker.onmessage = (event) => event.data.error ? reject(new Error(event.data.error)) : resolve(event.data);
                worker.onerror = (event) => reject(new Error(event.message));
                worker.postMessage(measure);
            })""", _MEASURE)
            browser.close()
        return json.loads(found[0]), found[1]
    finally:
        if server is not None:
            server.terminate()
        shutil.rmtree(folder, ignore_errors=True)


def report(site: Path) -> str:
    """The Markdown table of the questions measured in the site's Pyodide."""
    rows, version = measure(site)
    load = os.getloadavg()[0]
    lines = [f"## A designer's rule in the site's Pyodide (Python {version}, Chromium; load average "
             f"{load:.1f} on {os.cpu_count()} cores)", "",
             "| computation | ours (ms) | target | met | reference | reference (ms) | ratio | same numbers |",
             "| --- | ---: | --- | :---: | --- | ---: | ---: | :---: |"]
    for row in rows:
        ratio = row["reference"] / row["ours"]  # how many times faster ours is, as make bench writes it
        target, met = (f"≤ {row['times']:g}× reference", "yes" if ratio * row["times"] >= 1 else "no") \
            if row["times"] else ("—", "")
        lines.append(f"| {row['name']} | {row['ours']:.3f} | {target} | {met} | {row['reference_name']} | "
                     f"{row['reference']:.3f} | {ratio:.2g}× | {'yes' if row['agree'] else 'NO'} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    args = parser.parse_args(argv)
    print(report(args.site))


if __name__ == "__main__":
    main()
