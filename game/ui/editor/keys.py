"""The map editor screen's keyboard: who has it (a text field, applied when left; a dialog
over the table). :class:`Entries` is the screen's ``entries``, :class:`Dialogs` its
``dialogs``."""

from __future__ import annotations

from collections.abc import Callable

import pygame
import pygame_gui
from pygame_gui.elements import UITextEntryBox, UITextEntryLine


class Entries:
    """The map editor's text fields applied as one edit on Enter or on leaving them, and
    taken back by Esc (its ``entries``). ``manager`` is the window's pygame_gui manager
    (who has the keyboard); ``say(text, error=False)`` the screen's status line;
    ``changed()`` tells the screen its panel must show what was written. ``fields``: field
    -> [label, on_set, the text it had when last applied]; ``editing``: the field that had
    the keyboard when last looked."""

    def __init__(self, manager, say: Callable, changed: Callable[[], None]):
        self.manager = manager
        self.say = say
        self.changed = changed
        self.fields: dict = {}
        self.editing = None

    def register(self, widget, label: str, on_set) -> None:
        """Register a text field whose typing is applied as one edit on Enter or on leaving
        it, and taken back by Esc: ``on_set(text)`` applies it and returns None, or
        refuses it with the reason (a sentence); ``label`` names the field in messages."""
        self.fields[widget] = [label, on_set, widget.get_text()]

    def watch(self) -> None:
        """Apply the registered field that lost the keyboard (a click elsewhere, Tab, its
        panel rebuilt), and note the one that has it."""
        focus = self.manager.get_focus_set() or set()
        now = next((e for e in focus if e in self.fields and e.alive()), None)
        if self.editing is not None and self.editing is not now:
            left, self.editing = self.editing, None
            self.apply(left)
        if now is not None:
            self.editing = now

    def apply(self, widget) -> bool:
        """Apply what was typed in a registered field, when it changed: a refusal is said
        (in red, with the reason) and the field shows the value it keeps. True when applied
        or unchanged."""
        entry = self.fields.get(widget)
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
        self.changed()  # the panel shows what was written
        return True

    def cancel(self) -> None:
        """Esc in a registered field: its text goes back to the value it keeps, unapplied."""
        widget, self.editing = self.editing, None
        if widget is not None and widget in self.fields and widget.alive():
            widget.set_text(self.fields[widget][2])
            self.say(f"{self.fields[widget][0]}: not changed.")

    def typed_key(self, ev) -> None:
        """A key typed while a field has the keyboard: Enter applies a one-line field (a
        new line in the briefing), Esc takes the typing back; both give the keys back to
        the editor's shortcuts."""
        if ev.key == pygame.K_ESCAPE:
            self.cancel()
        elif ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if isinstance(self.editing, UITextEntryBox):
                return
            widget, self.editing = self.editing, None
            if widget is not None:
                self.apply(widget)
        else:
            return
        focus = self.manager.get_focus_set() or set()
        for e in focus:
            if isinstance(e, (UITextEntryLine, UITextEntryBox)):
                e.unfocus()
        self.manager.set_focus_set(None)  # the next key is a shortcut again
        self.changed()

    def typing(self) -> bool:
        """Whether a live text field has the keyboard."""
        focus = self.manager.get_focus_set() or set()
        return any(isinstance(e, (UITextEntryLine, UITextEntryBox)) and e.alive() for e in focus)


class Dialogs:
    """The windows open over the map editor's table (its ``dialogs``): while one is open
    it takes the keys (Enter its OK, Esc closes it) and the clicks on it."""

    def __init__(self):
        self.windows: list = []

    def add(self, window) -> None:
        """A dialog opened over the table."""
        self.windows.append(window)

    def open(self) -> bool:
        """Whether a dialog is open (closed ones are forgotten)."""
        self.windows = [d for d in self.windows if d.alive()]
        return bool(self.windows)

    def key(self, ev) -> None:
        """Enter presses the open dialog's OK (or confirm) button, Esc closes it."""
        top = self.windows[-1]
        if ev.key == pygame.K_ESCAPE:
            top.kill()
        elif ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            ok = getattr(top, "ok_button", None) or getattr(top, "confirm_button", None)
            if ok is not None and ok.is_enabled:
                pygame.event.post(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=ok))

    def over(self, pos) -> bool:
        """Whether a pixel is on an open dialog (the table under it is not clicked)."""
        return self.open() and any(d.rect.collidepoint(pos) for d in self.windows)
