"""Is a scenario balanced? Play it AI against AI many times and say how often each side wins,
with 95% Wilson intervals and a verdict (``hulldown balance``).

Battles run on a process pool (one per core by default), seeds ``seed .. seed + games - 1``,
each with the same players as ``hulldown simulate`` (``game.check.sim.play_battle``), the
players' seats swapped in every other battle; the same seeds give the same results whatever
the number of workers, and on a dask.distributed cluster (``--scheduler``, the optional extra
``hulldown[cluster]``) as on the local pool.
"""

from __future__ import annotations

import functools
import json
import math
import multiprocessing as mp
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from game import load_scenario, parse_scenario
from game.ai.levels import DEFAULT_LEVEL
from game.check.sim import play_battle
from game.lifeline import die_with_parent, no_ctrl_c

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``k`` of ``n`` (each end in 0..1); (0, 1)
    for n = 0. Raises ValueError for k outside 0..n."""
    if not 0 <= k <= max(n, 0):
        raise ValueError(f"{k} successes of {n} trials")
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class SideResult:
    """One side over the battles: ``wins``, its win ``rate`` and 95% interval ``ci``, the
    mean of the stands it lost, and ``losses_by_turn``: the mean stands lost by the end of
    each turn (a battle that ended sooner counts its final losses on)."""

    side: str
    name: str
    wins: int
    rate: float
    ci: tuple[float, float]
    mean_losses: float
    losses_by_turn: tuple[float, ...] = ()


@dataclass(frozen=True)
class BalanceReport:
    """What :func:`run_balance` found: ``games``, each side's :class:`SideResult`, ``draws``,
    the mean turns played, the ``verdict`` ("balanced", or "favours <side name>") and the
    wall-clock ``seconds`` the run took (left out when two reports are compared)."""

    games: int
    sides: tuple[SideResult, SideResult]
    draws: int
    mean_turns: float
    verdict: str
    seconds: float = field(default=0.0, compare=False)


def verdict(a: SideResult, b: SideResult) -> str:
    """ "balanced" when the two sides' 95% intervals of their win rates overlap, else
    "favours" the side whose interval lies wholly above the other's."""
    if a.ci[0] > b.ci[1]:
        return f"favours {a.name or a.side}"
    if b.ci[0] > a.ci[1]:
        return f"favours {b.name or b.side}"
    return "balanced"


_SCENARIO = None
_PLAYERS: tuple[str, str] = (DEFAULT_LEVEL, DEFAULT_LEVEL)
_TURNS_PLAYED = None  # a shared counter of turns begun (a pool) or a function (one process)


@dataclass(frozen=True)
class Outcome:
    """One battle of a balance run: the ``winner`` (a side id or None), ``turns`` played,
    stands lost by side, and stands lost by side at the end of each turn."""

    winner: str | None
    turns: int
    losses: dict[str, int]
    losses_by_turn: tuple[dict[str, int], ...]


def seats(players: tuple[str, str], k: int) -> tuple[str, str]:
    """The players of the ``k``-th battle of a run (0 first): as given for even ``k``,
    swapped for odd, so each kind of player commands each side in half the battles."""
    return players if k % 2 == 0 else (players[1], players[0])


WORKER_MB = 120
"""Memory one worker process takes, about (MB): the interpreter with the rules, Shapely and
numpy and one battle, 57-60 MB measured, doubled for a large scenario (40 workers took
2.3 GB)."""


