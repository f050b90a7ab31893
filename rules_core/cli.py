"""Command line: evaluate scenarios, roll and simulate them, print schemas, list presets.

    python -m rules_core evaluate FILE|-|--preset SYSTEM/NAME [--format json|csv]
    python -m rules_core sweep FILE|-|--preset SYSTEM/NAME --field DOTTED.PATH [--from A --to B] [--format json|csv]
    python -m rules_core compare [FILE ...] [--preset SYSTEM/NAME ...]     (two scenarios in all)
    python -m rules_core worth FILE|-|--preset SYSTEM/NAME
    python -m rules_core roll --preset SYSTEM/NAME [--seed S] [--faces F ...]   (or FILE|-)
    python -m rules_core simulate --preset SYSTEM/NAME --n N [--seed S]         (or FILE|-)
    python -m rules_core schema SYSTEM
    python -m rules_core presets

Every command also takes ``--system-module my_rule.py`` (repeatable): a Python file that defines
a rule of your own (``SYSTEM = rules_core.rule(...)``, registered for the command, or a module
that calls ``rules_core.register`` itself); scenarios and ``schema`` may then name its id
(``"system": "my-2d10"``), and ``presets`` lists its presets. The file is run as Python, as
``python my_rule.py`` would run it (its folder first on the import path while it loads). A
rule's mistakes are said like bad input, in one line with status 2: a file missing or not
``.py``, the exception its import raised (type, message, line), no rule in it, an id of a
built-in game, dice too many to compute exactly (``simulate`` still samples such a rule), an
exception raised by its own code while a command runs (with the line of the file).

Results are JSON on standard output (``roll`` prints the steps of one roll as text; ``--format
csv`` gives the outcome table or the sweep as CSV, each exact value as ``n/d`` beside a float). No input
ends in a traceback:

- bad input (a wrong field, unknown keys, text that is not JSON, a key given twice in one
  object, numbers with thousands of digits, nesting deeper than any scenario, an input larger
  than :data:`MAX_INPUT_BYTES` (1 MB), a closed standard input) ends with one readable line on
  standard error and exit status 2; the line quotes at most 80 characters of any value (a file
  name, a preset, an option's value) and escapes control characters;
- input is bounded before it is parsed: at most 1 MB and one byte is read from a file or from
  standard input (``/dev/zero`` or an endless pipe is refused at once);
- output that cannot be written (a full disk) ends with one line and exit status 1; a reader
  that stops reading (``| head -c1``) ends it quietly, also with status 1.

``python -m workbook report`` reads its scenario with this module (the same limit, the same
refusals); it keeps an existing ``-o FILE`` unless ``--force`` is given, and its ``--link`` takes
only an http:// or https:// address.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import os
import random
import re
import sys
import traceback
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn, TextIO

from decimal import Decimal, InvalidOperation
from fractions import Fraction

from .compare import compare, evasion_of, without_reaction, worth
from .design import RuleError
from .jsonio import DuplicateKey, NotJson, loads_strict
from .play import TooManyPlays, play_once
from .registry import (System, all_systems, built_in_systems, evaluate, find_preset, get_system, load_scenario,
                       register, unregister)
from .sweeps import allowed_values, sweep
from .tables import csv_text, outcome_rows, sweep_rows
from .roller import DiceError
from .scenario import SHOWN, Scenario, ScenarioError, one_line, shown
from .simulate import MAX_ROLLS, simulate

__all__ = ["main", "UsageError", "OneLineParser", "say_error", "read_scenario_source", "write_output",
           "MAX_INPUT_BYTES", "load_system_module", "system_modules", "add_system_module_option"]

#: Bytes a scenario file or standard input may hold (a real scenario is a few kilobytes): at most
#: one byte more is ever read, and a larger input is refused before it is parsed.
MAX_INPUT_BYTES = 1_000_000
#: Characters of one error line (a scenario error lists at most ten problems, each bounded).
MAX_MESSAGE = 8000


class UsageError(Exception):
    """Input the command cannot use; its message is the one line shown."""


def _json_error(err: json.JSONDecodeError) -> str:
    """What is wrong and where: some of Python's messages end in "at" already ("Unterminated
    string starting at"), the others do not ("Expecting value")."""
    where = f"line {err.lineno} column {err.colno}"
    return f"{err.msg} {where}" if err.msg.endswith(" at") else f"{err.msg} at {where}"


