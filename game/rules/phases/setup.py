"""Set-up before turn 1 (000 08.01.01): each side in turn may change its stands' battle
groups, then says it is ready (Pass)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.rules.actions import Action, Pass, Regroup
from game.rules.context import IllegalAction
from game.rules.phases import Phase

if TYPE_CHECKING:
    from game.rules.context import BattleContext


def do_regroup(ctx: BattleContext, a: Regroup) -> None:
    """Before turn 1, put a stand into another battle group of its side (000 08.01.01)."""
    if ctx.state.phase != "setup":
        raise IllegalAction("battle groups are fixed once play starts (000 08.01.01)")
    s = ctx.stand(a.stand)
    if s.side != a.side:
        raise IllegalAction(f"{a.stand} is not {a.side}'s stand")
    if not a.group:
        raise IllegalAction("a battle group needs a name")
    s.group = a.group
    ctx.event("regroup", side=a.side, stand=s.id, group=s.group, hq=s.hq, ghq=s.ghq)


def options(ctx: BattleContext, side: str, kind: str) -> list[Action]:
    """Ready (Pass), or move one of the side's stands into another of its battle groups."""
    acts: list[Action] = [Pass(side)]
    stands = ctx.state.stands.values()
    groups = sorted({s.group for s in stands if s.side == side})
    for s in stands:
        if s.side == side:
            acts += [Regroup(side, s.id, g) for g in groups if g != s.group]
    return acts


PHASE = Phase(
    "setup",
    "set-up",
    kind="setup",
    decide=lambda ctx: "setup",
    options=options,
    handlers={Regroup: do_regroup},
)
