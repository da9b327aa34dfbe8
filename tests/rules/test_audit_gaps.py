"""The rules gaps an audit found (issue 23), each a table of cases with fixed dice citing its
rule, and rows for rules that worked without a test (rules-decisions.md says how we read
them)."""

from __future__ import annotations

import math

import pytest
import shapely

from game.rules.actions import (
    ChooseFirst,
    DeclareGroup,
    Fire,
    LetPass,
    Move,
    MoveAttempt,
    Pass,
    Regroup,
)
from game.rules.battle import Battle
from game.rules.dice import FixedDice
from game.rules.files.log import check_log_line
from game.rules.files.scenario import parse_scenario
from game.rules.procedures.combat import crt_result
from tests.conftest import MODERN, battle, make_table, pose, scenario_dict
from tests.helpers import events, to_movement
from tests.helpers import wwii_battle as wwii

T72, T62, M1A2 = "T-72", "T-62", "M1A2 Abrams"
PZ, SHERMAN, CHAR_B1 = "Pz IIIJ-M", 'M4 "Sherman"', "Char B1 (bis)"


# --- 000 05.00 step 4: a TL2 stand that moved more than half may not fire ----------------------


@pytest.mark.parametrize(
    ("b1_path", "spent", "offered"),
    [
        (((30, 20), (30, 4)), 16, False),  # a T-62 (TL2, 16 MP) drove its whole allowance
        (((30, 20), (30, 12)), 8, True),  # exactly half: it may still opportunity fire
        (((30, 20), (30, 11.5)), 8.5, False),  # more than half, by half an inch
    ],
    ids=["all of it", "exactly half", "more than half"],
)
def test_a_tl2_stand_that_moved_more_than_half_may_not_opportunity_fire(b1_path, spent, offered):
    """000 05.00 step 4 (RD "Sequence of play"): a TL2 stand moves its whole allowance or fires
    once and moves at most half; one that has spent more than half may not fire that turn."""
    b = battle([("A1", "A", T72, 10, 12, 0), ("B1", "B", T62, 30, 20, 180)], [5, 5])
    to_movement(b, first="B")
    b.apply(MoveAttempt("B", "1", True))
    b.apply(Move("B", "B1", b1_path, 180.0))
    if b.state.pending is not None:
        b.apply(LetPass("A"))
    assert b.stand("B1").mp_spent == pytest.approx(spent)
    b.apply(MoveAttempt("A", "1", True))
    b.apply(Move("A", "A1", ((10, 12), (14, 12)), 0.0))
    firers = {f for fs in b.opportunity_offer.values() for f, _ in fs}
    assert ("B1" in firers) is offered
    why = b.fire_setup("B1", "A1", kind="opportunity").reason
    assert (why is None) is offered and (offered or "000 05.00 step 4" in why)


# --- 000 08.02.09, 001 8.2.7: stragglers form a new group --------------------------------------


def _stragglers(orders_dice):
    b = battle(
        [
            ("A1", "A", T72, 10, 12, 0, {"hq": True}),
            ("A2", "A", T72, 10, 14, 0),
            ("B1", "B", T72, 46, 22, 0),
        ],
        [14, 10, 6, 6, 1, 1],  # the group's D20; then A2's marker removal and turn 2's initiative
        sighting=10,
    )
    b.stand("A2").S = True
    to_movement(b, orders_dice=orders_dice)
    # one D20 for group 1: 14 - 2 (HQ A1) = 12 passes; A2 adds +4 (S): 16 fails (cohesion 15)
    b.apply(MoveAttempt("A", "1", True))
    b.apply(Move("A", "A1", ((10, 12), (14, 12)), 0.0))
    b.apply(Pass("B"))
    return b


@pytest.mark.parametrize(
    ("orders_dice", "ordered", "mods"),
    [
        ((4, 4, 3, 3), True, [{"why": "suppressed", "value": 4}]),  # 8 + 1 (III): 3 orders
        (
            (2, 1, 3, 3),
            False,
            [{"why": "independent", "value": 3}, {"why": "suppressed", "value": 4}],
        ),  # 3 + 1 = 4: one order, used: independently, once
    ],
    ids=["by a further order", "independently"],
)
def test_stragglers_form_a_new_group_that_may_move_again(orders_dice, ordered, mods):
    """000 08.02.09 / 001 8.2.7 (RD "Cohesion"): the stands that failed while others of the
    group moved form a new group for the rest of the phase, which may be moved by a further
    order or, once the orders are gone, independently; the HQ that moved off with the others
    no longer gives it -2."""
    b = _stragglers(orders_dice)
    assert b.stand("A2").group == "1'" and b.stand("A1").group == "1"
    assert MoveAttempt("A", "1'", ordered) in b.legal_actions()
    b.apply(MoveAttempt("A", "1'", ordered))
    (_, attempt) = events(b, "move_attempt")
    assert attempt["group"] == "1'" and attempt["per_stand"]["A2"]["mods"] == mods
    assert check_log_line(attempt, attempt["seq"]) == []


