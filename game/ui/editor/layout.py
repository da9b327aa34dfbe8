"""The map editor's layout, keys and small shared helpers (sizes in pixels)."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
from shapely.geometry import Point

from game.saves import data_dir
from game.ui.editor.modes import (
    HillMode,
    LotMode,
    MeasureMode,
    PolygonMode,
    RectMode,
    RoadMode,
    SelectMode,
    StandMode,
)

TOP_H = 44
TOOLS_W = 176
PANEL_W = 350
STATUS_H = 46  # two lines of hint
BAR = (58, 72, 56)
PANEL_BG = (226, 222, 210)
PANELS = ("Item", "Problems", "History", "Map", "Forces", "Scenario")
TOOLS = [
    ("Select (V)", pygame.K_v, SelectMode),
    ("Polygon (P)", pygame.K_p, PolygonMode),
    ("Rectangle (R)", pygame.K_r, RectMode),
    ("Round lot (O)", pygame.K_o, LotMode),
    ("Road (L)", pygame.K_l, RoadMode),
    ("Hill (H)", pygame.K_h, HillMode),
    ("Stand (S)", pygame.K_s, StandMode),
    ("Measure (M)", pygame.K_m, MeasureMode),
]
HELP_TEXT = [
    "Tools: V select, P polygon, R rectangle, O round lot, L road, H hill, S stand, M measure",
    "Drawing: click corners; Backspace removes the last; Enter or a click on the first closes",
    'G: snap to the grid on/off (0.5", or typed beside Grid; Ctrl places a point freely); snap to',
    "   other features' corners and edges within 8 px. Wheel: zoom; right or middle drag: pan",
    "Select: click, Shift+click, box; drag to move; yellow handles move vertices; double-click",
    "   an edge adds a vertex; Del deletes; Q/E turn 15 degrees; [ ] scale; Ctrl+D duplicate",
    'Ctrl+A select all, Ctrl+C copy, Ctrl+V paste; arrows nudge the selection 0.1" (Shift: 0.5")',
    "   (nothing selected: arrows pan); Enter or Esc leaves a text field",
    "Ctrl+Z undo, Ctrl+Y redo (or click the History panel); Ctrl+S save; Ctrl+Shift+S save as",
    "Ctrl+O open, Ctrl+N new table; F5 test play (hotseat); F: fit the table; F1: this help",
]
AUTOSAVE = "editor-autosave.json"


def autosave_file() -> Path:
    """The editing session's autosave, rewritten after every change (offered back after a
    crash or a close)."""
    return data_dir() / AUTOSAVE


def recent_list_file() -> Path:
    """The editor's list of recently opened or saved scenario files."""
    return data_dir() / "editor-recent.json"


def _kind_names(data, geometry: str) -> list[str]:
    return [k for k, t in data.terrain.items() if t.geometry == geometry and k != "clear"]


def menu_name(kind: str) -> str:
    """A terrain type as a drop-down entry, short enough for the tool column's menus
    ("medium_improved_position": "medium impr. pos.")."""
    return _pretty(kind).replace("improved position", "impr. pos.")


def menu_kind(text: str) -> str:
    """The terrain type a drop-down entry of :func:`menu_name` names."""
    return text.replace("impr. pos.", "improved position").replace(" ", "_")


def _pretty(kind) -> str:
    """A terrain type in words ("light_buildings": "light buildings"); any value is shown."""
    return str(kind).replace("_", " ")


_EMPTY = {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": []}}


def point(x: float, y: float):
    """A Shapely point (inches)."""
    return Point(x, y)


def mark_of(feature: dict) -> str:
    """What a feature is known by when locked or hidden: its JSON text (the same feature
    after an undo is the same again)."""
    return json.dumps(feature, sort_keys=True, default=str)
