"""GeoJSON import and export of a scenario's terrain, for the map editor.

A GeoJSON file here is a FeatureCollection whose coordinates are table inches (x to the right,
y up, origin at the table's bottom-left corner) and whose features each carry a ``terrain``
property: a terrain type of the chart (``assets/data/terrain.toml``) drawn as an area (Polygon
or MultiPolygon) or a road (LineString or MultiLineString, the centre line), or ``hill``
(Polygon or MultiPolygon) with an integer ``level`` >= 1. An optional ``name`` is kept.

:func:`import_terrain` turns such a file into scenario terrain features (the dicts of a
``hulldown-scenario/1`` file's ``terrain.features``), :func:`table_size_for` gives the table
a new scenario needs for them, and :func:`export_terrain` writes a scenario's terrain as such a
file. Import checks the GeoJSON's shape, the terrain types and the coordinates (held, once cut
to x, y, to :func:`game.rules.files.shapes.coordinates_problem`, the scenario reader's own
check: no empty ring, line or part, closed rings, bounded numbers); whether the polygons are
valid and lie on the table is the scenario check's business (``hulldown check``), run by the
editor after the import.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterator, Sequence
from typing import Any

from game import (
    JsonFileError,
    RulesData,
    coordinates_problem,
    load_rules_data,
    read_json_file,
    write_atomic,
)

MIN_TABLE_IN = 12
"""The smallest table :func:`table_size_for` gives, each way, in inches."""

MAX_TABLE_IN = 1000
"""The largest table a scenario may have, each way, in inches (``TableSize``)."""

MAX_HILL_LEVEL = 20
"""The highest hill level a scenario may have (``FeatureProps.level``)."""

_AREA = ("Polygon", "MultiPolygon")
_ROAD = ("LineString", "MultiLineString")
# how deep each geometry type nests its positions in lists, and what each level holds
_NESTING = {
    "LineString": ("positions",),
    "MultiLineString": ("lines", "positions"),
    "Polygon": ("rings", "positions"),
    "MultiPolygon": ("polygons", "rings", "positions"),
}


class GeoJSONError(ValueError):
    """A GeoJSON file cannot be imported, or terrain cannot be exported as one. ``problems``
    holds one line per problem, each naming the file, the JSON path and what is wrong
    (``file: $.features[3].properties.terrain: ...``); ``str()`` joins them."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


TABLE_MEMBER = "hulldown_table"
"""The FeatureCollection's foreign member (RFC 7946 section 6.1) that :func:`export_terrain`
writes the table size in: ``{"width": inches, "depth": inches}``; :func:`import_table` reads it
back, so a table keeps its size through export and import (the terrain's extent need not
reach its edges)."""


def import_table(path: str | os.PathLike) -> tuple[float, float] | None:
    """The table size (width, depth) in inches that a GeoJSON file exported by
    :func:`export_terrain` carries in its ``hulldown_table`` member, or None when it has none
    (a file from elsewhere: :func:`table_size_for` sizes the table then).

    Raises
    ------
    GeoJSONError
        The file cannot be read or is not JSON (as :func:`import_terrain`), or its
        ``hulldown_table`` is not an object of two numbers from 1 to 1000 (inches), naming the
        file and the field.
    """
    where = str(path)
    try:
        doc = read_json_file(path, encoding="utf-8-sig")
    except JsonFileError as err:
        raise GeoJSONError([str(err)]) from None
    if not isinstance(doc, dict) or TABLE_MEMBER not in doc:
        return None
    table = doc[TABLE_MEMBER]
    if not isinstance(table, dict):
        raise GeoJSONError(
            [
                f"{where}: $.{TABLE_MEMBER}: the table size must be an object "
                f'{{"width": inches, "depth": inches}}, not {_json_type(table)}'
            ]
        )
    size, problems = [], []
    for key in ("width", "depth"):
        v = table.get(key)
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            problems.append(
                f"{where}: $.{TABLE_MEMBER}.{key}: a number of inches, not {_json_type(v)}"
            )
        elif not (math.isfinite(v) and 1 <= v <= MAX_TABLE_IN):
            problems.append(
                f"{where}: $.{TABLE_MEMBER}.{key}: {v:g} is not from 1 to {MAX_TABLE_IN} inches"
            )
        else:
            size.append(v)
    if problems:
        raise GeoJSONError(problems)
    return size[0], size[1]


