"""The ``hulldown`` command: start the game, check scenario files, render a map."""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import sys

from game import MAX_SEED, SEED_DIGITS  # --seed, bound as the menu and Quick battle bound it
from game.ai.levels import DEFAULT_LEVEL, PLAYABLE
from game.editor.osm_cli import add_command as add_import_osm
from game.net.cli import add_commands  # host, join, relay, verify

# the bounds of the arguments (an out-of-bounds value is one line from argparse, exit 2)
SCALE_RANGE = (1.0, 200.0)  # render --scale, pixels per inch
AI_SPEED_RANGE = (1.0, 1000.0)  # play --ai-speed, inches a second, or 0 (game.rules.battle's)
GAMES_RANGE = (1, 100_000)  # simulate --games


def _shown(text: str) -> str:
    return text if len(text) <= 30 else f"{text[:24]}... ({len(text)} characters)"


def _number(text: str, lo: float, hi: float, zero: bool = False) -> float:
    """A finite number from ``lo`` to ``hi`` (or 0 when ``zero``), for argparse."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{_shown(text)!r} is not a number") from None
    if not math.isfinite(value) or not (lo <= value <= hi or (zero and value == 0)):
        span = f"0 or a number from {lo:g} to {hi:g}" if zero else f"a number from {lo:g} to {hi:g}"
        raise argparse.ArgumentTypeError(f"give {span}, not {_shown(text)}")
    return value


def _whole(text: str, lo: int, hi: int, span: str) -> int:
    """A whole number from ``lo`` to ``hi``, for argparse."""
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or not lo <= value <= hi:
        raise argparse.ArgumentTypeError(f"give a whole number {span}, not {_shown(text)}")
    return value


JOBS_RANGE = (1, 1024)  # balance --jobs; capped again at the cores and memory when it runs


def jobs_arg(text: str) -> int:
    """``balance --jobs``: 1 to 1,024 processes (``balance`` caps it at the machine's cores
    and free memory: game.check.balance.job_limit)."""
    lo, hi = JOBS_RANGE
    return _whole(text, lo, hi, f"from {lo} to {hi:,}")


def scale_arg(text: str) -> float:
    """``render --scale``: pixels per inch, finite, 1 to 200."""
    return _number(text, *SCALE_RANGE)


def ai_speed_arg(text: str) -> float:
    """``play --ai-speed``: inches a second, 0 (moves not shown) or 1 to 1000; slower, a move
    would take minutes to show (1e-300 froze the battle for good)."""
    return _number(text, *AI_SPEED_RANGE, zero=True)


def games_arg(text: str) -> int:
    """``simulate --games``: 1 to 100,000 battles."""
    lo, hi = GAMES_RANGE
    return _whole(text, lo, hi, f"from {lo} to {hi:,}")


def seed_arg(text: str) -> int:
    """``--seed``: a whole number of at most 18 digits, so a save or a run of battles from it
    keeps seeds the save reader accepts."""
    return _whole(text, -MAX_SEED, MAX_SEED, f"of at most {SEED_DIGITS} digits")


def _cmd_check(args: argparse.Namespace) -> int:
    """Validate scenario files; one line per problem, exit 1 if any file has one."""
    from game import ScenarioError, load_scenario  # lazy: loads when the command runs

    bad = 0
    for path in args.files:
        try:
            sc = load_scenario(path)
        except ScenarioError as err:
            bad += 1
            for line in err.problems:
                print(line, file=sys.stderr)
        else:
            n = len(sc.spec.stands)
            print(
                f'{path}: ok ({sc.ruleset}, {sc.table.width:g}"x{sc.table.depth:g}", '
                f"{len(sc.table.features)} terrain features, {n} stands)"
            )
    return 1 if bad else 0


def _cmd_points(args: argparse.Namespace) -> int:
    """A scenario's forces as the seed sheets cost them and the balancing moves that bring
    them nearest even (000/001 "Create your own Tank Scenario"); exit 1 for a file that
    cannot be read as a scenario."""
    # lazy: this command's modules load when it runs, so --help stays fast
    from game import JsonFileError, load_rules_data, read_json_file
    from game.editor.mend import showable
    from game.editor.points import balancing_moves, forces, ratio

    def say(line: str) -> None:
        # a title or name may hold a lone surrogate or a control character: shown as
        # U+FFFD, as the editor shows it, never an encoding error
        print(showable(line))

    bad = 0
    data = load_rules_data()
    for path in args.files:
        try:
            raw = read_json_file(path)
        except JsonFileError as err:
            print(err, file=sys.stderr)
            bad += 1
            continue
        if not isinstance(raw, dict):
            print(f"{path}: not a scenario (a JSON object)", file=sys.stderr)
            bad += 1
            continue
        fs = forces(raw, data)
        say(f"{path}: {raw.get('title', '')} ({raw.get('ruleset', '?')})")
        for f in fs:
            parts = " + ".join(
                f"{ln.count} {ln.unit} x {ln.points}"
                + (f" (an HQ counts twice: {ln.weighted})" if ln.weighted != ln.count else "")
                for ln in f.lines
            )
            say(
                f"  {f.name or f.side_id} ({f.side_id}): {parts or 'no stands'}, "
                f"x cohesion {f.cohesion:g} / 10 = {f.value:g}"
            )
        if len(fs) != 2:
            continue
        r = ratio(fs[0].value, fs[1].value)
        strong = fs[0] if fs[0].value >= fs[1].value else fs[1]
        even = " (even)" if r == 1 else f" ({strong.name or strong.side_id} stronger)"
        say(f"  ratio {r:.3f}{even}")
        moves = balancing_moves(raw, data, args.moves)
        if moves:
            say("  the sheets' balancing moves, nearest even first:")
        for m in moves:
            say(f"    {m.what}: {m.values[0]:g} against {m.values[1]:g}, ratio {m.ratio:.3f}")
    return 1 if bad else 0


def _cmd_generate(args: argparse.Namespace) -> int:
    """Write a quick-battle scenario on a fresh table from the seed sheets' recipe;
    exit 1 with one line for a unit, ruleset or number the recipe cannot take."""
    # lazy: this command's modules load when it runs, so --help stays fast
    from game import ScenarioError, load_rules_data, parse_scenario, write_scenario
    from game.editor.generate import generate_scenario

    try:
        cohesion = tuple(int(v) for v in args.cohesion.split(","))
        if len(cohesion) == 1:
            cohesion = cohesion * 2
        raw = generate_scenario(
            load_rules_data(),
            args.ruleset,
            args.a,
            args.b,
            args.seed,
            stands_a=args.stands,
            cohesion=cohesion,
            density=args.density,
        )
        parse_scenario(raw, args.out)
        write_scenario(args.out, raw)
    except (ValueError, ScenarioError, OSError) as err:
        print(f"hulldown generate: {err}", file=sys.stderr)
        return 1
    n = {s: sum(1 for st in raw["stands"] if st["side"] == s) for s in ("A", "B")}
    print(f"{args.out}: {n['A']} {args.a} against {n['B']} {args.b}; check it with hulldown points")
    return 0


def _cmd_balance(args: argparse.Namespace) -> int:
    """``hulldown balance`` (:func:`game.check.balance_cli.balance_command`)."""
    from game.check.balance_cli import balance_command  # lazy: loads when the command runs

    return balance_command(args)


def _cmd_render(args: argparse.Namespace) -> int:
    """Draw a scenario's table to a PNG, headless."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    # lazy: this command's modules load when it runs, so --help stays fast
    from game import NotARegularFile, ScenarioError, load_scenario
    from game.ui.render import render_png

    try:
        sc = load_scenario(args.scenario)
    except ScenarioError as err:
        print(err, file=sys.stderr)
        return 1
    try:
        w, h = render_png(sc, args.out, args.scale, style=args.style)
    except NotARegularFile as err:  # a FIFO or a device at --out: refused, left as it is
        print(f"hulldown render: {err}", file=sys.stderr)
        return 1
    except OSError as err:  # a full disk: nothing written (atomic), the old file kept
        why = err.strerror or err
        print(f"{args.out}: cannot write the picture ({why}); nothing written", file=sys.stderr)
        return 1
    except (ValueError, RuntimeError) as err:  # pygame.error is a RuntimeError subclass
        print(f"{args.out}: cannot write the picture ({err})", file=sys.stderr)
        return 1
    print(f"wrote {args.out} ({w}x{h} px)")
    return 0


