"""Build maps/modern-combined-arms.json: a "modern-full" battle of two mechanised forces.

The ground follows the seed scenario recipe (tools/maps/make_seed_maps.py, whose layout this reuses):
a 60"x36" table, 10-30% woods in lots 4-6" across, two small towns of 7 sq in in all, a good road
from one narrow edge to the other and a level-1 hill in each half. Near the middle of each half
it adds the full game's field works: a medium and a light improved position, a barbed wire belt,
a minefield and a patch of scrub (rough ground one). As in the seed maps, the right half is the
left half turned half a turn about the table's centre, so neither side is favoured.

Both forces enter from the narrow edges on turn 1, their infantry aboard IFVs and APCs: side A
four M1 Abrams, three M2A2 Bradleys with infantry, an M113 with engineers, a Bradley CFV scout
and a TOW team; side B four T-80U, three BMP-2s with infantry and a BTR-80 with engineers. The
forces were chosen by their points (the map editor's statistics, an HQ or GHQ stand counting
twice in the full game: within 5%) and then by battles of the scripted AI against itself
(`hulldown balance`; docs/performance.md "Balance of modern-combined-arms"): at equal points
the US packages won about two battles in three with M1A1s, and the Russian about three in
five against M1s without the TOW team.

No randomness: the output is the same on every run. The scenario is validated before it is
written; the file is written atomically.

Run: .venv/bin/python tools/maps/make_combined_arms.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import shapely
from shapely.geometry import LineString, box, shape

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_seed_maps import HILL, LOT_SEED, ROAD, TOWN, WOOD_LOTS, _feature, _lot  # noqa: E402

from game import load_rules_data, parse_scenario, write_atomic  # noqa: E402
from game.editor.stats import map_statistics  # noqa: E402

OUT = ROOT / "maps" / "modern-combined-arms.json"
WIDTH, DEPTH = 60, 36
INDENT = 1
SPACING = 1.5
"""Inches between neighbouring entry points along an edge (stands are 1" squares)."""
ENTRY_CLEAR_IN = 8.0
"""No field work within this distance of either entry edge."""
ROAD_CLEAR_IN = 0.75
"""No field work within this distance of the road's centre line."""

# Field works of the left half (x0, y0, x1, y1), inches; the right half gets them turned.
# The medium position sits south of the road near the centre line with the wire belt in front
# of it; the light position lies north of the road behind the town; the minefield closes the
# open ground south of the town; the scrub is a patch of rough ground by the top edge.
WORKS = [
    ("medium_improved_position", (25.0, 14.5, 27.0, 16.0), "dug-in position"),
    ("barbed_wire", (28.3, 12.75, 28.8, 16.75), "wire belt"),
    ("light_improved_position", (20.5, 19.5, 22.5, 21.0), "scrape"),
    ("minefield", (20.5, 12.0, 23.5, 14.0), "minefield"),
    ("rough_1", (27.2, 31.0, 29.6, 34.0), "scrub"),
]

SIDE_A = {
    "id": "A",
    "name": "US",
    "cohesion": 16,
    "generation": 3,
    "command_value": 0,
    "entry_edge": "left",
}
SIDE_B = {
    "id": "B",
    "name": "Russia",
    "cohesion": 15,
    "generation": 3,
    "command_value": 0,
    "entry_edge": "right",
}

# The two forces' units: tanks, (IFV, its riders), (APC, its riders), scout.
A_TANK, B_TANK = "M1 Abrams", "T-80U / AT-11"
A_IFV, B_IFV = ("M2A2 Bradley", "US Mech Infantry"), ("BMP-2", "Motor Rifle Infantry")
A_APC, B_APC = ("M113A3", "US Engineers"), ("BTR-80", "Soviet Engineers")
A_SCOUT, B_SCOUT = "M3A2 Bradley CFV", None
A_EXTRA, B_EXTRA = ("US TOW Team",), ()
A_TANKS, A_IFVS = 4, 3
B_TANKS, B_IFVS = 4, 3

DESCRIPTION = (
    "A battle for the full Modern game, mechanised infantry with their tanks. Infantry ride "
    "in IFVs and APCs and must be unloaded to fight on foot (and can load up again). A vehicle "
    "may overrun an enemy stand by driving through it, and stands in base contact may "
    "close-assault. Barbed wire and minefields slow movement and make the cohesion roll to "
    "move harder. Rough ground hides infantry, and improved positions give cover. Both sides "
    "enter from the narrow edges on turn 1. Destroy 51% of the enemy while losing no more "
    "than 50% to win."
)


# --------------------------------------------------------------------------------- terrain


def _turned(ring: list[list[float]]) -> list[list[float]]:
    """A ring turned half a turn about the table's centre."""
    return [[round(WIDTH - x, 3), round(DEPTH - y, 3)] for x, y in ring]


def _rect(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]


def terrain() -> list[dict]:
    """The terrain features: each half's woods, hill, town and works, then the road."""
    feats: list[dict] = []
    for half in (0, 1):

        def place(ring, half=half):
            return ring if half == 0 else _turned(ring)

        for k, (cx, cy, r) in enumerate(WOOD_LOTS):
            lot = _lot(cx, cy, r, LOT_SEED + k)  # the seed maps' natural lots
            feats.append(_feature("woods", "Polygon", [place(lot)]))
        hill = [[x, y] for x, y in HILL]
        feats.append(_feature("hill", "Polygon", [place(hill + [hill[0]])], level=1))
        tx, ty, tw, td = TOWN
        feats.append(
            _feature(
                "light_buildings", "Polygon", [place(_rect(tx, ty, tx + tw, ty + td))], name="town"
            )
        )
        for kind, (x0, y0, x1, y1), name in WORKS:
            feats.append(_feature(kind, "Polygon", [place(_rect(x0, y0, x1, y1))], name=name))
    feats.append(_feature("good_road", "LineString", [[x, y] for x, y in ROAD]))
    return feats


def check_works(feats: list[dict]) -> None:
    """Stop with a message when a field work touches the road, the woods, a town, a hill,
    another work or an entry edge's strip."""
    kinds = {k for k, _, _ in WORKS}
    works = [(f["properties"]["terrain"], shape(f["geometry"])) for f in feats]
    road = LineString(ROAD).buffer(ROAD_CLEAR_IN)
    others = [g for k, g in works if k not in kinds and k != "good_road"]
    mine = [(k, g) for k, g in works if k in kinds]
    entry = shapely.union_all(
        [box(0, 0, ENTRY_CLEAR_IN, DEPTH), box(WIDTH - ENTRY_CLEAR_IN, 0, WIDTH, DEPTH)]
    )
    for i, (kind, g) in enumerate(mine):
        clash = (
            g.intersects(road)
            or g.intersects(entry)
            or any(g.intersects(o) for o in others)
            or any(g.intersects(h) for j, (_, h) in enumerate(mine) if j != i)
        )
        if clash:
            sys.exit(f"{kind} at {g.bounds} touches the road, other terrain or an entry strip")


# ---------------------------------------------------------------------------------- forces


def force(
    side: dict,
    tank: str,
    n_tanks: int,
    ifv: tuple,
    n_ifvs: int,
    apc: tuple,
    scout: str | None,
    extra: tuple[str, ...] = (),
):
    """A side's stands entering at its edge: tanks (the last the GHQ) in group 1, IFVs each
    with its rifle stand aboard in group 2, the APC with its engineers, the scout (if any) and
    the ``extra`` stands in group 3.
    Carriers take entry points 1.5" apart about the edge's middle; a rider shares its
    carrier's point, group and entry."""
    sid = side["id"]
    edge_x = 0 if side["entry_edge"] == "left" else WIDTH
    facing = 0 if side["entry_edge"] == "left" else 180
    # (unit, group, rider unit or None, ghq)
    plan = [(tank, "1", None, i == n_tanks - 1) for i in range(n_tanks)]
    plan += [(ifv[0], "2", ifv[1], False)] * n_ifvs
    plan += [(apc[0], "3", apc[1], False)]
    plan += [(unit, "3", None, False) for unit in ((scout,) if scout else ()) + tuple(extra)]
    first = DEPTH / 2 - SPACING * (len(plan) - 1) / 2
    out: list[dict] = []
    for slot, (unit, group, rider, ghq) in enumerate(plan):
        y = round(first + SPACING * slot, 3)
        base = {"side": sid, "x": edge_x, "y": y, "facing_deg": facing, "group": group}
        carrier = {"id": f"{sid}{len(out) + 1}", "unit": unit, **base, "ghq": ghq}
        carrier["on_table"] = False
        out.append(carrier)
        if rider is not None:
            out.append(
                {
                    "id": f"{sid}{len(out) + 1}",
                    "unit": rider,
                    **base,
                    "ghq": False,
                    "on_table": False,
                    "carried_by": carrier["id"],
                }
            )
    return out


def scenario(stands: list[dict], feats: list[dict]) -> dict:
    return {
        "format": "hulldown-scenario/1",
        "title": "Combined arms",
        "description": DESCRIPTION,
        "ruleset": "modern-full",
        "table": {"width": WIDTH, "depth": DEPTH},
        "max_sighting_in": 30,
        "turns": 12,
        "victory": {"type": "destroy_percent", "destroy_at_least_pct": 51, "lose_at_most_pct": 50},
        "terrain": {"type": "FeatureCollection", "features": feats},
        "sides": [SIDE_A, SIDE_B],
        "stands": stands,
    }


# ----------------------------------------------------------------------------------- write


def write_atomic_json(path: Path, raw: dict) -> None:
    """Write ``raw`` as JSON to ``path`` atomically (``game.write_atomic``)."""
    write_atomic(path, json.dumps(raw, indent=INDENT, ensure_ascii=False) + "\n")


def main() -> None:
    data = load_rules_data()
    feats = terrain()
    check_works(feats)
    side_a = force(SIDE_A, A_TANK, A_TANKS, A_IFV, A_IFVS, A_APC, A_SCOUT, A_EXTRA)
    side_b = force(SIDE_B, B_TANK, B_TANKS, B_IFV, B_IFVS, B_APC, B_SCOUT, B_EXTRA)
    raw = scenario(side_a + side_b, feats)
    parse_scenario(raw, str(OUT), data)  # raises ScenarioError; nothing is written
    stats = map_statistics(raw, data)
    a, b = stats.forces
    if stats.points_ratio is None or stats.points_ratio > 1.05:
        sys.exit(f"forces out of balance: {a.points:g} against {b.points:g}")
    write_atomic_json(OUT, raw)
    print(f"wrote {OUT.relative_to(ROOT)}")
    print(
        f"side B: {B_TANKS} {B_TANK} (one the GHQ), {B_IFVS} {B_IFV[0]} with "
        f"{B_IFV[1]}, 1 {B_APC[0]} with {B_APC[1]}"
    )
    for f in stats.forces:
        print(f"points {f.side_id}: {f.points:g} ({f.stands} stands, cohesion {f.cohesion:g})")
    print(f"ratio: {stats.points_ratio:.4f}")
    print(f"woods: {stats.table.area_pct.get('woods', 0):.2f}% of the table")
    print(f"town: {stats.table.town_sq_in:.2f} sq in")
    first, second = stats.halves
    print(f"halves {first.name} - {second.name}:")
    for k, v in stats.area_diff_pct.items():
        print(f"  {k}: {v:+.4f} pct points")
    for lv, v in stats.hill_diff_pct.items():
        print(f"  hill level {lv}: {v:+.4f} pct points")
    for k, v in stats.road_diff_in.items():
        print(f"  {k}: {v:+.4f} in")
    print(f"  town: {stats.town_diff_sq_in:+.4f} sq in")
    if stats.skipped:
        print(f"skipped features: {stats.skipped}")


if __name__ == "__main__":
    main()
