"""OpenStreetMap import: a box of real ground turned into a scenario's table.

An OpenStreetMap extract (``.osm.pbf`` or ``.osm`` XML, read with pyosmium; or a GeoJSON
FeatureCollection of OSM features in longitude/latitude, their tags as properties) is cut to a
box ``(west, south, east, north)`` in degrees, projected to metres on a transverse Mercator
centred on the box (pyproj), scaled to table inches at ``scale_m`` metres to the inch (the
rules' ground scale is 100 m to the inch, 000 02.00), clipped to the table, simplified to the
table's 0.5" resolution and turned into terrain features by :data:`TAG_TABLE` (docs/formats.md
prints the table). Every polygon then goes through the geometry gate (the scenario check's
own test, :func:`game.editor.gate.shape_problem`); a piece it refuses is mended or dropped,
never written. Hills come from a DEM GeoTIFF when one is given (:func:`dem_hills`).

The model never imports pygame; the editor's dialog (game/ui/editor/osm_dialog.py) and the
``hulldown import-osm`` command both call :func:`import_osm`.
"""

from __future__ import annotations

import json
import math
import os
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LineString, MultiPolygon, Point, Polygon, box, shape

DEFAULT_SCALE_M = 100.0
"""Metres of ground to the table inch: the rules' ground scale (000 02.00: 1" = 100 m)."""

SCALE_RANGE_M = (5.0, 1000.0)
"""The scales ``--scale`` takes, metres to the inch."""

RESOLUTION_IN = 0.5
"""The table's resolution, inches: no vertex is moved more than half of it by the
simplification, and an area narrower than it is dropped (a stand is 1" across)."""

LEVEL_HEIGHT_M = 10.0
"""Metres of relief to a hill level (the seeds' reading: a level per 10 m); a setting."""

LEVEL_HEIGHT_RANGE_M = (1.0, 50.0)
"""The level heights allowed, metres (000 allows up to 50 m a level)."""

MAX_HILL_LEVEL = 20
"""The highest hill level a scenario may have (``FeatureProps.level``)."""

MIN_TABLE_IN = 6.0
MAX_TABLE_IN = 1000.0
"""A scenario's table is 6" to 1000" each way (``TableSize``)."""

ATTRIBUTION = "Map data © OpenStreetMap contributors (ODbL)"
"""The credit every imported scenario carries (the ODbL asks for it)."""

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
_KEYS = ("building", "landuse", "natural", "highway", "waterway", "wetland", "water", "place")
_PLACE_RANK = ("city", "town", "village", "suburb", "quarter", "neighbourhood", "hamlet")


class OSMImportError(ValueError):
    """An extract cannot be imported: one line naming the file (or the argument) and the
    problem, e.g. ``helsinki.osm.pbf: the box 10,50,11,51 lies outside the file's data
    (24.935,60.164,24.953,60.179)``."""


@dataclass
class OSMFeature:
    """One OSM object: its tags and its shape in longitude/latitude degrees (a shapely
    Polygon/MultiPolygon for an area, LineString for a way read as a line)."""

    tags: dict[str, str]
    geom: Any


@dataclass
class Extract:
    """What an extract holds: its features, the box its data covers ``(west, south, east,
    north)`` in degrees (the file's header or the features' extent), the named places
    ``(place, name, lon, lat)`` and the path it was read from."""

    path: str
    features: list[OSMFeature]
    bounds: tuple[float, float, float, float]
    places: list[tuple[str, str, float, float]] = field(default_factory=list)


@dataclass
class ImportResult:
    """An import's scenario dict, its features counted by terrain kind (hills as
    ``hill level n``), the table in inches and kilometres, and the place named."""

    scenario: dict
    counts: dict[str, int]
    table_in: tuple[float, float]
    table_km: tuple[float, float]
    place: str


# ---------------------------------------------------------------------------------- reading


def read_extract(path: str | os.PathLike) -> Extract:
    """Read an OSM extract: ``.osm.pbf`` or ``.osm`` (pyosmium; multipolygon relations are
    assembled into areas) or a GeoJSON FeatureCollection of OSM features in longitude and
    latitude (tags as properties, or under a ``tags`` property as osmtogeojson writes them).
    The kind is told by the file's first bytes, not its name.

    Raises
    ------
    OSMImportError
        The file cannot be read, is not one of the three kinds, is GeoJSON whose coordinates
        are not longitude/latitude, or holds no OSM feature at all.
    """
    where = str(path)
    try:
        with open(path, "rb") as fh:
            head = fh.read(64)
    except OSError as err:
        raise OSMImportError(f"{where}: cannot be read ({err.strerror or err})") from None
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if b"OSMHeader" in head[:32]:
        return _read_osmium(path, where, "pbf")
    if text.startswith(b"<"):
        if b"<osm" not in _peek(path, 4096):
            raise OSMImportError(f"{where}: not an OpenStreetMap file (XML without <osm>)")
        return _read_osmium(path, where, "osm")
    if text.startswith(b"{"):
        return _read_geojson(path, where)
    raise OSMImportError(
        f"{where}: not an OpenStreetMap file (.osm.pbf, .osm XML, or GeoJSON in longitude/latitude)"
    )


