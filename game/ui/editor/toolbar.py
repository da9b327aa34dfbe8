"""The map editor's tool column and top bar: the tools, what they draw (area or hill type,
hill level, a round lot's diameter, road class), the grid toggle and the file buttons."""

from __future__ import annotations

import pygame
from pygame_gui.elements import (
    UIButton,
    UIDropDownMenu,
    UILabel,
    UITextEntryLine,
)

from game.ui.editor.layout import (
    PANEL_W,
    PANELS,
    TOOLS,
    TOOLS_W,
    TOP_H,
    _kind_names,
    _pretty,
    menu_kind,
    menu_name,
)
from game.ui.editor.modes import (
    HillMode,
    LotMode,
    PolygonMode,
    RectMode,
)


class Toolbar:
    """The map editor's tool column and top bar (its ``toolbar``): the file buttons and the
    title, a button per tool, the tools' settings (area or hill to draw, hill level, lot
    size, road, grid) and the panel switches. ``build()`` makes them for the window's size.
    It reads and sets the screen's tool settings (``draw_area``, ``last_area``,
    ``draw_road``, ``hill_level``, ``lot_diameter``, ``grid``, ``grid_size``, ``help``),
    registers its widgets in the screen's ``_widgets`` and ``_fields`` (its fields through
    ``_entry``), and changes the tool with ``set_mode``."""

    def __init__(self, screen):
        self.screen = screen
        self.title = None  # the scenario's name and file, over the table
        self.grid_button = None
        self.tool_buttons: dict = {}  # mode class -> its button
        self.area_menu = None
        self._area_menu_rect = None
        self.level_entry = None
        self.lot_entry = None
        self.road_menu = None
        self.grid_entry = None

    def _button(self, rect, text, fn, tip=None) -> UIButton:
        b = UIButton(pygame.Rect(rect), text, self.screen.app.manager, tool_tip_text=tip)
        self.screen._widgets[b] = fn
        return b

    def build(self) -> None:
        """Make the top bar's and the tool column's widgets for the window's size."""
        screen = self.screen
        m = screen.app.manager
        w, h = screen.app.size
        screen._widgets = {}
        screen._panel_key = None
        screen._panel_widgets = []
        files = [
            ("New", self.screen.files.new_dialog),
            ("Open", self.screen.files.open_file),
            ("Save", self.screen.files.save),
            ("Save as", self.screen.files.save_as),
            ("Undo", self.screen.undo),
            ("Redo", self.screen.redo),
            ("Test play", self.screen.files.test_play),
            ("Menu", self.screen.files.leave),
        ]
        # the file buttons narrow in a small window, so that the title keeps 220 px
        bw = int(min(92, max(66, (w - 240) / len(files) - 4)))
        x = w - len(files) * (bw + 4)
        self.title = UILabel(pygame.Rect(10, 8, max(60, x - 14), 28), "", m, object_id="#banner")
        for text, fn in files:
            self._button((x, 6, bw, 32), text, fn)
            x += bw + 4
        y = TOP_H + 8
        pitch = 34 if h >= 700 else 29  # a low window: the column still ends above the status
        self.tool_buttons = {}
        for label, _, cls in TOOLS:
            self.tool_buttons[cls] = self._button(
                (6, y, TOOLS_W - 12, pitch - 4), label, lambda c=cls: self.screen.set_mode(c())
            )
            y += pitch
        self._build_settings(y + 6)
        px = w - PANEL_W + 6
        for i, name in enumerate(PANELS):
            self._button(
                (px + (i % 3) * 114, TOP_H + 6 + (i // 3) * 34, 110, 30),
                name,
                lambda n=name: screen.show_panel(n),
            )
        screen.set_mode(screen.mode)

    def _build_settings(self, y: int) -> None:
        """The tools' settings in the tool column, from ``y`` (pixels) down."""
        m = self.screen.app.manager
        UILabel(pygame.Rect(6, y, TOOLS_W - 12, 20), "Area or hill to draw", m)
        self.area_menu = None
        self._area_menu_rect = pygame.Rect(6, y + 22, TOOLS_W - 12, 30)
        self._show_draw_area()
        y += 58
        UILabel(pygame.Rect(6, y, 70, 24), "Hill level", m)
        self.level_entry = UITextEntryLine(pygame.Rect(80, y, TOOLS_W - 86, 26), m)
        self.level_entry.set_text(str(self.screen.hill_level))
        self.screen.entries.register(self.level_entry, "Hill level", self._set_level)
        y += 30
        UILabel(pygame.Rect(6, y, 70, 24), 'Lot "', m)
        self.lot_entry = UITextEntryLine(pygame.Rect(80, y, TOOLS_W - 86, 26), m)
        self.lot_entry.set_text(f"{self.screen.lot_diameter:g}")
        self.screen.entries.register(self.lot_entry, "Round lot's diameter", self._set_lot)
        y += 32
        UILabel(pygame.Rect(6, y, TOOLS_W - 12, 20), "Road to draw", m)
        roads = _kind_names(self.screen.doc.data, "road")
        self.road_menu = UIDropDownMenu(
            [_pretty(k) for k in roads],
            _pretty(self.screen.draw_road),
            pygame.Rect(6, y + 22, TOOLS_W - 12, 30),
            m,
        )
        self.screen._fields[self.road_menu] = lambda t: setattr(
            self.screen, "draw_road", t.replace(" ", "_")
        )
        y += 60
        self.grid_button = self._button((6, y, TOOLS_W - 72, 30), "", self.toggle_grid)
        self.grid_entry = UITextEntryLine(pygame.Rect(TOOLS_W - 62, y, 56, 30), m)
        self.grid_entry.set_text(f"{self.screen.grid_size:g}")
        self.screen.entries.register(self.grid_entry, "Grid", self._set_grid_size)
        y += 36
        self._button((6, y, TOOLS_W - 12, 30), "Help (F1)", self.toggle_help)

    def toggle_grid(self) -> None:
        """Snap to the grid, or not."""
        self.screen.grid = not self.screen.grid

    def _set_grid_size(self, text: str) -> str | None:
        """The grid's step typed beside the Grid button: 0.1" to 6"."""
        size = _inches(text, 0.1, 6, "the grid")
        if isinstance(size, str):
            return size
        self.screen.grid_size = size
        self.screen.say(f'Points snap to a {size:g}" grid (G turns it off).')
        return None

    def toggle_help(self) -> None:
        """Show or hide the keys."""
        self.screen.help = not self.screen.help

    def _show_draw_area(self) -> None:
        """Make the "Area or hill to draw" drop-down show :attr:`draw_area` (built again when
        it shows another: pygame_gui's drop-down cannot be set)."""
        shown = self.area_menu.selected_option if self.area_menu is not None else None
        shown = shown[0] if isinstance(shown, tuple) else shown
        if shown == menu_name(self.screen.draw_area) and self.area_menu.alive():
            return
        if self.area_menu is not None:
            self.screen._fields.pop(self.area_menu, None)
            self.area_menu.kill()
        kinds = _kind_names(self.screen.doc.data, "area") + ["hill"]
        names = [menu_name(k) for k in kinds]
        now = menu_name(self.screen.draw_area)
        self.area_menu = UIDropDownMenu(
            names if now in names else [now, *names],
            now,
            self._area_menu_rect,
            self.screen.app.manager,
        )
        self.screen._fields[self.area_menu] = self._set_draw_area

    def set_draw_area(self, kind: str) -> None:
        """Draw ``kind`` (an area's terrain type or ``hill``) with the area tools from now on,
        as the drop-down shows; the last area type is kept for when the Hill tool is left
        (after the Hill tool, R, P or O drew hills while the drop-down showed woods)."""
        self.screen.draw_area = kind
        if kind != "hill":
            self.screen.last_area = kind
        if self.area_menu is not None:
            self._show_draw_area()

    def _set_draw_area(self, text: str) -> None:
        """A type picked in the drop-down: "hill" takes the Hill tool unless a rectangle or a
        round lot is being drawn (a rectangular or round hill); an area type takes the Polygon
        tool unless an area tool is in hand."""
        self.set_draw_area(menu_kind(text))
        if self.screen.draw_area == "hill":
            if type(self.screen.mode) not in (RectMode, LotMode):
                self.screen.set_mode(HillMode())
        elif type(self.screen.mode) not in (PolygonMode, RectMode, LotMode):
            self.screen.set_mode(PolygonMode())

    def _set_level(self, text: str) -> str | None:
        try:
            level = int(text)
        except ValueError:
            return "the hill level is a whole number from 1"
        if not 1 <= level <= 20:
            return "the hill level is from 1 to 20"
        self.screen.hill_level = level
        return None

    def _set_lot(self, text: str) -> str | None:
        d = _inches(text, 0.5, 100, "a lot's diameter")
        if isinstance(d, str):
            return d
        self.screen.lot_diameter = d
        return None


def _inches(text: str, lo: float, hi: float, what: str) -> float | str:
    """A number of inches from ``lo`` to ``hi`` typed in a tool setting, or the sentence
    saying what ``what`` needs."""
    try:
        v = float(text)
    except ValueError:
        return f'{what} is a number of inches, {lo:g}" to {hi:g}"'
    if not lo <= v <= hi:
        return f'{what} is {lo:g}" to {hi:g}"'
    return v
