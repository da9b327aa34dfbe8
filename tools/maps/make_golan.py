"""Build maps/modern-golan-1973.json: a 1973-style battle of the full Modern game on broken
ground, with the terrain kinds no other shipped map has.

The ground (48"x30", each half the other turned half a turn about the table's centre, so
neither side is favoured) is basalt upland: a good road across, a poor road and a track up to
it from the long edges, a stone village (heavy buildings) and a light one on the road, an
orchard (grove), a wood, a hill, a marshy stream bed, boulder fields (rough 2) and lava rock
(rough 3), and a dug-in strongpoint (a heavy improved position) by the road's bend. Woods,
hill, marsh and rough ground have natural outlines (game.editor.generate's blobs, seeded).

The forces are the data's 1973 generation, tech levels 1 and 2: side A (cohesion 16) four
Centurion Mk13 and two M60A1 from the left edge; side B (cohesion 14) ten T-62, two T-55A,
a BRDM-2 scout car and a BTR-152 (tech level 1, wheeled) carrying motor rifles, from the
right. Balanced by play (``hulldown balance``, veteran against veteran): at even points (eight
T-62s, ratio 1.008) the Centurions won 37 of the 54 decisive battles of 60; with two more
T-62s (ratio 1.17, checked here to stay under 1.2) 20 to 19 of 40.

No randomness beyond the fixed seed: the output is the same on every run. The scenario is
validated before it is written; the file is written atomically.

Run: .venv/bin/python tools/maps/make_golan.py
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import shapely
from shapely.geometry import LineString, box

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from recipe import feature, write_scenario  # noqa: E402

from game import load_rules_data, parse_scenario  # noqa: E402
from game.editor.generate import natural_outline  # noqa: E402
from game.editor.stats import map_statistics  # noqa: E402

OUT = ROOT / "maps" / "modern-golan-1973.json"
WIDTH, DEPTH = 48, 30
SEED = 1973
SPACING = 1.5

# the left half's features; each is also placed turned half a turn about the centre
ROADS = [
    ("good_road", [(0, 13.0), (9, 13.6), (17, 14.2), (24, 15.0)]),
    ("poor_road", [(11, 0), (11.5, 5), (12.5, 10), (13, 13.8)]),
    ("track", [(5, 30), (7, 25), (10, 20), (14, 16.5), (17, 14.2)]),
]
BLOBS = [  # (kind, centre x, y, radius, extra properties)
    ("woods", 19.0, 24.5, 3.0, {}),
    ("grove", 16.0, 8.5, 2.0, {"name": "orchard"}),
    ("marsh", 22.0, 6.0, 2.0, {"name": "stream bed"}),
    ("rough_2", 21.0, 10.0, 1.6, {"name": "boulders"}),
    ("rough_3", 15.5, 19.5, 1.5, {"name": "lava rock"}),
    ("hill", 13.0, 24.0, 3.2, {"level": 1}),
]
BOXES = [  # (kind, x0, y0, x1, y1, extra properties)
    ("heavy_buildings", 18.0, 15.6, 20.2, 17.4, {"name": "stone village"}),
    ("light_buildings", 6.5, 14.5, 8.5, 16.0, {"name": "hamlet"}),
    ("heavy_improved_position", 21.5, 11.4, 23.0, 12.6, {"name": "strongpoint"}),
]
MAX_POINTS_RATIO = 1.2
"""How far apart by the sheets' points the forces may be: the balance is by play."""
ROAD_CLEAR_IN = 0.6
"""No area within this distance of a road's centre line (the village stands beside it)."""

A_PLAN = [("Centurion Mk13", "1")] * 4 + [("M60A1", "2")] * 2
B_PLAN = [("T-62", "1")] * 4 + [("T-62", "2")] * 6 + [("T55A", "3")] * 2
B_EXTRA = [("BRDM-2 Scout", "3", None), ("BTR-152", "3", "Motor Rifle Infantry")]

SIDE_A = {
    "id": "A",
    "name": "Centurions",
    "cohesion": 16,
    "generation": 2,
    "command_value": 0,
    "entry_edge": "left",
}
SIDE_B = {
    "id": "B",
    "name": "T-62s",
    "cohesion": 14,
    "generation": 2,
    "command_value": 0,
    "entry_edge": "right",
}

