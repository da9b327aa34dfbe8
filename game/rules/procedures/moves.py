"""Moving stands on a battle's table: what a move may be (its path, entering from the edge,
room to stand), how far it gets (the engine's walk, 0.5" steps), where the enemy may fire at
it, and how it ends (fitting in, passing through an enemy stand on a nerve roll, the next
stand's turn) (000 08.03, 09.00, 07.06.05; 001 8.3). The movement phase and opportunity fire
(``game.rules.phases``) carry out moves through these functions, and the battle's queries
(preview, path problems, pass-through odds) read them too.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from game.rules.actions import Action, Move, MoveAttempt
from game.rules.context import IllegalAction
from game.rules.procedures import artillery, combat, melee, transport
from game.rules.procedures.combat import FireSetup, marker_mods, sight_info
from game.rules.state import MovingGroup, PendingMove, StandState
from game.rules.table.geometry import (
    FREE_MOVE_IN,
    STEP_IN,
    StandPose,
    Walk,
    footprint,
    footprints,
    heading_deg,
    overlaps,
    path_after,
)

if TYPE_CHECKING:
    from game.rules.context import BattleContext

PASS_THROUGH_MOD = (
    3  # cohesion penalty of the nerve roll to pass through an enemy stand (001 8.3.6)
)


def preview_move(ctx: BattleContext, stand_id: str, path) -> Walk:
    """How far a stand would get along ``path`` (inches, its centre first): the walk the
    engine will make, for the window's live preview (000 08.03, 09.00)."""
    s = ctx.stand(stand_id)
    return ctx.table.walk(
        path,
        ctx.movement_points(stand_id),
        s.unit.movement_class,
        no_pass=blocking(ctx, s)[1],
    )


def preview_moves(ctx: BattleContext, stand_id: str, paths) -> list[Walk]:
    """:func:`preview_move` for many candidate paths of one stand at once (each a sequence of
    (x, y) inches, its centre first): one Walk per path in order, exactly what
    :func:`preview_move` gives for it (000 08.03, 09.00), with the enemy footprints, their
    search tree and the terrain under every step asked for once. Raises IllegalAction for an
    unknown stand and ValueError for a path with no point."""
    s = ctx.stand(stand_id)
    return ctx.table.walks(
        paths,
        ctx.movement_points(stand_id),
        s.unit.movement_class,
        no_pass=blocking(ctx, s)[1],
    )


def blocking(ctx: BattleContext, s: StandState, passed: tuple[str, ...] = ()):
    """(ids, footprints) of the enemy stands ``s`` may not move into, but those it has
    already passed through in this move (001 8.3.6)."""
    if ctx.rules.has("overrun") and s.unit.movement_class != "F":
        return [], []  # a vehicle drives through enemy stands: an overrun (002 8.6)
    enemies = [
        e for e in ctx.state.stands.values() if e.active and e.side != s.side and e.id not in passed
    ]
    return [e.id for e in enemies], list(footprints([e.pose() for e in enemies]))


def pass_through_at(ctx: BattleContext, stand_id: str, path) -> tuple[str, float] | None:
    """Where a move along ``path`` (inches, the stand's centre first) would stop to roll
    the stand's nerve (001 8.3.6): (the enemy stand it would try to pass through, the
    chance in 0..1 that the cohesion roll at +3 passes), or None when it would not try.

    A WWII stand tries when the engine's walk stops it against an enemy stand and the
    path ends clear of that stand (a path that ends on the enemy asks only for base
    contact). Modern never passes through enemy stands (RD "Movement")."""
    s = ctx.stand(stand_id)
    if not ctx.rules.has("pass_through") or not path:
        return None
    ids, fps = blocking(ctx, s)
    walk = ctx.table.walk(path, ctx.movement_points(stand_id), s.unit.movement_class, no_pass=fps)
    enemy = pass_target(ctx, walk, path, ids, fps)
    if enemy is None:
        return None
    return enemy, nerve_chance(ctx, s)


def pass_target(ctx: BattleContext, walk: Walk, path, ids, fps) -> str | None:
    """The enemy stand a WWII walk stopped against and means to pass through (001 8.3.6), or
    None: when the path ends on that stand, only base contact is asked for."""
    if not ctx.rules.has("pass_through") or walk.stopped_by != "enemy" or walk.blocker is None:
        return None
    (x0, y0), (x1, y1) = (path[-2], path[-1]) if len(path) > 1 else (path[0], path[0])
    heading = heading_deg(x0, y0, x1, y1) if len(path) > 1 else 0.0
    if overlaps(footprint(x1, y1, heading), fps[walk.blocker]):
        return None  # the path ends on the enemy: the player asked for base contact only
    return ids[walk.blocker]


