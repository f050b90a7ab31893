"""The static site's patches to third-party files (``tools/site/build.py`` applies them).

Each replaces one exact text with :func:`replace_once` and stops the build unless that text is
there exactly once: a new version of what it patches must be looked at again (docs/deploy.md,
"The static site"). Every patch is a pure function of the file's text, tested without a build
(tests/site/test_patches.py) and against the locked files themselves.

- ``pyodide.js``: :func:`patch_pyodide_js` (the classic-worker check), :func:`patch_pyodide_stdlib`
  (the standard library decoded from zstd), :func:`patch_pyodide_snapshot_memory` (a snapshot's
  memory);
- the browser's wheels (``WHEEL_PATCHES``): :func:`patch_kernel_comm` (None sent as null),
  :func:`patch_ipython_init` (IPython without its terminal),
  :func:`patch_ipywidgets_traitlets_file` (no deprecation check's stack walk per widget class),
  ``IMPORTS_MOVED`` and
  ``READ_WHEN_USED`` (the kernel's start without IPython's debugger, pydoc, profiler,
  urllib.request, traceback formatter and code highlighter; plotly's without narwhals;
  anywidget's without psygnal);
- the kernel's scripts: :func:`patch_kernel_worker_taken`, :func:`patch_kernel_worker_early`
  (the early start), :func:`patch_kernel_worker_snapshot` (Python from a snapshot),
  :func:`patch_kernel_worker_piplite` (piplite set up lazily);
- JupyterLite's service worker: :func:`patch_service_worker` (the pass-through), and its
  manager in the pages' code: :func:`patch_service_worker_version` (kept from visit to visit);
- every page: :func:`add_early_start` (the early start's script), :func:`add_page_package`
  (the page's own package).
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Sequence
from pathlib import Path

#: The packages the kernel's worker (0.7.0) looks for by these names among the settings' packages
#: as it starts, installing with piplite each one it does not find there. It spells its own
#: package ``pyodide_kernel``, which the lock names ``pyodide-kernel``: with that spelling
#: missing, every start imported piplite and micropip to install the kernel already there.
#: Pyodide reads both spellings as the one package.
KERNEL_PACKAGES = '["sqlite3","ipykernel","comm","pyodide_kernel","jedi","ipython"]'


def replace_once(text: str, old: str, new: str, where: str) -> str:
    """``text`` with its one ``old`` replaced by ``new``; fails loudly, naming ``where``, unless
    ``old`` is there exactly once.

    >>> replace_once('a;b;', 'b;', 'c;', 'x.js')
    'a;c;'
    """
    count = text.count(old)
    if count != 1:
        raise SystemExit(f"{where}: expected {old.strip()[:60]!r} once, found it {count} times "
                         "(a new version? see tools/site/patches.py)")
    return text.replace(old, new)


#: The check in pyodide.js (npm pyodide 314.0.x) that refuses a classic web worker. Pyodide 314 loads
#: its interpreter (``pyodide.asm.mjs``) with a dynamic ``import()``, which classic workers have
#: in every current browser; the kernel 0.7.0 starts Pyodide in a classic worker with
#: ``importScripts``. Removing this one statement is the whole patch.
CLASSIC_WORKER_CHECK = 'if(r&&ge())throw new Error("Classic web workers are not supported");'


def patch_pyodide_js(text: str) -> str:
    """``pyodide.js`` without its classic-worker check.

    >>> patch_pyodide_js('a;' + CLASSIC_WORKER_CHECK + 'b')
    'a;b'
    """
    return replace_once(text, CLASSIC_WORKER_CHECK, "", "pyodide.js")


#: The standard library's zip in pyodide.js (npm pyodide 314.0.x): where it is fetched by default,
#: and the fetch. The site ships it compressed by zstd as one stream (``build.STDLIB_PACKED``);
#: the patched fetch decodes an address ending in ``.zst`` with fzstd (``ZSTD_DECODER_FILE``)
#: and hands Pyodide the zip, as before. Any other address is fetched as it was.
STDLIB_DEFAULT = 't=e.indexURL+"python_stdlib.zip"'
STDLIB_FETCH = "function Oe(e){let t=z(e);"
#: The decoder's file, beside the runtime's (the build puts it there).
ZSTD_DECODER_FILE = "fzstd.mjs"
STDLIB_DECODED = (f'function Oe(e){{let t=e.endsWith(".zst")?Promise.all([z(e),import(new URL("{ZSTD_DECODER_FILE}",'
                  'new URL(e,globalThis.location?.href)).href)]).then(([b,m])=>m.decompress(b)):z(e);')


def patch_pyodide_stdlib(text: str) -> str:
    """``pyodide.js`` fetching ``python_stdlib.zip.zst`` by default, and decoding it.

    >>> patch_pyodide_stdlib(STDLIB_FETCH + STDLIB_DEFAULT).endswith(':z(e);t=e.indexURL+"python_stdlib.zip.zst"')
    True
    """
    text = replace_once(text, STDLIB_DEFAULT, STDLIB_DEFAULT[:-1] + '.zst"', "pyodide.js")
    return replace_once(text, STDLIB_FETCH, STDLIB_DECODED, "pyodide.js")


#: **Python's memory restored from a snapshot** (:func:`patch_kernel_worker_snapshot`). Pyodide
#: restores a snapshot into the memory its interpreter starts with, which a snapshot taken after
#: the kernel's imports outgrows ("offset is out of bounds"): pyodide.js (314.0.x) passes the
#: snapshot's size as ``INITIAL_MEMORY``, which this build of the interpreter does not read. The
#: patch grows the memory to the snapshot's size first; a start without a snapshot is unchanged.
SNAPSHOT_RESTORE = "function Be(e,t,n){let o=e.API,a;return t&&(a=o.restoreSnapshot(t))"
SNAPSHOT_RESTORE_GROWN = ("function Be(e,t,n){let o=e.API,a;return t&&(e.HEAP8.length<t.length"
                          "&&e._emscripten_resize_heap(t.length),a=o.restoreSnapshot(t))")


def patch_pyodide_snapshot_memory(text: str) -> str:
    """``pyodide.js`` growing the interpreter's memory to a snapshot's size before restoring it.

    >>> patch_pyodide_snapshot_memory("x" + SNAPSHOT_RESTORE) == "x" + SNAPSHOT_RESTORE_GROWN
    True
    """
    return replace_once(text, SNAPSHOT_RESTORE, SNAPSHOT_RESTORE_GROWN, "pyodide.js")


#: The kernel 0.7.0 hands each comm message to JavaScript with ``toJs()``, which turns a dict's
#: None into ``undefined``; the message's JSON then drops that key. A widget's trait set to None
#: never reached the page: ``layout.display = None``, which shows a folded panel, did nothing,
#: so no panel of a dashboard opened. The patch has the kernel's comm send None as JavaScript's
#: ``null`` (``pyodide.ffi.jsnull``), which is what JSON has for it.
KERNEL_COMM = "pyodide_kernel/comm.py"
KERNEL_COMM_SEND = "            content,\n            metadata,\n"
KERNEL_COMM_NULLS = '''

def _json_nulls(value):
    """``value`` with each None as JavaScript's null: ``toJs()`` makes None undefined, which the
    message's JSON drops (patched in by the Dodge Workbook's site build)."""
    if value is None:
        from pyodide.ffi import jsnull

        return jsnull
    if isinstance(value, dict):
        return {key: _json_nulls(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_nulls(item) for item in value]
    return value
'''


def patch_kernel_comm(text: str) -> str:
    """The kernel's ``comm.py`` sending its messages' content and metadata through ``_json_nulls``."""
    return replace_once(text, KERNEL_COMM_SEND, "            _json_nulls(content),\n"
                        "            _json_nulls(metadata),\n", KERNEL_COMM) + KERNEL_COMM_NULLS


#: IPython's ``__init__`` imports its terminal shell for ``IPython.embed``, and with it
#: prompt_toolkit: 0.5 MB of the first download that no page uses (a kernel has no terminal).
#: The patch imports it when ``IPython.embed`` is first asked for (a module ``__getattr__``,
#: PEP 562), so ``IPython.embed`` and ``from IPython import embed`` still work.
IPYTHON_INIT = "IPython/__init__.py"
IPYTHON_EMBED = "from .terminal.embed import embed\n"
IPYTHON_LAZY_EMBED = '''

def __getattr__(name):
    # IPython.embed, imported when first asked for (patched in by the Dodge Workbook's site build)
    if name == "embed":
        from .terminal.embed import embed

        return embed
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

'''


def patch_ipython_init(text: str) -> str:
    """IPython's ``__init__`` importing its terminal shell only for ``IPython.embed``."""
    return replace_once(text, IPYTHON_EMBED, IPYTHON_LAZY_EMBED, IPYTHON_INIT)


