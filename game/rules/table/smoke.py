"""Impact markers and smoke areas on the table (rules-decisions "Artillery, smoke and air
strikes"): each is a 2" circle; the table as the rules see it with smoke is the scenario's
terrain plus a smoke area (the chart's smoke row) at each smoke marker. Below the battle
context, which builds that table, and the artillery, which lays the markers. Units: inches.
"""

from __future__ import annotations

import shapely

from game.rules.charts.fire_data import IMPACT_DIAMETER_IN
from game.rules.table.geometry import OVERLAP_SQ_IN, TerrainFeature
from game.rules.table.table import Table

MARKER_RADIUS_IN = IMPACT_DIAMETER_IN / 2


def marker_circle(x: float, y: float) -> shapely.Geometry:
    """An impact marker or smoke area centred at (x, y): a 2" circle (64-sided polygon)."""
    return shapely.Point(x, y).buffer(MARKER_RADIUS_IN, quad_segs=16)


def on_marker(footprints, circles):
    """Whether each footprint overlaps its marker circle (element-wise; Shapely geometries
    or arrays of them) by a positive area, over ``OVERLAP_SQ_IN`` square inches, as stands
    overlap: touching the rim is not being under a marker nor entering it (rules-decisions
    "Artillery, smoke and air strikes"). Returns a bool or a bool array."""
    return shapely.area(shapely.intersection(footprints, circles)) > OVERLAP_SQ_IN


def smoke_table(base, centres) -> Table:
    """``base`` (a :class:`~game.rules.table.table.Table`) with a 2" smoke area at each of
    ``centres`` (inches) added to its terrain."""
    extra = [TerrainFeature("smoke", marker_circle(x, y)) for x, y in centres]
    return Table(base.width, base.depth, [*base.features, *extra], base.terrain_types, base.ground)
