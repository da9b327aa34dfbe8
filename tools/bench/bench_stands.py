"""Benchmark of drawing the stands alone (#46), each stand style, interleaved in one run.

The render bench's map and stands (tools/bench/bench_render.py: 300 terrain polygons, 60 M1A2s a
side at random facings), a 920x756 table view zoomed in 3x as the bench's pan is. Thread CPU
time (less disturbed by other processes than the wall clock) of:

- ``draw``: ``TableView.draw_stands`` of the 120 stands, their sprites kept;
- ``pan``: a pan frame's table: the kept terrain scrolled by a few pixels and the stands;
- ``new_zoom``: (models) the first ``draw_stands`` at each of 10 new zooms of 1.15x from
  there, every sprite painted and turned anew.

Prints one JSON object on its last line. Run: python tools/bench/bench_stands.py [--frames N]
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
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
from bench_render import PER_SIDE, scenario  # noqa: E402

from game import Battle  # noqa: E402
from game.ui.table_view import TableView  # noqa: E402


def _ms(values: list[float]) -> dict:
    v = sorted(values)
    return {
        "median_ms": round(1000 * statistics.median(v), 2),
        "p99_ms": round(1000 * v[min(len(v) - 1, int(0.99 * len(v)))], 2),
    }


def main(argv=None) -> int:
    """Run the bench; print the figures of each style and one JSON line."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=150, help="frames a style a round")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of the two styles")
    args = ap.parse_args(argv)
    pygame.init()
    pygame.display.set_mode((1280, 800))
    b = Battle(scenario(PER_SIDE), 1)
    stands = list(b.state.stands.values())
    for s in stands:
        s.on_table = True  # all 120 drawn, as in the render bench
    tv = TableView(b.table, pygame.Rect(0, 44, 920, 756))
    surf = pygame.Surface((1280, 800))
    out: dict[str, dict[str, list[float]]] = {}
    for style in ("symbols", "models") * args.rounds:
        tv.stand_style = style
        tv.fit()
        tv.zoom_at(3, tv.rect.center)
        tv.draw_stands(surf, stands, b.sides)  # the sprites kept
        got = out.setdefault(style, {"draw": [], "pan": []})
        for i in range(args.frames):
            t = time.thread_time()
            tv.draw_stands(surf, stands, b.sides)
            got["draw"].append(time.thread_time() - t)
            step = 1 if i % 40 < 20 else -1
            tv.pan(3 * step, step)
            t = time.thread_time()
            tv.draw_terrain(surf)
            tv.draw_stands(surf, stands, b.sides)
            got["pan"].append(time.thread_time() - t)
    tv.stand_style = "models"
    new_zoom = []
    for _ in range(10):
        tv.zoom_at(1.15, tv.rect.center)
        t = time.thread_time()
        tv.draw_stands(surf, stands, b.sides)
        new_zoom.append(time.thread_time() - t)
    result = {"bench": "stands", "stands": len(stands)}
    for style, got in out.items():
        result[style] = {k: _ms(v) for k, v in got.items()}
        print(style, {k: _ms(v) for k, v in got.items()})
    result["models"]["new_zoom"] = {
        **_ms(new_zoom),
        "max_ms": round(1000 * max(new_zoom), 2),
        "last_scale": round(tv.view.scale, 1),
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
