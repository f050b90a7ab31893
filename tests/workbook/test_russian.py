"""The d100 page in Russian: every number-bearing phrase agrees with its number, the terms
follow the source (seeds' «Избегание»), and nothing stays in English."""

from __future__ import annotations

import html
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
    from workbook.pages.dashboard import Dashboard
    from workbook.page.text import WORKBOOK_TEXT, count_text

    ru = lambda s: WORKBOOK_TEXT["ru"].get(s, s)  # noqa: E731
    for n in range(1, 31):
        word = "бросок" if n in (1, 21) else "броска" if n in (2, 3, 4, 22, 23, 24) else "бросков"
        assert count_text(n, "{n} rolls", ru) == f"{n} {word}"
    assert count_text(1, "{n} rolls") == "1 roll" and count_text(12, "{n} rolls") == "12 rolls"
    dash = Dashboard("d100-homebrew", query="", lang="ru")
    dash.panel("roll").roll()
    assert "Счёт</b>: 1 бросок</p>" in dash.panel("roll").tally_box.value
    dash.panel("roll").roll()
    assert "Счёт</b>: 2 броска</p>" in dash.panel("roll").tally_box.value


# -- the whole page in Russian ----------------------------------------------------------------
# Every panel of the d100 dashboard opened (toggles, views, rulings, Design, classroom,
# "Compare, sweep, export"), a sweep drawn as lines and as a heatmap, A pinned and B changed, a
# house rule set, every preset shown: no word of the page may be in Latin script except these.
ALLOWED_LATIN = {
    # the source's own notation, in Latin in the Russian original (seeds: «бросает на Dodge(A)+0»,
    # «Parry(WS)+0», «Навык Parry», «до SPD м», «шаблона Blast или Spray»)
    "Dodge": "the source's skill name, Dodge(A)", "Parry": "the source's skill name, Parry(WS)",
    "A": "Agility in Dodge(A); also the A of an A/B comparison", "WS": "Weapon Skill in Parry(WS)",
    "SPD": "the source's speed, «до SPD м»", "Blast": "a template the source names in Latin",
    "Spray": "a template the source names in Latin",
    "B": "the B of an A/B comparison (A against B)",
    "d100": "the dice", "P": "probability notation, P(...)", "k": "the count in P(... k ...)",
    "N": "the N of «1 из N»", "n/d": "an exact fraction's notation",
    # titles of published rulebooks cited for the rulings, proper names
    "Dark": "Dark Heresy (a rulebook's title)", "Heresy": "Dark Heresy (a rulebook's title)",
    "Only": "Only War (a rulebook's title)", "War": "Only War (a rulebook's title)",
    "Black": "Black Crusade (a rulebook's title)", "Crusade": "Black Crusade (a rulebook's title)",
    "I": "a chapter's Roman numeral in a citation (гл. I)",
    "English": "the language switch names each language in its own words",
    "CSV": "a file format, named so in Russian too", "JSON": "a file format, named so in Russian too",
    "HTML": "a file format, named so in Russian too",
    "UTF": "a text encoding, UTF-8, named so in Russian too",
}
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9'’]*(?:/[A-Za-z]+)?")
# a link or a file the reader can open is not prose: a URL, a share query, a rulings file
_NOT_PROSE = re.compile(r"https?://\S+|\?\S*=\S*|\b[\w.-]+=[\w%.+-]*|\bdocs/[\w./-]+|%\{[^}]*\}")


def _prose(markup: str) -> str:
    """What a reader sees of an HTML value: its text and its tooltips (``title``), without tags,
    styles, scripts, links' addresses or the plain data a download carries."""
    markup = re.sub(r"<(style|script)\b.*?</\1>", " ", markup, flags=re.S)
    titles = " ".join(re.findall(r'\btitle="([^"]*)"', markup))
    markup = re.sub(r"<[^>]+>", " ", markup)
    return html.unescape(f"{markup} {titles}")


def _figure_texts(figure: dict) -> list[str]:
    """A plotly figure's words: titles (chart, axes, colour bar), legend names, annotations,
    category ticks and hover texts (without their %{...} placeholders)."""
    layout, found = figure.get("layout", {}), []
    found.append(((layout.get("title") or {}).get("text")) or "")
    for name, axis in layout.items():
        if name.startswith(("xaxis", "yaxis")) and isinstance(axis, dict):
            found.append(((axis.get("title") or {}).get("text")) or "")
    found += [note.get("text", "") for note in layout.get("annotations", ())]
    for trace in figure.get("data", ()):
        if trace.get("showlegend", True) is not False:
            found.append(trace.get("name") or "")
        found.append(re.sub(r"<extra>|</extra>", " ", trace.get("hovertemplate") or ""))
        found += [v for v in (trace.get("x") or ()) if isinstance(v, str)]
        found += [v for v in (trace.get("y") or ()) if isinstance(v, str)]
        found.append((((trace.get("colorbar") or {}).get("title")) or {}).get("text", ""))
    return [re.sub(r"<br>", " ", t) for t in found if t]