def _cmd_view(args: argparse.Namespace) -> int:
    """Open a window on a scenario's table (the battle screens come with the engine)."""
    from game import ScenarioError, load_scenario, shipped_dir  # lazy: loads when the command runs
    from game.ui.viewer import run_viewer

    path = args.scenario or shipped_dir("maps") / "modern-meeting.json"
    try:
        sc = load_scenario(path)
    except ScenarioError as err:
        print(err, file=sys.stderr)
        return 1
    return run_viewer(sc, frames=args.frames)


def _cmd_simulate(args: argparse.Namespace) -> int:
    """Play battles headless and print a summary (:mod:`game.check.sim_cli`)."""
    from game.check.sim_cli import simulate_command  # lazy: loads when the command runs

    return simulate_command(args)


def _cmd_edit(args: argparse.Namespace) -> int:
    """Open the map editor on a scenario file, or on a new table."""
    from game.editor.document import Document, EditorFileError  # lazy: loads when the command runs
    from game.ui.app import start
    from game.ui.editor import editor_screen
    from game.ui.navigation import show

    doc = None
    if args.scenario:
        try:
            doc = Document.open(args.scenario)
        except EditorFileError as err:
            print(err, file=sys.stderr)
            return 1

    def screen(app):
        return editor_screen(app, doc, on_menu=lambda: show(app, "menu"))

    return start(screen, frames=args.frames)


