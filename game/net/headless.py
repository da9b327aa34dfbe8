"""A network battle played by the AI on this machine, with no window: ``hulldown host ...
--ai`` and ``hulldown join ... --ai`` (#45), for tests and outside checks."""

from __future__ import annotations

import time
from collections.abc import Callable

from game import IllegalAction
from game.net.session import NetSession

EXIT_ENDED, EXIT_FAULT, EXIT_LEFT = 0, 1, 3


def play(
    session: NetSession,
    player,
    timeout_s: float = 600.0,
    say: Callable[[str], None] = print,
) -> int:
    """Play ``session``'s side with ``player`` (an AI: ``choose(battle) -> action``) until the
    battle ends. Returns :data:`EXIT_ENDED` (0) when it ends, :data:`EXIT_FAULT` (1) when it
    had to stop (the machines' battles differ, or the other side broke the protocol), and
    :data:`EXIT_LEFT` (3) when the other side left or did not answer for ``timeout_s``
    seconds (the battle is kept in its log either way)."""
    last = time.monotonic()
    said = ""
    refused_at = None
    while True:
        if session.poll(0.05):
            last = time.monotonic()
        if session.status != said:
            said = session.status
            say(said)
        if session.fault:
            return EXIT_FAULT
        if session.left:
            return EXIT_LEFT
        b = session.battle
        if b is not None and b.finished:
            time.sleep(0.3)  # our last answer on its way before the line closes
            say(f"the battle is over: {b.state.reason}")
            return EXIT_ENDED
        fair = session.fair
        if fair.refused and refused_at != len(b.actions):
            refused_at = len(b.actions)
            say(f"the other side refused action {len(b.actions)}: {fair.refused}")
        if b is not None and session.connected and fair.my_turn():
            try:
                if refused_at == len(b.actions):  # the AI's choice was refused: a safe one
                    action = b.legal_actions()[0]
                else:
                    action = fair.auto_action() or player.choose(b)
                session.act(action)
                last = time.monotonic()
            except IllegalAction as err:
                say(f"this side's action was refused here: {err}")
                refused_at = len(b.actions)
        if time.monotonic() - last > timeout_s:
            say(
                f"the other side has not answered for {timeout_s:.0f} s: it is taken to have "
                "left; the battle is kept in its log"
            )
            session.leave("not answered in time")
            return EXIT_LEFT
