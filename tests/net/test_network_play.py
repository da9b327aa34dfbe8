"""Network battles over real sockets on localhost (#45): two engines in one process, host
and join directly and through the relay, a whole battle of each ruleset with AI players on
both ends; peers that send garbage, a duplicate, an action out of turn, 100 MB, or drop
mid-battle; and ``kill -9`` of one side's process and its resume."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import game
from game.ai.scripted import ScriptedAI
from game.net import transport
from game.net.headless import Driver
from game.net.relay import run_relay
from game.net.session import NetSession
from game.net.verify import verify_log

ROOT = Path(__file__).resolve().parents[2]


def quiet(_text: str) -> None:
    pass


def sessions(tmp_path, scenario: str, seed: int = 5, relay: int | None = None):
    """A host (the scenario's first side) and a joiner, connected over localhost, directly
    or through a relay listening on port ``relay``."""
    sc = game.load_scenario(ROOT / "maps" / scenario)
    a, b = [s.id for s in sc.spec.sides]
    if relay is None:
        hl = transport.host(0, bind="127.0.0.1")
        jl = transport.join(f"ws://127.0.0.1:{hl.port}")
    else:
        hl = transport.join(f"ws://127.0.0.1:{relay}/host", first_word=True, key="ab" * 16)
        code = wait_for_code(hl)
        jl = transport.join(f"ws://127.0.0.1:{relay}/join/{code}", first_word=True)
    host = NetSession(
        hl,
        "host",
        a,
        scenario=sc,
        seed=seed,
        sides={"host": a, "join": b},
        log_path=tmp_path / "host.log",
    )
    join = NetSession(jl, "join", "?", log_path=tmp_path / "join.log")
    return host, join


def wait_for_code(link, limit_s: float = 10.0) -> str:
    """The relay's battle code for a host's link (its first word)."""
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        item = link.get(0.05)
        if item is not None and item[0] == "code":
            link.inbox.put(item)  # the session hears it too
            return item[1]
    raise AssertionError("the relay gave no code")


def play_both(host, join, level="recruit", limit_s=240.0, meddle=None):
    """Step both sides' AI drivers in this thread until both stop; returns their exit codes.
    ``meddle(host, join)`` is called each round (to break things on purpose)."""
    drivers = {
        "host": Driver(host, ScriptedAI(seed=1, level=level), say=quiet),
        "join": Driver(join, ScriptedAI(seed=2, level=level), say=quiet),
    }
    codes: dict[str, int] = {}
    end = time.monotonic() + limit_s
    while len(codes) < 2:
        assert time.monotonic() < end, f"no end in {limit_s} s: {host.status} / {join.status}"
        for name, d in drivers.items():
            if name not in codes:
                code = d.step(0.002)
                if code is not None:
                    codes[name] = code
        if meddle is not None:
            meddle(host, join)
    return codes


def close(*ss):
    for s in ss:
        s.link.close()


def same_and_verified(tmp_path):
    h, j = (tmp_path / "host.log").read_bytes(), (tmp_path / "join.log").read_bytes()
    assert h == j, "the two machines' logs differ"
    assert verify_log(tmp_path / "host.log") is None
    return [json.loads(t) for t in h.decode().splitlines()]


@pytest.mark.parametrize(
    "scenario",
    [
        "modern-skirmish.json",
        "wwii-meeting.json",
        "modern-fire-support.json",
        "wwii-47-breakthrough.json",
    ],
    ids=["000", "001", "002", "004"],
)
def test_a_whole_battle_of_each_ruleset_gives_the_same_log_on_both_machines(tmp_path, scenario):
    host, join = sessions(tmp_path, scenario)
    try:
        assert play_both(host, join) == {"host": 0, "join": 0}
        assert host.battle.state_hash() == join.battle.state_hash()
    finally:
        close(host, join)
    lines = same_and_verified(tmp_path)
    assert lines[-1]["event"] == "end"
    n = sum(1 for ln in lines if ln["event"] == "action")
    assert n == len(host.battle.actions) > 10
    if scenario == "modern-fire-support.json":  # hidden plots went over and were revealed
        plots = [ln for ln in lines if ln["event"] == "plot"]
        assert plots and all("commitment" in p and "aim" not in p for p in plots)
        assert any(ln["event"] == "reveal" for ln in lines)


@pytest.fixture
def relay_port():
    """A relay on a free port, in a thread of its own."""
    got: list[int] = []
    loop = asyncio.new_event_loop()
    ready = threading.Event()

    def run():
        asyncio.set_event_loop(loop)
        task = loop.create_task(
            run_relay(0, "127.0.0.1", ready=lambda p: (got.append(p), ready.set()))
        )
        with contextlib.suppress(asyncio.CancelledError, RuntimeError):
            loop.run_until_complete(task)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    assert ready.wait(10)
    yield got[0]
    for task in asyncio.all_tasks(loop):
        loop.call_soon_threadsafe(task.cancel)
    t.join(5)


def test_modern_fire_support_through_the_relay_with_hidden_plots(tmp_path, relay_port):
    """The issue's done-when battle, AI against AI: through the relay, to the end; the relay
    only passes messages on, so both logs agree and verify confirms every roll."""
    host, join = sessions(tmp_path, "modern-fire-support.json", relay=relay_port)
    try:
        assert host.code is None or len(host.code) == 8
        assert play_both(host, join, level="veteran") == {"host": 0, "join": 0}
    finally:
        close(host, join)
    lines = same_and_verified(tmp_path)
    assert any(ln["event"] == "reveal" for ln in lines)


def test_a_joiner_with_a_code_the_relay_does_not_know_is_told_so(relay_port):
    link = transport.join(f"ws://127.0.0.1:{relay_port}/join/ZZZZZZZZ", first_word=True)
    try:
        item = None
        end = time.monotonic() + 10
        while item is None or item[0] != "refused":
            assert time.monotonic() < end
            item = link.get(0.1) or item
        assert "no battle with code ZZZZZZZZ" in item[1]
    finally:
        link.close()


# ------------------------------------------------------------------ misbehaving peers


def host_and_raw(tmp_path):
    """A host session of modern-skirmish and a raw connection to it that has read the
    host's hello (what a misbehaving program would be)."""
    sc = game.load_scenario(ROOT / "maps" / "modern-skirmish.json")
    hl = transport.host(0, bind="127.0.0.1")
    host = NetSession(
        hl,
        "host",
        "A",
        scenario=sc,
        seed=5,
        sides={"host": "A", "join": "B"},
        log_path=tmp_path / "host.log",
    )
    raw = transport.join(f"ws://127.0.0.1:{hl.port}")
    hello = wait(lambda: next_message(raw, "hello"), host)
    return host, raw, hello


def next_message(link, kind):
    item = link.get(0.02)
    if item and item[0] == "message" and item[1]["type"] == kind:
        return item[1]
    return None


def wait(fn, *pollers, limit_s=15.0):
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        for p in pollers:
            p.poll(0.01)
        got = fn()
        if got:
            return got
    raise AssertionError("waited in vain")


def joined(tmp_path):
    """A host session and a raw peer that said hello as a joiner (the battle started)."""
    from game.net.fairplay import FairPlay, Secrets

    host, raw, hello = host_and_raw(tmp_path)
    fp = FairPlay(Secrets("?", f"{9:064x}", game.fair.CHAIN_LENGTH))
    raw.send(fp.hello())
    fp.start(hello, fp.hello(), "join")
    wait(lambda: host.battle is not None, host)
    return host, raw, fp


@pytest.mark.parametrize(
    "send, says",
    [
        (lambda raw, fp: raw.send_raw("{not json"), "not JSON"),
        (lambda raw, fp: raw.send_raw("x" * (100 * 1024 * 1024)), "over 8,388,608 bytes"),
        (
            lambda raw, fp: raw.send(
                {
                    "type": "act",
                    "index": 0,
                    "action": {"kind": "pass", "side": "B"},
                    "element": fp.chain.element(0),
                }
            ),
            "out of turn",
        ),
        (
            lambda raw, fp: raw.send(
                {"type": "hello", "protocol": "hulldown-net/1", "chain_end": fp.chain.end}
            ),
            "second hello",
        ),
    ],
    ids=["garbage", "100 MB", "out of turn", "hello again"],
)
def test_a_peer_that_breaks_the_protocol_is_cut_off_with_a_reason_and_the_battle_kept(
    tmp_path, send, says
):
    host, raw, fp = joined(tmp_path)
    try:
        before = host.battle.state_hash()
        send(raw, fp)
        wait(lambda: says in host.status, host, limit_s=60)
        assert not host.connected and host.fault is None
        assert host.battle.state_hash() == before and host.battle.actions == []
    finally:
        close(host)
        raw.close()


def test_a_duplicate_action_closes_the_connection_and_applies_nothing_twice(tmp_path):
    host, raw, fp = joined(tmp_path)
    try:
        a = game.Pass("A")
        host.act(a)
        act = wait(lambda: next_message(raw, "act"), host)
        (answer,) = fp.receive(act)
        raw.send(answer)
        wait(lambda: len(host.battle.actions) == 1, host)
        b_act = fp.propose(game.Pass("B"))
        raw.send(b_act)
        wait(lambda: len(host.battle.actions) == 2, host)
        raw.send(b_act)  # again
        wait(lambda: "again" in host.status, host)
        assert len(host.battle.actions) == 2 and not host.connected
    finally:
        close(host)
        raw.close()


def test_a_connection_dropped_mid_battle_is_resumed_where_it_stopped(tmp_path):
    """The host hangs up three times while actions are on the wire; the joiner comes back by
    itself, the hellos say how far each got, the one behind is caught up, and the battle
    plays to the same end on both."""
    host, join = sessions(tmp_path, "modern-skirmish.json")
    drops = []

    def meddle(h, j):
        if h.battle is not None and len(drops) < 3 and h.fair.sent is not None:
            n = len(h.battle.actions)
            if n >= 5 * (len(drops) + 1):
                drops.append(n)
                h.link.hang_up("a test cut the line")

    try:
        assert play_both(host, join, meddle=meddle) == {"host": 0, "join": 0}
    finally:
        close(host, join)
    assert len(drops) == 3
    same_and_verified(tmp_path)


@pytest.mark.parametrize("killed", ["join", "host", "host mid-line"])
def test_kill_9_of_one_side_and_resume(tmp_path, killed):
    """Two processes play AI against AI; one is killed mid-battle (kill -9) and started again
    with --resume on its log (the host on its port, the joiner finding it again); both then
    finish, exit 0, with the same log. "mid-line": killed as it wrote its log's last line
    (cut in half here): the torn line is kept aside and the other side sends its action
    again."""
    killed, mid_line = killed.split()[0], killed.endswith("mid-line")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    exe = [sys.executable, "-m", "game"]
    port = free_port()
    common = ["--ai", "--timeout", "120"]
    cmd = {
        "host": [*exe, "host", "--port", str(port), *common],
        "join": [*exe, "join", f"127.0.0.1:{port}", *common],
    }
    first = {
        "host": [str(ROOT / "maps" / "modern-skirmish.json"), "--seed", "3"],
        "join": [],
    }
    procs = {}
    try:
        for side in ("host", "join"):
            procs[side] = subprocess.Popen(
                [*cmd[side], *first[side], "--log", str(tmp_path / f"{side}.log")],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            time.sleep(1.0)
        victim = procs[killed]
        end = time.monotonic() + 120
        while action_lines(tmp_path / f"{killed}.log") < 12:
            assert time.monotonic() < end and victim.poll() is None, "no progress to kill in"
            time.sleep(0.05)
        victim.send_signal(signal.SIGKILL)
        victim.wait(10)
        log = tmp_path / f"{killed}.log"
        if mid_line:
            data = log.read_bytes()
            start = data.rstrip(b"\n").rfind(b"\n") + 1
            log.write_bytes(data[: start + (len(data) - start) // 2])
        kept = action_lines(log)
        procs[killed] = subprocess.Popen(
            [*cmd[killed], "--resume", str(tmp_path / f"{killed}.log")],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        outs = {side: p.communicate(timeout=240)[0] for side, p in procs.items()}
        for side, p in procs.items():
            assert p.returncode == 0, f"{side}: {outs[side]}"
    finally:
        for p in procs.values():
            if p.poll() is None:
                p.kill()
    assert kept >= 11
    if mid_line:
        assert "its last line was cut off" in outs[killed]
        torn = (tmp_path / f"{killed}.log.torn").read_bytes()
        assert not torn.endswith(b"\n") and torn.count(b"\n") == data[:start].count(b"\n")
    same_and_verified(tmp_path)


def action_lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b'"event":"action"')
    except FileNotFoundError:
        return 0


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_cli_plays_a_headless_network_battle_and_exits_0(tmp_path):
    """The issue's outside check: ``hulldown host SCENARIO --ai --port P --seed S --log FILE``
    and ``hulldown join localhost:P --ai --log FILE`` play to the end and exit 0."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    exe = [sys.executable, "-m", "game"]
    port = free_port()
    host = subprocess.Popen(
        [
            *exe,
            "host",
            str(ROOT / "maps" / "modern-skirmish.json"),
            "--ai",
            "--port",
            str(port),
            "--seed",
            "9",
            "--log",
            str(tmp_path / "host.log"),
            "--level",
            "recruit",
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        time.sleep(1.0)
        join = subprocess.run(
            [
                *exe,
                "join",
                f"localhost:{port}",
                "--ai",
                "--log",
                str(tmp_path / "join.log"),
                "--level",
                "recruit",
            ],
            env=env,
            capture_output=True,
            text=True,
            timeout=240,
        )
        out, _ = host.communicate(timeout=60)
    finally:
        if host.poll() is None:
            host.kill()
    assert join.returncode == 0 and host.returncode == 0, join.stdout + out
    assert "the battle is over" in join.stdout and "hosting on port" in out
    same_and_verified(tmp_path)
