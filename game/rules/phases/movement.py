"""The movement phase (000 05.00 step 4, 08.02, 08.03; 001 5.0 step 4, 8.2): orders rolled
as it begins; the sides take movement actions in turn (a group's attempt, one cohesion roll
for it, then each stand's move) until both pass. Its moves wait for the enemy's opportunity
fire (``opportunity``)."""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING

from game.rules.actions import (
    Action,
    AssaultReply,
    CloseAssault,
    EndCloseAssaults,
    EndMoves,
    Mount,
    Move,
    MoveAttempt,
    Pass,
    Unload,
)
from game.rules.context import IllegalAction
from game.rules.phases import Phase, opportunity
from game.rules.procedures import combat, melee, moves, transport
from game.rules.procedures.combat import marker_mods
from game.rules.state import MovingGroup

if TYPE_CHECKING:
    from game.rules.context import BattleContext


def do_move_attempt(ctx: BattleContext, a: MoveAttempt) -> None:
    """A group tries to move: an order (or independently at +3 once the orders are gone), one
    D20 for the group against each stand's modified cohesion, -2 for each HQ (000 08.02)."""
    st = ctx.state
    why = attempt_problem(ctx, a)
    if why is not None:
        raise IllegalAction(why)
    stands = moves.movable(ctx, a.side, a.group)
    key = f"{a.side}:{a.group}"
    if a.ordered:
        st.orders[a.side] -= 1
    else:
        st.independent_used.add(key)
    level = ctx.cohesion_level(a.side)
    roll = None  # one die for the whole group, drawn by the first stand's roll
    hqs = sum(
        1
        for s in st.stands.values()
        if s.side == a.side and s.group == a.group and (s.hq or s.ghq) and not s.eliminated
    )
    group_mods = []
    if hqs:
        group_mods.append(("hq", -2 * hqs))  # 000 08.02.03
    recon = ctx.rules.has("recon_groups") and all("recon" in s.unit.flags for s in stands)
    if not a.ordered and not recon:
        group_mods.append(("independent", 3))  # 000 08.02.08; an "R" group rolls without (002)
    per_stand = {}
    passed_ids = []
    for s in stands:  # one die for the group, each stand's own markers (RD "Cohesion")
        mods = group_mods + marker_mods(s.S, s.D)
        if ctx.rules.has("obstacles"):
            mods += ground_mods(ctx, s)
        r = combat.cohesion_roll(ctx, mods, level, roll)
        roll = r["roll"]
        per_stand[s.id] = {"mods": r["mods"], "total": r["total"], "passed": r["passed"]}
        if r["passed"]:
            passed_ids.append(s.id)
    ctx.event(
        "move_attempt",
        side=a.side,
        group=a.group,
        ordered=a.ordered,
        roll=roll,
        level=level,
        per_stand=per_stand,
    )
    st.passes = 0
    if passed_ids:
        st.moving = MovingGroup(a.side, a.group, a.ordered, passed_ids)
        stragglers = [s for s in stands if s.id not in passed_ids]
        if stragglers:
            split_stragglers(ctx, a.side, stragglers)
    else:
        st.to_act = ctx.other(a.side)


def attempt_problem(ctx: BattleContext, a: MoveAttempt) -> str | None:
    """Why the movement attempt ``a`` would be refused now, in words ending with the rule in
    brackets, or None when it may be made (000 08.02, 08.02.08, 08.02.10; the checks
    :func:`do_move_attempt` makes, in its order)."""
    st = ctx.state
    if ctx.phase is None or ctx.phase.kind != "movement" or not st.first_chosen:
        return "movement is attempted in the movement phase (000 08.02)"
    if st.moving is not None or st.pending is not None:
        return "finish the movement action under way first (000 08.02)"
    if not moves.movable(ctx, a.side, a.group):
        return f"group {a.group} has no stand left to move: {unmovable_why(ctx, a)}"
    key = f"{a.side}:{a.group}"
    if a.ordered:
        if st.orders.get(a.side, 0) <= 0:
            return "no movement orders are left (000 08.02.08)"
    else:
        if st.orders.get(a.side, 0) > 0:
            return "use up the orders before moving independently (000 08.02.10)"
        if key in st.groups_moved:
            return (
                f"group {a.group} has moved by order this phase: it may not also move "
                "independently (000 08.02.10)"
            )
        if key in st.independent_used:
            return (
                f"group {a.group} may not try to move independently again this phase (000 08.02.10)"
            )
    return None


UNMOVABLE = (
    ("eliminated", "eliminated"),
    ("moved", "moved this phase (000 08.03.01)"),
    ("firing", "in the firing posture (001 8.1.2)"),
    ("carried", "riding in a carrier (hulldown's transport ruling)"),
    ("artillery", "fired as artillery (002 check list note 2)"),
)
"""Why a stand may not move this phase (:func:`moves.movable`), and the words for it."""


