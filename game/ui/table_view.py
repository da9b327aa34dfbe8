"""The table on screen: a camera (zoom at the cursor, pan, fit), the terrain drawn once per
camera and kept, and the stands with their markers drawn every frame."""

from __future__ import annotations

import math

import pygame

from game import StandPose, corners
from game.ui.badges import LEAST_LETTER_R, base_rect, place
from game.ui.colours import UI
from game.ui.paint.models import WRECK, hq_level, kind_of, paint_stand
from game.ui.render import (
    INK,
    SIDE_COLOURS,
    View,
    draw_scale_card,
    draw_stand,
    draw_table,
    unit_symbol,
)

BACKGROUND = (236, 233, 222)
POSTURE_BADGE = (110, 50, 150)  # the "M" badge of a stand in the movement posture (WWII)
MIN_SCALE, MAX_SCALE = 4.0, 160.0
LEAST_LABEL = 16  # pygame's own font at this size: 11-pixel letters, the least text


def uncovered(rect: pygame.Rect, dx: int, dy: int) -> list[pygame.Rect]:
    """The strips of ``rect`` (pixels) left without content when its picture scrolls by
    (dx, dy) pixels: a column on the side it moved away from, a row likewise."""
    strips = []
    if dx > 0:
        strips.append(pygame.Rect(rect.x, rect.y, dx, rect.h))
    elif dx < 0:
        strips.append(pygame.Rect(rect.right + dx, rect.y, -dx, rect.h))
    if dy > 0:
        strips.append(pygame.Rect(rect.x, rect.y, rect.w, dy))
    elif dy < 0:
        strips.append(pygame.Rect(rect.x, rect.bottom + dy, rect.w, -dy))
    return strips


