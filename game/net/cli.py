"""The network commands of ``hulldown``: ``host``, ``join``, ``relay`` and ``verify``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from game.ai.levels import DEFAULT_LEVEL, PLAYABLE
from game.net import PORT


def _address(text: str, default_port: int = PORT) -> tuple[str, int]:
    """``HOST[:PORT]`` as (host, port). Raises argparse.ArgumentTypeError."""
    host, _, port = text.rpartition(":") if ":" in text else (text, "", str(default_port))
    try:
        n = int(port)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: the port must be a number") from None
    if not 0 <= n <= 65535 or not host:
        raise argparse.ArgumentTypeError(f"{text!r}: give HOST[:PORT], the port 0 to 65535")
    return host, n


def _port(text: str) -> int:
    return _address(f"x:{text}")[1]


def _log_path(args, role: str) -> Path:
    """The battle log: ``--log``, or a new file in the saves folder."""
    if args.log:
        return Path(args.log)
    # lazy: --help loads this module for its commands; the engine loads when one runs
    from game.saves import data_dir

    stamp = __import__("time").strftime("%Y%m%d-%H%M%S")
    return data_dir() / "network" / f"{role}-{stamp}.jsonl"


def _resumed(path: str):
    """The battle and secrets of a network battle's log, to resume it. Raises ValueError
    (NetworkLogError) naming the file."""
    # lazy: --help loads this module for its commands; the engine loads when one runs
    from game import Battle
    from game.net.fairplay import Secrets
    from game.net.session import secret_path

    secrets = Secrets.load(secret_path(path))
    torn = _cut_torn_line(path)
    if torn:
        print(
            f"hulldown: {path}: its last line was cut off as the battle stopped ({torn} bytes, "
            f"kept in {path}.torn); the other side sends that action again",
            flush=True,
        )
    battle, _ = Battle.from_network_log(path)  # in memory, then the log rewritten whole
    battle.write_log_to(path)
    return battle, secrets


def _cut_torn_line(path: str) -> int:
    """A log whose process was killed while it wrote a line ends in that line, unfinished
    (no newline): copy the whole file to ``path.torn`` (nothing is lost) and cut the log back
    to its last whole line, which the battle then resumes from (the other side holds the
    action and sends it again, as it sends any this side lacks). Returns the bytes cut, 0 for
    a log that ends in a whole line. Raises OSError when the file cannot be read or written."""
    p = Path(path)
    try:
        data = p.read_bytes() if p.is_file() else b""
    except OSError:
        return 0  # the log's reader says what is wrong with it
    if not data or data.endswith(b"\n"):
        return 0
    keep = data.rfind(b"\n") + 1
    Path(f"{path}.torn").write_bytes(data)
    with p.open("r+b") as fh:
        fh.truncate(keep)
    return len(data) - keep


def _reached(args, secrets, role: str) -> dict:
    """How this battle is reached: the command line's ``--relay``/``--port``/address when
    given, else what the resumed battle's secret file remembers, else the defaults."""
    # lazy: --help loads this module for its commands; the engine loads when one runs
    import secrets as random

    kept = (secrets.reached if secrets is not None else None) or {}
    if role == "host":
        if args.relay:
            same = kept.get("relay") == args.relay
            code = args.code or (kept.get("code") if same else None)
            key = kept.get("key") if same and kept.get("key") else random.token_hex(32)
            return {"relay": args.relay, "code": code, "key": key}
        if args.port is not None or "relay" not in kept:
            return {"port": args.port if args.port is not None else kept.get("port", PORT)}
        return dict(kept)
    if args.relay:
        return {"relay": args.relay[0], "code": args.relay[1].upper()}
    if args.address:
        return {"address": args.address}
    return dict(kept)


