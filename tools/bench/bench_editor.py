"""Benchmark of the map editor on a 300-polygon 72"x48" map (tests/fixtures/large-72x48-300-
features.json, 40 stands): what a player drawing a map feels.

- frames while dragging a vertex: the real input path (mouse events through the screen's
  Select mode, a Replace command merged into one history entry per drag) and a whole frame
  drawn (update, table, panel, widgets), dummy video driver;
- the baseline in the same run: the same frames drawn with the terrain redrawn from scratch
  every frame (what a screen without the cached layer would do);
- validation after one change on a valid file (the document's ``problems()``, the same
  validator as ``hulldown check``);
- undo and redo of each kind of command (draw, move, delete a batch, a setting).

Prints a table and one JSON object on its last line. Median of repeats; run with --quick for
a smoke run.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
MAP = ROOT / "tests" / "fixtures" / "large-72x48-300-features.json"

import pygame  # noqa: E402

from game.editor import edits  # noqa: E402
from game.editor.commands import Insert, SetField, items  # noqa: E402
from game.editor.document import Document  # noqa: E402

TARGETS = {"frame_median_ms": 8.0, "frame_p99_ms": 16.0, "validate_ms": 50.0, "undo_ms": 10.0}


def _pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q / 100 * (len(xs) - 1))))]


def drag_frames(n_frames: int, cached: bool) -> list[float]:
    """Milliseconds of each frame while a vertex of the largest feature is dragged in
    circles, events through the screen as the mouse sends them."""
    from game.ui.app import App
    from game.ui.editor import editor_screen

    app = App(size=(1280, 800))
    doc = Document.open(MAP)
    screen = editor_screen(app, doc)
    app.show(screen)
    screen.update(0.016)
    screen.draw(app.surface)
    feats = items(doc.raw, "feature")
    i = max(
        (k for k, f in enumerate(feats) if f["properties"]["terrain"] != "hill"),
        key=lambda k: edits.feature_geometry(feats[k]).area,
    )
    screen.select([("feature", i)])
    addr, (vx, vy) = edits.vertices(feats[i])[0]
    start = tuple(int(round(v)) for v in screen.tv.to_px(vx, vy))
    screen.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=start, rel=(0, 0), buttons=(0, 0, 0)))
    screen.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    times = []
    for k in range(n_frames):
        a = k / 20
        pos = (start[0] + int(30 * (1 - math.cos(a))), start[1] + int(30 * math.sin(a)))
        t0 = time.perf_counter()
        screen.handle(
            pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 1), buttons=(1, 0, 0))
        )
        if not cached:
            screen.drawing._layer = None  # the baseline: terrain redrawn every frame
        screen.update(0.016)
        screen.draw(app.surface)
        pygame.display.flip()
        times.append((time.perf_counter() - t0) * 1000)
    screen.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    assert len(doc.history.entries) == 1, "a drag must be one history entry"
    pygame.quit()
    return times


def validate_times(repeats: int) -> list[float]:
    """Milliseconds of the document's validation after one change: a wood lot well inside
    the table moved 0.5" and, at the next change, back, so every measured file is valid (an
    invalid file is cheaper to check: the engine's Table is built only for a clean one)."""
    doc = Document.open(MAP)
    w, d = doc.raw["table"]["width"], doc.raw["table"]["depth"]
    lots = [
        k
        for k, f in enumerate(items(doc.raw, "feature"))
        if f["properties"]["terrain"] == "woods"
        and (lambda b: b[0] > 1 and b[1] > 1 and b[2] < w - 1 and b[3] < d - 1)(
            edits.feature_geometry(f).bounds
        )
    ]
    times = []
    for k in range(repeats):
        dx = 0.5 if k % 2 == 0 else -0.5
        doc.do(
            edits.transform(
                doc.raw, [("feature", lots[(k // 2) % len(lots)])], edits.translation(dx, 0), "m"
            )
        )
        t0 = time.perf_counter()
        problems = doc.problems()
        times.append((time.perf_counter() - t0) * 1000)
        if k % 2:  # moved back: the file as it was, which is valid
            assert problems == [], problems[:2]
    return times


def undo_redo_times(repeats: int) -> dict[str, float]:
    """Median milliseconds of undo and of redo of each kind of command."""
    doc = Document.open(MAP)
    raw = doc.raw
    lot = edits.make_feature("woods", "Polygon", edits.round_lot(30, 20, 5))
    kinds = {
        "draw": lambda: Insert("feature", len(items(raw, "feature")), lot, "draw"),
        "move 40 features": lambda: edits.transform(
            raw, [("feature", k) for k in range(40)], edits.translation(0.5, 0.5), "move"
        ),
        "delete 40 features and 10 stands": lambda: edits.delete(
            [("feature", k) for k in range(40)] + [("stand", k) for k in range(10)]
        ),
        "setting": lambda: SetField(("turns",), 7, "turns"),
    }
    out = {}
    for name, make in kinds.items():
        u, r = [], []
        for _ in range(repeats):
            doc.do(make())
            t0 = time.perf_counter()
            doc.history.undo()
            t1 = time.perf_counter()
            doc.history.redo()
            t2 = time.perf_counter()
            doc.history.undo()
            u.append((t1 - t0) * 1000)
            r.append((t2 - t1) * 1000)
        out[f"undo {name}"] = statistics.median(u)
        out[f"redo {name}"] = statistics.median(r)
    return out


def main(argv=None) -> int:
    """Run the benchmark; print the table and the JSON line."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a short smoke run")
    args = ap.parse_args(argv)
    n = 60 if args.quick else 300
    reps = 5 if args.quick else 30
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["HULLDOWN_DATA_DIR"] = tmp
        frames = drag_frames(n, cached=True)
        base = drag_frames(n, cached=False)
    fm, fp = statistics.median(frames), _pct(frames, 99)
    bm, bp = statistics.median(base), _pct(base, 99)
    val = validate_times(reps)
    vm = statistics.median(val)
    ur = undo_redo_times(reps)
    worst_undo = max(ur.values())
    result = {
        "map": MAP.name,
        "frames": n,
        "frame_median_ms": round(fm, 2),
        "frame_p99_ms": round(fp, 2),
        "baseline_frame_median_ms": round(bm, 2),
        "baseline_frame_p99_ms": round(bp, 2),
        "speedup_vs_baseline": round(bm / fm, 2),
        "validate_median_ms": round(vm, 2),
        "validate_p95_ms": round(_pct(val, 95), 2),
        "undo_redo_median_ms": {k: round(v, 3) for k, v in ur.items()},
        "targets_met": fm <= TARGETS["frame_median_ms"]
        and fp <= TARGETS["frame_p99_ms"]
        and vm <= TARGETS["validate_ms"]
        and worst_undo <= TARGETS["undo_ms"],
    }
    print(f"drag a vertex, 300 polygons: median {fm:.2f} ms, p99 {fp:.2f} ms (target 8 / 16)")
    print(f"  baseline (terrain redrawn every frame): median {bm:.2f} ms, p99 {bp:.2f} ms")
    print(f"validation after one change: median {vm:.2f} ms (target 50)")
    for k, v in ur.items():
        print(f"{k}: {v:.3f} ms (target 10)")
    print(json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
