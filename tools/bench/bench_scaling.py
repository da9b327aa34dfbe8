"""Benchmark of how the geometry scales with the number of stands (#25).

On the generated 72"x48" 300-polygon map of ``tools/bench/bench_geometry.py`` (its generator, same
seed), for 10, 20, 40 and 120 stands a side (and 240 for the sight matrix):
- the sight matrix, every stand to every enemy in both directions, with a 30" sighting
  distance and with an unlimited one (no pair skipped for range);
- a 10" path of two legs walked in 0.5" steps by a stand among them, the enemy footprints
  barring its way (``Table.walk`` with ``no_pass``), mean of a batch of paths.

Each row gives the median time of repeated runs (and p90), the ratio to the same column's
smallest size measured in this run, and the peak memory of one run (tracemalloc, in a run of
its own: tracing slows the code). Prints one JSON object on its last line with a list of rows;
``tools/bench/plot_scaling.py`` draws it.

- an AI decision: the scripted veteran's decisions over the first turns of a battle at that
  size (median, p95 and max, and the peak memory of one decision).

Columns are functions of a stands-per-side number that return rows (see ``COLUMNS``): another
column is added by appending such a function.

Run: python tools/bench/bench_scaling.py [--sizes 10,20,40,120] [--matrix-only 240] [--quick]
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import platform
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import numpy as np
import shapely

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_geometry import D, W, make_map, stands_for  # noqa: E402

from game import StandPose, Table, footprint, load_rules_data  # noqa: E402

SIGHTING_IN = 30.0
UNLIMITED_IN = 1000.0  # more than the table's diagonal: every pair within sighting distance
PATH_IN = 10.0
SETTINGS = {"repeats_target_s": 1.0, "max_repeats": 30, "min_repeats": 3, "paths": 200}

Row = dict


@functools.cache
def bench_table() -> tuple[Table, object]:
    """The benchmark map (bench_geometry's generator and seed) as a Table, and the Modern
    ruleset. Built once per process."""
    data = load_rules_data()
    rng = np.random.default_rng(20261121)
    return Table(W, D, make_map(rng), data.terrain), data.rulesets["modern"]


@functools.cache
def bench_stands(per_side: int) -> tuple[StandPose, ...]:
    """``per_side`` stands a side scattered without overlapping (side A on the left half,
    B on the right), the same for a given number in every run."""
    return tuple(stands_for(per_side))


def measure(fn: Callable[[], object]) -> dict:
    """Time ``fn`` (median and p90 in ms of repeated runs, after one warm-up; as many runs as
    fit about ``repeats_target_s`` seconds, within the min and max) and its peak memory
    (tracemalloc, MiB, one more run of its own)."""
    t = time.perf_counter()
    fn()  # warm-up, and a first idea of the time
    first = time.perf_counter() - t
    n = int(SETTINGS["repeats_target_s"] / max(first, 1e-6))
    n = max(SETTINGS["min_repeats"], min(SETTINGS["max_repeats"], n))
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    tracemalloc.start()
    try:
        fn()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return {
        "median_ms": round(statistics.median(times), 3),
        "p90_ms": round(float(np.percentile(times, 90)), 3),
        "repeats": n,
        "peak_mb": round(peak / 2**20, 2),
    }


def _sides(per_side: int) -> tuple[list[StandPose], list[StandPose], tuple[StandPose, ...]]:
    stands = bench_stands(per_side)
    return [s for s in stands if s.side == "A"], [s for s in stands if s.side == "B"], stands


def sight_matrix_rows(per_side: int) -> list[Row]:
    """Rows "sight_matrix" (30" sighting) and "sight_matrix_unlimited": every stand to every
    enemy both ways, ``per_side`` stands a side."""
    table, rules = bench_table()
    side_a, side_b, stands = _sides(per_side)
    rows = []
    for column, sighting in (
        ("sight_matrix", SIGHTING_IN),
        ("sight_matrix_unlimited", UNLIMITED_IN),
    ):
        m = measure(lambda s=sighting: table.sight_matrices(side_a, side_b, stands, s, rules))
        rows.append(
            {"column": column, "stands_per_side": per_side, "sight_lines": 2 * per_side**2, **m}
        )
    return rows


def _paths(per_side: int, n: int) -> list[tuple[StandPose, list[tuple[float, float]]]]:
    """``n`` 10" paths of two legs, each from a side A stand (cycling through them)."""
    rng = np.random.default_rng(7)
    side_a, _, _ = _sides(per_side)
    out = []
    for k in range(n):
        s = side_a[k % len(side_a)]
        a1, a2 = rng.uniform(-math.pi / 2, math.pi / 2, 2)  # towards the enemy, more or less
        l1 = rng.uniform(2, 8)
        mid = (s.x + l1 * math.cos(a1), s.y + l1 * math.sin(a1))
        end = (mid[0] + (PATH_IN - l1) * math.cos(a2), mid[1] + (PATH_IN - l1) * math.sin(a2))
        out.append((s, [(s.x, s.y), mid, end]))
    return out


def path_rows(per_side: int) -> list[Row]:
    """Row "path_10in": one 10" path walked in 0.5" steps with unlimited movement points, the
    enemy footprints barring the way (mean over a batch of paths, per path)."""
    table, _ = bench_table()
    _, side_b, _ = _sides(per_side)
    enemy = [footprint(s.x, s.y, s.facing_deg) for s in side_b]
    paths = _paths(per_side, SETTINGS["paths"])

    def batch() -> None:
        for _, p in paths:
            table.walk(p, 1e9, free_in=0.0, no_pass=enemy)

    m = measure(batch)
    # times per path; the peak is the batch's, which is one path's (nothing is kept between)
    per = {k: round(v / len(paths), 4) for k, v in m.items() if k.endswith("_ms")}
    row = {"column": "path_10in", "stands_per_side": per_side, "paths": len(paths), **m, **per}
    row["batch_median_ms"] = m["median_ms"]
    return [row]


def geometry_rows(per_side: int) -> list[Row]:
    """The geometry's rows for ``per_side`` stands a side: the sight matrices and the path."""
    return sight_matrix_rows(per_side) + path_rows(per_side)


AI_TURNS = 4  # turns of a veteran-vs-veteran battle per size: the forces are in contact by then


def ai_rows(per_side: int) -> list[Row]:
    """Row "ai_decision": the scripted veteran's decision times over the first ``AI_TURNS``
    turns of a battle with ``per_side`` stands a side (``tools/bench/bench_ai.py``'s scaled
    scenario, seed 1): median (p50), p95 and max of every decision, the posture decisions'
    p95, and the tracemalloc peak of one decision (the largest over turn ``AI_TURNS``, played
    again with tracing on; tracing slows it, so the times come from the untraced run)."""
    import bench_ai

    from game import Battle
    from game.ai import player_seed
    from game.ai.scripted import ScriptedAI

    r = bench_ai.decision_times(per_side, seed=1, turns=AI_TURNS)
    every, posture = r["decisions"]["all"], r["decisions"]["posture"]
    battle = Battle(bench_ai.scaled_scenario(per_side), 1)
    players = {
        side: ScriptedAI(player_seed(1, i), "veteran") for i, side in enumerate(battle.sides)
    }
    peak = 0
    while not battle.finished and battle.state.turn <= AI_TURNS:
        traced = battle.state.turn == AI_TURNS
        if traced:
            tracemalloc.start()
        action = players[battle.to_act].choose(battle)
        if traced:
            peak = max(peak, tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
        battle.apply(action)
    return [
        {
            "column": "ai_decision",
            "stands_per_side": per_side,
            "turns": AI_TURNS,
            "decisions": every["n"],
            "median_ms": every["p50_ms"],
            "p95_ms": every["p95_ms"],
            "max_ms": every["max_ms"],
            "posture_p95_ms": posture["p95_ms"],
            "peak_mb": round(peak / 2**20, 2),
        },
        {  # the p95 as a column of its own, for the table and the plot
            "column": "ai_decision_p95",
            "stands_per_side": per_side,
            "median_ms": every["p95_ms"],
            "peak_mb": round(peak / 2**20, 2),
        },
    ]


# every column: a function of a stands-per-side number returning rows (dicts with at least
# "column", "stands_per_side", "median_ms" and "peak_mb"); add another by appending to it
COLUMNS: list[Callable[[int], list[Row]]] = [geometry_rows, ai_rows]


def with_ratios(rows: list[Row]) -> list[Row]:
    """Add to each row its time and memory over its column's smallest size (same run)."""
    first: dict[str, Row] = {}
    for r in sorted(rows, key=lambda r: r["stands_per_side"]):
        base = first.setdefault(r["column"], r)
        r["time_x_smallest"] = round(r["median_ms"] / base["median_ms"], 2)
        r["peak_x_smallest"] = round(r["peak_mb"] / max(base["peak_mb"], 1e-9), 2)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10,20,40,120", help="stands a side, comma-separated")
    ap.add_argument(
        "--matrix-only", default="240", help="sizes for the sight matrix alone ('' for none)"
    )
    ap.add_argument("--quick", action="store_true", help="fewer repeats (a smoke run)")
    args = ap.parse_args()
    if args.quick:
        SETTINGS.update(repeats_target_s=0.2, max_repeats=5, min_repeats=1, paths=40)
    sizes = [int(v) for v in args.sizes.split(",") if v]
    extra = [int(v) for v in args.matrix_only.split(",") if v]

    t0 = time.perf_counter()
    bench_table()
    rows: list[Row] = []
    for n in sizes:
        for column in COLUMNS:
            rows += column(n)
            print(f"{n:4d} a side: {column.__name__} done", file=sys.stderr, flush=True)
    for n in extra:
        rows += sight_matrix_rows(n)
        print(f"{n:4d} a side: sight matrix done", file=sys.stderr, flush=True)
    with_ratios(rows)
    for r in rows:
        print(
            f"{r['column']:24s} {r['stands_per_side']:4d} a side  {r['median_ms']:10.3f} ms  "
            f"(x{r['time_x_smallest']:<7})  peak {r['peak_mb']:8.2f} MiB"
        )
    result = {
        "bench": "scaling",
        "python": platform.python_version(),
        "shapely": shapely.__version__,
        "numpy": np.__version__,
        "table_in": [W, D],
        "terrain_polygons": sum(1 for f in bench_table()[0].features if f.kind != "hill"),
        "sighting_in": SIGHTING_IN,
        "unlimited_sighting_in": UNLIMITED_IN,
        "wall_s": round(time.perf_counter() - t0, 1),
        "rows": rows,
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
