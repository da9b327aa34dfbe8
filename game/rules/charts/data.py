"""Rules data: the tank tables and charts of the seed rules, loaded from ``assets/data``.

Everything a rule looks up (tank data, combat results tables, range charts, the terrain effects
chart, command efficiency tables, generation modifiers, per-ruleset settings) lives in data files,
not in code. :func:`load_rules_data` reads them once, validates every row with pydantic (unknown
keys, missing fields, wrong types and broken references are refused with a :class:`DataError`
naming the file, the field and the problem) and returns frozen dataclasses.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter
from pydantic.dataclasses import dataclass

from game.rules.charts.fire_data import FireSupportData, load_fire_support
from game.rules.charts.rowfiles import (
    ATGM_COLUMNS,
    STRICT,
    Atgm,
    DataError,
    NonNeg,
    Positive,
    read_csv,
    read_toml,
    validate,
)
from game.rules.charts.units import FullUnit, load_full_units
from game.rules.files.scenario_file import RulesetId
from game.rules.files.shipped import shipped_dir

DATA_DIR = shipped_dir("assets/data")
ASSETS_DIR = DATA_DIR.parent

CrtCell = Literal["-", "S", "(S)", "D", "E", "-S-"]


@dataclass(frozen=True, config=STRICT)
class ModernTank:
    """One row of the Modern tank data table (seed 000).

    Ranges and speeds are in inches; ``speed`` is the stand's movement points per phase;
    ``defense`` is the armoured defence value printed in brackets.
    """

    name: str
    points: NonNeg
    tech_level: Annotated[int, Field(ge=1, le=5)]
    cannon_attack: NonNeg
    cannon_range: Positive
    defense: NonNeg
    speed: NonNeg
    movement_class: Literal["T", "W", "F"]
    amphibious_speed: int | None = None
    atgm: Atgm | None = None

    @property
    def firepower(self) -> int:
        """Cannon AP firepower (000 07.02.05: the intro rules use AP only)."""
        return self.cannon_attack

    @property
    def gun_range(self) -> int:
        """Maximum cannon range in inches (000 07.08.05)."""
        return self.cannon_range

    @property
    def max_range_in(self) -> int:
        """Longest range (inches) at which any of its weapons may fire (000 07.08.05)."""
        return max(self.cannon_range, self.atgm.range if self.atgm else 0)

    @property
    def facing_restricted(self) -> bool:
        """Modern tanks all have turrets: no facing restriction."""
        return False

    defense_class = "armoured"
    flags: frozenset[str] = frozenset()
    carrier = 0


@dataclass(frozen=True, config=STRICT)
class WwiiTank:
    """One row of the WWII tank data table (seed 001).

    ``facing_restricted`` is the § mark (fires only into its own front arc, 001 10.0);
    ``hull_gun`` the * mark (hull-mounted main gun). WWII tanks have no tech level.
    """

    name: str
    points: NonNeg
    ap_firepower: NonNeg
    he_firepower: NonNeg
    ap_range: Positive
    he_range: Positive
    defense: NonNeg
    speed: NonNeg
    movement_class: Literal["T", "W", "F"]
    facing_restricted: bool
    hull_gun: bool

    tech_level = None
    atgm = None
    defense_class = "armoured"
    flags: frozenset[str] = frozenset()
    carrier = 0

    @property
    def firepower(self) -> int:
        """AP firepower (001 7.1.3: the intro rules use AP only)."""
        return self.ap_firepower

    @property
    def gun_range(self) -> int:
        """Maximum AP range in inches (001 7.3.5)."""
        return self.ap_range

    @property
    def max_range_in(self) -> int:
        """Maximum AP range in inches (001 7.3.5)."""
        return self.ap_range


UnitType = ModernTank | WwiiTank | FullUnit


@dataclass(frozen=True, config=STRICT)
class Crt:
    """A combat results table: ``rows[total][column]`` for modified 2D6 totals 0..19 and
    combat differentials ``columns`` (-3..+9).

    ``above_max`` says what a differential above the last column does: ``"E"`` (Modern: always
    eliminated) or ``"clamp"`` (WWII: treated as +9).
    """

    columns: tuple[int, ...]
    rows: dict[int, tuple[CrtCell, ...]]
    above_max: Literal["E", "clamp"]
    dash_printed: Literal["-S-", "-"] = "-S-"
    """How the card prints a ``-S-`` cell, which the battle log writes: 002 prints "-S-";
    004 prints "-" (read as S for artillery, support stands and air strikes)."""

    def printed(self, cell: CrtCell) -> str:
        """The cell as the card prints it (the battle log's ``crt``; event-log.md: the cell
        as printed): ``-S-`` is "-" in the 004 table, every other cell as it is."""
        return self.dash_printed if cell == "-S-" else cell

    def lookup(self, differential: int, total: int) -> CrtCell:
        """The cell for a combat differential and a modified 2D6 total (000/001 CRT).

        The total is clamped to 0..19. Raises ValueError for a differential below the first
        column (direct fire is not allowed there).
        """
        if differential < self.columns[0]:
            raise ValueError(f"combat differential {differential} is below {self.columns[0]}")
        if differential > self.columns[-1]:
            if self.above_max == "E":
                return "E"
            differential = self.columns[-1]
        total = min(max(total, 0), 19)
        return self.rows[total][self.columns.index(differential)]


@dataclass(frozen=True, config=STRICT)
class RangeChart:
    """A range effect chart: ``bands`` of ``(up_to_inches, modifier)``; past the last band,
    ``beyond`` (Modern) or +1 every ``step_in`` inches (WWII: "each additional 5 inches +1")."""

    bands: tuple[tuple[int, int], ...]
    beyond: int | None = None
    step_in: int | None = None

    def modifier(self, range_band_in: int) -> int:
        """Modifier to the 2D6 combat roll at a range band (whole inches, >= 1)
        (000 07.08.02, 001 7.3.2)."""
        for up_to, mod in self.bands:
            if range_band_in <= up_to:
                return mod
        last_up_to, last_mod = self.bands[-1]
        if self.beyond is not None:
            return self.beyond
        assert self.step_in is not None
        return last_mod + math.ceil((range_band_in - last_up_to) / self.step_in)


MoveCost = float | Literal["not allowed"]


@dataclass(frozen=True, config=STRICT)
class TerrainType:
    """One row of the terrain effects chart (002/004), keyed by its scenario-file name."""

    key: str
    name: str
    geometry: Literal["area", "road", "hill", "wreck"]
    move_tracked: MoveCost
    move_wheeled: MoveCost
    move_foot: MoveCost
    combat_personnel: int
    combat_vehicle: int
    los_blocked: Literal["yes", "no", "personnel"]
    additive: bool = False
    leaving_only: bool = False
    combat_when: Literal["smoke", "target_moving", "from_below"] | None = None
    concealing: bool = False
    road: bool = False
    wwii: dict[str, int] | None = None

    def move_cost(self, movement_class: str) -> float | None:
        """Movement points per inch for a movement class ("T", "W", "F"); None if not allowed."""
        cost = {"T": self.move_tracked, "W": self.move_wheeled, "F": self.move_foot}[movement_class]
        return None if cost == "not allowed" else float(cost)

    def combat_effect(self, ruleset: str, personnel: bool = False) -> int:
        """Cohesion and combat-roll modifier for a target in this terrain (002 chart),
        with the WWII card's differing values where ``ruleset`` is a WWII one."""
        field = "combat_personnel" if personnel else "combat_vehicle"
        if ruleset.startswith("wwii") and self.wwii and field in self.wwii:
            return self.wwii[field]
        return getattr(self, field)

    @property
    def blocks_sight(self) -> bool:
        """True where the chart says line of sight is blocked (for tanks: "yes" only)."""
        return self.los_blocked == "yes"


