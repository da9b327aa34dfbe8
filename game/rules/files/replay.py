"""Replaying a battle: its table as it stood after any number of its actions, forward and
back, from a save (scenario, seed and actions) or a battle played to its end.

The actions are applied again through the engine, so the replay reaches the same states as
the battle did (the state hash at every turn's end is the one the battle logged). Checkpoints
of the state and the dice at the start of every turn and every ``CHECKPOINT_EVERY`` actions
make a jump anywhere a restore and at most a few dozen actions.
"""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.rules.actions import Action
from game.rules.battle import Battle
from game.rules.dice import Dice
from game.rules.state import BattleState

CHECKPOINT_EVERY = 25  # actions between checkpoints beside those at each turn's start


@dataclass
class _Checkpoint:
    position: int
    state: BattleState
    dice: Dice
    events: int


class TurnSteps:
    """Stepping by one and by turns over ``goto``, ``position``, ``length`` and
    ``turn_starts`` (positions where a turn or the set-up begins): shared by the replay of a
    save and of a log."""

    position: int
    length: int
    turn_starts: list[int]

    if TYPE_CHECKING:  # each replay's own

        def goto(self, position: int) -> None: ...

    def step(self, n: int = 1) -> None:
        """Forward (or back, for a negative ``n``) by ``n`` steps (actions, or a log's lines)."""
        self.goto(self.position + n)

    def turn_at(self, position: int) -> int:
        """The index in :attr:`turn_starts` of the turn that holds ``position``."""
        return max(i for i, p in enumerate(self.turn_starts) if p <= position)

    def next_turn(self) -> None:
        """To the start of the next turn (or the end)."""
        k = self.turn_at(self.position) + 1
        self.goto(self.turn_starts[k] if k < len(self.turn_starts) else self.length)

    def previous_turn(self) -> None:
        """To the start of this turn, or of the one before when already there."""
        k = self.turn_at(self.position)
        if self.turn_starts[k] == self.position and k > 0:
            k -= 1
        self.goto(self.turn_starts[k])


class Replay(TurnSteps):
    """A battle that can be shown after any number of its ``actions``.

    Parameters
    ----------
    scenario, seed, actions
        What the battle was: a validated scenario, its seed and its actions in order.
    auto_pass : bool
        Whether the battle had the engine's automatic passes (``Battle``).

    Raises
    ------
    IllegalAction
        An action is not legal where it stands (a save edited by hand).
    """

    step_name = "action"  # what one step is, as the replay screen names it

    def __init__(self, scenario, seed: int, actions: list[Action], auto_pass: bool = True):
        self.actions = list(actions)
        self.battle = Battle(scenario, seed, auto_pass=auto_pass)
        self._checkpoints: list[_Checkpoint] = [self._checkpoint(0)]
        self.turn_starts: list[int] = [0]  # positions where a turn (or set-up) begins
        turn = self.battle.state.turn
        for i, action in enumerate(self.actions):
            self.battle.apply(action)
            if self.battle.state.turn != turn:
                turn = self.battle.state.turn
                self.turn_starts.append(i + 1)
                self._checkpoints.append(self._checkpoint(i + 1))
            elif (i + 1) % CHECKPOINT_EVERY == 0:
                self._checkpoints.append(self._checkpoint(i + 1))
        self.end_events = list(self.battle.log.events)
        self.position = len(self.actions)

    @classmethod
    def from_save(cls, path: str | os.PathLike) -> Replay:
        """The replay of a save file. Raises SaveError as ``Battle.load`` does."""
        played = Battle.load(path)
        return cls(played.scenario, played.seed, played.actions, played.auto_pass)

    @classmethod
    def of(cls, battle: Battle) -> Replay:
        """The replay of a battle (played to its end or not)."""
        return cls(battle.scenario, battle.seed, battle.actions, battle.auto_pass)

    def _checkpoint(self, position: int) -> _Checkpoint:
        b = self.battle
        return _Checkpoint(
            position, copy.deepcopy(b.state), copy.deepcopy(b.dice), len(b.log.events)
        )

    @property
    def length(self) -> int:
        """How many actions the battle had."""
        return len(self.actions)

    @property
    def events(self) -> list[dict]:
        """The battle-log events up to the current position."""
        return self.battle.log.events

    def goto(self, position: int) -> None:
        """Show the battle after ``position`` actions (clamped to 0..length): restore the
        last checkpoint at or before it, then apply the actions up to it."""
        position = max(0, min(self.length, position))
        if position == self.position:
            return
        if position < self.position or position - self.position > CHECKPOINT_EVERY:
            cp = max(
                (c for c in self._checkpoints if c.position <= position), key=lambda c: c.position
            )
            self._restore(cp)
        while self.position < position:
            self.battle.apply(self.actions[self.position])
            self.position += 1

    def _restore(self, cp: _Checkpoint) -> None:
        b = self.battle
        state, dice = copy.deepcopy(cp.state), copy.deepcopy(cp.dice)
        b.state = b.ctx.state = state
        b.dice = b.ctx.dice = dice
        # the log and the actions as they stood there (a jump forward restores them too)
        b.log.events[:] = self.end_events[: cp.events]
        b.actions[:] = self.actions[: cp.position]
        self.position = cp.position
