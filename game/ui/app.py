"""The window: one pygame-ce display, one pygame_gui manager, and the screen being shown
(the menu, a battle). Each screen handles events, updates and draws; the loop stays short."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Protocol

import platformdirs
import pygame
import pygame_gui

from game.saves import data_dir_problem, remove_stale_temps_everywhere
from game.settings import PALETTES, load_settings
from game.ui.colours import PAL, UI
from game.ui.render import save_png

# Everything is drawn in software into the window's surface: SDL's accelerated framebuffer
# only adds a GL copy, which without a GPU is a software GL (Mesa llvmpipe): about 100 MB
# more memory and 6-12 ms a flip under X. Set to 1 to have it anyway.
os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")

THEME = Path(__file__).with_name("theme.json")
DEFAULT_SIZE = (1280, 800)
IDLE_FPS = 20  # how often an idle screen looks for input
IDLE_REDRAW_MS = 500  # an idle screen is redrawn at least this often (clocks, messages)


class Screen(Protocol):
    """What the window asks of the screen it shows (the menu, a battle, the editor, ...):
    ``open`` as it is shown and ``close`` as another replaces it; ``handle`` each pygame event;
    ``update`` with the seconds since the last frame; ``draw`` onto the window's surface;
    ``resized`` with the window's new size in pixels. A screen may also have ``busy()``, True
    while it animates or thinks, so the window draws every frame rather than idling."""

    def open(self) -> None: ...

    def close(self) -> None: ...

    def handle(self, ev: pygame.event.Event) -> None: ...

    def update(self, dt: float) -> None: ...

    def draw(self, surface: pygame.Surface) -> None: ...

    def resized(self, size: tuple[int, int]) -> None: ...


class App:
    """The running program: window, GUI manager, current screen.

    ``frames`` > 0 stops after that many frames (tests and screenshots).
    """

    def __init__(self, size: tuple[int, int] = DEFAULT_SIZE, frames: int = 0):
        pygame.display.init()  # no sound: the mixer is never started
        pygame.font.init()
        pygame.display.set_caption("hulldown")
        self.surface = pygame.display.set_mode(size, pygame.RESIZABLE)
        self.manager = pygame_gui.UIManager(size, str(THEME))
        self.manager.preload_fonts(
            [
                {"name": "noto_sans", "point_size": 13, "style": style}
                for style in ("bold", "italic")
            ]
            + [{"name": "noto_sans", "point_size": 14, "style": "bold"}]
        )
        self.clock = pygame.time.Clock()
        self.settings, self.settings_problem = load_settings()
        self.apply_settings(self.settings)
        self.screen: Screen | None = None
        self.toast: tuple[str, int] = ("", 0)  # a short message over any screen, until a tick
        self.data_problem = data_folder_check()
        if self.data_problem:  # said over whichever screen opens, as long as a full disk's
            self.toast = (self.data_problem, pygame.time.get_ticks() + DATA_PROBLEM_MS)
        self.running = True
        self.frames = frames

    @property
    def size(self) -> tuple[int, int]:
        """The window size in pixels."""
        return self.surface.get_size()

    def show(self, screen: Screen) -> None:
        """Switch to another screen (the old one's widgets are removed)."""
        if self.screen is not None:
            self.screen.close()
        self.manager.clear_and_reset()
        self.screen = screen
        screen.open()

    def handle(self, ev: pygame.event.Event) -> None:
        """One event: window-level ones here, the rest to the screen."""
        if ev.type == pygame.QUIT:
            self.running = False
            return
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_F12:
            self.screenshot()
            return
        if ev.type == pygame.VIDEORESIZE:
            self.surface = pygame.display.set_mode(ev.size, pygame.RESIZABLE)
            self.manager.set_window_resolution(ev.size)
            self.screen.resized(ev.size)
            return
        self.screen.handle(ev)

    def apply_settings(self, settings) -> None:
        """Use the settings: the table's label size, the sight lines' palette, and the table's
        and the stands' styles (``colours.UI``, read by the drawing)."""
        self.settings = settings
        UI["scale"] = settings.ui_scale
        UI["table_style"] = settings.table_style
        UI["stand_style"] = settings.stand_style
        UI["enemy_attacks"] = settings.enemy_attacks
        PAL.use(PALETTES[settings.palette])

    def screenshot(self) -> Path | None:
        """F12: save the window as a PNG in the user's pictures folder (platformdirs), named by
        the time; the path (or why it failed) shows for a few seconds."""
        folder = Path(platformdirs.user_pictures_dir())
        path = folder / time.strftime("hulldown-%Y%m%d-%H%M%S.png")
        try:
            save_png(self.surface, path)  # atomic: a full disk says so, leaves no empty file
        except (OSError, pygame.error) as err:
            why = getattr(err, "strerror", None) or err
            self.toast = (f"Screenshot not saved: {path}: {why}", pygame.time.get_ticks() + 5000)
            return None
        self.toast = (f"Screenshot saved: {path}", pygame.time.get_ticks() + 4000)
        return path

    def _draw_toast(self) -> None:
        text, until = self.toast
        if not text or pygame.time.get_ticks() > until:
            self.toast = ("", 0)
            return
        img = pygame.font.Font(None, 22).render(text, True, (245, 243, 235))
        box = img.get_rect(midbottom=(self.size[0] // 2, self.size[1] - 12)).inflate(20, 12)
        pygame.draw.rect(self.surface, (40, 50, 40), box)
        self.surface.blit(img, img.get_rect(center=box.center))

    def run(self) -> int:
        """The main loop; returns the exit status. A screen that is busy (an animation, the AI
        thinking, a replay playing: its ``busy()``) runs at 60 frames a second; an idle one
        wakes 20 times a second for input and redraws only after input or twice a second, so
        a screen left alone costs little of a core."""
        n = 0
        last_draw = -IDLE_REDRAW_MS
        while self.running:
            busy = bool(getattr(self.screen, "busy", lambda: False)())
            dt = self.clock.tick(60 if busy else IDLE_FPS) / 1000
            events = pygame.event.get()
            for ev in events:
                self.handle(ev)
            if not self.running:
                break
            self.screen.update(dt)
            now = pygame.time.get_ticks()
            if busy or events or self.frames or now - last_draw >= IDLE_REDRAW_MS:
                self.screen.draw(self.surface)
                if self.toast[0]:
                    self._draw_toast()
                pygame.display.flip()
                last_draw = now
            n += 1
            if self.frames and n >= self.frames:
                break
        if self.screen is not None:
            self.screen.close()
        pygame.quit()
        return 0


WINDOW_ENV = "HULLDOWN_WINDOW"  # "WxH": the window's size in pixels at start
DESKTOP_MARGIN_PX = (80, 100)  # room left around the window for the desktop's bars
MIN_SIZE = (800, 600)


def window_size(desktop: tuple[int, int] | None) -> tuple[int, int]:
    """The window's size at start, in pixels: ``HULLDOWN_WINDOW`` ("1920x1080") when set
    (a bad value is ignored with a message on stderr); else 1280x800, or more on a desktop
    with room for it (the desktop less a margin for its bars), never less than 800x600."""
    want = os.environ.get(WINDOW_ENV, "").strip().lower()
    if want:
        try:
            w, h = (int(v) for v in want.split("x"))
            if w >= MIN_SIZE[0] and h >= MIN_SIZE[1]:
                return w, h
        except ValueError:
            pass
        print(f"hulldown: {WINDOW_ENV}={want!r} is not a size like 1920x1080 (800x600 or more)")
    if not desktop:
        return DEFAULT_SIZE
    w = max(DEFAULT_SIZE[0], desktop[0] - DESKTOP_MARGIN_PX[0])
    h = max(DEFAULT_SIZE[1], desktop[1] - DESKTOP_MARGIN_PX[1])
    return max(MIN_SIZE[0], min(w, desktop[0])), max(MIN_SIZE[1], min(h, desktop[1]))


DATA_PROBLEM_MS = 12_000  # how long the data folder's problem shows over the first screen


def data_folder_check() -> str:
    """At start-up: remove what writes killed half way left in the data folder (stale
    ``.tmp`` files), and say what is wrong with the folder, if anything, as one line naming
    it and the problem and saying that play goes on without saving ("" when nothing is)."""
    remove_stale_temps_everywhere()
    problem = data_dir_problem()
    if problem is None:
        return ""
    return f"{problem[0].upper()}{problem[1:]}. Play goes on without saving there."


def start(screen_factory, frames: int = 0) -> int:
    """Open the window (:func:`window_size`), show the screen ``screen_factory(app)`` makes,
    run until closed.

    Returns 2 with a clear message when there is no display to open a window on.
    """
    try:
        pygame.display.init()
        sizes = (
            pygame.display.get_desktop_sizes()
            if os.environ.get("SDL_VIDEODRIVER") != "dummy"
            else []
        )
        app = App(size=window_size(sizes[0] if sizes else None), frames=frames)
    except pygame.error as err:
        print(
            f"hulldown: cannot open a window ({err}). It needs a display; "
            "'hulldown render SCENARIO --out map.png' and 'hulldown simulate' work without one."
        )
        return 2
    if app.data_problem:
        print(f"hulldown: {app.data_problem}", file=sys.stderr)
    if os.environ.get("SDL_VIDEODRIVER") == "dummy" and not frames:
        app.frames = 1  # nothing could be seen: draw once and stop
    app.show(screen_factory(app))
    return app.run()
