"""The window's size at start (game/ui/app.py): as large as the desktop allows, or as
asked by HULLDOWN_WINDOW."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    "env, desktop, want",
    [
        ("", None, (1280, 800)),  # no desktop known (the dummy driver)
        ("", (1280, 800), (1280, 800)),
        ("", (1920, 1080), (1840, 980)),  # room left for the desktop's bars
        ("", (1024, 768), (1024, 768)),  # a small screen: never larger than it
        ("1920x1080", (1280, 800), (1920, 1080)),  # asked for: given
        ("big", (1920, 1080), (1840, 980)),  # a bad value is ignored
        ("640x480", None, (1280, 800)),  # below 800x600: ignored
    ],
)
def test_the_window_opens_as_large_as_the_desktop_allows(monkeypatch, env, desktop, want):
    from game.ui.app import window_size

    monkeypatch.setenv("HULLDOWN_WINDOW", env)
    assert window_size(desktop) == want
