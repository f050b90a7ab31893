"""The rule written once, on concrete dice: :func:`play` resolves a whole scenario from the
totals a :class:`Roller` gives it (attack rolls, Acrobatics and Dodge rolls, damage dice) and
returns what happened, with its trace.

Exhaustive enumeration of :func:`play` over every way the dice can fall (:func:`enumerate_plays`)
is the truth the fast exact algorithm is tested against; :func:`roll_once` plays one random turn.

>>> from rules_core import find_preset
>>> seed = find_preset("gurps-4e/sword-2d1-cut-vs-dr3").scenario
>>> play(seed, ScriptedRoller([7])).injuries       # the seed: 2 dice total 7 → 8 basic → 7 injury
(7,)
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Protocol

from ...enumerate import enumerate_rule
from ...result import TraceStep
from . import sources as cite
from .damage import injury
from .rolls import success_roll
from .rules import (attack_context, blast_hit, blast_reaches, defense_option, dodge_score, ends_prone,
                    friend_hit, hits_avoided, hits_scored, major_wound, points_left, sacrificial_context,
                    undefendable)
from .scenario import GurpsScenario

__all__ = ["Roller", "RandomRoller", "ScriptedRoller", "Play", "play", "roll_once", "enumerate_plays",
           "ladder_label", "ATTACK_OUTCOMES", "SACRIFICIAL_OUTCOMES", "SMOTHER_OUTCOMES", "DIVE_OUTCOMES"]

NO_HIT, ALL_DODGED, NO_INJURY, INJURED, MAJOR = (
    "No hit arrives", "Every hit dodged", "Hits land, no injury", "Injured", "Major wound")
ATTACK_OUTCOMES = (NO_HIT, ALL_DODGED, NO_INJURY, INJURED, MAJOR)  # + the "Down" label, by pool

NEITHER, DODGER_HIT, FRIEND_DEFENDS, FRIEND_HIT, BOTH_HIT = (
    "Neither is hit (success by 3+)", "Dodger takes the hit", "Friend defends every hit", "Friend is hit",
    "Both are hit")
SACRIFICIAL_OUTCOMES = (NO_HIT, NEITHER, DODGER_HIT, FRIEND_DEFENDS, FRIEND_HIT, BOTH_HIT)

SMOTHERED, TOO_SLOW = "Smothered: the dodger takes the blast in contact", "Too slow: the blast goes off"
SMOTHER_OUTCOMES = (SMOTHERED, TOO_SLOW)

FULL_COVER, DR_COVER, FARTHER, STILL_IN_AREA, OUT_OF_REACH, CAUGHT = (
    "Reached complete cover", "Reached cover (its DR protects)", "A yard farther from the blast",
    "Dove, but still in the area", "Out of the blast's reach", "Caught before the step")
DIVE_OUTCOMES = (FULL_COVER, DR_COVER, FARTHER, STILL_IN_AREA, OUT_OF_REACH, CAUGHT)


def down_label(pool: str) -> str:
    """The outcome label for ending at 0 or fewer HP (or FP)."""
    return f"Down ({pool} ≤ 0)"


def ladder_label(arrived: bool, landed: bool, total: int, major: bool, left: int, pool: str) -> str:
    """The worst thing that happened to the dodger in a turn of attacks."""
    if not arrived:
        return NO_HIT
    if not landed:
        return ALL_DODGED
    if total >= left:
        return down_label(pool)
    if major:
        return MAJOR
    return INJURED if total else NO_INJURY


class Roller(Protocol):
    """A source of dice: ``roll(dice, purpose)`` is the total of ``dice`` six-sided dice."""

    def roll(self, dice: int, purpose: str) -> int: ...


class RandomRoller:
    """Random dice from a seeded generator (never the global one)."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def roll(self, dice: int, purpose: str) -> int:
        return sum(self.rng.randint(1, 6) for _ in range(dice))


class ScriptedRoller:
    """Dice totals given in advance, in the order the rule asks for them."""

    def __init__(self, totals: list[int]):
        self.totals = list(totals)
        self.asked: list[tuple[int, str]] = []

    def roll(self, dice: int, purpose: str) -> int:
        if not self.totals:
            raise ValueError(f"no scripted total left for {purpose} ({dice}d)")
        total = self.totals.pop(0)
        if not dice <= total <= 6 * dice:
            raise ValueError(f"{purpose}: {total} is not a total of {dice} six-sided dice")
        self.asked.append((dice, purpose))
        return total


@dataclass(frozen=True)
class Play:
    """What happened in one resolution: hits and injury on the dodger (and on the friend), every
    evasion roll made, whether the dodger ends prone, the outcome label and the trace."""

    outcome: str
    arrived: int
    hits: int
    dodge_rolls: tuple[bool, ...]
    injuries: tuple[int, ...]
    ends_prone: bool
    trace: tuple[TraceStep, ...]
    friend_hits: int = 0
    friend_injuries: tuple[int, ...] = ()

    @property
    def injury(self) -> int:
        """Total injury to the dodger (HP, or FP against fatigue damage)."""
        return sum(self.injuries)

    @property
    def dodged(self) -> int:
        """Hits that reached the dodger and were avoided."""
        return self.arrived - self.hits


