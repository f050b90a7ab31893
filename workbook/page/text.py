"""Words and numbers on the page, in the dashboard's language.

Every text a dashboard shows goes through :func:`translator`: first the system's own
``System.text(text, lang)`` (its labels, help, outcome labels, trace lines, headline names), then,
for the workbook's own words ("Outcome", "Share this scenario", ...) that the system left
unchanged, the small table below. A system's ``translate`` should return a text it does not know
unchanged.

Numbers have one home too: :func:`percent_text`, :func:`one_in_text`, :func:`number_text`,
:func:`points_text` and :func:`integer_text` write a number as the page's language writes it
(Russian: a decimal comma, thousands apart by a no-break space, a no-break space before ``%``:
``45,00\u00a0%``, ``1 из 10,6``, ``1\u00a0234``); :func:`plotly_separators` gives a chart the
same marks. Exact fractions ``n/d`` are the same in every language.
"""

from __future__ import annotations

import math
import re

from collections.abc import Callable

from fractions import Fraction

from rules_core import System
from rules_core.result import decimal, headline_label, one_in  # one source of headline names
from rules_core.scenario import FieldSpec, Part, fields_of

__all__ = ["translator", "Translator", "lang_of", "headline_label", "one_in_text", "percent_text", "number_text",
           "points_text", "integer_text", "localised", "localised_numbers", "plotly_separators", "NUMBER_STYLES", "NBSP", "count_text", "field_label", "field_place", "LANGUAGE_NAMES",
           "WORKBOOK_TEXT"]

#: Names of languages in their own words, for the language switch.
LANGUAGE_NAMES = {"en": "English", "ru": "Русский", "de": "Deutsch", "fr": "Français",
                  "es": "Español", "it": "Italiano", "pl": "Polski"}

