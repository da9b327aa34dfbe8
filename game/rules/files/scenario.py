"""Scenario files (``hulldown-scenario/1``): load, validate, write.

A scenario is one JSON file: title, ruleset, table size, sighting distance, turns, victory
conditions, terrain as a GeoJSON FeatureCollection, two sides and their stands. The format is
documented in ``docs/formats.md``.

:func:`load_scenario` checks the file in two passes (its shape with pydantic, then the rules and
the geometry) and raises :class:`ScenarioError` with one line per problem:
``file: $.json.path: what is wrong``. Every problem is reported in one run: when the shape check
fails, the parts that validate on their own (table size, ruleset, each terrain feature, side and
stand) still go through the second pass. :func:`write_scenario` writes atomically.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
from pydantic import BaseModel, ValidationError

from game.rules.charts.data import RulesData, UnitType, load_rules_data
from game.rules.charts.fire_data import air_support_problems
from game.rules.charts.units import carried_problems, units_files
from game.rules.files.jsonfile import JsonFileError, read_json_file, write_atomic
from game.rules.files.scenario_file import (
    MAX_FEATURES,
    MAX_STANDS,
    MAX_VERTICES,
    RULESET_IDS,
    Feature,
    ScenarioFile,
    Side,
    StandSpec,
    TableSize,
    capped_lists,
    over_cap,
)
from game.rules.files.shapes import GeometryProblem, coordinates_problem, read_geometry
from game.rules.table.geometry import OVERLAP_SQ_IN, StandPose, TerrainFeature, footprints
from game.rules.table.table import Table

FORMAT = "hulldown-scenario/1"
_ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV"}


class ScenarioError(ValueError):
    """A scenario file cannot be used. ``problems`` holds one line per problem, each naming the
    file, the JSON path and what is wrong; ``str()`` joins them."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


@dataclass(frozen=True)
class Scenario:
    """A validated scenario, ready for a battle.

    ``raw`` is the file's JSON as read (the battle log carries its terrain exactly);
    ``spec`` the parsed file; ``table`` the indexed terrain; ``units`` each stand's data row.
    """

    path: str
    raw: dict
    spec: ScenarioFile
    table: Table
    units: dict[str, UnitType]
    data: RulesData

    @property
    def title(self) -> str:
        """The scenario's title."""
        return self.spec.title

    @property
    def ruleset(self) -> str:
        """``modern`` or ``wwii``."""
        return self.spec.ruleset

    def generation_modifier(self, side_id: str) -> int:
        """The command-roll modifier of a side's generation (002: I -1 .. IV +2; none: 0)."""
        side = next(s for s in self.spec.sides if s.id == side_id)
        if side.generation is None:
            return 0
        return self.data.generation_modifiers[_ROMAN[side.generation]]


def _jpath(loc: tuple) -> str:
    out = "$"
    for p in loc:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out


def _pydantic_lines(err: ValidationError, where: str) -> list[str]:
    """One line per pydantic error, ``where: $.json.path: what is wrong``, in pydantic's order."""
    lines = []
    for e in err.errors():
        msg = e["msg"]
        if e["type"] == "extra_forbidden":
            msg = "unknown field"
        elif e["type"] == "string_unicode":
            msg = "a lone surrogate (half of a UTF-16 pair): names are printable text"
        elif e["type"] == "missing":
            msg = "required field is missing"
        elif e["type"] == "too_short" and tuple(e["loc"]) == ("stands",):
            msg = "at least 1 item is needed: a scenario needs stands of both sides"
        lines.append(f"{where}: {_jpath(e['loc'])}: {msg}")
    return lines