def _page_texts(widget, seen=None):
    """``(where, text)`` for every text the widget tree shows: descriptions, tooltips,
    placeholders, option labels, HTML values and every chart's words."""
    import json

    import ipywidgets as widgets

    from workbook.page.chart import Chart

    seen = set() if seen is None else seen
    if id(widget) in seen:
        return
    seen.add(id(widget))
    kind = type(widget).__name__
    for attr in ("description", "tooltip", "placeholder"):
        value = getattr(widget, attr, None)
        if isinstance(value, str) and value:
            yield f"{kind}.{attr}", value
    if isinstance(widget, (widgets.HTML, widgets.HTMLMath, widgets.Label)):
        yield kind, _prose(widget.value)
    for label in getattr(widget, "_options_labels", ()) or ():
        yield f"{kind} option", label
    if isinstance(widget, Chart) and widget.figure:
        for said in _figure_texts(json.loads(widget.figure)):
            yield "chart", _prose(said)
    for child in getattr(widget, "children", ()) or ():
        yield from _page_texts(child, seen)


def _latin_words(widget) -> dict[str, str]:
    """Each Latin-script word the page shows that is not allowed, with where it was seen."""
    found: dict[str, str] = {}
    for where, said in _page_texts(widget):
        for word in _LATIN_WORD.findall(_NOT_PROSE.sub(" ", said)):
            if word not in ALLOWED_LATIN and not re.fullmatch(r"d\d+", word):
                found.setdefault(word, f"{where}: {said[:120]!r}")
    return found


def _every_panel_opened(dash) -> None:
    for toggle in (*dash.toggles.values(), *dash.view_toggles.values()):
        toggle.value = True
    dash.help_toggle.value = True
    for section in dash.form.sections.values():
        section.set_open(True)
    analysis = dash.panel("analysis")
    analysis.sweep.set_open(True)
    analysis.compare.pin_button.click()
    dash.form.set_scenario(dash.scenario.set("defender.agility", 50))  # B differs from A
    dash.panel("roll").roll()
    dash.panel("simulation").n.value = 1000
    dash.panel("simulation").start()
    # each panel shows something (else the walk below would find nothing to read)
    assert analysis.compare.comparison is not None and analysis.sweep.figure is not None
    assert analysis.modes.figure is not None and dash.panel("rulings").compare.comparison is not None
    assert dash.panel("simulation").figure is not None and dash.panel("roll").tally_box.value


def test_the_whole_russian_page_is_in_russian():
    """Every text on the Russian d100 page, with every panel open, is Russian: only the source's
    own Latin notation (:data:`ALLOWED_LATIN`, each with its reason), numbers, units and links
    stay as they are."""
    from workbook.pages.dashboard import Dashboard
    from workbook.panels.modes import MODES

    dash = Dashboard("d100-homebrew", query="lang=ru")
    _every_panel_opened(dash)
    found = _latin_words(dash.widget)
    sweep = dash.panel("analysis").sweep
    sweep.second.value = "attacks.0.hits"  # a heatmap
    found.update(_latin_words(sweep.widget))
    sweep.second.value = ""
    for mode in MODES:
        dash.panel("analysis").modes.switch.value = mode
        found.update(_latin_words(dash.panel("analysis").modes.widget))
    report = dash.panel("analysis").export.make_report()
    found.update(_latin_words(dash.panel("analysis").export.widget))
    # the report: its text, without the scenario's JSON (data, not prose) and the charts' script
    import ipywidgets as widgets
    read = re.sub(r'<pre class="wb-report-scenario">.*?</pre>', " ", report, flags=re.S)
    found.update({w: f"report: {where}" for w, where in _latin_words(widgets.HTML(read)).items()})
    for ruling in [value for _, value in dash.panel("rulings").field.options]:
        dash.panel("rulings").field.value = ruling
        found.update(_latin_words(dash.panel("rulings").widget))
    dash.form.set_scenario(dash.scenario.set("variant.points_per_success", 5))  # a house rule
    found.update(_latin_words(dash.widget))
    for preset in dash.system.presets:
        dash.preset.value = preset.name
        dash.panel("roll").roll()
        found.update(_latin_words(dash.widget))
    assert found == {}, "Latin words on the Russian page:\n" + "\n".join(f"{w} — {where}" for w, where in sorted(found.items()))


