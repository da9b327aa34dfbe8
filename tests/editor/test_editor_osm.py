"""The map editor's Import OpenStreetMap dialog on the real Helsinki extract: the preview, a
box dragged on it, the table shown in inches and km before the import, and the import."""

from __future__ import annotations

import pygame
import pytest

from game.editor.osm import table_for
from tests.helpers import HELSINKI, needs_helsinki, new_editor
from tests.helpers import editor_frame as frame
from tests.helpers import editor_press as press

pytestmark = [pytest.mark.usefixtures("data_dir"), needs_helsinki]


def mouse(s, kind, pos, **kw):
    s.handle(pygame.event.Event(kind, pos=pos, **kw))


def open_dialog(app):
    s = new_editor(app)
    s.files.new_dialog()
    frame(s)
    press(s, "Import OpenStreetMap")
    assert s.files._pending == "import-osm"
    s.dialogs.windows[-1].kill()
    s.files.picked(HELSINKI)
    frame(s)
    return s, s.files._osm


def test_the_preview_shows_the_table_before_it_is_made(app):
    s, dlg = open_dialog(app)
    assert dlg.window.alive()
    # the whole extract to start with, at the rules' 100 m to the inch
    assert dlg.size_label.text == 'Table 10" x 17"'
    assert dlg.km_label.text == "1.01 x 1.67 km at 100 m to the inch"
    # drag a box over the middle of the preview's lower half: the table shrinks with it
    r = dlg.image.get_abs_rect()
    a = (r.x + r.w // 4, r.y + r.h // 2)
    b = (r.x + 3 * r.w // 4, r.y + 7 * r.h // 8)
    mouse(s, pygame.MOUSEBUTTONDOWN, a, button=1)
    mouse(s, pygame.MOUSEMOTION, b, rel=(0, 0), buttons=(1, 0, 0))
    mouse(s, pygame.MOUSEBUTTONUP, b, button=1)
    frame(s)
    w, so, e, n = dlg.bbox
    fw, fs, fe, fn = dlg.ext.bounds
    assert fw <= w < e <= fe and fs <= so < n < fn  # cut to the extract where it overhangs
    (tw, td), (kw, kd) = table_for(dlg.bbox)
    assert dlg.size_label.text == f'Table {tw:g}" x {td:g}"'
    assert dlg.km_label.text.startswith(f"{kw:.2f} x {kd:.2f} km")
    # a town fight's scale: twice the inches
    dlg.scale.set_text("50")
    dlg.refresh()
    (tw2, td2), _ = table_for(dlg.bbox, 50)
    assert dlg.size_label.text == f'Table {tw2:g}" x {td2:g}"' and tw2 >= 2 * tw - 1
    press(s, "Import")
    assert not dlg.window.alive()
    raw = s.doc.raw
    assert raw["table"] == {"width": tw2, "depth": td2}
    assert "OpenStreetMap contributors (ODbL)" in raw["description"]
    assert len(raw["terrain"]["features"]) > 20
    assert "Imported" in s.message[0] and not s.message[1]


def test_a_scale_out_of_range_disables_import(app):
    s, dlg = open_dialog(app)
    dlg.scale.set_text("0.5")
    dlg.refresh()
    assert "Scale" in dlg.size_label.text and not dlg.ok_button.is_enabled


def test_a_file_that_is_not_osm_is_named_in_the_status_line(app, tmp_path):
    s = new_editor(app)
    bad = tmp_path / "x.osm"
    bad.write_text("hello", encoding="utf-8")
    s.files._pending = "import-osm"
    s.files.picked(bad)
    frame(s)
    text, error = s.message
    assert error and "not an OpenStreetMap file" in text and str(bad) in text
