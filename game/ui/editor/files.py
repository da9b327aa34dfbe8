"""The map editor screen's files and dialogs: a new table, open, save (asking when the scenario has problems), GeoJSON import and export, test play and leaving."""

from __future__ import annotations

import contextlib
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
from pygame_gui.windows import UIFileDialog

from game import RULESET_IDS, ScenarioError, parse_scenario
from game.editor.document import (
    PRESETS,
    Document,
    EditorFileError,
    new_scenario,
    read_session,
    recent_files,
    remember_recent,
)
from game.editor.geojson import (
    GeoJSONError,
    export_terrain,
    import_table,
    import_terrain,
    table_size_for,
)
from game.editor.history import History
from game.editor.osm import OSMImportError, read_extract
from game.saves import exists
from game.ui.editor.fields import counted, to_mend
from game.ui.editor.layout import autosave_file, recent_list_file
from game.ui.editor.osm_dialog import OSMDialog
from game.ui.kit import user_maps as user_maps_dir


class Files:
    """The map editor's files (its ``files``): new, open, save (asking when the scenario has
    problems), GeoJSON and OpenStreetMap import, GeoJSON export, test play and leaving.
    It reads and drives much of the screen, which it is given: the app (window, widget
    manager, the screen shown), the document and its ``problems`` (``check``), ``load``
    to show another document, ``ask`` and ``say``, the widgets' and fields' tables
    (``_widgets``, ``_fields``, ``dialogs``), the autosave's state and the screen's
    ``on_menu`` and ``battle_factory``. ``_chosen_files``: the files the user opened or
    named in this session."""

    def __init__(self, screen):
        self.screen = screen
        self._chosen_files: set[Path] = set()
        self._pending: str | None = None  # what the file dialog open is for
        self._osm = None  # the Import OpenStreetMap dialog, once opened
        if screen.doc.path is not None:
            self._chosen_files.add(screen.doc.path.resolve())

    # ---------------------------------------------------------------- files

    def save(self, path=None, confirmed: bool = False) -> bool:
        """Save (asking first when the scenario has problems); True when written."""
        if path is None and self.screen.doc.path is None:
            self.save_as()
            return False
        target = Path(path) if path is not None else self.screen.doc.path
        if (
            not confirmed
            and not self._chosen(target)
            and (
                target.exists() or not target.is_absolute()  # an older autosave's relative path
            )
        ):
            where = "over" if target.exists() else "to"
            self.screen.ask(
                f"Save {where} {target.absolute()}? The autosave named this file; it was not "
                "opened or chosen in this session.",
                lambda: (self._choose(target), self.save(path)),
                "Save there",
            )
            return False
        self.screen.check()
        if (
            to_mend(self.screen.problems) and not confirmed
        ):  # what was mended on opening is saved mended
            n = len(to_mend(self.screen.problems))
            self.screen.ask(
                f"The scenario has {counted(n, 'problem')} (see the Problems panel); it will not play "
                "until they are mended. Save it anyway?",
                lambda: self.save(path, confirmed=True),
                "Save anyway",
            )
            return False
        try:
            where = self.screen.doc.save(path)
        except EditorFileError as err:
            self.screen.say(str(err), error=True)
            return False
        self._choose(where)
        self._remember(where)
        self.screen._autosaved_version = self.screen.doc.history.version
        with contextlib.suppress(OSError):  # a broken data folder: said once at start
            autosave_file().unlink(missing_ok=True)  # nothing unsaved is left to offer back
        self.screen._autosave_held = False
        self.screen.say(f"Saved {where}")
        return True

    def save_as(self) -> None:
        """Ask where to save: the file it was saved to, else a name made of its title in the
        user's scenarios folder."""
        start = (
            self.screen.doc.path
            or user_maps_dir() / f"{file_stem(self.screen.doc.raw.get('title'))}.json"
        )
        self.file_dialog("Save the scenario as", start, "save", existing=False)

    def open_file(self) -> None:
        """Ask which scenario to open."""
        self.file_dialog("Open a scenario", user_maps_dir(), "open", existing=True)

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
            self.screen.say(f"The list of recent files could not be written ({err})", error=True)

    def unsaved_work(self) -> str | None:
        """What opening another map would lose, in words, or None: the unsaved changes
        shown (the autosave holds them only until the next change), or an autosave of an
        earlier session not restored."""
        if self.screen.doc.history.dirty:
            return f"the unsaved changes to {self.screen.doc.name}"
        if self.screen._autosave_held and exists(autosave_file()):
            return "the unsaved map in the editor's autosave (offered back under New)"
        return None

    def replacing(self, what: str, then) -> None:
        """Run ``then`` (which replaces the map shown) now when no unsaved work would be
        lost, else ask first, as leaving does."""
        lost = self.unsaved_work()
        if lost is None:
            then()
            return
        self.screen.ask(
            f"{what} replaces {lost}; they are lost at the next change. Go on?",
            lambda: (setattr(self.screen, "_autosave_held", False), then()),
            "Discard them",
        )

    def file_dialog(self, title: str, start, purpose: str, existing: bool, suffix=".json"):
        """Open a file dialog titled ``title`` at ``start`` for ``purpose`` ("open", "save",
        "import", "export", "import-osm"), of files with ``suffix`` (one or a set; ".json"
        alone, else with ".geojson"); ``existing``: only files that exist may be picked."""
        w, h = self.screen.app.size
        self._pending = purpose
        if isinstance(suffix, str):
            suffix = {suffix, ".geojson"} if suffix != ".json" else {suffix}
        self.screen.dialogs.add(
            UIFileDialog(
                pygame.Rect(w // 2 - 280, h // 2 - 230, 560, 460),
                self.screen.app.manager,
                title,
                suffix,
                str(start),
                allow_existing_files_only=existing,
            )
        )

    def picked(self, path: Path) -> None:
        """A path picked in the file dialog: opened, saved to, imported or exported, as the
        dialog was opened for."""
        purpose, self._pending = self._pending, None
        if purpose == "open":
            self.replacing(f"Opening {path.name}", lambda: self._open(path))
        elif purpose == "save":
            if path.suffix != ".json":
                path = path.with_suffix(".json")
            if path.exists() and path != self.screen.doc.path:
                self.screen.ask(
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
            doc = Document.open(path, self.screen.doc.data)
        except EditorFileError as err:
            self.screen.say(str(err), error=True)
            return
        self.screen.load(doc)
        self._choose(path)
        self._remember(path)
        self.screen.say(f"Opened {path}")

    def import_geojson(self, path: Path) -> None:
        """A new table whose terrain is a GeoJSON file's features (``terrain`` and ``level``
        properties), of the size the file keeps (an export of this editor) or else sized to
        cover them (inches). A file that cannot be imported is named, with its first problem,
        in the status line, and the map shown stays."""
        try:
            feats = import_terrain(path, self.screen.doc.data)
            size = import_table(path) or table_size_for(feats)
        except ValueError as err:  # GeoJSONError, or terrain off any table from 0, 0
            first = str(err).splitlines()[0] if str(err) else "it cannot be imported"
            more = len(getattr(err, "problems", [])) - 1
            extra = f" (and {counted(more, 'more problem')})" if more > 0 else ""
            where = "" if isinstance(err, GeoJSONError) else f"{path}: "
            self.screen.say(f"Not imported: {where}{first}{extra}", error=True)
            return
        w, d = size
        ruleset = self.screen.doc.raw.get("ruleset")  # the map being edited may be any JSON
        raw = new_scenario(ruleset if ruleset in RULESET_IDS else "modern", w, d, Path(path).stem)
        raw["terrain"]["features"] = feats
        self.screen.load(Document(History(raw), None, self.screen.doc.data))
        self.screen.doc.history.saved_position = None
        self.screen.say(
            f'Imported {len(feats)} features from {path.name} onto a {w:g}"x{d:g}" table'
        )

    def import_osm_dialog(self, path: Path) -> None:
        """Read an OpenStreetMap extract and open the Import OpenStreetMap dialog on it: its
        preview, the box dragged on it, the table in inches and km, the scale and ruleset. A
        file that is not OSM is named with its problem in the status line."""
        try:
            ext = read_extract(path)
        except OSMImportError as err:
            self.screen.say(f"Not imported: {err}", error=True)
            return
        dlg = OSMDialog(
            self.screen.app.manager,
            self.screen.app.size,
            Path(path),
            ext,
            self.screen.doc.raw.get("ruleset"),
            self._osm_imported,
            lambda text, error=False: self.screen.say(text, error=error),
        )
        self._osm = dlg
        self.screen.dialogs.add(dlg.window)
        self.screen._widgets[dlg.ok_button] = dlg.do_import
        self.screen._widgets[dlg.cancel] = dlg.window.kill
        self.screen._fields[dlg.scale] = lambda _text: dlg.refresh()
        self.screen._fields[dlg.ruleset] = lambda _text: dlg.refresh()
        self.screen.say("Drag a box on the extract, set the scale, then Import.")

    def osm_mouse(self, ev) -> bool:
        """A mouse event taken by the Import OpenStreetMap dialog's preview (a box dragged)."""
        osm = self._osm
        return osm is not None and ev.type != pygame.MOUSEWHEEL and osm.on_mouse(ev)

    def _osm_imported(self, result) -> None:
        """A new table from an OpenStreetMap import (asking first if unsaved work would go)."""

        def load():
            self.screen.load(Document(History(result.scenario), None, self.screen.doc.data))
            self.screen.doc.history.saved_position = None
            w, d = result.table_in
            n = sum(result.counts.values())
            self.screen.say(
                f'Imported {n} features of {result.place} onto a {w:g}"x{d:g}" table '
                f"({result.table_km[0]:.2f} x {result.table_km[1]:.2f} km); now place the forces."
            )

        self.replacing("Importing OpenStreetMap ground", load)

    def export_geojson(self, path: Path) -> None:
        """Write the terrain as a GeoJSON FeatureCollection."""
        if path.suffix not in (".geojson", ".json"):
            path = path.with_suffix(".geojson")
        try:
            export_terrain(self.screen.doc.raw, path, self.screen.doc.name)
        except (GeoJSONError, OSError) as err:
            self.screen.say(str(err), error=True)
            return
        self.screen.say(f"Exported the terrain to {path}")

    def test_play(self) -> None:
        """Open the scenario as it stands in a hotseat battle; leaving it comes back here
        with the history intact."""
        try:
            sc = parse_scenario(
                json.loads(json.dumps(self.screen.doc.raw)),
                self.screen.doc.name,
                self.screen.doc.data,
            )
        except ScenarioError as err:
            self.screen.panel = "Problems"
            self.screen.check()
            n = len(to_mend(self.screen.problems)) or len(err.problems)
            self.screen.say(f"Mend the {counted(n, 'problem')} first to play it.", error=True)
            return
        if self.screen.battle_factory is None:
            self.screen.say("Test play is not available here.", error=True)
            return
        self.screen.app.show(
            self.screen.battle_factory(
                self.screen.app, sc, lambda: self.screen.app.show(self.screen)
            )
        )

    def leave(self) -> None:
        """Back to the menu (the autosave keeps unsaved work)."""
        if self.screen.on_menu is None:
            self.screen.app.running = False
        elif self.screen.doc.history.dirty:
            self.screen.ask(
                "Leave the editor? The unsaved changes stay in the editor's autosave and are "
                "offered back next time.",
                self.screen.on_menu,
                "Leave",
            )
        else:
            self.screen.on_menu()

    def new_dialog(self) -> None:
        """The new-table dialog: a preset or a custom size, and the autosave offered back."""
        m = self.screen.app.manager
        w, h = self.screen.app.size
        restore = exists(autosave_file())
        recent = recent_files(recent_list_file())[:4]
        rows = 36 * restore + (28 + 36 * len(recent) if recent else 0)
        # room for the rulesets' list open, and the Import OpenStreetMap row
        tall = 190 + 36 * len(PRESETS) + 36 + max(rows, 48)
        win = UIWindow(
            pygame.Rect(w // 2 - 230, max(0, (h - tall) // 2), 460, tall), m, "New table"
        )
        self.screen.dialogs.add(win)
        UILabel(
            pygame.Rect(10, 8, 420, 22), "A table from a seed scenario sheet:", m, container=win
        )
        y = 34
        for name, (ruleset, tw, td) in PRESETS.items():
            b = UIButton(pygame.Rect(10, y, 420, 32), name, m, container=win)
            self.screen._widgets[b] = lambda r=ruleset, a=tw, d=td, win=win: self._new(r, a, d, win)
            y += 36
        y = self._custom_size_row(win, y)
        y = self._restore_and_recent_rows(win, y, restore, recent)
        self._open_and_import_rows(win, y)

    def _custom_size_row(self, win, y: int) -> int:
        """The new-table dialog's custom size: width and depth (inches, 72 x 48 offered), the
        ruleset and Create, from ``y`` (pixels in the window); the ``y`` after it."""
        m, c = self.screen.app.manager, win
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
        self.screen._widgets[b] = lambda: self._new_custom(
            wide.get_text(), deep.get_text(), rules, win
        )
        return y + 40

    def _restore_and_recent_rows(self, win, y: int, restore: bool, recent: list) -> int:
        """The new-table dialog's offer of the autosave (when ``restore``) and of the
        ``recent`` files (paths, newest first), from ``y`` (pixels); the ``y`` after them."""
        m, c = self.screen.app.manager, win
        if restore:
            b = UIButton(
                pygame.Rect(10, y, 420, 32), "Restore the unsaved map (autosave)", m, container=c
            )
            self.screen._widgets[b] = lambda: self._restore(win)
            y += 36
        if recent:
            UILabel(pygame.Rect(10, y, 420, 22), "Recent files:", m, container=c)
            y += 28
            for path in recent:
                b = UIButton(pygame.Rect(10, y, 420, 32), f"Open {path.name}", m, container=c)
                self.screen._widgets[b] = lambda p=path, win=win: (
                    win.kill(),
                    self.replacing(f"Opening {p.name}", lambda: self._open(p)),
                )
                y += 36
        return y

    def _open_and_import_rows(self, win, y: int) -> None:
        """The new-table dialog's last rows, from ``y`` (pixels): open a scenario file, import
        GeoJSON terrain, import an OpenStreetMap extract; each closes the dialog first."""
        m, c = self.screen.app.manager, win
        b = UIButton(pygame.Rect(10, y, 205, 32), "Open a file...", m, container=c)
        self.screen._widgets[b] = lambda: (win.kill(), self.open_file())
        b = UIButton(pygame.Rect(225, y, 205, 32), "Import GeoJSON...", m, container=c)
        self.screen._widgets[b] = lambda: (
            win.kill(),
            self.file_dialog("Import GeoJSON terrain", user_maps_dir(), "import", True, ".geojson"),
        )
        y += 36
        b = UIButton(pygame.Rect(10, y, 420, 32), "Import OpenStreetMap...", m, container=c)
        self.screen._widgets[b] = lambda: (
            win.kill(),
            self.file_dialog(
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
            self.screen.load(Document.new(ruleset, width, depth, self.screen.doc.data))
            self.screen.say(
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
            self.screen.say("Width and depth are numbers of inches from 6 to 1000.", error=True)
            return
        choice = rules.selected_option
        choice = choice[0] if isinstance(choice, tuple) else choice
        self._new(choice, width, depth, win)

    def _restore(self, win) -> None:
        win.kill()
        try:
            doc = read_session(autosave_file(), self.screen.doc.data)
        except EditorFileError as err:
            self.screen.say(str(err), error=True)
            return
        self.screen.load(doc)
        self.screen._autosave_held = False  # it is shown now, and autosaved again as it changes
        n = len(self.screen.doc.history.entries)
        if any(note.startswith("$.history:") for note in self.screen.doc.mended):
            self.screen.say(
                "Restored the unsaved map from the autosave; its undo history was broken and "
                "is not kept (see Problems)."
            )
        else:
            self.screen.say(f"Restored the unsaved map from the autosave ({n} change(s) to undo).")


def file_stem(title) -> str:
    """A file name (without suffix) made of a scenario's title: lower-case letters, digits
    and dashes ("Night raid at Hill 203" -> "night-raid-at-hill-203"); "my-scenario" when the
    title gives none. At most 60 characters."""
    words = re.findall(r"[a-z0-9]+", str(title or "").lower())
    return "-".join(words)[:60].strip("-") or "my-scenario"
