"""Play battles between AI players and report how the first one scores, with 95% confidence
intervals (Wilson), plus decision times.

One scenario: N battles between two players (sides swapped every other battle)::

    python tools/ai/ai_gauntlet.py maps/modern-meeting.json --a veteran --b random --battles 200

Each battle's result and losses go to stderr; one JSON object is the last line.

The suite (issue 44): player A against each opponent on every shipped scenario, both seats::

    python tools/ai/ai_gauntlet.py --suite --a veteran --opponents veteran-43,greedy \\
        --per-seat 40 --jobs 2 --out gauntlet.json

Seat 0 gives A the scenario's first side, seat 1 its second; battle k of a seat uses seed
``first_seed + k`` for both seats and every opponent. A win scores 1, a draw 1/2, a loss 0.
Progress goes to stderr, every battle to ``--out`` as it is played (written to a temporary
file and renamed, so a run cut short keeps what it played), and the table (per opponent,
scenario and seat: battles, W-D-L, score, its 95% Wilson interval, A's thread-CPU p95 per
decision) to stdout. ``--table FILE.json`` prints the table of a saved run without playing.

Players: random, veteran (or ai), recruit, veteran-43, greedy (game/ai/greedy.py).
``--first-seed`` picks the seeds, ``--jobs N`` plays N battles at once (decision times are
then measured with the cores shared).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from game import (  # noqa: E402
    Battle,
    load_scenario,
)
from game.ai.greedy import GreedyPlayer  # noqa: E402
from game.ai.search import THINKING  # noqa: E402
from game.check.sim import make_player  # noqa: E402

SCORE = {"win": 1.0, "draw": 0.5, "loss": 0.0}
"""What a result of player A scores."""


def player(name: str, seed: int):
    """A player by name: "greedy" (game/ai/greedy.py) or any name
    :func:`game.check.sim.make_player` knows; an AI level may carry the setting "AI thinking
    time" after an @ ("elite@long"). Raises ValueError for an unknown one."""
    if name == "greedy":
        return GreedyPlayer(seed)
    name, _, thinking = name.partition("@")
    p = make_player(name, seed)
    if thinking:
        if thinking not in THINKING or not hasattr(p, "thinking"):
            raise ValueError(f"no thinking time {thinking!r} for player {name!r}")
        p.thinking = thinking
    return p


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``wins / n`` (``wins`` may be a score
    with halves for draws); (0, 1) when ``n`` is 0."""
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
        a_side: ("a", player(a_name, seed * 2 + 1)),
        b.other(a_side): ("b", player(b_name, seed * 2 + 2)),
    }
    decisions: dict[str, list[float]] = {"a": [], "b": []}
    t0 = time.perf_counter()
    while not b.finished:
        who, p = players[b.to_act]
        t = time.perf_counter()
        action = p.choose(b)
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


# ---------------------------------------------------------------------------------- the suite


def suite_jobs(
    a: str, opponents: list[str], scenarios: list[str], per_seat: int, first_seed: int
) -> list[tuple[str, str, str, int, int]]:
    """Every battle of a suite as (scenario, A, opponent, seed, seat): per opponent, per
    scenario, seats 0 and 1, ``per_seat`` seeds from ``first_seed``."""
    return [
        (sc, a, opp, first_seed + k, seat)
        for opp in opponents
        for sc in scenarios
        for seat in (0, 1)
        for k in range(per_seat)
    ]


def play_seat(job: tuple[str, str, str, int, int]) -> dict:
    """Play one battle of the suite: A takes the scenario's side number ``seat`` (0 or 1)
    against the opponent; players seeded ``seed * 2 + 1`` (A) and ``seed * 2 + 2``.
    Returns the battle's record: scenario, opponent, seed, seat, A's side, A's ``result``
    ("win", "draw" or "loss"), the last turn, each side's losses, seconds, and A's decision
    times (``a_ms`` wall clock, ``a_cpu_ms`` thread CPU, milliseconds, one per decision)."""
    scenario, a_name, opp, seed, seat = job
    sc = load_scenario(scenario)
    b = Battle(sc, seed)
    a_side = b.sides[seat]
    players = {a_side: player(a_name, seed * 2 + 1), b.other(a_side): player(opp, seed * 2 + 2)}
    wall, cpu = [], []
    turns: dict[int, float] = {}  # turn -> A's thinking in it, seconds (wall)
    t0 = time.perf_counter()
    while not b.finished:
        mover = b.to_act
        t, c = time.perf_counter(), time.thread_time()
        action = players[mover].choose(b)
        if mover == a_side:
            cpu.append(round(1000 * (time.thread_time() - c), 1))
            wall.append(round(1000 * (time.perf_counter() - t), 1))
            turns[b.state.turn] = turns.get(b.state.turn, 0.0) + wall[-1] / 1000
        b.apply(action)
    w = b.state.winner
    losses = b.state.losses(b.sides)
    return {
        "scenario": Path(scenario).stem,
        "opponent": opp,
        "seed": seed,
        "seat": seat,
        "a_side": a_side,
        "result": "draw" if w is None else ("win" if w == a_side else "loss"),
        "turn": b.state.turn,
        "a_lost": losses[a_side],
        "opp_lost": losses[b.other(a_side)],
        "seconds": round(time.perf_counter() - t0, 2),
        "a_ms": wall,
        "a_cpu_ms": cpu,
        "a_turn_s": {str(k): round(v, 2) for k, v in sorted(turns.items())},
        "a_looked": getattr(players[a_side], "looked", None),
    }


def save_results(path: str | Path, doc: dict) -> None:
    """Write the suite's results as JSON to ``path`` through a temporary file renamed over
    it, so the file is always whole. Raises OSError when it cannot be written."""
    tmp = Path(f"{path}.tmp")
    tmp.write_text(json.dumps(doc, separators=(",", ":")) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def p95(xs: list[float]) -> float | None:
    """The 95th percentile (nearest rank below) of ``xs``, or None when empty."""
    if not xs:
        return None
    s = sorted(xs)
    return s[int(0.95 * (len(s) - 1))]


def summary(battles: list[dict]) -> dict:
    """Battles, wins, draws, losses, score (win 1, draw 1/2), mean score, its 95% Wilson
    interval and A's thread-CPU p95 per decision (ms) of a list of battle records."""
    n = len(battles)
    w = sum(r["result"] == "win" for r in battles)
    d = sum(r["result"] == "draw" for r in battles)
    score = sum(SCORE[r["result"]] for r in battles)
    lo, hi = wilson(score, n)
    cpu = [t for r in battles for t in r.get("a_cpu_ms", ())]
    return {
        "battles": n,
        "wins": w,
        "draws": d,
        "losses": n - w - d,
        "score": score,
        "mean": score / n if n else 0.0,
        "ci95": (lo, hi),
        "cpu_p95_ms": p95(cpu),
    }


