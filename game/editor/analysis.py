"""Is this table fair? The map editor's statistics and balance views.

- :func:`map_statistics`: terrain shares of the table and of each half, road lengths, town
  area and the two forces' points as the seed scenario sheets count them, from a scenario
  dict that may still be invalid.
- :func:`sight_coverage`: which ground a side can see from its deployment zone, with the
  engine's own sight rules (:meth:`game.rules.table.geometry.Table.sight_matrix`).
- :func:`movement_cost_field`: the movement points a stand needs to reach each point of the
  table from its side's entry edge or deployment zone, each step charged by the engine
  (:meth:`game.rules.table.geometry.Table.step_costs`).

Nothing here re-implements a rule: sight and movement costs come from
``game/rules/table/geometry.py``. Units: inches for lengths and coordinates (origin bottom-left, x
right, y up), square inches for areas, movement points (MP) for costs. Grids are numpy arrays
of shape (ny, nx): row j holds the cells whose centre has y = ``ys[j]``, column i those with
x = ``xs[i]``.

The views are meant to run in a background thread of the editor: each builds its own copy of
the table, because GEOS prepared geometries are not safe to share between threads
(libgeos/geos#825; two threads asking sight of one :class:`Table` crash the interpreter), and
each takes a ``cancel`` callable, polled between pieces of work, that stops it by raising
:class:`Cancelled`.

The code lives in four modules, gathered here so callers import one name space:
:mod:`game.editor.regions` (halves, zones, cells, :class:`Cancelled`), :mod:`game.editor.stats`,
:mod:`game.editor.coverage` and :mod:`game.editor.movecost`.
"""

from __future__ import annotations

from game.editor.coverage import (
    MAX_OBSERVERS,
    OBSERVER_SPACING_IN,
    CoverageGrid,
    dead_ground,
    sight_coverage,
    zone_observers,
)
from game.editor.movecost import CostGrid, movement_cost_field
from game.editor.regions import (
    MAX_CELLS,
    ZONE_DEPTH_IN,
    Box,
    CancelCheck,
    Cancelled,
    cell_centres,
    deployment_zone,
    far_half,
    table_halves,
)
from game.editor.stats import ForcePoints, MapStats, SkippedFeature, TerrainShares, map_statistics

__all__ = [
    "MAX_CELLS",
    "MAX_OBSERVERS",
    "OBSERVER_SPACING_IN",
    "ZONE_DEPTH_IN",
    "Box",
    "CancelCheck",
    "Cancelled",
    "CostGrid",
    "CoverageGrid",
    "ForcePoints",
    "MapStats",
    "SkippedFeature",
    "TerrainShares",
    "cell_centres",
    "dead_ground",
    "deployment_zone",
    "far_half",
    "map_statistics",
    "movement_cost_field",
    "sight_coverage",
    "table_halves",
    "zone_observers",
]
