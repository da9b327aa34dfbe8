"""Benchmark of the scripted AI (issue #25, "Speed where a player feels it"): whole battles
of maps/wwii-meeting.json and maps/modern-meeting.json, veteran against veteran and veteran
against recruit, with the AI's decision times per decision kind, and the same at 40 stands a
side on a 72" x 48" table (``scaled_scenario``).

Targets: decision time p95 <= 100 ms for every decision kind (posture included); a
veteran-vs-veteran battle (12 turns) <= 5 s median on both meeting scenarios; at 40 stands a
side, p95 <= 150 ms for every kind and no decision over 500 ms (#30). Each figure is given in
wall time and, as "cpu_", in the deciding thread's CPU time, which other work on a shared
machine inflates less; the load average at the end is printed too.

Decision kinds (``battle.decision().kind``, grouped): posture; fire; movement (move_attempt
and plot_move); opportunity (opportunity_fire and covering_fire); setup (choose_first and
setup). Every time is the wall time of one ``ScriptedAI.choose`` call (ms); a battle's seconds
are those of the whole battle, engine included. Battles are one at a time; the machine may be
shared, so compare figures measured in the same run. Prints one JSON object on its last line.

Whole 12-turn battles: ``full_length`` makes victory need every enemy stand destroyed, so
the veteran-vs-veteran battles of ``--full-seeds`` run to the last turn (unless a force is
wiped out), the late turns with the most stands in contact measured too.

Run: python tools/bench/bench_ai.py [--scenarios A.json,B.json] [--seeds 1,2,3,4,5] [--recruit-seeds 1,2,3] [--full-seeds 1,2,3]
     [--scaled-seeds 1] [--scaled-turns 8] [--quick]

``decision_times(n)`` (also for tools/bench/bench_scaling.py) plays the first turns of a veteran-
vs-veteran battle with ``n`` stands a side and returns the decision times per kind.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from game import Battle, Scenario, parse_scenario, read_json_file  # noqa: E402
from game.ai import player_seed  # noqa: E402
from game.ai.scripted import ScriptedAI  # noqa: E402

SCENARIOS = (
    "maps/wwii-meeting.json",
    "maps/modern-meeting.json",
    "maps/modern-combined-arms.json",  # the full Modern game (issue #31)
)
KINDS = {
    "posture": "posture",
    "fire": "fire",
    "move_attempt": "movement",
    "plot_move": "movement",
    "opportunity_fire": "opportunity",
    "covering_fire": "opportunity",
    "choose_first": "setup",
    "setup": "setup",
    "close_assault": "assault",  # the full games (002 8.7)
    "assault_reply": "assault",
    "artillery": "artillery",  # the full games' joint artillery fire phase (#32)
    "plot": "plot",  # the joint plot phase: missions and air strikes
}
KIND_ORDER = ("posture", "fire", "movement", "opportunity", "assault", "artillery", "plot", "setup")


def scaled_scenario(
    n: int,
    base: str = "maps/wwii-meeting.json",
    width: float = 72.0,
    depth: float = 48.0,
) -> Scenario:
    """``base`` grown to ``n`` stands a side on a ``width`` x ``depth`` inch table: its terrain
    stretched to the table, each side's stands copied in turn (unit, side) until it has ``n``,
    one GHQ a side, groups of 5 in order. While they fit 1.2" apart along the entry edge
    (n <= 40 on a 48" edge) they wait to enter, as in the shipped scenario; more stand on the
    table in ranks 2" apart from their own edge. Deterministic: the same ``n`` gives the same
    scenario. Raises ScenarioError if the result does not validate (a rank on impassable
    ground) and ValueError when ``n`` < 1."""
    if n < 1:
        raise ValueError("at least one stand a side")
    raw = read_json_file(ROOT / base)
    sx, sy = width / raw["table"]["width"], depth / raw["table"]["depth"]
    out = copy.deepcopy(raw)
    out["table"] = {"width": width, "depth": depth}
    out["title"] = f"{raw['title']}, {n} stands a side"

    def stretch(c):
        if isinstance(c[0], (int, float)):
            return [round(c[0] * sx, 3), round(c[1] * sy, 3)]
        return [stretch(p) for p in c]

    for f in out["terrain"]["features"]:
        f["geometry"]["coordinates"] = stretch(f["geometry"]["coordinates"])
    edge = {s["id"]: s["entry_edge"] for s in raw["sides"]}
    stands = []
    for side in edge:
        mine = [s for s in raw["stands"] if s["side"] == side]
        along = depth if edge[side] in ("left", "right") else width
        across = width if edge[side] in ("left", "right") else depth
        per_rank = int((along - 1.0) // 1.2) if n * 1.2 > along - 1.0 else n
        enter = per_rank >= n
        for i in range(n):
            src = mine[i % len(mine)]
            rank, k = divmod(i, per_rank)
            gap = (along - 1.0) / per_rank
            a = 0.5 + gap * (k + 0.5)
            b = 0.0 if enter else 1.0 + 2.0 * rank
            if edge[side] in ("right", "top"):
                b = across - b
            x, y = (b, a) if edge[side] in ("left", "right") else (a, b)
            stands.append(
                {
                    "id": f"{side}{i + 1}",
                    "side": side,
                    "unit": src["unit"],
                    "x": round(x, 3),
                    "y": round(y, 3),
                    "facing_deg": {"left": 0, "right": 180, "bottom": 90, "top": 270}[edge[side]],
                    "group": str(i // 5 + 1),
                    "ghq": i == 0,
                    "on_table": not enter,
                }
            )
    out["stands"] = stands
    return parse_scenario(out, f"{base} x{n}")


def play(
    scenario: Scenario,
    seed: int,
    levels: tuple[str, str] = ("veteran", "veteran"),
    max_turn: int | None = None,
) -> dict:
    """Play one battle (``levels`` of ``battle.sides[0]`` and ``[1]``, seeded as everywhere by
    :func:`game.ai.player_seed`) to its end, or until turn ``max_turn`` (if given) is over.
    Returns {"seconds": battle wall time (s), "turn": the last turn begun, "ended": whether it
    ended, "winner", "decisions": {kind: [ms, ...]} (every AI decision of both sides)}."""
    battle = Battle(scenario, seed)
    players = {
        side: ScriptedAI(player_seed(seed, i), lvl)
        for i, (side, lvl) in enumerate(zip(battle.sides, levels, strict=True))
    }
    decisions: dict[str, list[float]] = {k: [] for k in KIND_ORDER}
    cpu: dict[str, list[float]] = {k: [] for k in KIND_ORDER}
    t0 = time.perf_counter()
    while not battle.finished:
        if max_turn is not None and battle.state.turn > max_turn:
            break
        kind = KINDS.get(battle.decision().kind, "setup")
        c = time.thread_time()
        t = time.perf_counter()
        action = players[battle.to_act].choose(battle)
        decisions[kind].append(1000 * (time.perf_counter() - t))
        cpu[kind].append(1000 * (time.thread_time() - c))
        battle.apply(action)
    return {
        "seconds": time.perf_counter() - t0,
        "turn": battle.state.turn,
        "ended": battle.finished,
        "winner": battle.state.winner,
        "decisions": decisions,
        "cpu": cpu,
    }


def pct(xs: list[float], q: float) -> float | None:
    """The ``q`` quantile (0..1, nearest rank below) of ``xs`` in ms, rounded; None if empty."""
    if not xs:
        return None
    s = sorted(xs)
    return round(s[int(q * (len(s) - 1))], 1)


def summary(decisions: dict[str, list[float]], cpu: dict[str, list[float]] | None = None) -> dict:
    """{kind: {"n", "p50_ms", "p95_ms", "max_ms"}} and "all" over every kind: wall time; with
    ``cpu`` (the same decisions' thread CPU time, ms) also "cpu_p95_ms" and "cpu_max_ms",
    which a machine shared with other work inflates less."""
    out = {}
    every = [x for k in KIND_ORDER for x in decisions.get(k, [])]
    cpu_every = [x for k in KIND_ORDER for x in (cpu or {}).get(k, [])]
    for k, xs in list(decisions.items()) + [("all", every)]:
        out[k] = {
            "n": len(xs),
            "p50_ms": pct(xs, 0.5),
            "p95_ms": pct(xs, 0.95),
            "max_ms": round(max(xs), 1) if xs else None,
        }
        if cpu is not None:
            cs = cpu_every if k == "all" else cpu.get(k, [])
            out[k]["cpu_p95_ms"] = pct(cs, 0.95)
            out[k]["cpu_max_ms"] = round(max(cs), 1) if cs else None
    return out


def decision_times(
    n: int,
    seed: int = 1,
    turns: int = 3,
    base: str = "maps/wwii-meeting.json",
    levels: tuple[str, str] = ("veteran", "veteran"),
) -> dict:
    """The AI's decision times with ``n`` stands a side (``scaled_scenario``; 10, 20, 40,
    120...): the first ``turns`` turns of one battle of seed ``seed``. Returns {"stands": n,
    "turns": turns, "seconds": wall time (s), "decisions": {kind: {"n", "p50_ms", "p95_ms",
    "max_ms"}}, with "all" over every kind}. Raises ScenarioError as ``scaled_scenario``."""
    r = play(scaled_scenario(n, base), seed, levels, max_turn=turns)
    return {
        "stands": n,
        "turns": turns,
        "seconds": round(r["seconds"], 2),
        "decisions": summary(r["decisions"]),
    }


def full_length(scenario: Scenario) -> Scenario:
    """The scenario with victory only by destroying every enemy stand, so that battles run
    their whole length (12 turns) unless a force is wiped out: the late turns, with the most
    stands in contact, are measured too."""
    raw = copy.deepcopy(scenario.raw)
    raw["victory"] = {
        "type": "destroy_percent",
        "destroy_at_least_pct": 100,
        "lose_at_most_pct": 100,
    }
    return parse_scenario(raw, f"{scenario.path} (to the last turn)")


def battles(scenario: Scenario, seeds: list[int], levels: tuple[str, str]) -> dict:
    """Whole battles of ``scenario`` on ``seeds``: per-kind decision times over all of them,
    battle seconds (median over all, and over those that reached turn 12 only) and how many
    reached the last turn."""
    allk: dict[str, list[float]] = {k: [] for k in KIND_ORDER}
    allc: dict[str, list[float]] = {k: [] for k in KIND_ORDER}
    secs, full = [], []
    last = scenario.spec.turns
    for seed in seeds:
        r = play(scenario, seed, levels)
        for k, xs in r["decisions"].items():
            allk[k].extend(xs)
            allc[k].extend(r["cpu"][k])
        secs.append(r["seconds"])
        if r["turn"] >= last:
            full.append(r["seconds"])
        print(
            f"  {scenario.path} {levels} seed {seed}: {r['seconds']:.2f} s, turn {r['turn']}, "
            f"winner {r['winner']}",
            file=sys.stderr,
            flush=True,
        )
    return {
        "levels": list(levels),
        "seeds": seeds,
        "battle_s": [round(s, 2) for s in secs],
        "battle_median_s": round(statistics.median(secs), 2),
        f"reached_turn_{last}": len(full),
        f"battle_median_s_turn_{last}": round(statistics.median(full), 2) if full else None,
        "decisions": summary(allk, allc),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", default="1,2,3,4,5", help="veteran-vs-veteran battle seeds")
    ap.add_argument("--recruit-seeds", default="1,2,3", help="veteran-vs-recruit seeds")
    ap.add_argument("--full-seeds", default="1,2,3", help="vet-vs-vet seeds played 12 turns")
    ap.add_argument("--scaled-seeds", default="1", help="40-a-side battle seeds")
    ap.add_argument("--scaled-turns", type=int, default=8, help="turns of a 40-a-side battle")
    ap.add_argument("--scaled-stands", type=int, default=40)
    ap.add_argument("--quick", action="store_true", help="seeds 1,2 / 1 / 1, 2 scaled turns")
    ap.add_argument(
        "--scenarios", default=",".join(SCENARIOS), help="comma-separated scenario files"
    )
    args = ap.parse_args()
    seeds = [int(s) for s in args.seeds.split(",") if s]
    rseeds = [int(s) for s in args.recruit_seeds.split(",") if s]
    sseeds = [int(s) for s in args.scaled_seeds.split(",") if s]
    fseeds = [int(s) for s in args.full_seeds.split(",") if s]
    if args.quick:
        seeds, rseeds, sseeds, fseeds, args.scaled_turns = [1, 2], [1], [1], [1], 2
    out: dict = {"bench": "ai", "python": platform.python_version(), "scenarios": {}}
    from game import load_scenario

    for path in [p for p in args.scenarios.split(",") if p]:
        sc = load_scenario(ROOT / path)
        out["scenarios"][path] = {
            "veteran_vs_veteran": battles(sc, seeds, ("veteran", "veteran")),
            "veteran_vs_recruit": battles(sc, rseeds, ("veteran", "recruit")),
            "veteran_vs_veteran_to_turn_12": battles(
                full_length(sc), fseeds, ("veteran", "veteran")
            ),
        }
    n = args.scaled_stands
    sc = scaled_scenario(n)
    allk: dict[str, list[float]] = {k: [] for k in KIND_ORDER}
    allc: dict[str, list[float]] = {k: [] for k in KIND_ORDER}
    secs = []
    for seed in sseeds:
        r = play(sc, seed, ("veteran", "veteran"), max_turn=args.scaled_turns)
        secs.append(round(r["seconds"], 2))
        for k, xs in r["decisions"].items():
            allk[k].extend(xs)
            allc[k].extend(r["cpu"][k])
        print(f"  {n} a side seed {seed}: {r['seconds']:.2f} s", file=sys.stderr, flush=True)
    out[f"scaled_{n}"] = {
        "base": "maps/wwii-meeting.json",
        "table": [72, 48],
        "seeds": sseeds,
        "turns": args.scaled_turns,
        "seconds": secs,
        "decisions": summary(allk, allc),
    }
    worst = max(
        (d["p95_ms"] or 0.0)
        for sc_out in out["scenarios"].values()
        for m in sc_out.values()
        for k, d in m["decisions"].items()
        if k != "all"
    )
    out["worst_kind_p95_ms"] = worst
    out["targets_met"] = {
        "p95_every_kind_le_100ms": worst <= 100.0,
        "vet_vs_vet_median_le_5s": all(
            s["veteran_vs_veteran"]["battle_median_s"] <= 5.0 for s in out["scenarios"].values()
        ),
        "vet_vs_vet_12_turns_median_le_5s": all(
            s["veteran_vs_veteran_to_turn_12"]["battle_median_s"] <= 5.0
            for s in out["scenarios"].values()
        ),
        f"scaled_{n}_p95_every_kind_le_150ms": all(
            (d["p95_ms"] or 0.0) <= 150.0 for d in out[f"scaled_{n}"]["decisions"].values()
        ),
        f"scaled_{n}_no_decision_over_500ms": (
            out[f"scaled_{n}"]["decisions"]["all"]["max_ms"] or 0
        )
        <= 500.0,
    }
    out["load_average"] = os.getloadavg()[0]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
