"""The first hour of a new player (issue #43), each stop seen on screen and mended: driven
on the real screens (dummy video driver) the way a player meets it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pygame_gui.elements import UIDropDownMenu

from game.editor.document import Document
from game.ui.editor import editor_screen
from tests.helpers import editor_frame as frame
from tests.helpers import editor_press as press

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.usefixtures("data_dir")


@pytest.mark.parametrize("ruleset", ["modern-full", "wwii-47"])
def test_new_create_makes_a_full_game_table(app, ruleset):
    """(#43) New -> a custom size -> Create with a full game's ruleset raised ValueError
    (``new_scenario`` knew only modern and wwii); the table starts from its era's sheet."""
    s = editor_screen(app, Document.new("modern", 60, 36))
    app.show(s)
    frame(s)
    s.files.new_dialog()
    frame(s)
    rules = next(
        w
        for w in app.manager.get_sprite_group().sprites()
        if isinstance(w, UIDropDownMenu) and ("wwii-47", "wwii-47") in w.options_list
    )
    rules.selected_option = (ruleset, ruleset)
    press(s, "Create")
    raw = s.doc.raw
    assert raw["ruleset"] == ruleset and raw["table"] == {"width": 72.0, "depth": 48.0}
    sheet = (30, 12) if ruleset == "modern-full" else (20, 12)
    assert (raw["max_sighting_in"], raw["turns"]) == sheet
    assert s.message[0].startswith(f'A new {ruleset} table, 72"x48"')


def test_geojson_of_a_full_game_map_imports_onto_a_full_game_table(app, tmp_path):
    """(#43) Import GeoJSON while editing a full-game map raised the same ValueError."""
    s = editor_screen(app, Document.open(ROOT / "maps" / "modern-combined-arms.json"))
    app.show(s)
    frame(s)
    out = tmp_path / "ca.geojson"
    s.files.export_geojson(out)
    s.doc.history.mark_saved()
    s.files._pending = "import"
    s.files.picked(out)
    raw = s.doc.raw
    shipped = json.loads((ROOT / "maps" / "modern-combined-arms.json").read_text())
    assert raw["ruleset"] == "modern-full"
    assert len(raw["terrain"]["features"]) == len(shipped["terrain"]["features"])
    assert s.message[0].startswith("Imported ")


def test_load_a_save_opens_the_saves_folder(app, data_dir):
    """(#43) Load a save... opened the data folder, where the autosave and the logs folder
    are, not the saves folder Ctrl+S writes to."""
    import pygame
    import pygame_gui

    from game.ui.menu import MenuScreen

    m = MenuScreen(app)
    app.show(m)
    m.update(0.016)
    m.handle(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=m.load_button))
    assert Path(m.dialog.current_directory_path) == (data_dir / "saves").resolve()


@pytest.mark.parametrize(
    "path, mp, words",
    [
        ([[10.0, 10.0], [10.02, 10.0]], 0.04, 'moves 0.02" for 0.04 of 18 MP.'),
        ([[10.0, 10.0], [14.9, 10.0]], 4.95, 'moves 4.9" for 5.0 of 18 MP.'),
    ],
)
def test_a_short_move_is_not_written_as_zero_inches(path, mp, words):
    """(#43) The log panel said 'moves 0.0" for 0.01 MP'; a step under 0.05" now shows its
    hundredths (a normal move keeps one decimal)."""
    from game.ui.logwords import sentence

    ev = {
        "event": "move",
        "stand": "A1",
        "path": path,
        "mp_spent": mp,
        "mp_allowed": 18,
        "stopped_by": None,
        "entered": False,
    }
    assert sentence(ev, {"A1": "Leopard-IIA6 A1"}, {}).endswith(words)


def test_end_screen_replay_back_keeps_the_end_screens_buttons(app):
    """(#43) End screen -> Replay -> Back came back with no buttons: the old ones had gone
    with the replay's widgets, and the panel took them for still there."""
    from game.check.sim import make_players
    from game.ui.battles import battle_screen, new_battle

    b = new_battle(ROOT / "maps" / "modern-skirmish.json", 3)
    players = make_players(b, ("random", "random"))
    while not b.finished:
        b.apply(players[b.to_act].choose(b))
    s = battle_screen(app, b)
    app.show(s)
    frame(s)
    labels = ["Save the log", "Replay", "Play again", "Main menu"]
    assert [w.text for w, _ in s._buttons] == labels
    import pygame
    import pygame_gui

    button = next(w for w, _ in s._buttons if w.text == "Replay")
    s.handle(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=button))
    replay = app.screen
    assert replay is not s
    frame(replay)
    replay.back()
    assert app.screen is s
    frame(s)
    assert [w.text for w, _ in s._buttons] == labels and all(w.alive() for w, _ in s._buttons)
    assert "wins" in s._panel_text or "Nobody" in s._panel_text


def test_the_menu_shows_no_empty_message_box(app):
    """(#43) An empty box sat under the menu's buttons; it shows only with a message."""
    from game.ui.menu import MenuScreen

    m = MenuScreen(app)
    app.show(m)
    m.update(0.016)
    assert not m.status.visible
    m.say("The seed must be a whole number.")
    assert m.status.visible
