"""``hulldown balance`` on the command line: the report, its chart and ``--suggest``."""

from __future__ import annotations

import argparse
import json
import signal
import sys

from tqdm import tqdm

from game import JsonFileError, ScenarioError, load_scenario
from game.check.balance import job_limit, run_balance
from game.check.balance_chart import write_chart
from game.check.suggest import suggest
from game.lifeline import Stopped, exit_code, stopping_signals


def _cap_jobs(args: argparse.Namespace) -> None:
    """A local pool runs no more processes than the cores and the memory free allow:
    ``args.jobs`` is cut to that limit, and the cut said on stderr (a dask scheduler's
    ``--jobs`` is left as given)."""
    if not args.scheduler:
        limit, why = job_limit()
        if args.jobs > limit:
            print(
                f"hulldown balance: --jobs {args.jobs}: capped at {limit} ({why})", file=sys.stderr
            )
            args.jobs = limit


def _chart(args: argparse.Namespace, report, players) -> int:
    """Draw the balance report to the ``--chart`` PNG, titled with the scenario and who
    played; 0, or 1 with one line on stderr when the file cannot be written."""
    title = load_scenario(args.scenario).spec.title
    try:
        write_chart(report, f"{title}: {players[0]} against {players[1]}", args.chart)
    except OSError as err:
        print(f"{args.chart}: cannot write the chart ({err})", file=sys.stderr)
        return 1
    print(f"  chart: {args.chart}")
    return 0


def balance_command(args: argparse.Namespace) -> int:
    """``hulldown balance``: play a scenario AI against AI on a process pool (or a dask scheduler) and report each
    side's win rate with its 95% interval, draws, mean losses and turns, and a verdict; with
    ``--chart`` draw it to a PNG, with ``--suggest`` try the sheets' balancing moves.
    Exit 1 with one line for a scenario that does not load or a scheduler not reached."""
    players = tuple(args.players.split(","))
    players = players * 2 if len(players) == 1 else players
    _cap_jobs(args)
    if args.suggest:
        return balance_suggest(args, players)
    bar = tqdm(total=args.games, unit="battle", disable=args.quiet, file=sys.stderr)
    done = [0]

    def progress(n: int) -> None:
        done[0] = n
        bar.update(n - bar.n)

    def turns(n: int) -> None:  # a long battle shows life before it ends
        if not bar.disable:
            bar.set_postfix_str(f"{n} turns played", refresh=False)
            bar.refresh()

    try:
        with stopping_signals():
            report = run_balance(
                args.scenario,
                args.games,
                args.seed,
                players,
                args.jobs,
                progress,
                scheduler=args.scheduler,
                turns=turns,
            )
    except (ScenarioError, ValueError) as err:
        bar.close()
        print(f"hulldown balance: {err}", file=sys.stderr)
        return 1
    except (KeyboardInterrupt, Stopped) as err:  # the pool's workers are ended on the way out
        bar.close()
        return stopped(err, f"after {done[0]} of {args.games} battles")
    bar.close()
    print_balance(args.scenario, report, players)
    return _chart(args, report, players) if args.chart else 0


def stopped(err: BaseException, where: str) -> int:
    """Say in one line that ``balance`` was stopped by Ctrl-C or a signal (``err``: a
    KeyboardInterrupt or a :class:`game.lifeline.Stopped`) and how far it had come; returns
    the exit status a shell expects (130 for Ctrl-C, 128 + the signal's number)."""
    signum = err.signum if isinstance(err, Stopped) else signal.SIGINT
    name = "Ctrl-C" if signum == signal.SIGINT else signal.Signals(signum).name
    print(f"hulldown balance: stopped by {name} {where}", file=sys.stderr)
    return exit_code(signum)


def print_balance(scenario: str, report, players) -> None:
    """Print a :class:`BalanceReport` as ``hulldown balance`` does, with a JSON summary last."""

    print(f"{scenario}: {report.games} battles, {players[0]} against {players[1]}")
    for s in report.sides:
        print(
            f"  {s.name or s.side} ({s.side}): {s.wins} wins, {s.rate:.1%} "
            f"(95% {s.ci[0]:.1%}-{s.ci[1]:.1%}), {s.mean_losses:.1f} stands lost on average"
        )
    print(f"  draws: {report.draws}; mean turns {report.mean_turns:.1f}; {report.seconds:.0f} s")
    print(f"  verdict: {report.verdict}")
    summary = {
        "games": report.games,
        "draws": report.draws,
        "verdict": report.verdict,
        "seconds": round(report.seconds, 1),
        **{s.side: {"wins": s.wins, "ci95": [round(v, 4) for v in s.ci]} for s in report.sides},
    }
    print(json.dumps(summary))


def balance_suggest(args: argparse.Namespace, players) -> int:
    """``hulldown balance --suggest``: the balancing move whose win rates come nearest even."""
    games = args.trial_games
    print(f"{args.scenario}: trying the sheets' balancing moves, {games} battles each")
    try:
        with stopping_signals():
            found = suggest(
                args.scenario,
                games,
                args.seed,
                players,
                args.jobs,
                args.scheduler,
                lambda line: print(f"  {line}", flush=True),
                rounds=args.rounds,
            )
    except (ScenarioError, JsonFileError, ValueError) as err:
        print(f"hulldown balance: {err}", file=sys.stderr)
        return 1
    except (KeyboardInterrupt, Stopped) as err:
        return stopped(err, "while trying the balancing moves")
    if found.best is None:
        print("  no move came nearer even than the scenario as it is")
    else:
        a, b = found.best.report.sides
        print(
            f"  suggested: {found.best.what} ({a.name or a.side} {a.rate:.0%}, "
            f"{b.name or b.side} {b.rate:.0%} over {games} battles; check it with more)"
        )
    return 0
