"""The turn: set-up, initiative, marker removal, victory, saves and the log (000 05.00, 07.07)."""

from __future__ import annotations

import json

import pytest

from game.rules.actions import ChooseFirst, Fire, Pass, Regroup
from game.rules.battle import Battle, IllegalAction, SaveError
from game.rules.dice import FixedDice
from game.rules.files.journal import read_journal
from game.rules.files.log import check_log
from game.rules.files.scenario import parse_scenario
from tests.conftest import battle, pass_phase, scenario_dict
from tests.helpers import MAP, _random_battle

T72, M1A2, T80 = "T-72", "M1A2 Abrams", "T-80U / AT-11"
TWO = [("A1", "A", T72, 10, 12, 0), ("B1", "B", T72, 20, 12, 180)]


def new_battle(stands, dice, **kw):
    sc = parse_scenario(scenario_dict(stands, **kw), "test.json")
    return Battle(sc, 0, dice=FixedDice(dice))


def through_turn(b, marker_dice=()):
    """Pass every phase of the current turn (orders 3+3 each side, A choosing and first; the
    next turn's initiative 6+6 against 1+1)."""
    b.dice._values[b.dice._next : b.dice._next] = [3, 3, 3, 3, *marker_dice, 6, 6, 1, 1]
    turn = b.state.turn
    while b.state.turn == turn and not b.finished:
        b.apply(ChooseFirst("A", "A"))
        b.apply(Pass("A"))
        b.apply(Pass("B"))


# --- set-up (000 05.00 phase 0, 08.01.01) ----------------------------------------------------


def test_battle_groups_change_before_turn_1_only():
    b = new_battle(TWO, [6, 6, 1, 1])
    b.apply(Regroup("A", "A1", "tanks"))
    assert b.stand("A1").group == "tanks"
    with pytest.raises(IllegalAction, match="not A's stand"):
        b.apply(Regroup("A", "B1", "x"))
    b.apply(Pass("A"))
    b.apply(Pass("B"))
    assert b.state.turn == 1
    with pytest.raises(IllegalAction):
        b.apply(Regroup("A", "A1", "again"))


# --- initiative (000 05.00 step 1) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("cohesion", "dice", "winner", "tiebreaks"),
    [
        ((15, 15), [6, 6, 1, 1], "A", []),
        ((15, 15), [1, 1, 6, 6], "B", []),
        ((15, 16), [4, 4, 3, 3], "A", []),  # 8 + 15 = 23 beats 6 + 16 = 22
        ((15, 15), [3, 3, 2, 4, 1, 2, 5, 1], "B", [{"A": [1, 2], "B": [5, 1]}]),
        (
            (15, 15),
            [3, 3, 2, 4, 2, 2, 1, 3, 6, 6, 1, 1],
            "A",
            [{"A": [2, 2], "B": [1, 3]}, {"A": [6, 6], "B": [1, 1]}],
        ),
    ],
    ids=["A higher", "B higher", "cohesion counts", "tie re-rolled once", "tie re-rolled twice"],
)
def test_initiative(cohesion, dice, winner, tiebreaks):
    b = new_battle(TWO, dice, cohesion=cohesion)
    b.apply(Pass("A"))
    b.apply(Pass("B"))
    (ev,) = [e for e in b.log.events if e["event"] == "initiative"]
    assert ev["winner"] == winner == b.state.initiative
    assert ev["tiebreaks"] == tiebreaks
    assert ev["rolls"]["A"]["total"] == sum(dice[:2]) + cohesion[0]


def test_nobody_passes_before_the_initiative_says_who_acts_first():
    """In each fire and movement phase the side with the initiative first chooses who acts
    first (000 07.02.04, 08.02.04); a pass before that is refused with that reason."""
    b = battle(TWO, [])
    with pytest.raises(IllegalAction, match="choose who acts first"):
        b.apply(Pass("A"))
    b.apply(ChooseFirst("A", "B"))
    b.apply(Pass("B"))
    assert b.to_act == "A"


# --- marker removal (000 07.07, 07.03.04) ---------------------------------------------------


