"""Build maps/modern-sinai-1967.json: an introductory Modern battle (the 000 rules, ruleset
modern) of tech level 2 tanks, which no other shipped introductory Modern map fields: Centurions
against T-55s, 1967.

The ground follows the Modern seed recipe as `hulldown generate` lays it out
(game.editor.generate.generate_terrain, seed TERRAIN_SEED, light density, natural outlines): a
36"x24" table, a good road from one narrow edge to the other, a hill and a small village in
each half, the right half the left turned half a turn about the centre so neither side is
favoured. The recipe's wood lots are then made desert (:func:`desert`): the lot nearest each
village becomes a palm grove (the oasis), shrunk to GROVE_SCALE of its size about its centre;
the rest are stony scrub, rough 1, or broken rocky ground, rough 2 (DESERT_KINDS in the order the
recipe lays the lots). Neither rough kind blocks sight to a tank (the chart blocks it to
personnel only), so between the hills, the villages and the groves the tanks see across open
sand; the table's ground is painted as sand (``table.ground``).

Both forces enter from the narrow edges on turn 1: side A, four Centurion Mk13 (TL2); side B,
nine T-55A (TL2): across the open sand the Centurions' 30" guns outreach the T-55s' 20", and
eight T-55s lost 35 of 60 battles to 15. A side wins by destroying a third of the enemy (34%)
while losing no more than half: at 51% three battles in five were drawn. Tech level 2 stands
may fire and then move in the same turn (000 05.00 step 4). Every value is the 000 data
table's.

How the forces were chosen: docs/performance.md, "Balance of modern-sinai-1967".

No randomness beyond the fixed terrain seed: the output is the same on every run. The
scenario is validated before it is written; the file is written atomically.

Run: .venv/bin/python tools/maps/make_sinai.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from recipe import edge_force, write_scenario  # noqa: E402
from shapely import affinity  # noqa: E402
from shapely.geometry import polygon, shape  # noqa: E402

from game import load_rules_data, parse_scenario  # noqa: E402
from game.editor.generate import generate_terrain  # noqa: E402

OUT = ROOT / "maps" / "modern-sinai-1967.json"
TERRAIN_SEED = 1967
WIDTH, DEPTH = 36.0, 24.0
TURNS = 12

# (unit, how many, carried unit or None, group); the first stand is the side's GHQ
DESERT_KINDS = ("rough_2", "grove", "rough_1", "rough_1", "rough_2")
"""What each of the recipe's wood lots (and its twin) becomes, in the order it lays them."""
GROVE_SCALE = 0.7
"""A palm grove is the lot shrunk to this share of its size (linear) about its centre: an
oasis of 2-3" (200-300 m), not a forest."""

CENTURIONS = [("Centurion Mk13", 4, None, "1")]
T55S = [("T55A", 4, None, "1"), ("T55A", 5, None, "2")]
COHESION = (15, 15)

DESCRIPTION = (
    "Sinai, 1967, with the introductory Modern rules: four Centurions meet nine T-55s, every "
    "tank of tech level 2, which may fire and then move in the same turn, across open sand. "
    "Stony scrub (rough 1) and broken rocky ground (rough 2) give a hull some cover but hide "
    "no tank; only the two palm groves by the road, the villages and the low hills block "
    "sight, and the hills give a longer view. Both sides enter from the narrow edges on turn "
    "1. Destroy 34% of the enemy while losing no more than 50% to win."
)


def desert(features: list[dict]) -> list[dict]:
    """The recipe's ``features`` made desert: its wood lots, which it lays in twins (a lot,
    then the same lot turned half a turn about the centre), become in turn the kinds of
    DESERT_KINDS, a grove shrunk to GROVE_SCALE about its own centre (which keeps the twins
    alike). Raises ValueError when the recipe lays a different number of lots."""
    woods = [i for i, f in enumerate(features) if f["properties"]["terrain"] == "woods"]
    if len(woods) != 2 * len(DESERT_KINDS):
        raise ValueError(f"the recipe laid {len(woods)} wood lots, not {2 * len(DESERT_KINDS)}")
    out = list(features)
    for k, i in enumerate(woods):
        kind = DESERT_KINDS[k // 2]
        g = shape(features[i]["geometry"])
        if kind == "grove":
            g = affinity.scale(g, GROVE_SCALE, GROVE_SCALE, origin="centroid")
        ring = polygon.orient(g, 1.0).exterior.coords  # as the recipe writes its lots
        coords = [[[round(x, 3), round(y, 3)] for x, y in ring]]
        out[i] = {
            "type": "Feature",
            "properties": {"terrain": kind},
            "geometry": {"type": "Polygon", "coordinates": coords},
        }
    return out


def build() -> dict:
    """The scenario as a dict, validated (raises ScenarioError)."""
    data = load_rules_data()
    raw = {
        "format": "hulldown-scenario/1",
        "title": "Sinai, 1967",
        "description": DESCRIPTION,
        "ruleset": "modern",
        "table": {"width": WIDTH, "depth": DEPTH, "ground": "sand"},
        "max_sighting_in": 30,
        "turns": TURNS,
        "victory": {"type": "destroy_percent", "destroy_at_least_pct": 34, "lose_at_most_pct": 50},
        "terrain": {
            "type": "FeatureCollection",
            "features": desert(generate_terrain(WIDTH, DEPTH, TERRAIN_SEED, "light")),
        },
        "sides": [
            {
                "id": "A",
                "name": "Centurions",
                "cohesion": COHESION[0],
                "generation": 2,
                "command_value": 0,
                "entry_edge": "left",
            },
            {
                "id": "B",
                "name": "T-55s",
                "cohesion": COHESION[1],
                "generation": 2,
                "command_value": 0,
                "entry_edge": "right",
            },
        ],
        "stands": edge_force("A", CENTURIONS, 0.0, 0.0, DEPTH)
        + edge_force("B", T55S, WIDTH, 180.0, DEPTH),
    }
    parse_scenario(raw, str(OUT), data)
    return raw


if __name__ == "__main__":
    write_scenario(OUT, build(), ROOT)
