"""Artillery, smoke and air strikes (#32; rules-decisions "Artillery, smoke and air
strikes"), hand-worked with fixed dice. The battles are driven to the phase at hand by passes
(with the battle's own seeded dice, which no pass rolls but initiative and orders); the dice
of the procedure itself are then fixed, and every number below is worked by hand from the
data rows (house values, fire_support.toml and modern_support.csv) and the 002/004 cards."""

from __future__ import annotations

import pytest

from game.rules.actions import (
    ArtilleryFire,
    ChooseFirst,
    LetPass,
    Move,
    MoveAttempt,
    Pass,
    PlotAirStrike,
    PlotMission,
)
from game.rules.battle import Battle, IllegalAction
from game.rules.dice import Dice, FixedDice
from game.rules.files.log import check_log
from game.rules.procedures import air, artillery
from tests.helpers import ENTER, SHEAF, drive, make


def events(b, name):
    return [e for e in b.log.events if e["event"] == name]


def fix(b, dice):
    """From here on the battle rolls ``dice`` (and nothing more)."""
    b.ctx.dice = b.dice = FixedDice(dice)


# ------------------------------------------------------------------ direct fire and sheafs


def test_a_two_stand_sheaf_lands_on_three_stands_each_attacked_once():
    """002 direct artillery procedure: two Paladins (AP 9) lay a line of two 2" markers at
    (30, 12) and (30, 14). B1 and B2 are under the first, B3 under the second: each attacked
    once. T-80U armour 18 halved (step 7) to 9: differential 0. 2D6 7 -> S; 2 -> D; 12 -> -S-,
    which artillery reads as S (002 CRT notes). No deviation roll: no mortar fired."""
    b = make(SHEAF)
    assert b.state.phase == "artillery" and b.decision().kind == "artillery"
    fix(b, [3, 4, 3, 4, 1, 1, 6, 6])
    side = b.to_act
    assert side == b.state.initiative
    if side == "B":
        b.apply(Pass("B"))
    b.apply(ArtilleryFire("A", ("A1", "A2"), ((30, 12), (30, 14)), "he"))
    (line,) = events(b, "artillery")
    assert (line["kind"], line["deviation"], line["markers"]) == (
        "direct",
        None,
        [[30, 12], [30, 14]],
    )
    assert [line["cohesion"][f]["passed"] for f in ("A1", "A2")] == [True, True]
    hits = [
        (e["marker"], e["target"], e["differential"], e["crt"], e["result"])
        for e in events(b, "impact")
    ]
    assert hits == [
        ("m1.1", "B1", 0, "S", "S"),
        ("m1.1", "B2", 0, "D", "D"),
        ("m1.2", "B3", 0, "-S-", "S"),
    ]
    assert b.dice.left == 0
    # no artillery stand fires and moves in one turn (002 check list note 2)
    assert b.stand("A1").artillery_fired and b.stand("A2").artillery_fired


@pytest.mark.parametrize(
    ("firers", "sheaf", "why"),
    [
        (("A1",), ((30, 12), (30, 14)), "one marker per firing stand"),
        (("A1", "A2"), ((30, 12), (30, 14.5)), "does not touch"),
        (("A1",), ((34, 12),), 'reaches 20"'),  # direct fire: its HE range
        (("B1",), ((30, 12),), "is not A's"),
    ],
)
def test_direct_artillery_refused(firers, sheaf, why):
    """A sheaf is one 2" marker per firing stand, each touching one before it; direct fire
    needs range and sight (rules-decisions "Artillery, smoke and air strikes")."""
    b = make(SHEAF)
    if b.to_act == "B":
        b.apply(Pass("B"))
    with pytest.raises(IllegalAction, match=why):
        b.apply(ArtilleryFire("A", firers, sheaf, "he"))


LIGHT_MORTAR = [
    ("A1", "A", "leGrW 36 (50 mm Mortar)", 10, 12, 0),
    ("B1", "B", "T-34/85", 14, 12, 180),
]


