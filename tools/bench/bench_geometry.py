"""Benchmark of the table geometry: the full sight matrix against a vectorised baseline, and
path costing.

On a generated 72"x48" map with 300 terrain polygons (292 areas and four two-level hills) and
60, 120 and 240 stands a side (``stands_for``: the same stands as ``tools/bench/bench_scaling.py``):
- the sight matrix, every stand to every enemy in both directions (clear, range, aspect), with
  the 30" sighting distance and with an unlimited one, against the vectorised baseline
  (``VectorisedSight``: numpy segments, one ``shapely.linestrings`` call, one STRtree bulk
  query per blocker kind, bounding-circle culling, every kind asked about every line). The two
  are timed in the same run, alternately (each repeat times both, in turn order swapped every
  repeat), so the ratio of their medians sees the same machine; every pair is compared both
  ways and the disagreements counted;
- at 60 a side, the per-pair loop (``CompetentSight``: one Shapely call per blocker, prepared
  geometry, stopping at the first blocker), an independent check of the answers (it reads the
  rule's "inside for more than 1e-6 inch" literally) and of how far a Python loop is;
- the peak memory (tracemalloc) of one matrix call at 240 a side, unlimited sighting;
- 1,000 random 10" paths costed in 0.5" steps.

Targets (#25, #30): sight matrix at 60 a side, 30", median <= 15 ms; >= 2x the vectorised
baseline at 120 and 240 a side (both sightings); 0 disagreements; one 10" path <= 0.5 ms;
peak memory <= 100 MB. The machine's load average is printed with the figures. Prints its
figures as one JSON object on its last line.

Run: python tools/bench/bench_geometry.py [--repeats N] [--sizes 60,120,240] [--loop-repeats N]
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import platform
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import shapely
from shapely import STRtree
from shapely.geometry import LineString, Polygon

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from game import (  # noqa: E402
    LENGTH_EPS_IN,
    OVERLAP_SQ_IN,
    STAND_SIZE_IN,
    StandPose,
    Table,
    TerrainFeature,
    footprint,
    footprints,
    load_rules_data,
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


def stands_for(per_side: int) -> list[StandPose]:
    """``per_side`` stands a side scattered without overlapping, the same for a given number in
    every run (and in ``tools/bench/bench_scaling.py``)."""
    return make_stands(np.random.default_rng(1000 + per_side), per_side)


def seg_point_dist(x0, y0, x1, y1, px, py):
    """Distance (inches) from points (px, py) to segments (x0, y0)-(x1, y1): numpy arrays that
    broadcast together."""
    dx, dy = x1 - x0, y1 - y0
    len2 = dx * dx + dy * dy
    t = np.clip(((px - x0) * dx + (py - y0) * dy) / np.where(len2 > 0, len2, 1.0), 0.0, 1.0)
    return np.hypot(x0 + t * dx - px, y0 + t * dy - py)


class VectorisedSight:
    """Sight as a competent engineer writes it with numpy and Shapely 2, without the engine's
    staged culling: every blocker kind is asked about every line in sight.

    Built once per table: an STRtree of the hills and one of the blocking areas, each shrunk by
    half the 1e-6" length tolerance so that ``intersects`` means "runs inside for more than
    1e-6"", and each area's bounding circle. :meth:`clear` takes every pair within sighting
    distance (numpy), makes every sight segment (centre to centre less both footprints) in one
    ``shapely.linestrings`` call, and asks each blocker kind once over all the lines with an
    STRtree bulk query: stands (their bounding circles' boxes, the circles culled with numpy,
    then ``dwithin`` 1e-9" of the footprints), hills (``intersects``) and areas (boxes, circles,
    then ``intersects``). The rules are those of ``Table.sight_matrices`` (000 07.01, 001 6.1;
    rules-decisions "Line of sight", "Hills"); the cheapest of the query forms was kept for each
    kind (a ``dwithin`` or ``intersects`` predicate in the query itself was slower).
    """

    def __init__(self, table: Table, rules) -> None:
        self.rules = rules
        shrink = LENGTH_EPS_IN / 2
        hills = [f for f in table.features if f.kind == "hill"]
        self.hill_geoms = np.array([f.geometry for f in hills], dtype=object)
        self.hill_levels = np.array([f.level for f in hills], dtype=int)
        self.hill_tree = STRtree(self.hill_geoms)
        self.hill_shrunk_tree = STRtree(
            shapely.buffer(self.hill_geoms, -shrink, join_style="mitre")
        )
        areas = [
            f
            for f in table.features
            if f.kind != "hill"
            and table.terrain_types[f.kind].geometry == "area"
            and table.terrain_types[f.kind].blocks_sight
        ]
        self.area_geoms = np.array([f.geometry for f in areas], dtype=object)
        self.area_shrunk = shapely.buffer(self.area_geoms, -shrink, join_style="mitre")
        self.area_tree = STRtree(self.area_shrunk)
        centre = shapely.centroid(self.area_shrunk)
        self.area_cx, self.area_cy = shapely.get_x(centre), shapely.get_y(centre)
        self.area_r = np.array(
            [
                np.max(np.hypot(*(shapely.get_coordinates(g) - [cx, cy]).T)) + 1e-9
                for g, cx, cy in zip(self.area_shrunk, self.area_cx, self.area_cy, strict=True)
            ]
        )
        for g in (self.hill_geoms, self.area_geoms, self.area_shrunk):
            shapely.prepare(g)

    def levels(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Ground level at each point (shape (n,)): the highest hill holding it, else 0."""
        out = np.zeros(len(x), dtype=int)
        if len(self.hill_geoms):
            pi, hi = self.hill_tree.query(shapely.points(x, y), predicate="intersects")
            np.maximum.at(out, pi, self.hill_levels[hi])
        return out

    def clear(self, side_a, side_b, stands, sighting_in: float) -> tuple[np.ndarray, np.ndarray]:
        """Whether each stand of ``side_a`` sees each of ``side_b`` and the reverse, within
        ``sighting_in`` inches (plus the hill bonus): boolean arrays of shape
        (len(side_a), len(side_b)) and (len(side_b), len(side_a)). ``stands``: every stand on
        the table (wrecks never block)."""
        rules = self.rules
        a_x, a_y = np.array([p.x for p in side_a]), np.array([p.y for p in side_a])
        b_x, b_y = np.array([p.x for p in side_b]), np.array([p.y for p in side_b])
        a_f = np.array([p.facing_deg for p in side_a], dtype=float)
        b_f = np.array([p.facing_deg for p in side_b], dtype=float)
        a_lvl, b_lvl = self.levels(a_x, a_y), self.levels(b_x, b_y)
        bonus = rules.sight_bonus_per_level_in
        a_reach = sighting_in + bonus * np.maximum(a_lvl, 0)
        b_reach = sighting_in + bonus * np.maximum(b_lvl, 0)
        dx = b_x[None, :] - a_x[:, None]
        dy = b_y[None, :] - a_y[:, None]
        dist = np.hypot(dx, dy)
        b_ids = [q.id for q in side_b]
        same = np.array([[p.id == q for q in b_ids] for p in side_a], dtype=bool).reshape(
            dist.shape
        )
        fwd = (dist <= a_reach[:, None] + 1e-9) & ~same
        rev = (dist <= b_reach[None, :] + 1e-9) & ~same
        i, j = np.nonzero(fwd | rev)
        d = dist[i, j]
        with np.errstate(invalid="ignore", divide="ignore"):  # d = 0: no line, dropped below
            ux, uy = dx[i, j] / d, dy[i, j] / d

            def exit_t(facing):  # centre to the edge of a footprint along (ux, uy)
                c, s = np.cos(np.radians(facing)), np.sin(np.radians(facing))
                return HALF / np.maximum(np.abs(ux * c + uy * s), np.abs(-ux * s + uy * c))

            t1, t2 = exit_t(a_f[i]), exit_t(b_f[j])
        has = (d > 1e-12) & (t1 + t2 < d - 1e-12)  # else the footprints leave no line
        i, j, ux, uy, t1, t2 = i[has], j[has], ux[has], uy[has], t1[has], t2[has]
        x0, y0 = a_x[i] + ux * t1, a_y[i] + uy * t1
        x1, y1 = b_x[j] - ux * t2, b_y[j] - uy * t2
        lines = shapely.linestrings(np.stack([np.c_[x0, y0], np.c_[x1, y1]], axis=1))
        blk_f = np.zeros(len(i), dtype=bool)
        blk_r = np.zeros(len(i), dtype=bool)

        live = [p for p in stands if not p.wreck]
        if live:  # stands the line touches, not the firer or the target
            s_x, s_y = np.array([p.x for p in live]), np.array([p.y for p in live])
            s_lvl = self.levels(s_x, s_y)
            s_side = np.array([p.side for p in live], dtype=object)
            fps = footprints(live)
            r = HALF * math.sqrt(2) + 2e-9  # a footprint's bounding circle, a hair wider
            li, si = STRtree(shapely.box(s_x - r, s_y - r, s_x + r, s_y + r)).query(lines)
            ids = {p.id: k for k, p in enumerate(live)}
            a_k = np.array([ids.get(p.id, -1) for p in side_a])
            b_k = np.array([ids.get(p.id, -1) for p in side_b])
            keep = (si != a_k[i[li]]) & (si != b_k[j[li]])
            keep[keep] = (
                seg_point_dist(
                    x0[li[keep]],
                    y0[li[keep]],
                    x1[li[keep]],
                    y1[li[keep]],
                    s_x[si[keep]],
                    s_y[si[keep]],
                )
                <= r
            )
            li, si = li[keep], si[keep]
            touch = shapely.dwithin(lines[li], fps[si], TOUCH_IN)
            li, si = li[touch], si[touch]
            # a stand sharing the firer's or the target's place does not block their line
            shared = np.zeros(len(li), dtype=bool)
            for ends, ex, ey in (
                (footprints(list(side_a))[i[li]], a_x[i[li]], a_y[i[li]]),
                (footprints(list(side_b))[j[li]], b_x[j[li]], b_y[j[li]]),
            ):
                near = np.hypot(s_x[si] - ex, s_y[si] - ey) < 2 * r
                if near.any():
                    cut = shapely.intersection(fps[si[near]], ends[near])
                    shared[near] |= shapely.area(cut) > OVERLAP_SQ_IN
            li, si = li[~shared], si[~shared]
            f_blk = np.ones(len(li), dtype=bool)
            r_blk = f_blk.copy()
            if rules.friendly_see_over:  # not a friendly stand lower than the firer
                a_side = np.array([p.side for p in side_a], dtype=object)[i[li]]
                b_side = np.array([p.side for p in side_b], dtype=object)[j[li]]
                f_blk = ~((s_side[si] == a_side) & (a_lvl[i[li]] > s_lvl[si]))
                r_blk = ~((s_side[si] == b_side) & (b_lvl[j[li]] > s_lvl[si]))
            blk_f[li[f_blk]] = True
            blk_r[li[r_blk]] = True

        if len(self.hill_geoms):  # crossed, unless an end is on that hill or above its level
            li, hi = self.hill_shrunk_tree.query(lines, predicate="intersects")
            g = self.hill_geoms[hi]
            on = shapely.intersects_xy(g, a_x[i[li]], a_y[i[li]])
            on |= shapely.intersects_xy(g, b_x[j[li]], b_y[j[li]])
            up = (a_lvl[i[li]] > self.hill_levels[hi]) | (b_lvl[j[li]] > self.hill_levels[hi])
            blk_f[li[~(on | up)]] = True
            blk_r[li[~(on | up)]] = True

        if len(self.area_geoms):  # unless an end counting as in the clear is inside the area
            li, ai = self.area_tree.query(lines)
            near = (
                seg_point_dist(x0[li], y0[li], x1[li], y1[li], self.area_cx[ai], self.area_cy[ai])
                <= self.area_r[ai]
            )
            li, ai = li[near], ai[near]
            hit = shapely.intersects(self.area_shrunk[ai], lines[li])
            li, ai = li[hit], ai[hit]
            a_clear = np.array([p.in_clear for p in side_a], dtype=bool)[i[li]]
            b_clear = np.array([p.in_clear for p in side_b], dtype=bool)[j[li]]
            skip = np.zeros(len(li), dtype=bool)
            if a_clear.any() or b_clear.any():
                g = self.area_geoms[ai]
                skip = a_clear & shapely.intersects_xy(g, a_x[i[li]], a_y[i[li]])
                skip |= b_clear & shapely.intersects_xy(g, b_x[j[li]], b_y[j[li]])
            blk_f[li[~skip]] = True
            blk_r[li[~skip]] = True

        fwd[i[blk_f], j[blk_f]] = False
        rev[i[blk_r], j[blk_r]] = False
        return fwd, rev.T


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
        if dist <= 1e-12:
            return True  # one place: no line between them to block
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


