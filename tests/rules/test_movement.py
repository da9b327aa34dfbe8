"""Joint movement through the engine, with fixed dice (000 08.00-08.03, 07.06.05)."""

from __future__ import annotations

import pytest

from game.rules.actions import (
    ChooseFirst,
    EndMoves,
    Fire,
    LetPass,
    Move,
    MoveAttempt,
    OpportunityFire,
    Pass,
)
from game.rules.battle import IllegalAction
from game.rules.files.log import check_log_line
from tests.conftest import battle
from tests.helpers import events, to_movement

M1A2, T80, T72, T62 = "M1A2 Abrams", "T-80U / AT-11", "T-72", "T-62"


# --- orders (000 08.02.01-02; 002 command efficiency table) -----------------------------------


@pytest.mark.parametrize(
    ("dice", "command", "generation", "total", "orders"),
    [
        ((1, 1), 0, 3, 3, 0),  # < 4: none
        ((2, 1), 0, 3, 4, 1),
        ((3, 3), 0, 3, 7, 2),
        ((4, 4), 0, 3, 9, 3),
        ((5, 5), 0, 3, 11, 4),
        ((6, 6), 0, 3, 13, 5),
        ((6, 6), 1, 3, 14, 6),
        ((6, 6), 2, 4, 16, 7),  # > 15: seven
        ((6, 6), 0, 1, 11, 4),  # generation I is -1
    ],
)
def test_orders_from_the_command_efficiency_table(dice, command, generation, total, orders):
    b = battle(
        [("A1", "A", T72, 10, 12, 0), ("B1", "B", T72, 30, 12, 180)],
        [],
        command=(command, 0),
        generation=(generation, 3),
    )
    to_movement(b, orders_dice=(*dice, 3, 3))
    a_orders = [e for e in events(b, "orders") if e["side"] == "A"][0]
    assert (a_orders["dice"], a_orders["total"], a_orders["orders"]) == (list(dice), total, orders)
    assert b.state.orders["A"] == orders


def test_no_orders_once_the_ghq_is_gone():
    """000 08.02.02: no dice are rolled for a side without its GHQ."""
    b = battle(
        [
            ("A1", "A", T72, 10, 12, 0, {"ghq": True}),
            ("A2", "A", T72, 10, 14, 0),
            ("B1", "B", T72, 30, 12, 180),
        ],
        [],
    )
    b.stand("A1").eliminated = True
    to_movement(b, orders_dice=(3, 3))
    a_orders = [e for e in events(b, "orders") if e["side"] == "A"][0]
    assert a_orders["dice"] == [] and a_orders["orders"] == 0


# --- move attempts (000 08.02.03-10) ----------------------------------------------------------


def test_ordered_attempt_uses_an_order_and_one_roll_for_the_group():
    b = battle(
        [("A1", "A", T72, 10, 12, 0), ("A2", "A", T72, 10, 14, 0), ("B1", "B", T72, 40, 12, 180)],
        [15],
    )
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    (ev,) = events(b, "move_attempt")
    assert ev["roll"] == 15 and ev["ordered"] is True
    # A1 is the GHQ: -2 for it (08.02.03)
    assert ev["per_stand"]["A1"] == {
        "mods": [{"why": "hq", "value": -2}],
        "total": 13,
        "passed": True,
    }
    assert b.state.orders["A"] == 1
    assert b.state.moving.stands == ["A1", "A2"]


def test_suppressed_stand_straggles():
    """001 8.2.7 example as the Modern rules play it: one roll; the S stand adds +4."""
    b = battle(
        [
            ("A1", "A", T72, 10, 12, 0, {"group": "HQ"}),
            ("A2", "A", T72, 10, 14, 0),
            ("A3", "A", T72, 10, 16, 0),
            ("B1", "B", T72, 40, 12, 180),
        ],
        [13],
    )
    b.stand("A3").S = True
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    (ev,) = events(b, "move_attempt")
    assert {k: v["passed"] for k, v in ev["per_stand"].items()} == {"A2": True, "A3": False}
    assert ev["per_stand"]["A3"]["total"] == 17
    assert b.state.moving.stands == ["A2"]


