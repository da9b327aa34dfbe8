"""The map editor's screen, driven by synthetic pygame events (dummy video driver): drawing,
mirroring, placing stands, undo and redo, saving and reopening, problems, test play."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pygame_gui
import pytest

from game.editor.document import Document
from game.rules.files.scenario import load_scenario
from game.ui.battle import BattleScreen
from game.ui.editor import editor_screen
from game.ui.editor.modes import MeasureMode, PolygonMode, SelectMode, StandMode
from tests.helpers import choose, drag, new_editor, type_text
from tests.helpers import editor_click as click
from tests.helpers import editor_frame as frame
from tests.helpers import editor_key as key
from tests.helpers import editor_press as press

ROOT = Path(__file__).resolve().parents[2]


pytestmark = pytest.mark.usefixtures("data_dir")  # saves and logs go to a temporary folder


def test_draw_a_wood_mirror_it_place_stands_undo_redo_save_and_reopen(app, tmp_path):
    s = new_editor(app)
    key(s, pygame.K_p)
    assert isinstance(s.mode, PolygonMode)
    for x, y in [(10, 10), (16, 10), (16, 15), (10, 15)]:
        click(s, x, y)
    key(s, pygame.K_RETURN)
    feats = s.doc.raw["terrain"]["features"]
    assert len(feats) == 1 and feats[0]["properties"]["terrain"] == "woods"
    assert feats[0]["geometry"]["coordinates"][0][:4] == [[10, 10], [16, 10], [16, 15], [10, 15]]
    assert s.selection == [("feature", 0)]
    press(s, "Half-turn copy")
    assert len(feats) == 2
    assert feats[1]["geometry"]["coordinates"][0][0] == [50, 26]  # 60 - 10, 36 - 10
    # place a stand: pick a unit in the Forces panel, click the table
    s.show_panel("Forces")
    frame(s)
    s._pick_unit("M1A2 Abrams")
    assert isinstance(s.mode, StandMode)
    click(s, 8, 20)
    stands = s.doc.raw["stands"]
    assert (
        stands[0]["id"] == "A1" and stands[0]["unit"] == "M1A2 Abrams" and stands[0]["ghq"] is True
    )
    assert (stands[0]["x"], stands[0]["y"], stands[0]["on_table"]) == (8, 20, True)
    click(s, 0.2, 30)  # at the side's left entry edge: a stand entering on turn 1
    assert stands[1]["on_table"] is False and (stands[1]["x"], stands[1]["y"]) == (0, 30)
    # undo the stands and the copy, then redo them all
    for _ in range(3):
        key(s, pygame.K_z, pygame.KMOD_CTRL)
    assert len(s.doc.raw["stands"]) == 0 and len(s.doc.raw["terrain"]["features"]) == 1
    for _ in range(3):
        key(s, pygame.K_y, pygame.KMOD_CTRL)
    assert len(s.doc.raw["stands"]) == 2 and len(s.doc.raw["terrain"]["features"]) == 2
    # a second side's stand so that the file is valid, then save and reopen
    s.place_side = "B"
    s._pick_unit("T-80U / AT-11")
    click(s, 52, 20)
    assert s.problems == [], [p.text for p in s.problems]
    out = tmp_path / "drawn.json"
    assert s.files.save(out)
    frame(s)
    assert not s.doc.history.dirty and "*" not in s.toolbar.title.text
    sc = load_scenario(out)
    assert len(sc.table.areas) == 2 and len(sc.spec.stands) == 3
    again = Document.open(out)
    assert again.raw == json.loads(out.read_text())


def test_an_invalid_polygon_is_not_committed_and_says_why(app):
    s = new_editor(app)
    key(s, pygame.K_p)
    for x, y in [(10, 10), (16, 16), (16, 10), (10, 16)]:  # a bow tie
        click(s, x, y)
    key(s, pygame.K_RETURN)
    assert s.doc.raw["terrain"]["features"] == []
    text, error = s.message
    assert error and "two edges cross at (13.0, 13.0)" in text and "Backspace" in text


def test_dragging_a_feature_is_one_history_entry_and_snaps_to_the_grid(app):
    s = new_editor(app)
    key(s, pygame.K_r)
    drag(s, (10, 10), (14, 13))
    assert s.doc.raw["terrain"]["features"][0]["geometry"]["coordinates"][0][0] == [10, 10]
    key(s, pygame.K_v)
    assert isinstance(s.mode, SelectMode)
    n = len(s.doc.history.entries)
    drag(s, (12, 11), (15, 11), steps=8)
    assert len(s.doc.history.entries) == n + 1
    ring = s.doc.raw["terrain"]["features"][0]["geometry"]["coordinates"][0]
    assert ring[0] == [13, 10]  # moved 3" right, on the 0.5" grid
    key(s, pygame.K_z, pygame.KMOD_CTRL)
    assert s.doc.raw["terrain"]["features"][0]["geometry"]["coordinates"][0][0] == [10, 10]


def test_dragging_a_vertex_handle_moves_that_corner(app):
    s = new_editor(app)
    key(s, pygame.K_r)
    drag(s, (10, 10), (14, 13))
    key(s, pygame.K_v)
    click(s, 12, 11)
    drag(s, (14, 13), (17, 15))
    ring = s.doc.raw["terrain"]["features"][0]["geometry"]["coordinates"][0]
    assert [17, 15] in ring and [14, 13] not in ring
    key(s, pygame.K_DELETE)  # deletes the picked vertex
    ring = s.doc.raw["terrain"]["features"][0]["geometry"]["coordinates"][0]
    assert [17, 15] not in ring and len(ring) == 4


def test_clicking_a_problem_selects_what_it_names(app):
    raw = json.loads((ROOT / "maps" / "modern-skirmish.json").read_text())
    raw["stands"][2]["unit"] = "Tiger"
    from game.editor.history import History

    s = editor_screen(app, Document(History(raw)))
    app.show(s)
    frame(s)
    s.show_panel("Problems")
    frame(s)
    k = next(i for i, p in enumerate(s.problems) if "Tiger" in p.text)
    s._problem_clicked(k)
    assert s.selection == [("stand", 2)]


def test_measure_asks_the_engine_about_sight(app):
    s = new_editor(app)
    key(s, pygame.K_r)
    drag(s, (20, 10), (24, 26))  # a wood wall
    key(s, pygame.K_m)
    assert isinstance(s.mode, MeasureMode)
    drag(s, (10, 18), (34, 18))
    assert s.mode.sight is not None and not s.mode.sight.clear
    assert s.mode.sight.blocked_by[0][:2] == ("terrain", "woods")
    assert s.hint.startswith('24.0" (2400 m), range band 24"')
    drag(s, (10, 30), (34, 30))
    assert s.mode.sight.clear and "in sight" in s.hint


def test_test_play_opens_a_battle_and_comes_back_with_the_history(app):
    s = editor_screen(app, Document.open(ROOT / "maps" / "modern-skirmish.json"))
    app.show(s)
    frame(s)
    key(s, pygame.K_r)
    drag(s, (16, 2), (20, 4))
    entries = len(s.doc.history.entries)
    key(s, pygame.K_F5)
    assert isinstance(app.screen, BattleScreen)
    assert (
        len(app.screen.battle.table.areas)
        == len(load_scenario(ROOT / "maps" / "modern-skirmish.json").table.areas) + 1
    )
    assert "A first battle in eight turns" in app.screen._panel_text  # the briefing, at set-up
    app.screen.saving.to_menu()
    assert app.screen is s and len(s.doc.history.entries) == entries


def test_test_play_of_an_invalid_map_shows_the_problems(app):
    s = new_editor(app)
    key(s, pygame.K_F5)
    assert app.screen is s and s.panel == "Problems" and s.message[1]


def test_the_autosave_is_offered_back(app, data_dir):
    s = new_editor(app)
    key(s, pygame.K_r)
    drag(s, (10, 10), (14, 13))
    assert (data_dir / "editor-autosave.json").exists()
    s2 = editor_screen(app, None)
    app.show(s2)
    frame(s2)
    press(s2, "Restore the unsaved map")
    assert len(s2.doc.raw["terrain"]["features"]) == 1 and s2.doc.history.dirty


def test_the_menu_opens_the_editor(app):
    from game.ui.editor.screen import EditorScreen
    from game.ui.menu import MenuScreen

    menu = MenuScreen(app)
    app.show(menu)
    menu.handle(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=menu.editor_button))
    assert isinstance(app.screen, EditorScreen)


def test_panel_fields_write_the_file_and_typing_is_one_history_entry(app):
    s = new_editor(app)
    s.show_panel("Scenario")
    frame(s)
    title = next(
        w
        for w in s.entries.fields
        if getattr(w, "get_text", None) and w.get_text() == "New scenario"
    )
    for text in ("N", "Ni", "Nig", "Night raid"):
        type_text(s, title, text)
    assert s.doc.raw["title"] == "New scenario"  # applied on Enter or when left (#43)
    key(s, pygame.K_RETURN)
    assert s.doc.raw["title"] == "Night raid" and len(s.doc.history.entries) == 1
    turns = next(
        w for w in s.entries.fields if getattr(w, "get_text", None) and w.get_text() == "12"
    )
    choose(s, turns, "200")
    assert s.doc.raw["turns"] == 12 and "from 1 to 100" in s.message[0]


def test_the_history_panel_jumps(app):
    s = new_editor(app)
    key(s, pygame.K_r)
    for x in (10, 20, 30):
        drag(s, (x, 10), (x + 3, 13))
    s.show_panel("History")
    frame(s)
    lst = next(w for w in s._fields if type(w).__name__ == "UISelectionList")
    ev = pygame.event.Event(
        pygame_gui.UI_SELECTION_LIST_NEW_SELECTION, ui_element=lst, text="1. draw woods"
    )
    s.handle(ev)
    frame(s)
    assert s.doc.history.position == 1 and len(s.doc.raw["terrain"]["features"]) == 1


def test_geojson_export_and_import_through_the_screen(app, tmp_path):
    s = editor_screen(app, Document.open(ROOT / "maps" / "modern-meeting.json"))
    app.show(s)
    frame(s)
    out = tmp_path / "terrain.geojson"
    s.files.export_geojson(out)
    feats = s.doc.raw["terrain"]["features"]
    s.files.import_geojson(out)
    assert s.doc.raw["terrain"]["features"] == feats
    assert s.doc.raw["table"] == {"width": 60, "depth": 36} and s.doc.history.dirty


def test_balance_views_are_computed_in_the_background_and_drawn(app):
    import time

    s = editor_screen(app, Document.open(ROOT / "maps" / "modern-skirmish.json"))
    app.show(s)
    frame(s)
    s.show_panel("Map")
    frame(s)
    before = s.app.surface.copy()
    for view in ("sight A", "cost B"):
        s.views.show_view(view)
        t0 = time.time()
        while s.views._overlay_job and time.time() - t0 < 60:
            time.sleep(0.05)
            frame(s)
        assert s.views.overlay is not None and s.views.overlay[0] == view
        frame(s)
        assert pygame.image.tobytes(s.app.surface, "RGB") != pygame.image.tobytes(before, "RGB")
    assert "MP" in s.message[0]
    s.views.show_view("off")
    assert s.views.overlay is None


def test_keys_typed_into_a_dialog_are_not_shortcuts(app):
    s = new_editor(app)
    key(s, pygame.K_r)
    drag(s, (10, 10), (14, 13))
    s.files.save_as()  # the file dialog opens over the table
    frame(s)
    n = len(s.doc.history.entries)
    for k in (pygame.K_e, pygame.K_m, pygame.K_g):  # "turn", "measure", "grid"
        key(s, k)
    assert len(s.doc.history.entries) == n and s.grid and not isinstance(s.mode, MeasureMode)
    for d in s.dialogs.windows:
        d.kill()
    key(s, pygame.K_m)  # closed: the keys are the editor's again
    assert isinstance(s.mode, MeasureMode)


def test_the_unit_list_filters_as_the_player_types(app):
    s = new_editor(app)
    s.show_panel("Forces")
    frame(s)
    entry = next(w for w in s._fields if getattr(w, "get_text", None) and w.get_text() == "")
    choose(s, entry, "abra")
    rows = [i["text"] for i in s._unit_list.item_list]
    assert rows and all("Abrams" in r for r in rows)
    assert entry.alive()  # updated in place, not rebuilt under the typing


def test_a_problem_link_selects_the_stand_it_names(app):
    raw = json.loads((ROOT / "maps" / "modern-skirmish.json").read_text())
    raw["stands"][4]["unit"] = "Tiger"
    from game.editor.history import History

    s = editor_screen(app, Document(History(raw)))
    app.show(s)
    frame(s)
    s.show_panel("Problems")
    frame(s)
    box = next(w for w in s._fields if type(w).__name__ == "UITextBox")
    k = next(i for i, p in enumerate(s.problems) if "Tiger" in p.text)
    s.handle(
        pygame.event.Event(
            pygame_gui.UI_TEXT_BOX_LINK_CLICKED, ui_element=box, link_target=f"problem:{k}"
        )
    )
    assert s.selection == [("stand", 4)] and s.panel == "Problems"


def test_enter_and_esc_answer_a_dialog(app):
    s = new_editor(app)
    s.ask("Do it?", lambda: s.say("done"), "Do it")
    frame(s)
    key(s, pygame.K_RETURN)
    for _ in range(2):  # Enter presses the dialog's button, which posts its confirmation
        for ev in pygame.event.get():
            s.handle(ev)
    assert s.message[0] == "done"
    s.files.save_as()
    frame(s)
    assert s.dialogs.open()
    key(s, pygame.K_ESCAPE)
    assert not s.dialogs.open()


def test_esc_in_select_clears_the_selection(app):
    s = new_editor(app)
    key(s, pygame.K_r)
    drag(s, (10, 10), (14, 13))
    key(s, pygame.K_v)
    click(s, 12, 11)
    assert s.selection == [("feature", 0)]
    key(s, pygame.K_ESCAPE)
    assert s.selection == []


def test_a_full_game_rider_starts_aboard_its_carrier_or_is_set_down(app):
    """#31: the editor lets a personnel stand start loaded in a carrier (modern-full)."""
    from game.editor.history import History

    raw = json.loads((ROOT / "maps" / "modern-combined-arms.json").read_text())
    s = editor_screen(app, Document(History(raw)))
    app.show(s)
    frame(s)
    i = next(k for k, st in enumerate(raw["stands"]) if st.get("carried_by"))
    carrier = raw["stands"][i]["carried_by"]
    s.selection = [("stand", i - 1)]  # its carrier: riders are not drawn, reached from it
    s.show_panel("Item")
    frame(s)
    press(s, f"Select {raw['stands'][i]['id']} ")
    assert s.selection == [("stand", i)]
    frame(s)

    def aboard():
        return next(
            w for w in s._fields if any("(none)" in str(o) for o in getattr(w, "options_list", ()))
        )

    assert carrier in str(aboard().selected_option)
    choose(s, aboard(), "(none)")
    st, c = s.doc.raw["stands"][i], s.doc.raw["stands"][i - 1]
    assert c["id"] == carrier
    assert st["carried_by"] is None and st["y"] == c["y"] + 1.2
    frame(s)
    choose(s, aboard(), carrier)
    assert s.doc.raw["stands"][i]["carried_by"] == carrier
    assert (s.doc.raw["stands"][i]["x"], s.doc.raw["stands"][i]["y"]) == (c["x"], c["y"])
