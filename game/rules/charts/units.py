"""The full games' unit tables (rules-decisions "Units beyond tanks"): a unit row with a
defence class, AP and HE firepower and ranges, a movement class, a tech level and flags; the
000 tank rows in those columns; the loader of a support table; and the checks of stands that
start aboard a carrier. Units: inches, movement points."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter
from pydantic.dataclasses import dataclass

from game.rules.charts.rowfiles import (
    ATGM_COLUMNS,
    STRICT,
    Atgm,
    NonNeg,
    Positive,
    read_csv,
    validate,
)

UNIT_FLAGS = (
    "artillery",
    "mortar",
    "aa",
    "aa_heavy",
    "aa_missile",
    "support",
    "close_support",
    "engineer",
    "type_s",
    "cavalry",
    "recon",
    "hq_capable",
)
"""The flags a unit row of the full games may carry (rules-decisions "Units beyond tanks"):
``artillery`` may fire indirect, ``mortar`` its direct fire deviates, ``aa`` fires at
aircraft (``aa_heavy`` over 40 mm, 004; ``aa_missile`` a missile: no range effect, 002 AA
procedure step 2), ``support`` a support stand, ``close_support`` an infantry close-support artillery
vehicle, ``engineer``, ``type_s`` ("type S" infantry, 002 close assault), ``cavalry``,
``recon`` (the "R" unit of the movement cohesion chart), ``hq_capable``."""

TANK_HE_SHARE = 0.5
"""House value (not GHQ's): a tank row of the 000 table fights personnel with HE firepower of
half its cannon attack, rounded up, at its cannon range (docs/rules.md "Units beyond tanks")."""


@dataclass(frozen=True, config=STRICT)
class FullUnit:
    """One row of a full-game unit table (002 ``modern-full``; rules-decisions "Units beyond
    tanks").

    ``defense_class`` is ``armoured`` or ``personnel``; ``ap_attack``/``he_attack`` the AP and
    HE firepower (None: the unit has none and may not attack that defence class, 000
    07.02.05) with their ranges in inches; ``speed`` in movement points; ``movement_class``
    T (tracked), W (wheeled) or F (foot); ``carrier`` how many personnel stands it carries;
    ``flags`` from :data:`UNIT_FLAGS`; ``house`` says the row's values are house values, not
    GHQ's.
    """

    name: str
    points: NonNeg
    tech_level: Annotated[int, Field(ge=1, le=5)]
    defense_class: Literal["armoured", "personnel"]
    defense: NonNeg
    ap_attack: NonNeg | None
    ap_range: Positive | None
    he_attack: NonNeg | None
    he_range: Positive | None
    speed: NonNeg
    movement_class: Literal["T", "W", "F"]
    carrier: NonNeg = 0
    flags: frozenset[str] = frozenset()
    atgm: Atgm | None = None
    house: bool = True
    facing_restricted: bool = False

    amphibious_speed = None

    @property
    def personnel(self) -> bool:
        """True for a personnel stand (infantry, teams): the chart's "if personnel" effects,
        the foot column, HE against it (000 07.02.05)."""
        return self.defense_class == "personnel"

    @property
    def firepower(self) -> int:
        """AP firepower (0 when it has none): what it fires at armoured targets."""
        return self.ap_attack or 0

    @property
    def gun_range(self) -> int:
        """Longest range (inches) of its AP or HE fire."""
        return max(self.ap_range or 0, self.he_range or 0)

    @property
    def max_range_in(self) -> int:
        """Longest range (inches) at which any of its weapons may fire (000 07.08.05)."""
        return max(self.gun_range, self.atgm.range if self.atgm else 0)

    def fire_against(self, defense_class: str) -> tuple[int, int] | None:
        """(firepower, range in inches) of its gun against a defence class: AP against
        armoured, HE against personnel (000 07.02.05; rules-decisions "Units beyond tanks"),
        or None when it has no such value."""
        if defense_class == "personnel":
            if self.he_attack is None or self.he_range is None:
                return None
            return self.he_attack, self.he_range
        if self.ap_attack is None or self.ap_range is None:
            return None
        return self.ap_attack, self.ap_range

    @classmethod
    def of_tank(cls, tank) -> FullUnit:
        """A 000 tank row in the full game's columns: armoured, AP as its cannon, HE half its
        cannon attack rounded up (house value :data:`TANK_HE_SHARE`) at its cannon range,
        tracked or as the row says, no flags, carries nobody."""
        return cls(
            name=tank.name,
            points=tank.points,
            tech_level=tank.tech_level,
            defense_class="armoured",
            defense=tank.defense,
            ap_attack=tank.cannon_attack,
            ap_range=tank.cannon_range,
            he_attack=math.ceil(tank.cannon_attack * TANK_HE_SHARE),
            he_range=tank.cannon_range,
            speed=tank.speed,
            movement_class=tank.movement_class,
            atgm=tank.atgm,
            house=False,
        )

    @classmethod
    def of_wwii_tank(cls, tank, tech_level: int) -> FullUnit:
        """A 001 tank row in the full game's columns for Wehrmacht '47 (004): armoured, its
        AP and HE firepower with their ranges as printed, the § front-arc restriction kept,
        at ``tech_level`` (1 or 2: the rulings' house assignment, ``wwii_47.toml``)."""
        return cls(
            name=tank.name,
            points=tank.points,
            tech_level=tech_level,
            defense_class="armoured",
            defense=tank.defense,
            ap_attack=tank.ap_firepower,
            ap_range=tank.ap_range,
            he_attack=tank.he_firepower,
            he_range=tank.he_range,
            speed=tank.speed,
            movement_class=tank.movement_class,
            facing_restricted=tank.facing_restricted,
            house=False,
        )


FULL_UNIT_COLUMNS = (
    "name",
    "points",
    "tech_level",
    "defense_class",
    "defense",
    "ap_attack",
    "ap_range",
    "he_attack",
    "he_range",
    "speed",
    "movement_class",
    "carrier",
    "flags",
    *ATGM_COLUMNS,
)
"""The columns of a full-game unit table, in order (docs/formats.md "Unit tables")."""


def load_full_units(path: Path, problems: list[str]) -> dict[str, FullUnit]:
    """Read a full-game unit table (CSV, :data:`FULL_UNIT_COLUMNS`): one problem line per
    bad cell, naming the file, the line and the column."""
    adapter = TypeAdapter(FullUnit)
    units: dict[str, FullUnit] = {}
    rows = read_csv(path)
    text = path.read_text(encoding="utf-8")
    header = next(
        (ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")), ""
    )
    columns = [c.strip() for c in header.split(",")]
    missing = [c for c in FULL_UNIT_COLUMNS if c not in columns]
    unknown = [c for c in columns if c not in FULL_UNIT_COLUMNS]
    if missing or unknown:
        if missing:
            problems.append(f"{path.name}: header: missing column(s) {', '.join(missing)}")
        if unknown:
            problems.append(f"{path.name}: header: unknown column(s) {', '.join(unknown)}")
        return units
    for line, row in rows:
        raw: dict[str, object] = {k: (v if v != "" else None) for k, v in row.items()}
        atgm = {c.removeprefix("atgm_"): raw.pop(c, None) for c in ATGM_COLUMNS}
        present = [v is not None for v in atgm.values()]
        if any(present) and not all(present):
            problems.append(f"{path.name}: line {line}: atgm: columns must be all set or all empty")
            continue
        raw["atgm"] = atgm if all(present) else None
        flags = str(raw.get("flags") or "").split()
        bad = [f for f in flags if f not in UNIT_FLAGS]
        if bad:
            problems.append(
                f"{path.name}: line {line}: flags: unknown flag(s) {', '.join(bad)} "
                f"(known: {', '.join(UNIT_FLAGS)})"
            )
            continue
        raw["flags"] = frozenset(flags)
        raw["carrier"] = raw.get("carrier") or 0
        for weapon in ("ap", "he"):
            if (raw.get(f"{weapon}_attack") is None) != (raw.get(f"{weapon}_range") is None):
                problems.append(
                    f"{path.name}: line {line}: {weapon}_range: give the {weapon.upper()} "
                    "firepower and its range together, or neither"
                )
        unit = validate(adapter, raw, path, f"line {line}", problems)
        if unit is None:
            continue
        if unit.name in units:
            problems.append(f"{path.name}: line {line}: name: duplicate unit {unit.name!r}")
        units[unit.name] = unit
    return units


UNIT_FILES = {
    "modern": "assets/data/modern_tanks.csv",
    "wwii": "assets/data/wwii_tanks.csv",
    "modern-full": "assets/data/modern_tanks.csv and assets/data/modern_support.csv",
    "wwii-47": "assets/data/wwii_tanks.csv and assets/data/wwii_support.csv",
}
"""The data files each unit table (``tank_table`` of rulesets.toml) is read from, for messages."""


def units_files(data, ruleset: str) -> str:
    """The data files a ruleset's units come from, for messages. Raises KeyError for an
    unknown ruleset."""
    return UNIT_FILES[data.rulesets[ruleset].tank_table]


def carried_problems(stands, units: dict, where: str) -> list[str]:
    """Problem lines of the stands (``stands``: (index, StandSpec) pairs) that start aboard a
    carrier (rules-decisions "Transport"): the carrier exists, is on the same side, is not
    itself aboard, carries troops and has room; the stand is personnel. ``units``: each
    stand's data row; ``where``: the file, for the messages."""
    problems: list[str] = []
    by_id = {st.id: (i, st) for i, st in stands}
    load: dict[str, int] = {}
    for i, st in stands:
        if st.carried_by is None:
            continue
        path = f"{where}: $.stands[{i}].carried_by"
        carrier = by_id.get(st.carried_by)
        if carrier is None:
            problems.append(f"{path}: no stand {st.carried_by!r}")
            continue
        c = carrier[1]
        if c.side != st.side:
            problems.append(f"{path}: {c.id!r} is not on side {st.side!r}")
            continue
        if c.carried_by is not None:
            problems.append(f"{path}: {c.id!r} is itself aboard {c.carried_by!r}")
            continue
        if st.id not in units or c.id not in units:
            continue  # the unit problem is said already
        if not getattr(units[st.id], "personnel", False):
            problems.append(f"{path}: only personnel stands ride in carriers ({st.unit!r} is not)")
            continue
        room = units[c.id].carrier
        load[c.id] = load.get(c.id, 0) + 1
        if load[c.id] > room:
            problems.append(
                f"{path}: {c.id!r} ({c.unit}) carries {room} stand(s) and is full"
                if room
                else f"{path}: {c.id!r} ({c.unit}) is not a carrier"
            )
    return problems


def units_json(stands) -> dict:
    """Every data row ``stands`` (StandStates) use, by unit name, each column, as the full
    games' start line writes it (house values may be replaced; event-log.md)."""
    out = {}
    for s in stands:
        u = s.unit
        out[s.unit_name] = {
            "points": u.points,
            "tech_level": u.tech_level,
            "defense_class": u.defense_class,
            "defense": u.defense,
            "ap_attack": u.ap_attack,
            "ap_range": u.ap_range,
            "he_attack": u.he_attack,
            "he_range": u.he_range,
            "speed": u.speed,
            "movement_class": u.movement_class,
            "carrier": u.carrier,
            "flags": sorted(u.flags),
            "atgm": None
            if u.atgm is None
            else {
                "attack": u.atgm.attack,
                "range": u.atgm.range,
                "min_range": u.atgm.min_range,
                "depletion": u.atgm.depletion,
            },
            "house": u.house,
        }
    return dict(sorted(out.items()))
