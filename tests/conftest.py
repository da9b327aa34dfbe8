"""Shared fixtures: small tables built from a few features, and stand poses."""

from __future__ import annotations

import os

import pytest
from shapely.geometry import LineString, Polygon, box

from game.rules.charts.data import load_rules_data
from game.rules.table.geometry import StandPose, TerrainFeature
from game.rules.table.table import Table

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


@pytest.fixture(autouse=True)
def _no_user_data_folder(tmp_path_factory, monkeypatch):
    """No test writes in the user's own data folder: a test that runs a command without the
    ``data_dir`` fixture (``play --load`` of a long journal did) still gets a folder of its
    own. Found when a player's Resume opened a test's 30,000-action autosave (#43)."""
    monkeypatch.setenv("HULLDOWN_DATA_DIR", str(tmp_path_factory.mktemp("user-data")))


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """A temporary user data folder (saves, logs, the editor's autosave)."""
    monkeypatch.setenv("HULLDOWN_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture
def app():
    """The window, 1280x800, on the dummy video driver; closed after the test."""
    import pygame

    from game.ui.app import App

    a = App(size=(1280, 800))
    yield a
    pygame.quit()


# --- battles with fixed dice ------------------------------------------------------------------


def scenario_dict(
    stands,
    terrain=(),
    cohesion=(15, 15),
    width=48,
    depth=24,
    turns=3,
    generation=(3, 3),
    command=(0, 0),
    entry=("left", "right"),
    sighting=30,
    ruleset="modern",
):
    """A small Modern scenario: ``stands`` are (id, side, unit, x, y, facing[, extra dict])."""
    feats = []
    for kind, geom, *level in terrain:
        if kind in ("good_road", "poor_road", "track"):
            g = {"type": "LineString", "coordinates": [list(p) for p in geom]}
        else:
            x0, y0, x1, y1 = geom
            g = {
                "type": "Polygon",
                "coordinates": [[[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]],
            }
        props = {"terrain": kind}
        if level:
            props["level"] = level[0]
        feats.append({"type": "Feature", "properties": props, "geometry": g})
    specs = []
    for sid, side, unit, x, y, facing, *extra in stands:
        d = {
            "id": sid,
            "side": side,
            "unit": unit,
            "x": x,
            "y": y,
            "facing_deg": facing,
            "group": "1",
        }
        if extra:
            d.update(extra[0])
        specs.append(d)
    for side in ("A", "B"):
        if not any(s.get("ghq") for s in specs if s["side"] == side):
            next(s for s in specs if s["side"] == side)["ghq"] = True
    return {
        "format": "hulldown-scenario/1",
        "title": "test",
        "ruleset": ruleset,
        "table": {"width": width, "depth": depth},
        "max_sighting_in": sighting,
        "turns": turns,
        "terrain": {"type": "FeatureCollection", "features": feats},
        "sides": [
            {
                "id": "A",
                "name": "Blue",
                "cohesion": cohesion[0],
                "generation": generation[0],
                "command_value": command[0],
                "entry_edge": entry[0],
            },
            {
                "id": "B",
                "name": "Orange",
                "cohesion": cohesion[1],
                "generation": generation[1],
                "command_value": command[1],
                "entry_edge": entry[1],
            },
        ],
        "stands": specs,
    }


def battle(stands, dice, terrain=(), auto_pass=False, **kw):
    """A battle past set-up and initiative (A wins it: A rolls 6+6, B 1+1), at the 1st fire
    phase with A to choose who goes first. ``dice`` follow the initiative dice.

    The rules tables that use it drive every phase by hand, each pass and choice of who acts
    first included, so it plays the sequence without the engine's automatic passes (as a save
    written before #43 still does); ``auto_pass=True`` gives a new battle's sequence, which
    tests/rules/test_automatic_passes.py tables."""
    from game.rules.battle import Battle
    from game.rules.dice import FixedDice
    from game.rules.files.scenario import parse_scenario

    sc = parse_scenario(scenario_dict(stands, terrain, **kw), "test.json")
    b = Battle(sc, 0, dice=FixedDice([6, 6, 1, 1, *dice]), auto_pass=auto_pass)
    from game.rules.actions import Pass

    b.apply(Pass("A"))
    b.apply(Pass("B"))
    assert b.state.phase == "fire1" and b.state.initiative == "A"
    return b


def pass_phase(b, first="A"):
    """Let a phase with a choice of who acts first go by: A (with the initiative) lets
    ``first`` act first, and both sides pass."""
    from game.rules.actions import ChooseFirst, Pass

    b.apply(ChooseFirst("A", first))
    b.apply(Pass(first))
    b.apply(Pass(b.other(first)))
