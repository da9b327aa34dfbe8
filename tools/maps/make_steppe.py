"""Build maps/wwii-47-steppe.json: a Wehrmacht '47 battle (the 004 card, ruleset wwii-47) with
the units the other shipped map lacks: wheeled armoured cars, cavalry and "type S" infantry.

The ground follows the WWII seed recipe as `hulldown generate` lays it out
(game.editor.generate.generate_terrain, seed TERRAIN_SEED, light woods, natural outlines): a
36"x24" table, a good road from one narrow edge to the other, a hill and a small town in each
half, the right half the left turned half a turn about the centre so neither side is favoured.

Both forces enter from the narrow edges on turn 1. Side A, Germany 1947: Panthers (TL1) and a
Pz VIB (TL2), two SdKfz 234/2 Puma armoured cars (wheeled), Fallschirmjaeger ("type S": -3 more
in close assault) and Panzergrenadiers in a halftrack. Side B, the Soviets: T-34/85s and a
JS-III (TL2), two BA-64 armoured cars (wheeled), Cossack cavalry (firepower doubled in close
assault except against armour, 004 notes) and rifle infantry. Each side's 50 mm company mortar
(the leGrW 36, the RM-40; MORTARS) is already on the table in the corner of its village
nearest the enemy and the road, where the enemy comes within its short direct range (5" and
8") and its sight: the rules' direct artillery and a mortar's deviation, and its bomb landing
on a tank (AP 1, 4 or more below the tank's halved armour, an S without dice). Every row that
is not a 001 tank is a house value (assets/data/wwii_support.csv, docs/rules.md "Wehrmacht
'47").

How the forces were chosen: docs/performance.md, "Balance of wwii-47-steppe".

No randomness beyond the fixed terrain seed: the output is the same on every run. The
scenario is validated before it is written; the file is written atomically.

Run: .venv/bin/python tools/maps/make_steppe.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from recipe import edge_force, write_scenario  # noqa: E402

from game import load_rules_data, parse_scenario  # noqa: E402
from game.editor.generate import generate_terrain  # noqa: E402

OUT = ROOT / "maps" / "wwii-47-steppe.json"
TERRAIN_SEED = 1947
WIDTH, DEPTH = 36.0, 24.0
TURNS = 12

# (unit, how many, carried unit or None, group); the first stand is the side's GHQ
GERMANY = [
    ("Pz V", 3, None, "1"),
    ("Pz VIB", 1, None, "1"),
    ("SdKfz 234/2 Puma", 2, None, "2"),
    ("Fallschirmjaeger", 1, None, "3"),
    ("Panzergrenadiers", 1, None, "3"),
    ("SdKfz 251 Halftrack", 1, "Fallschirmjaeger", "3"),
]
SOVIETS = [
    ("T-34/85", 3, None, "1"),
    ('JS-III "Pike"', 1, None, "1"),
    ("BA-64 Armoured Car", 2, None, "2"),
    ("Cossack Cavalry", 3, None, "2"),
    ("Soviet Rifle Infantry", 1, None, "3"),
]
# each side's light mortar on the table from the start: (unit, x, y) inches, in its village
# 0.4" from the corner nearest the road and the enemy, so its footprint reaches out of the
# buildings and it sees out (the Soviets' the German's turned half a turn about the centre)
MORTARS = {"A": ("leGrW 36 (50 mm Mortar)", 14.1, 7.45), "B": ("RM-40 (50 mm Mortar)", 21.9, 16.55)}
COHESION = (16, 16)

DESCRIPTION = (
    "Wehrmacht '47 on the open steppe: Panthers and a King Tiger (tech level 2) with Puma "
    "armoured cars, Fallschirmjaeger and Panzergrenadiers in a halftrack meet T-34/85s and a "
    "JS-III (tech level 2) with BA-64 armoured cars, Cossack cavalry and rifle infantry. "
    "Armoured cars are wheeled: fast on the road and open ground, slow in woods. Cavalry "
    "doubles its firepower in close assault against anything but armour; Fallschirmjaeger are "
    "type S infantry, worth a further -3 in close assault. Tech level 2 stands may fire from a "
    "movement group and then move half their allowance. Each side has a 50 mm mortar already "
    'in its village (the German reaches 5", the Soviet 8"): fire it at what it sees in the '
    "joint artillery phase, or plot its fire in the joint plot phase. Both sides enter from "
    "the narrow edges on turn 1. Destroy 51% of the enemy while losing no more than 50% to "
    "win."
)


def mortar(side: str, n: int, facing: float) -> dict:
    """Side ``side``'s light mortar (MORTARS), the side's stand number ``n``, on the table
    facing ``facing`` degrees, in a battle group of its own ("4")."""
    unit, x, y = MORTARS[side]
    return {
        "id": f"{side}{n}",
        "unit": unit,
        "side": side,
        "x": x,
        "y": y,
        "facing_deg": facing,
        "group": "4",
        "on_table": True,
        "ghq": False,
    }


def build() -> dict:
    """The scenario as a dict, validated (raises ScenarioError)."""
    data = load_rules_data()
    raw = {
        "format": "hulldown-scenario/1",
        "title": "Steppe, 1947",
        "description": DESCRIPTION,
        "ruleset": "wwii-47",
        "table": {"width": WIDTH, "depth": DEPTH},
        "max_sighting_in": 20,
        "turns": TURNS,
        "victory": {"type": "destroy_percent", "destroy_at_least_pct": 51, "lose_at_most_pct": 50},
        "terrain": {
            "type": "FeatureCollection",
            "features": generate_terrain(WIDTH, DEPTH, TERRAIN_SEED, "light"),
        },
        "sides": [
            {
                "id": "A",
                "name": "Germany",
                "cohesion": COHESION[0],
                "generation": None,
                "command_value": 0,
                "entry_edge": "left",
            },
            {
                "id": "B",
                "name": "Soviets",
                "cohesion": COHESION[1],
                "generation": None,
                "command_value": 0,
                "entry_edge": "right",
            },
        ],
        "stands": stands(),
    }
    parse_scenario(raw, str(OUT), data)
    return raw


def stands() -> list[dict]:
    """Both sides' stands: each side's force at its narrow edge, then its mortar."""
    a = edge_force("A", GERMANY, 0.0, 0.0, DEPTH)
    b = edge_force("B", SOVIETS, WIDTH, 180.0, DEPTH)
    return a + [mortar("A", len(a) + 1, 0.0)] + b + [mortar("B", len(b) + 1, 180.0)]


if __name__ == "__main__":
    write_scenario(OUT, build(), ROOT)
