"""The main menu: a new battle (scenario, players, seed), resume the autosave, load a save,
quit. Widgets are pygame_gui's. The scenarios are listed by title (``scenario_list``), the
players' choice names the chosen scenario's sides, and the choices of the last battle are
kept in the settings for the next start."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel, UITextBox, UITextEntryLine
from pygame_gui.windows import UIFileDialog

import game
from game.ai.levels import DEFAULT_LEVEL, PLAYABLE, load_battle
from game.editor.mend import showable
from game.editor.points import forces, ratio
from game.saves import (
    autosave_path,
    exists,
    listed,
    saves_dir,
)
from game.settings import MenuChoice, save_settings
from game.ui.battles import continue_log, new_battle
from game.ui.kit import close_drop_downs, paint_backdrop, user_maps
from game.ui.navigation import show
from game.ui.scenario_list import ScenarioEntry, labelled, points_text, scenario_entry

if TYPE_CHECKING:
    pass

MAPS_DIR = game.shipped_dir("maps")
FIRST_MAP = "modern-meeting.json"  # the map the menu offers first
HOTSEAT = "Hotseat: two players, one screen"
VS_AI_FIRST = "Against the AI: you command the first force"
VS_AI_SECOND = "Against the AI: you command the second force"
ROLES = {HOTSEAT: "both", VS_AI_FIRST: "first", VS_AI_SECOND: "second"}
"""The players' choices (their option ids: the words before the side names were shown)
and whom the player commands (``game.settings.YOU_COMMAND``)."""
LEVELS = {f"AI level: {name}": name for name in PLAYABLE}
SPEEDS = {
    "AI moves shown at normal speed": 12.0,
    "AI moves shown slowly": 5.0,
    "AI moves shown fast": 30.0,
    "AI moves not shown": 0.0,
}


def preload_engine() -> None:
    """Import the rules (and Shapely and numpy with them: 0.2 s) ahead of the first battle."""
    game.Battle  # noqa: B018 - the import is the point
    game.load_scenario  # noqa: B018


class MenuScreen:
    """The first screen: choose a scenario and start, or continue a battle."""

    def __init__(self, app, message: str = ""):
        self.app = app
        self.message = message
        self.maps = listed(MAPS_DIR, "*.json") + listed(user_maps(), "*.json")
        if not message and getattr(app, "data_problem", ""):
            self.message = app.data_problem  # kept under the buttons, after the toast
        # the seed Modern sheet first, as before the full game's map sorted ahead of it
        first = next((p for p in self.maps if p.name == FIRST_MAP), None)
        self.chosen: Path | None = first or (self.maps[0] if self.maps else None)
        self.dialog = None
        self._recall()

    def _recall(self) -> None:
        """Choose what the last battle started from the menu chose (``Settings.menu``): its
        scenario when the file is still there (said in one line when it is not), whom the
        player commanded, the AI's level; the AI's speed is the settings' own. A settings
        file that was not used is said once a session."""
        settings = getattr(self.app, "settings", None)
        last = getattr(settings, "menu", None)
        self.role = last.you_command if last is not None else "both"
        self.ai_level = last.ai_level if last is not None else DEFAULT_LEVEL
        note = ""
        problem = getattr(self.app, "settings_problem", "")
        if problem and not getattr(self.app, "settings_problem_said", False):
            self.app.settings_problem_said = True
            note = f"The settings file was not used as it is: {problem}."
        if last is not None and last.scenario:
            path = Path(last.scenario)
            if not path.is_file() and (MAPS_DIR / path.name).is_file():
                path = MAPS_DIR / path.name  # a shipped map, the game installed elsewhere
            if path.is_file():
                self.chosen = path
                if path not in self.maps:
                    self.maps.append(path)
            else:
                note = note or f"The scenario of your last battle, {path.name}, is no longer there."
        if note and not self.message:
            self.message = note

    def open(self) -> None:
        """Lay out the widgets."""
        m = self.app.manager
        w, h = self.app.size
        x = w // 2 - 230
        y = max(40, h // 2 - 300)
        self.title = UILabel(pygame.Rect(x, y, 460, 60), "hulldown", m, object_id="#title")
        self.sub = UILabel(
            pygame.Rect(x - 100, y + 58, 660, 26), "Micro Armour: The Game on a real table", m
        )
        y += 110
        UILabel(pygame.Rect(x, y, 460, 22), "Scenario", m)
        # wide enough for a title and its ruleset in words
        self._scenario_rect = pygame.Rect(x - 100, y + 24, 540, 34)
        self._scenario_menu()
        self.open_file = UIButton(pygame.Rect(x + 446, y + 24, 114, 34), "Open file...", m)
        self.file_line = UILabel(pygame.Rect(x - 100, y + 60, 660, 20), "", m)
        self.points = UILabel(pygame.Rect(x - 100, y + 80, 660, 20), "", m)
        self._show_points()
        y += 112
        UILabel(pygame.Rect(x, y, 460, 22), "Players", m)
        self._players_rect = pygame.Rect(x, y + 24, 460, 34)
        self._players_menu()
        y += 62
        level = next(
            (k for k, v in LEVELS.items() if v == self.ai_level), f"AI level: {DEFAULT_LEVEL}"
        )
        self.level = UIDropDownMenu(list(LEVELS), level, pygame.Rect(x, y, 180, 30), m)
        speed = getattr(self.app, "settings", None)
        shown = next(
            (k for k, v in SPEEDS.items() if speed is not None and v == speed.ai_speed),
            "AI moves shown at normal speed",
        )
        self.speed = UIDropDownMenu(list(SPEEDS), shown, pygame.Rect(x + 188, y, 272, 30), m)
        y += 44
        UILabel(
            pygame.Rect(x, y, 460, 22), "Seed (the same seed and moves give the same battle)", m
        )
        self.seed = UITextEntryLine(pygame.Rect(x, y + 24, 200, 34), m)
        self.seed.set_text(str(int(time.time()) % 100000))
        self.seed.set_allowed_characters("numbers")
        y += 76
        self.new_button = UIButton(pygame.Rect(x, y, 460, 44), "New battle", m)
        y += 52
        self.resume_button = UIButton(pygame.Rect(x, y, 226, 40), "Resume the autosave", m)
        if not exists(autosave_path()):
            self.resume_button.disable()
        self.load_button = UIButton(pygame.Rect(x + 234, y, 226, 40), "Load a save...", m)
        y += 48
        self.quick_button = UIButton(pygame.Rect(x, y, 109, 40), "Quick battle", m)
        self.editor_button = UIButton(pygame.Rect(x + 117, y, 109, 40), "Map editor", m)
        self.settings_button = UIButton(pygame.Rect(x + 234, y, 109, 40), "Settings", m)
        self.quit_button = UIButton(pygame.Rect(x + 351, y, 109, 40), "Quit", m)
        y += 48
        self.host_button = UIButton(pygame.Rect(x, y, 226, 40), "Host a network battle", m)
        self.join_button = UIButton(pygame.Rect(x + 234, y, 226, 40), "Join a network battle", m)
        y += 50
        self.status = UITextBox(self.message or "", pygame.Rect(x - 100, y, 660, 90), m)
        if not self.message:  # an empty box under the buttons says nothing
            self.status.hide()

    def _scenario_menu(self) -> None:
        """The Scenario drop-down: the shipped maps, the player's, and any file picked with
        Open file..., each by its title and ruleset (they were file names; a file that
        cannot be read is marked so), the chosen one selected."""
        self._entries = labelled(self.maps)
        self._labels = {label: e.path for label, e in self._entries.items()}
        names = list(self._labels) or ["(no maps)"]
        chosen = next((k for k, p in self._labels.items() if p == self.chosen), names[0])
        old = getattr(self, "scenario_menu", None)
        if old is not None:
            old.kill()
        self.scenario_menu = UIDropDownMenu(names, chosen, self._scenario_rect, self.app.manager)

    def entry(self) -> ScenarioEntry | None:
        """The chosen scenario as the list reads it (None when there is none)."""
        return None if self.chosen is None else scenario_entry(self.chosen)

    def _players_menu(self) -> None:
        """The Players drop-down: hotseat, or against the AI commanding one of the chosen
        scenario's sides, named as the scenario names them ("the first force"); made
        again when the scenario changes, the same side kept."""
        entry = self.entry()
        names = list(entry.sides) if entry is not None and not entry.problem else []
        if len(names) != 2:
            names = ["the first force", "the second force"]
        elif names[0] == names[1]:
            names = [f"{names[0]} (first force)", f"{names[1]} (second force)"]
        options = [
            (HOTSEAT, HOTSEAT),
            (f"Against the AI: you command {names[0]}", VS_AI_FIRST),
            (f"Against the AI: you command {names[1]}", VS_AI_SECOND),
        ]
        chosen = next(o for o in options if ROLES[o[1]] == self.role)
        old = getattr(self, "players", None)
        if old is not None:
            old.kill()
        self.players = UIDropDownMenu(options, chosen, self._players_rect, self.app.manager)

    def _show_points(self) -> None:
        """Under the Scenario drop-down: the chosen scenario's file (or why it cannot be
        read), then its forces as the seed sheets cost them (stands x points x
        cohesion / 10) and their ratio."""
        entry = self.entry()
        where = ""
        if entry is not None:
            shipped = entry.path.parent == MAPS_DIR
            where = f"File: {entry.path.name}" + (" (shipped with the game)" if shipped else "")
            if entry.problem:
                where = f"{entry.path.name} cannot be read: {entry.problem}"
        self.file_line.set_text(showable(where))
        text = ""
        if entry is not None and not entry.problem:
            try:
                raw = game.read_json_file(self.chosen)
                fs = forces(raw, game.load_rules_data()) if isinstance(raw, dict) else ()
            except game.JsonFileError:
                fs = ()
            if len(fs) == 2:
                text = "Points: " + " against ".join(
                    f"{f.name or f.side_id} {points_text(f.value)}" for f in fs
                )
                text += f" (ratio {ratio(fs[0].value, fs[1].value):.2f} : 1)"
        self.points.set_text(showable(text))  # a side named with a NUL

    def close(self) -> None:
        """Nothing to release."""

    def resized(self, size) -> None:
        """Lay out again."""
        self.app.manager.clear_and_reset()
        self.open()

    def say(self, text: str) -> None:
        """Show a message under the buttons."""
        self.message = text
        self.status.set_text(showable(text).replace("\n", "<br>"))
        if text:
            self.status.show()
        else:
            self.status.hide()

    def choices(self) -> tuple[str, str, float]:
        """Whom the player commands (``game.settings.YOU_COMMAND``), the AI's level and the
        speed its moves are shown at (inches a second), as the drop-downs show them."""

        def picked(menu) -> tuple[str, str]:
            value = menu.selected_option
            return (value[0], value[1]) if isinstance(value, tuple) else (value, value)

        text, option = picked(self.players)
        role = ROLES.get(option) or ROLES.get(text, "both")
        level = LEVELS.get(picked(self.level)[0], DEFAULT_LEVEL)
        return role, level, SPEEDS.get(picked(self.speed)[0], 12.0)

    def remember(self, write: bool = False) -> str:
        """Keep the menu's choices in the app's settings (so they stay when the menu opens
        again), and with ``write`` in the settings file, for the next start. Returns
        "" or why the file could not be written (play goes on)."""
        settings = getattr(self.app, "settings", None)
        if settings is None:
            return ""
        role, level, speed = self.choices()
        self.role, self.ai_level = role, level
        scenario = "" if self.chosen is None else str(self.chosen)
        menu = MenuChoice(scenario=scenario, you_command=role, ai_level=level)
        self.app.settings = settings.model_copy(update={"menu": menu, "ai_speed": speed})
        if not write:
            return ""
        try:
            save_settings(self.app.settings)
        except OSError as err:
            return f"Your choices could not be kept for the next start ({err.strerror or err})."
        return ""

    def start_new(self) -> None:
        """Start a battle of the chosen scenario with the seed typed; its choices are kept
        for the next start."""
        if self.chosen is None:
            self.say("Choose a scenario first.")
            return
        try:
            seed = int(self.seed.get_text() or "1")
        except ValueError:
            seed = -1
        if not 0 <= seed <= game.MAX_SEED:  # a longer one made a battle no save could hold
            self.say(f"The seed must be a whole number of at most {game.SEED_DIGITS} digits.")
            return
        role, level, speed = self.choices()
        try:
            ai = {}
            if role != "both":
                sides = [s.id for s in game.load_scenario(self.chosen).spec.sides]
                ai = {sides[1] if role == "first" else sides[0]: level}
            battle = new_battle(self.chosen, seed, ai, speed)
        except game.ScenarioError as err:
            self.say(str(err))
            return
        self.remember(write=True)  # a folder that cannot be written: said by data_problem
        show(self.app, "battle", battle)

    def pick_scenario(self, path: Path) -> None:
        """A scenario picked with Open file...: checked at once; a good one is the one New
        battle starts (and is named in the status line), a bad one says why and is not."""
        try:
            sc = game.load_scenario(path)
        except game.ScenarioError as err:
            self.say(str(err))
            return
        self.chosen = path
        if path not in self.maps:
            self.maps.append(path)
        self._scenario_menu()
        self._show_points()
        self._players_menu()
        self.remember()
        spec = sc.spec
        self.say(
            f"Scenario: {spec.title} ({path.name}: {spec.ruleset}, "
            f'{spec.table.width:g}"x{spec.table.depth:g}", {spec.turns} turns). New battle starts it.'
        )

    def load(self, path: Path, upto: int | None = None) -> None:
        """Load a save (or the autosave) and continue it; a long one shows its progress in the
        window (:func:`loading_bar`). One whose replay parts from what it records (another
        engine wrote it) is not opened: a dialog says which engine wrote it and offers to go
        on from the last action that still agrees (``upto``), never silently."""
        try:
            battle = load_battle(
                path, autosave=autosave_path(), progress=loading_bar(self.app.surface), upto=upto
            )
        except game.SaveDiverged as err:
            self.say(str(err))
            self._offer_go_on(path, err)
            return
        except game.SaveError as err:
            self.say(str(err))
            return
        show(self.app, "battle", continue_log(battle))

    def _offer_go_on(self, path: Path, err) -> None:
        """The dialog of a save that parts from this engine's play: which engine wrote it,
        how many actions agree, and a button to go on from there."""
        # lazy: the dialog's module loads when the dialog is first opened
        from pygame_gui.windows import UIConfirmationDialog

        w, h = self.app.size
        dropped = err.total - err.agreed
        text = (
            f"<b>{showable(path.name)}</b> was written by "
            f"{showable(game.describe_engine(err.written_by))}; this is "
            f"{game.describe_engine(game.engine_stamp())}.<br><br>Replayed by this engine, its "
            f"first <b>{err.agreed}</b> of {err.total} actions agree; after that the battle "
            f"went otherwise.<br><br>Go on from action {err.agreed}? The {dropped} actions "
            "after it are dropped." + (f"<br><br>{err.note}." if err.note else "")
        )
        self._go_on = (path, err.agreed)
        self.go_on_dialog = UIConfirmationDialog(
            pygame.Rect(w // 2 - 280, h // 2 - 170, 560, 340),
            text,
            self.app.manager,
            window_title="This save was written by another engine",
            action_short_name=f"Go on from action {err.agreed}",
        )

    def handle(self, ev) -> None:
        """Widget events."""
        self.app.manager.process_events(ev)
        if ev.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and ev.ui_element is self.scenario_menu:
            by_name = next((p for p in self.maps if p.name == ev.text), MAPS_DIR / ev.text)
            self.chosen = self._labels.get(ev.text, by_name)
            self._show_points()
            self.role = self.choices()[0]
            self._players_menu()
            self.remember()
        elif ev.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and ev.ui_element in (
            self.players,
            self.level,
            self.speed,
        ):
            self.remember()
        elif ev.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
            path = Path(ev.text)
            if self.dialog_purpose == "scenario":
                self.pick_scenario(path)
            else:
                self.load(path)
        elif ev.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED and ev.ui_element is getattr(
            self, "go_on_dialog", None
        ):
            path, upto = self._go_on
            self.load(path, upto)
        elif ev.type == pygame_gui.UI_BUTTON_PRESSED:
            if ev.ui_element is self.new_button:
                self.start_new()
            elif ev.ui_element is self.resume_button:
                self.load(autosave_path())
            elif ev.ui_element is self.load_button:
                self._dialog("save", "Load a save")
            elif ev.ui_element is self.open_file:
                self._dialog("scenario", "Open a scenario")
            elif ev.ui_element is self.quick_button:
                show(self.app, "quick_battle", self.back)
            elif ev.ui_element is self.editor_button:
                show(self.app, "editor", None, on_menu=self.back)
            elif ev.ui_element is self.settings_button:
                show(self.app, "settings", self.back)
            elif ev.ui_element in (self.host_button, self.join_button):
                self.network(ev.ui_element is self.host_button)
            elif ev.ui_element is self.quit_button:
                self.app.running = False
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            close_drop_downs([self.scenario_menu, self.players, self.level, self.speed])
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_RETURN and self.dialog is None:
            self.start_new()

    def network(self, host: bool) -> None:
        """Host (the chosen scenario, the side the Players choice commands, the seed typed)
        or join a network battle: its form (``game.ui.network_menu``)."""
        seed = int(self.seed.get_text() or "1") % (game.MAX_SEED + 1)
        side = 1 if self.choices()[0] == "second" else 0
        role = "host" if host else "join"
        show(self.app, "network_setup", role, self.back, self.chosen, side, seed)

    def back(self) -> None:
        """Back to a new main menu (the screens it opens return here)."""
        show(self.app, "menu")

    def _dialog(self, purpose: str, title: str) -> None:
        self.dialog_purpose = purpose
        w, h = self.app.size
        # a save is looked for where Ctrl+S puts saves (it opened the data folder)
        start = str(MAPS_DIR) if purpose == "scenario" else str(saves_dir())
        self.dialog = UIFileDialog(
            pygame.Rect(w // 2 - 260, h // 2 - 220, 520, 440),
            self.app.manager,
            title,
            {".json"},
            start,
            allow_existing_files_only=True,
        )

    def update(self, dt: float) -> None:
        """Advance the GUI; once the first frame is up, load the engine in the background so
        New battle does not wait for it."""
        if not getattr(self, "_preloading", False):
            self._preloading = True
            threading.Thread(target=preload_engine, name="preload-engine", daemon=True).start()
        self.app.manager.update(dt)

    def draw(self, surface) -> None:
        """Background and widgets."""
        paint_backdrop(
            surface, 'Modern and WWII micro-armour, 1" = 100 m. F1 in battle lists the keys.'
        )
        self.app.manager.draw_ui(surface)


def loading_bar(surface: pygame.Surface, every_s: float = 0.1):
    """A ``Battle.load`` progress callback that draws a bar and what is being done over the
    window, at most every ``every_s`` seconds, and keeps the window answering (a 62 MB
    autosave took 84-95 s with nothing shown)."""
    words = {"read": "Reading the autosave", "replay": "Replaying its actions"}
    last = [0.0]
    font = pygame.font.Font(None, 26)

    def progress(stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] < every_s and done < total:
            return
        last[0] = now
        pygame.event.pump()  # the window stays responsive to the system
        w, h = surface.get_size()
        box = pygame.Rect(0, 0, min(480, w - 20), 70)
        box.center = (w // 2, h // 2)
        pygame.draw.rect(surface, (40, 50, 40), box)
        frac = done / total if total else 1.0
        text = f"{words.get(stage, stage)}: {100 * frac:.0f}%"
        surface.blit(font.render(text, True, (245, 243, 235)), (box.x + 12, box.y + 10))
        bar = pygame.Rect(box.x + 12, box.y + 40, box.w - 24, 16)
        pygame.draw.rect(surface, (200, 196, 170), bar)
        fill = bar.inflate(-4, -4)
        fill.w = int(fill.w * frac)
        pygame.draw.rect(surface, (90, 140, 90), fill)
        pygame.display.flip()

    return progress
