"""The full Modern game's ground war (ruleset ``modern-full``, the 002 card; rules-decisions
"The full games"), through the engine with fixed dice. Each case names its rule and was
worked by hand: the dice, the modifiers, the CRT cell."""

from __future__ import annotations

import dataclasses

import pytest

from game.rules.actions import (
    AssaultReply,
    ChooseFirst,
    CloseAssault,
    DeclareGroup,
    EndMoves,
    Fire,
    LetPass,
    Mount,
    Move,
    MoveAttempt,
    Pass,
    Unload,
)
from game.rules.battle import Battle, IllegalAction
from game.rules.charts.data import load_rules_data
from game.rules.dice import FixedDice
from game.rules.files.log import check_log
from game.rules.files.scenario import ScenarioError, parse_scenario
from game.rules.rulesets import ruleset
from tests.conftest import battle, pass_phase, scenario_dict
from tests.helpers import full_to_movement as to_movement
from tests.helpers import to_fire2

ModernFullRules = ruleset("modern-full")

FULL = {"ruleset": "modern-full"}
DATA = load_rules_data()
UNITS = DATA.units_for("modern-full")


def events(b, name):
    return [e for e in b.log.events if e["event"] == name]


# ------------------------------------------------------------------ data and the sequence


def test_tank_rows_keep_their_values_and_gain_the_full_columns():
    """RD "Units beyond tanks": the 000 rows keep their values; HE is the house share."""
    m1 = UNITS["M1A2 Abrams"]
    tank = DATA.modern_tanks["M1A2 Abrams"]
    assert (m1.points, m1.defense, m1.ap_attack, m1.ap_range) == (
        tank.points,
        tank.defense,
        tank.cannon_attack,
        tank.cannon_range,
    )
    assert (m1.defense_class, m1.he_attack, m1.he_range, m1.house) == ("armoured", 13, 40, False)
    assert UNITS["US Mech Infantry"].house and UNITS["US Mech Infantry"].personnel


def test_every_rule_has_a_unit_that_uses_it():
    """The issue's list: two mech infantry (one anti-tank), engineers, an IFV, an APC, a
    recon unit, an ATGM team, a TL1 and a TL5 unit."""
    support = DATA.modern_support.values()
    personnel = [u for u in support if u.personnel and u.ap_attack]
    assert any(u.atgm for u in personnel) and any(not u.atgm for u in personnel)
    assert any("engineer" in u.flags for u in support)
    assert any(u.carrier and u.atgm for u in support)  # IFV
    assert any(u.carrier and not u.atgm and u.tech_level > 1 for u in support)  # APC
    assert any("recon" in u.flags for u in support)
    assert any(u.personnel and u.atgm and not u.ap_attack for u in support)  # ATGM team
    assert {u.tech_level for u in support} >= {1, 5}


def test_the_turn_of_the_full_game():
    """002 sequence of play: posture, joint artillery, 1st and 2nd standard fire, joint
    plot, movement, 3rd standard fire, marker removal."""
    assert [p.name for p in ModernFullRules.turn] == [
        "initiative",
        "posture",
        "artillery",
        "fire1",
        "fire2",
        "plot",
        "movement",
        "fire3",
        "marker_removal",
    ]


@pytest.mark.parametrize(
    ("tl", "phase", "attempts", "may"),
    [
        (5, "fire1", 0, True),  # 002 check list: TL4 and TL5 in the 1st phase
        (4, "fire1", 0, True),
        (3, "fire1", 0, False),
        (5, "fire3", 2, True),  # the 3rd phase: TL5 only, its third shot
        (4, "fire3", 1, False),
        (5, "fire2", 1, True),
        (4, "fire2", 1, True),
        (3, "fire2", 1, False),
    ],
)
def test_who_fires_in_which_standard_fire_phase(tl, phase, attempts, may):
    """002 turn sequence check list."""
    name = {5: "Leopard-2A7", 4: "M1A2 Abrams", 3: "M2A2 Bradley"}[tl]
    b = battle([("A1", "A", name, 10, 12, 0), ("B1", "B", "T-72", 30, 12, 180)], [], **FULL)
    s = b.state.stands["A1"]
    s.fire_attempts = attempts
    assert ModernFullRules.fire.may_fire_in(s, phase) is may


def test_tl5_fires_in_the_third_phase():
    """002 step 7: after movement, only TL5 stands fire (the T-72 may not)."""
    b = battle(
        [("A1", "A", "Leopard-2A7", 10, 12, 0), ("B1", "B", "T-72", 30, 12, 180)],
        [3, 4, 3, 4],
        **FULL,
    )
    to_movement(b)
    b.apply(Pass("A"))
    b.apply(Pass("B"))
    assert b.state.phase == "fire3"
    b.apply(ChooseFirst("A", "B"))
    assert b.legal_actions() == [Pass("B")]
    b.apply(Pass("B"))
    assert any(isinstance(a, Fire) and a.attackers == ("A1",) for a in b.legal_actions())


# ------------------------------------------------------------------ -S- and firepower


