"""Drawing what :mod:`game.editor.analysis` computes: the map statistics as the Map panel's
text, and the balance views (what a side sees, the movement points it needs) as translucent
layers over the table. Nothing here computes a rule: the grids come from the engine."""

from __future__ import annotations

import html
import math

import numpy as np
import pygame

from game.ui.render import INK, wrap_text

COST_COLOURS = [
    (40, 150, 70),
    (120, 180, 60),
    (200, 200, 60),
    (230, 160, 50),
    (220, 100, 50),
    (180, 50, 60),
    (175, 80, 175),
]
UNREACHABLE = (40, 40, 40)
SEEN = (255, 255, 230, 35)  # the sight view's shading (RGBA)
HIDDEN = (30, 30, 60, 150)
STALE = (176, 40, 20)
OPEN_GROUND = (214, 208, 186)  # what a legend swatch's shade is laid over
ALPHA = 150


def _pretty(kind: str) -> str:
    return str(kind).replace("_", " ")


def stats_html(stats, raw: dict) -> str:
    """The Map panel's statistics: terrain shares of the table and of each half with their
    difference, town area, road lengths, both forces' points (stands x points x cohesion / 10,
    the seed sheets' count) and their ratio."""
    a, b = stats.halves
    rows = [f"<b>Terrain</b> (% of the table; {a.name} / {b.name} half)"]
    kinds = sorted(k for k, v in stats.table.area_pct.items() if v > 0)
    for k in kinds:
        rows.append(
            f"{_pretty(k)}: {stats.table.area_pct[k]:.1f}% "
            f"({a.area_pct.get(k, 0):.1f} / {b.area_pct.get(k, 0):.1f}, "
            f"diff {round(stats.area_diff_pct.get(k, 0), 1) + 0.0:+.1f})"  # never "-0.0"
        )
    for lv in sorted(stats.table.hill_pct):
        rows.append(
            f"hill level {lv}: {stats.table.hill_pct[lv]:.1f}% "
            f"({a.hill_pct.get(lv, 0):.1f} / {b.hill_pct.get(lv, 0):.1f})"
        )
    if not kinds and not stats.table.hill_pct:
        rows.append("open ground only")
    rows.append(
        f"town: {stats.table.town_sq_in:.1f} sq in "
        f"({a.town_sq_in:.1f} / {b.town_sq_in:.1f}; the sheets: up to two towns, about 7 sq in)"
    )
    for k, length in sorted(stats.table.road_in.items()):
        rows.append(
            f'{_pretty(k)}: {length:.1f}" ({a.road_in.get(k, 0):.1f} / {b.road_in.get(k, 0):.1f})'
        )
    rows.append("<b>Forces</b> (stands x points x cohesion / 10)")
    names = {s.get("id"): s.get("name", s.get("id")) for s in raw.get("sides", [])}
    for f in stats.forces:
        rows.append(
            f"{html.escape(str(names.get(f.side_id, f.side_id)))}: {f.stands} stands, "
            f"{f.points:.0f} points"
        )
    if stats.points_ratio is not None:
        rows.append(f"ratio {stats.points_ratio:.2f} : 1")
    if stats.unknown_units:
        rows.append("unknown units: " + html.escape(", ".join(stats.unknown_units)))
    if stats.skipped:
        rows.append(f"{len(stats.skipped)} feature(s) left out (see Problems)")
    return "<br>".join(rows)


def cost_band(result) -> int:
    """Movement points per colour band of a cost view: even, at least 2, so that the bands
    span the costs found (the last band holds the rest)."""
    finite = result.cost[np.isfinite(result.cost)]
    top = float(finite.max()) if finite.size else 0.0
    return max(2, 2 * math.ceil(top / len(COST_COLOURS) / 2))


def view_summary(name: str, result) -> str:
    """One status line about a computed balance view."""
    if hasattr(result, "seen"):
        return (
            f"Side {result.side_id} sees {result.seen_fraction:.0%} of the table and "
            f"{result.far_half_seen_fraction:.0%} of the {result.far_half_name} half from its "
            f"deployment zone; shaded ground is hidden from it (dead ground)."
        )
    finite = result.cost[np.isfinite(result.cost)]
    top = float(finite.max()) if finite.size else 0.0
    return (
        f"Movement points for a {'tracked' if result.movement_class == 'T' else 'wheeled'} stand "
        f"of side {result.side_id} from its {result.origin}: bands of {cost_band(result)} MP, "
        f"up to {top:.0f} MP; black: no way there."
    )


