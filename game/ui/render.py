"""Drawing the table with pygame-ce: terrain by type, roads, hills with their levels, stands
with facing and id, a 6" grid and a scale bar. Used by the window and by ``hulldown render``.
The terrain comes in two styles: "plain", the flat colours below, and "painted"
(:mod:`game.ui.paint`); :func:`draw_table` draws the settings' unless told.

Coordinates: table inches (origin bottom-left, y up) are mapped to screen pixels (y down) by a
:class:`View`.
"""

from __future__ import annotations

import io
import math
import os
import weakref
from collections.abc import Iterable
from dataclasses import dataclass

import pygame
import shapely

import game
from game import StandPose, corners
from game.ui import colours
from game.ui.colours import TERRAIN_COLOURS
from game.ui.paint.legend import swatch
from game.ui.paint.models import kind_of, paint_stand
from game.ui.paint.tiles import draw_tiled

# Colour-blind safe side colours (blue / orange) and muted terrain, readable at a glance.
SIDE_COLOURS = [(40, 110, 200), (230, 130, 20)]
TABLE_COLOUR = (196, 205, 160)
ROAD_STYLE = {
    "good_road": ((120, 100, 80), 0.35),
    "poor_road": ((150, 125, 95), 0.25),
    "track": ((165, 140, 105), 0.15),
}
HILL_COLOURS = [(205, 190, 140), (190, 170, 115), (175, 150, 95), (160, 130, 80)]
GRID_COLOUR = (0, 0, 0, 40)
PAINTED_GRID = (20, 24, 10, 34)  # fainter over the painted ground
INK = colours.INK
LEAST_FONT = 16
"""The least size given to pygame's own font for text a player reads: it draws letters 0.69
of the size asked, so 16 makes 11-pixel letters (hill levels and the scale bar were 9)."""

_FONTS: dict[int, pygame.font.Font] = {}
_TABLE_PARTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _default_font(size: int) -> pygame.font.Font:
    """pygame's default font at ``size`` pixels, made once (again after pygame was quit and
    started anew, which leaves the old font unusable)."""
    font = _FONTS.get(size)
    if font is not None:
        try:
            font.get_height()
        except pygame.error:
            font = None
    if font is None:
        font = _FONTS[size] = pygame.font.Font(None, size)
    return font


@dataclass
class _Parts:
    """What drawing a table needs again and again, worked out once per table: each area's
    and road's bounds (inches) and where each hill's level label goes."""

    area_bounds: list[tuple[float, float, float, float]]
    road_bounds: list[tuple[float, float, float, float]]
    hill_labels: list[tuple[int, float, float]]


def _parts(table) -> _Parts:
    parts = _TABLE_PARTS.get(table)
    if parts is None:
        labels = []
        for hill in table.hills:
            # label each level where it shows: off any higher hill drawn over it
            higher = [h.geometry for h in table.hills if h.level > hill.level]
            shown = hill.geometry.difference(shapely.union_all(higher)) if higher else hill.geometry
            c = (shown if not shown.is_empty else hill.geometry).representative_point()
            labels.append((hill.level, c.x, c.y))
        parts = _Parts(
            [f.geometry.bounds for f in table.areas],
            [f.geometry.bounds for f in table.roads],
            labels,
        )
        _TABLE_PARTS[table] = parts
    return parts


@dataclass
class View:
    """Maps table inches to screen pixels: ``scale`` pixels per inch, table point (0, depth)
    at pixel ``origin`` (the top-left corner of the table on screen)."""

    scale: float
    origin: tuple[float, float]
    depth: float

    def to_px(self, x: float, y: float) -> tuple[float, float]:
        """Screen pixel of a table point."""
        return (self.origin[0] + x * self.scale, self.origin[1] + (self.depth - y) * self.scale)

    def to_table(self, px: float, py: float) -> tuple[float, float]:
        """Table point (inches) under a screen pixel."""
        return ((px - self.origin[0]) / self.scale, self.depth - (py - self.origin[1]) / self.scale)

    @classmethod
    def fit(cls, width: float, depth: float, rect: pygame.Rect, margin: int = 24) -> View:
        """The view that fits a whole table of ``width`` x ``depth`` inches into ``rect``."""
        scale = min((rect.w - 2 * margin) / width, (rect.h - 2 * margin) / depth)
        ox = rect.x + (rect.w - width * scale) / 2
        oy = rect.y + (rect.h - depth * scale) / 2
        return cls(scale, (ox, oy), depth)


