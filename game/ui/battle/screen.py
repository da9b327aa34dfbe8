"""The battle screen: the table, a phase banner, a side panel for the decision at hand, and the
battle log; the one place the input mode changes (``set_mode``). Its modes live beside it
(set-up, posture, fire, movement, opportunity, turns); its parts, each an object it holds and
names, do one job each: ``work`` (questions off the frame, ``offframe.py``), ``news``
(``news.py``), ``saving`` (``saving.py``), ``info`` (briefing, unit card, legend,
``info.py``), ``ruler`` (``ruler.py``), ``animation`` and ``overlays`` (``drawing.py``),
``support`` (fire support overlays, ``support_draw.py``), ``drag`` (the camera, ``keys.py``,
with the keys) and, in a network battle, ``netplay`` (``netplay.py``)."""

from __future__ import annotations

import copy
import html
import time
from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UITextBox

from game import Battle, ChooseFirst, IllegalAction, Pass
from game.ui.battle.assault import AssaultReplyMode, CloseAssaultMode
from game.ui.battle.drawing import Animation, Overlays, look_at_the_action
from game.ui.battle.fire import FireMode
from game.ui.battle.info import Info
from game.ui.battle.keys import CameraDrag, press
from game.ui.battle.landings import ghq_news, pace_missions
from game.ui.battle.layout import BANNER_H, PANEL_W
from game.ui.battle.movement import AttemptMode, PickMoverMode, PlotMode
from game.ui.battle.netplay import NetPlay, RevealMode
from game.ui.battle.news import News
from game.ui.battle.offframe import OffFrame
from game.ui.battle.opportunity import CoveringMode, OpportunityMode
from game.ui.battle.posture import PostureMode, done_for_the_phase, standing_pass
from game.ui.battle.ruler import Ruler
from game.ui.battle.saving import Saving
from game.ui.battle.setup import ChooseFirstMode, SetupMode
from game.ui.battle.support import ArtilleryMode, PlotFireMode
from game.ui.battle.support_draw import SupportOverlay
from game.ui.battle.turns import AIMode, CurtainMode, EndMode
from game.ui.colours import UI
from game.ui.logtext import PHASE_NAMES, stand_name
from game.ui.logview import LogView
from game.ui.logwords import describe
from game.ui.modes import Mode
from game.ui.table_view import TableView

MODES = {
    "setup": SetupMode,
    "choose_first": ChooseFirstMode,
    "covering_fire": CoveringMode,
    "posture": PostureMode,
    "opportunity_fire": OpportunityMode,
    "fire": FireMode,
    "plot_move": PickMoverMode,
    "move_attempt": AttemptMode,
    "close_assault": CloseAssaultMode,
    "assault_reply": AssaultReplyMode,
    "artillery": ArtilleryMode,
    "plot": PlotFireMode,
    "reveal": RevealMode,  # a network battle's hidden missions landing
}
"""The input mode of each kind of decision (``game.rules.decision``)."""


KILLS_IN_BANNER_W = 1150  # px: a narrower window shows the victory tracker in the panel
PANEL_EVERY_S = 0.1  # the panel's text, while it changes every frame, is shown this often


