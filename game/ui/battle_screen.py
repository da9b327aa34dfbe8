"""A battle on screen: the table, a phase banner, a side panel for the decision at hand, and the
battle log. Input works as a machine of small modes (python-tcod style): each mode reads events
and returns the next mode; every rule question goes to the engine (``Battle``).

Modes: set-up, choose who goes first, fire (pick a target, then attackers), movement attempt
(pick a group), move (pick a stand, plot its path), the curtain between players, opportunity
fire, and the end of the battle.
"""

from __future__ import annotations

import html
import math
import threading
from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UITextBox

from game import (
    PASS_THROUGH_MOD,
    STEP_IN,
    Battle,
    ChooseFirst,
    CoveringFire,
    DeclareGroup,
    EndCoveringFire,
    EndMoves,
    Fire,
    IllegalAction,
    LetPass,
    Move,
    MoveAttempt,
    OpportunityFire,
    Pass,
    Regroup,
    StandPose,
)
from game.ui.logtext import PHASE_NAMES, describe
from game.ui.modes import Mode, is_click
from game.ui.render import INK, SIDE_COLOURS, draw_stand
from game.ui.table_view import TableView

BANNER_H = 44
PANEL_W = 360
GREEN, RED, AMBER = (40, 170, 60), (215, 45, 45), (230, 150, 20)
SELECT, GROUP = (255, 255, 255), (255, 230, 80)
HELP_TEXT = [
    "Mouse wheel: zoom at the cursor     drag (or arrow keys): pan     F: fit the table",
    "Left click: pick a stand, a target, a waypoint     Right drag: set the facing",
    "Enter: confirm (attack, move attempt, move)     Esc: cancel     Backspace: undo waypoint",
    "Q / E: turn the plotted facing by 15 degrees     W: switch an attacker's weapon",
    "P: pass     Ctrl+S: save     L: show or hide the battle log     F1 or ?: this help",
    "X: show the AI's last decision (its three best options and their scores)",
    "Set-up: click a stand and press 1-9 to put it in that battle group.",
    "Badges: S suppressed, D disorganized, A ATGM used up, M movement posture; red dot: fired",
]


# ------------------------------------------------------------------------------ modes


class SetupMode(Mode):
    """Before turn 1: regroup stands (click a stand, press 1-9), then Ready."""

    def __init__(self):
        self.selected: str | None = None

    def enter(self, screen):
        side = screen.battle.to_act
        spec = screen.battle.scenario.spec
        brief = ""
        if spec.description.strip():  # the scenario's briefing, written in the map editor
            brief = f"<b>{html.escape(spec.title)}</b><br>{html.escape(spec.description)}<br><br>"
        screen.set_panel(
            f"{brief}<b>Set-up: {screen.side_name(side)}</b><br>Battle groups may change now and "
            "never again (000 08.01.01). Click one of your stands and press a digit 1-9 to put "
            "it in that group. Press <b>Ready</b> when done.",
            [("Ready", lambda: screen.act(Pass(side)))],
        )

    def on_event(self, screen, ev):
        b = screen.battle
        if is_click(ev):
            s = screen.stand_under(ev.pos, include_off_table=True)
            if s and s.side == b.to_act:
                self.selected = s.id
                screen.message = f"{screen.names[s.id]} is in group {s.group}: press 1-9 to change"
        elif ev.type == pygame.KEYDOWN and self.selected and pygame.K_1 <= ev.key <= pygame.K_9:
            screen.act(Regroup(b.to_act, self.selected, str(ev.key - pygame.K_0)), keep_mode=True)
        return None

    def draw(self, screen, surface):
        if self.selected:
            screen.outline_group(surface, self.selected)


class ChooseFirstMode(Mode):
    """The side with the initiative picks who acts first in this phase."""

    def enter(self, screen):
        b = screen.battle
        me = b.to_act
        phase = PHASE_NAMES.get(b.state.phase, b.state.phase)
        screen.set_panel(
            f"<b>{screen.side_name(me)} has the initiative.</b><br>Who acts first in the "
            f"{phase}? ({'001 5.0, 7.1.1, 8.2.4' if b.rules.postures else '000 07.02.04'})",
            [
                (f"{screen.side_name(s)} first", lambda s=s: screen.act(ChooseFirst(me, s)))
                for s in b.sides
            ],
        )


class PostureMode(Mode):
    """WWII posture phase (001 5.0 step 2): click your stands to pick a movement group (stands
    in base contact, each touching another), Enter declares it; Done leaves every stand not
    declared in the firing posture."""

    def __init__(self):
        self.picked: list[str] = []

    def enter(self, screen):
        b = screen.battle
        side = b.to_act
        declared: dict[str, list[str]] = {}
        for s in b.state.stands.values():
            if s.side == side and not s.eliminated and s.posture == "movement":
                declared.setdefault(s.group, []).append(s.id)
        lines = [
            f"<b>Posture: {screen.side_name(side)}</b>",
            "Stands you put in a movement group may move this turn but not fire; the rest "
            "stay in the firing posture: they may fire once this turn, in the fire phase or "
            "as opportunity fire, but not move. A group's stands touch one another. Groups "
            "of two or more come before any one-stand group.",
            "Click your stands to pick a group, Enter to declare it.",
        ]
        if declared:
            lines.append(
                "Declared: "
                + "; ".join(f"{g} ({', '.join(ids)})" for g, ids in sorted(declared.items()))
            )
        buttons = [("Done: the rest fire (P)", lambda: screen.act(Pass(side)))]
        if self.picked:
            lines.append(f"<b>Picked</b>: {', '.join(self.picked)}")
            buttons.insert(
                0, ("Declare group (Enter)", lambda: screen.set_mode(self.confirm(screen)))
            )
        screen.set_panel("<br>".join(lines), buttons)

    def on_event(self, screen, ev):
        b = screen.battle
        if is_click(ev):
            s = screen.stand_under(ev.pos)
            if s and s.side == b.to_act and s.posture is None:
                if s.id in self.picked:
                    self.picked.remove(s.id)
                else:
                    self.picked.append(s.id)
                self.enter(screen)
            elif s and s.side == b.to_act:
                screen.message = f"{screen.names[s.id]} is already in movement group {s.group}"
                self.enter(screen)
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            self.picked = []
            self.enter(screen)
        return None

    def confirm(self, screen):
        if self.picked:
            screen.act(DeclareGroup(screen.battle.to_act, tuple(self.picked)))
        return None

    def draw(self, screen, surface):
        b = screen.battle
        for s in b.state.stands.values():
            if s.side == b.to_act and s.active and s.posture == "movement":
                screen.tv.footprint_outline(surface, s.x, s.y, s.facing_deg, GROUP, 2)
        for i in self.picked:
            s = b.stand(i)
            screen.tv.footprint_outline(surface, s.x, s.y, s.facing_deg, SELECT, 3)


