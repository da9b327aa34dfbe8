"""``hulldown relay``: pairs a host and a joiner by a battle code and passes their messages on
without reading them, for players behind routers.

A host connects to ``ws://RELAY:PORT/host?key=KEY`` (``KEY``: 32 to 64 hex digits it made up,
its claim on the code) and is told a fresh code (``{"type": "relay", "code": ...}``); the
joiner connects to ``ws://RELAY:PORT/join/CODE``; once both are there the relay says
``{"type": "relay", "paired": true}`` to each and from then on forwards every message as it
came. After a drop the joiner comes back to the same place and the host to
``/host/CODE?key=KEY``: with its key it has its code back (and a connection of its that was
left half-open is replaced); a relay started again since makes the code anew for it.

The relay holds no secret and can change nothing unseen: the dice come from both players'
hash chains, a plot travels as a commitment, both engines compare state hashes after every
action, and a side that comes back proves to the other that it plays the battle.

It is bounded so that one address cannot shut it: its tables have fixed sizes, each address
has a few connections and codes at once, a rate of new connections and a rate of codes
guessed (a join to a code it does not know, or a host's claim on one), and a code is 40 bits
long, so a guesser at that rate would need some 200 years, on average, to find one of a full
table's codes. Limits and their values: docs/network.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import json
import re
import secrets
import time
from http import HTTPStatus
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

from game.net.fairplay import MAX_MESSAGE_BYTES

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud, typed by hand
CODE_LENGTH = 8
"""Letters in a battle code: 32**8, about 1.1e12 codes."""
MAX_BATTLES = 1000
"""Battle codes the relay keeps at once, chosen ones included."""
MAX_ADDRESSES = 10_000
"""Addresses the relay keeps count of at once (the oldest quiet ones are forgotten first)."""
PER_ADDRESS_BATTLES = 4
"""Codes one address may hold at once (made, or claimed back after a restart)."""
PER_ADDRESS_SOCKETS = 8
"""Connections one address may have open at once."""
CONNECT_RATE, CONNECT_BURST = 2.0, 10
"""New connections an address may open a second, and at once after a quiet spell."""
GUESS_RATE, GUESS_BURST = 10 / 60, 10
"""Codes an address may guess a second (a join to a code the relay does not know, a host's
claim on a code with its key), and at once after a quiet spell: 14,400 a day."""
KEEP_S = 3600.0
"""How long a code whose two sides met is kept after both left, for either to come back."""
WAIT_S = 600.0
"""How long one side waits at the relay for the other before it is sent away."""
PING_S = 5.0
"""Seconds between the relay's pings; a socket that does not answer one within as long is
closed, and its place freed."""
KEY = re.compile(r"[0-9a-f]{32,64}")


class Bucket:
    """A rate limit: ``rate`` tokens a second, at most ``burst`` held; :meth:`take` spends
    one."""

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        """Spend a token if there is one (True), else False."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def full(self) -> bool:
        """Whether it is back to its burst (nothing to remember)."""
        return self.tokens + (time.monotonic() - self.stamp) * self.rate >= self.burst


class Address:
    """What the relay counts of one address (an IPv6 address's /64)."""

    def __init__(self):
        self.sockets = 0
        self.codes: set[str] = set()
        self.connects = Bucket(CONNECT_RATE, CONNECT_BURST)
        self.guesses = Bucket(GUESS_RATE, GUESS_BURST)
        self.seen = time.monotonic()

    def idle(self) -> bool:
        """Nothing open, no code held, no limit spent: it may be forgotten."""
        return not self.sockets and not self.codes and self.connects.full() and self.guesses.full()


class Pair:
    """A battle code's two places (``host``, ``join``), filled by live connections; the
    ``owner`` address and the host's ``key``; ``met`` once both were there at once."""

    def __init__(self, owner: str, key: str):
        self.ends: dict[str, object] = {"host": None, "join": None}
        self.both = asyncio.Event()
        self.used = time.monotonic()
        self.owner, self.key = owner, key
        self.met = False
        self.claiming = 0  # host connections taking the place back (the code is not forgotten)


def address_of(remote) -> str:
    """The address a limit counts: the IPv4 address, or an IPv6 address's /64."""
    host = remote[0] if isinstance(remote, tuple) else str(remote)
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return str(host)
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network(f"{ip}/64", strict=False))


