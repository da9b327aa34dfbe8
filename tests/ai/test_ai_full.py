"""The scripted AI in the full games: it takes its infantry aboard again when a ride takes
them further than they walk, keeps its moves out of impact markers, and does not send its
air strikes where they would likelier hit its own stands, and keeps a gun back from the plot to
fire direct at an enemy in its sight. Small set pieces, each decision asserted."""

from __future__ import annotations

import math

import pytest
import shapely

from game.ai.scripted import ScriptedAI
from game.rules.actions import (
    ArtilleryFire,
    Mount,
    Move,
    MoveAttempt,
    Pass,
    PlotAirStrike,
    PlotMission,
)
from game.rules.state import Impact, Mission
from game.rules.table.geometry import footprint
from game.rules.table.smoke import marker_circle
from tests.conftest import battle
from tests.helpers import drive, make
from tests.helpers import full_to_movement as to_movement

FULL = {"ruleset": "modern-full", "depth": 36}


def _movement(stands, width=48):
    """A full-game battle in its movement phase, A's group 1 ordered to move."""
    b = battle(stands, [3, 4, 3, 4, 5, 5, 5, 5, 5, 5], width=width, **FULL)
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    return b


@pytest.mark.parametrize(
    ("unit", "enemy_x", "boards"),
    [
        ("US Mech Infantry", 46, True),
        ("US Mech Infantry", 24, False),
        ("US TOW Team", 46, False),
    ],
)
def test_infantry_boards_an_empty_carrier_beside_it_when_the_enemy_is_far(unit, enemy_x, boards):
    """The M113 (18 MP; 9 when it loads) has room and the infantry (4 MP) stands behind it.
    With the T-72 about 37" off, riding takes the infantry 9" nearer, walking 4": it boards,
    and the carrier drives on with it. With the T-72 about 16" off the infantry is nearly
    where a carrier would set it down (12" from the enemy): it does not board. A TOW team
    (37" of range) is where it is needed 37" off: it does not board either."""
    b = _movement(
        [
            ("A1", "A", "M113A3", 10, 12, 0),
            ("A2", "A", unit, 9, 12, 0),
            ("B1", "B", "T-72", enemy_x, 20, 180),
        ]
    )
    ai = ScriptedAI(1)
    first = ai.choose(b)
    assert (first == Mount("A", "A1", "A2")) is boards
    if boards:
        b.apply(first)
        move = ai.choose(b)
        assert isinstance(move, Move) and move.stand == "A1"
        b.apply(move)
        a2 = b.stand("A2")
        assert a2.carried_by == "A1" and a2.x > 15  # carried further than it walks (4")


def test_a_carrier_with_room_fetches_a_foot_stand_that_has_far_to_go():
    """The infantry walks first (4"), then the empty M113 drives into base contact with it,
    facing the enemy, so that it boards as the carrier's next move begins."""
    b = _movement(
        [
            ("A2", "A", "US Mech Infantry", 12, 18, 0),
            ("A1", "A", "M113A3", 10, 12, 0),
            ("B1", "B", "T-72", 46, 20, 180),
        ]
    )
    ai = ScriptedAI(1)
    b.apply(ai.choose(b))  # the infantry walks on
    fetch = ai.choose(b)
    assert isinstance(fetch, Move) and fetch.stand == "A1"
    assert ai.last[0].label == "A1 fetches A2"
    b.apply(fetch)
    a1, a2 = b.stand("A1"), b.stand("A2")
    assert math.dist((a1.x, a1.y), (a2.x, a2.y)) == pytest.approx(1.0, abs=0.05)
    assert b.state.moving is None or b.state.moving.side != "A"  # the action is over


def _crosses(b, move, x, y) -> bool:
    walk = b.preview_move(move.stand, move.path)
    pts = walk.points
    fps = [footprint(px, py, 0.0) for px, py in pts]
    return bool(shapely.intersects(shapely.union_all(fps), marker_circle(x, y)))


def test_the_ai_drives_round_an_impact_marker_on_its_way():
    """The M1 has no enemy in range and drives straight at him, through (17, 12); with an
    impact marker of the enemy's there (a stand entering it is attacked once, 002 step 6) it
    takes a way that stays out of it."""
    stands = [("A1", "A", "M1 Abrams", 10, 12, 0), ("B1", "B", "T-72", 46, 12, 180)]
    b = _movement(stands, width=60)
    plain = ScriptedAI(1).choose(b)
    assert isinstance(plain, Move) and _crosses(b, plain, 17.0, 12.0)
    b = _movement(stands, width=60)
    b.state.impacts.append(Impact("m1.1", "m1", "B", "B1", 17.0, 12.0))
    move = ScriptedAI(1).choose(b)
    assert isinstance(move, Move) and not _crosses(b, move, 17.0, 12.0)


A10 = [{"aircraft": "A-10A Thunderbolt II", "sorties": 1}]


def _plot(stands):
    b = make(stands, air={"A": A10}, width=60, depth=36)
    drive(b, 1, "plot")
    if b.to_act == "B":
        b.apply(Pass("B"))
    return b


