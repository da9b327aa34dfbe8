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
from shapely.geometry import LineString, box, shape

from game import RULESET_IDS, JsonFileError, read_json_file, write_atomic
from game.editor.document import new_scenario
from game.editor.osm_terrain import (  # noqa: F401 - the tag table and limits, re-exported
    HIGHWAYS,
    LEVEL_HEIGHT_M,
    LEVEL_HEIGHT_RANGE_M,
    MAX_HILL_LEVEL,
    RESOLUTION_IN,
    RIVER_WIDTH_M,
    TAG_TABLE,
    OSMImportError,
    _area_kind,
    _is_line,
    dem_hills,
    terrain_from,
)

DEFAULT_SCALE_M = 100.0
"""Metres of ground to the table inch: the rules' ground scale (000 02.00: 1" = 100 m)."""

SCALE_RANGE_M = (5.0, 1000.0)
"""The scales ``--scale`` takes, metres to the inch."""


MIN_TABLE_IN = 6.0
MAX_TABLE_IN = 1000.0
"""A scenario's table is 6" to 1000" each way (``TableSize``)."""

ATTRIBUTION = "Map data © OpenStreetMap contributors (ODbL)"
"""The credit every imported scenario carries (the ODbL asks for it)."""

_KEYS = ("building", "landuse", "natural", "highway", "waterway", "wetland", "water", "place")
_PLACE_RANK = ("city", "town", "village", "suburb", "quarter", "neighbourhood", "hamlet")


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
    # lazy: osmium and pyproj load only when a file is imported
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
        # lazy: osmium and pyproj load only when a file is imported
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


def write_scenario_file(out: str | os.PathLike, raw: dict) -> None:
    """Write the scenario atomically (a temporary file, then a rename).

    Raises
    ------
    OSMImportError
        The file cannot be written (naming it); nothing is left half-written.
    """
    try:
        write_atomic(out, json.dumps(raw, indent=1, ensure_ascii=False) + "\n")
    except OSError as err:
        raise OSMImportError(f"{out}: cannot be written ({err.strerror or err})") from None