def test_independent_movement_only_without_orders_once_and_at_plus_3():
    b = battle([("A1", "A", T72, 10, 12, 0), ("B1", "B", T72, 40, 12, 180)], [12, 20])
    to_movement(b, orders_dice=(2, 1, 3, 3))  # A: 4 = one order
    with pytest.raises(IllegalAction, match="use up the orders"):
        b.apply(MoveAttempt("A", "1", False))
    b.apply(MoveAttempt("A", "1", True))  # roll 12 - 2 (GHQ) = 10: moves
    b.apply(EndMoves("A"))
    b.apply(Pass("B"))
    b.apply(MoveAttempt("A", "1", False))  # roll 20: fails, +3 shown
    ev = events(b, "move_attempt")[-1]
    assert ev["ordered"] is False
    assert {"why": "independent", "value": 3} in ev["per_stand"]["A1"]["mods"]
    b.apply(Pass("B"))
    with pytest.raises(IllegalAction, match="no stand left|again"):
        b.apply(MoveAttempt("A", "1", False))


def test_failed_attempt_hands_over_to_the_enemy():
    b = battle([("A1", "A", T72, 10, 12, 0), ("B1", "B", T72, 40, 12, 180)], [20])
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    assert b.state.moving is None and b.to_act == "B"


# --- moving (000 08.03, 09.00) ---------------------------------------------------------------


def test_move_walks_pays_and_logs():
    b = battle(
        [("A1", "A", T72, 10, 12, 0), ("B1", "B", T72, 40, 2, 180)],
        [5],
        [("woods", (14, 10, 20, 14))],
    )
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    b.apply(Move("A", "A1", ((10, 12), (30, 12)), 90.0))
    (ev,) = events(b, "move")
    # T-72 has 20 MP: 4" clear (4) then woods at 3 MP an inch: 5.33" -> 5" (15 MP), 19 MP spent
    assert ev["path"][-1] == [19.0, 12.0]
    assert ev["mp_spent"] == 19 and ev["mp_allowed"] == 20 and ev["stopped_by"] == "mp"
    assert ev["facing_deg"] == 90
    a1 = b.stand("A1")
    assert (a1.x, a1.y, a1.facing_deg, a1.moved) == (19.0, 12.0, 90.0, True)
    assert check_log_line(ev, ev["seq"]) == []
    assert b.state.moving is None and b.to_act == "B"  # the group's only stand has moved


def test_move_must_start_at_the_stand_and_stay_on_the_table():
    b = battle([("A1", "A", T72, 10, 12, 0), ("B1", "B", T72, 40, 2, 180)], [5])
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    with pytest.raises(IllegalAction, match="starts at the stand"):
        b.apply(Move("A", "A1", ((11, 12), (20, 12)), 0.0))
    with pytest.raises(IllegalAction, match="leaves the table"):
        b.apply(Move("A", "A1", ((10, 12), (10, 30)), 0.0))


@pytest.mark.parametrize(
    ("path", "why"),
    [
        (((10, 12), (20, 12)), None),
        (((11, 12), (20, 12)), "starts at the stand"),
        (((10, 12), (10, 24.5), (10, 20)), "leaves the table"),  # even if it comes back on
        (((10, 12), (float("nan"), 12)), "finite points"),
    ],
)
def test_the_engine_says_why_it_would_refuse_a_path(path, why):
    """RD "Movement": a path starts at the stand's centre and never leaves the table. The AI
    asks ``path_problem`` before it offers a move; ``apply`` refuses with the same words."""
    b = battle([("A1", "A", T72, 10, 12, 0), ("B1", "B", T72, 40, 2, 180)], [5])
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    got = b.path_problem("A1", path)
    if why is None:
        assert got is None
        b.apply(Move("A", "A1", path, 0.0))
    else:
        assert why in got
        with pytest.raises(IllegalAction, match=why):
            b.apply(Move("A", "A1", path, 0.0))


def test_tl2_that_fired_moves_half():
    """000 05.00 step 4: T-62 (TL2, speed 16) tried to fire, so 8 MP."""
    # dice: fire cohesion 20 (fails, but it tried), orders 3+3 and 3+3, move attempt 5
    b = battle([("A1", "A", T62, 10, 12, 0), ("B1", "B", T72, 25, 12, 180)], [20, 3, 3, 3, 3, 5])
    b.apply(ChooseFirst("A", "A"))
    b.apply(Pass("A"))
    b.apply(Pass("B"))
    b.apply(ChooseFirst("A", "A"))
    b.apply(Fire("A", "B1", ("A1",), ("cannon",)))
    b.apply(Pass("B"))
    b.apply(Pass("A"))
    b.apply(ChooseFirst("A", "A"))
    assert b.movement_points("A1") == 8
    b.apply(MoveAttempt("A", "1", True))
    b.apply(Move("A", "A1", ((10, 12), (10, 22)), 90.0))
    if b.state.pending:
        b.apply(LetPass("B"))
    assert events(b, "move")[0]["mp_spent"] == 8


