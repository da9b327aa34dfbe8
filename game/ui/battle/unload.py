"""Where riders may be set down, on the table (full games, rules-decisions "Transport"): the
free spots beside one carrier at a time, each joined to its carrier by a line, so that the
spots of two carriers side by side (the left spot of one is the right spot of the other)
never tangle. Pointing at another carrier of the moving group shows its spots instead."""

from __future__ import annotations

import math

import pygame

from game import corners

UNLOAD = (90, 225, 235)  # a free spot beside a carrier, where a rider may be set down
INSET = 0.78  # the ring drawn inside a carrier's base (inches of its 1"), clear of the
# moving group's yellow outline


def carriers(spots) -> list[str]:
    """The carriers of ``spots`` ((carrier, rider, spot, centre, why not) rows), in order."""
    return list(dict.fromkeys(c for c, *_ in spots))


def first_focus(spots, focus: str | None) -> str | None:
    """The carrier whose spots are shown: ``focus`` while it still has riders to set down,
    else the first carrier with a free spot, else the first carrier (or None)."""
    have = carriers(spots)
    if focus in have:
        return focus
    free = [c for c, _, _, _, why in spots if why is None]
    return free[0] if free else (have[0] if have else None)


def _ring(tv, surface, s, width: int) -> None:
    """A ring in :data:`UNLOAD` inside carrier ``s``'s base (pixels ``width``)."""
    pts = [
        tv.to_px(s.x + INSET * (x - s.x), s.y + INSET * (y - s.y))
        for x, y in corners(s.x, s.y, s.facing_deg)
    ]
    pygame.draw.polygon(surface, UNLOAD, pts, width)


def draw_spots(tv, surface, battle, spots, focus: str | None) -> None:
    """The carriers with riders ringed (the one shown thick), and the shown carrier's free
    spots: each outlined as the 1" base its rider would have, a line from the carrier's
    centre to the spot's, and a dot at the spot's centre (a click there sets the rider
    down)."""
    for cid in carriers(spots):
        _ring(tv, surface, battle.stand(cid), 3 if cid == focus else 1)
    if focus is None:
        return
    c = battle.stand(focus)
    for cid, _, _, (x, y), why in spots:
        if cid != focus or why is not None:
            continue
        tv.footprint_outline(surface, x, y, c.facing_deg, UNLOAD, 2)
        a = (c.x, c.y)
        d = math.dist(a, (x, y)) or 1.0
        start = tv.to_px(c.x + 0.5 * (x - c.x) / d, c.y + 0.5 * (y - c.y) / d)  # its edge
        pygame.draw.line(surface, UNLOAD, start, tv.to_px(x, y), 2)
        pygame.draw.circle(surface, UNLOAD, [round(v) for v in tv.to_px(x, y)], 4)
