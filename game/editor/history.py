"""The editor's history: undo, redo, a list the user can jump in, and "unsaved changes".

Each entry keeps the command that redoes it and the one that undoes it. A mouse drag sends
many commands with one ``merge_key``; they merge into one entry (the first undo, the last
redo: MegaMek's one entry per drag), so undo takes the whole drag back at once. Whether the
document has unsaved changes is judged by the history position against the position at the
last save, not by a flag: undoing back to the saved state makes it clean again.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any

from game.editor.commands import MISSING, Batch, Command, Insert, Remove, Replace, SetField
from game.editor.mend import mend_shape, showable

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


# ----------------------------------------------------------------------------- kept in a file

KEPT_ENTRIES = 100
"""How many of the latest history entries an autosave keeps (the undo history after a
restore); older ones are dropped, as beyond :data:`DEFAULT_LIMIT`."""


def command_to_json(command: Command) -> dict:
    """A command as a JSON object (``{"op": "insert" | "remove" | "replace" | "set" |
    "batch", ...}``), for an autosave to keep the undo history.

    Raises TypeError for a command of another class."""
    ops = {Insert: "insert", Remove: "remove", Replace: "replace"}
    if type(command) in ops:
        out = {"op": ops[type(command)], "kind": command.kind, "index": command.index}
        if not isinstance(command, Remove):
            out["item"] = command.item
        return {**out, "label": command.label}
    if isinstance(command, SetField):
        out = {
            "op": "set",
            "path": list(command.path),
            "label": command.label,
            "position": command.position,
        }
        if command.value is MISSING:
            out["missing"] = True
        else:
            out["value"] = command.value
        return out
    if isinstance(command, Batch):
        return {
            "op": "batch",
            "commands": [command_to_json(c) for c in command.commands],
            "label": command.label,
        }
    raise TypeError(f"no JSON form for {type(command).__name__}")


def command_from_json(data: Any) -> Command:
    """The command :func:`command_to_json` wrote.

    Raises ValueError when ``data`` is not such an object (a field missing or of a wrong
    type)."""
    def need(cond: bool, what: str) -> None:
        if not cond:
            raise ValueError(f"not a history command: {what}")

    need(isinstance(data, dict), "not an object")
    op, label = data.get("op"), data.get("label", "")
    need(isinstance(label, str), "label")
    label = showable(label)  # shown and written again: no NUL or lone surrogate
    if op in ("insert", "remove", "replace"):
        kind, index = data.get("kind"), data.get("index")
        need(kind in ("feature", "stand"), "kind")
        need(isinstance(index, int) and not isinstance(index, bool) and index >= 0, "index")
        if op == "remove":
            return Remove(kind, index, label)
        need("item" in data, "item")
        return (Insert if op == "insert" else Replace)(kind, index, data["item"], label)
    if op == "set":
        path, position = data.get("path"), data.get("position")
        need(isinstance(path, list) and bool(path), "path")
        need(all(isinstance(k, (str, int)) and not isinstance(k, bool) for k in path), "path")
        need(position is None or (isinstance(position, int) and position >= 0), "position")
        value = MISSING if data.get("missing") is True else data.get("value")
        need(data.get("missing") is True or "value" in data, "value")
        return SetField(tuple(path), value, label, position)
    if op == "batch":
        cmds = data.get("commands")
        need(isinstance(cmds, list), "commands")
        return Batch(tuple(command_from_json(c) for c in cmds), label)
    raise ValueError(f"not a history command: op {op!r}")


def history_to_json(history: History) -> dict:
    """The undo history up to the current position (the latest :data:`KEPT_ENTRIES`
    entries; undone ones are left out) as a JSON object for an autosave."""
    first = max(0, history.position - KEPT_ENTRIES)
    return {
        "entries": [
            {"label": e.label, "redo": command_to_json(e.redo), "undo": command_to_json(e.undo)}
            for e in history.entries[first : history.position]
        ]
    }


def history_from_json(data: Any, raw: dict) -> History:
    """A history over ``raw`` (the scenario as it stands, at the end of the entries) from
    what :func:`history_to_json` wrote, never saved. Every entry is undone and redone on a
    copy first, so a history that does not lead to ``raw``, or that undoes to a map the
    editor would have to mend (:func:`~game.editor.mend.mend_shape`), is refused, not kept.

    Raises ValueError when ``data`` is not such a history or does not lead to ``raw``."""
    if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
        raise ValueError("not a history: no list of entries")
    entries = []
    for e in data["entries"]:
        if not isinstance(e, dict) or not isinstance(e.get("label"), str):
            raise ValueError("not a history entry")
        # a label is shown in the History panel: no NUL or lone surrogate reaches the font
        entries.append(
            Entry(
                showable(e["label"]),
                command_from_json(e.get("redo")),
                command_from_json(e.get("undo")),
            )
        )
    # every map the history can undo or redo to must be one the editor can show as it is, as
    # the maps it was recorded on were (an undo to a null feature or to no terrain
    # crashed the drawing): an item a command puts in is checked on its own, and only a
    # command that sets a field has the whole map checked after it (checking the whole map
    # after every entry took 33-90 s for 100 entries on a 90,000-position map)
    trial = copy.deepcopy(raw)
    try:
        for k, e in enumerate(reversed(entries)):
            e.undo.perform(trial)
            if not _shows(e.undo, trial):
                raise ValueError(f"undoing {k + 1} change(s) gives a map the editor cannot show")
        for k, e in enumerate(entries):
            e.redo.perform(trial)
            if k < len(entries) - 1 and not _shows(e.redo, trial):
                raise ValueError(f"redoing {k + 1} change(s) gives a map the editor cannot show")
    except Exception as err:  # any command that does not fit the scenario
        raise ValueError(f"the history does not fit the scenario ({err})") from None
    if json.dumps(trial, sort_keys=True) != json.dumps(raw, sort_keys=True):
        raise ValueError("the history does not lead to the scenario as saved")
    return History(raw, entries=entries, position=len(entries), saved_position=None)


def _shows(command: Command, raw: dict) -> bool:
    """Whether the map ``raw``, just changed by ``command``, is still one the editor shows
    as it is (:func:`~game.editor.mend.mend_shape` has nothing to mend): a feature or stand
    an Insert or Replace puts in is checked in a map of its own, a Remove cannot spoil the
    map, and a SetField (which may replace any part of it) has the whole map checked."""
    if isinstance(command, Batch):
        return all(_shows(c, raw) for c in command.commands)
    if isinstance(command, Remove):
        return True
    if isinstance(command, (Insert, Replace)):
        alone: dict = {"terrain": {"type": "FeatureCollection", "features": []}, "stands": []}
        if command.kind == "feature":
            alone["terrain"]["features"].append(command.item)
        else:
            alone["stands"].append(command.item)
        return not mend_shape(copy.deepcopy(alone))  # mending changes what it is given
    return not mend_shape(raw)
