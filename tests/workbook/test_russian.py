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
