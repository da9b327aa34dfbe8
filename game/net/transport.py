"""Carrying the protocol's messages over websockets, beside the frame loop.

A :class:`Link` runs its own asyncio loop in a daemon thread: the window's frame loop (or the
headless driver) calls :meth:`Link.send` and polls :meth:`Link.get`, and never waits on the
network. What happens arrives in the inbox as ``(what, value)``:

- ``("code", CODE)``: through a relay, the battle code to give the other player;
- ``("connected", who)``: a peer is on the line (each reconnection too);
- ``("message", dict)``: a peer's message, decoded and checked (:func:`fairplay.decode`);
- ``("dropped", reason)``: the connection is gone (the host listens on; the joiner and a
  host behind a relay try again every few seconds until :meth:`Link.close`);
- ``("refused", reason)``: nobody could be reached, or the relay has no such battle code.

The `websockets` library does the framing, the keepalive pings (a silent peer is dropped
after 20 s without a pong) and the size limit: a message over
:data:`fairplay.MAX_MESSAGE_BYTES` closes the connection (1009) before it is read whole.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
import time

from websockets.asyncio.client import connect
from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed, InvalidStatus, InvalidURI

from game.net.fairplay import MAX_MESSAGE_BYTES, ProtocolError, decode, encode

RETRY_S = 2.0
"""Seconds between a joiner's attempts to reconnect. A house value."""
GRACE_S = 2.0
"""Seconds a new connection to a host holds its one place before it has proved itself: a
connection that comes later takes the place of one that has not (a stranger holding the
place cannot keep the real player out); one that has proved itself is never displaced. A
house value."""


def close_reason(err: ConnectionClosed) -> str:
    """A closed connection's reason in words: the peer's (or our) close frame's reason, a
    message over the size limit, or a connection cut without a word."""
    for frame in (err.rcvd, err.sent):
        if frame is not None and frame.code == 1009:
            return f"a message over {MAX_MESSAGE_BYTES:,} bytes: the connection was closed"
        if frame is not None and frame.reason:
            return frame.reason
    return "the connection was cut"


class Link:
    """One end of a network battle's connection (see the module's docstring). Build it with
    :func:`host` or :func:`join`."""

    def __init__(self):
        self.inbox: queue.Queue = queue.Queue()
        self.port: int | None = None  # the port a host listens on (0 asked: the one given)
        self.uri: str | None = None  # where a joiner connects (the waiting screen says it)
        self._loop = asyncio.new_event_loop()
        self._ws = None
        self._greeted = None  # the connection our hello went out on
        self._since = 0.0  # when the present connection opened (loop time, seconds)
        self.proven = False  # set by the session: the present connection's peer proved itself
        self.code: str | None = None  # through a relay: the battle code
        self._got = None  # the connection of the last item read from the inbox
        self._current = None  # the connection last announced to the reader as connected
        self._closed = False
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="hulldown-net", daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_forever()

    def _start(self, coro) -> None:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(coro, self._loop)

    # ------------------------------------------------------------ the frame loop's side

    def send(self, msg: dict) -> None:
        """Send a message (never blocks; lost if the line is down: the protocol resends on
        reconnection). On a new connection nothing goes out before our hello: a message meant
        for the connection before is dropped, never sent ahead of it."""
        text = encode(msg)
        if not self._closed:
            hello = msg.get("type") == "hello"
            asyncio.run_coroutine_threadsafe(self._send(text, hello), self._loop)

    def send_raw(self, data: str | bytes) -> None:
        """Send bytes as they are (tests of a misbehaving peer)."""
        asyncio.run_coroutine_threadsafe(self._send(data, True), self._loop)

    def get(self, timeout: float | None = 0.0):
        """The next ``(what, value)`` from the inbox, waiting up to ``timeout`` seconds (0:
        not at all), or None. What a connection brought that is no longer the present one
        (a stranger's, displaced) is passed over: the protocol starts again on each."""
        end = time.monotonic() + (timeout or 0.0)
        while True:
            left = end - time.monotonic()
            try:
                item = self.inbox.get(timeout=left) if left > 0 else self.inbox.get_nowait()
            except queue.Empty:
                return None
            if len(item) == 3:
                what, value, ws = item
                if what == "connected":
                    self._current = ws
                if ws is not self._current:
                    continue
                self._got = ws
                return what, value
            return item

    def put(self, what: str, value, ws=None) -> None:
        """Put ``(what, value)`` in the inbox, from connection ``ws`` (None: the link's own
        word, always read)."""
        self.inbox.put((what, value) if ws is None else (what, value, ws))

    def hang_up(self, reason: str = "") -> None:
        """Close the connection the last message read came on with ``reason`` (a fault, a
        malformed message), if it is still the present one; a host listens on and a joiner
        tries again."""
        if not self._closed:
            asyncio.run_coroutine_threadsafe(self._hang_up(reason, self._got), self._loop)

    def close(self, reason: str = "") -> None:
        """Close the connection (with ``reason``) and stop for good."""
        if self._closed:
            return
        self._closed = True
        if not self._thread.is_alive():
            return
        fut = asyncio.run_coroutine_threadsafe(self._shutdown(reason), self._loop)
        with contextlib.suppress(Exception):
            fut.result(timeout=5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)
        if not self._thread.is_alive():  # whatever the shutdown left: ended, never destroyed
            left = [t for t in asyncio.all_tasks(self._loop) if not t.done()]
            for t in left:
                t.cancel()
            with contextlib.suppress(Exception):
                self._loop.run_until_complete(
                    asyncio.wait_for(asyncio.gather(*left, return_exceptions=True), 2)
                )
            with contextlib.suppress(Exception):
                self._loop.close()

    # ------------------------------------------------------------ the loop's side

    async def _send(self, text, hello: bool = False) -> None:
        ws = self._ws
        if ws is None:
            return
        if hello:
            self._greeted = ws
        elif self._greeted is not ws:
            return  # before our hello on this connection: meant for the one before
        with contextlib.suppress(ConnectionClosed):
            await ws.send(text)

    async def _hang_up(self, reason: str, ws) -> None:
        if ws is not None and ws is self._ws:
            await ws.close(1008, reason[:120])

    async def _shutdown(self, reason: str) -> None:
        if self._ws is not None:  # a peer that never answers the close is not waited on long
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._ws.close(1000, reason[:120]), 2)
        server = getattr(self, "_server", None)
        if server is not None:
            server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), 2)
        me = asyncio.current_task()
        rest = [t for t in asyncio.all_tasks() if t is not me]
        for t in rest:  # a joiner's retries, a connection's reader: ended, not left pending
            t.cancel()
        await asyncio.gather(*rest, return_exceptions=True)

    async def _read(self, ws) -> None:
        """Read a connection's messages into the inbox until it closes."""
        try:
            async for raw in ws:
                try:
                    msg = decode(raw)
                except ProtocolError as err:
                    self.put("dropped", f"the other side sent {err}", ws)
                    await ws.close(1008, str(err)[:120])
                    return
                if msg["type"] == "relay":
                    continue  # the relay's own word, past the pairing
                self.put("message", msg, ws)
            self.put("dropped", close_reason_of(ws), ws)
        except ConnectionClosed as err:
            self.put("dropped", close_reason(err), ws)