def _parse_json(text: str, name: str) -> Any:
    """Strict JSON (:func:`loads_strict`), every fault refused in one line naming ``name``."""
    try:
        return loads_strict(text)
    except json.JSONDecodeError as err:
        raise UsageError(f"{name} is not valid JSON: {_json_error(err)}") from None
    except NotJson as err:
        raise UsageError(f"{name} is not valid JSON: {err}") from None
    except DuplicateKey as err:
        raise UsageError(f"{name}: {err}; give each key once") from None
    except RecursionError:
        raise UsageError(f"{name} is nested too deeply to be a scenario (a scenario is a few "
                         "levels deep)") from None


def _too_large(name: str) -> UsageError:
    return UsageError(f"{name} is larger than {MAX_INPUT_BYTES // 1_000_000} MB, the most a scenario "
                      "file may be")


def _utf8(data: bytes, name: str) -> str:
    """``data`` (at most one byte over the limit) as text; refused when too large or not UTF-8."""
    if len(data) > MAX_INPUT_BYTES:
        raise _too_large(name)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{name} is not UTF-8 text") from None


def _read_stdin(stdin: TextIO | None) -> str:
    """Standard input's text: at most :data:`MAX_INPUT_BYTES` and one more byte are read."""
    name = "standard input"
    if stdin is None or stdin.closed:
        raise UsageError("standard input is closed; give a FILE, or pipe a scenario into -")
    try:
        raw = getattr(stdin, "buffer", None)
        if raw is not None:
            return _utf8(raw.read(MAX_INPUT_BYTES + 1), name)
        text = stdin.read(MAX_INPUT_BYTES + 1)  # a text stream (a test's StringIO): characters
    except UnicodeDecodeError:
        raise UsageError(f"{name} is not UTF-8 text") from None
    except (OSError, ValueError) as err:  # a descriptor closed under us, or a closed file object
        raise UsageError(f"cannot read {name}: {getattr(err, 'strerror', None) or err}") from None
    if len(text) > MAX_INPUT_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_INPUT_BYTES:
        raise _too_large(name)
    return text


def _read_file(source: str) -> str:
    """A scenario file's text: at most :data:`MAX_INPUT_BYTES` and one more byte are read (so
    /dev/zero or a pipe that never ends is refused too)."""
    name = one_line(source)
    try:
        with open(source, "rb") as fh:
            data = fh.read(MAX_INPUT_BYTES + 1)
    except FileNotFoundError:
        raise UsageError(f"no such file: {name}") from None
    except IsADirectoryError:
        raise UsageError(f"{name} is a folder, not a scenario file") from None
    except OSError as err:
        raise UsageError(f"cannot read {name}: {err.strerror or err}") from None
    return _utf8(data, name)


def _read_scenario(source: str, stdin: TextIO | None) -> Any:
    if source == "-":
        return _parse_json(_read_stdin(stdin), "standard input")
    return _parse_json(_read_file(source), one_line(source))


def read_scenario_source(file: str | None, preset: str | None, stdin: TextIO | None, command: str) -> Scenario:
    """The scenario a command names: ``preset`` (SYSTEM/NAME) or ``file`` (``-`` for standard
    input), validated; :class:`UsageError` or ``ScenarioError`` (one line) otherwise."""
    if (file is None) == (preset is None):
        raise UsageError(f"{command} takes either a FILE (or - for standard input) or --preset SYSTEM/NAME")
    if preset is not None:
        return _preset(preset)
    return load_scenario(_read_scenario(file, stdin))


def _scenario(args: argparse.Namespace, stdin: TextIO) -> Scenario:
    """The scenario a command names: a preset, or a file (``-`` for standard input)."""
    return read_scenario_source(args.file, args.preset, stdin, args.command)


