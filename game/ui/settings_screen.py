"""The settings screen (from the main menu): the size of the table's labels and overlay text,
the sight lines' colours (a colour-blind-safe palette), how fast the AI's moves are shown,
the table's and the stands' looks (painted or plain, models or symbols), and whether the
battle screen stops on each enemy attack;
kept in the user data folder (``game.settings``)."""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel, UITextBox

from game.settings import PALETTES, Settings, save_settings
from game.ui.render import INK

SIZES = {"normal": 1.0, "larger": 1.25, "large": 1.5, "largest": 2.0}
SPEEDS = {'normal (12" a second)': 12.0, 'slow (5")': 5.0, 'fast (30")': 30.0, "not shown": 0.0}
TABLE_STYLES = {"painted": "painted", "plain (flat colours)": "plain"}
STAND_STYLES = {"models": "models", "NATO symbols": "symbols"}
ATTACK_PACES = {"stop on each": "pause", "let them run": "run"}
THINKING_TIMES = {
    "quick (1.6 s a turn)": "quick",
    "normal (4 s a turn)": "normal",
    "long (10 s a turn)": "long",
}


def _name_of(table: dict, value, default: str) -> str:
    return next((k for k, v in table.items() if v == value), default)


class SettingsScreen:
    """Choose the settings; Save keeps them and goes back, Back leaves them as they were."""

    def __init__(self, app, on_back):
        self.app = app
        self.on_back = on_back
        s = app.settings
        self.choice = {
            "ui_scale": s.ui_scale,
            "palette": s.palette,
            "ai_speed": s.ai_speed,
            "table_style": s.table_style,
            "stand_style": s.stand_style,
            "enemy_attacks": s.enemy_attacks,
            "ai_thinking": s.ai_thinking,
        }
        self._widgets = {}

    def open(self) -> None:
        """Lay out the choices and the buttons."""
        m = self.app.manager
        w, h = self.app.size
        x, y = w // 2 - 260, max(40, h // 2 - 289)
        UILabel(pygame.Rect(x, y, 520, 50), "Settings", m, object_id="#title")
        y += 70
        rows = [
            ("Labels and text on the table", "ui_scale", SIZES, "larger"),
            ("Sight-line colours", "palette", {k: k for k in PALETTES}, "standard"),
            ("The AI's moves shown", "ai_speed", SPEEDS, 'normal (12" a second)'),
            ("The table", "table_style", TABLE_STYLES, "painted"),
            ("The stands", "stand_style", STAND_STYLES, "models"),
            ("The enemy's attacks", "enemy_attacks", ATTACK_PACES, "stop on each"),
            ("AI thinking time (elite)", "ai_thinking", THINKING_TIMES, "normal (4 s a turn)"),
        ]
        self.menus = {}
        for label, key, table, default in rows:
            UILabel(pygame.Rect(x, y, 250, 34), label, m, object_id="#field")
            menu = UIDropDownMenu(
                list(table),
                _name_of(table, self.choice[key], default),
                pygame.Rect(x + 260, y, 260, 34),
                m,
            )
            self.menus[menu] = (key, table)
            y += 46
        self.sample_y = y + 10
        y += 130
        self.message = UITextBox(self.app.settings_problem or "", pygame.Rect(x, y, 520, 60), m)
        y += 70
        save = UIButton(pygame.Rect(x, y, 255, 40), "Save", m)
        back = UIButton(pygame.Rect(x + 265, y, 255, 40), "Back", m)
        self._widgets = {save: self.save, back: self.on_back}

    def close(self) -> None:
        """Nothing to release."""

    def resized(self, size) -> None:
        """Lay out again."""
        self.app.manager.clear_and_reset()
        self.open()

    def save(self) -> None:
        """Keep the settings (atomically) and use them; back to the menu. The menu's last
        choices (``Settings.menu``) are kept as they are."""
        settings = Settings.model_validate({**self.app.settings.model_dump(), **self.choice})
        try:
            save_settings(settings)
        except OSError as err:
            self.message.set_text(f"The settings could not be saved: {err}")
            return
        self.app.settings_problem = ""
        self.app.apply_settings(settings)
        self.on_back()

    def handle(self, ev) -> None:
        """Widget events."""
        self.app.manager.process_events(ev)
        if ev.type == pygame_gui.UI_BUTTON_PRESSED and ev.ui_element in self._widgets:
            self._widgets[ev.ui_element]()
        elif ev.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and ev.ui_element in self.menus:
            key, table = self.menus[ev.ui_element]
            self.choice[key] = table[ev.text]
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            self.on_back()

    def update(self, dt: float) -> None:
        """Advance the GUI."""
        self.app.manager.update(dt)

    def draw(self, surface) -> None:
        """Background, a sample of the chosen sight-line colours and label size, widgets."""
        surface.fill((236, 233, 222))
        w, _ = surface.get_size()
        x, y = w // 2 - 260, self.sample_y
        colours = PALETTES[self.choice["palette"]]
        font = pygame.font.Font(None, int(20 * self.choice["ui_scale"]))
        for i, (key, words) in enumerate(
            (("clear", "may fire"), ("sees", "sees, may not fire"), ("blocked", "blocked"))
        ):
            yy = y + i * int(30 * self.choice["ui_scale"])
            pygame.draw.line(surface, colours[key], (x, yy + 8), (x + 120, yy + 8), 4)
            surface.blit(font.render(words, True, INK), (x + 135, yy))
        self.app.manager.draw_ui(surface)