def nerve_chance(ctx: BattleContext, s: StandState) -> float:
    """The chance (0..1) that the stand's cohesion roll at +3 (and its own S and D) passes:
    a natural 1 always passes, a natural 20 always fails (000 04.00)."""
    mod = PASS_THROUGH_MOD + sum(v for _, v in marker_mods(s.S, s.D))
    return combat.p_cohesion(mod, ctx.cohesion_level(s.side))


def opportunity_setups(ctx: BattleContext) -> dict[int, list[FireSetup]]:
    """While a move waits for the enemy: step index -> the :class:`FireSetup` of each stand
    that may opportunity-fire there (the shots the offer was built from)."""
    pm = ctx.state.pending
    if pm is None:
        return {}
    out: dict[int, list[FireSetup]] = {}
    for (k, _), fs in sorted(pm.setups.items()):
        out.setdefault(k, []).append(fs)
    return out


def movable(ctx: BattleContext, side: str, group: str) -> list[StandState]:
    """The stands of ``side``'s group ``group`` that may still move this phase: not
    eliminated, not moved, not in the firing posture, not riding in a carrier (000 08.03.01;
    001 8.1.2; RD "Transport")."""
    return [
        s
        for s in ctx.state.stands.values()
        if s.side == side
        and s.group == group
        and not s.eliminated
        and not s.moved
        and s.posture != "firing"
        and s.carried_by is None
        and not s.artillery_fired  # 002 check list note 2
    ]


def attempt_options(ctx: BattleContext, side: str) -> list[Action]:
    """The movement attempts ``side`` may make: each group with stands to move, by order while
    orders last, else independently once (000 08.02.08, 08.02.10)."""
    st = ctx.state
    groups = sorted({s.group for s in st.stands.values() if s.side == side})
    acts: list[Action] = []
    for g in groups:
        if not movable(ctx, side, g):
            continue
        key = f"{side}:{g}"
        if st.orders.get(side, 0) > 0:
            acts.append(MoveAttempt(side, g, True))
        elif key not in st.independent_used and key not in st.groups_moved:
            acts.append(MoveAttempt(side, g, False))
    return acts


def entry_due(ctx: BattleContext, side: str, attempts: list[Action] | None = None) -> list[str]:
    """Groups of ``side`` that hold stands waiting to enter and may still try to move this
    movement phase (``attempts``: its move attempts, when already listed). Until each has
    tried, the side may not stop moving (scenario sheets: the forces enter on turn 1, so a
    stand comes on as soon as it can; docs/rules.md "Entering the table"). Empty outside
    the movement phase. Raises nothing."""
    phase = ctx.phase
    if phase is None or phase.kind != "movement":
        return []
    if attempts is None:
        attempts = attempt_options(ctx, side)
    return [a.group for a in attempts if any(not s.on_table for s in movable(ctx, side, a.group))]


def still_to_enter(ctx: BattleContext, samples: list[Action]) -> list[str]:
    """Stands of the moving group still waiting to enter that have a way on (a sampled
    entry move): the movement action may not end before they have entered."""
    return sorted(
        {a.stand for a in samples if isinstance(a, Move) and not ctx.state.stands[a.stand].on_table}
    )


def edge_point(ctx: BattleContext, s: StandState, v: float) -> tuple[float, float]:
    """The point ``v`` inches along the entry edge of a stand waiting to enter (its x or y
    is already on the edge)."""
    vertical = ctx.side_spec[s.side].entry_edge in ("left", "right")
    return (s.x, v) if vertical else (v, s.y)


