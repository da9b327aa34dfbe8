"""How often each rule actually happens in real battles: a rules coverage report.

The engine's tests and audit check the engine against itself, so a rule that never happens in
play (a stand that never moves, a branch of the close assault nobody reaches) goes unnoticed.
This plays ``--games`` battles of every shipped scenario (maps/*.json) for each pairing of
players (AI against AI, veteran against veteran, and random against random by default), with
the same machinery as ``hulldown simulate`` (game.check.sim.play_battle: seeds ``--seed`` on,
each battle's log written and checked), reads every battle log, and prints a markdown table:
one row per rule that a log line can show (tools/coverage/coverage_rows.py, in docs/rules.md's order,
with its rule number), how often it happened, and the first log line that showed it.

A row at 0 is a finding (printed **0**) unless it cannot happen in the battles played: then the
example column says why (a ruleset that fields no such unit, a map without that terrain...).
``--why FILE`` adds reasons (``key: sentence`` lines); ``--require-all`` exits 1 when a row is
0 without one.

Run: python tools/coverage/rules_coverage.py --games 20 --jobs 2 --markdown coverage.md
     python tools/coverage/rules_coverage.py --games 2 --scenarios wwii-47-breakthrough --log-dir /tmp/l
"""

from __future__ import annotations

import argparse
import functools
import json
import multiprocessing as mp
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
for _p in (str(ROOT), str(Path(__file__).resolve().parent)):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from coverage_facts import Tally, rules_data  # noqa: E402
from coverage_rows import Row, beyond_reasons, build_rows, crt_row  # noqa: E402
from coverage_scan import scan_file  # noqa: E402

from game import ScenarioError, load_scenario  # noqa: E402
from game.check.sim import PLAYERS, play_battle  # noqa: E402

PAIRINGS = (("veteran", "veteran"), ("random", "random"))


@dataclass
class Report:
    """A coverage run: the merged ``tally``, the ``battles`` played, wall-clock ``seconds``, the
    seconds the battles took one by one (``battle_seconds``), battle-log ``problems`` (the log
    checker's), and what was played (``scenarios`` paths, ``pairings``, ``games`` per scenario
    and pairing, first ``seed``, ``jobs`` processes)."""

    tally: Tally
    battles: int = 0
    seconds: float = 0.0
    battle_seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    scenarios: tuple[str, ...] = ()
    pairings: tuple[tuple[str, str], ...] = PAIRINGS
    games: int = 0
    seed: int = 1
    jobs: int = 1


@functools.lru_cache(maxsize=16)
def _scenario(path: str):
    return load_scenario(path)


def battle_label(path: str, players: tuple[str, str], seed: int) -> str:
    """How an example names its battle: the scenario's file stem, the players and the seed,
    so ``hulldown simulate maps/STEM.json --games 1 --seed SEED --players P`` plays it again."""
    return f"{Path(path).stem} {','.join(players)} seed {seed}"


def play_one(job: tuple[str, tuple[str, str], int, str | None]) -> tuple[Tally, float, list[str]]:
    """Play one battle (scenario path, players, seed, the log's path or None for a temporary
    one) with ``play_battle`` and scan its log: returns its tally, the seconds it took and
    the log checker's problems. Raises what ``play_battle`` raises."""
    path, players, seed, keep = job
    sc = _scenario(path)
    facts = {f"{sc.ruleset}:air"} if any(s.air_support for s in sc.spec.sides) else set()
    label = battle_label(path, players, seed)
    with tempfile.TemporaryDirectory() as tmp:
        log = keep or os.path.join(tmp, "battle.jsonl")
        result = play_battle(sc, seed, players, log)
        tally = scan_file(log, label if keep is None else keep, facts)
    return tally, result.seconds, [f"{label}: {p}" for p in result.log_problems]


def run(
    scenarios: list[str],
    pairings=PAIRINGS,
    games: int = 20,
    seed: int = 1,
    jobs: int = 2,
    log_dir: str | None = None,
    progress=None,
) -> Report:
    """Play ``games`` battles (seeds ``seed`` on) of each scenario file for each pairing of
    players, on ``jobs`` processes (1: in this one), and merge their tallies in a fixed order
    (the examples are the same whatever ``jobs``). ``log_dir`` keeps each log as
    ``DIR/STEM/P1-P2/battle-seed-N.jsonl``; ``progress(done)`` is called after each battle."""
    work = []
    for path in scenarios:
        for players in pairings:
            for k in range(games):
                keep = None
                if log_dir:
                    folder = Path(log_dir) / Path(path).stem / "-".join(players)
                    folder.mkdir(parents=True, exist_ok=True)
                    keep = str(folder / f"battle-seed-{seed + k}.jsonl")
                work.append((str(path), tuple(players), seed + k, keep))
    report = Report(Tally(), scenarios=tuple(map(str, scenarios)), pairings=tuple(pairings),
                    games=games, seed=seed, jobs=jobs)  # fmt: skip
    t0 = time.perf_counter()

    def add(out) -> None:
        """Merge one battle's (tally, seconds, problems) into the report."""
        tally, secs, problems = out
        report.tally.merge(tally)
        report.battles += 1
        report.battle_seconds += secs
        report.problems += problems
        if progress:
            progress(report.battles)

    if jobs <= 1:
        for job in work:
            add(play_one(job))
    else:
        with mp.get_context("spawn").Pool(jobs) as pool:
            for out in pool.imap(play_one, work):
                add(out)
    report.seconds = time.perf_counter() - t0
    return report


