"""Swatches of the painted table for the legends: a small square of each kind of
ground painted as the table paints it (crowns for woods, a roof for buildings, a road with
its verges, a stepped hill...), so the key shows what the player sees."""

from __future__ import annotations

import types

import pygame
import shapely

from game.ui.paint import ground as flock
from game.ui.paint.decor import decorate
from game.ui.paint.terrain import (
    LOOKS,
    ROADS,
    _area,
    _lighter,
)

_SWATCHES: dict[tuple, pygame.Surface] = {}


class _View:
    """A ``render.View`` of its own (the painting needs only these)."""

    def __init__(self, scale: float, depth: float):
        self.scale, self.origin, self.depth = scale, (0.0, 0.0), depth

    def to_px(self, x: float, y: float) -> tuple[float, float]:
        return (x * self.scale, (self.depth - y) * self.scale)

    def to_table(self, px: float, py: float) -> tuple[float, float]:
        return (px / self.scale, self.depth - py / self.scale)


def swatch(kind: str, size: int = 12, level: int = 1, ground: str = "grass") -> pygame.Surface:
    """A ``size``-pixel square of ``kind`` painted: an area kind of the terrain chart, a road
    kind (good_road, poor_road, track) or "hill" at ``level``, on a table whose ground is
    ``ground`` ("grass" or "sand": ``Table.ground``); kept per kind, size and ground."""
    look = LOOKS.get(ground, LOOKS["grass"])
    key = (kind, size, level, ground)
    got = _SWATCHES.get(key)
    if got is not None:
        return got
    span = 1.6 if kind in ("light_buildings", "heavy_buildings") else 1.25  # inches shown
    view = _View(size / span, span)
    pic = pygame.Surface((size, size))
    pic.fill(look.ground)
    if kind in ROADS:
        verge, vw, colour, w = ROADS[kind]
        y = size / 2
        if vw:
            pygame.draw.line(pic, verge, (0, y), (size, y), max(2, int(vw * view.scale)))
        pygame.draw.line(pic, colour, (0, y), (size, y), max(2, int(w * view.scale)))
        if kind == "track":
            for dy in (-1, 1):
                pygame.draw.line(pic, (104, 86, 60), (0, y + dy), (size, y + dy), 1)
    elif kind == "hill":
        slope = look.hill_slopes[min(level - 1, len(look.hill_slopes) - 1)]
        pygame.draw.rect(pic, look.hill_edge, pygame.Rect(size // 4, size // 4, size, size))
        pygame.draw.rect(pic, slope, pygame.Rect(size // 4 + 1, size // 4 + 1, size, size))
        pygame.draw.rect(pic, _lighter(slope, 16), pygame.Rect(size // 2, size // 2, size, size))
    else:
        geom = shapely.box(-0.3, -0.3, span + 0.3, span + 0.3)
        feature = types.SimpleNamespace(kind=kind, geometry=geom)
        _area(pic, view, feature, decorate(kind, geom), (0.0, 0.0, span, span), look)
    flock.texture(pic, pic.get_rect(), view)
    _SWATCHES[key] = pic
    return pic
