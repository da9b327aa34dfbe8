"""Build maps/wwii-47-breakthrough.json: a Wehrmacht '47 battle (the 004 card, ruleset wwii-47).

The ground follows the WWII seed recipe as `hulldown generate` lays it out
(game.editor.generate.generate_terrain, seed TERRAIN_SEED, medium woods): a 48"x24" table,
woods in lots 4-6" across, two small towns of 7 sq in in all, a good road from one narrow edge
to the other and a hill in each half, the right half the left turned half a turn about the
centre so neither side is favoured. The lots and hills are laid out as the generator's older
octagons were (``natural=False``) and then redrawn as natural outlines of the same centres and
areas (:func:`terrain`).

Both forces enter from the narrow edges on turn 1, their infantry aboard halftracks. Side A,
Germany 1947: three Pz VIB (TL2, one the GHQ), Panzergrenadiers in SdKfz 251s, Pioniere,
an 88 and a Pak 40. Side B, the Allies: four Pershings and a Comet (TL2), US rifle infantry
in M3 halftracks, combat engineers and a 57 mm gun. Each side's fire support is on the table by
its own edge from the start: the Germans a 105 mm howitzer, an 81 mm mortar and a 20 mm flak
(with the 88, their AA against the Allies' two P-47 air strikes) and one Hs 129 strike, the
Allies a 105 mm howitzer and an 81 mm mortar (every value of theirs a house value: fire_support.toml,
wwii_support.csv).

How the forces were chosen (docs/performance.md, "Balance of wwii-47-breakthrough"): by
points first (1285.5 against 1329, within 5%, an HQ or GHQ counting twice in the full games),
then by AI battles. With the E-100, two Pz VIB and '47 grenadiers nearly every battle was a
draw in 12 turns (the Germans lost 1 stand, the Allies 6.5); a breakthrough is won by
destroying a third of the enemy (34%) while losing no more than half, over 15 turns, which
makes the battles decisive. Allied infantry on foot died walking, so both sides ride
halftracks. Over 200 battles the ground forces alone gave Germany 61%, the Allies 39%. With
the fire support (two P-47 strikes against one Hs 129; points 1608 against 1741.5, 1.08 apart)
Germany won 51.5%, the Allies 48.5% - but with every TL2 tank frozen after its entry turn
(the posture phase never offered them a movement group). Once TL2 stands could move and fire
(issue "The full games, right"), the Allies' five TL2 tanks against Germany's one won 70% of
200; the two Pz V became Pz VIB (points 1659 against 1741.5, 1.05 apart).

No randomness beyond the fixed terrain seed: the output is the same on every run. The
scenario is validated before it is written; the file is written atomically.

Run: .venv/bin/python tools/maps/make_breakthrough.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(Path(__file__).resolve().parent))

from natural import natural_lot, ring  # noqa: E402
from recipe import edge_force  # noqa: E402
from shapely.geometry import shape  # noqa: E402

from game import parse_scenario, write_atomic  # noqa: E402
from game.editor.generate import generate_terrain  # noqa: E402

OUT = ROOT / "maps" / "wwii-47-breakthrough.json"
TERRAIN_SEED = 47
LOT_SEED = 4700
"""The seed of the first woods lot's or hill's natural outline (the next ``LOT_SEED + 1``...)."""
WIDTH, DEPTH = 48.0, 24.0

# (unit, how many, carried unit or None); the first unit's first stand is the GHQ
GERMANY = [
    ("Pz VIB", 1, None),
    ("Pz VIB", 2, None),
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
# fire support already on the table by each side's own edge (#32/#33): (unit, x, y); it keeps
# to its own group (artillery does not fire and move in one turn, 004 step 3)
GERMAN_GUNS = [
    ("le FH 18 (105 mm)", 1.0, 1.5),
    ("GrW 34 (81 mm Mortar)", 1.0, 22.5),
    ("Flak 38 (20 mm)", 3.0, 21.0),
]
ALLIED_GUNS = [
    ("M2A1 105 mm Howitzer", 47.0, 22.5),
    ("M1 81 mm Mortar", 47.0, 1.5),
]
ALLIED_AIR = [{"aircraft": "P-47D Thunderbolt", "sorties": 2}]
GERMAN_AIR = [{"aircraft": "Hs 129 B-3", "sorties": 1}]
COHESION = (15, 15)
TURNS = 15


def terrain() -> list[dict]:
    """The generator's layout for :data:`TERRAIN_SEED` as the map first shipped it (laid out
    with the older wobbly octagons, ``natural=False``, so the road, town, hills and lots stay
    where they were), each woods lot and hill then redrawn as a natural outline about its
    octagon's centre with its octagon's area (tools/maps/natural.py), its twin in the other
    half turned from it. The generator appends each piece and then its twin."""
    feats = generate_terrain(WIDTH, DEPTH, TERRAIN_SEED, "medium", natural=False)
    out: list[dict] = []
    k = 0
    while k < len(feats):
        f = feats[k]
        if f["properties"]["terrain"] not in ("woods", "hill"):
            out.append(f)
            k += 1
            continue
        old = shape(f["geometry"])
        c = old.centroid
        lot = ring(natural_lot(LOT_SEED + len(out), c.x, c.y, old.area))
        twin = [[round(WIDTH - x, 3), round(DEPTH - y, 3)] for x, y in lot]
        for coords in (lot, twin):
            out.append({**f, "geometry": {"type": "Polygon", "coordinates": [coords]}})
        k += 2
    return out


def _force(side: str, rows, x: float, facing: float) -> list[dict]:
    """A side's stands waiting off its edge (:func:`recipe.edge_force`), a battle group a row."""
    grouped = [(unit, k, rider, str(g)) for g, (unit, k, rider) in enumerate(rows, 1)]
    return edge_force(side, grouped, x, facing, DEPTH)


