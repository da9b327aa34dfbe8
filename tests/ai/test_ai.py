"""The scripted AI: legal, deterministic, sensible in small set pieces, and playable on screen."""

from __future__ import annotations

import dataclasses
import math
import pickle
import random
from pathlib import Path

import pygame
import pytest

from game.ai.levels import LEVELS
from game.ai.scripted import ScriptedAI
from game.ai.values import attack_value
from game.check.sim import make_player, play_battle
from game.rules.actions import (
    ChooseFirst,
    EndCoveringFire,
    EndMoves,
    Fire,
    LetPass,
    Move,
    MoveAttempt,
    OpportunityFire,
    Pass,
)
from game.rules.battle import Battle
from game.rules.files.scenario import load_scenario, parse_scenario
from game.rules.table.geometry import StandPose, base_contact
from game.ui.logtext import PHASE_NAMES
from tests.conftest import battle, pass_phase, scenario_dict
from tests.helpers import to_movement

ROOT = Path(__file__).resolve().parents[2]
SKIRMISH = load_scenario(ROOT / "maps" / "modern-skirmish.json")


def play(scenario, seed, a, b):
    bt = Battle(scenario, seed)
    players = {bt.sides[0]: make_player(a, seed * 2 + 1), bt.sides[1]: make_player(b, seed * 2 + 2)}
    n = 0
    while not bt.finished:
        action = players[bt.to_act].choose(bt)
        assert action in bt.legal_actions() or action.kind in ("move", "fire", "opportunity_fire")
        bt.apply(action)  # raises IllegalAction if the AI ever chose something illegal
        n += 1
    return bt


@pytest.mark.parametrize("seed", [1, 2])
def test_the_ai_plays_whole_battles_with_legal_actions(seed):
    bt = play(SKIRMISH, seed, "veteran", "recruit")
    assert bt.finished


def test_same_seed_same_battle():
    logs = [play(SKIRMISH, 5, "veteran", "veteran").log.events for _ in range(2)]
    assert logs[0] == logs[1]


def test_unknown_level_is_refused():
    with pytest.raises(ValueError, match="unknown AI level"):
        ScriptedAI(0, "general")
    assert set(LEVELS) == {"elite", "veteran", "recruit", "veteran-43"}


def test_fires_the_best_attack_and_keeps_the_top_three():
    """Two targets: B1 shows its flank (+10 for a T-72 against a T-72), B2 its front (+4).
    The veteran attacks the flank with both stands."""
    b = battle(
        [
            ("A1", "A", "T-72", 10, 10, 0),
            ("A2", "A", "T-72", 10, 14, 0),
            ("B1", "B", "T-72", 20, 10, 90),
            ("B2", "B", "T-72", 20, 16, 180),
        ],
        [],
    )
    b.apply(ChooseFirst("A", "A"))
    b.apply(Pass("A"))
    b.apply(Pass("B"))
    b.apply(ChooseFirst("A", "A"))
    ai = ScriptedAI(0, "veteran")
    action = ai.choose(b)
    assert isinstance(action, Fire) and action.target == "B1"
    assert set(action.attackers) >= {"A1"}
    assert len(ai.last) == 3 and ai.last[0].score >= ai.last[1].score >= ai.last[2].score
    assert ai.last[0].label.startswith("fire at B1")


def test_holds_fire_when_no_shot_is_worth_it():
    """A PT-76 (9) against a T-72 front (15): -6, below -3: no legal shot, so it passes."""
    b = battle([("A1", "A", "PT-76", 10, 10, 0), ("B1", "B", "T-72", 20, 10, 180)], [])
    b.apply(ChooseFirst("A", "A"))
    b.apply(Pass("A"))
    b.apply(Pass("B"))
    b.apply(ChooseFirst("A", "A"))
    assert isinstance(ScriptedAI(0).choose(b), Pass)


def test_moves_to_fire_first_and_moves_second():
    b = battle([("A1", "A", "T-72", 10, 10, 0), ("B1", "B", "T-72", 40, 10, 180)], [])
    ai = ScriptedAI(0)
    assert ai.choose(b) == ChooseFirst("A", "A")  # fire phases: shoot first


def test_opportunity_fire_picks_a_flank_point_or_lets_a_hopeless_move_pass():
    # B1 drives across A1's front from (20, 4) to (20, 20): at the point level with A1 its flank
    # is shown to A1's gun (+10 for T-72 against T-72)
    b = battle([("A1", "A", "T-72", 8, 12, 0), ("B1", "B", "T-72", 20, 4, 90)], [5, 3, 3, 3, 3])
    to_movement(b, orders_dice=(), first="B")
    b.apply(MoveAttempt("B", "1", True))
    b.apply(Move("B", "B1", ((20, 4), (20, 20)), 90.0))
    assert b.to_act == "A"
    action = ScriptedAI(0).choose(b)
    assert isinstance(action, OpportunityFire)
    x, y = b.state.pending.points[action.step]
    setups = b.opportunity_setups()[action.step]
    assert setups[0].aspect == "flank"
    b2 = battle([("A1", "A", "PT-76", 8, 12, 0), ("B1", "B", "T-72", 20, 4, 90)], [5, 3, 3, 3, 3])
    to_movement(b2, orders_dice=(), first="B")
    b2.apply(MoveAttempt("B", "1", True))
    b2.apply(Move("B", "B1", ((20, 4), (20, 20)), 90.0))
    if b2.state.pending is not None:  # a PT-76 may still be offered a flank shot at -6+7
        assert isinstance(ScriptedAI(0).choose(b2), (OpportunityFire, LetPass))