def _peek(path, n: int) -> bytes:
    with open(path, "rb") as fh:
        return fh.read(n)


def _read_osmium(path, where: str, fmt: str) -> Extract:
    """An .osm.pbf or .osm file (``fmt`` "pbf" or "osm", told by its content, whatever its
    name) through pyosmium's FileProcessor, with node locations and assembled areas; only
    objects carrying a key of :data:`_KEYS` are kept."""
    import osmium

    wkb = osmium.geom.WKBFactory()
    feats: list[OSMFeature] = []
    places: list[tuple[str, str, float, float]] = []
    header_box = None
    try:
        reader = osmium.io.Reader(
            osmium.io.File(str(path), fmt), osmium.osm.osm_entity_bits.NOTHING
        )
        hbox = reader.header().box()
        reader.close()
        if hbox.valid():
            header_box = (
                hbox.bottom_left.lon,
                hbox.bottom_left.lat,
                hbox.top_right.lon,
                hbox.top_right.lat,
            )
        fp = (
            osmium.FileProcessor(osmium.io.File(str(path), fmt))
            .with_locations()
            .with_areas()
            .with_filter(osmium.filter.KeyFilter(*_KEYS))
        )
        for obj in fp:
            tags = {t.k: t.v for t in obj.tags}
            if obj.is_node():
                if "place" in tags and "name" in tags and obj.location.valid():
                    places.append((tags["place"], tags["name"], obj.location.lon, obj.location.lat))
                continue
            try:
                if obj.is_area():
                    if _area_kind(tags) is None:
                        continue
                    geom = shapely.from_wkb(wkb.create_multipolygon(obj))
                elif obj.is_way():
                    if not _is_line(tags):
                        continue
                    # an extract cut at its edge keeps the ways but not their outer nodes
                    pts = [(n.lon, n.lat) for n in obj.nodes if n.location.valid()]
                    if len(pts) < 2:
                        continue
                    geom = LineString(pts)
                else:
                    continue
            except (RuntimeError, osmium.InvalidLocationError, shapely.errors.GEOSException):
                continue  # an area or line the extract cuts short: its nodes are missing
            feats.append(OSMFeature(tags, geom))
    except RuntimeError as err:  # osmium's own errors: a corrupt or truncated file
        raise OSMImportError(f"{where}: not a readable OpenStreetMap file ({err})") from None
    bounds = header_box or _extent(f.geom for f in feats)
    if bounds is None:
        raise OSMImportError(f"{where}: the file holds no OpenStreetMap feature to import")
    return Extract(where, feats, bounds, places)


def _read_geojson(path, where: str) -> Extract:
    """A GeoJSON FeatureCollection of OSM features in longitude/latitude."""
    from game import JsonFileError, read_json_file

    try:
        doc = read_json_file(path, encoding="utf-8-sig")
    except JsonFileError as err:
        raise OSMImportError(str(err).splitlines()[0]) from None
    if not isinstance(doc, dict) or doc.get("type") != "FeatureCollection":
        raise OSMImportError(f"{where}: $.type: not a GeoJSON FeatureCollection of OSM features")
    raw = doc.get("features")
    if not isinstance(raw, list):
        raise OSMImportError(f"{where}: $.features: a FeatureCollection needs a list of features")
    feats: list[OSMFeature] = []
    places: list[tuple[str, str, float, float]] = []
    for i, f in enumerate(raw):
        props = f.get("properties") if isinstance(f, dict) else None
        props = props if isinstance(props, dict) else {}
        tags = props.get("tags") if isinstance(props.get("tags"), dict) else props
        tags = {str(k): str(v) for k, v in tags.items() if isinstance(v, (str, int, float))}
        try:
            geom = shape(f["geometry"])
        except Exception:  # noqa: BLE001 - any malformed geometry: name it, one line
            raise OSMImportError(
                f"{where}: $.features[{i}].geometry: not a valid GeoJSON geometry"
            ) from None
        x0, y0, x1, y1 = geom.bounds if not geom.is_empty else (0, 0, 0, 0)
        if not (-180 <= x0 <= x1 <= 180 and -90 <= y0 <= y1 <= 90):
            raise OSMImportError(
                f"{where}: $.features[{i}].geometry: coordinates are not longitude/latitude "
                f"(x {x0:g} to {x1:g}, y {y0:g} to {y1:g}); is this table-inch GeoJSON? "
                f"Use the editor's File > Import GeoJSON for that"
            )
        if geom.geom_type == "Point":
            if "place" in tags and "name" in tags:
                places.append((tags["place"], tags["name"], geom.x, geom.y))
            continue
        if geom.geom_type in ("Polygon", "MultiPolygon") and _area_kind(tags) is not None:
            feats.append(OSMFeature(tags, shapely.make_valid(geom)))
        elif geom.geom_type in ("LineString", "MultiLineString") and _is_line(tags):
            feats.append(OSMFeature(tags, geom))
    if not feats:
        raise OSMImportError(
            f"{where}: no OpenStreetMap feature with tags hulldown reads (highway, building, "
            f"landuse, natural, waterway...): is it OSM data?"
        )
    return Extract(where, feats, _extent(f.geom for f in feats), places)