#: The workbook's own words in languages other than English.
WORKBOOK_TEXT: dict[str, dict[str, str]] = {
    "ru": {
        "Roll the dice": "Бросить кости",
        "Simulate many rolls": "Смоделировать много бросков",
        "Roll": "Бросок",
        "Seed": "Зерно",
        "Faces": "Грани",
        "faces from the table, e.g. 7 12 3": "грани со стола, напр. 7 12 3",
        "Play these faces": "Сыграть эти грани",
        "Dice rolled": "Брошенные кости",
        "The rule, step by step": "Правило, шаг за шагом",
        "What this roll came to": "Чем кончился этот бросок",
        "yes": "да",
        "no": "нет",
        "Tally": "Счёт",
        "{n} rolls": "{n} бросок|{n} броска|{n} бросков",
        "Rolled": "Выпало",
        "Share": "Доля",
        "seed": "зерно",
        "typed faces": "введённые грани",
        "Rolls": "Броски",
        "Watch": "Следить за",
        "Simulate": "Смоделировать",
        "Stop": "Стоп",
        "stopped": "остановлено",
        "Simulated": "Смоделировано",
        "95% band": "Полоса 95\u00a0%",
        "Outcome": "Исход",
        "Exact": "Точно",
        "Percent": "Процент",
        "1 in N": "1 из N",
        "1 in {n}": "1 из {n}",
        "always": "всегда",
        "never": "никогда",
        "Quantity": "Величина",
        "Value": "Значение",
        "Note": "Примечание",
        "Probability": "Вероятность",
        "Outcomes": "Исходы",
        "Outcome table": "Таблица исходов",
        "P(at least k hits land)": "P(попало не меньше k попаданий)",
        "Hits landing (k)": "Попаданий (k)",
        "No hit can land in this scenario.": "В этом сценарии попаданий быть не может.",
        "P(dodge succeeds)": "P(уклонение удалось)",
        "P(no hit lands)": "P(ни одного попадания)",
        "Expected hits landing": "Ожидаемое число попаданий",
        # what the three headlines every rule has measure (their definitions' words, a card's tooltip)
        "Every evasion roll made succeeds, given that at least one is made.":
            "Каждый сделанный бросок Избегания успешен (если сделан хотя бы один).",
        "No hit lands on the defender.": "Ни одно попадание не достигает защищающегося.",
        "Expected number of hits landing on the defender.": "Ожидаемое число попаданий по защищающемуся.",
        "Preset": "Пример",
        "(custom scenario)": "(свой сценарий)",
        "Language": "Язык",
        "Show help and sources": "Показать пояснения и источники",
        "Headline numbers": "Главные числа",
        "Trace of the rules applied": "Применённые правила",
        "Share this scenario": "Поделиться сценарием",
        "Rulings": "Трактовки",
        "Compare a ruling": "Сравнить трактовку",
        "Ruling": "Трактовка",
        "Alternative": "Альтернатива",
        "Difference": "Разница",
        "current": "текущая",
        "Add": "Добавить",
        "Remove": "Убрать",
        "This scenario could not be evaluated": "Этот сценарий нельзя вычислить",
        "Not computed for this scenario.": "Для этого сценария не вычисляется.",
        "Copy link": "Копировать ссылку",
        "Copied": "Скопировано",
        "Present": "Показ",
        "Larger type and charts, for a projector": "Крупный шрифт и графики, для проектора",
        "Dodge Workbook": "Тетрадь уклонений",
        "on average": "в среднем",
        "Not in this scenario": "Нет в этом сценарии",
        "not in this scenario": "нет в этом сценарии",
        "Current reading": "Текущая трактовка",
        "Alternative reading": "Другая трактовка",
        # the A/B panel (the rulings panel is one)
        "against": "против",
        "Percentage points": "Процентные пункты",
        "Only in": "Только в",
        "(none)": "(нет)",
        "The rule applied the same steps to both.": "Правило прошло одни и те же шаги для обеих.",
        "A and B are the same scenario: change something to see B.":
            "A и B — один и тот же сценарий: измените что-нибудь, чтобы увидеть B.",
        "Difference (percentage points)": "Разница (процентные пункты)",
        "Not updated — fix the marked field": "Не обновлено — исправьте отмеченное поле",
        "The numbers below are for the last valid scenario.":
            "Числа ниже — для последнего допустимого сценария.",
        "Showing the default scenario.": "Показан сценарий по умолчанию.",
        "The link asked for": "В ссылке указано",
        "The link asked for the example": "В ссылке указан пример",
        "which this page does not have": "которого на этой странице нет",
        "The link names": "В ссылке есть поле",
        "The link names too many fields.": "В ссылке слишком много полей.",
        "This link is for another page": "Эта ссылка — для другой страницы",
        "This link could not be used": "Эту ссылку нельзя использовать",
        "goes from": "— от",
        "to": "до",
        "in steps of": "с шагом",
        "is one of": "— одно из",
        "is on or off": "— да или нет",
        "there are at most": "их не больше",
        "takes": "принимает",
        "with the rest of the scenario it must be": "при остальных полях сценария здесь должно быть:",
        "on": "да",
        "off": "нет",
        # the Design panel (workbook.panels.design) and the rule variants block (rules_core.variants)
        "Design": "Правила: свои варианты",
        "Rule variants": "Варианты правил",
        "The rule's own constants, each at its official value unless changed; a changed value "
        "is a house rule, marked in every result.":
            "Постоянные самого правила, каждая — официальное значение, пока её не изменили; "
            "изменённое значение — домашнее правило, оно отмечено в каждом результате.",
        "Back to the official rule": "Вернуть официальное правило",
        "Official rule": "Официальное правило",
        "House rule": "Домашнее правило",
        "House rules in force": "Действующие домашние правила",
        "official": "официально",
        "Every rule constant is at its official value: change one to compare the house rule "
        "with the official rule.":
            "Все постоянные правила имеют официальные значения: измените одну, чтобы сравнить "
            "домашнее правило с официальным.",
        # "Compare, sweep, export" (workbook.panels.analysis): the hits chart's modes (workbook.panels.modes)
        "Compare, sweep, export": "Сравнение, перебор значений, экспорт",
        "Hits landing": "Сколько попаданий проходит",
        "Distribution": "Распределение",
        "At least": "Не меньше",
        "At most": "Не больше",
        "P(exactly k hits land)": "P(попало ровно k попаданий)",
        "P(at most k hits land)": "P(попало не больше k попаданий)",
        # A against B (workbook.panels.compare)
        "A against B": "A против B",
        "Pin as A": "Закрепить как A",
        "Unpin A": "Открепить A",
        "Pin the scenario shown as A, then change anything: B is what the page shows.":
            "Закрепите показанный сценарий как A, затем измените что угодно: B — то, что показывает "
            "страница.",
        "pp": "п. п.",
        # the sweep (workbook.panels.sweep)
        "Sweep": "Перебор значений",
        "Sweep a field": "Перебрать значения поля",
        "Field": "Поле",
        "Heatmap with": "Тепловая карта с полем",
        "(every probability)": "(все вероятности)",
        "(none: lines)": "(нет: линии)",
        "Headline along": "Главные числа в зависимости от поля",
        "this scenario": "этот сценарий",
        "{n} points": "{n} точка|{n} точки|{n} точек",
        "{n} refused by the rules (left blank)": "правила не допускают из них {n} (оставлены пустыми)",
        "Hover for the exact value.": "Точное значение — при наведении указателя.",
        # the downloads and the report (workbook.panels.export)
        "Export": "Экспорт",
        "Outcome table (CSV)": "Таблица исходов (CSV)",
        "Scenario (JSON)": "Сценарий (JSON)",
        "Sweep (CSV)": "Перебор значений (CSV)",
        "A against B (CSV)": "A против B (CSV)",
        "Make an HTML report": "Сделать отчёт (HTML)",
        "Download the report": "Скачать отчёт",
        "MB": "МБ",
        "Load a scenario (JSON)": "Загрузить сценарий (JSON)",
        "Loaded": "Загружен файл",
        "Not loaded": "Не загружено",
        # a scenario file refused (workbook.panels.export.read_scenario_file, workbook.page.notices.problem_words)
        "the file": "файл",
        "{name} is {size:,} bytes; a scenario file is at most {limit:,}":
            "{name}: {size} байт, а файл сценария — не больше {limit} байт",
        "{name} is not UTF-8 text": "{name}: это не текст в кодировке UTF-8",
        "{name} is not valid JSON ({why}) at line {line} column {column}":
            "{name}: это не правильный JSON (строка {line}, столбец {column})",
        "{name} is nested too deeply to be a scenario": "{name}: слишком глубокая вложенность для сценария",
        "{name}: the key {key} appears twice in {where}; give each key once":
            "{name}: ключ {key} встречается в {where} дважды; каждый ключ пишется один раз",
        "{name}: the key {key} appears twice at the top level; give each key once":
            "{name}: ключ {key} встречается на верхнем уровне дважды; каждый ключ пишется один раз",
        "{name} holds no scenario: a scenario is a JSON object": "{name}: в нём нет сценария (сценарий — объект JSON)",
        "{name} is a scenario of {other}; this page shows {system}":
            "{name}: это сценарий для {other}, а на этой странице — {system}",
        "the file is not valid JSON: {constant} is not a JSON number":
            "файл — не правильный JSON: {constant} не является числом JSON",
        "no such field": "такого поля нет",
        "a number, written without quotes": "числом, без кавычек",
        "true or false": "true или false",
        "a whole number of {digits:,} digits": "целое число из {digits} цифр",
        "cannot be read in this form": "не читается в таком виде",
        "report": "отчёт",
        "Charts": "Графики",
        "Scenario": "Сценарий",
        "Exact values computed by the Dodge Workbook": "Точные значения вычислены «Тетрадью уклонений»",
        # the classroom (workbook.panels.classroom)
        "s": "с",
    },
}


