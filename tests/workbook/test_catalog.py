"""The index lists every notebook, each linked to its system by name."""

from __future__ import annotations

import html

from rules_core import get_system
from workbook.catalog import dashboards, index, notebooks_folder


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
    from workbook.catalog import index

    page = index().value
    for title in ("Lesson: one die against three attackers is not three dodges",
                  "Lesson: a bell against a flat line — 3d6 and d20",
                  "Lesson: leftover Successes and the second attack",
                  "Lesson: sampling converges on the exact value"):
        assert f'wb-index-name">{title}</span>' in page
    assert page.count("Open the lesson →") == 4