@pytest.mark.parametrize(
    ("markers", "roll", "outcome", "after"),
    [
        ((True, False), 11, "recovered", (False, False)),  # 11 + 4 = 15
        ((True, False), 12, "none", (True, False)),  # 16 > 15
        ((True, True), 8, "recovered", (False, True)),  # 8 + 7 = 15: S off, D stays
        ((False, True), 2, "none", (False, True)),  # only a natural 1 removes D
        ((True, True), 1, "rallied", (False, False)),
        ((False, True), 1, "rallied", (False, False)),
        ((False, False), None, None, (False, False)),  # no markers: no roll
    ],
)
def test_marker_removal(markers, roll, outcome, after):
    b = battle(TWO, [])
    b.stand("B1").S, b.stand("B1").D = markers
    through_turn(b, [roll] if roll else [])
    lines = [e for e in b.log.events if e["event"] == "marker_removal"]
    if outcome is None:
        assert lines == []
    else:
        (ev,) = lines
        assert (ev["roll"], ev["outcome"]) == (roll, outcome)
        assert ev["total"] == roll + 4 * markers[0] + 3 * markers[1]
    assert after == (b.stand("B1").S, b.stand("B1").D)


@pytest.mark.parametrize(
    ("markers", "after", "eliminated"),
    [
        ((False, True), (True, True), False),
        ((True, False), (True, True), False),
        ((True, True), (True, True), True),
    ],
    ids=["panic on D alone gives S", "panic on S gives D", "panic on S and D eliminates"],
)
def test_marker_removal_panic_on_a_natural_20(markers, after, eliminated):
    b = battle(TWO, [])
    b.stand("B1").S, b.stand("B1").D = markers
    through_turn(b, [20])
    (ev,) = [e for e in b.log.events if e["event"] == "marker_removal"]
    assert ev["outcome"] == "panic"
    assert after == (b.stand("B1").S, b.stand("B1").D)
    assert b.stand("B1").eliminated is eliminated


@pytest.mark.parametrize(("roll", "passed"), [(11, True), (12, False), (1, True)])
def test_atgm_resupply_at_plus_4(roll, passed):
    b = battle([("A1", "A", T80, 10, 12, 0), ("B1", "B", T72, 30, 12, 180)], [])
    b.stand("A1").depleted = True
    through_turn(b, [roll])
    (ev,) = [e for e in b.log.events if e["event"] == "resupply"]
    assert (ev["total"], ev["passed"]) == (roll + 4, passed)
    assert b.stand("A1").depleted is not passed


# --- the worked example of 001 section 5, through the engine --------------------------------


@pytest.mark.parametrize(
    ("last_roll", "outcome", "after"),
    [
        (6, "recovered", {"S": False, "D": True, "eliminated": False}),
        (1, "rallied", {"S": False, "D": False, "eliminated": False}),
        (20, "panic", {"S": True, "D": True, "eliminated": True}),
    ],
)
def test_worked_example_of_001_section_5(last_roll, outcome, after):
    """Cohesion 13. Turn 1: an S; marker removal rolls 10: 10 + 4 = 14 fails. Turn 2: an (S)
    becomes D; marker removal: 6 + 7 = 13 removes the S, a natural 1 removes both, a natural 20
    panics to (S), which on S is D, and the second D eliminates."""
    stands = [("A1", "A", T72, 10, 12, 0), ("B1", "B", T72, 20, 12, 180)]
    # T-72 at T-72 front, band 10: +4, range +0. Turn 1: cohesion 5, 2D6 6+6 = 12: S; orders;
    # marker removal 10; turn 2 initiative; cohesion 5, 2D6 5+5 = 10: (S); orders; marker
    # removal ``last_roll``; turn 3 initiative (unless the battle is over).
    dice = [5, 6, 6, 3, 3, 3, 3, 10, 6, 6, 1, 1, 5, 5, 5, 3, 3, 3, 3, last_roll, 6, 6, 1, 1]
    b = battle(stands, dice, cohesion=(15, 13))

    def to_fire2_and_fire():
        b.apply(ChooseFirst("A", "A"))
        b.apply(Pass("A"))
        b.apply(Pass("B"))
        b.apply(ChooseFirst("A", "A"))
        return [e for e in b.apply(Fire("A", "B1", ("A1",), ("cannon",))) if e["event"] == "fire"][
            0
        ]

    def rest_of_turn():
        b.apply(Pass("B"))
        b.apply(Pass("A"))
        b.apply(ChooseFirst("A", "A"))
        b.apply(Pass("A"))
        b.apply(Pass("B"))

    ev = to_fire2_and_fire()
    assert ev["result"] == "S"
    rest_of_turn()
    mr = [e for e in b.log.events if e["event"] == "marker_removal"]
    assert (mr[-1]["total"], mr[-1]["outcome"]) == (14, "none")  # 10 + 4 = 14 > 13
    assert b.state.turn == 2
    ev = to_fire2_and_fire()
    assert ev["crt"] == "(S)" and ev["result"] == "D"
    assert ev["target_markers_after"] == {"S": True, "D": True, "eliminated": False}
    rest_of_turn()
    mr = [e for e in b.log.events if e["event"] == "marker_removal"][-1]
    assert mr["outcome"] == outcome and mr["markers_after"] == after
    if last_roll == 6:
        assert mr["total"] == 13 and mr["level"] == 13


