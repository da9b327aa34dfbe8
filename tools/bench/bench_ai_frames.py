"""Benchmark of the battle screen's frames while the AI thinks (issue #30, "The AI's spikes").

The real battle screen (1280x800, dummy video driver) plays maps/wwii-meeting.json with the
scripted veteran on both sides and no move animation, at 60 frames a second as the window's
loop runs them (the loop sleeps out the rest of each 1/60 s), the mouse moving over the table
every frame. Each frame (events, update, draw, flip) is timed from when it was due (the end
of the sleep before it), so the wait for the interpreter lock after the sleep counts; the
frames that begin while the AI is thinking count. Two ways, in the same run, on the same
battle (the same seed gives the same decisions either way):

- ``process``: the AI thinks in a process of its own (``game.ai.worker``), the way the
  screen plays now;
- ``thread``: the AI thinks in a worker thread of the window's process, holding the
  interpreter lock (the GIL) the frames need: the baseline, as it was before;
- ``nobody_thinking``: the same screen with no AI player, the same mouse, 600 frames: what
  the machine's load alone does to a frame (on a shared machine, the floor).

Target (#30): thinking frames p99 <= 16 ms. Reported: frames p50/p99/max (ms) while
thinking, how many, and the AI decisions made and their wall time (s) for the turns played;
and the seconds to start the process and answer a first decision (once a program, outside
the timing). Prints one JSON object on its last line.

Run: python tools/bench/bench_ai_frames.py [--turns 4] [--seed 3] [--repeats 1]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from game import Battle, load_scenario  # noqa: E402
from game.ai import player_seed  # noqa: E402
from game.ai.scripted import ScriptedAI  # noqa: E402
from game.ui.app import App  # noqa: E402
from game.ui.battle import AIMode, BattleScreen  # noqa: E402

FRAME_S = 1 / 60
TARGET_P99_MS = 16.0


def pct(xs: list[float], q: float) -> float | None:
    """The ``q`` quantile (0..1, nearest rank below) of ``xs``, rounded; None if empty."""
    if not xs:
        return None
    s = sorted(xs)
    return round(s[int(q * (len(s) - 1))], 2)


class Frames:
    """The window's loop at 60 frames a second on ``screen``: each ``frame()`` moves the
    mouse over the table, handles it, updates, draws and flips, returns its time (ms), and
    sleeps out the rest of its 1/60 s, as ``App.run`` does."""

    def __init__(self, app, screen):
        self.app, self.screen, self.n = app, screen, 0
        self.next_at = time.perf_counter()

    def frame(self) -> float:
        """One frame: ms from when it was due (the end of the sleep before it, or the end of
        the frame before when that ran late) to the end of its flip, so that waiting for the
        interpreter after the sleep counts, as a player sees it. Never raises on its own."""
        due = self.next_at
        rect = self.screen.tv.rect
        self.n += 1
        x = rect.x + 40 + (self.n * 7) % max(1, rect.w - 80)
        y = rect.y + 40 + (self.n * 3) % max(1, rect.h - 80)
        ev = pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(7, 3), buttons=(0, 0, 0))
        self.screen.handle(ev)
        self.screen.update(FRAME_S)
        self.screen.draw(self.app.surface)
        pygame.display.flip()
        ms = (time.perf_counter() - due) * 1000
        self.next_at += FRAME_S
        wait = self.next_at - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        else:
            self.next_at = time.perf_counter()
        return ms


def run(app, think_in: str, seed: int, turns: int) -> dict:
    """Play the first ``turns`` turns of a veteran-vs-veteran wwii-meeting of ``seed`` on the
    screen with the AI thinking ``think_in`` ("process" or "thread"). Returns {"frames_ms":
    thinking frames, "all_frames": every frame, "decisions": AI decisions, "seconds": wall
    time, "state_hash": the battle's at the end}."""
    AIMode.think_in = think_in
    sc = load_scenario(ROOT / "maps" / "wwii-meeting.json")
    battle = Battle(sc, seed)
    ai = {side: ScriptedAI(player_seed(seed, i), "veteran") for i, side in enumerate(battle.sides)}
    screen = BattleScreen(app, battle, ai=ai, ai_speed=0.0)
    app.show(screen)
    loop = Frames(app, screen)
    thinking: list[float] = []
    every: list[float] = []
    t_start = time.perf_counter()
    while not battle.finished and battle.state.turn <= turns:
        mode = screen.mode
        busy = isinstance(mode, AIMode) and mode.thread is not None and mode.thread.is_alive()
        ms = loop.frame()
        every.append(ms)
        if busy:
            thinking.append(ms)
    decisions = len(battle.actions)
    screen.close()
    return {
        "frames_ms": thinking,
        "all_frames": every,
        "decisions": decisions,
        "seconds": time.perf_counter() - t_start,
        "state_hash": battle.state_hash(),
    }


def floor(app, seed: int, frames: int = 600) -> list[float]:
    """The same screen and battle with nobody thinking (no AI player, the set-up waiting for
    a click), the mouse moving, ``frames`` frames at 60 a second: what the machine's load
    alone does to a frame (ms each)."""
    battle = Battle(load_scenario(ROOT / "maps" / "wwii-meeting.json"), seed)
    screen = BattleScreen(app, battle, ai={}, ai_speed=0.0)
    app.show(screen)
    loop = Frames(app, screen)
    out = [loop.frame() for _ in range(frames)]
    screen.close()
    return out


def main() -> None:
    """Run the bench (``--turns``, ``--seed``, ``--repeats``) and print its JSON line."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--turns", type=int, default=4, help="turns of wwii-meeting played")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=1, help="runs of each way, alternated")
    args = ap.parse_args()
    app = App(size=(1280, 800))
    out: dict = {
        "bench": "ai_frames",
        "python": platform.python_version(),
        "scenario": "maps/wwii-meeting.json",
        "seed": args.seed,
        "turns": args.turns,
        "load_before": os.getloadavg()[0],
        "ways": {},
    }
    # the process is started (about a second: Python, numpy, Shapely, the engine) once per
    # program, before its first battle: started and warmed up here, outside the timing
    from game.ai.worker import thinking_process

    t = time.perf_counter()
    warm = Battle(load_scenario(ROOT / "maps" / "wwii-meeting.json"), 0)
    thinking_process().choose(ScriptedAI(0), warm)
    out["process_start_s"] = round(time.perf_counter() - t, 2)
    runs: dict[str, list[dict]] = {"process": [], "thread": []}
    floors: list[list[float]] = []
    for _ in range(args.repeats):
        floors.append(floor(app, args.seed))
        for way in ("process", "thread"):
            r = run(app, way, args.seed, args.turns)
            runs[way].append(r)
            print(
                f"  {way}: {len(r['frames_ms'])} thinking frames, p99 "
                f"{pct(r['frames_ms'], 0.99)} ms, max {max(r['frames_ms'], default=0):.1f} ms, "
                f"{r['seconds']:.1f} s",
                file=sys.stderr,
                flush=True,
            )
    hashes = {r["state_hash"] for rs in runs.values() for r in rs}
    for way, rs in runs.items():
        out["ways"][way] = {
            "thinking_frames": [len(r["frames_ms"]) for r in rs],
            "p50_ms": round(statistics.median(pct(r["frames_ms"], 0.5) or 0.0 for r in rs), 2),
            "p99_ms": statistics.median(pct(r["frames_ms"], 0.99) or 0.0 for r in rs),
            "max_ms": statistics.median(round(max(r["frames_ms"], default=0.0), 2) for r in rs),
            "all_frames_p99_ms": statistics.median(pct(r["all_frames"], 0.99) or 0.0 for r in rs),
            "battle_seconds": statistics.median(round(r["seconds"], 2) for r in rs),
            "actions": rs[0]["decisions"],
        }
    out["nobody_thinking"] = {
        "frames": [len(f) for f in floors],
        "p50_ms": round(statistics.median(pct(f, 0.5) or 0.0 for f in floors), 2),
        "p99_ms": round(statistics.median(pct(f, 0.99) or 0.0 for f in floors), 2),
        "max_ms": round(statistics.median(max(f) for f in floors), 2),
    }
    out["same_battle_either_way"] = len(hashes) == 1
    out["load_after"] = os.getloadavg()[0]
    out["target_met"] = {"thinking_p99_le_16ms": out["ways"]["process"]["p99_ms"] <= TARGET_P99_MS}
    pygame.quit()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
