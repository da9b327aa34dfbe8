"""The first hour (#43), the flow of a battle on the screen as a new player met it in the
trial: the hotseat hand-over after every change of side, what a failed order roll says on the
panel, the lost GHQ, stale status lines, attacks made while the player was not asked, the
WWII posture phase's "the rest fire", and refusals kept in view. Driven on the real battle
screen (dummy video driver)."""

from __future__ import annotations

import pygame
import pytest

from game.rules.battle import Battle
from game.rules.dice import FixedDice
from game.rules.files.scenario import parse_scenario
from game.ui.battle import AIMode, AttemptMode, BattleScreen, CurtainMode
from tests.conftest import scenario_dict
from tests.test_ui import _to_movement, click_at, key, small_battle

pytestmark = pytest.mark.usefixtures("data_dir")

APART = [("A1", "A", "T-72", 10, 12, 0), ("B1", "B", "T-72", 40, 12, 180)]
"""One tank a side, 30" apart: out of sight at a sighting distance of 10"."""


def raw_click(screen, x: float, y: float) -> None:
    """A left click at the table point (x, y) in inches, as it comes (no curtain lifted)."""
    px, py = (int(round(v)) for v in screen.tv.to_px(x, y))
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        screen.handle(pygame.event.Event(kind, pos=(px, py), button=1))


def frame(screen) -> None:
    """A frame, with the panel's newest text laid out."""
    screen._flush_panel(force=True)
    screen.update(0.016)
    screen.draw(screen.app.surface)


# ------------------------------------------------------------------ 2. hotseat hand-over


def test_hotseat_a_failed_order_hands_the_screen_over_before_the_other_side_can_click(app):
    """(#43) A failed order gave Orange the move at once: the next click, meant for Blue,
    picked Orange's group. The hand-over curtain now comes up first; the click only lifts
    it, and Orange's panel has nothing picked."""
    s = small_battle(app, APART, [6, 6, 1, 1, 3, 3, 3, 3, 20], sighting=10)
    _to_movement(s)
    click_at(s, 10, 12)
    key(s, pygame.K_RETURN)  # Blue's ordered move: rolled 20, it fails
    b = s.battle
    assert b.to_act == "B" and b.state.moving is None
    assert isinstance(s.mode, CurtainMode) and s.mode.side == "B"
    assert s._buttons == [] and not s.pass_button.is_enabled  # nothing to press for Orange
    raw_click(s, 40, 12)  # on Orange's tank: lifts the curtain, picks nothing
    assert isinstance(s.mode, AttemptMode) and s.mode.group is None
    raw_click(s, 40, 12)  # now Orange's own click picks its group
    assert s.mode.group == "1"


def test_hotseat_a_groups_last_move_hands_the_screen_over(app):
    """(#43) When a group's last stand had moved, the turn went to the other side with no
    hand-over: Blue's next click on "End moves"' spot gave Orange an order."""
    s = small_battle(app, APART, [6, 6, 1, 1, 3, 3, 3, 3, 5], sighting=10)
    _to_movement(s)
    click_at(s, 10, 12)
    key(s, pygame.K_RETURN)  # the order passes (5)
    click_at(s, 10, 12)  # A1: plot its move
    click_at(s, 14, 12)
    key(s, pygame.K_RETURN)  # its group's last (only) stand moves
    b = s.battle
    assert b.to_act == "B" and b.stand("A1").x == 14.0
    assert isinstance(s.mode, CurtainMode) and s.mode.side == "B"


def test_hotseat_a_pass_hands_the_screen_over(app):
    """(#43) A pass in a fire phase hands the screen over too: the other player's click
    cannot act for the one who passed."""
    s = small_battle(app, APART, [6, 6, 1, 1, 3, 3, 3, 3])
    from tests.test_ui import press, to_fire1

    to_fire1(s)
    press(s, "Blue first")
    assert s.battle.to_act == "A" and not isinstance(s.mode, CurtainMode)  # Blue chose itself
    key(s, pygame.K_p)
    assert s.battle.to_act == "B" and isinstance(s.mode, CurtainMode)


def test_against_the_ai_nothing_is_handed_over(app):
    """Against the AI there is nobody to hand the screen to: a failed order goes straight to
    the AI's turn, as before."""
    from game.ai.scripted import ScriptedAI

    sc = parse_scenario(scenario_dict(APART, sighting=10), "test.json")
    b = Battle(sc, 0, dice=FixedDice([6, 6, 1, 1, 3, 3, 3, 3, 20]), auto_pass=False)
    s = BattleScreen(app, b, ai={"B": ScriptedAI(1, "recruit")}, ai_speed=0)
    app.show(s)
    s.act(b.legal_actions()[0])  # Blue's set-up: Ready
    while b.to_act == "B" or b.decision().kind != "move_attempt":
        if b.to_act == "B":
            s.mode.result = None
            s.act(ScriptedAI(1, "recruit").choose(b))
        else:
            s._pass() if b.decision().kind != "choose_first" else s.act(b.legal_actions()[0])
        assert not isinstance(s.mode, CurtainMode)
    click_at(s, 10, 12)
    key(s, pygame.K_RETURN)
    assert b.to_act == "B" and isinstance(s.mode, AIMode)