@dataclass(frozen=True)
class _Parts:
    """The parts of a scenario file that are valid on their own, for the rules and geometry
    checks (of the whole file when it validates, else of whatever of it does).

    ``table`` and ``ruleset`` are None when they did not validate. ``features``, ``sides`` and
    ``stands`` hold (index in the file, parsed entry) of the entries that validated.
    ``hills_complete``: no entry that failed could be a hill (hill nesting can be judged).
    ``two_sides``: the sides list has exactly two entries. ``side_ids``: the id of every side
    entry in file order, None when there are none or some entry has no readable id (a stand's
    side is then not checked). ``stands_listed``: the stands list is a non-empty list.
    ``bad_stands``: the raw stand entries that did not validate.
    """

    table: TableSize | None
    ruleset: str | None
    features: list[tuple[int, Feature]]
    hills_complete: bool
    sides: list[tuple[int, Side]]
    two_sides: bool
    side_ids: list[str] | None
    stands: list[tuple[int, StandSpec]]
    stands_listed: bool
    bad_stands: list[Any]

    @classmethod
    def of_spec(cls, spec: ScenarioFile) -> _Parts:
        """Every part of a file that validated as a whole."""
        return cls(
            table=spec.table,
            ruleset=spec.ruleset,
            features=list(enumerate(spec.terrain.features)),
            hills_complete=True,
            sides=list(enumerate(spec.sides)),
            two_sides=True,
            side_ids=[s.id for s in spec.sides],
            stands=list(enumerate(spec.stands)),
            stands_listed=True,
            bad_stands=[],
        )

    @classmethod
    def of_raw(cls, raw: dict) -> _Parts:
        """The parts of a file that failed whole-file validation which validate on their own:
        the table size, the ruleset, each terrain feature, each side, each stand."""
        try:
            table: TableSize | None = TableSize.model_validate(raw.get("table"))
        except ValidationError:
            table = None
        ruleset = raw.get("ruleset")
        terrain = raw.get("terrain")
        raw_features = terrain.get("features") if isinstance(terrain, dict) else None
        features, bad_features = _each(Feature, raw_features, MAX_FEATURES)
        if over_cap(raw_features, MAX_FEATURES):
            bad_features = [None]  # not looked at: any of them could be a hill
        raw_sides = raw.get("sides")
        sides, _ = _each(Side, raw_sides, 2)
        side_ids: list[str] | None = None
        if isinstance(raw_sides, list) and raw_sides:
            ids = [s.get("id") if isinstance(s, dict) else None for s in raw_sides]
            if all(isinstance(i, str) for i in ids):
                side_ids = [str(i) for i in ids]
        raw_stands = raw.get("stands")
        stands, bad_stands = _each(StandSpec, raw_stands, MAX_STANDS)
        return cls(
            table=table,
            ruleset=ruleset if ruleset in RULESET_IDS else None,
            features=features,
            hills_complete=not any(_may_be_hill(f) for f in bad_features),
            sides=sides,
            two_sides=isinstance(raw_sides, list) and len(raw_sides) == 2,
            side_ids=side_ids,
            stands=stands,
            stands_listed=isinstance(raw_stands, list) and 0 < len(raw_stands) <= MAX_STANDS,
            bad_stands=bad_stands,
        )


def _each(
    model: type[BaseModel], entries: Any, cap: int
) -> tuple[list[tuple[int, Any]], list[Any]]:
    """Validate each entry of a JSON list on its own: ((index, parsed) of the good ones, the
    raw bad ones). Not a list, or a list of more than ``cap`` entries: nothing good, nothing
    bad (pydantic has said so already). The cap comes first: the checks that follow are
    quadratic in places, and 100,000 stands at one point crashed Shapely after 40 s."""
    good: list[tuple[int, Any]] = []
    bad: list[Any] = []
    if isinstance(entries, list) and len(entries) <= cap:
        for i, entry in enumerate(entries):
            try:
                good.append((i, model.model_validate(entry)))
            except ValidationError:
                bad.append(entry)
    return good, bad


def _may_be_hill(entry: Any) -> bool:
    """Whether a terrain feature that did not validate could have been meant as a hill."""
    props = entry.get("properties") if isinstance(entry, dict) else None
    kind = props.get("terrain") if isinstance(props, dict) else None
    return not (isinstance(kind, str) and kind != "hill")


def _may_be_ghq(entry: Any, side_id: str) -> bool:
    """Whether a stand entry that did not validate could have been meant as a side's GHQ."""
    if not isinstance(entry, dict):
        return True
    side = entry.get("side")
    if isinstance(side, str) and side != side_id:
        return False
    return entry.get("ghq", False) is not False


