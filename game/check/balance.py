"""Is a scenario balanced? Play it AI against AI many times and say how often each side wins,
with 95% Wilson intervals and a verdict (#34 part 3; ``hulldown balance``).

Battles run on a process pool (one per core by default), seeds ``seed .. seed + games - 1``,
each with the same players as ``hulldown simulate`` (``game.check.sim.play_battle``); the same
seeds give the same results whatever the number of workers.
"""

from __future__ import annotations

import math
import multiprocessing as mp
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from game import load_scenario
from game.check.sim import play_battle

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
    mean of the stands it lost."""

    side: str
    name: str
    wins: int
    rate: float
    ci: tuple[float, float]
    mean_losses: float


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
_PLAYERS: tuple[str, str] = ("veteran", "veteran")


def _init(path: str, players: tuple[str, str]) -> None:
    global _SCENARIO, _PLAYERS
    _SCENARIO = load_scenario(path)
    _PLAYERS = players


def _one(seed: int) -> tuple[str | None, int, dict[str, int]]:
    r = play_battle(_SCENARIO, seed, _PLAYERS)
    if r.log_problems:
        raise RuntimeError(f"seed {seed}: the battle log broke its format: {r.log_problems[0]}")
    return r.winner, r.turns, r.losses


def run_balance(
    path: str,
    games: int = 200,
    seed: int = 1,
    players: tuple[str, str] = ("veteran", "veteran"),
    jobs: int = 2,
    progress: Callable[[int], None] | None = None,
) -> BalanceReport:
    """Play ``games`` battles of the scenario at ``path`` with ``players`` on ``jobs``
    processes (1: in this process) and report. ``progress(done)`` is called after each
    battle. Raises ScenarioError for a scenario that does not load, ValueError for games
    under 1, RuntimeError when a battle's log breaks its format."""
    if games < 1:
        raise ValueError(f"games must be 1 or more, not {games}")
    t0 = time.perf_counter()
    sc = load_scenario(path)
    seeds = range(seed, seed + games)
    results = []
    if jobs <= 1:
        _init(path, players)
        for s in seeds:
            results.append(_one(s))
            if progress:
                progress(len(results))
    else:
        ctx = mp.get_context("spawn")
        with ctx.Pool(jobs, initializer=_init, initargs=(path, players)) as pool:
            for r in pool.imap(_one, seeds, chunksize=4):
                results.append(r)
                if progress:
                    progress(len(results))
    sides = []
    for side in sc.spec.sides:
        k = sum(1 for w, _, _ in results if w == side.id)
        losses = sum(lo.get(side.id, 0) for _, _, lo in results) / games
        sides.append(SideResult(side.id, side.name, k, k / games, wilson(k, games), losses))
    a, b = sides
    return BalanceReport(
        games=games,
        sides=(a, b),
        draws=sum(1 for w, _, _ in results if w is None),
        mean_turns=sum(t for _, t, _ in results) / games,
        verdict=verdict(a, b),
        seconds=time.perf_counter() - t0,
    )
