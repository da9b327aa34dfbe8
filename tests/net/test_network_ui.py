"""The network battle's screens (#45), driven on the real screens (dummy video driver): two
sessions in one process over a real localhost socket, the host's played on a BattleScreen,
the joiner's stepped by the test (its choices the AI's) in the same thread."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

import pygame
import pygame_gui
import pytest

from game import Pass, PlotAirStrike, PlotMission, load_scenario
from game.ai.scripted import ScriptedAI
from game.net import transport
from game.net.session import NetSession
from game.ui.battle import BattleScreen, SetupMode
from game.ui.battle.netplay import NetStoppedMode, NetWaitMode, RevealMode, duration_words
from game.ui.battle.support import PlotFireMode
from game.ui.logwords import describe
from game.ui.network import NetworkWaitScreen, lan_address, where

ROOT = Path(__file__).resolve().parents[2]
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
    shown = [x for x in screen.support.visible_missions() if x.id == m.id]
    assert shown and (shown[0].sheaf or shown[0].path)  # ours, from the secrets
    assert m.id in screen._panel_text or not isinstance(screen.mode, PlotFireMode)
    # the other side plots (its AI, until it has): nothing of it on the host's screen
    their_turns(app, screen, join, lambda: any(x.side == "B" for x in b.state.missions))
    others = [x for x in b.state.missions if x.side == "B"]
    assert all(not x.sheaf and not x.path for x in others)
    assert all(x.side == "A" for x in screen.support.visible_missions())
    line = [e for e in b.log.events if e["event"] == "plot" and e["side"] == "B"][-1]
    said = describe(line, screen.names, screen.sides)
    assert said.endswith("(hidden until it lands).") and "aim" not in line
    assert said in screen.log_lines


def test_a_message_that_breaks_the_protocol_closes_the_line_and_keeps_the_battle(app, pair):
    """An action out of its order closes the connection with the reason; the battle is kept
    and the screen says the line is down (the other side may come back)."""
    screen, host, join = connected(app, pair)
    join.link.send({"type": "act", "index": 99, "action": {}, "element": "0" * 64})
    run(app, join, lambda: "action 99" in host.status)
    assert host.fault is None and not host.connected
    screen.update(0.05)
    assert "Connection lost" in screen.banner_text()


def test_a_fault_stops_the_battle_and_input(app, pair):
    """The two machines' battles differ after an action: the battle stops, the screen says
    so and where the log is, the Pass button is off and an action is not sent."""
    screen, host, join = connected(app, pair)
    assert screen.act(Pass("A"))
    wrong = {"type": "answer", "index": 0, "element": join.fair.chain.element(0)}
    host.link.inbox.put(("message", {**wrong, "state_hash": "0" * 16}))
    screen.update(0.05)
    assert host.fault and "differ after action 0" in host.fault
    assert isinstance(screen.mode, NetStoppedMode)
    assert "The battle has stopped" in screen._panel_text
    assert str(host.log_path.name) in screen._panel_text.replace("<wbr>", "")
    assert not screen.pass_button.is_enabled
    assert "stopped" in screen.banner_text()
    assert screen.act(screen.battle.legal_actions()[0]) is False


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
    assert screen.saving.dialog is None


def _menu_button(menu, label: str) -> None:
    button = next(
        w
        for w in menu.app.manager.get_sprite_group().sprites()
        if getattr(w, "text", None) == label and hasattr(w, "pressed_event")
    )
    menu.handle(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=button))


def test_the_menu_hosts_and_joins_a_network_battle(app):
    """Host a network battle (the menu's scenario, the port typed) opens the host's waiting
    screen; Join a network battle with HOST:PORT typed connects, and both reach the battle
    screen; Cancel on a waiting screen goes back to the menu."""
    from game.ui.menu import MenuScreen
    from game.ui.network_menu import NetworkSetupScreen

    menu = MenuScreen(app)
    app.show(menu)
    menu.chosen = SCENARIO
    _menu_button(menu, "Host a network battle")
    form = app.screen
    assert isinstance(form, NetworkSetupScreen) and form.role == "host"
    form.entries["port"].set_text("0")  # any free port: the waiting screen says which
    form.start()
    wait = app.screen
    assert isinstance(wait, NetworkWaitScreen)
    host = wait.session
    try:
        port = host.link.port
        assert wait.big_line().endswith(f":{port}") and host.log_path.parent.name == "network"
        # the joiner, in a window of its own (here: the same app, shown after)
        app.show(MenuScreen(app))
        _menu_button(app.screen, "Join a network battle")
        form = app.screen
        assert form.role == "join"
        form.entries["address"].set_text(f"127.0.0.1:{port}")
        form.start()
        jwait = app.screen
        join = jwait.session
        assert "Connecting to 127.0.0.1:" in " ".join(jwait.lines())
        end = time.monotonic() + 15
        while host.battle is None or join.battle is None:
            assert time.monotonic() < end
            host.poll(0.01)
            jwait.update(0.05)
        assert isinstance(app.screen, BattleScreen) and app.screen.net is join
        assert join.side == "B" and host.side == "A"
        # a wrong address is said on the form, nothing opened
        app.show(NetworkSetupScreen(app, "join", lambda: None))
        app.screen.entries["address"].set_text("somewhere:port")
        app.screen.start()
        assert "port" in app.screen.message and isinstance(app.screen, NetworkSetupScreen)
    finally:
        host.link.close()
        if "join" in locals():
            join.link.close()


def test_cancel_on_the_waiting_screen_goes_back_to_the_menu(app, pair):
    from game.ui.menu import MenuScreen

    host, _ = pair
    wait = NetworkWaitScreen(app, host, host.log_path)
    app.show(wait)
    wait.handle(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=wait.cancel_button))
    assert isinstance(app.screen, MenuScreen) and "cancelled" in app.screen.message


def test_a_dropped_connection_is_said_and_play_resumes_by_itself(app, pair):
    """The line cut under the battle: the banner and the panel say the connection is lost
    and that play goes on when the other side returns; the joiner reconnects by itself and
    an action goes through again, both battles agreeing."""
    screen, host, join = connected(app, pair)
    press(screen, "Ready")
    run(app, join, lambda: len(host.battle.actions) == 1)
    seen: list[str] = []
    host.link.hang_up("a test cuts the line")

    def back() -> bool:
        seen.append(screen.banner_text())
        return len(seen) > 3 and host.connected and join.connected and host.status == "connected"

    run(app, join, back)
    assert any("Connection lost: waiting for the other side to return" in b for b in seen)
    their_turns(app, screen, join, lambda: len(host.battle.actions) >= 2)
    run(app, join, lambda: len(join.battle.actions) == len(host.battle.actions))
    assert host.battle.state_hash() == join.battle.state_hash()


def test_a_whole_battle_through_the_hosts_screen(app, pair):
    """A whole battle of modern-fire-support, the host's side chosen by an AI and played on
    the host's screen (missions shown one at a time, hidden plots revealed as they land),
    the joiner's by its AI: it reaches the end screen (no Play again: a network battle is
    hosted anew), both battles agree and both logs verify."""
    from game.net.verify import verify_log
    from game.ui.battle import EndMode

    screen, host, join = connected(app, pair)
    mine = ScriptedAI(3, "recruit")
    seen: set[str] = set()

    def step() -> bool:
        b = host.battle
        seen.add(type(screen.mode).__name__)
        if getattr(screen.mode, "paced", False):
            screen.animation.moves.clear()
            screen.support.flights.clear()
            screen.set_mode(screen.mode.confirm(screen))
        elif screen.animation.moves:
            screen.animation.moves.clear()
        elif host.fair.my_turn() and not isinstance(screen.mode, (NetWaitMode, RevealMode)):
            screen.act(mine.choose(b))
        assert not host.fault and not join.fault
        return isinstance(screen.mode, EndMode) and join.battle.finished

    their_turns(app, screen, join, step, seconds=240)
    assert host.battle.state_hash() == join.battle.state_hash()
    assert {"RevealMode", "NetWaitMode", "PlotFireMode"} <= seen
    assert [b.text for b, _ in screen._buttons] == ["Save the log", "Replay", "Main menu"]
    time.sleep(0.3)  # the last answer written
    assert verify_log(host.log_path) is None and verify_log(join.log_path) is None


@pytest.fixture
def relay_port():
    """A relay (``game.net.relay``) on a free localhost port, in a thread of its own."""
    import asyncio
    import threading

    from game.net.relay import run_relay

    got: list[int] = []
    loop = asyncio.new_event_loop()
    task: list = []

    def serve() -> None:
        asyncio.set_event_loop(loop)
        task.append(loop.create_task(run_relay(0, "127.0.0.1", ready=got.append)))
        loop.run_forever()

    threading.Thread(target=serve, daemon=True).start()
    end = time.monotonic() + 10
    while not got:
        assert time.monotonic() < end
        time.sleep(0.01)
    yield got[0]

    async def stop() -> None:  # the relay's server closed before its loop stops
        task[0].cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task[0]

    asyncio.run_coroutine_threadsafe(stop(), loop).result(5)
    loop.call_soon_threadsafe(loop.stop)


def test_through_a_relay_the_host_shows_the_battle_code_and_the_joiner_uses_it(app, relay_port):
    """Host through a relay: the waiting screen shows the battle code in large type; Join
    with the relay's address and that code reaches the battle."""
    from game.ui.network_menu import NetworkSetupScreen

    app.show(NetworkSetupScreen(app, "host", lambda: None, SCENARIO, 1, 5))
    app.screen.entries["relay"].set_text(f"127.0.0.1:{relay_port}")
    app.screen.start()
    wait = app.screen
    host = wait.session
    join = None
    try:
        end = time.monotonic() + 10
        while not host.code:
            assert time.monotonic() < end
            wait.update(0.05)
        assert wait.big_line() == f"Battle code: {host.code}"
        assert "Give them this battle code" in " ".join(wait.lines())
        assert host.side == "B"  # the Players choice: you command the second force
        app.show(NetworkSetupScreen(app, "join", lambda: None))
        app.screen.entries["relay"].set_text(f"127.0.0.1:{relay_port}")
        app.screen.entries["code"].set_text(host.code.lower())
        app.screen.start()
        jwait = app.screen
        join = jwait.session
        assert "with the battle code" in " ".join(jwait.lines())
        end = time.monotonic() + 15
        while not isinstance(app.screen, BattleScreen) or host.battle is None:
            assert time.monotonic() < end
            host.poll(0.01)
            app.screen.update(0.05)
        assert join.side == "A" and host.battle.state_hash() == join.battle.state_hash()
    finally:
        host.link.close()
        if join is not None:
            join.link.close()


