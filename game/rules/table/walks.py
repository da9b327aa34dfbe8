"""The engine's walk of planned paths in 0.5" steps (000 08.03.02, 08.03.03, 09.00.01), for
one path or many paths of one stand at once: :func:`walk_paths` lays out the steps of every
path together, asks the terrain once for all their midpoints, builds the no-pass footprints'
search tree once, and gives each path exactly the :class:`~game.rules.table.geometry.Walk` (to the
last bit) that :meth:`game.rules.table.table.Table.walk` gives for that path alone (step by step, the
reference: tests/rules/test_batched_preview.py holds the two together). Units: inches, movement
points.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely
from shapely import Polygon, STRtree

from game.rules.table.geometry import FREE_MOVE_IN, HALF, STEP_IN, Walk, corners, overlaps

_REACH_IN = HALF * math.sqrt(2) + 1e-9  # half a footprint's diagonal: how far it reaches


def step_layout(pts: np.ndarray) -> tuple[np.ndarray, ...] | None:
    """One polyline (shape (m, 2), inches) cut into 0.5" steps: the arc length of each step
    point (n + 1, the start first), its x and y, and the x and y of each step's midpoint (n);
    None when it has no length."""
    seg = np.diff(pts, axis=0)
    seg_len = np.hypot(seg[:, 0], seg[:, 1]) if len(seg) else np.zeros(0)
    keep = np.concatenate([[True], seg_len > 1e-12]) if len(seg) else np.array([True])
    pts = pts[keep]
    seg = np.diff(pts, axis=0)
    seg_len = np.hypot(seg[:, 0], seg[:, 1]) if len(seg) else np.zeros(0)
    total = float(seg_len.sum())
    if total <= 1e-12:
        return None
    n = math.ceil(total / STEP_IN - 1e-9)
    s = np.minimum(np.arange(n + 1) * STEP_IN, total)
    s[-1] = total
    cum = np.concatenate([[0.0], np.cumsum(seg_len)])

    def at(arc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        i = np.clip(np.searchsorted(cum, arc, side="right") - 1, 0, len(seg_len) - 1)
        t = (arc - cum[i]) / seg_len[i]
        return pts[i, 0] + t * seg[i, 0], pts[i, 1] + t * seg[i, 1]

    return (s, *at(s), *at((s[:-1] + s[1:]) / 2))


def _layouts(paths: Sequence) -> tuple[list, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every path's start (inches) and its steps, laid end to end: (starts, n, s, xy, mid)
    with ``n[i]`` the steps of path i (0 when it has no length), ``s`` the arc lengths and
    ``xy`` (shape (2, sum(n + 1))) the step points of those with steps, path after path, and
    ``mid`` (shape (2, sum(n))) their steps' midpoints. The straight paths (two points) are
    laid out together in one go, by the same arithmetic as one alone."""
    arrays = [np.asarray(p, dtype=float).reshape(-1, 2) for p in paths]
    if any(len(a) == 0 for a in arrays):
        raise ValueError("a path needs at least its starting point")
    starts = [(float(a[0, 0]), float(a[0, 1])) for a in arrays]
    n = np.zeros(len(arrays), dtype=int)
    # (a path with a point at infinity is walked alone, and fails as it would alone)
    two = [i for i, a in enumerate(arrays) if len(a) == 2 and np.isfinite(a).all()]
    parts: dict[int, tuple] = {}
    if two:
        ends = np.array([arrays[i] for i in two])  # (k, 2, 2)
        dx, dy = ends[:, 1, 0] - ends[:, 0, 0], ends[:, 1, 1] - ends[:, 0, 1]
        length = np.hypot(dx, dy)
        ok = length > 1e-12
        steps = np.where(ok, np.ceil(length / STEP_IN - 1e-9), 0).astype(int)
        counts = np.where(ok, steps + 1, 0)
        first = np.cumsum(counts) - counts
        owner = np.repeat(np.arange(len(two)), counts)
        s = np.minimum((np.arange(counts.sum()) - first[owner]) * STEP_IN, length[owner])
        s[(first + counts - 1)[ok]] = length[ok]
        t = s / length[owner]
        x = ends[owner, 0, 0] + t * dx[owner]
        y = ends[owner, 0, 1] + t * dy[owner]
        # (the midpoint of each step but across two paths' boundary)
        m = np.flatnonzero(np.diff(owner) == 0)
        o = owner[m]
        tm = ((s[m] + s[m + 1]) / 2) / length[o]
        mx = ends[o, 0, 0] + tm * dx[o]
        my = ends[o, 0, 1] + tm * dy[o]
        mfirst = np.cumsum(steps) - steps
        for j, i in enumerate(two):
            if ok[j]:
                a, b = first[j], first[j] + counts[j]
                c = mfirst[j]
                parts[i] = (s[a:b], x[a:b], y[a:b], mx[c : c + steps[j]], my[c : c + steps[j]])
    alone = set(range(len(arrays))) - set(two)
    for i, a in enumerate(arrays):
        if i in alone:
            lay = step_layout(a)
            if lay is not None:
                parts[i] = lay
    order = sorted(parts)
    for i in order:
        n[i] = len(parts[i][0]) - 1
    if not order:
        return starts, n, np.zeros(0), np.zeros((2, 0)), np.zeros((2, 0))
    s, x, y, mx, my = (np.concatenate([parts[i][c] for i in order]) for c in range(5))
    return starts, n, s, np.array([x, y]), np.array([mx, my])


