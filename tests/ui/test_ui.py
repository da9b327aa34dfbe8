"""The battle screen's input states, driven by synthetic pygame events (dummy video driver)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pygame
import pygame_gui
import pytest

from game.rules.actions import EndMoves, Move, Regroup
from game.rules.battle import Battle
from game.rules.dice import FixedDice
from game.rules.files.scenario import load_scenario, parse_scenario
from game.ui.battle import (
    AttemptMode,
    BattleScreen,
    ChooseFirstMode,
    CoveringMode,
    CurtainMode,
    EndMode,
    FireMode,
    OpportunityMode,
    PickMoverMode,
    PlotMode,
    PostureMode,
)
from game.ui.battle.layout import AMBER
from game.ui.menu import MenuScreen
from game.ui.render import View
from game.ui.table_view import POSTURE_BADGE
from tests.conftest import scenario_dict
from tests.helpers import (
    _to_movement,
    click_at,
    frames_until_worked,
    key,
    lift_curtain,
    press,
    small_battle,
    to_fire1,
)
from tests.helpers import ui_STANDS as STANDS

ROOT = Path(__file__).resolve().parents[2]


pytestmark = pytest.mark.usefixtures("data_dir")  # saves and logs go to a temporary folder


def test_setup_regroup_by_click_and_digit(app):
    s = small_battle(app, STANDS, [6, 6, 1, 1])
    click_at(s, 10, 14)
    key(s, pygame.K_3)
    assert s.battle.stand("A2").group == "3"
    to_fire1(s)
    assert s.battle.state.phase == "fire1"


def test_pass_with_the_keyboard_and_choose_first_with_buttons(app):
    s = small_battle(app, STANDS, [6, 6, 1, 1, 3, 3, 3, 3])
    to_fire1(s)
    press(s, "Orange first")
    lift_curtain(s)  # hotseat: Blue hands the screen to Orange (#43)
    assert s.battle.to_act == "B" and isinstance(s.mode, FireMode)
    key(s, pygame.K_p)
    key(s, pygame.K_p)
    assert s.battle.state.phase == "fire2"


def test_fire_designation_shows_lines_and_odds_then_fires(app):
    s = small_battle(app, STANDS, [6, 6, 1, 1, 5, 3, 4])
    to_fire1(s)
    press(s, "Blue first")
    key(s, pygame.K_p)
    key(s, pygame.K_p)
    press(s, "Blue first")
    click_at(s, 30, 12)  # the target
    assert isinstance(s.mode, FireMode) and s.mode.target == "B1"
    assert set(s.mode.options) == {"A1", "A2"}
    click_at(s, 10, 12)  # an attacker
    assert s.mode.attackers == ["A1"]
    assert "Chance to eliminate" in s._panel_text
    s.draw(app.surface)  # lines of sight and the target outline draw without error
    key(s, pygame.K_RETURN)
    fires = [e for e in s.battle.log.events if e["event"] == "fire"]
    assert len(fires) == 1 and fires[0]["attacker"] == "A1"
    assert s.battle.to_act == "B"
    assert any("fires at" in line for line in s.log_lines)


def test_illegal_choice_shows_the_reason_and_changes_nothing(app):
    s = small_battle(
        app,
        [*STANDS, ("B2", "B", "T-72", 20, 30, 180)],
        [6, 6, 1, 1],
        depth=36,
        terrain=[("woods", (14, 20, 26, 34))],
    )
    to_fire1(s)
    press(s, "Blue first")
    key(s, pygame.K_p)
    key(s, pygame.K_p)
    press(s, "Blue first")
    click_at(s, 20, 30)
    click_at(s, 10, 12)
    assert s.mode.attackers == []
    assert "line of sight" in s.message


def test_passing_with_stands_waiting_to_enter_shows_why_and_changes_nothing(app):
    stands = [("A1", "A", "T-72", 0, 12, 0, {"on_table": False}), *STANDS[2:]]
    s = small_battle(app, stands, [6, 6, 1, 1, 3, 3, 3, 3])
    _to_movement(s)
    assert "Waiting to enter: group 1 (A1)" in s._panel_text
    assert not any(b.text.startswith("Pass") for b, _ in s._buttons)
    key(s, pygame.K_p)
    assert "still has stands waiting to enter" in s.message
    assert s.battle.state.phase == "movement" and s.battle.to_act == "A"
    s.draw(app.surface)


def test_select_attempt_plot_and_commit_a_move(app):
    # initiative, orders 3+3 / 3+3, the group's roll 5
    s = small_battle(app, STANDS, [6, 6, 1, 1, 3, 3, 3, 3, 5], terrain=[("woods", (14, 0, 16, 8))])
    _to_movement(s)
    click_at(s, 10, 12)
    assert s.mode.group == "1"
    key(s, pygame.K_RETURN)
    assert isinstance(s.mode, PickMoverMode)
    click_at(s, 10, 14)
    assert isinstance(s.mode, PlotMode)
    click_at(s, 14, 18)  # a waypoint
    s.handle(
        pygame.event.Event(
            pygame.MOUSEMOTION,
            pos=tuple(int(v) for v in s.tv.to_px(18, 18)),
            rel=(0, 0),
            buttons=(0, 0, 0),
        )
    )
    assert s.mode.walk is not None and s.mode.walk.mp_spent > 4
    assert "Movement points" in s._panel_text
    key(s, pygame.K_BACKSPACE)  # undo the waypoint
    assert s.mode.points == [(10, 14)]
    click_at(s, 10.2, 20)
    key(s, pygame.K_q)  # turn the end facing 15 degrees left
    key(s, pygame.K_RETURN)
    moves = [e for e in s.battle.log.events if e["event"] == "move"]
    assert len(moves) == 1 or isinstance(s.mode, CurtainMode)


def _move_into_sight(app, dice):
    s = small_battle(
        app,
        [("A1", "A", "T-72", 10, 12, 0), ("B1", "B", "T-72", 26, 15, 180)],
        [6, 6, 1, 1, 3, 3, 3, 3, 5, *dice],
    )
    _to_movement(s)
    click_at(s, 10, 12)
    key(s, pygame.K_RETURN)
    click_at(s, 10, 12)
    click_at(s, 20, 12)
    key(s, pygame.K_RETURN)
    return s


def test_opportunity_fire_prompt_declined(app):
    s = _move_into_sight(app, [])
    assert isinstance(s.mode, CurtainMode) and s.mode.side == "B"
    assert not s.pass_button.is_enabled and not s.save_button.is_enabled  # behind the curtain
    s.draw(app.surface)
    click_at(s, 5, 5)  # the curtain lifts
    assert isinstance(s.mode, OpportunityMode)
    assert s.pass_button.is_enabled and s.save_button.is_enabled
    key(s, pygame.K_l)  # let it pass
    moves = [e for e in s.battle.log.events if e["event"] == "move"]
    assert moves[-1]["path"][-1] == [20.0, 12.0]
    # A's group had no one else to move, so it is B's movement action next: no hand-back
    assert s.battle.to_act == "B" and isinstance(s.mode, AttemptMode)


def test_opportunity_fire_prompt_accepted(app):
    s = _move_into_sight(app, [5, 6, 6, 9])
    click_at(s, 5, 5)
    click_at(s, 15, 12)  # the point of the path to stop it at
    assert s.mode.step == 10 and s.mode.firers == ["B1"]
    assert "Chance to eliminate" in s._panel_text
    key(s, pygame.K_RETURN)
    fire = [e for e in s.battle.log.events if e["event"] == "fire"][0]
    assert fire["kind"] == "opportunity" and fire["target_pos"][:2] == [15.0, 12.0]


def test_save_with_ctrl_s_and_load_it_back(app, tmp_path):
    s = small_battle(app, STANDS, [6, 6, 1, 1])
    s.save_dir = tmp_path
    press(s, "Ready")
    lift_curtain(s)  # hotseat: Blue hands the screen to Orange (#43)
    key(s, pygame.K_s, mod=pygame.KMOD_CTRL)  # asks for a name, the default offered
    assert s.saving.entry.get_text() == "test-seed0-turn0" and not list(tmp_path.glob("*.json"))
    key(s, pygame.K_p)  # typed into the name, not a pass
    assert s.battle.state.turn == 0
    s.saving.entry.set_text("my battle")
    key(s, pygame.K_RETURN)
    saved = list(tmp_path.glob("*.json"))
    assert [p.name for p in saved] == ["my battle.json"] and not s.saving.dialog.alive()
    assert s.message == ""  # a confirmation is not a refusal
    from game.ui.logtext import path_html

    assert f"Saved as {saved[0].name} in<br>{path_html(tmp_path)}" == s.notice
    assert "#2a7a2a" in s._panel_text  # good news in green
    # the folder is cut only at its separators, never inside a name
    assert "".join(s.notice.split("<br>")[1:]) == str(tmp_path)
    doc = json.loads(saved[0].read_text())
    assert [a["kind"] for a in doc["actions"]] == ["pass"]


def test_help_overlay_toggles(app):
    s = small_battle(app, STANDS, [6, 6, 1, 1])
    key(s, pygame.K_F1)
    assert s.overlays.help
    s.draw(app.surface)
    key(s, pygame.K_ESCAPE)
    assert not s.overlays.help


def test_camera_zoom_pan_and_fit(app):
    s = small_battle(app, STANDS, [6, 6, 1, 1])
    scale = s.tv.view.scale
    s.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(300, 300), rel=(0, 0), buttons=(0, 0, 0)))
    s.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=2, flipped=False))
    assert s.tv.view.scale > scale
    key(s, pygame.K_LEFT)
    key(s, pygame.K_f)  # F fits the whole table (it opens zoomed to 20 px stands: #43)
    fitted = View.fit(s.battle.table.width, s.battle.table.depth, s.tv.rect)
    assert s.tv.view.scale == pytest.approx(fitted.scale) and fitted.scale < scale


def test_a_whole_hotseat_battle_with_the_keyboard_reaches_the_end_screen(app, data_dir):
    """Menu -> New battle -> every phase passed with P and Enter -> the end screen. (The
    skirmish: its stands start on the table; on the meeting they would first have to enter.)"""
    menu = MenuScreen(app)
    app.show(menu)
    menu.chosen = ROOT / "maps" / "modern-skirmish.json"
    menu.seed.set_text("7")
    menu.handle(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=menu.new_button))
    s = app.screen
    assert isinstance(s, BattleScreen)
    for _ in range(2000):
        if s.battle.finished:
            break
        if isinstance(s.mode, ChooseFirstMode):
            key(s, pygame.K_RETURN) if False else press(s, s._buttons[0][0].text)
        else:
            key(s, pygame.K_p)
        s.update(0.016)
    assert s.battle.finished and isinstance(s.mode, EndMode)
    s.draw(app.surface)
    assert (data_dir / "autosave.json").exists()
    assert s.battle.state.turn == 8
    press(s, "Save the log")
    assert list((data_dir / "logs").glob("*.jsonl"))
    press(s, "Main menu")
    assert isinstance(app.screen, MenuScreen)


def test_every_screen_draws_under_the_dummy_driver(app):
    app.show(MenuScreen(app))
    app.screen.update(0.016)
    app.screen.draw(app.surface)
    b = Battle(load_scenario(ROOT / "maps" / "modern-meeting.json"), 1)
    s = BattleScreen(app, b)
    app.show(s)
    for _ in range(3):
        s.update(0.016)
        s.draw(app.surface)


def test_hover_reads_out_stands_and_terrain(app):
    s = small_battle(app, STANDS, [6, 6, 1, 1], terrain=[("woods", (20, 2, 24, 6))])
    assert s.overlays.hover_text(tuple(int(v) for v in s.tv.to_px(10, 12))).startswith(
        "Blue: T-72 A1, group 1, GHQ"
    )
    assert "woods" in s.overlays.hover_text(tuple(int(v) for v in s.tv.to_px(22, 4)))


def test_window_resize_lays_the_screen_out_again(app):
    s = small_battle(app, STANDS, [6, 6, 1, 1])
    app.handle(pygame.event.Event(pygame.VIDEORESIZE, size=(1000, 700), w=1000, h=700))
    assert s.tv.rect.size == (1000 - 360, 700 - 44)
    press(s, "Ready")
    s.draw(app.surface)


def test_menu_starts_a_battle_against_the_ai(app):
    menu = MenuScreen(app)
    app.show(menu)
    menu.chosen = ROOT / "maps" / "modern-skirmish.json"
    menu.handle(
        pygame.event.Event(
            pygame_gui.UI_DROP_DOWN_MENU_CHANGED,
            text="Against the AI: you command the first force",
            ui_element=menu.players,
        )
    )
    menu.players.selected_option = (
        "Against the AI: you command the first force",
        "Against the AI: you command the first force",
    )
    menu.level.selected_option = ("AI level: recruit", "AI level: recruit")
    menu.handle(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=menu.new_button))
    s = app.screen
    assert isinstance(s, BattleScreen)
    assert s.battle.meta["ai"] == {"B": "recruit"}
    assert s.ai["B"].level.name == "recruit"


@pytest.mark.parametrize(
    ("spent", "text"),
    [(0.176505, "for 0.2 of 12 MP"), (12.0, "for 12.0 of 12 MP"), (4.5, "for 4.5 of 12 MP")],
)
def test_the_log_panel_rounds_the_movement_points_a_move_spent(spent, text):
    """The log keeps the exact points (000 09.00); the panel shows them to 0.1 MP, as the
    distance beside them (#43)."""
    from game.ui.logwords import describe

    ev = {
        "event": "move",
        "stand": "A6",
        "path": [[1.0, 1.0], [1.1, 1.0]],
        "mp_spent": spent,
        "mp_allowed": 12,
        "stopped_by": None,
        "entered": False,
    }
    assert text in describe(ev, {"A6": "T-80U A6"}, {"A": "Force 1"})


def test_wwii_postures_by_click_and_covering_fire_by_button(app):
    """001 5.0 step 2, 7.5: A picks A1 and A2 (touching) as a movement group by clicking them;
    A4 stays to fire. A1 drives at B1, B1 opportunity-fires (no effect), the screen goes back to
    A, who answers with covering fire from A4, and A1 goes on."""
    pz, sherman = "Pz IIIJ-M", 'M4 "Sherman"'
    d = scenario_dict(
        [
            ("A1", "A", pz, 10, 12, 0),
            ("A2", "A", pz, 11, 12, 0),
            ("A4", "A", pz, 20, 6, 0),
            ("B1", "B", sherman, 30, 12, 180),
        ],
        cohesion=(15, 14),
        generation=(None, None),
        sighting=20,
    )
    d["ruleset"] = "wwii"
    b = Battle(
        parse_scenario(d, "test.json"), 0, dice=FixedDice([6, 1, 3, 3, 3, 3, 5, 5, 6, 6, 12, 1, 1])
    )
    s = BattleScreen(app, b)
    app.show(s)
    to_fire1(s)
    press(s, "Blue first")
    assert isinstance(s.mode, PostureMode)
    click_at(s, 10, 12)
    click_at(s, 11, 12)
    assert s.mode.picked == ["A1", "A2"] and "Declare group" in [x.text[:13] for x, _ in s._buttons]
    s.draw(app.surface)
    key(s, pygame.K_RETURN)
    assert b.stand("A1").posture == "movement" and b.to_act == "B"
    assert "movement group M1" in " ".join(s.log_lines)
    key(s, pygame.K_p)  # B: all its stands fire
    key(s, pygame.K_p)  # A: done, A4 fires
    assert b.state.phase == "fire" and b.stand("A4").posture == "firing"
    press(s, "Blue first")
    key(s, pygame.K_p)
    key(s, pygame.K_p)
    press(s, "Blue first")  # movement
    assert "pick its movement group" in s._panel_text  # not a battle group (001 5.0)
    click_at(s, 10, 12)
    key(s, pygame.K_RETURN)  # ordered attempt of M1: 5 passes
    assert isinstance(s.mode, PickMoverMode)
    b.apply(Move("A", "A1", ((10, 12), (18, 12)), 0.0))
    s.set_mode(s.mode_for_state())
    assert isinstance(s.mode, OpportunityMode)
    click_at(s, 14, 12)
    key(s, pygame.K_RETURN)  # B1 fires at step 8: 5 passes, 6+6+3: no effect
    assert isinstance(s.mode, CurtainMode) and s.mode.side == "A"
    click_at(s, 5, 5)
    assert isinstance(s.mode, CoveringMode)
    s.draw(app.surface)
    odds = b.odds(["A4"], "B1", ["cannon"], kind="covering")
    effect = f"{1 - odds['final']['unchanged']:.0%}"  # the engine's odds
    assert f"B1 <- A4: {effect}" in [x.text for x, _ in s._buttons]
    assert odds["final"]["unchanged"] < 0.9
    assert f"{effect} chance of any effect, {odds['p_eliminated']:.0%} to eliminate" in (
        s._panel_text
    )
    press(s, "B1 <- A4")  # 12 + 3 = 15 passes; 1+1+2 = 4 at -1: (S)
    cf = [e for e in b.log.events if e["event"] == "fire"][-1]
    assert cf["kind"] == "covering" and cf["result"] == "S"
    assert b.stand("A1").x == 18.0 and b.state.covering is None
    assert "covering fire" in " ".join(s.log_lines)


def _a1_declared_to_move(app, b1_x, dice):
    """A WWII battle on screen: A1 (10, 12) and A4 (20, 6) against B1 at (``b1_x``, 12) facing
    them; Blue has the initiative (``dice`` start 6-1) and has just clicked A1 into a movement
    group (001 5.0 step 2)."""
    pz, sherman = "Pz IIIJ-M", 'M4 "Sherman"'
    d = scenario_dict(
        [
            ("A1", "A", pz, 10, 12, 0),
            ("A4", "A", pz, 20, 6, 0),
            ("B1", "B", sherman, b1_x, 12, 180),
        ],
        cohesion=(15, 14),
        generation=(None, None),
        sighting=20,
    )
    d["ruleset"] = "wwii"
    b = Battle(parse_scenario(d, "test.json"), 0, dice=FixedDice(list(dice)), auto_pass=False)
    s = BattleScreen(app, b)
    app.show(s)
    to_fire1(s)
    press(s, "Blue first")
    click_at(s, 10, 12)
    key(s, pygame.K_RETURN)
    return s


def test_a_wwii_stand_in_the_movement_posture_wears_an_m_badge(app):
    """001 5.0 step 2: a stand declared into a movement group will not fire this turn, so its
    token wears an "M" badge; a stand left in the firing posture does not."""
    s = _a1_declared_to_move(app, b1_x=30, dice=[6, 1])
    b = s.battle
    assert b.stand("A1").posture == "movement" and b.stand("A4").posture != "movement"
    lift_curtain(s)  # hotseat: Blue has handed the screen to Orange (#43)
    s.draw(app.surface)

    def badge_pixel(sid):  # inside the first badge, left of its letter
        drawn = s.tv.badges_drawn.get(sid)
        if not drawn:
            return None
        x, y, r, _ = drawn[0]
        return tuple(app.surface.get_at((round(x) - r + 3, round(y))))[:3]

    assert badge_pixel("A1") == POSTURE_BADGE
    assert badge_pixel("A4") != POSTURE_BADGE


def test_plotting_through_an_enemy_stand_shows_the_nerve_roll(app):
    """001 8.3.6: a path through an enemy stand and on shows where the stand will stop and the
    engine's chance of its nerve roll; after the move, the log panel reads the roll out."""
    # initiative 6-1, orders 3+3 each side, A1's ordered roll 5, its nerve roll 12
    s = _a1_declared_to_move(app, b1_x=14, dice=[6, 1, 3, 3, 3, 3, 5, 12])
    b = s.battle
    key(s, pygame.K_p)  # B declares nothing
    key(s, pygame.K_p)
    press(s, "Blue first")  # fire phase: nobody fires
    key(s, pygame.K_p)
    key(s, pygame.K_p)
    press(s, "Blue first")  # movement
    click_at(s, 10, 12)
    key(s, pygame.K_RETURN)
    click_at(s, 10, 12)
    assert isinstance(s.mode, PlotMode)
    click_at(s, 18, 12)
    enemy, chance = b.pass_through_at("A1", ((10, 12), (18, 12)))
    assert (enemy, chance) == ("B1", 0.6)
    assert "a nerve roll (cohesion +3) to pass through, 60%" in s._panel_text
    s.draw(app.surface)  # an amber ring where it will stop to roll, 1" short of B1
    cx, cy = (int(v) for v in s.tv.to_px(13.0, 12.0))
    r = max(10, int(s.tv.view.scale * 0.9))
    assert tuple(app.surface.get_at((cx + r - 1, cy)))[:3] == AMBER
    key(s, pygame.K_RETURN)
    for _ in range(6):  # B lets each part of the move go by
        if isinstance(s.mode, CurtainMode):
            click_at(s, 5, 5)
        elif isinstance(s.mode, OpportunityMode):
            key(s, pygame.K_l)
    assert b.stand("A1").x == 18.0
    assert any("nerve roll 12, total 15 against 15, passes" in line for line in s.log_lines)


def test_the_menu_names_a_scenario_error_not_the_seed(app, tmp_path):
    """A broken scenario chosen in the menu reports its own problem (ScenarioError is a
    ValueError; it was caught as a bad seed)."""
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "hulldown-scenario/1"}')
    menu = MenuScreen(app)
    app.show(menu)
    menu.chosen = bad
    menu.seed.set_text("7")
    menu.start_new()
    assert "bad.json" in menu.message and "seed" not in menu.message


