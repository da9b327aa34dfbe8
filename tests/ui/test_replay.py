"""Replays (game/rules/files/replay.py): the table after any number of a battle's actions, forward
and back, reaching the very states the battle did."""

from __future__ import annotations

import random

import pytest

from game.check.corpus import CORPUS_DIR, events_digest, load_manifest
from game.rules.battle import Battle
from game.rules.files.replay import Replay

MANIFEST = load_manifest()
CASES = [
    "wwii-meeting-s3-random-random",
    "modern-meeting-s31-veteran-recruit",
    "modern-skirmish-s9-screen-random",
]


def _digest(events) -> str:
    return events_digest(events)  # the corpus's: the start line's engine stamp left out


@pytest.mark.parametrize("name", CASES)
def test_a_replay_reaches_the_battles_states_and_log_at_every_turn(name):
    r = Replay.from_save(CORPUS_DIR / f"{name}.save.json")
    assert r.position == r.length == MANIFEST[name]["actions"]
    assert r.battle.state_hash() == MANIFEST[name]["state_hash"]
    assert _digest(r.events) == MANIFEST[name]["log_sha256"]
    full = list(r.events)
    # every turn's end_turn line carries the state hash the battle logged
    logged = [e["state_hash"] for e in full if e["event"] == "end_turn"]
    seen = []
    for start in r.turn_starts[1:]:
        r.goto(start)
        ends = [e for e in r.events if e["event"] == "end_turn"]
        if ends:
            seen.append(ends[-1]["state_hash"])
        assert r.events == full[: len(r.events)]  # the log in step: a prefix of the battle's
    assert seen == logged[: len(seen)] and seen


@pytest.mark.parametrize("name", CASES)
def test_stepping_back_then_forward_gives_the_same_state(name):
    r = Replay.from_save(CORPUS_DIR / f"{name}.save.json")
    rng = random.Random(7)
    fresh = Battle.load(CORPUS_DIR / f"{name}.save.json")
    hashes = {}
    for p in sorted(rng.sample(range(r.length + 1), 8)):
        r.goto(p)
        hashes[p] = (r.battle.state_hash(), len(r.events))
    for p in reversed(sorted(hashes)):  # back again, and compare
        r.goto(p)
        assert (r.battle.state_hash(), len(r.events)) == hashes[p]
    r.goto(r.length)
    assert r.battle.state_hash() == fresh.state_hash()


def test_turn_steps_and_clamping():
    r = Replay.from_save(CORPUS_DIR / "modern-skirmish-s1-random-random.save.json")
    r.goto(0)
    assert r.battle.state.turn == 0 and r.events[-1]["event"] == "start"
    r.next_turn()
    assert r.position == r.turn_starts[1] and r.battle.state.turn == 1
    r.previous_turn()
    assert r.position == 0
    r.goto(10_000)
    assert r.position == r.length and r.battle.finished
    r.step(-1)
    assert r.position == r.length - 1 and not r.battle.finished


def test_the_replay_screen_steps_seeks_and_plays(tmp_path, monkeypatch):
    """The screen drives the replay with its keys, slider and play button (synthetic events);
    the log panel follows the position."""
    import pygame
    import pygame_gui

    from game.ui.app import App
    from game.ui.replay import ReplayScreen

    monkeypatch.setenv("HULLDOWN_DATA_DIR", str(tmp_path))
    app = App(size=(1280, 800))
    try:
        r = Replay.from_save(CORPUS_DIR / "modern-skirmish-s1-random-random.save.json")
        back = []
        s = ReplayScreen(app, r, on_back=lambda: back.append(1))
        app.show(s)

        def key(k):
            s.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))
            s.update(0.016)
            s.draw(app.surface)

        key(pygame.K_HOME)
        assert r.position == 0 and "action 0 of" in s.label.text
        key(pygame.K_PAGEDOWN)
        assert r.position == r.turn_starts[1]
        key(pygame.K_RIGHT)
        assert r.position == r.turn_starts[1] + 1
        key(pygame.K_LEFT)
        s.handle(
            pygame.event.Event(pygame_gui.UI_HORIZONTAL_SLIDER_MOVED, ui_element=s.slider, value=30)
        )
        s.update(0.016)
        assert r.position == 30 and f"action 30 of {r.length}" in s.label.text
        key(pygame.K_SPACE)  # play at 3 actions a second for one second
        for _ in range(10):
            s.update(0.1)
        assert r.position == 33 and s.playing
        key(pygame.K_ESCAPE)
        assert back == [1]
    finally:
        pygame.quit()
