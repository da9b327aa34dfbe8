"""The map editor's screen: the table with the current tool's mode, a tool bar, a side panel
(the selected item, problems, history, map statistics and balance views, forces, scenario
settings) and a status line that always says what to do next.

The screen turns input into :mod:`game.editor` commands and draws the document; every rule
question (sight, distance, range band, validity) goes to the engine, and the balance views
are computed by :mod:`game.editor.analysis` in a background thread.
"""

from __future__ import annotations

import html
from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.core.text.hyperlink_text_chunk import HyperlinkTextChunk
from pygame_gui.windows import UIConfirmationDialog

from game import Table, footprint
from game.editor import edits, snapping
from game.editor.commands import items
from game.editor.document import (
    Document,
    new_scenario,
    stand_place,
    table_of,
    write_session,
)
from game.saves import exists
from game.ui.editor.actions import SelectionActions
from game.ui.editor.balance import BalanceViews
from game.ui.editor.balance_check import BalanceCheck
from game.ui.editor.drawing import EditorDrawing
from game.ui.editor.files import Files
from game.ui.editor.keys import Dialogs, Entries
from game.ui.editor.layout import (
    _EMPTY,
    PANEL_W,
    STATUS_H,
    TOOLS,
    TOOLS_W,
    TOP_H,
    _pretty,
    autosave_file,
    mark_of,
    point,
)
from game.ui.editor.modes import (
    INVALID,
    PICK_PX,
    HillMode,
    SelectMode,
    StandMode,
)
from game.ui.editor.panels import PanelsMixin
from game.ui.editor.toolbar import Toolbar
from game.ui.modes import Mode
from game.ui.render import (
    View,
)
from game.ui.table_view import TableView


