"""Rule cases of the table geometry, each citing its rule (rules-decisions.md, seeds 000/001)."""

from __future__ import annotations

import math

import pytest

from game.rules.table.geometry import (
    aspect,
    base_contact,
    engaged,
    footprint,
    path_after,
    range_band,
)
from tests.conftest import DATA, MODERN, WWII, make_table, pose

WOOD = ("woods", (10, 4, 14, 8))


# --- line of sight (000 07.01, 001 6.1) ----------------------------------------------------

SIGHT_CASES = [
    # (case, rule, features, firer, target, others, rules, clear, blocked kinds)
    (
        "wood between two stands",
        "000 07.01.01",
        [WOOD],
        pose("A1", 5, 6),
        pose("B1", 20, 6),
        [],
        MODERN,
        False,
        {"terrain"},
    ),
    (
        "target at a wood's edge is seen",
        "rules-decisions LOS footprints",
        [WOOD],
        pose("A1", 5, 6),
        pose("B1", 10.4, 6),
        [],
        MODERN,
        True,
        set(),
    ),
    (
        "target 0.6 inside the wood is hidden",
        "rules-decisions LOS footprints",
        [WOOD],
        pose("A1", 5, 6),
        pose("B1", 10.6, 6),
        [],
        MODERN,
        False,
        {"terrain"},
    ),
    (
        "firer deep inside a wood sees nothing out",
        "rules-decisions LOS footprints",
        [WOOD],
        pose("A1", 12, 6),
        pose("B1", 25, 6),
        [],
        MODERN,
        False,
        {"terrain"},
    ),
    (
        "firer at the wood's edge sees out",
        "rules-decisions LOS footprints",
        [WOOD],
        pose("A1", 13.6, 6),
        pose("B1", 25, 6),
        [],
        MODERN,
        True,
        set(),
    ),
    (
        "line touching a wood's corner only",
        "rules-decisions LOS boundary",
        [WOOD],
        pose("A1", 2, 4),
        pose("B1", 20, 13),
        [],
        MODERN,
        True,
        set(),
    ),
    (
        "line running along a wood's edge",
        "rules-decisions LOS boundary",
        [WOOD],
        pose("A1", 5, 8),
        pose("B1", 20, 8),
        [],
        MODERN,
        True,
        set(),
    ),
    (
        "grove blocks too",
        "002 terrain chart",
        [("grove", (10, 4, 14, 8))],
        pose("A1", 5, 6),
        pose("B1", 20, 6),
        [],
        MODERN,
        False,
        {"terrain"},
    ),
    (
        "rough 1 blocks only sight to personnel",
        "002 terrain chart",
        [("rough_1", (10, 4, 14, 8))],
        pose("A1", 5, 6),
        pose("B1", 20, 6),
        [],
        MODERN,
        True,
        set(),
    ),
    (
        "marsh never blocks",
        "002 terrain chart",
        [("marsh", (10, 4, 14, 8))],
        pose("A1", 5, 6),
        pose("B1", 20, 6),
        [],
        MODERN,
        True,
        set(),
    ),
    (
        "friendly stand between, same level, Modern",
        "000 07.01.04",
        [],
        pose("A1", 5, 6),
        pose("B1", 20, 6),
        [pose("A2", 12, 6)],
        MODERN,
        False,
        {"stand"},
    ),
    (
        "friendly stand between, firer higher, Modern",
        "000 07.01.04",
        [("hill", (0, 0, 8, 12), 1)],
        pose("A1", 4, 6),
        pose("B1", 20, 6),
        [pose("A2", 12, 6)],
        MODERN,
        True,
        set(),
    ),
    (
        "friendly stand between, firer higher, WWII",
        "001 6.1.1",
        [("hill", (0, 0, 8, 12), 1)],
        pose("A1", 4, 6),
        pose("B1", 20, 6),
        [pose("A2", 12, 6)],
        WWII,
        False,
        {"stand"},
    ),
    (
        "enemy stand between, firer higher, Modern",
        "000 07.01.04",
        [("hill", (0, 0, 8, 12), 1)],
        pose("A1", 4, 6),
        pose("B1", 20, 6),
        [pose("B2", 12, 6)],
        MODERN,
        False,
        {"stand"},
    ),
    (
        "stand grazed by the line blocks (defender's favour)",
        "000 07.01.02",
        [],
        pose("A1", 5, 6),
        pose("B1", 20, 6),
        [pose("B2", 12, 6.5)],
        MODERN,
        False,
        {"stand"},
    ),
    (
        "stand clear of the line does not block",
        "000 07.01.01",
        [],
        pose("A1", 5, 6),
        pose("B1", 20, 6),
        [pose("B2", 12, 6.51)],
        MODERN,
        True,
        set(),
    ),
    (
        "wrecks never block",
        "000 09.01",
        [],
        pose("A1", 5, 6),
        pose("B1", 20, 6),
        [pose("B2", 12, 6, wreck=True)],
        MODERN,
        True,
        set(),
    ),
    (
        "hill between two stands at level 0",
        "rules-decisions Hills",
        [("hill", (10, 0, 14, 12), 1)],
        pose("A1", 5, 6),
        pose("B1", 20, 6),
        [],
        MODERN,
        False,
        {"hill"},
    ),
    (
        "firer on that hill",
        "rules-decisions Hills",
        [("hill", (10, 0, 14, 12), 1)],
        pose("A1", 12, 6),
        pose("B1", 20, 6),
        [],
        MODERN,
        True,
        set(),
    ),
    (
        "target on that hill",
        "rules-decisions Hills",
        [("hill", (10, 0, 14, 12), 1)],
        pose("A1", 5, 6),
        pose("B1", 12, 6),
        [],
        MODERN,
        True,
        set(),
    ),
    (
        "dead ground behind a second hill",
        "rules-decisions Hills",
        [("hill", (2, 0, 8, 12), 1), ("hill", (14, 0, 18, 12), 1)],
        pose("A1", 5, 6),
        pose("B1", 22, 6),
        [],
        MODERN,
        False,
        {"hill"},
    ),
    (
        "a higher firer sees over the lower hill",
        "rules-decisions Hills",
        [("hill", (2, 0, 8, 12), 1), ("hill", (3, 2, 7, 10), 2), ("hill", (14, 0, 18, 12), 1)],
        pose("A1", 5, 6),
        pose("B1", 22, 6),
        [],
        MODERN,
        True,
        set(),
    ),
    (
        "beyond the sighting distance",
        "000 07.01.01",
        [],
        pose("A1", 5, 6),
        pose("B1", 35.5, 6),
        [],
        MODERN,
        False,
        {"distance"},
    ),
    (
        "a level-1 observer adds 10 inches, Modern",
        "000 07.01.04",
        [("hill", (0, 0, 8, 12), 1)],
        pose("A1", 5, 6),
        pose("B1", 44, 6),
        [],
        MODERN,
        True,
        set(),
    ),
    (
        "a level-1 observer adds 5 inches, WWII",
        "001 6.1.3",
        [("hill", (0, 0, 8, 12), 1)],
        pose("A1", 5, 6),
        pose("B1", 44, 6),
        [],
        WWII,
        False,
        {"distance"},
    ),
    (
        "WWII: a target that has fired counts as in clear terrain",
        "001 6.1.2",
        [WOOD],
        pose("A1", 5, 6),
        pose("B1", 12, 6, in_clear=True),
        [],
        WWII,
        True,
        set(),
    ),
]