def _extent(geoms: Iterable) -> tuple[float, float, float, float] | None:
    bounds = [g.bounds for g in geoms if g is not None and not g.is_empty]
    if not bounds:
        return None
    a = np.array(bounds)
    return (a[:, 0].min(), a[:, 1].min(), a[:, 2].max(), a[:, 3].max())


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


def preview_kinds(ext: Extract) -> Iterable[tuple[str, Any]]:
    """Each feature of an extract with the kind of terrain it would become, for a preview:
    ``(kind, geometry in degrees)``, kind one of the area kinds of :data:`TAG_TABLE`
    (``buildings`` for any building), a road kind, ``impassable`` or ``marsh`` for a
    waterway line, ``grove`` for a tree row, ``coastline``."""
    for f in ext.features:
        t = f.tags
        if f.geom.geom_type in ("Polygon", "MultiPolygon"):
            kind = _area_kind(t)
        elif t.get("natural") == "coastline":
            kind = "coastline"
        elif t.get("highway") in HIGHWAYS:
            kind = HIGHWAYS[t["highway"]]
        elif t.get("natural") == "tree_row":
            kind = "grove"
        elif t.get("waterway") in RIVER_WIDTH_M:
            kind = "impassable" if t["waterway"] != "stream" else "marsh"
        else:
            kind = None
        if kind:
            yield kind, f.geom


# ------------------------------------------------------------------------------- the import


def parse_bbox(text: str) -> tuple[float, float, float, float]:
    """``"W,S,E,N"`` in degrees as four floats.

    Raises
    ------
    OSMImportError
        Not four numbers, a longitude outside -180..180 or latitude outside -90..90, or an
        empty box (west not below east, south not below north).
    """
    parts = text.split(",")
    try:
        vals = tuple(float(p) for p in parts)
    except ValueError:
        vals = ()
    if len(vals) != 4 or not all(math.isfinite(v) for v in vals):
        raise OSMImportError(f"--bbox: give four numbers W,S,E,N in degrees, not {text!r}")
    return check_bbox(vals)  # type: ignore[arg-type]


