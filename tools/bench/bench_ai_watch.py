"""How long a player watches the AI's movement phase on the battle screen.

The real battle screen (1280x800, dummy video driver) plays a shipped scenario, the scripted
AI commanding its second side at the default speed of its moves on screen (12" a second), the
player the first, played by the random player, whose actions are made at once and not
timed (the enemy's attacks are let run). The window's
loop is run as the app runs it, 60 frames a second, the AI thinking as it does on screen (in
its own process). Timed: from the first frame of the first turn's movement phase to the
first frame after it, in seconds of wall clock (the moves' glides, the AI's thinking, the
frames), less the player's own actions. Target: at most 10 s.

Each repeat watches the phase twice: the baseline (the screen's ``glide_together`` off: the
AI's moves one at a time at the set speed, the next chosen once one has stopped, as before)
and the way the screen plays now (a group's moves, and the next group's, glide alongside,
each at most ``GLIDE_MOST_S``, the AI choosing while they glide).

Run: python tools/bench/bench_ai_watch.py [--map modern-meeting.json] [--seed 1] [--repeats 3]
Prints one JSON object on its last line (medians of the repeats, and their ratio).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from game import Battle, load_scenario  # noqa: E402
from game.ai.random_player import RandomPlayer  # noqa: E402
from game.ai.scripted import ScriptedAI  # noqa: E402
from game.ui.app import App  # noqa: E402
from game.ui.battle import AIMode, BattleScreen  # noqa: E402
from game.ui.battle.drawing import GLIDE_MOST_S  # noqa: E402
from game.ui.colours import UI  # noqa: E402

FRAME_S = 1 / 60
TARGET_S = 10.0
LIMIT_S = 300.0  # give up on a phase that takes longer


def watch(map_name: str, seed: int, speed: float = 12.0, together: bool = True) -> dict:
    """One battle up to the end of its first movement phase: the seconds spent watching the
    AI in it (the phase's wall time less the player's own actions, made at once by a random
    player and not shown gliding), and the AI's moves in it."""
    UI["enemy_attacks"] = "run"
    app = App(size=(1280, 800))
    b = Battle(load_scenario(ROOT / "maps" / map_name), seed)
    first, ai_side = b.sides
    s = BattleScreen(app, b, ai={ai_side: ScriptedAI(seed, "veteran")}, ai_speed=speed)
    s.animation.glide_together = together
    app.show(s)
    player = RandomPlayer(seed)
    start = end = None
    own = 0.0  # seconds of the player's own actions inside the phase
    last = t0 = time.perf_counter()
    while time.perf_counter() - t0 < LIMIT_S:
        now = time.perf_counter()
        dt, last = now - last, now
        st = b.state
        if start is None and st.phase == "movement":
            start, seen = now, len(b.log.events)
        elif start is not None and st.phase != "movement":
            end = now
            break
        mode = s.mode
        if getattr(mode, "paced", False):
            s.set_mode(mode.confirm(s))
        elif not s.animation.moves and not isinstance(mode, AIMode) and b.decision().side == first:
            a0 = time.perf_counter()
            s.act(player.choose(b))
            own += time.perf_counter() - a0
        s.update(dt)
        s.draw(app.surface)
        left = FRAME_S - (time.perf_counter() - now)
        if left > 0:
            time.sleep(left)
    cap = GLIDE_MOST_S if together else math.inf
    moves = [e for e in b.log.events[seen:] if e["event"] == "move" and e["side"] == ai_side]
    lengths = [
        sum(math.dist(p, q) for p, q in zip(m["path"], m["path"][1:], strict=False)) for m in moves
    ]
    return {
        "seconds": None if end is None else round(end - start - own, 2),
        "ai_moves": len(moves),
        "ai_inches": round(sum(lengths), 1),
        "glides_s": round(sum(min(n / speed, cap) for n in lengths), 2),  # one after another
        "player_s": round(own, 2),
    }


def main(argv=None) -> int:
    """Watch the phase ``--repeats`` times; print the median."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--map", default="modern-meeting.json")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--speed", type=float, default=12.0)
    args = ap.parse_args(argv)
    runs = {True: [], False: []}
    for _ in range(args.repeats):  # the baseline and the new way in turn, in the same run
        for together in (False, True):
            runs[together].append(watch(args.map, args.seed, args.speed, together))
            print("together" if together else "baseline", runs[together][-1])

    def median(rs):
        secs = [r["seconds"] for r in rs if r["seconds"] is not None]
        return round(statistics.median(secs), 2) if secs else None

    now, before = median(runs[True]), median(runs[False])
    out = {
        "map": args.map,
        "seed": args.seed,
        "repeats": args.repeats,
        "median_s": now,
        "baseline_median_s": before,
        "ratio": round(now / before, 2) if now and before else None,
        "ai_moves": runs[True][0]["ai_moves"],
        "target_s": TARGET_S,
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