def move_samples(ctx: BattleContext, moving: MovingGroup) -> list[Action]:
    """Straight sample moves of the moving group's stands: eight directions at full movement
    points, kept 0.5" inside the table; stands waiting to enter from a few points of their
    edge (docs/rules.md "Entering the table"). Any path the engine can walk is legal too."""
    acts: list[Action] = []
    w, d = ctx.table.width, ctx.table.depth
    for sid in moving.stands:
        s = ctx.state.stands[sid]
        if s.moved or s.eliminated:
            continue
        reach = ctx.movement_points(sid)
        starts = [(s.x, s.y)]
        if not s.on_table:
            vertical = ctx.side_spec[s.side].entry_edge in ("left", "right")
            base, limit = (s.y, d) if vertical else (s.x, w)
            along = [v for v in (base, base - 3, base + 3) if 0.5 <= v <= limit - 0.5]
            if not any(ctx.room_at(*edge_point(ctx, s, v), 0.0) for v in along):
                # stands in the way there: the nearest points of the edge with room
                free = [
                    v
                    for v in np.arange(0.5, limit - 0.5 + 1e-9, STEP_IN)
                    if ctx.room_at(*edge_point(ctx, s, float(v)), 0.0)
                ]
                along = sorted(free, key=lambda v: (abs(v - base), v))[:2]
            starts = [edge_point(ctx, s, float(v)) for v in along]
        for x0, y0 in starts:
            for k in range(8):
                a = math.radians(45 * k)
                dx, dy = math.cos(a), math.sin(a)
                # stay on the table: shorten the leg to end 0.5" inside every edge
                lim = reach
                for v, dv, hi in ((x0, dx, w), (y0, dy, d)):
                    if dv > 1e-9:
                        lim = min(lim, (hi - 0.5 - v) / dv)
                    elif dv < -1e-9:
                        lim = min(lim, (0.5 - v) / dv)
                if lim < 0.5:
                    continue
                path = ((x0, y0), (round(x0 + lim * dx, 6), round(y0 + lim * dy, 6)))
                if ctx.table.crosses_impassable(path) or (
                    not s.on_table and path_problem(ctx, sid, path) is not None
                ):
                    continue
                acts.append(Move(moving.side, sid, path, float(45 * k)))
    return acts


def plan_part(
    ctx: BattleContext,
    side: str,
    s: StandState,
    path,
    facing_deg: float,
    mp: float,
    entering: bool,
    passed: tuple[str, ...] = (),
    walked_in: float = 0.0,
) -> PendingMove:
    """(A part of) a move as the engine will walk it, with where the enemy could
    opportunity-fire at it (000 07.06.05; 001 8.3.6 for a later part), changing nothing: the
    walk in 0.5" steps, each step's heading and road rate, an enemy stand it would stop to pass
    through, and the offer. A later part, after a nerve roll, starts where the stand stopped:
    that point was offered already, so it is not offered again."""
    ids, fps = blocking(ctx, s, passed)
    walk = ctx.table.walk(
        path,
        mp,
        s.unit.movement_class,
        free_in=max(0.0, FREE_MOVE_IN - walked_in),
        no_pass=fps,
    )
    points = walk.points
    headings = [s.facing_deg] * len(points)
    for i in range(1, len(points)):
        headings[i] = heading_deg(*points[i - 1], *points[i]) % 360.0
    if len(points) > 1:
        headings[0] = headings[1]
    road = road_flags(ctx, points)
    blocker = pass_target(ctx, walk, path, ids, fps)
    pending = PendingMove(
        side,
        s.id,
        path,
        facing_deg,
        points,
        tuple(headings),
        walk.step_costs,
        mp,
        walk.stopped_by,
        road,
        entering,
        {},
        start_facing=headings[0] if entering else s.facing_deg,
        blocker=blocker,
        rest=path_after(path, walk.distance_in) if blocker else (),
        passed=passed,
        walked_in=walked_in,
    )
    pending.offer.update(opportunity_offer(ctx, s, pending))
    if passed:  # where it stopped to roll was offered already
        pending.offer.pop(0, None)
        pending.setups = {k: fs for k, fs in pending.setups.items() if k[0] != 0}
    return pending


def begin_part(
    ctx: BattleContext,
    side: str,
    s: StandState,
    path,
    facing_deg: float,
    mp: float,
    entering: bool,
    passed: tuple[str, ...] = (),
    walked_in: float = 0.0,
) -> None:
    """Walk (a part of) a move (:func:`plan_part`) and offer it to the enemy's opportunity
    fire (000 07.06.05): the move waits for the enemy's answer, or finishes at once when
    nobody could fire."""
    pending = plan_part(ctx, side, s, path, facing_deg, mp, entering, passed, walked_in)
    if pending.offer:
        ctx.state.pending = pending
        ctx.state.to_act = ctx.other(side)
    else:
        finish_move(ctx, pending, None)


