"""Controls built from declared fields: widget kinds, ranges, classes, lists, refusals."""

from __future__ import annotations

import html

import ipywidgets as widgets
import pytest

from rules_core import get_system
from rules_core.scenario import spec_at
from rules_core.systems.infinity_n4.scenario import InfinityScenario
from workbook.page.controls import ScenarioForm, css_class
from workbook_fake import FAKE, FakeScenario, Shooter

INF = get_system("infinity-n4")


def all_widgets(root: widgets.Widget):
    yield root
    for child in getattr(root, "children", ()):
        yield from all_widgets(child)


def by_class(form, css: str) -> list[widgets.Widget]:
    return [w for w in all_widgets(getattr(form, "widget", form)) if css in getattr(w, "_dom_classes", ())]


def shown_widgets(root: widgets.Widget):
    """``root``'s widgets the page shows: none inside a hidden list item (class ``wb-spare``,
    which the page's style sheet hides)."""
    if "wb-spare" in getattr(root, "_dom_classes", ()):
        return
    yield root
    for child in getattr(root, "children", ()):
        yield from shown_widgets(child)


def shown_by_class(form, css: str) -> list[widgets.Widget]:
    return [w for w in shown_widgets(form.widget) if css in getattr(w, "_dom_classes", ())]


def test_infinity_controls_follow_the_declared_ranges():
    form = ScenarioForm(INF)
    assert {"dodger.ph", "dodger.mod", "attackers.0.attribute", "attackers.0.burst"} <= set(form.paths())
    ph, burst, attribute = (form.control(p) for p in ("dodger.ph", "attackers.0.burst",
                                                      "attackers.0.attribute"))
    # Bounds as written in rules_core/systems/infinity_n4/scenario.py: PH 0..30, Burst 1..5.
    assert isinstance(ph, widgets.IntSlider) and (ph.min, ph.max, ph.step) == (0, 30, 1)
    assert isinstance(burst, widgets.IntSlider) and (burst.min, burst.max) == (1, 5)
    assert isinstance(attribute, widgets.Dropdown)
    assert [v for _, v in attribute.options] == ["BS", "CC", "PH", "WIP"]
    assert dict(attribute.options)["CC (close combat)"] == "CC"
    # The first preset is shown: the seed's Zhanshi (PH 10) against BS 12 + 3, Burst 3.
    assert form.scenario == INF.presets[0].scenario
    assert (ph.value, form.control("attackers.0.mod").value, burst.value) == (10, 3, 3)
    # Every declared leaf field has its control, of the kind its declaration asks for.
    kinds = {"int": widgets.IntSlider, "float": widgets.FloatSlider, "flag": widgets.Checkbox,
             "choice": widgets.Dropdown, "ruling": widgets.Dropdown, "text": widgets.Text}
    for path in form.paths():
        spec = spec_at(InfinityScenario, tuple(int(p) if p.isdigit() else p for p in path.split(".")))
        assert isinstance(form.control(path), kinds[spec.kind])
        if spec.kind in ("int", "float"):
            assert (form.control(path).min, form.control(path).max) == (spec.minimum, spec.maximum)


def test_every_control_has_its_css_class_and_visible_help():
    form = ScenarioForm(INF)
    for path in form.paths():
        assert by_class(form, css_class(path)) == [form.control(path)]
    assert "wb-dodger-ph" in form.control("dodger.ph")._dom_classes
    assert by_class(form, "wb-dodger")  # the part's box
    helps = lambda: [w.value for w in all_widgets(form.widget) if isinstance(w, widgets.HTML)]  # noqa: E731
    assert not any("Infinity N4 Core Rules, Dodge" in h for h in helps())  # built when first shown
    assert "Physique" in form.control("dodger.ph").tooltip
    form.show_help(True)
    assert any("Physique" in h and "Infinity N4 Core Rules, Dodge" in h for h in helps())


def holder_of(root: widgets.Widget, widget: widgets.Widget) -> widgets.Box:
    """The box among ``root``'s widgets whose children hold ``widget``."""
    (box,) = [w for w in all_widgets(root) if any(c is widget for c in getattr(w, "children", ()))]
    return box


