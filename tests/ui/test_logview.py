"""The battle log panel (game/ui/logview.py): appends without laying anything out, renders only
the sentences it shows, scrolls back with the wheel and holds its place as lines arrive."""

from __future__ import annotations

import os

import pygame
import pytest

from game.ui.logview import WHEEL_LINES, LogView

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


@pytest.fixture
def view():
    pygame.display.init()
    pygame.font.init()
    yield LogView(pygame.Rect(900, 400, 348, 300))
    pygame.quit()


def wheel(y: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=y)


def test_a_long_log_renders_only_what_it_shows(view):
    surface = pygame.Surface((1280, 800))
    view.extend(f'Stand A{i} moves 4.0" for 8 of 16 MP.' for i in range(5000))
    assert view._rendered == {}  # noqa: SLF001 - appending laid nothing out
    view.draw(surface)
    rendered = set(view._rendered)  # noqa: SLF001
    assert 5 <= len(rendered) <= 20 and max(rendered) == 4999
    view.append("The battle is over.")
    view.draw(surface)
    assert 5000 in view._rendered  # noqa: SLF001


def test_the_wheel_scrolls_back_and_new_lines_keep_the_place(view):
    view.extend(f"line {i}" for i in range(100))
    inside, outside = view.rect.center, (10, 10)
    assert not view.handle(wheel(1), outside) and view.scroll == 0
    assert view.handle(wheel(2), inside) and view.scroll == 2 * WHEEL_LINES
    view.append("line 100")
    assert view.scroll == 2 * WHEEL_LINES + 1  # the same lines still shown
    assert view.handle(wheel(-100), inside) and view.scroll == 0
    view.append("line 101")
    assert view.scroll == 0  # at the bottom, it follows the newest
    view.handle(wheel(1000), inside)
    view.draw(pygame.Surface((1280, 800)))
    # scrolled to the oldest line: the box stays full, the oldest line at its top
    shown = view._fitting()  # noqa: SLF001
    assert min(shown) == 0 and len(shown) > 5


def test_a_hidden_panel_takes_no_wheel_and_draws_nothing(view):
    view.extend(["a", "b"])
    view.visible = False
    surface = pygame.Surface((1280, 800))
    surface.fill((1, 2, 3))
    view.draw(surface)
    assert surface.get_at(view.rect.center)[:3] == (1, 2, 3)
    assert not view.handle(wheel(1), view.rect.center)


def test_a_short_log_reads_from_the_top_and_a_long_one_keeps_the_newest_at_the_bottom(view):
    from game.ui.logview import BACKGROUND

    def inked_rows(box):
        return [
            y
            for y in range(2, box.get_height() - 2)
            if any(box.get_at((x, y))[:3] != BACKGROUND for x in range(8, 120))
        ]

    view.extend(["Turn 1: the first line.", "The second line."])
    view.draw(pygame.Surface((1280, 800)))
    rows = inked_rows(view._box)  # noqa: SLF001
    assert min(rows) < 20 and max(rows) < view.rect.h // 2  # at the top
    view.extend(f"line {i}" for i in range(100))
    view.draw(pygame.Surface((1280, 800)))
    rows = inked_rows(view._box)  # noqa: SLF001
    assert max(rows) > view.rect.h - 30  # the newest at the bottom


def test_only_whole_lines_are_shown_and_newer_ones_below_are_announced(view):
    """A new player saw half a line at the top and no sign of new lines while scrolled back."""
    from game.ui.logview import BAR, GAP_PX, PAD_PX

    view.extend(f"Pz IIIJ-M A{i} moves 4.0 inches for 8 of 11 MP." for i in range(60))
    corner = (view.rect.w - 30, view.rect.h - 6)  # where the note goes
    view.draw(pygame.Surface((1280, 800)))
    assert view._box.get_at(corner)[:3] != BAR  # noqa: SLF001 - at the newest: no note
    view.handle(wheel(2), view.rect.center)
    view.draw(pygame.Surface((1280, 800)))
    shown = view._fitting()  # noqa: SLF001
    height = sum(view._line(i).get_height() + GAP_PX for i in shown) - GAP_PX  # noqa: SLF001
    assert height <= view.rect.h - 2 * PAD_PX  # whole lines only
    assert view._box.get_at(corner)[:3] == BAR  # noqa: SLF001 - "6 newer below"
