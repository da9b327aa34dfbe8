"""The full games read from the cards, case by case (issue "The full games, right"): each
case was worked by hand from the 002/004 card and the rulings, with fixed dice, and names
its rule. These are the rules the engine once misread while its own tests stayed green."""

from __future__ import annotations

import pytest

from game.ai.scripted import ScriptedAI
from game.rules.actions import (
    AssaultReply,
    ChooseFirst,
    CloseAssault,
    DeclareGroup,
    Fire,
    LetPass,
    Move,
    MoveAttempt,
    OpportunityFire,
    Pass,
)
from game.rules.battle import Battle, IllegalAction
from game.rules.dice import FixedDice
from game.rules.files.log import check_log_line
from game.rules.files.scenario import parse_scenario
from game.rules.procedures.artillery import stands_under
from game.rules.procedures.combat import target_terrain_mods
from tests.conftest import battle, make_table, scenario_dict

PERSHING, TIGER2, SHERMAN = 'M26 "Pershing"', "Pz VIB", 'M4 "Sherman"'


def _posture_47(stands, dice=()):
    """A Wehrmacht '47 battle through set-up and the initiative (A 6 + 15 against B 1 + 15):
    the posture phase, A to choose who declares first."""
    d = scenario_dict(stands, (), generation=(None, None), sighting=20, ruleset="wwii-47")
    b = Battle(parse_scenario(d, "test.json"), 0, dice=FixedDice([6, 1, *dice]), auto_pass=False)
    b.apply(Pass("A"))
    b.apply(Pass("B"))
    assert b.state.phase == "posture"
    return b


# ---------------------------------------------------- 004 step 2: every stand takes a posture


def test_004_step2_a_tl2_stand_is_offered_a_posture_like_any_other():
    """004 sequence step 2: every stand declares; only TL2 may then both move and fire. The
    Pz VIB (TL2) and the Pz V (TL1) are both undeclared, and the Pz VIB declared into a
    movement group is in the movement posture (it had been left to the firing posture)."""
    b = _posture_47(
        [
            ("A1", "A", TIGER2, 10, 12, 0),
            ("A2", "A", "Pz V", 10, 16, 0),
            ("B1", "B", SHERMAN, 40, 12, 180),
        ]
    )
    b.apply(ChooseFirst("A", "A"))
    assert {s.id for s in b.undeclared("A")} == {"A1", "A2"}
    b.apply(DeclareGroup("A", ("A1",)))
    assert b.state.stands["A1"].posture == "movement"
    assert {s.id for s in b.undeclared("A")} == {"A2"}


def test_004_step2_the_ai_puts_its_tl2_tanks_in_the_movement_posture():
    """The AI declares through ``Battle.undeclared``: a lone Pz VIB far from the enemy goes
    into a movement group (before, it was never offered one and sat in the firing posture
    every turn after it entered)."""
    b = _posture_47(
        [("A1", "A", TIGER2, 4, 12, 0), ("B1", "B", SHERMAN, 44, 12, 180)], dice=[4] * 40
    )
    ai = ScriptedAI(1, "veteran")
    for _ in range(6):
        if b.state.phase != "posture":
            break
        side = b.to_act
        b.apply(ai.choose(b) if side == "A" else Pass("B"))
    assert b.state.stands["A1"].posture == "movement"


# ------------------------------------------- 002/004 terrain chart: wheeled stands on clear


def test_002_terrain_chart_a_wheeled_stand_pays_2_mp_an_inch_on_clear_ground():
    """002/004 terrain effects chart, clear: tracked 1, wheeled 2, foot 1 MP per inch. A
    BTR-80 (W, 20 MP) on open ground drives 10", not 20"; a T-80U (T) of the same points
    would drive 20"; on a good road (0.5 for every class) the BTR drives 40"."""
    t = make_table(("good_road", [(0, 30), (60, 30)]))
    open_path = [(5.0, 10.0), (45.0, 10.0)]
    w = t.walk(open_path, 20.0, "W")
    assert w.points[-1] == pytest.approx((15.0, 10.0)) and w.mp_spent == pytest.approx(20.0)
    assert t.walk(open_path, 20.0, "T").points[-1] == pytest.approx((25.0, 10.0))
    assert t.walk(open_path, 20.0, "F").points[-1] == pytest.approx((25.0, 10.0))
    road = t.walk([(5.0, 30.0), (55.0, 30.0)], 20.0, "W")
    assert road.points[-1] == pytest.approx((45.0, 30.0))


