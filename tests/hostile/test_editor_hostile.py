"""Hostile scenario files opened in the map editor (issue 30): any JSON object opens, its
problems are listed, and nothing the editor does to it raises or hangs.

Each case is a shipped map with one field made wrong (the wrong JSON type, 3-D positions,
1e308 coordinates, null geometry, a lone surrogate or a NUL in a name). It is opened the way
``hulldown edit FILE`` opens it and the way the autosave's Restore does, on the real editor
screen (dummy video driver), then driven by synthetic events: every panel, each item selected
and turned, scaled, copied, dragged and deleted, undone, the ruler, test play.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from game.editor.document import Document
from game.editor.mend import mend_shape
from game.ui.editor import editor_screen
from tests.helpers import editor_frame as frame
from tests.helpers import editor_press as press
from tests.helpers import work_on

ROOT = Path(__file__).resolve().parents[2]
BASE = json.loads((ROOT / "maps" / "modern-skirmish.json").read_text())
F = ("terrain", "features")

pytestmark = pytest.mark.usefixtures("data_dir")


def _ring(*pts):
    return [[list(p) for p in pts] + [list(pts[0])]]


# (case, path to the wrong field, its wrong value, what a listed problem names)
CASES = [
    ("terrain a list", ("terrain",), [], "$.terrain"),
    ("terrain text", ("terrain",), "x", "$.terrain"),
    ("terrain null", ("terrain",), None, "$.terrain"),
    ("features an object", F, {}, "$.terrain.features"),
    ("features text", F, "abc", "$.terrain.features"),
    ("features null", F, None, "$.terrain.features"),
    ("a feature text", (*F, 0), "x", ": terrain.features[0]:"),
    ("a feature null", (*F, 0), None, ": terrain.features[0]:"),
    ("a feature a list", (*F, 0), [1, 2], ": terrain.features[0]:"),
    ("properties null", (*F, 0, "properties"), None, "$.terrain.features[0].properties"),
    ("properties a list", (*F, 0, "properties"), [], "$.terrain.features[0].properties"),
    ("terrain type a list", (*F, 0, "properties", "terrain"), ["woods"], "properties.terrain"),
    ("level text", (*F, 0, "properties", "level"), "two", "properties.level"),
    ("name a list", (*F, 0, "properties", "name"), [1], "properties.name"),
    ("name a lone surrogate", (*F, 0, "properties", "name"), "\ud800", "properties.name"),
    ("geometry null", (*F, 0, "geometry"), None, "$.terrain.features[0].geometry"),
    ("geometry text", (*F, 0, "geometry"), "x", "$.terrain.features[0].geometry"),
    ("geometry type unknown", (*F, 0, "geometry", "type"), "Circle", "features[0].geometry"),
    ("geometry type a list", (*F, 0, "geometry", "type"), ["Polygon"], "features[0].geometry"),
    ("coordinates null", (*F, 0, "geometry", "coordinates"), None, "geometry.coordinates"),
    ("coordinates text", (*F, 0, "geometry", "coordinates"), "abc", "geometry.coordinates"),
    (
        "3-D positions",
        (*F, 0, "geometry", "coordinates"),
        [[[1, 1, 5], [5, 1, 5], [5, 5, 5], [1, 1, 5]]],
        "coordinates[0][0]",
    ),
    (
        "1e308 coordinates",
        (*F, 0, "geometry", "coordinates"),
        _ring((1e308, 1), (5, 1e308), (5, 5)),
        "outside",
    ),
    (
        "a polygon reaching 1e300",
        (*F, 0, "geometry", "coordinates"),
        _ring((1, 1), (1e300, 1), (5, 1e300)),
        "outside",
    ),
    (
        "coordinates of text",
        (*F, 0, "geometry", "coordinates"),
        _ring(("1", "1"), ("5", "1"), ("5", "5")),
        "numbers",
    ),
    ("coordinates too deep", (*F, 0, "geometry", "coordinates"), [[[[1, 1]]]], "coordinates"),
    ("sides text", ("sides",), "AB", "$.sides"),
    ("sides an object", ("sides",), {"A": 1}, "$.sides"),
    ("sides null", ("sides",), None, "$.sides"),
    ("sides of text", ("sides",), ["A", "B"], ": sides[0]:"),
    ("a side's id a list", ("sides", 0, "id"), ["A"], "$.sides[0].id"),
    ("a side's id null", ("sides", 0, "id"), None, "$.sides[0].id"),
    ("a side's name a list", ("sides", 0, "name"), [1], "$.sides[0].name"),
    ("a side's name a surrogate", ("sides", 0, "name"), "\ud800", "$.sides[0].name"),
    ("a side's edge a list", ("sides", 0, "entry_edge"), ["left"], "$.sides[0].entry_edge"),
    ("a side's cohesion text", ("sides", 0, "cohesion"), "x", "$.sides[0].cohesion"),
    ("stands an object", ("stands",), {}, "$.stands"),
    ("stands text", ("stands",), "x", "$.stands"),
    ("stands null", ("stands",), None, "$.stands"),
    ("a stand text", ("stands", 0), "x", ": stands[0]:"),
    ("a stand null", ("stands", 0), None, ": stands[0]:"),
    ("a stand's x text", ("stands", 0, "x"), "3", "$.stands[0].x"),
    ("a stand's x a 3-D position", ("stands", 0, "x"), [1, 2, 3], "$.stands[0].x"),
    ("a stand's x 1e308", ("stands", 0, "x"), 1e308, "$.stands[0]"),
    ("a stand's facing text", ("stands", 0, "facing_deg"), "north", "$.stands[0].facing_deg"),
    ("a stand's side a list", ("stands", 0, "side"), ["A"], "$.stands[0].side"),
    ("a stand's unit a list", ("stands", 0, "unit"), ["T-80U"], "$.stands[0].unit"),
    ("a stand's id a surrogate", ("stands", 0, "id"), "A\udc00", "$.stands[0].id"),
    ("a title with a lone surrogate", ("title",), "bad \ud800 title", "$.title"),
    ("a title with a NUL", ("title",), "a\x00b", "$.title"),
    ("a title a list", ("title",), ["a"], "$.title"),
    ("a title null", ("title",), None, "$.title"),
    ("a description a list", ("description",), [1], "$.description"),
    ("a description of one 20,000-letter word", ("description",), "x" * 20000, "$.description"),
    ("a ruleset a list", ("ruleset",), ["modern"], "$.ruleset"),
    ("a ruleset unknown", ("ruleset",), "napoleonic", "$.ruleset"),
    ("a table a list", ("table",), [60, 36], "$.table"),
    ("a table width text", ("table", "width"), "60", "$.table.width"),
    ("a table width 1e308", ("table", "width"), 1e308, "$.table.width"),
    ("victory a list", ("victory",), [1], "$.victory"),
    ("turns text", ("turns",), "x", "$.turns"),
    ("sighting a list", ("max_sighting_in",), [1], "$.max_sighting_in"),
]


def hostile(path, value) -> dict:
    raw = copy.deepcopy(BASE)
    d = raw
    for k in path[:-1]:
        d = d[k]
    d[path[-1]] = value
    return raw


def as_file(tmp_path, raw) -> Path:
    """The scenario written as a file (surrogates as JSON escapes, as a hostile file has)."""
    f = tmp_path / "hostile.json"
    f.write_text(json.dumps(raw, ensure_ascii=True))
    return f


def listed(screen, words: str) -> None:
    """The Problems panel lists a problem naming ``words``, drawn without an exception."""
    screen.show_panel("Problems")
    frame(screen)
    assert any(words in p.text for p in screen.problems), [p.text for p in screen.problems]
    box = next(w for w in screen._fields if type(w).__name__ == "UITextBox" and w.alive())
    assert "problem" in box.html_text and "problem(s)" not in box.html_text


@pytest.mark.parametrize("path, value, words", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_hulldown_edit_opens_a_hostile_file_lists_its_problem_and_works_on(
    app, tmp_path, path, value, words
):
    doc = Document.open(as_file(tmp_path, hostile(path, value)))
    s = editor_screen(app, doc)
    app.show(s)
    frame(s)
    listed(s, words)
    work_on(s)
    frame(s)


@pytest.mark.parametrize("path, value, words", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_autosave_of_a_hostile_map_is_restored_and_its_problem_listed(
    app, data_dir, path, value, words
):
    data_dir.mkdir(parents=True, exist_ok=True)
    payload = {
        "format": "hulldown-editor-autosave/1",
        "saved_at": 0,
        "path": None,
        "scenario": hostile(path, value),
    }
    (data_dir / "editor-autosave.json").write_text(json.dumps(payload, ensure_ascii=True))
    s = editor_screen(app, None)
    app.show(s)
    frame(s)
    press(s, "Restore the unsaved map")
    assert s.doc.history.dirty
    listed(s, words)
    frame(s)


def test_mending_names_what_it_changed_and_keeps_right_values():
    raw = hostile(("sides",), "AB")
    raw["title"] = "x\ud800y"
    raw["stands"][1] = None
    before_stand = copy.deepcopy(raw["stands"][0])
    notes = mend_shape(raw)
    assert raw["sides"] == [] and raw["title"] == "x\ufffdy"
    assert raw["stands"][0] == before_stand and len(raw["stands"]) == len(BASE["stands"]) - 1
    assert any(n.startswith('$.sides: text "AB"') for n in notes)
    assert any(n.startswith("stands[1]: null, not a stand object") for n in notes)
    assert any(n.startswith("$.title:") for n in notes)
    assert mend_shape(copy.deepcopy(BASE)) == []  # a valid scenario is left alone
    with pytest.raises(TypeError):
        mend_shape([])  # type: ignore[arg-type]


def test_a_far_polygon_is_left_out_of_the_drawing_not_drawn_for_ever(app):
    import time

    from game.editor.document import table_of

    raw = hostile((*F, 0, "geometry", "coordinates"), _ring((1, 1), (1e300, 1), (5, 1e300)))
    table, bad = table_of(raw, Document.new("modern", 36, 24).data)
    assert 0 in bad and all(f.index != 0 for f in table.features)
    t0 = time.perf_counter()
    s = editor_screen(app, Document.open(ROOT / "maps" / "modern-skirmish.json"))
    s.doc = Document(s.doc.history.__class__(raw))
    app.show(s)
    frame(s)
    s.select([("feature", 0)])
    frame(s)
    assert time.perf_counter() - t0 < 10