@pytest.mark.parametrize(
    ("attacker", "target", "want_result"),
    [
        # TL3 Bradley AP 10 vs Bradley 10 (front): +0; 2D6 4+5 = 9, row 9 col 0: -S- -> S
        ("M2A2 Bradley", "M2A2 Bradley", "S"),
        # TL2 BRDM-2 AP 4 vs BRDM-2 4: +0; the same -S- is no effect for a TL2 attacker
        ("BRDM-2 Scout", "BRDM-2 Scout", "none"),
    ],
)
def test_dash_s_by_the_attackers_tech_level(attacker, target, want_result):
    """002 CRT notes: -S- is S, no effect when the attacker is TL1 or TL2."""
    b = battle(
        [("A1", "A", attacker, 10, 12, 0), ("B1", "B", target, 17, 12, 180)],
        [5, 4, 5],
        **FULL,
    )
    to_fire2(b)
    b.apply(Fire("A", "B1", ("A1",), ("cannon",)))
    (line,) = events(b, "fire")
    assert (line["differential"], line["combat"]["total"]) == (0, 9)
    assert (line["crt"], line["result"], line["weapon"]) == ("-S-", want_result, "ap")
    assert line["defense_class"] == "armoured"
    assert line["markers_before"] == {"S": False, "D": False, "eliminated": False}
    # every line in format (the battle has not ended: its end line is still to come)
    assert check_log(b.log.events) == ["the last line is not an end"]


def test_support_stands_read_dash_s_as_s():
    """002 CRT notes: support stands, artillery and close-support vehicles read -S- as S,
    whatever their tech level."""
    brdm = UNITS["BRDM-2 Scout"]
    assert ModernFullRules.fire.dash_s(brdm) == "-"
    assert (
        ModernFullRules.fire.dash_s(dataclasses.replace(brdm, flags=frozenset({"support"}))) == "S"
    )
    assert ModernFullRules.fire.dash_s(UNITS["M2A2 Bradley"]) == "S"


def test_he_against_personnel_and_no_atgm_at_them():
    """000 07.02.05: HE against personnel; house reading: ATGMs attack armoured targets."""
    b = battle(
        [("A1", "A", "M2A2 Bradley", 10, 12, 0), ("B1", "B", "US Mech Infantry", 17, 12, 180)],
        [],
        **FULL,
    )
    to_fire2(b)
    he = b.fire_setup("A1", "B1", "cannon")
    assert (he.legal, he.ammo, he.firepower, he.defense, he.differential) == (
        True,
        "he",
        8,
        5,
        3,
    )
    atgm = b.fire_setup("A1", "B1", "atgm")
    assert not atgm.legal and "armoured targets only" in atgm.reason
    # the infantry's AP (rocket launchers) reaches 3" only
    team = b.fire_setup("B1", "A1", "cannon", kind="planning")
    assert not team.legal and '(7" > 3")' in team.reason


def test_a_unit_without_the_firepower_may_not_attack_that_class():
    """RD "Units beyond tanks": the TOW team has no AP value: it may not fire its gun at a
    vehicle (only its ATGM)."""
    b = battle(
        [("A1", "A", "US TOW Team", 10, 12, 0), ("B1", "B", "BMP-2", 17, 12, 180)], [], **FULL
    )
    to_fire2(b)
    fs = b.fire_setup("A1", "B1", "cannon")
    assert not fs.legal and "no AP firepower" in fs.reason
    assert b.fire_setup("A1", "B1", "atgm").legal


def test_a_moving_personnel_target_has_its_defence_halved():
    """002 fire step 3: personnel carrying a movement marker, defence halved rounded up
    (5 -> 3): HE 8 - 3 = +5."""
    b = battle(
        [("A1", "A", "M2A2 Bradley", 10, 12, 0), ("B1", "B", "US Mech Infantry", 17, 12, 90)],
        [],
        **FULL,
    )
    to_fire2(b)
    b.state.stands["B1"].movement_marker = True
    fs = b.fire_setup("A1", "B1", "cannon")
    assert (fs.defense_base, fs.defense, fs.differential) == (5, 3, 5)


# ------------------------------------------------------------------ personnel in rough ground


ROUGH = [("rough_2", (20, 10, 26, 14))]


@pytest.mark.parametrize(
    ("target", "at", "legal", "cover"),
    [
        # infantry 1" inside: the sight line runs 0.5" in rough 2 before its footprint
        ("US Mech Infantry", (21, 12), False, None),
        # infantry at the edge: its footprint starts where the rough does; +4 if personnel
        ("US Mech Infantry", (20.5, 12), True, 4),
        # a vehicle deep inside: rough 2 hides only personnel; +2 otherwise
        ("M113A3", (23, 12), True, 2),
    ],
)
def test_rough_ground_hides_personnel_and_covers_them_more(target, at, legal, cover):
    """002 terrain chart: rough 2 blocks sight to personnel only, +4 if personnel, +2
    otherwise."""
    b = battle(
        [("A1", "A", "M2A2 Bradley", 10, 12, 0), ("B1", "B", target, *at, 180)],
        [],
        terrain=ROUGH,
        **FULL,
    )
    to_fire2(b)
    fs = b.fire_setup("A1", "B1", "cannon")
    assert fs.legal is legal
    if legal:
        assert ("terrain:rough_2", cover) in fs.combat_mods
    else:
        assert "rough ground hides personnel" in fs.reason


