"""The static site's patches to third-party files (tools/site/patches.py): each does exactly its
replacement, fails loudly when the text it replaces changed, and fits the locked file it patches."""

from __future__ import annotations

import base64
import compileall
import doctest
import importlib
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from site_build import build, patches, pyodide_tarball, runtime_for_node


def test_the_patch_removes_exactly_the_classic_worker_check():
    text = 'let s={...e};if(r&&ge())throw new Error("Classic web workers are not supported");let o=1;'
    assert patches.patch_pyodide_js(text) == "let s={...e};let o=1;"


@pytest.mark.parametrize("text", ["no check here", patches.CLASSIC_WORKER_CHECK * 2])
def test_the_patch_fails_loudly_when_the_runtime_changed(text):
    with pytest.raises(SystemExit, match=r"pyodide\.js: expected .* once, found it [02] times"):
        patches.patch_pyodide_js(text)


def test_the_stdlib_patch_fetches_the_packed_zip_and_decodes_only_a_zst_address():
    text = 'function Oe(e){let t=z(e);return 1}function De(e){let t;return t=e.indexURL+"python_stdlib.zip",[Oe(t)]}'
    assert patches.patch_pyodide_stdlib(text) == (
        patches.STDLIB_DECODED + 'return 1}function De(e){let t;return t=e.indexURL+"python_stdlib.zip.zst",[Oe(t)]}')
    with pytest.raises(SystemExit, match=r"pyodide\.js: expected 'function Oe\(e\)\{let t=z\(e\);' once, found it 0 times"):
        patches.patch_pyodide_stdlib(text.replace("let t=z(e)", "let t=y(e)"))


def test_the_stdlib_patch_fits_the_locked_runtime_and_still_runs():
    """Both replacements find their text in the locked pyodide.js, and the patched file still
    parses as JavaScript (Node checks it)."""
    with tarfile.open(pyodide_tarball()) as tar:
        text = tar.extractfile("package/pyodide.js").read().decode()
    patched = patches.patch_pyodide_stdlib(patches.patch_pyodide_js(text))
    assert 'python_stdlib.zip.zst"' in patched and 'import(new URL("fzstd.mjs"' in patched
    subprocess.run(["node", "--check", "--input-type=commonjs"], input=patched, text=True, check=True)


def test_the_snapshot_patch_grows_the_memory_only_to_restore_a_snapshot_and_fits_the_locked_runtime():
    """pyodide.js restores a snapshot into a memory grown to the snapshot's size; without a
    snapshot (``t`` undefined) nothing else runs. The locked file has the text once, and the file
    with every patch of the build still parses (Node checks it)."""
    assert patches.patch_pyodide_snapshot_memory("a" + patches.SNAPSHOT_RESTORE + "b") == (
        "a" + "function Be(e,t,n){let o=e.API,a;return t&&(e.HEAP8.length<t.length&&e._emscripten_resize_heap(t.length),"
        "a=o.restoreSnapshot(t))b")
    with pytest.raises(SystemExit, match="pyodide.js: expected"):
        patches.patch_pyodide_snapshot_memory("function Be(e,t,n){return 1}")
    with tarfile.open(pyodide_tarball()) as tar:
        text = tar.extractfile("package/pyodide.js").read().decode()
    patched = patches.patch_pyodide_snapshot_memory(patches.patch_pyodide_stdlib(patches.patch_pyodide_js(text)))
    assert patches.SNAPSHOT_RESTORE_GROWN in patched
    subprocess.run(["node", "--check", "--input-type=commonjs"], input=patched, text=True, check=True)


def test_the_patch_fits_the_locked_runtime():
    with tarfile.open(pyodide_tarball()) as tar:
        text = tar.extractfile("package/pyodide.js").read().decode()
    patched = patches.patch_pyodide_js(text)
    assert "Classic web workers are not supported" not in patched
    assert len(text) - len(patched) == len(patches.CLASSIC_WORKER_CHECK)