def test_the_menu_button_asks_before_leaving_a_battle_under_way(app):
    left = []
    sc = parse_scenario(
        scenario_dict([("A1", "A", "T-72", 10, 12, 0), ("B1", "B", "T-72", 30, 12, 180)]), "t.json"
    )
    s = BattleScreen(
        app, Battle(sc, 0, dice=FixedDice([6, 6, 1, 1])), on_menu=lambda: left.append(1)
    )
    app.show(s)
    s.handle(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=s.menu_button))
    assert left == [] and "not saved" in s.saving.leave_dialog.confirmation_text.html_text
    s.handle(
        pygame.event.Event(
            pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED, ui_element=s.saving.leave_dialog
        )
    )
    assert left == [1]


def test_the_banner_tracks_victory_and_b_shows_how_to_win(app):
    """Kills so far against kills needed, from the engine (seed sheets: 51% of the enemy,
    losing at most 50%)."""
    b = Battle(load_scenario(ROOT / "maps" / "modern-skirmish.json"), 3)
    s = BattleScreen(app, b)
    app.show(s)
    b.stand("B2").eliminated = True
    assert s.banner_text().endswith("kills: Blue 1/2, Orange 0/2")
    key(s, pygame.K_b)
    assert s.info.show_briefing
    lines = s.info.briefing_lines()
    assert lines[0] == "Modern skirmish"
    assert any(
        "destroying 2 of the enemy's 3 stands" in t and "at most 1 of its 3" in t for t in lines
    )
    s.draw(app.surface)
    key(s, pygame.K_ESCAPE)
    assert not s.info.show_briefing


