"""The battle screen's words as a player reads them: possessives of side names ending in s,
impact markers in the firing side's colour (not "orange"), a smoke area that blocks, the
orders banner with a colon after each side, and a WWII stand in the firing posture named
with its battle group rather than "no group"."""

from __future__ import annotations

import pytest

from game import ChooseFirst, Pass
from game.ui.battle import BattleScreen
from game.ui.battle.landings import MissionStepMode
from game.ui.logtext import possessive
from game.ui.logwords import describe
from tests.conftest import battle

pytestmark = pytest.mark.usefixtures("data_dir")


@pytest.mark.parametrize(
    ("name", "words"), [("Blue", "Blue's"), ("Allies", "Allies'"), ("US", "US'")]
)
def test_possessive(name, words):
    assert possessive(name) == words


def test_a_revealed_mission_of_the_allies():
    ev = {"event": "reveal", "side": "A", "mission": "m1", "kind": "artillery", "aim": [3, 4]}
    said = describe(ev, {}, {"A": "Allies"})
    assert said == 'm1 revealed: Allies\' HE mission aimed at 3", 4" on the table.'


class _Screen:
    names: dict = {}

    @staticmethod
    def side_name(side):
        return {"A": "Allies", "B": "Germany"}[side]


@pytest.mark.parametrize(
    ("ammo", "k", "words"),
    [
        ("smoke", 1, "1 smoke area (grey) blocks sight"),
        ("smoke", 2, "2 smoke areas (grey) block sight"),
        ("he", 1, "1 HE impact marker down (ring in Allies' colour)."),
        ("he", 3, "3 HE impact markers down (rings in Allies' colour)."),
    ],
)
def test_a_missions_markers_in_words(ammo, k, words):
    ev = {"event": "artillery", "side": "A", "ammo": ammo, "kind": "indirect"}
    ev |= {"markers": [[1.0, 1.0]] * k, "deviation": None, "cohesion": {}}
    mode = MissionStepMode([{"line": ev, "impacts": [], "last": 0}], None)
    assert any(words in line for line in mode._lines(_Screen(), ev)), mode._lines(_Screen(), ev)


def test_the_orders_banner_names_each_side_with_a_colon(app):
    b = battle([("A1", "A", "T-72", 10, 12, 0), ("B1", "B", "T-72", 40, 12, 180)], [3, 3, 4, 4])
    for _ in range(2):
        b.apply(ChooseFirst("A", "A"))
        b.apply(Pass("A"))
        b.apply(Pass("B"))
    s = BattleScreen(app, b)
    app.show(s)
    assert b.state.phase == "movement"
    assert "orders: Blue: 2, Orange: 3" in s.banner_text()


def test_a_stand_out_of_its_movement_group_is_named_with_its_battle_group(app):
    b = battle(
        [("A1", "A", "T-72", 10, 12, 0, {"group": "6"}), ("B1", "B", "T-72", 40, 12, 180)], []
    )
    s = BattleScreen(app, b)
    a1 = b.stand("A1")
    assert s.group_words(a1) == "group 6"
    a1.group = ""  # as WWII's firing posture leaves it (001 5.0 step 2)
    assert s.group_words(a1) == "group 6"
