"""Swatches of the painted table for the legends: a small square of each kind of
ground painted as the table paints it (crowns for woods, a roof for buildings, a road with
its verges, a stepped hill...), so the key shows what the player sees."""

from __future__ import annotations

import types

import pygame
import shapely

from game.ui.paint import ground
from game.ui.paint.decor import decorate
from game.ui.paint.terrain import (
    GROUND,
    HILL_EDGE,
    HILL_SLOPES,
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


def swatch(kind: str, size: int = 12, level: int = 1) -> pygame.Surface:
    """A ``size``-pixel square of ``kind`` painted: an area kind of the terrain chart, a road
    kind (good_road, poor_road, track) or "hill" at ``level``; kept per kind and size."""
    key = (kind, size, level)
    got = _SWATCHES.get(key)
    if got is not None:
        return got
    span = 1.6 if kind in ("light_buildings", "heavy_buildings") else 1.25  # inches shown
    view = _View(size / span, span)
    pic = pygame.Surface((size, size))
    pic.fill(GROUND)
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
        slope = HILL_SLOPES[min(level - 1, len(HILL_SLOPES) - 1)]
        pygame.draw.rect(pic, HILL_EDGE, pygame.Rect(size // 4, size // 4, size, size))
        pygame.draw.rect(pic, slope, pygame.Rect(size // 4 + 1, size // 4 + 1, size, size))
        pygame.draw.rect(pic, _lighter(slope, 16), pygame.Rect(size // 2, size // 2, size, size))
    else:
        geom = shapely.box(-0.3, -0.3, span + 0.3, span + 0.3)
        feature = types.SimpleNamespace(kind=kind, geometry=geom)
        _area(pic, view, feature, decorate(kind, geom), (0.0, 0.0, span, span))
    ground.texture(pic, pic.get_rect(), view)
    _SWATCHES[key] = pic
    return pic
