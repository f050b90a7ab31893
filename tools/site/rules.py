"""Designers' rules on the static site (``make site RULES="my_rule.py house.py"``).

Each rule file is the file ``python -m rules_core --system-module`` takes (it defines
``SYSTEM = rule(...)`` or registers its rule). The build:

1. checks each file here first (:func:`check`): it must import, and each rule it brings must
   evaluate its default scenario and every preset; a file that fails stops the build with one
   line naming the file and the line of the designer's code (``RuleFails``);
2. ships the files, byte for byte, as the modules of a small package, ``dodge_site_rules``
   (:func:`package_files`: ``dodge_site_rules/my_rule.py``), which the site's Pyodide loads
   with the other packages; its ``load(...)`` registers their rules as ``--system-module``
   does, and each file is also published as itself under ``rules/`` for readers to read and
   download: a page never takes code from its link;
3. gives each rule its own page, ``voici/render/<rule id>.html`` (:func:`notebooks`), a
   dashboard like the four games' (share link, panels, languages), and puts the rules that
   declare their ``evasion`` on the page of games (:func:`with_rules_loaded`).
"""

from __future__ import annotations

import html
import json
import re
import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The package the rule files become on the site, and the folder they are published in.
PACKAGE = "dodge_site_rules"
FOLDER = "rules"


class RuleFails(SystemExit):
    """A designer's rule file that cannot be published: the message is one line naming the file
    (and the line of its code, where there is one)."""


@dataclass(frozen=True)
class Published:
    """One rule file: where it is, its module's name in ``dodge_site_rules``, and the ids and
    names of the rules it brings."""

    path: Path
    module: str
    rules: tuple[tuple[str, str], ...]


def module_name(path: Path) -> str:
    """The name a rule file's module takes in the site's package: its stem, made an identifier.

    >>> module_name(Path("my_rule.py")), module_name(Path("house-rules.py")), module_name(Path("2d10.py"))
    ('my_rule', 'house_rules', 'r_2d10')
    """
    name = re.sub(r"\W", "_", path.stem)
    return name if name.isidentifier() and not name[0].isdigit() else "r_" + name


@contextmanager
def _project() -> Iterator[None]:
    """The project's packages importable (the build runs as a script of ``tools/site/``)."""
    sys.path.insert(0, str(ROOT))
    try:
        yield
    finally:
        sys.path.remove(str(ROOT))


def _line(err: BaseException, file: Path) -> int | None:
    """The last line of ``file`` in the tracebacks of ``err`` and what caused it."""
    found, seen = None, set()
    resolved = str(file.resolve())
    while err is not None and id(err) not in seen:
        seen.add(id(err))
        for frame in traceback.extract_tb(err.__traceback__):
            if frame.filename == resolved and frame.lineno is not None:
                found = frame.lineno
        err = err.__cause__ or err.__context__
    return found


def _play_line(system, file: Path) -> int | None:
    """The line where the rule's ``play`` is defined in ``file`` (for a mistake no line of the
    designer's code raised: an outcome not declared, a wrong return)."""
    play = getattr(system.play, "play", system.play)  # the designer's function inside the core's check
    code = getattr(play, "__code__", None)
    return code.co_firstlineno if code is not None and code.co_filename == str(file.resolve()) else None


def _said(text: str) -> str:
    """One line of a message (the command line's words for a rule file, as the build says them)."""
    return " ".join(re.sub(r"^--system-module:? ?", "", text).split())


def check(paths: list[Path], taken: set[str]) -> list[Published]:
    """The rule files ``paths``, each imported and its rules evaluated here (:func:`_evaluate`);
    ``taken`` are the names of the site's own pages, which a rule's id may not take.
    :class:`RuleFails` at the first file that fails."""
    with _project():
        from rules_core import ScenarioError
        from rules_core.cli import UsageError, system_modules

        published: list[Published] = []
        for path in paths:
            try:
                with system_modules([str(path)]) as systems:
                    for system in systems:
                        _evaluate(system, path)
            except UsageError as err:  # the command line's own words: the file, and the line
                said = _said(str(err))
                named, sep, rest = said.partition(": ")  # the file as given (the command line clips it)
                raise RuleFails(f"RULES {path}: {rest}" if sep and named.endswith(path.name) else
                                f"RULES {said}") from None
            except ScenarioError as err:
                raise RuleFails(f"RULES {path}: {_said(str(err))}") from None
            module = module_name(path)
            if any(other.module == module for other in published):
                raise RuleFails(f"RULES {path}: a rule file of the same name is given already")
            ids = tuple((s.id, s.name) for s in systems)
            for id_, _ in ids:
                if id_ in taken or any(id_ == i for other in published for i, _ in other.rules):
                    raise RuleFails(f"RULES {path}: the rule id {id_!r} is taken by a page of the site "
                                    "or another rule file; give the rule another id")
            published.append(Published(path, module, ids))
        return published


