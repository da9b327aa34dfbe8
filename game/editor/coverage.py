"""Which ground a side can see from its deployment zone (:func:`sight_coverage`), with the
engine's own sight rules (:meth:`game.Table.sight_matrix`), and the dead ground
neither side sees (:func:`dead_ground`).

Nothing here re-implements a rule. Units: inches. Grids are numpy arrays of shape (ny, nx)
(:func:`game.editor.regions.cell_centres`). Meant to run in a background thread of the editor:
the view builds its own copy of the table and polls its ``cancel`` callable between batches of
observers (:mod:`game.editor.analysis`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from game import STAND_SIZE_IN, Scenario, StandPose, Table
from game.editor.regions import (
    Box,
    CancelCheck,
    _box_mask,
    _poll,
    _readonly,
    cell_centres,
    deployment_zone,
    far_half,
    table_copy,
)

OBSERVER_SPACING_IN = 1.0
"""Default largest distance (inches) between neighbouring sample observers in a deployment
zone. Measured on the benchmark map (tools/bench/bench_editor_views.py --reference, 72"x48", 300
polygons): of the ground seen from observers every 0.5" over a 6" entry strip, 1" spacing
(334 observers, about 1.0-1.5 s) misses 2.2%, 1.5" 4.4%, 2" 6.3%."""

MAX_OBSERVERS = 400
"""A zone is sampled by at most this many observers: a larger zone (half the table, for a side
with no entry edge) gets a wider spacing, so the view stays within its time. On the benchmark
map's half-table zone that is 388 observers 2.2" apart (about 1.3 s), which miss 3.0% of the
ground seen from observers every 1"."""

_OBSERVER_BATCH = 4  # observers asked about the still-unseen cells at once


@dataclass(frozen=True)
class CoverageGrid:
    """What one side can see from its deployment zone (:func:`sight_coverage`). Arrays are
    read-only.

    Attributes
    ----------
    side_id : str
        The side.
    resolution_in : float
        Cell size, inches.
    xs, ys : ndarray, shapes (nx,) and (ny,)
        Cell centres, inches (:func:`cell_centres`).
    seen : ndarray of bool, shape (ny, nx)
        True where a stand centred on the cell centre can be seen by a stand at one of the
        sample observers or more.
    zone : (x0, y0, x1, y1)
        The deployment zone (:func:`deployment_zone`), inches.
    observers : ndarray of float, shape (k, 2)
        The sample observers' centres, inches.
    observer_spacing_in : float
        The largest distance between neighbouring observers along x or y, inches (0 with one
        observer or none).
    far_half_name : str
        Which half of the table faces the zone (:func:`far_half`).
    far_half : (x0, y0, x1, y1)
        That half, inches.
    far_half_seen_fraction : float
        Fraction (0..1) of that half's cells seen.
    seen_fraction : float
        Fraction (0..1) of all cells seen.
    """

    side_id: str
    resolution_in: float
    xs: np.ndarray
    ys: np.ndarray
    seen: np.ndarray
    zone: Box
    observers: np.ndarray
    observer_spacing_in: float
    far_half_name: str
    far_half: Box
    far_half_seen_fraction: float
    seen_fraction: float


def _axis_samples(lo: float, hi: float, spacing: float) -> np.ndarray:
    """Points from lo to hi (both included) no more than ``spacing`` apart; the middle alone
    when the span is empty."""
    if hi - lo <= 1e-9:
        return np.array([(lo + hi) / 2])
    n = math.ceil((hi - lo) / spacing - 1e-9) + 1
    return np.linspace(lo, hi, n)


def zone_observers(
    table: Table,
    zone: Box,
    spacing_in: float = OBSERVER_SPACING_IN,
    max_observers: int = MAX_OBSERVERS,
) -> tuple[np.ndarray, float]:
    """Sample observers for a deployment zone: a grid of stand centres over the zone, both
    ends of each axis included, no more than ``spacing_in`` apart (wider when the zone would
    need more than ``max_observers``), each where a stand may be: wholly on the table
    (000 08.03: no stand leaves the table) and not on ground a tracked stand may not enter.

    Parameters
    ----------
    table : Table
        The table.
    zone : (x0, y0, x1, y1)
        The zone, inches.
    spacing_in : float
        Largest distance between neighbours along x or y, inches.
    max_observers : int
        Most observers to place (:data:`MAX_OBSERVERS`).

    Returns
    -------
    points : ndarray of float, shape (k, 2)
        Observer centres, inches.
    spacing : float
        The spacing used, inches (0 when one observer or none).

    Raises
    ------
    ValueError
        A spacing that is not a positive finite number, or fewer than one observer allowed.
    """
    if not (math.isfinite(spacing_in) and spacing_in > 0):
        raise ValueError(f"the observer spacing must be more than 0 inches, not {spacing_in!r}")
    if max_observers < 1:
        raise ValueError(f"at least one observer is needed, not {max_observers}")
    half = STAND_SIZE_IN / 2
    x0, x1 = max(zone[0], half), min(zone[2], table.width - half)
    y0, y1 = max(zone[1], half), min(zone[3], table.depth - half)
    if x0 > x1:
        x0 = x1 = table.width / 2
    if y0 > y1:
        y0 = y1 = table.depth / 2
    spacing = spacing_in
    while True:
        ox, oy = _axis_samples(x0, x1, spacing), _axis_samples(y0, y1, spacing)
        if len(ox) * len(oy) <= max_observers:
            break
        spacing *= math.sqrt(len(ox) * len(oy) / max_observers) * 1.01
    gx, gy = np.meshgrid(ox, oy)
    pts = np.c_[gx.ravel(), gy.ravel()]
    per_inch, _ = table.move_costs_at(pts[:, 0], pts[:, 1], "T")
    pts = pts[np.isfinite(per_inch)]
    gaps = [float(np.diff(a).max()) for a in (ox, oy) if len(a) > 1]
    return pts, max(gaps, default=0.0)


