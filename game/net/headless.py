"""A network battle played by the AI on this machine, with no window: ``hulldown host ...
--ai`` and ``hulldown join ... --ai``, for tests and outside checks."""

from __future__ import annotations

import time
from collections.abc import Callable

from game import IllegalAction
from game.net.session import NetSession

EXIT_ENDED, EXIT_FAULT, EXIT_LEFT = 0, 1, 3


class Driver:
    """Plays ``session``'s side with ``player`` (an AI: ``choose(battle) -> action``), one
    :meth:`step` at a time, so two drivers can share a thread (tests) or one can loop
    (:func:`play`). ``say`` is told each change of the session's status, and why a battle
    ended, stopped or was left."""

    def __init__(
        self,
        session: NetSession,
        player,
        timeout_s: float = 600.0,
        say: Callable[[str], None] = print,
    ):
        self.session, self.player, self.timeout_s, self.say = session, player, timeout_s, say
        if hasattr(player, "known_plots"):  # the AI keeps clear of its own hidden plots
            player.known_plots = session.fair.secrets.plots
        self.last = time.monotonic()
        self._said = ""

    def step(self, wait_s: float = 0.0) -> int | None:
        """Take in what came and, on our turn, act. Returns None while the battle goes on,
        else the exit code: :data:`EXIT_ENDED` (0) when it ended, :data:`EXIT_FAULT` (1)
        when it had to stop (the machines' battles differ, or the other side broke the
        protocol), :data:`EXIT_LEFT` (3) when the other side left or did not answer for
        ``timeout_s`` seconds (the battle is kept in its log either way)."""
        session = self.session
        if session.poll(wait_s):
            self.last = time.monotonic()
        if session.status != self._said:
            self._said = session.status
            self.say(self._said)
        if session.fault:
            return EXIT_FAULT
        if session.left:
            return EXIT_LEFT
        b = session.battle
        if b is not None and b.finished:
            self.say(f"the battle is over: {b.state.reason}")
            return EXIT_ENDED
        fair = session.fair
        if b is not None and session.ready and fair.my_turn():
            try:
                session.act(fair.auto_action() or self.player.choose(b))
                self.last = time.monotonic()
            except IllegalAction as err:  # our own engine refuses what the AI chose
                self.say(f"the AI's action was refused: {err}; a listed action instead")
                for action in b.legal_actions():
                    try:
                        session.act(action)
                        break
                    except IllegalAction:
                        continue
        if time.monotonic() - self.last > self.timeout_s:
            self.say(
                f"the other side has not answered for {self.timeout_s:.0f} s: it is taken to "
                "have left; the battle is kept in its log"
            )
            session.leave("not answered in time")
            return EXIT_LEFT
        return None


def play(
    session: NetSession,
    player,
    timeout_s: float = 600.0,
    say: Callable[[str], None] = print,
) -> int:
    """Play ``session``'s side with ``player`` until the battle ends, stops or is left; the
    exit code of :meth:`Driver.step`. Waits on the connection, never spins."""
    driver = Driver(session, player, timeout_s, say)
    while True:
        code = driver.step(0.05)
        if code is not None:
            if code == EXIT_ENDED:
                time.sleep(0.3)  # our last answer on its way before the line closes
            return code