#: **ipywidgets' deprecation check, where traitlets ships as bytecode.** ``Widget.widgets`` and
#: three more static properties warn when read, unless traitlets reads them as it sets a class
#: up: ipywidgets tells that by comparing the reading frame's file with ``TRAITLETS_FILE``,
#: ``inspect.getfile(HasTraits)``, the module's ``__file__``. The site ships traitlets as
#: bytecode, so its ``__file__`` ends in ``.pyc`` while its code's file still ends in ``.py``:
#: every widget class set up (about 110 as a dashboard starts) then walked the stack and made
#: four deprecation warnings nobody sees. Taken from a function of the class instead, the
#: file is its code's own, the same as the reading frame's wherever the module came from.
IPYWIDGETS_WIDGET = "ipywidgets/widgets/widget.py"
IPYWIDGETS_TRAITLETS_FILE = "TRAITLETS_FILE = inspect.getfile(HasTraits)\n"


def patch_ipywidgets_traitlets_file(text: str) -> str:
    """ipywidgets' ``TRAITLETS_FILE`` taken from traitlets' code, not from its module's ``__file__``."""
    return replace_once(text, IPYWIDGETS_TRAITLETS_FILE,
                        "TRAITLETS_FILE = inspect.getfile(HasTraits.setup_instance)  # its code's file "
                        "(patched by the Dodge Workbook's site build)\n", IPYWIDGETS_WIDGET)


#: **Imports moved to where they are used.** The kernel's start imported modules that only a
#: reader's debugger, profiler, pastebin or help use: IPython's debugger (and with it ``pdb``,
#: ``cmd``, ``code``, ``_pyrepl``), ``pydoc``, ``urllib.request`` (with ``http.client``), ``cProfile``
#: and ``pstats``. No page uses any of them as it opens, so the build's start run no longer
#: imports them and the site defers them with the other modules no page imports
#: (``tools/site/deferred_imports.py``): a notebook that uses one (``%debug``, ``%prun``,
#: ``%pastebin``, a traceback's values) fetches it then.
#:
#: plotly's validators imported narwhals (0.25 MB of the first download) to recognise a dataframe
#: library's Series or DataFrame, which no page has (the site has no pandas). They import it
#: where a value is turned into an array, and ask whether a value is a narwhals Series only once
#: narwhals is imported (``READ_WHEN_USED``): a Series cannot exist before its class does.
#:
#: anywidget's experimental module (imported by its widget class) imported psygnal for its
#: ``dataclass`` decorator, which no page uses: it is imported in that decorator (and see
#: ``SIGNAL_WHEN_USED``).
#:
#: ``IMPORTS_MOVED``: wheel's name → file → [(an import at the top of the file, the line it moves
#: before)], done by :func:`move_imports`.
PLOTLY_VALIDATORS = "_plotly_utils/basevalidators.py"
IPYTHON_OINSPECT = "IPython/core/oinspect.py"
ANYWIDGET_EXPERIMENTAL = "anywidget/experimental.py"
DEFERRED_IMPORT = "# imported where it is used (patched in by the Dodge Workbook's site build)\n"
IMPORTS_MOVED = {
    "ipython": {
        "IPython/core/tbtools.py": [("import pydoc\n", "        return pydoc.text.repr(value)  # type: ignore[call-arg]\n")],
        "IPython/core/magics/code.py": [("from urllib.request import Request, urlopen\n", "        request = Request(\n")],
        "IPython/core/magics/execution.py": [("import cProfile as profile\n", "        prof = profile.Profile()\n"),
                                             ("import pstats\n", "        stats = pstats.Stats(prof).strip_dirs().sort_stats(*opts.s)\n"),
                                             ("from pdb import Restart\n", "        print(\"NOTE: Enter 'c' at the %s prompt "
                                                                            "to continue execution.\" % deb.prompt)\n")],
        IPYTHON_OINSPECT: [("from pygments import highlight\nfrom pygments.lexers import PythonLexer\n"
                            "from pygments.formatters import HtmlFormatter\n",
                            "    return highlight(code, PythonLexer(), HtmlFormatter(noclasses=True))\n")],
    },
    "plotly": {PLOTLY_VALIDATORS: [("import narwhals.stable.v1 as nw\n",
                                   "    v = nw.from_native(v, allow_series=True, pass_through=True)\n")]},
    "anywidget": {ANYWIDGET_EXPERIMENTAL: [("import psygnal\n", "        cls = psygnal.evented(cls)\n")]},
}