def test_attack_value_rises_with_more_attackers():
    b = battle(
        [
            ("A1", "A", "T-72", 10, 10, 0),
            ("A2", "A", "T-72", 10, 14, 0),
            ("B1", "B", "T-72", 20, 12, 180),
        ],
        [],
    )
    one = attack_value(b, [b.fire_setup("A1", "B1", kind="planning")], b.stand("B1"))
    two = attack_value(
        b,
        [b.fire_setup("A1", "B1", kind="planning"), b.fire_setup("A2", "B1", kind="planning")],
        b.stand("B1"),
    )
    assert 0 < one < two


def test_simulate_with_ai_players():
    r = play_battle(SKIRMISH, 3, ("ai", "random"))
    assert r.log_problems == [] and r.turns >= 1


def test_playing_against_the_ai_on_screen(tmp_path, monkeypatch):
    """Menu-less: a battle where B is the AI; the human (A) passes, the AI answers in its
    thread, its moves are shown, and the window never blocks."""
    monkeypatch.setenv("HULLDOWN_DATA_DIR", str(tmp_path))
    from game.ui.app import App
    from game.ui.battle import AIMode, BattleScreen
    from game.ui.battles import battle_screen, new_battle

    app = App(size=(1280, 800))
    try:
        bt = new_battle(ROOT / "maps" / "modern-skirmish.json", 4, {"B": "veteran"}, 0.0)
        s = battle_screen(app, bt)
        assert isinstance(s, BattleScreen)
        app.show(s)
        for _ in range(4000):
            if bt.finished or bt.state.turn >= 2:
                break
            if isinstance(s.mode, AIMode):
                mode = s.mode
                s.update(0.016)  # starts the thinking (or applies what it thought)
                if mode.thread is not None:
                    mode.thread.join(5)
            else:
                from tests.helpers import key, press

                if s._buttons and s._buttons[0][0].text.endswith("first"):
                    press(s, s._buttons[0][0].text)
                else:
                    key(s, pygame.K_p)
            s.update(0.016)
        assert bt.state.turn >= 2 or bt.finished
        assert any(e["side"] == "B" for e in bt.log.events if "side" in e)
        s.overlays.show_explain = True
        s.draw(app.surface)  # the explain overlay lists the AI's last options
        assert s.ai["B"].last
        turn, phase = s.ai["B"].last_when
        lines = s.overlays.explain_lines()
        assert lines[0].endswith(f"last decision (turn {turn}, {PHASE_NAMES[phase]})")
        scores = [line for line in lines[1:] if line.strip()[0] in "+-"]
        assert scores and len(scores) == min(3, len(s.ai["B"].last))
        # fewer than three open: the overlay says so rather than seeming to have lost some
        assert (len(scores) < 3) == any("option" in line and "open there" in line for line in lines)
        # a long label stays inside the box, and the box inside the table view
        from game.ai.values import Option

        long = (
            "end the movement action: A1, A2, A3 wait for the others to go into the enemy's sight"
        )
        s.ai["B"].last = [Option(long, 0.0, Pass("B"))]
        box = s.overlays.draw_explain(app.surface)
        assert box.w >= pygame.font.Font(None, 22).size(f"   +0.00  {long}")[0] + 20
        assert s.tv.rect.contains(box)
    finally:
        pygame.quit()


def test_the_screen_seeds_its_ai_players_as_simulate_does(tmp_path, monkeypatch):
    """The same seed gives the same AI on the battle screen as in ``hulldown simulate``: each
    side's AI has the level and the random stream that simulate's player of that side has
    (game.ai.player_seed, by the side's place in the battle, whichever sides the AI takes)."""
    monkeypatch.setenv("HULLDOWN_DATA_DIR", str(tmp_path))
    from game.ai import player_seed
    from game.check.sim import make_players
    from game.ui.app import App
    from game.ui.battles import battle_screen, new_battle

    assert [player_seed(4, i) for i in (0, 1)] == [9, 10]  # the corpus was recorded so
    app = App(size=(1280, 800))
    try:
        for levels in ({"A": "veteran", "B": "recruit"}, {"B": "veteran"}, {"A": "recruit"}):
            bt = new_battle(ROOT / "maps" / "modern-skirmish.json", 4, levels, 0.0)
            on_screen = battle_screen(app, bt).ai
            simulated = make_players(bt, tuple(levels.get(s, "random") for s in bt.sides))
            assert set(on_screen) == set(levels)
            for side, level in levels.items():
                assert on_screen[side].level == simulated[side].level == LEVELS[level]
                assert on_screen[side].rng.getstate() == simulated[side].rng.getstate()
    finally:
        pygame.quit()


def test_a_loaded_battle_can_be_handed_to_the_ai(tmp_path, monkeypatch, capsys):
    """``hulldown play --load SAVE --ai SIDE``: the AI takes that side of the saved battle (and
    keeps it in the next saves); a side the battle does not have is refused, naming the sides,
    before any autosave is written."""

    from game.cli import main

    data = tmp_path / "data"
    monkeypatch.setenv("HULLDOWN_DATA_DIR", str(data))
    save = tmp_path / "battle.json"
    Battle(SKIRMISH, 3).save(save)
    skirmish = str(ROOT / "maps" / "modern-skirmish.json")
    for argv in (["--load", str(save)], [skirmish]):
        assert main(["play", *argv, "--ai", "C"]) == 2
        assert "--ai C: no such side (the sides are A, B)" in capsys.readouterr().err
        assert not (data / "autosave.json").exists()
    argv = ["play", "--load", str(save), "--ai", "A", "--ai-speed", "0", "--frames", "90"]
    try:
        assert main(argv) == 0
    finally:
        pygame.quit()
    from game.rules.files.journal import read_journal

    auto, _ = read_journal(data / "autosave.json")  # the autosave journal (#30)
    assert auto["meta"]["ai"] == {"A": "veteran"}
    assert auto["actions"]  # the AI, playing A, has acted