def sight_coverage(
    scenario: Scenario,
    side_id: str,
    resolution_in: float = 0.5,
    cancel: CancelCheck = None,
    observer_spacing_in: float = OBSERVER_SPACING_IN,
    max_observers: int = MAX_OBSERVERS,
) -> CoverageGrid:
    """Which ground a side can see from its deployment zone.

    For each cell centre of a grid over the table, whether a stand centred there is in sight
    of a stand at one of the sample observers of :func:`zone_observers` in the side's
    :func:`deployment_zone`, by the engine's own sight rules with no other stands on the table
    (:meth:`Table.sight_matrix`, 000 07.01, 001 6.1): blocking terrain areas, hills, the
    maximum sighting distance with the observer's height bonus per ground level. Both stands
    are taken square to the table (facing 0; the sight line starts and ends at their
    footprints). Ground seen by neither side is dead ground: :func:`dead_ground`.

    Parameters
    ----------
    scenario : Scenario
        A validated scenario.
    side_id : str
        The side whose sight is wanted.
    resolution_in : float
        Cell size, inches.
    cancel : callable returning bool, optional
        Polled between batches of observers; True stops the work.
    observer_spacing_in : float
        Largest distance between neighbouring observers, inches (:data:`OBSERVER_SPACING_IN`).
    max_observers : int
        Most observers (:data:`MAX_OBSERVERS`); a zone that needs more gets a wider spacing.

    Returns
    -------
    CoverageGrid
        The seen cells (shape (ny, nx)), the zone, the observers and the fraction of the half
        of the table facing the zone (:func:`far_half`) that is seen.

    Raises
    ------
    ValueError
        No such side, a bad resolution or spacing (:func:`cell_centres`, :func:`zone_observers`).
    Cancelled
        ``cancel`` returned True.
    """
    table = table_copy(scenario.table)
    w, d = table.width, table.depth
    xs, ys = cell_centres(w, d, resolution_in)
    zone = deployment_zone(scenario, side_id)
    observers, spacing = zone_observers(table, zone, observer_spacing_in, max_observers)
    gx, gy = np.meshgrid(xs, ys)
    cx, cy = gx.ravel(), gy.ravel()
    seen = np.zeros(len(cx), dtype=bool)
    rules = scenario.data.rulesets[scenario.ruleset]
    max_sight = scenario.spec.max_sighting_in
    if len(observers):
        levels = table.ground_levels(observers[:, 0], observers[:, 1])
        reach = max_sight + rules.sight_bonus_per_level_in * np.maximum(levels, 0) + 1e-6
        cells = [
            StandPose(f"cell{i}", "", float(x), float(y), 0.0)
            for i, (x, y) in enumerate(zip(cx, cy, strict=True))
        ]
        obs = [
            StandPose(f"obs{i}", side_id, float(x), float(y), 0.0)
            for i, (x, y) in enumerate(observers)
        ]
        # a spread-out order: each batch sees ground the earlier ones did not, so fewer cells
        # are left to ask about (the answer does not depend on the order)
        order = np.random.default_rng(0).permutation(len(obs))
        for k in range(0, len(order), _OBSERVER_BATCH):
            _poll(cancel)
            batch = order[k : k + _OBSERVER_BATCH]
            idx = np.nonzero(~seen)[0]
            near = (
                np.hypot(
                    cx[idx][None, :] - observers[batch, 0][:, None],
                    cy[idx][None, :] - observers[batch, 1][:, None],
                )
                <= reach[batch][:, None]
            )
            idx = idx[near.any(axis=0)]
            if not len(idx):
                continue
            m = table.sight_matrix(
                [obs[b] for b in batch], [cells[i] for i in idx], (), max_sight, rules
            )
            seen[idx] |= m.clear.any(axis=0)
    grid = seen.reshape(len(ys), len(xs))
    half_name, half_box = far_half(w, d, zone)
    half_mask = _box_mask(xs, ys, half_box, w, d)
    return CoverageGrid(
        side_id=side_id,
        resolution_in=float(resolution_in),
        xs=_readonly(xs),
        ys=_readonly(ys),
        seen=_readonly(grid),
        zone=zone,
        observers=_readonly(observers),
        observer_spacing_in=spacing,
        far_half_name=half_name,
        far_half=half_box,
        far_half_seen_fraction=float(grid[half_mask].mean()) if half_mask.any() else 0.0,
        seen_fraction=float(grid.mean()),
    )


def dead_ground(a: CoverageGrid, b: CoverageGrid) -> np.ndarray:
    """Dead ground: the cells neither side sees from its deployment zone.

    Parameters
    ----------
    a, b : CoverageGrid
        The two sides' coverage, on the same grid.

    Returns
    -------
    ndarray of bool, shape (ny, nx)
        True where neither sees.

    Raises
    ------
    ValueError
        The grids differ.
    """
    if a.seen.shape != b.seen.shape or not (
        np.array_equal(a.xs, b.xs) and np.array_equal(a.ys, b.ys)
    ):
        raise ValueError("the two coverages are not on the same grid")
    return ~(a.seen | b.seen)
