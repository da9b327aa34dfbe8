"""The first hour (#43), the sequence of play: no prompt with nothing to decide. The engine
skips a fire phase in which no stand of either side has a legal shot, passes for a side that
has none, and asks who acts first only when both sides have one (000 05.00, 07.02.04;
001 5.0, 7.1.1); the log says so in one line a player reads, and an order roll's line says
what its total needed (000 08.02.01). Saves, journals and logs written before keep their own
sequence: they hold those passes and choices as actions."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from game.check.corpus import digest
from game.rules.actions import ChooseFirst, Fire, Pass
from game.rules.battle import Battle
from game.rules.dice import FixedDice
from game.rules.files.logreplay import LogReplay
from game.rules.files.scenario import parse_scenario
from game.ui.logwords import describe
from tests.conftest import scenario_dict

ROOT = Path(__file__).resolve().parents[2]
M1A2, T72 = "M1A2 Abrams", "T-72"  # TL4 fires in the 1st fire phase, TL3 not (000 05.00)
OFF = {"on_table": False}


def new_battle(stands, dice=(), **kw) -> Battle:
    """A new battle (automatic passes) past set-up, A with the initiative (6+6 to 1+1),
    ``dice`` after the initiative dice."""
    sc = parse_scenario(scenario_dict(stands, **kw), "test.json")
    b = Battle(sc, 0, dice=FixedDice([6, 6, 1, 1, *dice]))
    assert b.auto_pass
    b.apply(Pass("A"))
    b.apply(Pass("B"))
    return b


def lines(b, first: int = 0) -> list[tuple]:
    """(event, phase, side, auto, skip) of the log's lines from ``first`` on."""
    return [
        (e["event"], e["phase"], e.get("side"), e.get("auto"), e.get("skip"))
        for e in b.log.events[first:]
    ]


NEITHER, NONE = "no stand of either side has a legal shot", "no legal shot"
SKIPPED = [
    ("pass", "fire1", "A", NEITHER, 1),
    ("pass", "fire1", "B", NEITHER, 2),
    ("pass", "fire2", "A", NEITHER, 1),
    ("pass", "fire2", "B", NEITHER, 2),
]


# --- the engine: rules table with fixed dice ------------------------------------------------


@pytest.mark.parametrize(
    "stands, kw",
    [
        # turn 1, every stand still off the table (RD "Entering the table")
        ([("A1", "A", M1A2, 0, 12, 0, OFF), ("B1", "B", T72, 48, 12, 180, OFF)], {}),
        # on the table, out of sight of each other (sighting 10")
        ([("A1", "A", M1A2, 10, 12, 0), ("B1", "B", T72, 40, 12, 180)], {"sighting": 10}),
    ],
    ids=["off-table", "out-of-sight"],
)
def test_fire_phases_without_a_shot_are_skipped_straight_to_movement(stands, kw):
    """000 05.00 steps 2-3, 07.02.04: no stand of either side has a legal shot, so neither
    fire phase asks anything: from the initiative straight to the movement phase, whose
    orders are rolled (000 08.02.01); the log has the two passes of each skipped phase."""
    b = new_battle(stands, [3, 3, 3, 3], **kw)
    start = next(i for i, e in enumerate(b.log.events) if e["event"] == "initiative")
    assert lines(b, start + 1)[:4] == SKIPPED
    assert [e["event"] for e in b.log.events[start + 5 :]] == ["orders", "orders"]
    d = b.decision()
    assert (d.phase, d.kind) == ("movement", "choose_first")  # the first thing asked
    assert b.actions == [Pass("A"), Pass("B")]  # set-up's Ready, nothing else


def test_only_the_side_with_a_shot_acts_and_nobody_is_asked_who_goes_first():
    """000 05.00 step 2: in the 1st fire phase only TL4 fires, so A's M1A2 has a shot and B's
    T-72 none: A acts at once (no who-goes-first, 07.02.04), B is never asked; when A
    passes, the engine passes for B and the phase ends. In the 2nd both have a shot: the
    side with the initiative is asked who acts first, as before."""
    b = new_battle([("A1", "A", M1A2, 10, 12, 0), ("B1", "B", T72, 20, 12, 180)])
    d = b.decision()
    assert (d.side, d.phase, d.kind) == ("A", "fire1", "fire")
    n = len(b.log.events)
    b.apply(Pass("A"))
    assert lines(b, n) == [("pass", "fire1", "A", None, None), ("pass", "fire1", "B", NONE, None)]
    d = b.decision()
    assert (d.side, d.phase, d.kind) == ("A", "fire2", "choose_first")