def threats(ctx: BattleContext, stand_id: str, path, facing_deg: float) -> PendingMove | None:
    """The engine's own opportunity offer for a move the stand's side is plotting, before it
    is committed (the threat preview): the same walk and the same offer :func:`begin_part`
    would make for its first part, changing nothing. None when the move would be refused
    (:func:`path_problem`)."""
    s = ctx.stand(stand_id)
    if path_problem(ctx, stand_id, path) is not None:
        return None
    return plan_part(
        ctx,
        s.side,
        s,
        tuple(path),
        facing_deg % 360.0,
        ctx.movement_points(stand_id),
        not s.on_table,
    )


def path_problem(ctx: BattleContext, stand_id: str, path) -> str | None:
    """Why a move along ``path`` (inches, (x, y) points) would be refused for the stand,
    or None if the engine would walk it: every point finite; starting at the stand's
    centre, or for a stand waiting to enter on its side's entry edge with room there
    (RD "Entering the table"); never off the table; never across impassable ground
    (000 09.00.01; RD "Movement"). How far the stand gets is :meth:`preview_move`'s answer.
    """
    s = ctx.stand(stand_id)
    if not path or not all(math.isfinite(v) for p in path for v in p):
        return "a move needs a path of finite points"
    if not s.on_table:
        try:
            check_entry(ctx, s, path)
        except IllegalAction as err:
            return str(err)
    elif math.hypot(path[0][0] - s.x, path[0][1] - s.y) > 1e-6:
        return "a path starts at the stand's centre (RD Movement)"
    if any(not ctx.table.on_table(x, y) for x, y in path):
        return "the path leaves the table (RD Movement)"
    if ctx.table.crosses_impassable(path):
        return "the path crosses impassable ground (000 09.00.01)"
    return None


def check_entry(ctx: BattleContext, s: StandState, path) -> None:
    """Raise IllegalAction unless an entering stand's path starts on its side's entry edge
    with room there and ends 0.5" or more inside the table (RD "Entering the table")."""
    edge = ctx.side_spec[s.side].entry_edge
    x, y = path[0]
    w, d = ctx.table.width, ctx.table.depth
    on_edge = {
        "left": abs(x) < 1e-6 and 0.5 <= y <= d - 0.5,
        "right": abs(x - w) < 1e-6 and 0.5 <= y <= d - 0.5,
        "bottom": abs(y) < 1e-6 and 0.5 <= x <= w - 0.5,
        "top": abs(y - d) < 1e-6 and 0.5 <= x <= w - 0.5,
    }.get(edge, False)
    if not on_edge:
        raise IllegalAction(
            f"{s.id} enters from the {edge} edge: start the path on it (RD Entering the table)"
        )
    ex, ey = path[-1]
    inside = {"left": ex, "right": w - ex, "bottom": ey, "top": d - ey}.get(edge, STEP_IN)
    if inside < STEP_IN - 1e-9:
        # a stand left on or along the edge would hang half off the table
        raise IllegalAction(
            f'{s.id} must drive onto the table: end its path at least 0.5" in from the edge '
            "(RD Entering the table)"
        )
    heading = heading_deg(x, y, *path[1]) if len(path) > 1 else s.facing_deg
    if not ctx.room_at(x, y, heading):
        raise IllegalAction(f"there is no room for {s.id} to enter there (RD Entering the table)")


def road_flags(ctx: BattleContext, points) -> tuple[bool, ...]:
    """For each step point after the first: was the step arriving there paid at a road's
    rate (RD: no cover while moving at road rate)."""
    if len(points) < 2:
        return ()
    mids = np.array(
        [
            ((x0 + x1) / 2, (y0 + y1) / 2)
            for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False)
        ]
    )
    return tuple(ctx.table.terrain_at(x, y).road is not None for x, y in mids)


def opportunity_offer(ctx: BattleContext, mover: StandState, pm: PendingMove) -> dict[int, list[tuple[str, str]]]:
    """Where along the path each eligible enemy stand could fire (000 07.06.05): a stand
    suffers one opportunity-fire attack a movement phase at most."""
    if ctx.rules.fire.attack_refused(mover, "opportunity", "movement"):
        return {}  # once a movement phase (000 07.02.03); once a turn in WWII (001 7.1.2)
    firers = [
        e
        for e in ctx.state.stands.values()
        if e.active and e.side != mover.side and ctx.rules.fire.may_opportunity_fire(e)
    ]
    if not firers:
        return {}
    targets = [
        StandPose(mover.id, mover.side, x, y, h)
        for (x, y), h in zip(pm.points, pm.headings, strict=True)
    ]
    m = ctx.table.sight_matrix(
        [f.pose() for f in firers],
        targets,
        ctx.poses(exclude=mover.id),
        ctx.sighting_in,
        ctx.ruleset_data,
    )
    offer: dict[int, list[tuple[str, str]]] = {}
    for i, f in enumerate(firers):
        for k in np.nonzero(m.clear[i])[0]:
            info = sight_info(m, i, k)
            road = pm.road_rate[k - 1] if k > 0 else False
            for weapon in ("cannon", "atgm") if f.unit.atgm else ("cannon",):
                fs = combat.fire_setup(
                    ctx, f.id, mover.id, weapon, "opportunity", targets[k], info, road
                )
                if fs.legal:
                    offer.setdefault(int(k), []).append((f.id, weapon))
                    pm.setups[(int(k), f.id)] = fs
                    break
    return offer


