"""The battle screen's saving: the battle to the saves folder (Ctrl+S), the battle log next to
it (End screen), and the end screen's Play again and Main menu."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Protocol

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UITextEntryLine, UIWindow
from pygame_gui.windows import UIConfirmationDialog

from game import (
    Replay,  # the replay loads with the first one asked for
    write_atomic,
)
from game.saves import battle_log_path, saves_dir
from game.ui.logtext import path_html
from game.ui.navigation import show

NET_SAVED = (
    "A network battle is kept in its battle log as it is played: hulldown host --resume LOG "
    "(or join --resume LOG) continues it."
)
"""What Save says in a network battle, which saves no other way."""


class SavingScreen(Protocol):
    """What :class:`Saving` reads and sets of the battle screen: its app (window size,
    widget manager), battle, network session, Save button, current mode (entered again to
    show a message), message and notice, saves folder and the end screen's callbacks."""

    app: object
    battle: object
    net: object
    save_button: object
    mode: object
    message: str
    notice: str
    save_dir: Path | None
    on_menu: object
    on_again: object


class Saving:
    """The battle screen's save, log copy, replay, play again and back to the menu (its
    ``saving``), with the save-name dialog and the "Leave the battle?" question."""

    def __init__(self, screen: SavingScreen):
        self.screen = screen
        self.dialog = None  # the save-name window, while open
        self.entry = None  # its name field
        self.buttons: dict = {}  # its buttons -> what each does
        self.leave_dialog = None  # the "Leave the battle?" question, once asked

    @property
    def battle(self):
        """The screen's battle."""
        return self.screen.battle

    def handle(self, ev) -> bool:
        """Take an event meant for the dialogs: the keys while a name is typed (Enter
        saves, Esc closes), the dialog's buttons, the Leave confirmation. True when taken."""
        dialog = self.dialog
        if dialog is not None and dialog.alive() and ev.type == pygame.KEYDOWN:
            if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self._save_from_dialog()
            elif ev.key == pygame.K_ESCAPE:
                dialog.kill()
            return True  # typing the name: the screen's keys wait
        if ev.type == pygame_gui.UI_BUTTON_PRESSED and ev.ui_element in self.buttons:
            self.buttons[ev.ui_element]()
            return True
        if ev.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED:
            if self.leave_dialog is ev.ui_element:
                self.to_menu()
            return True
        return False

    def default_save_name(self) -> str:
        """The name a save is offered under: scenario, seed and turn."""
        stem = Path(self.battle.scenario.path).stem
        return f"{stem}-seed{self.battle.seed}-turn{self.battle.state.turn}"

    def ask_save_name(self) -> None:
        """Ctrl+S and the Save button: a small dialog asks for the save's name, the default
        offered; Enter or its Save button saves, Esc or Cancel closes it."""
        screen = self.screen
        if self.dialog is not None and self.dialog.alive():
            return
        if screen.net is not None:  # its log is its journal
            screen.notice = NET_SAVED
            screen.mode.enter(screen)
            return
        if not screen.save_button.is_enabled:
            return  # the hand-over curtain or the end screen: nothing to save there (as Save)
        m = screen.app.manager
        w, h = screen.app.size
        win = UIWindow(pygame.Rect(w // 2 - 230, h // 2 - 90, 460, 180), m, "Save the battle")
        UILabel(pygame.Rect(10, 8, 420, 24), "Name (saved in your saves folder):", m, container=win)
        entry = UITextEntryLine(pygame.Rect(10, 36, 420, 32), m, container=win)
        entry.set_text(self.default_save_name())
        entry.focus()
        ok = UIButton(pygame.Rect(10, 78, 205, 32), "Save", m, container=win)
        cancel = UIButton(pygame.Rect(225, 78, 205, 32), "Cancel", m, container=win)
        self.dialog, self.entry = win, entry
        self.buttons = {ok: self._save_from_dialog, cancel: win.kill}

    def _save_from_dialog(self) -> None:
        name = self.entry.get_text().strip()
        if not name:
            self.screen.message = "give the save a name"
            self.screen.mode.enter(self.screen)
            return
        self.dialog.kill()
        self.save(name)

    def save(self, name: str | None = None) -> Path | None:
        """Save the battle into the saves folder as ``name`` (the default name when None);
        returns the path, or None with the reason shown."""
        screen = self.screen
        folder = screen.save_dir or saves_dir()
        name = Path(name or self.default_save_name()).name  # a name, not a path elsewhere
        if not name.endswith(".json"):
            name += ".json"
        path = Path(folder) / name
        try:
            self.battle.save(path)
        except OSError as err:
            screen.message = f"could not save: {err}"
            return None
        screen.notice = f"Saved as {html.escape(path.name)} in<br>{path_html(path.parent)}"
        screen.mode.enter(screen)
        return path

    def save_log_copy(self) -> None:
        """Write the battle log next to the saves (End screen)."""
        screen = self.screen
        path = battle_log_path(self.battle.scenario.path, self.battle.seed)
        try:
            write_atomic(
                path,
                "".join(
                    json.dumps(e, sort_keys=True, separators=(",", ":")) + "\n"
                    for e in self.battle.log.events
                ),
            )
        except OSError as err:  # a full disk: say so, the battle is still in memory
            screen.message = f"could not save the battle log: {err}"
            screen.mode.enter(screen)
            return
        screen.notice = (
            f"Battle log saved as {html.escape(path.name)} in<br>{path_html(path.parent)}"
        )
        screen.mode.enter(screen)

    def replay(self) -> None:
        """Replay the battle from its start (the end screen's Replay); Back returns here."""
        app = self.screen.app
        show(app, "replay", Replay.of(self.battle), lambda: app.show(self.screen))

    def play_again(self) -> None:
        """Start the same scenario again with the next seed."""
        if self.screen.on_again:
            self.screen.on_again(self.battle)

    def ask_to_leave(self) -> None:
        """The Menu button: a finished battle leaves at once; one under way asks first, and
        says whether the autosave keeps it."""
        if self.battle.finished:
            self.to_menu()
            return
        kept = (
            "It is autosaved: Resume the autosave in the menu continues it."
            if self.battle.autosave is not None
            else "The other player is told you left. " + NET_SAVED
            if self.screen.net is not None
            else "This battle is not saved (use Save first to keep it)."
        )
        w, h = self.screen.app.size
        self.leave_dialog = UIConfirmationDialog(
            pygame.Rect(w // 2 - 220, h // 2 - 110, 440, 220),
            f"Leave the battle? {kept}",
            self.screen.app.manager,
            window_title="Leave the battle",
            action_short_name="Leave",
        )

    def to_menu(self) -> None:
        """Back to the main menu (a network battle's other side is told we left)."""
        if self.screen.net is not None:
            self.screen.net.leave()
        if self.screen.on_menu:
            self.screen.on_menu()
