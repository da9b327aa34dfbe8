"""Scenario limits (#26, docs/formats.md "Limits"): files the JSON reader passes but that are
too big or malformed for a table, each refused by ``check``, ``load_scenario``, ``simulate``
and ``render`` with one line, in time (tests.hostile.test_hostile.answered bounds each call to 2 s).
Before the mend every one of these said "ok"."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import pytest

from game import ScenarioError, load_scenario
from game.cli import main
from game.rules.files.scenario_file import (
    MAX_DESCRIPTION_CHARS,
    MAX_FEATURES,
    MAX_NAME_CHARS,
    MAX_STANDS,
    MAX_VERTICES,
    MAX_WORD_CHARS,
)
from tests.helpers import answered, check_says

SKIRMISH = json.loads(
    (Path(__file__).resolve().parents[2] / "maps/modern-skirmish.json").read_text()
)


def _first_polygon(doc: dict) -> dict:
    return next(f for f in doc["terrain"]["features"] if f["geometry"]["type"] == "Polygon")


def three_d(doc):
    g = _first_polygon(doc)["geometry"]
    g["coordinates"] = [[[*p, 0] for p in ring] for ring in g["coordinates"]]


def unclosed(doc):
    g = _first_polygon(doc)["geometry"]
    g["coordinates"] = [ring[:-1] for ring in g["coordinates"]]


def too_short(doc):
    _first_polygon(doc)["geometry"]["coordinates"] = [[[1, 1], [2, 2], [1, 1]]]


def position_text(doc):
    _first_polygon(doc)["geometry"]["coordinates"][0][1] = ["a", 2]


def many_features(doc):
    wood = _first_polygon(doc)
    doc["terrain"]["features"] = [copy.deepcopy(wood) for _ in range(MAX_FEATURES + 1)]


def many_vertices(doc):
    n = MAX_VERTICES + 10
    ring = [
        [10 + 3 * math.cos(2 * math.pi * k / n), 10 + 3 * math.sin(2 * math.pi * k / n)]
        for k in range(n)
    ]
    _first_polygon(doc)["geometry"]["coordinates"] = [[*ring, ring[0]]]


def many_stands(doc):
    stand = doc["stands"][0]
    doc["stands"] = [{**stand, "id": f"S{i}"} for i in range(MAX_STANDS + 1)]


CASES = {
    "3-D positions": (
        three_d,
        "$.terrain.features[{i}].geometry.coordinates[0][0]: a position must be [x, y] in "
        "inches (2-D only: no height)",
    ),
    "an unclosed ring": (
        unclosed,
        "$.terrain.features[{i}].geometry.coordinates[0]: the ring is not closed (its last "
        "position must repeat its first)",
    ),
    "a ring of 3 positions": (
        too_short,
        "$.terrain.features[{i}].geometry.coordinates[0]: a ring needs at least 4 positions, "
        "the last repeating the first",
    ),
    "a position of text": (
        position_text,
        "$.terrain.features[{i}].geometry.coordinates[0][1]: x and y must be numbers",
    ),
    "too many features": (
        many_features,
        f"$.terrain.features: List should have at most {MAX_FEATURES} items, not {MAX_FEATURES + 1}",
    ),
    "too many positions": (
        many_vertices,
        f"$.terrain.features[{{i}}].geometry.coordinates: the terrain has more than "
        f"{MAX_VERTICES} positions in all",
    ),
    "too many stands": (many_stands, f"$.stands: List should have at most {MAX_STANDS} items"),
    "a long description": (
        lambda d: d.update(description="x" * (MAX_DESCRIPTION_CHARS + 1)),
        f"$.description: String should have at most {MAX_DESCRIPTION_CHARS} characters",
    ),
    "a long title": (
        lambda d: d.update(title="x" * (MAX_NAME_CHARS + 1)),
        f"$.title: String should have at most {MAX_NAME_CHARS} characters",
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_a_scenario_over_a_limit_gets_one_line(tmp_path, capsys, name):
    edit, line = CASES[name]
    doc = copy.deepcopy(SKIRMISH)
    edit(doc)
    i = doc["terrain"]["features"].index(_first_polygon(doc))
    path = tmp_path / "big.json"
    path.write_text(json.dumps(doc))
    lines = check_says(path, capsys)
    assert any(x.startswith(f"{path}: {line.format(i=i)}") for x in lines), lines
    with pytest.raises(ScenarioError):
        answered(load_scenario, path)
    for command in (
        ["simulate", str(path), "--games", "1"],
        ["render", str(path), "--out", str(tmp_path / "x.png")],
    ):
        assert answered(main, command) == 1
        err = capsys.readouterr().err
        assert "Traceback" not in err and line.format(i=i)[:40] in err


def test_a_picture_too_big_to_draw_says_the_scale_that_fits(tmp_path, capsys):
    doc = copy.deepcopy(SKIRMISH)
    doc["table"] = {"width": 1000, "depth": 1000}
    path = tmp_path / "wide.json"
    path.write_text(json.dumps(doc))
    assert (
        answered(main, ["render", str(path), "--out", str(tmp_path / "x.png"), "--scale", "40"])
        == 1
    )
    err = capsys.readouterr().err.strip()
    assert err.endswith("more than 16384 on a side; give --scale 16 or less for this table)")
    assert not (tmp_path / "x.png").exists()


def _side(doc, **kv):
    doc["sides"][1].update(kv)


def _stand(doc, **kv):
    doc["stands"][0].update(kv)


def _first_feature_name(doc, name):
    _first_polygon(doc)["properties"]["name"] = name


def _many_stands_at_one_point(doc):
    stand = doc["stands"][0]
    doc["stands"] = [{**stand, "id": f"S{i}"} for i in range(20_000)]


def _many_nested_hills(doc):
    feats = []
    for k in range(MAX_FEATURES * 6):
        e = 0.001 * k
        ring = [[1 + e, 1 + e], [35 - e, 1 + e], [35 - e, 23 - e], [1 + e, 23 - e], [1 + e, 1 + e]]
        feats.append(
            {
                "type": "Feature",
                "properties": {"terrain": "hill", "level": min(20, 1 + k)},
                "geometry": {"type": "Polygon", "coordinates": [ring]},
            }
        )
    doc["terrain"]["features"] = feats


# Issue #30: strict types (true is not a number, "12" is not a number, 1 is not true), sane
# ranges (docs/formats.md), printable names, and caps enforced before the quadratic checks.
# Before the mend each of these said "ok" (turns true played 1 turn), or crashed the screens'
# font rendering (a NUL), or took 40 s and crashed Shapely (100,000 stands at one point).
STRICT = {
    "turns true": (lambda d: d.update(turns=True), "$.turns: Input should be a valid integer"),
    "turns as text": (lambda d: d.update(turns="12"), "$.turns: Input should be a valid integer"),
    "turns 2.5": (
        lambda d: d.update(turns=2.5),
        "$.turns: Input should be a valid integer",
    ),
    "sighting true": (
        lambda d: d.update(max_sighting_in=True),
        "$.max_sighting_in: Input should be a valid number",
    ),
    "sighting 5e-324": (
        lambda d: d.update(max_sighting_in=5e-324),
        "$.max_sighting_in: Input should be greater than or equal to 1",
    ),
    "table 1e-300 wide": (
        lambda d: d["table"].update(width=1e-300),
        "$.table.width: Input should be greater than or equal to 6",
    ),
    "table depth false": (
        lambda d: d["table"].update(depth=False),
        "$.table.depth: Input should be a valid number",
    ),
    "victory 1e-300 percent": (
        lambda d: d.update(victory={"destroy_at_least_pct": 1e-300}),
        "$.victory.destroy_at_least_pct: Input should be greater than or equal to 1",
    ),
    "cohesion true": (
        lambda d: _side(d, cohesion=True),
        "$.sides[1].cohesion: Input should be a valid integer",
    ),
    "command value 1.0": (
        lambda d: _side(d, command_value="1"),
        "$.sides[1].command_value: Input should be a valid integer",
    ),
    "stand x true": (lambda d: _stand(d, x=True), "$.stands[0].x: Input should be a valid number"),
    "hq 1": (lambda d: _stand(d, hq=1), "$.stands[0].hq: Input should be a valid boolean"),
    "on_table 'yes'": (
        lambda d: _stand(d, on_table="yes"),
        "$.stands[0].on_table: Input should be a valid boolean",
    ),
    "hill level true": (
        lambda d: _first_polygon(d)["properties"].update(terrain="hill", level=True),
        "$.terrain.features[{i}].properties.level: Input should be a valid integer",
    ),
    "a NUL in the title": (
        lambda d: d.update(title="Meeting\x00"),
        "$.title: a control character (U+0000) at character 7: names are printable text",
    ),
    "a lone surrogate in the title": (
        lambda d: d.update(title="A \ud800 B"),
        "$.title: a lone surrogate (half of a UTF-16 pair): names are printable text",
    ),
    "a NUL in a side's name": (
        lambda d: _side(d, name="\x00"),
        "$.sides[1].name: a control character (U+0000) at character 0",
    ),
    "an escape in a group": (
        lambda d: _stand(d, group="1\x1b[31m"),
        "$.stands[0].group: a control character (U+001B) at character 1",
    ),
    "a newline in a feature's name": (
        lambda d: _first_feature_name(d, "wood\nland"),
        "$.terrain.features[{i}].properties.name: a control character (U+000A) at character 4",
    ),
    "a bell in the description": (
        lambda d: d.update(description="Line one\nline two\x07"),
        "$.description: a control character (U+0007) at character 17",
    ),
    "a description of one 20,000-character word": (
        lambda d: d.update(description="Read " + "x" * (MAX_DESCRIPTION_CHARS - 5)),
        f"$.description: {MAX_DESCRIPTION_CHARS - 5} characters without a space at character 5 "
        f"(at most {MAX_WORD_CHARS}): break them with spaces",
    ),
    "20,000 stands at one point": (
        _many_stands_at_one_point,
        f"$.stands: List should have at most {MAX_STANDS} items, not 20000",
    ),
    "12,000 nested hills": (
        _many_nested_hills,
        f"$.terrain.features: List should have at most {MAX_FEATURES} items, "
        f"not {MAX_FEATURES * 6}",
    ),
}


@pytest.mark.parametrize("name", STRICT)
def test_a_wrong_typed_or_unprintable_field_gets_one_line(tmp_path, capsys, name):
    edit, line = STRICT[name]
    doc = copy.deepcopy(SKIRMISH)
    i = doc["terrain"]["features"].index(_first_polygon(doc))
    edit(doc)
    path = tmp_path / "strict.json"
    path.write_text(json.dumps(doc), encoding="utf-8", errors="surrogatepass")
    lines = check_says(path, capsys)
    assert lines[0].startswith(f"{path}: {line.format(i=i)}"), lines
    assert len(lines) == 1, lines
    with pytest.raises(ScenarioError):
        answered(load_scenario, path)


def test_tabs_and_newlines_stay_allowed_in_a_description(tmp_path, capsys):
    doc = copy.deepcopy(SKIRMISH)
    doc["description"] = "Line one\n\tline two"
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(doc))
    assert load_scenario(path).spec.description == "Line one\n\tline two"