def _link(reached: dict, role: str, resumed: bool):
    """The connection a battle reached so starts on. Raises OSError (a port in use),
    ValueError (nothing to connect to)."""
    # lazy: --help loads this module for its commands; the engine loads when one runs
    from game.net import transport

    if "relay" in reached:
        if role == "host":
            code = reached.get("code")
            return transport.join(  # it keeps trying: its code may be held by another a while
                f"ws://{reached['relay']}/host",
                first_word=True,
                key=reached["key"],
                code=code,
                persist=True,
            )
        uri = f"ws://{reached['relay']}/join/{reached['code']}"
        return transport.join(uri, first_word=True, persist=resumed)
    if role == "host":
        return transport.host(int(reached["port"]))
    if "address" not in reached:
        raise ValueError("give HOST[:PORT] or --relay ADDRESS CODE: the log does not say")
    host, port = _address(str(reached["address"]))
    return transport.join(f"ws://{host}:{port}")


def cmd_host(args: argparse.Namespace) -> int:
    """``hulldown host SCENARIO``: wait for the other player (directly on ``--port``, or at
    a ``--relay``), then play the battle, in the window or ``--ai`` headless. ``--resume
    LOG`` takes the battle up again the way it was reached (the port, or the relay and its
    code), unless told otherwise."""
    # lazy: --help loads this module for its commands; the engine loads when one runs
    from game import ScenarioError, load_scenario
    from game.net.session import NetSession

    try:
        battle = secrets = None
        if args.resume:
            battle, secrets = _resumed(args.resume)
            scenario, side = battle.scenario, secrets.side
        elif not args.scenario:
            print("hulldown host: give a SCENARIO, or --resume LOG", file=sys.stderr)
            return 2
        else:
            scenario = load_scenario(args.scenario)
            sides = [s.id for s in scenario.spec.sides]
            side = args.side or sides[0]
            if side not in [*sides, "open"]:
                print(
                    f"hulldown host: --side {side}: the sides are {', '.join(sides)}, or open",
                    file=sys.stderr,
                )
                return 2
        others = [s for s in battle.sides] if battle else [s.id for s in scenario.spec.sides]
        other = next(s for s in others if s != side)
        pairing = {"host": side, "join": other}
        if side == "open":  # the joiner chooses
            side, pairing = "?", {"host": None, "join": None}
        reached = _reached(args, secrets, "host")
        link = _link(reached, "host", bool(args.resume))
        if "port" in reached:
            print(
                f"hosting on port {link.port}: the other player joins with "
                f"'hulldown join THIS-MACHINE:{link.port}'",
                flush=True,
            )
        log = Path(args.resume) if args.resume else _log_path(args, "host")
        session = NetSession(
            link,
            "host",
            side,
            scenario=scenario,
            seed=args.seed,
            sides=pairing,
            log_path=log,
            battle=battle,
            secrets=secrets,
            reached=reached,
        )
    except (ScenarioError, ValueError, OSError) as err:
        print(f"hulldown host: {err}", file=sys.stderr)
        return 1
    return _play(args, session, log)


def cmd_join(args: argparse.Namespace) -> int:
    """``hulldown join HOST[:PORT]`` or ``--relay ADDRESS CODE``: join the host's battle;
    ``--resume LOG`` alone finds it again the way it was reached."""
    # lazy: --help loads this module for its commands; the engine loads when one runs
    from game.net.session import NetSession

    if args.address and args.relay or not (args.address or args.relay or args.resume):
        print("hulldown join: give HOST[:PORT], or --relay ADDRESS CODE", file=sys.stderr)
        return 2
    try:
        battle = secrets = None
        if args.resume:
            battle, secrets = _resumed(args.resume)
        reached = _reached(args, secrets, "join")
        link = _link(reached, "join", bool(args.resume))
        log = Path(args.resume) if args.resume else _log_path(args, "join")
        side = secrets.side if secrets else (args.side or "?")
        session = NetSession(
            link,
            "join",
            side,
            log_path=log,
            battle=battle,
            secrets=secrets,
            reached=reached,
        )
    except (ValueError, OSError, argparse.ArgumentTypeError) as err:
        print(f"hulldown join: {err}", file=sys.stderr)
        return 1
    return _play(args, session, log)