def test_right_click_shows_a_unit_card_from_the_data_table(app):
    b = Battle(load_scenario(ROOT / "maps" / "modern-skirmish.json"), 3)
    s = BattleScreen(app, b)
    app.show(s)
    a1 = b.stand("A1")
    click_at(s, a1.x, a1.y, button=3)
    assert s.info.card == "A1"
    lines = s.info.unit_card_lines("A1")
    u = a1.unit
    assert lines[0].startswith("Leopard-IIA6\u2002A1")  # en space (#43)
    assert f"defence: front {u.defense}, flank or rear {-(-u.defense // 2)}" in lines
    assert f"movement points this phase: {b.movement_points('A1'):.1f}" in lines
    s.draw(app.surface)
    names = [n for _, n in s.info.legend_entries()]
    assert "Light buildings" in names and "Good road" in names


def test_plotting_shows_who_could_opportunity_fire_along_the_path(app):
    """The threat preview (#24): the plotting panel and the dots on the path come from the
    engine's own offer for that path, before the move is committed."""
    s = small_battle(
        app,
        [("A1", "A", "T-72", 10, 12, 0), ("B1", "B", "T-72", 26, 15, 180)],
        [6, 6, 1, 1, 3, 3, 3, 3, 5],
    )
    _to_movement(s)
    click_at(s, 10, 12)
    key(s, pygame.K_RETURN)
    click_at(s, 10, 12)
    click_at(s, 20, 12)
    assert isinstance(s.mode, PlotMode)
    preview = s.battle.threat_preview("A1", [(10, 12), (20, 12)], 0.0)
    assert s.mode.threat["offer"] == preview["offer"] and preview["offer"]
    assert "Opportunity fire: 1 enemy stand could fire" in s._panel_text
    assert "Where it ends: seen by T-72\u2002B1 (" in s._panel_text
    s.draw(app.surface)


