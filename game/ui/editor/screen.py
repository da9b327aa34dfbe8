"""The map editor's screen: the table with the current tool's mode, a tool bar, a side panel
(the selected item, problems, history, map statistics and balance views, forces, scenario
settings) and a status line that always says what to do next.

The screen turns input into :mod:`game.editor` commands and draws the document; every rule
question (sight, distance, range band, validity) goes to the engine, and the balance views
are computed by :mod:`game.editor.analysis` in a background thread.
"""

from __future__ import annotations

import contextlib
import html
import json
import math
import threading
from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.elements import (
    UIButton,
    UIDropDownMenu,
    UILabel,
    UISelectionList,
    UITextBox,
    UITextEntryBox,
    UITextEntryLine,
    UIWindow,
)
from pygame_gui.windows import UIConfirmationDialog, UIFileDialog

from game.editor import edits
from game.editor.commands import MISSING, Batch, Insert, SetField, items
from game.editor.document import (
    PRESETS,
    Document,
    EditorFileError,
    new_scenario,
    read_session,
    table_of,
    write_session,
)
from game.rules.geometry import Table, footprint
from game.saves import data_dir
from game.ui.editor.modes import (
    HANDLE,
    INVALID,
    PICK_PX,
    SELECTED,
    HillMode,
    LotMode,
    MeasureMode,
    PolygonMode,
    RectMode,
    RoadMode,
    SelectMode,
    StandMode,
)
from game.ui.menu import user_maps as user_maps_dir
from game.ui.modes import Mode
from game.ui.render import (
    HILL_COLOURS,
    INK,
    ROAD_STYLE,
    SIDE_COLOURS,
    TERRAIN_COLOURS,
    View,
    draw_stand,
    draw_table,
)
from game.ui.table_view import BACKGROUND, TableView

TOP_H = 44
TOOLS_W = 176
PANEL_W = 350
STATUS_H = 46  # two lines of hint
BAR = (58, 72, 56)
PANEL_BG = (226, 222, 210)
PANELS = ("Item", "Problems", "History", "Map", "Forces", "Scenario")
TOOLS = [
    ("Select (V)", pygame.K_v, SelectMode),
    ("Polygon (P)", pygame.K_p, PolygonMode),
    ("Rectangle (R)", pygame.K_r, RectMode),
    ("Round lot (O)", pygame.K_o, LotMode),
    ("Road (L)", pygame.K_l, RoadMode),
    ("Hill (H)", pygame.K_h, HillMode),
    ("Stand (S)", pygame.K_s, StandMode),
    ("Measure (M)", pygame.K_m, MeasureMode),
]
HELP_TEXT = [
    "Tools: V select, P polygon, R rectangle, O round lot, L road, H hill, S stand, M measure",
    "Drawing: click corners; Backspace removes the last; Enter or a click on the first closes",
    'G: snap to the 0.5" grid on/off (hold Ctrl to place one point freely); points snap to',
    "   other features' corners and edges within 8 px. Wheel: zoom; right or middle drag: pan",
    "Select: click, Shift+click, box; drag to move; yellow handles move vertices; double-click",
    "   an edge adds a vertex; Del deletes; Q/E turn 15 degrees; [ ] scale; Ctrl+D duplicate",
    "Ctrl+Z undo, Ctrl+Y redo (or click the History panel); Ctrl+S save; Ctrl+Shift+S save as",
    "Ctrl+O open, Ctrl+N new table; F5 test play (hotseat); F: fit the table; F1: this help",
]
AUTOSAVE = "editor-autosave.json"


def autosave_file() -> Path:
    """The editing session's autosave, rewritten after every change (offered back after a
    crash or a close)."""
    return data_dir() / AUTOSAVE


def _kind_names(data, geometry: str) -> list[str]:
    return [k for k, t in data.terrain.items() if t.geometry == geometry and k != "clear"]


def _pretty(kind: str) -> str:
    return kind.replace("_", " ")


