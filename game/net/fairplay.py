"""The network protocol of one machine's side of a battle, with no socket in it.

Messages are JSON objects with a ``type``; every one a peer sends is checked like a file's
field before anything is done with it, and what does not fit closes the connection with a
one-line reason (:class:`ProtocolError`). The protocol, ``hulldown-net/1``:

- ``hello`` (each side once, the host first): the protocol, each side's hash-chain end; the
  host's also names the scenario (the whole file), the seed, the sides and the chains'
  length. Resuming, each also says how many actions it has and the chains it plays with.
- ``act``: the side to act sends action ``index`` (a hidden plot as its commitment) and its
  chain element for it.
- ``answer``: the other side applied it (both elements seed its dice) and sends its own
  element and its state hash; the actor applies it in turn and compares the hashes: a
  difference stops the battle (``fault``). ``refuse``: the rules refuse the action (the
  reason), nothing is applied, and the actor may act again.
- ``catchup``: after a reconnection, the actions the other side missed, with their elements.
- ``bye``: leaving (the battle saved) or a fault, with the reason.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets as _random
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from game import (
    Battle,
    HashChain,
    IllegalAction,
    PlotAirStrike,
    PlotMission,
    action_from_dict,
    fair,
    hidden_due,
    parse_scenario,
    reveal_of,
    write_atomic,
)

PROTOCOL = "hulldown-net/1"
MAX_MESSAGE_BYTES = 8 * 1024 * 1024
"""The largest message taken (a hello holds the whole scenario; an action is a few hundred
bytes): more closes the connection. A house value."""
TYPES = ("hello", "rejoin", "act", "answer", "refuse", "catchup", "bye", "relay")
HELLO_S = 10.0
"""Seconds a new connection has to say hello and, for a resumed battle, prove who it is (and
send the actions it claims to have that this side does not): more, and it is closed. A
house value."""
MAX_NESTING = 64
"""The deepest nesting of arrays and objects a message may have (a scenario file needs under
ten levels): deeper is refused before the JSON is parsed, so no message can exhaust the
parser's recursion. A house value."""

_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_NOT_BRACKET = re.compile(rb"[^\[\]{}]+")


class ProtocolError(Exception):
    """A message that breaks the protocol (malformed, out of turn, a duplicate, a state that
    differs): the connection is closed with this one-line reason."""


class Fault(ProtocolError):
    """The two machines' battles differ (a state hash, an action that applies on one and
    not the other): the battle stops here, both logs kept."""


class PeerLeft(Exception):
    """The other side said ``bye``: the reason it gave."""


def too_deep(raw: str | bytes, limit: int = MAX_NESTING) -> bool:
    """Whether the arrays and objects of JSON text ``raw`` nest deeper than ``limit``
    levels, counted on the bytes without parsing them (strings cut out, then a running count
    of the brackets that open less those that close). The text need not be valid JSON;
    under a tenth of a second for 8 MB of brackets."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else bytes(raw)
    brackets = _NOT_BRACKET.sub(b"", _STRING.sub(b"", data))
    if len(brackets) <= limit:
        return False
    codes = np.frombuffer(brackets, dtype=np.uint8)
    steps = np.where((codes == ord("[")) | (codes == ord("{")), 1, -1)
    return int(np.cumsum(steps).max()) > limit


def as_text(value, limit: int = 300) -> str:
    """A peer-supplied value shown to a player: its text when it is a string (control
    characters made spaces, cut to ``limit`` characters), else a word for what it is; never
    Python's repr of it."""
    if isinstance(value, bool) or value is None:
        return "(no text)" if value is None else "(not text)"
    if isinstance(value, int):
        return str(value)
    if not isinstance(value, str):
        return "(not text)"
    return "".join(c if c.isprintable() else " " for c in value[:limit])


def decode(raw: str | bytes) -> dict:
    """One message as received: a JSON object with a known ``type``. Raises ProtocolError,
    one line, for anything else (over :data:`MAX_MESSAGE_BYTES`, nested deeper than
    :data:`MAX_NESTING` levels (counted before parsing), not UTF-8 JSON, not an object, an
    unknown type)."""
    if len(raw) > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"a message of {len(raw):,} bytes, over {MAX_MESSAGE_BYTES:,}")
    if too_deep(raw):
        raise ProtocolError(f"a message nested deeper than {MAX_NESTING} levels")
    try:
        msg = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError) as err:
        raise ProtocolError(f"a message that is not JSON ({str(err)[:120]})") from None
    if not isinstance(msg, dict):
        raise ProtocolError("a message that is not a JSON object")
    if msg.get("type") not in TYPES:
        raise ProtocolError(f"a message of unknown type: {as_text(msg.get('type'), 40)}")
    return msg


