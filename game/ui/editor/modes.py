"""The map editor's tools, each a small input mode (:class:`game.ui.modes.Mode`).

A mode turns mouse and keys into commands of :mod:`game.editor` and draws its preview; the
model does the geometry and the engine answers every rule question (distance, sight, range
band). Coordinates the modes hand on are table inches, snapped by the screen.
"""

from __future__ import annotations

import itertools
import math

import pygame

from game import StandPose, heading_deg, range_band
from game.editor import edits
from game.editor.commands import Batch, Replace, items
from game.ui.modes import Mode, is_click

PREVIEW = (255, 255, 255)
INVALID = (220, 40, 40)
HANDLE = (255, 215, 0)
SELECTED = (255, 240, 120)
PICK_PX = 8  # how near (pixels) a click must be to a vertex, an edge or a road to pick it
_drags = itertools.count(1)


def _held_ctrl() -> bool:
    return bool(pygame.key.get_mods() & pygame.KMOD_CTRL)


class ToolMode(Mode):
    """Common to the tools: a name for the status bar and a hint of what to do next."""

    name = "tool"
    hint = ""

    def enter(self, screen) -> None:
        screen.set_hint(self.hint)

    def cancel(self, screen) -> Mode | None:
        return SelectMode()


# ----------------------------------------------------------------------------- select