def _load() -> list[float]:
    """The machine's load averages over 1, 5 and 15 minutes (0s where unknown)."""
    try:
        return [round(v, 2) for v in os.getloadavg()]
    except OSError:
        return [0.0, 0.0, 0.0]


def paired(fn_a, fn_b, repeats: int) -> tuple[list[float], list[float]]:
    """Times (ms) of ``fn_a`` and ``fn_b``, run alternately ``repeats`` times after one warm-up
    each, which goes first swapped every repeat, so both see the same machine."""
    fn_a()
    fn_b()
    ta, tb = [], []
    for k in range(repeats):
        for fn, out in ((fn_a, ta), (fn_b, tb)) if k % 2 == 0 else ((fn_b, tb), (fn_a, ta)):
            t = time.perf_counter()
            fn()
            out.append((time.perf_counter() - t) * 1000)
    return ta, tb


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=20, help="repeats at 60 a side (fewer above)")
    ap.add_argument("--sizes", default="60,120,240", help="stands a side, comma-separated")
    ap.add_argument("--paths", type=int, default=1000)
    ap.add_argument("--loop-repeats", type=int, default=3, help="runs of the per-pair loop")
    args = ap.parse_args()

    load_before = _load()
    data = load_rules_data()
    rules = data.rulesets["modern"]
    t0 = time.perf_counter()
    feats = make_map(np.random.default_rng(20261121))
    table = Table(W, D, feats, data.terrain)
    build_ms = (time.perf_counter() - t0) * 1000
    baseline = VectorisedSight(table, rules)

    rows = []
    for n in [int(v) for v in args.sizes.split(",") if v]:
        stands = stands_for(n)
        side_a = [s for s in stands if s.side == "A"]
        side_b = [s for s in stands if s.side == "B"]
        for sighting, label in ((30.0, "30in"), (1000.0, "unlimited")):
            ab, ba = table.sight_matrices(side_a, side_b, stands, sighting, rules)
            b_ab, b_ba = baseline.clear(side_a, side_b, stands, sighting)
            wrong = int((ab.clear != b_ab).sum() + (ba.clear != b_ba).sum())
            te, tb = paired(
                functools.partial(table.sight_matrices, side_a, side_b, stands, sighting, rules),
                functools.partial(baseline.clear, side_a, side_b, stands, sighting),
                max(3, args.repeats * 60 // n),
            )
            me, mb = statistics.median(te), statistics.median(tb)
            ratios = sorted(b / e for e, b in zip(te, tb, strict=True))
            rows.append(
                {
                    "stands_per_side": n,
                    "sighting": label,
                    "sight_lines": 2 * n * n,
                    "clear_lines": int(ab.clear.sum() + ba.clear.sum()),
                    "repeats": len(te),
                    "engine_median_ms": round(me, 2),
                    "engine_p90_ms": round(float(np.percentile(te, 90)), 2),
                    "baseline_median_ms": round(mb, 1),
                    "speedup": round(mb / me, 2),
                    "speedup_of_repeats_min_max": [round(ratios[0], 2), round(ratios[-1], 2)],
                    "disagreements": wrong,
                }
            )
            r = rows[-1]
            print(
                f"{n:4d} a side, {label:9s}: engine {me:8.2f} ms, baseline {mb:8.1f} ms, "
                f"{r['speedup']:5.2f}x, {wrong} disagreements",
                file=sys.stderr,
                flush=True,
            )

    # the per-pair loop at 60 a side: an independent check of the answers, and its time
    stands = stands_for(60)
    side_a = [s for s in stands if s.side == "A"]
    side_b = [s for s in stands if s.side == "B"]
    loop = CompetentSight(table, stands, rules)
    loop_rows = {}
    for sighting, label in ((30.0, "30in"), (1000.0, "unlimited")):
        ab, ba = table.sight_matrices(side_a, side_b, stands, sighting, rules)
        times, wrong = [], 0
        for _ in range(args.loop_repeats):
            t = time.perf_counter()
            got = [[loop.clear(a, b, sighting) for b in side_b] for a in side_a]
            got_rev = [[loop.clear(b, a, sighting) for a in side_a] for b in side_b]
            times.append((time.perf_counter() - t) * 1000)
            wrong = int((np.array(got) != ab.clear).sum() + (np.array(got_rev) != ba.clear).sum())
        loop_rows[label] = {"median_ms": round(statistics.median(times), 1), "disagreements": wrong}

    # peak memory of one matrix call at the largest size, unlimited sighting
    big = max(r["stands_per_side"] for r in rows)
    stands = stands_for(big)
    side_a = [s for s in stands if s.side == "A"]
    side_b = [s for s in stands if s.side == "B"]
    peaks = {}
    for name, fn in (
        ("engine", lambda: table.sight_matrices(side_a, side_b, stands, 1000.0, rules)),
        ("baseline", lambda: baseline.clear(side_a, side_b, stands, 1000.0)),
    ):
        tracemalloc.start()
        try:
            fn()
            peaks[name] = round(tracemalloc.get_traced_memory()[1] / 2**20, 1)
        finally:
            tracemalloc.stop()

    # paths: 1,000 random 10" paths of two legs
    rng = np.random.default_rng(20261122)
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

    at = {(r["stands_per_side"], r["sighting"]): r for r in rows}
    headline = at.get((60, "30in"))
    result = {
        "bench": "geometry",
        "python": platform.python_version(),
        "shapely": shapely.__version__,
        "numpy": np.__version__,
        "cpus": os.cpu_count(),
        "load_average_before": load_before,
        "load_average_after": _load(),
        "table_in": [W, D],
        "terrain_polygons": sum(1 for f in feats if f.kind != "hill"),
        "hill_polygons": sum(1 for f in feats if f.kind == "hill"),
        "table_build_ms": round(build_ms, 2),
        "rows": rows,
        "loop_60_a_side": loop_rows,
        "peak_mib_unlimited": {"stands_per_side": big, **peaks},
        "paths": len(paths),
        "path_cost_mean_ms": round(path_ms, 4),
        "path_mp_mean": round(float(np.mean(spent)), 2),
        "targets_met": bool(
            (headline is None or headline["engine_median_ms"] <= 15)
            and all(r["speedup"] >= 2 for r in rows if r["stands_per_side"] >= 120)
            and all(r["disagreements"] == 0 for r in rows)
            and all(v["disagreements"] == 0 for v in loop_rows.values())
            and peaks["engine"] <= 100
            and path_ms <= 0.5
        ),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
