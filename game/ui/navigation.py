"""Which screen is which: the screens reach one another by name through :data:`SCREENS`, so
that no screen imports another (the menu, the quick battle, the editor and the network screens
each lead to the others) and each is loaded only when first shown, which keeps the menu's first
frame quick.

A screen is an object with ``open()``, ``close()``, ``handle(event)``, ``update(dt)`` (seconds),
``draw(surface)``, ``resized(size)`` (pixels) and, optionally, ``busy()``
(:class:`game.ui.app.Screen`); :func:`show` makes one and puts it on the window.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

SCREENS: dict[str, tuple[str, str]] = {
    "menu": ("game.ui.menu", "MenuScreen"),
    "quick_battle": ("game.ui.quick_battle", "QuickBattleScreen"),
    "editor": ("game.ui.editor", "editor_screen"),
    "settings": ("game.ui.settings_screen", "SettingsScreen"),
    "network_setup": ("game.ui.network_menu", "NetworkSetupScreen"),
    "network_wait": ("game.ui.network", "NetworkWaitScreen"),
    "battle": ("game.ui.battles", "battle_screen"),
    "replay": ("game.ui.replay", "ReplayScreen"),
}
"""Screen name -> (module, the class or function that makes it from ``(app, *args)``)."""


def maker(name: str) -> Callable:
    """What makes the screen called ``name`` (its module imported now if it was not). Raises
    KeyError for a name that is no screen."""
    module, attr = SCREENS[name]
    return getattr(importlib.import_module(module), attr)


def make(app, name: str, *args, **kwargs):
    """The screen called ``name``, made for ``app`` with ``args`` (not shown yet)."""
    return maker(name)(app, *args, **kwargs)


def show(app, name: str, *args, **kwargs):
    """Make the screen called ``name`` and show it in ``app``'s window; returns it."""
    screen = make(app, name, *args, **kwargs)
    app.show(screen)
    return screen
