"""The editor's history: undo, redo, a list the user can jump in, and "unsaved changes".

Each entry keeps the command that redoes it and the one that undoes it. A mouse drag sends
many commands with one ``merge_key``; they merge into one entry (the first undo, the last
redo: MegaMek's one entry per drag), so undo takes the whole drag back at once. Whether the
document has unsaved changes is judged by the history position against the position at the
last save, not by a flag: undoing back to the saved state makes it clean again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from game.editor.commands import Command

DEFAULT_LIMIT = 500  # entries kept; the issue asks for at least 200


@dataclass
class Entry:
    """One step of the history: its label, the command that redoes it and the one that
    undoes it, and the merge key of the drag that made it (None for a single change)."""

    label: str
    redo: Command
    undo: Command
    merge_key: Any = None


@dataclass
class History:
    """Undo and redo over one scenario dict ``raw``.

    ``position`` is the number of entries applied (0: the document as opened). ``limit`` is
    how many entries are kept; the oldest are dropped beyond it. ``version`` counts every
    change of the document, for screens that redraw or autosave when it moves.
    """

    raw: dict
    limit: int = DEFAULT_LIMIT
    entries: list[Entry] = field(default_factory=list)
    position: int = 0
    saved_position: int | None = 0
    version: int = 0

    def do(self, command: Command, merge_key: Any = None) -> None:
        """Perform ``command`` and record it; entries after the current position are
        dropped (a new change ends the redo branch). With a ``merge_key`` equal to the last
        entry's, the command merges into it: the command must then set absolute values (a
        Replace or SetField of the same things), so that it alone redoes the whole drag.

        Raises whatever ``command.perform`` raises, with the document and history unchanged.
        """
        undo = command.perform(self.raw)
        self.version += 1
        last = self.entries[self.position - 1] if self.position else None
        if (
            merge_key is not None
            and last is not None
            and self.position == len(self.entries)
            and last.merge_key == merge_key
            and self.saved_position != self.position
        ):
            last.redo = command
            return
        del self.entries[self.position :]
        if self.saved_position is not None and self.saved_position > self.position:
            self.saved_position = None  # the saved state is on the dropped branch
        self.entries.append(Entry(command.label, command, undo, merge_key))
        self.position += 1
        overflow = len(self.entries) - self.limit
        if overflow > 0:
            del self.entries[:overflow]
            self.position -= overflow
            if self.saved_position is not None:
                self.saved_position -= overflow
                if self.saved_position < 0:
                    self.saved_position = None

    def end_merge(self) -> None:
        """End the drag in progress: the next command with the same key starts a new entry."""
        if self.position:
            self.entries[self.position - 1].merge_key = None

    @property
    def can_undo(self) -> bool:
        """Whether there is an entry to undo."""
        return self.position > 0

    @property
    def can_redo(self) -> bool:
        """Whether there is an undone entry to redo."""
        return self.position < len(self.entries)

    def undo(self) -> Entry | None:
        """Undo the last applied entry; returns it, or None when there is nothing to undo."""
        if not self.can_undo:
            return None
        self.position -= 1
        entry = self.entries[self.position]
        entry.undo.perform(self.raw)
        entry.merge_key = None
        self.version += 1
        return entry

    def redo(self) -> Entry | None:
        """Redo the next undone entry; returns it, or None when there is nothing to redo."""
        if not self.can_redo:
            return None
        entry = self.entries[self.position]
        entry.redo.perform(self.raw)
        self.position += 1
        self.version += 1
        return entry

    def jump(self, position: int) -> None:
        """Undo or redo until ``position`` entries are applied (the history list's click).

        Raises ValueError for a position outside 0..len(entries)."""
        if not 0 <= position <= len(self.entries):
            raise ValueError(f"history position {position} is outside 0..{len(self.entries)}")
        while self.position > position:
            self.undo()
        while self.position < position:
            self.redo()

    def mark_saved(self) -> None:
        """The document was just saved as it stands."""
        self.saved_position = self.position
        self.end_merge()

    @property
    def dirty(self) -> bool:
        """Whether the document differs from the last save (or from the file as opened)."""
        return self.saved_position != self.position

    def labels(self) -> list[str]:
        """The entries' labels, oldest first (the history list)."""
        return [e.label for e in self.entries]
