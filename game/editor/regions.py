"""What the map editor's statistics and balance views share: the halves of the table, the
deployment zones and the half facing one, the grid of cells over the table, and the views'
machinery (:class:`Cancelled`, the private copy of a table each view builds for its thread).

Units: inches for lengths and coordinates (origin bottom-left, x right, y up). Grids are numpy
arrays of shape (ny, nx): row j holds the cells whose centre has y = ``ys[j]``, column i those
with x = ``xs[i]``. :mod:`game.editor.analysis` gathers the views' public names.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import shapely

from game import Scenario, Table, TerrainFeature

ZONE_DEPTH_IN = 6.0
"""Depth (inches) of a side's deployment zone along its entry edge."""

MAX_CELLS = 4_000_000
"""Largest grid the views compute (a 1000"x1000" table at 0.5")."""

CancelCheck = Callable[[], bool] | None

Box = tuple[float, float, float, float]
"""An axis-aligned rectangle (x0, y0, x1, y1), inches."""


class Cancelled(Exception):
    """The caller's ``cancel`` callable asked a view to stop before it finished."""


# --------------------------------------------------------------------------- halves and zones


def table_halves(width: float, depth: float) -> tuple[tuple[str, Box], tuple[str, Box]]:
    """The two halves of a table, split across its long axis: ``("left", ...)`` and
    ``("right", ...)`` (x below and from width / 2) when the table is at least as wide as it is
    deep, else ``("bottom", ...)`` and ``("top", ...)`` (y below and from depth / 2). The seed
    scenario sheets want each half of the table alike (rules-decisions "The seed scenarios").

    Parameters
    ----------
    width, depth : float
        Table size in inches.

    Returns
    -------
    tuple of two (name, (x0, y0, x1, y1))
        Name and rectangle (inches) of each half, the one nearer the origin first.

    Raises
    ------
    ValueError
        A size that is not a positive finite number.
    """
    if not (math.isfinite(width) and math.isfinite(depth) and width > 0 and depth > 0):
        raise ValueError(f"a table size must be positive inches, not {width!r} x {depth!r}")
    if width >= depth:
        mid = width / 2
        return ("left", (0.0, 0.0, mid, depth)), ("right", (mid, 0.0, width, depth))
    mid = depth / 2
    return ("bottom", (0.0, 0.0, width, mid)), ("top", (0.0, mid, width, depth))


def _in_half(xs: np.ndarray, ys: np.ndarray, width: float, depth: float, first: bool) -> np.ndarray:
    """Which points (inches, arrays that broadcast) lie in the first (or second) half of
    :func:`table_halves`: below the middle of the long axis, or from it on."""
    lo = xs < width / 2 if width >= depth else ys < depth / 2
    return lo if first else ~lo


def _side(scenario: Scenario, side_id: str):
    for s in scenario.spec.sides:
        if s.id == side_id:
            return s
    known = ", ".join(s.id for s in scenario.spec.sides)
    raise ValueError(f"no side {side_id!r} in the scenario (sides: {known})")


def deployment_zone(scenario: Scenario, side_id: str) -> Box:
    """Where a side deploys, for the balance views: the strip 6" deep along its entry edge (the
    seed scenario sheets have both forces enter from the narrow edges on turn 1; 6" is the
    editor's reading of where they stand once on), or, for a side with no entry edge, the half of the table (:func:`table_halves`) nearer the mean position of
    its stands (the first half when the mean lies exactly on the middle).

    Parameters
    ----------
    scenario : Scenario
        A validated scenario.
    side_id : str
        The side's id.

    Returns
    -------
    (x0, y0, x1, y1)
        The zone, inches.

    Raises
    ------
    ValueError
        No such side, or a side with no entry edge and no stands.
    """
    side = _side(scenario, side_id)
    w, d = scenario.table.width, scenario.table.depth
    deep = ZONE_DEPTH_IN
    if side.entry_edge == "left":
        return (0.0, 0.0, min(deep, w), d)
    if side.entry_edge == "right":
        return (max(w - deep, 0.0), 0.0, w, d)
    if side.entry_edge == "bottom":
        return (0.0, 0.0, w, min(deep, d))
    if side.entry_edge == "top":
        return (0.0, max(d - deep, 0.0), w, d)
    mine = [st for st in scenario.spec.stands if st.side == side_id]
    if not mine:
        raise ValueError(f"side {side_id!r} has no entry edge and no stands to place its zone")
    mx = sum(st.x for st in mine) / len(mine)
    my = sum(st.y for st in mine) / len(mine)
    (_, first), (_, second) = table_halves(w, d)
    along, mid = (mx, w / 2) if w >= d else (my, d / 2)
    return first if along <= mid else second


