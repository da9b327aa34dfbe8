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


class ToolbarMixin:
    """The editor screen's widgets outside the side panel, and the settings of its tools."""

    def _button(self, rect, text, fn, tip=None) -> UIButton:
        b = UIButton(pygame.Rect(rect), text, self.app.manager, tool_tip_text=tip)
        self._widgets[b] = fn
        return b

    def _build(self) -> None:
        m = self.app.manager
        w, h = self.app.size
        self._widgets = {}
        self._panel_key = None
        self._panel_widgets = []
        files = [
            ("New", self.files.new_dialog),
            ("Open", self.files.open_file),
            ("Save", self.files.save),
            ("Save as", self.files.save_as),
            ("Undo", self.undo),
            ("Redo", self.redo),
            ("Test play", self.files.test_play),
            ("Menu", self.files.leave),
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
                (6, y, TOOLS_W - 12, pitch - 4), label, lambda c=cls: self.set_mode(c())
            )
            y += pitch
        y += 6
        UILabel(pygame.Rect(6, y, TOOLS_W - 12, 20), "Area or hill to draw", m)
        self.area_menu = None
        self._area_menu_rect = pygame.Rect(6, y + 22, TOOLS_W - 12, 30)
        self._show_draw_area()
        y += 58
        UILabel(pygame.Rect(6, y, 70, 24), "Hill level", m)
        self.level_entry = UITextEntryLine(pygame.Rect(80, y, TOOLS_W - 86, 26), m)
        self.level_entry.set_text(str(self.hill_level))
        self._entry(self.level_entry, "Hill level", self._set_level)
        y += 30
        UILabel(pygame.Rect(6, y, 70, 24), 'Lot "', m)
        self.lot_entry = UITextEntryLine(pygame.Rect(80, y, TOOLS_W - 86, 26), m)
        self.lot_entry.set_text(f"{self.lot_diameter:g}")
        self._entry(self.lot_entry, "Round lot's diameter", self._set_lot)
        y += 32
        UILabel(pygame.Rect(6, y, TOOLS_W - 12, 20), "Road to draw", m)
        roads = _kind_names(self.doc.data, "road")
        self.road_menu = UIDropDownMenu(
            [_pretty(k) for k in roads],
            _pretty(self.draw_road),
            pygame.Rect(6, y + 22, TOOLS_W - 12, 30),
            m,
        )
        self._fields[self.road_menu] = lambda t: setattr(self, "draw_road", t.replace(" ", "_"))
        y += 60
        self.grid_button = self._button((6, y, TOOLS_W - 72, 30), "", self.toggle_grid)
        self.grid_entry = UITextEntryLine(pygame.Rect(TOOLS_W - 62, y, 56, 30), m)
        self.grid_entry.set_text(f"{self.grid_size:g}")
        self._entry(self.grid_entry, "Grid", self._set_grid_size)
        y += 36
        self._button((6, y, TOOLS_W - 12, 30), "Help (F1)", self.toggle_help)
        px = w - PANEL_W + 6
        for i, name in enumerate(PANELS):
            self._button(
                (px + (i % 3) * 114, TOP_H + 6 + (i // 3) * 34, 110, 30),
                name,
                lambda n=name: self.show_panel(n),
            )
        self.set_mode(self.mode)

    def show_panel(self, name: str) -> None:
        """Switch the side panel."""
        self.panel = name
        self._panel_key = None

    def toggle_grid(self) -> None:
        """Snap to the grid, or not."""
        self.grid = not self.grid

    def _set_grid_size(self, text: str) -> str | None:
        """The grid's step typed beside the Grid button: 0.1" to 6"."""
        size = _inches(text, 0.1, 6, "the grid")
        if isinstance(size, str):
            return size
        self.grid_size = size
        self.say(f'Points snap to a {size:g}" grid (G turns it off).')
        return None

    def toggle_help(self) -> None:
        """Show or hide the keys."""
        self.help = not self.help

    def _show_draw_area(self) -> None:
        """Make the "Area or hill to draw" drop-down show :attr:`draw_area` (built again when
        it shows another: pygame_gui's drop-down cannot be set)."""
        shown = self.area_menu.selected_option if self.area_menu is not None else None
        shown = shown[0] if isinstance(shown, tuple) else shown
        if shown == menu_name(self.draw_area) and self.area_menu.alive():
            return
        if self.area_menu is not None:
            self._fields.pop(self.area_menu, None)
            self.area_menu.kill()
        kinds = _kind_names(self.doc.data, "area") + ["hill"]
        names = [menu_name(k) for k in kinds]
        now = menu_name(self.draw_area)
        self.area_menu = UIDropDownMenu(
            names if now in names else [now, *names], now, self._area_menu_rect, self.app.manager
        )
        self._fields[self.area_menu] = self._set_draw_area

    def set_draw_area(self, kind: str) -> None:
        """Draw ``kind`` (an area's terrain type or ``hill``) with the area tools from now on,
        as the drop-down shows; the last area type is kept for when the Hill tool is left
        (after the Hill tool, R, P or O drew hills while the drop-down showed woods)."""
        self.draw_area = kind
        if kind != "hill":
            self.last_area = kind
        if getattr(self, "area_menu", None) is not None:
            self._show_draw_area()

    last_area = "woods"  # the area type the area tools go back to when the Hill tool is left

    def _set_draw_area(self, text: str) -> None:
        """A type picked in the drop-down: "hill" takes the Hill tool unless a rectangle or a
        round lot is being drawn (a rectangular or round hill); an area type takes the Polygon
        tool unless an area tool is in hand."""
        self.set_draw_area(menu_kind(text))
        if self.draw_area == "hill":
            if type(self.mode) not in (RectMode, LotMode):
                self.set_mode(HillMode())
        elif type(self.mode) not in (PolygonMode, RectMode, LotMode):
            self.set_mode(PolygonMode())

    def _set_level(self, text: str) -> str | None:
        try:
            level = int(text)
        except ValueError:
            return "the hill level is a whole number from 1"
        if not 1 <= level <= 20:
            return "the hill level is from 1 to 20"
        self.hill_level = level
        return None

    def _set_lot(self, text: str) -> str | None:
        d = _inches(text, 0.5, 100, "a lot's diameter")
        if isinstance(d, str):
            return d
        self.lot_diameter = d
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