class SelectMode(ToolMode):
    """Click to select a stand or a feature (Shift adds), drag on empty ground to select by
    box, drag a selected item to move the selection, drag a yellow handle to move a vertex,
    double-click an edge to add a vertex; Delete removes the vertex or the selection; Q/E
    turn it 15 degrees ([ and ] scale it in any tool: the screen's keys). One drag is one
    history entry."""

    name = "Select"
    hint = (
        "Click to select (Shift adds); drag empty ground: box. Drag: move; yellow handles: "
        "corners; double-click an edge: new corner. Del, Q/E turn, [ ] scale, Esc: none."
    )

    def __init__(self):
        self.press: tuple[int, int] | None = None
        self.start: tuple[float, float] | None = None
        self.action: str | None = None  # "move", "vertex", "box"
        self.key = None
        self.originals: dict = {}
        self.box_end: tuple[float, float] | None = None
        self.last_click = (0, (0, 0))

    def on_event(self, screen, ev):
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            self._press(screen, ev)
            return None
        if ev.type == pygame.MOUSEMOTION and self.press is not None:
            self._drag(screen, ev)
            return None
        if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1 and self.press is not None:
            self._release(screen, ev)
            return None
        if ev.type == pygame.KEYDOWN:
            return self._key(screen, ev)
        return None

    def _press(self, screen, ev) -> None:
        """The left button pressed: what a drag from here would do: move the selected
        feature's vertex under it, move the selection (a stand or feature clicked is
        selected first, unless Shift is held), or draw a selection box; the selection's
        items as they were are kept to move from."""
        doc = screen.doc
        self.press = ev.pos
        self.start = screen.tv.to_table(ev.pos)
        self.action = None
        handle = screen.handle_at(ev.pos)
        if handle is not None:
            screen.vertex = handle
            self.action = "vertex"
        else:
            ref = screen.ref_at(ev.pos)
            if ref is not None and ref in screen.selection:
                self.action = "move"
            elif ref is not None and not (pygame.key.get_mods() & pygame.KMOD_SHIFT):
                screen.select([ref])
                self.action = "move"
            else:
                self.action = "box"
        self.key = ("drag", next(_drags))
        self.originals = {r: items(doc.raw, r[0])[r[1]] for r in screen.selection}

    def _drag(self, screen, ev) -> None:
        """The mouse dragged (4 pixels or more from the press): the vertex moved to the
        snapped point, the selection moved by the drag (inches, snapped to the grid when
        snapping; a move the items cannot take is said and left), or the box's far corner
        set. The whole drag is one step of the undo history."""
        doc = screen.doc
        if abs(ev.pos[0] - self.press[0]) + abs(ev.pos[1] - self.press[1]) < 4:
            return None
        x, y = screen.tv.to_table(ev.pos)
        if self.action == "vertex" and screen.vertex is not None:
            i, addr = screen.vertex
            sx, sy, _ = screen.snap(ev.pos, exclude=[i])
            feat = items(doc.raw, "feature")[i]
            new = edits.move_vertex(feat, addr, sx, sy)
            screen.commit(Replace("feature", i, new, "move a vertex"), self.key)
        elif self.action == "move" and self.originals:
            dx, dy = x - self.start[0], y - self.start[1]
            if screen.snapping():
                g = screen.grid_size
                dx, dy = round(dx / g) * g, round(dy / g) * g
            fn = edits.translation(dx, dy)
            try:
                cmds = [
                    Replace(k, i, edits.mapped(k, i, item, fn), "move")
                    for (k, i), item in self.originals.items()
                ]
            except ValueError as err:
                screen.say(f"Could not move: {err} (see Problems).", error=True)
                return None
            screen.commit(Batch(tuple(cmds), "move"), self.key)
        elif self.action == "box":
            self.box_end = (x, y)

    def _release(self, screen, ev) -> None:
        """The left button let go: a box drawn selects what lies in it (added to the
        selection with Shift); a press that did not move is a click; the drag ends."""
        moved = abs(ev.pos[0] - self.press[0]) + abs(ev.pos[1] - self.press[1]) >= 4
        if self.action == "box" and moved and self.box_end:
            refs = edits.refs_in_box(screen._visible_raw(), *self.start, *self.box_end)
            add = pygame.key.get_mods() & pygame.KMOD_SHIFT
            screen.select((screen.selection + refs) if add else refs)
        elif not moved:
            self._click(screen, ev)
        screen.end_drag()
        self.press = self.box_end = None
        self.action = None

    def cancel(self, screen):
        """Esc: select nothing."""
        screen.select([])
        return None

    def _click(self, screen, ev) -> None:
        now = pygame.time.get_ticks()
        double = now - self.last_click[0] < 400 and self.last_click[1] == ev.pos
        self.last_click = (now, ev.pos)
        if double and len(screen.selection) == 1 and screen.selection[0][0] == "feature":
            i = screen.selection[0][1]
            feat = items(screen.doc.raw, "feature")[i]
            x, y = screen.tv.to_table(ev.pos)
            e = edits.nearest_edge(feat, x, y, PICK_PX / screen.tv.view.scale)
            if e is not None:
                addr, (px, py) = e
                new = edits.insert_vertex(feat, addr, px, py)
                screen.commit(Replace("feature", i, new, "add a vertex"))
                screen.vertex = (i, (*addr[:-1], addr[-1] + 1))
                return
        if screen.handle_at(ev.pos) is not None:
            return  # the press already picked the vertex
        ref = screen.ref_at(ev.pos)
        if pygame.key.get_mods() & pygame.KMOD_SHIFT:
            if ref is not None:
                sel = list(screen.selection)
                sel.remove(ref) if ref in sel else sel.append(ref)
                screen.select(sel)
        else:
            screen.select([ref] if ref is not None else [])

    def _key(self, screen, ev):
        sel = screen.selection
        if ev.key in (pygame.K_DELETE, pygame.K_BACKSPACE):
            if screen.vertex is not None:
                i, addr = screen.vertex
                try:
                    new = edits.delete_vertex(items(screen.doc.raw, "feature")[i], addr)
                except ValueError as err:
                    screen.say(str(err), error=True)
                    return None
                screen.commit(Replace("feature", i, new, "delete a vertex"))
                screen.vertex = None
            elif sel:
                screen.actions.delete_selection()
        elif sel and ev.key in (pygame.K_q, pygame.K_e) and not _held_ctrl():
            screen.actions.rotate_selection(15 if ev.key == pygame.K_q else -15)
        return None

    def draw(self, screen, surface):
        if self.action == "box" and self.box_end and self.start:
            a = screen.tv.to_px(*self.start)
            b = screen.tv.to_px(*self.box_end)
            r = pygame.Rect(min(a[0], b[0]), min(a[1], b[1]), abs(a[0] - b[0]), abs(a[1] - b[1]))
            pygame.draw.rect(surface, PREVIEW, r, 1)


