"""OpenStreetMap import, the shaping: OSM features in table inches turned into terrain
features (game.editor.osm reads the extract, projects it and calls :func:`terrain_from` and
:func:`dem_hills`). The tag table, the built-up blocks, the sea from the coastline, the
simplification to the table's resolution and the geometry gate; hills from a DEM GeoTIFF.
Units: inches on the table, metres on the ground. No pygame."""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely
from shapely.geometry import LineString, MultiPolygon, Point, Polygon, box, shape

from game.editor.gate import shape_problem

if TYPE_CHECKING:
    from game.editor.osm import Extract, Projection

RESOLUTION_IN = 0.5
"""The table's resolution, inches: no vertex is moved more than half of it by the
simplification, and an area narrower than it is dropped (a stand is 1" across)."""

LEVEL_HEIGHT_M = 10.0
"""Metres of relief to a hill level (the seeds' reading: a level per 10 m); a setting."""

LEVEL_HEIGHT_RANGE_M = (1.0, 50.0)
"""The level heights allowed, metres (000 allows up to 50 m a level)."""

MAX_HILL_LEVEL = 20
"""The highest hill level a scenario may have (``FeatureProps.level``)."""

BUILDING_CLOSE_IN = 0.25
"""Buildings closer than twice this (inches) merge into one built-up block; at 100 m to the
inch 50 m of street, at 50 m 25 m."""

STREET_HALF_IN = 0.25
"""Half the width, inches, of the gap every road keeps through the built-up blocks."""

HEAVY_LEVELS = 4.0
"""A block whose buildings average this many storeys (a storey 3 m of ``height``) ..."""

HEAVY_DENSITY = 0.45
"""... and cover this share of the block is heavy buildings; any other block is light. A
church, cathedral, castle, fort or bunker alone makes a block heavy. House values."""

RIVER_WIDTH_M = {"river": 25.0, "canal": 12.0, "stream": 3.0}
"""A waterway line's width when it carries no ``width`` tag, metres."""

ROAD_KINDS = ("good_road", "poor_road", "track")

# tags to terrain: (key, values or "*") -> terrain; the first matching row wins. Rows apply to
# areas (closed ways and multipolygons), except where LINES below says a line is read.
TAG_TABLE: tuple[tuple[str, tuple[str, ...] | str, str], ...] = (
    ("natural", ("water", "bay", "strait"), "impassable"),
    ("waterway", ("riverbank", "dock"), "impassable"),
    ("water", "*", "impassable"),
    ("landuse", ("reservoir", "basin"), "impassable"),
    ("natural", ("wetland",), "marsh"),
    ("wetland", "*", "marsh"),
    ("natural", ("beach", "sand", "mud"), "marsh"),
    ("landuse", ("forest",), "woods"),
    ("natural", ("wood",), "woods"),
    ("landuse", ("orchard", "vineyard", "plant_nursery"), "grove"),
    ("natural", ("scrub", "heath"), "rough_1"),
    ("natural", ("scree", "shingle"), "rough_2"),
    ("natural", ("bare_rock",), "rough_3"),
    ("landuse", ("quarry",), "rough_3"),
    ("building", "*", "buildings"),
)
"""OSM tags to terrain for areas, first match wins (docs/formats.md prints it); ``buildings``
becomes light or heavy buildings by block (:data:`HEAVY_LEVELS`, :data:`HEAVY_DENSITY`)."""

HIGHWAYS = {
    **dict.fromkeys(
        (
            "motorway",
            "trunk",
            "primary",
            "secondary",
            "tertiary",
            "motorway_link",
            "trunk_link",
            "primary_link",
            "secondary_link",
            "tertiary_link",
        ),
        "good_road",
    ),
    **dict.fromkeys(("residential", "unclassified", "living_street", "road"), "poor_road"),
    "track": "track",
}
"""``highway=*`` lines to road kinds (service roads, paths and footways are not roads here)."""

