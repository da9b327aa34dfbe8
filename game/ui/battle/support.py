"""The battle screen's fire support modes (the full games' joint artillery and plot phases):
firing direct artillery, and plotting missions and air strikes. Every number shown is the
engine's (``Battle.mission_odds``, ``fire_support_problem``, ``strike_aa``,
``strike_targets``, ``indirect_reach``); the overlays are in ``support_draw``."""

from __future__ import annotations

import html
import math

import pygame

from game import ArtilleryFire, Pass, PlotAirStrike, PlotMission
from game.ui.battle.layout import PAL, SELECT
from game.ui.battle.support_draw import (
    AA_SHADE,
    RADIUS_IN,
    SMOKE,
    OnTable,
    alpha_circle,
    map_label,
)
from game.ui.logtext import PHASE_NAMES
from game.ui.modes import Mode, is_click
from game.ui.render import INK

TURNS_AHEAD = 3
"""The landing-turn button cycles through the next this many turns (the + and - keys reach
any later turn of the battle)."""
DRAG_IN = 0.4
"""A left drag longer than this (inches) from the aim point turns the sheaf."""


class _Aiming(Mode):
    """What direct artillery and plotting share: firing stands picked by clicking them, an
    aim point clicked on the table, the sheaf turned by dragging from it, HE or smoke, and
    the engine's odds of the markers as aimed."""

    drags = True  # a left drag turns the sheaf: the camera pans with the middle button
    kind = "indirect"

    def __init__(self):
        self.firers: list[str] = []
        self.aim: tuple[float, float] | None = None
        self.heading = 90.0
        self.ammo = "he"
        self.down: tuple[float, float] | None = None

    def sheaf(self, screen) -> tuple:
        """The markers' centres as aimed (inches)."""
        if self.aim is None or not self.firers:
            return ()
        return screen.battle.line_sheaf(self.aim, len(self.firers), self.heading)

    def may_pick(self, screen, s) -> bool:
        """Whether stand ``s`` may be picked to fire."""
        return False

    def on_event(self, screen, ev):
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            s = screen.stand_under(ev.pos)
            if s is None or not self.may_pick(screen, s):
                self.down = screen.tv.to_table(ev.pos)
        elif ev.type == pygame.MOUSEMOTION and self.down is not None:
            x, y = screen.tv.to_table(ev.pos)
            if math.dist((x, y), self.down) > DRAG_IN:
                self.aim = self.down
                self.heading = math.degrees(math.atan2(y - self.down[1], x - self.down[0]))
                self.enter(screen)
        elif is_click(ev):
            s = screen.stand_under(ev.pos)
            if self.down is None and s is not None and self.may_pick(screen, s):
                if s.id in self.firers:
                    self.firers.remove(s.id)
                else:
                    self.firers.append(s.id)
            elif self.down is not None:
                x, y = screen.tv.to_table(ev.pos)
                if math.dist((x, y), self.down) <= DRAG_IN:
                    self.aim = self.down
                self.down = None
            self.enter(screen)
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_h:
            self.ammo = "smoke" if self.ammo == "he" else "he"
            self.enter(screen)
        return None

    def action(self, screen):
        """The action as aimed, or None (each mode builds its own)."""
        return None

    def confirm(self, screen):
        a = self.action(screen)
        if a is not None and screen.battle.fire_support_problem(a) is None:
            screen.act(a)
        return None

    def odds_lines(self, screen, action) -> list[str]:
        """The panel's lines of the mission as aimed: the engine's refusal, or each firing
        stand's chance to fire, the chance it lands on the aim, and what the markers would do
        to each stand under them now."""
        b = screen.battle
        why = b.fire_support_problem(action)
        if why:
            return [f"<font color='#b03010'>{html.escape(why)}</font>"]
        odds = b.mission_odds(action.side, action.firers, action.sheaf, self.ammo, self.kind)
        lines = [
            "Fires: " + ", ".join(f"{f} {p:.0%}" for f, p in odds["p_laid"].items()),
            f"Lands on the aim: {odds['p_on_aim']:.0%}"
            + ("" if odds["p_on_aim"] >= 1 else ' (else 1-4" off, a D8 direction)'),
        ]
        if self.ammo == "smoke":
            lines.append(
                "Smoke: blocks sight; a shot into or out of it takes +3 on the firer's cohesion "
                "and combat rolls; it lifts at the end of the turn after it lands."
            )
        for sid, dist in sorted(odds["stands"].items()):
            t = b.stand(sid)
            whose = "yours" if t.side == action.side else "enemy"
            lines.append(
                f"{screen.names[sid]} ({whose}): E {dist['E']:.0%}, D {dist['D']:.0%}, "
                f"S {dist['S']:.0%}"
            )
        if self.ammo == "he" and not odds["stands"]:
            lines.append("No stand is under the markers now.")
        return lines

    def draw_aim(self, screen, surface, ring_of) -> None:
        """The picked stands outlined with their reach (``ring_of(stand)`` -> (min, max)
        inches or None), the sheaf's markers, and the stands under them."""
        b, tv = screen.battle, screen.tv
        for sid in self.firers:
            s = b.stand(sid)
            tv.footprint_outline(surface, s.x, s.y, s.facing_deg, SELECT, 3)
            ring = ring_of(s)
            if ring:
                c = tv.to_px(s.x, s.y)
                with OnTable(surface, tv):
                    for r, colour in zip(ring, (PAL.blocked, PAL.clear), strict=True):
                        if r > 0:
                            pygame.draw.circle(surface, colour, c, int(r * tv.view.scale), 1)
        r_px = RADIUS_IN * tv.view.scale
        colour = SMOKE[:3] if self.ammo == "smoke" else (255, 255, 255)
        for x, y in self.sheaf(screen):
            pygame.draw.circle(surface, colour, tv.to_px(x, y), max(3, int(r_px)), 2)


