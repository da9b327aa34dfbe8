"""The battle screen's movement modes: the movement attempt (pick a group and try to move it),
picking which stand of a group that may move goes next, and plotting that stand's path."""

from __future__ import annotations

import html
import math

import pygame

from game import (
    PASS_THROUGH_MOD,
    STEP_IN,
    EndMoves,
    Mount,
    Move,
    MoveAttempt,
    Pass,
    Unload,
    heading_deg,
)
from game.ui.battle.layout import GROUP, PAL, SELECT
from game.ui.battle.plot_text import PlotTexts
from game.ui.battle.unload import carriers, draw_spots, first_focus
from game.ui.logtext import mp_text
from game.ui.modes import Mode, is_click
from game.ui.render import INK

# why a plotted path stops short (Table.walk's stopped_by), in words
STOPS_EARLY = {
    "mp": "out of movement points",
    "edge": "at the table's edge",
    "impassable": "at impassable ground",
    "enemy": "against an enemy stand",
}


class AttemptMode(Mode):
    """Movement phase: click one of your stands to pick its battle group (WWII: its movement
    group of this turn, 001 5.0), then try to move it (ordered, or independent once the orders
    are gone). While groups must still try to enter, each has its button, so a side with no
    orders left always has a button to press."""

    def __init__(self, group: str | None = None):
        self.group = group

    def enter(self, screen):
        b = screen.battle
        side = b.to_act
        orders = b.state.orders.get(side, 0)
        due = b.entry_due(side)
        buttons = [] if due else [("Pass (P)", lambda: screen.act(Pass(side)))]
        tries = [a for a in b.legal_actions() if isinstance(a, MoveAttempt)]
        # WWII groups are the movement groups declared this turn (001 5.0), not battle groups
        kind = "movement group" if b.rules.postures else "battle group"
        text = (
            f"<b>Movement: {screen.side_name(side)}</b><br>Orders left: {orders}"
            f"{self.why_no_orders(screen) if orders == 0 else ''}. "
            f"Click a stand to pick its {kind}."
        )
        if due:
            waiting = "; ".join(
                f"group {g} ("
                + ", ".join(
                    s.id
                    for s in b.state.stands.values()
                    if s.side == side and s.group == g and not s.on_table and not s.eliminated
                )
                + ")"
                for g in due
            )
            text += (
                f"<br>Waiting to enter: {waiting}. Each group must try to come on before you "
                "can pass."
            )
        if not tries and not due:  # orders may be left, but no group can use one
            text += (
                "<br>Every group that can move has moved or tried this phase: Pass (P) "
                "ends your movement."
            )
        if self.group:
            legal = [a for a in tries if a.group == self.group]
            members = [
                s.id
                for s in b.state.stands.values()
                if s.side == side and s.group == self.group and not s.eliminated
            ]
            text += f"<br><b>{screen.group_label(side, self.group)}</b>: {', '.join(members)}"
            for a in legal:
                label = "Ordered move (Enter)" if a.ordered else "Independent, +3 (Enter)"
                buttons.insert(0, (label, lambda a=a: screen.act(a)))
            if not legal:  # the engine's reason, with its rule
                why = html.escape(b.attempt_problem(side, self.group) or "", quote=False)
                text += f"<br><i>This group cannot try to move now: {why}.</i>"
        elif due:  # no group picked: each group that must come on has its button
            for a in tries:
                if a.group in due and len(buttons) < 4:
                    how = "ordered move" if a.ordered else "independent, +3"
                    buttons.append((f"Group {a.group}: {how}", lambda a=a: screen.act(a)))
        screen.set_panel(text, buttons)

    @staticmethod
    def why_no_orders(screen) -> str:
        """Why the side to act has no movement orders left: its GHQ is gone (the battle log's
        ``orders`` line has no dice: nothing was rolled, 000 08.02.02), this phase's orders
        roll gave none, or they are used; and what it may still do (000 08.02.08, 08.02.10)."""
        b = screen.battle
        side = b.to_act
        rolled = next(
            (e for e in reversed(b.log.events) if e["event"] == "orders" and e["side"] == side),
            None,
        )
        if rolled is not None and rolled["orders"] == 0 and not rolled.get("dice"):
            # no dice: no roll was made, the GHQ is gone
            rule = "001 8.2.2" if b.rules.postures else "000 08.02.02"
            return (
                f". {screen.short_name(side)} has lost its GHQ: no more movement orders "
                f"({rule}). Each group that has not moved may still try once, independently, "
                "at +3 (000 08.02.10)"
            )
        elif rolled is not None and rolled["orders"] == 0:
            why = f" (this phase's orders roll, {rolled['total']}, gave none)"
        elif rolled is not None:
            n = rolled["orders"]
            why = " (this phase's one order is used)" if n == 1 else f" (all {n} are used)"
        else:
            why = ""
        return (
            f"{why}: each group that has not moved may still try once, independently, at +3 "
            "(000 08.02.10)"
        )

    def on_event(self, screen, ev):
        if is_click(ev):
            s = screen.stand_under(ev.pos, include_off_table=True)
            if s and s.side == screen.battle.to_act and s.posture == "firing":
                screen.message = (
                    f"{screen.names[s.id]} is in the firing posture this turn: it fires, it "
                    "does not move (001 8.1.2)"
                )
                return AttemptMode()
            if s and s.side == screen.battle.to_act:
                screen.message = ""
                return AttemptMode(s.group)
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            screen.message = ""
            return AttemptMode()
        return None

    def confirm(self, screen):
        if self.group:
            legal = [
                a
                for a in screen.battle.legal_actions()
                if isinstance(a, MoveAttempt) and a.group == self.group
            ]
            if legal:
                screen.act(legal[0])
        return None

    def draw(self, screen, surface):
        if self.group:
            for s in screen.battle.state.stands.values():
                if s.side == screen.battle.to_act and s.group == self.group and s.active:
                    screen.tv.footprint_outline(surface, s.x, s.y, s.facing_deg, GROUP, 3)