def test_the_kernel_patch_sends_content_and_metadata_through_json_nulls():
    text = "        get_ipython().send_comm(\n            msg_type,\n" + patches.KERNEL_COMM_SEND + "        )\n"
    patched = patches.patch_kernel_comm(text)
    assert "_json_nulls(content),\n            _json_nulls(metadata),\n" in patched
    assert patched.endswith(patches.KERNEL_COMM_NULLS)


@pytest.mark.parametrize("text", ["no call here", patches.KERNEL_COMM_SEND * 2])
def test_the_kernel_patch_fails_loudly_when_the_kernel_changed(text):
    with pytest.raises(SystemExit, match="pyodide_kernel/comm.py: expected"):
        patches.patch_kernel_comm(text)


def test_the_ipython_patch_makes_embed_a_lazy_attribute():
    text = "from .core.application import Application\n" + patches.IPYTHON_EMBED + "\nfrom .core import release\n"
    patched = patches.patch_ipython_init(text)
    assert "from .terminal" not in patched.split("def __getattr__")[0]
    space: dict = {"__name__": "IPython"}
    exec(patched.replace("from .core.application import Application\n", "").replace("from .core import release\n", ""),
         space)
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        space["__getattr__"]("nothing")
    with pytest.raises(SystemExit, match="IPython/__init__.py: expected"):
        patches.patch_ipython_init("import nothing\n")


def test_the_ipywidgets_patch_takes_traitlets_file_from_its_code_even_where_it_is_bytecode(tmp_path):
    """Here, with traitlets imported from bytecode alone (its module's file ends in ``.pyc``), the
    patched ``TRAITLETS_FILE`` is the file of the frames that read a class's attributes as
    traitlets sets the class up (as ipywidgets' static properties see them), which the
    unpatched one is not."""
    import traitlets

    shipped = tmp_path / "traitlets"
    shutil.copytree(Path(traitlets.__file__).parent, shipped, ignore=shutil.ignore_patterns("__pycache__"))
    compileall.compile_dir(shipped, legacy=True, quiet=1)
    for source in shipped.rglob("*.py"):
        source.unlink()
    header = "import inspect, sys\nfrom traitlets import HasTraits\n"
    patched = patches.patch_ipywidgets_traitlets_file(header + patches.IPYWIDGETS_TRAITLETS_FILE)
    check = ("\nread = []\nclass Seen:\n    def __get__(self, instance, owner):\n"
             "        read.append(sys._getframe(1).f_code.co_filename)\n        return 1\n"
             "class Mine(HasTraits):\n    seen = Seen()\n"
             "print(inspect.getfile(HasTraits).endswith('.pyc'), bool(read) and set(read) == {TRAITLETS_FILE})\n")
    said = [subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(tmp_path)!r})\n" + text + check],
                           capture_output=True, text=True, check=True).stdout.split()
            for text in (patched, header + patches.IPYWIDGETS_TRAITLETS_FILE)]
    assert said == [["True", "True"], ["True", "False"]]
    with pytest.raises(SystemExit, match="ipywidgets/widgets/widget.py: expected"):
        patches.patch_ipywidgets_traitlets_file("TRAITLETS_FILE = something_else\n")


def test_an_import_moves_before_the_line_that_uses_it_and_runs_there():
    text = "import os\nimport json\n\n\ndef dump(value):\n    return json.dumps(value)\n"
    patched = patches.move_imports(text, "m.py", [("import json\n", "    return json.dumps(value)\n")])
    assert patched.startswith("import os\n\n\ndef dump(value):\n")
    space: dict = {}
    exec(patched, space)
    assert "json" not in space and space["dump"]([1]) == "[1]"
    with pytest.raises(SystemExit, match="m.py: expected 'import json' once, found it 0 times"):
        patches.move_imports(patched, "m.py", [("import json\n", "    return json.dumps(value)\n")])
    with pytest.raises(SystemExit, match="m.py: expected 'return json.loads"):
        patches.move_imports(text, "m.py", [("import json\n", "    return json.loads(value)\n")])


