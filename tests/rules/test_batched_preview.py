"""The batched walk (game.rules.table.walks.walk_paths, Table.walks, Battle.preview_moves) gives each
path exactly the Walk that the step-by-step walk of that path alone gives, field for field and
to the last bit: on the shipped maps, on the geometry benchmark's busy map, with enemy
footprints in the way, minefields, zero-length and bent paths (000 08.03, 09.00)."""

from __future__ import annotations

import math
import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import Battle, footprint, load_scenario
from game.rules.table.geometry import Walk
from game.rules.table.table import Table
from game.rules.table.walks import walk_paths
from tests.conftest import make_table

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "bench"))
MAPS = sorted((ROOT / "maps").glob("*.json"))


@cache
def shipped(name: str):
    return load_scenario(ROOT / "maps" / name)


@cache
def bench_table() -> Table:
    from bench_geometry import D, W, make_map

    from game.rules.charts.data import load_rules_data

    return Table(W, D, make_map(np.random.default_rng(5)), load_rules_data().terrain)


def mined_table() -> Table:
    return make_table(
        ("minefield", (8, 2, 11, 8)),
        ("woods", (14, 3, 18, 9)),
        ("good_road", [(0, 9), (30, -3)]),
        ("hill", (20, 10, 30, 20), 1),
        width=40,
        depth=24,
    )


def same(a: Walk, b: Walk) -> None:
    """Field for field, with the types (floats stay floats, bools bools)."""
    assert a == b
    for f in ("mp_spent", "mp_allowed", "distance_in", "stopped_by", "road_rate", "blocker"):
        x, y = getattr(a, f), getattr(b, f)
        assert type(x) is type(y), f
        assert x == y or (isinstance(x, float) and math.isnan(x) and math.isnan(y)), f
    assert [type(v) for p in a.points for v in p] == [type(v) for p in b.points for v in p]
    assert [type(c) for c in a.step_costs] == [type(c) for c in b.step_costs]


def check(table: Table, paths, mp: float, mc: str, free_in: float, no_pass) -> list[Walk]:
    batched = walk_paths(table, paths, mp, mc, free_in, no_pass)
    assert len(batched) == len(paths)
    for path, walk in zip(paths, batched, strict=True):
        same(walk, table.walk(path, mp, mc, free_in, no_pass))
    return batched


def point(table: Table):
    return st.tuples(
        st.floats(-1.0, table.width + 1.0, allow_nan=False),
        st.floats(-1.0, table.depth + 1.0, allow_nan=False),
    )


def cases(table: Table):
    """Paths of one stand: a start and 1-3 legs (some of no length, some off the table)."""
    leg = st.tuples(st.floats(-math.pi, math.pi), st.sampled_from([0.0, 0.3, 0.5, 2.0, 7.5, 14.0]))
    path = st.tuples(point(table), st.lists(leg, min_size=0, max_size=3)).map(
        lambda t: [t[0]]
        + [
            (t[0][0] + sum(d * math.cos(a) for a, d in t[1][: i + 1]),
             t[0][1] + sum(d * math.sin(a) for a, d in t[1][: i + 1]))
            for i in range(len(t[1]))
        ]
    )  # fmt: skip
    enemies = st.lists(st.tuples(point(table), st.floats(0, 360)), max_size=6)
    return st.tuples(
        st.lists(path, min_size=0, max_size=12),
        st.sampled_from([0.0, 1.5, 6.0, 12.0, math.inf]),
        st.sampled_from(["T", "W", "F"]),
        st.sampled_from([0.0, 1.0, 3.0]),
        enemies,
    )


def run(table: Table, case) -> None:
    paths, mp, mc, free_in, enemies = case
    fps = [footprint(x, y, f) for (x, y), f in enemies]
    check(table, paths, mp, mc, free_in, fps)


SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("name", [m.name for m in MAPS])
def test_batched_walks_equal_single_walks_on_shipped_maps(name):
    table = shipped(name).table

    @SETTINGS
    @given(cases(table))
    def inner(case):
        run(table, case)

    inner()


def test_batched_walks_equal_single_walks_on_the_bench_map():
    table = bench_table()

    @SETTINGS
    @given(cases(table))
    def inner(case):
        run(table, case)

    inner()


def test_batched_walks_equal_single_walks_with_a_minefield():
    table = mined_table()

    @SETTINGS
    @given(cases(table))
    def inner(case):
        run(table, case)

    inner()


def test_fans_of_straight_moves_with_enemies_in_the_way():
    """The AI's candidate fans: 16 directions at 0.4 and 1.0 of a move from many starts on
    the busy map, among enemy stands; each stop reason turns up."""
    table = bench_table()
    rng = np.random.default_rng(3)
    reasons = set()
    for _ in range(40):
        x, y = rng.uniform(1, table.width - 1), rng.uniform(1, table.depth - 1)
        enemies = [
            footprint(float(x + rng.uniform(-6, 6)), float(y + rng.uniform(-6, 6)), 30.0 * k)
            for k in range(5)
        ]
        mp = float(rng.choice([6.0, 9.0, 12.0]))
        paths = [
            ((x, y), (x + mp * f * math.cos(a), y + mp * f * math.sin(a)))
            for a in np.linspace(0, 2 * math.pi, 16, endpoint=False)
            for f in (0.4, 1.0)
        ]
        for w in check(table, paths, mp, "T", 1.0, enemies):
            reasons.add(w.stopped_by)
    assert {None, "mp", "enemy", "edge"} <= reasons


def test_edge_cases():
    table = mined_table()
    assert walk_paths(table, [], 5.0) == []
    walks = check(
        table, [[(5, 5)], [(5, 5), (5, 5)], [(5, 5), (9, 5), (9, 5), (12, 9)]], 6, "T", 1, ()
    )
    assert walks[0].points == walks[1].points == ((5.0, 5.0),)
    with pytest.raises(ValueError):
        walk_paths(table, [[(1, 1), (2, 2)], []], 5.0)


@pytest.mark.parametrize("name", ["wwii-meeting.json", "modern-meeting.json"])
def test_battle_preview_moves_is_preview_move_one_by_one(name):
    """Battle.preview_moves: the same Walk as Battle.preview_move for each path, the enemy's
    stands where they stand (WWII and Modern), after a few turns of the scripted AI."""
    from game.ai import player_seed
    from game.ai.scripted import ScriptedAI

    battle = Battle(shipped(name), 4)
    players = {
        side: ScriptedAI(player_seed(4, i), "veteran") for i, side in enumerate(battle.sides)
    }
    while battle.state.turn < 3 and not battle.finished:
        battle.apply(players[battle.to_act].choose(battle))
    for s in battle.state.stands.values():
        if not s.active:
            continue
        start = (s.x, s.y)
        paths = [
            (start, (s.x + r * math.cos(a), s.y + r * math.sin(a)))
            for a in np.linspace(0, 2 * math.pi, 12, endpoint=False)
            for r in (2.0, 8.0, 20.0)
        ]
        for path, walk in zip(paths, battle.preview_moves(s.id, paths), strict=True):
            same(walk, battle.preview_move(s.id, path))


def test_terrain_at_many_is_terrain_at_for_every_point():
    """The planner's one query for many points answers as one query per point does."""
    import random

    from game import load_scenario

    for path in ("maps/wwii-meeting.json", "maps/modern-meeting.json"):
        table = load_scenario(path).table
        fresh = load_scenario(path).table
        rng = random.Random(3)
        pts = [(rng.uniform(0, table.width), rng.uniform(0, table.depth)) for _ in range(300)]
        pts += pts[:20]  # asked twice
        many = table.terrain_at_many(pts)
        assert many == [fresh.terrain_at(x, y) for x, y in pts]
        assert table.terrain_at_many([]) == []
