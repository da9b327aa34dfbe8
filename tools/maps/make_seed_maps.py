"""Build the two shipped seed scenarios (maps/modern-meeting.json, maps/wwii-meeting.json).

They follow the seed scenario sheets ("Create your own Tank Scenario", 000 and 001): narrow-edge
entry on turn 1, mixed terrain, 10-30% woods in lots 4-6" across, two small towns of 7 sq in in
all, a good road from one narrow edge to the other, a hill on each side, and each half of the
table alike (the right half is the left half turned half a turn about the table's centre).
The woods are natural outlines (tools/maps/natural.py), each from a fixed seed.

Run: python tools/maps/make_seed_maps.py  (rewrites both files; they are validated before writing)
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(Path(__file__).resolve().parent))

from natural import natural_lot, ring  # noqa: E402
from shapely import affinity  # noqa: E402

from game import write_scenario  # noqa: E402

# Left-half layout on a 60"x36" table; the WWII map scales it to 48"x24".
WOOD_LOTS = [  # centre x, centre y, radius (inches)
    (6, 5, 2.8),
    (17, 7, 2.8),
    (27, 9, 2.6),
    (5, 25, 3.0),
    (24, 29, 2.8),
    (9, 33, 2.5),
    (27, 22, 2.5),
]
LOT_SEED = 5700
"""The seed of the first lot's natural outline; lot ``k`` of the list draws from ``LOT_SEED + k``,
so the maps come out the same on every run."""
FLANK_SEED = 5710
"""The seed of the skirmish's flank wood: of the seeds after the lots', the first whose outline
keeps 0.4" clear of the road's bend at (18, 5) (5707 came within 0.02")."""
WOBBLE = (1.0, 0.86, 0.97, 0.9, 1.0, 0.84, 0.95, 0.88)
"""The older octagon lots' fixed irregularity (radius shares at every 45 degrees): kept only to
give each natural lot the area its octagon had, so sight and balance hardly change."""
LOT_ACROSS_IN = (4.0, 6.0)
"""A lot's widest extent (inches), as the sheets ask: a natural lot with its octagon's area
that comes out narrower (the WWII map's two smallest, 3.8-3.9") is scaled up about its centre
to 4.01" (0.01" inside, so that rounding to 3 decimals keeps it in)."""
HILL = [(9.5, 24.5), (14, 23.5), (18.5, 25), (19, 28.5), (15.5, 30.5), (10.5, 30), (8.5, 27.5)]
HILL_TOP = [(12.5, 26), (15.5, 25.8), (16.5, 27.8), (13, 28.5)]
ROAD = [(0, 14), (10, 15), (22, 18), (38, 18), (50, 21), (60, 22)]
TOWN = (21, 15.6, 2.0, 1.75)  # x, y, width, depth: 3.5 sq in a town, 7 in all


def lot_area(r: float) -> float:
    """The area (sq in) of the older octagon lot of radius ``r`` inches (:data:`WOBBLE`)."""
    pairs = zip(WOBBLE, WOBBLE[1:] + WOBBLE[:1], strict=True)
    return 0.5 * r * r * math.sin(2 * math.pi / len(WOBBLE)) * sum(a * b for a, b in pairs)


def _lot(cx: float, cy: float, r: float, seed: int) -> list[list[float]]:
    """A wood lot about (cx, cy) inches: a natural outline (tools/maps/natural.py) from
    ``seed`` with the area of the older octagon of radius ``r``, then scaled about its centre
    into :data:`LOT_ACROSS_IN` where it falls outside; its closed ring."""
    g = natural_lot(seed, cx, cy, lot_area(r))
    x0, y0, x1, y1 = g.bounds
    across = max(x1 - x0, y1 - y0)
    lo, hi = LOT_ACROSS_IN
    if not lo <= across <= hi:
        k = (min(max(across, lo), hi) + (0.01 if across < lo else -0.01)) / across
        g = affinity.scale(g, k, k, origin=(cx, cy))
    return ring(g)


def _feature(terrain: str, gtype: str, coords, **props) -> dict:
    return {
        "type": "Feature",
        "properties": {"terrain": terrain, **props},
        "geometry": {"type": gtype, "coordinates": coords},
    }


def build(width: float, depth: float, wood_scale: float) -> list[dict]:
    """Terrain features for a table of ``width`` x ``depth`` inches."""
    sx, sy = width / 60, depth / 36

    def p(x: float, y: float) -> list[float]:
        return [round(x * sx, 3), round(y * sy, 3)]

    def turned(ring: list[list[float]]) -> list[list[float]]:
        return [[round(width - x, 3), round(depth - y, 3)] for x, y in ring]

    feats = []
    for half in (0, 1):

        def place(ring, half=half):
            return ring if half == 0 else turned(ring)

        for k, (cx, cy, r) in enumerate(WOOD_LOTS):
            c = p(cx, cy)
            lot = _lot(c[0], c[1], r * wood_scale, LOT_SEED + k)
            feats.append(_feature("woods", "Polygon", [place(lot)]))
        hill = [p(x, y) for x, y in HILL]
        feats.append(_feature("hill", "Polygon", [place(hill + [hill[0]])], level=1))
        top = [p(x, y) for x, y in HILL_TOP]
        feats.append(_feature("hill", "Polygon", [place(top + [top[0]])], level=2))
        tx, ty = p(TOWN[0], TOWN[1])
        town = [
            [tx, ty],
            [tx + TOWN[2], ty],
            [tx + TOWN[2], ty + TOWN[3]],
            [tx, ty + TOWN[3]],
            [tx, ty],
        ]
        feats.append(_feature("light_buildings", "Polygon", [place(town)], name="town"))
    feats.append(_feature("good_road", "LineString", [p(x, y) for x, y in ROAD]))
    return feats


def stands(
    side: str, unit: str, count: int, edge_x: float, depth: float, facing: float
) -> list[dict]:
    """``count`` stands entering at ``edge_x``, spaced 1.5" along the edge about its middle:
    three companies of three (groups 1-3, seven stands: two companies) and a GHQ tank."""
    out = []
    first = depth / 2 - 1.5 * (count - 1) / 2
    for i in range(count):
        ghq = i == count - 1
        group = "HQ" if ghq else str(i // 3 + 1)
        out.append(
            {
                "id": f"{side}{i + 1}",
                "side": side,
                "unit": unit,
                "x": edge_x,
                "y": round(first + 1.5 * i, 3),
                "facing_deg": facing,
                "group": group,
                "ghq": ghq,
                "on_table": False,
            }
        )
    return out


def scenario(title, ruleset, width, depth, sighting, sides, forces, wood_scale, description):
    """A whole scenario dict."""
    return {
        "format": "hulldown-scenario/1",
        "title": title,
        "description": description,
        "ruleset": ruleset,
        "table": {"width": width, "depth": depth},
        "max_sighting_in": sighting,
        "turns": 12,
        "victory": {"type": "destroy_percent", "destroy_at_least_pct": 51, "lose_at_most_pct": 50},
        "terrain": {"type": "FeatureCollection", "features": build(width, depth, wood_scale)},
        "sides": sides,
        "stands": [s for f in forces for s in stands(*f)],
    }


def skirmish() -> dict:
    """A short first battle: three Leopard-IIA6 against three T-90 / AT-12 (2466 against 2534
    points by the sheet's formula; each hits the other's front at +5), out of each other's
    sight behind a ridge in the middle, with a wood on each flank and a village on each side
    of the road."""
    flank = _lot(18, 2.6, 2.4, FLANK_SEED)  # the other flank's is it turned
    feats = [
        _feature(
            "hill",
            "Polygon",
            [[[14, 6], [22, 6], [23, 12], [22, 18], [14, 18], [13, 12], [14, 6]]],
            level=1,
            name="the ridge",
        ),
        _feature("woods", "Polygon", [flank]),
        _feature("woods", "Polygon", [[[36 - x, 24 - y] for x, y in flank]]),
        _feature(
            "light_buildings",
            "Polygon",
            [[[8, 12.4], [10, 12.4], [10, 14.15], [8, 14.15], [8, 12.4]]],
            name="village",
        ),
        _feature(
            "light_buildings",
            "Polygon",
            [[[26, 9.85], [28, 9.85], [28, 11.6], [26, 11.6], [26, 9.85]]],
            name="village",
        ),
        _feature("good_road", "LineString", [[0, 12], [12, 12], [18, 5], [24, 12], [36, 12]]),
    ]
    stands = []
    for i, y in enumerate((8, 12, 16)):
        stands.append(
            {
                "id": f"A{i + 1}",
                "side": "A",
                "unit": "Leopard-IIA6",
                "x": 4,
                "y": y,
                "facing_deg": 0,
                "group": "1",
                "ghq": i == 1,
            }
        )
        stands.append(
            {
                "id": f"B{i + 1}",
                "side": "B",
                "unit": "T-90 / AT-12",
                "x": 32,
                "y": 24 - y,
                "facing_deg": 180,
                "group": "1",
                "ghq": i == 1,
            }
        )
    return {
        "format": "hulldown-scenario/1",
        "title": "Modern skirmish",
        "description": "A first battle in eight turns: three Leopard-IIA6 against three "
        "T-90 / AT-12, out of sight of each other behind a ridge. Destroy two "
        "of the enemy while losing no more than one.",
        "ruleset": "modern",
        "table": {"width": 36, "depth": 24},
        "max_sighting_in": 30,
        "turns": 8,
        "victory": {"type": "destroy_percent", "destroy_at_least_pct": 51, "lose_at_most_pct": 50},
        "terrain": {"type": "FeatureCollection", "features": feats},
        "sides": [
            {
                "id": "A",
                "name": "Blue (Leopard)",
                "cohesion": 15,
                "generation": 4,
                "command_value": 0,
                "entry_edge": "left",
            },
            {
                "id": "B",
                "name": "Orange (T-90)",
                "cohesion": 15,
                "generation": 4,
                "command_value": 0,
                "entry_edge": "right",
            },
        ],
        "stands": stands,
    }


def main() -> None:
    """Write both seed scenarios."""
    modern = scenario(
        "Modern meeting engagement",
        "modern",
        60,
        36,
        30,
        [
            {
                "id": "A",
                "name": "Force 1 (T-80U)",
                "cohesion": 15,
                "generation": 3,
                "command_value": 0,
                "entry_edge": "left",
            },
            {
                "id": "B",
                "name": "Force 2 (M1A2)",
                "cohesion": 16,
                "generation": 3,
                "command_value": 0,
                "entry_edge": "right",
            },
        ],
        [("A", "T-80U / AT-11", 10, 0, 36, 0), ("B", "M1A2 Abrams", 7, 60, 36, 180)],
        1.0,
        "The seed Modern scenario sheet: 10 T-80U / AT-11 at cohesion 15 (6405 points) meet "
        "7 M1A2 at cohesion 16 (about 6240) on mixed ground. Both enter from the narrow edges "
        "on turn 1. Destroy 51% of the enemy while losing no more than 50% to win.",
    )
    wwii = scenario(
        "WWII meeting engagement",
        "wwii",
        48,
        24,
        20,
        [
            {
                "id": "A",
                "name": "Force 1 (Pz IIIJ-M)",
                "cohesion": 15,
                "generation": None,
                "command_value": 0,
                "entry_edge": "left",
            },
            {
                "id": "B",
                "name": "Force 2 (M4 Sherman)",
                "cohesion": 14,
                "generation": None,
                "command_value": 0,
                "entry_edge": "right",
            },
        ],
        [("A", "Pz IIIJ-M", 10, 0, 24, 0), ("B", 'M4 "Sherman"', 8, 48, 24, 180)],
        0.82,
        "The seed WWII scenario sheet: 10 Pz IIIJ-M at cohesion 15 (795 points) meet 8 M4 "
        "Shermans at cohesion 14 (806) on mixed ground. Both enter from the narrow edges on "
        "turn 1. Destroy 51% of the enemy while losing no more than 50% to win.",
    )
    write_scenario(ROOT / "maps" / "modern-meeting.json", modern)
    write_scenario(ROOT / "maps" / "modern-skirmish.json", skirmish())
    write_scenario(ROOT / "maps" / "wwii-meeting.json", wwii)
    print("wrote maps/modern-meeting.json, maps/modern-skirmish.json and maps/wwii-meeting.json")


if __name__ == "__main__":
    main()
