"""The battle screen's overlays on the table: a group's and a line of sight's blockers
outlined (functions the modes call), the view a battle opens with, the AI's moves gliding
and its shots flashing (:class:`Animation`), and the mini-map, the AI's last decision (X),
the hover line under the mouse and the help (F1) (:class:`Overlays`)."""

from __future__ import annotations

import math
from typing import Protocol

import pygame

from game import StandPose, corners, heading_deg
from game.ui.battle.layout import GROUP, HELP_TEXT, PAL, SELECT, STAND_PX
from game.ui.battle.turns import CurtainMode
from game.ui.logtext import PHASE_NAMES
from game.ui.paint.minimap import MiniMap
from game.ui.paint.models import hq_level
from game.ui.render import INK, SIDE_COLOURS

GLIDE_MOST_S = 0.6
"""The longest a move of the AI's glides on screen, in seconds (a long move goes faster than
the chosen speed, so a whole movement phase is watched in seconds, not minutes)."""


def look_at_the_action(tv, battle, humans: list[str]) -> None:
    """Turn ``tv`` (a :class:`~game.ui.table_view.TableView`) to the view a battle opens
    with (and gets after the window is resized): the table zoomed so a stand is at least
    :data:`STAND_PX` pixels, centred on the stands of the side the player commands (of
    ``humans``, the sides played at this screen: the side the AI does not play; in a
    two-player battle the side to act; over the network this machine's side), those on the
    table and those waiting at their entry points. F fits the whole table, the wheel zooms
    out (at 1280x800 the fitted 60"x36" table showed 14 px stands)."""
    b = battle
    side = b.to_act if b.to_act in humans or len(humans) != 1 else humans[0]
    live = [s for s in b.state.stands.values() if not s.eliminated and s.carried_by is None]
    mine = [s for s in live if s.side == side] or live
    if not mine:
        tv.fit()
        return
    xs, ys = [s.x for s in mine], [s.y for s in mine]
    waiting = [s for s in mine if not s.on_table]  # drawn at their entry points
    keep = None
    if waiting:
        wx, wy = [s.x for s in waiting], [s.y for s in waiting]
        keep = (min(wx), min(wy), max(wx), max(wy))
    tv.look_at((min(xs), min(ys), max(xs), max(ys)), STAND_PX, keep)


def outline_group(surface, tv, battle, stand_id: str) -> None:
    """Outline every stand of a stand's battle group (not the wrecks of those it lost) on
    ``tv`` (a :class:`~game.ui.table_view.TableView`)."""
    g = battle.stand(stand_id)
    for s in battle.state.stands.values():
        alive = not s.eliminated or s.id == stand_id
        if s.side == g.side and s.group == g.group and alive and (s.on_table or s.id == stand_id):
            colour = SELECT if s.id == stand_id else GROUP
            tv.footprint_outline(surface, s.x, s.y, s.facing_deg, colour, 3)


def outline_blocker(surface, tv, battle, why) -> None:
    """Highlight what blocks a line of sight: a terrain area or a hill outlined, a stand
    crossed (an outline in that colour says "theirs" in the fire phases' legend, and the
    stand in the way may be one of yours)."""
    kind = why[0]
    if kind in ("terrain", "hill"):
        feat = next((f for f in battle.table.features if f.index == why[2]), None)
        if feat is not None:
            for poly in getattr(feat.geometry, "geoms", [feat.geometry]):
                pts = [tv.to_px(x, y) for x, y in poly.exterior.coords]
                pygame.draw.polygon(surface, PAL.blocked, pts, 3)
    elif kind == "stand":
        s = battle.stand(why[1])
        pts = [tv.to_px(x, y) for x, y in corners(s.x, s.y, s.facing_deg)]
        pygame.draw.line(surface, PAL.blocked, pts[0], pts[2], 3)
        pygame.draw.line(surface, PAL.blocked, pts[1], pts[3], 3)


