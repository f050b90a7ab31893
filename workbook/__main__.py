"""Command line of the workbook: an HTML report of a scenario that opens offline.

    python -m workbook report --preset SYSTEM/NAME -o report.html [--force]
    python -m workbook report FILE|- [-o report.html] [--force] [--lang ru] [--link URL]
    python -m workbook report --system-module my_rule.py FILE   # a rule of your own

The report holds the headline, interactive charts, the tables, the trace with citations and the
share link; plotly's script is inside it, so it needs no server and requests nothing from the
network. Bad input ends with one line on standard error and exit status 2, like
``python -m rules_core`` (the scenario is read as that command reads it: at most 1 MB, a key
given twice refused):

- ``-o FILE`` never overwrites a file that exists unless ``--force`` is given;
- ``--link`` takes only an http:// or https:// address (the dashboard's page); anything else
  (``javascript:``, ``data:``, a bare word) is refused, so the report's link cannot run script.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TextIO

from rules_core import ScenarioError, get_system
from rules_core.cli import (OneLineParser, UsageError, add_system_module_option, read_scenario_source, say_error,
                            system_modules, write_output)
from rules_core.scenario import one_line, shown

from .pages.catalog import dashboards
from .panels.export import report_html, web_address
from .page.share import encode_query

__all__ = ["main", "DEFAULT_SERVER"]

#: Where ``make run`` serves the dashboards (the share link's default base).
DEFAULT_SERVER = "http://127.0.0.1:8866/voila/render/"


def _link(system_id: str, query: str, base: str | None) -> str:
    """The dashboard link of the scenario: ``base`` (a page URL) or the system's notebook on the
    default server, with the scenario's query."""
    if base is None:
        notebook = next((e.notebook for e in dashboards() if e.system is not None and e.system.id == system_id), None)
        if notebook is None:
            return ""
        base = DEFAULT_SERVER + notebook
    return f"{base}?{query}"


def _checked_link(link: str | None) -> str | None:
    if link is not None and not web_address(link):
        raise UsageError(f"--link: got {shown(link)}; allowed: an http:// or https:// address, such as "
                         f"{DEFAULT_SERVER}gurps-4e.ipynb")
    return link


def _refuse_overwrite(output: str, force: bool) -> None:
    if not force and output != "-" and os.path.isfile(output):
        raise UsageError(f"{one_line(output)} already exists; give --force to overwrite it")


def _report(args: argparse.Namespace, stdin: TextIO) -> str:
    _refuse_overwrite(args.output, args.force)
    link = _checked_link(args.link)
    scenario = read_scenario_source(args.file, args.preset, stdin, "report")
    system = get_system(scenario.system)
    lang = args.lang or system.languages[0]
    if lang not in system.languages:
        raise UsageError(f"--lang: got {one_line(repr(lang))}; allowed: {', '.join(system.languages)}")
    result = system.evaluate(scenario)
    return report_html(result, lang=lang, system=system,
                       share_link=_link(system.id, encode_query(system, scenario, lang if lang != system.languages[0] else None),
                                        link))


def main(argv: list[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    """Run the command line; returns the exit status (0 written, 1 not written, 2 bad input)."""
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    stderr = stderr if stderr is not None else sys.stderr
    parser = OneLineParser(prog="python -m workbook", description="Reports of the Dodge Workbook.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    rep = sub.add_parser("report", help="write a self-contained HTML report of a scenario")
    rep.add_argument("file", nargs="?", help="scenario JSON file, or - for standard input")
    rep.add_argument("--preset", metavar="SYSTEM/NAME", help="report a named preset instead")
    rep.add_argument("-o", "--output", default="-", metavar="FILE",
                     help="where to write it (default: standard output); a file that exists is kept "
                          "unless --force is given")
    rep.add_argument("--force", action="store_true", help="overwrite the -o FILE if it exists")
    rep.add_argument("--lang", help="language of the report (the system's languages)")
    rep.add_argument("--link", metavar="URL", help="the dashboard's http:// or https:// address for the share "
                                                  f"link (default: {DEFAULT_SERVER}<notebook>)")
    add_system_module_option(rep)
    try:
        args = parser.parse_args(argv)
        with system_modules(args.system_modules):
            page = _report(args, stdin)
    except (UsageError, ScenarioError) as err:
        say_error(stderr, str(err))
        return 2
    except SystemExit as exit_:
        return int(exit_.code or 0)
    except KeyboardInterrupt:
        return 130
    if args.output == "-":
        return write_output(page, stdout, stderr)
    # "x" creates the file only if it is still not there (one made meanwhile is kept); a device
    # such as /dev/null is written as it is.
    mode = "w" if args.force or os.path.exists(args.output) and not os.path.isfile(args.output) else "x"
    try:
        with open(args.output, mode, encoding="utf-8") as fh:
            fh.write(page)
    except FileExistsError:
        say_error(stderr, f"{one_line(args.output)} already exists; give --force to overwrite it")
        return 2
    except OSError as err:
        say_error(stderr, f"cannot write {one_line(args.output)}: {err.strerror or err}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
