"""Quick-battle tables from the seed sheets' recipe (#34 part 2): over 100 seeds every
generated scenario passes hulldown check and meets the sheets' terrain advice; the same seed
gives the same file, byte for byte."""

from __future__ import annotations

import json

import numpy as np
import pytest
import shapely
from shapely.geometry import shape

from game import cli
from game.editor.generate import generate_scenario
from game.editor.stats import map_statistics
from game.rules.charts.data import load_rules_data
from game.rules.files.scenario import parse_scenario

DATA = load_rules_data()
SEEDS = range(100)
CASES = [
    ("modern", "T-80U / AT-11", "M1A2 Abrams", "medium"),
    ("wwii", "Pz IIIJ-M", 'M4 "Sherman"', "light"),
    ("modern", "T-72", "Leopard-IIA6", "heavy"),
]


def _features(raw, kind):
    return [
        shape(f["geometry"])
        for f in raw["terrain"]["features"]
        if f["properties"]["terrain"] == kind
    ]


def _across(poly) -> float:
    """The longest straight line across a polygon (between two of its corners), inches."""
    pts = np.asarray(poly.exterior.coords)
    return float(np.max(np.hypot(*(pts[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))))


def test_woods_and_hills_have_natural_outlines():
    """No regular octagons: each lot and hill has 28 corners, its radius varies by more than
    10% round the outline, and it is a valid polygon."""
    raw = generate_scenario(DATA, "modern", "T-72", "Leopard-IIA6", 5)
    for kind in ("woods", "hill"):
        for g in _features(raw, kind):
            assert g.is_valid and len(g.exterior.coords) - 1 == 28
            c = np.asarray(g.exterior.coords)[:-1]
            centre = c.mean(axis=0)
            r = np.hypot(*(c - centre).T)
            assert r.max() / r.min() > 1.1


@pytest.mark.parametrize("ruleset, a, b, density", CASES)
def test_a_hundred_tables_follow_the_sheets_recipe(ruleset, a, b, density):
    """000/001 "Create your own Tank Scenario": woods 10-30% in lots 4-6" across, two towns
    of about 7 sq in in all, a good road from one narrow edge to the other, a hill each side,
    the halves alike; the forces within 10% by the sheets' points."""
    for seed in SEEDS:
        raw = generate_scenario(DATA, ruleset, a, b, seed, density=density)
        parse_scenario(raw, f"seed-{seed}.json")  # raises on any problem hulldown check finds
        st = map_statistics(raw, DATA)
        w, d = raw["table"]["width"], raw["table"]["depth"]
        assert 10 <= st.table.area_pct["woods"] <= 30, seed
        for lot in _features(raw, "woods"):
            across = _across(lot)  # 4-6" across, its outline natural (rounded, irregular)
            assert 3.4 <= across <= 6.0 + 1e-9, seed
            assert len(lot.exterior.coords) - 1 >= 20, seed  # no octagon
        assert st.table.town_sq_in == pytest.approx(7.0, abs=0.01), seed
        assert len(_features(raw, "light_buildings")) == 2
        (road,) = _features(raw, "good_road")
        xs = [x for x, _ in road.coords]
        assert min(xs) == 0 and max(xs) == w, seed
        hills = _features(raw, "hill")
        assert len(hills) == 2 and {h.centroid.x < w / 2 for h in hills} == {True, False}
        assert all(abs(v) < 1e-6 for v in st.area_diff_pct.values()), seed
        assert all(abs(v) < 1e-6 for v in st.hill_diff_pct.values()), seed
        assert all(abs(v) < 1e-6 for v in st.road_diff_in.values()), seed
        assert st.points_ratio <= 1.1, seed
        assert shapely.box(0, 0, w, d).contains(shapely.union_all(_features(raw, "woods")))


def test_the_same_seed_gives_the_same_file(tmp_path, capsys):
    paths = [tmp_path / "one.json", tmp_path / "two.json"]
    for p in paths:
        argv = ["generate", "--a", "T-72", "--b", "M1A1 Abrams", "--seed", "7", "--out", str(p)]
        assert cli.main(argv) == 0
    assert paths[0].read_bytes() == paths[1].read_bytes()
    other = tmp_path / "three.json"
    cli.main(["generate", "--a", "T-72", "--b", "M1A1 Abrams", "--seed", "8", "--out", str(other)])
    assert other.read_bytes() != paths[0].read_bytes()
    assert json.loads(paths[0].read_text())["ruleset"] == "modern"
    assert "check it with hulldown points" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "want"),
    [
        (["--a", "Tiger", "--b", "T-72"], "'Tiger' is not a unit of the modern tables"),
        (["--a", "T-72", "--b", "T-72", "--density", "jungle"], "density must be one of"),
        (["--a", "T-72", "--b", "T-72", "--ruleset", "napoleonic"], "unknown ruleset"),
        (["--a", "T-72", "--b", "T-72", "--stands", "0"], "stands_a must be 1 to 30"),
    ],
)
def test_generate_refuses_what_the_recipe_cannot_take(tmp_path, capsys, argv, want):
    out = tmp_path / "q.json"
    assert cli.main(["generate", *argv, "--out", str(out)]) == 1
    assert want in capsys.readouterr().err
    assert not out.exists()
