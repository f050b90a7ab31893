"""The static site's lab (``site/lab/``): JupyterLite's JupyterLab, where a designer writes code
with no install — the notebook *Design your own rule*, a rule file and the lessons, run by the
site's own Python in the browser.

The lab is a JupyterLite of its own inside the site (``jupyter lite build --apps lab``, the
jupyterlite-core and Pyodide kernel the dashboards' pages are built with): its own scripts,
extensions, service worker and contents under ``site/lab/``, so a dashboard's page loads none of
it and only a reader who opens the lab downloads it. What it shares with the pages is the
Python: its kernel starts the site's runtime (``site/pyodide/``) with the same lock and the same
packages, the project's ``rules_core`` and ``workbook`` among them, so every notebook imports the
project as it is installed, with nothing fetched from another host (and no pip at run time).

What a designer does there, and how a rule written there becomes a page others open
(``make site RULES=...``): docs/deploy.md, "The lab".
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import patches  # tools/site/patches.py, beside this script

ROOT = Path(__file__).resolve().parents[2]

#: The lab's notebooks (``notebooks/``): designing a rule, then the lessons, which run there as in
#: a dashboard's page. Not ``explore-in-code.ipynb``: it works in pandas DataFrames from its first
#: cells (``workbook.explore``, plotly express), and pandas and numpy have no wheel for the
#: site's Python (PyPI has none for Pyodide 314), so it would stop at its first cell.
LAB_NOTEBOOKS = ["design-a-rule.ipynb", "lesson-bell-and-flat.ipynb", "lesson-leftover-successes.ipynb",
                 "lesson-one-die-three-attackers.ipynb", "lesson-sampling.ipynb"]
#: A rule module, as ``make site RULES=`` and ``--system-module`` take it, beside the notebooks:
#: what a designer edits in the lab, and downloads to publish.
LAB_RULE = ROOT / "notebooks" / "my_rule.py"
#: Where the lab is in the site; its page is ``lab/lab/index.html`` (``lab/`` opens it).
LAB = "lab"
#: Extensions of the build tools that the lab leaves out: Voilà's preview, which needs a Voilà
#: server. The lab keeps the widgets' and anywidget's (the dashboards) and the Pyodide kernel's.
LAB_LEFT_OUT = ["@voila-dashboards/jupyterlab-preview"]

#: Every file the lab is built from, for the site's digest of its inputs.
LAB_INPUTS = [Path(__file__).resolve(), LAB_RULE, *(ROOT / "notebooks" / n for n in LAB_NOTEBOOKS)]


def lab_kernel_settings(kernel: dict) -> dict:
    """The dashboards' kernel settings (paths relative to the site's root) for the lab, whose
    page is two folders down (``lab/lab/index.html``): the runtime's address is read relative
    to the page, the lock's relative to the lab's root (``lab/``).

    >>> lab_kernel_settings({"pyodideUrl": "./pyodide/pyodide.js",
    ...                      "loadPyodideOptions": {"lockFileURL": "pyodide/pyodide-lock.json"}})
    {'pyodideUrl': '../../pyodide/pyodide.js', 'loadPyodideOptions': {'lockFileURL': '../pyodide/pyodide-lock.json'}}
    """
    options = dict(kernel["loadPyodideOptions"])
    options["lockFileURL"] = "../" + options["lockFileURL"]
    return {**kernel, "pyodideUrl": "../../" + kernel["pyodideUrl"].removeprefix("./"),
            "loadPyodideOptions": options}


#: The lab's one kernel, as JupyterLite's Pyodide kernel names itself.
LAB_KERNELSPEC = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}


def lab_notebook(text: str) -> str:
    """A notebook (its JSON) asking for the lab's kernel: the project's notebooks name a desktop's
    ``python3``, which the lab has not, and the lab would ask the reader to pick one."""
    notebook = json.loads(text)
    notebook["metadata"]["kernelspec"] = LAB_KERNELSPEC
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"


def lab_config(kernel: dict) -> dict:
    """The lab's ``jupyter-lite.json``: its kernel on the site's runtime."""
    return {"jupyter-lite-schema-version": 0, "jupyter-config-data": {
        "litePluginSettings": {"@jupyterlite/pyodide-kernel-extension:kernel": lab_kernel_settings(kernel)}}}


def leave_out_extensions(lab: Path) -> None:
    """The built ``lab`` without the extensions of ``LAB_LEFT_OUT`` (their files, and their
    entries in its ``jupyter-lite.json``); fails if one is not there (a new layout?)."""
    config_file = lab / "jupyter-lite.json"
    config = json.loads(config_file.read_text(encoding="utf-8"))
    extensions = config["jupyter-config-data"]["federated_extensions"]
    for name in LAB_LEFT_OUT:
        kept = [e for e in extensions if e["name"] != name]
        if len(kept) != len(extensions) - 1 or not (lab / "extensions" / name).is_dir():
            raise SystemExit(f"the lab: expected the extension {name} once (see LAB_LEFT_OUT in {Path(__file__).name})")
        extensions[:] = kept
        shutil.rmtree(lab / "extensions" / name)
        scope = (lab / "extensions" / name).parent
        if scope != lab / "extensions" and not any(scope.iterdir()):
            scope.rmdir()
    config_file.write_text(json.dumps(config, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def staged_build(command: list[str | Path], output: Path, work: Path, env: dict) -> None:
    """Run a JupyterLite build ``command`` (Voici's or JupyterLite's ``build``, without its
    ``--output-dir``) in ``work`` and put what it built at ``output``, which must not exist.

    Given ``--source-date-epoch``, JupyterLite sets back the time of every file newer than that
    epoch under the *parent* of its output folder, not only under the output (it timestamps
    the folder it copies into and all below it). Built straight into ``site/``, that was every
    file of the project (a designer's rule edited since the last commit among them); into a
    folder beside others (``--out ~/my-site``), every file beside it, or it stopped at a
    dangling link there. So it builds into a folder of a fresh one of its own (beside ``work``,
    whose contents the tool reads), whose only content is the build's, and the folder built is
    then moved to ``output``. A build that fails stops with its tool's last lines and one line
    of ours, not a traceback."""
    with tempfile.TemporaryDirectory(dir=work.parent) as stage:
        built = Path(stage) / "built"
        argv = [str(c) for c in [*command, "--output-dir", built]]
        print(f"[site] {' '.join(argv)}", flush=True)
        done = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            sys.stderr.write("".join((done.stdout + done.stderr).splitlines(keepends=True)[-30:]))
            tool = Path(argv[argv.index("build") - 1]).name  # voici, jupyter-lite
            raise SystemExit(f"[site] {tool} build failed (exit {done.returncode}); its last lines are above")
        shutil.move(built, output)


def add_lab(site: Path, jupyter_lite: Path, kernel: dict, plotly_js: Path, plotly_address: str, work: Path,
            env: dict) -> None:
    """Build the lab into ``site/lab/`` with ``jupyter_lite`` (the build tools' ``jupyter-lite``),
    its kernel given the dashboards' ``kernel`` settings. ``plotly_js`` is the charts' plotly.js,
    copied to where the charts ask for it, ``plotly_address`` relative to the lab's page; ``work``
    is a folder that does not exist yet, to stage the lab in."""
    contents = work / "files"
    contents.mkdir(parents=True)
    for name in LAB_NOTEBOOKS:
        (contents / name).write_text(lab_notebook((ROOT / "notebooks" / name).read_text(encoding="utf-8")),
                                     encoding="utf-8")
    (contents / LAB_RULE.name).write_bytes(LAB_RULE.read_bytes())  # its time: the build's (SOURCE_DATE_EPOCH)
    (work / "jupyter-lite.json").write_text(json.dumps(lab_config(kernel), indent=2))
    staged_build([jupyter_lite, "build", "--apps", "lab", "--contents", contents, "--no-sourcemaps",
                  "--no-unused-shared-packages", "--source-date-epoch", env["SOURCE_DATE_EPOCH"]],
                 site / LAB, work, env)
    leave_out_extensions(site / LAB)
    # piplite set up lazily, as on the pages: the lab's kernel imports neither it nor micropip
    # (nor unittest.mock) as it starts, and fetches none of them until %pip is used
    worker = patches.kernel_worker(site / LAB)
    worker.write_text(patches.patch_kernel_worker_piplite(worker.read_text(encoding="utf-8")), encoding="utf-8")
    bundle = site / LAB / "lab" / plotly_address
    bundle.parent.mkdir(parents=True)
    shutil.copy2(plotly_js, bundle)
