"""``hulldown balance --suggest``: which of the seed sheets' balancing moves (or which two,
one on top of the other) brings a scenario's win rates nearest even? Points say what the sheets think a force is worth;
this plays it. The moves that weaken the favoured side or strengthen the other (remove
stands, add stands, change a cohesion level: :func:`game.editor.points.all_changes`) are
tried family by family, each a step stronger than the last, until the favoured side is no
longer favoured; each trial is a :func:`game.check.balance.run_balance` of the changed
scenario on the same seeds."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from game import ScenarioError, load_rules_data, parse_scenario, read_json_file
from game.ai.levels import DEFAULT_LEVEL
from game.check.balance import BalanceReport, run_balance
from game.editor.points import Change, all_changes, apply_change, describe, forces


@dataclass(frozen=True)
class Trial:
    """One set of moves tried: ``what`` in words, the ``changes`` in the order made, and
    the balance ``report`` of the changed scenario (None when the changes made a file that
    does not load: ``problem``)."""

    what: str
    changes: tuple[Change, ...]
    report: BalanceReport | None
    problem: str = ""

    @property
    def gap(self) -> float:
        """Side A's win rate less side B's (0 is even; inf for a failed trial)."""
        if self.report is None:
            return float("inf")
        a, b = self.report.sides
        return a.rate - b.rate

    @property
    def size(self) -> int:
        """How much the trial changes: the stands added or removed (a cohesion level 0)."""
        return sum(c.n for c in self.changes if c.kind != "cohesion")


@dataclass(frozen=True)
class Suggestion:
    """What :func:`suggest` found: the scenario's own ``base`` report, every trial in the
    order played, and the ``best`` (None when no move came nearer even than the base)."""

    base: BalanceReport
    trials: tuple[Trial, ...]
    best: Trial | None


def families(raw: dict, favoured: str) -> list[list[Change]]:
    """The moves that can even a battle ``favoured`` wins too often, grouped so each
    family's moves grow stronger: remove 1, 2, ... stands of one of its types; add 1, 2,
    ... stands of one of the other side's types; lower its cohesion level by level; raise
    the other's level by level."""
    data = load_rules_data()
    fs = forces(raw, data)
    changes = all_changes(fs)
    out: dict[tuple, list[Change]] = {}
    cohesion = {f.side_id: f.cohesion for f in fs}
    for ch in changes:
        mine = ch.side_id == favoured
        if ch.kind == "remove" and mine or ch.kind == "add" and not mine:
            out.setdefault((ch.kind, ch.side_id, ch.unit), []).append(ch)
        elif ch.kind == "cohesion":
            lower = ch.n < cohesion[ch.side_id]
            if lower == mine:
                out.setdefault(("cohesion", ch.side_id), []).append(ch)
    for key, fam in out.items():
        if key[0] == "cohesion":
            fam.sort(key=lambda c: abs(c.n - cohesion[c.side_id]))
        else:
            fam.sort(key=lambda c: c.n)
    return list(out.values())


def suggest(
    path: str,
    games: int = 40,
    seed: int = 1,
    players: tuple[str, str] = (DEFAULT_LEVEL, DEFAULT_LEVEL),
    jobs: int = 2,
    scheduler: str | None = None,
    said: Callable[[str], None] | None = None,
    max_steps: int = 6,
    rounds: int = 2,
) -> Suggestion:
    """Play the scenario at ``path`` and each family of :func:`families` (at most
    ``max_steps`` moves a family), ``games`` battles a trial on the same seeds, stopping a
    family once the favoured side no longer wins more; ``said(line)`` is told each result.
    The best trial is the one whose two win rates are nearest each other (fewer stands
    changed first among equals). When it is still not balanced, a next round (at most
    ``rounds`` in all) tries each family again on top of it. Raises what
    :func:`run_balance` raises."""
    say = said or (lambda _line: None)
    raw = read_json_file(path)
    base = run_balance(path, games, seed, players, jobs, scheduler=scheduler)
    say(f"as it is: {_rates(base)}")
    trials: list[Trial] = []
    best: Trial | None = None
    report, done, words = base, (), []
    data = load_rules_data()
    with tempfile.TemporaryDirectory(prefix="hulldown-suggest-") as tmp:
        for _ in range(rounds):
            a, b = report.sides
            if a.rate == b.rate:
                break
            favoured = a.side if a.rate > b.rate else b.side
            sign = 1 if favoured == a.side else -1
            now = raw
            for ch in done:
                now = apply_change(now, ch)
            fs = {f.side_id: f for f in forces(now, data)}
            tried = []
            for fam in families(now, favoured):
                for ch in fam[:max_steps]:
                    what = "; then ".join([*words, describe(ch, fs[ch.side_id])])
                    trial = _trial(
                        raw,
                        (*done, ch),
                        what,
                        Path(tmp),
                        path,
                        games,
                        seed,
                        players,
                        jobs,
                        scheduler,
                    )
                    tried.append(trial)
                    say(f"{what}: {_rates(trial.report) if trial.report else trial.problem}")
                    if trial.report is None or sign * trial.gap <= 0:
                        break
            trials += tried
            gap = abs(a.rate - b.rate)
            good = [t for t in tried if abs(t.gap) < gap]
            if not good:
                break
            best = min(good, key=lambda t: (abs(t.gap), t.size))
            if best.report.verdict == "balanced":
                break
            report, done, words = best.report, best.changes, best.what.split("; then ")
    return Suggestion(base, tuple(trials), best)


def _trial(raw, changes, what, tmp: Path, path, games, seed, players, jobs, scheduler) -> Trial:
    try:
        changed = raw
        for ch in changes:
            changed = apply_change(changed, ch)
        parse_scenario(changed, f"{path} ({what})")
    except (ValueError, ScenarioError) as err:
        return Trial(what, changes, None, str(err).splitlines()[0])
    f = tmp / Path(path).name
    f.write_text(json.dumps(changed), encoding="utf-8")
    report = run_balance(str(f), games, seed, players, jobs, scheduler=scheduler)
    return Trial(what, changes, report)


def _rates(r: BalanceReport) -> str:
    a, b = r.sides
    return (
        f"{a.name or a.side} {a.rate:.0%}, {b.name or b.side} {b.rate:.0%}, "
        f"draws {r.draws / r.games:.0%} ({r.verdict})"
    )
