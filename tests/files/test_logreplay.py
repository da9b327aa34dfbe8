"""Replaying a battle from its battle log (game/rules/files/logreplay.py): every battle of the
regression corpus, read from its log, shows the same stands as the engine at every action;
jumps back and forth land where stepping does; a broken log gives one clear line naming the
file, the line and the field."""

from __future__ import annotations

import json
import random

import pytest

from game.check.corpus import CORPUS_DIR, cases
from game.rules.battle import Battle
from game.rules.files.logreplay import LogReplay, LogReplayError
from game.rules.files.scenario import load_scenario
from tests.helpers import differences

CASES = cases()


def test_every_corpus_log_shows_the_engines_stands_after_every_action():
    checked = expected = 0
    for case in CASES:
        played = Battle.load(CORPUS_DIR / f"{case.name}.save.json")
        shown = LogReplay(played.log.events)
        assert shown.length == len(played.log.events) - 1
        b = Battle(played.scenario, played.seed)
        expected += len(played.actions)
        for k, action in enumerate(played.actions):
            b.apply(action)
            shown.goto(len(b.log.events) - 1)
            last = b.log.events[-1]
            settled = (
                b.state.phase not in ("initiative", "posture")
                and last["phase"] not in ("initiative", "posture", "setup")
                and last["turn"] == b.state.turn
                # a straggler group ends with its phase, which writes no line when the next
                # phase waits for who goes first (the full game's 3rd fire phase)
                and (last["phase"] == b.state.phase or last["phase"] != "movement")
            )
            for sid, s in b.state.stands.items():
                d = differences(s, shown.battle.state.stands[sid], settled)
                assert not d, f"{case.name} after action {k}: {sid} {d}"
            # the same wrecks, where the log's 1e-6 rounding puts them (rounding both to 4
            # places split 31.30045 one way and its unrounded self the other)
            wrecks = sorted((w.stand, w.x, w.y) for w in b.state.wrecks)
            seen = sorted((w.stand, w.x, w.y) for w in shown.battle.state.wrecks)
            assert [w[0] for w in wrecks] == [w[0] for w in seen], f"{case.name} after {k}"
            for (_, x0, y0), (_, x1, y1) in zip(wrecks, seen, strict=True):
                assert abs(x0 - x1) < 1e-5 and abs(y0 - y1) < 1e-5, f"{case.name} after {k}"
            checked += 1
    assert checked == expected > 8000  # every action of the corpus's battles


def _snapshot(replay) -> list:
    st = replay.battle.state
    return [
        (s.id, s.x, s.y, s.facing_deg, s.on_table, s.S, s.D, s.eliminated, s.group, s.posture)
        for s in st.stands.values()
    ] + [(st.turn, st.phase, len(st.wrecks), len(replay.events))]


@pytest.mark.parametrize(
    "name", ["wwii-meeting-s12-recruit-random", "modern-meeting-s4-random-random"]
)
def test_jumps_back_and_forth_land_where_stepping_does(name):
    played = Battle.load(CORPUS_DIR / f"{name}.save.json")
    stepping = LogReplay(played.log.events)
    stepping.goto(0)
    want = [_snapshot(stepping)]
    for _ in range(stepping.length):
        stepping.step(1)
        want.append(_snapshot(stepping))
    jumping = LogReplay(played.log.events)
    rng = random.Random(5)
    for p in [rng.randrange(jumping.length + 1) for _ in range(60)] + [0, jumping.length, 3]:
        jumping.goto(p)
        assert _snapshot(jumping) == want[p], p
    jumping.goto(40)
    jumping.step(-1)
    assert _snapshot(jumping) == want[39]


def test_turns_step_to_each_turns_first_line():
    played = Battle.load(CORPUS_DIR / "wwii-meeting-s12-recruit-random.save.json")
    r = LogReplay(played.log.events)
    r.goto(0)
    turns = []
    while r.position < r.length:
        r.next_turn()
        shown, before = r.all_events[r.position], r.all_events[r.position - 1]
        # at a turn's first line (its initiative roll), the line before it of the turn before
        turns.append(shown["turn"] if shown["turn"] > before["turn"] else "end")
    assert turns == [*range(1, played.state.turn + 1), "end"]
    r.previous_turn()
    assert r.all_events[r.position]["turn"] == played.state.turn
    assert r.all_events[r.position]["event"] == "initiative"