def test_a_straggler_group_lasts_for_its_phase_only():
    b = _stragglers((2, 1, 3, 3))
    b.apply(Pass("A"))  # B passed already: the movement phase ends
    assert b.state.turn == 2 and b.stand("A2").group == "1"  # back in its battle group


# --- 001 7.1.2: in WWII a stand is the object of one attack a turn -----------------------------


def test_a_stand_attacked_in_the_fire_phase_is_not_offered_to_opportunity_fire():
    """001 7.1.2 (RD "Sequence of play"): standard, opportunity and covering fire together,
    one attack a turn. A4 is attacked in the fire phase (B1's roll of 20 fails), then moves in
    sight of B2, in the firing posture and unfired: no opportunity fire is offered."""
    stands = [
        ("A1", "A", PZ, 4, 20, 0),
        ("A4", "A", PZ, 20, 6, 0),
        ("B1", "B", SHERMAN, 30, 12, 180),
        ("B2", "B", SHERMAN, 30, 6, 180),
    ]
    b = wwii(stands, [6, 1, 20, 3, 3, 3, 3, 5])
    b.apply(ChooseFirst("A", "A"))
    b.apply(DeclareGroup("A", ("A4",)))
    b.apply(Pass("B"))
    b.apply(Pass("A"))
    b.apply(ChooseFirst("A", "B"))
    b.apply(Fire("B", "A4", ("B1",), ("cannon",)))
    assert b.fire_setup("B2", "A4").reason == "A4 has already been attacked this turn (001 7.1.2)"
    b.apply(Pass("A"))
    b.apply(Pass("B"))
    b.apply(ChooseFirst("A", "A"))
    b.apply(MoveAttempt("A", "M1", True))
    b.apply(Move("A", "A4", ((20, 6), (24, 6)), 0.0))
    assert b.state.pending is None and b.stand("A4").x == 24  # nobody was asked


# --- terrain chart **: the hilltop +2 is for a target on the hilltop, not on the slope ---------


@pytest.mark.parametrize(
    ("target_x", "zone", "hilltop"),
    [(20.5, "slope", False), (25.0, "hilltop", True), (29.6, "slope", False)],
)
def test_the_hilltop_bonus_is_for_the_hilltop_not_the_slope(target_x, zone, hilltop):
    """A level-1 hill 20..30 x 8..18: its 1" slope band gives a target nothing, its top +2
    against a firer below (terrain chart **; RD "Hills")."""
    b = battle(
        [("A1", "A", M1A2, 8, 13, 0), ("B1", "B", T72, target_x, 13, 180)],
        [],
        terrain=[("hill", (20, 8, 30, 18), 1)],
    )
    assert b.table.terrain_at(target_x, 13).hill_zone == zone
    fs = b.fire_setup("A1", "B1", kind="planning")
    assert (("hilltop", 2) in fs.combat_mods) is hilltop
    assert (("hilltop", 2) in fs.cohesion_mods) is hilltop


# --- RD "Movement": the road rate within 0.25" is inclusive, to 1e-9" --------------------------


def test_a_step_exactly_a_quarter_inch_off_a_road_pays_the_road_rate():
    """A diagonal good road; a path parallel to it 0.25" away, where Shapely measures the
    distance a hair over 0.25" (0.25000000000000006): still the road rate (0.5 MP an inch
    tracked), not clear ground (1 MP). wwii-meeting seed 1041 had charged 9.75 for 8.0."""
    table = make_table(("good_road", [(0, 0), (40, 40)]))
    road = table.roads[0].geometry
    off = 0.25 / math.sqrt(2)

    over = [
        x
        for x in (5 + k * 0.37 for k in range(80))
        if shapely.Point(x + off, x - off).distance(road) > 0.25
    ]
    assert over, "no point measured over 0.25 to test"
    x = over[0]
    start, end = (x + off, x - off), (x + off + 4 / math.sqrt(2), x - off + 4 / math.sqrt(2))
    assert table.terrain_at(*start).road == "good_road"
    assert table.path_cost((start, end)) == pytest.approx(4 * 0.5)


# --- RD "Line of sight": a stand sharing the firer's or the target's place does not block -------


@pytest.mark.parametrize(
    ("third", "clear"),
    [
        ((10.6, 10.3), True),  # overlaps the firer's footprint: passing through, shares its place
        ((19.5, 9.8), True),  # overlaps the target's footprint
        ((14.0, 10.2), False),  # in the way, apart from both: it blocks
    ],
)
def test_a_stand_overlapping_the_firer_or_the_target_does_not_block(third, clear):
    table = make_table()
    f, t = pose("A1", 10, 10, 0), pose("B1", 20, 10, 180)
    x = pose("B2", *third, 0)
    s = table.sight(f, t, [f, t, x], 30, MODERN)
    assert s.clear is clear
    assert (("stand", "B2") in s.blocked_by) is not clear


