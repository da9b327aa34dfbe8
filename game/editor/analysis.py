"""Is this table fair? The map editor's statistics and balance views.

- :func:`map_statistics`: terrain shares of the table and of each half, road lengths, town
  area and the two forces' points as the seed scenario sheets count them, from a scenario
  dict that may still be invalid.
- :func:`sight_coverage`: which ground a side can see from its deployment zone, with the
  engine's own sight rules (:meth:`game.rules.geometry.Table.sight_matrix`).
- :func:`movement_cost_field`: the movement points a stand needs to reach each point of the
  table from its side's entry edge or deployment zone, each step charged by the engine
  (:meth:`game.rules.geometry.Table.step_costs`).

Nothing here re-implements a rule: sight and movement costs come from
``game/rules/geometry.py``. Units: inches for lengths and coordinates (origin bottom-left, x
right, y up), square inches for areas, movement points (MP) for costs. Grids are numpy arrays
of shape (ny, nx): row j holds the cells whose centre has y = ``ys[j]``, column i those with
x = ``xs[i]``.

The views are meant to run in a background thread of the editor: each builds its own copy of
the table, because GEOS prepared geometries are not safe to share between threads
(libgeos/geos#825; two threads asking sight of one :class:`Table` crash the interpreter), and
each takes a ``cancel`` callable, polled between pieces of work, that stops it by raising
:class:`Cancelled`.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import shape

from game import STAND_SIZE_IN, RulesData, Scenario, StandPose, Table, TerrainFeature

ZONE_DEPTH_IN = 6.0
"""Depth (inches) of a side's deployment zone along its entry edge."""

OBSERVER_SPACING_IN = 1.0
"""Default largest distance (inches) between neighbouring sample observers in a deployment
zone. Measured on the benchmark map (tools/bench_editor_views.py --reference, 72"x48", 300
polygons): of the ground seen from observers every 0.5" over a 6" entry strip, 1" spacing
(334 observers, about 1.0-1.5 s) misses 2.2%, 1.5" 4.4%, 2" 6.3%."""

MAX_OBSERVERS = 400
"""A zone is sampled by at most this many observers: a larger zone (half the table, for a side
with no entry edge) gets a wider spacing, so the view stays within its time. On the benchmark
map's half-table zone that is 388 observers 2.2" apart (about 1.3 s), which miss 3.0% of the
ground seen from observers every 1"."""

MAX_CELLS = 4_000_000
"""Largest grid the views compute (a 1000"x1000" table at 0.5")."""

_OBSERVER_BATCH = 4  # observers asked about the still-unseen cells at once
_CANCEL_EVERY = 2048  # Dijkstra settles this many cells between polls of ``cancel``

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


def _own_table(table: Table) -> Table:
    """A copy of a table with geometries of its own (WKB round trip: the same coordinates to
    the last bit), so a view in a background thread shares no prepared geometry with the
    caller's table (libgeos/geos#825)."""
    geoms = shapely.from_wkb(shapely.to_wkb([f.geometry for f in table.features]))
    feats = [
        TerrainFeature(f.kind, g, f.level, f.index)
        for f, g in zip(table.features, geoms, strict=True)
    ]
    return Table(table.width, table.depth, feats, table.terrain_types)


def _poll(cancel: CancelCheck) -> None:
    if cancel is not None and cancel():
        raise Cancelled("stopped by the caller")


# --------------------------------------------------------------------------- statistics


@dataclass(frozen=True)
class SkippedFeature:
    """A terrain feature :func:`map_statistics` left out: its index in the FeatureCollection
    and why."""

    index: int
    reason: str


@dataclass(frozen=True)
class TerrainShares:
    """The terrain of one region of the table (the whole table or a half).

    Attributes
    ----------
    name : str
        ``"table"``, ``"left"``, ``"right"``, ``"bottom"`` or ``"top"``.
    box : (x0, y0, x1, y1)
        The region, inches.
    area_sq_in : float
        Its area, square inches.
    area_pct : dict of str to float
        Percent of the region under each area type on the table (overlapping features of one
        type counted once); every type found anywhere on the table is a key, 0 where absent.
    hill_pct : dict of int to float
        Percent of the region at each ground level >= 1 (the highest hill polygon holding a
        point gives its level: rules-decisions "Hills").
    road_in : dict of str to float
        Length of road centre line of each road type in the region, inches (overlapping roads
        of one type counted once).
    town_sq_in : float
        Light and heavy buildings together, square inches.
    """

    name: str
    box: Box
    area_sq_in: float
    area_pct: dict[str, float]
    hill_pct: dict[int, float]
    road_in: dict[str, float]
    town_sq_in: float