def test_after_the_only_shot_of_a_phase_both_sides_are_passed_for():
    """000 07.02: A's M1A2 fires (cohesion 5 on 1D20, 2D6 6+6 at +18: E): it may not fire
    again in the phase, B has no TL4 stand: both are passed for, and B's T-62 is gone, so
    the 2nd fire phase has nobody to shoot at and is skipped too."""
    b = new_battle(
        [("A1", "A", M1A2, 10, 12, 0), ("B1", "B", "T-62", 20, 12, 90)], [5, 6, 6, 3, 3, 3, 3]
    )
    n = len(b.log.events)
    b.apply(Fire("A", "B1", ("A1",), ("cannon",)))
    assert lines(b, n)[1:3] == [
        ("pass", "fire1", "B", NONE, None),
        ("pass", "fire1", "A", NONE, None),
    ]
    assert lines(b, n)[3:5] == SKIPPED[2:]
    assert b.log.events[n]["result"] == "E"


def test_both_sides_with_a_shot_are_asked_as_before():
    """000 07.02.04: two TL4 stands in sight: the side with the initiative says who acts
    first, each side is asked in turn, and nothing is passed for it."""
    b = new_battle([("A1", "A", M1A2, 10, 12, 0), ("B1", "B", M1A2, 20, 12, 180)])
    assert (b.decision().side, b.decision().kind) == ("A", "choose_first")
    b.apply(ChooseFirst("A", "B"))
    assert (b.decision().side, b.decision().kind) == ("B", "fire")
    b.apply(Pass("B"))
    assert (b.decision().side, b.decision().kind) == ("A", "fire")
    assert not [e for e in b.log.events if "auto" in e]


def test_a_battle_before_the_automatic_passes_asks_every_prompt():
    """A save, journal or log written before #43 holds every pass and choice of who goes
    first as an action: ``auto_pass=False`` plays that sequence."""
    sc = parse_scenario(
        scenario_dict([("A1", "A", T72, 10, 12, 0), ("B1", "B", T72, 40, 12, 180)], sighting=10),
        "t.json",
    )
    b = Battle(sc, 0, dice=FixedDice([6, 6, 1, 1]), auto_pass=False)
    b.apply(Pass("A"))
    b.apply(Pass("B"))
    assert (b.decision().phase, b.decision().kind) == ("fire1", "choose_first")
    assert "auto_pass" not in b.log.events[0]


# --- old files --------------------------------------------------------------------------------

OLD_SAVE = ROOT / "tests" / "fixtures" / "pre43" / "modern-skirmish-s21-random-veteran.save.json"
OLD_LOG_SHA = "dbf032cb089bd8c4ae63c4191452ed280bfeee506675a5e2536c27fc5658a3fe"
OLD_STATE = "b0e33fcae5729f2d"  # the corpus manifest's, before #43


def test_an_old_save_replays_to_the_same_end_and_the_same_log(tmp_path):
    """The corpus save of seed 21 as recorded before #43 (its actions choose who goes first
    in fire phases where nobody can fire): it loads, replays every choice, and writes the
    very log it wrote then, byte for byte, to the same state and winner."""
    log = tmp_path / "old.jsonl"
    b = Battle.load(OLD_SAVE, log_path=log)
    assert not b.auto_pass and b.finished and b.state.winner == "B"
    assert b.state_hash() == OLD_STATE
    assert digest(log) == OLD_LOG_SHA  # the corpus's digest: the engine's stamp left out
    # the old log replays to its end, its passes told as they were
    r = LogReplay.from_file(log)
    r.goto(r.length)
    assert not r.unfinished
    names = {s.id: s.id for s in b.state.stands.values()}
    sides = {s: b.side_spec[s].name for s in b.sides}
    said = [describe(e, names, sides) for e in b.log.events if e["event"] == "pass"]
    assert said and all(s.endswith("phase).") or s.endswith("(set-up).") for s in said)


def test_an_old_journal_replays_its_sequence(tmp_path):
    """An autosave journal written before #43 (no ``auto_pass`` in its header) loads with
    its every choice, and a save of it keeps ``auto_pass`` false."""
    old = Battle.load(OLD_SAVE)
    journal = tmp_path / "autosave.json"
    legacy = Battle(old.scenario, old.seed, auto_pass=False, autosave=journal)
    for a in old.actions[:20]:
        legacy.apply(a)
    legacy.close_autosave()
    head, *rest = journal.read_text(encoding="utf-8").splitlines()
    header = json.loads(head)
    assert header.pop("auto_pass") is False
    head = json.dumps(header, separators=(",", ":"))
    journal.write_text("\n".join([head, *rest]) + "\n", encoding="utf-8")
    again = Battle.load(journal)
    assert not again.auto_pass and again.state_hash() == legacy.state_hash()
    again.save(tmp_path / "again.json")
    assert json.loads((tmp_path / "again.json").read_text())["auto_pass"] is False


