"""The autosave as an append-only journal (``hulldown-journal/1``).

A battle on screen is autosaved after every action. Rewriting the whole save each time (the
scenario as JSON, two fsyncs) cost ~30 ms in the frame where the action lands, so the autosave
is a journal instead:

- its first line, the header, is written once per battle (atomically: a temporary file
  renamed) and again when a battle is loaded or resumed: the scenario, the seed,
  ``scenario_hash``, ``meta``, the actions taken so far and the state hash after them;
- then one line per action: the action and the state hash after it (``meta`` again on the
  line after it changed);
- a line is handed to the operating system at once (a kill -9 loses nothing written); the
  fsync that makes it survive a power cut runs in a background thread, at most once per
  action, never in the frame.

Reading it back (:func:`read_journal`) gives the same document a ``hulldown-save`` file
holds, plus the state hashes to check on the way: after the header's actions and after each
line's. A last line cut short (the process killed while
writing it) is dropped: at most the action in flight is lost.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import stat
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO

from game.rules.files.jsonfile import (
    JsonFileError,
    _check_wide,
    _decode,
    _open_regular_file,
    _parse,
    container_problem,
    remove_stale_temps,
    write_atomic,
)

JOURNAL_FORMAT = "hulldown-journal/1"
MAX_JOURNAL_BYTES = 64 * 1024 * 1024
"""Largest journal read (a 12-turn battle's journal is under 200 KB)."""

__all__ = ["JOURNAL_FORMAT", "Journal", "is_journal", "read_journal"]


def _line(doc: dict) -> str:
    return json.dumps(doc, separators=(",", ":"), allow_nan=False) + "\n"


class Journal:
    """An open autosave journal at ``path``: :meth:`start` writes the header (with the actions
    so far), :meth:`append` one action's line. Not thread-safe: one battle writes it.

    Raises OSError from :meth:`start` and :meth:`append` when the file cannot be written (a
    full disk); the battle goes on in memory and the next :meth:`start` writes it whole.
    """

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self._fh: IO[str] | None = None
        self._meta_json: str | None = None
        self._dirty = threading.Event()
        self._lock = threading.Lock()
        self._stop = False
        self._sync_thread: threading.Thread | None = None
        self.sync_error: OSError | None = None  # the background fsync's last failure

    @property
    def is_open(self) -> bool:
        """True while lines can be appended (after a successful :meth:`start`)."""
        return self._fh is not None

    def start(self, header: dict) -> None:
        """Write the journal anew, atomically, as its header alone (``format`` is set here;
        the rest is the battle's: scenario, seed, hashes, meta, actions so far), then keep
        the file open for :meth:`append`."""
        self.close()
        header = {"format": JOURNAL_FORMAT, **header}
        self._meta_json = json.dumps(header.get("meta", {}), sort_keys=True)
        write_atomic(self.path, _line(header))
        self._fh = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 (kept open)

    def append(self, action: dict, state_hash: str, meta: dict) -> None:
        """Append one action's line (``meta`` is written only when it changed since the last
        line); the line is in the operating system's hands when this returns, and is synced
        to the disk in the background."""
        if self._fh is None:
            raise OSError(f"{self.path}: the autosave journal is not open")
        line = {"action": action, "state_hash": state_hash}
        meta_json = json.dumps(meta, sort_keys=True)
        if meta_json != self._meta_json:
            line["meta"] = meta
        try:
            self._fh.write(_line(line))
            self._fh.flush()
        except OSError:
            self.close()  # a partial line may be in the file: the next start rewrites it
            raise
        self._meta_json = meta_json
        self._request_sync()

    def _request_sync(self) -> None:
        with self._lock:
            self._dirty.set()
            if self._sync_thread is None:
                self._stop = False
                self._sync_thread = threading.Thread(
                    target=self._sync_loop, name="autosave-fsync", daemon=True
                )
                self._sync_thread.start()

    def _sync_loop(self) -> None:
        while not self._stop:
            if not self._dirty.wait(timeout=2.0):
                with self._lock:  # idle: end, unless a line came in meanwhile
                    if not self._dirty.is_set():
                        self._sync_thread = None
                        return
                continue
            self._dirty.clear()
            fh = self._fh
            if fh is None:
                continue
            try:
                os.fsync(fh.fileno())
                self.sync_error = None
            except (OSError, ValueError) as err:  # closed meanwhile, or a failing disk
                self.sync_error = err if isinstance(err, OSError) else None

    def flush(self) -> None:
        """Sync what has been appended now, in the caller's thread (tests, leaving)."""
        if self._fh is not None:
            self._fh.flush()
            os.fsync(self._fh.fileno())

    def close(self) -> None:
        """Stop appending (the file stays as written)."""
        fh, self._fh = self._fh, None
        with self._lock:
            thread, self._sync_thread = self._sync_thread, None
            self._stop = True
            self._dirty.set()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)
        if fh is not None:
            with contextlib.suppress(OSError):
                fh.close()


