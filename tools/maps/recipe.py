"""What the seed-recipe map makers share (make_sinai.py, make_steppe.py): a side's stands
waiting at its narrow edge, and writing the validated scenario with its points."""

from __future__ import annotations

import json
from pathlib import Path

import shapely
from shapely.geometry import LineString

from game import load_rules_data, write_atomic
from game.editor.stats import map_statistics


def feature(terrain: str, geom, **props) -> dict:
    """A scenario's terrain feature (GeoJSON) of ``terrain`` kind from ``geom``, a Shapely polygon
    (written counter-clockwise) or line, its corners to 0.001"; ``props`` are further properties
    (a hill's level, a name)."""
    if isinstance(geom, LineString):
        coords = [[round(x, 3), round(y, 3)] for x, y in geom.coords]
        g = {"type": "LineString", "coordinates": coords}
    else:
        ring = shapely.geometry.polygon.orient(geom, 1.0).exterior.coords
        g = {"type": "Polygon", "coordinates": [[[round(x, 3), round(y, 3)] for x, y in ring]]}
    return {"type": "Feature", "properties": {"terrain": terrain, **props}, "geometry": g}


def edge_force(side: str, rows, x: float, facing: float, depth: float) -> list[dict]:
    """A side's stands waiting off the table at x (inches), spread about the middle of a
    ``depth``-inch edge at most 1.5" apart, facing ``facing`` degrees. ``rows``: (unit, how
    many, carried unit or None, battle group); a rider shares its carrier's point; the first
    stand is the GHQ."""
    stands: list[dict] = []
    n = sum(k for _, k, _, _ in rows)
    step = min(1.5, (depth - 1) / n)
    y = depth / 2 - step * (n - 1) / 2
    for unit, k, rider, group in rows:
        for _ in range(k):
            sid = f"{side}{len(stands) + 1}"
            base = {"side": side, "x": x, "y": round(y, 3), "facing_deg": facing}
            base.update(group=group, on_table=False)
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


def write_scenario(out: Path, scenario: dict, root: Path) -> None:
    """Write ``scenario`` (already validated) to ``out`` atomically, one space of indent, and
    print each side's points and their ratio. Raises OSError when it cannot be written."""
    write_atomic(out, json.dumps(scenario, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {out.relative_to(root)}")
    stats = map_statistics(scenario, load_rules_data())
    for f in stats.forces:
        print(f"points {f.side_id}: {f.points:g} ({f.stands} stands, cohesion {f.cohesion:g})")
    print(f"ratio: {stats.points_ratio:.4f}")
