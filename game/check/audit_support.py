"""The fire-support part of the battle audit (rules-decisions "Artillery, smoke and air
strikes"): what a referee checks of the ``plot``, ``artillery``, ``impact`` and ``air_strike``
lines of a full game's log, from the log alone."""

from __future__ import annotations

import math

from game import crt_result, read_cell


class SupportAudit:
    """Checks, line by line: a mission lands in a later turn than it was plotted, and only
    once; the deviation's shift is its dice's (direction 1 to the top edge, then clockwise in
    45-degree steps; 1D8/2 rounded up for artillery, the whole die for air strikes); no more
    markers than firing stands whose cohesion passed; each impact's markers following from its
    cell read as S (002/004 CRT notes: artillery and air strikes treat -S- and "-"... as the
    card says), a differential below the CRT giving S without dice, each marker attacking a
    stand at most once; an artillery stand that fired not moving in that turn; a strike whose
    arrival failed or that was shot down attacking nothing."""

    LINES = ("plot", "artillery", "impact", "air_strike")

    def __init__(self, start: dict, lowest_column: int = -3):
        self.plotted: dict[str, int] = {}  # mission -> turn it lands
        self.landed: set[str] = set()
        self.hit: set[tuple[str, str]] = set()  # (marker, target)
        self.fired: set[tuple[int, str]] = set()  # (turn, artillery stand)
        self.lowest = lowest_column

    def _markers(self, ev: dict, target: str, crt: str, markers, after: dict) -> list[str]:
        s, d, e = markers[target]
        # artillery and air strikes read -S- as S, and so 004's "-", which the log writes
        # as the card prints it (002/004 CRT notes; ruling R2)
        _, s, d, e2 = crt_result(read_cell("-S-" if crt == "-" else crt, "S"), s, d)
        markers[target] = (s, d, e or e2)
        want = dict(zip(("S", "D", "eliminated"), markers[target], strict=True))
        if after != want:
            return [f"seq {ev['seq']}: {ev['event']} left {after} on {target}, not {want}"]
        return []

    def _deviation(self, ev: dict, dev: dict | None, halved: bool) -> list[str]:
        if dev is None or dev.get("passed"):
            return []
        k, die = dev.get("direction_die"), dev.get("distance_die")
        if not (isinstance(k, int) and 1 <= k <= 8 and isinstance(die, int)):
            return [f"seq {ev['seq']}: a failed deviation roll without its dice"]
        dist = math.ceil(die / 2) if halved else die
        bearing = math.radians((k - 1) * 45.0)
        if (
            abs(dev["dx"] - math.sin(bearing) * dist) > 1e-5
            or abs(dev["dy"] - math.cos(bearing) * dist) > 1e-5
        ):
            return [f'seq {ev["seq"]}: the deviation is not {dist}" towards direction {k}']
        return []

    def line(self, ev: dict, markers) -> list[str]:
        """The problems of one fire-support line."""
        out: list[str] = []
        name, seq = ev["event"], ev["seq"]
        if name == "plot":
            if ev["lands_turn"] <= ev["turn"]:
                out.append(f"seq {seq}: mission {ev['mission']} lands in an earlier turn")
            self.plotted[ev["mission"]] = ev["lands_turn"]
        elif name in ("artillery", "air_strike"):
            mid = ev["mission"]
            if mid in self.landed:
                out.append(f"seq {seq}: mission {mid} lands twice")
            self.landed.add(mid)
            if mid in self.plotted and self.plotted[mid] != ev["turn"]:
                out.append(f"seq {seq}: mission {mid} lands in turn {ev['turn']}, not as plotted")
            out += self._deviation(ev, ev.get("deviation"), halved=name == "artillery")
        if name == "artillery":
            passed = [f for f, r in ev["cohesion"].items() if r.get("passed")]
            if len(ev["markers"]) != len(passed):
                out.append(f"seq {seq}: {len(ev['markers'])} markers from {len(passed)} stands")
            self.fired |= {(ev["turn"], f) for f in ev["cohesion"]}
        elif name == "impact":
            key = (ev["marker"], ev["target"])
            if key in self.hit:
                out.append(f"seq {seq}: marker {ev['marker']} attacks {ev['target']} twice")
            self.hit.add(key)
            if ev["differential"] < self.lowest and (ev["crt"] != "S" or ev["combat"]):
                out.append(f"seq {seq}: an attack below the CRT is not a plain S")
            out += self._markers(ev, ev["target"], ev["crt"], markers, ev["target_markers_after"])
        elif name == "air_strike":
            s = d = down = False  # shot down on the way in (002 air strike step 4)
            for a in ev["aa"]:
                if a.get("leg") == "in" and a.get("crt"):
                    _, s, d, e = crt_result(read_cell(a["crt"], "-"), s, d)
                    down = down or e
            if ev["target"] is not None and (not ev["arrival"]["passed"] or down):
                out.append(f"seq {seq}: a strike that did not arrive attacks {ev['target']}")
            if ev["target"] is not None:
                out += self._markers(
                    ev, ev["target"], ev["crt"], markers, ev["target_markers_after"]
                )
        return out

    def move(self, ev: dict) -> list[str]:
        """An artillery stand that fired does not move in that turn (002 check list note 2)."""
        if (ev["turn"], ev["stand"]) in self.fired:
            return [f"seq {ev['seq']}: {ev['stand']} fired as artillery and moves"]
        return []