@pytest.mark.parametrize(
    ("start", "end", "clear", "words"),
    [
        ((10, 12), (30, 12), True, "in sight"),  # from A1 to a point: 20" clear
        ((10, 12), (30, 20), False, "woods"),  # through the wood
    ],
)
def test_the_ruler_reads_the_engines_line_of_sight(app, start, end, clear, words):
    s = small_battle(
        app,
        [("A1", "A", "T-72", 10, 12, 0), ("B1", "B", "T-72", 40, 4, 180)],
        [6, 6, 1, 1],
        terrain=[("woods", (18, 14, 22, 18))],
    )
    key(s, pygame.K_m)
    px = [int(round(v)) for v in s.tv.to_px(*start)]
    qx = [int(round(v)) for v in s.tv.to_px(*end)]
    s.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=px, button=1))
    s.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=qx, rel=(0, 0), buttons=(1, 0, 0)))
    s.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=qx, button=1))
    assert s.ruler.reading["observer"] == "A1"
    x1, y1 = s.ruler.reading["b"]
    want = s.battle.line_of_sight(10, 12, x1, y1, "A1")
    assert s.ruler.reading["sight"] == want and want.clear is clear
    assert words in s.ruler.text() and s.ruler.text().startswith(f'{want.range_in:.1f}"')
    s.draw(app.surface)
    key(s, pygame.K_ESCAPE)
    assert not s.ruler.on