def import_terrain(path: str | os.PathLike, data: RulesData | None = None) -> list[dict]:
    """Read a GeoJSON FeatureCollection file and return its features as scenario terrain
    features, in file order.

    Each returned feature is ``{"type": "Feature", "properties": {"terrain": kind[, "level":
    n][, "name": text]}, "geometry": {"type": ..., "coordinates": ...}}`` with coordinates in
    inches, reduced to x, y (a third and further values of a position are dropped). Any other
    property (and a ``level`` on anything but a hill), a feature's ``id`` and ``bbox``, and the
    collection's foreign members are dropped. ``data`` is the rules data whose terrain chart
    names the types (the shipped one by default).

    Raises
    ------
    GeoJSONError
        With every problem of the file, one line each: the file cannot be read, is not JSON or
        not a FeatureCollection; a feature is not a Feature, has no ``terrain`` or an unknown
        one, is a hill without an integer level from 1 to 20, has a geometry type that does not
        fit its terrain (areas and hills Polygon or MultiPolygon, roads LineString or
        MultiLineString), coordinates not nested as its type needs, a coordinate that is
        not a number or not finite, or (as the scenario reader says it) an empty ring, line
        or part, a ring not closed or a coordinate beyond 10,000 inches; a ``name`` that is
        not text.
    """
    data = data or load_rules_data()
    where = str(path)
    try:
        doc = read_json_file(path, encoding="utf-8-sig")
    except JsonFileError as err:
        raise GeoJSONError([str(err)]) from None
    if not isinstance(doc, dict):
        raise GeoJSONError([f"{where}: $: not a GeoJSON FeatureCollection (not a JSON object)"])
    if doc.get("type") != "FeatureCollection":
        raise GeoJSONError(
            [f"{where}: $.type: not a GeoJSON FeatureCollection (type {doc.get('type')!r})"]
        )
    features = doc.get("features")
    if not isinstance(features, list):
        raise GeoJSONError([f"{where}: $.features: a FeatureCollection needs a list of features"])
    problems: list[str] = []
    out = [
        _clean_feature(feat, f"$.features[{i}]", where, data, problems)
        for i, feat in enumerate(features)
    ]
    if problems:
        raise GeoJSONError(problems)
    return out


def table_size_for(features: Sequence[dict]) -> tuple[int, int]:
    """The smallest whole-inch table, at least 12" x 12", that covers ``features`` (scenario
    terrain features, as :func:`import_terrain` returns them) from its corner at (0, 0):
    ``(width, depth)`` in inches. No features: (12, 12).

    Raises
    ------
    ValueError
        A feature reaches below x = 0 or y = 0 (a table starts at 0, 0: move the terrain
        first), or beyond 1000" (the largest table).
    """
    max_x = max_y = 0.0
    min_x = min_y = 0.0
    for feat in features:
        for x, y in _positions(feat["geometry"]["coordinates"]):
            min_x, min_y = min(min_x, x), min(min_y, y)
            max_x, max_y = max(max_x, x), max(max_y, y)
    if min_x < 0 or min_y < 0:
        raise ValueError(
            f"the terrain reaches x = {min_x:g}, y = {min_y:g}: a table runs from 0, 0, "
            f"so move the terrain onto it first"
        )
    # a hair of tolerance, so that 24.000000001 (float noise) still makes a 24" table
    width = max(MIN_TABLE_IN, math.ceil(max_x - 1e-9))
    depth = max(MIN_TABLE_IN, math.ceil(max_y - 1e-9))
    if width > MAX_TABLE_IN or depth > MAX_TABLE_IN:
        raise ValueError(
            f'the terrain needs a {width}"x{depth}" table; a table is at most '
            f'{MAX_TABLE_IN}" each way (are the coordinates in inches?)'
        )
    return width, depth


