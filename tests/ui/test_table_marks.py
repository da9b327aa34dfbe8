"""What is written on and beside the stands stays readable and its own: marker badges
("+1", M, S, D, F) never cover a neighbouring stand, and in the plain look a token's id is
never printed over its NATO symbol (at a zoom too small for both, it shows on demand)."""

from __future__ import annotations

import pygame
import pytest

from game import StandPose, corners
from game.ui.badges import base_rect
from game.ui.colours import UI
from game.ui.render import draw_stand, unit_symbol
from tests.helpers import BLUE, _Stand, _table_view, _units


@pytest.fixture(autouse=True)
def _fonts():
    pygame.font.init()


MARKS = {"S": True, "D": True, "posture": "movement", "fire_attempts": 1}


def _base(tv, s) -> pygame.Rect:
    return base_rect([tv.to_px(x, y) for x, y in corners(s.x, s.y, s.facing_deg)])


def _badge_rects(tv, sid) -> list[pygame.Rect]:
    return [
        pygame.Rect(round(x - r), round(y - r), 2 * r, 2 * r)
        for x, y, r, _ in tv.badges_drawn.get(sid, [])
    ]


def _drawn(style, scale, stands):
    tv = _table_view(style, scale)
    tv.draw_stands(pygame.Surface((400, 300)), stands, ["A"])
    return tv


LINE = [(2.0 + k, 4.0, 0.0) for k in range(4)]  # four bases touching side by side
BLOCK = [(2.0 + i, 3.0 + j, 0.0) for i in range(3) for j in range(3)]  # three by three
TURNED = [(2.0, 4.0, 45.0), (3.45, 4.0, 45.0), (2.0, 5.45, 30.0)]


@pytest.mark.parametrize("style", ["models", "symbols"])
@pytest.mark.parametrize("scale", [10.0, 20.0, 40.0, 60.0])
@pytest.mark.parametrize("formation", [LINE, BLOCK, TURNED], ids=["line", "block", "turned"])
def test_no_badge_covers_another_stand_or_badge(style, scale, formation):
    unit = _units("modern-full")["M2A2 Bradley"]
    stands = [_Stand(f"A{k + 1}", unit, x, y, f, **MARKS) for k, (x, y, f) in enumerate(formation)]
    tv = _drawn(style, scale, stands)
    placed = []
    for s in stands:
        rects = _badge_rects(tv, s.id)
        assert len(rects) == 4  # S, D, M, F
        own = _base(tv, s)
        for q in rects:  # touching its own base, or a badge of its own that does
            assert own.inflate(4, 4).colliderect(q) or q.inflate(6, 6).collidelist(rects) >= 0
            for other in stands:
                if other is not s:
                    assert not q.colliderect(_base(tv, other)), (s.id, other.id)
            assert q.collidelist(placed) < 0
        placed += rects


def test_beside_a_lone_stand_the_badges_are_full_size_with_their_letters():
    unit = _units("modern-full")["M2A2 Bradley"]
    for scale in (10.0, 20.0, 40.0):
        tv = _drawn("models", scale, [_Stand("A1", unit, 3.0, 4.0, **MARKS)])
        drawn = tv.badges_drawn["A1"]
        assert [t for *_, t in drawn] == ["S", "D", "M", "F"]
        assert all(y < tv.to_px(3.0, 4.0)[1] - scale / 2 for _, y, _, _ in drawn)  # above it
        assert {r for _, _, r, _ in drawn} == {tv.badge_radius()}


def test_in_a_crowd_at_the_fitted_zoom_they_shrink_inside_their_own_base():
    unit = _units("modern-full")["M2A2 Bradley"]
    stands = [_Stand(f"A{k}", unit, x, y, f, S=True) for k, (x, y, f) in enumerate(BLOCK)]
    tv = _drawn("models", 10.0, stands)
    middle = stands[4]  # walled in on every side: its badge inside its base, smaller
    ((x, y, r, _),) = tv.badges_drawn[middle.id]
    assert r < tv.badge_radius() and _base(tv, middle).contains(_badge_rects(tv, middle.id)[0])


@pytest.mark.parametrize("scale", [10.0, 14.0, 20.0])
def test_where_the_token_has_no_room_its_id_is_not_printed_over_the_symbol(scale, monkeypatch):
    monkeypatch.setattr(pygame.key, "get_mods", lambda: 0)  # no Alt held
    unit = _units("modern-full")["M2A2 Bradley"]
    tv = _table_view("symbols", scale)
    st = _Stand("A12", unit, 3.0, 4.0)
    got = pygame.Surface((400, 300))
    tv.draw_stands(got, [st], ["A"])
    want = pygame.Surface((400, 300))  # the token and its symbol, no id written on them
    draw_stand(want, tv.view, StandPose("A12", "A", 3.0, 4.0, 0.0), BLUE, symbol=unit_symbol(unit))
    assert pygame.image.tobytes(got, "RGB") == pygame.image.tobytes(want, "RGB")
    over = tuple(int(v) for v in tv.to_px(3.0, 4.0))  # its id shows on demand instead
    assert tv.ids_wanted([st], over) == [st]


@pytest.mark.parametrize("label_size", [1.0, 1.25])
@pytest.mark.parametrize("scale", [30.0, 40.0, 60.0])
def test_with_room_the_id_is_written_under_the_symbol_and_clear_of_it(
    scale, label_size, monkeypatch
):
    """The label size of the settings (1.25: larger) makes the id's letters smaller where
    they would not fit under the symbol, never smaller than pygame's font at 16."""
    monkeypatch.setattr(pygame.key, "get_mods", lambda: 0)
    monkeypatch.setitem(UI, "scale", label_size)
    unit = _units("modern-full")["M2A2 Bradley"]
    tv = _table_view("symbols", scale)
    st = _Stand("A12", unit, 3.0, 4.0)
    assert tv.token_ids_fit(["A12"])
    px, py = tv.to_px(3.0, 4.0)
    label = tv.token_label("A12").get_rect(center=(px, py + scale * 0.22))
    assert label.height >= 11  # pygame's font at 16 at least
    symbol_bottom = py - 0.22 * scale + max(6.0, 0.34 * scale) / 2  # render._draw_symbol
    assert label.top > symbol_bottom and label.bottom <= py + scale / 2
    assert tv.ids_wanted([st], (round(px), round(py))) == []
