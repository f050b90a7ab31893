// Compile archives to bytecode with Pyodide's own CPython (see bytecode.py):
//   node bytecode.mjs RUNTIME_DIR WORK_DIR JOBS
// RUNTIME_DIR holds the npm pyodide package's files; WORK_DIR is mounted at /work; JOBS, a JSON
// file in WORK_DIR, has "site_packages", "start" (the code a page runs as it opens), "pack",
// "split" (the top-level packages noted page by page) and "archives": [source, target,
// installed_at, deferred or null, whether split by page], paths relative to WORK_DIR.
import { readFileSync } from "node:fs";
import path from "node:path";

const [runtime, work, jobs] = process.argv.slice(2);
const { loadPyodide } = await import(path.resolve(runtime, "pyodide.mjs"));
// PYTHONNODEBUGRANGES: the bytecode keeps each instruction's line but not its columns (bytecode.py).
const pyodide = await loadPyodide({ indexURL: path.resolve(runtime) + "/",
                                    env: { PYTHONHASHSEED: "0", PYTHONNODEBUGRANGES: "1" } });
pyodide.FS.mkdirTree("/work");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: path.resolve(work) }, "/work");
pyodide.runPython(readFileSync(new URL("./bytecode.py", import.meta.url), "utf8"));
const todo = JSON.parse(readFileSync(path.join(work, jobs), "utf8"));
const wheels = todo.archives.map(([source]) => `/work/${source}`).filter((name) => name.endsWith(".whl"));
let only, byPage;
try {
  [only, byPage] = pyodide.globals.get("imported_at_start")(wheels, todo.site_packages, todo.start, todo.pack, todo.split);
} catch (err) {  // the start code printed which part failed (left to Node, the error would print its JS source)
  console.error(`${err.type ?? ""}: ${err.message}`);
  process.exit(3);
}
const compile = pyodide.globals.get("compile_archive");
for (const [source, target, installedAt, deferred, split] of todo.archives) {
  const [compiled, kept] = compile(`/work/${source}`, `/work/${target}`, installedAt, only,
                                   deferred ? `/work/${deferred}` : null, split ? byPage : null).toJs();
  console.log(`${path.basename(target)}: ${compiled} modules as bytecode`
              + (kept ? `, ${kept} ${deferred ? "deferred" : "kept as source"}` : ""));
}
