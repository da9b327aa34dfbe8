"""The replay screen: a finished (or saved) battle shown after any number of its actions, with
the battle log in step. Left/Right step by action, Page Up/Down by turn, Home/End to either
end, Space plays and pauses at the chosen speed, the slider seeks anywhere (checkpoints make a
jump a restore and a few actions, ``game.rules.files.replay``). The full games' fire support
is drawn as the battle screen draws it: impact markers and smoke, the plotted missions not
landed yet (both sides': the replay hides nothing), and this turn's deviation arrows and
aircraft's tracks."""

from __future__ import annotations

import bisect
from collections.abc import Sequence

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UIHorizontalSlider, UILabel

from game.ui.battle.support_draw import (
    draw_landing,
    draw_markers,
    draw_plotted,
    side_colour,
)
from game.ui.logtext import PHASE_NAMES, stand_name
from game.ui.logview import LogView
from game.ui.logwords import describe, sentence
from game.ui.paint.minimap import MiniMap
from game.ui.table_view import TableView

TOP_H = 44
BOTTOM_H = 56
PANEL_W = 360
SPEEDS = (1.0, 3.0, 10.0)  # steps (actions, or a log's lines) a second
SUPPORT_LINES = ("plot", "artillery", "air_strike")


class Sentences(Sequence):
    """The log panel's sentences of a battle log's lines 0..``upto``, each made when the panel
    first shows it: a long log (780k lines) is never put into words whole. ``note``, if given,
    is one more sentence after them (the log stops before the battle's end). The lines are
    checked (``game.rules.files.logfields``): every one has its sentence, "" for one told with
    the line before it (the second automatic pass of a skipped phase), which the panel
    gives no room."""

    def __init__(self, lines, upto: int, names: dict, sides: dict, note: str | None = None):
        self.lines, self.upto, self.names, self.sides = lines, upto, names, sides
        self.note = f"{note[0].upper()}{note[1:]}." if note else None

    def __len__(self) -> int:
        return self.upto + 1 + (self.note is not None)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        if i == self.upto + 1:
            return self.note
        return sentence(self.lines[i], self.names, self.sides)


