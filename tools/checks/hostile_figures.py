"""Time and memory of every command on every hostile scenario file (#26 figures).

Runs ``hulldown check``, ``simulate --games 1`` and ``render`` on each file of
tests/fixtures/hostile/ and tests/fixtures/bad/ (plus the big and strict-type cases
tests/hostile/test_hostile_limits.py builds), and ``hulldown replay`` on the hostile battle logs of
tests/hostile/test_log_hostile.py, and every file of tests/fixtures/hostile42/ (#42) through the
commands a user would run on it (:func:`hostile42_jobs`), each in its own process, and
measures each process's wall time and peak memory (its own rusage from os.wait4). Prints one line per run and a summary: tracebacks, signals (a
segfault or an abort), hangs (over 10 s), the slowest run and the largest. Exits 1 on a
traceback, a signal or a hang.

Usage: python tools/checks/hostile_figures.py [--long-log 780000] [--only-42]
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

ROOT = Path(__file__).resolve().parents[2]
HANG_S = 10.0


def run(argv: list[str], hang_s: float = HANG_S) -> tuple[float, float, str, bool]:
    """Run ``hulldown ARGV`` headless, killed after ``hang_s`` seconds; returns (seconds,
    peak MB, stderr, hung). A process ended by a signal of its own (a segfault, an abort: #42)
    has ``SIGNAL N`` appended to its stderr, so it counts as a finding like a traceback."""
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
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - t0 > hang_s:
                proc.kill()
                _pid, status, usage = os.wait4(proc.pid, 0)
                hung = True
                break
            time.sleep(0.01)
        proc.returncode = 0  # reaped here; keep Popen from waiting again
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
        if not hung and os.WIFSIGNALED(status):
            text += f"\nSIGNAL {os.WTERMSIG(status)}"
    peak_mb = usage.ru_maxrss / 1024  # kilobytes on Linux
    return time.perf_counter() - t0, peak_mb, text, hung


def big_cases(folder: Path) -> list[Path]:
    """The limit cases and the strict-type cases of tests/hostile/test_hostile_limits.py, written to
    ``folder``."""
    sys.path.insert(0, str(ROOT))
    from tests.hostile.test_hostile_limits import CASES, SKIRMISH, STRICT

    paths = []
    for name, (edit, _line) in {**CASES, **STRICT}.items():
        doc = copy.deepcopy(SKIRMISH)
        edit(doc)
        p = folder / f"limit-{name.replace(' ', '-').replace('/', '-')}.json"
        p.write_text(json.dumps(doc), encoding="utf-8", errors="surrogatepass")
        paths.append(p)
    return paths


def log_cases(folder: Path) -> list[Path]:
    """The hostile battle logs of tests/hostile/test_log_hostile.py (a field of the wrong type, lines
    out of order, a log cut short), written to ``folder``."""
    sys.path.insert(0, str(ROOT))
    from tests.hostile.test_log_hostile import FIELD_CASES, ORDER_CASES, log_with_every_kind

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
    """``hulldown replay`` of a log of about ``lines`` lines (tests.hostile.test_log_hostile.long_log):
    its time and peak memory, to read the log and draw 3 frames."""
    sys.path.insert(0, str(ROOT))
    from tests.hostile.test_log_hostile import log_with_every_kind, long_log

    path = folder / "long.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        fh.writelines(long_log(log_with_every_kind(), lines))
    n = sum(1 for _ in path.open(encoding="utf-8"))
    secs, mb, err, hung = run(["replay", str(path), "--frames", "3"], hang_s=600.0)
    flag = finding(err) or (" HANG" if hung else "")
    size = path.stat().st_size / 2**20
    print(f"replay   a log of {n} lines ({size:.0f} MB): {secs:5.2f} s {mb:6.0f} MB{flag}")


def finding(err: str) -> str:
    """ " TRACEBACK" or " SIGNAL" when a run's stderr shows one (see :func:`run`), else ""."""
    if "Traceback" in err:
        return " TRACEBACK"
    return " SIGNAL" if "\nSIGNAL " in err else ""


def hostile42_jobs(png: str) -> list[tuple[str, list[str], Path]]:
    """The files of tests/fixtures/hostile42/ (#42) and the commands a user would run on
    each: a ``.json`` scenario through check, simulate, render, points and the editor; a
    ``.jsonl`` battle log through replay and ``replay --check``; a ``.save.json`` save
    through ``play --load``; a ``.geojson`` is imported by the editor (its tests), so it
    is opened here with ``check`` only."""
    jobs = []
    for f in sorted((ROOT / "tests/fixtures/hostile42").rglob("*")):
        if not f.is_file():
            continue
        name = f.name
        if name.endswith(".save.json"):
            jobs.append(("play", ["play", "--load", str(f), "--frames", "2"], f))
        elif name.endswith(".jsonl"):
            jobs.append(("replay", ["replay", str(f), "--frames", "2"], f))
            jobs.append(("replay?", ["replay", str(f), "--check"], f))
        elif name.endswith(".json"):
            jobs.append(("check", ["check", str(f)], f))
            jobs.append(("simulate", ["simulate", str(f), "--games", "1"], f))
            jobs.append(("render", ["render", str(f), "--out", png], f))
            jobs.append(("points", ["points", str(f)], f))
            jobs.append(("edit", ["edit", str(f), "--frames", "2"], f))
        elif name.endswith(".geojson"):
            jobs.append(("check", ["check", str(f)], f))
    return jobs


def main() -> int:
    """Run every command on every file and print the figures; ``--long-log N`` adds the
    replay of an N-line log (780000: the figure of docs/formats.md)."""
    long_lines = int(sys.argv[sys.argv.index("--long-log") + 1]) if "--long-log" in sys.argv else 0
    only42 = "--only-42" in sys.argv  # just the files of #42 (to run on an older checkout too)
    with tempfile.TemporaryDirectory() as tmp:
        png = str(Path(tmp) / "x.png")
        if only42:
            jobs = hostile42_jobs(png)
            files = sorted({f for _n, _a, f in jobs})
            return _report(jobs, files)
        files = sorted((ROOT / "tests/fixtures/hostile").glob("*.json"))
        files += sorted((ROOT / "tests/fixtures/bad").glob("*.json"))
        files += big_cases(Path(tmp))
        commands = {
            "check": lambda f: ["check", str(f)],
            "simulate": lambda f: ["simulate", str(f), "--games", "1"],
            "render": lambda f: ["render", str(f), "--out", png],
        }
        jobs = [(name, argv(f), f) for f in files for name, argv in commands.items()]
        logs = log_cases(Path(tmp))
        jobs += [("replay", ["replay", str(f), "--frames", "2"], f) for f in logs]
        files += logs
        new = hostile42_jobs(png)
        jobs += new
        files += sorted({f for _n, _a, f in new})
        if long_lines:
            long_log_figures(Path(tmp), long_lines)
        return _report(jobs, files)


def _report(jobs: list[tuple[str, list[str], Path]], files: list[Path]) -> int:
    """Run each job (a command's name, its argv, its file), print a line each and the
    summary; 1 on a traceback, a signal or a hang."""
    rows = []
    for name, argv, f in jobs:
        secs, mb, err, hung = run(argv)
        flag = finding(err) or (" HANG" if hung else "")
        rows.append((secs, mb, flag.strip(), hung, name, f.name))
        print(f"{name:8} {f.name:45} {secs:5.2f} s {mb:6.0f} MB{flag}", flush=True)
    tracebacks = sum(r[2] == "TRACEBACK" for r in rows)
    signals = sum(r[2] == "SIGNAL" for r in rows)
    hangs = sum(r[3] for r in rows)
    slow = max(rows)
    big = max(rows, key=lambda r: r[1])
    print(
        f"{len(rows)} runs on {len(files)} files: {tracebacks} tracebacks, {signals} signals, "
        f"{hangs} hangs; slowest {slow[0]:.2f} s ({slow[4]} {slow[5]}), largest "
        f"{big[1]:.0f} MB ({big[4]} {big[5]})"
    )
    return 1 if tracebacks or signals or hangs else 0


if __name__ == "__main__":
    raise SystemExit(main())