def _first_move(level, seed):
    """The first move the AI makes for A1 (a T-72 at (10, 12)) with B1 at (40, 30); None if it
    ends the movement action instead."""
    b = battle(
        [("A1", "A", "T-72", 10, 12, 0), ("B1", "B", "T-72", 40, 30, 180)],
        [5, 3] + [3] * 20,
        width=48,
        depth=36,
    )
    to_movement(b, orders_dice=(), first="A")
    b.apply(MoveAttempt("A", "1", True))
    action = ScriptedAI(seed, level).choose(b)
    return action if isinstance(action, Move) else None


def test_even_a_recruit_brings_waiting_stands_on_before_it_stops():
    """docs/rules.md "Entering the table": a side may not stop moving while a group holding
    stands waiting to enter may still try, nor end that group's action before they are on.
    The recruit picks among its best three options, so it must never be offered the stop."""

    def waiting_battle():
        b = battle(
            [
                ("A1", "A", "T-72", 10, 12, 0),
                ("A2", "A", "T-72", 0, 16, 0, {"on_table": False}),
                ("B1", "B", "T-72", 40, 30, 180),
            ],
            [5] + [3] * 20,
            width=48,
            depth=36,
        )
        return to_movement(b)

    for seed in range(20):
        b = waiting_battle()
        ai = ScriptedAI(seed, "recruit")
        assert isinstance(ai.choose(b), MoveAttempt)
        b.apply(MoveAttempt("A", "1", True))
        while b.state.moving is not None:
            b.apply(ai.choose(b) if b.to_act == "A" else LetPass("B"))
        assert b.stand("A2").on_table, seed


def _faces(move, p, q) -> bool:
    """Whether the move ends facing along the bearing from p to q (within 1 degree)."""
    bearing = math.degrees(math.atan2(q[1] - p[1], q[0] - p[0])) % 360
    return abs((move.facing_deg - bearing + 180) % 360 - 180) < 1.0


def test_a_veteran_ends_every_move_facing_the_enemy_a_recruit_sometimes_forgets():
    """Level "recruit" makes a human mistake: about half its moves end facing the way it drove,
    which can show its flank (000 07.08: flank shots halve the armour)."""
    vet = [m for m in (_first_move("veteran", s) for s in range(6)) if m]
    assert vet and all(_faces(m, m.path[-1], (40, 30)) for m in vet)
    moves = [m for m in (_first_move("recruit", s) for s in range(30)) if m]
    forgot = [
        m for m in moves if not _faces(m, m.path[-1], (40, 30)) and _faces(m, m.path[0], m.path[-1])
    ]
    assert len(moves) >= 10
    assert 0.2 * len(moves) <= len(forgot) <= 0.8 * len(moves)


def _a1_after_movement(turn):
    """A T-72 (A1) at (14, 12) and an enemy T-72 (B1) at (34, 12), a wood from x 20 to 28 between
    them: in gun range, out of sight. Only A is played by the veteran, and only in the movement
    phase of ``turn`` of 6; B and A's other decisions pass. Returns where A1 ends that turn."""
    sc = parse_scenario(
        scenario_dict(
            [("A1", "A", "T-72", 14, 12, 0), ("B1", "B", "T-72", 34, 12, 180)],
            terrain=[("woods", (20, 4, 28, 20))],
            turns=6,
        ),
        "test.json",
    )
    b = Battle(sc, 1)
    ai = ScriptedAI(0)
    while not b.finished and b.state.turn <= turn:
        if b.to_act == "A" and b.state.turn == turn and b.state.phase == "movement":
            b.apply(ai.choose(b))
            continue
        acts = b.legal_actions()
        b.apply(
            next((a for a in acts if isinstance(a, ChooseFirst)), None)
            or next(a for a in acts if isinstance(a, (Pass, EndMoves)))
        )
    return b.stand("A1").x, b.stand("A1").y


def test_late_and_short_of_kills_the_veteran_closes_in_through_cover():
    """The clock (victory by destroying 51% within the scenario's turns): early, a stand with
    no shot waits out of sight; from turn 4 of 6 it comes on into the wood, still out of sight."""
    assert _a1_after_movement(1) == (14, 12)
    x, y = _a1_after_movement(4)
    assert 20 < x < 28 and 4 < y < 20  # inside the wood: closer, and unseen


def test_in_the_last_turn_the_veteran_does_not_move():
    """After the last turn's fire phases no move can destroy anything (victory by 51%
    destroyed), it can only draw opportunity fire: the veteran holds."""
    assert _a1_after_movement(5) != (14, 12)
    assert _a1_after_movement(6) == (14, 12)


# Two woods with a 1" gap between them (y 11.5 to 12.5) screen A1's road north from B1.
GAP_WOODS = [("woods", (14, 0, 18, 11.5)), ("woods", (14, 12.5, 18, 24))]


@pytest.mark.parametrize(
    ("start", "end", "offered"),
    [
        ((10, 3.25), (10, 19.25), True),  # crosses the gap: seen at two steps of 33
        ((10, 12), (10, 4), True),  # starts in the gap's view: the start point is offered
        ((10, 2), (10, 18), True),
        ((10, 12), (4, 12), True),  # drives away down the gap's line of sight
        ((10, 4), (10, 10), False),  # stays behind the wood all the way
    ],
)
def test_the_ai_foresees_every_opportunity_fire_the_engine_offers(start, end, offered):
    """The AI's opportunity-fire risk for a path (000 07.06.05) is positive exactly when the
    engine, once the move is declared, offers the enemy a shot: a brief gap in cover and the
    starting point both count."""
    b = battle(
        [("A1", "A", "T-72", *start, 90), ("B1", "B", "T-72", 30, 12, 180)],
        [5, 3, 3, 3, 3],
        terrain=GAP_WOODS,
    )
    to_movement(b, orders_dice=(), first="A")
    b.apply(MoveAttempt("A", "1", True))
    walk = b.preview_move("A1", (start, end))
    risk = ScriptedAI(0).positions.path_risks(b, b.stand("A1"), [walk.points], [b.stand("B1")])[0]
    b.apply(Move("A", "A1", (start, end), 90.0))
    assert (b.state.pending is not None) == offered
    assert (risk > 0.5) == offered  # a flank shot at +10 when offered


