"""The d100 page in Russian: every number-bearing phrase agrees with its number, the terms
follow the source (seeds' «Избегание»), and nothing stays in English."""

from __future__ import annotations

import re

import pytest

from rules_core.systems.d100_homebrew.text import TEMPLATES, say, translate

# The Russian ending after «по N» (dative for 1, genitive singular for 2–4, genitive plural for
# the rest; 11–14 take the plural), written out by hand for 1..30 rather than computed.
_PO = {1: "Успеху", 2: "Успеха", 3: "Успеха", 4: "Успеха", **{n: "Успехов" for n in range(5, 21)},
       21: "Успеху", 22: "Успеха", 23: "Успеха", 24: "Успеха",
       **{n: "Успехов" for n in range(25, 31)}}
_NOUN = {1: "попадание", 2: "попадания", 3: "попадания", 4: "попадания",
         **{n: "попаданий" for n in range(5, 21)}, 21: "попадание", 22: "попадания",
         23: "попадания", 24: "попадания", **{n: "попаданий" for n in range(25, 31)}}


@pytest.mark.parametrize("cost", range(1, 31))
def test_leftover_successes_per_hit_agree_with_every_cost(cost):
    english = say("{n} {n|hit|hits} of attack {b} evaded at {cost} Successes per hit", n=cost, b=2,
                  cost=cost)
    russian = translate(english, "ru")
    assert f"{cost} {_NOUN[cost]} атаки 2" in russian
    assert f"по {cost} {_PO[cost]} за попадание" in russian


def test_every_russian_template_gives_a_number_its_word_forms():
    """A number followed straight by a noun in a Russian template must choose the noun's form."""
    fixed = []
    for english, russian in TEMPLATES.items():
        for match in re.finditer(r"\{(\w+)\} ([А-ЯЁа-яё]+)", russian):
            name, word = match.groups()
            if word in ("при", "против", "на", "в", "и", "м", "из", "с", "за"):
                continue  # a preposition or a unit, not a counted noun
            fixed.append(f"{russian!r}: {{{name}}} {word}")
    assert fixed == []


@pytest.mark.parametrize("english, russian", [
    ("Expected hits in cover", "Ожидаемое число попаданий с АР Укрытия"),
    ("Landing against Cover", "Прошло с АР Укрытия"),
    ("Attacker Sizes larger", "На сколько Размеров больше атакующий"),
    ("Weapon Skill (WS)", "Ближний бой (WS)"),
])
def test_terms_follow_the_source(english, russian):
    assert translate(english, "ru") == russian


def test_the_roll_counts_take_the_right_russian_plural():
    """"{n} rolls" in Russian, 1 to 30: бросок after 1 and 21, броска after 2–4 and 22–24,
    бросков otherwise (11–14 included); on the d100 page's Roll panel as well."""
    from workbook.app import Dashboard
    from workbook.text import WORKBOOK_TEXT, count_text

    ru = lambda s: WORKBOOK_TEXT["ru"].get(s, s)  # noqa: E731
    for n in range(1, 31):
        word = "бросок" if n in (1, 21) else "броска" if n in (2, 3, 4, 22, 23, 24) else "бросков"
        assert count_text(n, "{n} rolls", ru) == f"{n} {word}"
    assert count_text(1, "{n} rolls") == "1 roll" and count_text(12, "{n} rolls") == "12 rolls"
    dash = Dashboard("d100-homebrew", query="", lang="ru")
    dash.roll.roll()
    assert "Счёт</b>: 1 бросок</p>" in dash.roll.tally_box.value
    dash.roll.roll()
    assert "Счёт</b>: 2 броска</p>" in dash.roll.tally_box.value
