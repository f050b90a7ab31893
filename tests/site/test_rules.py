"""Designers' rules on the static site (``make site RULES=...``, tools/site/rules.py) without a
browser: the check that stops the build in one line naming the file and the line, the package
the rule files become, the pages written for them and the front page listing them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules_core import all_systems, evaluate, unregister
from site_build import build, rules

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "tests" / "example_rule.py"  # the tests' own rule: SYSTEM = rule("my-2d10", ...)
TAKEN = {Path(n).stem for n in build.NOTEBOOKS} | {"index"}


def _line_of(text: str, needle: str) -> int:
    """The line (from 1) of ``text`` where ``needle`` is."""
    (line,) = [i for i, line in enumerate(text.splitlines(), 1) if needle in line]
    return line


def _variant(tmp_path: Path, name: str, old: str, new: str) -> tuple[Path, str]:
    """The tests' rule with ``old`` replaced by ``new``, written as ``name``; and its text."""
    text = EXAMPLE.read_text()
    assert text.count(old) == 1, old
    text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text)
    return path, text


def test_a_rule_that_works_is_checked_and_leaves_the_registry_as_it_was():
    (published,) = rules.check([EXAMPLE], TAKEN)
    assert published.rules == (("my-2d10", "My 2d10 dodge"),) and published.module == "example_rule"
    assert "my-2d10" not in all_systems()


@pytest.mark.parametrize(("what", "old", "new", "said", "at"), [
    ("its import raises", "CITE = ", "CITE = 1 / 0\nCITE = ", "importing it raised ZeroDivisionError: division by zero",
     "1 / 0"),
    ("play raises", "    margin = s.skill - (a + b)\n", "    margin = s.skill - (a + b)\n    assert margin > 99, 'no'\n",
     "rule 'my-2d10': play raised AssertionError: 'no' on Dodge (2d10)", "margin > 99"),
    ("its dice are too many to walk", 'Dice("Dodge", sides=10, count=2)', 'Dice("Dodge", sides=10, count=40)',
     "too many ways for the dice to fall to compute exactly", "count=40"),
    ("an outcome it did not declare", 'return Play("dodged" if left', 'return Play("dodge" if left',
     "play came to the outcome 'dodge'", "def play("),
])
def test_a_rule_that_fails_stops_the_build_in_one_line_naming_the_file_and_the_line(tmp_path, what, old, new, said, at):
    path, text = _variant(tmp_path, "my_rule.py", old, new)
    with pytest.raises(rules.RuleFails) as failed:
        rules.check([path], TAKEN)
    message = str(failed.value)
    assert "\n" not in message and message.startswith(f"RULES {path}"), message
    assert said in message, message
    line = _line_of(text, at)
    assert f", line {line}:" in message or f"(line {line})" in message, (what, message)
    assert "my-2d10" not in all_systems()


def test_the_build_says_a_failing_rule_in_one_line_before_any_work(tmp_path):
    """``build.py --rule``: the designer's error alone on standard error, exit status 1, and
    nothing built (the check comes first)."""
    path, text = _variant(tmp_path, "house.py", "    margin = s.skill - (a + b)\n",
                          "    margin = s.skill - (a + b)\n    raise KeyError('skill')\n")
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "site" / "build.py"), "--rule", str(path),
                           "--out", str(tmp_path / "out")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    said = done.stderr.strip()
    assert "\n" not in said and said.startswith(f"RULES {path}, line {_line_of(text, 'raise KeyError')}: rule "
                                                "'my-2d10': play raised KeyError: \"'skill'\" on Dodge (2d10)"), said
    assert not (tmp_path / "out").exists()


def test_a_rule_may_not_take_a_page_of_the_site_or_another_rules_name(tmp_path):
    index, _ = _variant(tmp_path, "index_rule.py", '"my-2d10", "My 2d10 dodge"', '"index", "My 2d10 dodge"')
    index.write_text(index.read_text().replace('Literal["my-2d10"] = "my-2d10"', 'Literal["index"] = "index"'))
    with pytest.raises(rules.RuleFails, match=r"rule id 'index' is taken by a page of the site"):
        rules.check([index], TAKEN)
    (tmp_path / "again").mkdir()
    again = tmp_path / "again" / "example_rule.py"
    again.write_text(EXAMPLE.read_text())
    with pytest.raises(rules.RuleFails, match=r"a rule file of the same name is given already"):
        rules.check([EXAMPLE, again], TAKEN)
    assert [rules.module_name(Path(n)) for n in ("my_rule.py", "house-rules.py", "2d10.py")] == [
        "my_rule", "house_rules", "r_2d10"]