def move_imports(text: str, where: str, moves: list[tuple[str, str]]) -> str:
    """``text`` (the file ``where``) with each top-level import of ``moves`` (one line or several)
    taken out and put, indented as it, before the line that uses it; fails loudly unless each is
    there once.

    >>> print(move_imports("import a\\ndef f():\\n    return a.b\\n", "m.py", [("import a\\n", "    return a.b\\n")]), end="")
    def f():
        # imported where it is used (patched in by the Dodge Workbook's site build)
        import a
    <BLANKLINE>
        return a.b
    """
    for line, use in moves:
        text = replace_once(text, line, "", where) if text.startswith(line) else replace_once(text, "\n" + line, "\n", where)
        indent = use[:len(use) - len(use.lstrip())]
        text = replace_once(text, use, textwrap.indent(DEFERRED_IMPORT + line, indent) + "\n" + use, where)
    return text


#: ``READ_WHEN_USED``: wheel's name → file → [(text, what replaces it)]. IPython's ``tbtools``
#: and ``interactiveshell`` imported the debugger (and pdb) to name the class a debugger is made
#: of (a shell's ``debugger_cls``, its tracebacks' default); they name ``_debugger``'s factory
#: instead, added to ``tbtools``, which imports the debugger when a debugger is made.
#:
#: IPython's tracebacks (``tbtools``, ``ultratb``, ``doctb``) imported stack_data, and with it
#: executing, asttokens and pure_eval (0.1 MB of the first download), to format a traceback,
#: which a page does not show as it opens. ``tbtools`` binds the name ``stack_data`` to a
#: stand-in that imports stack_data at its first attribute (``_ImportedWhenUsed``); the other
#: two take that name from it. Every use of the name in those files is an attribute
#: (``stack_data.Options``, ``stack_data.RepeatedFrames``), or an annotation, which Python 3.14
#: evaluates only when asked.
IPYTHON_TBTOOLS = "IPython/core/tbtools.py"
IPYTHON_ULTRATB = "IPython/core/ultratb.py"
IPYTHON_DOCTB = "IPython/core/doctb.py"
STACK_DATA_IMPORT = "import stack_data\n"
STACK_DATA_WHEN_USED = '''

class _ImportedWhenUsed:
    """The module ``name``, imported at the first attribute asked of it (patched in by the Dodge
    Workbook's site build)."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attribute):
        import importlib

        return getattr(importlib.import_module(self._name), attribute)


stack_data = _ImportedWhenUsed("stack_data")
'''
STACK_DATA_FROM_TBTOOLS = "from IPython.core.tbtools import stack_data  # patched in by the Dodge Workbook's site build\n"
#: anywidget's file contents (a widget whose front end is a file on disk, watched for changes)
#: imported psygnal for their ``changed`` and ``deleted`` signals (with ``experimental``'s
#: import, 0.07 MB of the first download); the workbook's widgets carry their front end as
#: text, so no page makes one. The signals are declared with a stand-in that makes psygnal's
#: own ``Signal`` (and imports psygnal) the first time one is read, and puts it in its place on
#: the class.
ANYWIDGET_FILES = "anywidget/_file_contents.py"
SIGNAL_WHEN_USED = '''

class Signal:
    """psygnal's ``Signal``, made (and psygnal imported) the first time it is read (patched in by
    the Dodge Workbook's site build)."""

    def __init__(self, *args, **kwargs):
        self._args, self._kwargs = args, kwargs

    def __set_name__(self, owner, name):
        self._name = name

    def __get__(self, instance, owner=None):
        import psygnal

        signal = psygnal.Signal(*self._args, **self._kwargs)
        signal.__set_name__(owner, self._name)
        setattr(owner, self._name, signal)
        return signal.__get__(instance, owner)
'''
IPYTHON_SHELL = "IPython/core/interactiveshell.py"
READ_WHEN_USED = {
    "ipython": {
        IPYTHON_TBTOOLS: [(STACK_DATA_IMPORT, STACK_DATA_WHEN_USED), ("from IPython.core import debugger\n", '''

def _debugger(name):
    """IPython's debugger class ``name`` as a factory that imports the debugger (and pdb) when a
    debugger is made (patched in by the Dodge Workbook's site build)."""

    def make(*args, **kwargs):
        from IPython.core import debugger

        return getattr(debugger, name)(*args, **kwargs)

    return make

'''), ("        self.debugger_cls = debugger_cls or debugger.Pdb\n",
         "        self.debugger_cls = debugger_cls or _debugger(\"Pdb\")\n")],
        IPYTHON_SHELL: [("from IPython.core.debugger import InterruptiblePdb\n",
                         "from IPython.core.tbtools import _debugger  # patched in by the Dodge Workbook's site build\n"),
                        ("    debugger_cls = InterruptiblePdb\n", "    debugger_cls = staticmethod(_debugger(\"InterruptiblePdb\"))\n")],
        IPYTHON_ULTRATB: [(STACK_DATA_IMPORT, STACK_DATA_FROM_TBTOOLS)],
        IPYTHON_DOCTB: [(STACK_DATA_IMPORT, STACK_DATA_FROM_TBTOOLS)],
    },
    "anywidget": {ANYWIDGET_FILES: [("from psygnal import Signal\n", SIGNAL_WHEN_USED)]},
    "plotly": {PLOTLY_VALIDATORS: [("        or (isinstance(v, nw.Series))\n", "        or _is_narwhals_series(v)\n"),
                                   ("def is_homogeneous_array(v):\n", '''def _is_narwhals_series(v):
    """Whether ``v`` is a Series of narwhals' stable API: none exists before that API is imported,
    so it is not imported to ask (patched in by the Dodge Workbook's site build)."""
    nw = sys.modules.get("narwhals.stable.v1")
    return nw is not None and isinstance(v, nw.Series)


def is_homogeneous_array(v):
''')]},
}