# ------------------------------------------------------------------ movement


def test_wire_and_minefield_add_to_the_movement_roll():
    """002 terrain chart note: the cohesion effect is reversed for a stand in wire (+1) or
    a minefield (+2) attempting to move."""
    b = battle(
        [
            ("A1", "A", "M1A2 Abrams", 10, 12, 0),
            ("A2", "A", "M1A2 Abrams", 20, 12, 0),
            ("B1", "B", "T-72", 40, 20, 180),
        ],
        [3, 4, 3, 4, 5],
        terrain=[("barbed_wire", (8, 10, 12, 14)), ("minefield", (18, 10, 22, 14))],
        **FULL,
    )
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    (line,) = events(b, "move_attempt")
    mods = {sid: ps["mods"] for sid, ps in line["per_stand"].items()}
    assert {"why": "terrain:barbed_wire", "value": 1} in mods["A1"]
    assert {"why": "terrain:minefield", "value": 2} in mods["A2"]


def test_a_recon_group_moves_without_an_order_at_no_penalty():
    """002 movement cohesion chart: an "R" group without an order rolls with no +3."""
    b = battle(
        [("A1", "A", "BRDM-2 Scout", 10, 12, 0), ("B1", "B", "T-72", 40, 20, 180)],
        [1, 1, 1, 1, 5],  # 2 + 0 + 1 = 3: no orders for either side
        **FULL,
    )
    to_movement(b)
    assert b.state.orders == {"A": 0, "B": 0}
    b.apply(MoveAttempt("A", "1", False))
    (line,) = events(b, "move_attempt")
    assert line["per_stand"]["A1"]["mods"] == [{"why": "hq", "value": -2}]


def test_tl1_stands_declare_a_posture():
    """002 check list note 1: TL1 stands declare moving or firing; one declared moving does
    not fire, one left to fire does not move."""
    sc = parse_scenario(
        scenario_dict(
            [
                ("A1", "A", "BTR-152", 10, 12, 0),
                ("A2", "A", "BTR-152", 10, 14, 0, {"group": "2"}),
                ("B1", "B", "T-72", 30, 12, 180),
            ],
            **FULL,
        ),
        "t.json",
    )
    b = Battle(sc, 0, dice=FixedDice([6, 6, 1, 1]), auto_pass=False)
    b.apply(Pass("A"))
    b.apply(Pass("B"))
    assert b.state.phase == "posture"
    b.apply(ChooseFirst("A", "A"))
    b.apply(DeclareGroup("A", ("A1",)))
    b.apply(Pass("B"))
    b.apply(Pass("A"))
    assert b.state.phase == "fire1"
    a1, a2 = b.state.stands["A1"], b.state.stands["A2"]
    assert (a1.posture, a2.posture) == ("movement", "firing")
    assert a1.movement_marker and not a2.movement_marker
    assert not ModernFullRules.fire.may_fire_in(a1, "fire2")
    assert ModernFullRules.fire.may_fire_in(a2, "fire2")
    assert [e["posture"] for e in events(b, "posture")] == ["move", "fire"]


def test_the_posture_phase_is_skipped_without_tl1_stands():
    b = battle(
        [("A1", "A", "M1A2 Abrams", 10, 12, 0), ("B1", "B", "T-72", 30, 12, 180)], [], **FULL
    )
    assert b.state.phase == "fire1"
    assert not events(b, "posture")


# ------------------------------------------------------------------ overrun


def test_overrun_worked_example():
    """002 8.6 by hand: an M1A2 drives through a Motor Rifle stand. The defender rolls 14
    + 3 (tracked attacker) = 17 > 15: it fails, and suffers an attack on the +6 column: 2D6
    3 + 4 = 7, row 7 col +6 = E. The M1A2 rolls 5 <= 15 and is not attacked. It ends where
    its path ends, beyond the wreck."""
    b = battle(
        [("A1", "A", "M1A2 Abrams", 10, 12, 0), ("B1", "B", "Motor Rifle Infantry", 14, 12, 90)],
        [3, 4, 3, 4, 5, 14, 3, 4, 5],
        **FULL,
    )
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    b.apply(Move("A", "A1", ((10, 12), (18, 12)), 0.0))
    # the infantry could fire its rockets at the tank's flank (7 - 10 = -3) as it passes
    assert b.decision().kind == "opportunity_fire"
    b.apply(LetPass("B"))
    (line,) = events(b, "overrun")
    assert (line["mover"], line["defender"], line["rule"]) == ("A1", "B1", "002 8.6")
    assert line["defender_roll"]["mods"] == [{"why": "tracked", "value": 3}]
    assert (line["defender_roll"]["total"], line["defender_roll"]["passed"]) == (17, False)
    attack = line["attack_on_defender"]
    assert (attack["column"], attack["combat"]["total"], attack["crt"], attack["result"]) == (
        6,
        7,
        "E",
        "E",
    )
    assert line["attacker_roll"]["passed"] and line["attack_on_attacker"] is None
    assert b.state.stands["B1"].eliminated
    a1 = b.state.stands["A1"]
    assert (a1.x, a1.y) == (18, 12) and a1.movement_marker
    assert b.dice.left == 0


