"""The list of dashboards, for the index notebook: every registered system that has a
notebook, found by name, so a new system's notebook appears without editing the index.

A notebook belongs to a system when its name is the system's id, or the id followed by ``-``
and more (``infinity-n4-dodge.ipynb`` belongs to ``infinity-n4``). Links are relative
(``infinity-n4-dodge.ipynb``), so they work from the index under ``voila notebooks/`` (where
the index is ``/voila/render/index.ipynb``) and in JupyterLab alike.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path
from typing import Callable

import ipywidgets as widgets

from rules_core import Preset, ScenarioError, System, all_systems, evaluate
from rules_core.compare import Worth, worth
from rules_core.scenario import Scenario

from ..page.layout import OKABE_ITO
from ..page.views import RuleKey, rule_key

__all__ = ["Entry", "notebooks_folder", "dashboards", "index", "lead", "picture", "card_picture", "PICTURES",
           "systems_with_evasion", "default_preset", "scenario_worth", "CURVE_COLOURS", "games_title"]

INDEX = "index.ipynb"
_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                 "twelve")


def games_title(count: int) -> str:
    """The name of the page of games for ``count`` games side by side: the four built in, and
    each registered rule of a designer's that declares its evasion.

    >>> games_title(4), games_title(5), games_title(1), games_title(14)
    ('One dodge, four games', 'One dodge, five games', 'One dodge, one game', 'One dodge, 14 games')
    """
    word = _NUMBER_WORDS[count] if 0 <= count < len(_NUMBER_WORDS) else str(count)
    return f"One dodge, {word} game{'' if count == 1 else 's'}"


#: Titles of the pages that belong to no one system (a function: said when asked, from the
#: systems registered then).
PAGE_TITLES = {"compare-systems.ipynb": lambda: games_title(len(systems_with_evasion()))}


@dataclass(frozen=True)
class Entry:
    """One dashboard: its notebook's file name and its system (None for a notebook that
    belongs to no registered system)."""

    notebook: str
    system: System | None

    @property
    def title(self) -> str:
        if self.system is not None:
            return self.system.name
        title = PAGE_TITLES.get(self.notebook)
        if title is not None:
            return title() if callable(title) else title
        return Path(self.notebook).stem.replace("-", " ")


def notebooks_folder() -> Path:
    """The project's ``notebooks/`` folder (beside the ``workbook`` package)."""
    return Path(__file__).resolve().parents[2] / "notebooks"


def _owner(stem: str, known: dict[str, System]) -> System | None:
    matches = [s for sid, s in known.items() if stem == sid or stem.startswith(sid + "-")]
    return max(matches, key=lambda s: len(s.id), default=None)


def dashboards(folder: Path | str | None = None) -> list[Entry]:
    """Every notebook in ``folder`` except the index: registered systems' dashboards first
    (in registry order), then any other notebook."""
    folder = Path(folder) if folder is not None else notebooks_folder()
    known = dict(all_systems())
    found = [p.name for p in sorted(folder.glob("*.ipynb")) if p.name != INDEX]
    entries = [Entry(name, _owner(Path(name).stem, known)) for name in found]
    order = list(known)
    return sorted(entries, key=lambda e: (e.system is None,
                                          order.index(e.system.id) if e.system else 0, e.notebook))


def heading(folder: Path | str, notebook: str) -> str:
    """The notebook's title: its first Markdown heading, as plain text (``""`` when none)."""
    try:
        cells = json.loads((Path(folder) / notebook).read_text(encoding="utf-8")).get("cells", [])
        text = next("".join(c["source"]) for c in cells if c.get("cell_type") == "markdown")
    except (OSError, ValueError, StopIteration, KeyError, TypeError):
        return ""
    found = re.search(r"^#\s+(.+)$", text, re.M)
    return re.sub(r"[*_`]", "", found.group(1)).strip() if found else ""


def lead(folder: Path | str, notebook: str) -> str:
    """The notebook's one-line summary: the first paragraph under its title (from
    ``<stem>.en.md`` when its words live there, see :mod:`workbook.pages.explain`), as plain text;
    ``""`` when it has none."""
    folder, stem = Path(folder), Path(notebook).stem
    try:
        words = folder / f"{stem}.en.md"
        if words.is_file():
            text = words.read_text(encoding="utf-8")
        else:
            cells = json.loads((folder / notebook).read_text(encoding="utf-8")).get("cells", [])
            text = next("".join(c["source"]) for c in cells if c.get("cell_type") == "markdown")
    except (OSError, ValueError, StopIteration, KeyError, TypeError):
        return ""
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]
    body = [p for p in paragraphs if not p.startswith(("#", "<!--"))]
    if not body:
        return ""
    first = re.sub(r"[*_`]", "", " ".join(body[0].split()))
    sentence = re.match(r"(.+?[.!?])(\s|$)", first)
    return sentence.group(1) if sentence else first