def _patch(where: str, replaced: list[tuple[str, str]], moved: list[tuple[str, str]]):
    """The patch of the file ``where`` of a browser wheel: its texts ``replaced``, its imports
    ``moved`` (:func:`move_imports`)."""

    def patch(text: str) -> str:
        for old, new in replaced:
            text = replace_once(text, old, new, where)
        return move_imports(text, where, moved)

    patch.__doc__ = f"``{where}`` as the site ships it: what it imports, read when used."
    return patch


def _with_read_when_used(patched: dict[str, dict]) -> dict[str, dict]:
    """``patched`` (wheel's name → file → patch) with a patch of each file of ``READ_WHEN_USED``
    and ``IMPORTS_MOVED``."""
    merged = {wheel: dict(files) for wheel, files in patched.items()}
    for wheel in {**READ_WHEN_USED, **IMPORTS_MOVED}:
        replaced, moved = READ_WHEN_USED.get(wheel, {}), IMPORTS_MOVED.get(wheel, {})
        merged.setdefault(wheel, {}).update({where: _patch(where, replaced.get(where, []), moved.get(where, []))
                                             for where in {**replaced, **moved}})
    return merged


#: The browser wheels' patches: wheel's name → {file in the wheel: patch}.
WHEEL_PATCHES = _with_read_when_used({"pyodide-kernel": {KERNEL_COMM: patch_kernel_comm},
                                      "ipython": {IPYTHON_INIT: patch_ipython_init},
                                      "ipywidgets": {IPYWIDGETS_WIDGET: patch_ipywidgets_traitlets_file}})


#: **The early start.** The kernel creates its web worker, which starts Python, only once the
#: page's own scripts (JupyterLite and Voici, ~3 MB) have loaded and run: 1.5–2 s into every
#: visit, a warm one too, with all of Python's start still to come. Each page gets a small
#: script (:func:`add_early_start`), first in its head, that creates the kernel's worker at once
#: and asks it to start the runtime (``loadPyodide`` with every package of the lock) with
#: the options the kernel will give it; the kernel then takes that worker instead of creating one
#: (:func:`patch_kernel_worker_taken`), and the worker's ``initialize`` uses the runtime already
#: starting when the kernel's options are the same, else starts its own as before
#: (:func:`patch_kernel_worker_early`). Pages of a cross-origin isolated host (the kernel's other
#: worker) start as before.
KERNEL_STATIC = "extensions/@jupyterlite/pyodide-kernel-extension/static/"
#: The kernel's (0.7.0) choice of worker: chunk 620 when cross-origin isolated, else chunk 352.
KERNEL_NEW_WORKER = ("initWorker(e){return crossOriginIsolated?new Worker(new URL(n.p+n.u(620),n.b),{type:void 0})"
                     ":new Worker(new URL(n.p+n.u(352),n.b),{type:void 0})}")
WORKER_CHUNK = "352"


def kernel_worker(root: Path) -> Path:
    """The kernel's worker script in the JupyterLite built at ``root`` (the site's pages, or its lab)."""
    (worker,) = (root / KERNEL_STATIC).glob(f"{WORKER_CHUNK}.*.js")
    return worker


WORKER_INIT_RUNTIME = "await this.initRuntime(e),await this.initFilesystem(e)"
WORKER_EXPOSED = "Mu=new nr;Nt(Mu)"  # the worker's kernel object, offered to the page (comlink)
WORKER_EARLY_START = """;
/* The early start (the Dodge Workbook's site build): the page asks for the runtime at once. */
self.addEventListener("message", (event) => {
  const early = event.data && event.data.dodgeEarlyStart;
  if (!early || self.dodgeEarly) return;
  const key = (o) => JSON.stringify([o.pyodideUrl, o.indexUrl, o.loadPyodideOptions]);
  const started = Mu.initRuntime(early);
  started.catch(() => {});
  self.dodgeEarly = (options) => {
    if (key(options) === key(early)) return started;
    console.warn("[site] the kernel's options are not the early start's: Python starts again");
    return Mu.initRuntime(options);
  };
})"""


def patch_kernel_worker_taken(text: str) -> str:
    """The kernel's page code taking the worker the page started early (``self.dodgeKernelWorker``),
    once, instead of creating one."""
    taken = ("initWorker(e){const w=self.dodgeKernelWorker;if(w&&!crossOriginIsolated)"
             "return self.dodgeKernelWorker=null,w;" + KERNEL_NEW_WORKER.removeprefix("initWorker(e){"))
    return replace_once(text, KERNEL_NEW_WORKER, taken, "the kernel's page code")


