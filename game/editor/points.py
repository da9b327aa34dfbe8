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

import copy
import math
from dataclasses import dataclass

from game import RULESET_IDS, RulesData
from game import ruleset as rules_of
from game.editor.commands import Batch, SetField

MAX_ADDED = 5
"""At most this many stands of one type are added by one move."""
COHESION_RANGE = (1, 20)
"""The cohesion levels a move may set (000 04.00: a D20 roll)."""


@dataclass(frozen=True)
class UnitLine:
    """One unit type of a force: ``count`` stands (an HQ or GHQ counted twice in the full
    games: ``weighted``) of ``points`` each; ``air`` a line of air strikes (the side's
    ``air_support``: ``count`` sorties at the aircraft's points, fire_support.toml, house
    values), which no balancing move adds or removes."""

    unit: str
    count: int
    weighted: int
    points: int
    air: bool = False


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
        """How many stands it has (its air strikes are not stands)."""
        return sum(ln.count for ln in self.lines if not ln.air)


@dataclass(frozen=True)
class Change:
    """A balancing move as an edit: ``kind`` "remove" or "add" ``n`` stands of ``unit`` to
    side ``side_id``, or "cohesion" setting its cohesion to ``n``
    (:func:`apply_change` makes it)."""

    kind: str
    side_id: str
    unit: str
    n: int


@dataclass(frozen=True)
class Move:
    """One balancing move: ``what`` in words, the two forces' values after it (in the
    scenario's side order), their ``ratio`` (larger over smaller, >= 1) and the ``change``
    that makes it."""

    what: str
    values: tuple[float, float]
    ratio: float
    change: Change | None = None


def ratio(a: float, b: float) -> float:
    """The larger of two values over the smaller (inf when only the smaller is 0; 1 when
    both are)."""
    lo, hi = sorted((a, b))
    if hi == 0:
        return 1.0
    return hi / lo if lo > 0 else math.inf


def hq_weight(ruleset: object, stand: dict) -> int:
    """How many times a stand's points count: twice for an HQ or GHQ stand in the full
    games, modern-full and wwii-47 (000 scenario sheet, "complete game"; rules-decisions
    "Units beyond tanks"), once
    otherwise (the introductory sheets count a GHQ tank at its price)."""
    full = (
        isinstance(ruleset, str)
        and ruleset in RULESET_IDS
        and rules_of(ruleset).has("hq_points_doubled")
    )
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
        ) + _air_lines(side, data)
        out.append(Force(str(side.get("id")), str(side.get("name", "")), cohesion, lines))
    return tuple(out)


def _air_lines(side: dict, data: RulesData) -> tuple[UnitLine, ...]:
    """A side's air strikes as lines of its force: each ``air_support`` row's sorties at its
    aircraft's points (an aircraft the data does not know counts 0)."""
    out = []
    for row in _dicts(side.get("air_support")):
        n = row.get("sorties")
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            continue
        air = data.fire_support.aircraft.get(str(row.get("aircraft")))
        name = f"{row.get('aircraft')} (air strike)"
        out.append(UnitLine(name, n, n, air.points if air else 0, air=True))
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

    for ch in all_changes(fs):
        values = [f.value for f in fs]
        k = next(i for i, f in enumerate(fs) if f.side_id == ch.side_id)
        values[k] = changed_force(fs[k], ch).value
        r = ratio(*values)
        if r < now - 1e-12:
            out.append(Move(describe(ch, fs[k]), (values[0], values[1]), r, ch))
    out.sort(key=lambda m: (m.ratio, m.what))
    return out[:most]


def describe(change: Change, force: Force) -> str:
    """A change in words: "remove 2 M1A2 Abrams from Force 2 (M1A2)"."""
    who = force.name or force.side_id
    if change.kind == "remove":
        return f"remove {change.n} {change.unit} from {who}"
    if change.kind == "add":
        return f"add {change.n} {change.unit} to {who}"
    return f"set {who}'s cohesion to {change.n}"


def changed_force(force: Force, change: Change) -> Force:
    """The force as :func:`apply_change` would leave it."""
    if change.kind == "cohesion":
        return Force(force.side_id, force.name, change.n, force.lines)
    pts = next((ln.points for ln in force.lines if ln.unit == change.unit), 0)
    delta = -change.n if change.kind == "remove" else change.n
    return _with(force, change.unit, delta, pts)


def all_changes(fs: tuple[Force, ...]) -> list[Change]:
    """Every move the sheets allow on these forces, each force's in turn: remove 1 or more
    stands of one type (keeping at least one stand, and never a GHQ's or HQ's extra weight:
    only stands counted once go), add 1 to :data:`MAX_ADDED` stands of a type it fields, or
    set its cohesion to another level of :data:`COHESION_RANGE`."""
    out = []
    for f in fs:
        for ln in f.lines:
            if ln.points <= 0 or ln.air:
                continue
            plain = ln.count - (ln.weighted - ln.count)  # the stands counted once
            for n in range(1, min(plain, f.stands - 1) + 1):
                out.append(Change("remove", f.side_id, ln.unit, n))
            for n in range(1, MAX_ADDED + 1):
                out.append(Change("add", f.side_id, ln.unit, n))
        lo, hi = COHESION_RANGE
        out += [
            Change("cohesion", f.side_id, "", level)
            for level in range(lo, hi + 1)
            if level != f.cohesion
        ]
    return out


