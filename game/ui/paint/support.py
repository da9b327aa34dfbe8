"""The painted table's fire support markers: a smoke area as a cloud of puffs drifting
downwind inside a faint ring (the 2" circle the rules use), an impact marker as a scorched
crater with flames and a ring in the firing side's colour. Each is a picture made once per
size (pixels) and marker (seeded by its id, never the battle's dice) and kept."""

from __future__ import annotations

import math
import random
import zlib

import pygame

_SPRITES: dict[tuple, pygame.Surface] = {}
_MOST_KEPT = 256


def _kept(key: tuple, make) -> pygame.Surface:
    got = _SPRITES.get(key)
    if got is None:
        if len(_SPRITES) >= _MOST_KEPT:
            _SPRITES.clear()
        got = _SPRITES[key] = make()
    return got


def _rng(marker_id: str) -> random.Random:
    return random.Random(zlib.crc32(marker_id.encode()))


def smoke_sprite(radius_px: float, marker_id: str) -> pygame.Surface:
    """A smoke area ``radius_px`` pixels in radius (its 2" circle) as puffs of grey-white
    smoke, denser upwind and thinning as they drift (to the upper right), in a picture
    2.5 radii square centred on the marker; kept per size and marker."""
    r = max(4, int(radius_px))

    def make() -> pygame.Surface:
        rng = _rng("smoke:" + marker_id)
        size = int(2.5 * r) + 4
        c = size / 2
        pic = pygame.Surface((size, size), pygame.SRCALPHA)
        pygame.draw.circle(pic, (235, 235, 230, 70), (c, c), r, max(1, r // 16))
        drift = rng.uniform(-0.9, -0.5)  # radians: the wind, up and to the right
        for k in range(18):
            t = k / 17  # along the drift, from the source
            d = (t - 0.4) * r * 1.0
            x = c + d * math.cos(drift) + rng.uniform(-0.4, 0.4) * r
            y = c + d * math.sin(drift) + rng.uniform(-0.4, 0.4) * r
            pr = r * (0.62 - 0.3 * t) * rng.uniform(0.8, 1.1)
            grey = int(186 + 50 * t + rng.uniform(-8, 8))
            puff = pygame.Surface((int(2 * pr) + 2, int(2 * pr) + 2), pygame.SRCALPHA)
            alpha = int(175 - 75 * t)
            pygame.draw.circle(puff, (grey - 14, grey - 14, grey - 18, alpha), (pr + 1, pr + 1), pr)
            pygame.draw.circle(
                puff, (min(255, grey + 12),) * 3 + (alpha,), (pr * 0.8, pr * 0.8), pr * 0.6
            )
            pic.blit(puff, (x - pr - 1, y - pr - 1))
        return pic

    return _kept(("smoke", r, marker_id), make)


def impact_sprite(radius_px: float, marker_id: str, side_colour) -> pygame.Surface:
    """An impact marker ``radius_px`` pixels in radius: scorched ground, a crater with its
    rim and dark pit, flames and smoke wisps, and a ring in ``side_colour`` (the firing
    side's) at the 2" circle, in a picture 2 radii + 8 pixels square; kept per size, marker
    and colour."""
    r = max(4, int(radius_px))

    def make() -> pygame.Surface:
        rng = _rng("impact:" + marker_id)
        size = 2 * r + 8
        c = size / 2
        pic = pygame.Surface((size, size), pygame.SRCALPHA)
        pygame.draw.circle(pic, (46, 34, 22, 140), (c, c), r * 0.92)  # scorched
        for _ in range(9):  # thrown earth
            a, d = rng.uniform(0, 2 * math.pi), rng.uniform(0.55, 0.88) * r
            pygame.draw.circle(
                pic, (96, 74, 50, 220), (c + d * math.cos(a), c + d * math.sin(a)), r * 0.1
            )
        pygame.draw.circle(pic, (156, 128, 90, 255), (c, c), r * 0.62)  # the crater's rim
        pygame.draw.circle(pic, (44, 32, 22, 255), (c + r * 0.05, c + r * 0.05), r * 0.46)
        for _ in range(8):  # flames licking up from the crater
            a, d = rng.uniform(0, 2 * math.pi), rng.uniform(0.0, 0.4) * r
            fx, fy = c + d * math.cos(a), c + d * math.sin(a)
            fr = r * rng.uniform(0.14, 0.24)
            pygame.draw.circle(pic, (214, 60, 16, 240), (fx, fy + fr * 0.2), fr)
            pygame.draw.circle(pic, (248, 140, 30, 250), (fx, fy - fr * 0.1), fr * 0.7)
            pygame.draw.circle(pic, (255, 224, 96, 255), (fx, fy - fr * 0.35), fr * 0.35)
        pygame.draw.circle(pic, tuple(side_colour)[:3] + (255,), (c, c), r, max(2, r // 14))
        return pic

    return _kept(("impact", r, marker_id, tuple(side_colour)), make)
