"""Benchmark of the battle engine: random-legal 12-turn battles of maps/modern-meeting.json.

Targets (issue "The battle engine"): median seconds per battle <= 2 s; peak memory <= 200 MB.
Prints its figures as one JSON object on its last line.

Run: python tools/bench/bench_battle.py [--battles N]
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from game import load_scenario  # noqa: E402
from game.check.sim import play_battle  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--battles", type=int, default=50)
    args = ap.parse_args()
    sc = load_scenario(ROOT / "maps" / "modern-meeting.json")
    play_battle(sc, 0, ("random", "random"))  # warm up
    times, turns, actions = [], [], []
    for seed in range(1, args.battles + 1):
        t = time.perf_counter()
        r = play_battle(sc, seed, ("random", "random"))
        times.append(time.perf_counter() - t)
        turns.append(r.turns)
        actions.append(r.actions)
    tracemalloc.start()
    play_battle(sc, 10_000, ("random", "random"))
    _, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    result = {
        "bench": "battle",
        "python": platform.python_version(),
        "scenario": "maps/modern-meeting.json",
        "players": "random,random",
        "battles": args.battles,
        "mean_turns": round(statistics.mean(turns), 2),
        "mean_actions": round(statistics.mean(actions), 1),
        "median_s_per_battle": round(statistics.median(times), 4),
        "p95_s_per_battle": round(sorted(times)[int(0.95 * (len(times) - 1))], 4),
        "peak_rss_mb": round(rss_mb, 1),
        "traced_peak_mb_one_battle": round(traced_peak / 2**20, 2),
        "targets_met": bool(statistics.median(times) <= 2 and rss_mb <= 200),
    }
    print(f"{result['median_s_per_battle']} s median per battle, peak RSS {rss_mb:.0f} MB")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
