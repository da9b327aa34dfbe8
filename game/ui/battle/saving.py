"""The battle screen's saving: the battle to the saves folder (Ctrl+S), the battle log next to
it (End screen), and the end screen's Play again and Main menu."""

from __future__ import annotations

import html
from pathlib import Path

import pygame


class SavingMixin:
    """The battle screen's save, log copy, play again and back to the menu."""

    def save(self) -> Path | None:
        """Save the battle (Ctrl+S) into the saves folder; returns the path."""
        from game.saves import saves_dir

        folder = self.save_dir or saves_dir()
        stem = Path(self.battle.scenario.path).stem
        path = Path(folder) / f"{stem}-seed{self.battle.seed}-turn{self.battle.state.turn}.json"
        try:
            self.battle.save(path)
        except OSError as err:
            self.message = f"could not save: {err}"
            return None
        self.notice = f"Saved as {html.escape(path.name)}<br>in {html.escape(str(path.parent))}"
        self.mode.enter(self)
        return path

    def save_log_copy(self) -> None:
        """Write the battle log next to the saves (End screen)."""
        import json

        from game import write_atomic
        from game.saves import logs_dir

        stem = Path(self.battle.scenario.path).stem
        path = logs_dir() / f"{stem}-seed{self.battle.seed}.jsonl"
        write_atomic(
            path,
            "".join(
                json.dumps(e, sort_keys=True, separators=(",", ":")) + "\n"
                for e in self.battle.log.events
            ),
        )
        self.notice = (
            f"Battle log saved as {html.escape(path.name)}<br>in {html.escape(str(path.parent))}"
        )
        self.mode.enter(self)

    def replay(self) -> None:
        """Replay the battle from its start (the end screen's Replay); Back returns here."""
        from game import Replay
        from game.ui.replay import ReplayScreen

        self.app.show(ReplayScreen(self.app, Replay.of(self.battle), lambda: self.app.show(self)))

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
        """Back to the main menu."""
        if self.on_menu:
            self.on_menu()