class Animation:
    """The AI's moves gliding and its shots flashing on the battle screen (its
    ``animation``): ``moves`` (stand id, path of table points in inches, seconds left,
    seconds in all) and ``flashes`` (from, to, seconds left); ``speed`` is how fast a move
    glides, in inches a second (0: not shown)."""

    glide_together = True
    """The AI's moves glide alongside one another, each at most GLIDE_MOST_S, the AI
    choosing the next while they do; False: one at a time at the set speed, the next chosen
    once it has stopped (as before: tools/bench/bench_ai_watch.py's baseline)."""

    def __init__(self, battle, tv, speed: float):
        self.battle = battle
        self.tv = tv
        self.speed = speed
        self.moves: list[tuple[str, list, float, float]] = []
        self.flashes: list[tuple[tuple, tuple, float]] = []
        self._skipped: tuple | None = None  # (turn, phase) whose moves Space skipped

    def queue(self, events) -> None:
        """Queue the moves and shots of new events to be shown: each move glides at the AI's
        speed, at most GLIDE_MOST_S seconds, alongside those already gliding (a group's
        stands move together); none once Space has skipped the rest of the phase's."""
        st = self.battle.state
        if self.speed <= 0 or self._skipped == (st.turn, st.phase):
            return
        for ev in events:
            if ev["event"] == "move" and len(ev["path"]) > 1:
                length = sum(
                    math.dist(a, b) for a, b in zip(ev["path"], ev["path"][1:], strict=False)
                )
                secs = length / self.speed
                secs = min(secs, GLIDE_MOST_S) if self.glide_together else secs
                self.moves.append((ev["stand"], ev["path"], secs, secs))
            elif ev["event"] == "fire":
                self.flashes.append(
                    (tuple(ev["attacker_pos"][:2]), tuple(ev["target_pos"][:2]), 0.6)
                )
            # air strikes fly when the screen shows their mission (landings.MissionStepMode)

    @property
    def animating(self) -> bool:
        """True while the AI's moves are being shown."""
        return bool(self.moves)

    def advance(self, dt: float) -> None:
        """The gliding moves, all at once, ``dt`` seconds on (those done are dropped), and
        the shots' flashes."""
        self.flashes = [(a, b, t - dt) for a, b, t in self.flashes if t - dt > 0]
        if not self.glide_together and self.moves:  # one at a time
            s, p, left, secs = self.moves[0]
            self.moves[0] = (s, p, left - dt, secs)
            self.moves = self.moves[1:] if left <= dt else self.moves
            return
        self.moves = [(s, p, left - dt, secs) for s, p, left, secs in self.moves if left > dt]

    def skip(self, ev, ai_turn: bool) -> bool:
        """Space while the AI moves (``ai_turn``: the AI is to act): its moves being shown
        end where they go, and the rest of its moves this phase are not shown gliding.
        True when it took the key."""
        if ev.type != pygame.KEYDOWN or ev.key != pygame.K_SPACE:
            return False
        if not self.moves and not ai_turn:
            return False
        st = self.battle.state
        self._skipped = (st.turn, st.phase)
        self.moves = []
        return True

    def ai_may_think(self) -> bool:
        """Whether the AI may choose its next action now: when no move is being shown, or
        in the movement phase while its moves glide (its next stand's move, or its next
        group's, then glides alongside: a group's stands move together, and the phase is
        watched in the time the AI thinks, not in the sum of the glides)."""
        together = self.glide_together and self.battle.state.phase == "movement"
        return not self.moves or together

    def draw(self, surface) -> None:
        """A stand of the AI gliding along its path; shots as flashing lines."""
        b = self.battle
        for stand, path, left, secs in self.moves if self.glide_together else self.moves[:1]:
            s = b.stand(stand)
            total = sum(math.dist(p, q) for p, q in zip(path, path[1:], strict=False)) or 1.0
            done = max(0.0, 1.0 - left / (secs or 1.0)) * total
            x, y, heading = path[0][0], path[0][1], s.facing_deg
            for p, q in zip(path, path[1:], strict=False):
                seg = math.dist(p, q)
                if done <= seg:
                    t = done / seg if seg else 1.0
                    x, y = p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])
                    heading = heading_deg(p[0], p[1], q[0], q[1])
                    break
                done -= seg
                x, y = q
            self.tv.polyline(surface, path, GROUP, 2)
            colour = SIDE_COLOURS[b.sides.index(s.side) % 2]

            pose = StandPose(s.id, s.side, x, y, heading)
            self.tv.draw_model(surface, pose, colour, s.unit, hq_level(s), s.unit_name)
        for a, t, _ in self.flashes:
            pygame.draw.line(surface, (250, 80, 30), self.tv.to_px(*a), self.tv.to_px(*t), 3)


