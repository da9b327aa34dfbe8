"""Benchmark of quick-battle generation (#34: a table in <= 1 s): ``generate_scenario`` for
100 seeds of each case (Modern 60"x36" medium woods, WWII 48"x24" light, Modern heavy), the
scenario then validated as ``hulldown generate`` does. Prints the median and the slowest
seconds per table of each case, and the woods' share range, as one JSON line.

Run: python tools/bench/bench_generate.py [--seeds 100]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from game import load_rules_data, parse_scenario  # noqa: E402
from game.editor.generate import generate_scenario  # noqa: E402
from game.editor.stats import map_statistics  # noqa: E402

CASES = [
    ("modern", "T-80U / AT-11", "M1A2 Abrams", "medium"),
    ("wwii", "Pz IIIJ-M", 'M4 "Sherman"', "light"),
    ("modern", "T-72", "Leopard-IIA6", "heavy"),
]


def main() -> int:
    """Time the cases; exit status 0."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=100)
    args = ap.parse_args()
    data = load_rules_data()
    out = {"bench": "generate", "seeds": args.seeds, "cases": {}}
    for ruleset, a, b, density in CASES:
        times, shares = [], []
        for seed in range(args.seeds):
            t0 = time.perf_counter()
            raw = generate_scenario(data, ruleset, a, b, seed, density=density)
            parse_scenario(raw, "quick.json")
            times.append(time.perf_counter() - t0)
            shares.append(map_statistics(raw, data).table.area_pct["woods"])
        out["cases"][f"{ruleset} {density}"] = {
            "median_s": round(statistics.median(times), 4),
            "max_s": round(max(times), 4),
            "woods_pct": [round(min(shares), 1), round(max(shares), 1)],
        }
    out["target_met"] = all(c["max_s"] <= 1.0 for c in out["cases"].values())
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