def test_a_new_battle_says_so_in_its_start_line_and_save(tmp_path):
    """The start line and the save of a new battle say ``auto_pass``: true, and the save
    replays with it (docs/formats.md; seeded dice, as a load replays with them)."""
    sc = parse_scenario(
        scenario_dict([("A1", "A", M1A2, 10, 12, 0), ("B1", "B", T72, 20, 12, 180)]), "t.json"
    )
    b = Battle(sc, 3)
    assert b.log.events[0]["auto_pass"] is True
    while b.state.turn < 2:  # turn 1 played through by passing
        b.apply(
            Pass(b.to_act)
            if b.decision().kind != "choose_first"
            else ChooseFirst(b.to_act, b.to_act)
        )
    path = tmp_path / "s.json"
    b.save(path)
    assert json.loads(path.read_text())["auto_pass"] is True
    again = Battle.load(path)
    assert again.auto_pass and again.state_hash() == b.state_hash()


# --- the log panel ----------------------------------------------------------------------------

SIDES = {"A": "Blue", "B": "Orange"}


@pytest.mark.parametrize(
    "ev, words",
    [
        (
            {"event": "pass", "phase": "fire1", "side": "A", "auto": NEITHER, "skip": 1},
            "1st standard fire phase skipped: no stand of either side has a legal shot; only "
            "the highest tech levels fire in it (000 05.00 step 2; 002 sequence step 3).",
        ),
        ({"event": "pass", "phase": "fire1", "side": "B", "auto": NEITHER, "skip": 2}, None),
        (
            {"event": "pass", "phase": "fire", "side": "B", "auto": NONE},
            "Orange passes, no legal shot (joint standard fire phase).",
        ),
        (
            {"event": "pass", "phase": "fire2", "side": "A"},
            "Blue passes (2nd standard fire phase).",
        ),
    ],
)
def test_the_log_panel_tells_a_skipped_phase_in_one_line(ev, words):
    """The two automatic passes of a skipped phase are one sentence; a lone one a short one;
    a pass by hand as before."""
    assert describe(ev, {}, SIDES) == words


TABLE = [[4, 1], [7, 2], [9, 3], [11, 4], [13, 5], [14, 6], [16, 7]]  # 002's card


@pytest.mark.parametrize(
    "dice, cv, gen, orders, words",
    [
        (
            [3, 4],
            1,
            1,
            3,
            "Blue rolls for movement orders: 2D6 7 + 1 (GHQ command value) + 1 (generation) = 9 "
            "on the command efficiency table: 3 orders this phase (9 to 10 gives 3; 11 would "
            "have given 4).",
        ),
        (
            [1, 1],
            0,
            -1,
            0,
            "Blue rolls for movement orders: 2D6 2 - 1 (generation) = 1 on the command "
            "efficiency table: no orders this phase (it needed 4 for an order).",
        ),
        (
            [6, 6],
            3,
            2,
            7,
            "Blue rolls for movement orders: 2D6 12 + 3 (GHQ command value) + 2 (generation) = "
            "17 on the command efficiency table: 7 orders this phase (16 or more gives 7).",
        ),
        (
            [6, 6],
            0,
            1,
            5,
            "Blue rolls for movement orders: 2D6 12 + 1 (generation) = 13 on the command "
            "efficiency table: 5 orders this phase (13 gives 5; 14 would have given 6).",
        ),
    ],
)
def test_an_order_roll_says_what_its_total_needed(dice, cv, gen, orders, words):
    """000 08.02.01: 2D6 + GHQ command value + generation, read on the command efficiency
    table; the line says the total, what it gave, and what it needed."""
    ev = {
        "event": "orders",
        "side": "A",
        "dice": dice,
        "command_value": cv,
        "generation_mod": gen,
        "total": sum(dice) + cv + gen,
        "orders": orders,
        "command_table": TABLE,
    }
    assert describe(ev, {}, SIDES) == words


def test_the_orders_line_holds_the_table_it_was_read_on():
    """The engine writes the command efficiency table into each ``orders`` line (#43), so
    the panel can say what was needed; a log without it still reads."""
    b = new_battle(
        [("A1", "A", M1A2, 0, 12, 0, OFF), ("B1", "B", T72, 48, 12, 180, OFF)], [3, 4, 2, 2]
    )
    orders = [e for e in b.log.events if e["event"] == "orders"]
    assert orders[0]["command_table"] == TABLE and orders[0]["orders"] == 2
    text = describe(orders[0], {}, SIDES)
    assert text.endswith("2 orders this phase (7 to 8 gives 2; 9 would have given 3).")
    del orders[0]["command_table"]
    assert describe(orders[0], {}, SIDES).endswith(": 2 orders this phase.")


