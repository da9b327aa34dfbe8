"""Build maps/modern-sinai-1967.json: an introductory Modern battle (the 000 rules, ruleset
modern) of tech level 2 tanks, which no other shipped introductory Modern map fields: Centurions
against T-55s, 1967.

The ground follows the Modern seed recipe as `hulldown generate` lays it out
(game.editor.generate.generate_terrain, seed TERRAIN_SEED, light woods for the scrub and palm
groves of the Sinai, natural outlines): a 36"x24" table, a good road from one narrow edge to the
other, a hill and a small town in each half, the right half the left turned half a turn about
the centre so neither side is favoured.

Both forces enter from the narrow edges on turn 1: side A, four Centurion Mk13 (TL2); side B,
eight T-55A (TL2). A side wins by destroying a third of the enemy (34%) while losing no more
than half: at 51% three battles in five were drawn. Tech level 2 stands may fire and then move in the same turn (000 05.00 step
4). Every value is the 000 data table's.

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

from game import load_rules_data, parse_scenario  # noqa: E402
from game.editor.generate import generate_terrain  # noqa: E402

OUT = ROOT / "maps" / "modern-sinai-1967.json"
TERRAIN_SEED = 1967
WIDTH, DEPTH = 36.0, 24.0
TURNS = 12

# (unit, how many, carried unit or None, group); the first stand is the side's GHQ
CENTURIONS = [("Centurion Mk13", 4, None, "1")]
T55S = [("T55A", 4, None, "1"), ("T55A", 4, None, "2")]
COHESION = (15, 15)

DESCRIPTION = (
    "Sinai, 1967, with the introductory Modern rules: four Centurions meet eight T-55s, every "
    "tank of tech level 2, which may fire and then move in the same turn. Scrub and palm "
    "groves (woods) and the villages block sight; the hills give a longer view. Both sides "
    "enter from the narrow edges on turn 1. Destroy 34% of the enemy while losing no more "
    "than 50% to win."
)


def build() -> dict:
    """The scenario as a dict, validated (raises ScenarioError)."""
    data = load_rules_data()
    raw = {
        "format": "hulldown-scenario/1",
        "title": "Sinai, 1967",
        "description": DESCRIPTION,
        "ruleset": "modern",
        "table": {"width": WIDTH, "depth": DEPTH},
        "max_sighting_in": 30,
        "turns": TURNS,
        "victory": {"type": "destroy_percent", "destroy_at_least_pct": 34, "lose_at_most_pct": 50},
        "terrain": {
            "type": "FeatureCollection",
            "features": generate_terrain(WIDTH, DEPTH, TERRAIN_SEED, "light"),
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
        "stands": edge_force("A", CENTURIONS, 0.0, 0.0, DEPTH) + edge_force("B", T55S, WIDTH, 180.0, DEPTH),
    }
    parse_scenario(raw, str(OUT), data)
    return raw


if __name__ == "__main__":
    write_scenario(OUT, build(), ROOT)