#: Okabe–Ito colours, safe for colour-blind readers, one per system in registry order: the
#: four-games chart's curves (workbook.pages.four_games) and its card's picture.
CURVE_COLOURS = tuple(OKABE_ITO[name] for name in ("blue", "orange", "bluish green", "reddish purple",
                                                   "vermillion", "sky blue"))


def systems_with_evasion() -> tuple[System, ...]:
    """Every registered system that declares its evasion, in registry order."""
    return tuple(s for s in all_systems().values() if s.evasion is not None)


def scenario_worth(scenario: Scenario) -> Worth:
    """:func:`rules_core.compare.worth` of ``scenario``, kept: choosing the default preset and
    showing it on the four-games page ask for the same scenario's worth, computed once (per
    system registered for it: a designer's rule registered again is asked again)."""
    return _kept_worth(scenario, rule_key(scenario))


@lru_cache(maxsize=64)
def _kept_worth(scenario: Scenario, rule: RuleKey) -> Worth:
    return worth(scenario)


scenario_worth.cache_clear = _kept_worth.cache_clear  # type: ignore[attr-defined]


def default_preset(system: System) -> str:
    """The first preset where the defender reacts and the reaction can be taken away (what the
    four-games page shows of the system first); found once for the system's presets."""
    return _default_preset(system.presets, RuleKey(system))


@cache
def _default_preset(presets: tuple[Preset, ...], rule: RuleKey) -> str:
    for preset in presets:
        try:
            made = scenario_worth(preset.scenario).with_.headline["p_dodge_succeeds"] is not None
        except ScenarioError:
            continue
        if made:
            return preset.name
    return presets[0].name


_W, _H = 132, 56  # a card picture's size, in pixels
_BLUE, _ORANGE, _GREEN, _PURPLE, _VERMILLION = (OKABE_ITO[name] for name in (
    "blue", "orange", "bluish green", "reddish purple", "vermillion"))


def _svg(label: str, body: str, width: int = _W, height: int = _H) -> str:
    """A card picture: ``body`` (SVG shapes) on the cards' pale ground, named ``label``."""
    return (f'<svg class="wb-index-picture" role="img" aria-label="{html.escape(label, quote=True)}" '
            f'width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
            f'<rect width="{width}" height="{height}" fill="#f7faff"/>{body}</svg>')