def go_on(ctx: BattleContext, pm: PendingMove, step: int, go_on: dict) -> None:
    """The mover goes on after opportunity fire (and any covering fire): the rest of its
    move, or nothing if it was eliminated (001 7.4.4, 000 07.06.05). A mover eliminated part
    way has moved, and so has its group: its other stands may go on with this action or move
    later only by a further order, never independently (000 08.02.08, ruling R1); riders of
    the same group that got out of it are of that group too."""
    mover = ctx.stand(pm.stand)
    if mover.eliminated:
        mover.moved = True
        ctx.state.groups_moved.add(f"{mover.side}:{mover.group}")
        after_move(ctx, pm.side)
        return
    finish_move(ctx, pm, step, go_on)


def finish_move(ctx: BattleContext, pm: PendingMove, from_step: int | None, go_on: dict | None = None) -> None:
    """Walk the rest of the move (all of it when nothing interrupted it), fit the stand in
    where it ends, and log the part (000 08.03.05, 07.06.05 part 3). A WWII stand stopped
    against an enemy stand it means to pass through rolls its nerve there (cohesion at +3,
    001 8.3.6, logged on the part's ``move`` line as ``pass_through``): if it passes, the
    rest of its path is a new part of the same move; if not, it stays there."""
    s = ctx.stand(pm.stand)
    start = from_step or 0
    end = len(pm.points) - 1
    stopped = pm.stopped_by
    if go_on and go_on.get("roll") is not None and not go_on["passed"]:
        end, stopped = start, "cohesion"
    last = len(pm.points) - 1
    to_pass = pm.blocker is not None and end == last
    # stopped to test its nerve, the stand still faces the way it drives
    facing = pm.headings[end] if end < last or to_pass else pm.facing_deg
    fit, facing, walked = _fit_in(ctx, s, pm, start, end, facing)
    if fit < end:
        stopped = "overlap"
    mp_left = pm.mp_allowed - sum(pm.step_costs[:start])
    spent = sum(pm.step_costs[start:end])
    if stopped not in (None, "opportunity_fire", "cohesion", "overlap", "mp", "enemy"):
        stopped = "mp"  # edge and impassable ground are refused when the move is declared
    nerve = None
    if to_pass and stopped == "enemy" and fit == end:
        nerve, facing = _pass_through_roll(ctx, s, pm, end, facing)
    ev = dict(
        side=pm.side,
        stand=s.id,
        path=[[round(px, 6), round(py, 6)] for px, py in walked],
        mp_spent=round(min(spent, mp_left), 6),
        mp_allowed=round(mp_left, 6),
        facing_deg=round(facing % 360.0, 6),
        stopped_by=stopped,
        entered=pm.entered and from_step is None,
    )
    if go_on and go_on.get("roll") is not None:
        ev["cohesion"] = go_on
    if nerve is not None:
        ev["pass_through"] = nerve
    ctx.event("move", **ev)
    s.mp_spent += ev["mp_spent"]
    s.x, s.y = pm.points[fit]
    s.facing_deg = facing % 360.0
    s.on_table = True
    if ctx.rules.has("movement_markers") and (len(ev["path"]) > 1 or from_step is not None):
        s.movement_marker = True  # it moved this turn (RD "Movement markers")
    if ctx.rules.has("transport"):
        transport.carry(ctx, s)
    if nerve is not None and nerve["passed"]:
        _pass_on(ctx, s, pm, max(0.0, mp_left - spent))
        return
    s.moved = True
    ctx.state.groups_moved.add(f"{s.side}:{s.group}")
    if ctx.rules.has("overrun"):
        _overrun_on_the_way(ctx, s, pm, fit)
    after_move(ctx, pm.side)


