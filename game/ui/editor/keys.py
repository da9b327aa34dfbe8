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

    # ------------------------------------------------------------ fields applied when left

    def _entry(self, widget, label: str, on_set) -> None:
        """Register a text field whose typing is applied as one edit on Enter or on leaving
        it, and taken back by Esc: ``on_set(text)`` applies it and returns None, or
        refuses it with the reason (a sentence); ``label`` names the field in messages."""
        self._entries[widget] = [label, on_set, widget.get_text()]

    _entries: dict = {}  # field -> [label, on_set, the text it had when last applied]
    _editing = None  # the registered field that had the keyboard when last looked

    def _watch_entries(self) -> None:
        """Apply the registered field that lost the keyboard (a click elsewhere, Tab, its
        panel rebuilt), and note the one that has it."""
        focus = self.app.manager.get_focus_set() or set()
        now = next((e for e in focus if e in self._entries and e.alive()), None)
        if self._editing is not None and self._editing is not now:
            left, self._editing = self._editing, None
            self._apply_entry(left)
        if now is not None:
            self._editing = now

    def _apply_entry(self, widget) -> bool:
        """Apply what was typed in a registered field, when it changed: a refusal is said
        (in red, with the reason) and the field shows the value it keeps. True when applied
        or unchanged."""
        entry = self._entries.get(widget)
        if entry is None:
            return True
        label, on_set, before = entry
        text = widget.get_text()
        if text == before:
            return True
        why = on_set(text)
        if why:
            why = why.split(": ", 1)[1] if why.startswith(label.split(" (")[0] + ":") else why
            kept = f"it stays {before}" if before.strip() else "it stays empty"
            self.say(f'{label}: "{text}" was not taken ({why}); {kept}.', error=True)
            if widget.alive():
                widget.set_text(before)
            return False
        entry[2] = text
        self._panel_key = None  # the panel shows what was written
        return True

    def _cancel_entry(self) -> None:
        """Esc in a registered field: its text goes back to the value it keeps, unapplied."""
        widget, self._editing = self._editing, None
        if widget is not None and widget in self._entries and widget.alive():
            widget.set_text(self._entries[widget][2])
            self.say(f"{self._entries[widget][0]}: not changed.")

    def _typed_key(self, ev) -> None:
        """A key typed while a field has the keyboard: Enter applies a one-line field (a
        new line in the briefing), Esc takes the typing back; both give the keys back to
        the editor's shortcuts."""
        if ev.key == pygame.K_ESCAPE:
            self._cancel_entry()
        elif ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if isinstance(self._editing, UITextEntryBox):
                return
            widget, self._editing = self._editing, None
            if widget is not None:
                self._apply_entry(widget)
        else:
            return
        focus = self.app.manager.get_focus_set() or set()
        for e in focus:
            if isinstance(e, (UITextEntryLine, UITextEntryBox)):
                e.unfocus()
        self.app.manager.set_focus_set(None)  # the next key is a shortcut again
        self._panel_key = None

    def _typing(self) -> bool:
        """Whether a live text field has the keyboard."""
        focus = self.app.manager.get_focus_set() or set()
        return any(isinstance(e, (UITextEntryLine, UITextEntryBox)) and e.alive() for e in focus)

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