# --- victory (seed scenario sheets) ------------------------------------------------------------


def test_victory_at_the_end_of_the_turn():
    stands = [
        ("A1", "A", M1A2, 10, 12, 0),
        ("A2", "A", M1A2, 10, 16, 0),
        ("B1", "B", T72, 20, 12, 90),
    ]
    b = battle(stands, [5, 6, 6, 3, 3, 3, 3])
    b.apply(ChooseFirst("A", "A"))
    b.apply(Fire("A", "B1", ("A1",), ("cannon",)))  # flank: 25 - 8 = +17: E
    assert b.stand("B1").eliminated
    b.apply(Pass("B"))
    b.apply(Pass("A"))
    pass_phase(b)  # the 2nd fire phase
    pass_phase(b)  # movement
    assert b.finished and b.state.winner == "A"
    end = b.log.events[-1]
    assert end["event"] == "end" and end["winner"] == "A" and end["losses"] == {"A": 0, "B": 1}
    assert "destroyed 100%" in end["reason"]
    assert b.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        b.apply(Pass("A"))


@pytest.mark.parametrize(
    ("lost_a", "lost_b", "winner"),
    [
        (0, 0, None),
        (0, 1, None),  # 1 of 3 destroyed is 33%: short of 51%
        (0, 2, "A"),  # 67% destroyed, nothing lost
        (1, 2, "A"),  # 33% lost is within the 50% limit
        (2, 2, None),  # both past 51%, both past the 50% limit: nobody
        (2, 1, "B"),
        (3, 3, None),
    ],
)
def test_who_would_win_were_the_turn_to_end_now(lost_a, lost_b, winner):
    """Victory (seed scenario sheets, RD "Victory"): destroy at least 51% of the enemy while
    losing at most 50%. The engine answers it for any losses, before the turn's end."""
    stands = [(f"{s}{i}", s, T72, 10 + 20 * (s == "B"), 4 * i, 0) for s in "AB" for i in (1, 2, 3)]
    b = battle(stands, [])
    assert b.winner_if_turn_ended({"A": lost_a, "B": lost_b}) == winner


@pytest.mark.parametrize(("a", "b", "needed"), [(3, 3, 2), (10, 7, 4), (7, 10, 6), (1, 1, 1)])
def test_kills_needed_for_victory(a, b, needed):
    """51% destroyed (seed scenario sheets): 2 of 3, 4 of 7, 6 of 10, 1 of 1."""
    stands = [(f"A{i}", "A", T72, 10, 1 + 2 * i, 0) for i in range(a)]
    stands += [(f"B{i}", "B", T72, 30, 1 + 2 * i, 180) for i in range(b)]
    bt = battle(stands, [])
    assert bt.kills_needed("A") == needed
    assert bt.winner_if_turn_ended({"A": 0, "B": needed}) == "A"
    assert bt.winner_if_turn_ended({"A": 0, "B": needed - 1}) is None