def test_an_overrunner_that_fails_is_attacked_on_the_plus_2_column():
    """002 8.6 steps 4-5: the defender passes (3 + 3 = 6); the BMP-2 rolls 19 and fails:
    an attack on it on the +2 column, 2D6 1 + 1 = 2, row 2 col +2 = E."""
    b = battle(
        [("A1", "A", "BMP-2", 10, 12, 0), ("B1", "B", "US Mech Infantry", 14, 12, 90)],
        [3, 4, 3, 4, 5, 3, 19, 1, 1],
        **FULL,
    )
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    b.apply(Move("A", "A1", ((10, 12), (18, 12)), 0.0))
    b.apply(LetPass("B"))
    (line,) = events(b, "overrun")
    assert line["attack_on_defender"] is None
    assert line["attack_on_attacker"]["column"] == 2
    assert line["attack_on_attacker"]["result"] == "E"
    assert b.state.stands["A1"].eliminated and not b.state.stands["B1"].eliminated


def test_foot_stands_do_not_overrun_and_stop_at_the_enemy():
    """RD "Overrun": only vehicles overrun; a foot stand's walk stops against an enemy."""
    b = battle(
        [("A1", "A", "US Engineers", 10, 12, 0), ("B1", "B", "BRDM-2 Scout", 12.5, 12, 90)],
        [3, 4, 3, 4, 5],
        **FULL,
    )
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    walk = b.preview_move("A1", ((10, 12), (14, 12)))
    assert walk.stopped_by == "enemy"


# ------------------------------------------------------------------ close assault


def test_close_assault_worked_example():
    """002 8.7 by hand: engineers move into base contact with a BTR-80 and assault it.
    The BTR (no movement marker) rolls 3: passes, and attacks the engineers: HE 5 against
    5 halved (they moved) = 3: +2; 2D6 4 + 4 - 3 = 5, row 5 col +2 = D. The engineers roll
    10 + 3 (D) = 13 <= 15, and attack: AP 10 against the BTR's front 5 = +5; 2D6 6 + 6 - 3
    (assault) - 3 (engineer) - 1 (closing) = 5, row 5 col +5 = E."""
    b = battle(
        [("A1", "A", "US Engineers", 10, 12, 0), ("B1", "B", "BTR-80", 12.5, 12, 180)],
        [3, 4, 3, 4, 5, 3, 4, 4, 10, 6, 6],
        **FULL,
    )
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    b.apply(Move("A", "A1", ((10, 12), (11.5, 12)), 0.0))
    assert b.decision().kind == "opportunity_fire"
    b.apply(LetPass("B"))
    assert b.decision().kind == "close_assault" and b.to_act == "A"
    b.apply(CloseAssault("A", "B1"))
    assert b.decision().kind == "assault_reply" and b.to_act == "B"
    assert b.legal_actions() == [AssaultReply("B", "A1")]
    b.apply(AssaultReply("B", "A1"))
    (line,) = events(b, "close_assault")
    reply = line["defender_attack"]
    assert (reply["differential"], reply["combat"]["total"], reply["result"]) == (2, 5, "D")
    (attack,) = line["assaulter_attacks"]
    assert [m["why"] for m in attack["combat"]["mods"]] == ["close_assault", "engineer", "closing"]
    assert (attack["differential"], attack["combat"]["total"], attack["result"]) == (5, 5, "E")
    assert line["assaulter_rolls"]["A1"]["total"] == 13
    assert b.state.stands["B1"].eliminated and b.state.stands["A1"].D
    assert b.to_act == "B" and b.decision().kind == "move_attempt"
    assert b.dice.left == 0


