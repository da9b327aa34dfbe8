"""The sight matrix against the benchmark's vectorised baseline (#30): on random maps the
engine's staged matrix (000 07.01, 001 6.1; rules-decisions "Line of sight", "Hills") gives
exactly the answers of ``tools/bench/bench_geometry.py``'s ``VectorisedSight``, which asks every
blocker kind about every line, and of its per-pair loop; the numpy-only stage that finds lines
surely inside an area changes no answer, and the order the stages run in changes none either
(``Table.sight``, which names every blocker, runs them in the rules' order)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon

from game.rules.table import sight as sight_module
from game.rules.table.geometry import TerrainFeature
from game.rules.table.table import Table
from tests.conftest import DATA, MODERN, WWII, pose

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "bench"))

from bench_geometry import CompetentSight, VectorisedSight  # noqa: E402

W, D = 36.0, 24.0
AREA_KINDS = ["woods", "grove", "light_buildings", "heavy_buildings", "marsh", "rough_2"]
fast = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def maps(draw):
    """Irregular areas (blocking and not, some overlapping, some tiny), hills of one or two
    levels, and up to 16 stands a side: some overlapping (sharing a place), some wrecks, some
    counting as in the clear, some on hills."""
    feats = []
    for _ in range(draw(st.integers(0, 12))):
        cx, cy = draw(st.floats(0, W)), draw(st.floats(0, D))
        r = draw(st.floats(0.05, 4.0))
        k = draw(st.integers(3, 8))
        turn = draw(st.floats(0, 2 * math.pi))
        ang = turn + np.arange(k) * 2 * math.pi / k
        rad = r * np.array([draw(st.floats(0.5, 1.0)) for _ in range(k)])
        poly = Polygon(np.c_[cx + rad * np.cos(ang), cy + rad * np.sin(ang)])
        if poly.is_valid and poly.area > 0:
            feats.append(TerrainFeature(draw(st.sampled_from(AREA_KINDS)), poly, 0, len(feats)))
    for _ in range(draw(st.integers(0, 2))):
        x0, y0 = draw(st.floats(0, W - 4)), draw(st.floats(0, D - 4))
        w, h = draw(st.floats(2, 12)), draw(st.floats(2, 8))
        feats.append(TerrainFeature("hill", shapely.box(x0, y0, x0 + w, y0 + h), 1, len(feats)))
        if draw(st.booleans()) and w > 2.5 and h > 2.5:
            top = shapely.box(x0 + 1, y0 + 1, x0 + w - 1, y0 + h - 1)
            feats.append(TerrainFeature("hill", top, 2, len(feats)))
    stands = []
    for i in range(draw(st.integers(2, 32))):
        side = "A" if i % 2 == 0 else "B"
        stands.append(
            pose(
                f"{side}{i}",
                draw(st.floats(0.5, W - 0.5)),
                draw(st.floats(0.5, D - 0.5)),
                draw(st.sampled_from([0.0, 30.0, 45.0, 90.0, 137.5, 270.0])),
                side=side,
                wreck=draw(st.booleans()) and i > 3,
                in_clear=draw(st.integers(0, 4)) == 0,
            )
        )
    assume(any(p.side == "A" for p in stands) and any(p.side == "B" for p in stands))
    return Table(W, D, feats, DATA.terrain), stands


def _sides(stands):
    return [p for p in stands if p.side == "A"], [p for p in stands if p.side == "B"]


@fast
@given(maps(), st.sampled_from([MODERN, WWII]), st.sampled_from([6.0, 30.0, 1000.0]))
def test_the_matrix_gives_the_vectorised_baselines_answers(layout, rules, sighting):
    table, stands = layout
    side_a, side_b = _sides(stands)
    ab, ba = table.sight_matrices(side_a, side_b, stands, sighting, rules)
    want_ab, want_ba = VectorisedSight(table, rules).clear(side_a, side_b, stands, sighting)
    assert np.array_equal(ab.clear, want_ab)
    assert np.array_equal(ba.clear, want_ba)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(maps(), st.sampled_from([MODERN, WWII]), st.sampled_from([6.0, 1000.0]))
def test_the_matrix_gives_the_per_pair_loops_answers(layout, rules, sighting):
    table, stands = layout
    side_a, side_b = _sides(stands)
    ab, ba = table.sight_matrices(side_a, side_b, stands, sighting, rules)
    loop = CompetentSight(table, stands, rules)
    got = np.array([[loop.clear(a, b, sighting) for b in side_b] for a in side_a], dtype=bool)
    got_rev = np.array([[loop.clear(b, a, sighting) for a in side_a] for b in side_b], dtype=bool)
    assert np.array_equal(ab.clear, got.reshape(ab.clear.shape))
    assert np.array_equal(ba.clear, got_rev.reshape(ba.clear.shape))


@fast
@given(maps(), st.sampled_from([MODERN, WWII]), st.sampled_from([6.0, 1000.0]))
def test_the_sure_terrain_stage_changes_no_answer(layout, rules, sighting):
    table, stands = layout
    side_a, side_b = _sides(stands)

    def answers():
        mats = table.sight_matrices(side_a, side_b, stands, sighting, rules)
        return [(m.clear, m.range_in, m.range_band_in, m.front) for m in mats]

    want = answers()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Table, "_terrain_surely_in_the_way", lambda self, *a: None)
        without = answers()
    for w, g in zip(want, without, strict=True):
        for a, b in zip(w, g, strict=True):
            assert np.array_equal(a, b)


@fast
@given(maps(), st.sampled_from([MODERN, WWII]), st.sampled_from([6.0, 1000.0]))
def test_one_line_named_agrees_with_the_matrix(layout, rules, sighting):
    """``Table.sight`` runs the stages in the rules' order and names every blocker; the matrix
    runs the cheap ones first and stops at the first: the same answer, and a line named
    blocked has a blocker named."""
    table, stands = layout
    side_a, side_b = _sides(stands)
    ab, _ = table.sight_matrices(side_a, side_b, stands, sighting, rules)
    for i, f in enumerate(side_a[:3]):
        for j, t in enumerate(side_b):
            one = table.sight(f, t, stands, sighting, rules)
            assert one.clear == bool(ab.clear[i, j])
            assert one.clear or one.blocked_by


def test_a_line_through_a_wood_is_blocked_by_the_sure_stage_alone(monkeypatch):
    """A line through the middle of a wood is settled by the numpy stage: the exact terrain
    stage never sees it."""
    wood = TerrainFeature("woods", shapely.box(10, 5, 14, 9), 0, 0)
    table = Table(W, D, [wood], DATA.terrain)
    a, b = pose("A1", 5, 7), pose("B1", 20, 7, 180.0)
    seen = []
    real = sight_module.SightMixin._terrain_in_the_way

    def spy(self, firers, targets, pf, pt, seg, lines, open_, mark):
        seen.append(len(open_))
        return real(self, firers, targets, pf, pt, seg, lines, open_, mark)

    monkeypatch.setattr(Table, "_terrain_in_the_way", spy)
    ab, ba = table.sight_matrices([a], [b], [a, b], 30.0, MODERN)
    assert not ab.clear[0, 0] and not ba.clear[0, 0]
    assert seen == [0]  # nothing left open for the exact stage


def test_an_end_in_the_clear_is_left_to_the_exact_stage():
    """A WWII stand that fired inside a wood counts as in the clear (001 6.1.2): the wood
    holding it does not block its line, though the line runs through the wood's middle."""
    wood = TerrainFeature("woods", shapely.box(4, 4, 12, 10), 0, 0)
    table = Table(W, D, [wood], DATA.terrain)
    a = pose("A1", 6, 7, in_clear=True)
    b = pose("B1", 20, 7, 180.0)
    ab, ba = table.sight_matrices([a], [b], [a, b], 30.0, WWII)
    assert ab.clear[0, 0] and ba.clear[0, 0]
    shut = pose("A1", 6, 7)  # the same stand not in the clear is hidden by the wood
    ab, ba = table.sight_matrices([shut], [b], [shut, b], 30.0, WWII)
    assert not ab.clear[0, 0] and not ba.clear[0, 0]
