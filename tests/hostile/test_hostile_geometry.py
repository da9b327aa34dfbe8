"""Geometry that crashed Shapely/GEOS (issue #42), opened through the commands a user runs.

Before the mend a polygon with an empty hole ``[]`` built, called itself valid and segfaulted
GEOS's ``covers`` (``hulldown check``, ``simulate``, ``play``, ``view``, ``edit``: rc -11;
``render``: rc -6), in a scenario, a save, a battle log's start line and a GeoJSON import; a
MultiPolygon whose part is ``[[]]`` or has an empty hole did the same; a MultiLineString with
an empty part raised from inside Shapely; a woods 1" x 1e-9" passed ``check`` and then its
empty centre in the sight index raised in ``play``, ``view`` and the editor; a full game's
stand at x 1e308 or Infinity overflowed the editor's drawing of its unit symbol, and so did
an ``unload`` line's position of 1e308 in the replay's drawing.

Every geometry now goes through ``game.rules.files.shapes`` before Shapely sees it, and the
tests run each command in a subprocess (a segfault would kill pytest) and assert its return
code and its one line on stderr. The files are in tests/fixtures/hostile42/geometry/, made
by :func:`make_fixtures` (``python tests/hostile/test_hostile_geometry.py`` writes them again).
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures" / "hostile42" / "geometry"
RING = "a ring needs at least 4 positions, the last repeating the first"

# fixture -> the problem line after "FILE: " that every command gives
SCENARIOS = {
    "empty-hole.json": f"$.terrain.features[0].geometry.coordinates[1]: {RING}",
    "multipolygon-part-empty-ring.json": f"$.terrain.features[1].geometry.coordinates[1][0]: {RING}",
    "multipolygon-empty-hole.json": f"$.terrain.features[1].geometry.coordinates[0][1]: {RING}",
    "multipolygon-empty-part.json": (
        "$.terrain.features[1].geometry.coordinates[1]: a polygon needs its outer ring "
        "(at least 4 positions, the last repeating the first)"
    ),
    "multilinestring-empty-part.json": (
        "$.terrain.features[5].geometry.coordinates[1]: a line needs at least 2 positions"
    ),
    "woods-1e-9-thin.json": (
        "$.terrain.features[1].geometry: the polygon is thinner than 1e-06 inch everywhere "
        "(draw it wider)"
    ),
    "polygon-1e308.json": (
        "$.terrain.features[1].geometry.coordinates[0][1]: (1e+308, 5) lies outside any "
        "table (x and y are inches from its corner, at most 10000 either way)"
    ),
}
# the cases that crashed more than ``check`` (segfault, abort or a traceback), and how
CRASHED = {
    "empty-hole.json": ("check", "simulate", "render", "play", "view"),  # rc -11 / -6
    "multipolygon-part-empty-ring.json": ("play", "view", "render"),  # traceback; render's line
    "multipolygon-empty-hole.json": ("check", "simulate", "render", "play", "view"),  # -11 / -6
    "multilinestring-empty-part.json": ("check", "simulate", "render", "play", "view"),
    "woods-1e-9-thin.json": ("check", "play", "view"),  # passed check, then a traceback
}
# full games whose stand 0 is far off any table: refused by check, crashed the editor
FULL_STANDS = {
    "modern-full-stand-1e308.json": (
        "$.stands[0]: an entering stand's x, y must be a point on its side's left edge"
    ),
    "modern-full-stand-infinity.json": "$.stands[0].x: Input should be a finite number",
    "wwii47-stand-1e308.json": (
        "$.stands[0]: an entering stand's x, y must be a point on its side's left edge"
    ),
}


def hulldown(*argv: str, data: Path, timeout: float = 300) -> tuple[int, list[str]]:
    """Run ``python -m game ARGV`` headless in its own process (a segfault kills only it),
    the data folder at ``data``: (return code, stderr lines)."""
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "HULLDOWN_DATA_DIR": str(data),
    }
    p = subprocess.run(
        [sys.executable, "-m", "game", *argv],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return p.returncode, p.stderr.splitlines()


def python(script: str, *args: str, data: Path) -> tuple[int, str, list[str]]:
    """Run a Python ``script`` headless in its own process (a segfault kills only it):
    (return code, stdout, stderr lines)."""
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "HULLDOWN_DATA_DIR": str(data),
        "PYGAME_HIDE_SUPPORT_PROMPT": "1",
    }
    p = subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return p.returncode, p.stdout, p.stderr.splitlines()


def command(name: str, path: Path, out: Path) -> list[str]:
    """The argv of a user's command ``name`` on the file ``path``."""
    return {
        "check": ["check", str(path)],
        "simulate": ["simulate", str(path), "--games", "1"],
        "render": ["render", str(path), "--out", str(out / "x.png")],
        "play": ["play", str(path), "--frames", "2"],
        "view": ["view", str(path), "--frames", "2"],
    }[name]


