"""The WWII sequence of play (seed 001): initiative on 1D6, posture determination, one shot a
turn, opportunity fire that stops the mover only when it does something, covering fire, and the
terrain rules that depend on posture or on having fired. Every row names its rule."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.rules.actions import (
    ChooseFirst,
    CoveringFire,
    DeclareGroup,
    EndCoveringFire,
    Fire,
    LetPass,
    Move,
    MoveAttempt,
    OpportunityFire,
    Pass,
)
from game.rules.battle import IllegalAction
from game.rules.files.log import check_log, check_log_line
from game.rules.files.scenario import load_scenario
from game.rules.rulesets import ruleset
from tests.helpers import PZ, SHERMAN, _m1_may_move, _moving, to_fire_phase, wwii_battle
from tests.helpers import wwii_STANDS as STANDS

WwiiRules = ruleset("wwii")

MAP = Path(__file__).resolve().parents[2] / "maps" / "wwii-meeting.json"

# A1-A3 touch in an L (A1-A2 side by side, A3 on top of A1); A4 stands alone; B1 faces them.


def events(b, name):
    return [e for e in b.log.events if e["event"] == name]


# --- initiative (001 5.0 step 1) ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "winner", "tiebreaks"),
    [
        ([4, 4], "A", []),  # 4 + 15 = 19 beats 4 + 14 = 18
        ([1, 3], "B", []),  # 16 against 17
        ([3, 4, 2, 5], "B", [{"A": [2], "B": [5]}]),  # 18 all: rolled again on the plain die
        ([3, 4, 3, 3, 6, 1], "A", [{"A": [3], "B": [3]}, {"A": [6], "B": [1]}]),
    ],
    ids=["A higher", "B higher", "tie rolled again", "tie twice"],
)
def test_initiative_is_one_die_plus_cohesion(dice, winner, tiebreaks):
    b = wwii_battle(STANDS, dice)
    (ev,) = events(b, "initiative")
    assert ev["winner"] == winner == b.state.initiative
    assert ev["tiebreaks"] == tiebreaks
    assert ev["rolls"]["A"]["total"] == dice[0] + 15
    assert b.state.phase == "posture" and b.to_act == winner  # it chooses who declares first


# --- posture determination (001 5.0 step 2, 8.1.2) ---------------------------------------------


def test_the_posture_phase_offers_whole_chains_and_single_stands():
    b = wwii_battle(STANDS, [6, 1])
    b.apply(ChooseFirst("A", "B"))
    assert b.to_act == "B"
    b.apply(Pass("B"))
    decl = [a.stands for a in b.legal_actions() if isinstance(a, DeclareGroup)]
    assert decl == [("A1", "A2", "A3"), ("A1",), ("A2",), ("A3",), ("A4",)]


@pytest.mark.parametrize(
    ("declarations", "error"),
    [
        ([("A1", "A2"), ("A4",), ("A3",)], None),  # part of a chain, then singles
        ([("A2", "A1", "A3")], None),  # a chain through A1
        ([("A2", "A3")], None),  # corners touching are in base contact (RD)
        ([("A1", "A4")], "base contact"),  # 8.1.2: not touching
        ([("A4",), ("A1", "A2")], "before any one-stand group"),  # 5.0: groups of 2+ first
        ([("A1", "A2"), ("A2",)], "already in a movement group"),
        ([("B1",)], "not A's stand"),
    ],
    ids=[
        "part chain then singles",
        "whole chain",
        "corners touch",
        "apart",
        "singles first",
        "twice",
        "enemy stand",
    ],
)
def test_declaring_movement_groups(declarations, error):
    b = wwii_battle(STANDS, [6, 1])
    b.apply(ChooseFirst("A", "A"))
    *ok, last = declarations
    for group in ok:
        b.apply(DeclareGroup("A", group))
        b.apply(Pass("B"))
    if error is None:
        b.apply(DeclareGroup("A", last))
        posture = events(b, "posture")
        assert [e["stands"] for e in posture] == [list(g) for g in declarations]
        assert [e["group"] for e in posture] == [f"M{i + 1}" for i in range(len(declarations))]
        assert all(b.stand(i).posture == "movement" for g in declarations for i in g)
    else:
        with pytest.raises(IllegalAction, match=error):
            b.apply(DeclareGroup("A", last))


def test_undeclared_stands_fire_and_declared_ones_move():
    """001 5.0: a stand not in the movement posture is in the firing posture; 7.4.1, 8.1.2."""
    b = wwii_battle(STANDS, [6, 1, 3, 3, 3, 3])
    to_fire_phase(b)
    assert [b.stand(i).posture for i in ("A1", "A2", "A3", "A4", "B1")] == [
        "movement",
        "movement",
        "firing",
        "firing",
        "firing",
    ]
    b.apply(ChooseFirst("A", "A"))
    assert "movement posture" in b.fire_setup("A1", "B1").reason
    assert b.fire_setup("A4", "B1").legal  # 10.8": within the Pz III's 15"
    b.apply(Pass("A"))
    b.apply(Pass("B"))
    b.apply(ChooseFirst("A", "A"))  # movement: orders 3+3 each
    attempts = {a.group for a in b.legal_actions() if isinstance(a, MoveAttempt)}
    assert attempts == {"M1"}  # B1, A3 and A4 hold their ground this turn


@pytest.mark.parametrize(
    ("posture", "fired", "fires", "opportunity"),
    [
        ("firing", 0, True, True),
        ("firing", 1, False, False),  # 7.1.5: once a turn, in the fire phase or as OF
        ("movement", 0, False, False),  # 7.4.1
    ],
)
def test_one_shot_a_turn_from_the_firing_posture(posture, fired, fires, opportunity):
    b = wwii_battle(STANDS, [6, 1])
    s = b.stand("A4")
    s.posture, s.fire_attempts = posture, fired
    assert WwiiRules.fire.may_fire_in(s, "fire") is fires
    assert WwiiRules.fire.may_opportunity_fire(s) is opportunity
    assert WwiiRules.fire.shots_per_turn(s) == 1


# --- opportunity fire and covering fire (001 7.4, 7.5) -----------------------------------------


def test_no_effect_lets_the_mover_go_on_without_a_roll_then_covering_fire_answers():
    # B1 at (14, 12): band 16 (+3), 7 against 6 front = +1; 5 passes; 6+6+3 = 15: no effect.
    # A4 answers: band 12 (+2), 6 against 7 front = -1; 12 + 3 = 15 passes; 1+1+2 = 4: (S)
    b = _moving([5, 6, 6, 12, 1, 1])
    b.apply(OpportunityFire("B", 8, ("B1",), ("cannon",)))
    (of,) = events(b, "fire")
    assert of["result"] == "none"
    assert b.to_act == "A" and b.state.covering is not None  # 7.5: the mover's side answers
    assert CoveringFire("A", "B1", ("A4",), ("cannon",)) in b.legal_actions()
    b.apply(CoveringFire("A", "B1", ("A4",), ("cannon",)))
    cf = events(b, "fire")[-1]
    assert cf["kind"] == "covering" and cf["attacker"] == "A4"
    assert {"why": "covering", "value": 3} in cf["cohesion"]["mods"]
    assert cf["cohesion"]["total"] == 15 and cf["result"] == "S" and b.stand("B1").S
    part1, part2 = events(b, "move")
    assert part1["stopped_by"] == "opportunity_fire" and "cohesion" not in part2  # 7.4.4
    assert (b.stand("A1").x, b.stand("A1").y) == (18.0, 12.0)
    assert b.state.covering is None and b.stand("A4").fire_attempts == 1


def test_an_effect_makes_the_mover_roll_to_go_on():
    # 1+1+3 = 5 at +1: D. A1 rolls 9 + 3 (D) = 12 <= 15: on. No covering fire: declined.
    b = _moving([5, 1, 1, 9])
    b.apply(OpportunityFire("B", 8, ("B1",), ("cannon",)))
    assert events(b, "fire")[0]["result"] == "D"
    with pytest.raises(IllegalAction, match="covering fire"):
        b.apply(Move("A", "A2", ((11, 12), (11, 14)), 90.0))
    b.apply(EndCoveringFire("A"))
    part2 = events(b, "move")[-1]
    assert part2["cohesion"]["total"] == 12 and part2["cohesion"]["passed"] is True
    assert b.stand("A1").x == 18.0 and not b.stand("B1").S


def test_any_effect_among_several_firers_makes_the_mover_roll():
    """001 7.4.4 with two firers: B1 puts a D on A1, then B2 does nothing; the mover still rolls
    (the attack's result is the last one that did something, not the last shot's)."""
    stands = [*STANDS, ("B2", "B", SHERMAN, 30, 10, 180)]
    # B1: 5 passes, 1+1+3 = 5 at +1: D. B2 (band 17, +3): 5 passes, 6+6+3 = 15: no effect.
    # A1 rolls 9 + 3 (D) = 12 <= 15: on.
    b = _moving([5, 1, 1, 5, 6, 6, 9], stands, (("B1", "cannon"), ("B2", "cannon")))
    b.apply(OpportunityFire("B", 8, ("B1", "B2"), ("cannon", "cannon")))
    assert [e["result"] for e in events(b, "fire")] == ["D", "none"]
    b.apply(EndCoveringFire("A"))
    part2 = events(b, "move")[-1]
    assert part2["cohesion"]["total"] == 12 and part2["cohesion"]["passed"] is True


def test_covering_fire_needs_the_firing_posture():
    b = _moving([5, 6, 6])
    b.stand("A4").posture = "movement"  # nobody of A's is left to answer
    b.apply(OpportunityFire("B", 8, ("B1",), ("cannon",)))
    assert b.state.covering is None and b.stand("A1").x == 18.0


# --- terrain that depends on posture or on having fired (001 terrain chart, 6.1.2) -------------


@pytest.mark.parametrize(
    ("posture", "mods"), [("movement", [("terrain:marsh", -1)]), ("firing", [])]
)
def test_marsh_helps_only_a_target_in_the_movement_posture(posture, mods):
    b = wwii_battle(STANDS, [6, 1], terrain=[("marsh", (28, 10, 32, 14))])
    b.stand("B1").posture = posture
    assert b.target_terrain_mods(b.stand("A4").pose(), b.stand("B1").pose()) == mods


def test_a_stand_that_fired_counts_as_in_the_open_for_sight():
    """001 6.1.2: B1 sits 1" inside a wood, hidden from A4; once it has fired at A5 (in contact
    behind it) A4 sees it through the wood's edge."""
    stands = [
        ("A4", "A", PZ, 20, 12, 0),
        ("A5", "A", PZ, 31, 12, 180),
        ("B1", "B", SHERMAN, 30, 12, 180),
    ]
    b = wwii_battle(stands, [6, 1, 1, 6, 6], terrain=[("woods", (29, 8, 40, 16))])
    b.apply(ChooseFirst("A", "A"))
    b.apply(Pass("A"))
    b.apply(Pass("B"))
    assert not b.sight("A4", "B1").clear
    b.apply(ChooseFirst("A", "B"))
    b.apply(Fire("B", "A5", ("B1",), ("cannon",)))
    assert b.sight("A4", "B1").clear


