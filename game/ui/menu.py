"""The main menu: a new battle (scenario, players, seed), resume the autosave, load a save,
quit. Widgets are pygame_gui's."""

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
from game.editor.mend import showable
from game.saves import (
    autosave_path,
    battle_log_path,
    exists,
    folder_problem,
    listed,
    saves_dir,
    scenarios_dir,
)
from game.ui.colours import INK

if TYPE_CHECKING:
    from game import Battle, Scenario

MAPS_DIR = game.shipped_dir("maps")
FIRST_MAP = "modern-meeting.json"  # the map the menu offers first
HOTSEAT = "Hotseat: two players, one screen"
VS_AI_FIRST = "Against the AI: you command the first force"
VS_AI_SECOND = "Against the AI: you command the second force"
LEVELS = {"AI level: veteran": "veteran", "AI level: recruit": "recruit"}
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


def close_drop_downs(menus) -> bool:
    """Esc: close whichever of these drop-down menus is open; True if one was."""
    closed = False
    for menu in menus:
        if menu.current_state is menu.menu_states["expanded"]:
            menu.current_state.should_transition = True
            closed = True
    return closed


def paint_backdrop(surface, foot: str) -> None:
    """The menu screens' backdrop: the paper colour, the green bar along the top, and one
    line of ``foot`` text at the bottom left (drawn under the widgets)."""
    surface.fill((236, 233, 222))
    w, h = surface.get_size()
    pygame.draw.rect(surface, (58, 72, 56), pygame.Rect(0, 0, w, 8))
    surface.blit(pygame.font.Font(None, 20).render(foot, True, INK), (12, h - 24))


def user_maps() -> Path:
    """The folder of the player's own scenarios (where the map editor saves them); the menu
    lists them after the shipped maps. Never raises (``game.saves``)."""
    return scenarios_dir()


def continue_log(battle: Battle) -> Battle:
    """Give a loaded or resumed battle its log again: the whole battle so far is written to
    :func:`battle_log_path` and play goes on writing there, so the file is the log of the
    battle as if it had never stopped. A log that cannot be made is reported on the battle
    screen (``battle.log.error``); the battle is played all the same. Returns the battle."""
    try:
        battle.write_log_to(battle_log_path(battle.scenario.path, battle.seed))
    except OSError as err:
        battle.log.error = f"the battle log could not be written ({err.strerror or err})"
    return battle


def new_battle(
    scenario: str | Path | Scenario,
    seed: int,
    ai: dict[str, str] | None = None,
    ai_speed: float = 12.0,
) -> Battle:
    """A battle of a scenario (a file, or one already read) that logs to the logs folder and
    autosaves. ``ai`` maps a side to an AI level ("veteran", "recruit"); it is kept in the
    battle's saves. "Play again" passes the scenario it played, so a loaded save's
    ``scenario_path`` is never opened.

    Raises ScenarioError for a bad scenario file or a ruleset that cannot be played yet.
    """
    sc = scenario if isinstance(scenario, game.Scenario) else game.load_scenario(scenario)
    log = battle_log_path(sc.path, seed)
    try:
        battle = game.Battle(sc, seed, log_path=log, autosave=autosave_path())
    except OSError as err:  # no logs folder (a file in its place, read-only): play on, unlogged
        battle = game.Battle(sc, seed, autosave=autosave_path())
        why = folder_problem(log.parent) or err.strerror or err
        battle.log.error = f"{log}: the battle log could not be written ({why})"
    battle.meta = {"ai": dict(ai or {}), "ai_speed": ai_speed}
    try:
        battle.save(battle.autosave)
    except OSError as err:  # a full disk: the battle screen says so and play goes on
        battle.autosave_error = (
            f"{battle.autosave}: the autosave could not be written ({err.strerror or err})"
        )
    return battle


