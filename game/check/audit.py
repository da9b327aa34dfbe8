"""An audit of a finished or running battle: the invariants a referee would check.

Used by the engine's fuzz test and ``tools/fuzz_battles.py``: play random legal battles and
prove after each one that no rule was broken, from the battle's state and its own log.
"""

from __future__ import annotations

import tempfile
from collections import defaultdict
from pathlib import Path

import shapely

from game import OVERLAP_SQ_IN, check_log, crt_result, footprints


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


def audit_log(events: list[dict], speeds: dict[str, float]) -> list[str]:
    """Problems found in a battle log beyond its format: movement points over a stand's speed
    in a phase, a stand attacked twice in one phase, markers that do not follow from the
    results, eliminated stands acting, and a stand waiting to enter whose group passed its
    movement roll that did not come on in that movement action (docs/rules.md, "Entering the
    table")."""
    problems = check_log(events)
    waiting = (
        {s["id"] for s in events[0].get("stands", []) if not s["on_table"]} if events else set()
    )
    due: dict[str, int] = {}  # waiting stand -> seq of the roll it passed
    spent: dict[tuple[int, str], float] = defaultdict(float)
    attacked: dict[tuple[int, str, str], set[int]] = defaultdict(set)
    markers: dict[str, tuple[bool, bool, bool]] = defaultdict(lambda: (False, False, False))
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
        if name == "move":
            if ev.get("entered"):
                waiting.discard(ev["stand"])
                due.pop(ev["stand"], None)
            if markers[ev["stand"]][2]:
                problems.append(f"seq {ev['seq']}: eliminated {ev['stand']} moves")
            key = (ev["turn"], ev["stand"])
            spent[key] += ev["mp_spent"]
            if spent[key] > speeds[ev["stand"]] + 1e-6:
                problems.append(
                    f"seq {ev['seq']}: {ev['stand']} spent {spent[key]} MP, more "
                    f"than its {speeds[ev['stand']]}"
                )
        elif name == "fire":
            if markers[ev["attacker"]][2]:
                problems.append(f"seq {ev['seq']}: eliminated {ev['attacker']} fires")
            attacked[(ev["turn"], ev["phase"], ev["target"])].add(ev["attack"])
            if len(attacked[(ev["turn"], ev["phase"], ev["target"])]) > 1:
                problems.append(
                    f"seq {ev['seq']}: {ev['target']} attacked twice in "
                    f"{ev['phase']} of turn {ev['turn']}"
                )
            if ev["cohesion"]["passed"]:
                s, d, e = markers[ev["target"]]
                _, s, d, e2 = crt_result(ev["crt"], s, d)
                markers[ev["target"]] = (s, d, e or e2)
                want = dict(zip(("S", "D", "eliminated"), markers[ev["target"]], strict=True))
                if ev["target_markers_after"] != want:
                    problems.append(
                        f"seq {ev['seq']}: markers after {ev['target_markers_after']}"
                        f" do not follow from {ev['crt']} ({want})"
                    )
        elif name == "marker_removal":
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
                problems.append(
                    f"seq {ev['seq']}: marker removal left {ev['markers_after']}, expected {want}"
                )
    return problems


def audit_replay(battle) -> list[str]:
    """Save the battle, load the save (a full replay) and compare state hash and log."""
    from game import Battle

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
    from game import Battle
    from game.ai import player_seed
    from game.ai.random_player import RandomPlayer

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