def _rings(geom) -> Iterable[tuple[list, list[list]]]:
    for poly in getattr(geom, "geoms", [geom]):
        yield list(poly.exterior.coords), [list(r.coords) for r in poly.interiors]


def _fill(surface, view: View, geom, colour, outline=None) -> None:
    for ext, holes in _rings(geom):
        pygame.draw.polygon(surface, colour, [view.to_px(x, y) for x, y in ext])
        for h in holes:
            pygame.draw.polygon(surface, TABLE_COLOUR, [view.to_px(x, y) for x, y in h])
        if outline:
            pygame.draw.polygon(surface, outline, [view.to_px(x, y) for x, y in ext], 1)


TABLE_STYLES = ("painted", "plain")
"""The table's looks: "painted" (game.ui.paint) or "plain" (flat colours, as before)."""


def table_style(style: str | None = None) -> str:
    """``style`` when given, else the settings' (``colours.UI["table_style"]``); raises
    ValueError for a name not in :data:`TABLE_STYLES`."""
    style = style or colours.UI.get("table_style", "painted")
    if style not in TABLE_STYLES:
        raise ValueError(f"unknown table style {style!r}: painted or plain")
    return style


def draw_table(
    surface: pygame.Surface,
    table,
    view: View,
    font: pygame.font.Font | None = None,
    style: str | None = None,
    scale_bar: bool = True,
) -> None:
    """Draw the table's terrain: the cloth, hills by level with their slope band and a level
    label, areas by type, roads by class, a 6" grid, and (``scale_bar``) a scale bar under its
    left corner; the screens, whose stands wait along the edges, draw theirs over everything
    with :func:`draw_scale_card` instead. When ``surface`` has a
    clip rectangle (a strip uncovered by panning), only the features that reach into it are
    drawn. ``style`` is "painted" or "plain" (:func:`table_style`: the settings' when None);
    the battle screen, the editor, the replay and ``hulldown render`` all come here."""
    style = table_style(style)
    font = font or _default_font(max(LEAST_FONT, int(view.scale * 0.9)))
    parts = _parts(table)
    clip = surface.get_clip()
    (cx0, cy1), (cx1, cy0) = (
        view.to_table(clip.left, clip.top),
        view.to_table(clip.right, clip.bottom),
    )
    margin = 1.0  # inches: outlines, road widths and labels reach a little past a feature

    def near(bounds) -> bool:
        bx0, by0, bx1, by1 = bounds
        return (
            bx1 >= cx0 - margin
            and bx0 <= cx1 + margin
            and by1 >= cy0 - margin
            and (by0 <= cy1 + margin)
        )

    x0, y0 = view.to_px(0, table.depth)
    x1, y1 = view.to_px(table.width, 0)
    if style == "painted":
        draw_tiled(surface, table, view, pygame.Rect(x0, y0, x1 - x0, y1 - y0))
    else:
        _draw_plain(surface, table, view, parts, near, x0, y0, x1, y1)
    for level, lx, ly in parts.hill_labels:
        if near((lx, ly, lx, ly)):
            label = font.render(f"L{level}", True, (90, 70, 30))
            surface.blit(label, label.get_rect(center=view.to_px(lx, ly)))
    grid = pygame.Surface(clip.size, pygame.SRCALPHA)  # the clip's size, placed at its corner
    ox, oy = clip.topleft
    grid_colour = GRID_COLOUR if style == "plain" else PAINTED_GRID

    def at(x: float, y: float) -> tuple[float, float]:
        px, py = view.to_px(x, y)
        return px - ox, py - oy

    gx = 0.0
    while gx <= table.width + 1e-9:
        pygame.draw.line(grid, grid_colour, at(gx, 0), at(gx, table.depth))
        gx += 6
    gy = 0.0
    while gy <= table.depth + 1e-9:
        pygame.draw.line(grid, grid_colour, at(0, gy), at(table.width, gy))
        gy += 6
    surface.blit(grid, clip.topleft)
    # the edge as lines: pygame draws a rectangle's outline clipped, as if the clip were its
    # edge, which puts a false edge along a strip uncovered by panning
    pygame.draw.lines(surface, INK, True, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], 2)
    if scale_bar and near((0.0, -3.0, 40.0, 0.0)):  # the bar and its words, under the corner
        _scale_bar(surface, view, table, font)


