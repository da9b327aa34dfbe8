"""Build maps/modern-mazar-2001.json: the full Modern game (modern-full) in northern
Afghanistan, November 2001, the "horse soldiers" on the road to Mazar-i-Sharif: Northern
Alliance cavalry and foot with a light mortar (and a US air strike called by the special
forces riding with them) against Taliban T-55s and a T-62, foot in a village and on a ridge,
a D-30 howitzer and a mortar dug in on the ridge above the pass.

The ground (48"x30"): a valley running from the left edge to a ridge across it, broken in a
pass where the track crosses; beyond the pass a poor road to the right edge. Hills close the
valley's sides (the Northern Alliance's mortar and an outpost of its foot hold the northern
one); rough ground of three grades (scrub, boulders, broken rock) lies in the valley, a
village of mud-brick houses (light buildings) beside the track short of the pass, and
improved positions in the pass. Hills and rough ground have natural outlines
(game.editor.generate's, seeded).

Both sides' guns start within their direct range (12-15") and sight of where the enemy must
come: the Taliban D-30 and mortar on the ridge crests overlook the village and the valley
floor before the pass; the Northern Alliance mortar on the northern hill overlooks the village.

The forces: the Northern Alliance (cohesion 16) ten mounted cavalry, three Afghan foot (one
with the mortar), a T-55A and one F-16C strike; the Taliban (cohesion 14) five Afghan foot (one
in a BTR-152), a D-30, a 60 mm mortar, two T-55A and a T-62. The new rows (Afghan foot, the
horse, the 60 mm mortar) are HOUSE VALUES (assets/data/modern_support.csv, fire_support.toml;
docs/rules.md "Units beyond tanks"). Balanced by play, veteran against veteran (docs/
performance.md, "Balance of modern-mazar-2001"): over seeds 1-200 the Northern Alliance won
107, the Taliban 84, 9 drawn (56% / 44% of the decisive battles), the sheets' points 1.5 to 1
for the Northern Alliance: the Taliban hold the cover and the heights.

No randomness beyond the fixed seed: the output is the same on every run. The scenario is
validated before it is written; the file is written atomically.

Run: .venv/bin/python tools/maps/make_mazar.py
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import shapely
from shapely import affinity
from shapely.geometry import LineString, box

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from recipe import edge_force, feature, write_scenario  # noqa: E402

from game import load_rules_data, parse_scenario  # noqa: E402
from game.editor.generate import natural_outline  # noqa: E402

OUT = ROOT / "maps" / "modern-mazar-2001.json"
WIDTH, DEPTH = 48.0, 30.0
SEED = 2001
TURNS = 12

ROADS = [
    ("track", [(0, 15.5), (8, 15.0), (16, 15.8), (22, 15.2), (26, 15.0), (29.5, 15.3)]),
    ("poor_road", [(29.5, 15.3), (36, 15.6), (42, 16.2), (48, 16.5)]),
]
# (kind, centre x, y, radius, stretch x, stretch y, extra properties): natural outlines
BLOBS = [
    ("rough_1", 15.0, 9.5, 2.2, 1.3, 0.8, {"name": "scrub"}),
    ("rough_2", 17.0, 21.5, 1.6, 1.0, 1.0, {"name": "boulders"}),
    ("rough_3", 40.0, 8.0, 1.6, 1.0, 1.0, {"name": "broken rock"}),
    ("rough_2", 7.0, 10.5, 1.4, 1.0, 1.0, {"name": "boulders"}),
]
HILLS = [  # (centre x, y, radius, stretch x, stretch y, level 2 radius or 0, name)
    (12.0, 26.0, 3.4, 1.5, 0.8, 0.0, "northern hill"),
    (10.0, 3.5, 2.8, 1.5, 0.8, 0.0, "southern hill"),
    (29.5, 23.5, 3.2, 0.8, 1.6, 1.5, "north ridge"),
    (29.5, 6.5, 3.2, 0.8, 1.6, 1.5, "south ridge"),
]
BOXES = [  # (kind, x0, y0, x1, y1, extra properties)
    ("light_buildings", 21.3, 16.4, 24.2, 18.6, {"name": "village"}),
    ("light_buildings", 24.6, 16.5, 26.0, 17.8, {"name": "village"}),
    ("light_buildings", 22.2, 11.6, 24.4, 14.0, {"name": "village"}),
    ("light_buildings", 19.6, 12.6, 21.0, 13.9, {"name": "village"}),
    ("medium_improved_position", 31.0, 12.6, 32.6, 14.0, {"name": "Taliban trenches"}),
    ("medium_improved_position", 31.0, 16.6, 32.6, 18.0, {"name": "Taliban trenches"}),
]
ROAD_CLEAR_IN = 0.6
"""No area but a hill within this distance of a road's centre line."""

