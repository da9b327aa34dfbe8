"""The data of artillery, anti-aircraft fire and aircraft in the full games (rules-decisions
"Artillery, smoke and air strikes"): the indirect ranges of the artillery rows, the per-tech
level cohesion modifier of indirect fire, the aircraft a scenario's air support calls, and the
AA-vs-aircraft column shifts of the 002 card. Every number but the column shifts is a house
value (``assets/data/fire_support.toml``). Units: inches."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter
from pydantic.dataclasses import dataclass

from game.rules.charts.rowfiles import STRICT, NonNeg, Positive, read_toml, validate

IMPACT_DIAMETER_IN = 2.0
"""An impact marker is a circle 2" across (rules-decisions "Artillery, smoke and air
strikes"); a smoke area laid by a smoke mission is the same circle."""


@dataclass(frozen=True, config=STRICT)
class IndirectRange:
    """How far an artillery row fires indirectly: ``min_range`` to ``max_range`` inches from
    the firing stand's centre to its marker's aim point (house values)."""

    min_range: NonNeg
    max_range: Positive


@dataclass(frozen=True, config=STRICT)
class Aircraft:
    """One aircraft row (house values): the ruleset it flies in, points per sortie, tech
    level (the AA table's columns, 002), ``defense`` (what AA fire's differential subtracts,
    002 AA procedure step 3), and its ordnance: ``ap_attack`` against armoured targets,
    ``he_attack`` against personnel (002 air strike procedure step 10)."""

    name: str
    ruleset: Literal["modern-full", "wwii-47"]
    points: NonNeg
    tech_level: Annotated[int, Field(ge=1, le=5)]
    defense: NonNeg
    ap_attack: NonNeg
    he_attack: NonNeg
    house: bool = True

    def ordnance(self, defense_class: str) -> int:
        """Firepower of its attack on a target of ``defense_class``: AP against armoured, HE
        against personnel (002 air strike procedure step 10)."""
        return self.he_attack if defense_class == "personnel" else self.ap_attack


@dataclasses.dataclass(frozen=True)
class FireSupportData:
    """Everything ``fire_support.toml`` holds: ``indirect_cohesion`` (ruleset -> modifiers by
    tech level, TL1 first), ``artillery`` (unit name -> :class:`IndirectRange`), ``aircraft``
    (name -> :class:`Aircraft`)."""

    indirect_cohesion: dict[str, tuple[int, ...]] = dataclasses.field(default_factory=dict)
    artillery: dict[str, IndirectRange] = dataclasses.field(default_factory=dict)
    aircraft: dict[str, Aircraft] = dataclasses.field(default_factory=dict)

    def indirect_mod(self, ruleset: str, tech_level: int | None) -> int:
        """The cohesion modifier of a stand of ``tech_level`` firing indirectly (002 indirect
        fire procedure step 2; house default 0); 0 where the table has no entry."""
        mods = self.indirect_cohesion.get(ruleset, ())
        tl = tech_level or 1
        return mods[tl - 1] if 0 < tl <= len(mods) else 0

    def aircraft_for(self, ruleset: str) -> dict[str, Aircraft]:
        """The aircraft rows of one ruleset, by name."""
        return {n: a for n, a in self.aircraft.items() if a.ruleset == ruleset}


def aa_column_shift(aa_tech_level: int, aircraft_tech_level: int) -> int:
    """The AA-vs-aircraft table of the 002 card: columns shifted right (positive) by how far
    the AA stand's tech level is above the aircraft's, left (negative) by how far below
    (e.g. AA TL2 against an aircraft TL4: 2 left)."""
    return int(aa_tech_level) - int(aircraft_tech_level)


def shifted_differential(differential: int, shift: int, lowest: int) -> int:
    """A combat differential after the AA table's column shift (002): left shifts never take
    it below ``lowest`` (the CRT's first column, -3); right shifts have no limit. A
    differential already below ``lowest`` is not raised by a left shift."""
    if shift >= 0:
        return differential + shift
    return max(differential + shift, min(differential, lowest))


def load_fire_support(
    path: Path, units: dict[str, dict], problems: list[str], check_units: bool = True
) -> FireSupportData:
    """Read ``fire_support.toml`` and cross-check it against the unit tables (``units``: file
    name -> its rows by name): every row flagged ``artillery`` has an indirect range, every
    range names such a row (when ``check_units``: the unit tables loaded cleanly), and
    min_range is below max_range. One problem line per fault,
    ``fire_support.toml: field: problem``."""
    raw = read_toml(path)
    unknown = sorted(set(raw) - {"indirect_cohesion", "artillery", "aircraft"})
    for key in unknown:
        problems.append(
            f"{path.name}: {key}: unknown table (known: indirect_cohesion, artillery, aircraft)"
        )
    cohesion = validate(
        TypeAdapter(dict[Literal["modern-full", "wwii-47"], tuple[int, ...]]),
        raw.get("indirect_cohesion", {}),
        path,
        "indirect_cohesion",
        problems,
    )
    ranges: dict[str, IndirectRange] = {}
    adapter = TypeAdapter(IndirectRange)
    artillery_rows = {
        name: fname
        for fname, rows in units.items()
        for name, u in rows.items()
        if "artillery" in u.flags
    }
    for name, row in (raw.get("artillery") or {}).items():
        r = validate(adapter, row, path, f"artillery.{name}", problems)
        if r is None:
            continue
        if check_units and name not in artillery_rows:
            problems.append(
                f"{path.name}: artillery.{name}: no unit row of that name is flagged artillery"
            )
        if r.min_range >= r.max_range:
            problems.append(
                f"{path.name}: artillery.{name}.min_range: must be below max_range "
                f"({r.min_range} >= {r.max_range})"
            )
        ranges[name] = r
    for name, fname in sorted(artillery_rows.items() if check_units else ()):
        if name not in ranges:
            problems.append(
                f"{path.name}: artillery: no indirect range for {name!r} (flagged artillery "
                f"in {fname})"
            )
    aircraft: dict[str, Aircraft] = {}
    air_adapter = TypeAdapter(Aircraft)
    for name, row in (raw.get("aircraft") or {}).items():
        a = validate(air_adapter, {"name": name, **row}, path, f"aircraft.{name}", problems)
        if a is not None:
            aircraft[name] = a
    return FireSupportData(
        indirect_cohesion=dict(cohesion or {}), artillery=ranges, aircraft=aircraft
    )


def air_support_problems(sides, ruleset: str | None, data, where: str) -> list[str]:
    """Problem lines of the sides' ``air_support`` (``sides``: (index, Side) pairs): only the
    full games fly air strikes, and each aircraft must be a row of the scenario's ruleset
    (fire_support.toml)."""
    problems: list[str] = []
    if ruleset is None:
        return problems
    known = data.fire_support.aircraft_for(ruleset)
    for i, side in sides:
        for k, air in enumerate(side.air_support):
            at = f"{where}: $.sides[{i}].air_support[{k}].aircraft"
            if ruleset not in ("modern-full", "wwii-47"):
                problems.append(
                    f"{at}: air strikes are flown only in the full games (modern-full, wwii-47)"
                )
            elif air.aircraft not in known:
                problems.append(
                    f"{at}: unknown aircraft {air.aircraft!r} for {ruleset} (known: "
                    f"{', '.join(sorted(known))}; assets/data/fire_support.toml)"
                )
    return problems
