"""Time and memory of every command on every hostile scenario file (#26 figures).

Runs ``hulldown check``, ``simulate --games 1`` and ``render`` on each file of
tests/fixtures/hostile/ and tests/fixtures/bad/ (plus the big cases tests/test_hostile_limits.py
builds) in its own process, and measures each process's wall time and peak memory (its own
rusage from os.wait4). Prints one line per run and a summary: tracebacks, hangs (over 10 s),
the slowest run and the largest. Exits 1 on a traceback or a hang.

Usage: python tools/hostile_figures.py
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HANG_S = 10.0


def run(argv: list[str]) -> tuple[float, float, str, bool]:
    """Run ``hulldown ARGV`` headless; returns (seconds, peak MB, stderr, hung)."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    t0 = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "game", *argv],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
        hung = False
        while True:
            pid, _status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - t0 > HANG_S:
                proc.kill()
                _pid, _status, usage = os.wait4(proc.pid, 0)
                hung = True
                break
            time.sleep(0.01)
        proc.returncode = 0  # reaped here; keep Popen from waiting again
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    peak_mb = usage.ru_maxrss / 1024  # kilobytes on Linux
    return time.perf_counter() - t0, peak_mb, text, hung


def big_cases(folder: Path) -> list[Path]:
    """The limit cases of tests/test_hostile_limits.py, written to ``folder``."""
    sys.path.insert(0, str(ROOT))
    from tests.test_hostile_limits import CASES, SKIRMISH

    paths = []
    for name, (edit, _line) in CASES.items():
        doc = copy.deepcopy(SKIRMISH)
        edit(doc)
        p = folder / f"limit-{name.replace(' ', '-')}.json"
        p.write_text(json.dumps(doc))
        paths.append(p)
    return paths


def main() -> int:
    """Run every command on every file and print the figures."""
    with tempfile.TemporaryDirectory() as tmp:
        files = sorted((ROOT / "tests/fixtures/hostile").glob("*.json"))
        files += sorted((ROOT / "tests/fixtures/bad").glob("*.json"))
        files += big_cases(Path(tmp))
        png = str(Path(tmp) / "x.png")
        commands = {
            "check": lambda f: ["check", str(f)],
            "simulate": lambda f: ["simulate", str(f), "--games", "1"],
            "render": lambda f: ["render", str(f), "--out", png],
        }
        rows = []
        for f in files:
            for name, argv in commands.items():
                secs, mb, err, hung = run(argv(f))
                tb = "Traceback" in err
                rows.append((secs, mb, tb, hung, name, f.name))
                flag = " TRACEBACK" if tb else (" HANG" if hung else "")
                print(f"{name:8} {f.name:45} {secs:5.2f} s {mb:6.0f} MB{flag}")
    tracebacks = sum(r[2] for r in rows)
    hangs = sum(r[3] for r in rows)
    slow = max(rows)
    big = max(rows, key=lambda r: r[1])
    print(
        f"{len(rows)} runs on {len(files)} files: {tracebacks} tracebacks, {hangs} hangs; "
        f"slowest {slow[0]:.2f} s ({slow[4]} {slow[5]}), largest {big[1]:.0f} MB "
        f"({big[4]} {big[5]})"
    )
    return 1 if tracebacks or hangs else 0


if __name__ == "__main__":
    raise SystemExit(main())
