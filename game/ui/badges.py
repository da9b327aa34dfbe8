"""Where a stand's marker badges go on the table (S, D, A, M, F, "+1"): beside their own
stand where nothing else is drawn, never over a neighbouring stand, as a player sets markers
down by a base on a crowded table.

Each stand's badges are a row (or a column) of circles centred on the stand. They go, in
this order of preference, just above the base, just below it, just right of it, just left of
it (touching it, so it is plain whose they are), else inside the base itself, shrunk to fit
(and as plain coloured pips without letters when a letter would not fit: the fitted zoom of a
crowded table). A place is taken only if it covers no other stand's base and no
badge already placed."""

from __future__ import annotations

import math

import pygame

LEAST_LETTER_R = 7
"""The least badge radius (pixels) that holds a letter of pygame's font at 16 (11-pixel
letters): a smaller badge is a pip without its letter."""
GAP = 2  # pixels between two badges of a stand


def base_rect(corner_px) -> pygame.Rect:
    """The screen rectangle around a stand's base drawn through ``corner_px`` (its four
    corners, pixels)."""
    xs = [p[0] for p in corner_px]
    ys = [p[1] for p in corner_px]
    x0, y0 = math.floor(min(xs)), math.floor(min(ys))
    return pygame.Rect(x0, y0, math.ceil(max(xs)) - x0, math.ceil(max(ys)) - y0)


MOST_LINES = 2  # rows (or columns) of badges beside a base: more would stand off too far


def _block(n: int, r: int, first: tuple[float, float], per: int, across: bool, out: int):
    """``n`` badge centres of radius ``r`` in lines of ``per``: rows (``across``) whose
    first is centred on ``first`` and each further one ``out`` (+1 or -1) rows further
    down (up), or columns likewise, each line centred on ``first``'s axis."""
    step = 2 * r + GAP
    centres = []
    for k in range(n):
        line, at = divmod(k, per)
        count = min(per, n - line * per)
        along = (at - (count - 1) / 2) * step
        if across:
            centres.append((first[0] + along, first[1] + out * line * step))
        else:
            centres.append((first[0] + out * line * step, first[1] + along))
    return centres


def _rects(centres, r: int) -> list[pygame.Rect]:
    return [pygame.Rect(round(x - r), round(y - r), 2 * r, 2 * r) for x, y in centres]


def candidates(n: int, r: int, box: pygame.Rect) -> list[list[tuple[float, float]]]:
    """The places (badge centres, pixels) a stand's ``n`` badges of radius ``r`` may take
    around its base's screen rectangle ``box``, best first: in rows just above the base,
    then just below it, in columns just right of it, then just left of it, each line
    centred on the base and at most as long as the base and a badge (two badges at least),
    at most :data:`MOST_LINES` lines."""
    step = 2 * r + GAP
    per_row = max(2, (box.w + 2 * r + GAP) // step)
    per_col = max(2, (box.h + 2 * r + GAP) // step)
    cx, cy = box.centerx, box.centery
    out = []
    if -(-n // per_row) <= MOST_LINES:
        out.append(_block(n, r, (cx, box.top - 1 - r), per_row, True, -1))
        out.append(_block(n, r, (cx, box.bottom + 1 + r), per_row, True, 1))
    if -(-n // per_col) <= MOST_LINES:
        out.append(_block(n, r, (box.right + 1 + r, cy), per_col, False, 1))
        out.append(_block(n, r, (box.left - 1 - r, cy), per_col, False, -1))
    return out


def inside(n: int, r: int, centre, scale: float, facing_deg: float) -> tuple[list, int]:
    """The badges inside the base itself (the last resort): in rows filling the largest
    upright square inside a base of ``scale`` pixels turned ``facing_deg`` from its top,
    their radius ``r`` or less so that all ``n`` fit (at least 2 pixels). Returns
    (centres, radius)."""
    a = math.radians(facing_deg)
    side = scale / (abs(math.cos(a)) + abs(math.sin(a))) - 2
    cx, cy = centre
    for size in range(r, 1, -1):
        per = max(1, int((side + GAP) // (2 * size + GAP)))
        if -(-n // per) * (2 * size + GAP) - GAP <= side:
            return _block(n, size, (cx, cy - side / 2 + size), per, True, 1), size
    # a tiny base: pips of 2 pixels spread along its top, touching one another if need be
    size = 2
    spread = max(0.0, side - 2 * size)
    return [
        (cx - spread / 2 + (spread * k / (n - 1) if n > 1 else spread / 2), cy - side / 2 + size)
        for k in range(n)
    ], size


def place(n: int, r: int, centre, scale: float, facing_deg: float, box, taken, bases):
    """Where a stand's ``n`` badges of radius ``r`` go: the first of :func:`candidates`
    whose badges cover no rectangle of ``bases`` (the other stands' bases) or ``taken`` (the
    badges already placed), else :func:`inside`. Returns (centres, radius); the badges'
    rectangles are added to ``taken``."""
    for centres in candidates(n, r, box):
        rects = _rects(centres, r)
        if not any(q.collidelist(bases) >= 0 or q.collidelist(taken) >= 0 for q in rects):
            taken.extend(rects)
            return centres, r
    centres, r = inside(n, r, centre, scale, facing_deg)
    taken.extend(_rects(centres, r))
    return centres, r
