"""The geometry of the table, on Shapely 2: footprints, facing arcs, sight lines, ranges,
terrain under a point, movement costs and overlap.

Units: inches for lengths and coordinates (origin bottom-left, x right, y up), degrees for
facings (counter-clockwise from +x), movement points for costs. Everything here follows
``rules-decisions.md`` and is documented, with the rule numbers, in ``docs/rules.md``.

The table of a map with its indexed terrain is :class:`game.rules.table.table.Table` (points and
movement), whose sight lines are :mod:`game.rules.table.sight`; stand positions are passed in as
:class:`StandPose` values, so one code path answers the UI's line-of-sight tool, the engine's
fire check and the AI's sight matrix.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

import numpy as np
import shapely
from shapely import LineString, Polygon

ArrayOrScalar = np.ndarray | np.floating | float  # numpy's vectorised angles, or one

STAND_SIZE_IN = 1.0
HALF = STAND_SIZE_IN / 2
STEP_IN = 0.5  # movement is walked in half-inch steps (000 09.00.01)
CONTACT_IN = 0.01  # footprints this close are in base contact
OVERLAP_SQ_IN = 1e-6  # footprints overlapping more than this overlap
LENGTH_EPS_IN = 1e-6  # a sight line inside an area for more than this is blocked
TOUCH_IN = 1e-9  # a sight line this close to a stand's footprint touches it
ANGLE_EPS_DEG = 1e-6  # a shot this close to the arc boundary counts as front
ROAD_HALF_WIDTH_IN = 0.25  # a step within this of a road's centre line uses the road rate
ROAD_EPS_IN = 1e-9  # ... inclusive: 0.25000000000000006 from Shapely is still on the road (RD)
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


@lru_cache(maxsize=4096)
def _cos_sin_of(facing_deg: float) -> tuple[float, float]:
    """:func:`_cos_sin` of one facing, as floats, kept: stands keep their facings, and the
    screen asks for every stand's corners every frame."""
    c, s = _cos_sin(facing_deg)
    return float(c), float(s)


def corners(x: float, y: float, facing_deg: float) -> list[tuple[float, float]]:
    """The four corners (inches) of a 1"x1" footprint centred on (x, y) at ``facing_deg``:
    front-left, front-right, back-right, back-left (rules-decisions "Coordinates and stands")."""
    c, s = _cos_sin_of(float(facing_deg))
    # front-left, front-right, back-right, back-left (front is along the facing)
    local = ((HALF, HALF), (HALF, -HALF), (-HALF, -HALF), (-HALF, HALF))
    return [(x + lx * c - ly * s, y + lx * s + ly * c) for lx, ly in local]


def edge_point(edge: str, width: float, depth: float, x: float, y: float) -> tuple[float, float]:
    """The point of a table's ``edge`` ("left", "right", "bottom", "top") nearest (x, y),
    kept 0.5" from the corners so a stand entering there fits (inches; RD "Entering the
    table"). Raises KeyError for another edge."""
    y = min(max(y, 0.5), depth - 0.5)
    x = min(max(x, 0.5), width - 0.5)
    return {"left": (0.0, y), "right": (width, y), "bottom": (x, 0.0), "top": (x, depth)}[edge]


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


def _angle_off(facing_deg: ArrayOrScalar, dx: ArrayOrScalar, dy: ArrayOrScalar) -> np.ndarray:
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

    @property
    def effect_areas(self) -> tuple[str, ...]:
        """The area types whose effects count here (movement cost, cover, cohesion): every
        area, but smoke once however many smoke areas overlap (ruling R3: the chart's
        "cumulative" adds different terrain, not the same cloud twice)."""
        if self.areas.count("smoke") < 2:
            return self.areas
        i = self.areas.index("smoke")
        return self.areas[: i + 1] + tuple(a for a in self.areas[i + 1 :] if a != "smoke")


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


def _seg_point_dist(x0, y0, x1, y1, px, py):
    """Distance (inches) from points (px, py) to segments (x0, y0)-(x1, y1); numpy arrays that
    broadcast together."""
    dx, dy = x1 - x0, y1 - y0
    len2 = dx * dx + dy * dy
    t = np.clip(((px - x0) * dx + (py - y0) * dy) / np.where(len2 > 0, len2, 1.0), 0.0, 1.0)
    ex, ey = x0 + t * dx - px, y0 + t * dy - py
    return np.sqrt(ex * ex + ey * ey)
