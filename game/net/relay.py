"""``hulldown relay``: pairs a host and a joiner by a battle code and passes their messages on
without reading them, for players behind routers (#45).

A host connects to ``ws://RELAY:PORT/host`` and is told a fresh code (``{"type": "relay",
"code": ...}``); the joiner connects to ``ws://RELAY:PORT/join/CODE``; once both are there the
relay says ``{"type": "relay", "paired": true}`` to each and from then on forwards every
message as it came. After a drop either side comes back (the host to ``/host/CODE``) and
they are paired again. The relay holds no secret and can change nothing unseen: the dice come
from both players' hash chains, a plot travels as a commitment, and both engines compare
state hashes after every action, so a message changed on the way stops the battle.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time

from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

from game.net.fairplay import MAX_MESSAGE_BYTES

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud, typed by hand
CODE_LENGTH = 6
MAX_BATTLES = 1000
"""Battle codes the relay keeps at once; a code unused for :data:`IDLE_S` is forgotten."""
IDLE_S = 3600.0
WAIT_S = 600.0
"""How long one side waits at the relay for the other before it is sent away."""


class Pair:
    """A battle code's two places (``host``, ``join``), filled by live connections."""

    def __init__(self):
        self.ends: dict[str, object] = {"host": None, "join": None}
        self.both = asyncio.Event()
        self.used = time.monotonic()


class Relay:
    """The relay's table of battle codes and its connection handler."""

    def __init__(self):
        self.pairs: dict[str, Pair] = {}

    def new_code(self) -> str:
        """A fresh battle code not in use."""
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.pairs:
                return code

    def _forget_idle(self) -> None:
        now = time.monotonic()
        for code, pair in list(self.pairs.items()):
            if not any(pair.ends.values()) and now - pair.used > IDLE_S:
                del self.pairs[code]

    async def handle(self, ws) -> None:
        """One connection: ``/host``, ``/host/CODE`` or ``/join/CODE``."""
        parts = [p for p in ws.request.path.split("/") if p]
        role = parts[0] if parts else ""
        code = parts[1].upper()[:CODE_LENGTH] if len(parts) > 1 else None
        self._forget_idle()
        if role not in ("host", "join") or (role == "join" and code is None):
            await ws.close(1008, "connect to /host, /host/CODE or /join/CODE")
            return
        if code is None:
            if len(self.pairs) >= MAX_BATTLES:
                await ws.close(1013, "the relay is full: try again later")
                return
            code = self.new_code()
        pair = self.pairs.get(code)
        if pair is None and role == "join":
            await ws.close(1008, f"no battle with code {code} at this relay")
            return
        if pair is None:
            pair = self.pairs[code] = Pair()
        if pair.ends[role] is not None:
            await ws.close(1013, f"the {role} of battle {code} is connected already")
            return
        pair.ends[role] = ws
        pair.used = time.monotonic()
        other = "join" if role == "host" else "host"
        try:
            await ws.send(json.dumps({"type": "relay", "code": code}))
            if pair.ends[other] is not None:
                pair.both.set()
            try:
                await asyncio.wait_for(pair.both.wait(), WAIT_S)
            except TimeoutError:
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


async def run_relay(port: int, bind: str = "0.0.0.0", ready=None) -> None:
    """Serve the relay on ``port`` until cancelled; ``ready(port)`` is called once it
    listens (port 0: any free port)."""
    relay = Relay()
    async with serve(relay.handle, bind, port, max_size=MAX_MESSAGE_BYTES) as server:
        if ready is not None:
            ready(server.sockets[0].getsockname()[1])
        await asyncio.Future()
