"""One step of a trace: a rule or modifier applied, what it did, and where it is written.

Its own module so that both a result (:mod:`rules_core.result`) and the rule variants
(:mod:`rules_core.variants`), which a result reads to mark its house rules, can build on it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["TraceStep"]


@dataclass(frozen=True)
class TraceStep:
    """One rule or modifier applied: its name, what it did here, and where it is written."""

    rule: str
    detail: str
    citation: str = ""

    def __str__(self) -> str:
        return f"{self.rule}: {self.detail}" + (f" [{self.citation}]" if self.citation else "")
