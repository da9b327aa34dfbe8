"""Play a scenario AI against AI many times on both cores and say how often each side wins,
with a 95% Wilson interval: the figures behind a scenario's balance in docs/performance.md.

    .venv/bin/python tools/balance_runs.py maps/modern-combined-arms.json --games 200

Seeds run from ``--seed`` up, one battle each (``game.check.sim.play_battle``, the same
players as ``hulldown simulate --players veteran,veteran``); the same seeds give the same
results. Prints one line a side and a JSON summary.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game import load_scenario  # noqa: E402
from game.check.sim import play_battle  # noqa: E402

_SCENARIO = None
_PLAYERS = ("veteran", "veteran")


def _init(path: str, players: tuple[str, str]) -> None:
    global _SCENARIO, _PLAYERS
    _SCENARIO = load_scenario(path)
    _PLAYERS = players


def _one(seed: int) -> tuple[str | None, int, dict]:
    r = play_battle(_SCENARIO, seed, _PLAYERS)
    if r.log_problems:
        raise RuntimeError(f"seed {seed}: {r.log_problems[:2]}")
    return r.winner, r.turns, r.losses


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion k/n (0..1 each end)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main(argv: list[str] | None = None) -> int:
    """Run the battles and print the win rates; exit status 0."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenario")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", default="veteran,veteran")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    players = tuple(args.players.split(","))
    t0 = time.perf_counter()
    seeds = range(args.seed, args.seed + args.games)
    with mp.Pool(args.workers, initializer=_init, initargs=(args.scenario, players)) as pool:
        results = pool.map(_one, seeds)
    wins = Counter(w for w, _, _ in results)
    sc = load_scenario(args.scenario)
    out = {"games": args.games, "players": players, "seconds": round(time.perf_counter() - t0, 1)}
    for side in sc.spec.sides:
        k = wins.get(side.id, 0)
        lo, hi = wilson(k, args.games)
        out[side.id] = {"wins": k, "rate": k / args.games, "ci95": [round(lo, 3), round(hi, 3)]}
        print(
            f"{side.name} ({side.id}): {k}/{args.games} = {k / args.games:.1%} [{lo:.1%}, {hi:.1%}]"
        )
    out["draws"] = wins.get(None, 0)
    out["mean_turns"] = round(sum(t for _, t, _ in results) / len(results), 2)
    print(f"draws: {out['draws']}; mean turns {out['mean_turns']}; {out['seconds']} s")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
