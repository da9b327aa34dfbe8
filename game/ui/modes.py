"""The one protocol of the screens' input states (python-tcod's ``State``): the battle screen
and the map editor are each a set of small modes. A screen hands every table event to its
current mode; ``on_event`` returns the next mode (or None to stay), and the screen changes
modes in one place (its ``set_mode``), calling ``enter`` on the new one."""

from __future__ import annotations

from collections.abc import Collection

import pygame


class Mode:
    """One input state of a screen. ``enter`` sets up the panel and hints; ``on_event`` returns
    the next mode or None; ``draw`` adds the mode's overlay on the table; ``confirm`` is the
    Enter key (or the panel's main button) and ``cancel`` the Esc key, each returning the next
    mode or None.

    What the screen reads of its mode besides (defaults here; a mode sets those it needs):
    ``paced``, the mode shows steps one at a time, so the screen passes nothing and the AI
    waits; ``idle``, the mode has nothing to pass or ask (a network battle's peer decides);
    ``drags``, a left drag is the mode's own, so the camera pans with the middle button;
    ``thread``, a worker the screen joins as it closes; ``asked_in``, the (turn, phase) the
    mode put its question in; ``unshown``, ids it keeps off the table for now; ``table_key``
    and ``stands_as_shown(state)``, while set, the stands drawn as the mode shows them."""

    paced: bool = False
    idle: bool = False
    drags: bool = False
    thread = None
    asked_in: tuple | None = None
    unshown: Collection[str] = ()
    table_key: object = None
    stands_as_shown = None

    def enter(self, screen) -> None:
        """Called when the mode becomes current."""

    def on_event(self, screen, ev) -> Mode | None:
        """React to an event on the table; return a new mode or None to stay."""
        return None

    def draw(self, screen, surface: pygame.Surface) -> None:
        """Draw the mode's overlay."""

    def confirm(self, screen) -> Mode | None:
        """The Enter key / the panel's main button."""
        return None

    def cancel(self, screen) -> Mode | None:
        """The Esc key."""
        return None


def is_click(ev) -> bool:
    """A left-button release: what picks things on the table."""
    return ev.type == pygame.MOUSEBUTTONUP and ev.button == 1