@pytest.mark.parametrize(
    "name, cmd",
    [(n, c) for n in SCENARIOS for c in CRASHED.get(n, ("check",))],
)
def test_a_scenario_with_broken_geometry_is_refused_with_its_path(tmp_path, name, cmd):
    path = FIX / name
    rc, err = hulldown(*command(cmd, path, tmp_path), data=tmp_path / "data")
    assert (rc, err) == (1, [f"{path}: {SCENARIOS[name]}"])
    assert not (tmp_path / "x.png").exists()


def test_a_save_whose_scenario_has_an_empty_hole_is_refused(tmp_path):
    """``play --load`` and ``replay`` of a save: the save's scenario goes through the same
    gate (it segfaulted before its digest was even compared)."""
    path = FIX / "save-empty-hole.json"
    line = f"{path}: $.scenario: maps/modern-skirmish.json: {SCENARIOS['empty-hole.json']}"
    for argv in (["play", "--load", str(path), "--frames", "2"], ["replay", str(path)]):
        rc, err = hulldown(*argv, data=tmp_path / "data")
        assert (rc, err) == (1, [line]), argv


def test_a_log_whose_start_line_has_an_empty_hole_is_refused(tmp_path):
    path = FIX / "log-start-empty-hole.jsonl"
    rc, err = hulldown("replay", str(path), "--frames", "2", data=tmp_path / "data")
    assert (rc, err) == (1, [f"{path}: line 1 (start): {SCENARIOS['empty-hole.json']}"])


def test_a_full_game_log_with_an_unload_at_1e308_is_refused(tmp_path):
    """The replay drew a full game's stand at an ``unload`` line's position with its unit
    symbol: 1e308 overflowed the pixel arithmetic. A log's positions are bounded now."""
    path = FIX / "log-modern-full-unload-1e308.jsonl"
    rc, err = hulldown("replay", str(path), "--frames", "2", data=tmp_path / "data")
    assert rc == 1
    assert len(err) == 1 and err[0].startswith(f"{path}: line ")
    assert err[0].endswith(
        ": unload.pos: must be a position [x, y, facing_deg], not [1e+308, 21.75, 0.0]"
    )


EDIT = """
import sys
import threading
from pathlib import Path
import pygame
from game.editor.document import Document
from game.ui.app import App
from game.ui.editor import editor_screen
from tests.helpers import work_on
from tests.helpers import editor_frame as frame

app = App(size=(1280, 800))
s = editor_screen(app, Document.open(Path(sys.argv[1])))
app.show(s)
frame(s)
s.show_panel("Problems")
frame(s)
for p in s.problems:
    print(p.text)
s.select([("stand", i) for i in range(len(s.doc.raw["stands"]))])
frame(s)
work_on(s)
frame(s)
# a balance view still computing in its daemon thread when the process ends may abort it
# ("terminate called without an active exception", rc -6: a finding of its own, not this
# test's); it is cancelled and waited for
if s.views._overlay_job:
    s.views._overlay_job["cancel"] = True
for t in threading.enumerate():
    if t is not threading.main_thread():
        t.join()
pygame.quit()
"""


