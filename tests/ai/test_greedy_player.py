"""The independent greedy player (game/ai/greedy.py) and the gauntlet's suite table
(tools/ai/ai_gauntlet.py): it plays every decision of every shipped scenario, the same seed gives
the same battle, it takes the obviously best shot, and the suite scores and tables right."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from game import (
    ArtilleryFire,
    Battle,
    ChooseFirst,
    CoveringFire,
    EndCoveringFire,
    Fire,
    LetPass,
    Move,
    MoveAttempt,
    OpportunityFire,
    Pass,
    load_scenario,
)
from game.ai.random_player import RandomPlayer
from tests.conftest import battle
from tests.helpers import SHEAF, _moving, make, to_movement

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "ai"))

import ai_gauntlet  # noqa: E402

from game.ai.greedy import GreedyPlayer  # noqa: E402

MAPS = sorted(p.name for p in (ROOT / "maps").glob("*.json"))


def play(name: str, seed: int, opponent: str = "random") -> Battle:
    """A whole battle of a shipped scenario: the greedy player as the first side, ``opponent``
    ("random" or "greedy") as the second; every action applied (IllegalAction if not legal)."""
    b = Battle(load_scenario(ROOT / "maps" / name), seed)
    other = GreedyPlayer(seed + 1) if opponent == "greedy" else RandomPlayer(seed + 1)
    players = {b.sides[0]: GreedyPlayer(seed), b.sides[1]: other}
    n = 0
    while not b.finished:
        b.apply(players[b.to_act].choose(b))
        n += 1
        assert n < 5000
    return b


@pytest.mark.parametrize("name", MAPS)
def test_the_greedy_player_plays_every_shipped_scenario_to_its_end(name):
    assert len(MAPS) == 12  # the seed sheets, the full games, Helsinki, Golan, steppe, Sinai, Mazar
    b = play(name, 2)
    assert b.finished and b.state.turn >= 1


def test_the_greedy_player_answers_both_seats_of_a_full_game():
    b = play("modern-combined-arms.json", 3, "greedy")
    assert b.finished


def test_the_same_seed_gives_the_same_battle():
    logs = [play("modern-skirmish.json", 4, "greedy").log.events for _ in range(2)]
    assert logs[0] == logs[1]


def test_it_fires_at_the_flank_not_the_front():
    """B1 shows its flank (+10 for a T-72 against a T-72), B2 its front (+4): the attack on
    B1 is by far the likelier to eliminate it."""
    b = battle(
        [
            ("A1", "A", "T-72", 10, 10, 0),
            ("A2", "A", "T-72", 10, 14, 0),
            ("B1", "B", "T-72", 20, 10, 90),
            ("B2", "B", "T-72", 20, 16, 180),
        ],
        [],
    )
    assert GreedyPlayer(0).choose(b) == ChooseFirst("A", "A")  # fire first
    b.apply(ChooseFirst("A", "A"))
    b.apply(Pass("A"))
    b.apply(Pass("B"))
    b.apply(ChooseFirst("A", "A"))
    action = GreedyPlayer(0).choose(b)
    assert isinstance(action, Fire) and action.target == "B1"
    assert "A1" in action.attackers


def test_it_passes_with_no_shot_worth_taking():
    """A PT-76 (9) against a T-72's front (15): no legal shot, so it passes."""
    b = battle([("A1", "A", "PT-76", 10, 10, 0), ("B1", "B", "T-72", 20, 10, 180)], [])
    b.apply(ChooseFirst("A", "A"))
    b.apply(Pass("A"))
    b.apply(Pass("B"))
    b.apply(ChooseFirst("A", "A"))
    assert isinstance(GreedyPlayer(0).choose(b), Pass)


def test_opportunity_fire_at_the_step_that_shows_the_flank():
    """B1 drives 4" straight at A1 (its front shown: 0.34 of a stand expected), then turns
    north across A1's front (its flank: 0.75): A1 fires at the first step past the turn."""
    b = battle([("A1", "A", "T-72", 8, 12, 0), ("B1", "B", "T-72", 24, 12, 180)], [5, 3, 3, 3, 3])
    to_movement(b, orders_dice=(), first="B")
    b.apply(MoveAttempt("B", "1", True))
    b.apply(Move("B", "B1", ((24, 12), (20, 12), (20, 20)), 90.0))
    action = GreedyPlayer(0).choose(b)
    assert isinstance(action, OpportunityFire) and action.attackers == ("A1",)
    setups = b.opportunity_setups()
    assert setups[action.step][0].aspect == "flank" and setups[0][0].aspect == "front"
    assert action.step == 9  # the first step of the flank (ties go to the earliest)
    b2 = battle([("A1", "A", "PT-76", 8, 12, 0), ("B1", "B", "T-72", 24, 12, 180)], [5, 3, 3, 3, 3])
    to_movement(b2, orders_dice=(), first="B")
    b2.apply(MoveAttempt("B", "1", True))
    b2.apply(Move("B", "B1", ((24, 12), (20, 12)), 180.0))
    if b2.state.pending is not None:  # the PT-76 has no shot at a T-72's front: let it pass
        assert isinstance(GreedyPlayer(0).choose(b2), LetPass)


