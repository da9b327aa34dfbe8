"""Tune the scripted AI's weights (``game.ai.levels.Level``) by self-play, with optuna.

Each trial proposes weights (optuna's TPE sampler, seeded), and a level with them (the
veteran's other weights kept) plays the veteran on the chosen scenarios, both seats, seeds
``first_seed ..``; its mean score (win 1, draw 1/2, loss 0) is the trial's value. Battles run
on a process pool (one worker per core, ended with this process, as ``hulldown balance``'s
are). The best weights are then played again on fresh seeds (``--check-seeds``), against the
veteran, and both figures are printed: the "before" of any weights is 0.5 against itself.

    python tools/ai/tune_ai.py --trials 16 --seeds 3 --check-seeds 12 \\
        --scenarios maps/modern-skirmish.json maps/wwii-meeting.json --out tune.json

Needs optuna (``pip install optuna``; the extra ``hulldown[tune]``).

``--try WEIGHTS`` plays one set of weights (a JSON object of ``Level`` fields, any of them,
not only those tuned) against the veteran instead, on ``--seeds`` seeds from
``--first-seed``, and prints its score per scenario and seat with the whole's 95% Wilson
interval (optuna is not needed for it):

    python tools/ai/tune_ai.py --try '{"draw_worth": 0.1, "crosses_alone": 0.0}' \
        --seeds 5 --first-seed 1 --scenarios maps/*.json
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing as mp
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ai_gauntlet import wilson  # noqa: E402

from game import Battle, load_scenario  # noqa: E402
from game.ai.levels import LEVELS  # noqa: E402
from game.ai.scripted import ScriptedAI  # noqa: E402
from game.lifeline import die_with_parent, no_ctrl_c  # noqa: E402

SPACE = {
    "caution": (0.5, 2.0),
    "reserve": (0.0, 0.2),
    "min_attack": (0.0, 0.1),
    "open_cost": (0.0, 0.5),
    "keeps_company": (0.0, 0.4),
    "crosses_alone": (0.3, 1.0),
}
"""The weights tuned and their ranges (the rest stay the veteran's)."""
SCORE = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def battle(job: tuple[str, dict, int, int]) -> float:
    """One battle: a level with ``weights`` against the veteran on ``scenario``, seed, seat
    (0: the tuned level takes the first side). Returns the tuned level's score."""
    scenario, weights, seed, seat = job
    b = Battle(load_scenario(scenario), seed)
    tuned = ScriptedAI(seed * 2 + 1, "veteran")
    tuned.level = dataclasses.replace(LEVELS["veteran"], name="tuned", **weights)
    me = b.sides[seat]
    players = {me: tuned, b.other(me): ScriptedAI(seed * 2 + 2, "veteran")}
    while not b.finished:
        b.apply(players[b.to_act].choose(b))
    w = b.state.winner
    return 0.5 if w is None else 1.0 if w == me else 0.0


def _init(parent: int) -> None:
    die_with_parent(parent)


def score(pool, scenarios, weights, seeds) -> float:
    """The mean score of ``weights`` against the veteran over every scenario, seed and seat."""
    jobs = [(sc, weights, s, seat) for sc in scenarios for s in seeds for seat in (0, 1)]
    results = pool.map(battle, jobs)
    return sum(results) / len(results)


def try_weights(pool, scenarios, weights, seeds) -> dict:
    """Play ``weights`` against the veteran on every scenario, seed and seat (0: the first
    side); returns {"score", "low", "high" (95% Wilson), "battles", "wins", "draws",
    "losses", "per_seat": {"<scenario> <A|B>": score}}. Raises TypeError (from
    ``dataclasses.replace``) for a weight ``Level`` does not have."""
    dataclasses.replace(LEVELS["veteran"], **weights)  # a misspelt weight fails here, once
    jobs = [(sc, weights, s, seat) for sc in scenarios for s in seeds for seat in (0, 1)]
    results = pool.map(battle, jobs, chunksize=1)
    per: dict[str, list[float]] = {}
    for (sc, _, _, seat), r in zip(jobs, results, strict=True):
        per.setdefault(f"{Path(sc).stem} {'AB'[seat]}", []).append(r)
    n, total = len(results), sum(results)
    low, high = wilson(total, n)
    return {
        "weights": weights,
        "score": round(total / n, 3),
        "low": round(low, 3),
        "high": round(high, 3),
        "battles": n,
        "wins": results.count(1.0),
        "draws": results.count(0.5),
        "losses": results.count(0.0),
        "per_seat": {k: round(sum(v) / len(v), 2) for k, v in sorted(per.items())},
    }


def main(argv: list[str] | None = None) -> None:
    """The command line (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=16)
    ap.add_argument("--seeds", type=int, default=3, help="seeds a scenario and seat per trial")
    ap.add_argument("--first-seed", type=int, default=20001)
    ap.add_argument("--check-seeds", type=int, default=12)
    ap.add_argument(
        "--scenarios", nargs="+", default=["maps/modern-skirmish.json", "maps/wwii-meeting.json"]
    )
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out")
    ap.add_argument("--try", dest="weights", help="play these weights (JSON) against the veteran")
    args = ap.parse_args(argv)
    seeds = list(range(args.first_seed, args.first_seed + args.seeds))
    check = list(range(args.first_seed + 5000, args.first_seed + 5000 + args.check_seeds))
    ctx = mp.get_context("spawn")
    t0 = time.time()
    if args.weights is not None:
        try:
            weights = json.loads(args.weights)
            dataclasses.replace(LEVELS["veteran"], **weights)
        except (ValueError, TypeError) as e:
            sys.exit(f"tune_ai.py: --try: not a JSON object of Level weights: {e}")
        with no_ctrl_c():
            pool = ctx.Pool(args.jobs, initializer=_init, initargs=(os.getpid(),))
        with pool:
            doc = try_weights(pool, args.scenarios, weights, seeds)
        doc["seeds"] = [seeds[0], seeds[-1]]
        doc["seconds"] = round(time.time() - t0, 1)
        print(json.dumps(doc, indent=1))
        if args.out:
            Path(args.out).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        return
    import optuna

    with no_ctrl_c():
        pool = ctx.Pool(args.jobs, initializer=_init, initargs=(os.getpid(),))
    with pool:
        vet = LEVELS["veteran"]

        def objective(trial) -> float:
            w = {k: trial.suggest_float(k, lo, hi) for k, (lo, hi) in SPACE.items()}
            v = score(pool, args.scenarios, w, seeds)
            print(f"trial {trial.number}: {v:.3f} {w}", file=sys.stderr, flush=True)
            return v

        optuna.logging.set_verbosity(optuna.logging.WARNING)
        study = optuna.create_study(
            direction="maximize", sampler=optuna.samplers.TPESampler(seed=1)
        )
        study.enqueue_trial({k: getattr(vet, k) for k in SPACE})  # the veteran as it is
        study.optimize(objective, n_trials=args.trials)
        best = study.best_params
        after = score(pool, args.scenarios, best, check)
    doc = {
        "scenarios": args.scenarios,
        "trials": args.trials,
        "battles_a_trial": len(args.scenarios) * len(seeds) * 2,
        "veteran": {k: getattr(vet, k) for k in SPACE},
        "veteran_in_training": study.trials[0].value,
        "best": best,
        "best_in_training": study.best_value,
        "best_on_fresh_seeds": after,
        "fresh_battles": len(args.scenarios) * len(check) * 2,
        "seconds": round(time.time() - t0, 1),
    }
    print(json.dumps(doc, indent=1))
    if args.out:
        Path(args.out).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
