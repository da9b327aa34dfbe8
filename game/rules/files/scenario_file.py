"""The shape of a scenario file (``hulldown-scenario/1``, docs/formats.md) as pydantic
models: the first of the scenario checks (``game.rules.files.scenario`` runs the rules and geometry
checks on what these accept). Units: inches, degrees."""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Any, Literal, TypeGuard

from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from pydantic_core import PydanticCustomError

from game.rules.rulesets import RULESET_IDS

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
MAX_WORD_CHARS = 100
"""Characters of a description without a space between them (a long web address fits)."""
MIN_TABLE_IN = 6.0
"""The smallest table, each way, in inches (the editor's custom size has the same floor)."""
MIN_SIGHTING_IN = 1.0
"""The shortest sighting distance, in inches (5e-324 was accepted and saw nothing)."""
GROUNDS = ("grass", "sand")
"""How a table's open ground may be painted (``table.ground``): no rule reads it."""


def printable(text: str, allowed: str = "") -> str:
    """``text`` unchanged when it has no control character (Unicode category Cc) other than
    those in ``allowed``: a NUL in a title passed ``check`` and crashed the font rendering of
    every screen. (A lone surrogate never gets here: pydantic refuses it as not Unicode.)

    Raises
    ------
    PydanticCustomError
        ``control_character``, naming the first such character and where it is.
    """
    for at, ch in enumerate(text):
        if ch not in allowed and unicodedata.category(ch) == "Cc":
            raise PydanticCustomError(
                "control_character",
                "a control character (U+{code}) at character {at}: names are printable text",
                {"code": f"{ord(ch):04X}", "at": at},
            )
    return text


Name = Annotated[str, AfterValidator(printable)]
"""A title, a name or a group: text without control characters."""

_LONG_WORD = re.compile(rf"\S{{{MAX_WORD_CHARS + 1},}}")


def wrappable(text: str) -> str:
    """``text`` unchanged when every run of it without white space is at most
    MAX_WORD_CHARS long: the screens wrap text at spaces, and a 20,000-character description
    without one took seconds to lay out on the set-up panel and the briefing.

    Raises
    ------
    PydanticCustomError
        ``word_too_long``, naming where the first such run begins and its length.
    """
    long = _LONG_WORD.search(text)
    if long:
        raise PydanticCustomError(
            "word_too_long",
            "{n} characters without a space at character {at} (at most {most}): "
            "break them with spaces",
            {"n": len(long.group()), "at": long.start(), "most": MAX_WORD_CHARS},
        )
    return text


Text = Annotated[str, AfterValidator(lambda t: printable(t, "\n\t")), AfterValidator(wrappable)]
"""Free text (a description): no control characters but newlines and tabs, no word longer
than MAX_WORD_CHARS."""


RulesetId = Literal[RULESET_IDS]  # type: ignore[valid-type]
"""The rulesets a scenario may name (rules-decisions: the ruleset ids), as the rulesets'
registry lists them (``game.rules.rulesets.MODULES``)."""


class _Strict(BaseModel):
    # strict: true is not a number, "5" is not a number, 1 is not true
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, strict=True)


class TableSize(_Strict):
    """Table size in inches: ``width`` along x, ``depth`` along y; ``ground``, how its open
    ground is painted (one of :data:`GROUNDS`: green flock, or sand for a desert)."""

    width: float = Field(ge=MIN_TABLE_IN, le=1000)
    depth: float = Field(ge=MIN_TABLE_IN, le=1000)
    ground: Literal["grass", "sand"] = "grass"


class Victory(_Strict):
    """Victory conditions. ``destroy_percent`` (the seed scenario sheets): a side that has
    destroyed at least ``destroy_at_least_pct`` of the enemy's stands while losing at most
    ``lose_at_most_pct`` of its own wins."""

    type: Literal["destroy_percent"] = "destroy_percent"
    destroy_at_least_pct: float = Field(default=51, ge=1, le=100)
    lose_at_most_pct: float = Field(default=50, ge=0, le=100)


class GeoGeometry(BaseModel):
    """A GeoJSON geometry (checked further by Shapely)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    type: Literal["Polygon", "MultiPolygon", "LineString", "MultiLineString"]
    coordinates: list[Any]


class FeatureProps(_Strict):
    """Properties of a terrain feature: its chart type (or ``hill``), a hill's ``level``, an
    optional display ``name``."""

    terrain: str
    level: int | None = Field(default=None, ge=1, le=20)
    name: Name | None = Field(default=None, max_length=MAX_NAME_CHARS)


class Feature(BaseModel):
    """A GeoJSON Feature of the terrain collection."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    type: Literal["Feature"]
    properties: FeatureProps
    geometry: GeoGeometry


