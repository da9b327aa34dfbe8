"""The scenario being edited: its JSON, where it came from, its history, and its problems.

The document is the scenario file's own dict (``hulldown-scenario/1``), kept as it will be
written, so saving, validating and test play all read the same thing. It may be invalid
while it is drawn: :func:`validate` lists the problems with the same validator as
``hulldown check`` and names the feature or stand each is about.
"""

from __future__ import annotations

import json
import math
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import shapely

from game import (
    GROUNDS,
    MAX_FEATURES,
    MAX_STANDS,
    MAX_VERTICES,
    RULESET_IDS,
    JsonFileError,
    RulesData,
    ScenarioError,
    Table,
    TerrainFeature,
    load_rules_data,
    parse_scenario,
    read_geometry,
    read_json_file,
    write_atomic,
)
from game.editor.commands import Command
from game.editor.history import History, history_from_json, history_to_json
from game.editor.mend import mend_shape, showable
from game.saves import is_file

PRESETS = {
    'WWII 48"x24" (seed sheet)': ("wwii", 48, 24),
    'Wehrmacht \'47 (WWII, full game) 48"x24" (seed sheet)': ("wwii-47", 48, 24),
    'Modern 60"x36" (seed sheet)': ("modern", 60, 36),
    'Modern, full game 60"x36" (seed sheet)': ("modern-full", 60, 36),
}
"""New-table presets: the seed scenario sheets' tables ("Create your own Tank Scenario"),
(ruleset, width, depth) in inches."""

SEED_SHEET = {
    "modern": {"max_sighting_in": 30, "turns": 12, "cohesion": (15, 16)},
    "wwii": {"max_sighting_in": 20, "turns": 12, "cohesion": (15, 14)},
}


FAR_IN = 2000
"""How far from the table's corner (inches, either way on each axis) a feature may reach and
still be drawn: twice the largest table. One reaching further (a typo of 1e300) is left out
of the editor's table and listed as a problem, so drawing it cannot hang the window."""


def stand_place(stand) -> tuple[float, float, float] | None:
    """A stand's ``(x, y, facing_deg)`` when the editor can draw it there: x and y finite
    numbers no further than :data:`FAR_IN` from the table's corner, the facing a finite
    number (0 when missing); None otherwise (a file's 1e308, NaN or text: the scenario
    check names it, and drawing it overflowed pixel arithmetic)."""
    if not isinstance(stand, dict):
        return None
    place = (stand.get("x"), stand.get("y"), stand.get("facing_deg", 0))
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in place):
        return None
    x, y, facing = (float(v) for v in place)
    if not all(math.isfinite(v) for v in (x, y, facing)) or max(abs(x), abs(y)) > FAR_IN:
        return None
    return x, y, facing


class EditorFileError(ValueError):
    """A file the editor was asked to open or write cannot be used; the message names the
    file and the problem."""


@dataclass(frozen=True)
class Problem:
    """One validation problem: the validator's line and the item it is about
    (``("feature", i)``, ``("stand", i)`` or None for the scenario as a whole)."""

    text: str
    ref: tuple[str, int] | None


def new_scenario(ruleset: str, width: float, depth: float, title: str = "New scenario") -> dict:
    """A scenario dict for an empty table of ``width`` x ``depth`` inches: the seed sheet's
    sighting distance and turns for the ruleset, two sides entering from the narrow edges,
    no terrain and no stands yet.

    The full games (``modern-full``, ``wwii-47``) start from their era's seed sheet, as the
    shipped full-game maps do: their cards give no sheet of their own (New and Import
    GeoJSON raised for them).

    Raises ValueError for an unknown ruleset or a size outside 1..1000 inches."""
    if ruleset not in RULESET_IDS:
        raise ValueError(f"unknown ruleset {ruleset!r} ({', '.join(RULESET_IDS)})")
    if not (0 < width <= 1000 and 0 < depth <= 1000):
        raise ValueError(f'a table is 1" to 1000" each way, not {width:g}"x{depth:g}"')
    sheet = SEED_SHEET[ruleset.split("-")[0]]
    wide = width >= depth
    edges = ("left", "right") if wide else ("bottom", "top")
    return {
        "format": "hulldown-scenario/1",
        "title": title,
        "description": "",
        "ruleset": ruleset,
        "table": {"width": width, "depth": depth},
        "max_sighting_in": sheet["max_sighting_in"],
        "turns": sheet["turns"],
        "victory": {"type": "destroy_percent", "destroy_at_least_pct": 51, "lose_at_most_pct": 50},
        "terrain": {"type": "FeatureCollection", "features": []},
        "sides": [
            {
                "id": sid,
                "name": f"Force {n}",
                "cohesion": sheet["cohesion"][n - 1],
                "generation": 3 if ruleset.startswith("modern") else None,
                "command_value": 0,
                "entry_edge": edge,
            }
            for n, (sid, edge) in enumerate(zip(("A", "B"), edges, strict=True), start=1)
        ],
        "stands": [],
    }