class OverlayScreen(Protocol):
    """What :class:`Overlays` reads of the battle screen: its battle, table view, current
    mode, the AI players, the mouse's pixel, the stand names, the unit-card fonts
    (``info.font``) and how it names sides, AI levels and groups."""

    battle: object
    tv: object
    mode: object
    ai: dict
    mouse: tuple[int, int]
    names: dict
    info: object

    def side_name(self, side: str | None) -> str:
        """A side's name."""

    def ai_level(self, side: str) -> str:
        """The level of the AI playing a side."""

    def group_words(self, s) -> str:
        """A stand's group for the status line."""

    def stand_under(self, pos, include_off_table: bool = False):
        """The stand under a pixel."""


class Overlays:
    """What the battle screen draws over the table on demand (its ``overlays``): the
    mini-map (N hides it), the ids under the mouse or Alt, the AI's last decision (X), the
    hover line, the help (F1)."""

    def __init__(self, screen: OverlayScreen):
        self.screen = screen
        self.show_minimap = True  # N hides it
        self.show_explain = False  # X shows it
        self.help = False  # F1 shows it
        self._minimap: MiniMap | None = None
        self._hover_pos = None
        self._hover = ""
        self._hover_surf = None

    @property
    def battle(self):
        """The screen's battle."""
        return self.screen.battle

    @property
    def tv(self):
        """The screen's table view."""
        return self.screen.tv

    def minimap(self) -> MiniMap:
        """The screen's mini-map of the whole table, made on first use."""
        if self._minimap is None or self._minimap.table is not self.battle.table:
            self._minimap = MiniMap(self.battle.table)
        return self._minimap

    def minimap_event(self, ev) -> bool:
        """A mouse event the mini-map takes (a click or drag on it moves the camera there)."""
        mouse = (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION)
        if (
            isinstance(self.screen.mode, CurtainMode)
            or ev.type not in mouse
            or not self.show_minimap
        ):
            return False  # the curtain hides the table, the mini-map with it
        return self.minimap().handle(ev, self.tv)

    def draw_on_demand(self, surface) -> None:
        """Over the table: the ids of the stand under the mouse, or of every stand
        while Alt is held (the painted models carry no ids; the flat tokens of the "symbols"
        style write theirs always), and the mini-map in the top right corner (N hides it)."""
        b, mm = self.battle, self.minimap()
        avoid = mm.rect(self.tv) if self.show_minimap else None
        self.tv.draw_ids(
            surface, self.tv.ids_wanted(b.state.stands.values(), self.screen.mouse, avoid)
        )
        if self.show_minimap:
            mm.draw(surface, self.tv, b.state.stands.values(), b.sides)

    def explain_lines(self) -> list[str]:
        """The text of the explain overlay: for each AI side, when it last decided (turn and
        phase) and its three best options there with their scores (in stands)."""
        lines = []
        screen = self.screen
        for side, player in screen.ai.items():
            when = getattr(player, "last_when", None)
            at = f" (turn {when[0]}, {PHASE_NAMES.get(when[1], when[1])})" if when else ""
            lines.append(
                f"{screen.side_name(side)} (AI, {screen.ai_level(side)}): last decision{at}"
            )
            outlook = getattr(player, "outlook_text", None)
            line = outlook(self.battle, side) if outlook is not None else None
            if line:
                lines.append(f"   {line}")
            thought = getattr(player, "thought_text", None)
            line = thought() if thought is not None else None
            if line:  # the elite: what its look-ahead played through
                lines.extend(f"   {part}" for part in line.split("\n"))
            options = getattr(player, "last", [])[:3]
            for o in options:
                lines.append(f"   {o.score:+.2f}  {o.label}")
            if options and len(options) < 3:
                lines.append(
                    f"   (only {len(options)} option{'s' if len(options) > 1 else ''} open there)"
                )
        return lines or ["No AI in this battle."]

    def draw_explain(self, surface) -> pygame.Rect:
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
        s = self.screen.stand_under(pos, include_off_table=True)
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
            group = self.screen.group_words(s)
            if s.posture:
                group += f", {s.posture} posture"
            return (
                f"{self.screen.side_name(s.side)}: {s.unit_name} {s.id}, {group}"
                f"{', GHQ' if s.ghq else ''}{where}" + (f"; {', '.join(marks)}" if marks else "")
            )
        x, y = self.tv.to_table(pos)
        table = self.battle.table
        if pygame.key.get_pressed()[pygame.K_SPACE] and table.on_table(x, y):
            side = self.battle.to_act  # held Space: who could see a stand of ours here
            seen = self.battle.seen_by(x, y, 0.0, side) if side else []
            who = ", ".join(self.screen.names.get(e, e) for e, _ in seen) or "no enemy stand"
            return f'({x:.1f}", {y:.1f}") seen by: {who}'
        if not table.on_table(x, y):
            return ""
        here = table.terrain_at(x, y)
        what = ", ".join(k.replace("_", " ") for k in here.areas) or "clear"
        if here.road:
            what += f", {here.road.replace('_', ' ')}"
        if here.hill_zone:
            what += f", {here.hill_zone} of a level-{here.ground_level} hill"
        return f'({x:.1f}", {y:.1f}")  {what}'

    def hover_height(self) -> int:
        """The height (pixels) of the hover line along the table's foot: the font's line and
        its margins, whether or not it says something now (the scale bar sits above it)."""
        return self.screen.info.font(22).get_height() + 10

    def draw_hover(self, surface) -> None:
        """The line under the table saying what is under the mouse (:meth:`hover_text`),
        worded again only when the mouse, the log or the Space key changes."""
        mouse = self.screen.mouse
        space = pygame.key.get_pressed()[pygame.K_SPACE]  # held: who could see a stand here
        key = (mouse, len(self.battle.log.events), space)  # a new event may change it
        if self._hover_pos != key:
            self._hover_pos = key
            self._hover = self.hover_text(mouse)
            font = self.screen.info.font(22)
            self._hover_surf = font.render(self._hover, True, INK) if self._hover else None
        if not self._hover_surf:
            return
        text = self._hover_surf
        high = text.get_height() + 10
        bar = pygame.Rect(self.tv.rect.x, self.tv.rect.bottom - high, self.tv.rect.w, high)
        pygame.draw.rect(surface, (245, 243, 234), bar)
        surface.blit(text, (bar.x + 8, bar.y + 6))

    def draw_help(self, surface) -> None:
        """The keys and the mouse, listed in a box over the table (F1)."""
        font = pygame.font.Font(None, 24)
        title = "Keys and mouse (F1 or Esc to close)"
        lines = [font.render(line, True, INK) for line in (title, *HELP_TEXT)]
        box = pygame.Rect(0, 0, 32 + max(t.get_width() for t in lines), 40 + 28 * len(HELP_TEXT))
        box.center = self.tv.rect.center
        pygame.draw.rect(surface, (245, 243, 234), box)
        pygame.draw.rect(surface, INK, box, 2)
        for i, t in enumerate(lines):
            surface.blit(t, (box.x + 16, box.y + 12 + 28 * i))
