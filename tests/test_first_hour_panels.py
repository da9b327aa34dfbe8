"""The first hour of a new player (issue #43) on the battle screen's movement and fire panels:
each stop driven on the real screen (dummy video driver) the way a player meets it."""

from __future__ import annotations

import pygame
import pytest
from pygame_gui.core.text import HyperlinkTextChunk

from game.ui.battle import FireMode
from game.ui.battle.layout import PAL
from tests.test_ui import STANDS, frames_until_worked, press, small_battle, to_fire1

pytestmark = pytest.mark.usefixtures("data_dir")


def flush(screen) -> None:
    """A frame, with the panel's newest text laid out (it is shown at most every 0.1 s)."""
    screen._flush_panel(force=True)
    screen.update(0.016)
    screen.draw(screen.app.surface)


def link_at(screen, href: str) -> tuple[int, int]:
    """The window pixel of the panel's link to ``href``, found as pygame_gui lays it out."""
    flush(screen)
    panel = screen.panel
    chunks = [
        c
        for row in panel.text_box_layout.layout_rows
        for c in row.items
        if isinstance(c, HyperlinkTextChunk) and c.href == href
    ]
    assert chunks, f"no link to {href!r} in the panel"
    r = panel.rect
    for y in range(r.top + 2, r.bottom - 2, 2):
        for x in range(r.left + 2, r.right - 2, 4):
            tx, ty = panel._calculate_text_space_pos((x, y))
            if chunks[0].collidepoint(tx, ty):
                return x, y
    raise AssertionError(f"the link to {href!r} is not in view")


def click_panel(screen, pos) -> None:
    """A left click on the panel at ``pos``; the events pygame_gui posts go to the screen."""
    pygame.event.clear()
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        screen.handle(pygame.event.Event(kind, pos=pos, button=1))
    for ev in pygame.event.get():
        screen.handle(ev)


def outline_colour(screen, sid: str) -> tuple:
    """The colour drawn on the left edge of a stand's footprint (its outline)."""
    s = screen.battle.stand(sid)
    x, y = (int(round(v)) for v in screen.tv.to_px(s.x - 0.5, s.y))
    return tuple(screen.app.surface.get_at((x, y)))[:3]


# ------------------------------------------------------------------ 1. the fire panel


def to_a_shot(s) -> None:
    """On from the set-up until Blue may fire at something: the first to choose lets Blue
    act first, and a side with no shot passes (the panel is asked, as a player would)."""
    to_fire1(s)
    b = s.battle
    for _ in range(12):
        if b.decision().kind == "choose_first":
            press(s, "Blue first")
        elif b.to_act == "A" and b.decision().kind == "fire" and b.fire_options():
            frames_until_worked(s)
            return
        else:
            press(s, "Pass")
    raise AssertionError("Blue never had a shot")


def test_the_fire_panel_names_the_shots_outlines_them_and_a_line_aims_them(app):
    """(#43) "2 of your stands can fire at 1 enemy stand" named nobody: each line now names
    the enemy stand and yours that can fire at it, both are outlined on the table, and a
    click on the line makes the attack (target and attackers, the odds shown)."""
    s = small_battle(app, STANDS, [6, 6, 1, 1, 3, 3, 3, 3])
    to_a_shot(s)
    flush(s)
    assert "T-72 B1: by T-72 A1, A2" in s._panel_text
    assert outline_colour(s, "A1") == tuple(PAL.clear)[:3]
    assert outline_colour(s, "B1") == tuple(PAL.blocked)[:3]
    click_panel(s, link_at(s, "B1"))
    assert isinstance(s.mode, FireMode) and s.mode.target == "B1"
    assert s.mode.attackers == ["A1", "A2"]
    assert "Chance to eliminate" in s._panel_text
