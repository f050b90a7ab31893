"""Command line: evaluate scenarios, print schemas, list presets.

    python -m rules_core evaluate FILE|-
    python -m rules_core evaluate --preset SYSTEM/NAME
    python -m rules_core schema SYSTEM
    python -m rules_core presets

Results are JSON on standard output. Bad input ends with one readable line on standard error
and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from .registry import evaluate, find_preset, get_system, load_scenario, all_systems
from .scenario import ScenarioError

__all__ = ["main"]


class UsageError(Exception):
    """Input the command cannot use; its message is the one line shown."""


def _read_scenario(source: str, stdin: TextIO) -> Any:
    if source == "-":
        text, name = stdin.read(), "standard input"
    else:
        name = source
        try:
            with open(source, encoding="utf-8") as fh:
                text = fh.read()
        except FileNotFoundError:
            raise UsageError(f"no such file: {source}") from None
        except IsADirectoryError:
            raise UsageError(f"{source} is a folder, not a scenario file") from None
        except UnicodeDecodeError:
            raise UsageError(f"{source} is not UTF-8 text") from None
        except OSError as err:
            raise UsageError(f"cannot read {source}: {err.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise UsageError(f"{name} is not valid JSON: {err.msg} at line {err.lineno} "
                         f"column {err.colno}") from None


def _cmd_evaluate(args: argparse.Namespace, stdin: TextIO) -> dict[str, Any]:
    if (args.file is None) == (args.preset is None):
        raise UsageError("evaluate takes either a FILE (or - for standard input) or --preset SYSTEM/NAME")
    if args.preset is not None:
        try:
            scenario = find_preset(args.preset).scenario
        except KeyError as err:
            raise UsageError(err.args[0]) from None
    else:
        scenario = load_scenario(_read_scenario(args.file, stdin))
    return evaluate(scenario).to_data()


def _cmd_schema(args: argparse.Namespace, stdin: TextIO) -> dict[str, Any]:
    return get_system(args.system).scenario_cls.model_json_schema()


def _cmd_presets(args: argparse.Namespace, stdin: TextIO) -> list[dict[str, Any]]:
    return [{"preset": f"{s.id}/{p.name}", "title": p.title, "description": p.description,
             "citation": p.citation}
            for s in all_systems().values() for p in s.presets]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m rules_core",
                                     description="Exact evasion rules for tabletop games.")
    sub = parser.add_subparsers(dest="command", required=True)
    ev = sub.add_parser("evaluate", help="evaluate a scenario and print the exact result as JSON")
    ev.add_argument("file", nargs="?", help="scenario JSON file, or - for standard input")
    ev.add_argument("--preset", metavar="SYSTEM/NAME", help="evaluate a named preset instead")
    ev.set_defaults(run=_cmd_evaluate)
    sc = sub.add_parser("schema", help="print the JSON Schema of a system's scenarios")
    sc.add_argument("system", help="system id, e.g. infinity-n4")
    sc.set_defaults(run=_cmd_schema)
    pr = sub.add_parser("presets", help="list every preset as SYSTEM/NAME")
    pr.set_defaults(run=_cmd_presets)
    return parser


def main(argv: list[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad input)."""
    stdin, stdout, stderr = stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse has printed its usage line
        return int(exit_.code or 0)
    try:
        data = args.run(args, stdin)
    except (UsageError, ScenarioError) as err:
        print(f"error: {err}", file=stderr)
        return 2
    json.dump(data, stdout, ensure_ascii=False, indent=2)
    stdout.write("\n")
    return 0