# Northern Alliance entering from the left edge: (unit, how many, carried, group)
NA_ENTERING = [
    ("Northern Alliance Cavalry", 5, None, "1"),
    ("Northern Alliance Cavalry", 5, None, "2"),
    ("Northern Alliance Infantry", 2, None, "3"),
    ("T55A", 1, None, "3"),
]
# (unit, x, y, facing, group): the Northern Alliance's outpost on the northern hill
NA_ON_TABLE = [
    ("Type 63 60 mm Mortar", 16.0, 24.0, 0.0, "4"),
    ("Northern Alliance Infantry", 14.5, 25.0, 0.0, "4"),
]
# the Taliban, all on the table: (unit, x, y, facing, group, carried unit or None)
TALIBAN = [
    ("Taliban Infantry", 22.7, 17.3, 180.0, "1", None),  # GHQ, in the village
    ("Taliban Infantry", 23.2, 12.7, 180.0, "1", None),
    ("Taliban Infantry", 28.6, 23.5, 180.0, "2", None),
    ("D-30 122 mm Howitzer", 29.5, 22.0, 190.0, "2", None),
    ("Taliban Infantry", 28.6, 6.5, 180.0, "3", None),
    ("Type 63 60 mm Mortar", 29.5, 8.0, 170.0, "3", None),
    ("T55A", 31.8, 13.3, 180.0, "4", None),
    ("T55A", 31.8, 17.3, 180.0, "4", None),
    ("T-62", 40.0, 15.0, 180.0, "5", None),
    ("BTR-152", 40.0, 18.5, 180.0, "5", "Taliban Infantry"),
]
AIR = [{"aircraft": "F-16C Fighting Falcon", "sorties": 1}]
COHESION = (16, 14)

DESCRIPTION = (
    "Northern Afghanistan, November 2001, the full Modern game: Northern Alliance horsemen "
    "and foot, with a T-55, a light mortar on the northern hill and one US air strike called "
    "by the special forces riding with them, attack up the valley towards the pass on the "
    "road to Mazar-i-Sharif. The Taliban hold the village before the pass with foot, the "
    "ridge crests either side of it with foot, a D-30 howitzer and a mortar, the trenches in "
    "the pass with two T-55s, and keep a T-62 and foot in a BTR-152 behind. Cavalry charging "
    "foot close-assaults at a further -3; the guns on the heights fire direct at whatever "
    "they see in the valley. Scrub, boulders and broken rock slow and hide; the houses and "
    "the trenches give cover. The Northern Alliance enters from the left edge on turn 1. "
    "Destroy 51% of the enemy while losing no more than 50% to win. The Afghan foot, the "
    "horse and the 60 mm mortar are house values, not GHQ's."
)


def _blob(rng: random.Random, cx: float, cy: float, r: float, sx: float, sy: float):
    """A natural outline about (cx, cy), stretched by (sx, sy) about its centre."""
    return affinity.scale(natural_outline(rng, cx, cy, r), sx, sy, origin=(cx, cy))