class EditorScreen:
    """The map editor in the window.

    ``doc`` is the scenario to edit (None: a new Modern 60"x36" table with the new-table
    dialog open, offering the autosave back if there is one); ``on_menu`` is called by the
    Menu button; ``battle_factory(app, scenario, back)`` makes the test-play screen.
    """

    def __init__(self, app, doc: Document | None = None, on_menu=None, battle_factory=None):
        self.app = app
        self.ask_new = doc is None
        self.doc = doc or Document.new("modern", 60, 36)
        self.on_menu = on_menu
        self.battle_factory = battle_factory
        self.selection: list[tuple[str, int]] = []
        self.vertex: tuple[int, tuple] | None = None
        self.mode: Mode = SelectMode()
        self.panel = "Item"
        self.grid = True
        self.help = False
        self.layers = {"terrain": True, "roads": True, "hills": True, "stands": True}
        self.draw_area = "woods"
        self.draw_road = "good_road"
        self.hill_level = 1
        self.lot_diameter = 5.0
        self.place_side = self.doc.raw["sides"][0]["id"] if self.doc.raw.get("sides") else "A"
        self.place_unit: str | None = None
        self.unit_filter = ""
        self.mouse = (0, 0)
        self.hint = ""
        self.message = ("", False)
        self.problems = []
        self.bad_features: list[int] = []
        self._checked_version = -1
        self._table: Table | None = None
        self._table_key = None
        self._layer: pygame.Surface | None = None
        self._layer_key = None
        self._pan_from = None
        self._panel_key = None
        self._widgets: dict = {}
        self._fields: dict = {}
        self._panel_widgets: list = []
        self._pending = None  # what a confirmation dialog or a file dialog answers
        self._snap = None  # (document version, SnapIndex)
        self._dialogs: list = []  # windows open over the table (they take the keys)
        self._autosaved_version = self.doc.history.version
        self.overlay = None  # the balance view shown: (name, surface builder input)
        self.overlay_name = "off"
        self._overlay_job = None
        self.tv = TableView(self.table(), self.table_rect(app.size))

    # ---------------------------------------------------------------- the model

    def table(self) -> Table:
        """The engine's Table of the document's usable features (rebuilt after a change)."""
        key = self.doc.history.version
        if self._table is not None and self._dragging():
            return self._table  # rebuilt once the drag ends
        if self._table is None or self._table_key != key:
            try:
                self._table, self.bad_features = table_of(self.doc.raw, self.doc.data)
            except ValueError as err:
                self.say(str(err), error=True)
                if self._table is None:
                    self._table, self.bad_features = table_of(
                        new_scenario("modern", 60, 36), self.doc.data
                    )
            self._table_key = key
        return self._table

    def commit(self, command, merge_key=None) -> bool:
        """Perform a command through the document's history; a failure is shown, not
        raised (the document is left as it was)."""
        try:
            self.doc.do(command, merge_key)
        except (ValueError, KeyError, IndexError, TypeError) as err:
            self.say(f"Could not {command.label}: {err}", error=True)
            return False
        self.message = ("", False)
        return True

    def end_drag(self) -> None:
        """A mouse drag ended: its commands stop merging into one history entry."""
        self.doc.history.end_merge()

    def check(self) -> None:
        """Validate the document if it changed (not while a drag is merging)."""
        h = self.doc.history
        dragging = h.position and h.entries[h.position - 1].merge_key is not None
        if h.version != self._checked_version and not dragging:
            self.problems = self.doc.problems()
            self._checked_version = h.version
            self.table()
            n = len(items(self.doc.raw, "feature"))
            self.selection = [
                r
                for r in self.selection
                if r[1] < (n if r[0] == "feature" else len(items(self.doc.raw, "stand")))
            ]
            if self.vertex and self.vertex[0] >= n:
                self.vertex = None
            self._autosave()

    def _autosave(self) -> None:
        h = self.doc.history
        if h.version == self._autosaved_version:
            return
        self._autosaved_version = h.version
        if not h.dirty:
            return  # a document as opened or as saved: nothing to keep
        try:
            write_session(autosave_file(), self.doc)
        except OSError as err:
            self.say(f"The editor's autosave could not be written ({err})", error=True)

    # ---------------------------------------------------------------- questions for modes

    def snapping(self) -> bool:
        """Whether points snap to the grid now (G toggles; Ctrl held places freely)."""
        return self.grid and not pygame.key.get_mods() & pygame.KMOD_CTRL

    def snap(self, pos, exclude=()) -> tuple[float, float, str]:
        """The table point (inches) a click at pixel ``pos`` lands on: another feature's
        corner or edge within 8 px, else the 0.5" grid when snapping, else where it is."""
        x, y = self.tv.to_table(pos)
        if pygame.key.get_mods() & pygame.KMOD_CTRL:
            return edits.tidy(x), edits.tidy(y), "free"
        h = self.doc.history
        stale = self._snap is None or self._snap[0] != h.version
        if stale and (self._snap is None or not self._dragging()):  # a drag keeps its start's
            self._snap = (h.version, edits.SnapIndex(self.doc.raw))
        return edits.snap_point(
            self.doc.raw,
            x,
            y,
            0.5 if self.grid else None,
            PICK_PX / self.tv.view.scale,
            exclude,
            self._snap[1],
        )

    def mouse_on_table(self, margin: float = 0.0) -> bool:
        """Whether the mouse is over the table (within ``margin`` inches of it)."""
        if not self.tv.rect.collidepoint(self.mouse):
            return False
        x, y = self.tv.to_table(self.mouse)
        w, d = self.table_size()
        return -margin <= x <= w + margin and -margin <= y <= d + margin

    def table_size(self) -> tuple[float, float]:
        """The table's width and depth in inches."""
        return self.tv.table.width, self.tv.table.depth

    def draw_kind(self, road: bool = False) -> tuple[str, int | None]:
        """The terrain type the drawing tools draw (and a hill's level)."""
        if road:
            return self.draw_road, None
        if self.draw_area == "hill":
            return "hill", self.hill_level
        return self.draw_area, None

    def side_spec(self, side_id: str) -> dict | None:
        """The side's dict in the document, or None."""
        return next((s for s in self.doc.raw.get("sides", []) if s.get("id") == side_id), None)

    def entry_point_for(self, x: float, y: float) -> tuple[float, float] | None:
        """Where a stand placed at (x, y) waits to enter: on its side's entry edge when the
        point is within 1" of that edge or beyond it, else None (placed on the table)."""
        side = self.side_spec(self.place_side)
        edge = side and side.get("entry_edge")
        if not edge:
            return None
        w, d = self.table_size()
        near = {"left": x <= 1, "right": x >= w - 1, "bottom": y <= 1, "top": y >= d - 1}[edge]
        return edits.entry_point(self.doc.raw, self.place_side, x, y) if near else None

    def engine_sight(self, firer, target):
        """The engine's sight between two poses on this table (terrain and hills; no
        stands), or None when the ruleset is unknown."""
        ruleset = self.doc.data.rulesets.get(self.doc.raw.get("ruleset"))
        if ruleset is None:
            return None
        sighting = self.doc.raw.get("max_sighting_in") or 30
        return self.table().sight(firer, target, [], float(sighting), ruleset)

    def measure_point(self, pos) -> tuple[float, float]:
        """Where the ruler starts or ends for a click at pixel ``pos``: the centre of a stand
        under it (ranges are centre to centre), else the snapped point."""
        ref = self.ref_at(pos)
        if ref is not None and ref[0] == "stand":
            s = items(self.doc.raw, "stand")[ref[1]]
            return float(s["x"]), float(s["y"])
        return self.snap(pos)[:2]

    def describe_block(self, sight) -> str:
        """What blocks a sight line, in words."""
        out = []
        for why in sight.blocked_by:
            if why[0] == "terrain":
                out.append(f"{_pretty(why[1])} (feature {why[2] + 1})")
            elif why[0] == "hill":
                out.append(f"a level-{why[1]} hill (feature {why[2] + 1})")
            elif why[0] == "distance":
                out.append(f'beyond the {sight.max_sight_in:g}" sighting distance')
        return ", ".join(out) or "blocked"

    def outline_blockers(self, surface, sight) -> None:
        """Outline the features that block a sight line."""
        for why in sight.blocked_by:
            if why[0] in ("terrain", "hill"):
                self._outline_feature(surface, why[2], INVALID, 3)

    def ref_at(self, pos) -> tuple[str, int] | None:
        """The stand or feature under a pixel (stands first), or None."""
        x, y = self.tv.to_table(pos)
        if self.layers["stands"]:
            for i in range(len(self.doc.raw.get("stands", [])) - 1, -1, -1):
                s = self.doc.raw["stands"][i]
                try:
                    if (
                        footprint(s["x"], s["y"], s.get("facing_deg", 0))
                        .buffer(0.05)
                        .contains(pygame_point(x, y))
                    ):
                        return ("stand", i)
                except (KeyError, TypeError, ValueError):
                    continue
        i = edits.feature_at(self._visible_raw(), x, y, PICK_PX / self.tv.view.scale)
        return None if i is None else ("feature", i)

    def _visible_raw(self) -> dict:
        """The document with the features of hidden layers emptied (for picking)."""
        if all(self.layers.values()):
            return self.doc.raw
        feats = [
            f if self._layer_of(f) and self.layers[self._layer_of(f)] else _EMPTY
            for f in items(self.doc.raw, "feature")
        ]
        return {"terrain": {"features": feats}}

    @staticmethod
    def _layer_of(feature: dict) -> str:
        kind = feature.get("properties", {}).get("terrain")
        if kind == "hill":
            return "hills"
        if feature.get("geometry", {}).get("type") in edits.LINE_TYPES:
            return "roads"
        return "terrain"

    def handle_at(self, pos) -> tuple[int, tuple] | None:
        """The vertex handle under a pixel of the one selected feature, or None."""
        if len(self.selection) != 1 or self.selection[0][0] != "feature":
            return None
        i = self.selection[0][1]
        x, y = self.tv.to_table(pos)
        v = edits.nearest_vertex(items(self.doc.raw, "feature")[i], x, y, 6 / self.tv.view.scale)
        return None if v is None else (i, v[0])

    # ---------------------------------------------------------------- edits the screen offers

    def select(self, refs) -> None:
        """Select these items (the panel shows the first)."""
        self.selection = list(dict.fromkeys(refs))
        self.vertex = None
        if self.selection:
            self.panel = "Item"

    def add_feature(self, feature: dict) -> None:
        """Add a drawn feature on top and select it."""
        n = len(items(self.doc.raw, "feature"))
        label = f"draw {_pretty(feature['properties']['terrain'])}"
        if self.commit(Insert("feature", n, feature, label)):
            self.select([("feature", n)])

    def place_stand(self, x: float, y: float, facing: float) -> None:
        """Place a stand of the chosen unit and side at (x, y) inches (on the entry edge
        when the point is at or beyond it)."""
        if self.place_unit is None:
            self.say("Pick a unit in the Forces panel first.", error=True)
            self.panel = "Forces"
            return
        raw = self.doc.raw
        side = self.side_spec(self.place_side)
        entering = self.entry_point_for(x, y)
        own = [s for s in raw.get("stands", []) if s.get("side") == self.place_side]
        stand = {
            "id": edits.next_stand_id(raw, self.place_side),
            "side": self.place_side,
            "unit": self.place_unit,
            "x": edits.tidy(entering[0] if entering else x),
            "y": edits.tidy(entering[1] if entering else y),
            "facing_deg": edits.edge_facing(side.get("entry_edge")) if entering else facing,
            "group": "1",
            "hq": False,
            "ghq": not any(s.get("ghq") for s in own),
            "on_table": entering is None,
        }
        n = len(raw.get("stands", []))
        if self.commit(Insert("stand", n, stand, f"place {stand['id']}")):
            self.select([("stand", n)])
            self.panel = "Forces"

    def delete_selection(self) -> None:
        """Delete the selected features and stands."""
        if self.selection and self.commit(edits.delete(self.selection)):
            self.selection = []

    def _transform_selection(self, fn, label: str) -> None:
        if self.selection:
            self.commit(edits.transform(self.doc.raw, self.selection, fn, label))

    def rotate_selection(self, angle: float) -> None:
        """Turn the selection by ``angle`` degrees about its centre."""
        c = edits.centre_of(self.doc.raw, self.selection)
        if c:
            self._transform_selection(edits.rotation(angle, *c), f"turn {angle:g} degrees")

    def scale_selection(self, factor: float) -> None:
        """Scale the selection about its centre."""
        c = edits.centre_of(self.doc.raw, self.selection)
        if c:
            self._transform_selection(edits.scaling(factor, *c), f"scale x{factor:.2f}")

    def duplicate_selection(self) -> None:
        """Copy the selection 1" to the right and up, and select the copies."""
        self._copies(edits.translation(1, -1), False, "duplicate")

    def half_turn_selection(self, copy: bool) -> None:
        """Turn the selection 180 degrees about the table's centre onto the other half, as a
        copy (stands join the other force) or in place (the seed sheets: each half alike)."""
        fn = edits.half_turn(*self.table_size())
        if copy:
            self._copies(fn, True, "half-turn copy")
        else:
            self._transform_selection(fn, "half-turn")

    def mirror_selection(self, axis: str) -> None:
        """Mirror a copy of the selection across the table's centre line."""
        self._copies(edits.mirror_across(*self.table_size(), axis), True, f"mirror ({axis})")

    def _copies(self, fn, other_side: bool, label: str) -> None:
        if not self.selection:
            self.say("Select something first.", error=True)
            return
        cmds = edits.copies(self.doc.raw, self.selection, fn, other_side, label)
        if self.commit(Batch(tuple(cmds), label)):
            new = [(c.kind, c.index) for c in cmds]
            self.select(new)
            self.say(f"{label}: {len(new)} new item(s), selected")

    def undo(self) -> None:
        """Undo the last change."""
        e = self.doc.history.undo()
        self.say(f"Undid: {e.label}" if e else "Nothing to undo.")

    def redo(self) -> None:
        """Redo the change last undone."""
        e = self.doc.history.redo()
        self.say(f"Redid: {e.label}" if e else "Nothing to redo.")

    def frame(self, ref) -> None:
        """Select an item and bring it into view."""
        b = edits.bounds_of(self.doc.raw, [ref])
        self.select([ref])
        if b is None:
            return
        x0, y0, x1, y1 = b
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        px, py = self.tv.to_px(cx, cy)
        self.tv.pan(self.tv.rect.centerx - px, self.tv.rect.centery - py)

    # ---------------------------------------------------------------- files

    def save(self, path=None, confirmed: bool = False) -> bool:
        """Save (asking first when the scenario has problems); True when written."""
        if path is None and self.doc.path is None:
            self.save_as()
            return False
        self.check()
        if self.problems and not confirmed:
            n = len(self.problems)
            self.ask(
                f"The scenario has {n} problem(s) (see the Problems panel); it will not play "
                "until they are mended. Save it anyway?",
                lambda: self.save(path, confirmed=True),
                "Save anyway",
            )
            return False
        try:
            where = self.doc.save(path)
        except EditorFileError as err:
            self.say(str(err), error=True)
            return False
        self._autosaved_version = self.doc.history.version
        autosave_file().unlink(missing_ok=True)  # nothing unsaved is left to offer back
        self.say(f"Saved {where}")
        return True

    def save_as(self) -> None:
        """Ask where to save."""
        start = self.doc.path or user_maps_dir() / "my-scenario.json"
        self._file_dialog("Save the scenario as", start, "save", existing=False)

    def open_file(self) -> None:
        """Ask which scenario to open."""
        self._file_dialog("Open a scenario", user_maps_dir(), "open", existing=True)

    def load(self, doc: Document) -> None:
        """Edit another document."""
        self.doc = doc
        self.selection = []
        self.vertex = None
        self._checked_version = -1
        self._table = None
        self._autosaved_version = doc.history.version
        self.tv.table = self.table()
        self.tv.fit()
        self.overlay = None
        self.overlay_name = "off"
        sides = doc.raw.get("sides") or [{"id": "A"}]
        self.place_side = sides[0].get("id", "A")
        self.place_unit = None
        self._panel_key = None

    def _file_dialog(self, title: str, start, purpose: str, existing: bool, suffix=".json"):
        w, h = self.app.size
        self._pending = purpose
        self._dialogs.append(
            UIFileDialog(
                pygame.Rect(w // 2 - 280, h // 2 - 230, 560, 460),
                self.app.manager,
                title,
                {suffix, ".geojson"} if suffix != ".json" else {suffix},
                str(start),
                allow_existing_files_only=existing,
            )
        )

    def _picked(self, path: Path) -> None:
        purpose, self._pending = self._pending, None
        if purpose == "open":
            try:
                self.load(Document.open(path, self.doc.data))
            except EditorFileError as err:
                self.say(str(err), error=True)
                return
            self.say(f"Opened {path}")
        elif purpose == "save":
            if path.suffix != ".json":
                path = path.with_suffix(".json")
            if path.exists() and path != self.doc.path:
                self.ask(f"{path.name} exists. Replace it?", lambda: self.save(path), "Replace")
            else:
                self.save(path)
        elif purpose == "import":
            self.import_geojson(path)
        elif purpose == "export":
            self.export_geojson(path)

    def import_geojson(self, path: Path) -> None:
        """A new table whose terrain is a GeoJSON file's features (``terrain`` and ``level``
        properties), sized to cover them."""
        from game.editor.geojson import GeoJSONError, import_terrain, table_size_for

        try:
            feats = import_terrain(path)
        except GeoJSONError as err:
            self.say(str(err), error=True)
            return
        w, d = table_size_for(feats)
        raw = new_scenario(self.doc.raw.get("ruleset", "modern"), w, d, Path(path).stem)
        raw["terrain"]["features"] = feats
        from game.editor.history import History

        self.load(Document(History(raw), None, self.doc.data))
        self.doc.history.saved_position = None
        self.say(f'Imported {len(feats)} features from {path.name} onto a {w:g}"x{d:g}" table')

    def export_geojson(self, path: Path) -> None:
        """Write the terrain as a GeoJSON FeatureCollection."""
        from game.editor.geojson import GeoJSONError, export_terrain

        if path.suffix not in (".geojson", ".json"):
            path = path.with_suffix(".geojson")
        try:
            export_terrain(self.doc.raw, path, self.doc.name)
        except (GeoJSONError, OSError) as err:
            self.say(str(err), error=True)
            return
        self.say(f"Exported the terrain to {path}")

    def ask(self, text: str, on_yes, yes: str = "OK") -> None:
        """A confirmation dialog; ``on_yes`` runs if the user confirms."""
        w, h = self.app.size
        self._confirm = on_yes
        self._dialogs.append(
            UIConfirmationDialog(
                pygame.Rect(w // 2 - 220, h // 2 - 110, 440, 220),
                html.escape(text),
                self.app.manager,
                window_title="hulldown map editor",
                action_short_name=yes,
            )
        )

    def test_play(self) -> None:
        """Open the scenario as it stands in a hotseat battle; leaving it comes back here
        with the history intact."""
        from game.rules.scenario import ScenarioError, parse_scenario

        try:
            sc = parse_scenario(json.loads(json.dumps(self.doc.raw)), self.doc.name, self.doc.data)
        except ScenarioError as err:
            self.panel = "Problems"
            self.say(f"Mend the {len(err.problems)} problem(s) first to play it.", error=True)
            return
        if self.battle_factory is None:
            self.say("Test play is not available here.", error=True)
            return
        self.app.show(self.battle_factory(self.app, sc, lambda: self.app.show(self)))

    def leave(self) -> None:
        """Back to the menu (the autosave keeps unsaved work)."""
        if self.on_menu is None:
            self.app.running = False
        elif self.doc.history.dirty:
            self.ask(
                "Leave the editor? The unsaved changes stay in the editor's autosave and are "
                "offered back next time.",
                self.on_menu,
                "Leave",
            )
        else:
            self.on_menu()

    # ---------------------------------------------------------------- balance views

    def show_view(self, name: str) -> None:
        """Compute and show a balance view in the background: "sight A", "cost B", or "off"."""
        self.overlay_name = name
        self.overlay = None
        if name == "off":
            return
        from game.rules.scenario import ScenarioError, parse_scenario

        try:
            sc = parse_scenario(json.loads(json.dumps(self.doc.raw)), self.doc.name, self.doc.data)
        except ScenarioError:
            self.say("The balance views need a valid scenario: mend its problems.", error=True)
            self.overlay_name = "off"
            return
        what, side = name.split()
        job = {
            "cancel": False,
            "result": None,
            "error": None,
            "name": name,
            "version": self.doc.history.version,
        }

        def work():
            from game.editor import analysis

            try:
                cancel = lambda: job["cancel"]  # noqa: E731
                if what == "sight":
                    job["result"] = analysis.sight_coverage(sc, side, cancel=cancel)
                else:
                    job["result"] = analysis.movement_cost_field(sc, side, cancel=cancel)
            except Exception as err:  # shown to the user; the editor goes on
                job["error"] = err

        if self._overlay_job:
            self._overlay_job["cancel"] = True
        self._overlay_job = job
        threading.Thread(target=work, daemon=True).start()
        self.say(f"Computing the {what} view of side {side}...")

    def _poll_view(self) -> None:
        job = self._overlay_job
        if not job or (job["result"] is None and job["error"] is None):
            return
        self._overlay_job = None
        if job["error"] is not None:
            self.say(f"The view could not be computed: {job['error']}", error=True)
            return
        if job["name"] == self.overlay_name:
            self.overlay = (job["name"], job["result"], None)
            self.say(self._view_summary(job["name"], job["result"]))

    @staticmethod
    def _view_summary(name: str, result) -> str:
        from game.ui.editor.views import view_summary

        return view_summary(name, result)

    # ---------------------------------------------------------------- layout and widgets

    def table_rect(self, size) -> pygame.Rect:
        """Where the table is drawn: between the tools and the panel, above the status."""
        return pygame.Rect(TOOLS_W, TOP_H, size[0] - TOOLS_W - PANEL_W, size[1] - TOP_H - STATUS_H)

    def open(self) -> None:
        """Create the widgets (again, after test play)."""
        self._build()
        if self.ask_new:
            self.ask_new = False
            self.new_dialog()

    def close(self) -> None:
        """Stop a balance view being computed."""
        if self._overlay_job:
            self._overlay_job["cancel"] = True

    def resized(self, size) -> None:
        """Lay the screen out again for a new window size."""
        self.app.manager.clear_and_reset()
        self.tv.resize(self.table_rect(size))
        self._build()

    def _button(self, rect, text, fn, tip=None) -> UIButton:
        b = UIButton(pygame.Rect(rect), text, self.app.manager, tool_tip_text=tip)
        self._widgets[b] = fn
        return b

    def _build(self) -> None:
        m = self.app.manager
        w, h = self.app.size
        self._widgets = {}
        self._panel_key = None
        self._panel_widgets = []
        self.title = UILabel(pygame.Rect(10, 8, w - 790, 28), "", m, object_id="#banner")
        x = w - 776
        for text, fn in [
            ("New", self.new_dialog),
            ("Open", self.open_file),
            ("Save", self.save),
            ("Save as", self.save_as),
            ("Undo", self.undo),
            ("Redo", self.redo),
            ("Test play", self.test_play),
            ("Menu", self.leave),
        ]:
            self._button((x, 6, 92, 32), text, fn)
            x += 96
        y = TOP_H + 8
        self.tool_buttons = {}
        for label, _, cls in TOOLS:
            self.tool_buttons[cls] = self._button(
                (6, y, TOOLS_W - 12, 30), label, lambda c=cls: self.set_mode(c())
            )
            y += 34
        y += 6
        UILabel(pygame.Rect(6, y, TOOLS_W - 12, 20), "Area or hill to draw", m)
        kinds = _kind_names(self.doc.data, "area") + ["hill"]
        self.area_menu = UIDropDownMenu(
            [_pretty(k) for k in kinds],
            _pretty(self.draw_area),
            pygame.Rect(6, y + 22, TOOLS_W - 12, 30),
            m,
        )
        self._fields[self.area_menu] = lambda t: self._set_draw_area(t)
        y += 58
        UILabel(pygame.Rect(6, y, 70, 24), "Hill level", m)
        self.level_entry = UITextEntryLine(pygame.Rect(80, y, TOOLS_W - 86, 26), m)
        self.level_entry.set_text(str(self.hill_level))
        self._fields[self.level_entry] = self._set_level
        y += 30
        UILabel(pygame.Rect(6, y, 70, 24), 'Lot "', m)
        self.lot_entry = UITextEntryLine(pygame.Rect(80, y, TOOLS_W - 86, 26), m)
        self.lot_entry.set_text(f"{self.lot_diameter:g}")
        self._fields[self.lot_entry] = self._set_lot
        y += 32
        UILabel(pygame.Rect(6, y, TOOLS_W - 12, 20), "Road to draw", m)
        roads = _kind_names(self.doc.data, "road")
        self.road_menu = UIDropDownMenu(
            [_pretty(k) for k in roads],
            _pretty(self.draw_road),
            pygame.Rect(6, y + 22, TOOLS_W - 12, 30),
            m,
        )
        self._fields[self.road_menu] = lambda t: setattr(self, "draw_road", t.replace(" ", "_"))
        y += 60
        self.grid_button = self._button((6, y, TOOLS_W - 12, 30), "", self.toggle_grid)
        y += 36
        self._button((6, y, TOOLS_W - 12, 30), "Help (F1)", self.toggle_help)
        px = w - PANEL_W + 6
        for i, name in enumerate(PANELS):
            self._button(
                (px + (i % 3) * 114, TOP_H + 6 + (i // 3) * 34, 110, 30),
                name,
                lambda n=name: self.show_panel(n),
            )
        self.set_mode(self.mode)

    def show_panel(self, name: str) -> None:
        """Switch the side panel."""
        self.panel = name
        self._panel_key = None

    def toggle_grid(self) -> None:
        """Snap to the 0.5" grid, or not."""
        self.grid = not self.grid

    def toggle_help(self) -> None:
        """Show or hide the keys."""
        self.help = not self.help

    def _set_draw_area(self, text: str) -> None:
        self.draw_area = text.replace(" ", "_")
        if self.draw_area == "hill":
            self.set_mode(HillMode())
        elif type(self.mode) not in (PolygonMode, RectMode, LotMode):
            self.set_mode(PolygonMode())

    def _set_level(self, text: str) -> str | None:
        try:
            level = int(text)
        except ValueError:
            return "the hill level is a whole number from 1"
        if not 1 <= level <= 20:
            return "the hill level is from 1 to 20"
        self.hill_level = level
        return None

    def _set_lot(self, text: str) -> str | None:
        try:
            d = float(text)
        except ValueError:
            return "the lot's diameter is a number of inches"
        if not 0.5 <= d <= 100:
            return 'a lot is 0.5" to 100" across'
        self.lot_diameter = d
        return None

    def set_mode(self, mode: Mode | None) -> None:
        """Make ``mode`` current (None keeps the current one); the one place modes change."""
        if mode is None:
            return
        if type(mode) is not type(self.mode):
            self.message = ("", False)
        self.mode = mode
        mode.enter(self)
        for cls, b in getattr(self, "tool_buttons", {}).items():
            if type(mode) is cls:
                b.select()
            else:
                b.unselect()

    def set_hint(self, text: str) -> None:
        """The status line's hint of what to do next."""
        self.hint = text

    def readout(self, text: str) -> None:
        """A live answer of the tool in hand (the ruler's): it replaces any message."""
        self.hint = text
        self.message = ("", False)

    def say(self, text: str, error: bool = False) -> None:
        """A message in the status line (red for a problem); it gives way to the tool's hint
        after a few seconds (a problem after longer) or when the tool changes."""
        self.message = (text, error)
        self._said_at = pygame.time.get_ticks()

    def new_dialog(self) -> None:
        """The new-table dialog: a preset or a custom size, and the autosave offered back."""
        m = self.app.manager
        w, h = self.app.size
        restore = autosave_file().exists()
        win = UIWindow(
            pygame.Rect(w // 2 - 230, h // 2 - 170, 460, 300 + 36 * restore), m, "New table"
        )
        self._dialogs.append(win)
        c = win
        UILabel(pygame.Rect(10, 8, 420, 22), "A table from a seed scenario sheet:", m, container=c)
        y = 34
        for name, (ruleset, tw, td) in PRESETS.items():
            b = UIButton(pygame.Rect(10, y, 420, 32), name, m, container=c)
            self._widgets[b] = lambda r=ruleset, a=tw, d=td, win=win: self._new(r, a, d, win)
            y += 36
        UILabel(
            pygame.Rect(10, y + 4, 420, 22),
            "Or a custom size (inches), width x depth:",
            m,
            container=c,
        )
        y += 30
        wide = UITextEntryLine(pygame.Rect(10, y, 80, 30), m, container=c)
        wide.set_text("72")
        deep = UITextEntryLine(pygame.Rect(100, y, 80, 30), m, container=c)
        deep.set_text("48")
        rules = UIDropDownMenu(
            ["modern", "wwii"], "modern", pygame.Rect(190, y, 110, 30), m, container=c
        )
        b = UIButton(pygame.Rect(310, y, 120, 30), "Create", m, container=c)
        self._widgets[b] = lambda: self._new_custom(wide.get_text(), deep.get_text(), rules, win)
        y += 40
        if restore:
            b = UIButton(
                pygame.Rect(10, y, 420, 32), "Restore the unsaved map (autosave)", m, container=c
            )
            self._widgets[b] = lambda: self._restore(win)
            y += 36
        b = UIButton(pygame.Rect(10, y, 205, 32), "Open a file...", m, container=c)
        self._widgets[b] = lambda: (win.kill(), self.open_file())
        b = UIButton(pygame.Rect(225, y, 205, 32), "Import GeoJSON...", m, container=c)
        self._widgets[b] = lambda: (
            win.kill(),
            self._file_dialog("Import GeoJSON terrain", Path.home(), "import", True, ".geojson"),
        )

    def _new(self, ruleset, width, depth, win) -> None:
        win.kill()
        self.load(Document.new(ruleset, width, depth, self.doc.data))
        self.say(
            f'A new {ruleset} table, {width:g}"x{depth:g}". Draw its terrain, then place the forces.'
        )

    def _new_custom(self, wt, dt, rules, win) -> None:
        try:
            width, depth = float(wt), float(dt)
            if not (6 <= width <= 1000 and 6 <= depth <= 1000):
                raise ValueError
        except ValueError:
            self.say("Width and depth are numbers of inches from 6 to 1000.", error=True)
            return
        choice = rules.selected_option
        choice = choice[0] if isinstance(choice, tuple) else choice
        self._new(choice, width, depth, win)

    def _restore(self, win) -> None:
        win.kill()
        try:
            self.load(read_session(autosave_file(), self.doc.data))
        except EditorFileError as err:
            self.say(str(err), error=True)
            return
        self.say("Restored the unsaved map from the autosave.")

    # ---------------------------------------------------------------- the side panel

    def _panel_state(self):
        return (
            self.panel,
            tuple(self.selection),
            self.vertex,
            self._checked_version,  # moves after a change is validated, not during a drag
            self.place_side,
            self.place_unit,
            self.unit_filter,
            self.overlay_name,
            tuple(self.layers.values()),
            self.app.size,
        )

    def refresh_panel(self, force: bool = False) -> None:
        """Rebuild the side panel's widgets when what it shows changed (never every frame,
        and not under the user's typing)."""
        focus = self.app.manager.get_focus_set() or set()
        typing = any(
            isinstance(e, (UITextEntryLine, UITextEntryBox)) and e in self._panel_widgets
            for e in focus
        )
        key = self._panel_state()
        if typing and not force:
            return
        if key == self._panel_key and not force:
            return
        self._panel_key = key
        for wdg in self._panel_widgets:
            self._widgets.pop(wdg, None)
            self._fields.pop(wdg, None)
            wdg.kill()
        self._panel_widgets = []
        self._py = TOP_H + 80
        getattr(self, f"_panel_{self.panel.lower()}")()

    def _pw(self, widget):
        self._panel_widgets.append(widget)
        return widget

    def _px(self) -> int:
        return self.app.size[0] - PANEL_W + 8

    def _text(self, text: str, height: int | None = None) -> None:
        h = height or 24
        box = UITextBox(text, pygame.Rect(self._px(), self._py, PANEL_W - 16, h), self.app.manager)
        self._pw(box)
        self._fields[box] = self._link
        self._py += h + 4

    def _label(self, text: str) -> None:
        self._pw(
            UILabel(pygame.Rect(self._px(), self._py, PANEL_W - 16, 22), text, self.app.manager)
        )
        self._py += 22

    def _field(self, label: str, value, on_set, choices=None, width=170) -> None:
        """A labelled entry (or drop-down with ``choices``) whose edits call ``on_set(text)``;
        a returned string is shown as the problem with the value."""
        m = self.app.manager
        x = self._px()
        self._pw(
            UILabel(
                pygame.Rect(x, self._py, PANEL_W - 20 - width, 28), label, m, object_id="#field"
            )
        )
        rect = pygame.Rect(x + PANEL_W - 16 - width, self._py, width, 28)
        if choices is not None:
            wdg = UIDropDownMenu(list(choices), str(value), rect, m)
        else:
            wdg = UITextEntryLine(rect, m)
            wdg.set_text("" if value is None else str(value))
        self._fields[self._pw(wdg)] = on_set
        self._py += 32

    def _pbutton(self, text: str, fn, half: int = 0) -> None:
        """A panel button; ``half`` 1 or 2 puts two on a row."""
        x = self._px()
        wdt = PANEL_W - 16
        if half:
            wdt = (PANEL_W - 20) // 2
            x += 0 if half == 1 else wdt + 4
        b = self._pw(UIButton(pygame.Rect(x, self._py, wdt, 30), text, self.app.manager))
        self._widgets[b] = fn
        if half != 1:
            self._py += 34

    def _set(self, path, label, parse=None):
        """An ``on_set`` that writes a field of the file through a SetField command."""

        def on_set(text: str):
            try:
                value = parse(text) if parse else text
            except ValueError as err:
                return str(err) or f"not a valid {label}"
            cmd = SetField(tuple(path), value, f"set {label}")
            self.commit(cmd, merge_key=("field", tuple(path)))
            self._panel_key = self._panel_state()  # keep the entry being typed in
            return None

        return on_set

    def _panel_item(self) -> None:
        raw = self.doc.raw
        if not self.selection:
            self._text(
                "<b>Nothing selected.</b><br>Pick a tool on the left and draw on the table, or "
                "click a feature or stand with Select (V). The <b>Problems</b> panel lists what "
                "the scenario still needs.",
                124,
            )
            return
        if len(self.selection) > 1:
            self._text(f"<b>{len(self.selection)} items selected.</b>", 30)
        else:
            kind, i = self.selection[0]
            if kind == "feature":
                self._feature_fields(i, items(raw, "feature")[i])
            else:
                self._stand_fields(i, items(raw, "stand")[i])
        self._py += 4
        self._pbutton("Turn 15° (Q)", lambda: self.rotate_selection(15), 1)
        self._pbutton("Turn -15° (E)", lambda: self.rotate_selection(-15), 2)
        if any(k == "feature" for k, _ in self.selection):  # a stand is always 1"x1"
            self._pbutton("Smaller ([)", lambda: self.scale_selection(0.9), 1)
            self._pbutton("Larger (])", lambda: self.scale_selection(1 / 0.9), 2)
        self._pbutton("Duplicate (Ctrl+D)", self.duplicate_selection, 1)
        self._pbutton("Delete (Del)", self.delete_selection, 2)
        self._label("Onto the other half of the table:")
        self._pbutton("Half-turn copy", lambda: self.half_turn_selection(True), 1)
        self._pbutton("Half-turn in place", lambda: self.half_turn_selection(False), 2)
        self._pbutton("Mirror copy |", lambda: self.mirror_selection("vertical"), 1)
        self._pbutton("Mirror copy -", lambda: self.mirror_selection("horizontal"), 2)

    def _feature_fields(self, i: int, f: dict) -> None:
        props = f.get("properties", {})
        kind = props.get("terrain", "?")
        gtype = f.get("geometry", {}).get("type", "?")
        shape = {"LineString": "a line", "MultiLineString": "lines"}.get(gtype, "an area")
        if kind == "hill":
            shape = "an outline"
        self._text(f"<b>Feature {i + 1}: {_pretty(kind)}</b>, {shape}", 34)
        line = gtype in edits.LINE_TYPES
        kinds = _kind_names(self.doc.data, "road" if line else "area") + ([] if line else ["hill"])
        base = ("terrain", "features", i, "properties")

        def set_kind(text):
            new = text.replace(" ", "_")
            cmds = [SetField((*base, "terrain"), new, f"make it {text}")]
            if new == "hill" and props.get("level") is None:
                cmds.append(SetField((*base, "level"), self.hill_level, "level"))
            if new != "hill" and "level" in props:
                cmds.append(SetField((*base, "level"), MISSING, "level"))
            self.commit(Batch(tuple(cmds), f"make it {text}"))

        self._field("Type", _pretty(kind), set_kind, [_pretty(k) for k in kinds])
        if kind == "hill":
            self._field(
                "Level", props.get("level"), self._set((*base, "level"), "hill level", _int(1, 20))
            )
        self._field("Name", props.get("name", ""), self._set((*base, "name"), "name", _name))
        g = edits.feature_geometry(f)
        if g is not None and not g.is_empty:
            c = g.centroid if not line else g.interpolate(0.5, normalized=True)
            cx, cy = c.x, c.y
            self._field(
                "Centre x, y (inches)", f"{cx:.2f}, {cy:.2f}", lambda t: self._move_to(i, cx, cy, t)
            )
            area = f"{g.area:.1f} sq in" if not line else f'{g.length:.1f}" long'
            self._label(f"{area}, {len(edits.vertices(f))} vertices")
        if self.vertex and self.vertex[0] == i:
            addr = self.vertex[1]
            pts = dict(edits.vertices(f))
            if addr in pts:
                vx, vy = pts[addr]
                self._field(
                    "Vertex x, y (inches)", f"{vx:g}, {vy:g}", lambda t: self._vertex_to(i, addr, t)
                )

    def _move_to(self, i, cx, cy, text):
        x, y = _pair(text)
        self.commit(
            edits.transform(
                self.doc.raw, [("feature", i)], edits.translation(x - cx, y - cy), "move"
            ),
            merge_key=("field", "centre", i),
        )
        self._panel_key = self._panel_state()

    def _vertex_to(self, i, addr, text):
        x, y = _pair(text)
        from game.editor.commands import Replace

        f = items(self.doc.raw, "feature")[i]
        self.commit(
            Replace("feature", i, edits.move_vertex(f, addr, x, y), "move a vertex"),
            ("field", "vertex", i, addr),
        )
        self._panel_key = self._panel_state()

    def _stand_fields(self, i: int, s: dict) -> None:
        sides = [sd.get("id") for sd in self.doc.raw.get("sides", [])]
        units = sorted(self.doc.data.units_for(self.doc.raw.get("ruleset", "modern")))
        self._text(
            f"<b>Stand {html.escape(str(s.get('id')))}</b>: {html.escape(str(s.get('unit')))}", 30
        )
        base = ("stands", i)
        self._field("Id", s.get("id"), self._set((*base, "id"), "stand id"))
        self._field("Side", s.get("side"), self._set((*base, "side"), "side"), sides)
        unit = s.get("unit")
        self._field(
            "Unit",
            unit,
            self._set((*base, "unit"), "unit"),
            units if unit in units else [unit, *units],
            width=200,
        )
        self._field(
            "Battle group", s.get("group"), self._set((*base, "group"), "battle group", _name)
        )
        self._field("x, y (inches)", f"{s.get('x')}, {s.get('y')}", lambda t: self._stand_to(i, t))
        self._field(
            "Facing (0 = right, 90 = up)",
            s.get("facing_deg"),
            self._set((*base, "facing_deg"), "facing", _facing),
        )
        yes_no = ["yes", "no"]
        flag = lambda k: self._set((*base, k), k, lambda t: t == "yes")  # noqa: E731
        self._field("HQ", "yes" if s.get("hq") else "no", flag("hq"), yes_no)
        self._field("GHQ (one a side)", "yes" if s.get("ghq") else "no", flag("ghq"), yes_no)
        self._field(
            "Enters on turn 1",
            "no" if s.get("on_table", True) else "yes",
            lambda t: self._entering(i, t == "yes"),
            yes_no,
        )

    def _stand_to(self, i, text):
        x, y = _pair(text)
        cmds = (
            SetField(("stands", i, "x"), edits.tidy(x), "move"),
            SetField(("stands", i, "y"), edits.tidy(y), "move"),
        )
        self.commit(Batch(cmds, "move a stand"), ("field", "stand", i))
        self._panel_key = self._panel_state()

    def _entering(self, i, entering: bool):
        s = items(self.doc.raw, "stand")[i]
        base = ("stands", i)
        if entering:
            p = edits.entry_point(self.doc.raw, s.get("side"), s.get("x", 0), s.get("y", 0))
            if p is None:
                return "its side has no entry edge (set one in the Forces panel)"
            edge = self.side_spec(s.get("side")).get("entry_edge")
            cmds = [
                SetField((*base, "on_table"), False),
                SetField((*base, "x"), edits.tidy(p[0])),
                SetField((*base, "y"), edits.tidy(p[1])),
                SetField((*base, "facing_deg"), edits.edge_facing(edge)),
            ]
        else:
            w, d = self.table_size()
            x = min(max(s.get("x", 1), 1.5), w - 1.5)
            y = min(max(s.get("y", 1), 1.5), d - 1.5)
            cmds = [
                SetField((*base, "on_table"), True),
                SetField((*base, "x"), edits.tidy(x)),
                SetField((*base, "y"), edits.tidy(y)),
            ]
        self.commit(Batch(tuple(cmds), "enters on turn 1" if entering else "placed on the table"))
        return None

    def _panel_problems(self) -> None:
        self.check()
        if not self.problems:
            self._text(
                "<b>No problems.</b> The scenario passes the same check as hulldown check. "
                "Save it and play it; F5 tries it now.",
                70,
            )
            return
        lines = [
            f"<b>{len(self.problems)} problem(s).</b> Click one to select and frame what it "
            "names; each must be mended before the scenario can be played."
        ]
        for k, p in enumerate(self.problems):
            lines.append(f"<a href='problem:{k}'>{k + 1}. {html.escape(_short(p.text))}</a>")
        self._text("<br><br>".join(lines), self._room())

    def _room(self) -> int:
        """The panel's height left below what is laid out (pixels)."""
        return max(80, self.app.size[1] - self._py - STATUS_H - 10)

    def _link(self, target: str) -> None:
        """A link clicked in a panel's text (``problem:K``)."""
        if target.startswith("problem:"):
            self._problem_clicked(int(target.split(":")[1]))

    def _problem_clicked(self, k: int) -> None:
        p = self.problems[k]
        self.say(f"Problem {k + 1} of {len(self.problems)}: {_short(p.text)}", error=True)
        if p.ref is not None:
            n = len(items(self.doc.raw, p.ref[0]))
            if p.ref[1] < n:
                self.frame(p.ref)
                self.panel = "Problems"

    def _panel_history(self) -> None:
        h = self.doc.history
        state = "unsaved changes" if h.dirty else "as saved"
        self._text(
            f"<b>History</b>: {h.position} of {len(h.entries)} changes applied ({state}). "
            "Click a line to go back or forward to it; undone lines are marked.",
            70,
        )
        labels = ["0. as opened" + ("  <- now" if h.position == 0 else "")]
        for k, e in enumerate(h.entries):
            mark = "  <- now" if k + 1 == h.position else ("  (undone)" if k >= h.position else "")
            labels.append(f"{k + 1}. {e.label}{mark}")
        lst = self._pw(
            UISelectionList(
                pygame.Rect(self._px(), self._py, PANEL_W - 16, self._room()),
                labels,
                self.app.manager,
            )
        )
        self._fields[lst] = lambda t: self._jump(int(t.split(".")[0]))

    def _jump(self, position: int) -> None:
        self.doc.history.jump(position)
        self.say(f"History: {position} change(s) applied")

    def _panel_map(self) -> None:
        from game.editor.analysis import map_statistics

        views = ["off"] + [
            f"{w} {s.get('id')}" for w in ("sight", "cost") for s in self.doc.raw.get("sides", [])
        ]
        names = {"off": "No balance view"}
        for v in views[1:]:
            w, s = v.split()
            names[v] = f"Ground side {s} sees" if w == "sight" else f"MP for side {s} to reach"
        back = {n: v for v, n in names.items()}
        self._field(
            "Balance view",
            names.get(self.overlay_name, names["off"]),
            lambda t: self.show_view(back[t]),
            list(names.values()),
            width=200,
        )
        for i, layer in enumerate(self.layers):
            on = self.layers[layer]
            self._pbutton(
                f"{layer}: {'shown' if on else 'hidden'}",
                lambda n=layer: self._toggle_layer(n),
                1 + i % 2,
            )
        self._pbutton(
            "Export terrain as GeoJSON...",
            lambda: self._file_dialog(
                "Export the terrain",
                (self.doc.path or user_maps_dir() / "map.json").with_suffix(".geojson"),
                "export",
                False,
                ".geojson",
            ),
        )
        try:
            stats = map_statistics(self.doc.raw, self.doc.data)
        except ValueError as err:
            self._text(f"No statistics: {html.escape(str(err))}", 60)
            return
        self._text(_stats_html(stats, self.doc.raw), self._room())

    def _toggle_layer(self, name: str) -> None:
        self.layers[name] = not self.layers[name]
        self.selection = [r for r in self.selection if self._ref_visible(r)]

    def _ref_visible(self, ref) -> bool:
        if ref[0] == "stand":
            return self.layers["stands"]
        return self.layers[self._layer_of(items(self.doc.raw, "feature")[ref[1]])]

    def _panel_forces(self) -> None:
        raw = self.doc.raw
        sides = raw.get("sides", [])
        ids = [s.get("id") for s in sides]
        if self.place_side not in ids and ids:
            self.place_side = ids[0]
        self._field("Side to edit", self.place_side, lambda t: setattr(self, "place_side", t), ids)
        k = ids.index(self.place_side) if self.place_side in ids else 0
        if sides:
            base = ("sides", k)
            s = sides[k]
            self._field("Name", s.get("name"), self._set((*base, "name"), "side name", _name))
            self._field(
                "Cohesion (1-20)",
                s.get("cohesion"),
                self._set((*base, "cohesion"), "cohesion", _int(1, 20)),
            )
            gens = ["none", "1", "2", "3", "4"]
            gen = s.get("generation")
            self._field(
                "Generation",
                "none" if gen is None else str(gen),
                self._set(
                    (*base, "generation"), "generation", lambda t: None if t == "none" else int(t)
                ),
                gens,
            )
            self._field(
                "GHQ command value",
                s.get("command_value", 0),
                self._set((*base, "command_value"), "command value", _int(-5, 5)),
            )
            edges = ["none", "left", "right", "top", "bottom"]
            self._field(
                "Entry edge",
                s.get("entry_edge") or "none",
                self._set(
                    (*base, "entry_edge"), "entry edge", lambda t: None if t == "none" else t
                ),
                edges,
            )
        self._field("Find a unit", self.unit_filter, self._filter_units)
        shown, labels = self._unit_rows()
        h = max(120, self.app.size[1] - self._py - STATUS_H - 40)
        sel = None
        if self.place_unit in shown:
            sel = labels[shown.index(self.place_unit)]
        lst = self._pw(
            UISelectionList(
                pygame.Rect(self._px(), self._py, PANEL_W - 16, h),
                labels,
                self.app.manager,
                default_selection=sel,
            )
        )
        self._unit_list = lst
        self._fields[lst] = lambda t: self._pick_unit(t.split("  (")[0])
        self._py += h + 4
        own = [st for st in raw.get("stands", []) if st.get("side") == self.place_side]
        self._label(
            f"{len(own)} stand(s) of side {self.place_side}; click the table with Stand (S)."
        )

    def _unit_rows(self) -> tuple[list[str], list[str]]:
        """The units of the scenario's ruleset whose name holds the filter, and their rows."""
        units = self.doc.data.units_for(self.doc.raw.get("ruleset", "modern"))
        shown = [u for u in sorted(units) if self.unit_filter.lower() in u.lower()]
        return shown, [f"{u}  ({units[u].points} pts)" for u in shown]

    def _filter_units(self, text: str):
        """Filter the unit list as the player types (the list is updated, not rebuilt)."""
        self.unit_filter = text
        self._unit_list.set_item_list(self._unit_rows()[1])
        self._panel_key = self._panel_state()
        return None

    def _pick_unit(self, unit: str) -> None:
        self.place_unit = unit
        self.set_mode(StandMode())
        self.say(f"Placing {unit} for side {self.place_side}: click the table.")

    def _panel_scenario(self) -> None:
        raw = self.doc.raw
        self._field("Title", raw.get("title", ""), self._set(("title",), "title", _name), width=220)
        self._field(
            "Ruleset",
            raw.get("ruleset", "modern"),
            self._set(("ruleset",), "ruleset"),
            ["modern", "wwii"],
        )
        self._field("Turns (1-100)", raw.get("turns"), self._set(("turns",), "turns", _int(1, 100)))
        self._field(
            'Sighting distance (")',
            raw.get("max_sighting_in"),
            self._set(("max_sighting_in",), "sighting distance", _positive),
        )
        t = raw.get("table", {})
        self._field(
            'Table width (")',
            t.get("width"),
            self._set(("table", "width"), "table width", _positive),
        )
        self._field(
            'Table depth (")',
            t.get("depth"),
            self._set(("table", "depth"), "table depth", _positive),
        )
        v = raw.get("victory", {})
        self._field(
            "Win: destroy at least %",
            v.get("destroy_at_least_pct", 51),
            self._set(("victory", "destroy_at_least_pct"), "victory", _pct),
        )
        self._field(
            "...while losing at most %",
            v.get("lose_at_most_pct", 50),
            self._set(("victory", "lose_at_most_pct"), "victory", _pct),
        )
        self._label("Briefing shown to the players:")
        box = self._pw(
            UITextEntryBox(
                pygame.Rect(self._px(), self._py, PANEL_W - 16, 150),
                raw.get("description", ""),
                self.app.manager,
            )
        )
        self._fields[box] = self._set(("description",), "briefing")
        self._py += 154

    # ---------------------------------------------------------------- events

    def handle(self, ev) -> None:
        """One event: widgets first, then keys and the camera, then the current mode."""
        self.app.manager.process_events(ev)
        if ev.type == pygame.MOUSEMOTION:
            self.mouse = ev.pos
        if ev.type == pygame_gui.UI_BUTTON_PRESSED:
            fn = self._widgets.get(ev.ui_element)
            if fn:
                fn()
            return
        if ev.type in (
            pygame_gui.UI_TEXT_ENTRY_CHANGED,
            pygame_gui.UI_DROP_DOWN_MENU_CHANGED,
            pygame_gui.UI_SELECTION_LIST_NEW_SELECTION,
        ):
            fn = self._fields.get(ev.ui_element)
            if fn:
                err = fn(ev.text)
                if err:
                    self.say(err, error=True)
            return
        if ev.type == pygame_gui.UI_TEXT_BOX_LINK_CLICKED:
            fn = self._fields.get(ev.ui_element)
            if fn:
                fn(ev.link_target)
            return
        if ev.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
            self._picked(Path(ev.text))
            return
        if ev.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED:
            fn, self._confirm = getattr(self, "_confirm", None), None
            if fn:
                fn()
            return
        if ev.type == pygame.KEYDOWN and (self._typing() or self._dialog_open()):
            return  # keys typed into a field or a dialog are not the editor's shortcuts
        if ev.type == pygame.KEYDOWN and self._key(ev):
            return
        if ev.type in (
            pygame.MOUSEBUTTONDOWN,
            pygame.MOUSEBUTTONUP,
            pygame.MOUSEMOTION,
            pygame.MOUSEWHEEL,
        ):
            if self._over_dialog(self.mouse if ev.type == pygame.MOUSEWHEEL else ev.pos):
                return
            if (
                ev.type != pygame.MOUSEWHEEL
                and not self.tv.rect.collidepoint(ev.pos)
                and self._pan_from is None
                and not getattr(ev, "buttons", (0,))[0]
            ):
                return
        if ev.type == pygame.MOUSEWHEEL:
            self.tv.zoom_at(1.15**ev.y, self.mouse)
            return
        if self._camera(ev):
            return
        if not self.help:
            self.set_mode(self.mode.on_event(self, ev))

    def _typing(self) -> bool:
        """Whether a live text field has the keyboard."""
        focus = self.app.manager.get_focus_set() or set()
        return any(isinstance(e, (UITextEntryLine, UITextEntryBox)) and e.alive() for e in focus)

    def _dialog_open(self) -> bool:
        """Whether a dialog is open (closed ones are forgotten)."""
        self._dialogs = [d for d in self._dialogs if d.alive()]
        return bool(self._dialogs)

    def _over_dialog(self, pos) -> bool:
        """Whether a pixel is on an open dialog (the table under it is not clicked)."""
        return self._dialog_open() and any(d.rect.collidepoint(pos) for d in self._dialogs)

    def _key(self, ev) -> bool:
        k, mod = ev.key, ev.mod
        ctrl = mod & pygame.KMOD_CTRL
        shift = mod & pygame.KMOD_SHIFT
        if k == pygame.K_F1 or (ev.unicode == "?" and not ctrl):
            self.toggle_help()
        elif self.help and k == pygame.K_ESCAPE:
            self.help = False
        elif ctrl and k == pygame.K_z:
            self.redo() if shift else self.undo()
        elif ctrl and k == pygame.K_y:
            self.redo()
        elif ctrl and k == pygame.K_s:
            self.save_as() if shift else self.save()
        elif ctrl and k == pygame.K_o:
            self.open_file()
        elif ctrl and k == pygame.K_n:
            self.new_dialog()
        elif self.selection and k in (pygame.K_LEFTBRACKET, pygame.K_RIGHTBRACKET):
            if any(kind == "feature" for kind, _ in self.selection):
                self.scale_selection(0.9 if k == pygame.K_LEFTBRACKET else 1 / 0.9)
        elif ctrl and k == pygame.K_d:
            self.duplicate_selection()
        elif k == pygame.K_F5:
            self.test_play()
        elif k == pygame.K_ESCAPE:
            self.set_mode(self.mode.cancel(self))
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.set_mode(self.mode.confirm(self))
        elif ctrl:
            return False
        elif k == pygame.K_g:
            self.toggle_grid()
        elif k == pygame.K_f:
            self.tv.fit()
        elif k in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
            dx = {pygame.K_LEFT: 60, pygame.K_RIGHT: -60}.get(k, 0)
            dy = {pygame.K_UP: 60, pygame.K_DOWN: -60}.get(k, 0)
            self.tv.pan(dx, dy)
        else:
            for _, key, cls in TOOLS:
                if k == key and not (
                    isinstance(self.mode, (SelectMode, StandMode)) and k in (pygame.K_q, pygame.K_e)
                ):
                    if type(self.mode) is not cls:
                        self.set_mode(cls())
                    return True
            return False
        return True

    def _camera(self, ev) -> bool:
        """Pan with the right or middle button."""
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button in (2, 3):
            self._pan_from = ev.pos
            return True
        if ev.type == pygame.MOUSEMOTION and self._pan_from is not None:
            self.tv.pan(ev.pos[0] - self._pan_from[0], ev.pos[1] - self._pan_from[1])
            self._pan_from = ev.pos
            return True
        if ev.type == pygame.MOUSEBUTTONUP and ev.button in (2, 3):
            self._pan_from = None
            return True
        return False

    # ---------------------------------------------------------------- frame

    def update(self, dt: float) -> None:
        """Validate after a change, autosave, refresh the title and panel, poll the view."""
        self.check()
        if self.tv.table.width != self.table().width or self.tv.table.depth != self.table().depth:
            self.tv.table = self.table()
            self.tv.view = View(self.tv.view.scale, self.tv.view.origin, self.tv.table.depth)
        star = " *" if self.doc.history.dirty else ""
        raw = self.doc.raw
        name = str(raw.get("title", ""))
        room = max(12, (self.app.size[0] - 800) // 9)  # characters that fit beside the buttons
        file = self.doc.name
        file = file if len(file) <= room // 2 else file[: room // 2 - 3] + "..."
        name = (
            name if len(name) + len(file) <= room else name[: max(4, room - len(file) - 3)] + "..."
        )
        title = f"{name} ({file}{star})"
        if self.title.text != title:
            self.title.set_text(title)
        self.grid_button.set_text(f'Grid 0.5": {"on" if self.grid else "off"} (G)')
        self._poll_view()
        self.refresh_panel()
        self.app.manager.update(dt)

    def _terrain_layer(self) -> pygame.Surface:
        """The terrain drawn for the camera, cached until the document, the camera or the
        shown layers change. While a drag is merging, the dragged features are left out of
        the cached layer and drawn live on top, so a drag redraws one feature, not all."""
        h = self.doc.history
        dragging = set()
        if h.position and h.entries[h.position - 1].merge_key is not None:
            dragging = {i for k, i in self.selection if k == "feature"}
            if self.vertex:
                dragging.add(self.vertex[0])
        version = self._drag_version if dragging else h.version
        if not dragging:
            self._drag_version = h.version
        key = (
            version,
            tuple(sorted(dragging)),
            self.tv.view.scale,
            self.tv.view.origin,
            self.tv.rect.size,
            tuple(self.layers.values()),
        )
        if self._layer is None or self._layer_key != key:
            layer = pygame.Surface(self.tv.rect.size)
            layer.fill(BACKGROUND)
            shifted = View(
                self.tv.view.scale,
                (self.tv.view.origin[0] - self.tv.rect.x, self.tv.view.origin[1] - self.tv.rect.y),
                self.tv.view.depth,
            )
            table = self.table() if not dragging else self._drag_table
            hide = dragging | {f.index for f in table.features if not self._shown(f)}
            if hide:
                table = Table(
                    table.width,
                    table.depth,
                    [f for f in table.features if f.index not in hide],
                    self.doc.data.terrain,
                )
            draw_table(layer, table, shifted)
            self._layer, self._layer_key = layer, key
        return self._layer

    _drag_version = -1
    _drag_table = None

    def _shown(self, f) -> bool:
        if f.kind == "hill":
            return self.layers["hills"]
        if f.geometry.geom_type in edits.LINE_TYPES:
            return self.layers["roads"]
        return self.layers["terrain"]

    def draw(self, surface: pygame.Surface) -> None:
        """The bars, the table with its terrain, stands, selection and the mode's overlay."""
        w, h = surface.get_size()
        surface.fill(BAR, pygame.Rect(0, 0, w, TOP_H))
        surface.fill(PANEL_BG, pygame.Rect(0, TOP_H, TOOLS_W, h - TOP_H))
        surface.fill(PANEL_BG, pygame.Rect(w - PANEL_W, TOP_H, PANEL_W, h - TOP_H))
        if self._layer_key is None or not self._dragging():
            self._drag_table = self.table()
        clip = surface.get_clip()
        surface.set_clip(self.tv.rect)
        surface.blit(self._terrain_layer(), self.tv.rect.topleft)
        if self._dragging():
            for k, i in self.selection + ([("feature", self.vertex[0])] if self.vertex else []):
                if k == "feature":
                    self._draw_feature_live(surface, i)
        if self.overlay is not None:
            self._draw_overlay(surface)
        for i in self.bad_features:
            self._outline_feature(surface, i, INVALID, 2)
        if self.layers["stands"]:
            self._draw_stands(surface)
        self._draw_selection(surface)
        self.mode.draw(self, surface)
        if self.help:
            self._draw_help(surface)
        surface.set_clip(clip)
        self._draw_status(surface)
        self.app.manager.draw_ui(surface)

    def _dragging(self) -> bool:
        h = self.doc.history
        return bool(
            h.position
            and h.entries[h.position - 1].merge_key is not None
            and h.entries[h.position - 1].merge_key[0] == "drag"
        )

    def _draw_feature_live(self, surface, i: int) -> None:
        f = items(self.doc.raw, "feature")[i]
        g = edits.feature_geometry(f)
        if g is None:
            return
        kind = f["properties"].get("terrain")
        if g.geom_type in edits.LINE_TYPES:
            colour, wid = ROAD_STYLE.get(kind, ((120, 100, 80), 0.3))
            for line in getattr(g, "geoms", [g]):
                pts = [self.tv.to_px(x, y) for x, y in line.coords]
                if len(pts) >= 2:
                    pygame.draw.lines(
                        surface, colour, False, pts, max(2, int(wid * self.tv.view.scale))
                    )
            return
        colour = HILL_COLOURS[0] if kind == "hill" else TERRAIN_COLOURS.get(kind, (150, 150, 150))
        for poly in getattr(g, "geoms", [g]):
            pts = [self.tv.to_px(x, y) for x, y in poly.exterior.coords]
            if len(pts) >= 3:
                pygame.draw.polygon(surface, colour, pts)

    def _outline_feature(self, surface, i: int, colour, width: int) -> None:
        feats = items(self.doc.raw, "feature")
        if not 0 <= i < len(feats):
            return
        f = feats[i]
        closed = f.get("geometry", {}).get("type") in edits.AREA_TYPES
        try:
            coords = f["geometry"]["coordinates"]
            lines = {
                "Polygon": coords,
                "MultiPolygon": [r for p in coords for r in p],
                "LineString": [coords],
                "MultiLineString": coords,
            }[f["geometry"]["type"]]
            for line in lines:
                pts = [self.tv.to_px(p[0], p[1]) for p in line]
                if len(pts) >= 2:
                    pygame.draw.lines(surface, colour, closed, pts, width)
        except (KeyError, TypeError, IndexError):
            return

    def _draw_stands(self, surface) -> None:
        sides = [s.get("id") for s in self.doc.raw.get("sides", [])]
        font = self.tv.font()
        for s in self.doc.raw.get("stands", []):
            try:
                colour = (
                    SIDE_COLOURS[sides.index(s["side"]) % 2]
                    if s.get("side") in sides
                    else (150, 150, 150)
                )
                if s.get("on_table", True) is False:
                    colour = tuple(int(c * 0.5 + 115) for c in colour)
                from game.rules.geometry import StandPose

                pose = StandPose(
                    str(s["id"]),
                    str(s["side"]),
                    float(s["x"]),
                    float(s["y"]),
                    float(s.get("facing_deg", 0)),
                )
            except (KeyError, TypeError, ValueError):
                continue
            draw_stand(surface, self.tv.view, pose, colour)
            lab = self.tv.label(pose.id)
            px, py = self.tv.to_px(pose.x, pose.y)
            surface.blit(lab, lab.get_rect(center=(px, py + self.tv.view.scale * 0.22)))
            if s.get("ghq") or s.get("hq"):
                tag = self.tv.label("GHQ" if s.get("ghq") else "HQ", INK)
                surface.blit(tag, tag.get_rect(midbottom=(px, py - self.tv.view.scale * 0.55)))
        del font

    def _draw_selection(self, surface) -> None:
        for kind, i in self.selection:
            if kind == "feature":
                self._outline_feature(surface, i, SELECTED, 3)
            else:
                s = items(self.doc.raw, "stand")[i]
                with contextlib.suppress(KeyError, TypeError):
                    self.tv.footprint_outline(
                        surface, s["x"], s["y"], s.get("facing_deg", 0), SELECTED, 3
                    )
        if len(self.selection) == 1 and self.selection[0][0] == "feature":
            i = self.selection[0][1]
            for addr, (x, y) in edits.vertices(items(self.doc.raw, "feature")[i]):
                p = self.tv.to_px(x, y)
                big = self.vertex == (i, addr)
                pygame.draw.rect(
                    surface,
                    HANDLE,
                    pygame.Rect(p[0] - 4 - big * 2, p[1] - 4 - big * 2, 8 + big * 4, 8 + big * 4),
                )
                pygame.draw.rect(
                    surface,
                    INK,
                    pygame.Rect(p[0] - 4 - big * 2, p[1] - 4 - big * 2, 8 + big * 4, 8 + big * 4),
                    1,
                )

    def _draw_overlay(self, surface) -> None:
        """The balance view: a translucent grid over the table, cached per camera."""
        name, result, cache = self.overlay
        key = (self.tv.view.scale, self.tv.view.origin, self.tv.rect.size)
        if cache is None or cache[0] != key:
            from game.ui.editor.views import overlay_surface

            surf = overlay_surface(name, result, self.tv, self.table_size())
            cache = (key, surf)
            self.overlay = (name, result, cache)
        surface.blit(cache[1], self.tv.rect.topleft)

    def _draw_status(self, surface) -> None:
        w, h = surface.get_size()
        bar = pygame.Rect(TOOLS_W, h - STATUS_H, w - TOOLS_W - PANEL_W, STATUS_H)
        surface.fill((245, 243, 235), bar)
        font = self._status_font()
        text, error = self.message
        shown_for = pygame.time.get_ticks() - getattr(self, "_said_at", 0)
        if text and shown_for > (12000 if error else 6000):
            text, error = self.message = ("", False)
        where = f"{self.mode.name} tool"
        if self.mouse_on_table():
            x, y = self.tv.to_table(self.mouse)
            where = f'({x:.1f}", {y:.1f}")  ' + where
        colour = (176, 40, 20) if error else INK
        lines = _wrap(font, f"{where}: {text or self.hint}", bar.w - 12)[:2]
        for k, line in enumerate(lines):
            surface.blit(font.render(line, True, colour), (bar.x + 6, bar.y + 5 + 19 * k))

    def _status_font(self) -> pygame.font.Font:
        if getattr(self, "_sfont", None) is None:
            self._sfont = pygame.font.Font(None, 21)
        return self._sfont

    def _draw_help(self, surface) -> None:
        font = pygame.font.Font(None, 22)
        lines = [font.render(t, True, INK) for t in HELP_TEXT]
        wd = max(i.get_width() for i in lines) + 30
        box = pygame.Rect(0, 0, wd, 24 * len(lines) + 24)
        box.center = self.tv.rect.center
        pygame.draw.rect(surface, (250, 248, 240), box)
        pygame.draw.rect(surface, INK, box, 2)
        for k, img in enumerate(lines):
            surface.blit(img, (box.x + 15, box.y + 12 + 24 * k))


_EMPTY = {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": []}}


def pygame_point(x: float, y: float):
    """A Shapely point (inches)."""
    from shapely.geometry import Point

    return Point(x, y)


def _int(lo: int, hi: int):
    def parse(text: str) -> int:
        v = int(text)
        if not lo <= v <= hi:
            raise ValueError(f"a whole number from {lo} to {hi}")
        return v

    return parse


def _positive(text: str) -> float:
    v = float(text)
    if not (v > 0 and math.isfinite(v)):
        raise ValueError("a number above 0")
    return int(v) if v.is_integer() else v


def _pct(text: str) -> float:
    v = float(text)
    if not 0 <= v <= 100:
        raise ValueError("a percentage from 0 to 100")
    return int(v) if v.is_integer() else v


def _facing(text: str) -> float:
    v = float(text) % 360
    return int(v) if v.is_integer() else round(v, 2)


def _name(text: str) -> str:
    if not text.strip():
        raise ValueError("it cannot be empty")
    return text


def _pair(text: str) -> tuple[float, float]:
    parts = text.replace(",", " ").split()
    if len(parts) != 2:
        raise ValueError("type two numbers: x, y")
    return float(parts[0]), float(parts[1])


def _wrap(font, text: str, width: int) -> list[str]:
    """Words of ``text`` in lines no wider than ``width`` pixels."""
    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and font.size(trial)[0] > width:
            lines.append(line)
            line = word
        else:
            line = trial
    return lines + ([line] if line else [])


def _short(text: str) -> str:
    """A problem line without the file name in front."""
    return text.split(": ", 1)[1] if ": " in text else text


def _stats_html(stats, raw) -> str:
    from game.ui.editor.views import stats_html

    return stats_html(stats, raw)