def _draw_plain(surface, table, view: View, parts: _Parts, near, x0, y0, x1, y1) -> None:
    """The plain style's cloth, hills, areas and roads: flat colours (the look before the table was painted)."""
    pygame.draw.rect(surface, TABLE_COLOUR, pygame.Rect(x0, y0, x1 - x0, y1 - y0))
    for i, hill in enumerate(table.hills):
        colour = HILL_COLOURS[min(hill.level - 1, len(HILL_COLOURS) - 1)]
        _fill(surface, view, hill.geometry, colour, outline=(120, 100, 60))
        crest = table.hill_crests[i]
        if not crest.is_empty:
            lighter = tuple(min(255, c + 12) for c in colour)
            _fill(surface, view, crest, lighter)
    for f, bounds in zip(table.areas, parts.area_bounds, strict=True):
        if not near(bounds):
            continue
        colour = TERRAIN_COLOURS.get(f.kind, (150, 150, 150))
        _fill(surface, view, f.geometry, colour, outline=tuple(max(0, c - 40) for c in colour))
        if f.kind in ("light_buildings", "heavy_buildings"):
            for ext, _ in _rings(f.geometry):
                pts = [view.to_px(x, y) for x, y in ext]
                xs, ys = [p[0] for p in pts], [p[1] for p in pts]
                step = max(4, int(view.scale / 2))
                for gx in range(int(min(xs)) + step, int(max(xs)), step):
                    pygame.draw.line(
                        surface, (120, 100, 85), (gx, min(ys) + 1), (gx, max(ys) - 1), 1
                    )
    for f, bounds in zip(table.roads, parts.road_bounds, strict=True):
        if not near(bounds):
            continue
        colour, width_in = ROAD_STYLE.get(f.kind, ((120, 100, 80), 0.3))
        for line in getattr(f.geometry, "geoms", [f.geometry]):
            pts = [view.to_px(x, y) for x, y in line.coords]
            pygame.draw.lines(surface, colour, False, pts, max(2, int(width_in * view.scale)))


def _scale_bar(surface, view: View, table, font) -> None:
    bx, by = view.to_px(0, 0)
    by += 8
    for k in range(6):
        colour = INK if k % 2 == 0 else (240, 240, 240)
        r = pygame.Rect(bx + k * view.scale, by, math.ceil(view.scale), 5)
        pygame.draw.rect(surface, colour, r)
    pygame.draw.rect(surface, INK, pygame.Rect(bx, by, 6 * view.scale, 5), 1)
    label = font.render('6"  (1" = 100 m)', True, INK)
    surface.blit(label, (bx + 6 * view.scale + 6, by - 4))


SCALE_CARD_BG = (245, 243, 234)


