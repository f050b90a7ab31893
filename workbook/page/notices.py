"""Notices in the reader's words, where the eye is.

:func:`link_notice` says why a shared link was refused the way a player would say it ("The link
asked for PH 99999; PH goes from 1 to 20. Showing the default scenario."), reading the link
field by field against the scenario's declared labels and ranges, then what the scenario's own
check refused (the problems :func:`workbook.page.share.decode_query` keeps: the exact checks stay
there, and the link is read once).

:class:`FieldMarks` follows a :class:`workbook.page.controls.ScenarioForm`: while a typed value is
refused, the field is marked (class ``wb-invalid``) with the reason beside it
(``wb-field-reason``), and the results box gets the class ``wb-stale`` (the numbers shown are
dimmed under a "not updated" line) until the value is valid again.
"""

from __future__ import annotations

import html
import json
import re
from fractions import Fraction
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl

import ipywidgets as widgets

from rules_core import ScenarioError, System
from rules_core.jsonio import LongNumber
from rules_core.scenario import Combination, FieldSpec, Part, Problem, fields_of, one_line, parse, spec_at

from .present import PAGE_KEYS, split_page_keys
from .share import LinkProblem, Shared, decode_query
from .text import field_place

__all__ = ["link_notice", "problem_words", "FieldMarks"]


def _range(spec: FieldSpec, text: Callable[[str], str]) -> str:
    label = text(spec.label)
    if spec.kind in ("int", "float"):
        step = f" {text('in steps of')} {float(spec.step):g}" if spec.step and spec.step != 1 else ""
        return (f"{label} {text('goes from')} {float(spec.minimum):g} {text('to')} "
                f"{float(spec.maximum):g}{step}")
    if spec.kind in ("choice", "ruling"):
        return f"{label} {text('is one of')}: " + ", ".join(text(lab) for _, lab in spec.choices)
    if spec.kind == "flag":
        return f"{label} {text('is on or off')}"
    if spec.kind == "text":
        return f"{label} {text('takes')} {text(spec.extra.get('allowed', ''))}"
    return label


def _value_words(spec: FieldSpec, value: Any, text: Callable[[str], str]) -> str:
    """A value as the page shows it: a choice by its label, a flag as on or off."""
    if spec.kind in ("choice", "ruling"):
        return text(dict(spec.choices).get(value, str(value)))
    if spec.kind == "flag" and isinstance(value, bool):
        return text("on" if value else "off")
    return str(value)


def _choice_words(cls: type[Part], deep: bool = True) -> dict[str, str]:
    """Every choice's id in ``cls``'s fields (and, ``deep``, its parts') and its label; an id
    two fields label differently is left out: a message quoting it cannot say which it means."""
    labels: dict[str, set[str]] = {}
    stack = [cls]
    while stack:
        for spec in fields_of(stack.pop()):
            if spec.kind in ("choice", "ruling"):
                for value, label in spec.choices:
                    labels.setdefault(str(value), set()).add(label)
            if deep and spec.part_cls is not None:
                stack.append(spec.part_cls)
    return {value: next(iter(found)) for value, found in labels.items() if len(found) == 1}


def _owner(cls: type[Part], path: str) -> type[Part]:
    """The part holding the dotted field ``path`` (the scenario for a field of its own)."""
    owner, current = cls, cls
    for step in path.split(".")[:-1]:
        if step.isdigit() or current is None:
            continue
        spec = {s.name: s for s in fields_of(current)}.get(step)
        if spec is None or spec.part_cls is None:
            return owner
        owner = current = spec.part_cls
    return owner


