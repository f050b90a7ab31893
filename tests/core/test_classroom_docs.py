"""The rolls written out in docs/classroom.md are what the command line prints for those faces:
the documentation shows the rule as it really runs."""

from __future__ import annotations

import io
import re
import shlex
from pathlib import Path

import pytest

from rules_core.cli import main

DOC = Path(__file__).resolve().parents[2] / "docs" / "classroom.md"
BLOCKS = re.findall(r"```console\n\$ python -m rules_core (roll [^\n]*)\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_document_has_a_roll_per_system():
    systems = {re.search(r"--preset ([^/]+)/", command).group(1) for command, _ in BLOCKS}
    assert "d100-homebrew" in systems


@pytest.mark.parametrize("command, printed", BLOCKS, ids=[c for c, _ in BLOCKS])
def test_documented_roll_is_what_the_rule_prints(command, printed):
    out = io.StringIO()
    assert main(shlex.split(command), stdout=out, stderr=io.StringIO()) == 0
    assert out.getvalue() == printed
