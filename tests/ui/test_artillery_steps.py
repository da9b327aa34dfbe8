"""The joint artillery fire phase of the first hour (#43), on the real screens (dummy video
driver): the missions that land are shown one at a time with a Continue (hotseat and
against the AI), and the save replay and the log replay draw the deviation arrows and the
aircraft's tracks as the battle screen does."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game import Battle, Pass
from game.check.corpus import CORPUS_DIR
from game.rules.files.logreplay import LogReplay
from game.rules.files.replay import Replay
from game.ui.battle import BattleScreen
from game.ui.battle.turns import AIMode
from game.ui.replay import ReplayScreen
from tests.helpers import landing_frame as frame
from tests.helpers import lift_curtain, press, to_the_landing

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.usefixtures("data_dir")


def test_the_missions_that_land_are_shown_one_at_a_time(app):
    """(#43) The joint artillery phase resolved in one step: after the action that begins
    turn 2, the three missions plotted for it had all landed at once. Now the screen shows
    mission 1 of 3 (on the aim, its impact rolls listed) with a Continue; the later
    missions' markers wait; Continue shows mission 2 (off the aim: the arrow and the dice in
    words), then the A-10 flying its track, then the battle goes on."""
    b, landing = to_the_landing()
    s = BattleScreen(app, b)
    app.show(s)
    frame(s)
    s.act(landing)
    frame(s)
    assert "Mission 1 of 3" in s._panel_text  # the old screen showed them all at once

    from game.ui.battle.landings import MissionStepMode

    assert isinstance(s.mode, MissionStepMode)
    assert [g["line"]["mission"] for g in s.mode.groups] == ["m2", "m1", "m3"]
    assert "Mission 1 of 3" in s._panel_text and "Continue (Enter)" in [
        t.text for t, _ in s._buttons
    ]
    assert "On the aim: the deviation roll passed" in s._panel_text
    assert "Does not fire: 2S19 Msta-S\u2002B13" in s._panel_text
    assert "Under m2.1: M109A6 Paladin\u2002A16: 9 against 4 (+5), 2D6 7: CRT E" in s._panel_text
    assert s.mode.unshown == {"m1", "m3"}  # their markers are not drawn yet
    shown = s.log_view.lines[: s.log_view.shown]  # nor their sentences in the log panel
    assert any("mission m2" in t for t in shown) and not any("mission m1" in t for t in shown)
    assert not s.pass_button.is_enabled
    s.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_p, mod=0, unicode="p"))
    assert isinstance(s.mode, MissionStepMode) and s.mode.k == 0  # P passes nothing here
    press(s, "Continue")
    frame(s)
    assert "Mission 2 of 3" in s._panel_text and s.mode.unshown == {"m3"}
    assert "off the aim" in s._panel_text and "direction die 1" in s._panel_text
    (line,) = [g["line"] for g in s.mode.groups if g["line"]["mission"] == "m1"]
    dev = line["deviation"]
    aim = tuple(line["aim"])
    assert s.mode.drawn == [("arrow", "m1", aim, (aim[0] + dev["dx"], aim[1] + dev["dy"]))]
    press(s, "Continue")
    frame(s)
    assert "Mission 3 of 3" in s._panel_text and "air strike by A-10A Thunderbolt II" in (
        s._panel_text
    )
    assert (
        s.support.flights and s.support.flights[0][0]["mission"] == "m3"
    )  # the A-10 flies its track
    assert "in and out by the left edge" in s._panel_text
    key_continue = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r")
    s.handle(key_continue)
    frame(s)
    lift_curtain(s)  # hotseat: the other player takes the screen (#43)
    assert not isinstance(s.mode, MissionStepMode) and s.pass_button.is_enabled
    assert s.log_view.held == 0 and any("A-10A" in t for t in s.log_view.lines)
    assert b.state.turn == 2


def test_against_the_ai_the_ai_waits_for_the_continue(app):
    """(#43) Against the AI the missions are shown the same way, and the AI does not act
    until the last Continue."""
    from game.ai.scripted import ScriptedAI

    b, landing = to_the_landing()
    s = BattleScreen(app, b, ai={"B": ScriptedAI(1, "recruit")}, ai_speed=0)
    app.show(s)
    s.act(landing)
    assert "Mission 1 of 3" in s._panel_text

    from game.ui.battle.landings import MissionStepMode

    assert isinstance(s.mode, MissionStepMode) and len(s.mode.groups) == 3
    actions = len(b.actions)
    for _ in range(5):
        frame(s)
    assert len(b.actions) == actions  # the AI waits while the missions are shown
    for _ in range(3):
        press(s, "Continue")
    assert not isinstance(s.mode, MissionStepMode)
    assert isinstance(s.mode, AIMode) == (b.to_act == "B")


def test_your_own_direct_artillery_is_told_at_once(app):
    """A player's own direct artillery is not stepped through: he aimed it; the panel's
    "Last attack" tells it."""
    from tests.helpers import screen_at

    s = screen_at(app, "artillery")
    b = s.battle
    if b.to_act == "B":
        s.act(Pass("B"))
    from game import ArtilleryFire

    s.act(ArtilleryFire("A", ("A1",), ((30.0, 12.0),), "he"))
    assert "Mission 1" not in s._panel_text and "Last attack" in s._panel_text


def _first(s: ReplayScreen, wanted) -> None:
    """Step the replay shown by ``s`` from the start to the first position where
    ``wanted(plotted, landed)`` holds (its ``fire_support``), and draw it."""
    r = s.replay
    for p in range(r.length + 1):
        r.goto(p)
        if wanted(*s.fire_support()):
            frame(s)
            return
    raise AssertionError("no such position in the whole replay")


@pytest.mark.parametrize("kind", ["save", "log"])
def test_the_replays_draw_deviation_arrows_and_air_tracks(app, tmp_path, kind):
    """(#43) The save replay and the log replay drew the impact markers but no deviation
    arrow and no aircraft's track. At the first position after an ``artillery`` line that
    deviated, the arrow from its aim to where it fell is drawn; after an ``air_strike``
    line, the aircraft's track (entry, point of attack, exit); before it flies, the plotted
    air strike (the ``plot`` line's entry, path and exit) is drawn dashed."""
    save = CORPUS_DIR / "modern-fire-support-s1-random-random.save.json"
    if kind == "save":
        r = Replay.from_save(save)
    else:
        log = tmp_path / "battle.jsonl"
        Battle.load(save, log_path=log)
        r = LogReplay.from_file(log)
    s = ReplayScreen(app, r, on_back=lambda: None)
    app.show(s)
    frame(s)

    def deviated(e):
        return e["event"] == "artillery" and e["deviation"] and not e["deviation"]["passed"]

    _first(s, lambda plotted, landed: any(deviated(e) for e in landed))
    line = [e for e in r.events if deviated(e)][-1]
    assert line["turn"] == r.battle.state.turn
    dev, aim = line["deviation"], tuple(line["aim"])
    to = (aim[0] + dev["dx"], aim[1] + dev["dy"])
    assert ("arrow", line["mission"], aim, to) in s.support_drawn

    _first(s, lambda plotted, landed: any(p["kind"] == "air" for p in plotted))
    plot = [e for e in r.events if e["event"] == "plot"][-1]
    assert plot["kind"] == "air" and ("plotted", plot["mission"]) in s.support_drawn

    _first(s, lambda plotted, landed: any(e["event"] == "air_strike" for e in landed))
    strike = [e for e in r.events if e["event"] == "air_strike"][-1]
    plots = {e["mission"]: e for e in r.events if e["event"] == "plot"}
    assert plots[strike["mission"]]["kind"] == "air"  # the strike that flew first was plotted
    track = [tuple(p) for p in strike["path"]]
    assert ("track", strike["mission"], track) in s.support_drawn
