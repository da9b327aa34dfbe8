"""Reading a JSON file that a user hands the program (a scenario, a GeoJSON map, the editor's
autosave): one reader, so every kind of file says what is wrong with it in the same words;
and writing any file atomically, so a crash never leaves half of one."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


class JsonFileError(ValueError):
    """A file cannot be read as JSON; the message is one line naming the file and the
    problem (no such file, cannot be read, not valid JSON with its line and column)."""


def read_json_file(path: str | os.PathLike, encoding: str = "utf-8") -> Any:
    """The JSON value a file holds.

    Raises
    ------
    JsonFileError
        ``file: no such file``, ``file: cannot be read (why)``, ``file: line L column C: not
        valid JSON (why)`` or ``file: not valid JSON (nested too deep)``.
    """
    where = str(path)
    try:
        text = Path(path).read_text(encoding=encoding)
    except FileNotFoundError:
        raise JsonFileError(f"{where}: no such file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise JsonFileError(f"{where}: cannot be read ({err})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise JsonFileError(
            f"{where}: line {err.lineno} column {err.colno}: not valid JSON ({err.msg})"
        ) from None
    except RecursionError:
        raise JsonFileError(f"{where}: not valid JSON (nested too deep)") from None


def write_atomic(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` to ``path`` atomically: a temporary file in the same folder, flushed and
    synced, then renamed over the target, so a crash never leaves a half-written file."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
