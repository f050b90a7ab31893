"""The exact result of evaluating a scenario: outcomes, headline quantities, trace."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from .dist import Dist
from .names import near_names
from .scenario import Scenario
from .trace import TraceStep
from .variants import HouseRule, house_rules

__all__ = ["TraceStep", "Result", "COMMON_HEADLINES", "exact", "fraction_text", "number_shown", "decimal", "percent",
           "one_in", "headline_label", "UnknownDistribution"]

#: Headline quantities every system provides, with one meaning everywhere (docs/quantities.md).
COMMON_HEADLINES = ("p_dodge_succeeds", "p_no_hit", "expected_hits")

#: The common headlines' readable names (the rest are read from their keys: :func:`headline_label`).
_COMMON_LABELS = {
    "p_dodge_succeeds": "P(dodge succeeds)",
    "p_no_hit": "P(no hit lands)",
    "expected_hits": "Expected hits landing",
}


#: The descriptions registered rules give their own headlines, by rule id, in the order registered
#: (kept by :func:`rules_core.registry.register`: :func:`name_own_headlines`).
_OWN_LABELS: dict[str, dict[str, str]] = {}


def name_own_headlines(rule_id: str, texts: Mapping[str, str] | None) -> None:
    """Name a registered rule's own headlines by their descriptions (``{key: text}``) on every card
    and table; None: the rule is no longer registered."""
    _OWN_LABELS.pop(rule_id, None)
    if texts is not None:
        _OWN_LABELS[rule_id] = {k: t.strip() for k, t in texts.items() if t.strip()}


def headline_label(key: str) -> str:
    """Readable English name of a headline quantity (or of a worth: ``hits_avoided``): the one
    source of the names on every card and table, the result's own display and the workbook's
    (which translates them: ``System.text``, then the workbook's own words). A registered
    designer's rule names its own headlines by their descriptions (``probability(text, ...)``,
    without a closing full stop; the rule registered last, if two share a key).

    >>> headline_label("p_no_hit"), headline_label("p_guts_fails"), headline_label("expected_wounds")
    ('P(no hit lands)', 'P(guts fails)', 'Expected wounds')
    """
    if key in _COMMON_LABELS:
        return _COMMON_LABELS[key]
    own = next((texts[key] for texts in reversed(_OWN_LABELS.values()) if key in texts), None)
    if own:
        return own[:-1] if own.endswith(".") and not own.endswith("..") else own
    words = key.split("_")
    if words[0] == "p" and len(words) > 1:
        return f"P({' '.join(words[1:])})"
    return " ".join(words).capitalize()


class UnknownDistribution(KeyError):
    """A name that is none of a result's distributions (a ``KeyError``, as a missing key of
    ``result.distributions`` is); its text names the near names and every one there is."""

    def __str__(self) -> str:
        return str(self.args[0])


def fraction_text(value: Fraction | int) -> str:
    """The one exact-number form everywhere: ``"n/d"`` (``"n/1"`` for a whole number).

    >>> fraction_text(Fraction(47, 500)), fraction_text(3)
    ('47/500', '3/1')
    """
    value = Fraction(value)
    return f"{value.numerator}/{value.denominator}"


def number_shown(value: Fraction | int) -> str:
    """An exact number as a reader sees it: ``"n/d"``, a whole number as itself (``"0"``, not
    ``"0/1"``), as Python writes a ``Fraction``. Data (JSON, CSV) keeps :func:`fraction_text`.

    >>> number_shown(Fraction(47, 500)), number_shown(Fraction(0)), number_shown(3)
    ('47/500', '0', '3')
    """
    return str(Fraction(value))


def decimal(value: Fraction | float, digits: int = 4) -> str:
    """A number to ``digits`` significant digits for display, never in exponent form: Python's
    ``4g`` writes 1/250000 as ``4e-06``, which a player does not read and a Russian page cannot
    give its decimal comma.

    >>> decimal(Fraction(39, 20)), decimal(Fraction(1, 250000)), decimal(123456.7), decimal(0), decimal(-0.5)
    ('1.95', '0.000004', '123457', '0', '-0.5')
    """
    x = float(value)
    if x == 0 or not math.isfinite(x):
        return f"{x:g}"
    text = f"{x:.{max(0, digits - 1 - math.floor(math.log10(abs(x))))}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def percent(p: Fraction, digits: int = 1) -> str:
    """A probability as a percentage (``"9.4%"``), for display only."""
    return f"{float(p):.{digits}%}"


def exact(value: Fraction | int) -> dict[str, Any]:
    """JSON form of an exact number: ``{"exact": "n/d", "float": x}``."""
    return {"exact": fraction_text(value), "float": float(Fraction(value))}


def one_in(p: Fraction) -> str:
    """"1 in N" wording of a probability (N rounded to 3 significant digits)."""
    if p <= 0:
        return "never"
    n = 1 / p
    if n == 1:
        return "always"
    return f"1 in {float(n):.3g}" if n < 1000 else f"1 in {round(float(n)):,}"


@dataclass(frozen=True)
class Result:
    """What a scenario evaluates to, exactly.

    - ``outcomes``: distribution over readable outcome labels; ``outcome_order`` lists every
      label in display order (impossible ones included, so tables have stable rows).
    - ``hits``: distribution of the number of hits landing on the defender.
    - ``headline``: the common quantities (:data:`COMMON_HEADLINES`) plus system-specific ones,
      each a ``Fraction`` or ``None`` (with the reason in ``notes``).
    - ``distributions``: further named distributions (wounds, injury, ...).
    - ``trace``: the rules and modifiers applied, each with its citation.
    """

    system: str
    scenario: Scenario
    outcomes: Dist
    outcome_order: tuple[str, ...]
    hits: Dist
    headline: Mapping[str, Fraction | None]
    trace: tuple[TraceStep, ...]
    notes: Mapping[str, str] = field(default_factory=dict)
    distributions: Mapping[str, Dist] = field(default_factory=dict)

    def __post_init__(self) -> None:
        missing = [k for k in COMMON_HEADLINES if k not in self.headline]
        if missing:
            raise ValueError(f"result lacks headline quantities {missing}")
        for key, value in self.headline.items():
            if value is None and key not in self.notes:
                raise ValueError(f"headline {key!r} is null without a note saying why")
            if value is not None and not isinstance(value, Fraction):
                raise TypeError(f"headline {key!r} must be a Fraction, got {type(value).__name__}")
        unknown = set(self.outcomes.outcomes()) - set(self.outcome_order)
        if unknown:
            raise ValueError(f"outcomes missing from outcome_order: {sorted(unknown)}")
        object.__setattr__(self, "headline", MappingProxyType(dict(self.headline)))
        object.__setattr__(self, "notes", MappingProxyType(dict(self.notes)))
        object.__setattr__(self, "distributions", MappingProxyType(dict(self.distributions)))

    def outcome_rows(self) -> list[tuple[str, Fraction]]:
        """``(label, probability)`` for every outcome in display order."""
        return [(label, self.outcomes[label]) for label in self.outcome_order]

    def distribution(self, name: str | None = None) -> Dist:
        """A distribution of the result by name: ``None`` (or ``"outcomes"``) the outcomes,
        ``"hits"`` the hits landing, else one of :attr:`distributions` (``"injury"``,
        ``"wounds"``, ...); :class:`UnknownDistribution` naming the near names and every
        available one otherwise."""
        if name is None or name == "outcomes":
            return self.outcomes
        if name in self.distributions:
            return self.distributions[name]
        if name == "hits":
            return self.hits
        known = [*self.distributions]
        near = near_names(name, {k: k for k in [*known, "hits", "outcomes"]}) if isinstance(name, str) else ""
        said = f"did you mean {near}? " if near else ""
        named = ", ".join(repr(k) for k in known) or "none"
        raise UnknownDistribution(
            f"this {self.system} result has no distribution {name!r}; {said}its distributions: {named} "
            "(and 'hits', the hits landing; 'outcomes' or None, the outcomes)")

    def label(self, key: str) -> str:
        """The readable name of a headline quantity (:func:`headline_label`)."""
        return headline_label(key)

    def p_at_least_hits(self) -> list[tuple[int, Fraction]]:
        """``(k, P(at least k hits land))`` for k = 1 .. the most hits possible."""
        most = max(self.hits.outcomes())
        return [(k, self.hits.at_least(k)) for k in range(1, most + 1)]

    # -- working in code: plotting and the notebook's display (frames: workbook.explore) ------

    def headline_floats(self) -> dict[str, float | None]:
        """The headline as floats (None stays None), for plotting and arithmetic."""
        return {key: None if v is None else float(v) for key, v in self.headline.items()}

    def _house_rules(self) -> tuple[HouseRule, ...]:
        """The house rules of the scenario (:func:`rules_core.variants.house_rules`)."""
        return house_rules(self.scenario)

    def _house_rule_line(self) -> str:
        """``"house rule: MOD cap (±) 2 (official 12)"`` ("house rules: a; b"), or ``""``."""
        rules = self._house_rules()
        if not rules:
            return ""
        return f"house rule{'s' if len(rules) > 1 else ''}: " + "; ".join(map(str, rules))

    def __repr__(self) -> str:
        shown = ", ".join(f"{key}={'None' if v is None else number_shown(v)}"
                          for key, v in self.headline.items())
        house = self._house_rule_line()
        return (f"<Result {self.system}{f' [{house}]' if house else ''}: {shown}; "
                f"{len(self.outcome_order)} outcomes, {len(self.trace)} trace steps>")

    def _repr_html_(self) -> str:
        """Headline cards (under a line per house rule, if any), each named by its label
        (:func:`headline_label`, as every table is) with its key on hover, the
        outcome table, and the trace and scenario folded."""
        from .markup import cards, details, escape, table

        def card(key: str, v: Fraction | None) -> tuple[str, str, str, str]:
            hint = f"headline[{key!r}]"
            if v is None:
                return self.label(key), "—", self.notes.get(key, ""), hint
            if key.startswith("p_"):
                return self.label(key), percent(v, 2), f"{number_shown(v)} · {one_in(v)}", hint
            return self.label(key), decimal(v), number_shown(v), hint

        outcomes = table(["outcome", "exact", "percent", "1 in N"], (
            [escape(label), escape(number_shown(p)), escape(percent(p, 2)), escape(one_in(p))]
            for label, p in self.outcome_rows()))
        steps = "".join(f"<li>{escape(step)}</li>" for step in self.trace)
        steps = f"<ol style='font-size:90%'>{steps}</ol>"
        house = "".join(
            f"<div>House rule: <b>{escape(rule)}</b>"
            + (f" <small>[{escape(rule.citation)}]</small>" if rule.citation else "") + "</div>"
            for rule in self._house_rules())
        house = house and ("<div class='rc-house-rule' style='border-left:4px solid #E69F00;"
                           f"background:#fff6e0;padding:2px 8px;margin:4px 0'>{house}</div>")
        return (f"<div class='rc-result'><b>{escape(self.system)}</b>" + house
                + cards(card(k, v) for k, v in self.headline.items()) + outcomes
                + details(f"Trace of the rules applied ({len(self.trace)} steps)", steps)
                + details("Scenario", self.scenario._repr_html_()) + "</div>")

    def to_data(self) -> dict[str, Any]:
        """JSON-ready form: every probability as an exact "n/d" string and a float; under
        ``"house_rules"`` every rule constant changed from its official value (an empty list
        under the official rule), each with its path, label, value, official value and citation."""
        def rows(d: Dist) -> list[dict[str, Any]]:
            return [{"value": o, **exact(p)} for o, p in d.items()]

        return {
            "system": self.system,
            "scenario": self.scenario.to_data(),
            "house_rules": [rule._asdict() for rule in self._house_rules()],
            "headline": {k: (None if v is None else exact(v)) for k, v in self.headline.items()},
            "notes": dict(self.notes),
            "outcomes": [{"label": label, **exact(p)} for label, p in self.outcome_rows()],
            "hits": rows(self.hits),
            "distributions": {name: rows(d) for name, d in self.distributions.items()},
            "trace": [{"rule": t.rule, "detail": t.detail, "citation": t.citation} for t in self.trace],
        }
