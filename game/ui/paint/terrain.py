"""The painted table's terrain, drawn with pygame from the decoration of
:mod:`game.ui.paint.decor` (seeded per feature): flocked ground, hills as stepped layers with a
cut edge, a shadow and a lighter hilltop (crest) inside a dashed crest line, woods as tree
crowns on a dark floor inside a visible edge, groves as scattered trees, buildings as roofs
with ridges and wall shadows (light: red pitched roofs among gardens; heavy: grey slate and
flat concrete on paving), roads with verges, tracks as worn ruts, and every other kind of the
terrain chart with a look of its own. Only the features reaching into the surface's clip
rectangle are drawn, so a panned layer repaints just the strips it uncovers.

A table's ground (``Table.ground``, the scenario's ``table.ground``) picks the colours
(:data:`LOOKS`): green flock ("grass", the default) or sand ("sand": a desert table, with sandy
hills, dry scrub on rough ground, palms in the groves and pale flat-roofed villages)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pygame

from game.ui.colours import TERRAIN_COLOURS
from game.ui.paint import ground
from game.ui.paint.decor import Decor, table_decor

GROUND = (116, 136, 76)
EDGE = {  # the visible edge of an area the rules draw a line at (sight, cover)
    "woods": (38, 52, 28),
    "grove": (58, 78, 40),
    "light_buildings": (86, 70, 52),
    "heavy_buildings": (60, 58, 58),
}
FLOOR = {
    "woods": (58, 80, 42),
    "grove": (100, 122, 66),
    "light_buildings": (128, 138, 86),
    "heavy_buildings": (150, 146, 136),
    "marsh": (92, 124, 100),
    "rough_1": (124, 132, 82),
    "rough_2": (148, 134, 96),
    "rough_3": (128, 112, 84),
    "light_improved_position": (138, 124, 86),
    "medium_improved_position": (132, 116, 80),
    "heavy_improved_position": (126, 110, 78),
    "barbed_wire": (124, 132, 80),
    "minefield": (150, 122, 88),
    "impassable": (64, 104, 142),
    "clear": (172, 164, 96),
    "smoke": GROUND,
}
TREES = [(52, 94, 42), (62, 106, 46), (46, 84, 38), (72, 112, 50)]
GROVE_TREES = [(82, 124, 56), (94, 134, 60), (76, 116, 52), (104, 140, 66)]
TILES = [(168, 84, 60), (150, 72, 52), (182, 104, 70)]  # light buildings' roofs
SLATES = [(104, 106, 114), (118, 118, 122), (96, 92, 90)]  # heavy buildings' roofs
ROADS = {  # verge, surface (colour, width in inches)
    "good_road": ((158, 152, 112), 0.62, (86, 86, 84), 0.36),
    "poor_road": ((146, 140, 100), 0.48, (156, 128, 92), 0.28),
    "track": ((134, 140, 88), 0.0, (156, 140, 100), 0.36),
}
HILL_SLOPES = [(132, 150, 84), (158, 166, 98), (182, 180, 114), (202, 192, 130)]
HILL_EDGE = (112, 92, 60)
CREST_LINE = (92, 76, 44)
TUFT = (84, 104, 56)  # rough ground's tufts of grass


@dataclass(frozen=True)
class Look:
    """The colours of one kind of ground (RGB): the open ground, each area kind's floor where
    it differs from :data:`FLOOR`, the hills' slopes by level, their cut edge and crest line,
    the light buildings' roofs (``flat_roofs``: every house's roof flat), the groves' crowns
    and rough ground's tufts."""

    ground: tuple = GROUND
    floor: dict = field(default_factory=dict)
    hill_slopes: tuple = tuple(HILL_SLOPES)
    hill_edge: tuple = HILL_EDGE
    crest_line: tuple = CREST_LINE
    roofs: tuple = tuple(TILES)
    flat_roofs: bool = False
    grove_trees: tuple = tuple(GROVE_TREES)
    tuft: tuple = TUFT

    def floor_of(self, kind: str):
        """The floor colour of area ``kind``, or None when it has no painted look of its own."""
        return self.floor.get(kind, FLOOR.get(kind))


