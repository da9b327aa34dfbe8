"""Scenario files: the shipped maps, and broken files that each get one clear line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import shapely

from game.cli import main
from game.rules.files.scenario import ScenarioError, load_scenario, parse_scenario, write_scenario

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
BAD = FIXTURES / "bad"

# fixture -> (JSON path named in the error, words of the problem)
EXPECTED = {
    "01-not-json": ("line 2 column 23", "not valid JSON"),
    "02-top-level-array": ("$", "must be a JSON object"),
    "03-missing-title": ("$.title", "required field is missing"),
    "04-unknown-field": ("$.titel", "unknown field"),
    "05-unknown-terrain-type": (
        "$.terrain.features[0].properties.terrain",
        "unknown terrain type 'forest'",
    ),
    "06-self-intersecting-polygon": (
        "$.terrain.features[0].geometry",
        "self-intersection at (10, 4)",
    ),
    "07-polygon-outside-table": ("$.terrain.features[0].geometry", 'outside the 24"x12" table'),
    "08-duplicate-stand-id": ("$.stands[1].id", "duplicate stand id 'A1'"),
    "09-stands-overlap": ("$.stands[1]", "overlaps stand 'A1' at the start"),
    "10-side-without-ghq": ("$.sides", "side 'B' has no GHQ stand"),
    "11-two-ghqs": ("$.stands[1].ghq", "more than one GHQ"),
    "12-unknown-unit": ("$.stands[1].unit", "unknown unit 'Tiger II'"),
    "13-cohesion-out-of-range": ("$.sides[0].cohesion", "less than or equal to 20"),
    "14-negative-table-width": ("$.table.width", "greater than or equal to 6"),
    "15-unknown-ruleset": ("$.ruleset", "'modern', 'wwii', 'modern-full' or 'wwii-47'"),
    "16-stand-of-unknown-side": ("$.stands[1].side", "unknown side 'C'"),
    "17-road-as-polygon": ("$.terrain.features[2].geometry.type", "must be a LineString"),
    "18-hill-without-level": ("$.terrain.features[1].properties.level", "a hill needs"),
    "19-level-2-hill-outside-level-1": (
        "$.terrain.features[3].properties.level",
        "must lie inside a level-1 hill",
    ),
    "20-entering-without-entry-edge": ("$.stands[3].on_table", "has no entry_edge"),
    "21-stand-off-the-table": ("$.stands[1]", "not wholly on the table"),
    "22-nan-coordinate": ("$.stands[1].x", "finite number"),
    "23-polygon-too-few-points": (
        "$.terrain.features[0].geometry.coordinates[0]",
        "a ring needs at least 4 positions",
    ),
    "24-zero-turns": ("$.turns", "greater than or equal to 1"),
    "25-three-sides": ("$.sides", "at most 2 items"),
    "26-stand-on-impassable-ground": ("$.stands[1]", "starts on impassable ground"),
    "27-wrong-format": ("$.format", "'hulldown-scenario/1'"),
    "28-level-on-a-wood": ("$.terrain.features[0].properties.level", "only hills have a level"),
    "29-no-stands": ("$.stands", "at least 1 item"),
    "30-facing-not-a-number": ("$.stands[0].facing_deg", "valid number"),
    "31-entering-stand-not-on-its-edge": ("$.stands[3]", "on its side's right edge"),
    "32-wreck-drawn-in-scenario": (
        "$.terrain.features[0].properties.terrain",
        "cannot be drawn in a scenario",
    ),
    "33-unknown-ground": ("$.table.ground", "'grass' or 'sand'"),
}


def test_every_bad_fixture_has_an_expectation():
    assert {p.stem for p in BAD.glob("*.json")} == set(EXPECTED)
    assert len(EXPECTED) >= 20


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_broken_file_gets_one_clear_line(name, capsys):
    path = BAD / f"{name}.json"
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    where, words = EXPECTED[name]
    assert err[0].startswith(f"{path}: {where}")
    assert words in err[0]


def test_check_from_the_shell_never_prints_a_traceback():
    files = sorted(str(p) for p in BAD.glob("*.json"))
    run = subprocess.run(
        [sys.executable, "-m", "game", "check", *files], capture_output=True, text=True, cwd=ROOT
    )
    assert run.returncode == 1
    assert "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == len(files)


def test_missing_file_is_one_line(capsys):
    assert main(["check", "no/such/map.json"]) == 1
    assert capsys.readouterr().err.strip() == "no/such/map.json: no such file"


def test_several_problems_are_all_reported():
    raw = json.loads((FIXTURES / "good-small.json").read_text())
    raw["stands"][1]["unit"] = "Tiger II"
    raw["stands"][0]["id"] = "B1"
    with pytest.raises(ScenarioError) as err:
        write_scenario(FIXTURES / "never-written.json", raw)
    assert len(err.value.problems) >= 2
    assert not (FIXTURES / "never-written.json").exists()


def test_good_fixture_loads():
    sc = load_scenario(FIXTURES / "good-small.json")
    assert sc.ruleset == "modern"
    assert sc.units["A1"].name == "T-80U / AT-11"
    assert sc.generation_modifier("A") == 1 and sc.generation_modifier("B") == 2


def test_write_is_atomic_and_round_trips(tmp_path):
    raw = json.loads((FIXTURES / "good-small.json").read_text())
    out = tmp_path / "copy.json"
    write_scenario(out, raw)
    assert json.loads(out.read_text()) == raw
    raw["turns"] = 0
    with pytest.raises(ScenarioError):
        write_scenario(out, raw)
    assert json.loads(out.read_text())["turns"] == 6  # the old file is untouched
    assert [p.name for p in tmp_path.iterdir()] == ["copy.json"]  # no temporary left behind


# --- the two shipped scenarios follow the seed scenario sheets ------------------------------

SHEETS = {
    # map: (ruleset, width, depth, sighting, unit A, count A, cohesion A, unit B, count B, coh B)
    "modern-meeting": ("modern", 60, 36, 30, "T-80U / AT-11", 10, 15, "M1A2 Abrams", 7, 16),
    "wwii-meeting": ("wwii", 48, 24, 20, "Pz IIIJ-M", 10, 15, 'M4 "Sherman"', 8, 14),
}


@pytest.mark.parametrize("name", sorted(SHEETS))
def test_shipped_scenario_follows_its_sheet(name):
    sc = load_scenario(ROOT / "maps" / f"{name}.json")
    ruleset, w, d, sight, unit_a, n_a, coh_a, unit_b, n_b, coh_b = SHEETS[name]
    spec = sc.spec
    assert (spec.ruleset, spec.table.width, spec.table.depth, spec.max_sighting_in, spec.turns) == (
        ruleset,
        w,
        d,
        sight,
        12,
    )
    for side, unit, n, coh, edge in (
        ("A", unit_a, n_a, coh_a, "left"),
        ("B", unit_b, n_b, coh_b, "right"),
    ):
        mine = [s for s in spec.stands if s.side == side]
        assert [s.unit for s in mine] == [unit] * n
        assert sum(s.ghq for s in mine) == 1
        assert all(not s.on_table for s in mine)  # both enter on turn 1
        side_spec = next(s for s in spec.sides if s.id == side)
        assert (side_spec.cohesion, side_spec.entry_edge) == (coh, edge)
    table = sc.table
    area = w * d
    woods = shapely.union_all([f.geometry for f in table.areas if f.kind == "woods"])
    assert 0.10 <= woods.area / area <= 0.30
    for lot in getattr(woods, "geoms", [woods]):
        x0, y0, x1, y1 = lot.bounds
        assert 4 - 1e-6 <= max(x1 - x0, y1 - y0) <= 6 + 1e-6  # lots of 4-6 inches
    towns = [f.geometry for f in table.areas if f.kind == "light_buildings"]
    assert len(towns) <= 2 and sum(t.area for t in towns) == pytest.approx(7.0)
    road = [f.geometry for f in table.roads if f.kind == "good_road"]
    assert len(road) == 1
    (sx, _), (ex, _) = road[0].coords[0], road[0].coords[-1]
    assert {sx, ex} == {0, w}  # from one narrow edge to the other
    hills = [f.geometry for f in table.hills if f.level == 1]
    assert sorted(h.centroid.x < w / 2 for h in hills) == [False, True]  # one each side
    # each half alike: the terrain turned half a turn about the centre is the same terrain
    for kind in ("woods", "light_buildings", "hill"):
        geoms = [f.geometry for f in table.features if f.kind == kind]
        union = shapely.union_all(geoms)
        turned = shapely.affinity.rotate(union, 180, origin=(w / 2, d / 2))
        assert union.symmetric_difference(turned).area < 1e-3


def test_shipped_maps_pass_check(capsys):
    maps = sorted(str(p) for p in (ROOT / "maps").glob("*.json"))
    assert len(maps) >= 2
    assert main(["check", *maps]) == 0
    assert capsys.readouterr().out.count(": ok (") == len(maps)


# --- every problem of a file in one run -------------------------------------------------------

SEVERAL = FIXTURES / "several"

# fixture -> the (JSON path, words) of every line, in order: pydantic's, the terrain's, the
# stands'. Each file breaks good-small.json in two or three places of different stages.
EXPECTED_SEVERAL = {
    "01-facing-and-self-intersection": [
        ("$.stands[1].facing_deg", "less than or equal to 360"),
        ("$.terrain.features[0].geometry", "self-intersection at (10, 4)"),
    ],
    "02-unknown-field-and-unknown-unit": [
        ("$.titel", "unknown field"),
        ("$.stands[1].unit", "unknown unit 'Tiger II'"),
    ],
    "03-one-in-each-stage": [
        ("$.titel", "unknown field"),
        ("$.terrain.features[0].geometry", "self-intersection at (10, 4)"),
        ("$.stands[1].unit", "unknown unit 'Tiger II'"),
    ],
    "04-cohesion-outside-off-table": [
        ("$.sides[0].cohesion", "less than or equal to 20"),
        ("$.terrain.features[0].geometry", 'outside the 24"x12" table'),
        ("$.stands[1]", "stand at (0.2, 5) is not wholly on the table"),
    ],
    # the table size is broken, so nothing is said about lying outside it
    "05-bad-width-unknown-terrain-duplicate-id": [
        ("$.table.width", "greater than or equal to 6"),
        ("$.terrain.features[0].properties.terrain", "unknown terrain type 'forest'"),
        ("$.stands[1].id", "duplicate stand id 'A1' (also $.stands[0])"),
    ],
    # the ruleset is broken, so the units are not looked up
    "06-bad-ruleset-hill-outside-overlap": [
        ("$.ruleset", "'modern', 'wwii', 'modern-full' or 'wwii-47'"),
        ("$.terrain.features[3].properties.level", "must lie inside a level-1 hill"),
        ("$.stands[1]", "overlaps stand 'A1' at the start"),
    ],
    # B1, side B's GHQ, now names side C: B has no GHQ left
    "07-nan-unknown-side-road-polygon": [
        ("$.stands[1].x", "finite number"),
        ("$.terrain.features[2].geometry.type", "must be a LineString"),
        ("$.stands[2].side", "unknown side 'C' (sides: A, B)"),
        ("$.sides", "side 'B' has no GHQ stand"),
    ],
    # the broken stand is side A's GHQ: A is not said to have none
    "08-broken-ghq-and-self-intersection": [
        ("$.stands[0].facing_deg", "valid number"),
        ("$.terrain.features[0].geometry", "self-intersection at (10, 4)"),
    ],
    # the level-1 hill is broken: the level-2 hill inside it is not said to lie outside
    "09-broken-hill-level-and-entry": [
        ("$.terrain.features[1].properties.level", "valid integer"),
        ("$.stands[3]", "on its side's right edge"),
    ],
    # no pydantic problem: the stand checks run on the terrain that passed its own
    "10-self-intersection-off-table-impassable": [
        ("$.terrain.features[0].geometry", "self-intersection at (10, 4)"),
        ("$.stands[2]", "stand at (23.8, 3) is not wholly on the table"),
        ("$.stands[1]", "stand 'A2' starts on impassable ground"),
    ],
    # three sides: no side is held to have a GHQ, but stands still name known sides
    "11-three-sides-and-unknown-side": [
        ("$.sides", "at most 2 items"),
        ("$.stands[1].side", "unknown side 'D' (sides: A, B, C)"),
    ],
}


def test_every_several_fixture_has_an_expectation():
    assert {p.stem for p in SEVERAL.glob("*.json")} == set(EXPECTED_SEVERAL)


@pytest.mark.parametrize("name", sorted(EXPECTED_SEVERAL))
def test_check_reports_every_problem_of_a_file(name, capsys):
    path = SEVERAL / f"{name}.json"
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    expected = EXPECTED_SEVERAL[name]
    assert len(err) == len(expected), err
    for line, (where, words) in zip(err, expected, strict=True):
        assert line.startswith(f"{path}: {where}: "), (line, where)
        assert words in line, (line, words)


def test_every_stage_is_reported_by_parse_scenario():
    raw = json.loads((FIXTURES / "good-small.json").read_text())
    raw["stands"][1]["facing_deg"] = 999  # pydantic
    raw["victory"]["type"] = "last_man_standing"  # pydantic
    raw["terrain"]["features"][0]["geometry"]["coordinates"] = [
        [[8, 2], [12, 6], [12, 2], [8, 6], [8, 2]]
    ]  # geometry
    raw["stands"][2]["unit"] = "Tiger II"  # stands
    with pytest.raises(ScenarioError) as err:
        parse_scenario(raw, "x.json")
    assert [p.split(": ")[1] for p in err.value.problems] == [
        "$.victory.type",
        "$.stands[1].facing_deg",
        "$.terrain.features[0].geometry",
        "$.stands[2].unit",
    ]


def test_large_scenario_parses():
    # 72"x48", 300 terrain features (woods, rough, buildings lots, roads, hills), 40 stands: the
    # size the map editor validates after every change (target: parse_scenario <= 50 ms)
    sc = load_scenario(FIXTURES / "large-72x48-300-features.json")
    assert (sc.spec.table.width, sc.spec.table.depth) == (72, 48)
    assert len(sc.table.features) == 300 and len(sc.units) == 40
    assert {f.kind for f in sc.table.hills} == {"hill"} and len(sc.table.roads) == 4
