"""Carriers and their riders in the full games (rules-decisions "Transport"; the cards name
IFVs and APCs carrying troops, the text of the rule is lost).

A personnel stand in base contact with a friendly carrier that has room boards it when the
carrier's move begins; it then rides, out of play (it neither fires nor is fired at) and goes
where the carrier goes. A carrier sets a rider down in base contact with it at the start or
the end of its move; the rider moves no further that phase. A carrier that loads or unloads
moves at most half its allowance that phase. A carrier eliminated with riders aboard: each
rolls cohesion, a failure eliminates it, a success sets it down beside the wreck,
disorganized.

Spots beside a carrier, in its own frame (forward is its facing): 0 behind, 1 on its left,
2 on its right, 3 in front, each 1" from its centre, so the footprints touch.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from game.rules.actions import Mount, Unload
from game.rules.context import IllegalAction
from game.rules.files.log import pos
from game.rules.procedures import combat
from game.rules.procedures.combat import marker_mods
from game.rules.state import MovingGroup, StandState
from game.rules.table.geometry import base_contact

if TYPE_CHECKING:
    from game.rules.context import BattleContext

SPOTS = ((-1.0, 0.0), (0.0, 1.0), (0.0, -1.0), (1.0, 0.0))
"""(forward, left) offsets in inches of the four spots beside a carrier: behind, left, right,
in front."""


def riders(ctx: BattleContext, carrier_id: str) -> list[StandState]:
    """The stands riding in a carrier, in id order."""
    return sorted(
        (s for s in ctx.state.stands.values() if s.carried_by == carrier_id and not s.eliminated),
        key=lambda s: s.id,
    )


def seats_free(ctx: BattleContext, c: StandState) -> int:
    """How many more personnel stands carrier ``c`` may take aboard (its ``carrier`` places
    less those riding in it; 0 for a stand that carries nobody; RD "Transport")."""
    return max(0, (c.unit.carrier or 0) - len(riders(ctx, c.id)))


def spot_xy(carrier: StandState, spot: int) -> tuple[float, float]:
    """The centre (inches) of spot ``spot`` (0-3) beside the carrier."""
    fwd, left = SPOTS[spot]
    a = math.radians(carrier.facing_deg)
    c, s = math.cos(a), math.sin(a)
    return (
        round(carrier.x + fwd * c - left * s, 9),
        round(carrier.y + fwd * s + left * c, 9),
    )


def spot_problem(ctx: BattleContext, carrier: StandState, rider: StandState, spot: int) -> str | None:
    """Why ``rider`` may not be set down at ``spot`` beside ``carrier``, or None: on the
    table, on ground a foot stand may enter, with room (no overlap with a stand)."""
    if spot not in range(len(SPOTS)):
        return f"spot {spot} is not 0 (behind), 1 (left), 2 (right) or 3 (in front)"
    x, y = spot_xy(carrier, spot)
    t = ctx.table
    if not (0.5 <= x <= t.width - 0.5 and 0.5 <= y <= t.depth - 0.5):
        return "that spot is off the table"
    costs, _ = t.move_costs_at([x], [y], "F")
    if t.crosses_impassable(((x, y),)) or not math.isfinite(float(costs[0])):
        return "that spot is on ground the stand may not enter"
    if not ctx.room_at(x, y, carrier.facing_deg, ignore=rider.id):
        return "another stand is in the way there"
    return None


def mount_options(ctx: BattleContext, group: MovingGroup) -> list[Mount]:
    """Boardings open now: each carrier of the moving group that has not moved and has room,
    with each friendly personnel stand in base contact with it that has not moved this phase
    and may move (not in the firing posture)."""
    acts: list[Mount] = []
    st = ctx.state
    for cid in group.stands:
        c = st.stands[cid]
        if not c.active or c.moved or not seats_free(ctx, c):
            continue
        cp = c.pose()
        for s in st.stands.values():
            if (
                s.side == c.side
                and s.active
                and s.personnel
                and not s.moved
                and s.posture != "firing"
                and abs(s.x - c.x) < 1.6
                and abs(s.y - c.y) < 1.6
                and base_contact(cp, s.pose())
            ):
                acts.append(Mount(group.side, cid, s.id))
    return acts


def may_unload(ctx: BattleContext, c: StandState) -> bool:
    """Whether a carrier of the moving group may set a rider down now: before its move, or
    after it having spent no more than half its allowance (it moves at most half when it
    unloads)."""
    return c.active and (not c.moved or c.mp_spent <= c.unit.speed / 2 + 1e-9)


def unload_options(ctx: BattleContext, group: MovingGroup) -> list[Unload]:
    """Each rider of each carrier of the moving group that may unload now, at each free
    spot beside it."""
    acts: list[Unload] = []
    for cid in group.stands:
        c = ctx.state.stands[cid]
        if not may_unload(ctx, c):
            continue
        for r in riders(ctx, cid):
            for spot in range(len(SPOTS)):
                if spot_problem(ctx, c, r, spot) is None:
                    acts.append(Unload(group.side, cid, r.id, spot))
    return acts


def _carrier_of_group(ctx: BattleContext, side: str, carrier_id: str) -> StandState:
    st = ctx.state
    if st.moving is None or st.pending is not None or st.moving.side != side:
        raise IllegalAction("carriers load and unload during their group's movement action")
    if carrier_id not in st.moving.stands:
        raise IllegalAction(f"{carrier_id} is not a stand of the group moving now")
    c = ctx.stand(carrier_id)
    if not c.unit.carrier:
        raise IllegalAction(f"{carrier_id} ({c.unit_name}) carries no troops")
    return c


def do_mount(ctx: BattleContext, a: Mount) -> None:
    """A personnel stand boards a carrier of the moving group as the carrier's move begins
    (rules-decisions "Transport")."""
    c = _carrier_of_group(ctx, a.side, a.carrier)
    moving = ctx.state.moving
    if moving is None or Mount(a.side, a.carrier, a.stand) not in mount_options(ctx, moving):
        s = ctx.stand(a.stand)
        if c.moved:
            raise IllegalAction(f"{c.id} has moved: troops board as its move begins")
        if not seats_free(ctx, c):
            raise IllegalAction(f"{c.id} is full")
        raise IllegalAction(
            f"{s.id} may not board {c.id}: it must be a friendly personnel stand in base "
            "contact with it that has not moved this phase"
        )
    s = ctx.stand(a.stand)
    s.carried_by = c.id
    s.moved = True
    s.movement_marker = True
    s.x, s.y, s.facing_deg = c.x, c.y, c.facing_deg
    c.loaded = True
    ctx.event(
        "mount",
        rule="RD Transport",
        side=a.side,
        carrier=c.id,
        stand=s.id,
        pos=pos(c.x, c.y, c.facing_deg),
    )


def do_unload(ctx: BattleContext, a: Unload) -> None:
    """A carrier of the moving group sets a rider down beside it, before or after its move
    (rules-decisions "Transport")."""
    c = _carrier_of_group(ctx, a.side, a.carrier)
    s = ctx.stand(a.stand)
    if s.carried_by != c.id:
        raise IllegalAction(f"{s.id} is not riding in {c.id}")
    if not may_unload(ctx, c):
        raise IllegalAction(
            f"{c.id} has spent more than half its movement points: it may not unload now"
        )
    why = spot_problem(ctx, c, s, a.spot)
    if why:
        raise IllegalAction(why)
    x, y = spot_xy(c, a.spot)
    s.carried_by = None
    s.x, s.y, s.facing_deg = x, y, c.facing_deg
    s.on_table = True
    s.moved = True
    s.movement_marker = True
    c.loaded = True
    ctx.event(
        "unload",
        rule="RD Transport",
        side=a.side,
        carrier=c.id,
        stand=s.id,
        pos=pos(x, y, c.facing_deg),
        cause="unloaded",
    )


def carry(ctx: BattleContext, carrier: StandState) -> None:
    """Riders go where their carrier is."""
    for r in riders(ctx, carrier.id):
        r.x, r.y, r.facing_deg, r.on_table = carrier.x, carrier.y, carrier.facing_deg, True


def may_still_unload(ctx: BattleContext, group: MovingGroup) -> bool:
    """Whether a carrier of the group that has moved may still set a rider down (its move
    is over, so the movement action waits for the side to unload or end it)."""
    return any(
        ctx.state.stands[cid].moved
        and unload_options(ctx, MovingGroup(group.side, group.group, group.ordered, [cid]))
        for cid in group.stands
        if riders(ctx, cid)
    )


def bail_out(ctx: BattleContext, carrier_id: str) -> None:
    """A carrier eliminated with riders aboard (rules-decisions "Transport"): each rolls
    cohesion (+4 S, +3 D); a failure eliminates it; a success sets it down at the first free
    spot beside the wreck, disorganized (eliminated where there is none)."""
    c = ctx.stand(carrier_id)
    for r in riders(ctx, carrier_id):
        roll = combat.cohesion_roll(ctx, marker_mods(r.S, r.D), ctx.cohesion_level(r.side))
        r.carried_by = None
        r.x, r.y, r.facing_deg = c.x, c.y, c.facing_deg
        where = None
        if roll["passed"]:
            where = next((k for k in range(len(SPOTS)) if spot_problem(ctx, c, r, k) is None), None)
        if where is None:
            r.eliminated = True  # aboard: no wreck of its own
        else:
            r.x, r.y = spot_xy(c, where)
            r.D = True
            r.movement_marker = False
            if ctx.rules.postures and r.posture is None:
                r.posture = "firing"  # aboard it took none; out, it is in no movement group
        ctx.event(
            "unload",
            rule="RD Transport",
            side=r.side,
            carrier=c.id,
            stand=r.id,
            pos=pos(r.x, r.y, r.facing_deg),
            cause="carrier_eliminated",
            cohesion=roll,
            markers_after=r.markers(),
        )
