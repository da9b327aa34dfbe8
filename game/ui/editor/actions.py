"""What the map editor's tools and buttons do to the selection, as commands of
:mod:`game.editor`: select, add a drawn feature, place a stand, delete, turn, scale, duplicate,
copy onto the other half, undo and redo."""

from __future__ import annotations

import copy

from game.editor import edits
from game.editor.commands import Batch, Insert, items
from game.ui.editor.layout import (
    _pretty,
    mark_of,
)


class SelectionActions:
    """What the map editor's tools and buttons do to the selection (its ``actions``), each as
    a command of :mod:`game.editor` through the screen's ``commit``: add a drawn feature,
    place a stand, delete, turn, scale, nudge, duplicate, copy onto the other half, copy
    and paste, lock, hide and free. It reads and sets the screen's document, ``selection``
    (``select``), ``panel``, marks (``locked``, ``hidden``) and the stand placing settings,
    and says what it did with ``say``. ``clipboard``: what Ctrl+C copied."""

    def __init__(self, screen):
        self.screen = screen
        self.clipboard: list = []
        self._pastes = 0  # pastes of the clipboard so far

    def add_feature(self, feature: dict) -> None:
        """Add a drawn feature on top and select it."""
        n = len(items(self.screen.doc.raw, "feature"))
        label = f"draw {_pretty(feature['properties']['terrain'])}"
        if self.screen.commit(Insert("feature", n, feature, label)):
            self.screen.select([("feature", n)])

    def place_stand(self, x: float, y: float, facing: float) -> None:
        """Place a stand of the chosen unit and side at (x, y) inches (on the entry edge
        when the point is at or beyond it)."""
        if self.screen.place_unit is None:
            self.screen.say("Pick a unit in the Forces panel first.", error=True)
            self.screen.panel = "Forces"
            return
        raw = self.screen.doc.raw
        side = self.screen.side_spec(self.screen.place_side)
        entering = self.screen.entry_point_for(x, y)
        own = [s for s in raw.get("stands", []) if s.get("side") == self.screen.place_side]
        stand = {
            "id": edits.next_stand_id(raw, self.screen.place_side),
            "side": self.screen.place_side,
            "unit": self.screen.place_unit,
            "x": edits.tidy(entering[0] if entering else x),
            "y": edits.tidy(entering[1] if entering else y),
            "facing_deg": edits.edge_facing(side.get("entry_edge")) if entering else facing,
            "group": "1",
            "hq": False,
            "ghq": not any(s.get("ghq") for s in own),
            "on_table": entering is None,
        }
        n = len(raw.get("stands", []))
        if self.screen.commit(Insert("stand", n, stand, f"place {stand['id']}")):
            self.screen.select([("stand", n)])
            self.screen.panel = "Forces"

    def delete_selection(self) -> None:
        """Delete the selected features and stands."""
        if self.screen.selection and self.screen.commit(edits.delete(self.screen.selection)):
            self.screen.selection = []

    def _transform_selection(self, fn, label: str) -> None:
        if self.screen.selection:
            try:
                cmd = edits.transform(self.screen.doc.raw, self.screen.selection, fn, label)
            except ValueError as err:
                self.screen.say(f"Could not {label}: {err} (see Problems).", error=True)
                return
            self.screen.commit(cmd)

    def rotate_selection(self, angle: float) -> None:
        """Turn the selection by ``angle`` degrees about its centre."""
        c = edits.centre_of(self.screen.doc.raw, self.screen.selection)
        if c:
            self._transform_selection(edits.rotation(angle, *c), f"turn {angle:g} degrees")

    def scale_selection(self, factor: float) -> None:
        """Scale the selection about its centre."""
        c = edits.centre_of(self.screen.doc.raw, self.screen.selection)
        if c:
            self._transform_selection(edits.scaling(factor, *c), f"scale x{factor:.2f}")

    def duplicate_selection(self) -> None:
        """Copy the selection 1" to the right and up, and select the copies."""
        self._copies(edits.translation(1, -1), False, "duplicate")

    def half_turn_selection(self, copy: bool) -> None:
        """Turn the selection 180 degrees about the table's centre onto the other half, as a
        copy (stands join the other force) or in place (the seed sheets: each half alike)."""
        fn = edits.half_turn(*self.screen.table_size())
        if copy:
            self._copies(fn, True, "half-turn copy")
        else:
            self._transform_selection(fn, "half-turn")

    def mirror_selection(self, axis: str) -> None:
        """Mirror a copy of the selection across the table's centre line."""
        self._copies(edits.mirror_across(*self.screen.table_size(), axis), True, f"mirror ({axis})")

    def _copies(self, fn, other_side: bool, label: str) -> None:
        if not self.screen.selection:
            self.screen.say("Select something first.", error=True)
            return
        try:
            cmds = edits.copies(self.screen.doc.raw, self.screen.selection, fn, other_side, label)
        except ValueError as err:
            self.screen.say(f"Could not {label}: {err} (see Problems).", error=True)
            return
        if self.screen.commit(Batch(tuple(cmds), label)):
            new = [(c.kind, c.index) for c in cmds]
            self.screen.select(new)
            self.screen.say(f"{label}: {len(new)} new item(s), selected")

    NUDGE_IN = 0.1  # inches an arrow key moves the selection
    NUDGE_SHIFT_IN = 0.5  # with Shift: one grid step

    def nudge_selection(self, dx: int, dy: int, big: bool) -> None:
        """Move the selection by an arrow key's step (:attr:`NUDGE_IN`, with Shift
        :attr:`NUDGE_SHIFT_IN` inches) in the direction (dx, dy) of -1, 0 or 1."""
        step = self.NUDGE_SHIFT_IN if big else self.NUDGE_IN
        self._transform_selection(edits.translation(dx * step, dy * step), "nudge")

    def select_all(self) -> None:
        """Select every feature and stand of the layers shown (Ctrl+A)."""
        refs = [("feature", i) for i in range(len(items(self.screen.doc.raw, "feature")))]
        refs += [("stand", i) for i in range(len(items(self.screen.doc.raw, "stand")))]
        self.screen.select([r for r in refs if self.screen._ref_visible(r)])
        self.screen.say(f"Selected {len(self.screen.selection)} item(s)")

    def copy_selection(self) -> None:
        """Keep copies of the selected items for Ctrl+V (the editor's own clipboard); a
        carrier's riders go with it."""
        if not self.screen.selection:
            self.screen.say("Select something to copy first.", error=True)
            return
        self.clipboard = [
            (k, i, copy.deepcopy(items(self.screen.doc.raw, k)[i]))
            for k, i in edits.with_riders(self.screen.doc.raw, self.screen.selection)
        ]
        self._pastes = 0  # the first paste of these lands 1" right and down
        self.screen.say(f"Copied {len(self.clipboard)} item(s); Ctrl+V pastes them")

    def paste(self) -> None:
        """Add what Ctrl+C copied, 1" right and 1" down of where it was, each further paste
        of it one grid step (inches) further right and down than the last, so that copies
        do not lie on top of each other (stands get fresh ids), and select it."""
        if not self.clipboard:
            self.screen.say("Nothing copied yet (Ctrl+C copies the selection).", error=True)
            return
        off = 1 + self._pastes * self.screen.grid_size
        try:
            cmds = edits.copies_of(
                self.screen.doc.raw, self.clipboard, edits.translation(off, -off), False, "paste"
            )
        except ValueError as err:
            self.screen.say(f"Could not paste: {err}", error=True)
            return
        if self.screen.commit(Batch(tuple(cmds), "paste")):
            self._pastes += 1
            self.screen.select([(c.kind, c.index) for c in cmds])
            self.screen.say(f"Pasted {len(cmds)} item(s), selected")

    def lock_selection(self, hide: bool = False) -> None:
        """Lock (or hide) the selected features: they are no longer picked, moved or deleted
        (hidden ones not drawn either) until the Map panel's button frees them."""
        feats = items(self.screen.doc.raw, "feature")
        marks = {mark_of(feats[i]) for k, i in self.screen.selection if k == "feature"}
        (self.screen.hidden if hide else self.screen.locked).update(marks)
        self.screen.selection = [r for r in self.screen.selection if r[0] != "feature"]
        self.screen.say(
            f"{len(marks)} feature(s) {'hidden' if hide else 'locked'}; the Map panel shows "
            "and unlocks them again."
        )

    def free_feature(self, i: int) -> None:
        """Show and unlock feature ``i`` (a link of the Map panel's list of them)."""
        feats = items(self.screen.doc.raw, "feature")
        if 0 <= i < len(feats):
            mark = mark_of(feats[i])
            self.screen.hidden.discard(mark)
            self.screen.locked.discard(mark)
            self.screen.say(f"Feature {i + 1} shown and unlocked")

    def free_features(self) -> None:
        """Show every hidden feature and unlock every locked one."""
        n = len(self.screen.hidden) + len(self.screen.locked)
        self.screen.hidden.clear()
        self.screen.locked.clear()
        self.screen.say(f"{n} feature(s) shown and unlocked")