def _turn_one_entry(level: str, seed: int = 0):
    """Turn 1 of a meeting: A1 (T-80U) waits at the left edge, B1 (M1A2, gun 25 against
    armour 18, and TL4: it fires first) at the right; a wood stands 8-11" in from A's edge.
    A moves first, so A1 comes on before B1. Returns the battle and A1's move."""
    b = battle(
        [
            ("A1", "A", "T-80U / AT-11", 0, 12, 0, {"on_table": False}),
            ("B1", "B", "M1A2 Abrams", 48, 12, 180, {"on_table": False}),
        ],
        [5] + [3] * 20,
        terrain=[("woods", (8, 9, 11, 15))],
        width=48,
        depth=24,
    )
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    move = ScriptedAI(seed, level).choose(b)
    assert isinstance(move, Move) and move.stand == "A1"
    return b, move


def test_entering_on_turn_one_the_veteran_keeps_out_of_sight_of_where_the_enemy_will_arrive():
    """The issue's "enter the table sensibly on turn 1": before any enemy is on the table the
    veteran counts the waiting enemy where a full move in would bring it (B1 at about 30, 12),
    and stops where that point cannot see it or inside the wood, not out in the open towards
    the enemy's edge (an M1A2 fires first on turn 2, at +7 against a T-80U's front)."""
    b, move = _turn_one_entry("veteran")
    end = b.preview_move("A1", move.path).points[-1]
    arrive = StandPose("B1", "B", 30.0, 12.0, 180.0)
    me = StandPose("A1", "A", end[0], end[1], move.facing_deg)
    seen = b.table.sight(arrive, me, [], b.sighting_in, b.ruleset_data).clear
    in_wood = "woods" in b.table.terrain_at(*end).areas
    assert not seen or in_wood, end
    assert end[0] < 12  # it stays back on its own side of the wood


def _snap(**where):
    """A turn-start snapshot as the AI keeps it: stand id -> (x, y, side); the side is the
    stand id's first letter."""
    return {sid: (x, y, sid[0]) for sid, (x, y) in where.items()}


@pytest.mark.parametrize(
    ("snaps", "pace"),
    [
        ({}, 0.0),  # nothing seen yet
        ({1: _snap(A1=(4, 12), B1=(52, 12)), 2: _snap(A1=(4, 12), B1=(46, 12))}, 6.0),
        ({1: _snap(A1=(4, 12), B1=(46, 12)), 2: _snap(A1=(4, 12), B1=(52, 12))}, 0.0),  # back
        (  # two enemy stands: one closes 8", one holds: 4" a turn
            {1: _snap(A1=(4, 12), B1=(52, 12), B2=(40, 2)), 2: _snap(B1=(44, 12), B2=(40, 2))},
            4.0,
        ),
        (  # over two turns: 6" then 2" (measured from where our stand was each time)
            {
                1: _snap(A1=(4, 12), B1=(52, 12)),
                2: _snap(A1=(10, 12), B1=(46, 12)),
                3: _snap(A1=(10, 12), B1=(44, 12)),
            },
            4.0,
        ),
    ],
)
def test_the_ai_measures_how_fast_the_enemy_closes_in(snaps, pace):
    """``_approach``: inches a turn the enemy's stands came nearer to our nearest stand, over
    the turns the AI saw begin; an enemy that falls back counts as not closing (0)."""
    b = battle([("A1", "A", "T-72", 4, 12, 0), ("B1", "B", "T-72", 40, 12, 180)], [])
    b.state.turn = max(snaps, default=1)
    ai = ScriptedAI(0)
    ai.memory.snap = snaps
    assert ai.situation.approach(b, "A") == pytest.approx(pace)


HELD_BACK = {1: _snap(A1=(4, 12), B1=(46, 12)), 2: _snap(A1=(10, 12), B1=(46, 12))}
CLOSED_IN = {1: _snap(A1=(4, 12), B1=(46, 12)), 2: _snap(A1=(10, 12), B1=(40, 12))}


@pytest.mark.parametrize(
    ("ruleset", "level", "snaps", "pressure"),
    [
        # turn 3 of 12 is 2/11 of the battle: the clock has not started (it starts at 1/4) ...
        ("wwii", "veteran", CLOSED_IN, 0.0),  # the enemy came 6" nearer: he is coming
        ("wwii", "recruit", HELD_BACK, 0.0),  # the recruit never hunts
        ("modern", "veteran", HELD_BACK, 0.0),  # nor does anyone in Modern
        # ... but against an enemy that holds back the veteran's runs from turn 1
        ("wwii", "veteran", HELD_BACK, (2 / 11) / 0.6),
    ],
)
def test_the_veteran_presses_early_against_an_enemy_that_holds_back(
    ruleset, level, snaps, pressure
):
    """WWII (``Level.hunts_below``, 0.5" a turn): an enemy that does not close in must be
    sought out, so the veteran's clock runs from the first turn. Against random (0-0.3" a turn)
    on seeds 6001-6200 it won 191 of 200, not 184; against the recruit (1-3" a turn from turn 3)
    it plays as before (docs/performance.md, stop 15)."""
    d = scenario_dict([("A1", "A", "T-72", 10, 12, 0), ("B1", "B", "T-72", 46, 12, 180)], turns=12)
    if ruleset == "wwii":
        d = scenario_dict(
            [("A1", "A", "Pz IIIJ-M", 10, 12, 0), ("B1", "B", 'M4 "Sherman"', 46, 12, 180)],
            generation=(None, None),
            sighting=20,
            turns=12,
        )
        d["ruleset"] = "wwii"
    b = Battle(parse_scenario(d, "test.json"), 0)
    b.state.turn = 3
    ai = ScriptedAI(0, level)
    ai.memory.snap = dict(snaps)
    assert ai.situation.pressure(b, "A") == pytest.approx(pressure)