@dataclass(frozen=True, config=STRICT)
class CommandTable:
    """A command efficiency table: ``steps`` of ``(lowest_total, orders)``; lower totals give
    no orders (000 08.02.01 with 002's values; 001 8.2.1)."""

    steps: tuple[tuple[int, int], ...]

    def orders(self, total: int) -> int:
        """Movement orders for a modified 2D6 command total."""
        result = 0
        for lowest, orders in self.steps:
            if total >= lowest:
                result = orders
        return result


@dataclass(frozen=True, config=STRICT)
class RulesetTables:
    """Per-ruleset settings of the table: sighting bonus (inches per ground level), whether a
    higher firer sees over friendly stands, and which tables it uses."""

    key: str
    title: str
    sight_bonus_per_level_in: Annotated[float, Field(ge=0)]
    friendly_see_over: bool
    crt: str
    range: str
    command: str
    tank_table: RulesetId


@dataclass(frozen=True)
class RulesData:
    """Every table of the rules, validated and cross-checked."""

    modern_tanks: dict[str, ModernTank]
    wwii_tanks: dict[str, WwiiTank]
    modern_support: dict[str, FullUnit]
    crts: dict[str, Crt]
    range_charts: dict[str, dict[int, RangeChart]]
    terrain: dict[str, TerrainType]
    command_tables: dict[str, CommandTable]
    generation_modifiers: dict[str, int]
    rulesets: dict[str, RulesetTables]
    wwii_support: dict[str, FullUnit] = dataclasses.field(default_factory=dict)
    wwii47_tl2: frozenset[str] = frozenset()
    """The 001 tank rows that are tech level 2 in Wehrmacht '47 (house values)."""
    fire_support: FireSupportData = dataclasses.field(default_factory=FireSupportData)
    """Indirect ranges, indirect fire's cohesion modifiers and aircraft (house values)."""

    def units_for(self, ruleset: str) -> dict[str, UnitType]:
        """The tank table a ruleset fields, by unit name. Raises KeyError for an unknown ruleset."""
        return UNIT_TABLES[self.rulesets[ruleset].tank_table](self)

    def range_chart(self, ruleset: str, tech_level: int | None) -> RangeChart:
        """The range chart for a ruleset and a firer's tech level (None: the ruleset's only
        chart, WWII). Raises KeyError where there is none."""
        charts = self.range_charts[self.rulesets[ruleset].range]
        if tech_level is None:
            return charts[min(charts)]
        return charts[tech_level]


