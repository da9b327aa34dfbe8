"""The battle's saves, autosave journal and loading (mixin of :class:`game.rules.battle.Battle`):
what a save holds (the scenario, the seed, the actions, the state hash after each action and
the digests that tie them together), the autosave journal written as the battle goes, and
``Battle.load``'s replay of a save that checks every state hash it records, so that one an
engine plays otherwise says how many of its actions still agree."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Self

from game.rules.actions import Action
from game.rules.battle_parts import BattleParts
from game.rules.files.engine import engine_stamp
from game.rules.files.journal import Journal
from game.rules.files.jsonfile import is_json_int, write_atomic
from game.rules.files.savefile import (
    SAVE_FORMAT,
    SaveError,
    actions_hash,
    diverged,
    go_on_note,
    read_save,
)


class SavesMixin(BattleParts):
    """Mixin of :class:`game.rules.battle.Battle` (it has ``scenario``, ``seed``, ``actions``,
    ``state_hash``, ``autosave``, ``meta`` and the log): saving, autosaving and loading."""

    def _save_fields(self) -> dict:
        """What a save and the autosave's header hold: the scenario, the seed, the actions so
        far, the state hash after them, and the digests tying them together."""
        actions = [a.to_dict() for a in self.actions]
        return {
            "engine": engine_stamp(),
            "scenario_path": self.scenario.path,
            "scenario": self.scenario.raw,
            "seed": self.seed,
            "auto_pass": self.auto_pass,
            "actions": actions,
            "turn": self.state.turn,
            "phase": self.state.phase,
            "state_hash": self.state_hash(),
            "scenario_hash": self._scenario_hash,
            "actions_hash": actions_hash(actions),
            "meta": self.meta,
            **self._hashes_field(),
        }

    def _hashes_field(self) -> dict:
        """``state_hashes``, the state hash after each action (a list as long as the actions),
        when the battle kept one for every action (:attr:`hashes`); else nothing. A save that
        an engine replays otherwise then says how many of its actions still agree."""
        hashes = self.hashes
        if hashes is None or len(hashes) != len(self.actions):
            return {}
        return {"state_hashes": list(hashes)}

    def _autosave_action(self, action: Action) -> None:
        """Append the action to the autosave journal (``hulldown-journal/1``), starting it
        anew when it is not open on :attr:`autosave` (the first action, a new path, or after
        a write failed). A failure is kept in :attr:`autosave_error`; play goes on."""
        try:
            j = self._journal
            if j is None or not j.is_open or j.path != Path(self.autosave):
                self._start_journal()
            else:
                j.append(
                    action.to_dict(),
                    self.hashes[-1] if self.hashes else self.state_hash(),
                    self.meta,
                )
            self.autosave_error = None
        except OSError as err:  # a full disk: the battle goes on in memory, and says so
            self.autosave_error = (
                f"{self.autosave}: the autosave could not be written ({err.strerror or err})"
            )

    def _start_journal(self) -> None:
        """Write the autosave journal anew at :attr:`autosave` (header with every action so
        far). Raises OSError when it cannot be written."""
        if self._journal is not None:
            self._journal.close()
        self._journal = Journal(self.autosave)
        self._journal.start(self._save_fields())

    def start_autosave(self) -> None:
        """Write the autosave journal whole now, unless it is open already (a screen opening
        a loaded or resumed battle, so that its first action only appends). A failure is
        kept in :attr:`autosave_error`; play goes on."""
        if self.autosave is None:
            return
        j = self._journal
        if j is not None and j.is_open and j.path == Path(self.autosave):
            return
        try:
            self._start_journal()
            self.autosave_error = None
        except OSError as err:  # a full disk: the battle goes on in memory, and says so
            self.autosave_error = (
                f"{self.autosave}: the autosave could not be written ({err.strerror or err})"
            )

    def close_autosave(self) -> None:
        """Sync the autosave journal and close it (leaving the battle; tests). The battle's
        next action, if any, starts it anew."""
        if self._journal is not None:
            with contextlib.suppress(OSError):
                self._journal.flush()
            self._journal.close()
            self._journal = None

    def save(self, path: str | os.PathLike) -> None:
        """Write the battle (``hulldown-save/2``: scenario, seed, actions, state hash and the
        digests of the scenario and of the actions; the state hash after each action too, when
        the battle kept them: :meth:`_hashes_field`), atomically. Saving to :attr:`autosave`'s
        own path writes the autosave journal anew instead (its header holds the same fields).

        Raises OSError when the file cannot be written; the file is then unchanged."""
        if self.autosave is not None and Path(path) == Path(self.autosave):
            self._start_journal()
            return
        doc = {"format": SAVE_FORMAT, **self._save_fields()}
        write_atomic(path, json.dumps(doc, separators=(",", ":")) + "\n")

    def write_log_to(self, path: str | os.PathLike) -> None:
        """Write this battle's log to ``path`` from its first event (a loaded or resumed
        battle holds its replayed events in memory) and go on writing there; the file is then
        byte for byte the log of the battle played without a break. Raises OSError when the
        file cannot be made."""
        self.log.open_file(path)
        self.log_path = path

    @classmethod
    def load(
        cls,
        path: str | os.PathLike,
        log_path: str | os.PathLike | None = None,
        autosave: str | os.PathLike | None = None,
        progress: Callable[[str, int, int], None] | None = None,
        upto: int | None = None,
    ) -> Self:
        """Load a save (``hulldown-save/2`` or ``/1``) or an autosave journal
        (``hulldown-journal/1``): rebuild its scenario, replay its actions with its seed and
        check its state hashes (a journal's after every action, a save's after every action
        when it records ``state_hashes``; an older save only its last). A file without
        ``auto_pass`` (written before automatic passes) replays as it was played, every pass and choice of
        who acts first among its actions. With ``autosave``, the battle autosaves there from
        :meth:`start_autosave` or its next action on. A journal's tail of zero bytes (a power
        cut) is dropped and :attr:`load_note` says so.
        ``progress("read", bytes, size)`` and ``progress("replay", done, actions)``, if
        given, are called now and then (a 62 MB autosave took 84-95 s, nothing shown).
        ``upto``: replay only the first ``upto`` actions (those a :class:`SaveDiverged`
        said agree) and go on from there; :attr:`load_note` says how many were dropped.

        Raises SaveError, one line naming the file, the field and the problem: what
        :func:`game.rules.files.savefile.read_save` refuses (the JSON reader's refusals, a
        seed, actions or ``meta`` of the wrong shape, a missing or unmatched
        ``scenario_hash`` or ``actions_hash``), an ``upto`` past its actions; and its
        subclass SaveDiverged for an action the replay refuses or a state hash it does not
        reach, naming the engine that wrote the file and how many actions agree.
        """
        where, notes = str(path), []  # notes: what a power cut's zeros took
        read = progress and (lambda done, size: progress("read", done, size))
        doc, checks, scenario, actions = read_save(path, notes, read)
        total = len(actions)
        if upto is not None and not (is_json_int(upto) and 0 <= upto <= total):
            raise SaveError(f"{where}: it holds {total} actions: cannot go on from action {upto}")
        auto = doc.get("auto_pass", False)  # none in older saves: replayed with every choice
        battle = cls(scenario, doc["seed"], log_path=log_path, auto_pass=auto)
        battle.hashes = []  # kept for its own saves: one state hash per action
        agreed = 0  # actions after which a recorded state hash was last reached
        for i, action in enumerate(actions[:upto]):
            if progress and i % 1024 == 0:
                progress("replay", i, total)
            try:
                battle.apply(action)
            except (ValueError, TypeError) as err:
                raise diverged(where, i, doc, total, agreed, f"refuses it: {err}") from None
            if i + 1 in checks:
                if battle.hashes[-1] != checks[i + 1]:
                    raise diverged(where, i, doc, total, agreed, "reached another state after it")
                agreed = i + 1
        if upto is None and battle.state_hash() != doc["state_hash"]:
            raise diverged(where, None, doc, total, agreed, "reached another state at the end")
        battle.load_note = ". ".join(notes + go_on_note(doc, upto, total)) or None
        progress and progress("replay", total, total)
        battle.meta = doc.get("meta", {})
        battle.autosave = autosave  # written whole by start_autosave or the next action
        return battle