def test_a_light_mortar_fires_direct_and_its_bomb_on_a_tank_is_an_s_without_dice():
    """004 direct artillery procedure with the house leGrW 36 (wwii_support.csv: AP 1, HE 3,
    direct fire to its 5"): an aim 5.5" away is out of its reach; at the T-34/85 4" away its
    cohesion roll 5 passes (level 15), and being a mortar it rolls for deviation: 7 passes, so
    the marker lands on the aim. The T-34/85's armour 9 is halved, rounded up, to 5: AP 1
    against 5 is -4, below the CRT's first column, an S with no dice (004 CRT notes)."""
    b = make(LIGHT_MORTAR, ruleset="wwii-47")
    drive(b, 1, "artillery")
    if b.to_act == "B":
        b.apply(Pass("B"))
    with pytest.raises(IllegalAction, match='reaches 5" with direct fire'):
        b.apply(ArtilleryFire("A", ("A1",), ((15.5, 12),), "he"))
    fix(b, [5, 7])
    b.apply(ArtilleryFire("A", ("A1",), ((14, 12),), "he"))
    (line,) = events(b, "artillery")
    assert (line["kind"], line["cohesion"]["A1"]["passed"]) == ("direct", True)
    assert (line["deviation"]["roll"], line["deviation"]["passed"]) == (7, True)
    (hit,) = events(b, "impact")
    assert (hit["target"], hit["firepower"], hit["defense_base"], hit["defense"]) == (
        "B1",
        1,
        9,
        5,
    )
    assert (hit["differential"], hit["combat"], hit["result"]) == (-4, None, "S")
    assert b.stand("B1").S and not b.stand("B1").D
    assert b.dice.left == 0


# ------------------------------------------------------------------ indirect fire, deviation

INDIRECT = [
    ("A1", "A", "M109A6 Paladin", 2, 12, 0),
    ("B1", "B", "Motor Rifle Infantry", 40, 12, 180),
    ("B2", "B", "T-80U / AT-11", 44, 6, 180),
]


@pytest.mark.parametrize(
    ("direction", "distance", "dx", "dy"),
    [
        (3, 5, 3.0, 0.0),  # 3: right; 1D8/2 rounded up: 5 -> 3"
        (2, 8, 2.828427, 2.828427),  # 2: up and right; 8 -> 4"
        (7, 1, -1.0, 0.0),  # 7: left; 1 -> 1"
        (1, 3, 0.0, 2.0),  # 1: towards the top edge; 3 -> 2"
    ],
)
def test_a_deviated_mission(direction, distance, dx, dy):
    """002 indirect fire procedure steps 2-4: plotted in turn 1's plot phase, the mission
    lands in turn 2's artillery phase. The Paladin's cohesion roll 5 passes (no TL modifier:
    house 0); the deviation roll 20 fails; 1D8 gives the direction (1 towards the top edge,
    then clockwise) and 1D8/2 rounded up the inches. Nothing is under where it lands."""
    b2 = make(INDIRECT)
    drive(b2, 1, "plot")
    if b2.to_act == "B":
        b2.apply(Pass("B"))
    b2.apply(PlotMission("A", ("A1",), ((30.0, 20.0),), "he", 2))
    (plot,) = events(b2, "plot")
    assert (plot["mission"], plot["lands_turn"], plot["aim"]) == ("m1", 2, [30.0, 20.0])
    (m,) = b2.state.missions  # it lands as turn 2's artillery phase begins: fired here
    fix(b2, [5, 20, direction, distance])
    artillery.fire_mission(b2.ctx, m.id, "A", m.firers, m.sheaf, m.ammo, "indirect")
    (line,) = events(b2, "artillery")
    dev = line["deviation"]
    assert (dev["roll"], dev["passed"]) == (20, False)
    assert (dev["direction_die"], dev["distance_die"]) == (direction, distance)
    assert (dev["dx"], dev["dy"]) == pytest.approx((dx, dy), abs=1e-6)
    assert line["markers"] == [[pytest.approx(30 + dx), pytest.approx(20 + dy)]]
    assert b2.dice.left == 0 and not events(b2, "impact")