def _modern_full_units(data: RulesData) -> dict[str, UnitType]:
    """The 000 tank rows in the full game's columns, then the support table (002)."""
    tanks = {n: FullUnit.of_tank(t) for n, t in data.modern_tanks.items()}
    return {**tanks, **data.modern_support}


def _wwii47_units(data: RulesData) -> dict[str, UnitType]:
    """The 001 tank rows at their house tech levels, then the support table (004)."""
    tanks = {
        n: FullUnit.of_wwii_tank(t, 2 if n in data.wwii47_tl2 else 1)
        for n, t in data.wwii_tanks.items()
    }
    return {**tanks, **data.wwii_support}


UNIT_TABLES: dict[str, Callable[[RulesData], dict[str, UnitType]]] = {
    "modern": lambda data: dict(data.modern_tanks),
    "wwii": lambda data: dict(data.wwii_tanks),
    "modern-full": _modern_full_units,
    "wwii-47": _wwii47_units,
}
"""Each unit table a ruleset's row of rulesets.toml may name (``tank_table``), and how it is
built from the data's tables."""


def _load_tanks(path: Path, cls: type, problems: list[str]) -> dict:
    adapter: TypeAdapter = TypeAdapter(cls)
    tanks: dict = {}
    for line, row in read_csv(path):
        raw: dict[str, object] = {k: (v if v != "" else None) for k, v in row.items()}
        if cls is ModernTank:
            atgm = {c.removeprefix("atgm_"): raw.pop(c, None) for c in ATGM_COLUMNS}
            present = [v is not None for v in atgm.values()]
            if any(present) and not all(present):
                problems.append(
                    f"{path.name}: line {line}: ATGM columns must be all set or all empty"
                )
                continue
            raw["atgm"] = atgm if all(present) else None
        tank = validate(adapter, raw, path, f"line {line}", problems)
        if tank is None:
            continue
        if tank.name in tanks:
            problems.append(f"{path.name}: line {line}: name: duplicate tank {tank.name!r}")
        tanks[tank.name] = tank
    return tanks