def _preset(ref: str) -> Scenario:
    try:
        return find_preset(ref).scenario
    except KeyError as err:
        raise UsageError(err.args[0]) from None


# -- a designer's rule from a Python file (--system-module) ----------------------------------------

#: Names the modules loaded from --system-module files take in ``sys.modules`` while they are
#: used (pydantic and dataclasses read a class's module there); never a name another import uses.
_MODULE_NAMES = (f"_rules_core_system_module_{n}" for n in itertools.count(1))
#: The files loaded by --system-module in this process: each resolved path (where a designer's
#: code runs, as a traceback names it), with the path as the command line gave it.
_LOADED_FILES: dict[str, str] = {}


def _line_in(err: BaseException, files: Iterable[str]) -> tuple[str, int] | None:
    """Where in one of ``files`` (resolved paths) ``err`` was raised, as (file, line): the last
    frame of its traceback there, or else of the exception it was raised from (the core says
    the exception of a designer's ``play`` as a :class:`RuleError` raised from it)."""
    files, seen = set(files), set()
    cause: BaseException | None = err
    while cause is not None and id(cause) not in seen:  # (a chain may loop back)
        seen.add(id(cause))
        found = None
        for frame in traceback.extract_tb(cause.__traceback__):
            if frame.filename in files and frame.lineno is not None:
                found = (frame.filename, frame.lineno)
        if found is not None:
            return found
        cause = cause.__cause__
    return None


def _raised(err: BaseException) -> str:
    """An exception as a message says it: its type and its message."""
    text = str(err)
    return f"{type(err).__name__}: {one_line(text, 300)}" if text else type(err).__name__


def _path_shown(path: str) -> str:
    """A file's path as a message quotes it: one terminal-safe line, its end kept when it is long
    (the file's name is what tells a reader which file)."""
    text = one_line(path, 10_000)
    return text if len(text) <= 80 else "…" + text[-79:]