# ----------------------------------------------------------------------------- drawing terrain


class PolygonMode(ToolMode):
    """Draw an area (or a hill) by clicking its corners: Backspace removes the last, Enter or
    a click on the first corner closes it. While the shape would be invalid it is drawn red
    and the reason is shown; it is not committed until it is valid."""

    name = "Polygon"

    def __init__(self):
        self.points: list[tuple[float, float]] = []

    @property
    def hint(self):  # noqa: D102 - the status bar's text
        return (
            "Click the corners; Backspace removes the last; Enter or a click on the first "
            "corner closes it. Hold Ctrl to place off the grid. Esc: stop."
        )

    def on_event(self, screen, ev):
        if is_click(ev):
            x, y, _ = screen.snap(ev.pos)
            if len(self.points) >= 3:
                fx, fy = screen.tv.to_px(*self.points[0])
                if math.hypot(ev.pos[0] - fx, ev.pos[1] - fy) <= PICK_PX:
                    return self.confirm(screen)
            if not self.points or (x, y) != self.points[-1]:
                self.points.append((x, y))
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_BACKSPACE and self.points:
            self.points.pop()
        return None

    def problem(self, screen, extra=None) -> str | None:
        """Why the polygon drawn so far (plus the cursor point) would be invalid, or None."""
        pts = self.points + ([extra] if extra else [])
        return edits.polygon_problem(pts)

    def confirm(self, screen):
        why = edits.polygon_problem(self.points)
        if why:
            screen.say(
                f"Not drawn: {why}. Move back with Backspace and click the corners in order "
                "round the outline, or Esc to stop.",
                error=True,
            )
            return None
        kind, level = screen.draw_kind()
        feat = edits.make_feature(kind, "Polygon", [edits.closed_ring(self.points)], level)
        screen.actions.add_feature(feat)
        self.points = []
        return None

    def draw(self, screen, surface):
        if not self.points:
            return
        cursor = screen.snap(screen.mouse)[:2] if screen.mouse_on_table() else None
        pts = self.points + ([cursor] if cursor else [])
        fault = edits.polygon_fault(pts) if len(pts) >= 3 else None
        colour = INVALID if fault else PREVIEW
        px = [screen.tv.to_px(*p) for p in pts]
        if len(px) >= 2:
            pygame.draw.lines(surface, colour, len(px) >= 3, px, 2)
        for p in px:
            pygame.draw.circle(surface, colour, p, 4)
        if fault:
            if fault[1] is not None:  # ring the place where the edges cross
                pygame.draw.circle(surface, INVALID, screen.tv.to_px(*fault[1]), 9, 2)
            screen.set_hint(f"Not valid: {fault[0]}. Move the corner elsewhere, or Backspace.")
        else:
            screen.set_hint(self.hint)


class HillMode(PolygonMode):
    """Draw a hill by its outline, like an area, at the level set under the tools; a higher
    level must lie inside a hill one level lower (the Problems panel says so if not)."""

    name = "Hill"

    def enter(self, screen) -> None:
        screen.toolbar.set_draw_area("hill")
        super().enter(screen)