def encode(msg: dict) -> str:
    """A message as sent: compact JSON."""
    return json.dumps(msg, separators=(",", ":"))


def _field(msg: dict, name: str, kind, what: str):
    value = msg.get(name)
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ProtocolError(f"{msg.get('type')} message: {name} must be {what}")
    if kind is not int and not isinstance(value, kind):
        raise ProtocolError(f"{msg.get('type')} message: {name} must be {what}")
    if (
        kind is str
        and name in ("element", "chain_end", "rejoin_key")
        and not fair.is_hex_digest(value)
    ):
        raise ProtocolError(f"{msg.get('type')} message: {name} must be 64 hex digits")
    return value


@dataclass
class Secrets:
    """What only this machine knows of a network battle, kept beside its log (``LOG.secret``,
    written atomically at each change) so a side killed mid-battle can resume: its ``side``,
    its chain's ``secret`` and ``length``, each hidden plot it sent, by commitment (the
    plot's action as a dict and its salt), and its last ``act`` message (``pending``), sent
    again unchanged if it never arrived: a side that dropped the line or crashed cannot
    choose again once its chain element for that action is out."""

    side: str
    secret: str
    length: int
    plots: dict[str, dict] = field(default_factory=dict)
    pending: dict | None = None
    path: Path | None = None
    rejoin: str | None = None
    """The battle's rejoin key (64 hex digits), made of both sides' halves sent in the first
    hellos: a side that comes back proves it holds it (:meth:`FairPlay.proof`)."""
    reached: dict | None = None
    """How this machine reached the battle, for ``--resume LOG`` alone: ``{"port": P}`` (a
    host listening), ``{"address": "HOST:PORT"}`` (a joiner), or ``{"relay": "HOST:PORT",
    "code": CODE, "key": KEY}`` (through a relay; ``key`` is the host's claim on its code)."""

    def save(self) -> None:
        """Write the file, if there is one (atomically, mode 0600: the owner's alone).
        Raises OSError."""
        if self.path is not None:
            doc = {"side": self.side, "secret": self.secret, "length": self.length}
            doc.update(plots=self.plots, pending=self.pending)
            doc.update(rejoin=self.rejoin, reached=self.reached)
            write_atomic(self.path, json.dumps(doc, indent=1), mode=0o600)

    @classmethod
    def load(cls, path: str | os.PathLike) -> Secrets:
        """Read a ``.secret`` file. Raises ValueError naming the file and the problem (one
        that others than its owner may read is refused: its chain secret would let them
        foresee every die of ours)."""
        try:
            mode = os.stat(path).st_mode
        except OSError as err:
            raise ValueError(f"{path}: not this battle's secret file ({err})") from None
        if os.name == "posix" and mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise ValueError(
                f"{path}: others may read it (mode {stat.S_IMODE(mode):04o}): "
                f"make it the owner's alone (chmod 600 {path}) and check who saw it"
            )
        try:
            doc = json.loads(Path(path).read_text(encoding="utf-8"))
            sec = cls(doc["side"], doc["secret"], int(doc["length"]), dict(doc["plots"]))
            sec.pending = doc.get("pending") if isinstance(doc.get("pending"), dict) else None
            sec.rejoin = doc.get("rejoin")
            sec.reached = doc.get("reached")
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise ValueError(f"{path}: not this battle's secret file ({err})") from None
        if not fair.is_hex_digest(sec.secret):
            raise ValueError(f"{path}: secret: must be 64 hex digits")
        if sec.rejoin is not None and not fair.is_hex_digest(sec.rejoin):
            raise ValueError(f"{path}: rejoin: must be 64 hex digits")
        reached = sec.reached
        if reached is not None and not (
            isinstance(reached, dict) and all(isinstance(v, str | int) for v in reached.values())
        ):
            raise ValueError(f"{path}: reached: must be how the battle was reached")
        for commitment, kept in sec.plots.items():
            if not (
                isinstance(kept, dict)
                and isinstance(kept.get("plot"), dict)
                and isinstance(kept.get("salt"), str)
            ):
                raise ValueError(f"{path}: plots.{commitment[:16]}: must be a plot and its salt")
        pending = sec.pending
        if pending is not None and not (
            isinstance(pending.get("index"), int)
            and isinstance(pending.get("action"), dict)
            and fair.is_hex_digest(pending.get("element"))
        ):
            raise ValueError(f"{path}: pending: must be an act (index, action, element)")
        sec.path = Path(path)
        return sec


