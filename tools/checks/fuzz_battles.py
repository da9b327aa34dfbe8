"""Fuzz the engine: play N random legal battles and audit each (no overlap after movement,
movement points within speed, one attack per target per phase, markers that follow from the
results, valid battle-log lines, and a full save/load replay to the same state hash).

Run: python tools/checks/fuzz_battles.py [--battles 5000] [--scenario maps/modern-meeting.json]
Prints a JSON summary on its last line; exits 1 if any battle broke a rule.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from game import load_scenario  # noqa: E402
from game.check.audit import audit_random_battle  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--battles", type=int, default=5000)
    ap.add_argument("--first-seed", type=int, default=100_000)
    ap.add_argument("--scenario", default=str(ROOT / "maps" / "modern-meeting.json"))
    args = ap.parse_args()
    sc = load_scenario(args.scenario)
    t0 = time.perf_counter()
    bad: dict[int, list[str]] = {}
    actions = 0
    for seed in range(args.first_seed, args.first_seed + args.battles):
        problems, n = audit_random_battle(sc, seed)
        actions += n
        if problems:
            bad[seed] = problems
            print(f"seed {seed}: {problems[:3]}", file=sys.stderr)
    summary = {
        "tool": "fuzz_battles",
        "battles": args.battles,
        "actions": actions,
        "battles_with_problems": len(bad),
        "first_bad_seeds": sorted(bad)[:10],
        "seconds": round(time.perf_counter() - t0, 1),
    }
    print(json.dumps(summary))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