def test_a_log_file_written_by_a_battle_replays_from_disk(tmp_path):
    log = tmp_path / "battle.jsonl"
    played = Battle.load(CORPUS_DIR / "modern-skirmish-s7-screen-screen.save.json", log_path=log)
    r = LogReplay.from_file(log)
    assert r.length == len(played.log.events) - 1
    assert r.battle.scenario.spec.title == played.scenario.spec.title
    for sid, s in played.state.stands.items():
        assert differences(s, r.battle.state.stands[sid], True) == {}


def test_a_log_cut_short_replays_what_it_holds(tmp_path):
    """A battle still being played (or stopped mid-way) has no end line: what it has is shown."""
    played = Battle.load(CORPUS_DIR / "modern-skirmish-s7-screen-screen.save.json")
    r = LogReplay(played.log.events[:30])
    assert r.length == 29 and r.events[-1] == played.log.events[29]


def _write(path, events) -> None:
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")


@pytest.fixture
def events():
    played = Battle.load(CORPUS_DIR / "modern-skirmish-s1-random-random.save.json")
    return [dict(e) for e in played.log.events]


def _first_of(events, name):
    return next(i for i, e in enumerate(events) if e["event"] == name)


@pytest.mark.parametrize(
    "spoil, expect",
    [
        (lambda ev: ev.__setitem__(0, {**ev[0], "event": "end"}), "line 1: end: missing"),
        (lambda ev: ev.pop(0), "line 1: seq 1 where 0 was due"),
        (
            lambda ev: ev[_first_of(ev, "move")].__setitem__("stand", "Z9"),
            "move.stand: must be a stand of the start line, not 'Z9'",
        ),
        (
            lambda ev: ev[_first_of(ev, "move")].__setitem__("path", [["a", 1]]),
            "move.path[0]: must be [x, y] in inches, not ['a', 1]",
        ),
        (
            lambda ev: ev[_first_of(ev, "move")].__setitem__("path", [[500, 1]]),
            "path: ends off the table at (500, 1)",
        ),
        (
            lambda ev: ev[_first_of(ev, "fire")].__setitem__("target", 7),
            "fire.target: must be a stand of the start line, not 7",
        ),
        (
            lambda ev: ev[0]["stands"][0].__setitem__("unit", "Tiger VII"),
            "line 1 (start): $.stands[0].unit",
        ),
        (lambda ev: ev[0].__setitem__("seed", "x"), "line 1 (start): seed: not a whole number"),
        (lambda ev: ev[0].pop("terrain"), "line 1: start: missing ['terrain']"),
    ],
)
def test_a_broken_log_names_its_file_line_and_field(tmp_path, events, spoil, expect):
    spoil(events)
    path = tmp_path / "broken.jsonl"
    _write(path, events)
    with pytest.raises(LogReplayError) as err:
        LogReplay.from_file(path)
    msg = str(err.value)
    assert msg.startswith(f"{path}: ") and expect in msg and "\n" not in msg


def test_a_log_file_that_is_not_json_lines_is_named(tmp_path, events):
    path = tmp_path / "cut.jsonl"
    text = "".join(json.dumps(e) + "\n" for e in events[:5])
    path.write_text(text + json.dumps(events[5])[:40], encoding="utf-8")
    with pytest.raises(LogReplayError, match=r"cut\.jsonl: line 6: column \d+: not valid JSON"):
        LogReplay.from_file(path)
    path.write_text(text + "\n" + text, encoding="utf-8")
    with pytest.raises(LogReplayError, match=r"line 6: a blank line"):
        LogReplay.from_file(path)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(LogReplayError, match="the file is empty"):
        LogReplay.from_file(empty)
    with pytest.raises(LogReplayError, match="no such file"):
        LogReplay.from_file(tmp_path / "missing.jsonl")


def test_the_scenario_rebuilt_from_the_start_line_is_the_scenarios_table(events):
    r = LogReplay(events)
    played = load_scenario("maps/modern-skirmish.json")
    assert r.battle.table.width == played.spec.table.width
    assert [s.model_dump() for s in r.battle.scenario.spec.stands] == [
        s.model_dump() for s in played.spec.stands
    ]
    assert r.battle.scenario.raw["terrain"] == played.raw["terrain"]


