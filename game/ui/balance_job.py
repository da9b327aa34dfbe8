"""A balance check (:func:`game.check.balance.run_balance`) run in a background thread, for
the editor's Map panel and the quick-battle screen: AI against AI on both cores while the
window goes on; the screen polls it each frame and can stop it."""

from __future__ import annotations

import copy
import json
import tempfile
import threading
from pathlib import Path

from game import ScenarioError
from game.ai.levels import DEFAULT_LEVEL
from game.check.balance import run_balance

SCREEN_GAMES = 40
"""Battles a check started on screen plays: a first answer in about a minute on 2 cores
(the interval is then about +-15 points; ``hulldown balance`` plays 200 by default)."""


class _Stopped(Exception):
    pass


class BalanceJob:
    """One background balance check of a scenario dict ``raw`` (copied; the caller may go
    on editing), ``games`` battles, veteran against veteran, on ``jobs`` processes.
    ``version`` is any tag the caller compares later (the editor's history version).

    Read ``done`` (battles played), ``report`` (a BalanceReport once finished), ``error``
    (one line when it failed), ``running``; :meth:`stop` ends it at the next battle."""

    def __init__(self, raw: dict, games: int = SCREEN_GAMES, jobs: int = 2, version=None):
        self.games = games
        self.version = version
        self.done = 0
        self.report = None
        self.error = ""
        self._stop = False
        self._raw = copy.deepcopy(raw)
        self._jobs = jobs
        self._thread = threading.Thread(target=self._work, name="balance-check", daemon=True)
        self._thread.start()

    @property
    def running(self) -> bool:
        """Whether battles are still being played."""
        return self._thread.is_alive()

    def stop(self) -> None:
        """Ask the check to end after the battle under way (its report stays None)."""
        self._stop = True

    def join(self, timeout: float | None = None) -> None:
        """Wait for the check to end (at most ``timeout`` seconds)."""
        self._thread.join(timeout)

    def _progress(self, done: int) -> None:
        self.done = done
        if self._stop:
            raise _Stopped

    def _turns(self, _played: int) -> None:
        """Asked twice a second while a battle is in play: a stop ends the check at once,
        not after the battle, its workers ended with the pool."""
        if self._stop:
            raise _Stopped

    def _work(self) -> None:
        with tempfile.TemporaryDirectory(prefix="hulldown-balance-") as tmp:
            path = Path(tmp) / "scenario.json"
            path.write_text(json.dumps(self._raw), encoding="utf-8")
            try:
                self.report = run_balance(
                    str(path),
                    self.games,
                    1,
                    (DEFAULT_LEVEL, DEFAULT_LEVEL),
                    self._jobs,
                    self._progress,
                    turns=self._turns,
                )
            except _Stopped:
                self.error = "stopped"
            except (ScenarioError, ValueError) as err:
                self.error = str(err).splitlines()[0].replace(str(path), "the scenario")
            except Exception as err:  # a battle that broke: said on screen, never raised
                self.error = f"the check failed ({err})"

    def summary(self) -> str:
        """One or two lines for the screen: progress while running, then each side's win
        rate with its 95% interval in percent, the draws, the verdict, and the mean stands
        lost and turns (plain text)."""
        if self.running:
            return f"Balance check: {self.done} of {self.games} AI battles played..."
        if self.report is None:
            return f"Balance check: {self.error or 'not run'}"
        r = self.report
        sides = ", ".join(
            f"{s.name or s.side} {s.rate:.0%} (95%: {s.ci[0] * 100:.0f}-{s.ci[1] * 100:.0f})"
            for s in r.sides
        )
        verdict = r.verdict[0].upper() + r.verdict[1:]
        lost = ", ".join(f"{s.name or s.side} {s.mean_losses:.1f}" for s in r.sides)
        return (
            f"{r.games} AI battles won: {sides}, draws {r.draws / r.games:.0%}. "
            f"Verdict: {verdict}. Lost on average: {lost}, in {r.mean_turns:.1f} turns."
        )
