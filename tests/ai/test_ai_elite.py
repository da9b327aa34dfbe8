"""The elite level: its look-ahead plays candidates forward on sandboxed copies of the battle,
never with the battle's own dice, within a budget per turn."""

from __future__ import annotations

import copy

import pytest

from game import Battle, Move, Sandbox, load_scenario, seat_view
from game.ai import search
from game.ai.elite import UNTIMED_ENV
from game.ai.scripted import ScriptedAI
from game.ai.search import BasePolicy, LocalRollouts, horizon, play_out, stopped
from game.ai.search_pool import WORKERS_ENV
from game.rules.state import Mission


@pytest.fixture(autouse=True)
def _in_process(monkeypatch):
    """Continuations in the test's own process, every round played whatever the clock says."""
    monkeypatch.setenv(WORKERS_ENV, "0")
    monkeypatch.setenv(UNTIMED_ENV, "1")


def _to_move(path="maps/wwii-meeting.json", seed=5001, turn=5):
    """A battle played by two veterans up to a stand's move in turn ``turn``."""
    b = Battle(load_scenario(path), seed)
    players = {b.sides[0]: ScriptedAI(1, "veteran"), b.sides[1]: ScriptedAI(2, "veteran")}
    while b.state.turn < turn or b.decision().kind != "plot_move":
        b.apply(players[b.to_act].choose(b))
    return b


@pytest.fixture(scope="module")
def at_move():
    return _to_move()


def test_the_choice_never_depends_on_the_battles_future_dice(at_move):
    """Two battles that differ only in the dice still to be rolled: the elite weighs the same
    continuations (the copies' dice come from its own stream) and makes the same choice; and
    nothing of the battle it thought about changes."""
    b1 = at_move
    b2 = Battle(b1.scenario, b1.seed)
    for a in b1.actions:
        b2.apply(a)
    b2.dice.reseed(987654321)  # other dice from here on
    assert b1.state_hash() != b2.state_hash()  # (the dice are part of the state's hash)
    before = (b1.state_hash(), b1.dice.rolled, len(b1.actions))
    e1, e2 = ScriptedAI(7, "elite"), ScriptedAI(7, "elite")
    a1, a2 = e1.choose(b1), e2.choose(b2)
    assert e1.thought is not None and len(e1.thought.rows) >= 2  # it did look ahead
    assert e1.thought.rows == e2.thought.rows  # the same continuations, to the last bit
    assert a1 == a2
    assert (b1.state_hash(), b1.dice.rolled, len(b1.actions)) == before


def test_other_seeds_of_its_own_stream_sample_other_dice(at_move):
    """The continuations' dice are the AI's own: another seed of the AI gives other samples
    (so the test above would have seen the battle's dice if the copies used them)."""
    e1, e2 = ScriptedAI(7, "elite"), ScriptedAI(8, "elite")
    e1.choose(at_move)
    e2.choose(at_move)
    assert e1.thought.rows != e2.thought.rows


def test_a_fork_holds_what_the_seat_knows_and_rolls_its_own_dice(at_move):
    """The other side's plotted missions are left out of the copy (002 7.11: plotted unseen),
    our own kept; the copy's dice are seeded by the caller; playing the copy changes nothing
    of the battle."""
    b = at_move
    side, other = b.to_act, b.other(b.to_act)
    st = copy.deepcopy(b.state)
    st.missions = [
        Mission("m1", side, "artillery", st.turn + 1, st.turn, ("X",), ((1.0, 1.0),)),
        Mission("m2", other, "artillery", st.turn + 1, st.turn, ("Y",), ((2.0, 2.0),)),
    ]
    view = seat_view(st, side)
    assert [m.id for m in view.missions] == ["m1"]
    assert [m.id for m in st.missions] == ["m1", "m2"]  # the state itself is untouched
    before = (b.state_hash(), b.dice.rolled)
    box = Sandbox(b).fork(b, dice_seed=42, seat=side)
    assert box is not b and box.dice is not b.dice and box.dice.seed == 42
    assert box.state.stands.keys() == b.state.stands.keys()
    ai = ScriptedAI(1, "veteran")
    for _ in range(30):  # the copy goes on without the battle
        if box.finished:
            break
        box.apply(ai.choose(box) if box.to_act == side else ScriptedAI(2, "veteran").choose(box))
    assert (b.state_hash(), b.dice.rolled) == before
    assert box.state_hash() != b.state_hash()


def test_continuations_stop_after_the_next_fire_phases(at_move):
    """A move's continuation stops at the next turn's movement phase (after its fire
    phases); it never stops inside this turn's movement."""
    b = at_move
    side = b.to_act
    turn, fire = horizon(b)
    assert (turn, fire) == (b.state.turn, False)
    assert not stopped(b, turn, fire)
    box = Sandbox(b).fork(b, 3, side)
    act = ScriptedAI(1, "veteran").choose(b)
    score = play_out(box, side, act, (turn, fire), BasePolicy(ScriptedAI(3, "veteran")), (1, 1))
    assert score is not None
    assert box.state.turn == b.state.turn + 1 and box.phase.kind == "movement"
    assert any(e["event"] == "attack" for e in box.log.events) or box.state.turn > turn


