"""Shared fixtures: small tables built from a few features, and stand poses."""

from __future__ import annotations

import os

import pytest
from shapely.geometry import LineString, Polygon, box

from game.rules.data import load_rules_data
from game.rules.geometry import StandPose, Table, TerrainFeature

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

DATA = load_rules_data()
MODERN = DATA.rulesets["modern"]
WWII = DATA.rulesets["wwii"]


def make_table(*features, width: float = 60, depth: float = 36) -> Table:
    """A table from (kind, geometry[, level]) tuples; coordinates in inches."""
    feats = []
    for i, f in enumerate(features):
        kind, geom, *level = f
        if isinstance(geom, tuple):
            geom = box(*geom)
        elif isinstance(geom, list):
            geom = (
                LineString(geom) if kind in ("good_road", "poor_road", "track") else Polygon(geom)
            )
        feats.append(TerrainFeature(kind, geom, level[0] if level else 0, i))
    return Table(width, depth, feats, DATA.terrain)


def pose(
    id: str, x: float, y: float, facing: float = 0.0, side: str | None = None, **kw
) -> StandPose:
    """A stand pose; the side defaults to the id's first letter."""
    return StandPose(id, side or id[0], x, y, facing, **kw)


@pytest.fixture
def data():
    return DATA