def test_a_field_is_its_input_in_its_parts_box_with_its_reason_and_help_right_under_it():
    """No box per field (a page's widget models, ~40 fewer): the input sits in its part's box
    beside the other fields' inputs; a refused value's reason, then its help line once shown,
    come right under it there, and the reason goes when the value is mended."""
    from workbook.pages.dashboard import Dashboard

    dash = Dashboard("gurps-4e")
    damage, hits = dash.form.control("attacks.0.damage"), dash.form.control("attacks.0.hits")
    box = holder_of(dash.widget, damage)
    assert any(c is hits for c in box.children)  # its neighbours' inputs, in the same box
    under = lambda: box.children[list(box.children).index(damage) + 1:][:2]  # noqa: E731
    damage.value = "4d8"
    reason = dash._marks.reasons["attacks.0.damage"][1]
    assert under()[0] is reason
    dash.form.show_help(True)
    help_line = under()[1]
    assert isinstance(help_line, widgets.HTML) and html.escape(damage.tooltip.split(" — ")[0]) in help_line.value
    damage.value = "4d-1"
    assert under()[0] is help_line and not any(c is reason for c in box.children)
    dash.form.show_help(False)
    assert under()[0] is help_line and help_line.layout.display == "none"


def test_moving_a_control_gives_a_new_valid_scenario_and_one_callback():
    form = ScenarioForm(INF)
    start = form.scenario
    seen = []
    form.on_change(seen.append)
    form.control("dodger.ph").value = 13
    form.control("attackers.0.attribute").value = "CC"
    attacker = start.attackers[0].replace(attribute="CC")
    assert seen[-1] == start.replace(dodger=start.dodger.replace(ph=13), attackers=[attacker])
    assert len(seen) == 2
    form.set_scenario(InfinityScenario())
    assert len(seen) == 3 and seen[-1] == InfinityScenario()
    assert form.control("attackers.0.mod").value == InfinityScenario().attackers[0].mod
    form.set_scenario(InfinityScenario())  # no change, no callback
    assert len(seen) == 3


def test_kinds_of_fields_in_the_fake_system():
    form = ScenarioForm(FAKE, FakeScenario())
    luck = form.control("defender.luck")
    assert isinstance(luck, widgets.FloatSlider)
    assert (luck.min, luck.max, luck.step, luck.readout_format) == (0.0, 2.0, 0.25, ".2f")
    assert "(points)" in luck.description
    aimed = form.control("shooters.0.aimed")
    assert isinstance(aimed, widgets.Checkbox) and aimed.value is False
    reading = form.control("reading")
    assert isinstance(reading, widgets.Dropdown)
    assert reading.options == (("No bonus (Fake Rules p.1)", "strict"),
                               ("+1 against unaimed shots (Fake FAQ)", "lenient"))
    aimed.value = True
    luck.value = 1.75
    assert form.scenario.shooters[0].aimed is True and form.scenario.defender.luck == 1.75
    assert by_class(form, "wb-group")  # the ruling sits in its "Rulings" group box


def test_list_add_and_remove_stay_within_the_declared_limits():
    form = ScenarioForm(FAKE, FakeScenario())
    add = form.button("shooters.add")
    assert form.button("shooters.0.remove").disabled  # min_items = 1
    add.click()
    add.click()
    assert len(form.scenario.shooters) == 3 and add.disabled  # max_items = 3
    add.click()  # a click on a disabled button (or a stray message) changes nothing
    assert len(form.scenario.shooters) == 3
    form.control("shooters.1.skill").value = 5
    form.control("shooters.2.skill").value = 6
    form.button("shooters.0.remove").click()
    assert [s.skill for s in form.scenario.shooters] == [5, 6]
    assert not add.disabled
    # Classes follow the new positions.
    assert "wb-shooters-0-skill" in form.control("shooters.0.skill")._dom_classes
    assert form.control("shooters.0.skill").value == 5
    assert shown_by_class(form, "wb-shooters-1-remove") and not shown_by_class(form, "wb-shooters-2-remove")
    with pytest.raises(KeyError):
        form.control("shooters.2.skill")


