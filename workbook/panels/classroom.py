"""The classroom panels: roll the dice once and step through the rule, then simulate many rolls.

Both run the system's own rule on concrete dice (``System.play``), the very function the exact
numbers are proven equal to, so what a class sees rolled can never disagree with the exact page.

- :class:`RollPanel` — "Roll" draws one set of dice (seeded: the seed is shown and travels in the
  share link), or the faces typed from the table are played; the rule's steps are listed with
  each die and citation; every roll adds to a tally beside the exact probabilities.
- :class:`SimulatePanel` — N rolls (up to 100,000), seeded, with a progress bar and a Stop
  button; a chart of the running estimate of one headline quantity settling on its exact value
  inside a 95% band, and a table of simulated against exact for every outcome.

CSS classes: ``wb-roll`` (``wb-roll-button``, ``wb-roll-seed``, ``wb-roll-faces``,
``wb-roll-play``, ``wb-roll-steps``, ``wb-roll-tally``, ``wb-roll-error``) and ``wb-simulate``
(``wb-sim-n``, ``wb-sim-seed``, ``wb-sim-quantity``, ``wb-sim-run``, ``wb-sim-stop``,
``wb-sim-progress``, ``wb-sim-chart``, ``wb-sim-table``, ``wb-sim-status``).
"""

from __future__ import annotations

import asyncio
import html
import math
import random
import re
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from rules_core import DiceError, Result, System, play_once, sample
from rules_core.play import COMMON_HEADLINE_DEFINITIONS, Headline
from rules_core.simulate import MAX_ROLLS

from ..page.layout import localised_figure
from ..page.text import count_text, headline_label, integer_text, lang_of, localised_numbers, number_text, percent_text
from ..page.chart import chart
from ..page.panel import PageContext, PagePanel
from ..page.views import exact_text

__all__ = ["RollPanel", "SimulatePanel", "parse_faces", "came_to", "came_to_html"]

Text = Callable[[str], str]


def parse_faces(typed: str) -> list[int]:
    """Faces typed as whole numbers separated by spaces or commas; ``ValueError`` says which
    entry is not a whole number.

    >>> parse_faces("3, 14 20")
    [3, 14, 20]
    """
    faces = []
    for item in re.split(r"[\s,;]+", typed.strip()):
        if not item:
            continue
        if not item.isdigit() or len(item) > 3:
            shown = item if len(item) <= 12 else item[:12] + "…"
            raise ValueError(f"{shown!r} is not a die face (a whole number such as 7)")
        faces.append(int(item))
    if not faces:
        raise ValueError("type the faces rolled, in the order the rule asks for them, e.g. 7 12 3")
    return faces


def _box(css: str, children: list[widgets.Widget], **layout: Any) -> widgets.VBox:
    box = widgets.VBox(children, layout=widgets.Layout(**layout))
    box.add_class(css)
    return box


def _classed(widget: widgets.Widget, css: str) -> widgets.Widget:
    widget.add_class(css)
    return widget


def link_seed(text: str | None) -> int | None:
    """A roll seed from a link (``roll=7``), or None when absent or not a small whole number.

    >>> link_seed("7"), link_seed("-1"), link_seed("1" * 10)
    (7, None, None)
    """
    return int(text) if text is not None and text.isdigit() and len(text) <= 9 else None


