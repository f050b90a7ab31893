"""Scenario ⇄ URL query: round trips, hand-written links, and hostile queries that must
fall back to the default with a notice, never an exception."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_core import get_system
from workbook.page.share import MAX_QUERY_LENGTH, decode_query, encode_query, page_url, read_query
from core.test_fractional_steps import FIELDS, points, short, value_at, with_value
from workbook_fake import FAKE, FakeScenario, Shooter

INF = get_system("infinity-n4")

shooters = st.builds(Shooter, skill=st.integers(1, 6), dice=st.integers(1, 2), aimed=st.booleans(),
                     weapon=st.sampled_from(["1d6", "2d10", "9d99"]))
fake_scenarios = st.builds(
    FakeScenario,
    defender=st.fixed_dictionaries({"agility": st.integers(0, 6),
                                    "stance": st.sampled_from(["standing", "prone"]),
                                    "luck": st.sampled_from([0.0, 0.25, 1.5, 2.0])}),
    shooters=st.lists(shooters, min_size=1, max_size=2).map(tuple),
    reading=st.sampled_from(["strict", "lenient"]))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fake_scenarios, st.sampled_from(["en", "xx"]))
def test_round_trip(scenario, lang):
    query = encode_query(FAKE, scenario, lang)
    shared = decode_query(FAKE, query)
    assert shared.notice == "" and shared.scenario == scenario
    assert shared.lang == (None if lang == "en" else lang)


def test_a_link_names_the_nearest_preset_and_only_the_fields_that_differ():
    preset = FAKE.presets[0]
    assert encode_query(FAKE, preset.scenario) == "preset=two-shooters"
    # FakeScenario() is the "lenient" preset but for its reading: one field, not eight.
    assert encode_query(FAKE, FakeScenario()) == "preset=lenient&reading=strict"
    # A list that changes names its last item, so the decoded list has the right length.
    fewer = preset.scenario.replace(shooters=preset.scenario.shooters[:1])
    # (the default scenario is that preset, so the fields alone are the shorter link)
    assert encode_query(FAKE, fewer) == "shooters.0.skill=4"
    assert decode_query(FAKE, "shooters.0.skill=4").scenario == fewer


def test_a_preset_with_a_few_changes_is_a_short_link_and_old_long_links_still_open():
    base = INF.preset("zhanshi-vs-fusilier").scenario
    changed = base.replace(dodger=base.dodger.replace(ph=12, arm=3),
                           attackers=(base.attackers[0].replace(burst=4), *base.attackers[1:]))
    query = encode_query(INF, changed)
    assert len(f"http://127.0.0.1:8866/voila/render/infinity-n4-dodge.ipynb?{query}") < 300
    assert "dodger.ph=12" in query and "attackers.0.burst=4" in query
    assert decode_query(INF, query).scenario == changed
    # A link as the page wrote it before: every field spelled out.
    data = changed.to_data()
    data.pop("system")
    old = "&".join(f"{k}={v}" for k, v in _flat(data))
    assert len(old) > 300 and decode_query(INF, old).scenario == changed


def _flat(data, prefix=""):
    if isinstance(data, dict):
        return [p for k, v in data.items() for p in _flat(v, f"{prefix}{k}.")]
    if isinstance(data, list):
        return [p for i, v in enumerate(data) for p in _flat(v, f"{prefix}{i}.")]
    return [(prefix[:-1], str(data).lower() if isinstance(data, bool) else str(data))]


def test_hand_written_links():
    # Fields change the base (a preset, else the default); flags read as on/off words.
    got = decode_query(FAKE, "?preset=two-shooters&shooters.1.aimed=no&defender.agility=5").scenario
    assert got.defender.agility == 5 and [s.aimed for s in got.shooters] == [False, False]
    assert [s.skill for s in got.shooters] == [4, 3]
    # Naming list items makes the list exactly that long; items beyond the base's (the default
    # scenario, the first preset: skills 4 and 3) start from the item defaults (skill 3, 1 die).
    got = decode_query(FAKE, "shooters.2.skill=6").scenario
    assert [(s.skill, s.dice) for s in got.shooters] == [(4, 2), (3, 1), (6, 1)]
    assert decode_query(FAKE, "preset=two-shooters&shooters.0.dice=1").scenario.shooters == (
        Shooter(skill=4, dice=1),)
    assert decode_query(FAKE, "system=fake-dice&lang=xx").lang == "xx"
    assert decode_query(FAKE, "").scenario is None and decode_query(FAKE, None).notice == ""
    # Infinity, by the dotted names shown on its controls.
    got = decode_query(INF, "dodger.ph=13&attackers.0.burst=2").scenario
    assert got.dodger.ph == 13 and got.attackers[0].burst == 2


HOSTILE = [
    "garbage",
    "=&&==",
    "defender.agility=7",                         # out of range
    "defender.agility=99999999999999999999999",    # huge
    "defender.agility=" + "9" * 5000,             # longer than the query limit
    "defender.agility=3.5",                       # not a whole number
    "defender.agility=٣",                          # a non-ASCII digit
    "defender.luck=nan", "defender.luck=inf", "defender.luck=1e400",
    "defender.stance=flying",
    "defender=3", "defender.agility.x=1", "reading.x=1",
    "nosuch=1", "__class__=1", "defender.__dict__=1",
    "shooters.3.skill=1", "shooters.-1.skill=1", "shooters.999999999999.skill=1", "shooters.x.skill=1",
    "shooters.0=1", "shooters=1",
    "shooters.0.aimed=maybe",
    "shooters.0.weapon=lots",                     # the notation's own check
    "shooters.0.dice=3&shooters.1.dice=3",        # 6 dice: refused across fields
    "defender.agility=1&defender.agility=2",      # repeated
    "preset=nope", "preset=", "lang=fr", "system=infinity-n4",
    "%ff%fe%00=%c0%af", "defender.agility=%00", "%E2%80%AE=1",
    "&".join(f"k{i}=1" for i in range(400)),       # too many fields
    "a" * (MAX_QUERY_LENGTH + 1),
    "<script>alert(1)</script>=<b>x</b>",
]


@pytest.mark.parametrize("query", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_queries_fall_back_with_a_notice(query):
    shared = decode_query(FAKE, query)
    assert shared.scenario is None and shared.lang is None
    assert shared.notice.startswith("This link could not be used")
    assert len(shared.notice) < 2000  # refused values are quoted briefly


def test_the_notice_names_the_field_and_what_is_allowed():
    notice = decode_query(FAKE, "defender.agility=7").notice
    assert "defender.agility" in notice and "0 to 6" in notice
    notice = decode_query(FAKE, "defender.stance=flying").notice
    assert "'flying'" in notice and "'standing'" in notice
    notice = decode_query(FAKE, "shooters.0.dice=3&shooters.1.dice=3").notice
    assert "at most 5 dice" in notice
    assert "infinity-n4" in decode_query(FAKE, "system=infinity-n4").notice


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=120))
def test_any_text_is_read_without_an_exception(query):
    shared = decode_query(FAKE, query)
    assert (shared.scenario is None) or shared.notice == ""


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["defender.agility", "defender.luck", "shooters.0.dice",
                                           "shooters.1.skill", "shooters.2.aimed", "reading", "lang",
                                           "preset", "shooters.0.weapon"]),
                          st.text(max_size=8)), max_size=5))
def test_near_miss_queries_are_read_without_an_exception(pairs):
    from urllib.parse import urlencode
    shared = decode_query(FAKE, urlencode(pairs))
    if shared.scenario is not None:
        FakeScenario.model_validate(shared.scenario.to_data())  # whatever is accepted is valid


def test_the_page_query_and_url_come_from_the_environment(monkeypatch):
    for name in ("SERVER_SOFTWARE", "VOILA_PREHEAT", "SERVER_NAME", "SCRIPT_NAME",
                 "VOILA_REQUEST_URL", "SERVER_PORT", "JPY_SESSION_NAME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("QUERY_STRING", "defender.agility=4")
    assert read_query() == "defender.agility=4" and page_url() == ""
    monkeypatch.setenv("VOILA_REQUEST_URL", "https://example.org/voila/render/x.ipynb?a=1")
    assert page_url() == "https://example.org/voila/render/x.ipynb"
    monkeypatch.setenv("SERVER_NAME", "127.0.0.1")
    monkeypatch.setenv("SCRIPT_NAME", "/voila/render/y.ipynb")
    assert page_url() == "https://127.0.0.1/voila/render/y.ipynb"


@pytest.mark.parametrize("system_id", sorted(__import__("rules_core").all_systems()))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_systems_share_link_opens_the_same_scenario(system_id, data):
    from rules_core import ScenarioError, load_scenario
    from strategies import scenario_strategy

    system = get_system(system_id)
    try:
        scenario = load_scenario(data.draw(scenario_strategy(system_id)))
    except ScenarioError:
        return  # a combination the rules refuse is never on screen, so never shared
    for lang in system.languages:
        shared = decode_query(system, encode_query(system, scenario, lang))
        assert shared.notice == "" and shared.scenario == scenario


# -- fractional steps: exact in the link ---------------------------------------------------------

@pytest.mark.parametrize("system_id, path, spec", FIELDS, ids=[f"{s}:{'.'.join(map(str, p))}" for s, p, _ in FIELDS])
def test_every_fractional_step_round_trips_through_the_link(system_id, path, spec):
    from rules_core import load_scenario
    system, dotted = get_system(system_id), ".".join(map(str, path))
    for point in points(spec):
        scenario = load_scenario(with_value(system_id, path, float(point)))
        query = encode_query(system, scenario)
        if not query.startswith("preset="):
            assert f"{dotted}={short(point)}&" in query + "&", query
        shared = decode_query(system, query)
        assert shared.notice == "" and shared.scenario == scenario
        assert value_at(shared.scenario, path) == point
        # a link written by hand, or by a slider's floating point, opens the same step
        for text in (short(point), repr(float(point) + 1e-15), f"{float(point):.20f}"[:30]):
            shared = decode_query(system, f"{dotted}={text}", base=scenario)
            assert shared.notice == "" and value_at(shared.scenario, path) == point, text


@pytest.mark.parametrize("system_id, path, spec", FIELDS, ids=[f"{s}:{'.'.join(map(str, p))}" for s, p, _ in FIELDS])
def test_a_link_off_the_fractional_step_is_refused_naming_the_step(system_id, path, spec):
    system, dotted = get_system(system_id), ".".join(map(str, path))
    off = points(spec)[0] + Fraction(spec.step) / 5
    notice = decode_query(system, f"{dotted}={float(off)}").notice
    assert notice.startswith("This link could not be used")
    assert f"field '{dotted}': got {float(off)}" in notice and f"in steps of {short(Fraction(spec.step))}" in notice


def test_the_gurps_link_carries_basic_speed_in_its_short_form():
    gurps = get_system("gurps-4e")
    seed = gurps.presets[0].scenario
    moved = seed.replace(dodger=seed.dodger.replace(basic_speed=6.0 + 0.1 + 0.1 + 0.05))
    query = encode_query(gurps, moved)
    assert "dodger.basic_speed=6.25" in query.split("&")
    assert decode_query(gurps, "dodger.basic_speed=6.250000000000001").scenario.dodger.basic_speed == \
        Fraction(25, 4)


# -- a refused link in a player's words (workbook.page.notices.link_notice) --------------------------

def _notice(system_id: str, query: str) -> str:
    from workbook.page.notices import link_notice
    from workbook.page.text import translator

    system = get_system(system_id)
    shared = decode_query(system, query)
    assert shared.scenario is None  # refused: the page shows the default scenario
    lang = "ru" if "lang=ru" in query else "en"
    return link_notice(system, query, translator(system, lang), fallback=shared.notice)


_DEVELOPER_WORDS = ("invalid", "scenario:", "field '", "got ", "allowed:", "'attacks", "_")


@pytest.mark.parametrize("query, words", [
    # a text field the rules cannot read: its label, the value asked for, and what it takes
    ("attacks.0.damage=4d8",
     "The link asked for Damage (Attack 1) 4d8; Damage takes GURPS damage dice: a number of "
     "six-sided dice, an optional add and an optional multiplier, such as 2d+1, 1d-1, 3d or 4d×2. "
     "Showing the default scenario."),
    ("situation=sacrificial&attacks.0.damage=2d%2B1%2B",
     "The link asked for Damage (Attack 1) 2d+1+; Damage takes GURPS damage dice"),
    # a combination the rules refuse (a cross-field check): its fields, the rule with its source, the
    # ways out — the words of the scenario's own error in code
    ("situation=smother&blast.distance=3",
     "The link asked for Situation Throw yourself on an explosive, Yards from the blast (Blast) 3: you can throw "
     "yourself only on an explosive no more than a step away (B377): it is 3 yards away — set 0 or 1 yard, or "
     "choose the situation Dive for cover. Showing the default scenario."),
    ("dodger.defense=none&dodger.acrobatic=yes",
     "The link asked for Defense (Dodger) No defense, Acrobatic dodge (Dodger) on: an acrobatic dodge is a way of "
     "making a Dodge roll (B375): the defense is 'No defense', so there is no Dodge to make acrobatic — choose a "
     "defense, or turn off the acrobatic dodge."),
    ("situation=sacrificial&dodger.defense=retreat",
     "The link asked for Situation Sacrificial dodge for a friend, Defense (Dodger) Dodge with a retreat (+3): a "
     "sacrificial dodge is made without a retreat (B375): the defense is a retreat — choose Dodge (sacrificial "
     "dodge), Dodge and drop (sacrificial dodge and drop), or No defense (the friend defends alone)."),
    ("dodger.defense=dodge_and_drop&attacks.0.kind=melee",
     "The link asked for Defense (Dodger) Dodge and drop (+3), Attack (Attack 1) Melee: a dodge and drop works "
     "only against ranged attacks (B377): the attack is melee — choose Dodge or Dodge with a retreat, or make "
     "the attack ranged. Showing the default scenario."),
])
def test_a_refused_gurps_link_names_the_field_and_what_it_takes(query, words):
    notice = _notice("gurps-4e", query)
    assert notice.startswith(words)
    assert not [w for w in _DEVELOPER_WORDS if w in notice], notice


def test_a_d100_link_a_cross_field_check_refuses_is_said_in_english_and_in_russian():
    query = "attacks.0.kind=melee&attacks.0.covers_whole_base=yes"
    sentence = ("only a shooting attack (a Blast or Spray template) can cover the whole Base (d100 homebrew, "
                "Evasion › Leap [Отскок], ¶1): the attack is melee — choose Shooting (ranged) or Shot fired in "
                "melee, or turn off Covers the whole Base")
    assert _notice("d100-homebrew", query) == (
        f"The link asked for Kind of attack (Attack 1) Melee, Covers the whole Base (Attack 1) on: {sentence}. "
        "Showing the default scenario.")
    assert _notice("d100-homebrew", f"lang=ru&{query}") == (
        "В ссылке указано Вид атаки (Атака 1) Ближний бой, Накрывает всю Базу (Атака 1) да: накрыть всю Базу "
        "может только стрелковая атака (шаблон Blast или Spray) (Домашние правила d100, «Избегание» › «Отскок», "
        "абз. 1): атака — ближний бой; выберите «Стрелковая (дистанционная)» или «Выстрел в рукопашной» либо "
        "снимите «Накрывает всю Базу». Показан сценарий по умолчанию.")


def test_a_dashboard_opened_on_a_refused_text_field_says_so_at_the_top():
    from workbook.pages.dashboard import Dashboard

    dash = Dashboard("gurps-4e", query="attacks.0.damage=4d8")
    assert dash.scenario == get_system("gurps-4e").default_scenario()
    assert dash.notices[0].startswith("The link asked for Damage (Attack 1) 4d8; Damage takes ")
    assert "could not be used" not in dash.notices[0]


# -- what the scenario's check refused, kept by the link's reading (workbook.page.share.LinkProblem) ---

_NOT_SIX_SIDED = "'4d8' uses d8: GURPS damage dice are six-sided ('2d' means 2d6)"


@pytest.mark.parametrize("system_id, query, problems", [
    ("gurps-4e", "attacks.0.damage=4d8", [("attacks.0.damage", "4d8", "4d8", _NOT_SIX_SIDED)]),
    ("gurps-4e", "situation=smother&blast.distance=3",
     [("blast.distance", "3", 3, "you can throw yourself only on an explosive no more than a step away (B377): "
                                 "it is 3 yards away — set 0 or 1 yard, or choose the situation Dive for cover")]),
    # the preset covers the whole Base; the link names only the kind: the field it did not name
    ("d100-homebrew", "preset=leap-out-of-blast&attacks.0.kind=melee",
     [("attacks.0.covers_whole_base", None, True,
       "only a shooting attack (a Blast or Spray template) can cover the whole Base (d100 homebrew, Evasion › Leap "
       "[Отскок], ¶1): the attack is melee — choose Shooting (ranged) or Shot fired in melee, or turn off Covers "
       "the whole Base")]),
    # refused for its language, the scenario is still checked (the notice names the language alone)
    ("gurps-4e", "lang=xx&attacks.0.damage=4d8", [("attacks.0.damage", "4d8", "4d8", _NOT_SIX_SIDED)]),
    ("gurps-4e", "attacks.0.damage=4d8&nope=1", []),  # a key naming no field: nothing is checked
    ("gurps-4e", "attacks.0.damage=2d%2B1", []),        # taken
])
def test_the_link_keeps_what_the_scenarios_check_refused(system_id, query, problems):
    from workbook.page.share import LinkProblem

    shared = decode_query(get_system(system_id), query)
    assert shared.problems == tuple(LinkProblem(*p) for p in problems)
    assert ("invalid" in shared.notice) is (bool(problems) and "lang=" not in query)


def test_a_refused_links_notice_is_said_from_the_problems_it_is_given(monkeypatch):
    import workbook.page.notices as notices
    from workbook.page.share import LinkProblem, Shared

    gurps = get_system("gurps-4e")

    def read_again(*args, **kwargs):
        raise AssertionError("the link was read again")

    given = Shared(notice="refused", problems=(LinkProblem("blast.distance", "2", 2, "0 or 1"),))
    monkeypatch.setattr(notices, "decode_query", read_again)
    assert notices.link_notice(gurps, "blast.distance=2", shared=given) == (
        "The link asked for Yards from the blast (Blast) 2; with the rest of the scenario it must be 0 or 1. "
        "Showing the default scenario.")


def test_a_refused_link_without_its_reading_is_read_once(monkeypatch):
    import workbook.page.notices as notices

    read = []

    def counting(system, query, base=None):
        read.append(query)
        return decode_query(system, query, base)

    monkeypatch.setattr(notices, "decode_query", counting)
    said = notices.link_notice(get_system("gurps-4e"), "attacks.0.damage=4d8&present=1")
    assert said.startswith("The link asked for Damage (Attack 1) 4d8; Damage takes GURPS damage dice")
    assert read == ["attacks.0.damage=4d8"]  # the page's own keys left out, as the page reads it


def test_a_refused_link_past_the_length_limit_says_its_length():
    # each field in range is not looked at: the link is refused for its length alone
    query = "attacks.0.damage=" + "9" * 4100
    assert _notice("gurps-4e", query) == ("This link could not be used (the link is 4117 characters long; "
                                          "at most 4000 are read). Showing the default scenario.")
