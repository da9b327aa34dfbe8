"""An audit of a finished or running battle: the invariants a referee would check.

Used by the engine's fuzz test and ``tools/checks/fuzz_battles.py``: play random legal battles and
prove after each one that no rule was broken, from the battle's state and its own log.
"""

from __future__ import annotations

import math
import tempfile
from collections import defaultdict
from pathlib import Path

import shapely

from game import (
    OVERLAP_SQ_IN,
    RULESET_IDS,
    Battle,
    check_log,
    crt_result,
    footprints,
    read_cell,
    ruleset,
)
from game.ai import player_seed
from game.ai.random_player import RandomPlayer
from game.check.audit_support import SupportAudit


def overlapping_stands(battle) -> list[tuple[str, str]]:
    """Pairs of stands on the table whose footprints overlap (000 08.03.05)."""
    active = [s for s in battle.state.stands.values() if s.active]
    fps = footprints([s.pose() for s in active])
    if not len(fps):
        return []
    a, b = shapely.STRtree(fps).query(fps, predicate="intersects")
    return [
        (active[i].id, active[j].id)
        for i, j in zip(a, b, strict=True)
        if i < j and shapely.area(shapely.intersection(fps[i], fps[j])) > OVERLAP_SQ_IN
    ]


Markers = dict[str, tuple[bool, bool, bool]]
"""stand id -> (suppressed, disorganized, eliminated) as the audit replays the results."""


def _move_problems(
    ev: dict, markers: Markers, spent: dict[tuple[int, str], float], speeds: dict[str, float]
) -> list[str]:
    """A ``move`` line's problems: an eliminated stand moving, or a stand's movement points
    spent in the turn (summed into ``spent``, keyed by turn and stand) over its speed
    (movement points; 1e-6 allowed for rounding)."""
    problems = []
    if markers[ev["stand"]][2]:
        problems.append(f"seq {ev['seq']}: eliminated {ev['stand']} moves")
    key = (ev["turn"], ev["stand"])
    spent[key] += ev["mp_spent"]
    if spent[key] > speeds[ev["stand"]] + 1e-6:
        problems.append(
            f"seq {ev['seq']}: {ev['stand']} spent {spent[key]} MP, more "
            f"than its {speeds[ev['stand']]}"
        )
    return problems


def _fire_problems(
    ev: dict,
    markers: Markers,
    attacked: dict[tuple[int, str, str], set[int]],
    full: FullGameAudit | None,
) -> list[str]:
    """A ``fire`` line's problems: an eliminated stand firing, a target attacked by two
    attacks in one phase of a turn, and, when its cohesion test passed, markers after that do
    not follow from the combat results table's cell (the full game's cell for the attacker
    when ``full``); ``markers`` is updated with the result."""
    problems = []
    if markers[ev["attacker"]][2]:
        problems.append(f"seq {ev['seq']}: eliminated {ev['attacker']} fires")
    attacked[(ev["turn"], ev["phase"], ev["target"])].add(ev["attack"])
    if len(attacked[(ev["turn"], ev["phase"], ev["target"])]) > 1:
        problems.append(
            f"seq {ev['seq']}: {ev['target']} attacked twice in {ev['phase']} of turn {ev['turn']}"
        )
    if ev["cohesion"]["passed"]:
        s, d, e = markers[ev["target"]]
        cell = full.cell(ev["attacker"], ev["crt"]) if full else ev["crt"]
        _, s, d, e2 = crt_result(cell, s, d)
        markers[ev["target"]] = (s, d, e or e2)
        want = dict(zip(("S", "D", "eliminated"), markers[ev["target"]], strict=True))
        if ev["target_markers_after"] != want:
            problems.append(
                f"seq {ev['seq']}: markers after {ev['target_markers_after']}"
                f" do not follow from {ev['crt']} ({want})"
            )
    return problems


def _removal_problems(ev: dict, markers: Markers) -> list[str]:
    """A ``marker_removal`` line's problem, if any: the markers it left are not those its
    outcome gives (rallied: none; recovered: the S marker off; panic: the (S) result
    again); ``markers`` is updated with the outcome."""
    s, d, e = markers[ev["stand"]]
    if ev["outcome"] == "rallied":
        s = d = False
    elif ev["outcome"] == "recovered":
        s = False
    elif ev["outcome"] == "panic":
        _, s, d, e2 = crt_result("(S)", s, d)
        e = e or e2
    markers[ev["stand"]] = (s, d, e)
    want = dict(zip(("S", "D", "eliminated"), markers[ev["stand"]], strict=True))
    if ev["markers_after"] != want:
        return [f"seq {ev['seq']}: marker removal left {ev['markers_after']}, expected {want}"]
    return []