HEAVY_TYPES = frozenset({"church", "cathedral", "castle", "fort", "bunker", "chapel"})


class OSMImportError(ValueError):
    """An extract cannot be imported: one line naming the file (or the argument) and the
    problem, e.g. ``helsinki.osm.pbf: the box 10,50,11,51 lies outside the file's data
    (24.935,60.164,24.953,60.179)``."""


def _area_kind(tags: dict[str, str]) -> str | None:
    """The terrain an area with these tags becomes by :data:`TAG_TABLE`, or None."""
    for key, values, kind in TAG_TABLE:
        v = tags.get(key)
        if v is not None and v != "no" and (values == "*" or v in values):
            return kind
    return None


def _is_line(tags: dict[str, str]) -> bool:
    """Whether a way is read as a line: a road, a waterway, a tree row or the coastline."""
    if tags.get("tunnel") not in (None, "no") or tags.get("area") == "yes":
        return False
    return (
        tags.get("highway") in HIGHWAYS
        or tags.get("waterway") in RIVER_WIDTH_M
        or tags.get("natural") in ("tree_row", "coastline")
    )


# ------------------------------------------------------------------------- terrain shaping


def _sorted_features(
    ext: Extract, proj: Projection, lonlat_box: Polygon
) -> tuple[dict[str, list], list[tuple[Any, float, bool]], dict[str, list], list]:
    """The extract's features inside ``lonlat_box``, in table inches, sorted: areas by
    terrain kind (tree rows as groves, waterways as impassable or, narrower than
    :data:`RESOLUTION_IN`, as a strip of marsh), buildings (shape, storeys, building tag),
    roads by kind, and coastline pieces."""
    res = RESOLUTION_IN
    areas: dict[str, list] = {}
    buildings: list[tuple[Any, float, bool]] = []
    roads: dict[str, list] = {k: [] for k in ROAD_KINDS}
    coast: list = []
    scale = proj.scale_m
    for f in ext.features:
        if not f.geom.intersects(lonlat_box):
            continue
        g = proj.to_table(f.geom)
        t = f.tags
        if g.geom_type in ("Polygon", "MultiPolygon"):
            kind = _area_kind(t)
            if kind == "buildings":
                buildings.append((g, _storeys(t), t.get("building", "")))
            elif kind:
                areas.setdefault(kind, []).append(g)
            continue
        if t.get("natural") == "coastline":
            coast.append(g)
        elif t.get("highway") in HIGHWAYS:
            roads[HIGHWAYS[t["highway"]]].append(g)
        elif t.get("natural") == "tree_row":
            areas.setdefault("grove", []).append(g.buffer(res / 2, cap_style="flat"))
        elif t.get("waterway") in RIVER_WIDTH_M:
            width_in = _width_m(t) / scale
            if width_in >= res:
                areas.setdefault("impassable", []).append(g.buffer(width_in / 2))
            else:  # a narrow waterway: fordable, a strip of marsh the table's resolution wide
                areas.setdefault("marsh", []).append(g.buffer(res / 2, cap_style="flat"))
    return areas, buildings, roads, coast


def _area_features(areas: dict[str, list], proj: Projection, table: Polygon) -> list[dict]:
    """The areas as gated scenario features, kind by kind (water first, then marsh, rough,
    woods, groves, buildings), each unioned, clipped to ``table`` and simplified; land cover
    stops at the water and stays off it, and light buildings off heavy ones."""
    out: list[dict] = []
    water = None
    if "impassable" in areas:
        water = _clean_area(shapely.union_all(areas["impassable"]), table)
    order = ("impassable", "marsh", "rough_3", "rough_2", "rough_1", "woods", "grove")
    order += ("heavy_buildings", "light_buildings")
    taken = water
    for kind in order:
        if kind not in areas:
            continue
        g = water if kind == "impassable" else _clean_area(shapely.union_all(areas[kind]), table)
        if kind != "impassable" and taken is not None and g is not None:
            g = _clean_area(g.difference(taken), table)  # land cover stops at the water
            if g is not None:  # and stays off it after the simplification
                g = shapely.make_valid(g.difference(taken))
                g = shapely.union_all([p for p in _polygons(g) if p.area >= RESOLUTION_IN**2])
        if kind == "heavy_buildings" and g is not None:
            taken = g if taken is None else taken.union(g)
        for poly in _polygons(g):
            feat = _gated(kind, poly, proj)
            if feat:
                out.append(feat)
    return out