def _parse_crt(path: Path, key: str, raw: dict, problems: list[str]) -> Crt | None:
    columns = raw.get("columns")
    body = dict(raw.get(key, {}))
    rows_raw = body.pop("rows", None)
    if not isinstance(rows_raw, dict):
        problems.append(f"{path.name}: {key}.rows: missing")
        return None
    rows = {}
    for total, text in rows_raw.items():
        cells = str(text).split()
        if columns and len(cells) != len(columns):
            problems.append(
                f"{path.name}: {key}.rows.{total}: {len(cells)} cells, expected {len(columns)}"
            )
        rows[total] = cells
    missing = sorted(set(range(20)) - {int(t) for t in rows if str(t).isdigit()})
    if missing:
        problems.append(f"{path.name}: {key}.rows: missing totals {missing}")
    return validate(
        TypeAdapter(Crt), {"columns": columns, "rows": rows, **body}, path, key, problems
    )


@cache
def load_rules_data(data_dir: Path | None = None) -> RulesData:
    """Load and validate every rules table under ``data_dir`` (default ``assets/data``).

    Returns a :class:`RulesData`; the result is cached per directory.

    Raises
    ------
    DataError
        One line per problem (``file: field: problem``): a missing or unreadable file, an
        unknown or missing key, a value of the wrong type or out of range, a CRT row of the
        wrong length, or a ruleset naming a table that does not exist.
    """
    d = Path(data_dir) if data_dir else DATA_DIR
    problems: list[str] = []
    modern, wwii, support, wwii_support, tl2 = _load_unit_tables(d, problems)
    fire_support = load_fire_support(
        d / "fire_support.toml",
        {"modern_support.csv": support, "wwii_support.csv": wwii_support},
        problems,
        check_units=not problems,
    )
    crts = _load_crts(d / "crt.toml", problems)
    range_charts = _load_range_charts(d / "range.toml", problems)
    terrain_path = d / "terrain.toml"
    terrain_adapter = TypeAdapter(TerrainType)
    terrain = {}
    for key, raw in read_toml(terrain_path).items():
        row = validate(terrain_adapter, {"key": key, **raw}, terrain_path, key, problems)
        if row:
            terrain[key] = row
    gen_mods, command_tables = _load_command(d / "command.toml", problems)
    known: dict[str, dict] = {"crt": crts, "range": range_charts, "command": command_tables}
    rulesets = _load_rulesets(d / "rulesets.toml", known, problems)
    if problems:
        raise DataError("\n".join(problems))
    return RulesData(
        modern_tanks=modern,
        wwii_tanks=wwii,
        modern_support=support,
        crts=crts,
        range_charts=range_charts,
        terrain=terrain,
        command_tables=command_tables,
        generation_modifiers=dict(gen_mods or {}),
        rulesets=rulesets,
        wwii_support=wwii_support,
        wwii47_tl2=frozenset(tl2 or []),
        fire_support=fire_support,
    )


