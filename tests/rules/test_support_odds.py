"""The engine's odds of fire support over every place it may land, and of the impact markers a
move drives into (game/rules/procedures/support_odds.py): what the AI and the screens weigh before they
plot or move. Each case worked by hand."""

from __future__ import annotations

import pytest

from game.rules.procedures import artillery
from game.rules.state import Impact
from tests.helpers import ENTER, make

A10 = [{"aircraft": "A-10A Thunderbolt II", "sorties": 1}]


def test_the_deviation_offsets_are_every_die_roll_with_its_chance():
    """1D8 directions times 1D10" (air, 002): 80 places of 1/80 each; 1D8/2" (artillery):
    1-4" in 8 directions, each distance twice as likely, 32 places of 1/32."""
    air = artillery.deviation_offsets(10, False)
    assert len(air) == 80 and sum(p for _, p in air) == pytest.approx(1.0)
    arty = dict(artillery.deviation_offsets(8, True))
    assert len(arty) == 32 and arty[(0.0, 4.0)] == pytest.approx(1 / 32)
    assert arty[(4.0, 0.0)] == pytest.approx(1 / 32)  # direction 3: right


def test_a_move_through_an_impact_marker_is_attacked_once_by_it():
    """As test_artillery's drive into a marker: AP 9 against the M1's armour halved to 9, +0:
    D on 2-4 (6 in 36), S otherwise. A move that passes beside the marker enters none."""
    b = make(ENTER)
    b.state.impacts.append(Impact("m1.1", "m1", "A", "A1", 24, 14))
    through = [(24.0, 20.0 - 0.5 * k) for k in range(25)]
    odds = b.impact_entry_odds("A3", through, 270.0)
    assert odds["markers"] == ["m1.1"]
    assert odds["D"] == pytest.approx(6 / 36) and odds["S"] == pytest.approx(30 / 36)
    beside = [(24.0 + 0.5 * k, 20.0) for k in range(10)]
    assert b.impact_entry_odds("A3", beside, 0.0) == {
        "markers": [],
        "none": 1.0,
        "S": 0.0,
        "D": 0.0,
        "E": 0.0,
    }
    b.state.impacts[0].hit.add("A3")  # once per marker
    assert b.impact_entry_odds("A3", through, 270.0)["markers"] == []


def test_a_strike_weighs_the_friendly_stand_it_may_deviate_onto():
    """The A-10A at the T-80U: on the aim it attacks the T-80U; deviated 1-10" it attacks
    whichever is nearest where it comes down, the own M113 5" away among them. The M113's
    chance of harm is the deviated share that lands nearer it, so it is above 0 and below the
    deviation's own chance. Expected where the T-80U is now and the T-80U 2" further off
    (``where``), the M113 is the stand attacked on the aim: its harm outweighs the enemy's."""
    stands = [
        ("A1", "A", "M113A3", 30, 17, 0),
        ("B1", "B", "T-80U / AT-11", 30, 12, 180),
    ]
    b = make(stands, air={"A": A10}, width=60, depth=36)
    path = ((0.0, 12.0), (30.0, 12.0), (0.0, 12.0))
    odds = b.strike_outcomes("A", "A-10A Thunderbolt II", path)
    p_dev = odds["p_arrives"] - odds["p_down_first"] - odds["p_on_aim"]
    hurt = 1 - odds["stands"]["A1"]["none"]
    assert 0 < hurt < p_dev
    where = {"A1": (30.0, 12.5), "B1": (30.0, 10.0)}
    near = b.strike_outcomes("A", "A-10A Thunderbolt II", path, where=where)
    assert 1 - near["stands"]["A1"]["none"] > odds["p_on_aim"]
    assert near["stands"]["A1"]["E"] > near["stands"]["B1"]["E"]


def test_a_mission_on_the_aim_agrees_with_the_odds_there():
    """Direct fire by a Paladin does not deviate: the outcomes over every landing are the
    odds on the aim (mission_odds)."""
    stands = [
        ("A1", "A", "M109A6 Paladin", 12, 12, 0),
        ("B1", "B", "T-80U / AT-11", 30, 13, 180),
    ]
    b = make(stands)
    on = b.mission_odds("A", ("A1",), ((30, 12),), "he", "direct")
    over = b.mission_outcomes("A", ("A1",), ((30, 12),), "he", "direct")
    assert over["stands"]["B1"] == pytest.approx(on["stands"]["B1"])
