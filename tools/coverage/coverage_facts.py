"""What the rules coverage scanner (tools/coverage/coverage_scan.py) knows besides the log lines: the
:class:`Tally` it fills, each stand's unit row and what the start line offers (facts), the
engine's table for the terrain, and the range effect rows. Units: inches, movement points.
"""

from __future__ import annotations

import functools
import json
import math
from collections import Counter
from dataclasses import dataclass, field

import shapely.geometry

from game import Table, TerrainFeature, load_rules_data

MODERN = ("modern", "modern-full")
WWII = ("wwii", "wwii-47")
SIGHT_PER_LEVEL = {
    "modern": 10,
    "modern-full": 10,
    "wwii": 5,
    "wwii-47": 5,
}  # 000 07.01.04, 001 6.1.3
EPS = 1e-6


@functools.cache
def rules_data():
    """The engine's rules data (``game.load_rules_data()``), read once per process."""
    return load_rules_data()


@dataclass
class Tally:
    """What the scans found: ``counts`` by row key, the first ``examples`` of each (``"label seq
    N"``), the ``facts`` of the battles (what their start lines offered: rulesets, tech levels,
    movement classes, unit flags, terrain, reachable range bands) and how many ``battles``."""

    counts: Counter = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)
    facts: set[str] = field(default_factory=set)
    battles: int = 0

    def hit(self, key: str, label: str, seq) -> None:
        """Count ``key`` once; the first hit is kept as its example."""
        self.counts[key] += 1
        self.examples.setdefault(key, f"{label} seq {seq}")

    def merge(self, other: Tally) -> None:
        """Add another tally's counts, facts and battles; examples already kept stay first."""
        self.counts.update(other.counts)
        for k, v in other.examples.items():
            self.examples.setdefault(k, v)
        self.facts |= other.facts
        self.battles += other.battles


@dataclass(frozen=True)
class StandInfo:
    """A stand as its start line and unit row give it: tech level (None in WWII), movement
    class (T/W/F), speed (MP), unit flags, gun reach (the longest AP/HE/cannon range, inches)."""

    tl: int | None = None
    cls: str = "T"
    speed: float = 0.0
    flags: frozenset = frozenset()
    reach: int = 0


def unit_facts(ruleset: str, name: str, units: dict) -> dict:
    """A unit's row as a dict (``cls``, ``speed``, ``flags``, ``reach``, ``atgm``, ``carrier``,
    ``personnel``, ``defense``, ``attacks``: [(firepower, the defence class it attacks)]): from the start line's ``units`` (full games), else the rules data's table
    for the ruleset; a unit found in neither is a plain tracked vehicle."""
    row = units.get(name)
    if isinstance(row, dict):  # the full games' start line
        return {
            "cls": row.get("movement_class") or "T",
            "speed": row.get("speed") or 0,
            "flags": frozenset(row.get("flags") or ()),
            "reach": max(row.get("ap_range") or 0, row.get("he_range") or 0),
            "atgm": bool(row.get("atgm")),
            "carrier": row.get("carrier") or 0,
            "personnel": row.get("defense_class") == "personnel",
            "defense": row.get("defense") or 0,
            "attacks": [
                (v, cls)
                for v, cls in (
                    (row.get("ap_attack"), "armoured"),
                    (row.get("he_attack"), "personnel"),
                    ((row.get("atgm") or {}).get("attack"), "armoured"),
                )
                if isinstance(v, int)
            ],
        }
    try:
        u = rules_data().units_for(ruleset)[name]
    except KeyError:
        return {"cls": "T", "speed": 0, "flags": frozenset(), "reach": 0, "atgm": False,
                "carrier": 0, "personnel": False, "defense": 0, "attacks": []}  # fmt: skip
    atgm = getattr(u, "atgm", None)
    return {
        "cls": u.movement_class,
        "speed": u.speed,
        "flags": frozenset(getattr(u, "flags", ())),
        "reach": u.gun_range,
        "atgm": getattr(u, "atgm", None) is not None,
        "carrier": getattr(u, "carrier", 0),
        "personnel": getattr(u, "defense_class", "armoured") == "personnel",
        "defense": u.defense,
        "attacks": [(u.firepower, "armoured")] + ([(atgm.attack, "armoured")] if atgm else []),
    }


@functools.lru_cache(maxsize=16)
def table_of(terrain_json: str, width: float, depth: float) -> Table | None:
    """The engine's table for a start line's terrain (a FeatureCollection as JSON text) and size
    (inches); None when the engine refuses it (a terrain type it does not know)."""
    feats = []
    try:
        for i, f in enumerate(json.loads(terrain_json).get("features", [])):
            props = f.get("properties") or {}
            geom = shapely.geometry.shape(f["geometry"])
            feats.append(
                TerrainFeature(props.get("terrain"), geom, int(props.get("level") or 0), i)
            )
        return Table(width, depth, feats, rules_data().terrain)
    except (KeyError, ValueError, TypeError, AttributeError):
        return None


def above_nine(sides: list[list[dict]]) -> bool:
    """Whether some stand of one side may attack one of the other at a differential above +9:
    a firepower against the enemy's defence class less its defence halved, rounded up (the
    flank, or personnel on the move); ``sides`` holds each side's unit facts."""
    for mine in sides:
        for theirs in sides:
            if theirs is mine:
                continue
            if any(
                v - math.ceil(e["defense"] / 2) > 9
                for a in mine
                for v, cls in a["attacks"]
                for e in theirs
                if (cls == "personnel") == e["personnel"]
            ):
                return True
    return False


def below_crt(units: list[dict]) -> bool:
    """Whether an impact marker of some artillery unit among ``units`` (unit facts) could attack
    one of them below the CRT's first column (-3): its AP against armour halved, its HE against
    personnel (halved when moving, the most it can be); a marker hits friend and foe alike."""
    for a in units:
        if "artillery" not in a["flags"]:
            continue
        for v, cls in a["attacks"][:2]:  # AP and HE (an ATGM is no artillery)
            for t in units:
                if (cls == "personnel") == t["personnel"] and v - math.ceil(t["defense"] / 2) < -3:
                    return True
    return False


def range_bucket(ruleset: str, value: int) -> str:
    """A range effect as the report's rows name it: ``+0``, ``-1`` ...; WWII's "each further
    5 inches +1" from +3 on as ``+3 or more``."""
    if ruleset in WWII and value >= 3:
        return "+3 or more"
    return f"{value:+d}"


def range_key(ruleset: str, tl: int | None, value: int) -> str:
    """The row key of a range effect: by ruleset, and by the firer's chart (TL) in wwii-47."""
    chart = f"tl{tl}" if ruleset == "wwii-47" else ""
    return f"range:{ruleset}:{chart}:{range_bucket(ruleset, value)}"


def whys(mods) -> set[str]:
    """The codes of a modifier list (``[{"why", "value"}]``; anything else gives none)."""
    return {m.get("why") for m in mods or () if isinstance(m, dict)}


def path_length(path) -> float:
    """Length in inches of a path ``[[x, y], ...]``."""
    return sum(math.dist(a[:2], b[:2]) for a, b in zip(path, path[1:], strict=False))
