"""The autosave as an append-only journal (``hulldown-journal/1``, #30).

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

import contextlib
import json
import os
import stat
import threading
from pathlib import Path

from game.rules.files.jsonfile import (
    JsonFileError,
    _decode,
    _parse,
    _read_regular_file,
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
        self._fh = None
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


def _cut_zeroed_tail(data: bytes) -> tuple[bytes, int]:
    """A journal's bytes without a tail that a power cut filled with zero bytes (the file's
    length was on the disk, its last blocks were not): cut at the last newline before the
    first zero byte, so every whole line before the zeros is kept. Returns the bytes kept and
    how many were cut (0: no zero byte)."""
    first = data.find(b"\0")
    if first < 0:
        return data, 0
    keep = data.rfind(b"\n", 0, first) + 1
    return data[:keep], len(data) - keep


def read_journal(
    path: str | os.PathLike, notes: list[str] | None = None
) -> tuple[dict, dict[int, str]]:
    """The save document a journal holds, and the state hashes to check: the state hash
    after each number of actions the journal vouches for (the header's actions, then each
    line's).

    The document has the fields of a ``hulldown-save`` file (``format`` is the journal's):
    ``scenario_path``, ``scenario``, ``seed``, ``scenario_hash``, ``meta`` (the last one
    written), ``actions`` (the header's, then the lines') and ``state_hash`` (after the last
    action). A last line without its newline that does not parse is the line being
    written when the process was killed: it is dropped.

    A tail of zero bytes (a power cut, #42; before, the whole journal was refused for its
    "control character") is cut at the last whole line before it: the battle resumes from
    every intact line, and one line for ``notes`` (when given) says how many bytes were cut
    and about how many actions they held (the zeros hide where the lines ended: the count is
    the bytes over the mean length of the lines kept).

    Raises
    ------
    JsonFileError
        One line naming the file and the line: the file cannot be read (as
        :func:`game.rules.files.jsonfile.read_json_file`), a line is not valid JSON or not an
        object, the header is not a journal's or its ``actions`` is not a list or its
        ``state_hash`` not text, a line has no ``action`` object or no ``state_hash`` text.
    """
    where = str(path)
    remove_stale_temps(path)
    data = _read_regular_file(path, where, MAX_JOURNAL_BYTES)
    data, cut = _cut_zeroed_tail(data)
    if cut and not data:
        raise JsonFileError(
            f"{where}: not an autosave journal (zero bytes from its first line on: a power cut?)"
        )
    text = _decode(data, where, "utf-8-sig")
    rows = text.split("\n")
    complete = text.endswith("\n")
    if complete:
        rows.pop()
    if not rows or not rows[0].strip():
        raise JsonFileError(f"{where}: not an autosave journal (the file is empty)")
    values: list[dict] = []
    for n, row in enumerate(rows, 1):
        last_cut = n == len(rows) and not complete
        try:
            value = _parse(row.encode("utf-8"), row, f"{where}: line {n}", False)
        except JsonFileError as err:
            if last_cut and n > 1:
                break  # the action in flight when the process was killed
            raise JsonFileError(str(err).replace(": line 1 column ", ": column ")) from None
        if not isinstance(value, dict):
            raise JsonFileError(f"{where}: line {n}: must be an object")
        values.append(value)
    header = values[0]
    if header.get("format") != JOURNAL_FORMAT:
        raise JsonFileError(f"{where}: line 1: $.format: not a {JOURNAL_FORMAT} file")
    if not isinstance(header.get("actions"), list):
        raise JsonFileError(f"{where}: line 1: $.actions: must be a list of actions")
    if not isinstance(header.get("state_hash"), str):
        raise JsonFileError(f"{where}: line 1: $.state_hash: must be text")
    doc = dict(header)
    doc.setdefault("meta", {})
    actions = list(header["actions"])
    hashes = {len(actions): header["state_hash"]}
    for n, line in enumerate(values[1:], 2):
        if not isinstance(line.get("action"), dict):
            raise JsonFileError(f"{where}: line {n}: $.action: must be an action (an object)")
        if not isinstance(line.get("state_hash"), str):
            raise JsonFileError(f"{where}: line {n}: $.state_hash: must be text")
        actions.append(line["action"])
        hashes[len(actions)] = line["state_hash"]
        if "meta" in line:
            doc["meta"] = line["meta"]
    doc["actions"] = actions
    doc["state_hash"] = hashes[len(actions)]
    if cut and notes is not None:
        lines = len(values) - 1
        mean = (len(data) - len(rows[0]) - 1) / lines if lines else 100.0
        about = max(1, round(cut / mean))
        notes.append(
            f"{where}: its last {cut:,} bytes were zeros or a line cut short (a power cut?): "
            f"resumed from the {len(actions)} actions before them; about {about} "
            f"action{'' if about == 1 else 's'} after them {'was' if about == 1 else 'were'} "
            "dropped"
        )
    return doc, hashes
