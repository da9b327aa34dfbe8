"""The battle facade's queries of the full games (rules-decisions "The full games"): the
odds of an overrun and of a close assault before any die is rolled, the stands a path would
overrun, where a rider is set down. :class:`game.rules.battle.Battle` has them; the screens
and the AI ask these, never working out a rule themselves."""

from __future__ import annotations

import dataclasses

from game.rules.battle_support import FireSupportQueries
from game.rules.battle_why import RefusalQueries
from game.rules.procedures import melee, melee_odds, moves, transport
from game.rules.table.geometry import footprints, heading_deg


class FullGameQueries(FireSupportQueries, RefusalQueries):
    """Mixin of :class:`game.rules.battle.Battle` (it has ``ctx``, ``state`` and ``stand``);
    the fire support's queries come with it (:class:`FireSupportQueries`), and the reasons
    a choice is refused (:class:`RefusalQueries`)."""

    def close_assault_odds(self, defender_id: str) -> dict:
        """The exact odds of close-assaulting ``defender_id`` now (full games, 002 8.7): see
        :func:`game.rules.procedures.melee_odds.close_assault_odds`. Raises IllegalAction when no close
        assault on it is open."""
        return melee_odds.close_assault_odds(self.ctx, self.state.to_act, defender_id)

    def reply_odds(self, target_id: str) -> dict[str, float]:
        """The chance of each result of the close-assaulted stand's attack on the assaulter
        ``target_id`` (full games, 002 8.7): see :func:`game.rules.procedures.melee_odds.reply_odds`."""
        return melee_odds.reply_odds(self.ctx, target_id)

    def contact_spot(self, stand_id: str, spot: int) -> tuple[float, float]:
        """The centre (inches) of a stand in base contact with ``stand_id`` at ``spot`` (0
        behind it, 1 on its left, 2 on its right, 3 in front), facing as it does or towards
        it: where a rider is set down (rules-decisions "Transport") and where a move ends to
        close-assault (002 8.7)."""
        return transport.spot_xy(self.stand(stand_id), spot)

    def seats_free(self, carrier_id: str) -> int:
        """How many more personnel stands ``carrier_id`` may take aboard (RD "Transport";
        :func:`game.rules.procedures.transport.seats_free`)."""
        return transport.seats_free(self.ctx, self.stand(carrier_id))

    def carry_reach(self, carrier_id: str) -> float:
        """The movement points ``carrier_id`` would have this phase if it loaded or set
        down a rider (rules-decisions "Transport": at most half its allowance)."""
        c = self.stand(carrier_id)
        return self.ctx.rules.movement.movement_points(dataclasses.replace(c, loaded=True))

    def overrun_odds(self, mover_id: str, defender_id: str) -> dict:
        """The exact odds of ``mover_id`` overrunning ``defender_id`` as they stand (full
        games, 002 8.6): see :func:`game.rules.procedures.melee_odds.overrun_odds`."""
        return melee_odds.overrun_odds(self.ctx, mover_id, defender_id)

    def contact_approach(
        self, stand_id: str, spot: int
    ) -> tuple[tuple[float, float], tuple[float, float], float]:
        """How a move ends in base contact with ``stand_id`` at ``spot`` (see
        :meth:`contact_spot`): (the point 1" further out on the same line, the spot, the
        facing towards the stand in degrees). A stand walks turned the way it goes, so the
        last leg runs straight in along the line of the stand's side: it then arrives
        touching, not overlapping (a leg at a slant would be stopped short, 000 08.03.05)."""
        t = self.stand(stand_id)
        x, y = self.contact_spot(stand_id, spot)
        dx, dy = x - t.x, y - t.y
        return (x + dx, y + dy), (x, y), heading_deg(x, y, t.x, t.y) % 360.0

    def overruns_on(self, stand_id: str, path, facing_deg: float | None = None) -> list[str]:
        """The enemy stands a move of ``stand_id`` along ``path`` (inches, its centre first)
        ending at ``facing_deg`` (default: the way its last leg goes) would overrun, in the
        order met, as the engine walks it: a move that would end on a stand is walked back
        until it fits first (000 08.03.05), so a path that stops on the enemy overruns
        nothing (full games, 002 8.6; empty in the intro rules and for a foot stand)."""
        s = self.stand(stand_id)
        walk = moves.preview_move(self.ctx, stand_id, path)
        pts = walk.points
        heads = [s.facing_deg] + [heading_deg(*pts[i - 1], *pts[i]) for i in range(1, len(pts))]
        if len(pts) > 1:
            heads[0] = heads[1]
        facing = heads[-1] if facing_deg is None else facing_deg % 360.0
        others = footprints(
            [o.pose() for o in self.state.stands.values() if o.active and o.id != stand_id]
        )
        fit = max(0, self.table.fit_back(pts, facing, list(others)))
        return melee.overrun_crossed(self.ctx, s, pts[: fit + 1], heads[: fit + 1])

    def assault_preview(
        self, assaulter_id: str, x: float, y: float, facing: float, defender_id: str
    ) -> dict | None:
        """The odds of a close assault by one stand after a move to (x, y, facing) (full
        games, 002 8.7): see :func:`game.rules.procedures.melee_odds.assault_preview`."""
        return melee_odds.assault_preview(self.ctx, assaulter_id, x, y, facing, defender_id)