def is_journal(path: str | os.PathLike) -> bool:
    """True when the file's first bytes open a ``hulldown-journal`` header (the autosave), so
    a loader can tell it from a ``hulldown-save`` file without reading it twice."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False  # a FIFO or a device would block or never end: the reader refuses it
        with open(path, "rb") as fh:
            head = fh.read(64)
    except OSError:
        return False
    return head.lstrip(b"\xef\xbb\xbf").startswith(b'{"format":"hulldown-journal/')


JOURNAL_CONTAINERS = (1_000_000, 10_000)
"""Arrays and objects a journal's line may hold: the header (the scenario, at most 100,000
terrain positions, and the actions so far), then an action's line (a path of at most 1,000
points). An unknown key of 20 million empty lists took 1.7 GB."""
PROGRESS_LINES = 4096
"""Lines read between two calls of :func:`read_journal`'s ``progress``."""


def read_journal(
    path: str | os.PathLike,
    progress: Callable[[int, int], None] | None = None,
    convert: Callable[[int, dict], object] | None = None,
    notes: list[str] | None = None,
) -> tuple[dict, dict[int, str]]:
    """The save document a journal holds, and the state hashes to check: the state hash
    after each number of actions the journal vouches for (the header's actions, then each
    line's).

    The document has the fields of a ``hulldown-save`` file (``format`` is the journal's):
    ``scenario_path``, ``scenario``, ``seed``, ``scenario_hash``, ``meta`` (the last one
    written), ``actions`` (the header's, then the lines') and ``state_hash`` (after the last
    action). A last line without its newline that does not parse is the line being
    written when the process was killed: it is dropped.

    A tail of zero bytes (a power cut; before, the whole journal was refused for its
    "control character") is cut at the last whole line before it: the battle resumes from
    every intact line, and one line for ``notes`` (when given) says how many bytes were cut
    and about how many actions they held (the zeros hide where the lines ended: the count is
    the bytes over the mean length of the lines kept).

    The file is read a line at a time and only each line's action and state hash are kept,
    so memory follows the actions, not the file's text (a 62 MB journal took 1 GB);
    ``progress``, if given, is called now and then with the bytes read and the file's size;
    ``convert``, if given, is called with each line's action's index among the actions and
    its JSON object, and what it returns is kept instead (the save loader's action objects,
    so the JSON of every action is never held at once); what it raises is let through.

    Raises
    ------
    JsonFileError
        One line naming the file and the line: the file cannot be read (as
        :func:`game.rules.files.jsonfile.read_json_file`), a line is not valid JSON or not an
        object or holds more arrays and objects than :data:`JOURNAL_CONTAINERS`, the header
        is not a journal's or its ``actions`` is not a list or its ``state_hash`` not text, a
        line has no ``action`` object or no ``state_hash`` text.
    """
    where = str(path)
    remove_stale_temps(path)
    with _open_regular_file(path, where, MAX_JOURNAL_BYTES) as fh:
        size = os.fstat(fh.fileno()).st_size
        doc: dict | None = None
        actions: list = []
        hashes: dict[int, str] = {}
        offset = 0  # where the line begins in the file (for the byte offsets of errors)
        cut = 0  # bytes of a tail a power cut filled with zeros
        for n, raw in enumerate(_lines(fh, where), 1):
            complete = raw.endswith(b"\n")
            body, at = (raw[:-1] if complete else raw), offset
            if n == 1:
                _check_wide(body, where)
            if b"\0" in raw:  # the zeros, and the line they cut short: every line before kept
                if n == 1:
                    raise JsonFileError(
                        f"{where}: not an autosave journal (zero bytes from its first line "
                        "on: a power cut?)"
                    )
                cut = size - offset
                break
            offset += len(raw)
            if n == 1:
                header_bytes = len(raw)
                if body.startswith(codecs.BOM_UTF8):
                    body, at = body[len(codecs.BOM_UTF8) :], len(codecs.BOM_UTF8)
                if not body.strip():
                    break
            value = _journal_line(body, at, where, n, complete)
            if value is None:
                break  # the action in flight when the process was killed
            if doc is None:
                doc = _header(value, where)
                actions = doc["actions"] = list(doc["actions"])
                header_actions = len(actions)
                hashes[len(actions)] = doc["state_hash"]
                continue
            _check_action_line(value, where, n)
            action = value["action"]
            actions.append(action if convert is None else convert(len(actions), action))
            hashes[len(actions)] = value["state_hash"]
            if "meta" in value:
                doc["meta"] = value["meta"]
            if progress is not None and n % PROGRESS_LINES == 0:
                progress(fh.tell(), size)
    if doc is None:
        raise JsonFileError(f"{where}: not an autosave journal (the file is empty)")
    doc["state_hash"] = hashes[len(actions)]
    if cut and notes is not None:
        lines = len(actions) - header_actions
        notes.append(_power_cut_note(where, cut, len(actions), lines, offset - header_bytes))
    if progress is not None:
        progress(size, size)
    return doc, hashes