class ArtilleryMode(_Aiming):
    """The joint artillery fire phase (missions plotted for this turn have landed): click your
    artillery stands with sight of the enemy, click the aim point (drag to turn the sheaf),
    H for HE or smoke, Enter to fire; or pass."""

    kind = "direct"

    def may_pick(self, screen, s) -> bool:
        b = screen.battle
        return s.side == b.to_act and "artillery" in getattr(s.unit, "flags", ())

    def action(self, screen):
        """The attack as aimed, or None."""
        sheaf = self.sheaf(screen)
        if not sheaf:
            return None
        return ArtilleryFire(screen.battle.to_act, tuple(self.firers), sheaf, self.ammo)

    def enter(self, screen):
        b = screen.battle
        side = b.to_act
        guns = sorted(
            s.id
            for s in b.state.stands.values()
            if s.side == side and s.active and "artillery" in getattr(s.unit, "flags", ())
        )
        lines = [f"<b>{PHASE_NAMES['artillery']}: {html.escape(screen.side_name(side))}</b>"]
        landed = len(screen.support.landings())
        if landed:
            lines.append(
                f"{landed} mission{'s' if landed > 1 else ''} plotted for this turn "
                f"{'have' if landed > 1 else 'has'} landed (the log tells each roll)."
            )
        lines.append("Your guns may fire directly at what they can see.")
        if guns:
            lines.append(f"Your artillery: {', '.join(guns)}. Click them to pick the firers.")
        targets = [a for a in b.legal_actions() if isinstance(a, ArtilleryFire)]
        if not targets:
            lines.append(
                "None of your guns can fire directly now (no enemy stand in their sight and "
                "range): pass (P)."
            )
        picked = ", ".join(self.firers) or "none"
        lines.append(f"Firing: {picked}. Ammunition: {self.ammo.upper()} (H to switch).")
        lines.append("Click the aim point; drag from it to turn the line of markers.")
        buttons = []
        a = self.action(screen)
        if a is not None:
            lines += self.odds_lines(screen, a)
            if screen.battle.fire_support_problem(a) is None:
                buttons.append(("Fire (Enter)", lambda: screen.set_mode(self.confirm(screen))))
        buttons.append(("HE / smoke (H)", lambda: self._switch(screen)))
        buttons.append(("Pass (P)", lambda: screen.act(Pass(side))))
        screen.set_panel("<br>".join(lines), buttons)

    def _switch(self, screen):
        self.ammo = "smoke" if self.ammo == "he" else "he"
        self.enter(screen)

    def draw(self, screen, surface):
        def reach(s):
            return (0, screen.battle.direct_reach(s.id))

        self.draw_aim(screen, surface, reach)

    def cancel(self, screen):
        return ArtilleryMode()