def test_ending_on_a_friend_walks_back_000_08_03_05():
    b = battle(
        [("A1", "A", T72, 10, 12, 0), ("A2", "A", T72, 15, 12, 0), ("B1", "B", T72, 40, 2, 180)],
        [5],
    )
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    b.apply(Move("A", "A1", ((10, 12), (15.2, 12)), 0.0))
    ev = events(b, "move")[0]
    assert ev["stopped_by"] == "overlap"
    assert ev["path"][-1] == [14.0, 12.0]  # back along its path to where it fits


def test_passing_through_friends_is_free_but_not_through_enemies():
    b = battle(
        [("A1", "A", T72, 10, 12, 0), ("A2", "A", T72, 13, 12, 0), ("B1", "B", T72, 20, 12, 90)],
        [5],
    )
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    b.apply(Move("A", "A1", ((10, 12), (25, 12)), 0.0))
    b.apply(LetPass("B"))
    ev = events(b, "move")[0]
    assert ev["stopped_by"] == "enemy" and ev["path"][-1] == [19.0, 12.0]


def test_entering_from_the_side_edge_on_turn_1():
    b = battle(
        [
            ("A1", "A", T72, 0, 12, 0, {"on_table": False}),
            ("A2", "A", T72, 10, 4, 0),
            ("B1", "B", T72, 40, 2, 180),
        ],
        [5],
    )
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    with pytest.raises(IllegalAction, match="left edge"):
        b.apply(Move("A", "A1", ((2, 12), (10, 12)), 0.0))
    for astride in (((0, 14),), ((0, 14), (0, 20)), ((0, 14), (0.3, 18))):
        # on or along the edge, or not wholly clear of it: half off the table
        with pytest.raises(IllegalAction, match="drive onto the table"):
            b.apply(Move("A", "A1", astride, 0.0))
    b.apply(Move("A", "A1", ((0, 14), (10, 14)), 0.0))
    ev = events(b, "move")[0]
    assert ev["entered"] is True and ev["path"][0] == [0.0, 14.0]
    assert b.stand("A1").on_table and b.stand("A1").x == 10


# Every stand enters as soon as it can (scenario sheets: both sides enter on turn 1; RD "The
# seed scenarios"; docs/rules.md "Entering the table"). Orders dice 1+1: A has no orders, so its
# groups may each try once, independently (+3).
ENTERING = [
    ("A1", "A", T72, 0, 12, 0, {"on_table": False}),
    ("A2", "A", T72, 10, 4, 0, {"group": "2"}),
    ("B1", "B", T72, 40, 2, 180),
]


@pytest.mark.parametrize(
    "attempt_roll, may_pass_after_attempt",
    [
        (20, True),  # natural 20: the group failed its try; nothing more it can do this phase
        (5, False),  # it passed: A1 must come on before the action can end
    ],
)
def test_a_side_may_not_stop_moving_while_a_stand_waits_to_enter(
    attempt_roll, may_pass_after_attempt
):
    # the attempt's roll, then turn 2's initiative (A 6+6, B 1+1)
    b = to_movement(battle(ENTERING, [attempt_roll, 6, 6, 1, 1]), orders_dice=(1, 1, 3, 3))
    assert b.state.orders["A"] == 0
    assert b.entry_due("A") == ["1"] and b.entry_due("B") == []
    assert Pass("A") not in b.legal_actions()
    with pytest.raises(IllegalAction, match="group 1 still has stands waiting to enter"):
        b.apply(Pass("A"))
    assert MoveAttempt("A", "2", False) in b.legal_actions()  # other groups first is fine
    b.apply(MoveAttempt("A", "1", False))
    if may_pass_after_attempt:
        assert b.state.moving is None and b.to_act == "B"
        assert b.entry_due("A") == []  # group 1 has had its try this phase
        b.apply(Pass("B"))
        assert Pass("A") in b.legal_actions()
        b.apply(Pass("A"))
        assert b.state.turn == 2
        assert not b.stand("A1").on_table  # it tries again next turn
        return
    assert b.state.moving is not None
    assert EndMoves("A") not in b.legal_actions()
    with pytest.raises(IllegalAction, match="A1 is still waiting to enter"):
        b.apply(EndMoves("A"))
    b.apply(Move("A", "A1", ((0, 12), (3, 12)), 0.0))
    assert b.stand("A1").on_table and b.state.moving is None and b.to_act == "B"
    b.apply(Pass("B"))
    b.apply(Pass("A"))  # group 2 is all on the table: it may stay where it is
    assert b.state.turn == 2


