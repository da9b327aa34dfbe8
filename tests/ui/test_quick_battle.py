"""Quick battles and balance on screen (#34): the menu's Quick battle screen, the menu's
points line, the editor's balancing moves and its background balance check."""

from __future__ import annotations

import time
from pathlib import Path

import pygame
import pygame_gui
import pytest

from game.editor.document import Document
from game.ui.balance_job import BalanceJob
from game.ui.battle import BattleScreen
from game.ui.editor import editor_screen
from game.ui.menu import MenuScreen
from game.ui.quick_battle import VS_AI_A, QuickBattleScreen, quick_file_name

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("data_dir")


def press(screen, button):
    screen.handle(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=button))


def quick(app) -> QuickBattleScreen:
    menu = MenuScreen(app)
    app.show(menu)
    press(menu, menu.quick_button)
    assert isinstance(app.screen, QuickBattleScreen)
    return app.screen


def test_the_menu_costs_the_chosen_scenario(app):
    menu = MenuScreen(app)
    app.show(menu)
    assert (
        "6405" in menu.points.text and "6238" in menu.points.text
    )  # 000 sheet, whole points (#43)
    menu.chosen = ROOT / "maps" / "wwii-meeting.json"
    menu._show_points()
    assert "795" in menu.points.text and "806" in menu.points.text  # 001 sheet


def test_a_quick_battle_is_costed_drawn_and_played_against_the_ai(app, data_dir):
    s = quick(app)
    assert s.raw is not None and "5124" in s.summary.html_text  # 8 x 427 x 1.5
    assert s.preview is not None and s.preview.get_size() == s.preview_rect.size
    s.handle(
        pygame.event.Event(
            pygame_gui.UI_SELECTION_LIST_NEW_SELECTION,
            ui_element=s.lists[1],
            text="Leopard-IIA6  (548 pts)",
        )
    )
    assert s.units[1] == "Leopard-IIA6"
    assert {st["unit"] for st in s.raw["stands"] if st["side"] == "B"} == {"Leopard-IIA6"}
    assert "548 pts" in s.summary.html_text
    s.entries["Seed"].set_text("5")
    s.regenerate()
    s.players.selected_option = (VS_AI_A, VS_AI_A)
    press(s, s.play_button)
    b = app.screen
    assert isinstance(b, BattleScreen)
    assert b.battle.meta["ai"] == {"B": "veteran"} and b.battle.seed == 5
    saved = data_dir / "scenarios" / quick_file_name("T-80U / AT-11", "Leopard-IIA6", 5)
    assert saved.exists() and quick_file_name("T-80U / AT-11", "x", 5).startswith(
        "quick-t-80u-at-11-vs-x"
    )
    assert MenuScreen(app).maps[-1].name == saved.name  # listed by the menu afterwards


def test_numbers_out_of_range_are_named_and_nothing_is_played(app, data_dir):
    s = quick(app)
    s.entries["Cohesion B"].set_text("25")
    s.regenerate()
    assert s.raw is None and "Cohesion B must be a whole number from 1 to 20" in s.summary.html_text
    press(s, s.play_button)
    assert app.screen is s and not list((data_dir / "scenarios").glob("quick-*"))


def test_the_era_changes_the_tables_and_the_table_opens_in_the_editor(app):
    s = quick(app)
    s.handle(
        pygame.event.Event(
            pygame_gui.UI_DROP_DOWN_MENU_CHANGED, ui_element=s.era, text="WWII (001 introductory)"
        )
    )
    s = app.screen
    assert s.ruleset == "wwii" and s.raw["table"] == {"width": 48.0, "depth": 24.0}
    assert any("Pz IIIJ-M" in i["text"] for i in s.lists[0].item_list)
    press(s, s.edit_button)
    from game.ui.editor.screen import EditorScreen

    assert isinstance(app.screen, EditorScreen) and app.screen.doc.path.name.startswith("quick-")
    assert app.screen.doc.raw["ruleset"] == "wwii"


def test_the_editors_balancing_move_is_one_undoable_edit(app):
    from game.editor.commands import SetField

    s = editor_screen(app, Document.open(ROOT / "maps" / "modern-meeting.json"))
    app.show(s)
    s.commit(SetField(("sides", 0, "cohesion"), 10, "set cohesion"))  # 4270 against 6238.4
    s.show_panel("Map")
    s.refresh_panel(force=True)
    first = s.balance.moves[0]
    assert first.ratio < 6238.4 / 4270
    before = len(s.doc.raw["stands"]), [x.get("cohesion") for x in s.doc.raw["sides"]]
    s._link("move:0")
    after = len(s.doc.raw["stands"]), [x.get("cohesion") for x in s.doc.raw["sides"]]
    assert after != before and first.what in s.doc.history.labels()[-1]
    s.doc.history.undo()
    assert (len(s.doc.raw["stands"]), [x.get("cohesion") for x in s.doc.raw["sides"]]) == before


def test_a_background_balance_check_reports_and_can_be_stopped():
    import json

    raw = json.loads((ROOT / "maps" / "modern-skirmish.json").read_text())
    job = BalanceJob(raw, games=2, jobs=1)
    for _ in range(600):
        if not job.running:
            break
        time.sleep(0.1)
    assert job.report is not None and job.done == 2
    assert "Verdict:" in job.summary() and job.summary().startswith("2 AI battles won: ")
    assert "Lost on average: " in job.summary()
    stopped = BalanceJob(raw, games=50, jobs=1)
    stopped.stop()
    for _ in range(600):
        if not stopped.running:
            break
        time.sleep(0.1)
    assert stopped.report is None and stopped.summary() == "Balance check: stopped"


def test_the_full_games_sums_count_the_ghq_twice_in_words_too(app):
    """Found by a play-test: "8 x 112 x 15 / 10 = 1512" did not add up, the GHQ counting
    twice in the full games; the line now says so (9 x 112 x 1.5 = 1512)."""
    from game.ui.quick_battle import ERAS

    s = quick(app)
    era = next(k for k, v in ERAS.items() if v == "wwii-47")
    s.handle(pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, ui_element=s.era, text=era))
    s = app.screen
    s.handle(
        pygame.event.Event(
            pygame_gui.UI_SELECTION_LIST_NEW_SELECTION,
            ui_element=s.lists[0],
            text="Pz V  (112 pts)",
        )
    )
    assert "8 (GHQ twice: 9) x 112 pts x cohesion 15 / 10 = <b>1512</b>" in s.summary.html_text