def _rule_words(system: System, field: str, spec: FieldSpec, allowed: str, text: Callable[[str], str]) -> str:
    """What a scenario's own check allows, in the reader's words: the system's translation when
    it has one, else the check's words with each quoted choice id ('shot_in_melee') as its label
    ("Shot fired in melee": the choices of the field's own part first) and a flag's true or
    false as on or off."""
    translated = text(allowed)
    if translated != allowed:
        return translated
    owner = _owner(system.scenario_cls, field)
    words = {**_choice_words(system.scenario_cls), **_choice_words(owner, deep=False)}
    named = {spec.name: dict(spec.choices) for spec in fields_of(owner) if spec.kind in ("choice", "ruling")}

    def label(match: re.Match) -> str:
        value, before = match.group(1), allowed[:match.start()].split()
        # "the defense is 'none'": the choice of the field named just before it
        for word in reversed(before[-3:]):
            if value in named.get(word, {}):
                return f"“{text(named[word][value])}”"
        return f"“{text(words[value])}”" if value in words else match.group(0)

    said = re.sub(r"'([A-Za-z0-9_]+)'", label, allowed)
    if spec.kind == "flag":
        said = re.sub(r"^(true|false)\b", lambda m: text("on" if m.group(1) == "true" else "off"), said)
    return said


def _combination_words(system: System, combination: Combination, text: Callable[[str], str]) -> str:
    """A combination the rules refuse, in the reader's words: each field's label and value, then
    the rule's own sentence (its citation, what the scenario has, the ways out) — the same words
    as the scenario's error in code ("Defense (Dodger) Dodge and drop (+3), Attack (Attack 1)
    Melee: a dodge and drop works only against ranged attacks (B377): ...")."""
    named = []
    for path, value in combination.values:
        spec, label = field_place(system.scenario_cls, path, text)
        words = _value_words(spec, value, text) if spec is not None and spec.kind != "parts" else str(value)
        named.append(f"{label} {words}")
    return f"{', '.join(named)}: {text(str(combination))}"


def _scenario_refusals(system: System, problems: tuple[LinkProblem, ...], text: Callable[[str], str]) -> list[str]:
    """Why the scenario a link spells out is refused although each number and choice in it is
    in range: a text field the rules cannot read ("Damage 4d8") or a value the other fields rule
    out (a cross-field check), each said with the field's label and what it takes. ``problems``:
    what the scenario's check refused (:attr:`workbook.page.share.Shared.problems`); none when the
    rules take the scenario, or when a key of the link names no field (the fallback says so)."""
    said = []
    for problem in problems:
        if isinstance(problem.allowed, Combination) and problem.allowed.values:
            said.append(f"{text('The link asked for')} {_combination_words(system, problem.allowed, text)}.")
            continue
        spec, named = field_place(system.scenario_cls, problem.field, text)
        if spec is None or spec.kind == "part":
            return []  # not one field of the scenario: the fallback says what it is
        asked = problem.asked
        value = asked if asked is not None and spec.kind in ("text", "int", "float") else \
            _value_words(spec, problem.given, text)
        value = value if len(value) <= 30 else value[:30] + "…"
        if spec.kind == "text":
            said.append(f"{text('The link asked for')} {named} {value}; {_range(spec, text)}.")
        else:
            said.append(f"{text('The link asked for')} {named} {value}; "
                        f"{text('with the rest of the scenario it must be')} "
                        f"{_rule_words(system, problem.field, spec, problem.allowed, text)}.")
    return said


def _fits(spec: FieldSpec, raw: str) -> bool:
    if spec.kind in ("int", "float"):
        try:
            value = Fraction(raw.strip())
        except (ValueError, ZeroDivisionError):
            return False
        # in range and on the field's step (d100 modifiers in fives, Basic Speed in quarters)
        return (spec.minimum <= value <= spec.maximum
                and abs(Fraction(spec.nearest(value)) - value) <= Fraction(1, 10**9))
    if spec.kind in ("choice", "ruling"):
        return raw in [str(v) for v, _ in spec.choices]
    return True