def _shape_problems(
    parts: _Parts, data: RulesData, where: str
) -> tuple[list[str], list[TerrainFeature]]:
    """The terrain checks on the features that validated: terrain type, geometry type, valid
    and finite geometry inside the table (when the table size is known), hill levels and
    nesting. Returns the problem lines in file order and the features that passed."""
    problems: list[str] = []
    features: list[TerrainFeature] = []
    table_cover = None
    if parts.table is not None:
        # built once: buffering the table for every feature was a tenth of parse_scenario
        table_cover = shapely.box(0, 0, parts.table.width, parts.table.depth).buffer(1e-9)
    hills: list[tuple[int, int, shapely.Geometry]] = []
    vertices = 0
    for i, feat in parts.features:
        path = f"$.terrain.features[{i}]"
        kind = feat.properties.terrain
        gtype = feat.geometry.type
        want, wrong = _geometry_types(feat, data, f"{where}: {path}")
        problems += wrong
        if want is None:
            continue
        if gtype not in want:
            problems.append(
                f"{where}: {path}.geometry.type: {kind!r} must be a "
                f"{' or '.join(want)}, not {gtype}"
            )
            continue
        # the one gate of every geometry read from a file: the coordinates are
        # held to GeoJSON's rules before Shapely sees them, an empty hole segfaulted GEOS
        bad, count = coordinates_problem(gtype, feat.geometry.coordinates)
        if bad is not None:
            problems.append(f"{where}: {path}.geometry.coordinates{bad}")
            continue
        vertices += count
        if vertices > MAX_VERTICES:
            problems.append(
                f"{where}: {path}.geometry.coordinates: the terrain has more than "
                f"{MAX_VERTICES} positions in all"
            )
            break
        try:
            geom = read_geometry({"type": gtype, "coordinates": feat.geometry.coordinates})
        except GeometryProblem as err:
            problems.append(f"{where}: {path}.geometry{err.at}: {err.what}")
            continue
        if table_cover is not None and parts.table and not table_cover.covers(geom):
            x0, y0, x1, y1 = geom.bounds
            problems.append(
                f"{where}: {path}.geometry: lies outside the "
                f'{parts.table.width:g}"x{parts.table.depth:g}" table (bounds '
                f"{x0:g},{y0:g} to {x1:g},{y1:g})"
            )
            continue
        level = feat.properties.level or 0
        if kind == "hill":
            hills.append((i, level, geom))
        features.append(TerrainFeature(kind, geom, level, i))
    if parts.hills_complete:
        problems += _hill_nesting_problems(hills, where)
    return problems, features


def _geometry_types(
    feat: Any, data: RulesData, at: str
) -> tuple[tuple[str, ...] | None, list[str]]:
    """The GeoJSON geometry types terrain feature ``feat`` may have, by its terrain type
    (areas and hills polygons, roads lines), and the problems found on the way, each line
    starting with ``at`` (file and path). The types are None when the feature can go no
    further: a hill without a level, an unknown terrain type, or one a scenario cannot draw
    (derived or placed by play)."""
    kind = feat.properties.terrain
    if kind == "hill":
        if feat.properties.level is None:
            return None, [f"{at}.properties.level: a hill needs an integer level >= 1"]
        return ("Polygon", "MultiPolygon"), []
    if kind not in data.terrain:
        known = ", ".join(k for k, t in data.terrain.items() if t.geometry in ("area", "road"))
        return None, [
            f"{at}.properties.terrain: unknown terrain type {kind!r} (known: {known}, hill)"
        ]
    tt = data.terrain[kind]
    if tt.geometry == "area":
        want: tuple[str, ...] = ("Polygon", "MultiPolygon")
    elif tt.geometry == "road":
        want = ("LineString", "MultiLineString")
    else:
        return None, [
            f"{at}.properties.terrain: {kind!r} cannot be drawn "
            f"in a scenario ({tt.geometry} terrain is derived or placed by play)"
        ]
    if feat.properties.level is not None:
        return want, [f"{at}.properties.level: only hills have a level"]
    return want, []


def _hill_nesting_problems(hills: list[tuple[int, int, shapely.Geometry]], where: str) -> list[str]:
    """Each hill above level 1 lies inside a hill one level lower (rules-decisions "Hills"):
    ``hills`` are ``(feature index, level, polygon)``; a tolerance of 1e-9 inch forgives
    shared edges."""
    if not any(level > 1 for _, level, _ in hills):
        return []
    problems = []
    grown = [(lv, g.buffer(1e-9)) for _, lv, g in hills]
    for i, level, geom in hills:
        if level > 1 and not any(lv == level - 1 and g.covers(geom) for lv, g in grown):
            problems.append(
                f"{where}: $.terrain.features[{i}].properties.level: a level-{level} "
                f"hill must lie inside a level-{level - 1} hill"
            )
    return problems


def _stand_problems(
    parts: _Parts, data: RulesData, features: list[TerrainFeature], where: str
) -> tuple[list[str], dict[str, UnitType]]:
    """The checks of the sides and the stands that validated, each run only when the parts it
    needs are known: duplicate ids, unknown sides and units, stands off the table or off their
    entry edge, GHQs, stands overlapping at the start or on impassable ground (of ``features``,
    the terrain that passed its checks). Returns the problem lines and each stand's data row."""
    problems: list[str] = []
    sides = {s.id: s for _, s in parts.sides}
    if parts.two_sides and len(parts.sides) == 2 and len(sides) == 1:
        problems.append(f"{where}: $.sides[1].id: duplicate side id {parts.sides[1][1].id!r}")
    each, units = _each_stand_problems(parts, data, sides, where)
    problems += each
    if parts.two_sides:
        problems += _ghq_problems(parts, sides, where)
    problems += carried_problems(parts.stands, units, where)
    problems += air_support_problems(parts.sides, parts.ruleset, data, where)
    # a stand aboard a carrier is not placed
    placed = [
        (i, st)
        for i, st in parts.stands
        if st.on_table and math.isfinite(st.x) and math.isfinite(st.y) and st.carried_by is None
    ]
    if placed:
        problems += _start_overlaps(placed, where)
        problems += _impassable_starts(placed, data, features, where)
    return problems, units


