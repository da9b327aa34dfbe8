"""A file's GeoJSON geometry made into a Shapely geometry safely: the one place where
coordinates read from a file (a scenario, a save's or a log's scenario, a GeoJSON import, the
editor's document) become Shapely geometries.

GEOS trusts what it is given. A polygon with an empty hole (``[[...ring...], []]``) builds,
calls itself valid, and then segfaults the first predicate asked of it (``covers``); a
MultiPolygon whose part is ``[[]]`` does the same; a MultiLineString with an empty part
raises from inside Shapely; a woods polygon 1e-9" thin shrinks to nothing in the sight
index and its empty centre stopped the table from being built. So every geometry is held to
the GeoJSON rules (RFC 7946 section 3.1) *before* Shapely sees it:

- :func:`coordinates_problem` checks the nesting and the positions: every position ``[x, y]``
  of finite numbers within :data:`MAX_COORD_IN` of the table's corner, every line at least
  2 positions, every ring at least 4 and closed, no empty ring, line, polygon or list of
  parts;
- :func:`safe_shape` builds the Shapely geometry of coordinates that passed (the editor
  draws and picks with it, valid or not: a self-intersecting polygon can still be selected
  and mended);
- :func:`read_geometry` also refuses what the rules cannot use: an empty or invalid
  geometry, a polygon without area or so thin that the sight index's shrinking by
  :data:`~game.rules.table.geometry.LENGTH_EPS_IN` / 2 leaves nothing of it.

Each refusal is a :class:`GeometryProblem` whose ``at`` is the JSON path below the geometry
object (``.coordinates[0][1]``), so that every reader words it as one line with the full
path, as ``hulldown check`` does.
"""

from __future__ import annotations

import math
import re
from typing import Any

import shapely
from shapely.geometry import shape

from game.rules.actions import MAX_COORD_IN
from game.rules.files.jsonfile import is_json_number
from game.rules.table.geometry import _ERODE_IN

GEOMETRY_TYPES = ("Polygon", "MultiPolygon", "LineString", "MultiLineString")
"""The GeoJSON geometry types a terrain feature may have."""

MIN_AREA_SQ_IN = 1e-9
"""A polygon of this area or less (square inches) has no area."""

_NESTING = {
    "LineString": (),
    "MultiLineString": ("line",),
    "Polygon": ("ring",),
    "MultiPolygon": ("polygon", "ring"),
}
"""The lists around a geometry's lists of positions, outermost first: a MultiPolygon is a
list of polygons, each a list of rings, each a list of positions."""


class GeometryProblem(ValueError):
    """A geometry read from a file that cannot be used. ``at`` is the JSON path below the
    geometry object (``".coordinates[1][0]"``, ``""`` for the geometry as a whole) and
    ``what`` the problem in words; ``str()`` is ``"AT: WHAT"``."""

    def __init__(self, at: str, what: str):
        self.at, self.what = at, what
        super().__init__(f"{at}: {what}")


def coordinates_problem(gtype: str, coords: Any) -> tuple[str | None, int]:
    """What is wrong with a GeoJSON geometry's coordinates before Shapely reads them, as
    ``"PATH: problem"`` with PATH below ``.coordinates`` (``"[0][3]"``), or None; and the
    positions counted so far (the scenario reader holds the terrain to MAX_VERTICES).

    ``gtype`` is one of :data:`GEOMETRY_TYPES`. Right coordinates: nested as the type says
    (a MultiPolygon is a list of polygons, each a list of rings, each a list of positions),
    no list of parts empty (a MultiPolygon of no polygon, a polygon of no ring), each
    position ``[x, y]`` (2-D only) of finite numbers no further than :data:`MAX_COORD_IN`
    inches from the table's corner either way, each line at least 2 positions, each ring at
    least 4, its last repeating its first. An empty ring, line or part is refused: GEOS
    builds a polygon with an empty hole, calls it valid and segfaults on it.

    Raises KeyError for a ``gtype`` that is not one of the four.
    """
    lines: list[tuple[str, Any]] = [("", coords)]
    for part in _NESTING[gtype]:
        nxt: list[tuple[str, Any]] = []
        for at, value in lines:
            if not isinstance(value, list):
                return f"{at}: must be a list", 0
            if not value:
                if part == "ring":
                    return (
                        f"{at}: a polygon needs its outer ring (at least 4 positions, the "
                        "last repeating the first)",
                        0,
                    )
                return f"{at}: a {gtype} needs at least one {part}", 0
            nxt.extend((f"{at}[{i}]", x) for i, x in enumerate(value))
        lines = nxt
    ring = gtype in ("Polygon", "MultiPolygon")
    count = 0
    for at, line in lines:
        if not isinstance(line, list):
            return f"{at}: must be a list of positions", count
        for j, pos in enumerate(line):
            if not isinstance(pos, list) or len(pos) != 2:
                return (
                    f"{at}[{j}]: a position must be [x, y] in inches (2-D only: no height)",
                    count,
                )
            if not all(is_json_number(v) for v in pos):
                return f"{at}[{j}]: x and y must be numbers", count
            if not all(math.isfinite(v) for v in pos):
                return f"{at}[{j}]: x and y must be finite numbers", count
            if not all(abs(v) <= MAX_COORD_IN for v in pos):
                return (
                    f"{at}[{j}]: ({pos[0]:g}, {pos[1]:g}) lies outside any table (x and y "
                    f"are inches from its corner, at most {MAX_COORD_IN:g} either way)",
                    count,
                )
        count += len(line)
        if ring:
            if len(line) < 4:
                return (
                    f"{at}: a ring needs at least 4 positions, the last repeating the first",
                    count,
                )
            if line[0] != line[-1]:
                return (
                    f"{at}: the ring is not closed (its last position must repeat its first)",
                    count,
                )
        elif len(line) < 2:
            return f"{at}: a line needs at least 2 positions", count
    return None, count


