"""Build maps/modern-fire-support.json: the combined-arms battle with artillery, AA and air
strikes on both sides (#32; the full Modern game's joint artillery and plot phases).

It takes maps/modern-combined-arms.json as it ships (the same table, the same manoeuvre
forces entering from the narrow edges on turn 1) and gives each side, already on the table by
its own edge: a battery of two self-propelled howitzers and a mortar (group 4, which fires and
never needs to move), an AA stand covering its entry, and two sorties of a ground-attack
aircraft. The two sides' supports mirror each other (US: M109A6 Paladins, an 81 mm mortar, an
Avenger, A-10As; Russia: 2S19s, a 120 mm mortar, a 2S6 Tunguska, Su-25s); every number of
theirs is a house value (assets/data/fire_support.toml, modern_support.csv).

Balance (docs/performance.md, "The balance check"): with 2S1s, a ZSU-23-4 and a weaker Su-25
the US won 68 of 100 AI battles (Russia 24): its guns, AA and aircraft each outclassed
Russia's. Matched supports give 47 / 42 with 11 draws, the points 1.017 apart.

No randomness: the output is the same on every run. The scenario is validated before it is
written; the file is written atomically.

Run: .venv/bin/python tools/maps/make_fire_support.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from game import parse_scenario, write_atomic  # noqa: E402

BASE = ROOT / "maps" / "modern-combined-arms.json"
OUT = ROOT / "maps" / "modern-fire-support.json"

# (unit, x, y, facing) of each side's supports, inches; side B's mirror side A's.
SUPPORT = {
    "A": [
        ("M109A6 Paladin", 2.0, 3.0, 0),
        ("M109A6 Paladin", 2.0, 4.5, 0),
        ("M252 81 mm Mortar", 2.0, 33.0, 0),
        ("M1097 Avenger", 4.0, 6.5, 0),
    ],
    "B": [
        ("2S19 Msta-S", 58.0, 33.0, 180),
        ("2S19 Msta-S", 58.0, 31.5, 180),
        ("2B11 120 mm Mortar", 58.0, 3.0, 180),
        ("2S6 Tunguska", 56.0, 29.5, 180),
    ],
}
AIR = {
    "A": [{"aircraft": "A-10A Thunderbolt II", "sorties": 2}],
    "B": [{"aircraft": "Su-25 Frogfoot", "sorties": 2}],
}

DESCRIPTION = (
    "The combined-arms battle with fire support. Each side has a battery of two howitzers and "
    "a mortar by its own edge, an AA stand, and two air strikes. In the joint plot phase, plot "
    "indirect fire (HE or smoke) to land in a later turn, or call an air strike; it lands in "
    "that turn's joint artillery fire phase, perhaps off target. Guns with sight of the enemy "
    "may fire directly in the artillery phase. Impact markers attack every stand under them and "
    "any that drives in before marker removal; smoke blocks sight until the end of the next "
    "turn. AA fires at aircraft flying past. Infantry ride in IFVs and APCs, vehicles may "
    "overrun, stands in contact may close-assault. Destroy 51% of the enemy while losing no more "
    "than 50% to win."
)


def build() -> dict:
    """The scenario as a dict."""
    raw = json.loads(BASE.read_text(encoding="utf-8"))
    raw["title"] = "Combined arms with fire support"
    raw["description"] = DESCRIPTION
    for side in raw["sides"]:
        side["air_support"] = AIR[side["id"]]
    n = {s: sum(1 for st in raw["stands"] if st["side"] == s) for s in ("A", "B")}
    for sid, rows in SUPPORT.items():
        for unit, x, y, facing in rows:
            n[sid] += 1
            raw["stands"].append(
                {
                    "id": f"{sid}{n[sid]}",
                    "side": sid,
                    "unit": unit,
                    "x": x,
                    "y": y,
                    "facing_deg": facing,
                    "group": "4",
                    "on_table": True,
                }
            )
    return raw


def main() -> None:
    """Build, validate and write the scenario."""
    raw = build()
    parse_scenario(raw, str(OUT))  # raises ScenarioError with every problem
    write_atomic(OUT, json.dumps(raw, indent=1) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(raw['stands'])} stands")


if __name__ == "__main__":
    main()