def _cmd_replay(args: argparse.Namespace) -> int:
    """Replay a battle step by step in a window: from a save (its actions played again through
    the engine) or from a battle log, a ``.jsonl`` file (its lines read)."""
    from game import LogReplayError, Replay, SaveError  # lazy: loads when the command runs

    if args.check:
        return _check_replay(args.save)
    from game.ui.app import start  # lazy: loads when the command runs
    from game.ui.replay import ReplayScreen

    try:
        if str(args.save).lower().endswith(".jsonl"):
            replay = _read_log(args.save)
        else:
            replay = Replay.from_save(args.save)
    except (SaveError, LogReplayError) as err:
        print(err, file=sys.stderr)
        return 1
    if getattr(replay, "unfinished", None):  # a battle stopped by a kill: shown as far as it went
        print(f"{args.save}: {replay.unfinished}", file=sys.stderr)
    return start(lambda app: ReplayScreen(app, replay), frames=args.frames)


def _check_replay(path: str) -> int:
    """``replay FILE --check``: step through every position and put every line into words,
    headless (:mod:`game.check.replaycheck`); exit 0 with one line, or 1 with the line and
    the problem. A network battle's log is verified first (``hulldown verify``): never
    "ok" for one whose dice do not check out."""
    from game import LogReplayError, SaveError  # lazy: loads when the command runs
    from game.check.replaycheck import check_log, check_save
    from game.net.verify import is_network_log, verify_log

    if is_network_log(path):  # its dice come from the chains: every roll checked first
        problem = verify_log(path)
        if problem:
            print(f"{problem} (a network battle's log: see `hulldown verify`)", file=sys.stderr)
            return 1
    try:
        if str(path).lower().endswith(".jsonl"):
            print(_with_bar(path, lambda progress: check_log(path, progress)))
        else:
            print(check_save(path))
    except (SaveError, LogReplayError) as err:
        print(err, file=sys.stderr)
        return 1
    return 0


def _read_log(path: str):
    """A battle log's replay, read with a progress bar on stderr when it is long (over 1 MB,
    some 10,000 lines). Raises LogReplayError."""
    from game import LogReplay  # lazy: loads when the command runs

    return _with_bar(path, lambda progress: LogReplay.from_file(path, progress=progress))


