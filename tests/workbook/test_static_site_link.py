"""The share link on the static site (issue 27): the kernel runs in the reader's browser and
cannot see the page's address, so the page's UrlBar reports it (``page_query``) and the page
applies it as Voilà's request would have been. The browser side is checked on the built site
(tests/site/test_static_site.py)."""

from __future__ import annotations

import sys

import pytest

from rules_core import evaluate, get_system
from workbook.page.share import encode_query
from workbook.pages.notebook import dashboard
from workbook.pages.four_games import FourGames


@pytest.fixture
def in_the_browser(monkeypatch):
    monkeypatch.setattr(sys, "platform", "emscripten")


def test_a_dashboard_applies_the_query_its_page_reports(in_the_browser):
    page = dashboard("d100-homebrew")
    assert page.urlbar.read_page and page.urlbar.follow
    system = get_system("d100-homebrew")
    scenario = page.scenario.set("defender.agility", 37)
    page.urlbar.page_query = encode_query(system, scenario, "ru")
    assert page.scenario == scenario and page.lang == "ru"
    assert page.result.headline == evaluate(scenario).headline
    assert page.urlbar.query == encode_query(system, scenario, "ru")  # the address follows


def test_a_refused_link_reported_by_the_page_keeps_the_scenario_and_says_why(in_the_browser):
    page = dashboard("infinity-n4")
    before = page.scenario
    page.urlbar.page_query = "dodger.ph=99"
    assert page.scenario == before
    assert any("PH (Dodger) 99" in notice for notice in page.notices), page.notices


def test_the_games_page_applies_the_query_its_page_reports(in_the_browser):
    page = FourGames()
    page.urlbar.page_query = "gurps-4e=dive-into-a-trench"
    assert "gurps-4e=dive-into-a-trench" in page.urlbar.query


def test_in_a_notebook_the_bar_neither_reads_nor_follows_the_address():
    page = dashboard("infinity-n4")
    assert not page.urlbar.read_page and not page.urlbar.follow