class RectMode(ToolMode):
    """Drag from one corner to the other to draw a rectangular area (or hill)."""

    name = "Rectangle"
    hint = "Drag from one corner to the other. Hold Ctrl to place off the grid. Esc: stop."

    def __init__(self):
        self.a: tuple[float, float] | None = None

    def on_event(self, screen, ev):
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            self.a = screen.snap(ev.pos)[:2]
        elif ev.type == pygame.MOUSEBUTTONUP and ev.button == 1 and self.a is not None:
            b = screen.snap(ev.pos)[:2]
            if abs(b[0] - self.a[0]) > 0.05 and abs(b[1] - self.a[1]) > 0.05:
                kind, level = screen.draw_kind()
                screen.actions.add_feature(
                    edits.make_feature(kind, "Polygon", edits.rectangle(*self.a, *b), level)
                )
            self.a = None
        return None

    def draw(self, screen, surface):
        if self.a is None:
            screen.set_hint(self.hint)
            return
        b = screen.snap(screen.mouse)[:2]
        ring = edits.rectangle(*self.a, *b)[0]
        pygame.draw.lines(surface, PREVIEW, True, [screen.tv.to_px(*p) for p in ring], 2)
        w, d = abs(b[0] - self.a[0]), abs(b[1] - self.a[1])
        screen.set_hint(f'{w:.1f}" x {d:.1f}" = {w * d:.1f} sq in. Release to draw it.')


class LotMode(ToolMode):
    """Click to place a round lot (woods, a town, ...) of the diameter set in the tool bar."""

    name = "Round lot"
    hint = "Click where the lot's centre goes; its diameter is set under the tools."

    def on_event(self, screen, ev):
        if is_click(ev):
            x, y, _ = screen.snap(ev.pos)
            kind, level = screen.draw_kind()
            feat = edits.make_feature(
                kind, "Polygon", edits.round_lot(x, y, screen.lot_diameter), level
            )
            screen.actions.add_feature(feat)
        return None

    def draw(self, screen, surface):
        if screen.mouse_on_table():
            x, y, _ = screen.snap(screen.mouse)
            ring = edits.round_lot(x, y, screen.lot_diameter)[0]
            pygame.draw.lines(surface, PREVIEW, True, [screen.tv.to_px(*p) for p in ring], 1)


class RoadMode(ToolMode):
    """Click the points of a road (or poor road, track) from end to end; Enter finishes it,
    Backspace removes the last point."""

    name = "Road"
    hint = (
        "Click the road's points from one end to the other (edge to edge); Enter finishes, "
        "Backspace removes the last. Esc: stop."
    )

    def __init__(self):
        self.points: list[tuple[float, float]] = []

    def on_event(self, screen, ev):
        if is_click(ev):
            p = screen.snap(ev.pos)[:2]
            if not self.points or p != self.points[-1]:
                self.points.append(p)
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_BACKSPACE and self.points:
            self.points.pop()
        return None

    def confirm(self, screen):
        if len(self.points) < 2:
            screen.say("A road needs at least 2 points.", error=True)
            return None
        kind, _ = screen.draw_kind(road=True)
        coords = [[edits.tidy(x), edits.tidy(y)] for x, y in self.points]
        screen.actions.add_feature(edits.make_feature(kind, "LineString", coords))
        self.points = []
        return None

    def draw(self, screen, surface):
        if not self.points:
            return
        pts = list(self.points)
        if screen.mouse_on_table():
            pts.append(screen.snap(screen.mouse)[:2])
        px = [screen.tv.to_px(*p) for p in pts]
        if len(px) >= 2:
            pygame.draw.lines(surface, PREVIEW, False, px, 3)
        for p in px:
            pygame.draw.circle(surface, PREVIEW, p, 4)


# ----------------------------------------------------------------------------- stands


