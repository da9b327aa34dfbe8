"""Benchmark of the elite AI's thinking time, as it ships: its look-ahead timed by its
per-turn budget, its continuations on the worker pool (one worker per core), against the
veteran, on every shipped scenario and at 40 stands a side (``bench_ai.scaled_scenario``).

Targets: at most 60 s of thinking in a whole battle of a shipped scenario on average, no
battle over 15 s a turn on average, and at most 30 s a turn at 40 stands a side. Beside them,
the veteran's thinking in the same battles (the baseline: the same scorers without the
look-ahead), and the load average, since the machine may be shared.

Each battle: the elite plays the scenario's first side with seed ``s``, the veteran the other;
the time of every ``choose`` of each (wall, seconds) is added to its turn. Prints a table and
one JSON object on its last line.

Run: python tools/bench/bench_elite.py [--seeds 1] [--scaled-turns 4] [--thinking normal]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_ai import scaled_scenario  # noqa: E402

from game import Battle, load_scenario  # noqa: E402
from game.ai import player_seed  # noqa: E402
from game.ai.scripted import ScriptedAI  # noqa: E402


def thinking(battle: Battle, thinking_time: str, max_turns: int | None = None) -> dict:
    """Play ``battle`` out (or to ``max_turns``), elite (first side) against veteran; per side,
    the seconds of thinking in each turn."""
    elite = ScriptedAI(player_seed(battle.seed, 0), "elite")
    elite.thinking = thinking_time
    vet = ScriptedAI(player_seed(battle.seed, 1), "veteran")
    players = {battle.sides[0]: ("elite", elite), battle.sides[1]: ("veteran", vet)}
    turns: dict[str, dict[int, float]] = {"elite": {}, "veteran": {}}
    while not battle.finished and (max_turns is None or battle.state.turn <= max_turns):
        who, p = players[battle.to_act]
        t = time.perf_counter()
        action = p.choose(battle)
        took = time.perf_counter() - t
        turns[who][battle.state.turn] = turns[who].get(battle.state.turn, 0.0) + took
        battle.apply(action)
    return turns


def summary(turns: dict[int, float]) -> dict:
    """Total, median and largest turn (seconds) of one side's thinking."""
    v = list(turns.values()) or [0.0]
    return {
        "total_s": round(sum(v), 2),
        "turn_median_s": round(statistics.median(v), 2),
        "turn_max_s": round(max(v), 2),
        "turns": len(turns),
    }


def main(argv: list[str] | None = None) -> None:
    """The command line (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="1")
    ap.add_argument("--scaled-turns", type=int, default=4)
    ap.add_argument("--thinking", default="normal", choices=("quick", "normal", "long"))
    ap.add_argument(
        "--scenarios", nargs="+", default=sorted(str(p) for p in (ROOT / "maps").glob("*.json"))
    )
    args = ap.parse_args(argv)
    rows = []
    for path in args.scenarios:
        for seed in (int(s) for s in args.seeds.split(",")):
            b = Battle(load_scenario(path), seed)
            t = thinking(b, args.thinking)
            rows.append(
                {
                    "scenario": Path(path).stem,
                    "seed": seed,
                    "elite": summary(t["elite"]),
                    "veteran": summary(t["veteran"]),
                }
            )
            print(rows[-1], file=sys.stderr, flush=True)
    b = Battle(scaled_scenario(40), 1)
    t = thinking(b, args.thinking, args.scaled_turns)
    rows.append(
        {
            "scenario": "40 a side",
            "seed": 1,
            "elite": summary(t["elite"]),
            "veteran": summary(t["veteran"]),
        }
    )
    print("| scenario | seed | elite: battle s | turn median s | turn max s | veteran: battle s |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        e, v = r["elite"], r["veteran"]
        print(
            f"| {r['scenario']} | {r['seed']} | {e['total_s']} | {e['turn_median_s']} | "
            f"{e['turn_max_s']} | {v['total_s']} |"
        )
    shipped = [r for r in rows if r["scenario"] != "40 a side"]
    mean_battle = statistics.mean(r["elite"]["total_s"] for r in shipped)
    print(f"mean elite thinking per battle: {mean_battle:.1f} s; load average {os.getloadavg()}")
    print(json.dumps({"rows": rows, "mean_battle_s": mean_battle, "load": os.getloadavg()}))


if __name__ == "__main__":
    main()