def patch_kernel_worker_early(text: str) -> str:
    """The kernel's worker starting the runtime when the page asks (a ``dodgeEarlyStart``
    message), and its ``initialize`` using that runtime."""
    text = replace_once(text, WORKER_INIT_RUNTIME, "await(self.dodgeEarly?self.dodgeEarly(e):this.initRuntime(e))"
                        ",await this.initFilesystem(e)", "the kernel's worker")
    return replace_once(text, WORKER_EXPOSED, WORKER_EXPOSED + WORKER_EARLY_START, "the kernel's worker")


#: **Python from a snapshot.** A dashboard's visit spends most of its time before the notebook
#: runs: Python's start, its packages, and the kernel's imports (IPython's shell, ipywidgets,
#: plotly). Pyodide can take a snapshot of Python's memory and start from it instead
#: (``makeMemorySnapshot`` and ``_loadSnapshot``), but not of the memory of a package holding a
#: compiled library (pydantic_core), which lives outside it. So a first visit starts Python with
#: the pure-Python packages every page loads (:func:`snapshot_packages`), imports the kernel and
#: every page's libraries (``SNAPSHOT_PYTHON``), and keeps a snapshot of that Python in the
#: page's Cache Storage (``SNAPSHOT_STORE``) before loading the rest; a later visit restores it,
#: unpacks the packages' files again (they are kept outside Python's memory), loads the rest and
#: seeds ``random`` afresh. The snapshot's key is a digest of the lock (which holds each
#: package's digest), the packages in the snapshot and ``SNAPSHOT_PYTHON``: every page of a site
#: shares one, a site built again makes a new one, and the store keeps one. A snapshot that
#: cannot be made (Python holds a JavaScript object it cannot name) or used is left and the
#: visit starts as before, as does a page with no Cache Storage (an address that is not a
#: secure context).
WORKER_LOAD_PYODIDE = "this._pyodide=await t("
SNAPSHOT_STORE = "dodge-workbook-python"
#: What the snapshot's Python has done: every page's kernel and libraries imported, and a first
#: figure made (plotly reads its validators then).
SNAPSHOT_PYTHON = ("import pyodide_kernel, ipywidgets, plotly.graph_objects as go\n"
                   "go.Figure(go.Bar())\n"
                   "del go\n")
WORKER_SNAPSHOT = """;
/* Python from a snapshot (the Dodge Workbook's site build; tools/site/patches.py). */
self.dodgeStartPython = async (load, options) => {
  const STORE = @STORE@, PYTHON = @PYTHON@, IN_SNAPSHOT = @PACKAGES@;
  const lockURL = new URL(options.lockFileURL || options.indexURL + "pyodide-lock.json", self.location.href).href;
  const lockText = await (await fetch(lockURL)).text();
  const settings = Object.assign({ packageBaseUrl: lockURL.slice(0, lockURL.lastIndexOf("/") + 1) }, options,
                                 { lockFileContents: lockText });
  delete settings.lockFileURL;
  const packages = settings.packages || [];
  const quiet = { messageCallback: () => {} };
  const asked = new Set(packages.map((n) => n.toLowerCase().replace(/[-_.]+/g, "-")));
  if (!IN_SNAPSHOT.every((n) => asked.has(n))) return load(settings);  /* not a page of the site's */
  let store, key;
  try {
    store = await caches.open(STORE);
    const what = new TextEncoder().encode(JSON.stringify([PYTHON, lockText, IN_SNAPSHOT]));
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", what));
    key = new URL("python-snapshot-" + Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join(""), lockURL).href;
  } catch (err) {
    return load(settings);
  }
  /* the JavaScript objects Python holds, named in the snapshot and found again in the new runtime */
  const live = {};
  const name = (o, py) => {
    if (o === py) return "pyodide";
    if (typeof o === "function" && o.name && py[o.name] === o) return { api: o.name };
    throw new Error("Python holds a JavaScript object the snapshot cannot name");
  };
  const revive = (kept) => {
    if (kept === "pyodide") {
      return new Proxy({}, {
        get: (_, k) => { const v = live.py[k]; return typeof v === "function" ? v.bind(live.py) : v; },
        has: (_, k) => k in live.py,
        set: (_, k, v) => { live.py[k] = v; return true; },
      });
    }
    if (kept && kept.api) return (...args) => live.py[kept.api](...args);
    throw new Error("a JavaScript object the snapshot does not know");
  };
  const kept = await store.match(key).catch(() => undefined);
  if (kept) {
    try {
      const snapshot = new Uint8Array(await kept.arrayBuffer());
      const py = await load(Object.assign({}, settings, { packages: [], _loadSnapshot: snapshot, _snapshotDeserializer: revive }));
      live.py = py;
      if (py._api && py._api.config) py._api.config._loadSnapshot = null;  /* the bytes restored, kept by the settings */
      await py.loadPackage(packages, quiet);
      py.runPython("import sys\\nif 'random' in sys.modules:\\n    sys.modules['random'].seed()");
      console.info("[site] Python started from its snapshot");
      return py;
    } catch (err) {
      console.warn("[site] Python's snapshot could not be used: Python starts afresh", err);
      await store.delete(key).catch(() => {});
    }
  }
  const py = await load(Object.assign({}, settings, { packages: IN_SNAPSHOT, _makeSnapshot: true }));
  try {
    py.runPython(PYTHON);
    const loaded = Object.assign({}, py.loadedPackages);
    for (const n of Object.keys(loaded)) delete py.loadedPackages[n];
    let snapshot;
    try {
      snapshot = new Response(py.makeMemorySnapshot({ serializer: (o) => name(o, py) }));
    } finally {
      Object.assign(py.loadedPackages, loaded);
    }
    (async () => {
      for (const old of await store.keys()) if (old.url !== key) await store.delete(old);
      await store.put(key, snapshot);
    })().catch((err) => console.warn("[site] Python's snapshot was not kept", err));
  } catch (err) {
    console.warn("[site] no snapshot of Python was made", err);
  }
  await py.loadPackage(packages, quiet);
  return py;
}"""


