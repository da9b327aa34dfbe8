"""The map editor's balance views (game/editor/analysis.py): terrain statistics on tables whose
answers are worked out by hand, sight coverage against the engine's own Table.sight, and
movement cost fields against hand-counted movement points and Table.path_cost."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from game.editor.analysis import (
    Cancelled,
    cell_centres,
    dead_ground,
    deployment_zone,
    far_half,
    map_statistics,
    movement_cost_field,
    sight_coverage,
    table_halves,
)
from game.rules.files.scenario import parse_scenario
from game.rules.table.geometry import StandPose
from tests.conftest import DATA, MODERN, scenario_dict

T80 = "T-80U / AT-11"
M1 = "M1A2 Abrams"


def two_stands(w: float, d: float) -> list:
    """One stand a side, A near the left edge and B near the right, mid-table."""
    return [("A1", "A", T80, 3, d / 2, 0), ("B1", "B", M1, w - 3, d / 2, 180)]


def scenario(terrain=(), width=40, depth=20, stands=None, **kw):
    raw = scenario_dict(stands or two_stands(width, depth), terrain, width=width, depth=depth, **kw)
    return parse_scenario(raw, "test.json", DATA)


def poly(x0, y0, x1, y1) -> dict:
    return {"type": "Polygon", "coordinates": [[[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]]}


def feature(kind: str, geometry: dict, level: int | None = None) -> dict:
    props = {"terrain": kind} if level is None else {"terrain": kind, "level": level}
    return {"type": "Feature", "properties": props, "geometry": geometry}


# --------------------------------------------------------------------------- statistics


def test_a_10_by_10_wood_is_4_63_percent_of_a_60_by_36_table():
    raw = scenario_dict(two_stands(60, 36), [("woods", (5, 5, 15, 15))], width=60, depth=36)
    st = map_statistics(raw, DATA)
    assert st.table.area_pct["woods"] == pytest.approx(100 * 100 / 2160)  # 4.63%
    assert round(st.table.area_pct["woods"], 2) == 4.63
    left, right = st.halves
    assert (left.name, right.name) == ("left", "right")
    assert left.area_pct["woods"] == pytest.approx(100 * 100 / 1080)  # all in x < 30
    assert right.area_pct["woods"] == 0
    assert st.area_diff_pct["woods"] == pytest.approx(100 * 100 / 1080)
    assert st.n_skipped == 0


def test_overlapping_woods_count_once_and_a_wood_across_the_middle_splits():
    # two 10x10 woods overlapping by 5x10 (union 150 sq in) straddling x = 30 (25..40)
    terrain = [("woods", (25, 0, 35, 10)), ("woods", (30, 0, 40, 10)), ("grove", (0, 0, 4, 5))]
    raw = scenario_dict(two_stands(60, 36), terrain, width=60, depth=36)
    st = map_statistics(raw, DATA)
    assert st.table.area_pct["woods"] == pytest.approx(100 * 150 / 2160)
    assert st.halves[0].area_pct["woods"] == pytest.approx(100 * 50 / 1080)
    assert st.halves[1].area_pct["woods"] == pytest.approx(100 * 100 / 1080)
    assert st.area_diff_pct["woods"] == pytest.approx(-100 * 50 / 1080)
    assert st.table.area_pct["grove"] == pytest.approx(100 * 20 / 2160)
    assert st.halves[1].area_pct["grove"] == 0  # every type found is a key of both halves


def test_a_deeper_than_wide_table_splits_into_bottom_and_top():
    raw = scenario_dict(
        [("A1", "A", T80, 10, 3, 90), ("B1", "B", M1, 10, 57, 270)],
        [("woods", (0, 25, 10, 35)), ("marsh", (0, 40, 6, 46))],
        width=36,
        depth=60,
        entry=("bottom", "top"),
    )
    st = map_statistics(raw, DATA)
    bottom, top = st.halves
    assert (bottom.name, bottom.box, top.name, top.box) == (
        "bottom",
        (0.0, 0.0, 36.0, 30.0),
        "top",
        (0.0, 30.0, 36.0, 60.0),
    )
    assert bottom.area_pct["woods"] == pytest.approx(top.area_pct["woods"])  # 50 sq in each
    assert st.area_diff_pct["woods"] == pytest.approx(0)
    assert top.area_pct["marsh"] == pytest.approx(100 * 36 / 1080)
    assert st.area_diff_pct["marsh"] == pytest.approx(-100 * 36 / 1080)


def test_hills_by_ground_level():
    # a 20x10 level-1 hill holding a 4x5 level-2 hill: 180 sq in at level 1, 20 at level 2
    terrain = [("hill", (2, 2, 22, 12), 1), ("hill", (4, 4, 8, 9), 2)]
    raw = scenario_dict(two_stands(60, 36), terrain, width=60, depth=36)
    st = map_statistics(raw, DATA)
    assert st.table.hill_pct == {
        1: pytest.approx(100 * 180 / 2160),
        2: pytest.approx(100 * 20 / 2160),
    }
    assert st.halves[0].hill_pct[1] == pytest.approx(100 * 180 / 1080)
    assert st.hill_diff_pct[2] == pytest.approx(100 * 20 / 1080)


def test_road_length_per_type_overlaps_once_and_split_by_half():
    terrain = [
        ("good_road", [(0, 10), (40, 10)]),
        ("good_road", [(20, 10), (60, 10)]),  # overlaps the first from x=20 to 40
        ("track", [(0, 0), (60, 36)]),
    ]
    raw = scenario_dict(two_stands(60, 36), terrain, width=60, depth=36)
    st = map_statistics(raw, DATA)
    assert st.table.road_in["good_road"] == pytest.approx(60)
    assert st.halves[0].road_in["good_road"] == pytest.approx(30)
    diagonal = math.hypot(60, 36)
    assert st.table.road_in["track"] == pytest.approx(diagonal)
    assert st.halves[1].road_in["track"] == pytest.approx(diagonal / 2)
    assert st.road_diff_in["track"] == pytest.approx(0, abs=1e-9)
    assert "poor_road" not in st.table.road_in


def test_town_area_is_light_and_heavy_buildings_together():
    # 2x2 light and 3x1 heavy overlapping by 1x1: 4 + 3 - 1 = 6 sq in, all in the left half
    terrain = [("light_buildings", (10, 10, 12, 12)), ("heavy_buildings", (11, 11, 14, 12))]
    raw = scenario_dict(two_stands(60, 36), terrain, width=60, depth=36)
    st = map_statistics(raw, DATA)
    assert st.table.town_sq_in == pytest.approx(6)
    assert st.town_diff_sq_in == pytest.approx(6)
    assert st.table.area_pct["light_buildings"] == pytest.approx(100 * 4 / 2160)


def test_points_as_the_seed_sheet_counts_them():
    # the Modern sheet: 10 T-80U (427 points, data table) at cohesion 15 = 6405; 7 M1A2 (557)
    # at cohesion 16 = 6238.4
    stands = [(f"A{i}", "A", T80, 2, 2 + 2 * i, 0) for i in range(10)]
    stands += [(f"B{i}", "B", M1, 58, 2 + 2 * i, 180) for i in range(7)]
    raw = scenario_dict(stands, width=60, depth=36, cohesion=(15, 16))
    st = map_statistics(raw, DATA)
    a, b = st.forces
    assert (a.side_id, a.stands, a.points) == ("A", 10, pytest.approx(6405))
    assert (b.side_id, b.stands, b.points) == ("B", 7, pytest.approx(7 * 557 * 1.6))
    assert st.points_ratio == pytest.approx(6405 / 6238.4)
    assert st.unknown_units == ()


def test_unknown_units_count_nothing_and_are_named():
    stands = [
        ("A1", "A", T80, 2, 2, 0),
        ("A2", "A", "Leopard 9", 2, 4, 0),
        ("B1", "B", "Leopard 9", 58, 2, 180),
        ("B2", "B", "Hovertank", 58, 4, 180),
    ]
    raw = scenario_dict(stands, width=60, depth=36, cohesion=(10, 12))
    st = map_statistics(raw, DATA)
    assert st.forces[0].points == pytest.approx(427)  # 1 x 427 x 10 / 10
    assert st.forces[1].points == 0
    assert st.unknown_units == ("Leopard 9", "Hovertank")
    assert st.points_ratio == math.inf


def test_features_that_cannot_be_used_are_skipped_and_counted():
    raw = scenario_dict(two_stands(60, 36), [("woods", (0, 0, 10, 10))], width=60, depth=36)
    feats = raw["terrain"]["features"]
    bowtie = {"type": "Polygon", "coordinates": [[[20, 0], [30, 10], [30, 0], [20, 10], [20, 0]]]}
    feats += [
        feature("woods", bowtie),  # self-intersecting
        feature("woods", {"type": "Polygon", "coordinates": [[[1, 2]]]}),  # cannot be built
        feature("lava", poly(40, 0, 50, 10)),  # unknown type
        feature("good_road", poly(40, 20, 50, 30)),  # a road must be a line
        feature("hill", poly(40, 20, 50, 30)),  # a hill without a level
    ]
    st = map_statistics(raw, DATA)
    assert [s.index for s in st.skipped] == [1, 2, 3, 4, 5]
    assert st.n_skipped == 5
    assert st.table.area_pct == {"woods": pytest.approx(100 * 100 / 2160)}
    assert st.table.road_in == {} and st.table.hill_pct == {}


def test_statistics_need_a_table_size():
    raw = scenario_dict(two_stands(60, 36), width=60, depth=36)
    del raw["table"]
    with pytest.raises(ValueError, match="table"):
        map_statistics(raw, DATA)


def test_statistics_of_the_shipped_seed_map_are_alike_by_half():
    """The seed maps are built so that each half is the other turned about the centre
    (tools/maps/make_seed_maps.py): every share is the same on both sides."""
    raw = json.loads((Path(__file__).parents[2] / "maps" / "modern-meeting.json").read_text())
    st = map_statistics(raw, DATA)
    assert st.n_skipped == 0
    for diff in (*st.area_diff_pct.values(), *st.hill_diff_pct.values()):
        assert diff == pytest.approx(0, abs=1e-6)
    assert st.forces[0].points == pytest.approx(6405)


# --------------------------------------------------------------------------- halves and grid


def test_halves_and_cell_centres():
    assert table_halves(60, 36)[0] == ("left", (0.0, 0.0, 30.0, 36.0))
    assert table_halves(36, 60)[1] == ("top", (0.0, 30.0, 36.0, 60.0))
    xs, ys = cell_centres(3, 1.2, 0.5)
    assert xs.tolist() == [0.25, 0.75, 1.25, 1.75, 2.25, 2.75]
    assert ys.tolist() == pytest.approx([0.25, 0.75, 1.1])  # last row: 1.0..1.2
    for bad in (0, -1, math.nan, math.inf):
        with pytest.raises(ValueError):
            cell_centres(60, 36, bad)
    # a strip along a long edge faces the half across the short axis
    assert far_half(72, 48, (0, 0, 72, 6))[0] == "top"
    assert far_half(72, 48, (66, 0, 72, 48))[0] == "left"


# --------------------------------------------------------------------------- sight coverage


def cells_seen_by_engine(sc, observers, points) -> list[bool]:
    """Whether the engine's Table.sight finds any observer with a clear line to a stand at
    each point (no other stands on the table; all stands square to the table)."""
    out = []
    for x, y in points:
        target = StandPose("t", "B", float(x), float(y), 0.0)
        out.append(
            any(
                sc.table.sight(
                    StandPose("o", "A", float(ox), float(oy), 0.0),
                    target,
                    [],
                    sc.spec.max_sighting_in,
                    MODERN,
                ).clear
                for ox, oy in observers
            )
        )
    return out


def test_a_wood_wall_hides_the_ground_behind_it():
    sc = scenario([("woods", (10, 0, 12, 20))])
    cov = sight_coverage(sc, "A")
    assert cov.zone == (0.0, 0.0, 6.0, 20.0)
    assert cov.observers[:, 0].min() == 0.5 and cov.observers[:, 0].max() == 6.0
    # a stand at the wood's edge is seen (its footprint reaches out of it: the sight line
    # stops at the footprint, x - 0.5), any deeper is not, nor anything behind
    expected = np.broadcast_to(cov.xs < 10.5, cov.seen.shape)
    assert np.array_equal(cov.seen, expected)
    assert cov.far_half_name == "right" and cov.far_half_seen_fraction == 0


def test_a_stand_in_a_wood_is_seen_while_its_square_footprint_reaches_out_of_it():
    """At 0.1" the cells' footprints matter: a stand square to the table (facing 0) is seen
    from the zone until its centre is 0.5" inside the wood (the sight line ends at the
    footprint, rules-decisions "Line of sight")."""
    sc = scenario([("woods", (10, 0, 12, 6))], width=16, depth=6)
    cov = sight_coverage(sc, "A", resolution_in=0.1)
    assert np.array_equal(cov.seen, np.broadcast_to(cov.xs < 10.5, cov.seen.shape))


def test_a_hill_hides_its_far_side_but_not_itself():
    sc = scenario([("hill", (15, 0, 25, 20), 1)])
    cov = sight_coverage(sc, "A")
    expected = np.broadcast_to(cov.xs < 25, cov.seen.shape)
    assert np.array_equal(cov.seen, expected)
    # half the far half (x 20..25 of 20..40) is the hill's near part, seen
    assert cov.far_half_seen_fraction == pytest.approx(0.25)


def test_observers_on_a_hill_see_10_inches_farther():
    plain = sight_coverage(scenario(width=80), "A")
    high = sight_coverage(scenario([("hill", (0, 0, 6, 20), 1)], width=80), "A")
    # 30" at ground level 0 (000 07.01.01), +10" a level (000 07.01.04), from x <= 6
    for cov, reach in ((plain, 36), (high, 46)):
        assert cov.seen[:, cov.xs <= reach - 0.5].all()
        assert not cov.seen[:, cov.xs >= reach + 0.5].any()


def test_coverage_agrees_with_the_engines_sight_at_sampled_cells():
    terrain = [
        ("woods", (9, 3, 13, 8)),
        ("heavy_buildings", (14, 12, 16, 15)),
        ("hill", (20, 2, 30, 14), 1),
        ("hill", (23, 5, 27, 10), 2),
        ("rough_3", (33, 14, 35, 18)),
        ("marsh", (10, 14, 14, 18)),  # does not block sight
    ]
    sc = scenario(terrain)
    cov = sight_coverage(sc, "A", resolution_in=0.5, observer_spacing_in=2.0)
    rng = np.random.default_rng(5)
    jj = rng.integers(0, len(cov.ys), 50)
    ii = rng.integers(0, len(cov.xs), 50)
    points = list(zip(cov.xs[ii], cov.ys[jj], strict=True))
    expected = cells_seen_by_engine(sc, cov.observers, points)
    assert cov.seen[jj, ii].tolist() == expected
    assert any(expected) and not all(expected)  # the sample holds both answers


def test_a_side_without_an_entry_edge_deploys_in_the_half_nearer_its_stands():
    stands = [("A1", "A", T80, 30, 5, 0), ("A2", "A", T80, 36, 15, 0), ("B1", "B", M1, 4, 10, 0)]
    sc = scenario(stands=stands, entry=(None, None))
    assert deployment_zone(sc, "A") == (20.0, 0.0, 40.0, 20.0)
    assert deployment_zone(sc, "B") == (0.0, 0.0, 20.0, 20.0)
    cov = sight_coverage(sc, "A", observer_spacing_in=2.0)
    assert (cov.observers[:, 0] >= 20).all()
    assert cov.far_half_name == "left"
    assert cov.seen.all()  # open ground, nothing farther than 30" from the zone
    with pytest.raises(ValueError, match="no side"):
        deployment_zone(sc, "C")


def test_dead_ground_is_what_neither_side_sees():
    sc = scenario([("woods", (18, 0, 22, 20))])
    a, b = sight_coverage(sc, "A"), sight_coverage(sc, "B")
    # A sees stands whose footprint reaches out of the wood's left side, B its right side
    assert np.array_equal(a.seen, np.broadcast_to(a.xs < 18.5, a.seen.shape))
    assert np.array_equal(b.seen, np.broadcast_to(b.xs > 21.5, b.seen.shape))
    dead = dead_ground(a, b)
    assert np.array_equal(dead, np.broadcast_to((a.xs > 18.5) & (a.xs < 21.5), dead.shape))
    other = sight_coverage(sc, "A", resolution_in=1.0)
    with pytest.raises(ValueError):
        dead_ground(a, other)


def test_sight_coverage_can_be_cancelled():
    sc = scenario([("woods", (10, 0, 12, 20))])
    polls = []

    def cancel() -> bool:
        polls.append(1)
        return len(polls) >= 3

    with pytest.raises(Cancelled):
        sight_coverage(sc, "A", cancel=cancel)
    assert len(polls) == 3


_STRESS = """
import threading
import numpy as np
from game.editor.analysis import sight_coverage
from game.rules.charts.data import load_rules_data
from game.rules.table.geometry import StandPose
from game.rules.files.scenario import parse_scenario
from tests.conftest import scenario_dict

