"""The geometry of the table, on Shapely 2: footprints, facing arcs, sight lines, ranges,
terrain under a point, movement costs and overlap.

Units: inches for lengths and coordinates (origin bottom-left, x right, y up), degrees for
facings (counter-clockwise from +x), movement points for costs. Everything here follows
``rules-decisions.md`` and is documented, with the rule numbers, in ``docs/rules.md``.

The :class:`Table` is built once per map (STRtrees and prepared geometries over its terrain);
stand positions are passed in as :class:`StandPose` values, so one code path answers the UI's
line-of-sight tool, the engine's fire check and the AI's sight matrix.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import shapely
from shapely import LineString, Polygon, STRtree

from game.rules.data import Ruleset, TerrainType

STAND_SIZE_IN = 1.0
HALF = STAND_SIZE_IN / 2
STEP_IN = 0.5  # movement is walked in half-inch steps (000 09.00.01)
CONTACT_IN = 0.01  # footprints this close are in base contact
OVERLAP_SQ_IN = 1e-6  # footprints overlapping more than this overlap
LENGTH_EPS_IN = 1e-6  # a sight line inside an area for more than this is blocked
TOUCH_IN = 1e-9  # a sight line this close to a stand's footprint touches it
ANGLE_EPS_DEG = 1e-6  # a shot this close to the arc boundary counts as front
ROAD_HALF_WIDTH_IN = 0.25  # a step within this of a road's centre line uses the road rate
SLOPE_BAND_IN = 1.0  # the slope is the band within 1" inside a hill's outline
FREE_MOVE_IN = 1.0  # a stand may always move 1" a phase over passable ground (000 08.03.03)
# Areas are shrunk by half the length tolerance before the sight-line predicate: a line that
# meets the shrunk area runs at least 2 * _ERODE_IN = LENGTH_EPS_IN inside the true one, and a
# line that only touches the true outline never meets it.
_ERODE_IN = LENGTH_EPS_IN / 2

Aspect = Literal["front", "flank"]
Edge = Literal["left", "right", "top", "bottom"]


@dataclass(frozen=True)
class StandPose:
    """Where a stand is, as the geometry needs it.

    x, y: centre in inches; facing_deg: degrees counter-clockwise from +x; side: its side's id;
    wreck: True for a wreck (never blocks sight, never overlaps); in_clear: True where the stand
    counts as in clear terrain for sight (WWII, after it fired: 001 6.1.2).
    """

    id: str
    side: str
    x: float
    y: float
    facing_deg: float
    wreck: bool = False
    in_clear: bool = False


def _cos_sin(facing_deg):
    """cos and sin of a facing (degrees; scalar or array), exact at the quarter turns so a
    table turned by 90 degrees gives the same footprints to the last bit."""
    a = np.radians(facing_deg)
    c, s = np.cos(a), np.sin(a)
    c = np.where(np.abs(c) < 1e-12, 0.0, np.where(np.abs(np.abs(c) - 1) < 1e-12, np.sign(c), c))
    s = np.where(np.abs(s) < 1e-12, 0.0, np.where(np.abs(np.abs(s) - 1) < 1e-12, np.sign(s), s))
    return c, s


def corners(x: float, y: float, facing_deg: float) -> list[tuple[float, float]]:
    """The four corners (inches) of a 1"x1" footprint centred on (x, y) at ``facing_deg``:
    front-left, front-right, back-right, back-left (rules-decisions "Coordinates and stands")."""
    c, s = (float(v) for v in _cos_sin(facing_deg))
    # front-left, front-right, back-right, back-left (front is along the facing)
    local = ((HALF, HALF), (HALF, -HALF), (-HALF, -HALF), (-HALF, HALF))
    return [(x + lx * c - ly * s, y + lx * s + ly * c) for lx, ly in local]


def heading_deg(x0: float, y0: float, x1: float, y1: float) -> float:
    """The heading (degrees, counter-clockwise from +x, in -180..180) of the line from
    (x0, y0) to (x1, y1) inches: the facing a stand driving along it has (rules-decisions
    "Coordinates and stands")."""
    return math.degrees(math.atan2(y1 - y0, x1 - x0))


def footprint(x: float, y: float, facing_deg: float) -> Polygon:
    """The 1"x1" square a stand covers, centred on (x, y) and turned to its facing
    (000 03.02, 001 3.2)."""
    return Polygon(corners(x, y, facing_deg))


def footprints(poses: Sequence[StandPose]) -> np.ndarray:
    """Footprints of many stands at once: an object array of Polygons, shape (n,)."""
    if not poses:
        return np.empty(0, dtype=object)
    xs = np.array([p.x for p in poses])
    ys = np.array([p.y for p in poses])
    c, s = _cos_sin(np.array([p.facing_deg for p in poses], dtype=float))
    lx = np.array([HALF, HALF, -HALF, -HALF])
    ly = np.array([HALF, -HALF, -HALF, HALF])
    cx = xs[:, None] + lx[None, :] * c[:, None] - ly[None, :] * s[:, None]
    cy = ys[:, None] + lx[None, :] * s[:, None] + ly[None, :] * c[:, None]
    return shapely.polygons(np.stack([cx, cy], axis=-1))


def front_edge(pose: StandPose) -> LineString:
    """The front edge of a stand's footprint (between its two front corners)."""
    fl, fr, _, _ = corners(pose.x, pose.y, pose.facing_deg)
    return LineString([fl, fr])


