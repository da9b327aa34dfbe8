"""GeoJSON import and export of terrain for the map editor: round trip of a shipped map, every
kind of bad file with its line, foreign properties and 3-D coordinates dropped, table sizes."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from game.editor.geojson import GeoJSONError, export_terrain, import_terrain, table_size_for
from game.rules.files.scenario import parse_scenario

ROOT = Path(__file__).resolve().parents[2]
MEETING = ROOT / "maps" / "modern-meeting.json"
GOOD_SMALL = ROOT / "tests" / "fixtures" / "good-small.json"

WOOD = {
    "type": "Feature",
    "properties": {"terrain": "woods"},
    "geometry": {"type": "Polygon", "coordinates": [[[8, 2], [12, 2], [12, 6], [8, 6], [8, 2]]]},
}
ROAD = {
    "type": "Feature",
    "properties": {"terrain": "good_road"},
    "geometry": {"type": "LineString", "coordinates": [[0, 8], [24, 8]]},
}
HILL = {
    "type": "Feature",
    "properties": {"terrain": "hill", "level": 1},
    "geometry": {
        "type": "Polygon",
        "coordinates": [[[14, 6], [20, 6], [20, 11], [14, 11], [14, 6]]],
    },
}


def collection(*features) -> dict:
    """A FeatureCollection of the given features."""
    return {"type": "FeatureCollection", "features": list(features)}


def write(tmp_path: Path, doc, name: str = "in.geojson") -> Path:
    """Write a JSON document (or raw text) to a file in tmp_path and return its path."""
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return path


def changed(feature: dict, *, props=None, geometry=None) -> dict:
    """A copy of a feature with some properties replaced (None drops one) or a new geometry."""
    out = copy.deepcopy(feature)
    for k, v in (props or {}).items():
        if v is None:
            out["properties"].pop(k, None)
        else:
            out["properties"][k] = v
    if geometry is not None:
        out["geometry"] = geometry
    return out


# --- round trip -------------------------------------------------------------------------------


def test_shipped_map_terrain_round_trips(tmp_path):
    raw = json.loads(MEETING.read_text())
    out = tmp_path / "meeting.geojson"
    export_terrain(raw, out)
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written["type"] == "FeatureCollection"
    assert len(written["features"]) == len(raw["terrain"]["features"]) == 21
    assert import_terrain(out) == raw["terrain"]["features"]
    assert [p.name for p in tmp_path.iterdir()] == ["meeting.geojson"]  # no temporary left
    # the features fit the map's own table, exactly
    assert table_size_for(import_terrain(out)) == (60, 36)


def test_imported_features_make_a_valid_scenario(tmp_path):
    wood = changed(WOOD, props={"name": "Kirchwald"})
    path = write(tmp_path, collection(wood, ROAD, HILL))
    features = import_terrain(path)
    assert features == [wood, ROAD, HILL]
    raw = json.loads(GOOD_SMALL.read_text())
    raw["terrain"]["features"] = features
    sc = parse_scenario(raw, "imported")
    assert [f.kind for f in sc.table.features] == ["woods", "good_road", "hill"]


def test_export_overwrites_atomically_and_refuses_what_would_not_import(tmp_path):
    raw = json.loads(GOOD_SMALL.read_text())
    out = tmp_path / "t.geojson"
    export_terrain(raw, out)
    before = out.read_text()
    broken = copy.deepcopy(raw)
    broken["terrain"]["features"][0]["properties"]["terrain"] = "forest"
    broken["terrain"]["features"][2]["geometry"]["coordinates"][1][0] = "x"
    with pytest.raises(GeoJSONError) as err:
        export_terrain(broken, out, where="small.json")
    assert err.value.problems[0].startswith(
        "small.json: $.terrain.features[0].properties.terrain: unknown terrain type 'forest'"
    )
    assert err.value.problems[1] == (
        "small.json: $.terrain.features[2].geometry.coordinates[1][0]: not a number ('x')"
    )
    assert len(err.value.problems) == 2
    assert out.read_text() == before  # nothing written
    with pytest.raises(GeoJSONError, match=r"^small.json: \$.terrain: the scenario has no"):
        export_terrain({"title": "no terrain"}, out, where="small.json")


def test_export_to_an_unwritable_place_names_it(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    target = blocker / "terrain.geojson"  # its folder is a file
    with pytest.raises(GeoJSONError) as err:
        export_terrain(json.loads(GOOD_SMALL.read_text()), target)
    assert err.value.problems[0].startswith(f"{target}: cannot be written")


# --- what is kept and what is dropped ---------------------------------------------------------


def test_foreign_properties_and_members_are_dropped(tmp_path):
    wood = changed(WOOD, props={"fid": 7, "area_m2": 1234.5, "name": "Big wood", "style": {}})
    wood["properties"]["level"] = None  # a GIS layer's empty column
    wood["id"] = "wood-7"
    wood["bbox"] = [8, 2, 12, 6]
    wood["geometry"]["bbox"] = [8, 2, 12, 6]
    road = changed(ROAD, props={"level": 3, "surface": "asphalt"})  # a level only on hills
    road["properties"]["name"] = None
    doc = collection(wood, road)
    doc["name"] = "layer"
    doc["crs"] = {"type": "name", "properties": {"name": "EPSG:3857"}}
    features = import_terrain(write(tmp_path, doc))
    assert features == [
        {
            "type": "Feature",
            "properties": {"terrain": "woods", "name": "Big wood"},
            "geometry": WOOD["geometry"],
        },
        ROAD,
    ]


def test_3d_coordinates_are_cut_to_2d(tmp_path):
    hill = changed(
        HILL,
        props={"level": 2.0},  # a whole number written as a float is a level
        geometry={
            "type": "MultiPolygon",
            "coordinates": [[[[14, 6, 101.5], [20, 6, 99], [20, 11, 98], [14, 6, 101.5]]]],
        },
    )
    road = changed(
        ROAD,
        geometry={"type": "MultiLineString", "coordinates": [[[0, 8, 3, 1000], [24, 8.5, 4, 9]]]},
    )
    features = import_terrain(write(tmp_path, collection(hill, road)))
    assert features[0]["geometry"] == {
        "type": "MultiPolygon",
        "coordinates": [[[[14, 6], [20, 6], [20, 11], [14, 6]]]],
    }
    assert features[0]["properties"] == {"terrain": "hill", "level": 2}
    assert type(features[0]["properties"]["level"]) is int
    assert features[1]["geometry"]["coordinates"] == [[[0, 8], [24, 8.5]]]


# --- bad files --------------------------------------------------------------------------------

# name -> (file content: a JSON document or raw text, the expected line after "FILE: ")
BAD = {
    "not JSON": ('{"type": "FeatureCollection",, }', "line 1 column 30: not valid JSON"),
    "top-level array": ([1, 2], "$: not a GeoJSON FeatureCollection (not a JSON object)"),
    "a lone Feature": (WOOD, "$.type: not a GeoJSON FeatureCollection (type 'Feature')"),
    "features not a list": (
        {"type": "FeatureCollection", "features": {}},
        "$.features: a FeatureCollection needs a list of features",
    ),
    "not a Feature": (
        collection(WOOD, {"type": "Polygon", "coordinates": []}),
        "$.features[1]: not a GeoJSON Feature (type 'Polygon')",
    ),
    "no terrain": (
        collection(ROAD, changed(WOOD, props={"terrain": None, "landuse": "forest"})),
        "$.features[1].properties.terrain: missing (every feature needs a terrain type, or hill)",
    ),
    "no properties": (
        collection({"type": "Feature", "properties": None, "geometry": WOOD["geometry"]}),
        "$.features[0].properties.terrain: missing",
    ),
    "unknown terrain type": (
        collection(WOOD, ROAD, HILL, changed(WOOD, props={"terrain": "forest"})),
        "$.features[3].properties.terrain: unknown terrain type 'forest' (known: clear, smoke,",
    ),
    "terrain not text": (
        collection(changed(WOOD, props={"terrain": 4})),
        "$.features[0].properties.terrain: unknown terrain type 4",
    ),
    "derived terrain": (
        collection(changed(WOOD, props={"terrain": "slope"})),
        "$.features[0].properties.terrain: 'slope' cannot be drawn in a scenario",
    ),
    "hill without level": (
        collection(changed(HILL, props={"level": None})),
        "$.features[0].properties.level: a hill needs an integer level >= 1",
    ),
    "hill level 0": (
        collection(changed(HILL, props={"level": 0})),
        "$.features[0].properties.level: a hill needs an integer level >= 1 (not 0)",
    ),
    "hill level 1.5": (
        collection(changed(HILL, props={"level": 1.5})),
        "$.features[0].properties.level: a hill needs an integer level >= 1 (not 1.5)",
    ),
    "hill level as text": (
        collection(changed(HILL, props={"level": "2"})),
        "$.features[0].properties.level: a hill needs an integer level >= 1 (not '2')",
    ),
    "hill level too high": (
        collection(changed(HILL, props={"level": 21})),
        "$.features[0].properties.level: a hill's level is at most 20 (not 21)",
    ),
    "road as a polygon": (
        collection(changed(ROAD, geometry=WOOD["geometry"])),
        "$.features[0].geometry.type: 'good_road' must be a LineString or MultiLineString, "
        "not Polygon",
    ),
    "wood as a line": (
        collection(changed(WOOD, geometry=ROAD["geometry"])),
        "$.features[0].geometry.type: 'woods' must be a Polygon or MultiPolygon, not LineString",
    ),
    "hill as a point": (
        collection(changed(HILL, geometry={"type": "Point", "coordinates": [3, 4]})),
        "$.features[0].geometry.type: 'hill' must be a Polygon or MultiPolygon, not Point",
    ),
    "no geometry": (
        collection({"type": "Feature", "properties": {"terrain": "track"}, "geometry": None}),
        "$.features[0].geometry: missing (the feature needs a LineString or MultiLineString)",
    ),
    "coordinate not a number": (
        collection(
            changed(ROAD, geometry={"type": "LineString", "coordinates": [[0, 8], ["24", 8]]})
        ),
        "$.features[0].geometry.coordinates[1][0]: not a number ('24')",
    ),
    "coordinate null": (
        collection(
            changed(ROAD, geometry={"type": "LineString", "coordinates": [[0, 8], [24, None]]})
        ),
        "$.features[0].geometry.coordinates[1][1]: not a number (None)",
    ),
    "coordinate NaN": (
        '{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": '
        '{"terrain": "woods"}, "geometry": {"type": "Polygon", "coordinates": '
        "[[[8, 2], [12, NaN], [12, 6], [8, 2]]]}}]}",
        "$.features[0].geometry.coordinates[0][1][1]: not a finite number (nan)",
    ),
    "coordinate infinite": (
        '{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": '
        '{"terrain": "track"}, "geometry": {"type": "LineString", "coordinates": '
        "[[-Infinity, 2], [12, 2]]}}]}",
        "$.features[0].geometry.coordinates[0][0]: not a finite number (-inf)",
    ),
    "position with one number": (
        collection(changed(ROAD, geometry={"type": "LineString", "coordinates": [[0, 8], [24]]})),
        "$.features[0].geometry.coordinates[1]: a position is a list of at least two numbers "
        "[x, y], not [24]",
    ),
    "polygon nested too shallow": (
        collection(
            changed(WOOD, geometry={"type": "Polygon", "coordinates": [[8, 2, 12, 2, 12, 6, 8, 2]]})
        ),
        "$.features[0].geometry.coordinates[0]: not valid Polygon coordinates (a list of "
        "positions expected, not a list of numbers)",
    ),
    "position not a list": (
        collection(changed(ROAD, geometry={"type": "LineString", "coordinates": [[0, 8], "24,8"]})),
        "$.features[0].geometry.coordinates[1]: a position is a list of at least two numbers "
        "[x, y], not a string",
    ),
    "coordinates missing": (
        collection(changed(WOOD, geometry={"type": "Polygon"})),
        "$.features[0].geometry.coordinates: not valid Polygon coordinates (a list of rings "
        "expected, not null)",
    ),
    "name not text": (
        collection(changed(WOOD, props={"name": 12})),
        "$.features[0].properties.name: must be text (not 12)",
    ),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_file_gets_its_line(name, tmp_path):
    content, line = BAD[name]
    path = write(tmp_path, content)
    with pytest.raises(GeoJSONError) as err:
        import_terrain(path)
    assert err.value.problems[0].startswith(f"{path}: {line}"), err.value.problems
    assert len(err.value.problems) == 1, err.value.problems
    assert str(err.value) == "\n".join(err.value.problems)


def test_unreadable_files(tmp_path):
    missing = tmp_path / "nope.geojson"
    with pytest.raises(GeoJSONError) as err:
        import_terrain(missing)
    assert err.value.problems == [f"{missing}: no such file"]
    with pytest.raises(GeoJSONError) as err:
        import_terrain(tmp_path)  # a folder
    assert err.value.problems[0].startswith(f"{tmp_path}: cannot be read (")
    latin = tmp_path / "latin.geojson"
    latin.write_bytes(b'{"name": "\xe9t\xe9"}')
    with pytest.raises(GeoJSONError) as err:
        import_terrain(latin)
    assert err.value.problems[0].startswith(f"{latin}: cannot be read (")


def test_every_problem_of_a_file_is_reported(tmp_path):
    doc = collection(
        changed(WOOD, props={"terrain": "forest"}),
        ROAD,
        changed(HILL, props={"level": None}),
        changed(ROAD, geometry={"type": "LineString", "coordinates": [[0, 8], ["a", "b"]]}),
        changed(WOOD, geometry=ROAD["geometry"]),
    )
    path = write(tmp_path, doc)
    with pytest.raises(GeoJSONError) as err:
        import_terrain(path)
    assert [p.removeprefix(f"{path}: ").split(": ")[0] for p in err.value.problems] == [
        "$.features[0].properties.terrain",
        "$.features[2].properties.level",
        "$.features[3].geometry.coordinates[1][0]",
        "$.features[3].geometry.coordinates[1][1]",
        "$.features[4].geometry.type",
    ]


# --- table size for a new table ---------------------------------------------------------------


def test_table_size_covers_the_bounds_in_whole_inches():
    road = changed(ROAD, geometry={"type": "LineString", "coordinates": [[0, 8], [40.2, 30]]})
    assert table_size_for([WOOD, road]) == (41, 30)
    assert table_size_for([WOOD, ROAD, HILL]) == (24, 12)  # exactly 24" wide
    assert table_size_for([WOOD]) == (12, 12)  # never smaller than 12"x12"
    assert table_size_for([]) == (12, 12)
    noisy = changed(ROAD, geometry={"type": "LineString", "coordinates": [[0, 8], [30 + 1e-12, 8]]})
    assert table_size_for([noisy]) == (30, 12)


def test_table_size_refuses_what_no_table_covers():
    below = changed(ROAD, geometry={"type": "LineString", "coordinates": [[-2, 8], [24, 8]]})
    with pytest.raises(ValueError, match="x = -2"):
        table_size_for([below])
    huge = changed(ROAD, geometry={"type": "LineString", "coordinates": [[0, 8], [4500, 8]]})
    with pytest.raises(ValueError, match='4500"x12" table'):
        table_size_for([huge])
