"""The first hour (#43), the flow of a battle on the screen as a new player met it in the
trial: the hotseat hand-over after every change of side, what a failed order roll says on the
panel, the lost GHQ, stale status lines, attacks made while the player was not asked, the
WWII posture phase's "the rest fire", and refusals kept in view. Driven on the real battle
screen (dummy video driver)."""

from __future__ import annotations

import pygame
import pytest

from game.rules.actions import ChooseFirst
from game.rules.battle import Battle
from game.rules.dice import FixedDice
from game.rules.files.scenario import parse_scenario
from game.ui.battle import AIMode, AttemptMode, BattleScreen, CurtainMode
from tests.conftest import scenario_dict
from tests.helpers import _to_movement, click_at, key, small_battle

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
    from tests.helpers import press, to_fire1

    to_fire1(s)
    press(s, "Blue first")
    assert s.battle.to_act == "A" and not isinstance(s.mode, CurtainMode)  # Blue chose itself
    key(s, pygame.K_p)
    assert s.battle.to_act == "B" and isinstance(s.mode, CurtainMode)


def ai_acts(s) -> None:
    """The AI (Orange) takes its one action, as its mode would once it has thought."""
    from game.ai.scripted import ScriptedAI

    s.act(ScriptedAI(1, "recruit").choose(s.battle), animate=True)


def ai_battle(app, dice, stands=APART, **kw) -> BattleScreen:
    """Blue against the AI (Orange), on to Blue's first movement attempt: Blue has the
    initiative and acts first; every question before is passed (as a player would)."""
    from game.ai.scripted import ScriptedAI

    sc = parse_scenario(scenario_dict(stands, sighting=10, **kw), "test.json")
    b = Battle(sc, 0, dice=FixedDice(list(dice)), auto_pass=False)
    s = BattleScreen(app, b, ai={"B": ScriptedAI(1, "recruit")}, ai_speed=0)
    app.show(s)
    while b.to_act == "B" or b.decision().kind != "move_attempt":
        assert not isinstance(s.mode, CurtainMode)
        if b.to_act == "B":
            ai_acts(s)
        elif b.decision().kind == "choose_first":
            s.act(ChooseFirst("A", "A"))
        else:
            s.pass_turn()
    return s


def test_against_the_ai_nothing_is_handed_over(app):
    """Against the AI there is nobody to hand the screen to: a failed order goes straight to
    the AI's turn, as before."""
    s = ai_battle(app, [6, 6, 1, 1, 3, 3, 3, 3, 20])
    b = s.battle
    click_at(s, 10, 12)
    key(s, pygame.K_RETURN)
    assert b.to_act == "B" and isinstance(s.mode, AIMode)


# ------------------------------------------------------------------ 1. the order roll told


def test_a_failed_order_is_told_on_the_panel_with_what_it_needed(app):
    """(#43) A failed order was only in the log, and the log said "rolled 20" without what
    was needed: the panel (the hand-over curtain, then the other side's) says what was
    rolled, what was needed and the outcome, with its rule; the log line says what was
    needed too."""
    s = small_battle(app, APART, [6, 6, 1, 1, 3, 3, 3, 3, 20], sighting=10)
    _to_movement(s)
    click_at(s, 10, 12)
    key(s, pygame.K_RETURN)
    told = (
        "<b>Blue group 1 fails its order</b>: rolled 20, needed 17 or less (cohesion 15, "
        "an HQ in the group -2) (000 08.02.05)"
    )
    assert isinstance(s.mode, CurtainMode) and told in s._panel_text
    key(s, pygame.K_SPACE)
    assert isinstance(s.mode, AttemptMode) and told in s._panel_text  # Orange reads it too
    assert "Blue group 1 fails to move (ordered, rolled 20, needed 17 or less)." in s.log_lines


def test_against_the_ai_your_own_failed_order_stays_told_after_the_ai_acts(app):
    """(#43) Against the AI the panel dropped back to "Click a stand to pick its battle
    group" with no word of the failure: after the AI's own movement action the player's
    panel still says what his order rolled and needed, and what the AI's attempt did."""
    s = ai_battle(app, [6, 6, 1, 1, 3, 3, 3, 3, 20, 19])
    click_at(s, 10, 12)
    key(s, pygame.K_RETURN)  # rolled 20: fails; the AI's turn
    assert isinstance(s.mode, AIMode) and "Blue group 1 fails its order" in s._panel_text
    while s.battle.to_act == "B":
        ai_acts(s)
    assert s.battle.to_act == "A" and isinstance(s.mode, AttemptMode)
    assert "Blue group 1 fails its order</b>: rolled 20, needed 17 or less" in s._panel_text
    assert "<b>Orange group 1 fails its order</b>: rolled 19" in s._panel_text


