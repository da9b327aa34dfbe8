"""Drawing the map editor: the terrain layer cached per version of the document and camera (during a drag the dragged features are drawn live on top), the stands, the selection with its handles, the balance view, the status line and the help."""

from __future__ import annotations

import math

import pygame

from game import StandPose, Table
from game.editor import edits
from game.editor.commands import items
from game.editor.document import stand_place
from game.ui.colours import UI
from game.ui.editor.layout import (
    BAR,
    HELP_TEXT,
    PANEL_BG,
    PANEL_W,
    STATUS_H,
    TOOLS_W,
    TOP_H,
    mark_of,
)
from game.ui.editor.modes import (
    HANDLE,
    INVALID,
    SELECTED,
)
from game.ui.editor.views import draw_caption, overlay_surface
from game.ui.render import (
    HILL_COLOURS,
    INK,
    ROAD_STYLE,
    SIDE_COLOURS,
    TERRAIN_COLOURS,
    View,
    draw_table,
    wrap_text,
)
from game.ui.table_view import BACKGROUND


class EditorDrawing:
    """The map editor's drawing (its ``drawing``): the terrain layer, kept until the document,
    the camera or the shown layers change, the stands, the selection, the balance view,
    the status line and the help. It reads the screen it is given (document, selection,
    table view, layers, marks, mode, message and hint, the balance view) and draws no
    state of its own but its kept pictures."""

    def __init__(self, screen):
        self.screen = screen
        self._layer: pygame.Surface | None = None  # the terrain drawn for the camera
        self._layer_key = None
        self._drag_version = -1  # the document version a drag began from
        self._sfont: pygame.font.Font | None = None

    def forget(self) -> None:
        """Drop the kept terrain picture (another document is shown)."""
        self._layer = self._layer_key = None

    def terrain_layer(self) -> pygame.Surface:
        """The terrain drawn for the camera, cached until the document, the camera or the
        shown layers change. While a drag is merging, the dragged features are left out of
        the cached layer and drawn live on top, so a drag redraws one feature, not all."""
        h = self.screen.doc.history
        dragging = set()
        if h.position and h.entries[h.position - 1].merge_key is not None:
            dragging = {i for k, i in self.screen.selection if k == "feature"}
            if self.screen.vertex:
                dragging.add(self.screen.vertex[0])
        version = self._drag_version if dragging else h.version
        if not dragging:
            self._drag_version = h.version
        key = (
            version,
            tuple(sorted(dragging)),
            self.screen.tv.view.scale,
            self.screen.tv.view.origin,
            self.screen.tv.rect.size,
            tuple(self.screen.layers.values()),
            hash(frozenset(self.screen.hidden)),
            UI.get("table_style"),  # the settings' table style
        )
        if self._layer is None or self._layer_key != key:
            layer = pygame.Surface(self.screen.tv.rect.size)
            layer.fill(BACKGROUND)
            shifted = View(
                self.screen.tv.view.scale,
                (
                    self.screen.tv.view.origin[0] - self.screen.tv.rect.x,
                    self.screen.tv.view.origin[1] - self.screen.tv.rect.y,
                ),
                self.screen.tv.view.depth,
            )
            table = self.screen.table() if not dragging else self._drag_table
            hide = dragging | {f.index for f in table.features if not self._shown(f)}
            if self.screen.hidden:
                feats = items(self.screen.doc.raw, "feature")
                hide |= {i for i, f in enumerate(feats) if mark_of(f) in self.screen.hidden}
            if hide:
                table = Table(
                    table.width,
                    table.depth,
                    [f for f in table.features if f.index not in hide],
                    self.screen.doc.data.terrain,
                    table.ground,
                )
            draw_table(layer, table, shifted, scale_bar=False)
            self._layer, self._layer_key = layer, key
        return self._layer

    _drag_version = -1
    _drag_table = None

    def _shown(self, f) -> bool:
        if f.kind == "hill":
            return self.screen.layers["hills"]
        if f.geometry.geom_type in edits.LINE_TYPES:
            return self.screen.layers["roads"]
        return self.screen.layers["terrain"]

    def draw(self, surface: pygame.Surface) -> None:
        """The bars, the table with its terrain, stands, selection and the mode's overlay."""
        w, h = surface.get_size()
        surface.fill(BAR, pygame.Rect(0, 0, w, TOP_H))
        surface.fill(PANEL_BG, pygame.Rect(0, TOP_H, TOOLS_W, h - TOP_H))
        surface.fill(PANEL_BG, pygame.Rect(w - PANEL_W, TOP_H, PANEL_W, h - TOP_H))
        if self._layer_key is None or not self.screen.dragging():
            self._drag_table = self.screen.table()
        clip = surface.get_clip()
        surface.set_clip(self.screen.tv.rect)
        surface.blit(self.terrain_layer(), self.screen.tv.rect.topleft)
        if self.screen.dragging():
            for k, i in self.screen.selection + (
                [("feature", self.screen.vertex[0])] if self.screen.vertex else []
            ):
                if k == "feature":
                    self._draw_feature_live(surface, i)
        if self.screen.views.overlay is not None:
            self._draw_overlay(surface)
        for i in self.screen.bad_features:
            self.outline_feature(surface, i, INVALID, 2)
        if self.screen.locked:
            self._draw_locks(surface)
        if self.screen.layers["stands"]:
            self._draw_stands(surface)
        self._draw_selection(surface)
        self.screen.mode.draw(self.screen, surface)
        self.screen.tv.draw_scale_bar(surface)
        if self.screen.help:
            self._draw_help(surface)
        surface.set_clip(clip)
        self._draw_status(surface)
        self.screen.app.manager.draw_ui(surface)

    LOCK_INK = (60, 60, 70)

    def locked_features(self) -> list[int]:
        """The indices of the features locked on their own (drawn with a lock mark)."""
        if not self.screen.locked:
            return []
        feats = items(self.screen.doc.raw, "feature")
        return [
            i for i, f in enumerate(feats) if mark_of(f) in self.screen.locked - self.screen.hidden
        ]

    def _draw_locks(self, surface) -> None:
        """Each locked feature outlined dark, with a padlock drawn inside it (a locked
        feature had no mark, so a click on it that did nothing looked like a fault)."""
        feats = items(self.screen.doc.raw, "feature")
        for i in self.locked_features():
            if not self.pickable_layer(feats[i]):
                continue
            self.outline_feature(surface, i, self.LOCK_INK, 2)
            g = edits.feature_geometry(feats[i])
            if g is None or g.is_empty:
                continue
            p = g.representative_point() if g.geom_type in edits.AREA_TYPES else g.centroid
            draw_padlock(surface, self.bounded_px(p.x, p.y), self.LOCK_INK)

    def pickable_layer(self, feature: dict) -> bool:
        """Whether a feature's layer is shown."""
        layer = self.screen._layer_of(feature)
        return bool(layer and self.screen.layers[layer])

    def _draw_feature_live(self, surface, i: int) -> None:
        f = items(self.screen.doc.raw, "feature")[i]
        g = edits.feature_geometry(f)
        if g is None:
            return
        kind = f["properties"].get("terrain")
        if g.geom_type in edits.LINE_TYPES:
            colour, wid = ROAD_STYLE.get(kind, ((120, 100, 80), 0.3))
            for line in getattr(g, "geoms", [g]):
                pts = [self.screen.tv.to_px(x, y) for x, y in line.coords]
                if len(pts) >= 2:
                    pygame.draw.lines(
                        surface, colour, False, pts, max(2, int(wid * self.screen.tv.view.scale))
                    )
            return
        colour = HILL_COLOURS[0] if kind == "hill" else TERRAIN_COLOURS.get(kind, (150, 150, 150))
        for poly in getattr(g, "geoms", [g]):
            pts = [self.screen.tv.to_px(x, y) for x, y in poly.exterior.coords]
            if len(pts) >= 3:
                pygame.draw.polygon(surface, colour, pts)

    def outline_feature(self, surface, i: int, colour, width: int) -> None:
        """Outline feature ``i`` of the document in ``colour``, ``width`` pixels wide (an
        unreadable one is left out)."""
        feats = items(self.screen.doc.raw, "feature")
        if not 0 <= i < len(feats):
            return
        f = feats[i]
        closed = f.get("geometry", {}).get("type") in edits.AREA_TYPES
        try:
            coords = f["geometry"]["coordinates"]
            lines = {
                "Polygon": coords,
                "MultiPolygon": [r for p in coords for r in p],
                "LineString": [coords],
                "MultiLineString": coords,
            }[f["geometry"]["type"]]
            for line in lines:
                pts = [self.bounded_px(p[0], p[1]) for p in line]
                if len(pts) >= 2:
                    pygame.draw.lines(surface, colour, closed, pts, width)
        except (KeyError, TypeError, IndexError, ValueError):
            return

    FAR_PX = 100_000  # pixels: further than this off the window a point is drawn this far

    def bounded_px(self, x, y) -> tuple[float, float]:
        """The pixel of a table point (inches), brought within :attr:`FAR_PX` of the window,
        so that a point of a file's 1e300 does not hang a line's drawing.

        Raises ValueError (or TypeError) when x or y is not a finite number."""
        x, y = float(x), float(y)
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError("not a finite point")
        px, py = self.screen.tv.to_px(x, y)
        far = self.FAR_PX
        return min(max(px, -far), far), min(max(py, -far), far)

    def _draw_stands(self, surface) -> None:
        """Every stand of the file as a token with its id (HQ and GHQ tagged above it);
        stands entering on turn 1 faded at their entry point; unreadable ones left out."""
        sides = [s.get("id") for s in self.screen.doc.raw.get("sides", [])]
        try:
            units = self.screen.doc.data.units_for(self.screen.doc.raw.get("ruleset"))
        except (KeyError, TypeError):
            units = {}
        aboard: dict[str, int] = {}  # carrier id -> stands starting aboard (full games)
        for s in self.screen.doc.raw.get("stands", []):
            if isinstance(s, dict) and isinstance(s.get("carried_by"), str):
                aboard[s["carried_by"]] = aboard.get(s["carried_by"], 0) + 1
        for s in self.screen.doc.raw.get("stands", []):
            if isinstance(s, dict) and s.get("carried_by") is not None:
                continue  # drawn as its carrier's "+1"
            try:
                colour = (
                    SIDE_COLOURS[sides.index(s["side"]) % 2]
                    if s.get("side") in sides
                    else (150, 150, 150)
                )
                if s.get("on_table", True) is False:
                    colour = tuple(int(c * 0.5 + 115) for c in colour)
                place = stand_place(s)
                if place is None:
                    continue  # off any table (a file's 1e308 or NaN): listed as a problem
                pose = StandPose(str(s["id"]), str(s["side"]), *place)
            except (KeyError, TypeError, ValueError):
                continue
            unit = units.get(s.get("unit")) if isinstance(s.get("unit"), str) else None
            hq = 2 if s.get("ghq") else 1 if s.get("hq") else 0
            self.screen.tv.draw_model(surface, pose, colour, unit, hq, str(s.get("unit", "")))
            px, py = self.screen.tv.to_px(pose.x, pose.y)
            if self.screen.tv.style() == "symbols" and self.screen.tv.token_ids_fit([pose.id]):
                self.screen.tv.write_token_id(surface, pose)
            else:  # the editor names every stand: its id on a tag under the model
                self.screen.tv.draw_ids(surface, [pose])
            if aboard.get(pose.id):
                tag = self.screen.tv.label(f"+{aboard[pose.id]}", INK)
                surface.blit(tag, tag.get_rect(midleft=(px + self.screen.tv.view.scale * 0.55, py)))
            if s.get("ghq") or s.get("hq"):
                tag = self.screen.tv.label("GHQ" if s.get("ghq") else "HQ", INK)
                surface.blit(
                    tag, tag.get_rect(midbottom=(px, py - self.screen.tv.view.scale * 0.55))
                )

    def _draw_selection(self, surface) -> None:
        for kind, i in self.screen.selection:
            if kind == "feature":
                self.outline_feature(surface, i, SELECTED, 3)
            else:
                place = stand_place(items(self.screen.doc.raw, "stand")[i])
                if place is not None:
                    self.screen.tv.footprint_outline(surface, *place, SELECTED, 3)
        if len(self.screen.selection) == 1 and self.screen.selection[0][0] == "feature":
            i = self.screen.selection[0][1]
            for addr, (x, y) in edits.vertices(items(self.screen.doc.raw, "feature")[i]):
                try:
                    p = self.bounded_px(x, y)
                except (TypeError, ValueError):
                    continue
                big = self.screen.vertex == (i, addr)
                pygame.draw.rect(
                    surface,
                    HANDLE,
                    pygame.Rect(p[0] - 4 - big * 2, p[1] - 4 - big * 2, 8 + big * 4, 8 + big * 4),
                )
                pygame.draw.rect(
                    surface,
                    INK,
                    pygame.Rect(p[0] - 4 - big * 2, p[1] - 4 - big * 2, 8 + big * 4, 8 + big * 4),
                    1,
                )

    def _draw_overlay(self, surface) -> None:
        """The balance view: a translucent grid over the table, cached per camera."""
        name, result, cache = self.screen.views.overlay
        key = (self.screen.tv.view.scale, self.screen.tv.view.origin, self.screen.tv.rect.size)
        if cache is None or cache[0] != key:
            surf = overlay_surface(name, result, self.screen.tv, self.screen.table_size())
            cache = (key, surf)
            self.screen.views.overlay = (name, result, cache)
        surface.blit(cache[1], self.screen.tv.rect.topleft)
        draw_caption(
            surface,
            self.screen.tv.rect,
            result,
            self.screen.views.overlay_stale,
            self.status_font(),
        )

    def status_rect(self) -> pygame.Rect:
        """Where the status line is drawn (pixels): under the table, or across the whole
        window's foot when the table is narrower than 600 px (a small window), so that its two
        lines stay readable."""
        w, h = self.screen.app.size
        if w - TOOLS_W - PANEL_W < 600:
            return pygame.Rect(0, h - STATUS_H, w, STATUS_H)
        return pygame.Rect(TOOLS_W, h - STATUS_H, w - TOOLS_W - PANEL_W, STATUS_H)

    def _draw_status(self, surface) -> None:
        bar = self.status_rect()
        surface.fill((245, 243, 235), bar)
        font = self.status_font()
        text, error = self.screen.message
        shown_for = pygame.time.get_ticks() - getattr(self.screen, "_said_at", 0)
        if text and shown_for > (12000 if error else 6000):
            text, error = self.screen.message = ("", False)
        where = self.screen.mode.name
        if self.screen.mouse_on_table():
            x, y = self.screen.tv.to_table(self.screen.mouse)
            where = f'({x:.1f}", {y:.1f}")  ' + where
        colour = (176, 40, 20) if error else INK
        lines = wrap_text(font, f"{where}: {text or self.screen.hint}", bar.w - 12)[:2]
        for k, line in enumerate(lines):
            surface.blit(font.render(line, True, colour), (bar.x + 6, bar.y + 5 + 19 * k))

    def status_font(self) -> pygame.font.Font:
        """The status line's font, made once."""
        if self._sfont is None:
            self._sfont = pygame.font.Font(None, 21)
        return self._sfont

    def _draw_help(self, surface) -> None:
        font = pygame.font.Font(None, 22)
        lines = [font.render(t, True, INK) for t in HELP_TEXT]
        wd = max(i.get_width() for i in lines) + 30
        box = pygame.Rect(0, 0, wd, 24 * len(lines) + 24)
        box.center = self.screen.tv.rect.center
        pygame.draw.rect(surface, (250, 248, 240), box)
        pygame.draw.rect(surface, INK, box, 2)
        for k, img in enumerate(lines):
            surface.blit(img, (box.x + 15, box.y + 12 + 24 * k))


def draw_padlock(surface, centre, ink, size: int = 18) -> None:
    """A padlock ``size`` pixels wide centred on ``centre`` (pixels): a body under a
    shackle, on a light ground so that it reads on any terrain colour."""
    cx, cy = int(centre[0]), int(centre[1])
    body = pygame.Rect(0, 0, size, size * 3 // 4)
    body.midtop = (cx, cy - size // 8)
    shackle = pygame.Rect(0, 0, size * 5 // 8, size * 3 // 4)
    shackle.midbottom = (cx, body.top + size // 6)
    pygame.draw.rect(surface, (250, 250, 240), body.inflate(4, 4), border_radius=3)
    pygame.draw.arc(surface, (250, 250, 240), shackle.inflate(4, 4), 0, math.pi, 5)
    pygame.draw.arc(surface, ink, shackle, 0, math.pi, 2)
    pygame.draw.rect(surface, ink, body, border_radius=2)
    pygame.draw.circle(surface, (250, 250, 240), body.center, max(1, size // 8))