def test_the_debuggers_factory_imports_the_debugger_only_when_a_debugger_is_made(monkeypatch):
    """IPython's tracebacks and shell name ``_debugger``'s factory (``READ_WHEN_USED``): making
    the factory imports nothing; calling it imports IPython's debugger and makes one of the class
    named, with the arguments given."""
    factory = dict(patches.READ_WHEN_USED["ipython"][patches.IPYTHON_TBTOOLS])["from IPython.core import debugger\n"]
    space: dict = {}
    exec(factory, space)
    debugger = type(sys)("IPython.core.debugger")
    debugger.Pdb = lambda *args, **kwargs: ("Pdb", args, kwargs)
    core = type(sys)("IPython.core")
    monkeypatch.setitem(sys.modules, "IPython.core", core)
    make = space["_debugger"]("Pdb")
    assert not hasattr(core, "debugger")  # nothing imported yet: importing it now would fail
    with pytest.raises(ImportError):
        make()
    core.debugger = debugger
    assert make(1, context=5) == ("Pdb", (1,), {"context": 5})


def test_the_tracebacks_stand_in_imports_stack_data_at_its_first_attribute(monkeypatch):
    """IPython's tracebacks name stack_data through ``_ImportedWhenUsed`` (``READ_WHEN_USED``):
    binding the name imports nothing; its first attribute imports stack_data and is stack_data's
    own."""
    monkeypatch.delitem(sys.modules, "stack_data", raising=False)
    space: dict = {}
    exec(patches.STACK_DATA_WHEN_USED, space)
    assert "stack_data" not in sys.modules
    options = space["stack_data"].Options
    assert options is sys.modules["stack_data"].Options
    with pytest.raises(AttributeError):
        space["stack_data"].nowhere


@pytest.mark.parametrize("module", ["patches", "rules", "lab", "bytecode"])
def test_the_site_tools_examples_hold(module):
    """The examples in the site build's docstrings (tools/site is outside the suite's doctest
    paths) run here, so an example that no longer holds fails."""
    failed, tried = doctest.testmod(importlib.import_module(module))
    assert tried > 0 and failed == 0


def test_the_patches_fit_the_locked_wheels(tmp_path):
    """Each patch finds its text once in the wheel the lock pins, and the wheel then holds it
    patched and listed in RECORD with its new hash."""
    lock = json.loads(build.LOCK.read_text())
    wheels = build.kernel_wheels(lock, offline=False, out=tmp_path)
    wheels += [build.browser_wheel(e, offline=False, out=tmp_path) for e in lock["browser"]
               if e["name"] in patches.WHEEL_PATCHES]
    patched = {build.wheel_name_version(w.name)[0]: build.patch_wheel(w) for w in wheels}
    assert set(patches.WHEEL_PATCHES) <= set(patched)
    for name, files in patches.WHEEL_PATCHES.items():
        with zipfile.ZipFile(patched[name]) as archive:
            record = archive.read(next(n for n in archive.namelist() if n.endswith(".dist-info/RECORD"))).decode()
            for member in files:
                data = archive.read(member)
                assert b"Dodge Workbook" in data  # the patch's own words
                compile(data, member, "exec")  # still Python
                digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                assert f"{member},sha256={digest},{len(data)}\n" in record
                assert record.count(f"{member},") == 1


#: Run by this machine's Python with plotly's validators replaced by the file given (the site's).
_PLOTLY_WITH_VALIDATORS = """
import json, sys, types
import _plotly_utils
validators = types.ModuleType("_plotly_utils.basevalidators")
validators.__file__ = sys.argv[1]
sys.modules[validators.__name__] = _plotly_utils.basevalidators = validators
exec(compile(open(sys.argv[1]).read(), sys.argv[1], "exec"), validators.__dict__)
import plotly.graph_objects as go
lists = list(go.Figure(go.Bar(x=["a", "b"], y=[1, 2])).data[0].y)
imported = "narwhals" in sys.modules
import narwhals.stable.v1 as nw
import pandas as pd
series = nw.from_native(pd.Series([3.0, 4.0]), series_only=True)
y = go.Figure(go.Bar(x=["a", "b"], y=series)).data[0].y
print(json.dumps([lists, imported, validators.is_homogeneous_array(series), y.tolist(), type(y).__name__]))
"""


