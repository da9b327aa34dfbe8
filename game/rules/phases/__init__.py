"""The phases of a turn, each in its own module. A :class:`Phase` declares what it is (its
name in the battle log, whether the engine plays it through on its own, whether the side with
the initiative first says who acts first), what happens when it begins and ends, which kind
of decision it waits for, the actions it offers and the handler of each action type it
accepts. A ruleset is its data plus the list of its phases (``game.rules.rulesets``); adding
a phase touches that list and the new phase's module, and nothing in the screens' or the
AI's dispatch, which read :func:`game.rules.decision.decide`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field


def _none(*_args) -> None:
    return None


def _no_options(_ctx, _side, _kind) -> list:
    return []


@dataclass(frozen=True)
class Phase:
    """One phase of a turn (or the set-up before turn 1).

    name : the battle log's phase name. title : its name in words for a player ("1st fire
    phase"; the name itself when empty). kind : the family of decisions it waits for
    ("setup", "posture", "fire", "movement") or None for a phase the engine plays through.
    auto : played through on entering (dice only). choose_first : the side with the
    initiative first chooses who acts first (000 07.02.04, 08.02.04; 001 5.0, 7.1.1, 8.2.4).
    on_begin(ctx), on_end(ctx) : what happens as it begins and as it ends.
    decide(ctx) -> str : the kind of decision it waits for now (see ``game.rules.decision``).
    options(ctx, side, kind) -> list of actions : what the side to act may do.
    handlers : action type -> handler(ctx, action), raising IllegalAction when not allowed.
    may_pass(ctx, side) -> str or None : why the side may not pass now, if it may not.
    skip(ctx) -> bool : after its beginning, the phase has nothing to decide and ends at once
    (the full Modern game's posture phase when no TL1 stand is on the table).
    able(ctx, side) -> bool : whether ``side`` has anything to do but pass (None: the engine
    never asks). In a battle with automatic passes (``BattleContext.auto_pass``) the
    engine passes for a side that has not, asks nobody who acts first when at most one side
    has (that side acts), and skips the phase when neither has.
    holds(ctx) -> bool : after its beginning, the phase waits for actions before it goes on
    (a network battle's hidden plots to be revealed as they land); the beginning is
    then finished by ``turns.begin_again``.
    unable_why : the reasons its automatic ``pass`` lines give, (neither side has anything
    to do, the side passed for has nothing to do).
    """

    name: str
    title: str = ""
    kind: str | None = None
    auto: bool = False
    choose_first: bool = False
    on_begin: Callable = _none
    on_end: Callable = _none
    decide: Callable | None = None
    options: Callable = _no_options
    handlers: Mapping[type, Callable] = field(default_factory=dict)
    may_pass: Callable = _none
    skip: Callable = _none
    able: Callable | None = None
    unable_why: tuple[str, str] = ("", "")
    holds: Callable = _none