def _each_stand_problems(
    parts: _Parts, data: RulesData, sides: dict, where: str
) -> tuple[list[str], dict[str, UnitType]]:
    """The checks of each stand on its own, in the order of the file: a duplicate id, an
    unknown side or unit (when the sides and the ruleset are known), finite x and y, and
    where it stands (``_placement_problem``). Returns the problem lines and each stand's
    data row (by stand id, for the stands whose unit is known)."""
    problems: list[str] = []
    units_table = data.units_for(parts.ruleset) if parts.ruleset is not None else None
    known = dict.fromkeys(parts.side_ids) if parts.side_ids is not None else None
    units: dict[str, UnitType] = {}
    seen: dict[str, int] = {}
    for i, st in parts.stands:
        path = f"$.stands[{i}]"
        if st.id in seen:
            problems.append(
                f"{where}: {path}.id: duplicate stand id {st.id!r} (also $.stands[{seen[st.id]}])"
            )
        seen.setdefault(st.id, i)
        if known is not None and st.side not in known:
            problems.append(
                f"{where}: {path}.side: unknown side {st.side!r} (sides: {', '.join(known)})"
            )
        if units_table is not None and st.unit not in units_table:
            problems.append(
                f"{where}: {path}.unit: unknown unit {st.unit!r} for the "
                f"{parts.ruleset} ruleset (see {units_files(data, str(parts.ruleset))})"
            )
        elif units_table is not None:
            units[st.id] = units_table[st.unit]
        if not (math.isfinite(st.x) and math.isfinite(st.y)):
            problems.append(f"{where}: {path}: x and y must be finite numbers")
            continue
        placement = _placement_problem(st, sides.get(st.side), parts.table, path)
        if placement:
            problems.append(f"{where}: {placement}")
    return problems, units


def _placement_problem(st, side, size, path: str) -> str | None:
    """Where stand ``st`` (finite x, y in inches) may not start, or None: a stand on the
    table wholly on it (its centre 0.5" in from each edge of ``size``, when known); an
    entering stand (``on_table`` false) on a point of its ``side``'s entry edge, which the
    side must have (when the side is known). ``path`` (``$.stands[i]``) starts the line."""
    if st.on_table:
        if size is not None and not (
            0.5 <= st.x <= size.width - 0.5 and 0.5 <= st.y <= size.depth - 0.5
        ):
            return f"{path}: stand at ({st.x:g}, {st.y:g}) is not wholly on the table"
        return None
    if side is not None and side.entry_edge is None:
        return f"{path}.on_table: the stand enters the table but side {st.side!r} has no entry_edge"
    if side is None or size is None:
        return None
    edge_coord = {
        "left": (st.x, 0.0),
        "right": (st.x, size.width),
        "bottom": (st.y, 0.0),
        "top": (st.y, size.depth),
    }
    v, want = edge_coord[side.entry_edge]
    along = st.y if side.entry_edge in ("left", "right") else st.x
    length = size.depth if side.entry_edge in ("left", "right") else size.width
    if abs(v - want) > 1e-6 or not (0.5 <= along <= length - 0.5):
        return (
            f"{path}: an entering stand's x, y must be a point on its side's {side.entry_edge} edge"
        )
    return None


def _ghq_problems(parts: _Parts, sides: dict, where: str) -> list[str]:
    """Each side has exactly one GHQ stand: none is a problem only when the stands were
    listed and none of those that failed their checks might have been its GHQ."""
    problems = []
    for side_id in sides:
        ghqs = [i for i, st in parts.stands if st.side == side_id and st.ghq]
        if not ghqs:
            if parts.stands_listed and not any(
                _may_be_ghq(entry, side_id) for entry in parts.bad_stands
            ):
                problems.append(
                    f"{where}: $.sides: side {side_id!r} has no GHQ stand "
                    f'(set "ghq": true on one of its stands)'
                )
        elif len(ghqs) > 1:
            problems.append(
                f"{where}: $.stands[{ghqs[1]}].ghq: side {side_id!r} has more than "
                f"one GHQ (also $.stands[{ghqs[0]}])"
            )
    return problems