class StandMode(ToolMode):
    """Place stands of the unit chosen in the Forces panel: click to place facing the
    enemy's edge, or press and drag to set the facing; Q/E turn the next stand 15 degrees.
    A click beyond the side's entry edge makes a stand that enters there on turn 1."""

    name = "Stand"

    def __init__(self):
        self.press: tuple[float, float] | None = None
        self.turn = 0.0

    @property
    def hint(self):  # noqa: D102 - the status bar's text
        return (
            "Click to place; drag to set the facing; Q/E turn it. Click beyond your entry edge "
            "for a stand that enters there. Pick the unit and side in the Forces panel."
        )

    def facing(self, screen) -> float:
        """The facing (degrees) of the next stand: into the table from its side's edge,
        turned by Q/E."""
        side = screen.side_spec(screen.place_side)
        return (edits.edge_facing(side and side.get("entry_edge")) + self.turn) % 360

    def on_event(self, screen, ev):
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            self.press = screen.snap(ev.pos)[:2]
        elif ev.type == pygame.MOUSEBUTTONUP and ev.button == 1 and self.press is not None:
            x, y = self.press
            tx, ty = screen.tv.to_table(ev.pos)
            facing = self.facing(screen)
            if math.hypot(tx - x, ty - y) > 0.4:
                facing = heading_deg(x, y, tx, ty) % 360
            screen.actions.place_stand(x, y, round(facing, 1))
            self.press = None
        elif ev.type == pygame.KEYDOWN and ev.key in (pygame.K_q, pygame.K_e):
            self.turn += 15 if ev.key == pygame.K_q else -15
        return None

    def draw(self, screen, surface):
        if not screen.mouse_on_table(margin=2):
            return
        x, y = self.press or screen.snap(screen.mouse)[:2]
        facing = self.facing(screen)
        if self.press is not None:
            tx, ty = screen.tv.to_table(screen.mouse)
            if math.hypot(tx - x, ty - y) > 0.4:
                facing = heading_deg(x, y, tx, ty)
        entering = screen.entry_point_for(x, y)
        if entering is not None:
            x, y = entering
        screen.tv.footprint_outline(surface, x, y, facing, PREVIEW)


# ----------------------------------------------------------------------------- measure


class MeasureMode(ToolMode):
    """The ruler and the line-of-sight check: drag from one point to another. The distance
    (inches and metres, 1" = 100 m), the range band and whether a stand at the first point
    would see one at the second come from the engine (``range_band``, ``Table.sight``)."""

    name = "Measure"
    hint = (
        "Drag from one point (or stand) to another: distance, range band and line of sight. "
        "Points snap to stand centres and the grid."
    )

    def __init__(self):
        self.a: tuple[float, float] | None = None
        self.b: tuple[float, float] | None = None
        self.sight = None

    def on_event(self, screen, ev):
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            self.a = screen.measure_point(ev.pos)
            self.b = None
        elif (
            ev.type == pygame.MOUSEMOTION
            and self.a is not None
            and ev.buttons[0]
            or ev.type == pygame.MOUSEBUTTONUP
            and ev.button == 1
            and self.a is not None
        ):
            self.b = screen.measure_point(ev.pos)
            self.measure(screen)
        return None

    def measure(self, screen) -> None:
        """Ask the engine about the line from a to b and show the answer."""
        (x0, y0), (x1, y1) = self.a, self.b
        heading = heading_deg(x0, y0, x1, y1)
        firer = StandPose("from", "X", x0, y0, heading)
        target = StandPose("to", "Y", x1, y1, heading + 180)
        self.sight = screen.engine_sight(firer, target)
        d = math.hypot(x1 - x0, y1 - y0)
        band = range_band(d)
        text = f'{d:.1f}" ({d * 100:.0f} m), range band {band}"'
        if self.sight is not None:
            if self.sight.clear:
                text += f': in sight (sighting {self.sight.max_sight_in:g}")'
            else:
                text += ": no line of sight (" + screen.describe_block(self.sight) + ")"
        screen.readout(text)

    def draw(self, screen, surface):
        if self.a is None or self.b is None:
            return
        colour = (40, 170, 60) if self.sight is not None and self.sight.clear else INVALID
        a, b = screen.tv.to_px(*self.a), screen.tv.to_px(*self.b)
        pygame.draw.line(surface, colour, a, b, 3)
        pygame.draw.circle(surface, colour, a, 5)
        pygame.draw.circle(surface, colour, b, 5)
        if self.sight is not None:
            screen.outline_blockers(surface, self.sight)


__all__ = [
    "SelectMode",
    "PolygonMode",
    "HillMode",
    "RectMode",
    "LotMode",
    "RoadMode",
    "StandMode",
    "MeasureMode",
]