def test_the_replay_screen_shows_a_log_line_by_line(tmp_path, monkeypatch):
    """The same screen as a save's replay, stepping by the log's lines; the speed menu and the
    bar say "lines"; the log panel ends at the line shown."""
    import pygame
    import pygame_gui

    from game.ui.app import App
    from game.ui.logwords import describe
    from game.ui.replay import ReplayScreen

    monkeypatch.setenv("HULLDOWN_DATA_DIR", str(tmp_path))
    log = tmp_path / "battle.jsonl"
    Battle.load(CORPUS_DIR / "wwii-meeting-s2-random-random.save.json", log_path=log)
    app = App(size=(1280, 800))
    try:
        r = LogReplay.from_file(log)
        s = ReplayScreen(app, r, on_back=lambda: None)
        app.show(s)

        def key(k):
            s.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))
            s.update(0.016)
            s.draw(app.surface)

        assert "3 lines a second" in s.speed_names
        key(pygame.K_HOME)
        assert r.position == 0 and f"line 0 of {r.length}" in s.label.text
        for _ in range(3):
            key(pygame.K_PAGEDOWN)
        assert r.position == r.turn_starts[3] and "turn 3, initiative" in s.label.text
        key(pygame.K_RIGHT)
        assert r.all_events[r.position]["turn"] == 3
        s.handle(
            pygame.event.Event(pygame_gui.UI_HORIZONTAL_SLIDER_MOVED, ui_element=s.slider, value=99)
        )
        s.update(0.016)
        assert r.position == 99 and r.events[-1]["seq"] == 99
        # the panel ends at the line shown (a line told with another, the second automatic
        # pass of a skipped phase, #43, is an empty sentence that takes no room)
        said = [describe(e, s.names, s.sides) for e in r.events]
        assert [t for t in s.log_view.lines if t] == [t for t in said if t]
        key(pygame.K_LEFT)
        said = [describe(e, s.names, s.sides) for e in r.events]
        assert [t for t in s.log_view.lines if t] == [t for t in said if t]
    finally:
        pygame.quit()


def test_hulldown_replay_takes_a_log_and_names_a_broken_one(tmp_path, capsys):
    from game.cli import main

    log = tmp_path / "battle.jsonl"
    Battle.load(CORPUS_DIR / "modern-skirmish-s1-random-random.save.json", log_path=log)
    assert main(["replay", str(log), "--frames", "3"]) == 0
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"seq": 0, "event": "start"}\n', encoding="utf-8")
    assert main(["replay", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{bad}: line 1: ") and "Traceback" not in err


def test_the_replay_opens_at_the_start_and_its_controls_say_what_they_do(tmp_path, monkeypatch):
    """Seen by a new player: it opened at the result, Play stayed "Pause" once paused, and
    a click on the slider's track did nothing."""
    import pygame

    from game.ui.app import App
    from game.ui.replay import ReplayScreen

    monkeypatch.setenv("HULLDOWN_DATA_DIR", str(tmp_path))
    played = Battle.load(CORPUS_DIR / "wwii-meeting-s2-random-random.save.json")
    app = App(size=(1280, 800))
    try:
        r = LogReplay(played.log.events)
        s = ReplayScreen(app, r, on_back=lambda: None)
        app.show(s)
        s.update(0.016)
        assert r.position == 0 and s.play_button.text == "Play"

        def key(k):
            s.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))
            s.update(0.016)

        key(pygame.K_SPACE)
        assert s.playing and s.play_button.text == "Pause"
        key(pygame.K_SPACE)
        assert not s.playing and s.play_button.text == "Play"
        key(pygame.K_SPACE)
        key(pygame.K_RIGHT)  # a step pauses
        assert not s.playing and s.play_button.text == "Play"
        left, right = s.slider.left_button.rect, s.slider.right_button.rect
        x = (left.right + right.left) // 2 + 40  # right of the middle, off the thumb
        s.handle(
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, s.slider.rect.centery), button=1)
        )
        s.update(0.016)
        assert r.length // 2 < r.position < r.length
    finally:
        pygame.quit()


def test_a_desert_table_replays_from_its_log_alone_painted_as_sand():
    """The start line's table carries the painted ground when it is not grass (a field added to
    hulldown-log/1, as its contract allows), so a replay of Sinai from the log alone paints
    sand; a grass table's start line is as it always was (the corpus stays byte-identical)."""
    sinai = Battle(load_scenario("maps/modern-sinai-1967.json"), 1)
    start = sinai.log.events[0]
    assert start["table"] == {"width": 36.0, "depth": 24.0, "ground": "sand"}
    assert LogReplay(list(sinai.log.events)).battle.table.ground == "sand"
    skirmish = Battle(load_scenario("maps/modern-skirmish.json"), 1)
    assert set(skirmish.log.events[0]["table"]) == {"width", "depth"}
    assert LogReplay(list(skirmish.log.events)).battle.table.ground == "grass"
    spoiled = [dict(start, table={**start["table"], "ground": "lava"}), *sinai.log.events[1:]]
    with pytest.raises(LogReplayError, match="ground"):
        LogReplay(spoiled)
