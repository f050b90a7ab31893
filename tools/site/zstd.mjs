// Compress one file with zstd as one stream, by the site's Pyodide's own CPython (its standard
// library's compression.zstd; the Python that runs the build may be older than 3.14):
//   node zstd.mjs RUNTIME_DIR SOURCE TARGET LEVEL
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const [runtime, source, target, level] = process.argv.slice(2);
const { loadPyodide } = await import(path.resolve(runtime, "pyodide.mjs"));
const pyodide = await loadPyodide({ indexURL: path.resolve(runtime) + "/" });
const compress = pyodide.runPython(
  "from compression import zstd\n(lambda data, level: zstd.compress(data.to_bytes(), level))");
const packed = compress(new Uint8Array(readFileSync(source)), Number(level));
writeFileSync(target, packed.toJs());
