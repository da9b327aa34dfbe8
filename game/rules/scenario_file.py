"""The shape of a scenario file (``hulldown-scenario/1``, docs/formats.md) as pydantic
models: the first of the scenario checks (``game.rules.scenario`` runs the rules and geometry
checks on what these accept). Units: inches, degrees."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_FEATURES = 2000
"""Terrain features a scenario may hold (the seed maps have 6 to 20; 200,000 took 147 s)."""
MAX_VERTICES = 100_000
"""Positions in all the terrain's coordinates together (checked in scenario.py)."""
MAX_STANDS = 400
"""Stands a scenario may hold (a large club game has about 100; 10,000 took 5 GB)."""
MAX_NAME_CHARS = 200
"""Characters in a title, a side's or feature's name, a group."""
MAX_DESCRIPTION_CHARS = 20_000
"""Characters in a description (a 50 MB one made every autosave 52 MB)."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class TableSize(_Strict):
    """Table size in inches: ``width`` along x, ``depth`` along y."""

    width: float = Field(gt=0, le=1000)
    depth: float = Field(gt=0, le=1000)


class Victory(_Strict):
    """Victory conditions. ``destroy_percent`` (the seed scenario sheets): a side that has
    destroyed at least ``destroy_at_least_pct`` of the enemy's stands while losing at most
    ``lose_at_most_pct`` of its own wins."""

    type: Literal["destroy_percent"] = "destroy_percent"
    destroy_at_least_pct: float = Field(default=51, gt=0, le=100)
    lose_at_most_pct: float = Field(default=50, ge=0, le=100)


class GeoGeometry(BaseModel):
    """A GeoJSON geometry (checked further by Shapely)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: Literal["Polygon", "MultiPolygon", "LineString", "MultiLineString"]
    coordinates: list[Any]


class FeatureProps(_Strict):
    """Properties of a terrain feature: its chart type (or ``hill``), a hill's ``level``, an
    optional display ``name``."""

    terrain: str
    level: int | None = Field(default=None, ge=1, le=20)
    name: str | None = Field(default=None, max_length=MAX_NAME_CHARS)


class Feature(BaseModel):
    """A GeoJSON Feature of the terrain collection."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: Literal["Feature"]
    properties: FeatureProps
    geometry: GeoGeometry


class FeatureCollection(BaseModel):
    """The terrain: a GeoJSON FeatureCollection in table inches."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: Literal["FeatureCollection"]
    features: list[Feature] = Field(max_length=MAX_FEATURES)


class Side(_Strict):
    """A side: ``id`` (as stands name it), display ``name``, force ``cohesion`` (1..20),
    ``generation`` (1..4 or null), the GHQ's ``command_value``, and the ``entry_edge`` its
    entering stands come on from (or null)."""

    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_-]{0,15}$")
    name: str = Field(min_length=1, max_length=MAX_NAME_CHARS)
    cohesion: int = Field(ge=1, le=20)
    generation: int | None = Field(default=None, ge=1, le=4)
    command_value: int = Field(default=0, ge=-5, le=5)
    entry_edge: Literal["left", "right", "top", "bottom"] | None = None


class StandSpec(_Strict):
    """A stand at the start: ``id``, ``side``, ``unit`` (a data-table name), centre ``x``,
    ``y`` (inches), ``facing_deg``, battle ``group``, ``hq``/``ghq``, and ``on_table`` (false:
    it enters on turn 1 from its side's edge; x, y are then its default entry point)."""

    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]{0,15}$")
    side: str
    unit: str
    x: float
    y: float
    facing_deg: float = Field(ge=-360, le=360)
    group: str = Field(min_length=1, max_length=MAX_NAME_CHARS)
    hq: bool = False
    ghq: bool = False
    on_table: bool = True


class ScenarioFile(_Strict):
    """The whole scenario file, as written."""

    format: Literal["hulldown-scenario/1"]
    title: str = Field(min_length=1, max_length=MAX_NAME_CHARS)
    description: str = Field(default="", max_length=MAX_DESCRIPTION_CHARS)
    ruleset: Literal["modern", "wwii"]
    table: TableSize
    max_sighting_in: float = Field(gt=0, le=1000)
    turns: int = Field(ge=1, le=100)
    victory: Victory = Victory()
    terrain: FeatureCollection
    sides: list[Side] = Field(min_length=2, max_length=2)
    stands: list[StandSpec] = Field(min_length=1, max_length=MAX_STANDS)