# --- the shipped scenario ----------------------------------------------------------------------


def test_the_wwii_meeting_engagement_plays_to_the_end_with_a_clean_log(tmp_path):
    from game.check.sim import play_battle

    log = tmp_path / "wwii.jsonl"
    r = play_battle(load_scenario(MAP), 3, ("veteran", "random"), log_path=log)
    assert r.log_problems == [] and r.turns >= 1
    evs = [json.loads(x) for x in log.read_text().splitlines()]
    assert check_log(evs) == []
    assert {e["phase"] for e in evs} >= {"posture", "fire", "movement", "marker_removal"}
    assert {e["side"] for e in evs if e["event"] == "posture"} == {"A", "B"}
    assert any(e["event"] == "move" for e in evs)


# --- passing through an enemy stand (001 8.3.6) -------------------------------------------------

# B1 stands in A1's way, 4" ahead, front to front; A4 and the rest as in STANDS.
BLOCKING = [*STANDS[:4], ("B1", "B", SHERMAN, 14, 12, 180)]


def _drive_through(dice, path=((10, 12), (18, 12)), markers=()):
    """A1 (group M1 with A2) drives along ``path``; B lets every offered move pass. ``dice``
    follow the initiative, orders (3+3 each side) and A's movement roll (5)."""
    b = _m1_may_move(BLOCKING, dice)
    for m in markers:
        setattr(b.stand("A1"), m, True)
    b.apply(Move("A", "A1", path, 0.0))
    while b.state.pending is not None and b.to_act == "B":
        b.apply(LetPass("B"))
    return b


