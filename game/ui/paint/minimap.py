"""The mini-map: the whole table small in a corner of the table view, the stands as
dots in their sides' colours and the part of the table in view outlined; a click (or a drag)
on it moves the camera there. Drawing only: it reads the stands and the camera."""

from __future__ import annotations

import pygame

from game.ui.colours import UI
from game.ui.render import INK, SIDE_COLOURS, View, draw_table

MARGIN = 10
"""Pixels between the mini-map and the table view's top right corner."""
MOST_W, MOST_H = 240, 170
"""The mini-map's largest size (pixels); it takes at most a fifth of the view's width."""
FRAME = (245, 243, 234)


class _NoText:
    """A font that writes nothing: the mini-map's terrain has no labels (they would be
    unreadable at its size)."""

    def render(self, *_args) -> pygame.Surface:
        """An empty picture whatever the text."""
        return pygame.Surface((0, 0))


class MiniMap:
    """The whole ``table`` drawn small in the top right corner of a
    :class:`game.ui.table_view.TableView`'s rectangle (pixels), its picture of the terrain
    kept per size."""

    def __init__(self, table):
        self.table = table
        self._picture: pygame.Surface | None = None
        self._picture_key: tuple | None = None
        self.dragging = False

    def rect(self, tv) -> pygame.Rect:
        """Where the mini-map is (pixels): the table's shape, at most :data:`MOST_W` x
        :data:`MOST_H` and a fifth of the view's width, in the view's top right corner."""
        w, d = self.table.width, self.table.depth
        scale = min(MOST_W / w, MOST_H / d, tv.rect.w * 0.2 / w)
        r = pygame.Rect(0, 0, max(8, round(w * scale)), max(8, round(d * scale)))
        r.topright = (tv.rect.right - MARGIN, tv.rect.top + MARGIN)
        return r

    def view(self, tv) -> View:
        """The mini-map's own view: the whole table in :meth:`rect`."""
        r = self.rect(tv)
        return View(r.w / self.table.width, (r.x, r.y), self.table.depth)

    def draw(self, surface: pygame.Surface, tv, stands, sides: list[str]) -> pygame.Rect:
        """Draw the mini-map for camera ``tv``: the terrain (kept), every stand on the table
        as a dot of its side's colour, and the view's rectangle. Returns its rect."""
        r = self.rect(tv)
        key = (r.size, id(self.table), UI["table_style"])  # drawn again in the other look
        if self._picture is None or self._picture_key != key:
            pic = pygame.Surface(r.size)
            small = View(r.w / self.table.width, (0, 0), self.table.depth)
            draw_table(pic, self.table, small, _NoText())
            self._picture, self._picture_key = pic, key
        mv = self.view(tv)
        surface.blit(self._picture, r.topleft)
        for s in stands:
            if s.eliminated or s.carried_by is not None or not s.on_table:
                continue
            colour = SIDE_COLOURS[sides.index(s.side) % 2] if s.side in sides else INK
            p = mv.to_px(s.x, s.y)
            pygame.draw.circle(surface, INK, p, 3)
            pygame.draw.circle(surface, colour, p, 2)
        (x0, y1), (x1, y0) = tv.to_table(tv.rect.topleft), tv.to_table(tv.rect.bottomright)
        a, b = mv.to_px(x0, y1), mv.to_px(x1, y0)
        seen = pygame.Rect(a, (b[0] - a[0], b[1] - a[1])).clip(r)
        if seen.w and seen.h:
            pygame.draw.rect(surface, (255, 255, 255), seen, 2)
        pygame.draw.rect(surface, FRAME, r.inflate(6, 6), 3)
        pygame.draw.rect(surface, INK, r.inflate(8, 8), 1)
        return r

    def handle(self, ev, tv) -> bool:
        """A mouse event on the mini-map: a left press (and a drag from it) centres the
        camera on the table point under the mouse. True when the event was the mini-map's
        (the screen then does nothing else with it)."""
        r = self.rect(tv)
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and r.collidepoint(ev.pos):
            self.dragging = True
        elif ev.type == pygame.MOUSEMOTION and self.dragging:
            pass
        elif ev.type == pygame.MOUSEBUTTONUP and ev.button == 1 and self.dragging:
            self.dragging = False
            return True
        else:
            return ev.type == pygame.MOUSEBUTTONUP and ev.button == 1 and r.collidepoint(ev.pos)
        x, y = self.view(tv).to_table(*ev.pos)
        tv.centre_on(min(max(x, 0.0), self.table.width), min(max(y, 0.0), self.table.depth))
        return True


__all__ = ["MiniMap"]
