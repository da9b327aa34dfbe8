"""The network battle's screens (#45), driven on the real screens (dummy video driver): two
sessions in one process over a real localhost socket, the host's played on a BattleScreen,
the joiner's stepped by the test (its choices the AI's) in the same thread."""

from __future__ import annotations

import time
from pathlib import Path

import pygame
import pygame_gui
import pytest

from game import PlotAirStrike, PlotMission, load_scenario
from game.ai.scripted import ScriptedAI
from game.net import transport
from game.net.session import NetSession
from game.ui.battle import BattleScreen, SetupMode
from game.ui.battle.netplay import NetStoppedMode, NetWaitMode, RevealMode, duration_words
from game.ui.battle.support import PlotFireMode
from game.ui.logtext import describe
from game.ui.network import NetworkWaitScreen, lan_address, where

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "maps" / "modern-fire-support.json"

pytestmark = pytest.mark.usefixtures("data_dir")


@pytest.fixture
def pair(tmp_path):
    """A host session (side A, waiting on a free localhost port) and a function that joins
    it (side B); both links closed after the test."""
    link = transport.host(0, bind="127.0.0.1")
    host = NetSession(
        link,
        "host",
        "A",
        scenario=load_scenario(SCENARIO),
        seed=3,
        sides={"host": "A", "join": "B"},
        log_path=tmp_path / "host.jsonl",
    )
    joined: list[NetSession] = []

    def join() -> NetSession:
        jl = transport.join(f"ws://127.0.0.1:{link.port}")
        joined.append(NetSession(jl, "join", "?", log_path=tmp_path / "join.jsonl"))
        return joined[0]

    yield host, join
    for s in [host, *joined]:
        s.link.close()


def run(app, join: NetSession, until, seconds: float = 15.0) -> None:
    """Frames of the app's screen, the joiner polled between them, until ``until()``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.screen.update(0.05)
        join.poll(0.01)
        if until():
            return
    raise AssertionError("timed out")


def press(screen, label: str) -> None:
    """Press the panel button whose text starts with ``label``."""
    for button, _ in screen._buttons:
        if button.text.startswith(label):
            screen.handle(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=button))
            return
    raise AssertionError(f"no button {label!r}: {[b.text for b, _ in screen._buttons]}")


def connected(app, pair) -> tuple[BattleScreen, NetSession, NetSession]:
    """The host's waiting screen, the joiner joining, until the battle screen is up."""
    host, join_ = pair
    app.show(NetworkWaitScreen(app, host, host.log_path))
    app.screen.update(0.05)
    join = join_()
    run(app, join, lambda: isinstance(app.screen, BattleScreen))
    return app.screen, host, join


def test_the_host_waiting_screen_shows_the_address_and_the_wait(app, pair):
    """The host's waiting screen says what to do with this machine's address and port, how
    long it has waited and the connection's state; then the battle screen takes over."""
    host, join_ = pair
    wait = NetworkWaitScreen(app, host, host.log_path)
    app.show(wait)
    wait.update(0.05)
    wait.draw(app.surface)
    port = host.link.port
    assert wait.big_line() == f"{lan_address()}:{port}"
    text = " ".join(wait.lines())
    assert "Give them this address" in text and f":{port}" in text
    assert "Waited so far: 0 s" in text and "waiting for the other player" in text
    join = join_()
    run(app, join, lambda: isinstance(app.screen, BattleScreen))
    assert app.screen.net is host and app.screen.battle is host.battle


def test_words_for_the_wait_and_the_joiners_target():
    assert duration_words(80.4) == "1 min 20 s"
    assert duration_words(45) == "45 s" and duration_words(3700) == "1 h 1 min"
    assert where("ws://10.0.0.5:8765") == "10.0.0.5:8765"
    assert where("ws://relay.example:8765/join/K7QX") == (
        "the relay at relay.example:8765 with the battle code K7QX"
    )


def their_turns(app, screen, join: NetSession, until, seconds: float = 20.0) -> None:
    """Frames until ``until()``, the joiner's AI taking each of its turns as they come (the
    dice come from both chains, fresh each run: who acts when is not fixed)."""
    ai = ScriptedAI(1, "recruit")

    def step() -> bool:
        if join.fair.my_turn() and join.fair.auto_action() is None:
            join.act(ai.choose(join.battle))
        return until()

    run(app, join, step, seconds)


