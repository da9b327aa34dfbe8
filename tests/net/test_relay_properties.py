"""The relay's tables under random sequences of connections, closes, guesses and time passing
(hypothesis): every table stays within its bound, an address's counts are what is open, a
closed socket frees its place at once, and a code nobody met is forgotten as its host
leaves. The relay's own handler runs on stand-in sockets (no network), with small limits so
that the sequences reach them. A longer run: HULLDOWN_RELAY_EXAMPLES=2000."""

from __future__ import annotations

import asyncio
import os
from types import SimpleNamespace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed

from game.net import relay as relay_mod
from game.net.relay import Relay

EXAMPLES = int(os.environ.get("HULLDOWN_RELAY_EXAMPLES", "60"))
ADDRESSES = ["10.0.0.1", "10.0.0.2", "10.0.0.3", "2001:db8::1", "2001:db8::2", "10.0.0.9"]
KEY = "ab" * 16


class Clock:
    """The relay's clock, moved on by the test (seconds)."""

    def __init__(self):
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


class FakeSocket:
    """A websocket connection as the relay's handler sees it: the request's path, the
    remote address, what was sent to it, and closing (which ends its messages)."""

    def __init__(self, path: str, address: str):
        self.request = SimpleNamespace(path=path)
        self.remote_address = (address, 40000)
        self.sent: list = []
        self.closed = asyncio.Event()
        self.reason = None

    async def send(self, data) -> None:
        if self.closed.is_set():
            raise ConnectionClosed(None, None)
        self.sent.append(data)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        if not self.closed.is_set():
            self.reason = reason
            self.closed.set()

    async def wait_closed(self) -> None:
        await self.closed.wait()

    def __aiter__(self):
        return self

    async def __anext__(self):
        await self.closed.wait()
        raise StopAsyncIteration


class FakeConnection:
    """The handshake's view of a connection, for ``process_request``."""

    def __init__(self, address: str):
        self.remote_address = (address, 40000)

    def respond(self, status, text):
        return ("refused", status)


OPS = st.one_of(
    st.tuples(st.just("host"), st.integers(0, 5), st.integers(-1, 7)),
    st.tuples(st.just("claim"), st.integers(0, 5), st.integers(-1, 7)),
    st.tuples(st.just("join"), st.integers(0, 5), st.integers(-1, 7)),
    st.tuples(st.just("close"), st.integers(0, 30), st.just(0)),
    st.tuples(st.just("wait"), st.sampled_from([0.5, 5.0, 61.0, 4000.0]), st.just(0)),
)


async def _run(ops, clock: Clock) -> None:
    relay = Relay()
    live: list[tuple[FakeSocket, asyncio.Task]] = []
    known: list[str] = []

    async def settle():
        for _ in range(6):
            await asyncio.sleep(0)

    for op, a, b in ops:
        if op == "wait":
            clock.now += a
            continue
        if op == "close":
            if live:
                ws, _ = live[a % len(live)]
                await ws.close(1000, "test")
                await settle()
            check(relay, live)
            continue
        address = ADDRESSES[a]
        if relay.process_request(FakeConnection(address), None) is not None:
            check(relay, live)
            continue
        code = known[b % len(known)] if known and b >= 0 else f"ZZZZZZZ{'ABCDEFGH'[b % 8]}"
        path = {
            "host": f"/host?key={KEY}",
            "claim": f"/host/{code}?key={KEY}",
            "join": f"/join/{code}",
        }[op]
        ws = FakeSocket(path, address)
        live.append((ws, asyncio.create_task(relay.handle(ws))))
        await settle()
        for data in ws.sent:
            if '"code"' in data:
                known.append(data.split('"code": "')[1][:8])
        live[:] = [(w, t) for w, t in live if not t.done()]
        check(relay, live)
    for ws, _ in live:
        await ws.close()
    await settle()
    live[:] = [(w, t) for w, t in live if not t.done()]
    assert not live
    check(relay, live)
    assert all(p.met for p in relay.pairs.values())  # only codes that met are kept
    clock.now += relay_mod.KEEP_S + 1
    relay.forget_idle()
    assert not relay.pairs
    assert all(not e.codes for e in relay.addresses.values())


def check(relay: Relay, live) -> None:
    """The invariants of the relay's tables, given the sockets still open."""
    open_ws = {id(ws) for ws, t in live if not t.done() and not ws.closed.is_set()}
    assert len(relay.pairs) <= relay_mod.MAX_BATTLES
    assert len(relay.addresses) <= relay_mod.MAX_ADDRESSES
    for code, pair in relay.pairs.items():
        assert code in relay.addresses[pair.owner].codes
        for end in pair.ends.values():
            assert end is None or id(end) in open_ws  # a closed socket holds no place
        if not pair.met and not pair.claiming:
            assert any(pair.ends.values()), "a code nobody met outlived its host"
    for address, entry in relay.addresses.items():
        assert len(entry.codes) <= relay_mod.PER_ADDRESS_BATTLES
        assert all(relay.pairs[c].owner == address for c in entry.codes)
        mine = sum(
            1
            for ws, t in live
            if not t.done() and relay_mod.address_of(ws.remote_address) == address
        )
        assert entry.sockets == mine <= relay_mod.PER_ADDRESS_SOCKETS


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(ops=st.lists(OPS, max_size=40))
def test_the_relay_stays_bounded_under_random_connections_closes_and_guesses(ops, monkeypatch):
    clock = Clock()
    monkeypatch.setattr(relay_mod, "time", SimpleNamespace(monotonic=clock.monotonic))
    monkeypatch.setattr(relay_mod, "MAX_BATTLES", 4)
    monkeypatch.setattr(relay_mod, "MAX_ADDRESSES", 4)
    monkeypatch.setattr(relay_mod, "PER_ADDRESS_BATTLES", 2)
    monkeypatch.setattr(relay_mod, "PER_ADDRESS_SOCKETS", 3)
    asyncio.run(_run(ops, clock))


def test_a_dropped_host_claims_its_code_back_and_a_stranger_cannot(monkeypatch):
    """A host and a joiner meet; the host's socket closes (its place free at once, the code
    kept); a stranger's claim on the code with another key is refused as an unknown code;
    the host's own claim has it back and the waiting joiner is paired with it again."""
    clock = Clock()
    monkeypatch.setattr(relay_mod, "time", SimpleNamespace(monotonic=clock.monotonic))

    async def run():
        relay = Relay()

        async def connect(path, address):
            ws = FakeSocket(path, address)
            task = asyncio.create_task(relay.handle(ws))
            for _ in range(6):
                await asyncio.sleep(0)
            return ws, task

        host, _ = await connect(f"/host?key={KEY}", "10.0.0.1")
        code = host.sent[0].split('"code": "')[1][:8]
        join, _ = await connect(f"/join/{code}", "10.0.0.2")
        assert any('"paired": true' in d for d in host.sent + join.sent)
        await host.close()
        for _ in range(6):
            await asyncio.sleep(0)
        assert relay.pairs[code].ends["host"] is None and relay.pairs[code].met
        stranger, _ = await connect(f"/host/{code}?key={'cd' * 16}", "10.0.0.3")
        assert stranger.reason == f"no battle with code {code} at this relay"
        joiner2, _ = await connect(f"/join/{code}", "10.0.0.2")  # the joiner comes back
        again, _ = await connect(f"/host/{code}?key={KEY}", "10.0.0.4")  # another network
        assert again.reason is None and relay.pairs[code].ends["host"] is again
        assert any('"paired": true' in d for d in again.sent)
        for ws in (join, joiner2, again):
            await ws.close()

    asyncio.run(run())
