"""The battle facade's queries of artillery, smoke and air strikes (rules-decisions
"Artillery, smoke and air strikes"): the odds of a mission before it is fired, what stops a
plot or a shot, where each artillery stand reaches, the sorties left, and the AA a strike
would fly past. :class:`game.rules.battle.Battle` has them (through
:class:`~game.rules.battle_full.FullGameQueries`); the screens and the AI ask these, never
working out a rule themselves. Units: inches."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game.rules.actions import Action, ArtilleryFire, PlotAirStrike, PlotMission
from game.rules.battle_parts import BattleParts
from game.rules.context import BattleContext, IllegalAction
from game.rules.phases import artillery as artillery_phase
from game.rules.phases import plot as plot_phase
from game.rules.procedures import air, artillery, support_odds


class FireSupportQueries(BattleParts):
    """Mixin of the battle facade (it has ``ctx``, ``state`` and ``stand``)."""

    def mission_odds(self, side: str, firers, sheaf, ammo: str = "he", kind: str = "indirect"):
        """The exact odds of a mission of ``firers`` laying ``sheaf`` (one marker centre per
        firer, inches) if it lands where aimed: see
        :func:`game.rules.procedures.artillery.mission_odds`. Raises IllegalAction for a sheaf of the
        wrong length."""
        return artillery.mission_odds(self.ctx, side, tuple(firers), tuple(sheaf), ammo, kind)

    def mission_outcomes(
        self, side: str, firers, sheaf, ammo: str = "he", kind: str = "indirect", where=None
    ) -> dict:
        """The exact odds of a mission over every place it may land (on the aim or
        deviated), with each stand placed where ``where`` (id -> (x, y)) expects it: see
        :func:`game.rules.procedures.support_odds.mission_outcomes`."""
        return support_odds.mission_outcomes(
            self.ctx, side, tuple(firers), tuple(sheaf), ammo, kind, where
        )

    def strike_outcomes(self, side: str, aircraft: str, path, where=None) -> dict:
        """The exact odds of an air strike over every place it may come down, and who the
        nearest stand it attacks there would be, friend or foe, with each stand placed where
        ``where`` (id -> (x, y)) expects it: see
        :func:`game.rules.procedures.support_odds.strike_outcomes`."""
        return support_odds.strike_outcomes(self.ctx, side, aircraft, path, where)

    def impact_entry_odds(self, stand_id: str, points, facing_deg: float) -> dict:
        """Which impact markers a move through ``points`` (the stand's step centres, as
        :meth:`preview_move` walks them) would enter, and how the stand would end after
        their attacks (002 step 6): see :func:`game.rules.procedures.support_odds.entry_odds`."""
        return support_odds.entry_odds(self.ctx, stand_id, points, facing_deg)

    def fire_support_problem(self, action: Action) -> str | None:
        """Why a direct artillery attack or a plot may not be made now, or None when it may
        (the engine's own checks, 002 direct artillery and indirect fire procedures, 7.11,
        7.13)."""
        checks: dict[type, Callable[[BattleContext, Any], None]] = {
            ArtilleryFire: artillery_phase.check_direct,
            PlotMission: plot_phase.check_plot,
            PlotAirStrike: plot_phase.check_air,
        }
        check = checks.get(type(action))
        if check is None:
            return f"{action.kind} is not a fire support action"
        try:
            check(self.ctx, action)
        except IllegalAction as err:
            return str(err)
        return None

    def indirect_reach(self, stand_id: str) -> tuple[int, int] | None:
        """(min, max) inches of an artillery stand's indirect fire (fire_support.toml), or
        None for any other stand."""
        r = self.ctx.data.fire_support.artillery.get(self.stand(stand_id).unit_name)
        return None if r is None else (r.min_range, r.max_range)

    def direct_reach(self, stand_id: str) -> int:
        """How far (inches) the stand fires direct artillery."""
        return artillery.direct_range(self.stand(stand_id))

    def indirect_problem(self, stand_id: str, x: float, y: float) -> str | None:
        """Why the stand cannot fire indirectly at (x, y) (its range), or None."""
        return artillery.indirect_range_problem(self.ctx, self.stand(stand_id), x, y)

    def direct_artillery_problem(self, stand_id: str, x: float, y: float) -> str | None:
        """Why the stand cannot fire direct artillery at (x, y) now (it may not fire as
        artillery, or has no range or sight there), or None."""
        s = self.stand(stand_id)
        return artillery.artillery_refusal(self.ctx, s, s.side) or artillery.direct_problem(
            self.ctx, s, x, y
        )

    def direct_aim_problem(self, stand_id: str, x: float, y: float) -> str | None:
        """Why the stand, where it stands now, has no range or sight for direct artillery at
        (x, y), or None (002/004 direct artillery procedure steps 1-3), whatever it has done
        this turn: what a player asks in the plot phase about next turn's artillery phase.
        Raises KeyError for an unknown stand."""
        return artillery.direct_problem(self.ctx, self.stand(stand_id), x, y)

    def free_artillery(self, side: str, lands_turn: int) -> list[str]:
        """Ids of ``side``'s artillery stands on the table not yet plotted to fire in
        ``lands_turn``."""
        return sorted(s.id for s in plot_phase.free_artillery(self.ctx, side, lands_turn))

    def sorties_left(self, side: str) -> dict[str, int]:
        """Air strikes ``side`` may still plot, by aircraft."""
        return plot_phase.sorties_left(self.ctx, side)

    def line_sheaf(self, aim, n: int, heading_deg: float = 0.0) -> tuple:
        """``n`` marker centres in a line through ``aim``, each touching the next: see
        :func:`game.rules.procedures.artillery.line_sheaf`."""
        return artillery.line_sheaf(tuple(aim), n, heading_deg)

    def home_edge_point(self, side: str, x: float, y: float) -> tuple[float, float]:
        """The point of ``side``'s own table edge nearest (x, y): where its aircraft come
        from and go home to, unless plotted otherwise."""
        return plot_phase.home_edge_point(self.ctx, side, x, y)

    def home_edge(self, side: str) -> str:
        """``side``'s own table edge: ``left``, ``right``, ``bottom`` or ``top``."""
        return plot_phase.home_edge(self.ctx, side)

    def strike_odds(self, side: str, aircraft: str, path) -> dict:
        """The exact odds of ``side``'s air strike by ``aircraft`` flying ``path`` now
        (arriving, shot down before it attacks, attacking on the aim): see
        :func:`game.rules.procedures.air.strike_odds`."""
        return air.strike_odds(self.ctx, side, aircraft, path)

    def strike_targets(self, x: float, y: float) -> list[str]:
        """Ids of the stands an air strike landing at (x, y) would attack now: the nearest,
        friend or foe (several when they are as near: a die then picks one; 002 step 8)."""
        return [s.id for s in air.nearest_stands(self.ctx, x, y)]

    def on_edge(self, x: float, y: float) -> bool:
        """True when (x, y) is on a table edge (where a strike enters and leaves)."""
        return air.on_edge(self.ctx.table, x, y)

    def strike_aa(self, side: str, path) -> list[str]:
        """Ids of the enemy AA stands that could fire at ``side``'s air strike flying
        ``path`` (entry, point of attack, exit) as things stand: 002 those with range to
        either leg; 004 those in the firing posture with range to the point of attack."""
        entry, poa, exit_ = (tuple(p) for p in path)
        if self.ctx.rules.support.flak_spoils_arrival:
            return [s.id for s in air.flak_in_range(self.ctx, side, poa)]
        legs = air.aa_firers(self.ctx, side, entry, poa) + air.aa_firers(self.ctx, side, poa, exit_)
        return sorted({s.id for _, s, _ in legs})
