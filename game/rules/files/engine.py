"""Which engine wrote a file: hulldown's version and a digest of its rules tables, recorded
in saves, autosave journals and battle logs (``"engine": {"version": ..., "rules": ...}``).

A save is a list of actions replayed by the engine that reads it. When the rules changed
between the engine that wrote it and the one reading it, the replay parts from the recorded
state hashes somewhere; the stamp lets the reader say which engine wrote the file instead of
only that a hash differs. Files written before the stamp have none: they are said to come
from "an earlier hulldown".
"""

from __future__ import annotations

import functools
import hashlib
from importlib import metadata

from game.rules.files.shipped import shipped_dir

RULES_DIGEST_CHARS = 12
"""Hex digits of the rules tables' digest kept in a file (48 bits: enough to tell two
releases' tables apart, short enough to read out)."""
MAX_STAMP_CHARS = 64
"""Longest version or digest read from a file."""


@functools.cache
def engine_version() -> str:
    """hulldown's version as installed (pyproject.toml's ``version``), or ``"unknown"`` when
    the package is run from a tree that was never installed."""
    try:
        return metadata.version("hulldown")
    except metadata.PackageNotFoundError:
        return "unknown"


@functools.cache
def rules_digest() -> str:
    """A digest of the rules tables (every file of ``assets/data``, by name and bytes, in
    name order): its first RULES_DIGEST_CHARS hex digits of sha256."""
    h = hashlib.sha256()
    folder = shipped_dir("assets/data")
    for path in sorted(p for p in folder.iterdir() if p.is_file()):
        h.update(path.name.encode("utf-8") + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()[:RULES_DIGEST_CHARS]


def engine_stamp() -> dict[str, str]:
    """This engine's stamp: ``{"version": ..., "rules": ...}``."""
    return {"version": engine_version(), "rules": rules_digest()}


def stamp_problem(value) -> str | None:
    """Why a file's ``engine`` field is not a stamp (an object of two short texts), or None."""
    if not isinstance(value, dict):
        return f"must be an object {{version, rules}}, not {type(value).__name__}"
    for key in ("version", "rules"):
        v = value.get(key)
        if not isinstance(v, str) or not v or len(v) > MAX_STAMP_CHARS or not v.isprintable():
            return f".{key}: must be a short text"
    return None


def describe(stamp) -> str:
    """A stamp in words: ``hulldown 0.1.0 (rules tables 1a2b3c4d5e6f)``; a file without one
    (or with one not of its shape) was written by ``an earlier hulldown``."""
    if stamp is None or stamp_problem(stamp) is not None:
        return "an earlier hulldown (before files recorded their engine)"
    return f"hulldown {stamp['version']} (rules tables {stamp['rules']})"


def same_engine(stamp) -> bool:
    """Whether a file's stamp is this engine's own."""
    return stamp == engine_stamp()