@pytest.mark.parametrize(
    ("b1_a_turn_ago", "moves"),
    [
        (None, True),  # no history: B1 is out of sight (42"), A1 comes forward
        (46.0, True),  # B1 held where it was last turn: the same
        (49.0, True),  # B1 closes 3" a turn: A1 comes on, but not within 30" of (37, 12)
        (52.0, False),  # B1 closes 6" a turn: anywhere forward, half a move by B1 sees A1
    ],
)
def test_the_veteran_does_not_stop_where_a_closing_enemy_that_fires_first_will_see_it(
    b1_a_turn_ago, moves
):
    """Turn 2, open ground, sighting 30": A1 (T-80U) moves before B1 (M1A2, TL4: it fires
    first next turn, at +7 against +0, 000 05.00). If B1 has been closing in, the veteran
    counts it where it could be after closing again (three times its pace, at most half a
    move) and does not stop in sight of that point."""
    b = battle(
        [("A1", "A", "T-80U / AT-11", 4, 12, 0), ("B1", "B", "M1A2 Abrams", 46, 12, 180)],
        [5] + [3] * 20,
        width=48,
        depth=24,
    )
    to_movement(b)
    b.apply(MoveAttempt("A", "1", True))
    b.state.turn = 2
    ai = ScriptedAI(0)
    if b1_a_turn_ago is not None:
        ai.memory.snap[1] = {"A1": (4.0, 12.0, "A"), "B1": (b1_a_turn_ago, 12.0, "B")}
    action = ai.choose(b)
    assert isinstance(action, Move) == moves
    if not moves:
        return
    end = b.preview_move("A1", action.path).points[-1]
    me = StandPose("A1", "A", end[0], end[1], action.facing_deg)

    def seen_from(x):
        pose = StandPose("B1", "B", x, 12.0, 180.0)
        return b.table.sight(pose, me, [], b.sighting_in, b.ruleset_data).clear

    closing = min(10.0, 3.0 * max(0.0, b1_a_turn_ago - 46.0)) if b1_a_turn_ago else 0.0
    assert end[0] > 6  # it does come forward
    assert not seen_from(46.0 - closing)  # out of sight of where B1 will likely be
    assert seen_from(36.0)  # but not of where half a move would bring it: no hiding in vain


@pytest.mark.parametrize(("holds_win", "moves"), [(True, False), (False, True)])
def test_with_the_win_in_hand_mid_turn_the_veteran_holds_still(holds_win, moves):
    """Victory is only checked at the turn's end (seed scenario sheets), so a stand lost to
    opportunity fire in the movement phase can still turn a win into a draw. B1, A's only
    enemy, is eliminated in the 1st fire phase; in the movement phase the veteran passes
    rather than close up, as it does with ``holds_win`` off (a recruit's mistake)."""
    from dataclasses import replace

    b = battle(
        [
            ("A1", "A", "M1A2 Abrams", 10, 12, 0),
            ("A2", "A", "M1A2 Abrams", 10, 16, 0),
            ("B1", "B", "T-72", 20, 12, 90),
        ],
        [5, 6, 6, 3, 3, 3, 3],
    )
    b.apply(ChooseFirst("A", "A"))
    b.apply(Fire("A", "B1", ("A1",), ("cannon",)))  # flank: 25 - 8 = +17: E
    b.apply(Pass("B"))
    b.apply(Pass("A"))
    pass_phase(b)  # the 2nd fire phase
    b.apply(ChooseFirst("A", "A"))
    assert b.state.phase == "movement" and b.winner_if_turn_ended() == "A"
    ai = ScriptedAI(0)
    ai.level = replace(LEVELS["veteran"], holds_win=holds_win)
    action = ai.choose(b)
    assert isinstance(action, MoveAttempt) == moves
    if not moves:
        assert action == Pass("A") and "victory" in ai.last[0].label


def _in_sight_after_movement(turn: int, crosses_alone: float) -> tuple[list[str], list[str]]:
    """modern-skirmish: both sides keep still behind the ridge (every choice a pass) until A's
    movement phase of ``turn`` of 8, which the veteran plays with ``Level.crosses_alone`` set as
    given. Returns A's stands that end it in sight of an enemy stand, and the labels of the
    options the AI took in it (what the explain overlay shows first)."""
    from dataclasses import replace

    b = Battle(SKIRMISH, 1)
    ai = ScriptedAI(0)
    # the pre-#44 clock (veteran-43): the new veteran waits at a draw (docs/ai.md)
    ai.level = replace(LEVELS["veteran-43"], crosses_alone=crosses_alone)
    labels = []
    while not b.finished and b.state.turn <= turn:
        if b.to_act == "A" and b.state.turn == turn and b.state.phase == "movement":
            b.apply(ai.choose(b))
            labels.append(ai.last[0].label)
            continue
        acts = b.legal_actions()
        b.apply(
            next((a for a in acts if isinstance(a, ChooseFirst)), None)
            or next(a for a in acts if isinstance(a, (Pass, EndMoves, LetPass)))
        )
    mine = [s for s in b.state.stands.values() if s.side == "A"]
    enemies = [s for s in b.state.stands.values() if s.side == "B"]
    _, seen = b.table.sight_matrices(
        [s.pose() for s in mine],
        [e.pose() for e in enemies],
        b.poses(),
        b.sighting_in,
        b.ruleset_data,
    )
    return [s.id for i, s in enumerate(mine) if seen.clear[:, i].any()], labels