class PlotFireMode(_Aiming):
    """The joint plot phase: plot an indirect fire mission (click your guns, click the aim,
    drag to turn the sheaf, H for HE or smoke, +/- for the landing turn) or an air strike
    (A: click the point of attack; E and R move its entry and exit along the edges); Enter
    plots; or pass. Your plotted missions are listed and drawn for you only."""

    EDGES = ("left", "bottom", "right", "top")

    def __init__(self, air: bool = False):
        super().__init__()
        self.air = air
        self.lands: int | None = None
        self.entry: int | None = None  # index into EDGES; None: the side's own edge
        self.exit: int | None = None

    def may_pick(self, screen, s) -> bool:
        b = screen.battle
        return not self.air and s.id in b.free_artillery(b.to_act, self._lands(screen))

    def _lands(self, screen) -> int:
        b = screen.battle
        last = b.scenario.spec.turns
        if self.lands is None:
            self.lands = b.state.turn + 1
        self.lands = max(b.state.turn + 1, min(self.lands, last))
        return self.lands

    def edge_name(self, screen, which: int | None) -> str:
        """The edge an entry or exit index names (None: the side's own edge)."""
        if which is None:
            return screen.battle.home_edge(screen.battle.to_act)
        return self.EDGES[which % len(self.EDGES)]

    def _next_edge(self, screen, which: int | None) -> int:
        now = self.EDGES.index(self.edge_name(screen, which))
        return (now + 1) % len(self.EDGES)

    def _edge_point(self, screen, which: int | None, x: float, y: float):
        t = screen.battle.table
        return {
            "left": (0.0, y),
            "right": (t.width, y),
            "bottom": (x, 0.0),
            "top": (x, t.depth),
        }[self.edge_name(screen, which)]

    def strike_path(self, screen):
        """The air strike as plotted: entry, point of attack, exit (inches), or None."""
        if self.aim is None:
            return None
        x, y = self.aim
        return (
            self._edge_point(screen, self.entry, x, y),
            self.aim,
            self._edge_point(screen, self.exit, x, y),
        )

    def action(self, screen):
        """The plot as it stands, or None."""
        b = screen.battle
        lands = self._lands(screen)
        if self.air:
            left = b.sorties_left(b.to_act)
            path = self.strike_path(screen)
            if not left or path is None:
                return None
            return PlotAirStrike(b.to_act, sorted(left)[0], path, lands)
        sheaf = self.sheaf(screen)
        if not sheaf:
            return None
        return PlotMission(b.to_act, tuple(self.firers), sheaf, self.ammo, lands)

    def _strike_lines(self, screen, lands: int) -> list[str]:
        """The panel's lines for an air strike landing in turn ``lands``: the aircraft left,
        what to click, the entry and exit edges; then, once a point of attack is clicked,
        what the path risks (``_path_lines``). A side with no sorties left is told what else
        to do."""
        b = screen.battle
        side = b.to_act
        lines = []
        left = b.sorties_left(side)
        craft = ", ".join(f"{k} ({v} left)" for k, v in sorted(left.items()))
        if craft:
            lines.append(f"Air strike, arriving in turn {lands}: {html.escape(craft)}.")
            lines.append(
                "Click the point of attack. The aircraft flies in from an edge, attacks "
                "the stand nearest where it lands (friend or foe) and flies out."
            )
            lines.append(
                f"In from the {self.edge_name(screen, self.entry)} edge (E to change), "
                f"out by the {self.edge_name(screen, self.exit)} edge (R)."
            )
        else:  # nothing to click for: say what is left to do
            lines.append(
                "You have no air strikes left (the scenario's air support): plot "
                "artillery (A), or pass (P) when your plots are done."
            )
        path = self.strike_path(screen) if craft else None
        if path is not None:
            lines += self._path_lines(screen, left, path)
        return lines

    def _path_lines(self, screen, left: dict, path) -> list[str]:
        """What an air strike along ``path`` (entry, point of attack, exit, in inches) faces,
        as the engine reckons it: the enemy AA that could fire, the odds it arrives, is shot
        down first and attacks on the aim (as percentages), the AA's arrival rule where the
        ruleset has it (004), and the stands it would attack on the aim."""
        b = screen.battle
        side = b.to_act
        lines = []
        aa = b.strike_aa(side, path)
        lines.append(f"Enemy AA that could fire at it: {', '.join(aa) or 'none'}.")
        if left:
            odds = b.strike_odds(side, sorted(left)[0], path)
            down = odds["p_down_first"]
            lines.append(
                f"Arrives {odds['p_arrives']:.0%}"
                + (f", shot down before it attacks {down:.0%}" if down else "")
                + f"; attacks on the aim {odds['p_on_aim']:.0%}."
            )
        if b.rules.support.flak_spoils_arrival:
            lines.append(
                "Only AA in the firing posture within range of the point of attack "
                "counts; each adds +1, or +2 over 40 mm, to the arrival roll (004)."
            )
        near = b.strike_targets(*path[1])
        if near:
            who = " or ".join(screen.names[i] for i in near)
            lines.append(f"If it lands on the aim it attacks {html.escape(who)}.")
        return lines

    def _mission_lines(self, screen) -> list[str]:
        """The side's own plotted missions, one line each (id, what fires, the turn it
        lands), under a heading; none when it has plotted none. The enemy never sees them."""
        side = screen.battle.to_act
        mine = [m for m in screen.support.visible_missions() if m.side == side]  # net: kept
        if not mine:
            return []
        lines = ["<b>Your plotted missions</b> (the enemy does not see them):"]
        for m in mine:
            what = (
                f"{m.aircraft} strike"
                if m.kind == "air"
                else f"{m.ammo.upper()} from {', '.join(m.firers)}"
            )
            lines.append(f"{m.id}: {html.escape(what)}, turn {m.lands_turn}")
        return lines

    def enter(self, screen):
        b = screen.battle
        side = b.to_act
        lands = self._lands(screen)
        lines = [f"<b>{PHASE_NAMES['plot']}: {html.escape(screen.side_name(side))} plots</b>"]
        buttons = []
        if self.air:
            lines += self._strike_lines(screen, lands)
        else:
            free = b.free_artillery(side, lands)
            lines.append(
                f"Indirect fire landing in turn {lands} (+/- to change). Your guns free for "
                f"it: {', '.join(free) or 'none'}. Click them to pick the firers; each lays "
                'one 2" marker.'
            )
            lines.append(
                f"Firing: {', '.join(self.firers) or 'none'}. Ammunition: {self.ammo.upper()} "
                "(H). Click the aim point; drag from it to turn the line of markers. Rings: "
                "red, the closest a gun fires; green, its reach."
            )
        lines += self._mission_lines(screen)
        a = self.action(screen)
        if a is not None:
            if self.air:
                why = b.fire_support_problem(a)
                if why:
                    lines.append(f"<font color='#b03010'>{html.escape(why)}</font>")
            else:
                lines += self.odds_lines(screen, a)
            if b.fire_support_problem(a) is None:
                buttons.append(("Plot (Enter)", lambda: screen.set_mode(self.confirm(screen))))
        other = "Artillery (A)" if self.air else "Air strike (A)"
        buttons.append((other, lambda: screen.set_mode(PlotFireMode(not self.air))))
        if not self.air:
            buttons.append(("HE / smoke (H)", lambda: self._switch(screen)))
        last = min(b.scenario.spec.turns, b.state.turn + TURNS_AHEAD)
        step = 1 if lands < last else b.state.turn + 1 - lands  # cycles back to next turn
        buttons.append((f"Lands turn {lands} (+/-)", lambda: self._turn(screen, step)))
        screen.set_panel("<br>".join(lines), buttons)

    def _switch(self, screen):
        self.ammo = "smoke" if self.ammo == "he" else "he"
        self.enter(screen)

    def _turn(self, screen, step: int):
        self.lands = self._lands(screen) + step
        self.firers = [
            f
            for f in self.firers
            if f in screen.battle.free_artillery(screen.battle.to_act, self._lands(screen))
        ]
        self.enter(screen)

    def on_event(self, screen, ev):
        if ev.type == pygame.KEYDOWN:
            if ev.key == pygame.K_a:
                return PlotFireMode(not self.air)
            if ev.unicode in ("+", "=") or ev.unicode == "-":
                self._turn(screen, -1 if ev.unicode == "-" else 1)
                return None
            if self.air and ev.key in (pygame.K_e, pygame.K_r):
                if ev.key == pygame.K_e:
                    self.entry = self._next_edge(screen, self.entry)
                else:
                    self.exit = self._next_edge(screen, self.exit)
                self.enter(screen)
                return None
        return super().on_event(screen, ev)

    def draw(self, screen, surface):
        b, tv = screen.battle, screen.tv
        if self.air:
            path = self.strike_path(screen)
            if path is None:
                return
            for sid in b.strike_aa(b.to_act, path):
                s = b.stand(sid)
                with OnTable(surface, tv):
                    alpha_circle(
                        surface,
                        AA_SHADE,
                        tv.to_px(s.x, s.y),
                        (s.unit.he_range or 0) * tv.view.scale,
                    )
                tv.footprint_outline(surface, s.x, s.y, s.facing_deg, PAL.blocked, 3)
            tv.polyline(surface, list(path), (255, 255, 255), 2)
            r_px = RADIUS_IN * tv.view.scale
            pygame.draw.circle(surface, (255, 255, 255), tv.to_px(*path[1]), max(3, int(r_px)), 2)
            for p, word in ((path[0], "in"), (path[2], "out")):
                c = tv.to_px(*p)
                pygame.draw.circle(surface, INK, c, 6)
                map_label(
                    surface,
                    tv,
                    word,
                    (c[0] + 8, c[1] - 10 if word == "in" else c[1] + 10),
                    (255, 255, 255),
                )
            return
        self.draw_aim(screen, surface, lambda s: b.indirect_reach(s.id))

    def cancel(self, screen):
        return PlotFireMode(self.air)