def test_a_strike_is_weighed_by_the_harm_it_may_do_to_our_own_stand():
    """The A-10A at the enemy's gun (30, 12), which stays where it is: with our M113 5" from
    it (and expected to stay, the enemy so near), a deviated strike (1-10")
    comes down nearer the M113 in about half the places it may land, and attacks it. The
    strike's score drops by half as much again as that expected harm (the engine's
    ``strike_outcomes``)."""
    enemy = [("B1", "B", "2S19 Msta-S", 30, 12, 180)]
    scores = []
    for ours in ([], [("A2", "A", "M113A3", 30, 17, 0)]):
        b = _plot([("A1", "A", "M1 Abrams", 4, 34, 0), *ours, *enemy])
        ai = ScriptedAI(1)
        strike = ai.choose(b)
        assert isinstance(strike, PlotAirStrike) and strike.path[1] == (30, 12)
        scores.append(ai.last[0].score)
        odds = b.strike_outcomes(
            "A", strike.aircraft, strike.path, ai.support.expected_places(b, "A")
        )
    own = odds["stands"]["A2"]
    assert own["E"] > 0.02
    assert scores[0] - scores[1] == pytest.approx(1.5 * ai.support.harm_split(b, "A", odds)[1])


def test_the_ai_keeps_its_stands_clear_of_its_own_strike_coming_down_next_turn():
    """The M1 drives straight at the far enemy and would stop at (18, 12). With its own air
    strike plotted to come down at (19, 12) next turn (it attacks the stand nearest where it
    lands, friend or foe) it ends its move at least 5" from that point."""
    stands = [("A1", "A", "M1 Abrams", 10, 12, 0), ("B1", "B", "T-72", 46, 12, 180)]
    b = _movement(stands, width=60)
    plain = ScriptedAI(1).choose(b)
    assert isinstance(plain, Move) and math.dist(plain.path[-1], (19, 12)) < 2
    b = _movement(stands, width=60)
    path = ((0.0, 12.0), (19.0, 12.0), (0.0, 12.0))
    b.state.missions.append(
        Mission("m1", "A", "air", 2, 1, aircraft="A-10A Thunderbolt II", path=path)
    )
    move = ScriptedAI(1).choose(b)
    end = b.preview_move("A1", move.path).points[-1] if isinstance(move, Move) else (10, 12)
    assert math.dist(end, (19, 12)) >= 5


GUN_DUEL = [
    ("A1", "A", "M109A6 Paladin", 4, 12, 0),
    ("A2", "A", "M1 Abrams", 4, 30, 0),
    ("B1", "B", "Motor Rifle Infantry", 18, 12, 180),
    ("B2", "B", "T-72", 50, 30, 180),
]


@pytest.mark.parametrize(
    ("level", "wood", "direct"),
    [
        ("veteran", False, True),  # in sight and range: no deviation roll, fired next turn
        ("elite", False, True),
        ("veteran", True, False),  # a wood hides the infantry: the mission is plotted
        ("veteran-43", False, False),  # a level that plots every gun (fires_direct 0)
        ("recruit", False, False),
    ],
)
def test_a_gun_with_an_enemy_in_its_sight_is_kept_back_to_fire_direct(level, wood, direct):
    """002 direct artillery procedure: the Paladin (HE 14 at 20") sees motor rifles in the
    open 14" away. A mission plotted now lands on the aim only when its deviation roll passes;
    fired direct next turn it needs none, and its worth at 0.85 (the level's ``fires_direct``:
    the infantry may have moved out of sight) is still above the mission's (the engine's
    ``mission_outcomes`` both ways). The veteran plots nothing with it, and in turn 2's joint
    artillery fire phase fires at the infantry direct; behind a wood (no sight, the engine's
    ``direct_aim_problem``) it plots the mission as before."""
    terrain = [("woods", (10, 10, 13, 14))] if wood else []
    b = _plot_at(GUN_DUEL, terrain)
    assert (b.direct_aim_problem("A1", 18, 12) is None) is not wood
    ai = ScriptedAI(1, level)
    held = ai.support.held_for_direct(b, "A", ["A1"], ai.support.aims(b, "A")[:6])
    assert list(held) == (["A1"] if direct else [])
    if level == "recruit":  # it picks among its three best: no one choice to assert
        return
    plot = ai.choose(b)
    if not direct:
        assert isinstance(plot, PlotMission) and plot.firers == ("A1",)
        return
    assert isinstance(plot, Pass) and "B1" in held["A1"]
    b.apply(plot)
    drive(b, 2, "artillery")
    if b.to_act == "B":
        b.apply(Pass("B"))
    fire = ai.choose(b)
    assert fire == ArtilleryFire("A", ("A1",), ((18.0, 12.0),), "he")


def _plot_at(stands, terrain):
    b = make(stands, width=60, depth=36, terrain=terrain)
    drive(b, 1, "plot")
    if b.to_act == "B":
        b.apply(Pass("B"))
    return b
