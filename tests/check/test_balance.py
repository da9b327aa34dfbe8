"""The balance check (#34 part 3): Wilson intervals against known binomial cases, the
verdict, and whole runs the same whatever the number of processes."""

from __future__ import annotations

import pytest

from game import cli
from game.check.balance import SideResult, run_balance, verdict, wilson
from game.rules.files.jsonfile import read_json_file


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


def test_seats_swap_in_every_other_battle():
    from game.check.balance import seats

    assert [seats(("veteran", "recruit"), k) for k in range(3)] == [
        ("veteran", "recruit"),
        ("recruit", "veteran"),
        ("veteran", "recruit"),
    ]


def test_losses_by_turn_end_at_the_battles_losses():
    r = run_balance("maps/modern-skirmish.json", games=3, seed=2, jobs=1)
    for s in r.sides:
        curve = s.losses_by_turn
        assert curve and all(b >= a for a, b in zip(curve, curve[1:], strict=False))
        assert curve[-1] == pytest.approx(s.mean_losses)


def test_the_chart_is_a_png_of_the_report(tmp_path):
    import pygame

    from game.check.balance_chart import write_chart

    out = tmp_path / "chart.png"
    assert (
        cli.main(
            [
                "balance",
                "maps/modern-skirmish.json",
                "--games",
                "2",
                "--jobs",
                "1",
                "--quiet",
                "--chart",
                str(out),
            ]
        )
        == 0
    )
    img = pygame.image.load(str(out))
    assert img.get_size() == (1200, 500)
    r = run_balance("maps/modern-skirmish.json", games=2, seed=1, jobs=1)
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    with pytest.raises(OSError):  # a folder that is a file: nothing written, one OSError
        write_chart(r, "x", tmp_path / "a-file" / "chart.png")


def test_a_dask_cluster_gives_the_local_pools_results():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        far = run_balance(
            "maps/modern-skirmish.json",
            games=4,
            seed=11,
            players=("veteran", "recruit"),
            scheduler=cluster.scheduler_address,
        )
    near = run_balance(
        "maps/modern-skirmish.json", games=4, seed=11, players=("veteran", "recruit"), jobs=1
    )
    assert far == near


def test_an_unreachable_scheduler_is_one_line(capsys):
    pytest.importorskip("distributed")
    argv = [
        "balance",
        "maps/modern-skirmish.json",
        "--games",
        "1",
        "--quiet",
        "--scheduler",
        "tcp://127.0.0.1:9",
    ]
    assert cli.main(argv) == 1
    assert "cannot reach the dask scheduler" in capsys.readouterr().err


def test_suggest_tries_moves_that_weaken_the_favoured_side(tmp_path):
    from game.check.suggest import families, suggest

    raw = read_json_file("maps/modern-meeting.json")
    fams = families(raw, "B")
    kinds = {(f[0].kind, f[0].side_id) for f in fams}
    assert kinds == {("remove", "B"), ("add", "A"), ("cohesion", "A"), ("cohesion", "B")}
    for f in fams:
        if f[0].kind == "cohesion" and f[0].side_id == "B":
            assert [c.n for c in f][:3] == [15, 14, 13]  # B's 16, lowered a level at a time
    lines = []
    found = suggest(
        "maps/modern-skirmish.json",
        games=2,
        seed=3,
        jobs=1,
        said=lines.append,
        max_steps=1,
        rounds=2,
    )
    assert lines[0].startswith("as it is:")
    assert len(found.trials) == len(lines) - 1
    if found.best is not None:
        assert abs(found.best.gap) < abs(found.base.sides[0].rate - found.base.sides[1].rate)
        assert 1 <= len(found.best.changes) <= 2


def test_the_shipped_balanced_meeting_is_the_tools_output_and_the_seed_sheet_less_4_m1a2():
    """Four M1A2 fewer and their cohesion 14: the rest is the seed sheet's."""
    import json
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    sys.path.insert(0, str(root / "tools" / "maps"))
    from make_balanced_meeting import build

    shipped = read_json_file(root / "maps" / "modern-meeting-balanced.json")
    assert shipped == json.loads(json.dumps(build()))
    seed = read_json_file(root / "maps" / "modern-meeting.json")
    skip = ("title", "description", "stands", "sides")
    kept = {k: v for k, v in shipped.items() if k not in skip}
    assert kept == {k: v for k, v in seed.items() if k not in skip}
    assert [s["cohesion"] for s in shipped["sides"]] == [15, 14]
    assert [dict(s, cohesion=0) for s in shipped["sides"]] == [
        dict(s, cohesion=0) for s in seed["sides"]
    ]
    b = [s["unit"] for s in shipped["stands"] if s["side"] == "B"]
    assert b == ["M1A2 Abrams"] * 3
    a = [s for s in shipped["stands"] if s["side"] == "A"]
    assert a == [s for s in seed["stands"] if s["side"] == "A"]


def test_the_chart_draws_a_run_of_nothing_but_draws():
    """Found on the first breakthrough run: 100 draws, where the Wilson interval's ends sit
    a rounding error off the shares (no negative error bars)."""
    from game import load_scenario
    from game.check.balance import Outcome, report_of
    from game.check.balance_chart import chart_png

    sc = load_scenario("maps/modern-skirmish.json")
    draws = [Outcome(None, 12, {"A": 1, "B": 6}, ({"A": 0, "B": 1},)) for _ in range(100)]
    png = chart_png(report_of(sc, draws), "draws")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