def test_mounted_cavalry_close_assault_worked_example():
    """002 8.7 by hand with the house rows of Afghanistan, 2001: Northern Alliance horse ride
    into base contact with Taliban foot and assault them. The foot (no movement marker) roll
    3: pass, and answer: HE 6 against the horse's 4 halved (they moved) = 2: +4; 2D6 6 + 6 - 3
    = 9, row 9 col +4 = D. The horse roll 10 + 3 (D) = 13 <= 15, and attack: HE 6 against 4
    = +2; 2D6 6 + 6 - 3 (assault) - 3 (mounted cavalry) - 1 (closing) = 5, row 5 col +2 = D
    (without the cavalry's -3, row 8: (S))."""
    b = battle(
        [
            ("A1", "A", "Northern Alliance Cavalry", 10, 12, 0),
            ("B1", "B", "Taliban Infantry", 12.5, 12, 180),
        ],
        [3, 4, 3, 4, 5, 3, 6, 6, 10, 6, 6],
        **FULL,
    )
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    b.apply(Move("A", "A1", ((10, 12), (11.5, 12)), 0.0))
    b.apply(LetPass("B"))
    b.apply(CloseAssault("A", "B1"))
    b.apply(AssaultReply("B", "A1"))
    (line,) = events(b, "close_assault")
    reply = line["defender_attack"]
    assert (reply["differential"], reply["combat"]["total"], reply["result"]) == (4, 9, "D")
    (attack,) = line["assaulter_attacks"]
    assert [m["why"] for m in attack["combat"]["mods"]] == ["close_assault", "cavalry", "closing"]
    assert (attack["differential"], attack["combat"]["total"], attack["result"]) == (2, 5, "D")
    assert b.state.stands["B1"].D and b.state.stands["A1"].D
    assert b.dice.left == 0


def test_afghan_rows_are_house_values_with_their_flags():
    """The rows of Afghanistan, 2001 (modern_support.csv, fire_support.toml) load as house
    values: the horse flagged mounted cavalry at 8 MP on the foot column; the 60 mm mortar an
    artillery mortar whose AP 2 is 4 or more below a T-55A's halved defence (an impact there
    is an S without dice, 002 CRT notes) with an indirect range of 1-15"."""
    horse, mortar = UNITS["Northern Alliance Cavalry"], UNITS["Type 63 60 mm Mortar"]
    assert horse.house and horse.personnel and "cavalry" in horse.flags
    assert (horse.speed, horse.movement_class) == (8, "F")
    assert mortar.house and {"artillery", "mortar"} <= set(mortar.flags)
    assert mortar.ap_attack - -(-UNITS["T55A"].defense // 2) < -3
    reach = DATA.fire_support.artillery["Type 63 60 mm Mortar"]
    assert (reach.min_range, reach.max_range) == (1, 15)
    for name in ("Northern Alliance Infantry", "Taliban Infantry"):
        assert UNITS[name].house and UNITS[name].personnel


def test_a_defender_close_assaulted_once_a_phase():
    b = battle(
        [("A1", "A", "US Engineers", 10, 12, 0), ("B1", "B", "BTR-80", 12.5, 12, 180)],
        [3, 4, 3, 4, 5, 20, 20],
        **FULL,
    )
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    b.apply(Move("A", "A1", ((10, 12), (11.5, 12)), 0.0))
    b.apply(LetPass("B"))
    b.apply(CloseAssault("A", "B1"))  # the BTR rolls 20 and fails; the engineers roll 20
    assert b.state.assault_open is None
    with pytest.raises(IllegalAction):
        b.apply(CloseAssault("A", "B1"))


# ------------------------------------------------------------------ carriers


def test_board_ride_half_allowance_and_set_down():
    """RD "Transport": infantry in base contact boards as the carrier's move begins; the
    carrier then moves at most half (18 -> 9 movement points); after its move it sets the
    rider down behind it."""
    b = battle(
        [
            ("A1", "A", "M113A3", 10, 12, 0),
            ("A2", "A", "US Mech Infantry", 9, 12, 0),
            ("B1", "B", "T-72", 40, 30, 180),
        ],
        [3, 4, 3, 4, 5],
        depth=36,
        **FULL,
    )
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    assert Mount("A", "A1", "A2") in b.legal_actions()
    b.apply(Mount("A", "A1", "A2"))
    a1, a2 = b.state.stands["A1"], b.state.stands["A2"]
    assert a2.carried_by == "A1" and not a2.active
    assert b.movement_points("A1") == 9
    b.apply(Move("A", "A1", ((10, 12), (22, 12)), 0.0))
    assert (a1.x, a1.y) == (19, 12) and (a2.x, a2.y) == (19, 12)
    assert b.decision().kind == "plot_move"  # it may still set its rider down
    b.apply(Unload("A", "A1", "A2", 0))
    assert (a2.x, a2.y, a2.carried_by, a2.active) == (18, 12, None, True)
    b.apply(EndMoves("A"))
    assert [e["event"] for e in b.log.events if e["event"] in ("mount", "unload")] == [
        "mount",
        "unload",
    ]


def test_riders_cannot_be_shot_at():
    b = battle(
        [
            ("A1", "A", "M113A3", 20, 12, 180),
            ("A2", "A", "US Mech Infantry", 20, 12, 0, {"carried_by": "A1"}),
            ("B1", "B", "M1A2 Abrams", 10, 12, 0),
        ],
        [],
        **FULL,
    )
    b.apply(ChooseFirst("A", "B"))
    assert all(a.target != "A2" for a in b.legal_actions() if isinstance(a, Fire))


@pytest.mark.parametrize(
    ("rider_roll", "placed"),
    [(4, True), (20, False)],
)
def test_a_carrier_destroyed_with_a_rider_aboard(rider_roll, placed):
    """RD "Transport": the M1A2 (AP 25 against 5: above +9, always E) destroys the M113;
    its rider rolls cohesion: 4 passes and it gets out behind the wreck, disorganized; 20
    fails and it is lost with the carrier."""
    b = battle(
        [
            ("A1", "A", "M113A3", 20, 12, 180),
            ("A2", "A", "US Mech Infantry", 20, 12, 0, {"carried_by": "A1"}),
            ("B1", "B", "M1A2 Abrams", 10, 12, 0),
        ],
        [5, 3, 3, rider_roll],
        **FULL,
    )
    b.apply(ChooseFirst("A", "B"))
    b.apply(Fire("B", "A1", ("B1",), ("cannon",)))
    names = [e["event"] for e in b.log.events[-2:]]
    assert names == ["fire", "unload"]
    line = b.log.events[-1]
    assert line["cause"] == "carrier_eliminated" and line["cohesion"]["roll"] == rider_roll
    a2 = b.state.stands["A2"]
    assert a2.carried_by is None
    if placed:
        assert (a2.x, a2.y, a2.D, a2.eliminated) == (21, 12, True, False)
    else:
        assert a2.eliminated
    assert b.state.losses(["A", "B"])["A"] == (1 if placed else 2)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"carried_by": "A9"}, "no stand 'A9'"),
        ({"carried_by": "B1"}, "is not on side 'A'"),
        ({"carried_by": "A3"}, "is not a carrier"),
    ],
)
def test_a_scenario_names_a_bad_carrier(extra, message):
    with pytest.raises(ScenarioError) as err:
        parse_scenario(
            scenario_dict(
                [
                    ("A1", "A", "M113A3", 20, 12, 180),
                    ("A2", "A", "US Mech Infantry", 20, 12, 0, extra),
                    ("A3", "A", "M1A2 Abrams", 25, 12, 0),
                    ("B1", "B", "M1A2 Abrams", 10, 12, 0),
                ],
                **FULL,
            ),
            "t.json",
        )
    assert "$.stands[1].carried_by" in str(err.value) and message in str(err.value)