def test_adding_an_item_builds_only_it_and_removing_the_last_hides_it_for_the_next():
    form = ScenarioForm(FAKE, FakeScenario())
    first = form.control("shooters.0.skill")
    form.control("shooters.0.skill").value = 5
    form.button("shooters.add").click()
    assert form.control("shooters.0.skill") is first and first.comm is not None  # kept, not rebuilt
    assert [s.skill for s in form.scenario.shooters] == [5, FakeScenario().shooters[0].skill]
    assert not form.button("shooters.0.remove").disabled and not form.button("shooters.1.remove").disabled
    added = form.control("shooters.1.skill")
    assert "wb-shooters-1-skill" in added._dom_classes
    form.control("shooters.1.skill").value = 6
    form.button("shooters.1.remove").click()
    # The removed item is hidden, not closed; the form no longer knows its fields or section.
    assert added.comm is not None and added not in shown_widgets(form.widget)
    assert len(form.scenario.shooters) == 1 and form.button("shooters.0.remove").disabled
    assert "shooters.1" not in form.sections
    with pytest.raises(KeyError):
        form.control("shooters.1.skill")
    with pytest.raises(KeyError):
        form.button("shooters.1.remove")
    # Added again, it is shown with the new item's values, not the ones it had.
    form.button("shooters.add").click()
    assert form.control("shooters.1.skill") is added and added in shown_widgets(form.widget)
    assert added.value == FakeScenario().shooters[0].skill != 6
    assert [s.skill for s in form.scenario.shooters] == [5, added.value]
    assert "shooters.1" in form.sections and not form.button("shooters.1.remove").disabled
    # A scenario set in one go (a preset, a link) builds only the items it adds.
    form.set_scenario(FakeScenario(shooters=(Shooter(skill=3), Shooter(skill=4), Shooter(skill=6))))
    assert form.control("shooters.0.skill") is first and first.value == 3
    assert [form.control(f"shooters.{i}.skill").value for i in range(3)] == [3, 4, 6]
    assert form.button("shooters.add").disabled and not form.button("shooters.0.remove").disabled
    third = form.control("shooters.2.skill")
    form.set_scenario(FakeScenario(shooters=(Shooter(skill=2),)))
    assert form.control("shooters.0.skill") is first and third not in shown_widgets(form.widget)
    assert [s.skill for s in form.scenario.shooters] == [2] and form.button("shooters.0.remove").disabled
    assert len([w for w in shown_by_class(form, "wb-part") if any(c.startswith("wb-shooters-") for c in w._dom_classes)]) == 1


def open_widgets() -> int:
    """How many widgets the kernel holds open (each one also a model in the page)."""
    from ipywidgets.widgets.widget import _instances
    return len(_instances)


def test_items_removed_and_added_again_build_nothing_and_closing_the_form_leaves_nothing():
    before = open_widgets()
    form = ScenarioForm(INF)
    one = open_widgets()
    form.button("attackers.add").click()
    two = open_widgets()
    assert two > one
    form.button("attackers.1.remove").click()
    form.button("attackers.add").click()
    assert open_widgets() == two  # the hidden item shown again
    form.button("attackers.add").click()
    three = open_widgets()
    form.button("attackers.0.remove").click()  # the others' values move up one place
    form.button("attackers.1.remove").click()
    form.set_scenario(form.scenario.to_data() | {"attackers": [form.scenario.attackers[0].to_data()] * 3})
    assert open_widgets() == three
    form.close()
    assert open_widgets() == before  # every item's fields, layouts, styles and sections, hidden or not


def test_a_hidden_item_shown_again_speaks_the_forms_language_and_shows_its_help():
    form = ScenarioForm("d100-homebrew", lang="en")
    form.button("attacks.add").click()
    form.button("attacks.1.remove").click()
    form.set_lang("ru")
    form.show_help(True)
    form.button("attacks.add").click()
    again = ScenarioForm("d100-homebrew", form.scenario, lang="ru", show_help=True)
    for path in ("attacks.1.hits", "attacks.1.evasion"):
        assert form.control(path).description == again.control(path).description
    assert form.sections["attacks.1"].fold.description == again.sections["attacks.1"].fold.description
    assert [w.value for w in shown_widgets(form.widget) if isinstance(w, widgets.HTML)] == \
        [w.value for w in shown_widgets(again.widget) if isinstance(w, widgets.HTML)]


def test_a_refused_combination_shows_a_notice_and_keeps_the_last_valid_scenario():
    form = ScenarioForm(FAKE, FakeScenario(shooters=(Shooter(dice=2), Shooter(dice=2))))
    seen = []
    form.on_change(seen.append)
    last = form.scenario
    form.control("shooters.0.dice").value = 3  # 3 + 2 = 5 dice: allowed
    assert form.error is None and seen
    form.control("shooters.1.dice").value = 3  # 6 dice: the validator refuses
    assert form.error == "shooters: at most 5 dice in all"
    assert "at most 5 dice" in form.notice.value and "wb-notice" in form.notice._dom_classes
    assert form.scenario.shooters[1].dice == 2 and len(seen) == 1
    form.control("shooters.0.dice").value = 1  # valid again: the notice goes
    assert form.error is None and form.notice.value == ""
    assert [s.dice for s in form.scenario.shooters] == [1, 3]
    assert last != form.scenario


def test_labels_go_through_the_systems_language():
    form = ScenarioForm(FAKE, lang="xx")
    assert form.control("defender.agility").description == "‹Agility›"
    assert form.control("defender.stance").options[0] == ("‹Standing›", "standing")
    assert "‹Dodge succeeds on a d6 at most this.›" in form.control("defender.agility").tooltip
    assert by_class(form, "wb-shooters-add")[0].description == "‹Add shooters›"  # one phrase


def test_a_scenario_of_another_system_is_refused_at_construction():
    from rules_core import ScenarioError
    with pytest.raises(ScenarioError):
        ScenarioForm(INF, FakeScenario())


