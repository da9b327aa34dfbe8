"""The movement points a stand needs to reach each point of the table from its side's entry
edge or deployment zone (:func:`movement_cost_field`), each step charged by the engine
(:meth:`game.Table.step_costs`).

Nothing here re-implements a rule. Units: inches for coordinates, movement points (MP) for
costs. Grids are numpy arrays of shape (ny, nx) (:func:`game.editor.regions.cell_centres`).
Meant to run in a background thread of the editor: the view builds its own copy of the table
and polls its ``cancel`` callable as it goes (:mod:`game.editor.analysis`).
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

import numpy as np

from game import Scenario
from game.editor.regions import (
    CancelCheck,
    _box_mask,
    _poll,
    _readonly,
    _side,
    cell_centres,
    deployment_zone,
    table_copy,
)

_CANCEL_EVERY = 2048  # Dijkstra settles this many cells between polls of ``cancel``


@dataclass(frozen=True)
class CostGrid:
    """Movement points to reach each cell from a side's entry edge or deployment zone
    (:func:`movement_cost_field`). Arrays are read-only.

    Attributes
    ----------
    side_id : str
        The side.
    movement_class : str
        ``"T"``, ``"W"`` or ``"F"``: which column of the terrain chart was paid.
    resolution_in : float
        Cell size, inches.
    xs, ys : ndarray, shapes (nx,) and (ny,)
        Cell centres, inches.
    cost : ndarray of float, shape (ny, nx)
        Movement points from the start to the cell centre; ``inf`` where it cannot be reached.
    sources : ndarray of bool, shape (ny, nx)
        The cells the search started from.
    origin : str
        ``"left edge"`` (``right``, ``top``, ``bottom``) or ``"zone"``.
    """

    side_id: str
    movement_class: str
    resolution_in: float
    xs: np.ndarray
    ys: np.ndarray
    cost: np.ndarray
    sources: np.ndarray
    origin: str

    @property
    def reachable_fraction(self) -> float:
        """Fraction (0..1) of the cells that can be reached."""
        return float(np.isfinite(self.cost).mean())


# the eight neighbours of a cell: (di, dj) in columns and rows
_NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (-1, 1), (1, -1))


def _step_graph(
    table,
    xs: np.ndarray,
    ys: np.ndarray,
    ii: np.ndarray,
    jj: np.ndarray,
    movement_class: str,
    cancel: CancelCheck,
) -> list[list[tuple[int, float]]]:
    """Every directed step between neighbouring cell centres (8-connected), costed by the
    engine in one call (:meth:`Table.step_costs`, movement points): for each cell (its flat
    index, row ``jj`` and column ``ii``) the cells it can step to and what each step costs;
    steps onto impassable ground are left out (000 08.03.02). Raises Cancelled when ``cancel``
    says so once the costs are in."""
    nx, ny = len(xs), len(ys)
    starts, ends = [], []
    for di, dj in _NEIGHBOURS:
        ok = (ii + di >= 0) & (ii + di < nx) & (jj + dj >= 0) & (jj + dj < ny)
        u = np.nonzero(ok)[0]
        starts.append(u)
        ends.append(u + di + dj * nx)
    u_all, v_all = np.concatenate(starts), np.concatenate(ends)
    step = table.step_costs(
        xs[ii[u_all]], ys[jj[u_all]], xs[ii[v_all]], ys[jj[v_all]], movement_class
    )
    _poll(cancel)
    fin = np.isfinite(step)
    adj: list[list[tuple[int, float]]] = [[] for _ in range(nx * ny)]
    for u, v, c in zip(u_all[fin].tolist(), v_all[fin].tolist(), step[fin].tolist(), strict=True):
        adj[u].append((v, c))
    return adj


def _edge_entry(
    table,
    edge: str,
    xs: np.ndarray,
    ys: np.ndarray,
    ii: np.ndarray,
    jj: np.ndarray,
    movement_class: str,
) -> tuple[np.ndarray, np.ndarray]:
    """The cells of an entry edge's first column or row (flat indices) and the movement
    points of the step from the edge (``left``, ``right``, ``bottom`` or ``top``) straight in
    to each (``ii``, ``jj``: each cell's column and row): a stand entering starts its move on its side's edge (rules-decisions
    "Movement")."""
    nx, ny = len(xs), len(ys)
    if edge in ("left", "right"):
        col = 0 if edge == "left" else nx - 1
        cells = np.arange(ny) * nx + col
        ex = np.full(ny, 0.0 if edge == "left" else table.width)
        ey = ys
    else:
        row = 0 if edge == "bottom" else ny - 1
        cells = row * nx + np.arange(nx)
        ex = xs
        ey = np.full(nx, 0.0 if edge == "bottom" else table.depth)
    return cells, table.step_costs(ex, ey, xs[ii[cells]], ys[jj[cells]], movement_class)


def _dijkstra(
    adj: list[list[tuple[int, float]]], cells: np.ndarray, entry: np.ndarray, cancel: CancelCheck
) -> tuple[list[float], np.ndarray]:
    """Least movement points to every cell (flat list, ``inf`` where unreachable) from the
    source ``cells`` at their ``entry`` costs, over the step graph ``adj``; and which cells
    were sources (a flat bool array). Polls ``cancel`` every 2,048 cells settled (raises
    Cancelled)."""
    n = len(adj)
    dist = [math.inf] * n
    heap = []
    for c, e in zip(cells.tolist(), entry.tolist(), strict=True):
        if e < dist[c]:
            dist[c] = e
            heap.append((e, c))
    sources = np.zeros(n, dtype=bool)
    sources[[c for _, c in heap]] = True
    heapq.heapify(heap)
    settled = 0
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        du, u = pop(heap)
        if du > dist[u]:
            continue
        settled += 1
        if settled % _CANCEL_EVERY == 0:
            _poll(cancel)
        for v, c in adj[u]:
            dv = du + c
            if dv < dist[v]:
                dist[v] = dv
                push(heap, (dv, v))
    return dist, sources


def movement_cost_field(
    scenario: Scenario,
    side_id: str,
    resolution_in: float = 0.5,
    movement_class: str = "T",
    cancel: CancelCheck = None,
) -> CostGrid:
    """The movement points a stand needs to reach each cell centre of a grid over the table,
    from its side's entry edge (or, with none, its :func:`deployment_zone`).

    Dijkstra over the 8-connected grid of cell centres. Each step between neighbouring centres
    costs what the engine charges for walking it as one step (:meth:`Table.step_costs`: the
    per-inch cost at its midpoint, road rate within 0.25" of a road's centre line, hill and
    other additive effects added, the minefield on leaving; impassable ground: no step)
    (000 08.03.02, 09.00.01). At 0.5" resolution the straight steps are the engine's own 0.5"
    steps. From an entry edge the search starts with the step from the edge straight in to
    each cell of the edge's first column or row (a stand entering starts its move on its
    side's edge, rules-decisions "Movement"); from a zone, at 0 MP on every zone cell a stand may stand on. Per-phase limits
    (the stand's allowance, the free 1") are not applied: this is the ground's cost.

    Parameters
    ----------
    scenario : Scenario
        A validated scenario.
    side_id : str
        The side.
    resolution_in : float
        Cell size, inches.
    movement_class : "T", "W" or "F"
        Tracked, wheeled or foot.
    cancel : callable returning bool, optional
        Polled while the costs are gathered and every 2,048 cells settled; True stops the work.

    Returns
    -------
    CostGrid
        Movement points per cell (shape (ny, nx); ``inf`` where unreachable).

    Raises
    ------
    ValueError
        No such side, a bad resolution, an unknown movement class.
    Cancelled
        ``cancel`` returned True.
    """
    if movement_class not in ("T", "W", "F"):
        raise ValueError(f"unknown movement class {movement_class!r} (T, W or F)")
    side = _side(scenario, side_id)
    table = table_copy(scenario.table)
    w, d = table.width, table.depth
    xs, ys = cell_centres(w, d, resolution_in)
    nx, ny = len(xs), len(ys)
    n = nx * ny
    jj, ii = np.divmod(np.arange(n), nx)  # row and column of each cell
    _poll(cancel)
    adj = _step_graph(table, xs, ys, ii, jj, movement_class, cancel)
    if side.entry_edge is not None:
        cells, entry = _edge_entry(table, side.entry_edge, xs, ys, ii, jj, movement_class)
        origin = f"{side.entry_edge} edge"
    else:
        zone = _box_mask(xs, ys, deployment_zone(scenario, side_id), w, d).ravel()
        cells = np.nonzero(zone)[0]
        here, _ = table.move_costs_at(xs[ii[cells]], ys[jj[cells]], movement_class)
        entry = np.where(np.isfinite(here), 0.0, math.inf)
        origin = "zone"
    dist, sources = _dijkstra(adj, cells, entry, cancel)
    return CostGrid(
        side_id=side_id,
        movement_class=movement_class,
        resolution_in=float(resolution_in),
        xs=_readonly(xs),
        ys=_readonly(ys),
        cost=_readonly(np.array(dist, dtype=float).reshape(ny, nx)),
        sources=_readonly(sources.reshape(ny, nx)),
        origin=origin,
    )