class CoveringMode(Mode):
    """WWII covering fire (001 7.5): the enemy has just opportunity-fired at our moving stand;
    answer each stand that fired with the stands of ours that may, at +3, or go on."""

    def enter(self, screen):
        b = screen.battle
        side = b.to_act
        acts = [a for a in b.legal_actions() if isinstance(a, CoveringFire)]
        lines = [
            f"<b>Covering fire: {screen.side_name(side)}</b>",
            "The enemy stands that just fired at your moving stand may be answered, each once, "
            "by your stands in the firing posture that have not fired this turn (cohesion +3).",
        ]
        buttons = []
        for a in acts:
            odds = b.odds(list(a.attackers), a.target, list(a.weapons), kind="covering")
            effect = 1.0 - odds["final"]["unchanged"]
            who = f"{a.target} <- {', '.join(a.attackers)}"
            lines.append(
                f"<b>{who}</b>: {effect:.0%} chance of any effect, "
                f"{odds['p_eliminated']:.0%} to eliminate."
            )
            buttons.append((f"{who}: {effect:.0%}", lambda a=a: screen.act(a)))
        buttons.append(("No covering fire (L)", lambda: screen.act(EndCoveringFire(side))))
        screen.set_panel("<br>".join(lines), buttons)

    def on_event(self, screen, ev):
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_l:
            screen.act(EndCoveringFire(screen.battle.to_act))
        return None

    def draw(self, screen, surface):
        b = screen.battle
        cw = b.state.covering
        if cw is None:
            return
        for t in cw.targets:
            s = b.stand(t)
            screen.tv.footprint_outline(surface, s.x, s.y, s.facing_deg, RED, 3)


class FireMode(Mode):
    """Fire phases: click an enemy stand to target it, then click your stands to add or drop
    attackers; W switches the last one's weapon; Enter fires."""

    def __init__(self, target: str | None = None):
        self.target = target
        self.attackers: list[str] = []
        self.weapons: dict[str, str] = {}
        self.options: dict[str, list[str]] = {}  # attacker -> legal weapons
        self.reasons: dict[str, str] = {}
        self.sights = {}

    def enter(self, screen):
        b = screen.battle
        self.options, self.reasons, self.sights = {}, {}, {}
        if self.target:
            for s in b.state.stands.values():
                if s.active and s.side == b.to_act:
                    legal = []
                    for w in ("cannon", "atgm") if s.unit.atgm else ("cannon",):
                        fs = b.fire_setup(s.id, self.target, w)
                        if fs.legal:
                            legal.append(w)
                        else:
                            self.reasons.setdefault(s.id, fs.reason)
                    if legal:
                        self.options[s.id] = legal
                    self.sights[s.id] = b.sight(s.id, self.target)
        self.refresh(screen)

    def refresh(self, screen):
        b = screen.battle
        side = b.to_act
        phase = PHASE_NAMES[b.state.phase]
        buttons = [("Pass (P)", lambda: screen.act(Pass(side)))]
        if not self.target:
            n = sum(
                1
                for s in b.state.stands.values()
                if s.active and s.side == side and b.rules.may_fire_in(s, b.state.phase)
            )
            screen.set_panel(
                f"<b>{phase}: {screen.side_name(side)} to attack</b><br>{n} of your stands may "
                "fire. Click an enemy stand to make it the target, or pass.",
                buttons,
            )
            return
        lines = [f"<b>Target: {screen.names[self.target]}</b>"]
        if self.attackers:
            odds = b.odds(self.attackers, self.target, [self.weapons[a] for a in self.attackers])
            for fs, shot in zip(odds["setups"], odds["shots"], strict=False):
                lines.append(screen.describe_setup(fs, shot))
            lines.append(
                f"<b>Chance to eliminate: {odds['p_eliminated']:.0%}</b> "
                f"(no effect {odds['final']['unchanged']:.0%})"
            )
            buttons.insert(0, ("Fire (Enter)", lambda: screen.set_mode(self.confirm(screen))))
        else:
            lines.append("Click your stands to add them to the attack.")
        free = [a for a in self.options if a not in self.attackers]
        if free:
            lines.append("May also fire: " + ", ".join(free))
        if self.reasons:
            lines.append(
                "<i>"
                + "<br>".join(
                    f"{k}: {html.escape(v)}"
                    for k, v in sorted(self.reasons.items())
                    if k not in self.options
                )
                + "</i>"
            )
        buttons.append(("Cancel (Esc)", lambda: screen.set_mode(FireMode())))
        screen.set_panel("<br>".join(lines), buttons)

    def on_event(self, screen, ev):
        b = screen.battle
        if is_click(ev):
            s = screen.stand_under(ev.pos)
            if s is None:
                return None
            if s.side != b.to_act:
                return FireMode(s.id)
            if self.target and s.id in self.options:
                if s.id in self.attackers:
                    self.attackers.remove(s.id)
                else:
                    self.attackers.append(s.id)
                    self.weapons[s.id] = self.options[s.id][0]
                self.refresh(screen)
            elif self.target:
                screen.message = self.reasons.get(s.id, f"{s.id} may not fire at the target")
        elif ev.type == pygame.KEYDOWN:
            if ev.key == pygame.K_ESCAPE:
                return FireMode()
            if ev.key == pygame.K_w and self.attackers:
                last = self.attackers[-1]
                opts = self.options[last]
                self.weapons[last] = opts[(opts.index(self.weapons[last]) + 1) % len(opts)]
                self.refresh(screen)
        return None

    def confirm(self, screen):
        if not self.target or not self.attackers:
            return None
        b = screen.battle
        screen.act(
            Fire(
                b.to_act,
                self.target,
                tuple(self.attackers),
                tuple(self.weapons[a] for a in self.attackers),
            )
        )
        return None

    def draw(self, screen, surface):
        if not self.target:
            return
        t = screen.battle.stand(self.target)
        tv = screen.tv
        for sid, sight in self.sights.items():
            s = screen.battle.stand(sid)
            colour = GREEN if sid in self.options else (AMBER if sight.clear else RED)
            width = 3 if sid in self.attackers else 1
            pygame.draw.line(surface, colour, tv.to_px(s.x, s.y), tv.to_px(t.x, t.y), width)
            if sid in self.attackers or not sight.clear:
                for why in sight.blocked_by:
                    screen.outline_blocker(surface, why)
        tv.footprint_outline(surface, t.x, t.y, t.facing_deg, RED, 3)


