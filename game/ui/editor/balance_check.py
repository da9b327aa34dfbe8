"""The Map panel's forces section: the seed sheets' balancing moves, each a link that
makes it as one undoable edit, and a balance check of the map as it stands, AI against AI in
the background (:class:`game.ui.balance_job.BalanceJob`), its report kept and marked out of
date after a change."""

from __future__ import annotations

import html

from game import ScenarioError, parse_scenario
from game.editor.points import balancing_moves, move_command
from game.ui.balance_job import SCREEN_GAMES, BalanceJob


class BalanceCheck:
    """The Map panel's balancing moves and balance check (the map editor's ``balance``):
    ``panel()`` lays them out with the screen's panel helpers (``_text``, ``_pbutton``), a
    move is made through the screen's ``commit``. ``moves`` are the balancing moves shown,
    ``balance_job`` the check of AI battles playing in the background, or None. It reads
    the screen's document."""

    def __init__(self, screen):
        self.screen = screen
        self.balance_job: BalanceJob | None = None
        self.moves: list = []

    def panel(self) -> None:
        """Lay out the moves and the check (called by the Map panel)."""
        self.moves = balancing_moves(self.screen.doc.raw, self.screen.doc.data, 3)
        lines = ["<b>Balancing moves</b> (click one to make it)"]
        lines += [
            f"<a href='move:{k}'>{html.escape(m.what)}</a>: ratio {m.ratio:.2f}"
            for k, m in enumerate(self.moves)
        ] or ["none brings the sheets' points nearer even"]
        self.screen._text("<br>".join(lines), 34 + 26 * len(self.moves) if self.moves else 56)
        job = self.balance_job
        if job is not None and job.running:
            self.screen._pbutton(f"Stop the check ({job.done} of {job.games} battles)", job.stop)
        else:
            self.screen._pbutton(f"Check balance: {SCREEN_GAMES} AI battles", self.start)
        if job is not None:
            stale = (
                " <i>Out of date: the map changed since.</i>"
                if job.version != self.screen.doc.history.version and not job.running
                else ""
            )
            self.screen._text(html.escape(job.summary()) + stale, 112)

    def key(self) -> tuple:
        """What the panel shows of the check (the panel is rebuilt when it changes)."""
        job = self.balance_job
        return (id(job), job.done, job.running) if job else ()

    def stop(self, wait_s: float) -> None:
        """Stop the check being played, waiting up to ``wait_s`` seconds for it."""
        if self.balance_job is not None:
            self.balance_job.stop()
            self.balance_job.join(timeout=wait_s)

    def apply_move(self, k: int) -> None:
        """Make the ``k``-th balancing move shown as one history entry."""
        try:
            cmd = move_command(self.screen.doc.raw, self.moves[k])
        except (ValueError, IndexError) as err:
            self.screen.say(f"Could not make that move: {err}", error=True)
            return
        if self.screen.commit(cmd):
            self.screen.say(f"Made the move: {self.moves[k].what}. Ctrl+Z takes it back.")

    def start(self) -> None:
        """Start a check of the map as it stands; a map with problems is refused with why."""
        try:
            parse_scenario(self.screen.doc.raw, self.screen.doc.name, self.screen.doc.data)
        except ScenarioError:
            self.screen.say(
                "The balance check needs a valid scenario: mend its problems.", error=True
            )
            return
        self.balance_job = BalanceJob(self.screen.doc.raw, version=self.screen.doc.history.version)
        self.screen.say(f"Playing {SCREEN_GAMES} AI battles in the background; editing goes on.")
