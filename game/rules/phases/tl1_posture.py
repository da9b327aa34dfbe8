"""Posture determination in the full Modern game (002 sequence of play step 1, turn sequence
check list note 1; rules-decisions "The full games: Sequence of play"): only TL1 stands take
a posture. Each side, in turn, declares TL1 stands into the movement posture; the TL1 stands
it did not declare take the firing posture. A TL1 stand never both fires and moves in a turn.
Every other stand has no posture (``None``) and is free of this limit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.rules.actions import Action, DeclareGroup, Pass
from game.rules.context import IllegalAction
from game.rules.phases import Phase

if TYPE_CHECKING:
    from game.rules.context import BattleContext


def _tl1(ctx: BattleContext, side: str | None = None):
    return [
        s
        for s in ctx.state.stands.values()
        if s.tech_level == 1
        and not s.eliminated
        and s.carried_by is None
        and (side is None or s.side == side)
    ]


def undeclared(ctx: BattleContext, side: str):
    """``side``'s TL1 stands on the table whose posture is not yet declared this turn."""
    return [s for s in _tl1(ctx, side) if s.on_table and s.posture is None]


def on_begin(ctx: BattleContext) -> None:
    """Every TL1 stand's posture is undecided again; one still waiting to enter is in the
    movement posture (it may do nothing else; RD "Entering the table")."""
    for s in _tl1(ctx):
        s.posture = None if s.on_table else "movement"


def skip(ctx: BattleContext) -> bool:
    """No TL1 stand on the table to declare: the phase has nothing to ask."""
    return not any(undeclared(ctx, side) for side in ctx.sides)


def do_declare(ctx: BattleContext, a: DeclareGroup) -> None:
    """Declare TL1 stands of the side into the movement posture (002 checklist note 1);
    they keep their battle groups."""
    st = ctx.state
    if ctx.phase is None or ctx.phase.kind != "posture" or not st.first_chosen:
        raise IllegalAction("postures are declared in the posture phase, after who goes first")
    ids = list(a.stands)
    if not ids or len(set(ids)) != len(ids):
        raise IllegalAction("name each TL1 stand once")
    for i in ids:
        s = ctx.stand(i)
        if s.side != a.side or not s.active:
            raise IllegalAction(f"{i} is not one of {a.side}'s stands on the table")
        if s.tech_level != 1:
            raise IllegalAction(f"{i} is tech level {s.tech_level}: only TL1 stands take a posture")
        if s.posture is not None:
            raise IllegalAction(f"{i} has its posture for this turn already")
    for i in ids:
        st.stands[i].posture = "movement"
    group = ctx.stand(ids[0]).group
    ctx.event("posture", side=a.side, group=group, stands=ids, posture="move")
    st.passes = 0
    st.to_act = ctx.other(a.side)


def on_end(ctx: BattleContext) -> None:
    """The TL1 stands not declared take the firing posture; those in the movement posture
    carry a movement marker (rules-decisions "Movement markers")."""
    for side in ctx.sides:
        firing = undeclared(ctx, side)
        for s in firing:
            s.posture = "firing"
        if firing:
            ctx.event("posture", side=side, group="", stands=[s.id for s in firing], posture="fire")
    for s in _tl1(ctx):
        if s.posture == "movement":
            s.movement_marker = True


def options(ctx: BattleContext, side: str, kind: str) -> list[Action]:
    """Done (the rest fire), each undeclared TL1 stand alone, or each battle group's
    undeclared TL1 stands together."""
    ids = undeclared(ctx, side)
    groups: dict[str, list[str]] = {}
    for s in ids:
        groups.setdefault(s.group, []).append(s.id)
    acts: list[Action] = [Pass(side)]
    acts += [DeclareGroup(side, tuple(g)) for g in groups.values() if len(g) > 1]
    return acts + [DeclareGroup(side, (s.id,)) for s in ids]


PHASE = Phase(
    "posture",
    "posture phase (TL1)",
    kind="posture",
    choose_first=True,
    on_begin=on_begin,
    on_end=on_end,
    decide=lambda ctx: "posture",
    options=options,
    handlers={DeclareGroup: do_declare},
    skip=skip,
)
