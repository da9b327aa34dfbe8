"""Properties of the table geometry that hold everywhere (hypothesis)."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from shapely import affinity

from game.rules.table.geometry import TerrainFeature, aspect, footprint, overlaps
from game.rules.table.table import Table
from tests.conftest import DATA, MODERN, WWII, make_table, pose

W, D = 40.0, 24.0
quarter = st.integers(0, 4 * int(W)).map(lambda v: v / 4)
quarter_y = st.integers(0, 4 * int(D)).map(lambda v: v / 4)
facing = st.sampled_from([0.0, 90.0, 180.0, 270.0])


@st.composite
def terrain(draw):
    """A few woods, groves and hills on a quarter-inch grid."""
    feats = []
    for _ in range(draw(st.integers(0, 5))):
        x0, y0 = draw(quarter), draw(quarter_y)
        w, h = draw(st.integers(2, 24)) / 4, draw(st.integers(2, 24)) / 4
        kind = draw(st.sampled_from(["woods", "grove", "hill", "marsh"]))
        feats.append((kind, (x0, y0, min(W, x0 + w), min(D, y0 + h)), 1 if kind == "hill" else 0))
    return [f for f in feats if f[1][2] > f[1][0] and f[1][3] > f[1][1]]


@st.composite
def stands(draw, n=4):
    """Stands that do not overlap (as on a real table, 000 08.03.05)."""
    out = []
    for i in range(n):
        side = "A" if i % 2 == 0 else "B"
        p = pose(f"{side}{i}", draw(quarter), draw(quarter_y), draw(facing), side=side)
        fp = footprint(p.x, p.y, p.facing_deg)
        assume(all(not overlaps(fp, footprint(q.x, q.y, q.facing_deg)) for q in out))
        out.append(p)
    return out


def _table(feats, width=W, depth=D, transform=None):
    out = []
    for i, (kind, b, level) in enumerate(feats):
        g = make_table((kind, b, level)).features[0].geometry
        if transform:
            g = transform(g)
        out.append(TerrainFeature(kind, g, level, i))
    return Table(width, depth, out, DATA.terrain)


def _turn(p, depth=D):
    """A quarter turn counter-clockwise, then shifted so the table stays at the origin."""
    return pose(p.id, depth - p.y, p.x, (p.facing_deg + 90) % 360, side=p.side, wreck=p.wreck)


def _mirror(p, width=W):
    return pose(p.id, width - p.x, p.y, (180 - p.facing_deg) % 360, side=p.side, wreck=p.wreck)


def _answers(table, poses, rules):
    out = {}
    for f in poses:
        for t in poses:
            if f.id != t.id:
                s = table.sight(f, t, poses, 30, rules)
                out[(f.id, t.id)] = (
                    s.clear,
                    s.aspect,
                    s.range_band_in,
                    sorted(b[0] for b in s.blocked_by),
                )
    return out


fast = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@fast
@given(terrain(), stands(), st.sampled_from([MODERN, WWII]))
def test_sight_and_aspect_unchanged_when_the_table_is_turned(feats, poses, rules):
    """Turning the whole table a quarter turn changes no sight line, aspect or range."""
    before = _answers(_table(feats), poses, rules)
    turned = _table(feats, D, W, lambda g: affinity.affine_transform(g, [0, -1, 1, 0, D, 0]))
    after = _answers(turned, [_turn(p) for p in poses], rules)
    assert after == before


@fast
@given(terrain(), stands(), st.sampled_from([MODERN, WWII]))
def test_sight_and_aspect_unchanged_when_the_table_is_mirrored(feats, poses, rules):
    before = _answers(_table(feats), poses, rules)
    mirrored = _table(feats, transform=lambda g: affinity.affine_transform(g, [-1, 0, 0, 1, W, 0]))
    after = _answers(mirrored, [_mirror(p) for p in poses], rules)
    assert after == before


@settings(max_examples=200, deadline=None)
@given(st.floats(0, 359.999), st.floats(-20, 20), st.floats(-20, 20))
def test_aspect_turns_with_the_table(f, dx, dy):
    """Aspect is the same after rotating firer and target together by any quarter turn."""
    assume(math.hypot(dx, dy) > 1e-3)
    a = aspect(pose("B1", 0, 0, f), dx, dy)
    assert aspect(pose("B1", 0, 0, f + 90), -dy, dx) == a
    assert aspect(pose("B1", 0, 0, 180 - f), -dx, dy) == a


@fast
@given(terrain(), stands(n=5))
def test_sight_on_one_level_is_symmetric(feats, poses):
    """With no hill under any stand, A sees B exactly when B sees A (000 07.01)."""
    feats = [f for f in feats if f[0] != "hill"]
    table = _table(feats)
    for f in poses:
        for t in poses:
            if f.id < t.id:
                assert (
                    table.sight(f, t, poses, 30, MODERN).clear
                    == table.sight(t, f, poses, 30, MODERN).clear
                )


@st.composite
def step_path(draw):
    """A path whose legs are whole half-inch steps, then one free leg."""
    x, y = draw(st.floats(5, 35)), draw(st.floats(5, 19))
    pts = [(x, y)]
    for _ in range(draw(st.integers(1, 4))):
        a = draw(st.floats(0, 2 * math.pi))
        n = draw(st.integers(1, 8))
        x, y = x + 0.5 * n * math.cos(a), y + 0.5 * n * math.sin(a)
        pts.append((x, y))
    extra = (x + draw(st.floats(-6, 6)), y + draw(st.floats(-6, 6)))
    return pts, extra


@settings(max_examples=150, deadline=None)
@given(terrain(), step_path())
def test_path_cost_never_falls_as_it_lengthens(feats, path):
    """Walking on beyond the end of a path never makes it cheaper (000 09.00.01): each step
    of the longer path that the shorter one also took costs the same."""
    pts, extra = path
    table = _table(feats, width=100, depth=100)  # room to wander: no edge stops
    short = table.walk(pts, math.inf, free_in=0)
    long = table.walk([*pts, extra], math.inf, free_in=0)
    assert sum(long.step_costs) >= sum(short.step_costs) - 1e-9
    # whole-step legs: the short path's steps are the long path's first steps
    k = len(short.step_costs)
    if abs(short.distance_in / 0.5 - round(short.distance_in / 0.5)) < 1e-9:
        assert long.step_costs[:k] == pytest.approx(short.step_costs)