class TableView:
    """Camera and drawing of one table inside ``rect`` (pixels) of the window.

    ``view`` maps table inches to pixels; terrain is rendered into a cached surface that is
    redrawn only when the camera or the window changes.
    """

    def __init__(self, table, rect: pygame.Rect):
        self.table = table
        self.rect = pygame.Rect(rect)
        self.view = View.fit(table.width, table.depth, self.rect)
        self._cache: pygame.Surface | None = None
        self._cache_key: tuple | None = None
        self._labels: dict[tuple[str, int, tuple], pygame.Surface] = {}
        self._font_size = 0
        self._font: pygame.font.Font | None = None
        self.stand_style: str | None = None  # None: the settings' (UI["stand_style"])

    # ---------------------------------------------------------------- camera

    def fit(self) -> None:
        """Fit the whole table in the view."""
        self.view = View.fit(self.table.width, self.table.depth, self.rect)

    def stand_reach(self, scale: float) -> float:
        """How far (pixels) a stand drawn at ``scale`` pixels an inch reaches from its centre
        in any direction: its 1" footprint turned any way, or a line of marker badges just
        beside it (:mod:`game.ui.badges`), with a pixel to spare."""
        r = int(max(LEAST_LETTER_R, scale * 0.2) * UI["scale"])
        return max(0.5 * math.sqrt(2) * scale, 0.5 * scale + 2 * r + 2) + 1

    def look_at(
        self,
        box: tuple[float, float, float, float],
        least_px: float,
        keep: tuple[float, float, float, float] | None = None,
    ) -> None:
        """The opening view: the table at ``least_px`` pixels an inch at least (so a
        1" stand is that many pixels wide), or fitted whole when that is larger, centred on
        ``box`` (x0, y0, x1, y1 inches: the stands to look at) but kept over the table: no
        more cloth-coloured border beyond an edge than the fitted view leaves, unless the
        table is smaller than the view that way, then it is centred. ``keep`` (x0, y0, x1,
        y1 inches, stand centres, perhaps beyond an edge: the stands waiting to enter) is
        kept whole in the view with its badges (:meth:`stand_reach`), the table zoomed out
        or moved as far as that takes (the right edge's waiting stands were cut by the
        side panel)."""
        fit = View.fit(self.table.width, self.table.depth, self.rect)
        scale = min(MAX_SCALE, float(least_px))
        if fit.scale >= scale:
            self.view = self._fit_with(fit, keep)
            return
        margin = 24  # View.fit's border (pixels)
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        reach = self.stand_reach(scale)
        origin = []
        for centre, lo, span, size, kept in (
            (cx, self.rect.x, self.rect.w, self.table.width, keep and (keep[0], keep[2])),
            (
                self.table.depth - cy,
                self.rect.y,
                self.rect.h,
                self.table.depth,
                keep and (self.table.depth - keep[3], self.table.depth - keep[1]),
            ),
        ):
            extent = size * scale
            if extent + 2 * margin <= span:  # it fits this way: centred
                o = lo + (span - extent) / 2
            else:
                o = lo + span / 2 - centre * scale
                o = min(lo + margin, max(lo + span - margin - extent, o))
            if kept:  # the waiting stands whole: past the far end first, then the near one
                o = min(o, lo + span - reach - kept[1] * scale)
                o = max(o, lo + reach - kept[0] * scale)
            origin.append(round(o))
        self.view = View(scale, (origin[0], origin[1]), self.table.depth)

    def _fit_with(self, fit: View, keep) -> View:
        """``fit`` (the whole table fitted), zoomed out and centred so that the stands at
        ``keep`` (stand centres, inches) are whole in the view too (:meth:`look_at`)."""
        if keep is None:
            return fit
        reach = self.stand_reach(fit.scale)
        px = [fit.to_px(x, y) for x, y in ((keep[0], keep[1]), (keep[2], keep[3]))]
        inner = self.rect.inflate(-2 * math.ceil(reach), -2 * math.ceil(reach))
        if all(inner.collidepoint(p) for p in px):  # the fitted table shows them whole
            return fit
        x0, x1 = min(0.0, keep[0]), max(self.table.width, keep[2])
        y0, y1 = min(0.0, keep[1]), max(self.table.depth, keep[3])
        scale = fit.scale
        for _ in range(3):  # the badges' reach grows with the scale: settle it
            reach = self.stand_reach(scale)
            room_x = (self.rect.w - 2 * reach) / max(x1 - x0, 1e-6)
            room_y = (self.rect.h - 2 * reach) / max(y1 - y0, 1e-6)
            scale = max(MIN_SCALE, min(fit.scale, room_x, room_y))
        # centre the table and the waiting stands together
        ox = self.rect.x + (self.rect.w - (x1 - x0) * scale) / 2 - x0 * scale
        oy = self.rect.y + (self.rect.h - (y1 - y0) * scale) / 2 - (self.table.depth - y1) * scale
        return View(scale, (round(ox), round(oy)), self.table.depth)

    def resize(self, rect: pygame.Rect) -> None:
        """The window changed: keep the table fitted in the new area."""
        self.rect = pygame.Rect(rect)
        self.fit()

    def zoom_at(self, factor: float, at: tuple[int, int]) -> None:
        """Zoom by ``factor`` keeping the table point under pixel ``at`` still."""
        tx, ty = self.view.to_table(*at)
        scale = min(MAX_SCALE, max(MIN_SCALE, self.view.scale * factor))
        self.view = View(
            scale, (at[0] - tx * scale, at[1] - (self.view.depth - ty) * scale), self.view.depth
        )

    def pan(self, dx: float, dy: float) -> None:
        """Move the table by (dx, dy) pixels."""
        ox, oy = self.view.origin
        self.view = View(self.view.scale, (ox + dx, oy + dy), self.view.depth)

    def centre_on(self, x: float, y: float) -> None:
        """Move the camera, same zoom, to centre table point (x, y) inches, kept over the
        table as the opening view is (:meth:`look_at`): no more border beyond an edge than
        the fitted view leaves (the mini-map's click)."""
        self.look_at((x, y, x, y), self.view.scale)

    def to_table(self, pos) -> tuple[float, float]:
        """Table inches under a pixel."""
        return self.view.to_table(*pos)

    def to_px(self, x: float, y: float) -> tuple[float, float]:
        """Pixel of a table point."""
        return self.view.to_px(x, y)

    # ---------------------------------------------------------------- drawing

    def font(self) -> pygame.font.Font:
        """A label font sized to the zoom and the settings' label size, never smaller than
        :data:`LEAST_LABEL` (pygame's own font at 16 draws 11-pixel letters: the
        stands' ids and markers were 7-9 px at 1280x800)."""
        size = max(LEAST_LABEL, int(min(28, self.view.scale * 0.55) * UI["scale"]))
        if size != self._font_size:
            self._font = pygame.font.Font(None, size)
            self._font_size = size
            self._labels.clear()
        return self._font

    def label(self, text: str, colour=(255, 255, 255)) -> pygame.Surface:
        """A rendered label, cached."""
        font = self.font()
        key = (text, self._font_size, colour)
        surf = self._labels.get(key)
        if surf is None:
            surf = font.render(text, True, colour)
            self._labels[key] = surf
        return surf

    def camera_key(self) -> tuple:
        """What the picture of the table depends on besides its contents: zoom, place, size,
        and the table's style (the settings')."""
        return (
            self.view.scale,
            self.view.origin,
            self.rect.size,
            self.rect.topleft,
            UI.get("table_style"),
        )

    def draw_terrain(self, surface: pygame.Surface) -> None:
        """Blit the terrain layer, redrawing it only when the camera or size changed; a pan
        by whole pixels scrolls the layer and draws only the strips it uncovers."""
        key = self.camera_key()
        if self._cache is None or self._cache_key != key:
            shifted = View(
                self.view.scale,
                (self.view.origin[0] - self.rect.x, self.view.origin[1] - self.rect.y),
                self.view.depth,
            )
            shift = self._pan_shift(key)
            if shift is None:
                layer = pygame.Surface(self.rect.size)
                layer.fill(BACKGROUND)
                draw_table(layer, self.table, shifted, scale_bar=False)
            else:
                layer = self._cache
                layer.scroll(*shift)
                for strip in uncovered(layer.get_rect(), *shift):
                    layer.set_clip(strip)
                    layer.fill(BACKGROUND)
                    draw_table(layer, self.table, shifted, scale_bar=False)
                layer.set_clip(None)
            self._cache, self._cache_key = layer, key
        surface.blit(self._cache, self.rect.topleft)

    def draw_scale_bar(self, surface: pygame.Surface, lift: int = 0) -> None:
        """The scale bar on its card in the view's bottom right corner, ``lift`` pixels up
        (over a status line drawn along the view's foot), over everything on the table."""
        size = int(20 * UI["scale"])  # the status lines' size, whatever the zoom
        if self._scale_font is None or self._scale_font[0] != size:
            self._scale_font = (size, pygame.font.Font(None, size))
        draw_scale_card(surface, self.rect, self.view.scale, self._scale_font[1], lift)

    _scale_font: tuple[int, pygame.font.Font] | None = None

    def _pan_shift(self, key) -> tuple[int, int] | None:
        """The whole-pixel (dx, dy) from the kept layer's camera to ``key``'s, when only the
        origin moved and by less than the layer's size; else None (draw it all again)."""
        if self._cache is None or self._cache_key is None:
            return None
        scale, origin, size, topleft, style = key
        old_scale, old_origin, old_size, old_topleft, old_style = self._cache_key
        if (scale, size, topleft, style) != (old_scale, old_size, old_topleft, old_style):
            return None
        dx, dy = origin[0] - old_origin[0], origin[1] - old_origin[1]
        if abs(dx - round(dx)) > 1e-6 or abs(dy - round(dy)) > 1e-6:
            return None
        dx, dy = round(dx), round(dy)
        if abs(dx) >= size[0] or abs(dy) >= size[1]:
            return None
        return dx, dy

    def style(self) -> str:
        """How stands are drawn: "models" (painted on their bases) or "symbols" (the
        flat tokens with NATO symbols): this view's own ``stand_style``, else the settings'."""
        return self.stand_style or UI.get("stand_style", "models")

    def draw_model(self, surface, pose, colour, unit, hq: int = 0, name: str = "") -> None:
        """One stand (or a wreck: ``pose.wreck``) in the view's style (:meth:`style`): its
        painted model of ``unit``'s row (game.ui.paint.models) or its flat token with the
        unit's NATO symbol. Neither writes its id."""
        if self.style() == "symbols":
            colour = WRECK if pose.wreck else colour
            draw_stand(surface, self.view, pose, colour, symbol=unit_symbol(unit))
        else:
            paint_stand(surface, self.view, pose, colour, kind_of(unit, name), hq)

    def draw_stands(
        self,
        surface,
        stands,
        sides: list[str],
        wrecks=(),
        highlight: dict[str, tuple] | None = None,
        ghost: set[str] | None = None,
    ) -> None:
        """Every stand with its facing, its markers (S, D, fired, depleted ATGM, and M for a
        WWII stand in the movement posture, 001 5.0 step 2), and wrecks: as painted models
        whose ids show on demand (:meth:`draw_ids`), or as the flat tokens with their ids
        (the "symbols" style). ``highlight`` outlines stands in a colour; ``ghost``
        draws stands waiting to enter at their entry point, faded."""
        highlight = highlight or {}
        stands = list(stands)
        symbols = self.style() == "symbols"
        self._riders: dict[str, int] = {}  # carrier -> stands aboard (full games)
        for s in stands:
            if s.carried_by is not None and not s.eliminated:
                self._riders[s.carried_by] = self._riders.get(s.carried_by, 0) + 1
        by_id = {s.id: s for s in stands}
        for w in wrecks:
            was = by_id.get(w.stand)
            self.draw_model(surface, w.pose(), WRECK, was.unit if was is not None else None)
        shown = [
            s
            for s in stands
            if not s.eliminated
            and s.carried_by is None
            and (s.on_table or (ghost and s.id in ghost))
        ]
        bases = {
            s.id: base_rect([self.to_px(x, y) for x, y in corners(s.x, s.y, s.facing_deg)])
            for s in shown
        }
        written = symbols and self.token_ids_fit(s.id for s in shown)
        for s in shown:
            colour = SIDE_COLOURS[sides.index(s.side) % 2]
            if not s.on_table:
                colour = tuple(int(c * 0.5 + 230 * 0.5) for c in colour)
            pose = StandPose(s.id, s.side, s.x, s.y, s.facing_deg)
            self.draw_model(surface, pose, colour, s.unit, hq_level(s), s.unit_name)
            if symbols and written:
                self.write_token_id(surface, s)
            if s.id in highlight:
                pts = [self.to_px(x, y) for x, y in corners(s.x, s.y, s.facing_deg)]
                pygame.draw.polygon(surface, highlight[s.id], pts, 3)
        # the badges after every base, each beside its own where it covers no other (badges.py)
        self.badges_drawn: dict[str, list[tuple[float, float, int, str]]] = {}
        taken: list[pygame.Rect] = []
        for s in shown:
            others = [r for i, r in bases.items() if i != s.id]
            self._markers(surface, s, bases[s.id], others, taken)

    def token_ids_fit(self, ids) -> bool:
        """Whether the flat tokens (the "symbols" style) have room to write these ids under
        their unit symbols (:meth:`token_label`). At a smaller zoom (the opening 20 pixels
        an inch, the fitted table) the ids would print over the symbols and the neighbours:
        they show on demand, as the painted models' do (:meth:`ids_wanted`)."""
        return all(self.token_label(i) is not None for i in ids)

    def token_label(self, text: str) -> pygame.Surface | None:
        """A flat token's id as it is written under its symbol: in the label font (at least
        :data:`LEAST_LABEL`, 11-pixel letters), smaller when the label size asks more than
        fits, clear of the symbol, which fills 0.34" of the token's upper half
        (render._draw_symbol), and inside the 1" base; None when even the least does not fit."""
        s = self.view.scale
        symbol_bottom = -0.22 * s + max(6.0, 0.34 * s) / 2
        key = (text, s, self.font().get_height())
        cache = self.__dict__.setdefault("_token_labels", {})
        if key in cache:
            return cache[key]
        found = None
        for size in [*range(self._font_size, LEAST_LABEL, -2), LEAST_LABEL]:
            lab = pygame.font.Font(None, size).render(text, True, (255, 255, 255))
            h, w = lab.get_height(), lab.get_width()
            if 0.22 * s - h / 2 >= symbol_bottom + 1 and 0.22 * s + h / 2 <= 0.5 * s and w <= s - 2:
                found = lab
                break
        if len(cache) > 512:
            cache.clear()
        cache[key] = found
        return found

    def write_token_id(self, surface, s) -> None:
        """A flat token's id, in white under its symbol (when :meth:`token_ids_fit`)."""
        lab = self.token_label(s.id)
        if lab is not None:
            px, py = self.to_px(s.x, s.y)
            surface.blit(lab, lab.get_rect(center=(px, py + self.view.scale * 0.22)))

    def ids_wanted(self, stands, mouse, avoid: pygame.Rect | None = None) -> list:
        """The stands whose ids show over the painted models, or over the flat tokens
        when these have no room to write them (:meth:`token_ids_fit`): every one not
        eliminated nor aboard a carrier while Alt is held, else the one under pixel
        ``mouse`` (none when the mouse is off the view or over ``avoid``, the mini-map)."""
        stands = [s for s in stands if not s.eliminated and s.carried_by is None]
        if self.style() == "symbols" and self.token_ids_fit(s.id for s in stands):
            return []
        if pygame.key.get_mods() & pygame.KMOD_ALT:
            return stands
        if not self.rect.collidepoint(mouse) or (avoid is not None and avoid.collidepoint(mouse)):
            return []
        s = self.stand_at(stands, mouse, include_off_table=True)
        return [s] if s is not None else []

    def draw_ids(self, surface, stands) -> None:
        """The ids of ``stands`` (on demand, when a stand is hovered or Alt is held), each
        white on a dark tag under its stand, at least 11 px high."""
        for s in stands:
            lab = self.label(s.id)
            px, py = self.to_px(s.x, s.y)
            tag = pygame.Rect(0, 0, lab.get_width() + 6, lab.get_height() + 2)
            tag.midtop = (round(px), round(py + self.view.scale * 0.55))
            pygame.draw.rect(surface, (30, 32, 30), tag)
            surface.blit(lab, (tag.x + 3, tag.y + 1))

    def badge_radius(self) -> int:
        """A marker badge's radius (pixels) at this zoom and label size, when it has room
        beside its stand (:mod:`game.ui.badges`); inside a crowded base it shrinks."""
        return int(max(LEAST_LETTER_R, self.view.scale * 0.2) * UI["scale"])

    def badges_of(self, s) -> list[tuple[str, tuple, tuple]]:
        """A stand's marker badges as (text, fill, ink): S, D, A (ATGM used up), M (WWII's
        movement posture, 001 5.0 step 2), "+n" riders aboard (full games), F fired."""
        badges = []
        if s.S:
            badges.append(("S", (235, 200, 40), INK))
        if s.D:
            badges.append(("D", (200, 40, 40), (255, 255, 255)))
        if s.depleted:
            badges.append(("A", (120, 120, 120), (255, 255, 255)))
        if s.posture == "movement" and s.on_table:  # WWII: it will not fire this turn
            badges.append(("M", POSTURE_BADGE, (255, 255, 255)))
        aboard = getattr(self, "_riders", {}).get(s.id, 0)
        if aboard:  # full games: infantry riding in this carrier
            badges.append((f"+{aboard}", (40, 110, 60), (255, 255, 255)))
        if s.fire_attempts:
            badges.append(("F", (220, 30, 30), (255, 255, 255)))
        return badges

    def _markers(self, surface, s, box: pygame.Rect, bases, taken) -> None:
        """Draw stand ``s``'s badges where :func:`game.ui.badges.place` puts them: beside its
        base ``box`` (pixels) over no other stand's base (``bases``) nor badge (``taken``),
        else inside it, shrunk; a badge too small for its letter is a plain pip."""
        badges = self.badges_of(s)
        if not badges:
            return
        centre = self.to_px(s.x, s.y)
        r0 = self.badge_radius()
        centres, r = place(
            len(badges), r0, centre, self.view.scale, s.facing_deg, box, taken, bases
        )
        self.badges_drawn[s.id] = []
        for (text, fill, ink), (x, y) in zip(badges, centres, strict=True):
            pygame.draw.circle(surface, fill, (round(x), round(y)), r)
            pygame.draw.circle(surface, INK, (round(x), round(y)), r, 1)
            lab = self.label(text, ink)
            if lab.get_height() <= 2 * r + 4 and lab.get_width() <= 2 * r + 6:
                surface.blit(lab, lab.get_rect(center=(round(x), round(y))))
            self.badges_drawn[s.id].append((x, y, r, text))

    def footprint_outline(self, surface, x: float, y: float, facing: float, colour, width=2):
        """The 1"x1" footprint a stand would have at (x, y, facing)."""
        pts = [self.to_px(cx, cy) for cx, cy in corners(x, y, facing)]
        pygame.draw.polygon(surface, colour, pts, width)
        a = math.radians(facing)
        pygame.draw.line(
            surface,
            colour,
            self.to_px(x, y),
            self.to_px(x + 0.6 * math.cos(a), y + 0.6 * math.sin(a)),
            width,
        )

    def polyline(self, surface, points, colour, width=2) -> None:
        """A line through table points."""
        if len(points) >= 2:
            pygame.draw.lines(surface, colour, False, [self.to_px(x, y) for x, y in points], width)

    def stand_at(self, stands, pos, include_off_table: bool = False):
        """The stand whose footprint is under a pixel (topmost first), or None. A stand riding
        in a carrier (full games) is not drawn and never picked: the carrier is."""
        x, y = self.to_table(pos)
        for s in reversed(list(stands)):
            if s.eliminated or (not s.on_table and not include_off_table):
                continue
            if getattr(s, "carried_by", None) is not None:
                continue
            a = math.radians(-s.facing_deg)
            dx, dy = x - s.x, y - s.y
            lx = dx * math.cos(a) - dy * math.sin(a)
            ly = dx * math.sin(a) + dy * math.cos(a)
            if abs(lx) <= 0.5 and abs(ly) <= 0.5:
                return s
        return None