def unmovable_why(ctx: BattleContext, a: MoveAttempt) -> str:
    """Why none of the stands of ``a``'s group may move this phase, grouped by reason, each
    with its rule in brackets (:func:`moves.movable`): "A1, A2: moved this phase (000
    08.03.01)"."""
    by: dict[str, list[str]] = {}
    for s in ctx.state.stands.values():
        if s.side != a.side or s.group != a.group:
            continue
        why = (
            "eliminated"
            if s.eliminated
            else "moved"
            if s.moved
            else "firing"
            if s.posture == "firing"
            else "carried"
            if s.carried_by is not None
            else "artillery"
        )
        by.setdefault(why, []).append(s.id)
    return "; ".join(f"{', '.join(by[k])}: {words}" for k, words in UNMOVABLE if k in by)


def ground_mods(ctx: BattleContext, s) -> list[tuple[str, int]]:
    """Full games: a stand in barbed wire or a minefield attempting to move adds the chart's
    effect as a positive number to its movement cohesion roll (wire +1, minefield +2; 002
    terrain chart note; RD "Terrain of the full games")."""
    mods = []
    for kind in ctx.table.terrain_at(s.x, s.y).areas:
        if kind in ("barbed_wire", "minefield"):
            value = abs(ctx.data.terrain[kind].combat_effect(ctx.scenario.ruleset, s.personnel))
            mods.append((f"terrain:{kind}", value))
    return mods


def split_stragglers(ctx: BattleContext, side: str, stragglers) -> None:
    """The stands of a group that failed to move while others of it moved form a new group
    for the rest of the phase, which may be moved by a further order or, once the orders are
    gone, independently, like any group that has not moved yet; an HQ that moved off with the
    others no longer counts for it (000 08.02.09, 001 8.2.7; RD "Cohesion"). The new group is
    named after the old with a prime (``2'``); each stand gets its own group back when the
    phase ends (:func:`restore_groups`)."""
    st = ctx.state
    name = straggler_group(st.stands.values(), side, stragglers[0].group)
    for s in stragglers:
        st.straggled.setdefault(s.id, s.group)
        s.group = name


def straggler_group(stands, side: str, group: str) -> str:
    """The name of the group that stragglers of ``group`` form: the old name with primes
    added until no stand of ``side`` uses it (``2'``, ``2''``; 000 08.02.09)."""
    used = {s.group for s in stands if s.side == side}
    name = group + "'"
    while name in used:
        name += "'"
    return name


def restore_groups(ctx: BattleContext) -> None:
    """The movement phase ends: stragglers go back to their battle groups (000 08.01.01:
    groups are fixed for the battle; a straggler group lasts only for its phase)."""
    st = ctx.state
    for sid, group in st.straggled.items():
        st.stands[sid].group = group
    st.straggled.clear()


def do_end_moves(ctx: BattleContext, a: EndMoves) -> None:
    """The moving side stops its movement action (its stands waiting to enter must come on
    first)."""
    st = ctx.state
    if st.moving is None or st.pending is not None:
        raise IllegalAction("no movement action is under way")
    waiting = moves.still_to_enter(ctx, moves.move_samples(ctx, st.moving))
    if waiting:
        raise IllegalAction(
            f"{waiting[0]} is still waiting to enter: move it onto the table first "
            "(every stand enters as soon as it can)"
        )
    group = st.moving
    st.moving = None
    moves.end_action(ctx, group)


def do_move(ctx: BattleContext, a: Move) -> None:
    """One stand of the moving group moves along its path (000 08.03; RD "Movement")."""
    st = ctx.state
    if st.moving is None or st.pending is not None:
        raise IllegalAction("move a stand after its group's movement attempt succeeds (000 08.03)")
    if a.stand not in st.moving.stands:
        raise IllegalAction(f"{a.stand} is not one of the stands that may move now (000 08.03)")
    s = ctx.stand(a.stand)
    if s.moved or s.eliminated:
        raise IllegalAction(f"{a.stand} has already moved this phase (000 08.03.01)")
    path = tuple((float(x), float(y)) for x, y in a.path)
    if not math.isfinite(a.facing_deg):
        raise IllegalAction("a move needs a finite facing")
    why = moves.path_problem(ctx, s.id, path)
    if why is not None:
        raise IllegalAction(why)
    entering = not s.on_table
    moves.begin_part(
        ctx, a.side, s, path, a.facing_deg % 360.0, ctx.movement_points(s.id), entering
    )