def test_plotlys_validators_import_narwhals_only_for_a_narwhals_value(tmp_path):
    """plotly's validators as the site ships them (the locked wheel, patched), run here with the
    rest of plotly: a figure of lists is made without importing narwhals, and a narwhals Series
    is still an array to them (kept as a numpy array, as plotly's own validators keep it)."""
    (plotly,) = [e for e in json.loads(build.LOCK.read_text())["browser"] if e["name"] == "plotly"]
    with zipfile.ZipFile(build.patch_wheel(build.browser_wheel(plotly, offline=False, out=tmp_path))) as wheel:
        (tmp_path / "basevalidators.py").write_bytes(wheel.read(patches.PLOTLY_VALIDATORS))
    said = subprocess.run([sys.executable, "-c", _PLOTLY_WITH_VALIDATORS, str(tmp_path / "basevalidators.py")],
                          capture_output=True, text=True, check=True).stdout
    assert json.loads(said) == [[1, 2], False, True, [3.0, 4.0], "ndarray"], said


#: Run by this machine's Python: anywidget's file contents as the file given (the site's), on their
#: own (they import only the standard library and psygnal).
_ANYWIDGET_WITH_FILES = """
import json, sys, types
files = types.ModuleType("site_file_contents")
files.__file__ = sys.argv[1]
sys.modules[files.__name__] = files
exec(compile(open(sys.argv[1]).read(), sys.argv[1], "exec"), files.__dict__)
imported = "psygnal" in sys.modules
text, said = files.VirtualFileContents("a"), []
text.changed.connect(said.append)
text.contents = "b"
other, heard = files.VirtualFileContents("c"), []
other.changed.connect(heard.append)
other.contents = "d"
import psygnal
print(json.dumps([imported, said, heard, type(files.VirtualFileContents.changed) is psygnal.Signal,
                  type(files.FileContents.deleted).__name__]))
"""


def test_anywidgets_file_contents_import_psygnal_only_when_a_signal_is_read(tmp_path):
    """anywidget's file contents as the site ships them (the locked wheel, patched), run here
    with this machine's psygnal (the locked version): defining them imports no psygnal; the first signal read is
    psygnal's own, in its place on the class, and each instance's signal reaches its own
    listeners only."""
    (entry,) = [e for e in json.loads(build.LOCK.read_text())["browser"] if e["name"] == "anywidget"]
    with zipfile.ZipFile(build.patch_wheel(build.browser_wheel(entry, offline=False, out=tmp_path))) as wheel:
        (tmp_path / "files.py").write_bytes(wheel.read(patches.ANYWIDGET_FILES))
    psygnal = subprocess.run([sys.executable, "-c", "import psygnal; print(psygnal.__version__)"],
                             capture_output=True, text=True, check=True).stdout.strip()
    assert psygnal == next(e["version"] for e in json.loads(build.LOCK.read_text())["browser"] if e["name"] == "psygnal")
    said = subprocess.run([sys.executable, "-c", _ANYWIDGET_WITH_FILES, str(tmp_path / "files.py")],
                          capture_output=True, text=True, check=True).stdout
    assert json.loads(said) == [False, ["b"], ["d"], True, "Signal"], said


def _kernel_static_files() -> dict[str, str]:
    """The kernel extension's scripts as the locked kernel's wheel holds them, by file name."""
    lock = json.loads(build.LOCK.read_text())
    (entry,) = [e for e in lock["build"] if e["name"] == "jupyterlite-pyodide-kernel"]
    with zipfile.ZipFile(build.fetch("build", entry, offline=False)) as archive:
        return {m.rsplit("/", 1)[-1]: archive.read(m).decode() for m in archive.namelist()
                if "/pyodide-kernel-extension/static/" in m and m.endswith(".js")}


