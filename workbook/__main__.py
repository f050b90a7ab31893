"""Command line of the workbook: an HTML report of a scenario that opens offline.

    python -m workbook report --preset SYSTEM/NAME -o report.html
    python -m workbook report FILE|- [-o report.html] [--lang ru] [--link URL]

The report holds the headline, interactive charts, the tables, the trace with citations and the
share link; plotly's script is inside it, so it needs no server and requests nothing from the
network. Bad input ends with one line on standard error and exit status 2, like
``python -m rules_core``.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from rules_core import ScenarioError, get_system
from rules_core.cli import OneLineParser, UsageError, read_scenario_source, say_error, write_output
from rules_core.scenario import one_line

from .catalog import dashboards
from .export import report_html
from .share import encode_query

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


def _report(args: argparse.Namespace, stdin: TextIO) -> str:
    scenario = read_scenario_source(args.file, args.preset, stdin, "report")
    system = get_system(scenario.system)
    lang = args.lang or system.languages[0]
    if lang not in system.languages:
        raise UsageError(f"--lang: got {one_line(repr(lang))}; allowed: {', '.join(system.languages)}")
    result = system.evaluate(scenario)
    return report_html(result, lang=lang, system=system,
                       share_link=_link(system.id, encode_query(system, scenario, lang if lang != system.languages[0] else None),
                                        args.link))


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
    rep.add_argument("-o", "--output", default="-", metavar="FILE", help="where to write it (default: standard output)")
    rep.add_argument("--lang", help="language of the report (the system's languages)")
    rep.add_argument("--link", metavar="URL", help="the dashboard's address for the share link "
                                                  f"(default: {DEFAULT_SERVER}<notebook>)")
    try:
        args = parser.parse_args(argv)
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
    try:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(page)
    except OSError as err:
        say_error(stderr, f"cannot write {args.output}: {err.strerror or err}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