SPOT_WORDS = ("behind", "left of", "right of", "in front of")  # the engine's spots 0-3
SPOT_SHORT = ("behind", "left", "right", "in front")


class PickMoverMode(Mode):
    """A movement attempt succeeded: click one of the group's stands to plot its move, or a
    free spot outlined beside a carrier to set its rider down there."""

    def enter(self, screen):
        b = screen.battle
        mg = b.state.moving
        left = [i for i in mg.stands if not b.stand(i).moved]
        text = f"<b>{screen.group_label(mg.side, mg.group)} may move</b><br>" + (
            f"Stands: {', '.join(left)}. Click one to plot its move; off-table stands "
            "enter from your edge."
            if left
            else "Every stand of the group has moved: End moves (Enter) hands on the turn."
        )
        buttons = [("End moves", lambda: screen.act(EndMoves(mg.side)))]
        # full games: boarding and setting down riders (rules-decisions "Transport")
        legal = b.legal_actions() if b.rules.has("transport") else []
        mounts = [a for a in legal if isinstance(a, Mount)]
        unloads = {}
        for a in legal:
            if isinstance(a, Unload):
                unloads.setdefault((a.carrier, a.stand), a)  # the first free spot: behind
        self.spots = self.unload_spots(screen) if b.rules.has("transport") else []
        self.focus = first_focus(self.spots, getattr(self, "focus", None))
        if mounts or self.spots:
            text += (
                "<br>A carrier that loads or unloads moves at most half its allowance this "
                "phase; troops get out before or after its move, beside it."
            )
        text += self.spots_text(screen)
        # End moves keeps the first place, so a click meant for it never lands on a Board
        # or Unload button that took its place; two rows at most, the
        # rest are clicked on the table
        more = [(f"Board {a.stand} into {a.carrier}", a) for a in mounts] + [
            # short enough for a half-width button at 1280x800; the panel names the carrier
            (f"Unload {stand} {SPOT_SHORT[a.spot]}", a)
            for (_carrier, stand), a in unloads.items()
        ]
        buttons += [(label, lambda a=a: screen.act(a)) for label, a in more[:3]]
        screen.set_panel(text, buttons)

    @staticmethod
    def unload_spots(screen) -> list[tuple[str, str, int, tuple[float, float], str | None]]:
        """For each carrier of the moving group with a rider aboard: its first rider (by
        id) and each spot beside it, as (carrier, rider, spot, centre, why not or None),
        from the engine (rules-decisions "Transport")."""
        b = screen.battle
        out = []
        for cid in b.state.moving.stands:
            aboard = sorted(
                s.id for s in b.state.stands.values() if s.carried_by == cid and not s.eliminated
            )
            if aboard and b.stand(cid).on_table:  # one still to enter: nothing to say yet
                out += [
                    (cid, aboard[0], k, xy, why) for k, xy, why in b.unload_spots(cid, aboard[0])
                ]
        return out

    def spots_text(self, screen) -> str:
        """The panel's lines on setting riders down: per carrier, the spots outlined on the
        table, and the engine's reason for each spot refused."""
        out = ""
        for cid in dict.fromkeys(c for c, *_ in self.spots):
            mine = [x for x in self.spots if x[0] == cid]
            free = [SPOT_SHORT[k] for _, _, k, _, why in mine if why is None]
            line = f"{screen.names[mine[0][1]]} aboard {cid}: "
            if free:
                line += f"click an outlined spot ({', '.join(free)}) to set it down there"
                no = [f"{SPOT_SHORT[k]}: {why}" for _, _, k, _, why in mine if why]
                line += f"; not {'; '.join(no)}" if no else ""
            else:  # one reason for them all, or each spot's
                line += "it may not be set down now: " + "; ".join(
                    dict.fromkeys(why for *_, why in mine)
                )
            out += "<br>" + html.escape(line, quote=False) + "."
        if len(carriers(self.spots)) > 1:
            out += (
                "<br>The spots shown are those of the carrier ringed thick: point at another "
                "carrier ringed in blue for its own."
            )
        return out

    def spot_under(self, screen, pos) -> tuple | None:
        """The free spot beside a carrier under a pixel: within its 1" square, or 6 px of
        its centre at any zoom."""
        b = screen.battle
        x, y = screen.tv.to_table(pos)
        for cid, rider, k, (sx, sy), why in getattr(self, "spots", []):
            if why is not None or cid != self.focus:  # only the spots shown
                continue
            c = b.stand(cid)
            a = math.radians(c.facing_deg)
            fwd = (x - sx) * math.cos(a) + (y - sy) * math.sin(a)
            side = -(x - sx) * math.sin(a) + (y - sy) * math.cos(a)
            near = math.dist(screen.tv.to_px(sx, sy), pos) <= 6
            if near or (abs(fwd) <= 0.5 and abs(side) <= 0.5):
                return cid, rider, k
        return None

    def on_event(self, screen, ev):
        if ev.type == pygame.MOUSEMOTION and getattr(self, "spots", None):
            s = screen.stand_under(ev.pos)
            if s is not None and s.id in carriers(self.spots):
                self.focus = s.id  # its spots are shown now, the other carriers' not
        if is_click(ev):
            b = screen.battle
            spot = self.spot_under(screen, ev.pos)
            if spot is not None:
                screen.act(Unload(b.to_act, *spot))
                return None
            s = screen.stand_under(ev.pos, include_off_table=True)
            if s and b.state.moving and s.id in b.state.moving.stands and not s.moved:
                screen.message = ""
                return PlotMode(s.id)
            if s and s.side == b.to_act:
                screen.message = (
                    f"{screen.names[s.id]} has moved this phase (000 08.03.01)"
                    if s.moved
                    else f"{screen.names[s.id]} is not one of the stands that may move now: "
                    f"group {b.state.moving.group} is moving (000 08.03)"
                )
                self.enter(screen)
        return None

    def draw(self, screen, surface):
        b = screen.battle
        for i in b.state.moving.stands:
            s = b.stand(i)
            if not s.moved and not s.eliminated:
                screen.tv.footprint_outline(surface, s.x, s.y, s.facing_deg, GROUP, 3)
        # one carrier's free spots at a time, joined to it (unload.py)
        draw_spots(screen.tv, surface, b, getattr(self, "spots", []), getattr(self, "focus", None))