@pytest.mark.parametrize(
    ("roll", "markers", "total", "passed", "ends_at"),
    [
        (12, (), 15, True, 18.0),  # 12 + 3 = 15 <= 15: through, on to the path's end
        (13, (), 16, False, 13.0),  # 16 > 15: it stays adjacent to B1
        (9, ("S",), 16, False, 13.0),  # its own S adds +4
        (8, ("D",), 14, True, 18.0),  # its own D adds +3
        (1, ("S", "D"), 11, True, 18.0),  # +10 would still pass; a natural 1 always passes
        (20, (), 23, False, 13.0),  # a natural 20 always fails
    ],
)
def test_a_stand_tests_its_nerve_to_pass_through_an_enemy_stand(
    roll, markers, total, passed, ends_at
):
    b = _drive_through([roll], markers=markers)
    first, *rest = [e for e in events(b, "move") if e["stand"] == "A1"]
    assert first["stopped_by"] == "enemy" and first["path"][-1] == [13.0, 12.0]
    nerve = first["pass_through"]
    assert nerve["enemy"] == "B1" and nerve["roll"] == roll and nerve["level"] == 15
    assert {"why": "pass_through", "value": 3} in nerve["mods"]
    assert nerve["total"] == total and nerve["passed"] is passed
    assert (b.stand("A1").x, b.stand("A1").y) == (ends_at, 12.0)
    if passed:  # the rest of the path is a second part of the same move: 3" + 5" of 11 MP
        (second,) = rest
        assert second["path"][0] == [13.0, 12.0] and second["path"][-1] == [18.0, 12.0]
        assert second["mp_allowed"] == 8.0 and second["mp_spent"] == 5.0
        assert second["stopped_by"] is None and "pass_through" not in second
    else:
        assert rest == [] and b.stand("A1").moved
    assert [p for i, e in enumerate(b.log.events) for p in check_log_line(e, i)] == []