def test_a_mission_lands_in_the_turn_it_was_plotted_for():
    """002 step 5 then step 2: a mission plotted in turn 1 for turn 3 is still in the air in
    turn 2 and lands at the beginning of turn 3's joint artillery fire phase."""
    b = make(INDIRECT)
    drive(b, 2, "fire1", [PlotMission("A", ("A1",), ((30.0, 20.0),), "smoke", 3)])
    assert [m.id for m in b.state.missions] == ["m1"] and not events(b, "artillery")
    drive(b, 3, "fire1")
    (line,) = events(b, "artillery")
    assert (line["turn"], line["phase"], line["mission"]) == (3, "artillery", "m1")
    assert b.state.missions == []


def test_plots_refused_out_of_range_or_for_this_turn():
    """Indirect fire needs range only, from the data's indirect range (Paladin 6-240"); a
    mission lands in a later turn."""
    b = make(INDIRECT)
    drive(b, 1, "plot")
    if b.to_act == "B":
        b.apply(Pass("B"))
    with pytest.raises(IllegalAction, match='fires indirectly from 6"'):
        b.apply(PlotMission("A", ("A1",), ((5.0, 12.0),), "he", 2))
    with pytest.raises(IllegalAction, match="a later turn"):
        b.apply(PlotMission("A", ("A1",), ((30.0, 12.0),), "he", 1))
    b.apply(PlotMission("A", ("A1",), ((30.0, 12.0),), "he", 2))
    b.apply(Pass("B"))
    with pytest.raises(IllegalAction, match="free to fire in turn 2"):
        b.apply(PlotMission("A", ("A1",), ((31.0, 12.0),), "he", 2))


# ------------------------------------------------------------------ entering an impact marker


def test_a_stand_that_drives_into_an_impact_marker_is_attacked_once():
    """002 step 6: "stands entering artillery impact markers roll for effect". The Paladin's
    marker lands on empty ground at (24, 14) (cohesion 3); in the movement phase the M1 drives
    from (24, 20) down to (24, 8), through it: attacked once, AP 9 against its armour 18
    halved to 9 (+0), 2D6 3 + 4 = 7: S. The marker attacks it no more that turn."""
    b = make(ENTER)
    if b.to_act == "B":
        b.apply(Pass("B"))
    fix(b, [3])
    b.apply(ArtilleryFire("A", ("A1",), ((24, 14),), "he"))
    assert not events(b, "impact") and b.dice.left == 0
    b.ctx.dice = b.dice = Dice(7)
    drive(b, 1, "movement")
    while b.decision().kind == "choose_first":
        b.apply(ChooseFirst(b.to_act, "A"))
    if b.to_act == "B":
        b.apply(Pass("B"))
    b.state.orders["A"] = max(1, b.state.orders.get("A", 0))
    fix(b, [2])
    b.apply(MoveAttempt("A", "2", True))
    fix(b, [3, 4])
    b.apply(Move("A", "A3", ((24, 20), (24, 8)), 270.0))
    while b.decision().kind == "opportunity_fire":
        b.apply(LetPass("B"))
    (hit,) = events(b, "impact")
    assert (hit["target"], hit["cause"], hit["marker"]) == ("A3", "entered", "m1.1")
    assert (hit["firepower"], hit["defense"], hit["differential"]) == (9, 9, 0)
    assert (hit["combat"]["total"], hit["crt"], hit["result"]) == (7, "S", "S")
    assert b.stand("A3").S and b.dice.left == 0
    a3 = b.stand("A3")
    artillery.entered_impacts(b.ctx, a3, [(24, 15), (24, 13)], [270.0, 270.0])
    assert len(events(b, "impact")) == 1  # once per marker


# ------------------------------------------------------------------ smoke

