"""The geometry at scale (#25): the stands-in-the-way test of the sight matrix works on the
lines in chunks (so its memory does not grow with lines x stands) and gives the answers of the
whole-array test it replaced; leaving costs (minefields) look only at the areas that have one
and still charge what they did."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from game.rules.table import sight as sight_module
from game.rules.table.geometry import HALF, TOUCH_IN, _seg_point_dist, footprint, overlaps
from tests.conftest import MODERN, WWII, make_table, pose

W, D = 30.0, 20.0
REACH = HALF * math.sqrt(2) + TOUCH_IN + 1e-12
fast = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _whole_array(seg, bx, by, f_b, t_b, reach):
    """The test as it was: every line against every stand in one (lines, stands) array."""
    lx0, ly0, lx1, ly1 = seg
    d = _seg_point_dist(
        lx0[:, None], ly0[:, None], lx1[:, None], ly1[:, None], bx[None, :], by[None, :]
    )
    cols = np.arange(len(bx))[None, :]
    d[(cols == f_b[:, None]) | (cols == t_b[:, None])] = np.inf
    li, si = np.nonzero(d <= reach)
    return li, si, d[li, si]


def _chunked(seg, bx, by, f_b, t_b, reach):
    parts = list(sight_module._near_stands(seg, bx, by, f_b, t_b, reach))
    if not parts:
        return np.zeros(0, int), np.zeros(0, int), np.zeros(0)
    return tuple(np.concatenate([p[k] for p in parts]) for k in range(3))


# coordinates on a sixteenth-inch grid, so stands often lie exactly on a line or at a corner
coord = st.integers(0, 16 * 12).map(lambda v: v / 16)


@fast
@given(
    st.lists(st.tuples(coord, coord, coord, coord), max_size=25),
    st.lists(st.tuples(coord, coord), max_size=20),
    st.integers(1, 40),
    st.randoms(use_true_random=False),
)
def test_near_stands_in_chunks_match_the_whole_array(lines, centres, cells, rnd):
    seg = tuple(np.array([ln[k] for ln in lines], dtype=float) for k in range(4))
    bx = np.array([c[0] for c in centres], dtype=float)
    by = np.array([c[1] for c in centres], dtype=float)
    m = len(centres)
    f_b = np.array([rnd.randrange(-1, m) if m else -1 for _ in lines], dtype=int)
    t_b = np.array([rnd.randrange(-1, m) if m else -1 for _ in lines], dtype=int)
    want = _whole_array(seg, bx, by, f_b, t_b, REACH)
    old = sight_module._CHUNK_CELLS
    try:
        sight_module._CHUNK_CELLS = cells  # many small chunks, down to one line at a time
        got = _chunked(seg, bx, by, f_b, t_b, REACH)
    finally:
        sight_module._CHUNK_CELLS = old
    for w, g in zip(want, got, strict=True):
        assert np.array_equal(w, g)  # the same pairs, in the same order, to the last bit


@st.composite
def layouts(draw):
    """A few woods and hills and up to 14 stands a side that do not overlap, on a 30"x20"
    table; some wrecks, some stands on hills (for seeing over friends)."""
    feats = []
    for _ in range(draw(st.integers(0, 4))):
        x0, y0 = draw(coord), draw(coord)
        w, h = draw(st.integers(4, 40)) / 8, draw(st.integers(4, 40)) / 8
        kind = draw(st.sampled_from(["woods", "hill", "marsh"]))
        feats.append((kind, (x0, y0, x0 + w, y0 + h), 1 if kind == "hill" else 0))
    out, fps = [], []
    for i in range(draw(st.integers(2, 28))):
        side = "A" if i % 2 == 0 else "B"
        x = draw(st.integers(4, 16 * int(W) - 4)) / 16
        y = draw(st.integers(4, 16 * int(D) - 4)) / 16
        facing = draw(st.sampled_from([0.0, 30.0, 45.0, 90.0, 200.0]))
        p = pose(f"{side}{i}", x, y, facing, side=side, wreck=draw(st.booleans()) and i > 3)
        fp = footprint(p.x, p.y, p.facing_deg)
        if any(overlaps(fp, q) for q in fps):
            continue
        out.append(p)
        fps.append(fp)
    assume(any(p.side == "A" for p in out) and any(p.side == "B" for p in out))
    return feats, out


def _one_chunk(seg, bx, by, f_b, t_b, reach):
    li, si, d = _whole_array(seg, bx, by, f_b, t_b, reach)
    if len(li):
        yield li, si, d


@fast
@given(layouts(), st.sampled_from([MODERN, WWII]), st.sampled_from([6.0, 1000.0]))
def test_sight_matrices_in_chunks_match_the_whole_array(layout, rules, sighting):
    feats, stands = layout
    table = make_table(*feats, width=W, depth=D)
    side_a = [p for p in stands if p.side == "A"]
    side_b = [p for p in stands if p.side == "B"]

    def answers():
        mats = table.sight_matrices(side_a, side_b, stands, sighting, rules)
        named = [table.sight(f, t, stands, sighting, rules) for f in side_a[:2] for t in side_b]
        return [(m.clear, m.range_in, m.range_band_in, m.front) for m in mats], named

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sight_module, "_near_stands", _one_chunk)
        want_mats, want_named = answers()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sight_module, "_CHUNK_CELLS", 5)
        got_mats, got_named = answers()
    for w, g in zip(want_mats, got_mats, strict=True):
        for a, b in zip(w, g, strict=True):
            assert np.array_equal(a, b)
    assert got_named == want_named  # blockers named in the same order


def test_a_stand_in_the_way_blocks_in_any_chunk_size(monkeypatch):
    """A stand across the middle of a line blocks it, one beside it does not, one whose
    corner just reaches it does, whatever the chunk size."""
    stands = [
        pose("A1", 2, 5),
        pose("B1", 12, 5),
        pose("C1", 7, 5.4),  # centre 0.4" off the line: surely touches
        pose("A2", 2, 9),
        pose("B2", 12, 9),
        pose("C2", 7, 9 + HALF * math.sqrt(2) - 0.01, 45.0),  # its corner crosses the line
        pose("A3", 2, 14),
        pose("B3", 12, 14),
        pose("C3", 7, 15.0),  # 1" off: clear
    ]
    table = make_table(width=W, depth=D)
    a = [p for p in stands if p.side == "A"]
    b = [p for p in stands if p.side == "B"]
    for cells in (1, 2, 7, 1 << 16):
        monkeypatch.setattr(sight_module, "_CHUNK_CELLS", cells)
        m = table.sight_matrix(a, b, stands, 100.0, MODERN)
        assert np.diag(m.clear).tolist() == [False, False, True]


# --------------------------------------------------------------------------- leaving costs


def _leaving_the_old_way(table, x0, y0, x1, y1, movement_class):
    """Every area looked at, as before: the reference for the areas-with-a-cost list."""
    total = 0.0
    for f in table.areas:
        t = table.terrain_types[f.kind]
        if (
            t.leaving_only
            and shapely.intersects_xy(f.geometry, x0, y0)
            and not shapely.intersects_xy(f.geometry, x1, y1)
        ):
            total += t.move_cost(movement_class) or 0.0
    return total


MINED = make_table(
    ("woods", (2, 2, 6, 6)),
    ("minefield", (8, 2, 12, 8)),
    ("minefield", (10, 6, 14, 12)),  # overlapping the first: leaving both pays twice
    ("marsh", (16, 2, 20, 6)),
    width=W,
    depth=D,
)


@fast
@given(
    st.lists(st.tuples(coord, coord, coord, coord), min_size=1, max_size=30),
    st.sampled_from(["T", "W", "F"]),
)
def test_leaving_costs_look_only_at_minefields_and_charge_as_before(steps, movement_class):
    for x0, y0, x1, y1 in steps:
        got = MINED._leaving_costs(x0, y0, x1, y1, movement_class)
        assert got == _leaving_the_old_way(MINED, x0, y0, x1, y1, movement_class)
    arr = [np.array([s[k] for s in steps]) for k in range(4)]
    costs = MINED.step_costs(*arr, movement_class)
    mid_cost, _ = MINED.move_costs_at((arr[0] + arr[2]) / 2, (arr[1] + arr[3]) / 2, movement_class)
    length = np.hypot(arr[2] - arr[0], arr[3] - arr[1])
    for i, (x0, y0, x1, y1) in enumerate(steps):
        if not np.isfinite(costs[i]) or length[i] == 0:
            continue
        extra = _leaving_the_old_way(MINED, x0, y0, x1, y1, movement_class)
        assert costs[i] == length[i] * mid_cost[i] + extra


def test_walking_out_of_a_minefield_pays_on_leaving_only():
    mine = MINED.terrain_types["minefield"].move_cost("T")
    assert len(MINED._leaving) == 2
    inside = MINED.walk([(9, 3), (9, 4)], math.inf, free_in=0.0)  # stays in: no extra
    assert inside.step_costs == (0.5, 0.5)
    out = MINED.walk([(11, 3), (13, 3)], math.inf, free_in=0.0)  # leaves at x = 12
    assert out.step_costs == (0.5, 0.5, 0.5 + mine, 0.5)
    both = MINED.walk([(11, 7), (11, 13)], math.inf, free_in=0.0)  # leaves one, then the other
    assert sum(1 for c in both.step_costs if c > 0.5) == 2


def test_no_minefield_no_leaving_cost():
    plain = make_table(("woods", (2, 2, 6, 6)), ("marsh", (16, 2, 20, 6)), width=W, depth=D)
    assert plain._leaving == []
    assert plain._leaving_costs(4, 4, 10, 4, "T") == 0.0
    walked = plain.walk([(1, 4), (8, 4)], math.inf, free_in=0.0)
    pts = np.array(walked.points)
    mid = (pts[:-1] + pts[1:]) / 2
    per_inch, _ = plain.move_costs_at(mid[:, 0], mid[:, 1])
    assert walked.step_costs == tuple(0.5 * per_inch)
