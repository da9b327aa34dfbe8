"""The battle screen's saving: the battle to the saves folder (Ctrl+S), the battle log next to
it (End screen), and the end screen's Play again and Main menu."""

from __future__ import annotations

import html
from pathlib import Path

import pygame

from game.ui.logtext import path_html
from game.ui.navigation import show

NET_SAVED = (
    "A network battle is kept in its battle log as it is played: hulldown host --resume LOG "
    "(or join --resume LOG) continues it."
)
"""What Save says in a network battle, which saves no other way."""


class SavingMixin:
    """The battle screen's save, log copy, play again and back to the menu."""

    def default_save_name(self) -> str:
        """The name a save is offered under: scenario, seed and turn."""
        stem = Path(self.battle.scenario.path).stem
        return f"{stem}-seed{self.battle.seed}-turn{self.battle.state.turn}"

    def ask_save_name(self) -> None:
        """Ctrl+S and the Save button: a small dialog asks for the save's name, the default
        offered; Enter or its Save button saves, Esc or Cancel closes it."""
        from pygame_gui.elements import UIButton, UILabel, UITextEntryLine, UIWindow

        if getattr(self, "_save_dialog", None) is not None and self._save_dialog.alive():
            return
        if getattr(self, "net", None) is not None:  # its log is its journal
            self.notice = NET_SAVED
            self.mode.enter(self)
            return
        if not self.save_button.is_enabled:
            return  # the hand-over curtain or the end screen: nothing to save there (as Save)
        m = self.app.manager
        w, h = self.app.size
        win = UIWindow(pygame.Rect(w // 2 - 230, h // 2 - 90, 460, 180), m, "Save the battle")
        UILabel(pygame.Rect(10, 8, 420, 24), "Name (saved in your saves folder):", m, container=win)
        entry = UITextEntryLine(pygame.Rect(10, 36, 420, 32), m, container=win)
        entry.set_text(self.default_save_name())
        entry.focus()
        ok = UIButton(pygame.Rect(10, 78, 205, 32), "Save", m, container=win)
        cancel = UIButton(pygame.Rect(225, 78, 205, 32), "Cancel", m, container=win)
        self._save_dialog, self._save_entry = win, entry
        self._save_buttons = {ok: self._save_from_dialog, cancel: win.kill}

    def _save_from_dialog(self) -> None:
        name = self._save_entry.get_text().strip()
        if not name:
            self.message = "give the save a name"
            self.mode.enter(self)
            return
        self._save_dialog.kill()
        self.save(name)

    def save(self, name: str | None = None) -> Path | None:
        """Save the battle into the saves folder as ``name`` (the default name when None);
        returns the path, or None with the reason shown."""
        from game.saves import saves_dir

        folder = self.save_dir or saves_dir()
        name = Path(name or self.default_save_name()).name  # a name, not a path elsewhere
        if not name.endswith(".json"):
            name += ".json"
        path = Path(folder) / name
        try:
            self.battle.save(path)
        except OSError as err:
            self.message = f"could not save: {err}"
            return None
        self.notice = f"Saved as {html.escape(path.name)} in<br>{path_html(path.parent)}"
        self.mode.enter(self)
        return path

    def save_log_copy(self) -> None:
        """Write the battle log next to the saves (End screen)."""
        import json

        from game import write_atomic
        from game.saves import battle_log_path

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
            self.message = f"could not save the battle log: {err}"
            self.mode.enter(self)
            return
        self.notice = f"Battle log saved as {html.escape(path.name)} in<br>{path_html(path.parent)}"
        self.mode.enter(self)

    def replay(self) -> None:
        """Replay the battle from its start (the end screen's Replay); Back returns here."""
        from game import Replay  # the replay loads with the first one asked for

        show(self.app, "replay", Replay.of(self.battle), lambda: self.app.show(self))

    def play_again(self) -> None:
        """Start the same scenario again with the next seed."""
        if self.on_again:
            self.on_again(self.battle)

    def ask_to_leave(self) -> None:
        """The Menu button: a finished battle leaves at once; one under way asks first, and
        says whether the autosave keeps it."""
        if self.battle.finished:
            self.to_menu()
            return
        from pygame_gui.windows import UIConfirmationDialog

        kept = (
            "It is autosaved: Resume the autosave in the menu continues it."
            if self.battle.autosave is not None
            else "The other player is told you left. " + NET_SAVED
            if getattr(self, "net", None) is not None
            else "This battle is not saved (use Save first to keep it)."
        )
        w, h = self.app.size
        self._leave_dialog = UIConfirmationDialog(
            pygame.Rect(w // 2 - 220, h // 2 - 110, 440, 220),
            f"Leave the battle? {kept}",
            self.app.manager,
            window_title="Leave the battle",
            action_short_name="Leave",
        )

    def to_menu(self) -> None:
        """Back to the main menu (a network battle's other side is told we left)."""
        if getattr(self, "net", None) is not None:
            self.net.leave()
        if self.on_menu:
            self.on_menu()