def draw_scale_card(surface, area: pygame.Rect, px_per_inch: float, font, lift: int = 0) -> None:
    """A scale bar on a small card in the bottom right corner of ``area`` (pixels), ``lift``
    pixels above its foot, drawn over the table and its stands so that nothing covers it: its
    words (the rules' ground scale, 1" = 100 m) over a bar of the longest of 6", 3" or 1"
    that is at most a sixth of the area's width at ``px_per_inch``, in alternate inches."""
    inches = next((n for n in (6, 3) if n * px_per_inch <= area.w / 6), 1)
    length = max(1, round(inches * px_per_inch))
    metres = f"{inches * 100:,} m" if inches < 10 else f"{inches / 10:g} km"
    label = font.render(f'{inches}" = {metres}', True, INK)
    w = max(length, label.get_width()) + 16
    h = label.get_height() + 18
    card = pygame.Rect(area.right - w - 8, area.bottom - lift - h - 6, w, h)
    pygame.draw.rect(surface, SCALE_CARD_BG, card, border_radius=4)
    pygame.draw.rect(surface, (150, 145, 130), card, 1, border_radius=4)
    surface.blit(label, (card.right - 8 - label.get_width(), card.y + 4))
    bx, by = card.right - 8 - length, card.bottom - 11
    for k in range(inches):
        colour = INK if k % 2 == 0 else (240, 240, 240)
        x0, x1 = bx + round(k * px_per_inch), bx + round((k + 1) * px_per_inch)
        pygame.draw.rect(surface, colour, pygame.Rect(x0, by, x1 - x0, 6))
    pygame.draw.rect(surface, INK, pygame.Rect(bx, by, length, 6), 1)


def unit_symbol(unit) -> str | None:
    """The map symbol of a full-game unit (NATO style, as wargamers read them): "armour" (an
    oval), "mech" (a carrier: cross and oval), "recon" (a diagonal), "infantry" (a cross),
    "engineer", "antitank" (an inverted V); None for an intro tank table's row, drawn plain."""
    if not hasattr(unit, "fire_against"):
        return None
    if unit.defense_class == "personnel":
        if "engineer" in unit.flags:
            return "engineer"
        if "cavalry" in unit.flags:
            return "recon"  # NATO marks cavalry, horsed or not, with reconnaissance's diagonal
        return "antitank" if unit.atgm is not None and unit.ap_attack is None else "infantry"
    if unit.carrier:
        return "mech"
    return "recon" if "recon" in unit.flags else "armour"


def _draw_symbol(surface, view: View, pose: StandPose, symbol: str) -> None:
    """A unit symbol in white, upright on the screen, in the stand's upper half (its id is
    written in the lower): a frame of 0.62" x 0.34" (at least 10 x 6 pixels) and what the
    symbol draws in it."""
    cx, cy = view.to_px(pose.x, pose.y + 0.22)
    w = max(10.0, view.scale * 0.62)
    h = max(6.0, view.scale * 0.34)
    box = pygame.Rect(0, 0, int(w), int(h))
    box.center = (int(cx), int(cy))
    ink = (255, 255, 255)
    width = 1 if view.scale < 30 else 2
    pygame.draw.rect(surface, ink, box, width)
    if symbol in ("infantry", "mech"):
        pygame.draw.line(surface, ink, box.topleft, box.bottomright, width)
        pygame.draw.line(surface, ink, box.bottomleft, box.topright, width)
    if symbol in ("armour", "mech"):
        pygame.draw.ellipse(surface, ink, box.inflate(-box.w * 0.3, -box.h * 0.4), width)
    if symbol == "recon":
        pygame.draw.line(surface, ink, box.bottomleft, box.topright, width)
    if symbol == "antitank":
        pygame.draw.lines(surface, ink, False, [box.bottomleft, box.midtop, box.bottomright], width)
    if symbol == "engineer":  # the castle: a bar with three legs
        y0, y1 = box.top + box.h * 0.35, box.top + box.h * 0.7
        pygame.draw.line(surface, ink, (box.left + 2, y0), (box.right - 2, y0), width)
        for fx in (0.2, 0.5, 0.8):
            x = box.left + box.w * fx
            pygame.draw.line(surface, ink, (x, y0), (x, y1), width)