@pytest.mark.parametrize(
    ("turn", "crosses_alone", "in_sight", "why"),
    [
        # (since the hilltop +2 stopped covering the ridge's 1" slope band, nobody climbs the
        # ridge at turn 4; since the flank woods are natural outlines, nobody is tempted into
        # sight at turn 5 either: the road bend at (18, 4.5) by the octagon's edge is gone, so
        # the cases are at turn 6, where A1 and A3 each have a spot in sight and A2 none)
        # piecemeal (a recruit's way): A1 and A3 go, without A2, into sight of three T-90s
        (6, 0.0, ["A1", "A3"], "move A1 to (18.0, 8.0)"),
        # a veteran whose clock presses only later (0.9): two of three is not company enough
        # (crosses_with 2), so both close up out of sight instead
        (6, 0.9, [], "move A1 to (9.7, 13.9), out of sight"),
        # the veteran (0.7): turn 6 of 8, the clock presses, and they go
        (6, 0.7, ["A1", "A3"], "move A1 to (18.0, 8.0)"),
    ],
)
def test_the_veteran_shows_its_stands_to_the_enemy_together_not_one_by_one(
    turn, crosses_alone, in_sight, why
):
    """A stand that moves alone into sight of three enemy stands draws all their opportunity
    fire and all their shots in the next fire phases; three that go together share that fire
    and shoot back three times as much. Until the clock presses (``Level.crosses_alone``, 0.7
    for the veteran: turn 6 of 8), the veteran moves a stand into the enemy's sight only with
    two others (``Level.crosses_with``) seen already or going too; a recruit (0) goes piecemeal.
    The explain overlay says why."""
    seen, labels = _in_sight_after_movement(turn, crosses_alone)
    assert seen == in_sight
    assert why in labels


def _wwii_turn(stands, turn, until, terrain=(), labels=None, level=None, first=None):
    """A WWII (001) table of ``stands`` (turns=6) played up to phase ``until`` of ``turn``: the
    veteran (or a :class:`Level` given) plays A's decisions of that turn (from turn ``first``
    on, if given), everything else passes. Returns the battle; the label of each option the
    AI chose is appended to ``labels``."""
    d = scenario_dict(stands, terrain, generation=(None, None), sighting=20, turns=6)
    d["ruleset"] = "wwii"
    # every prompt asked (as before #43): it stops at a phase a new battle may skip
    b = Battle(parse_scenario(d, "test.json"), 3, auto_pass=False)
    ai = ScriptedAI(0)
    if level is not None:
        ai.level = level
    while not b.finished and not (b.state.turn == turn and b.state.phase == until):
        if b.to_act == "A" and (first or turn) <= b.state.turn <= turn:
            b.apply(ai.choose(b))
            if labels is not None:
                labels.append(ai.last[0].label)
            continue
        acts = b.legal_actions()
        b.apply(
            next((a for a in acts if isinstance(a, ChooseFirst)), None)
            or next(a for a in acts if isinstance(a, (Pass, EndMoves, LetPass, EndCoveringFire)))
        )
    return b


def _wwii_hunt(turn, b_xy=(24, 12)):
    """A Pz III (A1) at (18.7, 12) and a Sherman (B1) at ``b_xy`` facing away from it, inside a
    wood from x 20 to 28, after the movement phase of ``turn`` of 6."""
    stands = [("A1", "A", "Pz IIIJ-M", 18.7, 12, 0), ("B1", "B", 'M4 "Sherman"', *b_xy, 0)]
    return _wwii_turn(stands, turn, "marker_removal", terrain=[("woods", (20, 4, 28, 20))])


@pytest.mark.parametrize(
    ("b_xy", "contact"),
    [
        ((24, 12), True),  # 3" inside the wood: seen only from base contact, 9.9 MP away
        ((26.5, 12), False),  # too deep to reach this turn (001 8.3: woods cost 3 MP an inch)
    ],
    ids=["within reach", "out of reach"],
)
def test_the_wwii_veteran_goes_into_base_contact_with_a_stand_hidden_in_a_wood(b_xy, contact):
    """A stand deep in a wood can be seen only from base contact (001 6.1; sight lines inside
    a blocking area block, the stands' own footprints aside). With no other shot and the clock
    pressing (turn 4 of 6), the veteran drives into contact, its front to the target, from
    where the engine lets it fire; out of reach it closes in through the wood."""
    b = _wwii_hunt(4, b_xy)
    a1, b1 = b.stand("A1"), b.stand("B1")
    assert (a1.x, a1.y) != (18.7, 12)  # it moved
    touching = abs(math.hypot(a1.x - b1.x, a1.y - b1.y) - 1.0) < 1e-6
    assert touching == contact
    assert b.sight("A1", "B1").clear == contact
    if not contact:
        assert 20 < a1.x < b1.x  # into the wood, towards it


def _wwii_posture(b1_facing, turn=2, level=None):
    """A Pz III (A1) at (20, 14) and a Sherman (B1) at (30, 12), open ground: A1's posture once
    the fire phase of ``turn`` (of 6) begins (001 5.0), and the labels of A's choices."""
    stands = [("A1", "A", "Pz IIIJ-M", 20, 14, 0), ("B1", "B", 'M4 "Sherman"', 30, 12, b1_facing)]
    labels: list[str] = []
    return _wwii_turn(stands, turn, "fire", labels=labels, level=level).stand("A1").posture, labels


VETERAN_43 = LEVELS["veteran-43"]
"""The veteran before #44: the set pieces below measure its clock (``_pressure``), which the
new veteran weighs against the battle's outcome (``Level.weighs_outcome``) instead."""
PATIENT = dataclasses.replace(VETERAN_43, hunts_below=0.0)