def _exact(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _bars(values: list[tuple[str, Fraction]], colours: tuple[str, ...] = (_BLUE,), width: int = _W,
          height: int = _H) -> str:
    """Bars of ``values`` (label, exact value) side by side, the tallest filling the height; the
    colours taken in turn (two colours: pairs of bars); exact values in each bar's tooltip."""
    most = max((p for _, p in values), default=Fraction(1)) or Fraction(1)
    gap, n = 3, max(len(values), 1)
    bar = (width - gap * (n + 1)) / n
    out = []
    for i, (label, p) in enumerate(values):
        h = max(1.0, float(p / most) * (height - 4))
        out.append(f'<rect x="{gap + i * (bar + gap):.1f}" y="{height - h:.1f}" width="{bar:.1f}" '
                   f'height="{h:.1f}" fill="{colours[i % len(colours)]}"><title>{html.escape(str(label))}: '
                   f"{_exact(p)}</title></rect>")
    return "".join(out)


def _line(points: list[tuple[float, float]], colour: str, title: str, dash: str = "") -> str:
    """A polyline through ``points`` (x and y from 0 to 1, y upwards) inside the picture."""
    pad = 4
    xy = " ".join(f"{pad + x * (_W - 2 * pad):.1f},{_H - pad - y * (_H - 2 * pad):.1f}" for x, y in points)
    dashed = f' stroke-dasharray="{dash}"' if dash else ""
    return (f'<polyline points="{xy}" fill="none" stroke="{colour}" stroke-width="2"{dashed}>'
            f"<title>{html.escape(title)}</title></polyline>")


def picture(system: System, width: int = _W, height: int = _H) -> str:
    """A small inline SVG of the system's default scenario: its outcome probabilities as bars
    (Okabe–Ito blue), exact values in each bar's tooltip (drawn once for that scenario)."""
    return _outcome_picture(system.name, system.default_scenario(), width, height)


@lru_cache(maxsize=32)
def _outcome_picture(name: str, scenario: Scenario, width: int, height: int) -> str:
    rows = evaluate(scenario).outcome_rows()
    return _svg(f"{name}: outcome chart", _bars([(str(label), p) for label, p in rows], width=width,
                                                height=height), width, height)


# The pictures below depend on nothing but the rules and the presets: each is drawn once.

def _four_games_picture() -> str:
    """The four-games chart in small: each game's worth of its reaction (P(no hit) gained)
    against the chance of one unopposed evasion roll, at a few values of its attribute; every
    registered system that declares its evasion (a designer's rule too), drawn once per set of
    games and their scenarios."""
    return _games_picture(tuple((RuleKey(s), s.name, s.evasion.attribute, s.preset(default_preset(s)).scenario)
                                for s in systems_with_evasion()))


@cache
def _games_picture(games: tuple[tuple[RuleKey, str, str, Scenario], ...]) -> str:
    from rules_core.compare import worth_curve
    from rules_core.sweeps import allowed_values

    lines = []
    for i, (_id, name, attribute, scenario) in enumerate(games):
        values = allowed_values(scenario, attribute)
        chosen = values[::max(1, len(values) // 8)] + (values[-1:] if (len(values) - 1) % max(1, len(values) // 8) else ())
        curve = worth_curve(scenario, chosen)
        best = max(p.worth.gained["p_no_hit"] for p in curve)
        lines.append(_line([(float(p.unopposed), float(p.worth.gained["p_no_hit"])) for p in curve],
                           CURVE_COLOURS[i % len(CURVE_COLOURS)],
                           f"{name}: the dodge gains up to {_exact(best)} of P(no hit)"))
    return _svg(f"{games_title(len(games))}: what the reaction is worth in each game", "".join(lines))


#: the index draws each picture once (tests/workbook/test_catalog.py forgets them)
_four_games_picture.cache_clear = _games_picture.cache_clear  # type: ignore[attr-defined]


@cache
def _bell_and_flat_picture() -> str:
    """Chance of an unopposed success by score: 3d6 under the score (GURPS) against a d20 under
    the attribute (Eldfall), each from the system's own roll."""
    from rules_core.systems.eldfall.dice import attribute_roll
    from rules_core.systems.gurps_4e.dice import success_roll

    scores = range(3, 21)
    bell = [Fraction(sum(success_roll(a + b + c, s).success for a in range(1, 7) for b in range(1, 7)
                         for c in range(1, 7)), 216) for s in scores]
    flat = [Fraction(sum(attribute_roll(face, s) != "failure" for face in range(1, 21)), 20) for s in scores]
    x = [(s - 3) / 17 for s in scores]
    return _svg("A bell against a flat line: 3d6 and d20", _line(list(zip(x, map(float, bell))), _BLUE,
                "GURPS: 3d6 under the score, 3 to 20: " + ", ".join(map(_exact, bell)))
                + _line(list(zip(x, map(float, flat))), _VERMILLION,
                        "Eldfall: d20 under the attribute, 3 to 20: " + ", ".join(map(_exact, flat)), "4 2"))


@cache
def _three_attackers_picture() -> str:
    """One dodge die against one, two and three Fusiliers (blue) beside the product of separate
    dodges (orange): the exact chance that the dodge beats them all."""
    base = all_systems()["infinity-n4"].preset("zhanshi-vs-fusilier").scenario
    data = base.to_data()
    single = evaluate(base).headline["p_dodge_succeeds"]
    bars = []
    for k in (1, 2, 3):
        shots = evaluate({**data, "attackers": [dict(data["attackers"][0]) for _ in range(k)]})
        bars += [(f"{k} Fusilier(s), one die against all", shots.headline["p_dodge_succeeds"]),
                 (f"{k} Fusilier(s), as separate dodges", single ** k)]
    return _svg("One die against three attackers", _bars(bars, (_BLUE, _ORANGE)))


@cache
def _leftover_picture() -> str:
    """The d100 preset of two attacks: its outcome probabilities."""
    result = evaluate(all_systems()["d100-homebrew"].preset("two-attacks-leftovers").scenario)
    return _svg("Leftover Successes: the outcomes of two attacks",
                _bars([(str(label), p) for label, p in result.outcome_rows()], (_GREEN,)))


@cache
def _sampling_picture() -> str:
    """A seeded simulation's running estimate of P(no hit) settling on the exact value (dashed)."""
    from rules_core.simulate import simulate_steps

    system = all_systems()["d100-homebrew"]
    scenario = system.presets[0].scenario
    result = evaluate(scenario)
    exact = result.headline["p_no_hit"]
    steps = list(simulate_steps(system, scenario, 600, seed=1, chunk=20))
    estimates = [step.estimates(system, result)["p_no_hit"].simulated for step in steps]
    x = [i / (len(estimates) - 1) for i in range(len(estimates))]
    spread = max(abs(e - float(exact)) for e in estimates) or 0.1  # the picture's height either side

    def y(value: float) -> float:
        return 0.5 + (value - float(exact)) / (2 * spread)

    return _svg("Sampling converges on the exact value",
                _line([(0, 0.5), (1, 0.5)], _VERMILLION, f"exact P(no hit): {_exact(exact)}", "4 2")
                + _line([(a, y(e)) for a, e in zip(x, estimates)], _BLUE,
                        f"simulated P(no hit), seed 1, after 20 to 600 rolls: {estimates[-1]:.3f}"))


def _code_picture(label: str = "Exploring in code") -> str:
    """Lines of code beside a small bar chart: a notebook to work in."""
    widths = (46, 30, 58, 38, 24)
    code = "".join(f'<rect x="{6 + (i % 2) * 8}" y="{7 + i * 9}" width="{w}" height="4" rx="2" '
                   f'fill="{(_PURPLE, _BLUE, _GREEN)[i % 3]}"/>' for i, w in enumerate(widths))
    chart = "".join(f'<rect x="{82 + i * 12}" y="{50 - h}" width="9" height="{h}" fill="{_BLUE}"/>'
                    for i, h in enumerate((14, 30, 40, 22)))
    return _svg(label, '<text x="6" y="53" font-family="monospace" font-size="9" fill="#555">&gt;&gt;&gt;</text>'
                + code + chart)


#: The pictures of the notebooks that belong to no one system, by file name (any other gets the
#: picture of a notebook, :func:`card_picture`).
PICTURES = {"compare-systems.ipynb": _four_games_picture,
            "lesson-bell-and-flat.ipynb": _bell_and_flat_picture,
            "lesson-one-die-three-attackers.ipynb": _three_attackers_picture,
            "lesson-leftover-successes.ipynb": _leftover_picture,
            "lesson-sampling.ipynb": _sampling_picture,
            "explore-in-code.ipynb": _code_picture}


def card_picture(entry: Entry) -> str:
    """The picture on an index card: a system's outcome chart (:func:`picture`), the page's own
    in small (:data:`PICTURES`), or that of a notebook."""
    if entry.system is not None:
        return picture(entry.system)
    make = PICTURES.get(entry.notebook)
    return make() if make is not None else _code_picture(f"{entry.title}: a notebook")


_INDEX_CSS = """<style>
.wb-index-cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(280px, 1fr));
  gap: 12px; margin: 8px 0; }
.wb-index-card { display: flex; gap: 12px; align-items: flex-start; padding: 12px;
  border: 1px solid #c8d3e0; border-radius: 8px; background: #fff; text-decoration: none;
  color: #1a1a1a; }
.wb-index-card:hover, .wb-index-card:focus { border-color: #0072B2; box-shadow: 0 0 0 2px #0072B233; }
.wb-index-card .wb-index-picture { flex: 0 0 auto; }
.wb-index-card .wb-index-name { color: #0057a0; text-decoration: underline; font-weight: 700;
  font-size: 1.15rem; }
.wb-index-card .wb-index-summary { margin: 4px 0 0; line-height: 1.35; }
.wb-index-card .wb-index-more { color: #0057a0; font-weight: 600; }
</style>"""


def index(folder: Path | str | None = None, *,
          link: Callable[[str], str | None] | None = None) -> widgets.HTML:
    """The dashboards as cards (class ``wb-index``): each a link (``a.wb-index-link``) with a
    picture (``svg.wb-index-picture``, :func:`card_picture`: a dashboard's outcome chart, the
    four-games chart, each lesson's own), its title and a one-line summary (the system's summary
    in the tooltip). ``link`` gives each notebook's address (by default its file name, relative
    to the index); a notebook it gives None is left out (the static site's index lists only the
    pages it has)."""
    folder = Path(folder) if folder is not None else notebooks_folder()
    items = []
    for entry in dashboards(folder):
        href = entry.notebook if link is None else link(entry.notebook)
        if href is None:
            continue
        summary = lead(folder, entry.notebook) or (entry.system.summary.split(";")[0] if entry.system else "")
        tip = html.escape(entry.system.summary, quote=True) if entry.system else ""
        title = entry.title if entry.system else (heading(folder, entry.notebook) or entry.title)
        more = ("Open the dashboard" if entry.system or entry.notebook in PAGE_TITLES else
                "Open the lesson" if entry.notebook.startswith("lesson-") else "Open the notebook")
        items.append(f'<a class="wb-index-link wb-index-card" href="{html.escape(href, quote=True)}"'
                     f' title="{tip}">' + card_picture(entry)
                     + f'<span><span class="wb-index-name">{html.escape(title)}</span>'
                     f'<p class="wb-index-summary">{html.escape(summary)}</p>'
                     f'<span class="wb-index-more">{more} →</span></span></a>')
    body = (f'{_INDEX_CSS}<div class="wb-index-cards">{"".join(items)}</div>' if items
            else "<p>No dashboards yet.</p>")
    box = widgets.HTML(body)
    box.add_class("wb-index")
    return box
