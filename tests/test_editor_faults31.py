"""A new user's editor faults: the Item panel in a low window, scenario fields out of
their bounds, an autosave's relative path, a left-out stand's name, the problem counts and
repeated pastes; each driven on the real editor screen (dummy video driver)."""

from __future__ import annotations

import pygame
import pytest

from tests.test_editor_faults30 import shipped_map
from tests.test_editor_ui import frame, press

pytestmark = pytest.mark.usefixtures("data_dir")


# ------------------------------------------------------------------ 1. the Item panel fits


def _road(doc) -> int:
    feats = doc.raw["terrain"]["features"]
    return next(i for i, f in enumerate(feats) if "Line" in f["geometry"]["type"])


@pytest.mark.parametrize("size", [(800, 600), (960, 600), (1000, 650)])
@pytest.mark.parametrize("what", ["road", "stand", "polygon"])
def test_the_item_panel_ends_above_the_status_line(size, what):
    from game.ui.app import App

    app = App(size=size)
    try:
        s = shipped_map(app, "modern-meeting")
        ref = {"road": ("feature", _road(s.doc)), "stand": ("stand", 0)}
        s.selection = [ref.get(what, ("feature", 0))]
        s.show_panel("Item")
        frame(s)
        window, status = pygame.Rect((0, 0), size), s.status_rect()

        def check():
            alive = [w for w in s._panel_widgets if w.alive()]
            assert alive
            for w in [*alive, *(b for b in s._widgets if b.alive())]:
                assert window.contains(w.rect), (w, w.rect)
                assert not w.rect.colliderect(status), (getattr(w, "text", w), w.rect)
            return {getattr(w, "text", "") for w in alive}

        shown = check()
        seen = set(shown)
        for _ in range(10):  # every button can still be reached by scrolling
            if "More below" not in shown:
                break
            press(s, "More below")
            shown = check()
            seen |= shown
        assert {"Half-turn copy", "Mirror copy |", "Mirror copy -", "Delete (Del)"} <= seen
        if "More above" in shown:
            press(s, "More above")
            assert "Mirror copy -" not in check() or size[1] > 600
    finally:
        pygame.quit()
