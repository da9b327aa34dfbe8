"""The menu's Quick battle screen: a tank type for each side from the rules' tables,
the era, side A's stands, both cohesion levels, the woods' density and a seed make a fresh
table from the seed sheets' recipe (:func:`game.editor.generate.generate_scenario`), shown
with both forces' points as the sheets count them; it is played at once, opened in the map
editor, or checked for balance by AI battles in the background. The scenario is saved in
the player's scenarios folder, so the menu lists it afterwards. When the check and the points
disagree (``game.ui.quick_balance``), the screen says so and offers the balancing move the
check points to, made with a click and checked again."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.elements import (
    UIButton,
    UIDropDownMenu,
    UILabel,
    UISelectionList,
    UITextBox,
    UITextEntryLine,
)

import game
from game.ai.levels import DEFAULT_LEVEL, PLAYABLE
from game.editor.document import Document
from game.editor.generate import generate_scenario
from game.editor.points import apply_change, forces, ratio
from game.saves import scenarios_dir
from game.ui.balance_job import SCREEN_GAMES, BalanceJob
from game.ui.battles import new_battle
from game.ui.kit import close_drop_downs, paint_backdrop
from game.ui.navigation import show
from game.ui.quick_balance import HOUSE_RULE, disagreement, suggested_move
from game.ui.render import View, draw_scenario
from game.ui.scenario_list import points_text

ERAS = {
    "Modern (000 introductory)": "modern",
    "WWII (001 introductory)": "wwii",
    "Modern full game (002)": "modern-full",
    "Wehrmacht '47 (004)": "wwii-47",
}
FIRST_UNITS = {
    "modern": ("T-80U / AT-11", "M1A2 Abrams"),
    "modern-full": ("T-80U / AT-11", "M1A2 Abrams"),
    "wwii": ("Pz IIIJ-M", 'M4 "Sherman"'),
    "wwii-47": ("Pz VIB", 'M26 "Pershing"'),
}
DENSITIES = {"Light woods": "light", "Medium woods": "medium", "Heavy woods": "heavy"}
HOTSEAT = "Hotseat: two players, one screen"
VS_AI_A = "Against the AI: you command side A"
VS_AI_B = "Against the AI: you command side B"


def quick_file_name(unit_a: str, unit_b: str, seed: int) -> str:
    """The file a quick battle is saved as: ``quick-<a>-vs-<b>-seed<N>.json``, the unit
    names lower-cased with every run of other characters a single dash."""

    def slug(s: str) -> str:
        return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-") or "unit"

    return f"quick-{slug(unit_a)}-vs-{slug(unit_b)}-seed{seed}.json"


def _pick(value) -> str:
    return value[0] if isinstance(value, tuple) else value


class QuickBattleScreen:
    """The Quick battle screen; ``back`` shows the menu again."""

    def __init__(self, app, back):
        self.app = app
        self.back = back
        self.data = game.load_rules_data()
        self.ruleset = "modern"
        self.units = list(FIRST_UNITS["modern"])
        self.raw: dict | None = None
        self.problem = ""
        self.job: BalanceJob | None = None
        self._job_seen: tuple = ()
        self.moves_made: list[str] = []  # balancing moves made on the table since it was made
        self.suggested = None  # the balancing move the last check points to

    # ------------------------------------------------------------------ layout

    def open(self) -> None:
        """Lay out the widgets and make the first table."""
        m = self.app.manager
        w, h = self.app.size
        x = max(10, w // 2 - 340)
        tall = max(120, min(380, h - 600))  # the unit lists: taller on a taller window
        y = max(16, (h - 24 - (472 + tall)) // 2)  # the whole column centred above the footer
        UILabel(pygame.Rect(x, y, 680, 50), "Quick battle", m, object_id="#title")
        y += 46
        era = next(k for k, v in ERAS.items() if v == self.ruleset)
        UILabel(pygame.Rect(x, y, 60, 30), "Era", m)
        self.era = UIDropDownMenu(list(ERAS), era, pygame.Rect(x + 60, y, 300, 30), m)
        self.density = UIDropDownMenu(
            list(DENSITIES), "Medium woods", pygame.Rect(x + 480, y, 200, 30), m
        )
        y += 40
        self.heads = []
        self.lists = []
        items = self._unit_items()
        for k in range(2):
            self.heads.append(UILabel(pygame.Rect(x + 350 * k, y, 330, 22), "", m))
            chosen = self._label(self.units[k])
            lst = UISelectionList(
                pygame.Rect(x + 350 * k, y + 24, 330, tall), items, m, default_selection=chosen
            )
            if lst.scroll_bar is not None:  # the chosen unit in sight, a few rows down
                at = max(0, items.index(chosen) - 3) / len(items)
                lst.scroll_bar.set_scroll_from_start_percentage(at)
            self.lists.append(lst)
        y += 24 + tall + 8
        self.entries = {}
        for k, (name, first) in enumerate(
            (("Side A stands", "8"), ("Cohesion A", "15"), ("Cohesion B", "15"), ("Seed", "1"))
        ):
            UILabel(pygame.Rect(x + 172 * k, y, 160, 22), name, m)
            e = UITextEntryLine(pygame.Rect(x + 172 * k, y + 22, 160, 30), m)
            e.set_allowed_characters("numbers")
            e.set_text(first)
            self.entries[name] = e
        y += 62
        self.summary = UITextBox("", pygame.Rect(x, y, 400, 204), m)
        self.preview_rect = pygame.Rect(x + 410, y, 270, 204)
        self.preview: pygame.Surface | None = None
        y += 212
        self.players = UIDropDownMenu(
            [HOTSEAT, VS_AI_A, VS_AI_B], HOTSEAT, pygame.Rect(x, y, 490, 32), m
        )
        level = getattr(
            getattr(getattr(self.app, "settings", None), "menu", None), "ai_level", DEFAULT_LEVEL
        )
        self.level = UIDropDownMenu(
            [f"AI level: {n}" for n in PLAYABLE],
            f"AI level: {level}",
            pygame.Rect(x + 500, y, 180, 32),
            m,
        )
        y += 40
        self.play_button = UIButton(pygame.Rect(x, y, 200, 40), "Play", m)
        self.edit_button = UIButton(pygame.Rect(x + 208, y, 180, 40), "Open in the editor", m)
        self.check_button = UIButton(pygame.Rect(x + 396, y, 180, 40), "Check balance", m)
        self.back_button = UIButton(pygame.Rect(x + 584, y, 96, 40), "Back", m)
        self.regenerate()

    def _label(self, unit: str) -> str:
        u = self.data.units_for(self.ruleset)[unit]
        return f"{unit}  ({u.points} pts)"

    def _unit_items(self) -> list[str]:
        names = sorted(self.data.units_for(self.ruleset), key=str.lower)
        self._by_label = {self._label(u): u for u in names}  # a list's line -> its unit
        return list(self._by_label)

    def close(self) -> None:
        """Stop a balance check still running."""
        if self.job is not None:
            self.job.stop()

    def resized(self, size) -> None:
        """Lay out again, keeping the choices."""
        self.app.manager.clear_and_reset()
        self.open()

    # ------------------------------------------------------------------ the table

    def numbers(self) -> tuple[int, int, int, int]:
        """Side A's stands, the two cohesion levels and the seed as typed. Raises
        ValueError naming the field that is empty or out of range."""
        out = []
        for name, lo, hi in (
            ("Side A stands", 1, 30),
            ("Cohesion A", 1, 20),
            ("Cohesion B", 1, 20),
            ("Seed", 0, game.MAX_SEED),
        ):
            text = self.entries[name].get_text()
            if not text or not lo <= int(text) <= hi:
                raise ValueError(f"{name} must be a whole number from {lo} to {hi}")
            out.append(int(text))
        return out[0], out[1], out[2], out[3]

    def regenerate(self) -> None:
        """Make the table for the choices shown and say its forces' points."""
        for k in range(2):
            self.heads[k].set_text(
                f"Side {'AB'[k]} ({'left' if k == 0 else 'right'} edge): {self.units[k]}"
            )
        try:
            stands, coh_a, coh_b, seed = self.numbers()
            self.raw = generate_scenario(
                self.data,
                self.ruleset,
                self.units[0],
                self.units[1],
                seed,
                stands,
                (coh_a, coh_b),
                DENSITIES[_pick(self.density.selected_option)],
            )
        except ValueError as err:
            self.raw = None
            self.problem = str(err)
            self._show()
            return
        self.problem = ""
        if self.job is not None:
            self.job.stop()
            self.job = None
        self.moves_made = []
        self._cost()

    def _cost(self) -> None:
        """Say the table's forces' points (and the moves made on it), and draw it."""
        fs = forces(self.raw, self.data)
        lines = []
        for f in fs:
            ln = f.lines[0]
            count = (  # the full games count the GHQ twice (game.editor.points.hq_weight)
                f"{ln.count} (GHQ twice: {ln.weighted})" if ln.weighted != ln.count else ln.count
            )
            lines.append(
                f"<b>{f.side_id}</b>: {count} x {ln.points} pts x cohesion {f.cohesion:g} / 10"
                f" = <b>{points_text(f.value)}</b>"
            )
        w, d = self.raw["table"]["width"], self.raw["table"]["depth"]
        counted = (
            "after the moves: " + html.escape("; ".join(self.moves_made))
            if self.moves_made
            else "B's stands counted to come nearest even"
        )
        lines.append(
            f"Ratio <b>{ratio(fs[0].value, fs[1].value):.2f} : 1</b> ({counted}); "
            f'{w:g}"x{d:g}", {self.raw["turns"]} turns.'
        )
        self.points_text = "<br>".join(lines)
        self.preview = self._draw_preview()
        self._show()

    def _draw_preview(self) -> pygame.Surface | None:
        """The table as generated, stands at their entry points, scaled into the preview."""
        try:
            sc = game.parse_scenario(self.raw, "quick battle", self.data)
        except game.ScenarioError as err:  # a generator fault: said, not drawn
            self.problem = str(err).splitlines()[0]
            return None
        r = self.preview_rect
        w, d = sc.table.width, sc.table.depth
        scale = min((r.width - 8) / w, (r.height - 24) / d)  # room below for the scale bar
        surf = pygame.Surface(r.size)
        surf.fill((236, 233, 222))
        ox, oy = (r.width - w * scale) / 2, 4
        draw_scenario(surf, sc, View(scale, (ox, oy), d))
        return surf

    def _show(self) -> None:
        if self.raw is None:
            self.summary.set_text(f"<b>{html.escape(self.problem)}</b>")
            return
        text = self.points_text
        self.suggested = None
        if self.job is not None:
            text += "<br><b>" + html.escape(self.job.summary()) + "</b>"
            if not self.job.running and self.job.report is not None:
                text = self._disagreement() + text  # first, in sight without scrolling
        else:
            text += f"<br>Check balance plays {SCREEN_GAMES} AI battles: do the points hold up?"
        self.summary.set_text(text)

    def _disagreement(self) -> str:
        """When the finished check and the points disagree that much (``HOUSE_RULE``): say
        so, and offer the balancing move the check points to as a link."""
        found = disagreement(self.raw, self.data, self.job.report)
        if found is None:
            return ""
        text = (
            f"<b>The points and the check disagree:</b> the points "
            f"{html.escape(found.points_say)}, but {html.escape(found.name)} won "
            f"{found.share:.0%} of the battles either side won ({html.escape(HOUSE_RULE)})."
        )
        who = {"A": "side A", "B": "side B"}  # the sides are named by their units here
        move = self.suggested = suggested_move(self.raw, self.data, found, who)
        if move is None:
            return text + " No balancing move of the sheets weakens it further.<br>"
        names = [str(side.get("name") or side.get("id")) for side in self.raw["sides"]]
        ahead = names[0] if move.values[0] >= move.values[1] else names[1]
        return text + (
            f" The check suggests: <a href='move'>{html.escape(move.what)}</a>"
            f" (then {html.escape(ahead)} leads on points {move.ratio:.2f} : 1). Click it"
            " to make it and check again.<br>"
        )

    def make_move(self) -> None:
        """Make the balancing move the check suggests on the table and check it again."""
        move = self.suggested
        if move is None or self.raw is None:
            return
        try:
            self.raw = apply_change(self.raw, move.change)
        except ValueError as err:
            self.problem = f"The move could not be made: {err}"
            self.summary.set_text(f"<b>{html.escape(self.problem)}</b>")
            return
        self.moves_made.append(move.what)
        self._cost()
        self.job = BalanceJob(self.raw)

    def save(self) -> Path | None:
        """Write the table to the player's scenarios folder (checked first); None, with the
        reason shown, when it cannot be."""
        if self.raw is None:
            return None
        path = scenarios_dir() / quick_file_name(self.units[0], self.units[1], self.numbers()[3])
        try:
            game.write_scenario(path, self.raw)
        except (game.ScenarioError, OSError) as err:
            self.problem = f"{path}: cannot be written ({err})"
            self.summary.set_text(f"<b>{html.escape(self.problem)}</b>")
            return None
        return path

    def play(self) -> None:
        """Save the table and start its battle with the players chosen."""
        path = self.save()
        if path is None:
            return
        choice = _pick(self.players.selected_option)
        level = _pick(self.level.selected_option).removeprefix("AI level: ")
        ai = {"B": level} if choice == VS_AI_A else {"A": level} if choice == VS_AI_B else {}
        speed = getattr(getattr(self.app, "settings", None), "ai_speed", 12.0)
        try:
            battle = new_battle(path, self.numbers()[3], ai, speed)
        except game.ScenarioError as err:
            show(self.app, "menu", str(err))
            return
        show(self.app, "battle", battle)

    def edit(self) -> None:
        """Save the table and open it in the map editor (its Menu comes back to the menu)."""
        path = self.save()
        if path is not None:
            show(self.app, "editor", Document.open(path), on_menu=self.back)

    # ------------------------------------------------------------------ the loop

    def handle(self, ev) -> None:
        """Widget events."""
        self.app.manager.process_events(ev)
        if ev.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION and ev.ui_element in self.lists:
            k = self.lists.index(ev.ui_element)
            self.units[k] = self._by_label.get(ev.text, self.units[k])
            self.regenerate()
        elif ev.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            if ev.ui_element is self.era:
                self.ruleset = ERAS[ev.text]
                self.units = list(FIRST_UNITS[self.ruleset])
                self.resized(self.app.size)
            elif ev.ui_element is self.density:
                self.regenerate()
        elif ev.type == pygame_gui.UI_TEXT_ENTRY_CHANGED and ev.ui_element in self.entries.values():
            self.regenerate()
        elif ev.type == pygame_gui.UI_TEXT_BOX_LINK_CLICKED and ev.link_target == "move":
            self.make_move()
        elif ev.type == pygame_gui.UI_BUTTON_PRESSED:
            if ev.ui_element is self.play_button:
                self.play()
            elif ev.ui_element is self.edit_button:
                self.edit()
            elif ev.ui_element is self.check_button and self.raw is not None:
                if self.job is not None and self.job.running:
                    self.job.stop()
                else:
                    self.job = BalanceJob(self.raw)
            elif ev.ui_element is self.back_button:
                self.close()
                self.back()
        elif (
            ev.type == pygame.KEYDOWN
            and ev.key == pygame.K_ESCAPE
            and not close_drop_downs([self.era, self.density, self.players, self.level])
        ):
            self.close()
            self.back()

    def update(self, dt: float) -> None:
        """Follow a balance check's progress."""
        job = self.job
        seen = (id(job), job.done, job.running) if job else ()
        if seen != self._job_seen:
            self._job_seen = seen
            running = job is not None and job.running
            self.check_button.set_text("Stop the check" if running else "Check balance")
            self._show()
        self.app.manager.update(dt)

    def draw(self, surface) -> None:
        """Background, widgets and the table's preview."""
        paint_backdrop(
            surface,
            "A fresh table from the seed sheets' recipe: woods in 4-6\" lots, two small towns, "
            "a road edge to edge, a hill on each side.",
        )
        self.app.manager.draw_ui(surface)
        if self.preview is not None and self.raw is not None:
            surface.blit(self.preview, self.preview_rect.topleft)