def test_the_end_screen_replays_the_battle_and_comes_back(app):
    from game.check.corpus import CORPUS_DIR
    from game.ui.replay import ReplayScreen

    b = Battle.load(CORPUS_DIR / "modern-skirmish-s1-random-random.save.json")
    s = BattleScreen(app, b)
    app.show(s)
    assert isinstance(s.mode, EndMode)
    press(s, "Replay")
    assert isinstance(app.screen, ReplayScreen) and app.screen.replay.length == len(b.actions)
    app.screen.back()
    assert app.screen is s


def test_open_file_checks_the_scenario_at_once(app, tmp_path):
    menu = MenuScreen(app)
    app.show(menu)
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    menu.pick_scenario(bad)
    assert menu.chosen != bad and "bad.json" in menu.message
    menu.pick_scenario(ROOT / "maps" / "wwii-meeting.json")
    assert menu.chosen == ROOT / "maps" / "wwii-meeting.json"
    assert "WWII meeting engagement (wwii-meeting.json: wwii" in menu.message
    # the drop-down shows the file picked, and choosing it there gives the same file
    # (by its title and ruleset since #43)
    assert menu.scenario_menu.selected_option[0] == "WWII meeting engagement (WWII, introductory)"
    elsewhere = tmp_path / "wwii-meeting.json"  # another file of the same name
    elsewhere.write_text((ROOT / "maps" / "wwii-meeting.json").read_text())
    menu.pick_scenario(elsewhere)
    label = menu.scenario_menu.selected_option[0]
    assert label.endswith(f"wwii-meeting.json in {tmp_path.name}")
    assert menu._labels[label] == elsewhere