def _with_bar(path: str, read):
    """``read(progress)`` with a progress bar on stderr for a file over 1 MB: ``progress``
    is called with the bytes read and the file's size."""
    from tqdm import tqdm  # lazy: loads when the command runs

    size = 0
    with contextlib.suppress(OSError, ValueError):
        size = os.stat(path).st_size
    bar = tqdm(
        total=size,
        desc="reading the log",
        unit="B",
        unit_scale=True,
        file=sys.stderr,
        disable=size < 1024 * 1024,
    )
    try:
        return read(lambda done, _size: bar.update(done - bar.n))
    finally:
        bar.close()


def _cmd_menu(args: argparse.Namespace) -> int:
    """Open the window on the main menu."""
    from game.ui.app import start  # lazy: loads when the command runs
    from game.ui.menu import MenuScreen

    return start(MenuScreen, frames=getattr(args, "frames", 0))


def _cmd_play(args: argparse.Namespace) -> int:
    """Go straight to a battle: a scenario with a seed, a save, or the autosave. ``--ai``
    hands a side to the AI, in a new battle or a loaded one (kept in its saves); a side the
    battle does not have is refused before anything is written."""
    # lazy: this command's modules load when it runs, so --help stays fast
    from game import SaveDiverged, SaveError, ScenarioError, load_scenario
    from game.saves import autosave_path
    from game.ui.app import start
    from game.ui.battles import battle_screen, continue_log, new_battle

    def no_such_side(sides: list[str]) -> bool:
        if args.ai and args.ai not in sides:
            print(
                f"hulldown play: --ai {args.ai}: no such side (the sides are {', '.join(sides)})",
                file=sys.stderr,
            )
            return True
        return False

    try:
        if args.resume or args.load:
            path = autosave_path() if args.resume else args.load
            try:
                battle = _load_battle(path, autosave_path(), args.go_on_from)
            except SaveDiverged as err:
                flag = "--resume" if args.resume else f"--load {args.load}"
                print(
                    f"{err}\nTo go on from action {err.agreed} (the {err.total - err.agreed} "
                    f"after it are dropped): hulldown play {flag} --go-on-from {err.agreed}",
                    file=sys.stderr,
                )
                return 1
            if battle.load_note:  # a power cut's zeros dropped from the journal
                print(f"hulldown play: {battle.load_note}", file=sys.stderr)
            if no_such_side(battle.sides):
                return 2
            continue_log(battle)
            if args.ai:
                battle.meta = {**battle.meta, "ai": {args.ai: args.level}}
                battle.meta["ai_speed"] = args.ai_speed
        elif args.scenario:
            if no_such_side([s.id for s in load_scenario(args.scenario).spec.sides]):
                return 2
            ai = {args.ai: args.level} if args.ai else {}
            battle = new_battle(args.scenario, args.seed, ai, args.ai_speed)
        else:
            print("hulldown play: give a SCENARIO, --load SAVE or --resume", file=sys.stderr)
            return 2
    except (ScenarioError, SaveError) as err:
        print(err, file=sys.stderr)
        return 1
    return start(lambda app: battle_screen(app, battle), frames=args.frames)


def _load_battle(path, autosave, upto: int | None = None):
    """``Battle.load`` with progress bars on stderr for a save or autosave over 1 MB: the
    bytes read, then the actions replayed (a 62 MB autosave took 84-95 s, nothing
    shown); ``upto``: only its first actions (``Battle.load``'s). Raises SaveError (and its
    SaveDiverged)."""
    from tqdm import tqdm  # lazy: loads when the command runs

    from game.ai.levels import load_battle  # lazy: loads when the command runs

    size = 0
    with contextlib.suppress(OSError, ValueError):
        size = os.stat(path).st_size
    bars: dict[str, tqdm] = {}
    words = {"read": ("reading the autosave", "B"), "replay": ("replaying it", "action")}

    def progress(stage: str, done: int, total: int) -> None:
        if stage not in bars:
            for bar in bars.values():
                bar.close()
            desc, unit = words[stage]
            bars[stage] = tqdm(total=total, desc=desc, unit=unit, unit_scale=True, file=sys.stderr)
        bars[stage].update(done - bars[stage].n)

    try:
        return load_battle(
            path, autosave=autosave, progress=progress if size > 2**20 else None, upto=upto
        )
    finally:
        for bar in bars.values():
            bar.close()


