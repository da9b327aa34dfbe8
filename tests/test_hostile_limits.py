"""Scenario limits (#26, docs/formats.md "Limits"): files the JSON reader passes but that are
too big or malformed for a table, each refused by ``check``, ``load_scenario``, ``simulate``
and ``render`` with one line, in time (tests.test_hostile.answered bounds each call to 2 s).
Before the mend every one of these said "ok"."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import pytest

from game import ScenarioError, load_scenario
from game.cli import main
from game.rules.scenario_file import (
    MAX_DESCRIPTION_CHARS,
    MAX_FEATURES,
    MAX_NAME_CHARS,
    MAX_STANDS,
    MAX_VERTICES,
)
from tests.test_hostile import answered, check_says

SKIRMISH = json.loads(
    (Path(__file__).resolve().parents[1] / "maps/modern-skirmish.json").read_text()
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
        f"$.terrain.features: List should have at most {MAX_FEATURES} items after validation",
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