def test_a_path_that_ends_on_the_enemy_asks_only_for_base_contact():
    """001 8.3.6: only a stand that means to go through rolls; one driving into contact stops."""
    b = _drive_through([], path=((10, 12), (14, 12)))
    (move,) = [e for e in events(b, "move") if e["stand"] == "A1"]
    assert move["stopped_by"] == "enemy" and "pass_through" not in move
    assert (b.stand("A1").x, b.stand("A1").y) == (13.0, 12.0)


def test_the_nerve_roll_chance_is_offered_before_the_move():
    """What the plotting screen shows comes from the engine (RD "Movement"; 001 8.3.6)."""
    b = _drive_through([12])  # any battle at A's movement will do; ask about A2 next
    assert b.pass_through_at("A2", ((11, 12), (11, 20))) is None  # nobody in the way
    b2 = wwii_battle(BLOCKING, [6, 1])
    assert b2.pass_through_at("A1", ((10, 12), (18, 12))) == ("B1", 0.6)  # rolls 1-12 of 20
    b2.stand("A1").D = True
    assert b2.pass_through_at("A1", ((10, 12), (18, 12))) == ("B1", 0.45)
    assert b2.pass_through_at("A1", ((10, 12), (14, 12))) is None  # ends on B1


def test_the_rest_of_the_move_is_offered_to_opportunity_fire_again():
    """000 07.06.05 with 001 8.3.6: after the nerve roll the rest of the move is a new part; the
    enemy may fire along it, but not again at the point where the stand stopped to roll."""
    b = _m1_may_move(BLOCKING, [12])
    b.apply(Move("A", "A1", ((10, 12), (18, 12)), 0.0))
    assert b.state.pending.points[-1] == (13.0, 12.0) and 6 in b.opportunity_offer
    b.apply(LetPass("B"))
    part2 = b.state.pending
    assert part2.points[0] == (13.0, 12.0) and part2.passed == ("B1",)
    assert 0 not in b.opportunity_offer and min(b.opportunity_offer) == 1
    assert set(b.opportunity_setups()) == set(b.opportunity_offer)  # what the AI weighs
