"""Issue 30's editor faults, each driven on the real editor screen (dummy video driver) by
synthetic pygame events, or on the editor's model: fields that wait for valid input, a centre
typed once, the terrain picture after opening, stale balance views, asking before unsaved
work is replaced, the table size through GeoJSON, and the small faults."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from tests.test_editor_ui import choose, click, drag, frame, key, new_editor

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.usefixtures("data_dir")


def field_with(screen, text):
    """The panel's text entry showing ``text``."""
    return next(
        w
        for w in screen._fields
        if type(w).__name__ == "UITextEntryLine" and w.alive() and w.get_text() == text
    )


def type_into(screen, widget, text):
    """Type ``text`` into a focused entry key by key, as a player does (each key a
    UI_TEXT_ENTRY_CHANGED through the real widget)."""
    screen.app.manager.set_focus_set(widget)
    for ch in text:
        ev = pygame.event.Event(pygame.TEXTINPUT, text=ch)
        screen.handle(ev)
        for posted in pygame.event.get():
            screen.handle(posted)
        frame(screen)


def wood(screen, a=(10, 10), b=(16, 15)):
    key(screen, pygame.K_r)
    drag(screen, a, b)
    key(screen, pygame.K_v)
    click(screen, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    assert screen.selection == [("feature", 0)]


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
    vfield = field_with(s, "10, 10")
    before = json.dumps(s.doc.raw)
    choose(s, vfield, "1")
    assert json.dumps(s.doc.raw) == before and "Vertex" in s.message[0] and s.message[1]
    choose(s, vfield, "9, 9")
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
    pos = field_with(s, "20, 20")
    for bad in ("1", "a, b"):
        choose(s, pos, bad)
        assert (s.doc.raw["stands"][0]["x"], s.doc.raw["stands"][0]["y"]) == (20, 20)
        assert "Stand position" in s.message[0]
    choose(s, pos, "21, 19")
    assert (s.doc.raw["stands"][0]["x"], s.doc.raw["stands"][0]["y"]) == (21, 19)


def test_a_number_field_says_in_words_what_it_wants(app):
    s = new_editor(app)
    s.show_panel("Scenario")
    frame(s)
    choose(s, field_with(s, "12"), "twelve")
    assert s.doc.raw["turns"] == 12
    assert s.message[0] == "type a whole number from 1 to 100" and "literal" not in s.message[0]
    choose(s, field_with(s, "30"), "far")
    assert s.doc.raw["max_sighting_in"] == 30 and "a number above 0" in s.message[0]


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
        choose(s, entry, text)
    ring = s.doc.raw["terrain"]["features"][0]["geometry"]["coordinates"][0]
    ys = sorted({p[1] for p in ring})
    assert ys == [27.5, 32.5]  # centred on y = 30, 5" deep, as typed
    assert sorted({p[0] for p in ring}) == [10, 16]
    assert len(s.doc.history.entries) == 2  # the drawing and one move
    key(s, pygame.K_z, pygame.KMOD_CTRL)
    ring = s.doc.raw["terrain"]["features"][0]["geometry"]["coordinates"][0]
    assert sorted({p[1] for p in ring}) == [10, 15]
