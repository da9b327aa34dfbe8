"""What the menu screens share: their backdrop, closing an open drop-down with Esc, and the
folder of the player's own scenarios."""

from __future__ import annotations

from pathlib import Path

import pygame

from game.saves import scenarios_dir
from game.ui.colours import INK


def close_drop_downs(menus) -> bool:
    """Esc: close whichever of these drop-down menus is open; True if one was."""
    closed = False
    for menu in menus:
        if menu.current_state is menu.menu_states["expanded"]:
            menu.current_state.should_transition = True
            closed = True
    return closed


def paint_backdrop(surface, foot: str) -> None:
    """The menu screens' backdrop: the paper colour, the green bar along the top (8 px), and
    one line of ``foot`` text at the bottom left (drawn under the widgets)."""
    surface.fill((236, 233, 222))
    w, h = surface.get_size()
    pygame.draw.rect(surface, (58, 72, 56), pygame.Rect(0, 0, w, 8))
    surface.blit(pygame.font.Font(None, 20).render(foot, True, INK), (12, h - 24))


def user_maps() -> Path:
    """The folder of the player's own scenarios (where the map editor saves them); the menu
    lists them after the shipped maps. Never raises (``game.saves``)."""
    return scenarios_dir()