def test_the_log_panel_tells_a_setup_regroup(app):
    from game.ui.logwords import describe

    s = small_battle(app, STANDS, [6, 6, 1, 1])
    ev = s.battle.apply(Regroup("A", "A1", "2"))[0]
    assert (
        describe(ev, s.names, s.sides) == f"Blue puts {s.names['A1']}, its GHQ in battle group 2."
    )


def test_f12_saves_a_screenshot_to_the_pictures_folder(app, tmp_path, monkeypatch):
    import platformdirs

    monkeypatch.setattr(platformdirs, "user_pictures_dir", lambda: str(tmp_path / "Pictures"))
    s = small_battle(app, STANDS, [6, 6, 1, 1])
    s.draw(app.surface)
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F12, mod=0, unicode=""))
    (shot,) = (tmp_path / "Pictures").glob("hulldown-*.png")
    assert pygame.image.load(str(shot)).get_size() == (1280, 800)
    assert app.toast[0] == f"Screenshot saved: {shot}"


def test_settings_are_kept_and_used(app, data_dir):
    """The settings screen (#24 item 8): labels larger, the colour-blind palette, the AI's
    speed; saved atomically, used at once, read back by the next window; a broken file gives
    the defaults and says why."""
    from game.settings import PALETTES, load_settings
    from game.ui.battle.layout import PAL
    from game.ui.settings_screen import SettingsScreen
    from game.ui.table_view import UI

    menu = MenuScreen(app)
    app.show(menu)
    menu.handle(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=menu.settings_button))
    s = app.screen
    assert isinstance(s, SettingsScreen)
    for menu_widget, (field, _) in s.menus.items():
        text = {
            "ui_scale": "largest",
            "palette": "colour-blind safe",
            "ai_speed": "not shown",
            "table_style": "painted",  # #46: tests/ui/test_painted_terrain.py tries the others
            "stand_style": "models",
            "enemy_attacks": "stop on each",
            "ai_thinking": "long (10 s a turn)",
        }
        s.handle(
            pygame.event.Event(
                pygame_gui.UI_DROP_DOWN_MENU_CHANGED, ui_element=menu_widget, text=text[field]
            )
        )
    s.draw(app.surface)
    s.save()
    assert isinstance(app.screen, MenuScreen)
    assert UI["scale"] == 2.0 and PAL.clear == PALETTES["colour-blind safe"]["clear"]
    saved, problem = load_settings()
    assert (saved.ui_scale, saved.palette, saved.ai_speed, saved.ai_thinking, problem) == (
        2.0,
        "colour-blind safe",
        0.0,
        "long",
        "",
    )
    (data_dir / "settings.json").write_text('{"ui_scale": 9}')
    defaults, problem = load_settings()
    assert defaults.ui_scale == 1.25 and "ui_scale" in problem and "defaults" in problem
    app.apply_settings(defaults)


