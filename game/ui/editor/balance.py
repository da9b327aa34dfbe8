"""The map editor's balance views run in a background thread: what a side sees from its
edge and the movement points it needs, computed by :mod:`game.editor.analysis` on a copy of the
scenario (GEOS geometries must not be shared between threads)."""

from __future__ import annotations

import json
import threading


class BalanceViewsMixin:
    """Starting, polling and cancelling the editor screen's balance view."""

    # ---------------------------------------------------------------- balance views

    def show_view(self, name: str) -> None:
        """Compute and show a balance view in the background: "sight A", "cost B", or "off"."""
        self.overlay_name = name
        self.overlay = None
        if name == "off":
            return
        from game import ScenarioError, parse_scenario

        try:
            sc = parse_scenario(json.loads(json.dumps(self.doc.raw)), self.doc.name, self.doc.data)
        except ScenarioError:
            self.say("The balance views need a valid scenario: mend its problems.", error=True)
            self.overlay_name = "off"
            return
        what, side = name.split()
        job = {
            "cancel": False,
            "result": None,
            "error": None,
            "name": name,
            "version": self.doc.history.version,
        }

        def work():
            from game.editor import analysis

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
        threading.Thread(target=work, daemon=True).start()
        self.say(f"Computing the {what} view of side {side}...")

    def _poll_view(self) -> None:
        job = self._overlay_job
        if not job or (job["result"] is None and job["error"] is None):
            return
        self._overlay_job = None
        if job["error"] is not None:
            self.say(f"The view could not be computed: {job['error']}", error=True)
            return
        if job["name"] == self.overlay_name:
            self.overlay = (job["name"], job["result"], None)
            self.say(self._view_summary(job["name"], job["result"]))

    @staticmethod
    def _view_summary(name: str, result) -> str:
        from game.ui.editor.views import view_summary

        return view_summary(name, result)
