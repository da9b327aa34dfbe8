"""A window on a scenario's table: zoom at the cursor, drag to pan, F to fit, and the terrain
under the cursor read out from the engine's own ``Table.terrain_at``."""

from __future__ import annotations

import pygame

from game.ui.render import INK, View, draw_scenario, legend, table_style

HELP = "wheel: zoom   drag: pan   F: fit   Esc: quit"


def _table_area(screen) -> pygame.Rect:
    """Where the table is fitted: the window less the legend and status lines at the bottom."""
    return pygame.Rect(0, 0, screen.get_width(), screen.get_height() - 64)


def _zoom(view: View, factor: float, at: tuple[int, int]) -> View:
    """The view zoomed by ``factor`` keeping the table point under pixel ``at`` still."""
    tx, ty = view.to_table(*at)
    scale = min(200.0, max(2.0, view.scale * factor))
    ox = at[0] - tx * scale
    oy = at[1] - (view.depth - ty) * scale
    return View(scale, (ox, oy), view.depth)


def run_viewer(scenario, frames: int = 0, size: tuple[int, int] = (1280, 800)) -> int:
    """Open a resizable window showing the scenario; returns 0 when it is closed.

    ``frames`` > 0 closes it after that many frames (for tests and screenshots).
    """
    pygame.init()
    try:
        screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    except pygame.error as err:
        print(
            f"hulldown: cannot open a window ({err}). It needs a display; "
            "'hulldown render SCENARIO --out map.png' draws a map without one."
        )
        pygame.quit()
        return 2
    pygame.display.set_caption(f"hulldown - {scenario.title}")
    clock = pygame.time.Clock()
    font = pygame.font.Font(None, 22)
    table = scenario.table
    view = View.fit(table.width, table.depth, _table_area(screen))
    drag: tuple[int, int] | None = None
    n = 0
    running = True
    while running:
        for ev in pygame.event.get():
            if ev.type == pygame.QUIT or (ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE):
                running = False
            elif (
                ev.type == pygame.KEYDOWN and ev.key == pygame.K_f or ev.type == pygame.VIDEORESIZE
            ):
                view = View.fit(table.width, table.depth, _table_area(screen))
            elif ev.type == pygame.MOUSEWHEEL:
                view = _zoom(view, 1.15**ev.y, pygame.mouse.get_pos())
            elif ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
                drag = ev.pos
            elif ev.type == pygame.MOUSEBUTTONUP and ev.button == 1:
                drag = None
            elif ev.type == pygame.MOUSEMOTION and drag is not None:
                dx, dy = ev.pos[0] - drag[0], ev.pos[1] - drag[1]
                view = View(view.scale, (view.origin[0] + dx, view.origin[1] + dy), view.depth)
                drag = ev.pos
        screen.fill((245, 243, 235))
        draw_scenario(screen, scenario, view)
        mx, my = view.to_table(*pygame.mouse.get_pos())
        status = f"{scenario.title}   {HELP}"
        if table.on_table(mx, my):
            here = table.terrain_at(mx, my)
            names = {k: t.name.lower() for k, t in scenario.data.terrain.items()}
            what = ", ".join(names.get(k, k) for k in here.areas) or "clear"
            if here.road:
                what += f", {names.get(here.road, here.road)}"
            if here.hill_zone:
                what += f", {here.hill_zone} (level {here.ground_level})"
            status = f'({mx:.1f}", {my:.1f}")  {what}     {HELP}'
        legend(screen, scenario, (12, screen.get_height() - 56), table_style())
        bar = pygame.Rect(0, screen.get_height() - 30, screen.get_width(), 30)
        pygame.draw.rect(screen, (245, 243, 235), bar)
        screen.blit(font.render(status, True, INK), (10, bar.y + 8))
        pygame.display.flip()
        clock.tick(60)
        n += 1
        if frames and n >= frames:
            running = False
    pygame.quit()
    return 0
