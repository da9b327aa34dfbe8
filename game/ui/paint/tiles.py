"""The painted table kept per zoom level: the table at one scale is cut into tiles of
TILE pixels, fixed to the table (not to the screen), each painted once
(:func:`game.ui.paint.terrain.paint`) and kept; drawing a part of the table blits the tiles
that cover it. A pan by whole pixels, a strip uncovered by it, or the same zoom again needs no
painting at all, and the strips join exactly since every pixel comes from the same tile."""

from __future__ import annotations

import math
import weakref
from collections import OrderedDict

import pygame

from game.ui.paint.terrain import paint

TILE = 256
MOST_TILES = 240
"""Tiles kept in all (about 63 MB at 4 bytes a pixel); the least recently used go first."""

_TILES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_USED: OrderedDict = OrderedDict()  # (id of table, key) -> None, oldest first


def _tiles_of(table) -> dict:
    got = _TILES.get(table)
    if got is None:
        got = _TILES[table] = {}
    return got


def _tile(table, view, key: tuple) -> pygame.Surface:
    """The tile ``key`` = (scale, fraction x, fraction y, column, row) of ``table``,
    painted when not kept."""
    tiles = _tiles_of(table)
    got = tiles.get(key)
    used = (id(table), key)
    if got is None:
        scale, fx, fy, i, j = key
        got = pygame.Surface((TILE, TILE))
        tview = type(view)(scale, (fx - i * TILE, fy - j * TILE), view.depth)
        x0, y0 = tview.to_px(0, table.depth)
        x1, y1 = tview.to_px(table.width, 0)
        paint(got, table, tview, pygame.Rect(x0, y0, x1 - x0, y1 - y0))
        tiles[key] = got
        while len(_USED) >= MOST_TILES:
            (tid, old), _ = _USED.popitem(last=False)
            for t, kept in list(_TILES.items()):
                if id(t) == tid:
                    kept.pop(old, None)
    _USED[used] = None
    _USED.move_to_end(used)
    return got


def draw_tiled(surface: pygame.Surface, table, view, table_rect: pygame.Rect) -> None:
    """Draw the painted ``table`` through ``view`` (a ``render.View``) on ``surface``
    within its clip and ``table_rect`` (pixels, the table on the surface), from the tiles
    kept for this scale and this fraction of a pixel of the camera's origin."""
    old_clip = surface.get_clip()
    clip = old_clip.clip(table_rect)
    if clip.w <= 0 or clip.h <= 0:
        return
    ox, oy = view.origin
    rx, ry = round(ox), round(oy)
    # the fraction of a pixel, rounded: a pan by whole pixels gives the same tiles (a float
    # sum may differ in its last bits)
    fx, fy = round(ox - rx, 4), round(oy - ry, 4)
    i0, i1 = math.floor((clip.left - rx) / TILE), math.floor((clip.right - 1 - rx) / TILE)
    j0, j1 = math.floor((clip.top - ry) / TILE), math.floor((clip.bottom - 1 - ry) / TILE)
    surface.set_clip(clip)
    try:
        for i in range(i0, i1 + 1):
            for j in range(j0, j1 + 1):
                tile = _tile(table, view, (view.scale, fx, fy, i, j))
                surface.blit(tile, (rx + i * TILE, ry + j * TILE))
    finally:
        surface.set_clip(old_clip)


def forget() -> None:
    """Drop every kept tile (tests; the window's memory when leaving a battle is not
    needed: tiles go with their table)."""
    _TILES.clear()
    _USED.clear()