def _add_menu_and_play(sub: argparse._SubParsersAction) -> None:
    """The ``menu`` and ``play`` commands (the window's own battle: seed, save, AI side and
    level, the AI's shown speed in inches a second)."""
    mnu = sub.add_parser("menu", help="open the main menu (the default)")
    mnu.add_argument("--frames", type=int, default=0, help=argparse.SUPPRESS)
    mnu.set_defaults(func=_cmd_menu)
    pl = sub.add_parser("play", help="play a battle on screen")
    pl.add_argument("scenario", nargs="?", help="scenario file")
    pl.add_argument("--seed", type=seed_arg, default=1)
    pl.add_argument("--load", help="a save file to continue")
    pl.add_argument("--resume", action="store_true", help="continue the autosave")
    pl.add_argument(
        "--go-on-from",
        type=int,
        metavar="N",
        help="with --load or --resume: replay only the first N actions and go on from there "
        "(when a save written by another engine parts from this one's play after action N)",
    )
    pl.add_argument(
        "--ai", help="the side the AI plays (e.g. B), also in a loaded save; none: hotseat"
    )
    pl.add_argument("--level", default=DEFAULT_LEVEL, choices=PLAYABLE)
    pl.add_argument(
        "--ai-speed",
        type=ai_speed_arg,
        default=12.0,
        help="inches a second the AI's moves are shown at, 1 to 1000 (0: not shown)",
    )
    pl.add_argument("--frames", type=int, default=0, help=argparse.SUPPRESS)
    pl.set_defaults(func=_cmd_play)


def _add_edit_replay_view(sub: argparse._SubParsersAction) -> None:
    """The ``edit``, ``replay`` and ``view`` commands: the other commands that open a window
    (``replay --check`` reads a save or log without one)."""
    e = sub.add_parser("edit", help="open the map editor")
    e.add_argument("scenario", nargs="?", help="scenario file to edit (none: a new table)")
    e.add_argument("--frames", type=int, default=0, help=argparse.SUPPRESS)
    e.set_defaults(func=_cmd_edit)
    rp = sub.add_parser(
        "replay",
        help="replay a battle step by step, from a save or its log",
        description="Replay a battle step by step in a window, from a save or its log; "
        "--check reads it without a window instead.",
    )
    rp.add_argument(
        "save",
        metavar="SAVE|LOG",
        help="a save file (Ctrl+S in a battle, or the autosave) or a battle log (.jsonl)",
    )
    rp.add_argument(
        "--check",
        action="store_true",
        help="no window: step through every position and put every line into words as the "
        "log panel does; exit 0 with a one-line summary, or 1 with the line and the problem",
    )
    rp.add_argument("--frames", type=int, default=0, help=argparse.SUPPRESS)
    rp.set_defaults(func=_cmd_replay)
    v = sub.add_parser("view", help="open a window on a scenario's table")
    v.add_argument("scenario", nargs="?", help="scenario file (default maps/modern-meeting.json)")
    v.add_argument("--frames", type=int, default=0, help=argparse.SUPPRESS)
    v.set_defaults(func=_cmd_view)


def _add_file_commands(sub: argparse._SubParsersAction) -> None:
    """The ``check``, ``points`` and ``generate`` commands: they read or write scenario files
    and open no window."""
    c = sub.add_parser("check", help="validate scenario files")
    c.add_argument("files", nargs="+")
    c.set_defaults(func=_cmd_check)
    pt = sub.add_parser(
        "points", help="cost the forces as the seed sheets do, and the moves that balance them"
    )
    pt.add_argument("files", nargs="+")
    pt.add_argument("--moves", type=int, default=5, help="how many balancing moves to list")
    pt.set_defaults(func=_cmd_points)
    g = sub.add_parser("generate", help="a quick battle on a fresh table from the sheets' recipe")
    g.add_argument("--ruleset", default="modern", help="modern, wwii or modern-full")
    g.add_argument("--a", required=True, help="side A's unit (a data-table name)")
    g.add_argument("--b", required=True, help="side B's unit")
    g.add_argument("--seed", type=seed_arg, default=1)
    g.add_argument("--stands", type=int, default=8, help="side A's stands (1-30)")
    g.add_argument("--cohesion", default="15", help="one level for both, or A,B")
    g.add_argument("--density", default="medium", help="woods: light, medium or heavy")
    g.add_argument("--out", required=True, help="the scenario file to write")
    g.set_defaults(func=_cmd_generate)