def _evaluate(system, path: Path) -> None:
    """``system`` (a rule of the file ``path``) evaluated on its default scenario and every
    preset; its designer's mistake (a ``RuleError``, dice too many to walk, anything its code
    raised) as :class:`RuleFails` naming the file and the line."""
    from rules_core import ScenarioError, evaluate
    from rules_core.cli import UsageError

    for scenario in (system.default_scenario(), *(p.scenario for p in system.presets)):
        try:
            evaluate(scenario)
        except (UsageError, ScenarioError):
            raise
        except Exception as err:
            line = _line(err, path) or _play_line(system, path)
            where = f", line {line}" if line else ""
            raise RuleFails(f"RULES {path}{where}: {_said(str(err)) or type(err).__name__}") from None


@contextmanager
def with_rules_loaded(published: list[Published]) -> Iterator[None]:
    """The rules of ``published`` registered in this process while the block runs (the site's
    front page lists them beside the four games)."""
    with _project():
        from rules_core.cli import system_modules

        with system_modules([str(p.path) for p in published]):
            yield


#: The site's package of rule files: ``load`` registers their rules as ``--system-module``
#: takes a file (its ``SYSTEM``, and any rule it registered itself).
INIT = '''"""The designers' rules this site was built with (``make site RULES=...``): each module of
this package is a rule file as its designer wrote it (written by the site's build)."""

import importlib

from rules_core import System, all_systems, register

MODULES = {modules!r}
_BROUGHT = {{}}


def load(*names):
    """The rules the modules ``names`` of this package bring (every module's when none is
    named), registered: a module's ``SYSTEM`` and any rule it registered as it was imported."""
    systems = []
    for name in names or MODULES:
        if name not in _BROUGHT:
            before = dict(all_systems())
            module = importlib.import_module(f"{{__name__}}.{{name}}")
            brought = [s for id_, s in all_systems().items() if before.get(id_) is not s]
            system = getattr(module, "SYSTEM", None)
            if isinstance(system, System) and all_systems().get(system.id) is not system:
                brought.append(register(system))
            _BROUGHT[name] = tuple(brought)
        systems += _BROUGHT[name]
    return tuple(systems)
'''


def package_files(published: list[Published]) -> dict[str, bytes]:
    """The files of the ``dodge_site_rules`` package (name in the wheel → content): its
    ``__init__`` and each rule file as it is."""
    files = {f"{PACKAGE}/__init__.py": INIT.format(modules=tuple(p.module for p in published)).encode()}
    files |= {f"{PACKAGE}/{p.module}.py": p.path.read_bytes() for p in published}
    return files


def _notebook(cells: list[tuple[str, str]]) -> str:
    return json.dumps({"cells": [{"cell_type": kind, "id": f"cell-{i}", "metadata": {}, "source": text,
                                  **({"execution_count": None, "outputs": []} if kind == "code" else {})}
                                 for i, (kind, text) in enumerate(cells)],
                       "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python"}},
                       "nbformat": 4, "nbformat_minor": 5}, indent=1) + "\n"


def notebooks(published: list[Published]) -> dict[str, str]:
    """Each rule's page as a notebook (file name ``<rule id>.ipynb`` → its JSON): the rule's
    name, where its file is, and its dashboard."""
    pages = {}
    for p in published:
        for id_, name in p.rules:
            words = (f"# {html.escape(name)}\n\nA house rule published with this workbook: every number below is "
                     f"exact, from every way the dice can fall. The rule's own file: "
                     f"[{html.escape(p.path.name)}](../../{FOLDER}/{html.escape(p.path.name)}).")
            code = (f"from {PACKAGE} import load\nfrom workbook import dashboard\n\n"
                    f"load({p.module!r})\ndashboard({id_!r})")
            pages[f"{id_}.ipynb"] = _notebook([("markdown", words), ("code", code)])
    return pages


#: The first code of the page of games, where the rules must be registered before it is built.
GAMES_CODE = "from workbook.pages.four_games import FourGames\n"


def with_games_loaded(notebook: str, title: str) -> str:
    """The page of games' notebook (its JSON) loading the site's rules first, its heading
    ``title`` (the page counts its games)."""
    data = json.loads(notebook)
    code = [c for c in data["cells"] if c["cell_type"] == "code" and "".join(c["source"]).startswith(GAMES_CODE)]
    heading = [c for c in data["cells"] if c["cell_type"] == "markdown" and "".join(c["source"]).startswith("# ")]
    if len(code) != 1 or not heading:
        raise SystemExit(f"the page of games: expected one cell starting {GAMES_CODE!r} and a heading")
    code[0]["source"] = f"from {PACKAGE} import load\n\nload()\n" + "".join(code[0]["source"])
    text = "".join(heading[0]["source"])
    heading[0]["source"] = f"# {title}" + text[text.index("\n"):] if "\n" in text else f"# {title}"
    return json.dumps(data, indent=1) + "\n"
