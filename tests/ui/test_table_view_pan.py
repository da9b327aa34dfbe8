"""Panning scrolls the kept terrain layer and draws only the strips it uncovers
(game/ui/table_view.py): the picture is the one a full redraw gives, pixel for pixel."""

from __future__ import annotations

import os

import numpy as np
import pygame
import pytest

from game import load_scenario
from game.ui.table_view import TableView, uncovered

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


@pytest.fixture(scope="module")
def table():
    pygame.display.init()
    pygame.font.init()
    yield load_scenario("maps/modern-meeting.json").table
    pygame.quit()


def _picture(tv: TableView) -> np.ndarray:
    surface = pygame.Surface((1280, 800))
    tv.draw_terrain(surface)
    return pygame.surfarray.array3d(surface.subsurface(tv.rect)).astype(int)


@pytest.mark.parametrize("zoom", [1.0, 3.0, 9.0])
def test_a_panned_layer_is_the_full_redraw(table, zoom):
    """The same picture, but for a few pixels on the outlines of polygons: pygame fills a
    polygon from its vertices' fractional pixel positions, which a shift of the camera by
    whole pixels moves by a rounding (at most 0.1% of the pixels, never a whole row or
    column, as a strip drawn wrong would be)."""
    rect = pygame.Rect(0, 44, 920, 756)
    panned = TableView(table, rect)
    panned.zoom_at(zoom, rect.center)
    _picture(panned)
    for dx, dy in [(7, 0), (0, -5), (13, 9), (-40, 3), (-2, -31), (200, 150), (1, 1)]:
        panned.pan(dx, dy)
        got = _picture(panned)
        fresh = TableView(table, rect)
        fresh.view = panned.view
        differ = np.abs(got - _picture(fresh)).sum(axis=2) > 0
        assert differ.mean() <= 0.001, (zoom, dx, dy, differ.sum())
        assert differ.mean(axis=0).max() < 0.1 and differ.mean(axis=1).max() < 0.1


def test_a_pan_by_a_fraction_of_a_pixel_or_a_zoom_draws_it_all_again(table):
    rect = pygame.Rect(0, 44, 920, 756)
    tv = TableView(table, rect)
    _picture(tv)
    kept = tv._cache  # noqa: SLF001
    tv.pan(3, 0)
    _picture(tv)
    assert tv._cache is kept  # noqa: SLF001 - scrolled in place
    tv.pan(0.5, 0)
    _picture(tv)
    assert tv._cache is not kept  # noqa: SLF001
    kept = tv._cache  # noqa: SLF001
    tv.zoom_at(1.5, rect.center)
    _picture(tv)
    assert tv._cache is not kept  # noqa: SLF001


def test_the_strips_a_scroll_uncovers():
    r = pygame.Rect(0, 0, 100, 50)
    assert uncovered(r, 5, 0) == [pygame.Rect(0, 0, 5, 50)]
    assert uncovered(r, -5, 0) == [pygame.Rect(95, 0, 5, 50)]
    assert uncovered(r, 0, 3) == [pygame.Rect(0, 0, 100, 3)]
    assert uncovered(r, 2, -4) == [pygame.Rect(0, 0, 2, 50), pygame.Rect(0, 46, 100, 4)]
    assert uncovered(r, 0, 0) == []