def test_the_fire_panel_counts_the_stands_that_can_fire(app):
    """#24: "3 of your stands may fire" was said when none could see a target: the count now
    comes from the engine's legal shots."""
    s = small_battle(
        app,
        [("A1", "A", "M1A2 Abrams", 10, 12, 0), ("B1", "B", "T-72", 30, 12, 180)],
        [6, 6, 1, 1],
        terrain=[("woods", (18, 8, 22, 16))],  # a wood between: no shot
    )
    press(s, "Ready")
    press(s, "Ready")
    press(s, "Blue first")
    frames_until_worked(s)
    assert "None of your stands can fire at an enemy stand now" in s._panel_text


def test_the_fire_phase_counts_its_shots_after_the_landing_frame(app, monkeypatch):
    """#30: entering the fire phase worked out every legal shot (a whole sight matrix) in the
    frame where the action landed; it now starts on the next frame, in a worker that asks the
    battle's twin (its own geometries: two threads building one GEOS index crashed), and the
    panel says so until the count arrives."""
    s = small_battle(app, STANDS, [6, 6, 1, 1])
    calls = []
    real = Battle.fire_options

    def recorded(battle):
        calls.append((threading.current_thread(), battle))
        return real(battle)

    monkeypatch.setattr(Battle, "fire_options", recorded)
    press(s, "Ready")
    press(s, "Ready")
    press(s, "Blue first")  # the landing frame: only the engine's apply and the new mode
    s.update(1 / 60)
    s.draw(s.app.surface)
    assert calls == [] and "Working out which of your stands can fire" in s._panel_text
    assert frames_until_worked(s) >= 1
    [(thread, asked)] = calls
    assert thread is not threading.main_thread()
    assert asked is not s.battle and asked.state is s.battle.state
    assert asked.table is not s.battle.table  # its own geometries
    shots = real(s.battle)
    firers = {fs.attacker for setups in shots.values() for fs in setups}
    said = (
        f"{len(firers)} of your stands can fire at {len(shots)} enemy"
        if firers
        else "None of your stands can fire at an enemy stand now"
    )
    assert said in s._panel_text and "Working out" not in s._panel_text


def test_an_action_waits_for_the_worker_before_changing_the_battle(app):
    s = small_battle(app, STANDS, [6, 6, 1, 1])
    press(s, "Ready")
    press(s, "Ready")
    press(s, "Blue first")
    s.update(1 / 60)
    s.update(1 / 60)  # the worker has started
    assert s.work._worker is not None
    press(s, "Pass")  # settles the worker first, then applies
    assert s.work._worker is None and s.battle.state.passes