@pytest.mark.parametrize("query", [
    "lang=ru&defender.agility=999",                               # out of range
    "lang=ru&defender.dodge_modifier=-7",                         # between the steps
    "lang=ru&attacks.0.evasion_modifier=-23",                     # in a list item
    "lang=ru&attacks.0.kind=melee&attacks.0.covers_whole_base=yes",  # a cross-field check
    "lang=ru&attacks.0.leap=sideways",                            # not one of the choices
    "lang=ru&attacks.9.hits=2",                                   # past the list's end
    "lang=ru&preset=nope",                                        # no such example
    "lang=ru&defender.agilty=40",                                 # no such field
])
def test_a_refused_link_on_the_russian_page_is_said_in_russian(query):
    """The notice at the top of a refused link is Russian: only what the link itself says (a
    value it asks for, a name quoted in «» or “”) may stay as it was typed."""
    from workbook.pages.dashboard import Dashboard

    dash = Dashboard("d100-homebrew", query=query)
    assert dash.lang == "ru" and dash.notices
    unquoted = re.sub(r"“[^”]*”|«[^»]*»", " ", dash._notice.value)
    for asked in (pair.split("=", 1)[1] for pair in query.split("&")):
        unquoted = unquoted.replace(f" {asked};", " ;")
    import ipywidgets as widgets
    assert _latin_words(widgets.HTML(unquoted)) == {}, dash.notices


def test_a_typed_value_the_rules_refuse_is_marked_in_russian():
    """A melee attack set to cover the whole Base: the banner over the numbers and the reason at
    the field are Russian, the attack's kinds by their Russian labels."""
    from workbook.pages.dashboard import Dashboard

    dash = Dashboard("d100-homebrew", query="lang=ru")
    dash.form.control("attacks.0.kind").value = "melee"
    dash.form.control("attacks.0.covers_whole_base").value = True
    reason = dash._marks.reasons["attacks.0.covers_whole_base"][1].value
    assert "«Выстрел в рукопашной»" in reason and "Не обновлено" in dash._stale.value
    assert _latin_words(dash._stale) == {} and _latin_words(dash._marks.reasons["attacks.0.covers_whole_base"][1]) == {}


@pytest.mark.parametrize("first, then", [("en", "ru"), ("ru", "en")])
def test_a_language_switch_in_place_says_what_a_page_opened_in_that_language_says(first, then):
    """The switch relabels the page's widgets in place (the browser builds none again); every
    text it then shows, with every part of the page open, an attack added and help shown, is
    what a page opened in that language shows, in the same order; the widgets, the scenario
    and the reader's folds stay."""
    from workbook.pages.dashboard import Dashboard

    def opened(dash):
        for toggle in (*dash.toggles.values(), *dash.view_toggles.values()):
            toggle.value = True
        dash.help_toggle.value = True
        dash.form.button("attacks.add").click()
        dash.form.sections["defender"].set_open(False)
        dash.form.set_scenario(dash.scenario.set("defender.agility", 50))
        return dash

    switched = opened(Dashboard("d100-homebrew", query=f"lang={first}"))
    slider, scenario = switched.form.control("defender.agility"), switched.scenario
    switched.language.value = then
    fresh = opened(Dashboard("d100-homebrew", query=f"lang={then}"))
    assert list(_page_texts(switched.widget)) == list(_page_texts(fresh.widget))
    assert switched.form.control("defender.agility") is slider and switched.scenario == scenario
    assert switched.form.sections["defender"].open is False
    assert switched.language.value == then
    assert ("lang=ru" in switched.urlbar.query) is (then == "ru")  # English, the first, is the default


@pytest.mark.parametrize("content", [
    b'{"defender": {"agility": 999}}',                       # out of its range
    b'{"defender": {"agility": "40"}}',                      # a number given as text
    b'{"attacks": [{"kind": "melee", "covers_whole_base": true}]}',  # a cross-field check
    b'{"defender": {"agilty": 40}}',                         # no such field
    b'{"attacks": 3}',                                       # a list given as a number
    b"{not json", b"\xff\xfe", b"[1, 2]", b'{"system": "eldfall"}', b'{"defender": {"agility": NaN}}',
    b"[" * 50 + b"]" * 50, b" " * 300_000,
])
def test_a_refused_scenario_file_on_the_russian_page_is_said_in_russian(content):
    """A scenario file the page cannot load is refused in Russian: only what the file itself
    holds (a value, a name quoted in “”) may stay as it was written."""
    import ipywidgets as widgets
    from workbook.pages.dashboard import Dashboard

    dash = Dashboard("d100-homebrew", query="lang=ru")
    before = dash.scenario
    assert dash.panel("analysis").export.load(content) is None and dash.scenario == before
    said = dash.panel("analysis").export.notice.value
    assert "Не загружено: " in said, said
    unquoted = re.sub(r"“[^”]*”|&#x27;[^&]*&#x27;", " ", said)
    for written in ("999", "40", "NaN"):
        unquoted = unquoted.replace(f" {written}:", " :").replace(f" {written} ", " ")
    assert _latin_words(widgets.HTML(unquoted)) == {}, said