class EditorScreen(PanelsMixin):
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
        self.grid_size = 0.5  # inches between the points that drawing snaps to
        self.help = False
        self.layers = {"terrain": True, "roads": True, "hills": True, "stands": True}
        # single features locked (not picked, moved or deleted) or hidden (nor drawn), for this
        # session, known by their content (the file has no place for editor marks)
        self.locked: set[str] = set()
        self.hidden: set[str] = set()
        self.draw_area = self.last_area = "woods"
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
        self._pan_from = None
        self._panel_key = None
        self._widgets: dict = {}
        self._fields: dict = {}
        self.entries = Entries(app.manager, self.say, self.panel_changed)  # keys.py
        self._panel_widgets: list = []
        self._confirm = None  # what the confirmation dialog open runs if confirmed
        self._snap = None  # (document version, SnapIndex)
        self.dialogs = Dialogs()  # windows open over the table (they take the keys)
        self._autosaved_version = self.doc.history.version
        # an earlier session's unsaved map, until restored or knowingly replaced
        self._autosave_held = exists(autosave_file())
        self.views = BalanceViews(self)
        self.actions = SelectionActions(self)
        self.drawing = EditorDrawing(self)
        self.toolbar = Toolbar(self)
        self.files = Files(self)
        self.balance = BalanceCheck(self)
        self.tv = TableView(self.table(), self.table_rect(app.size))

    # ---------------------------------------------------------------- the model

    def table(self) -> Table:
        """The engine's Table of the document's usable features (rebuilt after a change)."""
        key = self.doc.history.version
        if self._table is not None and self.dragging():
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

    def select(self, refs) -> None:
        """Select these items (the panel shows the first); features hidden or locked on
        their own are left out."""
        feats = items(self.doc.raw, "feature")
        refs = [r for r in refs if r[0] != "feature" or self.pickable(feats[r[1]])]
        self.selection = list(dict.fromkeys(refs))
        self.vertex = None
        if self.selection:
            self.panel = "Item"

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
        w, d = self.table_size()
        # a point far off the table (a file's 1e300) is framed at the table's nearest edge
        cx = min(max((x0 / 2 + x1 / 2), -6.0), w + 6.0)
        cy = min(max((y0 / 2 + y1 / 2), -6.0), d + 6.0)
        px, py = self.tv.to_px(cx, cy)
        self.tv.pan(self.tv.rect.centerx - px, self.tv.rect.centery - py)

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

    def dragging(self) -> bool:
        """Whether a mouse drag is merging its moves into one history entry."""
        h = self.doc.history
        return bool(
            h.position
            and h.entries[h.position - 1].merge_key is not None
            and h.entries[h.position - 1].merge_key[0] == "drag"
        )

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
        if self._autosave_held:  # an earlier session's map is kept until restored or dropped
            if not getattr(self, "_told_held", False):
                self._told_held = True
                self.say(
                    "Not autosaved: the autosave keeps an earlier session's unsaved map until "
                    "you restore it (New) or replace it. Save this map to keep it.",
                    error=True,
                )
            return
        try:
            write_session(autosave_file(), self.doc)
        except OSError as err:
            self.say(f"The editor's autosave could not be written ({err})", error=True)

    def load(self, doc: Document) -> None:
        """Edit another document (the terrain picture, selection, balance view and snapping
        of the one shown are dropped)."""
        self.doc = doc
        self.selection = []
        self.vertex = None
        self._checked_version = -1
        self._table = None
        self.drawing.forget()  # a same-sized table would keep the old picture
        self._drag_table = None
        self._snap = None
        self._autosaved_version = doc.history.version
        self.tv.table = self.table()
        self.tv.fit()
        self.views.drop()
        sides = doc.raw.get("sides") or [{"id": "A"}]
        self.place_side = sides[0].get("id", "A")
        self.place_unit = None
        self._panel_key = None

    def ask(self, text: str, on_yes, yes: str = "OK") -> None:
        """A confirmation dialog; ``on_yes`` runs if the user confirms."""
        w, h = self.app.size
        self._confirm = on_yes
        self.dialogs.add(
            UIConfirmationDialog(
                pygame.Rect(w // 2 - 220, h // 2 - 110, 440, 220),
                html.escape(text),
                self.app.manager,
                window_title="hulldown map editor",
                action_short_name=yes,
            )
        )

    # ---------------------------------------------------------------- questions for modes

    def snapping(self) -> bool:
        """Whether points snap to the grid now (G toggles; Ctrl held places freely)."""
        return self.grid and not pygame.key.get_mods() & pygame.KMOD_CTRL

    def snap(self, pos, exclude=()) -> tuple[float, float, str]:
        """The table point (inches) a click at pixel ``pos`` lands on: another feature's
        corner or edge within 8 px, else the grid (:attr:`grid_size` inches, 0.5" unless set)
        when snapping, else where it is."""
        x, y = self.tv.to_table(pos)
        if pygame.key.get_mods() & pygame.KMOD_CTRL:
            return edits.tidy(x), edits.tidy(y), "free"
        h = self.doc.history
        stale = self._snap is None or self._snap[0] != h.version
        if stale and (self._snap is None or not self.dragging()):  # a drag keeps its start's
            self._snap = (h.version, snapping.SnapIndex(self.doc.raw))
        return snapping.snap_point(
            self.doc.raw,
            x,
            y,
            self.grid_size if self.grid else None,
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
        stands), or None when the ruleset or the sighting distance is not usable."""
        ruleset = self.doc.data.rulesets.get(self.doc.raw.get("ruleset"))
        if ruleset is None:
            return None
        sighting = self.doc.raw.get("max_sighting_in") or 30
        if not (isinstance(sighting, (int, float)) and 0 < sighting < float("inf")):
            return None  # no usable sighting distance yet (the Problems panel says so)
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
                self.drawing.outline_feature(surface, why[2], INVALID, 3)

    def ref_at(self, pos) -> tuple[str, int] | None:
        """The stand or feature under a pixel (stands first), or None."""
        x, y = self.tv.to_table(pos)
        if self.layers["stands"]:
            for i in range(len(self.doc.raw.get("stands", [])) - 1, -1, -1):
                s = self.doc.raw["stands"][i]
                place = stand_place(s)
                if place is None:
                    continue  # a stand far off any table (a file's 1e308, NaN) is not picked
                if s.get("carried_by") is not None:
                    continue  # aboard a carrier: not drawn, picked from its carrier's panel
                if footprint(*place).buffer(0.05).contains(point(x, y)):
                    return ("stand", i)
        i = edits.feature_at(self._visible_raw(), x, y, PICK_PX / self.tv.view.scale)
        return None if i is None else ("feature", i)

    def _visible_raw(self) -> dict:
        """The document with the features that cannot be picked emptied: those of hidden
        layers, and single features hidden or locked (for picking and box selection)."""
        if all(self.layers.values()) and not (self.hidden or self.locked):
            return self.doc.raw
        feats = [f if self.pickable(f) else _EMPTY for f in items(self.doc.raw, "feature")]
        stands = self.doc.raw.get("stands", []) if self.layers["stands"] else []
        return {"terrain": {"features": feats}, "stands": stands}

    def pickable(self, feature: dict) -> bool:
        """Whether a feature can be clicked, boxed or selected: its layer is shown and it is
        neither hidden nor locked on its own."""
        layer = self._layer_of(feature)
        if not (layer and self.layers[layer]):
            return False
        return not (self.hidden or self.locked) or mark_of(feature) not in self.hidden | self.locked

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

    # ---------------------------------------------------------------- layout and widgets

    def table_rect(self, size) -> pygame.Rect:
        """Where the table is drawn: between the tools and the panel, above the status."""
        return pygame.Rect(TOOLS_W, TOP_H, size[0] - TOOLS_W - PANEL_W, size[1] - TOP_H - STATUS_H)

    def open(self) -> None:
        """Create the widgets (again, after test play)."""
        self.toolbar.build()
        if self.ask_new:
            self.ask_new = False
            self.files.new_dialog()
        elif self._autosave_held:
            self.say(
                "An unsaved map of an earlier session is in the autosave: New (Ctrl+N) offers "
                "it back. It is kept, and this map is not autosaved, until it is restored or "
                "dropped."
            )

    def close(self) -> None:
        """Stop a balance view being computed, and a balance check being played, and wait
        (a few seconds at most) for them to stop: a view's thread still inside Shapely
        when the program ends aborted it (rc -6, "terminate called without an active
        exception")."""
        if self.balance.balance_job is not None:
            self.balance.balance_job.stop()
        self.views.stop(wait_s=5.0)
        self.balance.stop(wait_s=5.0)

    def resized(self, size) -> None:
        """Lay the screen out again for a new window size."""
        self.app.manager.clear_and_reset()
        self.tv.resize(self.table_rect(size))
        self.toolbar.build()

    def set_mode(self, mode: Mode | None) -> None:
        """Make ``mode`` current (None keeps the current one); the one place modes change."""
        if mode is None:
            return
        if type(mode) is not type(self.mode):
            self.message = ("", False)
        left_hills = isinstance(self.mode, HillMode) and not isinstance(mode, HillMode)
        if left_hills and self.draw_area == "hill":  # P, R, O after H draw areas again
            self.toolbar.set_draw_area(self.last_area)
        self.mode = mode
        mode.enter(self)
        for cls, b in self.toolbar.tool_buttons.items():
            if type(mode) is cls:
                b.select()
            else:
                b.unselect()

    def panel_changed(self) -> None:
        """The side panel is built again on the next frame (what it shows changed)."""
        self._panel_key = None

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

    # ---------------------------------------------------------------- events

    def handle(self, ev) -> None:
        """One event: widgets first, then keys and the camera, then the current mode."""
        self.app.manager.process_events(ev)
        self.entries.watch()  # a field left (a click elsewhere) applies what was typed in it
        if ev.type == pygame.MOUSEMOTION:
            self.mouse = ev.pos
        if self._widget_event(ev):
            return
        if ev.type == pygame.KEYDOWN and self.dialogs.open():
            self.dialogs.key(ev)
            return  # keys typed into a dialog are not the editor's shortcuts
        if ev.type == pygame.KEYDOWN and self.entries.typing():
            self.entries.typed_key(ev)  # Enter applies, Esc takes back; other keys are the field's
            return
        if ev.type == pygame.KEYDOWN and self._key(ev):
            return
        if self._mouse_not_for_the_table(ev):
            return
        if ev.type == pygame.MOUSEWHEEL and self.mouse[0] >= self.app.size[0] - PANEL_W:
            self.scroll_panel(-40 * ev.y)  # the wheel over the panel scrolls it
            return
        if ev.type == pygame.MOUSEWHEEL:
            self.tv.zoom_at(1.15**ev.y, self.mouse)
            return
        if self._pan(ev):
            return
        if not self.help:
            self.set_mode(self.mode.on_event(self, ev))

    def _widget_event(self, ev) -> bool:
        """A widget's event handled: a button pressed, a field or list changed (a field
        being typed in waits for Enter or for being left; a problem said in red), a link in
        the panel clicked, a file picked, a confirmation given. True when ``ev`` was one of
        these (nothing else then sees it)."""
        if ev.type == pygame_gui.UI_BUTTON_PRESSED:
            fn = self._widgets.get(ev.ui_element)
            if fn:
                fn()
            return True
        typed = (pygame_gui.UI_TEXT_ENTRY_CHANGED, pygame_gui.UI_TEXT_ENTRY_FINISHED)
        if ev.type in typed and ev.ui_element in self.entries.fields:
            return True  # applied on Enter or when the field is left, not while typed
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
            return True
        if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1 and self._wrapped_link(ev.pos):
            return True
        if ev.type == pygame_gui.UI_TEXT_BOX_LINK_CLICKED:
            fn = self._fields.get(ev.ui_element)
            if fn:
                fn(ev.link_target)
            return True
        if ev.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
            self.files.picked(Path(ev.text))
            return True
        if ev.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED:
            fn, self._confirm = self._confirm, None
            if fn:
                fn()
            return True
        return False

    def _mouse_not_for_the_table(self, ev) -> bool:
        """A mouse event (button, motion, wheel) the table does not get: one the Import
        OpenStreetMap preview takes (a box dragged on it), one over an open dialog, or one
        off the table (pixels) with no pan or left drag under way (the wheel excepted:
        over the panel it scrolls it)."""
        if ev.type not in (
            pygame.MOUSEBUTTONDOWN,
            pygame.MOUSEBUTTONUP,
            pygame.MOUSEMOTION,
            pygame.MOUSEWHEEL,
        ):
            return False
        if self.files.osm_mouse(ev):  # a box dragged on the Import OpenStreetMap preview
            return True
        if self.dialogs.over(self.mouse if ev.type == pygame.MOUSEWHEEL else ev.pos):
            return True
        return (
            ev.type != pygame.MOUSEWHEEL
            and not self.tv.rect.collidepoint(ev.pos)
            and self._pan_from is None
            and not getattr(ev, "buttons", (0,))[0]
        )

    def _key(self, ev) -> bool:
        k, mod = ev.key, ev.mod
        ctrl = mod & pygame.KMOD_CTRL
        shift = mod & pygame.KMOD_SHIFT
        if k == pygame.K_F1 or (ev.unicode == "?" and not ctrl):
            self.toolbar.toggle_help()
        elif self.help and k == pygame.K_ESCAPE:
            self.help = False
        elif ctrl and k == pygame.K_z:
            self.redo() if shift else self.undo()
        elif ctrl and k == pygame.K_y:
            self.redo()
        elif ctrl and k == pygame.K_s:
            self.files.save_as() if shift else self.files.save()
        elif ctrl and k == pygame.K_o:
            self.files.open_file()
        elif ctrl and k == pygame.K_n:
            self.files.new_dialog()
        elif self.selection and k in (pygame.K_LEFTBRACKET, pygame.K_RIGHTBRACKET):
            if any(kind == "feature" for kind, _ in self.selection):
                self.actions.scale_selection(0.9 if k == pygame.K_LEFTBRACKET else 1 / 0.9)
        elif ctrl and k == pygame.K_d:
            self.actions.duplicate_selection()
        elif ctrl and k == pygame.K_a:
            self.actions.select_all()
        elif ctrl and k == pygame.K_c:
            self.actions.copy_selection()
        elif ctrl and k == pygame.K_v:
            self.actions.paste()
        elif k == pygame.K_F5:
            self.files.test_play()
        elif k == pygame.K_ESCAPE:
            self.set_mode(self.mode.cancel(self))
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.set_mode(self.mode.confirm(self))
        elif ctrl:
            return False
        elif k == pygame.K_g:
            self.toolbar.toggle_grid()
        elif k == pygame.K_f:
            self.tv.fit()
        elif self.selection and k in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
            dx = {pygame.K_LEFT: -1, pygame.K_RIGHT: 1}.get(k, 0)
            dy = {pygame.K_DOWN: -1, pygame.K_UP: 1}.get(k, 0)
            self.actions.nudge_selection(dx, dy, bool(shift))
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

    def _wrapped_link(self, pos) -> bool:
        """Follow a link of a panel's text clicked on a line it wraps onto before its last
        (pygame_gui makes only a wrapped link's last line clickable); True when one was."""
        for box, fn in list(self._fields.items()):
            if fn != self._link or not box.alive() or not box.rect.collidepoint(pos):
                continue
            layout = getattr(box, "text_box_layout", None)
            if layout is None:
                return False
            base_x, base_y = box._calculate_hyperlinks_offsets()
            for row in layout.layout_rows:
                for chunk in row.items:
                    if not isinstance(chunk, HyperlinkTextChunk):
                        continue
                    at = pygame.Rect((base_x + chunk.x, base_y + chunk.y), chunk.size)
                    if at.collidepoint(pos) and chunk not in box.link_hover_chunks:
                        fn(chunk.href)  # the last line's click is pygame_gui's own event
                        return True
        return False

    def _pan(self, ev) -> bool:
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

    def draw(self, surface: pygame.Surface) -> None:
        """The bars, the table with its terrain, stands, selection and the mode's overlay,
        the status line and the widgets (``drawing.EditorDrawing``)."""
        self.drawing.draw(surface)

    def busy(self) -> bool:
        """Whether frames must come fast: a balance view is being computed or a drag is on."""
        return self.views.computing or self.dragging()

    def update(self, dt: float) -> None:
        """Validate after a change, autosave, refresh the title and panel, poll the view."""
        h = self.doc.history
        last = h.entries[h.position - 1] if h.position else None
        if last and last.merge_key and last.merge_key[0] == "field" and not self.entries.typing():
            h.end_merge()  # the field was left: its typing is one finished change, autosaved
        self.entries.watch()
        self.check()
        if self.tv.table.width != self.table().width or self.tv.table.depth != self.table().depth:
            self.tv.table = self.table()
            self.tv.view = View(self.tv.view.scale, self.tv.view.origin, self.tv.table.depth)
        star = " *" if self.doc.history.dirty else ""
        raw = self.doc.raw
        name = str(raw.get("title", ""))
        room = max(12, self.toolbar.title.rect.width // 9)  # characters that fit beside the buttons
        file = self.doc.name
        file = file if len(file) <= room // 2 else file[: room // 2 - 3] + "..."
        name = (
            name if len(name) + len(file) <= room else name[: max(4, room - len(file) - 3)] + "..."
        )
        title = f"{name} ({file}{star})"
        if self.toolbar.title.text != title:
            self.toolbar.title.set_text(title)
        self.toolbar.grid_button.set_text(f"Grid: {'on' if self.grid else 'off'} (G)")
        self.views.poll()
        self.refresh_panel()
        self.app.manager.update(dt)
