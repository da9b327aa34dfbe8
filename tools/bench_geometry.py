"""Benchmark of the table geometry: the full sight matrix and path costing.

On a generated 72"x48" map with 300 terrain polygons (and 10 hills) and 60 stands a side:
- the sight matrix, every stand to every enemy in both directions (7,200 sight lines: clear,
  range, aspect), timed over repeated runs, against a naive baseline in the same run
  (unprepared Shapely, every polygon and every stand tested for every pair; timed on a sample of
  pairs and scaled to the full matrix, its answers checked against the matrix's);
- 1,000 random 10" paths costed in 0.5" steps.

Targets (issue "The table"): sight matrix median <= 15 ms and >= 20x faster than the baseline;
one 10" path <= 0.5 ms. Prints its figures as one JSON object on its last line.

Run: python tools/bench_geometry.py [--repeats N] [--sample N]
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import shapely
from shapely.geometry import LineString, Polygon

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game import (  # noqa: E402
    LENGTH_EPS_IN,
    StandPose,
    Table,
    TerrainFeature,
    footprint,
    load_rules_data,  # noqa: E402
    overlaps,
)

W, D = 72.0, 48.0
KINDS = (
    ["woods"] * 5
    + ["grove"] * 2
    + ["light_buildings", "heavy_buildings", "marsh", "rough_2", "rough_3"]
)


def make_map(rng: np.random.Generator, n_polygons: int = 292, n_hills: int = 4):
    """300 terrain polygons: random irregular areas 1-4" across (not overlapping each other)
    and hills of two levels (two polygons each)."""
    feats: list[TerrainFeature] = []
    placed: list[Polygon] = []
    while len(placed) < n_polygons:
        cx, cy = rng.uniform(2, W - 2), rng.uniform(2, D - 2)
        r = rng.uniform(0.5, 2.0)
        k = int(rng.integers(5, 9))
        ang = np.sort(rng.uniform(0, 2 * math.pi, k))
        rad = r * rng.uniform(0.6, 1.0, k)
        poly = Polygon(np.c_[cx + rad * np.cos(ang), cy + rad * np.sin(ang)])
        if not poly.is_valid or any(poly.intersects(p) for p in placed[-60:]):
            continue
        placed.append(poly)
        feats.append(TerrainFeature(str(rng.choice(KINDS)), poly, 0, len(feats)))
    for _ in range(n_hills):
        cx, cy = rng.uniform(8, W - 8), rng.uniform(6, D - 6)
        base = shapely.box(cx - 5, cy - 3.5, cx + 5, cy + 3.5)
        feats.append(TerrainFeature("hill", base, 1, len(feats)))
        feats.append(
            TerrainFeature("hill", shapely.box(cx - 2, cy - 1.5, cx + 2, cy + 1.5), 2, len(feats))
        )
    return feats


def make_stands(rng: np.random.Generator, per_side: int = 60) -> list[StandPose]:
    """Stands of two sides scattered over the table without overlapping."""
    out: list[StandPose] = []
    fps: list[Polygon] = []
    while len(out) < 2 * per_side:
        side = "A" if len(out) < per_side else "B"
        x = rng.uniform(1, W / 2 - 1) if side == "A" else rng.uniform(W / 2 + 1, W - 1)
        p = StandPose(
            f"{side}{len(out)}", side, x, rng.uniform(1, D - 1), float(rng.uniform(0, 360))
        )
        fp = footprint(p.x, p.y, p.facing_deg)
        if any(overlaps(fp, q) for q in fps):
            continue
        out.append(p)
        fps.append(fp)
    return out


def naive_clear(table: Table, f: StandPose, t: StandPose, stands, sighting, rules) -> bool:
    """Sight the slow way: unprepared geometry, every polygon and every stand tested for the
    pair, no early exit."""
    dx, dy = t.x - f.x, t.y - f.y
    dist = math.hypot(dx, dy)
    ff, tf = footprint(f.x, f.y, f.facing_deg), footprint(t.x, t.y, t.facing_deg)
    line = LineString([(f.x, f.y), (t.x, t.y)]).difference(ff).difference(tf)
    lvl = table.ground_level
    f_lvl, t_lvl = lvl(f.x, f.y), lvl(t.x, t.y)
    clear = dist <= sighting + rules.sight_bonus_per_level_in * f_lvl + 1e-9
    if line.is_empty:
        return clear
    for feat in table.features:
        g = feat.geometry
        if feat.kind == "hill":
            inside = line.intersection(g).length > LENGTH_EPS_IN
            if inside and not (
                g.intersects(shapely.Point(f.x, f.y))
                or g.intersects(shapely.Point(t.x, t.y))
                or max(f_lvl, t_lvl) > feat.level
            ):
                return False
        elif (
            table.terrain_types[feat.kind].blocks_sight
            and line.intersection(g).length > LENGTH_EPS_IN
        ):
            return False
    for s in stands:
        if s.id in (f.id, t.id) or s.wreck:
            continue
        if line.distance(footprint(s.x, s.y, s.facing_deg)) <= 1e-9:
            if rules.friendly_see_over and s.side == f.side and f_lvl > lvl(s.x, s.y):
                continue
            clear = False
    return clear


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=40)
    ap.add_argument("--sample", type=int, default=150, help="pairs timed for the baseline")
    ap.add_argument("--paths", type=int, default=1000)
    args = ap.parse_args()

    rng = np.random.default_rng(20261121)
    data = load_rules_data()
    rules = data.rulesets["modern"]
    t0 = time.perf_counter()
    feats = make_map(rng)
    table = Table(W, D, feats, data.terrain)
    build_ms = (time.perf_counter() - t0) * 1000
    stands = make_stands(rng)
    side_a = [s for s in stands if s.side == "A"]
    side_b = [s for s in stands if s.side == "B"]
    sighting = 30.0

    def full_matrix():
        return table.sight_matrices(side_a, side_b, stands, sighting, rules)

    def timed(fn):
        fn()  # warm up
        out = []
        for _ in range(args.repeats):
            t = time.perf_counter()
            fn()
            out.append((time.perf_counter() - t) * 1000)
        return out

    times = timed(full_matrix)
    ab, ba = full_matrix()
    median_ms = statistics.median(times)
    # the same with every pair within sighting distance: no pair is skipped for range
    unlimited = timed(lambda: table.sight_matrices(side_a, side_b, stands, 1000.0, rules))
    pairs = 2 * len(side_a) * len(side_b)

    # baseline on a sample of pairs, checked against the matrix
    idx = rng.choice(len(side_a) * len(side_b), size=args.sample, replace=False)
    t = time.perf_counter()
    disagree = 0
    for k in idx:
        i, j = divmod(int(k), len(side_b))
        if k % 2:  # half the sample each way
            clear = naive_clear(table, side_a[i], side_b[j], stands, sighting, rules)
            disagree += clear != bool(ab.clear[i, j])
        else:
            clear = naive_clear(table, side_b[j], side_a[i], stands, sighting, rules)
            disagree += clear != bool(ba.clear[j, i])
    per_pair_ms = (time.perf_counter() - t) * 1000 / args.sample
    baseline_ms = per_pair_ms * pairs

    # paths: 1,000 random 10" paths of two legs
    paths = []
    for _ in range(args.paths):
        x, y = rng.uniform(12, W - 12), rng.uniform(12, D - 12)
        a1, a2 = rng.uniform(0, 2 * math.pi, 2)
        l1 = rng.uniform(2, 8)
        mid = (x + l1 * math.cos(a1), y + l1 * math.sin(a1))
        end = (mid[0] + (10 - l1) * math.cos(a2), mid[1] + (10 - l1) * math.sin(a2))
        paths.append([(x, y), mid, end])
    t = time.perf_counter()
    spent = [table.walk(p, 1e9, free_in=0).mp_spent for p in paths]
    path_ms = (time.perf_counter() - t) * 1000 / len(paths)

    result = {
        "bench": "geometry",
        "python": platform.python_version(),
        "shapely": shapely.__version__,
        "table_in": [W, D],
        "terrain_polygons": sum(1 for f in feats if f.kind != "hill"),
        "hill_polygons": sum(1 for f in feats if f.kind == "hill"),
        "stands_per_side": len(side_a),
        "table_build_ms": round(build_ms, 2),
        "sight_lines": pairs,
        "clear_fraction": round(float((ab.clear.sum() + ba.clear.sum()) / pairs), 3),
        "sight_matrix_median_ms": round(median_ms, 2),
        "sight_matrix_p90_ms": round(float(np.percentile(times, 90)), 2),
        "sight_matrix_unlimited_sighting_median_ms": round(statistics.median(unlimited), 2),
        "baseline_sample_pairs": args.sample,
        "baseline_disagreements": disagree,
        "baseline_full_matrix_ms": round(baseline_ms, 1),
        "speedup": round(baseline_ms / median_ms, 1),
        "paths": len(paths),
        "path_cost_mean_ms": round(path_ms, 4),
        "path_mp_mean": round(float(np.mean(spent)), 2),
        "targets_met": bool(
            median_ms <= 15 and baseline_ms / median_ms >= 20 and path_ms <= 0.5 and disagree == 0
        ),
    }
    print(
        f"sight matrix {median_ms:.2f} ms median for {pairs} lines; baseline "
        f"{baseline_ms:.0f} ms ({result['speedup']}x); path {path_ms:.3f} ms"
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