DESCRIPTION = (
    "A 1973-style tank battle of the full Modern game on broken basalt upland: Centurions and "
    "M60s against a larger force of T-62s and T-55s with a scout car and motor rifles in an old "
    "BTR-152. Boulder fields and lava rock slow and hide, the stream bed is marsh, the orchard "
    "and the wood block sight, the stone village and the strongpoint by the road's bend give "
    "the best cover. Both sides enter from the narrow edges on turn 1. Destroy 51% of the "
    "enemy while losing no more than 50% to win."
)


def _turned(g, width: float, depth: float):
    """A shape turned half a turn about the table's centre."""
    return shapely.transform(g, lambda c: [[width, depth]] - c)


def terrain() -> list[dict]:
    """The features: each half's areas, hill and roads, then the other half's."""
    rng = random.Random(SEED)
    left: list[tuple[str, object, dict]] = []
    for kind, cx, cy, r, props in BLOBS:
        left.append((kind, natural_outline(rng, cx, cy, r), props))
    for kind, x0, y0, x1, y1, props in BOXES:
        left.append((kind, box(x0, y0, x1, y1), props))
    roads = [(kind, LineString(pts), {}) for kind, pts in ROADS]
    areas = [g for _, g, _ in left]
    for i, g in enumerate(areas):  # no area touches another, a road or its twin
        twin = _turned(g, WIDTH, DEPTH)
        others = [h for j, h in enumerate(areas) if j != i]
        if any(g.intersects(h) for h in others) or g.intersects(twin):
            sys.exit(f"{left[i][0]} at {g.bounds} touches another feature")
        near = [r.buffer(ROAD_CLEAR_IN) for _, r, _ in roads]
        near += [_turned(r, WIDTH, DEPTH).buffer(ROAD_CLEAR_IN) for _, r, _ in roads]
        if left[i][0] != "hill" and any(g.intersects(n) for n in near):
            sys.exit(f"{left[i][0]} at {g.bounds} lies on a road")
        if g.bounds[0] < 3:
            sys.exit(f"{left[i][0]} at {g.bounds} is in the entry strip")
    feats = []
    for kind, g, props in left + roads:
        feats.append(feature(kind, g, **props))
    for kind, g, props in left + roads:
        feats.append(feature(kind, _turned(g, WIDTH, DEPTH), **props))
    assert shapely.box(0, 0, WIDTH, DEPTH).contains(shapely.union_all(areas))
    return feats


def force(side: dict, plan: list, extra: list) -> list[dict]:
    """A side's stands entering at its edge 1.5" apart about the edge's middle, the first of
    group 1 its GHQ; a rider shares its carrier's point."""
    sid = side["id"]
    x = 0 if side["entry_edge"] == "left" else WIDTH
    facing = 0 if x == 0 else 180
    rows = [(u, g, None) for u, g in plan] + list(extra)
    first = DEPTH / 2 - SPACING * (len(rows) - 1) / 2
    out: list[dict] = []
    for slot, (unit, group, rider) in enumerate(rows):
        base = {
            "side": sid,
            "x": x,
            "y": round(first + SPACING * slot, 3),
            "facing_deg": facing,
            "group": group,
        }
        carrier = {
            "id": f"{sid}{len(out) + 1}",
            "unit": unit,
            **base,
            "hq": False,
            "ghq": slot == 0,
            "on_table": False,
        }
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
    raw = {
        "format": "hulldown-scenario/1",
        "title": "Golan, 1973",
        "description": DESCRIPTION,
        "ruleset": "modern-full",
        "table": {"width": WIDTH, "depth": DEPTH},
        "max_sighting_in": 30,
        "turns": 12,
        "victory": {"type": "destroy_percent", "destroy_at_least_pct": 51, "lose_at_most_pct": 50},
        "terrain": {"type": "FeatureCollection", "features": terrain()},
        "sides": [SIDE_A, SIDE_B],
        "stands": force(SIDE_A, A_PLAN, []) + force(SIDE_B, B_PLAN, B_EXTRA),
    }
    parse_scenario(raw, str(OUT), data)  # raises ScenarioError; nothing is written
    stats = map_statistics(raw, data)
    if stats.points_ratio is None or stats.points_ratio > MAX_POINTS_RATIO:
        a, b = stats.forces
        sys.exit(f"forces out of balance: {a.points:g} against {b.points:g}")
    write_scenario(OUT, raw, ROOT)


if __name__ == "__main__":
    main()
