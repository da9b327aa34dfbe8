"""Is this table fair? The map editor's statistics: :func:`map_statistics` gives the terrain
shares of the table and of each half, road lengths, town area and the two forces' points as the
seed scenario sheets count them, from a scenario dict that may still be invalid.

Units: inches for lengths, square inches for areas. :mod:`game.editor.analysis` gathers the
views' public names.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import shapely

from game import GeometryProblem, RulesData, read_geometry
from game.editor.points import forces
from game.editor.regions import Box, table_halves


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
    own Tank Scenario": 10 T-80U x 427 x 1.5 = 6405); in the full games an HQ or GHQ stand
    counts twice (:func:`game.editor.points.hq_weight`).

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
        try:  # the rules' gate: an empty hole or part crashed GEOS
            geom = read_geometry(feat.get("geometry"))
        except GeometryProblem as err:
            skipped.append(SkippedFeature(i, f"geometry{err.at}: {err.what}"))
            continue
        if geom.geom_type not in want:
            skipped.append(SkippedFeature(i, f"{kind!r} must be a {' or '.join(want)}"))
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
    """Each side's points (:func:`game.editor.points.forces`, the one costing) and the unit
    names the ruleset's tables do not know, in the order met."""
    try:
        units = data.units_for(raw.get("ruleset"))
    except (KeyError, TypeError):
        units = {}
    out = tuple(ForcePoints(f.side_id, f.cohesion, f.stands, f.value) for f in forces(raw, data))
    stands = [s for s in _as_list(raw.get("stands")) if isinstance(s, dict)]
    unknown = dict.fromkeys(
        str(st.get("unit")) for st in stands if str(st.get("unit")) not in units
    )
    return out, tuple(unknown)


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