class ReplayScreen:
    """A replay in the window. ``replay`` is a :class:`game.rules.files.replay.Replay` (a save's
    actions) or a :class:`game.rules.files.logreplay.LogReplay` (a battle log's lines); ``on_back``
    is called by the Back button (None: it closes the window)."""

    def __init__(self, app, replay, on_back=None, title: str = ""):
        self.app = app
        self.replay = replay
        self.on_back = on_back
        b = replay.battle
        self.title = title or b.scenario.spec.title
        self.names = {s.id: stand_name(s.unit_name, s.id) for s in b.state.stands.values()}
        self.sides = {s: b.side_spec[s].name for s in b.sides}
        self.playing = False
        self.speed = 3.0
        self._clock = 0.0
        self._shown = -1
        replay.goto(0)  # a replay starts at the beginning (End jumps to the result)
        self.tv = TableView(b.table, self.table_rect(app.size))
        self.minimap = MiniMap(b.table)
        self._buttons: dict = {}
        self.log_view: LogView | None = None
        self.unfinished = getattr(replay, "unfinished", None)
        self.support_drawn: list[tuple] = []  # what the last frame drew of the fire support
        self._support_by_turn: dict[int, list[tuple[int, dict]]] = {}
        self._support_key: int | None = None
        self._support: tuple[list, list] = ([], [])
        if getattr(replay, "all_events", None) is not None:
            return  # a log: its sentences are made as the panel shows them (_show)
        # every action's lines of the whole battle in words, once; the panel shows those up to
        # the position
        described = [
            (i, describe(e, self.names, self.sides)) for i, e in enumerate(replay.end_events)
        ]
        self._line_at = [i for i, text in described if text]
        self._texts = [text for _, text in described if text]
        if b.rules.has("support_fire"):  # the fire support lines, by turn, once
            for i, e in enumerate(replay.end_events):
                if e["event"] in SUPPORT_LINES:
                    self._support_by_turn.setdefault(e["turn"], []).append((i, e))

    def _support_lines(self, turn: int) -> list[tuple[int, dict]]:
        """The ``plot``, ``artillery`` and ``air_strike`` lines of ``turn`` with their index
        in the log: a save's were found when the screen opened; a log's turn is read once,
        the first time it is shown."""
        r = self.replay
        if turn not in self._support_by_turn and getattr(r, "all_events", None) is not None:
            starts = r.turn_starts
            lo = starts[turn] if turn < len(starts) else len(r.all_events)
            hi = starts[turn + 1] if turn + 1 < len(starts) else len(r.all_events)
            lines = r.all_events
            self._support_by_turn[turn] = [
                (i, lines[i]) for i in range(lo, hi) if lines[i]["event"] in SUPPORT_LINES
            ]
        return self._support_by_turn.get(turn, [])

    def fire_support(self) -> tuple[list[dict], list[dict]]:
        """At the position shown: the ``plot`` lines of the missions not landed yet (both
        sides'), and this turn's ``artillery`` and ``air_strike`` lines (where missions
        landed). Empty outside the full games."""
        r = self.replay
        if not r.battle.rules.has("support_fire"):
            return [], []
        shown = len(r.events)
        if self._support_key != shown:
            turn = r.battle.state.turn
            plots: dict[str, dict] = {}
            landed: list[dict] = []
            for t in range(turn + 1):
                for i, e in self._support_lines(t):
                    if i >= shown:
                        break
                    if e["event"] == "plot":
                        if "aim" in e:  # a network battle's hidden plot: shown as it lands
                            plots[e["mission"]] = e
                    else:
                        plots.pop(e["mission"], None)
                        if t == turn:
                            landed.append(e)
            self._support, self._support_key = (list(plots.values()), landed), shown
        return self._support

    def table_rect(self, size) -> pygame.Rect:
        """Where the table is drawn: left of the log, between the bars."""
        return pygame.Rect(0, TOP_H, size[0] - PANEL_W, size[1] - TOP_H - BOTTOM_H)

    # ---------------------------------------------------------------- widgets

    def open(self) -> None:
        """Lay out the bars, the controls and the log."""
        m = self.app.manager
        w, h = self.app.size
        self._buttons = {}
        self.label = UILabel(pygame.Rect(10, 8, w - PANEL_W - 20, 28), "", m, object_id="#banner")
        back = UIButton(pygame.Rect(w - 128, 6, 118, 32), "Back", m)
        self._buttons[back] = self.back
        y = h - BOTTOM_H + 12
        x = 10
        for text, fn, tip in [
            ("|<", lambda: self.replay.goto(0), "Home: the start"),
            ("<< turn", self.replay.previous_turn, "Page Up"),
            ("<", lambda: self.replay.step(-1), "Left arrow"),
            ("Play", self.toggle_play, "Space"),
            (">", lambda: self.replay.step(1), "Right arrow"),
            ("turn >>", self.replay.next_turn, "Page Down"),
            (">|", lambda: self.replay.goto(self.replay.length), "End: the end"),
        ]:
            width = 84 if len(text) > 2 else 44
            button = UIButton(pygame.Rect(x, y, width, 32), text, m, tool_tip_text=tip)
            self._buttons[button] = fn
            if text == "Play":
                self.play_button = button
            x += width + 6
        self.speed_names = {self.speed_name(v): v for v in SPEEDS}
        self.speed_menu = UIDropDownMenu(  # opens upwards: it sits on the window's bottom bar
            list(self.speed_names),
            self.speed_name(self.speed),
            pygame.Rect(x + 4, y, 190, 32),
            m,
            object_id="#speed_menu",
        )
        x += 200
        self.slider = UIHorizontalSlider(
            pygame.Rect(x, y, max(120, w - PANEL_W - x - 10), 32),
            self.replay.position,
            (0, max(1, self.replay.length)),
            m,
        )
        self.log_view = LogView(
            pygame.Rect(w - PANEL_W + 6, TOP_H + 6, PANEL_W - 12, h - TOP_H - 12)
        )
        self._shown = -1

    def speed_name(self, per_second: float) -> str:
        """The speed menu's words for ``per_second`` steps: "3 actions a second"."""
        n = int(per_second)
        return f"{n} {self.replay.step_name}{'' if n == 1 else 's'} a second"

    def close(self) -> None:
        """Nothing to release."""

    def resized(self, size) -> None:
        """Lay out again for a new window size."""
        self.app.manager.clear_and_reset()
        self.tv.resize(self.table_rect(size))
        self.open()

    def back(self) -> None:
        """Leave the replay."""
        if self.on_back is not None:
            self.on_back()
        else:
            self.app.running = False

    def toggle_play(self) -> None:
        """Play from here, or pause; at the end, play from the start."""
        if not self.playing and self.replay.position >= self.replay.length:
            self.replay.goto(0)
        self.playing = not self.playing
        self._clock = 0.0
        self.play_button.set_text("Pause" if self.playing else "Play")

    # ---------------------------------------------------------------- events

    def handle(self, ev) -> None:
        """Controls, keys, and the camera (wheel zoom, drag pan, F fit)."""
        self.app.manager.process_events(ev)
        r = self.replay
        if ev.type == pygame_gui.UI_BUTTON_PRESSED:
            fn = self._buttons.get(ev.ui_element)
            if fn:
                fn()
            return
        if ev.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and ev.ui_element is self.speed_menu:
            self.speed = self.speed_names.get(ev.text, 3.0)
            return
        if ev.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED and ev.ui_element is self.slider:
            self.playing = False
            r.goto(int(ev.value))
            return
        if self._slider_click(ev):
            return
        mouse = (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION)
        if ev.type in mouse and self.minimap.handle(ev, self.tv):
            return  # a click on the mini-map moves the camera there
        if ev.type == pygame.KEYDOWN:
            keys = {
                pygame.K_RIGHT: lambda: r.step(1),
                pygame.K_LEFT: lambda: r.step(-1),
                pygame.K_PAGEDOWN: r.next_turn,
                pygame.K_PAGEUP: r.previous_turn,
                pygame.K_HOME: lambda: r.goto(0),
                pygame.K_END: lambda: r.goto(r.length),
                pygame.K_SPACE: self.toggle_play,
                pygame.K_f: self.tv.fit,
                pygame.K_ESCAPE: self.back,
            }
            fn = keys.get(ev.key)
            if fn:
                if ev.key != pygame.K_SPACE and self.playing:
                    self.playing = False
                    self.play_button.set_text("Play")
                fn()
            return
        if ev.type == pygame.MOUSEWHEEL:
            if self.log_view.handle(ev, pygame.mouse.get_pos()):
                return
            self.tv.zoom_at(1.15**ev.y, pygame.mouse.get_pos())
        elif ev.type == pygame.MOUSEMOTION and ev.buttons[0] and self.tv.rect.collidepoint(ev.pos):
            self.tv.pan(*ev.rel)

    def _slider_click(self, ev) -> bool:
        """A click on the slider's track jumps there (pygame_gui moves it only by dragging
        its thumb or by its arrow buttons)."""
        if ev.type != pygame.MOUSEBUTTONDOWN or ev.button != 1:
            return False
        s = self.slider
        left, right = getattr(s, "left_button", None), getattr(s, "right_button", None)
        thumb = getattr(s, "sliding_button", None)
        if left is None or right is None or thumb is None or not s.rect.collidepoint(ev.pos):
            return False
        if any(b.rect.collidepoint(ev.pos) for b in (left, right, thumb)):
            return False
        x0, x1 = left.rect.right + thumb.rect.w / 2, right.rect.left - thumb.rect.w / 2
        frac = min(1.0, max(0.0, (ev.pos[0] - x0) / max(1.0, x1 - x0)))
        self.playing = False
        self.play_button.set_text("Play")
        self.replay.goto(round(frac * self.replay.length))
        return True

    # ---------------------------------------------------------------- frame

    def busy(self) -> bool:
        """Whether frames must come fast: the replay is playing."""
        return self.playing

    def update(self, dt: float) -> None:
        """Play on at the chosen speed; refresh the bar and the log when the position moved."""
        r = self.replay
        if self.playing:
            self._clock += dt
            while self._clock >= 1.0 / self.speed and r.position < r.length:
                self._clock -= 1.0 / self.speed
                r.step(1)
            if r.position >= r.length:
                self.playing = False
                self.play_button.set_text("Play")
        if self._shown != r.position:
            self._show()
        self.app.manager.update(dt)

    def _show(self) -> None:
        r = self.replay
        self._shown = r.position
        st = r.battle.state
        phase = PHASE_NAMES.get(st.phase, st.phase)
        turn = f"turn {st.turn}" if st.turn else "before turn 1"
        self.label.set_text(
            f"Replay: {self.title}   {r.step_name} {r.position} of {r.length}   {turn}, {phase}"
        )
        if int(self.slider.get_current_value()) != r.position:
            self.slider.set_current_value(r.position)
        self.play_button.set_text("Pause" if self.playing else "Play")
        # the sentences of the lines up to the position (a prefix: their renders are kept)
        if getattr(r, "all_events", None) is not None:
            note = self.unfinished if r.position == r.length else None
            self.log_view.lines = Sentences(r.all_events, r.position, self.names, self.sides, note)
        else:
            self.log_view.lines = self._texts[: bisect.bisect_left(self._line_at, len(r.events))]
        self.log_view.scroll = 0

    def draw(self, surface: pygame.Surface) -> None:
        """The bars, the table as it stood, and the widgets."""
        w, h = surface.get_size()
        surface.fill((58, 72, 56), pygame.Rect(0, 0, w, TOP_H))
        surface.fill((226, 222, 210), pygame.Rect(0, h - BOTTOM_H, w, BOTTOM_H))
        surface.fill((226, 222, 210), pygame.Rect(w - PANEL_W, TOP_H, PANEL_W, h - TOP_H))
        clip = surface.get_clip()
        surface.set_clip(self.tv.rect)
        self.tv.draw_terrain(surface)
        b = self.replay.battle
        ghosts = {s.id for s in b.state.stands.values() if not s.on_table and not s.eliminated}
        draw_markers(surface, self.tv, b)  # smoke and impact markers (the full games)
        self.tv.draw_stands(surface, b.state.stands.values(), b.sides, b.state.wrecks, ghost=ghosts)
        mouse = pygame.mouse.get_pos()  # ids on hover or Alt, the mini-map
        avoid = self.minimap.rect(self.tv)
        self.tv.draw_ids(surface, self.tv.ids_wanted(b.state.stands.values(), mouse, avoid))
        self.minimap.draw(surface, self.tv, b.state.stands.values(), b.sides)
        plotted, landed = self.fire_support()
        self.support_drawn = [("plotted", p["mission"]) for p in plotted]
        draw_plotted(surface, self.tv, plotted, lambda side: side_colour(b.sides, side))
        for e in landed:  # deviation arrows and the aircraft's tracks, as the battle shows
            self.support_drawn += draw_landing(surface, self.tv, b.sides, e)
        self.tv.draw_scale_bar(surface)
        surface.set_clip(clip)
        self.log_view.draw(surface)
        self.app.manager.draw_ui(surface)
