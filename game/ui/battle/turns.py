"""The battle screen's modes between the players' decisions: the curtain that hands the screen
to the other player, the AI's turn (thinking in a worker thread), and the end of the battle."""

from __future__ import annotations

import html
import threading
import time

import pygame

from game.ai.worker import thinking_process
from game.ui.logtext import path_html
from game.ui.modes import Mode, is_click
from game.ui.render import INK


class CurtainMode(Mode):
    """Hands the screen to the other player; the table is hidden until they click."""

    def __init__(self, side: str, then: Mode | None):
        self.side = side
        self.then = then

    def enter(self, screen):
        screen.set_panel(
            f"<b>Hand over to {screen.side_name(self.side)}</b><br>Click or "
            "press Space when ready.",
            [],
        )

    def on_event(self, screen, ev):
        if is_click(ev) or (
            ev.type == pygame.KEYDOWN and ev.key in (pygame.K_SPACE, pygame.K_RETURN)
        ):
            return self.then or screen.mode_for_state()
        return None

    def confirm(self, screen):
        return self.then or screen.mode_for_state()

    def draw(self, screen, surface):
        veil = pygame.Surface(screen.tv.rect.size)
        veil.fill((40, 46, 38))
        surface.blit(veil, screen.tv.rect.topleft)
        font = pygame.font.Font(None, 48)
        text = font.render(f"Hand over to {screen.side_name(self.side)}", True, (245, 243, 234))
        surface.blit(text, text.get_rect(center=screen.tv.rect.center))
        small = pygame.font.Font(None, 26).render(
            "click or press Space when ready", True, (200, 200, 190)
        )
        surface.blit(
            small, small.get_rect(center=(screen.tv.rect.centerx, screen.tv.rect.centery + 40))
        )


class AIMode(Mode):
    """The AI's turn: it thinks in a process of its own (``game.ai.worker``: the window's
    thread keeps the interpreter, so its frames stay short), waited for by a worker thread,
    then its action is applied and its moves are shown gliding along their paths. Where no
    process can think (it cannot start, stops, or cannot rebuild the battle) it thinks in the
    worker thread itself, as it did before, and the window stays live, if less smooth.

    ``think_in``: "process" (the default) or "thread" (the old way: tools/bench/bench_ai_frames.py
    measures both)."""

    think_in = "process"
    budget: tuple[float, float] | None = None  # (seconds left of the turn's look-ahead, all)

    def __init__(self, side: str):
        self.side = side
        self.thread: threading.Thread | None = None
        self.result = None
        self.error: BaseException | None = None

    def enter(self, screen):
        self._panel(screen, "Thinking...")

    def _panel(self, screen, doing: str) -> None:
        screen.set_panel(
            f"<b>{screen.side_name(self.side)} (AI, {screen.ai_level(self.side)})"
            f"</b><br>{doing} Press X to see the options it weighed; Space skips the "
            "showing of its moves this phase.",
            [],
        )

    def _progress(self, screen) -> None:
        """For an AI that looks ahead: how long it has thought and how much of the turn's
        budget is left, said again twice a second while it thinks."""
        if self.budget is None:
            return
        now = time.monotonic()
        if now - self.shown < 0.5:
            return
        self.shown = now
        took = now - self.t0
        left = max(0.0, self.budget[0] - took)
        self._panel(
            screen,
            f"{screen.side_name(self.side)} is thinking ahead: {took:.1f} s "
            f"(at most {left:.1f} s more of this turn's {self.budget[1]:.0f} s).",
        )

    def start(self, screen) -> None:
        """Think in the background."""
        player = screen.ai[self.side]
        battle = screen.battle
        in_process = self.think_in == "process"
        budget = getattr(player, "thinking_budget", None)
        self.budget = budget(battle, self.side) if budget is not None else None
        self.t0 = self.shown = time.monotonic()

        def work():
            try:
                if in_process:
                    try:
                        self.result = thinking_process().choose(player, battle)
                        return
                    except (OSError, RuntimeError):
                        pass  # (OutOfStep too) think here instead, as before
                self.result = player.choose(battle)
            except BaseException as err:  # shown, never swallowed silently
                self.error = err

        self.thread = threading.Thread(target=work, daemon=True)
        self.thread.start()

    def poll(self, screen) -> None:
        """Apply the action once the thinking is done."""
        if self.thread is None:
            self.start(screen)
            return
        if self.thread.is_alive():
            self._progress(screen)
            return
        if self.error is not None:
            screen.message = f"the AI failed: {self.error}"
            self.error = None
            self.thread = None
            self.enter(screen)
            return
        action, self.result, self.thread = self.result, None, None
        screen.act(action, animate=True)


class EndMode(Mode):
    """The battle is over: who won and why, losses, turns; save the log, play again, menu."""

    def enter(self, screen):
        b = screen.battle
        st = b.state
        losses = st.losses(b.sides)
        winner = screen.side_name(st.winner) if st.winner else "Nobody"
        text = (
            f"<b>{html.escape(winner)} wins.</b><br>{html.escape(st.reason or '')}<br>"
            + "<br>".join(
                f"{screen.side_name(s)}: lost {losses[s]} of {b.totals[s]} stands" for s in b.sides
            )
            + f"<br>Turns played: {st.turn}"
        )
        if screen.log_path:
            text += f"<br>Battle log:<br>{path_html(screen.log_path)}"
        again = [] if screen.net is not None else [("Play again", screen.saving.play_again)]
        screen.set_panel(  # a network battle is played again by hosting anew
            text,
            [
                ("Save the log", screen.saving.save_log_copy),
                ("Replay", screen.saving.replay),
                *again,
                ("Main menu", screen.saving.to_menu),
            ],
        )

    def draw(self, screen, surface):
        b = screen.battle
        box = pygame.Rect(0, 0, 520, 160)
        box.center = screen.tv.rect.center
        pygame.draw.rect(surface, (245, 243, 234), box)
        pygame.draw.rect(surface, INK, box, 2)
        st = b.state
        title = f"{screen.side_name(st.winner)} wins" if st.winner else "A draw"
        big = pygame.font.Font(None, 52).render(title, True, INK)
        surface.blit(big, big.get_rect(center=(box.centerx, box.y + 45)))
        font = pygame.font.Font(None, 24)
        for i, line in enumerate([f"after {st.turn} turns: the panel says why"]):
            t = font.render(line, True, INK)
            surface.blit(t, t.get_rect(center=(box.centerx, box.y + 95 + 26 * i)))