def _play(args, session, log: Path) -> int:
    """Play the session headless with the AI (``--ai``) or in the window."""
    if args.ai:
        # lazy: --help loads this module for its commands; the engine loads when one runs
        from game.ai.scripted import ScriptedAI
        from game.net import headless

        player = ScriptedAI(seed=args.seed, level=args.level)
        try:
            code = headless.play(session, player, args.timeout, say=lambda t: print(t, flush=True))
        except KeyboardInterrupt:
            print("stopped (Ctrl+C): the battle is kept in its log", flush=True)
            code = headless.EXIT_LEFT
        finally:
            session.link.close()
        print(f"the battle log: {log}", flush=True)
        return code
    # lazy: --help loads this module for its commands; the engine loads when one runs
    from game.ui.app import start
    from game.ui.network import NetworkWaitScreen

    return start(lambda app: NetworkWaitScreen(app, session, log), frames=args.frames)


def cmd_relay(args: argparse.Namespace) -> int:
    """``hulldown relay``: pair hosts and joiners by battle code until stopped (Ctrl+C)."""
    # lazy: --help loads this module for its commands; the engine loads when one runs
    import asyncio  # here, not at the top: the command line's parser starts without it

    # lazy: --help loads this module for its commands; the engine loads when one runs
    from game.net.relay import run_relay

    def ready(port: int) -> None:
        print(f"relay listening on port {port}", flush=True)

    try:
        asyncio.run(run_relay(args.port, ready=ready))
    except KeyboardInterrupt:
        return 0
    except OSError as err:
        print(f"hulldown relay: {err}", file=sys.stderr)
        return 1
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """``hulldown verify LOG``: exit 0 when every die, chain element and revealed plot of a
    network battle's log checks out; 1 with the first line that does not."""
    # lazy: --help loads this module for its commands; the engine loads when one runs
    from game.net.verify import verify_log

    problem = verify_log(args.log)
    if problem:
        print(problem, file=sys.stderr)
        return 1
    print(f"{args.log}: every roll, chain element and revealed plot checks out")
    return 0


def add_commands(sub) -> None:
    """Add ``host``, ``join``, ``relay`` and ``verify`` to the ``hulldown`` command line."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--ai", action="store_true", help="the AI plays this side, no window")
    common.add_argument("--level", default=DEFAULT_LEVEL, choices=PLAYABLE)
    common.add_argument("--log", help="the battle log (default: a new file in the saves folder)")
    common.add_argument("--resume", metavar="LOG", help="resume the network battle of this log")
    common.add_argument(
        "--timeout",
        type=float,
        default=600.0,
        help="seconds without a word from the other side before it is taken to have left",
    )
    common.add_argument("--frames", type=int, default=0, help=argparse.SUPPRESS)
    h = sub.add_parser("host", parents=[common], help="host a network battle")
    h.add_argument("scenario", nargs="?", help="scenario file (not with --resume)")
    h.add_argument("--port", type=_port, help=f"port to listen on (default {PORT})")
    h.add_argument(
        "--side", help="the side this machine plays (default: the first), or open: the joiner's"
    )
    h.add_argument("--seed", type=int, default=1, help="the battle's seed (its start line)")
    h.add_argument("--relay", metavar="ADDRESS", help="meet through this relay (HOST:PORT)")
    h.add_argument("--code", help=argparse.SUPPRESS)  # --resume LOG remembers it
    h.set_defaults(func=cmd_host)
    j = sub.add_parser("join", parents=[common], help="join a network battle")
    j.add_argument("address", nargs="?", help="the host, HOST[:PORT]")
    j.add_argument("--relay", nargs=2, metavar=("ADDRESS", "CODE"), help="join through a relay")
    j.add_argument("--seed", type=int, default=1, help="the AI's seed with --ai")
    j.add_argument("--side", help="the side to command, when the host left it open")
    j.set_defaults(func=cmd_join)
    r = sub.add_parser("relay", help="pair network players behind routers by a battle code")
    r.add_argument("--port", type=_port, default=PORT, help=f"port to listen on (default {PORT})")
    r.set_defaults(func=cmd_relay)
    v = sub.add_parser("verify", help="check every roll of a network battle's log")
    v.add_argument("log")
    v.set_defaults(func=cmd_verify)
