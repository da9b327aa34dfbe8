"""The plotting panel's lines about what a plotted move would lead to, each from the
engine's own queries: riders that could not get out, base contact and the close assault it
opens, overruns and opportunity fire along the path (moved out of ``movement``)."""

from __future__ import annotations

import html
import math

from game.ui.logtext import mp_text


class PlotTexts:
    """Mixed into :class:`game.ui.battle.movement.PlotMode`: ``self.stand`` (the stand's
    id), ``self.walk`` (the engine's walk of the plotted path), ``self.points`` (the
    clicked waypoints, inches) and ``self.end_facing()`` (degrees) are the mode's."""

    def riders_text(self, screen, spent: float) -> str:
        """A warning when this carrier's plotted move spends more movement points than a
        carrier that sets its riders down may (the engine's :meth:`carry_reach`): its riders
        could not get out after it this phase (rules-decisions "Transport")."""
        b = screen.battle
        if not b.rules.has("transport"):
            return ""
        aboard = sorted(r.id for r in b.state.stands.values() if r.carried_by == self.stand)
        if not aboard:
            return ""
        reach = b.carry_reach(self.stand)
        if spent <= reach + 1e-9:
            return ""
        return (
            f"<br><font color='#c02020'>{', '.join(aboard)} cannot get out after this move: "
            f"it spends {mp_text(spent)} MP, more than the {mp_text(reach)} of a carrier that "
            "unloads (hulldown's transport ruling).</font>"
        )

    def contact_text(self, screen) -> str:
        """Where the walk ends on another stand (it will be walked back until it fits), or in
        base contact with the enemy stand clicked (full games: the close assault it opens,
        with the engine's odds for this stand alone, 002 8.7)."""
        b = screen.battle
        w = self.walk
        if not w or not w.points:
            return ""
        ex, ey = w.points[-1]
        facing = self.end_facing()
        if not b.room_at(ex, ey, facing, ignore=self.stand):
            return (
                "<br><font color='#c02020'>It would end on another stand: it will stop short, "
                '0.5" at a time back along its path, where it fits. To overrun, drive past it; '
                "to stop against it, click on it.</font>"
            )
        enemy = getattr(self, "contact", None)
        if enemy is None or math.dist((ex, ey), self.points[-1]) > 0.01:
            return ""
        odds = b.assault_preview(self.stand, ex, ey, facing, enemy)
        name = screen.names.get(enemy, enemy)
        if odds is None:  # the engine's reason, with its rule
            why = b.assault_problem(self.stand, enemy, at=(ex, ey, facing))
            return (
                f"<br><font color='#c02020'>Ends in base contact with {name}, but could not "
                f"close-assault it: {html.escape(why or '', quote=False)}.</font>"
            )
        return (
            f"<br><font color='#2050a0'>Ends in base contact with {name}: when the group's "
            f"moves are over you may close-assault it (this stand alone: "
            f"{odds['p_eliminate']:.0%} to eliminate it, {odds['p_lose']:.0%} to be "
            "eliminated by its answer).</font>"
        )

    def overrun_text(self, screen) -> str:
        """The panel's lines on the overruns this path makes (002 8.6), with the engine's
        odds of each roll and of what each attack does."""
        out = ""
        for enemy, o in getattr(self, "overruns", []):
            on_d, on_m = o["on_defender"], o["on_mover"]
            out += (
                f"<br><font color='#2050a0'>Overruns {screen.names.get(enemy, enemy)}: it fails "
                f"its roll {o['p_defender_fails']:.0%} (then eliminated {on_d['E']:.0%}, "
                f"disorganized {on_d['D']:.0%}); yours fails {o['p_mover_fails']:.0%} (then "
                f"eliminated {on_m['E']:.0%}, disorganized {on_m['D']:.0%}).</font>"
            )
        return out

    def threat_text(self, screen) -> str:
        """The panel's line on opportunity fire along the plotted path (the engine's offer)."""
        t = getattr(self, "threat", None)
        if not t or not t["offer"]:
            return "<br>No enemy stand could opportunity-fire along this path."
        firers = {f for fs in t["offer"].values() for f, _ in fs}
        worst = t["worst"]
        n = len(t["offer"][worst])
        odds = t["odds"]
        return (
            f"<br><font color='#c02020'>Opportunity fire: {len(firers)} enemy stand"
            f"{'s' if len(firers) > 1 else ''} could fire along this path (dots by how many); "
            f"where most can ({n}), {odds['p_eliminated']:.0%} it is eliminated.</font>"
        )