@pytest.mark.parametrize(
    ("features", "firer", "target", "others", "rules", "clear", "kinds"),
    [c[2:] for c in SIGHT_CASES],
    ids=[f"{c[1]}: {c[0]}" for c in SIGHT_CASES],
)
def test_sight(features, firer, target, others, rules, clear, kinds):
    table = make_table(*features)
    stands = [firer, target, *others]
    s = table.sight(firer, target, stands, 30, rules)
    assert s.clear is clear
    assert {b[0] for b in s.blocked_by} == kinds
    # the matrix answers the same (one code path for the LOS tool, the fire check and the AI)
    m = table.sight_matrix([firer], [target], stands, 30, rules)
    assert bool(m.clear[0, 0]) is clear


def test_sight_names_the_blocking_wood_and_stand():
    table = make_table(WOOD)
    s = table.sight(
        pose("A1", 5, 6),
        pose("B1", 20, 6),
        [pose("A1", 5, 6), pose("B1", 20, 6), pose("B2", 16, 6)],
        30,
        MODERN,
    )
    assert ("terrain", "woods", 0) in s.blocked_by
    assert ("stand", "B2") in s.blocked_by
    assert s.segment == ((5.5, 6.0), (19.5, 6.0))


# --- facing (000 07.08.01, 001 7.3.1) ----------------------------------------------------