def draw_stand(
    surface,
    view: View,
    pose: StandPose,
    colour,
    label: str | None = None,
    font: pygame.font.Font | None = None,
    symbol: str | None = None,
) -> None:
    """A stand token: its 1"x1" footprint in its side's colour, the front edge marked and a
    facing arrow, its id, and (full games) its unit symbol (:func:`unit_symbol`)."""
    pts = [view.to_px(x, y) for x, y in corners(pose.x, pose.y, pose.facing_deg)]
    if pose.wreck:
        pygame.draw.polygon(surface, (60, 60, 60), pts)
        pygame.draw.line(surface, (20, 20, 20), pts[0], pts[2], 2)
        pygame.draw.line(surface, (20, 20, 20), pts[1], pts[3], 2)
        return
    pygame.draw.polygon(surface, colour, pts)
    pygame.draw.polygon(surface, INK, pts, 1)
    pygame.draw.line(surface, (255, 255, 255), pts[0], pts[1], max(2, int(view.scale / 8)))
    a = math.radians(pose.facing_deg)
    tip = view.to_px(pose.x + 0.45 * math.cos(a), pose.y + 0.45 * math.sin(a))
    base = view.to_px(pose.x, pose.y)
    pygame.draw.line(surface, (255, 255, 255), base, tip, 2)
    if symbol is not None:
        _draw_symbol(surface, view, pose, symbol)
    if label:
        font = font or _default_font(max(LEAST_FONT, int(view.scale * 0.7)))
        text = font.render(label, True, (255, 255, 255))
        surface.blit(text, text.get_rect(center=view.to_px(pose.x, pose.y - 0.22)))


def wrap_text(font: pygame.font.Font, text: str, width: int) -> list[str]:
    """The words of ``text`` in lines no wider than ``width`` pixels in ``font``."""
    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and font.size(trial)[0] > width:
            lines.append(line)
            line = word
        else:
            line = trial
    return lines + ([line] if line else [])


def draw_scenario(
    surface: pygame.Surface,
    scenario,
    view: View,
    style: str | None = None,
    stands: str | None = None,
) -> None:
    """Draw a scenario at its start: the table in ``style`` (:func:`draw_table`), then every
    stand (entering stands at their entry point on the edge) in ``stands`` style, else the
    settings': its painted model with its id on a tag under it ("models"), or its flat
    token with its id and NATO symbol ("symbols")."""
    draw_table(surface, scenario.table, view, style=style)
    sides = [s.id for s in scenario.spec.sides]
    font = _default_font(max(LEAST_FONT, int(view.scale * 0.7)))
    for st in scenario.spec.stands:
        if st.carried_by is not None:
            continue  # aboard its carrier
        pose = StandPose(st.id, st.side, st.x, st.y, st.facing_deg)
        colour = SIDE_COLOURS[sides.index(st.side) % len(SIDE_COLOURS)]
        unit = scenario.units.get(st.id)
        if (stands or colours.UI.get("stand_style", "models")) == "symbols":
            draw_stand(surface, view, pose, colour, st.id, font, unit_symbol(unit))
            continue
        paint_stand(surface, view, pose, colour, kind_of(unit, st.unit), 2 * st.ghq or int(st.hq))
        text = font.render(st.id, True, (255, 255, 255))  # the id on a tag under the model
        tag = text.get_rect(midtop=view.to_px(st.x, st.y - 0.55)).inflate(6, 2)
        pygame.draw.rect(surface, (30, 32, 30), tag)
        surface.blit(text, text.get_rect(center=tag.center))


MAX_PICTURE_SIDE_PX = 16384
"""The largest side of a rendered picture (pixels): a 1000" table at 40 px/in asked for 12.6 GB
and crashed; 16384 keeps a picture under 1 GB and within what image viewers open."""