def export_terrain(
    raw_scenario: dict,
    path: str | os.PathLike,
    where: str = "<scenario>",
    data: RulesData | None = None,
) -> None:
    """Write a scenario's terrain (``raw_scenario["terrain"]``, the scenario file's dict) as a
    GeoJSON FeatureCollection file at ``path``, atomically, in table inches. Reading it back
    with :func:`import_terrain` gives the same features (a valid scenario's features come back
    equal; properties other than ``terrain``, a hill's ``level`` and ``name`` are not written).
    ``where`` names the scenario in errors. The table's size goes in the collection's
    ``hulldown_table`` member (:data:`TABLE_MEMBER`), which other GeoJSON readers ignore.

    Raises
    ------
    GeoJSONError
        Nothing is written when the scenario has no terrain FeatureCollection or a feature
        would not import back (the problems as :func:`import_terrain` words them, at the
        scenario's JSON path ``$.terrain.features[i]...`` and naming ``where``), or when the
        file cannot be written (naming ``path``).
    """
    data = data or load_rules_data()
    terrain = raw_scenario.get("terrain") if isinstance(raw_scenario, dict) else None
    if not isinstance(terrain, dict) or not isinstance(terrain.get("features"), list):
        raise GeoJSONError([f"{where}: $.terrain: the scenario has no terrain FeatureCollection"])
    problems: list[str] = []
    features = [
        _clean_feature(feat, f"$.terrain.features[{i}]", where, data, problems)
        for i, feat in enumerate(terrain["features"])
    ]
    if problems:
        raise GeoJSONError(problems)
    doc = {"type": "FeatureCollection", "features": features}
    table = raw_scenario.get("table")
    if isinstance(table, dict) and all(
        isinstance(table.get(k), (int, float)) and not isinstance(table.get(k), bool)
        for k in ("width", "depth")
    ):
        doc[TABLE_MEMBER] = {"width": table["width"], "depth": table["depth"]}
    try:
        write_atomic(path, json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    except OSError as err:
        raise GeoJSONError([f"{path}: cannot be written ({err})"]) from None


def _clean_feature(feat: Any, jpath: str, where: str, data: RulesData, problems: list[str]) -> dict:
    """One GeoJSON feature as a scenario terrain feature; its problems are appended to
    ``problems`` (one line each, ``where: jpath...: what``) and the result is then partial."""
    if not isinstance(feat, dict) or feat.get("type") != "Feature":
        found = feat.get("type") if isinstance(feat, dict) else type(feat).__name__
        problems.append(f"{where}: {jpath}: not a GeoJSON Feature (type {found!r})")
        return {}
    props = feat.get("properties")
    if props is None:
        props = {}
    if not isinstance(props, dict):
        problems.append(f"{where}: {jpath}.properties: must be an object")
        props = {}
    out_props: dict[str, Any] = {}
    kind = props.get("terrain")
    want: tuple[str, ...] | None = None
    if kind is None:
        problems.append(
            f"{where}: {jpath}.properties.terrain: missing (every feature needs a terrain "
            f"type, or hill)"
        )
    elif kind == "hill":
        want = _AREA
        out_props["terrain"] = kind
        level = props.get("level")
        if isinstance(level, float) and level.is_integer():
            level = int(level)
        if isinstance(level, bool) or not isinstance(level, int) or level < 1:
            found = "" if level is None else f" (not {level!r})"
            problems.append(
                f"{where}: {jpath}.properties.level: a hill needs an integer level >= 1{found}"
            )
        elif level > MAX_HILL_LEVEL:
            problems.append(
                f"{where}: {jpath}.properties.level: a hill's level is at most "
                f"{MAX_HILL_LEVEL} (not {level})"
            )
        else:
            out_props["level"] = level
    elif not isinstance(kind, str) or kind not in data.terrain:
        known = ", ".join(k for k, t in data.terrain.items() if t.geometry in ("area", "road"))
        problems.append(
            f"{where}: {jpath}.properties.terrain: unknown terrain type {kind!r} "
            f"(known: {known}, hill)"
        )
    elif data.terrain[kind].geometry not in ("area", "road"):
        problems.append(
            f"{where}: {jpath}.properties.terrain: {kind!r} cannot be drawn in a scenario "
            f"({data.terrain[kind].geometry} terrain is derived or placed by play)"
        )
    else:
        want = _AREA if data.terrain[kind].geometry == "area" else _ROAD
        out_props["terrain"] = kind
    name = props.get("name")
    if isinstance(name, str):
        out_props["name"] = name
    elif name is not None:
        problems.append(f"{where}: {jpath}.properties.name: must be text (not {name!r})")
    geometry = _clean_geometry(
        feat.get("geometry"), kind, want, f"{jpath}.geometry", where, problems
    )
    return {"type": "Feature", "properties": out_props, "geometry": geometry}


def _clean_geometry(
    geom: Any,
    kind: Any,
    want: tuple[str, ...] | None,
    jpath: str,
    where: str,
    problems: list[str],
) -> dict:
    """A feature's geometry with x, y coordinates only; ``want`` the geometry types its
    terrain allows (None: the terrain is unknown, any of the four types is read)."""
    allowed = want or (*_AREA, *_ROAD)
    if not isinstance(geom, dict):
        what = f"a {' or '.join(allowed)}" if want else "a geometry"
        problems.append(f"{where}: {jpath}: missing (the feature needs {what})")
        return {}
    gtype = geom.get("type")
    if gtype not in allowed:
        if want is not None:
            problems.append(
                f"{where}: {jpath}.type: {kind!r} must be a {' or '.join(want)}, not {gtype}"
            )
        else:
            problems.append(
                f"{where}: {jpath}.type: a terrain feature is a {' or '.join(allowed)}, not {gtype}"
            )
        return {}
    before = len(problems)
    coords = _clean_coords(
        geom.get("coordinates"), _NESTING[gtype], gtype, f"{jpath}.coordinates", where, problems
    )
    if len(problems) == before:  # cut to x, y: now held to the scenario's own rules
        bad, _count = coordinates_problem(gtype, coords)
        if bad is not None:
            problems.append(f"{where}: {jpath}.coordinates{bad}")
    return {"type": gtype, "coordinates": coords}


def _clean_coords(
    value: Any,
    nesting: tuple[str, ...],
    gtype: str,
    jpath: str,
    where: str,
    problems: list[str],
) -> Any:
    """Coordinates nested as ``nesting`` says (outermost first), each position cut to [x, y];
    problems appended as for :func:`_clean_feature`."""
    if not nesting:
        return _clean_position(value, jpath, where, problems)
    if not isinstance(value, list):
        problems.append(
            f"{where}: {jpath}: not valid {gtype} coordinates (a list of {nesting[0]} "
            f"expected, not {_json_type(value)})"
        )
        return []
    if value and all(isinstance(v, (int, float)) for v in value):
        # nested one level too shallow: say so once rather than once per number
        problems.append(
            f"{where}: {jpath}: not valid {gtype} coordinates (a list of {nesting[0]} "
            f"expected, not a list of numbers)"
        )
        return []
    return [
        _clean_coords(v, nesting[1:], gtype, f"{jpath}[{k}]", where, problems)
        for k, v in enumerate(value)
    ]


def _clean_position(value: Any, jpath: str, where: str, problems: list[str]) -> list:
    """One position as [x, y]: its first two values, which must be finite numbers."""
    if not isinstance(value, list) or len(value) < 2:
        found = repr(value) if isinstance(value, list) else _json_type(value)
        problems.append(
            f"{where}: {jpath}: a position is a list of at least two numbers [x, y], not {found}"
        )
        return []
    out = []
    for k, v in enumerate(value[:2]):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            problems.append(f"{where}: {jpath}[{k}]: not a number ({v!r})")
        elif not math.isfinite(v):
            problems.append(f"{where}: {jpath}[{k}]: not a finite number ({v!r})")
        else:
            out.append(v)
    return out


def _json_type(value: Any) -> str:
    """The JSON name of a value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _positions(coords: Any) -> Iterator[tuple[float, float]]:
    """Every (x, y) of nested scenario coordinates, however deep."""
    if coords and isinstance(coords[0], (int, float)):
        yield coords[0], coords[1]
        return
    for c in coords:
        yield from _positions(c)
