"""Time and memory of every command on every hostile scenario file (#26 figures).

Runs ``hulldown check``, ``simulate --games 1`` and ``render`` on each file of
tests/fixtures/hostile/ and tests/fixtures/bad/ (plus the big and strict-type cases
tests/test_hostile_limits.py builds), and ``hulldown replay`` on the hostile battle logs of
tests/test_log_hostile.py, each in its own process, and measures each process's wall time and peak memory (its own
rusage from os.wait4). Prints one line per run and a summary: tracebacks, hangs (over 10 s),
the slowest run and the largest. Exits 1 on a traceback or a hang.

Usage: python tools/hostile_figures.py [--long-log 780000]
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


def run(argv: list[str], hang_s: float = HANG_S) -> tuple[float, float, str, bool]:
    """Run ``hulldown ARGV`` headless, killed after ``hang_s`` seconds; returns (seconds,
    peak MB, stderr, hung)."""
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
            if time.perf_counter() - t0 > hang_s:
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
    """The limit cases and the strict-type cases of tests/test_hostile_limits.py, written to
    ``folder``."""
    sys.path.insert(0, str(ROOT))
    from tests.test_hostile_limits import CASES, SKIRMISH, STRICT

    paths = []
    for name, (edit, _line) in {**CASES, **STRICT}.items():
        doc = copy.deepcopy(SKIRMISH)
        edit(doc)
        p = folder / f"limit-{name.replace(' ', '-').replace('/', '-')}.json"
        p.write_text(json.dumps(doc), encoding="utf-8", errors="surrogatepass")
        paths.append(p)
    return paths


def log_cases(folder: Path) -> list[Path]:
    """The hostile battle logs of tests/test_log_hostile.py (a field of the wrong type, lines
    out of order, a log cut short), written to ``folder``."""
    sys.path.insert(0, str(ROOT))
    from tests.test_log_hostile import FIELD_CASES, ORDER_CASES, log_with_every_kind

    base = log_with_every_kind()
    paths = []
    cases = {
        **FIELD_CASES,
        **ORDER_CASES,
        "cut short": (lambda ev: ev.__delitem__(slice(100, None)), ""),
    }
    for name, (spoil, _words) in cases.items():
        events = copy.deepcopy(base)
        spoil(events)
        p = folder / f"log-{name.replace(' ', '-').replace('/', '-')}.jsonl"
        p.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
        paths.append(p)
    return paths


def long_log_figures(folder: Path, lines: int) -> None:
    """``hulldown replay`` of a log of about ``lines`` lines (tests.test_log_hostile.long_log):
    its time and peak memory, to read the log and draw 3 frames."""
    sys.path.insert(0, str(ROOT))
    from tests.test_log_hostile import log_with_every_kind, long_log

    path = folder / "long.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        fh.writelines(long_log(log_with_every_kind(), lines))
    n = sum(1 for _ in path.open(encoding="utf-8"))
    secs, mb, err, hung = run(["replay", str(path), "--frames", "3"], hang_s=600.0)
    flag = " TRACEBACK" if "Traceback" in err else (" HANG" if hung else "")
    size = path.stat().st_size / 2**20
    print(f"replay   a log of {n} lines ({size:.0f} MB): {secs:5.2f} s {mb:6.0f} MB{flag}")


def main() -> int:
    """Run every command on every file and print the figures; ``--long-log N`` adds the
    replay of an N-line log (780000: the figure of docs/formats.md)."""
    long_lines = int(sys.argv[sys.argv.index("--long-log") + 1]) if "--long-log" in sys.argv else 0
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
        logs = log_cases(Path(tmp))
        for f in logs:
            secs, mb, err, hung = run(["replay", str(f), "--frames", "2"])
            tb = "Traceback" in err
            rows.append((secs, mb, tb, hung, "replay", f.name))
            flag = " TRACEBACK" if tb else (" HANG" if hung else "")
            print(f"replay   {f.name:45} {secs:5.2f} s {mb:6.0f} MB{flag}")
        files += logs
        if long_lines:
            long_log_figures(Path(tmp), long_lines)
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
