"""The main menu's list of scenarios: each file shown by its title and its ruleset in
words ("Modern skirmish (Modern, introductory)"), its file name kept for the line under the
list, its sides' names for the players' choice; a file that cannot be read is listed all the
same, marked, with the reason. Files are read once while they stay unchanged."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import game
from game.editor.mend import showable


def points_text(value: float) -> str:
    """A force's points as the screens write them: whole points, a half rounded up
    ("2534" for 2533.5, "6238" for 6238.4); the sum itself keeps its
    fractions (stands x points x cohesion / 10), so the ratio is not changed."""
    return str(math.floor(float(value) + 0.5))


UNREADABLE = "cannot be read"
"""The mark of a listed file that cannot be read, after its name."""


@dataclass(frozen=True)
class ScenarioEntry:
    """One scenario file as the menu lists it: its ``path``, ``title`` and ``ruleset`` as
    the file says them ("" when missing), its sides' names (or ids) in file order, and the
    ``problem`` when the file cannot be read as a scenario ("" when it can)."""

    path: Path
    title: str = ""
    ruleset: str = ""
    sides: tuple[str, ...] = ()
    problem: str = ""

    @property
    def label(self) -> str:
        """The line in the list: "Title (Modern, full game)", or "name.json (cannot be
        read)" for a file that cannot be; never a control character."""
        if self.problem:
            return showable(f"{self.path.name} ({UNREADABLE})")
        words = (
            game.ruleset(self.ruleset).title
            if self.ruleset in game.RULESET_IDS
            else self.ruleset or "no ruleset"
        )
        return showable(f"{self.title or self.path.stem} ({words})")


_CACHE: dict[Path, tuple[tuple[int, int], ScenarioEntry]] = {}


def scenario_entry(path: Path) -> ScenarioEntry:
    """The file at ``path`` as the menu lists it, read with the project's JSON reader (a
    file unchanged since the last call is not read again). Never raises: a file that
    cannot be read, is not a JSON object, or names no sides has its ``problem`` said."""
    try:
        st = path.stat()
        stamp = (st.st_mtime_ns, st.st_size)
    except OSError as err:
        return ScenarioEntry(path, problem=str(err.strerror or err))
    hit = _CACHE.get(path)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    entry = _read(path)
    _CACHE[path] = (stamp, entry)
    return entry


def _read(path: Path) -> ScenarioEntry:
    try:
        raw = game.read_json_file(path)
    except game.JsonFileError as err:
        return ScenarioEntry(path, problem=str(err).replace(f"{path}: ", "", 1))
    if not isinstance(raw, dict):
        return ScenarioEntry(path, problem="it holds no scenario (not a JSON object)")
    sides = raw.get("sides")
    names = (
        tuple(str(s.get("name") or s.get("id") or "") for s in sides if isinstance(s, dict))
        if isinstance(sides, list)
        else ()
    )
    if len(names) != 2:
        return ScenarioEntry(path, problem="it holds no scenario (it does not name two sides)")
    title = raw.get("title")
    ruleset = raw.get("ruleset")
    return ScenarioEntry(
        path,
        title if isinstance(title, str) else "",
        ruleset if isinstance(ruleset, str) else "",
        tuple(showable(n) for n in names),
    )


def labelled(paths: list[Path]) -> dict[str, ScenarioEntry]:
    """Each file's line in the list, made unique: two files of the same title and ruleset
    are told apart by their file names (and their folders when those are the same too)."""
    entries = [scenario_entry(p) for p in paths]
    counts: dict[str, int] = {}
    for e in entries:
        counts[e.label] = counts.get(e.label, 0) + 1
    out: dict[str, ScenarioEntry] = {}
    for e in entries:
        label = e.label
        if counts[label] > 1:
            label = f"{label}: {showable(e.path.name)}"
        if label in out:
            label = f"{label} in {showable(e.path.parent.name)}"
        while label in out:  # the same file listed twice, or two folders of one name
            label += " "
        out[label] = e
    return out