class _Turn:
    """Mutable bookkeeping while one play runs."""

    def __init__(self, scenario: GurpsScenario, roller: Roller):
        self.s, self.roller = scenario, roller
        self.trace: list[TraceStep] = []
        self.rolls: list[bool] = []

    def note(self, rule: str, detail: str, citation: str) -> None:
        self.trace.append(TraceStep(rule, detail, citation))

    def attack_hits(self, index: int, skill: int) -> tuple[int, bool]:
        """Hits the attack scores, and whether it is a critical hit."""
        attack = self.s.attacks[index]
        if attack.hits_by == "fixed":
            self.note(f"Attack {index + 1}", f"{attack.hits} hit(s) reach the target", cite.RAPID_FIRE)
            return attack.hits, False
        if skill < 3:
            self.note(f"Attack {index + 1}", f"effective skill {skill}: no attack roll", cite.MIN_SKILL)
            return 0, False
        roll = success_roll(self.roller.roll(3, f"attack {index + 1}"), skill)
        hits = hits_scored(roll, attack.rof, attack.recoil)
        critical = roll.success and roll.critical
        self.note(f"Attack {index + 1}", f"{roll} → {hits} hit(s)" + (", a critical hit" if critical else ""),
                  cite.CRIT_HIT if critical else cite.RAPID_FIRE)
        return hits, critical

    def evade(self, score: int, defendable: int, who: str = "Dodge") -> tuple[bool, int, int]:
        """One evasion roll (after an Acrobatics roll for an acrobatic dodge): (success, margin,
        hits avoided)."""
        dodger = self.s.dodger
        if dodger.acrobatic:
            acro = success_roll(self.roller.roll(3, "acrobatics"), dodger.acrobatics)
            score += 2 if acro.success else -2
            self.note("Acrobatic dodge", f"Acrobatics {acro} → Dodge {score}", cite.ACROBATIC)
        roll = success_roll(self.roller.roll(3, "dodge"), score)
        avoided = hits_avoided(roll, defendable, self.s.crit_dodge)
        self.rolls.append(roll.success)
        self.note(who, f"{roll} → avoids {avoided} of {defendable}", cite.RAPID_DODGE)
        return roll.success, roll.margin, avoided

    def damage(self, hit, count: int, who: str) -> list[int]:
        values = []
        for _ in range(count):
            value, steps = injury(hit, self.roller.roll(hit.damage.dice, f"damage to {who}"), explain=True)
            self.trace.extend(steps)
            values.append(value)
        return values


def _play_attacks(turn: _Turn) -> Play:
    s = turn.s
    option = defense_option(s)
    dropped, arrived, landed, injuries, major = False, 0, 0, [], False
    for index in range(len(s.attacks)):
        ctx = attack_context(s, index, dropped)
        if ctx.blocked:
            turn.note(f"Attack {index + 1}", "blocked by complete cover", cite.COVER)
            continue
        hits, critical = turn.attack_hits(index, ctx.skill.value)
        if not hits:
            continue
        free = undefendable(hits, critical, s.crit_hit)
        avoided = 0
        if hits > free and option != "none":
            _, _, avoided = turn.evade(ctx.dodge.value, hits - free)
            dropped = dropped or option == "dodge_and_drop"
        arrived += hits
        landed += hits - avoided
        values = turn.damage(ctx.hit, hits - avoided, "the dodger")
        major = major or any(major_wound(v, s.target.hp) for v in values)
        injuries += values
    pool, left = points_left(s)
    label = ladder_label(arrived > 0, landed > 0, sum(injuries), major and pool == "HP", left, pool)
    return Play(label, arrived, landed, tuple(turn.rolls), tuple(injuries), dropped and ends_prone(s),
                tuple(turn.trace))


def _play_sacrificial(turn: _Turn) -> Play:
    s = turn.s
    ctx = sacrificial_context(s)
    hits, critical = turn.attack_hits(0, ctx.skill.value)
    if not hits:
        return Play(NO_HIT, 0, 0, (), (), False, tuple(turn.trace))
    free = undefendable(hits, critical, s.crit_hit)
    friend_hits, dodger_hits, rolled = free, 0, False
    if hits > free:
        rolled = True
        success, margin, _ = turn.evade(ctx.dodge.value, hits - free, "Sacrificial dodge")
        if success and defense_option(s) == "dodge_and_drop" and margin >= 3:
            turn.note("Sacrificial dodge and drop", "success by 3 or more: neither is hit", cite.SACRIFICIAL)
        elif success:
            dodger_hits = hits - free
            turn.note("Sacrificial dodge", f"the dodger takes {dodger_hits} hit(s)", cite.SACRIFICIAL)
        elif s.friend.defends:
            roll = success_roll(turn.roller.roll(3, "friend's dodge"), s.friend.defense)
            avoided = hits_avoided(roll, hits - free, s.crit_dodge)
            turn.note("Friend's defense", f"{roll} → avoids {avoided} of {hits - free}", cite.RAPID_DODGE)
            friend_hits += hits - free - avoided
        else:
            friend_hits += hits - free
    injuries = turn.damage(ctx.hit, dodger_hits, "the dodger")
    friend_injuries = turn.damage(friend_hit(s), friend_hits, "the friend")
    if dodger_hits and friend_hits:
        label = BOTH_HIT
    elif dodger_hits:
        label = DODGER_HIT
    elif friend_hits:
        label = FRIEND_HIT
    else:
        label = NEITHER if turn.rolls and turn.rolls[0] else FRIEND_DEFENDS
    return Play(label, dodger_hits, dodger_hits, tuple(turn.rolls), tuple(injuries), rolled and ends_prone(s),
                tuple(turn.trace), friend_hits, tuple(friend_injuries))


