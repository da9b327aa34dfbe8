"""``hulldown simulate`` (moved out of game/cli.py, which holds the parser and the short
commands)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from tqdm import tqdm

from game import Battle, ScenarioError, load_scenario
from game.check.sim import PLAYERS, LogNotWritten, play_battle, summarise
from game.saves import folder_problem


def _players(spec: str) -> tuple[str, ...] | None:
    """``--players`` read: one name for both sides or ``A,B``, each one of PLAYERS; None
    (after one line on stderr) for anything else."""
    players = tuple(p.strip() for p in spec.split(","))
    if len(players) == 1:
        players = players * 2
    if len(players) != 2 or any(p not in PLAYERS for p in players):
        known = ", ".join(PLAYERS)
        print(
            f"--players: give one or two of: {known} (e.g. ai,random or veteran,recruit)",
            file=sys.stderr,
        )
        return None
    return players


def _play_all(args: argparse.Namespace, sc, players: tuple[str, ...]) -> list | None:
    """Play ``args.games`` battles of ``sc`` from seed ``args.seed`` up, each logged to
    ``--log-dir`` when given; their results, or None (after one line on stderr) when a log
    cannot be written (a full disk: stopped there, the logs written so far whole). The bar
    shows only after a second, so a quick run prints nothing; then it says the turn of the
    battle in play, so one long battle shows life too."""
    log_dir = args.log_dir
    results = []
    bar = tqdm(
        range(args.games),
        desc="battles",
        unit="battle",
        file=sys.stderr,
        disable=args.quiet,
        delay=1.0,
    )
    t0 = time.monotonic()
    turns = sc.spec.turns
    for i in bar:
        seed = args.seed + i
        log = os.path.join(log_dir, f"battle-{i + 1:04d}-seed-{seed}.jsonl") if log_dir else None

        def on_turn(turn: int, i: int = i) -> None:
            if not bar.disable and time.monotonic() - t0 >= 1.0:
                bar.set_postfix_str(f"battle {i + 1}: turn {turn} of {turns}")

        try:
            results.append(play_battle(sc, seed, players, log, on_turn=on_turn))
        except OSError as err:  # a full disk: stop, say so, and never claim the logs
            bar.close()
            why = (
                err
                if isinstance(err, LogNotWritten)
                else (f"{log}: cannot write the battle log ({err.strerror or err})")
            )
            print(
                f"hulldown simulate: {why}; stopped after {i} of {args.games} battles "
                f"(their logs are whole)",
                file=sys.stderr,
            )
            return None
    return results


def _report(sc, players: tuple[str, ...], results: list, log_dir: str | None) -> int:
    """Print the battles' summary (wins and mean stands lost a side, draws, mean turns,
    seconds a battle), then its JSON; 1 (and no JSON) when a battle log had problems."""
    sides = [s.id for s in sc.spec.sides]
    summary = summarise(results, sides)
    names = {s.id: s.name for s in sc.spec.sides}
    n = summary["battles"]
    print(f"{n} battle{'' if n == 1 else 's'} of {sc.title} ({players[0]} vs {players[1]}):")
    for s in sides:
        print(
            f"  {names[s]}: {summary['wins'][s]} wins, {summary['mean_losses'][s]} stands "
            f"lost on average"
        )
    print(
        f"  draws: {summary['draws']}; mean turns {summary['mean_turns']}; "
        f"{summary['seconds_per_battle']} s per battle"
    )
    if log_dir:
        print(f"  logs in {log_dir}/")
    if summary["log_problems"]:
        print(f"  battle-log problems: {summary['log_problems']}", file=sys.stderr)
        return 1
    print(json.dumps(summary, sort_keys=True))
    return 0


def simulate_command(args: argparse.Namespace) -> int:
    """``hulldown simulate``: play battles headless and print a summary, one battle log per
    battle with ``--log-dir``; a bar on stderr after a second says the battle and its turn.
    Exit 1 with one line for a scenario that does not load or a log that cannot be
    written (a full disk: stopped, its logs whole), 2 for bad ``--players``/``--log-dir``."""
    players = _players(args.players)
    if players is None:
        return 2
    try:
        sc = load_scenario(args.scenario)
        Battle(sc, args.seed)  # refuses a ruleset it cannot play yet
    except ScenarioError as err:
        print(err, file=sys.stderr)
        return 1
    log_dir = args.log_dir
    if log_dir:
        problem = folder_problem(log_dir)
        if problem:
            print(f"hulldown simulate: --log-dir {log_dir}: {problem}", file=sys.stderr)
            return 2
    results = _play_all(args, sc, players)
    if results is None:
        return 1
    return _report(sc, players, results, log_dir)