def test_the_sites_package_registers_each_files_rules_as_the_command_line_does(tmp_path):
    """``dodge_site_rules``: a file that defines ``SYSTEM`` and one that registers its rule
    itself (the README's way) are both loaded, each rule registered once, and ``load()`` with
    no name loads every file."""
    registers, _ = _variant(tmp_path, "registers.py", "SYSTEM = rule(\n    \"my-2d10\"",
                            "from rules_core import register\nMINE = register(rule(\n    \"my-other\"")
    text = registers.read_text().replace('Literal["my-2d10"] = "my-2d10"', 'Literal["my-other"] = "my-other"')
    text = text.replace('summary="2d10 roll-under; each point of margin cancels a hit, doubles cancel all.")',
                        'summary="another")')
    registers.write_text(text + ")\n")
    published = [rules.Published(EXAMPLE, "example_rule", (("my-2d10", "My 2d10 dodge"),)),
                 rules.Published(registers, "registers", (("my-other", "My 2d10 dodge"),))]
    folder = tmp_path / "site-packages"
    for name, data in rules.package_files(published).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    assert (folder / rules.PACKAGE / "example_rule.py").read_bytes() == EXAMPLE.read_bytes()  # as written
    sys.path.insert(0, str(folder))
    try:
        import dodge_site_rules

        (mine,) = dodge_site_rules.load("example_rule")
        assert all_systems()["my-2d10"] is mine and "my-other" not in all_systems()
        assert [s.id for s in dodge_site_rules.load()] == ["my-2d10", "my-other"]
        assert dodge_site_rules.load("example_rule") == (mine,)  # once
        assert evaluate(mine.default_scenario()).headline == evaluate(mine.presets[0].scenario).headline
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m.split(".")[0] == rules.PACKAGE]:
            del sys.modules[name]
        for id_ in ("my-2d10", "my-other"):
            if id_ in all_systems():
                unregister(id_)


def test_each_rule_gets_a_page_and_the_page_of_games_loads_the_rules_first(tmp_path):
    path, _ = _variant(tmp_path, "my_rule.py", '"my-2d10", "My 2d10 dodge"', '"my-2d10", "My <b>2d10</b> dodge"')
    (published,) = rules.check([path], TAKEN)
    (name, text), = rules.notebooks([published]).items()
    assert name == "my-2d10.ipynb"
    cells = json.loads(text)["cells"]
    assert cells[0]["source"].startswith("# My &lt;b&gt;2d10&lt;/b&gt; dodge\n")  # as text, not markup
    assert "[my_rule.py](../../rules/my_rule.py)" in cells[0]["source"]
    assert cells[1]["source"] == ("from dodge_site_rules import load\nfrom workbook import dashboard\n\n"
                                  "load('my_rule')\ndashboard('my-2d10')")
    games = rules.with_games_loaded((ROOT / "notebooks" / "compare-systems.ipynb").read_text(), "One dodge, five games")
    cells = json.loads(games)["cells"]
    assert cells[0]["source"].startswith("# One dodge, five games\n\nWhich game rewards a dodge most?")
    (code,) = [c for c in cells if c["cell_type"] == "code"]
    assert code["source"].startswith("from dodge_site_rules import load\n\nload()\n" + rules.GAMES_CODE)
    with pytest.raises(SystemExit, match="the page of games: expected one cell"):
        rules.with_games_loaded(json.dumps({"cells": []}), "One dodge, five games")


def test_the_front_page_lists_the_rule_beside_the_four_games_and_its_file(tmp_path):
    path, _ = _variant(tmp_path, "my_rule.py", '"my-2d10", "My 2d10 dodge"', '"my-2d10", "My <b>2d10</b> dodge"')
    page = build.index_page(rules.check([path], TAKEN))
    links = [part.split('"')[0] for part in page.split('class="wb-index-link wb-index-card" href="')[1:]]
    assert links[:5] == [build.PAGES + n for n in ("d100-homebrew.html", "eldfall.html", "gurps-4e.html",
                                                   "infinity-n4-dodge.html", "my-2d10.html")], links
    assert "One dodge, five games" in page
    assert '<a class="wb-rule-file" href="rules/my_rule.py" download>my_rule.py</a>: My &lt;b&gt;2d10&lt;/b&gt; dodge' in page
    assert "<b>2d10</b>" not in page
    assert "my-2d10" not in all_systems()