def problem_words(system: System, problem: Problem, text: Callable[[str], str] = str) -> str:
    """One refused field of a scenario (from a file: a JSON value) in the reader's words, as a
    link's refusal says it: "PH (Dodger) 99: PH goes from 0 to 30", or, for a value in range that
    the other fields rule out, what it must be with them; a key the scenario does not have, or a
    block or list it cannot read, said as such."""
    if isinstance(problem.allowed, Combination) and problem.allowed.values:
        return _combination_words(system, problem.allowed, text)
    spec, named = field_place(system.scenario_cls, problem.field, text)
    if spec is None:
        return f"“{one_line(problem.field, 40)}”: {text('no such field')}"
    if spec.kind in ("part", "parts"):
        return f"{named}: {text('cannot be read in this form')}"
    given = problem.given
    # a value as the file wrote it (JSON's true, not Python's True), a choice by its label
    value = (json.dumps(given, ensure_ascii=False)
             if isinstance(given, (int, float, list, dict, type(None))) and spec.kind not in ("choice", "ruling", "flag")
             else _value_words(spec, given, text))
    value = value if len(value) <= 30 else value[:30] + "…"
    if isinstance(given, LongNumber):
        value = text("a whole number of {digits:,} digits").format(digits=given.digits)
    number = isinstance(given, (int, float)) and not isinstance(given, bool)
    typed = {"int": number, "float": number, "flag": isinstance(given, bool),
             "choice": isinstance(given, str), "ruling": isinstance(given, str)}.get(spec.kind, False)
    if typed and _fits(spec, str(given)):
        return (f"{named} {value}: {text('with the rest of the scenario it must be')} "
                f"{_rule_words(system, problem.field, spec, problem.allowed, text)}")
    # JSON says what a value is: a number written as text, or a flag as anything but true/false
    hint = (text("a number, written without quotes") if spec.kind in ("int", "float") and isinstance(given, str)
            else text("true or false") if spec.kind == "flag" and not typed else None)
    shown = f"“{value}”" if isinstance(given, str) and spec.kind not in ("choice", "ruling", "text") else value
    return f"{named} {shown}: {_range(spec, text)}" + (f" ({hint})" if hint else "")


def link_notice(system: System, query: str, text: Callable[[str], str] = str,
                fallback: str = "", end: str = "Showing the default scenario.", *,
                shared: Shared | None = None) -> str:
    """Why ``query`` could not be used, in a player's words, then ``end`` (what the page shows
    instead); when nothing more specific is found, ``fallback``
    (:func:`workbook.page.share.decode_query`'s own notice) says it. ``shared``: what
    :func:`workbook.page.share.decode_query` made of ``query`` (its problems are said); read here
    when not given."""
    end = text(end)
    try:
        pairs = parse_qsl((query or "").lstrip("?"), keep_blank_values=True, max_num_fields=300)
    except ValueError:
        return f"{text('The link names too many fields.')} {end}"
    said = []
    for key, raw in pairs:
        if key == "system" and raw != system.id:
            said.append(f"{text('This link is for another page')} (“{raw[:30]}”).")
        if key in ("lang", "system", *PAGE_KEYS):
            continue
        shown = raw if len(raw) <= 30 else raw[:30] + "…"
        if key == "preset":
            if raw not in [p.name for p in system.presets]:
                said.append(f"{text('The link asked for the example')} “{shown}”, "
                            f"{text('which this page does not have')}.")
            continue
        spec, named = field_place(system.scenario_cls, key, text)
        item = _item_beyond(system, key, text)
        if item:
            said.append(item)
        elif spec is None:
            said.append(f"{text('The link names')} “{key[:40]}”, {text('which this page does not have')}.")
        elif spec.kind not in ("part", "parts") and not _fits(spec, raw):
            said.append(f"{text('The link asked for')} {named} {shown}; "
                        f"{_range(spec, text)}.")
    if not said:
        if shared is None:
            shared = decode_query(system, split_page_keys(query, PAGE_KEYS)[0])
        said = _scenario_refusals(system, shared.problems, text)
    if not said:
        reason = fallback.split(": ", 1)[-1] if fallback else ""
        return f"{text('This link could not be used')}" + (f" ({reason})" if reason else "") + f". {end}"
    return " ".join(said[:3]) + f" {end}"


