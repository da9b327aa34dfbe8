"""Reads battle logs (hulldown-log/1, ../shared/event-log.md) and counts, for each row of
tools/coverage/coverage_rows.py, how often the rule happened, keeping the first line that showed it.

    scan = Scan("wwii-47-breakthrough veteran,veteran seed 3")
    for event in events:              # dicts, in file order, the start line first
        scan.line(event)
    tally = scan.finish()             # Tally: counts, examples and facts

Units as the log's: inches, degrees, movement points. The start line gives each stand's unit
row (the full games write ``units``; the introductory games' rows come from the rules data) and
the terrain, whose ground under each step of a move is read with the engine's own
:class:`game.Table`.
"""

from __future__ import annotations

import json
import math

from coverage_facts import (
    EPS,
    MODERN,
    SIGHT_PER_LEVEL,
    WWII,
    StandInfo,
    Tally,
    above_nine,
    below_crt,
    path_length,
    range_key,
    rules_data,
    table_of,
    unit_facts,
    whys,
)

STOPS = {
    "opportunity_fire": "of-stop",
    "overlap": "stop-overlap",
    "mp": "stop-mp",
    "enemy": "stop-enemy",
}
MARKER_OUTCOMES = {
    "recovered": "mr-recovered",
    "rallied": "mr-rallied",
    "panic": "mr-panic",
    "none": "mr-none",
}


NOT_COUNTED = {
    "action": "the action as given; what it did is in the lines after it",
    "pass": "a side passing counts no rule",
    "end_turn": "the turn's end; marker removal has a line of its own",
    "network": "how a network battle was played, not a rule",
    "reveal": "a hidden plot shown as it lands; its effect is the impact or air strike line",
}
"""Log line kinds (``game.rules.events.EVENTS``) the scan reads no rule from, and why; every
other kind has a handler in :class:`Scan` (tests/check/test_rules_coverage.py holds the two
to the events' list, so a new kind of line is either counted or said to count nothing)."""