def safe_shape(geometry: Any) -> shapely.Geometry:
    """The Shapely geometry of a GeoJSON geometry object ``{"type": ..., "coordinates":
    ...}`` whose type and coordinates pass :func:`coordinates_problem`: never empty, never
    with an empty part, every coordinate finite and bounded, so any Shapely call on it is
    safe; it may still be invalid (a self-intersecting ring), see :func:`read_geometry`.

    Raises
    ------
    GeometryProblem
        Not an object, a type that is not one of :data:`GEOMETRY_TYPES`, or what
        :func:`coordinates_problem` finds (``at`` under ``.coordinates``).
    """
    if not isinstance(geometry, dict):
        raise GeometryProblem("", "a geometry must be an object")
    gtype = geometry.get("type")
    if gtype not in GEOMETRY_TYPES:
        raise GeometryProblem(
            ".type", f"a terrain feature is a {', '.join(GEOMETRY_TYPES)}, not {gtype!r}"
        )
    coords = geometry.get("coordinates")
    bad, _count = coordinates_problem(gtype, coords)
    if bad is not None:
        at, what = bad.split(": ", 1)
        raise GeometryProblem(f".coordinates{at}", what)
    try:
        return shape({"type": gtype, "coordinates": coords})
    except (ValueError, TypeError, IndexError, shapely.errors.ShapelyError) as err:
        raise GeometryProblem(".coordinates", f"not valid {gtype} coordinates ({err})") from None


def read_geometry(geometry: Any) -> shapely.Geometry:
    """The Shapely geometry of a terrain feature's GeoJSON geometry object, fit for the
    rules: :func:`safe_shape`, and then not empty, valid (GEOS's test), and for a polygon
    an area over :data:`MIN_AREA_SQ_IN` in every part, each part wide enough to keep some
    area when the sight index shrinks it by half of
    :data:`~game.rules.table.geometry.LENGTH_EPS_IN` (a thinner one used to leave the table's
    sight index with an empty point). Whether it lies on the table and fits its
    terrain type is the caller's to check.

    Raises
    ------
    GeometryProblem
        As :func:`safe_shape`; or ``at`` ``""`` for an empty or invalid geometry (GEOS's
        reason, "self-intersection at (10, 4)") and ``".coordinates[k]"`` for a polygon (a
        MultiPolygon's part ``k``) without area or too thin.
    """
    geom = safe_shape(geometry)
    gtype = geometry["type"]
    if geom.is_empty:
        raise GeometryProblem("", "empty geometry")
    if not geom.is_valid:
        raise GeometryProblem("", f"invalid {gtype}: {invalid_reason(geom)}")
    if gtype in ("Polygon", "MultiPolygon"):
        parts = [geom] if gtype == "Polygon" else list(geom.geoms)
        for k, part in enumerate(parts):
            at = "" if gtype == "Polygon" else f".coordinates[{k}]"
            if part.area <= MIN_AREA_SQ_IN:
                raise GeometryProblem(at, "the polygon has no area")
            if shapely.buffer(part, -_ERODE_IN, join_style="mitre").is_empty:
                raise GeometryProblem(
                    at,
                    f"the polygon is thinner than {2 * _ERODE_IN:g} inch everywhere "
                    "(draw it wider)",
                )
    return geom


def invalid_reason(geom: shapely.Geometry) -> str:
    """GEOS's invalidity reason in words: 'Self-intersection[10 4]' becomes
    'self-intersection at (10, 4)'."""
    reason = shapely.is_valid_reason(geom)
    m = re.match(r"(.*?)\[([-\d.e]+) ([-\d.e]+)\]$", reason)
    if not m:
        return reason
    what, x, y = m.groups()
    return f"{what[0].lower()}{what[1:]} at ({float(x):g}, {float(y):g})"