def _item_beyond(system: System, key: str, text: Callable[[str], str] = str) -> str:
    """What to say when ``key`` names a list item past the list's longest (else ``""``)."""
    cls, steps, i = system.scenario_cls, key.split("."), 0
    while i < len(steps) and cls is not None:
        spec = {s.name: s for s in fields_of(cls)}.get(steps[i])
        if spec is None:
            return ""
        if spec.kind == "parts" and i + 1 < len(steps) and steps[i + 1].isdigit():
            if int(steps[i + 1]) >= spec.max_items:
                return (f"{text('The link asked for')} {text(spec.label)} {int(steps[i + 1]) + 1}; "
                        f"{text('there are at most')} {spec.max_items}.")
            i += 1
        cls, i = spec.part_cls, i + 1
    return ""


def _problems(form: Any) -> list[tuple[str, str, str, bool]]:
    """``(dotted field, its label, what is allowed, whether it is a refused combination)`` for
    each field the form's current values break (a cross-field check's own message as what is
    allowed; every field of a refused combination, each with the combination's words)."""
    data = {"system": form.system.id, **form._root.value()}
    try:
        parse(form.system.scenario_cls, data)
    except ScenarioError as err:
        out = []
        for problem in err.problems:
            if isinstance(problem.allowed, Combination) and problem.allowed.values:
                # every field of the combination is marked, each with the rule's own sentence
                said = _combination_words(form.system, problem.allowed, form.text)
                for path in problem.allowed.fields():
                    spec = spec_at(form.system.scenario_cls, tuple(int(s) if s.isdigit() else s for s in path.split(".")))
                    out.append((path, form.text(spec.label) if spec is not None else path, said, True))
                continue
            steps = tuple(int(s) if s.isdigit() else s for s in problem.field.split("."))
            spec = spec_at(form.system.scenario_cls, steps)
            label = form.text(spec.label) if spec is not None else problem.field
            allowed = problem.allowed
            if spec is not None and spec.kind != "text":  # a text field's notation says why itself
                allowed = _rule_words(form.system, problem.field, spec, allowed, form.text)
            out.append((problem.field, label, allowed, False))
        return out
    return []


class FieldMarks:
    """Marks the fields a form refuses, and the ``results`` box as stale (see the module)."""

    def __init__(self, form: Any, results: widgets.Widget, banner: widgets.HTML | None = None):
        self.form, self.results, self.banner = form, results, banner
        self.reasons: dict[str, tuple[Any, widgets.HTML]] = {}
        form.notice.observe(lambda _change: self.refresh(), names="value")

    def refresh(self) -> None:
        """Mark (or clear) every field after the form accepted or refused its values."""
        self.close()
        for field in self.form._fields():
            field.input.remove_class("wb-invalid")
        if not self.form.error:
            self.results.remove_class("wb-stale")
            if self.banner is not None:
                self.banner.value = ""
            return
        self.results.add_class("wb-stale")
        problems = _problems(self.form)
        if self.banner is not None:
            text = self.form.text
            # a combination's sentence names its fields itself: said once, not once per field
            said = "; ".join(dict.fromkeys(allowed if combined else f"{label}: {allowed}"
                                           for _, label, allowed, combined in problems)) or self.form.error
            self.banner.value = (f'<div>{html.escape(text("Not updated — fix the marked field"))} '
                                 f'({html.escape(said)}). '
                                 f'{html.escape(text("The numbers below are for the last valid scenario."))}</div>')
        fields = {".".join(str(p) for p in f.path): f for f in self.form._fields()}
        for path, _label, reason, _combined in problems:
            field = fields.get(path)
            if field is None:
                continue
            field.input.add_class("wb-invalid")
            if hasattr(self.form, "reveal"):  # a folded section opens on the marked field
                self.form.reveal(path)
            box = widgets.HTML(f'<div class="wb-field-reason">{html.escape(reason)}</div>')
            box.add_class("wb-field-reason-box")
            self.reasons[path] = (field, box)
            field.show_reason(box)

    def close(self) -> None:
        """Remove the reasons shown (the form's widgets are the form's)."""
        for field, box in self.reasons.values():
            field.drop_reason(box)
            box.close()
        self.reasons.clear()