ASPECT_CASES = [
    ("dead ahead", 0, (10, 0), "front"),
    ("exactly on the 45-degree boundary", 0, (5, 5), "front"),
    ("exactly on the other boundary", 0, (5, -5), "front"),
    ("just outside the boundary", 0, (5, 5.001), "flank"),
    ("from the side", 0, (0, 10), "flank"),
    ("from behind", 0, (-10, 0), "flank"),
    ("facing 90, firer above", 90, (0, 10), "front"),
    ("facing 90, 45 degrees off", 90, (-5, 5), "front"),
    ("facing 135, boundary", 135, (0, 5), "front"),
]


@pytest.mark.parametrize(
    ("facing", "firer", "expected"), [c[1:] for c in ASPECT_CASES], ids=[c[0] for c in ASPECT_CASES]
)
def test_aspect(facing, firer, expected):
    assert aspect(pose("B1", 0, 0, facing), *firer) == expected


# --- range (000 07.08.02-03, 001 7.3.2-3) -------------------------------------------------


@pytest.mark.parametrize(
    ("distance", "contact", "band"),
    [
        (5.0, False, 5),
        (5.2, False, 6),
        (0.99, False, 1),
        (1.0, True, 1),
        (1.3, True, 1),
        (29.999, False, 30),
        (30.0, False, 30),
        (30.0001, False, 31),
    ],
)
def test_range_band(distance, contact, band):
    assert range_band(distance, contact) == band


def test_range_through_sight_5_0_and_5_2_and_contact():
    table = make_table()
    a = pose("A1", 10, 10)
    assert table.sight(a, pose("B1", 15, 10), [], 30, MODERN).range_band_in == 5
    assert table.sight(a, pose("B1", 15.2, 10), [], 30, MODERN).range_band_in == 6
    touching = table.sight(a, pose("B1", 11.005, 10), [], 30, MODERN)
    assert touching.in_contact and touching.range_band_in == 1 and touching.clear


# --- base contact and engaged (000 07.08.03-04, 001 7.3.4) -------------------------------


@pytest.mark.parametrize(
    ("enemy", "in_contact", "is_engaged"),
    [
        (pose("B1", 11, 10, 180), True, True),  # face to face, whole front edge
        (pose("B1", 11, 10.5, 180), True, True),  # half the front edge: engaged
        (pose("B1", 11, 10.6, 180), True, False),  # 0.4" of the front edge: not engaged
        (pose("B1", 11.005, 10, 180), True, True),  # within 0.01": still contact
        (pose("B1", 11.02, 10, 180), False, False),  # 0.02" gap: no contact
        (pose("B1", 10, 11, 270), True, False),  # touching the side, not the front
    ],
)
def test_contact_and_engaged(enemy, in_contact, is_engaged):
    me = pose("A1", 10, 10, 0)
    assert base_contact(me, enemy) is in_contact
    assert engaged(me, enemy) is is_engaged


# --- movement (000 08.03, 09.00; 001 8.3) --------------------------------------------------


def _example_table():
    """000 09.00.01: 3" of good road, 0.5" of woods, 1" up a slope, then clear."""
    return make_table(
        ("good_road", [(0, 10), (2.9, 10)]),
        ("woods", (3, 8, 3.5, 12)),
        ("hill", (3.5, 0, 4.5, 20), 1),
    )


