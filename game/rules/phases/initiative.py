"""Initiative, the first phase of a turn (000 05.00 step 1; 001 5.0 step 1): the engine
rolls it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.rules.phases import Phase

if TYPE_CHECKING:
    from game.rules.context import BattleContext


def roll_initiative(ctx: BattleContext) -> None:
    """nD6 + cohesion each (2D6 Modern, 1D6 WWII); ties re-rolled on the plain dice
    (000 05.00 step 1; 001 5.0 step 1)."""
    n = ctx.rules.initiative_dice
    rolls: dict[str, dict[str, Any]] = {}
    for side in ctx.sides:
        dice = ctx.dice.roll(n, 6)
        rolls[side] = {"dice": dice, "total": sum(dice) + ctx.cohesion_level(side)}
    a, b = ctx.sides
    tiebreaks = []
    winner = a if rolls[a]["total"] > rolls[b]["total"] else b
    if rolls[a]["total"] == rolls[b]["total"]:
        while True:
            tb = {side: ctx.dice.roll(n, 6) for side in ctx.sides}
            tiebreaks.append(tb)
            if sum(tb[a]) != sum(tb[b]):
                winner = a if sum(tb[a]) > sum(tb[b]) else b
                break
    ctx.state.initiative = winner
    ctx.event("initiative", rolls=rolls, tiebreaks=tiebreaks, winner=winner)


PHASE = Phase("initiative", auto=True, on_begin=roll_initiative)