def snapshot_packages(lock: dict, every_page: Sequence[str]) -> list[str]:
    """The packages a snapshot holds: those of ``every_page`` (a lock's names) with no compiled
    library (a wheel for any platform); a page's own package, and pydantic_core, come after.

    >>> snapshot_packages({"packages": {"a": {"file_name": "a-1-py3-none-any.tar"},
    ...                                 "b": {"file_name": "b-1-cp314-cp314-pyemscripten_2026_0_wasm32.tar"}}}, ["b", "a"])
    ['a']
    """
    return sorted(n for n in every_page if re.search(r"-none-any\.(whl|tar|zip)$", lock["packages"][n]["file_name"]))


def snapshot_script(packages: Sequence[str]) -> str:
    """``WORKER_SNAPSHOT`` with its store's name, its Python and its ``packages`` (lock names,
    :func:`snapshot_packages`): it defines ``self.dodgeStartPython(loadPyodide, options)``, which
    returns the runtime as ``loadPyodide`` would."""
    return (WORKER_SNAPSHOT.replace("@STORE@", json.dumps(SNAPSHOT_STORE)).replace("@PYTHON@", json.dumps(SNAPSHOT_PYTHON))
            .replace("@PACKAGES@", json.dumps(sorted(packages))))


def patch_kernel_worker_snapshot(text: str, packages: Sequence[str]) -> str:
    """The kernel's worker starting Python with ``self.dodgeStartPython`` (:func:`snapshot_script`):
    from the snapshot a first visit kept, or afresh, keeping one."""
    text = replace_once(text, WORKER_LOAD_PYODIDE, "this._pyodide=await self.dodgeStartPython(t,", "the kernel's worker")
    return replace_once(text, WORKER_EXPOSED, WORKER_EXPOSED + snapshot_script(packages), "the kernel's worker")


#: **piplite, set up lazily.** The kernel's worker gives piplite (``%pip`` in a notebook) its
#: settings by importing it, and with it micropip and ``unittest.mock``: 55 modules, 0.1–0.3 s of
#: every start, that no dashboard uses. The patch gives the same settings to the modules made
#: lazy (``importlib.util.LazyLoader``): they are imported when first used, and the settings,
#: set before, are kept (the lazy loader applies them after the module's code has run).
WORKER_PIPLITE = ("await this._pyodide.runPythonAsync(`\\n      import piplite.piplite\\n"
                  "      piplite.piplite._PIPLITE_DISABLE_PYPI = ${n?\"True\":\"False\"}\\n"
                  "      piplite.piplite._PIPLITE_URLS = ${JSON.stringify(s)}\\n    `)")


def piplite_settings(disable_pypi: str, urls: str) -> str:
    """Python giving piplite its settings without importing it: ``piplite`` and
    ``piplite.piplite`` in ``sys.modules`` as lazy modules, the name ``piplite`` bound as the
    kernel's own code binds it."""
    return ("import importlib.machinery, importlib.util, sys\n"
            "def _lazy(name, path=None):\n"
            "    spec = importlib.machinery.PathFinder.find_spec(name, path)\n"
            "    spec.loader = importlib.util.LazyLoader(spec.loader)\n"
            "    module = importlib.util.module_from_spec(spec)\n"
            "    sys.modules[name] = module\n"
            "    spec.loader.exec_module(module)\n"
            "    return module, spec\n"
            "piplite, _spec = _lazy('piplite')\n"
            "_settings, _ = _lazy('piplite.piplite', _spec.submodule_search_locations)\n"
            "piplite.piplite = _settings\n"
            f"_settings._PIPLITE_DISABLE_PYPI = {disable_pypi}\n"
            f"_settings._PIPLITE_URLS = {urls}\n"
            "del _lazy, _spec, _settings\n")


def patch_kernel_worker_piplite(text: str) -> str:
    """The kernel's worker giving piplite its settings with :func:`piplite_settings`; it must
    look for the packages ``KERNEL_PACKAGES`` names (else piplite is imported after all)."""
    if text.count(KERNEL_PACKAGES) != 1:
        raise SystemExit(f"the kernel's worker: expected it to look for {KERNEL_PACKAGES} (a new kernel?)")
    code = piplite_settings('${n?"True":"False"}', "${JSON.stringify(s)}").replace("\n", "\\n")
    return replace_once(text, WORKER_PIPLITE, f"await this._pyodide.runPythonAsync(`{code}`)", "the kernel's worker")


#: **The service worker's pass-through.** JupyterLite's service worker (Voici's
#: ``service-worker.js``) answers every request of a page and of its workers: the drive's and
#: stdin's itself (the kernel's files and ``input()``), and every other one by fetching it again
#: (``maybeFromCache``), which with its cache off (the default, and the site's) is the same
#: request once more, through the worker's script: ~250 requests a visit, the runtime's among
#: them. The patch leaves those to the browser (the handler does not answer them, as when no
#: service worker is there); the drive's and stdin's requests go through it as before.
SERVICE_WORKER = "service-worker.js"
SERVICE_WORKER_ANSWERS = "shouldDrop(t,a)||(n=maybeFromCache(e))"


def patch_service_worker(text: str) -> str:
    """JupyterLite's service worker answering only what it must while its cache is off."""
    return replace_once(text, SERVICE_WORKER_ANSWERS, "shouldDrop(t,a)||!enableCache||(n=maybeFromCache(e))",
                        SERVICE_WORKER)


#: JupyterLite's service-worker manager (in the pages' code, the lab's, and the kernel
#: extension's copy) keeps in the browser's localStorage which of its versions registered the
#: site's service worker; a page that finds that record missing, or another version's,
#: unregisters every service worker of the site and registers one again. But it wrote the record
#: only on a page the worker already controlled, never when it registered the worker: so every
#: reader's second visit unregistered and registered it again, and the page's kernel waited for
#: that (0.05 s, or 2.1 s in three of seven second visits measured). It now writes the record
#: when it registers the worker as well.
SW_VERSION_CHECK = re.compile(r"_unregisterOldServiceWorkers\(e\)\{const t=`\$\{e\}-version`,"
                              r"s=localStorage\.getItem\(t\);if\(s&&s!==(\w+)\|\|!s\)")