SMOKE = [
    ("A1", "A", "M109A6 Paladin", 12, 10, 0),
    ("A3", "A", "M1 Abrams", 14, 12, 0),
    ("B1", "B", "T-80U / AT-11", 40, 12, 180),
    ("B2", "B", "Motor Rifle Infantry", 30, 4, 180),  # in the gun's sight: the phase is played
]


def test_smoke_blocks_sight_and_lifts_after_the_next_turns_marker_removal():
    """Rules-decisions: a smoke marker is a smoke area (the chart's smoke row: blocks sight)
    until the marker removal phase of the turn after it lands. The sight line from A3 to B1
    runs through the smoke at (24, 12) in turns 1 and 2, and is clear in turn 3; the ruler's
    and the fire check's table are the same one."""
    b = make(SMOKE)
    assert b.sight("A3", "B1").clear
    if b.to_act == "B":
        b.apply(Pass("B"))
    fix(b, [3])
    b.apply(ArtilleryFire("A", ("A1",), ((24, 12),), "smoke"))
    (area,) = b.state.smoke
    assert (area.x, area.y, area.until_turn) == (24, 12, 2)
    s = b.sight("A3", "B1")
    assert not s.clear and s.blocked_by[0][:2] == ("terrain", "smoke")
    assert not events(b, "impact")  # smoke attacks nobody
    b.ctx.dice = b.dice = Dice(3)
    drive(b, 2, "fire1")
    assert not b.sight("A3", "B1").clear
    drive(b, 3, "fire1")
    assert b.state.smoke == [] and b.sight("A3", "B1").clear


# ------------------------------------------------------------------ air strikes

AIR = [
    ("A1", "A", "M1 Abrams", 4, 20, 0),
    ("A2", "A", "US Mech Infantry", 26, 13, 0),
    ("B1", "B", "T-80U / AT-11", 30, 6, 180),
    ("B2", "B", "ZSU-23-4 Shilka", 30, 20, 180),
    ("B3", "B", "M1097 Avenger", 40, 20, 180),
]
A10 = [{"aircraft": "A-10A Thunderbolt II", "sorties": 1}]


def test_an_air_strike_through_two_aa_stands_deviates_onto_a_friendly_stand():
    """002 air strike procedure. The A-10A (TL3, defence 9) flies in from (0, 12) to its
    point of attack (30, 12). Arrival: 4 passes. Inbound, both AA stands have range to it:
    the Shilka (TL3 gun, HE 8, range 15) at 8" (no range effect, 2"-10") rolls 5, fires at
    8 - 9 = -1 with no shift (TL3 against TL3): 2D6 6 -> S. The Avenger (TL4 missile, HE
    12) rolls 6, fires at 12 - 9 = 3 shifted one column right (TL4 against TL3) = +4: 2D6 12
    -> S (S again). Deviation: 14 + 4 (suppressed) = 18 > 15 fails; 1D8 7 (left), 1D10 4:
    4" left, to (26, 12). The nearest stand is A's own infantry at (26, 13): HE 12 against 5
    (not moving) = +7, 2D6 8 -> E. Outbound both AA roll 19 and 20 and miss."""
    b = make(AIR, air={"A": A10})
    drive(b, 1, "plot")
    if b.to_act == "B":
        b.apply(Pass("B"))
    path = ((0.0, 12.0), (30.0, 12.0), (0.0, 12.0))
    b.apply(PlotAirStrike("A", "A-10A Thunderbolt II", path, 2))
    assert b.sorties_left("A") == {}
    assert b.strike_aa("A", path) == ["B2", "B3"]
    (m,) = b.state.missions  # it flies as turn 2's artillery phase begins: flown here
    fix(b, [4, 5, 3, 3, 6, 6, 6, 14, 7, 4, 4, 4, 19, 20])
    air.fly_strike(b.ctx, m)
    (line,) = events(b, "air_strike")
    aa = line["aa"]
    assert [(a["leg"], a["stand"], a["cohesion"]["passed"]) for a in aa] == [
        ("in", "B2", True),
        ("in", "B3", True),
        ("out", "B2", False),
        ("out", "B3", False),
    ]
    assert [(a["differential"], a["column_shift"], a["crt"], a["result"]) for a in aa[:2]] == [
        (-1, 0, "S", "S"),
        (4, 1, "S", "S"),
    ]
    dev = line["deviation"]
    assert dev["mods"] == [{"why": "suppressed", "value": 4}] and not dev["passed"]
    assert (dev["direction_die"], dev["distance_die"], line["attack_point"]) == (7, 4, [26, 12])
    assert (line["target"], line["friendly"]) == ("A2", True)
    assert (line["firepower"], line["defense"], line["differential"]) == (12, 5, 7)
    assert (line["combat"]["total"], line["crt"], line["result"]) == (8, "E", "E")
    assert line["aircraft_after"] == {"S": True, "D": False, "eliminated": False}
    assert b.stand("A2").eliminated and b.dice.left == 0
    end = {"seq": len(b.log.events), "event": "end", "turn": b.state.turn, "phase": "end"}
    end.update(winner=None, reason="test", losses={})
    assert check_log(b.log.events + [end]) == []  # every line of the strike in format