def _bad_address(parts: list[str], role: str, code: str | None, key: str) -> str | None:
    """Why a connection's address is refused (the close reason, code 1008), or None: not
    ``/host``, ``/host/CODE`` or ``/join/CODE``; a host without a key of 32 to 64 hex digits;
    a code not of the relay's alphabet and length (said as no such battle)."""
    if role not in ("host", "join") or (role == "join" and code is None) or len(parts) > 2:
        return "connect to /host?key=KEY, /host/CODE?key=KEY or /join/CODE"
    if role == "host" and not KEY.fullmatch(key):
        return "a host gives its key: /host?key= 32 to 64 hex digits"
    if code is not None and not (
        len(code) == CODE_LENGTH and all(c in CODE_ALPHABET for c in code)
    ):
        return f"no battle with code {code[:CODE_LENGTH]} at this relay"
    return None


class Relay:
    """The relay's tables (codes, addresses) and its connection handler."""

    def __init__(self):
        self.pairs: dict[str, Pair] = {}
        self.addresses: dict[str, Address] = {}
        self.refused = 0  # connections refused before the handshake (counted for the docs)

    # ------------------------------------------------------------ tables

    def new_code(self) -> str:
        """A fresh battle code not in use."""
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.pairs:
                return code

    def address(self, addr: str) -> Address | None:
        """The count of ``addr``, made if need be; None when the table is full of addresses
        that cannot be forgotten yet."""
        entry = self.addresses.get(addr)
        if entry is None:
            if len(self.addresses) >= MAX_ADDRESSES:
                self._forget_addresses()
                if len(self.addresses) >= MAX_ADDRESSES:
                    return None
            entry = self.addresses[addr] = Address()
        entry.seen = time.monotonic()
        return entry

    def _forget_addresses(self) -> None:
        quiet = [a for a, e in self.addresses.items() if e.idle()]
        for a in sorted(quiet, key=lambda a: self.addresses[a].seen)[: len(quiet) // 2 + 1]:
            del self.addresses[a]

    def _forget(self, code: str) -> None:
        pair = self.pairs.pop(code, None)
        if pair is not None and pair.owner in self.addresses:
            self.addresses[pair.owner].codes.discard(code)

    def forget_idle(self) -> None:
        """Forget codes nobody is connected to that never met, or met more than
        :data:`KEEP_S` ago."""
        now = time.monotonic()
        for code, pair in list(self.pairs.items()):
            if pair.claiming or any(pair.ends.values()):
                continue
            if not pair.met or now - pair.used > KEEP_S:
                self._forget(code)

    # ------------------------------------------------------------ connections

    def process_request(self, connection, request):
        """Before the websocket handshake: refuse (HTTP 429) an address over its rate of new
        connections or its open connections, or any when the address table is full (503)."""
        entry = self.address(address_of(connection.remote_address))
        if entry is None:
            self.refused += 1
            return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, "the relay is busy\n")
        if entry.sockets >= PER_ADDRESS_SOCKETS or not entry.connects.take():
            self.refused += 1
            return connection.respond(HTTPStatus.TOO_MANY_REQUESTS, "too many connections\n")
        return None

    async def handle(self, ws) -> None:
        """One connection: ``/host?key=KEY``, ``/host/CODE?key=KEY`` or ``/join/CODE``."""
        addr = address_of(ws.remote_address)
        entry = self.address(addr)
        if entry is None:
            await ws.close(1013, "the relay is busy: try again later")
            return
        entry.sockets += 1
        try:
            await self._handle(ws, addr, entry)
        finally:
            entry.sockets -= 1

    async def _handle(self, ws, addr: str, entry: Address) -> None:
        url = urlsplit(ws.request.path)
        parts = [p for p in url.path.split("/") if p]
        role = parts[0] if parts else ""
        code = parts[1].upper() if len(parts) > 1 else None
        key = (parse_qs(url.query).get("key") or [""])[0]
        refused = _bad_address(parts, role, code, key)
        if refused:
            await ws.close(1008, refused)
            return
        self.forget_idle()
        pair = self.pairs.get(code) if code else None
        if code is not None and not (pair is None and role == "host"):
            # a join, or a host claiming a code it holds: a guess unless it knows the code
            known = pair is not None and (role == "join" or hmac.compare_digest(pair.key, key))
            if not known:
                if not entry.guesses.take():
                    await ws.close(1013, "too many battle codes tried: wait a minute")
                    return
                await ws.close(1008, f"no battle with code {code} at this relay")
                return
        if pair is None:  # a new code, or one claimed back after the relay started again
            if code is not None and not entry.guesses.take():
                await ws.close(1013, "too many battle codes tried: wait a minute")
                return
            if len(entry.codes) >= PER_ADDRESS_BATTLES:
                await ws.close(1013, "this address holds as many battles as it may: end one")
                return
            if len(self.pairs) >= MAX_BATTLES:
                await ws.close(1013, "the relay is full: try again later")
                return
            code = code or self.new_code()
            pair = self.pairs[code] = Pair(addr, key)
            entry.codes.add(code)
        held = pair.ends[role]
        if held is not None:
            if role == "join":
                await ws.close(1013, f"the join of battle {code} is connected already")
                return
            if not await self._host_comes_back(ws, pair, code, held):
                return
        await self._pair(ws, pair, code, role)

    async def _host_comes_back(self, ws, pair: Pair, code: str, held) -> bool:
        """The host, with its key, connecting while the relay still holds an end of its own
        (``held``, half-open): that end and the joiner's are closed (1001), the joiner to
        meet the host again from the start. False (``ws`` closed, 1013) when another claim
        of the host's end came first while they closed; True when ``ws`` may take it."""
        pair.ends["host"] = None
        pair.both.clear()
        pair.claiming += 1
        try:
            for old in (held, pair.ends["join"]):
                if old is not None:
                    with contextlib.suppress(ConnectionClosed):
                        await old.close(1001, "the host came back on another connection")
        finally:
            pair.claiming -= 1
        if pair.ends["host"] is not None:  # another claim came first
            await ws.close(1013, f"the host of battle {code} is connected already")
            return False
        return True

    async def _pair(self, ws, pair: Pair, code: str, role: str) -> None:
        pair.ends[role] = ws
        pair.used = time.monotonic()
        other = "join" if role == "host" else "host"
        try:
            await ws.send(json.dumps({"type": "relay", "code": code}))
            if pair.ends[other] is not None:
                pair.met = True
                pair.both.set()
            # wait for the other side, or for this socket to close (its place freed at once)
            both = asyncio.ensure_future(pair.both.wait())
            gone = asyncio.ensure_future(ws.wait_closed())
            try:
                await asyncio.wait({both, gone}, timeout=WAIT_S, return_when="FIRST_COMPLETED")
            finally:
                for task in (both, gone):
                    task.cancel()
            if gone.done() and not gone.cancelled():
                return
            if not pair.both.is_set():
                await ws.close(1000, f"nobody joined battle {code} in {WAIT_S:.0f} s")
                return
            await ws.send(json.dumps({"type": "relay", "paired": True}))
            async for raw in ws:  # passed on as it came, never read
                peer = pair.ends[other]
                if peer is not None:
                    with contextlib.suppress(ConnectionClosed):
                        await peer.send(raw)
        except ConnectionClosed:
            pass
        finally:
            if pair.ends[role] is ws:
                pair.ends[role] = None
                pair.both.clear()
                pair.used = time.monotonic()
                peer = pair.ends[other]
                if peer is not None:  # the other side reconnects and is paired again
                    with contextlib.suppress(ConnectionClosed):
                        await peer.close(1001, "the other player's connection was cut")
            if not any(pair.ends.values()) and not pair.met and not pair.claiming:
                self._forget(code)  # never met: its place is free at once


async def run_relay(port: int, bind: str = "0.0.0.0", ready=None, relay: Relay | None = None):
    """Serve the relay on ``port`` until cancelled; ``ready(port)`` is called once it
    listens (port 0: any free port). ``relay``: the tables to use (tests look into them)."""
    relay = relay or Relay()
    async with serve(
        relay.handle,
        bind,
        port,
        max_size=MAX_MESSAGE_BYTES,
        process_request=relay.process_request,
        open_timeout=5,
        close_timeout=2,
        ping_interval=PING_S,
        ping_timeout=PING_S,
    ) as server:
        if ready is not None:
            ready(server.sockets[0].getsockname()[1])
        await asyncio.Future()