def test_002_terrain_chart_a_btr80_in_the_full_modern_game_moves_half_as_far_in_the_open():
    """The same through the battle: a BTR-80 ordered to move 20" over clear ground spends its
    20 MP by 10" (the log's ``mp_spent`` equals 2 x the distance)."""
    d = scenario_dict(
        [("A1", "A", "BTR-80", 5, 12, 0), ("B1", "B", "T-72", 45, 20, 180)],
        ruleset="modern-full",
    )
    b = Battle(parse_scenario(d, "test.json"), 0, dice=FixedDice([1] * 40), auto_pass=False)
    walk = b.preview_move("A1", ((5, 12), (25, 12)))
    assert walk.points[-1] == pytest.approx((15, 12)) and walk.mp_spent == pytest.approx(20)


# ------------------------------------------------------- ruling R3: smoke is one effect


def test_ruling_r3_two_overlapping_smoke_clouds_cost_and_cover_once():
    """R3: +1 tracked movement and +3 into smoke once however many clouds overlap. A tracked
    stand crossing 4" of two overlapping clouds pays (1 + 1) x 4 = 8 MP there, not 12; and
    the ground's effects list smoke once."""
    smoke = [("smoke", (10, 0, 20, 20)), ("smoke", (12, 0, 22, 20))]
    t = make_table(*smoke)
    assert t.terrain_at(15, 10).areas == ("smoke", "smoke")
    assert t.terrain_at(15, 10).effect_areas == ("smoke",)
    # 12 to 16: inside both clouds; 8 MP for the 4"
    w = t.walk([(12.0, 10.0), (16.0, 10.0)], 100.0, "T")
    assert w.mp_spent == pytest.approx(8.0)


def test_ruling_r3_an_attack_into_two_clouds_takes_plus_3_once():
    """R3, 002 chart smoke row: a T-72 firing at an M1A2 standing in two overlapping smoke
    areas takes one +3 (the line itself is blocked by the smoke, so the engine's cover for
    the target is what a marker's attack or a close assault would use)."""
    d = scenario_dict(
        [("A1", "A", "T-72", 5, 12, 0), ("B1", "B", "M1A2 Abrams", 15, 12, 180)],
        [("smoke", (13, 10, 17, 14)), ("smoke", (14, 10, 18, 14))],
        ruleset="modern-full",
    )
    b = Battle(parse_scenario(d, "test.json"), 0, dice=FixedDice([1] * 40), auto_pass=False)
    mods = target_terrain_mods(b.ctx, b.state.stands["A1"].pose(), b.state.stands["B1"].pose())
    assert mods == [("terrain:smoke", 3)]


# ------------------------------------- 004 close assault: movement posture and zero range


def _battle_to_movement_47(stands, dice, a_movers=(), b_movers=()):
    """A Wehrmacht '47 battle to its movement phase: the initiative (A 6 + 15 against B 1 +
    15); A declares its ``a_movers`` (one group), B its ``b_movers``; both pass the fire
    phase; A moves first. The orders' dice (A 3 + 4, B 3 + 4: two orders each) and then
    ``dice`` follow."""
    d = scenario_dict(stands, (), generation=(None, None), sighting=20, ruleset="wwii-47")
    b = Battle(
        parse_scenario(d, "test.json"),
        0,
        dice=FixedDice([6, 1, 3, 4, 3, 4, *dice]),
        auto_pass=False,
    )
    b.apply(Pass("A"))
    b.apply(Pass("B"))
    b.apply(ChooseFirst("A", "A"))
    if a_movers:
        b.apply(DeclareGroup("A", tuple(a_movers)))
    else:
        b.apply(Pass("A"))
    if b_movers:
        b.apply(DeclareGroup("B", tuple(b_movers)))
    while b.state.phase == "posture":
        b.apply(Pass(b.to_act))
    b.apply(ChooseFirst("A", "A"))
    while b.state.phase == "fire":
        b.apply(Pass(b.to_act))
    assert b.state.phase == "movement"
    b.apply(ChooseFirst("A", "A"))
    return b


