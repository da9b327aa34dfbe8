"""Snapping a drawn point: to another feature's corner or edge, or to the grid.

:class:`SnapIndex` keeps every vertex and edge of a document's features in numpy arrays, so
:func:`snap_point` is a few array operations (a drag snaps at every mouse move). Inches
throughout, as :mod:`game.editor.edits`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from game.editor.commands import items
from game.editor.edits import line_of, tidy, vertices


class SnapIndex:
    """Every vertex and edge of a document's features in numpy arrays, built once per
    version of the document, so snapping a point is a few array operations, not a loop over
    every feature (a drag snaps at every mouse move).

    ``points``: shape (n, 2) inches, ``point_owner``: shape (n,) feature indices;
    ``segments``: shape (m, 4) as x0, y0, x1, y1, ``segment_owner``: shape (m,)."""

    def __init__(self, raw: dict):
        pts, owners, segs, seg_owners = [], [], [], []
        for i, f in enumerate(items(raw, "feature")):
            try:
                verts = vertices(f)
                coords = f["geometry"]["coordinates"]
            except (KeyError, TypeError, IndexError):
                continue
            for addr, (x, y) in verts:
                pts.append((x, y))
                owners.append(i)
                line = line_of(coords, addr)
                k = addr[-1]
                if k + 1 < len(line):
                    segs.append((x, y, line[k + 1][0], line[k + 1][1]))
                    seg_owners.append(i)
        self.points = np.array(pts, dtype=float).reshape(-1, 2)
        self.point_owner = np.array(owners, dtype=int)
        self.segments = np.array(segs, dtype=float).reshape(-1, 4)
        self.segment_owner = np.array(seg_owners, dtype=int)


def snap_point(
    raw: dict,
    x: float,
    y: float,
    grid: float | None,
    within: float,
    exclude: Iterable[int] = (),
    index: SnapIndex | None = None,
) -> tuple[float, float, str]:
    """Where a point drawn at (x, y) inches lands: on a vertex of another feature within
    ``within`` inches, else on its nearest edge, else on the ``grid`` (None: no grid); a grid
    point nearer the cursor than the corner or edge wins over it (a click at a grid point
    stays on the grid).
    Returns (x, y, what) with what "vertex", "edge", "grid" or "free". ``exclude`` lists
    feature indices not to snap to (the one being edited); ``index`` is a
    :class:`SnapIndex` of ``raw`` when the caller keeps one."""
    idx = index or SnapIndex(raw)
    skip = np.array(sorted(set(exclude)), dtype=int)
    on_grid = None
    if grid:
        gx, gy = round(x / grid) * grid, round(y / grid) * grid
        on_grid = (tidy(gx), tidy(gy), "grid"), math.hypot(gx - x, gy - y)
    if len(idx.points):
        d = np.hypot(idx.points[:, 0] - x, idx.points[:, 1] - y)
        d[np.isin(idx.point_owner, skip)] = np.inf
        k = int(np.argmin(d))
        if d[k] <= within:
            if on_grid and on_grid[1] < d[k]:
                return on_grid[0]  # the cursor is nearer a grid point than the corner
            return float(idx.points[k, 0]), float(idx.points[k, 1]), "vertex"
    if len(idx.segments):
        x0, y0, x1, y1 = idx.segments.T
        dx, dy = x1 - x0, y1 - y0
        l2 = dx * dx + dy * dy
        t = np.clip(((x - x0) * dx + (y - y0) * dy) / np.where(l2 > 0, l2, 1.0), 0.0, 1.0)
        px, py = x0 + t * dx, y0 + t * dy
        d = np.hypot(px - x, py - y)
        d[np.isin(idx.segment_owner, skip)] = np.inf
        k = int(np.argmin(d))
        if d[k] <= within and not (on_grid and on_grid[1] < d[k]):
            return tidy(px[k]), tidy(py[k]), "edge"
    if on_grid:
        return on_grid[0]
    return tidy(x), tidy(y), "free"