def _start_overlaps(placed: list[tuple[int, Any]], where: str) -> list[str]:
    """Stands overlapping at the start (000 08.03.05): footprints of the ``placed``
    ``(index, stand)`` pairs that share more than ``OVERLAP_SQ_IN`` square inches, named by
    the later stand of each pair."""
    problems = []
    fps = footprints([StandPose(st.id, st.side, st.x, st.y, st.facing_deg) for _, st in placed])
    tree = shapely.STRtree(fps)
    a_idx, b_idx = tree.query(fps, predicate="intersects")
    for a, b in zip(a_idx, b_idx, strict=True):
        if a < b and shapely.area(shapely.intersection(fps[a], fps[b])) > OVERLAP_SQ_IN:
            problems.append(
                f"{where}: $.stands[{placed[b][0]}]: stand {placed[b][1].id!r} "
                f"overlaps stand {placed[a][1].id!r} at the start"
            )
    return problems


def _impassable_starts(
    placed: list[tuple[int, Any]], data: RulesData, features: list[TerrainFeature], where: str
) -> list[str]:
    """Stands on impassable ground: the centre in an area the tracked class cannot enter, the
    same test as Table.terrain_at, asked of the features that passed their checks."""
    impassable = [
        f.geometry
        for f in features
        if f.kind != "hill"
        and data.terrain[f.kind].geometry == "area"
        and data.terrain[f.kind].move_cost("T") is None
    ]
    if not impassable:
        return []
    xs = np.array([st.x for _, st in placed])
    ys = np.array([st.y for _, st in placed])
    stuck = np.zeros(len(placed), dtype=bool)
    for geom in impassable:
        stuck |= shapely.intersects_xy(geom, xs, ys)
    return [
        f"{where}: $.stands[{i}]: stand {st.id!r} starts on impassable ground"
        for (i, st), bad in zip(placed, stuck, strict=True)
        if bad
    ]


def parse_scenario(raw: Any, where: str = "<scenario>", data: RulesData | None = None) -> Scenario:
    """Validate a scenario already read from JSON (a dict). ``where`` names it in errors.

    Every problem of the file is reported in one go: when the file's shape does not validate
    as a whole (pydantic), the parts that do validate on their own (the table size, the
    ruleset, each terrain feature, each side, each stand) still go through the terrain and
    stand checks. The lines come pydantic's first, then the terrain's, then the stands'.

    Raises
    ------
    ScenarioError
        One line per problem, ``where: $.json.path: what is wrong`` (see
        :func:`load_scenario`).
    """
    data = data or load_rules_data()
    if not isinstance(raw, dict):
        raise ScenarioError([f"{where}: $: a scenario must be a JSON object"])
    spec: ScenarioFile | None = None
    shaped, over = capped_lists(raw)
    try:
        spec = ScenarioFile.model_validate(shaped)
    except ValidationError as err:
        problems = _pydantic_lines(err, where)
        parts = _Parts.of_raw(raw)
    else:
        problems = []
        parts = _Parts.of_spec(spec)
    if over:  # the parts of the whole file, the over-long lists left out
        spec, parts = None, _Parts.of_raw(raw)
        problems += [f"{where}: {line}" for line in over]
    shape_problems, features = _shape_problems(parts, data, where)
    stand_problems, units = _stand_problems(parts, data, features, where)
    problems += shape_problems + stand_problems
    if problems or spec is None:
        raise ScenarioError(problems)
    table = Table(spec.table.width, spec.table.depth, features, data.terrain, spec.table.ground)
    return Scenario(path=where, raw=raw, spec=spec, table=table, units=units, data=data)


def load_scenario(path: str | os.PathLike) -> Scenario:
    """Read and validate a scenario file.

    Raises
    ------
    ScenarioError
        One line per problem, ``file: $.json.path: what is wrong``: unreadable file, bad JSON,
        unknown or missing fields, bad numbers, unknown terrain type or unit, invalid or
        self-intersecting polygons, geometry outside the table, duplicate stand ids, stands
        overlapping at the start, a side without a GHQ.
    """
    where = str(path)
    try:
        raw = read_json_file(path)
    except JsonFileError as err:
        raise ScenarioError([str(err)]) from None
    return parse_scenario(raw, where)


def write_scenario(path: str | os.PathLike, raw: dict) -> None:
    """Validate a scenario dict and write it as pretty JSON, atomically.

    Raises ScenarioError (and writes nothing) if it does not validate.
    """
    parse_scenario(raw, str(path))
    write_atomic(path, json.dumps(raw, indent=1, ensure_ascii=False) + "\n")