class Scan:
    """Counts the rules one battle's log shows (see the module's docstring). ``label`` names the
    battle in the examples; ``facts`` are facts known from outside the log (the scenario gives
    a side air support)."""

    def __init__(self, label: str, facts=()):
        self.label = label
        self.tally = Tally(facts=set(facts))
        self.rs = ""
        self.turns = 0
        self.start: dict = {}
        self.stands: dict[str, StandInfo] = {}
        self.on_table: set[str] = set()
        self.entry_turn: dict[str, int] = {}
        self.fired: dict[str, int] = {}  # stand -> last turn it fired
        self.fire1: dict[str, int] = {}
        self.twice: set[tuple[str, int]] = set()
        self.moved: dict[str, int] = {}  # stand -> last turn it moved
        self.of_pending: dict[str, list] = {}  # mover -> [turn, the attack had an effect]
        self.handlers = {
            "start": self._start, "regroup": self._regroup, "initiative": self._initiative,
            "posture": self._posture, "orders": self._orders, "move_attempt": self._attempt,
            "move": self._move, "fire": self._fire, "marker_removal": self._markers,
            "resupply": self._resupply, "end": self._end, "plot": self._plot,
            "artillery": self._artillery, "impact": self._impact, "air_strike": self._air,
            "overrun": self._overrun, "close_assault": self._assault, "mount": self._mount,
            "unload": self._unload,
        }  # fmt: skip

    # ------------------------------------------------------------------ plumbing

    def hit(self, key: str, ev: dict) -> None:
        """Count row ``key`` for the line ``ev``."""
        self.tally.hit(key, self.label, ev.get("seq"))

    def line(self, ev: dict) -> None:
        """Read one log line (a dict)."""
        self._rolls(ev, ev, set())
        handler = self.handlers.get(ev.get("event"))
        if handler is not None:
            handler(ev)

    def finish(self) -> Tally:
        """The battle's tally, once every line is read (facts that need two of them added)."""
        f = self.tally.facts
        for rs in ("modern-full", "wwii-47"):
            if f"{rs}:air" in f and f"{rs}:flag:aa" in f:
                f.add(f"{rs}:air+aa")
        self.tally.battles += 1
        return self.tally

    def _rolls(self, ev: dict, x, seen: set) -> None:
        """Natural 1s and 20s in every roll of the line, and any ``moving_target`` code."""
        if isinstance(x, dict):
            roll = x.get("roll")
            if isinstance(roll, int) and {"total", "level", "passed"} <= x.keys():
                total, level = x.get("total"), x.get("level")
                if isinstance(total, int) and isinstance(level, int):
                    if roll == 1 and x["passed"] and total > level:
                        self.hit("nat1", ev)
                    if roll == 20 and not x["passed"] and total <= level:
                        self.hit("nat20", ev)
            if x.get("why") == "moving_target" and "moving" not in seen:
                seen.add("moving")
                self.hit("moving-target-code", ev)
            for v in x.values():
                self._rolls(ev, v, seen)
        elif isinstance(x, list):
            for v in x:
                self._rolls(ev, v, seen)

    def _stand(self, sid) -> StandInfo:
        return self.stands.get(sid, StandInfo())

    # ------------------------------------------------------------------ start and sequence

    def _start(self, ev: dict) -> None:
        rs = self.rs = ev.get("ruleset", "")
        self.start, self.turns = ev, ev.get("turns") or 0
        f = {f"ruleset:{rs}"} | ({"full"} if rs in ("modern-full", "wwii-47") else set())
        units = ev.get("units") or {}
        terrain = ev.get("terrain") or {}
        kinds = {(x.get("properties") or {}).get("terrain") for x in terrain.get("features", [])}
        levels = [
            int((x.get("properties") or {}).get("level") or 0) for x in terrain.get("features", [])
        ]
        sight = (ev.get("max_sighting_in") or 0) + SIGHT_PER_LEVEL.get(rs, 0) * max(
            levels, default=0
        )
        sides: dict[str, list[dict]] = {}
        for s in ev.get("stands", []):
            u = unit_facts(rs, s.get("unit"), units)
            sides.setdefault(s.get("side"), []).append(u)
            tl = s.get("tech_level")
            self.stands[s["id"]] = StandInfo(tl, u["cls"], u["speed"], u["flags"], u["reach"])
            f |= {f"class:{u['cls']}", f"{rs}:class:{u['cls']}"}
            f |= {f"flag:{x}" for x in u["flags"]} | {f"{rs}:flag:{x}" for x in u["flags"]}
            f |= {f"{rs}:tl{tl}"} if tl else set()
            f |= {"atgm"} if u["atgm"] else set()
            f |= {"carrier", f"{rs}:carrier"} if u["carrier"] else set()
            f |= {"personnel"} if u["personnel"] else set()
            f |= self._reach_facts(rs, tl, min(u["reach"], math.ceil(sight)))
            if s.get("on_table"):
                self.on_table.add(s["id"])
                self.entry_turn[s["id"]] = 0
            if s.get("carried_by"):
                self.hit("start-aboard", ev)
        if above_nine(list(sides.values())):
            f.add(f"{rs}:above9")
        if below_crt([u for us in sides.values() for u in us]):
            f.add(f"{rs}:below-crt")
        f |= {f"terrain:{k}" for k in kinds if k}
        roads = {"good_road", "poor_road", "track"} & kinds
        if roads:
            f |= {"road"} | {f"road+{c}" for c in "TWF" if f"class:{c}" in f}
        if "hill" in kinds:
            f.add("hill")
        if f"{rs}:flag:artillery" in f:
            f.add("smoke")
        self.tally.facts |= f

    @staticmethod
    def _reach_facts(rs: str, tl, reach: int) -> set[str]:
        """The range rows a stand of this ruleset and tech level could show within ``reach``
        whole inches (its longest gun range, capped at the sighting distance)."""
        try:
            chart = rules_data().range_chart(rs, tl)
        except KeyError:
            try:
                chart = rules_data().range_chart(rs, None)
            except KeyError:
                return set()
        return {range_key(rs, tl, chart.modifier(b)) for b in range(1, int(reach) + 1)}

    def _regroup(self, ev: dict) -> None:
        self.hit("regroup", ev)

    def _initiative(self, ev: dict) -> None:
        if ev.get("tiebreaks"):
            self.hit("initiative-tie", ev)

    def _posture(self, ev: dict) -> None:
        ids = ev.get("stands") or []
        if self.rs == "modern-full":
            posture = {"move": "002-tl1-move", "fire": "002-tl1-fire"}.get(ev.get("posture"))
            if posture:
                self.hit(posture, ev)
            return
        if not all(i in self.on_table for i in ids):
            self.hit("entry-posture", ev)
            return
        if ev.get("posture") not in (None, "move"):
            return
        self.hit("group-many" if len(ids) > 1 else "group-single", ev)
        if self.rs == "wwii-47":
            tls = {self._stand(i).tl for i in ids}
            for tl in (1, 2):
                if tl in tls:
                    self.hit(f"004-tl{tl}-move-posture", ev)

    def _end(self, ev: dict) -> None:
        if ev.get("winner") is None:
            self.hit("draw", ev)
        else:
            self.hit("win-early" if ev.get("turn", 0) < self.turns else "win-last", ev)

    # ------------------------------------------------------------------ movement

    def _orders(self, ev: dict) -> None:
        self.hit("orders", ev)
        if ev.get("orders") == 0:
            self.hit(f"ghq-lost:{self.rs}" if not ev.get("dice") else "orders-zero-roll", ev)

    def _attempt(self, ev: dict) -> None:
        per = [p for p in (ev.get("per_stand") or {}).values() if isinstance(p, dict)]
        codes = set().union(*(whys(p.get("mods")) for p in per)) if per else set()
        if ev.get("ordered"):
            self.hit("attempt-ordered", ev)
        else:
            self.hit("attempt-independent" if "independent" in codes else "attempt-recon", ev)
        for code, key in (
            ("hq", "attempt-hq"),
            ("suppressed", "attempt-sd"),
            ("terrain:barbed_wire", "attempt-wire"),
            ("terrain:minefield", "attempt-minefield"),
        ):
            if code in codes or (code == "suppressed" and "disorganized" in codes):
                self.hit(key, ev)
        passed = [bool(p.get("passed")) for p in per]
        if passed and not any(passed):
            self.hit("attempt-failed", ev)
        elif any(passed) and not all(passed):
            self.hit("stragglers", ev)
        if str(ev.get("group", "")).endswith("'"):
            self.hit("straggler-group", ev)

    def _move(self, ev: dict) -> None:
        sid, turn, rs = ev.get("stand"), ev.get("turn", 0), self.rs
        info = self._stand(sid)
        path = ev.get("path") or []
        length = path_length(path)
        self.hit("move", ev)
        if ev.get("entered"):
            self.hit("move-entered", ev)
            self.on_table.add(sid)
            self.entry_turn[sid] = turn
        elif turn > self.entry_turn.get(sid, 0):
            if rs == "wwii-47" and info.tl in (1, 2):
                self.hit(f"004-tl{info.tl}-moved", ev)
            if rs == "modern-full" and info.tl == 1:
                self.hit("002-tl1-moved", ev)
        first = self.moved.get(sid) != turn
        self.moved[sid] = turn
        if first and self.fired.get(sid) == turn and info.tl == 2:
            if rs == "wwii-47":
                self.hit("004-tl2-fire-move", ev)
                half = math.ceil(info.speed / 2 / 0.5) * 0.5  # 004 step 6, to the 0.5" step
                if (ev.get("mp_allowed") or 0) <= half + EPS:
                    self.hit("004-tl2-half", ev)
            elif rs in MODERN:
                self.hit("modern-tl2-fire-move", ev)
        if ev.get("stopped_by") in STOPS:
            self.hit(STOPS[ev["stopped_by"]], ev)
        coh = ev.get("cohesion")
        if isinstance(coh, dict):
            self.hit("of-goon-passed" if coh.get("passed") else "of-goon-failed", ev)
        pending = self.of_pending.pop(sid, None)
        if pending and pending[0] == turn and rs in WWII:
            if not pending[1] and coh is None:
                self.hit("of-no-effect-no-roll", ev)
            elif pending[1] and coh is not None:
                self.hit("of-effect-roll", ev)
        pt = ev.get("pass_through")
        if isinstance(pt, dict):
            self.hit("pass-through-passed" if pt.get("passed") else "pass-through-failed", ev)
        if length < EPS:
            self.hit("facing-only", ev)
            return
        if info.cls == "F":
            self.hit("foot-move", ev)
        self._ground(ev, info, path, length)

    def _ground(self, ev: dict, info: StandInfo, path, length: float) -> None:
        """The rows a move's steps show by the ground under their midpoints: road, hill, and
        for a wheeled stand clear ground and what it paid there."""
        st = self.start
        table = table_of(
            json.dumps(st.get("terrain") or {}, sort_keys=True),
            float((st.get("table") or {}).get("width", 0)),
            float((st.get("table") or {}).get("depth", 0)),
        )
        if table is None:
            return
        mids = [
            ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            for a, b in zip(path, path[1:], strict=False)
            if math.dist(a[:2], b[:2]) > EPS
        ]
        here = table.terrain_at_many(mids)
        if any(h.road for h in here):
            self.hit(f"road-{info.cls}", ev)
        hill = any(h.hill_zone for h in here)
        if hill:
            self.hit("move-hill", ev)
        clear = [set(h.areas) <= {"clear"} and h.road is None for h in here]
        if info.cls == "W" and any(clear):
            self.hit("wheeled-clear", ev)
            rate = rules_data().terrain["clear"].move_cost("W")
            spent = ev.get("mp_spent") or 0
            if all(clear) and not hill and length > 1 + EPS and spent >= rate * length - 0.01:
                self.hit("wheeled-clear-2mp", ev)

    # ------------------------------------------------------------------ fire

    def _crt(self, ev: dict, attack: dict) -> None:
        cell, result = attack.get("crt"), attack.get("result")
        if cell is None or result is None:
            return
        if self.rs == "wwii-47" and cell == "-S-":
            cell = "-"  # 004's "-" cell (RD: the log writes it as printed)
        self.hit(f"crt:{self.rs}:{cell}:{result}", ev)

    def _target(self, ev: dict, attack: dict) -> None:
        """The target's terrain effects of one attack's combat roll, and its CRT cell."""
        for code in whys((attack.get("combat") or {}).get("mods")):
            if code in ("hilltop", "wreck"):
                self.hit(code, ev)
            elif code.startswith("terrain:") and code != "terrain:smoke":
                self.hit(f"cover:{code.removeprefix('terrain:')}", ev)
        self._crt(ev, attack)

    def _fire(self, ev: dict) -> None:
        a, t, turn, rs = ev.get("attacker"), ev.get("target"), ev.get("turn", 0), self.rs
        kind = ev.get("kind")
        key = {"standard": "fire-standard", "opportunity": "opportunity", "covering": "covering"}
        if kind in key:
            self.hit(key[kind], ev)
        if kind == "opportunity":
            pend = self.of_pending.get(t)
            if not pend or pend[0] != turn:
                pend = self.of_pending[t] = [turn, False]
            pend[1] = pend[1] or ev.get("result") not in (None, "none")
        self.fired[a] = turn
        phase = ev.get("phase")
        if phase == "fire1":
            self.hit("fire1", ev)
            self.fire1[a] = turn
        elif phase == "fire2" and self.fire1.get(a) == turn and (a, turn) not in self.twice:
            self.twice.add((a, turn))
            self.hit("fire-twice", ev)
        elif phase == "fire3":
            self.hit("fire3", ev)
        coh = ev.get("cohesion") or {}
        if coh.get("passed") is False:
            self.hit("fire-cohesion-failed", ev)
        codes = whys(coh.get("mods")) | whys((ev.get("combat") or {}).get("mods"))
        if {"suppressed", "disorganized"} & whys(coh.get("mods")):
            self.hit("fire-sd", ev)
        if {"smoke", "terrain:smoke"} & codes:
            self.hit("smoke-fire", ev)
        weapon = ev.get("weapon")
        if weapon == "atgm":
            self.hit("atgm-fire", ev)
            if ev.get("depleted"):
                self.hit("atgm-depleted", ev)
        if ev.get("aspect") == "flank":
            self.hit("flank", ev)
        for m in (ev.get("combat") or {}).get("mods") or ():
            if isinstance(m, dict) and m.get("why") == "range" and isinstance(m.get("value"), int):
                self.hit(range_key(rs, self._stand(a).tl, m["value"]), ev)
        diff = ev.get("differential")
        if isinstance(diff, int) and diff > 9:
            self.hit("above9-modern" if rs in MODERN else "above9-wwii", ev)
        dc = ev.get("defense_class")
        if (weapon, dc) in (("ap", "armoured"), ("he", "personnel")):
            self.hit("ap-armoured" if weapon == "ap" else "he-personnel", ev)
        d, base = ev.get("defense"), ev.get("defense_base")
        if dc == "personnel" and isinstance(d, int) and isinstance(base, int) and d < base:
            self.hit("personnel-halved", ev)
        if "crt" in ev:
            self._target(ev, ev)

    def _markers(self, ev: dict) -> None:
        key = MARKER_OUTCOMES.get(ev.get("outcome"))
        if key:
            self.hit(key, ev)
        if ev.get("outcome") == "panic" and (ev.get("markers_after") or {}).get("eliminated"):
            self.hit("mr-panic-eliminated", ev)

    def _resupply(self, ev: dict) -> None:
        self.hit("resupply-passed" if ev.get("passed") else "resupply-failed", ev)

    # ------------------------------------------------------------------ the full games

    def _plot(self, ev: dict) -> None:
        if ev.get("kind") == "air":
            self.tally.facts.add(f"{self.rs}:air")
            self.hit(f"plot-air:{self.rs}", ev)
        elif ev.get("ammo") in ("he", "smoke"):
            self.hit(f"plot-{ev['ammo']}:{self.rs}", ev)

    def _artillery(self, ev: dict) -> None:
        rs = self.rs
        if ev.get("kind") in ("direct", "indirect"):
            self.hit(f"art-{ev['kind']}:{rs}", ev)
        if any(
            not c.get("passed") for c in (ev.get("cohesion") or {}).values() if isinstance(c, dict)
        ):
            self.hit(f"art-firer-failed:{rs}", ev)
        if ev.get("not_fired"):
            self.hit(f"art-not-fired:{rs}", ev)
        dev = ev.get("deviation")
        if isinstance(dev, dict):
            self.hit(f"dev-rolled:{rs}", ev)
            if dev.get("passed") is False:
                self.hit(f"deviated:{rs}", ev)
            if ev.get("kind") == "direct":
                self.hit(f"mortar-deviation:{rs}", ev)
        if ev.get("ammo") == "smoke" and ev.get("markers"):
            self.hit(f"smoke-fired:{rs}", ev)

    def _impact(self, ev: dict) -> None:
        if ev.get("cause") in ("landing", "entered"):
            self.hit(f"impact-{ev['cause']}:{self.rs}", ev)
        if ev.get("combat") is None:
            self.hit(f"impact-below-crt:{self.rs}", ev)
        self._target(ev, ev)

    def _air(self, ev: dict) -> None:
        rs = self.rs
        for e in ev.get("aa") or ():
            if not isinstance(e, dict):
                continue
            if "leg" in e:  # 002: each AA stand with range to a leg rolls to fire
                self.hit(f"aa-fire:{rs}", ev)
            if "crt" in e:
                self._crt(ev, e)
                if e.get("result") not in (None, "none"):
                    self.hit(f"aa-hit:{rs}", ev)
            if "arrival_mod" in e and not (e.get("cohesion") or {}).get("passed"):
                self.hit(f"flak-failed:{rs}", ev)
        arrival = ev.get("arrival") or {}
        for code in whys(arrival.get("mods")):
            if code.startswith("aa:"):
                self.hit(f"flak-mod:{rs}", ev)
        if not arrival.get("passed"):
            self.hit(f"air-cancelled:{rs}", ev)
            return
        down = (ev.get("aircraft_after") or {}).get("eliminated")
        target = ev.get("target")
        if down:
            self.hit(f"shot-down-{'out' if target is not None else 'in'}:{rs}", ev)
        if target is not None:
            self.hit(f"air-attack:{rs}", ev)
            if ev.get("friendly"):
                self.hit(f"air-friendly:{rs}", ev)
            self._target(ev, ev)
        elif not down:
            self.hit(f"air-no-target:{rs}", ev)
        dev = ev.get("deviation")
        if isinstance(dev, dict) and dev.get("passed") is False:
            self.hit(f"air-deviated:{rs}", ev)
        if ev.get("tie_die") is not None:
            self.hit(f"air-tie:{rs}", ev)

    def _overrun(self, ev: dict) -> None:
        rs = self.rs
        self.hit(f"overrun:{rs}", ev)
        droll = ev.get("defender_roll") or {}
        if droll.get("passed"):
            self.hit(f"ov-def-passed:{rs}", ev)
        codes = whys(droll.get("mods"))
        if "tracked" in codes:
            self.hit(f"ov-tracked:{rs}", ev)
        if "ifv_loaded" in codes:
            self.hit(f"ov-ifv:{rs}", ev)
        if self._stand(ev.get("mover")).cls == "W":
            self.hit(f"ov-wheeled:{rs}", ev)
        for field_, key in (
            ("attack_on_defender", "ov-def-failed"),
            ("attack_on_attacker", "ov-att-failed"),
        ):
            attack = ev.get(field_)
            if isinstance(attack, dict):
                self.hit(f"{key}:{rs}", ev)
                self._target(ev, attack)

    def _assault(self, ev: dict) -> None:
        rs = self.rs
        self.hit(f"ca:{rs}", ev)
        droll = ev.get("defender_roll")
        if droll is None:
            self.hit(f"ca-def-moving:{rs}", ev)
        elif not droll.get("passed"):
            self.hit(f"ca-def-failed:{rs}", ev)
        if isinstance(ev.get("defender_attack"), dict):
            self.hit(f"ca-def-reply:{rs}", ev)
            self._target(ev, ev["defender_attack"])
        for r in (ev.get("assaulter_rolls") or {}).values():
            if isinstance(r, dict) and not r.get("passed"):
                self.hit(f"ca-ass-failed:{rs}", ev)
        for attack in ev.get("assaulter_attacks") or ():
            self.hit(f"ca-ass-attack:{rs}", ev)
            flags = self._stand(attack.get("attacker")).flags
            codes = whys((attack.get("combat") or {}).get("mods"))
            for flag in ("engineer", "type_s", "cavalry"):
                if flag in flags:
                    self.hit(f"ca-{flag.replace('_', '-')}:{rs}", ev)
            for code in ("closing", "range"):
                if code in codes:
                    self.hit(f"ca-{code}:{rs}", ev)
            self._target(ev, attack)
        retreat = ev.get("retreat")
        if isinstance(retreat, list) and retreat:
            self.hit(f"ca-retreat:{rs}" if len(retreat) > 1 else f"ca-no-room:{rs}", ev)

    def _mount(self, ev: dict) -> None:
        self.hit("mount", ev)
        self.on_table.discard(ev.get("stand"))

    def _unload(self, ev: dict) -> None:
        if ev.get("cause") == "carrier_eliminated":
            lost = (ev.get("markers_after") or {}).get("eliminated")
            self.hit("rider-lost" if lost else "rider-survived", ev)
        else:
            self.hit("unload", ev)
        self.on_table.add(ev.get("stand"))


def scan_events(events, label: str, facts=()) -> Tally:
    """The tally of one battle's log lines (dicts, start line first)."""
    scan = Scan(label, facts)
    for ev in events:
        if isinstance(ev, dict):
            scan.line(ev)
    return scan.finish()


def scan_file(path, label: str | None = None, facts=()) -> Tally:
    """The tally of one battle-log file (JSON Lines); ``label`` defaults to the file's name."""
    with open(path, encoding="utf-8") as fh:
        return scan_events((json.loads(x) for x in fh if x.strip()), label or str(path), facts)