def audit_log(events: list[dict], speeds: dict[str, float]) -> list[str]:
    """Problems found in a battle log beyond its format: movement points over a stand's speed
    in a phase, a stand attacked twice in one phase, markers that do not follow from the
    results, eliminated stands acting, and a stand waiting to enter whose group passed its
    movement roll that did not come on in that movement action (docs/rules.md, "Entering the
    table")."""
    problems = check_log(events)
    start = events[0] if events and events[0].get("event") == "start" else {}
    waiting = {s["id"] for s in start.get("stands", []) if not s["on_table"]}
    full = FullGameAudit(start) if "units" in start else None
    support = SupportAudit(start) if full is not None else None
    due: dict[str, int] = {}  # waiting stand -> seq of the roll it passed
    spent: dict[tuple[int, str], float] = defaultdict(float)
    attacked: dict[tuple[int, str, str], set[int]] = defaultdict(set)
    markers: Markers = defaultdict(lambda: (False, False, False))
    for ev in events:
        name = ev.get("event")
        if due and (
            name in ("move_attempt", "pass", "end_turn", "end") or ev["phase"] != "movement"
        ):
            problems += [
                f"seq {seq}: {sid} passed its group's roll but did not enter"
                for sid, seq in sorted(due.items())
            ]
            due.clear()
        if name == "move_attempt":
            due = {
                sid: ev["seq"]
                for sid, r in ev["per_stand"].items()
                if r["passed"] and sid in waiting
            }
        if name == "move" and full is not None:
            problems += full.move(ev) + support.move(ev)
        if name == "unload":  # a rider set down is on the table: it enters no more
            waiting.discard(ev["stand"])
            due.pop(ev["stand"], None)
        if name == "move":
            if ev.get("entered"):
                waiting.discard(ev["stand"])
                due.pop(ev["stand"], None)
            problems += _move_problems(ev, markers, spent, speeds)
        elif name == "fire":
            problems += _fire_problems(ev, markers, attacked, full)
        elif full is not None and name in FullGameAudit.LINES:
            problems += full.line(ev, markers)
        elif support is not None and name in SupportAudit.LINES:
            problems += support.line(ev, markers)
        elif name == "marker_removal":
            problems += _removal_problems(ev, markers)
    return problems


