"""Ruling R1 (000 08.02.08): a group some of whose stands moved this phase has moved, the
stand that opportunity fire eliminated part-way through its move included. Its other stands
may then move only by a further order, never independently at +3. Worked by hand with fixed
dice, one row per case."""

from __future__ import annotations

import pytest

from game.rules.actions import ChooseFirst, EndMoves, Move, MoveAttempt, OpportunityFire, Pass
from game.rules.battle import IllegalAction
from tests.conftest import battle, pass_phase

CASES = [
    pytest.param(
        # Modern intro. A has one order (2 + 1 + generation III = 4). Group 1's D20 is 5: A1
        # and A2 both pass (no HQ in the group, cohesion 15). A1 drives 10" east; at step 10
        # (15, 12) B1 fires at its front from 11.4" away (band 12: +1): cohesion 5, 2D6 1 + 1
        # + 1 = 3 at a differential of +4: E. A ends the action with A2 unmoved.
        dict(
            stands=[
                ("A0", "A", "T-72", 2, 22, 0, {"group": "HQ", "ghq": True}),
                ("A1", "A", "T-72", 10, 12, 0),
                ("A2", "A", "T-72", 10, 8, 0),
                ("B1", "B", "T-72", 26, 15, 180),
            ],
            kw={},
            orders=(2, 1, 3, 3),
            dice=[5, 5, 1, 1],
            mover="A1",
            path=((10, 12), (20, 12)),
            left="A2",
        ),
        id="a mover eliminated mid-move (000 08.02.08, 07.06.05)",
    ),
    pytest.param(
        # Modern full game. A has one order (4). The M113 A1 carries the Mech Infantry A2,
        # both of group 1; the D20 for the group is 5 (only A1 rolls: a rider does not move
        # itself). At step 10 the M1A2 fires AP 25 against armour 5, above +9: always E
        # (cohesion 5, 2D6 3 + 3). A2 rolls 4 to get out: it is set down beside the wreck,
        # disorganized, and has not moved itself (RD "Transport").
        dict(
            stands=[
                ("A0", "A", "T-72", 2, 22, 0, {"group": "HQ", "ghq": True}),
                ("A1", "A", "M113A3", 10, 12, 0),
                ("A2", "A", "US Mech Infantry", 10, 12, 0, {"carried_by": "A1"}),
                ("B1", "B", "M1A2 Abrams", 26, 15, 180),
            ],
            kw={"ruleset": "modern-full"},
            orders=(2, 1, 3, 3),
            dice=[5, 5, 3, 3, 4],
            mover="A1",
            path=((10, 12), (20, 12)),
            left="A2",
        ),
        id="a carrier killed mid-move, its rider of the group set down (000 08.02.08, RD)",
    ),
]


def _to_movement(b, orders):
    """Both fire phases (and the full game's empty plot phase) go by; the orders' dice are
    ``orders`` (A's 2D6, then B's); A moves first with one order."""
    b.dice._values[b.dice._next : b.dice._next] = list(orders)
    for _ in range(2):
        pass_phase(b)
    assert b.state.phase == "movement"
    b.apply(ChooseFirst("A", "A"))
    assert b.state.orders["A"] == 1


@pytest.mark.parametrize("case", CASES)
def test_ruling_r1_a_group_whose_mover_was_eliminated_mid_move_has_moved(case):
    b = battle(case["stands"], case["dice"], **case["kw"])
    _to_movement(b, case["orders"])
    b.apply(MoveAttempt("A", "1", True))
    b.apply(Move("A", case["mover"], case["path"], 0.0))
    assert b.to_act == "B" and b.decision().kind == "opportunity_fire"
    b.apply(OpportunityFire("B", 10, ("B1",), ("cannon",)))
    fire = [e for e in b.log.events if e["event"] == "fire"][-1]
    assert fire["result"] == "E" and b.stand(case["mover"]).eliminated
    left = b.stand(case["left"])
    assert left.active and not left.moved and left.group == "1"
    if b.to_act == "A" and b.state.moving is not None:
        b.apply(EndMoves("A"))  # the rest of the group stays by choice
    b.apply(Pass("B"))
    assert b.to_act == "A" and b.state.orders["A"] == 0
    assert b.dice._next == len(b.dice._values)  # every die above was drawn, and no other
    # the group has moved: no independent try at +3 for the stand left behind ...
    assert MoveAttempt("A", "1", False) not in b.legal_actions()
    with pytest.raises(IllegalAction, match="has moved"):
        b.apply(MoveAttempt("A", "1", False))
    # ... while a group none of whose stands moved still may
    assert MoveAttempt("A", "HQ", False) in b.legal_actions()
