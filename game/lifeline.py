"""Worker processes that die with the process that started them.

``hulldown balance`` plays battles on a pool of processes and the battle screen's AI thinks
in a process of its own (``game.ai.worker``). Without it, killing ``balance`` with SIGTERM,
SIGHUP or SIGKILL left its two workers playing on for 25 s or more, Ctrl-C printed a
traceback from every process, and a ``play`` killed while its AI thought left the AI's
process to print a BrokenPipeError. The helpers here:

- :func:`die_with_parent`, run first in a worker: Ctrl-C (SIGINT, sent by a terminal to the
  whole process group) is left to the parent, and the worker ends at once when its parent
  dies, by ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` on Linux and, everywhere, a watch thread
  that polls ``os.getppid()`` twice a second;
- :func:`no_ctrl_c`, around starting workers, so a Ctrl-C before their first line of Python
  cannot raise KeyboardInterrupt inside them (an ignored signal stays ignored across exec);
- :func:`stopping_signals`, in the parent: SIGTERM and SIGHUP raise :class:`Stopped`, so the
  parent unwinds (a pool's ``with`` block terminates its workers) and exits with one line.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
from collections.abc import Iterator

__all__ = ["Stopped", "die_with_parent", "exit_code", "no_ctrl_c", "stopping_signals"]

WATCH_S = 0.5
"""Seconds between two looks at the parent by the watch thread."""
_PR_SET_PDEATHSIG = 1  # linux/prctl.h


class Stopped(Exception):
    """The process was asked to stop by a signal (``signum``: SIGTERM, SIGHUP or SIGINT)."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def exit_code(signum: int) -> int:
    """The exit status of a command stopped by a signal, as a shell reports it: 128 plus the
    signal's number (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP)."""
    return 128 + signum


def die_with_parent(parent_pid: int, pdeathsig: bool = True) -> None:
    """In a worker process: ignore Ctrl-C (the parent handles it and ends the worker), and
    end this process (``os._exit``, quietly) as soon as the process ``parent_pid`` is gone.
    ``pdeathsig`` asks Linux to kill the worker the moment its parent dies; leave it False
    when the worker may have been started by a thread that ends before the parent does (the
    signal is sent when that thread ends). Never raises."""
    with contextlib.suppress(ValueError, OSError):  # not the main thread: nothing to change
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if pdeathsig and sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent_pid:
        os._exit(0)  # the parent died before the line above
    threading.Thread(target=_watch, args=(parent_pid,), name="parent-watch", daemon=True).start()


def _watch(parent_pid: int) -> None:
    """Poll the parent; end this process when it is gone (its children go to another)."""
    stop = threading.Event()
    while not stop.wait(WATCH_S):
        if os.getppid() != parent_pid:
            os._exit(0)


@contextlib.contextmanager
def no_ctrl_c() -> Iterator[None]:
    """Ignore SIGINT while the block starts worker processes (they inherit it ignored and keep
    it so until :func:`die_with_parent`), then put the parent's handler back. A no-op outside
    the main thread."""
    try:
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


@contextlib.contextmanager
def stopping_signals() -> Iterator[None]:
    """While the block runs, SIGTERM and SIGHUP (where there is one) raise :class:`Stopped`
    in the main thread, so the parent unwinds, ends its workers and says so; the old handlers
    are put back after. A no-op outside the main thread."""

    def stop(signum, frame):
        raise Stopped(signum)

    wanted = [signal.SIGTERM] + ([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])
    old = {}
    try:
        for s in wanted:
            old[s] = signal.signal(s, stop)
    except ValueError:  # not the main thread
        pass
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
