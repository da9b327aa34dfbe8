"""Where hulldown keeps its files: saves, the autosave and battle logs.

The folder is the platform's user data folder for "hulldown" (platformdirs), or the folder named
by the ``HULLDOWN_DATA_DIR`` environment variable (tests, portable installs).
"""

from __future__ import annotations

import os
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


def saves_dir() -> Path:
    """Where Ctrl+S saves go by default."""
    path = data_dir() / "saves"
    path.mkdir(parents=True, exist_ok=True)
    return path