class BattleScreen:
    """A battle in the window: two players at one screen, or one against the AI.

    ``log_path`` is where the battle log is being written (shown at the end); ``on_menu`` and
    ``on_again`` are called by the end screen's buttons; ``ai`` maps a side to the AI player
    that plays it; ``ai_speed`` is how fast (inches a second) its moves are shown; ``net``
    the :class:`~game.net.session.NetSession` of a network battle (this side alone plays
    here, the other side's moves arrive through it).
    """

    def __init__(
        self,
        app,
        battle: Battle,
        log_path: Path | None = None,
        on_menu=None,
        on_again=None,
        save_dir: Path | None = None,
        ai: dict | None = None,
        ai_speed: float = 12.0,
        net=None,
    ):
        self.app = app
        self.net = net  # the NetSession of a network battle, or None
        self.battle = battle
        self.ai = dict(ai or {})  # side -> player (ScriptedAI)
        self.log_path = log_path
        self.on_menu = on_menu
        self.on_again = on_again
        self.save_dir = save_dir
        self.names = {s.id: stand_name(s.unit_name, s.id) for s in battle.state.stands.values()}
        self.sides = {s: battle.side_spec[s].name for s in battle.sides}
        trouble = battle.autosave_error or battle.log.error  # a full disk before the first act
        self.message = (
            f"{trouble}. The battle goes on; Ctrl+S saves it under a new name." if trouble else ""
        )
        if battle.load_note:  # a journal's zeroed tail was dropped: say what was lost
            self.message = f"{battle.load_note}. {self.message}".strip()
        self.notice = ""  # a confirmation (saved): green, not the red of a refusal
        self.show_log = True
        self.mode: Mode = Mode()
        self._buttons: list[tuple[UIButton, callable]] = []
        self._panel_text = None
        self._log_seen = 0
        self.log_view: LogView | None = None  # made with the widgets (open)
        self.mouse = (0, 0)  # the mouse's last pixel
        self._followed: str | None = None  # the side the view last turned to
        self._layer: pygame.Surface | None = None  # terrain and stands (_draw_table_layer)
        self._layer_key: tuple | None = None
        self.tv = TableView(battle.table, self.table_rect(app.size))
        self.netplay = NetPlay(self, net) if net is not None else None
        self.news = News(battle, self.names, self.sides, self.group_label)
        self.work = OffFrame(battle, self._show_message)
        self.saving = Saving(self)
        self.info = Info(self)
        self.ruler = Ruler(battle, self.tv, self.stand_under)
        self.animation = Animation(battle, self.tv, ai_speed)
        self.overlays = Overlays(self)
        self.support = SupportOverlay(self)
        self.drag = CameraDrag(self.tv)
        self.look_at_the_action()  # zoomed to readable stands

    @property
    def ai_speed(self) -> float:
        """How fast the AI's moves are shown, in inches a second; 0: not shown."""
        return self.animation.speed

    @ai_speed.setter
    def ai_speed(self, speed: float) -> None:
        self.animation.speed = speed

    def _show_message(self, text: str) -> None:
        self.message = text

    # ---------------------------------------------------------------- names and view

    def group_label(self, side: str, group: str) -> str:
        """A battle group's name on the screen, with its side's: "Germany group M1" (both
        sides' first WWII movement group is M1). Display only: the battle log keeps
        the engine's group ids."""
        return f"{self.short_name(side)} group {group}"

    def group_words(self, s) -> str:
        """A stand's group for the status line: its movement group, or, out of every
        movement group (WWII's firing posture), the battle group the scenario puts it in
        ("group 6"); "no group" only when it has neither."""
        if s.group:
            return f"group {s.group}"
        spec = next((x for x in self.battle.scenario.spec.stands if x.id == s.id), None)
        return f"group {spec.group}" if spec is not None and spec.group else "no group"

    def look_at_the_action(self) -> None:
        """The view a battle opens with (and gets after the window is resized): zoomed to
        readable stands, on the side played here (``drawing.look_at_the_action``)."""
        b = self.battle
        net = self.net
        humans = [net.side] if net is not None else [s for s in b.sides if s not in self.ai]
        look_at_the_action(self.tv, b, humans)

    def follow_the_side(self) -> None:
        """Hotseat: when the side to act changes to a player none of whose stands (on the
        table or waiting at their entry points) is in view, turn the view to it as the
        battle opened (:meth:`look_at_the_action`); a player who can see any of his stands
        keeps the view he has. Against the AI, or over the network, the player's side never
        changes."""
        b = self.battle
        side = b.to_act
        if side is None or side in self.ai or side == self._followed:
            return
        if self.net is not None and side != self.net.side:
            return
        self._followed = side
        rect = self.tv.rect
        if not any(
            s.side == side
            and not s.eliminated
            and s.carried_by is None
            and rect.collidepoint(self.tv.to_px(s.x, s.y))
            for s in b.state.stands.values()
        ):
            self.look_at_the_action()

    # ---------------------------------------------------------------- layout and widgets

    def table_rect(self, size) -> pygame.Rect:
        """Where the table is drawn: left of the panel, below the banner."""
        return pygame.Rect(0, BANNER_H, size[0] - PANEL_W, size[1] - BANNER_H)

    def open(self) -> None:
        """Create the widgets and enter the mode for the current state; a loaded or resumed
        battle's autosave journal is written whole here, not in an action's frame."""
        self.battle.start_autosave()
        if self.battle.autosave_error and not self.message:
            self.message = (
                f"{self.battle.autosave_error}. The battle goes on; Ctrl+S saves it under a "
                "new name."
            )
        self._build()
        self.set_mode(self.mode_for_state())

    def _build(self) -> None:
        m = self.app.manager
        w, h = self.app.size
        self.banner = UILabel(pygame.Rect(10, 8, w - 380, 28), "", m, object_id="#banner")
        self.pass_button = UIButton(pygame.Rect(w - 360, 6, 110, 32), "Pass (P)", m)
        self.save_button = UIButton(pygame.Rect(w - 244, 6, 110, 32), "Save (Ctrl+S)", m)
        self.menu_button = UIButton(pygame.Rect(w - 128, 6, 118, 32), "Menu", m)
        self.panel = UITextBox("", pygame.Rect(w - PANEL_W + 6, BANNER_H + 6, PANEL_W - 12, 300), m)
        log_rect = self.info.log_rect((w, h))  # under the terrain legend (info.py)
        if self.log_view is None:  # kept through a resize, lines and all
            self.log_view = LogView(log_rect)
            self._log_seen = 0
        else:
            self.log_view.resize(log_rect)
        self._panel_text = None
        self._panel_dirty = False
        self._panel_shown_at = 0.0
        # the old buttons went with the manager's widgets (a resize, or coming back from
        # the replay): the panel makes its own again (End -> Replay -> Back had none)
        self._buttons = []
        self.refresh_log()

    def close(self) -> None:
        """Leaving the screen (or the window closing): let an AI still thinking finish first,
        so no worker touches the engine while the program shuts down (it had crashed at exit
        now and then)."""
        thread = self.mode.thread
        if thread is not None and thread.is_alive():
            thread.join(timeout=10)
        self.work.settle_work()
        if self.battle is not None:
            self.battle.close_autosave()  # synced now; a later action opens it again

    def resized(self, size) -> None:
        """Lay the screen out again for a new window size."""
        self.app.manager.clear_and_reset()
        self.tv.resize(self.table_rect(size))
        self.look_at_the_action()
        self._build()
        self.mode.enter(self)

    def side_name(self, side: str | None) -> str:
        """A side's name."""
        return self.sides.get(side, str(side))

    def set_panel(self, text: str, buttons: list[tuple[str, callable]]) -> None:
        """The panel's text and its buttons (replacing the old ones)."""
        if self.app.size[0] < KILLS_IN_BANNER_W:  # too narrow for the banner to hold it
            text = f"<b>{html.escape(self.info.victory_text().strip())}</b><br>" + text
        if self.news.last_orders:  # the movement attempts' rolls, not only in the log
            text += "<br>" + "<br>".join(self.news.last_orders)
        if self.message:  # under the title, in view however long the panel (trial 8)
            said = f"<font color='#b03010'>{html.escape(self.message)}</font>"
            cut = text.find("<br>")
            text = f"{text[:cut]}<br>{said}{text[cut:]}" if cut >= 0 else f"{text}<br>{said}"
        if self.notice:  # good news in green, a path on its own line
            text += f"<br><font color='#2a7a2a'>{self.notice}</font>"
        text += ghq_news(self)  # a GHQ lost, this turn or the last: red, bold
        if self.news.last_result:  # last, so a move's plot stays in view above it
            text += f"<br><br><b>Last attack</b><br>{'<br>'.join(self.news.last_result)}"
        if text != self._panel_text:
            self._panel_text = text
            self._panel_dirty = True
            self._flush_panel()
        if [b.text for b, _ in self._buttons] == [label for label, _ in buttons]:
            # the same buttons: only what they do may change (a moving mouse re-enters modes)
            self._buttons = [
                (b, fn) for (b, _), (_, fn) in zip(self._buttons, buttons, strict=True)
            ]
            return
        for b, _ in self._buttons:
            b.kill()
        self._buttons = []
        w = self.app.size[0]
        for i, (label, fn) in enumerate(buttons):
            rect = pygame.Rect(
                w - PANEL_W + 6 + (i % 2) * 176, BANNER_H + 312 + (i // 2) * 38, 170, 34
            )
            self._buttons.append((UIButton(rect, label, self.app.manager), fn))

    def _flush_panel(self, force: bool = False) -> None:
        """Show the panel's newest text: at once, or, while it changes on every frame (a path
        plotted under the mouse), at most every PANEL_EVERY_S; pygame_gui lays the whole
        text out again on each change (3 ms)."""
        now = time.monotonic()
        if self._panel_dirty and (force or now - self._panel_shown_at >= PANEL_EVERY_S):
            self.panel.set_text(self._panel_text)
            self._panel_dirty = False
            self._panel_shown_at = now

    def refresh_log(self) -> None:
        """Append the battle-log events not shown yet, as sentences."""
        events = self.battle.log.events
        for ev in events[self._log_seen :]:
            text = describe(ev, self.names, self.sides)
            if text:
                self.log_view.append(text)
        self._log_seen = len(events)

    @property
    def log_lines(self) -> list[str]:
        """The log panel's sentences, oldest first (plain text)."""
        return self.log_view.lines

    def banner_text(self) -> str:
        """Turn, phase, who acts, orders left."""
        b = self.battle
        st = b.state
        if st.finished:
            return f"Turn {st.turn}: the battle is over"
        if self.netplay is not None and (said := self.netplay.banner()):
            return f"Turn {st.turn}   {said}"
        phase = PHASE_NAMES.get(st.phase, st.phase)
        if self.mode.paced:  # the missions that landed, one at a time
            return f"Turn {st.turn} of {b.scenario.spec.turns}   {self.mode.banner}"
        orders = ""
        if st.phase == "movement":
            orders = "   orders: " + ", ".join(
                f"{self.short_name(s)}: {st.orders.get(s, 0)}" for s in b.sides
            )
        turn = f"Turn {st.turn} of {b.scenario.spec.turns}" if st.turn else "Before turn 1"
        # a narrow window keeps the turn, phase and who acts (the panel has the rest)
        width = self.app.size[0]
        kills = self.info.victory_text() if width >= KILLS_IN_BANNER_W else ""
        orders = orders if width >= 950 else ""
        return f"{turn}   {phase}   {self.short_name(b.to_act)} to act{orders}{kills}"

    def short_name(self, side: str | None) -> str:
        """A side's name without its bracketed part ("Force 1" of "Force 1 (Pz IIIJ-M)"), for
        the banner, which must fit beside its buttons."""
        return self.side_name(side).split(" (")[0]

    # ---------------------------------------------------------------- modes and actions

    def mode_for_state(self) -> Mode:
        """The input mode for what the battle waits for (``battle.decision()``): the one
        place a kind of decision picks its mode; a side the AI plays is the AI's mode."""
        decision = self.battle.decision()
        if decision.kind == "end":
            return EndMode()
        if self.netplay is not None and (waiting := self.netplay.mode(decision)) is not None:
            return waiting
        if decision.side in self.ai:
            return AIMode(decision.side)
        mode = MODES.get(decision.kind)
        return mode() if mode is not None else Mode()

    def set_mode(self, mode: Mode | None) -> None:
        """Make ``mode`` current (None keeps the current one)."""
        if mode is None:
            return
        st = self.battle.state
        if (
            isinstance(self.mode, AIMode)
            and not isinstance(mode, (AIMode, EndMode))
            and self.mode.asked_in == (st.turn, st.phase)
        ):
            # the AI has finished acting (perhaps spending an order and moving nothing); not
            # said once the phase has moved on: the question is a new one
            self.notice = f"{html.escape(self.side_name(self.mode.side))} has acted: your turn."
        if isinstance(mode, AIMode):
            mode.asked_in = (st.turn, st.phase)
        self.mode = mode
        if not isinstance(mode, CurtainMode):  # behind the curtain the table is hidden
            self.follow_the_side()
        mode.enter(self)
        # nothing to pass or save behind the hand-over curtain or once the battle is over;
        # nothing to pass while the missions that landed are being shown
        idle = isinstance(mode, (CurtainMode, EndMode)) or mode.idle
        paced, net = mode.paced, self.net is not None  # net: its log
        for button, off in ((self.pass_button, idle or paced), (self.save_button, idle or net)):
            if off and button.is_enabled:
                button.disable()
            elif not off and not button.is_enabled:
                button.enable()

    def act(self, action, keep_mode: bool = False, animate: bool = False) -> bool:
        """Apply an action through the engine; an illegal one only shows its reason.
        ``animate``: show the moves and shots it made (the AI's). In a network battle the
        action goes through the session and is shown when the other side answers."""
        if self.netplay is not None:
            return self.netplay.act(action)
        b = self.battle
        before = b.to_act
        self.work.settle_work(landing=True)  # no worker reads the battle while it changes
        stands_before = {s.id: copy.copy(s) for s in b.state.stands.values()}
        seen = len(b.log.events)
        try:
            b.apply(action)
        except IllegalAction as err:
            self.message = str(err)
            self.mode.enter(self)
            return False
        self.show_applied(action, b.log.events[seen:], before, stands_before, animate, keep_mode)
        return True

    def show_applied(self, action, events, before, stands_before, animate=False, keep_mode=False):
        """Show an action the battle applied, with its new log ``events``: the log panel, the
        news, the moves animated (``animate``), the missions that landed one at a time, and
        the next mode (``keep_mode``: the same one again). ``before``: the side that was to
        act; ``stands_before``: copies of the stands before it (a network battle's
        actions, ours and the other side's, are shown by it too)."""
        b = self.battle
        self.message = ""
        self.notice = ""
        trouble = b.autosave_error or b.log.error  # a full disk: the battle goes on in memory
        if trouble:
            self.message = f"{trouble}. The battle goes on; Ctrl+S saves it under a new name."
        if isinstance(action, ChooseFirst):  # not a battle-log line: told in the log panel
            if action.first == action.side:
                line = f"{self.side_name(action.side)} chooses to act first."
            else:
                line = (
                    f"{self.side_name(action.side)} lets {self.side_name(action.first)} act first."
                )
            self.log_view.append(line)
        self.refresh_log()
        self.news.record_news(action, events)  # attacks and orders to tell
        if animate:
            self.animation.queue(events)
        if keep_mode and self.net is None:
            self.mode.enter(self)
            return
        nxt = None if self.net is not None else self.mode_for_state()  # net: asked at the end
        if self.hands_over(before):  # hotseat: the other player takes the screen first
            nxt = CurtainMode(b.to_act, None)
        # missions that landed (or the AI's guns fired) are shown one at a time first
        self.set_mode(
            pace_missions(self, action, events, nxt, stands_before) or self.mode_for_state()
        )

    def hands_over(self, before: str | None) -> bool:
        """Whether the screen goes behind the hand-over curtain after an action: in hotseat
        (no AI side) whenever the side to act is now the other player, whatever the action
        (a pass, a failed order, a group's last move, an opportunity shot, a plot), so a
        click meant for one side never acts for the other. Against the AI, or over the
        network (each player has a screen), nobody is handed the screen."""
        b = self.battle
        return (
            not self.ai
            and self.net is None
            and not b.finished
            and b.to_act is not None
            and b.to_act != before
        )

    def ai_level(self, side: str) -> str:
        """The level of the AI playing a side."""
        level = getattr(self.ai.get(side), "level", None)
        return getattr(level, "name", "ai")

    def stand_under(self, pos, include_off_table: bool = False):
        """The stand under a pixel."""
        stands = [
            s
            for s in self.battle.state.stands.values()
            if s.on_table or (include_off_table and s.side == self.battle.to_act)
        ]
        return self.tv.stand_at(stands, pos, include_off_table)

    def describe_setup(self, fs, shot) -> str:
        """One attacker's shot for the panel: weapon, range, aspect, modifiers, odds."""
        if not fs.legal:
            return f"{fs.attacker}: <i>{html.escape(fs.reason)}</i>"
        coh = " ".join(f"{v:+d} {w.removeprefix('terrain:')}" for w, v in fs.cohesion_mods)
        cmb = " ".join(f"{v:+d} {w.removeprefix('terrain:')}" for w, v in fs.combat_mods)
        return (
            f'<b>{fs.attacker}</b> {fs.weapon}: {fs.range_band_in}" {fs.aspect}, '
            f"{fs.firepower} vs {fs.defense} = {fs.differential:+d}; cohesion "
            f"{coh or '+0'} ({shot['p_fire']:.0%} to fire); 2D6 {cmb or '+0'}"
        )

    # ---------------------------------------------------------------- events

    def handle(self, ev) -> None:
        """One event: GUI widgets and dialogs first, then camera and keys, then the current
        mode."""
        self.app.manager.process_events(ev)
        if self.saving.handle(ev):  # the save-name dialog, its buttons, leaving
            return
        if ev.type == pygame_gui.UI_BUTTON_PRESSED:
            self._press_button(ev.ui_element)
            return
        if ev.type == pygame.MOUSEMOTION:
            self.mouse = ev.pos
        if self.log_view.handle(ev, self.mouse) or self.overlays.minimap_event(ev):
            return  # (a click on the mini-map moves the camera there)
        if ev.type in (
            pygame.MOUSEBUTTONDOWN,
            pygame.MOUSEBUTTONUP,
            pygame.MOUSEMOTION,
            pygame.MOUSEWHEEL,
        ):
            pos = self.mouse if ev.type == pygame.MOUSEWHEEL else ev.pos
            if not self.tv.rect.collidepoint(pos) and not self.drag.start:
                return
        if ev.type == pygame.KEYDOWN and press(self, ev):
            return
        if self._table_event(ev):
            return
        if self.animation.skip(ev, isinstance(self.mode, AIMode)):
            return
        if isinstance(self.mode, AIMode) or self.animation.moves:
            return  # the AI is playing: only the camera moves (Space skips its moves)
        if isinstance(self.mode, CurtainMode) or not self.overlays.help:
            self.set_mode(self.mode.on_event(self, ev))

    def _press_button(self, element) -> None:
        """A button of the banner or of the panel pressed."""
        if element is self.pass_button:
            self.pass_turn()
        elif element is self.save_button:
            self.saving.ask_save_name()
        elif element is self.menu_button:
            self.saving.ask_to_leave()
        for button, fn in list(self._buttons):
            if element is button:
                fn()

    def _table_event(self, ev) -> bool:
        """A mouse event the screen's parts take before the mode: the unit card (right
        click), the zoom (wheel), the ruler (M) and the camera drag. True when taken."""
        info = self.info
        if (
            ev.type == pygame.MOUSEBUTTONUP
            and ev.button == 3
            and not isinstance(self.mode, (PlotMode, CurtainMode))
        ):
            s = self.stand_under(ev.pos, include_off_table=True)
            info.card = s.id if s is not None and info.card != s.id else None
            return True
        if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1 and info.card is not None:
            info.card = None  # a click on the table puts the unit card away, as Esc does
        if ev.type == pygame.MOUSEWHEEL:
            self.tv.zoom_at(1.15**ev.y, self.mouse)
            return True
        if not isinstance(self.mode, CurtainMode) and self.ruler.event(ev):
            return True
        return self.drag.event(ev, self.mode)

    def pass_turn(self) -> None:
        """P and the Pass button: pass (in the posture and plot phases: done for the
        phase; before the first fire: let the enemy act first), unless the AI or the
        missions being shown are to act."""
        b = self.battle
        if b.to_act in self.ai or self.mode.paced:
            return  # the AI's to pass; or the missions that landed are being shown
        if isinstance(self.mode, ChooseFirstMode):  # not firing now: the enemy acts first
            self.act(ChooseFirst(b.to_act, b.other(b.to_act)))
        elif isinstance(self.mode, (PostureMode, PlotFireMode)):
            done_for_the_phase(self)  # P is Done: not asked again this phase
        elif b.to_act:
            self.act(Pass(b.to_act))  # when it may not pass, the engine's reason is shown

    # ---------------------------------------------------------------- frame

    def busy(self) -> bool:
        """Whether frames must come fast: moves or shots being shown, the AI thinking, work
        off the frame, or the panel's newest text still to be shown."""
        return bool(
            self.animation.moves
            or self.support.flights
            or self.animation.flashes
            or isinstance(self.mode, AIMode)
            or self._panel_dirty
            or self.work.working_off_frame()
        )

    def update(self, dt: float) -> None:
        """Advance the GUI."""
        self._flush_panel()
        text = self.banner_text()
        if self.banner.text != text:
            self.banner.set_text(text)
        self.animation.advance(dt)  # a group's moves glide together; the shots flash
        self.support.advance_flights(dt)
        if isinstance(self.mode, AIMode) and self.animation.ai_may_think():
            self.mode.poll(self)
        if self.netplay is not None:
            self.netplay.poll()  # never waits: the connection has its own thread
        standing_pass(self)  # a side that said Done is not asked again this phase
        self.work.poll_off_frame()
        self.app.manager.update(dt)

    def _draw_table_layer(self, surface: pygame.Surface) -> None:
        """The terrain with the stands and wrecks on it, kept as one picture until an action
        lands, the camera moves or a stand starts or stops gliding; the modes' overlays are
        drawn over it every frame."""
        b = self.battle
        hidden = frozenset(
            a[0] for a in self.animation.moves
        )  # stands being shown gliding along a path
        # while landed missions are shown one at a time, the stands as that mission left them
        as_shown = self.mode.stands_as_shown
        key = (
            self.mode.table_key if as_shown else None,
            self.tv.camera_key(),
            len(b.actions),
            len(b.log.events),
            hidden,
            UI["scale"],
            surface.get_size(),
        )
        if self._layer is None or self._layer.get_size() != surface.get_size():
            self._layer, self._layer_key = pygame.Surface(surface.get_size()), None
        if key != self._layer_key:
            layer = self._layer
            layer.set_clip(self.tv.rect)
            self.tv.draw_terrain(layer)
            stands, wrecks = as_shown(b.state) if as_shown else (b.state.stands.values(), None)
            ghosts = {s.id for s in stands if not s.on_table and not s.eliminated}
            self.tv.draw_stands(
                layer,
                [s for s in stands if s.id not in hidden],
                b.sides,
                b.state.wrecks if wrecks is None else wrecks,
                ghost=ghosts,
            )
            layer.set_clip(None)
            self._layer_key = key
        surface.blit(self._layer, self.tv.rect.topleft, area=self.tv.rect)

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the banner, the table with stands and the mode's overlay, the panel."""
        w, h = surface.get_size()
        surface.fill((58, 72, 56), pygame.Rect(0, 0, w, BANNER_H))
        surface.fill((226, 222, 210), pygame.Rect(w - PANEL_W, BANNER_H, PANEL_W, h - BANNER_H))
        clip = surface.get_clip()
        surface.set_clip(self.tv.rect)
        self._draw_table_layer(surface)
        self.support.draw(surface)
        self.animation.draw(surface)
        self.mode.draw(self, surface)
        over = self.overlays
        if over.show_explain:
            over.draw_explain(surface)
        if not isinstance(self.mode, CurtainMode):
            over.draw_on_demand(surface)  # ids on hover / Alt, the mini-map
            self.tv.draw_scale_bar(surface, lift=over.hover_height())
            self.info.draw(surface)
            right = self.tv.rect.right  # the ruler's readout stops short of the mini-map
            if over.show_minimap:
                right = min(right, over.minimap().rect(self.tv).left - 6)
            self.ruler.draw(surface, self.info.font(22), right)
            over.draw_hover(surface)
        if over.help:
            over.draw_help(surface)
        surface.set_clip(clip)
        self.info.draw_legend(surface)
        self.log_view.draw(surface)
        self.app.manager.draw_ui(surface)
