"""The exact odds of fire support over every place it may land (rules-decisions "Artillery,
smoke and air strikes"; 002/004 indirect fire and air strike procedures): a mission or an
air strike weighed over its deviation roll (on the aim, or 1D8 directions times the distance
die), and the impact markers a move would drive into (002 step 6). These are what the
screens and the AI ask before they plot a mission or plan a move, so that they weigh the
harm to their own stands as the dice will deal it; nothing here changes the battle.

``where`` (optional, stand id -> (x, y) inches) places stands where they are expected to be
when the fire lands (a plot lands next turn, after both sides have moved); the rest stand
where they are. Units: inches."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import numpy as np
import shapely

from game.rules.procedures import air, artillery
from game.rules.state import StandState
from game.rules.table.geometry import footprints, heading_deg
from game.rules.table.smoke import MARKER_RADIUS_IN, on_marker

if TYPE_CHECKING:
    from game.rules.context import BattleContext

NO_EFFECT = {"none": 1.0, "S": 0.0, "D": 0.0, "E": 0.0}


def _placed(ctx: BattleContext, where) -> list[StandState]:
    """The active stands, each moved to ``where`` if it names it (copies; the battle's own
    stands are not touched)."""
    out = []
    for s in ctx.state.stands.values():
        if not s.active:
            continue
        if where and s.id in where:
            x, y = where[s.id]
            s = dataclasses.replace(s, x=float(x), y=float(y))
        out.append(s)
    return out


def _under_all(stands, spots) -> list[list[StandState]]:
    """For each of ``spots`` (inches), the stands of ``stands`` whose footprint overlaps the 2"
    marker there, by id (:func:`game.rules.procedures.artillery.stands_under` for placed stands): the
    markers near a stand are drawn, as :func:`game.rules.table.smoke.marker_circle` draws
    each, and tested, all at once."""
    out: list[list[StandState]] = [[] for _ in spots]
    if not stands or not spots:
        return out
    fps = footprints([s.pose() for s in stands])
    xy = np.array([(s.x, s.y) for s in stands], dtype=float)
    sp = np.array(spots, dtype=float)
    d = np.hypot(sp[:, None, 0] - xy[None, :, 0], sp[:, None, 1] - xy[None, :, 1])
    pi, si = np.nonzero(d <= MARKER_RADIUS_IN + 0.75)
    if not len(pi):
        return out
    at = np.unique(pi)
    circles = dict(zip(at.tolist(), _circles(sp[at]), strict=True))
    hit = on_marker(fps[si], np.array([circles[k] for k in pi.tolist()], dtype=object))
    for p, k, h in zip(pi.tolist(), si.tolist(), hit, strict=True):
        if h:
            out[p].append(stands[k])
    return [sorted(u, key=lambda s: s.id) for u in out]


def _circles(spots) -> np.ndarray:
    """The 2" markers centred at ``spots`` (an (n, 2) array), as
    :func:`game.rules.table.smoke.marker_circle` draws each, all at once."""
    points = shapely.points(spots[:, 0], spots[:, 1])
    return shapely.buffer(points, MARKER_RADIUS_IN, quad_segs=16)


def _add(total: dict, sid: str, chances: dict, p: float) -> None:
    row = total.setdefault(sid, {"none": 0.0, "S": 0.0, "D": 0.0, "E": 0.0})
    for k in ("S", "D", "E"):
        row[k] += p * chances[k]


def _close(total: dict) -> dict:
    for row in total.values():
        row["none"] = max(0.0, 1.0 - row["S"] - row["D"] - row["E"])
    return total


def mission_outcomes(ctx: BattleContext, side: str, firers, sheaf, ammo: str, kind: str, where=None) -> dict:
    """The odds of a mission over every place it may land: ``p_laid`` and ``p_on_aim`` as
    :func:`game.rules.artillery.mission_odds` gives them, and ``stands`` (id -> chance of
    "none", "S", "D" and "E"): how each stand that any landing would put under a marker
    ends, landing on the aim or deviated (1D8 directions, 1D8/2" when the deviation roll is
    rolled and fails), each marker laid when its firer's cohesion roll passes."""
    base = artillery.mission_odds(ctx, side, tuple(firers), tuple(sheaf), ammo, kind)
    out = {"p_laid": base["p_laid"], "p_on_aim": base["p_on_aim"], "stands": {}}
    if ammo != "he":
        return out
    p_on = base["p_on_aim"]
    landings = [((0.0, 0.0), p_on)]
    if p_on < 1.0:
        landings += [(off, (1.0 - p_on) * w) for off, w in artillery.deviation_offsets(8, True)]
    stands = _placed(ctx, where)
    spots = [(x + dx, y + dy) for (dx, dy), _ in landings for x, y in sheaf]
    ctx.table.terrain_at_many(spots + [(s.x, s.y) for s in stands])  # asked below, at once
    under = iter(_under_all(stands, spots))
    indirect = kind == "indirect"
    total: dict = {}
    known: dict = {}  # a marker's numbers depend on where it lands only through its terrain
    for (dx, dy), p in landings:
        attacks: dict[str, tuple[StandState, list]] = {}
        for sid, (x, y) in zip(firers, sheaf, strict=True):
            firer = ctx.stand(sid)
            mx, my = x + dx, y + dy
            for t in next(under):
                key = (sid, t.id, t.x, t.y, ctx.table.terrain_at(mx, my))
                if key not in known:
                    known[key] = artillery.impact_setup(ctx, firer, t, mx, my, indirect)
                setup = known[key]
                if setup is not None:
                    attacks.setdefault(t.id, (t, []))[1].append((base["p_laid"][sid], setup))
        for tid, (t, marks) in attacks.items():
            _add(total, tid, artillery.result_chances(ctx, t, marks), p)
    out["stands"] = _close(total)
    return out


