"""English and Russian texts of the d100 homebrew, and the translator the workbook calls.

Fixed texts (labels, help, choice labels, outcome parts) are translated by exact lookup in
:data:`PHRASES`. Texts with numbers in them (trace lines, notes, outcome labels) are built by
:func:`say` from an English *template* registered in :data:`TEMPLATES` beside its Russian
template; :func:`translate` recognises a rendered English text by its template, translates the
text placeholders and keeps the numbers, so every trace line can be shown in either language.

Template syntax: ``{name}`` is a value; ``{name|one|many}`` (English) and
``{name|one|few|many}`` (Russian) are the word forms agreeing with the number ``name``.

>>> say("{n} {n|hit|hits} of attack {a} evaded", n=2, a=1)
'2 hits of attack 1 evaded'
>>> translate('2 hits of attack 1 evaded', 'ru')
'2 попадания атаки 1 избегнуты'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache, lru_cache

__all__ = ["say", "translate", "render", "plural_ru", "PHRASES", "TEMPLATES"]

_TOKEN = re.compile(r"\{(\w+)((?:\|[^{}|]*)*)\}")
_NUMBER = r"[+\-−]?\d+(?:[.,/]\d+)?"


def plural_ru(n: int, one: str, few: str, many: str) -> str:
    """The Russian word form agreeing with ``n`` (1 попадание, 2 попадания, 5 попаданий)."""
    n = abs(int(n))
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def _number(value: object) -> int:
    return int(str(value).replace("−", "-").lstrip("+"))


def render(template: str, values: Mapping[str, object]) -> str:
    """Fill ``template`` (English or Russian) with ``values``."""
    def fill(match: re.Match) -> str:
        name, forms = match.group(1), match.group(2)
        if not forms:
            return str(values[name])
        forms = forms[1:].split("|")
        n = _number(values[name])
        if len(forms) == 2:
            return forms[0] if abs(n) == 1 else forms[1]
        if len(forms) == 3:
            return plural_ru(n, *forms)
        raise ValueError(f"word forms of {name!r} in {template!r}: give 2 (English) or 3 (Russian)")
    return _TOKEN.sub(fill, template)


def say(template: str, /, **values: object) -> str:
    """Render an English template that has a Russian twin in :data:`TEMPLATES`."""
    if template not in TEMPLATES:
        raise KeyError(f"no Russian template for {template!r}")
    return render(template, values)


@cache
def _pattern(template: str) -> tuple[re.Pattern, frozenset[str]]:
    """A regular expression recognising renders of ``template``; the set of numeric names."""
    numeric = {m.group(1) for m in _TOKEN.finditer(template) if m.group(2)}
    parts, seen, pos = [], set(), 0
    for m in _TOKEN.finditer(template):
        parts.append(re.escape(template[pos:m.start()]))
        name, forms = m.group(1), m.group(2)
        if forms:
            parts.append("(?:" + "|".join(re.escape(f) for f in sorted(forms[1:].split("|"), key=len,
                                                                          reverse=True)) + ")")
        elif name in seen:
            parts.append(f"(?P={name})")
        else:
            seen.add(name)
            parts.append(f"(?P<{name}>{_NUMBER})" if name in numeric else f"(?P<{name}>(?:(?!; ).)+?)")
        pos = m.end()
    parts.append(re.escape(template[pos:]))
    return re.compile("".join(parts) + r"\Z", re.S), frozenset(numeric)


@cache
def _by_specificity() -> tuple[str, ...]:
    """Templates with the most literal text first, so the most specific one matches."""
    return tuple(sorted(TEMPLATES, key=lambda t: -len(_TOKEN.sub("", t))))


@lru_cache(maxsize=8192)
def _translate_ru(text: str) -> str:
    if text in PHRASES:
        return PHRASES[text]
    for template in _by_specificity():
        pattern, numeric = _pattern(template)
        match = pattern.match(text)
        if match:
            values = {k: (v if k in numeric else _translate_ru(v)) for k, v in match.groupdict().items()}
            return render(TEMPLATES[template], values)
    if "; " in text:
        return "; ".join(_translate_ru(part) for part in text.split("; "))
    return text


def translate(text: str, lang: str) -> str:
    """``text`` (English, as the system produces it) in ``lang`` ("en" or "ru"); text this
    system does not know is returned unchanged."""
    if lang != "ru" or not text:
        return text
    return _translate_ru(text)


# -- fixed texts --------------------------------------------------------------------------------
# Terms follow the Russian seed: Избегание (Evasion), Уклонение (Dodge), Парирование (Parry),
# Отскок (Leap), Реакция, Успех/Успехи, Размер, Укрытие, АР Укрытия, ОД (AP), SPD, Вольт
# (Disengage), Свободные Атаки, Задержанное полудействие, линия огня, База, Ход, Раунд.

PHRASES: dict[str, str] = {
    # system, sources, presets
    "d100 homebrew": "Домашние правила d100",
    "d100 roll-under; Dodge and Parry are Reactions whose Successes evade hits one for one, leftovers "
    "evade later attacks' hits at 2 or more, and a Dodge against a shot can become a Leap.":
        "d100, бросок под значение; Уклонение и Парирование — Реакции, каждый Успех которых избегает одного "
        "попадания; оставшиеся Успехи избегают попаданий следующих атак по 2 и больше за попадание, а "
        "Уклонение от выстрела может стать Отскоком.",
    "d100 homebrew rules, Evasion [Избегание]": "Домашние правила d100, «Избегание»",
    "Dodge [Уклонение], Parry [Парирование], Evading multiple hits and attacks, Leap [Отскок] "
    "(Russian original; English working translation)":
        "«Уклонение», «Парирование», «Избегание множественных попаданий и атак», «Отскок» (русский "
        "оригинал; рабочий перевод на английский)",
    "Dark Heresy 2nd ed. Core Rulebook": "Dark Heresy, 2-е изд., основная книга правил",
    "ch. I Playing the Game: Tests, Degrees of Success": "гл. I: проверки, степени успеха",
    "Only War Core Rulebook": "Only War, основная книга правил",
    "ch. I Playing the Game: Degrees of Success": "гл. I: степени успеха",
    "A burst of 3 hits against Dodge 45": "Очередь из 3 попаданий против Уклонения 45",
    "One shooting attack scores 3 hits; the defender tests Dodge(A)+0 with Agility 45 (target 45), "
    "default rulings.":
        "Одна стрелковая атака даёт 3 попадания; защищающийся бросает Dodge(A)+0 с Ловкостью 45 (порог 45), "
        "трактовки по умолчанию.",
    "Two attacks of 3 hits, the second at −20": "Две атаки по 3 попадания, вторая со штрафом −20",
    "Dodge 65 (Agility 45, Dodge +20) with 2 Reactions against two bursts of 3 hits, the second at −20 to "
    "Evasion: leftover Successes of the first roll pay 4 per hit of the second; a second Dodge follows for "
    "the hits they leave.":
        "Уклонение 65 (Ловкость 45, Dodge +20) и 2 Реакции против двух очередей по 3 попадания, вторая со "
        "штрафом −20 к Избеганию: оставшиеся Успехи первого броска тратятся по 4 за попадание второй атаки; "
        "от оставшихся попаданий — второе Уклонение.",
    "Parry +10 against a creature 2 Sizes larger: blocked": "Парирование +10 против существа на 2 Размера "
                                                            "больше: нельзя",
    "WS 40 with Parry advanced to +10 against a melee blow of a creature 2 Sizes larger: the Parry needs "
    "+20, so no roll is made and the hit lands.":
        "WS 40, Навык Parry продвинут на +10, удар в ближнем бою от существа на 2 Размера больше: для "
        "Парирования нужно +20, поэтому броска нет и попадание проходит.",
    "Parry +20 against a creature 2 Sizes larger: allowed": "Парирование +20 против существа на 2 Размера "
                                                            "больше: можно",
    "WS 40 with Parry advanced to +20 (target 60) against a melee blow of a creature 2 Sizes larger.":
        "WS 40, Навык Parry продвинут на +20 (порог 60), удар в ближнем бою от существа на 2 Размера больше.",
    "A Leap out of a Blast template": "Отскок из шаблона Blast",
    "A Blast template covers the defender's whole Base: only a Leap can dodge it. Dodge 45, SPD 3 m, 2 m to "
    "leave the template.":
        "Шаблон Blast полностью накрывает Базу защищающегося: Уклониться можно только Отскоком. Уклонение 45, "
        "SPD 3 м, до края шаблона 2 м.",
    "A burst of 3 with someone behind the dodger": "Очередь из 3 попаданий, за уклоняющимся кто-то стоит",
    "The first preset with a next target on the line of fire: every dodged hit flies on toward him.":
        "Первый пример, но на линии огня есть следующая цель: каждое попадание, от которого уклонились, "
        "летит дальше, к ней.",
    "A Leap out of melee into Cover": "Отскок из рукопашной в Укрытие",
    "Engaged in melee, the defender Dodges a pistol shot fired in melee (2 hits) and Leaps 2 m into Cover: "
    "both hits land against the Cover's AP, and the Leap counts as a Disengage.":
        "В рукопашной защищающийся Уклоняется от выстрела из пистолета в упор (2 попадания) и Отскакивает "
        "на 2 м в Укрытие: оба попадания приходятся с АР Укрытия, а Отскок считается Вольтом.",
    # headline quantities, by key and by the names the dashboard shows
    "p_dodge_succeeds": "P(каждый бросок Избегания успешен)",
    "p_no_hit": "P(ни одного попадания)",
    "expected_hits": "Ожидаемое число попаданий",
    "expected_successes": "Ожидаемое число Успехов",
    "expected_hits_in_cover": "Ожидаемое число попаданий с АР Укрытия",
    "p_stray_shot": "P(выстрел летит дальше)",
    "p_disengage": "P(Вольт)",
    "P(dodge succeeds)": "P(каждый бросок Избегания успешен)",
    "P(no hit lands)": "P(ни одного попадания)",
    "Expected hits landing": "Ожидаемое число попаданий",
    "Expected successes": "Ожидаемое число Успехов",
    "Expected hits in cover": "Ожидаемое число попаданий с АР Укрытия",
    "P(stray shot)": "P(выстрел летит дальше)",
    "P(disengage)": "P(Вольт)",
    "Expected total Successes scored by all Evasion rolls made (a failed or unmade roll scores 0).":
        "Ожидаемая сумма Успехов всех сделанных бросков Избегания (проваленный или не сделанный бросок даёт 0).",
    "Expected number of hits landing against Cover after a Leap into Cover (they count in expected_hits too).":
        "Ожидаемое число попаданий, пришедшихся с АР Укрытия после Отскока в Укрытие (они входят и в "
        "expected_hits).",
    "Probability that at least one dodged shot flies on toward a next target on the line of fire; null when "
    "no shot has a next target.":
        "Вероятность, что хотя бы один выстрел, от которого уклонились, летит дальше к следующей цели на линии "
        "огня; пусто, если ни у одного выстрела нет следующей цели.",
    "Probability that a Leap out of melee counts as a Disengage; null when the defender is not engaged in melee.":
        "Вероятность, что Отскок из рукопашной считается Вольтом; пусто, если защищающийся не в рукопашной.",
    # groups, fields, choices
    "Defender": "Защищающийся",
    "The character who evades.": "Персонаж, который Избегает.",
    "Opponent": "Противник",
    "Attacks": "Атаки",
    "Attack": "Атака",
    "Add attack": "Добавить атаку",
    "Rulings": "Трактовки правил",
    "Dodge": "Уклонение",
    "Parry": "Парирование",
    "Leap": "Отскок",
    "Reactions": "Реакции",
    "Evasion": "Избегание",
    "Attacker Sizes larger": "На сколько Размеров больше атакующий",
    "How many Sizes the attacker is larger than the defender (0: same or smaller). Parry needs +10 advance "
    "per Size; 4 or more: no Parry.":
        "На сколько Размеров атакующий больше защищающегося (0 — такой же или меньше). Для Парирования нужно "
        "продвижение +10 за каждый Размер; на 4+ Размера Парирование невозможно.",
    "The opponent's attacks this Turn that hit, in the order they are made.":
        "Попавшие атаки противника в этом Ходу, в порядке их совершения.",
    "Successes on a pass": "Успехи при прохождении",
    "How many Successes a passed test scores.": "Сколько Успехов даёт пройденная проверка.",
    "1 + one per full 10 the roll is under the target: 1 + floor((target − roll)/10) (Only War / Black "
    "Crusade degrees of success)":
        "1 + по одному за каждые полные 10, на которые бросок ниже порога: 1 + ⌊(порог − бросок)/10⌋ "
        "(степени успеха Only War / Black Crusade)",
    "1 + tens digit of the target − tens digit of the roll (Dark Heresy 2nd ed.)":
        "1 + десятки порога − десятки броска (Dark Heresy, 2-е изд.)",
    "A roll of 01": "Бросок 01",
    "Whether 01 passes whatever the target.": "Проходит ли 01 при любом пороге.",
    "01 always passes, with at least 1 Success (Dark Heresy 2nd ed.)":
        "01 всегда проходит, минимум с 1 Успехом (Dark Heresy, 2-е изд.)",
    "01 passes only if the target is 1 or more": "01 проходит, только если порог 1 или больше",
    "A roll of 100": "Бросок 100",
    "Whether 100 fails whatever the target.": "Проваливается ли 100 при любом пороге.",
    "100 always fails (Dark Heresy 2nd ed.)": "100 всегда провал (Dark Heresy, 2-е изд.)",
    "100 passes when the target is 100 or more": "100 проходит, если порог 100 или больше",
    "Spending leftover Successes": "Трата оставшихся Успехов",
    "Which later attacks' hits leftover Successes pay for.":
        "На попадания каких следующих атак тратятся оставшиеся Успехи.",
    "Spent at once on the later attacks' hits, cheapest hits first: the most hits evaded (workbook default)":
        "Тратятся сразу на попадания следующих атак, начиная с самых дешёвых: избежать как можно больше "
        "попаданий (по умолчанию)",
    "Spent on the later attacks as they come, in the order made, whatever they cost":
        "Тратятся на следующие атаки по мере их совершения, по порядку, сколько бы ни стоили",
    "When to Leap": "Когда Отскакивать",
    "When a planned Leap is taken after a successful Dodge.":
        "Когда после успешного Уклонения совершается задуманный Отскок.",
    "Whenever the Dodge passes and the distance fits (workbook default)":
        "Всегда, когда Уклонение успешно и хватает дистанции (по умолчанию)",
    "Only when the Successes cannot evade every remaining hit of that attack":
        "Только если Успехов не хватает, чтобы избежать всех оставшихся попаданий этой атаки",
    "Agility (A)": "Ловкость (A)",
    "The Agility characteristic on which Dodge is tested: Dodge(A).":
        "Характеристика Ловкость, на которую бросается Уклонение: Dodge(A).",
    "Dodge advance": "Продвижение Навыка Dodge",
    "How far the Dodge skill is advanced (+0 to +30); added to the target.":
        "На сколько продвинут Навык Dodge (от +0 до +30); прибавляется к порогу.",
    "Dodge modifier": "Модификатор Уклонения",
    "Any other modifier to every Dodge test (the +0 of Dodge(A)+0).":
        "Прочий модификатор ко всем броскам Уклонения (+0 в Dodge(A)+0).",
    "Weapon Skill (WS)": "Ближний бой (WS)",
    "The Weapon Skill characteristic on which Parry is tested: Parry(WS).":
        "Характеристика WS, на которую бросается Парирование: Parry(WS).",
    "Parry advance": "Продвижение Навыка Parry",
    "How far the Parry skill is advanced (+0 to +30); added to the target. A larger attacker needs +10 per "
    "Size of difference.":
        "На сколько продвинут Навык Parry (от +0 до +30); прибавляется к порогу. Против более крупного "
        "атакующего нужно +10 за каждый Размер разницы.",
    "Parry modifier": "Модификатор Парирования",
    "Any other modifier to every Parry test (the +0 of Parry(WS)+0).":
        "Прочий модификатор ко всем броскам Парирования (+0 в Parry(WS)+0).",
    "Reactions left this Turn; each Evasion roll (Dodge or Parry) uses one.":
        "Оставшиеся в этом Ходу Реакции; каждый бросок Избегания (Уклонение или Парирование) тратит одну.",
    "SPD (m)": "SPD (м)",
    "Speed: the farthest Leap against one attack, in metres.":
        "Скорость: наибольшая дистанция Отскока от одной атаки, в метрах.",
    "Unspent AP": "Непотраченные ОД",
    "Action points left unspent at the end of the defender's Turn; each adds SPD metres to the Round's total "
    "Leap distance.":
        "ОД, оставшиеся непотраченными в конце Хода защищающегося; каждое добавляет SPD м к суммарной "
        "дистанции Отскоков за Раунд.",
    "Delayed half-action": "Задержанное полудействие",
    "A Delayed half-action spent on Leaping adds SPD metres to the Round's total, as if it were unspent.":
        "Задержанное полудействие, потраченное на Отскок, добавляет SPD м к сумме за Раунд, как если бы оно "
        "было непотраченным.",
    "Engaged in melee": "В рукопашной",
    "The defender is in melee: a Leap takes him out of it and counts as a Disengage unless every enemy able "
    "to make Free Attacks also evades.":
        "Защищающийся в рукопашной: Отскок выводит его из неё и считается Вольтом, если только все враги, "
        "способные совершать Свободные Атаки, тоже не Избегают этой атаки.",
    "Kind of attack": "Вид атаки",
    "Shooting can be Dodged (and Leapt from); melee attacks and shots fired in melee can also be Parried.":
        "От стрельбы можно Уклоняться (и Отскакивать); атаки в ближнем бою и выстрелы в рукопашной можно "
        "также Парировать.",
    "Shooting (ranged)": "Стрелковая (дистанционная)",
    "Melee": "Ближний бой",
    "Shot fired in melee": "Выстрел в рукопашной",
    "Hits": "Попадания",
    "Hits this attack has scored on the defender.": "Сколько попаданий эта атака нанесла защищающемуся.",
    "Modifier to Evasion": "Модификатор к Избеганию",
    "This attack's modifier to Evasion tests against it, in steps of 5 (e.g. −20 or −25). Leftover Successes "
    "cost 1 more per hit for each full −10 by which it exceeds the first attack's penalty (−25 after +0: 4 "
    "per hit).":
        "Модификатор этой атаки к броскам Избегания от неё, с шагом 5 (например, −20 или −25). За каждые полные "
        "−10, на которые штраф больше, чем у первой атаки, оставшиеся Успехи стоят на 1 больше за попадание "
        "(−25 после +0: по 4 за попадание).",
    "The Evasion roll made against this attack if hits remain and a Reaction is left (none: no roll; "
    "leftover Successes still count).":
        "Бросок Избегания против этой атаки, если остались попадания и есть Реакция (без броска — броска нет, "
        "но оставшиеся Успехи всё равно тратятся).",
    "No roll": "Без броска",
    "Covers the whole Base": "Накрывает всю Базу",
    "only a shooting attack (a Blast or Spray template) can cover the whole Base (d100 homebrew, Evasion › "
    "Leap [Отскок], ¶1): the attack is melee — choose Shooting (ranged) or Shot fired in melee, or turn off "
    "Covers the whole Base":
        "накрыть всю Базу может только стрелковая атака (шаблон Blast или Spray) (Домашние правила d100, "
        "«Избегание» › «Отскок», абз. 1): атака — ближний бой; выберите «Стрелковая (дистанционная)» или "
        "«Выстрел в рукопашной» либо снимите «Накрывает всю Базу»",
    "An area attack (Blast or Spray template) covering the whole Base: only a Leap can dodge it.":
        "Атака по площади (шаблон Blast или Spray), полностью накрывающая Базу: Уклониться можно только "
        "Отскоком.",
    "Leap plan": "План Отскока",
    "After a successful Dodge against a shooting attack, Leap instead of negating hits: into Cover (its hits "
    "land against the Cover's AP) or out of the attack's reach (all its hits negated).":
        "После успешного Уклонения от стрелковой атаки — Отскок вместо нивелирования попаданий: в Укрытие "
        "(попадания приходятся с АР Укрытия) или вне предела атаки (все её попадания нивелируются).",
    "No Leap": "Без Отскока",
    "Leap into Cover": "Отскок в Укрытие",
    "Leap out of reach": "Отскок вне предела атаки",
    "Leap needed (m)": "Нужный Отскок (м)",
    "Metres the Leap must cover to reach Cover or leave the attack's reach.":
        "Сколько метров нужно Отскочить, чтобы достичь Укрытия или выйти за предел атаки.",
    "Free attackers evade too": "Враги со Свободными Атаками тоже Избегают",
    "Every enemy able to make Free Attacks also tries to Evade this attack, so a Leap out of melee is not a "
    "Disengage.":
        "Все враги, способные совершать Свободные Атаки, тоже пытаются Избежать этой атаки, поэтому Отскок "
        "из рукопашной — не Вольт.",
    "Next target on the line of fire": "Следующая цель на линии огня",
    "Someone stands on the line of fire behind the defender: each dodged hit of a shot flies on and may hit "
    "him (GM's call) with 1 Success.":
        "За защищающимся на линии огня кто-то есть: каждое попадание выстрела, от которого уклонились, летит "
        "дальше и может попасть в него (по усмотрению ГМа) с 1 Успехом.",
    # rule variants (house rules)
    "Design": "Конструктор правил",
    "Rule variants": "Варианты правил",
    "The rule's own constants, each at its official value unless changed; a changed value is a house rule, "
    "marked in every result.":
        "Собственные константы правила, каждая по правилам, пока её не изменили; изменённое значение — "
        "вариант правила, отмеченный в каждом результате.",
    "Points per further Success": "Пунктов на каждый следующий Успех",
    "A passed test scores 1 Success plus one per full this many points the roll is under the target "
    "(officially 10; under the ruling tens_digits, the width of a 'digit').":
        "Пройденная проверка даёт 1 Успех плюс по одному за каждые полные столько пунктов, на которые бросок "
        "ниже порога (по правилам 10; при трактовке «по десяткам» — ширина «разряда»).",
    "Leftover Successes per hit": "Оставшихся Успехов за попадание",
    "Successes left after evading every hit of one attack evade hits of the opponent's later attacks this "
    "Turn at this many per hit (officially 2).":
        "Успехи, оставшиеся после Избегания всех попаданий одной атаки, избегают попаданий следующих атак "
        "противника в этом Ходу по столько за попадание (по правилам 2).",
    "Extra penalty per +1 Success": "Лишнего штрафа за +1 Успех",
    "A later attack's hit costs +1 leftover Success per full this many points by which its penalty to "
    "Evasion exceeds the first attack's (officially 10).":
        "Попадание следующей атаки стоит +1 оставшийся Успех за каждые полные столько пунктов, на которые её "
        "штраф к Избеганию больше, чем у первой атаки (по правилам 10).",
    # the dashboard's own panels (workbook/systems/d100.py)
    "Where each attack's hits go": "Что стало с попаданиями каждой атаки",
    "Hits of each attack": "Попадания каждой атаки",
    "Evaded by its own roll": "Избегнуто своим броском",
    "Evaded by leftover Successes": "Избегнуто оставшимися Успехами",
    "Negated by a Leap": "Нивелировано Отскоком",
    "Landing": "Прошло",
    "Landing against Cover": "Прошло с АР Укрытия",
    "Expected hits": "Ожидаемые попадания",
    "Roll made": "Бросок сделан",
    # citations
    "d100 homebrew, Evasion [Избегание]: Dodge(A)+0 and Parry(WS)+0 tests":
        "Домашние правила d100, «Избегание»: броски Dodge(A)+0 и Parry(WS)+0",
    "d100 homebrew, Evasion › Dodge [Уклонение], ¶1": "Домашние правила d100, «Избегание» › «Уклонение», абз. 1",
    "d100 homebrew, Evasion › Dodge [Уклонение], ¶2 (stray shot)":
        "Домашние правила d100, «Избегание» › «Уклонение», абз. 2 (случайное попадание)",
    "d100 homebrew, Evasion › Parry [Парирование], ¶1–2":
        "Домашние правила d100, «Избегание» › «Парирование», абз. 1–2",
    "d100 homebrew, Evasion › Parry [Парирование], ¶3 (Size)":
        "Домашние правила d100, «Избегание» › «Парирование», абз. 3 (Размер)",
    "d100 homebrew, Evading multiple hits and attacks, ¶1":
        "Домашние правила d100, «Избегание множественных попаданий и атак», абз. 1",
    "d100 homebrew, Evading multiple hits and attacks, ¶2":
        "Домашние правила d100, «Избегание множественных попаданий и атак», абз. 2",
    "d100 homebrew, Evasion › Leap [Отскок], ¶1": "Домашние правила d100, «Избегание» › «Отскок», абз. 1",
    "d100 homebrew, Evasion › Leap [Отскок], ¶2": "Домашние правила d100, «Избегание» › «Отскок», абз. 2",
    "Dodge Workbook rulings for the d100 homebrew (docs/rulings/d100-homebrew.md)":
        "Трактовки «Тетради уклонений» для домашних правил d100 (docs/rulings/d100-homebrew.md)",
    "Dark Heresy 2nd ed. Core Rulebook, ch. I Playing the Game: Tests, Degrees of Success":
        "Dark Heresy, 2-е изд., основная книга правил, гл. I: проверки, степени успеха",
    "Only War Core Rulebook, ch. I Playing the Game: Degrees of Success":
        "Only War, основная книга правил, гл. I: степени успеха",
}

TEMPLATES: dict[str, str] = {
    # outcomes
    "{evaded} evaded, {landed} {landed|lands|land}": "избегнуто {evaded}, попало {landed}",
    "{n} against Cover": "с АР Укрытия {n}",
    "{n} stray {n|shot|shots}": "дальше {n|летит|летят|летят} {n} {n|выстрел|выстрела|выстрелов}",
    "Disengage [Вольт]": "Вольт",
    # events
    "{roll} against attack {a}": "{roll} против атаки {a}",
    "rolled {face} against {target}: {s} {s|Success|Successes}":
        "выпало {face} при пороге {target}: {s} {s|Успех|Успеха|Успехов}",
    "rolled {face} against {target}: the test fails": "выпало {face} при пороге {target}: провал",
    "Evasion": "Избегание",
    "{n} {n|hit|hits} of attack {a} evaded":
        "{n} {n|попадание|попадания|попаданий} атаки {a} {n|избегнуто|избегнуты|избегнуто}",
    "Leftover Successes": "Оставшиеся Успехи",
    "{n} {n|hit|hits} of attack {b} evaded at {cost} Successes per hit":
        "{n} {n|попадание|попадания|попаданий} атаки {b} {n|избегнуто|избегнуты|избегнуто} по {cost} "
        "{cost|Успеху|Успеха|Успехов} за попадание",
    "{n} {n|Success|Successes} left unspent": "непотраченных Успехов осталось: {n}",
    "a Leap of {m} m into Cover: {n} {n|hit|hits} of attack {a} land against the Cover's AP":
        "Отскок на {m} м в Укрытие: {n} {n|попадание|попадания|попаданий} атаки {a} с АР Укрытия",
    "a Leap of {m} m out of the reach of attack {a}: {n} {n|hit|hits} negated":
        "Отскок на {m} м вне предела атаки {a}: {n} {n|попадание нивелировано|попадания нивелированы|"
        "попаданий нивелировано}",
    "Leap [Отскок]": "Отскок",
    "Hits land": "Попадания",
    "{n} {n|hit|hits} of attack {a} {n|lands|land}":
        "{n} {n|попадание|попадания|попаданий} атаки {a} {n|проходит|проходят|проходят}",
    "Stray shot": "Случайное попадание",
    "{n} dodged {n|shot|shots} of attack {a} {n|flies|fly} on toward the next target (GM's call: 1 Success "
    "each, random location)":
        "{n} {n|выстрел|выстрела|выстрелов} атаки {a}, от {n|которого|которых|которых} уклонились, "
        "{n|летит|летят|летят} дальше, к "
        "следующей цели (по усмотрению ГМа: по 1 Успеху, в случайную часть тела)",
    "the Leap out of melee counts as a Disengage [Вольт]": "Отскок из рукопашной считается Вольтом",
    "the Leap out of melee is no Disengage: every enemy able to make Free Attacks also evades this attack":
        "Отскок из рукопашной — не Вольт: все враги, способные совершать Свободные Атаки, тоже Избегают этой "
        "атаки",
    "No Evasion roll against attack {a}": "Нет броска Избегания против атаки {a}",
    "Outcome": "Исход",
    # the result's trace
    "Evasion [Избегание]": "Избегание",
    "a Reaction after being hit, before the damage roll: each Success evades one hit of that attack, and at "
    "most one Evasion roll is made per attack, even with Reactions left":
        "Реакция после получения попадания, до броска на урон: каждый Успех избегает одного попадания этой "
        "атаки, и против одной атаки — не более одного броска Избегания, даже при наличии Реакций",
    "Reactions": "Реакции",
    "{n} {n|Reaction|Reactions} this Turn, attacks resolved in the order made":
        "{n} {n|Реакция|Реакции|Реакций} в этом Ходу, атаки разбираются в порядке совершения",
    "Attack {a}": "Атака {a}",
    "{kind}, {hits} {hits|hit|hits}, modifier to Evasion {mod}":
        "{kind}, {hits} {hits|попадание|попадания|попаданий}, модификатор к Избеганию {mod}",
    "no Evasion roll: {reason}": "нет броска Избегания: {reason}",
    "Dodge(A) test: target {target} (A {value}, advance {adv}, modifier {mod}, attack {amod})":
        "бросок Dodge(A): порог {target} (A {value}, продвижение {adv}, модификатор {mod}, атака {amod})",
    "Parry(WS) test: target {target} (WS {value}, advance {adv}, modifier {mod}, attack {amod})":
        "бросок Parry(WS): порог {target} (WS {value}, продвижение {adv}, модификатор {mod}, атака {amod})",
    "it covers the whole Base: only a Leap can dodge it": "накрывает всю Базу: Уклониться можно только Отскоком",
    "Leap plan: {plan}, {m} m needed": "план Отскока: {plan}, нужно {m} м",
    "a next target stands on the line of fire": "на линии огня есть следующая цель",
    "Size gate passed: +{has} advance against an attacker {size} {size|Size|Sizes} larger (+{need} needed)":
        "Размер не мешает: продвижение +{has} против атакующего, который больше на {size} "
        "{size|Размер|Размера|Размеров} (нужно +{need})",
    "Successes against target {t}": "Успехи при пороге {t}",
    "{faces}: {s} {s|Success|Successes}": "{faces}: {s} {s|Успех|Успеха|Успехов}",
    "{faces}: fail": "{faces}: провал",
    "Target {t}": "Порог {t}",
    "a target below 1: only 01 passes, with 1 Success": "порог ниже 1: проходит только 01, с 1 Успехом",
    "a target below 1: no roll can pass": "порог ниже 1: никакой бросок не проходит",
    "a target of 100 or more: every roll but 100 passes, and Successes count on past 100":
        "порог 100 или больше: проходит любой бросок, кроме 100, и Успехи считаются и дальше 100",
    "a target of 100 or more: every roll passes, and Successes count on past 100":
        "порог 100 или больше: проходит любой бросок, и Успехи считаются и дальше 100",
    "Ruling: {name}": "Трактовка: {name}",
    "Successes left after all hits of one attack evade hits of the opponent's later attacks this Turn: {cost} "
    "per hit, +1 per full −{step} by which that attack's penalty exceeds the first one's":
        "Успехи, оставшиеся после Избегания всех попаданий одной атаки, тратятся на попадания следующих атак "
        "того же противника в этом Ходу: по {cost} за попадание, +1 за каждые полные −{step}, на которые штраф "
        "той атаки больше штрафа первой",
    "1 + one per full {n} points the roll is under the target: 1 + floor((target − roll)/{n}) (house rule)":
        "1 + по одному за каждые полные {n}, на которые бросок ниже порога: 1 + ⌊(порог − бросок)/{n}⌋ "
        "(вариант правила)",
    "1 + floor(target/{n}) − floor(roll/{n}): digits {n} points wide (house rule)":
        "1 + ⌊порог/{n}⌋ − ⌊бросок/{n}⌋: «разряды» по {n} (вариант правила)",
    # house rules (rules_core.variants): one template per rule constant
    "House rule": "Вариант правила",
    "Points per further Success {value} (official {official})":
        "Пунктов на каждый следующий Успех: {value} (по правилам {official})",
    "Leftover Successes per hit {value} (official {official})":
        "Оставшихся Успехов за попадание: {value} (по правилам {official})",
    "Extra penalty per +1 Success {value} (official {official})":
        "Лишнего штрафа за +1 Успех: {value} (по правилам {official})",
    "from the roll against attack {a} to a hit of attack {b}: {cost}":
        "от броска против атаки {a} на попадание атаки {b}: {cost}",
    "Leap budget": "Дистанция Отскоков",
    "{budget} m this Round = SPD {spd} m × (1 + {ap} unspent AP + {dh} Delayed half-action), at most SPD "
    "{spd} m against one attack":
        "{budget} м за Раунд = SPD {spd} м × (1 + {ap} за непотраченные ОД + {dh} за Задержанное полудействие), не "
        "больше SPD {spd} м от одной атаки",
    "a Leap yields no leftover Successes": "после Отскока оставшихся Успехов нет",
    "the defender is engaged in melee: his first Leap takes him out of it and counts as a Disengage [Вольт] "
    "unless every enemy able to make Free Attacks also evades that attack":
        "защищающийся в рукопашной: первый Отскок выводит его из неё и считается Вольтом, если только все "
        "враги, способные совершать Свободные Атаки, тоже не Избегают этой атаки",
    "each dodged hit of a shot flies on toward the next target on the line of fire, and if the GM rules it "
    "hits, it counts 1 Success and strikes a random location, even if the attack was Selective":
        "каждое попадание выстрела, от которого уклонились, летит дальше, к следующей цели на линии огня; "
        "если ГМ решит, что оно попало, оно считается с 1 Успехом и попадает в случайную часть тела, даже "
        "если атака была Избирательной",
    "First roll (attack {a}), {s} {s|Success|Successes}: {faces}, {c} in 100":
        "Первый бросок (атака {a}), {s} {s|Успех|Успеха|Успехов}: {faces}, {c} из 100",
    "First roll (attack {a}) fails: {faces}, {c} in 100": "Первый бросок (атака {a}) провален: {faces}, {c} из 100",
    "Attack {a}: what became of its {h} {h|hit|hits} (expected)":
        "Атака {a}: что стало с её {h} {h|попаданием|попаданиями|попаданиями} (в среднем)",
    "roll made: {p}": "бросок сделан: {p}",
    "evaded by its own roll: {x}": "избегнуто своим броском: {x}",
    "by leftover Successes: {x}": "оставшимися Успехами: {x}",
    "negated by a Leap: {x}": "нивелировано Отскоком: {x}",
    "landing: {x}": "прошло: {x}",
    "against Cover: {x}": "с АР Укрытия: {x}",
    # gates and reasons
    "attack {a}: {reason}": "атака {a}: {reason}",
    "the defender has no Reaction left": "у защищающегося не осталось Реакций",
    "No Evasion roll can be made": "Ни одного броска Избегания сделать нельзя",
    "No shot has a next target on its line of fire": "Ни у одного выстрела нет следующей цели на линии огня",
    "The defender is not engaged in melee, so no Leap is a Disengage":
        "Защищающийся не в рукопашной, поэтому Отскок не бывает Вольтом",
    "Parry impossible: the attacker is {size} Sizes larger (4 or more)":
        "Парирование невозможно: атакующий больше на {size} {size|Размер|Размера|Размеров} (4 и более)",
    "Parry needs the skill advanced to +{need} against an attacker {size} {size|Size|Sizes} larger, and it "
    "is +{has}":
        "для Парирования атакующего, который больше на {size} {size|Размер|Размера|Размеров}, Навык Parry "
        "должен быть продвинут на +{need}, а он +{has}",
    "every hit already evaded by leftover Successes": "все попадания уже избегнуты оставшимися Успехами",
    "no Reaction left": "Реакций не осталось",
    "the Round's Leap budget is spent ({used} of {budget} m), and only a Leap can dodge an attack covering "
    "the whole Base":
        "дистанция Отскоков за Раунд израсходована ({used} из {budget} м), а от атаки, накрывающей всю Базу, "
        "можно Уклониться только Отскоком",
    "no Leap: a Leap follows only a successful Dodge": "без Отскока: Отскок бывает только после успешного "
                                                       "Уклонения",
    "no Leap: a Leap follows only a Dodge against a shooting attack":
        "без Отскока: Отскок бывает только после Уклонения от стрелковой атаки",
    "no Leap: {need} m needed, more than SPD {spd} m": "без Отскока: нужно {need} м, больше SPD {spd} м",
    "no Evasion roll is declared against it": "бросок Избегания против неё не заявлен",
    "Parry works only against melee attacks and shots fired in melee":
        "Парирование работает только против атак в ближнем бою и выстрелов в рукопашной",
    "an attack covering the whole Base can be dodged only by a Leap":
        "от атаки, накрывающей всю Базу, можно Уклониться только Отскоком",
    "an attack covering the whole Base can be dodged only by a Leap, and no Leap can be made against it":
        "от атаки, накрывающей всю Базу, можно Уклониться только Отскоком, а Отскок от неё невозможен",
}