def job_limit() -> tuple[int, str]:
    """The most worker processes this machine can run at once, and why in words: one per core
    this process may use, and no more than the memory available (``MemAvailable`` of
    /proc/meminfo where there is one) holds at :data:`WORKER_MB` each; at least 1."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    limit, why = cores, f"{cores} core{'' if cores == 1 else 's'}"
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            kb = next(int(ln.split()[1]) for ln in fh if ln.startswith("MemAvailable:"))
    except (OSError, StopIteration, ValueError, IndexError):
        kb = None
    if kb is not None:
        by_memory = max(1, kb // 1024 // WORKER_MB)
        why += f", {kb / 1024 / 1024:.1f} GB of memory free at {WORKER_MB} MB a process"
        limit = min(limit, by_memory)
    return max(1, limit), why


def _init(
    path: str,
    players: tuple[str, str],
    parent_pid: int | None = None,
    turns_played=None,
) -> None:
    global _SCENARIO, _PLAYERS, _TURNS_PLAYED
    if parent_pid is not None:  # a pool worker: ends with the parent, Ctrl-C is the parent's
        die_with_parent(parent_pid)
    _SCENARIO = load_scenario(path)
    _PLAYERS = players
    _TURNS_PLAYED = turns_played


def _turn_played(_turn: int) -> None:
    """Count a turn begun in the counter the pool shares with the parent (the parent
    shows it, so a long battle shows life before it ends)."""
    counter = _TURNS_PLAYED
    if counter is None:
        return
    if callable(counter):
        counter()
        return
    with counter.get_lock():
        counter.value += 1


def _play(scenario, seed: int, players: tuple[str, str]) -> Outcome:
    r = play_battle(scenario, seed, players, on_turn=_turn_played)
    if r.log_problems:
        raise RuntimeError(f"seed {seed}: the battle log broke its format: {r.log_problems[0]}")
    return Outcome(r.winner, r.turns, r.losses, tuple(r.losses_by_turn))


def _one(job: tuple[int, int]) -> Outcome:
    seed, k = job
    return _play(_SCENARIO, seed, seats(_PLAYERS, k))


@functools.lru_cache(maxsize=4)
def _parsed(text: str, where: str):
    return parse_scenario(json.loads(text), where)


def play_remote(seed: int, k: int, text: str, where: str, players: tuple[str, str]) -> Outcome:
    """One battle on a dask worker: the scenario travels as its JSON ``text`` (a worker may
    not see the file), parsed once per worker and kept. Raises what :func:`_play` raises."""
    return _play(_parsed(text, where), seed, seats(players, k))


def _on_scheduler(
    address: str, path: str, jobs: list[tuple[int, int]], players, progress
) -> list[Outcome]:
    try:
        # lazy: dask is optional (the cluster extra)
        from distributed import Client, as_completed
    except ImportError:
        raise ValueError(
            "--scheduler needs dask.distributed: pip install 'hulldown[cluster]'"
        ) from None
    text = Path(path).read_text(encoding="utf-8")
    try:
        client = Client(address, timeout=10)
    except (OSError, TimeoutError) as err:
        raise ValueError(f"cannot reach the dask scheduler at {address} ({err})") from None
    try:
        futures = [
            client.submit(play_remote, s, k, text, str(path), players, pure=False) for s, k in jobs
        ]
        index = {f.key: i for i, f in enumerate(futures)}
        out: list[Outcome | None] = [None] * len(futures)
        for done, fut in enumerate(as_completed(futures), 1):
            out[index[fut.key]] = fut.result()
            if progress:
                progress(done)
        return out  # type: ignore[return-value]
    finally:
        client.close()


def run_balance(
    path: str,
    games: int = 200,
    seed: int = 1,
    players: tuple[str, str] = (DEFAULT_LEVEL, DEFAULT_LEVEL),
    jobs: int = 2,
    progress: Callable[[int], None] | None = None,
    scheduler: str | None = None,
    turns: Callable[[int], None] | None = None,
) -> BalanceReport:
    """Play ``games`` battles of the scenario at ``path``, seeds ``seed`` on, with
    ``players`` (swapped in every other battle: :func:`seats`) on ``jobs`` processes (1: in
    this process), or on the dask.distributed ``scheduler`` at that address when one is
    given, and report; the same seeds give the same report either way. ``progress(done)``
    is called after each battle, and ``turns(played)`` with the turns begun in all battles
    so far, at least twice a second while battles are in play (not on a scheduler). Raises ScenarioError for a scenario that does not load,
    ValueError for games under 1 or a scheduler that cannot be reached (or dask not
    installed), RuntimeError when a battle's log breaks its format."""
    if games < 1:
        raise ValueError(f"games must be 1 or more, not {games}")
    t0 = time.perf_counter()
    sc = load_scenario(path)
    work = [(seed + k, k) for k in range(games)]
    results: list[Outcome] = []
    if scheduler:
        results = _on_scheduler(scheduler, path, work, players, progress)
    elif jobs <= 1:
        played = [0]

        def count() -> None:
            played[0] += 1
            if turns:
                turns(played[0])

        _init(path, players, None, count)
        for job in work:
            results.append(_one(job))
            if progress:
                progress(len(results))
    else:
        ctx = mp.get_context("spawn")
        played = ctx.Value("q", 0)
        with no_ctrl_c():  # workers start with Ctrl-C ignored: the parent's to handle
            pool = ctx.Pool(jobs, initializer=_init, initargs=(path, players, os.getpid(), played))
        with pool:  # an exception here (Ctrl-C, SIGTERM: lifeline.Stopped) terminates them
            # one battle at a time, so its outcome can be waited for with a timeout (imap
            # with chunks gives a plain generator); a battle outweighs the pipe by far
            outcomes = pool.imap(_one, work)
            while len(results) < len(work):
                try:
                    r = outcomes.next(timeout=0.5)
                except mp.TimeoutError:  # a battle still in play: say how far
                    if turns:
                        turns(played.value)
                    continue
                results.append(r)
                if progress:
                    progress(len(results))
    return report_of(sc, results, time.perf_counter() - t0)


def report_of(sc, results: list[Outcome], seconds: float = 0.0) -> BalanceReport:
    """The :class:`BalanceReport` of a scenario's battles (at least one)."""
    games = len(results)
    longest = max(len(r.losses_by_turn) for r in results)
    sides = []
    for side in sc.spec.sides:
        k = sum(1 for r in results if r.winner == side.id)
        losses = sum(r.losses.get(side.id, 0) for r in results) / games
        curve = tuple(
            sum(
                (
                    r.losses_by_turn[min(t, len(r.losses_by_turn) - 1)]
                    if r.losses_by_turn
                    else r.losses
                ).get(side.id, 0)
                for r in results
            )
            / games
            for t in range(longest)
        )
        sides.append(SideResult(side.id, side.name, k, k / games, wilson(k, games), losses, curve))
    a, b = sides
    return BalanceReport(
        games=games,
        sides=(a, b),
        draws=sum(1 for r in results if r.winner is None),
        mean_turns=sum(r.turns for r in results) / games,
        verdict=verdict(a, b),
        seconds=seconds,
    )
