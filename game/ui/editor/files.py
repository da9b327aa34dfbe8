"""The map editor screen's files and dialogs: a new table, open, save (asking when the scenario has problems), GeoJSON import and export, test play and leaving."""

from __future__ import annotations

import contextlib
import html
import json
import re
from pathlib import Path

import pygame
from pygame_gui.elements import (
    UIButton,
    UIDropDownMenu,
    UILabel,
    UITextEntryLine,
    UIWindow,
)
from pygame_gui.windows import UIConfirmationDialog, UIFileDialog

from game import RULESET_IDS
from game.editor.document import (
    PRESETS,
    Document,
    EditorFileError,
    new_scenario,
    read_session,
    recent_files,
    remember_recent,
)
from game.saves import exists
from game.ui.editor.fields import counted, to_mend
from game.ui.editor.layout import autosave_file, recent_list_file
from game.ui.kit import user_maps as user_maps_dir


class FilesMixin:
    """The editor screen's files: new, open, save, import and export, test play, leaving."""

    # ---------------------------------------------------------------- files

    def save(self, path=None, confirmed: bool = False) -> bool:
        """Save (asking first when the scenario has problems); True when written."""
        if path is None and self.doc.path is None:
            self.save_as()
            return False
        target = Path(path) if path is not None else self.doc.path
        if (
            not confirmed
            and not self._chosen(target)
            and (
                target.exists() or not target.is_absolute()  # an older autosave's relative path
            )
        ):
            where = "over" if target.exists() else "to"
            self.ask(
                f"Save {where} {target.absolute()}? The autosave named this file; it was not "
                "opened or chosen in this session.",
                lambda: (self._choose(target), self.save(path)),
                "Save there",
            )
            return False
        self.check()
        if to_mend(self.problems) and not confirmed:  # what was mended on opening is saved mended
            n = len(to_mend(self.problems))
            self.ask(
                f"The scenario has {counted(n, 'problem')} (see the Problems panel); it will not play "
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
        self._choose(where)
        self._remember(where)
        self._autosaved_version = self.doc.history.version
        with contextlib.suppress(OSError):  # a broken data folder: said once at start
            autosave_file().unlink(missing_ok=True)  # nothing unsaved is left to offer back
        self._autosave_held = False
        self.say(f"Saved {where}")
        return True

    def save_as(self) -> None:
        """Ask where to save: the file it was saved to, else a name made of its title in the
        user's scenarios folder."""
        start = self.doc.path or user_maps_dir() / f"{file_stem(self.doc.raw.get('title'))}.json"
        self._file_dialog("Save the scenario as", start, "save", existing=False)

    def open_file(self) -> None:
        """Ask which scenario to open."""
        self._file_dialog("Open a scenario", user_maps_dir(), "open", existing=True)

    def _chosen(self, path: Path) -> bool:
        """Whether the user opened, chose or named ``path`` in this session (a file named
        only by a restored autosave is not: saving over it asks first)."""
        return path is not None and Path(path).resolve() in self._chosen_files

    def _choose(self, path: Path | None) -> None:
        """Remember that the user chose ``path`` in this session."""
        if path is not None:
            self._chosen_files.add(Path(path).resolve())

    def _remember(self, path: Path) -> None:
        """Put a file opened or saved first in the recent files (offered under New)."""
        try:
            remember_recent(recent_list_file(), path)
        except OSError as err:
            self.say(f"The list of recent files could not be written ({err})", error=True)

    def unsaved_work(self) -> str | None:
        """What opening another map would lose, in words, or None: the unsaved changes
        shown (the autosave holds them only until the next change), or an autosave of an
        earlier session not restored."""
        if self.doc.history.dirty:
            return f"the unsaved changes to {self.doc.name}"
        if self._autosave_held and exists(autosave_file()):
            return "the unsaved map in the editor's autosave (offered back under New)"
        return None

    def replacing(self, what: str, then) -> None:
        """Run ``then`` (which replaces the map shown) now when no unsaved work would be
        lost, else ask first, as leaving does."""
        lost = self.unsaved_work()
        if lost is None:
            then()
            return
        self.ask(
            f"{what} replaces {lost}; they are lost at the next change. Go on?",
            lambda: (setattr(self, "_autosave_held", False), then()),
            "Discard them",
        )

    def load(self, doc: Document) -> None:
        """Edit another document (the terrain picture, selection, balance view and snapping
        of the one shown are dropped)."""
        self.doc = doc
        self.selection = []
        self.vertex = None
        self._checked_version = -1
        self._table = None
        self._layer = self._layer_key = None  # a same-sized table would keep the old picture
        self._drag_table = None
        self._snap = None
        if self._overlay_job:
            self._overlay_job["cancel"] = True
            self._overlay_job = None
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
        if isinstance(suffix, str):
            suffix = {suffix, ".geojson"} if suffix != ".json" else {suffix}
        self._dialogs.append(
            UIFileDialog(
                pygame.Rect(w // 2 - 280, h // 2 - 230, 560, 460),
                self.app.manager,
                title,
                suffix,
                str(start),
                allow_existing_files_only=existing,
            )
        )

    def _picked(self, path: Path) -> None:
        purpose, self._pending = self._pending, None
        if purpose == "open":
            self.replacing(f"Opening {path.name}", lambda: self._open(path))
        elif purpose == "save":
            if path.suffix != ".json":
                path = path.with_suffix(".json")
            if path.exists() and path != self.doc.path:
                self.ask(
                    f"{path.name} exists. Replace it?",
                    lambda: (self._choose(path), self.save(path)),
                    "Replace",
                )
            else:
                self._choose(path)
                self.save(path)
        elif purpose == "import":
            self.replacing(f"Importing {path.name}", lambda: self.import_geojson(path))
        elif purpose == "export":
            self.export_geojson(path)
        elif purpose == "import-osm":
            self.import_osm_dialog(path)

    def _open(self, path: Path) -> None:
        try:
            doc = Document.open(path, self.doc.data)
        except EditorFileError as err:
            self.say(str(err), error=True)
            return
        self.load(doc)
        self._choose(path)
        self._remember(path)
        self.say(f"Opened {path}")

    def import_geojson(self, path: Path) -> None:
        """A new table whose terrain is a GeoJSON file's features (``terrain`` and ``level``
        properties), of the size the file keeps (an export of this editor) or else sized to
        cover them (inches). A file that cannot be imported is named, with its first problem,
        in the status line, and the map shown stays."""
        from game.editor.geojson import GeoJSONError, import_table, import_terrain, table_size_for

        try:
            feats = import_terrain(path, self.doc.data)
            size = import_table(path) or table_size_for(feats)
        except ValueError as err:  # GeoJSONError, or terrain off any table from 0, 0
            first = str(err).splitlines()[0] if str(err) else "it cannot be imported"
            more = len(getattr(err, "problems", [])) - 1
            extra = f" (and {counted(more, 'more problem')})" if more > 0 else ""
            where = "" if isinstance(err, GeoJSONError) else f"{path}: "
            self.say(f"Not imported: {where}{first}{extra}", error=True)
            return
        w, d = size
        ruleset = self.doc.raw.get("ruleset")  # the map being edited may be any JSON
        raw = new_scenario(ruleset if ruleset in RULESET_IDS else "modern", w, d, Path(path).stem)
        raw["terrain"]["features"] = feats
        from game.editor.history import History

        self.load(Document(History(raw), None, self.doc.data))
        self.doc.history.saved_position = None
        self.say(f'Imported {len(feats)} features from {path.name} onto a {w:g}"x{d:g}" table')

    def import_osm_dialog(self, path: Path) -> None:
        """Read an OpenStreetMap extract and open the Import OpenStreetMap dialog on it: its
        preview, the box dragged on it, the table in inches and km, the scale and ruleset. A
        file that is not OSM is named with its problem in the status line."""
        from game.editor.osm import OSMImportError, read_extract
        from game.ui.editor.osm_dialog import OSMDialog

        try:
            ext = read_extract(path)
        except OSMImportError as err:
            self.say(f"Not imported: {err}", error=True)
            return
        dlg = OSMDialog(
            self.app.manager,
            self.app.size,
            Path(path),
            ext,
            self.doc.raw.get("ruleset"),
            self._osm_imported,
            lambda text, error=False: self.say(text, error=error),
        )
        self._osm = dlg
        self._dialogs.append(dlg.window)
        self._widgets[dlg.ok_button] = dlg.do_import
        self._widgets[dlg.cancel] = dlg.window.kill
        self._fields[dlg.scale] = lambda _text: dlg.refresh()
        self._fields[dlg.ruleset] = lambda _text: dlg.refresh()
        self.say("Drag a box on the extract, set the scale, then Import.")

    def _osm_mouse(self, ev) -> bool:
        """A mouse event taken by the Import OpenStreetMap dialog's preview (a box dragged)."""
        osm = getattr(self, "_osm", None)
        return osm is not None and ev.type != pygame.MOUSEWHEEL and osm.on_mouse(ev)

    def _osm_imported(self, result) -> None:
        """A new table from an OpenStreetMap import (asking first if unsaved work would go)."""
        from game.editor.history import History

        def load():
            self.load(Document(History(result.scenario), None, self.doc.data))
            self.doc.history.saved_position = None
            w, d = result.table_in
            n = sum(result.counts.values())
            self.say(
                f'Imported {n} features of {result.place} onto a {w:g}"x{d:g}" table '
                f"({result.table_km[0]:.2f} x {result.table_km[1]:.2f} km); now place the forces."
            )

        self.replacing("Importing OpenStreetMap ground", load)

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
        from game import ScenarioError, parse_scenario

        try:
            sc = parse_scenario(json.loads(json.dumps(self.doc.raw)), self.doc.name, self.doc.data)
        except ScenarioError as err:
            self.panel = "Problems"
            self.check()
            n = len(to_mend(self.problems)) or len(err.problems)
            self.say(f"Mend the {counted(n, 'problem')} first to play it.", error=True)
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

    def new_dialog(self) -> None:
        """The new-table dialog: a preset or a custom size, and the autosave offered back."""
        m = self.app.manager
        w, h = self.app.size
        restore = exists(autosave_file())
        recent = recent_files(recent_list_file())[:4]
        rows = 36 * restore + (28 + 36 * len(recent) if recent else 0)
        # room for the rulesets' list open, and the Import OpenStreetMap row
        tall = 190 + 36 * len(PRESETS) + 36 + max(rows, 48)
        win = UIWindow(
            pygame.Rect(w // 2 - 230, max(0, (h - tall) // 2), 460, tall), m, "New table"
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
        wide = UITextEntryLine(pygame.Rect(10, y, 64, 30), m, container=c)
        wide.set_text("72")
        deep = UITextEntryLine(pygame.Rect(82, y, 64, 30), m, container=c)
        deep.set_text("48")
        # wide enough for "modern-full", every ruleset listed without a scrollbar
        rules = UIDropDownMenu(
            list(RULESET_IDS),
            "modern",
            pygame.Rect(154, y, 170, 30),
            m,
            container=c,
            expansion_height_limit=32 * len(RULESET_IDS) + 8,
        )
        b = UIButton(pygame.Rect(332, y, 98, 30), "Create", m, container=c)
        self._widgets[b] = lambda: self._new_custom(wide.get_text(), deep.get_text(), rules, win)
        y += 40
        if restore:
            b = UIButton(
                pygame.Rect(10, y, 420, 32), "Restore the unsaved map (autosave)", m, container=c
            )
            self._widgets[b] = lambda: self._restore(win)
            y += 36
        if recent:
            UILabel(pygame.Rect(10, y, 420, 22), "Recent files:", m, container=c)
            y += 28
            for path in recent:
                b = UIButton(pygame.Rect(10, y, 420, 32), f"Open {path.name}", m, container=c)
                self._widgets[b] = lambda p=path, win=win: (
                    win.kill(),
                    self.replacing(f"Opening {p.name}", lambda: self._open(p)),
                )
                y += 36
        b = UIButton(pygame.Rect(10, y, 205, 32), "Open a file...", m, container=c)
        self._widgets[b] = lambda: (win.kill(), self.open_file())
        b = UIButton(pygame.Rect(225, y, 205, 32), "Import GeoJSON...", m, container=c)
        self._widgets[b] = lambda: (
            win.kill(),
            self._file_dialog(
                "Import GeoJSON terrain", user_maps_dir(), "import", True, ".geojson"
            ),
        )
        y += 36
        b = UIButton(pygame.Rect(10, y, 420, 32), "Import OpenStreetMap...", m, container=c)
        self._widgets[b] = lambda: (
            win.kill(),
            self._file_dialog(
                "Import an OpenStreetMap extract (.osm.pbf, .osm, GeoJSON)",
                user_maps_dir(),
                "import-osm",
                True,
                {".pbf", ".osm", ".geojson", ".json"},
            ),
        )

    def _new(self, ruleset, width, depth, win) -> None:
        win.kill()

        def new():
            self.load(Document.new(ruleset, width, depth, self.doc.data))
            self.say(
                f'A new {ruleset} table, {width:g}"x{depth:g}". Draw its terrain, then place '
                "the forces."
            )

        self.replacing("A new table", new)

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
            doc = read_session(autosave_file(), self.doc.data)
        except EditorFileError as err:
            self.say(str(err), error=True)
            return
        self.load(doc)
        self._autosave_held = False  # it is shown now, and autosaved again as it changes
        n = len(self.doc.history.entries)
        if any(note.startswith("$.history:") for note in self.doc.mended):
            self.say(
                "Restored the unsaved map from the autosave; its undo history was broken and "
                "is not kept (see Problems)."
            )
        else:
            self.say(f"Restored the unsaved map from the autosave ({n} change(s) to undo).")


def file_stem(title) -> str:
    """A file name (without suffix) made of a scenario's title: lower-case letters, digits
    and dashes ("Night raid at Hill 203" -> "night-raid-at-hill-203"); "my-scenario" when the
    title gives none. At most 60 characters."""
    words = re.findall(r"[a-z0-9]+", str(title or "").lower())
    return "-".join(words)[:60].strip("-") or "my-scenario"