def test_an_air_strike_shot_down_on_the_way_in_attacks_nothing():
    """002 AA procedure: an E on the aircraft shoots it down; it reaches no point of attack."""
    b = make(AIR, air={"A": A10})
    drive(b, 1, "plot")
    if b.to_act == "B":
        b.apply(Pass("B"))
    b.apply(PlotAirStrike("A", "A-10A Thunderbolt II", ((0, 12), (30, 12), (0, 12)), 2))
    (m,) = b.state.missions
    # arrival 4; Shilka 5 then 2D6 1+1 = 2 at -1: D; Avenger 6 then 2D6 2+2 = 4 at +4: E
    fix(b, [4, 5, 1, 1, 6, 2, 2])
    air.fly_strike(b.ctx, m)
    (line,) = events(b, "air_strike")
    assert line["aircraft_after"]["eliminated"] and line["target"] is None
    assert b.dice.left == 0


FLAK = [
    ("A1", "A", 'M4 "Sherman"', 4, 12, 0),
    ("B1", "B", "Pz IVF2-H", 30, 6, 180),
    ("B2", "B", "Flak 38 (20 mm)", 30, 16, 180),
    ("B3", "B", "Flak 36 (88 mm)", 40, 16, 180),
]


def flak_battle():
    """Wehrmacht '47 (cohesion 15 each): a Sherman with a P-47 sortie against a Panzer IV,
    a 20 mm flak 4" and an 88 12" from the point of attack (30, 12)."""
    return make(
        FLAK,
        air={"A": [{"aircraft": "P-47D Thunderbolt", "sorties": 1}]},
        ruleset="wwii-47",
        generation=(None, None),
    )


@pytest.mark.parametrize(("roll", "arrives"), [(12, True), (13, False)])
def test_004_arrival_roll_with_two_aa_guns(roll, arrives):
    """004 optional air strikes and AA: the Flak 38 (20 mm: +1) and the Flak 36 (88 mm: +2)
    are in the firing posture within range of the point of attack; both pass their cohesion
    rolls (5, 6), so the P-47's arrival roll takes +3: 12 + 3 = 15 <= 15 arrives, 13 + 3 =
    16 does not (the strike is aborted). Both then fire at no ground target that turn."""
    b = flak_battle()
    drive(b, 1, "plot")
    if b.to_act == "B":
        b.apply(Pass("B"))
    b.apply(PlotAirStrike("A", "P-47D Thunderbolt", ((0, 12), (30, 12), (0, 12)), 2))
    (m,) = b.state.missions
    for sid in ("B2", "B3"):
        b.stand(sid).posture = "firing"
    more = [1, 3, 3] if arrives else []  # deviation 1 passes; the Flak 38 is nearest
    fix(b, [5, 6, roll, *more])
    air.fly_strike(b.ctx, m)
    (line,) = events(b, "air_strike")
    assert [a["arrival_mod"] for a in line["aa"]] == [1, 2]
    assert line["arrival"]["mods"] == [
        {"why": "aa:B2", "value": 1},
        {"why": "aa:B3", "value": 2},
    ]
    assert line["arrival"]["passed"] is arrives
    assert line["target"] == ("B2" if arrives else None)
    assert b.stand("B2").aa_fired and b.stand("B3").aa_fired
    assert not b.rules.fire.may_fire_in(b.stand("B3"), "fire")
    assert b.dice.left == 0