# ------------------------------------------------------------------ 3. the GHQ


GHQ_AT_RISK = [
    ("A1", "A", "T-72", 10, 12, 0),
    ("A2", "A", "T-72", 10, 20, 0, {"ghq": True}),
    ("B1", "B", "M1A2 Abrams", 20, 20, 180),
]
"""Blue's GHQ A2 in the sight of an Abrams (TL4: it fires in the 1st fire phase)."""


def test_set_up_and_the_unit_card_say_what_the_ghq_is_for(app):
    """(#43) "Blue has lost its GHQ: no movement orders" was the first the player heard of
    it: the set-up panel names the side's GHQ and what losing it costs, and its unit card
    says so too."""
    s = small_battle(app, GHQ_AT_RISK, [6, 6, 1, 1])
    assert "Your GHQ is <b>T-72\u2002A2</b>" in s._panel_text  # name and id: an en space
    assert "gets no movement orders" in s._panel_text and "(000 08.02.02)" in s._panel_text
    lines = s.info.unit_card_lines("A2")
    assert "GHQ: without it the side gets no movement orders (000 08.02.02)." in lines
    assert not any("without it" in line for line in s.info.unit_card_lines("A1"))


def test_with_the_ghq_lost_the_movement_panel_says_so_not_a_roll_that_was_never_made(app):
    """(#43) After the GHQ was eliminated the movement panel said "this phase's orders roll,
    1, gave none", though nothing was rolled (the log's orders line has no dice): it now
    says the side has lost its GHQ, with the rule."""
    from game.rules.actions import Fire, Pass
    from tests.helpers import press

    sc = parse_scenario(scenario_dict(GHQ_AT_RISK), "test.json")
    b = Battle(sc, 0, dice=FixedDice([6, 6, 1, 1, 1, 6, 6, 3, 3]))  # automatic passes
    s = BattleScreen(app, b)
    app.show(s)
    press(s, "Ready")
    press(s, "Ready")
    assert b.decision().kind == "fire" and b.to_act == "B"  # only the Abrams can fire
    s.act(Fire("B", "A2", ("B1",), ("cannon",)))
    assert b.stand("A2").eliminated
    for _ in range(8):
        key(s, pygame.K_SPACE)  # lift a hand-over curtain, if any
        if b.decision().kind == "move_attempt" and b.to_act == "A":
            break
        if b.decision().kind == "choose_first":
            press(s, f"{s.short_name(b.to_act)} first")
        else:
            s.act(Pass(b.to_act))
    assert isinstance(s.mode, AttemptMode) and b.state.orders["A"] == 0
    assert "Orders left: 0. Blue has lost its GHQ: no more movement orders (000 08.02.02)." in (
        s._panel_text
    )
    assert "orders roll" not in s._panel_text


# ------------------------------------------------------------------ 11. stale status lines


def test_the_ais_acted_line_goes_when_a_new_phase_asks_a_new_question(app):
    """(#43) "Orange has acted: your turn." sat under "Who acts first?" after the AI's
    set-up: the line is kept for an answer within the same phase, not for a new question."""
    from game.ai.scripted import ScriptedAI

    sc = parse_scenario(scenario_dict(APART, sighting=10), "test.json")
    b = Battle(sc, 0, dice=FixedDice([6, 6, 1, 1, 3, 3, 3, 3, 19, 19]), auto_pass=False)
    s = BattleScreen(app, b, ai={"B": ScriptedAI(1, "recruit")}, ai_speed=0)
    app.show(s)
    s.pass_turn()  # Blue's set-up: Ready; then the AI's
    ai_acts(s)
    assert b.decision().kind == "choose_first" and b.to_act == "A"
    assert "has acted" not in s._panel_text
    s = ai_battle(app, [6, 6, 1, 1, 3, 3, 3, 3, 20, 19])
    click_at(s, 10, 12)
    key(s, pygame.K_RETURN)  # Blue's order fails; the AI answers in the same phase
    while s.battle.to_act == "B":
        ai_acts(s)
    assert s.battle.state.phase == "movement" and isinstance(s.mode, AttemptMode)
    assert "Orange has acted: your turn." in s._panel_text
