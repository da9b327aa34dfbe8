"""The battle screen's overlays on the table: a group's and a line of sight's blockers
outlined, the AI's moves gliding and its shots flashing, the AI's last decision (X), the
hover line under the mouse, and the help (F1)."""

from __future__ import annotations

import math

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


class DrawingMixin:
    """The battle screen's drawing helpers and overlays (the frame itself is ``draw``)."""

    show_minimap = True  # N hides it
    glide_together = True
    """The AI's moves glide alongside one another, each at most GLIDE_MOST_S, the AI
    choosing the next while they do; False: one at a time at the set speed, the next chosen
    once it has stopped (as before: tools/bench/bench_ai_watch.py's baseline)."""

    def group_label(self, side: str, group: str) -> str:
        """A battle group's name on the screen, with its side's: "Germany group M1" (both
        sides' first WWII movement group is M1). Display only: the battle log keeps
        the engine's group ids."""
        return f"{self.short_name(side)} group {group}"

    def group_words(self, s) -> str:
        """A stand's group for the status line: its movement group, or, out of every
        movement group (WWII's firing posture), the battle group the scenario puts it in
        ("group 6"); "no group" only when it has neither."""
        if s.group:
            return f"group {s.group}"
        spec = next((x for x in self.battle.scenario.spec.stands if x.id == s.id), None)
        return f"group {spec.group}" if spec is not None and spec.group else "no group"

    def look_at_the_action(self) -> None:
        """The view a battle opens with (and gets after the window is resized): the table
        zoomed so a stand is at least :data:`STAND_PX` pixels, centred on the stands of the
        side the player commands (the side the AI does not play; in a two-player battle the
        side to act), those on the table and those waiting at their entry points. F fits
        the whole table, the wheel zooms out (at 1280x800 the fitted 60"x36" table
        showed 14 px stands). Over the network: this machine's side."""
        b = self.battle
        net = getattr(self, "net", None)
        humans = [net.side] if net is not None else [s for s in b.sides if s not in self.ai]
        side = b.to_act if b.to_act in humans or len(humans) != 1 else humans[0]
        live = [s for s in b.state.stands.values() if not s.eliminated and s.carried_by is None]
        mine = [s for s in live if s.side == side] or live
        if not mine:
            self.tv.fit()
            return
        xs, ys = [s.x for s in mine], [s.y for s in mine]
        waiting = [s for s in mine if not s.on_table]  # drawn at their entry points
        keep = None
        if waiting:
            wx, wy = [s.x for s in waiting], [s.y for s in waiting]
            keep = (min(wx), min(wy), max(wx), max(wy))
        self.tv.look_at((min(xs), min(ys), max(xs), max(ys)), STAND_PX, keep)

    def follow_the_side(self) -> None:
        """Hotseat (trial 22): when the side to act changes to a player none of whose
        stands (on the table or waiting at their entry points) is in view, turn the view to
        it as the battle opened (:meth:`look_at_the_action`); a player who can see any of
        his stands keeps the view he has. Against the AI, or over the network, the
        player's side never changes."""
        b = self.battle
        side = b.to_act
        if side is None or side in self.ai or side == getattr(self, "_followed", None):
            return
        if getattr(self, "net", None) is not None and side != self.net.side:
            return
        self._followed = side
        rect = self.tv.rect
        if not any(
            s.side == side
            and not s.eliminated
            and s.carried_by is None
            and rect.collidepoint(self.tv.to_px(s.x, s.y))
            for s in b.state.stands.values()
        ):
            self.look_at_the_action()

    def outline_group(self, surface, stand_id: str) -> None:
        """Outline every stand of a stand's battle group (not the wrecks of those it lost)."""
        g = self.battle.stand(stand_id)
        for s in self.battle.state.stands.values():
            alive = not s.eliminated or s.id == stand_id
            if (
                s.side == g.side
                and s.group == g.group
                and alive
                and (s.on_table or s.id == stand_id)
            ):
                colour = SELECT if s.id == stand_id else GROUP
                self.tv.footprint_outline(surface, s.x, s.y, s.facing_deg, colour, 3)

    def outline_blocker(self, surface, why) -> None:
        """Highlight what blocks a line of sight: a terrain area or a hill outlined, a stand
        crossed (an outline in that colour says "theirs" in the fire phases' legend, and the
        stand in the way may be one of yours)."""
        kind = why[0]
        if kind in ("terrain", "hill"):
            feat = next((f for f in self.battle.table.features if f.index == why[2]), None)
            if feat is not None:
                for poly in getattr(feat.geometry, "geoms", [feat.geometry]):
                    pts = [self.tv.to_px(x, y) for x, y in poly.exterior.coords]
                    pygame.draw.polygon(surface, PAL.blocked, pts, 3)
        elif kind == "stand":
            s = self.battle.stand(why[1])
            pts = [self.tv.to_px(x, y) for x, y in corners(s.x, s.y, s.facing_deg)]
            pygame.draw.line(surface, PAL.blocked, pts[0], pts[2], 3)
            pygame.draw.line(surface, PAL.blocked, pts[1], pts[3], 3)

    def _animate(self, events) -> None:
        """Queue the moves and shots of new events to be shown: each move glides at the AI's
        speed, at most GLIDE_MOST_S seconds, alongside those already gliding (a group's
        stands move together); none once Space has skipped the rest of the phase's."""
        st = self.battle.state
        if self.ai_speed <= 0 or getattr(self, "_skipped", None) == (st.turn, st.phase):
            return
        for ev in events:
            if ev["event"] == "move" and len(ev["path"]) > 1:
                length = sum(
                    math.dist(a, b) for a, b in zip(ev["path"], ev["path"][1:], strict=False)
                )
                secs = length / self.ai_speed
                secs = min(secs, GLIDE_MOST_S) if self.glide_together else secs
                self.anim.append((ev["stand"], ev["path"], secs, secs))
            elif ev["event"] == "fire":
                self.flashes.append(
                    (tuple(ev["attacker_pos"][:2]), tuple(ev["target_pos"][:2]), 0.6)
                )
            # air strikes fly when the screen shows their mission (landings.MissionStepMode)

    @property
    def animating(self) -> bool:
        """True while the AI's moves are being shown."""
        return bool(self.anim)

    def advance_anims(self, dt: float) -> None:
        """The gliding moves, all at once, ``dt`` seconds on; those done are dropped."""
        if not self.glide_together and self.anim:  # one at a time
            s, p, left, secs = self.anim[0]
            self.anim[0] = (s, p, left - dt, secs)
            self.anim = self.anim[1:] if left <= dt else self.anim
            return
        self.anim = [(s, p, left - dt, secs) for s, p, left, secs in self.anim if left > dt]

    def skip_anims(self, ev) -> bool:
        """Space while the AI moves: its moves being shown end where they go, and the rest
        of its moves this phase are not shown gliding. True when it took the key."""
        if ev.type != pygame.KEYDOWN or ev.key != pygame.K_SPACE:
            return False
        if not self.anim and type(self.mode).__name__ != "AIMode":
            return False
        st = self.battle.state
        self._skipped = (st.turn, st.phase)
        self.anim = []
        return True

    def ai_may_think(self) -> bool:
        """Whether the AI may choose its next action now: when no move is being shown, or
        in the movement phase while its moves glide (its next stand's move, or its next
        group's, then glides alongside: a group's stands move together, and the phase is
        watched in the time the AI thinks, not in the sum of the glides)."""
        together = self.glide_together and self.battle.state.phase == "movement"
        return not self.anim or together

    def _draw_animation(self, surface) -> None:
        """A stand of the AI gliding along its path; shots as flashing lines."""
        b = self.battle
        for stand, path, left, secs in self.anim if self.glide_together else self.anim[:1]:
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

    def minimap(self) -> MiniMap:
        """The screen's mini-map of the whole table, made on first use."""
        mm = self.__dict__.get("_minimap")
        if mm is None or mm.table is not self.battle.table:
            mm = self.__dict__["_minimap"] = MiniMap(self.battle.table)
        return mm

    def minimap_event(self, ev) -> bool:
        """A mouse event the mini-map takes (a click or drag on it moves the camera there)."""
        mouse = (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION)
        if isinstance(self.mode, CurtainMode) or ev.type not in mouse or not self.show_minimap:
            return False  # the curtain hides the table, the mini-map with it
        return self.minimap().handle(ev, self.tv)

    def draw_on_demand(self, surface) -> None:
        """Over the table: the ids of the stand under the mouse, or of every stand
        while Alt is held (the painted models carry no ids; the flat tokens of the "symbols"
        style write theirs always), and the mini-map in the top right corner (N hides it)."""
        b, mm = self.battle, self.minimap()
        avoid = mm.rect(self.tv) if self.show_minimap else None
        self.tv.draw_ids(surface, self.tv.ids_wanted(b.state.stands.values(), self._mouse, avoid))
        if self.show_minimap:
            mm.draw(surface, self.tv, b.state.stands.values(), b.sides)

    def explain_lines(self) -> list[str]:
        """The text of the explain overlay: for each AI side, when it last decided (turn and
        phase) and its three best options there with their scores (in stands)."""
        lines = []
        for side, player in self.ai.items():
            when = getattr(player, "last_when", None)
            at = f" (turn {when[0]}, {PHASE_NAMES.get(when[1], when[1])})" if when else ""
            lines.append(f"{self.side_name(side)} (AI, {self.ai_level(side)}): last decision{at}")
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
            group = self.group_words(s)
            if s.posture:
                group += f", {s.posture} posture"
            return (
                f"{self.side_name(s.side)}: {s.unit_name} {s.id}, {group}"
                f"{', GHQ' if s.ghq else ''}{where}" + (f"; {', '.join(marks)}" if marks else "")
            )
        x, y = self.tv.to_table(pos)
        table = self.battle.table
        if pygame.key.get_pressed()[pygame.K_SPACE] and table.on_table(x, y):
            side = self.battle.to_act  # held Space: who could see a stand of ours here
            seen = self.battle.seen_by(x, y, 0.0, side) if side else []
            who = ", ".join(self.names.get(e, e) for e, _ in seen) or "no enemy stand"
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

    def _draw_hover(self, surface) -> None:
        space = pygame.key.get_pressed()[pygame.K_SPACE]  # held: who could see a stand here
        key = (self._mouse, len(self.battle.log.events), space)  # a new event may change it
        if self._hover_pos != key:
            self._hover_pos = key
            self._hover = self.hover_text(self._mouse)
            self._hover_surf = (
                self._font(22).render(self._hover, True, INK) if self._hover else None
            )
        if not self._hover_surf:
            return
        text = self._hover_surf
        high = text.get_height() + 10
        bar = pygame.Rect(self.tv.rect.x, self.tv.rect.bottom - high, self.tv.rect.w, high)
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