class Translator:
    """``text -> text in lang`` for a system: first the system's own ``System.text``, then the
    workbook's table (:data:`WORKBOOK_TEXT`); the identity in the system's first language. It
    knows its language (``.lang``), so whatever is handed it writes numbers the same way."""

    def __init__(self, system: System | None, lang: str | None):
        self.system, self.lang = system, lang or "en"
        self._same = system is None or not lang or lang == system.languages[0]
        self._ours = WORKBOOK_TEXT.get(self.lang, {})

    def __call__(self, value: str) -> str:
        if self._same:
            return value
        translated = self.system.text(value, self.lang)
        if translated == value:
            return self._ours.get(value, value)
        return translated


def translator(system: System | None, lang: str | None) -> Callable[[str], str]:
    """``text -> text in lang`` for this system (identity for its first language); its
    ``.lang`` is the language (:class:`Translator`)."""
    return Translator(system, lang)


def lang_of(text: Callable[[str], str]) -> str:
    """The language a page's ``text`` speaks (``"en"`` for ``str`` or a plain function).

    >>> lang_of(str), lang_of(translator(None, "ru"))
    ('en', 'ru')
    """
    return getattr(text, "lang", None) or "en"


#: English phrases with a number whose singular differs: ``{n} rolls`` → ``1 roll``.
_ENGLISH_ONE = {"{n} rolls": "{n} roll", "{n} points": "{n} point"}