def scenario_facts(start: dict) -> set[str]:
    """What a log's start line cannot say of its scenario, read from the scenario file it names
    (``scenario.path``, as given or under the project): a side's air support. Empty when the
    file is gone or does not load."""
    where = Path(str((start.get("scenario") or {}).get("path", "")))
    for p in (where, ROOT / where):
        if where.name and p.is_file():
            try:
                sc = _scenario(str(p))
            except ScenarioError:  # a file that no longer loads: no facts from it
                return set()
            return {f"{sc.ruleset}:air"} if any(s.air_support for s in sc.spec.sides) else set()
    return set()


def scan_logs(folder: str) -> Report:
    """A report of battle logs already written (every ``*.jsonl`` under ``folder``, in name
    order, each example named by its path): ``hulldown simulate --log-dir`` output, or this
    tool's ``--log-dir``, read again without playing."""
    report = Report(Tally(), games=0)
    t0 = time.perf_counter()
    for path in sorted(Path(folder).rglob("*.jsonl")):
        with open(path, encoding="utf-8") as fh:
            first = fh.readline()
        start = json.loads(first) if first.strip() else {}
        report.tally.merge(scan_file(path, str(path), scenario_facts(start)))
        report.battles += 1
    report.scenarios = (folder,)
    report.seconds = time.perf_counter() - t0
    return report


def read_why(path: str) -> dict[str, str]:
    """Reasons for rows that may stay at 0, from a file of ``key: sentence`` lines (blank
    lines and ``#`` comments skipped). Raises ValueError naming a line without a colon."""
    out = {}
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        key, sep, why = text.partition(": ")  # keys hold colons (crt:wwii:-:none), not ": "
        if not sep or not key.strip():
            raise ValueError(f"{path}: line {n}: write 'key: why'")
        out[key.strip()] = why.strip()
    return out


def explanation(row: Row, facts: set[str], extra: dict[str, str]) -> str | None:
    """Why ``row`` may stay at 0, or None (then a 0 is a finding): a reason given in
    ``extra``; the row's own reason when none of its ``needs`` is among the battles'
    ``facts``, or when it has a reason and no needs."""
    if row.key in extra:
        return extra[row.key]
    if row.needs:
        if any(f in facts for f in row.needs):
            return None
        return row.why or f"no battle played offers {' or '.join(row.needs)}"
    return row.why or None


def rows_of(report: Report) -> list[Row]:
    """The report's rows: every row of tools/coverage/coverage_rows.py, then a row for each key the
    battles counted that no row foresees (a CRT reading the card does not give)."""
    rows = build_rows(rules_data().terrain, beyond_reasons(rules_data()))
    known = {r.key for r in rows}
    extra = sorted(k for k in report.tally.counts if k not in known)
    return rows + [
        crt_row(*k.split(":")[1:4]) if k.startswith("crt:") and k.count(":") == 3
        else Row(k, f"`{k}`: counted, but no row foresees it", "(none)")
        for k in extra
    ]  # fmt: skip


def zero_rows(report: Report, extra: dict[str, str]) -> list[tuple[Row, str | None]]:
    """Each row that stayed at 0, with its reason (None: a finding)."""
    return [
        (row, explanation(row, report.tally.facts, extra))
        for row in rows_of(report)
        if not report.tally.counts[row.key]
    ]