def test_a_silent_other_side_may_be_declared_gone_the_battle_kept(app, pair):
    """After SILENT_LEAVE_S without a word the waiting panel offers "Declare they have left":
    it leaves the session (the other side is told) and stops the battle here, saying where
    its log is for --resume."""
    from game.ui.battle import netplay

    screen, host, join = connected(app, pair)
    press(screen, "Ready")
    run(app, join, lambda: "is thinking" in (screen._panel_text or ""))
    assert "Declare they have left" not in [b.text for b, _ in screen._buttons]
    screen.netplay._net_heard -= netplay.SILENT_LEAVE_S + 1
    screen.update(0.05)
    assert "Nothing heard from Russia for 5 min" in screen._panel_text
    press(screen, "Declare they have left")
    assert isinstance(screen.mode, NetStoppedMode)
    assert "You declared that the other side has left" in screen._panel_text
    assert "--resume LOG" in screen._panel_text
    end = time.monotonic() + 10
    while not join.left:
        assert time.monotonic() < end
        join.poll(0.05)


def test_an_illegal_action_is_refused_here_before_it_is_sent(app, pair):
    """An action this machine's rules refuse is refused at once, as in a hotseat battle: the
    reason shown, nothing sent (its chain element stays unsent), our turn still ours."""
    from game import Regroup

    screen, host, join = connected(app, pair)
    assert not screen.act(Regroup("A", "B1", "1"))  # an enemy stand: the engine refuses it
    assert "B1" in screen.message and host.fair.sent is None
    assert isinstance(screen.mode, SetupMode) and len(host.battle.actions) == 0