def dumps(raw: dict) -> str:
    """The text a scenario dict is saved as (the scenario writer's: JSON indented by one,
    UTF-8, a final newline)."""
    return json.dumps(raw, indent=1, ensure_ascii=False) + "\n"


AUTOSAVE_FORMAT = "hulldown-editor-autosave/1"
"""The ``format`` of the editor's autosave (see :func:`write_session`)."""


def read_json(path: str | os.PathLike) -> dict:
    """Read a scenario file for editing, valid or not (the editor shows its problems).

    Raises EditorFileError naming the file when it cannot be read, is not JSON or is not a
    JSON object, or when it (or the map an editor autosave holds) is over the caps of
    :func:`caps_problem`."""
    where = str(path)
    try:
        raw = read_json_file(path)
    except JsonFileError as err:
        raise EditorFileError(str(err)) from None
    if not isinstance(raw, dict):
        raise EditorFileError(f"{where}: $: a scenario must be a JSON object")
    scenario = raw.get("scenario") if raw.get("format") == AUTOSAVE_FORMAT else raw
    if isinstance(scenario, dict) and (problem := caps_problem(scenario, where)):
        raise EditorFileError(problem)
    return raw


def caps_problem(raw: dict, where: str) -> str | None:
    """Why the editor will not open the scenario dict ``raw`` (a line naming ``where``, the
    JSON path and the cap), or None: more stands, terrain features or terrain positions than
    a scenario may hold (MAX_STANDS, MAX_FEATURES, MAX_VERTICES, the caps ``check``
    refuses). Such a file could never be played, and the editor would take seconds a frame
    to draw it (100,000 stands on one point took 2-3 s a frame); the file is left as
    it is, to be cut down with a text editor or a script."""
    stands = raw.get("stands")
    if isinstance(stands, list) and len(stands) > MAX_STANDS:
        return (
            f"{where}: $.stands: {len(stands)} stands; a scenario holds at most {MAX_STANDS}, "
            "so the editor does not open it"
        )
    terrain = raw.get("terrain")
    feats = terrain.get("features") if isinstance(terrain, dict) else None
    if not isinstance(feats, list):
        return None
    if len(feats) > MAX_FEATURES:
        return (
            f"{where}: $.terrain.features: {len(feats)} features; a scenario holds at most "
            f"{MAX_FEATURES}, so the editor does not open it"
        )
    positions = 0
    todo = [
        f.get("geometry", {}).get("coordinates")
        for f in feats
        if isinstance(f, dict) and isinstance(f.get("geometry"), dict)
    ]
    while todo:
        item = todo.pop()
        if not isinstance(item, list):
            continue
        if item and not isinstance(item[0], list):
            positions += 1  # a position [x, y]
            continue
        todo.extend(item)
        if positions > MAX_VERTICES:
            break
    if positions > MAX_VERTICES:
        return (
            f"{where}: $.terrain: more than {MAX_VERTICES} positions in all; a scenario holds "
            "at most that many, so the editor does not open it"
        )
    return None


MENDED = "(mended on opening)"
"""The end of a problem line saying what was mended on opening (it does not stop play)."""
_REF = re.compile(r"\$\.(terrain\.features|stands)\[(\d+)\]")


def validate(raw: dict, where: str, data: RulesData) -> list[Problem]:
    """Every problem of the scenario, as ``hulldown check`` reports them, each with the
    feature or stand it names (its first ``$.terrain.features[i]`` or ``$.stands[i]``)."""
    try:
        parse_scenario(raw, where, data)
    except ScenarioError as err:
        return [Problem(line, _ref(line)) for line in err.problems]
    return []


