"""Benchmark of replay seeking (issue 24): jumping to the start of any turn of a 12-turn battle
(tests/corpus/wwii-meeting-s12-recruit-random, 558 actions), from wherever the replay stands, as
the slider and Page Up/Down do. Baseline in the same run: replaying from the battle's start
for each jump (a replay without checkpoints). The same jumps in the battle's log
(``LogReplay``: its lines read, checkpoints every turn and 25 lines). Prints one JSON object
on its last line."""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from game import Battle, LogReplay, Replay  # noqa: E402

SAVE = ROOT / "tests" / "corpus" / "wwii-meeting-s12-recruit-random.save.json"
TARGET_MS = 200.0


def seek_times(replay) -> tuple[list[int], list[float]]:
    """Jumps to every turn's start, three times each in a shuffled order: (positions, ms)."""
    targets = replay.turn_starts * 3
    random.Random(1).shuffle(targets)
    times = []
    for p in targets:
        t0 = time.perf_counter()
        replay.goto(p)
        times.append((time.perf_counter() - t0) * 1000)
    return targets, times


def main() -> int:
    """Time jumps to every turn's start in a shuffled order, and the baseline."""
    t0 = time.perf_counter()
    r = Replay.from_save(SAVE)
    build = (time.perf_counter() - t0) * 1000
    targets, jumps = seek_times(r)
    base = []
    for p in targets[:12]:
        t0 = time.perf_counter()
        b = Battle(r.battle.scenario, r.battle.seed, auto_pass=r.battle.auto_pass)
        for a in r.actions[:p]:
            b.apply(a)
        base.append((time.perf_counter() - t0) * 1000)
    jm, bm = statistics.median(jumps), statistics.median(base)
    t0 = time.perf_counter()
    lr = LogReplay(r.end_events, "log")
    log_build = (time.perf_counter() - t0) * 1000
    _, log_jumps = seek_times(lr)
    out = {
        "bench": "replay_seek",
        "actions": r.length,
        "turns": len(r.turn_starts) - 1,
        "build_ms": round(build, 1),
        "seek_median_ms": round(jm, 2),
        "seek_max_ms": round(max(jumps), 2),
        "baseline_from_start_median_ms": round(bm, 1),
        "speedup": round(bm / jm, 1),
        "log_lines": lr.length,
        "log_build_ms": round(log_build, 1),
        "log_seek_median_ms": round(statistics.median(log_jumps), 2),
        "log_seek_max_ms": round(max(log_jumps), 2),
        "target_met": max(jumps + log_jumps) <= TARGET_MS,
    }
    print(f"seek to a turn: median {jm:.1f} ms, max {max(jumps):.1f} ms (target {TARGET_MS:g})")
    print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