class FairPlay:
    """One machine's side of a network battle: ``battle`` (a network battle, or None until
    the hellos are exchanged), this machine's ``side`` and its ``secrets``. :meth:`propose`
    makes the message for a local action; :meth:`receive` takes a peer's message and returns
    the messages to send back. Never blocks; the transport carries the messages."""

    def __init__(self, secrets: Secrets, battle: Battle | None = None):
        self.secrets = secrets
        self.me = secrets.side
        self.chain = HashChain(secrets.secret, secrets.length)
        self.battle = battle
        self.sent: dict | None = None  # our act waiting for its answer
        self.turn_began = time.monotonic()  # when the side to act began thinking
        pending = secrets.pending
        if battle is not None and pending is not None and pending.get("index") == self.index:
            self._resent(pending)  # resumed after a crash with an act on the wire
        self.applied: list[tuple] = []  # (action, its events) applied, for the screen to take
        self._half = _random.token_hex(32)  # our half of a new battle's rejoin key
        self._nonce: str | None = None  # our challenge on this connection
        self._host_nonce: str | None = None  # the host's, as a resumed joiner saw it
        self.owed: int | None = None
        """The count of actions the other side claimed to have beyond ours: its catchup must
        come next, or the connection is closed."""

    # ------------------------------------------------------------ hellos

    def hello(self, scenario=None, seed: int = 0, sides: dict | None = None) -> dict:
        """This side's hello on a new connection. A new battle's names this side's chain end
        and its half of the rejoin key; the host's also the ``scenario`` (a Scenario),
        ``seed`` and ``sides`` (``{"host": side, "join": side}``). A resumed battle's host
        says only a fresh challenge (``resume.nonce``): nothing a stranger could answer it
        with (:meth:`rejoin_hello` is the joiner's)."""
        if self.battle is not None:
            self._nonce = _random.token_hex(32)
            return {"type": "hello", "protocol": PROTOCOL, "resume": {"nonce": self._nonce}}
        msg = {
            "type": "hello",
            "protocol": PROTOCOL,
            "chain_end": self.chain.end,
            "rejoin_key": self._half,
        }
        if scenario is None and self.me != "?":
            msg["side"] = self.me  # a joiner that chose its side
        if scenario is not None:
            msg.update(
                role="host",
                scenario_file=scenario.raw,
                scenario_path=Path(scenario.path).name,
                seed=int(seed),
                sides=dict(sides or {}),
                length=self.chain.length,
            )
        return msg

    def start(self, host_hello: dict, join_hello: dict, role: str, log_path=None) -> Battle:
        """Build the network battle from both hellos (a new battle): the host's scenario,
        seed and sides, both chain ends; this machine (``role`` "host" or "join") plays the
        side the host's hello gives it, and the rejoin key is made of both hellos' halves.
        A host that leaves the sides open (``sides`` ``{"host": None, "join": None}``) lets
        the joiner's hello choose (``side``; the scenario's second when it does not say).
        Raises ProtocolError for a hello that does not fit, Fault when the joiner asked for
        a side the host took for itself."""
        for h in (host_hello, join_hello):
            if not isinstance(h.get("protocol"), str) or h.get("protocol") != PROTOCOL:
                raise ProtocolError(
                    f"the other side speaks {as_text(h.get('protocol'), 40)}, not {PROTOCOL}"
                )
            _field(h, "chain_end", str, "64 hex digits")
            _field(h, "rejoin_key", str, "64 hex digits")
        sides = _field(host_hello, "sides", dict, "an object")
        seed = _field(host_hello, "seed", int, "a whole number")
        length = _field(host_hello, "length", int, "a whole number")
        if length != self.chain.length:
            raise ProtocolError(f"hello: chains of {length} elements, not {self.chain.length}")
        try:
            scenario = parse_scenario(
                _field(host_hello, "scenario_file", dict, "a scenario"),
                str(host_hello.get("scenario_path", "network"))[:200],
            )
            battle = Battle(scenario, seed, log_path=log_path)
            ids = [s.id for s in scenario.spec.sides]
            sides = self._sides(sides, join_hello.get("side"), ids, role)
            ends = {sides["host"]: host_hello["chain_end"], sides["join"]: join_hello["chain_end"]}
            battle.start_network(ends, length)
        except (ValueError, KeyError, TypeError) as err:  # ScenarioError, IllegalAction
            raise ProtocolError(f"hello: the battle cannot start ({str(err)[:200]})") from None
        me = sides.get(role)
        if me not in ends or self.chain.end != ends[me] or len(ends) != 2:
            raise ProtocolError("hello: the sides do not match this machine's")
        self.me = self.secrets.side = me
        halves = f"{PROTOCOL}|rejoin-key|{host_hello['rejoin_key']}|{join_hello['rejoin_key']}"
        self.secrets.rejoin = hashlib.sha256(halves.encode()).hexdigest()
        self.secrets.save()
        self.battle = battle
        self.turn_began = time.monotonic()
        return battle

    @staticmethod
    def _sides(sides: dict, wanted, ids: list[str], role: str) -> dict:
        """Who plays which side: the host's ``sides``, or when it left them open, the
        joiner's ``wanted`` side (the scenario's second, of ``ids``, when it names none).
        When the joiner wants the side the host took: Fault on the joiner (it stops, saying
        why), ProtocolError on the host (that connection is closed; it waits on)."""
        if sides.get("host") is None and sides.get("join") is None:
            join = wanted if wanted in ids else ids[1]
            return {"join": join, "host": next(s for s in ids if s != join)}
        if wanted is not None and wanted != sides.get("join"):
            raise (Fault if role == "join" else ProtocolError)(
                f"the host plays {as_text(sides.get('host'), 40)} and gives the joiner "
                f"{as_text(sides.get('join'), 40)}, not {as_text(wanted, 40)}: join without "
                "--side, or ask the host to leave the sides open (--side open)"
            )
        return sides

    def proof(self, who: str, theirs: str, ours: str) -> str:
        """``who`` ("host" or "join") proves it holds the battle's rejoin key: HMAC-SHA256
        of both connection's challenges (``theirs``, then ``ours``), 64 hex digits. Raises
        ProtocolError when this machine has no key (a battle begun by an older hulldown)."""
        if self.secrets.rejoin is None:
            raise ProtocolError("this battle's secret file holds no rejoin key: it cannot resume")
        text = f"{PROTOCOL}|rejoin|{who}|{theirs}|{ours}".encode()
        return hmac.new(bytes.fromhex(self.secrets.rejoin), text, hashlib.sha256).hexdigest()

    def _check_proof(self, who: str, proof, first: str, second: str) -> None:
        """Raises ProtocolError unless ``proof`` is ``who``'s proof of challenges ``first``
        and ``second``."""
        good = self.proof(who, first, second)
        if not (isinstance(proof, str) and hmac.compare_digest(proof.encode(), good.encode())):
            raise ProtocolError(
                "the other side could not prove it plays this battle: it was sent nothing"
            )

    def rejoin_hello(self, host_hello: dict) -> dict:
        """A resumed battle's joiner answers the host's hello: its own challenge, its proof
        that it holds the rejoin key, and how many actions it has. Raises ProtocolError for
        a hello that is not a resumed battle's."""
        res = host_hello.get("resume")
        if not isinstance(res, dict) or not fair.is_hex_digest(res.get("nonce")):
            raise ProtocolError("the other side is not resuming this battle")
        self._nonce, self._host_nonce = _random.token_hex(32), res["nonce"]
        proof = self.proof("join", res["nonce"], self._nonce)
        resume = {"nonce": self._nonce, "proof": proof, "actions": len(self.battle.actions)}
        return {"type": "hello", "protocol": PROTOCOL, "resume": resume}

    def host_rejoined(self, join_hello: dict) -> list[dict]:
        """A resumed battle's host takes the joiner's hello: its proof checked first (nothing
        of the battle is sent before), then the host's own proof and count (``rejoin``), the
        actions the joiner missed and our act it never had. Raises ProtocolError when the
        joiner cannot prove it plays this battle, or claims more than the chains allow."""
        res = join_hello.get("resume")
        if not isinstance(res, dict) or not fair.is_hex_digest(res.get("nonce")):
            raise ProtocolError(
                "the other side could not prove it plays this battle: it was sent nothing"
            )
        if self._nonce is None:
            raise ProtocolError("a joiner's resume hello before this side's hello")
        self._check_proof("join", res.get("proof"), self._nonce, res["nonce"])
        theirs = _field(res, "actions", int, "a whole number")
        proof = self.proof("host", res["nonce"], self._nonce)
        rejoin = {"type": "rejoin", "proof": proof, "actions": len(self.battle.actions)}
        return [rejoin, *self.resume_check(theirs)]

    def joiner_rejoined(self, msg: dict) -> list[dict]:
        """A resumed battle's joiner takes the host's ``rejoin``: its proof checked, then the
        actions the host missed and our act it never had. Raises ProtocolError when the
        host cannot prove it plays this battle."""
        if self._nonce is None or self._host_nonce is None:
            raise ProtocolError("a rejoin before the hellos")
        self._check_proof("host", msg.get("proof"), self._nonce, self._host_nonce)
        return self.resume_check(_field(msg, "actions", int, "a whole number"))

    def resume_check(self, theirs: int) -> list[dict]:
        """After both sides proved who they are: ``theirs`` is how many actions the other side
        has. Returns what to send: the actions it missed (``catchup``) and our act it never
        had. When it claims more than we have, its catchup must come next
        (:attr:`owed`). Raises ProtocolError for a count that cannot be."""
        mine = len(self.battle.actions)
        if theirs < 0 or theirs > mine + 1000 or theirs > self.chain.length:
            raise ProtocolError(f"the other side claims {theirs} actions: that cannot be")
        self.owed = theirs if theirs > mine else None
        replies = []
        if theirs < mine:
            lines = [e for e in self.battle.log.events if e["event"] == "action"][theirs:]
            replies.append({"type": "catchup", "actions": lines})
        pending = self.secrets.pending
        if theirs <= mine and pending is not None and pending.get("index") == mine:
            # our act never reached them (sent while the line was down, perhaps after the
            # actions they missed): the same again, after the catchup, not a new choice
            self._resent(pending)
            replies.append(pending)
        return replies

    def _resent(self, msg: dict) -> None:
        """Our act as sent before a drop or a crash, waiting again for its answer."""
        action = action_from_dict(msg["action"])
        self.sent = {"index": msg["index"], "action": action, "element": msg["element"]}

    # ------------------------------------------------------------ play

    @property
    def index(self) -> int:
        """The index of the next action (from 0)."""
        return len(self.battle.actions)

    def my_turn(self) -> bool:
        """Whether this side may act now (its decision, and no act of ours unanswered)."""
        b = self.battle
        return b is not None and not b.finished and b.to_act == self.me and self.sent is None

    def thinking_s(self) -> float:
        """Seconds the side to act has been thinking."""
        return time.monotonic() - self.turn_began

    def auto_action(self):
        """The action this machine takes with no player: the reveal of our hidden plot landing
        now (decision ``reveal``), or None."""
        b = self.battle
        if not self.my_turn() or b.decision().kind != "reveal":
            return None
        m = hidden_due(b.ctx)[0]
        kept = self.secrets.plots.get(b.state.hidden[m.id])
        if kept is None:
            raise ProtocolError(f"mission {m.id}'s plot is not in this machine's secret file")
        return reveal_of(action_from_dict(kept["plot"]), m.id, kept["salt"])

    def propose(self, action) -> dict:
        """The ``act`` message of a local action, sent but not applied until answered. A plot
        goes as its commitment (kept in the secrets first). Raises IllegalAction when it is
        not ours to act or the rules would refuse it (:meth:`Battle.refusal`): the other side
        may then never refuse it without a fault."""
        if not self.my_turn():
            raise IllegalAction("it is not this side's turn to act")
        if isinstance(action, PlotMission | PlotAirStrike):
            salt = fair.new_salt()
            hidden = self.battle.hide_plot(action, salt)
            self.secrets.plots[hidden.commitment] = {"plot": action.to_dict(), "salt": salt}
            action = hidden
        why = self.battle.refusal(action)
        if why:
            raise IllegalAction(why)
        i = self.index
        element = self.chain.element(i)
        msg = {"type": "act", "index": i, "action": action.to_dict(), "element": element}
        self.secrets.pending = msg  # sent again, the same, after a drop or a crash
        self.secrets.save()
        self.sent = {"index": i, "action": action, "element": element}
        return msg

    def receive(self, msg: dict) -> list[dict]:
        """Take one of the peer's messages (decoded); returns the messages to send back.
        Raises ProtocolError (close the connection with its reason) or PeerLeft."""
        if self.battle is None:
            raise ProtocolError(f"a {msg['type']} message before the hellos")
        kind = msg["type"]
        if self.owed is not None:
            owed, self.owed = self.owed, None
            if kind != "catchup":
                raise ProtocolError(
                    f"the other side claimed {owed} actions, this side has {self.index}, "
                    f"and it sent a {kind} message, not the ones missing"
                )
            self._catchup(msg)
            if self.index != owed:
                raise ProtocolError(
                    f"the other side claimed {owed} actions and sent them up to {self.index}"
                )
            return []
        if kind == "act":
            return self._their_act(msg)
        if kind == "answer":
            self._answer(msg)
        elif kind == "refuse":  # our engine found it legal: the two battles differ
            self._check_sent(msg)
            reason = as_text(msg.get("reason", ""))
            raise Fault(
                f"the other side refused action {self.sent['index']}, which the rules allow "
                f"here ({reason})"
            )
        elif kind == "catchup":
            self._catchup(msg)
        elif kind == "bye":
            raise PeerLeft(as_text(msg.get("reason", "")) or "the other side left")
        else:
            raise ProtocolError(f"a {kind} message in the middle of the battle")
        return []

    def _their_act(self, msg: dict) -> list[dict]:
        b, i = self.battle, _field(msg, "index", int, "a whole number")
        if i < self.index:
            raise ProtocolError(f"action {i} again: it was applied already")
        if i > self.index:
            raise ProtocolError(f"action {i} before action {self.index}")
        if b.finished or b.to_act != b.other(self.me) or self.sent is not None:
            raise ProtocolError(f"action {i} out of turn: it is not the other side's to take")
        element = _field(msg, "element", str, "64 hex digits")
        try:
            action = action_from_dict(msg.get("action"))
        except ValueError as err:
            raise ProtocolError(f"action {i}: {str(err)[:200]}") from None
        if action.side != b.other(self.me):
            raise ProtocolError(
                f"action {i} is taken for {as_text(action.side, 40)}, not the other side"
            )
        mine = self.chain.element(i)
        try:
            events = b.apply(action, {action.side: element, self.me: mine})
        except IllegalAction as err:
            return [{"type": "refuse", "index": i, "reason": str(err)}]
        self._applied(action, events)
        return [{"type": "answer", "index": i, "element": mine, "state_hash": b.state_hash()}]

    def _check_sent(self, msg: dict) -> None:
        i = _field(msg, "index", int, "a whole number")
        if self.sent is None or i != self.sent["index"]:
            raise ProtocolError(f"an answer to action {i}, which this side did not send")

    def _answer(self, msg: dict) -> None:
        self._check_sent(msg)
        b, sent = self.battle, self.sent
        element = _field(msg, "element", str, "64 hex digits")
        theirs = _field(msg, "state_hash", str, "text")
        try:
            events = b.apply(sent["action"], {self.me: sent["element"], b.other(self.me): element})
        except IllegalAction as err:
            raise ProtocolError(
                f"fault: action {sent['index']} does not apply here ({err})"
            ) from None
        self.sent = None
        self._applied(sent["action"], events)
        if b.state_hash() != theirs:
            raise Fault(
                f"the two machines' battles differ after action {sent['index']} "
                f"(state {b.state_hash()} here, {theirs[:16]} there); both logs are kept"
            )

    def _catchup(self, msg: dict) -> None:
        lines = msg.get("actions")
        if not isinstance(lines, list) or len(lines) > 1000:
            raise ProtocolError("catchup message: actions must be a list of at most 1000")
        for ln in lines:
            if not isinstance(ln, dict) or ln.get("index") != self.index:
                raise ProtocolError(f"catchup message: action {self.index} expected")
            try:
                action = action_from_dict(ln.get("action"))
                if action.side == self.me and ln.get("action") != self._pending_action():
                    # our own element is out with the act we sent: only that act may use it
                    raise ValueError("it is not the action this side sent")
                events = self.battle.apply(action, ln.get("elements"))
            except ValueError as err:  # IllegalAction too
                raise ProtocolError(
                    f"catchup of action {as_text(ln.get('index'), 20)}: {str(err)[:200]}"
                ) from None
            self.sent = None
            self._applied(action, events)

    def _pending_action(self) -> dict | None:
        """The action of our last act sent and not known applied (as its dict), or None."""
        pending = self.secrets.pending
        if pending is None or pending.get("index") != self.index:
            return None
        return pending.get("action")

    def _applied(self, action, events: list[dict]) -> None:
        self.applied.append((action, events))
        self.turn_began = time.monotonic()
