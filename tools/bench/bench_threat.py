"""Benchmark of the threat preview (issue 24): who could opportunity-fire where along a move
being plotted, for a 20" path against 30 enemy stands, as the plotting screen asks it after the
path changes. Baseline in the same run: committing the move on a copy of the battle and reading
the engine's offer (what a screen without the preview query would have to do). Median of
repeats; one JSON object on the last line."""

from __future__ import annotations

import copy
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from game import Move, MoveAttempt  # noqa: E402
from tests.conftest import battle  # noqa: E402
from tests.rules.test_movement import to_movement  # noqa: E402

TARGET_MS = 30.0


def main() -> int:
    """Time the preview and the baseline; print the JSON line."""
    stands = [("A1", "A", "T-72", 10, 24, 0)]
    for i in range(30):
        stands.append((f"B{i + 1}", "B", "T-72", 40 + (i % 5) * 2.5, 6 + (i // 5) * 7, 180))
    b = battle(stands, [5], width=60, depth=48)
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    path = ((10, 24), (30, 24))
    preview, base = [], []
    for _ in range(30):
        t0 = time.perf_counter()
        r = b.threat_preview("A1", path, 0.0)
        preview.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        c = copy.deepcopy(b)
        c.autosave = None
        c.apply(Move("A", "A1", path, 0.0))
        offer = c.opportunity_offer
        base.append((time.perf_counter() - t0) * 1000)
    assert offer == r["offer"], "the preview must be the engine's offer"
    firers = {f for fs in r["offer"].values() for f, _ in fs}
    pm, bm = statistics.median(preview), statistics.median(base)
    out = {
        "bench": "threat_preview",
        "path_in": 20,
        "enemy_stands": 30,
        "steps": len(r["points"]),
        "firers": len(firers),
        "preview_median_ms": round(pm, 2),
        "preview_max_ms": round(max(preview), 2),
        "baseline_commit_on_a_copy_median_ms": round(bm, 2),
        "speedup": round(bm / pm, 2),
        "target_met": pm <= TARGET_MS,
    }
    print(f"threat preview: median {pm:.1f} ms (target {TARGET_MS:g}); baseline {bm:.1f} ms")
    print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