def _russian_form(n: int) -> int:
    """Which Russian plural form a count takes: 0 (1, 21, 101: бросок), 1 (2–4, 22–24: броска)
    or 2 (0, 5–20, 25–30, 111: бросков)."""
    if n % 10 == 1 and n % 100 != 11:
        return 0
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return 1
    return 2


def count_text(n: int, phrase: str, text: Callable[[str], str] = str) -> str:
    """``phrase`` (``"{n} rolls"``) for the count ``n`` in the page's language (``text``), in
    the plural form the count takes; a translation with three forms ``one|few|many`` is Russian.

    >>> count_text(1, "{n} rolls"), count_text(2000, "{n} rolls")
    ('1 roll', '2,000 rolls')
    >>> ru = lambda s: WORKBOOK_TEXT["ru"].get(s, s)
    >>> [count_text(n, "{n} rolls", ru) for n in (1, 3, 11, 22, 25)]
    ['1 бросок', '3 броска', '11 бросков', '22 броска', '25 бросков']
    >>> count_text(2000, "{n} rolls", ru).replace("\\u00a0", "_")  # thousands apart by a no-break space
    '2_000 бросков'
    """
    shown = integer_text(n, lang_of(text))
    said = text(phrase)
    forms = said.split("|")
    if len(forms) == 3:
        return forms[_russian_form(n)].format(n=shown.replace(",", "\u00a0"))
    if said == phrase and n == 1:
        said = _ENGLISH_ONE.get(phrase, phrase)
    return said.format(n=shown)


def field_label(cls: type[Part], path: str, text: Callable[[str], str] = str) -> str:
    """A dotted field's label in the page's language (``text``), with the title of each part
    holding it as the form titles it: a block by its label, a list item by its item's name and
    number from 1. A path the scenario does not declare is returned as it is.

    >>> from rules_core import get_system
    >>> d100 = get_system("d100-homebrew").scenario_cls
    >>> field_label(d100, "attacks.0.hits"), field_label(d100, "defender.agility")
    ('Hits (Attack 1)', 'Agility (A) (Defender)')
    """
    return field_place(cls, path, text)[1]


def field_place(cls: type[Part], path: str, text: Callable[[str], str] = str) -> tuple[FieldSpec | None, str]:
    """The field a dotted path names (None where the scenario declares no such field) and its
    :func:`field_label`."""
    where, current, label, spec = [], cls, None, None
    steps = path.split(".")
    i = 0
    while i < len(steps):
        spec = {s.name: s for s in fields_of(current)}.get(steps[i]) if current is not None else None
        if spec is None:
            return None, path
        if spec.kind == "parts" and i + 1 < len(steps) and steps[i + 1].isdigit():
            item = spec.extra.get("item_label") or spec.label
            where.append(f"{text(item)} {int(steps[i + 1]) + 1}")
            i += 1
        elif spec.kind == "part" and i + 1 < len(steps):
            where.append(text(spec.label))
        label, current = text(spec.label), spec.part_cls
        i += 1
    return spec, (f"{label} ({' — '.join(where)})" if where else label)


# -- numbers in the page's language -----------------------------------------------------------------

#: The no-break space (U+00A0): between thousands and before ``%`` in Russian, so a number never
#: breaks over two lines.
NBSP = "\u00a0"

#: How a language writes numbers, where it differs from English: (decimal mark, thousands
#: separator, what stands before ``%``). Russian after GOST R 7.0.97 and the Russian typographic
#: habit: ``1\u00a0234,5``, ``45,00\u00a0%``.
NUMBER_STYLES: dict[str, tuple[str, str, str]] = {"ru": (",", NBSP, NBSP)}

_ENGLISH = (".", ",", "")


def localised(shown: str, lang: str | None = "en") -> str:
    """A number written the English way (``1,234.5``, ``9.40%``, ``+1.20``) as ``lang`` writes it;
    unchanged in English and in a language without a style of its own.

    >>> localised("1,234.5", "ru").replace(NBSP, "_"), localised("9.40%", "ru").replace(NBSP, "_")
    ('1_234,5', '9,40_%')
    >>> localised("9.40%", "en")
    '9.40%'
    """
    decimal, thousands, before = NUMBER_STYLES.get(lang or "en", _ENGLISH)
    if (decimal, thousands, before) == _ENGLISH:
        return shown
    out = shown.translate({ord(","): "\0", ord("."): decimal}).replace("\0", thousands)
    return out.replace("%", before + "%")