def _close_assault_line(b):
    (line,) = [e for e in b.log.events if e["event"] == "close_assault"]
    return line


def test_004_close_assault_step1_a_defender_in_the_movement_posture_does_not_answer():
    """004 close assault step 1 (only a defender not in the movement posture rolls) and RD
    "Movement markers" (a stand in the movement posture carries one, moved or not):
    Panzergrenadiers declared moving, not yet moved, are close-assaulted by a Sherman.
    They roll nothing; the Sherman rolls 5 (passes 15) and attacks with HE 5 against their
    defence 4 halved (a personnel target with a movement marker) to 2: +3. 2D6 6 + 6 - 3
    (close assault) - 1 (0" range: the TL1 chart's 1" band) = 8; 004 row 8, column +3: D,
    so they fall back 1" directly away from the Sherman."""
    b = _battle_to_movement_47(
        [("A1", "A", SHERMAN, 10, 12, 0), ("B1", "B", "Panzergrenadiers", 12.5, 12, 180)],
        [5, 5, 6, 6],
        a_movers=("A1",),
        b_movers=("B1",),
    )
    assert b.state.stands["B1"].movement_marker  # marked in the posture phase
    b.apply(MoveAttempt("A", "M1", True))
    b.apply(Move("A", "A1", ((10, 12), (11.5, 12)), 0.0))
    assert b.decision().kind == "close_assault"
    assert b.close_assault_odds("B1")["p_defender_fires"] == 0.0
    b.apply(CloseAssault("A", "B1"))
    line = _close_assault_line(b)
    assert (
        line["rule"] == "004 8.7"
        and line["defender_roll"] is None
        and line["defender_attack"] is None
    )
    (attack,) = line["assaulter_attacks"]
    assert (attack["firepower"], attack["defense_base"], attack["defense"]) == (5, 4, 2)
    assert [(m["why"], m["value"]) for m in attack["combat"]["mods"]] == [
        ("close_assault", -3),
        ("range", -1),
    ]
    assert (attack["combat"]["total"], attack["crt"], attack["result"]) == (8, "D", "D")
    assert b.state.stands["B1"].D and (b.state.stands["B1"].x, b.state.stands["B1"].y) == (13.5, 12)


def test_004_close_assault_notes_the_defenders_answer_is_at_zero_range():
    """004 close assault notes: every roll is at 0" range, the defender's answer too. US
    Combat Engineers (moving: defence 4 halved to 2) assault a Pz VIB in the firing
    posture; it rolls 5, passes, and answers with HE 8: +6. 2D6 6 + 6 - 3 - 1 (the TL2
    chart's 1" band) = 8; row 8, column +6: E. (Without the range modifier the total
    would be 9 and the cell D.)"""
    b = _battle_to_movement_47(
        [("A1", "A", "US Combat Engineers", 10, 12, 0), ("B1", "B", TIGER2, 12.5, 12, 180)],
        [5, 5, 6, 6],
        a_movers=("A1",),
    )
    b.apply(MoveAttempt("A", "M1", True))
    b.apply(Move("A", "A1", ((10, 12), (11.5, 12)), 0.0))
    if b.decision().kind == "opportunity_fire":
        b.apply(LetPass("B"))
    b.apply(CloseAssault("A", "B1"))
    assert b.decision().kind == "assault_reply"
    # at +6 every total from 0 to 8 is E on 004's table; 9 (two sixes without the range
    # modifier) would be D, so the odds would have been 35/36
    assert b.reply_odds("A1")["E"] == pytest.approx(1.0)
    b.apply(AssaultReply("B", "A1"))
    reply = _close_assault_line(b)["defender_attack"]
    assert [(m["why"], m["value"]) for m in reply["combat"]["mods"]] == [
        ("close_assault", -3),
        ("range", -1),
    ]
    assert (reply["differential"], reply["combat"]["total"], reply["crt"]) == (6, 8, "E")
    assert b.state.stands["A1"].eliminated