def terrain_from(ext: Extract, proj: Projection, table: Polygon, lonlat_box: Polygon) -> list[dict]:
    """The extract's features inside ``lonlat_box`` as scenario terrain features in table
    inches, clipped to ``table``: areas unioned by kind, built-up blocks graded light or
    heavy, water (with the sea from the coastline) impassable and cut out of the other areas,
    roads merged by kind; all simplified at :data:`RESOLUTION_IN` and gated."""
    areas, buildings, roads, coast = _sorted_features(ext, proj, lonlat_box)
    sea = _sea(coast, table)
    if sea is not None:
        areas.setdefault("impassable", []).append(sea)
    streets = [g for k in ROAD_KINDS for g in roads[k]]
    street = (
        shapely.union_all(streets).buffer(STREET_HALF_IN, cap_style="flat") if streets else None
    )
    for kind, blocks in _blocks(buildings, street).items():
        areas.setdefault(kind, []).extend(blocks)
    out = _area_features(areas, proj, table)
    for kind in ROAD_KINDS:
        if roads[kind]:
            out.extend(_road_features(kind, roads[kind], table))
    return out


TALL_TYPES = frozenset(
    {
        "apartments",
        "office",
        "commercial",
        "retail",
        "public",
        "civic",
        "university",
        "school",
        "hospital",
        "hotel",
        "government",
        "train_station",
        "college",
        "block",
    }
)
"""Building types that, untagged and alone in a block, count :data:`TALL_STOREYS` storeys."""

TALL_STOREYS = 4.0
LOW_STOREYS = 2.0
"""Storeys of an untagged building whose block has no tagged one: a tall type's, or any
other's (house values)."""


def _storeys(tags: dict[str, str]) -> float | None:
    """A building's storeys from ``building:levels`` or ``height`` (3 m a storey); None if
    neither is given (or readable): its block's tagged buildings say it then."""
    for key, per in (("building:levels", 1.0), ("height", 3.0)):
        v = tags.get(key, "").split(";")[0].strip().rstrip("m").strip()
        try:
            x = float(v)
        except ValueError:
            continue
        if math.isfinite(x) and x > 0:
            return x / per
    return None


def _width_m(tags: dict[str, str]) -> float:
    v = tags.get("width", "").split(";")[0].strip().rstrip("m").strip()
    try:
        x = float(v)
        if math.isfinite(x) and x > 0:
            return x
    except ValueError:
        pass
    return RIVER_WIDTH_M[tags["waterway"]]