def test_covering_fire_answers_or_declines():
    """WWII: B1 has just opportunity-fired at A1 and missed; A answers with a legal covering
    fire action or declines."""
    b = _moving([5, 6, 6, 12, 1, 1])
    b.apply(OpportunityFire("B", 8, ("B1",), ("cannon",)))
    assert b.decision().kind == "covering_fire"
    action = GreedyPlayer(0).choose(b)
    assert isinstance(action, CoveringFire | EndCoveringFire)
    b.apply(action)


def test_direct_artillery_at_three_tanks():
    """Two Paladins see three T-80Us bunched together: HE on them (or pass when A must)."""
    b = make(SHEAF)
    assert b.decision().kind == "artillery"
    if b.to_act == "B":
        assert isinstance(GreedyPlayer(0).choose(b), Pass)  # nothing of B's may fire
        b.apply(Pass("B"))
    action = GreedyPlayer(0).choose(b)
    assert isinstance(action, ArtilleryFire) and action.ammo == "he"
    b.apply(action)


# ------------------------------------------------------------------ the gauntlet's suite


def fake(opp, scenario, seat, result, seed=1, cpu=(10.0,)):
    return {
        "scenario": scenario,
        "opponent": opp,
        "seed": seed,
        "seat": seat,
        "a_side": "AB"[seat],
        "result": result,
        "turn": 5,
        "a_lost": 1,
        "opp_lost": 2,
        "seconds": 1.0,
        "a_ms": list(cpu),
        "a_cpu_ms": list(cpu),
    }


def test_wilson_by_hand():
    # p = 3/4, n = 4: centre (0.75 + 3.8416/8) / 1.9604 = 0.62753, half 0.32689
    lo, hi = ai_gauntlet.wilson(3, 4)
    assert (round(lo, 4), round(hi, 4)) == (0.3006, 0.9544)
    # a score with a draw: 2.5 of 4, p = 0.625: centre 0.56376, half 0.34434
    lo, hi = ai_gauntlet.wilson(2.5, 4)
    assert (round(lo, 4), round(hi, 4)) == (0.2194, 0.9081)
    assert ai_gauntlet.wilson(0, 0) == (0.0, 1.0)


def test_the_suite_scores_and_tables_by_opponent_scenario_and_seat():
    battles = [
        fake("greedy", "skirmish", 0, "win", 1, (5.0, 20.0)),
        fake("greedy", "skirmish", 0, "draw", 2),
        fake("greedy", "skirmish", 1, "loss", 1),
        fake("greedy", "skirmish", 1, "win", 2),
        fake("veteran-43", "skirmish", 0, "loss"),
        fake("veteran-43", "skirmish", 1, "loss"),
    ]
    s = ai_gauntlet.summary(battles[:4])
    assert (s["wins"], s["draws"], s["losses"], s["score"]) == (2, 1, 1, 2.5)
    assert s["mean"] == 0.625 and s["cpu_p95_ms"] == 10.0
    text = ai_gauntlet.table_markdown(battles, "veteran")
    rows = text.splitlines()
    assert rows[0].startswith("| veteran against | scenario |")
    assert "| greedy | skirmish | A | 2 | 1-1-0 | 1.5 | 0.75 [" in rows[2]
    assert "| greedy | skirmish | B | 2 | 1-0-1 | 1 | 0.50 [" in rows[3]
    assert "| **greedy** | **all** | both | 4 | 2-1-1 | 2.5 | 0.62 [0.22, 0.91] |" in rows[4]
    assert "| **veteran-43** | **all** | both | 2 | 0-0-2 | 0 | 0.00 [0.00, 0.66] |" in rows[7]
    assert "| **everyone** | **all** | both | 6 | 2-1-3 | 2.5 | 0.42 [" in rows[8]
    assert len(rows) == 9


def test_a_mini_suite_saves_every_battle_and_prints_its_table(tmp_path, capsys):
    out = tmp_path / "suite.json"
    ai_gauntlet.main(
        [
            "--suite",
            "--a",
            "greedy",
            "--opponents",
            "random",
            "--per-seat",
            "1",
            "--jobs",
            "1",
            "--scenarios",
            str(ROOT / "maps" / "modern-skirmish.json"),
            "--out",
            str(out),
        ]
    )
    table = capsys.readouterr().out
    assert "| random | modern-skirmish | A | 1 |" in table
    ai_gauntlet.main(["--table", str(out)])
    assert capsys.readouterr().out == table


def test_a_gauntlet_player_may_carry_the_elites_thinking_time():
    """'elite@long' is the elite with the setting "AI thinking time" at long (2.5 times the
    samples); a thinking time that does not exist, or one for a player that does not think
    (the greedy player), is refused before any battle is played."""
    assert ai_gauntlet.player("elite@long", 1).thinking == "long"
    assert ai_gauntlet.player("elite", 1).thinking == "normal"
    for bad in ("elite@slow", "greedy@long"):
        with pytest.raises(ValueError, match="no thinking time"):
            ai_gauntlet.player(bad, 1)