@pytest.mark.parametrize("name", list(SCENARIOS) + list(FULL_STANDS))
def test_the_editor_opens_broken_geometry_and_lists_it(tmp_path, name):
    """``hulldown edit FILE`` and the work on it (every panel, each item selected, turned,
    dragged, deleted, undone, the ruler, test play): no signal, no traceback, the problem or
    what the editor mended on opening listed."""
    path = FIX / name
    rc, err = hulldown("edit", str(path), "--frames", "3", data=tmp_path / "data")
    assert (rc, err) == (0, [])
    rc, out, err = python(EDIT, str(path), data=tmp_path / "data")
    assert rc == 0, err[-5:]
    listed = out.splitlines()
    mended = {
        "empty-hole.json": "$.terrain.features[0].geometry.coordinates: 1 empty hole(s); left out",
        "multipolygon-part-empty-ring.json": (
            "$.terrain.features[1].geometry.coordinates: 1 empty polygon(s); left out"
        ),
        "multipolygon-empty-hole.json": (
            "$.terrain.features[1].geometry.coordinates[0]: 1 empty hole(s); left out"
        ),
        "multipolygon-empty-part.json": (
            "$.terrain.features[1].geometry.coordinates: 1 empty polygon(s); left out"
        ),
        "multilinestring-empty-part.json": (
            "$.terrain.features[5].geometry.coordinates: 1 empty line(s); left out"
        ),
    }
    if name in mended:
        assert listed == [f"{name}: {mended[name]} (mended on opening)"]
    else:
        assert f"{name}: {SCENARIOS.get(name) or FULL_STANDS[name]}" in listed


IMPORT = """
import sys
from pathlib import Path
import pygame
from game.editor.document import Document
from game.ui.app import App
from game.ui.editor import editor_screen
from tests.helpers import editor_frame as frame

app = App(size=(1280, 800))
s = editor_screen(app, Document.new("modern", 36, 24))
app.show(s)
frame(s)
s.files.import_geojson(Path(sys.argv[1]))
frame(s)
print(s.message[0])
print(len(s.doc.raw["terrain"]["features"]))
pygame.quit()
"""


def test_a_geojson_import_with_an_empty_hole_is_refused_with_its_path(tmp_path):
    """The editor's Import of a GeoJSON file (the import then checks the map: it segfaulted)."""
    path = FIX / "terrain-empty-hole.geojson"
    rc, out, err = python(IMPORT, str(path), data=tmp_path / "data")
    assert rc == 0, err[-5:]
    assert out.splitlines() == [
        f"Not imported: {path}: $.features[0].geometry.coordinates[1]: {RING}",
        "0",
    ]


def test_the_gate_is_the_one_every_reader_uses():
    """The scenario reader, the editor's table and statistics, its picking and the GeoJSON
    import all refuse an empty hole with the same words, without a Shapely call on it."""
    from game import load_rules_data
    from game.editor.document import table_of
    from game.editor.edits import feature_geometry
    from game.editor.geojson import _clean_geometry
    from game.editor.stats import _usable_features
    from game.rules.files.shapes import GeometryProblem, read_geometry, safe_shape

    raw = json.loads((FIX / "empty-hole.json").read_text())
    geom = raw["terrain"]["features"][0]["geometry"]
    for gate in (read_geometry, safe_shape):
        with pytest.raises(GeometryProblem) as err:
            gate(geom)
        assert str(err.value) == f".coordinates[1]: {RING}"
    assert feature_geometry(raw["terrain"]["features"][0]) is None
    data = load_rules_data()
    _table, bad = table_of(raw, data)
    assert bad == [0]
    _usable, skipped = _usable_features(raw, data)
    assert [(s.index, s.reason) for s in skipped] == [(0, f"geometry.coordinates[1]: {RING}")]
    problems: list[str] = []
    _clean_geometry(geom, "hill", ("Polygon",), "$.g", "f", problems)
    assert problems == [f"f: $.g.coordinates[1]: {RING}"]


# ----------------------------------------------------------------------------- the files


def _skirmish() -> dict:
    return json.loads((ROOT / "maps" / "modern-skirmish.json").read_text())


def _geometry(raw: dict, i: int) -> dict:
    return raw["terrain"]["features"][i]["geometry"]