def far_half(width: float, depth: float, zone: Box) -> tuple[str, Box]:
    """The half of the table facing a deployment zone: of the halves of :func:`table_halves`,
    the one that does not hold the zone's centre; when the zone's centre lies on the middle of
    the long axis (a strip along a long edge), the half across the short axis away from it.

    Parameters
    ----------
    width, depth : float
        Table size, inches.
    zone : (x0, y0, x1, y1)
        The zone, inches.

    Returns
    -------
    (name, (x0, y0, x1, y1))
        ``"left"``, ``"right"``, ``"bottom"`` or ``"top"`` and the half's rectangle.

    Raises
    ------
    ValueError
        A size that is not a positive finite number.
    """
    halves = table_halves(width, depth)
    cx, cy = (zone[0] + zone[2]) / 2, (zone[1] + zone[3]) / 2
    wide = width >= depth
    along, mid = (cx, width / 2) if wide else (cy, depth / 2)
    if not math.isclose(along, mid, abs_tol=1e-9):
        return halves[1] if along < mid else halves[0]
    # a strip along a long edge: split the other way
    if wide:
        low, high = (
            ("bottom", (0.0, 0.0, width, depth / 2)),
            ("top", (0.0, depth / 2, width, depth)),
        )
        return high if cy < depth / 2 else low
    low, high = ("left", (0.0, 0.0, width / 2, depth)), ("right", (width / 2, 0.0, width, depth))
    return high if cx < width / 2 else low


def cell_centres(width: float, depth: float, resolution_in: float) -> tuple[np.ndarray, np.ndarray]:
    """Centres of a grid of square cells over the table, from the bottom-left corner.

    Cells are ``resolution_in`` inches on a side; where the table is not a whole number of
    cells, the last column (row) is the part left over and its centre the middle of that part.

    Parameters
    ----------
    width, depth : float
        Table size, inches.
    resolution_in : float
        Cell size, inches.

    Returns
    -------
    xs : ndarray, shape (nx,)
        Column centres, inches.
    ys : ndarray, shape (ny,)
        Row centres, inches.

    Raises
    ------
    ValueError
        A resolution that is not a positive finite number, or a grid of more than
        :data:`MAX_CELLS` cells.
    """
    if not (isinstance(resolution_in, int | float) and math.isfinite(resolution_in)):
        raise ValueError(f"the resolution must be a number of inches, not {resolution_in!r}")
    if resolution_in <= 0:
        raise ValueError(f"the resolution must be more than 0 inches, not {resolution_in:g}")
    nx = max(1, math.ceil(width / resolution_in - 1e-9))
    ny = max(1, math.ceil(depth / resolution_in - 1e-9))
    if nx * ny > MAX_CELLS:
        raise ValueError(
            f'a {resolution_in:g}" grid over a {width:g}"x{depth:g}" table has {nx * ny:,} '
            f"cells, more than {MAX_CELLS:,}"
        )

    def centres(n: int, size: float) -> np.ndarray:
        lo = np.arange(n) * resolution_in
        hi = np.minimum(lo + resolution_in, size)
        return (lo + hi) / 2

    return centres(nx, width), centres(ny, depth)


def _readonly(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def table_copy(table: Table) -> Table:
    """A copy of a table with geometries of its own (WKB round trip: the same coordinates to
    the last bit), so a view in a background thread shares no prepared geometry with the
    caller's table (libgeos/geos#825)."""
    geoms = shapely.from_wkb(shapely.to_wkb([f.geometry for f in table.features]))
    feats = [
        TerrainFeature(f.kind, g, f.level, f.index)
        for f, g in zip(table.features, geoms, strict=True)
    ]
    return Table(table.width, table.depth, feats, table.terrain_types, table.ground)


def _poll(cancel: CancelCheck) -> None:
    if cancel is not None and cancel():
        raise Cancelled("stopped by the caller")


def _box_mask(xs: np.ndarray, ys: np.ndarray, box: Box, width: float, depth: float) -> np.ndarray:
    """Cells (shape (ny, nx)) whose centre lies in a half or zone: inside the box, its far
    edges open except at the table's own edge, so the two halves share no cell."""
    x0, y0, x1, y1 = box
    in_x = (xs >= x0) & ((xs < x1) | (x1 >= width))
    in_y = (ys >= y0) & ((ys < y1) | (y1 >= depth))
    return in_y[:, None] & in_x[None, :]
