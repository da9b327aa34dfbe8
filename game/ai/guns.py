"""Keeping the scripted AI's guns alive: guns parked side by side die to one HE mission
(a sheaf's markers are 2" circles laid side by side, and a deviated sheaf moves them all
together), so the veteran spreads them out beyond one sheaf's reach and moves a gun the enemy
has found (an enemy impact marker has come down near it). A gun that moves does not fire in
that turn (artillery never moves and fires in one turn), so it moves only for those reasons.

Every move is one the engine walks (``Battle.preview_moves`` through ``Paths.candidates``); the
spacing is data (``Level.gun_spacing``, a house value: the cards give no spacing)."""

from __future__ import annotations

import math

from game import Move, StandPose, heading_deg
from game.ai.values import Option


class Guns:
    """A part of :class:`game.ai.scripted.ScriptedAI`: when a gun should move
    (``gun_exposed``), and where (``gun_move``). Built with the AI's ``level`` and the parts
    it asks: ``situation`` (:class:`game.ai.situation.Situation`) and ``paths``
    (:class:`game.ai.paths.Paths`)."""

    def __init__(self, level, situation, paths) -> None:
        self.level = level
        self.situation = situation
        self.paths = paths

    def _is_gun(self, battle, s) -> bool:
        """Whether stand ``s`` fires indirect (the engine's ``indirect_reach``)."""
        return battle.indirect_reach(s.id) is not None

    def gun_exposed(self, battle, s) -> str | None:
        """Why gun ``s`` should move, in words a player can read, or None: another of our guns
        within ``Level.gun_spacing`` inches (one HE sheaf could take both), or an enemy impact
        marker within that distance (the enemy has found it). None for a level that keeps its
        guns where they start (``gun_spacing`` 0), a stand not on the table or not a gun."""
        spacing = self.level.gun_spacing
        if not spacing or not s.on_table or s.eliminated or not self._is_gun(battle, s):
            return None
        for o in sorted(battle.state.stands.values(), key=lambda o: o.id):
            if o.id == s.id or o.side != s.side or not o.active or not o.on_table:
                continue
            d = math.hypot(o.x - s.x, o.y - s.y)
            if d < spacing and self._is_gun(battle, o) and s.id > o.id:
                return f'{s.id} is {d:.1f}" from {o.id}: one HE mission could take both'
        for m in battle.state.impacts:
            if m.side != s.side and math.hypot(m.x - s.x, m.y - s.y) < spacing:
                return f'enemy HE came down {math.hypot(m.x - s.x, m.y - s.y):.1f}" from {s.id}'
        return None

    def gun_move(self, battle, s) -> Option | None:
        """The best move for gun ``s`` that ``gun_exposed`` says should move: of the moves the
        engine walks, the one that ends furthest (up to ``gun_spacing``) from our other guns
        and the enemy's impact markers, out of the enemy's sight where it can, near where it
        was (inches). None when no move does better than staying."""
        why = self.gun_exposed(battle, s)
        if why is None:
            return None
        spacing = self.level.gun_spacing
        guns = [
            (o.x, o.y)
            for o in battle.state.stands.values()
            if o.side == s.side and o.id != s.id and o.active and self._is_gun(battle, o)
        ] + [(m.x, m.y) for m in battle.state.impacts if m.side != s.side]
        enemies = self.situation.enemies(battle, s.side)
        goal = self.paths.goal(battle, s, enemies)
        cands = self.paths.candidates(battle, s, battle.movement_points(s.id), goal)
        seen = self._sighted(battle, s, [c[0] for c in cands] + [(s.x, s.y)], goal, enemies)

        def score(x: float, y: float, in_sight: bool) -> float:
            apart = min([spacing] + [math.hypot(x - gx, y - gy) for gx, gy in guns])
            return apart - 3.0 * in_sight - 0.05 * math.hypot(x - s.x, y - s.y)

        stay = score(s.x, s.y, seen[-1])
        best = None
        for i, (end, path, facing, _) in enumerate(cands):
            v = score(end[0], end[1], seen[i])
            if v > stay + 0.5 and (best is None or v > best[0]):
                best = (v, end, path, facing)
        if best is None:
            return None
        v, end, path, facing = best
        label = f"move {s.id} to ({end[0]:.1f}, {end[1]:.1f}): {why}"
        return Option(label, v - stay, Move(s.side, s.id, path, facing))

    def _sighted(self, battle, s, points, goal, enemies) -> list[bool]:
        """Per point (x, y inches): whether an enemy stand on the table would see gun ``s``
        standing there (the engine's sight matrices), facing ``goal``."""
        if not enemies:
            return [False] * len(points)
        poses = [
            StandPose(s.id, s.side, x, y, heading_deg(x, y, goal[0], goal[1]) % 360)
            for x, y in points
        ]
        others = [o.pose() for o in battle.state.stands.values() if o.active and o.id != s.id]
        _, m_ba = battle.table.sight_matrices(
            poses, [e.pose() for e in enemies], others, battle.sighting_in, battle.ruleset_data
        )
        return [bool(m_ba.clear[:, i].any()) for i in range(len(points))]