def test_a_local_action_goes_through_the_session_and_the_other_side_thinks(app, pair):
    """Ready on the host's screen is sent, not applied, until the joiner answers; then both
    battles agree, the host's screen says the other side is thinking (no hand-over curtain),
    and the joiner's action is shown on the host's screen when it comes."""
    screen, host, join = connected(app, pair)
    assert isinstance(screen.mode, SetupMode)
    press(screen, "Ready")
    assert isinstance(screen.mode, NetWaitMode) and len(host.battle.actions) == 0
    assert "on its way" in screen._panel_text
    run(app, join, lambda: len(join.battle.actions) == 1 and not host.fair.sent)
    assert host.battle.state_hash() == join.battle.state_hash()
    run(app, join, lambda: "is thinking" in (screen._panel_text or ""))
    assert isinstance(screen.mode, NetWaitMode)
    assert screen._panel_text.startswith("<b>Russia is thinking: ")
    assert not screen.pass_button.is_enabled and "Hand over" not in screen._panel_text
    join.act(ScriptedAI(1, "recruit").choose(join.battle))
    run(app, join, lambda: len(host.battle.actions) == 2)
    assert host.battle.state_hash() == join.battle.state_hash()
    assert any("Russia" in line for line in screen.log_lines[-6:])  # its action, in the log
    their_turns(app, screen, join, lambda: isinstance(screen.mode, PlotFireMode))
    assert host.battle.to_act == "A"  # our turn: our own mode, not the wait
    assert host.battle.state_hash() == join.battle.state_hash()


def test_hidden_plots_the_other_sides_unseen_our_own_drawn_from_the_secrets(app, pair):
    """In the joint plot phase each side's plot goes as a commitment: the host's screen
    lists and draws its own from the secrets it keeps, and nothing of the other side's but
    the log's sentence that it plotted one (hidden until it lands)."""
    screen, host, join = connected(app, pair)
    press(screen, "Ready")
    their_turns(app, screen, join, lambda: isinstance(screen.mode, PlotFireMode))
    b = host.battle
    plot = next(
        a
        for a in (ScriptedAI(s, "veteran").choose(b) for s in range(8))
        if isinstance(a, (PlotMission, PlotAirStrike))
    )
    screen.act(plot)
    run(app, join, lambda: any(m.side == "A" for m in b.state.missions) and not host.fair.sent)
    m = next(m for m in b.state.missions if m.side == "A")
    assert m.id in b.state.hidden and not m.sheaf and not m.path  # the engine holds no plot
    shown = [x for x in screen.visible_missions() if x.id == m.id]
    assert shown and (shown[0].sheaf or shown[0].path)  # ours, from the secrets
    assert m.id in screen._panel_text or not isinstance(screen.mode, PlotFireMode)
    # the other side plots (its AI, until it has): nothing of it on the host's screen
    their_turns(app, screen, join, lambda: any(x.side == "B" for x in b.state.missions))
    others = [x for x in b.state.missions if x.side == "B"]
    assert all(not x.sheaf and not x.path for x in others)
    assert all(x.side == "A" for x in screen.visible_missions())
    line = [e for e in b.log.events if e["event"] == "plot" and e["side"] == "B"][-1]
    said = describe(line, screen.names, screen.sides)
    assert said.endswith("(hidden until it lands).") and "aim" not in line
    assert said in screen.log_lines


def test_a_fault_stops_the_battle_and_input(app, pair):
    """A message that breaks the protocol stops the battle: the screen says so and where
    the log is, the Pass button is off and an action is not sent."""
    screen, host, join = connected(app, pair)
    join.link.send({"type": "act", "index": 99, "action": {}, "element": "0" * 64})
    run(app, join, lambda: isinstance(screen.mode, NetStoppedMode))
    assert host.fault and "action 99" in host.fault
    assert "The battle has stopped" in screen._panel_text
    assert str(host.log_path.name) in screen._panel_text.replace("<wbr>", "")
    assert not screen.pass_button.is_enabled
    assert "stopped" in screen.banner_text()
    assert screen.act(screen.battle.legal_actions()[0]) is False
    assert len(host.battle.actions) == 0 and host.fair.sent is None


def test_the_reveal_decision_has_its_mode(app):
    """Decision "reveal" has a mode (the session reveals by itself)."""
    from game.ui.battle.screen import MODES

    assert MODES["reveal"] is RevealMode


def test_save_in_a_network_battle_explains_its_log(app, pair):
    """Ctrl+S in a network battle saves nothing else: it says the log is the battle's
    journal and how to resume it."""
    screen, host, join = connected(app, pair)
    assert not screen.save_button.is_enabled
    screen.handle(
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_s, mod=pygame.KMOD_CTRL, unicode="s")
    )
    assert "--resume LOG" in screen.notice
    assert getattr(screen, "_save_dialog", None) is None