class RollPanel(PagePanel):
    """One roll at a time, stepped through; a tally of every roll since the scenario changed.

    On a page: a link with ``roll=<seed>`` opens it and shows that roll; the address bar follows
    the seed of the roll shown."""

    name, title, css, boxed, group = "roll", "Roll the dice", "wb-roll", False, "wb-classroom"
    link_keys = ("roll",)

    def __init__(self, system: System, text: Text, *, seed: int | None = None,
                 on_roll: Callable[[], None] | None = None):
        self.system, self.text = system, text
        self._asked: int | None = None  # a seed a link asked to be rolled, at the next result
        self.on_roll = on_roll  # told after every roll shown (the page's address follows the seed)
        self.result: Result | None = None
        self.tally: Counter[str] = Counter()
        self.last = None
        #: The seed of the roll shown (None for typed faces or before any roll): a link carries it.
        self.last_seed: int | None = None
        self.seed = widgets.IntText(value=seed if seed is not None else 1, description=text("Seed"),
                                    layout=widgets.Layout(width="14em"))
        self.roll_button = _classed(widgets.Button(description=text("Roll"), button_style="primary",
                                                   icon="dice"), "wb-roll-button")
        self.roll_button.on_click(lambda _b: self.roll())
        self.faces = _classed(widgets.Text(placeholder=text("faces from the table, e.g. 7 12 3"),
                                           description=text("Faces"), layout=widgets.Layout(width="22em")),
                              "wb-roll-faces")
        self.play_button = _classed(widgets.Button(description=text("Play these faces")), "wb-roll-play")
        self.play_button.on_click(lambda _b: self.play_typed())
        _classed(self.seed, "wb-roll-seed")
        self.error = _classed(widgets.HTML(), "wb-roll-error")
        self.steps = _classed(widgets.HTML(), "wb-roll-steps")
        self.tally_box = _classed(widgets.HTML(), "wb-roll-tally")
        controls = widgets.HBox([self.roll_button, self.seed, self.faces, self.play_button],
                                layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        self.widget = _box("wb-roll", [controls, self.error, self.steps, self.tally_box])

    @classmethod
    def for_page(cls, page: PageContext) -> RollPanel:
        panel = cls(page.system, page.text, on_roll=page.follow_address)
        panel.page = page
        return panel

    def from_link(self, values: dict[str, str]) -> str:
        """``roll=<seed>``: that roll is shown, the panel opened (a seed that is not a small whole
        number is passed over, as before)."""
        seed = link_seed(values.get("roll"))
        if seed is not None:
            self._asked = seed
            self.page.open(self.name)
            if self.result is not None:
                self.update(self.result)
        return ""

    def link_query(self) -> str:
        return f"roll={self.last_seed}" if self.last_seed is not None else ""

    def update(self, result: Result) -> None:
        """A new scenario: the tally starts again; the steps are cleared. A roll a link asked
        for is rolled now."""
        if self.result is None or result.scenario != self.result.scenario:
            self.tally.clear()
            self.steps.value = ""
            self.last = self.last_seed = None
        self.result = result
        self._show_tally()
        if self._asked is not None:
            self.seed.value, self._asked = self._asked, None
            self.roll()

    def roll(self) -> None:
        """Roll with the seed shown, then move the seed on, so the next roll differs and each
        roll can be replayed from its seed."""
        if self.result is None:
            return
        seed = self.seed.value
        self.last_seed = seed
        self._show(play_once(self.system, self.result.scenario, seed=seed), f"{self.text('seed')} {seed}")
        self.seed.value = seed + 1

    def play_typed(self) -> None:
        """Play the faces typed; a clear message when they do not fit the rule."""
        if self.result is None:
            return
        try:
            faces = parse_faces(self.faces.value)
            played = play_once(self.system, self.result.scenario, faces=faces)
        except (ValueError, DiceError) as err:
            self.error.value = f"<div class='wb-notice-line' role='alert'>{html.escape(str(err), quote=False)}</div>"
            return
        self.last_seed = None
        self._show(played, self.text("typed faces"))

    def _show(self, played: Any, source: str) -> None:
        text = self.text
        self.error.value = ""
        self.last = played
        self.tally[played.outcome] += 1
        dice = "".join(f"<li class='wb-roll-die'>⚄ {html.escape(text(str(r.dice.purpose)))} "
                       f"(d{r.dice.sides}{'×' + str(r.dice.count) if r.dice.count > 1 else ''}): "
                       f"<b>{html.escape(', '.join(map(str, r.faces)))}</b></li>" for r in played.rolled)
        steps = "".join(f"<li class='wb-trace-step'><b>{html.escape(text(s.rule))}</b>: "
                        f"{html.escape(localised_numbers(text(s.detail), lang_of(text)))}"
                        + (f" <span class='wb-cite'>[{html.escape(text(s.citation))}]</span>" if s.citation else "")
                        + "</li>" for s in played.trace)
        self.steps.value = (f"<p><small>{html.escape(source)}</small></p>"
                            f"<p><b>{html.escape(text('Dice rolled'))}</b></p><ol>{dice}</ol>"
                            f"<p><b>{html.escape(text('The rule, step by step'))}</b></p><ol>{steps}</ol>"
                            f"<p>{html.escape(text('Outcome'))}: <b class='wb-roll-outcome'>"
                            f"{html.escape(text(played.outcome))}</b></p>"
                            + came_to_html(self.system, self.result.scenario, played, text))
        self._show_tally()
        if self.on_roll is not None:
            self.on_roll()

    def _show_tally(self) -> None:
        if self.result is None:
            return
        total = sum(self.tally.values())
        self.tally_box.value = (f"<p><b>{html.escape(self.text('Tally'))}</b>: "
                                f"{html.escape(count_text(total, '{n} rolls', self.text))}</p>"
                                + counts_table(self.result, self.tally, self.text))


def came_to(system: System, scenario: Any, played: Any) -> list[tuple[str, Any]]:
    """What one roll came to in each of the system's headline quantities: ``(name, value)``,
    the event's True/False for a probability, the value for an expectation; a quantity that does
    not apply to the scenario, or whose condition this roll did not meet, is left out.

    >>> from rules_core import find_preset, get_system, play_once
    >>> d100 = get_system("d100-homebrew")
    >>> burst = find_preset("d100-homebrew/burst-3-vs-dodge-45").scenario
    >>> dict(came_to(d100, burst, play_once(d100, burst, faces=[20])))["expected_hits"]
    0
    """
    out = []
    for name, headline in {**COMMON_HEADLINE_DEFINITIONS, **system.headlines}.items():
        if headline.applies is not None and headline.applies(scenario) is not None:
            continue
        if headline.given is not None and not headline.given(played):
            continue
        out.append((name, headline.of(played)))
    return out


def came_to_html(system: System, scenario: Any, played: Any, text: Text) -> str:
    """:func:`came_to` as a list (class ``wb-roll-came-to``, each item ``[data-key]``)."""
    items = "".join(
        f"<li data-key='{html.escape(name, quote=True)}'>{html.escape(text(headline_label(name)))}: <b>"
        + html.escape(text("yes" if value else "no") if isinstance(value, bool) else number_text(value, "g", lang_of(text))
                      if isinstance(value, float) else str(value)) + "</b></li>"
        for name, value in came_to(system, scenario, played))
    return (f"<p><b>{html.escape(text('What this roll came to'))}</b></p>"
            f"<ul class='wb-roll-came-to'>{items}</ul>") if items else ""


def counts_table(result: Result, counts: Counter[str], text: Text) -> str:
    """How often each outcome was rolled (count and share) beside its exact probability; rows
    ``tr[data-key=<outcome>]``, cells ``count``, ``share``, ``exact`` (n/d) and ``percent``."""
    total, lang = sum(counts.values()), lang_of(text)
    rows = "".join(
        f"<tr data-key='{html.escape(label, quote=True)}'><td>{html.escape(text(label))}</td>"
        f"<td data-col='count'>{integer_text(counts[label], lang)}</td>"
        f"<td data-col='share'>{percent_text(counts[label] / total, lang) if total else '—'}</td>"
        f"<td data-col='exact'>{exact_text(p)}</td><td data-col='percent'>{percent_text(p, lang)}</td></tr>"
        for label, p in result.outcome_rows())
    head = "".join(f"<th>{html.escape(text(h))}</th>" for h in ("Outcome", "Rolled", "Share", "Exact", "Percent"))
    return f"<table class='wb-grid'><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def _checkpoints(n: int, points: int = 120) -> list[int]:
    """Roll counts at which the running estimate is drawn: evenly spaced on a log scale."""
    marks = {max(1, round(math.exp(math.log(n) * k / points))) for k in range(points + 1)}
    return sorted(marks | {n})


class SimulatePanel(PagePanel):
    """Many rolls through the rule: running estimate against the exact value, and a table."""

    name, title, css, boxed, group = "simulation", "Simulate many rolls", "wb-sim", False, "wb-classroom"

    #: Present mode (a projector): larger chart type; set by :meth:`set_present`.
    present = False

    def __init__(self, system: System, text: Text, lang: str = "en", *, seed: int = 1):
        self.system, self.text, self.lang = system, text, lang
        self.definitions: dict[str, Headline] = {**COMMON_HEADLINE_DEFINITIONS, **system.headlines}
        self.result: Result | None = None
        self.figure: go.Figure | None = None
        self.counts: Counter[str] = Counter()
        self.rolls = 0
        self.elapsed = 0.0
        self._stop = False
        self._task: asyncio.Task | None = None
        self.n = _classed(widgets.BoundedIntText(value=10_000, min=1, max=MAX_ROLLS, step=1000,
                                                 description=text("Rolls"), layout=widgets.Layout(width="14em")),
                          "wb-sim-n")
        self.seed = _classed(widgets.IntText(value=seed, description=text("Seed"),
                                             layout=widgets.Layout(width="12em")), "wb-sim-seed")
        self.quantity = _classed(widgets.Dropdown(
            options=[(text(headline_label(name)), name) for name in self.definitions],
            value="p_no_hit", description=text("Watch"), layout=widgets.Layout(width="24em")), "wb-sim-quantity")
        self.run_button = _classed(widgets.Button(description=text("Simulate"), button_style="primary",
                                                  icon="play"), "wb-sim-run")
        self.stop_button = _classed(widgets.Button(description=text("Stop"), icon="stop", disabled=True),
                                    "wb-sim-stop")
        self.run_button.on_click(lambda _b: self.start())
        self.stop_button.on_click(lambda _b: self.stop())
        self.progress = _classed(widgets.IntProgress(value=0, min=0, max=1, layout=widgets.Layout(width="16em",
                                                                                                visibility="hidden")),
                                 "wb-sim-progress")
        self.status = _classed(widgets.HTML(), "wb-sim-status")
        self.chart = chart("wb-sim-chart")
        self.table = _classed(widgets.HTML(), "wb-sim-table")
        row = widgets.HBox([self.n, self.seed, self.quantity, self.run_button, self.stop_button, self.progress],
                           layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        self.widget = _box("wb-simulate", [row, self.status, self.chart, self.table])

    @classmethod
    def for_page(cls, page: PageContext) -> SimulatePanel:
        panel = cls(page.system, page.text, page.state.lang)
        panel.page = page
        return panel

    def update(self, result: Result) -> None:
        """A new scenario: stop any run and clear the last one."""
        if self.result is not None and result.scenario == self.result.scenario:
            self.result = result
            return
        self.stop()
        self.result = result
        self.counts.clear()
        self.rolls = 0
        self.figure = None
        self.chart.show(None)
        self.table.value = ""
        self.status.value = ""

    # -- running ---------------------------------------------------------------------------------
    def start(self) -> None:
        """Run in the kernel's event loop when there is one (so Stop and the progress bar work
        while it runs); straight through otherwise (a script or a test)."""
        if self.result is None or (self._task is not None and not self._task.done()):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None:
            for _ in self._steps():
                pass
        else:
            self._task = loop.create_task(self._run_async())

    async def _run_async(self) -> None:
        for _ in self._steps():
            await asyncio.sleep(0.001)  # let the kernel handle Stop and redraw the progress bar

    def stop(self) -> None:
        """Ask a running simulation to stop after its current chunk."""
        self._stop = True

    def _steps(self):
        """The simulation in chunks; yields between chunks."""
        assert self.result is not None
        scenario, n, seed = self.result.scenario, self.n.value, self.seed.value
        name = self.quantity.value
        headline = self.definitions[name]
        exact = self.result.headline.get(name)
        self._stop = False
        self.counts = Counter()
        marks = _checkpoints(n)
        xs: list[int] = []
        ys: list[float] = []
        met = hits = 0
        total = total_sq = 0.0
        applies = headline.applies is None or headline.applies(scenario) is None
        self.run_button.disabled, self.stop_button.disabled = True, False
        self.progress.max, self.progress.value = n, 0
        self.progress.layout.visibility = "visible"
        started = time.perf_counter()
        next_mark, done, chunk = 0, 0, max(500, n // 100)
        for play in sample(self.system, scenario, n, seed):
            done += 1
            self.counts[play.outcome] += 1
            if applies and (headline.given is None or headline.given(play)):
                met += 1
                value = headline.of(play)
                if headline.kind == "probability":
                    hits += bool(value)
                else:
                    total += float(value)
                    total_sq += float(value) ** 2
            if next_mark < len(marks) and done == marks[next_mark]:
                next_mark += 1
                if met:
                    xs.append(done)
                    ys.append(hits / met if headline.kind == "probability" else total / met)
            if done % chunk == 0 and done < n:
                self.progress.value = done
                self.rolls = done
                yield
                if self._stop:
                    break
        self.rolls = done
        self.elapsed = time.perf_counter() - started
        self.progress.value = done
        self.progress.layout.visibility = "hidden"
        self.run_button.disabled, self.stop_button.disabled = False, True
        sd = math.sqrt(max(0.0, total_sq / met - (total / met) ** 2)) if met and headline.kind != "probability" else 0.0
        self.figure = convergence_chart(xs, ys, exact, headline.kind, sd,
                                        self.text(headline_label(name)), self.text)
        self._draw_chart()
        self._show_table()
        stopped = done < n
        self.status.value = (f"<p>{html.escape(count_text(done, '{n} rolls', self.text))} "
                             f"({html.escape(self.text('seed'))} {seed}), "
                             f"{number_text(self.elapsed, '.1f', self.lang)} {html.escape(self.text('s'))}"
                             + (f" — {html.escape(self.text('stopped'))}" if stopped else "") + "</p>")

    def _draw_chart(self) -> None:
        if self.figure is not None:
            self.chart.show(self.figure, self.present)

    def set_present(self, on: bool) -> None:
        """Present mode on or off: the chart redrawn with larger type."""
        if on != self.present:
            self.present = on
            self._draw_chart()

    def _show_table(self) -> None:
        assert self.result is not None
        self.table.value = counts_table(self.result, self.counts, self.text)


def convergence_chart(xs: list[int], ys: list[float], exact: Any, kind: str, sd: float, title: str,
                      text: Text) -> go.Figure:
    """The running estimate against the number of rolls, the exact value as a line and the 95%
    band in which an estimate after n rolls falls 19 times in 20 (a probability's band kept
    within 0 and 1)."""
    fig = go.Figure()
    probability = kind == "probability"
    if exact is not None and xs:
        p = float(exact)
        spread = [1.96 * (math.sqrt(p * (1 - p) / n) if probability else sd / math.sqrt(n)) for n in xs]
        high, low = [p + s for s in spread], [p - s for s in spread]
        if probability:
            high, low = [min(1.0, v) for v in high], [max(0.0, v) for v in low]
        fig.add_trace(go.Scatter(x=xs + xs[::-1], y=high + low[::-1],
                                 fill="toself", line=dict(width=0), fillcolor="rgba(0,114,178,0.15)",
                                 name=text("95% band"), hoverinfo="skip"))
        fig.add_trace(go.Scatter(x=[xs[0], xs[-1]], y=[p, p], mode="lines", name=text("Exact"),
                                 line=dict(color="#0072B2", dash="dash")))
    fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name=text("Simulated"), line=dict(color="#D55E00")))
    fig.update_layout(title=title, height=340, margin=dict(l=60, r=20, t=50, b=50),
                      xaxis=dict(type="log", dtick=1, title=text("Rolls")), yaxis=dict(title=text("Probability" if probability else "Value"),
                                                                      **({"tickformat": ".0%"} if probability else {})),
                      plot_bgcolor="white", legend=dict(orientation="h", y=-0.25))
    return localised_figure(fig, lang_of(text))


def random_seed() -> int:
    """A fresh seed for a new page (shown, so a roll can be replayed)."""
    return random.SystemRandom().randint(1, 999_999)
