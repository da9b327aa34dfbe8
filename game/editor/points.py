"""A scenario's forces as the seed scenario sheets cost them, and the sheets' balancing moves
("Create your own Tank Scenario", 000 and 001): each force is worth the number of stands x the
unit's points x the force's cohesion / 10, summed over its unit types (an HQ or GHQ stand
counting twice in the full games); forces are balanced by removing or adding stands, or by
changing a cohesion level. :func:`balancing_moves` tries every such move and ranks them by how
near the two forces' ratio comes to 1.

Pure functions of a scenario dict (which may still be invalid: unknown units count 0, as in
the editor's statistics) and the rules data; no pygame. ``hulldown points`` prints them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from game import RulesData

MAX_ADDED = 5
"""At most this many stands of one type are added by one move."""
COHESION_RANGE = (1, 20)
"""The cohesion levels a move may set (000 04.00: a D20 roll)."""


@dataclass(frozen=True)
class UnitLine:
    """One unit type of a force: ``count`` stands (an HQ or GHQ counted twice in the full
    games: ``weighted``) of ``points`` each."""

    unit: str
    count: int
    weighted: int
    points: int


@dataclass(frozen=True)
class Force:
    """A side's force as the sheet costs it: its ``lines`` and its ``cohesion``; ``value``
    is sum(weighted x points) x cohesion / 10."""

    side_id: str
    name: str
    cohesion: float
    lines: tuple[UnitLine, ...]

    @property
    def value(self) -> float:
        """The force's points (000/001 scenario sheets)."""
        return sum(ln.weighted * ln.points for ln in self.lines) * self.cohesion / 10

    @property
    def stands(self) -> int:
        """How many stands it has."""
        return sum(ln.count for ln in self.lines)


@dataclass(frozen=True)
class Move:
    """One balancing move: ``what`` in words, the two forces' values after it (in the
    scenario's side order) and their ``ratio`` (larger over smaller, >= 1)."""

    what: str
    values: tuple[float, float]
    ratio: float


def ratio(a: float, b: float) -> float:
    """The larger of two values over the smaller (inf when only the smaller is 0; 1 when
    both are)."""
    lo, hi = sorted((a, b))
    if hi == 0:
        return 1.0
    return hi / lo if lo > 0 else math.inf


def hq_weight(ruleset: object, stand: dict) -> int:
    """How many times a stand's points count: twice for an HQ or GHQ stand in the full
    games (000 scenario sheet, "complete game"; rules-decisions "Units beyond tanks"), once
    otherwise (the introductory sheets count a GHQ tank at its price)."""
    full = ruleset == "modern-full"
    return 2 if full and (stand.get("hq") is True or stand.get("ghq") is True) else 1


def _dicts(value: object) -> list[dict]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def forces(raw: dict, data: RulesData) -> tuple[Force, ...]:
    """Each side's force as the sheets cost them, in the file's side order. A file that is
    still broken costs what it can: units the ruleset does not know count 0 points, a side
    without a finite number for cohesion counts 0, entries that are not objects are passed
    over (the editor's statistics and ``hulldown points`` read unchecked files)."""
    try:
        units = data.units_for(raw.get("ruleset"))
    except (KeyError, TypeError):
        units = {}
    stands = _dicts(raw.get("stands"))
    out = []
    for side in _dicts(raw.get("sides")):
        coh = side.get("cohesion")
        ok = isinstance(coh, int | float) and not isinstance(coh, bool) and math.isfinite(coh)
        cohesion = float(coh) if ok else 0.0
        count: dict[str, list[int]] = {}
        for st in stands:
            if st.get("side") == side.get("id"):
                c = count.setdefault(str(st.get("unit")), [0, 0])
                c[0] += 1
                c[1] += hq_weight(raw.get("ruleset"), st)
        lines = tuple(
            UnitLine(u, n, w, units[u].points if u in units else 0)
            for u, (n, w) in sorted(count.items())
        )
        out.append(Force(str(side.get("id")), str(side.get("name", "")), cohesion, lines))
    return tuple(out)


def _with(force: Force, unit: str, delta: int, points: int) -> Force:
    lines = {ln.unit: ln for ln in force.lines}
    old = lines.get(unit, UnitLine(unit, 0, 0, points))
    lines[unit] = UnitLine(unit, old.count + delta, old.weighted + delta, old.points)
    return Force(force.side_id, force.name, force.cohesion, tuple(lines.values()))


def balancing_moves(raw: dict, data: RulesData, most: int = 5) -> list[Move]:
    """The sheets' balancing moves, nearest an even ratio first (at most ``most``): remove 1
    or more stands of one type of a force (keeping at least one stand, and never its only
    GHQ's weight: a removed stand counts once), add 1 to :data:`MAX_ADDED` stands of a type
    it already fields, or set its cohesion to another level of :data:`COHESION_RANGE`. Moves
    that do not bring the ratio nearer 1 than it is are left out. Empty without two forces."""
    fs = forces(raw, data)
    if len(fs) != 2:
        return []
    now = ratio(fs[0].value, fs[1].value)
    out: list[Move] = []

    def consider(what: str, changed: Force, k: int) -> None:
        values = [f.value for f in fs]
        values[k] = changed.value
        r = ratio(*values)
        if r < now - 1e-12:
            out.append(Move(what, (values[0], values[1]), r))

    for k, f in enumerate(fs):
        who = f.name or f.side_id
        for ln in f.lines:
            if ln.points <= 0:
                continue
            plain = ln.count - (ln.weighted - ln.count)  # the stands counted once
            for n in range(1, min(plain, f.stands - 1) + 1):
                consider(f"remove {n} {ln.unit} from {who}", _with(f, ln.unit, -n, ln.points), k)
            for n in range(1, MAX_ADDED + 1):
                consider(f"add {n} {ln.unit} to {who}", _with(f, ln.unit, n, ln.points), k)
        lo, hi = COHESION_RANGE
        for level in range(lo, hi + 1):
            if level != f.cohesion:
                changed = Force(f.side_id, f.name, level, f.lines)
                consider(f"set {who}'s cohesion to {level}", changed, k)
    out.sort(key=lambda m: (m.ratio, m.what))
    return out[:most]