def test_the_early_start_patches_fit_the_locked_kernel():
    """The kernel's page code takes the page's worker; its worker (chunk WORKER_CHUNK) starts
    the runtime when the page asks, uses it in ``initialize``, and gives piplite its settings
    lazily; a kernel that changed any of these texts stops the build."""
    files = _kernel_static_files()
    (page_code,) = [text for text in files.values() if patches.KERNEL_NEW_WORKER in text]
    taken = patches.patch_kernel_worker_taken(page_code)
    assert "self.dodgeKernelWorker=null,w;" in taken and patches.KERNEL_NEW_WORKER not in taken
    (worker,) = [text for name, text in files.items() if name.startswith(patches.WORKER_CHUNK + ".")]
    patched = patches.patch_kernel_worker_piplite(patches.patch_kernel_worker_early(worker))
    assert "self.dodgeEarly?self.dodgeEarly(e):this.initRuntime(e)" in patched
    assert patches.WORKER_EXPOSED + patches.WORKER_EARLY_START in patched
    assert "import piplite.piplite" not in patched and "LazyLoader" in patched
    # Python from a snapshot: the worker's start goes through dodgeStartPython, defined once
    snapshot = patches.patch_kernel_worker_snapshot(patched, ["ipython", "plotly"])
    assert snapshot.count("this._pyodide=await self.dodgeStartPython(t,") == 1
    assert snapshot.count("self.dodgeStartPython = async") == 1 and not re.search("@[A-Z]+@", snapshot)
    assert 'IN_SNAPSHOT = ["ipython", "plotly"];' in snapshot
    subprocess.run(["node", "--check", "--input-type=commonjs"], input=snapshot, text=True, check=True)
    for patch in (patches.patch_kernel_worker_taken, patches.patch_kernel_worker_early, patches.patch_kernel_worker_piplite,
                  lambda text: patches.patch_kernel_worker_snapshot(text, [])):
        with pytest.raises(SystemExit, match="the kernel's"):
            patch("a kernel that changed")