def test_move_of_000_09_00_01_costs_10_mp():
    table = _example_table()
    walk = table.walk([(0, 10), (9.5, 10)], 10)
    assert walk.stopped_by is None
    assert walk.mp_spent == pytest.approx(10.0)
    assert walk.distance_in == pytest.approx(9.5)
    per_part = [
        sum(walk.step_costs[:6]),
        sum(walk.step_costs[6:7]),
        sum(walk.step_costs[7:9]),
        sum(walk.step_costs[9:]),
    ]
    assert per_part == pytest.approx([1.5, 1.5, 2.0, 5.0])


def test_move_short_of_points_stops_before_the_step_it_cannot_pay():
    walk = _example_table().walk([(0, 10), (9.5, 10)], 9.9)
    assert walk.stopped_by == "mp"
    assert walk.points[-1] == pytest.approx((9.0, 10))
    assert walk.mp_spent == pytest.approx(9.5)


def test_one_inch_minimum_move_000_08_03_03():
    table = make_table(("woods", (0, 0, 20, 20)))
    walk = table.walk([(5, 5), (10, 5)], 1)  # 1 MP in woods pays for 1/3"
    assert walk.distance_in == pytest.approx(1.0)
    assert walk.stopped_by == "mp"
    assert walk.mp_spent == 1  # the free inch spends what the stand had, no more


def test_move_stopped_by_impassable_ground():
    table = make_table(("impassable", (8, 0, 12, 20)))
    walk = table.walk([(5, 5), (15, 5)], 20)
    assert walk.stopped_by == "impassable"
    assert walk.points[-1] == pytest.approx((8.0, 5))  # the next step's midpoint is inside


def test_impassable_ground_stops_even_the_free_inch():
    table = make_table(("impassable", (5.2, 0, 12, 20)))
    walk = table.walk([(5, 5), (6, 5)], 20)
    assert walk.stopped_by == "impassable" and walk.distance_in == 0


def test_move_may_not_leave_the_table():
    walk = make_table().walk([(58, 5), (62, 5)], 20)
    assert walk.stopped_by == "edge"
    assert walk.points[-1] == pytest.approx((60, 5))


def test_modern_stand_may_not_move_through_an_enemy():
    table = make_table()
    walk = table.walk([(5, 5), (15, 5)], 20, no_pass=[footprint(10, 5, 0)])
    assert walk.stopped_by == "enemy"
    assert walk.points[-1] == pytest.approx((9.0, 5))  # in base contact; one more would overlap


def test_road_rate_and_slope_add_up():
    table = make_table(("good_road", [(0, 5), (20, 5)]), ("hill", (0, 0, 20, 20), 1))
    walk = table.walk([(10, 5), (12, 5)], 20)  # on the crest (> 1" in): 0.5 road + 1 hilltop
    assert walk.mp_spent == pytest.approx(3.0)
    assert walk.road_rate


def test_move_ending_on_another_stand_is_walked_back():
    table = make_table()
    walk = table.walk([(5, 5), (10, 5)], 20)
    others = [footprint(10.2, 5, 0)]
    end = table.fit_back(walk.points, 0, others)
    x, y = walk.points[end]
    assert (x, y) == pytest.approx((9.0, 5))  # back two half-inch steps until it fits
    assert footprint(x, y, 0).intersection(others[0]).area <= 1e-6


def test_a_move_that_fits_nowhere_says_so():
    walk = make_table().walk([(5, 5), (6, 5)], 20)
    assert make_table().fit_back(walk.points, 45, [footprint(5.5, 5, 0)]) == -1


def test_walk_back_ignores_stands_it_merely_touches():
    walk = make_table().walk([(5, 5), (10, 5)], 20)
    end = make_table().fit_back(walk.points, 0, [footprint(11, 5, 0)])
    assert walk.points[end] == pytest.approx((10, 5))


def test_path_cost_diagonal_through_woods():
    table = make_table(("woods", (0, 0, 20, 20)))
    assert table.path_cost([(1, 1), (4, 5)]) == pytest.approx(15.0)  # 5" at 3 MP