# ------------------------------------------------------------------ the intro stays as it was


def test_the_intro_rulesets_have_no_full_game_rules():
    """An M1A2 in the intro rules cannot drive through an enemy (RD "Movement")."""
    b = battle(
        [("A1", "A", "M1A2 Abrams", 10, 12, 0), ("B1", "B", "T-72", 14, 12, 90)],
        [3, 4, 3, 4, 5],
    )
    pass_phase(b)
    pass_phase(b)
    b.apply(ChooseFirst("A", "A"))
    b.apply(MoveAttempt("A", "1", True))
    assert b.preview_move("A1", ((10, 12), (18, 12))).stopped_by == "enemy"


# ------------------------------------------------------------------ hostile unit tables


def _broken_support(tmp_path, old: str, new: str):
    from tests.helpers import _copy_data

    d = _copy_data(tmp_path)
    path = d / "modern_support.csv"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    load_rules_data.cache_clear()
    try:
        with pytest.raises(Exception) as err:
            load_rules_data(d)
    finally:
        load_rules_data.cache_clear()
    return str(err.value)


@pytest.mark.parametrize(
    ("old", "new", "want"),
    [
        ("atgm_depletion\n", "\n", "modern_support.csv: header: missing column(s) atgm_depletion"),
        (",flags,", ",flag,", "header: missing column(s) flags"),
        ("US Engineers,110,3,personnel,5,", "US Engineers,110,3,personnel,-5,", ": defense: "),
        (",0,engineer,", ",0,engineer sniper,", ": flags: unknown flag(s) sniper"),
        ("US TOW Team,130,3,personnel,3,,,2,3", "US TOW Team,130,3,personnel,3,5,,2,3", "ap_range"),
        (",20,37,3,3\n", ",20,37,3,\n", "atgm: columns must be all set or all empty"),
        ("BRDM-2 Scout,", "M1A2 Abrams,", "'M1A2 Abrams' is a row of modern_tanks.csv too"),
    ],
)
def test_hostile_unit_tables_get_one_line_errors(tmp_path, old, new, want):
    """rules-decisions "Units beyond tanks": a bad row is refused naming file, line, column."""
    message = _broken_support(tmp_path, old, new)
    assert want in message
    assert all(line.startswith("modern_support.csv: ") for line in message.splitlines())
    assert "Traceback" not in message


def test_hulldown_check_names_the_broken_row(tmp_path, monkeypatch, capsys):
    """A player replacing house values gets the row and column, not a traceback."""
    from game import cli
    from game.rules.charts import data as data_module
    from tests.helpers import _copy_data

    d = _copy_data(tmp_path)
    path = d / "modern_support.csv"
    path.write_text(
        path.read_text(encoding="utf-8").replace(",0,engineer,", ",0,engineer sniper,", 1),
        encoding="utf-8",
    )
    monkeypatch.setattr(data_module, "DATA_DIR", d)
    load_rules_data.cache_clear()
    try:
        status = cli.main(["check", "maps/modern-skirmish.json"])
    finally:
        load_rules_data.cache_clear()
    err = capsys.readouterr().err
    assert status == 2
    assert "modern_support.csv: line " in err and "flags: unknown flag(s) sniper" in err


