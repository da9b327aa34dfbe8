"""Headless battles: ``hulldown simulate`` plays whole battles between two players and
summarises them; every battle writes its own battle log."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from game import Battle, Scenario, check_log
from game.ai import player_seed
from game.ai.greedy import GreedyPlayer
from game.ai.levels import DEFAULT_LEVEL, LEVELS
from game.ai.random_player import RandomPlayer
from game.ai.scripted import ScriptedAI


def _scripted(level: str) -> Callable[[int], ScriptedAI]:
    return lambda seed: ScriptedAI(seed, level)


PLAYERS: dict[str, Callable] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "ai": _scripted(DEFAULT_LEVEL),
    **{name: _scripted(name) for name in LEVELS},
    **{f"ai:{name}": _scripted(name) for name in LEVELS},
}
"""Every player ``simulate`` and ``balance`` know by name: the random player, the independent
greedy player ("greedy", the AI's yardstick), "ai" (the default level), and each AI level by
its name alone or as "ai:<level>"."""


class LogNotWritten(OSError):
    """A battle's log could not be written whole (a full disk): ``str()`` is one line naming
    the file and the reason. What was written ends on a whole line (LogWriter)."""

    def __init__(self, path: str | Path, why: str):
        super().__init__(f"{path}: {why}")
        self.path = str(path)


@dataclass
class BattleResult:
    """One simulated battle: seed, winner (side or None), turns played, losses by side,
    seconds it took, actions taken, and any battle-log problems found."""

    seed: int
    winner: str | None
    turns: int
    losses: dict[str, int]
    seconds: float
    actions: int
    log_problems: list[str]
    losses_by_turn: list[dict[str, int]] = field(default_factory=list)


def make_player(kind: str, seed: int):
    """A player by name: "random", "ai" (the veteran AI), "elite" (the veteran's scorers with a
    look-ahead on copies of the battle), "veteran", "recruit", "veteran-43" (the veteran as it
    played before the battle's outlook was weighed, kept to measure against; also written
    "ai:elite", "ai:veteran", "ai:recruit", "ai:veteran-43"). Raises ValueError for an
    unknown one."""
    if kind not in PLAYERS:
        raise ValueError(f"unknown player {kind!r} (known: {', '.join(PLAYERS)})")
    return PLAYERS[kind](seed)


def make_players(battle: Battle, players: tuple[str, str]) -> dict:
    """The battle's two players by side, named as :func:`make_player` names them (the first
    plays ``battle.sides[0]``), each seeded by :func:`game.ai.player_seed`."""
    return {
        side: make_player(kind, player_seed(battle.seed, i))
        for i, (side, kind) in enumerate(zip(battle.sides, players, strict=True))
    }


def play_battle(
    scenario: Scenario,
    seed: int,
    players: tuple[str, str],
    log_path: str | Path | None = None,
    max_actions: int = 100_000,
    on_turn: Callable[[int], None] | None = None,
) -> BattleResult:
    """Play one battle to its end; the players' streams are seeded from ``seed`` too
    (:func:`game.ai.player_seed`, as on the battle screen). ``on_turn(turn)`` is called as
    each turn begins, so a long battle shows progress (400 stands for 100 turns played
    over 120 s with no sign of life); it changes nothing in play.

    Raises
    ------
    RuntimeError
        The battle has not ended after ``max_actions`` actions.
    OSError
        ``log_path`` cannot be made; :class:`LogNotWritten` when a line of the log could not
        be written (a full disk): the battle was played to its end in memory, but its log file
        is not whole, and a run of battles must not report it as written.
    """
    t0 = time.perf_counter()
    battle = Battle(scenario, seed, log_path=log_path)
    sides = battle.sides
    by_side = make_players(battle, players)
    n = 0
    by_turn: list[dict[str, int]] = []
    turn = battle.state.turn
    while not battle.finished:
        battle.apply(by_side[battle.to_act].choose(battle))
        n += 1
        if battle.state.turn != turn:  # losses as each turn ended (turn 0 is the setup)
            if turn > 0:
                by_turn.append(battle.state.losses(sides))
            turn = battle.state.turn
            if on_turn is not None:
                on_turn(turn)
        if n > max_actions:
            raise RuntimeError(f"battle with seed {seed} did not end in {max_actions} actions")
    battle.log.close()
    if battle.log.error:
        raise LogNotWritten(log_path, battle.log.error)
    st = battle.state
    return BattleResult(
        seed,
        st.winner,
        st.turn,
        st.losses(sides),
        time.perf_counter() - t0,
        n,
        check_log(battle.log.events),
        by_turn + [st.losses(sides)],
    )


def summarise(results: list[BattleResult], sides: list[str]) -> dict:
    """Wins per side (and draws), mean losses per side, mean turns and seconds per battle."""
    n = max(1, len(results))
    return {
        "battles": len(results),
        "wins": {s: sum(r.winner == s for r in results) for s in sides},
        "draws": sum(r.winner is None for r in results),
        "mean_losses": {s: round(sum(r.losses[s] for r in results) / n, 2) for s in sides},
        "mean_turns": round(sum(r.turns for r in results) / n, 2),
        "seconds_per_battle": round(statistics.mean(r.seconds for r in results), 3)
        if results
        else 0.0,
        "log_problems": sum(len(r.log_problems) for r in results),
    }
