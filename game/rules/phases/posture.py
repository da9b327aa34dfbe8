"""Posture determination (001 5.0 step 2, 8.1.2): the sides declare movement groups of
stands in base contact in turn; every stand not declared takes the firing posture."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.rules.actions import Action, DeclareGroup, Pass
from game.rules.context import IllegalAction
from game.rules.phases import Phase
from game.rules.state import StandState
from game.rules.table.geometry import base_contact

if TYPE_CHECKING:
    from game.rules.context import BattleContext

RULE_47 = "004 2"
"""The rule a Wehrmacht '47 posture line cites: the 004 sequence of play, step 2."""


def undeclared(ctx: BattleContext, side: str) -> list[StandState]:
    """In the posture phase (WWII): ``side``'s stands on the table whose posture is not yet
    declared; those left at the end take the firing posture (001 5.0 step 2)."""
    return [
        s for s in ctx.state.stands.values() if s.side == side and s.active and s.posture is None
    ]


def contact_chains(ctx: BattleContext, stand_ids: list[str]) -> list[list[str]]:
    """Split stands into chains of base contact (001 8.1.2: a movement group's stands are
    in base contact), largest first, each in the order given; ties keep the order of their
    first stand. Raises IllegalAction for an unknown id."""
    poses = [ctx.stand(i).pose() for i in stand_ids]
    n = len(poses)
    seen = [False] * n
    chains = []
    for i in range(n):
        if seen[i]:
            continue
        seen[i] = True
        todo, chain = [i], []
        while todo:
            k = todo.pop()
            chain.append(k)
            for j in range(n):
                if not seen[j] and base_contact(poses[k], poses[j]):
                    seen[j] = True
                    todo.append(j)
        chains.append([stand_ids[k] for k in sorted(chain)])
    return sorted(chains, key=len, reverse=True)


def declare_options(ctx: BattleContext, side: str) -> list[Action]:
    """Movement groups ``side`` may declare now: every whole chain of undeclared stands in
    base contact (two or more, until the side has declared a one-stand group) and every
    single stand (001 5.0 step 2). Any chain-connected part of a chain is legal too."""
    ids = [s.id for s in undeclared(ctx, side)]
    acts: list[Action] = []
    if side not in ctx.state.singles_declared:
        acts += [DeclareGroup(side, tuple(c)) for c in contact_chains(ctx, ids) if len(c) > 1]
    return acts + [DeclareGroup(side, (i,)) for i in ids]


def on_begin(ctx: BattleContext) -> None:
    """Open the posture phase (001 5.0 step 2): every stand's posture is undecided again.
    Stands still waiting to enter are in the movement posture in their scenario groups
    (they may do nothing else; RD "Entering the table"), declared here before the sides
    declare the rest."""
    st = ctx.state
    st.singles_declared.clear()
    open_postures(st.stands.values())
    for side in ctx.sides:
        waiting: dict[str, list[str]] = {}
        for s in st.stands.values():
            if s.side == side and not s.eliminated and not s.on_table:
                waiting.setdefault(s.group, []).append(s.id)
        for group, ids in waiting.items():
            ctx.event("posture", side=side, group=group, stands=ids, **_move(ctx))


def do_declare_group(ctx: BattleContext, a: DeclareGroup) -> None:
    """Declare a movement group of stands in base contact (001 5.0 step 2, 8.1.2)."""
    st = ctx.state
    if ctx.phase is None or ctx.phase.kind != "posture":
        raise IllegalAction("movement groups are declared in the posture phase (001 5.0)")
    if not st.first_chosen:
        raise IllegalAction("first the side with the initiative chooses who declares first")
    ids = list(a.stands)
    if not ids:
        raise IllegalAction("a movement group needs at least one stand")
    if len(set(ids)) != len(ids):
        raise IllegalAction("a stand is named twice in the movement group")
    for i in ids:
        s = ctx.stand(i)
        if s.side != a.side:
            raise IllegalAction(f"{i} is not {a.side}'s stand")
        if not s.active:
            raise IllegalAction(f"{i} is not on the table")
        if s.posture is not None:
            raise IllegalAction(f"{i} is already in a movement group this turn")
    if len(ids) > 1:
        if a.side in st.singles_declared:
            raise IllegalAction(
                "groups of two or more stands are declared before any one-stand group "
                "(001 5.0 step 2)"
            )
        if len(contact_chains(ctx, ids)) > 1:
            raise IllegalAction(
                "a movement group's stands must be in base contact, each with another (001 8.1.2)"
            )
    else:
        st.singles_declared.add(a.side)
    used = {s.group for s in st.stands.values() if s.side == a.side}
    n = 1
    while f"M{n}" in used:
        n += 1
    group = f"M{n}"
    for i in ids:
        s = ctx.stand(i)
        s.posture, s.group = "movement", group
    ctx.event("posture", side=a.side, group=group, stands=ids, **_move(ctx))
    st.passes = 0
    st.to_act = ctx.other(a.side)


def on_end(ctx: BattleContext) -> None:
    """Whoever was not declared into a movement group fires this turn (001 5.0 step 2). In
    Wehrmacht '47 (004 step 2: "mark each stand or group in movement posture") a stand in the
    movement posture carries a movement marker from now until marker removal, moved or not
    (rules-decisions "Movement markers"): a close-assaulted defender in it does not roll to
    answer (004 close assault step 1), and as a personnel target its defence is halved."""
    st = ctx.state
    undecided = {side: [s.id for s in undeclared(ctx, side)] for side in ctx.sides}
    close_postures(st.stands.values())
    if ctx.rules.has("full_log"):
        for side, ids in undecided.items():  # the log names them (event-log.md, full games)
            if ids:
                ctx.event("posture", side=side, group="", stands=ids, posture="fire", rule=RULE_47)
    if ctx.rules.has("movement_markers"):
        for s in st.stands.values():
            if s.active and s.posture == "movement":
                s.movement_marker = True


def _move(ctx: BattleContext) -> dict:
    """The ``posture`` field of a movement-posture line: the full games' log writes it
    (event-log.md "Lines of the full games"); the WWII intro log keeps its lines as they were."""
    return {"posture": "move", "rule": RULE_47} if ctx.rules.has("full_log") else {}


def open_postures(stands) -> None:
    """Every stand's posture undecided again, out of its movement group (``group`` "");
    stands waiting to enter in the movement posture, in their scenario groups (001 5.0 step 2;
    RD "Entering the table"). Eliminated stands are left as they were."""
    for s in stands:
        if s.eliminated:
            continue
        if s.on_table:
            s.posture, s.group = None, ""
        else:
            s.posture = "movement"


def close_postures(stands) -> None:
    """Stands on the table still undecided take the firing posture (001 5.0 step 2)."""
    for s in stands:
        if s.active and s.posture is None:
            s.posture = "firing"


def options(ctx: BattleContext, side: str, kind: str) -> list[Action]:
    """Done (Pass: the rest take the firing posture), or declare a movement group."""
    return [Pass(side)] + declare_options(ctx, side)


PHASE = Phase(
    "posture",
    kind="posture",
    choose_first=True,
    on_begin=on_begin,
    on_end=on_end,
    decide=lambda ctx: "posture",
    options=options,
    handlers={DeclareGroup: do_declare_group},
)