LOOKS = {
    "grass": Look(),
    "sand": Look(
        ground=(206, 184, 136),
        floor={
            "grove": (186, 170, 112),
            "light_buildings": (200, 182, 142),
            "rough_1": (192, 168, 120),
            "rough_2": (172, 146, 104),
            "rough_3": (150, 124, 88),
            "clear": (214, 194, 146),
        },
        hill_slopes=((188, 160, 110), (200, 174, 124), (212, 188, 138), (222, 200, 152)),
        hill_edge=(130, 100, 64),
        crest_line=(112, 86, 52),
        roofs=((222, 210, 184), (206, 190, 160), (232, 222, 200)),
        flat_roofs=True,
        grove_trees=((66, 108, 48), (80, 120, 54), (58, 98, 44), (92, 128, 58)),
        tuft=(126, 116, 68),
    ),
}
"""Each ground a scenario may give its table (``table.ground``)."""


def look_of(table) -> Look:
    """The :class:`Look` of ``table``'s ground (its ``ground``, "grass" when it has none)."""
    return LOOKS.get(getattr(table, "ground", "grass"), LOOKS["grass"])


def _px(view, xy) -> list[tuple[float, float]]:
    return [view.to_px(x, y) for x, y in xy]


def _ring_px(view, ring: np.ndarray, dx: float = 0.0, dy: float = 0.0) -> list:
    ox, oy = view.origin
    s = view.scale
    return np.column_stack(
        (ox + dx + ring[:, 0] * s, oy + dy + (view.depth - ring[:, 1]) * s)
    ).tolist()


def _poly(
    surface, view, rings, colour, width: int = 0, dx: float = 0, dy: float = 0, hole=GROUND
) -> None:
    """Fill (or outline, ``width`` > 0) polygons given as ``rings`` (``Decor.rings_of``),
    moved by (dx, dy) pixels; holes are filled with ``hole`` (the ground's colour)."""
    for ext, holes in rings:
        if len(ext) >= 3:
            pygame.draw.polygon(surface, colour, _ring_px(view, ext, dx, dy), width)
        if not width:
            for ring in holes:
                pygame.draw.polygon(surface, hole, _ring_px(view, ring, dx, dy))


def _dashes(surface, view, dashes: np.ndarray, box, colour, width: int = 1) -> None:
    """Dashes (rows x0, y0, x1, y1 inches, ``Decor.dashes_of``) near ``box``."""
    if not len(dashes):
        return
    x0, y0, x1, y1 = box
    keep = dashes[
        (np.maximum(dashes[:, 0], dashes[:, 2]) >= x0 - 0.5)
        & (np.minimum(dashes[:, 0], dashes[:, 2]) <= x1 + 0.5)
        & (np.maximum(dashes[:, 1], dashes[:, 3]) >= y0 - 0.5)
        & (np.minimum(dashes[:, 1], dashes[:, 3]) <= y1 + 0.5)
    ]
    ox, oy, s, depth = view.origin[0], view.origin[1], view.scale, view.depth
    for ax, ay, bx, by in keep.tolist():
        pygame.draw.line(
            surface,
            colour,
            (ox + ax * s, oy + (depth - ay) * s),
            (ox + bx * s, oy + (depth - by) * s),
            width,
        )


def _near(items: np.ndarray, box, reach: float) -> np.ndarray:
    """The rows of ``items`` (x, y first, inches) within ``reach`` inches of ``box``."""
    if not len(items):
        return items
    x0, y0, x1, y1 = box
    x, y = items[:, 0], items[:, 1]
    return items[(x >= x0 - reach) & (x <= x1 + reach) & (y >= y0 - reach) & (y <= y1 + reach)]