def overlay_surface(name: str, result, tv, size: tuple[float, float]) -> pygame.Surface:
    """The balance view as a translucent layer the size of the table view's rect: a sight
    view shades the cells the side cannot see; a cost view colours cells by bands of movement
    points (dark where unreachable)."""
    width, depth = size
    if hasattr(result, "seen"):
        grid = np.zeros(result.seen.shape + (4,), dtype=np.uint8)
        hidden = ~result.seen
        grid[hidden] = HIDDEN
        grid[result.seen] = SEEN
    else:
        cost = result.cost
        grid = np.zeros(cost.shape + (4,), dtype=np.uint8)
        finite = np.isfinite(cost)
        band = np.zeros(cost.shape, dtype=int)
        step = cost_band(result)
        band[finite] = np.minimum(cost[finite] // step, len(COST_COLOURS) - 1)
        palette = np.array([(*c, ALPHA) for c in COST_COLOURS], dtype=np.uint8)
        grid[finite] = palette[band[finite]]
        grid[~finite] = (*UNREACHABLE, 220)
    # rows run up the table (y grows); the screen's rows run down: flip, then (x, y) order
    img = np.ascontiguousarray(np.flipud(grid).transpose(1, 0, 2))
    small = pygame.Surface(img.shape[:2], pygame.SRCALPHA)
    pygame.surfarray.pixels3d(small)[:] = img[:, :, :3]
    pygame.surfarray.pixels_alpha(small)[:] = img[:, :, 3]
    x0, y0 = tv.to_px(0, depth)
    x1, y1 = tv.to_px(width, 0)
    scaled = pygame.transform.scale(small, (max(1, int(x1 - x0)), max(1, int(y1 - y0))))
    layer = pygame.Surface(tv.rect.size, pygame.SRCALPHA)
    layer.blit(scaled, (x0 - tv.rect.x, y0 - tv.rect.y))
    if not hasattr(result, "seen"):
        _cost_legend(layer, cost_band(result))
    return layer


def _cost_legend(layer: pygame.Surface, step: int) -> None:
    font = pygame.font.Font(None, 20)
    x, y = 10, 10
    box = pygame.Rect(x - 4, y - 4, 8 + 64 * len(COST_COLOURS) + 76, 26)
    pygame.draw.rect(layer, (250, 248, 240, 230), box)
    for k, c in enumerate(COST_COLOURS):
        pygame.draw.rect(layer, (*c, 255), pygame.Rect(x + 64 * k, y, 16, 16))
        hi = "+" if k == len(COST_COLOURS) - 1 else f"-{(k + 1) * step}"
        layer.blit(font.render(f"{k * step}{hi}", True, INK), (x + 64 * k + 19, y + 1))
    pygame.draw.rect(layer, (*UNREACHABLE, 255), pygame.Rect(x + 64 * len(COST_COLOURS), y, 16, 16))
    layer.blit(font.render("no way", True, INK), (x + 64 * len(COST_COLOURS) + 20, y + 1))


def shade_over_ground(colour: tuple[int, int, int, int]) -> tuple[int, int, int]:
    """The RGB a translucent RGBA shade shows over open ground (a legend's swatch)."""
    a = colour[3] / 255
    return tuple(round(c * a + g * (1 - a)) for c, g in zip(colour[:3], OPEN_GROUND, strict=True))


def draw_caption(
    surface: pygame.Surface, rect: pygame.Rect, result, stale: str | None, font
) -> None:
    """The balance view's caption at the bottom of the table view ``rect`` (pixels), in
    ``font``: what it shows (the summary line, which stays while the view is shown), a legend
    of the sight view's shading, and, in red, why it is out of date when the map changed."""
    width = min(rect.w - 20, 620)
    lines = [(t, INK) for t in wrap_text(font, view_summary("", result), width - 16)]
    if stale:
        lines.append((f"This view is {stale}", STALE))
    legend = hasattr(result, "seen")
    box = pygame.Rect(0, 0, width, 10 + 18 * len(lines) + 22 * legend)
    box.bottomleft = (rect.x + 10, rect.bottom - 10)
    pygame.draw.rect(surface, (250, 248, 240), box)
    pygame.draw.rect(surface, STALE if stale else INK, box, 2 if stale else 1)
    y = box.y + 6
    for text, colour in lines:
        surface.blit(font.render(text, True, colour), (box.x + 8, y))
        y += 18
    if legend:
        x = box.x + 8
        for colour, words in (
            (HIDDEN, f"hidden from side {result.side_id} (dead ground)"),
            (SEEN, "seen"),
        ):
            swatch = pygame.Rect(x, y + 2, 16, 16)
            pygame.draw.rect(surface, shade_over_ground(colour), swatch)
            pygame.draw.rect(surface, INK, swatch, 1)
            img = font.render(words, True, INK)
            surface.blit(img, (x + 20, y + 3))
            x += 20 + img.get_width() + 16
