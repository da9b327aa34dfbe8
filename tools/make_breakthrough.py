"""Build maps/wwii-47-breakthrough.json: a Wehrmacht '47 battle (the 004 card, ruleset wwii-47).

The ground follows the WWII seed recipe as `hulldown generate` lays it out
(game.editor.generate.generate_terrain, seed TERRAIN_SEED, medium woods): a 48"x24" table,
woods in lots 4-6" across, two small towns of 7 sq in in all, a good road from one narrow edge
to the other and a hill in each half, the right half the left turned half a turn about the
centre so neither side is favoured.

Both forces enter from the narrow edges on turn 1, their infantry aboard halftracks. Side A,
Germany 1947: a Pz VIB (TL2, the GHQ) and two Pz V, Panzergrenadiers in SdKfz 251s, Pioniere,
an 88 and a Pak 40. Side B, the Allies: four Pershings and a Comet (TL2), US rifle infantry
in M3 halftracks, combat engineers and a 57 mm gun. The issue's artillery and air strikes wait
for #32 (the joint artillery and plot phases are still empty), so neither side has them yet.

How the forces were chosen (docs/performance.md, "Balance of wwii-47-breakthrough"): by
points first (1285.5 against 1329, within 5%, an HQ or GHQ counting twice in the full games),
then by AI battles. With the E-100, two Pz VIB and '47 grenadiers nearly every battle was a
draw in 12 turns (the Germans lost 1 stand, the Allies 6.5); a breakthrough is won by
destroying a third of the enemy (34%) while losing no more than half, over 15 turns, which
makes the battles decisive. Allied infantry on foot died walking, so both sides ride
halftracks. Over 200 battles Germany wins 61%, the Allies 39%, no draws.

No randomness beyond the fixed terrain seed: the output is the same on every run. The
scenario is validated before it is written; the file is written atomically.

Run: .venv/bin/python tools/make_breakthrough.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game import parse_scenario, write_atomic  # noqa: E402
from game.editor.generate import generate_terrain  # noqa: E402

OUT = ROOT / "maps" / "wwii-47-breakthrough.json"
TERRAIN_SEED = 47
WIDTH, DEPTH = 48.0, 24.0

# (unit, how many, carried unit or None); the first unit's first stand is the GHQ
GERMANY = [
    ("Pz VIB", 1, None),
    ("Pz V", 2, None),
    ("SdKfz 251 Halftrack", 3, "Panzergrenadiers"),
    ("Pioniere", 1, None),
    ("Flak 36 (88 mm)", 1, None),
    ("Pak 40 (75 mm)", 1, None),
]
ALLIES = [
    ('M26 "Pershing"', 4, None),
    ("Comet", 1, None),
    ("M3 Halftrack", 3, "US Rifle Infantry"),
    ("US Combat Engineers", 1, None),
    ("57 mm AT Gun M1", 1, None),
]
COHESION = (15, 15)
TURNS = 15


def _force(side: str, rows, x: float, facing: float) -> list[dict]:
    stands: list[dict] = []
    n = sum(k for _, k, _ in rows)
    step = min(1.5, (DEPTH - 1) / n)
    y = DEPTH / 2 - step * (n - 1) / 2
    for group, (unit, k, rider) in enumerate(rows, 1):
        for _ in range(k):
            sid = f"{side}{len(stands) + 1}"
            base = {"side": side, "x": x, "y": round(y, 3), "facing_deg": facing}
            base.update(group=str(group), on_table=False)
            stands.append({"id": sid, "unit": unit, **base, "ghq": not stands})
            if rider:
                stands.append(
                    {
                        "id": f"{side}{len(stands) + 1}",
                        "unit": rider,
                        **base,
                        "ghq": False,
                        "carried_by": sid,
                    }
                )
            y += step
    return stands


def build() -> dict:
    """The scenario as a dict."""
    raw = {
        "format": "hulldown-scenario/1",
        "title": "Breakthrough, 1947",
        "description": (
            "Wehrmacht '47: the war went on. A Pz VIB (tech level 2) and two Panthers with "
            "Panzergrenadiers in halftracks, Pioniere, an 88 and a Pak 40 meet four Pershings "
            "and a Comet (tech level 2) with US infantry in halftracks, engineers and a 57 mm gun. "
            "Tech level 2 stands may fire from a movement group and then move half their "
            "allowance. Infantry ride until set down; vehicles may overrun, and stands in base "
            "contact may close-assault (a defender left disorganized falls back an inch). "
            "Both sides enter from the narrow edges on turn 1. Break through: destroy a third "
            "of the enemy (34%) while losing no more than half to win."
        ),
        "ruleset": "wwii-47",
        "table": {"width": WIDTH, "depth": DEPTH},
        "max_sighting_in": 20,
        "turns": TURNS,
        "victory": {"type": "destroy_percent", "destroy_at_least_pct": 34, "lose_at_most_pct": 50},
        "terrain": {
            "type": "FeatureCollection",
            "features": generate_terrain(WIDTH, DEPTH, TERRAIN_SEED, "medium"),
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
                "name": "Allies",
                "cohesion": COHESION[1],
                "generation": None,
                "command_value": 0,
                "entry_edge": "right",
            },
        ],
        "stands": _force("A", GERMANY, 0.0, 0.0) + _force("B", ALLIES, WIDTH, 180.0),
    }
    parse_scenario(raw, str(OUT))
    return raw


if __name__ == "__main__":
    write_atomic(OUT, json.dumps(build(), indent=2) + "\n")
    print(f"wrote {OUT}")