def battle_screen(app, battle: Battle):
    """The battle screen, wired back to the menu and to "play again"; the AI players named in
    the battle's meta take their sides."""
    from game.ai import player_seed
    from game.ai.scripted import ScriptedAI
    from game.ui.battle import BattleScreen

    ai_levels = battle.meta.get("ai", {})
    ai = {  # seeded as hulldown simulate seeds them: the same seed, the same AI
        side: ScriptedAI(player_seed(battle.seed, battle.sides.index(side)), level)
        for side, level in sorted(ai_levels.items())
        if side in battle.sides
    }

    def again(old: Battle) -> None:
        try:
            nb = new_battle(old.scenario, old.seed + 1, ai_levels, old.meta.get("ai_speed", 12.0))
        except game.ScenarioError as err:
            app.show(MenuScreen(app, str(err)))
            return
        app.show(battle_screen(app, nb))

    return BattleScreen(
        app,
        battle,
        log_path=battle.log_path,
        on_menu=lambda: app.show(MenuScreen(app)),
        on_again=again,
        ai=ai,
        ai_speed=float(battle.meta.get("ai_speed", 12.0)),
    )


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
        self._scenario_rect = pygame.Rect(x, y + 24, 340, 34)
        self._scenario_menu()
        self.open_file = UIButton(pygame.Rect(x + 346, y + 24, 114, 34), "Open file...", m)
        self.points = UILabel(pygame.Rect(x - 100, y + 60, 660, 20), "", m)
        self._show_points()
        y += 92
        UILabel(pygame.Rect(x, y, 460, 22), "Players", m)
        self.players = UIDropDownMenu(
            [HOTSEAT, VS_AI_FIRST, VS_AI_SECOND], HOTSEAT, pygame.Rect(x, y + 24, 460, 34), m
        )
        y += 62
        self.level = UIDropDownMenu(
            list(LEVELS), "AI level: veteran", pygame.Rect(x, y, 180, 30), m
        )
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
        y += 50
        self.status = UITextBox(self.message or "", pygame.Rect(x - 100, y, 660, 90), m)
        if not self.message:  # an empty box under the buttons says nothing (#43)
            self.status.hide()

    def _scenario_menu(self) -> None:
        """The Scenario drop-down: the shipped maps, the player's, and any file picked with
        Open file... (shown by name, or with its folder when two share a name), the chosen
        one selected."""
        counts: dict[str, int] = {}
        for p in self.maps:
            counts[p.name] = counts.get(p.name, 0) + 1
        self._labels = {
            # a file name may hold a control character or undecodable bytes (#42): shown as
            # U+FFFD, never handed to the font as they are
            showable(p.name if counts[p.name] == 1 else f"{p.parent.name}/{p.name}"): p
            for p in self.maps
        }
        names = list(self._labels) or ["(no maps)"]
        chosen = next((k for k, p in self._labels.items() if p == self.chosen), names[0])
        old = getattr(self, "scenario_menu", None)
        if old is not None:
            old.kill()
        self.scenario_menu = UIDropDownMenu(names, chosen, self._scenario_rect, self.app.manager)

    def _show_points(self) -> None:
        """Under the Scenario drop-down: the chosen scenario's forces as the seed sheets
        cost them (stands x points x cohesion / 10) and their ratio."""
        from game.editor.points import forces, ratio

        text = ""
        if self.chosen is not None:
            try:
                raw = game.read_json_file(self.chosen)
                fs = forces(raw, game.load_rules_data()) if isinstance(raw, dict) else ()
            except game.JsonFileError:
                fs = ()
            if len(fs) == 2:
                text = "Points: " + " against ".join(
                    f"{f.name or f.side_id} {f.value:g}" for f in fs
                )
                text += f" (ratio {ratio(fs[0].value, fs[1].value):.2f} : 1)"
        self.points.set_text(showable(text))  # a side named with a NUL (#42)

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

    def start_new(self) -> None:
        """Start a battle of the chosen scenario with the seed typed."""
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
        try:
            ai = {}
            choice = self.players.selected_option
            choice = choice[0] if isinstance(choice, tuple) else choice
            if choice in (VS_AI_FIRST, VS_AI_SECOND):
                sides = [s.id for s in game.load_scenario(self.chosen).spec.sides]
                level = self.level.selected_option
                level = LEVELS[level[0] if isinstance(level, tuple) else level]
                ai = {sides[1] if choice == VS_AI_FIRST else sides[0]: level}
            speed = self.speed.selected_option
            speed = speed[0] if isinstance(speed, tuple) else speed
            battle = new_battle(self.chosen, seed, ai, SPEEDS.get(speed, 12.0))
        except game.ScenarioError as err:
            self.say(str(err))
            return
        self.app.show(battle_screen(self.app, battle))

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
        spec = sc.spec
        self.say(
            f"Scenario: {spec.title} ({path.name}: {spec.ruleset}, "
            f'{spec.table.width:g}"x{spec.table.depth:g}", {spec.turns} turns). New battle starts it.'
        )

    def load(self, path: Path) -> None:
        """Load a save (or the autosave) and continue it; a long one shows its progress in the
        window (:func:`loading_bar`)."""
        try:
            battle = game.Battle.load(
                path, autosave=autosave_path(), progress=loading_bar(self.app.surface)
            )
        except game.SaveError as err:
            self.say(str(err))
            return
        self.app.show(battle_screen(self.app, continue_log(battle)))

    def handle(self, ev) -> None:
        """Widget events."""
        self.app.manager.process_events(ev)
        if ev.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and ev.ui_element is self.scenario_menu:
            self.chosen = self._labels.get(ev.text, MAPS_DIR / ev.text)
            self._show_points()
        elif ev.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
            path = Path(ev.text)
            if self.dialog_purpose == "scenario":
                self.pick_scenario(path)
            else:
                self.load(path)
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
                from game.ui.quick_battle import QuickBattleScreen

                self.app.show(
                    QuickBattleScreen(self.app, lambda: self.app.show(MenuScreen(self.app)))
                )
            elif ev.ui_element is self.editor_button:
                from game.ui.editor import editor_screen

                self.app.show(
                    editor_screen(
                        self.app, None, on_menu=lambda: self.app.show(MenuScreen(self.app))
                    )
                )
            elif ev.ui_element is self.settings_button:
                from game.ui.settings_screen import SettingsScreen

                self.app.show(SettingsScreen(self.app, lambda: self.app.show(MenuScreen(self.app))))
            elif ev.ui_element is self.quit_button:
                self.app.running = False
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            close_drop_downs([self.scenario_menu, self.players, self.level, self.speed])
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_RETURN and self.dialog is None:
            self.start_new()

    def _dialog(self, purpose: str, title: str) -> None:
        self.dialog_purpose = purpose
        w, h = self.app.size
        # a save is looked for where Ctrl+S puts saves (#43: it opened the data folder)
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
    window, at most every ``every_s`` seconds, and keeps the window answering (#42: a 62 MB
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