def check_bbox(b: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """The box ``(west, south, east, north)`` if it is a box of the earth; else
    :class:`OSMImportError` (outside -180..180 / -90..90, or empty)."""
    w, s, e, n = b
    if not (-180 <= w <= 180 and -180 <= e <= 180 and -90 <= s <= 90 and -90 <= n <= 90):
        raise OSMImportError(
            f"--bbox: {w:g},{s:g},{e:g},{n:g} is not a box of longitude -180..180, latitude -90..90"
        )
    if not (w < e and s < n):
        raise OSMImportError(
            f"--bbox: the box {w:g},{s:g},{e:g},{n:g} is empty (west must be below east, "
            f"south below north)"
        )
    return w, s, e, n


class Projection:
    """A transverse Mercator centred on a box (pyproj), metres; and the table it makes at
    ``scale_m`` metres to the inch: whole inches each way, centred on the box's centre.
    ``to_table(geom)`` maps a longitude/latitude shapely geometry to table inches (origin at
    the table's south-west corner, x east, y north)."""

    def __init__(self, bbox: tuple[float, float, float, float], scale_m: float):
        from pyproj import Transformer

        w, s, e, n = bbox
        self.lon0, self.lat0 = (w + e) / 2, (s + n) / 2
        crs = (
            f"+proj=tmerc +lat_0={self.lat0} +lon_0={self.lon0} +k=1 +x_0=0 +y_0=0 "
            f"+ellps=WGS84 +units=m +no_defs"
        )
        self.fwd = Transformer.from_crs("EPSG:4326", crs, always_xy=True)
        self.inv = Transformer.from_crs(crs, "EPSG:4326", always_xy=True)
        self.scale_m = scale_m
        xw, _ = self.fwd.transform(w, self.lat0)
        xe, _ = self.fwd.transform(e, self.lat0)
        _, ys = self.fwd.transform(self.lon0, s)
        _, yn = self.fwd.transform(self.lon0, n)
        self.size_m = (xe - xw, yn - ys)
        self.width = float(max(1, round(self.size_m[0] / scale_m)))
        self.depth = float(max(1, round(self.size_m[1] / scale_m)))

    def to_table(self, geom):
        """A lon/lat geometry in table inches."""
        w2, d2 = self.width / 2, self.depth / 2
        k = self.scale_m

        def fn(c: np.ndarray) -> np.ndarray:
            x, y = self.fwd.transform(c[:, 0], c[:, 1])
            return np.column_stack((np.asarray(x) / k + w2, np.asarray(y) / k + d2))

        return shapely.transform(geom, fn)

    def to_lonlat(self, x_in: np.ndarray, y_in: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Table inches to longitude, latitude (arrays)."""
        k = self.scale_m
        return self.inv.transform((x_in - self.width / 2) * k, (y_in - self.depth / 2) * k)


def table_for(bbox: tuple[float, float, float, float], scale_m: float = DEFAULT_SCALE_M):
    """The table a box makes: ``((width, depth) in inches, (width, depth) in km)``, as the
    editor's preview shows it before the import. Raises :class:`OSMImportError` for a box
    that is not one (:func:`check_bbox`)."""
    check_bbox(bbox)
    p = Projection(bbox, scale_m)
    return (p.width, p.depth), (p.size_m[0] / 1000, p.size_m[1] / 1000)


def import_osm(
    path: str | os.PathLike,
    bbox: tuple[float, float, float, float],
    *,
    ruleset: str = "modern",
    scale_m: float = DEFAULT_SCALE_M,
    dem: str | os.PathLike | None = None,
    level_height_m: float = LEVEL_HEIGHT_M,
    extract: Extract | None = None,
    title: str | None = None,
) -> ImportResult:
    """An extract's box as a new scenario dict (``hulldown-scenario/1``): its terrain from
    the OSM features by :data:`TAG_TABLE` and :data:`HIGHWAYS`, hills from ``dem`` (a
    GeoTIFF, :func:`dem_hills`) at ``level_height_m`` metres a level, the two sides entering
    from the table's narrow edges and no stands yet (the editor or a hand adds the forces).
    The table is ``bbox`` at ``scale_m`` metres to the inch, in whole inches. The title names
    the place (the highest-ranked named ``place`` in the box, else the file's name) and the
    description carries :data:`ATTRIBUTION`. ``extract`` is a file already read by
    :func:`read_extract` (the editor's preview reads it once).

    Raises
    ------
    OSMImportError
        One line: the file (:func:`read_extract`), a box that is empty or lies outside the
        file's data, a scale or level height out of range, a table outside 6" to 1000" each
        way at this scale, a box with no terrain in it, an unknown ruleset or an unreadable
        DEM.
    """
    from game import RULESET_IDS
    from game.editor.document import new_scenario

    if ruleset not in RULESET_IDS:
        raise OSMImportError(f"--ruleset: unknown ruleset {ruleset!r} ({', '.join(RULESET_IDS)})")
    lo, hi = SCALE_RANGE_M
    if not (math.isfinite(scale_m) and lo <= scale_m <= hi):
        raise OSMImportError(f"--scale: {scale_m:g} m to the inch is not from {lo:g} to {hi:g}")
    lo, hi = LEVEL_HEIGHT_RANGE_M
    if not (math.isfinite(level_height_m) and lo <= level_height_m <= hi):
        raise OSMImportError(
            f"--level-height: {level_height_m:g} m is not from {lo:g} to {hi:g} m a level"
        )
    bbox = check_bbox(bbox)
    ext = extract or read_extract(path)
    fw, fs, fe, fn = ext.bounds
    w, s, e, n = bbox
    if w >= fe or e <= fw or s >= fn or n <= fs:
        raise OSMImportError(
            f"{ext.path}: the box {w:g},{s:g},{e:g},{n:g} lies outside the file's data "
            f"({fw:.5g},{fs:.5g},{fe:.5g},{fn:.5g})"
        )
    proj = Projection(bbox, scale_m)
    for size, what in ((proj.width, "wide"), (proj.depth, "deep")):
        if not MIN_TABLE_IN <= size <= MAX_TABLE_IN:
            raise OSMImportError(
                f'--bbox: at {scale_m:g} m to the inch the table would be {size:g}" {what}; a '
                f'table is {MIN_TABLE_IN:g}" to {MAX_TABLE_IN:g}" (change the box or --scale)'
            )
    table = box(0, 0, proj.width, proj.depth)
    lonlat_box = box(w, s, e, n).buffer(max(e - w, n - s) * 0.05)
    feats = terrain_from(ext, proj, table, lonlat_box)
    if dem is not None:
        feats += dem_hills(dem, proj, level_height_m)
    if not feats:
        raise OSMImportError(
            f"{ext.path}: nothing to import in the box {w:g},{s:g},{e:g},{n:g} (no roads, "
            f"buildings, woods or water there)"
        )
    place = _place(ext, bbox) or Path(ext.path).name.split(".")[0]
    counts = Counter(
        f"hill level {f['properties']['level']}"
        if f["properties"]["terrain"] == "hill"
        else f["properties"]["terrain"]
        for f in feats
    )
    raw = new_scenario(ruleset, proj.width, proj.depth, title or f"{place} (OpenStreetMap)")
    km = (proj.size_m[0] / 1000, proj.size_m[1] / 1000)
    raw["description"] = (
        f"{place}: a {km[0]:.1f} x {km[1]:.1f} km box of real ground ({w:.5f},{s:.5f} to "
        f"{e:.5f},{n:.5f}) at {scale_m:g} m to the inch. {ATTRIBUTION}."
    )
    raw["terrain"]["features"] = feats
    return ImportResult(raw, dict(counts), (proj.width, proj.depth), km, place)


def _place(ext: Extract, bbox) -> str | None:
    """The name of the highest-ranked place in the box (a city before a suburb), nearest the
    centre among equals."""
    w, s, e, n = bbox
    cx, cy = (w + e) / 2, (s + n) / 2
    best = None
    for kind, name, lon, lat in ext.places:
        if kind in _PLACE_RANK and w <= lon <= e and s <= lat <= n:
            key = (_PLACE_RANK.index(kind), (lon - cx) ** 2 + (lat - cy) ** 2)
            if best is None or key < best[0]:
                best = (key, name)
    return best[1] if best else None


# ------------------------------------------------------------------------- terrain shaping


def terrain_from(ext: Extract, proj: Projection, table: Polygon, lonlat_box: Polygon) -> list[dict]:
    """The extract's features inside ``lonlat_box`` as scenario terrain features in table
    inches, clipped to ``table``: areas unioned by kind, built-up blocks graded light or
    heavy, water (with the sea from the coastline) impassable and cut out of the other areas,
    roads merged by kind; all simplified at :data:`RESOLUTION_IN` and gated."""
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
    sea = _sea(coast, table)
    if sea is not None:
        areas.setdefault("impassable", []).append(sea)
    streets = [g for k in ROAD_KINDS for g in roads[k]]
    street = (
        shapely.union_all(streets).buffer(STREET_HALF_IN, cap_style="flat") if streets else None
    )
    for kind, blocks in _blocks(buildings, street).items():
        areas.setdefault(kind, []).extend(blocks)

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
    from game.editor.gate import shape_problem

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
    try:
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
    rows, cols = np.asarray(rows), np.asarray(cols)
    inside = (rows >= 0) & (rows < band.shape[0]) & (cols >= 0) & (cols < band.shape[1])
    if not inside.any():
        raise OSMImportError(f"{dem}: the DEM does not cover the box")
    elev = np.full(rows.shape, np.nan)
    vals = band[rows[inside], cols[inside]]
    elev[inside] = np.ma.filled(vals.astype(float), np.nan)
    base = np.nanmin(elev)
    elev = np.where(np.isnan(elev), base, elev).reshape(ny, nx)
    levels = np.minimum(np.floor((elev - base) / level_height_m), MAX_HILL_LEVEL).astype(int)
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
        if not kept:
            break
        below = shapely.union_all(kept)
    return out


def write_scenario_file(out: str | os.PathLike, raw: dict) -> None:
    """Write the scenario atomically (a temporary file, then a rename).

    Raises
    ------
    OSMImportError
        The file cannot be written (naming it); nothing is left half-written.
    """
    from game import write_atomic

    try:
        write_atomic(out, json.dumps(raw, indent=1, ensure_ascii=False) + "\n")
    except OSError as err:
        raise OSMImportError(f"{out}: cannot be written ({err.strerror or err})") from None