def test_a_text_field_with_a_wrong_notation_shows_the_notations_message():
    form = ScenarioForm(FAKE, FakeScenario())
    weapon = form.control("shooters.0.weapon")
    assert isinstance(weapon, widgets.Text) and weapon.placeholder == "dice such as 2d6"
    weapon.value = "2d8"
    assert form.scenario.shooters[0].weapon == "2d8"
    weapon.value = "lots"
    assert form.scenario.shooters[0].weapon == "2d8"
    assert form.error == "field 'shooters.0.weapon': got 'lots'; allowed: dice such as 2d6"


def test_a_fractional_slider_snaps_to_its_step_and_the_scenario_holds_it_exactly():
    from decimal import Decimal

    form = ScenarioForm("gurps-4e")
    speed = form.control("dodger.basic_speed")
    assert isinstance(speed, widgets.FloatSlider) and (speed.min, speed.max, speed.step) == (1.0, 20.0, 0.25)
    seen = []
    form.on_change(seen.append)
    speed.value = 6.0 + 0.1 + 0.1 + 0.05  # 6.250000000000001, as floating point steps give it
    assert speed.value == 6.25 and form.error is None
    assert seen[-1].dodger.basic_speed == Decimal("6.25") and str(seen[-1].dodger.basic_speed) == "6.25"
    speed.value = 6.3  # typed into the readout: the nearest quarter
    assert speed.value == 6.25 and form.error is None and len(seen) == 1
    speed.value = 7.4
    assert speed.value == 7.5 and seen[-1].dodger.basic_speed == Decimal("7.5") and len(seen) == 2
    luck = ScenarioForm(FAKE, FakeScenario()).control("defender.luck")
    luck.value = 0.1 + 0.2 + 0.45  # 0.75 + noise
    assert luck.value == 0.75


@pytest.mark.parametrize("system_id", ["infinity-n4", "gurps-4e", "eldfall", "d100-homebrew"])
def test_the_form_is_in_sections_a_reader_folds(system_id):
    """Each part, each list item and each group of the scenario's own fields is a foldable
    section; every field sits in one, except the few top-level choices (GURPS's situation)."""
    form = ScenarioForm(system_id)
    system = get_system(system_id)
    from rules_core.scenario import fields_of

    top = {s.name: s for s in fields_of(system.scenario_cls)}
    expected = {name for name, s in top.items() if s.kind == "part"}
    expected |= {f"{name}.{i}" for name, s in top.items() if s.kind == "parts"
                 for i in range(len(getattr(form.scenario, name)))}
    expected |= {f"group:{s.group}" for s in top.values() if s.group}
    assert set(form.sections) == expected
    loose = {p for p in form.paths() if not any(sec.holds(p) for sec in form.sections.values())}
    assert loose == {name for name, s in top.items() if s.kind not in ("part", "parts") and not s.group}
    for key, section in form.sections.items():
        body = list(all_widgets(section.body))
        assert section.open is None and {"wb-section-open", "wb-section-closed"}.isdisjoint(section.widget._dom_classes)
        for path in form.paths():  # a section's body holds exactly the controls it says it holds
            assert (form.control(path) in body) == section.holds(path), (key, path)


def test_a_section_folds_and_unfolds_and_keeps_the_choice_when_an_item_is_added():
    form = ScenarioForm(INF)
    dodger = form.sections["dodger"]
    assert by_class(dodger.widget, "wb-section-fold")[0].description == "▾ Dodger"
    dodger.fold.click()
    assert dodger.open is False and "wb-section-closed" in dodger.widget._dom_classes
    dodger.unfold.click()
    assert dodger.open is True and "wb-section-open" in dodger.widget._dom_classes
    assert "wb-section-closed" not in dodger.widget._dom_classes
    form.sections["attackers.0"].fold.click()
    form.control("attackers.0.burst").value = 2  # a folded control still changes the scenario
    assert form.scenario.attackers[0].burst == 2
    form.button("attackers.add").click()
    assert form.sections["attackers.0"].open is False and form.sections["attackers.1"].open is None
    assert form.button("attackers.1.remove") in list(all_widgets(form.sections["attackers.1"].body))
    form.reveal("attackers.0.burst")
    assert form.sections["attackers.0"].open is True and form.sections["dodger"].open is True


def test_a_refused_combination_opens_the_folded_section_of_its_field():
    from workbook.pages.dashboard import Dashboard

    dash = Dashboard("gurps-4e", query="")
    dash.form.sections["dodger"].fold.click()
    dash.form.control("dodger.defense").value = "dodge_and_drop"
    dash.form.control("dodger.posture").value = "lying"  # a dodge and drop needs you up
    assert dash.form.error and "wb-invalid" in dash.form.control("dodger.posture")._dom_classes
    assert dash.form.sections["dodger"].open is True
