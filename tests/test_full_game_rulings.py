"""The full games read from the cards, case by case (issue "The full games, right"): each
case was worked by hand from the 002/004 card and the rulings, with fixed dice, and names
its rule. These are the rules the engine once misread while its own tests stayed green."""

from __future__ import annotations

from game.ai.scripted import ScriptedAI
from game.rules.actions import ChooseFirst, DeclareGroup, Pass
from game.rules.battle import Battle
from game.rules.dice import FixedDice
from game.rules.scenario import parse_scenario
from tests.conftest import scenario_dict

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
