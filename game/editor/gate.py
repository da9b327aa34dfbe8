"""The geometry gate of the editor's typed edits: what the Polygon tool refuses while
drawing and what ``hulldown check`` refuses in a file, asked before a typed corner is moved."""

from __future__ import annotations

import shapely

from game import GeometryProblem, read_geometry
from game.editor import edits


def shape_problem(feature: dict, width: float, depth: float) -> str | None:
    """Why a feature's geometry could not be played on a ``width`` x ``depth`` table
    (inches), in a player's words, or None: the Polygon tool's own test of each ring
    (:func:`polygon_problem`, "two edges cross at (45.1, 8.5)"), the scenario check's
    geometry gate (``game.read_geometry``: shapes.py) and the table's bounds, as ``hulldown
    check`` judges them (the vertex field took what the Polygon tool refuses)."""
    geometry = feature.get("geometry")
    gtype = geometry.get("type") if isinstance(geometry, dict) else None
    parts = geometry.get("coordinates") if gtype in edits.AREA_TYPES else None
    polys = [parts] if gtype == "Polygon" else (parts if gtype == "MultiPolygon" else [])
    for poly in polys if isinstance(polys, list) else []:
        for ring in poly if isinstance(poly, list) else []:
            if isinstance(ring, list) and len(ring) >= 4:
                why = edits.polygon_problem([tuple(p[:2]) for p in ring[:-1]])
                if why:
                    return why
    try:
        shape = read_geometry(geometry)
    except GeometryProblem as err:
        return err.what
    if not shapely.box(0, 0, width, depth).buffer(1e-9).covers(shape):
        x0, y0, x1, y1 = shape.bounds
        return (
            f'it would reach beyond the {width:g}"x{depth:g}" table (it spans {x0:g}, {y0:g} '
            f"to {x1:g}, {y1:g})"
        )
    return None
