"""How often each of #44's judgements decides something in play, for a level of the AI against
an opponent: a rule that never comes up in many battles is a finding (docs/ai.md).

Per level (``--levels veteran,veteran-43``) it plays ``--battles`` battles of each scenario
(sides alternating) against ``--opponent`` (greedy, veteran-43, random...) and counts, from the
choices the AI made (``ScriptedAI.last[0]``, what the explain overlay shows) and the battle:

- gun moves: a gun moved apart from another or away from enemy HE (``game.ai.guns.Guns``);
- HE plots, and those aimed within 2" of an enemy gun or AA stand (counter-battery);
- air strikes, and those aimed within 2" of an enemy gun or AA stand;
- moves that end in cover (woods, buildings, a crest: ``Positions.covered``), and moves;
- riders set down because the enemy sees their carrier;
- the explain overlay's reading of the battle at each of the AI's movement decisions;
- the AI's stands lost by turn, and the battles' results (win, draw, loss).

Run: python tools/ai/ai_rule_counts.py [--levels veteran,veteran-43] [--opponent greedy]
     [--scenarios maps/a.json ...] [--battles 10] [--first-seed 3001] [--jobs 2]
Prints one JSON object per level and a markdown table.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from game import Battle, Move, PlotAirStrike, PlotMission, StandPose, load_scenario  # noqa: E402
from game.ai import player_seed  # noqa: E402
from game.ai.scripted import ScriptedAI  # noqa: E402

NEAR_IN = 2.0
"""An aim this close (inches) to an enemy gun or AA stand counts as aimed at it."""


def _opponent(name: str, seed: int):
    """The opponent by name: "greedy" (game/ai/greedy.py) or any simulate player."""
    if name == "greedy":
        from game.ai.greedy import GreedyPlayer

        return GreedyPlayer(seed)
    from game.check.sim import make_player

    return make_player(name, seed)


def _support_stands(battle, side: str) -> list[tuple[float, float]]:
    """Where ``side``'s guns (indirect fire) and AA stands stand (inches)."""
    return [
        (s.x, s.y)
        for s in battle.state.stands.values()
        if s.side == side
        and s.active
        and (battle.indirect_reach(s.id) is not None or "aa" in s.unit.flags)
    ]


def _aimed_at_support(points, support) -> bool:
    return any(math.dist(p, q) <= NEAR_IN for p in points for q in support)


def play_counts(args: tuple[str, str, str, int, int]) -> dict:
    """Play one battle of ``level`` against ``opponent``; the counts of its judgements.
    ``i`` picks the AI's side (alternating)."""
    scenario, level, opponent, seed, i = args
    b = Battle(load_scenario(scenario), seed)
    side = b.sides[i % 2]
    enemy = b.other(side)
    ai = ScriptedAI(player_seed(seed, b.sides.index(side)), level)
    other = _opponent(opponent, player_seed(seed, b.sides.index(enemy)))
    c: Counter = Counter()
    lost_by_turn: Counter = Counter()
    while not b.finished:
        before = b.state.losses(b.sides)[side]
        turn = b.state.turn
        if b.to_act != side:
            b.apply(other.choose(b))
            lost_by_turn[turn] += b.state.losses(b.sides)[side] - before
            continue
        kind = b.decision().kind
        action = ai.choose(b)
        label = ai.last[0].label if ai.last else ""
        if isinstance(action, Move):
            c["moves"] += 1
            end = action.path[-1]
            pose = StandPose(action.stand, side, end[0], end[1], action.facing_deg)
            c["moves into cover"] += ai.positions.covered(
                b, pose
            )  # the terrain, whatever the level
            c["gun moves"] += "one HE mission" in label or "enemy HE came down" in label
        elif isinstance(action, PlotMission) and action.ammo == "he":
            c["HE plots"] += 1
            c["HE plots at guns or AA"] += _aimed_at_support(
                action.sheaf, _support_stands(b, enemy)
            )
        elif isinstance(action, PlotAirStrike):
            c["air strikes"] += 1
            c["air strikes at guns or AA"] += _aimed_at_support(
                [action.path[1]], _support_stands(b, enemy)
            )
        c["riders set down when seen"] += ": the enemy sees" in label
        if kind in ("move_attempt", "plot_move"):
            text = ai.outlook_text(b, side) if hasattr(ai, "outlook_text") else None
            if text:
                c["outlook: " + text.rsplit(": ", 1)[-1]] += 1
        b.apply(action)
        lost_by_turn[turn] += b.state.losses(b.sides)[side] - before
    w = b.state.winner
    return {
        "scenario": Path(scenario).stem,
        "counts": dict(c),
        "lost_by_turn": {t: n for t, n in lost_by_turn.items() if n},
        "result": "win" if w == side else "draw" if w is None else "loss",
        "losses": b.state.losses(b.sides)[side],
    }


def main(argv=None) -> int:
    """Play the battles and print the counts per level; 0 on success."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--levels", default="veteran,veteran-43")
    ap.add_argument("--opponent", default="greedy")
    ap.add_argument(
        "--scenarios", nargs="+", default=sorted(str(p) for p in ROOT.glob("maps/*.json"))
    )
    ap.add_argument("--battles", type=int, default=10)
    ap.add_argument("--first-seed", type=int, default=3001)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    rows = {}
    for level in args.levels.split(","):
        jobs = [
            (sc, level, args.opponent, args.first_seed + k, k)
            for sc in args.scenarios
            for k in range(args.battles)
        ]
        with multiprocessing.Pool(max(1, args.jobs)) as pool:
            results = list(pool.imap(play_counts, jobs))
        total: Counter = Counter()
        late: Counter = Counter()
        res: Counter = Counter()
        for r in results:
            total.update(r["counts"])
            late.update({int(k): v for k, v in r["lost_by_turn"].items()})
            res[r["result"]] += 1
        rows[level] = {
            "counts": dict(total),
            "lost_by_turn": dict(sorted(late.items())),
            "results": dict(res),
        }
        print(
            json.dumps(
                {"level": level, "opponent": args.opponent, "battles": len(results), **rows[level]}
            )
        )
    keys = sorted({k for r in rows.values() for k in r["counts"]})
    print("| counted | " + " | ".join(rows) + " |")
    print("|---|" + "---|" * len(rows))
    for k in keys:
        print(f"| {k} | " + " | ".join(str(r["counts"].get(k, 0)) for r in rows.values()) + " |")
    for k in ("win", "draw", "loss"):
        print(
            f"| battles: {k} | "
            + " | ".join(str(r["results"].get(k, 0)) for r in rows.values())
            + " |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