def test_a_refusal_of_a_legal_action_stops_the_battle(app, pair):
    """The other machine refusing an action our rules allow is a fault (it could otherwise
    refuse the actions whose dice it has seen and dislikes): the battle stops, said why."""
    screen, host, join = connected(app, pair)
    assert screen.act(Pass("A"))
    act = {"type": "refuse", "index": 0, "reason": "no"}
    host.link.inbox.put(("message", act))
    screen.update(0.05)
    assert host.fault and "refused action 0, which the rules allow" in host.fault
    assert isinstance(screen.mode, NetStoppedMode)


def test_the_view_stays_on_this_machines_side(app, tmp_path):
    """A host playing the second side opens on its own stands, and the view does not turn
    to the other side's when they act (no hand-over over the network)."""
    link = transport.host(0, bind="127.0.0.1")
    host = NetSession(
        link,
        "host",
        "B",
        scenario=load_scenario(SCENARIO),
        seed=3,
        sides={"host": "B", "join": "A"},
        log_path=tmp_path / "host.jsonl",
    )
    join = NetSession(transport.join(f"ws://127.0.0.1:{link.port}"), "join", "?")
    try:
        app.show(NetworkWaitScreen(app, host, None))
        run(app, join, lambda: isinstance(app.screen, BattleScreen))
        screen = app.screen
        assert isinstance(screen.mode, NetWaitMode)  # A sets up first

        def in_view(side: str) -> int:
            return sum(
                screen.tv.rect.collidepoint(screen.tv.to_px(s.x, s.y))
                for s in host.battle.state.stands.values()
                if s.side == side
            )

        assert in_view("B") > in_view("A")
        camera = screen.tv.camera_key()
        join.act(ScriptedAI(1, "recruit").choose(join.battle))
        run(app, join, lambda: len(host.battle.actions) == 1)
        assert screen.tv.camera_key() == camera
    finally:
        host.link.close()
        join.link.close()


