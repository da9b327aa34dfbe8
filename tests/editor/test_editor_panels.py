"""A new user's editor faults: the Item panel in a low window, scenario fields out of
their bounds, an autosave's relative path, a left-out stand's name, the problem counts and
repeated pastes; each driven on the real editor screen (dummy video driver)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from tests.helpers import editor_frame as frame
from tests.helpers import editor_press as press
from tests.helpers import shipped_map

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.usefixtures("data_dir")


# ------------------------------------------------------------------ 1. the Item panel fits


def _road(doc) -> int:
    feats = doc.raw["terrain"]["features"]
    return next(i for i, f in enumerate(feats) if "Line" in f["geometry"]["type"])


@pytest.mark.parametrize("size", [(800, 600), (960, 600), (1000, 650)])
@pytest.mark.parametrize("what", ["road", "stand", "polygon"])
def test_the_item_panel_ends_above_the_status_line(size, what):
    from game.ui.app import App

    app = App(size=size)
    try:
        s = shipped_map(app, "modern-meeting")
        ref = {"road": ("feature", _road(s.doc)), "stand": ("stand", 0)}
        s.selection = [ref.get(what, ("feature", 0))]
        s.show_panel("Item")
        frame(s)
        window, status = pygame.Rect((0, 0), size), s.drawing.status_rect()

        def check():
            alive = [w for w in s._panel_widgets if w.alive()]
            assert alive
            for w in [*alive, *(b for b in s._widgets if b.alive())]:
                assert window.contains(w.rect), (w, w.rect)
                assert not w.rect.colliderect(status), (getattr(w, "text", w), w.rect)
            return {getattr(w, "text", "") for w in alive}

        shown = check()
        seen = set(shown)
        below = [b for b in s._widgets if b.alive() and b.text == "More below"]
        for _ in range(10):  # every button can still be reached by scrolling
            if not below or not below[0].is_enabled:
                break
            press(s, "More below")
            below = [b for b in s._widgets if b.alive() and b.text == "More below"]
            shown = check()
            seen |= shown
        assert {"Half-turn copy", "Mirror copy |", "Mirror copy -", "Delete (Del)"} <= seen
        assert not below or not below[0].is_enabled  # at the foot: nothing more below
        if "More above" in shown:
            press(s, "More above")
            assert "Mirror copy -" not in check() or size[1] > 600
    finally:
        pygame.quit()


# ------------------------------------------------------------------ 2. fields within bounds


def _type_over(s, text, typed):
    """Select all of the Scenario field showing ``text``, type ``typed`` key by key, Enter."""
    import json

    from tests.helpers import editor_key as key
    from tests.helpers import field_with, type_into

    w = field_with(s, text)
    w.set_text("")  # all selected and typed over
    type_into(s, w, typed)
    key(s, pygame.K_RETURN)
    return json.loads(json.dumps(s.doc.raw))


def test_a_scenario_field_out_of_bounds_is_not_written_and_names_the_bound(app):
    import json

    from game.ui.editor.layout import autosave_file

    s = shipped_map(app, "modern-meeting")
    s.show_panel("Scenario")
    frame(s)
    raw = s.doc.raw
    width, depth = raw["table"]["width"], raw["table"]["depth"]
    raw = _type_over(s, str(width), "100000")
    assert raw["table"]["width"] <= 1000 and raw["table"]["depth"] == depth
    assert s.message[1] and "(type a number from 6 to 1000)" in s.message[0]
    assert raw["table"]["width"] == width  # refused whole, nothing of it written (#43)
    if autosave_file().exists():
        saved = json.loads(autosave_file().read_text())
        assert saved["scenario"]["table"]["width"] == raw["table"]["width"] <= 1000
    assert s.table_size()[0] >= 6
    sight = raw["max_sighting_in"]
    raw = _type_over(s, str(sight), "5000")
    assert raw["max_sighting_in"] <= 1000 and "(type a number from 1 to 1000)" in s.message[0]
    s.refresh_panel(force=True)
    raw = _type_over(s, f"{raw['max_sighting_in']:g}", "37")
    assert raw["max_sighting_in"] == 37 and field_text(s, "37")
    raw = _type_over(s, "37", "1e400")
    assert raw["max_sighting_in"] <= 1000 and "from 1 to 1000" in s.message[0]
    assert not field_text(s, "1e400")  # the field shows what the scenario holds


def field_text(s, text):
    """Whether a live panel entry shows ``text``."""
    return any(
        getattr(w, "get_text", lambda: None)() == text
        for w in [*s._fields, *s.entries.fields]
        if w.alive()
    )


def test_the_scenario_panel_bounds_are_the_scenario_checks():
    from game.rules.files import scenario_file
    from game.ui.editor import setup_panels

    assert setup_panels.MIN_TABLE_IN == scenario_file.MIN_TABLE_IN
    assert setup_panels.MIN_SIGHTING_IN == scenario_file.MIN_SIGHTING_IN


# ------------------------------------------------------------------ 3. an autosave's path


def test_the_autosave_names_its_file_by_an_absolute_path(app, tmp_path, monkeypatch):
    from game.editor.document import Document, read_session
    from game.ui.editor.layout import autosave_file
    from tests.helpers import wood

    (tmp_path / "maps").mkdir()
    monkeypatch.chdir(tmp_path)
    doc = Document.new("modern", 60, 36)
    doc.path = Path("maps/mine.json")
    from game.ui.editor import editor_screen

    s = editor_screen(app, doc)
    app.show(s)
    frame(s)
    wood(s)
    assert read_session(autosave_file()).path == tmp_path / "maps" / "mine.json"


def test_a_restored_relative_path_asks_before_saving(app, data_dir, tmp_path, monkeypatch):
    import json

    from game.ui.editor import editor_screen
    from game.ui.editor.layout import autosave_file
    from tests.helpers import asking, confirm
    from tests.helpers import editor_key as key

    scenario = json.loads((ROOT / "maps" / "modern-meeting.json").read_text())
    scenario["title"] = "Changed"
    data_dir.mkdir(parents=True, exist_ok=True)
    autosave_file().write_text(
        json.dumps(
            {
                "format": "hulldown-editor-autosave/1",
                "saved_at": 0,
                "path": "maps/modern-meeting.json",
                "scenario": scenario,
            }
        )
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    s = editor_screen(app, None)
    app.show(s)
    frame(s)
    press(s, "Restore the unsaved map")
    key(s, pygame.K_s, pygame.KMOD_CTRL)
    made = elsewhere / "maps" / "modern-meeting.json"
    assert not made.exists()
    assert str(made) in asking(s) and "not opened or chosen" in asking(s)
    confirm(s)  # the user says yes: it is saved where the question said
    while asking(s):
        confirm(s)
    assert json.loads(made.read_text())["title"] == "Changed"


# ------------------------------------------------------------------ 4. a left-out stand's name


def skirmish_without_a1(app, tmp_path, bad_units=0):
    """The editor on a copy of modern-skirmish whose first stand (A1) is the number 42 and
    whose next ``bad_units`` stands name no unit, with the Problems panel shown."""
    import json

    from game.editor.document import Document
    from game.ui.editor import editor_screen

    raw = json.loads((ROOT / "maps" / "modern-skirmish.json").read_text())
    assert raw["stands"][0]["id"] == "A1" and raw["stands"][1]["id"] == "B1"
    raw["stands"][0] = 42  # mended on opening: a line, not a problem to mend
    for k in range(1, bad_units + 1):
        raw["stands"][k]["unit"] = "No Such Tank"
    path = tmp_path / "skirmish.json"
    path.write_text(json.dumps(raw))
    s = editor_screen(app, Document.open(path))
    app.show(s)
    frame(s)
    s.show_panel("Problems")
    frame(s)
    return s


def test_a_left_out_stand_is_named_by_its_index_and_selects_nothing(app, tmp_path):
    s = skirmish_without_a1(app, tmp_path)
    s.check()
    k, line = next((k, p.text) for k, p in enumerate(s.problems) if "not a stand object" in p.text)
    assert "stands[0]: a number 42" in line and "nothing to select" in line
    s.selection = []
    s._problem_clicked(k)
    frame(s)
    assert s.selection == [] and "stands[0]" in s.message[0]
    assert "B1" not in s.message[0] and "Stand" not in s.message[0]


# ------------------------------------------------------------------ 5. counts and pastes


@pytest.mark.parametrize("bad, words", [(1, "1 problem"), (3, "3 problems")])
def test_the_panel_and_test_play_count_the_same_problems(app, tmp_path, bad, words):
    from tests.helpers import editor_key as key

    s = skirmish_without_a1(app, tmp_path, bad)
    box = next(w for w in s._fields if type(w).__name__ == "UITextBox" and w.alive())
    assert f"{words} to mend" in box.html_text and "(s)" not in box.html_text
    assert "1 line below says what was mended" in box.html_text
    key(s, pygame.K_F5)
    assert s.message == (f"Mend the {words} first to play it.", True)


def test_each_paste_lands_one_grid_step_further_than_the_last(app):
    from game.editor import edits
    from tests.helpers import editor_key as key
    from tests.helpers import new_editor, wood

    s = new_editor(app)
    wood(s)
    key(s, pygame.K_c, pygame.KMOD_CTRL)
    for _ in range(3):
        key(s, pygame.K_v, pygame.KMOD_CTRL)
    feats = s.doc.raw["terrain"]["features"]
    assert len(feats) == 4 and s.selection == [("feature", 3)]
    xs = [edits.feature_geometry(f).centroid.x for f in feats]
    ys = [edits.feature_geometry(f).centroid.y for f in feats]
    assert xs[1] - xs[0] == pytest.approx(1) and abs(ys[1] - ys[0]) == pytest.approx(1)
    step = s.grid_size
    assert [xs[2] - xs[1], xs[3] - xs[2]] == pytest.approx([step, step])
    assert [abs(ys[2] - ys[1]), abs(ys[3] - ys[2])] == pytest.approx([step, step])
    key(s, pygame.K_c, pygame.KMOD_CTRL)  # a new copy starts again 1" from what it copies
    key(s, pygame.K_v, pygame.KMOD_CTRL)
    assert edits.feature_geometry(feats[4]).centroid.x - xs[3] == pytest.approx(1)
