"""The table of one map: its size and terrain, indexed once (STRtrees and prepared
geometries) for fast queries of the ground under points and of movement along paths; its
sight lines are the :class:`~game.rules.table.sight.SightMixin` it inherits. Units as in
:mod:`game.rules.table.geometry`: inches, degrees, movement points.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely
from numpy.typing import ArrayLike
from shapely import LineString, Polygon, STRtree

from game.rules.charts.data import TerrainType
from game.rules.table.geometry import (
    _ERODE_IN,
    FREE_MOVE_IN,
    HALF,
    ROAD_EPS_IN,
    ROAD_HALF_WIDTH_IN,
    SLOPE_BAND_IN,
    TerrainFeature,
    TerrainHere,
    Walk,
    footprint,
    overlaps,
)
from game.rules.table.sight import SightMixin
from game.rules.table.walks import step_layout, walk_paths


def _erode(geom: shapely.Geometry) -> shapely.Geometry:
    return shapely.buffer(geom, -_ERODE_IN, join_style="mitre")


def _steps_near(bx: np.ndarray, by: np.ndarray, no_pass: Sequence[Polygon]) -> np.ndarray:
    """Which steps of a walk (ending at ``bx[1:], by[1:]``, inches) could overlap a
    ``no_pass`` footprint: only a step whose footprint's reach (half its diagonal) meets a
    no-pass footprint's bounding box can, so the others build no polygon and query no tree.
    A boolean array, one per step."""
    near = np.zeros(len(bx) - 1, dtype=bool)
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
    return near


def _first_overlapped(tree, no_pass: Sequence[Polygon], x0, y0, x1: float, y1: float) -> int | None:
    """The lowest index of the ``no_pass`` footprints (indexed by ``tree``) that the stand's
    footprint overlaps after the step from (x0, y0) to (x1, y1), inches, facing the way it
    steps; None when it overlaps none."""
    heading = math.degrees(math.atan2(y1 - y0, x1 - x0))
    fp = footprint(x1, y1, heading)
    hits = tree.query(fp, predicate="intersects")
    over = sorted(int(h) for h in hits if overlaps(fp, no_pass[h]))
    return over[0] if over else None


class Table(SightMixin):
    """The table of one map: its size and terrain, indexed once for fast queries.

    Parameters
    ----------
    width, depth : float
        Table size in inches (x from 0 to width, y from 0 to depth).
    features : sequence of TerrainFeature
        Areas (chart types with ``geometry == "area"``), roads (LineStrings) and hills.
    terrain_types : dict
        The terrain effects chart (``RulesData.terrain``).
    ground : str
        How the open ground is painted: "grass" (the default) or "sand" (a desert table; the
        scenario's ``table.ground``). No rule reads it: open ground is the chart's clear.

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
        ground: str = "grass",
    ) -> None:
        self.width = float(width)
        self.depth = float(depth)
        self.ground = ground
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
        self._index_blocking([f for f in self.areas if terrain_types[f.kind].blocks_sight])

        # rough 1 and 2: they block only a sight line to personnel (002 chart; RD "Units
        # beyond tanks"), asked by the full games' fire check alone
        self._personnel_cover = [
            _erode(f.geometry)
            for f in self.areas
            if terrain_types[f.kind].los_blocked == "personnel"
        ]
        for g in self._personnel_cover:
            shapely.prepare(g)

        # the few areas with a cost paid on leaving them (minefields), in ``areas`` order: a
        # step looks only at these, not at every area
        self._leaving = [
            (f.geometry, terrain_types[f.kind])
            for f in self.areas
            if terrain_types[f.kind].leaving_only
        ]

        self._road_tree = STRtree([f.geometry for f in self.roads])
        self._road_kind = [f.kind for f in self.roads]
        self._road_cost = [terrain_types[k].move_cost("T") for k in self._road_kind]

        self._index_hills()

    def _index_blocking(self, blocking: list[TerrainFeature]) -> None:
        """Index the ``blocking`` areas (those that block sight, 000 07.01) for the sight
        queries: each shrunk by a hair (``_erode``) so that a line along an edge is not
        blocked, an STRtree over them, and the circles around and inside each (centre x, y
        and radius, inches)."""
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

    def _index_hills(self) -> None:
        """Index ``hills`` (by level, lowest first) for the ground level and sight queries:
        their outlines prepared, levels, an STRtree over them and over each shrunk by a
        hair, and each hilltop: the hill less its 1" slope band (``SLOPE_BAND_IN``,
        rules-decisions "Hills")."""
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

    def ground_levels(self, xs: ArrayLike, ys: ArrayLike) -> np.ndarray:
        """Ground level at each point: the highest level of the hills containing it, 0 if none
        (rules-decisions "Hills")."""
        idx = self._hill_index(np.asarray(xs, dtype=float), np.asarray(ys, dtype=float))
        return np.where(
            idx >= 0, self._hill_levels[np.maximum(idx, 0)] if len(self.hills) else 0, 0
        )

    def ground_level(self, x: float, y: float) -> int:
        """Ground level at one point (see :meth:`ground_levels`)."""
        return int(self.ground_levels([x], [y])[0])

    def personnel_cover_blocks(self, firer, target) -> bool:
        """Whether rough ground (the chart's "if personnel - yes" rows: rough 1 and 2) blocks
        the sight line from ``firer`` to a personnel ``target`` (StandPoses, inches): the
        centre-to-centre segment less both footprints runs inside such an area for a positive
        length (002 terrain chart; rules-decisions "Line of sight", "Units beyond tanks")."""
        if not self._personnel_cover:
            return False
        line = LineString([(firer.x, firer.y), (target.x, target.y)])
        if line.length <= 1e-9:
            return False
        line = line.difference(footprint(firer.x, firer.y, firer.facing_deg))
        line = line.difference(footprint(target.x, target.y, target.facing_deg))
        return any(
            shapely.length(shapely.intersection(line, g)) > 1e-6 for g in self._personnel_cover
        )

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

    def terrain_at_many(self, points) -> list[TerrainHere]:
        """:meth:`terrain_at` of many (x, y) points (inches) at once, in order: one query for
        those not asked before, every answer kept as :meth:`terrain_at` keeps it (a planner
        about to ask about many points asks here first)."""
        keys = [(float(x), float(y)) for x, y in points]
        new = list(dict.fromkeys(k for k in keys if k not in self._terrain_cache))
        if new:
            if len(self._terrain_cache) + len(new) > 50_000:
                self._terrain_cache.clear()
            xs = np.array([k[0] for k in new])
            ys = np.array([k[1] for k in new])
            self._terrain_cache.update(zip(new, self._terrain_many(xs, ys), strict=True))
        return [self._terrain_cache.get(k) or self.terrain_at(*k) for k in keys]

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
            pi, ri = self._road_tree.query(
                pts, predicate="dwithin", distance=ROAD_HALF_WIDTH_IN + ROAD_EPS_IN
            )
            for p, r in zip(pi, ri, strict=True):
                # the cheapest road wins where roads meet
                if roads[p] is None or self._road_cost[r] < self.terrain_types[roads[p]].move_cost(
                    "T"
                ):
                    roads[p] = self._road_kind[r]
        hidx = self._hill_index(xs, ys)
        on_hill = hidx >= 0
        on_crest = np.zeros(n, dtype=bool)
        if on_hill.any():  # (an empty crest is met by no point)
            on_crest[on_hill] = shapely.intersects_xy(
                self._hill_crests[hidx[on_hill]], xs[on_hill], ys[on_hill]
            )
        out = []
        for i, h in enumerate(hidx.tolist()):
            if h < 0:
                level, zone = 0, None
            else:
                level = int(self._hill_levels[h])
                zone = "hilltop" if on_crest[i] else "slope"
            out.append(TerrainHere(tuple(sorted(areas[i])), level, zone, roads[i]))
        return out

    def _step_costs(
        self, xs: np.ndarray, ys: np.ndarray, movement_class: str
    ) -> tuple[list[float | None], list[bool]]:
        """Per-inch cost (movement points per inch) at each point and whether it is a road
        rate (rules-decisions "Movement"): the clear row's cost for ``movement_class`` (wheeled
        2, 002/004 terrain chart), or the dearest base area over it, or the road's rate; plus
        each additive (+N) effect (smoke, wire, slope, hilltop), smoke once however many
        clouds overlap (ruling R3)."""
        costs: list[float | None] = []
        on_road: list[bool] = []
        known: dict[tuple, tuple[float | None, bool]] = {}  # the same ground, the same cost
        for here in self._terrain_many(xs, ys):
            key = (here.areas, here.road, here.hill_zone)
            if key in known:
                cost, road = known[key]
                costs.append(cost)
                on_road.append(road)
                continue
            clear = self.terrain_types.get("clear")
            # open ground costs the chart's clear row for the class (002/004 chart: tracked 1,
            # wheeled 2, foot 1)
            base = (clear.move_cost(movement_class) if clear else None) or 1.0
            extra = 0.0
            blocked = False
            for kind in here.effect_areas:  # smoke's +N once (ruling R3)
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
            known[key] = (None if blocked else base + extra, road)
            costs.append(known[key][0])
            on_road.append(road)
        return costs, on_road

    def _leaving_costs(
        self, x0: float, y0: float, x1: float, y1: float, movement_class: str
    ) -> float:
        """Costs paid only when a step leaves an area (minefield, 002 chart *): movement points
        for the step from (x0, y0) to (x1, y1) (inches), 0.0 where it leaves none."""
        total = 0.0
        for geom, t in self._leaving:
            if shapely.intersects_xy(geom, x0, y0) and not shapely.intersects_xy(geom, x1, y1):
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
        base area there (or the road rate within 0.25" of a road's centre line, inclusive to
        1e-9") plus every
        additive effect (slope, hilltop, smoke, wire; minefield when leaving)
        (000 08.03.02, 09.00.01). A step that cannot be paid is not taken unless the whole
        move so far is within ``free_in``; impassable ground, the table edge and ``no_pass``
        footprints stop the stand before the step.
        """
        pts = np.asarray(path, dtype=float).reshape(-1, 2)
        if len(pts) == 0:
            raise ValueError("a path needs at least its starting point")
        start = (float(pts[0, 0]), float(pts[0, 1]))
        layout = step_layout(pts)
        if layout is None:
            return Walk((start,), 0.0, mp_allowed, 0.0, None, False)
        s, bx, by, mx, my = layout
        n_steps = len(s) - 1
        per_inch, road = self._step_costs(mx, my, movement_class)
        near = _steps_near(bx, by, no_pass)
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
            cost = length * per_inch[k]
            if self._leaving:  # adding 0.0 where no area has a leaving cost changes nothing
                cost += self._leaving_costs(float(bx[k]), float(by[k]), x1, y1, movement_class)
            within_free = s[k + 1] <= free_in + 1e-9
            if spent + cost > mp_allowed + 1e-9 and not within_free:
                stopped = "mp"
                break
            if near[k]:
                blocker = _first_overlapped(no_pass_tree, no_pass, bx[k], by[k], x1, y1)
                if blocker is not None:
                    stopped = "enemy"
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

    def walks(
        self,
        paths: Sequence[Sequence[tuple[float, float]]],
        mp_allowed: float,
        movement_class: str = "T",
        free_in: float = FREE_MOVE_IN,
        no_pass: Sequence[Polygon] = (),
    ) -> list[Walk]:
        """:meth:`walk` for many paths of one stand at once (one terrain query for all their
        steps, one search tree of ``no_pass``): a list of Walk, one per path in order, each
        exactly what :meth:`walk` gives for it (000 08.03.02, 09.00.01). Raises ValueError
        when a path has no point. See :func:`game.rules.table.walks.walk_paths`."""
        return walk_paths(self, paths, mp_allowed, movement_class, free_in, no_pass)

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
        if self._leaving:
            inside = np.zeros(n, dtype=bool)
            for g, _ in self._leaving:
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
