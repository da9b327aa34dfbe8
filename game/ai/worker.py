"""The AI thinking in a process of its own, so that the window's thread keeps the interpreter.

A thread that thinks in the window's process holds the interpreter lock (the GIL) for most of
each switch interval: the window's frames then wait for it (p99 26-29 ms, up to 109 ms while
the AI thought). :class:`ThinkingProcess` keeps one process (started with
``spawn``: nothing of the window's SDL state is copied) holding a replica of the battle,
rebuilt from its scenario and seed and brought up to date with the actions applied since, and
asks it to think with the player sent along (pickled, its memory and its random stream
included) and sent back changed. The replica is checked against the battle's state hash
before every decision, so the process thinks on exactly the battle on screen, and the player
comes back as a thread would have left it: the same seed gives the same battle.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import threading
import weakref

from game import Action
from game.lifeline import die_with_parent, no_ctrl_c


class OutOfStep(RuntimeError):
    """The process's replica of the battle is not the battle on screen (a battle whose dice
    are not its seed's, or an engine that does not replay to the same state)."""


def _serve(conn, parent_pid: int | None = None) -> None:
    """The thinking process: answers ``ThinkingProcess`` requests until the pipe closes, and
    ends quietly when the window's process dies (a kill -9 of ``play`` while the AI
    thought made the answer's send raise BrokenPipeError, printed as a traceback)."""
    if parent_pid is not None:  # not PDEATHSIG: the thread that starts it may end first
        die_with_parent(parent_pid, pdeathsig=False)
    try:
        _answer(conn)
    except (EOFError, OSError):  # the pipe broke: nobody is left to answer
        return


def _answer(conn) -> None:
    """Answer requests on ``conn`` until it closes (see :func:`_serve`). Raises EOFError or
    OSError when the pipe breaks."""
    # lazy: a worker process loads the engine after it starts
    import game.ai.scripted  # noqa: F401  (all it needs, imported before the first request)
    from game import Battle, parse_scenario

    battles: dict[int, Battle] = {}
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        token, raw, path, seed, auto_pass, known, new, want, player = msg
        try:
            if raw is not None:
                sc = parse_scenario(raw, path)
                battles = {token: Battle(sc, seed, auto_pass=auto_pass)}
            battle = battles.get(token)
            if battle is None or len(battle.actions) != known:
                conn.send(("resend", None, None))
                continue
            for a in new:
                battle.apply(a)
            if battle.state_hash() != want:
                battles.pop(token, None)
                conn.send(("out of step", None, None))
                continue
            ai = pickle.loads(player)
            action = ai.choose(battle)
            conn.send(("ok", action, pickle.dumps(ai)))
        except (BrokenPipeError, EOFError):
            raise  # the window's process is gone: _serve ends quietly
        except Exception as err:  # said to the window, which thinks in its own thread
            battles.pop(token, None)
            conn.send(("failed", repr(err), None))


class ThinkingProcess:
    """One process that thinks for the AI players of the battles on screen (one at a time).

    ``choose(player, battle)`` blocks the calling thread (not the interpreter: it waits on a
    pipe) until the process has chosen, and returns the action; ``player`` is then in the
    state the choice left it in, as if it had thought in this process. Raises OutOfStep when
    the replica cannot be brought to the battle's state, RuntimeError when the process fails
    (the caller may think in its own thread instead), ValueError as ``player.choose`` does
    for a finished battle. Thread-safe: one decision at a time."""

    def __init__(self):
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self._proc = ctx.Process(
            target=_serve, args=(child, os.getpid()), daemon=True, name="hulldown-ai"
        )
        with no_ctrl_c():  # Ctrl-C is the window's to handle, never a traceback in here
            self._proc.start()
        child.close()
        self._lock = threading.Lock()
        self._tokens: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._next = 0
        self._synced: tuple[int, int] | None = None  # (battle token, actions the replica has)

    def alive(self) -> bool:
        """Whether the process still runs."""
        return self._proc.is_alive()

    def choose(self, player, battle) -> Action:
        """The player's action for the battle's decision, thought in the process."""
        if battle.finished:
            raise ValueError("the battle is over")
        with self._lock:
            token = self._tokens.get(battle)
            if token is None:
                self._next += 1
                token = self._tokens[battle] = self._next
            want = battle.state_hash()
            blob = pickle.dumps(player)
            synced = self._synced
            fresh = synced is None or synced[0] != token or synced[1] > len(battle.actions)
            for _ in range(2):
                start = 0 if fresh else synced[1]
                raw = battle.scenario.raw if fresh else None
                path = battle.scenario.path
                seed, auto = battle.seed, battle.auto_pass
                msg = (token, raw, path, seed, auto, start, battle.actions[start:], want, blob)
                try:
                    self._conn.send(msg)
                    status, answer, state = self._conn.recv()
                except (EOFError, OSError) as err:
                    self._synced = None
                    raise RuntimeError(f"the AI's process stopped: {err}") from err
                if status == "resend" and not fresh:
                    fresh = True  # it lost the battle: send it whole
                    continue
                if status != "ok":
                    self._synced = None
                    if status == "failed" and "battle is over" in str(answer):
                        raise ValueError(answer)
                    raise OutOfStep(f"the AI's process: {status} {answer or ''}".strip())
                self._synced = (token, len(battle.actions))
                player.__dict__.update(pickle.loads(state).__dict__)
                return answer
            raise OutOfStep("the AI's process could not rebuild the battle")

    def close(self) -> None:
        """Stop the process (it also stops with this one: it is a daemon)."""
        with contextlib.suppress(OSError):
            self._conn.send(None)
        self._proc.join(timeout=2)
        if self._proc.is_alive():
            self._proc.terminate()


_shared: ThinkingProcess | None = None
_shared_lock = threading.Lock()


def thinking_process() -> ThinkingProcess:
    """The process the battle screen's AI players think in: started at the first call (about
    half a second), started again if it has stopped. Raises OSError when no process can be
    started."""
    global _shared
    with _shared_lock:
        if _shared is None or not _shared.alive():
            _shared = ThinkingProcess()
        return _shared