def table_markdown(battles: list[dict], a: str = "A") -> str:
    """The suite's table in markdown: a row per opponent, scenario and seat (A's side), then
    each opponent's total and the overall, each with battles, W-D-L, score, its mean and
    95% Wilson interval, and A's thread-CPU p95 per decision. Scenarios and opponents keep
    the order they first appear in ``battles``."""
    head = (
        f"| {a} against | scenario | {a} plays | battles | W-D-L | score | mean [95% CI] "
        "| p95 ms |\n|---|---|---|---|---|---|---|---|"
    )
    lines = [head]

    def row(opp: str, scenario: str, seat: str, rs: list[dict]) -> str:
        s = summary(rs)
        lo, hi = s["ci95"]
        cpu = "" if s["cpu_p95_ms"] is None else f"{s['cpu_p95_ms']:.0f}"
        return (
            f"| {opp} | {scenario} | {seat} | {s['battles']} | "
            f"{s['wins']}-{s['draws']}-{s['losses']} | {s['score']:g} | "
            f"{s['mean']:.2f} [{lo:.2f}, {hi:.2f}] | {cpu} |"
        )

    opponents = list(dict.fromkeys(r["opponent"] for r in battles))
    for opp in opponents:
        mine = [r for r in battles if r["opponent"] == opp]
        for scenario in dict.fromkeys(r["scenario"] for r in mine):
            for seat in (0, 1):
                rs = [r for r in mine if r["scenario"] == scenario and r["seat"] == seat]
                if rs:
                    lines.append(row(opp, scenario, rs[0]["a_side"], rs))
        lines.append(row(f"**{opp}**", "**all**", "both", mine))
    if len(opponents) > 1:
        lines.append(row("**everyone**", "**all**", "both", battles))
    return "\n".join(lines)