def _fit_in(
    ctx: BattleContext, s: StandState, pm: PendingMove, start: int, end: int, facing: float
) -> tuple[int, float, list]:
    """Where the part of ``pm`` from step point ``start`` to ``end`` may end with the stand
    facing ``facing`` (degrees) and clear of every other stand (000 08.03.05): backed off
    along the path to the last point it fits (``Table.fit_back``), or, fitting nowhere turned
    that way, where it started, as it was. Returns ``(fit, facing, walked)``: the step index
    it ends on, its facing, and the points it walked (x, y inches; walking back past
    ``start`` when it fits only before the part began)."""
    others = footprints([o.pose() for o in ctx.state.stands.values() if o.active and o.id != s.id])
    fit = ctx.table.fit_back(pm.points[: end + 1], facing, list(others))
    if fit < 0:  # fits nowhere turned that way: it stays where it started, as it was
        fit, facing = 0, pm.start_facing
    walked = list(pm.points[start : end + 1])
    if fit < end:
        walked = (
            list(pm.points[start : fit + 1])
            if fit >= start
            else [pm.points[start]] + [pm.points[i] for i in range(start - 1, fit - 1, -1)]
        )
    return fit, facing, walked


def _pass_through_roll(
    ctx: BattleContext, s: StandState, pm: PendingMove, end: int, facing: float
) -> tuple[dict, float]:
    """A WWII stand stopped against the enemy stand it means to pass through rolls its nerve
    (cohesion at ``PASS_THROUGH_MOD`` plus its markers, 001 8.3.6), one roll of the battle's
    dice. Returns the roll as the log writes it (with the ``enemy``) and the stand's facing
    (degrees): failed, it stays and may still turn as the player asked, room allowing."""
    mods = [("pass_through", PASS_THROUGH_MOD), *marker_mods(s.S, s.D)]
    nerve = {"enemy": pm.blocker, **combat.cohesion_roll(ctx, mods, ctx.cohesion_level(s.side))}
    x, y = pm.points[end]
    if not nerve["passed"] and ctx.room_at(x, y, pm.facing_deg, ignore=s.id):
        facing = pm.facing_deg  # it stays, and may still turn as the player asked
    return nerve, facing


def _pass_on(ctx: BattleContext, s: StandState, pm: PendingMove, mp_left: float) -> None:
    """Having passed its nerve roll (001 8.3.6), the stand goes on past the enemy stand: the
    rest of its path is a new part of the same move, with ``mp_left`` movement points and
    the distance walked so far (inches) carried on."""
    so_far = pm.walked_in + sum(
        math.dist(p, q) for p, q in zip(pm.points, pm.points[1:], strict=False)
    )
    begin_part(
        ctx,
        pm.side,
        s,
        pm.rest,
        pm.facing_deg,
        mp_left,
        False,
        (*pm.passed, pm.blocker),
        so_far,
    )


def _overrun_on_the_way(ctx: BattleContext, s: StandState, pm: PendingMove, fit: int) -> None:
    """The full games, once a stand's move ends on step ``fit``: the enemy stands its walked
    path crossed are overrun, after its opportunity fire (002/004 8.6), and, with impact
    markers on the table, it rolls for each it entered (002 step 6)."""
    walked_all = pm.points[: fit + 1]
    crossed = melee.overrun_crossed(ctx, s, walked_all, pm.headings[: fit + 1])
    melee.resolve_overruns(ctx, s, crossed)
    if ctx.state.impacts:  # stands entering an impact marker roll for effect (002 step 6)
        artillery.entered_impacts(ctx, s, walked_all, pm.headings[: fit + 1])


def after_move(ctx: BattleContext, side: str) -> None:
    """After a stand's move: the movement action goes on while stands of the group have not
    moved (or, full games, while a carrier of it that has moved may still set down a
    rider), else it ends (000 08.03.01; :func:`end_action`)."""
    st = ctx.state
    st.pending = None
    mg = st.moving
    if mg is not None and all(
        ctx.state.stands[i].moved or ctx.state.stands[i].eliminated for i in mg.stands
    ):
        if ctx.rules.has("transport") and transport.may_still_unload(ctx, mg):
            st.to_act = side
            return
        st.moving = None
        end_action(ctx, mg)
    else:
        st.to_act = side


def end_action(ctx: BattleContext, group: MovingGroup) -> None:
    """A movement action is over: in the full games its stands in base contact with the
    enemy may close-assault (002 8.7), else the other side acts."""
    if not melee.open_assaults(ctx, group):
        ctx.state.to_act = ctx.other(group.side)