def _add_leaving_costs(
    table, cost: np.ndarray, blocked: np.ndarray, steps: tuple, movement_class: str
) -> None:
    """Add to ``cost`` (movement points, one per step) what each step pays on leaving an
    area (a minefield; 002 terrain chart), for the steps that start inside such an area and
    are not ``blocked``. ``steps`` is ``(x0, y0, x1, y1)``, arrays of the steps' ends in
    inches; ``movement_class`` the terrain chart's column."""
    x0, y0, x1, y1 = steps
    inside = np.zeros(len(cost), dtype=bool)
    for g, _ in table._leaving:
        inside |= shapely.intersects_xy(g, x0, y0)
    for k in np.flatnonzero(inside & ~blocked):
        cost[k] += table._leaving_costs(
            float(x0[k]), float(y0[k]), float(x1[k]), float(y1[k]), movement_class
        )


def walk_paths(
    table,
    paths: Sequence[Sequence[tuple[float, float]]],
    mp_allowed: float,
    movement_class: str = "T",
    free_in: float = FREE_MOVE_IN,
    no_pass: Sequence[Polygon] = (),
) -> list[Walk]:
    """Walk each planned path in 0.5" steps and say how far the stand gets on it
    (000 08.03.02, 08.03.03, 09.00.01; rules-decisions "Movement").

    Parameters
    ----------
    table : game.rules.table.table.Table
        The table walked on.
    paths : sequence of paths, each a sequence of (x, y)
        Polylines in inches, the stand's centre first; any number of them (none gives []).
    mp_allowed : float
        Movement points the stand has (000 08.03.01), the same for every path.
    movement_class : "T", "W" or "F"
        Which column of the terrain chart to pay.
    free_in : float
        Distance (inches) still covered by the free 1" move (000 08.03.03, 001 8.3.3).
    no_pass : sequence of Polygon
        Footprints the stand may not move into (enemy stands, Modern; WWII stops adjacent).

    Returns
    -------
    list of Walk, one per path in order, each exactly what
    :meth:`game.rules.table.table.Table.walk` gives for that path alone. Each step costs its length
    times the per-inch cost at its midpoint (see :meth:`Table.move_costs_at`) plus the costs
    paid on leaving an area (minefield); a step that cannot be paid is not taken unless the
    whole move so far is within ``free_in``; impassable ground, the table edge and ``no_pass``
    footprints stop the stand before the step.

    Raises
    ------
    ValueError
        A path has no point.
    """
    if len(paths) == 1:  # one path: the step-by-step walk is the quicker
        return [table.walk(paths[0], mp_allowed, movement_class, free_in, no_pass)]
    starts, n, s, (bx, by), (mx, my) = _layouts(paths)
    total = int(n.sum())
    if not total:
        return [Walk((p,), 0.0, mp_allowed, 0.0, None, False) for p in starts]
    walking = np.flatnonzero(n)
    counts = n[walking]
    # step g of the j-th walking path runs from point g + j to point g + j + 1
    owner = np.repeat(np.arange(len(walking)), counts)
    first = np.cumsum(counts) - counts  # its first step
    local = np.arange(total) - first[owner]  # the step's index in its own path
    p0 = np.arange(total) + owner
    p1 = p0 + 1
    # one terrain query for every step midpoint of every path
    per_inch, road = table._step_costs(mx, my, movement_class)
    blocked = np.fromiter((c is None for c in per_inch), dtype=bool, count=total)
    rate = np.array([math.nan if c is None else c for c in per_inch], dtype=float)
    x0, y0, x1, y1 = bx[p0], by[p0], bx[p1], by[p1]
    cost = (s[p1] - s[p0]) * rate
    if table._leaving:  # adding 0.0 where no area has a leaving cost changes nothing
        _add_leaving_costs(table, cost, blocked, (x0, y0, x1, y1), movement_class)
    # what each path has spent after each step, summed in order as a stand pays step by step
    grid = np.zeros((len(walking), int(counts.max())))
    grid[owner, local] = cost
    spent = np.cumsum(grid, axis=1)[owner, local]
    off_table = ~((x1 >= 0.0) & (x1 <= table.width) & (y1 >= 0.0) & (y1 <= table.depth))
    with np.errstate(invalid="ignore"):
        short = (spent > mp_allowed + 1e-9) & ~(s[p1] <= free_in + 1e-9)
    stop = off_table | blocked | short
    k = counts.copy()  # per walking path: the step it stops before
    g = np.flatnonzero(stop)
    np.minimum.at(k, owner[g], local[g])
    why: list[str | None] = [None] * len(walking)
    for j in np.flatnonzero(k < counts).tolist():
        h = first[j] + k[j]
        why[j] = "edge" if off_table[h] else "impassable" if blocked[h] else "mp"
    blocker: list[int | None] = [None] * len(walking)
    if len(no_pass):
        _enemy_stops(no_pass, k, why, blocker, owner, local, x0, y0, x1, y1)
    xs, ys, sl = bx.tolist(), by.tolist(), s.tolist()
    costs, paid, roads = cost.tolist(), spent.tolist(), road
    out = [Walk((p,), 0.0, mp_allowed, 0.0, None, False) for p in starts]
    for j, i in enumerate(walking.tolist()):
        kj, a = int(k[j]), int(first[j])
        b = a + j  # its first point
        out[i] = Walk(
            points=(starts[i], *zip(xs[b + 1 : b + 1 + kj], ys[b + 1 : b + 1 + kj], strict=True)),
            mp_spent=min(paid[a + kj - 1], mp_allowed) if kj else min(0.0, mp_allowed),
            mp_allowed=mp_allowed,
            distance_in=sl[b + kj],
            stopped_by=why[j],
            road_rate=roads[a + kj - 1] if kj else False,
            step_costs=tuple(costs[a : a + kj]),
            blocker=blocker[j],
        )
    return out