# ------------------------------------------------------------------ saves, and the screen


def test_missions_in_flight_survive_a_save_and_load(tmp_path):
    """A plotted mission is part of the saved battle: the loaded battle has it, reaches the
    same state hash, and lands it the same way."""
    b = make(INDIRECT)
    drive(b, 1, "movement", [PlotMission("A", ("A1",), ((30.0, 20.0),), "he", 2)])
    path = tmp_path / "save.json"
    b.save(path)
    again = Battle.load(path)
    assert again.state.missions == b.state.missions
    assert again.state_hash() == b.state_hash()
    drive(b, 2, "fire1")
    drive(again, 2, "fire1")
    assert events(again, "artillery") == events(b, "artillery")
    assert again.state_hash() == b.state_hash()


def test_a_gun_in_the_movement_posture_does_not_fire_its_mission():
    """002 check list note 2 (and 004's postures): a gun declared into a movement group does
    not fire the mission plotted for it; the log says why, and it may still move."""
    stands = [
        ("A1", "A", "le FH 18 (105 mm)", 2, 12, 0),
        ("A2", "A", "Pz V", 4, 14, 0),
        ("B1", "B", "Pz IVF2-H", 40, 12, 180),
    ]
    b = make(stands, ruleset="wwii-47", generation=(None, None))
    b.stand("A1").posture = "movement"
    fix(b, [])
    artillery.fire_mission(b.ctx, "m1", "A", ("A1",), ((30.0, 12.0),), "he", "indirect")
    (line,) = events(b, "artillery")
    assert line["cohesion"] == {} and "movement posture" in line["not_fired"]["A1"]
    assert line["markers"] == [] and line["deviation"] is None
    assert not b.stand("A1").artillery_fired


def test_the_artillery_phase_is_skipped_when_no_gun_has_a_target():
    """Nothing to decide in the joint artillery fire phase when no gun has sight and range
    to an enemy stand (missions plotted for the turn still land as it begins)."""
    b = make(INDIRECT)
    assert b.state.phase == "fire1" and not events(b, "artillery")


def test_the_air_strike_sentence_tells_the_flight_in_order():
    """The log panel tells a strike as it flew: arrival, the AA flying in, deviation, the
    attack, the AA flying out, and being shot down on the way out."""
    from game.ui.logwords import describe

    line = {
        "event": "air_strike",
        "side": "A",
        "aircraft": "A-10A Thunderbolt II",
        "arrival": {"roll": 4, "mods": [], "total": 4, "level": 15, "passed": True},
        "aa": [
            {
                "leg": "in",
                "stand": "B2",
                "cohesion": {"roll": 19, "mods": [], "total": 19, "level": 15, "passed": False},
            },
            {
                "leg": "out",
                "stand": "B2",
                "cohesion": {"roll": 3, "mods": [], "total": 3, "level": 15, "passed": True},
                "differential": 4,
                "crt": "E",
                "result": "E",
            },
        ],
        "deviation": {"roll": 2, "mods": [], "total": 2, "level": 15, "passed": True},
        "target": "B1",
        "firepower": 14,
        "defense": 5,
        "differential": 9,
        "combat": {"dice": [3, 4], "mods": [], "total": 7},
        "crt": "E",
        "result": "E",
        "aircraft_after": {"S": False, "D": False, "eliminated": True},
    }
    text = describe(line, {}, {"A": "US"})
    order = [
        text.index(w)
        for w in (
            "arrival",
            "Flying in",
            "Deviation",
            "It attacks B1",
            "Flying out",
            "shot down on the way out",
        )
    ]
    assert order == sorted(order)


