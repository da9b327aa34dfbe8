"""The battle facade's queries of the full games (rules-decisions "The full games"): the
odds of an overrun and of a close assault before any die is rolled, the stands a path would
overrun, where a rider is set down. :class:`game.rules.battle.Battle` has them; the screens
and the AI ask these, never working out a rule themselves."""

from __future__ import annotations

from game.rules import melee, moves, transport
from game.rules.geometry import heading_deg


class FullGameQueries:
    """Mixin of :class:`game.rules.battle.Battle` (it has ``ctx``, ``state`` and ``stand``)."""

    def close_assault_odds(self, defender_id: str) -> dict:
        """The exact odds of close-assaulting ``defender_id`` now (full games, 002 8.7): see
        :func:`game.rules.melee.close_assault_odds`. Raises IllegalAction when no close
        assault on it is open."""
        return melee.close_assault_odds(self.ctx, self.state.to_act, defender_id)

    def reply_odds(self, target_id: str) -> dict[str, float]:
        """The chance of each result of the close-assaulted stand's attack on the assaulter
        ``target_id`` (full games, 002 8.7): see :func:`game.rules.melee.reply_odds`."""
        return melee.reply_odds(self.ctx, target_id)

    def unload_spot(self, carrier_id: str, spot: int) -> tuple[float, float]:
        """Where (inches) a rider set down at ``spot`` (0 behind, 1 left, 2 right, 3 in
        front) beside the carrier stands (rules-decisions "Transport")."""
        return transport.spot_xy(self.stand(carrier_id), spot)

    def overrun_odds(self, mover_id: str, defender_id: str) -> dict:
        """The exact odds of ``mover_id`` overrunning ``defender_id`` as they stand (full
        games, 002 8.6): see :func:`game.rules.melee.overrun_odds`."""
        return melee.overrun_odds(self.ctx, mover_id, defender_id)

    def overruns_on(self, stand_id: str, path) -> list[str]:
        """The enemy stands a move of ``stand_id`` along ``path`` (inches, its centre first)
        would overrun, in the order met, as the engine's walk goes (full games, 002 8.6;
        empty in the intro rules and for a foot stand)."""
        s = self.stand(stand_id)
        walk = moves.preview_move(self.ctx, stand_id, path)
        pts = walk.points
        heads = [s.facing_deg] + [heading_deg(*pts[i - 1], *pts[i]) for i in range(1, len(pts))]
        if len(pts) > 1:
            heads[0] = heads[1]
        return melee.overrun_crossed(self.ctx, s, pts, heads)

    def assault_preview(
        self, assaulter_id: str, x: float, y: float, facing: float, defender_id: str
    ) -> dict | None:
        """The odds of a close assault by one stand after a move to (x, y, facing) (full
        games, 002 8.7): see :func:`game.rules.melee.assault_preview`."""
        return melee.assault_preview(self.ctx, assaulter_id, x, y, facing, defender_id)
