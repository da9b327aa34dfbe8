"""Benchmark of the table geometry: the full sight matrix and path costing.

On a generated 72"x48" map with 300 terrain polygons (and 10 hills) and 60 stands a side:
- the sight matrix, every stand to every enemy in both directions (7,200 sight lines: clear,
  range, aspect), timed over repeated runs, against two baselines in the same run:
  - the naive one (unprepared Shapely, 120 footprints rebuilt and every polygon and every stand
    tested for every pair, even those beyond sighting distance, no early exit; timed on a
    sample of pairs and scaled to the full matrix, its answers checked against the matrix's).
    It flatters the matrix: nobody would write it so;
  - a competent unindexed one (``CompetentSight``: footprints and areas built and prepared
    once, pairs beyond sighting distance skipped, stopping at the first blocker), run on every
    pair both ways and checked against the matrix (disagreements counted), with the 30"
    sighting distance and with an unlimited one;
- 1,000 random 10" paths costed in 0.5" steps.

Targets (issue "The table", #25): sight matrix median <= 15 ms and >= 20x faster than each
baseline, with 0 disagreements; one 10" path <= 0.5 ms. Prints its figures as one JSON object
on its last line.

Run: python tools/bench_geometry.py [--repeats N] [--sample N] [--competent-repeats N]
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
    STAND_SIZE_IN,
    StandPose,
    Table,
    TerrainFeature,
    footprint,
    load_rules_data,  # noqa: E402
    overlaps,
)

W, D = 72.0, 48.0
HALF = STAND_SIZE_IN / 2
TOUCH_IN = 1e-9  # a sight line this close to a stand's footprint touches it (the rules' figure)
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


class CompetentSight:
    """Sight the way a competent programmer would without a spatial index: every footprint and
    area built and prepared once (``shapely.prepare``), sighting distance checked first (pairs
    beyond it are skipped), then stands, hills and blocking areas each tested in turn, stopping
    at the first that blocks. The rules are those of ``Table.sight_matrix`` (inches)."""

    def __init__(self, table: Table, stands, rules) -> None:
        self.table, self.rules = table, rules
        self.blockers = [s for s in stands if not s.wreck]
        self.fp = {s.id: footprint(s.x, s.y, s.facing_deg) for s in stands}
        self.level = {s.id: table.ground_level(s.x, s.y) for s in stands}
        self.hills = [(f.geometry, f.level) for f in table.features if f.kind == "hill"]
        self.areas = [
            f.geometry
            for f in table.features
            if f.kind != "hill" and table.terrain_types[f.kind].blocks_sight
        ]
        for g in [*self.fp.values(), *(h for h, _ in self.hills), *self.areas]:
            shapely.prepare(g)

    def clear(self, f: StandPose, t: StandPose, sighting: float) -> bool:
        """True when ``f`` sees ``t`` within ``sighting`` inches (plus the hill bonus)."""
        if f.id == t.id:
            return False
        dx, dy = t.x - f.x, t.y - f.y
        dist = math.hypot(dx, dy)
        f_lvl = self.level[f.id]
        reach = sighting + self.rules.sight_bonus_per_level_in * max(f_lvl, 0)
        if dist > reach + 1e-9:
            return False  # beyond sighting distance: no geometry at all
        ux, uy = dx / dist, dy / dist

        def exit_t(facing: float) -> float:  # centre to the edge of a footprint along (ux, uy)
            c, s = math.cos(math.radians(facing)), math.sin(math.radians(facing))
            return HALF / max(abs(ux * c + uy * s), abs(-ux * s + uy * c))

        t1, t2 = exit_t(f.facing_deg), exit_t(t.facing_deg)
        if t1 + t2 >= dist - 1e-12:
            return True  # the footprints leave no line between them: nothing can block it
        line = LineString([(f.x + ux * t1, f.y + uy * t1), (t.x - ux * t2, t.y - uy * t2)])
        ff, tf = self.fp[f.id], self.fp[t.id]
        for s in self.blockers:
            if s.id in (f.id, t.id) or not shapely.dwithin(self.fp[s.id], line, TOUCH_IN):
                continue
            fs = self.fp[s.id]
            if overlaps(fs, ff) or overlaps(fs, tf):
                continue  # shares a place with the firer or the target
            if self.rules.friendly_see_over and s.side == f.side and f_lvl > self.level[s.id]:
                continue
            return False
        t_lvl = self.level[t.id]
        for g, lvl in self.hills:
            if (
                g.intersects(line)
                and line.intersection(g).length > LENGTH_EPS_IN
                and not (
                    g.intersects(shapely.Point(f.x, f.y)) or g.intersects(shapely.Point(t.x, t.y))
                )
                and max(f_lvl, t_lvl) <= lvl
            ):
                return False
        for g in self.areas:
            if g.intersects(line) and line.intersection(g).length > LENGTH_EPS_IN:
                if (f.in_clear and g.intersects(shapely.Point(f.x, f.y))) or (
                    t.in_clear and g.intersects(shapely.Point(t.x, t.y))
                ):
                    continue
                return False
        return True


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=40)
    ap.add_argument("--sample", type=int, default=150, help="pairs timed for the baseline")
    ap.add_argument("--paths", type=int, default=1000)
    ap.add_argument(
        "--competent-repeats", type=int, default=5, help="runs of the competent baseline"
    )
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

    # the competent unindexed baseline on every pair both ways, checked against the matrix
    competent = CompetentSight(table, stands, rules)

    def competent_run(reach: float, mats) -> int:
        wrong = 0
        for i, a in enumerate(side_a):
            for j, b in enumerate(side_b):
                wrong += competent.clear(a, b, reach) != bool(mats[0].clear[i, j])
                wrong += competent.clear(b, a, reach) != bool(mats[1].clear[j, i])
        return wrong

    def competent_timed(reach: float, runs: int) -> tuple[int, float]:
        """Disagreements with the matrix at ``reach``, and the median time (ms) of ``runs``."""
        wrong = competent_run(reach, table.sight_matrices(side_a, side_b, stands, reach, rules))
        out = []
        for _ in range(runs):
            t = time.perf_counter()
            competent_run(reach, (ab, ba))  # the check against the matrix is part of the loop
            out.append((time.perf_counter() - t) * 1000)
        return wrong, statistics.median(out)

    competent_disagree, competent_ms = competent_timed(sighting, args.competent_repeats)
    competent_unl_disagree, competent_unl_ms = competent_timed(
        1000.0, max(1, args.competent_repeats // 2)
    )
    # the matrices again, right after, so that both sides of each ratio see the same machine
    times += timed(full_matrix)
    median_ms = statistics.median(times)
    unlimited += timed(lambda: table.sight_matrices(side_a, side_b, stands, 1000.0, rules))

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
        "competent_baseline_pairs": pairs,
        "competent_baseline_disagreements": competent_disagree,
        "competent_baseline_median_ms": round(competent_ms, 1),
        "speedup_vs_competent": round(competent_ms / median_ms, 1),
        "competent_baseline_unlimited_sighting_disagreements": competent_unl_disagree,
        "competent_baseline_unlimited_sighting_median_ms": round(competent_unl_ms, 1),
        "speedup_vs_competent_unlimited_sighting": round(
            competent_unl_ms / statistics.median(unlimited), 1
        ),
        "paths": len(paths),
        "path_cost_mean_ms": round(path_ms, 4),
        "path_mp_mean": round(float(np.mean(spent)), 2),
        "targets_met": bool(
            median_ms <= 15
            and baseline_ms / median_ms >= 20
            and competent_ms / median_ms >= 20
            and path_ms <= 0.5
            and disagree == 0
            and competent_disagree == 0
            and competent_unl_disagree == 0
        ),
    }
    print(
        f"sight matrix {median_ms:.2f} ms median for {pairs} lines; baseline "
        f"{baseline_ms:.0f} ms ({result['speedup']}x); competent baseline {competent_ms:.0f} ms "
        f"({result['speedup_vs_competent']}x, {competent_disagree} disagreements); "
        f"path {path_ms:.3f} ms"
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