@dataclass(frozen=True)
class ForcePoints:
    """One force's points as the seed scenario sheets count them: for each unit type, the
    number of stands x the unit's points x the force's cohesion / 10 (000 and 001 "Create your
    own Tank Scenario": 10 T-80U x 427 x 1.5 = 6405).

    Attributes
    ----------
    side_id : str
        The side.
    cohesion : float
        The force's cohesion level (0 when the file has none).
    stands : int
        Its stands, unknown units included.
    points : float
        Its points; a unit not in the ruleset's tank table counts 0.
    """

    side_id: str
    cohesion: float
    stands: int
    points: float


@dataclass(frozen=True)
class MapStats:
    """What :func:`map_statistics` finds.

    Attributes
    ----------
    width_in, depth_in : float
        Table size, inches.
    table : TerrainShares
        The whole table.
    halves : (TerrainShares, TerrainShares)
        The two halves of :func:`table_halves`, the one nearer the origin first.
    area_diff_pct, hill_diff_pct : dict
        First half minus second, percentage points, per area type and per ground level.
    road_diff_in : dict of str to float
        First half minus second, inches of road, per road type.
    town_diff_sq_in : float
        First half minus second, square inches of buildings.
    forces : tuple of ForcePoints
        Each side of the file, in its order.
    points_ratio : float or None
        The larger force's points over the smaller's (``inf`` when only the smaller is 0;
        None when both are 0 or the file has fewer than two sides).
    unknown_units : tuple of str
        Unit names not in the ruleset's tank table, each once, in file order.
    skipped : tuple of SkippedFeature
        Terrain features left out: unknown type, a geometry Shapely cannot build, an invalid,
        empty or non-finite one, the wrong geometry type for the terrain type, a hill without
        a level.
    """

    width_in: float
    depth_in: float
    table: TerrainShares
    halves: tuple[TerrainShares, TerrainShares]
    area_diff_pct: dict[str, float]
    hill_diff_pct: dict[int, float]
    road_diff_in: dict[str, float]
    town_diff_sq_in: float
    forces: tuple[ForcePoints, ...]
    points_ratio: float | None
    unknown_units: tuple[str, ...]
    skipped: tuple[SkippedFeature, ...]

    @property
    def n_skipped(self) -> int:
        """How many terrain features were left out."""
        return len(self.skipped)


_TOWN = ("light_buildings", "heavy_buildings")


def _usable_features(raw: dict, data: RulesData) -> tuple[list, list[SkippedFeature]]:
    """(kind, geometry, level) of every feature Shapely can build and the chart knows, and the
    others with the reason they were left out."""
    terrain = raw.get("terrain")
    features = terrain.get("features") if isinstance(terrain, dict) else None
    if not isinstance(features, list):
        return [], []
    usable, skipped = [], []
    for i, feat in enumerate(features):
        props = feat.get("properties") if isinstance(feat, dict) else None
        kind = props.get("terrain") if isinstance(props, dict) else None
        if kind == "hill":
            want = ("Polygon", "MultiPolygon")
        elif isinstance(kind, str) and kind in data.terrain:
            gkind = data.terrain[kind].geometry
            if gkind not in ("area", "road"):
                skipped.append(SkippedFeature(i, f"{kind!r} cannot be drawn"))
                continue
            want = (
                ("Polygon", "MultiPolygon")
                if gkind == "area"
                else ("LineString", "MultiLineString")
            )
        else:
            skipped.append(SkippedFeature(i, f"unknown terrain type {kind!r}"))
            continue
        level = props.get("level")
        if kind == "hill" and not (isinstance(level, int) and not isinstance(level, bool)):
            skipped.append(SkippedFeature(i, "a hill needs an integer level"))
            continue
        if kind == "hill" and level < 1:
            skipped.append(SkippedFeature(i, f"hill level {level} is below 1"))
            continue
        try:
            with np.errstate(invalid="ignore"):  # NaN coordinates are refused below
                geom = shape(feat["geometry"])
        except (
            KeyError,
            ValueError,
            TypeError,
            IndexError,
            AttributeError,
            shapely.errors.ShapelyError,
        ) as err:
            skipped.append(SkippedFeature(i, f"the geometry cannot be built ({err})"))
            continue
        if geom.geom_type not in want:
            skipped.append(SkippedFeature(i, f"{kind!r} must be a {' or '.join(want)}"))
            continue
        if geom.is_empty:
            skipped.append(SkippedFeature(i, "empty geometry"))
            continue
        if not np.isfinite(shapely.get_coordinates(geom)).all():
            skipped.append(SkippedFeature(i, "coordinates are not finite"))
            continue
        if not geom.is_valid:
            skipped.append(SkippedFeature(i, f"invalid geometry: {shapely.is_valid_reason(geom)}"))
            continue
        usable.append((kind, geom, level if kind == "hill" else 0))
    return usable, skipped