# ---------------------------------------------------------- the log contract (event-log.md)


def test_event_log_wehrmacht_47_posture_lines_say_the_posture_and_dash_cells_are_as_printed():
    """event-log.md, full games: ``posture`` lines add ``posture`` (move/fire); the ``crt``
    field is the cell as the card prints it: 004 prints "-", not 002's "-S-". A Sherman in
    the firing posture fires at a Sherman 10" away: AP 7 against 7 is 0; it rolls 5 to fire,
    then 6 + 6 + 1 (the TL1 chart's 6-10" band) = 13: row 13, column 0 is "-", no effect."""
    b = _posture_47(
        [
            ("A1", "A", SHERMAN, 10, 12, 0),
            ("A2", "A", SHERMAN, 10, 16, 0),
            ("B1", "B", SHERMAN, 20, 12, 180),
        ],
        dice=[5, 6, 6],
    )
    b.apply(ChooseFirst("A", "A"))
    b.apply(DeclareGroup("A", ("A2",)))
    while b.state.phase == "posture":
        b.apply(Pass(b.to_act))
    postures = [e for e in b.log.events if e["event"] == "posture"]
    assert [(e["side"], e["stands"], e["posture"], e["rule"]) for e in postures] == [
        ("A", ["A2"], "move", "004 2"),
        ("A", ["A1"], "fire", "004 2"),
        ("B", ["B1"], "fire", "004 2"),
    ]
    b.apply(ChooseFirst("A", "A"))
    b.apply(Fire("A", "B1", ("A1",), ("cannon",)))
    (fire,) = [e for e in b.log.events if e["event"] == "fire"]
    assert (fire["differential"], fire["combat"]["total"]) == (0, 13)
    assert (fire["crt"], fire["result"]) == ("-", "none")
    assert [p for i, ev in enumerate(b.log.events) for p in check_log_line(ev, i)] == []


# ---------------------------------------- RD "Artillery": a marker hits by overlap, not touch


@pytest.mark.parametrize(
    ("x", "hit"),
    [(11.5, False), (11.49, True), (10.0, True), (12.0, False)],
)
def test_rd_artillery_a_marker_attacks_stands_it_overlaps_not_those_it_touches(x, hit):
    """RD "Artillery, smoke and air strikes": a 2" impact marker at (10, 12) attacks every
    stand whose footprint overlaps it by a positive area, as stands overlap. A stand centred
    at x 11.5 (its edge at x 11, on the marker's rim) only touches it; at 11.49 it overlaps
    by a sliver; at 12 it is clear."""
    d = scenario_dict(
        [("A1", "A", "T-72", x, 12, 0), ("B1", "B", "T-72", 40, 12, 180)], ruleset="modern-full"
    )
    b = Battle(parse_scenario(d, "test.json"), 0, dice=FixedDice([1]), auto_pass=False)
    assert [s.id for s in stands_under(b.ctx, 10, 12)] == (["A1"] if hit else [])


# ---------------------------------------- ruling R4: only the path actually driven overruns


def test_ruling_r4_a_stand_the_mover_starts_beside_and_drives_away_from_is_not_overrun():
    """R4: a Sherman touching a Pz V's side drives off 5" up and back, away from it. Turned
    to its path at the start, its footprint would poke into the Pz V's, but the start is not
    the path: nothing is crossed, no overrun line, no die rolled for one."""
    b = _battle_to_movement_47(
        [("A1", "A", SHERMAN, 10, 12, 0), ("B1", "B", "Pz V", 11, 12, 90)],
        [5],
        a_movers=("A1",),
        b_movers=("B1",),
    )
    b.apply(MoveAttempt("A", "M1", True))
    b.apply(Move("A", "A1", ((10, 12), (6, 15)), 0.0))
    assert [e["event"] for e in b.log.events if e["event"] in ("overrun", "move")] == ["move"]
    assert b.dice._next == len(b.dice._values)  # only the move attempt's 5 was drawn


