"""The map editor's balance views run in a background thread: what a side sees from its
edge and the movement points it needs, computed by :mod:`game.editor.analysis` on a copy of the
scenario (GEOS geometries must not be shared between threads)."""

from __future__ import annotations

import json
import threading

from game import ScenarioError, parse_scenario
from game.editor import analysis
from game.ui.editor.views import view_summary


class BalanceViews:
    """The map editor's balance views (its ``views``): a sight or movement-cost view of one
    side computed in a background thread (``show_view``) and polled every frame. ``overlay``
    is the view shown ((name, result, drawing cache) or None), ``overlay_name`` the one asked
    for ("off": none), ``overlay_stale`` why the view shown is not of the map as it stands.
    It reads the screen's document and ``dragging()``, and says what it does with ``say``."""

    def __init__(self, screen):
        self.screen = screen
        self.overlay = None
        self.overlay_name = "off"
        self.overlay_stale: str | None = None
        self._overlay_job: dict | None = None
        self._overlay_version = -1

    @property
    def computing(self) -> bool:
        """Whether a view is being computed."""
        return self._overlay_job is not None

    def stop(self, wait_s: float = 0.0) -> None:
        """Cancel the view being computed, waiting up to ``wait_s`` seconds for its thread
        (a thread still inside Shapely when the program ends aborts it)."""
        job, self._overlay_job = self._overlay_job, None
        if job:
            job["cancel"] = True
            if wait_s and job.get("thread") is not None:
                job["thread"].join(timeout=wait_s)

    def drop(self) -> None:
        """Another map is shown: no view, none being computed."""
        self.stop()
        self.overlay = None
        self.overlay_name = "off"

    def show_view(self, name: str, keep: bool = False) -> None:
        """Compute and show a balance view in the background: "sight A", "cost B", or "off".
        With ``keep`` (a recomputation after an edit) the view shown stays, marked out of
        date, until the new one is ready; a scenario with problems leaves it marked so."""
        self.overlay_name = name
        if not keep:
            self.overlay = None
        self.overlay_stale = None
        if name == "off":
            self.overlay = None
            return
        version = self.screen.doc.history.version
        try:
            sc = parse_scenario(
                json.loads(json.dumps(self.screen.doc.raw)),
                self.screen.doc.name,
                self.screen.doc.data,
            )
        except ScenarioError:
            if keep and self.overlay is not None:
                self._overlay_version = version  # not tried again until the next change
                self.overlay_stale = "out of date: mend the scenario's problems to recompute it"
                return
            self.screen.say(
                "The balance views need a valid scenario: mend its problems.", error=True
            )
            self.overlay_name = "off"
            return
        what, side = name.split()
        job = {"cancel": False, "result": None, "error": None, "name": name, "version": version}

        def work():
            try:
                cancel = lambda: job["cancel"]  # noqa: E731
                if what == "sight":
                    job["result"] = analysis.sight_coverage(sc, side, cancel=cancel)
                else:
                    job["result"] = analysis.movement_cost_field(sc, side, cancel=cancel)
            except Exception as err:  # shown to the user; the editor goes on
                job["error"] = err

        if self._overlay_job:
            self._overlay_job["cancel"] = True
        self._overlay_job = job
        self._overlay_version = version
        if keep:
            self.overlay_stale = "out of date: recomputing it after the change..."
        job["thread"] = threading.Thread(target=work, daemon=True)
        job["thread"].start()
        if not keep:
            self.screen.say(f"Computing the {what} view of side {side}...")

    def poll(self) -> None:
        """Take a finished view; start it again when the map changed since (not during a
        drag: once it ends)."""
        job = self._overlay_job
        if job and (job["result"] is not None or job["error"] is not None):
            self._overlay_job = None
            if job["error"] is not None:
                if not job["cancel"]:
                    self.screen.say(f"The view could not be computed: {job['error']}", error=True)
                    self.overlay_stale = "out of date: it could not be computed again"
            elif job["name"] == self.overlay_name and job["version"] == self._overlay_version:
                self.overlay = (job["name"], job["result"], None)
                self.overlay_stale = None
                self.screen.say(self._view_summary(job["name"], job["result"]))
        if (
            self.overlay_name != "off"
            and self.screen.doc.history.version != self._overlay_version
            and not self.screen.dragging()
        ):
            self.show_view(self.overlay_name, keep=True)

    @staticmethod
    def _view_summary(name: str, result) -> str:
        return view_summary(name, result)