class FullGameAudit:
    """The full games' part of :func:`audit_log`, from the start line's ``units`` and
    stands: each -S- read by its attacker's tech level and flags (002 CRT notes); every
    overrun and close-assault attack's markers following from its cell; the overrun's
    defender roll taking +3 exactly against a tracked vehicle (002 8.6); no foot stand
    overrunning; close-assault attacks at -3 and assaulters' with the -1 for closing (002
    8.7); no rider moving, and a carrier that loaded or unloaded in a turn spending at most
    half its speed (rules-decisions "Transport"); a rider that gets out of a lost carrier
    disorganized or eliminated. Wehrmacht '47 (004): "-" read as S only for artillery and
    support stands, no IFV modifier, the assaulters' 0" range band (-1) instead of closing,
    and a defender left disorganized falling back 1" or eliminated where it cannot."""

    LINES = ("overrun", "close_assault", "mount", "unload")

    def __init__(self, start: dict):
        rs = start.get("ruleset")
        card = ruleset(rs).assault if rs in RULESET_IDS else None
        self.card = card.card if card is not None else "002"
        units = start.get("units", {})
        self.unit = {s["id"]: units.get(s["unit"], {}) for s in start.get("stands", [])}
        self.aboard = {s["id"] for s in start.get("stands", []) if s.get("carried_by")}
        self.loaded: set[tuple[int, str]] = set()  # (turn, carrier) that loaded or unloaded
        self.spent: dict[tuple[int, str], float] = defaultdict(float)

    def cell(self, attacker: str, crt: str) -> str:
        """A CRT cell as it acted for ``attacker`` (002 CRT notes)."""
        u = self.unit.get(attacker, {})
        if self.card == "004":  # the card prints its -S- cells as "-" (the log too)
            support = set(u.get("flags", ())) & {"support", "artillery"}
            return read_cell("-S-" if crt == "-" else crt, "S" if support else "-")
        support = set(u.get("flags", ())) & {"support", "artillery", "close_support"}
        return read_cell(crt, "S" if support or (u.get("tech_level") or 0) > 2 else "-")

    def _attack(self, ev: dict, a: dict | None, markers, want_mods=()) -> list[str]:
        if a is None:
            return []
        out = []
        s, d, e = markers[a["target"]]
        _, s, d, e2 = crt_result(self.cell(a["attacker"], a["crt"]), s, d)
        markers[a["target"]] = (s, d, e or e2)
        want = dict(zip(("S", "D", "eliminated"), markers[a["target"]], strict=True))
        if a["target_markers_after"] != want:
            out.append(
                f"seq {ev['seq']}: {ev['event']} left {a['target_markers_after']}, not {want}"
            )
        mods = {m["why"]: m["value"] for m in a["combat"]["mods"]}
        for why, value in want_mods:
            if mods.get(why) != value:
                out.append(f"seq {ev['seq']}: {ev['event']} attack lacks {why} {value:+d}")
        return out

    def line(self, ev: dict, markers) -> list[str]:
        """The problems of one full-game line."""
        out: list[str] = []
        name = ev["event"]
        if name == "overrun":
            mover = self.unit.get(ev["mover"], {})
            if mover.get("movement_class") == "F":
                out.append(f"seq {ev['seq']}: foot stand {ev['mover']} overruns")
            tracked = any(m["why"] == "tracked" for m in ev["defender_roll"]["mods"])
            if tracked != (mover.get("movement_class") == "T"):
                out.append(f"seq {ev['seq']}: the +3 against a tracked vehicle is wrong")
            if self.card == "004" and any(
                m["why"] == "ifv_loaded" for m in ev["defender_roll"]["mods"]
            ):
                out.append(f"seq {ev['seq']}: an IFV's +2 in Wehrmacht '47")
            out += self._attack(ev, ev["attack_on_defender"], markers)
            out += self._attack(ev, ev["attack_on_attacker"], markers)
        elif name == "close_assault":
            out += self._attack(ev, ev["defender_attack"], markers, [("close_assault", -3)])
            near = ("range", -1) if self.card == "004" else ("closing", -1)
            for a in ev["assaulter_attacks"]:
                out += self._attack(ev, a, markers, [("close_assault", -3), near])
            out += self.retreat(ev, markers)
        elif name == "mount":
            self.aboard.add(ev["stand"])
            self.loaded.add((ev["turn"], ev["carrier"]))
        elif name == "unload":
            self.aboard.discard(ev["stand"])
            if ev.get("cause") == "carrier_eliminated":
                after = ev.get("markers_after", {})
                if not (after.get("eliminated") or after.get("D")):
                    out.append(f"seq {ev['seq']}: {ev['stand']} got out of a lost carrier unhurt")
                if after:
                    markers[ev["stand"]] = (after["S"], after["D"], after["eliminated"])
            else:
                self.loaded.add((ev["turn"], ev["carrier"]))
        return out

    def retreat(self, ev: dict, markers) -> list[str]:
        """004 close assault step 5: a defender left disorganized falls back 1" (a path of
        two points 1" apart), or, a path of its start alone, is eliminated; no other
        defender retreats (nor any in 002)."""
        path = ev.get("retreat")
        s, d, e = markers[ev["defender"]]
        due = self.card == "004" and d and not e
        if not due:
            return [] if path is None else [f"seq {ev['seq']}: {ev['defender']} retreats"]
        if path is None or len(path) not in (1, 2):
            return [f"seq {ev['seq']}: disorganized {ev['defender']} does not fall back"]
        if len(path) == 1:
            markers[ev["defender"]] = (s, d, True)
            return []
        (x0, y0), (x1, y1) = path
        if abs(math.hypot(x1 - x0, y1 - y0) - 1.0) > 1e-4:
            return [f"seq {ev['seq']}: {ev['defender']} falls back other than 1 inch"]
        return []

    def move(self, ev: dict) -> list[str]:
        """A move line: no rider moves; a carrier that loads or unloads moves at most half."""
        out = []
        if ev["stand"] in self.aboard:
            out.append(f"seq {ev['seq']}: {ev['stand']} moves while aboard a carrier")
        key = (ev["turn"], ev["stand"])
        self.spent[key] += ev["mp_spent"]
        speed = self.unit.get(ev["stand"], {}).get("speed", 0)
        if key in self.loaded and self.spent[key] > speed / 2 + 1e-6:
            out.append(f"seq {ev['seq']}: {ev['stand']} loaded and moved more than half")
        return out


def audit_replay(battle) -> list[str]:
    """Save the battle, load the save (a full replay) and compare state hash and log."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "save.json"
        battle.save(path)
        again = Battle.load(path)
    problems = []
    if again.state_hash() != battle.state_hash():
        problems.append("the save did not replay to the same state hash")
    if again.log.events != battle.log.events:
        problems.append("the replay wrote a different battle log")
    return problems


def audit_random_battle(scenario, seed: int, replay: bool = True) -> tuple[list[str], int]:
    """Play one battle between random-legal players and audit it: overlap after every
    movement phase, the log (:func:`audit_log`) and, if ``replay``, a save/load replay.
    Returns (problems, actions taken)."""
    b = Battle(scenario, seed)
    players = {s: RandomPlayer(player_seed(seed, i)) for i, s in enumerate(b.sides)}
    speeds = {s.id: float(s.unit.speed) for s in b.state.stands.values()}
    problems: list[str] = []
    actions = 0
    while not b.finished:
        phase = b.state.phase
        b.apply(players[b.to_act].choose(b))
        actions += 1
        if phase == "movement" and b.state.phase != "movement":
            over = overlapping_stands(b)
            if over:
                problems.append(f"turn {b.state.turn}: overlapping after movement: {over}")
    problems += audit_log(b.log.events, speeds)
    if replay:
        problems += audit_replay(b)
    return problems, actions