def _scenarios() -> dict[str, dict]:
    """The hostile scenarios, each the skirmish map with one geometry broken."""
    out = {}
    raw = _skirmish()
    _geometry(raw, 0)["coordinates"].append([])
    out["empty-hole.json"] = raw
    for name, part in (
        ("multipolygon-part-empty-ring.json", lambda ring: [ring, [[]]]),
        ("multipolygon-empty-hole.json", lambda ring: [ring + [[]]]),
        ("multipolygon-empty-part.json", lambda ring: [ring, []]),
    ):
        raw = _skirmish()
        g = _geometry(raw, 1)
        g["type"], g["coordinates"] = "MultiPolygon", part(g["coordinates"])
        out[name] = raw
    raw = _skirmish()
    g = _geometry(raw, 5)
    g["type"], g["coordinates"] = "MultiLineString", [g["coordinates"], []]
    out["multilinestring-empty-part.json"] = raw
    raw = _skirmish()  # 1" x 1e-9": an area of 1e-9 sq in, over the "no area" line
    _geometry(raw, 1)["coordinates"] = [[[5, 5], [6, 5], [6, 5 + 1e-9], [5, 5 + 1e-9], [5, 5]]]
    out["woods-1e-9-thin.json"] = raw
    raw = _skirmish()
    _geometry(raw, 1)["coordinates"] = [[[5, 5], [1e308, 5], [1e308, 1e308], [5, 5]]]
    out["polygon-1e308.json"] = raw
    return out


def make_fixtures(folder: Path = FIX) -> None:
    """Write every hostile file of these tests to ``folder``."""
    from game import load_scenario
    from game.rules.battle import Battle

    folder.mkdir(parents=True, exist_ok=True)
    for name, raw in _scenarios().items():
        (folder / name).write_text(json.dumps(raw, indent=1) + "\n")
    for name, (m, value) in {
        "modern-full-stand-1e308.json": ("modern-combined-arms", 1e308),
        "modern-full-stand-infinity.json": ("modern-combined-arms", float("inf")),
        "wwii47-stand-1e308.json": ("wwii-47-breakthrough", 1e308),
    }.items():
        raw = json.loads((ROOT / "maps" / f"{m}.json").read_text())
        raw["stands"][0]["x"] = value
        (folder / name).write_text(json.dumps(raw, indent=1) + "\n")
    # a save of the skirmish's first position, then its scenario given an empty hole
    save = folder / "save-empty-hole.json"
    Battle(load_scenario(ROOT / "maps" / "modern-skirmish.json"), 1).save(save)
    doc = json.loads(save.read_text())
    doc["scenario"]["terrain"]["features"][0]["geometry"]["coordinates"].append([])
    doc["scenario_path"] = "maps/modern-skirmish.json"  # not this machine's folder
    save.write_text(json.dumps(doc) + "\n")
    # a battle log's start line (a battle killed at once), its terrain given an empty hole
    corpus = ROOT / "tests" / "corpus"
    events = Battle.load(corpus / "modern-meeting-s1-random-random.save.json").log.events
    first = copy.deepcopy(events[0])
    first["terrain"]["features"][0]["geometry"]["coordinates"].append([])
    (folder / "log-start-empty-hole.jsonl").write_text(json.dumps(first) + "\n")
    # a full game's log whose first unload puts the stand at x 1e308
    events = copy.deepcopy(
        Battle.load(corpus / "modern-combined-arms-s1-random-random.save.json").log.events
    )
    unload = next(e for e in events if e["event"] == "unload")
    unload["pos"][0] = 1e308
    (folder / "log-modern-full-unload-1e308.jsonl").write_text(
        "".join(json.dumps(e) + "\n" for e in events)
    )
    # a GeoJSON file whose first polygon has an empty hole
    feature = copy.deepcopy(_scenarios()["empty-hole.json"]["terrain"]["features"][0])
    (folder / "terrain-empty-hole.geojson").write_text(
        json.dumps({"type": "FeatureCollection", "features": [feature]}, indent=1) + "\n"
    )


if __name__ == "__main__":
    make_fixtures()
