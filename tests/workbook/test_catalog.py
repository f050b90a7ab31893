"""The index lists every notebook, each linked to its system by name, each card with a picture;
every notebook names itself in its tab."""

from __future__ import annotations

import html
import json
import re
from fractions import Fraction

import pytest

from rules_core import all_systems, get_system
from workbook.pages.catalog import Entry, card_picture, dashboards, heading, index, notebooks_folder


def test_the_project_notebooks_are_listed():
    entries = dashboards()
    names = [e.notebook for e in entries]
    assert "infinity-n4-dodge.ipynb" in names and "index.ipynb" not in names
    inf = next(e for e in entries if e.notebook == "infinity-n4-dodge.ipynb")
    assert inf.system is get_system("infinity-n4") and inf.title == "Infinity N4"
    assert notebooks_folder().name == "notebooks"


def test_names_decide_the_system_and_unknown_notebooks_come_last(tmp_path):
    for name in ("index.ipynb", "zzz-notes.ipynb", "infinity-n4-dodge.ipynb", "infinity-n4.ipynb",
                 "infinity-n44.ipynb"):
        (tmp_path / name).write_text("{}")
    entries = dashboards(tmp_path)
    assert [(e.notebook, e.system and e.system.id) for e in entries] == [
        ("infinity-n4-dodge.ipynb", "infinity-n4"), ("infinity-n4.ipynb", "infinity-n4"),
        ("infinity-n44.ipynb", None), ("zzz-notes.ipynb", None)]
    page = index(tmp_path)
    assert "wb-index" in page._dom_classes
    assert 'href="infinity-n4-dodge.ipynb"' in page.value and "zzz notes" in page.value
    assert html.escape(get_system("infinity-n4").summary) in page.value  # the system's summary


def test_an_empty_folder_says_so(tmp_path):
    assert "No dashboards yet" in index(tmp_path).value


def test_lessons_are_listed_by_their_titles():
    from workbook.pages.catalog import index

    page = index().value
    for title in ("Lesson: one die against three attackers is not three dodges",
                  "Lesson: a bell against a flat line — 3d6 and d20",
                  "Lesson: leftover Successes and the second attack",
                  "Lesson: sampling converges on the exact value"):
        assert f'wb-index-name">{title}</span>' in page
    assert page.count("Open the lesson →") == 4


def _cards(page: str) -> dict[str, str]:
    """Each card of the index by the notebook it links."""
    return dict(re.findall(r'<a class="wb-index-link wb-index-card" href="([^"]+)".*?>(.*?)</a>', page, re.S))


def test_every_card_has_a_picture():
    cards = _cards(index().value)
    assert set(cards) == {e.notebook for e in dashboards()}
    for notebook, card in cards.items():
        assert card.count('<svg class="wb-index-picture"') == 1, notebook
        shapes = re.findall(r"<(rect|polyline)\b", card)
        assert len(shapes) > 2, notebook  # the ground and at least two marks
        assert re.search(r'aria-label="[^"]+"', card), notebook
    # a notebook nobody planned for gets a picture too
    assert '<svg class="wb-index-picture"' in card_picture(Entry("zzz-notes.ipynb", None))


def test_the_lessons_pictures_carry_exact_numbers_of_their_own_idea():
    cards = _cards(index().value)
    # 3d6 under the score against a d20 under the attribute, counted from the dice: 3-4 always
    # succeed and 17-18 always fail on 3d6 (Basic Set p. B348); the d20 succeeds on faces up to it
    bell = [Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) for c in range(1, 7)
                         if a + b + c <= 4 or (a + b + c <= 16 and a + b + c <= s)), 216) for s in range(3, 21)]
    flat = [Fraction(min(s, 20), 20) for s in range(3, 21)]
    shown = html.unescape(cards["lesson-bell-and-flat.ipynb"])
    assert "GURPS: 3d6 under the score, 3 to 20: " + ", ".join(f"{p.numerator}/{p.denominator}" for p in bell) in shown
    assert "Eldfall: d20 under the attribute, 3 to 20: " + ", ".join(f"{p.numerator}/{p.denominator}" for p in flat) in shown
    assert bell[10 - 3] == Fraction(1, 2) == flat[10 - 3]
    # one die against k Fusiliers, exact, beside the product of k separate dodges (the seed's 47/500)
    three = html.unescape(cards["lesson-one-die-three-attackers.ipynb"])
    assert "1 Fusilier(s), one die against all: 47/500" in three
    assert "3 Fusilier(s), as separate dodges: " + str(Fraction(47, 500) ** 3) in three
    # the four-games card: one line per game that declares its evasion
    four = html.unescape(cards["compare-systems.ipynb"])
    assert four.count("<polyline") == 4
    assert [n for n in re.findall(r"<title>([^:<]+): the dodge gains", four)] == [
        s.name for s in all_systems().values() if s.evasion is not None]


@pytest.mark.parametrize("path", sorted(notebooks_folder().glob("*.ipynb")), ids=lambda p: p.name)
def test_every_notebook_names_itself_in_its_tab(path):
    title = json.loads(path.read_text(encoding="utf-8"))["metadata"].get("title")
    assert isinstance(title, str), f"{path.name} has no metadata.title (the tab's title)"
    if path.name == "index.ipynb":
        assert title == "Dodge Workbook — dashboards"
        return
    name = title.removesuffix(" — Dodge Workbook")
    assert name != title and name, title
    entry = next(e for e in dashboards() if e.notebook == path.name)
    if entry.system is not None:
        assert name == entry.system.name
    else:
        assert heading(notebooks_folder(), path.name).startswith(name), (name, heading(notebooks_folder(), path.name))


def test_the_four_games_tab_is_named_as_its_notebook():
    from workbook.pages.four_games import TITLE, FourGames

    title = json.loads((notebooks_folder() / "compare-systems.ipynb").read_text(encoding="utf-8"))["metadata"]["title"]
    assert FourGames(query="").urlbar.title == title == f"{TITLE} — Dodge Workbook"


def test_the_index_draws_its_pictures_once(monkeypatch):
    """The cards' pictures depend on the rules and the presets alone: a second index draws none
    of them again (no evaluation, no worth curve, no sampling)."""
    import importlib

    import workbook.pages.catalog as catalog

    # the modules: rules_core.compare and rules_core.simulate are the functions
    compare, simulate = (importlib.import_module(f"rules_core.{name}") for name in ("compare", "simulate"))

    for draw in (catalog._outcome_picture, *catalog.PICTURES.values()):
        getattr(draw, "cache_clear", lambda: None)()
    catalog._default_preset.cache_clear()
    calls = []
    for module, name in ((catalog, "evaluate"), (compare, "worth_curve"), (simulate, "simulate_steps")):
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *a, _real=real, _name=name, **k: calls.append(_name) or _real(*a, **k))
    first = index().value
    # evaluated: each system's card (4), the three attackers (1 + 3), the leftovers and the sampling
    assert sorted(set(calls)) == ["evaluate", "simulate_steps", "worth_curve"]
    assert (calls.count("evaluate"), calls.count("worth_curve"), calls.count("simulate_steps")) == (10, 4, 1)
    calls.clear()
    assert index().value == first
    assert calls == []
