"""Where hulldown keeps its files: saves, the autosave and battle logs.

The folder is the platform's user data folder for "hulldown" (platformdirs), or the folder named
by the ``HULLDOWN_DATA_DIR`` environment variable (tests, portable installs).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import platformdirs


def data_dir() -> Path:
    """The folder for saves and logs (created if missing)."""
    base = os.environ.get("HULLDOWN_DATA_DIR") or platformdirs.user_data_dir("hulldown", False)
    path = Path(base)
    path.mkdir(parents=True, exist_ok=True)
    return path


def autosave_path() -> Path:
    """The autosave, rewritten atomically after every action of a battle on screen."""
    return data_dir() / "autosave.json"


def logs_dir() -> Path:
    """Where battles played on screen write their battle logs."""
    path = data_dir() / "logs"
    path.mkdir(parents=True, exist_ok=True)
    return path


def battle_log_path(scenario_path: str | Path, seed: int) -> Path:
    """Where a battle of this scenario and seed writes its log: the logs folder, named after
    the scenario file (only letters, digits, ``-``, ``_`` and ``.``, at most 80) and the seed.
    A save's scenario path is only a label, so it never places the log elsewhere."""
    stem = re.sub(r"[^A-Za-z0-9_.-]", "_", Path(str(scenario_path)).stem)[:80] or "battle"
    return logs_dir() / f"{stem}-seed{seed}.jsonl"


def saves_dir() -> Path:
    """Where Ctrl+S saves go by default."""
    path = data_dir() / "saves"
    path.mkdir(parents=True, exist_ok=True)
    return path