def _commit() -> str:
    try:
        out = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True, text=True, timeout=10, check=True,
        )  # fmt: skip
        return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def render(report: Report, extra: dict[str, str] | None = None) -> str:
    """The report as markdown: what was played, the table ``| rule | where | count | example |``
    (a 0 in bold with "never happened" is a finding; a 0 with a reason cannot happen in these
    battles), then the list of findings."""
    extra = extra or {}
    t = report.tally
    pairs = "; ".join(",".join(p) for p in report.pairings)
    last = report.seed + report.games - 1
    if report.games:
        played = (
            f"{report.battles} battles: {report.games} of each scenario for each pairing "
            f"({pairs}), seeds {report.seed}-{last}; scenarios: "
            + ", ".join(Path(s).stem for s in report.scenarios)
            + f". {report.seconds:.0f} s on {report.jobs} process(es) "
            f"({report.battle_seconds:.0f} s of battles)"
        )
    else:
        played = f"{report.battles} battle logs read from {', '.join(report.scenarios)}"
    lines = [
        "# Rules coverage",
        "",
        f"{played}; engine commit {_commit()}.",
        "",
        "Count: how often the rule happened (log lines; attacks or rolls within a line). An "
        "example names the battle and the line's `seq`: `hulldown simulate maps/STEM.json "
        "--games 1 --seed SEED --players P --log-dir DIR` writes that log again. **0**: never "
        "happened, a finding; a plain 0 gives the reason it cannot happen in these battles.",
        "",
    ]
    if report.problems:
        lines += [
            f"**Battle-log problems: {len(report.problems)}** (first: {report.problems[0]})",
            "",
        ]
    lines += ["| rule | where (docs/rules.md section, rule number) | count | example (log, seq) |",
              "|---|---|---|---|"]  # fmt: skip
    findings = []
    for row in rows_of(report):
        n = t.counts[row.key]
        if n:
            count, example = str(n), t.examples.get(row.key, "")
        else:
            why = explanation(row, t.facts, extra)
            if why is None:
                findings.append(row)
                count, example = "**0**", "**never happened**"
            else:
                # a reason of --why: the rule can happen, but these players never lead to it
                lead = "not played to here" if row.key in extra else "cannot happen here"
                count, example = "0", f"{lead}: {why}"
        lines.append(f"| {row.rule} | {row.where} | {count} | {example} |")
    lines += ["", f"## Findings: {len(findings)} rules never happened", ""]
    lines += [f"- `{r.key}`: {r.rule} ({r.where})" for r in findings] or ["None."]
    return "\n".join(lines) + "\n"


def _pairing(text: str) -> tuple[str, str]:
    players = tuple(p.strip() for p in text.split(","))
    if len(players) == 1:
        players = players * 2
    if len(players) != 2 or any(p not in PLAYERS for p in players):
        raise argparse.ArgumentTypeError(f"give two of {', '.join(PLAYERS)}, e.g. veteran,veteran")
    return players  # type: ignore[return-value]


def scenario_paths(names: list[str] | None) -> list[str]:
    """The scenario files to play: every maps/*.json, or those named (a path, or a file stem
    of maps/ such as ``wwii-47-breakthrough``). Raises ValueError for a name that is neither."""
    if not names:
        return [str(p) for p in sorted((ROOT / "maps").glob("*.json"))]
    out = []
    for name in names:
        p = Path(name) if Path(name).is_file() else ROOT / "maps" / f"{Path(name).stem}.json"
        if not p.is_file():
            raise ValueError(f"no scenario {name!r} (a file, or a name of maps/*.json)")
        out.append(str(p))
    return out


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module's docstring); returns the exit status: 0, 1 with
    ``--require-all`` when a row is 0 without a reason or when a battle log broke its format,
    2 for bad arguments."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="battles per scenario and pairing")
    ap.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    ap.add_argument("--scenarios", nargs="+", help="scenario files or maps/ names (default all)")
    ap.add_argument("--pairing", type=_pairing, action="append",
                    help="players, e.g. veteran,veteran (repeat; default veteran,veteran and "
                    "random,random)")  # fmt: skip
    ap.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    ap.add_argument("--markdown", metavar="OUT", help="also write the report to OUT")
    ap.add_argument("--why", metavar="FILE", help="reasons for rows that may stay at 0")
    ap.add_argument("--log-dir", help="keep every battle log under this folder")
    ap.add_argument("--logs", metavar="DIR", help="play nothing: read the logs under DIR")
    ap.add_argument(
        "--require-all", action="store_true", help="exit 1 if a row is 0 without a reason"
    )
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be 1 or more")
    try:
        scenarios = scenario_paths(args.scenarios)
        extra = read_why(args.why) if args.why else {}
    except (ValueError, OSError) as err:
        print(f"rules_coverage: {err}", file=sys.stderr)
        return 2
    from tqdm import tqdm

    pairings = tuple(args.pairing or PAIRINGS)
    total = len(scenarios) * len(pairings) * args.games
    if args.logs:
        report = scan_logs(args.logs)
    else:
        with tqdm(total=total, desc="battles", unit="battle", file=sys.stderr) as bar:
            report = run(scenarios, pairings, args.games, args.seed, args.jobs, args.log_dir,
                         lambda done: bar.update(done - bar.n))  # fmt: skip
    text = render(report, extra)
    print(text, end="")
    if args.markdown:
        Path(args.markdown).write_text(text, encoding="utf-8")
    unexplained = [r for r, why in zero_rows(report, extra) if why is None]
    if report.problems:
        print(f"rules_coverage: {len(report.problems)} battle-log problems", file=sys.stderr)
        return 1
    if args.require_all and unexplained:
        print(f"rules_coverage: {len(unexplained)} rows never happened: "
              + ", ".join(r.key for r in unexplained), file=sys.stderr)  # fmt: skip
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