def load_system_module(path: str) -> tuple[System, ...]:
    """Import the Python file ``path`` (a designer's rule) and register its rule: the module's
    ``SYSTEM`` (a :class:`~rules_core.registry.System` made by ``rules_core.rule``) when it is
    not registered yet, and any rule the module registered itself. Returns the rules it brought.
    :class:`UsageError` in one line otherwise: a file missing, a folder, not ``.py``, an import
    that raised (its type, message and line), no rule, an id of a built-in game."""
    name = _path_shown(path)
    file = Path(path)
    if not file.exists():
        raise UsageError(f"--system-module: no such file: {name}")
    if file.is_dir():
        raise UsageError(f"--system-module: {name} is a folder; give the Python file that defines your rule "
                         "(e.g. my_rule.py)")
    if file.suffix != ".py":
        raise UsageError(f"--system-module: {name} is not a Python file (.py); give the file that defines your "
                         "rule, e.g. my_rule.py with SYSTEM = rules_core.rule(...)")
    resolved = str(file.resolve())
    before = dict(all_systems())
    module_name = next(_MODULE_NAMES)
    spec = importlib.util.spec_from_file_location(module_name, resolved)
    if spec is None or spec.loader is None:
        raise UsageError(f"--system-module: {name} cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    folder = str(file.resolve().parent)
    sys.path.insert(0, folder)
    _LOADED_FILES[resolved] = path
    try:
        spec.loader.exec_module(module)
    except SyntaxError as err:
        sys.modules.pop(module_name, None)
        elsewhere = err.filename and os.path.realpath(err.filename) != os.path.realpath(resolved)
        where = f"line {err.lineno}" + (f" of {_path_shown(err.filename)}" if elsewhere else "")
        raise UsageError(f"--system-module {name}: importing it raised SyntaxError: {err.msg} ({where})") from None
    except (Exception, SystemExit) as err:
        sys.modules.pop(module_name, None)
        where = _line_in(err, [resolved])
        line = f" (line {where[1]})" if where else ""
        raise UsageError(f"--system-module {name}: importing it raised {_raised(err)}{line}") from None
    finally:
        try:
            sys.path.remove(folder)
        except ValueError:
            pass
    after = all_systems()
    brought = [system for id_, system in after.items() if before.get(id_) is not system]
    system = getattr(module, "SYSTEM", None)
    if system is not None and not isinstance(system, System):
        raise UsageError(f"--system-module {name}: SYSTEM is {shown(system)}, not a rule; define "
                         "SYSTEM = rules_core.rule(id, name, Scenario, play, outcomes=...)")
    if system is not None and after.get(system.id) is not system:
        try:
            register(system)
        except RuleError as err:
            raise UsageError(f"--system-module {name}: {err}") from None
        brought.append(system)
    if not brought:
        raise UsageError(f"--system-module {name} defines no rule: give it SYSTEM = rules_core.rule(...) "
                         "(or call rules_core.register(rule(...)) in it)")
    return tuple(brought)


@contextmanager
def system_modules(paths: Iterable[str]) -> Iterator[tuple[System, ...]]:
    """The rules of the files ``paths`` (:func:`load_system_module`) registered while the block
    runs; the registry is as it was afterwards (a command line run inside a process, as a test
    runs it, leaves no rule behind). Inside the block, a designer's rule's mistake becomes a
    one-line :class:`UsageError`: the core's :class:`~rules_core.design.RuleError`, the size
    limit (:class:`~rules_core.play.TooManyPlays`), or any exception raised in a loaded file's
    code (with its line); every other exception is left as it is.

    ``python -m workbook report`` can take the option the same way::

        add_system_module_option(report_parser)
        with system_modules(args.system_modules):
            ...
    """
    built_in = built_in_systems()
    registered = {id_: s for id_, s in all_systems().items() if id_ not in built_in}
    try:
        systems = tuple(system for path in paths for system in load_system_module(path))
        try:
            yield systems
        except (UsageError, ScenarioError):
            raise
        except Exception as err:
            said = _rule_error(err)
            if said is None:
                raise
            raise UsageError(said) from None
    finally:
        for id_, system in list(all_systems().items()):
            if id_ not in built_in and registered.get(id_) is not system:
                unregister(id_)
        for id_, system in registered.items():
            if all_systems().get(id_) is not system:
                register(system)


def _rule_error(err: BaseException) -> str | None:
    """The one line for an exception a designer's rule caused while a command ran (its own
    mistake said by the core, the size limit, or an exception raised in the module's code), with
    the line of the rule's file where it, or the exception behind it, was raised; None for an
    exception that did not come from a designer's rule."""
    if isinstance(err, TooManyPlays):
        return f"{err}; on the command line: python -m rules_core simulate ... --n N"
    where = _line_in(err, _LOADED_FILES)
    at = "" if where is None else f" ({_path_shown(_LOADED_FILES.get(where[0], where[0]))}, line {where[1]})"
    if isinstance(err, RuleError):
        return f"{err}{at}"
    return None if where is None else f"your rule raised {_raised(err)}{at}"


def _cmd_evaluate(args: argparse.Namespace, stdin: TextIO) -> dict[str, Any] | str:
    result = evaluate(_scenario(args, stdin))
    return csv_text(outcome_rows(result)).rstrip("\n") if args.format == "csv" else result.to_data()


def _bound(option: str, text: str | None) -> Fraction | None:
    """A ``--from``/``--to`` value: a decimal number (``12``, ``6.25``)."""
    if text is None:
        return None
    try:
        if len(text) > 40:
            raise InvalidOperation
        value = Decimal(text.strip())
        if not value.is_finite():
            raise InvalidOperation
    except InvalidOperation:
        raise UsageError(f"{option}: got {one_line(repr(text))}; allowed: a number such as 12 or 6.25") from None
    return Fraction(value)


def _cmd_sweep(args: argparse.Namespace, stdin: TextIO) -> dict[str, Any] | str:
    scenario = _scenario(args, stdin)
    values = allowed_values(scenario, args.field)  # refuses a path that names no single field
    low, high = _bound("--from", args.low), _bound("--to", args.high)
    if low is not None or high is not None:
        if not all(isinstance(v, (int, Decimal)) and not isinstance(v, bool) for v in values):
            raise UsageError(f"--from/--to: field '{one_line(args.field)}' is not a number field; "
                             "sweep it without a range")
        first, last = Fraction(values[0]), Fraction(values[-1])
        for option, bound in (("--from", low), ("--to", high)):
            if bound is not None and not first <= bound <= last:
                raise UsageError(f"{option}: got {one_line(str(args.low if option == '--from' else args.high))}; "
                                 f"allowed: a number from {values[0]} to {values[-1]} (the field's range)")
        low = first if low is None else low
        high = last if high is None else high
        if low > high:
            raise UsageError(f"--from {args.low} is above --to {args.high}; give the lower value first")
        values = tuple(v for v in values if low <= Fraction(v) <= high)
        if not values:
            raise UsageError(f"--from/--to: no value of '{one_line(args.field)}' lies between "
                             f"{args.low} and {args.high} on its step")
    swept = sweep(scenario, args.field, values)
    return csv_text(sweep_rows(swept)).rstrip("\n") if args.format == "csv" else swept.to_data()


def _cmd_compare(args: argparse.Namespace, stdin: TextIO) -> dict[str, Any]:
    files, presets = args.files or [], args.preset or []
    if len(files) + len(presets) != 2:
        raise UsageError(f"compare takes two scenarios in all (FILEs and --preset SYSTEM/NAME), "
                         f"got {len(files) + len(presets)}")
    if files.count("-") > 1:
        raise UsageError("compare reads standard input (-) once; give the other scenario as a file")
    scenarios = [load_scenario(_read_scenario(f, stdin)) for f in files] + [_preset(p) for p in presets]
    return compare(*scenarios).to_data()


def _cmd_worth(args: argparse.Namespace, stdin: TextIO) -> dict[str, Any]:
    scenario = _scenario(args, stdin)
    if without_reaction(scenario) == scenario:  # with and without would be the same: all zeros
        declared = ", ".join(f"{path} = {json.dumps(value)}"
                             for path, value in evasion_of(scenario.system).no_reaction.items())
        raise UsageError(f"worth: this scenario's defender already makes no reaction ({declared}), so with and "
                         "without it are the same; give a scenario where the defender reacts")
    return worth(scenario).to_data()


def _cmd_roll(args: argparse.Namespace, stdin: TextIO) -> str:
    scenario = _scenario(args, stdin)
    system = get_system(scenario.system)
    if args.faces is not None and args.seed is not None:
        raise UsageError("roll takes either --seed or --faces, not both")
    seed = args.seed if args.seed is not None else random.SystemRandom().randint(1, 999_999)
    try:
        played = play_once(system, scenario, seed=None if args.faces is not None else seed, faces=args.faces)
    except DiceError as err:
        raise UsageError(f"--faces: {err}") from None
    where = f"faces {' '.join(map(str, args.faces))}" if args.faces is not None else f"seed {seed}"
    lines = [f"{system.name}: one roll ({where})", "", "Dice rolled, in the order the rule asks for them:"]
    lines += [f"  {i}. {r.dice}: {', '.join(map(str, r.faces))}" for i, r in enumerate(played.rolled, 1)]
    lines += ["", "The rule, step by step:"]
    lines += [f"  {i}. {step}" for i, step in enumerate(played.trace, 1)]
    evasions = ", ".join("passed" if e else "failed" for e in played.evasions) or "none made"
    lines += ["", f"Outcome: {played.outcome}", f"Hits landing: {played.hits}", f"Evasion rolls: {evasions}"]
    return "\n".join(lines)


def _cmd_simulate(args: argparse.Namespace, stdin: TextIO) -> dict[str, Any]:
    scenario = _scenario(args, stdin)
    if not 1 <= args.n <= MAX_ROLLS:
        raise UsageError(f"--n: got {one_line(str(args.n))}; allowed: a whole number from 1 to {MAX_ROLLS:,}")
    system = get_system(scenario.system)
    simulated = simulate(system, scenario, args.n, seed=args.seed)
    try:
        exact = evaluate(scenario)
    except TooManyPlays as err:  # a designer's rule too large to walk: sampling is the answer
        data = simulated.to_data(system, _NoExact(scenario))  # type: ignore[arg-type]
        dice = ", ".join(map(str, err.asked))
        return {**data, "exact": f"none: the dice ({dice}) fall in at least {err.ways:,} ways, more than the "
                                 f"{err.limit:,} plays exact enumeration walks"}
    return simulated.to_data(system, exact)


class _NoExact:
    """What :meth:`~rules_core.simulate.Simulation.to_data` reads of a result, for a rule too
    large to evaluate exactly: the scenario and no exact headline."""

    def __init__(self, scenario: Scenario):
        self.scenario, self.headline = scenario, {}


def _cmd_schema(args: argparse.Namespace, stdin: TextIO) -> dict[str, Any]:
    return get_system(args.system).scenario_cls.model_json_schema()


def _cmd_presets(args: argparse.Namespace, stdin: TextIO) -> list[dict[str, Any]]:
    return [{"preset": f"{s.id}/{p.name}", "title": p.title, "description": p.description,
             "citation": p.citation}
            for s in all_systems().values() for p in s.presets]


#: A value argparse quotes in its messages ('...' or "..."), or what follows "unrecognized
#: arguments:" (the words it did not take, unquoted).
_QUOTED = re.compile(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|(?<=unrecognized arguments: ).*""", re.S)


def _clip_quoted(message: str) -> str:
    """argparse's ``message`` with each value it quotes cut to :data:`~rules_core.scenario.SHOWN`
    characters (then "…"), as every other message quotes a value."""
    return _QUOTED.sub(lambda m: one_line(m.group(0)) if len(m.group(0)) > SHOWN else m.group(0), message)


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (then status 2), like every other error, and
    quotes at most 80 characters of any value."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{one_line(_clip_quoted(message), 300)} (see {self.prog} --help)")


#: The parser other command lines of the project use, for the same one-line usage errors.
OneLineParser = _Parser


def add_system_module_option(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """``parser`` with ``--system-module PATH`` (repeatable; ``args.system_modules``, a list)."""
    parser.add_argument("--system-module", dest="system_modules", action="append", default=[], metavar="PATH",
                        help="a Python file defining a rule of your own (SYSTEM = rules_core.rule(...), or "
                             "registering it itself); scenarios may then name its id. Repeatable")
    return parser


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m rules_core", description="Exact evasion rules for tabletop games.",
                     epilog="Every command takes --system-module my_rule.py: a Python file defining a rule of "
                            "your own (SYSTEM = rules_core.rule(...)); its id is then a system like the built-in games'.")
    rule_file = add_system_module_option(_Parser(add_help=False))
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def add(name: str, **kwargs: Any) -> argparse.ArgumentParser:
        return sub.add_parser(name, parents=[rule_file], **kwargs)

    ev = add("evaluate", help="evaluate a scenario and print the exact result as JSON")
    ev.add_argument("file", nargs="?", help="scenario JSON file, or - for standard input")
    ev.add_argument("--preset", metavar="SYSTEM/NAME", help="evaluate a named preset instead")
    ev.add_argument("--format", choices=("json", "csv"), default="json",
                    help="json (default): the whole result; csv: the outcome table (exact n/d and float)")
    ev.set_defaults(run=_cmd_evaluate)
    sw = add("sweep", help="every headline along one field's values (JSON or CSV)")
    sw.add_argument("file", nargs="?", help="scenario JSON file, or - for standard input")
    sw.add_argument("--preset", metavar="SYSTEM/NAME", help="sweep a named preset instead")
    sw.add_argument("--field", required=True, metavar="DOTTED.PATH", help="the field to sweep, e.g. dodger.ph")
    sw.add_argument("--from", dest="low", metavar="A", help="lowest value (default: the field's minimum)")
    sw.add_argument("--to", dest="high", metavar="B", help="highest value (default: the field's maximum)")
    sw.add_argument("--format", choices=("json", "csv"), default="json",
                    help="json (default) or csv (one row per value and headline: exact n/d and float)")
    sw.set_defaults(run=_cmd_sweep)
    co = add("compare", help="two scenarios side by side: both headlines and their differences")
    co.add_argument("files", nargs="*", metavar="FILE", help="scenario JSON files (- for standard input)")
    co.add_argument("--preset", metavar="SYSTEM/NAME", action="append", help="a named preset (repeatable)")
    co.set_defaults(run=_cmd_compare)
    wo = add("worth", help="a scenario with and without the defender's reaction, and what it gains")
    wo.add_argument("file", nargs="?", help="scenario JSON file, or - for standard input")
    wo.add_argument("--preset", metavar="SYSTEM/NAME", help="a named preset instead")
    wo.set_defaults(run=_cmd_worth)
    ro = add("roll", help="roll one scenario once and print the rule's steps with citations")
    ro.add_argument("file", nargs="?", help="scenario JSON file, or - for standard input")
    ro.add_argument("--preset", metavar="SYSTEM/NAME", help="roll a named preset instead")
    ro.add_argument("--seed", type=int, help="seed of the random dice (the same seed, the same roll)")
    ro.add_argument("--faces", type=int, nargs="+", metavar="F",
                    help="the faces rolled at the table, in the order the rule asks for them")
    ro.set_defaults(run=_cmd_roll)
    si = add("simulate", help="roll a scenario N times; each headline simulated, with its "
                                         "standard error, beside the exact value (JSON)")
    si.add_argument("file", nargs="?", help="scenario JSON file, or - for standard input")
    si.add_argument("--preset", metavar="SYSTEM/NAME", help="simulate a named preset instead")
    si.add_argument("--n", type=int, default=10_000, help=f"rolls, 1 to {MAX_ROLLS:,} (default 10,000)")
    si.add_argument("--seed", type=int, default=1, help="seed of the random dice (default 1)")
    si.set_defaults(run=_cmd_simulate)
    sc = add("schema", help="print the JSON Schema of a system's scenarios")
    sc.add_argument("system", help="system id, e.g. infinity-n4 (or your rule's, with --system-module)")
    sc.set_defaults(run=_cmd_schema)
    pr = add("presets", help="list every preset as SYSTEM/NAME (with your rule's, with --system-module)")
    pr.set_defaults(run=_cmd_presets)
    return parser


def _say(stream: TextIO | None, message: str) -> None:
    """Write one error line; a closed or full standard error loses it rather than crashing."""
    try:
        if stream is not None:
            stream.write(f"error: {one_line(message, MAX_MESSAGE)}\n")
            stream.flush()
    except (OSError, ValueError):
        pass


#: One error line on standard error (what every command line of the project prints).
say_error = _say


def _detach(stream: TextIO) -> None:
    """Point the process's standard output at /dev/null after a failed write, so Python's own
    flush at exit does not fail again and print a traceback of its own."""
    if stream is not sys.stdout:
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: list[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 the output could not be written,
    2 bad input)."""
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    stderr = stderr if stderr is not None else sys.stderr
    try:
        args = _parser().parse_args(argv)
        with system_modules(args.system_modules):  # a rule's own mistake said in one line
            data = args.run(args, stdin)
    except (UsageError, ScenarioError) as err:
        _say(stderr, str(err))
        return 2
    except SystemExit as exit_:  # --help printed its text
        return int(exit_.code or 0)
    except KeyboardInterrupt:
        return 130
    return write_output(data if isinstance(data, str) else json.dumps(data, ensure_ascii=False, indent=2),
                        stdout, stderr)


def write_output(text: str, stdout: TextIO | None, stderr: TextIO | None) -> int:
    """Write ``text`` and a newline; 0 when written, 1 (quietly for a reader that has gone, with
    one line on standard error for a full disk) when not."""
    if stdout is None:
        _say(stderr, "standard output is closed; nothing was written")
        return 1
    try:
        stdout.write(text + "\n")
        stdout.flush()
    except BrokenPipeError:  # the reader has gone (``| head -c1``): nothing to say to anyone
        _detach(stdout)
        return 1
    except OSError as err:
        _detach(stdout)
        _say(stderr, f"cannot write the result: {err.strerror or err}")
        return 1
    return 0