def test_a_stand_waiting_to_enter_finds_room_away_from_its_own_point_of_the_edge():
    """docs/rules.md "Entering the table": the action may not end while a waiting stand has a
    way on. A1 waits at (0, 12); A3, A4 and A5 sit just inside the edge at y 9, 12 and 15, so
    the points 3" either side of its own are blocked too: the nearest free points are offered."""
    b = battle(
        [
            ("A1", "A", T72, 0, 12, 0, {"on_table": False}),
            ("A3", "A", T72, 0.5, 9, 0, {"group": "2"}),
            ("A4", "A", T72, 0.5, 12, 0, {"group": "2"}),
            ("A5", "A", T72, 0.5, 15, 0, {"group": "2"}),
            ("B1", "B", T72, 40, 2, 180),
        ],
        [5],
    )
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    moves = [a for a in b.legal_actions() if isinstance(a, Move)]
    assert EndMoves("A") not in b.legal_actions()
    assert {a.path[0] for a in moves} == {(0.0, 11.0), (0.0, 13.0)}  # touching A4: room
    assert all(a.path[-1][0] >= 0.5 for a in moves)  # every one ends wholly on the table


def test_moves_go_on_until_both_sides_pass():
    # B's move attempt 5, then the next turn's initiative 6+6 and 1+1
    b = battle([("A1", "A", T72, 10, 12, 0), ("B1", "B", T72, 40, 2, 180)], [5, 6, 6, 1, 1])
    to_movement(b)
    b.apply(Pass("A"))
    b.apply(MoveAttempt("B", "1", True))  # B's roll: 5
    b.apply(EndMoves("B"))
    b.apply(Pass("A"))
    assert b.state.phase == "movement"
    b.apply(Pass("B"))
    assert b.state.phase == "fire1" and b.state.turn == 2  # marker removal had nothing to do


# --- opportunity fire (000 07.06.05) ---------------------------------------------------------


def _of_battle(extra_dice):
    b = battle([("A1", "A", T72, 10, 12, 0), ("B1", "B", T72, 26, 15, 180)], [5, *extra_dice])
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    b.apply(Move("A", "A1", ((10, 12), (20, 12)), 0.0))
    return b


def test_a_move_offers_opportunity_fire_along_its_path():
    b = _of_battle([])
    assert b.to_act == "B"
    offer = b.opportunity_offer
    assert sorted(offer) == list(range(0, 21))  # every step point is in B1's sight
    assert offer[10] == [("B1", "cannon")]
    assert b.stand("A1").x == 10  # nothing has moved yet


def test_let_pass_completes_the_move():
    b = _of_battle([])
    b.apply(LetPass("B"))
    ev = events(b, "move")[0]
    assert ev["stopped_by"] is None and ev["path"][-1] == [20.0, 12.0]
    assert b.to_act == "B"  # A's group has no one left to move: the movement action is over


def test_opportunity_fire_interrupts_then_the_mover_rolls_to_go_on():
    # B fires at step 10 (15, 12), front, band 12 (+1): cohesion 5, combat 6+6+1 = 13 -> S at
    # +4; A rolls 9 + 4 = 13: goes on
    b = _of_battle([5, 6, 6, 9])
    b.apply(OpportunityFire("B", 10, ("B1",), ("cannon",)))
    part1, part2 = events(b, "move")
    fire = events(b, "fire")[0]
    assert part1["stopped_by"] == "opportunity_fire" and part1["path"][-1] == [15.0, 12.0]
    assert fire["kind"] == "opportunity" and fire["target_pos"][:2] == [15.0, 12.0]
    assert fire["aspect"] == "front" and fire["differential"] == 4 and fire["result"] == "S"
    assert part2["cohesion"]["total"] == 13 and part2["cohesion"]["passed"] is True
    assert part2["path"][0] == [15.0, 12.0] and part2["path"][-1] == [20.0, 12.0]
    assert part1["mp_spent"] + part2["mp_spent"] == pytest.approx(10)
    assert part2["mp_allowed"] == pytest.approx(20 - part1["mp_spent"])
    assert check_log_line(part2, part2["seq"]) == []


def test_failing_the_roll_stops_the_mover_where_it_was_hit():
    b = _of_battle([5, 6, 6, 16])  # S then 16 + 4 = 20 > 15
    b.apply(OpportunityFire("B", 10, ("B1",), ("cannon",)))
    part2 = events(b, "move")[-1]
    assert part2["stopped_by"] == "cohesion" and part2["mp_spent"] == 0
    assert (b.stand("A1").x, b.stand("A1").y) == (15.0, 12.0)