def test_a_win_in_hand_mid_turn_is_only_decided_at_the_turn_s_end():
    """The battle's own losses: B1 eliminated in the 1st fire phase gives A the win if the turn
    ended now, but the battle goes on to the turn's end (seed scenario sheets)."""
    b = battle([("A1", "A", M1A2, 10, 12, 0), ("B1", "B", T72, 20, 12, 90)], [5, 6, 6])
    assert b.winner_if_turn_ended() is None
    b.apply(ChooseFirst("A", "A"))
    b.apply(Fire("A", "B1", ("A1",), ("cannon",)))  # flank: 25 - 8 = +17: E
    assert b.winner_if_turn_ended() == "A"
    assert not b.finished and b.state.winner is None


def test_draw_after_the_last_turn():
    b = battle(TWO, [], turns=1)
    through_turn(b)
    assert b.finished and b.state.winner is None
    assert b.log.events[-1]["reason"].endswith("a draw")
    assert check_log(b.log.events) == []


# --- saves (scenario + seed + actions; the state hash proves the replay) --------------------


def test_save_and_load_replay_to_the_same_state(tmp_path):
    b = _random_battle(3, 120)
    path = tmp_path / "save.json"
    b.save(path)
    again = Battle.load(path)
    assert again.state_hash() == b.state_hash()
    assert again.log.events == b.log.events
    assert again.legal_actions() == b.legal_actions()


def test_autosave_after_every_action(tmp_path):
    path = tmp_path / "auto.json"
    b = _random_battle(4, 40, path)
    doc, _ = read_journal(path)  # the autosave journal (#30)
    assert len(doc["actions"]) == len(b.actions) and doc["state_hash"] == b.state_hash()
    assert [p.name for p in tmp_path.iterdir()] == ["auto.json"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(state_hash="0" * 16), "$.state_hash: the replay reached"),
        (lambda d: d.update(format="x"), "$.format"),
        (lambda d: d.pop("seed"), "$.seed: required"),
        (lambda d: d["actions"].__setitem__(0, {"kind": "teleport"}), "$.actions[0]"),
        (lambda d: d["scenario"].pop("title"), "$.scenario"),
    ],
)
def test_a_bad_save_names_file_field_and_problem(tmp_path, change, message):
    b = _random_battle(5, 30)
    path = tmp_path / "save.json"
    b.save(path)
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))
    with pytest.raises(SaveError) as err:
        Battle.load(path)
    assert str(err.value).startswith(str(path))
    assert message in str(err.value)


def test_log_file_is_written_line_by_line(tmp_path):
    from game.rules.files.scenario import load_scenario

    log = tmp_path / "battle.jsonl"
    b = Battle(load_scenario(MAP), 1, log_path=log)
    b.apply(Pass("A"))
    lines = log.read_text().splitlines()
    assert [json.loads(x)["event"] for x in lines] == ["start", "pass"]  # flushed as it goes
    start = json.loads(lines[0])
    assert start["terrain"] == json.loads(MAP.read_text())["terrain"]


@pytest.mark.parametrize(
    ("unit", "first"),
    [(M1A2, True), (T80, False), (T72, False)],  # TL4, TL3, TL3
)
def test_only_tl4_fires_in_the_first_fire_phase_even_after_firing_this_turn(unit, first):
    """000 05.00 step 2: the 1st fire phase is for TL4 stands. ``fires_in_first_phase`` says so
    from the tech level alone (the AI plans the next turn with it); ``may_fire_in`` agrees on a
    stand that has not fired, and refuses one that has already fired in that phase."""
    b = battle([("A1", "A", unit, 10, 12, 0), ("B1", "B", T72, 30, 12, 180)], [])
    a1 = b.stand("A1")
    assert b.rules.fire.fires_in_first_phase(a1) == first
    assert b.rules.fire.may_fire_in(a1, "fire1") == first
    a1.fired_in.add("fire1")
    a1.fire_attempts = 1
    assert b.rules.fire.fires_in_first_phase(a1) == first
    assert not b.rules.fire.may_fire_in(a1, "fire1")