def _shares(
    name: str,
    box: Box,
    areas: dict[str, shapely.Geometry],
    levels: dict[int, shapely.Geometry],
    roads: dict[str, shapely.Geometry],
    town: shapely.Geometry,
) -> TerrainShares:
    region = shapely.box(*box)
    size = region.area
    return TerrainShares(
        name=name,
        box=box,
        area_sq_in=size,
        area_pct={k: 100.0 * g.intersection(region).area / size for k, g in areas.items()},
        hill_pct={lv: 100.0 * g.intersection(region).area / size for lv, g in levels.items()},
        road_in={k: g.intersection(region).length for k, g in roads.items()},
        town_sq_in=town.intersection(region).area,
    )


def _as_list(value: object) -> list:
    return value if isinstance(value, list) else []


def _forces(raw: dict, data: RulesData) -> tuple[tuple[ForcePoints, ...], tuple[str, ...]]:
    try:
        units = data.units_for(raw.get("ruleset"))
    except (KeyError, TypeError):
        units = {}
    sides = [s for s in _as_list(raw.get("sides")) if isinstance(s, dict)]
    stands = [s for s in _as_list(raw.get("stands")) if isinstance(s, dict)]
    unknown: dict[str, None] = {}
    forces = []
    for s in sides:
        coh = s.get("cohesion")
        cohesion = float(coh) if isinstance(coh, int | float) and not isinstance(coh, bool) else 0.0
        if not math.isfinite(cohesion):
            cohesion = 0.0
        counts: dict[str, int] = {}
        for st in stands:
            if st.get("side") == s.get("id"):
                unit = str(st.get("unit"))
                counts[unit] = counts.get(unit, 0) + 1
        points = 0.0
        for unit, n in counts.items():
            if unit in units:
                points += n * units[unit].points * cohesion / 10
            else:
                unknown.setdefault(unit)
        forces.append(ForcePoints(str(s.get("id")), cohesion, sum(counts.values()), points))
    for st in stands:  # stands of no listed side still name their unknown units
        unit = str(st.get("unit"))
        if unit not in units:
            unknown.setdefault(unit)
    return tuple(forces), tuple(unknown)


def _ratio(points: list[float]) -> float | None:
    """The larger of two forces' points over the smaller; inf when only the smaller is 0, None
    when both are 0 or there are fewer than two."""
    if len(points) < 2 or max(points) == 0:
        return None
    return max(points) / min(points) if min(points) > 0 else math.inf