def terrain() -> list[dict]:
    """The features: hills (level 1, then any level 2 inside), areas, roads; raises
    SystemExit naming a feature that touches another, lies on a road or leaves the table."""
    rng = random.Random(SEED)
    roads = [(kind, LineString(pts)) for kind, pts in ROADS]
    near_road = shapely.union_all([r.buffer(ROAD_CLEAR_IN) for _, r in roads])
    feats, areas, hills = [], [], []
    for cx, cy, r, sx, sy, r2, name in HILLS:
        low = _blob(rng, cx, cy, r, sx, sy)
        feats.append(feature("hill", low, level=1, name=name))
        hills.append(low)
        if r2:
            high = _blob(rng, cx, cy, r2, sx, sy)
            if not low.buffer(-0.5).contains(high):
                sys.exit(f"the crest of the {name} leaves its hill")
            feats.append(feature("hill", high, level=2, name=name))
    for kind, cx, cy, r, sx, sy, props in BLOBS:
        areas.append((kind, _blob(rng, cx, cy, r, sx, sy), props))
    for kind, x0, y0, x1, y1, props in BOXES:
        areas.append((kind, box(x0, y0, x1, y1), props))
    table = box(0, 0, WIDTH, DEPTH)
    for i, (kind, g, _) in enumerate(areas):
        if any(g.intersects(h) for j, (_, h, _) in enumerate(areas) if j != i):
            sys.exit(f"{kind} at {g.bounds} touches another feature")
        if g.intersects(near_road) or any(g.intersects(h) for h in hills):
            sys.exit(f"{kind} at {g.bounds} lies on a road or a hill")
    for g in hills + [g for _, g, _ in areas]:
        if not table.contains(g):
            sys.exit(f"a feature at {g.bounds} leaves the table")
    feats += [feature(kind, g, **props) for kind, g, props in areas]
    feats += [feature(kind, r) for kind, r in roads]
    return feats


def placed(side: str, rows, first: int) -> list[dict]:
    """Stands on the table from their first turn, numbered from ``first``; a rider shares its
    carrier's point. ``rows``: (unit, x, y, facing, group, carried unit or None)."""
    out: list[dict] = []
    for unit, x, y, facing, group, rider in rows:
        sid = f"{side}{first + len(out)}"
        base = {"side": side, "x": x, "y": y, "facing_deg": facing, "group": group}
        out.append(
            {"id": sid, "unit": unit, **base, "ghq": first + len(out) == 1, "on_table": True}
        )
        if rider:
            rid = f"{side}{first + len(out)}"
            out.append(
                {
                    "id": rid,
                    "unit": rider,
                    **base,
                    "ghq": False,
                    "on_table": True,
                    "carried_by": sid,
                }
            )
    return out


def build() -> dict:
    """The scenario as a dict, validated (raises ScenarioError)."""
    na = edge_force("A", NA_ENTERING, 0.0, 0.0, DEPTH)
    na += placed("A", [(*row, None) for row in NA_ON_TABLE], len(na) + 1)
    raw = {
        "format": "hulldown-scenario/1",
        "title": "The road to Mazar-i-Sharif, 2001",
        "description": DESCRIPTION,
        "ruleset": "modern-full",
        "table": {
            "width": WIDTH,
            "depth": DEPTH,
            "ground": "sand",
        },  # the dry valleys of Balkh, in November
        "max_sighting_in": 30,
        "turns": TURNS,
        "victory": {"type": "destroy_percent", "destroy_at_least_pct": 51, "lose_at_most_pct": 50},
        "terrain": {"type": "FeatureCollection", "features": terrain()},
        "sides": [
            {
                "id": "A",
                "name": "Northern Alliance",
                "cohesion": COHESION[0],
                "generation": 2,
                "command_value": 0,
                "entry_edge": "left",
                "air_support": AIR,
            },
            {
                "id": "B",
                "name": "Taliban",
                "cohesion": COHESION[1],
                "generation": 2,
                "command_value": 0,
                "entry_edge": None,
            },
        ],
        "stands": na + placed("B", TALIBAN, 1),
    }
    parse_scenario(raw, str(OUT), load_rules_data())
    return raw


if __name__ == "__main__":
    write_scenario(OUT, build(), ROOT)
