"""The Map panel's forces section: the seed sheets' balancing moves, each a link that
makes it as one undoable edit, and a balance check of the map as it stands, AI against AI in
the background (:class:`game.ui.balance_job.BalanceJob`), its report kept and marked out of
date after a change."""

from __future__ import annotations

import html

from game.ui.balance_job import SCREEN_GAMES, BalanceJob


class BalanceCheckMixin:
    """The editor screen's balancing moves and balance check."""

    balance_job: BalanceJob | None = None
    _moves: list = []

    def _panel_balance(self) -> None:
        """Lay out the moves and the check (called by the Map panel)."""
        from game.editor.points import balancing_moves

        self._moves = balancing_moves(self.doc.raw, self.doc.data, 3)
        lines = ["<b>Balancing moves</b> (click one to make it)"]
        lines += [
            f"<a href='move:{k}'>{html.escape(m.what)}</a>: ratio {m.ratio:.2f}"
            for k, m in enumerate(self._moves)
        ] or ["none brings the sheets' points nearer even"]
        self._text("<br>".join(lines), 34 + 26 * len(self._moves) if self._moves else 56)
        job = self.balance_job
        if job is not None and job.running:
            self._pbutton(f"Stop the check ({job.done} of {job.games} battles)", job.stop)
        else:
            self._pbutton(f"Check balance: {SCREEN_GAMES} AI battles", self.start_balance_check)
        if job is not None:
            stale = (
                " <i>Out of date: the map changed since.</i>"
                if job.version != self.doc.history.version and not job.running
                else ""
            )
            self._text(html.escape(job.summary()) + stale, 112)

    def balance_key(self) -> tuple:
        """What the panel shows of the check (the panel is rebuilt when it changes)."""
        job = self.balance_job
        return (id(job), job.done, job.running) if job else ()

    def apply_move(self, k: int) -> None:
        """Make the ``k``-th balancing move shown as one history entry."""
        from game.editor.points import move_command

        try:
            cmd = move_command(self.doc.raw, self._moves[k])
        except (ValueError, IndexError) as err:
            self.say(f"Could not make that move: {err}", error=True)
            return
        if self.commit(cmd):
            self.say(f"Made the move: {self._moves[k].what}. Ctrl+Z takes it back.")

    def start_balance_check(self) -> None:
        """Start a check of the map as it stands; a map with problems is refused with why."""
        from game import ScenarioError, parse_scenario

        try:
            parse_scenario(self.doc.raw, self.doc.name, self.doc.data)
        except ScenarioError:
            self.say("The balance check needs a valid scenario: mend its problems.", error=True)
            return
        self.balance_job = BalanceJob(self.doc.raw, version=self.doc.history.version)
        self.say(f"Playing {SCREEN_GAMES} AI battles in the background; editing goes on.")
