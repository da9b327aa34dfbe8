"""Making a battle to play on screen: a new one from a scenario (logged and autosaved), a
loaded one given its log again, and its battle screen with the AI players its save names."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import game
from game.saves import autosave_path, battle_log_path, folder_problem
from game.ui.navigation import show

if TYPE_CHECKING:
    from game import Battle, Scenario


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
    # lazy: the AI and the battle screen load with the first battle, not the menu's first frame
    from game.ai.scripted import ai_players
    from game.ui.battle import BattleScreen

    ai_levels = battle.meta.get("ai", {})
    thinking = getattr(getattr(app, "settings", None), "ai_thinking", "normal")
    ai = ai_players(battle, ai_levels, thinking)

    def again(old: Battle) -> None:
        try:
            nb = new_battle(old.scenario, old.seed + 1, ai_levels, old.meta.get("ai_speed", 12.0))
        except game.ScenarioError as err:
            show(app, "menu", str(err))
            return
        app.show(battle_screen(app, nb))

    return BattleScreen(
        app,
        battle,
        log_path=battle.log_path,
        on_menu=lambda: show(app, "menu"),
        on_again=again,
        ai=ai,
        ai_speed=float(battle.meta.get("ai_speed", 12.0)),
    )