def _enemy_stops(no_pass, k, why, blocker, owner, local, x0, y0, x1, y1) -> None:
    """Stop each walking path (``k``: the step it stops before, ``why``, ``blocker``: updated
    in place) at its first step, before ``k``, whose footprint (facing the way it drives)
    would overlap a ``no_pass`` footprint: the lowest index of those it overlaps is the
    blocker (000 08.03.05). Only a step whose footprint's reach meets a footprint's bounding
    box can overlap it: the others build no polygon and query no tree."""
    box = shapely.bounds(np.asarray(list(no_pass), dtype=object))
    ex, ey = x1[:, None], y1[:, None]
    near = (
        (ex + _REACH_IN >= box[None, :, 0])
        & (ex - _REACH_IN <= box[None, :, 2])
        & (ey + _REACH_IN >= box[None, :, 1])
        & (ey - _REACH_IN <= box[None, :, 3])
    ).any(axis=1) & (local < k[owner])
    steps = np.flatnonzero(near)
    if not len(steps):
        return
    ax, ay, bx, by = (v[steps].tolist() for v in (x0, y0, x1, y1))
    fps = shapely.polygons(
        np.array(
            [
                corners(xb, yb, math.degrees(math.atan2(yb - ya, xb - xa)))
                for xa, ya, xb, yb in zip(ax, ay, bx, by, strict=True)
            ]
        )
    )
    tree = STRtree(list(no_pass))
    hits: dict[int, list[int]] = {}
    for q, h in zip(*tree.query(fps, predicate="intersects").tolist(), strict=True):
        hits.setdefault(q, []).append(h)
    for q in sorted(hits):
        g = int(steps[q])
        j = int(owner[g])
        if why[j] == "enemy":
            continue  # stopped at an earlier step already
        over = sorted(h for h in hits[q] if overlaps(fps[q], no_pass[h]))
        if over:
            k[j], why[j], blocker[j] = local[g], "enemy", over[0]