# --- 000 08.01.01 and the battle log: a set-up regroup is written as a regroup line --------------


def test_a_setup_regroup_is_logged():
    b = Battle(
        parse_scenario(
            scenario_dict([("A1", "A", T72, 10, 12, 0), ("B1", "B", T72, 30, 12, 180)]), "t.json"
        ),
        0,
        dice=FixedDice([6, 6, 1, 1]),
    )
    (ev,) = b.apply(Regroup("A", "A1", "2"))
    assert ev["event"] == "regroup" and ev["phase"] == "setup" and ev["turn"] == 0
    assert (ev["side"], ev["stand"], ev["group"], ev["hq"], ev["ghq"]) == (
        "A",
        "A1",
        "2",
        False,
        True,
    )
    assert check_log_line(ev, ev["seq"]) == []


# --- rules that worked without a test ----------------------------------------------------------


@pytest.mark.parametrize(
    ("facing", "legal"),
    [(0.0, True), (90.0, False), (180.0, False)],
    ids=["target ahead", "target to the side", "target behind"],
)
def test_a_hull_gun_fires_only_into_its_front_arc(facing, legal):
    """001 10.0 (the data table's §): the Char B1 (bis) fires only at a target in its front
    arc (rules-decisions "Facing")."""
    b = wwii([("A1", "A", CHAR_B1, 10, 12, facing), ("B1", "B", SHERMAN, 20, 12, 180)], [6, 1])
    fs = b.fire_setup("A1", "B1", kind="planning")
    assert fs.legal is legal
    assert legal or fs.reason == "A1's gun fires only into its front arc"


def test_a_facing_change_alone_is_the_whole_movement_action():
    """001 8.3.7: a stand in the movement posture may turn without moving; that is its move
    for the phase (logged as a move of one point with the new facing and no MP spent)."""
    b = wwii(
        [("A1", "A", PZ, 4, 20, 0), ("A4", "A", PZ, 20, 6, 0), ("B1", "B", SHERMAN, 40, 20, 180)],
        [6, 1, 3, 3, 3, 3, 5],
    )
    b.apply(ChooseFirst("A", "A"))
    b.apply(DeclareGroup("A", ("A4",)))
    b.apply(Pass("B"))
    b.apply(Pass("A"))
    b.apply(ChooseFirst("A", "A"))
    b.apply(Pass("A"))
    b.apply(Pass("B"))
    b.apply(ChooseFirst("A", "A"))
    b.apply(MoveAttempt("A", "M1", True))
    b.apply(Move("A", "A4", ((20, 6),), 90.0))
    (mv,) = events(b, "move")
    assert mv["path"] == [[20, 6]] and mv["mp_spent"] == 0 and mv["facing_deg"] == 90
    a4 = b.stand("A4")
    assert a4.moved and (a4.x, a4.y, a4.facing_deg) == (20, 6, 90)


@pytest.mark.parametrize(
    ("last_roll", "outcome", "after"),
    [
        (6, "recovered", {"S": False, "D": True, "eliminated": False}),
        (1, "rallied", {"S": False, "D": False, "eliminated": False}),
        (20, "panic", {"S": True, "D": True, "eliminated": True}),
    ],
)
def test_worked_example_of_001_section_5_under_the_wwii_rules(last_roll, outcome, after):
    """The 001 section 5 example on the WWII sequence of play (cohesion 13): turn 1's marker
    removal rolls 10 for an S, 10 + 4 = 14 fails; an (S) on an S is a D (CRT); turn 2's roll
    for S and D: 6 + 7 = 13 removes the S, a natural 1 removes both, a natural 20 panics to
    (S), which on S is D, and on D eliminates."""
    stands = [("A1", "A", PZ, 4, 12, 0), ("B1", "B", SHERMAN, 30, 12, 180)]
    turn = [6, 1, 3, 3, 3, 3]  # initiative 1D6 each; orders 2D6 each

    b = wwii(stands, [*turn, 10, *turn, last_roll, 6, 1], cohesion=(15, 13))

    def pass_turn():
        for _ in range(3):  # posture, fire, movement
            b.apply(ChooseFirst("A", "A"))
            b.apply(Pass("A"))
            b.apply(Pass("B"))

    b.stand("B1").S = True
    pass_turn()
    (mr,) = events(b, "marker_removal")
    assert (mr["total"], mr["outcome"], mr["level"]) == (14, "none", 13)
    assert crt_result("(S)", True, False)[:3] == ("D", True, True)
    b.stand("B1").D = True  # the (S) of turn 2 on the S
    pass_turn()
    mr = events(b, "marker_removal")[-1]
    assert mr["outcome"] == outcome and mr["markers_after"] == after
    if last_roll == 6:
        assert mr["total"] == 13
