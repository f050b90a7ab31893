"""One step of a trace: a rule or modifier applied, what it did, and where it is written; and
the numbers of a step's text as a language writes them (:func:`localised_numbers`).

Its own module so that both a result (:mod:`rules_core.result`) and the rule variants
(:mod:`rules_core.variants`), which a result reads to mark its house rules, can build on it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["TraceStep", "localised_numbers", "NUMBER_STYLES", "NBSP"]

#: The no-break space (U+00A0): between thousands and before ``%`` in Russian, so a number never
#: breaks over two lines.
NBSP = "\u00a0"

#: How a language writes numbers, where it differs from English: (decimal mark, thousands
#: separator, what stands before ``%``). Russian after GOST R 7.0.97 and the Russian typographic
#: habit: ``1\u00a0234,5``, ``45,00\u00a0%``.
NUMBER_STYLES: dict[str, tuple[str, str, str]] = {"ru": (",", NBSP, NBSP)}

_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_DECIMAL = re.compile(r"(?<=\d)\.(?=\d)")
_PERCENT = re.compile(r"(?<=\d)\s?%")


def localised_numbers(sentence: str, lang: str | None = "en") -> str:
    """The numbers inside a sentence written the English way (a trace step's detail:
    ``39/20 ≈ 1.95``, ``12,800 rolls``, ``45%``) as ``lang`` writes them; words, fractions and
    whole numbers are left alone, and a language without a style of its own is English.

    >>> localised_numbers("landing: 39/20 ≈ 1.95 of 12,800, 45%", "ru").replace(NBSP, "_")
    'landing: 39/20 ≈ 1,95 of 12_800, 45_%'
    >>> localised_numbers("landing: 39/20 ≈ 1.95", "en")
    'landing: 39/20 ≈ 1.95'
    """
    style = NUMBER_STYLES.get(lang or "en")
    if style is None:
        return sentence
    decimal, thousands, before = style
    sentence = _THOUSANDS.sub("\0", sentence)
    sentence = _DECIMAL.sub(decimal, sentence).replace("\0", thousands)
    return _PERCENT.sub(before + "%", sentence)


@dataclass(frozen=True, init=False)
class TraceStep:
    """One rule or modifier applied: its name, what it did here, and where it is written."""

    rule: str
    detail: str
    citation: str = ""

    # By hand, as Play's: a rule that writes its trace on every way the dice fall builds one here
    # each time, and the generated frozen __init__ took twice as long.
    def __init__(self, rule: str, detail: str, citation: str = "") -> None:
        fields = self.__dict__
        fields["rule"], fields["detail"], fields["citation"] = rule, detail, citation

    def __str__(self) -> str:
        return f"{self.rule}: {self.detail}" + (f" [{self.citation}]" if self.citation else "")
