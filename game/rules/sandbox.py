"""Copies of a battle to play forward on, as a player at one seat knows it, with dice of their
own: what an AI that looks ahead plays its continuations on.

A :class:`Sandbox` holds one battle of the same scenario, built once; :meth:`Sandbox.fork`
puts a copy of another battle's state into it and gives it new dice seeded by the caller. The
copy never shares the battle's dice (a player who plays on copies with the battle's own dice
would know the rolls to come), writes no log file and no autosave, and holds only what the
player at ``seat`` may know: the other side's fire missions plotted and not yet landed are
left out (they are written down unseen, 002 7.11), and so is every mission a network battle
holds only as a commitment. Nothing of the battle forked from changes.
"""

from __future__ import annotations

import copy

from game.rules.battle import Battle
from game.rules.dice import Dice
from game.rules.state import BattleState


def seat_view(state: BattleState, seat: str | None) -> BattleState:
    """A deep copy of ``state`` holding what the player of ``seat`` knows: the other side's
    missions not yet landed removed (None keeps every mission that is not hidden), the
    network's hidden commitments and hash chains dropped (a copy is never a network battle).
    Never raises."""
    hidden = set(state.hidden)
    keep = [m for m in state.missions if m.id not in hidden and (seat is None or m.side == seat)]
    # the parts left out are never copied: the copy meets fresh empty ones in their place
    # (deepcopy's memo), and the state itself is not touched (another thread may read it)
    memo: dict[int, object] = {id(state.missions): [], id(state.hidden): {}}
    if state.chains is not None:
        memo[id(state.chains)] = None
    out = copy.deepcopy(state, memo)
    out.missions = copy.deepcopy(keep)
    return out


class Sandbox:
    """One battle of ``battle``'s scenario to play copies of its state forward on.

    Parameters
    ----------
    battle : Battle
        The battle whose scenario, seed and ``auto_pass`` the sandbox takes (its state is
        taken only by :meth:`fork`).
    """

    def __init__(self, battle):
        self._box = Battle(battle.scenario, battle.seed, auto_pass=battle.auto_pass)

    def fork(self, battle, dice_seed: int, seat: str | None = None):
        """The sandbox's battle with a copy of ``battle``'s state as the player of ``seat``
        knows it (:func:`seat_view`) and dice seeded with ``dice_seed`` (never the battle's
        own stream), ready to take actions. The battle returned is the same object at every
        call: a fork lasts until the next. Nothing of ``battle`` changes. Never raises."""
        box = self._box
        box.state = box.ctx.state = seat_view(battle.state, seat)
        box.dice = box.ctx.dice = Dice(dice_seed)
        box.actions = []
        box.log.events.clear()
        box.ctx.new_events.clear()
        return box

    def fork_state(self, state: BattleState, dice_seed: int):
        """As :meth:`fork`, from a state already seen from the seat (a worker process is sent
        the :func:`seat_view` once and forks it for every continuation). The state is copied;
        ``state`` itself never changes. Never raises."""
        box = self._box
        box.state = box.ctx.state = copy.deepcopy(state)
        box.dice = box.ctx.dice = Dice(dice_seed)
        box.actions = []
        box.log.events.clear()
        box.ctx.new_events.clear()
        return box
