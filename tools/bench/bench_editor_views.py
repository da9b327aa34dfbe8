"""Benchmark of the map editor's balance views (game/editor/analysis.py).

Builds, from a seed, a 72"x48" Modern scenario with 300 terrain polygons (290 irregular areas
1-4" across of nine types, impassable ground among them, and 5 two-level hills), three roads
and 40 stands a side in their 6" entry strips (A enters from the left, B from the right), then
times, as the median of repeated runs:

- ``map_statistics`` on the scenario's JSON;
- ``sight_coverage`` of each side at 0.5" (13,824 cells) with the default observer spacing;
- ``movement_cost_field`` of each side at 0.5", tracked;
- the same two views for sides with no entry edge (their zone is then half the table).

Targets: each sight coverage and each cost field <= 2 s. With ``--reference`` it also measures
how faithful the default observer spacing is: the share of the ground seen from observers
every 0.5" (the finest spacing that is still a stand's width apart) that the default misses.
Prints its figures as one JSON object on its last line.

Run: python tools/bench/bench_editor_views.py [--seed S] [--repeats N] [--reference]
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import shapely
from shapely.geometry import Polygon, mapping

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from game import (  # noqa: E402
    load_rules_data,
    parse_scenario,
)
from game.editor.analysis import (  # noqa: E402
    OBSERVER_SPACING_IN,
    dead_ground,
    map_statistics,
    movement_cost_field,
    sight_coverage,
)
from game.editor.regions import table_copy  # noqa: E402

W, D = 72.0, 48.0
TARGET_S = 2.0
KINDS = (
    ["woods"] * 6
    + ["grove"] * 2
    + ["light_buildings", "heavy_buildings", "marsh", "rough_1", "rough_2", "rough_3"]
    + ["impassable"]
)


def _feature(kind: str, geom, level: int | None = None) -> dict:
    props: dict = {"terrain": kind}
    if level is not None:
        props["level"] = level
    g = mapping(geom)
    return {"type": "Feature", "properties": props, "geometry": json.loads(json.dumps(g))}


def make_scenario(seed: int, n_areas: int = 290, n_hills: int = 5, per_side: int = 40) -> dict:
    """A valid 72"x48" Modern scenario (JSON dict) with ``n_areas`` + 2 x ``n_hills``
    terrain polygons, three roads and ``per_side`` stands a side, the same for the same seed."""
    rng = np.random.default_rng(seed)
    feats: list[dict] = []
    placed: list[Polygon] = []
    impassable: list[Polygon] = []
    while len(placed) < n_areas:
        cx, cy = rng.uniform(2, W - 2), rng.uniform(2, D - 2)
        r = rng.uniform(0.5, 2.0)
        k = int(rng.integers(5, 9))
        ang = np.sort(rng.uniform(0, 2 * math.pi, k))
        rad = r * rng.uniform(0.6, 1.0, k)
        pts = np.round(np.c_[cx + rad * np.cos(ang), cy + rad * np.sin(ang)], 3)
        poly = Polygon(pts)
        if not poly.is_valid or poly.area < 0.2 or any(poly.intersects(p) for p in placed):
            continue
        placed.append(poly)
        kind = str(rng.choice(KINDS))
        if kind == "impassable":
            impassable.append(poly)
        feats.append(_feature(kind, poly))
    for _ in range(n_hills):
        cx, cy = round(rng.uniform(10, W - 10), 2), round(rng.uniform(7, D - 7), 2)
        feats.append(_feature("hill", shapely.box(cx - 5, cy - 3.5, cx + 5, cy + 3.5), 1))
        feats.append(_feature("hill", shapely.box(cx - 2, cy - 1.5, cx + 2, cy + 1.5), 2))
    roads = [
        ("good_road", [(0, 20), (24, 23), (48, 25), (72, 28)]),
        ("poor_road", [(10, 0), (18, 24), (14, 48)]),
        ("track", [(40, 48), (52, 30), (62, 0)]),
    ]
    for kind, line in roads:
        feats.append(
            {
                "type": "Feature",
                "properties": {"terrain": kind},
                "geometry": {"type": "LineString", "coordinates": [list(p) for p in line]},
            }
        )
    blocked = shapely.union_all(impassable) if impassable else shapely.Point(-9, -9)
    stands = []
    for side, unit, x_lo in (("A", "T-80U / AT-11", 0.5), ("B", "M1A2 Abrams", W - 6.0)):
        spots = [
            (x_lo + 1.5 * i, 0.75 + 1.5 * j)
            for i in range(4)
            for j in range(31)
            if not blocked.intersects(shapely.Point(x_lo + 1.5 * i, 0.75 + 1.5 * j))
        ]
        pick = rng.choice(len(spots), per_side, replace=False)
        for n, p in enumerate(sorted(int(q) for q in pick)):
            x, y = spots[p]
            stands.append(
                {
                    "id": f"{side}{n + 1}",
                    "side": side,
                    "unit": unit,
                    "x": round(x, 3),
                    "y": round(y, 3),
                    "facing_deg": 0 if side == "A" else 180,
                    "group": str(n // 10 + 1),
                    "ghq": n == 0,
                }
            )
    return {
        "format": "hulldown-scenario/1",
        "title": f"bench {seed}",
        "ruleset": "modern",
        "table": {"width": W, "depth": D},
        "max_sighting_in": 30,
        "turns": 12,
        "terrain": {"type": "FeatureCollection", "features": feats},
        "sides": [
            {"id": "A", "name": "Force 1", "cohesion": 15, "generation": 3, "entry_edge": "left"},
            {"id": "B", "name": "Force 2", "cohesion": 16, "generation": 3, "entry_edge": "right"},
        ],
        "stands": stands,
    }


def timed(fn, repeats: int) -> tuple[float, object]:
    """Median wall time (seconds) of ``repeats`` calls and the last result."""
    times, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def _spacing_check(sc, default_cov, sc_zone, zone_cov) -> dict:
    """How much ground the default observers miss: against observers every 0.5" over the
    entry strip, and every 1" over the half-table zone (no cap on their number), the share of
    the reference's seen cells that coarser spacings do not see."""
    out: dict = {}
    for name, scen, base, ref_spacing, spacings in (
        ("entry_strip", sc, default_cov, 0.5, (OBSERVER_SPACING_IN, 1.5, 2.0)),
        ("half_table", sc_zone, zone_cov, 1.0, (zone_cov.observer_spacing_in, 3.0)),
    ):
        t0 = time.perf_counter()
        ref = sight_coverage(scen, "A", observer_spacing_in=ref_spacing, max_observers=10**6)
        row: dict = {
            "reference_spacing_in": ref_spacing,
            "reference_observers": len(ref.observers),
            "reference_s": round(time.perf_counter() - t0, 2),
            "reference_seen_pct": round(100 * ref.seen_fraction, 2),
        }
        for spacing in spacings:
            cov = (
                base
                if spacing == base.observer_spacing_in
                else sight_coverage(scen, "A", observer_spacing_in=spacing)
            )
            missed = int((ref.seen & ~cov.seen).sum())
            row[f"missed_pct_at_{cov.observer_spacing_in:.3g}in"] = round(
                100 * missed / max(int(ref.seen.sum()), 1), 2
            )
        out[name] = row
    return out