def test_a_resumed_battle_waits_for_the_other_side_then_goes_on(app, pair, tmp_path):
    """Both sides stop after two actions; each resumes from its log (as --resume does): the
    host's waiting screen says where the battle resumes and waits until the other side is
    on the line, then the battle screen goes on from the same action."""
    from game import Battle
    from game.net.fairplay import Secrets
    from game.net.session import secret_path

    screen, host, join = connected(app, pair)
    press(screen, "Ready")
    their_turns(app, screen, join, lambda: len(host.battle.actions) >= 2)

    def settled() -> bool:  # no action on its way either way
        return not host.fair.sent and not join.fair.sent and host.link.inbox.empty()

    run(app, join, lambda: len(join.battle.actions) == len(host.battle.actions) and settled())
    n = len(host.battle.actions)
    host.link.close()
    join.link.close()

    def resumed(path):
        battle, _ = Battle.from_network_log(path, log_path=path)
        return battle, Secrets.load(secret_path(path))

    hb, hs = resumed(host.log_path)
    jb, js = resumed(join.log_path)
    link = transport.host(0, bind="127.0.0.1")
    host2 = NetSession(link, "host", hs.side, log_path=host.log_path, battle=hb, secrets=hs)
    wait = NetworkWaitScreen(app, host2, host.log_path)
    app.show(wait)
    for _ in range(3):
        wait.update(0.05)
    assert app.screen is wait  # the battle exists, the other side not yet there
    assert f"The battle resumes at action {n + 1}." in wait.lines()
    jl = transport.join(f"ws://127.0.0.1:{link.port}")
    join2 = NetSession(jl, "join", js.side, log_path=join.log_path, battle=jb, secrets=js)
    try:
        run(app, join2, lambda: isinstance(app.screen, BattleScreen))
        screen2 = app.screen
        assert screen2.net is host2 and len(host2.battle.actions) == n
        their_turns(app, screen2, join2, lambda: host2.status == "connected")
        assert host2.battle.state_hash() == join2.battle.state_hash()
    finally:
        link.close()
        jl.close()