def _load_unit_tables(d: Path, problems: list[str]) -> tuple[dict, dict, dict, dict, list | None]:
    """The unit rows under ``d``: ``(modern tanks, WWII tanks, modern support, WWII support,
    the Wehrmacht '47 tech-level-2 tank names)``, each table by unit name. A support row may
    not share a name with a tank row, and each tech-level-2 name must be a WWII tank row;
    problems are appended to ``problems`` as ``file: field: problem`` lines."""
    modern = _load_tanks(d / "modern_tanks.csv", ModernTank, problems)
    wwii = _load_tanks(d / "wwii_tanks.csv", WwiiTank, problems)
    support = load_full_units(d / "modern_support.csv", problems)
    for name in sorted(set(support) & set(modern)):
        problems.append(f"modern_support.csv: name: {name!r} is a row of modern_tanks.csv too")
    wwii_support = load_full_units(d / "wwii_support.csv", problems)
    for name in sorted(set(wwii_support) & set(wwii)):
        problems.append(f"wwii_support.csv: name: {name!r} is a row of wwii_tanks.csv too")
    tl2_path = d / "wwii_47.toml"
    tl2 = validate(
        TypeAdapter(list[str]), read_toml(tl2_path).get("tl2"), tl2_path, "tl2", problems
    )
    for name in tl2 or []:
        if name not in wwii:
            problems.append(f"{tl2_path.name}: tl2: {name!r} is not a row of wwii_tanks.csv")
    return modern, wwii, support, wwii_support, tl2


def _load_crts(crt_path: Path, problems: list[str]) -> dict[str, Crt]:
    """Every combat results table of ``crt_path`` by key (the shared ``columns`` entry is
    not one); a table with problems is left out and its problems appended to ``problems``."""
    crt_raw = read_toml(crt_path)
    crts = {}
    for key in crt_raw:
        if key == "columns":
            continue
        crt = _parse_crt(crt_path, key, crt_raw, problems)
        if crt:
            crts[key] = crt
    return crts


def _load_range_charts(range_path: Path, problems: list[str]) -> dict[str, dict[int, RangeChart]]:
    """The range charts of ``range_path``, by family and tech level; each gives either the
    modifier ``beyond`` its last band or a ``step_in`` (inches) to extend it, not both.
    Problems are appended to ``problems``."""
    range_charts: dict[str, dict[int, RangeChart]] = {}
    chart_adapter = TypeAdapter(RangeChart)
    for family, by_tl in read_toml(range_path).items():
        range_charts[family] = {}
        for tl, raw in by_tl.items():
            chart = validate(chart_adapter, raw, range_path, f"{family}.{tl}", problems)
            if chart is None:
                continue
            if (chart.beyond is None) == (chart.step_in is None):
                problems.append(
                    f"{range_path.name}: {family}.{tl}: give beyond or step_in, not both"
                )
            range_charts[family][int(tl)] = chart
    return range_charts


def _load_command(command_path: Path, problems: list[str]) -> tuple[dict | None, dict]:
    """``(generation modifiers, command tables)`` of ``command_path``: the orders roll's
    modifier by generation I-IV (None when invalid) and each command table by key.
    Problems are appended to ``problems``."""
    command_raw = read_toml(command_path)
    generation = command_raw.pop("generation", None)
    gen_mods = validate(
        TypeAdapter(dict[Literal["I", "II", "III", "IV"], int]),
        generation,
        command_path,
        "generation",
        problems,
    )
    command_tables = {}
    for key, raw in command_raw.items():
        table = validate(TypeAdapter(CommandTable), raw, command_path, key, problems)
        if table:
            command_tables[key] = table
    return gen_mods, command_tables


def _load_rulesets(
    rulesets_path: Path, known: dict[str, dict], problems: list[str]
) -> dict[str, RulesetTables]:
    """The rulesets of ``rulesets_path`` by key; each must name a CRT, range chart family
    and command table that exist (``known``, by field: "crt", "range", "command"). Problems
    are appended to ``problems``."""
    rulesets = {}
    for key, raw in read_toml(rulesets_path).items():
        rs = validate(TypeAdapter(RulesetTables), {"key": key, **raw}, rulesets_path, key, problems)
        if rs is None:
            continue
        for field, tables in known.items():
            if getattr(rs, field) not in tables:
                problems.append(
                    f"{rulesets_path.name}: {key}.{field}: no table {getattr(rs, field)!r}"
                )
        rulesets[key] = rs
    return rulesets
