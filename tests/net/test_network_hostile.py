"""Network play against hostile peers, through the real commands and sockets on loopback: a
stranger in the free place during a drop, a silent peer, a peer claiming actions it does not
have, messages built to crash the honest side, a relay host killed and coming back to its
code, a flood of connections and guesses at the relay, and the secret file's permissions."""

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
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

import game
from game.ai.scripted import ScriptedAI
from game.net import relay as relay_mod
from game.net import session as session_mod
from game.net import transport
from game.net.fairplay import PROTOCOL, FairPlay, Secrets
from game.net.headless import Driver
from game.net.relay import Relay, run_relay
from game.net.session import NetSession, secret_path

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
EXE = [sys.executable, "-m", "game"]


def quiet(_text: str) -> None:
    pass


def until(fn, *sessions, limit_s: float = 15.0):
    """Poll ``sessions`` until ``fn()`` is true (its value), or fail after ``limit_s``."""
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        for s in sessions:
            s.poll(0.01)
        got = fn()
        if got:
            return got
    raise AssertionError("waited in vain")


def messages(link, limit_s: float = 3.0) -> list:
    """Everything a raw link brought within ``limit_s`` (or until it dropped)."""
    out, end = [], time.monotonic() + limit_s
    while time.monotonic() < end:
        item = link.get(0.05)
        if item is not None:
            out.append(item)
            if item[0] in ("dropped", "refused"):
                break
    return out


def first_message(link, limit_s: float = 20.0) -> dict:
    """The first message a raw link brings (waiting up to ``limit_s``)."""
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        item = link.get(0.05)
        if item is not None and item[0] == "message":
            return item[1]
    raise AssertionError("no message came")


def a_battle_under_way(tmp_path, actions: int = 4):
    """A host and a joiner session (modern-skirmish, directly on loopback) that played
    ``actions`` actions, then the joiner's line went down for good: the host waits for it."""
    sc = game.load_scenario(ROOT / "maps" / "modern-skirmish.json")
    hl = transport.host(0, bind="127.0.0.1")
    jl = transport.join(f"ws://127.0.0.1:{hl.port}")
    host = NetSession(
        hl,
        "host",
        "A",
        scenario=sc,
        seed=5,
        sides={"host": "A", "join": "B"},
        log_path=tmp_path / "host.log",
    )
    join = NetSession(jl, "join", "?", log_path=tmp_path / "join.log")
    drivers = [
        Driver(host, ScriptedAI(seed=1, level="recruit"), say=quiet),
        Driver(join, ScriptedAI(seed=2, level="recruit"), say=quiet),
    ]
    end = time.monotonic() + 60
    while host.battle is None or len(host.battle.actions) < actions or host.fair.sent:
        assert time.monotonic() < end
        for d in drivers:
            d.step(0.002)
    time.sleep(0.2)
    join.poll(0.05)
    jl.close()
    until(lambda: not host.connected, host)
    return host, join


def resumed_joiner(tmp_path, port: int) -> NetSession:
    """The real joiner coming back from its log and secret file."""
    battle, _ = game.Battle.from_network_log(tmp_path / "join.log")
    secrets = Secrets.load(secret_path(tmp_path / "join.log"))
    link = transport.join(f"ws://127.0.0.1:{port}")
    return NetSession(
        link,
        "join",
        secrets.side,
        log_path=tmp_path / "join2.log",
        battle=battle,
        secrets=secrets,
    )


# ------------------------------------------------------------------ a stranger in the place


@pytest.mark.parametrize("answer", ["the chains it was shown", "a made-up proof"])
def test_a_stranger_in_the_free_place_is_sent_nothing_and_the_real_joiner_resumes(tmp_path, answer):
    host, join = a_battle_under_way(tmp_path)
    stranger = transport.join(f"ws://127.0.0.1:{host.link.port}")
    real = None
    try:
        hello = until(
            lambda: next((m for m in [stranger.get(0.02)] if m and m[0] == "message"), None), host
        )
        hello = hello[1]
        assert hello["type"] == "hello"
        assert set(hello["resume"]) == {"nonce"} and "chains" not in json.dumps(hello)
        if answer == "the chains it was shown":  # what answered the old hello
            chains = host.battle.log.events[0].get("chains") or {}
            reply = {"resume": {"actions": 0, "chains": chains}}
        else:
            reply = {"resume": {"nonce": "0" * 64, "proof": "1" * 64, "actions": 0}}
        stranger.send({"type": "hello", "protocol": PROTOCOL, **reply})
        got = []
        end = time.monotonic() + 5
        while time.monotonic() < end and not any(g[0] == "dropped" for g in got):
            host.poll(0.01)
            item = stranger.get(0.01)
            if item:
                got.append(item)
        kinds = [g[1]["type"] for g in got if g[0] == "message"]
        assert kinds == [], kinds  # no catchup, no rejoin, nothing of the battle
        assert any(g[0] == "dropped" and "could not prove" in g[1] for g in got), got
        assert host.fault is None and host.left is None and not host.connected
        stranger.close()
        # the real joiner comes back and proves itself
        real = resumed_joiner(tmp_path, host.link.port)
        until(lambda: host.ready and real.ready, host, real)
        assert len(real.battle.actions) == len(host.battle.actions)
        assert real.battle.state_hash() == host.battle.state_hash()
    finally:
        stranger.close()
        host.link.close()
        if real is not None:
            real.link.close()