def map_statistics(raw: dict, data: RulesData) -> MapStats:
    """Terrain shares, road lengths, town area and the forces' points of a scenario being drawn.

    Parameters
    ----------
    raw : dict
        A scenario's JSON (``hulldown-scenario/1``), possibly invalid: features that cannot be
        used are left out and listed in ``skipped``; only the parts on the table count.
    data : RulesData
        The rules' tables (the terrain chart and the tank tables).

    Returns
    -------
    MapStats
        Shares of the table and of each half (:func:`table_halves`) under each area type and
        at each hill level (percent), road length per type (inches), town area (light and heavy
        buildings, square inches), the halves' differences, and each force's points: stands x
        unit points x cohesion / 10 (the seed scenario sheets) and their ratio. The seed sheets
        ask for 10-30% woods, towns of 7 sq in and each half of the table alike
        (rules-decisions "The seed scenarios").

    Raises
    ------
    ValueError
        The file has no usable table size (``table.width`` and ``table.depth``, more than 0
        and at most 1000 inches, as the format allows).
    """
    try:
        width = float(raw["table"]["width"])
        depth = float(raw["table"]["depth"])
    except (KeyError, TypeError, ValueError):
        raise ValueError("the scenario has no usable table width and depth") from None
    if not (0 < width <= 1000 and 0 < depth <= 1000):  # NaN fails too
        raise ValueError(
            f'a table is more than 0" and at most 1000" each way, not {width!r}x{depth!r}'
        )
    halves = table_halves(width, depth)
    table_box = shapely.box(0, 0, width, depth)
    usable, skipped = _usable_features(raw, data)

    def union(geoms: list) -> shapely.Geometry:
        return shapely.intersection(shapely.union_all(geoms), table_box)

    by_area: dict[str, list] = {}
    by_road: dict[str, list] = {}
    by_level: dict[int, list] = {}
    for kind, geom, level in usable:
        if kind == "hill":
            by_level.setdefault(level, []).append(geom)
        elif data.terrain[kind].geometry == "area":
            by_area.setdefault(kind, []).append(geom)
        else:
            by_road.setdefault(kind, []).append(geom)
    areas = {k: union(v) for k, v in sorted(by_area.items())}
    roads = {k: union(v) for k, v in sorted(by_road.items())}
    town = union([g for k in _TOWN for g in by_area.get(k, [])])
    # ground at exactly level L: the level-L hills less everything higher
    level_unions = {lv: union(v) for lv, v in sorted(by_level.items())}
    levels = {}
    for lv, g in level_unions.items():
        higher = [h for hl, h in level_unions.items() if hl > lv]
        levels[lv] = g.difference(shapely.union_all(higher)) if higher else g
    table = _shares("table", (0.0, 0.0, width, depth), areas, levels, roads, town)
    first, second = (_shares(n, b, areas, levels, roads, town) for n, b in halves)
    forces, unknown = _forces(raw, data)
    ratio = _ratio([f.points for f in forces[:2]])
    return MapStats(
        width_in=width,
        depth_in=depth,
        table=table,
        halves=(first, second),
        area_diff_pct={k: first.area_pct[k] - second.area_pct[k] for k in areas},
        hill_diff_pct={lv: first.hill_pct[lv] - second.hill_pct[lv] for lv in levels},
        road_diff_in={k: first.road_in[k] - second.road_in[k] for k in roads},
        town_diff_sq_in=first.town_sq_in - second.town_sq_in,
        forces=forces,
        points_ratio=ratio,
        unknown_units=unknown,
        skipped=tuple(skipped),
    )


# --------------------------------------------------------------------------- sight coverage


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


def _box_mask(xs: np.ndarray, ys: np.ndarray, box: Box, width: float, depth: float) -> np.ndarray:
    """Cells (shape (ny, nx)) whose centre lies in a half or zone: inside the box, its far
    edges open except at the table's own edge, so the two halves share no cell."""
    x0, y0, x1, y1 = box
    in_x = (xs >= x0) & ((xs < x1) | (x1 >= width))
    in_y = (ys >= y0) & ((ys < y1) | (y1 >= depth))
    return in_y[:, None] & in_x[None, :]


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
    table = _own_table(scenario.table)
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


# --------------------------------------------------------------------------- movement cost


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
    table = _own_table(scenario.table)
    w, d = table.width, table.depth
    xs, ys = cell_centres(w, d, resolution_in)
    nx, ny = len(xs), len(ys)
    n = nx * ny
    jj, ii = np.divmod(np.arange(n), nx)  # row and column of each cell
    _poll(cancel)

    # every directed step between neighbouring centres, costed by the engine in one call
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
    adj: list[list[tuple[int, float]]] = [[] for _ in range(n)]
    for u, v, c in zip(u_all[fin].tolist(), v_all[fin].tolist(), step[fin].tolist(), strict=True):
        adj[u].append((v, c))

    dist = [math.inf] * n
    if side.entry_edge is not None:
        edge = side.entry_edge
        if edge in ("left", "right"):
            col = 0 if edge == "left" else nx - 1
            cells = np.arange(ny) * nx + col
            ex = np.full(ny, 0.0 if edge == "left" else w)
            ey = ys
        else:
            row = 0 if edge == "bottom" else ny - 1
            cells = row * nx + np.arange(nx)
            ex = xs
            ey = np.full(nx, 0.0 if edge == "bottom" else d)
        entry = table.step_costs(ex, ey, xs[ii[cells]], ys[jj[cells]], movement_class)
        origin = f"{edge} edge"
    else:
        zone = _box_mask(xs, ys, deployment_zone(scenario, side_id), w, d).ravel()
        cells = np.nonzero(zone)[0]
        here, _ = table.move_costs_at(xs[ii[cells]], ys[jj[cells]], movement_class)
        entry = np.where(np.isfinite(here), 0.0, math.inf)
        origin = "zone"
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