def test_terrain_at_reports_hills_roads_and_areas():
    table = make_table(
        ("hill", (10, 10, 20, 20), 1),
        ("hill", (13, 13, 17, 17), 2),
        ("good_road", [(0, 5), (30, 5)]),
        WOOD,
    )
    assert table.terrain_at(15, 15).ground_level == 2
    assert table.terrain_at(10.5, 15).hill_zone == "slope"
    assert table.terrain_at(12, 15).hill_zone == "hilltop"
    assert table.terrain_at(12, 15).ground_level == 1
    assert table.terrain_at(3, 5.2).road == "good_road"
    assert table.terrain_at(3, 5.3).road is None
    assert table.terrain_at(12, 6).areas == ("woods",)


def test_sight_matrix_shapes_and_self_pairs():
    table = make_table(WOOD)
    a = [pose("A1", 5, 6), pose("A2", 5, 20)]
    b = [pose("B1", 20, 6), pose("B2", 20, 20), pose("B3", 50, 20)]
    m = table.sight_matrix(a, b, a + b, 30, MODERN)
    assert m.clear.shape == (2, 3)
    assert m.clear.tolist() == [[False, True, False], [True, True, False]]
    assert m.range_band_in[1, 1] == 15
    assert math.isclose(m.range_in[0, 0], 15.0)
    same = table.sight_matrix(a, a, a, 30, MODERN)
    assert not same.clear[0, 0] and not same.clear[1, 1]


def test_data_row_used_by_geometry_is_the_tracked_column():
    assert DATA.terrain["woods"].move_cost("T") == 3


@pytest.mark.parametrize(
    ("offset", "stopped"),
    [
        (1.1, True),  # the diamond's corner (0.707" out) meets the mover's side (0.5" out)
        (1.25, False),  # 1.207" would just touch: passes by
        (0.0, True),
    ],
)
def test_a_stand_turned_45_degrees_stops_a_mover_passing_its_corner(offset, stopped):
    """No moving through an enemy's footprint (000 08.03.05), with the enemy turned so its
    corner reaches furthest."""
    walk = make_table().walk([(5, 5), (15, 5)], 20, no_pass=[footprint(10, 5 + offset, 45)])
    assert (walk.stopped_by == "enemy") == stopped


@pytest.mark.parametrize(
    ("path", "arc_in", "rest"),
    [
        # where a stand stopped to roll its nerve, the rest of its path (001 8.3.6)
        (((0, 0), (10, 0)), 3.0, ((3.0, 0.0), (10.0, 0.0))),
        (((0, 0), (4, 0), (4, 6)), 5.5, ((4.0, 1.5), (4.0, 6.0))),
        (((0, 0), (4, 0), (4, 6)), 4.0, ((4.0, 0.0), (4.0, 6.0))),  # on a corner: it turns there
        (((0, 0), (0, 0), (2, 0)), 0.0, ((0.0, 0.0), (2.0, 0.0))),  # a repeated point is skipped
        (((0, 0), (2, 0)), 9.0, ((2.0, 0.0),)),  # past the end: the end alone
    ],
)
def test_path_after(path, arc_in, rest):
    assert path_after(path, arc_in) == rest


def test_path_after_refuses_nonsense():
    with pytest.raises(ValueError, match="starting point"):
        path_after((), 1.0)
    with pytest.raises(ValueError, match="negative"):
        path_after(((0, 0), (1, 0)), -1.0)


def test_a_table_keeps_its_sight_answers_and_no_caller_can_change_them():
    """sight_matrices is a pure function of the poses: asked again with the same poses it
    answers with the same matrices (kept), read-only; another pose is a new answer (000
    07.01: a stand moved into the wood is blocked)."""
    table = make_table(("woods", (4, -2, 6, 2)))
    a, b = [pose("A1", 0, 0)], [pose("B1", 10, 0, 180)]
    first = table.sight_matrices(a, b, a + b, 30, MODERN)
    again = table.sight_matrices(list(a), list(b), a + b, 30, MODERN)
    assert again[0] is first[0] and again[1] is first[1]
    with pytest.raises(ValueError):
        first[0].clear[0, 0] = True
    assert not first[0].clear[0, 0]  # the wood is in the way
    moved = [pose("B1", 10, 5, 180)]
    other = table.sight_matrices(a, moved, a + moved, 30, MODERN)
    assert other[0] is not first[0] and bool(other[0].clear[0, 0])