def _angle_off(facing_deg: np.ndarray, dx: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """Absolute angle in degrees (0..180) between a facing and the direction (dx, dy)."""
    bearing = np.degrees(np.arctan2(dy, dx))
    return np.abs((bearing - facing_deg + 180.0) % 360.0 - 180.0)


def in_front_arc(observer: StandPose, x: float, y: float) -> bool:
    """True when the point (x, y) lies in the observer's 90-degree front arc, measured from its
    centre; exactly on the boundary (within 1e-6 degrees) counts as inside (000 07.08.01,
    001 7.3.1, 001 10.0 for facing-restricted guns)."""
    off = _angle_off(
        np.float64(observer.facing_deg), np.float64(x - observer.x), np.float64(y - observer.y)
    )
    return bool(off <= 45.0 + ANGLE_EPS_DEG)


def aspect(target: StandPose, firer_x: float, firer_y: float) -> Aspect:
    """Which armour a shot from (firer_x, firer_y) hits: "front" when the centre-to-centre line
    lies within 45 degrees of the target's facing (boundary counts as front), else "flank"
    (000 07.08.01, 001 7.3.1)."""
    return "front" if in_front_arc(target, firer_x, firer_y) else "flank"


def centre_distance(a: StandPose, b: StandPose) -> float:
    """Centre-to-centre distance in inches (000 07.08.02)."""
    return math.hypot(a.x - b.x, a.y - b.y)


def range_band(distance_in: float, in_contact: bool = False) -> int:
    """The whole-inch range used on the range chart: the centre distance rounded up to the next
    whole inch (5.2" counts as 6"), 1" in base contact (000 07.08.03, 001 7.3.3)."""
    if in_contact:
        return 1
    return max(1, math.ceil(distance_in - 1e-9))


def base_contact(a: StandPose, b: StandPose) -> bool:
    """True when the two footprints touch (distance <= 0.01") (000 07.08.03)."""
    if centre_distance(a, b) > math.sqrt(2) + CONTACT_IN + 1e-9:
        return False
    fa = footprint(a.x, a.y, a.facing_deg)
    fb = footprint(b.x, b.y, b.facing_deg)
    return fa.distance(fb) <= CONTACT_IN


def engaged(stand: StandPose, enemy: StandPose) -> bool:
    """True when the enemy's footprint is in contact with at least half (0.5") of this stand's
    front edge (000 07.08.04, 001 7.3.4)."""
    if centre_distance(stand, enemy) > math.sqrt(2) + CONTACT_IN + 1e-9:
        return False
    near = footprint(enemy.x, enemy.y, enemy.facing_deg).buffer(CONTACT_IN, join_style="mitre")
    return front_edge(stand).intersection(near).length >= 0.5 - 1e-9


def overlaps(a: Polygon, b: Polygon) -> bool:
    """True when two footprints overlap by more than 1e-6 square inches (000 08.03.05)."""
    return a.intersection(b).area > OVERLAP_SQ_IN


def path_after(
    path: Sequence[tuple[float, float]], arc_in: float
) -> tuple[tuple[float, float], ...]:
    """The rest of the polyline ``path`` (inches) from ``arc_in`` inches along it: the point
    there first, then every later vertex. A stand that stopped part-way (to roll its nerve
    before passing through an enemy stand, 001 8.3.6) goes on along it. Raises ValueError for
    an empty path or a negative ``arc_in``; past the end it is the last point alone."""
    if not path:
        raise ValueError("a path needs at least its starting point")
    if arc_in < 0:
        raise ValueError(f"arc length {arc_in} is negative")
    pts = [(float(x), float(y)) for x, y in path]
    done = 0.0
    for i in range(len(pts) - 1):
        (x0, y0), (x1, y1) = pts[i], pts[i + 1]
        seg = math.hypot(x1 - x0, y1 - y0)
        if seg > 1e-12 and done + seg > arc_in + 1e-9:
            t = (arc_in - done) / seg
            return ((x0 + t * (x1 - x0), y0 + t * (y1 - y0)), *pts[i + 1 :])
        done += seg
    return (pts[-1],)


# --------------------------------------------------------------------------- sight


@dataclass(frozen=True)
class Sight:
    """What a firer sees of a target: the answer the LOS tool shows and the fire check uses.

    clear: True when nothing blocks and the target is within sighting distance.
    range_in: centre distance (inches). range_band_in: whole inches for the range chart.
    aspect: "front"/"flank" armour the shot would hit. max_sight_in: the firer's sighting
    distance including its height bonus. in_contact: footprints touch.
    blocked_by: what stops the shot: ("terrain", type, feature index), ("hill", level, feature
    index), ("stand", id), ("distance", None). segment: the sight line after the two
    footprints are taken off, as ((x0, y0), (x1, y1)), or None when they touch.
    """

    clear: bool
    range_in: float
    range_band_in: int
    aspect: Aspect
    max_sight_in: float
    in_contact: bool
    blocked_by: tuple[tuple, ...] = ()
    segment: tuple[tuple[float, float], tuple[float, float]] | None = None


@dataclass(frozen=True)
class SightMatrix:
    """Sight from every firer (rows) to every target (columns), each an array of shape (n, m).

    clear (bool), range_in (float inches), range_band_in (int), front (bool: the shot hits front
    armour). Pairs of a stand with itself are never clear.
    """

    firer_ids: tuple[str, ...]
    target_ids: tuple[str, ...]
    clear: np.ndarray
    range_in: np.ndarray
    range_band_in: np.ndarray
    front: np.ndarray


@dataclass(frozen=True)
class TerrainHere:
    """The terrain at a point: the area types containing it (base and additive), the ground
    level (0 with no hill), "slope"/"hilltop" or None, and the road type whose centre line is
    within 0.25" (or None)."""

    areas: tuple[str, ...]
    ground_level: int
    hill_zone: Literal["slope", "hilltop"] | None
    road: str | None


@dataclass(frozen=True)
class Walk:
    """The part of a planned path a stand can walk.

    points: the step points actually walked, start first (each 0.5" along the path from the
    previous but the last). mp_spent: movement points used, never more than mp_allowed (the
    free 1" move spends whatever the stand had). distance_in: length walked. stopped_by: None
    (the whole path), "mp", "impassable", "edge", "enemy" (the next step would overlap a stand
    it may not pass). road_rate: whether the last step was paid at a road's rate.
    step_costs: the movement points of each step. blocker: when stopped by "enemy", the index
    in ``no_pass`` of the footprint the next step would have overlapped, else None.
    """

    points: tuple[tuple[float, float], ...]
    mp_spent: float
    mp_allowed: float
    distance_in: float
    stopped_by: str | None
    road_rate: bool
    step_costs: tuple[float, ...] = field(default=())
    blocker: int | None = None


@dataclass(frozen=True)
class TerrainFeature:
    """One terrain feature of a map: its chart type (or "hill"), its geometry, its hill level
    (hills only) and its index in the scenario's FeatureCollection."""

    kind: str
    geometry: shapely.Geometry
    level: int = 0
    index: int = -1


def _erode(geom: shapely.Geometry) -> shapely.Geometry:
    return shapely.buffer(geom, -_ERODE_IN, join_style="mitre")


class Table:
    """The table of one map: its size and terrain, indexed once for fast queries.

    Parameters
    ----------
    width, depth : float
        Table size in inches (x from 0 to width, y from 0 to depth).
    features : sequence of TerrainFeature
        Areas (chart types with ``geometry == "area"``), roads (LineStrings) and hills.
    terrain_types : dict
        The terrain effects chart (``RulesData.terrain``).

    Raises
    ------
    KeyError
        A feature names a terrain type not in the chart.
    """

    def __init__(
        self,
        width: float,
        depth: float,
        features: Sequence[TerrainFeature],
        terrain_types: dict[str, TerrainType],
    ) -> None:
        self.width = float(width)
        self.depth = float(depth)
        self.terrain_types = terrain_types
        self.features = tuple(features)
        self.bounds = shapely.box(0, 0, self.width, self.depth)
        self._terrain_cache: dict[tuple[float, float], TerrainHere] = {}

        self.areas = [
            f
            for f in self.features
            if f.kind not in ("hill",) and terrain_types[f.kind].geometry == "area"
        ]
        self.roads = [
            f
            for f in self.features
            if f.kind != "hill" and terrain_types[f.kind].geometry == "road"
        ]
        self.hills = sorted((f for f in self.features if f.kind == "hill"), key=lambda f: f.level)

        area_geoms = [f.geometry for f in self.areas]
        self._area_tree = STRtree(area_geoms)
        self._area_kind = np.array([f.kind for f in self.areas], dtype=object)
        for g in area_geoms:
            shapely.prepare(g)

        self._impassable = [
            _erode(f.geometry) for f in self.areas if terrain_types[f.kind].move_cost("T") is None
        ]
        blocking = [f for f in self.areas if terrain_types[f.kind].blocks_sight]
        self._blocking = blocking
        self._blocking_eroded = np.array([_erode(f.geometry) for f in blocking], dtype=object)
        self._blocking_tree = STRtree(self._blocking_eroded)
        for g in self._blocking_eroded:
            shapely.prepare(g)
        # circles around and inside each shrunk area: a sight line farther from the centre than
        # the outer radius misses it, one closer to the inner centre than the inner radius is
        # inside it; only the lines between need an exact test
        if len(blocking):
            cent = shapely.centroid(self._blocking_eroded)
            self._outer_cx, self._outer_cy = shapely.get_x(cent), shapely.get_y(cent)
            self._outer_r = np.array(
                [
                    np.max(np.hypot(*(shapely.get_coordinates(g) - [cx, cy]).T)) + 1e-9
                    for g, cx, cy in zip(
                        self._blocking_eroded, self._outer_cx, self._outer_cy, strict=True
                    )
                ]
            )
            mic = shapely.maximum_inscribed_circle(self._blocking_eroded)
            start = shapely.get_point(mic, 0)
            self._inner_cx, self._inner_cy = shapely.get_x(start), shapely.get_y(start)
            self._inner_r = np.maximum(shapely.length(mic) * (1 - 1e-6) - 1e-9, 0.0)

        self._road_tree = STRtree([f.geometry for f in self.roads])
        self._road_kind = [f.kind for f in self.roads]
        self._road_cost = [terrain_types[k].move_cost("T") for k in self._road_kind]

        hill_geoms = [f.geometry for f in self.hills]
        for g in hill_geoms:
            shapely.prepare(g)
        self._hill_geoms = np.array(hill_geoms, dtype=object)
        self._hill_levels = np.array([f.level for f in self.hills], dtype=int)
        self._hill_tree = STRtree(self._hill_geoms)
        self._hill_eroded = np.array([_erode(g) for g in hill_geoms], dtype=object)
        self._hill_eroded_tree = STRtree(self._hill_eroded)
        crests = [shapely.buffer(g, -SLOPE_BAND_IN, join_style="mitre") for g in hill_geoms]
        for g in crests:
            shapely.prepare(g)
        self._hill_crests = np.array(crests, dtype=object)

    @property
    def hill_crests(self) -> tuple:
        """The hilltop (crest) of each hill in ``hills``, in the same order: the hill less the
        1" slope band inside its outline (rules-decisions "Hills"); may be empty."""
        return tuple(self._hill_crests)

    # ---------------------------------------------------------------- points

    def on_table(self, x: float, y: float) -> bool:
        """True when (x, y) is on the table (edges included)."""
        return 0.0 <= x <= self.width and 0.0 <= y <= self.depth

    def _hill_index(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """Index of the highest hill polygon covering each point, -1 for none."""
        out = np.full(len(xs), -1, dtype=int)
        if len(self.hills) == 0 or len(xs) == 0:
            return out
        pts = shapely.points(xs, ys)
        pi, hi = self._hill_tree.query(pts, predicate="intersects")
        # hills are sorted by level, so the last hit per point is the highest
        for p, h in zip(pi, hi, strict=True):
            if out[p] < 0 or self._hill_levels[h] >= self._hill_levels[out[p]]:
                out[p] = h
        return out

    def ground_levels(self, xs: Sequence[float], ys: Sequence[float]) -> np.ndarray:
        """Ground level at each point: the highest level of the hills containing it, 0 if none
        (rules-decisions "Hills")."""
        xs = np.asarray(xs, dtype=float)
        idx = self._hill_index(xs, np.asarray(ys, dtype=float))
        return np.where(
            idx >= 0, self._hill_levels[np.maximum(idx, 0)] if len(self.hills) else 0, 0
        )

    def ground_level(self, x: float, y: float) -> int:
        """Ground level at one point (see :meth:`ground_levels`)."""
        return int(self.ground_levels([x], [y])[0])

    def terrain_at(self, x: float, y: float) -> TerrainHere:
        """The terrain at (x, y): what a stand centred there is in (rules-decisions "Range and
        fire": a stand is in the terrain under its centre) and what a step there costs.
        Answers are kept (the terrain never changes), so asking again is cheap."""
        key = (float(x), float(y))
        here = self._terrain_cache.get(key)
        if here is None:
            if len(self._terrain_cache) > 50_000:
                self._terrain_cache.clear()
            here = self._terrain_cache[key] = self._terrain_many(np.array([x]), np.array([y]))[0]
        return here

    def _terrain_many(self, xs: np.ndarray, ys: np.ndarray) -> list[TerrainHere]:
        pts = shapely.points(xs, ys)
        n = len(xs)
        areas: list[list[str]] = [[] for _ in range(n)]
        if self.areas:
            pi, ai = self._area_tree.query(pts, predicate="intersects")
            for p, a in zip(pi, ai, strict=True):
                areas[p].append(self._area_kind[a])
        roads: list[str | None] = [None] * n
        if self.roads:
            pi, ri = self._road_tree.query(pts, predicate="dwithin", distance=ROAD_HALF_WIDTH_IN)
            for p, r in zip(pi, ri, strict=True):
                # the cheapest road wins where roads meet
                if roads[p] is None or self._road_cost[r] < self.terrain_types[roads[p]].move_cost(
                    "T"
                ):
                    roads[p] = self._road_kind[r]
        hidx = self._hill_index(xs, ys)
        out = []
        for i in range(n):
            h = hidx[i]
            if h < 0:
                level, zone = 0, None
            else:
                level = int(self._hill_levels[h])
                crest = self._hill_crests[h]
                on_crest = (not crest.is_empty) and shapely.intersects_xy(crest, xs[i], ys[i])
                zone = "hilltop" if on_crest else "slope"
            out.append(TerrainHere(tuple(sorted(areas[i])), level, zone, roads[i]))
        return out

    def _step_costs(
        self, xs: np.ndarray, ys: np.ndarray, movement_class: str
    ) -> tuple[list[float | None], list[bool]]:
        """Per-inch cost at each point and whether it is a road rate (rules-decisions
        "Movement")."""
        costs: list[float | None] = []
        on_road: list[bool] = []
        for here in self._terrain_many(xs, ys):
            base = 1.0  # clear
            extra = 0.0
            blocked = False
            for kind in here.areas:
                t = self.terrain_types[kind]
                c = t.move_cost(movement_class)
                if c is None:
                    blocked = True
                elif t.additive:
                    if not t.leaving_only:
                        extra += c
                else:
                    base = max(base, c)
            road = False
            if here.road is not None and not blocked:
                rc = self.terrain_types[here.road].move_cost(movement_class)
                if rc is not None:
                    base, road = rc, True
            if here.hill_zone is not None:
                zc = self.terrain_types[here.hill_zone].move_cost(movement_class)
                if zc is None:
                    blocked = True
                else:
                    extra += zc
            costs.append(None if blocked else base + extra)
            on_road.append(road)
        return costs, on_road

    def _leaving_costs(
        self, x0: float, y0: float, x1: float, y1: float, movement_class: str
    ) -> float:
        """Costs paid only when a step leaves an area (minefield, 002 chart *)."""
        total = 0.0
        for f in self.areas:
            t = self.terrain_types[f.kind]
            if (
                t.leaving_only
                and shapely.intersects_xy(f.geometry, x0, y0)
                and not shapely.intersects_xy(f.geometry, x1, y1)
            ):
                total += t.move_cost(movement_class) or 0.0
        return total

    # ---------------------------------------------------------------- movement

    def walk(
        self,
        path: Sequence[tuple[float, float]],
        mp_allowed: float,
        movement_class: str = "T",
        free_in: float = FREE_MOVE_IN,
        no_pass: Sequence[Polygon] = (),
    ) -> Walk:
        """Walk a planned path in 0.5" steps and say how far the stand gets.

        Parameters
        ----------
        path : sequence of (x, y)
            The polyline in inches, the stand's centre first.
        mp_allowed : float
            Movement points the stand has (000 08.03.01).
        movement_class : "T", "W" or "F"
            Which column of the terrain chart to pay.
        free_in : float
            Distance (inches) still covered by the free 1" move (000 08.03.03, 001 8.3.3).
        no_pass : sequence of Polygon
            Footprints the stand may not move into (enemy stands, Modern; WWII stops adjacent).

        Each step costs its length times the per-inch cost at its midpoint: the most expensive
        base area there (or the road rate within 0.25" of a road's centre line) plus every
        additive effect (slope, hilltop, smoke, wire; minefield when leaving)
        (000 08.03.02, 09.00.01). A step that cannot be paid is not taken unless the whole
        move so far is within ``free_in``; impassable ground, the table edge and ``no_pass``
        footprints stop the stand before the step.
        """
        pts = np.asarray(path, dtype=float).reshape(-1, 2)
        if len(pts) == 0:
            raise ValueError("a path needs at least its starting point")
        seg = np.diff(pts, axis=0)
        seg_len = np.hypot(seg[:, 0], seg[:, 1]) if len(seg) else np.zeros(0)
        keep = np.concatenate([[True], seg_len > 1e-12]) if len(seg) else np.array([True])
        pts = pts[keep]
        seg = np.diff(pts, axis=0)
        seg_len = np.hypot(seg[:, 0], seg[:, 1]) if len(seg) else np.zeros(0)
        total = float(seg_len.sum())
        start = (float(pts[0, 0]), float(pts[0, 1]))
        if total <= 1e-12:
            return Walk((start,), 0.0, mp_allowed, 0.0, None, False)

        n_steps = math.ceil(total / STEP_IN - 1e-9)
        s = np.minimum(np.arange(n_steps + 1) * STEP_IN, total)
        s[-1] = total
        cum = np.concatenate([[0.0], np.cumsum(seg_len)])

        def at(arc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            i = np.clip(np.searchsorted(cum, arc, side="right") - 1, 0, len(seg_len) - 1)
            t = (arc - cum[i]) / seg_len[i]
            return pts[i, 0] + t * seg[i, 0], pts[i, 1] + t * seg[i, 1]

        bx, by = at(s)
        mx, my = at((s[:-1] + s[1:]) / 2)
        per_inch, road = self._step_costs(mx, my, movement_class)
        # only a step whose footprint's reach (half its diagonal) meets a no-pass footprint's
        # bounding box can overlap it: the others build no polygon and query no tree
        near = np.zeros(n_steps, dtype=bool)
        if len(no_pass):
            box = shapely.bounds(np.asarray(list(no_pass), dtype=object))
            r = HALF * math.sqrt(2) + 1e-9
            ex, ey = bx[1:, None], by[1:, None]
            near = (
                (ex + r >= box[None, :, 0])
                & (ex - r <= box[None, :, 2])
                & (ey + r >= box[None, :, 1])
                & (ey - r <= box[None, :, 3])
            ).any(axis=1)
        no_pass_tree = STRtree(list(no_pass)) if near.any() else None

        walked = [start]
        spent = 0.0
        costs: list[float] = []
        stopped: str | None = None
        blocker: int | None = None
        last_road = False
        for k in range(n_steps):
            x1, y1 = float(bx[k + 1]), float(by[k + 1])
            length = float(s[k + 1] - s[k])
            if not self.on_table(x1, y1):
                stopped = "edge"
                break
            if per_inch[k] is None:
                stopped = "impassable"
                break
            cost = length * per_inch[k] + self._leaving_costs(
                float(bx[k]), float(by[k]), x1, y1, movement_class
            )
            within_free = s[k + 1] <= free_in + 1e-9
            if spent + cost > mp_allowed + 1e-9 and not within_free:
                stopped = "mp"
                break
            if near[k]:
                heading = math.degrees(math.atan2(y1 - by[k], x1 - bx[k]))
                fp = footprint(x1, y1, heading)
                hits = no_pass_tree.query(fp, predicate="intersects")
                over = sorted(int(h) for h in hits if overlaps(fp, no_pass[h]))
                if over:
                    stopped, blocker = "enemy", over[0]
                    break
            spent += cost
            costs.append(cost)
            walked.append((x1, y1))
            last_road = road[k]
        return Walk(
            points=tuple(walked),
            mp_spent=min(spent, mp_allowed),
            mp_allowed=mp_allowed,
            distance_in=float(s[len(walked) - 1]),
            stopped_by=stopped,
            road_rate=last_road,
            step_costs=tuple(costs),
            blocker=blocker,
        )

    def crosses_impassable(self, path: Sequence[tuple[float, float]]) -> bool:
        """True when the polyline ``path`` (inches) runs into ground no stand may enter (the
        project's ``impassable`` areas) for more than 1e-6"."""
        if not self._impassable:
            return False
        line = LineString(path) if len(path) > 1 else shapely.Point(path[0])
        return any(shapely.intersects(g, line) for g in self._impassable)

    def path_cost(
        self, path: Sequence[tuple[float, float]], movement_class: str = "T"
    ) -> float | None:
        """Movement points to walk the whole path in 0.5" steps with no limit (None if it
        crosses impassable ground or leaves the table) (000 09.00.01)."""
        w = self.walk(path, math.inf, movement_class, free_in=0.0)
        return None if w.stopped_by else sum(w.step_costs)

    def move_costs_at(
        self, xs: Sequence[float], ys: Sequence[float], movement_class: str = "T"
    ) -> tuple[np.ndarray, np.ndarray]:
        """Per-inch movement cost of a step whose midpoint lies at each point, as :meth:`walk`
        charges it (000 08.03.02, 09.00.01; rules-decisions "Movement").

        Parameters
        ----------
        xs, ys : sequences of float, shape (n,)
            The points, in inches.
        movement_class : "T", "W" or "F"
            Which column of the terrain chart to pay.

        Returns
        -------
        cost : ndarray of float, shape (n,)
            Movement points per inch: the most expensive base area there (or the road rate
            within 0.25" of a road's centre line) plus every additive effect (slope, hilltop,
            smoke, wire); ``inf`` where the class may not go. Costs paid only on leaving an
            area (minefield) are not in it: see :meth:`step_costs`.
        road : ndarray of bool, shape (n,)
            True where the road rate is paid.

        Raises
        ------
        ValueError
            ``xs`` and ``ys`` differ in length, or an unknown movement class.
        """
        if movement_class not in ("T", "W", "F"):
            raise ValueError(f"unknown movement class {movement_class!r} (T, W or F)")
        px = np.asarray(xs, dtype=float).ravel()
        py = np.asarray(ys, dtype=float).ravel()
        if px.shape != py.shape:
            raise ValueError(f"{len(px)} x values but {len(py)} y values")
        if not len(px):
            return np.zeros(0), np.zeros(0, dtype=bool)
        costs, road = self._step_costs(px, py, movement_class)
        per_inch = np.array([math.inf if c is None else c for c in costs], dtype=float)
        return per_inch, np.array(road, dtype=bool)

    def step_costs(
        self,
        x0: Sequence[float],
        y0: Sequence[float],
        x1: Sequence[float],
        y1: Sequence[float],
        movement_class: str = "T",
    ) -> np.ndarray:
        """Movement points to take each straight step from (x0, y0) to (x1, y1), as :meth:`walk`
        charges one step: its length times the per-inch cost at its midpoint (see
        :meth:`move_costs_at`) plus the costs paid on leaving an area (minefield, 002 chart *)
        (000 08.03.02, 09.00.01; rules-decisions "Movement").

        Parameters
        ----------
        x0, y0, x1, y1 : sequences of float, shape (n,)
            Start and end of each step, in inches. :meth:`walk` takes steps of 0.5"; a longer
            step is still charged at its midpoint alone. (A step of ``walk`` that turns a
            corner of its path is charged along the path, not along its chord.)
        movement_class : "T", "W" or "F"
            Which column of the terrain chart to pay.

        Returns
        -------
        ndarray of float, shape (n,)
            Movement points per step; ``inf`` where the midpoint is ground the class may not
            enter or the step ends off the table (``walk`` stops there); 0 for a step of no
            length.

        Raises
        ------
        ValueError
            The four arrays differ in length, or an unknown movement class.
        """
        ax0, ay0, ax1, ay1 = (np.asarray(a, dtype=float).ravel() for a in (x0, y0, x1, y1))
        if not (ax0.shape == ay0.shape == ax1.shape == ay1.shape):
            raise ValueError("x0, y0, x1 and y1 must have the same length")
        if movement_class not in ("T", "W", "F"):
            raise ValueError(f"unknown movement class {movement_class!r} (T, W or F)")
        n = len(ax0)
        if not n:
            return np.zeros(0)
        mx, my = (ax0 + ax1) / 2, (ay0 + ay1) / 2
        # a step and its reverse share a midpoint: ask the terrain once per distinct point
        mid, inverse = np.unique(np.c_[mx, my], axis=0, return_inverse=True)
        per_inch, _ = self.move_costs_at(mid[:, 0], mid[:, 1], movement_class)
        length = np.hypot(ax1 - ax0, ay1 - ay0)
        with np.errstate(invalid="ignore"):  # 0 * inf: a step of no length costs nothing
            cost = np.where(length > 0.0, length * per_inch[inverse.ravel()], 0.0)
        on = (ax1 >= 0.0) & (ax1 <= self.width) & (ay1 >= 0.0) & (ay1 <= self.depth)
        cost[~on] = math.inf
        leaving = [f.geometry for f in self.areas if self.terrain_types[f.kind].leaving_only]
        if leaving:
            inside = np.zeros(n, dtype=bool)
            for g in leaving:
                inside |= shapely.intersects_xy(g, ax0, ay0)
            for i in np.nonzero(inside & np.isfinite(cost))[0]:
                cost[i] += self._leaving_costs(
                    float(ax0[i]), float(ay0[i]), float(ax1[i]), float(ay1[i]), movement_class
                )
        return cost

    @staticmethod
    def fit_back(
        points: Sequence[tuple[float, float]],
        facing_deg: float,
        others: Sequence[Polygon],
    ) -> int:
        """Walk a finished move back along its own path until the stand fits.

        ``points`` are the step points of the move (start first); ``others`` the footprints of
        every other stand (wrecks left out: they never count for overlap, 000 09.01). Returns
        the index of the point where the stand ends: the last one whose footprint (at
        ``facing_deg``) overlaps no other by more than 1e-6 sq in, stepping back 0.5" at a time
        (000 08.03.05, 001 8.3.5). Returns -1 if it fits nowhere at that facing (the stand
        then stays where it started, as it was).
        """
        tree = STRtree(list(others)) if len(others) else None
        for i in range(len(points) - 1, -1, -1):
            fp = footprint(points[i][0], points[i][1], facing_deg)
            if tree is None:
                return i
            hits = tree.query(fp, predicate="intersects")
            if not any(overlaps(fp, others[h]) for h in hits):
                return i
        return -1

    # ---------------------------------------------------------------- sight

    def _sight_core(
        self,
        firers: Sequence[StandPose],
        targets: Sequence[StandPose],
        stands: Sequence[StandPose],
        max_sighting_in: float,
        rules: Ruleset,
        explain: bool = False,
    ) -> dict:
        """Sight between every firer and every target, both ways at once.

        Works in stages over all pairs, each on numpy arrays: the sight segment (centre to
        centre less both footprints); the sighting distance; stands in the way (a cheap distance
        test, Shapely only for lines that pass near a footprint's corners); hills; blocking
        terrain (an STRtree over the shrunk areas, then bounding and inscribed circles, Shapely
        only for lines that pass near an outline). A pair already out of sight or blocked both
        ways skips the later stages unless ``explain`` asks for every blocker.
        Returns arrays of shape (len(firers), len(targets)); "rev" entries are the target
        firing at the firer.
        """
        nf, nt = len(firers), len(targets)
        fx = np.array([p.x for p in firers], dtype=float)
        fy = np.array([p.y for p in firers], dtype=float)
        ff = np.array([p.facing_deg for p in firers], dtype=float)
        tx = np.array([p.x for p in targets], dtype=float)
        ty = np.array([p.y for p in targets], dtype=float)
        tf = np.array([p.facing_deg for p in targets], dtype=float)
        f_level = self.ground_levels(fx, fy)
        t_level = self.ground_levels(tx, ty)
        bonus = rules.sight_bonus_per_level_in
        f_sight = max_sighting_in + bonus * np.maximum(f_level, 0)
        t_sight = max_sighting_in + bonus * np.maximum(t_level, 0)

        FX, TX = np.meshgrid(fx, tx, indexing="ij")
        FY, TY = np.meshgrid(fy, ty, indexing="ij")
        FF, TF = np.meshgrid(ff, tf, indexing="ij")
        dx, dy = TX - FX, TY - FY
        dist = np.hypot(dx, dy)
        f_ids = [p.id for p in firers]
        t_ids = [p.id for p in targets]
        same = np.array([[a == b for b in t_ids] for a in f_ids], dtype=bool).reshape(nf, nt)
        in_sight = (dist <= f_sight[:, None] + 1e-9) & ~same
        in_sight_rev = (dist <= t_sight[None, :] + 1e-9) & ~same
        with np.errstate(invalid="ignore", divide="ignore"):
            ux, uy = dx / dist, dy / dist

            def exit_t(facing):
                c, s = _cos_sin(facing)
                return HALF / np.maximum(np.abs(ux * c + uy * s), np.abs(-ux * s + uy * c))

            t1, t2 = exit_t(FF), exit_t(TF)
        has_line = (~same) & (dist > 1e-12) & (t1 + t2 < dist - 1e-12)
        x0, y0 = FX + ux * t1, FY + uy * t1
        x1, y1 = TX - ux * t2, TY - uy * t2

        blocked = np.zeros((nf, nt), dtype=bool)
        blocked_rev = np.zeros((nf, nt), dtype=bool)
        reasons: dict[tuple[int, int], list[tuple]] = {}
        work = has_line if explain else has_line & (in_sight | in_sight_rev)
        pf, pt = np.nonzero(work)
        if len(pf):
            lx0, ly0, lx1, ly1 = x0[pf, pt], y0[pf, pt], x1[pf, pt], y1[pf, pt]
            lines = shapely.linestrings(np.stack([np.c_[lx0, ly0], np.c_[lx1, ly1]], axis=1))
            if not explain:
                # a direction out of sight needs no more work
                done = ~in_sight[pf, pt]
                done_rev = ~in_sight_rev[pf, pt]
            else:
                done = np.zeros(len(pf), dtype=bool)
                done_rev = done.copy()

            def mark(k: np.ndarray, fwd: np.ndarray, rev: np.ndarray, why) -> None:
                blocked[pf[k[fwd]], pt[k[fwd]]] = True
                blocked_rev[pf[k[rev]], pt[k[rev]]] = True
                if not explain:  # explaining names every blocker, so nothing is skipped
                    done[k[fwd]] = True
                    done_rev[k[rev]] = True
                else:
                    for i in np.nonzero(fwd)[0]:
                        key = (int(pf[k[i]]), int(pt[k[i]]))
                        reasons.setdefault(key, []).append(why(i))

            self._stands_in_the_way(
                firers,
                targets,
                stands,
                rules,
                f_level,
                t_level,
                pf,
                pt,
                (lx0, ly0, lx1, ly1),
                lines,
                mark,
            )
            open_ = np.nonzero(~(done & done_rev))[0]
            self._hills_in_the_way(firers, targets, f_level, t_level, pf, pt, lines, open_, mark)
            open_ = np.nonzero(~(done & done_rev))[0]
            self._terrain_in_the_way(
                firers, targets, pf, pt, (lx0, ly0, lx1, ly1), lines, open_, mark
            )

        clear = in_sight & ~blocked
        clear_rev = in_sight_rev & ~blocked_rev
        # base contact only where centres are close enough to touch
        contact = np.zeros((nf, nt), dtype=bool)
        near_f, near_t = np.nonzero((~same) & (dist <= math.sqrt(2) + CONTACT_IN + 1e-9))
        if len(near_f):
            fa = footprints([firers[i] for i in near_f])
            fb = footprints([targets[j] for j in near_t])
            contact[near_f, near_t] = shapely.distance(fa, fb) <= CONTACT_IN
        band = np.where(contact, 1, np.maximum(1, np.ceil(dist - 1e-9))).astype(int)
        front = _angle_off(TF, FX - TX, FY - TY) <= 45.0 + ANGLE_EPS_DEG
        front_rev = _angle_off(FF, TX - FX, TY - FY) <= 45.0 + ANGLE_EPS_DEG
        return {
            "clear": clear,
            "clear_rev": clear_rev,
            "dist": dist,
            "band": band,
            "front": front,
            "front_rev": front_rev,
            "contact": contact,
            "in_sight": in_sight,
            "max_sight": f_sight,
            "reasons": reasons,
            "segment": (x0, y0, x1, y1, has_line),
        }

    def _stands_in_the_way(
        self, firers, targets, stands, rules, f_level, t_level, pf, pt, seg, lines, mark
    ) -> None:
        """Stands whose footprint the sight line touches (000 07.01.04, 001 6.1.1). A stand
        within 0.5" of the line surely touches it, one farther than half its diagonal surely
        does not; Shapely decides the rest."""
        blockers = [p for p in stands if not p.wreck]
        if not blockers:
            return
        bx = np.array([p.x for p in blockers])
        by = np.array([p.y for p in blockers])
        b_side = np.array([p.side for p in blockers], dtype=object)
        b_level = self.ground_levels(bx, by)
        index = {p.id: i for i, p in enumerate(blockers)}
        f_b = np.array([index.get(p.id, -1) for p in firers])[pf]
        t_b = np.array([index.get(p.id, -1) for p in targets])[pt]
        lx0, ly0, lx1, ly1 = seg
        d = _seg_point_dist(
            lx0[:, None], ly0[:, None], lx1[:, None], ly1[:, None], bx[None, :], by[None, :]
        )
        cols = np.arange(len(blockers))[None, :]
        d[(cols == f_b[:, None]) | (cols == t_b[:, None])] = np.inf
        li, si = np.nonzero(d <= HALF * math.sqrt(2) + TOUCH_IN + 1e-12)
        if not len(li):
            return
        sure = d[li, si] <= HALF
        unsure = ~sure
        if unsure.any():
            fps = footprints([blockers[s] for s in si[unsure]])
            sure[unsure] = shapely.dwithin(lines[li[unsure]], fps, TOUCH_IN)
        li, si = li[sure], si[sure]
        fwd = np.ones(len(li), dtype=bool)
        rev = fwd.copy()
        if rules.friendly_see_over:
            # a friendly stand lower than the firer does not block (000 07.01.04)
            f_side = np.array([firers[int(k)].side for k in pf[li]], dtype=object)
            t_side = np.array([targets[int(k)].side for k in pt[li]], dtype=object)
            fwd &= ~((b_side[si] == f_side) & (f_level[pf[li]] > b_level[si]))
            rev &= ~((b_side[si] == t_side) & (t_level[pt[li]] > b_level[si]))
        mark(li, fwd, rev, lambda i: ("stand", blockers[si[i]].id))

    def _hills_in_the_way(
        self, firers, targets, f_level, t_level, pf, pt, lines, open_, mark
    ) -> None:
        """Hills the sight line crosses, unless either end stands on that hill or higher than
        its level (rules-decisions "Hills")."""
        if not len(self.hills) or not len(open_):
            return
        li, hi = self._hill_eroded_tree.query(lines[open_], predicate="intersects")
        if not len(li):
            return
        k = open_[li]
        fk, tk = pf[k], pt[k]
        lvl = self._hill_levels[hi]
        fx = np.array([p.x for p in firers])[fk]
        fy = np.array([p.y for p in firers])[fk]
        tx = np.array([p.x for p in targets])[tk]
        ty = np.array([p.y for p in targets])[tk]
        hill_g = self._hill_geoms[hi]
        on_it = shapely.intersects_xy(hill_g, fx, fy) | shapely.intersects_xy(hill_g, tx, ty)
        higher = (f_level[fk] > lvl) | (t_level[tk] > lvl)
        hit = ~(on_it | higher)
        hi = hi[hit]
        mark(
            k[hit],
            np.ones(len(hi), bool),
            np.ones(len(hi), bool),
            lambda i: ("hill", int(self._hill_levels[hi[i]]), self.hills[hi[i]].index),
        )

    def _terrain_in_the_way(self, firers, targets, pf, pt, seg, lines, open_, mark) -> None:
        """Blocking areas the sight line runs inside for more than 1e-6" (rules-decisions
        "Line of sight"); an area holding the centre of a stand that counts as in clear terrain
        (WWII, after firing) does not block that stand's lines (001 6.1.2)."""
        if not len(self._blocking) or not len(open_):
            return
        li, ai = self._blocking_tree.query(lines[open_])
        if not len(li):
            return
        k = open_[li]
        lx0, ly0, lx1, ly1 = (a[k] for a in seg)
        d_out = _seg_point_dist(lx0, ly0, lx1, ly1, self._outer_cx[ai], self._outer_cy[ai])
        near = d_out <= self._outer_r[ai]
        k, ai = k[near], ai[near]
        lx0, ly0, lx1, ly1 = lx0[near], ly0[near], lx1[near], ly1[near]
        d_in = _seg_point_dist(lx0, ly0, lx1, ly1, self._inner_cx[ai], self._inner_cy[ai])
        hit = d_in < self._inner_r[ai]
        unsure = ~hit
        if unsure.any():
            hit[unsure] = shapely.intersects(self._blocking_eroded[ai[unsure]], lines[k[unsure]])
        k, ai = k[hit], ai[hit]
        f_clear = np.array([p.in_clear for p in firers])[pf[k]]
        t_clear = np.array([p.in_clear for p in targets])[pt[k]]
        if f_clear.any() or t_clear.any():
            geoms = np.array([self._blocking[a].geometry for a in ai], dtype=object)
            fx = np.array([p.x for p in firers])[pf[k]]
            fy = np.array([p.y for p in firers])[pf[k]]
            tx = np.array([p.x for p in targets])[pt[k]]
            ty = np.array([p.y for p in targets])[pt[k]]
            keep = ~(f_clear & shapely.intersects_xy(geoms, fx, fy))
            keep &= ~(t_clear & shapely.intersects_xy(geoms, tx, ty))
            k, ai = k[keep], ai[keep]
        both = np.ones(len(k), dtype=bool)
        mark(
            k,
            both,
            both,
            lambda i: ("terrain", self._blocking[ai[i]].kind, self._blocking[ai[i]].index),
        )

    def sight_matrix(
        self,
        firers: Sequence[StandPose],
        targets: Sequence[StandPose],
        stands: Sequence[StandPose],
        max_sighting_in: float,
        rules: Ruleset,
    ) -> SightMatrix:
        """Sight from every firer to every target, computed in bulk.

        ``stands`` is every stand on the table (wrecks included; they never block). The line
        of sight runs centre to centre less the two footprints; it is blocked by a blocking
        terrain area it runs inside for more than 1e-6", by a hill it crosses unless either end
        is on that hill or above its level, and by any stand footprint it touches (Modern: not
        a friendly stand lower than the firer) (000 07.01, 001 6.1). A target farther than the
        firer's sighting distance is not clear.
        """
        return self.sight_matrices(firers, targets, stands, max_sighting_in, rules)[0]

    def sight_matrices(
        self,
        side_a: Sequence[StandPose],
        side_b: Sequence[StandPose],
        stands: Sequence[StandPose],
        max_sighting_in: float,
        rules: Ruleset,
    ) -> tuple[SightMatrix, SightMatrix]:
        """Sight both ways between two groups at once (a to b, then b to a), sharing the work
        that does not depend on who fires: the same rules as :meth:`sight_matrix`."""
        core = self._sight_core(side_a, side_b, stands, max_sighting_in, rules)
        a_ids = tuple(p.id for p in side_a)
        b_ids = tuple(p.id for p in side_b)
        ab = SightMatrix(a_ids, b_ids, core["clear"], core["dist"], core["band"], core["front"])
        ba = SightMatrix(
            b_ids, a_ids, core["clear_rev"].T, core["dist"].T, core["band"].T, core["front_rev"].T
        )
        return ab, ba

    def sight(
        self,
        firer: StandPose,
        target: StandPose,
        stands: Sequence[StandPose],
        max_sighting_in: float,
        rules: Ruleset,
    ) -> Sight:
        """Sight from one firer to one target, with everything that blocks it named.

        The same computation as :meth:`sight_matrix` (one code path), for the LOS tool and
        the fire check (000 07.01, 07.08; 001 6.1, 7.3).
        """
        core = self._sight_core([firer], [target], stands, max_sighting_in, rules, explain=True)
        reasons = list(core["reasons"].get((0, 0), []))
        if not core["in_sight"][0, 0] and firer.id != target.id:
            reasons.append(("distance", None))
        x0, y0, x1, y1, has = core["segment"]
        seg = (
            ((float(x0[0, 0]), float(y0[0, 0])), (float(x1[0, 0]), float(y1[0, 0])))
            if has[0, 0]
            else None
        )
        return Sight(
            clear=bool(core["clear"][0, 0]),
            range_in=float(core["dist"][0, 0]),
            range_band_in=int(core["band"][0, 0]),
            aspect="front" if core["front"][0, 0] else "flank",
            max_sight_in=float(core["max_sight"][0]),
            in_contact=bool(core["contact"][0, 0]),
            blocked_by=tuple(reasons),
            segment=seg,
        )


def _seg_point_dist(x0, y0, x1, y1, px, py):
    """Distance (inches) from points (px, py) to segments (x0, y0)-(x1, y1); numpy arrays that
    broadcast together."""
    dx, dy = x1 - x0, y1 - y0
    len2 = dx * dx + dy * dy
    t = np.clip(((px - x0) * dx + (py - y0) * dy) / np.where(len2 > 0, len2, 1.0), 0.0, 1.0)
    ex, ey = x0 + t * dx - px, y0 + t * dy - py
    return np.sqrt(ex * ex + ey * ey)