data = load_rules_data()
rng = np.random.default_rng(3)
features = []
for x in range(4, 68, 5):
    for y in range(3, 45, 5):
        ang = np.linspace(0, 2 * np.pi, 7, endpoint=False) + rng.uniform(-0.2, 0.2, 7)
        r = rng.uniform(1.0, 2.0, 7)
        ring = [[round(x + 2 + a, 3), round(y + 2 + b, 3)] for a, b in zip(r * np.cos(ang), r * np.sin(ang))]
        features.append({"type": "Feature", "properties": {"terrain": "woods"},
                         "geometry": {"type": "Polygon", "coordinates": [ring + [ring[0]]]}})
stands = [("A1", "A", "T-80U / AT-11", 3, 24, 0), ("B1", "B", "M1A2 Abrams", 69, 24, 180)]
raw = scenario_dict(stands, width=72, depth=48)
raw["terrain"]["features"] = features
sc = parse_scenario(raw, "stress.json", data)
rules = data.rulesets["modern"]
for rep in range(2):
    done = {}
    worker = threading.Thread(target=lambda: done.update(c=sight_coverage(sc, "A", 1.0)))
    worker.start()
    while worker.is_alive():
        f = [StandPose(f"f{i}", "A", *rng.uniform([1, 1], [71, 47]), 0.0) for i in range(10)]
        t = [StandPose(f"t{i}", "B", *rng.uniform([1, 1], [71, 47]), 0.0) for i in range(100)]
        sc.table.sight_matrix(f, t, [], 30, rules)
    worker.join()
    assert "c" in done