def _to_px(view, items: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ox, oy = view.origin
    return ox + items[:, 0] * view.scale, oy + (view.depth - items[:, 1]) * view.scale


def _lighter(colour, k: int):
    return tuple(max(0, min(255, c + k)) for c in colour)


def _trees(surface, view, trees: np.ndarray, palette) -> None:
    """Tree crowns: a shadow to the lower right, the crown, a lit patch to the upper left."""
    if not len(trees):
        return
    xs, ys = _to_px(view, trees)
    rs = np.maximum(1.5, trees[:, 2] * view.scale)
    shades = trees[:, 3].astype(int)
    for x, y, r in zip(xs.tolist(), ys.tolist(), rs.tolist(), strict=True):
        pygame.draw.circle(surface, (30, 44, 24), (x + r * 0.3, y + r * 0.3), r)
    lit = [_lighter(c, 26) for c in palette]
    n = len(palette)
    for x, y, r, k in zip(xs.tolist(), ys.tolist(), rs.tolist(), shades.tolist(), strict=True):
        pygame.draw.circle(surface, palette[k % n], (x, y), r)
        if r >= 3:
            pygame.draw.circle(surface, lit[k % n], (x - r * 0.3, y - r * 0.3), r * 0.5)


def _box(x, y, hl, hw, a):
    ca, sa = math.cos(a), math.sin(a)
    return [
        (x + u * hl * ca - v * hw * sa, y + u * hl * sa + v * hw * ca)
        for u, v in ((-1, -1), (1, -1), (1, 1), (-1, 1))
    ]


def _houses(
    surface, view, houses: np.ndarray, heavy: bool, roofs=TILES, all_flat: bool = False
) -> None:
    """Roofs: a wall shadow to the lower right, then a pitched roof in two tones split by its
    ridge (light buildings, and a quarter of heavy ones) or a flat roof with a parapet and a
    plant box on it (heavy). ``roofs``: the light buildings' roof colours; ``all_flat``: every
    roof flat (a desert village)."""
    s = view.scale
    shadow = max(1.0, 0.14 * s)
    palette = SLATES if heavy else roofs
    for x, y, hl, hw, a, k, flat in houses:
        pts = _px(view, _box(x, y, hl, hw, a))
        pygame.draw.polygon(surface, (44, 46, 36), [(px + shadow, py + shadow) for px, py in pts])
        colour = palette[int(k) % len(palette)]
        if flat or all_flat:
            pygame.draw.polygon(surface, _lighter(colour, 10), pts)
            inner = _px(view, _box(x, y, hl - 0.07, hw - 0.07, a))
            if s >= 12:
                pygame.draw.polygon(surface, _lighter(colour, -14), inner, max(1, int(s / 24)))
                box = _px(
                    view,
                    _box(
                        x + hl * 0.3 * math.cos(a),
                        y + hl * 0.3 * math.sin(a),
                        hw * 0.3,
                        hw * 0.25,
                        a,
                    ),
                )
                pygame.draw.polygon(surface, _lighter(colour, 30), box)
            continue
        ca, sa = math.cos(a), math.sin(a)
        # the two halves of the roof either side of the ridge (along the long side)
        left = _px(view, _box(x - 0.5 * hw * sa, y + 0.5 * hw * ca, hl, hw / 2, a))
        right = _px(view, _box(x + 0.5 * hw * sa, y - 0.5 * hw * ca, hl, hw / 2, a))
        lit = 1 if (-sa + ca) > 0 else -1  # which half faces the light (upper left)
        pygame.draw.polygon(surface, _lighter(colour, 22 * lit), left)
        pygame.draw.polygon(surface, _lighter(colour, -22 * lit), right)
        ridge = _px(view, [(x - hl * ca, y - hl * sa), (x + hl * ca, y + hl * sa)])
        pygame.draw.line(surface, _lighter(colour, -50), ridge[0], ridge[1], max(1, int(s / 16)))
        pygame.draw.polygon(surface, _lighter(colour, -60), pts, 1)


def _lines(surface, view, lines, colour, width: int) -> None:
    for line in lines:
        if len(line) >= 2:
            pygame.draw.lines(surface, colour, False, _px(view, line), width)


def _marsh(surface, view, d: Decor, box) -> None:
    """A marsh's decoration: pools of open water (ellipses about 2.4 by 1.3 pool radii) and
    tufts of reeds, each item within its reach (inches) of the drawn box."""
    s, it = view.scale, d.items
    for x, y, r, _k in _near(it["pools"], box, 1.0):
        (px, py), rx = view.to_px(x, y), r * s
        rect = pygame.Rect(0, 0, max(3, 2.4 * rx), max(2, 1.3 * rx))
        rect.center = (int(px), int(py))
        pygame.draw.ellipse(surface, (120, 150, 132), rect.inflate(2, 2))
        pygame.draw.ellipse(surface, (78, 118, 140), rect)
    for x, y, r, _k in _near(it["reeds"], box, 0.5):
        px, py = view.to_px(x, y)
        h = max(2.0, r * s)
        for dx in (-0.35, 0.0, 0.35):
            pygame.draw.line(
                surface, (170, 160, 96), (px + dx * h, py), (px + dx * h * 1.6, py - h), 1
            )


def _rough(surface, view, d: Decor, box, tuft=TUFT) -> None:
    """Rough ground's decoration: tufts of grass (or dry scrub: ``tuft``'s colour), then
    stones with a shadow, each stone's shade by its kind (0 lightest)."""
    s, it = view.scale, d.items
    for x, y, r, _k in _near(it["tufts"], box, 0.5):
        px, py = view.to_px(x, y)
        pygame.draw.circle(surface, tuft, (px, py), max(1.0, r * s))
    for x, y, r, k in _near(it["stones"], box, 0.5):
        px, py = view.to_px(x, y)
        rr = max(1.2, r * s)
        pygame.draw.circle(surface, (70, 64, 54), (px + rr * 0.35, py + rr * 0.35), rr)
        pygame.draw.circle(surface, (166 - 8 * k, 160 - 8 * k, 148 - 6 * k), (px, py), rr)


def _foxholes(surface, view, d: Decor, box) -> None:
    """A light improved position's decoration: dug holes, each ringed by nine sandbags (a
    dug-in post, not a shell hole); radii in inches, drawn at least 2 pixels."""
    for x, y, r, _k in _near(d.items["holes"], box, 0.5):
        (px, py), rr = view.to_px(x, y), max(2.0, r * view.scale)
        pygame.draw.circle(surface, (52, 40, 28), (px, py), rr)
        bag = max(1.0, rr * 0.42)
        for k in range(9):
            a = k * math.tau / 9
            at = (px + math.cos(a) * rr * 1.2, py + math.sin(a) * rr * 1.2)
            pygame.draw.circle(surface, (200, 184, 136), at, bag)
            if bag >= 2:
                pygame.draw.circle(surface, (118, 102, 70), at, bag, 1)


def _trenches(surface, view, d: Decor, box) -> None:
    """A medium or heavy improved position's decoration: zigzag trenches (a 0.2-inch dark
    cut in a spoil bank) and, where the decor has them, bunkers with a firing slit."""
    s = view.scale
    w = max(2, int(0.2 * s))
    _lines(surface, view, d.lines["trench"], (186, 170, 126), w + max(2, int(0.12 * s)))
    _lines(surface, view, d.lines["trench"], (50, 38, 26), w)
    for x, y, r, _k in _near(d.items.get("bunkers", np.zeros((0, 4))), box, 1.0):
        pts = _px(view, _box(x, y, r, r * 0.8, 0.0))
        pygame.draw.polygon(surface, (60, 60, 58), [(a + 2, b + 2) for a, b in pts])
        pygame.draw.polygon(surface, (166, 164, 156), pts)
        pygame.draw.polygon(surface, (90, 90, 88), pts, 1)
        slit = _px(view, [(x - r * 0.6, y + r * 0.45), (x + r * 0.6, y + r * 0.45)])
        pygame.draw.line(surface, (20, 20, 20), slit[0], slit[1], max(1, int(0.06 * s)))


def _minefield(surface, view, d: Decor, geom, box) -> None:
    """A minefield's decoration: the mines, a dashed tape along its outline (dashes 0.3
    inch) and red warning signs (triangles at least 5 pixels high)."""
    s, it = view.scale, d.items
    for x, y, r, _k in _near(it["mines"], box, 0.3):
        (px, py), rr = view.to_px(x, y), max(1.5, r * s)
        pygame.draw.circle(surface, (52, 50, 44), (px, py), rr)
        if rr >= 3:
            pygame.draw.circle(surface, (120, 116, 100), (px, py), rr * 0.45)
    _dashes(surface, view, d.dashes_of("outline", geom, 0.3), box, (236, 236, 226), 2)
    for x, y in _near(it["signs"], box, 0.5):
        px, py = view.to_px(x, y)
        h = max(5.0, 0.3 * s)
        tri = [(px, py - h), (px - h * 0.6, py + h * 0.2), (px + h * 0.6, py + h * 0.2)]
        pygame.draw.polygon(surface, (206, 40, 32), tri)
        pygame.draw.polygon(surface, (250, 240, 220), tri, 1)


def _smoke(surface, view, d: Decor, box) -> None:
    """A smoke cloud: puffs (radii in inches) each with a lighter highlight up and left; no
    floor, so the ground shows between them."""
    s = view.scale
    for x, y, r, _k in _near(d.items["puffs"], box, 1.0):
        px, py = view.to_px(x, y)
        pygame.draw.circle(surface, (196, 198, 194), (px, py), r * s)
        pygame.draw.circle(
            surface, (226, 226, 222), (px - r * s * 0.25, py - r * s * 0.25), r * s * 0.6
        )


def _area(surface, view, f, d: Decor, box, look: Look = LOOKS["grass"]) -> None:
    """One area painted by its kind (its floor, its decoration, its edge) in the colours of
    ``look`` (the table's ground)."""
    kind, s, geom = f.kind, view.scale, f.geometry
    floor = look.floor_of(kind)
    if floor is None:  # a kind with no painted look of its own: its flat colour
        floor = TERRAIN_COLOURS.get(kind, (150, 150, 150))
    outline = d.rings_of("outline", geom)
    if kind != "smoke":
        _poly(surface, view, outline, floor, hole=look.ground)
    it = d.items
    if kind in ("woods", "grove"):
        reach = 0.6
        crowns = TREES if kind == "woods" else list(look.grove_trees)
        _trees(surface, view, _near(it["trees"], box, reach), crowns)
    elif kind in ("light_buildings", "heavy_buildings"):
        houses = _near(it["houses"], box, 2.0)
        _houses(surface, view, houses, kind == "heavy_buildings", list(look.roofs), look.flat_roofs)
    elif kind == "marsh":
        _marsh(surface, view, d, box)
    elif kind.startswith("rough_"):
        _rough(surface, view, d, box, look.tuft)
    elif kind == "light_improved_position":
        _foxholes(surface, view, d, box)
    elif kind in ("medium_improved_position", "heavy_improved_position"):
        _trenches(surface, view, d, box)
    elif kind == "barbed_wire":
        loop = max(2.0, 0.11 * s)
        for line in d.lines["coil"]:
            pts = _px(view, line)
            pygame.draw.lines(surface, (96, 92, 86), False, pts, 1)
            _loops(surface, pts, loop)
    elif kind == "minefield":
        _minefield(surface, view, d, geom, box)
    elif kind == "impassable":
        _poly(surface, view, outline, (150, 140, 100), max(2, int(0.12 * s)))  # the shore
        _lines(surface, view, d.lines["ripples"], (104, 144, 178), 1)
    elif kind == "clear":
        _lines(surface, view, d.lines["furrows"], (146, 136, 78), max(1, int(0.06 * s)))
    elif kind == "smoke":
        _smoke(surface, view, d, box)
    edge = EDGE.get(kind, _lighter(floor, -40))
    _poly(surface, view, outline, edge, 2 if kind in EDGE and s >= 10 else 1)


def _loops(surface, pts, loop: float) -> None:
    """Coils of wire along a pixel polyline: small rings every ``loop`` pixels and a stake
    every eight."""
    k = 0
    for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
        seg = math.hypot(x1 - x0, y1 - y0)
        n = max(1, int(seg / (loop * 0.75)))
        for i in range(n):
            t = i / n
            c = (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
            pygame.draw.circle(surface, (70, 68, 64), c, loop, 1)
            if k % 10 == 0:
                pygame.draw.rect(surface, (60, 44, 30), pygame.Rect(c[0] - 1, c[1] - 1, 3, 3))
            k += 1


def _roads(surface, view, table, decor, near) -> None:
    """Verges first (all roads), then the surfaces, then the ruts of tracks, so crossings
    join; thick lines get round joints."""
    s = view.scale
    for layer in ("verge", "surface"):
        for f, d in zip(table.roads, decor.roads, strict=True):
            if not near(d.bounds):
                continue
            verge, vw, colour, w = ROADS.get(f.kind, ROADS["poor_road"])
            colour, width = (verge, vw) if layer == "verge" else (colour, w)
            if width <= 0:
                continue
            px = max(2, int(width * s))
            for line in getattr(f.geometry, "geoms", [f.geometry]):
                pts = _px(view, line.coords)
                pygame.draw.lines(surface, colour, False, pts, px)
                if px >= 4:
                    for p in pts:
                        pygame.draw.circle(surface, colour, p, px / 2)
    for f, d in zip(table.roads, decor.roads, strict=True):
        if f.kind == "track" and near(d.bounds):  # two ruts, grass between them
            for line in getattr(f.geometry, "geoms", [f.geometry]):
                pygame.draw.lines(
                    surface, (120, 132, 74), False, _px(view, line.coords), max(1, int(0.08 * s))
                )
            _lines(surface, view, d.lines["ruts"], (98, 80, 56), max(1, int(0.06 * s)))


def _hills(surface, view, table, decor, near, box, look: Look = LOOKS["grass"]) -> None:
    """Each level over the one below: its shadow to the lower right, the cut edge, the slope
    in the level's colour (lighter as it climbs) lit from the upper left, the hilltop lighter
    still inside a dashed crest line; in the colours of ``look`` (the table's ground)."""
    s = view.scale
    slopes, g = look.hill_slopes, look.ground
    clip = surface.get_clip()
    for hill, d in zip(table.hills, decor.hills, strict=True):
        if not near(d.bounds):
            continue
        shade = pygame.Surface(clip.size, pygame.SRCALPHA)
        off = max(2.0, 0.18 * s)
        moved = type(view)(
            view.scale, (view.origin[0] - clip.x, view.origin[1] - clip.y), view.depth
        )
        _poly(shade, moved, d.rings_of("outline", hill.geometry), (20, 26, 10, 70), 0, off, off)
        surface.blit(shade, clip.topleft)
        slope = slopes[min(hill.level - 1, len(slopes) - 1)]
        _poly(surface, view, d.rings_of("outline", hill.geometry), look.hill_edge, hole=g)
        inner = d.rings_of("inner", d.shapes["inner"])
        _poly(surface, view, inner, slope, hole=g)
        # the slope lit from the upper left: a lighter crescent on its upper-left side, a
        # darker one on its lower right (the slope less itself moved the other way)
        k = min(0.45 * s, max(2.0, 0.3 * s))
        for tone, sign in (((255, 255, 230, 46), -1), ((24, 30, 12, 52), 1)):
            light = pygame.Surface(clip.size, pygame.SRCALPHA)
            _poly(light, moved, inner, tone, hole=g)
            _poly(light, moved, inner, (0, 0, 0, 0), 0, -sign * k, -sign * k, hole=g)
            surface.blit(light, clip.topleft)
        top = d.shapes["top"]
        if not top.is_empty:
            _poly(surface, view, d.rings_of("top", top), _lighter(slope, 16), hole=g)
            _dashes(surface, view, d.dashes_of("top", top, 0.25), box, look.crest_line, 1)


def paint(surface: pygame.Surface, table, view, table_rect: pygame.Rect) -> None:
    """Paint ``table`` (a ``game.Table``) through ``view`` (a ``render.View``) on
    ``surface``, within its clip: the ground, hills, areas and roads, then the ground's
    texture over the table (``table_rect``, pixels), in the colours of the table's ground
    (:func:`look_of`). Only the features whose bounds reach within an inch of the clip are
    drawn."""
    decor = table_decor(table)
    look = look_of(table)
    clip = surface.get_clip()
    (cx0, cy1), (cx1, cy0) = (
        view.to_table(clip.left, clip.top),
        view.to_table(clip.right, clip.bottom),
    )
    box = (cx0, cy0, cx1, cy1)

    def near(bounds) -> bool:
        bx0, by0, bx1, by1 = bounds
        return bx1 >= cx0 - 1 and bx0 <= cx1 + 1 and by1 >= cy0 - 1 and by0 <= cy1 + 1

    pygame.draw.rect(surface, look.ground, table_rect)
    _hills(surface, view, table, decor, near, box, look)
    for f, d in zip(table.areas, decor.areas, strict=True):
        if near(d.bounds):
            _area(surface, view, f, d, box, look)
    _roads(surface, view, table, decor, near)
    ground.texture(surface, table_rect.clip(clip), view)
