"""The full games read from the cards, case by case (issue "The full games, right"): each
case was worked by hand from the 002/004 card and the rulings, with fixed dice, and names
its rule. These are the rules the engine once misread while its own tests stayed green."""

from __future__ import annotations

import pytest

from game.ai.scripted import ScriptedAI
from game.rules.actions import ChooseFirst, DeclareGroup, Pass
from game.rules.battle import Battle
from game.rules.combat import target_terrain_mods
from game.rules.dice import FixedDice
from game.rules.scenario import parse_scenario
from tests.conftest import make_table, scenario_dict

PERSHING, TIGER2, SHERMAN = 'M26 "Pershing"', "Pz VIB", 'M4 "Sherman"'


def _posture_47(stands, dice=()):
    """A Wehrmacht '47 battle through set-up and the initiative (A 6 + 15 against B 1 + 15):
    the posture phase, A to choose who declares first."""
    d = scenario_dict(stands, (), generation=(None, None), sighting=20, ruleset="wwii-47")
    b = Battle(parse_scenario(d, "test.json"), 0, dice=FixedDice([6, 1, *dice]))
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
        [("A1", "A", TIGER2, 10, 12, 0), ("A2", "A", "Pz V", 10, 16, 0),
         ("B1", "B", SHERMAN, 40, 12, 180)]
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
    b = Battle(parse_scenario(d, "test.json"), 0, dice=FixedDice([1] * 40))
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
    b = Battle(parse_scenario(d, "test.json"), 0, dice=FixedDice([1] * 40))
    mods = target_terrain_mods(b.ctx, b.state.stands["A1"].pose(), b.state.stands["B1"].pose())
    assert mods == [("terrain:smoke", 3)]
