"""Where hulldown keeps its files: saves, the autosave and battle logs.

The folder is the platform's user data folder for "hulldown" (platformdirs), or the folder named
by the ``HULLDOWN_DATA_DIR`` environment variable (tests, portable installs).

None of these functions raises: a folder that cannot be made (a file where it should be, a
read-only or missing parent) is returned all the same, and writing there raises OSError,
which every writer reports and plays on (the battle in memory, as on a full disk).
:func:`data_dir_problem` says what is wrong, once, for the menu and the command line.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from pathlib import Path

import platformdirs

from game import STALE_TEMP_S, remove_old_files

SUBFOLDERS = ("logs", "saves", "scenarios")
"""The data folder's own folders: battle logs, Ctrl+S saves, the editor's scenarios."""


def _base() -> Path:
    return Path(
        os.environ.get("HULLDOWN_DATA_DIR") or platformdirs.user_data_dir("hulldown", False)
    )


def _made(path: Path) -> Path:
    """``path``, made if missing when it can be (see the module's note)."""
    with contextlib.suppress(OSError):
        path.mkdir(parents=True, exist_ok=True)
    return path


def exists(path: str | os.PathLike) -> bool:
    """Whether ``path`` names something, never raising: a path the system cannot even look
    at (over 4,096 bytes, a name over 255, a NUL, no permission on a parent) counts as not
    there, so a data folder with such a path is used like a missing one. Writing
    there then raises OSError, which every writer reports."""
    try:
        os.stat(path)
    except (OSError, ValueError):
        return False
    return True


def is_file(path: str | os.PathLike) -> bool:
    """Whether ``path`` is a regular file (or a link to one), never raising (see
    :func:`exists`)."""
    try:
        return os.path.isfile(path)
    except (OSError, ValueError):
        return False


def listed(folder: Path, pattern: str) -> list[Path]:
    """The files of ``folder`` whose names match ``pattern`` (a glob), sorted; an empty
    list, never an error, for a folder that cannot be read (missing, a file, a path too
    long, no permission)."""
    try:
        return sorted(folder.glob(pattern))
    except (OSError, ValueError):
        return []


def data_dir() -> Path:
    """The folder for saves and logs (made if missing and possible; never raises)."""
    return _made(_base())


def autosave_path() -> Path:
    """The autosave, rewritten atomically after every action of a battle on screen."""
    return data_dir() / "autosave.json"


def logs_dir() -> Path:
    """Where battles played on screen write their battle logs (made if possible)."""
    return _made(data_dir() / "logs")


def battle_log_path(scenario_path: str | Path, seed: int) -> Path:
    """Where a battle of this scenario and seed writes its log: the logs folder, named after
    the scenario file (only letters, digits, ``-``, ``_`` and ``.``, at most 80) and the seed.
    A save's scenario path is only a label, so it never places the log elsewhere."""
    stem = re.sub(r"[^A-Za-z0-9_.-]", "_", Path(str(scenario_path)).stem)[:80] or "battle"
    return logs_dir() / f"{stem}-seed{seed}.jsonl"


def saves_dir() -> Path:
    """Where Ctrl+S saves go by default (made if possible)."""
    return _made(data_dir() / "saves")


def scenarios_dir() -> Path:
    """The player's own scenarios, where the map editor saves them (made if possible)."""
    return _made(data_dir() / "scenarios")


def folder_problem(folder: str | os.PathLike) -> str | None:
    """Why files cannot be written into ``folder`` (made if missing), or None: "it is a file,
    not a folder", or "cannot write there (why)" for a missing parent, no permission, a
    read-only or full disk. Tried for real: a temporary file is made and removed."""
    if os.path.exists(folder) and not os.path.isdir(folder):
        return "it is a file, not a folder"
    try:
        os.makedirs(folder, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as err:
        return f"cannot write there ({err.strerror or err})"
    return None


def shown(path: str | os.PathLike, most: int = 160) -> str:
    """``path`` as a message shows it: whole when at most ``most`` characters, else its
    start and end around "..." and its length, so a line naming a path of thousands of
    characters still fits a screen."""
    text = str(path)
    if len(text) <= most:
        return text
    keep = (most - 5) // 2
    return f"{text[:keep]}...{text[-keep:]} (a path of {len(text)} characters)"


def data_dir_problem() -> str | None:
    """What is wrong with the data folder or its ``logs``, ``saves`` and ``scenarios``, as
    one line naming the folder and the problem (``the data folder's logs folder FOLDER: it
    is a file, not a folder``), or None when each can be written."""
    base = _base()
    problem = folder_problem(base)
    if problem is not None:
        return f"the data folder {shown(base)}: {problem}"
    for name in SUBFOLDERS:
        problem = folder_problem(base / name)
        if problem is not None:
            return f"the data folder's {name} folder {shown(base / name)}: {problem}"
    return None


def remove_stale_temps_everywhere(older_than_s: float | None = None) -> int:
    """Remove the temporary files that writes killed half way left in the data folder and
    its own folders (``.NAME.*.tmp`` older than ``older_than_s`` seconds, by default
    STALE_TEMP_S), at start-up; the
    next save of the same file would only remove its own. Returns how many; never raises."""
    base = _base()
    return sum(
        remove_old_files(folder, ".*.tmp", STALE_TEMP_S if older_than_s is None else older_than_s)
        for folder in (base, *(base / name for name in SUBFOLDERS))
    )
