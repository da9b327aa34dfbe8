"""The battle facade's answers to "why not?": why a group may not try to move, why a
stand could not close-assault an enemy stand, why a close assault or a reply is refused, and
which spots beside a carrier a rider may be set down at (and why not the others). Each
reason is in plain words and ends with its rule in brackets, as the fire refusals do; the
screens show them and never work a rule out themselves. Units: inches, degrees.

:class:`game.rules.battle.Battle` has these through
:class:`~game.rules.battle_full.FullGameQueries`. None of them changes the battle.
"""

from __future__ import annotations

import dataclasses

from game.rules.actions import MoveAttempt
from game.rules.battle_parts import BattleParts
from game.rules.phases import movement
from game.rules.procedures import melee, transport


class RefusalQueries(BattleParts):
    """Mixin of the battle facade (it has ``ctx``, ``state`` and ``stand``)."""

    def attempt_problem(self, side: str, group: str, ordered: bool | None = None) -> str | None:
        """Why ``side``'s group ``group`` may not try to move now, or None when it may
        (000 08.02, 08.02.08, 08.02.10; :func:`game.rules.phases.movement.attempt_problem`).
        ``ordered`` None: by order while the side has orders, else independently."""
        if ordered is None:
            ordered = self.state.orders.get(side, 0) > 0
        return movement.attempt_problem(self.ctx, MoveAttempt(side, group, ordered))

    def assault_problem(
        self,
        assaulter_id: str,
        defender_id: str,
        at: tuple[float, float, float] | None = None,
    ) -> str | None:
        """Why ``assaulter_id`` could not close-assault ``defender_id`` (002/004 8.7): no
        firepower against its class, or a combat differential below the CRT's lowest column;
        None when it could. ``at`` (x, y, facing: inches, degrees): after a move there, which
        puts a movement marker on it (as :meth:`assault_preview` sees it)."""
        a = self.stand(assaulter_id)
        if at is not None:
            x, y, facing = at
            a = dataclasses.replace(a, x=x, y=y, facing_deg=facing, movement_marker=True)
        return melee.attack_problem(self.ctx, a, self.stand(defender_id))

    def close_assault_problem(self, defender_id: str) -> str | None:
        """Why the side to act may not close-assault ``defender_id`` now, or None when it
        may (002/004 8.7; the engine's own check)."""
        return melee.close_assault_problem(self.ctx, self.state.to_act, defender_id)

    def unload_spots(
        self, carrier_id: str, rider_id: str
    ) -> list[tuple[int, tuple[float, float], str | None]]:
        """Each of the four spots beside ``carrier_id`` (0 behind, 1 left, 2 right, 3 in
        front) as (spot, its centre in inches, why ``rider_id`` may not be set down there or
        None when it may), as the engine checks an :class:`Unload` (rules-decisions
        "Transport"). A carrier that has spent more than half its movement points refuses
        every spot."""
        c, r = self.stand(carrier_id), self.stand(rider_id)
        late = None
        if not transport.may_unload(self.ctx, c):
            late = (
                f"{c.id} is not on the table: its riders get out once it has entered"
                if not c.on_table
                else f"{c.id} is eliminated"
                if c.eliminated
                else f"{c.id} has spent more than half its movement points: it may not unload now"
            ) + " (hulldown's transport ruling)"
        out = []
        for k in range(len(transport.SPOTS)):
            why = late or transport.spot_problem(self.ctx, c, r, k)
            out.append((k, transport.spot_xy(c, k), why and _with_rule(why)))
        return out


def _with_rule(why: str) -> str:
    """A transport refusal with its rule in brackets at the end."""
    return why if why.endswith(")") else f"{why} (hulldown's transport ruling)"
