"""The elite's continuations spread over worker processes, one per core.

Each worker (started with ``spawn``: nothing of a window's SDL state is copied) holds a
:class:`game.rules.sandbox.Sandbox` of the battle's scenario, built when the scenario is first
sent, and plays the rounds of continuations it is handed (:func:`game.ai.search.play_rounds`).
A decision's sample seeds are dealt out round by round (worker ``w`` of ``n`` plays seeds
``w, w + n, ...``), so each worker plays every candidate on the same dice of its rounds; the
rounds come back in seed order. A round's scores depend only on the view, the actions and its
seed, never on which worker played it: the same seeds give the same choice with any number
of workers (a deadline that cuts rounds short aside).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import threading
import weakref

from game import Battle, Sandbox, parse_scenario, seat_view
from game.ai.search import LocalRollouts, horizon, play_rounds
from game.lifeline import die_with_parent, no_ctrl_c


def _serve(conn, parent_pid: int) -> None:
    """A worker: answers rounds until the pipe closes or the parent dies."""
    die_with_parent(parent_pid, pdeathsig=False)
    sandbox, known = None, None
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        key, raw, path, seed, auto, view, side, actions, seeds, weights, stop, make, deadline = msg
        try:
            if raw is not None or sandbox is None or known != key:
                sc = parse_scenario(raw, path)
                sandbox, known = Sandbox(Battle(sc, seed, auto_pass=auto)), key
            rounds = play_rounds(
                sandbox,
                pickle.loads(view),
                side,
                actions,
                seeds,
                weights,
                stop,
                make,
                deadline,
            )
            conn.send(("ok", rounds))
        except (BrokenPipeError, EOFError):
            return
        except Exception as err:  # said to the AI, which then plays in its own process
            sandbox = None
            conn.send(("failed", repr(err)))


class RolloutPool:
    """Worker processes that play the elite's continuations (``workers``, default one per
    core). ``run`` has :class:`game.ai.search.LocalRollouts`'s signature and answers the
    same rounds. Raises RuntimeError from ``run`` when a worker fails or stops (the caller
    may play in its own process instead). Thread-safe: one decision at a time."""

    def __init__(self, workers: int | None = None):
        n = max(1, workers or os.cpu_count() or 1)
        ctx = multiprocessing.get_context("spawn")
        self._conns, self._procs = [], []
        with no_ctrl_c():
            for i in range(n):
                parent, child = ctx.Pipe()
                p = ctx.Process(
                    target=_serve,
                    args=(child, os.getpid()),
                    daemon=True,
                    name=f"hulldown-lookahead-{i}",
                )
                p.start()
                child.close()
                self._conns.append(parent)
                self._procs.append(p)
        self._known: list[object] = [None] * n  # the scenario each worker holds
        self._lock = threading.Lock()
        self._keys: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # battle -> key
        self._next = 0

    def __getstate__(self):
        raise TypeError("a RolloutPool stays in the process that started it")

    @property
    def workers(self) -> int:
        """How many worker processes play."""
        return len(self._conns)

    def prepare(self, battle) -> None:
        """Have every worker build its sandbox of ``battle``'s scenario now (about a second
        each the first time), so that the first decision's budget is spent thinking, not
        starting. Raises RuntimeError as :meth:`run` does."""
        key = self._keys.get(battle)
        if key is not None and all(k == key for k in self._known):
            return
        self.run(battle, battle.to_act, [], list(range(self.workers)), (1.0, 1.0), None, None)

    def run(self, battle, side, actions, seeds, weights, make_base, deadline) -> list[list]:
        """The rounds of :func:`game.ai.search.play_rounds` for ``seeds``, played by the
        workers (``make_base``, a module-level function, is sent by name and made there)."""
        view = pickle.dumps(seat_view(battle.state, side))
        stop = horizon(battle)
        key = self._keys.get(battle)
        if key is None:
            self._next += 1
            key = self._keys[battle] = self._next
        n = len(self._conns)
        with self._lock:
            sent = []
            for w, conn in enumerate(self._conns):
                mine = seeds[w::n]
                if not mine:
                    continue
                fresh = self._known[w] != key
                raw = battle.scenario.raw if fresh else None
                msg = (
                    key,
                    raw,
                    battle.scenario.path,
                    battle.seed,
                    battle.auto_pass,
                    view,
                    side,
                    list(actions),
                    mine,
                    weights,
                    stop,
                    make_base,
                    deadline,
                )
                try:
                    conn.send(msg)
                except OSError as err:
                    raise RuntimeError(f"a look-ahead worker stopped: {err}") from err
                self._known[w] = key
                sent.append(w)
            parts = {}
            for w in sent:
                try:
                    status, answer = self._conns[w].recv()
                except (EOFError, OSError) as err:
                    self._known[w] = None
                    raise RuntimeError(f"a look-ahead worker stopped: {err}") from err
                if status != "ok":
                    self._known[w] = None
                    raise RuntimeError(f"a look-ahead worker failed: {answer}")
                parts[w] = answer
        rounds = []
        for k in range(len(seeds)):  # back in seed order, up to the first round missing
            w, j = k % n, k // n
            if w not in parts or j >= len(parts[w]):
                break
            rounds.append(parts[w][j])
        return rounds

    def close(self) -> None:
        """Stop the workers (they also stop with this process: they are daemons)."""
        for conn in self._conns:
            with contextlib.suppress(OSError):
                conn.send(None)
        for p in self._procs:
            p.join(timeout=2)
            if p.is_alive():
                p.terminate()


WORKERS_ENV = "HULLDOWN_LOOKAHEAD_WORKERS"
"""The environment variable that sets how many worker processes play the continuations: a
number (0: none, all in the deciding process, as the tests play), or unset for one per core."""

LOCAL = LocalRollouts()
"""Continuations played in this process (no workers, or none could be started)."""
_POOL: list = []  # this process's RolloutPool, started at the first look-ahead that wants it


def rollout_runner():
    """Where this process plays the look-ahead's continuations (kept out of the AI's own
    state, which is pickled to the thinking process at every decision): a
    :class:`game.ai.search_pool.RolloutPool` of one worker per core (or as many as
    :data:`WORKERS_ENV` says), started at the first call; this process itself when that is 0
    or no worker can be started. Never raises."""
    want = os.environ.get(WORKERS_ENV, "").strip()
    n = int(want) if want.isdigit() else (os.cpu_count() or 1)
    if n <= 0:
        return LOCAL
    if not _POOL:
        try:
            _POOL.append(RolloutPool(n))
        except OSError:
            _POOL.append(LOCAL)
    return _POOL[0]
