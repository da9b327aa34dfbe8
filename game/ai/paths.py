"""Where the scripted AI looks for a stand's move: straight moves and nearby cover and hill
crests, the way on for a stand waiting to enter, closing up beside a stand of ours (WWII, 001
8.1.2) and moves into base contact with an enemy stand (WWII, 001 6.1), each walked by the
engine so every path given ends where the engine's walk stops."""

from __future__ import annotations

import math

from game import StandPose, heading_deg

UNLOAD_NEAR_IN = 12.0
"""A carrier sets its riders down once an enemy stand is this close (inches) after its move
(:mod:`game.ai.full`), so a foot stand is where it is needed within this distance of the
enemy (``Paths.way_to_go``)."""


class Paths:
    """A part of :class:`game.ai.scripted.ScriptedAI`: the candidate moves of one stand, as
    ``(end, path, facing, walk)`` tuples, where the fight is (``goal``) and how far a stand
    has still to go to it (``way_to_go``). Built with the AI's ``level`` and the
    ``situation`` part (:class:`game.ai.situation.Situation`)."""

    def __init__(self, level, situation) -> None:
        self.level = level
        self.situation = situation

    def goal(self, battle, s, enemies) -> tuple[float, float]:
        """Where the fight is: the nearest enemies, or the far side of the table."""
        if enemies:
            near = sorted(enemies, key=lambda e: math.hypot(e.x - s.x, e.y - s.y))[:3]
            return (sum(e.x for e in near) / len(near), sum(e.y for e in near) / len(near))
        t = battle.table
        edge = battle.side_spec[battle.other(s.side)].entry_edge
        return {
            "left": (0.4 * t.width, t.depth / 2),
            "right": (0.6 * t.width, t.depth / 2),
            "bottom": (t.width / 2, 0.4 * t.depth),
            "top": (t.width / 2, 0.6 * t.depth),
        }.get(edge, (t.width / 2, t.depth / 2))

    def nearest_enemy_in(self, battle, x: float, y: float, side: str) -> float:
        """The distance (inches) from (x, y) to the nearest active enemy stand of ``side``,
        or infinity when there is none."""
        enemies = [s for s in battle.state.stands.values() if s.active and s.side != side]
        return min((math.hypot(e.x - x, e.y - y) for e in enemies), default=math.inf)

    def way_to_go(self, battle, s) -> float:
        """How far (inches) foot stand ``s`` still has to go to where it is needed: to
        within :data:`UNLOAD_NEAR_IN` of the nearest enemy stand on the table (where a carrier
        sets its riders down), or within its weapon's range where that reaches further (an
        ATGM team fires from afar), or to the fight's likely place while none is on the
        table."""
        enemies = self.situation.enemies(battle, s.side)
        if not enemies:
            gx, gy = self.goal(battle, s, [])
            return math.hypot(gx - s.x, gy - s.y)
        near = max(UNLOAD_NEAR_IN, float(s.unit.max_range_in))
        return max(0.0, self.nearest_enemy_in(battle, s.x, s.y, s.side) - near)

    def candidates(self, battle, s, mp, goal) -> list[tuple]:
        """Reachable end points (straight moves and nearby cover) with the straight path there,
        the facing towards ``goal`` and the step points the engine would walk."""
        t = battle.table
        starts = [(s.x, s.y)]
        if not s.on_table:
            edge = battle.side_spec[s.side].entry_edge
            vertical = edge in ("left", "right")
            base = s.y if vertical else s.x
            limit = t.depth if vertical else t.width
            starts = [
                (s.x, v) if vertical else (v, s.y)
                for v in (base, base - 3, base + 3, base - 6, base + 6)
                if 0.5 <= v <= limit - 0.5
            ]
        out = []
        seen = set()
        n = self.level.directions
        targets: list[tuple[tuple, tuple]] = []
        for x0, y0 in starts:
            if not s.on_table:
                inward = math.atan2(goal[1] - y0, goal[0] - x0)
                headings = [inward + math.radians(d) for d in (-40, -20, 0, 20, 40)]
                fracs = (0.5, 1.0)
            else:
                headings = [2 * math.pi * k / n for k in range(n)]
                fracs = (0.4, 1.0)
            for a in headings:
                for f in fracs:
                    x = min(max(x0 + mp * f * math.cos(a), 0.5), t.width - 0.5)
                    y = min(max(y0 + mp * f * math.sin(a), 0.5), t.depth - 0.5)
                    targets.append(((x0, y0), (x, y)))
        if s.on_table:
            for p in self._cover_points(battle, s, mp):
                targets.append(((s.x, s.y), p))
        paths = [
            (start, end)
            for start, end in targets
            if math.dist(start, end) >= 0.5 and battle.path_problem(s.id, (start, end)) is None
        ]
        # the engine walks them all at once, each as it would walk it alone
        for (start, _), walk in zip(paths, battle.preview_moves(s.id, paths), strict=True):
            if len(walk.points) < 2:
                continue
            ex, ey = walk.points[-1]
            key = (round(ex, 1), round(ey, 1))
            if key in seen:
                continue
            seen.add(key)
            facing = heading_deg(ex, ey, goal[0], goal[1]) % 360
            if not battle.room_at(ex, ey, facing, ignore=s.id):
                continue
            out.append(((ex, ey), (start, (ex, ey)), facing, walk.points))
        if s.on_table and battle.rules.postures:
            # (WWII only: in Modern, 100 battles against the recruit went from 72 won to 62)
            out += self.contact_candidates(battle, s, mp, seen)
        moving = battle.phase is not None and battle.phase.kind == "movement"
        if battle.rules.postures and self.level.keeps_company and moving:
            # (not when planning in the posture phase: there only stands that have a shot
            # are planned, and the company counts only where there is none)
            out += self._formation_candidates(battle, s, mp, seen)
        return out

    def _cover_points(self, battle, s, mp) -> list[tuple[float, float]]:
        """Points just inside the edges of nearby cover (a stand there sees out) and on hill
        crests."""
        pts = []
        for f in battle.table.areas:
            tt = battle.data.terrain[f.kind]
            if tt.combat_vehicle <= 0 or tt.move_cost(s.unit.movement_class) is None:
                continue
            c = f.geometry.representative_point()
            if math.hypot(c.x - s.x, c.y - s.y) > mp + 4:
                continue
            for vx, vy in list(
                getattr(f.geometry, "exterior", f.geometry.convex_hull.exterior).coords
            )[:-1]:
                d = math.hypot(c.x - vx, c.y - vy) or 1.0
                pts.append((vx + 0.4 * (c.x - vx) / d, vy + 0.4 * (c.y - vy) / d))
        for crest in battle.table.hill_crests:
            if crest.is_empty:
                continue
            c = crest.representative_point()
            if math.hypot(c.x - s.x, c.y - s.y) <= mp + 4:
                pts.append((c.x, c.y))
        pts.sort(key=lambda p: math.hypot(p[0] - s.x, p[1] - s.y))
        return [p for p in pts if math.hypot(p[0] - s.x, p[1] - s.y) <= mp * 1.2][:8]

    def company(self, battle, s) -> list[StandPose]:
        """Where the other stands of our side will be when ``s`` ends its move: those that
        moved already this phase or are not in the movement action under way."""
        mv = battle.state.moving
        still = set(mv.stands) if mv is not None and mv.side == s.side else set()
        return [
            o.pose()
            for o in battle.state.stands.values()
            if o.side == s.side and o.active and o.id != s.id and (o.moved or o.id not in still)
        ]

    def _formation_candidates(self, battle, s, mp, seen) -> list[tuple]:
        """Moves to the side of a stand of ours, square to it and facing as it does, so that
        the two are in base contact and next turn may be one movement group (001 8.1.2).
        Only beside the 4 nearest of ours whose centres are within ``mp`` + 1.5 inches (the
        place beside one is 1" from its centre), and only where the whole footprint stays on
        the table, as for ``candidates``. Same tuples as ``candidates``."""
        t = battle.table
        near = [f for f in self.company(battle, s) if math.hypot(f.x - s.x, f.y - s.y) <= mp + 1.5]
        near.sort(key=lambda f: math.hypot(f.x - s.x, f.y - s.y))
        moves = []
        for f in near[:4]:
            a = math.radians(f.facing_deg + 90.0)
            for k in (1.0, -1.0):
                end = (f.x + k * math.cos(a), f.y + k * math.sin(a))
                if not (0.5 <= end[0] <= t.width - 0.5 and 0.5 <= end[1] <= t.depth - 0.5):
                    continue
                if s.on_table:
                    start = (s.x, s.y)
                else:
                    edge = battle.side_spec[s.side].entry_edge
                    start = (s.x, end[1]) if edge in ("left", "right") else (end[0], s.y)
                if math.dist(start, end) >= 0.5:
                    moves.append(((start, end), end, f.facing_deg))
        return self.exactly_to(battle, s, moves, seen)

    def exactly_to(self, battle, s, moves, seen) -> list[tuple]:
        """``(end, path, facing, walk)`` for each of ``moves`` (``(path, end, facing)``, in
        order) along whose ``path`` (inches) the engine would walk ``s`` all the way to ``end``
        this move where a stand fits at ``facing`` (degrees) and no candidate ended yet
        (``seen``, which it adds to)."""
        moves = [m for m in moves if battle.path_problem(s.id, m[0]) is None]
        walks = battle.preview_moves(s.id, [m[0] for m in moves]) if moves else []
        out = []
        for (path, end, facing), walk in zip(moves, walks, strict=True):
            if len(walk.points) < 2 or math.dist(walk.points[-1], end) > 1e-6:
                continue  # it is there already, or would not get there this move
            key = (round(end[0], 1), round(end[1], 1))
            if key in seen or not battle.room_at(end[0], end[1], facing, ignore=s.id):
                continue
            seen.add(key)
            out.append((end, path, facing, walk.points))
        return out

    def contact_candidates(self, battle, s, mp, seen) -> list[tuple]:
        """Moves into base contact with an enemy stand within reach: square to its front,
        either flank or its rear, the last inch straight in so that the footprints touch
        (edge to edge, 1" centre to centre) and our front faces it. Sight between stands in
        contact is never blocked by the terrain they stand in (000 07.01, 001 6.1), so this is
        the only way to reach a stand hidden deep in a wood. Same tuples as ``candidates``."""
        moves = []
        for e in self.situation.enemies(battle, s.side):
            if not e.on_table or math.hypot(e.x - s.x, e.y - s.y) > mp + 2.0:
                continue
            for turn in (0.0, 90.0, 180.0, 270.0):
                a = math.radians(e.facing_deg + turn)
                nx, ny = math.cos(a), math.sin(a)
                end = (e.x + nx, e.y + ny)
                if math.hypot(end[0] - s.x, end[1] - s.y) > mp + 0.5:
                    continue
                lead = (e.x + 2.0 * nx, e.y + 2.0 * ny)
                far = math.dist((s.x, s.y), lead) > 0.25
                path = ((s.x, s.y), lead, end) if far else ((s.x, s.y), end)
                # (the way in square to a stand at the table's edge may be off it: left out)
                facing = (math.degrees(a) + 180.0) % 360  # our front towards it
                moves.append((path, end, facing))
        return self.exactly_to(battle, s, moves, seen)