def render_png(
    scenario, out: str, px_per_in: float = 20.0, style: str = "painted"
) -> tuple[int, int]:
    """Render a scenario headless to a PNG file (title above the table), in ``style``
    ("painted": painted terrain and the stands' models; "plain": the flat terrain and the
    stands' flat tokens with their NATO symbols); returns its size in pixels. Needs no display: it
    uses an off-screen surface. Raises ValueError when the picture would be more than
    MAX_PICTURE_SIDE_PX on a side or the style is unknown, OSError when it cannot be
    written."""
    table_style(style)
    pygame.font.init()
    w = scenario.table.width
    d = scenario.table.depth
    margin = 40
    width = int(w * px_per_in + 2 * margin)
    lines = legend(None, scenario, (margin + 260, 0), style, width)  # room for every line
    size = (width, int(d * px_per_in + 2 * margin + 40 + 20 * max(0, lines - 2)))
    if max(size) > MAX_PICTURE_SIDE_PX:
        most = int((MAX_PICTURE_SIDE_PX - 2 * margin - 40) / max(w, d))
        raise ValueError(
            f"the picture would be {size[0]}x{size[1]} px, more than {MAX_PICTURE_SIDE_PX} on a "
            f"side; give --scale {most} or less for this table"
        )
    surface = pygame.Surface(size)
    surface.fill((245, 243, 235))
    view = View(px_per_in, (margin, margin + 10), d)
    draw_scenario(surface, scenario, view, style, "symbols" if style == "plain" else "models")
    title = pygame.font.Font(None, 26).render(
        f'{scenario.title}  ({scenario.ruleset}, {w:g}"x{d:g}", sighting '
        f'{scenario.spec.max_sighting_in:g}", {scenario.spec.turns} turns)',
        True,
        INK,
    )
    surface.blit(title, (margin, 10))
    legend(surface, scenario, (margin + 260, size[1] - 42 - 20 * max(0, lines - 2)), style)
    save_png(surface, out)
    return size


def save_png(surface, path: str | os.PathLike) -> None:
    """Write a surface to ``path`` as a PNG, atomically: encoded in memory, then written
    through a temporary file renamed over the target (``game.write_atomic``), so a full disk
    raises OSError and leaves no file of 0 bytes (pygame's own writer said nothing and left
    one). Raises OSError when the file cannot be written (the target is then unchanged),
    pygame.error when the surface cannot be encoded."""
    buf = io.BytesIO()
    pygame.image.save(surface, buf, "png")
    game.write_atomic(path, buf.getvalue())


def legend(surface, scenario, at, style: str = "plain", width: int | None = None) -> int:
    """A line of swatches and terrain names in words (and the sides' colours) from ``at``
    (pixels), wrapped to further lines (20 px apart) when it would run off the surface (or
    past ``width``); the swatches painted in the painted ``style``. Returns the number
    of lines; ``surface`` None only counts them (to make room for them)."""
    font = pygame.font.Font(None, 20)
    x, y = at
    right = (width if width is not None else surface.get_width()) - 10
    painted = style == "painted"
    entries = []
    ground = scenario.table.ground
    for k in sorted({f.kind for f in scenario.table.areas}):
        look = swatch(k, ground=ground) if painted else TERRAIN_COLOURS.get(k, (150, 150, 150))
        entries.append((look, scenario.data.terrain[k].name))
    for k in sorted({f.kind for f in scenario.table.roads}):
        look = swatch(k, ground=ground) if painted else ROAD_STYLE.get(k, ((120, 100, 80), 0))[0]
        entries.append((look, scenario.data.terrain[k].name))
    if scenario.table.hills:
        look = swatch("hill", ground=ground) if painted else HILL_COLOURS[0]
        entries.append((look, "Hill (slope band, lighter crest)"))
    for i, s in enumerate(scenario.spec.sides):
        entries.append((SIDE_COLOURS[i % 2], s.name))
    lines = 1
    for look, name in entries:
        text = font.render(name, True, INK)
        if x + 16 + text.get_width() > right:  # wrap to the next line
            x, y, lines = at[0], y + 20, lines + 1
        if surface is not None:
            if isinstance(look, pygame.Surface):
                surface.blit(look, (x, y))
            else:
                pygame.draw.rect(surface, look, pygame.Rect(x, y, 12, 12))
            pygame.draw.rect(surface, INK, pygame.Rect(x, y, 12, 12), 1)
            surface.blit(text, (x + 16, y - 1))
        x += 16 + text.get_width() + 14
    return lines


__all__ = [
    "View",
    "draw_table",
    "draw_scale_card",
    "draw_stand",
    "draw_scenario",
    "legend",
    "render_png",
    "wrap_text",
]