@pytest.mark.parametrize(
    ("b1_facing", "level", "posture"),
    [
        (180, None, "movement"),  # B1's front towards A1: a 10" shot at -1 (001 CRT) hardly
        # hurts; 5" off B1's flank, in reach, one at +2 (halved defence, 001 7.3.1) will
        (0, PATIENT, "firing"),  # B1 shows A1 its rear already: fire from where it stands
        # B1 has not moved since it came on, so the veteran's clock runs from turn 1
        # (Level.hunts_below): it gives up the 10" shot to drive into contact with B1's rear
        (0, VETERAN_43, "movement"),
    ],
    ids=["front: go round", "rear, patient: fire", "rear, enemy holds back: into contact"],
)
def test_the_wwii_veteran_gives_up_a_poor_shot_to_move_to_a_flank(b1_facing, level, posture):
    """A stand takes the movement posture, and so does not fire this turn (001 5.0), when
    its best move is worth more over the turns left than the shot it gives up."""
    got, labels = _wwii_posture(b1_facing, level=level)
    assert got == posture
    # the explain overlay says why it moves
    assert ("movement group of A1 (a better position)" in labels) == (posture == "movement")


@pytest.mark.parametrize(
    ("a1_xy", "b1_xy", "b1_facing"),
    [
        ((30.1, 23.5), (30, 22.2), 90),
        ((30.1, 0.5), (30, 1.8), 270),
        ((47.5, 12.1), (46.2, 12), 0),
        ((40, 12), (46.5, 12), 90),
    ],
    ids=["between it and the top edge", "bottom edge", "right edge", "its flank to the edge"],
)
def test_a_move_into_base_contact_never_leaves_the_table(a1_xy, b1_xy, b1_facing):
    """The way into contact runs in square from 2" out; where that point is off the table (a
    stand between the enemy and the table's edge, or an enemy with its side to the edge) the
    AI leaves that way out (RD "Movement": a stand may not leave the table; the engine refuses
    such a path), and every path it offers stays on it."""
    stands = [("A1", "A", "Pz IIIJ-M", *a1_xy, 0), ("B1", "B", 'M4 "Sherman"', *b1_xy, b1_facing)]
    b = _wwii_turn(stands, 1, "fire")
    a1 = b.stand("A1")
    cands = ScriptedAI(0).paths.contact_candidates(b, a1, b.movement_points("A1"), set())
    assert len(cands) <= 3  # never the side towards the edge
    for _end, path, _facing, walk in cands:
        assert all(b.table.on_table(x, y) for x, y in path)
        assert math.dist(walk[-1], b1_xy) == pytest.approx(1.0)
        b.preview_move("A1", path)  # the engine walks it


def test_every_wwii_movement_group_tries_to_move():
    """A stand in the movement posture may not fire that turn (001 5.0), so the veteran
    tries to move every group it declared, even one whose wish to move is small (a flank
    to go round to, no fire drawn where it stands)."""
    stands = [("A1", "A", "Pz IIIJ-M", 20, 14, 0), ("B1", "B", 'M4 "Sherman"', 30, 12, 180)]
    b = _wwii_turn(stands, 2, "marker_removal")
    (declared,) = [e for e in b.log.events if e["event"] == "posture" and e["turn"] == 2]
    assert declared["stands"] == ["A1"]
    (attempt,) = [e for e in b.log.events if e["event"] == "move_attempt" and e["turn"] == 2]
    assert attempt["side"] == "A"


@pytest.mark.parametrize(("turn", "fires"), [(5, False), (6, True)], ids=["turn 5", "last turn"])
def test_in_the_last_wwii_turn_the_veteran_takes_even_a_poor_shot(turn, fires):
    """A 13" shot at a Sherman's front (-1, +2 for range; 001 CRT: at best an S) is worth less
    than keeping it for opportunity fire, until the last turn: the victory is counted at its
    end (RD "Sequence of play"), and a shot kept then can only be taken at a stand that
    moves."""
    stands = [("A1", "A", "Pz IIIJ-M", 5, 12, 0), ("B1", "B", 'M4 "Sherman"', 18, 12, 180)]
    b = _wwii_turn(stands, turn, "movement")
    shots = [e for e in b.log.events if e["event"] == "fire" and e["turn"] == turn]
    assert [(e["attacker"], e["target"]) for e in shots] == ([("A1", "B1")] if fires else [])


@pytest.mark.parametrize(("repositions", "posture"), [(True, "movement"), (False, "firing")])
def test_the_veteran_moves_a_stand_the_enemy_cannot_hit_to_a_better_position(repositions, posture):
    """A Sherman 18" from a Pz III's flank: its shot is at +3 for range (001 7.3.2) and the Pz
    III (15") cannot answer. Closing in is worth more over the turns left than the shot, so
    the veteran takes the movement posture (001 5.0) though nothing threatens the stand where
    it is; a level that does not reposition (the recruit) moves only stands under fire or
    with nothing to shoot at, and keeps it firing."""
    stands = [("A1", "A", 'M4 "Sherman"', 5, 12, 0), ("B1", "B", "Pz IIIJ-M", 23, 12, 90)]
    level = dataclasses.replace(VETERAN_43, repositions=repositions)
    labels: list[str] = []
    b = _wwii_turn(stands, 2, "fire", labels=labels, level=level)
    assert b.fire_setup("B1", "A1", "cannon", "planning").legal is False  # out of its range
    assert b.stand("A1").posture == posture
    assert ("movement group of A1 (a better position)" in labels) == repositions