_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_DECIMAL = re.compile(r"(?<=\d)\.(?=\d)")
_PERCENT = re.compile(r"(?<=\d)\s?%")


def localised_numbers(sentence: str, lang: str | None = "en") -> str:
    """The numbers inside a sentence written the English way (a trace line of the rules core:
    ``39/20 ≈ 1.95``, ``12,800 rolls``, ``45%``) as ``lang`` writes them; words, fractions and
    whole numbers are left alone.

    >>> localised_numbers("landing: 39/20 ≈ 1.95 of 12,800, 45%", "ru").replace(NBSP, "_")
    'landing: 39/20 ≈ 1,95 of 12_800, 45_%'
    """
    decimal, thousands, before = NUMBER_STYLES.get(lang or "en", _ENGLISH)
    if (decimal, thousands, before) == _ENGLISH:
        return sentence
    sentence = _THOUSANDS.sub("\0", sentence)
    sentence = _DECIMAL.sub(decimal, sentence).replace("\0", thousands)
    return _PERCENT.sub(before + "%", sentence)


def number_text(x: float | int | Fraction, spec: str = ".4g", lang: str | None = "en") -> str:
    """``x`` formatted with ``spec`` (Python's format mini-language) as ``lang`` writes numbers;
    a ``g`` spec never in exponent form (:func:`rules_core.result.decimal`: a reader does not read
    ``4e-06``, and a Russian page could not give it its comma).

    >>> number_text(1.6500, ".4g", "en"), number_text(1.65, ".4g", "ru"), number_text(Fraction(1, 250000), "+.4g", "ru")
    ('1.65', '1,65', '+0,000004')
    """
    shown = format(float(x) if isinstance(x, Fraction) else x, spec)
    if spec.endswith("g") and "e" in shown:
        digits = int(spec[spec.index(".") + 1:-1]) if "." in spec else 6
        shown = ("+" if spec.startswith("+") and x >= 0 else "") + decimal(x, digits)
    return localised(shown, lang)


def integer_text(n: int, lang: str | None = "en") -> str:
    """A whole number, thousands grouped (``12,000``; Russian ``12\u00a0000``)."""
    return localised(f"{n:,}", lang)


def percent_text(p: Fraction | float, lang: str | None = "en") -> str:
    """Percent with two decimals, or more to show three significant digits of a small one.

    >>> percent_text(Fraction(47, 500)), percent_text(Fraction(1, 8000)), percent_text(Fraction(1))
    ('9.40%', '0.0125%', '100%')
    >>> percent_text(Fraction(9, 20), "ru").replace(NBSP, "_")
    '45,00_%'
    """
    if p in (0, 1):
        return localised(f"{int(p) * 100}%", lang)
    pct = float(p) * 100
    decimals = min(12, max(2, 2 - math.floor(math.log10(abs(pct)))))
    return localised(f"{pct:.{decimals}f}%", lang)


def points_text(diff: Fraction | float, lang: str | None = "en", text: Callable[[str], str] = str) -> str:
    """A difference of probabilities in percentage points, signed (``+1.20 pp``; Russian
    ``+1,20 п. п.`` with ``text`` the page's words).

    >>> points_text(Fraction(3, 250))
    '+1.20 pp'
    """
    return f"{localised(f'{float(diff) * 100:+.2f}', lang)} {text('pp')}"


def one_in_text(p: Fraction, lang: str | None = "en") -> str:
    """The "1 in N" wording of ``p`` in ``lang`` (``1 из 10,6`` in Russian; N's thousands
    grouped as the language groups them).

    >>> one_in_text(Fraction(47, 500)), one_in_text(Fraction(47, 500), "ru")
    ('1 in 10.6', '1 из 10,6')
    """
    words = one_in(p)
    table = WORKBOOK_TEXT.get(lang or "en", {})
    if words.startswith("1 in "):
        return table.get("1 in {n}", "1 in {n}").format(n=localised(words[len("1 in "):], lang))
    return table.get(words, words)


def plotly_separators(lang: str | None = "en") -> str:
    """plotly's layout ``separators`` for ``lang``: its decimal mark, then its thousands
    separator (``".,"`` in English, plotly's own default)."""
    decimal, thousands, _ = NUMBER_STYLES.get(lang or "en", _ENGLISH)
    return decimal + thousands
