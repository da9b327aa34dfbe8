"""Idle CPU of the screens (issue 24: <= 5% of a core): start the battle screen, the menu and
the map editor in a real window, leave them alone, and sample the process's CPU time over 10 s
(Linux /proc). Needs a display: run it under Xvfb (e.g. ``xvfb-run -a python
tools/bench/bench_idle.py``). One JSON object on the last line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HULLDOWN = str(Path(sys.executable).with_name("hulldown"))
SCREENS = {
    "battle": [HULLDOWN, "play", "maps/modern-meeting.json", "--seed", "3"],
    "menu": [HULLDOWN],
    "editor": [HULLDOWN, "edit", "maps/modern-meeting.json"],
}
TARGET_PCT = 5.0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far, seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def idle_pct(cmd: list[str], settle: float = 5.0, span: float = 10.0) -> float:
    """Percent of a core the command uses while left alone, after ``settle`` seconds."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "HULLDOWN_DATA_DIR": tmp, "SDL_AUDIODRIVER": "dummy"}
        p = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            time.sleep(settle)
            c0, t0 = cpu_seconds(p.pid), time.monotonic()
            time.sleep(span)
            c1, t1 = cpu_seconds(p.pid), time.monotonic()
        finally:
            p.terminate()
            p.wait(timeout=10)
    return 100 * (c1 - c0) / (t1 - t0)


def main() -> int:
    """Measure each screen; print the table and the JSON line."""
    if not os.environ.get("DISPLAY"):
        print("bench_idle needs a display: run it under Xvfb", file=sys.stderr)
        return 2
    out = {name: round(idle_pct(cmd), 1) for name, cmd in SCREENS.items()}
    for name, pct in out.items():
        print(f"{name}: {pct}% of a core idle (target {TARGET_PCT:g}%)")
    print(
        json.dumps(
            {
                "bench": "idle_cpu",
                "pct_of_a_core": out,
                "target_met": all(v <= TARGET_PCT for v in out.values()),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
