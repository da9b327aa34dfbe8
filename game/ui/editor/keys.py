"""The map editor screen's input helpers: who has the keyboard (a text field, a dialog),
links clicked in panel text, and panning with the right or middle button."""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UITextEntryBox, UITextEntryLine


class InputMixin:
    """Keyboard focus, dialogs, wrapped links and the camera's drag for the editor screen."""

    def _wrapped_link(self, pos) -> bool:
        """Follow a link of a panel's text clicked on a line it wraps onto before its last
        (pygame_gui makes only a wrapped link's last line clickable); True when one was."""
        from pygame_gui.core.text.hyperlink_text_chunk import HyperlinkTextChunk

        for box, fn in list(self._fields.items()):
            if fn != self._link or not box.alive() or not box.rect.collidepoint(pos):
                continue
            layout = getattr(box, "text_box_layout", None)
            if layout is None:
                return False
            base_x, base_y = box._calculate_hyperlinks_offsets()
            for row in layout.layout_rows:
                for chunk in row.items:
                    if not isinstance(chunk, HyperlinkTextChunk):
                        continue
                    at = pygame.Rect((base_x + chunk.x, base_y + chunk.y), chunk.size)
                    if at.collidepoint(pos) and chunk not in box.link_hover_chunks:
                        fn(chunk.href)  # the last line's click is pygame_gui's own event
                        return True
        return False

    def _typing(self) -> bool:
        """Whether a live text field has the keyboard."""
        focus = self.app.manager.get_focus_set() or set()
        return any(isinstance(e, (UITextEntryLine, UITextEntryBox)) and e.alive() for e in focus)

    def _release_line(self) -> None:
        """Take the keyboard from a one-line field (Enter or Esc typed in it); the briefing's
        box keeps it (Enter is a new line there)."""
        focus = self.app.manager.get_focus_set() or set()
        if any(isinstance(e, UITextEntryLine) for e in focus):
            for e in focus:
                if isinstance(e, UITextEntryLine):
                    e.unfocus()
            self.app.manager.set_focus_set(None)
            self._panel_key = None  # the panel shows what the field wrote

    def _dialog_open(self) -> bool:
        """Whether a dialog is open (closed ones are forgotten)."""
        self._dialogs = [d for d in self._dialogs if d.alive()]
        return bool(self._dialogs)

    def _dialog_key(self, ev) -> None:
        """Enter presses the open dialog's OK (or confirm) button, Esc closes it."""
        top = self._dialogs[-1]
        if ev.key == pygame.K_ESCAPE:
            top.kill()
        elif ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            ok = getattr(top, "ok_button", None) or getattr(top, "confirm_button", None)
            if ok is not None and ok.is_enabled:
                pygame.event.post(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=ok))

    def _over_dialog(self, pos) -> bool:
        """Whether a pixel is on an open dialog (the table under it is not clicked)."""
        return self._dialog_open() and any(d.rect.collidepoint(pos) for d in self._dialogs)

    def _camera(self, ev) -> bool:
        """Pan with the right or middle button."""
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button in (2, 3):
            self._pan_from = ev.pos
            return True
        if ev.type == pygame.MOUSEMOTION and self._pan_from is not None:
            self.tv.pan(ev.pos[0] - self._pan_from[0], ev.pos[1] - self._pan_from[1])
            self._pan_from = ev.pos
            return True
        if ev.type == pygame.MOUSEBUTTONUP and ev.button in (2, 3):
            self._pan_from = None
            return True
        return False