def test_the_odds_of_a_sheaf_chain_its_markers_on_a_stand_under_two():
    """The odds before firing (the panel's, the AI's): a stand under two markers is attacked
    by each in turn. A T-80U (armour 18, halved 9) under both Paladin markers (AP 9: +0), each
    laid 75% of the time (cohesion 15). At +0 with no modifier 2D6 gives D on 2-4 (6 in 36)
    and S otherwise ((S) on 5-6, S on 7-8, -S- read as S on 9-12). Eliminated only by D then
    D: (0.75 x 6/36)^2 = 1/64. Unchanged only when neither is laid: 0.25^2 = 1/16.
    Disorganized: D once and not twice, or S then (S) (5 or 6: 9 in 36)."""
    stands = [
        ("A1", "A", "M109A6 Paladin", 12, 12, 0),
        ("A2", "A", "M109A6 Paladin", 12, 14, 0),
        ("B1", "B", "T-80U / AT-11", 30, 13, 180),
    ]
    b = make(stands)
    odds = b.mission_odds("A", ("A1", "A2"), ((30, 12), (30, 14)), "he", "direct")
    assert odds["p_laid"] == {"A1": 0.75, "A2": 0.75} and odds["p_on_aim"] == 1.0
    got = odds["stands"]["B1"]
    # by hand: one marker does D with 0.75 x 6/36 = 0.125 and S with 0.75 x 30/36 = 0.625
    # D: not laid then D (0.25 x 0.125), D then no second D (0.125 x 0.875), S then D or (S)
    # (0.625 x (0.125 + 0.75 x 9/36)) = 0.03125 + 0.109375 + 0.1953125 = 0.3359375
    assert got == pytest.approx({"E": 1 / 64, "D": 0.3359375, "S": 0.5859375, "none": 1 / 16})


def test_the_odds_of_an_air_strike_through_two_aa_stands():
    """002 before plotting: the A-10A arrives 75% of the time (cohesion 15). Flying in, the
    Shilka fires 75% of the time at -1 (D on 2-3: 3/36, (S) on 4-5, S on 6-7: 18/36 in all,
    -S- no effect), then the Avenger 75% at +4 (E on 2-5: 10/36, D on 6-9: 20/36, (S) and S
    the rest). Shot down: from no mark or S, the Avenger's E (0.9375 x 0.75 x 10/36); from
    D, E or D (0.0625 x 0.75 x 30/36): 0.234375 in all, x 0.75 = 0.17578125."""
    b = make(AIR, air={"A": A10})
    path = ((0.0, 12.0), (30.0, 12.0), (0.0, 12.0))
    odds = b.strike_odds("A", "A-10A Thunderbolt II", path)
    assert odds["p_arrives"] == 0.75
    assert odds["p_down_first"] == pytest.approx(0.17578125)
    assert 0 < odds["p_on_aim"] < 0.75 - 0.17578125


def test_the_odds_of_a_004_strike_with_two_flak_guns():
    """004: the Flak 38 (+1) and the Flak 36 (+2) each pass 75% of the time (cohesion 15);
    the P-47 then arrives on 15 - (0, 1, 2 or 3): by hand 0.0625 x 0.75 + 0.1875 x 0.7 +
    0.1875 x 0.65 + 0.5625 x 0.6 = 0.6375."""
    b = flak_battle()
    for sid in ("B2", "B3"):
        b.stand(sid).posture = "firing"
    path = ((0.0, 12.0), (30.0, 12.0), (0.0, 12.0))
    assert b.strike_aa("A", path) == ["B2", "B3"]
    odds = b.strike_odds("A", "P-47D Thunderbolt", path)
    assert odds["p_arrives"] == pytest.approx(0.6375) and odds["p_down_first"] == 0.0