def _blocks(buildings: list[tuple[Any, float | None, str]], street=None) -> dict[str, list]:
    """Buildings ``(shape, storeys or None, building type)`` merged into built-up blocks (a
    closing of :data:`BUILDING_CLOSE_IN`), each block light or heavy by its buildings'
    area-weighted storeys and the share of the block they cover (:data:`HEAVY_LEVELS`,
    :data:`HEAVY_DENSITY`), less the ``street`` gaps. An untagged building counts its block's tagged buildings' mean,
    or by its type :data:`TALL_STOREYS` or :data:`LOW_STOREYS`."""
    if not buildings:
        return {}
    r = BUILDING_CLOSE_IN
    shapes = [shapely.make_valid(g) for g, _, _ in buildings]
    merged = shapely.union_all([g.buffer(r, join_style="mitre") for g in shapes])
    merged = merged.buffer(-r, join_style="mitre")
    if street is not None:  # the streets part the blocks: sight runs along them
        merged = merged.difference(street)
    blocks = list(_polygons(merged))
    if not blocks:
        return {}
    tree = shapely.STRtree(blocks)
    n = len(blocks)
    built, tagged, storeys, untagged = np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(n)
    heavy_type = np.zeros(n, dtype=bool)
    loose: list[tuple[int, float, str]] = []
    for g, (_, lv, btype) in zip(shapes, buildings, strict=True):
        pt = g.representative_point()
        hits = tree.query(pt, predicate="intersects")
        if len(hits) == 0:
            hits = tree.query(g, predicate="intersects")
        if len(hits) == 0:
            continue
        i = int(hits[0])
        built[i] += g.area
        heavy_type[i] |= btype in HEAVY_TYPES
        if lv is None:
            loose.append((i, g.area, btype))
        else:
            tagged[i] += g.area
            storeys[i] += g.area * lv
    for i, area, btype in loose:
        if tagged[i] > 0:
            untagged[i] += area * storeys[i] / tagged[i]
        else:
            untagged[i] += area * (TALL_STOREYS if btype in TALL_TYPES else LOW_STOREYS)
    out: dict[str, list] = {"heavy_buildings": [], "light_buildings": []}
    for i, b in enumerate(blocks):
        if built[i] <= 0:
            continue
        density = built[i] / b.area
        mean = (storeys[i] + untagged[i]) / built[i]
        heavy = heavy_type[i] or (mean >= HEAVY_LEVELS and density >= HEAVY_DENSITY)
        out["heavy_buildings" if heavy else "light_buildings"].append(b)
    return out


def _sea(coast: list, table: Polygon):
    """The sea inside the table, from coastline ways (OSM draws them with the land on the
    left): the table cut by the coastlines, and the pieces that lie to their right."""
    if not coast:
        return None
    lines = shapely.line_merge(shapely.union_all(coast))
    inside = lines.intersection(table)
    if inside.is_empty:
        return None
    # a coastline the extract cuts short inside the table is carried on to the table's
    # nearest edge, so that it still parts the sea from the land
    ends = []
    for line in getattr(lines, "geoms", [lines]):
        for end in (Point(line.coords[0]), Point(line.coords[-1])):
            if table.buffer(-1e-6).contains(end):
                ends.append(
                    LineString([end, table.exterior.interpolate(table.exterior.project(end))])
                )
    cut = shapely.union_all([table.exterior, inside, *ends])
    pieces = list(shapely.polygonize([cut]).geoms)
    # sample points a hair to the right of each coastline segment
    probes = []
    for line in getattr(lines, "geoms", [lines]):
        c = np.asarray(line.coords)
        if len(c) < 2:
            continue
        mid = (c[1:] + c[:-1]) / 2
        d = c[1:] - c[:-1]
        length = np.hypot(d[:, 0], d[:, 1])
        ok = length > 1e-9
        right = np.column_stack((d[ok, 1], -d[ok, 0])) / length[ok, None] * 1e-3
        probes.append(mid[ok] + right)
        probes.append(mid[ok] - right)
    if not probes:
        return None
    pts = np.vstack(probes)
    n = len(pts) // 2
    sea = []
    for piece in pieces:
        wet = shapely.contains_xy(piece, pts[:n, 0], pts[:n, 1]).sum()
        dry = shapely.contains_xy(piece, pts[n:, 0], pts[n:, 1]).sum()
        if wet > dry:
            sea.append(piece)
    return shapely.union_all(sea) if sea else None