def test_who_goes_first_is_told_in_the_log_panel(app):
    s = small_battle(app, STANDS, [6, 6, 1, 1])
    press(s, "Ready")
    press(s, "Ready")
    press(s, "Orange first")
    assert "Blue lets Orange act first." in s.log_lines


def test_a_side_that_acts_first_itself_chooses_to(app):
    s = small_battle(app, STANDS, [6, 6, 1, 1])
    press(s, "Ready")
    press(s, "Ready")
    press(s, "Blue first")
    assert "Blue chooses to act first." in s.log_lines


def test_ctrl_s_does_nothing_where_save_is_greyed(app):
    """Behind the hand-over curtain the Save button is greyed; Ctrl+S opened the dialog."""
    s = small_battle(app, STANDS, [6, 6, 1, 1])
    s.set_mode(CurtainMode("B", None))
    assert not s.save_button.is_enabled
    key(s, pygame.K_s, mod=pygame.KMOD_CTRL)
    assert s.saving.dialog is None


def test_a_narrow_window_keeps_the_victory_tracker_in_the_panel(app):
    """At 1024 px the banner drops the kill count; the panel shows it instead."""
    s = small_battle(app, STANDS, [6, 6, 1, 1])
    assert "kills:" in s.banner_text() and "kills:" not in s._panel_text
    s.app.surface = pygame.display.set_mode((1024, 768))
    s.resized((1024, 768))
    assert "kills:" not in s.banner_text()
    assert "<b>kills: Blue 0/" in s._panel_text


def test_full_game_a_click_on_an_enemy_ends_the_move_in_contact_and_opens_the_assault(app):
    """#31, from a new player's try: base contact (0.01") cannot be hit by hand, so a click
    on an enemy stand ends the plotted move touching it on the near side; the panel says so
    with the odds, and when the group's moves are over the close-assault panel opens. A
    carrier is picked under the click, never its rider."""
    stands = [
        ("A1", "A", "US Engineers", 10, 12, 0),
        ("A2", "A", "M113A3", 10, 16, 0),
        ("A3", "A", "US Mech Infantry", 10, 16, 0, {"carried_by": "A2"}),
        ("B1", "B", "BTR-80", 13.3, 12.2, 90),
    ]
    s = small_battle(app, stands, [6, 6, 1, 1, 3, 3, 3, 3, 5] + [10] * 20, ruleset="modern-full")
    _to_movement(s)
    click_at(s, 10, 12)
    key(s, pygame.K_RETURN)
    assert s.stand_under(s.tv.to_px(10, 16)).id == "A2"  # the carrier, not its rider
    click_at(s, 10, 12)
    assert isinstance(s.mode, PlotMode) and s.mode.stand == "A1"
    click_at(s, 13.3, 12.2)  # on the enemy stand
    end = s.mode.points[-1]
    assert abs(end[0] - 12.3) < 1e-6 and abs(end[1] - 12.2) < 1e-6  # touching its west side
    assert "Ends in base contact with BTR-80\u2002B1" in s._panel_text
    key(s, pygame.K_RETURN)
    for _ in range(5):  # the enemy's answer to the move, on this screen (hotseat)
        if s.battle.decision().kind == "opportunity_fire":
            s.act(next(a for a in s.battle.legal_actions() if a.kind == "let_pass"))
        elif s.battle.decision().kind == "plot_move":
            s.act(EndMoves("A"))  # the carrier stays
    assert s.battle.decision().kind == "close_assault"
    s.update(0.016)
    assert "Close assault" in s._panel_text and "to eliminate it" in s._panel_text


def test_a_wehrmacht_47_tl2_tank_is_picked_for_a_movement_group_by_click(app):
    """004 step 2 on screen: a Pz VIB (TL2) is clicked and declared into a movement group
    like any stand (the screen had said it was "already in movement group")."""
    d = scenario_dict(
        [("A1", "A", "Pz VIB", 10, 12, 0), ("B1", "B", 'M26 "Pershing"', 40, 12, 180)],
        generation=(None, None),
        sighting=20,
        ruleset="wwii-47",
    )
    b = Battle(
        parse_scenario(d, "test.json"), 0, dice=FixedDice([6, 1, 3, 3, 3, 3]), auto_pass=False
    )
    s = BattleScreen(app, b)
    app.show(s)
    to_fire1(s)
    press(s, "Blue first")
    assert isinstance(s.mode, PostureMode)
    click_at(s, 10, 12)
    assert s.mode.picked == ["A1"]
    key(s, pygame.K_RETURN)
    assert b.stand("A1").posture == "movement" and b.stand("A1").movement_marker is False
    assert "movement group M1" in " ".join(s.log_lines)
