"""Editor commands: every change to the scenario being edited is one of these.

A command's :meth:`~Command.perform` changes the document and returns the command that undoes
it (Wesnoth's editor actions), so undo and redo need no other bookkeeping. Four primitives
cover every edit: insert, remove and replace an item of a list (terrain features, stands),
and set one field of the file; :class:`Batch` runs several as one. Higher-level edits (move,
rotate, mirror, drag a vertex, place a stand) live in :mod:`game.editor.edits` and build these.

Items are JSON values in the scenario file's own shape (``docs/formats.md``); commands copy
them in and out, so a command never shares a dict with the document.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["feature", "stand"]
MISSING: Any = type("Missing", (), {"__repr__": lambda self: "MISSING"})()
"""Marks a field absent from the file (setting it to MISSING deletes the key)."""


def items(raw: dict, kind: Kind) -> list:
    """The list of terrain features (``$.terrain.features``) or of stands (``$.stands``) of a
    scenario dict, created empty if the file has none yet."""
    if kind == "feature":
        terrain = raw.setdefault("terrain", {"type": "FeatureCollection", "features": []})
        return terrain.setdefault("features", [])
    return raw.setdefault("stands", [])


class Command:
    """One change of a scenario dict. ``label`` names it in the history list."""

    label: str = ""

    def perform(self, raw: dict) -> Command:
        """Apply the change to ``raw`` in place and return the command that undoes it.

        Raises IndexError or KeyError when the document does not hold what the command
        refers to (a bug in the caller: the history only runs commands built for it)."""
        raise NotImplementedError


@dataclass(frozen=True)
class Insert(Command):
    """Insert ``item`` at ``index`` of the feature or stand list; undone by :class:`Remove`."""

    kind: Kind
    index: int
    item: Any
    label: str = "add"

    def perform(self, raw: dict) -> Command:
        seq = items(raw, self.kind)
        if not 0 <= self.index <= len(seq):
            raise IndexError(f"insert {self.kind} at {self.index} of {len(seq)}")
        seq.insert(self.index, copy.deepcopy(self.item))
        return Remove(self.kind, self.index, self.label)


@dataclass(frozen=True)
class Remove(Command):
    """Remove the item at ``index`` of the feature or stand list; undone by :class:`Insert`."""

    kind: Kind
    index: int
    label: str = "delete"

    def perform(self, raw: dict) -> Command:
        old = items(raw, self.kind).pop(self.index)
        return Insert(self.kind, self.index, old, self.label)


@dataclass(frozen=True)
class Replace(Command):
    """Put ``item`` in place of the item at ``index``; undone by a Replace with the old one."""

    kind: Kind
    index: int
    item: Any
    label: str = "change"

    def perform(self, raw: dict) -> Command:
        seq = items(raw, self.kind)
        old = seq[self.index]
        seq[self.index] = copy.deepcopy(self.item)
        return Replace(self.kind, self.index, old, self.label)


@dataclass(frozen=True)
class SetField(Command):
    """Set the field at ``path`` (keys from the top of the file, e.g. ``("table", "width")``,
    or ``("sides", 0, "name")``) to ``value``; :data:`MISSING` deletes the key. Undone by a
    SetField with the old value (MISSING when the key was absent)."""

    path: tuple
    value: Any
    label: str = "setting"
    position: int | None = None  # where a key coming back goes among its dict's keys

    def perform(self, raw: dict) -> Command:
        parent: Any = raw
        for key in self.path[:-1]:
            parent = parent[key]
        last = self.path[-1]
        if not isinstance(parent, dict):
            old = parent[last]
            parent[last] = copy.deepcopy(self.value)
            return SetField(self.path, old, self.label)
        old = parent.get(last, MISSING)
        keys = list(parent)
        where = keys.index(last) if last in parent else None
        if self.value is MISSING:
            parent.pop(last, None)
        elif last in parent or self.position is None or self.position >= len(keys):
            parent[last] = copy.deepcopy(self.value)
        else:  # put the key back where it was, so the file's bytes come back too
            tail = {k: parent.pop(k) for k in keys[self.position :]}
            parent[last] = copy.deepcopy(self.value)
            parent.update(tail)
        return SetField(self.path, old, self.label, where)


@dataclass(frozen=True)
class Batch(Command):
    """Several commands as one history entry, performed in order; its inverse undoes them
    in reverse order."""

    commands: tuple[Command, ...]
    label: str = "edit"

    def perform(self, raw: dict) -> Command:
        done: list[Command] = []
        try:
            for c in self.commands:
                done.append(c.perform(raw))
        except Exception:
            for inv in reversed(done):  # all or nothing
                inv.perform(raw)
            raise
        return Batch(tuple(reversed(done)), self.label)


def removals(kind: Kind, indices, label: str = "delete") -> list[Command]:
    """Commands removing the items at ``indices`` (any order), highest index first so that
    each removal leaves the others' indices valid."""
    return [Remove(kind, i, label) for i in sorted(set(indices), reverse=True)]
