"""The battle facade's questions of sight: what one stand sees of another, the ruler's line
of sight, and which enemy stands would see a stand at a point (000 07.01, 07.08; 001 6.1,
7.3). :class:`game.rules.battle.Battle` has them; the screens and the AI ask these, never
working out a rule themselves. Units: inches and degrees."""

from __future__ import annotations

from game.rules.battle_parts import BattleParts
from game.rules.table.geometry import StandPose, heading_deg


class SightQueries(BattleParts):
    """Mixin of :class:`game.rules.battle.Battle` (it has ``ctx``, ``state``, ``stand``,
    ``poses``, ``table``, ``sighting_in`` and ``ruleset_data``)."""

    def sight(self, firer_id: str, target_id: str):
        """What ``firer_id`` sees of ``target_id``: the geometry's :class:`Sight`, which the
        LOS tool shows and the fire check uses (000 07.01, 07.08)."""
        f, t = self.stand(firer_id), self.stand(target_id)
        return self.table.sight(
            f.pose(), t.pose(), self.poses(), self.sighting_in, self.ruleset_data
        )

    def line_of_sight(
        self, x0: float, y0: float, x1: float, y1: float, observer: str | None = None
    ):
        """The line of sight from (x0, y0) to (x1, y1) inches as the ruler shows it: from the
        stand ``observer`` where one is named (its own pose and side), else from a stand that
        would stand at (x0, y0), to a stand that would stand at (x1, y1) facing it; terrain,
        hills and every stand on the table in the way, by the rules of the fire check
        (000 07.01, 001 6.1). Returns the geometry's :class:`Sight`."""
        heading = heading_deg(x0, y0, x1, y1)
        if observer is not None:
            firer = self.stand(observer).pose()
        else:
            firer = StandPose("ruler-from", "", x0, y0, heading)
        target = StandPose("ruler-to", "", x1, y1, heading + 180.0)
        return self.table.sight(firer, target, self.poses(), self.sighting_in, self.ruleset_data)

    def seen_by(
        self, x: float, y: float, facing_deg: float, side: str, moving: str | None = None
    ) -> list[tuple[str, str]]:
        """The stands of ``side``'s enemy that would see a stand of ``side`` at (x, y) inches
        facing ``facing_deg``, each with the aspect it would hit ("front"/"flank"): the
        engine's sight matrix with every stand on the table in the way (``moving``, the stand
        that would be there, left out of them) (000 07.01, 07.08; 001 6.1, 7.3)."""
        enemies = [s for s in self.state.stands.values() if s.active and s.side != side]
        if not enemies:
            return []
        pose = StandPose(moving or "there", side, x, y, facing_deg)
        m = self.table.sight_matrix(
            [e.pose() for e in enemies],
            [pose],
            self.poses(exclude=moving),
            self.sighting_in,
            self.ruleset_data,
        )
        return [
            (e.id, "front" if m.front[i, 0] else "flank")
            for i, e in enumerate(enemies)
            if m.clear[i, 0]
        ]