# ------------------------------------------------------------------ whole battles


def _play(raw_or_path, seed, players):
    from game.ai.random_player import RandomPlayer
    from game.ai.scripted import ScriptedAI
    from game.rules.files.scenario import load_scenario

    sc = (
        load_scenario(raw_or_path)
        if isinstance(raw_or_path, str)
        else parse_scenario(raw_or_path, "t.json")
    )
    b = Battle(sc, seed)
    make = {"random": lambda k: RandomPlayer(seed * 10 + k), "ai": lambda k: ScriptedAI(k)}
    who = {"A": make[players[0]](1), "B": make[players[1]](2)}
    actions = []
    while not b.finished and len(actions) < 5000:
        a = who[b.to_act].choose(b)
        b.apply(a)
        actions.append(a)
    assert b.finished
    return b, actions


CLOSE_QUARTERS = [
    ("A1", "A", "M1A1 Abrams", 14, 10, 0, {"ghq": True}),
    ("A2", "A", "M2A2 Bradley", 14, 13, 0),
    ("A3", "A", "US Mech Infantry", 14, 13, 0, {"carried_by": "A2"}),
    ("A4", "A", "US Engineers", 18, 16, 0),
    ("A5", "A", "BTR-152", 14, 19, 0),
    ("A6", "A", "Leopard-2A7", 12, 8, 0),
    ("B1", "B", "T-80U / AT-11", 22, 10, 180, {"ghq": True}),
    ("B2", "B", "BMP-2", 22, 13, 180),
    ("B3", "B", "Motor Rifle Infantry", 22, 13, 180, {"carried_by": "B2"}),
    ("B4", "B", "Soviet Engineers", 19, 16, 180),
    ("B5", "B", "BRDM-2 Scout", 21, 19, 180),
]
CQ_TERRAIN = [
    ("rough_2", (17, 14, 19, 18)),
    ("barbed_wire", (16, 4, 17, 8)),
    ("minefield", (18, 19, 20, 21)),
    ("light_buildings", (18, 8, 20, 10)),
]


@pytest.mark.parametrize("seed", range(1, 11))
def test_random_battles_at_close_quarters_keep_the_log_and_its_replay_true(seed):
    """Whole battles of random legal actions at close quarters (every new rule comes up):
    the log passes its checks, the log's replay shows the engine's stands after every action,
    and the save replays to the same state."""
    from game.rules.files.logreplay import LogReplay
    from tests.helpers import differences

    raw = scenario_dict(CLOSE_QUARTERS, CQ_TERRAIN, turns=6, **FULL)
    played, actions = _play(raw, seed, ("random", "random"))
    assert not check_log(played.log.events)
    shown = LogReplay(played.log.events)
    b = Battle(played.scenario, seed)
    for k, action in enumerate(actions):
        b.apply(action)
        shown.goto(len(b.log.events) - 1)
        # groups and postures change between lines (a straggler group ends with its phase,
        # which writes no line when the next phase waits for who goes first)
        settled = (
            b.state.phase not in ("initiative", "posture")
            and b.log.events[-1]["phase"] == b.state.phase
        )
        for sid, s in b.state.stands.items():
            d = differences(s, shown.battle.state.stands[sid], settled)
            assert not d, f"seed {seed} after action {k} ({action}): {sid} {d}"
    assert b.state_hash() == played.state_hash()


def test_close_quarters_battles_use_every_new_rule():
    """Over a few random battles the new lines all come up (so the test above covers them)."""
    seen = set()
    for seed in range(1, 11):  # seed 10 boards a carrier (#43: since the automatic passes)
        raw = scenario_dict(CLOSE_QUARTERS, CQ_TERRAIN, turns=6, **FULL)
        b, _ = _play(raw, seed, ("random", "random"))
        seen |= {e["event"] for e in b.log.events}
        seen |= {e["crt"] for e in b.log.events if e["event"] == "fire" and "crt" in e}
    assert {"overrun", "close_assault", "mount", "unload", "posture", "-S-"} <= seen


def test_the_ai_plays_twenty_close_quarters_battles_without_an_illegal_action():
    """#31: the AI against the random player and against itself, 20 battles at close
    quarters (every new decision comes up), each to its end; apply raises on an illegal
    action."""
    raw = scenario_dict(CLOSE_QUARTERS, CQ_TERRAIN, turns=6, **FULL)
    kinds = set()
    for seed in range(20):
        players = ("ai", "random") if seed % 2 else ("random", "ai")
        b, _ = _play(raw, seed, players if seed < 16 else ("ai", "ai"))
        assert not check_log(b.log.events)
        kinds |= {e["event"] for e in b.log.events}
    assert {"overrun", "close_assault", "unload"} <= kinds