def _clean_area(g, table: Polygon):
    """An area clipped to the table, its slivers narrower than the resolution opened away,
    simplified at half the resolution; None when nothing is left."""
    if g is None or g.is_empty:
        return None
    half = RESOLUTION_IN / 2
    g = shapely.make_valid(g).intersection(table)
    g = g.buffer(-half / 2, join_style="mitre").buffer(half / 2, join_style="mitre")
    g = g.intersection(table).simplify(half, preserve_topology=True)
    g = shapely.make_valid(g)
    polys = [p for p in _polygons(g) if p.area >= RESOLUTION_IN**2]
    return shapely.union_all(polys) if polys else None


def _polygons(g) -> Iterable[Polygon]:
    """The polygons of any geometry, holes smaller than the resolution squared filled."""
    if g is None or g.is_empty:
        return []
    if isinstance(g, Polygon):
        holes = [h for h in g.interiors if Polygon(h).area >= RESOLUTION_IN**2]
        return [Polygon(g.exterior, holes)]
    if isinstance(g, MultiPolygon) or hasattr(g, "geoms"):
        return [p for part in g.geoms for p in _polygons(part)]
    return []


def _ring(coords) -> list[list[float]]:
    return [[round(x, 2), round(y, 2)] for x, y in coords]


def _gated(kind: str, poly: Polygon, proj: Projection, **props) -> dict | None:
    """A polygon as a terrain feature if the geometry gate takes it (coordinates rounded to
    0.01"; a polygon the rounding spoils is mended once by make_valid, else dropped)."""
    mended = max(_polygons(shapely.make_valid(poly.buffer(0))), key=lambda q: q.area, default=None)
    for attempt in (poly, mended):
        if attempt is None:
            continue
        feat = {
            "type": "Feature",
            "properties": {"terrain": kind, **props},
            "geometry": {
                "type": "Polygon",
                "coordinates": [_ring(attempt.exterior.coords)]
                + [_ring(h.coords) for h in attempt.interiors],
            },
        }
        if shape_problem(feat, proj.width, proj.depth) is None:
            return feat
    return None


def _road_features(kind: str, lines: list, table: Polygon) -> list[dict]:
    """Road lines of one kind merged, clipped to the table and simplified; pieces shorter
    than the resolution dropped."""
    g = shapely.line_merge(shapely.union_all(lines).intersection(table))
    g = g.simplify(RESOLUTION_IN / 2)
    parts = [p for p in getattr(g, "geoms", [g]) if isinstance(p, LineString)]
    out = []
    for p in parts:
        if p.is_empty or p.length < RESOLUTION_IN:
            continue
        coords = _ring(p.coords)
        dedup = [c for i, c in enumerate(coords) if i == 0 or c != coords[i - 1]]
        if len(dedup) < 2:
            continue
        out.append(
            {
                "type": "Feature",
                "properties": {"terrain": kind},
                "geometry": {"type": "LineString", "coordinates": dedup},
            }
        )
    return out


# ------------------------------------------------------------------------------------ hills


def _dem_levels(
    dem, band, rows, cols, shape_yx: tuple[int, int], level_height_m: float
) -> np.ndarray:
    """Hill levels (ints, shape ``shape_yx``: rows north to south) of the table's cells from
    the DEM ``band`` sampled at each cell's raster ``rows`` and ``cols``: 0 for the lowest
    ground, one more each ``level_height_m`` metres above it, at most
    :data:`MAX_HILL_LEVEL`; cells off the raster or without data count as the lowest.
    Raises OSMImportError when no cell lies on the raster (the DEM does not cover the box)."""
    rows, cols = np.asarray(rows), np.asarray(cols)
    inside = (rows >= 0) & (rows < band.shape[0]) & (cols >= 0) & (cols < band.shape[1])
    if not inside.any():
        raise OSMImportError(f"{dem}: the DEM does not cover the box")
    elev = np.full(rows.shape, np.nan)
    vals = band[rows[inside], cols[inside]]
    elev[inside] = np.ma.filled(vals.astype(float), np.nan)
    base = np.nanmin(elev)
    elev = np.where(np.isnan(elev), base, elev).reshape(*shape_yx)
    return np.minimum(np.floor((elev - base) / level_height_m), MAX_HILL_LEVEL).astype(int)


