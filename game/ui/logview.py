"""The battle log panel: sentences in a box, read from the top down; once they fill it the
newest stay in view at the bottom and the wheel scrolls back.

pygame_gui's text box lays its whole text out again on every append (9 ms an action in turn
1, far more late in a battle). This panel keeps the sentences as a list, appends in
constant time, and renders only the lines it shows, each wrapped once and kept; the box is
drawn again only when its lines, its scroll or its size change.
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pygame_gui

from game.ui.logtext import panel_text

FONT_FILE = Path(pygame_gui.__file__).with_name("data") / "NotoSans-Regular.ttf"
FONT_PX = 14
BACKGROUND = (246, 243, 234)  # the theme's text box (game/ui/theme.json)
BORDER = (154, 154, 138)
INK = (30, 30, 30)
BAR = (170, 166, 150)
PAD_PX = 6
GAP_PX = 3  # between two sentences
BAR_W_PX = 6
WHEEL_LINES = 3  # sentences scrolled by one notch of the wheel


class LogView:
    """A scrolling list of sentences inside ``rect`` (pixels of the window).

    ``lines`` are plain text (no markup), oldest first. ``scroll`` counts the sentences
    hidden below the box: 0 shows the newest; it holds its place while new sentences arrive.
    ``held`` counts the newest sentences not shown yet: the battle screen tells the missions
    that landed one at a time, and their sentences wait for their turn.
    """

    def __init__(self, rect: pygame.Rect, font_px: int = FONT_PX):
        self.rect = pygame.Rect(rect)
        self.lines: list[str] = []
        self.scroll = 0
        self.held = 0
        self.visible = True
        self._font = pygame.font.Font(str(FONT_FILE), font_px)
        self._rendered: dict[int, pygame.Surface] = {}
        self._box: pygame.Surface | None = None
        self._box_key: tuple | None = None

    def append(self, text: str) -> None:
        """Add a sentence at the bottom (constant time: nothing is laid out here)."""
        self.lines.append(text)
        if self.scroll:
            self.scroll += 1  # reading older lines: they stay where they are

    def extend(self, texts) -> None:
        """Add sentences at the bottom, in order."""
        for t in texts:
            self.append(t)

    @property
    def shown(self) -> int:
        """How many sentences, from the oldest, the box may show (all but the held ones)."""
        return max(0, len(self.lines) - self.held)

    def resize(self, rect: pygame.Rect) -> None:
        """A new place and size; lines are wrapped again as they are shown."""
        rect = pygame.Rect(rect)
        if rect.w != self.rect.w:
            self._rendered.clear()
        self.rect = rect

    def handle(self, ev, mouse_pos) -> bool:
        """Scroll with the wheel when the mouse is over the box; True when it took the event."""
        if not self.visible or ev.type != pygame.MOUSEWHEEL:
            return False
        if not self.rect.collidepoint(mouse_pos):
            return False
        self.scroll = max(0, min(self.shown - 1, self.scroll + WHEEL_LINES * ev.y))
        return True

    def _line(self, i: int) -> pygame.Surface:
        surf = self._rendered.get(i)
        if surf is None:
            width = self.rect.w - 2 * PAD_PX - BAR_W_PX - 2
            # the text made showable: no NUL or lone surrogate, no word the font would wrap
            # one letter at a time in quadratic time
            text = panel_text(self.lines[i])
            surf = self._font.render(text, True, INK, None, max(40, width))
            self._rendered[i] = surf
        return surf

    def _room(self, i: int) -> int:
        """Pixels the sentence ``i`` takes, its gap included; none for an empty one (a log
        line with no sentence of its own, e.g. the second automatic pass of a skipped phase,
        told at the first)."""
        return self._line(i).get_height() + GAP_PX if self.lines[i] else 0

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the box: the sentences that fit, newest at the bottom, and a scroll bar."""
        if not self.visible or self.rect.w <= 0 or self.rect.h <= 0:
            return
        key = (self.shown, self.scroll, self.rect.size)
        if self._box is None or key != self._box_key:
            self._box = self._render_box()
            self._box_key = (self.shown, self.scroll, self.rect.size)  # scroll may ease
        surface.blit(self._box, self.rect.topleft)

    def _fitting(self) -> list[int]:
        """The sentences shown, newest first: those that fit whole above the bottom at this
        scroll; scrolled so far back that the box would not fill, the scroll is eased back."""
        room = self.rect.h - 2 * PAD_PX + GAP_PX
        while True:
            shown, used = [], 0
            i = self.shown - 1 - self.scroll
            while i >= 0:
                h = self._room(i)
                if shown and used + h > room:
                    break  # older lines stay above, out of view
                used += h
                shown.append(i)
                i -= 1
            if i >= 0 or self.scroll == 0:
                return shown
            newer = self.shown - self.scroll  # the next newer line, below those shown
            if used + self._room(newer) > room:
                return shown  # the oldest line at the top and the box full
            self.scroll -= 1

    def _render_box(self) -> pygame.Surface:
        w, h = self.rect.size
        box = pygame.Surface((w, h))
        box.fill(BACKGROUND)
        shown = self._fitting()
        used = sum(self._room(i) for i in shown)
        # a log that fits starts at the top, as text does; a longer one keeps the newest in view
        y = h - PAD_PX if len(shown) < self.shown else PAD_PX + used - GAP_PX
        for i in shown:
            if not self.lines[i]:
                continue  # takes no room (_room)
            surf = self._line(i)
            y -= surf.get_height()
            box.blit(surf, (PAD_PX, y))
            y -= GAP_PX
        n = self.shown
        if n > len(shown):  # the bar: how much is shown, and where
            track = h - 2 * PAD_PX
            thumb = max(16, int(track * len(shown) / n))
            bottom = track - int((track - thumb) * self.scroll / max(1, n - len(shown)))
            top = min(track - thumb, max(0, bottom - thumb))
            pygame.draw.rect(box, BAR, pygame.Rect(w - BAR_W_PX - 3, PAD_PX + top, BAR_W_PX, thumb))
        if self.scroll:  # newer lines below: say so where they would appear
            note = self._font.render(f"{self.scroll} newer below (wheel down)", True, INK, BAR)
            box.blit(note, (w - note.get_width() - BAR_W_PX - 8, h - note.get_height() - 2))
        pygame.draw.rect(box, BORDER, pygame.Rect(0, 0, w, h), 1)
        return box