def _guns(side: str, rows, first: int, group: str, facing: float) -> list[dict]:
    return [
        {
            "id": f"{side}{first + k}",
            "unit": unit,
            "side": side,
            "x": x,
            "y": y,
            "facing_deg": facing,
            "group": group,
            "on_table": True,
            "ghq": False,
        }
        for k, (unit, x, y) in enumerate(rows)
    ]


def build() -> dict:
    """The scenario as a dict."""
    raw = {
        "format": "hulldown-scenario/1",
        "title": "Breakthrough, 1947",
        "description": (
            "Wehrmacht '47: the war went on. Three Pz VIB (tech level 2) with "
            "Panzergrenadiers in halftracks, Pioniere, an 88 and a Pak 40 meet four Pershings "
            "and a Comet (tech level 2) with US infantry in halftracks, engineers and a 57 mm gun. "
            "Tech level 2 stands may fire from a movement group and then move half their "
            "allowance. Infantry ride until set down; vehicles may overrun, and stands in base "
            "contact may close-assault (a defender left disorganized falls back an inch). "
            "Each side has a 105 mm howitzer and an 81 mm mortar by its own edge: plot their "
            "fire in the joint plot phase, or fire at what they see in the joint artillery "
            "phase. The Allies have two P-47 air strikes and Germany one Hs 129 strike; the "
            "Germans' flak makes the P-47s less likely to arrive, and the Allies have no flak. "
            "Both sides enter from the narrow edges on turn 1. Break "
            "through: destroy a third of the enemy (34%) while losing no more than half to win."
        ),
        "ruleset": "wwii-47",
        "table": {"width": WIDTH, "depth": DEPTH},
        "max_sighting_in": 20,
        "turns": TURNS,
        "victory": {"type": "destroy_percent", "destroy_at_least_pct": 34, "lose_at_most_pct": 50},
        "terrain": {
            "type": "FeatureCollection",
            "features": terrain(),
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
        "stands": [],
    }
    a, b = _force("A", GERMANY, 0.0, 0.0), _force("B", ALLIES, WIDTH, 180.0)
    a += _guns("A", GERMAN_GUNS, len(a) + 1, str(len(GERMANY) + 1), 0.0)
    b += _guns("B", ALLIED_GUNS, len(b) + 1, str(len(ALLIES) + 1), 180.0)
    raw["stands"] = a + b
    raw["sides"][0]["air_support"] = GERMAN_AIR
    raw["sides"][1]["air_support"] = ALLIED_AIR
    parse_scenario(raw, str(OUT))
    return raw


if __name__ == "__main__":
    write_atomic(OUT, json.dumps(build(), indent=2) + "\n")
    print(f"wrote {OUT}")
