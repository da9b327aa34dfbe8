"""The editor's model: commands and their inverses, the history, the geometry of the tools,
and documents (no pygame)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.editor import edits, snapping
from game.editor.commands import MISSING, Batch, Insert, Remove, Replace, SetField
from game.editor.document import (
    Document,
    EditorFileError,
    dumps,
    new_scenario,
    read_session,
    validate,
    write_session,
)
from game.editor.history import History
from game.rules.charts.data import load_rules_data
from game.rules.files.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
DATA = load_rules_data()


def skirmish() -> dict:
    return json.loads((ROOT / "maps" / "modern-skirmish.json").read_text())


WOOD = edits.make_feature("woods", "Polygon", edits.rectangle(2, 2, 6, 5))


# ------------------------------------------------------------------ commands: perform / undo / redo

COMMANDS = [
    ("insert a feature", Insert("feature", 0, WOOD)),
    ("insert a stand at the end", Insert("stand", 6, {"id": "Z1", "side": "A", "x": 3, "y": 3})),
    ("remove a feature", Remove("feature", 1)),
    ("remove a stand", Remove("stand", 0)),
    ("replace a feature", Replace("feature", 0, WOOD)),
    ("set a field", SetField(("table", "width"), 40)),
    ("set a side's field", SetField(("sides", 1, "name"), "Red")),
    ("set a missing field", SetField(("briefing_extra",), "x")),
    ("delete a field", SetField(("description",), MISSING)),
    ("batch", Batch((Remove("stand", 2), Insert("feature", 0, WOOD), SetField(("turns",), 3)))),
]


@pytest.mark.parametrize("name,cmd", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_perform_undo_redo_round_trip(name, cmd):
    raw = skirmish()
    before = dumps(raw)
    inverse = cmd.perform(raw)
    after = dumps(raw)
    assert after != before
    again = inverse.perform(raw)
    assert dumps(raw) == before
    again.perform(raw)
    assert dumps(raw) == after


def test_commands_do_not_share_dicts_with_the_document():
    raw = skirmish()
    feature = copy.deepcopy(WOOD)
    Insert("feature", 0, feature).perform(raw)
    feature["properties"]["terrain"] = "marsh"
    assert raw["terrain"]["features"][0]["properties"]["terrain"] == "woods"


def test_a_failing_batch_leaves_the_document_as_it_was():
    raw = skirmish()
    before = dumps(raw)
    with pytest.raises(IndexError):
        Batch((Insert("feature", 0, WOOD), Remove("stand", 99))).perform(raw)
    assert dumps(raw) == before


# ------------------------------------------------------------------ history


def test_history_undo_redo_jump_and_dirty():
    h = History(skirmish())
    original = dumps(h.raw)
    assert not h.dirty and not h.can_undo
    h.do(SetField(("turns",), 3, "turns 3"))
    h.do(Insert("feature", 0, WOOD, "draw woods"))
    assert h.dirty and h.labels() == ["turns 3", "draw woods"]
    h.undo()
    h.undo()
    assert dumps(h.raw) == original and not h.dirty
    h.jump(2)
    assert h.raw["turns"] == 3 and h.raw["terrain"]["features"][0] == WOOD
    h.mark_saved()
    assert not h.dirty
    h.undo()
    assert h.dirty
    h.do(SetField(("turns",), 5))  # a new change drops the redo branch and the saved state
    assert not h.can_redo and h.saved_position is None and h.dirty
    with pytest.raises(ValueError):
        h.jump(7)


def test_a_drag_is_one_history_entry():
    h = History(skirmish())
    old = copy.deepcopy(h.raw["terrain"]["features"][0])
    for dx in (0.5, 1.0, 1.5, 2.0):
        moved = edits.map_feature(old, edits.translation(dx, 0))
        h.do(Replace("feature", 0, moved, "move"), merge_key=("drag", 1))
    h.end_merge()
    assert len(h.entries) == 1
    assert h.raw["terrain"]["features"][0] == edits.map_feature(old, edits.translation(2.0, 0))
    h.undo()
    assert h.raw["terrain"]["features"][0] == old
    h.redo()
    assert h.raw["terrain"]["features"][0] == edits.map_feature(old, edits.translation(2.0, 0))


def test_history_keeps_its_limit_of_entries():
    h = History(skirmish(), limit=200)
    for t in range(1, 251):
        h.do(SetField(("turns",), t % 90 + 1))
    assert len(h.entries) == 200 and h.position == 200
    assert h.saved_position is None and h.dirty  # the opened state is out of reach
    h.jump(0)
    assert h.raw["turns"] == 50 % 90 + 1  # the state after the 50th change, the oldest kept


# a random sequence of edits, drawn by hypothesis, over the skirmish map
def _edit(raw: dict, choice: int, a: float, b: float):
    feats = raw["terrain"]["features"]
    stands = raw["stands"]
    k = choice % 9
    if k == 0 or not feats:
        return Insert(
            "feature",
            len(feats),
            edits.make_feature("woods", "Polygon", edits.round_lot(3 + a * 30, 3 + b * 18, 2)),
        )
    i = int(a * 1000) % len(feats)
    if k == 1:
        return Remove("feature", i)
    if k == 2:
        return edits.transform(raw, [("feature", i)], edits.translation(a - 0.5, b - 0.5), "move")
    if k == 3:
        return edits.transform(raw, [("feature", i)], edits.rotation(a * 360, 18, 12), "rotate")
    if k == 4:
        return Batch(
            tuple(edits.copies(raw, [("feature", i)], edits.half_turn(36, 24), False, "m"))
        )
    if k == 5 and stands:
        j = int(b * 1000) % len(stands)
        return edits.transform(raw, [("stand", j)], edits.half_turn(36, 24), "turn")
    if k == 6 and stands:
        return edits.delete([("stand", int(b * 1000) % len(stands)), ("feature", i)])
    if k == 7:
        verts = edits.vertices(feats[i])
        addr, (x, y) = verts[int(b * 1000) % len(verts)]
        return Replace("feature", i, edits.move_vertex(feats[i], addr, x + a, y - b), "vertex")
    return SetField(("max_sighting_in",), round(10 + a * 20, 1))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 100), st.floats(0, 1), st.floats(0, 1)), max_size=25))
def test_any_edits_undone_give_the_original_bytes_and_redone_the_edited(steps):
    h = History(skirmish())
    original = dumps(h.raw)
    for choice, a, b in steps:
        h.do(_edit(h.raw, choice, a, b))
    edited = dumps(h.raw)
    h.jump(0)
    assert dumps(h.raw) == original
    h.jump(len(h.entries))
    assert dumps(h.raw) == edited


# ------------------------------------------------------------------ geometry of the tools


def test_half_turn_maps_a_feature_and_a_stand_onto_the_other_half():
    f = edits.map_feature(WOOD, edits.half_turn(60, 36))
    assert f["geometry"]["coordinates"][0][0] == [58, 34]
    s = edits.map_stand({"id": "A1", "x": 4, "y": 8, "facing_deg": 0}, edits.half_turn(60, 36))
    assert (s["x"], s["y"], s["facing_deg"]) == (56, 28, 180)


@pytest.mark.parametrize(
    "axis,stand,want",
    [
        ("vertical", (4, 8, 30), (56, 8, 150)),
        ("horizontal", (4, 8, 30), (4, 28, 330)),
    ],
)
def test_mirror_across_a_centre_line_turns_the_facing_too(axis, stand, want):
    x, y, f = stand
    s = edits.map_stand({"x": x, "y": y, "facing_deg": f}, edits.mirror_across(60, 36, axis))
    assert (s["x"], s["y"], s["facing_deg"]) == want


def test_rotation_keeps_files_tidy():
    f = edits.map_feature(WOOD, edits.rotation(90, 0, 0))
    assert f["geometry"]["coordinates"][0][0] == [-2, 2]  # not -2.0000000000000004


def test_mirrored_stand_copies_join_the_other_force_with_new_ids():
    raw = skirmish()
    cmds = edits.copies(raw, [("stand", 0)], edits.half_turn(36, 24), True, "mirror")
    Batch(tuple(cmds)).perform(raw)
    new = raw["stands"][-1]
    assert new["side"] == "B" and new["id"] == "B4" and new["ghq"] is False
    assert (new["x"], new["y"]) == (32, 16)


@pytest.mark.parametrize(
    "points,problem",
    [
        ([(0, 0), (4, 0)], "a polygon needs at least 3 corners"),
        ([(0, 0), (4, 4), (4, 0), (0, 4)], "two edges cross at (2.0, 2.0)"),
        ([(0, 0), (2, 0), (4, 0)], "the polygon has no area (its corners are on one line)"),
        ([(0, 0), (4, 0), (4, 4)], None),
    ],
)
def test_polygon_problem_says_where_shapely_finds_the_fault(points, problem):
    assert edits.polygon_problem(points) == problem


def test_vertex_edits_keep_rings_closed():
    f = edits.move_vertex(WOOD, (0, 0), 1, 1)
    ring = f["geometry"]["coordinates"][0]
    assert ring[0] == ring[-1] == [1, 1]
    f = edits.insert_vertex(WOOD, (0, 1), 7, 3.5)
    assert f["geometry"]["coordinates"][0][2] == [7, 3.5]
    f = edits.delete_vertex(f, (0, 0))
    ring = f["geometry"]["coordinates"][0]
    assert ring[0] == ring[-1] and len(ring) == 5
    tri = edits.make_feature("woods", "Polygon", [[[0, 0], [4, 0], [4, 4], [0, 0]]])
    with pytest.raises(ValueError, match="at least 3 corners"):
        edits.delete_vertex(tri, (0, 1))


def test_snapping_prefers_vertices_then_edges_then_the_grid():
    raw = new_scenario("modern", 60, 36)
    raw["terrain"]["features"].append(WOOD)
    assert snapping.snap_point(raw, 6.2, 5.1, 0.5, 0.4) == (6, 5, "vertex")
    assert snapping.snap_point(raw, 4.1, 5.2, 0.5, 0.4) == (4.1, 5, "edge")
    assert snapping.snap_point(raw, 10.3, 10.2, 0.5, 0.4) == (10.5, 10, "grid")
    assert snapping.snap_point(raw, 10.3, 10.2, None, 0.4) == (10.3, 10.2, "free")
    assert snapping.snap_point(raw, 6.2, 5.1, 0.5, 0.4, exclude=[0]) == (6, 5, "grid")


def test_picking_prefers_roads_then_areas_then_hills():
    raw = new_scenario("modern", 60, 36)
    feats = raw["terrain"]["features"]
    feats.append(edits.make_feature("hill", "Polygon", edits.rectangle(0, 0, 20, 20), 1))
    feats.append(WOOD)
    feats.append(edits.make_feature("good_road", "LineString", [[0, 3], [20, 3]]))
    assert edits.feature_at(raw, 3, 3.1, 0.3) == 2
    assert edits.feature_at(raw, 3, 4, 0.3) == 1
    assert edits.feature_at(raw, 10, 10, 0.3) == 0
    assert edits.feature_at(raw, 30, 30, 0.3) is None
    assert edits.refs_in_box(raw, 1, 1, 7, 6) == [("feature", 1)]


def test_entry_points_lie_on_the_sides_edge():
    raw = new_scenario("modern", 60, 36)
    assert edits.entry_point(raw, "A", 10, 20) == (0, 20)
    assert edits.entry_point(raw, "B", 10, 40) == (60, 35.5)
    assert edits.edge_facing("right") == 180


# ------------------------------------------------------------------ documents


def test_a_new_table_lists_what_it_still_needs():
    raw = new_scenario("modern", 60, 36)
    texts = [p.text for p in validate(raw, "new.json", DATA)]
    assert any("$.stands" in t for t in texts)


def test_problems_name_the_feature_or_stand():
    raw = skirmish()
    raw["stands"][1]["unit"] = "Tiger"
    raw["terrain"]["features"][0]["properties"]["terrain"] = "lava"
    probs = validate(raw, "s.json", DATA)
    refs = {p.ref for p in probs}
    assert ("stand", 1) in refs and ("feature", 0) in refs


def test_save_is_atomic_valid_and_reopens(tmp_path):
    doc = Document.open(ROOT / "maps" / "modern-skirmish.json")
    doc.do(SetField(("title",), "Edited skirmish", "title"))
    assert doc.history.dirty
    out = doc.save(tmp_path / "edited.json")
    assert not doc.history.dirty and doc.path == out
    assert load_scenario(out).title == "Edited skirmish"
    assert [p.name for p in tmp_path.iterdir()] == ["edited.json"]  # no temporary file left
    again = Document.open(out)
    assert again.raw == doc.raw


def test_untitled_save_and_unreadable_files_give_clear_errors(tmp_path):
    doc = Document.new("wwii", 48, 24)
    with pytest.raises(EditorFileError, match="Save as"):
        doc.save()
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    with pytest.raises(EditorFileError, match=r"bad.json: line 1 column 3: not valid JSON"):
        Document.open(bad)
    with pytest.raises(EditorFileError, match="no such file"):
        Document.open(tmp_path / "none.json")


def test_the_session_autosave_comes_back_unsaved(tmp_path):
    doc = Document.open(ROOT / "maps" / "modern-skirmish.json")
    doc.do(Insert("feature", 0, WOOD))
    write_session(tmp_path / "session.json", doc)
    back = read_session(tmp_path / "session.json")
    assert back.raw == doc.raw and back.path == doc.path and back.history.dirty