def test_a_silent_peer_is_cut_off_after_the_hello_time(tmp_path, monkeypatch):
    """It answers pings (the library does) and never says hello: closed, the place free."""
    monkeypatch.setattr(session_mod, "HELLO_S", 1.0)
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
    silent = transport.join(f"ws://127.0.0.1:{hl.port}")
    try:
        start = time.monotonic()
        dropped = until(
            lambda: next((i for i in [silent.get(0.01)] if i and i[0] == "dropped"), None),
            host,
            limit_s=6,
        )
        assert "no hello" in dropped[1] and time.monotonic() - start < 4
        assert host.battle is None and not host.connected and host.fault is None
    finally:
        silent.close()
        hl.close()


def test_a_peer_claiming_an_action_it_does_not_have_is_refused_with_one_line(tmp_path, monkeypatch):
    """The real joiner's program, changed to claim one action more and send none."""
    monkeypatch.setattr(session_mod, "HELLO_S", 1.5)
    host, join = a_battle_under_way(tmp_path)
    battle, _ = game.Battle.from_network_log(tmp_path / "join.log")
    fp = FairPlay(Secrets.load(secret_path(tmp_path / "join.log")), battle)
    liar = transport.join(f"ws://127.0.0.1:{host.link.port}")
    try:
        hello = until(
            lambda: next((m for m in [liar.get(0.02)] if m and m[0] == "message"), None), host
        )
        claim = fp.rejoin_hello(hello[1])
        claim["resume"]["actions"] = len(host.battle.actions) + 1
        liar.send(claim)
        got = []
        end = time.monotonic() + 6
        while time.monotonic() < end and not any(g[0] == "dropped" for g in got):
            host.poll(0.01)
            item = liar.get(0.01)
            if item:
                got.append(item)
        assert any(g[0] == "dropped" and "promised actions" in g[1] for g in got), got
        assert host.fault is None and not host.connected
        assert len(host.battle.actions) == claim["resume"]["actions"] - 1
    finally:
        liar.close()
        host.link.close()


def test_nothing_goes_out_on_a_new_connection_before_the_hello(tmp_path):
    """A message meant for the connection before (an act sent as the line went down) never
    reaches the next connection ahead of the hello."""
    hl = transport.host(0, bind="127.0.0.1")
    peer = transport.join(f"ws://127.0.0.1:{hl.port}")
    try:
        end = time.monotonic() + 5
        while hl.get(0.05) is None:
            assert time.monotonic() < end
        hl.send({"type": "act", "index": 3, "action": {}, "element": "0" * 64})
        hl.send({"type": "hello", "protocol": PROTOCOL})
        got = [m[1]["type"] for m in messages(peer, 1.0) if m[0] == "message"]
        assert got[:1] == ["hello"] and "act" not in got
    finally:
        peer.close()
        hl.close()


# ------------------------------------------------------------------ no traceback


