"""Benchmark of the battle screen: frame times while a path is being plotted.

A 1280x800 window (dummy video driver), the whole table in view, a generated 72"x48" map with
300 terrain polygons and 30 stands a side (60 in all), in the movement phase with a move being
plotted: every frame the mouse moves, so the path preview is walked again. Also the time from
starting ``hulldown menu`` to its first frame.

Targets (issue "Play on screen"): median frame <= 8 ms, p99 <= 16 ms; start-up <= 2 s.
Prints its figures as one JSON object on its last line.

Run: python tools/bench_render.py [--frames N]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import numpy as np  # noqa: E402
import pygame  # noqa: E402
from bench_geometry import D, W, make_map, make_stands  # noqa: E402
from shapely.geometry import mapping  # noqa: E402

from game import (  # noqa: E402
    Battle,  # noqa: E402
    ChooseFirst,
    MoveAttempt,
    Pass,
    parse_scenario,  # noqa: E402
)
from game.ui.app import App  # noqa: E402
from game.ui.battle import BattleScreen, PlotMode  # noqa: E402


def scenario(per_side: int):
    """The bench map as a scenario, every stand of a side in one group."""
    rng = np.random.default_rng(7)
    feats = make_map(rng)
    stands = make_stands(rng, per_side)
    raw = {
        "format": "hulldown-scenario/1",
        "title": "render bench",
        "ruleset": "modern",
        "table": {"width": W, "depth": D},
        "max_sighting_in": 30,
        "turns": 12,
        "terrain": {
            "type": "FeatureCollection",
            "features": [
                {
                    "type": "Feature",
                    "properties": {"terrain": f.kind}
                    | ({"level": f.level} if f.kind == "hill" else {}),
                    "geometry": mapping(f.geometry),
                }
                for f in feats
            ],
        },
        "sides": [
            {"id": "A", "name": "Blue", "cohesion": 20},
            {"id": "B", "name": "Orange", "cohesion": 20},
        ],
        "stands": [
            {
                "id": s.id,
                "side": s.side,
                "unit": "M1A2 Abrams",
                "x": s.x,
                "y": s.y,
                "facing_deg": s.facing_deg,
                "group": "1",
                "ghq": i in (0, per_side),
            }
            for i, s in enumerate(stands)
        ],
    }
    return parse_scenario(json.loads(json.dumps(raw)), "bench")


def frames(per_side: int, n: int) -> tuple[list[float], int]:
    """Frame times (ms) with a path preview under a moving mouse."""
    sc = scenario(per_side)
    seed = 0
    while True:  # a seed whose first movement attempt succeeds
        b = Battle(sc, seed)
        b.apply(Pass("A"))
        b.apply(Pass("B"))
        ini = b.state.initiative
        for _ in range(2):
            b.apply(ChooseFirst(ini, "A"))
            b.apply(Pass("A"))
            b.apply(Pass("B"))
        b.apply(ChooseFirst(ini, "A"))
        ev = b.apply(MoveAttempt("A", "1", True))
        if any(p["passed"] for p in ev[0]["per_stand"].values()):
            break
        seed += 1
    app = App(size=(1280, 800))
    screen = BattleScreen(app, b)
    app.show(screen)
    mover = b.state.moving.stands[0]
    s = b.stand(mover)
    mode = PlotMode(mover)
    screen.set_mode(mode)
    mode.points.append((s.x + 3, s.y + 1))
    times = []
    for i in range(n):
        a = 2 * math.pi * i / 90
        x, y = s.x + 3 + 6 * math.cos(a), s.y + 1 + 6 * math.sin(a)
        px, py = screen.tv.to_px(min(max(x, 1), W - 1), min(max(y, 1), D - 1))
        t = time.perf_counter()
        screen.handle(
            pygame.event.Event(
                pygame.MOUSEMOTION, pos=(int(px), int(py)), rel=(1, 1), buttons=(0, 0, 0)
            )
        )
        screen.update(1 / 60)
        screen.draw(app.surface)
        pygame.display.flip()
        times.append((time.perf_counter() - t) * 1000)
    pygame.quit()
    return times, sum(
        len(f.geometry.exterior.coords) if hasattr(f.geometry, "exterior") else 0
        for f in sc.table.features
    )


def startup_seconds() -> float:
    """Wall time of `hulldown menu` drawing one frame, in a fresh process."""
    exe = Path(sys.executable).with_name("hulldown")
    cmd = (
        [str(exe), "menu", "--frames", "1"]
        if exe.exists()
        else [sys.executable, "-m", "game", "menu", "--frames", "1"]
    )
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", HULLDOWN_DATA_DIR="/tmp/hulldown-bench")
    t = time.perf_counter()
    subprocess.run(cmd, check=True, env=env, capture_output=True)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=400)
    args = ap.parse_args()
    t60, vertices = frames(30, args.frames)
    t120, _ = frames(60, args.frames // 2)
    starts = [startup_seconds() for _ in range(3)]
    result = {
        "bench": "render",
        "window": [1280, 800],
        "terrain_polygons": 300,
        "terrain_vertices": vertices,
        "stands": 60,
        "frames": len(t60),
        "frame_median_ms": round(statistics.median(t60), 2),
        "frame_p99_ms": round(float(np.percentile(t60, 99)), 2),
        "frame_median_ms_120_stands": round(statistics.median(t120), 2),
        "frame_p99_ms_120_stands": round(float(np.percentile(t120, 99)), 2),
        "startup_to_menu_s": round(statistics.median(starts), 2),
        "targets_met": bool(
            statistics.median(t60) <= 8
            and np.percentile(t60, 99) <= 16
            and statistics.median(starts) <= 2
        ),
    }
    print(
        f"frame {result['frame_median_ms']} ms median, {result['frame_p99_ms']} ms p99; "
        f"start-up {result['startup_to_menu_s']} s"
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
