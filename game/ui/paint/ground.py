"""The painted table's ground texture: a gentle, smooth variation of colour over the
table (value noise on lattices of 5" and 1.6") and the grain of static flock (a fixed tile of
seeded noise, one value a pixel), added over everything painted on the table. Both are tied
to the table, not to the screen: a pixel shows the same at any camera place, so a panned layer
(which repaints only the strips a scroll uncovers) joins seamlessly."""

from __future__ import annotations

import numpy as np
import pygame

FLOCK_TILE = 256
_FLOCK: dict[int, np.ndarray] = {}


def _flock_tile() -> np.ndarray:
    """The flock grain: a FLOCK_TILE-pixel square of small integer offsets (-7..7) with a few
    lighter and darker specks, from a fixed seed (the same on every run)."""
    tile = _FLOCK.get(FLOCK_TILE)
    if tile is None:
        rng = np.random.default_rng(46)
        tile = rng.normal(0.0, 3.2, (FLOCK_TILE, FLOCK_TILE))
        specks = rng.random((FLOCK_TILE, FLOCK_TILE))
        tile[specks < 0.025] += 16
        tile[specks > 0.975] -= 14
        tile = np.clip(np.round(tile), -22, 22).astype(np.int16)
        _FLOCK[FLOCK_TILE] = tile
    return tile


def _lattice(ix: np.ndarray, iy: np.ndarray, salt: int) -> np.ndarray:
    """A value in [-1, 1) for each integer lattice point (ix rows by iy columns), from an
    integer hash: the same point gives the same value on every run and machine."""
    x = ix.astype(np.uint64)[:, None]
    y = iy.astype(np.uint64)[None, :]
    h = (x * np.uint64(374761393) + y * np.uint64(668265263) + np.uint64(salt)) & np.uint64(
        0xFFFFFFFF
    )
    h = ((h ^ (h >> np.uint64(13))) * np.uint64(1274126177)) & np.uint64(0xFFFFFFFF)
    h = h ^ (h >> np.uint64(16))
    return (h & np.uint64(0xFFFF)).astype(np.float64) / 32768.0 - 1.0


def value_noise(tx: np.ndarray, ty: np.ndarray, cell: float, salt: int) -> np.ndarray:
    """Smooth noise in [-1, 1] at the table points tx (inches, one per pixel column) by ty
    (one per pixel row): a shape (len(tx), len(ty)) float32 array, bilinear between lattice
    points ``cell`` inches apart with a smoothstep, one axis at a time (no BLAS: its threads
    contend with the window's on a busy machine)."""
    fx, fy = tx / cell, ty / cell
    ix, iy = np.floor(fx).astype(np.int64), np.floor(fy).astype(np.int64)
    wx, wy = (fx - ix).astype(np.float32), (fy - iy).astype(np.float32)
    wx, wy = wx * wx * (3 - 2 * wx), wy * wy * (3 - 2 * wy)
    x0, y0 = int(ix.min()), int(iy.min())
    lat = _lattice(
        np.arange(x0, int(ix.max()) + 2) + 1_000_000,
        np.arange(y0, int(iy.max()) + 2) + 1_000_000,
        salt,
    ).astype(np.float32)
    jx, jy = ix - x0, iy - y0
    along = lat[jx, :] * (1 - wx)[:, None] + lat[jx + 1, :] * wx[:, None]
    return along[:, jy] * (1 - wy)[None, :] + along[:, jy + 1] * wy[None, :]


_GREYS = [(i, i, i) for i in range(256)]


def _grey(values: np.ndarray, like: pygame.Surface) -> pygame.Surface:
    """A surface in ``like``'s pixel format whose every channel is ``values`` (0-255;
    columns by rows): an 8-bit grey-palette picture of the bytes, converted."""
    data = np.ascontiguousarray(values.T.astype(np.uint8))
    pic = pygame.image.frombuffer(data, values.shape, "P")
    pic.set_palette(_GREYS)
    return pic.convert(like)


def texture(surface: pygame.Surface, area: pygame.Rect, view, strength: float = 1.0) -> None:
    """Add the ground's colour variation and flock grain to the pixels of ``area`` (a
    rectangle of ``surface``, pixels, already cut to the table and the clip), for table
    ``view`` (a ``render.View``). ``strength`` scales it (1: +-9 levels of variation). Added
    and taken away as two grey pictures blitted with pygame's RGB add and subtract."""
    area = area.clip(surface.get_rect())
    if area.w <= 0 or area.h <= 0:
        return
    ox, oy = view.origin
    cols = np.arange(area.left, area.right, dtype=np.float64) + 0.5
    rows = np.arange(area.top, area.bottom, dtype=np.float64) + 0.5
    tx = (cols - ox) / view.scale
    ty = view.depth - (rows - oy) / view.scale
    total = 7.0 * value_noise(tx, ty, 5.0, 17) + 3.5 * value_noise(tx, ty, 1.6, 29)
    tile = _flock_tile()
    fx = (np.arange(area.left, area.right) - int(round(ox))) % FLOCK_TILE
    fy = (np.arange(area.top, area.bottom) - int(round(oy))) % FLOCK_TILE
    total += tile[fx][:, fy]
    if strength != 1.0:
        total *= strength
    total = np.rint(total)
    add, sub = _grey(np.clip(total, 0, 255), surface), _grey(np.clip(-total, 0, 255), surface)
    surface.blit(add, area.topleft, special_flags=pygame.BLEND_RGB_ADD)
    surface.blit(sub, area.topleft, special_flags=pygame.BLEND_RGB_SUB)