def test_the_service_worker_answers_only_the_drive_and_stdin_while_its_cache_is_off():
    """The locked Voici's service worker, patched and run in Node with the browser's parts
    stubbed: a request for the runtime is left to the browser (no ``respondWith``), one for the
    drive is still answered by the worker, and with its cache on it answers every request."""
    lock = json.loads(build.LOCK.read_text())
    (entry,) = [e for e in lock["build"] if e["name"] == "voici-core"]
    with zipfile.ZipFile(build.fetch("build", entry, offline=False)) as archive:
        worker = archive.read("voici_core/static/build/" + patches.SERVICE_WORKER).decode()
    patched = patches.patch_service_worker(worker)
    script = """
const code = require("node:fs").readFileSync(0, "utf8");
class BroadcastChannel { postMessage() {} addEventListener() {} }
const run = (cache) => {
  const listeners = {};
  const self = { addEventListener: (type, f) => { listeners[type] = f; }, skipWaiting() {},
                 clients: { claim: async () => {} }, location: { origin: "http://127.0.0.1" } };
  const location = { href: "http://127.0.0.1/service-worker.js?enableCache=" + cache, origin: "http://127.0.0.1" };
  new Function("self", "location", "BroadcastChannel", "fetch", "caches", code)(
    self, location, BroadcastChannel, async () => new Response("x"),
    { open: async () => ({ match: async () => null, put: async () => {} }) });
  listeners.activate({ waitUntil() {} });
  return (path, method = "GET") => {
    let answered = false;
    listeners.fetch({ request: { url: "http://127.0.0.1" + path, method, json: async () => ({}) },
                      respondWith() { answered = true; }, waitUntil() {} });
    return answered;
  };
};
const off = run("false"), on = run("true");
console.log(JSON.stringify([off("/pyodide/pyodide.asm.wasm"), off("/api/drive/x"), on("/pyodide/pyodide.asm.wasm")]));
"""
    for text, expected in ((patched, [False, True, True]), (worker, [True, True, True])):
        done = subprocess.run(["node", "-e", script], input=text, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr[-2000:]
        assert json.loads(done.stdout) == expected
    with pytest.raises(SystemExit, match="service-worker.js: expected"):
        patches.patch_service_worker("a worker that changed")


_SERVICE_WORKER_VISITS = """
const [code, version] = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
const url = "http://127.0.0.1/service-worker.js?enableCache=false";
const registered = new Set(), unregistered = [], stored = new Map();
const localStorage = { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => stored.set(k, String(v)) };
const registration = (u) => ({ scriptURL: u, unregister: async () => { registered.delete(u); unregistered.push(u); } });
const visit = async (controlled) => {
  const navigator = { serviceWorker: {
    controller: controlled ? { scriptURL: url } : null,
    getRegistration: async (u) => registered.has(u) ? registration(u) : undefined,
    getRegistrations: async () => [...registered].map(registration),
    register: async (u) => { registered.add(u); return registration(u); } } };
  const Manager = new Function("navigator", "localStorage", "console", "setTimeout", version.name,
    `return class { constructor() { this._ready = { resolve() {}, reject() {} }; }
                    _setRegistration(r) { this.registration = r; } _pingServiceWorker() {} ${code} }`)(
    navigator, localStorage, { info() {}, warn() {} }, () => {}, version.value);
  const manager = new Manager();
  await manager._initialize(url);
  return manager.registration.scriptURL === url;
};
(async () => {
  const kept = [await visit(false), await visit(true)];
  const second = unregistered.length;
  stored.set(url + "-version", "an older version");
  kept.push(await visit(true));
  console.log(JSON.stringify({ kept, second, newer: unregistered.length - second }));
})();
"""


def test_a_reader_s_second_visit_keeps_the_service_worker_the_first_registered():
    """The locked Voici's service-worker manager (its two methods, run in Node with the browser's
    parts stubbed): on a first visit it registers the worker; on the second, controlled by it, it
    unregistered it and registered it again, as its version was recorded only on a controlled
    page. Patched, the second visit keeps it; a version recorded as another still unregisters it."""
    lock = json.loads(build.LOCK.read_text())
    (entry,) = [e for e in lock["build"] if e["name"] == "voici-core"]
    with zipfile.ZipFile(build.fetch("build", entry, offline=False)) as archive:
        (text,) = [t for t in (archive.read(n).decode() for n in archive.namelist()
                               if n.startswith("voici_core/static/build/") and n.endswith(".js"))
                   if patches.SW_MANAGER in t]

    def visits(text: str) -> dict:
        (name,) = patches.SW_VERSION_CHECK.findall(text)
        start = text.index("async _initialize(e){")
        code = text[start:text.index("async _pingServiceWorker", start)]
        done = subprocess.run(["node", "-e", _SERVICE_WORKER_VISITS], capture_output=True, text=True, timeout=60,
                              input=json.dumps([code, {"name": name, "value": "this version"}]))
        assert done.returncode == 0, done.stderr[-2000:]
        return json.loads(done.stdout)

    assert visits(text) == {"kept": [True, True, True], "second": 1, "newer": 1}
    patched = patches.patch_service_worker_version(text, "voici/build/x.js")
    assert visits(patched) == {"kept": [True, True, True], "second": 0, "newer": 1}
    with pytest.raises(SystemExit, match="expected JupyterLite's service-worker version check once"):
        patches.patch_service_worker_version("a manager that changed", "voici/build/x.js")


PAGE = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8" />
<title>A page</title></head><body>
<script id="jupyter-config-data" type="application/json">
  {"baseUrl": "../../", "fullLabextensionsUrl": "../../extensions", "litePluginSettings":
   {"@jupyterlite/pyodide-kernel-extension:kernel": {"pyodideUrl": "../../pyodide/pyodide.js",
    "loadPyodideOptions": {"lockFileURL": "pyodide/pyodide-lock.json", "packages": ["a</script>"]}}}}
</script>
</body></html>"""


def test_a_page_gets_the_early_start_first_in_its_head_with_its_own_settings():
    page = PAGE.replace('"a</script>"', '"a<\\/script>"')  # as JSON in a page holds it
    started = patches.add_early_start(page, "kernel/352.x.js?v=x", "workbook/static/plotly-basic.min.js?v=1",
                                      ("bar", "scatter</script>"))
    head = started[:started.index("<title>")]
    assert head.startswith('<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8" />\n<script>')
    config = json.loads(re.search(r"const config = (\{.*?\});", head).group(1))
    assert config == {"baseUrl": "../../", "fullLabextensionsUrl": "../../extensions",
                      "kernel": {"pyodideUrl": "../../pyodide/pyodide.js", "loadPyodideOptions": {
                          "lockFileURL": "pyodide/pyodide-lock.json", "packages": ["a</script>"]}}}
    assert "</script>" not in head.split("<script>", 1)[1].rsplit("</script>", 1)[0]  # escaped
    assert '"kernel/352.x.js?v=x"' in head and '"workbook/static/plotly-basic.min.js?v=1"' in head
    assert 'self.__workbookPlotlyEarlyTraces = ["bar", "scatter\\u003c/script>"];' in head
    assert started.replace(head, "", 1) == page.replace(head[:head.index("<script>")], "", 1)
    with pytest.raises(SystemExit, match="expected its settings once"):
        patches.add_early_start(page.replace("jupyter-config-data", "other"), "w.js", "p.js", ())


def test_the_locked_kernel_sends_none_as_null(tmp_path):
    """The kernel's wheel as the site ships it has the patched comm; run in the site's Pyodide,
    what it sends for None reaches JSON as null, where the kernel as released drops the key
    (``layout.display = None`` did not open a panel on the static site)."""
    lock = json.loads(build.LOCK.read_text())
    (kernel,) = [build.patch_wheel(p) for p in build.kernel_wheels(lock, offline=False, out=tmp_path)
                 if p.name.startswith("pyodide_kernel-")]
    with zipfile.ZipFile(kernel) as wheel:
        comm = wheel.read(patches.KERNEL_COMM).decode()
    assert "_json_nulls(content)" in comm
    nulls = comm[comm.index("def _json_nulls"):]
    runtime = runtime_for_node(tmp_path)
    state = "{'state': {'display': None, 'width': '1em'}, 'buffer_paths': [None]}"
    script = f"""
const {{ loadPyodide }} = await import({json.dumps(str(runtime / "pyodide.mjs"))});
const py = await loadPyodide({{ indexURL: {json.dumps(str(runtime) + "/")} }});
py.runPython({json.dumps(nulls)});
for (const code of [{json.dumps(state)}, {json.dumps(f"_json_nulls({state})")}]) {{
  console.log(JSON.stringify(py.runPython(code).toJs({{ dict_converter: Object.fromEntries }})));
}}
"""
    done = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    released, patched = map(json.loads, done.stdout.split())
    assert released == {"state": {"width": "1em"}, "buffer_paths": [None]}  # the key is lost
    assert patched == {"state": {"display": None, "width": "1em"}, "buffer_paths": [None]}


def _locked_files() -> dict[str, str]:
    """The text of each file ``OTHER_HOST_DEFAULTS`` patches, as the locked packages hold it."""
    lock = json.loads(build.LOCK.read_text())
    texts = {}
    with tarfile.open(pyodide_tarball()) as tar:
        texts["pyodide/pyodide.js"] = tar.extractfile("package/pyodide.js").read().decode()
    for name, member, target in (build.PLOTLY_BUNDLE, build.PLOTLY_BASIC_BUNDLE):
        (plotly,) = [e for e in lock["npm"] if e["name"] == name]
        with tarfile.open(build.fetch("npm", plotly, offline=False)) as tar:
            texts[target] = tar.extractfile(member).read().decode()
    (voici,) = [e for e in lock["build"] if e["name"] == "voici-core"]
    with zipfile.ZipFile(build.fetch("build", voici, offline=False)) as archive:
        scripts = [archive.read(n).decode() for n in archive.namelist() if n.startswith("voici_core/static/build/")
                   and n.endswith(".js")]
    texts["voici/build/*.js"] = "\n".join(scripts)
    texts[patches.KERNEL_STATIC + "*.js"] = "\n".join(_kernel_static_files().values())
    return texts


def test_each_fallback_to_another_host_is_found_once_in_the_locked_files_and_then_gone():
    """Each of ``OTHER_HOST_DEFAULTS`` fits the file the lock pins (its text once among the files
    its glob names), and the patched text names no other host to load."""
    texts = _locked_files()
    assert set(texts) == set(patches.OTHER_HOST_DEFAULTS)
    for where, text in texts.items():
        before = patches.other_host_urls(text, "js")
        patched = patches.patch_other_host_default(text, where)
        after = patches.other_host_urls(patched, "js")
        assert len(before) == len(after) + 1, (where, before, after)
        with pytest.raises(SystemExit, match="expected .* once"):
            patches.patch_other_host_default(patched, where)


PAGE_WITH_OTHER_HOSTS = """<head><meta charset="utf-8" />
  <link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@^5/css/all.min.css" type="text/css" />
  <link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@^5/css/v4-shims.min.css" type="text/css" />
<link rel="stylesheet" href="../build/voici.css">
</head><body><a href="https://example.org/rules">the rules</a>
<script type="module">
  document.addEventListener("DOMContentLoaded", async () => {
    const diagrams = document.querySelectorAll(".jp-Mermaid > pre.mermaid");
    const mermaid = (await import("https://cdnjs.cloudflare.com/ajax/libs/mermaid/11.10.0/mermaid.esm.min.mjs")).default;
  });
</script>
<script>const own = "../build/voici.js";</script>
</body>"""


def test_a_page_loses_the_font_awesome_links_and_the_mermaid_loader_and_nothing_else():
    assert sorted(patches.other_host_urls(PAGE_WITH_OTHER_HOSTS, "html")) == [
        "https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@^5/css/all.min.css",
        "https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@^5/css/v4-shims.min.css",
        "https://cdnjs.cloudflare.com/ajax/libs/mermaid/11.10.0/mermaid.esm.min.mjs"]
    kept = patches.drop_other_hosts(PAGE_WITH_OTHER_HOSTS)
    assert patches.other_host_urls(kept, "html") == []
    assert kept == ('<head><meta charset="utf-8" />\n<link rel="stylesheet" href="../build/voici.css">\n</head><body>'
                    '<a href="https://example.org/rules">the rules</a>\n'
                    '<script>const own = "../build/voici.js";</script>\n</body>')


@pytest.mark.parametrize(("text", "kind", "found"), [
    ('<img src="//img.example.org/a.png">', "html", ["//img.example.org/a.png"]),
    ("<iframe src='https://example.org/page'></iframe>", "html", ["https://example.org/page"]),
    ('<a href="https://example.org/">a link a reader follows</a>', "html", []),
    ('<link href="../own.css"><script src="own.js"></script>', "html", []),
    ("<style>@font-face { src: url(https://fonts.gstatic.com/x.woff2) }</style>", "html",
     ["https://fonts.gstatic.com/x.woff2"]),
    ('@import "https://example.org/more.css"; a { background: url( "https://example.org/i.svg" ) }', "css",
     ["https://example.org/more.css", "https://example.org/i.svg"]),
    ("importScripts('https://example.org/w.js')", "js", ["https://example.org/w.js"]),
    ("const base = `https://cdn.example.net/v${v}/full/`", "js", ["https://cdn.example.net/v${v}/full/"]),
    ('const help = "https://example.org/help/"', "js", []),
    ('{"$schema": "https://example.org/schema.json", $ref: "https://example.org/r.json#"}', "js", []),
])
def test_what_counts_as_loading_from_another_host(text, kind, found):
    assert patches.other_host_urls(text, kind) == found