def _journal_line(body: bytes, at: int, where: str, n: int, complete: bool) -> dict | None:
    """Line ``n`` of a journal (``body``, its bytes without the newline, ``at`` the byte
    offset its text starts at, after a BOM) as a JSON object, held to
    :data:`JOURNAL_CONTAINERS` (the header's limit on line 1). None for a last line without
    its newline that does not parse: the action in flight when the process was killed.
    Raises JsonFileError naming the file and line for anything else wrong with it."""
    text = _decode(body, where, "utf-8", at=at)
    try:
        problem = container_problem(body, JOURNAL_CONTAINERS[n > 1])
        if problem:
            raise JsonFileError(f"{where}: line {n}: {problem}")
        value = _parse(body, text, f"{where}: line {n}", False)
    except JsonFileError as err:
        if not complete and n > 1:
            return None
        raise JsonFileError(str(err).replace(": line 1 column ", ": column ")) from None
    if not isinstance(value, dict):
        raise JsonFileError(f"{where}: line {n}: must be an object")
    return value


def _check_action_line(value: dict, where: str, n: int) -> None:
    """Line ``n`` after the header holds an ``action`` object and its ``state_hash`` text;
    JsonFileError naming the file, the line and the field if not."""
    if not isinstance(value.get("action"), dict):
        raise JsonFileError(f"{where}: line {n}: $.action: must be an action (an object)")
    if not isinstance(value.get("state_hash"), str):
        raise JsonFileError(f"{where}: line {n}: $.state_hash: must be text")


def _power_cut_note(where: str, cut: int, actions: int, lines: int, line_bytes: int) -> str:
    """The note on a journal whose tail of ``cut`` bytes a power cut filled with zeros:
    resumed from ``actions`` actions; the number dropped is a guess, the bytes cut over the
    mean length of the ``lines`` action lines kept (``line_bytes`` in all; 100 bytes when
    none was kept), at least one."""
    mean = line_bytes / lines if lines else 100.0
    about = max(1, round(cut / mean))
    return (
        f"{where}: its last {cut:,} bytes were zeros or a line cut short (a power cut?): "
        f"resumed from the {actions} actions before them; about {about} "
        f"action{'' if about == 1 else 's'} after them {'was' if about == 1 else 'were'} "
        "dropped"
    )


def _lines(fh, where: str):
    """The lines of a binary file, each with its newline (the last may have none)."""
    while True:
        try:
            raw = fh.readline()
        except OSError as err:
            raise JsonFileError(f"{where}: cannot be read ({err.strerror or err})") from None
        if not raw:
            return
        yield raw


def _header(value: dict, where: str) -> dict:
    """A journal's header line checked: its format, its actions a list, its state hash text.
    Returns the document it begins (``meta`` defaulted)."""
    if value.get("format") != JOURNAL_FORMAT:
        raise JsonFileError(f"{where}: line 1: $.format: not a {JOURNAL_FORMAT} file")
    if not isinstance(value.get("actions"), list):
        raise JsonFileError(f"{where}: line 1: $.actions: must be a list of actions")
    if not isinstance(value.get("state_hash"), str):
        raise JsonFileError(f"{where}: line 1: $.state_hash: must be text")
    doc = dict(value)
    doc.setdefault("meta", {})
    return doc
