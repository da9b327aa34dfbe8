"""What lies past the table's edge is not drawn: an impact marker 0.5" from the edge (its 2"
circle reaching past it) leaves the floor around the table as it was, in both looks."""

from __future__ import annotations

import pygame
import pytest

from game.rules.state import Impact
from game.ui.battle.drawing import outline_group
from game.ui.battle.support_draw import draw_markers
from game.ui.colours import UI
from game.ui.table_view import TableView
from tests.conftest import battle


@pytest.mark.parametrize("style", ["plain", "painted"])
def test_an_impact_marker_at_the_edge_stays_on_the_table(style, monkeypatch):
    pygame.init()
    monkeypatch.setitem(UI, "table_style", style)
    b = battle([("A1", "A", "T-72", 10, 12, 0), ("B1", "B", "T-72", 40, 12, 180)], [])
    b.state.impacts.append(Impact("m1.1", "m1", "A", "A1", 0.5, 12.0))
    surface = pygame.Surface((800, 500))
    surface.fill((1, 2, 3))
    tv = TableView(b.table, pygame.Rect(50, 50, 700, 400))
    draw_markers(surface, tv, b)
    (x0, _), (_, y1) = tv.to_px(0, 0), tv.to_px(0, 12)
    left = [tuple(surface.get_at((x, int(y1)))) for x in range(0, int(x0) - 1)]
    assert set(left) == {(1, 2, 3, 255)}  # nothing past the left edge
    inside = [tuple(surface.get_at((int(x0) + k, int(y1)))) for k in range(2, 20)]
    assert set(inside) != {(1, 2, 3, 255)}  # the marker itself is drawn


@pytest.mark.usefixtures("data_dir")
def test_the_rulers_readout_leaves_the_mini_map_in_view(app):
    from game.ui.battle import BattleScreen

    b = battle([("A1", "A", "T-72", 10, 12, 0), ("B1", "B", "T-72", 40, 12, 180)], [])
    s = BattleScreen(app, b)
    app.show(s)
    mm = s.overlays.minimap().rect(s.tv)
    s.draw(app.surface)
    before = [tuple(app.surface.get_at((x, mm.top + 10))) for x in range(mm.left, mm.right)]
    s.ruler.on = True
    s.draw(app.surface)
    after = [tuple(app.surface.get_at((x, mm.top + 10))) for x in range(mm.left, mm.right)]
    assert after == before  # the readout's bar stops short of it
    assert tuple(app.surface.get_at((s.tv.rect.x + 4, s.tv.rect.y + 4))) != before[0]


def test_the_mini_map_is_drawn_again_in_the_plain_look(monkeypatch):
    from game.ui.paint.minimap import MiniMap

    pygame.init()
    b = battle(
        [("A1", "A", "T-72", 10, 12, 0), ("B1", "B", "T-72", 40, 12, 180)],
        [],
        terrain=[("woods", (14, 10, 20, 14))],
    )
    tv = TableView(b.table, pygame.Rect(0, 0, 900, 600))
    mm = MiniMap(b.table)
    surface = pygame.Surface((900, 600))
    monkeypatch.setitem(UI, "table_style", "painted")
    mm.draw(surface, tv, [], b.sides)
    painted = mm._picture
    monkeypatch.setitem(UI, "table_style", "plain")
    mm.draw(surface, tv, [], b.sides)
    assert mm._picture is not painted  # not the painted picture kept


@pytest.mark.usefixtures("data_dir")
def test_an_air_strikes_track_is_not_left_drawn_after_its_phase(app):
    from game.ui.battle import BattleScreen
    from tests.helpers import to_the_landing

    b, landing = to_the_landing()
    s = BattleScreen(app, b)
    app.show(s)
    s.act(landing)  # m2, m1 (artillery) and m3 (an A-10) land in turn 2's artillery phase
    assert b.state.turn == 2 and b.state.phase != "artillery"
    shown = {e["event"] for e in s.support.landings()}
    assert shown == {"artillery"}  # the deviation arrows stay for the turn; the track not


@pytest.mark.usefixtures("data_dir")
def test_a_wreck_is_not_outlined_as_a_member_of_its_old_group(app):
    from game.ui.battle import BattleScreen

    b = battle(
        [("A1", "A", "T-72", 10, 12, 0), ("A2", "A", "T-72", 10, 16, 0)]
        + [("B1", "B", "T-72", 40, 12, 180)],
        [],
    )
    b.ctx.eliminate(b.stand("A2"))
    s = BattleScreen(app, b)
    app.show(s)
    outlined = []
    s.tv.footprint_outline = lambda surface, x, y, *a: outlined.append((x, y))
    outline_group(app.surface, s.tv, s.battle, "A1")
    assert outlined == [(10, 12)]  # A1 alone: A2's wreck is no longer of the group


@pytest.mark.parametrize(("scale", "ticked"), [(12.0, True), (40.0, False)])
def test_a_small_stand_shows_its_facing(scale, ticked):
    from game import StandPose
    from game.ui.paint.models import paint_stand
    from game.ui.render import View

    pygame.init()
    surface = pygame.Surface((200, 200))
    surface.fill((0, 0, 0))
    view = View(scale, (0, 0), 200 / scale)
    pose = StandPose("A1", "A", 100 / scale, 100 / scale, 0.0)  # facing +x: right
    paint_stand(surface, view, pose, (40, 90, 200))
    tip = tuple(surface.get_at((100 + round(0.55 * scale), 100)))[:3]
    assert (tip == (250, 250, 245)) is ticked