@pytest.mark.parametrize(("keeps_company", "together"), [(0.15, True), (0.0, False)])
def test_the_wwii_veteran_closes_up_side_by_side_so_two_stands_move_as_one_group(
    keeps_company, together
):
    """A WWII movement group is a chain of stands in base contact (001 8.1.2), and a group
    moves on one cohesion roll (001 8.2). Far from the enemy, the veteran ends the second
    stand's move square beside the first, facing the same way, so that next turn they are
    declared as one group of two; a level that does not keep company ends each move on its
    own and declares two groups of one."""
    stands = [
        ("A1", "A", "Pz IIIJ-M", 4, 10, 0),
        ("A2", "A", "Pz IIIJ-M", 6, 13.5, 0),
        ("B1", "B", 'M4 "Sherman"', 46, 12, 180),
    ]
    level = dataclasses.replace(LEVELS["veteran"], keeps_company=keeps_company)
    b = _wwii_turn(stands, 2, "fire", level=level, first=1)
    moved = [e["stand"] for e in b.log.events if e["event"] == "move" and e["turn"] == 1]
    assert sorted(moved) == ["A1", "A2"]  # both rolled to move on turn 1
    a1, a2 = b.stand("A1"), b.stand("A2")
    assert base_contact(a1.pose(), a2.pose()) == together
    groups = [e["stands"] for e in b.log.events if e["event"] == "posture" and e["turn"] == 2]
    assert (["A1", "A2"] in groups) == together


@pytest.mark.parametrize(("seeks_sight", "closes_in"), [(4.0, True), (0.0, False)])
def test_the_wwii_veteran_goes_looking_for_an_enemy_a_wood_hides(seeks_sight, closes_in):
    """A Pz III (A1) 11" from a Sherman (B1), inside its gun's 15" (001 10.0) but with a wood
    between them: no line of sight (001 6.1), so no shot. Early in the battle (turn 2 of 6,
    no pressure from the clock), the veteran (``Level.seeks_sight`` 4") closes in through the
    wood to find it; a level that counts only the range (0) thinks it near enough and waits."""
    stands = [("A1", "A", "Pz IIIJ-M", 8, 12, 0), ("B1", "B", 'M4 "Sherman"', 19, 12, 180)]
    wood = [("woods", (12, 6, 16, 18))]
    before = _wwii_turn(stands, 2, "posture", terrain=wood)  # nobody has acted yet
    assert before.fire_setup("A1", "B1", "cannon", "planning").legal is False
    assert "no line of sight" in before.fire_setup("A1", "B1", "cannon", "planning").reason
    level = dataclasses.replace(LEVELS["veteran"], seeks_sight=seeks_sight)
    b = _wwii_turn(stands, 2, "marker_removal", terrain=wood, level=level)
    a1 = b.stand("A1")
    moved = [e["stand"] for e in b.log.events if e["event"] == "move" and e["turn"] == 2]
    if closes_in:
        assert moved == ["A1"]
        assert math.hypot(a1.x - 19, a1.y - 12) <= 5.0
    else:
        assert moved == []
        assert (a1.x, a1.y) == (8, 12)


def test_the_ai_thinks_in_its_own_process_as_it_would_here():
    """``game.ai.worker``: the battle screen's AI thinks in a process of its own (its window
    keeps the interpreter). Over the first turns of a WWII battle it chooses exactly what the
    same player chooses in this process, and its memory and random stream come back as they
    would be here: the same seed gives the same battle. A battle whose dice are not its
    seed's cannot be rebuilt there: the process says so (OutOfStep), and the screen then
    thinks in its own thread."""
    from game.ai import player_seed
    from game.ai.worker import OutOfStep, ThinkingProcess
    from game.rules.dice import FixedDice

    sc = load_scenario(ROOT / "maps" / "wwii-meeting.json")
    here, there = Battle(sc, 6), Battle(sc, 6)
    mine = {s: ScriptedAI(player_seed(6, i), "recruit") for i, s in enumerate(here.sides)}
    theirs = {s: ScriptedAI(player_seed(6, i), "recruit") for i, s in enumerate(there.sides)}
    proc = ThinkingProcess()
    try:
        while not here.finished and here.state.turn <= 3:
            want = mine[here.to_act].choose(here)
            got = proc.choose(theirs[there.to_act], there)
            assert got == want
            here.apply(want)
            there.apply(got)
        assert here.state_hash() == there.state_hash()
        for side in here.sides:
            assert mine[side].rng.getstate() == theirs[side].rng.getstate()
            assert mine[side].last == theirs[side].last
            assert mine[side].memory.moved_better == theirs[side].memory.moved_better
        fixed = Battle(sc, 6, dice=FixedDice([1] * 50))
        fixed.apply(Pass(fixed.to_act))
        fixed.apply(Pass(fixed.to_act))
        with pytest.raises(OutOfStep):
            proc.choose(ScriptedAI(1), fixed)
    finally:
        proc.close()
    assert not proc.alive()


def _parts(ai: ScriptedAI) -> list:
    return [
        ai.outcome,
        ai.situation,
        ai.paths,
        ai.fire,
        ai.positions,
        ai.planner,
        ai.guns,
        ai.full,
        ai.posture,
        ai.movement,
        ai.opportunity,
        ai.support,
        ai.lookahead,
    ]


def test_the_parts_share_the_ai_s_level_memory_and_stream():
    """Every part of the scripted AI reads the one level, memory and random stream the AI
    holds: a new level or stream set on the AI reaches each part, and a copy made by pickling
    (as the thinking process sends the AI) still shares them among its own parts."""
    ai = ScriptedAI(3, "recruit")
    ai.level = dataclasses.replace(ai.level, caution=0.123)
    assert all(p.level is ai.level for p in _parts(ai))
    assert all(p.memory is ai.memory for p in _parts(ai) if hasattr(p, "memory"))
    stream = random.Random(5)
    ai.rng = stream
    assert ai.planner.rng is stream and ai.lookahead.rng is stream
    ai.known_plots = {"c": {"plot": {}}}
    assert ai.memory.known_plots == {"c": {"plot": {}}}
    copy = pickle.loads(pickle.dumps(ai))
    assert all(p.level is copy.level for p in _parts(copy))
    assert all(getattr(p, "memory", copy.memory) is copy.memory for p in _parts(copy))
    assert copy.planner.rng is copy.rng is copy.lookahead.rng
    assert copy.rng.random() == ai.rng.random()  # the same stream, at the same place
    assert copy.lookahead.choosers.movement is copy.movement