class FeatureCollection(BaseModel):
    """The terrain: a GeoJSON FeatureCollection in table inches."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    type: Literal["FeatureCollection"]
    features: list[Feature] = Field(max_length=MAX_FEATURES)


class AirSupport(_Strict):
    """Air strikes a side may call (full games; rules-decisions "Artillery, smoke and air
    strikes"): ``sorties`` of the aircraft row ``aircraft`` (fire_support.toml), one per
    plotted strike. In ``wwii-47`` giving any turns the optional air strikes on (004)."""

    aircraft: Name = Field(min_length=1, max_length=MAX_NAME_CHARS)
    sorties: int = Field(ge=1, le=20)


class Side(_Strict):
    """A side: ``id`` (as stands name it), display ``name``, force ``cohesion`` (1..20),
    ``generation`` (1..4 or null), the GHQ's ``command_value``, and the ``entry_edge`` its
    entering stands come on from (or null)."""

    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_-]{0,15}$")
    name: Name = Field(min_length=1, max_length=MAX_NAME_CHARS)
    cohesion: int = Field(ge=1, le=20)
    generation: int | None = Field(default=None, ge=1, le=4)
    command_value: int = Field(default=0, ge=-5, le=5)
    entry_edge: Literal["left", "right", "top", "bottom"] | None = None
    air_support: list[AirSupport] = Field(default_factory=list, max_length=10)


class StandSpec(_Strict):
    """A stand at the start: ``id``, ``side``, ``unit`` (a data-table name), centre ``x``,
    ``y`` (inches), ``facing_deg``, battle ``group``, ``hq``/``ghq``, and ``on_table`` (false:
    it enters on turn 1 from its side's edge; x, y are then its default entry point).
    ``carried_by`` (full games): the id of the friendly carrier it starts aboard; it is then
    where its carrier is (rules-decisions "Transport")."""

    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]{0,15}$")
    side: str
    unit: str
    x: float
    y: float
    facing_deg: float = Field(ge=-360, le=360)
    group: Name = Field(min_length=1, max_length=MAX_NAME_CHARS)
    hq: bool = False
    ghq: bool = False
    on_table: bool = True
    carried_by: str | None = None


class ScenarioFile(_Strict):
    """The whole scenario file, as written."""

    format: Literal["hulldown-scenario/1"]
    title: Name = Field(min_length=1, max_length=MAX_NAME_CHARS)
    description: Text = Field(default="", max_length=MAX_DESCRIPTION_CHARS)
    ruleset: RulesetId
    table: TableSize
    max_sighting_in: float = Field(ge=MIN_SIGHTING_IN, le=1000)
    turns: int = Field(ge=1, le=100)
    victory: Victory = Victory()
    terrain: FeatureCollection
    sides: list[Side] = Field(min_length=2, max_length=2)
    stands: list[StandSpec] = Field(min_length=1, max_length=MAX_STANDS)


def over_cap(entries: Any, cap: int) -> TypeGuard[list]:
    """Whether ``entries`` is a list longer than ``cap``."""
    return isinstance(entries, list) and len(entries) > cap


def capped_lists(raw: dict) -> tuple[dict, list[str]]:
    """``raw`` with its terrain features and its stands cut to their caps (MAX_FEATURES,
    MAX_STANDS) for the shape check, and a line for each list that was cut: pydantic
    validates every entry before it counts them (100,000 stands took 2.3 s and 340 MB)."""
    over: list[str] = []
    terrain = raw.get("terrain")
    features = terrain.get("features") if isinstance(terrain, dict) else None
    if isinstance(terrain, dict) and over_cap(features, MAX_FEATURES):
        raw = {**raw, "terrain": {**terrain, "features": features[:MAX_FEATURES]}}
        over.append(
            f"$.terrain.features: List should have at most {MAX_FEATURES} items, "
            f"not {len(features)}"
        )
    stands = raw.get("stands")
    if over_cap(stands, MAX_STANDS):
        raw = {**raw, "stands": stands[:MAX_STANDS]}
        over.append(f"$.stands: List should have at most {MAX_STANDS} items, not {len(stands)}")
    return raw, over