class AttemptMode(Mode):
    """Movement phase: click one of your stands to pick its battle group (WWII: its movement
    group of this turn, 001 5.0), then try to move it (ordered, or independent once the orders
    are gone)."""

    def __init__(self, group: str | None = None):
        self.group = group

    def enter(self, screen):
        b = screen.battle
        side = b.to_act
        orders = b.state.orders.get(side, 0)
        due = b.entry_due(side)
        buttons = [] if due else [("Pass (P)", lambda: screen.act(Pass(side)))]
        # WWII groups are the movement groups declared this turn (001 5.0), not battle groups
        kind = "movement group" if b.rules.postures else "battle group"
        text = (
            f"<b>Movement: {screen.side_name(side)}</b><br>Orders left: {orders}. "
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
        if self.group:
            legal = [
                a for a in b.legal_actions() if isinstance(a, MoveAttempt) and a.group == self.group
            ]
            members = [
                s.id
                for s in b.state.stands.values()
                if s.side == side and s.group == self.group and not s.eliminated
            ]
            text += f"<br><b>Group {self.group}</b>: {', '.join(members)}"
            for a in legal:
                label = "Ordered move (Enter)" if a.ordered else "Independent move, +3 (Enter)"
                buttons.insert(0, (label, lambda a=a: screen.act(a)))
            if not legal:
                text += "<br><i>This group cannot try to move now.</i>"
        screen.set_panel(text, buttons)

    def on_event(self, screen, ev):
        if is_click(ev):
            s = screen.stand_under(ev.pos, include_off_table=True)
            if s and s.side == screen.battle.to_act and s.posture == "firing":
                screen.message = f"{screen.names[s.id]} is in the firing posture this turn"
                return AttemptMode()
            if s and s.side == screen.battle.to_act:
                return AttemptMode(s.group)
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
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
                if s.side == screen.battle.to_act and s.group == self.group and s.on_table:
                    screen.tv.footprint_outline(surface, s.x, s.y, s.facing_deg, GROUP, 3)


class PickMoverMode(Mode):
    """A movement attempt succeeded: click one of the group's stands to plot its move."""

    def enter(self, screen):
        b = screen.battle
        mg = b.state.moving
        left = [i for i in mg.stands if not b.stand(i).moved]
        screen.set_panel(
            f"<b>Group {mg.group} may move</b><br>Stands: {', '.join(left)}. Click one to "
            "plot its move; off-table stands enter from your edge.",
            [("End moves", lambda: screen.act(EndMoves(mg.side)))],
        )

    def on_event(self, screen, ev):
        if is_click(ev):
            b = screen.battle
            s = screen.stand_under(ev.pos, include_off_table=True)
            if s and b.state.moving and s.id in b.state.moving.stands and not s.moved:
                return PlotMode(s.id)
        return None

    def draw(self, screen, surface):
        b = screen.battle
        for i in b.state.moving.stands:
            s = b.stand(i)
            if not s.moved:
                screen.tv.footprint_outline(surface, s.x, s.y, s.facing_deg, GROUP, 3)


class PlotMode(Mode):
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

    def enter(self, screen):
        s = screen.battle.stand(self.stand)
        if s.on_table:
            self.points = [(s.x, s.y)]
        self.refresh(screen)

    def start_of_entry(self, screen, x: float, y: float) -> tuple[float, float]:
        """The point of the side's entry edge nearest (x, y)."""
        b = screen.battle
        s = b.stand(self.stand)
        edge = b.side_spec[s.side].entry_edge
        w, d = b.table.width, b.table.depth
        y = min(max(y, 0.5), d - 0.5)
        x = min(max(x, 0.5), w - 0.5)
        return {"left": (0.0, y), "right": (w, y), "bottom": (x, 0.0), "top": (x, d)}[edge]

    def path(self) -> list[tuple[float, float]]:
        """The plotted path, with the cursor as its last point."""
        pts = list(self.points)
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
            return math.degrees(math.atan2(y1 - y0, x1 - x0)) % 360
        return self.stand_facing

    def refresh(self, screen):
        b = screen.battle
        s = b.stand(self.stand)
        self.stand_facing = s.facing_deg
        pts = self.path()
        key = (tuple(pts),)
        if pts and key != self._key:
            self._key = key
            self.walk = b.preview_move(self.stand, pts) if len(pts) >= 1 else None
            # only a walk stopped by an enemy stand may end in a nerve roll: no second walk else
            stopped = self.walk is not None and self.walk.stopped_by == "enemy"
            self.nerve = b.pass_through_at(self.stand, pts) if stopped and len(pts) >= 2 else None
        mp = b.movement_points(self.stand)
        if not self.points:
            text = (
                f"<b>{screen.names[self.stand]} enters</b><br>Click on your "
                f"{b.side_spec[s.side].entry_edge} edge where it comes on."
            )
        else:
            w = self.walk
            spent = w.mp_spent if w else 0
            text = (
                f"<b>Moving {screen.names[self.stand]}</b><br>Movement points: "
                f"{spent:g} spent of {mp:g}, {mp - spent:g} left.<br>"
                f"Facing at the end: {self.end_facing():.0f} deg.<br>Click waypoints; "
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
                text += f"<br><font color='#c02020'>Stops early: {w.stopped_by}</font>"
        screen.set_panel(
            text,
            [
                ("Move (Enter)", lambda: screen.set_mode(self.confirm(screen))),
                ("Cancel (Esc)", lambda: screen.set_mode(PickMoverMode())),
            ],
        )

    def on_event(self, screen, ev):
        b = screen.battle
        if ev.type == pygame.MOUSEMOTION:
            x, y = (round(v, 1) for v in screen.tv.to_table(ev.pos))
            x = min(max(x, 0.0), b.table.width)
            y = min(max(y, 0.0), b.table.depth)
            if ev.buttons[2] and self.points:  # right drag: facing
                ex, ey = self.walk.points[-1] if self.walk else self.points[-1]
                self.facing = math.degrees(math.atan2(y - ey, x - ex)) % 360
            elif self.points:
                self.cursor = (x, y)
                if self.dragging and math.dist(self.cursor, self.points[-1]) >= STEP_IN:
                    self.points.append(self.cursor)
            self.refresh(screen)
        elif ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            x, y = (round(v, 1) for v in screen.tv.to_table(ev.pos))  # waypoints on 0.1"
            if not self.points:
                self.points = [self.start_of_entry(screen, x, y)]
            else:
                self.points.append(
                    (min(max(x, 0.0), b.table.width), min(max(y, 0.0), b.table.depth))
                )
                self.dragging = True
            self.cursor = None
            self.refresh(screen)
        elif ev.type == pygame.MOUSEBUTTONUP and ev.button == 1:
            self.dragging = False
        elif ev.type == pygame.KEYDOWN:
            if ev.key == pygame.K_ESCAPE:
                return PickMoverMode()
            if ev.key == pygame.K_BACKSPACE and self.points:
                s = b.stand(self.stand)
                if len(self.points) > 1 or not s.on_table:
                    self.points.pop()
                self.refresh(screen)
            if ev.key in (pygame.K_q, pygame.K_e):
                self.facing = (self.end_facing() + (15 if ev.key == pygame.K_q else -15)) % 360
                self.refresh(screen)
        return None

    def confirm(self, screen):
        if not self.points:
            screen.message = "click on your edge first"
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
            tv.polyline(surface, pts, RED, 2)  # what was asked
            tv.polyline(surface, w.points, GREEN, 4)  # what it can walk
            for x, y in w.points[1:]:
                pygame.draw.circle(surface, GREEN, [int(v) for v in tv.to_px(x, y)], 2)
            ex, ey = w.points[-1]
            tv.footprint_outline(surface, ex, ey, self.end_facing(), SELECT, 2)
            if self.nerve is not None:  # it stops here to roll its nerve (001 8.3.6)
                centre = [int(v) for v in tv.to_px(ex, ey)]
                pygame.draw.circle(surface, AMBER, centre, max(10, int(tv.view.scale * 0.9)), 3)
        for x, y in self.points[1:]:
            pygame.draw.circle(surface, INK, [int(v) for v in tv.to_px(x, y)], 4, 1)


class CurtainMode(Mode):
    """Hands the screen to the other player; the table is hidden until they click."""

    def __init__(self, side: str, then: Mode | None):
        self.side = side
        self.then = then

    def enter(self, screen):
        screen.set_panel(
            f"<b>Hand over to {screen.side_name(self.side)}</b><br>Click or "
            "press Space when ready.",
            [],
        )

    def on_event(self, screen, ev):
        if is_click(ev) or (
            ev.type == pygame.KEYDOWN and ev.key in (pygame.K_SPACE, pygame.K_RETURN)
        ):
            return self.then or screen.mode_for_state()
        return None

    def confirm(self, screen):
        return self.then or screen.mode_for_state()

    def draw(self, screen, surface):
        veil = pygame.Surface(screen.tv.rect.size)
        veil.fill((40, 46, 38))
        surface.blit(veil, screen.tv.rect.topleft)
        font = pygame.font.Font(None, 48)
        text = font.render(f"Hand over to {screen.side_name(self.side)}", True, (245, 243, 234))
        surface.blit(text, text.get_rect(center=screen.tv.rect.center))
        small = pygame.font.Font(None, 26).render(
            "click or press Space when ready", True, (200, 200, 190)
        )
        surface.blit(
            small, small.get_rect(center=(screen.tv.rect.centerx, screen.tv.rect.centery + 40))
        )


class OpportunityMode(Mode):
    """The enemy has declared a move: pick a point along its path and the stands that fire
    there, or let it pass."""

    def __init__(self):
        self.step: int | None = None
        self.firers: list[str] = []
        self.weapons: dict[str, str] = {}

    def enter(self, screen):
        self.refresh(screen)

    def refresh(self, screen):
        b = screen.battle
        pm = b.state.pending
        side = b.to_act
        lines = [
            f"<b>Opportunity fire: {screen.side_name(side)}</b>",
            f"{screen.names[pm.stand]} is moving. Click a marked point of its path to "
            "stop it there, pick who fires, and fire; or let it pass.",
        ]
        buttons = [("Let it pass (L)", lambda: screen.act(LetPass(side)))]
        if self.step is not None and self.firers:
            odds = b.odds(
                self.firers, pm.stand, [self.weapons[f] for f in self.firers], step=self.step
            )
            for fs, shot in zip(odds["setups"], odds["shots"], strict=False):
                lines.append(screen.describe_setup(fs, shot))
            lines.append(f"<b>Chance to eliminate: {odds['p_eliminated']:.0%}</b>")
            buttons.insert(0, ("Fire (Enter)", lambda: screen.set_mode(self.confirm(screen))))
        elif self.step is not None:
            lines.append("Click the stands that fire.")
        screen.set_panel("<br>".join(lines), buttons)

    def on_event(self, screen, ev):
        b = screen.battle
        pm = b.state.pending
        if is_click(ev):
            s = screen.stand_under(ev.pos)
            if s and self.step is not None and s.side == b.to_act:
                allowed = dict(pm.offer[self.step])
                if s.id in allowed:
                    if s.id in self.firers:
                        self.firers.remove(s.id)
                    else:
                        self.firers.append(s.id)
                        self.weapons[s.id] = allowed[s.id]
                    self.refresh(screen)
                    return None
            x, y = screen.tv.to_table(ev.pos)
            best = min(pm.offer, key=lambda k: math.dist(pm.points[k], (x, y)), default=None)
            if best is not None and math.dist(pm.points[best], (x, y)) <= 0.75:
                self.step = best
                self.firers = [f for f, _ in pm.offer[best]]
                self.weapons = dict(pm.offer[best])
                self.refresh(screen)
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_l:
            screen.act(LetPass(b.to_act))
        return None

    def confirm(self, screen):
        if self.step is None or not self.firers:
            return None
        b = screen.battle
        screen.act(
            OpportunityFire(
                b.to_act, self.step, tuple(self.firers), tuple(self.weapons[f] for f in self.firers)
            )
        )
        return None

    def draw(self, screen, surface):
        b = screen.battle
        pm = b.state.pending
        if pm is None:
            return
        tv = screen.tv
        tv.polyline(surface, pm.points, AMBER, 3)
        for k, firers in pm.offer.items():
            x, y = pm.points[k]
            r = 2 + len(firers)
            colour = RED if k == self.step else AMBER
            pygame.draw.circle(surface, colour, [int(v) for v in tv.to_px(x, y)], r)
        if self.step is not None:
            x, y = pm.points[self.step]
            tv.footprint_outline(surface, x, y, pm.headings[self.step], RED, 3)
            for f in self.firers:
                s = b.stand(f)
                pygame.draw.line(surface, GREEN, tv.to_px(s.x, s.y), tv.to_px(x, y), 3)


class AIMode(Mode):
    """The AI's turn: it thinks in a worker thread (the window stays responsive), then its
    action is applied and its moves are shown gliding along their paths."""

    def __init__(self, side: str):
        self.side = side
        self.thread: threading.Thread | None = None
        self.result = None
        self.error: BaseException | None = None

    def enter(self, screen):
        screen.set_panel(
            f"<b>{screen.side_name(self.side)} (AI, {screen.ai_level(self.side)})"
            "</b><br>Thinking... Press X to see the options it weighed.",
            [],
        )

    def start(self, screen) -> None:
        """Think in the background."""
        player = screen.ai[self.side]

        def work():
            try:
                self.result = player.choose(screen.battle)
            except BaseException as err:  # shown, never swallowed silently
                self.error = err

        self.thread = threading.Thread(target=work, daemon=True)
        self.thread.start()

    def poll(self, screen) -> None:
        """Apply the action once the thinking is done."""
        if self.thread is None:
            self.start(screen)
            return
        if self.thread.is_alive():
            return
        if self.error is not None:
            screen.message = f"the AI failed: {self.error}"
            self.error = None
            self.thread = None
            self.enter(screen)
            return
        action, self.result, self.thread = self.result, None, None
        screen.act(action, animate=True)


class EndMode(Mode):
    """The battle is over: who won and why, losses, turns; save the log, play again, menu."""

    def enter(self, screen):
        b = screen.battle
        st = b.state
        losses = st.losses(b.sides)
        winner = screen.side_name(st.winner) if st.winner else "Nobody"
        text = (
            f"<b>{html.escape(winner)} wins.</b><br>{html.escape(st.reason or '')}<br>"
            + "<br>".join(
                f"{screen.side_name(s)}: lost {losses[s]} of {b.totals[s]} stands" for s in b.sides
            )
            + f"<br>Turns played: {st.turn}"
        )
        if screen.log_path:
            text += f"<br>Battle log: {html.escape(str(screen.log_path))}"
        screen.set_panel(
            text,
            [
                ("Save the log", screen.save_log_copy),
                ("Play again", screen.play_again),
                ("Main menu", screen.to_menu),
            ],
        )

    def draw(self, screen, surface):
        b = screen.battle
        box = pygame.Rect(0, 0, 520, 160)
        box.center = screen.tv.rect.center
        pygame.draw.rect(surface, (245, 243, 234), box)
        pygame.draw.rect(surface, INK, box, 2)
        st = b.state
        title = f"{screen.side_name(st.winner)} wins" if st.winner else "A draw"
        big = pygame.font.Font(None, 52).render(title, True, INK)
        surface.blit(big, big.get_rect(center=(box.centerx, box.y + 45)))
        font = pygame.font.Font(None, 24)
        for i, line in enumerate([st.reason or "", f"after {st.turn} turns"]):
            t = font.render(line, True, INK)
            surface.blit(t, t.get_rect(center=(box.centerx, box.y + 95 + 26 * i)))


# ------------------------------------------------------------------------------ the screen


class BattleScreen:
    """A battle in the window: two players at one screen, or one against the AI.

    ``log_path`` is where the battle log is being written (shown at the end); ``on_menu`` and
    ``on_again`` are called by the end screen's buttons; ``ai`` maps a side to the AI player
    that plays it; ``ai_speed`` is how fast (inches a second) its moves are shown.
    """

    def __init__(
        self,
        app,
        battle: Battle,
        log_path: Path | None = None,
        on_menu=None,
        on_again=None,
        save_dir: Path | None = None,
        ai: dict | None = None,
        ai_speed: float = 12.0,
    ):
        self.app = app
        self.battle = battle
        self.ai = dict(ai or {})  # side -> player (ScriptedAI)
        self.ai_speed = ai_speed  # inches a second when its moves are shown; 0: no animation
        self.show_explain = False
        self.anim: list[tuple[str, list, float]] = []  # (stand, path points, seconds left)
        self.flashes: list[tuple[tuple, tuple, float]] = []  # shots: from, to, seconds left
        self.log_path = log_path
        self.on_menu = on_menu
        self.on_again = on_again
        self.save_dir = save_dir
        self.names = {s.id: f"{s.unit_name} {s.id}" for s in battle.state.stands.values()}
        self.sides = {s: battle.side_spec[s].name for s in battle.sides}
        self.message = ""
        self.last_result: list[str] = []
        self.help = False
        self.show_log = True
        self.mode: Mode = Mode()
        self._buttons: list[tuple[UIButton, callable]] = []
        self._panel_text = None
        self._log_seen = 0
        self._drag_from = None
        self._dragged = False
        self._mouse = (0, 0)
        self._hover_pos = None
        self._hover = ""
        self._hover_surf = None
        self.tv = TableView(battle.table, self.table_rect(app.size))

    # ---------------------------------------------------------------- layout and widgets

    def table_rect(self, size) -> pygame.Rect:
        """Where the table is drawn: left of the panel, below the banner."""
        return pygame.Rect(0, BANNER_H, size[0] - PANEL_W, size[1] - BANNER_H)

    def open(self) -> None:
        """Create the widgets and enter the mode for the current state."""
        self._build()
        self.set_mode(self.mode_for_state())

    def _build(self) -> None:
        m = self.app.manager
        w, h = self.app.size
        self.banner = UILabel(pygame.Rect(10, 8, w - 380, 28), "", m, object_id="#banner")
        self.pass_button = UIButton(pygame.Rect(w - 360, 6, 110, 32), "Pass (P)", m)
        self.save_button = UIButton(pygame.Rect(w - 244, 6, 110, 32), "Save (Ctrl+S)", m)
        self.menu_button = UIButton(pygame.Rect(w - 128, 6, 118, 32), "Menu", m)
        self.panel = UITextBox("", pygame.Rect(w - PANEL_W + 6, BANNER_H + 6, PANEL_W - 12, 300), m)
        self.log_box = UITextBox(
            "", pygame.Rect(w - PANEL_W + 6, BANNER_H + 392, PANEL_W - 12, h - BANNER_H - 398), m
        )
        self._log_seen = 0
        self.log_lines: list[str] = []
        self._panel_text = None
        self.refresh_log()

    def close(self) -> None:
        """Nothing to release: the app clears the widgets."""

    def resized(self, size) -> None:
        """Lay the screen out again for a new window size."""
        self.app.manager.clear_and_reset()
        self._buttons = []
        self.tv.resize(self.table_rect(size))
        self._build()
        self.mode.enter(self)

    def side_name(self, side: str | None) -> str:
        """A side's name."""
        return self.sides.get(side, str(side))

    def set_panel(self, text: str, buttons: list[tuple[str, callable]]) -> None:
        """The panel's text and its buttons (replacing the old ones)."""
        if self.last_result:
            text = f"<b>Last attack</b><br>{'<br>'.join(self.last_result)}<br><br>" + text
        if self.message:
            text += f"<br><font color='#b03010'>{html.escape(self.message)}</font>"
        if text != self._panel_text:
            self.panel.set_text(text)
            self._panel_text = text
        for b, _ in self._buttons:
            b.kill()
        self._buttons = []
        w = self.app.size[0]
        for i, (label, fn) in enumerate(buttons):
            rect = pygame.Rect(
                w - PANEL_W + 6 + (i % 2) * 176, BANNER_H + 312 + (i // 2) * 38, 170, 34
            )
            self._buttons.append((UIButton(rect, label, self.app.manager), fn))

    def refresh_log(self) -> None:
        """Append the battle-log events not shown yet, as sentences."""
        events = self.battle.log.events
        new = []
        for ev in events[self._log_seen :]:
            text = describe(ev, self.names, self.sides)
            if text:
                new.append(html.escape(text))
        self._log_seen = len(events)
        if new:
            self.log_lines += new
            self.log_box.append_html_text("<br>".join(new) + "<br>")
            bar = getattr(self.log_box, "scroll_bar", None)
            if bar is not None:  # keep the newest lines in view
                bar.set_scroll_from_start_percentage(1.0)

    def banner_text(self) -> str:
        """Turn, phase, who acts, orders left."""
        b = self.battle
        st = b.state
        if st.finished:
            return f"Turn {st.turn}: the battle is over"
        phase = PHASE_NAMES.get(st.phase, st.phase)
        orders = ""
        if st.phase == "movement":
            orders = "   orders: " + ", ".join(
                f"{self.side_name(s)} {st.orders.get(s, 0)}" for s in b.sides
            )
        turn = f"Turn {st.turn} of {b.scenario.spec.turns}" if st.turn else "Before turn 1"
        return f"{turn}   {phase}   {self.side_name(b.to_act)} to act{orders}"

    # ---------------------------------------------------------------- modes and actions

    def mode_for_state(self) -> Mode:
        """The input mode the battle's state calls for."""
        b = self.battle
        st = b.state
        if st.finished:
            return EndMode()
        if b.to_act in self.ai:
            return AIMode(b.to_act)
        if st.phase == "setup":
            return SetupMode()
        phase = b.phase
        if phase and phase.choose_first and not st.first_chosen:
            return ChooseFirstMode()
        if st.covering is not None:
            return CoveringMode()
        if phase and phase.kind == "posture":
            return PostureMode()
        if st.pending is not None:
            return OpportunityMode()
        if phase and phase.kind == "fire":
            return FireMode()
        if phase and phase.kind == "movement":
            return PickMoverMode() if st.moving is not None else AttemptMode()
        return Mode()

    def set_mode(self, mode: Mode | None) -> None:
        """Make ``mode`` current (None keeps the current one)."""
        if mode is None:
            return
        self.mode = mode
        mode.enter(self)

    def act(self, action, keep_mode: bool = False, animate: bool = False) -> bool:
        """Apply an action through the engine; an illegal one only shows its reason.
        ``animate``: show the moves and shots it made (the AI's)."""
        b = self.battle
        before = b.to_act
        try:
            b.apply(action)
        except IllegalAction as err:
            self.message = str(err)
            self.mode.enter(self)
            return False
        self.message = ""
        seen = self._log_seen
        self.refresh_log()
        fired = [e for e in b.log.events[seen:] if e["event"] == "fire"]
        self.last_result = [html.escape(describe(e, self.names, self.sides)) for e in fired]
        if animate:
            self._animate(b.log.events[seen:])
        if keep_mode:
            self.mode.enter(self)
            return True
        nxt = self.mode_for_state()
        pending = b.state.pending is not None
        if self.ai:
            pass  # against the AI there is nobody to hand the screen to
        elif isinstance(action, Move) and pending:
            nxt = CurtainMode(b.to_act, OpportunityMode())
        elif (
            isinstance(action, (LetPass, OpportunityFire)) and not b.finished and b.to_act != before
        ):
            nxt = CurtainMode(b.to_act, None)
        self.set_mode(nxt)
        return True

    def ai_level(self, side: str) -> str:
        """The level of the AI playing a side."""
        level = getattr(self.ai.get(side), "level", None)
        return getattr(level, "name", "ai")

    def _animate(self, events) -> None:
        """Queue the moves and shots of new events to be shown."""
        if self.ai_speed <= 0:
            return
        for ev in events:
            if ev["event"] == "move" and len(ev["path"]) > 1:
                length = sum(
                    math.dist(a, b) for a, b in zip(ev["path"], ev["path"][1:], strict=False)
                )
                self.anim.append((ev["stand"], ev["path"], length / self.ai_speed))
            elif ev["event"] == "fire":
                self.flashes.append(
                    (tuple(ev["attacker_pos"][:2]), tuple(ev["target_pos"][:2]), 0.6)
                )

    @property
    def animating(self) -> bool:
        """True while the AI's moves are being shown."""
        return bool(self.anim)

    def stand_under(self, pos, include_off_table: bool = False):
        """The stand under a pixel."""
        stands = [
            s
            for s in self.battle.state.stands.values()
            if s.on_table or (include_off_table and s.side == self.battle.to_act)
        ]
        return self.tv.stand_at(stands, pos, include_off_table)

    def describe_setup(self, fs, shot) -> str:
        """One attacker's shot for the panel: weapon, range, aspect, modifiers, odds."""
        if not fs.legal:
            return f"{fs.attacker}: <i>{html.escape(fs.reason)}</i>"
        coh = " ".join(f"{v:+d} {w.removeprefix('terrain:')}" for w, v in fs.cohesion_mods)
        cmb = " ".join(f"{v:+d} {w.removeprefix('terrain:')}" for w, v in fs.combat_mods)
        return (
            f'<b>{fs.attacker}</b> {fs.weapon}: {fs.range_band_in}" {fs.aspect}, '
            f"{fs.firepower} vs {fs.defense} = {fs.differential:+d}; cohesion "
            f"{coh or '+0'} ({shot['p_fire']:.0%} to fire); 2D6 {cmb or '+0'}"
        )

    def outline_group(self, surface, stand_id: str) -> None:
        """Outline every stand of a stand's battle group."""
        g = self.battle.stand(stand_id)
        for s in self.battle.state.stands.values():
            if s.side == g.side and s.group == g.group and (s.on_table or s.id == stand_id):
                colour = SELECT if s.id == stand_id else GROUP
                self.tv.footprint_outline(surface, s.x, s.y, s.facing_deg, colour, 3)

    def outline_blocker(self, surface, why) -> None:
        """Highlight what blocks a line of sight: a terrain area, a hill or a stand."""
        kind = why[0]
        if kind in ("terrain", "hill"):
            feat = next((f for f in self.battle.table.features if f.index == why[2]), None)
            if feat is not None:
                for poly in getattr(feat.geometry, "geoms", [feat.geometry]):
                    pts = [self.tv.to_px(x, y) for x, y in poly.exterior.coords]
                    pygame.draw.polygon(surface, RED, pts, 3)
        elif kind == "stand":
            s = self.battle.stand(why[1])
            self.tv.footprint_outline(surface, s.x, s.y, s.facing_deg, RED, 3)

    # ---------------------------------------------------------------- saving

    def save(self) -> Path | None:
        """Save the battle (Ctrl+S) into the saves folder; returns the path."""
        from game.saves import saves_dir

        folder = self.save_dir or saves_dir()
        stem = Path(self.battle.scenario.path).stem
        path = Path(folder) / f"{stem}-seed{self.battle.seed}-turn{self.battle.state.turn}.json"
        try:
            self.battle.save(path)
        except OSError as err:
            self.message = f"could not save: {err}"
            return None
        self.message = f"saved to {path}"
        self.mode.enter(self)
        return path

    def save_log_copy(self) -> None:
        """Write the battle log next to the saves (End screen)."""
        import json

        from game import write_atomic
        from game.saves import logs_dir

        stem = Path(self.battle.scenario.path).stem
        path = logs_dir() / f"{stem}-seed{self.battle.seed}.jsonl"
        write_atomic(
            path,
            "".join(
                json.dumps(e, sort_keys=True, separators=(",", ":")) + "\n"
                for e in self.battle.log.events
            ),
        )
        self.message = f"battle log saved to {path}"
        self.mode.enter(self)

    def play_again(self) -> None:
        """Start the same scenario again with the next seed."""
        if self.on_again:
            self.on_again(self.battle)

    def to_menu(self) -> None:
        """Back to the main menu."""
        if self.on_menu:
            self.on_menu()

    # ---------------------------------------------------------------- events

    def handle(self, ev) -> None:
        """One event: GUI widgets first, then camera and keys, then the current mode."""
        self.app.manager.process_events(ev)
        if ev.type == pygame_gui.UI_BUTTON_PRESSED:
            if ev.ui_element is self.pass_button:
                self._pass()
            elif ev.ui_element is self.save_button:
                self.save()
            elif ev.ui_element is self.menu_button:
                self.to_menu()
            for button, fn in list(self._buttons):
                if ev.ui_element is button:
                    fn()
            return
        if ev.type == pygame.MOUSEMOTION:
            self._mouse = ev.pos
        if ev.type in (
            pygame.MOUSEBUTTONDOWN,
            pygame.MOUSEBUTTONUP,
            pygame.MOUSEMOTION,
            pygame.MOUSEWHEEL,
        ):
            pos = self._mouse if ev.type == pygame.MOUSEWHEEL else ev.pos
            if not self.tv.rect.collidepoint(pos) and not self._drag_from:
                return
        if ev.type == pygame.KEYDOWN and self._key(ev):
            return
        if ev.type == pygame.MOUSEWHEEL:
            self.tv.zoom_at(1.15**ev.y, self._mouse)
            return
        if self._camera_drag(ev):
            return
        if isinstance(self.mode, AIMode) or self.anim:
            return  # the AI is playing: only the camera moves
        if isinstance(self.mode, CurtainMode) or not self.help:
            self.set_mode(self.mode.on_event(self, ev))

    def _pass(self) -> None:
        b = self.battle
        if b.to_act in self.ai:
            return
        if b.to_act:
            self.act(Pass(b.to_act))  # when it may not pass, the engine's reason is shown

    def _key(self, ev) -> bool:
        k = ev.key
        if k == pygame.K_F1 or ev.unicode == "?":
            self.help = not self.help
            return True
        if k == pygame.K_x:
            self.show_explain = not self.show_explain
            return True
        if self.help and k == pygame.K_ESCAPE:
            self.help = False
            return True
        if k == pygame.K_s and ev.mod & pygame.KMOD_CTRL:
            self.save()
            return True
        if k == pygame.K_f:
            self.tv.fit()
            return True
        if k in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
            step = 60
            dx = {pygame.K_LEFT: step, pygame.K_RIGHT: -step}.get(k, 0)
            dy = {pygame.K_UP: step, pygame.K_DOWN: -step}.get(k, 0)
            self.tv.pan(dx, dy)
            return True
        if k == pygame.K_l and not isinstance(self.mode, (OpportunityMode, CoveringMode)):
            self.show_log = not self.show_log
            self.log_box.visible = self.show_log
            if self.show_log:
                self.log_box.show()
            else:
                self.log_box.hide()
            return True
        if k == pygame.K_p and not isinstance(self.mode, CurtainMode):
            self._pass()
            return True
        if k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.set_mode(self.mode.confirm(self))
            return True
        return False

    def _camera_drag(self, ev) -> bool:
        """Pan with the middle button, or a left drag in modes that do not plot."""
        plotting = isinstance(self.mode, PlotMode)
        if ev.type == pygame.MOUSEBUTTONDOWN and (
            ev.button == 2 or (ev.button == 1 and not plotting)
        ):
            self._drag_from = ev.pos
            self._dragged = False
            return ev.button == 2
        if ev.type == pygame.MOUSEMOTION and self._drag_from is not None:
            dx, dy = ev.pos[0] - self._drag_from[0], ev.pos[1] - self._drag_from[1]
            if self._dragged or abs(dx) + abs(dy) > 6:
                self._dragged = True
                self.tv.pan(dx, dy)
                self._drag_from = ev.pos
                return True
            return False
        if ev.type == pygame.MOUSEBUTTONUP and self._drag_from is not None and ev.button in (1, 2):
            dragged = self._dragged
            self._drag_from = None
            self._dragged = False
            return dragged or ev.button == 2
        return False

    # ---------------------------------------------------------------- frame

    def update(self, dt: float) -> None:
        """Advance the GUI."""
        text = self.banner_text()
        if self.banner.text != text:
            self.banner.set_text(text)
        if self.anim:
            stand, path, left = self.anim[0]
            left -= dt
            self.anim[0] = (stand, path, left)
            if left <= 0:
                self.anim.pop(0)
        self.flashes = [(a, b, t - dt) for a, b, t in self.flashes if t - dt > 0]
        if isinstance(self.mode, AIMode) and not self.anim:
            self.mode.poll(self)
        self.app.manager.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the banner, the table with stands and the mode's overlay, the panel."""
        w, h = surface.get_size()
        surface.fill((58, 72, 56), pygame.Rect(0, 0, w, BANNER_H))
        surface.fill((226, 222, 210), pygame.Rect(w - PANEL_W, BANNER_H, PANEL_W, h - BANNER_H))
        clip = surface.get_clip()
        surface.set_clip(self.tv.rect)
        self.tv.draw_terrain(surface)
        b = self.battle
        ghosts = {s.id for s in b.state.stands.values() if not s.on_table and not s.eliminated}
        hidden = {a[0] for a in self.anim}  # stands being shown gliding along their path
        self.tv.draw_stands(
            surface,
            [s for s in b.state.stands.values() if s.id not in hidden],
            b.sides,
            b.state.wrecks,
            ghost=ghosts,
        )
        self._draw_animation(surface)
        self.mode.draw(self, surface)
        if self.show_explain:
            self._draw_explain(surface)
        if not isinstance(self.mode, CurtainMode):
            self._draw_hover(surface)
        if self.help:
            self._draw_help(surface)
        surface.set_clip(clip)
        self.app.manager.draw_ui(surface)

    def _draw_animation(self, surface) -> None:
        """A stand of the AI gliding along its path; shots as flashing lines."""
        b = self.battle
        if self.anim:
            stand, path, left = self.anim[0]
            s = b.stand(stand)
            total = sum(math.dist(p, q) for p, q in zip(path, path[1:], strict=False)) or 1.0
            done = max(0.0, 1.0 - left * self.ai_speed / total) * total
            x, y, heading = path[0][0], path[0][1], s.facing_deg
            for p, q in zip(path, path[1:], strict=False):
                seg = math.dist(p, q)
                if done <= seg:
                    t = done / seg if seg else 1.0
                    x, y = p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])
                    heading = math.degrees(math.atan2(q[1] - p[1], q[0] - p[0]))
                    break
                done -= seg
                x, y = q
            self.tv.polyline(surface, path, GROUP, 2)
            colour = SIDE_COLOURS[b.sides.index(s.side) % 2]

            draw_stand(surface, self.tv.view, StandPose(s.id, s.side, x, y, heading), colour)
        for a, t, _ in self.flashes:
            pygame.draw.line(surface, (250, 80, 30), self.tv.to_px(*a), self.tv.to_px(*t), 3)

    def explain_lines(self) -> list[str]:
        """The text of the explain overlay: for each AI side, when it last decided (turn and
        phase) and its three best options there with their scores (in stands)."""
        lines = []
        for side, player in self.ai.items():
            when = getattr(player, "last_when", None)
            at = f" (turn {when[0]}, {PHASE_NAMES.get(when[1], when[1])})" if when else ""
            lines.append(f"{self.side_name(side)} (AI, {self.ai_level(side)}): last decision{at}")
            for o in getattr(player, "last", [])[:3]:
                lines.append(f"   {o.score:+.2f}  {o.label}")
        return lines or ["No AI in this battle."]

    def _draw_explain(self, surface) -> pygame.Rect:
        """The AI's last decision: its three best options and their scores (X toggles).
        Returns the box drawn (pixels)."""
        lines = self.explain_lines()
        font = pygame.font.Font(None, 22)
        rendered = [font.render(line, True, INK) for line in lines]
        # as wide as its longest line (the AI's labels vary), within the table view
        width = min(max(560, 20 + max(r.get_width() for r in rendered)), self.tv.rect.w - 20)
        box = pygame.Rect(self.tv.rect.x + 10, self.tv.rect.y + 10, width, 16 + 22 * len(lines))
        pygame.draw.rect(surface, (245, 243, 234), box)
        pygame.draw.rect(surface, INK, box, 1)
        for i, r in enumerate(rendered):
            surface.blit(r, (box.x + 10, box.y + 8 + 22 * i))
        return box

    def hover_text(self, pos) -> str:
        """What is under the mouse: a stand (unit, id, group, markers) or the terrain there."""
        if not self.tv.rect.collidepoint(pos):
            return ""
        s = self.stand_under(pos, include_off_table=True)
        if s is not None:
            marks = [
                m
                for m, on in (
                    ("suppressed", s.S),
                    ("disorganized", s.D),
                    ("fired", s.fire_attempts > 0),
                    ("ATGM used up", s.depleted),
                )
                if on
            ]
            where = "" if s.on_table else ", waiting to enter"
            group = f"group {s.group}" if s.group else "no group"
            if s.posture:
                group += f", {s.posture} posture"
            return (
                f"{self.side_name(s.side)}: {s.unit_name} {s.id}, {group}"
                f"{', GHQ' if s.ghq else ''}{where}" + (f"; {', '.join(marks)}" if marks else "")
            )
        x, y = self.tv.to_table(pos)
        table = self.battle.table
        if not table.on_table(x, y):
            return ""
        here = table.terrain_at(x, y)
        what = ", ".join(k.replace("_", " ") for k in here.areas) or "clear"
        if here.road:
            what += f", {here.road.replace('_', ' ')}"
        if here.hill_zone:
            what += f", {here.hill_zone} of a level-{here.ground_level} hill"
        return f'({x:.1f}", {y:.1f}")  {what}'

    def _draw_hover(self, surface) -> None:
        if self._hover_pos != self._mouse:
            self._hover_pos = self._mouse
            self._hover = self.hover_text(self._mouse)
            self._hover_surf = (
                pygame.font.Font(None, 22).render(self._hover, True, INK) if self._hover else None
            )
        if not self._hover_surf:
            return
        text = self._hover_surf
        bar = pygame.Rect(self.tv.rect.x, self.tv.rect.bottom - 26, self.tv.rect.w, 26)
        pygame.draw.rect(surface, (245, 243, 234), bar)
        surface.blit(text, (bar.x + 8, bar.y + 6))

    def _draw_help(self, surface) -> None:
        font = pygame.font.Font(None, 24)
        title = "Keys and mouse (F1 or Esc to close)"
        lines = [font.render(line, True, INK) for line in (title, *HELP_TEXT)]
        box = pygame.Rect(0, 0, 32 + max(t.get_width() for t in lines), 40 + 28 * len(HELP_TEXT))
        box.center = self.tv.rect.center
        pygame.draw.rect(surface, (245, 243, 234), box)
        pygame.draw.rect(surface, INK, box, 2)
        for i, t in enumerate(lines):
            surface.blit(t, (box.x + 16, box.y + 12 + 28 * i))


__all__ = ["BattleScreen", "SIDE_COLOURS"]
