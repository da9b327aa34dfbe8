"""The balance check (#34 part 3): Wilson intervals against known binomial cases, the
verdict, and whole runs the same whatever the number of processes."""

from __future__ import annotations

import pytest

from game import cli
from game.check.balance import SideResult, run_balance, verdict, wilson


@pytest.mark.parametrize(
    ("k", "n", "lo", "hi"),
    [
        (50, 100, 0.4038, 0.5962),  # the textbook case: 0.5 of 100
        (0, 10, 0.0, 0.2775),  # no successes: the interval still reaches 28%
        (10, 10, 0.7225, 1.0),
        (86, 200, 0.3633, 0.4993),  # modern-combined-arms' first balance run (US)
    ],
)
def test_wilson_intervals_of_known_cases(k, n, lo, hi):
    a, b = wilson(k, n)
    assert (a, b) == pytest.approx((lo, hi), abs=1e-4)


def test_wilson_refuses_more_successes_than_trials():
    with pytest.raises(ValueError):
        wilson(11, 10)


def _side(side, wins, n=200):
    return SideResult(side, side, wins, wins / n, wilson(wins, n), 0.0)


@pytest.mark.parametrize(
    ("a", "b", "want"),
    [(96, 84, "balanced"), (140, 40, "favours A"), (30, 150, "favours B")],
)
def test_the_verdict_is_balanced_while_the_intervals_overlap(a, b, want):
    assert verdict(_side("A", a), _side("B", b)) == want


def test_a_run_is_the_same_on_one_process_or_two():
    one = run_balance("maps/modern-skirmish.json", games=4, seed=11, jobs=1)
    two = run_balance("maps/modern-skirmish.json", games=4, seed=11, jobs=2)
    assert one == two
    assert sum(s.wins for s in one.sides) + one.draws == 4


def test_hulldown_balance_reports_and_names_a_bad_file(tmp_path, capsys):
    assert (
        cli.main(["balance", "maps/modern-skirmish.json", "--games", "2", "--jobs", "1", "--quiet"])
        == 0
    )
    out = capsys.readouterr().out
    assert "verdict:" in out and "(95% " in out
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    assert cli.main(["balance", str(bad), "--games", "2", "--quiet"]) == 1
    assert "hulldown balance:" in capsys.readouterr().err
