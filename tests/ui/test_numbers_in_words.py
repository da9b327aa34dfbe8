"""The first hour's words and numbers on screen (#43, the new-player trial after the first
round of mends): whole points in the menu and the quick battle, a stand that did not move
said so, movement points to the distance's precision, and the rest of the trial's text
findings. Driven on the real screens (dummy video driver)."""

from __future__ import annotations

import re
from pathlib import Path

import pygame
import pygame_gui
import pytest

from game.ui.menu import MenuScreen

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("data_dir")


def frame(screen):
    screen.update(0.016)
    screen.draw(screen.app.surface)


def press(screen, button):
    screen.handle(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=button))


# ------------------------------------------------------------------ #26 numbers


def test_the_menu_shows_each_forces_points_as_whole_points(app):
    """(#43 trial 26) The menu said "Points: US 6238.4 against Russia ..." and "2533.5":
    a force's points are whole on screen, the ratio keeps its two decimals."""
    menu = MenuScreen(app)
    app.show(menu)
    frame(menu)
    assert "6238" in menu.points.text and "6238.4" not in menu.points.text  # the first map
    for name in ("modern-combined-arms.json", "wwii-47-breakthrough.json", "wwii-meeting.json"):
        menu.chosen = ROOT / "maps" / name
        menu._show_points()
        frame(menu)
        said = menu.points.text
        points, ratio = said.split(" (ratio ")
        assert points.startswith("Points: ") and " against " in points
        assert not re.search(r"\d\.\d", points), said
        assert re.fullmatch(r"\d+\.\d\d : 1\)", ratio), said


def test_the_quick_battle_sums_come_to_whole_points(app):
    """(#43 trial 26) The quick battle's sum "8 x 427 pts x cohesion 13 / 10 = 4440.8":
    whole points ("= 4441")."""
    from game.ui.quick_battle import QuickBattleScreen

    menu = MenuScreen(app)
    app.show(menu)
    press(menu, menu.quick_button)
    s = app.screen
    assert isinstance(s, QuickBattleScreen)
    s.entries["Cohesion A"].set_text("13")
    s.entries["Cohesion B"].set_text("11")
    s.regenerate()
    frame(s)
    sums = re.findall(r"= <b>([^<]*)</b>", s.summary.html_text)
    assert len(sums) == 2 and all(x.isdigit() for x in sums), s.summary.html_text


def _move(path, spent, allowed=9.5, stopped=None):
    return {
        "event": "move",
        "side": "A",
        "stand": "A1",
        "path": path,
        "mp_spent": spent,
        "mp_allowed": allowed,
        "facing_deg": 0.0,
        "stopped_by": stopped,
        "entered": False,
    }


def test_a_stand_that_did_not_move_is_said_not_to_move(app):
    """(#43 trial 26) The log said 'A1 moves 0.00" for 0 of 9.5 MP, fails to go on': a stand
    that stayed put "does not move", with the reason; one that only turned says so."""
    from game.ui.logwords import sentence

    names = {"A1": "M1A1 A1"}
    still = sentence(_move([[5.0, 5.0], [5.0, 5.0]], 0.0, stopped="cohesion"), names, {})
    assert still.startswith("M1A1 A1 does not move (") and "0.00" not in still
    assert "cohesion roll" in still and "0 of 9.5 MP" in still
    fired_on = sentence(_move([[5.0, 5.0]], 0.0, stopped="opportunity_fire"), names, {})
    assert fired_on == "M1A1 A1 does not move (stopped by opportunity fire; 0 of 9.5 MP)."
    turned = sentence(_move([[5.0, 5.0], [5.0, 5.0]], 1.5), names, {})
    assert turned == "M1A1 A1 turns where it stands for 1.5 of 9.5 MP."


def test_movement_points_are_written_to_the_distances_precision():
    """(#43 trial 26) 'moves 12.0" for 12.01 of 15 MP': the points spent are written to the
    same tenth as the distance, a sliver of a step to hundredths for both."""
    from game.ui.logtext import mp_text
    from game.ui.logwords import sentence

    names = {"A1": "M1A1 A1"}
    line = sentence(_move([[0.0, 0.0], [12.0, 0.0]], 12.01, 15), names, {})
    assert line == 'M1A1 A1 moves 12.0" for 12.0 of 15 MP.'
    line = sentence(_move([[0.0, 0.0], [0.02, 0.0]], 0.04, 15), names, {})
    assert line == 'M1A1 A1 moves 0.02" for 0.04 of 15 MP.'
    assert (mp_text(12.01), mp_text(9.5), mp_text(18), mp_text(0.04)) == ("12", "9.5", "18", "0.04")