def run_suite(args) -> None:
    """Play the suite the arguments describe, saving as it goes, and print the table."""
    scenarios = args.scenarios or sorted(str(p) for p in (ROOT / "maps").glob("*.json"))
    opponents = [o.strip() for o in args.opponents.split(",") if o.strip()]
    for name in [args.a, *opponents]:
        player(name, 0)  # an unknown name fails now, not in a worker an hour in
    jobs = suite_jobs(args.a, opponents, scenarios, args.per_seat, args.first_seed)
    doc = {
        "tool": "ai_gauntlet --suite",
        "a": args.a,
        "opponents": opponents,
        "scenarios": [Path(s).stem for s in scenarios],
        "per_seat": args.per_seat,
        "first_seed": args.first_seed,
        "battles": [],
    }
    jobs_n = args.jobs or 2
    pool = multiprocessing.Pool(jobs_n) if jobs_n > 1 else None
    results = pool.imap_unordered(play_seat, jobs) if pool else map(play_seat, jobs)
    last = 0.0
    try:
        for i, r in enumerate(results):
            doc["battles"].append(r)
            print(
                f"[{i + 1}/{len(jobs)}] {args.a} vs {r['opponent']} on {r['scenario']} as "
                f"{r['a_side']}, seed {r['seed']}: {r['result']} (turn {r['turn']}, lost "
                f"{r['a_lost']}-{r['opp_lost']}, {r['seconds']:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
            if args.out and (time.monotonic() - last > 2.0 or i + 1 == len(jobs)):
                save_results(args.out, doc)
                last = time.monotonic()
    finally:
        if pool is not None:
            pool.terminate()
        if args.out:
            save_results(args.out, doc)
    order = {
        (o, Path(s).stem): k
        for k, (o, s) in enumerate((o, s) for o in opponents for s in scenarios)
    }
    doc["battles"].sort(key=lambda r: (order[(r["opponent"], r["scenario"])], r["seat"], r["seed"]))
    print(table_markdown(doc["battles"], args.a))


def print_table(path: str) -> None:
    """Print the table of a suite's saved results. Raises OSError or ValueError (bad JSON)
    when the file cannot be read."""
    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    print(table_markdown(doc["battles"], doc.get("a", "A")))


def run_single(args) -> None:
    """The one-scenario mode: ``--battles`` battles of ``--a`` against ``--b``."""
    sc = load_scenario(args.scenario)
    sides = [s.id for s in sc.spec.sides]
    wins = {"a": 0, "b": 0, "draw": 0}
    by_side = {s: {"battles": 0, "a_wins": 0} for s in sides}
    decisions: dict[str, list[float]] = {"a": [], "b": []}
    battle_s = []
    jobs = [(args.scenario, args.a, args.b, args.first_seed + i, i) for i in range(args.battles)]
    jobs_n = args.jobs or 1
    if jobs_n > 1:
        pool = multiprocessing.Pool(jobs_n)
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

    def ms95(xs):
        v = p95(xs)
        return None if v is None else round(1000 * v, 1)

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
        "decision_p95_ms": {"a": ms95(decisions["a"]), "b": ms95(decisions["b"])},
        "battle_median_s": round(statistics.median(battle_s), 2),
    }
    print(json.dumps(out))


def main(argv: list[str] | None = None) -> None:
    """The command line (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scenario", nargs="?", help="the one scenario (not with --suite)")
    ap.add_argument("--a", default="veteran")
    ap.add_argument("--b", default="random")
    ap.add_argument("--battles", type=int, default=200)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument(
        "--jobs",
        type=int,
        default=None,
        help="battles played at once (decision times then share cores); 1, or 2 with --suite",
    )
    ap.add_argument("--suite", action="store_true", help="A against each opponent everywhere")
    ap.add_argument("--opponents", default="veteran-43,greedy")
    ap.add_argument("--scenarios", nargs="+", help="scenario files (default: maps/*.json)")
    ap.add_argument("--per-seat", type=int, default=40)
    ap.add_argument("--out", help="the suite's results as JSON, written as it goes")
    ap.add_argument("--table", metavar="FILE.json", help="print a saved suite's table")
    args = ap.parse_args(argv)
    if args.table:
        print_table(args.table)
    elif args.suite:
        run_suite(args)
    elif args.scenario:
        run_single(args)
    else:
        ap.error("name a scenario, or give --suite or --table")


if __name__ == "__main__":
    main()