def strike_outcomes(ctx: BattleContext, side: str, aircraft_name: str, path, where=None) -> dict:
    """The odds of an air strike over every place it may attack: ``p_arrives``,
    ``p_down_first`` and ``p_on_aim`` as :func:`game.rules.air.strike_odds` gives them, and
    ``stands`` (id -> chance of "none", "S", "D" and "E"): the stand nearest where it comes
    down, friend or foe, is attacked (002 step 8; stands as near share a die), on the point
    of attack or deviated (1D8 directions, 1D10" in 002, 1D8" in 004)."""
    odds = air.strike_odds(ctx, side, aircraft_name, path)
    out = {**odds, "stands": {}}
    aircraft = ctx.data.fire_support.aircraft[aircraft_name]
    _, poa, _ = (tuple(p) for p in path)
    sides = ctx.rules.support.deviation_die
    p_dev = max(0.0, odds["p_arrives"] - odds["p_down_first"] - odds["p_on_aim"])
    landings = [((0.0, 0.0), odds["p_on_aim"])]
    landings += [(off, p_dev * w) for off, w in artillery.deviation_offsets(sides, False)]
    stands = _placed(ctx, where)
    if not stands:
        return out
    spots = [(poa[0] + dx, poa[1] + dy) for (dx, dy), _ in landings]
    ctx.table.terrain_at_many(spots + [(s.x, s.y) for s in stands])  # asked below, at once
    total: dict = {}
    known: dict = {}  # the attack depends on where it comes down only through its terrain
    for (dx, dy), p in landings:
        if p <= 0:
            continue
        x, y = poa[0] + dx, poa[1] + dy
        tied = air.nearest_stands(ctx, x, y, stands)  # the engine's choice, ties by a die
        for t in tied:
            key = (t.id, t.x, t.y, ctx.table.terrain_at(x, y))
            if key not in known:
                base_d, defense = air.air_defense(ctx, t)
                firepower = aircraft.ordnance(t.unit.defense_class)
                setup = artillery.attack_numbers(ctx, t, firepower, base_d, defense, (x, y), side)
                known[key] = artillery.result_chances(ctx, t, [(1.0, setup)])
            _add(total, t.id, known[key], p / len(tied))
    out["stands"] = _close(total)
    return out


def entry_odds(ctx: BattleContext, stand_id: str, points, facing_deg: float) -> dict:
    """What the impact markers on the table would do to ``stand_id`` walked through
    ``points`` (its step centres, inches, the start first) and ending facing ``facing_deg``:
    ``markers`` (the ids of those it would enter that have not attacked it yet, 002 step 6:
    once per marker) and the chance of each of "none", "S", "D" and "E" after their attacks,
    made as the engine makes them when its move ends (the stand where it stops, carrying a
    movement marker in the full games)."""
    s = ctx.stand(stand_id)
    pts = [tuple(p) for p in points]
    if not ctx.state.impacts or len(pts) < 2:
        return {"markers": [], **NO_EFFECT}
    heads = [heading_deg(*pts[k - 1], *pts[k]) % 360.0 for k in range(1, len(pts))]
    entered = artillery.entered_markers(ctx, s, pts, [heads[0], *heads])
    if not entered:
        return {"markers": [], **NO_EFFECT}
    marker = s.movement_marker or ctx.rules.has("movement_markers")
    t = dataclasses.replace(
        s, x=pts[-1][0], y=pts[-1][1], facing_deg=facing_deg % 360.0, movement_marker=marker
    )
    attacks = []
    for imp in entered:
        setup = artillery.impact_setup(ctx, ctx.stand(imp.firer), t, imp.x, imp.y, True)
        if setup is not None:
            attacks.append((1.0, setup))
    return {"markers": [i.id for i in entered], **artillery.result_chances(ctx, t, attacks)}
