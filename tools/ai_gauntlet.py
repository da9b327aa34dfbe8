"""Play N battles between two players (sides swapped every other battle) and report how often
the first one wins, with a 95% confidence interval (Wilson), plus decision times.

Run: python tools/ai_gauntlet.py maps/modern-meeting.json --a veteran --b random --battles 200
Players: random, veteran (or ai), recruit. ``--first-seed`` picks the seeds (battle i uses
first_seed + i), ``--jobs N`` plays N battles at once (decision times are then measured with the
cores shared). Each battle's result and losses go to stderr; one JSON object is the last line.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game import (  # noqa: E402
    Battle,
    load_scenario,
)
from game.check.sim import make_player  # noqa: E402


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_one(args: tuple[str, str, str, int, int]) -> dict:
    """Play one battle; ``i`` picks the side the first player takes (alternating)."""
    scenario, a_name, b_name, seed, i = args
    sc = load_scenario(scenario)
    sides = [s.id for s in sc.spec.sides]
    a_side = sides[i % 2]
    b = Battle(sc, seed)
    players = {
        a_side: ("a", make_player(a_name, seed * 2 + 1)),
        b.other(a_side): ("b", make_player(b_name, seed * 2 + 2)),
    }
    decisions: dict[str, list[float]] = {"a": [], "b": []}
    t0 = time.perf_counter()
    while not b.finished:
        who, player = players[b.to_act]
        t = time.perf_counter()
        action = player.choose(b)
        decisions[who].append(time.perf_counter() - t)
        b.apply(action)
    w = b.state.winner
    losses = b.state.losses(b.sides)
    return {
        "a_side": a_side,
        "result": "draw" if w is None else players[w][0],
        "seconds": time.perf_counter() - t0,
        "decisions": decisions,
        "turn": b.state.turn,
        "a_lost": losses[a_side],
        "b_lost": losses[b.other(a_side)],
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario")
    ap.add_argument("--a", default="veteran")
    ap.add_argument("--b", default="random")
    ap.add_argument("--battles", type=int, default=200)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="battles played at once (decision times then share cores)",
    )
    args = ap.parse_args()
    sc = load_scenario(args.scenario)
    sides = [s.id for s in sc.spec.sides]
    wins = {"a": 0, "b": 0, "draw": 0}
    by_side = {s: {"battles": 0, "a_wins": 0} for s in sides}
    decisions: dict[str, list[float]] = {"a": [], "b": []}
    battle_s = []
    jobs = [(args.scenario, args.a, args.b, args.first_seed + i, i) for i in range(args.battles)]
    if args.jobs > 1:
        pool = multiprocessing.Pool(args.jobs)
        results = pool.imap(play_one, jobs)
    else:
        pool, results = None, map(play_one, jobs)
    for i, r in enumerate(results):
        a_side, result = r["a_side"], r["result"]
        battle_s.append(r["seconds"])
        for who in ("a", "b"):
            decisions[who].extend(r["decisions"][who])
        wins[result] += 1
        by_side[a_side]["battles"] += 1
        by_side[a_side]["a_wins"] += result == "a"
        print(
            f"battle {i + 1}: {args.a} as {a_side}: {result} (turn {r['turn']}, "
            f"lost {r['a_lost']}-{r['b_lost']})",
            file=sys.stderr,
            flush=True,
        )
    if pool is not None:
        pool.close()
    n = args.battles
    lo, hi = wilson(wins["a"], n)

    def p95(xs):
        return round(1000 * sorted(xs)[int(0.95 * (len(xs) - 1))], 1) if xs else None

    out = {
        "tool": "ai_gauntlet",
        "scenario": args.scenario,
        "a": args.a,
        "b": args.b,
        "battles": n,
        "a_wins": wins["a"],
        "b_wins": wins["b"],
        "draws": wins["draw"],
        "a_win_rate": round(wins["a"] / n, 3),
        "ci95": [round(lo, 3), round(hi, 3)],
        "by_side": by_side,
        "decision_p95_ms": {"a": p95(decisions["a"]), "b": p95(decisions["b"])},
        "battle_median_s": round(statistics.median(battle_s), 2),
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