def test_004_8_6_a_stand_driven_through_is_overrun_once():
    """The counter-case of R4, 004 overrun procedure: the Sherman drives through the Pz V
    (in the movement posture: no opportunity fire) to the far side. The Pz V rolls 5 + 3
    (tracked attacker) = 8, passes; the Sherman rolls 5, passes: one overrun line, no
    attack."""
    b = _battle_to_movement_47(
        [("A1", "A", SHERMAN, 8, 12, 0), ("B1", "B", "Pz V", 11, 12, 90)],
        [5, 5, 5],
        a_movers=("A1",),
        b_movers=("B1",),
    )
    b.apply(MoveAttempt("A", "M1", True))
    b.apply(Move("A", "A1", ((8, 12), (14, 12)), 0.0))
    (line,) = [e for e in b.log.events if e["event"] == "overrun"]
    assert (line["defender"], line["rule"]) == ("B1", "004 8.6")
    assert line["defender_roll"]["total"] == 8 and line["attack_on_defender"] is None


# -------------------------------------------- 000 08.02.02: a GHQ lost takes the orders


def test_000_08_02_02_a_side_whose_ghq_falls_mid_phase_issues_no_further_orders():
    """000 08.02.02: once the GHQ is eliminated the side issues no further orders. A (GHQ
    T-72, group 1; a second T-72, group 2) rolls 6 + 6 + generation III (+1) = 13 for five
    orders and moves its GHQ across B's T-72 (firing 10" at its front, band 12: +1). B's
    opportunity fire: cohesion 5, 2D6 1 + 1 + 1 = 3 at +4: E. A's four orders left are
    gone: group 2 may only try independently."""
    b = battle(
        [
            ("A1", "A", "T-72", 10, 12, 0, {"ghq": True}),
            ("A2", "A", "T-72", 10, 20, 0, {"group": "2"}),
            ("B1", "B", "T-72", 26, 15, 180),
        ],
        [6, 6, 3, 3, 5, 5, 1, 1],
    )
    for _ in range(2):
        b.apply(ChooseFirst("A", "A"))
        b.apply(Pass("A"))
        b.apply(Pass("B"))
    b.apply(ChooseFirst("A", "A"))
    assert b.state.orders["A"] == 5
    b.apply(MoveAttempt("A", "1", True))
    b.apply(Move("A", "A1", ((10, 12), (20, 12)), 0.0))
    b.apply(OpportunityFire("B", 10, ("B1",), ("cannon",)))
    assert b.state.stands["A1"].eliminated and b.state.orders["A"] == 0
    if b.to_act == "B":
        b.apply(Pass("B"))
    with pytest.raises(IllegalAction):
        b.apply(MoveAttempt("A", "2", True))
    assert MoveAttempt("A", "2", False) in b.legal_actions()


def test_002_8_6_a_wheeled_vehicle_overruns_without_the_tracked_plus_3():
    """002 8.6 by hand, the wheeled case: a BTR-80 (W, 20 MP: 8" of clear ground costs 16)
    drives through a Motor Rifle stand. The defender rolls 14 with no modifier (+3 is only
    against a tracked vehicle, and the BTR carries no one): 14 <= 15 passes, no attack. The
    BTR rolls 5 and passes."""
    b = battle(
        [("A1", "A", "BTR-80", 10, 12, 0), ("B1", "B", "Motor Rifle Infantry", 14, 12, 90)],
        [3, 4, 3, 4, 5, 14, 5],
        ruleset="modern-full",
    )
    for _ in range(2):
        b.apply(ChooseFirst("A", "A"))
        b.apply(Pass("A"))
        b.apply(Pass("B"))
    b.apply(ChooseFirst("A", "A"))
    b.apply(MoveAttempt("A", "1", True))
    b.apply(Move("A", "A1", ((10, 12), (18, 12)), 0.0))
    if b.decision().kind == "opportunity_fire":
        b.apply(LetPass("B"))
    (line,) = [e for e in b.log.events if e["event"] == "overrun"]
    assert line["defender_roll"]["mods"] == [] and line["defender_roll"]["total"] == 14
    assert line["defender_roll"]["passed"] and line["attack_on_defender"] is None
    assert line["attacker_roll"]["passed"] and not b.state.stands["B1"].eliminated