def roll_orders(ctx: BattleContext) -> None:
    """Movement orders: 2D6 + GHQ command value + generation on the command efficiency
    table; none once the GHQ is eliminated (000 08.02.01-02). The ``orders`` line of a battle
    with automatic passes (every battle now) holds the table's steps (``command_table``), so that
    the log says what each number needed."""
    st = ctx.state
    table = ctx.data.command_tables[ctx.ruleset_data.command]
    st.independent_used.clear()
    st.groups_moved.clear()
    for s in st.stands.values():
        s.moved = False
        s.loaded = False
    st.assaulted.clear()
    for side in ctx.sides:
        cv = ctx.side_spec[side].command_value
        gen = ctx.scenario.generation_modifier(side)
        ghq_alive = any(s.ghq and not s.eliminated for s in st.stands.values() if s.side == side)
        dice = ctx.dice.roll(2, 6) if ghq_alive else []
        total = sum(dice) + cv + gen
        orders = table.orders(total) if ghq_alive else 0
        st.orders[side] = orders
        # the table the total was read on, in the battles since: a save from before
        # replays to its own log byte for byte
        steps = {"command_table": [list(step) for step in table.steps]} if ctx.auto_pass else {}
        ctx.event(
            "orders",
            side=side,
            dice=dice,
            command_value=cv,
            generation_mod=gen,
            total=total,
            orders=orders,
            **steps,
        )


def decide(ctx: BattleContext) -> str:
    """What the movement phase waits for now: covering fire answering opportunity fire
    (WWII), opportunity fire at a committed move, the moves of a group whose attempt
    succeeded, or a side's next movement attempt."""
    st = ctx.state
    if st.covering is not None:
        return "covering_fire"
    if st.pending is not None:
        return "opportunity_fire"
    return "plot_move" if st.moving is not None else "move_attempt"


def options(ctx: BattleContext, side: str, kind: str) -> list[Action]:
    """The actions of each kind of movement decision (see :func:`decide`). While stands wait
    to enter and may still try, neither Pass nor EndMoves is offered (docs/rules.md,
    "Entering the table")."""
    if kind == "covering_fire":
        return [opportunity.EndCoveringFire(side)] + opportunity.covering_options(ctx, side)
    if kind == "opportunity_fire":
        return opportunity.opportunity_options(ctx, side)
    if kind == "plot_move":
        samples = moves.move_samples(ctx, ctx.state.moving)
        if moves.still_to_enter(ctx, samples):
            return samples
        return [EndMoves(side)] + samples
    attempts = moves.attempt_options(ctx, side)
    if moves.entry_due(ctx, side, attempts):
        return attempts
    return [Pass(side)] + attempts


def may_pass(ctx: BattleContext, side: str) -> str | None:
    """A side may not pass while a group of its holds stands waiting to enter that may still
    try to move (every stand enters as soon as it can; docs/rules.md)."""
    due = moves.entry_due(ctx, side)
    if due:
        return (
            f"group {due[0]} still has stands waiting to enter: try to move it first "
            "(every stand enters as soon as it can)"
        )
    return None


PHASE = Phase(
    "movement",
    "movement phase",
    kind="movement",
    choose_first=True,
    on_begin=roll_orders,
    on_end=restore_groups,
    decide=decide,
    options=options,
    handlers={
        MoveAttempt: do_move_attempt,
        EndMoves: do_end_moves,
        Move: do_move,
        **opportunity.HANDLERS,
    },
    may_pass=may_pass,
)


# ------------------------------------------------------------------ the full games' movement


def full_decide(ctx: BattleContext) -> str:
    """The full games add, after a movement action ends, the close assaults its stands may
    declare and the defender's answer to one (002 8.7)."""
    st = ctx.state
    if st.assault is not None:
        return "assault_reply"
    if st.assault_open is not None:
        return "close_assault"
    return decide(ctx)


def full_options(ctx: BattleContext, side: str, kind: str) -> list[Action]:
    """The full games' movement options: the intro's, boarding and setting down riders while
    a group moves (rules-decisions "Transport"), close assaults and the defender's answer
    (002 8.7)."""
    if kind == "close_assault":
        return melee.assault_options(ctx, side)
    if kind == "assault_reply":
        return [AssaultReply(side, t) for t in melee.reply_options(ctx)]
    acts = options(ctx, side, kind)
    if kind == "plot_move":
        group = ctx.state.moving
        acts += transport.mount_options(ctx, group) + transport.unload_options(ctx, group)
    return acts


FULL_PHASE = dataclasses.replace(
    PHASE,
    decide=full_decide,
    options=full_options,
    handlers={
        **PHASE.handlers,
        Mount: transport.do_mount,
        Unload: transport.do_unload,
        CloseAssault: melee.do_close_assault,
        AssaultReply: melee.do_assault_reply,
        EndCloseAssaults: melee.do_end_close_assaults,
    },
)
"""The movement phase of the full games (002 sequence of play step 6)."""