THREAT = [(240, 220, 40), (240, 150, 30), (220, 40, 40)]  # 1, 2, 3+ firers
OVERRUN = (40, 90, 200)  # the enemy stands a plotted path will overrun


class PlotMode(PlotTexts, Mode):
    """Plot a move: click waypoints (or drag), see the walk snapped to 0.5" steps with its
    movement points, set the facing (right drag, Q/E), Enter to commit, Esc to cancel."""

    def __init__(self, stand: str):
        self.stand = stand
        self.points: list[tuple[float, float]] = []
        self.cursor: tuple[float, float] | None = None
        self.facing: float | None = None
        self.dragging = False
        self._key = None
        self.walk = None
        self.nerve: tuple[str, float] | None = None
        self.contact: str | None = None  # the enemy stand the move ends in contact with
        self.entry: tuple[float, float] | None = None  # where an entering stand would come on

    def enter(self, screen):
        s = screen.battle.stand(self.stand)
        if s.on_table:
            self.points = [(s.x, s.y)]
        self.refresh(screen)

    def start_of_entry(self, screen, x: float, y: float) -> tuple[float, float]:
        """The point of the side's entry edge nearest (x, y), from the engine."""
        return screen.battle.entry_point(self.stand, x, y)

    def path(self) -> list[tuple[float, float]]:
        """The plotted path, with the cursor as its last point (a stand still to enter: from
        the point of its edge nearest the cursor)."""
        pts = list(self.points) or ([self.entry] if self.entry and self.cursor else [])
        if self.cursor and pts and math.dist(self.cursor, pts[-1]) > 1e-6:
            pts.append(self.cursor)
        return pts

    def end_facing(self) -> float:
        """The facing at the end: set by the player, or the way the last leg runs."""
        if self.facing is not None:
            return self.facing
        pts = self.path()
        if len(pts) >= 2:
            (x0, y0), (x1, y1) = pts[-2], pts[-1]
            return heading_deg(x0, y0, x1, y1) % 360
        return self.stand_facing

    def refresh(self, screen):
        b = screen.battle
        s = b.stand(self.stand)
        self.stand_facing = s.facing_deg
        pts = self.path()
        key = (tuple(pts),)
        if pts and key != self._key:
            self._key = key
            self._preview(screen, pts)
        mp = b.movement_points(self.stand)
        if not self.points:  # the first click plots its move, not only where it enters
            text = (
                f"<b>{screen.names[self.stand]} enters</b><br>Click where it goes: it comes "
                f"on at the nearest point of your {b.side_spec[s.side].entry_edge} edge. To "
                "come on elsewhere, click on the edge first."
            )
        else:
            text = self._moving_text(screen, s, mp)
        screen.set_panel(
            text,
            [
                ("Move (Enter)", lambda: screen.set_mode(self.confirm(screen))),
                ("Cancel (Esc)", lambda: screen.set_mode(self.cancel(screen))),
            ],
        )

    def _preview(self, screen, pts: list) -> None:
        """Ask the engine what the path ``pts`` (waypoints, inches) would do, as the move
        would be made: the walk, the nerve roll to pass an enemy stand that stops it (001
        8.3.6), who could opportunity-fire where, and (full games) the enemy stands it
        overruns with each overrun's odds."""
        b = screen.battle
        self.walk = b.preview_move(self.stand, pts) if len(pts) >= 1 else None
        # only a walk stopped by an enemy stand may end in a nerve roll: no second walk else
        stopped = self.walk is not None and self.walk.stopped_by == "enemy"
        self.nerve = b.pass_through_at(self.stand, pts) if stopped and len(pts) >= 2 else None
        # who could opportunity-fire where: the engine's own offer for this path
        self.threat = (
            b.threat_preview(self.stand, pts, self.end_facing()) if len(pts) >= 2 else None
        )
        # full games: the enemy stands this path drives through, and each overrun's odds
        self.overruns = (
            [
                (e, b.overrun_odds(self.stand, e))
                for e in b.overruns_on(self.stand, pts, self.end_facing())
            ]
            if b.rules.has("overrun") and len(pts) >= 2
            else []
        )

    def _moving_text(self, screen, s, mp: float) -> str:
        """The panel's text for a plotted move of stand ``s`` with ``mp`` movement points:
        those spent and left (and why the allowance is cut), the end facing (degrees), what
        stops it early or the nerve roll to pass through (001 8.3.6), then the riders, the
        threats, the overruns, the contacts, and who will see it where it ends."""
        b = screen.battle
        w = self.walk
        spent = w.mp_spent if w else 0
        halved = ""
        if s.loaded:
            halved = " (half: it loaded or unloaded this phase)"
        elif s.fire_attempts and mp < s.unit.speed:  # the engine's allowance, explained
            halved = f" (of {mp_text(s.unit.speed)}: it fired this turn)"
        text = (
            f"<b>Moving {screen.names[self.stand]}</b><br>Movement points: "
            f"{mp_text(spent)} spent of {mp_text(mp)}{halved}, {mp_text(mp - spent)} left.<br>"
            f"Facing at the end: {round(self.end_facing()) % 360} deg.<br>Click waypoints; "
            "Enter commits, Backspace undoes, Esc cancels."
        )
        if self.nerve is not None:  # 001 8.3.6, as the engine will roll it
            enemy, chance = self.nerve
            text += (
                f"<br><font color='#c02020'>Stops at {screen.names.get(enemy, enemy)}: "
                f"a nerve roll (cohesion +{PASS_THROUGH_MOD}) to pass through, {chance:.0%}; "
                "if it fails, it stays there.</font>"
            )
        elif w and w.stopped_by:
            why = STOPS_EARLY.get(w.stopped_by, w.stopped_by)
            text += f"<br><font color='#c02020'>Stops early: {why}.</font>"
        text += self.riders_text(screen, spent)
        text += self.threat_text(screen) + self.overrun_text(screen)
        text += self.contact_text(screen)
        if w and w.points:  # who will see it where it ends, and what they would hit
            ex, ey = w.points[-1]
            seen = b.seen_by(ex, ey, self.end_facing(), s.side, moving=s.id)
            names = ", ".join(f"{screen.names.get(e, e)} ({asp})" for e, asp in seen)
            text += f"<br>Where it ends: {'seen by ' + names if seen else 'out of enemy sight'}."
        return text

    def cancel(self, screen) -> Mode:
        """Esc or Cancel: back to picking a stand, and a refusal of this move goes too (a
        stale "must drive onto the table" stayed)."""
        screen.message = ""
        return PickMoverMode()

    def on_event(self, screen, ev):
        b = screen.battle
        if ev.type == pygame.MOUSEMOTION:
            self._mouse_moved(screen, ev)
            self.refresh(screen)
        elif ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            self._clicked(screen, ev)
            self.refresh(screen)
        elif ev.type == pygame.MOUSEBUTTONUP and ev.button == 1:
            self.dragging = False
        elif ev.type == pygame.KEYDOWN:
            if ev.key == pygame.K_ESCAPE:
                return self.cancel(screen)
            if ev.key == pygame.K_BACKSPACE and self.points:
                s = b.stand(self.stand)
                if len(self.points) > 1 or not s.on_table:
                    self.points.pop()
                    self.contact = None
                self.refresh(screen)
            if ev.key in (pygame.K_q, pygame.K_e):
                self.facing = (self.end_facing() + (15 if ev.key == pygame.K_q else -15)) % 360
                self.refresh(screen)
        return None

    def _mouse_moved(self, screen, ev) -> None:
        """The mouse moved (to a point clamped to the table, inches on 0.1"): a right drag
        turns the end facing (degrees) toward it; a stand still to enter shows where it would
        come on; else the cursor follows, and a left drag lays a waypoint each STEP_IN."""
        b = screen.battle
        x, y = (round(v, 1) for v in screen.tv.to_table(ev.pos))
        x = min(max(x, 0.0), b.table.width)
        y = min(max(y, 0.0), b.table.depth)
        if ev.buttons[2] and self.points:  # right drag: facing
            ex, ey = self.walk.points[-1] if self.walk else self.points[-1]
            self.facing = heading_deg(ex, ey, x, y) % 360
        elif not self.points:  # a stand still to enter: where it would come on
            self.cursor = (x, y)
            self.entry = self.start_of_entry(screen, x, y)
        elif self.points:
            self.cursor = (x, y)
            if self.dragging and math.dist(self.cursor, self.points[-1]) >= STEP_IN:
                self.points.append(self.cursor)

    def _clicked(self, screen, ev) -> None:
        """A left click at a point (inches, waypoints on 0.1"): on an enemy stand (full
        games), the move ends in base contact with it to close-assault it (002 8.7); for a
        stand still to enter, it comes on at the nearest edge point; else a waypoint, the
        start of a drag."""
        b = screen.battle
        x, y = (round(v, 1) for v in screen.tv.to_table(ev.pos))  # waypoints on 0.1"
        enemy = screen.stand_under(ev.pos) if b.rules.has("close_assault") and self.points else None
        if enemy is not None and enemy.side != b.to_act:
            # full games: a click on an enemy stand ends the move in base contact with it,
            # on the side nearest the last waypoint (to close-assault it, 002 8.7)
            last = self.points[-1]
            ways = [b.contact_approach(enemy.id, k) for k in range(4)]
            near, spot, facing = min(ways, key=lambda w: math.dist(w[1], last))
            if math.dist(last, spot) > math.dist(near, spot) + 1e-6:
                self.points.append(near)  # the last leg runs straight in (see the engine)
            self.points.append(spot)
            self.facing = facing
            self.contact = enemy.id
        elif not self.points:
            # it comes on at the edge point nearest the click and drives to the click,
            # as the tape is laid from the edge; a click on the edge only sets where
            entry = self.start_of_entry(screen, x, y)
            self.points = [entry]
            if math.dist(entry, (x, y)) >= STEP_IN:
                self.points.append(
                    (min(max(x, 0.0), b.table.width), min(max(y, 0.0), b.table.depth))
                )
        else:
            self.points.append((min(max(x, 0.0), b.table.width), min(max(y, 0.0), b.table.depth)))
            self.dragging = True
            self.contact = None
        self.cursor = None

    def confirm(self, screen):
        if not self.points:
            screen.message = "click where it goes first: it comes on from your edge"
            return None
        b = screen.battle
        screen.act(Move(b.to_act, self.stand, tuple(self.points), self.end_facing()))
        return None

    def draw(self, screen, surface):
        tv = screen.tv
        pts = self.path()
        if not pts:
            return
        w = self.walk
        if w and len(w.points) >= 1:
            tv.polyline(surface, pts, PAL.blocked, 2)  # what was asked
            tv.polyline(surface, w.points, PAL.clear, 4)  # what it can walk
            offer = (getattr(self, "threat", None) or {}).get("offer", {})
            for k, (x, y) in enumerate(w.points):
                n = len(offer.get(k, ()))
                if n:  # the threat preview: how many enemy stands could fire here
                    colour = THREAT[min(n, len(THREAT)) - 1]
                    pygame.draw.circle(surface, colour, [int(v) for v in tv.to_px(x, y)], 4 + n)
                elif k:
                    pygame.draw.circle(surface, PAL.clear, [int(v) for v in tv.to_px(x, y)], 2)
            ex, ey = w.points[-1]
            tv.footprint_outline(surface, ex, ey, self.end_facing(), SELECT, 2)
            if self.nerve is not None:  # it stops here to roll its nerve (001 8.3.6)
                centre = [int(v) for v in tv.to_px(ex, ey)]
                pygame.draw.circle(surface, PAL.sees, centre, max(10, int(tv.view.scale * 0.9)), 3)
        for x, y in self.points[1:]:
            pygame.draw.circle(surface, INK, [int(v) for v in tv.to_px(x, y)], 4, 1)
        for enemy, _ in getattr(self, "overruns", []):  # the stands it will overrun (002 8.6)
            e = screen.battle.stand(enemy)
            tv.footprint_outline(surface, e.x, e.y, e.facing_deg, OVERRUN, 3)