def test_after_opportunity_fire_the_move_is_not_offered_again():
    """000 07.02.03 C: one opportunity attack a movement phase. A TL4 stand that has fired once
    may still opportunity fire at another mover (07.06.05)."""
    b = battle(
        [
            ("A1", "A", T72, 10, 12, 0),
            ("A2", "A", T72, 10, 8, 0),
            ("B1", "B", M1A2, 20, 20, 270),
            ("B2", "B", T72, 24, 20, 270),
        ],
        [5, 20, 9],
    )
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    b.apply(Move("A", "A1", ((10, 12), (14, 12)), 0.0))
    b.apply(OpportunityFire("B", 2, ("B1",), ("cannon",)))  # misses (20), A1 rolls 9: on
    assert "movement" in b.stand("A1").attacked_in
    assert b.state.pending is None and b.to_act == "A" and b.stand("A1").x == 14
    b.apply(Move("A", "A2", ((10, 8), (14, 8)), 0.0))
    assert b.to_act == "B"
    firers = {f for fs in b.opportunity_offer.values() for f, _ in fs}
    assert firers == {"B1", "B2"}


def test_opportunity_fire_must_be_on_offer():
    b = _of_battle([])
    with pytest.raises(IllegalAction, match="no stand of B may fire at step 40"):
        b.apply(OpportunityFire("B", 40, ("B1",), ("cannon",)))


def test_a_stand_that_fits_nowhere_keeps_its_place_and_facing():
    """Found by the fuzz: B1 turns towards a friend it cannot reach; walked back to its start,
    the new facing would overlap that friend, so it stays as it was (000 08.03.05)."""
    b = battle(
        [
            ("A1", "A", T72, 10, 12, 0),
            ("A2", "A", T72, 10, 13.05, 90),
            ("B1", "B", T72, 40, 2, 180),
        ],
        [5],
    )
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    b.apply(Move("A", "A1", ((10, 12), (10, 13)), 45.0))
    ev = events(b, "move")[0]
    assert ev["stopped_by"] == "overlap"
    a1 = b.stand("A1")
    assert (a1.x, a1.y, a1.facing_deg) == (10, 12, 0)


@pytest.mark.parametrize(
    "path",
    [((10, 12), (20, 12)), ((10, 12), (14, 16), (20, 14)), ((10, 12), (10, 4))],
    ids=["straight", "dog-leg", "away"],
)
def test_the_threat_preview_is_the_engines_offer_for_the_same_path(path):
    """What the plotting screen shows before a move is committed is exactly what the enemy is
    offered once it is (000 07.06.05): the same steps, the same firers at each."""
    b = battle(
        [
            ("A1", "A", T72, 10, 12, 0),
            ("B1", "B", T72, 26, 15, 180),
            ("B2", "B", M1A2, 24, 4, 90),
        ],
        [5],
    )
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    preview = b.threat_preview("A1", path, 0.0)
    b.apply(Move("A", "A1", path, 0.0))
    assert preview["offer"] == b.opportunity_offer
    assert preview["points"] == b.state.pending.points if b.state.pending else True
    if preview["worst"] is not None:
        worst = preview["worst"]
        assert len(preview["offer"][worst]) == max(len(v) for v in b.opportunity_offer.values())
        assert 0 <= preview["odds"]["p_eliminated"] <= 1


def test_who_will_see_a_stand_where_it_ends_is_the_engines_sight():
    """The plotting panel's "where it ends" line (#24 item 3) and the held-Space readout come
    from Battle.seen_by, which agrees with the fire check's sight, aspect included."""
    b = battle(
        [("A1", "A", T72, 10, 12, 0), ("B1", "B", T72, 26, 15, 180), ("B2", "B", T72, 20, 22, 0)],
        [5],
        terrain=[("woods", (15, 16, 25, 19))],  # hides A1's end point from B2
    )
    seen = b.seen_by(20, 12, 90.0, "A", moving="A1")
    assert [e for e, _ in seen] == ["B1"]
    assert seen[0][1] == "flank"  # facing 90 (up), B1 fires from the right: a flank shot
    b.state.stands["A1"].x, b.state.stands["A1"].y = 20, 12
    b.state.stands["A1"].facing_deg = 90.0
    s = b.sight("B1", "A1")
    assert s.clear and s.aspect == "flank"
    assert not b.sight("B2", "A1").clear
