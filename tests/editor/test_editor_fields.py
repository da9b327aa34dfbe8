"""Issue 30's editor faults, each driven on the real editor screen (dummy video driver) by
synthetic pygame events, or on the editor's model: fields that wait for valid input, a centre
typed once, the terrain picture after opening, stale balance views, asking before unsaved
work is replaced, the table size through GeoJSON, and the small faults."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from game.editor.commands import SetField
from game.editor.document import Document
from game.ui.editor import editor_screen
from game.ui.editor.modes import MeasureMode
from tests.helpers import (
    asking,
    choose,
    confirm,
    drag,
    field_with,
    new_editor,
    shipped_map,
    type_text,
    wood,
)
from tests.helpers import editor_click as click
from tests.helpers import editor_frame as frame
from tests.helpers import editor_key as key
from tests.helpers import editor_press as press

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.usefixtures("data_dir")


# ------------------------------------------------------------------ 1. fields wait for input


@pytest.mark.parametrize("bad", ["1", "", "1,", "x, 3", "1, 2, 3", "nan, 1", "1e400, 2"])
def test_a_centre_that_does_not_parse_yet_waits_and_says_what_it_needs(app, bad):
    s = new_editor(app)
    wood(s)
    before = json.dumps(s.doc.raw)
    choose(s, field_with(s, "13.00, 12.50"), bad)
    assert json.dumps(s.doc.raw) == before
    assert s.message[1] and "Centre" in s.message[0]
    assert "inches" in s.message[0] or "numbers" in s.message[0]


def test_a_vertex_and_a_stand_position_wait_for_two_numbers(app):
    s = new_editor(app)
    wood(s)
    s.vertex = (0, (0, 0))
    s.refresh_panel(force=True)
    before = json.dumps(s.doc.raw)
    choose(s, field_with(s, "10, 10"), "1")
    assert json.dumps(s.doc.raw) == before and "Vertex" in s.message[0] and s.message[1]
    choose(s, field_with(s, "10, 10"), "9, 9")
    assert s.doc.raw["terrain"]["features"][0]["geometry"]["coordinates"][0][0] == [9, 9]
    s.show_panel("Forces")
    frame(s)
    s._pick_unit("M1A2 Abrams")
    click(s, 20, 20)
    key(s, pygame.K_v)
    click(s, 20, 20)
    assert s.selection == [("stand", 0)]
    s.show_panel("Item")
    frame(s)
    for bad in ("1", "a, b"):
        choose(s, field_with(s, "20, 20"), bad)
        assert (s.doc.raw["stands"][0]["x"], s.doc.raw["stands"][0]["y"]) == (20, 20)
        assert "Stand position" in s.message[0]
    choose(s, field_with(s, "20, 20"), "21, 19")
    assert (s.doc.raw["stands"][0]["x"], s.doc.raw["stands"][0]["y"]) == (21, 19)


def test_a_number_field_says_in_words_what_it_wants(app):
    s = new_editor(app)
    s.show_panel("Scenario")
    frame(s)
    choose(s, field_with(s, "12"), "twelve")
    assert s.doc.raw["turns"] == 12
    assert "(type a whole number from 1 to 100)" in s.message[0] and "literal" not in s.message[0]
    choose(s, field_with(s, "30"), "far")
    assert s.doc.raw["max_sighting_in"] == 30 and "a number from 1 to 1000" in s.message[0]


# ------------------------------------------------------------------ 2. one edit, applied once


def test_typing_a_centre_moves_the_feature_once_to_where_it_is_typed(app):
    s = new_editor(app)
    wood(s)
    entry = field_with(s, "13.00, 12.50")
    for text in (
        "13.00, 12.5",
        "13.00, 12.",
        "13.00, 12",
        "13.00, 1",
        "13.00, ",
        "13.00, 3",
        "13.00, 30",
    ):
        type_text(s, entry, text)
    key(s, pygame.K_RETURN)  # applied on Enter, once (#43)
    ring = s.doc.raw["terrain"]["features"][0]["geometry"]["coordinates"][0]
    ys = sorted({p[1] for p in ring})
    assert ys == [27.5, 32.5]  # centred on y = 30, 5" deep, as typed
    assert sorted({p[0] for p in ring}) == [10, 16]
    assert len(s.doc.history.entries) == 2  # the drawing and one move
    key(s, pygame.K_z, pygame.KMOD_CTRL)
    ring = s.doc.raw["terrain"]["features"][0]["geometry"]["coordinates"][0]
    assert sorted({p[1] for p in ring}) == [10, 15]


# ------------------------------------------------------------------ 3. the terrain picture


def test_a_new_table_of_the_same_size_drops_the_old_terrain_picture(app):
    s = shipped_map(app, "modern-meeting")
    old = pygame.image.tobytes(s.drawing.terrain_layer(), "RGB")
    s.files.new_dialog()
    frame(s)
    press(s, 'Modern 60"x36"')
    assert s.doc.raw["terrain"]["features"] == []
    empty = new_editor(app)  # a fresh screen on an empty 60"x36" table, the same camera
    assert s.tv.view == empty.tv.view
    shown = pygame.image.tobytes(s.drawing.terrain_layer(), "RGB")
    assert shown != old and shown == pygame.image.tobytes(empty.drawing.terrain_layer(), "RGB")


def test_the_tables_ground_is_painted_as_set_and_taken_back_by_undo(app):
    """The Sinai's table is sand (``table.ground``); set to grass in the scenario panel's
    field the editor paints it green, and Ctrl+Z gives the sand back."""
    s = shipped_map(app, "modern-sinai-1967")

    def mean():  # the terrain layer's mean colour
        layer = s.drawing.terrain_layer()
        px = pygame.surfarray.array3d(layer).reshape(-1, 3)
        return px.mean(axis=0)

    sand = mean()
    assert sand[0] > sand[1] > sand[2]  # sandy: red over green over blue
    s.commit(SetField(("table", "ground"), "grass", "table's ground"))
    frame(s)
    grass = mean()
    assert grass[1] > grass[0] and s.table().ground == "grass"
    key(s, pygame.K_z, pygame.KMOD_CTRL)
    frame(s)
    assert s.doc.raw["table"]["ground"] == "sand" and (mean() == sand).all()


def test_opening_a_same_sized_map_draws_its_own_terrain(app, tmp_path):
    s = new_editor(app)
    blank = pygame.image.tobytes(s.drawing.terrain_layer(), "RGB")
    s.files._pending = "open"
    s.files.picked(ROOT / "maps" / "modern-meeting.json")
    frame(s)
    assert len(s.doc.raw["terrain"]["features"]) == 21
    assert pygame.image.tobytes(s.drawing.terrain_layer(), "RGB") != blank


# ------------------------------------------------------------------ 5. ask before replacing


def test_new_open_and_import_ask_before_replacing_unsaved_work(app, tmp_path):
    s = new_editor(app)
    wood(s)
    assert s.doc.history.dirty
    s.files.new_dialog()
    frame(s)
    press(s, 'Modern 60"x36"')
    assert "unsaved changes" in asking(s) and len(s.doc.raw["terrain"]["features"]) == 1
    for d in s.dialogs.windows:
        d.kill()
    s.files._pending = "open"
    s.files.picked(ROOT / "maps" / "modern-skirmish.json")
    assert "unsaved changes" in asking(s) and s.doc.raw["table"]["width"] == 60
    confirm(s)
    assert s.doc.raw["table"]["width"] == 36 and not s.doc.history.dirty
    wood(s, (2, 2), (5, 5))
    gj = tmp_path / "t.geojson"
    s.files.export_geojson(gj)
    s.files._pending = "import"
    s.files.picked(gj)
    assert "unsaved changes" in asking(s)


def test_an_earlier_sessions_autosave_is_kept_until_knowingly_dropped(app, data_dir):
    s = new_editor(app)
    wood(s)
    saved = (data_dir / "editor-autosave.json").read_text()
    s2 = shipped_map(app, "modern-skirmish")
    assert "autosave" in s2.message[0]
    key(s2, pygame.K_r)
    drag(s2, (2, 2), (5, 5))  # an edit here does not write over the earlier map
    assert (data_dir / "editor-autosave.json").read_text() == saved
    assert "Not autosaved" in s2.message[0] and s2.message[1]
    s2.files.new_dialog()
    frame(s2)
    press(s2, 'WWII 48"x24"')
    assert "unsaved changes" in asking(s2)


def test_a_restored_autosave_asks_before_saving_over_the_file_it_names(app, data_dir, tmp_path):
    target = tmp_path / "theirs.json"
    target.write_text('{"precious": true}')
    doc = Document.new("modern", 60, 36)
    doc.path = target
    s = editor_screen(app, doc)
    app.show(s)
    frame(s)
    wood(s)  # the autosave now names theirs.json
    s2 = editor_screen(app, None)
    app.show(s2)
    frame(s2)
    press(s2, "Restore the unsaved map")
    assert s2.doc.path == target
    key(s2, pygame.K_s, pygame.KMOD_CTRL)
    assert "Save over" in asking(s2) and target.read_text() == '{"precious": true}'
    confirm(s2)
    if asking(s2):  # the scenario has problems (no stands): saving asks that too
        confirm(s2)
    assert json.loads(target.read_text())["terrain"]["features"]


# ------------------------------------------------------------------ 4. balance views follow edits


def wait_for_view(screen, timeout=60):
    import time

    t0 = time.time()
    while screen.views._overlay_job and time.time() - t0 < timeout:
        time.sleep(0.05)
        frame(screen)
    frame(screen)


def test_a_balance_view_is_recomputed_after_an_edit_and_marked_stale_meanwhile(app):
    s = shipped_map(app, "modern-skirmish")
    s.views.show_view("sight A")
    wait_for_view(s)
    first = s.views.overlay[1]
    assert s.views.overlay_stale is None
    # a big wood in the middle of the table, drawn with the rectangle tool
    key(s, pygame.K_r)
    drag(s, (12, 6), (24, 18))
    assert (
        s.views.overlay is not None and s.views.overlay[1] is first
    )  # kept while the new one is made
    assert s.views.overlay_stale and "recomputing" in s.views.overlay_stale
    frame(s)
    assert s.views._overlay_job is not None
    wait_for_view(s)
    assert s.views.overlay_stale is None and s.views.overlay[1] is not first
    assert s.views.overlay[1].seen_fraction < first.seen_fraction  # the wood hides ground now


def test_a_view_of_a_map_made_invalid_says_it_is_out_of_date(app):
    s = shipped_map(app, "modern-skirmish")
    s.views.show_view("cost B")
    wait_for_view(s)
    s.commit(SetField(("stands", 0, "unit"), "Tiger", "unit"))  # not a modern unit
    frame(s)
    assert s.views.overlay is not None and "mend" in s.views.overlay_stale
    assert s.views._overlay_job is None  # not tried again at every frame
    frame(s)
    assert s.views._overlay_job is None


def test_the_sight_view_has_a_legend_and_its_summary_stays(app):
    s = shipped_map(app, "modern-skirmish")
    s.views.show_view("sight A")
    wait_for_view(s)
    plain = s.app.surface.copy()
    s.views.overlay_stale = None
    rect = s.tv.rect
    # the caption's box is drawn at the bottom-left of the table, in the panel's cream
    corner = (rect.x + 14, rect.bottom - 14)
    assert tuple(plain.get_at(corner))[:3] == (250, 248, 240)
    caption = plain.subsurface(pygame.Rect(rect.x, rect.bottom - 80, 620, 80))
    tones = {tuple(caption.get_at((x, y)))[:3] for x in range(620) for y in range(80)}
    from game.ui.editor.views import HIDDEN, shade_over_ground

    assert shade_over_ground(HIDDEN) in tones  # the legend's dead-ground swatch
    for p in [(300, 300), (400, 320), (500, 500)]:
        s.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=p, rel=(1, 1), buttons=(0, 0, 0)))
        frame(s)
    assert tuple(s.app.surface.get_at(corner))[:3] == (250, 248, 240)


# ------------------------------------------------------------------ 6. the table size in GeoJSON


def test_geojson_export_then_import_keeps_the_table_size(app, tmp_path):
    s = new_editor(app)
    wood(s)  # a small wood far from the table's far edges
    out = tmp_path / "t.geojson"
    s.files.export_geojson(out)
    assert json.loads(out.read_text())["hulldown_table"] == {"width": 60, "depth": 36}
    s.doc.history.mark_saved()
    s.files._pending = "import"
    s.files.picked(out)
    assert s.doc.raw["table"] == {"width": 60, "depth": 36}
    assert len(s.doc.raw["terrain"]["features"]) == 1


@pytest.mark.parametrize(
    "member, words",
    [
        ([60, 36], "must be an object"),
        ({"width": "60", "depth": 36}, "width: a number of inches"),
        ({"width": 60, "depth": True}, "depth: a number of inches"),
        ({"width": 60, "depth": 5000}, "depth: 5000 is not from 1 to 1000"),
        ({"width": 0, "depth": 36}, "width: 0 is not from 1 to 1000"),
    ],
)
def test_a_bad_table_size_in_geojson_is_named_and_nothing_is_replaced(app, tmp_path, member, words):
    from game.editor.geojson import GeoJSONError, import_table

    f = tmp_path / "bad.geojson"
    f.write_text(
        json.dumps({"type": "FeatureCollection", "features": [], "hulldown_table": member})
    )
    with pytest.raises(GeoJSONError) as err:
        import_table(f)
    assert str(f) in str(err.value) and "$.hulldown_table" in str(err.value)
    assert words in str(err.value)
    s = new_editor(app)
    s.files._pending = "import"
    s.files.picked(f)
    assert s.message[1] and words in s.message[0] and "Not imported" in s.message[0]
    assert s.doc.raw["table"] == {"width": 60, "depth": 36}


def wood_at(*corners):
    ring = [list(c) for c in corners] + [list(corners[0])]
    return {
        "type": "Feature",
        "properties": {"terrain": "woods"},
        "geometry": {"type": "Polygon", "coordinates": [ring]},
    }


@pytest.mark.parametrize(
    "corners, words",
    [
        (((-1, 2), (5, 2), (5, 6)), "reaches x = -1"),
        (((2, -0.5), (5, 2), (5, 6)), "y = -0.5"),
        (((2, 2), (1500, 2), (5, 6)), "at most 1000"),
        (((2, 2), (5, 2), (5, 1e9)), "at most 1000"),
        (((2, 2), (1e300, 2), (5, 1e300)), "at most 1000"),
    ],
)
def test_geojson_import_off_any_table_shows_the_error_on_screen(app, tmp_path, corners, words):
    f = tmp_path / "far.geojson"
    f.write_text(json.dumps({"type": "FeatureCollection", "features": [wood_at(*corners)]}))
    s = new_editor(app)
    s.files._pending = "import"
    s.files.picked(f)
    frame(s)
    assert s.message[1] and "Not imported" in s.message[0] and words in s.message[0]
    assert str(f) in s.message[0]
    assert s.doc.raw["terrain"]["features"] == []


# ------------------------------------------------------------------ 7. small faults


def test_enter_releases_a_text_field_so_the_next_key_is_a_shortcut(app):
    s = new_editor(app)
    s.show_panel("Scenario")
    frame(s)
    title = field_with(s, "New scenario")
    s.app.manager.set_focus_set(title)
    assert s.entries.typing()
    key(s, pygame.K_m, unicode="m")  # typed into the field, not a shortcut
    assert not isinstance(s.mode, MeasureMode)
    key(s, pygame.K_RETURN)
    assert not s.entries.typing()
    key(s, pygame.K_m, unicode="m")
    assert isinstance(s.mode, MeasureMode)


def test_a_grid_point_wins_over_a_nearby_edge_when_the_cursor_is_on_it():
    from game.editor import snapping

    raw = {"terrain": {"features": [wood_at((0, 0.1), (10, 0.1), (10, 8), (0, 8))]}}
    assert snapping.snap_point(raw, 5.0, 0.0, 0.5, 0.4) == (5, 0, "grid")
    assert snapping.snap_point(raw, 5.02, 0.11, 0.5, 0.4)[2] == "edge"  # on the edge: the edge
    assert snapping.snap_point(raw, 0.0, 0.0, 0.5, 0.4) == (0, 0, "grid")  # not the corner 0.1 off
    assert snapping.snap_point(raw, 0.03, 0.12, 0.5, 0.4) == (0, 0.1, "vertex")


def test_saved_files_have_the_users_permissions(app, tmp_path):
    import os

    s = new_editor(app)
    wood(s)
    old = os.umask(0o022)
    try:
        out = tmp_path / "shared.json"
        s.files.save(out, confirmed=True)
        gj = tmp_path / "shared.geojson"
        s.files.export_geojson(gj)
    finally:
        os.umask(old)
    assert out.stat().st_mode & 0o777 == 0o644
    assert gj.stat().st_mode & 0o777 == 0o644
    os.chmod(out, 0o640)  # an existing file keeps its own
    s.files.save(out, confirmed=True)
    assert out.stat().st_mode & 0o777 == 0o640


def test_save_as_offers_a_name_from_the_title_and_import_starts_in_the_scenarios_folder(app):
    from game.ui.editor.files import file_stem
    from game.ui.kit import user_maps

    assert file_stem("Night raid at Hill 203!") == "night-raid-at-hill-203"
    assert file_stem("") == "my-scenario" and file_stem(None) == "my-scenario"
    s = new_editor(app)
    s.show_panel("Scenario")
    frame(s)
    choose(s, field_with(s, "New scenario"), "Night raid")
    s.files.save_as()
    frame(s)
    dialog = s.dialogs.windows[-1]
    assert dialog.current_file_path.name == "night-raid.json"
    dialog.kill()
    s.files.new_dialog()
    frame(s)
    press(s, "Import GeoJSON")
    dialog = s.dialogs.windows[-1]
    assert Path(dialog.current_directory_path).resolve() == user_maps().resolve()


def test_history_says_as_saved_after_saving(app, tmp_path):
    s = new_editor(app)
    wood(s)
    s.show_panel("History")
    frame(s)
    box = next(w for w in s._fields if type(w).__name__ == "UITextBox" and w.alive())
    assert "unsaved changes" in box.html_text
    s.files.save(tmp_path / "h.json", confirmed=True)
    frame(s)
    box = next(w for w in s._fields if type(w).__name__ == "UITextBox" and w.alive())
    assert "as saved" in box.html_text


def test_the_map_panel_never_says_minus_zero(app):
    from game.editor.history import History

    raw = Document.new("modern", 60, 36).raw
    # the right half's wood is 0.5 sq in larger: a difference of -0.05% of a half
    raw["terrain"]["features"] = [
        wood_at((10, 10), (20, 10), (20, 20), (10, 20)),
        wood_at((40, 10), (50, 10), (50, 20.05), (40, 20.05)),
    ]
    s = editor_screen(app, Document(History(raw)))
    app.show(s)
    s.show_panel("Map")
    frame(s)
    text = " ".join(w.html_text for w in s._fields if type(w).__name__ == "UITextBox")
    assert "woods: " in text and "diff +0.0" in text and "-0.0" not in text


# ------------------------------------------------------------------ 8. what editor users expect


def test_ctrl_a_selects_all_and_ctrl_c_ctrl_v_paste_a_copy(app):
    s = new_editor(app)
    wood(s)
    wood(s, (30, 10), (34, 14))
    s.show_panel("Forces")
    frame(s)
    s._pick_unit("M1A2 Abrams")
    click(s, 20, 20)
    key(s, pygame.K_v)
    key(s, pygame.K_ESCAPE)
    key(s, pygame.K_a, pygame.KMOD_CTRL)
    assert s.selection == [("feature", 0), ("feature", 1), ("stand", 0)]
    s.select([("feature", 1), ("stand", 0)])
    key(s, pygame.K_c, pygame.KMOD_CTRL)
    key(s, pygame.K_DELETE)  # what was copied need not be there when pasted
    assert len(s.doc.raw["terrain"]["features"]) == 1 and s.doc.raw["stands"] == []
    key(s, pygame.K_v, pygame.KMOD_CTRL)
    feats, stands = s.doc.raw["terrain"]["features"], s.doc.raw["stands"]
    assert len(feats) == 2 and len(stands) == 1
    assert feats[1]["geometry"]["coordinates"][0][0] == [31, 9]  # 1" right, 1" down
    assert (stands[0]["x"], stands[0]["y"]) == (21, 19)
    assert s.selection == [("feature", 1), ("stand", 0)]
    key(s, pygame.K_z, pygame.KMOD_CTRL)  # one history line
    assert len(s.doc.raw["terrain"]["features"]) == 1


def test_arrow_keys_nudge_the_selection_and_pan_without_one(app):
    s = new_editor(app)
    wood(s)
    ring = lambda: s.doc.raw["terrain"]["features"][0]["geometry"]["coordinates"][0]  # noqa: E731
    key(s, pygame.K_RIGHT)
    assert ring()[0] == [10.1, 10]
    key(s, pygame.K_UP, pygame.KMOD_SHIFT)
    assert ring()[0] == [10.1, 10.5]
    key(s, pygame.K_LEFT, pygame.KMOD_SHIFT)
    key(s, pygame.K_DOWN)
    assert ring()[0] == [9.6, 10.4]
    key(s, pygame.K_ESCAPE)
    origin = s.tv.view.origin
    key(s, pygame.K_RIGHT)
    assert ring()[0] == [9.6, 10.4] and s.tv.view.origin != origin


def test_every_line_of_a_wrapped_problem_is_clickable(app):
    from pygame_gui.core.text.hyperlink_text_chunk import HyperlinkTextChunk

    from game.editor.history import History

    raw = json.loads((ROOT / "maps" / "modern-skirmish.json").read_text())
    raw["stands"][4]["unit"] = "Tiger"  # a problem long enough to wrap onto three lines
    s = editor_screen(app, Document(History(raw)))
    app.show(s)
    s.show_panel("Problems")
    frame(s)
    k = next(i for i, p in enumerate(s.problems) if "Tiger" in p.text)
    box = next(w for w in s._fields if type(w).__name__ == "UITextBox" and w.alive())
    base_x, base_y = box._calculate_hyperlinks_offsets()
    lines = [
        c
        for row in box.text_box_layout.layout_rows
        for c in row.items
        if isinstance(c, HyperlinkTextChunk) and c.href == f"problem:{k}"
    ]
    assert len(lines) >= 2
    first = lines[0]
    at = (base_x + first.x + 5, base_y + first.y + first.size[1] // 2)
    s.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0)))
    s.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=at, button=1))
    s.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=at, button=1))
    for ev in pygame.event.get():
        s.handle(ev)
    frame(s)
    assert s.selection == [("stand", 4)] and "Tiger" in s.message[0]


@pytest.mark.parametrize("size", [(800, 600), (999, 649), (1280, 800)])
def test_a_small_window_keeps_the_status_line_and_buttons_inside(size):
    from game.ui.app import App
    from game.ui.editor.layout import TOOLS_W

    app = App(size=size)
    try:
        s = shipped_map(app, "modern-meeting")
        s.say("A long message that says what the tool does next and needs two lines when narrow")
        frame(s)
        window = pygame.Rect((0, 0), size)
        status = s.drawing.status_rect()
        assert window.contains(status)
        buttons = [b for b in s._widgets if b.alive()]
        assert all(window.contains(b.rect) for b in buttons)
        assert all(b.rect.bottom <= status.top for b in buttons if b.rect.x < TOOLS_W)
        top = [b for b in buttons if b.rect.y < 40]
        assert all(b.rect.left >= s.toolbar.title.rect.right for b in top)
        assert (
            s.toolbar.title.rect.width >= 60
            and "(modern-meeting.json)" in s.toolbar.title.text
            or "..." in (s.toolbar.title.text)
        )
        if size[0] < 1000:
            assert status.width == size[0]  # across the whole foot of the window
    finally:
        pygame.quit()


def test_the_selection_turns_by_a_typed_angle(app):
    s = new_editor(app)
    wood(s)  # 10..16 x 10..15, centred on (13, 12.5)
    choose(s, field_with(s, "90"), "4")
    choose(s, field_with(s, "4"), "x")  # not a number: said, the angle kept
    assert "degrees" in s.message[0] and s.turn_by == 4
    choose(s, field_with(s, "4"), "-90")
    ring = s.doc.raw["terrain"]["features"][0]["geometry"]["coordinates"][0]
    assert sorted({p[0] for p in ring}) == [10, 16]  # typing turns nothing
    press(s, "Turn by the degrees typed")
    ring = s.doc.raw["terrain"]["features"][0]["geometry"]["coordinates"][0]
    assert sorted({p[0] for p in ring}) == [10.5, 15.5] and sorted({p[1] for p in ring}) == [
        9.5,
        15.5,
    ]


def test_the_grid_size_is_a_setting(app):
    s = new_editor(app)
    choose(s, s.toolbar.grid_entry, "0")
    assert s.grid_size == 0.5 and s.message[1]
    choose(s, s.toolbar.grid_entry, "2")
    assert s.grid_size == 2
    key(s, pygame.K_RETURN)  # leaves the field: R is a shortcut again
    key(s, pygame.K_r)
    drag(s, (10.6, 10.7), (15.2, 13.4))
    ring = s.doc.raw["terrain"]["features"][0]["geometry"]["coordinates"][0]
    assert {p[0] for p in ring} == {10, 16} and {p[1] for p in ring} == {10, 14}


def test_recent_files_are_offered_under_new(app, data_dir, tmp_path):
    from game.editor.document import recent_files

    s = new_editor(app)
    wood(s)
    mine = tmp_path / "mine.json"
    s.files.save(mine, confirmed=True)
    s.files._pending = "open"
    s.files.picked(ROOT / "maps" / "modern-skirmish.json")
    listed = recent_files(data_dir / "editor-recent.json")
    assert listed == [(ROOT / "maps" / "modern-skirmish.json").resolve(), mine.resolve()]
    s.files.new_dialog()
    frame(s)
    press(s, "Open mine.json")
    assert s.doc.path == mine and len(s.doc.raw["terrain"]["features"]) == 1
    mine.unlink()  # a file gone is not offered
    assert recent_files(data_dir / "editor-recent.json") == [
        (ROOT / "maps" / "modern-skirmish.json").resolve()
    ]
    (data_dir / "editor-recent.json").write_text('{"recent": [3, null, ""]}')
    assert recent_files(data_dir / "editor-recent.json") == []
    (data_dir / "editor-recent.json").write_text("not json")
    assert recent_files(data_dir / "editor-recent.json") == []


def test_the_undo_history_is_kept_across_an_autosave_restore(app, data_dir):
    s = new_editor(app)
    wood(s)
    key(s, pygame.K_RIGHT)  # a nudge
    s.show_panel("Scenario")
    frame(s)
    choose(s, field_with(s, "New scenario"), "Kept")
    s.app.manager.set_focus_set(None)
    frame(s)
    labels = [e.label for e in s.doc.history.entries]
    after = json.dumps(s.doc.raw, sort_keys=True)
    s2 = editor_screen(app, None)
    app.show(s2)
    frame(s2)
    press(s2, "Restore the unsaved map")
    assert [e.label for e in s2.doc.history.entries] == labels and "3 change(s)" in s2.message[0]
    assert json.dumps(s2.doc.raw, sort_keys=True) == after
    for _ in labels:
        key(s2, pygame.K_z, pygame.KMOD_CTRL)
    assert s2.doc.raw["terrain"]["features"] == [] and s2.doc.raw["title"] == "New scenario"
    key(s2, pygame.K_y, pygame.KMOD_CTRL)
    assert len(s2.doc.raw["terrain"]["features"]) == 1


def test_an_autosave_history_that_does_not_fit_is_dropped_not_trusted(data_dir):
    from game.editor.document import read_session

    f = data_dir / "a.json"
    data_dir.mkdir(parents=True, exist_ok=True)
    raw = Document.new("modern", 60, 36).raw
    bad = {
        "entries": [
            {
                "label": "x",
                "redo": {"op": "remove", "kind": "stand", "index": 5},
                "undo": {"op": "insert", "kind": "stand", "index": 5, "item": {}},
            }
        ]
    }
    for history in (bad, {"entries": "no"}, {"entries": [{"label": 3}]}, None):
        payload = {"format": "hulldown-editor-autosave/1", "scenario": raw, "history": history}
        f.write_text(json.dumps(payload))
        doc = read_session(f)
        assert doc.history.entries == [] and doc.raw["title"] == "New scenario"


def test_a_single_feature_can_be_locked_and_hidden(app):
    s = new_editor(app)
    wood(s)
    wood(s, (30, 10), (34, 14))
    s.select([("feature", 0)])
    frame(s)
    press(s, "Lock feature")
    key(s, pygame.K_v)
    click(s, 13, 12)
    assert s.selection == []  # a locked feature is not picked
    drag(s, (13, 12), (20, 20))  # nor moved: the press on it starts a box
    ring = s.doc.raw["terrain"]["features"][0]["geometry"]["coordinates"][0]
    assert ring[0] == [10, 10]
    key(s, pygame.K_a, pygame.KMOD_CTRL)
    assert s.selection == [("feature", 1)]
    frame(s)
    before = tuple(s.app.surface.get_at(tuple(int(v) for v in s.tv.to_px(32, 12))))
    press(s, "Hide feature")
    frame(s)
    after = tuple(s.app.surface.get_at(tuple(int(v) for v in s.tv.to_px(32, 12))))
    assert after != before  # the wood is no longer drawn there
    click(s, 32, 12)
    assert s.selection == []
    assert len(s.doc.raw["terrain"]["features"]) == 2  # nothing deleted or lost
    s.show_panel("Map")
    frame(s)
    press(s, "Show 1 hidden, unlock 1 locked")
    click(s, 32, 12)
    assert s.selection == [("feature", 1)]
    shown = tuple(s.app.surface.get_at(tuple(int(v) for v in s.tv.to_px(32, 12))))
    assert shown == before  # drawn again
    click(s, 13, 12)
    assert s.selection == [("feature", 0)]


def test_terrain_drop_down_entries_fit_their_menus(app):
    from game.ui.editor.layout import menu_kind, menu_name

    s = new_editor(app)
    wood(s)
    menus = [s.toolbar.area_menu] + [
        w for w in s._panel_widgets if type(w).__name__ == "UIDropDownMenu" and w.alive()
    ]
    assert len(menus) == 2
    for menu in menus:
        font = app.manager.get_theme().get_font(menu.combined_element_ids)
        for text, _ in menu.options_list:
            assert font.size(text)[0] <= menu.rect.width - 24, text
    for kind in s.doc.data.terrain:
        assert menu_kind(menu_name(kind)) == kind
    choose(s, s.toolbar.area_menu, "medium impr. pos.")
    assert s.draw_area == "medium_improved_position"


def test_a_briefing_with_a_huge_word_is_not_wrapped_for_seconds_and_can_be_mended(app):
    import time

    from game.editor.history import History

    raw = Document.new("modern", 60, 36).raw
    raw["description"] = "Hold " + "x" * 20000 + " the bridge."
    s = editor_screen(app, Document(History(raw)))
    app.show(s)
    t0 = time.perf_counter()
    s.show_panel("Scenario")
    frame(s)
    assert time.perf_counter() - t0 < 2
    assert not any(type(w).__name__ == "UITextEntryBox" for w in s._panel_widgets)
    press(s, "Break its long words")
    words = s.doc.raw["description"].split()
    assert words[0] == "Hold" and words[-2:] == ["the", "bridge."]
    assert max(len(w) for w in words) == 100 and "".join(words[1:-2]) == "x" * 20000
    frame(s)
    assert any(type(w).__name__ == "UITextEntryBox" for w in s._panel_widgets)


def test_saving_with_a_file_as_the_data_folder_saves_and_does_not_raise(app, tmp_path, monkeypatch):
    """#30: with a file where the data folder should be, saving a map raised
    NotADirectoryError from the autosave's clean-up after the map was written."""
    (tmp_path / "datafile").write_text("x")
    monkeypatch.setenv("HULLDOWN_DATA_DIR", str(tmp_path / "datafile"))
    s = new_editor(app)
    wood(s)
    assert s.files.save(tmp_path / "m.json", confirmed=True)
    assert json.loads((tmp_path / "m.json").read_text())["terrain"]["features"]
