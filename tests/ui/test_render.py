"""The map picture and the window, under the dummy video driver."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from shapely.geometry import Point

from game.cli import main
from game.rules.files.scenario import load_scenario
from game.ui.render import ROAD_STYLE, SIDE_COLOURS, TERRAIN_COLOURS, View
from game.ui.viewer import run_viewer

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["modern-meeting", "wwii-meeting"])
def test_render_draws_terrain_and_stands_where_they_are(tmp_path, name, capsys):
    out = tmp_path / "map.png"
    # the plain style's flat colours (the painted style, the default since #46, is
    # tests/ui/test_painted_terrain.py's)
    args = ["render", str(ROOT / "maps" / f"{name}.json"), "--out", str(out), "--style", "plain"]
    assert main(args) == 0
    assert "wrote" in capsys.readouterr().out
    sc = load_scenario(ROOT / "maps" / f"{name}.json")
    img = pygame.image.load(str(out))
    w, d = sc.table.width, sc.table.depth
    assert img.get_size() == (int(w * 20 + 80), int(d * 20 + 120))
    view = View(20, (40, 50), d)  # render_png's layout
    wood = next(f for f in sc.table.areas if f.kind == "woods").geometry
    # a point well inside the wood and off the 6" grid, which is drawn faintly over it
    x0, y0, x1, y1 = wood.bounds
    inner = wood.buffer(-0.3)
    p = next(
        q
        for q in (Point(x0 + i / 4, y0 + j / 4) for i in range(4, 25) for j in range(4, 25))
        if inner.contains(q) and 0.5 < q.x % 6 < 5.5 and 0.5 < q.y % 6 < 5.5
    )
    assert tuple(img.get_at([int(v) for v in view.to_px(p.x, p.y)]))[:3] == pytest.approx(
        TERRAIN_COLOURS["woods"], abs=12
    )
    road = sc.table.roads[0].geometry
    off_grid = (road.interpolate(t / 100, normalized=True) for t in range(5, 95))
    rp = next(q for q in off_grid if 0.5 < q.x % 6 < 5.5 and 0.5 < q.y % 6 < 5.5)
    assert tuple(img.get_at([int(v) for v in view.to_px(rp.x, rp.y)]))[:3] == pytest.approx(
        ROAD_STYLE["good_road"][0], abs=12
    )
    ghq = next(s for s in sc.spec.stands if s.side == "B" and s.ghq)
    # the orange stand's footprint reaches 0.3" inside its table edge, left of its centre
    # (#46: its painted model, its base rimmed in orange)
    x0, y0 = (int(v) for v in view.to_px(ghq.x - 0.45, ghq.y + 0.45))
    orange = [
        (x, y)
        for x in range(x0, x0 + 9)
        for y in range(y0, y0 + 18)
        if tuple(img.get_at((x, y)))[:3] == SIDE_COLOURS[1]
    ]
    assert len(orange) > 20


def test_render_of_a_broken_file_is_one_line(tmp_path, capsys):
    bad = ROOT / "tests" / "fixtures" / "bad" / "12-unknown-unit.json"
    assert main(["render", str(bad), "--out", str(tmp_path / "x.png")]) == 1
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert not (tmp_path / "x.png").exists()


def test_viewer_opens_and_closes():
    sc = load_scenario(ROOT / "maps" / "modern-meeting.json")
    assert run_viewer(sc, frames=3) == 0


def test_view_maps_both_ways():
    v = View.fit(60, 36, pygame.Rect(0, 0, 1280, 800))
    x, y = v.to_table(*v.to_px(12.5, 30.25))
    assert (x, y) == pytest.approx((12.5, 30.25))
    assert v.to_px(0, 36)[1] < v.to_px(0, 0)[1]  # y goes up on the table, down on screen