SPACING_IN = 1.5
"""Centres of an added stand and any other keep this far apart (inches): two 1" squares
that far apart never overlap, whatever their facings."""


def apply_change(raw: dict, change: Change) -> dict:
    """A copy of the scenario dict with ``change`` made. Removed stands are the side's last
    of that unit that are neither GHQ nor HQ (riders aboard them leave with them); added
    ones copy the side's last stand of that unit (not as GHQ or HQ, in its group, entering
    or placed as it is) at the nearest spot :data:`SPACING_IN` clear of every stand, on the
    same entry edge for entering stands. Raises ValueError when the side has no such stand
    to remove or copy, or no free spot is found."""
    out = copy.deepcopy(raw)
    listed = out.get("sides")
    sides = [s for s in listed if isinstance(s, dict)] if isinstance(listed, list) else []
    side = next((s for s in sides if s.get("id") == change.side_id), None)
    if side is None:
        raise ValueError(f"no side {change.side_id!r}")
    if change.kind == "cohesion":
        side["cohesion"] = change.n
        return out
    stands = out.get("stands", [])
    if not isinstance(stands, list):
        raise ValueError("the file's stands are not a list")
    mine = [
        st
        for st in stands
        if isinstance(st, dict)
        and st.get("side") == change.side_id
        and st.get("unit") == change.unit
    ]
    plain = [st for st in mine if not st.get("ghq") and not st.get("hq")]
    if change.kind == "remove":
        if len(plain) < change.n:
            raise ValueError(f"{change.side_id} has only {len(plain)} {change.unit} to remove")
        gone = {st.get("id") for st in plain[-change.n :]}
        out["stands"] = [
            st
            for st in stands
            if not (isinstance(st, dict) and (st.get("id") in gone or st.get("carried_by") in gone))
        ]
        return out
    if not mine:
        raise ValueError(f"{change.side_id} has no {change.unit} to copy")
    model = (plain or mine)[-1]
    ids = {st.get("id") for st in stands if isinstance(st, dict)}
    for k in range(change.n):
        new = {key: v for key, v in model.items() if key not in ("hq", "ghq", "carried_by")}
        new["ghq"] = False
        new["id"] = _fresh_id(str(change.side_id), ids)
        ids.add(new["id"])
        new["x"], new["y"] = _free_spot(out, model, k)
        stands.append(new)
    return out


def _fresh_id(side: str, ids: set) -> str:
    n = 1
    while f"{side}{n}" in ids:
        n += 1
    return f"{side}{n}"


def _free_spot(raw: dict, model: dict, k: int) -> tuple[float, float]:
    table = raw.get("table")
    try:  # a file still broken in the editor: said, never raised as anything but ValueError
        width, depth = float(table["width"]), float(table["depth"])
        x0, y0 = float(model["x"]), float(model["y"])
    except (TypeError, KeyError, ValueError):
        raise ValueError("the table's size or the stand's place is not a number") from None
    entering = model.get("on_table", True) is False
    others = [
        (float(st["x"]), float(st["y"]))
        for st in raw.get("stands", [])
        if isinstance(st, dict)
        and isinstance(st.get("x"), int | float)
        and isinstance(st.get("y"), int | float)
        and st.get("carried_by") is None
        and (st.get("on_table", True) is False) == entering
    ]
    along_y = entering and x0 in (0.0, width)  # entering on a left or right edge
    spots = []
    for ring in range(1, 40):
        for sign in (1, -1):
            if entering:
                step = sign * ring * SPACING_IN / 2
                spots.append((x0, y0 + step) if along_y else (x0 + step, y0))
            else:
                for dx, dy in ((0, 1), (-1, 0), (0, -1), (1, 0), (-1, 1), (-1, -1)):
                    spots.append((x0 + sign * dx * ring * SPACING_IN, y0 + dy * ring * SPACING_IN))
    for x, y in spots:
        if entering:
            inside = (0.5 <= y <= depth - 0.5) if along_y else (0.5 <= x <= width - 0.5)
        else:
            inside = 0.75 <= x <= width - 0.75 and 0.75 <= y <= depth - 0.75
        if inside and all(math.hypot(x - ox, y - oy) >= SPACING_IN for ox, oy in others):
            return round(x, 3), round(y, 3)
    raise ValueError(f"no free spot near {model.get('id')} for another {model.get('unit')}")


def move_command(raw: dict, move: Move):
    """The editor command making ``move`` (one history entry, labelled with its words): the
    stand list and the sides as :func:`apply_change` leaves them. Raises ValueError as
    :func:`apply_change` does, or for a move without its change."""
    if move.change is None:
        raise ValueError(f"{move.what}: no change to make")
    after = apply_change(raw, move.change)
    sets = [
        SetField((key,), after[key], move.what)
        for key in ("stands", "sides")
        if after.get(key) != raw.get(key)
    ]
    return Batch(tuple(sets), move.what)