def close_reason_of(ws) -> str:
    """The reason a connection closed normally (its close code and reason), in words."""
    if ws.close_code == 1009:
        return f"a message over {MAX_MESSAGE_BYTES:,} bytes: the connection was closed"
    return ws.close_reason or "the other side closed the connection"


def host(port: int, bind: str = "0.0.0.0") -> Link:
    """Listen on ``port`` (0: any free port, then :attr:`Link.port`) for the other player;
    one connection at a time (a second is refused while one is up), and again after a drop
    (the other side resumes). Raises OSError when the port cannot be opened."""
    link = Link()

    async def handler(ws) -> None:
        held = link._ws
        if held is not None:
            loop = asyncio.get_running_loop()
            if link.proven or loop.time() - link._since < GRACE_S:
                await ws.close(1013, "a battle is already under way here")
                return
            # a connection that has not proved itself in GRACE_S gives way to the next
            await held.close(1008, "another connection came while this one had not proved itself")
        link._ws = ws
        link.proven = False
        link._since = asyncio.get_running_loop().time()
        link.put("connected", f"{ws.remote_address[0]}", ws)
        try:
            await link._read(ws)
        finally:
            if link._ws is ws:
                link._ws = None

    async def start() -> None:
        try:
            link._server = await serve(handler, bind, port, max_size=MAX_MESSAGE_BYTES)
            link.port = link._server.sockets[0].getsockname()[1]
        except OSError as err:
            link._error = err
        link._ready.set()

    link._error = None
    link._start(start())
    link._ready.wait(10)
    if link._error is not None:
        link.close()
        raise link._error
    return link


def join(
    uri: str,
    first_word: bool = False,
    *,
    key: str | None = None,
    code: str | None = None,
    persist: bool = False,
) -> Link:
    """Connect to ``uri`` (``ws://host:port`` or a relay's ``ws://relay/join/CODE`` or
    ``ws://relay/host``) and keep trying after a drop until closed. ``first_word``: the
    relay's pairing messages come first (a host behind a relay: its code, then the pairing).
    A host behind a relay gives its ``key`` (32 to 64 hex digits, its claim on its code) and
    comes back to its ``code`` (the one asked for, or the one the relay gave) after every
    drop. ``persist``: keep trying even when the relay knows no such battle (a resumed
    joiner waiting for its host to come back to a relay that was started again)."""
    link = Link()
    link.uri = uri
    link.code = code

    def where() -> str:
        if key is None:
            return uri
        return f"{uri}/{link.code}?key={key}" if link.code else f"{uri}?key={key}"

    async def run() -> None:
        delay = 0.2
        while not link._closed:
            uri_now = where()
            try:
                async with connect(uri_now, max_size=MAX_MESSAGE_BYTES, open_timeout=10) as ws:
                    delay = 0.2
                    if first_word and not await _paired(link, ws):
                        return
                    link._ws = ws
                    link.put("connected", uri, ws)
                    await link._read(ws)
                    link._ws = None
            except (OSError, TimeoutError, InvalidStatus, InvalidURI) as err:
                link.put("refused", f"{uri_now.split('?')[0]}: {err}")
                if isinstance(err, InvalidURI):
                    return
            except ConnectionClosed as err:
                link._ws = None
                reason = close_reason(err)
                gone = "no battle" in reason and not persist
                link.put("refused" if gone else "dropped", reason)
                if gone:
                    return
            if link._closed:
                return
            await asyncio.sleep(min(RETRY_S, delay))
            delay *= 2

    link._start(run())
    return link


async def _paired(link: Link, ws) -> bool:
    """Read the relay's words until it pairs us: its code (to the inbox) and the pairing.
    False when it refuses (the inbox says why)."""
    async for raw in ws:
        try:
            msg = decode(raw)
        except ProtocolError:
            msg = {}
        if msg.get("type") != "relay":
            link.put("refused", "the relay answered in a way it should not")
            return False
        code = msg.get("code")
        if isinstance(code, str) and code.isalnum() and len(code) <= 40:
            link.code = code
            link.put("code", code)
        if msg.get("paired"):
            return True
    return False
