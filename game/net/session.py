"""A network battle as one machine plays it: the protocol (:mod:`game.net.fairplay`) over a
connection (:mod:`game.net.transport`), polled by the frame loop or the headless driver and
never waiting on the network itself."""

from __future__ import annotations

import os
import time
from pathlib import Path

from game import Battle, IllegalAction
from game.net import transport
from game.net.fairplay import (
    HELLO_S,
    FairPlay,
    Fault,
    PeerLeft,
    ProtocolError,
    Secrets,
    fair,
)


def secret_path(log_path: str | os.PathLike) -> Path:
    """Where a network battle's secrets are kept: beside its log, ``LOG.secret``."""
    return Path(f"{log_path}.secret")


class NetSession:
    """One side of a network battle over a :class:`~game.net.transport.Link`.

    ``role`` "host" or "join"; a host names the ``scenario``, ``seed`` and ``sides``
    (``{"host": side, "join": side}``). ``log_path``: the battle log, which is also what a
    resumed battle is rebuilt from; its secrets go to ``LOG.secret``. ``battle``: a battle
    rebuilt from its log to resume (with ``secrets`` read from its file). ``reached``: how
    the battle is reached (kept in the secret file for ``--resume LOG``; see
    :attr:`Secrets.reached`). Raises OSError when the secret file cannot be written.

    :attr:`status` says in words what the connection is doing; :attr:`fault` is set when the
    battle had to stop (the two machines' battles differ); :attr:`left` when the other side
    left. A message that breaks the protocol (malformed, out of turn, a duplicate) closes the
    connection with its reason and keeps the battle, which the other side may resume.
    """

    def __init__(
        self,
        link: transport.Link,
        role: str,
        side: str,
        *,
        scenario=None,
        seed: int = 0,
        sides: dict | None = None,
        log_path: str | os.PathLike | None = None,
        battle: Battle | None = None,
        secrets: Secrets | None = None,
        reached: dict | None = None,
    ):
        self.link = link
        self.role = role
        self.scenario, self.seed, self.sides = scenario, seed, sides
        self.log_path = log_path
        if secrets is None:
            chain = fair.HashChain()
            secrets = Secrets(side, chain.secret, chain.length)
            secrets.path = secret_path(log_path) if log_path is not None else None
        if reached is not None:
            secrets.reached = dict(reached)
        secrets.save()
        self.fair = FairPlay(secrets, battle)
        self.code: str | None = None
        self.connected = False
        self.status = "waiting for the other player"
        self.fault: str | None = None
        self.left: str | None = None
        self._their_hello: dict | None = None
        self._hello_sent = False
        self.proven = False  # the other side proved it plays this battle (or began it now)
        self._met_at = 0.0  # when this connection opened (time.monotonic(), seconds)

    @property
    def battle(self) -> Battle | None:
        """The battle (None until both hellos are in, for a new one)."""
        return self.fair.battle

    @property
    def side(self) -> str:
        """This machine's side."""
        return self.fair.me

    @property
    def ready(self) -> bool:
        """Whether actions may go over: connected, and both hellos exchanged."""
        return (
            self.connected
            and self._their_hello is not None
            and self._hello_sent
            and self.proven
            and self.fair.owed is None
        )

    @property
    def stopped(self) -> bool:
        """Whether the battle can go no further here: a fault, the other side left, or it
        ended."""
        return bool(self.fault or self.left or (self.battle is not None and self.battle.finished))

    def poll(self, wait_s: float = 0.0) -> bool:
        """Take in what the connection brought (waiting up to ``wait_s`` for the first), apply
        what it says and answer; then, on our turn, take the action no player chooses (a
        hidden plot's reveal). True when anything happened."""
        happened = False
        item = self.link.get(wait_s)
        while item is not None:
            happened = True
            self._take(*item)
            item = self.link.get(0)
        late = time.monotonic() - self._met_at > HELLO_S
        if self.connected and not self.ready and not self.stopped and late:
            self._cut(f"no hello, proof or promised actions within {HELLO_S:.0f} s")
            happened = True
        if self.ready and not self.stopped:
            try:
                auto = self.fair.auto_action()
                if auto is not None:
                    self.act(auto)
                    happened = True
            except ProtocolError as err:  # our own plot's secret is missing: nothing to do
                self._stop(str(err))
        return happened

    def take_applied(self) -> list[tuple]:
        """The actions applied to the battle since last asked, each with its log events
        (``(action, events)``, oldest first): the screen shows them as it shows its own."""
        out, self.fair.applied = self.fair.applied, []
        return out

    def act(self, action) -> None:
        """Send a local action (applied when the other side answers). Raises IllegalAction
        when it is not ours to act now, the line is down, or the plot would be refused."""
        if not self.ready:
            raise IllegalAction("the connection is down: wait for the other side to return")
        self.link.send(self.fair.propose(action))

    def leave(self, reason: str = "the other player left the battle") -> None:
        """Tell the other side we leave (the battle is kept in its log) and close."""
        if self.connected:
            self.link.send({"type": "bye", "reason": reason})
        self.link.close(reason)

    # ------------------------------------------------------------ what comes in

    def _take(self, what: str, value) -> None:
        if what == "code":
            self.code = value
            reached = self.fair.secrets.reached
            if reached is not None and "relay" in reached and reached.get("code") != value:
                reached["code"] = value  # --resume LOG comes back to it
                self.fair.secrets.save()
            self.status = f"waiting for the other player: give them the battle code {value}"
        elif what == "connected":
            self.connected = True
            self.status = "connected: exchanging hellos"
            self._their_hello = None
            self._hello_sent = False
            self.proven = self.link.proven = False
            self.fair.owed = None
            self._met_at = time.monotonic()
            if self.role == "host":
                self._send_hello()
        elif what in ("dropped", "refused"):
            self.connected = False
            if not self.stopped:
                self.status = f"connection lost ({value}): waiting for the other side to return"
        elif what == "message" and not self.stopped:
            try:
                self._message(value)
            except Fault as err:
                self._stop(str(err))
            except ProtocolError as err:  # the line is closed; the battle is kept
                self._cut(str(err))
            except PeerLeft as err:
                self.left = str(err)
                self.status = f"the other side left: {err}"
            except Exception as err:  # noqa: BLE001 - never a crash from what a peer sends
                self._stop(
                    f"this side failed on the other side's message ({type(err).__name__}: {str(err)[:200]})"
                )

    def _cut(self, reason: str) -> None:
        """Close this connection for ``reason`` (the other side's fault); the battle is kept
        and the other side may come back."""
        self.connected = False
        self.status = f"the connection was closed: {reason}"
        self.link.hang_up(reason)

    def _send_hello(self, hello: dict | None = None) -> None:
        hello = hello or self.fair.hello(self.scenario, self.seed, self.sides)
        self._my_hello = hello
        self.link.send(hello)
        self._hello_sent = True

    def _proven(self, replies: list[dict]) -> None:
        """The other side proved it plays this battle: send what it is owed."""
        self.proven = self.link.proven = True
        self.status = "connected"
        for reply in replies:
            self.link.send(reply)

    def _message(self, msg: dict) -> None:
        kind = msg["type"]
        if kind == "hello":
            if self._their_hello is not None:
                raise ProtocolError("a second hello on one connection")
            self._their_hello = msg
            if self.battle is None:
                if "resume" in msg:
                    raise ProtocolError("the other side resumes a battle this side does not have")
                if self.role == "join":
                    self._send_hello()
                host, join = (self._my_hello, msg) if self.role == "host" else (msg, self._my_hello)
                self.fair.start(host, join, self.role, self.log_path)
                self._proven([])
            elif self.role == "join":  # the host's challenge: our proof, then the host's
                self._send_hello(self.fair.rejoin_hello(msg))
                self.status = "connected: waiting for the host to prove it is this battle's"
            else:
                self._proven(self.fair.host_rejoined(msg))
            return
        if self._their_hello is None:
            raise ProtocolError(f"a {kind} message before the hello")
        if not self.proven:
            if kind == "rejoin" and self.role == "join":
                self._proven(self.fair.joiner_rejoined(msg))
                return
            raise ProtocolError(f"a {kind} message before the other side proved who it is")
        for reply in self.fair.receive(msg):
            self.link.send(reply)

    def _stop(self, reason: str) -> None:
        """A fault: say it, tell the other side and close the connection."""
        self.fault = reason
        self.status = f"stopped: {reason}"
        if self.connected:
            self.link.send({"type": "bye", "reason": reason})
        self.link.hang_up(reason)