@pytest.mark.parametrize("seed", [1, 2])
def test_the_ai_plays_the_shipped_combined_arms_battle_to_the_end(seed):
    """The scripted AI against itself on maps/modern-combined-arms.json: no illegal action
    (apply would raise), a checked log, riders set down."""
    b, _ = _play("maps/modern-combined-arms.json", seed, ("ai", "ai"))
    assert not check_log(b.log.events)
    assert any(e["event"] == "unload" for e in b.log.events)


def test_every_full_game_line_reads_as_a_sentence():
    from game.ui.logwords import describe

    raw = scenario_dict(CLOSE_QUARTERS, CQ_TERRAIN, turns=6, **FULL)
    for seed in range(1, 9):
        b, _ = _play(raw, seed, ("random", "random"))
        names = {s.id: f"{s.unit_name} {s.id}" for s in b.state.stands.values()}
        for ev in b.log.events:
            if ev["event"] in ("overrun", "close_assault", "mount", "unload", "posture"):
                text = describe(ev, names, {"A": "Blue", "B": "Orange"})
                assert text and text.endswith(".") and "None" not in text


@pytest.mark.parametrize(
    ("event", "spoil", "want"),
    [
        ("overrun", lambda e: e["defender_roll"]["mods"].clear(), "tracked vehicle is wrong"),
        (
            "close_assault",
            lambda e: e["assaulter_attacks"][0]["combat"]["mods"].pop(),
            "lacks closing -1",
        ),
        (
            "close_assault",
            lambda e: e["assaulter_attacks"][0]["target_markers_after"].update(eliminated=False),
            "close_assault left",
        ),
    ],
)
def test_the_audit_catches_a_spoiled_full_game_line(event, spoil, want):
    """The fuzz's referee (game.check.audit) checks the new lines, not only their format."""
    import copy

    from game.check.audit import audit_log

    dice = {
        "overrun": [3, 4, 3, 4, 5, 14, 3, 4, 5],
        "close_assault": [3, 4, 3, 4, 5, 3, 4, 4, 10, 6, 6],
    }[event]
    stands = {
        "overrun": [
            ("A1", "A", "M1A2 Abrams", 10, 12, 0),
            ("B1", "B", "Motor Rifle Infantry", 14, 12, 90),
        ],
        "close_assault": [
            ("A1", "A", "US Engineers", 10, 12, 0),
            ("B1", "B", "BTR-80", 12.5, 12, 180),
        ],
    }[event]
    b = battle(stands, dice, **FULL)
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    end = (18, 12) if event == "overrun" else (11.5, 12)
    b.apply(Move("A", "A1", ((10, 12), end), 0.0))
    b.apply(LetPass("B"))
    if event == "close_assault":
        b.apply(CloseAssault("A", "B1"))
        b.apply(AssaultReply("B", "A1"))
    speeds = {s.id: float(s.unit.speed) for s in b.state.stands.values()}
    events = copy.deepcopy(b.log.events)
    clean = [p for p in audit_log(events, speeds) if "end" not in p]
    assert clean == []
    spoil(next(e for e in events if e["event"] == event))
    assert any(want in p for p in audit_log(events, speeds))


def test_the_ai_overruns_infantry_in_the_open_when_the_odds_favour_it():
    """#31: the AI overruns where the engine's odds favour it: an M1A2 4" from a rifle stand
    in the open drives through it (the defender fails its roll 40% of the time, then is
    eliminated 72%; the tank risks little)."""
    from game.ai.scripted import ScriptedAI

    b = battle(
        [
            ("A1", "A", "M1A2 Abrams", 10, 12, 0),
            ("B1", "B", "Motor Rifle Infantry", 14, 12, 90),
            ("B2", "B", "T-72", 40, 20, 180),
        ],
        [3, 4, 3, 4, 5],
        **FULL,
    )
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    action = ScriptedAI(1).choose(b)
    assert isinstance(action, Move) and action.stand == "A1"
    assert b.overruns_on("A1", action.path) == ["B1"]


def test_the_ai_closes_in_with_engineers_and_assaults():
    """#31: the AI uses its infantry to close-assault: engineers 3" from a BTR-80's flank move
    into base contact and, their group's move over, assault it (the engine's odds: AP 10
    against 5 halved on the flank, at -7)."""
    from game.ai.scripted import ScriptedAI

    b = battle(
        [
            ("A1", "A", "US Engineers", 10, 12, 0),
            ("B1", "B", "BTR-80", 13, 12, 90),
            ("B2", "B", "T-72", 40, 20, 180),
        ],
        [3, 4, 3, 4, 5] + [10] * 30,
        **FULL,
    )
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    ai = ScriptedAI(1)
    move = ai.choose(b)
    assert isinstance(move, Move) and "assault" in ai.last[0].label
    b.apply(move)
    while b.decision().kind == "opportunity_fire":
        b.apply(LetPass("B"))
    if b.decision().kind == "plot_move":
        b.apply(ai.choose(b))
    assert b.decision().kind == "close_assault"
    assert ai.choose(b) == CloseAssault("A", "B1")
