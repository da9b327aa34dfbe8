"""The enemy's attacks on the player's stands stop the battle screen on a Continue showing the
dice and the result (as the artillery's missions do), in any phase, unless the settings let
them run; a GHQ lost is announced as it happens."""

from __future__ import annotations

import pygame
import pytest

from game import ChooseFirst, Fire
from game.ai.scripted import ScriptedAI
from game.ui.battle import BattleScreen
from game.ui.battle.attacks import AttackStepMode
from game.ui.colours import UI
from tests.conftest import battle
from tests.helpers import press

pytestmark = pytest.mark.usefixtures("data_dir")


def _screen(app, dice):
    """Blue (A: its GHQ A1, a T-72 at (15, 12) facing B1; A2 in group 2) against the AI's
    Orange (B1, an M1A2, tech level 4, 11" off at (26, 15)); A lets B fire first in the 1st fire phase."""
    b = battle(
        [
            ("A1", "A", "T-72", 15, 12, 0, {"ghq": True}),
            ("A2", "A", "T-72", 3, 22, 0, {"group": "2"}),
            ("B1", "B", "M1A2 Abrams", 26, 15, 180),
        ],
        dice,
    )
    b.apply(ChooseFirst("A", "B"))
    s = BattleScreen(app, b, ai={"B": ScriptedAI(1, "recruit")}, ai_speed=0)
    app.show(s)
    return b, s


@pytest.fixture
def pause():
    old = UI.get("enemy_attacks", "pause")
    UI["enemy_attacks"] = "pause"
    yield
    UI["enemy_attacks"] = old


def test_an_enemy_shot_stops_on_a_continue_with_its_dice_and_the_ghq_lost(app, pause):
    """B1 fires at Blue's GHQ: cohesion 5 passes; 2D6 1 + 1: E. The screen
    stops on the attack (its dice and result in words) and says the GHQ is lost and what
    that costs, before Blue is asked anything."""
    b, s = _screen(app, [5, 1, 1])
    actions = len(b.actions)
    s.act(Fire("B", "A1", ("B1",), ("cannon",)))
    assert b.stand("A1").eliminated
    assert isinstance(s.mode, AttackStepMode)
    text = s._panel_text
    assert "Enemy attack 1 of 1</b> (fires)" in text
    assert "cohesion roll 5" in text and "2D6 2" in text and "eliminated" in text
    assert "Blue's GHQ, T-72\u2002A1, is lost: Blue issues no further movement orders" in text
    assert "The enemy attacks: 1 of 1" in s.banner_text()
    for _ in range(3):
        s.update(0.016)
    assert len(b.actions) == actions + 1  # nothing moves on while it is shown
    press(s, "Continue")
    assert not isinstance(s.mode, AttackStepMode)
    assert "Blue's GHQ, T-72\u2002A1, is lost" in s._panel_text  # still said, this turn


def test_a_miss_stops_too_and_space_goes_on(app, pause):
    b, s = _screen(app, [20])  # cohesion 20: it does not fire
    s.act(Fire("B", "A1", ("B1",), ("cannon",)))
    assert isinstance(s.mode, AttackStepMode) and "misses its chance" in s._panel_text
    s.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" "))
    assert not isinstance(s.mode, AttackStepMode)


def test_the_settings_may_let_them_run(app, pause):
    UI["enemy_attacks"] = "run"
    b, s = _screen(app, [5, 1, 1])
    s.act(Fire("B", "A1", ("B1",), ("cannon",)))
    assert not isinstance(s.mode, AttackStepMode)
    assert "Last attack" in s._panel_text  # told there, as before
    assert "Blue's GHQ, T-72\u2002A1, is lost" in s._panel_text  # announced all the same


def test_in_hotseat_nobody_is_stopped(app, pause):
    b = battle([("A1", "A", "T-72", 15, 12, 0), ("B1", "B", "M1A2 Abrams", 26, 15, 180)], [5, 1, 1])
    b.apply(ChooseFirst("A", "B"))
    s = BattleScreen(app, b)
    app.show(s)
    s.act(Fire("B", "A1", ("B1",), ("cannon",)))
    assert not isinstance(s.mode, AttackStepMode)