print("ok")
"""


def test_a_view_in_a_background_thread_does_not_share_the_callers_table():
    """GEOS prepared geometries are not thread-safe (libgeos/geos#825): the view works on its
    own copy of the table while the caller keeps asking sight of the scenario's. Run in a
    child process, because sharing the table crashes the interpreter (measured: 8 runs of 8
    with the copy taken out)."""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    run = subprocess.run(
        [sys.executable, "-c", _STRESS], cwd=root, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "ok"


# --------------------------------------------------------------------------- movement cost


def cost_at(field, x: float, y: float) -> float:
    i = int(np.argmin(np.abs(field.xs - x)))
    j = int(np.argmin(np.abs(field.ys - y)))
    assert (field.xs[i], field.ys[j]) == (x, y)
    return float(field.cost[j, i])


def test_crossing_a_wood_costs_3_mp_an_inch_tracked():
    # a wood 5" across the whole table, from x = 5.1 to 10.1
    sc = scenario([("woods", (5.1, 0, 10.1, 10))], width=20, depth=10)
    field = movement_cost_field(sc, "A")
    # from the left edge to x = 12.25: 7.25" of clear ground at 1 and 5" of wood at 3
    assert cost_at(field, 12.25, 5.25) == pytest.approx(7.25 + 5 * 3)
    assert cost_at(field, 12.25, 5.25) == pytest.approx(
        sc.table.path_cost([(0, 5.25), (12.25, 5.25)])
    )
    assert cost_at(field, 4.75, 5.25) == pytest.approx(4.75)
    assert field.origin == "left edge" and field.sources[:, 0].all()
    # wheeled stands pay the chart's wheeled column: 4 an inch in woods
    all_wood = scenario([("woods", (0, 0, 20, 10))], width=20, depth=10)
    wheeled = movement_cost_field(all_wood, "A", movement_class="W")
    assert cost_at(wheeled, 12.25, 5.25) == pytest.approx(12.25 * 4)


def test_a_road_strip_is_cheaper_than_the_wood_it_crosses():
    wood = [("woods", (0, 0, 20, 10))]
    road = [("good_road", [(0, 5.25), (20, 5.25)])]
    no_road = movement_cost_field(scenario(wood, width=20, depth=10), "A")
    with_road = movement_cost_field(scenario(wood + road, width=20, depth=10), "A")
    assert cost_at(no_road, 12.25, 5.25) == pytest.approx(12.25 * 3)
    assert cost_at(with_road, 12.25, 5.25) == pytest.approx(12.25 * 0.5)  # good road: 1/2 MP
    # off the road, 3" up: along the road, then through the wood
    off = cost_at(with_road, 12.25, 8.25)
    assert cost_at(with_road, 12.25, 5.25) < off < cost_at(no_road, 12.25, 8.25)


def test_impassable_ground_cannot_be_reached():
    sc = scenario([("impassable", (8, 0, 10, 10))], width=20, depth=10)
    field = movement_cost_field(sc, "A")
    beyond = field.xs > 10
    assert np.isinf(field.cost[:, beyond]).all()
    assert np.isinf(cost_at(field, 9.25, 5.25))
    assert np.isfinite(field.cost[:, field.xs < 7.5]).all()
    assert sc.table.path_cost([(0, 5.25), (12.25, 5.25)]) is None
    assert field.reachable_fraction == pytest.approx(np.mean(field.xs < 8))


def test_a_hill_adds_1_mp_an_inch():
    # tracked: slope and hilltop each +1 over clear (terrain chart)
    sc = scenario([("hill", (5.1, 0, 15.1, 10), 1)], width=20, depth=10)
    field = movement_cost_field(sc, "A")
    assert cost_at(field, 17.25, 5.25) == pytest.approx(17.25 + 10)


def test_without_an_entry_edge_the_zone_starts_at_0():
    stands = [("A1", "A", T80, 30, 5, 0), ("B1", "B", M1, 4, 10, 0)]
    sc = scenario(stands=stands, entry=(None, None))
    field = movement_cost_field(sc, "A")
    assert field.origin == "zone"
    assert (field.cost[:, field.xs > 20] == 0).all()
    # the zone's first column of centres is at x = 20.25: 10" of clear ground from there
    assert cost_at(field, 10.25, 7.25) == pytest.approx(20.25 - 10.25)


def test_movement_cost_field_can_be_cancelled_and_checks_its_class():
    sc = scenario(width=20, depth=10)
    with pytest.raises(Cancelled):
        movement_cost_field(sc, "A", cancel=lambda: True)
    with pytest.raises(ValueError, match="movement class"):
        movement_cost_field(sc, "A", movement_class="X")


# --------------------------------------------------------------------------- engine entry points


def test_step_costs_are_what_walk_charges():
    """Table.step_costs charges each step as walk does, minefield leaving costs included. The
    path's legs are whole multiples of 0.5", so every step of the walk is straight."""
    terrain = [
        ("woods", (3, 0, 6, 10)),
        ("minefield", (8, 2, 11, 8)),
        ("good_road", [(0, 9), (20, 1)]),
        ("hill", (12, 0, 18, 7), 1),
        ("impassable", (14, 3.5, 15, 4.5)),
    ]
    sc = scenario(terrain, width=20, depth=10)
    # 7", 5" (a 3-4-5 leg out of the minefield and over the road), 8.5", 8", 6" over the hill
    path = [(0.5, 5), (7.5, 5), (10.5, 9), (19, 9), (19, 1), (13, 1)]
    walked = sc.table.walk(path, math.inf, free_in=0.0)
    assert walked.stopped_by is None and walked.distance_in == pytest.approx(34.5)
    pts = np.array(walked.points)
    costs = sc.table.step_costs(pts[:-1, 0], pts[:-1, 1], pts[1:, 0], pts[1:, 1])
    assert costs.tolist() == pytest.approx(list(walked.step_costs))
    # one step leaves the minefield and pays its +1 on top of the ground (002 chart *)
    mid = (pts[:-1] + pts[1:]) / 2
    ground = np.hypot(*(pts[1:] - pts[:-1]).T) * sc.table.move_costs_at(mid[:, 0], mid[:, 1])[0]
    assert np.round(costs - ground, 9).tolist().count(1.0) == 1
    assert np.round(costs - ground, 9).tolist().count(0.0) == len(costs) - 1
    # wood; impassable; the road (y = 9 - 0.4 x) in the minefield (paid on leaving only); road
    per_inch, road = sc.table.move_costs_at([4, 14.5, 10, 1], [5, 4, 5, 8.6])
    assert per_inch.tolist() == [3.0, math.inf, 0.5, 0.5]
    assert road.tolist() == [False, False, True, True]
    off = sc.table.step_costs([19.5], [5], [20.5], [5])
    assert off.tolist() == [math.inf]  # ends off the table