SW_REGISTER = "s=await t.register(e),"
#: What a file holding that manager says (the build patches every such file).
SW_MANAGER = "_unregisterOldServiceWorkers("


def patch_service_worker_version(text: str, where: str) -> str:
    """JupyterLite's service-worker manager recording its version when it registers the worker."""
    versions = SW_VERSION_CHECK.findall(text)
    if len(versions) != 1:
        raise SystemExit(f"{where}: expected JupyterLite's service-worker version check once, found "
                         f"{len(versions)} (a new version? see SW_VERSION_CHECK in tools/site/patches.py)")
    return replace_once(text, SW_REGISTER, f"{SW_REGISTER}localStorage.setItem(`${{e}}-version`,{versions[0]}),", where)


EARLY_START_PAGE = """
<script>
/* The early start (tools/site/patches.py): the kernel's worker starts Python while the page loads,
   and the charts' plotly.js (its basic bundle) loads once the page has (the charts take it:
   workbook/page/chart.py). */
(() => {
  self.__workbookPlotlyEarly = new Promise((resolve, reject) => addEventListener("load", () => {
    const script = Object.assign(document.createElement("script"), { src: PLOTLY_PATH, async: true });
    script.onload = () => self.Plotly ? resolve(self.Plotly) : reject(new Error("no Plotly"));
    script.onerror = () => reject(new Error("plotly.js is not served"));
    document.head.appendChild(script);
  }, { once: true }));
  self.__workbookPlotlyEarly.catch(() => {});
  self.__workbookPlotlyEarlyTraces = PLOTLY_TRACES;  // what it draws; a chart with another loads the whole one
  try {
    if (self.crossOriginIsolated || !self.Worker) return;
    const config = PAGE_CONFIG;  // the page's own settings, as the kernel will read them
    const here = (path, base = document.baseURI) => new URL(path, base).href;
    const pyodideUrl = here(config.kernel.pyodideUrl);
    const loadPyodideOptions = { ...config.kernel.loadPyodideOptions };
    for (const [key, value] of Object.entries(loadPyodideOptions))
      if (key.endsWith("URL") && typeof value == "string") loadPyodideOptions[key] = here(value, here(config.baseUrl));
    const worker = new Worker(here(WORKER_PATH, here(config.fullLabextensionsUrl + "/")));
    worker.postMessage({ dodgeEarlyStart: {
      pyodideUrl, indexUrl: pyodideUrl.slice(0, pyodideUrl.lastIndexOf("/") + 1), loadPyodideOptions } });
    self.dodgeKernelWorker = worker;
  } catch (error) {
    console.warn("[site] no early start:", error);
  }
})();
</script>"""
PAGE_CHARSET = '<meta charset="utf-8" />'
PAGE_SETTINGS = re.compile(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', re.S)


#: JupyterLite's ``doc/tree/index.html`` (jupyterlite-core 0.7) sends ``doc/tree/?path=x`` on to the
#: lab, but its pattern needs a query: opened without one, it matched nothing, so the page set its
#: own address again and reloaded itself for ever. The query made optional, it opens the lab.
DOC_TREE_REDIRECT = "/(\\/|\\/index.html)?(\\?.*)$/"
DOC_TREE_PAGES = "**/doc/tree/index.html"


def patch_doc_tree_redirect(page: str, where: str) -> str:
    r"""``doc/tree``'s page opening the lab with or without a query.

    >>> patch_doc_tree_redirect("href.replace(" + DOC_TREE_REDIRECT + ", '/../../lab/index.html$2')", "p")
    "href.replace(/(\\/|\\/index.html)?(\\?.*)?$/, '/../../lab/index.html$2')"
    """
    return replace_once(page, DOC_TREE_REDIRECT, DOC_TREE_REDIRECT.replace(")$/", ")?$/"), where)


def _script_literal(value) -> str:
    """``value`` as a JavaScript literal that can stand inside a page's ``<script>``."""
    return json.dumps(value).replace("<", "\\u003c")


def add_early_start(page: str, worker: str, plotly: str, traces: Sequence[str]) -> str:
    """A page of the site with the early start's script first in its head (right after its
    charset), the page's own kernel settings written into it; ``worker`` is the kernel's worker
    script as the kernel asks for it, relative to the extensions' folder, ``plotly`` the plotly.js
    bundle the page starts, relative to the page, and ``traces`` the trace types it draws."""
    found = PAGE_SETTINGS.findall(page)
    if len(found) != 1:
        raise SystemExit(f"a page of the site: expected its settings once, found {len(found)} (a new Voici?)")
    settings = json.loads(found[0])
    config = {"baseUrl": settings["baseUrl"], "fullLabextensionsUrl": settings["fullLabextensionsUrl"],
              "kernel": settings["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]}
    script = (EARLY_START_PAGE.replace("PAGE_CONFIG", _script_literal(config))
              .replace("WORKER_PATH", _script_literal(worker)).replace("PLOTLY_PATH", _script_literal(plotly))
              .replace("PLOTLY_TRACES", _script_literal(list(traces))))
    return replace_once(page, PAGE_CHARSET, PAGE_CHARSET + script, "a page of the site")


def add_page_package(page: str, package: str, own: str) -> str:
    """A page of the site loading its own package ``own`` beside ``package`` (the workbook's
    modules that this page imports and not every page: ``build.page_packages``), in the kernel's
    settings that the page carries.

    >>> add_page_package('"packages": ["comm", "demo", "ipython"]', "demo", "demo-page")
    '"packages": ["comm", "demo", "demo-page", "ipython"]'
    """
    return replace_once(page, f'"{package}", ', f'"{package}", "{own}", ', "a page of the site")


#: **No other host.** A page of the site asks no host but its own (a reader's browser tells no
#: third party what they read, and the site works offline). Voilà's page template links Font
#: Awesome's CSS on a CDN (the icons the pages show are bundled with their scripts) and loads
#: mermaid from another CDN when a notebook has a diagram (none has); :func:`drop_other_hosts`
#: takes both out of every page. Three scripts fall back to a CDN for an address the site's
#: settings always give, and plotly.js names one for maps that its cartesian bundle cannot draw:
#: ``OTHER_HOST_DEFAULTS`` points each at the site's own. :func:`other_host_urls` is the check:
#: the build stops if any page, script or style sheet still names another host to load.
FONT_AWESOME = re.compile(r'[ \t]*<link rel="stylesheet" href="https://cdn\.jsdelivr\.net/npm/'
                          r'(@fortawesome/fontawesome-free|font-awesome)@[^"]*" type="text/css" ?/>\n')
MERMAID = re.compile(r'<script type="module">\s*document\.addEventListener\("DOMContentLoaded", async \(\) => \{\s*'
                     r'const diagrams = document\.querySelectorAll\("\.jp-Mermaid > pre\.mermaid"\);.*?</script>\n?',
                     re.S)

#: file (a glob from the site's root) → (its fallback to another host, what replaces it)
OTHER_HOST_DEFAULTS = {
    "pyodide/pyodide.js": ("e.cdnUrl=A(e.packageBaseUrl??`https://cdn.jsdelivr.net/pyodide/v${O}/full/`)",
                           "e.cdnUrl=A(e.packageBaseUrl??t)"),  # t: the runtime's own folder (indexURL)
    KERNEL_STATIC + "*.js": ('c=a.pyodideUrl||"https://cdn.jsdelivr.net/pyodide/v0.29.0/full/pyodide.js"',
                             'c=a.pyodideUrl||"pyodide/pyodide.js"'),
    "voici/build/*.js": ('"null"===i?"https://cdnjs.cloudflare.com/ajax/libs/mathjax/2.7.7/MathJax.js":i',
                         '"null"===i?"":i'),  # as with no MathJax 2 address set
    "voici/render/workbook/static/plotly.min.js": ('topojsonURL:{valType:"string",noBlank:!0,dflt:"https://cdn.plot.ly/un/"}',
                                                   'topojsonURL:{valType:"string",noBlank:!0,dflt:"topojson/"}'),
    "voici/render/workbook/static/plotly-basic.min.js": (
        'topojsonURL:{valType:"string",noBlank:!0,dflt:"https://cdn.plot.ly/un/"}',
        'topojsonURL:{valType:"string",noBlank:!0,dflt:"topojson/"}'),
}


def drop_other_hosts(page: str) -> str:
    """A page of the site without Font Awesome's CDN links and the mermaid loader."""
    return MERMAID.sub("", FONT_AWESOME.sub("", page))


def patch_other_host_default(text: str, where: str) -> str:
    """``text`` of the file ``where`` (a key of ``OTHER_HOST_DEFAULTS``) pointing at the site's own."""
    old, new = OTHER_HOST_DEFAULTS[where]
    return replace_once(text, old, new, where)


_URL = r"(?:https?:)?//[A-Za-z0-9.-]+\.[A-Za-z]{2,}(?::\d+)?(?:/[^\s\"'`)<>]*)?"
#: A file a script would load by its name: a script, style, data, font, image or archive.
_FILE = r"\.(?:m?js|css|wasm|json|whl|zip|tar|woff2?|ttf|otf|png|svg|gif|jpe?g)(?:[?#][^\"'`]*)?"
#: Hosts that serve files for pages to load (any address there counts, a folder's too).
_CDN = r"(?:https?:)?//(?:cdn[\w-]*\.|[\w.-]*(?:jsdelivr|unpkg|googleapis|gstatic|pythonhosted)\.)"
#: What a page loads: an HTML attribute that fetches (not an ``<a>``'s ``href``, which a reader
#: follows), a style sheet's ``url()`` or ``@import``, and in a script a string that is the
#: address of a file to load or any address on a CDN; a JSON Schema's ``$schema``, ``$id`` or
#: ``$ref`` names a schema and is never fetched.
_LOADS = {
    "html": re.compile(r"<(?!a\b)[a-z][^>]*?\s(?:src|href|srcset|poster|data|action)\s*=\s*[\"']?(" + _URL + ")", re.I),
    "css": re.compile(r"(?:url\(\s*[\"']?|@import\s+[\"'])(" + _URL + ")", re.I),
    "js": re.compile(r"[\"'`]((?=" + _CDN + ")" + _URL + "|" + _URL + _FILE + r")[\"'`]"),
}
_SCHEMA_NAME = re.compile(r"[\"']?\$(?:schema|id|ref)[\"']?\s*:\s*$")


def other_host_urls(text: str, kind: str) -> list[str]:
    """The addresses of another host that ``text`` (``kind``: ``html``, ``css`` or ``js``) would
    load; a page's inline scripts and styles are read as scripts and styles.

    >>> other_host_urls('<link href="https://cdn.example.org/a.css"><a href="https://example.org/">x</a>', "html")
    ['https://cdn.example.org/a.css']
    >>> other_host_urls('import("https://cdn.example.org/m.mjs"); const s = {$id: "https://example.org/s.json"}', "js")
    ['https://cdn.example.org/m.mjs']
    """
    found = [m.group(1) for m in _LOADS[kind].finditer(text)
             if kind != "js" or not _SCHEMA_NAME.search(text[max(0, m.start() - 12):m.start()])]
    if kind == "html":
        found += [u for body in re.findall(r"<script\b[^>]*>(.*?)</script>", text, re.S | re.I)
                  for u in other_host_urls(body, "js")]
        found += [u for body in re.findall(r"<style\b[^>]*>(.*?)</style>", text, re.S | re.I)
                  for u in other_host_urls(body, "css")]
    return found
