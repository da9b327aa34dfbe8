"""The map editor's screen (pygame): its modes in ``modes.py``, the screen in ``screen.py``,
the balance views' and statistics' drawing in ``views.py``. The model it edits is
``game.editor``."""

from __future__ import annotations

from pathlib import Path

from game import Battle
from game.saves import folder_problem, logs_dir
from game.ui.battle import BattleScreen
from game.ui.editor.screen import EditorScreen


def editor_screen(app, doc=None, on_menu=None):
    """The editor screen wired to test play: F5 opens the scenario being edited in a hotseat
    battle (its log in the logs folder, no autosave over the player's battle; a logs folder
    that cannot be written is said on the battle screen and play goes on), and leaving
    that battle (Menu, or Play again's end) comes back to the editor, history intact."""

    def battle_factory(app, scenario, back, seed: int = 1):
        stem = Path(scenario.path).stem or "untitled"
        log = logs_dir() / f"test-play-{stem}-seed{seed}.jsonl"
        try:
            battle = Battle(scenario, seed, log_path=log)
        except OSError as err:  # the logs folder is a file or read-only: play, unlogged
            battle = Battle(scenario, seed)
            why = folder_problem(log.parent) or err.strerror or err
            battle.log.error = f"{log}: the battle log could not be written ({why})"
            log = None
        battle.meta = {"ai": {}, "ai_speed": 12.0, "test_play": True}
        return BattleScreen(
            app,
            battle,
            log_path=log,
            on_menu=back,
            on_again=lambda old: app.show(battle_factory(app, scenario, back, old.seed + 1)),
        )

    return EditorScreen(app, doc, on_menu=on_menu, battle_factory=battle_factory)