def _blast_damage(turn: _Turn, distance: int, cover_dr: int = 0, *, friend: bool = False,
                  maximum: bool = False) -> list[int]:
    hit = blast_hit(turn.s, distance, cover_dr, friend=friend)
    if maximum:
        value, steps = injury(hit, 6 * hit.damage.dice, explain=True)
        turn.trace.extend(steps)
        return [value]
    return turn.damage(hit, 1, "the friend" if friend else "the dodger")


def _play_smother(turn: _Turn) -> Play:
    s = turn.s
    success, _, _ = turn.evade(dodge_score(s, "blast", False).value, 1, "Sacrificial dodge and drop")
    if success:
        turn.note("On the explosive", f"a contact explosion ({s.smother_damage}); the friend is spared", cite.CONTACT)
        injuries = _blast_damage(turn, 0, maximum=s.smother_damage == "maximum")
        return Play(SMOTHERED, 1, 1, tuple(turn.rolls), tuple(injuries), ends_prone(s), tuple(turn.trace))
    turn.note("Too slow", "the blast goes off with everyone where they stood", cite.EXPLOSION)
    reach = blast_reaches(s, s.blast.distance)
    injuries = _blast_damage(turn, s.blast.distance) if reach else []
    friend = _blast_damage(turn, s.friend.distance, friend=True) if blast_reaches(s, s.friend.distance) else []
    return Play(TOO_SLOW, int(reach), int(reach), tuple(turn.rolls), tuple(injuries), ends_prone(s),
                tuple(turn.trace), len(friend), tuple(friend))


def _play_dive(turn: _Turn) -> Play:
    s = turn.s
    blast, cover = s.blast, s.cover
    success, _, _ = turn.evade(dodge_score(s, "blast", False).value, 1, "Diving for cover")
    cover_dr, distance = 0, blast.distance
    if not success:
        label = CAUGHT
    elif cover.kind == "full":
        turn.note("Diving for cover", "the dodger reaches complete cover in time", cite.DIVE)
        return Play(FULL_COVER, 0, 0, tuple(turn.rolls), (), ends_prone(s), tuple(turn.trace))
    elif cover.kind == "dr":
        label, cover_dr = DR_COVER, cover.dr
    elif blast.spread == "explosion":
        label, distance = FARTHER, blast.distance + 1
    else:
        label = STILL_IN_AREA
    if not blast_reaches(s, distance):
        turn.note("Blast", f"{distance} yards is beyond its reach", cite.EXPLOSION)
        return Play(OUT_OF_REACH, 0, 0, tuple(turn.rolls), (), ends_prone(s), tuple(turn.trace))
    injuries = _blast_damage(turn, distance, cover_dr)
    return Play(label, 1, 1, tuple(turn.rolls), tuple(injuries), ends_prone(s), tuple(turn.trace))


_SITUATIONS = {"attacks": _play_attacks, "sacrificial": _play_sacrificial, "smother": _play_smother,
               "dive": _play_dive}


def play(scenario: GurpsScenario, roller: Roller) -> Play:
    """Resolve the scenario once with the dice ``roller`` gives."""
    return _SITUATIONS[scenario.situation](_Turn(scenario, roller))


def roll_once(scenario: GurpsScenario, seed: int | None = None) -> Play:
    """One random resolution (seeded, so it can be replayed)."""
    return play(scenario, RandomRoller(random.Random(seed)))


@cache
def _ways(dice: int) -> tuple[tuple[int, int], ...]:
    """(total, number of ways) for ``dice`` six-sided dice, counted face by face."""
    counts = Counter(sum(faces) for faces in itertools.product(range(1, 7), repeat=dice))
    return tuple(sorted(counts.items()))


class _Asker:
    """A :class:`Roller` that asks :func:`rules_core.enumerate.enumerate_rule` for each total."""

    def __init__(self, ask: Callable[[int], int]):
        self.ask = ask

    def roll(self, dice: int, purpose: str) -> int:
        return self.ask(dice)


def enumerate_plays(scenario: GurpsScenario) -> Iterator[tuple[Play, Fraction]]:
    """Every way the dice can fall, as (play, probability): each roll takes every total its dice
    can show, weighted by the face combinations that give it. Exhaustive: small cases only."""
    plays = enumerate_rule(lambda ask: play(scenario, _Asker(ask)),
                           lambda dice: [(total, ways, dice) for total, ways in _ways(dice)],
                           lambda result: result, sides=6)
    yield from plays.items()
