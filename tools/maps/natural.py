"""Natural outlines for the shipped maps' woods and hills: the generator's irregular, rounded
outline (:func:`game.editor.generate.natural_outline`) drawn about a given centre and sized to a
given area, from a fixed seed, so that a maker that swaps its older octagons for these writes the
same map on every run and changes line of sight and balance little.

Units: inches, square inches. No pygame.
"""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

from shapely import affinity
from shapely.geometry import Polygon

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from game.editor.generate import natural_outline  # noqa: E402


def natural_lot(seed: int, cx: float, cy: float, area: float) -> Polygon:
    """A natural outline about (cx, cy) inches with ``area`` square inches, drawn from
    ``random.Random(seed)``: the generator's outline within a circle of the radius whose
    circle has that area, then scaled about the centre to the area exactly (to 3 decimals of
    its corners). Star-shaped about the centre, so always a valid polygon. Raises ValueError
    for an area not above zero."""
    if area <= 0:
        raise ValueError(f"a lot's area must be above zero, not {area!r}")
    g = natural_outline(random.Random(seed), cx, cy, math.sqrt(area / math.pi))
    k = math.sqrt(area / g.area)
    g = affinity.scale(g, k, k, origin=(cx, cy))
    return Polygon([(round(x, 3), round(y, 3)) for x, y in g.exterior.coords])


def ring(g: Polygon) -> list[list[float]]:
    """The closed exterior ring of ``g`` as GeoJSON coordinates (inches, 3 decimals)."""
    return [[round(x, 3), round(y, 3)] for x, y in g.exterior.coords]