def raw_joiner_of_cli_host(tmp_path, extra=()):
    """``hulldown host --ai`` on a free port, and a raw joiner that said hello."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [
            *EXE,
            "host",
            str(ROOT / "maps" / "modern-skirmish.json"),
            "--ai",
            "--port",
            str(port),
            "--log",
            str(tmp_path / "host.log"),
            "--timeout",
            "30",
            "--level",
            "recruit",
            *extra,
        ],
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    end = time.monotonic() + 20
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
        except OSError:
            assert time.monotonic() < end and proc.poll() is None
            time.sleep(0.1)
    link = transport.join(f"ws://127.0.0.1:{port}")
    fp = FairPlay(Secrets("?", f"{9:064x}", game.fair.CHAIN_LENGTH))
    hello = first_message(link)
    link.send(fp.hello())
    fp.start(hello, fp.hello(), "join")
    return proc, link, fp


@pytest.mark.parametrize(
    "what",
    [
        "bye mid-action, its reason a list",
        "bye mid-action, then deaf to the close",
        "100,000 nested levels",
    ],
)
def test_the_honest_side_ends_or_goes_on_without_a_traceback(tmp_path, what):
    proc, link, fp = raw_joiner_of_cli_host(tmp_path)
    try:
        if what.startswith("bye"):
            act = first_message(link)
            assert act["type"] == "act"  # the host acted and waits for our answer
            link.send({"type": "bye", "reason": ["not", "text"]})
            if "deaf" in what:  # the socket stays open, nobody reads it or answers its close
                time.sleep(0.2)
                link._loop.call_soon_threadsafe(link._loop.stop)
            out, _ = proc.communicate(timeout=30)
            assert proc.returncode == 3, out
            assert "(not text)" in out and "['not'" not in out
        else:
            link.send_raw("[" * 100_000 + "]" * 100_000)
            time.sleep(1.0)
            link.close()
            proc.send_signal(signal.SIGINT)
            out, _ = proc.communicate(timeout=30)
            assert "nested deeper than 64 levels" in out, out
        assert "Traceback" not in out and "Task was destroyed" not in out, out
        assert "RecursionError" not in out
    finally:
        link.close()
        if proc.poll() is None:
            proc.kill()


# ------------------------------------------------------------------ the secret file


def test_the_secret_file_is_the_owners_alone_and_refused_when_others_may_read_it(tmp_path):
    sc = game.load_scenario(ROOT / "maps" / "modern-skirmish.json")
    hl = transport.host(0, bind="127.0.0.1")
    try:
        NetSession(
            hl,
            "host",
            "A",
            scenario=sc,
            sides={"host": "A", "join": "B"},
            log_path=tmp_path / "b.log",
        )
    finally:
        hl.close()
    path = secret_path(tmp_path / "b.log")
    assert path.stat().st_mode & 0o777 == 0o600
    path.chmod(0o644)
    (tmp_path / "b.log").write_text("")
    run = subprocess.run(
        [*EXE, "host", "--resume", str(tmp_path / "b.log"), "--port", "0"],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1 and "others may read it (mode 0644)" in run.stderr
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr


# ------------------------------------------------------------------ the relay


@pytest.fixture
def relay():
    """A relay on a free loopback port in a thread of its own: ``(port, Relay)``."""
    tables = Relay()
    got: list[int] = []
    loop = asyncio.new_event_loop()
    ready = threading.Event()

    def run():
        asyncio.set_event_loop(loop)
        task = loop.create_task(
            run_relay(0, "127.0.0.1", ready=lambda p: (got.append(p), ready.set()), relay=tables)
        )
        with contextlib.suppress(asyncio.CancelledError, RuntimeError):
            loop.run_until_complete(task)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    assert ready.wait(10)
    yield got[0], tables
    for task in asyncio.all_tasks(loop):
        loop.call_soon_threadsafe(task.cancel)
    t.join(5)


def test_a_relay_host_killed_comes_back_to_its_code_with_resume_alone(tmp_path, relay):
    """Two processes through the relay; the host is killed (kill -9) mid-battle and started
    again with ``hulldown host --resume LOG`` alone: it asks for its code back, the joiner
    waiting there meets it, and both finish with the same log."""
    port, _ = relay
    common = ["--ai", "--timeout", "120", "--level", "recruit"]
    host_cmd = [
        *EXE,
        "host",
        str(ROOT / "maps" / "modern-skirmish.json"),
        "--seed",
        "3",
        "--relay",
        f"127.0.0.1:{port}",
        "--log",
        str(tmp_path / "host.log"),
        *common,
    ]
    procs = {
        "host": subprocess.Popen(
            host_cmd, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
    }
    try:
        code = None
        end = time.monotonic() + 30
        while code is None:
            assert time.monotonic() < end
            line = procs["host"].stdout.readline()
            if "battle code" in line:
                code = line.rsplit(" ", 1)[-1].strip()
        procs["join"] = subprocess.Popen(
            [
                *EXE,
                "join",
                "--relay",
                f"127.0.0.1:{port}",
                code,
                "--log",
                str(tmp_path / "join.log"),
                *common,
            ],
            env=ENV,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        end = time.monotonic() + 120
        while (tmp_path / "host.log").exists() is False or (
            (tmp_path / "host.log").read_bytes().count(b'"event":"action"') < 10
        ):
            assert time.monotonic() < end and procs["host"].poll() is None
            time.sleep(0.05)
        procs["host"].send_signal(signal.SIGKILL)
        procs["host"].wait(10)
        procs["host"] = subprocess.Popen(
            [*EXE, "host", "--resume", str(tmp_path / "host.log"), *common],
            env=ENV,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        outs = {side: p.communicate(timeout=240)[0] for side, p in procs.items()}
        for side, p in procs.items():
            assert p.returncode == 0, f"{side}: {outs[side]}"
        assert "address already in use" not in outs["host"]
    finally:
        for p in procs.values():
            if p.poll() is None:
                p.kill()
    h, j = (tmp_path / "host.log").read_bytes(), (tmp_path / "join.log").read_bytes()
    assert h == j


async def _try(uri: str, source: str, into: list | None = None, hold_s: float = 0.0):
    """One connection to the relay from loopback address ``source``: its first word (a dict,
    also put in ``into``; then the connection is held ``hold_s`` seconds), or the close
    reason or HTTP status it was refused with (a str)."""
    try:
        async with connect(uri, open_timeout=5, local_addr=(source, 0)) as ws:
            word = json.loads(await asyncio.wait_for(ws.recv(), 5))
            if into is not None:
                into.append(word)
            await asyncio.sleep(hold_s)
            return word
    except InvalidStatus as err:
        return f"http {err.response.status_code}"
    except ConnectionClosed as err:
        return (err.rcvd.reason if err.rcvd else "") or "closed"
    except (OSError, TimeoutError) as err:
        return f"error {err}"


def test_a_flood_from_one_address_leaves_the_relay_serving_real_hosts(relay):
    """1,000 connections to /host and /host/CODE (chosen codes) from 127.0.0.2 as fast as
    they go (bounded in count and time), then 16 guessed codes from 127.0.0.3; meanwhile
    hosts from other loopback addresses are given codes."""
    port, tables = relay
    base = f"ws://127.0.0.1:{port}"
    key = "ab" * 16

    async def flood():
        held, flooded, real_words = [], [], []
        start = time.monotonic()
        for i in range(1000):
            if time.monotonic() - start > 20:
                break
            path = "/host" if i % 2 else f"/host/ABCDEFG{'ABCDEFGHJK'[i % 10]}"
            uri = f"{base}{path}?key={key}"
            held.append(asyncio.create_task(_try(uri, "127.0.0.2", flooded, 30)))
            if i % 50 == 0:
                await asyncio.sleep(0)
        real = [  # real hosts, each from its own address, during the flood
            asyncio.create_task(_try(f"{base}/host?key={key}", f"127.0.0.{10 + n}", real_words, 30))
            for n in range(5)
        ]
        end = time.monotonic() + 40  # a loaded CI machine: it takes 3 s on a quiet one
        while len(real_words) < 5 or sum(t.done() for t in held) + len(flooded) < len(held):
            assert time.monotonic() < end
            await asyncio.sleep(0.05)
        refused = sum(1 for t in held if t.done() and isinstance(t.result(), str))
        guesses = [await _try(f"{base}/join/ZZZZZZZ{c}", "127.0.0.3") for c in "ABCDEFGHJKLMNPQR"]
        for t in held + real:
            t.cancel()
        await asyncio.gather(*held, *real, return_exceptions=True)
        return len(held), flooded, refused, real_words, guesses

    tried, flooded, refused, real_words, guesses = asyncio.run(flood())
    held = {w["code"] for w in flooded}  # a code claimed again with its key is the same one
    assert tried == 1000 and len(held) <= relay_mod.PER_ADDRESS_BATTLES
    assert refused == tried - len(flooded)
    assert len(real_words) == 5
    assert all(len(w["code"]) == relay_mod.CODE_LENGTH for w in real_words)
    n = relay_mod.GUESS_BURST
    assert guesses[:n] == [f"no battle with code ZZZZZZZ{c} at this relay" for c in "ABCDEFGHJK"]
    assert all("too many" in g or g == "http 429" for g in guesses[n:]), guesses
    assert len(tables.pairs) <= relay_mod.MAX_BATTLES


# ------------------------------------------------------------------ the joiner's side


@pytest.mark.parametrize("open_, wanted", [(True, "A"), (True, None), (False, "A")])
def test_the_joiner_chooses_its_side_when_the_host_leaves_it_open(tmp_path, open_, wanted):
    """``host --side open``: the joiner's ``--side`` decides (the second side when it names
    none); a host that chose leaves the joiner that asked otherwise one line, and waits on."""
    sc = game.load_scenario(ROOT / "maps" / "modern-skirmish.json")
    hl = transport.host(0, bind="127.0.0.1")
    sides = {"host": None, "join": None} if open_ else {"host": "A", "join": "B"}
    host = NetSession(
        hl,
        "host",
        "?" if open_ else "A",
        scenario=sc,
        seed=5,
        sides=sides,
        log_path=tmp_path / "host.log",
    )
    jl = transport.join(f"ws://127.0.0.1:{hl.port}")
    join = NetSession(jl, "join", wanted or "?", log_path=tmp_path / "join.log")
    try:
        if open_:
            until(lambda: host.ready and join.ready, host, join)
            assert join.side == (wanted or "B") and host.side == ("B" if wanted else "A")
            assert host.battle.state_hash() == join.battle.state_hash()
        else:
            until(lambda: join.fault, host, join)
            assert "the host plays A and gives the joiner B, not A" in join.fault
            until(lambda: not host.connected, host)
            assert host.fault is None and host.battle is None
    finally:
        hl.close()
        jl.close()
