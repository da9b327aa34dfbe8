"""The battle screen's work off the frame: a slow question to the engine (every legal
shot of the side to act is a whole sight matrix, ~20 ms at 120 stands) is not asked in the
frame where an action lands, but in a worker thread started on the frame after it."""

from __future__ import annotations

import threading
from collections.abc import Callable


class OffFrame:
    """One slot of work off the frame for the battle screen (its ``work``): :meth:`off_frame`
    asks, :meth:`poll_off_frame` (every frame) starts and finishes it, :meth:`settle_work`
    waits for it before the battle changes. ``battle`` is the battle whose twin answers
    :meth:`ask_twin`; ``on_error(text)`` shows a worker's error as the screen's message."""

    def __init__(self, battle, on_error: Callable[[str], None]):
        self.battle = battle
        self.on_error = on_error
        self._work = None  # (work, done) waiting for the frame after an action lands
        self._worker: threading.Thread | None = None
        self._worked: tuple | None = None  # (done, finished) while the worker runs
        self._landed = False  # an action landed in this frame
        self._twin = None  # the battle's twin that the worker asks (Battle.twin)

    def ask_twin(self, question: str, *args):
        """The work of asking ``question`` (a Battle method's name) of the battle's twin, in
        the worker: the twin is built there the first time and follows the battle's state,
        which does not change while the worker runs (:meth:`settle_work`)."""
        battle = self.battle

        def work():
            if self._twin is None:
                self._twin = battle.twin()
            self._twin.follow(battle)
            return getattr(self._twin, question)(*args)

        return work

    def off_frame(self, work, done) -> None:
        """Ask ``work()`` (a read-only question to the engine) outside the frame where an
        action lands: it starts in a worker thread on the next frame, and ``done(result)`` is
        called in the frame loop when it has finished (``done(None)`` if it raised, with the
        error shown as the screen's message). A newer request replaces one not yet started."""
        self._work = (work, done)

    def working_off_frame(self) -> bool:
        """Whether work is waiting or running (frames must come fast until it is done)."""
        return bool(self._work or self._worker)

    def poll_off_frame(self) -> None:
        """Once a frame: hand over a finished worker's result, or start waiting work unless an
        action landed in this very frame."""
        if self._worker is not None and not self._worker.is_alive():
            self._finish_work()
        elif self._work is not None and self._worker is None and not self._landed:
            self._start_work()
        self._landed = False

    def settle_work(self, landing: bool = False) -> None:
        """Wait for a running worker and hand its result over, and drop work not yet started
        (the battle is about to change, or the screen closes). ``landing``: an action lands
        in this frame, so new work waits for the next one."""
        self._work = None
        worker = self._worker
        if worker is not None:
            worker.join()
            self._finish_work()
        if landing:
            self._landed = True

    def _start_work(self) -> None:
        work, done = self._work
        self._work = None
        box: dict = {}

        def run():
            try:
                box["result"] = work()
            except Exception as err:  # shown as the screen's message, never lost
                box["error"] = err

        def finished():
            if "error" in box:
                self.on_error(f"could not work it out: {box['error']}")
                return None
            return box.get("result")

        self._worker = threading.Thread(target=run, name="off-frame", daemon=True)
        self._worker.start()
        self._worked = (done, finished)

    def _finish_work(self) -> None:
        self._worker = None
        if self._worked is not None:
            done, finished = self._worked
            self._worked = None
            done(finished())