def _add_balance(sub: argparse._SubParsersAction) -> None:
    """The ``balance`` command: AI against AI many times on one scenario, with the sheets'
    balancing moves tried under ``--suggest``."""
    bl = sub.add_parser("balance", help="is a scenario balanced? AI against AI, many times")
    bl.add_argument("scenario")
    bl.add_argument("--games", type=games_arg, default=200)
    bl.add_argument("--seed", type=seed_arg, default=1, help="seed of the first battle")
    bl.add_argument(
        "--players", default=DEFAULT_LEVEL, help=f"an AI level ({', '.join(PLAYABLE)}), or A,B"
    )
    bl.add_argument(
        "--jobs",
        type=jobs_arg,
        default=2,
        help="processes (default 2; capped at the cores and the memory free)",
    )
    bl.add_argument("--quiet", action="store_true", help="no progress bar")
    bl.add_argument("--chart", metavar="PNG", help="draw the outcomes and losses to this PNG")
    bl.add_argument(
        "--suggest", action="store_true", help="try the sheets' balancing moves, say the best"
    )
    bl.add_argument(
        "--trial-games", type=games_arg, default=40, help="battles per move tried (--suggest)"
    )
    bl.add_argument(
        "--rounds", type=int, default=2, help="moves made one on top of another (--suggest)"
    )
    bl.add_argument(
        "--scheduler", metavar="ADDRESS", help="a dask.distributed scheduler to play on"
    )
    bl.set_defaults(func=_cmd_balance)


def _add_render_and_simulate(sub: argparse._SubParsersAction) -> None:
    """The ``render`` (a table to a PNG, scale in pixels per inch) and ``simulate`` (whole
    battles headless) commands."""
    r = sub.add_parser("render", help="draw a scenario's table to a PNG")
    r.add_argument("scenario")
    r.add_argument("--out", required=True, help="PNG file to write")
    r.add_argument(
        "--scale", type=scale_arg, default=20.0, help="pixels per inch, 1 to 200 (default 20)"
    )
    r.add_argument(
        "--style",
        choices=("painted", "plain"),
        default="painted",
        help="the table's look: painted (default) or plain flat colours",
    )
    r.set_defaults(func=_cmd_render)
    s = sub.add_parser("simulate", help="play whole battles headless")
    s.add_argument("scenario")
    s.add_argument("--games", type=games_arg, default=1, help="how many, 1 to 100,000")
    s.add_argument(
        "--seed", type=seed_arg, default=1, help="seed of the first battle (then +1 each)"
    )
    s.add_argument("--log-dir", help="write one battle log per battle here")
    s.add_argument(
        "--players",
        default="random",
        help="who plays each side, e.g. random, ai,random, veteran,recruit",
    )
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.set_defaults(func=_cmd_simulate)


def build_parser() -> argparse.ArgumentParser:
    """The command line: ``hulldown [menu] | play | edit | replay | view | check | points |
    generate | import-osm | balance | render | simulate | host | join | relay | verify``."""
    p = argparse.ArgumentParser(prog="hulldown", description="Micro Armour on a real table.")
    sub = p.add_subparsers(dest="command")
    _add_menu_and_play(sub)
    _add_edit_replay_view(sub)
    _add_file_commands(sub)
    _add_balance(sub)
    _add_render_and_simulate(sub)
    add_import_osm(sub, _number)
    add_commands(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``hulldown`` console script; returns the exit status."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        args = parser.parse_args(["menu", *(argv or [])])
    from game import DataError, load_rules_data  # lazy: loads when the command runs

    try:
        load_rules_data()  # a broken table (the house values are the player's to edit)
    except DataError as err:
        print("hulldown: the rules data in assets/data is broken:", file=sys.stderr)
        print(err, file=sys.stderr)
        return 2
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