def main(argv: list[str] | None = None) -> dict:
    """Run the benchmark and print its figures; returns them."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--reference", action="store_true", help="measure the observer spacing")
    args = ap.parse_args(argv)

    data = load_rules_data()
    raw = make_scenario(args.seed)
    sc = parse_scenario(raw, "bench.json", data)
    out: dict = {
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
        "map": {
            "size_in": [W, D],
            "polygons": sum(f["geometry"]["type"] == "Polygon" for f in raw["terrain"]["features"]),
            "stands_per_side": len(raw["stands"]) // 2,
            "cells": int(math.ceil(W / 0.5) * math.ceil(D / 0.5)),
        },
        "repeats": args.repeats,
    }
    t, stats = timed(lambda: map_statistics(raw, data), args.repeats)
    out["map_statistics_s"] = round(t, 4)
    out["map"]["woods_pct"] = round(stats.table.area_pct.get("woods", 0.0), 2)
    out["map"]["points"] = {f.side_id: f.points for f in stats.forces}
    t, _ = timed(lambda: table_copy(sc.table), args.repeats)
    out["table_copy_s"] = round(t, 4)

    cover, cost, seen = {}, {}, {}
    for side in ("A", "B"):
        t, cov = timed(lambda s=side: sight_coverage(sc, s), args.repeats)
        seen[side] = cov
        cover[side] = {
            "s": round(t, 3),
            "observers": len(cov.observers),
            "observer_spacing_in": round(cov.observer_spacing_in, 3),
            "seen_pct": round(100 * cov.seen_fraction, 2),
            "far_half_seen_pct": round(100 * cov.far_half_seen_fraction, 2),
        }
        t, field = timed(lambda s=side: movement_cost_field(sc, s), args.repeats)
        finite = field.cost[np.isfinite(field.cost)]
        cost[side] = {
            "s": round(t, 3),
            "reachable_pct": round(100 * field.reachable_fraction, 2),
            "max_mp": round(float(finite.max()), 2),
        }
    out["sight_coverage"] = cover
    out["dead_ground_pct"] = round(100 * float(dead_ground(seen["A"], seen["B"]).mean()), 2)
    out["movement_cost_field"] = cost

    # sides with no entry edge: the zone is the half of the table nearer their stands
    raw_zone = copy.deepcopy(raw)
    for s in raw_zone["sides"]:
        s["entry_edge"] = None
    sc_zone = parse_scenario(raw_zone, "bench-zone.json", data)
    t_cov, cov_zone = timed(lambda: sight_coverage(sc_zone, "A"), args.repeats)
    t_cost, _ = timed(lambda: movement_cost_field(sc_zone, "A"), args.repeats)
    out["half_table_zone"] = {
        "sight_coverage_s": round(t_cov, 3),
        "observers": len(cov_zone.observers),
        "observer_spacing_in": round(cov_zone.observer_spacing_in, 3),
        "movement_cost_field_s": round(t_cost, 3),
    }

    if args.reference:
        out["observer_spacing_check"] = _spacing_check(sc, seen["A"], sc_zone, cov_zone)

    worst = max(
        [v["s"] for v in cover.values()] + [v["s"] for v in cost.values()] + [t_cov, t_cost]
    )
    out["targets"] = {
        "sight_coverage_le_2s": all(v["s"] <= TARGET_S for v in cover.values()),
        "movement_cost_field_le_2s": all(v["s"] <= TARGET_S for v in cost.values()),
        "half_table_zone_le_2s": t_cov <= TARGET_S and t_cost <= TARGET_S,
        "worst_s": round(worst, 3),
    }
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