# --- on the battle screen -------------------------------------------------------------------


def _screen(app, stands, dice, **kw):
    from game.ui.battle import BattleScreen

    sc = parse_scenario(scenario_dict(stands, **kw), "test.json")
    b = Battle(sc, 0, dice=FixedDice([6, 6, 1, 1, *dice]))
    s = BattleScreen(app, b)
    app.show(s)
    return s


def _frame(s):
    s.update(0.016)
    s.draw(s.app.surface)


def _key(s, k):
    s.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))
    _frame(s)


def _through_curtains(s):
    from game.ui.battle import CurtainMode

    while isinstance(s.mode, CurtainMode):
        _key(s, pygame.K_SPACE)


@pytest.mark.usefixtures("data_dir")
def test_hotseat_turn_one_shows_no_who_goes_first_for_the_fire_phases(app):
    """A hotseat battle at 1280x800, every stand off the table: after both Ready presses the
    screen goes to the movement phase's own question; no who-goes-first prompt and no hand
    over for a fire phase, and the log panel says each fire phase was skipped."""
    from game.ui.battle import ChooseFirstMode

    s = _screen(
        app, [("A1", "A", M1A2, 0, 12, 0, OFF), ("B1", "B", T72, 48, 12, 180, OFF)], [3, 4, 2, 2]
    )
    _frame(s)
    seen = []
    for _ in range(2):  # Ready, Ready (P in set-up)
        _through_curtains(s)
        _key(s, pygame.K_p)
        seen.append((type(s.mode).__name__, s.battle.state.phase))
    _through_curtains(s)
    assert s.battle.state.phase == "movement"
    assert isinstance(s.mode, ChooseFirstMode) and "movement phase" in s._panel_text
    assert not any(phase.startswith("fire") for _, phase in seen)
    told = s.log_lines
    assert (
        "1st standard fire phase skipped: no stand of either side has a legal shot; only the "
        "highest tech levels fire in it (000 05.00 step 2; 002 sequence step 3)." in told
    )
    assert "2nd standard fire phase skipped: no stand of either side has a legal shot." in told
    assert any("on the command efficiency table" in t for t in told)


@pytest.mark.usefixtures("data_dir")
def test_p_at_the_who_goes_first_prompt_lets_the_enemy_act_first(app):
    """Both sides have a shot in the 1st fire phase (two M1A2s): the prompt says P passes
    and the enemy acts first; P does so (it was refused: "first choose who acts first")."""
    from game.ui.battle import ChooseFirstMode

    s = _screen(app, [("A1", "A", M1A2, 10, 12, 0), ("B1", "B", M1A2, 20, 12, 180)], [])
    _frame(s)
    for _ in range(2):
        _through_curtains(s)
        _key(s, pygame.K_p)
    _through_curtains(s)
    assert isinstance(s.mode, ChooseFirstMode) and s.battle.state.phase == "fire1"
    assert "Press P to pass: Orange acts first." in s._panel_text
    _key(s, pygame.K_p)
    assert s.battle.actions[-1] == ChooseFirst("A", "B") and s.battle.to_act == "B"
    assert "Blue lets Orange act first." in s.log_lines


def test_a_side_without_a_direct_artillery_target_is_passed_for():
    """(#43; 002 7.9, 7.10) The joint artillery phase asked a side with no gun in sight and
    range of an enemy stand to pass while the other side had one. In the corpus's
    modern-fire-support battle (seed 11, recruit AI against the random player) as recorded
    while the map's woods were octagons (tests/fixtures/octagon-woods/; on today's map no
    corpus battle fires direct artillery) such a side is now passed for: its ``pass`` line
    says "no direct-fire target", and no action of that side was asked for in that phase
    before it."""
    save = (
        ROOT
        / "tests"
        / "fixtures"
        / "octagon-woods"
        / "modern-fire-support-s11-recruit-random.save.json"
    )
    b = Battle.load(save)
    auto = [
        e
        for e in b.log.events
        if e["event"] == "pass" and e["phase"] == "artillery" and e.get("auto")
    ]
    assert auto and {e["auto"] for e in auto} == {"no direct-fire target"}
    direct = [e for e in b.log.events if e["event"] == "artillery" and e["kind"] == "direct"]
    assert direct  # the other side fired direct artillery in those phases