def _level_hills(g, below, proj: Projection, lv: int, out: list[dict]) -> list:
    """One hill level's ground ``g`` (table inches) made hill features of level ``lv``: its
    cells' staircase rounded into a natural outline, kept inside the level below (000
    03.04), pieces under 4 cells dropped, each gated; the features are added to ``out`` and
    their shapes returned (the next level's ground to stay inside)."""
    res = RESOLUTION_IN
    # round the cells' staircase into a natural outline, then keep it inside the level below
    g = g.buffer(res * 0.75).buffer(-res * 0.75).simplify(res / 2)
    g = g.intersection(below.buffer(-0.05))
    kept = []
    for poly in _polygons(g):
        if poly.area < 4 * res * res:
            continue
        feat = _gated("hill", poly, proj, level=lv)
        if feat:
            out.append(feat)
            kept.append(shape(feat["geometry"]))
    return kept


def dem_hills(
    dem: str | os.PathLike, proj: Projection, level_height_m: float = LEVEL_HEIGHT_M
) -> list[dict]:
    """Hill polygons from a DEM GeoTIFF (rasterio): the relief sampled every
    :data:`RESOLUTION_IN` across the table, the lowest ground level 0 and each
    ``level_height_m`` metres above it a hill level (at most :data:`MAX_HILL_LEVEL`), each
    level's ground outlined as hill polygons lying inside the level below (000 03.04: a
    level-2 hill sits on a level-1 hill). Cells without data count as the lowest ground.

    Raises
    ------
    OSMImportError
        The DEM cannot be read (not a raster rasterio opens), has no coordinate system, or
        does not cover the box.
    """
    try:  # lazy: rasterio is optional (the dem extra); pyproj loads when a DEM is read
        import rasterio
        import rasterio.features
        from pyproj import Transformer
        from rasterio.transform import Affine, rowcol
    except ImportError:
        raise OSMImportError(
            f"{dem}: reading a DEM needs rasterio: pip install 'hulldown[dem]'"
        ) from None
    res = RESOLUTION_IN
    nx, ny = int(round(proj.width / res)), int(round(proj.depth / res))
    xs = (np.arange(nx) + 0.5) * res
    ys = proj.depth - (np.arange(ny) + 0.5) * res  # row 0 at the table's far (north) edge
    gx, gy = np.meshgrid(xs, ys)
    lon, lat = proj.to_lonlat(gx.ravel(), gy.ravel())
    try:
        with rasterio.open(dem) as src:
            if src.crs is None:
                raise OSMImportError(f"{dem}: the DEM has no coordinate system")
            to_dem = Transformer.from_crs("EPSG:4326", src.crs.to_wkt(), always_xy=True)
            dx, dy = to_dem.transform(lon, lat)
            band = src.read(1, masked=True)
            rows, cols = rowcol(src.transform, dx, dy)
    except rasterio.errors.RasterioIOError as err:
        raise OSMImportError(f"{dem}: not a DEM rasterio can read ({err})") from None
    levels = _dem_levels(dem, band, rows, cols, (ny, nx), level_height_m)
    transform = Affine(res, 0, 0, 0, -res, proj.depth)
    out: list[dict] = []
    below = box(0, 0, proj.width, proj.depth)
    for lv in range(1, int(levels.max()) + 1):
        mask = (levels >= lv).astype(np.uint8)
        polys = [
            shape(geom)
            for geom, v in rasterio.features.shapes(
                mask, mask=mask.astype(bool), transform=transform
            )
            if v == 1
        ]
        g = shapely.union_all(polys) if polys else None
        if g is None or g.is_empty:
            break
        kept = _level_hills(g, below, proj, lv, out)
        if not kept:
            break
        below = shapely.union_all(kept)
    return out