def _ref(line: str) -> tuple[str, int] | None:
    """The feature or stand a problem line names first, or None."""
    m = _REF.search(line)
    if not m:
        return None
    return ("feature" if m.group(1).startswith("terrain") else "stand", int(m.group(2)))


@dataclass
class Document:
    """A scenario being edited: its dict (``history.raw``), the file it is saved to (None
    until the first save), and the rules data it is checked against."""

    history: History
    path: Path | None = None
    data: RulesData = field(default_factory=load_rules_data)
    mended: list[str] = field(default_factory=list)
    """What :func:`~game.editor.mend.mend_shape` changed so that the editor could show the
    file (one note each, listed with the problems until the scenario is saved)."""

    def __post_init__(self) -> None:
        self.mended = mend_shape(self.history.raw) + self.mended

    @classmethod
    def new(cls, ruleset: str, width: float, depth: float, data: RulesData | None = None):
        """A document for a new empty table (see :func:`new_scenario`); never saved, so it
        counts as unsaved once anything is drawn."""
        return cls(History(new_scenario(ruleset, width, depth)), None, data or load_rules_data())

    @classmethod
    def open(cls, path: str | os.PathLike, data: RulesData | None = None) -> Document:
        """Open a scenario file (valid or not). Raises EditorFileError (see
        :func:`read_json`)."""
        return cls(History(read_json(path)), Path(path), data or load_rules_data())

    @property
    def raw(self) -> dict:
        """The scenario dict as it stands."""
        return self.history.raw

    @property
    def name(self) -> str:
        """The file name, or "untitled" before the first save."""
        return self.path.name if self.path else "untitled"

    def do(self, command: Command, merge_key=None) -> None:
        """Perform a command through the history (see :meth:`History.do`)."""
        self.history.do(command, merge_key)

    def problems(self) -> list[Problem]:
        """The scenario's problems now (see :func:`validate`), after what was mended on
        opening it (until it is saved)."""
        notes = [Problem(f"{self.name}: {n} {MENDED}", _ref(n)) for n in self.mended]
        return notes + validate(self.raw, self.name, self.data)

    def save(self, path: str | os.PathLike | None = None) -> Path:
        """Write the scenario atomically to ``path`` (or where it was last saved) and mark
        the history saved. It is written even when invalid (the screen asks first).

        Raises EditorFileError naming the file when there is no path or it cannot be
        written; nothing is written then."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise EditorFileError("untitled: choose where to save it first (Save as)")
        try:
            write_atomic(target, dumps(self.raw))
        except OSError as err:
            raise EditorFileError(f"{target}: cannot be written ({err})") from None
        self.path = target
        self.history.mark_saved()
        self.mended = []  # the file holds the mended shape now
        return target


def write_session(path: Path, doc: Document) -> None:
    """Write the editing session's autosave (the scenario as it stands, the file it
    belongs to, as an absolute path so that a session started from another folder finds
    it, and the latest entries of its undo history) atomically to ``path``.

    Raises OSError when it cannot be written."""
    payload = {
        "format": AUTOSAVE_FORMAT,
        "saved_at": time.time(),
        "path": str(Path(doc.path).absolute()) if doc.path else None,
        "scenario": doc.raw,
        "history": history_to_json(doc.history),
    }
    write_atomic(path, json.dumps(payload, ensure_ascii=False))


def read_session(path: Path, data: RulesData | None = None) -> Document:
    """A document from an editing session's autosave, with its undo history when the
    autosave keeps one that leads to its scenario; it counts as unsaved.

    Raises EditorFileError when the autosave cannot be read or is not one."""
    raw = read_json(path)
    if raw.get("format") != AUTOSAVE_FORMAT or not isinstance(raw.get("scenario"), dict):
        raise EditorFileError(f"{path}: not an editor autosave")
    scenario = raw["scenario"]
    notes = mend_shape(scenario)  # before the history is fitted to it
    try:
        history = history_from_json(raw.get("history"), scenario)
    except ValueError as err:
        history = History(scenario)  # an older autosave, or one edited by hand: no undo
        if raw.get("history") is not None:  # one edited by hand, or broken: say so
            notes.append(f"$.history: {err}; the undo history starts from here")
    except RecursionError:  # a batch of batches nested beyond Python's stack
        history = History(scenario)
        notes.append("$.history: nested too deep; the undo history starts from here")
    doc = Document(history, None, data or load_rules_data(), notes)
    doc.path = _autosaved_path(raw.get("path"), doc.mended)
    doc.history.saved_position = None  # whatever it holds was not saved
    return doc


def _autosaved_path(p: Any, notes: list[str]) -> Path | None:
    """The file an autosave says its map belongs to, or None (Save as then asks where) when
    it names none or one no file can have: not text, a NUL, a lone surrogate or a control
    character, over 4,096 characters (each said in ``notes``)."""
    if p is None or p == "":
        return None
    if not isinstance(p, str) or showable(p) != p or len(p) > 4096:
        notes.append(
            "$.path: not a file name any file can have; Save as asks where to save the map"
        )
        return None
    return Path(p)


def table_of(raw: dict, data: RulesData):
    """The engine's :class:`~game.rules.table.table.Table` of a scenario being edited, built from
    the features that are usable as they stand, and the indices of those left out (unknown
    type, wrong or invalid geometry: whatever :func:`game.rules.files.shapes.read_geometry`
    refuses, as ``hulldown check`` does, or reaching beyond :data:`FAR_IN`). The ruler, the sight check and the drawing use it, so
    they work on a map that is not yet a valid scenario (no stands yet, one bad polygon).

    Raises ValueError when the table size itself is not usable."""
    try:
        width = float(raw["table"]["width"])
        depth = float(raw["table"]["depth"])
    except (KeyError, TypeError, ValueError):
        raise ValueError("the table has no usable width and depth") from None
    if not (0 < width <= 1000 and 0 < depth <= 1000):
        raise ValueError(f'a table is 1" to 1000" each way, not {width:g}"x{depth:g}"')
    feats, bad = [], []
    for i, f in enumerate(raw.get("terrain", {}).get("features", [])):
        try:
            props = f["properties"]
            kind = props["terrain"]
            # the rules' own gate: an empty hole, a MultiPolygon part [[]] or a
            # woods 1e-9" thin crashed GEOS or the sight index; the mend on opening has cut
            # a 3-D file's heights already
            geom = read_geometry(f["geometry"])
            ok = True
            if kind == "hill":
                level = int(props["level"])
                ok = ok and level >= 1 and geom.geom_type in ("Polygon", "MultiPolygon")
            else:
                level = 0
                want = {"area": ("Polygon", "MultiPolygon"), "road": ("LineString",)}
                tt = data.terrain[kind]
                ok = ok and geom.geom_type in want.get(tt.geometry, ()) + (
                    ("MultiLineString",) if tt.geometry == "road" else ()
                )
            xy = shapely.get_coordinates(geom)
            ok = ok and bool(xy.size) and bool(np.all(np.abs(xy) <= FAR_IN))
        except Exception:  # anything unusable in a half-drawn file is simply left out
            ok = False
        if ok:
            feats.append(TerrainFeature(kind, geom, level, i))
        else:
            bad.append(i)
    ground = raw["table"].get("ground", "grass")
    if ground not in GROUNDS:
        ground = "grass"  # the check names the fault; the drawing paints the default
    return Table(width, depth, feats, data.terrain, ground), bad


RECENT_KEPT = 8
"""How many recently opened or saved scenario files the editor remembers."""


def recent_files(where: Path) -> list[Path]:
    """The scenario files last opened or saved in the editor, newest first, as kept in the
    list file ``where`` (JSON: ``{"recent": [path, ...]}``); files that no longer exist are
    left out. A missing or unreadable list is an empty one (never raises)."""
    try:
        raw = read_json_file(where)
    except JsonFileError:
        return []
    paths = raw.get("recent") if isinstance(raw, dict) else None
    if not isinstance(paths, list):
        return []
    return [Path(p) for p in paths if isinstance(p, str) and p and is_file(p)]


def remember_recent(where: Path, file: Path) -> None:
    """Put ``file`` first in the recent-files list at ``where`` (at most
    :data:`RECENT_KEPT`), written atomically.

    Raises OSError when the list cannot be written (the screen says so and goes on)."""
    file = Path(file).resolve()
    kept = [file] + [p for p in recent_files(where) if p.resolve() != file]
    payload = {"recent": [str(p) for p in kept[:RECENT_KEPT]]}
    write_atomic(where, json.dumps(payload, ensure_ascii=False, indent=1) + "\n")