def test_with_expected_moves_the_stands_still_to_move_make_them(at_move):
    """``Level.base_moves``: in a move's continuation the stands of both sides that have not
    moved this turn make their expected moves (``search.expected_moves``) when their battle
    group moves; without them every such stand holds where it stands."""
    b = at_move
    side = b.to_act
    plans = search.expected_moves(b)
    assert plans and all(not b.stand(sid).moved for sid in plans)
    assert {b.stand(sid).side for sid in plans} == set(b.sides)  # both sides are expected to move
    act = ScriptedAI(1, "veteran").choose(b)
    start = {s.id: (s.x, s.y) for s in b.state.stands.values()}

    def moved_stands(base):
        box = Sandbox(b).fork(b, 3, side)
        assert play_out(box, side, act, horizon(b), base, (1, 1), 3) is not None
        return {
            sid for sid, st in box.state.stands.items()
            if st.on_table and (st.x, st.y) != start[sid] and sid != getattr(act, "stand", None)
        }

    held = moved_stands(BasePolicy(ScriptedAI(3, "veteran")))
    moving = moved_stands(search.Continuation(lambda seed: ScriptedAI(seed, "veteran"),
                                              tuple(sorted(plans.items())))(3))
    assert len(moving - held) >= 2 and moving - held <= set(plans)


def test_a_refused_candidate_scores_nothing(at_move):
    """A candidate the engine refuses on the copy scores None and is never chosen."""
    b = at_move
    side = b.to_act
    enemy = next(s.id for s in b.state.stands.values() if s.side != side)
    bad = Move(side, enemy, ((0.0, 0.0), (1.0, 1.0)), 0.0)
    assert b.refusal(bad) is not None
    rounds = LocalRollouts().run(
        b, side, [bad], [1], (1.0, 1.0), lambda s: ScriptedAI(s, "veteran"), None
    )
    assert rounds == [[None]]


def test_the_turns_budget_stops_the_look_ahead(at_move, monkeypatch):
    """With the clock running (not untimed), a decision stops sampling once its share of the
    turn's budget is spent, and once the turn's budget is gone the scorers decide alone."""
    monkeypatch.delenv(UNTIMED_ENV)
    clock = [1000.0]

    def tick():
        clock[0] += 0.05  # every look at the clock costs 50 ms of thinking
        return clock[0]

    monkeypatch.setattr(search.time, "monotonic", tick)
    e = ScriptedAI(7, "elite")
    e.choose(at_move)
    spent = e.memory.spent[(at_move.state.turn, at_move.to_act)]
    assert e.thought is not None and e.thought.rounds < e.level.samples
    assert spent <= e.level.turn_budget_s * 0.5 + 0.5  # its share, and one continuation
    e.memory.spent[(at_move.state.turn, at_move.to_act)] = e.level.turn_budget_s
    e.choose(at_move)
    assert e.thought is None  # nothing left this turn: the veteran's own choice


def test_a_pool_of_workers_plays_the_same_rounds(at_move, monkeypatch):
    """The workers play the rounds the deciding process would (the same seeds, the same
    scores), whichever worker plays which round."""
    from game.ai.scripted import veteran_fire
    from game.ai.search_pool import RolloutPool

    b = at_move
    side = b.to_act
    acts = [ScriptedAI(1, "veteran").choose(b)]
    seeds = [11, 12, 13]
    local = LocalRollouts().run(b, side, acts, seeds, (1.0, 1.2), veteran_fire, None)
    pool = RolloutPool(2)
    try:
        assert pool.run(b, side, acts, seeds, (1.0, 1.2), veteran_fire, None) == local
    finally:
        pool.close()


def test_the_explain_line_says_what_it_played_through(at_move):
    e = ScriptedAI(7, "elite")
    e.choose(at_move)
    text = e.thought_text()
    assert text.startswith("Looked ahead: ") and "continuations each" in text
    assert "through the next fire phases" in text
    v = ScriptedAI(7, "veteran")
    assert v.thought_text() is None


def test_the_thinking_time_setting_scales_the_budget(at_move):
    """The setting "AI thinking time" reaches the battle's AI players and scales the elite's
    turn budget (quick 0.4, normal 1, long 2.5 times 4 s); the veteran has none."""
    from game.ai.scripted import ai_players

    players = ai_players(at_move, {"A": "veteran", "B": "elite", "Z": "elite"}, "quick")
    assert set(players) == {"A", "B"}  # a side the battle does not have is left out
    assert players["B"].thinking == "quick"
    left, whole = players["B"].thinking_budget(at_move, "B")
    assert whole == pytest.approx(1.6) and left == pytest.approx(1.6)
    assert players["A"].thinking_budget(at_move, "A") is None
    assert ScriptedAI(1, "elite", "long").thinking_budget(at_move, "B")[1] == pytest.approx(10.0)