# ------------------------------------------------------------------ #13 a CRT cell that did more


def _loaded(app, name: str, tmp_path, folder: str = "corpus"):
    """A recorded battle (tests/corpus, or ``folder`` under tests/) opened on the battle
    screen, its log shown."""
    from game.rules.battle import Battle
    from game.ui.battle import BattleScreen

    b = Battle.load(ROOT / "tests" / folder / name, log_path=tmp_path / "log.jsonl")
    s = BattleScreen(app, b)
    app.show(s)
    frame(s)
    return s


def test_a_crt_cell_that_eliminates_says_the_stand_was_already_disorganized(app, tmp_path):
    """(#43 trial 13) "CRT D: Motor Rifle Infantry B6 eliminated": the cell says D, the stand
    is gone because it was disorganized already; the log says so. An (S) that disorganizes a
    stand already suppressed says that too. The two corpus battles as recorded while the
    skirmish's woods were octagons (tests/fixtures/octagon-woods/; their saves embed that
    map): played again on today's map, s11 rolls no such cell."""
    kept = "fixtures/octagon-woods"
    s = _loaded(app, "modern-skirmish-s11-recruit-random.save.json", tmp_path, kept)
    lines = [x for x in s.log_lines if "eliminated" in x and "CRT D" in x]
    assert lines and all("CRT D on a stand already disorganized: " in x for x in lines), lines
    s = _loaded(app, "modern-skirmish-s41-recruit-veteran.save.json", tmp_path, kept)
    lines = [x for x in s.log_lines if "CRT (S)" in x and x.endswith("disorganized.")]
    assert lines and all("CRT (S) on a stand already suppressed: " in x for x in lines), lines


# ------------------------------------------------------------------ #27 name and id apart


def test_a_stands_name_and_id_are_apart_on_the_panel_and_the_card(app):
    """(#43 trial 27) "Moving Leopard-IIA6A3": the panel's font draws a space 3 px wide and
    the name ran into the id. The panel, the unit card and the fire panel's lines put an en
    space between them, at least 5 px wide in the panel's font."""
    from game.ui.logview import FONT_FILE
    from tests.helpers import _to_movement, click_at, key, small_battle

    stands = [("A1", "A", "T-72", 10, 12, 0), ("B1", "B", "T-72", 40, 15, 180)]
    s = small_battle(app, stands, [6, 6, 1, 1, 3, 3, 3, 3, 5])
    _to_movement(s)
    click_at(s, 10, 12)
    key(s, pygame.K_RETURN)
    click_at(s, 10, 12)
    click_at(s, 14, 12)
    s._flush_panel(force=True)
    assert s._panel_text.startswith("<b>Moving T-72\u2002A1</b>"), s._panel_text[:60]
    assert s.info.unit_card_lines("B1")[0].startswith("T-72\u2002B1")
    font = pygame.font.Font(str(FONT_FILE), 13)
    gap = font.size("72\u2002A1")[0] - font.size("72")[0] - font.size("A1")[0]
    assert gap >= 5


# ------------------------------------------------------------------ #17 whose group M1


def test_the_posture_panel_names_declared_groups_with_their_side(app):
    """(#43 trial 17) The WWII posture panel said "Declared: M1 (A1, A2)" and both sides
    have a group M1: the panel names the group with its side, as the rest of the screen
    does (group_label)."""
    from tests.helpers import click_at, key, lift_curtain, wwii_posture

    s, b = wwii_posture(
        app,
        [("A1", "A", 10, 12, 0), ("A2", "A", 11, 12, 0), ("A4", "A", 20, 6, 0)]
        + [("B1", "B", 30, 12, 180)],
    )
    click_at(s, 10, 12)
    click_at(s, 11, 12)
    key(s, pygame.K_RETURN)
    key(s, pygame.K_p)  # Orange: all its stands fire; Blue's panel again
    assert b.to_act == "A" and b.state.phase == "posture"
    lift_curtain(s)  # hotseat hands the screen back to Blue (#43)
    s._flush_panel(force=True)
    assert "Declared: Blue group M1 (A1, A2)" in s._panel_text, s._panel_text
    click_at(s, 10, 12)
    assert s.message.endswith("is already in Blue group M1")
